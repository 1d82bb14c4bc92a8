"""Bots: the Bot interface, the built-in bots, and bots from a spec.

A spec names a bot: `random`, `greedy`, `montecarlo`, `ismcts`, `neural`,
`neural+search` or `oracle` (a reference that cheats, see `bots.oracle`), with
options as `name:key=value,...`; a level (`easy` … `expert`, `bots.levels`);
or `cmd:PROGRAM ARGS` for an external program speaking `minodice-bot/1` (see
`docs/bot-protocol.md`). Every option is declared once, here (`bots.spec`):
`BUILTIN.parse` reads a spec, checking each value and the bot's options
together, and `make_bot` makes the bot.

>>> bot = make_bot("random", seed="game-1:seat-2")
>>> bot.name
'random'

The registry states every bot's options with the defaults the bots use:

>>> from minodice.bots.defaults import DEFAULT_SIMS
>>> f"sims={DEFAULT_SIMS}" in BUILTIN["montecarlo"].usage
True
>>> BUILTIN.info("ismcts").usage
'sims=160, per=4, c=0.3, bid_sims=1600, infer=1, roll_infer, bid_beta, roll_net, ambition=5, policy=greedy, seconds'
>>> str(parse_spec("montecarlo:sims=200,sims=300"))
Traceback (most recent call last):
...
minodice.bots.spec.BotSpecError: montecarlo: option sims is given twice: give each option once
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from . import defaults as D
from .base import Bot, BotFault
from .random_bot import RandomBot
from .spec import CHEATS, BotSpec, BotSpecError, BotType, BotTypes, ExternalSpec, Option

__all__ = [
    "BUILTIN", "CHEATS", "Bot", "BotFault", "BotSpec", "BotSpecError", "BotType", "BotTypes", "ExternalSpec",
    "Option", "bot_seed", "make_bot", "parse_spec",
]


def _unreadable(name: str, exc: ValueError) -> BotSpecError:
    """A bot that could not be made from a checked spec: a file it names cannot be read."""
    return BotSpecError("unreadable_file", bot=name, error=str(exc))


def _greedy(rng: random.Random, spec: BotSpec) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(rng)


def _random(rng: random.Random, spec: BotSpec) -> Bot:
    return RandomBot(rng)


def _montecarlo(rng: random.Random, spec: BotSpec) -> Bot:
    from .montecarlo import MonteCarloBot

    try:
        return MonteCarloBot(rng, **spec.keywords)
    except ValueError as exc:  # a file it cannot read (`roll_net`)
        raise _unreadable(spec.name, exc) from None


def _ismcts(rng: random.Random, spec: BotSpec) -> Bot:
    from .ismcts import IsmctsBot

    try:
        return IsmctsBot(rng, **spec.keywords)
    except ValueError as exc:  # a file it cannot read (`roll_net`)
        raise _unreadable(spec.name, exc) from None


def _neural(rng: random.Random, spec: BotSpec) -> Bot:
    from .neural import NeuralBot

    try:
        return NeuralBot(rng, **spec.keywords)
    except ValueError as exc:
        raise _unreadable(spec.name, exc) from None


def _neural_search(rng: random.Random, spec: BotSpec) -> Bot:
    from .neural import NeuralSearchBot

    try:
        return NeuralSearchBot(rng, **spec.keywords)
    except ValueError as exc:
        raise _unreadable(spec.name, exc) from None


def _oracle(rng: random.Random, spec: BotSpec) -> Bot:
    from .oracle import OracleBot

    return OracleBot(rng, **spec.keywords)


def _judges(spec: BotSpec) -> tuple[tuple[str, str], tuple[str, str]]:
    """neural+search's two judges, each with the option that set it: (option, policy) of its rolls and its bids."""
    policy = str(spec.get("policy"))
    bid_policy = spec.get("bid_policy")
    return ("policy", policy), ("policy" if bid_policy is None else "bid_policy", str(bid_policy or policy))


def _check_neural_search(spec: BotSpec) -> None:
    """neural+search's options together: a network judge takes playouts, not seconds, and at most
    `MAX_NETWORK_SIMS` a move; `rivals` needs a judge that plays the hand out."""
    _check_network(spec)
    judges = _judges(spec)
    policies = {p for _, p in judges}
    for key, policy in judges:
        if policy in D.NETWORK_POLICIES and spec.get("seconds") is not None:
            raise BotSpecError("network_seconds", bot=spec.name, option=key, policy=policy)
    if spec.get("rivals") and not policies & set(D.ROLLOUT_POLICIES):
        which = "policy=value ends" if spec.get("bid_policy") is None else "policy and bid_policy=value end"
        raise BotSpecError("rivals_value_head", bot=spec.name, which=which, rollouts=_or(D.ROLLOUT_POLICIES))
    for (key, policy), budget in zip(judges, ("sims", "bid_sims")):
        sims = spec.get(budget) if budget in spec.given else D.DEFAULT_NETWORK_SIMS
        if policy in D.NETWORK_POLICIES and int(sims or 0) > D.MAX_NETWORK_SIMS:
            raise BotSpecError("network_sims", bot=spec.name, option=key, policy=policy,
                               most=f"{D.MAX_NETWORK_SIMS:,}", sims=f"{int(sims or 0):,}")


