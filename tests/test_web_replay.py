"""The replay page (replay.html) in real Chromium against a real `minodice serve`.

A 3-seat game played to the end by bots on the server is played back step by step (next,
previous, trick and hand jumps, the slider, the keyboard) to its last step, whose totals are
the record's; the view of one seat hides the other seats' unrolled dice; a bad file dropped on
the page gets a clear message; the podium and the list of finished games link to the page; at
1280 and 390 px in the four languages nothing overflows and axe-core finds no serious or
critical violation; and with an analysis attached (`minodice.review.analyze`, a tiny budget) a
decision shows its loss and label, and the graph's marks jump to their step.

Needs Playwright, Debian's chromium (the `browser` fixture) and, for the accessibility checks,
axe-core (`npm ci --prefix tests/a11y`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_server_common import ServerProcess, make_table, start
from test_web_a11y import AXE, FAILING, _axe_violations, _describe, _missing
from test_web_table import LAPTOP, LONG, PHONE, SHOTS

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "src/minodice/server/static/i18n"
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr-FR", "de": "de-DE"}


def words(lang: str) -> dict[str, Any]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp: Path = tmp_path_factory.mktemp("webreplay")
    srv = ServerProcess(f"sqlite:///{tmp / 'replay.db'}", tmp / "server.log", bot_delay=0, turn_timeout=600).start()
    yield srv
    srv.stop()


def _finished_game(server: ServerProcess, names: list[str]) -> tuple[str, dict[str, Any]]:
    """A 3-seat game played to the end by bots (the humans' seats handed to bots): its code and record."""
    with server.api() as http:
        t = make_table(http, 3, [None, None, "greedy"], names)
        start(http, t["code"], t["host"])
        for seat in (0, 1):
            r = http.post(f"/api/tables/{t['code']}/seats/{seat}/bot", json={"bot": "random"},
                          headers={"Authorization": f"Bearer {t['host']}"})
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 60
        while http.get(f"/api/tables/{t['code']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.1)
        rec = http.get(f"/api/tables/{t['code']}/record")
        assert rec.status_code == 200, rec.text
        return t["code"], rec.json()


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> tuple[str, dict[str, Any]]:
    return _finished_game(server, ["Ana", LONG])


def _steps(rec: dict[str, Any]) -> int:
    """How many steps the page makes of a finished record: per hand a deal, the bids, each roll, each
    trick's winner and the scores."""
    return sum(3 + sum(len(t["rolls"]) + 1 for t in h["tricks"]) for h in rec["hands"])


def _page(browser: Any, base: str, path: str, viewport: dict[str, int] = LAPTOP, locale: str = "en-US",
          errors: list[str] | None = None) -> Any:
    ctx = browser.new_context(viewport=viewport, reduced_motion="reduce", locale=locale, is_mobile=viewport is PHONE)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + path)
    page.wait_for_selector("body[data-ready=true]")
    return page


def _at(page: Any) -> int:
    return int(page.input_value("#step-slider"))


def _seat_totals(page: Any) -> list[str]:
    return [s.strip() for s in page.locator("#seats .ptotal").all_text_contents()]


def test_a_finished_game_plays_back_to_the_end(server: ServerProcess, browser: Any, game: tuple[str, Any]) -> None:
    code, rec = game
    errors: list[str] = []
    page = _page(browser, server.base, f"/replay.html#table={code}", errors=errors)
    page.wait_for_selector("#replay:not([hidden])")
    total = _steps(rec)
    assert page.get_attribute("#step-slider", "max") == str(total - 1)
    assert page.locator("#step-count").text_content() == f"Step 1 of {total}"
    first = rec["hands"][0]
    names = [s["name"] for s in rec["seats"]]
    assert page.locator("#step-line").text_content() == (
        f"Hand 1 of {len(rec['hands'])}: everyone draws 1 die; {names[first['start']]} starts."
    )
    assert page.locator("#step-line").get_attribute("aria-live") == "polite"
    assert [n.strip() for n in page.locator("#seats .pname").all_text_contents()] == names  # in full
    # Every control has an accessible name.
    for sel in ("#first-step", "#prev-hand", "#prev-trick", "#prev-step", "#next-step", "#next-trick", "#next-hand",
                "#last-step"):
        assert page.get_attribute(sel, "aria-label"), sel
    assert page.get_by_label("Step in the game").count() == 1
    assert page.locator("#prev-step").is_disabled()

    # Next: the bids (revealed together), then the first roll with its die on the table.
    page.click("#next-step")
    bids = " · ".join(f"{n} {b}" for n, b in zip(names, first["bids"], strict=True))
    assert page.locator("#step-line").text_content() == f"Hand 1: the bids are revealed: {bids}."
    page.click("#next-step")
    roll = first["tricks"][0]["rolls"][0]
    assert page.locator("#step-line").text_content().startswith(f"Hand 1, trick 1: {names[roll['seat']]} rolls ")
    assert page.locator("#trick li.roll:not(.pending) svg.die").count() == 1
    assert page.locator(f"#trick li.roll.latest svg.die-{roll['die']}").count() == 1
    # Next trick: the end of trick 1, its winner marked.
    page.click("#next-trick")
    winner = first["tricks"][0]["winner"]
    assert page.locator("#trick li.roll.winner .who").text_content() == names[winner]
    assert page.locator(f"#seats li[data-seat='{winner}']").get_attribute("class").count("won-trick") == 1
    assert "goes to" in page.locator("#step-line").text_content()
    # Previous step: back to the trick's last roll; the slider follows.
    at = _at(page)
    page.click("#prev-step")
    assert _at(page) == at - 1

    # The keyboard: End, Home, → and ←, Shift+→ and ↓ (a hand), ↑ (back a hand).
    page.locator("#step-line").click()
    page.keyboard.press("End")
    assert _at(page) == total - 1
    assert _seat_totals(page) == [f"{p} pts" for p in rec["totals"]]
    assert page.locator("#next-step").is_disabled()
    page.keyboard.press("Home")
    assert _at(page) == 0
    page.keyboard.press("ArrowRight")
    assert _at(page) == 1
    page.keyboard.press("ArrowLeft")
    assert _at(page) == 0
    page.keyboard.press("Shift+ArrowRight")
    hand2 = 3 + sum(len(t["rolls"]) + 1 for t in first["tricks"])
    assert _at(page) == hand2
    assert page.locator("#step-line").text_content().startswith("Hand 2 of ")
    page.keyboard.press("ArrowDown")
    assert page.locator("#step-line").text_content().startswith("Hand 3 of ")
    page.keyboard.press("ArrowUp")
    assert _at(page) == hand2
    page.keyboard.press("Shift+ArrowLeft")
    assert _at(page) == 0
    # Next hand with the button, and the slider moved to the last step.
    page.click("#next-hand")
    assert _at(page) == hand2
    page.locator("#step-slider").fill(str(total - 1))
    assert _at(page) == total - 1
    assert page.locator("#step-count").text_content() == f"Step {total} of {total}"
    assert page.locator("#step-line").text_content().startswith(f"Hand {len(rec['hands'])} scored: ")
    assert _seat_totals(page) == [f"{p} pts" for p in rec["totals"]]
    # Back from the end, one step at a time, all the way (a button each time).
    for _ in range(total - 1):
        page.click("#prev-step")
    assert _at(page) == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.click("#next-trick")
    page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
    assert not errors, errors
    page.context.close()


def test_one_seats_view_hides_the_others_unrolled_dice(server: ServerProcess, browser: Any, game: tuple[str, Any]) -> None:
    code, rec = game
    page = _page(browser, server.base, f"/replay.html#table={code}")
    page.wait_for_selector("#replay:not([hidden])")
    # A deal of the last hand: every seat holds all its dice.
    page.keyboard.press("End")
    page.keyboard.press("Shift+ArrowLeft")
    hand = rec["hands"][-1]
    k = len(hand["dice"][0])
    assert page.locator("#step-line").text_content().startswith(f"Hand {len(rec['hands'])} of ")
    seat = lambda i: page.locator(f"#seats li[data-seat='{i}'] .held-dice li")  # noqa: E731
    for i in range(3):
        assert seat(i).count() == k
        assert seat(i).locator("svg.die-blank").count() == 0
    page.select_option("#view-select", "1")  # what Bo knew
    assert page.locator("#view-select option:checked").text_content() == f"What {LONG} knew"
    for i in range(3):
        assert seat(i).count() == k
        hidden = seat(i).locator("svg.die-blank").count()
        assert hidden == (0 if i == 1 else k), (i, hidden)
        if i != 1:
            assert seat(i).locator("svg.die-blank title").first.text_content() == "a hidden die"
    # Rolled dice are seen by everyone: after the next roll, the roller has one die less, hidden or not.
    page.click("#next-step")
    page.click("#next-step")
    roller = hand["tricks"][0]["rolls"][0]["seat"]
    assert seat(roller).count() == k - 1
    assert page.locator("#trick li.roll:not(.pending) svg.die:not(.die-blank)").count() == 1
    # Back to every seat's dice.
    page.select_option("#view-select", "all")
    assert page.locator("#seats svg.die-blank").count() == 0
    page.context.close()


def test_a_bad_file_gets_a_clear_message(server: ServerProcess, browser: Any, game: tuple[str, Any], tmp_path: Path) -> None:
    _code, rec = game
    errors: list[str] = []
    page = _page(browser, server.base, "/replay.html", errors=errors)
    assert page.locator("#replay").is_hidden()
    en = words("en")

    def drop(name: str, text: str) -> None:
        handle = page.evaluate_handle(
            """([name, text]) => { const dt = new DataTransfer();
                 dt.items.add(new File([text], name, {type: 'application/json'})); return dt; }""",
            [name, text],
        )
        page.dispatch_event("body", "dragenter", {"dataTransfer": handle})
        page.dispatch_event("body", "drop", {"dataTransfer": handle})

    drop("notes.json", "this is not JSON {")
    page.wait_for_selector("#file-error:not([hidden])")
    assert page.locator("#file-error").text_content() == "“notes.json” cannot be read: it is not a JSON file."
    assert page.locator("#file-error").get_attribute("role") == "alert"
    drop("other.json", json.dumps({"format": "chess/1"}))
    page.wait_for_function("document.getElementById('file-error').textContent.includes('other.json')")
    assert page.locator("#file-error").text_content() == f"“other.json” cannot be played back. {en['replay.bad_format']}"
    broken = json.loads(json.dumps(rec))
    broken["hands"][1]["dice"] = "lots"
    drop("broken.json", json.dumps(broken))
    page.wait_for_function("document.getElementById('file-error').textContent.includes('broken.json')")
    assert page.locator("#file-error").text_content().endswith("The game record is damaged at hand 2.")
    assert page.locator("#replay").is_hidden()

    # A good record, chosen with the file input, plays back; the message goes away.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    page.set_input_files("#file-input", str(path))
    page.wait_for_selector("#replay:not([hidden])")
    assert page.locator("#file-error").is_hidden()
    assert page.locator("#replay-source").text_content().startswith("File game.json · 3 players")
    # Dropped, the same record plays back too; a bad one now leaves the game shown and says why.
    drop("again.json", json.dumps(rec))
    page.wait_for_selector("#replay-source:has-text('again.json')")
    drop("notes.json", "[1, 2")
    page.wait_for_selector("#file-error:not([hidden])")
    assert page.locator("#replay").is_visible()

    # A table that does not exist: said so, in French on a French page.
    fr = _page(browser, server.base, "/replay.html?lang=fr#table=ZZZZZZ")
    fr.wait_for_selector("#file-error:not([hidden])")
    assert fr.locator("#file-error").text_content() == words("fr")["replay.no_table"].replace("{code}", "ZZZZZZ")
    fr.context.close()
    assert not errors, errors
    page.context.close()


def test_the_podium_and_the_finished_games_link_to_the_replay(server: ServerProcess, browser: Any, game: tuple[str, Any]) -> None:
    code, _rec = game
    page = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", locale="en-US").new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#past-games[aria-busy=false]")
    item = page.locator(f"#past-games-list li.past-game[data-code='{code}']")
    link = item.get_by_role("link", name=f"Review the game at table {code}")
    assert link.text_content() == "Review this game"
    link.click()
    page.wait_for_selector("#replay:not([hidden])")
    assert page.url.endswith(f"/replay.html#table={code}")
    page.context.close()

    # The podium of a table whose game is over (watched: no token needed).
    podium = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", locale="de-DE").new_page()
    podium.goto(f"{server.base}/#table={code}")
    podium.wait_for_selector("#screen-podium:not([hidden])")
    review = podium.locator("#review-link")
    assert review.text_content() == words("de")["replay.review_link"]
    review.click()
    podium.wait_for_selector("#replay:not([hidden])")
    assert podium.locator("#replay-title").text_content() == words("de")["replay.title"]
    podium.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_language_on_a_laptop_and_a_phone(server: ServerProcess, browser: Any, game: tuple[str, Any], lang: str) -> None:
    if not AXE.is_file():
        _missing(f"axe-core is not installed ({AXE} missing): npm ci --prefix tests/a11y")
    code, _rec = game
    problems: list[str] = []
    errors: list[str] = []
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page = _page(browser, server.base, f"/replay.html?lang={lang}#table={code}", viewport, LOCALES[lang], errors)
        page.wait_for_selector("#replay:not([hidden])")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#replay-title").text_content() == words(lang)["replay.title"]
        # A deal, a trick with its winner, the scores, in each view.
        page.locator("#step-line").click()
        for moment, keys in (("deal", []), ("trick won", ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight",
                                                            "ArrowRight"]), ("scores", ["End"])):
            for key in keys:
                page.keyboard.press(key)
            for view in ("all", "0"):
                page.select_option("#view-select", view)
                where = f"{size}, {moment}, view {view}"
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                if overflow > 0:
                    problems.append(f"{where}: the page is {overflow} px wider than the screen")
                cut = page.evaluate("[...document.querySelectorAll('#seats .pname, #trick .who')]"
                                    ".filter((n) => n.scrollWidth > n.clientWidth + 1).length")
                if cut:
                    problems.append(f"{where}: {cut} names cut")
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
                    for v in _axe_violations(page, AXE):
                        serious = [n for n in v["nodes"] if n["impact"] in FAILING]
                        if serious:
                            problems.append(f"{where}, {scheme}: axe: " + _describe(v, serious))
        if size == "phone" and lang == "en":
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "replay-phone.png"), full_page=True)
        page.context.close()
    assert not problems, "\n".join(problems)
    assert not errors, errors


