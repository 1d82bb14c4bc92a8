"""The observation vector and the flat action space shared by every environment and the learned bot.

PettingZoo, Gymnasium and OpenSpiel all speak in the same numbers, so a policy
trained through one interface can be evaluated through another. Everything
here is computed from a seat's `View` (what `Game.observe(seat)` returns), plus
the seat's own bid once placed: a seat's own knowledge, and nothing else, so
hidden information cannot leak into an encoding.

Actions (one flat `Discrete(NUM_ACTIONS)` space, the same for every seat count)
    ``0 .. 8``   bid that many tricks (``bid_action(b) == b``)
    ``9 .. 15``  roll a die of kind ``DICE[a - 9]``: minotaur, griffin, mermaid,
                 red, yellow, purple, gray (``roll_action(die) == 9 + die.index``)

Observation (float32; seats are *relative*: slot 0 is the observing seat, slot
k the seat k places to its left, so one policy fits every seat). With S seats:

==============  ======  ==========================================================
name            size    meaning
==============  ======  ==========================================================
dice            7       own unrolled dice, count per kind (table order above)
phase           3       one-hot: bidding, rolling, game over (all 0 between hands)
to_act          S       one-hot: the seat to bid (bids go in order from the hand's
                        start player) or to roll
hand            8       one-hot: the hand being played (hand n has n dice)
bid_placed      S       1 for seats that have bid this hand
bids            S       bids once revealed (own bid as soon as placed), else 0
bid_known       S       1 where ``bids`` holds a real bid
won             S       tricks won this hand
trick_die       7·S     per seat: one-hot kind of the die it rolled in the current
                        trick (all 0: not rolled yet)
trick_face      11·S    per seat: one-hot face it rolled in the current trick
                        (flag, 1..7, minotaur, griffin, mermaid)
leader          S       one-hot: the leader of the current (or next) trick
lead            4       one-hot lead colour of the current trick: red, yellow,
                        purple, gray (all 0: none set yet)
seen            7       dice rolled so far this hand (all seats), count per kind
scores          S       total points of each seat before this hand
rolled          7·S     per seat: dice it has rolled so far this hand, count per kind
void            4·S     per seat: 1 for each colour (red, yellow, purple, gray) it
                        has shown it lacks this hand (it rolled another number die
                        under that lead colour, `rules.shown_void`)
==============  ======  ==========================================================

Size: ``29 + 36·S`` (137 for 3 seats, 173 for 4, 209 for 5, 245 for 6).
``rolled`` and ``void`` came last (`OBSERVATION_VERSION` 2): the first
``29 + 25·S`` numbers are the version-1 observation, unchanged.

OpenSpiel's information-state tensor appends `history_size(S)` numbers: the
dice this seat drew this hand (7 counts) and every trick of the hand so far
(8 tricks × S seats × (7 die kinds + 11 faces), one-hot), so within a hand it
has perfect recall; earlier hands are summarised by ``scores``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from .dice import HANDS_BY_SEATS, MAX_SEATS, MIN_SEATS, NUMBER_DICE, Die, Face
from .view import View

__all__ = [
    "COUNT_SECTIONS",
    "DICE",
    "FACES",
    "MAX_HANDS",
    "NUM_ACTIONS",
    "NUM_BIDS",
    "OBSERVATION_VERSION",
    "action_mask",
    "action_to_move",
    "bid_action",
    "describe_action",
    "encode",
    "encode_history",
    "history_size",
    "layout",
    "legal_actions",
    "next_bidder",
    "observation_bounds",
    "observation_size",
    "offsets",
    "roll_action",
]

#: The observation's version: 2 added the hand's recall (``rolled``, ``void``) after the version-1 sections.
OBSERVATION_VERSION: Final = 2
#: Die kinds in table order (the order of the roll actions and of every per-kind count).
DICE: Final[tuple[Die, ...]] = tuple(Die)
#: Faces in table order (the order of the face one-hots).
FACES: Final[tuple[Face, ...]] = tuple(Face)
#: The most hands (and dice in a hand) of any seat count.
MAX_HANDS: Final = max(HANDS_BY_SEATS.values())
#: Bids 0 .. MAX_HANDS.
NUM_BIDS: Final = MAX_HANDS + 1
#: Size of the flat action space: bids, then die kinds.
NUM_ACTIONS: Final = NUM_BIDS + len(DICE)
#: Each lead colour's place in the ``lead`` one-hot (the number dice in table order).
_COLOUR_INDEX: Final = {d: i for i, d in enumerate(NUMBER_DICE)}
#: The sections holding counts (of dice, tricks or a bid), each at most MAX_HANDS.
COUNT_SECTIONS: Final = ("dice", "bids", "won", "seen", "rolled")
#: Generous bounds of a seat's total (the best 8-hand game scores well under 1,500).
SCORE_BOUND: Final = 2000.0


def _check_seats(seats: int) -> None:
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"Mino Dice is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats!r}")


def layout(seats: int) -> list[tuple[str, int]]:
    """The observation's sections as (name, size), in order (see the module docstring)."""
    _check_seats(seats)
    s = seats
    return [
        ("dice", 7), ("phase", 3), ("to_act", s), ("hand", MAX_HANDS), ("bid_placed", s),
        ("bids", s), ("bid_known", s), ("won", s), ("trick_die", 7 * s), ("trick_face", 11 * s),
        ("leader", s), ("lead", 4), ("seen", 7), ("scores", s), ("rolled", 7 * s), ("void", len(NUMBER_DICE) * s),
    ]


