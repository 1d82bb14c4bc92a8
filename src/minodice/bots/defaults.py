"""The bots' default budgets and settings, in one light module.

`montecarlo` and `ismcts` use these values, and the bot registry
(`minodice.bots.BUILTIN`) shows them in `minodice bots`, `play --help` and
the server's bot list without importing the numba simulator.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_AMBITION",
    "DEFAULT_BID_PER",
    "DEFAULT_BID_SIMS",
    "DEFAULT_C",
    "DEFAULT_HIDDEN",
    "DEFAULT_INFER",
    "DEFAULT_ITERATIONS",
    "DEFAULT_LEAF_PER",
    "DEFAULT_NETWORK_PER",
    "DEFAULT_NETWORK_SIMS",
    "DEFAULT_PER",
    "DEFAULT_POLICY",
    "DEFAULT_RIVALS",
    "DEFAULT_SIMS",
    "DEFAULT_TABLES",
    "MAX_BUDGET_COUNT",
    "MAX_BUDGET_SECONDS",
    "MAX_NETWORK_SIMS",
    "NETWORK_POLICIES",
    "ORACLE_SIGHTS",
    "POLICIES",
    "ROLLOUT_POLICIES",
    "SHIPPED_FAMILIES",
]

#: The learned network's hidden layers (`PolicyValueNet.initial`, `TrainConfig`, `minodice train --hidden`).
DEFAULT_HIDDEN: tuple[int, ...] = (128, 128)
#: PPO's tables per update (`TrainConfig`, `minodice train --tables`): self-play, and against greedy.
DEFAULT_TABLES: tuple[int, int] = (192, 64)
#: `montecarlo`: playouts per legal die, and per determinization, when no budget is given.
DEFAULT_SIMS, DEFAULT_PER = 800, 8
#: Playouts per legal bid, and per determinization, when no budget is given (both searching bots).
DEFAULT_BID_SIMS, DEFAULT_BID_PER = 1600, 8
#: Strength of the inference from revealed bids and rolls (0: none; see `bots.inference`).
DEFAULT_INFER = 1.0
#: Points per bid (up to 2) for the bot's own better play than the playouts' (`play_correction`).
DEFAULT_AMBITION = 5.0
#: How much the other seats' mean hand score counts against the bot's own (0: its own score alone;
#: `sim.playout.seat_objective`).
DEFAULT_RIVALS = 0.0
#: `ismcts`: search iterations per roll when no budget is given.
DEFAULT_ITERATIONS = 160
#: `ismcts`: playouts at each new leaf of the tree.
DEFAULT_LEAF_PER = 4
#: `ismcts`: UCB1 exploration constant (on scores scaled to about [0, 1]).
DEFAULT_C = 0.3
#: The playout policies, the default first.
POLICIES = ("greedy", "random")
#: The default playout policy.
DEFAULT_POLICY = POLICIES[0]
#: `neural+search`: the least probability the network must give a move for the search to consider it.
DEFAULT_NEURAL_PRIOR = 0.1
#: `neural+search`: which decisions the network narrows before the search, the default first.
NEURAL_GUIDES = ("both", "bids", "rolls")
#: `neural+search`'s playout policies that use its network (`bots.network_playouts`), beside `POLICIES`.
NETWORK_POLICIES = ("network", "network-all", "value")
#: The playout policies that play the hand out to its end, so that `rivals` can count the other seats' scores
#: (`value` ends in the network's value head, which estimates the seat's own points only).
ROLLOUT_POLICIES = tuple(p for p in (*POLICIES, *NETWORK_POLICIES) if p != "value")
#: `neural+search` with a network playout policy: playouts per legal move (die or bid), and per determinization.
DEFAULT_NETWORK_SIMS, DEFAULT_NETWORK_PER = 512, 4
#: The most network playouts a move (`sims`, `bid_sims`): they run all at once, about 1.3 kB of state each.
MAX_NETWORK_SIMS = 1 << 14
#: The most any whole-number budget option of a bot spec may ask (playouts, iterations): tens of
#: seconds a decision for montecarlo, ten thousand times its default, so that no spec stalls a game.
MAX_BUDGET_COUNT = 10_000_000
#: The most a bot spec's `seconds` (time a decision) may ask.
MAX_BUDGET_SECONDS = 600.0
#: `neural+search`: the default of `guide`.
DEFAULT_NEURAL_GUIDE = NEURAL_GUIDES[0]
#: `oracle`: the decisions it takes on the true deal, the default first (the others as `montecarlo`
#: would, on its own view): so its lead can be split into what the dice are worth to bids and to rolls.
ORACLE_SIGHTS = ("both", "bids", "rolls")
#: The families of networks the package ships, one per table size each, the default first (`neural` and
#: `neural+search`'s `nets`; `bots.network` reads the files).
SHIPPED_FAMILIES = ("self-play", "expert")
