"""Typed bot specs: every built-in bot's options declared once, one parser, one formatter.

A spec names a bot and its options, `montecarlo:sims=400,rivals=1`. Each bot
declares its options (`Option`: type, range, default, whether 0 means off,
whether it names a file, help) and one cross-field check; `BotTypes.parse`
turns text into a `BotSpec` (every value converted and checked by its
declaration), `BotTypes.spec` makes one from Python values through the same
checks, and `str(spec)` writes it back (`parse(str(spec)) == spec`). Refusals
are `BotSpecError`s carrying a code of `codes.BOT_SPEC_REFUSALS` and its
parameters; the words come from the code, with a "did you mean" where a
declared name is close.

Why not pydantic: it is not in the base install (a player's install has only
Typer, Rich and numpy), importing it costs every command tens of milliseconds
(the project keeps Typer below 0.29 for that reason), and a spec's grammar is
one line of `key=value` pairs whose every refusal must be one line naming the
option. What such a library gives — a declaration per field, `extra="forbid"`,
typed conversion, range checks — is what `Option` declares, as OpenSpiel's
`parameter_specification` declares a game's parameters with their defaults.

>>> from minodice.bots import BUILTIN
>>> spec = BUILTIN.parse("montecarlo:per=4,sims=200")
>>> str(spec), spec.get("sims"), spec.get("bid_sims")
('montecarlo:sims=200,per=4', 200, 1600)
>>> BUILTIN.parse(str(spec)) == spec
True
>>> BUILTIN.parse("montecrlo")
Traceback (most recent call last):
...
minodice.bots.spec.BotSpecError: unknown bot 'montecrlo' (did you mean 'montecarlo'?): choose one of random, greedy, montecarlo, ismcts, neural, neural+search, oracle, or cmd:PROGRAM
"""

from __future__ import annotations

import difflib
import math
import os
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..codes import quoted, render

if TYPE_CHECKING:
    from .base import Bot

__all__ = [
    "CHEATS", "BotSpec", "BotSpecError", "BotType", "BotTypes", "ExternalSpec", "Option", "Value",
]

#: A parsed option value: a whole number, a real number, or a word or path.
Value = int | float | str

#: What an option takes: a whole number, a real number, one word of `choices`, or a file's path.
Kind = Literal["whole", "number", "choice", "file"]

#: What the help says of a bot that `cheats` (see `BotType`).
CHEATS = "cheats, sees every seat's dice"

#: A whole number as a spec writes it (ASCII digits only: no `1_000`, no other scripts' digits).
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: A real number as a spec writes it (or nan/inf, refused as not finite, not as not a number).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)",
                     re.ASCII | re.IGNORECASE)
#: More digits than any option's range needs (and than `int` may read at once).
_MAX_DIGITS = 40


class BotSpecError(ValueError):
    """A bot spec that names no bot, or an option it refuses: `code` (`codes.BOT_SPEC_REFUSALS`) and `params`,
    with the English words as the message."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(render(code, params))
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its code and parameters (it crosses to and from the server's bot processes)."""
        return _refusal, (self.code, self.params)


def _refusal(code: str, params: dict[str, Any]) -> BotSpecError:
    return BotSpecError(code, **params)


def _suggestion(word: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the known word closest to `word`, or nothing if none is close."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {quoted(close[0])}?)" if close else ""


def _words(choices: tuple[str, ...], last: str = "or") -> str:
    """`a, b or c`."""
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} {last} {choices[-1]}"


