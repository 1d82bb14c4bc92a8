"""The `minodice/1` game record: read, write, verify, fill in and replay.

A record is a JSON object (see `spec/record.md`). `check` walks it in playing
order and names the first fault in a player's words; `fill` adds the derived
fields; `from_game` writes any game, in progress or over, for the host or for
one seat; `to_game` turns a host record back into a live `Game` to resume it.

>>> from minodice.game import Game
>>> rec = from_game(Game(3, seed=1))
>>> check(rec) is None
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import rules as R
from .dice import BAG_COUNTS, MAX_SEATS, MIN_SEATS, Die, Face, die_named, face_named, hands_for
from .game import EXTERNAL, Bid, Chance, Deal, Game, Land, Roll
from .rules import RuleError, Rules

FORMAT = "minodice/1"

__all__ = [
    "FORMAT",
    "HandSummary",
    "RecordError",
    "check",
    "fill",
    "from_game",
    "load",
    "save",
    "summary",
    "to_game",
]


class RecordError(ValueError):
    """A file that is not a `minodice/1` record at all (unreadable, not JSON, wrong format)."""


# --- reading and writing -----------------------------------------------------------------


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file; RecordError if it cannot be read or is not a `minodice/1` object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise RecordError(f"cannot read the file: {reason}") from exc
    return parse(text)


def parse(text: str) -> dict[str, Any]:
    """Parse a record's JSON text; RecordError if it is not a `minodice/1` object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from exc
    if not isinstance(data, dict):
        raise RecordError("not a minodice/1 record: the file must hold one JSON object")
    if data.get("format") != FORMAT:
        found = data.get("format")
        raise RecordError(
            f'not a minodice/1 record: "format" is {json.dumps(found)}, expected "{FORMAT}"'
            if "format" in data
            else f'not a minodice/1 record: it has no "format": "{FORMAT}"'
        )
    return data


def save(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a record atomically (a crash mid-write leaves the old file intact)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


# --- checking --------------------------------------------------------------------------


class _Fault(Exception):
    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}" if where else what)


@dataclass
class _Hand:
    """A hand as the checker reconstructs it: what `fill` writes back."""

    winners: list[int]  # of complete tricks
    finished: bool
    scores: list[int] | None


def check(record: Mapping[str, Any]) -> str | None:
    """The first fault of a record, in words (None when it is valid)."""
    try:
        _walk(record)
    except _Fault as fault:
        return str(fault)
    return None