def _analysis(rec: dict[str, Any]) -> dict[str, Any]:
    review = pytest.importorskip("minodice.review", reason="minodice.review is not there yet")
    result = review.analyze(rec, seats=[0, 1], spec="montecarlo:sims=16,bid_sims=16,per=2,bid_per=2", seed=1)
    # As the CLI writes it (Python's json: a forced decision's undefined figures are NaN).
    return json.loads(json.dumps(result.to_dict()))


def _plural(entry: Any, n: int) -> str:
    """An English plural entry for `n` (Intl.PluralRules("en"): "one" for 1)."""
    return entry if isinstance(entry, str) else entry["one" if n == 1 else "other"]


def cost_words(name: str, loss: float) -> str:
    """What the page says a choice cost, in English: rounded, in words ("This choice cost Ana about 6
    points."), nothing lost: the best choice. JavaScript's Math.round and Python's round halve
    differently: a loss of x.5 is left out of the tests that use this (see `_clear`)."""
    en = words("en")
    k = round(max(0.0, loss))
    if k == 0:
        return en["replay.cost_nothing"]
    cost = _plural(en["replay.cost"], k).replace("{name}", name).replace("{n}", str(k))
    return en["replay.cost_line"].replace("{cost}", cost)


def luck_words(faces: float) -> str:
    en = words("en")
    k = round(faces)
    if k == 0:
        return en["replay.luck_even"]
    key = "replay.luck_good" if k > 0 else "replay.luck_bad"
    return _plural(en[key], abs(k)).replace("{n}", str(abs(k)))


