"""The Mino Dice state machine: one small surface for people, bots, servers and RL.

Drive a game with `legal_actions(seat)` and `apply(action)`; read it with
`observe(seat)` (what that seat may know) and `events`. Chance is explicit:
dealing the dice (`Deal`) and the face a rolled die shows (`Land`) are actions
like any other, supplied by the game's seeded generator by default, or by the
caller (`chance=EXTERNAL`) to replay a record or referee a real table.

>>> game = Game(4, seed=7)
>>> game.phase
<Phase.BID: 'bid'>
>>> for seat in range(4):
...     game.apply(Bid(seat, 0))
>>> game.phase, game.turn
(<Phase.ROLL: 'roll'>, 0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import repeat, starmap
from typing import Final, Protocol

from . import rules as R
from .dice import BAG, BAG_COUNTS, HANDS_BY_SEATS, MAX_SEATS, MIN_SEATS, Die, Face, hands_for, over_bag
from .errors import IllegalAction
from .events import (
    BidPlaced,
    BidsRevealed,
    DiceDrawn,
    Event,
    GameOver,
    HandScored,
    Rolled,
    TrickWon,
)
from .rules import Rules
from .view import RollView, TrickView, View

__all__ = [
    "EXTERNAL",
    "Action",
    "Bid",
    "Chance",
    "Deal",
    "Game",
    "HandLog",
    "Land",
    "Phase",
    "Roll",
    "SeededChance",
    "TrickLog",
    "sample_hidden",
]

_DIE_ORDER: Final = tuple(Die)
_BAG_INDICES: Final = range(len(BAG))


def _table_order(die: Die) -> int:
    return die.index


class Phase(str, Enum):
    """What the game waits for."""

    DEAL = "deal"  # chance: every seat draws its dice for the next hand
    BID = "bid"  # seats still to bid (any order, secretly)
    ROLL = "roll"  # `Game.turn` chooses a die to roll
    LAND = "land"  # chance: the face the die just rolled lands on
    OVER = "over"  # the game is finished


# --- actions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the dice each seat draws for the coming hand (seat order)."""

    dice: tuple[tuple[Die, ...], ...]


@dataclass(frozen=True, slots=True)
class Bid:
    """`seat` bids `bid` tricks for this hand."""

    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class Roll:
    """`seat` chooses to roll one of its dice of kind `die`."""

    seat: int
    die: Die


@dataclass(frozen=True, slots=True)
class Land:
    """Chance: the die just rolled shows `face`."""

    face: Face


Action = Deal | Bid | Roll | Land

# Enum class attribute look-ups are slow; the hot paths use these module constants.
_DEAL, _BID, _ROLL, _LAND, _OVER = Phase.DEAL, Phase.BID, Phase.ROLL, Phase.LAND, Phase.OVER

# The rules the hot path calls, bound once (a module attribute look-up per roll adds up).
_breaks_follow, _lead_after, _roller = R.breaks_follow, R.lead_after, R.roller

# Actions are values; these shared instances save building them again and again.
_BID_ACTIONS: Final = [[Bid(s, b) for b in range(max(HANDS_BY_SEATS.values()) + 1)] for s in range(MAX_SEATS)]
_ROLL_ACTIONS: Final = [{d: Roll(s, d) for d in Die} for s in range(MAX_SEATS)]
# Legal rolls by seat, then by (kinds held bitmask << 3 | lead colour index): filled on demand.
_LEGAL_ROLLS: Final[list[dict[int, tuple[Roll, ...]]]] = [{} for _ in range(MAX_SEATS)]


#: Every roll a view can show, by seat, then die and face index: made once, shared by every view.
_ROLL_VIEWS: Final = [[[RollView(s, d, f) for f in Face] for d in Die] for s in range(MAX_SEATS)]


def _kinds_mask(dice: Sequence[Die]) -> int:
    mask = 0
    for d in dice:
        mask |= d.bit
    return mask


def _legal_rolls(seat: int, kinds: int, lead: Die | None) -> tuple[Roll, ...]:
    held = [d for d in _DIE_ORDER if kinds & d.bit]
    return tuple(_ROLL_ACTIONS[seat][d] for d in R.legal_dice(held, lead))



# --- chance ------------------------------------------------------------------------------


class Chance(Protocol):
    """Where the game's random outcomes come from."""

    def deal(self, game: Game, hand: int, each: int) -> Sequence[Sequence[Die]]:
        """The dice every seat draws for hand `hand` (`each` dice per seat)."""

    def land(self, game: Game, seat: int, die: Die) -> Face:
        """The face `die`, rolled by `seat`, lands on."""

    def copy(self) -> Chance:
        """An independent copy that will produce the same outcomes."""


