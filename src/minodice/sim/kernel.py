"""The rules of Mino Dice again, as numba kernels over small integer arrays (for speed).

`minodice.rules` is the authority; this module re-expresses it so that
millions of tricks can be played per second, and `tests/test_sim.py` plays the
same seeded games through both and demands identical winners and scores.

Encoding (table order, as `Die.index` and `Face.index`):

- dice 0..6: minotaur, griffin, mermaid, red, yellow, purple, gray (0..2 are special);
- faces 0..10: flag, 1..7, minotaur, griffin, mermaid — so a number face's code
  is its number, and a flag is 0;
- a set of die kinds is a 7-bit mask (bit d: kind d); a set of seats likewise;
- a rule set is an int64[4] array (`encode_rules`): scoring (0 standard,
  1 landlubber), the face code that wins when all three specials meet, 1 if an
  all-flag trick goes to the first roller, 1 if the last trick's winner leads
  the next hand;
- the seats' policies are an int64[seats] array of `RANDOM` or `GREEDY`.

A hand in play lives in one int64 array `hs` (offsets `H_*`: dice held per
seat and kind, bids, tricks won, bonuses, the trick's faces, ...) and one
float64 array `fs` (`F_*`: the greedy policy's scratch and die strengths):
few arrays, because every array passed to a kernel function costs reference
counting on each call.

Randomness comes either from a xoshiro256** generator, whose state travels
as a tuple (s0, s1, s2, s3, pos) so the hot loops keep it in registers, or,
when `stream` is non-empty, from the uniforms in `stream` (pos counts those
used), consumed in a fixed order so that a Python `Chance` and policy can
replay exactly the same game through the engine:

1. a hand's deal: a partial Fisher–Yates shuffle of the bag in table order
   (`BAG_ARRAY`): for i in 0 .. seats*n-1, j = i + int(u * (36 - i)), swap;
   seat s draws positions s*n .. s*n+n-1;
2. bids, seat 0 first: a random seat bids int(u * (n + 1)); a greedy seat uses
   no uniform;
3. each roll: a random seat picks legal[int(u * len(legal))] (legal kinds in
   table order), a greedy seat uses no uniform; then the face is
   die.faces[int(u * 6)].
"""

from __future__ import annotations

import numpy as np

from ..dice import BAG, BAG_COUNTS, Die, Face
from ..jit import njit
from ..rules import Rules

__all__ = [
    "BAG_ARRAY",
    "FACE_TABLE",
    "GREEDY",
    "POLICIES",
    "RANDOM",
    "choose_kernel",
    "draw",
    "encode_rules",
    "finish_kernel",
    "greedy_bid",
    "greedy_bid_values",
    "greedy_roll",
    "hand_score",
    "legal_mask",
    "play_hand",
    "roll_chances",
    "seed_state",
    "simulate_kernel",
    "trick_bonus",
    "trick_winner",
]

#: Policy codes.
RANDOM = 0
GREEDY = 1
POLICIES: dict[str, int] = {"random": RANDOM, "greedy": GREEDY}

# --- tables (module globals become compile-time constants in the kernels) -------------

#: FACE_TABLE[d, i]: face code of side i of die kind d.
FACE_TABLE = np.array([[f.index for f in d.faces] for d in Die], dtype=np.int64)
#: Dice of each kind in the bag.
BAG_COUNT = np.array([BAG_COUNTS[d] for d in Die], dtype=np.int64)
#: The 36 dice of the bag, in table order.
BAG_ARRAY = np.array([d.index for d in BAG], dtype=np.int64)
#: Each kind's distinct faces in order of first appearance, with probabilities (as GreedyBot).
_DISTINCT = [list(dict.fromkeys(d.faces)) for d in Die]
DIST_N = np.array([len(fs) for fs in _DISTINCT], dtype=np.int64)
DIST_FACE = np.zeros((7, 6), dtype=np.int64)
DIST_P = np.zeros((7, 6), dtype=np.float64)
for _d, _fs in zip(Die, _DISTINCT):
    for _j, _f in enumerate(_fs):
        DIST_FACE[_d.index, _j] = _f.index
        DIST_P[_d.index, _j] = _d.faces.count(_f) / 6
