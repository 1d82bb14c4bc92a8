"""Learn from your games: every decision of a recorded game judged against a searching bot
(`minodice analyze`, the terminal game's `review`, the web's replay page).

>>> LABELS
('forced', 'fine', 'inaccuracy', 'mistake', 'blunder')
>>> label_of(0.4), label_of(6.0)
('fine', 'mistake')
"""

from __future__ import annotations

from .analyze import (
    DEFAULT_BOT,
    FORMAT,
    LABELS,
    THRESHOLDS,
    Alternative,
    Analysis,
    Decision,
    HandReview,
    SeatReview,
    analyze,
    label_of,
)

__all__ = [
    "DEFAULT_BOT",
    "FORMAT",
    "LABELS",
    "THRESHOLDS",
    "Alternative",
    "Analysis",
    "Decision",
    "HandReview",
    "SeatReview",
    "analyze",
    "label_of",
]