class SeededChance:
    """The default chance source: a seeded `random.Random` (same seed, same game)."""

    __slots__ = ("_random", "rng")

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self._random = self.rng.random

    def deal(self, game: Game, hand: int, each: int) -> list[list[Die]]:
        # A uniformly random order of the bag: sort it by 36 random keys (all in C).
        keys = list(starmap(self._random, repeat((), len(BAG))))
        order = sorted(_BAG_INDICES, key=keys.__getitem__)
        return [[BAG[i] for i in order[s * each : (s + 1) * each]] for s in range(game.seats)]

    def land(self, game: Game, seat: int, die: Die) -> Face:
        return die.faces[int(self._random() * 6)]

    def copy(self) -> SeededChance:
        twin = SeededChance.__new__(SeededChance)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin._random = twin.rng.random
        return twin


#: Pass as `chance=EXTERNAL` to supply every `Deal` and `Land` yourself.
EXTERNAL: Final = "external"


def _chance_source(chance: Chance | str | None, seed: int | str | None) -> Chance | None:
    """The source `chance` names: None for `EXTERNAL`, a new seeded one for None, else itself."""
    if chance is None:
        return SeededChance(seed)
    if isinstance(chance, str):
        if chance != EXTERNAL:
            raise ValueError(f"unknown chance source {chance!r}: give a Chance or {EXTERNAL!r}")
        return None
    return chance


# --- the game's log -----------------------------------------------------------------------


@dataclass(slots=True)
class TrickLog:
    """A trick: its leader, its rolls so far as (seat, die, face), and its winner once complete."""

    leader: int
    rolls: list[tuple[int, Die, Face]] = field(default_factory=list)
    winner: int | None = None


@dataclass(slots=True)
class HandLog:
    """Everything that happened in one hand (the host's full knowledge)."""

    number: int
    start: int
    dice: tuple[tuple[Die, ...], ...]
    bids: list[int | None]
    tricks: list[TrickLog]
    bonus: list[int]
    scores: tuple[int, ...] | None = None

    @property
    def revealed_bids(self) -> tuple[int, ...] | None:
        """Every seat's bid once all have bid, else None (bids stay secret until then)."""
        if None in self.bids:
            return None
        return tuple(b for b in self.bids if b is not None)

    @property
    def won(self) -> list[int]:
        """Tricks won so far by each seat."""
        counts = [0] * len(self.dice)
        for t in self.tricks:
            if t.winner is not None:
                counts[t.winner] += 1
        return counts


# --- the game -----------------------------------------------------------------------------


