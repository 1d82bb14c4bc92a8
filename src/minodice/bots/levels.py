"""Levels for people: `easy`, `medium`, `hard`, `expert`, each a bot spec with its budget.

A level is what a person picks instead of a bot (`minodice play --level`, the
web create form): the names say how hard the bots are to beat, and the order is
measured, not guessed: in 400 duplicate 4-seat games, one seat of each level
(seed 2032), each level beats the one below (the README's level table;
`minodice tournament` with the four specs reproduces it). Every spec is an
honest bot: a level never cheats.

`expert` is the learned bot's network guiding montecarlo's search: its value
head judges the bids, and the network plays the hand out to judge each die, on
deals of the hidden dice drawn by what the other seats' bids and rolls say,
each playout counting the seat's hand less the other seats' mean, so that it
plays its rolls for its lead
(`policy=network-all,bid_policy=value,roll_infer=0.2,bid_beta=0.5,rivals=1`). It leads
montecarlo at 3 and 4 seats, and is level with it or a little behind at 5 and
6. Each level beats the one below at every table size (the README's levels at
every size).

>>> [lv.name for lv in LEVELS]
['easy', 'medium', 'hard', 'expert']
>>> level_spec("medium") == LEVELS[1].spec, level_spec("greedy")
(True, 'greedy')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "Level", "find_level", "level_names", "level_spec", "summary"]


@dataclass(frozen=True)
class Level:
    """A level: its name, the bot spec playing it (with its budget), and how that bot plays (one line)."""

    name: str
    spec: str
    description: str


#: The levels, easiest first.
LEVELS: tuple[Level, ...] = (
    Level("easy", "montecarlo:sims=4,per=4,bid_sims=4,bid_per=4,policy=random,infer=0,ambition=0",
          "a glance ahead: four random playouts per choice on one guess at the hidden dice"),
    Level("medium", "greedy", "the greedy bot: bids its expected tricks, rolls to win while it needs tricks"),
    Level("hard", "montecarlo:sims=48,bid_sims=96", "montecarlo with 6 % of its playouts: a few ms a decision"),
    Level("expert", "neural+search:policy=network-all,bid_policy=value,sims=512,per=4,bid_sims=1024,bid_per=4,"
          "roll_infer=0.2,bid_beta=0.5,rivals=1",
          "the learned network guiding montecarlo's search: its value head judges the bids, and it plays out "
          "the hand to judge each die for its lead over the others, on deals drawn by what their bids and "
          "rolls say"),
)

_BY_NAME = {lv.name: lv for lv in LEVELS}


def level_names() -> tuple[str, ...]:
    """The levels' names, easiest first."""
    return tuple(_BY_NAME)


def find_level(name: str) -> Level | None:
    """The level called `name` (None: no such level)."""
    return _BY_NAME.get(name.strip())


def level_spec(name: str) -> str:
    """The bot spec of level `name`; any other name is returned as it is (a bot spec already)."""
    found = find_level(name)
    return found.spec if found is not None else name


def summary() -> str:
    """Every level with its bot, for a command's help: `easy (montecarlo:sims=8,...), medium (greedy), ...`."""
    return ", ".join(f"{lv.name} ({lv.spec})" for lv in LEVELS)
