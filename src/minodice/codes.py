"""The one registry of codes: every reason, refusal and error a layer can send, with its English words.

Values carry a code and its parameters (`rules.Reason`, `errors.IllegalAction`,
the server's errors); the words live here, once, as English templates with
`{param}` fields, and every interface translates from the code (the web
client's language files have one entry per code, checked by a test).

>>> render("must_follow", {"colour": "red", "die": "gray"})
'you must roll red or a special die: you hold red and red was led'
>>> render("highest_number", {"face": "6", "tie": True})
'6 is the highest number; of the equal 6s the later roll wins'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["CODES", "GROUPS", "render"]

#: Why the roll leading a trick leads (`rules.trick_reason`); `tie` adds TIE_SUFFIX.
TRICK_REASONS: dict[str, str] = {
    "three_specials": "all three special faces were rolled, and by the table's rule the {face} wins",
    "special_beats_special": "the {face} beats the {beaten}",
    "special_beats_numbers": "the {face} beats every number",
    "highest_number": "{face} is the highest number",
    "only_flags": "every face is a flag, and the {which} roller wins such a trick",
}
#: Added to a trick reason whose `tie` parameter is true.
TIE_SUFFIX = "; of the equal {face}s the later roll wins"

#: Why a trick's winner earns a bonus (`rules.bonus_reason`).
BONUS_REASONS: dict[str, str] = {
    "mermaid_took_minotaur": "the mermaid captured the minotaur: +{points} if the bid is made exactly",
    "minotaur_took_griffins": "the minotaur took {griffins} griffin(s): +{points} if the bid is made exactly",
}

#: The engine's refusals (`errors.IllegalAction` codes raised by `game.Game.apply`).
ILLEGAL_ACTIONS: dict[str, str] = {
    "must_follow": "you must roll {colour} or a special die: you hold {colour} and {colour} was led",
    "not_your_turn": "it is not your turn",
    "die_not_held": "you hold no {die} die",
    "unknown_die": "that is not a die",
    "unknown_seat": "there is no such seat",
    "already_bid": "that seat has already bid",
    "bid_out_of_range": "bids go from {low} to {high}",
    "wrong_phase": "that cannot be done now",
    "game_over": "the game is over",
    "bad_face": "a {die} die has no {face} face",
    "bad_deal": "that is not a possible deal",
    "bad_action": "that is not a Mino Dice action",
}

# --- server errors (the web server's HTTP and websocket refusals) -- BEGIN server group
#: The server's own refusals (lobby API and websocket protocol), beside the engine's.
SERVER_ERRORS: dict[str, str] = {}
# --- END server group

# --- score sheet and referee refusals -- BEGIN sheet group
#: Why the score sheet refuses a hand or a file, and why the referee refuses a trick.
SHEET_REFUSALS: dict[str, str] = {}
# --- END sheet group

#: Every group of codes, by name (layers above add theirs here, never elsewhere).
GROUPS: dict[str, dict[str, str]] = {
    "trick_reason": TRICK_REASONS,
    "bonus_reason": BONUS_REASONS,
    "illegal_action": ILLEGAL_ACTIONS,
    "server_error": SERVER_ERRORS,
    "sheet_refusal": SHEET_REFUSALS,
}

#: Every code and its English template.
CODES: dict[str, str] = {code: text for group in GROUPS.values() for code, text in group.items()}


def render(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The English words of `code` with `params` filled in (dice and faces by name)."""
    values = {k: getattr(v, "value", v) for k, v in (params or {}).items()}
    template = CODES.get(code)
    if template is None:
        raise KeyError(f"unknown code {code!r}: add it to minodice.codes")
    text = template.format(**values)
    if code in TRICK_REASONS and values.get("tie"):
        text += TIE_SUFFIX.format(**values)
    return text
