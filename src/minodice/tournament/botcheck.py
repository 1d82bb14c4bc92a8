"""`minodice.tournament.botcheck` (the `minodice bot-check` command): put a bot through its paces
and say whether it plays by the protocol.

The harness for bot authors. It plays a few games with one bot (for an
external program: one process, several games in a row, as a tournament
would) against the built-in bots, at 3 to 6 seats and under several rule
options (landlubber scoring, `last_winner` hand starts, other trick rules),
and steers some deals into the awkward positions: a bid with a single die in
hand 1, a turn with a single legal die, having to follow the lead colour with
and without a choice. It reports every fault (kind, message, offending line),
the bot's decision times (mean, 95th percentile, max), whether it answered
`hello` with a name, the positions it met, and a verdict: PASS when it made no
fault and every decision came within the time limit.

>>> report = check_bot("greedy", games=1)
>>> report.verdict, report.faults
('PASS', [])
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..bots import Bot, bot_seed, make_bot
from ..bots.external import ExternalBot
from ..bots.runner import STDERR_SHOWN, Fault, Match
from ..codes import printable
from ..dice import BAG, Die, Face
from ..game import Game
from ..rules import Rules, places
from ..view import View
from .config import TournamentError, check_spec
from .play import TimedBot

__all__ = ["PLAN", "BotCheckError", "CheckGame", "CheckReport", "FaultEntry", "check_bot", "render", "to_json"]

_R, _Y, _G = Die.RED, Die.YELLOW, Die.GRIFFIN


class BotCheckError(ValueError):
    """A check that cannot be run as asked (a bad spec, no games, a bad time limit)."""


@dataclass(frozen=True)
class CheckGame:
    """One game of the check: table size, the bot's seat, its opponents, the rules, steered deals.

    `script` maps a hand to the dice some seats draw in it (the other seats draw
    at random from what is left in the bag).
    """

    seats: int
    seat: int
    opponents: tuple[str, ...]
    rules: Rules
    about: str
    script: Mapping[int, Mapping[int, tuple[Die, ...]]] = field(default_factory=dict)

    def specs(self, bot: str) -> list[str]:
        """Every seat's spec, the bot's own in its seat."""
        others = iter(self.opponents)
        return [bot if s == self.seat else next(others) for s in range(self.seats)]


#: The games of a check, in order (more games than these: the plan repeats with new dice).
PLAN: tuple[CheckGame, ...] = (
    CheckGame(
        3, 0, ("greedy", "random"), Rules(),
        "standard rules; a forced single die and must-follow positions",
        # Hand 2 is led by seat 1, which holds only red: the bot (holding red and
        # yellow) must follow with its one red die. Hand 3 is led by seat 2, all
        # red: the bot must follow red or roll its griffin.
        {2: {1: (_R, _R), 0: (_R, _Y)}, 3: {2: (_R, _R, _R), 0: (_R, _Y, _G)}},
    ),
    CheckGame(4, 2, ("random", "greedy", "greedy"), Rules(scoring="landlubber"), "landlubber scoring"),
    CheckGame(
        6, 5, ("greedy", "random", "greedy", "random", "greedy"),
        Rules(hand_start="last_winner", all_specials="minotaur"),
        "the last trick's winner starts the next hand; all specials: minotaur",
    ),
    CheckGame(
        5, 1, ("random", "greedy", "random", "greedy"), Rules(all_flags="last", all_specials="griffin"),
        "all flags: last roller wins; all specials: griffin",
    ),
    CheckGame(
        4, 3, ("greedy", "greedy", "random"), Rules(scoring="landlubber", hand_start="last_winner"),
        "landlubber scoring with last_winner hand starts",
    ),
    CheckGame(
        3, 2, ("random", "greedy"), Rules(),
        "standard rules; must follow red from the last seat",
        {2: {1: (_R, _R), 2: (_R, _Y)}, 4: {0: (_R, _R, _R, _R), 2: (_Y, _R, _G, _Y)}},
    ),
)


class ScriptedChance:
    """Seeded chance that deals the given dice to some seats in some hands (the rest at random)."""

    def __init__(self, seed: str, script: Mapping[int, Mapping[int, tuple[Die, ...]]]) -> None:
        self.rng = random.Random(seed)
        self.script = script

    def deal(self, game: Game, hand: int, each: int) -> list[list[Die]]:
        fixed = self.script.get(hand, {})
        pool = list(BAG)
        for dice in fixed.values():
            for d in dice:
                pool.remove(d)
        self.rng.shuffle(pool)
        rows = []
        for s in range(game.seats):
            if s in fixed:
                rows.append(list(fixed[s]))
            else:
                rows.append(pool[:each])
                del pool[:each]
        return rows

    def land(self, game: Game, seat: int, die: Die) -> Face:
        return die.faces[self.rng.randrange(6)]

    def copy(self) -> ScriptedChance:
        twin = ScriptedChance.__new__(ScriptedChance)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.script = self.script
        return twin


class _ProbeBot(TimedBot):
    """Times the bot and notes the positions it is asked to play."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.met: Counter[str] = Counter()

    def bid(self, view: View) -> int:
        if view.hand == 1:
            self.met["bid with one die (hand 1)"] += 1
        if view.hand == view.hands:
            self.met["bid in the last hand"] += 1
        return super().bid(view)

    def roll(self, view: View) -> Die:
        legal = view.legal or ()
        if len(legal) == 1:
            self.met["a single legal die"] += 1
        if view.refusals():  # the lead colour bars some of its dice (`rules`' follow check)
            self.met["must follow the lead colour"] += 1
            if len(legal) > 1:
                self.met["must follow, with a choice"] += 1
        if view.current_trick is None:
            self.met["leads a trick"] += 1
        return super().roll(view)