def offsets(seats: int) -> dict[str, int]:
    """Where each section of the observation starts, by name (see `layout`).

    >>> offsets(4)["rolled"], offsets(4)["void"], observation_size(4)
    (129, 157, 173)
    """
    starts: dict[str, int] = {}
    o = 0
    for name, size in layout(seats):
        starts[name] = o
        o += size
    return starts


def observation_size(seats: int) -> int:
    """Length of the observation vector for a game of `seats` players."""
    return sum(n for _, n in layout(seats))


def history_size(seats: int) -> int:
    """Length of the hand history OpenSpiel's information-state tensor appends."""
    _check_seats(seats)
    return 7 + MAX_HANDS * seats * (7 + 11)


def observation_bounds(seats: int) -> tuple[np.ndarray, np.ndarray]:
    """Element-wise (low, high) bounds of the observation vector (for a `Box` space)."""
    low = np.zeros(observation_size(seats), np.float32)
    high = np.ones(observation_size(seats), np.float32)
    offset = 0
    for name, size in layout(seats):
        if name in COUNT_SECTIONS:
            high[offset : offset + size] = MAX_HANDS
        elif name == "scores":
            low[offset : offset + size] = -SCORE_BOUND
            high[offset : offset + size] = SCORE_BOUND
        offset += size
    return low, high


# --- actions ---------------------------------------------------------------------------


def bid_action(bid: int) -> int:
    """The action id of bidding `bid` tricks."""
    if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= MAX_HANDS:
        raise ValueError(f"a bid is a whole number from 0 to {MAX_HANDS}, not {bid!r}")
    return bid


def roll_action(die: Die) -> int:
    """The action id of rolling a die of kind `die`."""
    if not isinstance(die, Die):
        raise ValueError(f"{die!r} is not a die kind")
    return NUM_BIDS + die.index


def action_to_move(action: int) -> int | Die:
    """The bid (an int) or die kind (a `Die`) that action id `action` stands for."""
    if isinstance(action, np.integer):
        action = int(action)
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"actions are whole numbers from 0 to {NUM_ACTIONS - 1}, not {action!r}")
    return action if action < NUM_BIDS else DICE[action - NUM_BIDS]


def describe_action(action: int) -> str:
    """A short English name of an action id: 'bid 2' or 'roll red'."""
    move = action_to_move(action)
    return f"bid {move}" if isinstance(move, int) else f"roll {move.value}"


def legal_actions(view: View) -> list[int]:
    """The action ids `view.seat` may take now (sorted; empty when it is not its turn)."""
    if view.legal is None:
        return []
    return sorted(x if isinstance(x, int) else NUM_BIDS + x.index for x in view.legal)


