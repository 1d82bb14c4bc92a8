"""Rough edges of `minodice play`: quit saves, a resumed game is the same game, and 80 columns suffice.

Games run in-process through `tui.run` with scripted answers (every answer
"1": a legal bid in every hand and the first die of every roll menu), so the
same seed and the same answers must give the same record whether or not the
game was stopped and resumed on the way.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from minodice import record as records
from minodice.game import Bid, Game, Phase
from minodice.tui import PlaySettings, run
from minodice.tui.render import Screen
from minodice.tui.streams import KEY, Streams, pack, unpack

_BIN = Path(sys.executable).parent / "minodice"
CLI = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "minodice.cli"]
ENV = {**os.environ, "NO_COLOR": "1", "MINODICE_DELAY": "0", "COLUMNS": "80"}
BOTS = ["random", "montecarlo:sims=16", "random"]  # every one of them draws from its own stream


def play(settings: PlaySettings, answers: Iterable[str], width: int = 80) -> tuple[int, str]:
    """Run a game with scripted answers (end of input after the last); the exit code and the screen."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False)
    it = iter(answers)

    def ask(prompt: str) -> str:
        console.print(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return run(settings, console=console, ask=ask, delay=0), out.getvalue()


def straight(tmp: Path, seed: int = 7, bots: list[str] = BOTS) -> dict[str, Any]:
    """The record of the game played through without a break."""
    path = tmp / "straight.json"
    code, _ = play(PlaySettings(bots=bots, seed=seed, save=path), ["1"] * 400)
    assert code == 0
    return records.load(path)


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The game of seed 7 and `BOTS`, played straight through."""
    return straight(tmp_path_factory.mktemp("straight"))


# --- quit saves, like Ctrl-C ----------------------------------------------------------------


def test_quit_without_save_saves_to_the_seed_file_and_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, text = play(PlaySettings(bots=["random", "random"], seed=42), ["1", "1", "quit"])
    assert code == 0
    saved = tmp_path / "minodice-save-42.json"
    assert saved.exists()
    words = " ".join(text.split())
    assert "You left: the game is saved in minodice-save-42.json." in words
    assert "Resume it with: minodice play --resume minodice-save-42.json" in words
    assert "not saved" not in words
    rec = records.load(saved)
    assert records.check(rec) is None and rec[KEY]["seed"] == 42


# --- a resumed game continues the same dice and the same bots ---------------------------------


@pytest.mark.parametrize("stops", [[1], [13], [4, 9, 20]], ids=["first-bid", "mid-hand", "three-breaks"])
def test_a_resumed_game_is_the_game_played_straight_through(
    tmp_path: Path, stops: list[int], expected: dict[str, Any]
) -> None:
    path = tmp_path / "broken.json"
    code, _ = play(PlaySettings(bots=BOTS, seed=7, save=path), ["1"] * stops[0] + ["quit"])
    assert code == 0 and records.check(records.load(path)) is None
    for k in stops[1:]:
        code, text = play(PlaySettings(bots=[], resume=path), ["1"] * k + ["quit"])
        assert code == 0 and "the same dice" in text
    code, text = play(PlaySettings(bots=[], resume=path), ["1"] * 400)
    assert code == 0 and "Final standings" in text
    assert records.load(path) == expected


def test_without_the_saved_streams_the_resumed_game_would_differ(tmp_path: Path, expected: dict[str, Any]) -> None:
    """The control: what the save file keeps is what makes the resumed game the same."""
    path = tmp_path / "half.json"
    play(PlaySettings(bots=BOTS, seed=7, save=path), ["1"] * 10 + ["quit"])
    half = records.load(path)
    assert set(half[KEY]) == {"seed", "dice", "bots"} and set(half[KEY]["bots"]) == {"1", "2", "3"}
    for drop in ("dice", "bots"):
        rec = json.loads(json.dumps(half))
        del rec[KEY][drop]
        other = tmp_path / f"no-{drop}.json"
        records.save(rec, other)
        assert play(PlaySettings(bots=[], resume=other), ["1"] * 400)[0] == 0
        assert records.load(other)["hands"] != expected["hands"], drop


def test_a_greedy_bot_s_unmoved_stream_is_not_saved(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    play(PlaySettings(bots=["greedy", "random"], seed=3, save=path), ["1"] * 6 + ["quit"])
    assert set(records.load(path)[KEY]["bots"]) == {"2"}
    expected = straight(tmp_path, seed=3, bots=["greedy", "random"])
    assert play(PlaySettings(bots=[], resume=path), ["1"] * 400)[0] == 0
    assert records.load(path) == expected


def test_the_save_file_is_a_valid_record_and_the_screen_shows_no_state(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    _, text = play(PlaySettings(bots=BOTS, seed=5, save=path), ["1"] * 8 + ["quit"])
    _, again = play(PlaySettings(bots=[], resume=path), ["1"] * 3 + ["quit"])
    done = subprocess.run([*CLI, "verify", str(path)], capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stdout + done.stderr
    assert "mt19937" not in text + again
    assert records.load(path)[KEY]["dice"].startswith("mt19937:")


# --- --seed with --resume ---------------------------------------------------------------------


def test_a_different_seed_with_resume_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    play(PlaySettings(bots=["random", "random"], seed=9, save=path), ["1", "quit"])
    before = path.read_text()
    done = subprocess.run([*CLI, "play", "--resume", str(path), "--seed", "10"], capture_output=True,
                          text=True, env=ENV, stdin=subprocess.DEVNULL, timeout=60)
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2, out
    assert f"--seed 10 does not apply: {path} goes on with the dice of its own seed 9" in out
    assert "Traceback" not in out and path.read_text() == before
    code, text = play(PlaySettings(bots=[], resume=path, seed=9), ["quit"])  # its own seed is fine
    assert code == 0 and "seed 9" in text


def test_a_record_without_streams_takes_new_dice_from_the_given_seed(tmp_path: Path) -> None:
    game = Game(3, names=["Ana", "random-1", "random-2"], seed=1)
    for seat in range(3):
        game.apply(Bid(seat, 0))
    rec = records.from_game(game, seat_info=[{}, {"bot": "random"}, {"bot": "random"}])
    finals = []
    for attempt in range(2):
        path = tmp_path / f"plain{attempt}.json"
        records.save(rec, path)
        code, text = play(PlaySettings(bots=[], resume=path, seed=77), ["1"] * 400)
        assert code == 0 and "new dice come from seed 77" in " ".join(text.split())
        finals.append(records.load(path)["hands"])
    assert finals[0] == finals[1]


@pytest.mark.parametrize(
    ("streams", "message"),
    [
        ("nonsense", '"streams" is not an object'),
        ({"seed": "7"}, 'no whole-number "seed"'),
        ({"seed": 7, "dice": "mt19937:AAAA"}, "random state is damaged"),
        ({"seed": 7, "dice": 12}, "random state must be text"),
        ({"seed": 7, "bots": {"x": "mt19937:"}}, "keyed by seat number"),
        ({"seed": 7, "bots": {"0": None}}, "random state must be text"),
    ],
)
def test_damaged_streams_are_refused_in_words(tmp_path: Path, streams: object, message: str) -> None:
    path = tmp_path / "d.json"
    play(PlaySettings(bots=["random", "random"], seed=9, save=path), ["1", "quit"])
    rec = records.load(path)
    rec[KEY] = streams
    records.save(rec, path)
    out = io.StringIO()
    code = run(PlaySettings(bots=[], resume=path), console=Console(file=out, width=200, color_system=None),
               ask=lambda _p: "quit")
    assert code == 2 and message in out.getvalue() and f"cannot resume {path}" in out.getvalue()


def test_a_bot_state_for_the_person_s_seat_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    play(PlaySettings(bots=["random", "random"], seed=9, save=path), ["1", "quit"])
    rec = records.load(path)
    rec[KEY]["bots"] = {"0": rec[KEY]["bots"]["1"]}
    records.save(rec, path)
    out = io.StringIO()
    assert run(PlaySettings(bots=[], resume=path), console=Console(file=out, width=200), ask=lambda _p: "") == 2
    assert "for seat 0, which has no bot" in out.getvalue()


def test_states_pack_to_short_text_and_back() -> None:
    import random

    rng = random.Random("x")
    rng.gauss(0, 1)  # a pending gauss value is kept too
    text = pack(rng.getstate())
    assert len(text) < 3400 and unpack(text) == rng.getstate()
    assert Streams.of({KEY: {"seed": 1, "bots": {"2": text}}}) == Streams(1, None, {2: rng.getstate()})
    version, words, _gauss = rng.getstate()
    with pytest.raises(ValueError, match="position"):
        unpack(pack((version, (*words[:-1], 700), None)))
    with pytest.raises(ValueError, match="damaged"):
        unpack(text[:-40])


# --- 80 columns, one order for bid and won --------------------------------------------------------


def _tallies(text: str) -> list[str]:
    """Each "bid/won:" block, its continuation lines joined."""
    blocks: list[str] = []
    for line in text.splitlines():
        if line.startswith("  bid/won:"):
            blocks.append(line)
        elif blocks and blocks[-1].endswith("·") and re.match(r" {11}\S", line):
            blocks[-1] += " " + line.strip()
    return blocks


def test_six_seats_with_a_long_name_fit_80_columns_with_one_bid_won_order() -> None:
    name = "Bartholomew Longname Jr."  # 24 characters: the longest name the table takes
    code, text = play(PlaySettings(bots=["random"] * 5, seed=4, name=name), ["sheet", "1"] * 200)
    assert code == 0 and "Final standings" in text
    wide = [line for line in text.splitlines() if cell_len(line) > 80]
    assert not wide, wide[:3]
    names = ["You", *(f"random-{s}" for s in range(1, 6))]
    for hand in range(1, 7):
        part = text[text.index(f"Hand {hand} of 6"):text.index(f"Score sheet after hand {hand} of 6")]
        last = _tallies(part)[-1]
        cells = re.findall(r"(You|random-\d) (\d+)/(\d+)", last)
        assert [c[0] for c in cells] == names, last  # no seat cut in two by a line break
        sheet = text[text.index(f"Score sheet after hand {hand} of 6"):]
        row = next(ln for ln in sheet.splitlines() if re.match(rf"\s+{hand}\s+\d", ln))
        # the score sheet's cells are "bid/won points", in the tally's order
        assert re.findall(r"(\d+)/(\d+) [+-]\d+", row) == [(b, w) for _n, b, w in cells], (last, row)
    assert "each cell: bid/won, points" in text


def test_the_hint_in_hand_8_and_the_help_fit_80_columns() -> None:
    game = Game(4, seed=1)
    while not (game.hand == 8 and game.phase is Phase.BID):
        game.apply(game.legal_actions(game.to_act()[0])[0])
    out = io.StringIO()
    screen = Screen(Console(file=out, width=200, color_system=None), game.names, 0, game.rules, game.hands)
    screen.hint(game.observe(0))  # 8 dice: nine P(t) columns
    screen.help()
    text = out.getvalue()
    assert "P(8)" in text and "Hint: bid" in text
    widths = {line: cell_len(line.rstrip()) for line in text.splitlines()}
    assert max(widths.values()) <= 80, max(widths, key=widths.__getitem__)


@pytest.mark.parametrize("extra", [["--bot", "random"], ["--name", "Zoe"], ["--seat", "1"], ["--scoring", "landlubber"]])
def test_options_the_save_fixes_are_refused_with_resume(tmp_path: Path, extra: list[str]) -> None:
    path = tmp_path / "r.json"
    play(PlaySettings(bots=["random", "random"], seed=9, save=path), ["1", "quit"])
    before = path.read_text()
    done = subprocess.run([*CLI, "play", "--resume", str(path), *extra], capture_output=True,
                          text=True, env=ENV, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{extra[0]} cannot change a resumed game" in done.stderr and path.read_text() == before
