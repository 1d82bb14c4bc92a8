"""The HTTP side of the server audit (issue 14), against a real `minodice serve` on 127.0.0.1 (SQLite file):
numbers in paths and queries, the size of request bodies and of error replies, players' names, and the
score sheet's CSV download.
"""

from __future__ import annotations

import csv
import io
import json
import re
import socket
import unicodedata
from typing import Any

import httpx
import pytest

from minodice.table.sheet import FORMAT, formula_safe
from test_server_common import ServerProcess, server_fixtures
from test_sheet_record import _played, _sheet_and_tricks

server, http = server_fixtures("audit_http")

#: The most bytes an error reply may take here (the server's longest refusal is a few hundred).
SMALL = 2000


def detail(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The refusal `{"code", "message", "params"}` of a reply, once its status and code are checked."""
    assert r.status_code == status, r.text[:500]
    got = r.json()["detail"]
    assert isinstance(got, dict) and got["code"] == code, got
    return got


def host_table(http: httpx.Client, bots: list[str | None], name: str | None = "Ana") -> dict[str, Any]:
    body: dict[str, Any] = {"seats": len(bots), "bots": bots}
    if name is not None:
        body["name"] = name
    r = http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


# --- 1. numbers in paths and queries ------------------------------------------------------------

#: Numbers no parameter takes: past any database integer, negative, not a number at all.
OUT_OF_RANGE = ["99999999999999999999999", "-99999999999999999999999", "9223372036854775808", "-1", "9" * 5000]
NOT_NUMBERS = ["abc", "1e309", "NaN", "1.5", "0x10", ""]
#: And what may or may not read as a number (a full-width 1, a space and 1).
ODD_NUMBERS = ["%EF%BC%91", "%201"]
#: A body for each route whose path or query holds a number and that takes one (a new such route needs one).
BODIES: dict[str, dict[str, Any]] = {
    "/api/tables/{code}/seats/{seat}/bot": {"bot": "greedy"},
    "/api/tables/{code}/seats/{seat}/mute": {"muted": True},
}


def _numeric_routes(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], list[str]]]:
    """(method, path, operation, names of its integer path and query parameters), from the OpenAPI schema."""
    out = []
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            numbers = [p["name"] for p in op.get("parameters", []) if _is_integer(p.get("schema", {}))]
            if numbers:
                out.append((method, path, op, numbers))
    return out


def _is_integer(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "integer" or any(s.get("type") == "integer" for s in schema.get("anyOf", []))


def test_every_number_of_the_api_has_a_range(http: httpx.Client) -> None:
    """Each integer parameter and each integer field of a body declares its least and greatest value."""
    schema = http.get("/openapi.json").json()
    unbounded = []
    for method, path, op, _numbers in _numeric_routes(schema):
        for p in op["parameters"]:
            s = p["schema"]
            if _is_integer(s) and not ("minimum" in s and ("maximum" in s or "exclusiveMaximum" in s)):
                unbounded.append(f"{method.upper()} {path} {p['name']}")
    for name, model in schema["components"]["schemas"].items():
        for field, s in model.get("properties", {}).items():
            for option in [s, *s.get("anyOf", [])]:
                if option.get("type") == "integer" and not (
                    "minimum" in option and ("maximum" in option or "exclusiveMaximum" in option)
                ):
                    unbounded.append(f"{name}.{field}")
    assert not unbounded, f"integers without a range: {unbounded}"
    assert {path for _m, path, _o, _n in _numeric_routes(schema)} >= {"/api/games", *BODIES}


def test_no_number_in_a_path_or_query_is_a_server_error(http: httpx.Client, server: ServerProcess) -> None:
    """Every route with a number in its path or query (found in the OpenAPI schema, so a new route is
    tried too), with huge, negative and non-numbers in each: a 400 or 422 in words, small, never a 500."""
    made = host_table(http, [None, None, "greedy", None])
    code, auth = made["table"]["code"], {"Authorization": f"Bearer {made['host_token']}"}
    tried = 0
    with httpx.Client(base_url=server.base, timeout=30, headers={"Connection": "close"}) as fresh:
        for method, path, op, numbers in _numeric_routes(http.get("/openapi.json").json()):
            body = BODIES.get(path) if "requestBody" in op else None
            assert body is not None or "requestBody" not in op, f"add a body for {path} to BODIES"
            for name in numbers:
                in_path = "{" + name + "}" in path
                for bad in OUT_OF_RANGE + NOT_NUMBERS + ODD_NUMBERS:
                    if in_path and not bad:
                        continue  # an empty path segment is another route
                    values = {"code": code, "seat": "1", name: bad}
                    url = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)  # noqa: B023
                    query = "" if in_path else f"?{name}={bad}"
                    r = fresh.request(method.upper(), url + query, json=body, headers=auth)
                    tried += 1
                    where = (method, url[:80], query[:40], r.status_code, r.text[:300])
                    assert r.status_code < 500 and len(r.content) < SMALL, where
                    if bad not in ODD_NUMBERS:
                        assert r.status_code in (400, 422), where
                        assert not in_path or name != "seat" or r.json()["detail"]["code"] == "bad_seat", where
    assert tried >= 4 * len(OUT_OF_RANGE + NOT_NUMBERS)


def test_games_pages_to_a_billion_and_no_further(http: httpx.Client) -> None:
    assert http.get("/api/games", params={"offset": 10**9}).json() == {"games": []}
    r = http.get("/api/games", params={"offset": 10**9 + 1})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "offset"]
    assert http.get("/api/games", params={"limit": 200}).status_code == 200
    assert http.get("/api/games", params={"limit": 201}).status_code == 422


def test_seats_in_paths_are_0_to_5_and_the_tables_own(http: httpx.Client) -> None:
    made = host_table(http, [None, None, None])
    code, auth = made["table"]["code"], {"Authorization": f"Bearer {made['host_token']}"}
    for seat in (3, 5, 6, -1, 10**30):  # a seat the table has not, or no table could have
        detail(http.post(f"/api/tables/{code}/seats/{seat}/bot", json={"bot": "greedy"}, headers=auth), 400, "bad_seat")
    assert http.post(f"/api/tables/{code}/seats/2/bot", json={"bot": "greedy"}, headers=auth).status_code == 200


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"seats": 10**30}),
        ("/api/tables", {"seats": -(10**30)}),
        ("/api/tables", {"seats": 1e308}),
        ("/api/tables", {"seats": "4" * 4000}),
        ("/api/sheet/check", {"format": FORMAT, "players": ["A", "B", "C"], "hands": [[{"bid": 10**30, "won": 1}] * 3]}),
        ("/api/sheet/check", {"format": FORMAT, "players": ["A", "B", "C"], "hands": [[{"bid": -1e308, "won": 1}] * 3]}),
    ],
)
def test_numbers_in_bodies_out_of_range_are_422(http: httpx.Client, path: str, body: dict[str, Any]) -> None:
    r = http.post(path, json=body)
    assert r.status_code == 422 and len(r.content) < SMALL, r.text[:300]


def test_numbers_in_a_join_body(http: httpx.Client) -> None:
    code = host_table(http, [None, None, None])["table"]["code"]
    for seat in (10**30, -1, 6, "x" * 1000, 1.5):
        r = http.post(f"/api/tables/{code}/join", json={"name": "Bo", "seat": seat})
        assert r.status_code == 422 and len(r.content) < SMALL, r.text[:300]


# --- 2. the size of bodies and of error replies ------------------------------------------------------------


def _raw(server: ServerProcess, head: bytes, body: bytes = b"", timeout: float = 15) -> bytes:
    """Send `head` (and `body`) on a plain socket and read the reply until the server closes or 15 s pass.
    A server that waited for the rest of the body would answer nothing."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as s:
        s.sendall(head + body)
        reply = b""
        try:
            while chunk := s.recv(65536):
                reply += chunk
                if b"\r\n\r\n" in reply and b'"too_large"' in reply:
                    break
        except (TimeoutError, ConnectionResetError):
            pass
    return reply


def _too_large(reply: bytes, limit: int) -> None:
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), reply[:300]
    got = json.loads(body)["detail"]
    assert got["code"] == "too_large" and got["params"] == {"limit": limit}, got