#: POP[m]: number of kinds in mask m; KTH[m, i]: the i-th kind (table order) in m.
POP = np.array([bin(m).count("1") for m in range(128)], dtype=np.int64)
KTH = np.full((128, 7), -1, dtype=np.int64)
for _m in range(128):
    for _i, _k in enumerate(k for k in range(7) if _m >> k & 1):
        KTH[_m, _i] = _k

assert [f.index for f in Face][:8] == list(range(8)) and Face.FLAG.index == 0
assert (Face.MINOTAUR.index, Face.GRIFFIN.index, Face.MERMAID.index) == (8, 9, 10)
assert [d.special for d in Die] == [True] * 3 + [False] * 4

FLAG, MINOTAUR, GRIFFIN, MERMAID = 0, 8, 9, 10
#: SPEC_BIT[f]: the special-face bit of face f (1 minotaur, 2 griffin, 4 mermaid; 0 for others).
SPEC_BIT = np.array([0] * 8 + [1, 2, 4], dtype=np.int64)
#: NUM_VAL[f]: the number of face f (0 for a flag or a special face).
NUM_VAL = np.array([*range(8), 0, 0, 0], dtype=np.int64)


def _win_face_py(smask: int, maxnum: int, all_specials: int) -> int:
    """The face that wins a trick with specials `smask` and top number `maxnum` (as `rules.winning_face`)."""
    if smask == 0:
        return maxnum
    if smask == 7:
        return all_specials
    if smask & 1:
        return MERMAID if smask & 4 else MINOTAUR
    return GRIFFIN if smask & 2 else MERMAID


#: WIN_FACE[a - 8, smask, maxnum]: the winning face, where a is the all-specials face code.
WIN_FACE = np.array(
    [[[_win_face_py(m, x, a + 8) for x in range(8)] for m in range(8)] for a in range(3)], dtype=np.int64
)

_SPECIAL_FACE = {"mermaid": MERMAID, "minotaur": MINOTAUR, "griffin": GRIFFIN}

# Offsets in the hand state `hs` (room for 6 seats and 8 tricks).
H_COUNTS = 0  # dice held: H_COUNTS + 7 * seat + kind
H_MASKS = 42  # kinds held, per seat (bit masks)
H_BIDS = 48
H_WON = 54
H_BONUS = 60
H_FACES = 66  # faces of the trick in progress, in rolling order
H_ROLLED = 72  # dice rolled this hand, per kind
H_LAST = 79  # where each face was last rolled in the trick in progress
H_WINNERS = 90  # the winner of each trick of the hand
H_BAG = 98  # the bag, shuffled while dealing
H_SIZE = 134
# Offsets in the float state `fs`.
F_ODDS = 0  # face odds of a die the seat has not seen (11)
F_CHANCE = 11  # each kind's chance to take the trick (7)
F_STRENGTH = 18  # GreedyBot's die_strength per kind (7)
F_DIST = 25  # trick-count distribution (10)
F_NEXT = 35  # (10)
F_BIDV = 45  # each bid's expected score, by greedy_bid_values (9)
F_SIZE = 54

S_BIDS = 5  # in `decode`'s state array: where the bids start (one per seat)

_RULES_CACHE: dict[Rules, np.ndarray] = {}


def encode_rules(rules: Rules) -> np.ndarray:
    """The int64[4] form of `rules` the kernels read (cached: treat it as read-only)."""
    arr = _RULES_CACHE.get(rules)
    if arr is None:
        arr = np.array(
            [
                1 if rules.scoring == "landlubber" else 0,
                _SPECIAL_FACE[rules.all_specials],
                1 if rules.all_flags == "first" else 0,
                1 if rules.hand_start == "last_winner" else 0,
            ],
            dtype=np.int64,
        )
        arr.flags.writeable = False
        _RULES_CACHE[rules] = arr
    return arr


