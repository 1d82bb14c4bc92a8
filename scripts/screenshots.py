"""Refresh the web client's pictures (docs/screenshots/, in the README and the docs): every screen, in headless Chromium.

    make screenshots                      # writes docs/screenshots/*.png
    .venv/bin/python scripts/screenshots.py OUT_DIR [--chromium PATH]

Starts its own `minodice serve` on a free port with a temporary database, plays a 4-seat game
(Ana in the browser, three bots) and captures: home (create form), lobby (waiting for a
friend), bidding (with the hint), rolling (a trick on the table), end of trick, a hand's
summary, end of hand (with the score sheet), the podium, the game's replay (with an analysis of Ana's decisions when
`minodice.review` is there) on a laptop and a phone, a 6-seat table on a phone, a table of
right-to-left names, the tutorial, the rules page and the score-sheet page.
Not a test: the tests write their pictures to a temporary folder and never touch docs/.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `minodice serve` of its own, on a temporary database."""

    def __init__(self, tmp: Path, bot_delay: float) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        minodice = Path(sys.executable).parent / "minodice"
        args = [str(minodice), "serve", "--port", str(self.port), "--db", f"sqlite:///{tmp / 'shots.db'}",
                "--bot-delay", str(bot_delay), "--turn-timeout", "600",
                # Short pauses: long enough to catch a trick's result and a hand's summary.
                "--trick-pause", "0.6", "--hand-pause", "2"]
        self.proc = subprocess.Popen(args, stdout=(tmp / "server.log").open("w"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("minodice serve did not start: " + (tmp / "server.log").read_text()) from None
                time.sleep(0.2)

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def shot(page: Page, out: Path, name: str) -> None:
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    print(f"  {name}.png")


def play_and_capture(page: Page, out: Path) -> None:
    """Ana plays her seat until the podium, capturing each kind of moment once."""
    wanted = ["bidding", "rolling", "end-of-trick", "hand-summary", "end-of-hand"]
    deadline = time.monotonic() + 240
    while page.locator("#screen-podium").is_hidden():
        if time.monotonic() > deadline:
            raise SystemExit("the game did not reach the podium in time")
        summary = page.locator("#hand-summary")
        if "hand-summary" in wanted and summary.count() and int(summary.get_attribute("data-hand") or 0) >= 3:
            page.wait_for_timeout(400)  # its entrance is over
            shot(page, out, "hand-summary")
            wanted.remove("hand-summary")
        if page.locator("#bid-pad").is_visible():
            if "bidding" in wanted and page.locator("#hint-button").is_visible():
                page.click("#hint-button")
                page.wait_for_selector("#hint-box:not([hidden])")
                shot(page, out, "bidding")
                wanted.remove("bidding")
            elif "end-of-hand" in wanted and "hand-summary" not in wanted:
                page.keyboard.press("Escape")  # the hand's summary: the sheet says it too
                page.keyboard.press("s")
                page.wait_for_selector("#sheet:not([hidden])")
                shot(page, out, "end-of-hand")
                page.keyboard.press("s")
                wanted.remove("end-of-hand")
            page.locator("#bid-buttons button").nth(page.locator("#bid-buttons button").count() // 3).click()
        elif page.locator("#my-dice button.legal").count():
            title = page.locator("#trick-h").text_content() or ""
            if "rolling" in wanted and page.locator("#trick li:not(.pending)").count() >= 2:
                shot(page, out, "rolling")
                wanted.remove("rolling")
            elif "end-of-trick" in wanted and title.startswith("Last trick"):
                shot(page, out, "end-of-trick")
                wanted.remove("end-of-trick")
            page.locator("#my-dice button.legal").first.click()
        page.wait_for_timeout(120)
    if wanted:
        print("  (not met in this game: " + ", ".join(wanted) + ")")
    page.wait_for_timeout(400)
    shot(page, out, "podium")


def capture_replay(browser: Any, page: Page, out: Path, tmp: Path) -> None:
    """The replay page of the game just played (from the podium's "Review this game"), with an analysis
    of Ana's decisions attached when `minodice.review` is there; then the same page on a phone."""
    page.click("#review-link")
    page.wait_for_selector("#replay:not([hidden])")
    code = page.url.rsplit("table=", 1)[1]
    try:
        from minodice.review import analyze
    except ImportError:
        analyze = None
    if analyze is not None:
        with urllib.request.urlopen(page.url.split("/replay.html")[0] + f"/api/tables/{code}/record", timeout=10) as r:
            record = json.load(r)
        doc = analyze(record, seats=[0], spec="montecarlo:sims=64,bid_sims=64,per=4,bid_per=4", seed=1).to_dict()
        (tmp / "analysis.json").write_text(json.dumps(doc), encoding="utf-8")
        page.set_input_files("#analysis-input", str(tmp / "analysis.json"))
        page.wait_for_selector("#graphs figure")
        marks = page.locator("#graphs a.mark")
        if marks.count():
            marks.first.click()
    if page.locator("#decisions .decision").count() == 0:
        page.locator("#step-line").click()
        for _ in range(6):
            page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    shot(page, out, "replay")
    phone = browser.new_context(viewport=PHONE, reduced_motion="reduce", locale="en-US", is_mobile=True)
    small = phone.new_page()
    small.goto(page.url)
    small.wait_for_selector("#replay:not([hidden])")
    small.locator("#next-hand").click()
    for _ in range(4):
        small.locator("#next-step").click()
    small.wait_for_timeout(200)
    shot(small, out, "replay-phone")
    phone.close()


def capture_tutorial(browser: Any, server: Server, out: Path) -> None:
    """The tutorial's coach beside the table at its third lesson, and the rules page."""
    ctx = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.click("#tutorial-btn")
    page.wait_for_selector("#coach:not([hidden])[data-step=welcome]")
    for _ in range(2):  # welcome -> the hands -> your dice, with the bid pad
        step = page.locator("#coach").get_attribute("data-step")
        page.locator("#coach [data-coach=next]").click()
        page.wait_for_function(f"document.getElementById('coach').dataset.step !== {step!r}")
    page.wait_for_timeout(300)
    shot(page, out, "tutorial")
    page.goto(server.base + "/rules.html")
    page.wait_for_selector(".rules-example")
    shot(page, out, "rules-page")
    ctx.close()


def capture_rtl(browser: Any, server: Server, out: Path) -> None:
    """A table of people who write right to left (an Arabic and a Hebrew name, a message in Arabic),
    bidding: every name keeps its own direction in the seats, the lobby's chat and the log."""
    t = server.post("/api/tables", {"seats": 4, "bots": [None, None, "greedy", "greedy"], "name": "ليلى حسن"})
    code = t["table"]["code"]
    david = server.post(f"/api/tables/{code}/join", {"name": "דוד כהן"})
    server.post(f"/api/tables/{code}/start", {}, t["host_token"])
    ctx = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.goto(f"{server.base}/#table={code}&token={david['token']}")
    page.wait_for_selector("#bid-pad:not([hidden])")
    page.fill("#chat-input", "مرحبا! 3 tricks for me")
    page.press("#chat-input", "Enter")
    page.locator("#bid-buttons button").nth(1).click()
    page.keyboard.press("l")
    page.wait_for_selector("#log-wrap:not([hidden]) #log li")
    page.wait_for_timeout(300)
    shot(page, out, "rtl-table")
    ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    opts = parser.parse_args()
    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = Server(Path(tmp), bot_delay=0.2)
        browser = pw.chromium.launch(executable_path=opts.chromium, args=["--no-sandbox"])
        try:
            laptop = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", locale="en-US")
            page = laptop.new_page()
            page.set_default_timeout(20_000)
            page.goto(server.base + "/")
            page.wait_for_selector("#screen-home:not([hidden])")
            page.fill("#create-name", "Ana")
            page.select_option("#create-seats", "4")
            page.select_option("#seat-kind-1", "human")
            page.select_option("#seat-kind-2", "bot:greedy")
            page.select_option("#seat-kind-3", "bot:montecarlo")
            page.evaluate("document.querySelector('details.rule-options').open = true")
            shot(page, out, "create")
            page.click("#create-form button[type=submit]")
            page.wait_for_selector("#screen-lobby:not([hidden])")
            shot(page, out, "lobby")
            # Bo never comes: Ana lets a bot take his seat, then starts.
            page.locator("#lobby-seats .give-bot button").first.click()
            page.wait_for_selector("#start-btn:not([disabled])")
            page.click("#start-btn")
            page.wait_for_selector("#screen-game:not([hidden])")
            play_and_capture(page, out)
            capture_replay(browser, page, out, Path(tmp))
            laptop.close()

            # A full table on a phone, mid-game.
            t = server.post("/api/tables", {"seats": 6, "bots": [None] + ["greedy"] * 5, "name": "Ana"})
            server.post(f"/api/tables/{t['table']['code']}/start", {}, t["host_token"])
            phone = browser.new_context(viewport=PHONE, reduced_motion="reduce", locale="en-US", is_mobile=True)
            page = phone.new_page()
            page.goto(f"{server.base}/#table={t['table']['code']}&token={t['token']}")
            page.wait_for_selector("#bid-pad:not([hidden])")
            page.locator("#bid-buttons button").first.click()
            page.wait_for_selector("#my-dice button.legal")
            page.wait_for_timeout(300)
            shot(page, out, "phone")
            phone.close()

            capture_rtl(browser, server, out)
            capture_tutorial(browser, server, out)

            sheet = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", locale="en-US").new_page()
            sheet.goto(server.base + "/sheet.html")
            sheet.wait_for_selector("#setup-form:not([hidden])")
            shot(sheet, out, "sheet-page")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
