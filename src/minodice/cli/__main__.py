"""`python -m minodice.cli`: the `minodice` command."""

from . import app

app()
