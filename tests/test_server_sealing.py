"""Issue 57 (4): seeds and bids sealed with an AEAD from `cryptography` (`server/sealing.py`).

- A sealed seed or bid opens only with its key and in its place (table, action, seat): another key,
  another place or one altered character is refused (SeedKeyError), and every sealed value has one
  length whatever it holds.
- A database made by the previous release (schema 0006, `s1:` seeds sealed by the hand-made
  construction, bids in clear) is upgraded when a keyed server opens it: seeds and bids re-sealed
  `s2:`, the old text scrubbed from the file, the games resumed with exactly their dice and bids.
- During bidding, the SQLite file of a real server holds neither a seed nor a bid in clear.
- Rotating the key (`--old-secret-file`) re-seals everything; afterwards only the new key opens the
  database; a wrong key stops the server with one line saying why.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from minodice import record
from minodice.game import Bid, Game, Roll
from minodice.rules import Rules
from minodice.server.protocol import view_on_wire
from minodice.server.sealing import Sealer, SeedKeyError, key_fingerprint, read_key
from minodice.server.store import MIGRATIONS, Store, StoredSeat, StoredTable
from minodice.server.tables import token_hash
from test_server_common import Player, ServerProcess, free_port, make_table, play_out, start

KEY, OTHER = b"k" * 32, b"o" * 32
NAMES = ["Ana", "Greedy 2", "Random 3"]
#: A bid stored in clear, as SQLite lays out an `actions` row: kind "bid", its value, then the time.
PLAIN_BID = re.compile(rb"bid\d{1,2}\d{4}-\d\d-\d\d ")


def _seal_s1(key: bytes, code: str, seed: str) -> str:
    """The previous release's seal (`s1:`): kept here only to make its databases."""
    pad = hmac.new(key, b"minodice/seed/pad\x00" + code.encode(), hashlib.sha256).digest()[:8]
    sealed = bytes(a ^ b for a, b in zip(int(seed).to_bytes(8, "big"), pad, strict=True))
    tag = hmac.new(key, b"minodice/seed/tag\x00" + code.encode() + b"\x00" + sealed, hashlib.sha256).digest()[:8]
    return "s1:" + sealed.hex() + tag.hex()


def _db_bytes(db: Path) -> bytes:
    """The file and its -wal, -shm, -journal (read only with every connection to it closed)."""
    return b"".join(f.read_bytes() for f in (db.with_name(db.name + e) for e in ("", "-wal", "-shm", "-journal"))
                    if f.exists())


def _assert_hidden(data: bytes, seeds: list[str]) -> None:
    """No seed (as digits or 8 bytes, either order) and no bid in clear is anywhere in `data`."""
    for seed in seeds:
        value = int(seed)
        assert seed.encode() not in data
        assert value.to_bytes(8, "big") not in data and value.to_bytes(8, "little") not in data
    assert PLAIN_BID.search(data) is None


