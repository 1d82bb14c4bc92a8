"""Lighthouse audit of the web client: accessibility and best-practices scores, desktop and mobile.

Starts a real `minodice serve` on 127.0.0.1 (SQLite in a temporary folder, bots at
delay 0), creates a game in progress through the HTTP API and a websocket (one
person and two bots, played until the person must roll with a trick on the table),
and runs Lighthouse on the home page, that person's game page (the personal link
`/#table=CODE&token=TOKEN`) and `/sheet.html`, each with the desktop and the mobile
form factor, in Debian's Chromium. Prints a table of scores (0-100), writes a JSON
summary (its path is printed; full Lighthouse reports beside it) and exits 1 if any
score is below `--min-score` (95), naming the audits that lost points.

    make lighthouse                                   # or:
    .venv/bin/python benchmarks/bench_lighthouse.py [--out summary.json] [--min-score 95]

Needs Node.js and npm (Lighthouse 12.2.3 is pinned in benchmarks/lighthouse/ and
installed there with `npm ci` on first use; Lighthouse 13 needs Node 22) and
Chromium (`apt-get install chromium`, or set CHROME_PATH).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "lighthouse"
LIGHTHOUSE = PACKAGE / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("accessibility", "best-practices")
FORM_FACTORS = ("desktop", "mobile")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chrome_path() -> str:
    """Debian's Chromium (or $CHROME_PATH); exits with the way to install it when there is none."""
    for path in (os.environ.get("CHROME_PATH"), "/usr/bin/chromium", shutil.which("chromium")):
        if path and Path(path).exists():
            return path
    sys.exit("no Chromium found: apt-get install -y chromium (or set CHROME_PATH=/path/to/chrome)")


def ensure_lighthouse() -> None:
    """Install the pinned Lighthouse (benchmarks/lighthouse/package-lock.json) unless it is there."""
    if LIGHTHOUSE.exists():
        return
    if not shutil.which("npm"):
        sys.exit("npm is needed to install Lighthouse: apt-get install -y nodejs npm")
    print("installing Lighthouse (npm ci --prefix benchmarks/lighthouse) ...", flush=True)
    subprocess.run(["npm", "ci", "--prefix", str(PACKAGE), "--no-audit", "--no-fund"], check=True)


