"""Shared helpers for the core tests: rule combinations, random play, external-chance tables.

The helpers are offered as fixtures (`play_random`, `external_game`, ...) so that
test modules need not import this file.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from minodice.dice import Die, Face
from minodice.game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll
from minodice.rules import RULE_OPTIONS, Rules

# Reproducible property tests: the same examples on every run and on CI, no example database.
settings.register_profile(
    "minodice",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("minodice")


@pytest.fixture(autouse=True, scope="session")
def _state_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep what the program writes to the user's state folder (bots' stderr logs) out of the real one."""
    old = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    yield
    if old is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = old

def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the `heavy` tests first: started last, one of them keeps a worker busy after the others finish."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


#: Every combination of rule options (24 tables), defaults first.
ALL_RULES: tuple[Rules, ...] = tuple(
    Rules(*combo) for combo in itertools.product(*(values for values, _ in RULE_OPTIONS.values()))
)


def random_step(game: Game, rng: random.Random) -> None:
    """Apply one uniformly chosen legal action of whoever acts now (no chance steps)."""
    game.apply(rng.choice(game.legal_actions()))


def play_random(
    seats: int = 4,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    agent_seed: int | None = None,
    steps: int | None = None,
    first_start: int = 0,
) -> Game:
    """A seeded game played by uniformly random choices (to the end, or `steps` actions)."""
    game = Game(seats, seed=seed, rules=rules, names=names, first_start=first_start)
    rng = random.Random(seed if agent_seed is None else agent_seed)
    done = 0
    while not game.over and (steps is None or done < steps):
        random_step(game, rng)
        done += 1
    return game


def deal(*rows: Sequence[str]) -> Deal:
    """A `Deal` from die names: deal(["red"], ["griffin"], ["gray"])."""
    return Deal(tuple(tuple(Die(d) for d in row) for row in rows))


def roll(game: Game, seat: int, die: str, face: str) -> None:
    """With external chance: `seat` rolls `die` and it lands on `face`."""
    game.apply(Roll(seat, Die(die)))
    game.apply(Land(Face(face)))


def bid_all(game: Game, bids: Sequence[int]) -> None:
    for seat, b in enumerate(bids):
        game.apply(Bid(seat, b))


def external_game(
    seats: int = 3,
    *,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    first_start: int = 0,
) -> Game:
    """A game whose dice and faces the test supplies (`chance=EXTERNAL`)."""
    return Game(seats, rules=rules, names=names, chance=EXTERNAL, first_start=first_start)


def play_hand_external(game: Game, rows: Sequence[Sequence[str]], bids: Sequence[int],
                       face: Callable[[Die], Face] | None = None) -> None:
    """Deal `rows`, bid `bids`, then roll the first legal die each turn, landing on `face(die)`
    (by default the die's first face) until the hand is over."""
    game.apply(deal(*rows))
    bid_all(game, bids)
    hand = game.hand
    while game.hand == hand and game.phase is Phase.ROLL:
        action = game.legal_actions()[0]
        game.apply(action)
        die = action.die  # type: ignore[union-attr]
        game.apply(Land(face(die) if face else die.faces[0]))


def snapshot(game: Game) -> tuple:
    """Everything observable about a game (all seats' views, the spectator's, the log size)."""
    views = [game.observe(s).to_dict() for s in range(game.seats)]
    return (
        views,
        game.observe(None).to_dict(),
        len(game.events),
        game.phase,
        game.turn,
        [game.held(s) for s in range(game.seats)],
        list(game.totals),
        [e.to_dict() for e in game.events],
    )


@pytest.fixture(scope="session")
def all_rules() -> tuple[Rules, ...]:
    return ALL_RULES


@pytest.fixture(scope="session")
def helpers():
    """The helper functions of this module, as one namespace."""

    class H:
        ALL_RULES = ALL_RULES
        play_random = staticmethod(play_random)
        random_step = staticmethod(random_step)
        deal = staticmethod(deal)
        roll = staticmethod(roll)
        bid_all = staticmethod(bid_all)
        external_game = staticmethod(external_game)
        play_hand_external = staticmethod(play_hand_external)
        snapshot = staticmethod(snapshot)

    return H


# --- the browser of the web tests -------------------------------------------------------------


def chromium_path() -> str | None:
    """The Chromium the web tests drive: $CHROMIUM, Debian's /usr/bin/chromium, or one on PATH."""
    for path in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if path and Path(path).exists():
            return path
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright; skipped when missing, unless CI requires it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    path = chromium_path()
    if path is None:
        reason = "no chromium found: apt-get install -y chromium (or set CHROMIUM=/path)"
        if os.environ.get("MINODICE_REQUIRE_BROWSER"):  # CI sets it: a missing browser is a failure there
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()
