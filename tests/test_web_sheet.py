"""The score sheet page (sheet.html), end to end: headless Chromium against a real `minodice serve`.

Three players, two hands (one with a bonus), a refused impossible hand, a reload,
the CSV download, undo, the trick referee, and a phone-width look; a screenshot
goes to $MINODICE_SCREENSHOTS/sheet-page.png (`make screenshots`). The page holds no rules: refusals,
reasons, bonuses and fouls come from the server as codes and are shown in the
page's language (the French page refuses in French). Skipped like
tests/test_web_client.py when Playwright or Chromium is missing (unless
MINODICE_REQUIRE_BROWSER is set).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_server_common import ServerProcess
from test_web_client import SHOTS

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "src/minodice/server/static/i18n"


def words(lang: str) -> dict[str, Any]:
    """A language file of the web client."""
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def fill(template: str, **params: object) -> str:
    """A translation with its {placeholders} filled, as the page's `t()` does."""
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), template)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("websheet")
    srv = ServerProcess(f"sqlite:///{tmp / 'sheet.db'}", tmp / "server.log").start()
    yield srv.base
    srv.stop()


def _enter(page: Any, lines: list[tuple[int, int]], griffins: dict[int, int] | None = None) -> None:
    """Type one hand: (bid, won) per player, optional +30 counts by seat."""
    for i, (bid, won) in enumerate(lines):
        page.fill(f"#bid-{i}", str(bid))
        page.fill(f"#won-{i}", str(won))
    for i, n in (griffins or {}).items():
        page.fill(f"#griffins-{i}", str(n))


def _wait_for_hands(page: Any, n: int) -> None:
    """Wait until the sheet shows n entered hands (rows with a hand number; the empty sheet's placeholder row has none)."""
    page.wait_for_function(f"document.querySelectorAll('#pad-table tbody tr th').length === {n}")


def _cells(page: Any, row: int) -> list[str]:
    return [c.strip() for c in page.locator(f"#pad-table tbody tr:nth-child({row}) td strong").all_text_contents()]


def _totals(page: Any) -> list[str]:
    return page.locator("#pad-table tfoot tr:first-child td").all_text_contents()


