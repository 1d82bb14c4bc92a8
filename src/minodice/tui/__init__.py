"""The terminal game (`minodice play`): one person against bots, drawn with rich.

`session` runs a game (setup, bots, saving, resuming), `render` draws what the
person's seat may know, `prompts` reads what they type.
"""

from .session import PlaySettings, SetupError, run

__all__ = ["PlaySettings", "SetupError", "run"]
