"""The server's bots think in worker processes (`server.botpool`): the same answers as in the server's
own process, one process per table, a dead process replaced, a finished table's bots let go."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from minodice.bots import bot_seed
from minodice.game import Bid, Game, Phase, Roll
from minodice.server import botpool
from minodice.server.botpool import BotPool, WorkerProcess, is_instant, made
from minodice.server.manager import TableManager
from minodice.server.settings import Settings
from test_server_common import process_running

#: A search bot with a budget small enough for tests (the same code path as any level's).
SEARCH = "montecarlo:sims=16,bid_sims=16"


def _play(pool: BotPool, table: str, spec: str, seed: int) -> tuple[list[object], list[object]]:
    """A 3-seat game where seat 1 is asked through the pool and, beside it, the same bot made here;
    every seat plays the pool's answer. The pool's answers and the local bot's."""
    game = Game(3, seed=seed)
    bot_seed_1 = bot_seed(seed, 1) + f":{spec}"
    local = made(spec, bot_seed_1, game.setup_view(1))
    others = {s: made("greedy", f"{seed}:{s}", game.setup_view(s)) for s in (0, 2)}
    asked, mirrored = [], []

    async def run() -> None:
        while not game.over:
            seats = [s for s in range(3) if game.phase is Phase.BID and game.log[-1].bids[s] is None]
            seat = seats[0] if seats else game.turn
            view = game.observe(seat)
            what = "bid" if game.phase is Phase.BID else "roll"
            if seat == 1:
                answer = await pool.decide(table, 1, spec, bot_seed_1, game.setup_view(1), view, what)
                asked.append(answer)
                mirrored.append(botpool.decide(local, view, what))
            else:
                answer = botpool.decide(others[seat], view, what)
            game.apply(Bid(seat, answer) if what == "bid" else Roll(seat, answer))

    asyncio.run(run())
    return asked, mirrored


def test_a_bot_in_a_worker_process_decides_as_the_same_bot_in_the_server_would() -> None:
    pool = BotPool(1)
    try:
        asked, mirrored = _play(pool, "ABCD", SEARCH, seed=7)
        assert len(asked) > 10 and asked == mirrored
        pids = asyncio.run(pool.pids())
        assert len(pids) == 1 and pids[0] != os.getpid()
    finally:
        pool.close()


def test_a_level_is_made_with_its_bot_and_budget_and_instant_bots_need_no_process() -> None:
    assert is_instant("greedy") and is_instant("random") and is_instant("medium")  # medium is greedy
    assert not is_instant("montecarlo") and not is_instant("expert") and not is_instant("easy")
    pool = BotPool(2)
    try:
        asked, mirrored = _play(pool, "EFGH", "greedy", seed=3)
        assert asked == mirrored
        assert asyncio.run(pool.pids()) == []  # greedy answered in this process: no worker started
    finally:
        pool.close()


def test_a_dead_worker_is_replaced_and_the_table_goes_on() -> None:
    async def scenario() -> None:
        pool = BotPool(1)
        try:
            game = Game(3, seed=11)
            setup, view = game.setup_view(1), game.observe(1)
            seed = bot_seed(11, 1)
            first = await pool.decide("KLMN", 1, SEARCH, seed, setup, view, "bid")
            (pid,) = await pool.pids()
            os.kill(pid, signal.SIGKILL)
            again = await pool.decide("KLMN", 1, SEARCH, seed, setup, view, "bid")
            assert again == first  # made anew from its spec and seed: the same bot, the same bid
            (new_pid,) = await pool.pids()
            assert new_pid != pid
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_tables_bots_are_kept_between_decisions_and_let_go_when_it_stops() -> None:
    async def scenario() -> None:
        pool = BotPool(1)
        try:
            game = Game(3, seed=5)
            for table in ("AAAA", "BBBB"):
                for seat in (1, 2):
                    for _ in range(2):  # asked twice, made once
                        await pool.decide(table, seat, SEARCH, bot_seed(5, seat), game.setup_view(seat),
                                          game.observe(seat), "bid")
            await pool.decide("AAAA", 0, "greedy", "s", game.setup_view(0), game.observe(0), "bid")
            assert await pool.held() == 5
            pool.forget("AAAA")
            assert await pool.held() == 2
            pool.forget("BBBB")
            assert await pool.held() == 0
        finally:
            pool.close()

    asyncio.run(scenario())


