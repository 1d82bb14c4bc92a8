"""Issue 14's audit of the database and of bot timing, on a real server and a real SQLite file.

- The SQLite file (and its -wal/-shm files, and the key file) are readable by their owner only,
  even under a umask of 0, and an older, world-readable file is narrowed.
- The database never holds a table's seed in a form that deals its dice without the key: it is
  sealed with a key kept outside the database. A server restarted with the key resumes every table
  exactly; without it, or with another key, it refuses to start (it would deal other dice); a table
  sealed with another key stays shut (503 `table_locked`) while the others resume.
- A database made by an older version (plain seeds and bids) is sealed at start-up and its games go
  on with exactly the dice of their plain seed. (Sealing itself, `s1:` databases and key rotation:
  tests/test_server_sealing.py.)
- A bot's move comes `--bot-delay` after its turn came, whether its roll was forced or chosen: a
  spectator's clock cannot tell the two apart.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
import stat
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from minodice import record
from minodice.dice import die_named
from minodice.game import Bid, Game, Roll
from minodice.rules import Rules
from minodice.server.protocol import view_on_wire
from minodice.server.sealing import Sealer
from minodice.server.store import (
    MIGRATIONS,
    SeedKeyError,
    Store,
    StoredSeat,
    StoredTable,
    read_key,
    seal_seed,
    unseal_seed,
)
from minodice.server.tables import token_hash
from test_server_common import Player, ServerProcess, free_port, make_table, play_out, start


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _db_bytes(db: Path) -> bytes:
    """Everything SQLite keeps of the database on disk: the file and its -wal, -shm, -journal."""
    data = b""
    for end in ("", "-wal", "-shm", "-journal"):
        f = db.with_name(db.name + end)
        if f.exists():
            data += f.read_bytes()
    return data


# Every connection of this test is closed before the next step: reading the database's files
# (`_db_bytes`) from a process that still holds a connection would drop that connection's locks
# (POSIX record locks end when any descriptor of the file is closed) and let it damage the file.
def _row(db: Path, code: str, secret: Path) -> tuple[str, list[tuple[int, str, str]], dict[str, str], int]:
    """A table's stored seed (as stored), actions (bids opened with the key in `secret`), rules and first
    start, read straight from the file."""
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        seed, rules, first = conn.execute(
            "SELECT seed, rules, first_start FROM tables WHERE code = ?", (code,)
        ).fetchone()
        stored = conn.execute(
            "SELECT n, seat, kind, value FROM actions WHERE table_code = ? ORDER BY n", (code,)
        ).fetchall()
    sealer = Sealer(read_key(secret))
    actions = [(seat, kind, sealer.open_bid(code, n, seat, value) if kind == "bid" else value)
               for n, seat, kind, value in stored]
    assert all(value.startswith("s2:") for _, _, kind, value in stored if kind == "bid")
    return seed, actions, json.loads(rules), first


def _action(seat: int, kind: str, value: str) -> Bid | Roll:
    """A stored action as the engine's."""
    if kind == "bid":
        return Bid(seat, int(value))
    die = die_named(value)
    assert die is not None
    return Roll(seat, die)


def _replayed(seed: str, actions: list[tuple[int, str, str]], rules: dict[str, str], first: int,
              names: list[str]) -> Game:
    game = Game(len(names), names=names, rules=Rules.from_dict(rules), seed=int(seed), first_start=first)
    for seat, kind, value in actions:
        game.apply(_action(seat, kind, value))
    return game


def _assert_no_seed(data: bytes, seed: str) -> None:
    """Neither the seed's digits nor its 8 bytes (either order) are anywhere in `data`."""
    value = int(seed)
    assert seed.encode() not in data
    assert value.to_bytes(8, "big") not in data and value.to_bytes(8, "little") not in data


# --- the key and the seal, without a server ---------------------------------------------------


def test_seal_hides_the_seed_and_only_its_key_opens_it() -> None:
    key, other = b"k" * 32, b"o" * 32
    sealed = seal_seed(key, "K7QH2M", "4242424242424242")
    assert sealed.startswith("s2:") and len(sealed) == 51 and "4242424242424242" not in sealed
    assert unseal_seed(key, "K7QH2M", sealed) == "4242424242424242"
    assert seal_seed(key, "K7QH2M", "4242424242424242") != sealed  # a random nonce each time
    flipped = sealed[:-1] + ("B" if sealed[-1] == "A" else "A")
    for wrong in [(other, "K7QH2M", sealed), (key, "K7QH2N", sealed), (key, "K7QH2M", flipped),
                  (key, "K7QH2M", "s1:zz"), (key, "K7QH2M", "s2:zz")]:
        with pytest.raises(SeedKeyError):
            unseal_seed(*wrong)
    assert unseal_seed(key, "OLD", "12345") == "12345"  # a plain seed of an older version


