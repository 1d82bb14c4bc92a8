"""`python -m research.lab COMMAND ...`: minodice's command line with the lab's bots and `train` (`research.lab.cli`).

It runs `research.lab.cli` as the main module rather than this one: processes spawned by a command
(`tournament --jobs`, `analyze --jobs`) import the main module again, which registers the lab's bots
there too, and multiprocessing never imports a package's `__main__` in them.
"""

import runpy

runpy.run_module("research.lab.cli", run_name="__main__", alter_sys=True)