@dataclass(frozen=True)
class FaultEntry:
    """A fault, where it happened: game (from 1) and hand; `stderr`: the program's last stderr
    lines when it timed out or exited."""

    game: int
    hand: int
    kind: str
    message: str
    line: str | None
    stderr: tuple[str, ...] = ()


@dataclass
class GameOutcome:
    """How one game of the check went for the bot."""

    number: int
    seats: int
    seat: int
    rules: dict[str, str]
    about: str
    opponents: tuple[str, ...]
    totals: list[int]
    place: int
    decisions: int
    faults: int


@dataclass
class CheckReport:
    """Everything `bot-check` found out."""

    spec: str
    timeout: float
    seed: int
    name: str
    author: str | None
    #: How the program answered hello: "named", "no name", "no answer" (or "n/a": a built-in bot).
    hello: str
    games: list[GameOutcome]
    faults: list[FaultEntry]
    times: list[float]
    met: dict[str, int]
    #: How many times the external program was started (1 unless it died or hung).
    starts: int | None
    reasons: list[str]

    @property
    def verdict(self) -> str:
        return "FAIL" if self.reasons else "PASS"

    @property
    def passed(self) -> bool:
        return not self.reasons

    def time_stats(self) -> dict[str, float]:
        """Decision times in milliseconds: mean, 95th percentile (nearest rank), max."""
        if not self.times:
            return {"mean": 0.0, "p95": 0.0, "max": 0.0}
        ordered = sorted(self.times)
        p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
        return {
            "mean": 1000 * sum(ordered) / len(ordered),
            "p95": 1000 * p95,
            "max": 1000 * ordered[-1],
        }


