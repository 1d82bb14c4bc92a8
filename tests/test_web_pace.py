"""The pace of a game in real Chromium (issue 56), measured at the server's default pauses: every
trick's result stays at least 1.5 s before the next roll replaces it — also when the next roll is
the person's own, which the server takes at once — and every hand ends with its summary (each
seat's bid, tricks, made or missed, bonus and points) before the next hand's bid pad; the same
under reduced motion, without the animation.

Ana plays her seat through the page (she bids and rolls as soon as she may) with two greedy bots;
a spectator with reduced motion watches the same table. Two hands: 3 tricks, 2 summaries.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from minodice.server.settings import Settings
from test_server_common import ServerProcess, make_table, start
from test_web_table import LAPTOP, PHONE, _shot

TRICK_PAUSE, HAND_PAUSE = Settings.trick_pause, Settings.hand_pause  # the defaults: measured as they are

#: Notes when the trick's result line, the hand's summary, the bid pad and the podium change:
#: window.__pace = [{t, k, v}] (t: performance.now() ms). A MutationObserver looks at the end of the
#: very task that changed the page (an animation frame can come late on a busy machine).
WATCH = """(() => {
  const log = (window.__pace = []);
  let last = {};
  const look = () => {
    const result = document.getElementById("trick-result");
    const summary = document.getElementById("hand-summary");
    const pad = document.getElementById("bid-pad");
    const now = {
      result: result ? result.textContent : "",
      summary: summary ? summary.dataset.hand : null,
      pad: !!pad && !pad.hidden,
      animation: summary ? getComputedStyle(summary).animationName : null,
    };
    for (const k of Object.keys(now)) if (now[k] !== last[k]) log.push({ t: performance.now(), k, v: now[k] });
    last = now;
  };
  const watch = () => {
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    look();
  };
  if (document.body) watch(); else document.addEventListener("DOMContentLoaded", watch);
})();"""


#: What Ana's page shows when it seems stuck (for the failure's message).
STUCK = """(() => ({
  hand: document.getElementById("hand-info").textContent,
  turn: document.getElementById("turn-info").textContent,
  pad: !document.getElementById("bid-pad").hidden,
  bids: [...document.querySelectorAll("#bid-buttons button")].map((b) => [b.textContent, b.disabled]),
  legal: document.querySelectorAll("#my-dice button.legal").length,
  note: document.getElementById("move-note").textContent,
  result: document.getElementById("trick-result").textContent,
  pace: (window.__pace || []).slice(-6),
}))()"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("webpace")
    srv = ServerProcess(f"sqlite:///{tmp / 'pace.db'}", tmp / "server.log", bot_delay=0.4, turn_timeout=600,
                        trick_pause=TRICK_PAUSE, hand_pause=HAND_PAUSE).start()
    yield srv
    srv.stop()


def _holds(log: list[dict[str, Any]], now: float) -> list[float]:
    """How long each "… won the trick" line stayed before something replaced it, or until `now` (s)."""
    holds, since = [], None
    for entry in log:
        if entry["k"] != "result":
            continue
        if since is not None:
            holds.append((entry["t"] - since) / 1000)
            since = None
        if "won the trick" in entry["v"]:
            since = entry["t"]
    if since is not None:  # the last one is still shown
        holds.append((now - since) / 1000)
    return holds


def _summaries(log: list[dict[str, Any]]) -> dict[int, float]:
    """When each hand's summary came (ms)."""
    out: dict[int, float] = {}
    for entry in log:
        if entry["k"] == "summary" and entry["v"] is not None:
            out.setdefault(int(entry["v"]), entry["t"])
    return out


