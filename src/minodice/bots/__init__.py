"""Bots: the Bot interface, the built-in bots, and bots from a spec string.

A spec names a bot: `random`, `greedy`, or `cmd:PROGRAM ARGS` for an external
program speaking `minodice-bot/1` (see `spec/bot-protocol.md`).

>>> bot = make_bot("random", seed="game-1:seat-2")
>>> bot.name
'random'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import Bot, BotFault
from .random_bot import RandomBot

__all__ = ["BUILTIN", "Bot", "BotFault", "BotSpecError", "bot_seed", "make_bot"]


class BotSpecError(ValueError):
    """A bot spec that names no bot."""


def _no_options(name: str, options: dict[str, str]) -> None:
    if options:
        raise BotSpecError(f"the {name} bot takes no options (got {', '.join(sorted(options))})")


def _greedy(rng: random.Random, options: dict[str, str]) -> Bot:
    from .greedy import GreedyBot

    _no_options("greedy", options)
    return GreedyBot(rng)


def _random(rng: random.Random, options: dict[str, str]) -> Bot:
    _no_options("random", options)
    return RandomBot(rng)


def _montecarlo(rng: random.Random, options: dict[str, str]) -> Bot:
    from .montecarlo import MonteCarloBot, parse_budget

    try:
        opts = parse_budget(
            "montecarlo", options,
            ("sims", "per", "bid_sims", "bid_per", "seconds", "policy", "infer", "ambition"),
        )
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    return MonteCarloBot(rng, **opts)  # type: ignore[arg-type]


def _ismcts(rng: random.Random, options: dict[str, str]) -> Bot:
    from .ismcts import IsmctsBot
    from .montecarlo import parse_budget

    try:
        opts = parse_budget(
            "ismcts", options, ("sims", "per", "c", "bid_sims", "seconds", "policy", "infer", "ambition")
        )
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    return IsmctsBot(rng, **opts)  # type: ignore[arg-type]


#: Built-in bots by name, with a one-line description each.
BUILTIN: dict[str, tuple[Callable[[random.Random, dict[str, str]], Bot], str]] = {
    "random": (_random, "bids and rolls at random among the legal choices"),
    "greedy": (_greedy, "bids its expected tricks; rolls to win while it needs tricks, to lose after"),
    "montecarlo": (
        _montecarlo,
        "simulates the hand for every bid and die (options: sims=96, seconds=, policy=greedy)",
    ),
    "ismcts": (
        _ismcts,
        "information-set tree search over the rolls (options: sims=160, c=0.7, bid_sims=96, seconds=)",
    ),
}


def bot_seed(game_seed: object, seat: int) -> str:
    """The seed of the bot in `seat` of a game seeded `game_seed` (its own stream)."""
    return f"{game_seed}:bot:{seat}"


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `name:key=value,key=value` into the name and its options."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise BotSpecError(f"bot option {part!r} in {spec!r} must look like key=value")
            options[key.strip()] = value.strip()
    return name.strip(), options


def make_bot(spec: str, *, seed: object = None, timeout: float = 10.0) -> Bot:
    """The bot a spec names, with its own random stream seeded from `seed`.

    `cmd:PROGRAM ARGS` starts an external program (`timeout`: seconds per decision).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError("a bot spec must be a name such as 'greedy' or 'cmd:python3 bot.py'")
    rng = random.Random(str(seed)) if seed is not None else random.Random()
    if spec.startswith("cmd:"):
        from .external import ExternalBot

        command = spec[4:].strip()
        if not command:
            raise BotSpecError("'cmd:' needs a program to run, e.g. 'cmd:python3 mybot.py'")
        return ExternalBot(command, timeout=timeout)
    name, options = parse_spec(spec)
    if name not in BUILTIN:
        known = ", ".join(sorted(BUILTIN))
        raise BotSpecError(f"unknown bot {name!r}: choose one of {known}, or cmd:PROGRAM")
    return BUILTIN[name][0](rng, options)