def test_the_score_sheet_page(server: str, browser: Any) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())

    # The home page links to the sheet.
    page.goto(server + "/")
    page.click("a[href='/sheet.html']")
    page.wait_for_selector("#setup-form:not([hidden])")

    # Set up: three players, standard scoring. Every input has a label.
    for i, name in enumerate(["Ana", "Ben", "Cy"]):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad:not([hidden])")
    assert "Hand 1 of 8: 1 die each" in page.locator("#hand-title").text_content()
    assert page.get_by_label("+30 bonuses (griffins caught by the minotaur)").count() == 3

    # Hand 1: Ana bids 1 and wins it. Hand 2: Ben makes 1 with a +30.
    _enter(page, [(1, 1), (0, 0), (0, 0)])
    page.click("#add-hand")
    _wait_for_hands(page, 1)
    page.wait_for_function("document.getElementById('hand-title').textContent.includes('Hand 2')")
    _enter(page, [(1, 0), (1, 1), (0, 1)], griffins={1: 1})
    page.click("#add-hand")
    page.wait_for_function("document.getElementById('hand-title').textContent.includes('Hand 3')")
    assert _cells(page, 1) == ["+20", "+10", "+10"]
    assert _cells(page, 2) == ["-10", "+50", "-20"]
    assert _totals(page) == ["10", "60", "-10"]
    assert "incl. bonus +30" in page.locator("#pad-table tbody tr:nth-child(2)").text_content()
    assert page.locator("#pad-table thead th.leader").text_content().startswith("Ben")

    # An impossible hand: refused with the server's words, typed values kept, sheet unchanged.
    _enter(page, [(1, 1), (1, 1), (1, 2)])
    page.click("#add-hand")
    page.wait_for_selector("#hand-error:not([hidden])")
    message = page.locator("#hand-error").text_content()
    assert message.startswith("Not entered: hand 3: the tricks add up to 4"), message
    assert page.input_value("#won-2") == "2"
    assert page.locator("#pad-table tbody tr").count() == 2 and _totals(page) == ["10", "60", "-10"]

    # A reload: the sheet and the half-typed hand are still there.
    page.fill("#won-2", "1")
    page.reload()
    page.wait_for_selector("#pad:not([hidden])")
    assert page.locator("#pad-table tbody tr").count() == 2 and _totals(page) == ["10", "60", "-10"]
    assert [page.input_value(f"#won-{i}") for i in range(3)] == ["1", "1", "1"]

    # The CSV download.
    with page.expect_download() as dl:
        page.click("#download-csv")
    assert dl.value.suggested_filename == "minodice-sheet.csv"
    rows = list(csv.reader(io.StringIO(Path(dl.value.path()).read_text(encoding="utf-8"))))
    assert rows[0][:3] == ["hand", "dice", "player"]
    assert rows[5] == ["2", "2", "Ben", "1", "1", "30", "50", "60"]
    assert rows[-3:] == [["Ana", "10", "2"], ["Ben", "60", "1"], ["Cy", "-10", "3"]]

    # Undo: hand 2 comes off the sheet and back into the form.
    page.click("#undo-hand")
    _wait_for_hands(page, 1)
    assert page.input_value("#griffins-1") == "1" and _totals(page) == ["20", "10", "10"]
    page.click("#add-hand")
    _wait_for_hands(page, 2)
    stored = json.loads(page.evaluate("localStorage.getItem('minodice.sheet')"))
    assert len(stored["sheet"]["hands"]) == 2

    # The referee: names default to the players; Ben's mermaid catches Ana's minotaur.
    assert [page.input_value(f"#ref-name-{i}") for i in range(3)] == ["Ana", "Ben", "Cy"]
    page.select_option("#ref-die-0", "minotaur")
    page.select_option("#ref-die-1", "mermaid")
    page.select_option("#ref-die-2", "red")
    assert page.locator("#ref-face-2 option").all_inner_texts() == ["5", "6", "7"]
    page.select_option("#ref-face-2", "7")
    page.click("#ref-form button[type=submit]")
    page.wait_for_selector(".ref-winner")
    result = page.locator("#ref-result").text_content()
    en = words("en")
    assert "Ben wins the trick with Mermaid: mermaid." in result, result
    why = fill(en["code.special_beats_special"], face="mermaid", beaten="minotaur")
    assert f"Why: {why}." in result
    assert f"Bonus for Ben: {fill(en['code.mermaid_took_minotaur'], points=50)}." in result

    # A colour-rule foul: Cy rolls yellow while holding red after Ana's red lead.
    page.select_option("#ref-die-0", "red")
    page.select_option("#ref-die-1", "red")
    page.select_option("#ref-face-1", "6")
    page.select_option("#ref-die-2", "yellow")
    page.check("#ref-check-2")
    page.check("#ref-held-2-red")
    page.click("#ref-form button[type=submit]")
    page.wait_for_selector(".ref-fouls li")
    result = page.locator("#ref-result").text_content()
    assert "Ben wins the trick with Red: 6." in result
    assert f"Foul by Cy: {fill(en['code.must_follow'], colour='Red', die='Yellow')}." in result
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "sheet-page.png"), full_page=True)

    # On a phone: nothing wider than the screen but the sheet table's own scroller.
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="reduce", locale="en-US", is_mobile=True, has_touch=True
    )
    small = phone.new_page()
    small.on("pageerror", lambda e: errors.append(str(e)))
    small.goto(server + "/sheet.html")
    small.wait_for_selector("#setup-form:not([hidden])")
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.close()

    # New sheet (confirmed): back to the set-up with the names kept.
    page.click("#new-sheet")
    page.wait_for_selector("#setup-form:not([hidden])")
    assert page.input_value("#setup-name-1") == "Ben"
    assert json.loads(page.evaluate("localStorage.getItem('minodice.sheet')"))["sheet"] is None
    assert not errors, errors
    ctx.close()


