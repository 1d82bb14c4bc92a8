"""`python -m minodice.cli`: the `minodice` command."""

from . import main

main()
