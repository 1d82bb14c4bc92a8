"""Bots: the Bot interface, the built-in bots, and bots from a spec string.

A spec names a bot: `random`, `greedy`, `montecarlo`, `ismcts` or `oracle` (a
reference that cheats, see `bots.oracle`), with options as `name:key=value,...`;
or `cmd:PROGRAM ARGS` for an external program speaking `minodice-bot/1` (see
`docs/bot-protocol.md`).

>>> bot = make_bot("random", seed="game-1:seat-2")
>>> bot.name
'random'

The registry states every bot's options with the defaults the bots use:

>>> from minodice.bots.defaults import DEFAULT_SIMS
>>> f"sims={DEFAULT_SIMS}" in BUILTIN["montecarlo"][1]
True
>>> BUILTIN.info("ismcts").usage
'sims=160, per=4, c=0.3, bid_sims=1600, infer=1, roll_infer, bid_beta, roll_net, ambition=5, policy=greedy, seconds'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..codes import quoted
from . import defaults as D
from .base import Bot, BotFault
from .random_bot import RandomBot

__all__ = [
    "BUILTIN", "CHEATS", "Bot", "BotFault", "BotInfo", "BotOption", "BotSpecError", "BuiltinBots", "bot_seed", "make_bot",
    "parse_spec",
]

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


def _budget(name: str, options: dict[str, str]) -> dict[str, Any]:
    """A searching bot's options, checked against its registered ones (BotSpecError naming the bad one).

    Each value has its option's type (`parse_budget` converts it), so they go to the bot as keywords.
    """
    from .montecarlo import parse_budget

    try:
        return parse_budget(name, options, BUILTIN.info(name).option_names)
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None


def _montecarlo(rng: random.Random, options: dict[str, str]) -> Bot:
    from .montecarlo import MonteCarloBot

    budget = _budget("montecarlo", options)
    try:
        return MonteCarloBot(rng, **budget)
    except ValueError as exc:  # a file it cannot read (`roll_net`)
        raise BotSpecError(f"montecarlo: {exc}") from None


def _ismcts(rng: random.Random, options: dict[str, str]) -> Bot:
    from .ismcts import IsmctsBot

    budget = _budget("ismcts", options)
    try:
        return IsmctsBot(rng, **budget)
    except ValueError as exc:  # a file it cannot read (`roll_net`)
        raise BotSpecError(f"ismcts: {exc}") from None


def _neural(rng: random.Random, options: dict[str, str]) -> Bot:
    from .neural import NeuralBot

    unknown = sorted(set(options) - {"weights"})
    if unknown:
        raise BotSpecError(f"the neural bot has no option {quoted(unknown[0])}: its one option is weights")
    try:
        return NeuralBot(rng, weights=options.get("weights"))
    except ValueError as exc:
        raise BotSpecError(f"neural: {exc}") from None


def _neural_search(rng: random.Random, options: dict[str, str]) -> Bot:
    from .neural import NeuralSearchBot

    rest = {k: v for k, v in options.items() if k not in ("weights", "prior", "guide", "policy", "bid_policy")}
    prior: float | None = None
    if "prior" in options:
        try:
            prior = float(options["prior"])
        except ValueError:
            prior = -1.0
        if not 0 <= prior <= 1:
            raise BotSpecError(f"neural+search: prior must be a probability from 0 to 1, not {quoted(options['prior'])}")
    policies = (*D.POLICIES, *D.NETWORK_POLICIES)
    for key in ("policy", "bid_policy"):
        if options.get(key, D.DEFAULT_POLICY) not in policies:
            raise BotSpecError(f"neural+search: {key} must be {', '.join(policies[:-1])} or {policies[-1]}, "
                               f"not {quoted(options[key])}")
    budget = _budget("neural+search", rest)  # its errors name the bot already
    try:
        return NeuralSearchBot(rng, weights=options.get("weights"), prior=prior, guide=options.get("guide"),
                               policy=options.get("policy", D.DEFAULT_POLICY), bid_policy=options.get("bid_policy"),
                               **budget)
    except ValueError as exc:
        raise BotSpecError(f"neural+search: {exc}") from None


def _oracle(rng: random.Random, options: dict[str, str]) -> Bot:
    from .oracle import OracleBot

    budget = _budget("oracle", {k: v for k, v in options.items() if k != "sees"})
    try:
        return OracleBot(rng, sees=options.get("sees"), **budget)
    except ValueError as exc:  # the bot checks `sees` itself
        raise BotSpecError(f"oracle: {exc}") from None


@dataclass(frozen=True)
class BotOption:
    """One option of a built-in bot's spec: its name, its default (None: off unless given), what it does."""

    name: str
    default: int | float | str | None
    help: str

    def __str__(self) -> str:
        """`sims=800` (an option with a default), or the bare name (one that is off unless given)."""
        if self.default is None:
            return self.name
        value = f"{self.default:g}" if isinstance(self.default, float) else str(self.default)
        return f"{self.name}={value}"


