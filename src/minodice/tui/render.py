"""Drawing the game for one seat with rich: events as they happen, turn menus, sheets.

The `Screen` is fed only what its seat may know — events from
`Game.events_for(seat)` and views from `Game.observe(seat)` — so nothing it
prints can reveal another seat's dice or an unrevealed bid.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from .. import rules as R
from ..dice import Die, Face
from ..events import (
    BidPlaced,
    BidsRevealed,
    DiceDrawn,
    Event,
    GameOver,
    HandScored,
    Rolled,
    TrickWon,
)
from ..rules import Rules
from ..view import View

__all__ = ["DIE_STYLE", "Screen", "die_text", "face_text", "faces_summary", "ordinal"]

#: How each kind of die is coloured on screen (its name is always printed too).
DIE_STYLE: dict[Die, str] = {
    Die.MINOTAUR: "bold dark_orange",
    Die.GRIFFIN: "bold cyan",
    Die.MERMAID: "bold green",
    Die.RED: "bold red",
    Die.YELLOW: "bold yellow",
    Die.PURPLE: "bold magenta",
    Die.GRAY: "bold grey62",
}
_FACE_STYLE: dict[Face, str] = {
    Face.MINOTAUR: DIE_STYLE[Die.MINOTAUR],
    Face.GRIFFIN: DIE_STYLE[Die.GRIFFIN],
    Face.MERMAID: DIE_STYLE[Die.MERMAID],
    Face.FLAG: "dim",
}
_LOSES_TO = {beaten: winner for winner, beaten in R.BEATS.items()}

HELP = """\
[bold]Your moves[/]
  bid    type a whole number, e.g. [bold]1[/]
  roll   type the die's name ([bold]red[/]), the start of it ([bold]re[/]), \
or its number in the menu ([bold]1[/])
[bold]Commands[/] (at any prompt)
  help   this text
  sheet  the score sheet so far
  hint   (or h) advice: each bid's expected score and trick odds (while bidding),
         or each die's expected score for the hand (while rolling)
  quit   leave the game (saved if you gave --save; resume with --resume)
  Ctrl-C or Ctrl-D also leave, saving the game so you can resume it.
[bold]The game in short[/]
  Each hand you draw dice in secret, bid how many tricks you will win, then
  everyone rolls one die per trick. The first number die rolled sets the lead
  colour: while you hold that colour, roll it or a special die. Specials beat
  numbers (minotaur > griffin > mermaid > minotaur); otherwise the highest
  number wins; equal faces go to the later roll. A flag counts 0.
  Make your bid exactly: +20 per trick (a zero bid: +10 per die in the hand)."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def die_text(die: Die) -> str:
    """A die's name in its colour (rich markup)."""
    return f"[{DIE_STYLE[die]}]{die.value}[/]"


def face_text(face: Face) -> str:
    """A rolled face in rich markup (numbers bold, specials in their die's colour)."""
    return f"[{_FACE_STYLE.get(face, 'bold')}]{face.value}[/]"


def faces_summary(die: Die) -> str:
    """The six faces of a die in short: red → 5-5-6-6-7-7, griffin → griffin ×4, flag ×2."""
    if die.special:
        counts = Counter(die.faces)
        return ", ".join(f"{f.value} ×{n}" for f, n in counts.items())
    return "-".join(f.value for f in die.faces)


def _what_it_is(die: Die) -> str:
    if die.special:
        return f"special: beats {R.BEATS[Face(die.value)].value} and every number"
    return f"number die, colour {die.value}"


