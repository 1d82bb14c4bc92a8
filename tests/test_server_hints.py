"""The server's hints (`server.hints`): the bid advisor while a seat bids, the value of each die it may
roll on its turn, each worked out once per position, in a real bot process."""

from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from minodice.bots import make_bot
from minodice.dice import Die
from minodice.game import Bid, Game, Phase, Roll
from minodice.server.botpool import BotPool
from minodice.server.hints import Hints, hint_kind


def _played_to(game: Game, hand: int, rolls: int) -> Game:
    """`game` played by greedy bots up to roll number `rolls` (0: the first) of hand `hand`."""
    bots = [make_bot("greedy", seed=s) for s in range(game.seats)]
    while not (game.hand == hand and game.phase is Phase.ROLL
               and sum(len(t.rolls) for t in game.current.tricks) == rolls):
        seat = game.to_act()[0]
        view = game.observe(seat)
        game.apply(Bid(seat, bots[seat].bid(view)) if game.phase is Phase.BID else Roll(seat, bots[seat].roll(view)))
    return game


def test_a_roll_hint_weighs_each_die_the_seat_may_roll_once_per_position() -> None:
    game = _played_to(Game(4, seed=7), hand=4, rolls=0)
    seat = game.to_act()[0]
    view = game.observe(seat)
    assert hint_kind(view) == "roll" and len(view.legal) >= 2

    async def scenario() -> None:
        threads, bots = ThreadPoolExecutor(1), BotPool(1)
        hints = Hints(threads, bots)
        try:
            answer = await hints.of("ROLL", view)
            assert answer["kind"] == "roll" and answer["seat"] == seat and answer["bot"] == "montecarlo"
            assert [c["choice"] for c in answer["choices"]] == [d.value for d in view.legal]
            assert answer["chosen"] in {d.value for d in view.legal}
            for choice in answer["choices"]:
                assert choice["samples"] > 0 and math.isfinite(choice["expected_score"]) and choice["ci95"] > 0
            # the same position asked again, twice at once: the answer already worked out
            again = await asyncio.gather(hints.of("ROLL", view), hints.of("ROLL", view))
            assert again[0] is answer and again[1] is answer
            # the seat's place in the next hand's bidding: the bid advisor for its own dice
            nxt = _played_to(game, hand=5, rolls=0)
            bidding = Game(4, seed=8).observe(2)
            bid = await hints.of("BID", bidding)
            assert bid["kind"] == "bid" and bid["dice"] == [d.value for d in bidding.dice]
            assert len(bid["bids"]) == len(bidding.dice) + 1
            waiting = nxt.observe((nxt.to_act()[0] + 1) % 4)
            assert hint_kind(waiting) is None
            with pytest.raises(ValueError, match="turn"):
                await hints.of("ROLL", waiting)
        finally:
            bots.close()
            threads.shutdown()

    asyncio.run(scenario())


def test_the_hint_kind_follows_the_decision_the_view_asks_for() -> None:
    game = Game(3, seed=1)
    assert hint_kind(game.observe(0)) == "bid"
    assert hint_kind(game.observe(None)) is None  # a spectator decides nothing
    for seat in range(3):
        game.apply(Bid(seat, 0))
    turn = game.to_act()[0]
    assert hint_kind(game.observe(turn)) == "roll"
    assert all(hint_kind(game.observe(s)) is None for s in range(3) if s != turn)
    assert isinstance(game.observe(turn).legal[0], Die)


def test_a_roll_hint_needs_the_view_of_the_seat_on_turn() -> None:
    from minodice.bots.explain import roll_hint

    game = Game(3, seed=2)
    with pytest.raises(ValueError, match="turn it is to roll"):
        roll_hint(game.observe(0))  # bidding
    for seat in range(3):
        game.apply(Bid(seat, 0))
    turn = game.to_act()[0]
    with pytest.raises(ValueError, match="turn it is to roll"):
        roll_hint(game.observe((turn + 1) % 3))
    forced = roll_hint(game.observe(turn), seed=1).to_dict()  # one die in hand 1: nothing to weigh
    assert forced["choices"] == [{"choice": forced["chosen"], "expected_score": None, "ci95": None, "samples": 0}]


def test_a_hint_whose_process_dies_is_not_kept_and_is_worked_out_anew_when_asked_again() -> None:
    """A bots' process that ends during a hint (here: its watchdog, for a deadline of 2 ms) is replaced
    and asked once more; when that one ends too the failure reaches the caller (the API answers 503
    `worker_failed`), and the next ask works the hint out again instead of repeating the failure."""
    from concurrent.futures.process import BrokenProcessPool

    game = _played_to(Game(4, seed=7), hand=4, rolls=0)
    view = game.observe(game.to_act()[0])

    async def scenario() -> None:
        threads, bots = ThreadPoolExecutor(1), BotPool(1, deadline=0.002)
        hints = Hints(threads, bots)
        try:
            with pytest.raises(BrokenProcessPool):
                await hints.of("DIES", view)
            bots.deadline = 120.0
            answer = await hints.of("DIES", view)
            assert answer["kind"] == "roll" and len(answer["choices"]) == len(view.legal)
        finally:
            bots.close()
            threads.shutdown()

    asyncio.run(scenario())


def test_a_worker_that_died_twice_is_answered_503_worker_failed_in_words() -> None:
    import json
    from concurrent.futures.process import BrokenProcessPool

    from minodice.server.api import worker_failed_handler
    from minodice.server.app import create_app

    assert create_app().exception_handlers[BrokenProcessPool] is worker_failed_handler  # every route
    reply = worker_failed_handler(None, BrokenProcessPool())  # type: ignore[arg-type]
    body = json.loads(reply.body)
    assert reply.status_code == 503 and body["detail"]["code"] == "worker_failed"
    assert "try again" in body["detail"]["message"]
