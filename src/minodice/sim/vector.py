"""Many games stepped one decision at a time, inside numba: the kernels of `minodice.envs.vector`.

`simulate` plays whole games with its policies; here a caller (a learner)
makes some seats' decisions, so each game stops whenever one of those *agent
seats* must act. One call of `step_kernel` applies one action per game, lets
the kernel's policies (`kernel.RANDOM`, `kernel.GREEDY`) play the other seats
up to the next agent decision, scores the hands that end, starts a new game
where one ends (same-step autoreset) and writes each game's observation (the
layout of `envs.encoding.encode`, whose section offsets the caller passes in
`lay`) and legal-action mask. The rules are `kernel`'s functions (`deal`,
`draw`, `legal_mask`, `trick_winner`, `trick_bonus`, `hand_score`,
`greedy_bid`, `greedy_roll`); `tests/test_envs_vector.py` plays the same
stream of uniforms through this and the engine and demands the same numbers.

A game lives in one row of an int64 array `state` [games, STATE_SIZE]: the
kernel's hand state (`kernel.H_*`, the first `kernel.H_SIZE` entries), then
the `V_*` fields below; its xoshiro256** words in a row of `rng` (uint64
[games, 4]). Randomness is drawn in this order (`kernel.draw`; from
`stream` when it is non-empty, game g reading its g-th equal part, with
``state[g, V_POS]`` its place in the whole): a hand's deal as `kernel.deal`;
bids one seat at a time from the hand's start player, a random seat drawing
int(u * (n + 1)); each roll, a random seat first drawing its die
(legal kinds in table order, as `kernel.play_hand`), then the face,
die.faces[int(u * 6)]. Greedy seats and agent seats draw nothing for their
choices.

Settings come as tuples: `rules` is `kernel.encode_rules`, `lay` the
observation's section offsets (`SECTIONS`, then the first roll action id),
`pol` the agent seats and the greedy seats as bit sets (the others play at
random). Tuples, and functions that take the whole `state` and a game index
rather than a row `state[g]`, because every array handed to a compiled call
costs reference counting: it was a third of a step's time before.
"""

from __future__ import annotations

import functools

import numpy as np

from ..dice import NUMBER_DICE, Die
from ..encoding import NUM_BIDS, offsets
from ..jit import njit
from ..rules import lead_after, shown_void
from .kernel import (
    F_BIDV,
    F_CHANCE,
    F_SIZE,
    F_STRENGTH,
    FACE_TABLE,
    GREEDY,
    H_BIDS,
    H_BONUS,
    H_COUNTS,
    H_FACES,
    H_MASKS,
    H_ROLLED,
    H_SIZE,
    H_WINNERS,
    H_WON,
    KTH,
    POP,
    RANDOM,
    deal,
    draw,
    greedy_bid,
    greedy_bid_values,
    greedy_roll,
    hand_score,
    legal_mask,
    roll_chances,
    seed_state,
    trick_bonus,
    trick_winner,
)

__all__ = [
    "AGENT",
    "SECTIONS",
    "STATE_SIZE",
    "V_BIDS_IN",
    "V_K",
    "V_LEAD",
    "V_LEADER",
    "V_N",
    "V_ROLLED",
    "V_START",
    "V_TOTALS",
    "V_TRICKS",
    "V_VOID",
    "actor_of",
    "encode_into",
    "game_seed",
    "hints_kernel",
    "mask_into",
    "play_on_kernel",
    "reset_kernel",
    "section_offsets",
    "seed_rows",
    "step_kernel",
]

#: The policy code of an agent seat (its decisions come from the caller).
AGENT = -1

# Fields of a game's row after the kernel's hand state.
V_N = H_SIZE  # the hand being played (its dice per seat)
V_START = H_SIZE + 1  # the hand's start player
V_LEADER = H_SIZE + 2  # the current trick's leader (after the last trick: that trick's leader)
V_K = H_SIZE + 3  # rolls made in the current trick
V_LEAD = H_SIZE + 4  # the current trick's lead colour (a die kind), -1 while none
V_TRICKS = H_SIZE + 5  # tricks complete in this hand
V_BIDS_IN = H_SIZE + 6  # bids placed this hand (in order from the start player)
V_POS = H_SIZE + 7  # uniforms used from the game's stream
V_TOTALS = H_SIZE + 8  # each seat's points from the hands complete (6)
V_DICE = H_SIZE + 14  # the kinds rolled in the current trick, in rolling order (6)
V_ROLLED = H_SIZE + 20  # per seat, the dice it has rolled this hand, count per kind (7 * 6)
V_VOID = H_SIZE + 62  # per seat, the colours it has shown it lacks this hand, as bits of the lead slots (6)
STATE_SIZE = H_SIZE + 68