def check_bot(spec: str, *, games: int | None = None, timeout: float = 10.0, seed: int = 0) -> CheckReport:
    """Play the check's games with the bot `spec` and judge it (BotCheckError: cannot run)."""
    games = _games_to_play(spec, games, timeout)
    # No stderr log file: the report shows the program's last stderr lines with each fault.
    bot = make_bot(spec, seed=bot_seed(f"bot-check:{seed}", 0), timeout=timeout, keep_log=False)
    external = isinstance(bot, ExternalBot)
    program_name = bot.name
    # A name no hello can give (names are stripped): still there after hello = no name given.
    unnamed = program_name + " "
    if external:
        bot.name = unnamed
    probe = _ProbeBot(bot)
    faults: list[FaultEntry] = []
    outcomes: list[GameOutcome] = []
    hello = "n/a"  # built-in bots say no hello
    try:
        for number in range(1, games + 1):
            plan = PLAN[(number - 1) % len(PLAN)]
            game, match = _set_up(plan, number, seed, probe, faults)
            match.start()
            if external and number == 1:
                hello = _hello(bot.name, unnamed, faults)
                bot.name = program_name if bot.name == unnamed else bot.name
            match.play()
            outcomes.append(_outcome(plan, number, game, match, faults))
    finally:
        bot.close()
    met = dict(sorted(probe.met.items()))
    met["games in a row"] = games
    report = CheckReport(
        spec=spec,
        timeout=timeout,
        seed=seed,
        name=bot.name,
        author=getattr(bot, "author", None),
        hello=hello,
        games=outcomes,
        faults=faults,
        times=list(probe.times),
        met=met,
        starts=bot.starts if isinstance(bot, ExternalBot) else None,
        reasons=[],
    )
    report.reasons.extend(_reasons(report))
    return report


def _games_to_play(spec: str, games: int | None, timeout: float) -> int:
    """How many games the check plays (default: the whole plan); BotCheckError for a bad request."""
    if games is None:
        games = len(PLAN)
    if not isinstance(games, int) or games < 1:
        raise BotCheckError(f"--games must be at least 1, not {games}")
    if not timeout > 0:
        raise BotCheckError(f"--timeout must be more than 0 seconds, not {timeout}")
    try:
        check_spec(spec, timeout=timeout)
    except TournamentError as exc:
        raise BotCheckError(str(exc)) from None
    return games


def _set_up(
    plan: CheckGame, number: int, seed: int, probe: _ProbeBot, faults: list[FaultEntry]
) -> tuple[Game, Match]:
    """Game `number` of the check (its plan's table, rules and steered deals), the probed bot in its seat."""
    game_seed = f"bot-check:{seed}:{number}"
    specs = plan.specs("bot")
    game = Game(
        plan.seats,
        names=[name if s == plan.seat else f"{name}-{s}" for s, name in enumerate(specs)],
        rules=plan.rules,
        chance=ScriptedChance(game_seed, plan.script) if plan.script else None,
        seed=game_seed,
    )
    bots: dict[int, Bot] = {
        s: make_bot(other, seed=bot_seed(game_seed, s)) for s, other in enumerate(specs) if s != plan.seat
    }
    bots[plan.seat] = probe

    def on_fault(fault: Fault) -> None:
        faults.append(FaultEntry(number, game.hand, fault.kind, fault.detail, fault.line, fault.stderr))

    return game, Match(game, bots, on_fault=on_fault)


def _hello(name: str, unnamed: str, faults: list[FaultEntry]) -> str:
    """How an external program answered hello: "named", "no answer" (it died or hung) or "no name"."""
    if name != unnamed:
        return "named"
    if any(f.kind in ("exited", "timeout") for f in faults):
        return "no answer"
    return "no name"


def _outcome(plan: CheckGame, number: int, game: Game, match: Match, faults: list[FaultEntry]) -> GameOutcome:
    """How game `number` went for the checked bot."""
    return GameOutcome(
        number=number,
        seats=plan.seats,
        seat=plan.seat,
        rules=plan.rules.to_dict(),
        about=plan.about,
        opponents=plan.opponents,
        totals=list(game.totals),
        place=places(game.totals)[plan.seat],
        decisions=match.stats[plan.seat].decisions,
        faults=sum(1 for f in faults if f.game == number),
    )


def _reasons(report: CheckReport) -> list[str]:
    """Why the bot fails the check (empty: it passes)."""
    reasons = []
    if report.faults:
        kinds = Counter(f.kind for f in report.faults)
        shown = ", ".join(f"{k} ×{n}" for k, n in sorted(kinds.items()))
        reasons.append(f"{len(report.faults)} fault{'s' if len(report.faults) > 1 else ''} ({shown})")
    slowest = max(report.times, default=0.0)
    if slowest > report.timeout:
        reasons.append(f"its slowest decision took {slowest:.2f} s, over the {report.timeout:g} s limit")
    if not report.times and not report.faults:
        reasons.append("it was never asked to decide")
    if report.starts is not None and report.starts > 1:
        reasons.append(f"the program had to be started {report.starts} times (it died or hung)")
    return reasons


