"""The `minodice sheet` command: keep the score of a game played with real dice.

`register(app)` adds the command to a Typer app. The questions live in
`run_sheet`, which takes `ask`/`show` callables, so tests drive it with
scripted lines and no terminal.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from ..rules import GRIFFIN_BONUS, MERMAID_BONUS, RULE_OPTIONS
from ..table.sheet import Entry, ScoreSheet, SheetError, check_count

__all__ = ["load_sheet", "register", "render_sheet", "run_sheet", "save_sheet", "sheet"]

#: Scoring variants, as Typer choices (from `rules.RULE_OPTIONS`).
Scoring = Enum("Scoring", {v: v for v in RULE_OPTIONS["scoring"][0]}, type=str)  # type: ignore[misc]

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


# --- files -----------------------------------------------------------------------------


def save_sheet(sheet: ScoreSheet, path: Path) -> None:
    """Write `sheet` to `path` through a temporary file and a rename, so a crash never leaves half a file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(sheet.to_json())
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_sheet(path: Path) -> ScoreSheet:
    """The sheet saved in `path`; an unreadable or broken file is a SheetError saying so."""
    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        raise SheetError("sheet_unreadable", {"path": str(path), "error": str(exc.strerror or exc)}) from None
    return ScoreSheet.from_json(text)


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


# --- the command -----------------------------------------------------------------------


def _fail(message: str, code: int = 2) -> NoReturn:
    """Print an error in words to stderr and exit (2: wrong use, 1: a bad file)."""
    typer.echo(f"minodice sheet: {message}", err=True)
    raise typer.Exit(code)


def _open(file: Path, players: list[str] | None, scoring: str | None, new: bool) -> ScoreSheet:
    """A new sheet (with --players) or the one saved in `file`, as the options ask."""
    if players:
        if file.exists() and not new:
            _fail(f"{file} already exists: continue it without --players, or add --new to start over")
        try:
            sheet = ScoreSheet(players, scoring or "standard")
        except SheetError as exc:
            _fail(str(exc))
        try:
            save_sheet(sheet, file)
        except OSError as exc:
            _fail(f"cannot write {file}: {exc.strerror or exc}", 1)
        return sheet
    if new:
        _fail("--new starts a new sheet: name the players with --players")
    if not file.exists():
        _fail(f"{file} does not exist: start a sheet with --players NAME --players NAME --players NAME")
    try:
        sheet = load_sheet(file)
    except SheetError as exc:
        _fail(f"{file} is not a usable score sheet: {exc}", 1)
    if scoring is not None and scoring != sheet.scoring:
        _fail(f"{file} uses {sheet.scoring} scoring; a game cannot change its scoring halfway")
    return sheet


def sheet(
    file: Annotated[Path, typer.Argument(help="The score sheet (JSON), created with --players, continued without.")],
    players: Annotated[
        list[str] | None,
        typer.Option("--players", "-p", help="Start a new sheet with these players in seat order (3 to 6; repeat).",
                     show_default=False),
    ] = None,
    scoring: Annotated[
        Scoring | None,  # type: ignore[valid-type]
        typer.Option(help="Scoring variant of a new sheet (default standard).", show_default=False),
    ] = None,
    new: Annotated[bool, typer.Option("--new", help="With --players: replace an existing FILE.")] = False,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Export the saved sheet to this CSV file and exit.")
    ] = None,
) -> None:
    """Keep the score of a game played with real dice: enter bids, tricks and bonuses hand by hand.

    The sheet checks every hand (tricks add up, bonuses possible), shows the totals
    and saves FILE after each hand. Type undo to remove the last hand, quit to leave.
    """
    chosen = scoring.value if scoring is not None else None  # type: ignore[attr-defined]
    if csv_out is not None and players:
        _fail("--csv exports a saved sheet: leave out --players")
    score_sheet = _open(file, players, chosen, new)
    if csv_out is not None:
        try:
            csv_out.write_text(score_sheet.to_csv(), encoding="utf-8", newline="")
        except OSError as exc:
            _fail(f"cannot write {csv_out}: {exc.strerror or exc}", 1)
        typer.echo(f"Wrote {csv_out} ({len(score_sheet.hands)} hands).")
        return
    console = Console(highlight=False)
    run_sheet(
        score_sheet,
        save=lambda s: save_sheet(s, file),
        ask=lambda prompt: Prompt.ask(Text(prompt, style="bold"), console=console),
        show=console.print,
    )


def register(app: typer.Typer) -> None:
    """Add the `sheet` command to `app`."""
    app.command("sheet")(sheet)