#: The observation's sections whose offsets `lay` holds, in this order (names of `encoding.layout`),
#: followed by the number of bid actions (the first roll action's id).
SECTIONS = (
    "dice", "phase", "to_act", "hand", "bid_placed", "bids", "bid_known", "won",
    "trick_die", "trick_face", "leader", "lead", "seen", "scores", "rolled", "void",
)
L_DICE, L_PHASE, L_TO_ACT, L_HAND, L_PLACED, L_BIDS, L_KNOWN, L_WON = range(8)
L_TDIE, L_TFACE, L_LEADER, L_LEAD, L_SEEN, L_SCORES, L_ROLLED, L_VOID, L_NUM_BIDS = range(8, 17)



@functools.cache
def section_offsets(seats: int) -> tuple[int, ...]:
    """The observation's section offsets in `SECTIONS` order, then the first roll action id: the `lay`
    the kernels take for `seats` seats."""
    at = offsets(seats)
    return (*(at[name] for name in SECTIONS), NUM_BIDS)


#: LEAD_OF[d]: the lead colour (a die kind) rolling kind d sets in a trick without one (-1: none).
LEAD_OF = np.array([-1 if (c := lead_after(None, d)) is None else c.index for d in Die], dtype=np.int64)
#: LEAD_SLOT[d]: the place of lead colour d in the observation's lead one-hot.
LEAD_SLOT = np.array([NUMBER_DICE.index(d) if d in NUMBER_DICE else -1 for d in Die], dtype=np.int64)
#: The number of colours (the lead slots).
COLOURS = len(NUMBER_DICE)
#: VOID_SLOT[lead, d]: the lead slot of the colour a roll of kind d under lead colour `lead` (a die kind)
#: shows its roller lacks (`rules.shown_void`), -1: none.
VOID_SLOT = np.array(
    [[-1 if lead not in NUMBER_DICE or (v := shown_void(lead, d)) is None else NUMBER_DICE.index(v) for d in Die]
     for lead in Die],
    dtype=np.int64,
)


@njit(cache=True, error_model="numpy")
def _mix64(z):
    z = (z ^ (z >> np.uint64(33))) * np.uint64(0xFF51AFD7ED558CCD)
    z = (z ^ (z >> np.uint64(33))) * np.uint64(0xC4CEB9FE1A85EC53)
    return z ^ (z >> np.uint64(33))


@njit(cache=True, error_model="numpy")
def game_seed(seed, g):
    """The uint64 that seeds game `g`'s generator (`kernel.seed_state`) under the uint64 `seed`."""
    return _mix64(_mix64(seed) + np.uint64(g))


# --- playing ---------------------------------------------------------------------------------
# Rows `state[g]` are made only for `kernel`'s functions, on their rarer paths (a deal, a trick's
# winner, a greedy choice).


@njit(cache=True, error_model="numpy")
def _new_hand(state, g, stream, st, seats, n, start):
    st = deal(state[g], stream, st, seats, n)
    state[g, V_N] = n
    state[g, V_START] = start
    state[g, V_LEADER] = start
    state[g, V_K] = 0
    state[g, V_LEAD] = -1
    state[g, V_TRICKS] = 0
    state[g, V_BIDS_IN] = 0
    for i in range(42):
        state[g, V_ROLLED + i] = 0
    for s in range(6):
        state[g, V_VOID + s] = 0
    return st


@njit(cache=True, error_model="numpy")
def _new_game(state, g, stream, st, seats):
    for s in range(6):
        state[g, V_TOTALS + s] = 0
    return _new_hand(state, g, stream, st, seats, 1, 0)  # the engine's first start player: seat 0