@dataclass(frozen=True)
class BotInfo:
    """A built-in bot: its spec name, how it plays (one line), its options, and the factory that makes it.

    `instant`: it decides in microseconds, with no search — a server asks it on its event loop
    rather than handing the decision to a worker process (which costs more than the decision).
    `cheats`: it sees every seat's dice (a `bots.clairvoyance.ClairvoyantBot`): a reference, never
    an opponent for people at web tables.
    """

    name: str
    plays: str
    factory: Factory
    options: tuple[BotOption, ...] = ()
    instant: bool = False
    cheats: bool = False

    @property
    def option_names(self) -> tuple[str, ...]:
        """The option names its spec accepts."""
        return tuple(o.name for o in self.options)

    @property
    def usage(self) -> str:
        """Its options with their defaults: `sims=800, per=8, ..., seconds` (empty: it takes none)."""
        return ", ".join(str(o) for o in self.options)

    @property
    def brief(self) -> str:
        """Its name with its options' defaults, and whether it cheats: `oracle (sims=800, ...) [cheats, ...]`."""
        text = f"{self.name} ({self.usage})" if self.options else self.name
        return f"{text} [{CHEATS}]" if self.cheats else text

    @property
    def help(self) -> str:
        """How it plays, and its options with their defaults (a cheating bot's help begins by saying so)."""
        text = f"{self.plays} (options: {self.usage})" if self.options else self.plays
        return f"[{CHEATS}] {text}" if self.cheats else text


class BuiltinBots(Mapping[str, tuple[Factory, str]]):
    """The built-in bots by name: (factory, one-line help); `info(name)` gives the whole entry.

    Every name, option and default shown by `minodice bots`, `play --help` and
    the server's bot list comes from here, and the defaults from
    `bots.defaults` (the values the bots use): the help cannot go stale.
    """

    def __init__(self, entries: tuple[BotInfo, ...]) -> None:
        self._entries = {e.name: e for e in entries}

    def __getitem__(self, name: str) -> tuple[Factory, str]:
        info = self._entries[name]
        return info.factory, info.help

    def info(self, name: str) -> BotInfo:
        """The registry entry of bot `name` (KeyError: no such bot)."""
        return self._entries[name]

    def factory(self, name: str) -> Factory:
        """The factory of bot `name`."""
        return self._entries[name].factory

    def summary(self) -> str:
        """Every bot with its options' defaults on one line, for a command's help."""
        return ", ".join(e.brief for e in self._entries.values())

    def names(self) -> str:
        """Every bot's name, a cheating bot's marked: `random, greedy, ..., oracle (cheats, ...)`."""
        return ", ".join(f"{e.name} ({CHEATS})" if e.cheats else e.name for e in self._entries.values())

    def honest(self) -> tuple[str, ...]:
        """The names of the bots that play fair (see only their seat's view): what people may play against."""
        return tuple(e.name for e in self._entries.values() if not e.cheats)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


#: What the help says of a bot that `cheats` (see `BotInfo`).
CHEATS = "cheats, sees every seat's dice"

