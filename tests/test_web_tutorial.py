"""Learning to play, in real Chromium against a real `minodice serve` (bots at delay 0, no pauses).

"Play now" is one click from the home page to a started game against three medium bots; the create
form's other seats are bots of the chosen level unless a friend is chosen. The tutorial is completed
from its first lesson to "You are ready" in English, German, Spanish and French, each lesson in the
page's language and checked by axe-core (nothing serious or critical); the coach covers neither the
head line, the seats, the trick nor your dice or bid pad (on a phone at every moment of its hands). The rules page shows the engine's numbers (`rules.hand_score`, the bonuses) in
every language, axe-clean, and the help gives the penalties and bonuses. Screenshots: the tutorial
(laptop and phone) and the rules page, by `_shot` (test_web_table.py).

Needs Playwright, Debian's chromium and axe-core (`npm ci --prefix tests/a11y`), like test_web_layout.py.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from minodice.rules import GRIFFIN_BONUS, MERMAID_BONUS, Rules, hand_score
from minodice.server.tutorial import EXAMPLES
from test_server_common import server_fixtures
from test_web_layout import LOCALES, SIZES, _axe, _inside, _overlap, _page
from test_web_table import _shot

server, http = server_fixtures("webtutorial", turn_timeout=600)

STATIC = Path(__file__).resolve().parents[1] / "src" / "minodice" / "server" / "static"
LAPTOP = SIZES["1280x800"]
PHONE = SIZES["390x844"]
#: The lessons every tutorial says, in this order (the others are said when the game shows them).
CORE = ["welcome", "dice", "revealed", "lead", "trick", "score"]


def _i18n(lang: str) -> dict[str, Any]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def axe_ready() -> None:
    from test_web_a11y import AXE, _missing

    if not AXE.is_file():
        _missing(f"axe-core is not installed ({AXE} missing): npm ci --prefix tests/a11y")


def _code(page: Any) -> str:
    return page.evaluate("async () => (await import('/js/state.js')).S.code")


# --- Play now, and the create form's seats ----------------------------------------------------------


def test_play_now_is_one_click_to_a_game_against_medium_bots(server: Any, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, f"{server.base}/?lang=en", LAPTOP, errors=errors)
    page.wait_for_selector("#screen-home:not([hidden])")
    # A solo player changes nothing on the create form: every other seat is a bot of the level.
    seats = page.locator("#create-seat-list select")
    assert seats.count() == 4
    assert [seats.nth(i).input_value() for i in range(1, 4)] == ["level"] * 3
    assert page.locator("#create-level").input_value() == "medium"
    page.click("#play-now-btn")
    page.wait_for_selector("#screen-game:not([hidden]) #bid-pad:not([hidden])")
    table = httpx.get(f"{server.base}/api/tables/{_code(page)}").json()
    assert table["status"] == "playing"
    players = table["players"]
    assert [p["kind"] for p in players] == ["human", "bot", "bot", "bot"]
    assert [p["bot"] for p in players[1:]] == ["medium"] * 3
    assert players[0]["name"] == _i18n("en")["play.default_name"]
    assert page.locator("#coach").is_hidden()  # not a tutorial: no coach
    # The name typed in the create form is the one played under.
    page.goto(f"{server.base}/?lang=en")
    page.wait_for_selector("#screen-home:not([hidden])")
    page.fill("#create-name", "Ana")
    page.click("#play-now-btn")
    page.wait_for_selector("#screen-game:not([hidden]) #bid-pad:not([hidden])")
    assert httpx.get(f"{server.base}/api/tables/{_code(page)}").json()["players"][0]["name"] == "Ana"
    assert errors == []
    page.context.close()


# --- the tutorial, whole, in each language ----------------------------------------------------------

COACH_CLEAR = """() => {
  const box = (e) => { if (!e || e.closest('[hidden]')) return null; const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  return { ih: innerHeight, iw: innerWidth, sy: scrollY, coach: box(document.getElementById('coach')),
           trick: box(document.querySelector('#felt .centre')), rack: box(document.getElementById('my-dice')),
           pad: box(document.getElementById('bid-pad')), hand: box(document.getElementById('hand-info')),
           turn: box(document.getElementById('turn-info')),
           seats: [...document.querySelectorAll('#players .player')].map(box) };
}"""


def _coach_covers_nothing(page: Any, where: str) -> None:
    """The coach covers neither the head line (hand, turn), nor a seat, the trick, your dice or the bid pad."""
    w = page.evaluate(COACH_CLEAR)
    assert w["coach"] is not None, where
    for name in ("hand", "turn", "trick", "rack", "pad"):
        if w[name] is not None:
            assert not _overlap(w["coach"], w[name]), f"{where}: the coach covers the {name}: {w}"
    assert w["seats"], where
    for i, seat in enumerate(w["seats"]):
        assert seat is None or not _overlap(w["coach"], seat), f"{where}: the coach covers seat {i}: {w}"
    assert _inside(w["rack"], w), f"{where}: the rack is out of the window: {w}"
    assert w["sy"] == 0, f"{where}: the page scrolled: {w}"


def _move(page: Any, step: str) -> bool:
    """Press Next of lesson `step` (the one read), else bid or roll if it is my turn (the first bid, the
    first legal die); True if done."""
    for selector in (f"#coach[data-step={step}] [data-coach=next]", "#bid-pad:not([hidden]) #bid-buttons button:not([aria-disabled])", "#my-dice .die-btn.legal"):
        target = page.locator(selector).first
        if target.count() and target.is_visible():
            target.click()
            return True
    return False


def _play_tutorial(page: Any, lang: str, shots: dict[str, str] | None = None) -> tuple[list[str], list[str]]:
    """From the home page, the tutorial to its last lesson: the lessons said, in order, and axe's findings."""
    words = _i18n(lang)
    page.wait_for_selector("#screen-home:not([hidden])")
    page.click("#tutorial-btn")
    page.wait_for_selector("#coach:not([hidden])[data-step]")
    steps: list[str] = []
    problems: list[str] = []
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"{lang}: the tutorial did not end; lessons {steps}"
        step = page.locator("#coach").get_attribute("data-step")
        if not steps or steps[-1] != step:
            steps.append(step)
            page.wait_for_timeout(50)
            assert page.locator("#coach-h").text_content() == words["tutorial.title"]
            text = page.locator("#coach-text").text_content() or ""
            assert text.strip() and "tutorial." not in text and "{" not in text, f"{lang} {step}: {text!r}"
            problems += _axe(page, f"{lang} tutorial, {step}")
            if shots and step in shots:
                _shot(page, shots[step])
        if step == "end":
            break
        if not _move(page, step):
            page.wait_for_timeout(60)
    return steps, problems


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_whole_tutorial_in_each_language(server: Any, browser: Any, axe_ready: None, lang: str) -> None:
    errors: list[str] = []
    page = _page(browser, f"{server.base}/?lang={lang}", LAPTOP, locale=LOCALES[lang], errors=errors)
    shots = {"lead": "tutorial", "end": "tutorial-end"} if lang == "en" else None
    steps, problems = _play_tutorial(page, lang, shots)
    # Every core lesson in order, then what the seed's hands show, and "You are ready" last.
    assert [s for s in steps if s in CORE] == CORE, steps
    assert {"special", "cycle", "follow", "bonus"} <= set(steps), steps
    assert steps[-1] == "end"
    assert page.locator("#coach [data-coach=play]").text_content() == _i18n(lang)["play.now"]
    assert problems == [], "\n".join(problems)
    _coach_covers_nothing(page, f"{lang}, laptop")
    # The tutorial's table is a real one: you and three medium bots.
    players = httpx.get(f"{server.base}/api/tables/{_code(page)}").json()["players"]
    assert [p["bot"] for p in players] == [None, "medium", "medium", "medium"]
    # "Play now" from its end: a new game, and the coach is gone.
    code = _code(page)
    page.click("#coach [data-coach=play]")
    page.wait_for_function("async (old) => (await import('/js/state.js')).S.code !== old", arg=code)
    page.wait_for_selector("#screen-game:not([hidden])")
    assert page.locator("#coach").is_hidden()
    assert errors == []
    page.context.close()


def test_the_tutorial_on_a_phone_covers_neither_the_table_nor_the_dice(server: Any, browser: Any, axe_ready: None) -> None:
    """On a phone the coach sits between the head line and the felt, in the room the game leaves: at no
    lesson and no moment of the tutorial's hands does it cover the hand and turn line, a seat, the trick,
    your dice or the bid pad. With a full trick it is one line, "Show the lesson" giving it its height."""
    page = _page(browser, f"{server.base}/?lang=en", PHONE)
    page.wait_for_selector("#screen-home:not([hidden])")
    page.click("#tutorial-btn")
    page.wait_for_selector("#coach:not([hidden])[data-step=welcome]")
    _coach_covers_nothing(page, "phone, welcome")
    page.locator("#coach [data-coach=next]").click()  # to "your dice", with the bid pad shown
    page.wait_for_selector("#coach[data-step=dice]")
    page.wait_for_selector("#bid-pad:not([hidden])")
    _coach_covers_nothing(page, "phone, your dice")
    assert page.locator("#coach-text").is_visible()  # while bidding there is room for the lesson's words
    assert _axe(page, "phone tutorial") == []
    # Focus follows "Next": on the next lesson's button.
    assert page.evaluate("document.activeElement.dataset.coach") == "next"
    _shot(page, "tutorial-phone")
    # On through the tutorial's hands, measured at each lesson and at each die on the trick.
    seen: set[tuple[str, int, str]] = set()
    squeezed = False
    deadline = time.monotonic() + 120
    while (step := page.locator("#coach").get_attribute("data-step")) != "end":
        assert time.monotonic() < deadline, f"the tutorial did not end; moments {sorted(seen)}"
        moment = (step, page.locator("#trick li").count(), page.locator("#hand-info").text_content() or "")
        if moment not in seen:
            seen.add(moment)
            page.wait_for_timeout(300)  # the coach fits itself to the room every quarter second
            _coach_covers_nothing(page, f"phone, {moment}")
            if not squeezed and "squeezed" in (page.locator("#coach").get_attribute("class") or ""):
                squeezed = True
                # One line: the lesson's number and "Show the lesson", which opens it (by keyboard too)...
                toggle = page.locator("#coach-toggle")
                assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
                assert toggle.text_content() == _i18n("en")["tutorial.more"]
                assert _axe(page, f"phone tutorial, one line, {moment}") == []
                toggle.focus()
                page.keyboard.press("Enter")
                assert toggle.get_attribute("aria-expanded") == "true"
                assert page.locator("#coach-text").is_visible()
                assert toggle.text_content() == _i18n("en")["tutorial.less"]
                # ... the game moving down under it rather than being covered; "Show the table" closes it.
                w = page.evaluate(COACH_CLEAR)
                assert not any(_overlap(w["coach"], s) for s in w["seats"] if s), w
                page.keyboard.press("Enter")
                page.wait_for_timeout(300)
                assert toggle.get_attribute("aria-expanded") == "false"
                _coach_covers_nothing(page, f"phone, closed again, {moment}")
        if not _move(page, step):
            page.wait_for_timeout(60)
    assert squeezed, f"never a full trick with the coach on one line: {sorted(seen)}"
    page.wait_for_timeout(300)
    _coach_covers_nothing(page, "phone, the end")
    page.context.close()


def test_the_tutorial_starts_from_the_help(server: Any, browser: Any) -> None:
    page = _page(browser, f"{server.base}/?lang=fr", LAPTOP, locale="fr-FR")
    page.wait_for_selector("#screen-home:not([hidden])")
    page.click("#help-btn")
    assert page.locator("#help-scoring").text_content() == _i18n("fr")["help.scoring"].format(
        made="+20", zero="+10", missed="-10", zero_missed="-10", mermaid=f"+{MERMAID_BONUS}", griffin=f"+{GRIFFIN_BONUS}")
    page.locator("#help [data-tutorial]").click()
    page.wait_for_selector("#coach:not([hidden])[data-step=welcome]")
    assert page.locator("#coach-h").text_content() == _i18n("fr")["tutorial.title"]
    page.context.close()


# --- the rules page -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_rules_page_shows_the_engines_numbers(server: Any, browser: Any, axe_ready: None, lang: str) -> None:
    errors: list[str] = []
    page = _page(browser, f"{server.base}/rules.html?lang={lang}", LAPTOP, locale=LOCALES[lang], errors=errors)
    page.wait_for_selector(".rules-example")
    words = _i18n(lang)
    assert page.locator("h2.rules-title").text_content() == words["rules.title"]
    points = page.locator("[data-scoring=standard] .rules-example td.points").all_text_contents()
    expected = [hand_score(b, w, n, 0, Rules()) for b, w, n in EXAMPLES]
    assert [int(p) for p in points] == expected
    made = page.locator("[data-case=made]").text_content()
    assert made == words["rules.score_made"].replace("{made}", f"+{hand_score(1, 1, 1, 0, Rules())}")
    missed = page.locator("[data-case=missed]").text_content()
    assert missed == words["rules.score_missed"].replace("{missed}", str(hand_score(2, 1, 2, 0, Rules())))
    assert f"+{MERMAID_BONUS}" in page.locator("[data-case=mermaid]").text_content()
    assert f"+{GRIFFIN_BONUS}" in page.locator("[data-case=griffin]").text_content()
    assert page.locator("#rules-dice tbody tr").count() == 7
    assert _axe(page, f"{lang} rules page") == []
    if lang == "en":
        _shot(page, "rules-page")
    # On a phone too: nothing wider than the screen (German's long headings wrap).
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, lang
    assert errors == []
    page.context.close()


def test_the_rules_page_is_linked_from_home_and_help(server: Any, browser: Any) -> None:
    page = _page(browser, f"{server.base}/?lang=en", LAPTOP)
    page.wait_for_selector("#screen-home:not([hidden])")
    assert page.locator("#play-now a[href='/rules.html']").is_visible()
    assert page.locator("#help a[href='/rules.html']").count() == 1
    page.click("#rules-link")
    page.wait_for_selector(".rules-example")
    page.context.close()
