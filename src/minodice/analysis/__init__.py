"""Analysis of positions and dice: die strength, exact odds, the bid advisor (below bots, above the engine).

`strength` (a die's chance to win a trick) sits below `sim`, which plays its greedy
policy by it; `odds` and `advisor` sit above `sim`. This package imports nothing at
import time, so `sim` may import `minodice.analysis.strength` without loading the rest.
"""
