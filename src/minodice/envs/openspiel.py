"""Mino Dice as an OpenSpiel game: importing this module registers ``python_mino_dice``.

>>> import pyspiel
>>> import minodice.envs.openspiel  # registers the game
>>> game = pyspiel.load_game("python_mino_dice", {"players": 3, "scoring": "landlubber"})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Parameters: ``players`` (3 to 6) and the rule options ``scoring``,
``all_specials``, ``all_flags``, ``hand_start`` (`minodice.rules.RULE_OPTIONS`).

The game is sequential, with explicit chance:

- *draws*: at the start of hand n, chance draws the seats' dice one at a time
  (seat 0's n dice, then seat 1's, …), outcome ``die.index`` (0..6) with
  probability proportional to the dice of that kind still in the bag;
- *bids*: each seat in turn from the hand's start player picks a bid action;
  a bid is hidden from the other seats until all are in (their information
  states do not change), which is the rulebook's simultaneous bidding;
- *rolls*: the seat to roll picks a die kind; chance then picks the face,
  outcome ``7 + face.index`` (7..17), with the face's share of the die's six.

Player actions are the flat ids of `minodice.envs.encoding` (0..8 bid, 9..15
roll a die kind). Rewards are the points scored in a hand, given when it is
scored; returns are the running totals. Observation and information-state
tensors are `encoding.encode` (plus `encoding.encode_history` for the
information state); the information-state string has perfect recall.

`resample_from_infostate` builds a state the acting seat cannot tell from the
real one: the other seats' unrolled dice are dealt afresh from the dice it has
not seen (never a colour a seat has shown it lacks) and bids placed but not
yet revealed are drawn uniformly, which lets OpenSpiel's ISMCTS bot
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``) play the game. The
resampled state keeps the real state's action history (OpenSpiel keeps it in
C++): do not serialize a resampled state.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from ..extras import require

require("rl", "pyspiel")  # a missing library is named with its extra

import numpy as np
import pyspiel

from ..dice import BAG_COUNTS, HANDS_BY_SEATS, MAX_SEATS, MIN_SEATS
from ..game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll
from ..rules import RULE_OPTIONS, Rules, hand_score_bounds
from . import encoding as E

__all__ = ["GAME_NAME", "MinoDiceGame", "MinoDiceObserver", "MinoDiceState", "game_info"]

#: The short name this module registers.
GAME_NAME = "python_mino_dice"
#: Chance outcome ids: a drawn die kind (0..6), then a landed face (7..17).
DRAW_OFFSET = 0
LAND_OFFSET = len(E.DICE)
NUM_CHANCE_OUTCOMES = LAND_OFFSET + len(E.FACES)
_DEFAULTS: dict[str, Any] = {"players": 4} | {k: v[0][0] for k, v in RULE_OPTIONS.items()}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Mino Dice",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=MAX_SEATS,
    min_num_players=MIN_SEATS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def game_info(seats: int, rules: Rules) -> pyspiel.GameInfo:
    """OpenSpiel's GameInfo for `seats` players (utility bounds: each hand's `rules.hand_score_bounds`, summed).

    >>> info = game_info(4, Rules())
    >>> info.min_utility, info.max_utility
    (-360.0, 1440.0)
    """
    hands = HANDS_BY_SEATS[seats]
    dice = hands * (hands + 1) // 2  # dice each seat rolls in a game
    bounds = [hand_score_bounds(n, seats, rules) for n in range(1, hands + 1)]  # hand n: n dice
    return pyspiel.GameInfo(
        num_distinct_actions=E.NUM_ACTIONS,
        max_chance_outcomes=NUM_CHANCE_OUTCOMES,
        num_players=seats,
        min_utility=float(sum(lo for lo, _ in bounds)),
        max_utility=float(sum(hi for _, hi in bounds)),
        utility_sum=None,
        max_game_length=seats * (hands + dice),  # bids and rolls
    )


def _rules_from(params: dict[str, Any]) -> tuple[int, Rules]:
    seats = params.get("players", 4)
    if not isinstance(seats, int) or seats not in HANDS_BY_SEATS:
        raise ValueError(f"python_mino_dice: players must be {MIN_SEATS} to {MAX_SEATS}, not {seats!r}")
    unknown = sorted(k for k in params if k != "players" and k not in RULE_OPTIONS)
    if unknown:
        raise ValueError(f"python_mino_dice: unknown parameter(s) {', '.join(unknown)}")
    return seats, Rules(**{k: params[k] for k in RULE_OPTIONS if k in params})


class MinoDiceGame(pyspiel.Game):
    """The game: its parameters, its size, and a factory of states and observers."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.seats, self.rules = _rules_from({**_DEFAULTS, **params})
        super().__init__(_GAME_TYPE, game_info(self.seats, self.rules), params)
        self.hands = HANDS_BY_SEATS[self.seats]

    def new_initial_state(self) -> MinoDiceState:
        """A game before the first draw (a chance node)."""
        return MinoDiceState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Draws plus landings over a whole game."""
        dice = self.hands * (self.hands + 1) // 2
        return 2 * self.seats * dice

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> MinoDiceObserver:
        """An observer: perfect recall gives the information state, else the observation."""
        return MinoDiceObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.seats, params
        )


class _Core:
    """The Python-side state in one object, so OpenSpiel's clone (a deepcopy) stays cheap."""

    __slots__ = ("draws", "game", "rewards")

    def __init__(self, game: Game, draws: list[int], rewards: list[float]) -> None:
        self.game = game
        self.draws = draws
        self.rewards = rewards

    def __deepcopy__(self, memo: dict) -> _Core:
        return _Core(self.game.clone(EXTERNAL), list(self.draws), list(self.rewards))

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game, "draws": self.draws, "rewards": self.rewards}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.game, self.draws, self.rewards = data["game"], data["draws"], data["rewards"]