@njit(cache=True, error_model="numpy")
def _win_trick(state, g, seats, all_specials, flags_first):
    """The full trick in progress goes to its winner (`kernel.trick_winner`), with its bonus."""
    faces = state[g, H_FACES:H_FACES + seats]
    w = trick_winner(faces, seats, all_specials, flags_first)
    ws = state[g, V_LEADER] + w
    if ws >= seats:
        ws -= seats
    state[g, H_WON + ws] += 1
    state[g, H_BONUS + ws] += trick_bonus(faces, seats, w)
    t = state[g, V_TRICKS]
    state[g, H_WINNERS + t] = ws
    state[g, V_TRICKS] = t + 1
    state[g, V_K] = 0
    state[g, V_LEAD] = -1
    if t + 1 < state[g, V_N]:  # after the hand's last trick, keep its leader (the engine's view does)
        state[g, V_LEADER] = ws


@njit(cache=True, error_model="numpy")
def _roll(state, g, stream, st, seats, s, d, all_specials, flags_first):
    """Seat `s` rolls a die of kind `d`: its face comes from the generator; a full trick is won."""
    c = state[g, H_COUNTS + 7 * s + d] - 1
    state[g, H_COUNTS + 7 * s + d] = c
    if c == 0:
        state[g, H_MASKS + s] &= ~(1 << d)
    state[g, H_ROLLED + d] += 1
    state[g, V_ROLLED + 7 * s + d] += 1
    u, st = draw(st, stream)
    k = state[g, V_K]
    state[g, H_FACES + k] = FACE_TABLE[d, int(u * 6)]
    state[g, V_DICE + k] = d
    lead = state[g, V_LEAD]
    if lead < 0:
        state[g, V_LEAD] = LEAD_OF[d]
    elif VOID_SLOT[lead, d] >= 0:
        state[g, V_VOID + s] |= 1 << VOID_SLOT[lead, d]
    if k + 1 < seats:
        state[g, V_K] = k + 1
    else:
        _win_trick(state, g, seats, all_specials, flags_first)
    return st


@njit(cache=True, error_model="numpy")
def _turn(bids_in, start, leader, k, seats):
    """The seat to act and whether it bids: bids go in turn from the start player, then rolls from the leader."""
    if bids_in < seats:
        s = start + bids_in
        return (s - seats if s >= seats else s), True
    s = leader + k
    return (s - seats if s >= seats else s), False


@njit(cache=True, error_model="numpy")
def actor_of(state, g, seats):
    """The seat to act now in game `g` and whether it bids."""
    return _turn(state[g, V_BIDS_IN], state[g, V_START], state[g, V_LEADER], state[g, V_K], seats)


@njit(cache=True, error_model="numpy")
def _act(state, g, stream, st, seats, s, bidding, action, num_bids, rules):
    """Seat `s` takes flat action id `action` (a bid, or num_bids + a die kind)."""
    if bidding:
        state[g, H_BIDS + s] = action
        state[g, V_BIDS_IN] += 1
        return st
    return _roll(state, g, stream, st, seats, s, action - num_bids, rules[1], rules[2])


@njit(cache=True, error_model="numpy")
def _policy_action(state, g, fs, stream, st, seats, s, bidding, policy, num_bids, rules):
    """The action id the kernel policy `policy` takes for seat `s` (random seats draw a uniform)."""
    n = state[g, V_N]
    if bidding:
        if policy == GREEDY:
            return greedy_bid(state[g], fs, s, n, rules[0]), st
        u, st = draw(st, stream)
        return int(u * (n + 1)), st
    legal = legal_mask(state[g, H_MASKS + s], state[g, V_LEAD])
    if policy == GREEDY:
        d = greedy_roll(state[g], fs, s, seats, state[g, V_K], legal, rules[1], rules[2])
    else:
        u, st = draw(st, stream)
        d = KTH[legal, int(u * POP[legal])]
    return num_bids + d, st


@njit(cache=True, error_model="numpy")
def _score_hand(state, g, seats, landlubber, rewards):
    n = state[g, V_N]
    for s in range(seats):
        p = hand_score(state[g, H_BIDS + s], state[g, H_WON + s], n, state[g, H_BONUS + s], landlubber)
        rewards[g, s] += p
        state[g, V_TOTALS + s] += p


@njit(cache=True, error_model="numpy")
def _game_over(state, g, seats, hands, lay, final_totals, final_seats, final_obs):
    """Keep an ended game's totals (and its agent seats' last observations) before it starts again."""
    for s in range(seats):
        final_totals[g, s] = state[g, V_TOTALS + s]
    if final_obs.shape[0] > 0:
        a = final_seats.shape[0]
        for i in range(a):
            encode_into(state, g, final_seats[i], seats, hands, lay, final_obs, g * a + i)


