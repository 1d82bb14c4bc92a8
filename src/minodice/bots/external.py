"""External bots: any program that plays a seat over `minodice-bot/1` (JSON lines on stdin/stdout).

The host starts the program lazily, at the first game, and keeps it for the
games that follow; a program that died or stopped answering is started afresh
at the next game. Every answer is checked, and a misbehaving program can never
hang the host: reading happens in threads with a time limit per decision, the
program's stderr is drained (never shown on the host's terminal: a person's
game screen may hold their dice), and overlong lines are refused. The stderr
goes to a log file per game (`ExternalBot.log_path`, named in the fault
messages) and its last lines travel with the timeout and exit faults
(`BotFault.stderr`), for tournament and bot-check reports.

>>> bot = ExternalBot("python3 examples/simple_bot.py", timeout=5)
>>> bot.name
'simple_bot'
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from ..codes import printable, quoted
from ..dice import Die, die_named
from ..view import View
from .base import Bot, BotFault

__all__ = ["MAX_LINE", "PROTOCOL", "STDERR_LINES", "ExternalBot", "StderrLog", "default_log_dir"]

#: The protocol this host speaks (sent in `hello`).
PROTOCOL = "minodice-bot/1"
#: Longest answer line accepted, in bytes; a longer one is a bad answer.
MAX_LINE = 64 * 1024
#: How many of the program's last stderr lines are kept for fault messages.
STDERR_LINES = 20
#: Seconds a program gets to exit after `quit` before it is stopped.
QUIT_GRACE = 2.0
#: How many wrong ids a timeout message lists.
SHOWN_IDS = 5
#: Bytes of stderr a log file takes per game; the rest is dropped (a chatty program cannot fill the disk).
MAX_LOG_BYTES = 8 * 1024 * 1024

_EOF = "eof"
_LINE = "line"
_LONG = "long"
_INTERPRETERS = {
    "python", "python3", "pypy", "pypy3", "node", "deno", "bun", "ruby", "perl", "php", "lua",
    "julia", "java", "sh", "bash", "zsh", "rscript", "uv", "dotnet", "env",
}
_SUBCOMMANDS = {"run", "exec"}


def _program_name(argv: list[str]) -> str:
    """A short name for the program: the script's stem for `python3 bot.py`, else the program's name."""
    prog = Path(argv[0]).name
    base = prog.lower().rstrip("0123456789.")
    if base.endswith(".exe"):
        base = base[:-4]
    if base in _INTERPRETERS:
        for before, arg in itertools.pairwise(argv):
            if arg == "-c":
                break
            if before == "-m":
                return arg.rpartition(".")[2] or prog
            if arg.startswith("-") or arg in _SUBCOMMANDS or "=" in arg:
                continue
            return Path(arg).stem or prog
    return prog


def _clean_name(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())[:40]
    return text or None


def default_log_dir() -> Path:
    """Where external bots' stderr logs go: `$XDG_STATE_HOME/minodice/bot-logs` (`~/.local/state`
    when unset; `%LOCALAPPDATA%` on Windows)."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "minodice" / "bot-logs"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "minodice" / "bot-logs"


class StderrLog:
    """A file that receives a program's stderr for one game: created at the first byte written,
    so a quiet program leaves no file; a write that fails (disk full, no permission) is dropped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: True once something was written to `path`.
        self.written = False
        self._lock = threading.Lock()
        self._file: Any = None
        self._failed = False
        self._size = 0

    def write(self, data: bytes) -> None:
        """Append `data` (and flush, so the file is complete when a fault names it), up to `MAX_LOG_BYTES`."""
        with self._lock:
            if self._failed or self._size >= MAX_LOG_BYTES:
                return
            try:
                if self._file is None:
                    self._open()
                self._size += len(data)
                if self._size >= MAX_LOG_BYTES:
                    data += b"\n[minodice: log full, the rest of this game's stderr is not kept]\n"
                self._file.write(data)
                self._file.flush()
                self.written = True
            except OSError:
                self._failed = True

    def _open(self) -> None:
        """Open a new file at `path` (`-2`, `-3`… added if the name is taken)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        stem, n = self.path.stem, 1
        while True:
            try:
                self._file = self.path.open("ab" if self.written else "xb")
                return
            except FileExistsError:
                n += 1
                self.path = self.path.with_name(f"{stem}-{n}.log")

    def close(self) -> None:
        """Close the file (a later write opens it again, appending)."""
        with self._lock:
            if self._file is not None:
                with contextlib.suppress(OSError):
                    self._file.close()
                self._file = None


