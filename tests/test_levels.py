"""Levels for people (issue 16): `easy` … `expert`, each an honest bot with its budget, in
`minodice play --level` (saved and resumed like any game) and at web tables (a level is a
bot name the server accepts, played by the level's bot)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from minodice import record as records
from minodice.bots import BUILTIN, make_bot, parse_spec
from minodice.bots.clairvoyance import ClairvoyantBot
from minodice.bots.levels import LEVELS, find_level, level_names
from test_server_common import server_fixtures

server, http = server_fixtures("levels")

_BIN = Path(sys.executable).parent / "minodice"
CLI = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "minodice.cli"]
ENV = {**os.environ, "NO_COLOR": "1", "MINODICE_DELAY": "0", "COLUMNS": "200"}


def _play(*args: str, answers: str = "quit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "play", *args], input=answers, capture_output=True, text=True, env=ENV,
                          timeout=120)


def test_the_levels_are_honest_bots_in_order() -> None:
    assert level_names() == ("easy", "medium", "hard", "expert")
    for lv in LEVELS:
        bot = make_bot(lv.spec, seed=0)
        assert not isinstance(bot, ClairvoyantBot), lv
        assert not BUILTIN.info(lv.spec.name).cheats
        assert lv.description and find_level(lv.name) is lv
        # a level's name is a spec everywhere: it stands for the level's bot, and its options may be changed
        assert parse_spec(lv.name) == lv.spec and parse_spec(str(lv.spec)) == lv.spec
        assert make_bot(lv.name, seed=0).describe() == str(lv.spec)
    assert find_level("oracle") is None
    assert parse_spec("hard:sims=20") == BUILTIN.spec("montecarlo", sims=20, bid_sims=96)


def test_play_at_a_level_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    done = _play("--level", "medium", "--seed", "4", "--save", str(save))
    assert done.returncode == 0, done.stderr
    saved = records.load(save)
    assert [p.get("bot") for p in saved["seats"]] == [None, "greedy", "greedy", "greedy"]
    again = _play("--resume", str(save))
    assert again.returncode == 0, again.stderr
    refused = _play("--resume", str(save), "--level", "hard")
    assert refused.returncode == 2 and "--level cannot change a resumed game" in refused.stderr


@pytest.mark.parametrize(("level", "opponents"), [("hard", "5"), (None, "2")])
def test_play_seats_as_many_bots_as_opponents_asks(tmp_path: Path, level: str | None, opponents: str) -> None:
    save = tmp_path / "game.json"
    chosen = ["--level", level] if level else []
    done = _play(*chosen, "--opponents", opponents, "--seed", "6", "--save", str(save))
    assert done.returncode == 0, done.stderr
    spec = str(find_level(level).spec) if level else "greedy"  # type: ignore[union-attr]
    seats = records.load(save)["seats"]
    assert [p.get("bot") for p in seats] == [None] + [spec] * int(opponents)
    # A level's bots are named after the level the player chose, not after the search behind it.
    assert [p["name"] for p in seats] == ["You"] + [f"{level or 'greedy'}-{s}" for s in range(1, int(opponents) + 1)]
    refused = _play("--resume", str(save), "--opponents", "3")
    assert refused.returncode == 2 and "--opponents cannot change a resumed game" in refused.stderr


def test_play_refuses_opponents_out_of_range_or_with_bots() -> None:
    for count in ("1", "6", "many"):
        out = _play("--level", "easy", "--opponents", count)
        assert out.returncode == 2 and "--opponents" in out.stderr and "Traceback" not in out.stderr, out.stderr
    both = _play("--opponents", "2", "--bot", "greedy", "--bot", "random")
    assert both.returncode == 2 and "give --opponents or --bot, not both" in both.stderr


def test_play_refuses_a_level_with_bots_and_an_unknown_level() -> None:
    both = _play("--level", "easy", "--bot", "greedy", "--bot", "greedy")
    assert both.returncode == 2 and "give --level or --bot, not both" in both.stderr
    unknown = _play("--level", "impossible")
    assert unknown.returncode == 2 and "easy" in unknown.stderr and "Traceback" not in unknown.stderr


def test_the_server_lists_the_levels_and_plays_them(http: httpx.Client) -> None:
    opts = http.get("/api/options").json()
    assert [lv["name"] for lv in opts["levels"]] == list(level_names())
    assert [lv["bot"] for lv in opts["levels"]] == [str(lv.spec) for lv in LEVELS]
    assert {b["name"] for b in opts["bots"]} == set(BUILTIN.honest())
    r = http.post("/api/tables", json={"seats": 3, "bots": ["easy", "medium", "expert"]})
    assert r.status_code == 201, r.text
    body = r.json()
    code, host = body["table"]["code"], body["host_token"]
    players = body["table"]["players"]
    assert [(p["name"], p["bot"]) for p in players] == [("Easy 1", "easy"), ("Medium 2", "medium"), ("Expert 3", "expert")]
    r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 90
    while http.get(f"/api/tables/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the level bots did not finish their game"
        time.sleep(0.2)
    rec = http.get(f"/api/tables/{code}/record").json()
    assert [p["bot"] for p in rec["seats"]] == ["easy", "medium", "expert"]


def test_a_person_cannot_take_a_level_bots_name(http: httpx.Client) -> None:
    r = http.post("/api/tables", json={"seats": 3, "name": "Expert 2"})
    assert r.status_code in (400, 422) and "name_bot" in r.text


@pytest.mark.parametrize("level", level_names())
def test_the_host_may_hand_a_seat_to_a_level(http: httpx.Client, level: str) -> None:
    r = http.post("/api/tables", json={"seats": 3, "name": "Ana"})
    body = r.json()
    code, host = body["table"]["code"], body["host_token"]
    r = http.post(f"/api/tables/{code}/seats/2/bot", json={"bot": level}, headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200 and r.json()["players"][2]["bot"] == level
