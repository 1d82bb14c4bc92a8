"""The lobby's JSON HTTP API (`/api/...`): create, find, join, start, bots, rematch, records.

Routes are thin: they validate the body (pydantic), find the table, check the
token, and let the table or the manager do the work.
"""

from __future__ import annotations

import json
from concurrent.futures.process import BrokenProcessPool
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .. import record as records
from ..bots import BUILTIN
from ..bots.levels import LEVELS
from ..codes import printable
from ..dice import BAG_COUNTS, MAX_SEATS, MIN_SEATS, Die, Face
from ..rules import RULE_OPTIONS, places
from . import chat
from . import protocol as P
from .clocks import CLOCKS, find_clock
from .hints import hint_kind
from .manager import TableManager
from .tables import Refused, Table, bot_name, check_bot
from .tutorial import router as tutorial_router

router = APIRouter(prefix="/api")
router.include_router(tutorial_router)  # POST /api/tutorial, GET /api/rules (tutorial.py)


def manager(request: Request) -> TableManager:
    """The app's table manager."""
    return request.app.state.manager


Manager = Annotated[TableManager, Depends(manager)]
#: A seat in a path (`/seats/{seat}/...`): 0 to 5 (a table's own number of seats is checked by the table).
Seat = Annotated[int, Path(ge=0, lt=MAX_SEATS, description="the seat, from 0")]
#: The furthest `/api/games?offset=` goes (a database's integers stop at 2^63; nobody pages that far).
OFFSET_MAX = 10**9


def bearer(authorization: str | None, request: Request, cookie: str) -> str | None:
    """The token of a request: `Authorization: Bearer ...`, else the named cookie."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return request.cookies.get(cookie) or None


async def _table(m: TableManager, code: str) -> Table:
    return await m.get(code)


def _require_host(table: Table, request: Request, authorization: str | None) -> None:
    token = bearer(authorization, request, f"mdh_{table.code}")
    if not table.is_host(token):
        seat_token = request.cookies.get(f"md_{table.code}")
        if authorization is None and table.is_host(seat_token):
            return
        raise Refused("not_host", status=403)


@router.get("/options", summary="What a table can be created with, and the dice it is played with")
async def options(request: Request) -> dict[str, Any]:
    s = request.app.state.manager.settings
    return {
        "seats": {"min": MIN_SEATS, "max": MAX_SEATS},
        "rules": {k: {"values": list(v), "default": v[0], "help": h} for k, (v, h) in RULE_OPTIONS.items()},
        "bots": [{"name": n, "help": BUILTIN.info(n).help} for n in BUILTIN.honest()],
        "levels": [{"name": lv.name, "bot": str(lv.spec), "help": lv.description} for lv in LEVELS],
        "dice": dice_table(),
        "faces": [f.value for f in Face],
        "turn_timeout": s.turn_timeout,
        "bot_delay": s.bot_delay,
        "trick_pause": s.trick_pause,
        "hand_pause": s.hand_pause,
        "clocks": [{"speed": name, "move": c.move if c else None, "bank": c.bank if c else None}
                   for name in CLOCKS for c in [find_clock(name, s.clock_scale)]],
        "chat": {"reactions": [{"reaction": r, "name": n} for r, n in chat.REACTIONS.items()],
                 "max_length": chat.TEXT_MAX},
        "name": {"max_length": P.NAME_MAX},
    }


def dice_table() -> list[dict[str, Any]]:
    """The dice table (`minodice.dice`) in table order: each die's faces, whether it is special, how many the bag holds."""
    return [
        {"die": d.value, "faces": [f.value for f in d.faces], "special": d.special, "bag": BAG_COUNTS[d]}
        for d in Die
    ]


@router.post("/tables", status_code=201, summary="Create a table")
async def create_table(body: P.CreateTable, m: Manager) -> dict[str, Any]:
    table, host, seat, token = await m.create(body.seats, body.bots, body.rules, body.name, body.hints, body.clock,
                                              body.level)
    return {"table": table.info(), "host_token": host, "seat": seat, "token": token}


@router.get("/tables/{code}", summary="A table by its code")
async def get_table(code: str, m: Manager) -> dict[str, Any]:
    return (await _table(m, code)).info()


@router.post("/tables/{code}/join", summary="Take a seat: returns your secret seat token")
async def join_table(code: str, body: P.JoinTable, m: Manager) -> dict[str, Any]:
    table = await _table(m, code)
    if table.status == "expired":
        raise Refused("expired", status=409)
    seat, token = await table.join(body.name, body.seat)
    return {"table": table.info(), "seat": seat, "token": token}