def _number_text(value: float) -> str:
    """A bound in words: `10,000,000`, `0.5`, `600`."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True)
class Option:
    """One option of a bot's spec, declared once: what it takes and what it means.

    `kind` `whole` and `number` take values above `low` (from `low` with `low_inclusive`), up to `high`;
    `zero_off`: 0 is taken too, and means the option is off. `choice` takes one of `choices`; `file`
    names a file (read by the bot when it is made). `default` is the value the bot uses when the option is
    not given (None: off unless given, or a default that depends on other options, said in `help`).
    """

    name: str
    help: str
    kind: Kind = "whole"
    default: Value | None = None
    low: float = 0.0
    low_inclusive: bool = False
    high: float | None = None
    zero_off: bool = False
    choices: tuple[str, ...] = ()

    def __str__(self) -> str:
        """`sims=800` (an option with a default), or the bare name (one that is off unless given)."""
        return self.name if self.default is None else f"{self.name}={format_value(self.default)}"

    @property
    def accepts(self) -> str:
        """What it takes, in words: `a whole number from 1 to 10,000,000`, `greedy or random`, `a file`."""
        if self.kind == "choice":
            return _words(self.choices)
        if self.kind == "file":
            return "a network file"
        what = "a whole number" if self.kind == "whole" else "a number"
        low = (self.low if self.low_inclusive else None) if self.kind == "number" else (
            self.low if self.low_inclusive else math.floor(self.low) + 1)
        if self.zero_off:
            low = 0
        if low is None and self.low == 0 and self.high is None:
            return "positive"
        if low is None:
            text = f"{what} above {_number_text(self.low)}"
            return text if self.high is None else f"{text}, at most {_number_text(self.high)}"
        if self.high is None:
            return f"{_number_text(low)} or more" if self.kind == "number" else f"{what}, {_number_text(low)} or more"
        return f"{what} from {_number_text(low)} to {_number_text(self.high)}"

    def parse(self, raw: str, bot: str) -> Value:
        """`raw` as this option's value (BotSpecError naming the option and the fault)."""
        if self.kind == "choice":
            if raw not in self.choices:
                raise BotSpecError("not_choice", bot=bot, option=self.name, choices=_words(self.choices),
                                   value=quoted(raw))
            return raw
        if self.kind == "file":
            return self.check(raw, bot)
        if self.kind == "whole":
            if not _WHOLE.fullmatch(raw):
                code = "not_whole" if _NUMBER.fullmatch(raw) else "not_number"
                raise BotSpecError(code, bot=bot, option=self.name, value=quoted(raw))
            if len(raw) > _MAX_DIGITS:
                raise BotSpecError("above_range", bot=bot, option=self.name, most=_number_text(self.high or 0),
                                   value=quoted(raw))
            return self.check(int(raw), bot, raw)
        if not _NUMBER.fullmatch(raw) or len(raw) > _MAX_DIGITS:
            raise BotSpecError("not_number", bot=bot, option=self.name, value=quoted(raw))
        return self.check(float(raw), bot, raw)

    def check(self, value: object, bot: str, raw: object = None) -> Value:
        """`value` (a Python value) if this option takes it, else BotSpecError; `raw` is what to echo."""
        shown = quoted(raw if raw is not None else value if isinstance(value, str) else format_value(value))
        if self.kind == "choice":
            if value not in self.choices:
                raise BotSpecError("not_choice", bot=bot, option=self.name, choices=_words(self.choices), value=shown)
            return str(value)
        if self.kind == "file":
            if not isinstance(value, str | os.PathLike):
                raise BotSpecError("no_file", bot=bot, option=self.name)
            path = os.fspath(value)
            if not isinstance(path, str):
                raise BotSpecError("no_file", bot=bot, option=self.name)
            if not path.strip():
                raise BotSpecError("no_file", bot=bot, option=self.name)
            if "," in path:  # a comma ends a spec's value: the spec could not be written back
                raise BotSpecError("file_comma", bot=bot, option=self.name, value=quoted(path))
            return path
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BotSpecError("not_number", bot=bot, option=self.name, value=shown)
        if self.kind == "whole" and not float(value).is_integer():
            raise BotSpecError("not_whole", bot=bot, option=self.name, value=shown)
        number: int | float = int(value) if self.kind == "whole" else float(value)
        if not math.isfinite(number):
            raise BotSpecError("not_finite", bot=bot, option=self.name, value=shown)
        if self.zero_off and number == 0:
            return number
        if number < self.low or (number == self.low and not self.low_inclusive):
            raise BotSpecError("below_range", bot=bot, option=self.name, least=self.accepts, value=shown)
        if self.high is not None and number > self.high:
            raise BotSpecError("above_range", bot=bot, option=self.name, most=_number_text(self.high), value=shown)
        return number


def format_value(value: object) -> str:
    """An option value as a spec writes it, so that parsing it gives it back: `800`, `0.2`, `5`, `greedy`.

    >>> format_value(5.0), format_value(0.1 + 0.2), format_value(1e-7), format_value("value")
    ('5', '0.30000000000000004', '1e-07', 'value')
    """
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    return str(value)


