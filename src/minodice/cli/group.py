"""`Commands`, the click group of the `minodice` command: one voice for refusals, Ctrl-C and help.

Typer builds the group from the app (`typer.Typer(cls=Commands)`); what it changes from Typer's:

- a usage error Click finds (a missing argument, a bad number, an unknown option or command, a file
  it cannot open) is one line, `minodice COMMAND: ...` (`errors.usage_line`), exit 2, not Click's block;
- Ctrl-C in a command that does not say itself what it kept is `minodice COMMAND: interrupted; nothing
  was saved`, exit 130;
- `--install-completion SHELL` and `--show-completion SHELL` take the shell's name as well as finding it;
- the help lists each command with the whole first sentence of its help, not cut at 45 characters.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from ..codes import quoted
from .errors import EXIT_INTERRUPTED, EXIT_USAGE, NOTHING_SAVED, click_part, interrupted, line, usage_line

__all__ = ["SHELLS", "Commands", "summary"]

#: The shells `--install-completion SHELL` and `--show-completion SHELL` take (Typer's).
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
_COMPLETION_HELP = {
    "install_completion": "Install completion for the current shell, or for SHELL: --install-completion bash "
                          f"({', '.join(SHELLS)}).",
    "show_completion": "Show the completion script for the current shell (or for SHELL), to copy it or "
                       "customize the installation.",
}


def summary(help_text: str) -> str:
    """A command's help as the command list shows it: its first sentence, whole.

    >>> summary("Check game records: prints `FILE: ok`.\\n\\nExit status: 0 all valid.")
    'Check game records: prints `FILE: ok`.'
    """
    first = " ".join(help_text.split("\n\n", 1)[0].split())
    end = re.search(r"\.(\s|$)", first)
    return first[: end.start() + 1] if end else first


class Commands(TyperGroup):
    """The `minodice` group (see the module's docstring)."""

    def main(  # type: ignore[override]  # Click's signature, passed on as it is
        self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
        standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        """Run the command; in standalone mode, as the console script does, exit with its status, and say a
        Click error (`errors.usage_line`) or an abort in one line."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        exceptions = click_part("exceptions")
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except exceptions.ClickException as error:
            status = _show(error, exceptions)
        except typer.Abort:  # an end of input or a Ctrl-C at one of Click's prompts
            typer.echo(line(None, f"interrupted; {NOTHING_SAVED}"), err=True)
            status = EXIT_INTERRUPTED
        sys.exit(status if isinstance(status, int) and not isinstance(status, bool) else 0)

    def invoke(self, ctx: Any) -> Any:
        """Run the command named; Ctrl-C that the command did not answer itself is one line, exit 130."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted(ctx.invoked_subcommand)
        except click_part("exceptions").ClickException as error:
            if getattr(error, "ctx", None) is None:  # e.g. a file Click could not open: name the command
                error.command = ctx.invoked_subcommand
            raise

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """The top level's options; `--install-completion SHELL` and `--show-completion SHELL` act at once."""
        from typer.completion import install_callback, show_callback

        for i, arg in enumerate(args):
            if not arg.startswith("-"):
                break  # the command's own arguments
            flag, _, shell = arg.partition("=")
            if flag not in ("--install-completion", "--show-completion") or ctx.resilient_parsing:
                continue
            if not shell and i + 1 < len(args) and not args[i + 1].startswith("-"):
                shell = args[i + 1]
            if shell and shell not in SHELLS:  # else Typer's flag would act for the shell it finds, unasked
                ctx.fail(f"{flag} takes the name of a shell, {', '.join(SHELLS)}, or none (the current "
                         f"shell), not {quoted(shell)}")
            if shell:
                act = install_callback if flag == "--install-completion" else show_callback
                act(ctx, None, shell)  # type: ignore[arg-type]  # neither reads the parameter
        return super().parse_args(ctx, args)

    def get_params(self, ctx: Any) -> list[Any]:
        """The top level's options, the completion options' help saying that they take a shell's name."""
        params = super().get_params(ctx)
        for param in params:
            if param.name in _COMPLETION_HELP:
                param.help = _COMPLETION_HELP[param.name]  # type: ignore[attr-defined]  # an option's
        return params

    def command_rows(self, ctx: Any) -> list[tuple[str, str]]:
        """(name, first sentence of its help) of every command the help lists, in order."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or summary(command.help or "")))
        return rows

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The help's command list: each command with the whole first sentence of its help."""
        rows = self.command_rows(ctx)
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _show(error: Any, exceptions: Any) -> int:
    """Say a Click error in one line (the help asked for by running no command: the help); its status."""
    if type(error).__name__ == "NoArgsIsHelpError":
        error.show()
        return int(error.exit_code)
    if isinstance(error, exceptions.UsageError) or type(error).__name__ == "FileError":
        typer.echo(usage_line(error), err=True)
        return EXIT_USAGE
    typer.echo(line(getattr(error, "command", None), " ".join(error.format_message().split())), err=True)
    return int(error.exit_code)