# --- random numbers -------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _splitmix(x):
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True, error_model="numpy")
def seed_state(seed):
    """A xoshiro256** state tuple (s0, s1, s2, s3, pos=0) from a uint64 `seed` (splitmix64)."""
    x, s0 = _splitmix(np.uint64(seed))
    x, s1 = _splitmix(x)
    x, s2 = _splitmix(x)
    x, s3 = _splitmix(x)
    return (s0, s1, s2, s3, np.int64(0))


@njit(cache=True, error_model="numpy")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, error_model="numpy")
def draw(st, stream):
    """The next uniform in [0, 1) and the new state: from `stream` if non-empty, else xoshiro256**."""
    s0, s1, s2, s3, pos = st
    if stream.shape[0] > 0:
        # The callers make the stream long enough (no raise here: a raise path would cost
        # every caller reference counting on its arrays); were it too short, it would wrap.
        if pos >= stream.shape[0]:
            pos = 0
        return stream[pos], (s0, s1, s2, s3, pos + 1)
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return np.float64(result >> np.uint64(11)) * (1.0 / 9007199254740992.0), (s0, s1, s2, s3, pos)


# --- the rules ---------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def legal_mask(mask, lead):
    """Kinds a seat holding kinds `mask` may roll under lead colour `lead` (-1: none yet)."""
    if lead >= 0 and (mask >> lead) & 1:
        return mask & (7 | (1 << lead))
    return mask


@njit(cache=True, error_model="numpy")
def trick_winner(faces, k, all_specials, flags_first):
    """Index (rolling order) of the roll that wins the trick `faces[:k]` (as `rules.trick_winner`)."""
    smask = 0
    maxnum = 0
    for i in range(k):
        smask |= SPEC_BIT[faces[i]]
        maxnum = max(maxnum, NUM_VAL[faces[i]])
    best = WIN_FACE[all_specials - MINOTAUR, smask, maxnum]
    if best == FLAG and flags_first:
        return 0
    i = k - 1
    while faces[i] != best:
        i -= 1
    return i


@njit(cache=True, error_model="numpy")
def trick_bonus(faces, k, winner):
    """Bonus the winner of trick `faces[:k]` earns if its bid is made (as `rules.trick_bonus`)."""
    win = faces[winner]
    if win == MERMAID:
        for i in range(k):
            if faces[i] == MINOTAUR:
                return 50
        return 0
    if win == MINOTAUR:
        total = 0
        for i in range(k):
            if faces[i] == GRIFFIN:
                total += 30
        return total
    return 0


@njit(cache=True, error_model="numpy")
def hand_score(bid, won, dice, bonus, landlubber):
    """One seat's points for a hand of `dice` dice (as `rules.hand_score`)."""
    if bid == 0:
        return 10 * dice if won == 0 else -10 * dice
    if landlubber:
        return 20 * bid if won == bid else 0
    if won == bid:
        return 20 * bid + bonus
    return -10 * abs(won - bid)


# --- the greedy policy ---------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def greedy_bid(hs, fs, s, n, landlubber):
    """GreedyBot's bid for seat `s`: the best expected score, each die winning with its strength."""
    greedy_bid_values(hs, fs, s, n, landlubber)
    best = 0
    best_value = -np.inf
    for b in range(n + 1):
        value = fs[F_BIDV + b]
        if value > best_value + 1e-9:
            best = b
            best_value = value
    return best


