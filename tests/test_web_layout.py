"""The play area in real Chromium against a real `minodice serve` (bots at delay 0): one screen per decision.

At 1280×800, 1366×768, 1440×900, 768×1024 and 390×844, on Ana's turn to bid and to roll (with five
dice on a six-seat table, and with the largest hand: eight dice and nine bids), the felt with every
seat and the trick, and her rack and bid pad are all in the window without scrolling, and the page
is never wider than the screen; every die on the felt shows whose it is; the rack's tiles hold their
dice's names; key hints show with a keyboard only. The help, score sheet and log open beside the
table or as drawers over it, never pushing it down. A double-click on a die rolls once and says
nothing; a refusal is said next to the rack and moves nothing. Names in Arabic and Hebrew are
isolated (`<bdi>`, or `unicode-bidi: isolate`) in the lobby, the seats, the log, the chat, the sheet,
the podium, the finished games and the replay. The longest die names of each language fit their
tiles; the home page and its create form fit a 390 px phone. axe-core finds nothing serious or
critical on the table at 390×844 and 1280×800.

Needs Playwright, Debian's chromium and axe-core (`npm ci --prefix tests/a11y`): skipped with the reason
when one is missing, failed instead when MINODICE_REQUIRE_BROWSER is set (CI).
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest

from test_server_common import make_table, server_fixtures, start
from test_web_a11y import AXE, FAILING, _axe_violations, _describe, _missing

server, http = server_fixtures("weblayout", turn_timeout=600)

#: The five sizes: three laptops, a tablet held upright and a phone.
SIZES = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1440x900": {"width": 1440, "height": 900},
    "768x1024": {"width": 768, "height": 1024},
    "390x844": {"width": 390, "height": 844},
}
ARABIC = "ليلى حسن"
HEBREW = "דוד כהן"
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr-FR", "de": "de-DE"}


def _page(browser: Any, url: str, size: dict[str, int], locale: str = "en-US", errors: list[str] | None = None) -> Any:
    phone = size["width"] < 600
    ctx = browser.new_context(viewport=size, reduced_motion="reduce", locale=locale, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def _seat_url(server: Any, t: dict[str, Any], seat: int) -> str:
    return f"{server.base}/#table={t['code']}&token={t['tokens'][seat]}"


# What is where: the boxes (in the window's coordinates) of the felt, the trick, the rack and the pad;
# every die on the felt and whether its name shows under it; whether each rack tile holds its name.
WHERE = """() => {
  const box = (e) => { if (!e || e.closest('[hidden]')) return null; const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const shown = (e) => !!e && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().height > 0;
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  return {
    ih: innerHeight, iw: innerWidth, sw: document.documentElement.scrollWidth, sy: scrollY,
    felt: box(document.getElementById('felt')), centre: box(document.querySelector('#felt .centre')),
    pad: box(document.getElementById('bid-pad')), rack: box(document.getElementById('my-dice')),
    seats: [...document.querySelectorAll('#players .player')].map(box),
    dice: [...document.querySelectorAll('#trick li')].map((li) => {
      const who = li.querySelector('.who');
      return { seat: li.dataset.seat, who: who ? who.textContent : '', shown: shown(who),
               inside: !!who && within(who.getBoundingClientRect(), li.getBoundingClientRect()), box: box(li) };
    }),
    tiles: [...document.querySelectorAll('#my-dice .die-btn')].map((b) => {
      const n = b.querySelector('.dname');
      return { name: n.textContent, fits: n.scrollWidth <= n.clientWidth + 1 && within(n.getBoundingClientRect(), b.getBoundingClientRect()) };
    }),
    keys: [...document.querySelectorAll('#my-dice .key-hint')].filter(shown).length,
  };
}"""


def _inside(r: dict[str, float] | None, w: dict[str, Any]) -> bool:
    return r is not None and r["top"] >= -0.5 and r["left"] >= -0.5 and r["bottom"] <= w["ih"] + 0.5 and r["right"] <= w["iw"] + 0.5


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1 and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1


def _check_fits(page: Any, moment: str, *, bidding: bool) -> dict[str, Any]:
    """Everything for the decision in the window at once; what was measured, for more checks."""
    w = page.evaluate(WHERE)
    where = f"{moment}: {json.dumps(w)[:1500]}"
    assert w["sw"] <= w["iw"], f"the page is wider than the screen; {where}"
    assert w["sy"] == 0, f"the page scrolled; {where}"
    assert _inside(w["felt"], w) and _inside(w["centre"], w), f"the felt or the trick is out of the window; {where}"
    assert all(_inside(s, w) for s in w["seats"]), f"a seat is out of the window; {where}"
    assert _inside(w["rack"], w), f"the rack is out of the window; {where}"
    if bidding:
        assert _inside(w["pad"], w), f"the bid pad is out of the window; {where}"
    # Every die on the felt shows whose it is, in its own place.
    for d in w["dice"]:
        assert d["shown"] and d["who"].strip() and d["inside"], f"a die without its name; {where}"
    boxes = [d["box"] for d in w["dice"] if d["box"]]
    assert not [1 for i, a in enumerate(boxes) for b in boxes[i + 1:] if _overlap(a, b)], f"dice on the felt overlap; {where}"
    assert all(t["fits"] for t in w["tiles"]), f"a die's name does not fit its tile; {where}"
    return w


def _axe(page: Any, moment: str) -> list[str]:
    problems = []
    for v in _axe_violations(page, AXE):
        serious = [n for n in v["nodes"] if n["impact"] in FAILING]
        if serious:
            problems.append(f"{moment}: axe: " + _describe(v, serious))
    return problems


def _largest_hand(page: Any, dice: list[str], hand: int) -> None:
    """Draw the page's own seat with `dice` at the bidding of hand `hand` (the view only: nothing is sent)."""
    page.evaluate(
        """async ([dice, hand]) => {
          const { S } = await import('/js/state.js');
          const { renderGame } = await import('/js/table.js');
          S.view = { ...S.view, hand, dice, legal: Array.from({ length: hand + 1 }, (_, i) => i),
                     bid_placed: S.view.bid_placed.map(() => false) };
          renderGame();
        }""",
        [dice, hand],
    )


# --- one screen per decision ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def axe_ready() -> None:
    if not AXE.is_file():
        _missing(f"axe-core is not installed ({AXE} missing): npm ci --prefix tests/a11y")


@pytest.mark.parametrize("size", list(SIZES))
def test_your_turn_is_one_screen(server: Any, http: Any, browser: Any, axe_ready: None, size: str) -> None:
    """Six seats: Ana bids and rolls in hand 1 (she leads), then in hand 2 (the last trick of hand 1 on
    the felt while she bids, then five dice before her roll); then the largest hand she can hold."""
    t = make_table(http, 6, [None] + ["greedy"] * 5, ["Ana"])
    start(http, t["code"], t["host"])
    errors: list[str] = []
    viewport = SIZES[size]
    page = _page(browser, _seat_url(server, t, 0), viewport, errors=errors)
    phone = viewport["width"] < 600
    problems: list[str] = []
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    _check_fits(page, "hand 1, bidding", bidding=True)
    page.locator("#bid-buttons button").first.click()
    page.wait_for_selector("#my-dice button.legal")
    w = _check_fits(page, "hand 1, rolling", bidding=False)
    # Key hints ("key 1") with a keyboard only: a laptop's fine pointer shows them, a touch screen not.
    assert (w["keys"] == 0) if phone else (w["keys"] > 0), w["keys"]
    page.locator("#my-dice button.legal").first.click()
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button[data-bid='2']", timeout=20_000)
    page.wait_for_function("document.querySelectorAll('#trick li:not(.pending)').length === 6")
    _check_fits(page, "hand 2, bidding (the last trick on the felt)", bidding=True)
    page.locator("#bid-buttons button").first.click()
    page.wait_for_function(
        "document.querySelector('#my-dice button.legal') && document.querySelectorAll('#trick li:not(.pending)').length === 5",
        timeout=20_000,
    )
    w = _check_fits(page, "hand 2, rolling after five dice", bidding=False)
    assert len(w["dice"]) == 6 and len({d["who"] for d in w["dice"]}) == 6, w["dice"]
    if size in ("1280x800", "390x844"):
        problems += _axe(page, f"{size}, rolling")
    # The largest hand a seat holds (eight dice, nine bids), in the longest words (German).
    page.select_option("#lang-switch", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    _largest_hand(page, ["minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray", "red"], 8)
    _check_fits(page, "the largest hand, in German", bidding=True)
    page.select_option("#lang-switch", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    # The sheet and the log open beside the table or over it: the table does not move.
    before = page.evaluate(WHERE)
    page.keyboard.press("s")
    page.wait_for_selector("#sheet:not([hidden])")
    page.keyboard.press("l")
    page.wait_for_selector("#log-wrap:not([hidden])")
    after = page.evaluate(WHERE)
    assert after["felt"] == before["felt"] and after["rack"] == before["rack"] and after["sy"] == 0, (before, after)
    assert after["sw"] <= after["iw"], after
    for panel in ("#sheet", "#log-wrap"):
        box = page.locator(panel).bounding_box()
        assert box is not None and box["x"] >= -0.5 and box["x"] + box["width"] <= viewport["width"] + 0.5, (panel, box)
    if size in ("1280x800", "390x844"):
        problems += _axe(page, f"{size}, sheet and log open")
    # Escape closes the drawers one by one (on a wide screen they stay in their column: L and S close them).
    if viewport["width"] < 1000:
        page.keyboard.press("Escape")
        page.wait_for_selector("#log-wrap", state="hidden")
        page.locator("#sheet .drawer-close").click()
        page.wait_for_selector("#sheet", state="hidden")
        assert page.evaluate("document.activeElement.id") == "sheet-btn"
    assert not problems, "\n".join(problems)
    assert not errors, errors
    page.context.close()


# --- actions that cannot misfire ------------------------------------------------------------------


def _frames(page: Any) -> dict[str, list[dict[str, Any]]]:
    """Every websocket frame the page sends and receives, as it goes (attach before goto)."""
    seen: dict[str, list[dict[str, Any]]] = {"sent": [], "received": []}

    def keep(kind: str, payload: Any) -> None:
        with contextlib.suppress(TypeError, ValueError):
            seen[kind].append(json.loads(payload))

    def on_ws(ws: Any) -> None:
        ws.on("framesent", lambda p: keep("sent", p))
        ws.on("framereceived", lambda p: keep("received", p))

    page.on("websocket", on_ws)
    return seen


def test_a_double_click_sends_one_move_and_says_nothing(server: Any, http: Any, browser: Any) -> None:
    t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
    start(http, t["code"], t["host"])
    errors: list[str] = []
    ctx = browser.new_context(viewport=SIZES["1366x768"], reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = _frames(page)
    page.goto(_seat_url(server, t, 0))
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    page.locator("#bid-buttons button").first.dblclick()
    page.wait_for_selector("#bid-pad", state="hidden")
    page.wait_for_selector("#my-dice button.legal")
    page.locator("#my-dice button.legal").first.dblclick()
    page.wait_for_function("document.querySelector(\"#trick li[data-seat='0']:not(.pending)\") !== null")
    page.wait_for_function("!document.getElementById('my-dice').classList.contains('locked')")
    page.wait_for_timeout(400)  # a second frame, or a refusal, would have come by now
    sent = [f for f in frames["sent"] if f.get("type") in ("bid", "roll")]
    assert [f["type"] for f in sent] == ["bid", "roll"], sent
    refused = [f for f in frames["received"] if f.get("type") == "error"]
    assert not refused, refused
    assert page.locator("#error").is_hidden()
    assert (page.locator("#move-note").text_content() or "") == ""
    assert not errors, errors
    ctx.close()


def test_a_refusal_is_said_next_to_the_rack_and_moves_nothing(server: Any, http: Any, browser: Any) -> None:
    """The server refuses Ana's roll (here: a stand-in answers for it): the words come over the rack's edge,
    announced; nothing on the page moves; her dice are live again and the next roll goes through."""
    t = make_table(http, 3, [None, "greedy", "greedy"], ["Ana"])
    start(http, t["code"], t["host"])
    errors: list[str] = []
    ctx = browser.new_context(viewport=SIZES["390x844"], reduced_motion="reduce", locale="en-US", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    refuse = {"next": False, "done": 0}

    def route(ws: Any) -> None:
        real = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if refuse["next"] and msg.get("type") == "roll":
                refuse["next"] = False
                refuse["done"] += 1
                ws.send(json.dumps({"type": "error", "code": "not_your_turn", "message": "it is not your turn",
                                    "params": {"seat": 0, "turn": 1}, "ref": msg["id"]}))
                return
            real.send(message)

        ws.on_message(from_page)
        real.on_message(lambda m: ws.send(m))

    page.route_web_socket(re.compile(r".*/ws/.*"), route)
    page.goto(_seat_url(server, t, 0))
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    page.locator("#bid-buttons button").first.click()
    page.wait_for_selector("#my-dice button.legal")
    before = page.evaluate(WHERE)
    refuse["next"] = True
    page.locator("#my-dice button.legal").first.click()
    page.wait_for_function("document.getElementById('move-note').textContent !== ''")
    assert refuse["done"] == 1
    note = page.locator("#move-note")
    assert note.text_content() == "It is not your turn."
    assert note.get_attribute("aria-live") == "assertive"
    after = page.evaluate(WHERE)
    for key in ("felt", "rack", "sy", "sw"):
        assert after[key] == before[key], (key, before[key], after[key])
    # Next to the rack: over its box's top edge, inside the window.
    nb, rb = note.bounding_box(), page.locator(".me-area").bounding_box()
    assert nb and rb and abs(nb["y"] + nb["height"] / 2 - rb["y"]) < nb["height"] and nb["x"] >= 0 and nb["x"] + nb["width"] <= 390, (nb, rb)
    assert page.locator("#error").is_hidden()
    # The dice are live again: this roll goes through.
    page.wait_for_selector("#my-dice:not(.locked) button.legal")
    page.locator("#my-dice button.legal").first.click()
    page.wait_for_function("document.querySelector(\"#trick li[data-seat='0']:not(.pending)\") !== null")
    assert not errors, errors
    ctx.close()


# --- names in any script ----------------------------------------------------------------------------

# For each element given, whether its text is isolated: inside a <bdi>, or with unicode-bidi isolate
# (or plaintext) on it or an ancestor up to `stop`.
ISOLATED = """([selector, name]) => {
  const isolated = (node) => {
    for (let e = node.nodeType === 1 ? node : node.parentElement; e; e = e.parentElement) {
      if (e.tagName === 'BDI') return true;
      const u = getComputedStyle(e).unicodeBidi;
      if (u === 'isolate' || u === 'plaintext' || u === 'isolate-override') return true;
      if (e.matches(selector)) return false;
    }
    return false;
  };
  const found = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.textContent.includes(name)) found.push(isolated(n) && n.textContent.trim() === name);
    }
  }
  return found;
}"""


def _isolated(page: Any, selector: str, name: str, where: str) -> None:
    found = page.evaluate(ISOLATED, [selector, name])
    assert found and all(found), f"{where}: {name!r} in {selector}: {found}"


def test_names_in_any_script_are_isolated(server: Any, http: Any, browser: Any) -> None:
    t = make_table(http, 3, [None, None, "greedy"], [ARABIC, HEBREW])
    errors: list[str] = []
    layla = _page(browser, _seat_url(server, t, 0), SIZES["1280x800"], errors=errors)
    david = _page(browser, _seat_url(server, t, 1), SIZES["390x844"], errors=errors)
    # The lobby: the seats, and whom David waits for.
    for page in (layla, david):
        page.wait_for_selector("#screen-lobby:not([hidden]) #lobby-seats li")
    for name in (ARABIC, HEBREW):
        _isolated(layla, "#lobby-seats", name, "lobby")
    david.wait_for_function("document.getElementById('lobby-status').textContent.includes('waiting for')")
    _isolated(david, "#lobby-status", ARABIC, "lobby status")
    # The chat: an Arabic message from David, after his Hebrew name.
    david.fill("#chat-input", "مرحبا 123")
    david.press("#chat-input", "Enter")
    layla.wait_for_selector("#chat-log .chat-line")
    _isolated(layla, "#chat-log .chat-who", HEBREW, "chat name")
    _isolated(layla, "#chat-log", "مرحبا 123", "chat message")
    start(http, t["code"], t["host"])
    # The seats, the turn line and the log.
    layla.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    for name in (ARABIC, HEBREW):
        _isolated(layla, "#players .pname", name, "seats")
    layla.locator("#bid-buttons button").first.click()
    david.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    david.locator("#bid-buttons button").first.click()
    layla.keyboard.press("l")
    layla.wait_for_selector("#log-wrap:not([hidden]) #log li")
    layla.wait_for_function(f"document.getElementById('log').textContent.includes({json.dumps(HEBREW)})")
    _isolated(layla, "#log", ARABIC, "log")
    _isolated(layla, "#log", HEBREW, "log")
    # The sheet's columns.
    layla.keyboard.press("s")
    layla.wait_for_selector("#sheet:not([hidden])")
    for name in (ARABIC, HEBREW):
        _isolated(layla, "#sheet-table thead", name, "sheet")
    # To the end: the host hands both seats to bots; the podium, the finished games, the replay.
    for seat in (0, 1):
        r = http.post(f"/api/tables/{t['code']}/seats/{seat}/bot", json={"bot": "random"}, headers={"Authorization": f"Bearer {t['host']}"})
        assert r.status_code == 200, r.text
    layla.wait_for_selector("#screen-podium:not([hidden]) #podium li", timeout=60_000)
    for name in (ARABIC, HEBREW):
        _isolated(layla, "#podium", name, "podium")
    home = layla.context.new_page()
    home.goto(server.base + "/")
    item = home.locator(f"#past-games-list li.past-game[data-code='{t['code']}']")
    item.wait_for()
    for name in (ARABIC, HEBREW):
        _isolated(home, f"#past-games-list li.past-game[data-code='{t['code']}']", name, "finished games")
    # "#1 ليلى حسن: 320 pts" keeps its order on screen: the place left of the name, the points right of it.
    order = home.evaluate(
        """([code, name]) => {
          const li = [...document.querySelectorAll(`li.past-game[data-code="${code}"] .past-players li`)]
            .find((l) => l.textContent.includes(name));
          const bdi = li.querySelector('bdi');
          const range = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r.getBoundingClientRect(); };
          const span = bdi.parentElement;
          const before = range(span.firstChild), after = range(span.lastChild), b = bdi.getBoundingClientRect();
          return [before.right <= b.left + 0.5, after.left >= b.right - 0.5];
        }""",
        [t["code"], ARABIC],
    )
    assert order == [True, True], order
    home.goto(f"{server.base}/replay.html#table={t['code']}")
    home.wait_for_selector("#replay:not([hidden]) #seats .pname")
    for name in (ARABIC, HEBREW):
        _isolated(home, "#seats", name, "replay seats")
    home.locator("#next-step").click()
    home.wait_for_function(f"document.getElementById('step-line').textContent.includes({json.dumps(ARABIC)}) || "
                           f"document.getElementById('step-line').textContent.includes({json.dumps(HEBREW)})")
    text = home.locator("#step-line").text_content() or ""
    _isolated(home, "#step-line", ARABIC if ARABIC in text else HEBREW, "replay step")
    assert not errors, errors
    for page in (layla, david):
        page.context.close()


# --- long words and the phone's home page ------------------------------------------------------------


def test_the_longest_words_fit_in_every_language(server: Any, http: Any, browser: Any) -> None:
    """Every die in the rack, at the phone's size, in the four languages: each name fits its tile."""
    t = make_table(http, 5, [None] + ["greedy"] * 4, ["Ana"])
    start(http, t["code"], t["host"])
    errors: list[str] = []
    page = _page(browser, _seat_url(server, t, 0), SIZES["390x844"], errors=errors)
    page.wait_for_selector("#bid-pad:not([hidden]) #bid-buttons button")
    for lang in LOCALES:
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        _largest_hand(page, ["minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray"], 7)
        w = _check_fits(page, f"every die, {lang}", bidding=True)
        assert len(w["tiles"]) == 7, w["tiles"]
        if lang == "de":
            assert "Meerjungfrau" in [x["name"] for x in w["tiles"]], w["tiles"]
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_home_page_fits_a_phone(server: Any, browser: Any, lang: str) -> None:
    errors: list[str] = []
    page = _page(browser, server.base + "/", SIZES["390x844"], locale=LOCALES[lang], errors=errors)
    page.wait_for_selector("#screen-home:not([hidden])")
    page.wait_for_selector("#past-games[aria-busy=false]")
    for moment in ("home", "rule options open"):
        if moment != "home":
            page.locator("#create-form details summary").click()
            page.wait_for_selector("#create-form details[open] select")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{lang}, {moment}: the page is {width} px wide on a 390 px phone"
        form = page.locator("#create-form").bounding_box()
        assert form and form["x"] >= 0 and form["x"] + form["width"] <= 390, (lang, moment, form)
    # The header on one line: its height is the layout's.
    assert page.locator("header.top").bounding_box()["height"] <= 54  # type: ignore[index]
    assert not errors, errors
    page.context.close()
