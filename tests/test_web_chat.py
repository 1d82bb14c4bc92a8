"""The table chat in the browser: real headless Chromium against a real `minodice serve`.

Two browsers (a laptop and a phone) chat in the lobby and during the game; text
that looks like HTML is shown as it was typed and never runs; a reaction reaches
the other page (and its "minodice:reaction" event); the phone has no sideways
scrolling; a player the host mutes is told so in words; a spectator reads only;
and the panel speaks French.

Needs Playwright for Python and Debian's chromium; skipped with the reason when
either is missing (the `browser` fixture).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from minodice.server.chat import REACTIONS
from test_server_common import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "src" / "minodice" / "server" / "static" / "i18n"
LANGS = ("en", "es", "fr", "de")
XSS = ('<img src=x onerror="window.__xss=1;alert(1)">', "<script>window.__xss=2;alert(2)</script>")


def _load(lang: str) -> dict[str, Any]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def test_every_reaction_and_chat_key_is_translated() -> None:
    """The reaction buttons' names are keys built at run time: each served reaction has one in every language."""
    for lang in LANGS:
        table = _load(lang)
        for name in REACTIONS.values():
            assert table.get(f"chat.reaction.{name}"), f"{lang}.json: chat.reaction.{name} is missing"


# --- a real server and browsers ----------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A real `minodice serve` (bots at delay 0), as the other server tests start it; yields its base URL."""
    tmp = tmp_path_factory.mktemp("webchat")
    srv = ServerProcess(f"sqlite:///{tmp / 'chat.db'}", tmp / "server.log", turn_timeout=600).start()
    yield srv.base
    srv.stop()


def _post(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def table(server: str, started: bool = False) -> dict[str, Any]:
    """Ana (the host, seat 0) and Bo (seat 1) with two bots; started or in the lobby."""
    made = _post(
        f"{server}/api/tables", {"seats": 4, "bots": [None, None, "greedy", "random"], "name": "Ana"}
    )
    code = made["table"]["code"]
    bo = _post(f"{server}/api/tables/{code}/join", {"name": "Bo"})
    if started:
        _post(f"{server}/api/tables/{code}/start", {}, made["host_token"])
    return {"code": code, "host": made["host_token"], "ana": made["token"], "bo": bo["token"]}


def open_page(browser: Any, url: str, errors: list[str], phone: bool = False, locale: str = "en-US") -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 860}
    ctx = browser.new_context(
        viewport=size, reduced_motion="reduce", locale=locale, is_mobile=phone, has_touch=phone
    )
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(url)
    page.wait_for_selector("#chat:not([hidden]) #chat-h")
    return page


def personal(server: str, t: dict[str, Any], who: str) -> str:
    return f"{server}/#table={t['code']}&token={t[who]}"


def lines(page: Any) -> list[str]:
    return [" ".join(s.split()) for s in page.locator("#chat-log .chat-line").all_text_contents()]


def wait_line(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-log .chat-line')].some(l => l.textContent.replace(/\\s+/g, ' ') === t)",
        arg=text,
    )


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_two_browsers_chat_and_html_stays_text(server: str, browser: Any) -> None:
    errors: list[str] = []
    t = table(server)
    ana = open_page(browser, personal(server, t, "ana"), errors)
    bo = open_page(browser, personal(server, t, "bo"), errors, phone=True)
    assert ana.locator("#screen-lobby").is_visible() and bo.locator("#screen-lobby").is_visible()
    # the panel: a heading, a log read out politely, a labelled input of 200 characters at most
    log = ana.locator("#chat-log")
    assert log.get_attribute("role") == "log" and log.get_attribute("aria-live") == "polite"
    assert ana.locator("#chat-h").text_content() == "Table chat"
    assert ana.locator("label[for=chat-input]").text_content() == "Message to the table"
    assert ana.locator("#chat-input").get_attribute("maxlength") == "200"
    say(ana, "Hello Bo!")
    for page in (ana, bo):
        wait_line(page, "Ana: Hello Bo!")
    ana.wait_for_function("document.getElementById('chat-input').value === ''")  # said: the box is cleared
    assert "Sent at" in (bo.locator("#chat-log .chat-line").first.get_attribute("title") or "")
    for text in XSS:
        say(bo, text)
        for page in (ana, bo):
            wait_line(page, f"Bo: {text}")
    for page in (ana, bo):
        assert page.locator("#chat img, #chat-log script").count() == 0
        assert page.evaluate("window.__xss") is None
    assert lines(ana)[-2:] == [f"Bo: {x}" for x in XSS]
    # a reaction: a line and the event the table view pops a bubble from
    bo.evaluate(
        "window.__reactions = []; document.addEventListener('minodice:reaction', e => window.__reactions.push(e.detail))"
    )
    button = ana.locator("#chat-reactions button", has_text="👍")
    assert button.get_attribute("aria-label") == "React: thumbs up"
    button.click()
    wait_line(bo, "Ana: 👍")
    assert bo.evaluate("window.__reactions") == [{"seat": 0, "reaction": "👍"}]
    assert not errors, errors
    for page in (ana, bo):
        page.context.close()


