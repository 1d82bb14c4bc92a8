"""`random`: bids and rolls uniformly among the legal choices (a baseline)."""

from __future__ import annotations

from ..dice import Die
from ..view import View
from .base import Bot


class RandomBot(Bot):
    """Chooses uniformly at random among the legal answers."""

    name = "random"

    def bid(self, view: View) -> int:
        return self.rng.choice(view.legal_bids)

    def roll(self, view: View) -> Die:
        return self.rng.choice(view.legal_dice)
