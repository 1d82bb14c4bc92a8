"""The replay page in a player's words: real Chromium against a real `minodice serve`.

Opened bare, it lists the server's finished games and opens one on a click (the saved file a second
way in); bots the server named are named in the page's language, as in the game; the judge of an
analysis is named by its level, or by its bot's name, never by its raw spec (`judge_of`).
"""

from __future__ import annotations

import json
from typing import Any

from minodice.bots.levels import LEVELS
from minodice.review import DEFAULT_BOT
from minodice.server.reviews import judge_of
from test_web_replay import I18N, _finished_game, _page, server  # noqa: F401  (the module's server fixture)

DE = json.loads((I18N / "de.json").read_text(encoding="utf-8"))


def test_the_judge_is_named_by_its_level_or_its_bot() -> None:
    assert judge_of("expert") == {"level": "expert", "bot": "neural+search"}
    assert judge_of(str(LEVELS[2].spec)) == {"level": LEVELS[2].name, "bot": LEVELS[2].spec.name}
    assert judge_of(DEFAULT_BOT) == {"level": None, "bot": "montecarlo"}
    assert judge_of("no such bot") == {"level": None, "bot": None}


def test_the_bare_page_lists_the_games_and_names_bots_in_its_language(server: Any, browser: Any) -> None:  # noqa: F811
    code, rec = _finished_game(server, ["Ana", "Bo"])
    assert rec["seats"][2] == {"name": "Greedy 3", "bot": "greedy", "auto_name": True}
    assert rec["seats"][0].get("auto_name") is False  # handed to a bot, still Ana
    page = _page(browser, server.base, "/replay.html?lang=de")
    assert page.locator("#open").is_visible() and page.locator("#replay").is_hidden()
    assert page.locator("#open-h").text_content() == DE["replay.pick_title"]
    link = page.locator(f"#games-list li[data-code='{code}'] a")
    assert code in (link.get_attribute("aria-label") or "")
    link.click()
    page.wait_for_selector("#replay:not([hidden])")
    assert page.locator("#open").is_hidden()
    bot = DE["bot.seat_name"].replace("{bot}", DE["bot.greedy.short"]).replace("{n}", "3")
    assert [n.strip() for n in page.locator("#seats .pname").all_text_contents()] == ["Ana", "Bo", bot]
    # The game's buttons: a word and a line icon each, no emoji or glyph.
    for button in page.locator(".replay-buttons .nav").all():
        assert button.locator("svg.icon").count() == 1 and (button.text_content() or "").strip().isalpha()
    page.locator("#other-games").click()
    page.wait_for_selector("#open:not([hidden])")
    page.context.close()
