"""The browser client, end to end: real headless Chromium against a real `minodice serve`.

Two browser players (a laptop and a phone) and two bots play a whole game to
the podium with reduced motion; screenshots of the main screens go to
$MINODICE_SCREENSHOTS (a temporary folder unless `make screenshots`). Also: the four translation files have the same keys and
placeholders, and the markup holds no hard-coded user-visible text.

Needs Playwright for Python and Debian's chromium (`apt-get install chromium`);
skipped with the reason when either is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "minodice" / "server" / "static"
#: Where the screenshots go: a temporary folder, so running the tests changes no tracked file;
#: `make screenshots` sets MINODICE_SCREENSHOTS=docs/screenshots to refresh the pictures the README and the docs show.
SHOTS = Path(os.environ.get("MINODICE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "minodice-screenshots")
LANGS = ("en", "es", "fr", "de")
PAGES = ("index.html", "sheet.html", "replay.html", "rules.html")  # every page of the web client


# --- translation files and markup (no browser needed) ------------------------------------------


def _load(lang: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def _placeholders(value: object) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {m for t in texts for m in re.findall(r"\{(\w+)\}", str(t))}


def test_i18n_files_have_the_same_keys_and_placeholders():
    en = _load("en")
    assert len(en) > 100
    for lang in LANGS[1:]:
        other = _load(lang)
        assert set(other) == set(en), f"{lang}.json: missing {set(en) - set(other)}, extra {set(other) - set(en)}"
        for key, value in en.items():
            theirs = other[key]
            assert type(theirs) is type(value), f"{lang}.json {key}: plural in one file only"
            if isinstance(value, dict):
                assert "other" in theirs, f"{lang}.json {key}: a plural needs 'other'"
            assert _placeholders(theirs) <= _placeholders(value) | {"n"}, f"{lang}.json {key}: unknown placeholder"
            assert str(theirs).strip(), f"{lang}.json {key} is empty"


def test_every_key_the_client_uses_is_translated():
    en = _load("en")
    html = "".join((STATIC / page).read_text(encoding="utf-8") for page in PAGES)
    used = set(re.findall(r'data-i18n="([^"]+)"', html))
    for attr in re.findall(r'data-i18n-attr="([^"]+)"', html):
        used |= {pair.split(":", 1)[1].strip() for pair in attr.split(";") if ":" in pair}
    for js in (STATIC / "js").glob("*.js"):
        used |= set(re.findall(r'\btn?\(\s*"([^"]+)"', js.read_text(encoding="utf-8")))  # t(), and tn() of bidi.js
    missing = sorted(k for k in used if k not in en)
    assert not missing, f"keys used but not in en.json: {missing}"
    # Keys built at run time: every die, face, bot and rule option.
    dice = ("minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray")
    dynamic = [f"die.{d}{s}" for d in dice for s in ("", ".letter", ".faces")]
    dynamic += [f"face.{f}" for f in ("flag", *"1234567", "minotaur", "griffin", "mermaid")]
    dynamic += [f"bot.{b}" for b in ("random", "greedy", "montecarlo", "ismcts")]
    from minodice.rules import RULE_OPTIONS

    for name, (values, _help) in RULE_OPTIONS.items():
        dynamic += [f"rule.{name}"] + [f"rule.{name}.{v}" for v in values]
    assert not [k for k in dynamic if k not in en]
    # Number dice are told apart by a letter too, distinct within each language.
    for lang in LANGS:
        table = _load(lang)
        letters = [table[f"die.{d}.letter"] for d in ("red", "yellow", "purple", "gray")]
        assert len(set(letters)) == 4, f"{lang}: number dice letters {letters} are not distinct"


class _TextFinder(HTMLParser):
    """Collects text and user-visible attributes written literally in the markup."""

    VISIBLE_ATTRS = ("title", "placeholder", "aria-label", "alt", "value")

    def __init__(self) -> None:
        super().__init__()
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "kbd"):  # kbd: key names, the same in every language
            self.skip += 1
        for name, value in attrs:
            literal = name in self.VISIBLE_ATTRS and value and re.search(r"[A-Za-z]{2,}", value)
            if literal and not (tag == "option" and name == "value"):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "kbd"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and re.search(r"[A-Za-z]", data):
            self.found.append(data.strip())


def test_markup_has_no_hard_coded_text():
    for page in PAGES:
        finder = _TextFinder()
        finder.feed((STATIC / page).read_text(encoding="utf-8"))
        assert finder.found == [], f"user-visible text in {page} (use data-i18n): {finder.found}"
    # The scripts set visible text only from translations: no English string literal
    # is assigned to textContent or passed as an element's text.
    for js in (STATIC / "js").glob("*.js"):
        src = js.read_text(encoding="utf-8")
        bad = re.findall(r'(?:textContent\s*=|text:)\s*"[^"]*[A-Za-z]{2,}[^"]*"', src)
        assert not bad, f"{js.name}: hard-coded text {bad}"


# --- the browser game ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _minodice() -> list[str]:
    script = Path(sys.executable).parent / "minodice"
    return [str(script)] if script.exists() else [sys.executable, "-m", "minodice.cli"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = _free_port()
    db = tmp_path_factory.mktemp("web") / "web.db"
    cmd = [*_minodice(), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}"]
    help_text = subprocess.run([*_minodice(), "serve", "--help"], capture_output=True, text=True).stdout
    if "--bot-delay" in help_text:
        cmd += ["--bot-delay", "0"]
    if "--turn-timeout" in help_text:
        cmd += ["--turn-timeout", "600"]
    if "--trick-pause" in help_text:  # the pace is measured in test_web_pace.py; here the game is played through
        cmd += ["--trick-pause", "0", "--hand-pause", "0"]
    log = (db.parent / "server.log").open("w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("minodice serve did not start: " + (db.parent / "server.log").read_text())
        time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _act(page) -> str | None:
    """Makes this player's move if it has one: a bid or a roll. Returns what it did."""
    if page.locator("#screen-game").is_hidden():
        return None
    bid = page.locator("#bid-buttons button:not([disabled])")
    if page.locator("#bid-pad").is_visible() and bid.count():
        # Bid by keyboard: the digit of a middling bid.
        n = bid.count()
        page.keyboard.press(str((n - 1) // 3))
        return "bid"
    die = page.locator("#my-dice button.legal:not([disabled])")
    if die.count():
        die.first.click()
        return "roll"
    return None


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_two_browsers_and_two_bots_play_to_the_podium(server, browser):
    errors: list[str] = []
    laptop = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce", locale="en-US")
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="reduce", locale="en-US", is_mobile=True, has_touch=True
    )
    ana, bo = laptop.new_page(), phone.new_page()
    for page in (ana, bo):
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))

    # A fresh server: the home page says there are no finished games yet.
    ana.goto(server + "/")
    ana.wait_for_selector("#past-games-empty:not([hidden])")
    assert ana.locator("#past-games-list li").count() == 0

    # Ana creates a table: herself, a friend, two bots.
    ana.fill("#create-name", "Ana")
    ana.select_option("#create-seats", "4")
    ana.select_option("#seat-kind-1", "human")
    ana.select_option("#seat-kind-2", "bot:greedy")
    ana.select_option("#seat-kind-3", "bot:random")
    ana.click("#create-form button[type=submit]")
    ana.wait_for_selector("#screen-lobby:not([hidden])")
    invite = ana.input_value("#invite-link")
    personal = ana.input_value("#personal-link")
    assert "#table=" in invite and "token=" not in invite
    assert "token=" in personal.split("#", 1)[1]
    assert ana.locator("#start-btn").is_disabled()
    _shot(ana, "lobby")

    # Bo opens the invite on a phone and takes the open seat.
    bo.goto(invite)
    bo.wait_for_selector("#join-form:not([hidden])")
    bo.fill("#join-name", "Bo")
    bo.click("#join-form button[type=submit]")
    bo.wait_for_selector("#personal:not([hidden])")
    assert bo.input_value("#personal-link") != personal

    ana.wait_for_selector("#start-btn:not([disabled])")
    ana.click("#start-btn")
    ana.wait_for_selector("#screen-game:not([hidden])")
    bo.wait_for_selector("#screen-game:not([hidden])")

    held: list = []  # the hint request, held back for a moment (below)

    def hold(route) -> None:
        held.append(route)

    shots = {"bidding": False, "rolling": False, "sheet": False, "roll_hint": False}
    reloaded = False
    deadline = time.monotonic() + 75
    while ana.locator("#screen-podium").is_hidden() or bo.locator("#screen-podium").is_hidden():
        assert time.monotonic() < deadline, "the game did not reach the podium in time"
        assert not errors, errors
        for page in (ana, bo):
            if page is ana and not shots["bidding"] and ana.locator("#bid-pad").is_visible():
                # The hint: the bid advisor's table for Ana's own dice, one row per bid. The request
                # is held at first: meanwhile the box says the hint is being worked out.
                ana.route("**/api/tables/*/hint", hold)
                ana.click("#hint-button")
                ana.wait_for_selector("#hint-box:not([hidden]) .hint-working")
                assert ana.locator("#hint-box").text_content() == "Working out a hint…"
                assert ana.locator("#hint-button").is_disabled()
                assert ana.get_attribute("#hint-box", "aria-busy") == "true"
                asked = time.monotonic() + 10
                while not held:  # the route handler runs while Playwright waits
                    assert time.monotonic() < asked, "the hint request never left the page"
                    ana.wait_for_timeout(20)
                held[0].continue_()
                ana.unroute("**/api/tables/*/hint", hold)
                ana.wait_for_selector("#hint-box:not([hidden]) .hint-best")
                assert ana.get_attribute("#hint-box", "aria-busy") is None
                assert ana.locator("#hint-button").is_enabled()
                assert "Best bid" in (ana.locator("#hint-box").text_content() or "")
                assert ana.locator("#hint-box tr").count() == ana.locator("#bid-buttons button").count() + 1
                _shot(ana, "bidding")
                shots["bidding"] = True
            if (
                page is ana
                and not shots["rolling"]
                and ana.locator("#my-dice button.legal").count()
                and ana.locator("#trick li:not(.pending)").count() >= 2
            ):
                _shot(ana, "rolling")
                _shot(bo, "phone")
                shots["rolling"] = True
            legal = set(ana.locator("#my-dice button.legal .dname").all_text_contents()) if page is ana else set()
            if page is ana and not shots["roll_hint"] and len(legal) >= 2:
                # On her turn to roll, the hint weighs each kind of die she may roll (hers only), the best in bold.
                ana.keyboard.press("h")  # the hint's key
                ana.wait_for_selector("#hint-box:not([hidden]) .hint-best")
                assert (ana.locator("#hint-box .hint-best").text_content() or "").startswith("Best die: ")
                rows = ana.locator("#hint-box tr td:first-child").all_text_contents()
                assert sorted(rows) == sorted(legal)  # one row a kind: two purple dice are one choice
                assert ana.locator("#hint-box tr.best").count() == 1
                assert "Monte Carlo" in (ana.locator("#hint-box .hint-note").text_content() or "")
                _shot(ana, "roll-hint")
                shots["roll_hint"] = True
                _act(ana)
                ana.wait_for_selector("#hint-box", state="hidden")  # her roll made it an old position
                continue
            did = _act(page)
            if did is None:
                page.wait_for_timeout(40)
        hand = ana.locator("#hand-info").text_content() or ""
        if not reloaded and re.search(r"Hand 2 ", hand):
            # Bo refreshes mid-game: the cookie brings the seat back, exactly where it was.
            bo.reload()
            bo.wait_for_selector("#screen-game:not([hidden])")
            assert "Bo (you)" in bo.locator("#players .player.me").text_content()
            # Ana's personal link on another device (no cookie there) finds her seat too.
            other = browser.new_context(reduced_motion="reduce", locale="en-US")
            again = other.new_page()
            again.goto(personal)
            again.wait_for_selector("#screen-game:not([hidden])")
            assert "Ana (you)" in again.locator("#players .player.me").text_content()
            assert "token=" not in again.url  # the address bar shows the shareable invite only
            other.close()
            reloaded = True
        if not shots["sheet"] and re.search(r"Hand 3 ", hand):
            ana.keyboard.press("s")
            ana.wait_for_selector("#sheet:not([hidden])")
            _shot(ana, "sheet")
            ana.keyboard.press("s")
            shots["sheet"] = True

    assert reloaded and all(shots.values()), shots
    for page in (ana, bo):
        podium = page.locator("#podium li")
        assert podium.count() == 4
    assert ana.locator("#sheet-table tbody tr").count() == 8
    _shot(ana, "podium")

    # The record downloads and verifies.
    with ana.expect_download() as dl:
        ana.click("#record-link-final")
    record = json.loads(Path(dl.value.path()).read_text())
    from minodice import record as rec

    assert rec.check(record) is None
    assert [s["name"] if isinstance(s, dict) else s for s in record["seats"]][:2] == ["Ana", "Bo"]

    # Rematch: Ana is ready, and waits for Bo (still on the podium, not marked away); Bo is asked and
    # says ready too; same seats, a new table, straight into play for both.
    old_code = ana.locator("#lobby-code").text_content()
    ana.click("#rematch-btn")
    ana.wait_for_function("document.getElementById('rematch-status').textContent.includes('Waiting for Bo')")
    bo.wait_for_function("document.getElementById('rematch-status').textContent.includes('ready for a rematch')")
    assert ana.locator("#screen-podium").is_visible() and "away" not in (bo.locator("#podium").text_content() or "")
    bo.click("#rematch-btn")
    ana.wait_for_selector("#screen-game:not([hidden])")
    bo.wait_for_selector("#screen-game:not([hidden])")
    assert "Bo (you)" in bo.locator("#players .player.me").text_content()
    assert "#table=" + old_code not in ana.url

    # The home page lists the finished game: date, players with their final scores and the
    # winner, and a link (keyboard-usable) that downloads its record.
    home = laptop.new_page()
    home.set_default_timeout(15_000)
    home.on("pageerror", lambda e: errors.append(str(e)))
    home.goto(server + "/")
    item = home.locator(f"#past-games-list li.past-game[data-code='{old_code}']")
    item.wait_for()
    assert home.locator("#past-games-empty").is_hidden()
    assert item.locator("time").get_attribute("datetime")
    assert (item.locator("time").text_content() or "").strip()
    rows = item.locator(".past-players li")
    assert rows.count() == 4
    listed = " ".join(rows.all_text_contents())
    assert "Ana" in listed and "Bo" in listed and re.search(r"-?\d+ pts?", listed), listed
    assert item.locator(".past-players li.winner .badge").count() >= 1
    assert rows.first.locator(".badge").text_content() == "winner"
    link = item.locator("a[download]")
    assert old_code in (link.get_attribute("aria-label") or "")
    link.focus()
    with home.expect_download() as dl:
        home.keyboard.press("Enter")
    listed_record = json.loads(Path(dl.value.path()).read_text())
    assert listed_record.get("format") == record["format"]
    assert rec.check(listed_record) is None
    assert listed_record["seats"] == record["seats"]
    assert not errors, errors
    with contextlib.suppress(Exception):
        laptop.close()
        phone.close()