def test_each_trick_result_holds_and_each_hand_ends_with_its_summary(server: ServerProcess, browser: Any) -> None:
    with server.api() as http:
        t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
        start(http, t["code"], t["host"])
    pages = []
    for motion, viewport, token in (("no-preference", LAPTOP, t["tokens"][0]), ("reduce", PHONE, None)):
        ctx = browser.new_context(viewport=viewport, reduced_motion=motion, locale="en-US", is_mobile=viewport is PHONE)
        ctx.add_init_script(WATCH)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"{server.base}/#table={t['code']}" + (f"&token={token}" if token else ""))
        pages.append((page, errors))
    ana, watcher = pages[0][0], pages[1][0]
    ana.wait_for_selector("#screen-game:not([hidden])")
    shot = False
    deadline = time.monotonic() + 75
    # Ana moves as soon as she may, until hand 3's bid pad comes (after hand 2's summary).
    while not (ana.locator("#bid-pad").is_visible() and "Hand 3" in (ana.locator("#hand-info").text_content() or "")):
        assert time.monotonic() < deadline, ("hand 3 did not come in time", ana.evaluate(STUCK))
        if not shot and ana.locator("#hand-summary[data-hand='2']").count():
            ana.wait_for_timeout(500)  # its entrance is over
            _shot(ana, "hand-summary")
            shot = True
        bids = ana.locator("#bid-buttons button:not([disabled]):not([aria-disabled=true])")
        dice = ana.locator("#my-dice button.legal:not([aria-disabled=true])")
        # The pad or the rack may go between the look and the click (a move is under way): look again.
        with contextlib.suppress(PlaywrightTimeout):
            if ana.locator("#bid-pad").is_visible() and bids.count():
                bids.first.click(timeout=2_000)
            elif dice.count():
                dice.first.click(timeout=2_000)
        ana.wait_for_timeout(40)
    watcher.wait_for_function("(window.__pace || []).some((e) => e.k === 'summary' && e.v === '2')")
    for page, errors in pages:
        log, now = page.evaluate("[window.__pace, performance.now()]")
        holds = _holds(log, now)
        print(f"{'ana' if page is ana else 'watcher'}: result holds {[round(h, 2) for h in holds]} s")
        # Hand 1 has one trick, hand 2 two: each result was replaced only after its time.
        assert len(holds) >= 3, log
        assert min(holds) >= TRICK_PAUSE - 0.02, holds
        summaries = _summaries(log)
        assert set(summaries) >= {1, 2}, log
        won = [e["t"] for e in log if e["k"] == "result" and "won the trick" in e["v"]]
        pads = [e["t"] for e in log if e["k"] == "pad" and e["v"]]
        for hand, at in summaries.items():
            # The summary comes once the hand's last result has had its time...
            last = max(w for w in won if w < at)
            assert (at - last) / 1000 >= TRICK_PAUSE - 0.02, (hand, log)
            # ... and the next hand's bid pad only after the summary had its own.
            later = [p for p in pads if p > at]
            if page is ana and later:
                assert (min(later) - at) / 1000 >= HAND_PAUSE - 0.05, (hand, log)
        animations = {e["v"] for e in log if e["k"] == "animation" and e["v"] is not None}
        assert animations == ({"none"} if page is watcher else {"summary-in"}), animations
        assert not errors, errors
    # The summary of a hand says each seat's bid, tricks, made or missed and points.
    rows = watcher.locator("#hand-summary li")
    if rows.count():
        assert rows.count() == 3
        text = rows.first.text_content() or ""
        assert "bid" in text and "won" in text and ("made" in text or "missed" in text), text
    assert shot
    for page, _ in pages:
        page.context.close()


def test_a_move_clock_counts_down_on_the_seat_and_in_words(server: ServerProcess, browser: Any) -> None:
    """A table with the fast clock: on her turn to bid Ana reads her time in words (15 s free and a
    45 s bank), her seat's badge shows the same, and both count down between the server's frames."""
    with server.api() as http:
        t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"], clock="fast")
        start(http, t["code"], t["host"])
    ctx = browser.new_context(viewport=LAPTOP, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.base}/#table={t['code']}&token={t['tokens'][0]}")
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    page.wait_for_function("document.getElementById('screen-game').textContent.includes('Your time: 0:1')")
    words = page.evaluate("[...document.querySelectorAll('.move-clock')].map((e) => e.textContent).join(' ')")
    assert "+ bank 0:45" in words, words
    badge = page.locator("#players .player.me .pclock")
    first = badge.text_content() or ""
    assert first.endswith("+ 0:45") and first.startswith("0:1"), first
    page.wait_for_function(f"document.querySelector('#players .player.me .pclock').textContent !== {first!r}",
                           timeout=3_000)
    # The other seats are bots: no clock.
    assert page.locator("#players .player:not(.me) .pclock").count() == 0
    ctx.close()