class _Process:
    """One running copy of the program, with the threads that feed and drain its pipes."""

    def __init__(self, argv: list[str], cwd: str | os.PathLike[str] | None, log: StderrLog | None) -> None:
        posix = os.name == "posix"
        self.popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            # Its own session: terminal signals meant for the host do not reach it,
            # and stopping it stops whatever it started.
            start_new_session=posix,
        )
        self.group = posix
        #: Lines read from stdout, as (kind, text); ends with (_EOF, None).
        self.lines: queue.Queue[tuple[str, str | None]] = queue.Queue(maxsize=10_000)
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        #: Where the stderr goes as well (the current game's log; swapped between games).
        self.log = log
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._threads = [
            threading.Thread(target=self._read_stdout, name="minodice-bot-out", daemon=True),
            threading.Thread(target=self._read_stderr, name="minodice-bot-err", daemon=True),
            threading.Thread(target=self._write_stdin, name="minodice-bot-in", daemon=True),
        ]
        for t in self._threads:
            t.start()

    # --- pipes ---------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Queue one JSON line for the program (never blocks the host)."""
        self._outbox.put(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def close_stdin(self) -> None:
        self._outbox.put(None)

    def _write_stdin(self) -> None:
        stream = self.popen.stdin
        assert stream is not None
        try:
            while True:
                data = self._outbox.get()
                if data is None:
                    break
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            pass  # the program is gone or closed its input: the reader sees the rest
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        try:
            while True:
                raw = stream.readline(MAX_LINE + 1)
                if not raw:
                    break
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    self.lines.put((_LONG, raw[:200].decode("utf-8", "replace")))
                    more = raw
                    while more and not more.endswith(b"\n"):  # skip the rest of the line
                        more = stream.readline(MAX_LINE)
                    if not more:
                        break
                    continue
                self.lines.put((_LINE, raw.decode("utf-8", "replace").rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put((_EOF, None))
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        partial = False
        try:
            while True:
                raw = stream.readline(4096)
                if not raw:
                    break
                log = self.log
                if log is not None:
                    log.write(raw)
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if not partial:
                    self.stderr_tail.append(printable(text[:300]))  # no terminal escapes in reports
                partial = not raw.endswith(b"\n")
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    # --- life and death ------------------------------------------------------------------

    def alive(self) -> bool:
        """True while the program runs (an exited program is left unreaped: see `exit_code`)."""
        return not self._exited()

    def _exited(self) -> bool:
        popen = self.popen
        if popen.returncode is not None:
            return True
        if not self.group or not hasattr(os, "waitid"):
            return popen.poll() is not None
        try:  # WNOWAIT: look without reaping, so its process group id cannot be reused yet
            info = os.waitid(os.P_PID, popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return popen.poll() is not None
        return info is not None

    def exit_code(self, wait: float) -> int | None:
        """The exit code, waiting up to `wait` seconds for it (None: still running).

        Once the program has exited, whatever it left running in its process
        group is killed before the program is reaped.
        """
        if self.popen.returncode is not None:
            return self.popen.returncode
        end = time.monotonic() + wait
        while not self._exited():
            if time.monotonic() >= end:
                return None
            time.sleep(0.01)
        if self.group:
            self._signal(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.popen.wait(timeout=2.0)
        return None

    def stderr_lines(self) -> tuple[str, ...]:
        """The last stderr lines (after letting the drain thread catch up if the program is gone)."""
        if not self.alive():
            self._threads[1].join(timeout=0.5)
        return tuple(self.stderr_tail)

    def _signal(self, sig: int) -> None:
        """Signal the program's process group (POSIX), or the program itself."""
        with contextlib.suppress(OSError):
            if self.group:
                os.killpg(self.popen.pid, sig)
            elif sig == signal.SIGTERM:
                self.popen.terminate()
            else:
                self.popen.kill()

    def stop(self, grace: float = 0.0) -> None:
        """Let the program exit within `grace` seconds, then terminate it, then kill it."""
        self.close_stdin()
        if self.exit_code(grace) is None:
            self._signal(signal.SIGTERM)
            if self.exit_code(1.0) is None:
                self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
                self.exit_code(2.0)


class ExternalBot(Bot):
    """A program playing one seat over `minodice-bot/1`; `command` is split like a shell would.

    `timeout` is the seconds the program has per decision. Its faults are
    raised as `BotFault`: "bad_answer", "illegal" (the runner plays the first
    legal answer instead), and the fatal "timeout" and "exited" (the program
    is stopped, the seat replaced for the rest of the game, and the program
    started afresh at the next game). The fatal ones carry the program's last
    stderr lines and name its log file.

    The program's stderr goes to one log file per game in `log_dir` (default:
    `default_log_dir()`), made only if it writes something; `keep_log=False`
    keeps no file (tournaments and bot-check report the last lines instead).
    """

    def __init__(
        self,
        command: str,
        timeout: float = 10.0,
        *,
        cwd: str | os.PathLike[str] | None = None,
        log_dir: str | os.PathLike[str] | None = None,
        keep_log: bool = True,
    ) -> None:
        super().__init__()
        argv = shlex.split(command)
        if not argv:
            raise ValueError("an external bot needs a program to run, e.g. 'python3 mybot.py'")
        self.command = command
        self.argv = argv
        self.timeout = float(timeout)
        self.cwd = cwd
        self.name = _program_name(argv)
        #: The author the program named in its `hello` answer, if any.
        self.author: str | None = None
        #: How many times the program has been started.
        self.starts = 0
        self.log_dir = Path(log_dir) if log_dir is not None else default_log_dir()
        self.keep_log = keep_log
        self._log: StderrLog | None = None  # this game's stderr log
        self._logs = 0
        self._proc: _Process | None = None
        self._last: _Process | None = None  # the running or last program (for its stderr)
        self._last_id = 0
        self._gone: BotFault | None = None  # the fatal fault that stopped the program this game

    # --- the Bot interface ------------------------------------------------------------

    def start_game(self, view: View) -> None:
        """Start the program if it is not running (sending `hello`), then send `game`."""
        self._gone = None
        self._new_log(view.seat)
        problem: BotFault | None = None
        if self._proc is None or not self._proc.alive():
            if self._proc is not None:
                self._proc.stop()
                self._proc = None
            try:
                self._launch()
            except BotFault as fault:
                if fault.fatal:
                    raise
                problem = fault
        assert self._proc is not None
        self._proc.send({"type": "game", "view": view.to_dict()})
        if problem is not None:
            raise problem

    def bid(self, view: View) -> int:
        value, line = self._ask("bid", "bid", view)
        if not isinstance(value, int) or isinstance(value, bool):
            raise BotFault("bad_answer", f'"bid" must be a whole number, not {quoted(value)}', line=line)
        if value not in (view.legal or ()):
            top = max((b for b in view.legal or () if isinstance(b, int)), default=0)
            raise BotFault("illegal", f"bid {value} is not legal: bids go from 0 to {top}", line=line)
        return value

    def roll(self, view: View) -> Die:
        value, line = self._ask("roll", "die", view)
        if not isinstance(value, str):
            raise BotFault("bad_answer", f'"die" must be a die name, not {quoted(value)}', line=line)
        die = die_named(value)
        legal = view.legal or ()
        if die is None or die not in legal:
            shown = ", ".join(getattr(d, "value", str(d)) for d in legal)
            raise BotFault("illegal", f"{quoted(value)} is {_why_not(view, die)}: legal are {shown}", line=line)
        return die

    def end_game(self, view: View) -> None:
        """Send `result` (final totals); a program already stopped this game is left alone."""
        if self._gone is None and self._proc is not None:
            self._proc.send({"type": "result", "view": view.to_dict()})

    def close(self) -> None:
        """Send `quit`, give the program a moment to exit, then stop it (and close its log)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.send({"type": "quit"})
            proc.stop(grace=min(QUIT_GRACE, self.timeout))
            proc.stderr_lines()  # let the drain catch up with the program's last words
        if self._log is not None:
            self._log.close()

    def describe(self) -> str:
        return f"cmd:{self.command}"

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def stderr_tail(self) -> list[str]:
        """The last lines the running (or last) program wrote to stderr."""
        return list(self._last.stderr_tail) if self._last is not None else []

    @property
    def log_path(self) -> Path | None:
        """The log file holding this game's stderr of the program (None: it wrote none, or no log is kept)."""
        log = self._log
        return log.path if log is not None and log.written else None

    def _new_log(self, seat: int | None) -> None:
        """Send the program's stderr to a new log file from now on (one per game; none without keep_log)."""
        if self._log is not None:
            self._log.close()
        if not self.keep_log:
            return
        self._logs += 1
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", self.name)[:40] or "bot"
        where = f"-seat{seat}" if seat is not None else ""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self._log = StderrLog(self.log_dir / f"{stamp}-{stem}{where}-{os.getpid()}-{self._logs}.log")
        if self._proc is not None:
            self._proc.log = self._log

    # --- internals ---------------------------------------------------------------------

    def _launch(self) -> None:
        try:
            if self._log is None and self.keep_log:
                self._new_log(None)
            proc = _Process(self.argv, self.cwd, self._log)
        except (OSError, ValueError) as exc:
            fault = BotFault("exited", f"could not start {self.command!r}: {exc}", fatal=True)
            self._gone = fault
            raise fault from None
        self._proc = self._last = proc
        self.starts += 1
        # A bot that is never closed still stops its program when collected or at exit.
        weakref.finalize(self, proc.stop)
        proc.send({"type": "hello", "protocol": PROTOCOL})
        line = self._read_line(proc, time.monotonic() + self.timeout, "hello")
        try:
            answer = json.loads(line)
        except ValueError:
            raise BotFault("bad_answer", "the answer to hello is not JSON", line=line) from None
        if not isinstance(answer, dict):
            raise BotFault("bad_answer", "the answer to hello is not a JSON object", line=line)
        self.name = _clean_name(answer.get("name")) or self.name
        self.author = _clean_name(answer.get("author")) or self.author

    def _ask(self, kind: str, field: str, view: View) -> tuple[object, str]:
        """Send a question and return the answer's `field` and the answer line."""
        if self._gone is not None:
            raise BotFault(self._gone.kind, f"still out of the game: {self._gone.detail}", fatal=True)
        if self._proc is None:
            self._launch()
        proc = self._proc
        assert proc is not None
        self._last_id += 1
        qid = self._last_id
        proc.send({"type": kind, "id": qid, "view": view.to_dict()})
        deadline = time.monotonic() + self.timeout
        stale: list[int] = []  # ids of the answers to other questions read meanwhile
        while True:
            line = self._read_line(proc, deadline, kind, (qid, stale))
            try:
                answer = json.loads(line)
            except ValueError:
                raise BotFault("bad_answer", f"the answer to {kind} is not JSON", line=line) from None
            if not isinstance(answer, dict):
                raise BotFault("bad_answer", f"the answer to {kind} is not a JSON object", line=line)
            got = answer.get("id")
            if not isinstance(got, int) or isinstance(got, bool):
                raise BotFault(
                    "bad_answer", f'the answer to {kind} needs "id": {qid} (a number)', line=line
                )
            if got != qid:
                stale.append(got)  # stale (an answer to an earlier question) or a wrong id
                continue
            if field not in answer:
                raise BotFault("bad_answer", f'the answer to {kind} has no "{field}"', line=line)
            return answer[field], line

    def _read_line(
        self, proc: _Process, deadline: float, kind: str, asked: tuple[int, list[int]] | None = None
    ) -> str:
        """The next non-blank line from the program, or a fault (timeout, exit, overlong line).

        `asked`: the question's id and the other ids answered so far, for the fault's message.
        """
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                what, text = proc.lines.get(timeout=remaining)
            except queue.Empty:
                detail = f"no answer to {kind} within {self.timeout:g} s: {_replies_note(asked, silent=True)}"
                raise self._fatal(proc, "timeout", detail) from None
            if what == _EOF:
                note = _replies_note(asked, silent=False)
                raise self._fatal(proc, "exited", self._exit_detail(proc) + (f" ({note})" if note else ""))
            if what == _LONG:
                raise BotFault(
                    "bad_answer", f"the answer to {kind} is longer than {MAX_LINE} bytes", line=text
                )
            assert text is not None
            if text.strip():
                return text

    def _exit_detail(self, proc: _Process) -> str:
        # A program that closed its output is usually exiting: give it time to finish (a Python
        # program's shutdown took over 0.5 s on a loaded machine) so the fault can say how it ended.
        code = proc.exit_code(wait=2.0)
        if code is None:
            detail = "the program closed its output"
        elif code < 0:
            detail = f"the program was killed by signal {-code}"
        else:
            detail = f"the program exited with code {code}"
        return detail

    def _fatal(self, proc: _Process, kind: str, detail: str) -> BotFault:
        """Stop the program for the rest of this game and make the fault that says why.

        The fault carries the program's last stderr lines, and its message names
        the log file holding them (never the lines themselves: the message may be
        shown on a person's game screen).
        """
        proc.stop()
        if self._proc is proc:
            self._proc = None
        lines = proc.stderr_lines()
        if self.log_path is not None:
            detail += f"; its stderr is in {self.log_path}"
        elif not lines:
            detail += "; it wrote nothing to stderr"
        fault = BotFault(kind, detail, fatal=True, stderr=lines)
        self._gone = fault
        return fault


def _replies_note(asked: tuple[int, list[int]] | None, *, silent: bool) -> str:
    """What the program sent while the host waited: answers with other ids (which), or nothing at all.

    `asked` is the question's id and the ids of the answers read meanwhile
    (None: waiting for the hello answer, where any line answers).
    """
    qid, others = asked if asked is not None else (None, [])
    if others:
        shown = ", ".join(str(i) for i in others[:SHOWN_IDS]) + (", …" if len(others) > SHOWN_IDS else "")
        n = len(others)
        return f"{n} {'reply' if n == 1 else 'replies'} came with a wrong id ({shown}) instead of {qid}"
    return "no reply at all (does it flush stdout after each line?)" if silent else ""


def _why_not(view: View, die: Die | None) -> str:
    """Why a bot may not roll `die` now, in the rules' words when the colour rule bars it."""
    if die is None:
        return "not a die"
    refusal = view.refusals().get(die)
    if refusal is not None:
        return f"not a die this seat may roll now ({refusal.text()})"
    return "not a die this seat may roll now"
