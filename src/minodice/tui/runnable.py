"""The lines the terminal game prints for the person to type next (resume a game, verify its record), written
as they run from where the person is: `minodice ...` when that is the program on their PATH, else the
program's own path (`.venv/bin/minodice ...`), and `make play ARGS="..."` for a game `make play` started.

`Runnable` is how the lines are written; the command line finds it out (`cli.play.runnable_here`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Runnable"]

#: Characters that would need more than double quotes around `make`'s ARGS in a shell (or that make expands).
_NOT_IN_MAKE_ARGS = set('"$`\\!')


@dataclass(frozen=True)
class Runnable:
    """How the person runs minodice: `program` as typed where they are (`minodice`, `.venv/bin/minodice`,
    `python -m minodice`), and `make`, the make target that started the game, if one did (`play`)."""

    program: str = "minodice"
    make: str | None = None

    def command(self, command: str, *args: str | Path) -> str:
        """`program command args...`, each argument quoted for a POSIX shell."""
        return " ".join([self.program, command, *(shlex.quote(str(a)) for a in args)])

    def play(self, *args: str | Path) -> str:
        """The line that runs `minodice play args...`: through make if make started this game.

        >>> Runnable(".venv/bin/minodice", make="play").play("--resume", "minodice-save-5.json")
        'make play ARGS="--resume minodice-save-5.json"'
        >>> Runnable("minodice").play("--resume", "my game.json")
        "minodice play --resume 'my game.json'"
        """
        words = " ".join(shlex.quote(str(a)) for a in args)
        if self.make is not None and not set(words) & _NOT_IN_MAKE_ARGS:
            return f'make {self.make} ARGS="{words}"'
        return self.command("play", *args)
