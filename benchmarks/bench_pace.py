"""How long a whole game with bots lasts at the server's default pace (issue 56: under ~3 minutes).

Starts `minodice serve` on 127.0.0.1 with its defaults (bot delay, trick and hand pauses: only the
port and a database in a temporary folder are given), makes one table — one person and the rest
bots of a level (`--level`, medium) — and plays the person's seat over the websocket as a quick
player would: each decision `--think` seconds after it could be seen (a trick's result and a
hand's summary are seen first: the client holds them for `trick_pause` and `hand_pause`, so the
thinking starts when they end). Reports the game's length from the start to the podium, each
hand's, and the gaps the server kept after each trick (a trick's last roll to the next roll, as
received): at least the trick pause, the person's own rolls aside.

    .venv/bin/python benchmarks/bench_pace.py                       # 4 seats, medium bots, 1 s a decision
    .venv/bin/python benchmarks/bench_pace.py --seats 6 --think 2 --json
    .venv/bin/python benchmarks/bench_pace.py --seats 3 --think 0   # the bots' and the pauses' part alone
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
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
MINODICE = [sys.executable, "-m", "minodice"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str, dict[str, Any]]:
    """`minodice serve` at its defaults; its base URL and `/api/options` (the pace it runs at)."""
    port = free_port()
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen([*MINODICE, "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", f"sqlite:///{folder / 'pace.db'}"], stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "NO_COLOR": "1"})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            options = httpx.get(f"{base}/api/options", timeout=2).json()
            return proc, base, options
        except httpx.HTTPError:
            if proc.poll() is not None:
                sys.exit(f"bench_pace: the server stopped: see {folder / 'server.log'}")
            time.sleep(0.2)
    proc.kill()
    sys.exit("bench_pace: the server did not answer in 60 s")


def make_table(base: str, seats: int, level: str) -> tuple[str, str]:
    """A started table of one person (seat 0) and `level` bots: its code and the person's token."""
    bots = [None] + [level] * (seats - 1)
    r = httpx.post(f"{base}/api/tables", json={"seats": seats, "bots": bots, "name": "Ana"}, timeout=10)
    r.raise_for_status()
    body = r.json()
    code, host = body["table"]["code"], body["host_token"]
    httpx.post(f"{base}/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"},
               timeout=10).raise_for_status()
    return code, body["token"]


def play(base: str, code: str, token: str, think: float, options: dict[str, Any]) -> dict[str, Any]:
    """Play seat 0 to the end; the game's timings."""
    ws_base = base.replace("http://", "ws://")
    began = time.monotonic()
    hands: list[float] = []
    gaps: list[float] = []  # a trick's last roll, as received, to the next roll
    last_trick_end: float | None = None
    seen_from = 0
    acted: tuple[Any, ...] | None = None
    due: float | None = None  # when the person acts on the decision waited for
    with connect(f"{ws_base}/ws/{code}", max_size=None, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, Any] | None = None
        while True:
            timeout = 30.0 if due is None else max(0.0, due - time.monotonic())
            try:
                msg = json.loads(ws.recv(timeout=timeout))
            except TimeoutError:
                msg = None
            now = time.monotonic()
            if msg is not None and msg["type"] == "state":
                state = msg
                for event in msg["events"][max(0, seen_from - msg["events_from"]):]:
                    kind = event.get("type")
                    if kind == "rolled" and last_trick_end is not None and event.get("seat") != 0:
                        gaps.append(now - last_trick_end)
                        last_trick_end = None
                    elif kind == "rolled":
                        last_trick_end = None
                    elif kind == "trick_won":
                        last_trick_end = now
                    elif kind == "hand_scored":
                        hands.append(now - began - sum(hands))
                seen_from = msg["events_from"] + len(msg["events"])
                if msg["status"] == "over":
                    break
                pause = 0.0
                kinds = {e.get("type") for e in msg["events"]}
                if "trick_won" in kinds:
                    pause = options["trick_pause"] + (options["hand_pause"] if "hand_scored" in kinds else 0.0)
                view = msg["view"]
                progress = (view["hand"], view["bid_placed"][0], len(view.get("tricks", [])),
                            sum(len(t["rolls"]) for t in view.get("tricks", [])))
                if "legal" in view and progress != acted and due is None:
                    due = now + pause + think
            elif msg is None and due is not None and state is not None:
                view = state["view"]
                choice = view["legal"][0]
                ws.send(json.dumps({"type": "bid", "bid": choice} if isinstance(choice, int)
                                   else {"type": "roll", "die": choice}))
                acted = (view["hand"], view["bid_placed"][0], len(view.get("tricks", [])),
                         sum(len(t["rolls"]) for t in view.get("tricks", [])))
                due = None
            elif msg is None:
                sys.exit("bench_pace: no frame for 30 s: the game stalled")
    return {"game_s": round(time.monotonic() - began, 1), "hands_s": [round(h, 1) for h in hands],
            "trick_gaps_s": {"n": len(gaps), "min": round(min(gaps), 2) if gaps else None,
                             "median": round(sorted(gaps)[len(gaps) // 2], 2) if gaps else None}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4, choices=range(3, 7))
    parser.add_argument("--level", default="medium")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a decision of the person takes")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, options = start_server(Path(tmp))
        try:
            code, token = make_table(base, args.seats, args.level)
            report = {"seats": args.seats, "level": args.level, "think_s": args.think,
                      "pace": {k: options[k] for k in ("bot_delay", "trick_pause", "hand_pause")},
                      **play(base, code, token, args.think, options)}
        finally:
            proc.terminate()
            proc.wait(10)
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.seats} seats, {args.level} bots, the person {args.think:g} s a decision, at "
          f"bot delay {options['bot_delay']:g} s, trick pause {options['trick_pause']:g} s, "
          f"hand pause {options['hand_pause']:g} s")
    print(f"the whole game: {report['game_s']} s ({report['game_s'] / 60:.1f} min); hands: {report['hands_s']}")
    g = report["trick_gaps_s"]
    print(f"after a trick, the next bot's roll came {g['min']} s later at least ({g['median']} s median, {g['n']} tricks)")


if __name__ == "__main__":
    main()
