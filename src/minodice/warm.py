"""Compile, or load from numba's cache, every kernel before someone waits for it.

numba compiles a kernel for the argument types of its first call, so the kernels are warmed here by
the calls the game makes: each searching bot's bid and roll in a hand with choices, the hints,
`advise`, the odds and the simulator. `minodice warm` runs every step (`STEPS`; `make play` and
`make serve` run it once per install); `minodice play` and `minodice tournament` run
`prepare_bots` for their own bots when it has not run, inside `preparing`, which says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .bots import make_bot
from .game import Bid, Game, Phase, Roll

__all__ = [
    "NETWORK_SEARCH",
    "NETWORK_SECONDS",
    "SEARCHERS",
    "SEARCH_SECONDS",
    "STEPS",
    "hand_with_choices",
    "prepare_bots",
    "prepare_hints",
    "prepare_seconds",
]

#: Built-in searching bots warmed besides the levels, with their defaults (`oracle`, which plays only where a
#: match shows it every seat's dice, searches with montecarlo's kernels).
SEARCHERS: tuple[str, ...] = ("montecarlo", "ismcts", "neural+search")
#: The bot whose network plays out its moves in the vector simulator (`bots.network_playouts`).
NETWORK_SEARCH = "neural+search"
#: About how long a first run compiles a searching bot's kernels (seconds, two cores: the simulator), and
#: those of the vector simulator `NETWORK_SEARCH` adds (`benchmarks/bench_first_prompt.py`).
SEARCH_SECONDS, NETWORK_SECONDS = 5.0, 10.0
#: The hand the bots are asked in: the third, three dice each, so that bids and rolls are choices.
HAND = 3


def hand_with_choices(seats: int = 4, seed: int | str = "warm-up") -> Game:
    """A game at the bidding of hand `HAND` (earlier hands played by each seat's first legal action)."""
    game = Game(seats, seed=seed)
    while not game.over and len(game.log) < HAND:
        game.apply(game.legal_actions()[0])
    return game


def _bid_and_roll(spec: str, seats: int) -> None:
    """A fresh bot of `spec` bids and rolls in `hand_with_choices`, as the hand's start player (who leads)."""
    game = hand_with_choices(seats)
    seat = game.log[-1].start
    bot = make_bot(spec, seed="warm-up")
    try:
        bot.start_game(game.setup_view(seat))
        while game.phase is Phase.BID:
            actor = game.to_act()[0]
            game.apply(Bid(seat, bot.bid(game.observe(seat))) if actor == seat else game.legal_actions()[0])
        game.apply(Roll(seat, bot.roll(game.observe(seat))))  # the start player leads the first trick
    finally:
        bot.close()


def _resolved(spec: str) -> str:
    """The bot spec `spec` names: a level's spec for a level's name, else `spec` itself."""
    from .bots.levels import find_level

    level = find_level(spec)
    return str(level.spec) if level is not None else spec.strip()


def prepare_seconds(specs: Iterable[str]) -> float:
    """About how long `prepare_bots` takes for these bots on a first run (seconds), to tell whoever waits."""
    resolved = [_resolved(s) for s in specs]
    return SEARCH_SECONDS + (NETWORK_SECONDS if any(s.startswith(NETWORK_SEARCH) for s in resolved) else 0.0)


def prepare_bots(specs: Iterable[str], seats: int = 4) -> list[tuple[str, Exception]]:
    """Compile (or load) the kernels these bots (specs, or levels' names) decide with: one bid and one roll
    of a fresh bot of each, in a game of its own (the real bots' random streams are left as they are), and
    the vector simulator for `NETWORK_SEARCH`, whose network plays out only the moves it finds plausible,
    so that one bid and one roll may not reach it. External programs are skipped. Returns the specs whose
    bot failed here, with the error: left to fail where they play."""
    failed: list[tuple[str, Exception]] = []
    for spec in dict.fromkeys(_resolved(s) for s in specs):
        if spec.startswith("cmd:"):
            continue
        try:
            _bid_and_roll(spec, seats)
            if spec.startswith(NETWORK_SEARCH):
                from .sim.positions import warmup

                warmup()
        except Exception as exc:
            failed.append((spec, exc))
    return failed


def _simulator() -> None:
    from .sim import warmup
    from .sim.positions import warmup as warm_positions

    warmup()
    warm_positions()


def _bots() -> None:
    from .bots.levels import LEVELS

    failed = prepare_bots([*(str(lv.spec) for lv in LEVELS), *SEARCHERS])
    if failed:
        raise RuntimeError("; ".join(f"{spec}: {exc}" for spec, exc in failed))


def prepare_hints() -> None:
    """Compile (or load) the bid hint's and the roll hint's kernels, by asking each once."""
    from .analysis.advisor import bid_hint
    from .bots.explain import roll_hint

    game = hand_with_choices()
    seat = game.to_act()[0]
    bid_hint(game.observe(seat))
    while game.phase is Phase.BID:
        game.apply(game.legal_actions()[0])
    roll_hint(game.observe(game.turn))


def _advise() -> None:
    from .analysis.advisor import advise
    from .dice import Die

    for opponents in ("greedy", "random"):
        advise([Die.RED, Die.GRAY], 4, opponents=opponents, seconds=0.01)


def _odds() -> None:
    from .analysis.odds import bid_odds, die_values, simulate_hands

    sample = simulate_hands(4, 1000, 0)
    bid_odds(sample)
    die_values(sample)


#: What `minodice warm` prepares, in order: (what, how).
STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("the simulator", _simulator),
    ("the bots (every level, and montecarlo, ismcts, neural+search)", _bots),
    ("the bid and roll hints", prepare_hints),
    ("the bid advisor (minodice advise)", _advise),
    ("the odds (minodice odds)", _odds),
)

