"""Analysis of positions and dice: die strength, exact odds, the bid advisor, the luck of the faces (below
bots, above the engine).

`strength` (a die's chance to win a trick) sits below `sim`, which plays its greedy
policy by it; `odds` and `advisor` sit above `sim`. This package imports nothing heavy
at import time, so `sim` may import `minodice.analysis.strength` without loading the
rest, and the command line can show the names below in its help without loading numba.
"""

from ..dice import MAX_SEATS, MIN_SEATS

__all__ = ["DEFAULT_LUCK_PLAYOUTS", "MAX_LUCK_PLAYOUTS", "MAX_OPPONENTS", "MIN_OPPONENTS", "OPPONENT_POLICIES"]

#: Opponents a die can face: one per other player (3 to 6 players).
MIN_OPPONENTS, MAX_OPPONENTS = MIN_SEATS - 1, MAX_SEATS - 1
#: Opponent policies the advisor can assume.
OPPONENT_POLICIES = ("greedy", "random")
#: `luck`: playouts that judge each face of a roll. At 256 the leads less the luck of a 4-seat duplicate
#: table spread about 5 times less in variance than the leads (1,024 gains little more;
#: benchmarks/bench_luck.py).
DEFAULT_LUCK_PLAYOUTS = 256
#: `luck`: the most playouts a face that may be asked (they are held in memory at once).
MAX_LUCK_PLAYOUTS = 1 << 16