class Game:
    """A game of Mino Dice for 3 to 6 seats.

    `seed` seeds the default chance source; `chance` replaces it (or
    `EXTERNAL`: the caller applies `Deal` and `Land`). `first_start` is the
    seat that leads hand 1.
    """

    def __init__(
        self,
        seats: int = 4,
        *,
        names: Sequence[str] | None = None,
        rules: Rules | None = None,
        seed: int | str | None = None,
        chance: Chance | str | None = None,
        first_start: int = 0,
    ) -> None:
        if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise ValueError(f"Mino Dice is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats}")
        if names is None:
            names = [f"P{i}" for i in range(seats)]
        if len(names) != seats:
            raise ValueError(f"{seats} seats need {seats} names, got {len(names)}")
        if not 0 <= first_start < seats:
            raise ValueError(f"the first start player must be a seat from 0 to {seats - 1}")
        self.seats: int = seats
        self.names: tuple[str, ...] = tuple(str(n) for n in names)
        self.rules: Rules = rules or Rules()
        self.hands: int = hands_for(seats)
        self.first_start: int = first_start
        self.chance = _chance_source(chance, seed)
        self.phase: Phase = _DEAL
        self.hand: int = 0
        self.turn: int = -1
        self.totals: list[int] = [0] * seats
        self.log: list[HandLog] = []
        self.events: list[Event] = []
        self._held: list[list[Die]] = [[] for _ in range(seats)]
        self._lead: Die | None = None
        self._pending: Die | None = None
        self._trick: TrickLog | None = None  # the trick in progress (also last in the log)
        self._trick_no: int = 0
        self._kinds: list[int] = [0] * seats  # bit d.index set: the seat holds a die of kind d
        self._advance()

    # --- queries ---------------------------------------------------------------------

    @property
    def chance(self) -> Chance | None:
        """Where dealt dice and rolled faces come from (None: the caller applies them)."""
        return self._chance

    @chance.setter
    def chance(self, source: Chance | None) -> None:
        self._chance = source
        # The default source's generator, called directly on the hot path.
        self._rand = source._random if type(source) is SeededChance else None

    @property
    def over(self) -> bool:
        """True once the last hand has been scored."""
        return self.phase is _OVER

    @property
    def is_chance(self) -> bool:
        """True when the next action is a chance outcome (`Deal` or `Land`)."""
        return self.phase is _DEAL or self.phase is _LAND

    @property
    def current(self) -> HandLog | None:
        """The log of the hand being played (or the last one, once the game is over)."""
        return self.log[-1] if self.log else None

    @property
    def lead_colour(self) -> Die | None:
        """The lead colour of the trick in progress, if one is set."""
        return self._lead

    @property
    def rolling(self) -> Die | None:
        """The die whose face comes next (phase LAND, external chance), else None."""
        return self._pending

    def held(self, seat: int) -> tuple[Die, ...]:
        """The dice `seat` still holds this hand (host knowledge: not for other seats)."""
        return tuple(self._held[seat])

    def to_act(self) -> list[int]:
        """The seats that may act now: all seats yet to bid, or the seat to roll."""
        if self.phase is _ROLL:
            return [self.turn]
        if self.phase is _BID:
            return [s for s, b in enumerate(self.log[-1].bids) if b is None]
        return []

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions `seat` may take now (empty if none).

        Without a seat: the actions of whoever acts now (every seat yet to bid,
        the seat to roll, or the faces a rolled die may land on). Dealing has too
        many outcomes to list; apply a `Deal` instead.
        """
        phase = self.phase
        if phase is _ROLL:
            # `_roll_options`, inlined: bots and playouts call this for every roll (hot path).
            if seat is None:
                seat = self.turn
            elif seat != self.turn:
                return []
            lead = self._lead
            key = self._kinds[seat] << 3 | (lead.index if lead is not None else 0)
            rolls = _LEGAL_ROLLS[seat].get(key)
            if rolls is None:
                rolls = _LEGAL_ROLLS[seat][key] = _legal_rolls(seat, self._kinds[seat], lead)
            return list(rolls)
        if phase is _BID:
            if seat is not None:
                return [*self.legal_bids(seat)]
            limit = self.hand + 1
            out: list[Action] = []
            for s, b in enumerate(self.log[-1].bids):
                if b is None:
                    out.extend(_BID_ACTIONS[s][:limit])
            return out
        pending = self._pending
        if phase is _LAND and seat is None and pending is not None:
            return [Land(f) for f in dict.fromkeys(pending.faces)]
        return []

    def legal_bids(self, seat: int) -> list[Bid]:
        """The bids `seat` may place now: `legal_actions(seat)` typed as bids (empty unless it must bid).

        >>> game = Game(4, seed=7)
        >>> [b.bid for b in game.legal_bids(2)]
        [0, 1]
        >>> game.apply(Bid(2, 1))
        >>> game.legal_bids(2)
        []
        """
        if self.phase is _BID and 0 <= seat < self.seats and self.log[-1].bids[seat] is None:
            return _BID_ACTIONS[seat][: self.hand + 1]
        return []

    def legal_rolls(self, seat: int | None = None) -> list[Roll]:
        """The rolls `seat` (default: the seat to roll) may make now, typed as rolls (empty if none).

        >>> game = Game(4, seed=7)
        >>> for seat in range(4):
        ...     game.apply(Bid(seat, 0))
        >>> game.legal_rolls() == game.legal_rolls(0) == game.legal_actions(0)
        True
        >>> [r.die for r in game.legal_rolls(0)] == list(game.held(0)), game.legal_rolls(1)
        (True, [])
        """
        return list(self._roll_options(self.turn if seat is None else seat))

    def _roll_options(self, seat: int) -> tuple[Roll, ...]:
        """The legal rolls of `seat` (none unless it is its turn to roll), from the shared cache."""
        if self.phase is not _ROLL or seat != self.turn:
            return ()
        lead = self._lead
        key = self._kinds[seat] << 3 | (lead.index if lead is not None else 0)
        rolls = _LEGAL_ROLLS[seat].get(key)
        if rolls is None:
            rolls = _LEGAL_ROLLS[seat][key] = _legal_rolls(seat, self._kinds[seat], lead)
        return rolls

    def chance_outcomes(self) -> list[tuple[Land, float]]:
        """While a die is landing: each distinct face with its probability."""
        pending = self._pending
        if self.phase is not _LAND or pending is None:
            return []
        faces = pending.faces
        return [(Land(f), faces.count(f) / 6) for f in dict.fromkeys(faces)]

    # --- acting ----------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply `action`, or raise `IllegalAction` and leave the game unchanged."""
        if isinstance(action, Roll):
            self._roll(action)
        elif isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Land):
            self._land_checked(action.face)
        elif isinstance(action, Deal):
            self._deal_checked(action.dice)
        else:
            raise IllegalAction(
                "bad_action", f"{action!r} is not a Mino Dice action", action=repr(action)
            )
        if self.phase is _DEAL and self.chance is not None:
            self._advance()

    def set_chance(self, chance: Chance | str | None = None, *, seed: int | str | None = None) -> None:
        """Switch the chance source (None: a new seeded one; `EXTERNAL`: the caller's).

        Used to continue a replayed record with fresh dice; resolves any pending
        chance step at once.
        """
        self.chance = _chance_source(chance, seed)
        self._advance()

    def _advance(self) -> None:
        """Let the chance source resolve chance steps until a player must act."""
        chance = self.chance
        if chance is None:
            return
        while True:
            die = self._pending
            if self.phase is _LAND and die is not None:
                self._pending = None
                self.phase = _ROLL
                self._land(self.turn, die, chance.land(self, self.turn, die))
            elif self.phase is _DEAL:
                each = self.hand + 1
                dealt = chance.deal(self, each, each)
                self._deal(tuple(tuple(d) for d in dealt))
            else:
                return

    def _wrong_phase(self, wanted: str) -> IllegalAction:
        phase = self.phase
        if phase is _OVER:
            return IllegalAction("game_over", "the game is over", wanted=wanted)
        if phase is _BID:
            waiting = ", ".join(self.names[s] for s in self.to_act())
            return IllegalAction(
                "wrong_phase", f"it is time to bid (waiting for {waiting})", phase="bid", wanted=wanted
            )
        if phase is _ROLL:
            return IllegalAction(
                "wrong_phase",
                f"it is {self.names[self.turn]}'s turn to roll",
                phase="roll",
                wanted=wanted,
                seat=self.turn,
            )
        if phase is _LAND:
            return IllegalAction(
                "wrong_phase", "a die is still rolling: its face comes next", phase="land", wanted=wanted
            )
        return IllegalAction(
            "wrong_phase", "the dice for the next hand must be drawn first", phase="deal", wanted=wanted
        )

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            raise IllegalAction(
                "unknown_seat", f"there is no seat {seat!r}: seats go from 0 to {self.seats - 1}",
                seat=seat,
            )

    def _bid(self, action: Bid) -> None:
        if self.phase is not _BID:
            raise self._wrong_phase("bid")
        seat, bid = action.seat, action.bid
        self._check_seat(seat)
        hand = self.log[-1]
        if hand.bids[seat] is not None:
            raise IllegalAction("already_bid", f"{self.names[seat]} has already bid", seat=seat)
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= self.hand:
            raise IllegalAction(
                "bid_out_of_range", f"bids go from 0 to {self.hand}", low=0, high=self.hand, bid=bid
            )
        hand.bids[seat] = bid
        self.events.append(BidPlaced(seat, bid))
        bids = hand.bids
        if None not in bids:  # the last bid: all are revealed together
            self.events.append(BidsRevealed(tuple(b for b in bids if b is not None)))
            self.phase = _ROLL
            self._new_trick(hand, hand.start)

    def _roll(self, action: Roll) -> None:
        if self.phase is not _ROLL:
            raise self._wrong_phase("roll")
        seat, die = action.seat, action.die
        if seat != self.turn or seat.__class__ is not int:  # True == 1: refuse bools too
            self._check_seat(seat)
            raise IllegalAction(
                "not_your_turn", f"it is {self.names[self.turn]}'s turn", seat=seat, turn=self.turn
            )
        held = self._held[seat]
        if die not in held or die.__class__ is not Die:  # a str equals its Die: refuse it
            if not isinstance(die, Die):
                raise IllegalAction("unknown_die", f"{die!r} is not a die", die=die)
            have = ", ".join(d.value for d in _DIE_ORDER if d in held)
            raise IllegalAction(
                "die_not_held", f"you hold no {die.value} die (you hold {have})", die=die
            )
        lead = self._lead
        # Rolling the lead colour never breaks the colour rule: ask the rule only otherwise (hot path).
        if lead is not None and die is not lead and _breaks_follow(held, lead, die):
            foul = R.follow_foul(held, lead, die)
            if foul is not None:  # always, as the colour rule is broken
                raise IllegalAction(foul.code, foul.text(), **foul.params)
        held.remove(die)
        if die not in held:
            self._kinds[seat] &= ~die.bit
        rand = self._rand
        if rand is not None:  # the default seeded source, inlined: this is the hot path
            face = die.faces[int(rand() * 6)]
        elif self.chance is not None:
            face = self.chance.land(self, seat, die)
        else:
            self._pending = die
            self.phase = _LAND
            return
        # Land the die: `_land`, inlined on this hot path (bench_engine.py: about 4 % of a game).
        trick = self._trick
        assert trick is not None  # a trick is in progress whenever the phase is ROLL
        rolls = trick.rolls
        rolls.append((seat, die, face))
        self.events.append(Rolled(seat, die, face, self._trick_no))
        if lead is None:
            self._lead = _lead_after(None, die)
        rolled = len(rolls)
        if rolled < self.seats:
            self.turn = _roller(trick.leader, rolled, self.seats)
        else:
            self._finish_trick(self.log[-1], trick)

    def _land_checked(self, face: Face) -> None:
        die = self._pending
        if self.phase is not _LAND or die is None:
            raise self._wrong_phase("land")
        if not isinstance(face, Face) or face not in die.faces:
            raise IllegalAction(
                "bad_face", f"a {die} die has no {face!s} face", die=die, face=face
            )
        self._pending = None
        self.phase = _ROLL
        self._land(self.turn, die, face)

    def _land(self, seat: int, die: Die, face: Face) -> None:
        trick = self._trick
        assert trick is not None  # a die lands only in a trick in progress
        rolls = trick.rolls
        rolls.append((seat, die, face))
        self.events.append(Rolled(seat, die, face, self._trick_no))
        if self._lead is None:
            self._lead = _lead_after(None, die)
        rolled = len(rolls)
        if rolled < self.seats:
            self.turn = _roller(trick.leader, rolled, self.seats)
        else:
            self._finish_trick(self.log[-1], trick)

    def _new_trick(self, hand: HandLog, leader: int) -> None:
        self._trick = TrickLog(leader)
        hand.tricks.append(self._trick)
        self._trick_no = len(hand.tricks)
        self.turn = leader

    def _finish_trick(self, hand: HandLog, trick: TrickLog) -> None:
        faces = [r[2] for r in trick.rolls]
        index = R.trick_winner(faces, self.rules)
        winner = trick.rolls[index][0]
        trick.winner = winner
        bonus = R.trick_bonus(faces, index)
        hand.bonus[winner] += bonus
        self.events.append(TrickWon(len(hand.tricks), winner, faces[index], bonus))
        self._lead = None
        if len(hand.tricks) < self.hand:
            self._new_trick(hand, winner)
        else:
            self._score_hand(hand)

    def _score_hand(self, hand: HandLog) -> None:
        won = hand.won
        bids = hand.revealed_bids
        assert bids is not None  # tricks are played only once every seat has bid
        scores = tuple(
            R.hand_score(b, w, self.hand, x, self.rules) for b, w, x in zip(bids, won, hand.bonus)
        )
        hand.scores = scores
        for s, p in enumerate(scores):
            self.totals[s] += p
        self.events.append(
            HandScored(
                self.hand,
                bids,
                tuple(won),
                tuple(hand.bonus),
                scores,
                tuple(self.totals),
            )
        )
        self.turn = -1
        if self.hand == self.hands:
            self.phase = _OVER
            self.events.append(GameOver(tuple(self.totals), tuple(R.places(self.totals))))
        else:
            self.phase = _DEAL

    def next_start(self) -> int:
        """The seat that leads the next hand to be dealt."""
        if not self.log:
            return self.first_start
        last = self.log[-1]
        winner = last.tricks[-1].winner
        assert winner is not None  # the next hand is dealt only once the last one is complete
        return R.next_hand_start(self.rules, self.seats, last.start, winner)

    def _deal_checked(self, dice: object) -> None:
        if self.phase is not _DEAL:
            raise self._wrong_phase("deal")
        each = self.hand + 1
        if not isinstance(dice, (tuple, list)) or len(dice) != self.seats:
            raise IllegalAction("bad_deal", f"a deal gives dice to each of the {self.seats} seats")
        clean: list[tuple[Die, ...]] = []
        for seat, row in enumerate(dice):
            if not isinstance(row, (tuple, list)) or len(row) != each:
                raise IllegalAction(
                    "bad_deal", f"in hand {each} every seat draws {each} dice", seat=seat
                )
            for d in row:
                if not isinstance(d, Die):
                    raise IllegalAction("bad_deal", f"{d!r} is not a die", seat=seat)
            clean.append(tuple(row))
        extra = over_bag(d for row in clean for d in row)
        if extra is not None:
            raise IllegalAction(
                "bad_deal",
                f"the bag holds only {BAG_COUNTS[extra]} {extra.value} dice",
                die=extra,
            )
        self._deal(tuple(clean))

    def _deal(self, dice: tuple[tuple[Die, ...], ...]) -> None:
        start = self.next_start()
        self.hand += 1
        self.log.append(
            HandLog(self.hand, start, dice, [None] * self.seats, [], [0] * self.seats)
        )
        self._held = [sorted(row, key=_table_order) for row in dice]
        self._kinds = [_kinds_mask(row) for row in dice]
        self._lead = None
        self.turn = -1
        self.phase = _BID
        self.events.append(DiceDrawn(self.hand, start, dice))

    # --- views -----------------------------------------------------------------------

    def observe(self, seat: int | None = None) -> View:
        """What `seat` may know now (None: the public view for spectators)."""
        if seat is not None:
            self._check_seat(seat)
        hand = self.log[-1] if self.log else None
        if hand is None:  # nothing dealt yet (external chance)
            return self.setup_view(seat)
        bids = hand.bids
        revealed = None not in bids
        rolls = _ROLL_VIEWS  # the views share these immutable values (faster than making new ones)
        tricks = tuple(
            [
                TrickView(tuple([rolls[s][d.index][f.index] for s, d, f in t.rolls]), t.winner)
                for t in hand.tricks
                if t.rolls
            ]
        )
        # Totals before this hand while it is played; once the game is over, the final ones.
        if hand.scores is None or self.over:
            totals = tuple(self.totals)
        else:  # between hands (external chance): the hand just scored is still the view's
            totals = tuple(t - p for t, p in zip(self.totals, hand.scores))
        leader = hand.tricks[-1].leader if hand.tricks else hand.start
        legal: tuple[int, ...] | tuple[Die, ...] | None = None
        if seat is not None:
            if self.phase is _BID and bids[seat] is None:
                legal = tuple(range(self.hand + 1))
            elif self.phase is _ROLL and seat == self.turn:
                legal = tuple(a.die for a in self._roll_options(seat))
        return View(
            seat=seat,
            seats=self.seats,
            names=self.names,
            hand=self.hand,
            hands=self.hands,
            start=hand.start,
            rules=self.rules,
            dice=tuple(self._held[seat]) if seat is not None else (),
            bid_placed=tuple(b is not None for b in bids),
            bids=tuple(bids) if revealed else (None,) * self.seats,
            won=tuple(hand.won),
            totals=totals,
            tricks=tricks,
            leader=leader,
            legal=legal,
        )

    def setup_view(self, seat: int | None = None) -> View:
        """The view before any dice are drawn (what the bot protocol's `game` message carries)."""
        n = self.seats
        return View(
            seat, n, self.names, 0, self.hands, self.first_start, self.rules, (),
            (False,) * n, (None,) * n, (0,) * n, (0,) * n, (), self.first_start,
        )

    def events_for(self, viewer: int | None, since: int = 0) -> list[Event]:
        """The event log from index `since`, as `viewer` (a seat, or None) may see it."""
        return [e.for_viewer(viewer) for e in self.events[since:]]

    # --- copies and determinization --------------------------------------------------

    def clone(self, chance: Chance | str | None = None) -> Game:
        """An exact, independent copy (its chance source copied too, unless given).

        The copy knows everything the host knows; give players `determinize` instead.
        """
        twin = Game.__new__(Game)
        twin.seats, twin.names, twin.rules = self.seats, self.names, self.rules
        twin.hands, twin.first_start = self.hands, self.first_start
        if chance is not None:
            twin.chance = _chance_source(chance, None)
        else:
            twin.chance = self.chance.copy() if self.chance is not None else None
        twin.phase, twin.hand, twin.turn = self.phase, self.hand, self.turn
        twin.totals = list(self.totals)
        twin.log = [
            HandLog(
                h.number, h.start, h.dice, list(h.bids),
                [TrickLog(t.leader, list(t.rolls), t.winner) for t in h.tricks],
                list(h.bonus), h.scores,
            )
            for h in self.log
        ]
        twin.events = list(self.events)
        twin._held = [list(h) for h in self._held]
        twin._lead, twin._pending = self._lead, self._pending
        twin._trick = twin.log[-1].tricks[-1] if twin.log and twin.log[-1].tricks else None
        twin._trick_no = self._trick_no
        twin._kinds = list(self._kinds)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> Game:
        """A game consistent with everything `seat` knows, the unknown sampled with `rng`.

        Other seats' unrolled dice are drawn from the dice `seat` has not seen
        (never giving a seat a colour it has shown it lacks); bids not yet
        revealed are withdrawn, except `seat`'s own. Future chance is fresh.
        At a chance step (external chance) the copy resumes at the next choice:
        a die still landing is back in its roller's hand, a finished hand is scored.
        """
        own_bid = self.log[-1].bids[seat] if self.log else None
        view = self.observe(seat)
        pending = self._pending
        if self.phase is _LAND and seat == self.turn and pending is not None:
            # The die still rolling is not in the view: give it back (the seat rolls it again).
            dice = sorted((*view.dice, pending), key=_table_order)
            view = replace(view, dice=tuple(dice))
        return Game.from_view(view, rng, own_bid=own_bid)

    @classmethod
    def from_view(
        cls,
        view: View,
        rng: random.Random,
        *,
        own_bid: int | None = None,
        chance: Chance | None = None,
        hidden: Mapping[int, Sequence[Die]] | None = None,
    ) -> Game:
        """Build a game that `view` could be a view of, sampling what it hides with `rng`.

        The result has only the current hand in its log and a fresh chance
        source (seeded from `rng`, unless `chance` is given). `hidden`, if
        given, is the other seats' unrolled dice (seat -> dice) instead of a
        uniform sample (as `bots.inference.PosteriorSampler` draws them; not checked).
        """
        game = cls._blank(view, rng, chance)
        if view.hand == 0:
            game.phase = _DEAL
            game._advance()
            return game
        past = _PastTricks.of(view)
        held = _held_dice(view, past, rng, hidden)
        game._held = [sorted(h, key=_table_order) for h in held]
        game._kinds = [_kinds_mask(h) for h in held]
        drawn = tuple(tuple(past.rolled[s] + held[s]) for s in range(view.seats))
        revealed = all(b is not None for b in view.bids)
        bids: list[int | None] = list(view.bids) if revealed else [None] * view.seats
        if not revealed and view.seat is not None and view.bid_placed[view.seat] and own_bid is not None:
            bids[view.seat] = own_bid
        hand = HandLog(view.hand, view.start, drawn, bids, past.tricks, past.bonus)
        game.log.append(hand)
        game._resume(view, hand, revealed)
        return game

    @classmethod
    def _blank(cls, view: View, rng: random.Random, chance: Chance | None) -> Game:
        """A game with `view`'s table and totals and nothing dealt (the start of `from_view`)."""
        seats = view.seats
        game = cls.__new__(cls)
        game.seats, game.names, game.rules = seats, view.names, view.rules
        game.hands, game.first_start = view.hands, view.start
        game.chance = chance if chance is not None else SeededChance(rng.getrandbits(64))
        game.totals = list(view.totals)
        game.events = []
        game._kinds = [0] * seats
        game._pending = None
        game._lead = None
        game._trick = None
        game._trick_no = 0
        game.turn = -1
        game.hand = view.hand
        game.log = []
        game._held = [[] for _ in range(seats)]
        return game

    def _resume(self, view: View, hand: HandLog, revealed: bool) -> None:
        """Set the phase, turn and trick in progress of a game rebuilt by `from_view`."""
        tricks = hand.tricks
        if not revealed:
            self.phase = _BID
            return
        if view.game_over:
            hand.scores = ()  # totals in a final view already include the last hand
            self.phase = _OVER
            return
        current = tricks[-1] if tricks and tricks[-1].winner is None else None
        if current is None and len(tricks) == view.hand:
            # The hand is over and the next not yet drawn: score it, then deal afresh.
            bids = hand.revealed_bids
            assert bids is not None  # `revealed` is true here
            hand.scores = tuple(
                R.hand_score(b, w, view.hand, x, view.rules) for b, w, x in zip(bids, hand.won, hand.bonus)
            )
            self.totals = [t + p for t, p in zip(self.totals, hand.scores)]
            self.phase = _DEAL
            self._advance()
            return
        if current is None:
            current = TrickLog(view.leader)
            tricks.append(current)
        self._lead = R.lead_colour(r[1] for r in current.rolls)
        self._trick, self._trick_no = current, len(tricks)
        self.turn = R.roller(current.leader, len(current.rolls), self.seats)
        self.phase = _ROLL


