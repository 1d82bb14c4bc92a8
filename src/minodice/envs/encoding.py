"""The encoding the environments speak: `minodice.encoding`, re-exported here where RL users look for it.

It lives below the bots (`minodice.encoding`) because the learned bot encodes its view the same way.
"""

from __future__ import annotations

from ..encoding import (
    DICE,
    FACES,
    MAX_HANDS,
    NUM_ACTIONS,
    NUM_BIDS,
    OBSERVATION_VERSION,
    action_mask,
    action_to_move,
    bid_action,
    describe_action,
    encode,
    encode_history,
    history_size,
    layout,
    legal_actions,
    next_bidder,
    observation_bounds,
    observation_size,
    offsets,
    roll_action,
)

__all__ = [
    "DICE",
    "FACES",
    "MAX_HANDS",
    "NUM_ACTIONS",
    "NUM_BIDS",
    "OBSERVATION_VERSION",
    "action_mask",
    "action_to_move",
    "bid_action",
    "describe_action",
    "encode",
    "encode_history",
    "history_size",
    "layout",
    "legal_actions",
    "next_bidder",
    "observation_bounds",
    "observation_size",
    "offsets",
    "roll_action",
]