def test_tables_go_to_the_process_holding_fewest_tables_and_stay_there() -> None:
    """Two busy tables must not share a process while another idles (as they could when a table's
    process was chosen by a hash of its code); a table keeps its process while it has bots there."""
    async def scenario() -> None:
        pool = BotPool(2)
        try:
            game = Game(3, seed=5)

            async def ask(table: str) -> int:
                await pool.decide(table, 1, SEARCH, bot_seed(5, 1), game.setup_view(1), game.observe(1), "bid")
                return pool.placement[table]

            first, second = await ask("AAAA"), await ask("BBBB")
            assert {first, second} == {0, 1}
            assert len(set(await pool.pids())) == 2  # both processes think
            assert await ask("AAAA") == first  # its bots stay where they were made
            assert await ask("CCCC") == 0  # equal holdings: the lowest slot
            pool.forget("BBBB")
            assert await ask("DDDD") == second  # the freed process takes the next table
            pool.forget("never-seen")  # a table without bots in a worker: nothing to let go
            assert sorted(pool.placement) == ["AAAA", "CCCC", "DDDD"]
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_table_goes_to_the_process_holding_the_fewest_searching_bots() -> None:
    """Tables count by their searching bots: beside a table of two searching bots and one of one (a
    process each), a third table goes to the process of the one, not to the lowest slot."""
    async def scenario() -> None:
        pool = BotPool(2)
        try:
            game = Game(3, seed=5)

            async def ask(table: str, seat: int, spec: str = SEARCH) -> int:
                await pool.decide(table, seat, spec, bot_seed(5, seat), game.setup_view(seat), game.observe(seat),
                                  "bid")
                return pool.placement.get(table, -1)

            two = await ask("AAAA", 1)
            assert await ask("AAAA", 2) == two and await ask("AAAA", 1) == two  # its second bot; asked again
            one = await ask("BBBB", 1)
            assert one != two
            assert await ask("CCCC", 0, "greedy") == -1  # an instant bot needs no process
            assert await ask("DDDD", 1) == one  # 1 searching bot there, 2 in the other
            pool.forget("AAAA")
            assert await ask("EEEE", 1) == two  # the freed process: none left there
        finally:
            pool.close()

    asyncio.run(scenario())


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods() or not os.path.isdir("/proc/self"),
                    reason="needs a fork server and /proc")
def test_workers_are_forked_from_a_server_that_has_loaded_the_bots() -> None:
    """Each worker starts with the simulator and the networks loaded (and shares their memory with the
    others), where a worker spawned fresh loaded them itself on its first decision."""
    async def scenario() -> None:
        worker = WorkerProcess()
        try:
            pid = await worker.run(os.getpid)  # asked nothing about bots
            parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            assert pid != os.getpid() and parent != os.getpid()  # forked by the fork server
            assert "llvmlite" in Path(f"/proc/{pid}/maps").read_text()  # numba's compiler is loaded
            # and what it inherited is frozen, so its collections leave those pages shared
            assert await worker.run(gc.get_freeze_count) > 10_000
        finally:
            worker.close(wait=True)

    asyncio.run(scenario())


