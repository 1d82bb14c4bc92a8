"""The repository's lab: the experiment log, its data and benchmarks, and the experiment-only code (`research.lab`).

Not part of the package (the wheel holds only `src/minodice`); importable from the repository's root, as
`python -m research.lab` runs it.
"""
