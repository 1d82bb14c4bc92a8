"""The name limit is said before it is reached: real Chromium against a real `minodice serve`.

The server says its limit (GET /api/options `name.max_length`, protocol.NAME_MAX); the create and join
name fields take it as their maxlength, say "Up to 24 characters" under the field, count the
characters near the limit, say so when a paste is cut to the limit, and put the server's refusal of a
name (`name_too_long`, `name_bot`) in words next to the field instead of a passing toast. The home
page's finished games say a bot's server-given name ("Greedy 2") in the page's language, as the game does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from minodice.server.protocol import NAME_MAX
from test_server_common import Player, make_table, play_out, server_fixtures, start

server, http = server_fixtures("webnames", turn_timeout=600)
I18N = Path(__file__).resolve().parents[1] / "src" / "minodice" / "server" / "static" / "i18n"
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
DE = json.loads((I18N / "de.json").read_text(encoding="utf-8"))


def words(tr: dict[str, Any], key: str, **params: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]), tr[key])


def _home(browser: Any, base: str, lang: str = "en") -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector("#screen-home:not([hidden])")
    return page


def test_the_server_says_its_limit(http: Any) -> None:
    assert http.get("/api/options").json()["name"] == {"max_length": NAME_MAX}


def test_the_create_field_says_the_limit_counts_and_says_a_cut(server: Any, browser: Any) -> None:
    page = _home(browser, server.base)
    field, note = page.locator("#create-name"), page.locator("#create-name-note")
    assert field.evaluate("(e) => e.maxLength") == NAME_MAX
    assert note.text_content() == words(EN, "name.limit", limit=NAME_MAX)
    assert field.get_attribute("aria-describedby") == "create-name-note"
    field.press_sequentially("Anastasia")
    assert note.text_content() == words(EN, "name.limit", limit=NAME_MAX)  # far from the limit: no count
    field.fill("A" * (NAME_MAX - 3))
    assert note.text_content() == words(EN, "name.count", n=NAME_MAX - 3, limit=NAME_MAX)
    # A paste of a 40-character name: the browser keeps 24 and the page says the rest was left out.
    field.fill("")
    field.focus()
    page.keyboard.insert_text("Maximiliana Alexandra von Hohenberg-Sayn")
    assert len(field.input_value()) == NAME_MAX
    assert note.text_content() == words(EN, "name.cut", limit=NAME_MAX)
    # In another language, the same in its words.
    page.select_option("#lang-switch", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    field.fill("Ana")
    assert note.text_content() == words(DE, "name.limit", limit=NAME_MAX)
    page.context.close()


def test_a_refused_name_is_said_next_to_the_field(server: Any, browser: Any) -> None:
    page = _home(browser, server.base)
    field, note = page.locator("#create-name"), page.locator("#create-name-note")
    # A name too long (as a page without the limit would send it: set by script, past maxlength).
    field.evaluate("(e, n) => { e.value = 'x'.repeat(n); }", NAME_MAX + 6)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#create-name[aria-invalid=true]")
    assert note.text_content() == words(EN, "code.name_too_long", limit=NAME_MAX)
    assert page.evaluate("document.activeElement.id") == "create-name"
    assert page.locator("#screen-home").is_visible()
    # Typing again clears the refusal; a bot's name is refused in words the same way.
    field.fill("Greedy 2")
    assert field.get_attribute("aria-invalid") is None
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#create-name[aria-invalid=true]")
    assert note.text_content() == EN["code.name_bot"]
    page.context.close()


def test_the_join_field_has_the_limit_too(server: Any, http: Any, browser: Any) -> None:
    t = make_table(http, 3, [None, None, "greedy"], ["Ana"])
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.base}/?lang=en#table={t['code']}")
    page.wait_for_selector("#join-form:not([hidden])")
    field, note = page.locator("#join-name"), page.locator("#join-name-note")
    assert field.evaluate("(e) => e.maxLength") == NAME_MAX
    assert note.text_content() == words(EN, "name.limit", limit=NAME_MAX)
    field.fill("Greedy 1")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#join-name[aria-invalid=true]")
    assert note.text_content() == EN["code.name_bot"]
    ctx.close()


# --- a bot's name in the finished games, in the page's language ----------------------------------------


def test_the_finished_games_say_bot_names_in_the_pages_language(server: Any, http: Any, browser: Any) -> None:
    """GET /api/games says which names are the server's ("Greedy 2", `auto_names`) and the home page's
    finished games say them as the game does, in the page's language; a person's name stays as typed."""
    t = make_table(http, 3, [None, "greedy", "random"], ["Ana"])
    start(http, t["code"], t["host"])
    play_out([Player(server.ws_base, t["code"], t["tokens"][0])])
    g = next(g for g in http.get("/api/games").json()["games"] if g["code"] == t["code"])
    assert g["names"] == ["Ana", "Greedy 2", "Random 3"]
    assert g["bots"] == [None, "greedy", "random"]
    assert g["auto_names"] == [False, True, True]
    es = json.loads((I18N / "es.json").read_text(encoding="utf-8"))
    for lang, tr in (("en", EN), ("es", es), ("de", DE)):
        page = _home(browser, server.base, lang)
        item = page.locator(f"#past-games-list li[data-code='{t['code']}']")
        item.wait_for()
        said = " | ".join(item.locator(".past-players li").all_text_contents())
        expected = [words(tr, "bot.seat_name", bot=tr[f"bot.{bot}.short"], n=seat + 1) for seat, bot in ((1, "greedy"), (2, "random"))]
        assert all(name in said for name in [*expected, "Ana"]), f"{lang}: {said!r}, not {expected}"
        if lang != "en":
            assert "Greedy" not in said and "Random" not in said, f"{lang}: {said!r}"
        page.context.close()