@router.post("/tables/{code}/start", summary="Start the game (host)")
async def start_table(
    code: str, request: Request, m: Manager, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    table = await _table(m, code)
    _require_host(table, request, authorization)
    await table.start()
    await m.started(table)
    return table.info()


@router.post("/tables/{code}/seats/{seat}/bot", summary="Hand a seat to a bot (host)")
async def seat_bot(
    code: str, seat: Seat, body: P.SeatBot, request: Request, m: Manager,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    table = await _table(m, code)
    _require_host(table, request, authorization)
    await table.seat_to_bot(seat, None if body.bot is None else check_bot(body.bot))
    return table.info()


@router.post("/tables/{code}/seats/{seat}/reclaim", summary="Take back your seat from the bot playing it")
async def seat_reclaim(
    code: str, seat: Seat, request: Request, m: Manager, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    table = await _table(m, code)
    token = bearer(authorization, request, f"md_{table.code}")
    if table.seat_of(token) != seat:
        raise Refused("not_your_seat", "only the person of this seat may take it back", 403)
    await table.reclaim(seat)
    return table.info()


@router.post("/tables/{code}/seats/{seat}/mute", summary="Mute or unmute a player's chat (host)")
async def seat_mute(
    code: str, seat: Seat, body: P.SeatMute, request: Request, m: Manager,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    table = await _table(m, code)
    _require_host(table, request, authorization)
    try:
        await chat.set_muted(table, seat, body.muted)
    except chat.ChatRefused as exc:
        raise Refused(exc.code, exc.message, exc.status, **exc.params) from None
    return table.info()


@router.post("/tables/{code}/rematch", summary="Ready for a rematch with the same seats")
async def rematch(
    code: str, request: Request, m: Manager, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The requester's seat is ready to play again: the rematch table is made (once), and starts when each
    person of this table has said so or left it."""
    table = await _table(m, code)
    token = bearer(authorization, request, f"md_{table.code}")
    seat = table.seat_of(token)
    if seat is None:
        if not table.is_host(token):
            raise Refused("not_seated", "only the players of this table may ask for a rematch", 403)
        seat = table.host_seat
    new = await m.rematch(table, seat)
    return {"table": new.info()}


@router.get("/games", summary="Finished games, newest first")
async def games(
    m: Manager, limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=OFFSET_MAX)] = 0,
) -> dict[str, Any]:
    out = []
    for t in await m.finished(limit, offset):
        totals = t.totals or [0] * t.seats
        out.append({
            "code": t.code,
            "finished": t.finished.strftime("%Y-%m-%dT%H:%M:%SZ") if t.finished else None,
            "names": [p.name for p in t.players],
            # A bot's spec per seat (null: a person), and whether its name is the one the server gave it
            # ("Greedy 3"), which a page says in its reader's language as the game does.
            "bots": [p.bot if p.kind == "bot" else None for p in t.players],
            "auto_names": [p.kind == "bot" and p.bot is not None and p.name == bot_name(p.bot, p.seat)
                           for p in t.players],
            "totals": totals,
            "places": list(places(totals)),
        })
    return {"games": out}


def _seat_info(table: Table) -> list[dict[str, Any]]:
    """What a record says of each seat besides its name: a bot's spec, and `auto_name` when the name
    is the one the server gave the bot ("Greedy 3"), which a page may say in its reader's language."""
    return [{"bot": p.bot, "auto_name": p.name == bot_name(p.bot, p.seat)} if p.kind == "bot" and p.bot else {}
            for p in table.players]


@router.get("/tables/{code}/record", summary="The game record (in progress: your own seat's)")
async def get_record(
    code: str, request: Request, m: Manager, authorization: Annotated[str | None, Header()] = None
) -> Response:
    table = await _table(m, code)
    async with table.lock:
        await table.all_saved.wait()  # no action in a record before it is committed
        game = table.game
        if game is None:
            raise Refused("not_started", status=409)
        info = _seat_info(table)
        if table.status == "over":
            rec = records.from_game(game, seat_info=info)
        else:
            seat = table.seat_of(bearer(authorization, request, f"md_{table.code}"))
            if seat is None:
                raise Refused(
                    "not_seated", "a game in progress downloads only as your own seat's record: send your token", 403
                )
            rec = records.from_game(game, seat=seat, seat_info=info)
    return Response(
        json.dumps(rec, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="minodice-{table.code}.json"'},
    )


@router.get("/tables/{code}/analysis", summary="A finished game reviewed: every decision judged (minodice-analysis/1)")
async def get_analysis(code: str, m: Manager) -> dict[str, Any]:
    """Every decision of every seat of a finished game against a search bot (docs/analysis-format.md).
    Takes seconds the first time (one game at a time); 409 `not_over` while the game is on."""
    table = await _table(m, code)
    async with table.lock:
        await table.all_saved.wait()
        game = table.game
        if game is None or table.status != "over":
            raise Refused("not_over", "a game is reviewed only once it is over", 409)
        rec = records.from_game(game, seat_info=_seat_info(table))
    return {**await m.reviews.of(table.code, rec), "judge": m.reviews.judge()}


@router.get("/tables/{code}/hint", summary="Advice on your own bid or roll (if the table allows hints)")
async def hint(
    code: str, request: Request, m: Manager, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """While you bid: every bid's expected score for your dice (`"kind": "bid"`). When it is your turn to
    roll: the expected score of the hand for each die you may roll (`"kind": "roll"`). Asked again for
    the same position, the same answer."""
    table = await _table(m, code)
    async with table.lock:
        if not table.hints:
            raise Refused("no_hints", status=403)
        seat = table.seat_of(bearer(authorization, request, f"md_{table.code}"))
        if seat is None:
            raise Refused("not_seated", "hints are for a seated player: send your token", 403)
        game = table.game
        if game is None or table.status != "playing":
            raise Refused("not_playing", status=409)
        view = game.observe(seat)
        if hint_kind(view) is None:
            raise Refused("no_decision", status=409)
    return await m.hints.of(table.code, view)


#: The most an error reply repeats of a request: characters of a message, of a text parameter or
#: of a refused field's input, and errors listed (a 60 MB body must not come back as a 60 MB reply).
MESSAGE_SHOWN = 1000
PARAM_SHOWN = 200
INPUT_SHOWN = 40
ERRORS_SHOWN = 8


def excerpt(value: object, limit: int = INPUT_SHOWN) -> str:
    """`value` as text safe to show (`codes.printable`), at most `limit` characters (cut with "…")."""
    text = value if isinstance(value, str) else str(value)
    return printable(text if len(text) <= limit else text[: limit - 1] + "…")


def _shown(value: Any) -> Any:
    """A refusal's parameter as sent: numbers as they are, text (and lists of it) cut to an excerpt."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, list):
        return [_shown(v) for v in value[:20]]
    return excerpt(value, PARAM_SHOWN)


def refused_handler(_request: Request, exc: Exception) -> JSONResponse:
    """Refused → `{"detail": {"code", "message", "params"}}` with its HTTP status (text cut to excerpts)."""
    assert isinstance(exc, Refused)
    params = {k: _shown(v) for k, v in exc.params.items()}
    return JSONResponse(
        {"detail": P.http_error(exc.code, excerpt(exc.message, MESSAGE_SHOWN), **params)}, status_code=exc.status
    )


def worker_failed_handler(request: Request, exc: Exception) -> JSONResponse:
    """A worker process (a hint's, a review's) that died twice → 503 `worker_failed`, in words; nothing
    failed is kept, so asking again works it out anew."""
    assert isinstance(exc, BrokenProcessPool)
    return refused_handler(request, Refused("worker_failed", status=503))


def validation_handler(request: Request, exc: Exception) -> JSONResponse:
    """A body, path or query the schema refused → 422. A refused name (`protocol.BadName`) is
    `{"detail": {"code", "message", "params"}}` like every refusal, and so is a seat in the path that is not
    0 to 5 (400 `bad_seat`, as for a seat the table does not have); anything else is FastAPI's list of
    `{"type", "loc", "msg", "input"}`, at most 8 of them, each input a short excerpt (left out when not text or
    a number), never the whole body."""
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    for err in errors:
        bad = (err.get("ctx") or {}).get("error")
        if isinstance(bad, P.BadName):
            return JSONResponse({"detail": P.http_error(bad.code, bad.message, **bad.params)}, status_code=422)
    if any(tuple(err.get("loc", ()))[:2] == ("path", "seat") for err in errors):
        return refused_handler(request, Refused("bad_seat", status=400))
    return JSONResponse({"detail": [_short_error(err) for err in errors[:ERRORS_SHOWN]]}, status_code=422)


def _short_error(err: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": excerpt(err.get("type", ""), INPUT_SHOWN),
        "loc": [part if isinstance(part, int) else excerpt(part) for part in err.get("loc", ())],
        "msg": excerpt(err.get("msg", ""), PARAM_SHOWN),
    }
    value = err.get("input")
    if isinstance(value, bool):
        out["input"] = value
    elif isinstance(value, (str, int, float)):
        out["input"] = excerpt(value)
    return out
