"""The score sheet and the trick referee over HTTP (`/api/sheet/...`, `/api/trick`), for `sheet.html`.

The server keeps no state here: the page sends the whole sheet every time and
`ScoreSheet.from_dict` checks it again, so scoring and validation live only in
`minodice.table.sheet` and `minodice.table.referee`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import Field

from ..dice import Die
from ..rules import Rules, lead_colour
from ..table.referee import Verdict, parse_held, parse_roll, referee
from ..table.sheet import FORMAT, ScoreSheet, SheetError
from ..table.sheet_record import record_from_sheet
from .protocol import Strict
from .tables import Refused

#: Size limits: generous enough for every message the sheet or referee words itself,
#: small enough that no body is expensive.
MAX_PLAYERS = 12
MAX_HANDS = 16
MAX_ROLLS = 12
NAME_LEN = 40
HELD_LEN = 200


class ClearErrors(APIRoute):
    """A route whose malformed bodies come back as 422 `{"detail": {"code": "bad_request", "message"}}`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                raise Refused("bad_request", _describe(exc), 422) from None

        return handle


def _describe(exc: RequestValidationError) -> str:
    """`field: problem; ...` for a body pydantic refused."""
    parts = []
    for err in list(exc.errors())[:4]:
        loc = ".".join(str(x) for x in err["loc"] if x != "body") or "body"
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts) or "the request body is not valid"


router = APIRouter(prefix="/api", route_class=ClearErrors, tags=["score sheet"])

Count = Annotated[int, Field(ge=-99, le=99, strict=True)]
Name = Annotated[str, Field(max_length=NAME_LEN)]


# --- bodies -----------------------------------------------------------------------------------


class Line(Strict):
    """One player's line of one hand, as `Entry.to_dict()` writes it."""

    bid: Count
    won: Count
    mermaid: bool = Field(False, strict=True)
    griffins: Count = 0


class SheetBody(Strict):
    """A whole score sheet, as `ScoreSheet.to_dict()` writes it."""

    format: str = Field(FORMAT, max_length=40)
    players: list[Name] = Field(max_length=MAX_PLAYERS)
    scoring: str = Field("standard", max_length=20)
    hands: list[Annotated[list[Line], Field(max_length=MAX_PLAYERS)]] = Field(
        default_factory=list, max_length=MAX_HANDS
    )


class TrickRules(Strict):
    """The house rules a trick is judged by (RULES.md defaults when left out)."""

    all_specials: str = Field("mermaid", max_length=20)
    all_flags: str = Field("first", max_length=20)


class TrickBody(Strict):
    """`POST /api/trick`: rolls in rolling order, optional names, held dice (by roll number) and rules."""

    rolls: list[Annotated[str, Field(max_length=24)]] = Field(max_length=MAX_ROLLS)
    names: list[Name] | None = Field(None, max_length=MAX_ROLLS)
    held: dict[Annotated[str, Field(max_length=3)], Annotated[str, Field(max_length=HELD_LEN)]] | None = (
        Field(None, max_length=MAX_ROLLS)
    )
    rules: TrickRules | None = None


# --- score sheet ------------------------------------------------------------------------------


def load_sheet(body: SheetBody) -> ScoreSheet:
    """The sheet of a request body, every hand checked; refused as 400 `bad_sheet` with the sheet's words."""
    try:
        return ScoreSheet.from_dict(body.model_dump())
    except SheetError as exc:
        raise Refused("bad_sheet", str(exc), 400) from None


def sheet_report(sheet: ScoreSheet) -> dict[str, Any]:
    """Everything the page shows of a sheet: the sheet itself, hand scores, running totals, leaders, places."""
    entered = len(sheet.hands)
    return {
        "sheet": sheet.to_dict(),
        "hand_count": sheet.hand_count,
        "hand_scores": [sheet.hand_scores(h) for h in range(1, entered + 1)],
        # Bonuses claimed (an accepted sheet holds them only where they count).
        "bonuses": [[entry.bonus for entry in hand] for hand in sheet.hands],
        "running_totals": sheet.running_totals(),
        "totals": sheet.totals(),
        "leaders": sheet.leaders() if entered else [],
        "places": sheet.places() if sheet.finished else None,
        "finished": sheet.finished,
        "next_hand": None if sheet.finished else {"number": entered + 1, "dice": sheet.dice(entered + 1)},
    }


