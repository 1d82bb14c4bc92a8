"""Drawing the game for one seat with rich: events as they happen, turn menus, sheets.

The `Screen` is fed only what its seat may know — events from
`Game.events_for(seat)`, each read against the seat's `View` from
`Game.observe(seat)` — so nothing it prints can reveal another seat's dice or
an unrevealed bid. It keeps no game state of its own: the lead colour, the
tricks won and why a roll leads come from the view and `rules`, in the
registry's words (`Reason.text()`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import rules as R
from ..codes import printable
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
from ..preparing import preparing
from ..rules import Rules, TrickState
from ..view import TrickView, View

__all__ = ["DIE_STYLE", "HELP", "Screen", "die_text", "face_text", "faces_summary", "help_text", "ordinal"]

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


def _trump_cycle() -> str:
    """The special faces in beating order, from `rules.BEATS`: "minotaur > griffin > mermaid > minotaur"."""
    first = next(iter(R.BEATS))
    chain, face = [first], R.BEATS[first]
    while face is not first:
        chain.append(face)
        face = R.BEATS[face]
    return " > ".join(f.value for f in (*chain, first))


def help_text(rules: Rules) -> str:
    """The help panel's text; the trump order, a flag's value and the points come from `rules` and `dice`."""
    per_trick = R.hand_score(bid=1, won=1, dice=1, bonus=0, rules=rules)
    per_die = R.hand_score(bid=0, won=0, dice=1, bonus=0, rules=rules)
    return f"""\
[bold]Your moves[/]
  bid    type a whole number, e.g. [bold]1[/]
  roll   type the die's name ([bold]red[/]), the start of it ([bold]re[/]),
         or its number in the menu ([bold]1[/])
[bold]Commands[/] (at any prompt)
  help   this text
  sheet  the score sheet so far (each cell: bid/won, points)
  hint   (or h) advice: each bid's expected score and trick odds (while
         bidding), or each die's expected score for the hand (while rolling)
  quit   leave the game; it is saved (to --save, or minodice-save-SEED.json)
         and the message says how to resume it (--resume)
  Ctrl-C or Ctrl-D also leave, saving the game the same way.
  After the game, review shows how your decisions compare with a search
  bot's (minodice analyze).
[bold]The game in short[/]
  Each hand you draw dice in secret, bid how many tricks you will win, then
  everyone rolls one die per trick. The first number die rolled sets the
  lead colour: while you hold that colour, roll it or a special die.
  Specials beat numbers ({_trump_cycle()});
  otherwise the highest number wins; equal faces go to the later roll.
  A flag counts {Face.FLAG.number}. A bid made exactly scores
  +{per_trick} per trick (a zero bid: +{per_die} per die in the hand)."""


#: The help text under the default rules.
HELP = help_text(Rules())


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th …

    >>> ordinal(1), ordinal(12), ordinal(23)
    ('1st', '12th', '23rd')
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def die_text(die: Die) -> str:
    """A die's name in its colour (rich markup)."""
    return f"[{DIE_STYLE[die]}]{die.value}[/]"


def face_text(face: Face) -> str:
    """A rolled face in rich markup (numbers bold, specials in their die's colour)."""
    return f"[{_FACE_STYLE.get(face, 'bold')}]{face.value}[/]"


def faces_summary(die: Die) -> str:
    """The six faces of a die in short.

    >>> faces_summary(Die.RED), faces_summary(Die.GRIFFIN)
    ('5-5-6-6-7-7', 'griffin ×4, flag ×2')
    """
    if die.special:
        counts = Counter(die.faces)
        return ", ".join(f"{f.value} ×{n}" for f, n in counts.items())
    return "-".join(f.value for f in die.faces)


def _what_it_is(die: Die) -> str:
    """What a die is for, from the dice table and `rules.BEATS`.

    >>> _what_it_is(Die.GRIFFIN), _what_it_is(Die.GRAY)
    ('special: beats mermaid and every number', 'number die, colour gray')
    """
    if die.colour is None:
        face = next(f for f in die.faces if f in R.BEATS)
        return f"special: beats {R.BEATS[face].value} and every number"
    return f"number die, colour {die.colour.value}"


