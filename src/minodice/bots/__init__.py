"""Bots: the Bot interface, the built-in bots, and bots from a spec string.

A spec names a bot: `random`, `greedy`, `montecarlo`, `ismcts` (options as
`name:key=value,...`), or `cmd:PROGRAM ARGS` for an external program speaking
`minodice-bot/1` (see `spec/bot-protocol.md`).

>>> bot = make_bot("random", seed="game-1:seat-2")
>>> bot.name
'random'

The help of the searching bots states their defaults, read from their modules:

>>> from minodice.bots.montecarlo import DEFAULT_SIMS
>>> f"sims={DEFAULT_SIMS}" in BUILTIN["montecarlo"][1]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping

from .base import Bot, BotFault
from .random_bot import RandomBot

__all__ = ["BUILTIN", "Bot", "BotFault", "BotSpecError", "BuiltinBots", "bot_seed", "make_bot"]

#: Makes a built-in bot from its random stream and its spec's options.
Factory = Callable[[random.Random, dict[str, str]], Bot]


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


_MONTECARLO_OPTIONS = ("sims", "per", "bid_sims", "bid_per", "seconds", "policy", "infer", "ambition")
_ISMCTS_OPTIONS = ("sims", "per", "c", "bid_sims", "seconds", "policy", "infer", "ambition")


def _montecarlo(rng: random.Random, options: dict[str, str]) -> Bot:
    from .montecarlo import MonteCarloBot, parse_budget

    try:
        opts = parse_budget("montecarlo", options, _MONTECARLO_OPTIONS)
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    return MonteCarloBot(rng, **opts)  # type: ignore[arg-type]


def _ismcts(rng: random.Random, options: dict[str, str]) -> Bot:
    from .ismcts import IsmctsBot
    from .montecarlo import parse_budget

    try:
        opts = parse_budget("ismcts", options, _ISMCTS_OPTIONS)
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    return IsmctsBot(rng, **opts)  # type: ignore[arg-type]


def _montecarlo_help() -> str:
    from .montecarlo import DEFAULT_BID_SIMS, DEFAULT_SIMS

    return (
        "simulates the hand for every bid and die (options: "
        f"sims={DEFAULT_SIMS}, bid_sims={DEFAULT_BID_SIMS}, seconds=, policy=greedy)"
    )


def _ismcts_help() -> str:
    from .ismcts import DEFAULT_C, DEFAULT_ITERATIONS
    from .montecarlo import DEFAULT_BID_SIMS

    return (
        "information-set tree search over the rolls (options: "
        f"sims={DEFAULT_ITERATIONS}, c={DEFAULT_C:g}, bid_sims={DEFAULT_BID_SIMS}, seconds=)"
    )


class BuiltinBots(Mapping[str, tuple[Factory, str]]):
    """The built-in bots by name: (factory, one-line help).

    A help may be given as a function, called when the help is read: the
    searching bots' help states their defaults, and their modules (which load the
    numba simulator) are imported only then, not when `minodice.bots` is.
    """

    def __init__(self, entries: dict[str, tuple[Factory, str | Callable[[], str]]]) -> None:
        self._entries = entries

    def __getitem__(self, name: str) -> tuple[Factory, str]:
        factory, blurb = self._entries[name]
        return factory, blurb if isinstance(blurb, str) else blurb()

    def factory(self, name: str) -> Factory:
        """The factory of bot `name` (without reading its help)."""
        return self._entries[name][0]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


#: Built-in bots by name, with a one-line description each.
BUILTIN = BuiltinBots({
    "random": (_random, "bids and rolls at random among the legal choices"),
    "greedy": (_greedy, "bids its expected tricks; rolls to win while it needs tricks, to lose after"),
    "montecarlo": (_montecarlo, _montecarlo_help),
    "ismcts": (_ismcts, _ismcts_help),
})


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
    return BUILTIN.factory(name)(rng, options)