def _clear(x: float) -> bool:
    """Not a half (where JavaScript's and Python's rounding part ways)."""
    return abs(abs(x) % 1 - 0.5) > 1e-9


def test_an_attached_analysis_shows_each_decisions_loss(server: ServerProcess, browser: Any, game: tuple[str, Any],
                                                         tmp_path: Path) -> None:
    code, rec = game
    doc = _analysis(rec)
    path = tmp_path / "analysis.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    errors: list[str] = []
    page = _page(browser, server.base, f"/replay.html#table={code}", errors=errors)
    page.wait_for_selector("#replay:not([hidden])")
    assert page.locator("#analysis-none").is_visible()
    page.set_input_files("#analysis-input", str(path))
    page.wait_for_selector("#analysis-none", state="hidden")
    assert page.locator("#analysis-error").is_hidden()
    # The bids of hand 1: a decision card for each analysed seat.
    page.click("#next-step")
    cards = page.locator("#decisions .decision")
    assert cards.count() == 2
    ana = doc["seats"][0]["decisions"][0]
    assert ana["kind"] == "bid" and ana["hand"] == 1
    card = cards.first
    label = {"forced": "forced", "fine": "fine", "inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder"}
    assert card.locator(".label").text_content() == label[ana["label"]]
    names = [s["name"] for s in rec["seats"]]
    if ana["label"] != "forced":
        assert card.locator("dd").nth(0).text_content().startswith(f"bid {ana['made']}")
        assert card.locator("dd").nth(1).text_content().startswith(f"bid {ana['best']}")
        assert "expected in this hand" in card.locator("dd").nth(0).text_content()
        if _clear(ana["loss"]):
            assert card.locator(".loss").text_content() == cost_words(names[0], ana["loss"])
    # The judge named in words, never the bot's raw spec.
    about = page.locator("#analysis-about").text_content() or ""
    assert about.startswith("Each choice was checked by the Monte Carlo bot"), about
    assert "sims=" not in about and "montecarlo" not in about
    # A roll decision with a choice: its loss and label, somewhere in the game.
    roll = next(
        d for s in doc["seats"] for d in s["decisions"] if d["kind"] == "roll" and d["label"] != "forced"
    )
    index = _step_of(rec, roll)
    page.locator("#step-slider").fill(str(index))
    shown = page.locator(f"#decisions .decision[data-seat='{roll['seat']}']")
    assert shown.locator(".label").text_content() == label[roll["label"]]
    if _clear(roll["loss"]):
        assert shown.locator(".loss").text_content() == cost_words(names[roll["seat"]], roll["loss"])
    # The graphs: one per analysed seat; a mark of a mistake or blunder jumps to its step.
    assert page.locator("#graphs figure").count() == 2
    for review in doc["seats"]:  # each caption tells the seat's luck with the dice, as luck (`split.faces`)
        caption = page.locator(f"#graphs figure[data-seat='{review['seat']}'] figcaption").text_content() or ""
        if _clear(review["split"]["faces"]):
            assert caption.endswith(luck_words(review["split"]["faces"])), caption
    marks = page.locator("#graphs a.mark")
    marked = [d for s in doc["seats"] for d in s["decisions"] if d["label"] in ("mistake", "blunder")]
    assert marks.count() == len(marked)
    if marked:
        target = int(marks.first.get_attribute("data-step"))
        marks.first.click()
        assert _at(page) == target
        assert page.locator("#decisions .label-mistake, #decisions .label-blunder").count() >= 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-analysis.png"), full_page=True)
    # An analysis of another game is refused.
    other = json.loads(json.dumps(doc))
    other["seats"][0]["name"] = "Somebody else"
    path.write_text(json.dumps(other), encoding="utf-8")
    page.set_input_files("#analysis-input", str(path))
    page.wait_for_selector("#analysis-error:not([hidden])")
    assert page.locator("#analysis-error").text_content() == words("en")["replay.analysis_mismatch"]
    assert not errors, errors
    page.context.close()