def test_typing_in_the_game_sends_chat_not_moves(server: str, browser: Any) -> None:
    """Digits typed in the chat box are words, not the game's bid shortcuts; the game is unchanged."""
    errors: list[str] = []
    t = table(server, started=True)
    ana = open_page(browser, personal(server, t, "ana"), errors)
    ana.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    ana.click("#chat-input")
    ana.keyboard.type("2")
    ana.keyboard.press("Enter")
    wait_line(ana, "Ana: 2")
    ana.wait_for_timeout(300)
    assert ana.locator("#bid-pad").is_visible()
    assert ana.locator("#bid-buttons button.chosen").count() == 0
    # a spectator reads the table's chat, and has no form to write with
    spy = open_page(browser, f"{server}/#table={t['code']}", errors)
    wait_line(spy, "Ana: 2")
    assert spy.locator("#chat-form").is_hidden() and spy.locator("#chat-reactions").is_hidden()
    assert spy.locator("#chat-watching").text_content() == _load("en")["chat.watching"]
    assert not errors, errors
    for page in (ana, spy):
        page.context.close()


def test_the_phone_never_scrolls_sideways(server: str, browser: Any) -> None:
    errors: list[str] = []
    t = table(server, started=True)
    bo = open_page(browser, personal(server, t, "bo"), errors, phone=True)
    long = "W" * 200
    say(bo, long)
    wait_line(bo, f"Bo: {long}")
    say(bo, "a\u0301" + "\u0301" * 60 + " stacked marks")
    bo.wait_for_function("document.querySelectorAll('#chat-log .chat-line').length === 2")
    width = bo.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    box = bo.locator("#chat").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    for sel in ("#chat-input", "#chat-send", "#chat-reactions button >> nth=-1"):
        b = bo.locator(sel).bounding_box()
        assert b is not None and b["x"] + b["width"] <= 390, sel
    assert not errors, errors
    bo.context.close()


def test_a_muted_player_is_told_in_words(server: str, browser: Any) -> None:
    errors: list[str] = []
    t = table(server)
    ana = open_page(browser, personal(server, t, "ana"), errors)
    bo = open_page(browser, personal(server, t, "bo"), errors)
    assert bo.locator("#chat-mutes").is_hidden()  # only the host mutes
    ana.click("#chat-mutes button:has-text('Mute Bo')")
    ana.wait_for_selector("#chat-mutes button[aria-pressed=true]:has-text('Unmute Bo')")
    say(bo, "can I talk?")
    bo.wait_for_selector("#chat-status.bad")
    assert bo.locator("#chat-status").text_content() == _load("en")["code.chat_muted"]
    assert bo.input_value("#chat-input") == "can I talk?"  # the text is kept
    assert lines(ana) == []
    ana.click("#chat-mutes button:has-text('Unmute Bo')")
    ana.wait_for_selector("#chat-mutes button[aria-pressed=false]")
    bo.wait_for_timeout(200)
    bo.press("#chat-input", "Enter")
    wait_line(ana, "Bo: can I talk?")
    bo.wait_for_selector("#chat-status:not(.bad)", state="attached")
    assert bo.locator("#chat-status").text_content() == ""
    assert bo.input_value("#chat-input") == ""
    assert not errors, errors
    for page in (ana, bo):
        page.context.close()


def test_the_panel_in_french(server: str, browser: Any) -> None:
    errors: list[str] = []
    fr = _load("fr")
    t = table(server)
    page = open_page(browser, personal(server, t, "bo"), errors, locale="fr-FR")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.locator("#chat-h").text_content() == fr["chat.title"]
    assert page.locator("#chat-send").text_content() == fr["chat.send"]
    assert page.locator("#chat-input").get_attribute("placeholder") == fr["chat.placeholder"]
    assert page.locator("#chat-reactions").get_attribute("aria-label") == fr["chat.reactions"]
    assert (
        page.locator("#chat-reactions button", has_text="👏").get_attribute("aria-label")
        == fr["chat.reaction.applause"]
    )
    say(page, "   ")
    page.wait_for_selector("#chat-status.bad")
    assert page.locator("#chat-status").text_content() == fr["code.chat_empty"]
    say(page, "Bonjour à tous")
    page.wait_for_selector("#chat-log .chat-line")
    assert lines(page) == ["Bo : Bonjour à tous"]
    # switching the language redraws the panel and the lines
    page.select_option("#lang-switch", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.locator("#chat-h").text_content() == _load("de")["chat.title"]
    assert lines(page) == ["Bo: Bonjour à tous"]
    assert not errors, errors
    page.context.close()