def test_a_5_mb_body_is_413_at_once_with_a_small_reply(http: httpx.Client, server: ServerProcess) -> None:
    big = b'{"seats": 4, "name": "' + b"x" * 5_000_000 + b'"}'
    r = http.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and len(r.content) < 300, (r.status_code, len(r.content))
    assert detail(r, 413, "too_large")["params"] == {"limit": 64 * 1024}
    # Refused from its Content-Length alone: the body is never sent, the 413 comes anyway.
    head = (b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 5000000\r\n\r\n")
    _too_large(_raw(server, head), 64 * 1024)
    # A length of 5,000 digits (past what int() takes by default) is refused, not a server error.
    huge = _raw(server, head.replace(b"5000000", b"9" * 5000))
    assert huge.startswith((b"HTTP/1.1 413", b"HTTP/1.1 400")) or huge == b"", huge[:200]
    # Every route, the static files too.
    for path in (b"/api/tables/ABCDEF/join", b"/api/options", b"/index.html"):
        _too_large(_raw(server, head.replace(b"/api/tables", path, 1)), 64 * 1024)
    assert http.get("/healthz").status_code == 200


def test_a_chunked_body_without_a_length_is_413_once_past_the_limit(http: httpx.Client, server: ServerProcess) -> None:
    head = (b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"x" * 16384
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6))  # 96 KiB, and no last chunk
    _too_large(_raw(server, head, b"4\r\n{\"a\"\r\n" + chunks), 64 * 1024)

    def stream() -> Any:
        yield b'{"seats": 4, "name": "'
        for _ in range(100):
            yield b"x" * 50_000

    r = http.post("/api/tables", content=stream(), headers={"Content-Type": "application/json"})
    assert detail(r, 413, "too_large") and len(r.content) < 300
    assert http.get("/healthz").status_code == 200