def test_the_page_speaks_the_chosen_language(server: str, browser: Any) -> None:
    ctx = browser.new_context(locale="de-DE", reduced_motion="reduce")
    page = ctx.new_page()
    page.goto(server + "/sheet.html")
    page.wait_for_selector("#setup-form:not([hidden])")
    de = json.loads((ROOT / "src/minodice/server/static/i18n/de.json").read_text(encoding="utf-8"))
    assert page.locator("#ref-h").text_content() == de["ref.title"]
    page.select_option("#lang-switch", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.locator("#ref-form button[type=submit]").text_content() == "Qui gagne ?"
    ctx.close()


def test_the_french_page_refuses_and_referees_in_french(server: str, browser: Any) -> None:
    fr, en = words("fr"), words("en")
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/sheet.html?lang=fr")
    page.wait_for_selector("#setup-form:not([hidden])")
    assert page.evaluate("document.documentElement.lang") == "fr"
    for i, name in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f"#setup-name-{i}", name)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad:not([hidden])")

    # An impossible hand 1 (two tricks in a hand of one die): refused in French, from its code.
    _enter(page, [(1, 1), (0, 1), (0, 0)])
    page.click("#add-hand")
    page.wait_for_selector("#hand-error:not([hidden])")
    reason = fill(fr["code.tricks_do_not_add_up"], won=2, each="Ana 1, Ben 1, Cy 0", dice=1)
    expected = fill(fr["pad.refused"], message=fill(fr["pad.at_hand"], hand=1, text=reason))
    message = page.locator("#hand-error").text_content()
    assert message == expected, message
    assert "les plis font 2 au total (Ana 1, Ben 1, Cy 0), mais ils doivent faire 1" in message
    english = fill(en["code.tricks_do_not_add_up"], won=2, each="Ana 1, Ben 1, Cy 0", dice=1)
    body = page.locator("body").inner_text()
    assert english not in body and "the tricks add up" not in body and "Not entered" not in body

    # A refusal naming two players: the names are joined the French way.
    _enter(page, [(1, 1), (0, 0), (0, 0)])
    page.click("#add-hand")
    _wait_for_hands(page, 1)
    _enter(page, [(1, 1), (1, 1), (0, 0)])
    page.check("#mermaid-0")
    page.check("#mermaid-1")
    page.click("#add-hand")
    page.wait_for_selector("#hand-error:not([hidden])")
    reason = fill(fr["code.two_mermaid_bonuses"], players="Ana et Ben", points=50)
    expected = fill(fr["pad.refused"], message=fill(fr["pad.at_hand"], hand=2, text=reason))
    assert page.locator("#hand-error").text_content() == expected
    assert "both have a +50" not in page.locator("body").inner_text()

    # The referee: the winner, the reason, the bonus, then a tie and a foul, all in French.
    for i, die in enumerate(["minotaur", "mermaid", "red"]):
        page.select_option(f"#ref-die-{i}", die)
    page.click("#ref-form button[type=submit]")
    page.wait_for_selector(".ref-winner")
    what = fill(fr["die_shows"], die=fr["die.mermaid"], face=fr["face.mermaid"])
    assert page.locator(".ref-winner").text_content() == fill(fr["ref.winner"], name="Ben", what=what)
    why = fill(fr["code.special_beats_special"], face=fr["face.mermaid"], beaten=fr["face.minotaur"])
    assert page.locator(".ref-why").text_content() == fill(fr["ref.why"], why=why)
    bonus = fill(fr["code.mermaid_took_minotaur"], points=50)
    assert page.locator(".ref-bonus").text_content() == fill(fr["ref.bonus"], name="Ben", why=bonus)

    for i, (die, face) in enumerate([("red", "6"), ("red", "5"), ("yellow", "5")]):
        page.select_option(f"#ref-die-{i}", die)
        page.select_option(f"#ref-face-{i}", face)
    page.select_option("#ref-face-1", "6")
    page.check("#ref-check-2")
    page.check("#ref-held-2-red")
    page.click("#ref-form button[type=submit]")
    page.wait_for_selector(".ref-fouls li")
    what = fill(fr["die_shows"], die=fr["die.red"], face=fr["face.6"])
    assert page.locator(".ref-winner").text_content() == fill(fr["ref.winner"], name="Ben", what=what)
    why = fill(fr["code.highest_number"], face="6") + fill(fr["code.tie"], face="6")
    assert page.locator(".ref-why").text_content() == fill(fr["ref.why"], why=why)
    foul = fill(fr["code.must_follow"], colour=fr["die.red"], die=fr["die.yellow"])
    assert page.locator(".ref-fouls li").text_content() == fill(fr["ref.foul"], name="Cy", why=foul)
    result = page.locator("#ref-result").text_content()
    for english in ("wins the trick", "is the highest number", "later roll", "Foul by", "you must roll", "Why:"):
        assert english not in result, result

    # Switching to English re-words the same answers from their codes.
    page.select_option("#lang-switch", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.locator(".ref-why").text_content() == (
        f"Why: {fill(en['code.highest_number'], face='6')}{fill(en['code.tie'], face='6')}.")
    assert page.locator("#hand-error").text_content().startswith("Not entered: hand 2: Ana and Ben both have a +50")
    assert not errors, errors
    ctx.close()


def test_tricks_entered_with_the_referee_make_a_game_record(server: str, browser: Any) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, reduced_motion="reduce", locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/sheet.html")
    page.wait_for_selector("#setup-form:not([hidden])")
    for i, name in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f"#setup-name-{i}", name)
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#pad:not([hidden])")
    assert page.locator("#ref-tricks").text_content() == "Hand 1: 0 of 1 trick entered"
    assert page.locator("#ref-keep-trick").is_hidden() and page.locator("#download-record").is_hidden()

    # Hand 1's only trick: Ana's red 7 beats Ben's 5 and Cy's 6. Added, removed, added again.
    for i, face in enumerate(["7", "5", "6"]):
        page.select_option(f"#ref-face-{i}", face)
    page.click("#ref-form button[type=submit]")
    page.wait_for_selector("#ref-keep-trick:not([hidden])")
    assert page.locator("#ref-keep-trick").text_content() == "Add this trick to hand 1"
    page.click("#ref-keep-trick")
    page.wait_for_selector("#ref-keep-trick[hidden]", state="attached")
    assert page.locator("#ref-tricks").text_content() == "Hand 1: 1 of 1 trick entered"
    page.click("#ref-drop-trick")
    assert page.locator("#ref-tricks").text_content() == "Hand 1: 0 of 1 trick entered"
    page.click("#ref-form button[type=submit]")
    page.click("#ref-keep-trick:not([hidden])")
    assert page.locator("#ref-tricks").text_content() == "Hand 1: 1 of 1 trick entered"

    # A reload keeps the entered trick.
    page.reload()
    page.wait_for_selector("#pad:not([hidden])")
    assert page.locator("#ref-tricks").text_content() == "Hand 1: 1 of 1 trick entered"
    stored = json.loads(page.evaluate("localStorage.getItem('minodice.sheet')"))
    assert stored["tricks"][0] == [[{"player": "Ana", "roll": "red:7"}, {"player": "Ben", "roll": "red:5"},
                                    {"player": "Cy", "roll": "red:6"}]]

    # Hand 1 on the sheet, but not as the trick went: the server refuses the record.
    # Undo keeps the trick with the hand, back in the form.
    _enter(page, [(0, 0), (1, 1), (0, 0)])
    page.click("#add-hand")
    page.wait_for_selector("#download-record:not([hidden])")
    page.click("#download-record")
    page.wait_for_selector("#record-error:not([hidden])")
    message = page.locator("#record-error").text_content()
    assert message.startswith("No game record: hand 1: by the tricks entered Ana won 1"), message
    page.click("#undo-hand")
    page.wait_for_selector("#download-record[hidden]", state="attached")
    assert page.locator("#ref-tricks").text_content() == "Hand 1: 1 of 1 trick entered"

    # Hand 1 on the sheet as the trick went: the record can be downloaded.
    _enter(page, [(1, 1), (0, 0), (0, 0)])
    page.click("#add-hand")
    page.wait_for_selector("#download-record:not([hidden])")
    assert page.locator("#record-error").is_hidden()
    assert page.locator("#ref-tricks").text_content() == "Hand 2: 0 of 2 tricks entered"
    with page.expect_download() as dl:
        page.click("#download-record")
    assert dl.value.suggested_filename == "minodice-sheet-record.json"
    record = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert record["format"] == "minodice/1" and len(record["hands"]) == 1
    assert record["hands"][0]["tricks"][0]["winner"] == 0
    assert not errors, errors
    ctx.close()
