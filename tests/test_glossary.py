"""One term per idea per language: the web client's words follow the glossary.

`src/minodice/server/static/i18n/glossary.json` names, for each idea of the rules (bid, trick,
hand, lead colour, special face, …), the one term each language uses and the alternatives it must
not use ("Gebot" next to "Ansage", "annonce" next to "pari"). These tests read the four i18n
files as they are and fail on any value that says a forbidden alternative, or on a glossary term
that no longer appears at all (a glossary gone stale).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

I18N = Path(__file__).resolve().parents[1] / "src" / "minodice" / "server" / "static" / "i18n"
LANGS = ("en", "es", "fr", "de")
GLOSSARY: dict[str, Any] = json.loads((I18N / "glossary.json").read_text(encoding="utf-8"))


def _values(lang: str) -> dict[str, str]:
    """Every text of a language file by key (a plural form as "key.one"), its {placeholders} blanked."""
    out: dict[str, str] = {}
    for key, value in json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")).items():
        if isinstance(value, dict):
            out |= {f"{key}.{form}": str(text) for form, text in value.items()}
        else:
            out[key] = str(value)
    return {key: re.sub(r"\{\w+\}", "…", text) for key, text in out.items()}


def _pattern(term: str) -> re.Pattern[str]:
    """A glossary term as a case-insensitive regular expression starting at a word start."""
    return re.compile(rf"(?<!\w){term}", re.IGNORECASE)


def test_the_glossary_covers_every_language_and_the_main_ideas() -> None:
    ideas = GLOSSARY["ideas"]
    assert {"bid", "trick", "hand", "lead colour", "special face", "special die", "number die", "die", "bonus"} <= set(ideas)
    for idea, entry in ideas.items():
        assert entry["rule"], idea
        for lang in LANGS:
            assert entry[lang]["use"], (idea, lang)
            for term in entry[lang]["use"]:
                assert not any(_pattern(bad).match(term) for bad in entry[lang]["avoid"]), (idea, lang, term)


@pytest.mark.parametrize("lang", LANGS)
def test_no_forbidden_alternative_in_the_words(lang: str) -> None:
    values = _values(lang)
    found = [
        f"{key}: {bad!r} ({idea}: say {GLOSSARY['ideas'][idea][lang]['use'][0]!r}) in {text!r}"
        for idea, entry in GLOSSARY["ideas"].items()
        for bad in entry[lang]["avoid"]
        for key, text in values.items()
        if _pattern(bad).search(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_every_chosen_term_is_used(lang: str) -> None:
    text = "\n".join(_values(lang).values())
    missing = [
        (idea, term) for idea, entry in GLOSSARY["ideas"].items() for term in entry[lang]["use"]
        if not _pattern(term).search(text)
    ]
    assert not missing


def test_the_forbidden_check_would_catch_the_old_wording() -> None:
    """The check is not vacuous: the words the issue quoted are caught."""
    old = {"de": "Sonderwürfel schlagen Zahlen; Bestes Gebot: 2", "fr": "Meilleure annonce : 2"}
    for lang, text in old.items():
        hits = {bad for entry in GLOSSARY["ideas"].values() for bad in entry[lang]["avoid"] if _pattern(bad).search(text)}
        assert hits, lang