def _either(dice: Sequence[Die]) -> str:
    """Dice names in markup, as alternatives: "red", "red or gray", "red, yellow or gray"."""
    names = [die_text(d) for d in dice]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _trick(view: View, number: int) -> TrickView:
    """Trick `number` (1-based) of the view's hand; ValueError if the view has not reached it."""
    if not 1 <= number <= len(view.tricks):
        raise ValueError(f"trick {number} is not in the view of hand {view.hand}")
    return view.tricks[number - 1]


def _state(view: View, trick: TrickView, rolls: int | None = None) -> TrickState:
    """The rules' answers about `trick` (its first `rolls` rolls, or all)."""
    shown = trick.rolls if rolls is None else trick.rolls[:rolls]
    return TrickState.of(((r.die, r.face) for r in shown), view.rules)


#: What the terminal shows while a hint is worked out.
_WORKING = "Working out a hint…"


class Screen:
    """Prints one seat's game: the story so far, its turn's menu, sheets and podium.

    What it keeps is what the view cannot give: the rows of the score sheet
    (hands already scored), the final standings, and this seat's own bid
    before the bids are revealed.
    """

    def __init__(
        self, console: Console, names: Sequence[str], me: int, rules: Rules, hands: int
    ) -> None:
        self.console = console
        self.names = tuple(printable(name) for name in names)  # as shown: control characters escaped
        self.me = me
        self.rules = rules
        self.hands = hands
        self.my_bid: int | None = None
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

    def show(self, event: Event, view: View | None = None, *, quiet: bool = False, pace: float = 0.0) -> None:
        """Take in one event and print it, read against `view` (the seat's view once it happened).

        `quiet` only keeps what the sheet and podium need (no view is needed);
        `pace` seconds pass before another seat's roll is shown.
        """
        self._keep(event)
        if quiet:
            return
        if view is None:
            raise ValueError("an event is shown against the seat's view")
        if pace > 0 and isinstance(event, Rolled) and event.seat != self.me:
            self.console.file.flush()
            time.sleep(pace)
        show = self._SHOW.get(type(event))
        if show is not None:
            show(self, event, view)

    def _keep(self, event: Event) -> None:
        """Keep what the view does not hold: this seat's bid before the reveal, scored hands, the end."""
        if isinstance(event, DiceDrawn):
            self.my_bid = None
        elif isinstance(event, BidPlaced) and event.seat == self.me:
            self.my_bid = event.bid
        elif isinstance(event, HandScored):
            self.rows.append(event)
        elif isinstance(event, GameOver):
            self.final = event

    def _drawn(self, event: DiceDrawn, view: View) -> None:
        p = self.console.print
        p()
        self.console.rule(f"[bold]Hand {event.hand} of {view.hands}[/]", align="left")
        starter = "You start" if event.start == self.me else f"{self.who(event.start)} starts"
        p(f"{starter} this hand: {event.hand} {'die' if event.hand == 1 else 'dice'} each, "
          f"{event.hand} {'trick' if event.hand == 1 else 'tricks'}.")
        self.your_dice(event.dice[self.me] or (), details=True)

    def _bid_placed(self, event: BidPlaced, view: View) -> None:
        if event.seat == self.me:
            self.console.print(f"You bid [bold]{event.bid}[/].")
        else:
            self.console.print(f"{self.who(event.seat)} has bid (hidden until everyone has bid).")

    def _bids_revealed(self, event: BidsRevealed, view: View) -> None:
        self.flow("Bids revealed: ", [f"{self.who(s)} {b}" for s, b in enumerate(event.bids)])
        self.console.print(f"[dim]The bids add up to {sum(event.bids)} for {view.hand} "
                           f"{'trick' if view.hand == 1 else 'tricks'}.[/]")

    def _rolled(self, event: Rolled, view: View) -> None:
        """The roll, and the lead colour when this roll set it (the view's trick, read by `rules`)."""
        trick = _trick(view, event.trick)
        index = next(i for i, r in enumerate(trick.rolls) if r.seat == event.seat)
        if index == 0:
            self.console.print()
            self.console.print(f"[bold]Trick {event.trick} of {view.hand}[/] · "
                               f"{self._verb(event.seat, 'lead', 'leads')}")
        line = f"  {self._verb(event.seat, 'roll', 'rolls')} {die_text(event.die)} → {face_text(event.face)}"
        before = _state(view, trick, index).lead
        after = R.lead_after(before, event.die)
        if before is None and after is not None:
            line += f"   [dim](lead colour: {after.value})[/]"
        self.console.print(line)

    def _trick_won(self, event: TrickWon, view: View) -> None:
        """Who won the trick and why, any bonus and why, then every seat's tricks against its bid."""
        state = _state(view, _trick(view, event.trick))
        why = state.reason.text() if state.reason is not None else ""
        self.hang("  ⇒", f"{self._verb(event.seat, 'win', 'wins')} trick {event.trick} "
                        f"with {face_text(event.face)}: {escape(why)}.")
        if state.bonus_why is not None and not view.rules.landlubber:
            self.hang("   ", f"{self._verb(event.seat, 'earn', 'earns')} a [bold]bonus[/] — "
                             f"{escape(state.bonus_why.text())}.")
        self.tally(view, through=event.trick)

    def hang(self, lead: str, text: str) -> None:
        """Print `lead` and `text`, the text's wrapped lines indented under its start (not at column 0)."""
        grid = Table.grid(padding=(0, 1, 0, 0))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(lead, text)
        self.console.print(grid)

    def _hand_scored(self, event: HandScored, view: View) -> None:
        self.hand_result(event, view.rules)

    def _game_over(self, event: GameOver, view: View) -> None:
        self.podium(event)

    _SHOW: ClassVar[dict[type, Callable[[Screen, Any, View], None]]] = {
        DiceDrawn: _drawn,
        BidPlaced: _bid_placed,
        BidsRevealed: _bids_revealed,
        Rolled: _rolled,
        TrickWon: _trick_won,
        HandScored: _hand_scored,
        GameOver: _game_over,
    }

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

    def tally(self, view: View, *, through: int | None = None) -> None:
        """Tricks won against bids, for every seat (with `through`: in the view's first `through` tricks)."""
        bids = view.revealed_bids
        if bids is None:
            return
        won = view.won
        if through is not None:
            winners = [t.winner for t in view.tricks[:through]]
            won = tuple(winners.count(s) for s in range(view.seats))
        parts = []
        for s in range(view.seats):
            bid = bids[s]
            mark = "[green]✓[/]" if won[s] == bid else ("[red]✗[/]" if won[s] > bid else "")
            parts.append(f"{self.who(s)} {bid}/{won[s]}{mark}")
        self.flow("  [dim]bid/won:[/] ", parts)

    def flow(self, head: str, parts: Sequence[str], sep: str = " · ") -> None:
        """Print `head` then `parts` joined by `sep`, breaking lines between parts only (never inside one).

        Continuation lines are indented under the first part, so a row of six
        seats wraps as a block within the console's width instead of mid-name.
        """
        width = self.console.width
        indent = Text.from_markup(head).cell_len
        line, used = head, indent
        tail = len(sep.rstrip())  # what ends a line that the next part continues
        for i, part in enumerate(parts):
            size = Text.from_markup(part).cell_len
            room = width - (0 if i == len(parts) - 1 else tail)
            if i and used + len(sep) + size > room:
                self.console.print(line + sep.rstrip())
                line, used = " " * indent + part, indent + size
                continue
            line, used = (line + sep + part, used + len(sep) + size) if i else (line + part, used + size)
        self.console.print(line)

    # --- a hand's end, the sheet, the podium ----------------------------------------------

    def hand_result(self, event: HandScored, rules: Rules | None = None) -> None:
        """How the hand just finished went: the sheet, and what became of bonuses (by `rules.hand_score`)."""
        rules = rules or self.rules
        self.console.print()
        self.sheet(title=f"Score sheet after hand {event.hand} of {self.hands}")
        if rules.landlubber:
            return
        for s in range(len(self.names)):
            bonus = event.bonus[s]
            if not bonus:
                continue
            bid, won = event.bids[s], event.won[s]
            counts = R.hand_score(bid, won, event.hand, bonus, rules) != R.hand_score(bid, won, event.hand, 0, rules)
            whose = "Your" if s == self.me else f"{self.who(s)}'s"
            if counts:
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
            table.add_row(f"{view.hand}…", *self._hand_in_progress(view))
            note += " (… the hand in progress, ? a hidden bid)"
        if not table.rows:
            self.console.print("[dim]No hand has been played yet.[/]")
            return
        self.console.print(table)
        self.console.print(f"[dim]{note}[/]")

    def _hand_in_progress(self, view: View) -> list[str]:
        """Each seat's bid/won cell for the hand in the view (this seat's own bid even before the reveal)."""
        cells = []
        for s in range(view.seats):
            bid = view.bids[s]
            if bid is None and s == self.me:
                bid = self.my_bid
            shown = "?" if bid is None and view.bid_placed[s] else ("–" if bid is None else str(bid))
            cells.append(f"{shown}/{view.won[s]}")
        return cells

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
        low, high = min(legal), max(legal)
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
        """Print the trick so far (who leads it and why), which dice may be rolled and why; return prompt and menu."""
        p = self.console.print
        legal = tuple(d for d in (view.legal or ()) if isinstance(d, Die))
        state = view.trick_state
        number = len(view.tricks) if state is not None else len(view.tricks) + 1
        lead = view.lead_colour
        p()
        p(f"[bold]Your turn[/] · hand {view.hand} of {view.hands} · trick {number} of {view.hand} · "
          + (f"lead colour {die_text(lead)}" if lead else "no lead colour yet"))
        if state is not None and state.leading is not None and state.reason is not None:
            roll = view.tricks[-1].rolls[state.leading]
            p(f"  [dim]Leading so far:[/] {self.who(roll.seat)}'s {die_text(roll.die)} → "
              f"{face_text(roll.face)} ({escape(state.reason.text())})")
        self.your_dice(view.dice)
        p(self._why(view))
        menu = "  ".join(f"[bold]{i}[/]) {die_text(d)}" for i, d in enumerate(legal, start=1))
        p(f"  {menu}")
        span = "1" if len(legal) == 1 else f"1-{len(legal)}"
        return f"Your roll ({span}, or a die's name): ", legal

    def _why(self, view: View) -> str:
        """Which of your dice you may roll now, and why not the others (the view's refusals, in the registry's words)."""
        refusals = view.refusals()
        if refusals:
            barred: dict[str, list[Die]] = {}
            for die, reason in refusals.items():
                barred.setdefault(reason.text(), []).append(die)
            return " ".join(f"You may not roll {_either(dice)} — {escape(text)}." for text, dice in barred.items())
        state = view.trick_state
        if state is None:
            return "You lead this trick: roll any die (the first number die sets the lead colour)."
        if state.lead is None:
            return "No lead colour yet (only special dice so far): roll any die."
        if state.lead not in view.dice:
            return f"{die_text(state.lead)} was led and you hold no {state.lead.value}: roll any die."
        return f"{die_text(state.lead)} was led: you may roll any of your dice."

    # --- messages ---------------------------------------------------------------------

    def problem(self, message: str) -> None:
        """A refused input, with the reason."""
        self.console.print(f"[bold red]✗[/] {escape(message)}")

    def warn(self, message: str) -> None:
        """A warning line (a bot's fault, a save that failed)."""
        self.console.print(f"[yellow]warning:[/] {escape(printable(message))}")

    def help(self) -> None:
        """The help text (for this table's rules)."""
        self.console.print(Panel(help_text(self.rules), title="help", expand=False, title_align="left"))

    def hint(self, view: View) -> None:
        """Advice for the decision in `view`: the bid advisor while bidding, montecarlo's die values while rolling."""
        if view.seat is None:
            return  # a spectator has no decision to advise on
        if view.bidding:
            from ..analysis.advisor import bid_hint
            from .advice import advice_table

            with self.console.status(_WORKING), preparing("the bid hint", 5):  # the first of an install compiles
                advice = bid_hint(view)
            self.console.print(advice_table(advice))
            self.console.print(f"[dim]Hint: bid {advice.best} (simulated, others playing greedy; "
                               f"± is a 95 % interval).[/]")
            return
        from ..bots.explain import roll_hint

        with self.console.status(_WORKING), preparing("the roll hint", 5):
            explanation = roll_hint(view, seed=view.hand)
        lines = [f"  {c.choice!s:9s} {c.mean:+6.1f} ± {1.96 * c.stderr:.1f}" if c.n else f"  {c.choice!s}  (the only die you may roll: nothing to weigh)"
                 for c in explanation.choices]
        self.console.print("Expected score of this hand for each die you may roll now:\n" + "\n".join(lines))
        self.console.print(f"[dim]Hint: roll {explanation.chosen!s} ({explanation.bot}'s choice).[/]")