@njit(cache=True, error_model="numpy")
def greedy_bid_values(hs, fs, s, n, landlubber):
    """Each bid b = 0..n's expected score for seat `s` as GreedyBot sees it, into fs[F_BIDV + b]."""
    dist = F_DIST
    nxt = F_NEXT
    fs[dist] = 1.0
    m = 0  # the distribution has m + 1 entries
    for d in range(7):
        p = fs[F_STRENGTH + d]
        for _ in range(hs[H_COUNTS + 7 * s + d]):
            for t in range(m + 2):
                fs[nxt + t] = 0.0
            for t in range(m + 1):
                q = fs[dist + t]
                fs[nxt + t] += q * (1 - p)
                fs[nxt + t + 1] += q * p
            m += 1
            for t in range(m + 1):
                fs[dist + t] = fs[nxt + t]
    for b in range(n + 1):
        value = 0.0
        for t in range(m + 1):
            value += fs[dist + t] * hand_score(b, t, n, 0, landlubber)
        fs[F_BIDV + b] = value


@njit(cache=True, error_model="numpy")
def greedy_roll(hs, fs, s, seats, k, legal, all_specials, flags_first):
    """GreedyBot's roll for seat `s` (kinds `legal`, `k` faces rolled in the trick so far).

    Each legal die's chance to take the trick: its faces that lead now, times
    the chance that none of the later seats rolls a face that takes it (a
    later seat's face drawn from the dice `s` has not seen this hand). While
    it needs tricks the seat rolls the likeliest winner (unless hopeless:
    then its weakest die); otherwise the most dangerous die that still loses.
    """
    if POP[legal] == 1:
        return KTH[legal, 0]
    held = roll_chances(hs, fs, s, seats, k, legal, all_specials, flags_first)
    return _greedy_decide(hs, fs, s, legal, held)


@njit(cache=True, error_model="numpy")
def roll_chances(hs, fs, s, seats, k, legal, all_specials, flags_first):
    """Each legal kind's chance to take the trick for seat `s`, as GreedyBot sees it, into fs[F_CHANCE + d];
    returns the number of dice the seat holds."""
    asf = all_specials - MINOTAUR
    for f in range(11):
        fs[F_ODDS + f] = 0.0
    total = 0
    held = 0
    for d in range(7):
        held += hs[H_COUNTS + 7 * s + d]
        c = BAG_COUNT[d] - hs[H_COUNTS + 7 * s + d] - hs[H_ROLLED + d]
        if c > 0:
            total += c
    if total > 0:
        for d in range(7):
            c = BAG_COUNT[d] - hs[H_COUNTS + 7 * s + d] - hs[H_ROLLED + d]
            if c > 0:
                for j in range(DIST_N[d]):
                    fs[F_ODDS + DIST_FACE[d, j]] += DIST_P[d, j] * c / total
    smask = 0
    maxnum = 0
    for i in range(k):
        smask |= SPEC_BIT[hs[H_FACES + i]]
        maxnum = max(maxnum, NUM_VAL[hs[H_FACES + i]])
    later = np.float64(seats - k - 1)
    for d in range(7):
        if not (legal >> d) & 1:
            continue
        ch = 0.0
        for j in range(DIST_N[d]):
            g = DIST_FACE[d, j]
            sm2 = smask | SPEC_BIT[g]
            mx2 = max(maxnum, NUM_VAL[g])
            w2 = WIN_FACE[asf, sm2, mx2]
            if k > 0 and (g != w2 or (w2 == FLAG and flags_first)):
                continue  # this face does not lead the trick
            threat = 0.0
            for h in range(11):
                odds = fs[F_ODDS + h]
                if odds == 0.0:
                    continue
                w3 = WIN_FACE[asf, sm2 | SPEC_BIT[h], max(mx2, NUM_VAL[h])]
                if w3 == FLAG:
                    keeps = flags_first != 0 and k == 0
                else:
                    keeps = (w3 == g) and (h != w3)
                if not keeps:
                    threat += odds
            ch += DIST_P[d, j] * np.power(1.0 - threat, later)
        fs[F_CHANCE + d] = ch
    return held


