"""A hand's end is said to screen readers with every seat's hand score: real Chromium, real server.

Ana and two bots play hand 1 (one die each); everything the page puts in its assertive live region
(#announce) is kept as it comes; once the hand's summary is on the felt, what was said includes,
for each seat, its name, its hand score and its total as the server's `hand_scored` event has them.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from test_server_common import Player, make_table, server_fixtures, start

server, http = server_fixtures("webannounce", turn_timeout=600, bot_delay=0)
EN = json.loads((Path(__file__).resolve().parents[1] / "src/minodice/server/static/i18n/en.json").read_text(encoding="utf-8"))
KEEP = """() => { window.__said = []; const box = document.getElementById('announce');
  new MutationObserver(() => { if (box.textContent) window.__said.push(box.textContent); })
    .observe(box, { childList: true, characterData: true, subtree: true }); }"""


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def test_the_hand_scores_are_announced(server: Any, http: Any, browser: Any) -> None:
    t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
    start(http, t["code"], t["host"])
    watcher = Player(server.ws_base, t["code"], None)  # a spectator: what the server says of the hand
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server.base}/#table={t['code']}&token={t['tokens'][0]}")
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    page.evaluate(KEEP)
    page.locator("#bid-buttons button").first.click()
    page.wait_for_selector("#my-dice button.legal")
    page.locator("#my-dice button.legal").first.click()
    page.wait_for_selector("#hand-summary[data-hand='1']")
    def scored() -> list[dict[str, Any]]:
        return [e for m in watcher.received if m["type"] == "state" for e in m.get("events") or []
                if e.get("type") == "hand_scored" and e.get("hand") == 1]

    deadline = time.monotonic() + 20
    while not scored() and time.monotonic() < deadline:
        watcher.pump(0.5)
    event = scored()[0]
    watcher.close()
    title = json.dumps(EN["summary.title"].split("{")[0])
    page.wait_for_function(f"window.__said.some((s) => s.includes({title}))")
    said = " ".join(page.evaluate("window.__said"))
    ctx.close()
    names = [p["name"] for p in http.get(f"/api/tables/{t['code']}").json()["players"]]  # English: as the page says them
    assert names == ["Ana", "Greedy 2", "Greedy 3"], names
    for i, name in enumerate(names):
        params = {"name": name, "points": _signed(event["scores"][i]), "total": str(event["totals"][i])}
        line = re.sub(r"\{(\w+)\}", lambda m, p=params: p[m[1]], EN["summary.seat_score"])
        assert line in said, (line, said)
