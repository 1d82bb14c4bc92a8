"""`GET /api/tables/{code}/analysis`: a finished game reviewed in a worker process of the server
(the replay page's analysis), against a real `minodice serve` with a small judging budget."""

from __future__ import annotations

import httpx

from minodice.review import FORMAT
from test_server_common import Player, ServerProcess, make_table, play_out, server_fixtures, start

JUDGE = "montecarlo:sims=16,per=2,bid_sims=16,bid_per=2"
server, http = server_fixtures("review", review_bot=JUDGE)


def test_a_finished_game_is_reviewed_and_one_in_progress_is_not(http: httpx.Client, server: ServerProcess) -> None:
    t = make_table(http, 3, [None, "greedy", "random"], ["Ana"])
    code = t["code"]
    before = http.get(f"/api/tables/{code}/analysis")
    assert before.status_code == 409 and before.json()["detail"]["code"] == "not_over"
    start(http, code, t["host"])
    ana = Player(server.ws_base, code, t["tokens"][0])
    during = http.get(f"/api/tables/{code}/analysis")
    assert during.status_code == 409 and during.json()["detail"]["code"] == "not_over"
    assert "dice" not in during.text
    play_out([ana])
    ana.close()
    with server.api() as slow:
        slow.timeout = httpx.Timeout(120)
        r = slow.get(f"/api/tables/{code}/analysis")
        assert r.status_code == 200, r.text
        doc = r.json()
        assert doc["format"] == FORMAT and doc["bot"] == JUDGE
        assert [s["name"] for s in doc["seats"]] == ["Ana", "Greedy 2", "Random 3"]
        record = http.get(f"/api/tables/{code}/record").json()
        for s in doc["seats"]:
            bids = [d["made"] for d in s["decisions"] if d["kind"] == "bid"]
            assert bids == [h["bids"][s["seat"]] for h in record["hands"]]
        assert slow.get(f"/api/tables/{code}/analysis").json() == doc  # kept: the same document at once
    assert http.get("/api/tables/NOSUCH/analysis").status_code == 404


def test_a_bad_review_bot_stops_the_server_with_the_reason(tmp_path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "minodice.cli", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
         "--review-bot", "montecarlo:sims=-3"], capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and "--review-bot" in done.stderr and "Traceback" not in done.stderr