@njit(cache=True, error_model="numpy")
def _end_hand(state, g, stream, st, seats, hands, rules, lay, rewards, final_totals, final_seats, final_obs):
    """Score game g's hand just ended, then deal the next one, or (game over) start a new game.
    Returns (the generator state, whether the game ended)."""
    _score_hand(state, g, seats, rules[0], rewards)
    n = state[g, V_N]
    if n == hands:
        _game_over(state, g, seats, hands, lay, final_totals, final_seats, final_obs)
        return _new_game(state, g, stream, st, seats), True
    start = state[g, H_WINNERS + n - 1] if rules[3] else state[g, V_START] + 1
    return _new_hand(state, g, stream, st, seats, n + 1, start - seats if start >= seats else start), False


@njit(cache=True, error_model="numpy")
def _play_on(state, g, stream, st, fs, seats, hands, pol, rules, lay, rewards, final_totals, final_seats,
             final_obs):
    """Play game `g` on -- hands scored, the game restarted, kernel seats acting -- until an agent
    seat must act. Returns (the generator state, that seat, whether it bids, flags: 1 if a hand
    ended, + 2 if the game did).
    """
    flags = 0
    while True:
        if state[g, V_TRICKS] == state[g, V_N]:
            st, over = _end_hand(state, g, stream, st, seats, hands, rules, lay, rewards, final_totals,
                                 final_seats, final_obs)
            flags |= 3 if over else 1
            continue
        s, bidding = actor_of(state, g, seats)
        if (pol[0] >> s) & 1:
            return st, s, bidding, flags
        policy = GREEDY if (pol[1] >> s) & 1 else RANDOM
        action, st = _policy_action(state, g, fs, stream, st, seats, s, bidding, policy, lay[L_NUM_BIDS], rules)
        st = _act(state, g, stream, st, seats, s, bidding, action, lay[L_NUM_BIDS], rules)


# --- what a seat sees --------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _rel(s, me, seats):
    """Seat `s` as seen from seat `me`: 0 is `me`, 1 the next seat to its left, ..."""
    r = s - me
    return r + seats if r < 0 else r


@njit(cache=True, error_model="numpy", inline="always")
def encode_into(state, g, me, seats, hands, lay, out, row):
    """Write seat `me`'s observation of game `g` into out[row] (as `encoding.encode`).

    Only `me`'s own dice and bid, and what the table has seen, enter it: other
    seats' dice and bids not yet revealed are never read.
    """
    for i in range(out.shape[1]):
        out[row, i] = 0.0
    for d in range(7):
        out[row, lay[L_DICE] + d] = state[g, H_COUNTS + 7 * me + d]
    n = state[g, V_N]
    nb = state[g, V_BIDS_IN]
    start = state[g, V_START]
    bidding = nb < seats
    if state[g, V_TRICKS] == n and n == hands:  # the game is over
        out[row, lay[L_PHASE] + 2] = 1.0
    else:
        to_act, _ = actor_of(state, g, seats)
        out[row, lay[L_PHASE] + (0 if bidding else 1)] = 1.0
        out[row, lay[L_TO_ACT] + _rel(to_act, me, seats)] = 1.0
    out[row, lay[L_HAND] + n - 1] = 1.0
    r = _rel(start, me, seats)  # bids were placed in turn from the start player
    for _ in range(nb):
        out[row, lay[L_PLACED] + r] = 1.0
        r = r + 1 if r + 1 < seats else 0
    if bidding:
        if _rel(me, start, seats) < nb:  # its own bid, once placed
            out[row, lay[L_BIDS]] = state[g, H_BIDS + me]
            out[row, lay[L_KNOWN]] = 1.0
    else:
        for s in range(seats):
            out[row, lay[L_BIDS] + _rel(s, me, seats)] = state[g, H_BIDS + s]
            out[row, lay[L_KNOWN] + s] = 1.0
    for s in range(seats):
        r = _rel(s, me, seats)
        out[row, lay[L_WON] + r] = state[g, H_WON + s]
        out[row, lay[L_SCORES] + r] = state[g, V_TOTALS + s]
    r = _rel(state[g, V_LEADER], me, seats)
    out[row, lay[L_LEADER] + r] = 1.0
    for i in range(state[g, V_K]):
        out[row, lay[L_TDIE] + 7 * r + state[g, V_DICE + i]] = 1.0
        out[row, lay[L_TFACE] + 11 * r + state[g, H_FACES + i]] = 1.0
        r = r + 1 if r + 1 < seats else 0
    if state[g, V_LEAD] >= 0:
        out[row, lay[L_LEAD] + LEAD_SLOT[state[g, V_LEAD]]] = 1.0
    for d in range(7):
        out[row, lay[L_SEEN] + d] = state[g, H_ROLLED + d]
    for s in range(seats):
        r = _rel(s, me, seats)
        for d in range(7):
            out[row, lay[L_ROLLED] + 7 * r + d] = state[g, V_ROLLED + 7 * s + d]
        for c in range(COLOURS):
            if (state[g, V_VOID + s] >> c) & 1:
                out[row, lay[L_VOID] + COLOURS * r + c] = 1.0


