"""Analysis of positions and dice: die strength, exact odds, the bid advisor (below bots, above the engine)."""
