"""The score sheet and the trick referee over HTTP (`/api/sheet/...`, `/api/trick`), for `sheet.html`.

The server keeps no state here: the page sends the whole sheet every time and
`ScoreSheet.from_dict` checks it again, so scoring and validation live only in
`minodice.table.sheet` and `minodice.table.referee`. Refusals are 400
`{"detail": {"code", "message", "params"}}` with the sheet's or the referee's own
code (`codes.SHEET_REFUSALS`, or an engine code from a replay); the trick's
reasons are `{"code", "params"}` values, so the page translates them all.
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
from ..table.referee import RefereeError, Verdict, parse_held, parse_roll, referee
from ..table.refusal import Refusal, rules_or_refusal
from ..table.sheet import FORMAT, ScoreSheet, SheetError
from ..table.sheet_record import record_from_sheet
from .api import INPUT_SHOWN, PARAM_SHOWN, excerpt
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
        loc = ".".join(excerpt(x, INPUT_SHOWN) for x in err["loc"] if x != "body") or "body"
        msg = "unknown field" if err["type"] == "extra_forbidden" else excerpt(err["msg"], PARAM_SHOWN)
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
    """The house rules a trick is judged by (the defaults of docs/rules.md when left out)."""

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


def refused(exc: Refusal) -> Refused:
    """A sheet's or referee's refusal as the HTTP 400 the page translates: its code, English words and params."""
    return Refused(exc.code, exc.message, 400, **exc.params)


def load_sheet(body: SheetBody) -> ScoreSheet:
    """The sheet of a request body, every hand checked; a refusal is 400 with the sheet's code and params."""
    try:
        return ScoreSheet.from_dict(body.model_dump())
    except SheetError as exc:
        raise refused(exc) from None


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
    """The sheet scored (see `sheet_report`), or 400 with the code of what cannot have happened."""
    return sheet_report(load_sheet(body))


#: What makes a spreadsheet read a cell as a formula (OWASP's "CSV injection"), with the full-width forms.
@router.post("/sheet/csv", summary="A score sheet as a CSV download")
async def sheet_csv(body: SheetBody) -> Response:
    """`ScoreSheet.to_csv()` of the checked sheet (its cells `formula_safe`), as an attachment."""
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
    """Replays the entered tricks through the engine; 400 with the refusal's code if they cannot fit the sheet."""
    sheet = load_sheet(body.sheet)
    try:
        tricks = [[[(r.player, *parse_roll(r.roll)) for r in trick] for trick in hand] for hand in body.tricks]
        rules_or_refusal(SheetError, hand_start=body.hand_start)
        rec = record_from_sheet(sheet, tricks, hand_start=body.hand_start)
    except Refusal as exc:
        raise refused(exc) from None
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
            raise RefereeError("held_by_number", {"rolls": rolls, "key": key})
        out[int(key) - 1] = parse_held(text)
    return out


def judge(body: TrickBody) -> Verdict:
    """The referee's verdict on the trick of `body` (fouls included), or a RefereeError."""
    rolls = [parse_roll(text) for text in body.rolls]
    rules = rules_or_refusal(RefereeError, **(body.rules or TrickRules()).model_dump())
    names = [name.strip() for name in body.names] if body.names else None
    if names and not all(names):
        raise RefereeError("roller_needs_name")
    return referee(rolls, rules, held=_held(body.held or {}, len(rolls)), names=names)


@router.post("/trick", summary="Who won a trick rolled with real dice")
async def trick(body: TrickBody) -> dict[str, Any]:
    """`Verdict.to_dict()`: winner (from 0), reason and bonus_reason ({code, params}), bonus, lead, fouls
    ([{roll, die, lead, reason}]), rolls, names and an English summary; 400 with the referee's code if refused."""
    try:
        return judge(body).to_dict()
    except RefereeError as exc:
        raise refused(exc) from None


__all__ = [
    "ClearErrors", "RecordBody", "SheetBody", "TrickBody", "judge", "load_sheet",
    "refused", "router", "sheet_report",
]