class MinoDiceState(pyspiel.State):
    """A state of the game; the engine `Game` (external chance) does the rules."""

    def __init__(self, game: MinoDiceGame) -> None:
        super().__init__(game)
        engine = Game(game.seats, rules=game.rules, chance=EXTERNAL)
        self._core = _Core(engine, [], [0.0] * game.seats)

    # --- who moves ---------------------------------------------------------------------

    @property
    def engine(self) -> Game:
        """The minodice `Game` behind this state (host knowledge: every seat's dice)."""
        return self._core.game

    def current_player(self) -> int:
        """The seat to act, or CHANCE, or TERMINAL."""
        game = self._core.game
        phase = game.phase
        if phase is Phase.ROLL:
            return game.turn
        if phase is Phase.BID:
            hand = game.log[-1]
            n = game.seats
            for k in range(n):
                s = (hand.start + k) % n
                if hand.bids[s] is None:
                    return s
        if phase is Phase.OVER:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE

    def is_terminal(self) -> bool:
        """True once the last hand is scored."""
        return self._core.game.phase is Phase.OVER

    def _legal_actions(self, player: int) -> list[int]:
        """Legal action ids of `player` (sorted): bids 0..n, or the dice it may roll."""
        game = self._core.game
        if game.phase is Phase.BID:
            return list(range(game.hand + 1))
        return sorted(E.NUM_BIDS + a.die.index for a in game.legal_rolls(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcomes and probabilities of the chance node: a die drawn, or a face landed."""
        game = self._core.game
        if game.phase is Phase.LAND:
            return [(LAND_OFFSET + a.face.index, p) for a, p in game.chance_outcomes()]
        left = Counter(BAG_COUNTS)
        for d in self._core.draws:
            left[E.DICE[d]] -= 1
        total = sum(left.values())
        return [(DRAW_OFFSET + d.index, left[d] / total) for d in E.DICE if left[d] > 0]

    # --- acting ------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or a player's action id."""
        core = self._core
        game = core.game
        hand = game.log[-1] if game.log else None
        phase = game.phase
        if phase is Phase.BID or phase is Phase.ROLL:
            # Rewards are read at decision nodes (OpenSpiel's convention): those of a
            # hand scored by a chance outcome last through the next hand's draws.
            core.rewards = [0.0] * game.seats
        if phase is Phase.DEAL:
            core.draws.append(action - DRAW_OFFSET)
            each = game.hand + 1
            if len(core.draws) == each * game.seats:
                dice = [E.DICE[d] for d in core.draws]
                core.draws = []
                game.apply(Deal(tuple(tuple(dice[s * each : (s + 1) * each]) for s in range(game.seats))))
            return
        if phase is Phase.LAND:
            game.apply(Land(E.FACES[action - LAND_OFFSET]))
        else:
            seat = self.current_player()
            move = E.action_to_move(action)
            game.apply(Bid(seat, move) if isinstance(move, int) else Roll(seat, move))
        if phase is Phase.LAND and hand is not None and hand.scores is not None:
            core.rewards = [float(p) for p in hand.scores]

    def _action_to_string(self, player: int, action: int) -> str:
        """'bid 2', 'roll red', 'draw griffin' or 'land 7'."""
        if player == pyspiel.PlayerId.CHANCE:
            if action >= LAND_OFFSET:
                return f"land {E.FACES[action - LAND_OFFSET].value}"
            return f"draw {E.DICE[action - DRAW_OFFSET].value}"
        return E.describe_action(action)

    def rewards(self) -> list[float]:
        """Points of the hand scored since the last player action (else zeros).

        A hand is scored by a chance outcome (the last face landing); its points
        stay here through the next hand's draws, until a player acts.
        """
        return list(self._core.rewards)

    def returns(self) -> list[float]:
        """Each seat's total so far (its final score once the game is over)."""
        return [float(t) for t in self._core.game.totals]

    # --- information -------------------------------------------------------------------

    def info_string(self, player: int, private: bool = True) -> str:
        """Everything `player` knows, with perfect recall (the information-state string).

        `private` False leaves out what only `player` knows (its dice, its unrevealed bid).
        """
        game = self._core.game
        parts = [f"p{player}"]
        for h in game.log:
            own_dice = ",".join(sorted(d.value for d in h.dice[player])) if private else "?"
            parts.append(f"|h{h.number} s{h.start} d:{own_dice}")
            if None not in h.bids:
                parts.append("b:" + ",".join(str(b) for b in h.bids))
            else:
                placed = "".join("x" if b is not None else "." for b in h.bids)
                own = h.bids[player] if private else None
                parts.append(f"placed:{placed}" + (f" own:{own}" if own is not None else ""))
            for t in h.tricks:
                parts.append("t:" + " ".join(f"{s}{d.value}={f.value}" for s, d, f in t.rolls))
        rolling = game.rolling  # set exactly while the phase is LAND
        if rolling is not None:
            parts.append(f"rolling:{game.turn}{rolling.value}")
        if self._core.draws and private:
            each = game.hand + 1
            mine = self._core.draws[player * each : (player + 1) * each]
            parts.append("drawing:" + ",".join(sorted(E.DICE[d].value for d in mine)))
        return " ".join(parts)

    def observation_text(self, player: int, private: bool = True) -> str:
        """What `player` sees now (no memory of earlier tricks beyond the counts).

        `private` False leaves out what only `player` knows (its dice, its unrevealed bid).
        """
        game = self._core.game
        view = game.observe(player)
        own = game.log[-1].bids[player] if game.log and private else None
        dice = ",".join(d.value for d in view.dice) if private else "?"
        bids = [
            str(b) if b is not None else ("own " + str(own) if s == player and own is not None else "?")
            for s, b in enumerate(view.bids)
        ]
        trick = view.current_trick
        rolls = " ".join(f"{r.seat}{r.die.value}={r.face.value}" for r in trick.rolls) if trick else ""
        lead = view.lead_colour
        return (
            f"p{player} hand {view.hand} dice:{dice} "
            f"bids:{','.join(bids)} won:{','.join(map(str, view.won))} trick:[{rolls}] "
            f"lead:{lead.value if lead else '-'} totals:{','.join(map(str, view.totals))}"
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> MinoDiceState:
        """A state with `player_id`'s information state, the rest sampled (see the module docstring).

        `probability_sampler` (OpenSpiel's uniform sampler) seeds the sample; a
        `random.Random` may be given instead.
        """
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        elif probability_sampler is not None:
            rng = random.Random(int(probability_sampler() * 2**53))
        else:
            rng = random.Random()
        game = self._core.game
        if game.phase not in (Phase.BID, Phase.ROLL):
            raise ValueError("resample_from_infostate works at a player's decision, not at chance or the end")
        hand = game.log[-1]
        sampled = Game.from_view(game.observe(player_id), rng, own_bid=hand.bids[player_id])
        sampled.chance = None
        for s in range(game.seats):  # bids placed but hidden from player_id: drawn uniformly
            if s != player_id and hand.bids[s] is not None and sampled.log[-1].bids[s] is None:
                sampled.apply(Bid(s, rng.randint(0, game.hand)))
        # Earlier hands are public in full (every drawn die was rolled): keep them.
        sampled.log[:0] = copy.deepcopy(game.log[:-1])
        sampled.first_start = game.first_start
        sampled.events = list(game.events)
        twin = self.clone()
        twin._core = _Core(sampled, [], list(self._core.rewards))
        return twin

    def __str__(self) -> str:
        """The host's view (every seat's dice): for debugging."""
        game = self._core.game
        if not game.log:
            return f"hand 0, drawing {len(self._core.draws)}"
        hand = game.log[-1]
        held = " | ".join(",".join(d.value for d in game.held(s)) for s in range(game.seats))
        tricks = " ".join(
            "[" + " ".join(f"{s}{d.value}={f.value}" for s, d, f in t.rolls) + "]" for t in hand.tricks
        )
        return (
            f"hand {hand.number} {game.phase.value} bids:{hand.bids} held:{held} tricks:{tricks} "
            f"totals:{game.totals} drawing:{len(self._core.draws)}"
        )


class MinoDiceObserver:
    """OpenSpiel's Python observer: the shared encoding, and strings.

    With perfect recall (the information state) the tensor is the observation
    followed by this hand's history (`encoding.encode_history`). A public-only
    observer (private info NONE) leaves the seat's own dice and bid out.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, seats: int, params: Any = None) -> None:
        if params:
            raise ValueError(f"python_mino_dice observers take no parameters, got {params}")
        self.seats = seats
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces = [("observation", E.observation_size(seats))]
        if self.perfect_recall:
            pieces.append(("history", E.history_size(seats)))
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        offset = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[offset : offset + size]
            offset += size

    def set_from(self, state: MinoDiceState, player: int) -> None:
        """Fill `tensor` with `player`'s view of `state`."""
        game = state.engine
        view = game.observe(player)
        own = game.log[-1].bids[player] if game.log and self.private else None
        obs = E.encode(view, own)
        if not self.private:
            obs[:7] = 0  # own dice
        self.dict["observation"][:] = obs
        if self.perfect_recall:
            hist = E.encode_history(view)
            if not self.private:
                hist[:7] = 0
            self.dict["history"][:] = hist

    def string_from(self, state: MinoDiceState, player: int) -> str:
        """`player`'s information-state string (perfect recall) or observation string."""
        if self.perfect_recall:
            return state.info_string(player, self.private)
        return state.observation_text(player, self.private)


pyspiel.register_game(_GAME_TYPE, MinoDiceGame)