def _walk(rec: Mapping[str, Any]) -> tuple[Rules, list[_Hand], list[int]]:
    """Check a record in playing order; raise _Fault at the first fault."""
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
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            raise _Fault("seats", f"seat {i} needs a name")
        names.append(seat["name"])
    hands = rec.get("hands")
    if not isinstance(hands, list):
        raise _Fault("hands", "must be a list of hands")
    length = hands_for(n)
    if len(hands) > length:
        raise _Fault("hands", f"a game of {n} players has {length} hands, not {len(hands)}")

    def who(s: int) -> str:
        return f"{names[s]} (seat {s})"

    out: list[_Hand] = []
    totals = [0] * n
    for k, hand in enumerate(hands, start=1):
        last = k == len(hands)
        where = f"hand {k}"
        if not isinstance(hand, dict):
            raise _Fault(where, "must be an object")
        # start player
        start = hand.get("start")
        if not _is_seat(start, n):
            raise _Fault(where, f'"start" must be a seat from 0 to {n - 1}')
        if k > 1:
            prev_start = hands[k - 2]["start"]
            if rules.hand_start == "rotate":
                expected = (prev_start + 1) % n
                rule = "the start player moves one seat to the left each hand"
            else:
                expected = out[-1].winners[-1]
                rule = "the winner of the last trick of the previous hand starts (hand_start last_winner)"
            if start != expected:
                raise _Fault(where, f"started by {who(start)}, but {who(expected)} should: {rule}")
        # dice
        dice = hand.get("dice")
        if not isinstance(dice, list) or len(dice) != n:
            raise _Fault(where, f'"dice" must list the dice of each of the {n} seats')
        held: list[list[Die | None]] = []
        for s, row in enumerate(dice):
            if not isinstance(row, list):
                raise _Fault(where, f"the dice of {who(s)} must be a list")
            if len(row) != k:
                raise _Fault(where, f"{who(s)} has {len(row)} dice, but every seat draws {k} in hand {k}")
            parsed: list[Die | None] = []
            for name in row:
                if name is None and last:
                    parsed.append(None)
                    continue
                die = die_named(name)
                if die is None:
                    raise _Fault(where, f"{who(s)} has an unknown die {json.dumps(name)}")
                parsed.append(die)
            held.append(parsed)
        counts = Counter(d for row in held for d in row if d is not None)
        for die, count in counts.items():
            if count > BAG_COUNTS[die]:
                raise _Fault(
                    where, f"{count} {die.value} dice were drawn, but the bag holds only {BAG_COUNTS[die]}"
                )
        # bids
        bids = hand.get("bids", [None] * n)
        if not isinstance(bids, list) or len(bids) != n:
            raise _Fault(where, f'"bids" must hold a bid (or null) for each of the {n} seats')
        for s, b in enumerate(bids):
            if b is None:
                continue
            if not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= k:
                raise _Fault(where, f"{who(s)} bid {json.dumps(b)}, but bids in hand {k} go from 0 to {k}")
        tricks = hand.get("tricks", [])
        if not isinstance(tricks, list):
            raise _Fault(where, '"tricks" must be a list')
        missing = [s for s, b in enumerate(bids) if b is None]
        if missing:
            if not last:
                raise _Fault(where, f"{who(missing[0])} has no bid, and only the last hand may be unfinished")
            if tricks:
                raise _Fault(
                    where, f"tricks were played before all bids were in ({who(missing[0])} has not bid)"
                )
        if len(tricks) > k:
            raise _Fault(where, f"{len(tricks)} tricks were played, but hand {k} has {k}")
        # tricks
        remaining = [list(row) for row in held]
        winners: list[int] = []
        won = [0] * n
        bonus = [0] * n
        leader = start
        for t, trick in enumerate(tricks, start=1):
            where_t = f"hand {k}, trick {t}"
            rolls = trick.get("rolls") if isinstance(trick, dict) else None
            if not isinstance(rolls, list) or not rolls:
                raise _Fault(where_t, 'a trick needs a non-empty list of "rolls"')
            if len(rolls) > n:
                raise _Fault(where_t, f"{len(rolls)} rolls, but each of the {n} seats rolls once")
            lead: Die | None = None
            faces: list[Face] = []
            rolled: list[int] = []
            for i, roll in enumerate(rolls):
                if not isinstance(roll, dict):
                    raise _Fault(where_t, "each roll must be an object with seat, die and face")
                seat = roll.get("seat")
                if not _is_seat(seat, n):
                    raise _Fault(where_t, f"roll {i + 1} names no seat from 0 to {n - 1}")
                expected = (leader + i) % n
                if seat != expected:
                    if seat in rolled:
                        raise _Fault(where_t, f"{who(seat)} rolled twice")
                    if i == 0:
                        previous = (
                            f"{who(leader)} won trick {t - 1} and leads this one"
                            if t > 1
                            else f"{who(leader)} starts the hand and leads the first trick"
                        )
                        raise _Fault(where_t, f"led by {who(seat)}, but {previous}")
                    raise _Fault(
                        where_t, f"{who(seat)} rolled out of turn: {who(expected)} was to roll"
                    )
                die = die_named(roll.get("die"))
                if die is None:
                    raise _Fault(where_t, f"{who(seat)} rolled an unknown die {json.dumps(roll.get('die'))}")
                face = face_named(roll.get("face"))
                if face is None or face not in die.faces:
                    shown = json.dumps(roll.get("face"))
                    raise _Fault(
                        where_t, f"{who(seat)} rolled {die.value} showing {shown}, which a {die.value} die does not have"
                    )
                mine = remaining[seat]
                if die not in mine:
                    raise _Fault(
                        where_t, f"{who(seat)} rolled {die.value} but has no {die.value} die left in this hand"
                    )
                if R.breaks_follow([d for d in mine if d is not None], lead, die):
                    raise _Fault(
                        where_t, f"{who(seat)} rolled {die.value} but holds {lead.value}, the lead colour"  # type: ignore[union-attr]
                    )
                mine.remove(die)
                if lead is None and not die.special:
                    lead = die
                faces.append(face)
                rolled.append(seat)
            complete = len(rolls) == n
            if complete:
                index = R.trick_winner(faces, rules)
                winner = rolled[index]
                claimed = trick.get("winner", winner)
                if claimed != winner:
                    named = who(claimed) if _is_seat(claimed, n) else json.dumps(claimed)
                    raise _Fault(
                        where_t,
                        f"the winner is {who(winner)} ({R.explain_trick(faces, rules)}), not {named}",
                    )
                winners.append(winner)
                won[winner] += 1
                bonus[winner] += R.trick_bonus(faces, index)
                leader = winner
            else:
                if not (last and t == len(tricks)):
                    raise _Fault(where_t, f"only {len(rolls)} of {n} seats rolled, and only the last trick of the game may be unfinished")
                if trick.get("winner") is not None:
                    raise _Fault(where_t, "an unfinished trick has no winner yet")
        finished = len(winners) == k
        if not finished and not last:
            raise _Fault(where, f"only {len(winners)} of {k} tricks were played, and only the last hand may be unfinished")
        scores: list[int] | None = None
        if finished:
            scores = [
                R.hand_score(b, w, k, x, rules) for b, w, x in zip(bids, won, bonus)
            ]
            given = hand.get("scores")
            if given is not None:
                if not isinstance(given, list) or len(given) != n:
                    raise _Fault(where, f'"scores" must hold a score for each of the {n} seats')
                for s in range(n):
                    if given[s] != scores[s]:
                        raise _Fault(
                            where,
                            f"{who(s)} scores {scores[s]} (bid {bids[s]}, won {won[s]}"
                            + (f", bonus {bonus[s]}" if bonus[s] and bids[s] == won[s] and bids[s] and not rules.landlubber else "")
                            + f"), not {json.dumps(given[s])}",
                        )
            for s in range(n):
                totals[s] += scores[s]
        elif hand.get("scores") is not None:
            raise _Fault(where, "an unfinished hand has no scores yet")
        out.append(_Hand(winners, finished, scores))

    given_totals = rec.get("totals")
    if given_totals is not None:
        if not isinstance(given_totals, list) or len(given_totals) != n:
            raise _Fault("totals", f"must hold a total for each of the {n} seats")
        for s in range(n):
            if given_totals[s] != totals[s]:
                raise _Fault("totals", f"{who(s)} has {totals[s]} in all, not {json.dumps(given_totals[s])}")
    return rules, out, totals