def test_the_fork_server_warm_up_plays_each_searching_level_and_never_stops_the_import() -> None:
    done = subprocess.run([sys.executable, "-c", "import minodice.server.botwarm"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_a_closed_pool_refuses_to_think() -> None:
    pool = BotPool(1)
    pool.close()
    game = Game(3, seed=1)
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(pool.decide("ZZZZ", 1, SEARCH, "s", None, game.observe(1), "bid"))
    with pytest.raises(ValueError, match="at least one process"):
        BotPool(0)


def test_at_a_server_instant_bots_decide_on_the_event_loop_and_searching_bots_in_a_worker(tmp_path,
                                                                                              monkeypatch) -> None:
    """A trip to a worker costs more than a greedy or random decision; a search must never hold the
    event loop (nor its GIL). The finished table's bots are let go."""
    where: dict[str, set[str]] = {}
    real = botpool.decide

    def watched(bot, view, what):  # only the server process's decisions pass here
        where.setdefault(bot.name, set()).add(threading.current_thread().name)
        return real(bot, view, what)

    monkeypatch.setattr(botpool, "decide", watched)

    async def scenario() -> None:
        m = TableManager(Settings(db=f"sqlite:///{tmp_path / 'instant.db'}", bot_delay=0, trick_pause=0,
                                  hand_pause=0, sweep_seconds=3600, workers=1))
        await m.startup()
        try:
            table, _host, _seat, _token = await m.create(3, [None, "greedy", "hard"], {}, "Ana")
            await table.start()
            for _ in range(4000):
                game = table.game
                assert game is not None
                if game.over:
                    break
                view = game.observe(0)
                if view.legal:
                    choice = view.legal[0]
                    await table.act(0, "bid" if isinstance(choice, int) else "roll",
                                    choice if isinstance(choice, int) else choice.value)
                else:
                    await asyncio.sleep(0.01)
            assert table.game is not None and table.game.over
            pids = await m.bots.pids()
            assert len(pids) == 1 and pids[0] != os.getpid()
            for _ in range(100):  # the game's end lets the bots go (a message to the worker)
                if await m.bots.held() == 0:
                    break
                await asyncio.sleep(0.02)
            assert await m.bots.held() == 0
        finally:
            await m.shutdown()

    asyncio.run(scenario())
    assert where == {"greedy": {"MainThread"}}


_KILLED_SERVER = """
import asyncio, os, sys
from minodice.game import Game
from minodice.server.botpool import BotPool

async def main():
    pool = BotPool(1)
    game = Game(3, seed=1)
    await pool.decide("T", 1, "hard", "s", game.setup_view(1), game.observe(1), "bid")
    print((await pool.pids())[0], flush=True)
    os.kill(os.getpid(), 9)

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_worker_ends_with_the_server_even_when_the_server_is_killed(tmp_path) -> None:
    import subprocess
    import sys
    import time

    script = tmp_path / "killed_server.py"
    script.write_text(_KILLED_SERVER)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    pid = int(done.stdout.split()[0])
    for _ in range(100):
        if not process_running(pid):
            break
        time.sleep(0.05)
    assert not process_running(pid), f"the bots' process {pid} outlived its killed server"


def test_a_bot_that_cannot_be_made_in_its_process_plays_the_first_legal_choice(caplog) -> None:
    pool = BotPool(1)
    try:
        game = Game(3, seed=2)
        view = game.observe(1)
        answer = asyncio.run(pool.decide("QQQQ", 1, "montecarlo:sims=lots", "s", None, view, "bid"))
        assert answer == view.legal[0]
        assert "could not decide: BotSpecError" in caplog.text
    finally:
        pool.close()


def test_a_dead_review_process_is_replaced_for_the_next_review() -> None:
    import random

    from minodice import record
    from minodice.server.reviews import Reviews

    def finished(seed: int) -> dict:
        game = Game(3, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        return record.from_game(game)


    async def scenario() -> None:
        reviews = Reviews(SEARCH)
        try:
            first = await reviews.of("AAAA", finished(1))
            pid = await reviews._worker.run(os.getpid)
            os.kill(pid, signal.SIGKILL)
            again = await reviews.of("BBBB", finished(1))  # the same game under another code: not cached
            assert again == first and await reviews._worker.run(os.getpid) != pid
        finally:
            reviews.close()

    asyncio.run(scenario())


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_the_default_bot_processes_follow_the_cores_this_process_may_use() -> None:
    import subprocess
    import sys

    code = ("import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
            "from minodice.server.settings import Settings; print(Settings().workers)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "1", done.stderr
    assert 1 <= Settings().workers <= 4


def test_a_bot_thinking_past_the_deadline_ends_its_process_and_the_seat_plays_on(caplog) -> None:
    async def scenario() -> None:
        pool = BotPool(1, deadline=0.3)
        try:
            game = Game(3, seed=4)
            view = game.observe(1)
            slow = "montecarlo:seconds=20"  # a budget far past the deadline
            answer = await pool.decide("SLOW", 1, slow, "s", game.setup_view(1), view, "bid")
            assert answer == view.legal[0]  # late twice: the first legal choice
            assert caplog.text.count("thought past 0.3 s") == 2
            pool.deadline = 60.0
            quick = await pool.decide("SLOW", 2, SEARCH, "s", game.setup_view(2), game.observe(2), "bid")
            assert quick in game.observe(2).legal and await pool.held() == 1  # a new process thinks on
        finally:
            pool.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(("value", "says"), [("abc", "is not a valid int"), ("0", "1<=x<=64"),
                                             ("100000", "1<=x<=64")])
def test_serve_refuses_a_bad_number_of_bot_processes_in_words(value: str, says: str) -> None:
    from typer.testing import CliRunner

    from minodice.cli import app

    result = CliRunner().invoke(app, ["serve", "--workers", value])
    assert result.exit_code == 2
    assert "--workers" in result.output and says in result.output
