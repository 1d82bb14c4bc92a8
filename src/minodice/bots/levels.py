"""Levels for people: `easy`, `medium`, `hard`, `expert`, each a bot spec with its budget.

A level is what a person picks instead of a bot (`minodice play --level`, the
web create form): the names say how hard the bots are to beat, and the order is
measured, not guessed: in 400 duplicate 4-seat games, one seat of each level
(seed 2032), each level beats the one below (`docs/bots.md`'s level table;
`minodice tournament` with the four specs reproduces it). Every spec is an
honest bot: a level never cheats.

`expert` is the strongest bot shipped: the search of `neural+search` with the
`expert` networks (one per table size, each after a step of expert iteration on
that search's games), whose value head judges the bids the network finds
plausible, and which plays out the hand with the network at every seat to
judge every legal die (`guide=bids`), on deals of the hidden dice drawn by
what the other seats' bids and rolls say, each playout counting the seat's
hand less the other seats' mean, so that it plays its rolls for its lead
(`nets=expert,guide=bids,policy=network-all,bid_policy=value,roll_infer=0.2,bid_beta=0.5,rivals=1`).
At 4 seats it leads three montecarlo by +13.9 ± 2.7 a game at about 47 ms a
decision (`docs/bots.md`).

>>> [lv.name for lv in LEVELS]
['easy', 'medium', 'hard', 'expert']
>>> str(find_level("hard").spec)
'montecarlo:sims=48,bid_sims=96'

A level's name is a spec too: `make_bot("expert")` makes its bot (`bots.BUILTIN.parse`).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import BUILTIN
from .spec import BotSpec

__all__ = ["LEVELS", "Level", "find_level", "level_names", "summary"]


@dataclass(frozen=True)
class Level:
    """A level: its name, the bot spec playing it (with its budget), and how that bot plays (one line)."""

    name: str
    spec: BotSpec
    description: str


#: The levels, easiest first.
LEVELS: tuple[Level, ...] = (
    Level("easy", BUILTIN.spec("montecarlo", sims=4, per=4, bid_sims=4, bid_per=4, policy="random", infer=0,
                               ambition=0),
          "a glance ahead: four random playouts per choice on one guess at the hidden dice"),
    Level("medium", BUILTIN.spec("greedy"),
          "the greedy bot: bids its expected tricks, rolls to win while it needs tricks"),
    Level("hard", BUILTIN.spec("montecarlo", sims=48, bid_sims=96),
          "montecarlo with 6 % of its playouts: a few ms a decision"),
    Level("expert", BUILTIN.spec("neural+search", nets="expert", guide="bids", policy="network-all",
                                 bid_policy="value", sims=512, per=4, bid_sims=1024, bid_per=4, roll_infer=0.2,
                                 bid_beta=0.5, rivals=1),
          "the learned network guiding montecarlo's search: its value head judges the bids it finds plausible, "
          "and it plays out the hand to judge every die for its lead over the others, on deals drawn by what "
          "their bids and rolls say"),
)

_BY_NAME = {lv.name: lv for lv in LEVELS}


def level_names() -> tuple[str, ...]:
    """The levels' names, easiest first."""
    return tuple(_BY_NAME)


def find_level(name: str) -> Level | None:
    """The level called `name` (None: no such level)."""
    return _BY_NAME.get(name.strip())


def summary() -> str:
    """Every level with its bot, for a command's help: `easy (montecarlo:sims=4,...), medium (greedy), ...`."""
    return ", ".join(f"{lv.name} ({lv.spec})" for lv in LEVELS)