def to_json(report: CheckReport) -> dict[str, Any]:
    """The report as one JSON-ready object (`minodice bot-check --json`)."""
    times = report.time_stats()
    return {
        "spec": report.spec,
        "verdict": report.verdict,
        "reasons": report.reasons,
        "name": report.name,
        "author": report.author,
        "hello": report.hello,
        "hello_name": {"named": True, "no name": False}.get(report.hello),
        "timeout": report.timeout,
        "seed": report.seed,
        "starts": report.starts,
        "decisions": len(report.times),
        "decision_ms": {k: round(v, 3) for k, v in times.items()},
        "faults": [
            {
                "game": f.game, "hand": f.hand, "kind": f.kind, "message": f.message, "line": f.line,
                "stderr": list(f.stderr),
            }
            for f in report.faults
        ],
        "met": report.met,
        "games": [
            {
                "game": g.number,
                "seats": g.seats,
                "seat": g.seat,
                "rules": g.rules,
                "about": g.about,
                "opponents": list(g.opponents),
                "totals": g.totals,
                "place": g.place,
                "decisions": g.decisions,
                "faults": g.faults,
            }
            for g in report.games
        ],
    }


#: Faults listed in the text report (all of them are in --json).
SHOWN_FAULTS = 20


def render(report: CheckReport) -> Group:
    """The report for the terminal."""
    parts: list[Any] = []
    head = Text()
    head.append(f"bot-check {printable(report.spec)}\n", style="bold")
    head.append(f"name: {printable(report.name)}")
    if report.author:
        head.append(f" (by {printable(report.author)})")
    hello = {"named": "answered with a name", "no name": "answered without a name",
             "no answer": "no answer (see the faults)"}.get(report.hello)
    if hello is not None:
        head.append(f"\nhello: {hello}")
    parts.append(head)

    table = Table(title="Games", box=box.SIMPLE_HEAVY)
    for column in ("#", "seats", "bot seat", "rules / position", "opponents", "score", "place", "faults"):
        table.add_column(column, justify="right" if column in ("#", "seats", "bot seat", "score", "place", "faults") else "left")
    for g in report.games:
        table.add_row(
            str(g.number), str(g.seats), str(g.seat), g.about, escape(printable(", ".join(g.opponents))),
            str(g.totals[g.seat]), f"{g.place} of {g.seats}",
            Text(str(g.faults), style="bold red" if g.faults else ""),
        )
    parts.append(table)

    times = report.time_stats()
    info = Text()
    info.append(
        f"decisions: {len(report.times)}; time per decision: mean {times['mean']:.2f} ms, "
        f"p95 {times['p95']:.2f} ms, max {times['max']:.2f} ms (limit {report.timeout:g} s)\n"
    )
    info.append("positions met: " + ", ".join(f"{k} ×{n}" for k, n in report.met.items()) + "\n")
    if report.faults:
        info.append(f"faults ({len(report.faults)}):\n", style="bold red")
        for f in report.faults[:SHOWN_FAULTS]:
            first, *more = f.message.splitlines()
            info.append(f"  game {f.game}, hand {f.hand}: {f.kind}: {printable(first)}")
            if f.line is not None:
                info.append(f" — sent {f.line[:120]!r}")
            info.append("\n")
            for extra in more:
                info.append(f"      {printable(extra)}\n")
            for extra in f.stderr[-STDERR_SHOWN:]:  # why it timed out or exited, often
                info.append(f"      stderr| {printable(extra)}\n", style="dim")
        if len(report.faults) > SHOWN_FAULTS:
            info.append(f"  … and {len(report.faults) - SHOWN_FAULTS} more (see --json)\n")
    parts.append(info)
    verdict = Text()
    if report.passed:
        verdict.append("PASS", style="bold green")
        verdict.append(": no faults, every decision within the time limit")
    else:
        verdict.append("FAIL", style="bold red")
        verdict.append(": " + "; ".join(report.reasons))
    parts.append(verdict)
    return Group(*parts)
