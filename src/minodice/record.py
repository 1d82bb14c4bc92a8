"""The `minodice/1` game record: read, write, verify, fill in and replay.

A record is a JSON object (see `docs/record-format.md`). `check` replays it in
playing order through the engine (`Game` with external chance: the recorded
deals, bids, rolls and faces), names the first action the engine refuses in a
player's words, then compares the derived fields the record states with the
engine's; `fill` adds the derived fields; `from_game` writes any game, in
progress or over, for the host or for one seat; `to_game` turns a host record
back into a live `Game` to resume it.

>>> from minodice.game import Game
>>> rec = from_game(Game(3, seed=1))
>>> check(rec) is None
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

from . import jsontext
from . import rules as R
from .codes import printable, render
from .dice import BAG, BAG_COUNTS, MAX_SEATS, MIN_SEATS, Die, Face, die_named, face_named, hands_for
from .errors import IllegalAction
from .game import EXTERNAL, Bid, Chance, Deal, Game, HandLog, Land, Phase, Roll, TrickLog
from .rules import RuleError, Rules

FORMAT = "minodice/1"

__all__ = [
    "FORMAT",
    "HandSummary",
    "Position",
    "RecordError",
    "check",
    "fill",
    "from_game",
    "load",
    "record_positions",
    "save",
    "summary",
    "to_game",
]


class RecordError(ValueError):
    """A file that is not a `minodice/1` record at all (unreadable, not JSON, wrong format)."""


# --- reading and writing -----------------------------------------------------------------
#
# A record is read by the one strict JSON reader (`minodice.jsontext`): its size, how deep its JSON
# nests, how many digits a number has, lone surrogates, a key given twice, NaN, a byte-order mark.
MAX_BYTES = jsontext.MAX_BYTES
MAX_DEPTH = jsontext.MAX_DEPTH
MAX_DIGITS = jsontext.MAX_DIGITS


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file; RecordError if it cannot be read or is not a `minodice/1` object."""
    try:
        text = jsontext.read(path, what="game record")
    except jsontext.JSONTextError as exc:
        raise RecordError(str(exc)) from exc
    return parse(text)


def parse(text: str) -> dict[str, Any]:
    """Parse a record's JSON text; RecordError if it is not a `minodice/1` object."""
    try:
        data = jsontext.parse(text)
    except jsontext.JSONTextError as exc:
        message = str(exc)
        raise RecordError(message if message.startswith("not JSON") else f"not a minodice/1 record: {message}") from None
    if not isinstance(data, dict):
        raise RecordError("not a minodice/1 record: the file must hold one JSON object")
    if data.get("format") != FORMAT:
        found = data.get("format")
        raise RecordError(
            f'not a minodice/1 record: "format" is {_quote(found)}, expected "{FORMAT}"'
            if "format" in data
            else f'not a minodice/1 record: it has no "format": "{FORMAT}"'
        )
    return data