@dataclass(frozen=True)
class BotSpec:
    """A built-in bot and the options given it, each converted and checked (`BotTypes.parse`, `BotTypes.spec`).

    Options are kept in their declaration's order, so equal specs are equal whatever order they were
    written in; `str()` writes the spec back, and `get` gives an option's value or its default.
    """

    name: str
    options: tuple[tuple[str, Value], ...]
    #: The bot's declaration (not part of equality: the name says which).
    type: BotType = field(compare=False, repr=False)

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={format_value(v)}" for k, v in self.options)

    @property
    def given(self) -> dict[str, Value]:
        """The options given, by name (those left out are not here)."""
        return dict(self.options)

    @property
    def keywords(self) -> dict[str, Any]:
        """The options given, as keywords for the bot's constructor (each value checked by its declaration,
        so typed as the constructor's parameter)."""
        return dict(self.options)

    def get(self, name: str) -> Value | None:
        """Option `name`'s value: as given, else its declared default (None: off, or set by another option)."""
        for key, value in self.options:
            if key == name:
                return value
        return self.type.option(name).default

    def replace(self, **values: Value | None) -> BotSpec:
        """This spec with some options set (a value of None removes the option), checked again."""
        merged: dict[str, Value | None] = {**self.given, **values}
        return self.type.spec(**{k: v for k, v in merged.items() if v is not None})


@dataclass(frozen=True)
class ExternalSpec:
    """An external program speaking `minodice-bot/1`: `cmd:PROGRAM ARGS`."""

    command: str

    @property
    def name(self) -> str:
        return "cmd"

    def __str__(self) -> str:
        return f"cmd:{self.command}"


#: Makes a built-in bot from its random stream and its (checked) spec.
Build = Callable[[random.Random, BotSpec], "Bot"]
#: A bot's check of its options together (BotSpecError for a combination it refuses).
Validate = Callable[[BotSpec], None]


@dataclass(frozen=True)
class BotType:
    """A built-in bot: its spec name, how it plays (one line), its options, their cross-field check, and the
    function that makes it (importing its module only then, so that listing bots loads no simulator).

    `instant`: it decides in microseconds, with no search — a server asks it on its event loop
    rather than handing the decision to a worker process (which costs more than the decision).
    `cheats`: it sees every seat's dice (a `bots.clairvoyance.ClairvoyantBot`): a reference, never
    an opponent for people at web tables. `explains`: it leaves the estimate of every choice it weighed
    (`bots.explain`), so it can judge decisions (`minodice analyze`, the hints); `weighs_all`, given its
    spec, says whether it weighs every legal choice (a judge must: a search that prunes cannot say what
    a pruned choice was worth).
    """

    name: str
    plays: str
    build: Build
    options: tuple[Option, ...] = ()
    validate: Validate | None = None
    instant: bool = False
    cheats: bool = False
    explains: bool = False
    weighs_all: Callable[[BotSpec], bool] = lambda spec: True

    @property
    def option_names(self) -> tuple[str, ...]:
        """The option names its spec accepts."""
        return tuple(o.name for o in self.options)

    def option(self, name: str) -> Option:
        """Its option `name` (BotSpecError if it has none, with the closest name)."""
        for option in self.options:
            if option.name == name:
                return option
        if not self.options:
            raise BotSpecError("no_options", bot=self.name, option=quoted(name))
        raise BotSpecError("unknown_option", bot=self.name, option=quoted(name),
                           suggestion=_suggestion(name, self.option_names), choices=", ".join(self.option_names))

    @property
    def usage(self) -> str:
        """Its options with their defaults: `sims=800, per=8, ..., seconds` (empty: it takes none)."""
        return ", ".join(str(o) for o in self.options)

    @property
    def brief(self) -> str:
        """Its name with its options' defaults, and whether it cheats: `oracle (sims=800, ...) [cheats, ...]`."""
        text = f"{self.name} ({self.usage})" if self.options else self.name
        return f"{text} [{CHEATS}]" if self.cheats else text

    @property
    def help(self) -> str:
        """How it plays, and its options with their defaults (a cheating bot's help begins by saying so)."""
        text = f"{self.plays} (options: {self.usage})" if self.options else self.plays
        return f"[{CHEATS}] {text}" if self.cheats else text

    def spec(self, **values: object) -> BotSpec:
        """The spec of this bot with these options (Python values; None: not given), checked as parsed ones are."""
        given = {k: v for k, v in values.items() if v is not None}
        return self._checked({k: self.option(k).check(v, self.name) for k, v in given.items()})

    def parse_options(self, text: str, whole: str) -> BotSpec:
        """The spec of this bot from the options part of `whole` (`sims=200,per=4`), each checked."""
        return self._checked(self.values(text, whole))

    def values(self, text: str, whole: str) -> dict[str, Value]:
        """The options part of `whole` (`sims=200,per=4`) as values, each checked alone (not together)."""
        values: dict[str, Value] = {}
        for part in text.split(","):
            key, eq, raw = part.partition("=")
            key = key.strip()
            if not eq or not key:
                raise BotSpecError("option_syntax", part=quoted(part), spec=quoted(whole))
            option = self.option(key)
            if key in values:
                raise BotSpecError("option_repeated", bot=self.name, option=key)
            values[key] = option.parse(raw.strip(), self.name)
        return values

    def _checked(self, values: Mapping[str, Value]) -> BotSpec:
        order = {name: i for i, name in enumerate(self.option_names)}
        spec = BotSpec(self.name, tuple(sorted(values.items(), key=lambda kv: order[kv[0]])), self)
        if self.validate is not None:
            self.validate(spec)
        return spec


