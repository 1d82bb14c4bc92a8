"""The turn-taking core the PettingZoo and Gymnasium environments share.

`Table` drives a `Game` one *action id* (see `encoding`) at a time, with bids
taken as turns in seat order from the hand's start player. Each bid goes into
the engine at once, and the engine keeps it hidden from the other seats until
every bid is in, so the sequential turns carry exactly the information of the
rulebook's simultaneous bids. Chance (the draws and the faces) comes from the
game's seeded generator: the same seed and the same actions give the same game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..dice import HANDS_BY_SEATS, MAX_SEATS, MIN_SEATS
from ..game import Bid, Game, Phase, Roll
from ..rules import RULE_OPTIONS, Rules
from ..view import View
from . import encoding as E

__all__ = ["Table", "make_rules"]


def make_rules(rules: Rules | Mapping[str, Any] | None = None, **options: Any) -> Rules:
    """`Rules` from a `Rules`, a mapping of rule options, or keyword options (ValueError if unknown)."""
    if isinstance(rules, Rules):
        if options:
            raise ValueError("give either a Rules object or rule options, not both")
        return rules
    merged: dict[str, Any] = dict(rules or {})
    merged.update(options)
    unknown = sorted(k for k in merged if k not in RULE_OPTIONS)
    if unknown:
        raise ValueError(
            f"unknown rule option(s) {', '.join(unknown)}: the options are {', '.join(RULE_OPTIONS)}"
        )
    return Rules(**merged)


def check_seats(seats: object) -> int:
    """`seats` if it is a valid number of players, else a ValueError saying what is."""
    if not isinstance(seats, int) or isinstance(seats, bool) or seats not in HANDS_BY_SEATS:
        raise ValueError(f"Mino Dice is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats!r}")
    return seats


class Table:
    """A game played through flat action ids, bids in turn from the start player."""

    def __init__(
        self,
        seats: int = 4,
        rules: Rules | None = None,
        seed: int | str | None = None,
        *,
        game: Game | None = None,
    ) -> None:
        """A new seeded game, or (`game`) drive one that exists, e.g. with external chance."""
        if game is not None:
            self.game = game
            self.seats, self.rules = game.seats, game.rules
            return
        self.seats = check_seats(seats)
        self.rules = rules or Rules()
        self.game = Game(self.seats, rules=self.rules, seed=seed)

    @property
    def over(self) -> bool:
        """True once the last hand is scored."""
        return self.game.over

    def actor(self) -> int | None:
        """The seat that acts now (the next bidder, or the seat to roll); None once over."""
        game = self.game
        if game.phase is Phase.ROLL:
            return game.turn
        if game.phase is Phase.BID:
            hand = game.log[-1]
            for k in range(self.seats):
                s = (hand.start + k) % self.seats
                if hand.bids[s] is None:
                    return s
        return None

    def view(self, seat: int) -> View:
        """`seat`'s view of the game (the engine's `observe`)."""
        return self.game.observe(seat)

    def own_bid(self, seat: int) -> int | None:
        """`seat`'s bid this hand if it has placed one (its own knowledge)."""
        return self.game.log[-1].bids[seat] if self.game.log else None

    def legal(self, seat: int) -> list[int]:
        """Action ids `seat` may take now (empty unless it is that seat's turn)."""
        if seat != self.actor():
            return []
        game = self.game
        if game.phase is Phase.BID:
            return list(range(game.hand + 1))
        return sorted(E.NUM_BIDS + a.die.index for a in game.legal_rolls(seat))

    def observation(self, seat: int) -> np.ndarray:
        """`seat`'s observation vector (`encoding.encode`)."""
        return E.encode(self.game.observe(seat), self.own_bid(seat))

    def mask(self, seat: int) -> np.ndarray:
        """`seat`'s action mask (all zeros when it is not its turn)."""
        mask = np.zeros(E.NUM_ACTIONS, np.int8)
        legal = self.legal(seat)
        if legal:
            mask[legal] = 1
        return mask

    def step(self, seat: int, action: object) -> tuple[int, ...] | None:
        """`seat` takes action id `action`; returns the hand's scores if this finished a hand.

        Raises ValueError naming the legal actions when `action` is not one of them.
        """
        if isinstance(action, np.integer):
            action = int(action)
        legal = self.legal(seat)
        if not isinstance(action, int) or isinstance(action, bool) or action not in legal:
            if not legal:
                actor = self.actor()
                who = "the game is over" if actor is None else f"it is player_{actor}'s turn"
                raise ValueError(f"player_{seat} cannot act now: {who}")
            names = ", ".join(f"{a} ({E.describe_action(a)})" for a in legal)
            raise ValueError(f"illegal action {action!r} for player_{seat}: legal actions are {names}")
        hand = self.game.log[-1]
        move = E.action_to_move(action)
        if isinstance(move, int):
            self.game.apply(Bid(seat, move))
        else:
            self.game.apply(Roll(seat, move))
        return hand.scores if hand.scores is not None else None

    def render(self) -> str:
        """The table as text, as a spectator sees it (no hidden dice, no unrevealed bids)."""
        view = self.game.observe(None)
        lines = [f"Mino Dice, hand {view.hand} of {view.hands}" + (" (game over)" if self.over else "")]
        actor = self.actor()
        trick = view.current_trick
        rolled = {r.seat: f"{r.die.value}→{r.face.value}" for r in trick.rolls} if trick else {}
        for s in range(view.seats):
            placed = view.bid_placed[s]
            bid = view.bids[s]
            bid_text = str(bid) if bid is not None else ("?" if placed else "-")
            held = view.hand - sum(1 for t in view.tricks for r in t.rolls if r.seat == s)
            marker = ">" if s == actor else " "
            lines.append(
                f"{marker} player_{s}: bid {bid_text:>2}  won {view.won[s]}  dice {held}  "
                f"total {view.totals[s]:>5}  {rolled.get(s, '')}".rstrip()
            )
        lead = view.lead_colour
        if trick is not None:
            lines.append(f"trick {len(view.tricks)}, lead colour: {lead.value if lead else 'none'}")
        return "\n".join(lines)