@dataclass(slots=True)
class _PastTricks:
    """What a view's tricks tell: each seat's rolled dice, the colours it showed it lacks, bonuses earned."""

    rolled: list[list[Die]]
    voids: list[set[Die]]
    tricks: list[TrickLog]
    bonus: list[int]

    @classmethod
    def of(cls, view: View) -> _PastTricks:
        seats = view.seats
        past = cls([[] for _ in range(seats)], view.shown_voids(), [], [0] * seats)
        for t in view.tricks:
            for r in t.rolls:
                past.rolled[r.seat].append(r.die)
            if t.winner is not None:
                faces = [r.face for r in t.rolls]
                past.bonus[t.winner] += R.trick_bonus(faces, R.trick_winner(faces, view.rules))
            past.tricks.append(TrickLog(t.rolls[0].seat, [(r.seat, r.die, r.face) for r in t.rolls], t.winner))
        return past


def _held_dice(
    view: View, past: _PastTricks, rng: random.Random, hidden: Mapping[int, Sequence[Die]] | None
) -> list[list[Die]]:
    """The dice each seat still holds: the view's own, and `hidden` (or a sample) for the others."""
    seats = view.seats
    held: list[list[Die]] = [[] for _ in range(seats)]
    pool = list(BAG)
    for s in range(seats):
        for d in past.rolled[s]:
            pool.remove(d)
    if view.seat is not None:
        held[view.seat] = list(view.dice)
        for d in view.dice:
            pool.remove(d)
    need = {s: view.hand - len(past.rolled[s]) for s in range(seats) if s != view.seat}
    sampled = hidden if hidden is not None else sample_hidden(pool, need, past.voids, rng)
    for s, dice in sampled.items():
        held[s] = list(dice)
    return held


