"""The create form's bots' level in real Chromium against a real `minodice serve`: the levels come
from the server in order, a seat set to the level gets the level's bot, the per-seat bots are still
offered (never a cheating one), and the words are the reader's language.

Needs Playwright for Python and Debian's chromium; skipped with the reason when either is missing
(the `browser` fixture of conftest.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from minodice.bots import BUILTIN
from minodice.bots.levels import level_names
from test_server_common import ServerProcess

STATIC = Path(__file__).resolve().parents[1] / "src" / "minodice" / "server" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp: Path = tmp_path_factory.mktemp("weblevels")
    srv = ServerProcess(f"sqlite:///{tmp / 'levels.db'}", tmp / "server.log", turn_timeout=600).start()
    yield srv
    srv.stop()


def _home(browser: Any, server: ServerProcess, lang: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector("#screen-home:not([hidden])")
    return page


def _values(page: Any, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("options => options.map((o) => o.value)")


def test_a_table_created_at_a_level_seats_the_levels_bots(browser: Any, server: ServerProcess) -> None:
    page = _home(browser, server, "en")
    assert _values(page, "#create-level option") == list(level_names())
    assert page.locator("#create-level").input_value() == "medium"
    page.fill("#create-name", "Ana")
    page.select_option("#create-seats", "4")
    offered = _values(page, "#seat-kind-1 option")
    assert offered == ["human", "level", *(f"bot:{b}" for b in BUILTIN.honest())]  # never the oracle
    page.select_option("#create-level", "hard")
    assert page.locator("#seat-kind-1 option[value=level]").text_content() == "Bot: Hard level"
    page.select_option("#seat-kind-1", "level")
    page.select_option("#seat-kind-2", "level")
    page.select_option("#seat-kind-3", "bot:greedy")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#start-btn:not([disabled])")
    code = page.locator("#lobby-code").text_content()
    with httpx.Client(base_url=server.base, timeout=10) as http:
        players = http.get(f"/api/tables/{code}").json()["players"]
    assert [p["bot"] for p in players] == [None, "hard", "hard", "greedy"]
    badges = page.locator("#lobby-seats .badge").all_text_contents()
    assert badges.count("bot · Hard level") == 2 and "bot · Greedy (quick)" in badges
    page.context.close()


def test_the_levels_are_said_in_the_readers_language(browser: Any, server: ServerProcess) -> None:
    words = json.loads((STATIC / "i18n" / "de.json").read_text(encoding="utf-8"))
    page = _home(browser, server, "de")
    shown = page.locator("#create-level option").all_text_contents()
    assert shown == [words[f"level.{lv}"] for lv in level_names()]
    assert page.locator("#create-level-field span").text_content() == words["create.level"]
    page.context.close()
