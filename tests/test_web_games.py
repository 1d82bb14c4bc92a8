"""Whole games in real Chromium: 3 and 6 seats, on a laptop and on a phone, in all four languages.

Ana plays her seat through the page to the podium; a friend with a long name was away, so the
host handed his seat to a bot. At the first bidding, the first roll with dice on the table, the
first finished trick and the podium, the page is checked: no horizontal overflow, no name cut
or overlapping another seat, and axe-core finds no serious or critical violation.

Needs Playwright, Debian's chromium and axe-core (`npm ci --prefix tests/a11y`); skipped with the
reason when one is missing, failed instead when MINODICE_REQUIRE_BROWSER is set (CI).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from test_server_common import ServerProcess, make_table, start
from test_web_a11y import AXE, FAILING, _axe_violations, _describe, _missing
from test_web_table import LAPTOP, LAYOUT_CHECK, LONG, PHONE

#: (seats, screen size, language): each seat count on each size, each language once.
PLAYS = [(3, "laptop", "en"), (6, "phone", "es"), (3, "phone", "fr"), (6, "laptop", "de")]
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr-FR", "de": "de-DE"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not AXE.is_file():
        _missing(f"axe-core is not installed ({AXE} missing): npm ci --prefix tests/a11y")
    tmp = tmp_path_factory.mktemp("webgames")
    srv = ServerProcess(f"sqlite:///{tmp / 'games.db'}", tmp / "server.log", bot_delay=0, turn_timeout=600).start()
    yield srv
    srv.stop()


def _check(page: Any, moment: str, seats: int) -> list[str]:
    """What is wrong on the page at this moment (empty: nothing)."""
    problems = []
    got = page.evaluate(LAYOUT_CHECK) if page.locator("#screen-game").is_visible() else None
    if got is not None:
        if got["overflow"] > 0:
            problems.append(f"{moment}: the page is {got['overflow']} px wider than the screen")
        if got["cut"] or got["overlaps"] or got["outside"]:
            problems.append(f"{moment}: names cut {got['cut']}, seats overlapping {got['overlaps']}, outside {got['outside']}")
        if len(got["names"]) != seats:
            problems.append(f"{moment}: {len(got['names'])} seats shown")
    else:
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0:
            problems.append(f"{moment}: the page is {overflow} px wider than the screen")
        cut = page.evaluate(
            "[...document.querySelectorAll('#podium .pname')].filter((n) => n.scrollWidth > n.clientWidth + 1).length"
        )
        if cut:
            problems.append(f"{moment}: {cut} podium names cut")
    for v in _axe_violations(page, AXE):
        serious = [n for n in v["nodes"] if n["impact"] in FAILING]
        if serious:
            problems.append(f"{moment}: axe: " + _describe(v, serious))
    return problems


def _click(button: Any) -> None:
    """Press a button that may be replaced meanwhile (the move was made): then the loop looks again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        button.click(timeout=2_000)


@pytest.mark.parametrize(("seats", "size", "lang"), PLAYS, ids=[f"{s}-seats-{z}-{lang}" for s, z, lang in PLAYS])
def test_a_whole_game_on_every_screen_size_and_language(server: ServerProcess, browser: Any, seats: int, size: str, lang: str) -> None:
    with server.api() as http:
        t = make_table(http, seats, [None, None] + ["greedy"] * (seats - 2), ["Ana", LONG])
        start(http, t["code"], t["host"])
        r = http.post(f"/api/tables/{t['code']}/seats/1/bot", json={"bot": "random"}, headers={"Authorization": f"Bearer {t['host']}"})
        assert r.status_code == 200, r.text
    viewport = LAPTOP if size == "laptop" else PHONE
    ctx = browser.new_context(viewport=viewport, reduced_motion="reduce", locale=LOCALES[lang], is_mobile=size == "phone")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/#table={t['code']}&token={t['tokens'][0]}")
    page.wait_for_selector("#screen-game:not([hidden])")
    assert page.evaluate("document.documentElement.lang") == lang
    problems: list[str] = []
    seen: set[str] = set()
    deadline = time.monotonic() + 120
    while page.locator("#screen-podium").is_hidden():
        assert time.monotonic() < deadline, "the game did not reach the podium in time"
        assert not errors, errors
        buttons = page.locator("#bid-buttons button:not([disabled])")
        if page.locator("#bid-pad").is_visible() and buttons.count():
            if "bidding" not in seen:
                seen.add("bidding")
                problems += _check(page, "bidding", seats)
            _click(buttons.nth(buttons.count() // 3))
        elif page.locator("#my-dice button.legal").count():
            rolled = page.locator("#trick li:not(.pending)").count()
            finished = page.locator("#trick li.winning").count() and not page.locator("#trick li.pending").count()
            if "rolling" not in seen and rolled >= 2 and not finished:
                seen.add("rolling")
                problems += _check(page, "rolling, dice on the table", seats)
            if "end of trick" not in seen and finished:
                seen.add("end of trick")
                problems += _check(page, "end of trick", seats)
            _click(page.locator("#my-dice button.legal").first)
        page.wait_for_timeout(30)
    page.wait_for_selector("#podium li")
    assert page.locator("#podium li").count() == seats
    problems += _check(page, "podium", seats)
    # "end of trick" is checked when Ana leads after a finished trick, which not every deal gives her.
    assert {"bidding", "rolling"} <= seen, seen
    assert not problems, "\n".join(problems)
    assert not errors, errors
    ctx.close()