#: The learned bots' network file.
_WEIGHTS = BotOption("weights", None, "a network file of `minodice train`, played at every table size, instead of the shipped ones (one per size)")

#: montecarlo's playout budget (neural+search searches with it too).
_MONTECARLO_BUDGET = (
    BotOption("sims", D.DEFAULT_SIMS, "playouts per legal die"),
    BotOption("per", D.DEFAULT_PER, "playouts per determinization"),
    BotOption("bid_sims", D.DEFAULT_BID_SIMS, "playouts per legal bid"),
    BotOption("bid_per", D.DEFAULT_BID_PER, "playouts per determinization, bidding"),
)

_SEARCH_MODEL = (
    BotOption("infer", D.DEFAULT_INFER, "trust in the other seats' bids and rolls as evidence (0: none)"),
    BotOption("roll_infer", None, "trust in their rolls apart (0: none; default: infer)"),
    BotOption("bid_beta", None,
              "model a bid as taken with odds exp(bid_beta x its expected score), not by its distance from greedy's"),
    BotOption("roll_net", None,
              "a network file of `minodice train` whose policy models their rolls, not greedy's choice "
              "(a roll then weighs its surprise x roll_infer)"),
    BotOption("ambition", D.DEFAULT_AMBITION, "points per bid for its own better play than the playouts' (0: off)"),
    BotOption("policy", D.DEFAULT_POLICY, f"the playout policy: {' or '.join(D.POLICIES)}"),
    BotOption("seconds", None, "a time budget per decision instead (not reproducible)"),
)

#: How much the others' scores count against the bot's own (montecarlo's playouts, and neural+search's where they
#: play the hand out).
_RIVALS = BotOption("rivals", D.DEFAULT_RIVALS,
                    "how much the other seats' mean hand score counts against its own (0: its own only; 1: its lead)")
_NEURAL_RIVALS = BotOption(
    "rivals", D.DEFAULT_RIVALS,
    f"{_RIVALS.help}, where its judge plays the hand out ({', '.join(D.ROLLOUT_POLICIES[:-1])} or "
    f"{D.ROLLOUT_POLICIES[-1]}): a value head estimates its own points only",
)

#: The search model's options about the other seats' evidence (the oracle has no use for them).
_EVIDENCE_OPTIONS = ("infer", "roll_infer", "bid_beta", "roll_net")

#: neural+search's playout policy: the kernel's, or its network's (`bots.network_playouts`).
_NEURAL_POLICY = BotOption(
    "policy", D.DEFAULT_POLICY,
    f"the playout policy: {' or '.join(D.POLICIES)} (the kernel's), or {', '.join(D.NETWORK_POLICIES[:-1])} or "
    f"{D.NETWORK_POLICIES[-1]} (its network's; then sims and bid_sims default to {D.DEFAULT_NETWORK_SIMS}, "
    f"per and bid_per to {D.DEFAULT_NETWORK_PER}, and seconds is refused)",
)

