"""Why a bot chose what it chose: the expected score of every alternative.

The searching bots (`montecarlo`, `ismcts`) keep the evidence for their last
decision in `bot.last_explanation`: an `Explanation` listing, for each bid or
die they could have chosen, the estimated expected score of this hand for their
seat, its standard error and how many samples (playouts or tree visits) the
estimate rests on. This module asks a bot for a decision at a given position
and shows that evidence:

- `explain(view, spec, seed)` — the decision of bot `spec` for a seat's `View`;
- `explain_decision(game, seat, spec, seed)` — the same for a seat of a live game;
- `roll_hint(view, seed)` — the players' roll hint (`ROLL_HINT_BOT`'s decision for that view);
- `position_from_record(record, hand, trick, roll)` / `position_from_seed(...)` —
  a game stopped just before a bid or a roll (from a record file, or from a fresh
  seeded game played by bots up to that point; `record.record_positions` walks every
  decision point of a record with the choice made there);
- `render_explanation(expl)` — a rich table; `explain_command(...)` prints it
  (what `minodice explain` runs).

>>> from minodice.game import Game
>>> expl = explain_decision(Game(4, seed=1), 0, "montecarlo:sims=20", seed=3)
>>> expl.kind, expl.chosen == max(expl.choices, key=lambda c: c.mean).choice
('bid', True)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ..codes import printable
from ..dice import Die
from ..game import Bid, Game, Phase, Roll
from ..record import record_positions

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from ..view import View

__all__ = [
    "ROLL_HINT_BOT",
    "ChoiceStat",
    "Explanation",
    "explain",
    "explain_command",
    "explain_decision",
    "position_from_record",
    "position_from_seed",
    "render_explanation",
    "roll_hint",
]


class ChoiceStat(NamedTuple):
    """One alternative: the bid (int) or die, its estimated expected hand score,
    the standard error of that estimate, and the samples behind it."""

    choice: int | Die
    mean: float
    stderr: float
    n: int


@dataclass(frozen=True)
class Explanation:
    """The evidence for one decision (`kind` "bid" or "roll") of `seat`.

    `choices` lists every alternative in the order of `view.legal`; `chosen` is
    the answer given. `samples` counts all playouts (or search iterations),
    `seconds` the thinking time; `note` says how the estimates were made.
    """

    kind: str
    seat: int
    bot: str
    choices: tuple[ChoiceStat, ...]
    chosen: int | Die
    samples: int = 0
    seconds: float = 0.0
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def best(self) -> ChoiceStat:
        """The alternative with the highest estimated expected score."""
        return max(self.choices, key=lambda c: c.mean)

    def stat(self, choice: int | Die) -> ChoiceStat:
        """The statistics of one alternative (KeyError if it was not one)."""
        for c in self.choices:
            if c.choice == choice:
                return c
        raise KeyError(choice)

    def to_dict(self) -> dict[str, Any]:
        """The evidence as plain JSON-ready data (the web game's roll hint): every alternative with its
        expected score and the half-width of its 95 % interval (None where not estimated: a forced choice
        is not weighed, 0 samples) and its samples."""
        return {
            "kind": self.kind, "seat": self.seat, "bot": self.bot, "chosen": _plain(self.chosen),
            "choices": [{"choice": _plain(c.choice), "expected_score": _finite(c.mean),
                         "ci95": _finite(1.96 * c.stderr), "samples": c.n} for c in self.choices],
            "samples": self.samples, "seconds": round(self.seconds, 3),
        }


def _finite(x: float) -> float | None:
    """`x` rounded for showing, or None if it is not a number (JSON has no NaN)."""
    return round(x, 3) if math.isfinite(x) else None


def _plain(choice: int | Die) -> int | str:
    """A bid as itself, a die by its name."""
    return choice.value if isinstance(choice, Die) else choice


# --- asking a bot -------------------------------------------------------------------------


def explain(view: View, spec: str = "montecarlo", seed: object = 0) -> Explanation:
    """Ask bot `spec` (seeded with `seed`) for the decision `view` asks of its seat, with the evidence.

    ValueError if the view asks nothing of its seat or the bot keeps no evidence.
    """
    from . import make_bot

    if view.seat is None or not view.legal:
        raise ValueError("this position asks no decision of the seat (it is not its turn)")
    bot = make_bot(spec, seed=seed)
    try:
        if isinstance(view.legal[0], Die):
            bot.roll(view)
        else:
            bot.bid(view)
    finally:
        bot.close()
    expl = getattr(bot, "last_explanation", None)
    if expl is None:
        raise ValueError(
            f"the {bot.name} bot does not explain its decisions: use montecarlo, ismcts, neural+search or oracle"
        )
    return expl


#: The bot whose search the roll hint shows (the terminal's `hint` while rolling, the web game's Hint button).
ROLL_HINT_BOT: Final = "montecarlo"


def roll_hint(view: View, seed: object = 0) -> Explanation:
    """The roll hint for the seat of `view`, whose turn it is to roll: `ROLL_HINT_BOT`'s value of each die it
    may roll, from what the seat sees only."""
    if view.seat is None or not view.legal or view.bidding:
        raise ValueError("a roll hint needs a view of the seat whose turn it is to roll")
    return explain(view, ROLL_HINT_BOT, seed)


def explain_decision(game: Game, seat: int, spec: str = "montecarlo", seed: object = 0) -> Explanation:
    """The decision of bot `spec` for `seat` of `game` now (it must be that seat's bid or roll)."""
    view = game.observe(seat)
    if not view.legal:
        if game.phase is Phase.BID:
            raise ValueError(f"seat {seat} has already bid in this hand")
        if game.phase is Phase.ROLL:
            raise ValueError(f"it is seat {game.turn}'s turn to roll, not seat {seat}'s")
        raise ValueError(f"the game waits for no decision (phase {game.phase.value})")
    return explain(view, spec, seed)


# --- positions ------------------------------------------------------------------------------


def position_from_record(
    record: Mapping[str, Any], hand: int, trick: int | None = None, roll: int = 1
) -> Game:
    """The game of a host record stopped in hand `hand` (1-based): at its bidding when
    `trick` is None, else just before roll `roll` (1-based) of trick `trick`.

    At the bidding no bid of that hand is placed yet. ValueError if the record is
    invalid, hides dice, or does not reach that position.
    """
    from .. import record as records

    fault = records.check(record)
    if fault is not None:
        raise ValueError(fault)
    hands = record["hands"]
    if not 1 <= hand <= len(hands):
        raise ValueError(f"the record has hands 1 to {len(hands)}, not {hand}")
    seats = len(record["seats"])
    if trick is not None and not 1 <= trick <= hand:
        raise ValueError(f"hand {hand} has tricks 1 to {hand}, not {trick}")
    if trick is not None and not 1 <= roll <= seats:
        raise ValueError(f"a trick has rolls 1 to {seats}, not {roll}")
    for at in record_positions(record):
        if at.hand == hand and at.trick == trick and (trick is None or at.roll == roll):
            return at.game
    if trick is None:
        raise ValueError(f"the record stops before the bidding of hand {hand}")
    raise ValueError(f"the record stops before roll {roll} of trick {trick} in hand {hand}")


def position_from_seed(
    seats: int = 4,
    seed: object = 0,
    hand: int = 1,
    trick: int | None = None,
    roll: int = 1,
    *,
    bots: str | Sequence[str] = "greedy",
) -> Game:
    """A fresh game seeded `seed`, played by `bots` (one spec, or one per seat) up to
    the bidding of hand `hand` (`trick` None) or just before roll `roll` of trick `trick`."""
    from . import bot_seed, make_bot

    specs = [bots] * seats if isinstance(bots, str) else list(bots)
    if len(specs) != seats:
        raise ValueError(f"{seats} seats need {seats} bot specs, got {len(specs)}")
    game = Game(seats, seed=str(seed))
    if not 1 <= hand <= game.hands:
        raise ValueError(f"a {seats}-seat game has hands 1 to {game.hands}, not {hand}")
    if trick is not None and not 1 <= trick <= hand:
        raise ValueError(f"hand {hand} has tricks 1 to {hand}, not {trick}")
    if not 1 <= roll <= seats:
        raise ValueError(f"a trick has rolls 1 to {seats}, not {roll}")
    players = [make_bot(spec, seed=bot_seed(seed, s)) for s, spec in enumerate(specs)]

    def reached() -> bool:
        if game.hand != hand:
            return False
        if trick is None:
            return game.phase is Phase.BID
        cur = game.current
        assert cur is not None
        done = sum(len(t.rolls) for t in cur.tricks)
        return game.phase is Phase.ROLL and done == (trick - 1) * seats + roll - 1

    while not reached():
        if game.over:
            raise ValueError("the game ended before that position")  # pragma: no cover
        if game.phase is Phase.BID:
            for s in game.to_act():
                game.apply(Bid(s, players[s].bid(game.observe(s))))
        else:
            s = game.turn
            game.apply(Roll(s, players[s].roll(game.observe(s))))
    return game


# --- showing --------------------------------------------------------------------------------


def _label(choice: int | Die) -> str:
    return choice.value if isinstance(choice, Die) else f"bid {choice}"


def render_explanation(expl: Explanation, view: View | None = None) -> RenderableType:
    """A rich table of the alternatives, best first, the chosen one marked.

    With the seat's `view`, a line above the table shows its dice, the bids and the trick so far.
    """
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    best = expl.best().mean
    what = "bid" if expl.kind == "bid" else "die to roll"
    table = Table(
        title=f"{expl.bot}: which {what} (seat {expl.seat})",
        caption=expl.note or None,
        show_header=True,
    )
    table.add_column("", width=1)
    table.add_column("choice")
    table.add_column("expected score", justify="right")
    table.add_column("± std. error", justify="right")
    table.add_column("vs best", justify="right")
    table.add_column("samples", justify="right")
    for c in sorted(expl.choices, key=lambda c: -c.mean):
        chosen = c.choice == expl.chosen
        style = "bold green" if chosen else None
        if c.n == 0 or c.mean != c.mean:  # not estimated (a forced choice): no figures to show
            figures = ("—", "—", "")
        else:
            figures = (
                f"{c.mean:+.1f}",
                f"{c.stderr:.1f}" if math.isfinite(c.stderr) else "—",  # one determinization: no spread to tell
                "" if c.mean == best else f"{c.mean - best:+.1f}",
            )
        table.add_row("▶" if chosen else "", _label(c.choice), *figures, str(c.n), style=style)
    parts: list[RenderableType] = []
    if view is not None:
        parts.append(Text(_describe_view(view)))
    parts.append(table)
    parts.append(
        Text(f"{expl.samples} samples in {expl.seconds:.3f} s; chose {_label(expl.chosen)}", style="dim")
    )
    return Group(*parts)


def _describe_view(view: View) -> str:
    seat = view.seat if view.seat is not None else 0
    names = [printable(name) for name in view.names]  # one line each, whatever a record calls its seats
    lines = [
        f"Hand {view.hand} of {view.hands}, {view.seats} seats — seat {seat} ({names[seat]}) holds: "
        + " ".join(d.value for d in view.dice)
    ]
    if not view.bidding:
        lines.append(
            "bids: " + "  ".join(f"{names[s]} {view.bids[s]} (won {view.won[s]})" for s in range(view.seats))
        )
        trick = view.current_trick
        if trick is not None and trick.rolls:
            lines.append(
                "this trick: " + ", ".join(f"{names[r.seat]} {r.die.value}→{r.face.value}" for r in trick.rolls)
            )
    return "\n".join(lines)


def explain_command(
    *,
    record: Mapping[str, Any] | None = None,
    seats: int = 4,
    game_seed: object = 0,
    hand: int = 1,
    trick: int | None = None,
    roll: int = 1,
    seat: int | None = None,
    spec: str = "montecarlo",
    seed: object = 0,
    bots: str = "greedy",
    console: Console | None = None,
    as_json: bool = False,
) -> Explanation:
    """Print the explanation of bot `spec`'s decision at a position (a table, or with `as_json` one
    line of `Explanation.to_dict`'s JSON); return it.

    The position is hand `hand` of `record` (a host record) or of a fresh game
    seeded `game_seed` played by `bots` — at its bidding (`trick` None; `seat`
    defaults to 0) or just before roll `roll` of trick `trick` (the seat is the
    one to roll). ValueError for a position that does not exist.
    """
    from rich.console import Console

    if record is not None:
        game = position_from_record(record, hand, trick, roll)
    else:
        game = position_from_seed(seats, game_seed, hand, trick, roll, bots=bots)
    if trick is None:
        seat = 0 if seat is None else seat
    else:
        if seat is not None and seat != game.turn:
            raise ValueError(f"seat {game.turn} rolls at that position, not seat {seat}")
        seat = game.turn
    expl = explain_decision(game, seat, spec, seed)
    out = console or Console()
    if as_json:
        out.print_json(json.dumps(expl.to_dict(), allow_nan=False), indent=None)
    else:
        out.print(render_explanation(expl, game.observe(seat)))
    return expl