class BotTypes(Mapping[str, BotType]):
    """The built-in bots by name, and the one way to read a spec (`parse`) or make one (`spec`).

    Every name, option and default shown by `minodice bots`, `play --help` and the server's bot list
    comes from here, and the defaults from `bots.defaults` (the values the bots use): the help cannot
    go stale. `aliases` names specs by other names (the levels: `expert`), resolved by `parse`.
    """

    def __init__(self, entries: Iterable[BotType]) -> None:
        self._entries = {e.name: e for e in entries}
        self._aliases: Callable[[], Mapping[str, BotSpec]] = dict

    def __getitem__(self, name: str) -> BotType:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def info(self, name: str) -> BotType:
        """The declaration of bot `name` (KeyError: no such bot)."""
        return self._entries[name]

    def add(self, entry: BotType) -> None:
        """Register another bot (a plug-in, or the research bots of `research/`): its name must be new."""
        if entry.name in self._entries or entry.name == "cmd":
            raise ValueError(f"a bot called {entry.name!r} is registered already")
        self._entries[entry.name] = entry

    def alias(self, names: Callable[[], Mapping[str, BotSpec]]) -> None:
        """Let `parse` read the names `names()` gives as their specs (asked when a name is not a bot's)."""
        self._aliases = names

    def spec(self, name: str, **values: object) -> BotSpec:
        """The spec of bot `name` with these options (Python values), checked as `parse` checks them."""
        return self._type(name).spec(**values)

    def parse(self, text: str) -> BotSpec | ExternalSpec:
        """The spec `text` names: `name`, `name:key=value,...` or `cmd:PROGRAM ARGS`; a level's name (or another
        alias) stands for its spec, and its options then replace the level's (BotSpecError in words)."""
        if not isinstance(text, str) or not text.strip():
            raise BotSpecError("spec_empty")
        if text.lstrip().startswith("cmd:"):
            command = text.lstrip()[4:].strip()
            if not command:
                raise BotSpecError("cmd_empty")
            return ExternalSpec(command)
        name, colon, rest = text.partition(":")
        name = name.strip()
        aliases = self._aliases()
        if name not in self._entries and name in aliases:
            base = aliases[name]
            return base if not colon else base.replace(**base.type.values(rest, text))
        entry = self._type(name, aliases)
        return entry.parse_options(rest, text) if colon else entry.spec()

    def _type(self, name: str, aliases: Mapping[str, BotSpec] | None = None) -> BotType:
        entry = self._entries.get(name)
        if entry is None:
            known = (*self._entries, *(aliases if aliases is not None else self._aliases()))
            raise BotSpecError("unknown_bot", name=quoted(name), suggestion=_suggestion(name, known),
                               choices=", ".join(self._entries))
        return entry

    def summary(self) -> str:
        """Every bot with its options' defaults on one line, for a command's help."""
        return ", ".join(e.brief for e in self._entries.values())

    def names(self) -> str:
        """Every bot's name, a cheating bot's marked: `random, greedy, ..., oracle (cheats, ...)`."""
        return ", ".join(f"{e.name} ({CHEATS})" if e.cheats else e.name for e in self._entries.values())

    def honest(self) -> tuple[str, ...]:
        """The names of the bots that play fair (see only their seat's view): what people may play against."""
        return tuple(e.name for e in self._entries.values() if not e.cheats)