def _is_seat(value: object, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


# --- derived fields and summaries ------------------------------------------------------------


def fill(record: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a valid record with every derived field written (ValueError if invalid)."""
    try:
        rules, hands, totals = _walk(record)
    except _Fault as fault:
        raise ValueError(str(fault)) from None
    out = json.loads(json.dumps(record))
    out["rules"] = rules.to_dict()
    for hand, info in zip(out["hands"], hands):
        hand.setdefault("bids", [None] * len(out["seats"]))
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
        _rules, hands, _totals = _walk(record)
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
        rows.append(HandSummary(k, list(hand.get("bids", [None] * n)), won, info.scores, list(running)))
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
            hand["scores"] = list(h.scores)  # type: ignore[arg-type]
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
    fault = check(record)
    if fault is not None:
        raise ValueError(fault)
    hands = record["hands"]
    for k, hand in enumerate(hands, start=1):
        if any(d is None for row in hand["dice"] for d in row):
            raise ValueError(
                f"hand {k}: some dice are hidden (null); only the host's full record can be resumed"
            )
    names = [s["name"] for s in record["seats"]]
    first = hands[0]["start"] if hands else 0
    game = Game(len(names), names=names, rules=Rules.from_dict(record.get("rules")),
                chance=EXTERNAL, first_start=first)
    for hand in hands:
        game.apply(Deal(tuple(tuple(Die(d) for d in row) for row in hand["dice"])))
        for s, b in enumerate(hand.get("bids", [])):
            if b is not None:
                game.apply(Bid(s, b))
        for trick in hand.get("tricks", []):
            for roll in trick["rolls"]:
                game.apply(Roll(roll["seat"], Die(roll["die"])))
                game.apply(Land(Face(roll["face"])))
    game.set_chance(chance, seed=seed)
    return game