def test_the_server_analysis_button(server: ServerProcess, browser: Any, game: tuple[str, Any]) -> None:
    """The button asks GET /api/tables/{code}/analysis; a server without it (404) hides the button."""
    code, _rec = game
    page = _page(browser, server.base, f"/replay.html#table={code}")
    page.wait_for_selector("#replay:not([hidden])")
    button = page.locator("#analysis-fetch")
    assert button.is_visible()
    page.route(f"**/api/tables/{code}/analysis", lambda route: route.fulfill(status=404, body="{}"))
    button.click()
    page.wait_for_selector("#analysis-error:not([hidden])")
    assert button.is_hidden()
    assert page.locator("#analysis-error").text_content() == words("en")["replay.analysis_unavailable"]
    page.context.close()


def test_every_mark_on_the_graph_can_be_clicked(server: ServerProcess, browser: Any, game: tuple[str, Any],
                                               tmp_path: Path) -> None:
    """Decisions a step or two apart are all marked here: no mark may cover another, so a pointer
    reaches each (a mark that would overlap is moved up or down and joined to the curve by a stem)."""
    code, rec = game
    doc = _analysis(rec)
    for seat in doc["seats"]:
        for d in seat["decisions"]:
            if d["label"] != "forced":
                d["label"] = "blunder" if d["hand"] % 2 else "mistake"
    path = tmp_path / "crowded.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    errors: list[str] = []
    page = _page(browser, server.base, f"/replay.html#table={code}", errors=errors)
    page.wait_for_selector("#replay:not([hidden])")
    page.set_input_files("#analysis-input", str(path))
    page.wait_for_selector("#analysis-none", state="hidden")
    found = page.evaluate(
        """() => [...document.querySelectorAll('#graphs a.mark')].map((a) => {
             const c = a.querySelector('circle').getBoundingClientRect();
             const x = c.left + c.width / 2, y = c.top + c.height / 2;
             a.scrollIntoView({ block: 'center' });
             const r = a.querySelector('circle').getBoundingClientRect();
             const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             return { step: a.dataset.step, reached: hit !== null && hit.closest('a.mark') === a, x, y };
           })"""
    )
    assert len(found) > 20, "the crowded analysis marks many decisions"
    unreachable = [m["step"] for m in found if not m["reached"]]
    assert not unreachable, f"marks covered by others: steps {unreachable}"
    # They are crowded: some had to move off the curve.
    assert page.locator("#graphs .mark-stem").count() > 0
    target = found[len(found) // 2]
    page.locator(f"#graphs a.mark[data-step='{target['step']}']").first.click()
    assert _at(page) == int(target["step"])
    assert not errors, errors
    page.context.close()


def _step_of(rec: dict[str, Any], d: dict[str, Any]) -> int:
    """The step index the page gives the roll decision `d` (hand, trick, roll 1-based)."""
    i = 0
    for k, h in enumerate(rec["hands"], start=1):
        i += 2  # the deal, the bids
        for t, trick in enumerate(h["tricks"], start=1):
            for r in range(1, len(trick["rolls"]) + 1):
                if (k, t, r) == (d["hand"], d["trick"], d["roll"]):
                    return i
                i += 1
            i += 1  # the winner
        i += 1  # the scores
    raise AssertionError(f"no step for {d}")