def test_a_body_a_little_past_the_limit_is_read_before_the_413(server: ServerProcess) -> None:
    """A body up to 1 MiB is read to its end before the reply, and the connection then closes cleanly:
    a proxy or browser still writing it gets the 413, not a reset (nginx answered 502 for it)."""
    body = b"{" + b" " * 70_000 + b"}"
    head = (b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body))
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as s:
        s.sendall(head + body[:1000])
        s.settimeout(0.5)
        with pytest.raises(TimeoutError):
            s.recv(65536)  # no answer while the body is still coming
        s.settimeout(15)
        s.sendall(body[1000:])
        reply = b""
        while chunk := s.recv(65536):  # to the server's close: a reset would raise here
            reply += chunk
    _too_large(reply, 64 * 1024)


def test_the_sheet_takes_its_largest_record_and_no_more(http: httpx.Client) -> None:
    """The largest body a real game makes (4 players, 8 hands, 40-letter names of 4-byte letters, sent
    ASCII-escaped and indented) goes through; a body 3 times the lobby's limit past it does not."""
    game = _played(4, 4)
    built, tricks = _sheet_and_tricks(game)
    body = built.to_dict()
    names = [chr(0x20000 + s) * 39 + str(s) for s in range(4)]  # CJK letters of 4 bytes
    rename = dict(zip(built.players, names, strict=True))
    body["players"] = names
    rolls = [[[{"player": rename[p], "roll": f"{d.value}:{f.value}"} for p, d, f in trick] for trick in hand]
             for hand in tricks]
    content = json.dumps({"sheet": body, "tricks": rolls, "hand_start": "rotate"}, indent=2).encode()
    assert 64 * 1024 < len(content) < 128 * 1024
    r = http.post("/api/sheet/record", content=content, headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text[:300]
    padded = content[:-1] + b" " * (256 * 1024) + b"}"
    detail(http.post("/api/sheet/record", content=padded, headers={"Content-Type": "application/json"}),
           413, "too_large")
    detail(http.post("/api/trick", content=b" " * (300 * 1024), headers={"Content-Type": "application/json"}),
           413, "too_large")


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"seats": 4, "rules": {"scoring": "y" * 60_000}}),
        ("/api/tables", {"seats": 4, "rules": {"y" * 60_000: "standard"}}),
        ("/api/tables", {"seats": 3, "bots": ["y" * 60_000, None, None]}),
        ("/api/tables", {"seats": "y" * 60_000}),
        ("/api/tables", {"seats": 4, "y" * 60_000: 1}),
        ("/api/tables", [{"seats": "x"}] * 4000),
        ("/api/tables", {"seats": 4, "name": ["y" * 1000] * 50}),
        ("/api/sheet/check", {"format": FORMAT, "players": ["y" * 200_000]}),
        ("/api/trick", {"rolls": ["red:5", "red:6"], "held": {"y" * 200_000: "red"}}),
        ("/api/trick", {"rolls": ["red:5", "y" * 200_000]}),
    ],
)
def test_a_refused_big_body_gets_a_small_reply(http: httpx.Client, path: str, body: Any) -> None:
    r = http.post(path, json=body)
    assert r.status_code in (400, 422), r.text[:300]
    assert len(r.content) < SMALL, (len(r.content), r.text[:300])
    assert "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy" not in r.text  # no more than a short excerpt


