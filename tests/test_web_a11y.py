"""Accessibility of the web client: axe-core in real headless Chromium against a real `minodice serve`.

Every screen a player meets — home (with the rule options open too), a lobby
waiting for a player, the game while bidding and while rolling (a trick on the
table), the score sheet and the help shown over the game, the podium, and the
score-sheet page (`/sheet.html`, set up and with a trick refereed) — is checked
by axe-core at 1280×860 and 390×844, in light and dark colour schemes; the game
screen once more in German. A violation of impact "serious" or "critical" fails
the test (the message names the rule, its help and each node's selector), unless
KNOWN_ISSUES lists it: then it is shown in pytest's warnings summary. Lesser ones
are printed.

axe-core is pinned in tests/a11y/package.json (`npm ci --prefix tests/a11y`, which
`make test` runs). Without it, or without Playwright or Chromium, the tests are
skipped with the reason — unless MINODICE_REQUIRE_BROWSER is set (CI), when a
missing piece is a failure. Bots play at delay 0 and motion is reduced: the
module runs in well under a minute.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_server_common import Player, ServerProcess

AXE = Path(__file__).resolve().parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
#: The sizes every screen is checked at: a laptop and a phone.
VIEWPORTS = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
SCHEMES = ("light", "dark")
FAILING = ("serious", "critical")

#: Violations accepted for now: (axe rule id, a piece of the offending node's selector or start
#: tag) -> the file and the fix. Each is printed as a warning whenever it is seen (pytest's
#: warnings summary), not hidden, and does not fail the test. Empty: every screen passes.
KNOWN_ISSUES: dict[tuple[str, str], str] = {}
#: The screens checked.
SCREENS = (
    "home",
    "home, rule options open",
    "lobby",
    "game, bidding",
    "game, rolling",
    "game, score sheet shown",
    "game, help open",
    "podium",
    "game (de), rolling",
    "sheet page, set up",
    "sheet page, a hand and a trick",
)


class KnownA11yIssue(UserWarning):
    """An axe-core violation listed in KNOWN_ISSUES (shown in pytest's warnings summary)."""


# --- fixtures -----------------------------------------------------------------------------------


def _missing(reason: str) -> None:
    """Skip for a missing tool, or fail where CI requires the browser tests to run."""
    if os.environ.get("MINODICE_REQUIRE_BROWSER"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def axe() -> Path:
    """The path of axe-core's browser build (skips, or fails on CI, when it is not installed)."""
    if not AXE.is_file():
        _missing(f"axe-core is not installed ({AXE} missing): npm ci --prefix tests/a11y")
    return AXE


@pytest.fixture(scope="module")
def server(axe: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real `minodice serve`, bots at delay 0 (started only once axe-core is known to be there)."""
    tmp: Path = tmp_path_factory.mktemp("weba11y")
    srv = ServerProcess(
        f"sqlite:///{tmp / 'a11y.db'}", tmp / "server.log", bot_delay=0, turn_timeout=600
    ).start()
    yield srv
    srv.stop()


@pytest.fixture
def audit(page: Any, axe: Path) -> Iterator[Audit]:
    """The page's auditor; a test cut short still prints what was found before (in its teardown)."""
    auditor = Audit(page, axe)
    yield auditor
    for text, where in auditor.failures.items():
        print(f"[{', '.join(where)}] {text}")


@pytest.fixture
def page(browser: Any, axe: Path) -> Iterator[Any]:
    """A fresh page (its own cookies and storage) with reduced motion; fails the test on a script error."""
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"], reduced_motion="reduce", locale="en-US")
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"script errors on the page: {errors}"


# --- running axe-core ---------------------------------------------------------------------------

_RUN_AXE = """async () => {
  const r = await axe.run(document, {resultTypes: ["violations"]});
  return r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target, html: n.html, impact: n.impact || v.impact, summary: n.failureSummary || "",
    })),
  }));
}"""


def _axe_violations(page: Any, axe: Path) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (injecting axe-core if the page has not got it)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe))
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return page.evaluate(_RUN_AXE)


def _describe(v: dict[str, Any], nodes: list[dict[str, Any]]) -> str:
    lines = [f"{v['id']} ({v['impact']}): {v['help']}"]
    for n in nodes[:8]:
        summary = " ".join(n["summary"].split())
        lines.append(f"    {' '.join(map(str, n['target']))}: {summary[:300]}")
    if len(nodes) > 8:
        lines.append(f"    ... and {len(nodes) - 8} more")
    return "\n".join(lines)


def _known_issue(rule: str, node: dict[str, Any]) -> str | None:
    """What KNOWN_ISSUES says of this node's violation of `rule`, or None if it is not listed."""
    seen = " ".join(map(str, node["target"])) + " " + node["html"].split(">", 1)[0]
    return next((fix for (r, piece), fix in KNOWN_ISSUES.items() if r == rule and piece in seen), None)


class Audit:
    """Runs axe-core on each screen at every size and colour scheme; gathers what it finds."""

    def __init__(self, page: Any, axe: Path) -> None:
        self.page, self.axe = page, axe
        #: "screen: rule (impact): help + nodes" -> where it was seen ("desktop/dark", ...)
        self.failures: dict[str, list[str]] = {}

    def __call__(self, screen: str) -> None:
        """Check `screen` (the page as it is now) in both sizes and both schemes."""
        assert screen in SCREENS, screen
        known: dict[str, list[str]] = {}  # the same, for the violations listed in KNOWN_ISSUES
        for size, viewport in VIEWPORTS.items():
            for scheme in SCHEMES:
                self.page.set_viewport_size(viewport)
                self.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
                where = f"{size}/{scheme}"
                for text, is_known in self._sort(screen, where, _axe_violations(self.page, self.axe)):
                    (known if is_known else self.failures).setdefault(text, []).append(where)
        self.page.set_viewport_size(VIEWPORTS["desktop"])
        self.page.emulate_media(color_scheme="light", reduced_motion="reduce")
        for text, where in known.items():
            warnings.warn(f"[{', '.join(where)}] {text}", KnownA11yIssue, stacklevel=2)

    @staticmethod
    def _sort(screen: str, where: str, violations: list[dict[str, Any]]) -> Iterator[tuple[str, bool]]:
        """Each serious or critical violation as text, and whether KNOWN_ISSUES lists it (lesser ones are printed)."""
        for v in violations:
            serious = [n for n in v["nodes"] if n["impact"] in FAILING]
            if not serious:
                print(f"minor ({where}): {screen}: " + _describe(v, v["nodes"]))
                continue
            new = [n for n in serious if not _known_issue(v["id"], n)]
            if new:
                yield f"{screen}: " + _describe(v, new), False
            for node in serious:
                fix = _known_issue(v["id"], node)
                if fix:
                    yield f"{screen}: known issue, to fix in {fix}: " + _describe(v, [node]), True

    def assert_clean(self) -> None:
        """Fail with every serious or critical violation found: rule id, help, the nodes' targets."""
        if self.failures:
            found = [f"[{', '.join(where)}] {text}" for text, where in self.failures.items()]
            self.failures = {}  # reported here: the fixture's teardown need not print them again
            pytest.fail("axe-core found serious or critical violations:\n" + "\n".join(found), pytrace=False)


# --- driving the client -------------------------------------------------------------------------


def _create_table(
    page: Any, base: str, *, lang: str = "en", kinds: tuple[str, ...] = ("bot:greedy", "bot:random")
) -> str:
    """Create a table through the home page: me and `kinds` in the other seats. Its code."""
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector("#screen-home:not([hidden])")
    page.fill("#create-name", "Ana")
    page.select_option("#create-seats", str(len(kinds) + 1))
    for i, kind in enumerate(kinds, start=1):
        page.select_option(f"#seat-kind-{i}", kind)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    return page.locator("#lobby-code").text_content() or ""


def _cookie(page: Any, name: str) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == name)