def sample_hidden(
    pool: list[Die], need: dict[int, int], voids: list[set[Die]], rng: random.Random
) -> dict[int, list[Die]]:
    """Deal `need[s]` dice from `pool` to each seat s, never a colour s is known to lack (`voids[s]`).

    Uniform when no seat has a void; otherwise a rejection sampler with a
    constructive fallback (Hall's condition) so a consistent deal is always found.
    """
    pool = list(pool)
    constrained = any(voids[s] for s in need)
    for _ in range(20 if constrained else 1):
        rng.shuffle(pool)
        out: dict[int, list[Die]] = {}
        i = 0
        ok = True
        for s, k in need.items():
            out[s] = pool[i : i + k]
            i += k
            if voids[s] and any(d in voids[s] for d in out[s]):
                ok = False
                break
        if ok:
            return out
    # Constructive fallback: give the dice one at a time, each a random one among
    # those after which the rest can still be dealt (a greedy deal can dead-end).
    rng.shuffle(pool)
    counts = Counter(pool)
    left = dict(need)
    if _can_deal(counts, left, voids):
        out = {s: [] for s in need}
        for s in sorted(need, key=lambda s: (-len(voids[s]), s)):
            while left[s]:
                for d in dict.fromkeys(d for d in pool if counts[d] and d not in voids[s]):
                    counts[d] -= 1
                    left[s] -= 1
                    if _can_deal(counts, left, voids):
                        out[s].append(d)
                        break
                    counts[d] += 1
                    left[s] += 1
        return out
    out = {}
    for s in sorted(need, key=lambda s: (-len(voids[s]), s)):
        allowed = [d for d in pool if d not in voids[s]]
        take = allowed[: need[s]]
        if len(take) < need[s]:  # cannot satisfy: fill up (no real game reaches this)
            rest = [d for d in pool if d in voids[s]]
            take += rest[: need[s] - len(take)]
        for d in take:
            pool.remove(d)
        out[s] = take
    return out


def _can_deal(counts: Counter[Die], left: dict[int, int], voids: list[set[Die]]) -> bool:
    """Whether `counts` dice can give each seat s `left[s]` more dice, none of a colour in voids[s].

    Hall's condition: every group of seats needs no more dice than the pool holds
    of the kinds one of them may take (groups with an unconstrained seat may take all).
    """
    if sum(left.values()) > sum(counts.values()):
        return False
    tight = [s for s in left if left[s] and voids[s]]
    for mask in range(1, 1 << len(tight)):
        group = [s for i, s in enumerate(tight) if mask >> i & 1]
        want = sum(left[s] for s in group)
        have = sum(n for d, n in counts.items() if any(d not in voids[s] for s in group))
        if want > have:
            return False
    return True