def test_a_422_is_fastapis_list_cut_short(http: httpx.Client) -> None:
    r = http.post("/api/tables", json={"seats": "many" + "y" * 1000, "hints": "maybe"})
    assert r.status_code == 422
    errors = r.json()["detail"]
    assert [e["loc"] for e in errors] == [["body", "seats"], ["body", "hints"]]
    assert errors[0]["input"] == "many" + "y" * 35 + "…" and errors[1]["input"] == "maybe"
    assert all(set(e) <= {"type", "loc", "msg", "input"} for e in errors)
    r = http.post("/api/sheet/check", json={"format": FORMAT, "players": [1] * 12})
    assert r.status_code == 422 and len(r.json()["detail"]["message"]) < 600


# --- 3. names ---------------------------------------------------------------------------------------------


def test_nobody_takes_a_bots_name(http: httpx.Client) -> None:
    """Bots are named "Greedy 2" (the web client says "Codicioso 2" in Spanish): no person is."""
    for name in ("Greedy 2", "greedy 2", "GREEDY  2", "Greedy ２", "Random 9", "Greedy 2 (2)", "Codicioso 2",
                 "Glouton 3", "Gierig 4", "Zufall 1", "ismcts 3", "Monte Carlo 2"):
        detail(http.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", None], "name": name}),
               422, "name_bot")
    code = host_table(http, [None, None, "greedy"])["table"]["code"]
    detail(http.post(f"/api/tables/{code}/join", json={"name": "Greedy 3"}), 422, "name_bot")
    # a bot's word alone, or with more, is a name like any other
    for name in ("Greedy", "Random Walk", "Greedy Gus 2"):
        assert http.post("/api/tables", json={"seats": 3, "name": name}).status_code == 201, name


def test_a_later_bot_is_not_named_like_a_person(http: httpx.Client) -> None:
    made = host_table(http, [None, None, None, None], name="Ana")
    code, auth = made["table"]["code"], {"Authorization": f"Bearer {made['host_token']}"}
    assert http.post(f"/api/tables/{code}/join", json={"name": "ANA"}).json()["table"]["players"][1]["name"] == "ANA (2)"
    r = http.post(f"/api/tables/{code}/join", json={"name": "Ana\u3164"})  # a trailing filler is a space
    assert r.json()["table"]["players"][2]["name"] == "Ana (3)"
    players = http.post(f"/api/tables/{code}/seats/3/bot", json={"bot": "greedy"}, headers=auth).json()["players"]
    names = [p["name"] for p in players]
    assert names[3] == "Greedy 4" and players[3]["auto_name"] is True
    assert len({n.casefold() for n in names}) == 4, names


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u3164\u3164\u3164", "\u2800", "\u2800 \u2800", "\u115f\u1160", "\uffa0", "\u034f", "   ",
     "\u0301", "\ufe0f", "\u3164\u0301"],
)
def test_invisible_names_are_refused(http: httpx.Client, name: str) -> None:
    detail(http.post("/api/tables", json={"seats": 3, "name": name}), 422, "name_empty")
    code = host_table(http, [None, None, None])["table"]["code"]
    detail(http.post(f"/api/tables/{code}/join", json={"name": name}), 422, "name_empty")


