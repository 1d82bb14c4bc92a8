"""The lab's bot declarations: `neural+search-lab`, neural+search with the options that were dropped.

Declared with `minodice.bots.Option` and `BotType` as the product's bots are, and registered into
`minodice.bots.BUILTIN` by `register` (which importing `research.lab` runs). Declaring a bot imports no
simulator: the bot's module (`research.lab.search`) is imported when one is made.
"""

from __future__ import annotations

import random

from minodice.bots import BUILTIN, Bot, BotSpec, BotSpecError, BotType, Option
from minodice.bots.defaults import NETWORK_POLICIES
from minodice.codes import quoted

__all__ = ["DEFAULT_TRUST", "JUDGE_POLICIES", "LAB_SEARCH", "REPLY_POLICIES", "TYPE", "register"]

#: The lab's variant of neural+search.
LAB_SEARCH = "neural+search-lab"
#: The network policies whose other seats the kernel plays, so that `replies=FILE` may play them instead.
REPLY_POLICIES = ("network", "value")
#: The network policies that judge by a value head, so that `judge=FILE` may lend them another network's.
JUDGE_POLICIES = ("value",)
#: Points a move's estimate gains per unit of the network's logit for it (0: the estimates alone choose).
DEFAULT_TRUST = 0.0


def _or(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


#: The options neural+search-lab adds, each with the network policies it acts on and what it does there.
_NEEDS = {
    "trust": (NETWORK_POLICIES, "weighs the network's choice against the network playouts' estimates"),
    "replies": (REPLY_POLICIES, "plays the other seats where the kernel would in the network playouts"),
    "judge": (JUDGE_POLICIES, "judges the leaves of the network playouts that end in a value head"),
}
_ADDED = (
    Option("trust", "points a move's estimate gains per unit of the network's logit for it, with policy "
           f"{_or(NETWORK_POLICIES)} (0: the estimates alone choose)", "number", DEFAULT_TRUST, zero_off=True),
    Option("replies", "a network file of `minodice train` whose likeliest moves play the other seats in the "
           f"playouts of policy {' or '.join(REPLY_POLICIES)}, instead of the kernel's greedy", "file"),
    Option("judge", "a network file whose value head judges the leaves of policy "
           f"{' or '.join(JUDGE_POLICIES)} instead of the search's own network (which stays the prior)", "file"),
)


def _options() -> tuple[Option, ...]:
    """neural+search's options with the lab's after `nets` (where they stood when neural+search had them)."""
    base = BUILTIN["neural+search"].options
    at = [o.name for o in base].index("nets") + 1
    return (*base[:at], *_ADDED, *base[at:])


def _check(spec: BotSpec) -> None:
    """neural+search's checks, then the lab's: each added option needs a judge of the policies it acts on."""
    validate = BUILTIN["neural+search"].validate
    if validate is not None:
        validate(spec)
    policy = str(spec.get("policy"))
    judges = {policy, str(spec.get("bid_policy") or policy)}
    for option, (allowed, what) in _NEEDS.items():
        if spec.get(option) and not judges & set(allowed):
            raise BotSpecError("not_choice", bot=spec.name, option="policy (or bid_policy)",
                               choices=f"{_or(allowed)} with {option}, which {what}", value=quoted(policy))


def _build(rng: random.Random, spec: BotSpec) -> Bot:
    from .search import LabSearchBot

    try:
        return LabSearchBot(rng, **spec.keywords)
    except BotSpecError:
        raise
    except ValueError as exc:  # a network file it cannot read
        raise BotSpecError("unreadable_file", bot=spec.name, error=str(exc)) from None


#: neural+search-lab's declaration.
TYPE = BotType(
    LAB_SEARCH,
    "neural+search with the lab's dropped options: trust, replies and judge (research/lab)",
    _build,
    _options(),
    validate=_check,
    explains=True,
    weighs_all=BUILTIN["neural+search"].weighs_all,
)


def register() -> None:
    """Add the lab's bots to minodice's registry (once: importing `research.lab` does it)."""
    if LAB_SEARCH not in BUILTIN:
        BUILTIN.add(TYPE)
