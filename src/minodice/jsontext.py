"""The one strict reader of the JSON files minodice reads: game records, score sheets, anything a user passes.

Python's `json` accepts what JSON does not (NaN, Infinity), keeps the last of a repeated key (readers
differ on which wins), reads numbers of any length (slowly, and not past 4,300 digits), nests as deep
as its recursion allows, and `Path.read_text` reads a file of any size. Every file argument goes through
`read` and `parse` instead: at most `MAX_BYTES`, UTF-8 without a byte-order mark, no repeated key, no
NaN or infinity, at most `MAX_DIGITS` digits a number, at most `MAX_DEPTH` levels, no lone surrogate.
A refusal is a `JSONTextError` whose message says what is wrong in words.

>>> parse('{"a": 1}')
{'a': 1}
>>> parse('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
minodice.jsontext.JSONTextError: the key "a" appears twice in one object
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_DIGITS", "JSONTextError", "parse", "read"]

#: The largest file read, in bytes (a finished six-player game record is about 15 kB).
MAX_BYTES = 8_000_000
#: How deep the JSON may nest (a record needs 7 levels; deeper would exhaust the recursion of whatever
#: prints or writes it later).
MAX_DEPTH = 64
#: The most digits a number may have.
MAX_DIGITS = 64
#: A JSON escape that may stand for a lone surrogate, and a surrogate (fast tests before looking for one).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONTextError(ValueError):
    """Text or a file that the strict reader refuses; the message says why, in words."""


class _Unreadable(ValueError):
    """Raised while parsing: the JSON holds something the reader refuses."""


def read(path: str | Path, *, what: str = "file") -> str:
    """The text of file `path`: at most MAX_BYTES, UTF-8 (JSONTextError, naming `what` it should be, if not)."""
    try:
        with Path(path).open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except OSError as exc:
        raise JSONTextError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise JSONTextError(f"the file is larger than {MAX_BYTES // 1_000_000} MB, far more than any {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONTextError(f"cannot read the file: it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def parse(text: str | bytes) -> Any:
    """`text` as JSON, strictly (JSONTextError saying what it holds that JSON files here may not)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONTextError(f"it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if text.startswith("\ufeff"):
        raise JSONTextError("it starts with a byte-order mark: save it as UTF-8 without one")
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_int=_integer, parse_float=_fraction,
                          parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONTextError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except _Unreadable as exc:
        raise JSONTextError(str(exc)) from None
    except RecursionError:
        raise JSONTextError(f"its JSON nests deeper than {MAX_DEPTH} levels") from None
    suspect = _SURROGATE_ESCAPE.search(text) is not None or _SURROGATE.search(text) is not None
    problem = _unreadable(data, strings=suspect)
    if problem is not None:
        raise JSONTextError(problem)
    return data


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict; _Unreadable if it gives a key twice (JSON readers differ on which wins)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _Unreadable(f"the key {quote(key)} appears twice in one object")
            seen.add(key)
    return obj


def _integer(digits: str) -> int:
    """A JSON integer; _Unreadable if it has more than MAX_DIGITS digits."""
    count = len(digits.lstrip("-"))
    if count > MAX_DIGITS:
        raise _Unreadable(f"a number has {count} digits; at most {MAX_DIGITS} are read")
    return int(digits)


def _fraction(text: str) -> float:
    """A JSON number with a fraction or exponent; _Unreadable if it is too large for a float (1e400)."""
    if len(text) > MAX_DIGITS * 2:
        raise _Unreadable(f"a number has {len(text):,} characters; at most {MAX_DIGITS * 2} are read")
    value = float(text)
    if math.isinf(value):
        raise _Unreadable(f"the number {quote(text)} is too large")
    return value


def _constant(name: str) -> Any:
    """NaN, Infinity and -Infinity, which Python's reader accepts and JSON does not."""
    raise _Unreadable(f"{name} is not a JSON value")


def _unreadable(data: Any, *, strings: bool) -> str | None:
    """Why parsed JSON is refused: nesting deeper than MAX_DEPTH, or (`strings`) a lone surrogate.

    Walked level by level without recursion (this runs on every file read, so it is kept lean).
    """
    if strings and type(data) is str and _SURROGATE.search(data):
        return f"the text {quote(data)} holds a lone UTF-16 surrogate, which is no character"
    level, depth = [data], 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return f"its JSON nests deeper than {MAX_DEPTH} levels"
        below: list[Any] = []
        for value in level:
            if type(value) is dict:
                children = [*value, *value.values()] if strings else value.values()
            elif type(value) is list:
                children = value
            else:
                continue
            for child in children:
                if type(child) is dict or type(child) is list:
                    below.append(child)
                elif strings and type(child) is str and _SURROGATE.search(child):
                    return f"the text {quote(child)} holds a lone UTF-16 surrogate, which is no character"
        level = below
    return None


def quote(value: Any, most: int = 60) -> str:
    """A JSON value as a message quotes it: as JSON, cut short after `most` characters."""
    text = json.dumps(value)
    return text if len(text) <= most else text[: most - 1] + "…"