class Server:
    """`minodice serve` in a subprocess, stopped on exit of the `with` block."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "server.log"
        args = [
            sys.executable,
            "-m",
            "minodice.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            f"sqlite:///{folder / 'lighthouse.db'}",
            "--bot-delay",
            "0",
            "--turn-timeout",
            "3600",
        ]
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)

    def __enter__(self) -> Server:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.2)
        self.__exit__()
        sys.exit("minodice serve did not start:\n" + self.log_path.read_text(errors="replace")[-2000:])

    def __exit__(self, *_: object) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def game_in_progress(base: str) -> str:
    """Create a table (Ana and two bots), start it and play Ana's seat until she must roll into a
    trick someone else led; the personal link of her seat (the game waits for her there)."""
    with httpx.Client(base_url=base, timeout=10) as http:
        r = http.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", "random"], "name": "Ana"})
        r.raise_for_status()
        made = r.json()
        code, token = made["table"]["code"], made["token"]
        http.post(
            f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
        ).raise_for_status()
    ws_url = base.replace("http://", "ws://") + f"/ws/{code}"
    with connect(ws_url, max_size=None, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=10))
            view = msg.get("view") if msg["type"] == "state" else None
            if not view or "legal" not in view:
                continue
            choice = view["legal"][0]
            if isinstance(choice, str) and view["trick"] is not None:
                return f"{base}/#table={code}&token={token}"
            ws.send(
                json.dumps(
                    {"type": "bid", "bid": choice}
                    if isinstance(choice, int)
                    else {"type": "roll", "die": choice}
                )
            )
    sys.exit("the game did not reach a trick in progress in time")


def audit(url: str, form_factor: str, report: Path, chrome: str) -> dict[str, Any]:
    """Run Lighthouse once; its JSON report (also kept at `report`)."""
    args = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if form_factor == "desktop":
        args.append("--preset=desktop")
    done = subprocess.run(args, env={**os.environ, "CHROME_PATH": chrome}, capture_output=True, text=True)
    if done.returncode != 0 or not report.exists():
        sys.exit(f"lighthouse failed on {url} ({form_factor}):\n{done.stderr[-3000:]}")
    return json.loads(report.read_text(encoding="utf-8"))


def summarise(
    lhr: dict[str, Any],
) -> tuple[dict[str, int], dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
    """Each category's score (0-100), the weighted audits that lost it points, and the failed
    audits Lighthouse does not score (weight 0, e.g. label-content-name-mismatch): id, title, score."""
    scores: dict[str, int] = {}
    lost: dict[str, list[dict[str, Any]]] = {}
    unscored: list[dict[str, Any]] = []
    for name in CATEGORIES:
        category = lhr["categories"][name]
        scores[name] = round((category["score"] or 0) * 100)
        lost[name] = []
        for ref in category["auditRefs"]:
            result = lhr["audits"][ref["id"]]
            if result["score"] is None or result["score"] >= 1:
                continue
            failed = {"id": ref["id"], "title": result["title"], "score": result["score"]}
            (lost[name] if ref["weight"] > 0 else unscored).append(failed)
    return scores, lost, unscored


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out", type=Path, default=None, help="the JSON summary (default: a file in a temporary folder)"
    )
    ap.add_argument(
        "--min-score", type=int, default=95, help="fail below this score in any category (default 95)"
    )
    args = ap.parse_args()
    chrome = chrome_path()
    ensure_lighthouse()
    folder = Path(tempfile.mkdtemp(prefix="minodice-lighthouse-"))
    out = args.out or folder / "summary.json"
    rows: list[dict[str, Any]] = []
    with Server(folder) as server:
        pages = {
            "home": server.base + "/",
            "game": game_in_progress(server.base),
            "sheet": server.base + "/sheet.html",
        }
        for page, url in pages.items():
            for form_factor in FORM_FACTORS:
                lhr = audit(url, form_factor, folder / f"{page}-{form_factor}.report.json", chrome)
                scores, lost, unscored = summarise(lhr)
                rows.append(
                    {
                        "page": page,
                        "form_factor": form_factor,
                        "scores": scores,
                        "lost": lost,
                        "unscored": unscored,
                        "url": url.split("&token=", 1)[0],
                        "report": str(folder / f"{page}-{form_factor}.report.json"),
                    }
                )
                print(
                    f"  {page:<6} {form_factor:<8} " + "  ".join(f"{c} {scores[c]}" for c in CATEGORIES),
                    flush=True,
                )
    summary = {
        "lighthouse": lhr.get("lighthouseVersion"),
        "chromium": lhr.get("environment", {}).get("hostUserAgent"),
        "min_score": args.min_score,
        "results": rows,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

    print()
    print(f"{'page':<8}{'form factor':<13}" + "".join(f"{c:>16}" for c in CATEGORIES))
    for row in rows:
        print(
            f"{row['page']:<8}{row['form_factor']:<13}"
            + "".join(f"{row['scores'][c]:>16}" for c in CATEGORIES)
        )
    print(f"\nsummary: {out}")
    for row in rows:
        for c in CATEGORIES:
            if row["lost"][c]:
                below = " (below the minimum)" if row["scores"][c] < args.min_score else ""
                print(
                    f"\n{row['page']} ({row['form_factor']}) {c} {row['scores'][c]}{below}; points lost by:"
                )
                for a in row["lost"][c]:
                    print(f"  {a['id']}: {a['title']} (score {a['score']})")
        if row["unscored"]:
            print(f"\n{row['page']} ({row['form_factor']}): failed, not scored by Lighthouse:")
            for a in row["unscored"]:
                print(f"  {a['id']}: {a['title']}")
    low = [
        (row["page"], row["form_factor"], c)
        for row in rows
        for c in CATEGORIES
        if row["scores"][c] < args.min_score
    ]
    if low:
        print(f"\nFAIL: scores below {args.min_score}: " + ", ".join(f"{p} {f} {c}" for p, f, c in low))
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