def _or(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _count(name: str, default: int, help: str) -> Option:
    """A whole-number budget: positive, at most `MAX_BUDGET_COUNT` (so that no spec stalls a game)."""
    return Option(name, help, "whole", default, high=D.MAX_BUDGET_COUNT)


def _share(name: str, default: float | None, help: str) -> Option:
    """A real number of 0 or more, 0 meaning off."""
    return Option(name, help, "number", default, zero_off=True)


def _network_file(name: str, help: str) -> Option:
    return Option(name, help, "file")


#: The learned bots' network file.
_WEIGHTS = _network_file(
    "weights", "a network file of `minodice train`, played at every table size, instead of the shipped ones (one per size)")
#: Which of the shipped networks they play (`bots.network.SHIPPED_FAMILIES`; a light copy of its names here).
_NETS = Option(
    "nets", "the shipped networks it plays, one per table size: self-play (trained by PPO in self-play) or expert "
    "(those after a step of expert iteration on neural+search's games)", "choice", D.SHIPPED_FAMILIES[0],
    choices=D.SHIPPED_FAMILIES)


def _check_network(spec: BotSpec) -> None:
    """`weights` names the one network it plays: a family of shipped ones (`nets`) goes with it not."""
    if spec.get("weights") is not None and "nets" in spec.given:
        raise BotSpecError("weights_and_nets", bot=spec.name)

#: montecarlo's playout budget (neural+search searches with it too).
_MONTECARLO_BUDGET = (
    _count("sims", D.DEFAULT_SIMS, "playouts per legal die"),
    _count("per", D.DEFAULT_PER, "playouts per determinization"),
    _count("bid_sims", D.DEFAULT_BID_SIMS, "playouts per legal bid"),
    _count("bid_per", D.DEFAULT_BID_PER, "playouts per determinization, bidding"),
)

_SECONDS = Option("seconds", "a time budget per decision instead (not reproducible)", "number",
                  high=D.MAX_BUDGET_SECONDS)
_AMBITION = _share("ambition", D.DEFAULT_AMBITION, "points per bid for its own better play than the playouts' (0: off)")
_POLICY = Option("policy", f"the playout policy: {' or '.join(D.POLICIES)}", "choice", D.DEFAULT_POLICY,
                 choices=D.POLICIES)

_SEARCH_MODEL = (
    _share("infer", D.DEFAULT_INFER, "trust in the other seats' bids and rolls as evidence (0: none)"),
    _share("roll_infer", None, "trust in their rolls apart (0: none; default: infer)"),
    Option("bid_beta",
           "model a bid as taken with odds exp(bid_beta x its expected score), not by its distance from greedy's",
           "number"),
    _network_file("roll_net", "a network file of `minodice train` whose policy models their rolls, not greedy's "
                  "choice (a roll then weighs its surprise x roll_infer)"),
    _AMBITION,
    _POLICY,
    _SECONDS,
)

#: How much the others' scores count against the bot's own (montecarlo's playouts, and neural+search's where they
#: play the hand out).
_RIVALS = _share("rivals", D.DEFAULT_RIVALS,
                 "how much the other seats' mean hand score counts against its own (0: its own only; 1: its lead)")
_NEURAL_RIVALS = _share(
    "rivals", D.DEFAULT_RIVALS,
    f"{_RIVALS.help}, where its judge plays the hand out ({_or(D.ROLLOUT_POLICIES)}): "
    "a value head estimates its own points only",
)

#: neural+search's playout policies: the kernel's, or its network's (`bots.network_playouts`).
_NEURAL_POLICIES = (*D.POLICIES, *D.NETWORK_POLICIES)
_NEURAL_POLICY = Option(
    "policy",
    f"the playout policy: {' or '.join(D.POLICIES)} (the kernel's), or {_or(D.NETWORK_POLICIES)} "
    f"(its network's; then sims and bid_sims default to {D.DEFAULT_NETWORK_SIMS}, "
    f"per and bid_per to {D.DEFAULT_NETWORK_PER}, and seconds is refused)",
    "choice", D.DEFAULT_POLICY, choices=_NEURAL_POLICIES,
)

#: Built-in bots by name, with a one-line description and their options each.
BUILTIN = BotTypes((
    BotType("random", "bids and rolls at random among the legal choices", _random, instant=True),
    BotType(
        "greedy", "bids its expected tricks; rolls to win while it needs tricks, to lose after", _greedy, instant=True,
    ),
    BotType(
        "montecarlo", "simulates the hand for every bid and die", _montecarlo,
        (*_MONTECARLO_BUDGET, *_SEARCH_MODEL, _RIVALS),
        explains=True,
    ),
    BotType(
        "ismcts", "information-set tree search over the rolls; bids as montecarlo", _ismcts,
        (
            _count("sims", D.DEFAULT_ITERATIONS, "search iterations per roll"),
            _count("per", D.DEFAULT_LEAF_PER, "playouts at each new leaf"),
            Option("c", "the UCB1 exploration constant", "number", D.DEFAULT_C),
            _count("bid_sims", D.DEFAULT_BID_SIMS, "playouts per legal bid"),
            *_SEARCH_MODEL,
        ),
        explains=True,
    ),
    BotType(
        "neural", "plays the move its network, trained by self-play, finds likeliest (`minodice train`)", _neural,
        (_WEIGHTS, _NETS),
        validate=_check_network,
        instant=True,
    ),
    BotType(
        "neural+search", "montecarlo over the moves its network finds plausible", _neural_search,
        (
            Option("prior", "the least probability the network gives a move searched", "number",
                   D.DEFAULT_NEURAL_PRIOR, low_inclusive=True, high=1.0),
            Option("guide", f"the decisions the network narrows: {'/'.join(D.NEURAL_GUIDES)} (the others search "
                   "every move)", "choice", D.DEFAULT_NEURAL_GUIDE, choices=D.NEURAL_GUIDES),
            _WEIGHTS,
            _NETS,
            *_MONTECARLO_BUDGET,
            *(_NEURAL_POLICY if o.name == "policy" else o for o in _SEARCH_MODEL),
            Option("bid_policy", "the playout policy of the bids, any of policy's (default: policy's), so that bids "
                   "and rolls may be judged apart (e.g. policy=value,bid_policy=greedy bids as montecarlo)",
                   "choice", choices=_NEURAL_POLICIES),
            _NEURAL_RIVALS,
        ),
        validate=_check_neural_search,
        explains=True,
        weighs_all=lambda spec: spec.get("prior") == 0,  # else its network leaves out the moves it finds implausible
    ),
    BotType(
        "oracle", "montecarlo on the true deal: a reference showing what hidden dice cost", _oracle,
        (
            _count("sims", D.DEFAULT_SIMS, "playouts per legal die"),
            _count("per", D.DEFAULT_PER, "playouts per seed"),
            _count("bid_sims", D.DEFAULT_BID_SIMS, "playouts per legal bid"),
            _count("bid_per", D.DEFAULT_BID_PER, "playouts per seed, bidding"),
            _AMBITION,
            _POLICY,
            _SECONDS,
            Option("sees", f"the decisions taken on the true deal: {'/'.join(D.ORACLE_SIGHTS)} (the others as "
                   "montecarlo's)", "choice", D.ORACLE_SIGHTS[0], choices=D.ORACLE_SIGHTS),
        ),
        cheats=True,
        explains=True,
    ),
))


def _levels() -> Mapping[str, BotSpec]:
    """The levels by name (`bots.levels`), which a spec may name instead of a bot."""
    from .levels import LEVELS

    return {lv.name: lv.spec for lv in LEVELS}


BUILTIN.alias(_levels)


def bot_seed(game_seed: object, seat: int) -> str:
    """The seed of the bot in `seat` of a game seeded `game_seed` (its own stream)."""
    return f"{game_seed}:bot:{seat}"


def parse_spec(spec: str) -> BotSpec | ExternalSpec:
    """The spec `spec` names, every option checked (`BotTypes.parse`; BotSpecError in words)."""
    return BUILTIN.parse(spec)


def make_bot(
    spec: str | BotSpec | ExternalSpec, *, seed: object = None, timeout: float = 10.0, log_dir: Path | None = None,
    keep_log: bool = True,
) -> Bot:
    """The bot a spec names (text is parsed first: a level's name gives its bot), with its own random stream
    seeded from `seed`.

    `cmd:PROGRAM ARGS` starts an external program (`timeout`: seconds per
    decision); its stderr goes to a log file per game in `log_dir` (default:
    the user's state directory, see `external.default_log_dir`) unless
    `keep_log` is false (then only its last lines are kept, for fault reports).
    """
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if isinstance(parsed, ExternalSpec):
        from .external import ExternalBot

        return ExternalBot(parsed.command, timeout=timeout, log_dir=log_dir, keep_log=keep_log)
    if not isinstance(parsed, BotSpec):
        raise BotSpecError("spec_empty")
    rng = random.Random(str(seed)) if seed is not None else random.Random()
    return BUILTIN.info(parsed.name).build(rng, parsed)
