"""How every `minodice` command refuses: one line, `minodice COMMAND: what is wrong`, on stderr.

The exit statuses, the same for every command (`minodice --help` states them):

- 0: done;
- 1: a fault found in what was checked (a record, a trick, a bot), or a failure while running;
- 2: bad usage or input (a missing argument, a bad number or option, a file that cannot be read);
- 130: interrupted (Ctrl-C), with a line saying what was saved.

Click's own usage errors take this form too (`usage_line`, used by `cli.group.Commands`), and a value
they echo is cut (`codes.quoted`), so a 5,000-character argument makes a one-line error.
"""

from __future__ import annotations

import re
from importlib import import_module
from types import ModuleType
from typing import Any, NoReturn

import typer

from ..codes import QUOTE_LIMIT, printable, quoted

__all__ = [
    "EXIT_FAULT", "EXIT_INTERRUPTED", "EXIT_USAGE", "NOTHING_SAVED", "click_part", "current_command", "fail",
    "interrupted", "line", "usage_line",
]

EXIT_FAULT, EXIT_USAGE, EXIT_INTERRUPTED = 1, 2, 130
#: What an interrupted command that writes nothing (or had not written yet) says it kept.
NOTHING_SAVED = "nothing was saved"
#: A value or a word longer than this, echoed in a Click message, is cut (to twice `QUOTE_LIMIT` characters).
LONGEST_WORD = 200

_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_SUGGESTION = re.compile(r"\. Did you mean (.+)\?$")
_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def click_part(name: str) -> ModuleType:
    """A module of the Click that Typer runs on: its own copy (`typer._click`, Typer 0.2x) or the click package.

    >>> click_part("exceptions").UsageError.exit_code
    2
    """
    return import_module(f"{typer.BadParameter.__module__.rpartition('.')[0]}.{name}")


def current_command() -> str | None:
    """The name of the command running now (`verify`, `play`...), None outside one (or at the top level)."""
    ctx = click_part("globals").get_current_context(silent=True)
    while ctx is not None and ctx.parent is not None and ctx.parent.parent is not None:
        ctx = ctx.parent
    return None if ctx is None or ctx.parent is None else str(ctx.info_name)


def line(command: str | None, message: str) -> str:
    """`minodice COMMAND: message` (`minodice: message` without a command), control characters escaped.

    >>> line("sheet", "no.json does not exist")
    'minodice sheet: no.json does not exist'
    """
    return printable(f"minodice {command}: {message}" if command else f"minodice: {message}")


def fail(command: str | None, message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print `line(command, message)` on stderr and exit with `code` (2: bad usage or input; 1: a fault
    found, or a failure while running). `command` None: the command running now (`current_command`)."""
    typer.echo(line(command or current_command(), message), err=True)
    raise typer.Exit(code)


def interrupted(command: str | None, kept: str = NOTHING_SAVED) -> NoReturn:
    """Ctrl-C: print `minodice COMMAND: interrupted; KEPT` (what was saved, and where) and exit 130."""
    fail(command, f"interrupted; {kept}", EXIT_INTERRUPTED)


def _cut(text: str) -> str:
    """`text` with every quoted value and every word longer than `LONGEST_WORD` cut (a path stays whole)."""
    def quote(match: re.Match[str]) -> str:
        inner = match.group(1) if match.group(1) is not None else match.group(2)
        return match.group(0) if len(inner) <= LONGEST_WORD else quoted(inner, limit=2 * QUOTE_LIMIT)

    text = _QUOTED.sub(quote, text)
    return _WORD.sub(lambda m: f"{m.group(0)[:2 * QUOTE_LIMIT]}… ({len(m.group(0)):,} characters)", text)


def usage_line(error: Any) -> str:
    """A Click error (a missing argument, a bad value, an unknown option or command, a file it cannot open)
    as a refusal: its message in one line, begun in lower case, with the value it echoes cut, and, for a
    usage error, where the usage is shown.

    A Click usage error carries the context it happened in, the command's or the top level's; one raised
    without (a file Click could not open) carries the command's name (`group.Commands.invoke`).
    """
    message = " ".join(error.format_message().split()).rstrip(".")
    message = _SUGGESTION.sub(r" (did you mean \1?)", message).replace("(Possible options:", "(possible options:")
    if re.match(r"[A-Z][a-z]", message):
        message = message[0].lower() + message[1:]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        command, path = (ctx.info_name if ctx.parent is not None else None), ctx.command_path
    else:
        command = getattr(error, "command", None)
        path = f"minodice {command}" if command else "minodice"
    hint = f"; see {path} --help" if isinstance(error, click_part("exceptions").UsageError) else ""
    return line(command, _cut(message) + hint)
