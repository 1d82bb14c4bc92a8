"""The score sheet in the terminal (`minodice sheet`): the sheet as a rich table, and the questions
hand by hand (bids, tricks, bonuses; undo and quit), asked again until the sheet accepts them."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..rules import GRIFFIN_BONUS, MERMAID_BONUS
from ..table.sheet import Entry, ScoreSheet, SheetError, check_count

__all__ = ["render_sheet", "run_sheet"]

_QUIT_WORDS = {"quit", "exit", "q"}
_UNDO_WORDS = {"undo"}
_HELP = (
    "Enter each player's bid, then the tricks won; bonuses are asked for a bid made exactly: "
    f"{MERMAID_BONUS} when the player's mermaid captured the minotaur, {GRIFFIN_BONUS} for each griffin "
    "the player's minotaur beat. At any question: [bold]undo[/] removes the last hand, "
    "[bold]quit[/] (or Ctrl-C) saves and leaves."
)


class _Undo(Exception):
    """The player typed undo (and there is a hand to undo)."""


class _Quit(Exception):
    """The player typed quit, or the input ended."""


# --- showing ---------------------------------------------------------------------------


def render_sheet(sheet: ScoreSheet) -> Table:
    """The sheet as a table: per hand and player "bid/won  points", the running total below."""
    done = len(sheet.hands)
    table = Table(
        title=f"Score sheet — {sheet.scoring} scoring — {done} of {sheet.hand_count} hands entered",
        caption="bid/won, the hand's points; the total below",
        show_footer=True,
    )
    table.add_column("hand", justify="right", footer="total")
    totals, places = sheet.totals(), sheet.places()
    for player, total, place in zip(sheet.players, totals, places):
        footer = f"[bold]{total}[/]" + (f"\n{_ordinal(place)}" if sheet.finished else "")
        table.add_column(escape(player), justify="right", footer=footer)
    for hand, (entries, running) in enumerate(zip(sheet.hands, sheet.running_totals()), start=1):
        cells = [_cell(e, s, t) for e, s, t in zip(entries, sheet.hand_scores(hand), running)]
        table.add_row(str(hand), *cells)
    return table


def _cell(entry: Entry, score: int, total: int) -> str:
    """One player's cell for one hand."""
    bonus = f" [dim](bonus {entry.bonus})[/]" if entry.bonus else ""
    colour = "green" if score > 0 else "red" if score < 0 else "dim"
    return f"{entry.bid}/{entry.won}  [{colour}]{score:+d}[/]{bonus}\n[bold]{total}[/]"


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th … for the places row."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def _standing(sheet: ScoreSheet) -> str:
    """Who leads now, or who won once the game is over, in one sentence."""
    leaders = " and ".join(sheet.leaders())
    best = max(sheet.totals())
    if sheet.finished:
        return f"The game is over: {leaders} {'wins' if len(sheet.leaders()) == 1 else 'share first place'} with {best}."
    return f"After hand {len(sheet.hands)}: {leaders} {'leads' if len(sheet.leaders()) == 1 else 'lead'} with {best}."


# --- the questions ---------------------------------------------------------------------


