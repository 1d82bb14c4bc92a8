"""The lab: the experiments that were measured and dropped, kept runnable outside the package.

Importing it registers its bots into minodice's bot registry (`minodice.bots.BUILTIN.add`), so that every
command, benchmark and test that takes a bot spec takes theirs too:

- `neural+search-lab` (`research.lab.bots`, `research.lab.search`): `neural+search` with the options the
  experiment log dropped: `replies=FILE` (a network plays the other seats in the network playouts),
  `judge=FILE` (another network's value head judges their leaves) and `trust=T` (the network's logits
  weighed against the estimates).

Its training (`research.lab.ppo`, `research.lab.train`) is `minodice train`'s PPO with the flags that
lost: `--against FILE`, `--guide N` and `--recall`. `python -m research.lab COMMAND ...` is minodice's
command line with the lab's bots registered and the lab's `train` (`research.lab.cli`).
"""

from __future__ import annotations

from .bots import LAB_SEARCH, register

__all__ = ["LAB_SEARCH", "register"]

register()
