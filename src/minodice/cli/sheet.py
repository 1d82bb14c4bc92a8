"""The `minodice sheet` command: keep the score of a game played with real dice.

`register(app)` adds the command to a Typer app; the file is saved here. The
questions live in `minodice.tui.sheet.run_sheet`, which takes `ask`/`show`
callables, so tests drive it with scripted lines and no terminal.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from .. import jsontext
from ..table.sheet import ScoreSheet, SheetError
from .options import Scoring, fail, split_list

__all__ = ["load_sheet", "register", "save_sheet", "sheet"]


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
        text = jsontext.read(path, what="score sheet")  # at most the records' size, UTF-8
    except jsontext.JSONTextError as exc:
        raise SheetError("sheet_unreadable", {"path": str(path), "error": str(exc)}) from None
    return ScoreSheet.from_json(text)


# --- the command -----------------------------------------------------------------------


def _open(file: Path, players: list[str] | None, scoring: str | None, new: bool) -> ScoreSheet:
    """A new sheet (with --players) or the one saved in `file`, as the options ask."""
    if players:
        if file.exists() and not new:
            fail("sheet", f"{file} already exists: continue it without --players, or add --new to start over")
        try:
            sheet = ScoreSheet(players, scoring or "standard")
        except SheetError as exc:
            fail("sheet", str(exc))
        try:
            save_sheet(sheet, file)
        except OSError as exc:
            fail("sheet", f"cannot write {file}: {exc.strerror or exc}")
        return sheet
    if new:
        fail("sheet", "--new starts a new sheet: name the players with --players")
    if not file.exists():
        fail("sheet", f"{file} does not exist: start a sheet with --players NAME,NAME,NAME")
    try:
        sheet = load_sheet(file)
    except SheetError as exc:
        fail("sheet", f"{file} is not a usable score sheet: {exc}")
    if scoring is not None and scoring != sheet.scoring:
        fail("sheet", f"{file} uses {sheet.scoring} scoring; a game cannot change its scoring halfway")
    return sheet


def sheet(
    file: Annotated[Path, typer.Argument(help="The score sheet (JSON), created with --players, continued without.")],
    players: Annotated[
        list[str] | None,
        typer.Option("--players", "-p", show_default=False,
                     help="Start a new sheet with these players in seat order (3 to 6): -p Ana,Ben,Cy or -p Ana -p Ben ..."),
    ] = None,
    scoring: Annotated[
        Scoring | None,
        typer.Option(help="Scoring variant of a new sheet (default standard).", show_default=False),
    ] = None,
    new: Annotated[bool, typer.Option("--new", help="With --players: replace an existing FILE.")] = False,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Export the saved sheet to this CSV file and exit.")
    ] = None,
) -> None:
    """Keep the score of a game played with real dice: enter bids, tricks and bonuses hand by hand.

    The sheet checks every hand (tricks add up, bonuses possible), shows the totals
    and saves FILE after each hand. Type undo to remove the last hand, quit (or Ctrl-C) to leave.

    Exit status: 0 done or left (the sheet is saved after every hand); 2 wrong use, or a FILE (or --csv
    file) that cannot be read, used as a score sheet or written, said in one line.
    """
    chosen = scoring.value if scoring is not None else None
    if csv_out is not None and players:
        fail("sheet", "--csv exports a saved sheet: leave out --players")
    score_sheet = _open(file, split_list(players), chosen, new)
    if csv_out is not None:
        try:
            csv_out.write_text(score_sheet.to_csv(), encoding="utf-8", newline="")
        except OSError as exc:
            fail("sheet", f"cannot write {csv_out}: {exc.strerror or exc}")
        typer.echo(f"Wrote {csv_out} ({len(score_sheet.hands)} hands).")
        return
    from rich.console import Console
    from rich.prompt import Prompt
    from rich.text import Text

    from ..tui.sheet import run_sheet

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
