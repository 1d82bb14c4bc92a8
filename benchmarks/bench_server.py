"""Load test of `minodice serve`: many tables of bots plus websocket players at once on 127.0.0.1.

Starts a real server (SQLite file in a temporary directory, bot delay 0), creates
`--tables` tables of 4 seats — 2 bots and 2 people played by websocket clients
here, all at once — and plays every game to the end. Reports the latency of an
action (a person's bid or roll sent, until that person's next `state` arrives:
checked, stored and broadcast) as p50/p99, games finished and the error count
(errors: refused actions, unexpected closes, unfinished games; should be 0).

    .venv/bin/python benchmarks/bench_server.py --tables 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def person(ws_url: str, token: str, seed: int, latencies: list[float], errors: list[str]) -> bool:
    """Play one seat to the end with random legal choices; True once the game is over."""
    rng = random.Random(seed)
    async with websockets.connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        done_progress = None
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] == "error":
                errors.append(msg["code"])
                sent_at = None
                done_progress = None
                continue
            if msg["type"] != "state":
                continue
            view = msg["view"]
            seat = view["seat"]
            progress = (view["hand"], view["bid_placed"][seat],
                        sum(1 for t in view["tricks"] for r in t["rolls"] if r["seat"] == seat))
            if sent_at is not None and progress != done_progress:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["status"] == "over":
                return True
            if "legal" in view and sent_at is None and progress != done_progress:
                choice = rng.choice(view["legal"])
                out = {"type": "bid", "bid": choice} if isinstance(choice, int) else {"type": "roll", "die": choice}
                await asyncio.sleep(0.07)  # a person's pace (and under the 20 messages/s flood limit)
                sent_at = time.perf_counter()
                done_progress = progress
                await ws.send(json.dumps(out))


async def run(tables: int, base: str, ws_base: str) -> dict[str, object]:
    latencies: list[float] = []
    errors: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = []
        for _ in range(tables):
            r = await http.post("/api/tables", json={"seats": 4, "bots": [None, "greedy", None, "random"], "name": "Ana"})
            body = r.json()
            code = body["table"]["code"]
            j = (await http.post(f"/api/tables/{code}/join", json={"name": "Bo"})).json()
            await http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {body['host_token']}"})
            made.append((code, body["token"], j["token"]))
    began = time.perf_counter()
    jobs = []
    for i, (code, t0, t1) in enumerate(made):
        url = f"{ws_base}/ws/{code}"
        jobs += [person(url, t0, 2 * i, latencies, errors), person(url, t1, 2 * i + 1, latencies, errors)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    wall = time.perf_counter() - began
    finished = sum(1 for r in results if r is True)
    failures = [repr(r) for r in results if r is not True]
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "tables": tables, "clients": len(jobs), "actions": len(latencies), "wall_s": round(wall, 1),
        "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1),
        "max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        "clients_finished": finished, "errors": len(errors) + len(failures),
        "error_samples": (errors + failures)[:5],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--db", default=None, help="database URL (default: a SQLite file in a temporary directory)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="minodice-bench-"))
    db = args.db or f"sqlite:///{tmp / 'bench.db'}"
    port = free_port()
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "minodice.cli", "serve", "--port", str(port), "--db", db, "--bot-delay", "0"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(200):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        report = asyncio.run(run(args.tables, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"))
    finally:
        proc.terminate()
        proc.wait(10)
    for k, v in report.items():
        print(f"{k:>16}: {v}")
    print(f"{'server log':>16}: {tmp / 'server.log'}")


if __name__ == "__main__":
    main()