@njit(cache=True, error_model="numpy", inline="always")
def mask_into(state, g, s, bidding, num_bids, out, row):
    """Flag in out[row] the action ids seat `s` may take now in game `g` (a bid, or a legal kind)."""
    for i in range(out.shape[1]):
        out[row, i] = False
    if bidding:
        for b in range(state[g, V_N] + 1):
            out[row, b] = True
        return
    legal = legal_mask(state[g, H_MASKS + s], state[g, V_LEAD])
    for d in range(7):
        if (legal >> d) & 1:
            out[row, num_bids + d] = True


@njit(cache=True, error_model="numpy")
def _is_legal(action, bidding, n, held, lead, num_bids):
    """Whether flat action id `action` is legal for a seat holding kinds `held` (a bid 0..n, or a legal kind)."""
    if bidding:
        return 0 <= action <= n
    d = action - num_bids
    return 0 <= d < 7 and (legal_mask(held, lead) >> d) & 1 == 1


# --- the batch entry points ------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _scratch(strength):
    fs = np.zeros(F_SIZE)
    for d in range(7):
        fs[F_STRENGTH + d] = strength[d]
    return fs


@njit(cache=True, error_model="numpy")
def _finish(state, g, seats, hands, lay, s, bidding, obs, mask, actor):
    encode_into(state, g, s, seats, hands, lay, obs, g)
    mask_into(state, g, s, bidding, lay[L_NUM_BIDS], mask, g)
    actor[g] = s


@njit(cache=True, error_model="numpy")
def reset_kernel(state, rng, stream, seeds, spread, seats, hands, pol, rules, strength, lay, obs, mask, actor):
    """Start a new game in every row and play it to the first agent decision; write obs, mask, actor.

    `seeds` (uint64, one per game) reseeds game g's generator with
    `game_seed(seeds[g], g if spread else 0)` and rewinds its part of `stream`
    (game g's uniforms are its g-th equal part); empty: go on drawing.
    """
    games = state.shape[0]
    part = stream.shape[0] // games
    for g in range(games):
        if seeds.shape[0] > 0:
            s0, s1, s2, s3, _ = seed_state(game_seed(seeds[g], g if spread else 0))
            st = (s0, s1, s2, s3, np.int64(g * part))
        else:
            st = (rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3], state[g, V_POS])
        st = _new_game(state, g, stream, st, seats)
        rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3] = st[0], st[1], st[2], st[3]
        state[g, V_POS] = st[4]
    play_on_kernel(state, rng, stream, seats, hands, pol, rules, strength, lay, obs, mask, actor)


@njit(cache=True, error_model="numpy")
def seed_rows(rng, seeds):
    """Seed game g's generator (a row of `rng`, uint64 [games, 4]) from the uint64 `seeds[g]`, as
    `reset_kernel` seeds game 0 of that seed."""
    for g in range(rng.shape[0]):
        s0, s1, s2, s3, _ = seed_state(game_seed(seeds[g], 0))
        rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3] = s0, s1, s2, s3


@njit(cache=True, error_model="numpy")
def play_on_kernel(state, rng, stream, seats, hands, pol, rules, strength, lay, obs, mask, actor):
    """From each game's state as it stands (a position loaded into the row, say), let the kernel
    seats act up to the first agent decision; write obs, mask, actor (as `reset_kernel`, without
    dealing a new game). Draws as `step_kernel` does (the generators, or `stream` from state[g, V_POS])."""
    games = state.shape[0]
    fs = _scratch(strength)
    rewards = np.zeros((games, seats), dtype=np.float32)  # no hand ends before an agent acts
    totals = np.zeros((games, seats), dtype=np.int64)
    no_seats = np.zeros(0, dtype=np.int64)
    none = np.zeros((0, 0), dtype=np.float32)
    for g in range(games):
        st = (rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3], state[g, V_POS])
        st, s, bidding, _ = _play_on(state, g, stream, st, fs, seats, hands, pol, rules, lay, rewards, totals,
                                     no_seats, none)
        _finish(state, g, seats, hands, lay, s, bidding, obs, mask, actor)
        rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3] = st[0], st[1], st[2], st[3]
        state[g, V_POS] = st[4]