def _bidding(view: dict[str, Any]) -> bool:
    return isinstance(view["legal"][0], int)


def _rolling_after_others(view: dict[str, Any]) -> bool:
    """My roll, with a trick on the table (someone rolled before me)."""
    return not _bidding(view) and view["trick"] is not None


def _play_until(page: Any, me: Player, until: Callable[[dict[str, Any]], bool], seconds: float = 30) -> None:
    """Play my seat through the page's buttons until the game waits for me in a state `until` accepts.

    The websocket of my own seat (`me`) tells when the game waits for me and what is on
    the table; the page is driven through its stable ids only (#bid-buttons, #my-dice)
    and is left showing the decision `until` stopped at.
    """
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the game did not reach the screen to check in time"
        me.pump(0.05)
        view = me.state["view"] if me.state else {}
        legal = view.get("legal")
        if not legal:
            continue
        button = page.locator(
            "#bid-buttons button:not([disabled])"
            if _bidding(view)
            else "#my-dice button.legal:not([disabled])"
        )
        button.first.wait_for(state="visible")
        if until(view):
            return
        button.first.click()
        try:
            me.wait_for(
                lambda m, was=legal: (
                    m["type"] == "error" or (m["type"] == "state" and m["view"].get("legal") != was)
                ),
                10,
            )
        except TimeoutError:
            continue  # the click landed on a button being replaced: the decision is still open