#: Built-in bots by name, with a one-line description and their options each.
BUILTIN = BuiltinBots((
    BotInfo("random", "bids and rolls at random among the legal choices", _random, instant=True),
    BotInfo(
        "greedy", "bids its expected tricks; rolls to win while it needs tricks, to lose after", _greedy, instant=True,
    ),
    BotInfo(
        "montecarlo", "simulates the hand for every bid and die", _montecarlo,
        (
            *_MONTECARLO_BUDGET,
            *_SEARCH_MODEL,
            _RIVALS,
        ),
    ),
    BotInfo(
        "ismcts", "information-set tree search over the rolls; bids as montecarlo", _ismcts,
        (
            BotOption("sims", D.DEFAULT_ITERATIONS, "search iterations per roll"),
            BotOption("per", D.DEFAULT_LEAF_PER, "playouts at each new leaf"),
            BotOption("c", D.DEFAULT_C, "the UCB1 exploration constant"),
            BotOption("bid_sims", D.DEFAULT_BID_SIMS, "playouts per legal bid"),
            *_SEARCH_MODEL,
        ),
    ),
    BotInfo(
        "neural", "plays the move its network, trained by self-play, finds likeliest (`minodice train`)", _neural,
        (_WEIGHTS,),
        instant=True,
    ),
    BotInfo(
        "neural+search", "montecarlo over the moves its network finds plausible", _neural_search,
        (
            BotOption("prior", D.DEFAULT_NEURAL_PRIOR, "the least probability the network gives a move searched"),
            BotOption("guide", D.DEFAULT_NEURAL_GUIDE,
                      f"the decisions the network narrows: {'/'.join(D.NEURAL_GUIDES)} (the others search every move)"),
            _WEIGHTS,
            BotOption("trust", D.DEFAULT_NEURAL_TRUST,
                      "points a move's estimate gains per unit of the network's logit for it, with policy "
                      f"{', '.join(D.NETWORK_POLICIES[:-1])} or {D.NETWORK_POLICIES[-1]} (0: the estimates alone choose)"),
            BotOption("replies", None,
                      f"a network file of `minodice train` whose likeliest moves play the other seats in the playouts "
                      f"of policy {' or '.join(D.REPLY_POLICIES)}, instead of the kernel's greedy"),
            BotOption("judge", None,
                      f"a network file whose value head judges the leaves of policy {' or '.join(D.JUDGE_POLICIES)} "
                      "instead of the search's own network (which stays the prior)"),
            *_MONTECARLO_BUDGET,
            *(_NEURAL_POLICY if o.name == "policy" else o for o in _SEARCH_MODEL),
            BotOption("bid_policy", None,
                      "the playout policy of the bids, any of policy's (default: policy's), so that bids and rolls "
                      "may be judged apart (e.g. policy=value,bid_policy=greedy bids as montecarlo)"),
            _NEURAL_RIVALS,
        ),
    ),
    BotInfo(
        "oracle", "montecarlo on the true deal: a reference showing what hidden dice cost", _oracle,
        (
            BotOption("sims", D.DEFAULT_SIMS, "playouts per legal die"),
            BotOption("per", D.DEFAULT_PER, "playouts per seed"),
            BotOption("bid_sims", D.DEFAULT_BID_SIMS, "playouts per legal bid"),
            BotOption("bid_per", D.DEFAULT_BID_PER, "playouts per seed, bidding"),
            *(o for o in _SEARCH_MODEL if o.name not in _EVIDENCE_OPTIONS),
            BotOption("sees", D.ORACLE_SIGHTS[0],
                      f"the decisions taken on the true deal: {'/'.join(D.ORACLE_SIGHTS)} (the others as montecarlo's)"),
        ),
        cheats=True,
    ),
))


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
                raise BotSpecError(f"bot option {quoted(part)} in {quoted(spec)} must look like key=value")
            options[key.strip()] = value.strip()
    return name.strip(), options


def make_bot(
    spec: str, *, seed: object = None, timeout: float = 10.0, log_dir: Path | None = None, keep_log: bool = True
) -> Bot:
    """The bot a spec names, with its own random stream seeded from `seed`.

    `cmd:PROGRAM ARGS` starts an external program (`timeout`: seconds per
    decision); its stderr goes to a log file per game in `log_dir` (default:
    the user's state directory, see `external.default_log_dir`) unless
    `keep_log` is false (then only its last lines are kept, for fault reports).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError("a bot spec must be a name such as 'greedy' or 'cmd:python3 bot.py'")
    rng = random.Random(str(seed)) if seed is not None else random.Random()
    if spec.startswith("cmd:"):
        from .external import ExternalBot

        command = spec[4:].strip()
        if not command:
            raise BotSpecError("'cmd:' needs a program to run, e.g. 'cmd:python3 mybot.py'")
        return ExternalBot(command, timeout=timeout, log_dir=log_dir, keep_log=keep_log)
    name, options = parse_spec(spec)
    if name not in BUILTIN:
        known = ", ".join(sorted(BUILTIN))
        raise BotSpecError(f"unknown bot {quoted(name)}: choose one of {known}, or cmd:PROGRAM")
    return BUILTIN.factory(name)(rng, options)
