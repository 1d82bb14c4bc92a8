"""The one strict JSON reader (`minodice.jsontext`): records and score sheets refuse the same things, in words,
and no text makes it fail any other way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minodice import jsontext
from minodice.table.sheet import ScoreSheet, SheetError

#: Text a JSON file here may not hold, and the words that say so.
REFUSED = [
    ('{"a": 1, "a": 2}', 'the key "a" appears twice in one object'),
    ('{"a": NaN}', "NaN is not a JSON value"),
    ('{"a": -Infinity}', "-Infinity is not a JSON value"),
    ('{"a": 1e400}', "is too large"),
    ('{"a": ' + "9" * 5000 + "}", "a number has 5000 digits; at most 64 are read"),
    ('{"a": 0.' + "5" * 500 + "}", "a number has 502 characters"),
    ("[" * 100 + "]" * 100, "nests deeper than 64 levels"),
    ("[" * 100_000 + "]" * 100_000, "nests deeper than 64 levels"),
    ('"\\ud800"', "lone UTF-16 surrogate"),
    ("\ufeff{}", "byte-order mark"),
    ("{", "not JSON: Expecting property name"),
]


@pytest.mark.parametrize(("text", "words"), REFUSED)
def test_what_no_file_here_may_hold_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(jsontext.JSONTextError, match=None) as refused:
        jsontext.parse(text)
    assert words in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(("text", "words"), REFUSED)
def test_a_score_sheet_refuses_what_a_record_refuses(text: str, words: str) -> None:
    with pytest.raises(SheetError) as refused:
        ScoreSheet.from_json(text)
    assert refused.value.code == "not_json" and words in str(refused.value.params["error"])


def test_a_file_is_read_up_to_its_limit_only(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (jsontext.MAX_BYTES + 1))
    with pytest.raises(jsontext.JSONTextError, match="larger than 8 MB, far more than any score sheet"):
        jsontext.read(big, what="score sheet")
    with pytest.raises(jsontext.JSONTextError, match="larger than 8 MB"):
        jsontext.read("/dev/zero")  # endless: read no further than the limit
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"name": "Zoë"}'.encode("latin-1"))
    with pytest.raises(jsontext.JSONTextError, match="not UTF-8 text"):
        jsontext.read(latin)
    with pytest.raises(jsontext.JSONTextError, match="cannot read the file"):
        jsontext.read(tmp_path / "missing.json")


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200) | st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
).map(json.dumps))
def test_any_text_is_json_or_a_one_line_refusal(text: str) -> None:
    try:
        data = jsontext.parse(text)
    except jsontext.JSONTextError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 300
        return
    assert data == json.loads(text)