def _start_game(page: Any, server: ServerProcess, lang: str = "en") -> tuple[str, Player]:
    code = _create_table(page, server.base, lang=lang)
    page.click("#start-btn:not([disabled])")
    page.wait_for_selector("#screen-game:not([hidden])")
    return code, Player(server.ws_base, code, _cookie(page, f"md_{code}"))


# --- the screens ---------------------------------------------------------------------------------


def test_home_screen(server: ServerProcess, page: Any, audit: Audit) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#screen-home:not([hidden])")
    page.wait_for_selector("#past-games[aria-busy=false]")
    audit("home")
    page.locator("#create-form details summary").click()
    page.wait_for_selector("#create-form details[open] select")
    audit("home, rule options open")
    audit.assert_clean()


def test_lobby_waiting_for_a_player(server: ServerProcess, page: Any, audit: Audit) -> None:
    _create_table(page, server.base, kinds=("human", "bot:greedy"))
    page.wait_for_selector("#personal:not([hidden])")
    page.wait_for_function("document.getElementById('lobby-status').textContent.trim() !== ''")
    audit("lobby")
    audit.assert_clean()


def test_game_screens_and_podium(server: ServerProcess, page: Any, audit: Audit) -> None:
    """Bidding and rolling (a trick on the table), each with its hint open, the sheet and the help over
    it, then the podium."""
    code, me = _start_game(page, server)
    try:
        _play_until(page, me, _bidding)
        page.keyboard.press("h")  # with the hint open: the bid advisor's table
        page.wait_for_selector("#hint-box:not([hidden]) .hint-best")
        audit("game, bidding")
        _play_until(page, me, _rolling_after_others)
        page.keyboard.press("h")  # the roll hint (a forced choice in hand 1 is a line, not a table)
        page.wait_for_selector("#hint-box:not([hidden]) .hint-best")
        audit("game, rolling")
        page.keyboard.press("s")
        page.wait_for_selector("#sheet:not([hidden])")
        audit("game, score sheet shown")
        page.keyboard.press("s")
        page.wait_for_selector("#sheet", state="hidden")
        page.keyboard.press("?")
        page.wait_for_selector("#help:not([hidden])")
        audit("game, help open")
        page.keyboard.press("?")
        page.wait_for_selector("#help", state="hidden")
    finally:
        me.close()
    # To the end at once: the host hands my seat to a bot, and the bots play on at delay 0.
    host = _cookie(page, f"mdh_{code}")
    with httpx.Client(base_url=server.base, timeout=10) as http:
        r = http.post(
            f"/api/tables/{code}/seats/0/bot",
            json={"bot": "random"},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 200, r.text
    page.wait_for_selector("#screen-podium:not([hidden])", timeout=30_000)
    audit("podium")
    audit.assert_clean()


def test_game_screen_in_german(server: ServerProcess, page: Any, audit: Audit) -> None:
    _code, me = _start_game(page, server, lang="de")
    try:
        _play_until(page, me, _rolling_after_others)
    finally:
        me.close()
    assert page.evaluate("document.documentElement.lang") == "de"
    audit("game (de), rolling")
    audit.assert_clean()


def test_score_sheet_page(server: ServerProcess, page: Any, audit: Audit) -> None:
    page.goto(server.base + "/sheet.html")
    page.wait_for_selector("#setup-form:not([hidden])")
    audit("sheet page, set up")
    players = ["Ana", "Ben", "Cy", "Dolores", "Eustaquio", "Filomena"]  # six: the widest sheet
    for i, name in enumerate(players):
        page.fill(f"#setup-name-{i}", name)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad:not([hidden])")
    # Hand 1: Ana bids 1 and takes the trick, with a +30 bonus (her minotaur caught a griffin).
    for i in range(len(players)):
        page.fill(f"#bid-{i}", "1" if i == 0 else "0")
        page.fill(f"#won-{i}", "1" if i == 0 else "0")
    page.fill("#griffins-0", "1")
    page.click("#add-hand")
    page.wait_for_function("document.querySelectorAll('#pad-table tbody tr th').length === 1")
    page.click("#ref-form button[type=submit]")
    page.wait_for_function("document.getElementById('ref-result').textContent.trim() !== ''")
    audit("sheet page, a hand and a trick")
    audit.assert_clean()


def test_known_issues_name_rules_axe_has(axe: Path) -> None:
    """A known issue with a misspelt rule id would excuse nothing and mislead whoever reads it."""
    source = axe.read_text(encoding="utf-8")
    for rule, piece in KNOWN_ISSUES:
        assert f'id:"{rule}"' in source, f"axe-core has no rule {rule!r}"
        assert piece.strip(), rule