@njit(cache=True, error_model="numpy")
def _greedy_decide(hs, fs, s, legal, held):
    """GreedyBot's choice among the kinds `legal` from their chances (fs[F_CHANCE + d]) and strengths."""
    chance = F_CHANCE
    strength = F_STRENGTH
    need = hs[H_BIDS + s] - hs[H_WON + s]
    if need > 0:
        best = -1
        for d in range(7):
            if not (legal >> d) & 1:
                continue
            if best < 0 or fs[chance + d] > fs[chance + best] or (
                fs[chance + d] == fs[chance + best] and fs[strength + d] < fs[strength + best]
            ):
                best = d
        if fs[chance + best] >= 0.05 or need >= held:
            return best
        # Hopeless trick: keep the strong dice for later ones.
        best = -1
        for d in range(7):
            if not (legal >> d) & 1:
                continue
            if best < 0 or fs[strength + d] < fs[strength + best] or (
                fs[strength + d] == fs[strength + best] and fs[chance + d] < fs[chance + best]
            ):
                best = d
        return best
    # Enough tricks (or a zero bid): lose this trick, shedding the most dangerous die that loses.
    best = -1
    rb = 0.0
    for d in range(7):
        if (legal >> d) & 1:
            r = np.floor(fs[chance + d] * 1e6 + 0.5)  # round(chance, 6), scaled
            if best < 0 or r < rb or (r == rb and fs[strength + d] > fs[strength + best]):
                best = d
                rb = r
    return best


# --- playing ---------------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def play_hand(hs, fs, stream, st, seats, n, k, lead, leader, all_specials, flags_first, greedy, forced):
    """Play the hand in `hs` from its current trick (`k` faces rolled, led by `leader`) to its end.

    `greedy` is the set of greedy seats (bits); the others roll at random.
    `forced` >= 0 is the kind the seat to roll now must roll. Updates `hs`
    (dice held, rolled, tricks won, bonuses, each trick's winner). Returns
    (the winner of the last trick, the generator state).
    """
    # The trick in progress, summarised as it grows: specials rolled (bits), top number,
    # griffin faces, and where each face was last rolled -- its winner is then a look-up.
    asf = all_specials - MINOTAUR
    smask = 0
    maxnum = 0
    griffins = 0
    for i in range(k):
        f = hs[H_FACES + i]
        hs[H_LAST + f] = i
        smask |= SPEC_BIT[f]
        maxnum = max(maxnum, NUM_VAL[f])
        griffins += f == GRIFFIN
    t = 0
    for s in range(seats):
        t += hs[H_WON + s]
    while t < n:
        while k < seats:
            s = leader + k
            if s >= seats:
                s -= seats
            legal = legal_mask(hs[H_MASKS + s], lead)
            if forced >= 0:
                d = forced
                forced = -1
            elif (greedy >> s) & 1:
                d = greedy_roll(hs, fs, s, seats, k, legal, all_specials, flags_first)
            else:
                u, st = draw(st, stream)
                d = KTH[legal, int(u * POP[legal])]
            c = hs[H_COUNTS + 7 * s + d] - 1
            hs[H_COUNTS + 7 * s + d] = c
            hs[H_MASKS + s] &= ~((1 - min(c, 1)) << d)
            hs[H_ROLLED + d] += 1
            u, st = draw(st, stream)
            f = FACE_TABLE[d, int(u * 6)]
            hs[H_FACES + k] = f
            hs[H_LAST + f] = k
            smask |= SPEC_BIT[f]
            maxnum = max(maxnum, NUM_VAL[f])
            griffins += f == GRIFFIN
            k += 1
            if lead < 0 and d >= 3:
                lead = d
        # As `trick_winner` and `trick_bonus` (the face that wins was rolled in this trick).
        best = WIN_FACE[asf, smask, maxnum]
        w = 0 if best == FLAG and flags_first else hs[H_LAST + best]
        ws = leader + w
        if ws >= seats:
            ws -= seats
        hs[H_WON + ws] += 1
        if best == MERMAID:
            hs[H_BONUS + ws] += 50 * (smask & 1)
        elif best == MINOTAUR:
            hs[H_BONUS + ws] += 30 * griffins
        hs[H_WINNERS + t] = ws
        leader = ws
        k = 0
        lead = -1
        smask = 0
        maxnum = 0
        griffins = 0
        t += 1
    return leader, st


