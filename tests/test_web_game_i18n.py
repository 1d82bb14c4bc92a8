"""The game page says who won a trick and why in the player's language, from the server's codes.

A real `minodice serve` on 127.0.0.1 and a real Chromium, once per language (en,
es, fr, de): a player and two bots play; a websocket client on the player's own
seat records what the server sent (the trick state, the refusals, each
`trick_won` with its reason code and params). The page's words are checked
against that language's JSON file filled with those codes and params, and the
codes against `minodice.rules` — the page itself computes no rule.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from minodice.dice import Die, Face
from minodice.rules import Rules, TrickState
from test_server_common import Player, ServerProcess

STATIC = Path(__file__).resolve().parents[1] / "src" / "minodice" / "server" / "static"
LANGS = ("en", "es", "fr", "de")
#: Params that name a die, a face or a rule option → the prefix of their translation keys (as codes.js).
NAMED = {"die": "die", "colour": "die", "face": "face", "beaten": "face", "which": "rule.all_flags"}


def words_of(lang: str) -> dict[str, Any]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def fill(text: str, params: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]) if m[1] in params else m[0], text)


def reason_words(tr: dict[str, Any], reason: dict[str, Any]) -> str:
    """A server reason {code, params} in the words of translation table `tr`."""
    params = reason["params"]
    shown = {k: tr.get(f"{NAMED[k]}.{v}", v) if k in NAMED and isinstance(v, str) else v for k, v in params.items()}
    text = fill(tr[f"code.{reason['code']}"], shown)
    if params.get("tie"):
        text += fill(tr["code.tie"], shown)
    return text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp: Path = tmp_path_factory.mktemp("webi18n")
    srv = ServerProcess(f"sqlite:///{tmp / 'web.db'}", tmp / "server.log", turn_timeout=600).start()
    yield srv
    srv.stop()


def _open_table(page: Any, base: str, lang: str) -> str:
    """Create a table (the player and two bots) in `lang`, start it; its code."""
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector("#screen-home:not([hidden])")
    page.fill("#create-name", "Ana")
    page.select_option("#create-seats", "3")
    page.select_option("#seat-kind-1", "bot:greedy")
    page.select_option("#seat-kind-2", "bot:random")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#start-btn:not([disabled])")
    page.click("#start-btn")
    page.wait_for_selector("#screen-game:not([hidden])")
    return page.locator("#lobby-code").text_content()


#: The bots of the table under test whose name is the server's ("Greedy 2"): seat → bot. The page
#: says those names in its language (`bot.seat_name`), as it is told by TABLE's `auto_name`.
AUTO_NAMED: dict[int, str] = {}


def _seat_name(tr: dict[str, Any], view: dict[str, Any], seat: int) -> str:
    name = view["names"][seat]
    if seat in AUTO_NAMED:
        name = fill(tr["bot.seat_name"], {"bot": tr[f"bot.{AUTO_NAMED[seat]}.short"], "n": seat + 1})
    return fill(tr["you_name"], {"name": name}) if seat == view["seat"] else name


def _check_trick_in_progress(page: Any, tr: dict[str, Any], view: dict[str, Any]) -> None:
    """My roll, others rolled first: the page names the roll leading and why, and why a die may not be rolled."""
    from playwright.sync_api import expect

    trick = view["trick"]
    rolls = view["tricks"][-1]["rolls"]
    state = TrickState.of(((Die(r["die"]), Face(r["face"])) for r in rolls), Rules.from_dict(view["rules"]))
    assert trick["leading"] == state.leading and trick["reason"] == state.reason.to_dict()  # type: ignore[union-attr]
    expected = fill(tr["game.winning_so_far"], {
        "name": _seat_name(tr, view, rolls[trick["leading"]]["seat"]), "why": reason_words(tr, trick["reason"]),
    })
    if trick["bonus_why"]:
        expected += " " + fill(tr["game.bonus_line"], {"why": reason_words(tr, trick["bonus_why"])})
    expect(page.locator("#trick-result")).to_have_text(expected)
    for die, why in view["refusals"].items():
        expect(page.locator(f"#my-dice button[data-die='{die}'] .why").first).to_have_text(reason_words(tr, why))


def _trick_won_text(tr: dict[str, Any], view: dict[str, Any], event: dict[str, Any]) -> str:
    text = fill(tr["game.trick_won_by"], {"name": _seat_name(tr, view, event["seat"]), "why": reason_words(tr, event["reason"])})
    if event["bonus_why"]:
        text += " " + fill(tr["game.bonus_line"], {"why": reason_words(tr, event["bonus_why"])})
    return text


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_names_the_winner_and_why_in_each_language(server: ServerProcess, browser: Any, lang: str) -> None:
    from playwright.sync_api import expect

    tr = {**words_of("en"), **words_of(lang)}
    errors: list[str] = []
    ctx = browser.new_context(reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    code = _open_table(page, server.base, lang)
    token = next(c["value"] for c in ctx.cookies() if c["name"] == f"md_{code}")
    info = httpx.get(f"{server.base}/api/tables/{code}").json()
    AUTO_NAMED.clear()
    AUTO_NAMED.update({p["seat"]: p["bot"] for p in info["players"] if p["auto_name"]})
    assert sorted(AUTO_NAMED) == [1, 2]
    me = Player(server.ws_base, code, token)  # the player's own seat: what the page is sent
    won_checked = progress_checked = hint_checked = False
    deadline = time.monotonic() + 180
    while not (won_checked and progress_checked and hint_checked):
        assert time.monotonic() < deadline, "the game did not get far enough in time"
        assert not errors, errors
        me.pump(0.1)
        view = me.state["view"]  # type: ignore[index]
        if "legal" not in view:
            continue
        if isinstance(view["legal"][0], int):  # my bid
            if view["hand"] >= 2 and not won_checked:
                # The last trick of hand 1 stays shown while I bid: who won it and why, in my language.
                event = [e for m in me.received if m["type"] == "state" for e in m["events"] if e["type"] == "trick_won"][-1]
                expected = _trick_won_text(tr, view, event)
                expect(page.locator("#trick-result")).to_have_text(expected)
                if lang != "en":
                    assert expected != _trick_won_text(words_of("en"), view, event)
                won_checked = True
            if not hint_checked:
                # The hint's figures are written as the language writes numbers: 7.4 or 7,4.
                page.click("#hint-button")
                page.wait_for_selector("#hint-box:not([hidden]) .hint-best")
                point = "." if lang == "en" else ","
                figures = page.locator("#hint-box tr td:nth-child(2)").all_text_contents()
                assert figures and all(re.fullmatch(rf"[+-]?\d+\{point}\d ± \d+\{point}\d", f) for f in figures), figures
                hint_checked = True
            page.locator("#bid-buttons button:not([disabled])").first.click()
        else:  # my roll
            if view["trick"] is not None:
                _check_trick_in_progress(page, tr, view)
                progress_checked = True
            page.locator("#my-dice button.legal:not([disabled])").first.click()
        acted_on = view["legal"]
        try:
            me.wait_for(lambda m, was=acted_on: m["type"] == "error" or (m["type"] == "state" and m["view"].get("legal") != was), 10)
        except TimeoutError:
            # Under load the click can land on the page's previous screen (a button about to be
            # replaced) and go nowhere; the decision is still open, so the loop clicks again.
            continue
    assert not me.errors, me.errors
    assert not errors, errors
    me.close()
    ctx.close()
