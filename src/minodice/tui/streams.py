"""The random streams of a terminal game, kept in its save file so a resumed game rolls on unchanged.

A save file is a `minodice/1` record with one more top-level key, `"streams"`
(readers of records ignore it):

    "streams": {"seed": 7, "dice": "mt19937:…", "bots": {"2": "mt19937:…"}}

`seed` is the game's seed; `dice` the state of the generator that deals and
rolls (what comes next, not what came before); `bots` the state of each bot's
own generator that has moved since the bot was made (a bot whose stream has
not moved, such as `greedy`, is left out: its seed remakes it). With them,
`minodice play --resume` goes on with the very dice and bot choices the game
would have had without the break. A finished game keeps only its seed.

>>> import random
>>> rng = random.Random(5)
>>> twin = random.Random()
>>> twin.setstate(unpack(pack(rng.getstate())))
>>> twin.random() == rng.random()
True
"""

from __future__ import annotations

import base64
import binascii
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KEY", "State", "Streams", "pack", "unpack"]

#: The record's top-level key that holds the streams.
KEY = "streams"
#: The version of `random.Random` states this module reads and writes.
_VERSION = 3
_WORDS = 625  # the Mersenne Twister's 624 words and its position
_TAG = "mt19937:"
_SEAT_KEYS = frozenset("012345")

#: A `random.Random` state, as `getstate()` returns it.
State = tuple[Any, ...]


def pack(state: State) -> str:
    """A `random.Random` state as short text: "mt19937:" and its 625 words in base64."""
    version, words, gauss = state
    if version != _VERSION or len(words) != _WORDS:
        raise ValueError(f"not a Mersenne Twister state of version {_VERSION}")
    text = _TAG + base64.b64encode(struct.pack(f"<{_WORDS}I", *words)).decode("ascii")
    return text if gauss is None else f"{text}:{float(gauss)!r}"


def unpack(text: object) -> State:
    """The `random.Random` state `pack` wrote; ValueError (in words) if `text` is not one."""
    if not isinstance(text, str) or not text.startswith(_TAG):
        raise ValueError("a random state must be text starting with " + repr(_TAG))
    body, _, gauss = text[len(_TAG):].partition(":")
    try:
        raw = base64.b64decode(body, validate=True)
        words = struct.unpack(f"<{_WORDS}I", raw)
        gauss_next = float(gauss) if gauss else None
    except (binascii.Error, struct.error, ValueError):
        raise ValueError("a random state is damaged (it does not decode to 625 words)") from None
    if words[-1] > _WORDS - 1:
        raise ValueError("a random state is damaged (its position is out of range)")
    return (_VERSION, words, gauss_next)


@dataclass
class Streams:
    """What continues a game's randomness: its seed, the dice generator and the bots' generators."""

    seed: int
    dice: State | None = None
    bots: dict[int, State] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The `"streams"` value of a save file."""
        out: dict[str, Any] = {"seed": self.seed}
        if self.dice is not None:
            out["dice"] = pack(self.dice)
        if self.bots:
            out["bots"] = {str(s): pack(state) for s, state in sorted(self.bots.items())}
        return out

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Streams | None:
        """The streams a save file carries (None if it has none); ValueError in words if they are damaged."""
        data = record.get(KEY)
        if data is None:
            return None
        if not isinstance(data, dict):
            raise ValueError(f'its "{KEY}" is not an object')
        seed = data.get("seed")
        if type(seed) is not int:
            raise ValueError(f'its "{KEY}" has no whole-number "seed"')
        bots = data.get("bots", {})
        if not isinstance(bots, dict) or not all(k in _SEAT_KEYS for k in bots):
            raise ValueError(f'its "{KEY}" has "bots" that are not keyed by seat number')
        dice = data.get("dice")
        return cls(seed, None if dice is None else unpack(dice), {int(k): unpack(v) for k, v in bots.items()})
