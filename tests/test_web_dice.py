"""The web client's dice (js/dice.js, css/dice.css) and sounds (js/sound.js) in headless Chromium.

Against a real `minodice serve`: every die of the served table on every one of its
faces is drawn with its letter and pattern (colour is never the only cue), named for
screen readers, fits its box on a laptop (80 px) and a phone (54 px), and keeps its
number and letter readable in dark mode; the roll, glow and sweep animations run, and
stop under reduced motion. The sound button starts off, remembers its choice, makes the
AudioContext only when turned on, and no sound function throws, with or without Web
Audio; the title cue shows only while the tab is hidden. Pictures of all the dice go to
$MINODICE_SCREENSHOTS/dice.png and dice-dark.png. Skipped like tests/test_web_client.py
when Playwright or Chromium is missing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_server_common import ServerProcess
from test_web_client import SHOTS

ROOT = Path(__file__).resolve().parents[1]
EN = json.loads((ROOT / "src/minodice/server/static/i18n/en.json").read_text(encoding="utf-8"))
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("webdice")
    srv = ServerProcess(f"sqlite:///{tmp / 'dice.db'}", tmp / "server.log").start()
    yield srv.base
    srv.stop()


def _open(browser: Any, server: str, **context: Any) -> tuple[Any, Any, list[str]]:
    """A page of the app, loaded (language and dice table in), and the errors it raises."""
    ctx = browser.new_context(locale="en-US", **{"viewport": LAPTOP, **context})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server + "/")
    page.wait_for_selector("#screen-home:not([hidden])")
    return ctx, page, errors


# Draws every die: in hand, then on each of its faces, in a gallery at the top of the page,
# and reports what each svg shows (texts, fills, sizes) for the checks.
GALLERY = """async (size) => {
  const d = await import('/js/dice.js');
  const dice = (await (await fetch('/api/options')).json()).dice;
  const box = document.createElement('div');
  box.id = 'gallery';
  box.style.cssText = `display:inline-block;padding:12px;background:var(--card);--die-size:${size}px`;
  for (const { die, faces } of dice) {
    const row = document.createElement('div');
    row.style.cssText = 'display:flex;gap:10px;margin:6px 0;align-items:center';
    row.innerHTML = [d.dieSVG(die), ...[...new Set(faces)].map((f) => d.dieSVG(die, f))].join('');
    box.append(row);
  }
  const blank = document.createElement('div');
  blank.innerHTML = d.blankDieSVG('to roll');
  box.append(blank);
  document.body.prepend(box);
  const fill = (el) => (el ? getComputedStyle(el).fill : null);
  return [...box.querySelectorAll('svg.die:not(.die-blank)')].map((svg) => {
    const letter = svg.querySelector('.letter');
    const lb = letter.getBoundingClientRect();
    const pid = (svg.querySelector('rect.pattern')?.getAttribute('fill') || '').match(/url\\(#(.+)\\)/)?.[1];
    const pattern = pid && svg.querySelector(`pattern[id="${pid}"]`);
    const bb = svg.getBBox();
    const r = svg.getBoundingClientRect();
    const ink = svg.querySelector('.num, .range, .sym .ink');
    return {
      cls: svg.getAttribute('class'), role: svg.getAttribute('role'),
      aria: svg.getAttribute('aria-label'), title: svg.querySelector('title').textContent,
      letter: letter.textContent, letterSize: [lb.width, lb.height], letterFill: fill(letter),
      patternShapes: pattern ? pattern.children.length : 0,
      num: svg.querySelector('.num')?.textContent ?? null,
      range: svg.querySelector('.range')?.textContent ?? null,
      symbolShapes: svg.querySelectorAll('.sym .ink').length,
      body: fill(svg.querySelector('.body')), side: fill(svg.querySelector('.side')), ink: fill(ink),
      box: [r.width, r.height], drawn: [bb.x, bb.y, bb.x + bb.width, bb.y + bb.height],
    };
  });
}"""


def _rgb(css: str) -> tuple[float, ...]:
    return tuple(float(x) for x in re.findall(r"[\d.]+", css)[:3])


def _contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two computed colours."""

    def lum(css: str) -> float:
        c = [v / 255 for v in _rgb(css)]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _options(server: str) -> list[dict[str, Any]]:
    import urllib.request

    with urllib.request.urlopen(server + "/api/options") as r:
        return json.loads(r.read())["dice"]


def _die_face(cls: str) -> tuple[str, str | None]:
    """The die and face (None: in hand) an svg's classes say it draws."""
    face = re.search(r"face-(\w+)", cls)
    return re.search(r"die-(\w+)", cls)[1], face[1] if face else None  # type: ignore[index]


def _check_gallery(drawn: list[dict[str, Any]], table: list[dict[str, Any]], size: int) -> None:
    expected = [(d["die"], None) for d in table]
    expected += [(d["die"], f) for d in table for f in dict.fromkeys(d["faces"])]
    assert {_die_face(s["cls"]) for s in drawn} == set(expected)
    special = {d["die"]: d["special"] for d in table}
    faces = {d["die"]: list(dict.fromkeys(d["faces"])) for d in table}
    for s in drawn:
        die, face = _die_face(s["cls"])
        name = EN[f"die.{die}"]
        want = name if face is None else EN["die_shows"].format(die=name, face=EN[f"face.{face}"])
        assert s["role"] == "img" and s["aria"] == want and s["title"] == want, s
        # Colour is never the only cue: the letter (visible, in its own colour) and a pattern.
        assert s["letter"] == EN[f"die.{die}.letter"], s
        assert min(s["letterSize"]) > 0, s
        assert s["letterFill"] != s["body"], s
        assert s["patternShapes"] > 0, s
        if face is None and not special[die]:
            assert s["range"] in (
                f"{faces[die][0]}–{faces[die][-1]}",
                "·".join("⚑" if f == "flag" else f for f in faces[die]),
            )
        elif face is not None and face.isdigit():
            assert s["num"] == face, s
        else:
            assert s["symbolShapes"] > 0 and s["num"] is None, s
        # It fits its box: the box is --die-size square and the drawing stays in the viewBox.
        assert s["box"] == [size, size], s
        x0, y0, x1, y1 = s["drawn"]
        assert x0 >= 0 and y0 >= 0 and x1 <= 100 and y1 <= 100, s
        # The number, range or symbol stands out from the die (large text: at least 3:1).
        assert _contrast(s["ink"], s["body"]) >= 3, s
        assert _contrast(s["letterFill"], s["body"]) >= 3, s
        assert s["side"] != s["body"], s  # the die has depth


def test_every_die_and_face_is_drawn_as_a_die(server: str, browser: Any) -> None:
    table = _options(server)
    assert {d["die"] for d in table} >= {"minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray"}
    ctx, page, errors = _open(
        browser, server, color_scheme="light", reduced_motion="reduce", device_scale_factor=2
    )
    drawn = page.evaluate(GALLERY, 80)
    _check_gallery(drawn, table, 80)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#gallery").screenshot(path=str(SHOTS / "dice.png"))
    # The size follows --die-size: a 54 px gallery on the same page.
    page.evaluate("document.getElementById('gallery').remove()")
    _check_gallery(page.evaluate(GALLERY, 54), table, 54)
    assert not errors, errors
    ctx.close()


def test_dice_on_a_phone_and_in_dark_mode(server: str, browser: Any) -> None:
    table = _options(server)
    ctx, page, errors = _open(
        browser,
        server,
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark",
        reduced_motion="reduce",
    )
    # The phone's dice are 54 px without being told (the stylesheet's --die-size).
    drawn = page.evaluate(GALLERY.replace("--die-size:${size}px", ""), 54)
    assert (
        _contrast(page.evaluate("getComputedStyle(document.body).backgroundColor"), "rgb(255, 255, 255)") > 10
    )
    _check_gallery(drawn, table, 54)
    page.locator("#gallery").screenshot(path=str(SHOTS / "dice-dark.png"))
    assert not errors, errors
    ctx.close()


# The animation each trick class gives a die, and where a swept die ends.
MOTION = """async () => {
  const d = await import('/js/dice.js');
  const anim = (cls, style = '') => {
    const li = document.createElement('div');
    li.className = cls;
    li.style.cssText = style;
    li.innerHTML = d.dieSVG('red', '7');
    document.body.append(li);
    return li.querySelector('svg');
  };
  const names = {};
  for (const cls of ['', 'rolling', 'winning', 'rolling winning', 'sweep', 'sweep winning']) {
    names[cls] = getComputedStyle(anim(cls)).animationName;
  }
  const swept = anim('sweep', '--sweep-x: 120px; --sweep-y: -40px');
  await Promise.all(swept.getAnimations().map((a) => a.finished));
  const m = new DOMMatrix(getComputedStyle(swept).transform);
  return { names, motion: d.motionAllowed(), sweep: [m.e, m.f, Number(getComputedStyle(swept).opacity)] };
}"""


def test_dice_motion_and_reduced_motion(server: str, browser: Any) -> None:
    ctx, page, errors = _open(browser, server, reduced_motion="no-preference")
    got = page.evaluate(MOTION)
    assert got["motion"] is True
    assert got["names"] == {
        "": "none",
        "rolling": "die-tumble",
        "winning": "die-glow",
        "rolling winning": "die-tumble, die-glow",
        "sweep": "die-sweep",
        "sweep winning": "die-sweep",
    }
    x, y, opacity = got["sweep"]
    assert (round(x), round(y), opacity) == (120, -40, 0)  # flown to the winner, faded out
    # The page's own switch: class reduce-motion on <html> stops every animation.
    page.evaluate("document.documentElement.classList.add('reduce-motion')")
    still = page.evaluate(MOTION.replace("await Promise.all", "0 && await Promise.all"))
    assert set(still["names"].values()) == {"none"} and still["motion"] is False
    ctx.close()
    # And the system setting.
    ctx, page, errors2 = _open(browser, server, reduced_motion="reduce")
    still = page.evaluate(MOTION.replace("await Promise.all", "0 && await Promise.all"))
    assert set(still["names"].values()) == {"none"} and still["motion"] is False
    # The winner keeps its glow: it is not motion.
    assert page.evaluate(
        """async () => { const d = await import('/js/dice.js'); const li = document.createElement('div');
        li.className = 'winning'; li.innerHTML = d.dieSVG('red', '5'); document.body.append(li);
        return getComputedStyle(li.firstElementChild).filter; }"""
    ).startswith("drop-shadow")
    assert not errors and not errors2, errors + errors2
    ctx.close()


# Wires the sound button as app.js does (idempotent) and plays every sound; True if none threw.
SOUND = """async () => {
  const s = await import('/js/sound.js');
  s.initSound(document.getElementById('sound-btn'));
  s.roll(); s.turn(); s.handEnd(); s.podium();
  return s.soundState();
}"""


def test_sound_button_is_off_by_default_and_remembered(server: str, browser: Any) -> None:
    ctx, page, errors = _open(browser, server)
    btn = page.locator("#sound-btn")
    assert page.evaluate(SOUND) == {"on": False, "context": None}  # no AudioContext before it is asked for
    page.evaluate(SOUND)  # wiring twice is harmless: one click still toggles once
    assert btn.get_attribute("aria-pressed") == "false"
    assert (
        btn.get_attribute("aria-label") == EN["sound.toggle"]
        and btn.get_attribute("title") == EN["sound.off"]
    )
    assert btn.locator("svg").count() == 1
    btn.click()
    assert btn.get_attribute("aria-pressed") == "true" and btn.get_attribute("title") == EN["sound.on"]
    state = page.evaluate(SOUND)
    assert state["on"] is True and state["context"] in ("running", "suspended")
    assert page.evaluate("localStorage.getItem('minodice.sound')") == "on"
    page.reload()
    page.wait_for_selector("#screen-home:not([hidden])")
    assert page.evaluate(SOUND)["on"] is True
    assert btn.get_attribute("aria-pressed") == "true"
    # The button speaks the page's language.
    page.select_option("#lang-switch", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    de = json.loads((ROOT / "src/minodice/server/static/i18n/de.json").read_text(encoding="utf-8"))
    assert (
        btn.get_attribute("title") == de["sound.on"] and btn.get_attribute("aria-label") == de["sound.toggle"]
    )
    btn.click()
    assert btn.get_attribute("aria-pressed") == "false"
    assert page.evaluate(SOUND)["on"] is False
    assert page.evaluate("localStorage.getItem('minodice.sound')") == "off"
    assert not errors, errors
    ctx.close()


def test_sound_without_web_audio_is_silent(server: str, browser: Any) -> None:
    ctx = browser.new_context(locale="en-US")
    ctx.add_init_script("delete window.AudioContext; delete window.webkitAudioContext;")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("#screen-home:not([hidden])")
    page.evaluate(SOUND)
    page.click("#sound-btn")
    assert page.evaluate(SOUND) == {"on": True, "context": None}
    assert not errors, errors
    ctx.close()


# Pretends the tab is hidden or shown, as the browser would tell the page.
HIDE = """(hidden) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
  return document.title;
}"""


def test_title_cue_only_while_hidden(server: str, browser: Any) -> None:
    ctx, page, errors = _open(browser, server)
    title = page.title()
    assert title == EN["app.title"]
    cue = "● " + EN["announce.your_turn"]
    page.evaluate("async (text) => (await import('/js/sound.js')).titleCue(true, text)", EN["announce.your_turn"])
    assert page.title() == title  # the tab is seen: no cue
    assert page.evaluate(HIDE, True).startswith(cue)
    assert title in page.title()
    assert page.evaluate(HIDE, False) == title  # seen again: restored
    assert page.evaluate(HIDE, True).startswith(cue)  # still the player's turn, hidden again
    page.evaluate("async () => (await import('/js/sound.js')).titleCue(false)")
    assert page.title() == title
    assert page.evaluate(HIDE, True) == title  # no cue asked
    page.evaluate("async (text) => (await import('/js/sound.js')).titleCue(true, text)", EN["announce.your_turn"])
    assert page.title().startswith(cue)  # asked while hidden: at once
    assert not errors, errors
    ctx.close()