@router.post("/sheet/check", summary="Check a score sheet and score it")
async def check_sheet(body: SheetBody) -> dict[str, Any]:
    """The sheet scored (see `sheet_report`), or 400 `bad_sheet` saying what cannot have happened."""
    return sheet_report(load_sheet(body))


@router.post("/sheet/csv", summary="A score sheet as a CSV download")
async def sheet_csv(body: SheetBody) -> Response:
    """`ScoreSheet.to_csv()` of the checked sheet, as an attachment."""
    return Response(
        load_sheet(body).to_csv(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="minodice-sheet.csv"'},
    )


class RollIn(Strict):
    """One roll of a trick entered with the referee: who rolled, and `die:face` (or a special die's name)."""

    player: Name
    roll: str = Field(max_length=24)


class RecordBody(Strict):
    """`POST /api/sheet/record`: a sheet and every trick of each of its hands, roll by roll."""

    sheet: SheetBody
    tricks: list[Annotated[list[Annotated[list[RollIn], Field(max_length=MAX_ROLLS)]], Field(max_length=16)]] = (
        Field(max_length=16)
    )
    hand_start: str = Field("rotate", max_length=20)


@router.post("/sheet/record", summary="The minodice/1 record of a sheet whose tricks were all entered")
async def sheet_record(body: RecordBody) -> Response:
    """Replays the entered tricks through the engine; 400 `bad_sheet` if they cannot fit the sheet."""
    sheet = load_sheet(body.sheet)
    try:
        tricks = [[[(r.player, *parse_roll(r.roll)) for r in trick] for trick in hand] for hand in body.tricks]
        rec = record_from_sheet(sheet, tricks, hand_start=body.hand_start)
    except (SheetError, ValueError) as exc:
        raise Refused("bad_sheet", str(exc), 400) from None
    return Response(
        json.dumps(rec, ensure_ascii=False), media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="minodice-sheet-record.json"'},
    )


# --- trick referee ----------------------------------------------------------------------------


def _held(held: dict[str, str], rolls: int) -> dict[int, list[Die]]:
    """Held dice keyed by roll number from 1 → keyed by index from 0, each parsed."""
    out = {}
    for key, text in held.items():
        if not key.isdigit():
            raise ValueError(f"held dice are given by roll number (1 to {rolls}), not {key!r}")
        out[int(key) - 1] = parse_held(text)
    return out


def judge(body: TrickBody) -> tuple[Verdict, list[dict[str, Any]]]:
    """The referee's verdict on the trick of `body`, and each colour-rule foul: roll (from 0), die, lead."""
    rolls = [parse_roll(text) for text in body.rolls]
    rules = Rules(**(body.rules or TrickRules()).model_dump())
    names = [name.strip() for name in body.names] if body.names else None
    if names and not all(names):
        raise ValueError("every roll needs a roller's name (or leave the names out)")
    held = _held(body.held or {}, len(rolls))
    verdict = referee(rolls, rules, held=held, names=names)
    fouls = [
        {"roll": i, "die": rolls[i][0].value, "lead": getattr(lead_colour([d for d, _ in rolls[:i]]), "value", None)}
        for i in sorted(held)
        if referee(rolls, rules, held={i: held[i]}, names=names).fouls
    ]
    return verdict, fouls


@router.post("/trick", summary="Who won a trick rolled with real dice")
async def trick(body: TrickBody) -> dict[str, Any]:
    """Winner (index in rolling order, from 0) and why, the bonus, the lead colour, any colour-rule fouls."""
    try:
        verdict, foul_rolls = judge(body)
    except ValueError as exc:  # RuleError is a ValueError too
        raise Refused("bad_trick", str(exc), 400) from None
    return {
        "winner": verdict.winner,
        "winner_name": verdict.names[verdict.winner],
        "why": verdict.why,
        "bonus": verdict.bonus,
        "bonus_why": verdict.bonus_why,
        "lead": verdict.lead.value if verdict.lead else None,
        "fouls": list(verdict.fouls),
        "foul_rolls": foul_rolls,
        "rolls": [{"die": die.value, "face": face.value} for die, face in verdict.rolls],
        "names": list(verdict.names),
        "summary": verdict.summary(),
    }


__all__ = ["ClearErrors", "RecordBody", "SheetBody", "TrickBody", "judge", "load_sheet", "router", "sheet_report"]