@pytest.mark.parametrize("name", ["\u200b", "Ana\u200b", "\u200d", "\u2060", "\ufeff", "A\u202eB", "\U000e0041", "\u00ad"])
def test_formatting_characters_are_refused(http: httpx.Client, name: str) -> None:
    detail(http.post("/api/tables", json={"seats": 3, "name": name}), 422, "name_control")


@pytest.mark.parametrize("name", ["Z\u0336\u0337\u0338\u0339algo", "e\u0301\u0302\u0303\u0304", "A" + "\u0489" * 30,
                                  "\u00e9\u0302\u0303\u0304"])
def test_stacked_marks_are_refused(http: httpx.Client, name: str) -> None:
    got = detail(http.post("/api/tables", json={"seats": 3, "name": name}), 422, "name_marks")
    assert got["params"] == {"limit": 3}


@pytest.mark.parametrize(
    ("name", "kept"),
    [("Ana", "Ana"), ("  Nguyễn   Văn ", "Nguyễn Văn"), ("Nguye\u0302\u0303n", "Nguyễn"), ("སྒྲོལ་མ", "སྒྲོལ་མ"),
     ("李小龙", "李小龙"), ("Ана", "Ана"), ("O'Brien", "O'Brien"), ("❤️ Bo", "❤️ Bo"), ("🎲", "🎲"),
     ("Ana\u3164Bo", "Ana Bo"), ("x" * 24, "x" * 24), ("שָׁלוֹם", "שָׁלוֹם")],
)
def test_real_names_are_kept(http: httpx.Client, name: str, kept: str) -> None:
    r = http.post("/api/tables", json={"seats": 3, "name": name})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["players"][0]["name"] == unicodedata.normalize("NFC", kept)


def test_a_long_name_is_refused_in_words(http: httpx.Client) -> None:
    got = detail(http.post("/api/tables", json={"seats": 3, "name": "x" * 25}), 422, "name_too_long")
    assert got["params"] == {"limit": 24} and got["message"] == "a name has at most 24 characters"
    assert detail(http.post("/api/tables", json={"seats": 3, "name": "x" * 60_000}), 422, "name_too_long")


# --- 4. the score sheet's CSV --------------------------------------------------------------------------------

FORMULAS = ["=cmd|' /C calc'!A0", "+1", "@SUM(1)", "-2+3"]


def test_the_csv_neutralises_formulas_and_keeps_numbers(http: httpx.Client) -> None:
    lines = [{"bid": 1, "won": 0}, {"bid": 0, "won": 1}, {"bid": 0, "won": 0}, {"bid": 1, "won": 0}]
    body = {"format": FORMAT, "players": FORMULAS, "scoring": "standard", "hands": [lines]}
    r = http.post("/api/sheet/csv", json=body)
    assert r.status_code == 200, r.text
    rows = list(csv.reader(io.StringIO(r.text)))
    assert [row[2] for row in rows[1:5]] == ["'" + n for n in FORMULAS]
    assert [row[0] for row in rows[-4:]] == ["'" + n for n in FORMULAS]
    assert rows[1][-2:] == ["-10", "-10"] and rows[-4][1] == "-10"  # a negative score stays a number
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or re.fullmatch(r"-[0-9]+", cell), cell


@pytest.mark.parametrize(
    ("cell", "safe"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-2+3", "'-2+3"), ("@SUM(1)", "'@SUM(1)"), ("\t=1", "'\t=1"),
     ("\r=1", "'\r=1"), ("\uff1d1+1", "'\uff1d1+1"), ("-20", "-20"), ("0", "0"), ("Ana", "Ana"), ("", ""),
     ("-", "'-"), ("1=1", "1=1")],
)
def test_formula_safe(cell: str, safe: str) -> None:
    assert formula_safe(cell) == safe
