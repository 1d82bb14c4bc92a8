"""The game table in real Chromium against a real `minodice serve`: seats around the felt for 3
and 6 players on a laptop and a phone with long, unbroken and combining-mark names, the score sheet
and the game log at six players, bot names in the reader's language, a seat the host hands to a bot
(and takes back), the rematch that seats its person again, and a table that cannot be pressed while
the connection is down and comes back after a server restart.

Needs Playwright for Python and Debian's chromium; skipped with the reason when either is missing
(the `browser` fixture of conftest.py).
"""

from __future__ import annotations

import os
import tempfile
import time
import unicodedata
from pathlib import Path

import httpx
import pytest

from test_server_common import ServerProcess, free_port, make_table, start

SHOTS = Path(os.environ.get("MINODICE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "minodice-screenshots")
LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

LONG = "Maximiliana Wolkenstein"  # 23 characters, two words
UNBROKEN = "Wolfeschlegelsteinhausen"  # 24 characters, one word
STACKED = "Z\u0336\u0321\u0317o\u0334\u0323\u031de\u0335\u0322\u0319"  # three marks piled on each letter (the most a name may carry)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("webtable")
    srv = ServerProcess(f"sqlite:///{tmp / 'table.db'}", tmp / "server.log", turn_timeout=600).start()
    yield srv
    srv.stop()


@pytest.fixture
def http(server):
    with server.api() as client:
        yield client


def _page(browser, server, viewport, token_or_none, code, locale="en-US", errors=None):
    ctx = browser.new_context(viewport=viewport, reduced_motion="reduce", locale=locale, is_mobile=viewport is PHONE)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    fragment = f"#table={code}" + (f"&token={token_or_none}" if token_or_none else "")
    page.goto(server.base + "/" + fragment)
    return page


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _give(http, code, host, seat, bot="greedy"):
    r = http.post(f"/api/tables/{code}/seats/{seat}/bot", json={"bot": bot}, headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200, r.text


LAYOUT_CHECK = """() => {
  const felt = document.getElementById('felt').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#players .player')];
  const boxes = cards.map((c) => c.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps.push([i, j]);
  }
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    names: cards.map((c) => c.querySelector('.pname').textContent),
    cut: cards.filter((c) => {
      const n = c.querySelector('.pname'), box = c.getBoundingClientRect(), r = n.getBoundingClientRect();
      return n.scrollWidth > n.clientWidth + 1 || r.left < box.left - 0.5 || r.right > box.right + 0.5;
    }).map((c) => c.querySelector('.pname').textContent),
    clipped: cards.map((c) => getComputedStyle(c.querySelector('.pname')).overflowY),
    outside: boxes.filter((b) => b.left < felt.left - 1 || b.right > felt.right + 1 || b.top < felt.top - 1 || b.bottom > felt.bottom + 1).length,
    overlaps,
    places: cards.map((c) => c.dataset.place),
    avatars: cards.map((c) => c.querySelector('.avatar').textContent),
  };
}"""


@pytest.mark.parametrize("seats", [3, 6])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_every_name_shows_in_full_around_the_table(server, http, browser, seats, size):
    people = ["Ana", LONG, UNBROKEN, STACKED][: 3 if seats == 3 else 4]
    bots = [None] * len(people) + ["greedy"] * (seats - len(people))
    t = make_table(http, seats, bots, people)
    start(http, t["code"], t["host"])
    errors: list[str] = []
    page = _page(browser, server, LAPTOP if size == "laptop" else PHONE, t["tokens"][0], t["code"], errors=errors)
    page.wait_for_selector("#screen-game:not([hidden])")
    page.wait_for_selector("#bid-pad:not([hidden])")
    got = page.evaluate(LAYOUT_CHECK)
    assert got["overflow"] <= 0, got
    assert got["cut"] == [], got  # no name is cut short
    assert got["outside"] == 0 and got["overlaps"] == [], got
    assert set(got["clipped"]) <= {"clip", "hidden"}, got  # piled-up marks stay in their own box
    assert len(set(got["places"])) == seats and got["places"][0] == "bottom", got  # Ana sits at the bottom
    shown = " | ".join(got["names"])
    for name in people[1:]:
        assert unicodedata.normalize("NFC", name) in shown, (name, shown)  # the server keeps names in NFC
    assert "Ana (you)" in shown
    bot_names = [n for n in got["names"] if n.startswith("Greedy")]
    assert len(bot_names) == seats - len(people) and len(set(bot_names)) == len(bot_names), got
    assert got["avatars"][0] == "A" and got["avatars"][1] == "MW" and all(got["avatars"]), got
    # The seats the game waits for carry the "to act" mark: everyone bids at once.
    assert page.locator("#players .player.turn .act-mark").count() >= 1
    _shot(page, f"table-{seats}-{size}")
    assert not errors, errors
    page.context.close()


def test_sheet_and_log_fit_six_players_on_a_phone(server, http, browser):
    """Five long-named people whose seats the host hands to bots, and Ana on a phone."""
    names = ["Ana", LONG, UNBROKEN, "Bartholomew Fitzgerald", "Konstantinos Papadakis", "Guinevere Montgomery"]
    t = make_table(http, 6, [None] * 6, names)
    start(http, t["code"], t["host"])
    for seat in range(1, 6):
        _give(http, t["code"], t["host"], seat)
    errors: list[str] = []
    page = _page(browser, server, PHONE, t["tokens"][0], t["code"], errors=errors)
    page.wait_for_selector("#bid-pad:not([hidden])")
    page.locator("#bid-buttons button").first.click()
    # Hand 1 has one trick: roll when asked, until hand 2's bidding starts.
    deadline = time.monotonic() + 30
    while "Hand 2" not in (page.locator("#hand-info").text_content() or ""):
        assert time.monotonic() < deadline, page.locator("#hand-info").text_content()
        legal = page.locator("#my-dice button.legal")
        if legal.count():
            legal.first.click()
        page.wait_for_timeout(50)
    page.keyboard.press("s")
    page.wait_for_selector("#sheet:not([hidden])")
    sheet = page.evaluate("""() => {
      const box = document.querySelector('#sheet .sheet-scroll');
      const table = document.getElementById('sheet-table');
      const heads = [...table.querySelectorAll('thead th')];
      return {
        fits: table.getBoundingClientRect().width <= box.clientWidth + 1,
        heads: heads.map((h) => h.textContent),
        cut: heads.filter((h) => h.scrollWidth > h.clientWidth + 1).map((h) => h.textContent),
        rows: table.querySelectorAll('tbody tr').length,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
      };
    }""")
    assert sheet["fits"] and sheet["cut"] == [] and sheet["overflow"] <= 0, sheet
    assert sheet["rows"] == 1 and len(sheet["heads"]) == 7, sheet
    for name in names[1:]:
        assert name in " ".join(sheet["heads"])
    _shot(page, "sheet-6-phone")
    page.keyboard.press("l")
    page.wait_for_selector("#log-wrap:not([hidden])")
    log = page.evaluate("""() => {
      const ol = document.getElementById('log');
      const left = ol.getBoundingClientRect().left;
      const nums = [...ol.querySelectorAll('.n')];
      return {
        numbers: nums.map((n) => Number(n.textContent)),
        inside: nums.every((n) => n.getBoundingClientRect().left >= left - 0.5 && n.scrollWidth <= n.clientWidth + 1),
      };
    }""")
    assert len(log["numbers"]) >= 10, log  # two-digit numbers are there to be shown
    assert log["numbers"] == list(range(log["numbers"][0], log["numbers"][0] + len(log["numbers"]))), log
    assert log["inside"], log
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("locale", "word"), [("es-ES", "Codicioso"), ("fr-FR", "Glouton"), ("de-DE", "Gierig")])
def test_bot_names_are_said_in_the_readers_language(server, http, browser, locale, word):
    t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
    start(http, t["code"], t["host"])
    page = _page(browser, server, LAPTOP, t["tokens"][0], t["code"], locale=locale)
    page.wait_for_selector("#bid-pad:not([hidden])")
    names = page.locator("#players .pname").all_text_contents()
    assert names[1:] == [f"{word} 2", f"{word} 3"], names
    assert "Greedy" not in (page.locator("#felt").text_content() or "")
    page.context.close()


def test_a_seat_handed_to_a_bot_is_not_yours_until_you_take_it_back(server, http, browser):
    t = make_table(http, 4, [None, None, "greedy", "greedy"], ["Ana", "Bo"])
    start(http, t["code"], t["host"])
    errors: list[str] = []
    ana = _page(browser, server, LAPTOP, t["tokens"][0], t["code"], errors=errors)
    ana.wait_for_selector("#bid-pad:not([hidden])")
    # Bo never came: Ana, the host, lets a bot play his seat from the table.
    ana.locator("#players [data-seat='1'] .pbadges button").click()
    # The stand-in plays at the table's level (its bots are greedy, no level: the default, medium).
    ana.wait_for_function("document.querySelector(\"#players [data-seat='1'] .badge\").textContent.includes('Medium')")
    bo = _page(browser, server, PHONE, t["tokens"][1], t["code"], errors=errors)
    bo.wait_for_selector("#handed-over:not([hidden])")
    assert "bot" in (bo.locator("#handed-over-text").text_content() or "")
    bo.wait_for_function("document.querySelector('#players .player.me .pbid').textContent.includes('for you')")
    mine = bo.locator("#players .player.me .pbid").text_content() or ""
    assert "you bid" not in mine.lower(), mine  # the bot's bid is not shown as his own
    assert bo.locator("#bid-pad").is_hidden()
    assert "You bid" not in (bo.locator("#bid-waiting").text_content() or "")
    # Bo takes his seat back: the banner goes, the seat is a person's again, and he plays.
    bo.click("#reclaim-btn")
    bo.wait_for_selector("#handed-over", state="hidden")
    info = http.get(f"/api/tables/{t['code']}").json()
    assert info["players"][1]["kind"] == "human" and info["players"][1]["person"] is True
    ana.locator("#bid-buttons button").first.click()
    deadline = time.monotonic() + 20
    rolled = False
    while not rolled:
        assert time.monotonic() < deadline, "Bo never got a move"
        for page in (ana, bo):
            legal = page.locator("#my-dice button.legal")
            if legal.count():
                legal.first.click()
                rolled = rolled or page is bo
        page.wait_for_timeout(50)
    # Only the seat's own token may take a seat back.
    r = http.post(f"/api/tables/{t['code']}/seats/0/reclaim", headers={"Authorization": f"Bearer {t['tokens'][1]}"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_your_seat"
    r = http.post(f"/api/tables/{t['code']}/seats/1/reclaim", headers={"Authorization": f"Bearer {t['tokens'][1]}"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_handed_over"
    assert not errors, errors
    ana.context.close()
    bo.context.close()


def test_a_rematch_seats_the_person_again_not_the_bot_that_stood_in(server, http, browser):
    t = make_table(http, 3, [None, None, "random"], ["Ana", "Bo"])
    start(http, t["code"], t["host"])
    for seat in (0, 1):  # both away: bots finish the game for them
        _give(http, t["code"], t["host"], seat)
    deadline = time.monotonic() + 60
    while http.get(f"/api/tables/{t['code']}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    # Bo comes back to the podium and asks for a rematch: in the new game the seat is his again.
    errors: list[str] = []
    bo = _page(browser, server, PHONE, t["tokens"][1], t["code"], errors=errors)
    bo.wait_for_selector("#screen-podium:not([hidden])")
    bo.click("#rematch-btn")
    bo.wait_for_selector("#screen-game:not([hidden])")
    bo.wait_for_selector("#bid-pad:not([hidden])")  # he bids himself
    assert bo.locator("#handed-over").is_hidden()
    assert "Bo (you)" in (bo.locator("#players .player.me").text_content() or "")
    new_code = bo.evaluate("location.hash").split("table=")[1].split("&")[0]
    players = http.get(f"/api/tables/{new_code}").json()["players"]
    assert [p["kind"] for p in players] == ["human", "human", "bot"], players
    assert [p["name"] for p in players[:2]] == ["Ana", "Bo"]
    assert players[2]["auto_name"] is True and players[0]["auto_name"] is False
    assert not errors, errors
    bo.context.close()


def test_the_table_cannot_be_pressed_while_disconnected_and_comes_back_after_a_restart(browser, tmp_path):
    srv = ServerProcess(f"sqlite:///{tmp_path / 'restart.db'}", tmp_path / "server.log", port=free_port(), turn_timeout=600)
    srv.start()
    try:
        with httpx.Client(base_url=srv.base, timeout=10) as http:
            t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
            start(http, t["code"], t["host"])
        errors: list[str] = []
        page = _page(browser, srv, LAPTOP, t["tokens"][0], t["code"], errors=errors)
        page.wait_for_selector("#bid-pad:not([hidden])")
        srv.stop()
        page.wait_for_selector("#conn:not([hidden])")
        assert page.evaluate("document.getElementById('screen-game').inert") is True
        page.keyboard.press("0")  # a bid key while offline: refused in words, nothing sent
        page.wait_for_selector("#toast:not([hidden])")
        assert "Not connected" in (page.locator("#toast").text_content() or "")
        went = time.monotonic()
        srv.start()
        up = time.monotonic()
        page.wait_for_selector("#conn", state="hidden", timeout=20_000)
        back = time.monotonic()
        print(f"server up again in {up - went:.1f} s; the page reconnected {back - up:.1f} s later")
        assert page.evaluate("document.getElementById('screen-game').inert") is False
        page.wait_for_selector("#bid-pad:not([hidden])")
        page.locator("#bid-buttons button").first.click()
        page.wait_for_selector("#bid-pad", state="hidden")
        assert not errors, errors
        page.context.close()
    finally:
        srv.stop()


def test_a_hand_played_with_the_keyboard_alone_and_announced(server, http, browser):
    """Bid with a digit, roll with Tab and Enter; a die that may not be rolled says why when focused;
    screen readers hear each roll, the winner and whose turn it is."""
    t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
    start(http, t["code"], t["host"])
    errors: list[str] = []
    page = _page(browser, server, LAPTOP, t["tokens"][0], t["code"], errors=errors)
    page.wait_for_selector("#bid-pad:not([hidden])")
    assert page.evaluate("document.activeElement.closest('#bid-buttons') !== null")  # the pad has the focus
    page.wait_for_function("document.getElementById('announce').textContent.includes('Your turn to bid')")
    # Everything said in the live region, as it is said.
    page.evaluate("""() => { window.heard = [];
      new MutationObserver(() => window.heard.push(document.getElementById('announce').textContent))
        .observe(document.getElementById('announce'), { childList: true, characterData: true, subtree: true }); }""")
    page.keyboard.press("0")
    refused_seen = False
    deadline = time.monotonic() + 40
    while "Hand 3" not in (page.locator("#hand-info").text_content() or ""):
        assert time.monotonic() < deadline, page.locator("#hand-info").text_content()
        if page.locator("#bid-pad").is_visible() and page.locator("#bid-buttons button").count():
            page.keyboard.press("0")
        elif page.locator("#my-dice button.legal").count():
            refused = page.locator("#my-dice button[aria-disabled='true']")
            if refused.count() and not refused_seen:
                # Tab reaches a die that may not be rolled: its reason shows, and Enter does not roll it.
                page.evaluate("document.querySelector(\"#my-dice button[aria-disabled='true']\").focus()")
                page.keyboard.press("Shift+Tab")
                page.keyboard.press("Tab")
                assert page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "true"
                why = page.locator("#my-dice button[aria-disabled='true']:focus .why")
                assert why.is_visible() and (why.text_content() or "").strip()
                described = page.evaluate("document.activeElement.getAttribute('aria-describedby')")
                assert described and page.locator(f"#{described}").count() == 1
                page.keyboard.press("Enter")
                # Said next to the rack (js/table.js's move note), not in a box at the top of the page.
                page.wait_for_function("document.getElementById('move-note').textContent.includes('cannot roll')")
                refused_seen = True
            page.evaluate("document.querySelector('#my-dice button.legal').focus()")
            page.keyboard.press("Enter")
        page.wait_for_timeout(60)
    said = " ".join(page.evaluate("window.heard"))
    assert "rolled" in said and "wins the trick" in said, said
    assert not errors, errors
    page.context.close()


def test_an_error_code_without_words_shows_the_servers_message(server, browser):
    """A newer server's code the page has no translation for: its message, not a generic error."""
    page = browser.new_context(locale="en-US").new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#screen-home:not([hidden])")
    text = page.evaluate("""async () => {
      const { errorText } = await import('/js/codes.js');
      return [errorText({ code: 'brand_new_code', message: 'tables are closed tonight\\u0007', params: {} }),
              errorText({ code: 'seat_taken', message: 'seat 2 is taken', params: {} })];
    }""")
    assert text[0] == "The server refused: tables are closed tonight ", text
    assert text[1] == "That seat has just been taken.", text  # a known code keeps its own words
    page.context.close()


def test_a_reaction_pops_up_at_the_seat_that_sent_it(server, http, browser):
    t = make_table(http, 3, [None, None, "greedy"], ["Ana", "Bo"])
    start(http, t["code"], t["host"])
    ana = _page(browser, server, LAPTOP, t["tokens"][0], t["code"])
    bo = _page(browser, server, PHONE, t["tokens"][1], t["code"])
    for page in (ana, bo):
        page.wait_for_selector("#bid-pad:not([hidden])")
    bo.locator("#chat-reactions button").first.click()
    reaction = bo.locator("#chat-reactions button").first.text_content()
    bubble = ana.locator("#players [data-seat='1'] .reaction-bubble")
    bubble.wait_for()
    assert bubble.text_content() == reaction and bubble.get_attribute("aria-hidden") == "true"
    assert ana.locator("#players [data-seat='0'] .reaction-bubble").count() == 0
    ana.context.close()
    bo.context.close()