class Screen:
    """Prints one seat's game: the story so far, its turn's menu, sheets and podium."""

    def __init__(
        self, console: Console, names: Sequence[str], me: int, rules: Rules, hands: int
    ) -> None:
        self.console = console
        self.names = tuple(names)
        self.me = me
        self.rules = rules
        self.hands = hands
        self.hand = 0
        self.start = 0
        self.my_bid: int | None = None
        self.bids: tuple[int, ...] | None = None
        self.won = [0] * len(names)
        self.trick_faces: list[Face] = []
        self.lead: Die | None = None
        self.rows: list[HandScored] = []
        self.final: GameOver | None = None

    # --- names ----------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """A seat's name in markup ("You" for this seat)."""
        if seat == self.me:
            return "[bold underline]You[/]"
        return f"[bold]{escape(self.names[seat])}[/]"

    def _verb(self, seat: int, you: str, they: str) -> str:
        return f"{self.who(seat)} {you if seat == self.me else they}"

    def _name_cell(self, seat: int) -> str:
        name = escape(self.names[seat])
        return f"[bold underline]{name}[/]" if seat == self.me else name

    # --- events ---------------------------------------------------------------------

    def show(self, event: Event, *, quiet: bool = False, pace: float = 0.0) -> None:
        """Take in one event; print it unless `quiet` (then only the state is kept).

        `pace` seconds pass before another seat's roll is shown.
        """
        p = self.console.print
        if isinstance(event, DiceDrawn):
            self.hand, self.start = event.hand, event.start
            self.my_bid, self.bids, self.lead = None, None, None
            self.won = [0] * len(self.names)
            self.trick_faces = []
            if quiet:
                return
            p()
            self.console.rule(f"[bold]Hand {event.hand} of {self.hands}[/]", align="left")
            starter = "You start" if event.start == self.me else f"{self.who(event.start)} starts"
            p(f"{starter} this hand: {event.hand} {'die' if event.hand == 1 else 'dice'} each, "
              f"{event.hand} {'trick' if event.hand == 1 else 'tricks'}.")
            mine = event.dice[self.me] or ()
            self.your_dice(mine, details=True)
        elif isinstance(event, BidPlaced):
            if event.seat == self.me:
                self.my_bid = event.bid
            if quiet:
                return
            if event.seat == self.me:
                p(f"You bid [bold]{event.bid}[/].")
            else:
                p(f"{self.who(event.seat)} has bid (hidden until everyone has bid).")
        elif isinstance(event, BidsRevealed):
            self.bids = event.bids
            if quiet:
                return
            shown = " · ".join(f"{self.who(s)} {b}" for s, b in enumerate(event.bids))
            p(f"Bids revealed: {shown}")
            total = sum(event.bids)
            p(f"[dim]The bids add up to {total} for {self.hand} "
              f"{'trick' if self.hand == 1 else 'tricks'}.[/]")
        elif isinstance(event, Rolled):
            first = not self.trick_faces
            self.trick_faces.append(event.face)
            if quiet:
                if self.lead is None and not event.die.special:
                    self.lead = event.die
                return
            if first:
                p()
                p(f"[bold]Trick {event.trick} of {self.hand}[/] · "
                  f"{self._verb(event.seat, 'lead', 'leads')}")
            if pace > 0 and event.seat != self.me:
                self.console.file.flush()
                time.sleep(pace)
            line = f"  {self._verb(event.seat, 'roll', 'rolls')} {die_text(event.die)} → {face_text(event.face)}"
            if self.lead is None and not event.die.special:
                self.lead = event.die
                line += f"   [dim](lead colour: {event.die.value})[/]"
            p(line)
        elif isinstance(event, TrickWon):
            self.won[event.seat] += 1
            faces, self.trick_faces, self.lead = self.trick_faces, [], None
            if quiet:
                return
            why = R.explain_trick(faces, self.rules) if faces else ""
            p(f"  ⇒ {self._verb(event.seat, 'win', 'wins')} trick {event.trick} "
              f"with {face_text(event.face)}: {escape(why)}.")
            if event.bonus and not self.rules.landlubber:
                whose = "your" if event.seat == self.me else "their"
                p(f"    {self._verb(event.seat, 'earn', 'earns')} a [bold]+{event.bonus} bonus[/] "
                  f"(it counts only if {whose} bid is made exactly).")
            self.tally()
        elif isinstance(event, HandScored):
            self.rows.append(event)
            if quiet:
                return
            self.hand_result(event)
        elif isinstance(event, GameOver):
            self.final = event
            if not quiet:
                self.podium(event)

    def your_dice(self, dice: Sequence[Die], *, details: bool = False) -> None:
        """The line listing this seat's hidden dice (and, with details, their faces)."""
        names = " ".join(die_text(d) for d in dice) if dice else "[dim](none left)[/]"
        self.console.print(f"Your dice: {names}")
        if details:
            table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
            table.add_column(no_wrap=True)
            table.add_column(no_wrap=True)
            table.add_column(style="dim")
            for die in dict.fromkeys(sorted(dice, key=lambda d: d.index)):
                table.add_row("  " + die_text(die), faces_summary(die), _what_it_is(die))
            self.console.print(table)

    def tally(self) -> None:
        """Tricks won against bids, for every seat."""
        if self.bids is None:
            return
        parts = []
        for s in range(len(self.names)):
            won, bid = self.won[s], self.bids[s]
            mark = "[green]✓[/]" if won == bid else ("[red]✗[/]" if won > bid else "")
            parts.append(f"{self.who(s)} {won}/{bid}{mark}")
        self.console.print("  [dim]won/bid:[/] " + " · ".join(parts))

    # --- a hand's end, the sheet, the podium ----------------------------------------------

    def hand_result(self, event: HandScored) -> None:
        """How the hand just finished went: the sheet, and what became of bonuses."""
        self.console.print()
        self.sheet(title=f"Score sheet after hand {event.hand} of {self.hands}")
        if self.rules.landlubber:
            return
        for s in range(len(self.names)):
            bonus = event.bonus[s]
            if not bonus:
                continue
            made = event.bids[s] > 0 and event.bids[s] == event.won[s]
            whose = "Your" if s == self.me else f"{self.who(s)}'s"
            if made:
                self.console.print(f"{whose} +{bonus} bonus counts: the bid was made.")
            else:
                self.console.print(f"{whose} +{bonus} bonus is lost: the bid was not made.")

    def sheet(self, view: View | None = None, *, title: str = "Score sheet") -> None:
        """The score sheet: bid/won and points per hand; with `view`, the hand in progress too."""
        n = len(self.names)
        table = Table(title=title, box=box.SIMPLE_HEAD, show_footer=True, title_justify="left")
        note = "each cell: bid/won, points"
        table.add_column("hand", footer="total", justify="right")
        totals = self.rows[-1].totals if self.rows else (0,) * n
        for s in range(n):
            table.add_column(self._name_cell(s), footer=str(totals[s]), justify="right")
        for row in self.rows:
            table.add_row(str(row.hand), *(f"{row.bids[s]}/{row.won[s]} {row.scores[s]:+d}" for s in range(n)))
        if view is not None and view.hand and not view.game_over and (
            not self.rows or self.rows[-1].hand != view.hand
        ):
            cells = []
            for s in range(n):
                bid = view.bids[s]
                if bid is None and s == self.me:
                    bid = self.my_bid
                shown = "?" if bid is None and view.bid_placed[s] else ("–" if bid is None else str(bid))
                cells.append(f"{shown}/{view.won[s]}")
            table.add_row(f"{view.hand}…", *cells)
            note += " (… the hand in progress, ? a hidden bid)"
        if not table.rows:
            self.console.print("[dim]No hand has been played yet.[/]")
            return
        self.console.print(table)
        self.console.print(f"[dim]{note}[/]")

    def podium(self, event: GameOver) -> None:
        """Final places (ties share a place) and who won."""
        order = sorted(range(len(self.names)), key=lambda s: (event.places[s], s))
        table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
        table.add_column(justify="right", no_wrap=True)
        table.add_column()
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        for s in order:
            place = event.places[s]
            tied = sum(1 for p in event.places if p == place) > 1
            table.add_row(
                ordinal(place),
                self._name_cell(s) + (" (you)" if s == self.me else ""),
                str(event.totals[s]),
                "(tied)" if tied else "",
                style="bold" if place == 1 else None,
            )
        winners = [s for s in order if event.places[s] == 1]
        if winners == [self.me]:
            verdict = "[bold green]You win![/]"
        elif self.me in winners:
            verdict = "[bold green]You share first place.[/]"
        elif len(winners) == 1:
            verdict = f"{self.who(winners[0])} wins."
        else:
            verdict = " and ".join(self.who(s) for s in winners) + " share first place."
        self.console.print(Panel(Group(table, "", verdict), title="Final standings",
                                 expand=False, title_align="left"))

    # --- your turn --------------------------------------------------------------------

    def bid_menu(self, view: View) -> str:
        """Print what the bid is about; return the prompt."""
        legal = view.legal or (0,)
        low, high = min(legal), max(legal)  # type: ignore[type-var]
        p = self.console.print
        p()
        p(f"[bold]Your bid[/] · hand {view.hand} of {view.hands}: how many of the {view.hand} "
          f"{'trick' if view.hand == 1 else 'tricks'} will you win?")
        self.your_dice(view.dice)
        placed = [s for s in range(view.seats) if s != self.me and view.bid_placed[s]]
        if placed:
            p("[dim]Already bid (hidden): " + ", ".join(escape(self.names[s]) for s in placed) + "[/]")
        return f"Your bid ({low}-{high}): "

    def roll_menu(self, view: View) -> tuple[str, tuple[Die, ...]]:
        """Print the trick so far, why which dice may be rolled, and the menu; return prompt and menu."""
        p = self.console.print
        legal = tuple(d for d in (view.legal or ()) if isinstance(d, Die))
        trick = view.current_trick
        number = len(view.tricks) if trick is not None else len(view.tricks) + 1
        lead = view.lead_colour
        p()
        p(f"[bold]Your turn[/] · hand {view.hand} of {view.hands} · trick {number} of {view.hand} · "
          + (f"lead colour {die_text(lead)}" if lead else "no lead colour yet"))
        self.your_dice(view.dice)
        p(self._why(view, legal))
        menu = "  ".join(f"[bold]{i}[/]) {die_text(d)}" for i, d in enumerate(legal, start=1))
        p(f"  {menu}")
        span = "1" if len(legal) == 1 else f"1-{len(legal)}"
        return f"Your roll ({span}, or a die's name): ", legal

    def _why(self, view: View, legal: Sequence[Die]) -> str:
        """Which of your dice you may roll now, and why not the others."""
        held = view.dice
        lead = view.lead_colour
        trick = view.current_trick
        if lead is None:
            if trick is None or not trick.rolls:
                return "You lead this trick: roll any die (the first number die sets the lead colour)."
            return "No lead colour yet (only special dice so far): roll any die."
        if lead not in held:
            return f"{die_text(lead)} was led and you hold no {lead.value}: roll any die."
        barred = [d for d in dict.fromkeys(held) if d not in legal]
        text = f"You must follow {die_text(lead)}: you hold {lead.value}"
        if barred:
            text += ", so not " + " or ".join(die_text(d) for d in barred)
        if any(d.special for d in legal):
            text += " (a special die may always be rolled)"
        return text + "."

    # --- messages ---------------------------------------------------------------------

    def problem(self, message: str) -> None:
        """A refused input, with the reason."""
        self.console.print(f"[bold red]✗[/] {escape(message)}")

    def warn(self, message: str) -> None:
        """A warning line (a bot's fault, a save that failed)."""
        self.console.print(f"[yellow]warning:[/] {escape(message)}")

    def help(self) -> None:
        """The help text."""
        self.console.print(Panel(HELP, title="help", expand=False, title_align="left"))

    def hint(self, view: View) -> None:
        """Advice for the decision in `view`: the bid advisor while bidding, montecarlo's die values while rolling."""
        if view.bidding:
            from ..analysis.advisor import advise
            from .advice import advice_table

            position = (view.seat - view.start) % view.seats  # type: ignore[operator]
            advice = advise(view.dice, view.seats, position=position, rules=view.rules, seed=view.hand)
            self.console.print(advice_table(advice))
            self.console.print(f"[dim]Hint: bid {advice.best} (simulated, others playing greedy; "
                               f"± is a 95 % interval).[/]")
            return
        from ..bots.montecarlo import MonteCarloBot

        bot = MonteCarloBot(random.Random(view.hand))
        best = bot.roll(view)
        explanation = bot.last_explanation
        lines = [f"  {c.choice.value:9s} {c.mean:+6.1f} ± {1.96 * c.stderr:.1f}" if c.n else f"  {c.choice.value}"
                 for c in (explanation.choices if explanation else ())]
        self.console.print("Expected score of this hand for each die you may roll now:\n" + "\n".join(lines))
        self.console.print(f"[dim]Hint: roll {best.value} (montecarlo's choice).[/]")