def _rows(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        return conn.execute(sql, args).fetchall()


def _flip(sealed: str, at: int) -> str:
    """`sealed` with its character `at` changed (to another base64 character)."""
    return sealed[:at] + ("B" if sealed[at] == "A" else "A") + sealed[at + 1:]


# --- the seal ------------------------------------------------------------------------------------


def test_a_sealed_value_opens_only_with_its_key_in_its_place() -> None:
    sealer = Sealer(KEY)
    seed = sealer.seal_seed("K7QH2M", "4242424242424242")
    bid = sealer.seal_bid("K7QH2M", 5, 1, "3")
    assert sealer.open_seed("K7QH2M", seed) == "4242424242424242"
    assert sealer.open_bid("K7QH2M", 5, 1, bid) == "3"
    # one length for every value: a sealed bid says nothing of its size (0 or 12 alike)
    values = [seed, bid, sealer.seal_bid("K7QH2M", 0, 0, "0"), sealer.seal_bid("K7QH2M", 0, 0, "12"),
              sealer.seal_seed("K7QH2M", "0"), sealer.seal_seed("K7QH2M", str(2**64 - 1))]
    assert {len(v) for v in values} == {51} and all(v.startswith("s2:") for v in values)
    assert sealer.seal_bid("K7QH2M", 5, 1, "3") != bid  # a fresh nonce each time
    other = Sealer(OTHER)
    refused = [
        lambda: other.open_seed("K7QH2M", seed),  # another key
        lambda: sealer.open_seed("K7QH2N", seed),  # another table
        lambda: sealer.open_bid("K7QH2M", 6, 1, bid),  # another action
        lambda: sealer.open_bid("K7QH2M", 5, 2, bid),  # another seat
        lambda: sealer.open_seed("K7QH2M", sealer.seal_bid("K7QH2M", 0, 0, "3")),  # a bid is no seed
        lambda: sealer.open_bid("K7QH2M", 5, 1, "s2:" + base64.urlsafe_b64encode(b"\0" * 20).decode()),
        lambda: sealer.open_bid("K7QH2M", 5, 1, "s2:!!"),
        lambda: sealer.open_seed("K7QH2M", "s1:zz"),
    ]
    refused += [lambda at=at: sealer.open_seed("K7QH2M", _flip(seed, at)) for at in range(3, 51)]  # any char
    for attempt in refused:
        with pytest.raises(SeedKeyError) as info:
            attempt()
        assert info.value.code in ("seed_unsealable", "bid_unsealable")
        assert "sealed with another key or altered" in str(info.value)
    for bad in ("-1", "01", str(2**64), "x"):
        with pytest.raises(ValueError):
            sealer.seal_seed("K7QH2M", bad)


def test_the_previous_release_seal_and_fingerprint_still_open() -> None:
    """`s1:` seeds open (to be re-sealed), and the key's fingerprint is the one the `meta` row holds."""
    assert Sealer(KEY).open_seed("OLDGAM", _seal_s1(KEY, "OLDGAM", "5550123498765")) == "5550123498765"
    with pytest.raises(SeedKeyError):
        Sealer(OTHER).open_seed("OLDGAM", _seal_s1(KEY, "OLDGAM", "5550123498765"))
    assert key_fingerprint(KEY) == hmac.new(KEY, b"minodice/seed-key/fingerprint", hashlib.sha256).hexdigest()[:32]
    assert Sealer(KEY).open_bid("OLDGAM", 0, 0, "7") == "7"  # a plain bid of an older version


# --- a database of the previous release ----------------------------------------------------------


def _mid_bidding(seed: str) -> tuple[Game, list[tuple[int, str, str]]]:
    """A game in hand 2 whose seats 1 and 2 have bid and Ana (seat 0) not yet; its actions as stored."""
    game = Game(3, names=NAMES, rules=Rules(), seed=int(seed))
    played: list[tuple[int, str, str]] = []
    while True:
        placed = view_on_wire(game.observe(0))["bid_placed"]
        bidding = game.observe(0).bidding
        if game.hand >= 2 and bidding and placed[1] and placed[2]:
            return game, played
        seat = next(s for s in game.to_act() if not (game.hand >= 2 and bidding and s == 0))
        action = game.legal_actions(seat)[-1]
        game.apply(action)
        assert isinstance(action, Bid | Roll)
        played.append((seat, "bid", str(action.bid)) if isinstance(action, Bid) else (seat, "roll", action.die.value))


def _release_0006(db: Path, seed: str) -> tuple[str, Game, list[tuple[int, str, str]]]:
    """A database as the previous release left it: schema 0006, its key beside it (fingerprint in `meta`),
    a table OLDGAM mid-bidding in hand 2 (`s1:` seed, bids in clear) and a table OLDWAI in the lobby.
    Returns Ana's token, the game and its actions."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{db}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
    engine.dispose()
    key = b"0123456789abcdef" * 4
    db.with_name(db.name + ".key").write_bytes(key + b"\n")
    db.with_name(db.name + ".key").chmod(0o600)
    game, played = _mid_bidding(seed)
    token, now = "ana-old-token-" + "x" * 18, "2027-02-20 12:00:00.000000"
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("INSERT INTO meta (name, value) VALUES ('seed_key', ?)",
                     (hmac.new(key, b"minodice/seed-key/fingerprint", hashlib.sha256).hexdigest()[:32],))
        for code, status, table_seed in (("OLDGAM", "playing", seed), ("OLDWAI", "waiting", "777000111")):
            conn.execute(
                "INSERT INTO tables (code, status, seats, rules, seed, first_start, host_hash, host_seat, created,"
                " updated, hints, clock) VALUES (?, ?, 3, ?, ?, 0, ?, 0, ?, ?, 1, 'off')",
                (code, status, json.dumps(Rules().to_dict()), _seal_s1(key, code, table_seed),
                 token_hash("host-" + "y" * 27), now, now),
            )
        for seat, kind, name, bot, th in [(0, "human", "Ana", None, token_hash(token)),
                                          (1, "bot", "Greedy 2", "greedy", None),
                                          (2, "bot", "Random 3", "random", None)]:
            conn.execute("INSERT INTO seats (table_code, seat, kind, name, bot, token_hash, muted, autoplay, ready)"
                         " VALUES ('OLDGAM', ?, ?, ?, ?, ?, 0, 0, 0)", (seat, kind, name, bot, th))
        conn.executemany("INSERT INTO actions (table_code, n, seat, kind, value, at) VALUES ('OLDGAM', ?, ?, ?, ?, ?)",
                         [(n, seat, kind, value, now) for n, (seat, kind, value) in enumerate(played)])
    return token, game, played


def test_a_database_of_the_previous_release_is_sealed_anew_and_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    seed = "5550123498765"
    token, game, played = _release_0006(db, seed)
    bids = sum(1 for _, kind, _ in played if kind == "bid")
    assert PLAIN_BID.search(_db_bytes(db))  # the scan below finds bids in clear where there are some
    log = tmp_path / "server.log"
    srv = ServerProcess(f"sqlite:///{db}", log).start()
    try:
        assert f"Sealed {2 + bids} seeds and bids saved by an older version" in log.read_text()
        assert _rows(db, "SELECT version_num FROM alembic_version") == [("0007",)]
        assert dict(_rows(db, "SELECT name, value FROM meta"))["sealing"] == "s2:"
        seeds = dict(_rows(db, "SELECT code, seed FROM tables"))
        assert all(v.startswith("s2:") for v in seeds.values())
        stored = _rows(db, "SELECT n, seat, kind, value FROM actions WHERE table_code = 'OLDGAM' ORDER BY n")
        sealer = Sealer(read_key(tmp_path / "old.db.key"))
        assert sealer.open_seed("OLDGAM", seeds["OLDGAM"]) == seed
        assert sealer.open_seed("OLDWAI", seeds["OLDWAI"]) == "777000111"
        assert [(seat, kind, sealer.open_bid("OLDGAM", n, seat, v) if kind == "bid" else v)
                for n, seat, kind, v in stored] == played
        assert all(v.startswith("s2:") for _, _, kind, v in stored if kind == "bid")
        _assert_hidden(_db_bytes(db), [seed, "777000111"])  # scrubbed from the file and its log
        with srv.api() as http:
            ana = Player(srv.ws_base, "OLDGAM", token)
            assert ana.state["view"] == view_on_wire(game.observe(0))  # its dice and the bids placed, exactly
            assert http.get("/api/tables/OLDWAI").status_code == 200
            play_out([ana])
            rec = http.get("/api/tables/OLDGAM/record").json()
            assert record.check(rec) is None and len(rec["hands"]) == 8
            first = record.from_game(game)["hands"][0]
            assert rec["hands"][0] == first  # the first hand's bids and rolls as they were played
            assert any(t["code"] == "OLDGAM" for t in http.get("/api/games").json()["games"])
            ana.close()
    finally:
        srv.stop()
    store = Store(f"sqlite:///{db}")
    try:
        assert store.sealed_old == 0  # once sealed, nothing more at opening
    finally:
        store.close()


# --- a real server: nothing unshown on disk; rotation; a wrong key -------------------------------


def _ana_mid_bidding(srv: ServerProcess) -> tuple[str, str, Player]:
    """A table Ana plays with two bots, in hand 1 with the bots' bids in and Ana's not: (code, token, Ana)."""
    with srv.api() as http:
        t = make_table(http, 3, [None, "greedy", "random"], ["Ana"])
        start(http, t["code"], t["host"])
    ana = Player(srv.ws_base, t["code"], t["tokens"][0])

    def bots_bid() -> bool:  # the frames the hello brought may hold it already
        return ana.state is not None and ana.state["view"]["bid_placed"] == [False, True, True]

    if not bots_bid():
        ana.wait_for(lambda _: bots_bid())
    return t["code"], t["tokens"][0], ana


def test_during_bidding_the_file_shows_no_seed_and_no_bid_and_the_key_rotates(tmp_path: Path) -> None:
    db, old_key, new_key = tmp_path / "games.db", tmp_path / "old.key", tmp_path / "new.key"
    url, log = f"sqlite:///{db}", tmp_path / "server.log"
    srv = ServerProcess(url, log, secret_file=old_key).start()
    try:
        code, token, ana = _ana_mid_bidding(srv)
        before = ana.state["view"]
        srv.kill()  # what is on disk is what a crash leaves
        ana.close()
        sealer = Sealer(read_key(old_key))
        (stored_seed,) = _rows(db, "SELECT seed FROM tables WHERE code = ?", code)[0]
        seed = sealer.open_seed(code, stored_seed)
        bids = _rows(db, "SELECT n, seat, value FROM actions WHERE table_code = ? AND kind = 'bid'", code)
        assert sorted(seat for _, seat, _ in bids) == [1, 2]  # the bots' bids, not yet revealed
        assert all(v.startswith("s2:") for _, _, v in bids)
        for n, seat, v in bids:
            assert sealer.open_bid(code, n, seat, v) in {str(b) for b in range(0, 9)}
        _assert_hidden(_db_bytes(db), [seed])

        # rotation: the old key's file named, a new one made; everything re-sealed, the game goes on
        srv = ServerProcess(url, log, port=srv.port, secret_file=new_key, old_secret_file=old_key).start()
        assert "Re-sealed 3 seeds and bids with the new key" in log.read_text()
        assert f"New secret key written to {new_key}" in log.read_text()
        ana = Player(srv.ws_base, code, token)
        assert ana.state["view"] == before
        ana.close()
        srv.stop()
        new = Sealer(read_key(new_key))
        (stored_seed,) = _rows(db, "SELECT seed FROM tables WHERE code = ?", code)[0]
        assert new.open_seed(code, stored_seed) == seed
        with pytest.raises(SeedKeyError):
            sealer.open_seed(code, stored_seed)
        for n, seat, v in _rows(db, "SELECT n, seat, value FROM actions WHERE table_code = ? AND kind = 'bid'", code):
            with pytest.raises(SeedKeyError):
                sealer.open_bid(code, n, seat, v)
            new.open_bid(code, n, seat, v)
        _assert_hidden(_db_bytes(db), [seed])

        # the old key no longer opens the database: the server says why, in one line, and stops
        out = subprocess.run(
            [sys.executable, "-m", "minodice.cli", "serve", "--port", str(free_port()), "--db", url,
             "--secret-file", str(old_key)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
        )
        assert out.returncode == 2, out
        assert len(out.stderr.strip().splitlines()) == 1
        assert "is not the one this database's seeds are sealed with" in out.stderr
        # naming the old key again changes nothing: the database is the new key's already
        srv = ServerProcess(url, log, port=srv.port, secret_file=new_key, old_secret_file=old_key).start()
        assert "is not needed" in log.read_text()
        ana = Player(srv.ws_base, code, token)
        assert ana.state["view"] == before
        ana.close()
    finally:
        srv.stop()


def _store_with_a_game(url: str, secret: Path) -> None:
    store = Store(url, secret)
    seats = [StoredSeat(0, "human", "Ana", None, "a" * 64), StoredSeat(1, "bot", "Greedy 2", "greedy")]
    store.create(StoredTable(code="ROTATE", status="playing", seats=2, rules={}, seed="31337", first_start=0,
                             host_hash="h" * 64, host_seat=0, players=seats))
    store.append_actions([("ROTATE", 0, 0, "bid", "2"), ("ROTATE", 1, 1, "bid", "1")])
    store.close()


def test_rotation_refuses_an_old_key_that_is_not_the_databases(tmp_path: Path) -> None:
    url, key, wrong = f"sqlite:///{tmp_path / 'r.db'}", tmp_path / "r.key", tmp_path / "wrong.key"
    _store_with_a_game(url, key)
    wrong.write_text("w" * 64)
    new = tmp_path / "new.key"
    with pytest.raises(SeedKeyError) as info:
        Store(url, new, old_secret_file=wrong)
    assert info.value.code == "old_key_wrong" and not new.exists()  # nothing made, nothing re-sealed
    store = Store(url, key)
    got = store.load("ROTATE")
    assert got is not None and got.seed == "31337" and got.actions == [(0, "bid", "2"), (1, "bid", "1")]
    store.close()
    store = Store(url, new, old_secret_file=key)
    assert store.rekeyed == 3 and store.key_created
    store.close()
    with pytest.raises(SeedKeyError, match="is not the one"):
        Store(url, key)
    store = Store(url, new)
    got = store.load("ROTATE")
    assert got is not None and got.seed == "31337" and got.actions == [(0, "bid", "2"), (1, "bid", "1")]
    store.close()


def test_a_tampered_bid_keeps_only_its_table_shut(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    url, key = f"sqlite:///{db}", tmp_path / "t.key"
    _store_with_a_game(url, key)
    (value,) = _rows(db, "SELECT value FROM actions WHERE table_code = 'ROTATE' AND n = 1")[0]
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE actions SET value = ? WHERE table_code = 'ROTATE' AND n = 1", (_flip(value, 20),))
    store = Store(url, key)
    try:
        with pytest.raises(SeedKeyError) as info:
            store.load("ROTATE")
        assert info.value.code == "bid_unsealable" and info.value.params == {"table": "ROTATE", "n": 1}
        assert store.load_status("playing") == []  # not resumed; the server starts without it
    finally:
        store.close()