def test_store_refuses_a_missing_or_wrong_key_and_shuts_only_a_foreign_table(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    url = f"sqlite:///{db}"
    store = Store(url)
    keyfile = tmp_path / "s.db.key"
    assert store.key_created and _mode(keyfile) == 0o600 and _mode(db) == 0o600
    seats = [StoredSeat(0, "human", "Ana", None, "a" * 64), StoredSeat(1, "open"), StoredSeat(2, "open")]
    for code in ("GOOD22", "ALIEN2"):
        store.create(StoredTable(code=code, status="waiting", seats=3, rules={}, seed="987654321", first_start=0,
                                 host_hash="h" * 64, host_seat=0, players=seats))
    store.close()
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:  # one row sealed with another key (another server's, say)
        conn.execute("UPDATE tables SET seed = ? WHERE code = 'ALIEN2'", (seal_seed(b"x" * 32, "ALIEN2", "5"),))
    store = Store(url)
    assert not store.key_created
    assert [t.code for t in store.load_status("waiting")] == ["GOOD22"]  # the other one stays shut
    assert store.load("GOOD22").seed == "987654321"  # type: ignore[union-attr]
    with pytest.raises(SeedKeyError):
        store.load("ALIEN2")
    store.close()
    key = keyfile.read_bytes()
    keyfile.write_bytes(b"w" * 64)
    with pytest.raises(SeedKeyError, match="is not the one"):
        Store(url)
    keyfile.unlink()
    with pytest.raises(SeedKeyError, match="missing"):
        Store(url)
    assert not keyfile.exists()  # no new key is made for a database sealed with an old one
    keyfile.write_bytes(b"short")
    with pytest.raises(SeedKeyError, match="at least 32"):
        Store(url)
    keyfile.write_bytes(key)
    Store(url).close()


def test_a_server_database_other_than_sqlite_needs_a_key_file(tmp_path: Path) -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:9/none"  # refused before any connection is tried
    with pytest.raises(SeedKeyError, match="--secret-file"):
        Store(url, need_key=True)
    out = subprocess.run(
        [sys.executable, "-m", "minodice.cli", "serve", "--port", str(free_port()), "--db", url],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert out.returncode == 2 and "--secret-file" in out.stderr, out.stderr


# --- a real server ------------------------------------------------------------------------------


def test_database_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "perm.db"
    old = os.umask(0)  # the server inherits the most permissive umask: the files must still be 0600
    try:
        srv = ServerProcess(f"sqlite:///{db}", tmp_path / "server.log", bot_delay=0.02).start()
    finally:
        os.umask(old)
    try:
        with srv.api() as http:
            r = http.post("/api/tables", json={"seats": 3, "bots": ["random", "greedy", "random"]})
            start(http, r.json()["table"]["code"], r.json()["host_token"])
            watcher = Player(srv.ws_base, r.json()["table"]["code"], None)
            watcher.wait_for(lambda m: m["type"] == "state" and m["view"]["hand"] >= 2)
            files = [db, tmp_path / "perm.db-wal", tmp_path / "perm.db-shm", tmp_path / "perm.db.key"]
            assert {f.name: oct(_mode(f)) for f in files} == {f.name: "0o600" for f in files}
            watcher.close()
    finally:
        srv.stop()


def test_seed_sealed_and_only_the_key_resumes(tmp_path: Path) -> None:
    db = tmp_path / "data" / "games.db"
    db.parent.mkdir()
    secret = tmp_path / "secret" / "minodice.key"
    secret.parent.mkdir()
    url, log = f"sqlite:///{db}", tmp_path / "server.log"
    srv = ServerProcess(url, log, secret_file=secret).start()
    try:
        assert f"New secret key written to {secret}" in log.read_text()
        assert _mode(secret) == 0o600 and not (tmp_path / "data" / "games.db.key").exists()
        with srv.api() as http:
            t = make_table(http, 3, [None, "greedy", "random"], ["Ana"])
            code = t["code"]
            start(http, code, t["host"])
            lobby = make_table(http, 3, [None, None, "greedy"], ["Cy"])  # waits in the lobby
            ana = Player(srv.ws_base, code, t["tokens"][0])
            # hand 2, a trick begun, Ana to roll and not yet rolled: the game waits for her
            play_out([ana], stop=lambda: ana.state["view"]["hand"] >= 2 and ana.must_act()
                     and ana.acted_on != ana.progress() and all(ana.state["view"]["bid_placed"])
                     and any(tr["rolls"] for tr in ana.state["view"]["tricks"]))
            ana.pump(0.2)
            before = ana.state["view"]
            stored, actions, rules, first = _row(db, code, secret)
            seed = unseal_seed(read_key(secret), code, stored)
            # the key opens the real seed: it deals Ana exactly the dice she holds
            game = _replayed(seed, actions, rules, first, ["Ana", "Greedy 2", "Random 3"])
            assert view_on_wire(game.observe(0)) == before
            # ... and nothing on disk holds it in a form that deals dice without the key
            assert stored.startswith("s2:") and len(stored) == 51
            _assert_no_seed(_db_bytes(db), seed)
            _assert_no_seed(_db_bytes(db), unseal_seed(read_key(secret), lobby["code"],
                                                       _row(db, lobby["code"], secret)[0]))
        srv.kill()
        ana.close()

        # without the key (nothing beside the database, nothing given) or with another: no start
        with pytest.raises(RuntimeError, match="is missing"):
            ServerProcess(url, log, port=srv.port).start()
        assert not (tmp_path / "data" / "games.db.key").exists()
        wrong = tmp_path / "wrong.key"
        wrong.write_text("f" * 64)
        with pytest.raises(RuntimeError, match="is not the one this database's seeds are sealed with"):
            ServerProcess(url, log, port=srv.port, secret_file=wrong).start()

        # a waiting table sealed with another key stays shut; the rest resumes exactly
        with contextlib.closing(sqlite3.connect(db)) as conn, conn:
            conn.execute("UPDATE tables SET seed = ? WHERE code = ?",
                         (seal_seed(b"z" * 32, lobby["code"], "77"), lobby["code"]))
        srv = ServerProcess(url, log, port=srv.port, secret_file=secret).start()
        with srv.api() as http:
            locked = http.get(f"/api/tables/{lobby['code']}")
            assert locked.status_code == 503 and locked.json()["detail"]["code"] == "table_locked"
            ana = Player(srv.ws_base, code, t["tokens"][0])
            assert ana.state["view"] == before
            play_out([ana])
            rec = http.get(f"/api/tables/{code}/record").json()
            assert record.check(rec) is None and len(rec["hands"]) == 8
            _, actions, _, _ = _row(db, code, secret)
            done = _replayed(seed, actions, rules, first, ["Ana", "Greedy 2", "Random 3"])
            assert rec == record.from_game(done, seat_info=[{}, {"bot": "greedy", "auto_name": True}, {"bot": "random", "auto_name": True}])
            ana.close()
    finally:
        srv.stop()


def _old_database(db: Path, seed: str) -> tuple[str, Game]:
    """A database as the previous version left it: schema revision 0003, a plain seed, a game in
    hand 2 waiting for Ana (seat 0), the file world-readable. Returns Ana's token and the game."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{db}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
    engine.dispose()
    db.chmod(0o644)
    names = ["Ana", "Greedy 2", "Random 3"]
    rules = Rules().to_dict()
    game = Game(3, names=names, rules=Rules.from_dict(rules), seed=int(seed))
    played: list[tuple[int, str, str]] = []
    while not (game.hand >= 2 and game.to_act() == [0] and game.current is not None
               and any(tr.rolls for tr in game.current.tricks) and not game.observe(0).bidding):
        action = game.legal_actions(game.to_act()[0])[-1]
        game.apply(action)
        assert isinstance(action, Bid | Roll)
        played.append((action.seat, "bid", str(action.bid)) if isinstance(action, Bid)
                      else (action.seat, "roll", action.die.value))
    token = "ana-old-token-" + "x" * 18
    now = "2026-12-01 12:00:00.000000"
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "INSERT INTO tables (code, status, seats, rules, seed, first_start, host_hash, host_seat, rematch_of,"
            " rematch, created, updated, finished, totals, hints) VALUES"
            " ('OLDGAM', 'playing', 3, ?, ?, 0, ?, 0, NULL, NULL, ?, ?, NULL, NULL, 1)",
            (json.dumps(rules), seed, token_hash("host-" + "y" * 27), now, now),
        )
        for seat, kind, name, bot, th in [(0, "human", "Ana", None, token_hash(token)),
                                          (1, "bot", "Greedy 2", "greedy", None),
                                          (2, "bot", "Random 3", "random", None)]:
            conn.execute("INSERT INTO seats (table_code, seat, kind, name, bot, token_hash, muted)"
                         " VALUES ('OLDGAM', ?, ?, ?, ?, ?, 0)", (seat, kind, name, bot, th))
        for n, (seat, kind, value) in enumerate(played):
            conn.execute("INSERT INTO actions (table_code, n, seat, kind, value, at) VALUES ('OLDGAM', ?, ?, ?, ?, ?)",
                         (n, seat, kind, value, now))
    return token, game


def test_an_old_database_with_plain_seeds_is_sealed_and_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    seed = "5550123498765"
    token, game = _old_database(db, seed)
    assert seed.encode() in _db_bytes(db) and _mode(db) == 0o644
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        bids = conn.execute("SELECT count(*) FROM actions WHERE kind = 'bid'").fetchone()[0]
    log = tmp_path / "server.log"
    srv = ServerProcess(f"sqlite:///{db}", log).start()
    try:
        text = log.read_text()
        assert f"Sealed {1 + bids} seeds and bids saved by an older version" in text
        assert f"New secret key written to {db}.key" in text
        assert _mode(db) == 0o600 and _mode(tmp_path / "old.db.key") == 0o600
        stored, actions, rules, first = _row(db, "OLDGAM", tmp_path / "old.db.key")
        assert stored.startswith("s2:")
        assert unseal_seed(read_key(tmp_path / "old.db.key"), "OLDGAM", stored) == seed
        _assert_no_seed(_db_bytes(db), seed)  # the old text is scrubbed from the file and its log
        with srv.api() as http:
            ana = Player(srv.ws_base, "OLDGAM", token)
            assert ana.state["view"] == view_on_wire(game.observe(0))  # the plain seed's dice, exactly
            play_out([ana])
            rec = http.get("/api/tables/OLDGAM/record").json()
            assert record.check(rec) is None and len(rec["hands"]) == 8
            _, actions, _, _ = _row(db, "OLDGAM", tmp_path / "old.db.key")
            done = _replayed(seed, actions, rules, first, ["Ana", "Greedy 2", "Random 3"])
            assert rec == record.from_game(done, seat_info=[{}, {"bot": "greedy", "auto_name": True}, {"bot": "random", "auto_name": True}])
            ana.close()
    finally:
        srv.stop()


# --- bot timing ---------------------------------------------------------------------------------

DELAY = 0.3


def test_forced_and_chosen_bot_rolls_take_the_same_time(tmp_path: Path) -> None:
    """Three `montecarlo` bots at --bot-delay 0.3 play hands 1 to 5 (about 60 moves) while a spectator
    times every state it receives. Which rolls were forced (one legal die) is worked out afterwards
    from the game itself. Before the fix a chosen roll came one search later (about 50 ms here).
    Hands 1 to 4 gave as few as 7 chosen rolls on some deals (the follow-colour rule forces many),
    too few to compare; with hand 5, 19 to 23 in four runs."""
    db = tmp_path / "timing.db"
    srv = ServerProcess(f"sqlite:///{db}", tmp_path / "server.log", bot_delay=DELAY).start()
    try:
        with srv.api() as http:
            r = http.post("/api/tables", json={"seats": 3, "bots": ["montecarlo"] * 3})
            code, host = r.json()["table"]["code"], r.json()["host_token"]
            watcher = Player(srv.ws_base, code, None)
            start(http, code, host)
            frames: list[tuple[float, int]] = []  # (arrival, events_from) of each state
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                msg = watcher.next(timeout=20)
                arrived = time.monotonic()
                if msg["type"] != "state":
                    continue
                frames.append((arrived, msg["events_from"]))
                if msg["view"]["hand"] >= 6:
                    break
            watcher.close()
    finally:
        srv.stop()
    stored, actions, rules, first = _row(db, code, tmp_path / "timing.db.key")
    seed = unseal_seed(read_key(tmp_path / "timing.db.key"), code, stored)
    game = Game(3, rules=Rules.from_dict(rules), seed=int(seed), first_start=first)
    kind_at: dict[int, str] = {}  # first event index of an action → "forced" | "chosen" | "bid"
    for seat, kind, value in actions:
        at = len(game.events)
        if kind == "roll":
            kind_at[at] = "forced" if len(game.legal_rolls(seat)) == 1 else "chosen"
        else:
            kind_at[at] = "bid"
        game.apply(_action(seat, kind, value))
    times: dict[str, list[float]] = {"forced": [], "chosen": [], "bid": []}
    for (t0, _), (t1, events_from) in itertools.pairwise(frames):
        times.setdefault(kind_at.get(events_from, "other"), []).append(t1 - t0)
    forced, chosen = times["forced"], times["chosen"]
    assert len(forced) >= 8 and len(chosen) >= 8, {k: len(v) for k, v in times.items()}
    gap = statistics.median(chosen) - statistics.median(forced)
    shown = {k: [round(x * 1000) for x in sorted(v)] for k, v in times.items()}
    assert abs(gap) < 0.010, f"median chosen - forced = {gap * 1000:.1f} ms; times (ms): {shown}"
    assert statistics.median(forced) >= DELAY - 0.005, shown  # the delay still holds


def _two_playing_tables(tmp_path: Path, name: str) -> tuple[Any, list[tuple[int, list[Any]]]]:
    """A store on `name`.db with two playing 3-seat tables (AAAAAA, BBBBBB), and the list its
    `append_actions` fills: one (actions, finished tables) entry per transaction."""
    from minodice.server.store import Store, StoredSeat, StoredTable

    store = Store(f"sqlite:///{tmp_path / (name + '.db')}", tmp_path / f"{name}.key")
    seats = [StoredSeat(0, "human", "Ana", None, "a" * 64), StoredSeat(1, "bot", "Greedy 2", "greedy"),
             StoredSeat(2, "bot", "Random 3", "random")]
    for code in ("AAAAAA", "BBBBBB"):
        store.create(StoredTable(code=code, status="playing", seats=3, rules={}, seed="1", first_start=0,
                                 host_hash="h" * 64, host_seat=0, players=seats))
    calls: list[tuple[int, list[Any]]] = []
    real = store.append_actions

    def counted(actions, finished=()):  # the database thread: one call per transaction
        calls.append((len(actions), list(finished)))
        real(actions, finished)

    store.append_actions = counted  # type: ignore[method-assign]  # count the transactions
    return store, calls


def test_actions_arriving_together_are_committed_together_and_in_order(tmp_path: Path) -> None:
    """The group commit (`manager.ActionWriter`): many tables' actions in one transaction, each table's
    in its order, and each `append` returns only once its transaction is committed."""
    import asyncio

    from minodice.server.manager import ActionWriter

    store, calls = _two_playing_tables(tmp_path, "group")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(max_workers=1)

        async def db(fn, *args):
            return await loop.run_in_executor(pool, fn, *args)

        writer = ActionWriter(store, db)

        async def table(code: str) -> None:
            for n in range(20):  # one action waiting at a time per table, as a table's lock makes it
                await writer.append(code, n, n % 3, "bid", str(n % 2))
                with contextlib.closing(sqlite3.connect(tmp_path / "group.db")) as conn, conn:
                    stored = conn.execute("SELECT count(*) FROM actions WHERE table_code = ?", (code,)).fetchone()[0]
                assert stored == n + 1  # committed before append returned

        await asyncio.gather(*(table(c) for c in ("AAAAAA", "BBBBBB")))
        pool.shutdown()

    asyncio.run(main())
    batches = [n for n, _ in calls]
    assert sum(batches) == 40 and len(batches) < 40 and max(batches) == 2  # the two tables' actions shared transactions
    with contextlib.closing(sqlite3.connect(tmp_path / "group.db")) as conn, conn:
        for code in ("AAAAAA", "BBBBBB"):
            ns = [n for (n,) in conn.execute("SELECT n FROM actions WHERE table_code = ? ORDER BY rowid", (code,))]
            assert ns == list(range(20))


def test_the_action_that_ends_a_game_marks_its_table_over_in_the_same_transaction(tmp_path) -> None:
    """The last action and the table's `over` (with its totals) commit together through the group commit:
    a server killed between them cannot leave a finished game marked as playing, and 200 games ending
    at once cost no extra transaction each."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from minodice.server.manager import ActionWriter

    store, calls = _two_playing_tables(tmp_path, "over")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(max_workers=1)

        async def db(fn, *args):
            return await loop.run_in_executor(pool, fn, *args)

        writer = ActionWriter(store, db)
        await asyncio.gather(writer.append("AAAAAA", 0, 0, "bid", "1"),
                             writer.append("BBBBBB", 0, 0, "bid", "1", [12, -20, 30]))
        pool.shutdown()

    asyncio.run(main())
    assert calls == [(2, [("BBBBBB", [12, -20, 30])])]  # one transaction held both actions and the end
    a, b = store.load("AAAAAA"), store.load("BBBBBB")
    assert a is not None and b is not None
    assert (a.status, a.totals, a.finished) == ("playing", None, None)
    assert (b.status, b.totals) == ("over", [12, -20, 30]) and b.finished is not None
    assert [t.code for t in store.finished(10, 0)] == ["BBBBBB"]
