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

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["CODES", "GROUPS", "TERMINAL_GROUPS", "printable", "quoted", "render"]

#: What `printable` escapes: control characters (C0, DEL, C1), line and paragraph separators,
#: the bidirectional-text controls that reorder what a terminal shows, and lone surrogates.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")

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

#: Why a seat leads a hand (`rules.hand_start_reason`).
TURN_REASONS: dict[str, str] = {
    "start_rotates": "the start player moves one seat to the left each hand",
    "start_last_winner": "the winner of the last trick of the previous hand starts (hand_start last_winner)",
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
#: Placeholders name only values a player can read (no seat indexes, no free text):
#: a refusal's English `message` may say more than its template.
SERVER_ERRORS: dict[str, str] = {
    # lobby (HTTP API)
    "no_table": "there is no table {table}",
    "expired": "this table has expired",
    "busy": "could not find a free table code; try again",
    "worker_failed": "the process working this out ended before it was done; try again",
    "table_locked": "table {table} cannot be opened: it was saved with a secret key this server does not have",
    "bad_request": "the server did not understand the request",
    "bad_bot": "that bot is not available: choose a built-in bot",
    "cheating_bot": "that bot cheats (it sees every seat's dice): it plays only in tournaments and at the terminal",
    "bad_bots": "'bots' needs one entry per seat ({seats}), got {got}",
    "bad_rules": "those rule options are not valid",
    "bad_clock": "that is not a move clock: choose off, relaxed, normal or fast",
    "bad_level": "that is not a bots' level: choose easy, medium, hard or expert",
    "bad_seat": "this table has no such seat",
    "seat_taken": "that seat is taken",
    "table_full": "every seat at this table is taken",
    "already_started": "this game has already started",
    "already_bot": "a bot already plays that seat",
    "not_handed_over": "no bot plays this seat in place of its person",
    "not_open": "this table is no longer played",
    "not_full": "some seats are still open: wait for players or give them to bots",
    "not_host": "only the host of this table may do that",
    "not_seated": "only a player seated at this table may do that",
    "not_started": "the game has not started yet",
    "not_over": "a rematch can start only once the game is over",
    "no_decision": "the hint advises your own bid or roll: ask when it is your turn",
    "no_hints": "hints are switched off at this table",
    "not_playing": "hints are given while the game is on",
    "too_large": "a request has at most {limit} bytes",
    # a player's name (create, join: `protocol.clean_name`)
    "name_empty": "a name needs at least one visible letter, digit or sign",
    "name_too_long": "a name has at most {limit} characters",
    "name_control": "a name cannot hold control characters or invisible formatting characters",
    "name_marks": "a name has at most {limit} accents or marks on one letter",
    "name_bot": "a bot's name with a number (like Greedy 2) is kept for the table's bots: choose another",
    # table and websocket
    "bad_token": "that token is not a seat at this table",
    "spectator": "spectators cannot act: join the table to play",
    "not_your_seat": "you cannot act for another seat",
    "bot_seat": "a bot plays this seat now",
    "bad_json": "a message must be one JSON object",
    "bad_message": "the server refused a malformed message",
    "not_text": "send JSON in text frames, not binary",
    "need_hello": "send hello first",
    "already_hello": "this connection has already said hello",
    "bad_hello": 'say hello with your seat token to play, or with "spectate": true to watch (not both)',
    "bad_id": "a message id is an integer from -(2^53 - 1) to 2^53 - 1 or a string of at most 64 characters",
    "duplicate_id": "this connection already used that id for another message: give each message a new id",
    "flood": "slow down: at most {limit} messages a second; messages beyond that are ignored",
    # table chat and reactions (server/chat.py)
    "chat_spectator": "spectators can read the chat; take a seat to write",
    "chat_muted": "the host has muted you at this table",
    "chat_empty": "write something to send",
    "chat_too_long": "a message has at most {limit} characters; this one has {length}",
    "chat_control": "a message cannot contain line breaks or control characters",
    "chat_bad_reaction": "that is not one of the table's reactions",
    "chat_too_fast": "slow down: at most {limit} messages in {seconds} seconds; try again in {wait} s",
    "chat_reactions_too_fast": "slow down: at most {limit} reactions in {seconds} seconds; try again in {wait} s",
    "chat_mute_no_player": "nobody sits in that seat to mute",
    "chat_mute_self": "the host cannot mute their own seat",
}
# --- END server group

# --- score sheet and referee refusals -- BEGIN sheet group
#: Why the score sheet refuses a hand or a file, and why the referee refuses a trick.
#: List parameters (names, dice, faces) are lists: the English words join them with "and";
#: `in_hand`, `in_trick`, `in_player` (where a refusal happened) are rendered by the layer.
SHEET_REFUSALS: dict[str, str] = {
    # the table of players (`table.sheet.ScoreSheet`)
    "players_not_list": "the players must be a list of names",
    "player_needs_name": "every player needs a name, not {name}",
    "name_not_printable": "the name {name} has characters that cannot be shown",
    "player_count": "Mino Dice is played by {low} to {high} players, not {count}",
    "same_name": "two players are called {name}: give every player a different name",
    "scoring_not_text": "the scoring must be one of {choices}",
    "bad_rule_value": "rule {rule} cannot be '{value}': choose one of {choices}",
    # entering a hand
    "sheet_finished": "all {hands} hands of this game are already entered: undo or correct a hand instead",
    "nothing_to_undo": "there is no hand to undo: none has been entered yet",
    "no_such_hand": "there is no hand {hand} on the sheet: it has hands 1 to {hands}",
    "no_hand_yet": "there is no hand {hand} on the sheet: it has no hands yet",
    "player_not_playing": "{name} is not playing: the players are {players}",
    "no_line_for": "the hand has no line for {players}",
    "line_count": "a hand needs one line per player ({players}), not {lines}",
    "line_not_entry": "{player}'s line is not a bid, tricks and bonuses",
    "bid_not_whole": "{player}'s bid must be a whole number from 0 to {dice}, not {value}",
    "won_not_whole": "{player}'s tricks won must be a whole number from 0 to {dice}, not {value}",
    "bid_beyond_dice": "{player}'s bid cannot be {value}: in this hand it goes from 0 to {dice}, "
    "the number of dice each player holds",
    "won_beyond_dice": "{player}'s tricks won cannot be {value}: in this hand they go from 0 to {dice}, "
    "the number of dice each player holds",
    "mermaid_not_yes_no": "{player}'s +{points} must be yes or no, not {value}",
    "griffins_not_count": "{player}'s number of +{points} bonuses must be a whole number of 0 or more, not {value}",
    "tricks_do_not_add_up": "the tricks add up to {won} ({each}), but they must add up to {dice}, "
    "the number of dice each player holds in this hand: every trick has exactly one winner",
    # bonuses
    "bonus_under_landlubber": "{player} has a bonus, but landlubber scoring has no bonuses",
    "bonus_without_trick": "{player} has a +{points}, but won no trick: a bonus comes with a trick won",
    "bonus_on_zero_bid": "{player} has a +{points}, but bid zero: bonuses never count on a zero bid",
    "bonus_bid_missed": "{player} has a +{points}, but bid {bid} and won {won}: "
    "bonuses count only when the bid is made exactly",
    "two_mermaid_bonuses": "{players} both have a +{points}, but there is one minotaur, so one +{points} a hand at most",
    "mermaid_and_griffin_bonuses": "{player} has a +{mermaid} and {players} a +{griffin}: the one minotaur die "
    "cannot both be captured by a mermaid (+{mermaid}) and win its trick (+{griffin}) in the same hand",
    "griffin_bonuses_split": "{players} all have +{points}s, but they all come from the one trick the minotaur won, "
    "so only one player can have them",
    "too_many_griffin_bonuses": "{player} has {count} +{points} bonuses, but with {seats} players a minotaur's "
    "trick can hold at most {most} griffins",
    # a saved sheet
    "sheet_unreadable": "cannot read {path}: {error}",
    "not_json": "the score sheet is not valid JSON ({error})",
    "sheet_not_object": "a score sheet is a JSON object with players, scoring and hands",
    "not_a_sheet": "this is not a Mino Dice score sheet (its format is not '{format}')",
    "hands_not_list": "the sheet's hands must be a list",
    "too_many_hands": "the sheet has {hands} hands, but the game has only {most}",
    "hand_not_list": "a hand must be a list of {players} lines, one per player",
    "line_not_object": "line {line} must be an object with bid and won",
    "line_unknown_fields": "line {line} has unknown fields: {fields}",
    "line_needs_bid_and_won": "line {line} needs both bid and won",
    # a game record from the sheet and its tricks (`table.sheet_record`)
    "record_no_hands": "the sheet has no hands yet: there is nothing to make a record of",
    "record_hand_count": "the sheet has {hands} hands but tricks were given for {given}",
    "record_trick_count": "hand {hand} has {hand} tricks; {given} were entered",
    "record_not_a_player": "'{name}' is not a player on this sheet",
    "record_no_rolls": "no rolls were entered for its first trick",
    "record_roll_once": "every player rolls exactly once in a trick",
    "record_won_differs": "by the tricks entered {player} won {won}, but the sheet says {sheet}",
    "record_score_differs": "by the tricks entered {player} scores {score}, but the sheet says {sheet} "
    "(check the bonuses)",
    # the trick referee (`table.referee`)
    "not_a_die": "'{name}' is not a die (the dice are {dice})",
    "face_needed": "'{text}': say which face the {die} die showed, e.g. {example}",
    "no_such_face": "'{text}': a {die} die has no face '{face}' (its faces: {faces})",
    "roll_count": "a trick has one roll per player, 3 to 6 (at least 2 to compare); got {count}",
    "name_count": "{given} names for {rolls} rolls: give one name per roll",
    "roller_needs_name": "every roll needs a roller's name (or leave the names out)",
    "held_roll_unknown": "held dice given for roll {roll}, but the trick has {rolls} rolls",
    "held_by_number": "held dice are given by roll number (1 to {rolls}), not '{key}'",
    "held_without_die": "{name} rolled a {die} die but was said to hold only {held}",
    "ambiguous_die": "'{name}' could mean more than one die ({dice}): type more of the name",
    "rolled_over_bag": "{count} {die} dice were rolled, but the bag holds only {bag}",
    "held_over_bag": "the dice held and rolled include {count} {die} dice, but the bag holds only {bag}",
}
# --- END sheet group

#: Why a bot spec is refused (`bots.spec.BotSpecError`): parameters that echo what was typed come quoted
#: and cut short (`quoted`); `suggestion` is empty or " (did you mean 'x'?)".
BOT_SPEC_REFUSALS: dict[str, str] = {
    "spec_empty": "a bot spec must be a name such as 'greedy' or 'cmd:python3 bot.py'",
    "cmd_empty": "'cmd:' needs a program to run, e.g. 'cmd:python3 mybot.py'",
    "unknown_bot": "unknown bot {name}{suggestion}: choose one of {choices}, or cmd:PROGRAM",
    "option_syntax": "bot option {part} in {spec} must look like key=value",
    "option_repeated": "{bot}: option {option} is given twice: give each option once",
    "no_options": "the {bot} bot takes no options (got {option})",
    "unknown_option": "the {bot} bot has no option {option}{suggestion}: its options are {choices}",
    "not_whole": "{bot}: option {option} must be a whole number, not {value}",
    "not_number": "{bot}: option {option} must be a number, not {value}",
    "not_finite": "{bot}: option {option} must be a finite number, not {value}",
    "below_range": "{bot}: option {option} must be {least}, not {value}",
    "above_range": "{bot}: option {option} may be at most {most}, not {value}",
    "not_choice": "{bot}: option {option} must be {choices}, not {value}",
    "no_file": "{bot}: option {option} must name a network file",
    "file_comma": "{bot}: option {option} names a file whose path holds a comma ({value}), which a spec cannot "
                  "hold: move or link the file",
    "unreadable_file": "{bot}: {error}",
    "weights_and_nets": "{bot}: weights names the one network it plays: leave out nets (the shipped ones)",
    "network_seconds": "{bot}: {option}={policy} takes a playout budget (sims, per), not seconds",
    "rivals_value_head": "{bot}: {which} in the value head, which estimates the seat's own points only: rivals "
                         "needs a judge that plays the hand out ({rollouts})",
    "network_sims": "{bot}: {option}={policy} plays at most {most} playouts a move (sims and bid_sims), all at once "
                    "in memory, not {sims}",
}

#: Why a command cannot run on this install (`extras.MissingExtra`).
INSTALL_REFUSALS: dict[str, str] = {
    "missing_extra": "this needs minodice's optional part '{extra}' ({module} is not installed): "
                     "pip install 'minodice[{extra}]'",
}

#: Why a server does not start, or a table does not open: its secret key (`server.sealing.SeedKeyError`).
KEY_REFUSALS: dict[str, str] = {
    "key_unreadable": "cannot read the secret key file {path}: {why}",
    "key_uncreatable": "cannot create the secret key file {path}: {why}",
    "key_short": "the secret key file {path} holds {length} bytes: it needs at least {least} "
                 "(for example `openssl rand -hex 32 > {path}`)",
    "key_needed": "a database other than a SQLite file needs a secret key file, which seals each table's seed "
                  "and hidden bids: give --secret-file FILE (created, readable by you only, when missing; every "
                  "server process on this database needs the same file) or set MINODICE_SECRET_FILE",
    "key_missing": "the seeds of this database's tables are sealed with a secret key, and its file {path} is "
                   "missing: restore it (or give it with --secret-file). Without it the games would be dealt "
                   "other dice, so the server does not start",
    "key_wrong": "the key in {path} is not the one this database's seeds are sealed with (fingerprint {known}…, "
                 "this key's {mine}…): give the right file with --secret-file. With another key the games would "
                 "be dealt other dice, so the server does not start",
    "old_key_wrong": "neither the key in {path} nor the old key in {old} is the one this database's seeds are "
                     "sealed with (fingerprint {known}…): nothing was re-sealed, so the server does not start",
    "seed_unsealable": "the seed of table {table} does not open with this key: it was sealed with another key "
                       "or altered",
    "bid_unsealable": "a bid of table {table} (action {n}) does not open with this key: it was sealed with "
                      "another key or altered",
}

#: Every group of codes the web client shows, by name (layers above add theirs here, never elsewhere; each
#: code has its words in every language file of the web client).
GROUPS: dict[str, dict[str, str]] = {
    "trick_reason": TRICK_REASONS,
    "bonus_reason": BONUS_REASONS,
    "turn_reason": TURN_REASONS,
    "illegal_action": ILLEGAL_ACTIONS,
    "server_error": SERVER_ERRORS,
    "sheet_refusal": SHEET_REFUSALS,
    "install_refusal": INSTALL_REFUSALS,
}

#: The groups of codes only the command line and the Python API show (the web never sends them, so its
#: language files need not carry them): a bot spec is typed at a terminal; the web offers names only; a
#: server whose key is wrong says so at its start, and a web client hears only `table_locked`.
TERMINAL_GROUPS: dict[str, dict[str, str]] = {
    "bot_spec_refusal": BOT_SPEC_REFUSALS,
    "key_refusal": KEY_REFUSALS,
}

#: Every code and its English template.
CODES: dict[str, str] = {
    code: text for group in (*GROUPS.values(), *TERMINAL_GROUPS.values()) for code, text in group.items()
}


def render(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The English words of `code` with `params` filled in (dice and faces by name)."""
    values = {k: _shown(getattr(v, "value", v)) for k, v in (params or {}).items()}
    template = CODES.get(code)
    if template is None:
        raise KeyError(f"unknown code {code!r}: add it to minodice.codes")
    text = template.format(**values)
    if code in TRICK_REASONS and values.get("tie"):
        text += TIE_SUFFIX.format(**values)
    return text


def printable(text: str) -> str:
    """`text` safe to print on one line: control characters, line breaks, bidi controls and lone
    surrogates as Python escapes (a newline as `\\n`, ESC as `\\x1b`); the rest, backslashes included,
    as it is, so applying it twice changes nothing. For every user-supplied string an interface prints.

    >>> printable("Ana\\nfake.json: ok")
    'Ana\\\\nfake.json: ok'
    """
    return _UNSAFE.sub(_escape, text)


#: How many characters of a bad value an error message echoes (`quoted`).
QUOTE_LIMIT = 40


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as an error message echoes it: its repr, cut after `limit` characters with the whole's
    length, so a 5,000-character option makes a one-line error, not a 10 KB one.

    >>> quoted("x")
    "'x'"
    >>> quoted("y" * 5000, limit=6)
    "'yyyyy… (5,000 characters)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(value) if isinstance(value, str | bytes) else len(text):,} characters)"


def _escape(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]


def _shown(value: Any) -> Any:
    """A parameter as `render` puts it in words: strings made `printable`, other values as they are."""
    return printable(value) if isinstance(value, str) else value