def test_the_turn_timer_counts_down_live(server, browser):
    """An absent player the game waits for: the others see a countdown that ticks each second."""
    errors: list[str] = []
    ana_ctx = browser.new_context(reduced_motion="reduce", locale="en-US")
    bo_ctx = browser.new_context(reduced_motion="reduce", locale="en-US")
    ana, bo = ana_ctx.new_page(), bo_ctx.new_page()
    for page in (ana, bo):
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
    ana.goto(server + "/")
    ana.fill("#create-name", "Ana")
    ana.select_option("#create-seats", "3")
    ana.select_option("#seat-kind-1", "human")
    ana.select_option("#seat-kind-2", "bot:greedy")
    ana.click("#create-form button[type=submit]")
    ana.wait_for_selector("#screen-lobby:not([hidden])")
    bo.goto(ana.input_value("#invite-link"))
    bo.wait_for_selector("#join-form:not([hidden])")
    bo.fill("#join-name", "Bo")
    bo.click("#join-form button[type=submit]")
    bo.wait_for_selector("#personal:not([hidden])")
    ana.wait_for_selector("#start-btn:not([disabled])")
    ana.click("#start-btn")
    bo.wait_for_selector("#screen-game:not([hidden])")
    # Bo leaves while the game waits for his bid: Ana sees when a bot will bid for him.
    bo_ctx.close()
    timer = ana.locator("#turn-timer")
    timer.wait_for()
    assert timer.get_attribute("role") == "timer"

    def seconds() -> int:
        m = re.search(r"Bo in (\d+) s", timer.text_content() or "")
        assert m, timer.text_content()
        return int(m.group(1))

    first = seconds()
    assert 0 < first <= 600
    ana.wait_for_timeout(2_300)  # no message from the server meanwhile: the page counts alone
    later = seconds()
    assert first - 4 <= later <= first - 2, (first, later)
    assert not errors, errors
    ana_ctx.close()


def test_the_client_speaks_the_browser_language(server, browser):
    ctx = browser.new_context(locale="es-ES", reduced_motion="reduce")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#screen-home:not([hidden])")
    es = _load("es")
    assert page.locator("#create-form h2").text_content() == es["create.title"]
    page.select_option("#lang-switch", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.locator("#create-form h2").text_content() == _load("de")["create.title"]
    assert page.locator("#seat-kind-3 option[value='bot:greedy']").text_content() == "Bot: Gierig (schnell)"
    # The choice is remembered over a reload.
    page.reload()
    page.wait_for_selector("#screen-home:not([hidden])")
    assert page.locator("#create-form h2").text_content() == _load("de")["create.title"]
    ctx.close()