def _quote(value: Any, most: int = 60) -> str:
    """A JSON value as a message quotes it: as JSON, cut short after `most` characters."""
    text = json.dumps(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def save(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a record atomically (a crash mid-write leaves the old file intact)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


# --- checking: the record replayed through the engine ---------------------------------------
#
# `check` reads a record in playing order and feeds it to `Game(chance=EXTERNAL)`: a `Deal`
# with the recorded dice per hand, the `Bid`s, each `Roll` followed by its `Land`. The engine
# decides what is legal; a refusal (`IllegalAction`, a code and its params) is put in a
# player's words here, with where it happened. What the record states (trick winners, hand
# scores, totals) is then compared with what the engine computed. The JSON shape is checked
# here as it is read. Only a hand that hides dice (a seat's record) is walked without the
# engine: see `_HiddenHand`.


class _Fault(Exception):
    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}" if where else what)


@dataclass
class _Hand:
    """A hand as the checker reconstructs it: what `fill` writes back."""

    winners: list[int]  # of complete tricks
    finished: bool
    scores: list[int] | None


@dataclass
class _Replay:
    """A checked record: its rules, its hands, the totals, and the engine that replayed it."""

    rules: Rules
    hands: list[_Hand]
    totals: list[int]
    game: Game
    hidden: bool  # the last hand hides dice (a seat's record): `game` only knows its bids


@dataclass
class _Table:
    """The players and the engine replaying their record."""

    names: list[str]
    game: Game

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def who(self, seat: int) -> str:
        return f"{printable(self.names[seat])} (seat {seat})"


def check(record: Mapping[str, Any]) -> str | None:
    """The first fault of a record, in words (None when it is valid)."""
    try:
        _replay(record)
    except _Fault as fault:
        return str(fault)
    return None


def _replay(rec: Mapping[str, Any]) -> _Replay:
    """Check a record in playing order, replaying it through the engine; _Fault at the first fault."""
    rules, names, hands = _structure(rec)
    first = hands[0].get("start") if hands and isinstance(hands[0], dict) else None
    game = Game(len(names), names=names, rules=rules, chance=EXTERNAL,
                first_start=first if _is_seat(first, len(names)) else 0)
    table = _Table(names, game)
    out: list[_Hand] = []
    hidden = False
    for k, hand in enumerate(hands, start=1):
        info, hidden = _hand(table, hand, k, last=k == len(hands))
        out.append(info)
    _check_totals(table, rec.get("totals"))
    return _Replay(rules, out, list(game.totals), game, hidden)


def _structure(rec: Mapping[str, Any]) -> tuple[Rules, list[str], list[Any]]:
    """The format, rule options, seats and hand count: what must hold before any play."""
    if rec.get("format") != FORMAT:
        raise _Fault("", f'"format" must be "{FORMAT}"')
    try:
        rules = Rules.from_dict(rec.get("rules"))
    except RuleError as exc:
        raise _Fault("rules", str(exc)) from None
    seats = rec.get("seats")
    if not isinstance(seats, list):
        raise _Fault("seats", "must be a list of players")
    n = len(seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise _Fault("seats", f"the record has {n} seats; Mino Dice is played by 3 to 6")
    names: list[str] = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str) or not seat["name"].strip():
            raise _Fault("seats", f"seat {i} needs a name")
        names.append(seat["name"])
    hands = rec.get("hands")
    if not isinstance(hands, list):
        raise _Fault("hands", "must be a list of hands")
    length = hands_for(n)
    if len(hands) > length:
        raise _Fault("hands", f"a game of {n} players has {length} hands, not {len(hands)}")
    return rules, names, hands


def _is_seat(value: object, n: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _is_whole(value: object) -> TypeGuard[int]:
    """A JSON whole number: an int, never a boolean (JSON's true and false are not 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


# --- one hand ----------------------------------------------------------------------------------

#: Why a hand's start player is who it is, by the `hand_start` rule option.
def _hand(table: _Table, hand: object, k: int, last: bool) -> tuple[_Hand, bool]:
    """Replay hand `k`: start, deal, bids, tricks, then its stated scores. Also: does it hide dice?"""
    where = f"hand {k}"
    if not isinstance(hand, dict):
        raise _Fault(where, "must be an object")
    start = hand.get("start")
    if not _is_seat(start, table.seats):
        raise _Fault(where, f'"start" must be a seat from 0 to {table.seats - 1}')
    expected = table.game.next_start()
    if start != expected:
        raise _Fault(where, f"started by {table.who(start)}, but {table.who(expected)} should: "
                            + R.hand_start_reason(table.rules).text())
    hidden = _deal(table, hand.get("dice"), k, last)
    tricks = _bids(table, hand, k, last)
    play = table.game if hidden is None else _HiddenHand(table.game, hidden)
    for t, trick in enumerate(tricks, start=1):
        _trick(table, play, trick, k, t, last and t == len(tricks))
    return _close_hand(table, hand, k, last, play), hidden is not None


def _deal(table: _Table, dice: object, k: int, last: bool) -> list[list[Die | None]] | None:
    """Deal hand `k`'s dice to the engine; the dealt rows if some are hidden (null), else None.

    Only the last hand of a record may hide dice (a seat's record of a game in progress).
    The engine must be dealt every die, so a hidden one is dealt as one of the dice left
    in the bag: the deal's checks (hand size, bag) and the bids then still go through
    the engine, and the tricks are walked by `_HiddenHand` on the dice actually shown.
    """
    # a name that names no die goes to the engine as it is: the engine refuses it
    rows: Any = [[die_named(d) or d for d in row] if isinstance(row, list) else row
                 for row in dice] if isinstance(dice, list) else dice  # as given: the engine checks it
    hidden = last and isinstance(rows, list) and any(isinstance(r, list) and None in r for r in rows)
    deal = _stand_in(rows) if hidden else rows
    try:
        table.game.apply(Deal(tuple(deal) if isinstance(deal, list) else deal))
    except IllegalAction as err:
        raise _Fault(f"hand {k}", _deal_words(err, table, deal, k)) from None
    return rows if hidden else None


def _stand_in(rows: list[Any]) -> list[Any]:
    """`rows` with each hidden die (null) replaced by one of the dice not shown, in bag order."""
    shown = Counter(d for row in rows if isinstance(row, list) for d in row if isinstance(d, Die))
    left = iter((Counter(BAG) - shown).elements())
    return [[next(left, None) if d is None else d for d in row] if isinstance(row, list) else row
            for row in rows]


def _deal_words(err: IllegalAction, table: _Table, rows: Any, k: int) -> str:
    """A refused deal (`bad_deal`) of `rows` in words: which seat's dice, or which kind of die."""
    if err.code != "bad_deal":
        return str(err)
    die, seat = err.params.get("die"), err.params.get("seat")
    if die is not None:
        count = sum(1 for row in rows for d in row if d is die)
        return f"{count} {die.value} dice were drawn, but the bag holds only {BAG_COUNTS[die]}"
    if seat is None:
        return f'"dice" must list the dice of each of the {table.seats} seats'
    row = rows[seat]
    if not isinstance(row, list):
        return f"the dice of {table.who(seat)} must be a list"
    if len(row) != k:
        return f"{table.who(seat)} has {len(row)} dice, but every seat draws {k} in hand {k}"
    name = next(d for d in row if not isinstance(d, Die))
    return f"{table.who(seat)} has an unknown die {_quote(name)}"


def _bids(table: _Table, hand: dict[str, Any], k: int, last: bool) -> list[Any]:
    """Apply hand `k`'s bids; its tricks, once it is clear they may be played."""
    where, n, game = f"hand {k}", table.seats, table.game
    bids = hand.get("bids")
    if bids is None:  # null or absent: no bid yet (the spec allows both)
        bids = [None] * n
    if not isinstance(bids, list) or len(bids) != n:
        raise _Fault(where, f'"bids" must hold a bid (or null) for each of the {n} seats')
    for s, b in enumerate(bids):
        if b is None:
            continue
        try:
            game.apply(Bid(s, b))
        except IllegalAction as err:
            raise _Fault(where, _bid_words(err, table, s, k)) from None
    tricks = hand.get("tricks", [])
    if not isinstance(tricks, list):
        raise _Fault(where, '"tricks" must be a list')
    if game.phase is Phase.BID:
        missing = table.who(game.to_act()[0])
        if not last:
            raise _Fault(where, f"{missing} has no bid, and only the last hand may be unfinished")
        if tricks:
            raise _Fault(where, f"tricks were played before all bids were in ({missing} has not bid)")
    if len(tricks) > k:
        raise _Fault(where, f"{len(tricks)} tricks were played, but hand {k} has {k}")
    return tricks


def _bid_words(err: IllegalAction, table: _Table, seat: int, k: int) -> str:
    """A refused bid in words."""
    p = err.params
    if err.code == "bid_out_of_range":
        return (f"{table.who(seat)} bid {_quote(p['bid'])}, "
                f"but bids in hand {k} go from {p['low']} to {p['high']}")
    return f"{table.who(seat)}: {err}"


def _close_hand(table: _Table, hand: dict[str, Any], k: int, last: bool, play: Game | _HiddenHand) -> _Hand:
    """After the tricks: is the hand finished (or may it be unfinished), and are its stated scores right?"""
    where, log = f"hand {k}", play.log[-1]
    winners = [t.winner for t in log.tricks if t.winner is not None]
    if log.scores is None:
        if not last:
            raise _Fault(where, f"only {len(winners)} of {k} tricks were played, "
                                "and only the last hand may be unfinished")
        if hand.get("scores") is not None:
            raise _Fault(where, "an unfinished hand has no scores yet")
        return _Hand(winners, False, None)
    scores = list(log.scores)
    given = hand.get("scores")
    if given is not None:
        _check_scores(table, given, log, k)
    return _Hand(winners, True, scores)


def _check_scores(table: _Table, given: object, log: HandLog, k: int) -> None:
    """The scores a record states for a finished hand against the engine's."""
    n, rules = table.seats, table.rules
    if not isinstance(given, list) or len(given) != n:
        raise _Fault(f"hand {k}", f'"scores" must hold a score for each of the {n} seats')
    won = log.won
    for s, score in enumerate(log.scores or ()):
        if given[s] != score or not _is_whole(given[s]):
            bid, bonus = log.bids[s] or 0, log.bonus[s]  # every bid is placed: the hand is scored
            # the bonus is named only when it counted (the rules say when)
            counted = R.hand_score(bid, won[s], k, bonus, rules) != R.hand_score(bid, won[s], k, 0, rules)
            raise _Fault(f"hand {k}", f"{table.who(s)} scores {score} (bid {bid}, won {won[s]}"
                                      + (f", bonus {bonus}" if counted else "")
                                      + f"), not {_quote(given[s])}")


def _check_totals(table: _Table, given: object) -> None:
    """The totals a record states against the engine's."""
    if given is None:
        return
    n = table.seats
    if not isinstance(given, list) or len(given) != n:
        raise _Fault("totals", f"must hold a total for each of the {n} seats")
    for s, total in enumerate(table.game.totals):
        if given[s] != total or not _is_whole(given[s]):
            raise _Fault("totals", f"{table.who(s)} has {total} in all, not {_quote(given[s])}")


# --- one trick -----------------------------------------------------------------------------

#: The actions a record's rolls stand for, by seat and die name, and by face name (actions are
#: values: one shared instance each, as replaying a record builds hundreds of them).
_ROLLS: list[dict[str, Roll]] = [{d.value: Roll(s, d) for d in Die} for s in range(MAX_SEATS)]
_LANDS: dict[str, Land] = {f.value: Land(f) for f in Face}


def _trick(table: _Table, play: Game | _HiddenHand, trick: object, k: int, t: int, last: bool) -> None:
    """Roll trick `t` of hand `k`, then compare its stated winner. `last`: the game's last trick."""
    where, n = f"hand {k}, trick {t}", table.seats
    rolls = trick.get("rolls") if isinstance(trick, dict) else None
    if not isinstance(trick, dict) or not isinstance(rolls, list) or not rolls:
        raise _Fault(where, 'a trick needs a non-empty list of "rolls"')
    if len(rolls) > n:
        raise _Fault(where, f"{len(rolls)} rolls, but each of the {n} seats rolls once")
    rolled: list[int] = []
    apply = play.apply
    for i, roll in enumerate(rolls):
        if not isinstance(roll, dict):
            raise _Fault(where, "each roll must be an object with seat, die and face")
        seat = roll.get("seat")
        die: Any = roll.get("die")  # JSON as given: the engine refuses what names no die or face
        face: Any = roll.get("face")
        if not _is_seat(seat, n):
            raise _Fault(where, f"roll {i + 1} names no seat from 0 to {n - 1}")
        try:  # a name that names no die or face goes to the engine as it is: the engine refuses it
            apply((_ROLLS[seat].get(die) if die.__class__ is str else None) or Roll(seat, die))
            apply((_LANDS.get(face) if face.__class__ is str else None) or Land(face))
        except IllegalAction as err:
            raise _Fault(where, _roll_words(err, table, roll, rolled, t)) from None
        rolled.append(seat)
    log = play.log[-1].tricks[t - 1]
    if log.winner is None:
        if not last:
            raise _Fault(where, f"only {len(rolls)} of {n} seats rolled, "
                                "and only the last trick of the game may be unfinished")
        if trick.get("winner") is not None:
            raise _Fault(where, "an unfinished trick has no winner yet")
        return
    claimed = trick.get("winner", log.winner)
    if claimed != log.winner or not _is_whole(claimed):
        why = R.explain_trick([face for _s, _d, face in log.rolls], table.rules)
        named = table.who(claimed) if _is_seat(claimed, n) else _quote(claimed)
        raise _Fault(where, f"the winner is {table.who(log.winner)} ({why}), not {named}")


def _roll_words(err: IllegalAction, table: _Table, roll: dict[str, Any], rolled: list[int], t: int) -> str:
    """A refused roll (or face) in words; `rolled`: the seats that rolled before it in this trick."""
    who, seat, p = table.who, roll["seat"], err.params
    if err.code == "not_your_turn":
        turn = p["turn"]
        if seat in rolled:
            return f"{who(seat)} rolled twice"
        if rolled:
            return f"{who(seat)} rolled out of turn: {who(turn)} was to roll"
        if t > 1:
            return f"led by {who(seat)}, but {who(turn)} won trick {t - 1} and leads this one"
        return f"led by {who(seat)}, but {who(turn)} starts the hand and leads the first trick"
    if err.code == "unknown_die":
        return f"{who(seat)} rolled an unknown die {_quote(roll.get('die'))}"
    die, code = p.get("die"), err.code
    if (code in ("die_not_held", "must_follow") and die is not None
            and face_named(roll.get("face")) not in die.faces):
        code = "bad_face"  # a roll reads die, then face: an impossible face is named first
    if code == "bad_face":
        shown = _quote(roll.get("face"))
        return f"{who(seat)} rolled {die} showing {shown}, which a {die} die does not have"
    if code == "die_not_held":
        return f"{who(seat)} rolled {die} but has no {die} die left in this hand"
    if code == "must_follow":
        return f"{who(seat)} rolled {die} but holds {p['colour']}, the lead colour"
    return f"{who(seat)}: {err}"


class _HiddenHand:
    """The tricks of a hand that hides other seats' unrolled dice (null), which the engine
    cannot replay (it must know every die): walked here on the dice shown, with the rules'
    functions, behind the engine's surface (`apply` a `Roll`, then its `Land`; `log`).

    A roll is refused as the engine refuses it (its codes, the registry's words), so
    `_roll_words` words it the same way. Such a hand is never finished (every die
    rolled is shown), so it has no scores.
    """

    def __init__(self, game: Game, dice: list[list[Die | None]]) -> None:
        hand = game.log[-1]
        self.held = [list(row) for row in dice]
        self.rules = game.rules
        self.log = [HandLog(hand.number, hand.start, (), hand.bids, [TrickLog(hand.start)], [])]
        self.pending: tuple[int, Die] | None = None  # rolled, not yet landed

    def apply(self, action: Roll | Land) -> None:
        tricks = self.log[-1].tricks
        if tricks[-1].winner is not None:  # the last trick is won: its winner leads the next
            tricks.append(TrickLog(tricks[-1].winner))
        trick = tricks[-1]
        if isinstance(action, Land):
            self._land(trick, action.face)
            return
        seat, die = action.seat, action.die
        turn = R.roller(trick.leader, len(trick.rolls), len(self.held))
        if seat != turn:
            raise IllegalAction("not_your_turn", render("not_your_turn"), seat=seat, turn=turn)
        if not isinstance(die, Die):
            raise IllegalAction("unknown_die", render("unknown_die"), die=die)
        held = self.held[seat]
        if die not in held:
            raise IllegalAction("die_not_held", render("die_not_held", {"die": die}), die=die)
        lead = R.lead_colour(d for _s, d, _f in trick.rolls)
        foul = R.follow_foul([d for d in held if d is not None], lead, die)
        if foul is not None:
            raise IllegalAction(foul.code, foul.text(), **foul.params)
        held.remove(die)
        self.pending = (seat, die)

    def _land(self, trick: TrickLog, face: object) -> None:
        assert self.pending is not None  # `_trick` applies a roll's `Land` right after its `Roll`
        seat, die = self.pending
        if not isinstance(face, Face) or face not in die.faces:
            words = render("bad_face", {"die": die, "face": face})
            raise IllegalAction("bad_face", words, die=die, face=face)
        trick.rolls.append((seat, die, face))
        if len(trick.rolls) == len(self.held):
            faces = [f for _s, _d, f in trick.rolls]
            trick.winner = trick.rolls[R.trick_winner(faces, self.rules)][0]


# --- derived fields and summaries ------------------------------------------------------------


def fill(record: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a valid record with every derived field written (ValueError if invalid)."""
    try:
        replay = _replay(record)
    except _Fault as fault:
        raise ValueError(str(fault)) from None
    rules, hands, totals = replay.rules, replay.hands, replay.totals
    out = json.loads(json.dumps(record))
    out["rules"] = rules.to_dict()
    for hand, info in zip(out["hands"], hands):
        if hand.get("bids") is None:
            hand["bids"] = [None] * len(out["seats"])
        hand.setdefault("tricks", [])
        for trick, winner in zip(hand["tricks"], info.winners):
            trick["winner"] = winner
        if info.scores is not None:
            hand["scores"] = info.scores
        else:
            hand.pop("scores", None)
    out["totals"] = totals
    return out


@dataclass(frozen=True)
class HandSummary:
    """One row of the score sheet."""

    hand: int
    bids: list[int | None]
    won: list[int]
    scores: list[int] | None
    totals: list[int]


def summary(record: Mapping[str, Any]) -> list[HandSummary]:
    """The hand-by-hand score sheet of a valid record (ValueError if invalid)."""
    try:
        hands = _replay(record).hands
    except _Fault as fault:
        raise ValueError(str(fault)) from None
    n = len(record["seats"])
    running = [0] * n
    rows: list[HandSummary] = []
    for k, (hand, info) in enumerate(zip(record["hands"], hands), start=1):
        won = [0] * n
        for w in info.winners:
            won[w] += 1
        if info.scores is not None:
            running = [a + b for a, b in zip(running, info.scores)]
        rows.append(HandSummary(k, list(hand.get("bids") or [None] * n), won, info.scores, list(running)))
    return rows


# --- games to records and back --------------------------------------------------------------


def from_game(
    game: Game, seat: int | None = None, *, seat_info: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The record of `game` so far: for the host (seat None), or as `seat` may see it.

    In a seat's record the unfinished last hand shows `null` for other seats'
    dice not yet rolled and for bids not yet revealed.
    """
    seats = []
    for i, name in enumerate(game.names):
        entry: dict[str, Any] = {"name": name}
        if seat_info is not None:
            entry.update({k: v for k, v in seat_info[i].items() if k != "name"})
        seats.append(entry)
    hands = []
    for h in game.log:
        finished = h.scores is not None
        rolled: list[list[Die]] = [[] for _ in range(game.seats)]
        for t in h.tricks:
            for s, d, _f in t.rolls:
                rolled[s].append(d)
        dice: list[list[str | None]]
        if seat is None or finished:
            dice = [[d.value for d in row] for row in h.dice]
        else:
            dice = []
            for s, row in enumerate(h.dice):
                if s == seat:
                    dice.append([d.value for d in row])
                else:
                    dice.append([d.value for d in rolled[s]] + [None] * (len(row) - len(rolled[s])))
        revealed = None not in h.bids
        if seat is None or revealed:
            bids = list(h.bids)
        else:
            bids = [b if s == seat else None for s, b in enumerate(h.bids)]
        tricks = []
        for t in h.tricks:
            if not t.rolls:
                continue
            trick: dict[str, Any] = {
                "rolls": [{"seat": s, "die": d.value, "face": f.value} for s, d, f in t.rolls]
            }
            if t.winner is not None:
                trick["winner"] = t.winner
            tricks.append(trick)
        hand: dict[str, Any] = {"start": h.start, "dice": dice, "bids": bids, "tricks": tricks}
        if finished:
            hand["scores"] = list(h.scores or ())
        hands.append(hand)
    totals = [0] * game.seats
    for h in game.log:
        if h.scores is not None:
            totals = [a + b for a, b in zip(totals, h.scores)]
    return {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "seats": seats,
        "hands": hands,
        "totals": totals,
    }


def to_game(
    record: Mapping[str, Any], *, seed: int | str | None = None, chance: Chance | None = None
) -> Game:
    """Rebuild the live game of a host record (to resume it), then continue with fresh chance.

    ValueError if the record is invalid or hides dice (a seat's record cannot be resumed).
    """
    try:
        replay = _replay(record)
    except _Fault as fault:
        raise ValueError(str(fault)) from None
    if replay.hidden:
        raise ValueError(
            f"hand {len(replay.hands)}: some dice are hidden (null); only the host's full record can be resumed"
        )
    game = replay.game  # the engine that checked the record has replayed it all
    game.set_chance(chance, seed=seed)
    return game


class Position(NamedTuple):
    """A decision point of a recorded game: the bidding of hand `hand` (`trick` None; every seat
    decides, no bid of the hand placed yet) or just before roll `roll` of trick `trick` (1-based),
    where `seat` rolls. `made` is what the record holds there: the hand's bids (None for a bid not
    placed), or the die rolled (None: the record stops before it). `game` is the game stopped there:
    valid until the walk goes on."""

    hand: int
    trick: int | None
    roll: int | None
    seat: int | None
    made: tuple[int | None, ...] | Die | None
    game: Game


def record_positions(record: Mapping[str, Any]) -> Iterator[Position]:
    """Every decision point of a host record in order, with the choice made there (`made`: the
    hand's bids at a bidding, the die rolled at a roll), replaying it through the engine.

    Where the record stops in the middle of a hand, the last position is the decision it stops
    before (bids not all placed, or the next roll). ValueError if the record is invalid or hides dice.
    """
    fault = check(record)
    if fault is not None:
        raise ValueError(fault)
    hands = record["hands"]
    if not hands:  # dealt nothing yet: no decision to replay
        return
    names = [s["name"] for s in record["seats"]]
    game = Game(
        len(names), names=names, rules=Rules.from_dict(record.get("rules")),
        chance=EXTERNAL, first_start=hands[0]["start"],
    )
    for k, h in enumerate(hands, start=1):
        if any(d is None for row in h["dice"] for d in row):
            raise ValueError(f"hand {k}: some dice are hidden (null); a host record is needed")
        game.apply(Deal(tuple(tuple(Die(d) for d in row) for row in h["dice"])))
        bids = tuple(h.get("bids") or ()) + (None,) * (game.seats - len(h.get("bids") or ()))
        yield Position(k, None, None, None, bids, game)
        if None in bids:
            return
        for s, b in enumerate(bids):
            game.apply(Bid(s, b))
        for t, trick in enumerate(h.get("tricks", []), start=1):
            for r, roll in enumerate(trick["rolls"], start=1):
                die = Die(roll["die"])
                yield Position(k, t, r, roll["seat"], die, game)
                game.apply(Roll(roll["seat"], die))
                game.apply(Land(Face(roll["face"])))
        if game.phase is Phase.ROLL:  # the record stops in the middle of the hand: the next roll
            cur = game.current
            assert cur is not None
            done = sum(len(t.rolls) for t in cur.tricks)
            yield Position(k, done // game.seats + 1, done % game.seats + 1, game.turn, None, game)
            return