@njit(cache=True, error_model="numpy")
def step_kernel(state, rng, stream, actions, seats, hands, pol, rules, strength, lay, final_seats,
                obs, mask, actor, rewards, terminated, hand_over, final_totals, final_obs):
    """Apply `actions[g]` (the agent to act's flat action id) in every game g, then play on to the
    next agent decision; write obs, mask, actor, rewards [games, seats] (points of the hands ended),
    terminated / hand_over flags, final_totals of ended games (else zeros) and, if `final_obs` is
    non-empty ([games * len(final_seats), size]), the game-over observation of each seat in
    `final_seats` for the ended games.

    Returns -1, or the first game whose action is illegal; then nothing has changed.
    """
    games = state.shape[0]
    num_bids = lay[L_NUM_BIDS]
    for g in range(games):
        s, bidding = _turn(state[g, V_BIDS_IN], state[g, V_START], state[g, V_LEADER], state[g, V_K], seats)
        if not _is_legal(actions[g], bidding, state[g, V_N], state[g, H_MASKS + s], state[g, V_LEAD], num_bids):
            return g
    fs = _scratch(strength)
    agents = pol[0]
    for g in range(games):
        # The common path is written out here (each call that passes arrays costs reference counting):
        # `_play_on` only when a hand ended or a kernel seat is next.
        st = (rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3], state[g, V_POS])
        for i in range(seats):
            rewards[g, i] = 0.0
            final_totals[g, i] = 0
        s, bidding = _turn(state[g, V_BIDS_IN], state[g, V_START], state[g, V_LEADER], state[g, V_K], seats)
        if bidding:
            state[g, H_BIDS + s] = actions[g]
            state[g, V_BIDS_IN] += 1
        else:
            st = _roll(state, g, stream, st, seats, s, actions[g] - num_bids, rules[1], rules[2])
        s, bidding = _turn(state[g, V_BIDS_IN], state[g, V_START], state[g, V_LEADER], state[g, V_K], seats)
        flags = 0
        if state[g, V_TRICKS] == state[g, V_N] or not (agents >> s) & 1:  # a hand ended, or a kernel seat acts
            st, s, bidding, flags = _play_on(state, g, stream, st, fs, seats, hands, pol, rules, lay, rewards,
                                             final_totals, final_seats, final_obs)
        hand_over[g] = flags & 1 == 1
        terminated[g] = flags & 2 == 2
        encode_into(state, g, s, seats, hands, lay, obs, g)
        mask_into(state, g, s, bidding, num_bids, mask, g)
        actor[g] = s
        rng[g, 0], rng[g, 1], rng[g, 2], rng[g, 3] = st[0], st[1], st[2], st[3]
        state[g, V_POS] = st[4]
    return -1


@njit(cache=True, error_model="numpy")
def hints_kernel(state, actor, seats, rules, strength, num_bids, out):
    """GreedyBot's view of each legal action of the seat to act in every game, into out [games, actions]:
    while bidding, each bid's expected hand score; while rolling, each legal kind's chance to take the
    trick (0 elsewhere). The learned bot's extra input (`bots.network.greedy_hints` on the engine side)."""
    fs = _scratch(strength)
    for g in range(state.shape[0]):
        for a in range(out.shape[1]):
            out[g, a] = 0.0
        s = actor[g]
        _, bidding = _turn(state[g, V_BIDS_IN], state[g, V_START], state[g, V_LEADER], state[g, V_K], seats)
        n = state[g, V_N]
        if bidding:
            greedy_bid_values(state[g], fs, s, n, rules[0])
            for b in range(n + 1):
                out[g, b] = fs[F_BIDV + b]
        else:
            legal = legal_mask(state[g, H_MASKS + s], state[g, V_LEAD])
            roll_chances(state[g], fs, s, seats, state[g, V_K], legal, rules[1], rules[2])
            for d in range(7):
                if (legal >> d) & 1:
                    out[g, num_bids + d] = fs[F_CHANCE + d]