class _Session:
    """One sitting at the sheet: asks for each hand, saves after each accepted one."""

    def __init__(
        self,
        sheet: ScoreSheet,
        save: Callable[[ScoreSheet], None],
        ask: Callable[[str], str],
        show: Callable[[RenderableType], None],
    ) -> None:
        self.sheet, self.save, self._ask, self.show = sheet, save, ask, show

    def say(self, message: str) -> None:
        """Show plain words (names are never read as markup)."""
        self.show(Text(message))

    def read(self, prompt: str) -> str:
        """The next line typed; undo and quit are raised as _Undo and _Quit (end of input and Ctrl-C quit too)."""
        while True:
            try:
                text = self._ask(prompt)
            except (EOFError, KeyboardInterrupt):
                raise _Quit from None
            word = text.strip().casefold()
            if word in _QUIT_WORDS:
                raise _Quit
            if word not in _UNDO_WORDS:
                return text.strip()
            if self.sheet.hands:
                raise _Undo
            self.say("There is no hand to undo yet.")

    def ask_count(self, player: str, what: str, dice: int) -> int:
        """A bid or a number of tricks for `player`, asked again until it is a number in 0..dice."""
        while True:
            text = self.read(f"{player}: {what} (0-{dice})")
            try:
                return check_count(player, what, int(text), dice)
            except ValueError as exc:
                reason = str(exc) if isinstance(exc, SheetError) else f"{text!r} is not a number"
                self.say(f"Not accepted: {reason}. Try again.")

    def ask_bonus(self, player: str) -> tuple[bool, int]:
        """A player's bonuses as (the +50, the number of +30s), typed as e.g. "50" or "30 30"."""
        prompt = f"{player} made the bid: bonus? ({MERMAID_BONUS}, or {GRIFFIN_BONUS} per griffin; Enter = none)"
        while True:
            tokens = self.read(prompt).replace(",", " ").replace("+", " ").split()
            mermaids = tokens.count(str(MERMAID_BONUS))
            griffins = tokens.count(str(GRIFFIN_BONUS))
            if mermaids + griffins == len(tokens) and mermaids <= 1:
                return mermaids == 1, griffins
            if mermaids > 1:
                self.say("Not accepted: there is one minotaur, so one +50 at most. Try again.")
            else:
                self.say(f"Not accepted: type {MERMAID_BONUS} and/or {GRIFFIN_BONUS}s, like '30 30', "
                         "or just press Enter for no bonus. Try again.")

    def ask_hand(self) -> list[Entry]:
        """Bids, then tricks (again until they add up), then bonuses (again until possible)."""
        sheet = self.sheet
        hand = len(sheet.hands) + 1
        n = sheet.dice(hand)
        self.say(f"Hand {hand} of {sheet.hand_count}: {n} {'die' if n == 1 else 'dice'} each.")
        bids = [self.ask_count(p, "bid", n) for p in sheet.players]
        while True:
            self.say("After the hand is played, enter the tricks each player won.")
            entries = [Entry(b, self.ask_count(p, "tricks won", n)) for p, b in zip(sheet.players, bids)]
            if self._accepted(hand, entries):
                break
        eligible = [i for i, e in enumerate(entries) if e.bid > 0 and e.won == e.bid]
        if sheet.rules.landlubber or not eligible:
            return entries
        while True:
            with_bonus = list(entries)
            for i in eligible:
                mermaid, griffins = self.ask_bonus(sheet.players[i])
                with_bonus[i] = Entry(entries[i].bid, entries[i].won, mermaid, griffins)
            if self._accepted(hand, with_bonus):
                return with_bonus

    def _accepted(self, hand: int, entries: list[Entry]) -> bool:
        """True if the sheet would take these entries; else say why."""
        try:
            self.sheet.validate(hand, entries)
        except SheetError as exc:
            self.say(f"Not accepted: {exc}. Please enter them again.")
            return False
        return True

    def game_over(self) -> None:
        """At the end: leave, or undo the last hand to correct it."""
        self.say(_standing(self.sheet))
        self.read("The game is over. Press Enter to leave, or type undo to reopen the last hand")
        raise _Quit

    def run(self) -> ScoreSheet:
        """Ask hand after hand until the game is over or the player leaves; the sheet is saved throughout."""
        self.show(_HELP)
        self.show(render_sheet(self.sheet))
        while True:
            try:
                if self.sheet.finished:
                    self.game_over()
                hand = self.sheet.enter(self.ask_hand())
                self.save(self.sheet)
                self.show(render_sheet(self.sheet))
                self.say(f"Hand {hand} saved. {_standing(self.sheet)}")
            except _Undo:
                hand = self.sheet.undo()
                self.save(self.sheet)
                self.show(render_sheet(self.sheet))
                self.say(f"Hand {hand} removed: enter it again.")
            except _Quit:
                self.save(self.sheet)
                self.say(f"Saved after hand {len(self.sheet.hands)} of {self.sheet.hand_count}.")
                return self.sheet


def run_sheet(
    sheet: ScoreSheet,
    save: Callable[[ScoreSheet], None],
    ask: Callable[[str], str],
    show: Callable[[RenderableType], None],
) -> ScoreSheet:
    """Fill in `sheet` interactively: `ask(prompt)` returns a typed line (EOFError ends), `show` prints.

    `save(sheet)` is called after every accepted hand, every undo, and on leaving.
    """
    return _Session(sheet, save, ask, show).run()
