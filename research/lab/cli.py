"""The lab's command line: minodice's (`minodice.cli`), its `train` the lab's (`research.lab.train`).

Importing this module imports `research.lab`, which registers the lab's bots: every command that takes a
bot spec (`tournament --seat`, `play --bot`, `explain --bot`, `bots`, ...) takes theirs.
"""

from __future__ import annotations

from importlib import import_module

import typer

from minodice.cli import COMMAND_GROUPS, build_app

from . import train

__all__ = ["build_lab_app", "main"]


def build_lab_app() -> typer.Typer:
    """minodice's app, every command group in its order, with the lab's `train` in place of the product's."""
    app = build_app(())
    for group in COMMAND_GROUPS:
        if group == "train":
            train.register(app)
        else:
            import_module(f"minodice.cli.{group}").register(app)
    return app


def main() -> None:
    """`python -m research.lab COMMAND ...`."""
    build_lab_app()(prog_name="python -m research.lab")


if __name__ == "__main__":  # not when a spawned worker imports this module as its main (`__mp_main__`)
    main()