def action_mask(view: View, legal: Sequence[int] | None = None) -> np.ndarray:
    """`NUM_ACTIONS` int8 flags, 1 for the legal action ids (of `legal`, or of the view)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    ids = legal_actions(view) if legal is None else legal
    if ids:
        mask[list(ids)] = 1
    return mask


def next_bidder(view: View) -> int | None:
    """The seat to bid next when bids are taken in seat order from the hand's start player."""
    if not view.bidding:
        return None
    for k in range(view.seats):
        s = (view.start + k) % view.seats
        if not view.bid_placed[s]:
            return s
    return None  # pragma: no cover - bidding implies an unplaced bid


# --- observations ------------------------------------------------------------------------


def encode(view: View, own_bid: int | None = None, *, sequential_bids: bool = True) -> np.ndarray:
    """The observation vector of `view.seat` (see the module docstring for the layout).

    `own_bid` is this seat's bid once placed (the view hides it until all bids
    are in, but the seat knows it). `sequential_bids` marks the next bidder in
    ``to_act`` (bids in order from the start player, as the environments take
    them); otherwise ``to_act`` is empty while bidding.
    """
    me = view.seat
    if me is None:
        raise ValueError("encode needs a seat's view, not the spectators' one")
    n = view.seats
    out = np.zeros(observation_size(n), np.float32)
    o = 0
    for d in view.dice:  # dice
        out[o + d.index] += 1
    o += 7
    over = view.game_over
    to_act: int | None = None
    if view.hand > 0 and not over:  # phase
        if view.bidding:
            out[o] = 1
            to_act = next_bidder(view) if sequential_bids else None
        else:
            to_act = view.to_roll
            if to_act is not None:
                out[o + 1] = 1
    elif over:
        out[o + 2] = 1
    o += 3
    if to_act is not None:  # to_act
        out[o + (to_act - me) % n] = 1
    o += n
    if view.hand > 0:  # hand
        out[o + view.hand - 1] = 1
    o += MAX_HANDS
    revealed = view.hand > 0 and not view.bidding
    for s in range(n):
        r = (s - me) % n
        if view.hand > 0 and view.bid_placed[s]:  # bid_placed
            out[o + r] = 1
        bid = view.bids[s] if revealed else (own_bid if s == me and view.bid_placed[s] else None)
        if bid is not None:  # bids, bid_known
            out[o + n + r] = bid
            out[o + 2 * n + r] = 1
        out[o + 3 * n + r] = view.won[s]  # won
    o += 4 * n
    trick = view.current_trick
    if trick is not None:  # trick_die, trick_face
        for roll in trick.rolls:
            r = (roll.seat - me) % n
            out[o + 7 * r + roll.die.index] = 1
            out[o + 7 * n + 11 * r + roll.face.index] = 1
    o += 18 * n
    if view.hand > 0:  # leader
        out[o + (view.leader - me) % n] = 1
    o += n
    lead = view.lead_colour
    if lead is not None:  # lead
        out[o + _COLOUR_INDEX[lead]] = 1
    o += 4
    for t in view.tricks:  # seen
        for roll in t.rolls:
            out[o + roll.die.index] += 1
    o += 7
    for s in range(n):  # scores
        out[o + (s - me) % n] = view.totals[s]
    o += n
    for t in view.tricks:  # rolled
        for roll in t.rolls:
            out[o + 7 * ((roll.seat - me) % n) + roll.die.index] += 1
    o += 7 * n
    voids = view.shown_voids()
    for s in range(n):  # void
        for colour in voids[s]:
            out[o + len(NUMBER_DICE) * ((s - me) % n) + _COLOUR_INDEX[colour]] = 1
    return out


def encode_history(view: View) -> np.ndarray:
    """This hand's history as `view.seat` saw it: the dice it drew, then every trick's rolls.

    Layout: 7 counts of the dice drawn this hand, then for each trick t < 8 and
    relative seat r: a one-hot die kind (7) and a one-hot face (11).
    """
    me = view.seat
    if me is None:
        raise ValueError("encode_history needs a seat's view, not the spectators' one")
    n = view.seats
    out = np.zeros(history_size(n), np.float32)
    for d in view.dice:
        out[d.index] += 1
    for t, trick in enumerate(view.tricks):
        base = 7 + t * n * 18
        for roll in trick.rolls:
            if roll.seat == me:
                out[roll.die.index] += 1
            r = (roll.seat - me) % n
            out[base + 18 * r + roll.die.index] = 1
            out[base + 18 * r + 7 + roll.face.index] = 1
    return out