@njit(cache=True, error_model="numpy")
def deal(hs, stream, st, seats, n):
    """Fill `hs` with a fresh hand: `n` dice per seat from a full bag (partial Fisher–Yates)."""
    for i in range(36):
        hs[H_BAG + i] = BAG_ARRAY[i]
    for i in range(seats * n):
        u, st = draw(st, stream)
        j = i + int(u * (36 - i))
        x = hs[H_BAG + i]
        hs[H_BAG + i] = hs[H_BAG + j]
        hs[H_BAG + j] = x
    for i in range(H_BAG):
        hs[i] = 0
    for s in range(seats):
        m = 0
        for i in range(s * n, s * n + n):
            d = hs[H_BAG + i]
            hs[H_COUNTS + 7 * s + d] += 1
            m |= 1 << d
        hs[H_MASKS + s] = m
    return st


@njit(cache=True, error_model="numpy")
def _greedy_set(pol):
    greedy = 0
    for s in range(pol.shape[0]):
        if pol[s] != RANDOM:
            greedy |= 1 << s
    return greedy


@njit(cache=True, error_model="numpy")
def simulate_kernel(games, seats, hands, first_start, rules, pol, strength, seed, stream,
                    totals, scores, bids_out, won_out, winners_out):
    """Play `games` complete games; totals[g, s] gets each final total.

    If `scores` is non-empty (shape [games, hands, seats]), per-hand scores,
    bids and tricks won are recorded too, and each trick's winner in
    winners_out[g, hand, trick]. Returns the uniforms drawn from `stream`.
    """
    landlubber = rules[0]
    all_specials = rules[1]
    flags_first = rules[2]
    last_winner = rules[3]
    detail = scores.shape[0] > 0
    greedy = _greedy_set(pol)
    hs = np.zeros(H_SIZE, dtype=np.int64)
    fs = np.zeros(F_SIZE)
    for d in range(7):
        fs[F_STRENGTH + d] = strength[d]
    st = seed_state(seed)
    for g in range(games):
        start = first_start
        for h in range(hands):
            n = h + 1
            st = deal(hs, stream, st, seats, n)
            for s in range(seats):
                if (greedy >> s) & 1:
                    hs[H_BIDS + s] = greedy_bid(hs, fs, s, n, landlubber)
                else:
                    u, st = draw(st, stream)
                    hs[H_BIDS + s] = int(u * (n + 1))
            last, st = play_hand(hs, fs, stream, st, seats, n, 0, -1, start,
                                 all_specials, flags_first, greedy, -1)
            for s in range(seats):
                p = hand_score(hs[H_BIDS + s], hs[H_WON + s], n, hs[H_BONUS + s], landlubber)
                totals[g, s] += p
                if detail:
                    scores[g, h, s] = p
                    bids_out[g, h, s] = hs[H_BIDS + s]
                    won_out[g, h, s] = hs[H_WON + s]
            if detail:
                for t in range(n):
                    winners_out[g, h, t] = hs[H_WINNERS + t]
            if last_winner:
                start = last
            else:
                start = start + 1 if start + 1 < seats else 0
    return st[4]


