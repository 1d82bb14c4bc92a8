"""The tutorial table and the rules' numbers against a real `minodice serve` (and an in-process manager).

`POST /api/tutorial` makes a started table of four seats: you in seat 0, three bots of the medium level;
its seed is the public `TUTORIAL_SEED`, used by that route only (every other table's seed is secret and
random). Played through its first hands by random choices, its events show every lesson the coach
teaches: a lead colour, dice refused for not following it, a special beating numbers and a special
beating a special, a bonus. `GET /api/rules` gives the rules page numbers equal to `rules.hand_score`.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx

from minodice.rules import GRIFFIN_BONUS, MERMAID_BONUS, Rules, hand_score
from minodice.server.tutorial import EXAMPLES, TUTORIAL_HANDS, TUTORIAL_SEED
from test_server_common import Player, ServerProcess, server_fixtures

server, http = server_fixtures("tutorial")


def _tutorial(http: httpx.Client, name: str = "Ana") -> dict[str, Any]:
    r = http.post("/api/tutorial", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_tutorial_is_a_started_table_of_you_and_three_medium_bots(http: httpx.Client) -> None:
    body = _tutorial(http)
    table = body["table"]
    assert table["status"] == "playing"
    assert body["seat"] == 0 and body["token"] and body["host_token"] and body["hands"] == TUTORIAL_HANDS
    players = table["players"]
    assert [p["kind"] for p in players] == ["human", "bot", "bot", "bot"]
    assert players[0]["name"] == "Ana"
    assert [p["bot"] for p in players[1:]] == ["medium"] * 3
    # The name is checked like any player's name.
    bad = http.post("/api/tutorial", json={"name": "x" * 200})
    assert bad.status_code == 422


def _lessons(server: ServerProcess, body: dict[str, Any], rng: random.Random) -> set[str]:
    """Play seat 0 of a tutorial table by random legal choices through its first hands: the lessons seen."""
    me = Player(server.ws_base, body["table"]["code"], body["token"], rng)
    seen: set[str] = set()
    deadline = time.monotonic() + 60
    try:
        while True:
            assert time.monotonic() < deadline, "the tutorial's first hands did not end"
            view = me.state["view"]
            if view.get("refusals"):
                seen.add("follow")
            done = [e for m in me.received if m["type"] == "state" for e in m.get("events", [])]
            if sum(1 for e in done if e["type"] == "hand_scored") >= TUTORIAL_HANDS:
                break
            me.act()
            me.pump(0.05)
        for e in done:
            if e["type"] == "trick_won":
                code = e["reason"]["code"]
                seen.add("special_beats_special" if code == "three_specials" else code)
                if e["lead"] is not None:
                    seen.add("lead")
                if e["bonus_why"] is not None:
                    seen.add("bonus")
    finally:
        me.close()
    return seen


def test_the_tutorials_first_hands_show_every_lesson(server: ServerProcess, http: httpx.Client) -> None:
    """Whatever seat 0 chooses (three random ways), the seed's first hands show each lesson."""
    for k in range(3):
        seen = _lessons(server, _tutorial(http), random.Random(k))
        wanted = {"lead", "follow", "special_beats_numbers", "special_beats_special", "bonus"}
        assert wanted <= seen, f"way {k}: the tutorial showed {sorted(seen)}"


def test_the_tutorial_seed_is_used_by_the_tutorial_route_only(tmp_path: Path) -> None:
    from minodice.server.manager import TableManager
    from minodice.server.settings import Settings
    from minodice.server.tutorial import create_tutorial

    async def scenario() -> None:
        m = TableManager(Settings(db=f"sqlite:///{tmp_path / 'seeds.db'}", bot_delay=0, trick_pause=0, hand_pause=0))
        await m.startup()
        try:
            tutorial, *_ = await create_tutorial(m, "Ana")
            again, *_ = await create_tutorial(m, "Bo")
            normal = [(await m.create(4, [None, "medium", "medium", "medium"], {}, "Cy"))[0] for _ in range(3)]
            assert tutorial.seed == again.seed == str(TUTORIAL_SEED)
            seeds = {t.seed for t in normal}
            assert str(TUTORIAL_SEED) not in seeds and len(seeds) == 3
        finally:
            await m.shutdown()

    asyncio.run(scenario())


def test_the_rules_numbers_are_the_engines(http: httpx.Client) -> None:
    facts = http.get("/api/rules").json()
    for scoring in ("standard", "landlubber"):
        rules = Rules(scoring=scoring)
        got = facts["scoring"][scoring]
        for example, (bid, won, dice) in zip(got["examples"], EXAMPLES, strict=True):
            assert (example["bid"], example["won"], example["dice"]) == (bid, won, dice)
            assert example["points"] == hand_score(bid, won, dice, 0, rules)
        assert got["made_per_trick"] * 3 == hand_score(3, 3, 5, 0, rules)
        assert got["zero_made_per_die"] * 4 == hand_score(0, 0, 4, 0, rules)
        assert got["zero_missed_per_die"] * 6 == hand_score(0, 2, 6, 0, rules)
    standard = facts["scoring"]["standard"]
    assert standard["missed_per_trick"] * 4 == hand_score(5, 1, 5, 0, Rules())
    assert [e["points"] for e in standard["examples"]] == [60, -40, 40, -60]  # docs/rules.md's examples
    assert standard["bonus_counts"] and not facts["scoring"]["landlubber"]["bonus_counts"]
    assert facts["bonus"] == {"mermaid_took_minotaur": MERMAID_BONUS, "minotaur_took_griffin": GRIFFIN_BONUS,
                              "griffins_most": 3}
    assert facts["beats"] == {"minotaur": "griffin", "griffin": "mermaid", "mermaid": "minotaur"}
    assert facts["hands"] == {"3": 8, "4": 8, "5": 7, "6": 6}