@njit(cache=True, error_model="numpy")
def decode(state, hs):
    """Fill `hs` from a state array (`playout.pack_state`); returns (seats, n, leader, k, lead).

    state: seats, n, leader, k, lead, bids[seats] (-1: to be chosen),
    won[seats], bonus[seats], faces of the trick so far[k], then per seat the
    number of dice held and their kinds, then the kinds rolled this hand
    (count, kinds).
    """
    seats = state[0]
    n = state[1]
    leader = state[2]
    k = state[3]
    lead = state[4]
    for i in range(H_SIZE):
        hs[i] = 0
    p = S_BIDS
    for s in range(seats):
        hs[H_BIDS + s] = state[p + s]
        hs[H_WON + s] = state[p + seats + s]
        hs[H_BONUS + s] = state[p + 2 * seats + s]
    p += 3 * seats
    for i in range(k):
        hs[H_FACES + i] = state[p + i]
    p += k
    for s in range(seats):
        m = state[p]
        p += 1
        for i in range(m):
            d = state[p + i]
            hs[H_COUNTS + 7 * s + d] += 1
            hs[H_MASKS + s] |= 1 << d
        p += m
    m = state[p]
    p += 1
    for i in range(m):
        hs[H_ROLLED + state[p + i]] += 1
    return seats, n, leader, k, lead


@njit(cache=True, error_model="numpy")
def finish_kernel(plays, state, rules, pol, strength, seed, stream, forced, scores_out, won_out):
    """Play the rest of the hand encoded in `state` (see `decode`) `plays` times.

    scores_out/won_out [plays, seats] get each playout's hand scores and tricks
    won. Bids still missing (-1) are chosen by the seat's policy: a greedy
    seat's once, a random seat's in every playout. `forced` >= 0: the kind the
    seat to roll now rolls in every playout. `seed` seeds the generator
    (unless `stream` is given). Returns the uniforms drawn from `stream`.
    """
    hs0 = np.empty(H_SIZE, dtype=np.int64)
    seats, n, leader, k, lead = decode(state, hs0)
    landlubber = rules[0]
    greedy = _greedy_set(pol)
    fs = np.zeros(F_SIZE)
    for d in range(7):
        fs[F_STRENGTH + d] = strength[d]
    for s in range(seats):
        if hs0[H_BIDS + s] < 0 and (greedy >> s) & 1:
            hs0[H_BIDS + s] = greedy_bid(hs0, fs, s, n, landlubber)
    hs = np.empty(H_SIZE, dtype=np.int64)
    st = seed_state(seed)
    for i in range(plays):
        for j in range(H_SIZE):
            hs[j] = hs0[j]
        for s in range(seats):
            if hs[H_BIDS + s] < 0:
                u, st = draw(st, stream)
                hs[H_BIDS + s] = int(u * (n + 1))
        _, st = play_hand(hs, fs, stream, st, seats, n, k, lead, leader, rules[1], rules[2], greedy, forced)
        for s in range(seats):
            scores_out[i, s] = hand_score(hs[H_BIDS + s], hs[H_WON + s], n, hs[H_BONUS + s], landlubber)
            won_out[i, s] = hs[H_WON + s]
    return st[4]


@njit(cache=True, error_model="numpy")
def choose_kernel(state, rules, pol, strength, seed, stream):
    """The policy's choice at `state` (see `decode`): while rolling, [kind, -1, ...];
    while bidding, the bids of the seats still to bid (-1 for the others)."""
    hs = np.empty(H_SIZE, dtype=np.int64)
    seats, n, leader, k, lead = decode(state, hs)
    greedy = _greedy_set(pol)
    fs = np.zeros(F_SIZE)
    for d in range(7):
        fs[F_STRENGTH + d] = strength[d]
    st = seed_state(seed)
    out = np.full(seats, -1, dtype=np.int64)
    bidding = False
    for s in range(seats):
        if hs[H_BIDS + s] < 0:
            bidding = True
            if (greedy >> s) & 1:
                out[s] = greedy_bid(hs, fs, s, n, rules[0])
            else:
                u, st = draw(st, stream)
                out[s] = int(u * (n + 1))
    if bidding:
        return out
    s = (leader + k) % seats
    legal = legal_mask(hs[H_MASKS + s], lead)
    if (greedy >> s) & 1:
        out[0] = greedy_roll(hs, fs, s, seats, k, legal, rules[1], rules[2])
    else:
        u, st = draw(st, stream)
        out[0] = KTH[legal, int(u * POP[legal])]
    return out
