"""A recorded game reviewed the way a chess engine reviews one: every decision of a seat, judged only
from what that seat could see then, against a searching bot's best choice.

For each bid and each roll with a choice, the analysing bot (`montecarlo` by default) estimates the
expected score of the hand for every alternative (`bots.explain`); the *loss* of a decision is the
best alternative's estimate minus the estimate of the choice made, with its standard error. Each
decision is asked of a fresh bot seeded from the analysis seed and the decision's place in the game,
never from anything hidden: the same seed gives the same analysis, and changing another seat's
unrolled dice changes nothing before they are rolled.

Per hand, the best bid's estimate is what the dice drawn were worth before any decision (`dealt`);
the hand's score is then `dealt` − the decisions' losses + the rest: what the faces rolled gave the
seat (`luck`, measured on the finished hand by `analysis.luck`) and the others' play. The loss of
a choice equal in worth to the best is not exactly 0: the best of several noisy estimates is biased
up by about one standard error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..bots import defaults as D
from ..bots.explain import Explanation, explain
from ..dice import Die
from ..record import record_positions
from ..view import View
from ..workers import start_worker

__all__ = [
    "DEFAULT_BOT",
    "FORMAT",
    "LABELS",
    "THRESHOLDS",
    "Alternative",
    "Analysis",
    "Decision",
    "HandReview",
    "SeatReview",
    "analyze",
    "label_of",
]

#: The analysis document's format name (docs/analysis-format.md).
FORMAT = "minodice-analysis/1"
#: The judge: montecarlo with four times the playouts it uses in play (half the standard errors; a
#: 4-seat game of 8 hands, every seat, ~13 s on one core: benchmarks/bench_analyze.py).
DEFAULT_BOT = f"montecarlo:sims={4 * D.DEFAULT_SIMS},bid_sims={4 * D.DEFAULT_BID_SIMS}"
#: A decision's label by its loss in points of the hand's expected score, worst first (below the
#: last: "fine"; a roll with one legal die: "forced").
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
#: Every label, best first.
LABELS = ("forced", "fine", *reversed([name for name, _ in THRESHOLDS]))


def label_of(loss: float, forced: bool = False) -> str:
    """The label of a decision that lost `loss` points (chess-engine style)."""
    if forced:
        return "forced"
    for name, at_least in THRESHOLDS:
        if loss >= at_least:
            return name
    return "fine"


def _wire(choice: int | Die) -> int | str:
    return choice.value if isinstance(choice, Die) else choice


@dataclass(frozen=True)
class Alternative:
    """One choice the seat had: a bid (int) or a die (its name), its expected hand score, the standard
    error of that estimate and the samples behind it."""

    choice: int | str
    mean: float
    se: float
    n: int


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: a bid (`trick` None) or roll `roll` of trick `trick` of hand `hand`."""

    hand: int
    trick: int | None
    roll: int | None
    seat: int
    kind: str
    made: int | str
    best: int | str
    made_mean: float | None  # None: forced (nothing estimated)
    made_se: float | None
    best_mean: float | None
    best_se: float | None
    loss: float
    loss_se: float
    label: str
    alternatives: tuple[Alternative, ...]

    @property
    def forced(self) -> bool:
        """Whether there was nothing to choose (one legal die)."""
        return self.label == "forced"

    def where(self) -> str:
        """`hand 3, bid` or `hand 3, trick 2, roll 1`."""
        if self.trick is None:
            return f"hand {self.hand}, bid"
        return f"hand {self.hand}, trick {self.trick}, roll {self.roll}"


@dataclass(frozen=True)
class HandReview:
    """One hand of a seat: its score (None: unfinished), what its dice were worth before any
    decision (`dealt`, the best bid's estimate), the decisions' total loss, and what the faces
    rolled gave the seat (`luck`, None while the hand is unfinished: `analysis.luck`)."""

    hand: int
    score: int | None
    dealt: float | None
    dealt_se: float | None
    loss: float
    loss_se: float
    luck: float | None = None


@dataclass(frozen=True)
class SeatReview:
    """Every decision of one seat over the game, and its hands."""

    seat: int
    name: str
    decisions: tuple[Decision, ...]
    hands: tuple[HandReview, ...]

    @property
    def loss(self) -> float:
        """Expected points lost by the decisions over the game."""
        return sum(d.loss for d in self.decisions)

    @property
    def loss_se(self) -> float:
        return math.sqrt(sum(d.loss_se**2 for d in self.decisions))

    @property
    def chosen(self) -> int:
        """Decisions with a choice (forced rolls left out)."""
        return sum(1 for d in self.decisions if not d.forced)

    def mean_loss(self) -> float:
        """Loss per decision with a choice."""
        return self.loss / self.chosen if self.chosen else 0.0

    def worst(self, k: int = 3, hand: int | None = None) -> list[Decision]:
        """The `k` costliest decisions (of hand `hand`, or of the game), costliest first."""
        pool = (d for d in self.decisions if d.loss > 0 and (hand is None or d.hand == hand))
        return sorted(pool, key=lambda d: -d.loss)[:k]

    def counts(self) -> dict[str, int]:
        """Decisions per label."""
        out = dict.fromkeys(LABELS, 0)
        for d in self.decisions:
            out[d.label] += 1
        return out

    def split(self) -> dict[str, float]:
        """The finished hands' score in three parts: what the dice drawn were worth (`dice`), what the
        decisions cost (`decisions`, ≤ 0) and the rest (`rest`), itself what the faces rolled gave
        (`faces`, the luck) and the others' play (`others`)."""
        done = [h for h in self.hands if h.score is not None and h.dealt is not None]
        score = sum(h.score for h in done if h.score is not None)
        dice = sum(h.dealt for h in done if h.dealt is not None)
        lost = sum(h.loss for h in done)
        faces = sum(h.luck for h in done if h.luck is not None)
        rest = score - dice + lost
        return {"score": score, "dice": dice, "decisions": -lost, "rest": rest, "faces": faces, "others": rest - faces}

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name,
            "loss": self.loss, "loss_se": self.loss_se, "decisions_with_a_choice": self.chosen,
            "mean_loss": self.mean_loss(), "counts": self.counts(), "split": self.split(),
            "worst": [self.decisions.index(d) for d in self.worst()],
            "hands": [{**vars(h), "worst": [self.decisions.index(d) for d in self.worst(hand=h.hand)]}
                      for h in self.hands],
            "decisions": [
                {**{k: v for k, v in vars(d).items() if k != "alternatives"},
                 "alternatives": [vars(a) for a in d.alternatives]}
                for d in self.decisions
            ],
        }


@dataclass(frozen=True)
class Analysis:
    """The review of some seats of one game (`to_dict`: the `minodice-analysis/1` document)."""

    bot: str
    seed: str
    seats: tuple[SeatReview, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "bot": self.bot, "seed": self.seed,
            "thresholds": dict(THRESHOLDS),
            "seats": [s.to_dict() for s in self.seats],
        }


# --- the work -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    """One decision to judge: the seat's view then, and what it chose."""

    hand: int
    trick: int | None
    roll: int | None
    seat: int
    view: View
    made: int | Die


def _tasks(record: Mapping[str, Any], seats: Sequence[int]) -> list[_Task]:
    out = []
    for at in record_positions(record):
        if at.trick is None:
            assert isinstance(at.made, tuple)
            for s in seats:
                bid = at.made[s]
                if bid is not None:
                    out.append(_Task(at.hand, None, None, s, at.game.observe(s), bid))
        elif at.seat is not None and at.seat in seats and isinstance(at.made, Die):
            out.append(_Task(at.hand, at.trick, at.roll, at.seat, at.game.observe(at.seat), at.made))
    return out


def judge_refusal(spec: str) -> None:
    """Refuse, before any work, a bot that cannot judge every decision: one that leaves no estimates
    (`BotType.explains`) or, with these options, weighs only some choices (`BotType.weighs_all`); a spec it
    cannot read is a BotSpecError."""
    from ..bots import BUILTIN, BotSpec, parse_spec
    from ..codes import quoted

    parsed = parse_spec(spec)
    if not isinstance(parsed, BotSpec):
        raise ValueError("a judge is a built-in search bot (montecarlo, ismcts, neural+search, oracle), not a program")
    kind = BUILTIN[parsed.name]
    judges = ", ".join(name for name in BUILTIN if BUILTIN[name].explains)
    if not kind.explains:
        raise ValueError(f"{parsed.name} keeps no estimate of the choices it did not make, so it cannot judge "
                         f"decisions: choose one of {judges}")
    if not kind.weighs_all(parsed):
        fixed = f"{spec.strip()}{',' if ':' in spec else ':'}prior=0"
        raise ValueError(f"{quoted(spec.strip())} weighs only some of the choices (its network leaves out the moves "
                         f"it finds implausible), so it cannot judge the others: give it prior=0 ({quoted(fixed, 80)})")


def _judge(task: _Task, spec: str, seed: str) -> Decision:
    """Judge one decision (in a worker process with `jobs` > 1)."""
    legal = task.view.legal or ()
    kind = "bid" if task.trick is None else "roll"
    if len(legal) <= 1:
        return Decision(task.hand, task.trick, task.roll, task.seat, kind, _wire(task.made), _wire(task.made),
                        None, None, None, None, 0.0, 0.0, "forced", ())
    where = f"{seed}:{task.hand}:{task.trick}:{task.roll}:{task.seat}"
    expl: Explanation = explain(task.view, spec, seed=where)
    weighed = [c for c in expl.choices if math.isfinite(c.mean)]
    made = next((c for c in weighed if c.choice == task.made), None)
    if made is None:  # a judge that weighs every choice never leaves one out (`judge_refusal`)
        raise ValueError(f"{spec} did not weigh the choice made at hand {task.hand}: judge with montecarlo")
    best = max(weighed, key=lambda c: c.mean)
    if made.choice == best.choice or made.mean >= best.mean:
        loss, loss_se = 0.0, 0.0
    else:
        loss, loss_se = best.mean - made.mean, math.hypot(best.stderr, made.stderr)
    return Decision(
        task.hand, task.trick, task.roll, task.seat, kind, _wire(task.made), _wire(best.choice),
        made.mean, made.stderr, best.mean, best.stderr, loss, loss_se, label_of(loss),
        tuple(Alternative(_wire(c.choice), c.mean, c.stderr, c.n) for c in expl.choices),
    )


def _judge_star(args: tuple[_Task, str, str]) -> Decision:
    return _judge(*args)


def analyze(
    record: Mapping[str, Any],
    seats: Sequence[int] | None = None,
    spec: str = DEFAULT_BOT,
    seed: object = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Review the decisions of `seats` (default: every seat) of a host record with bot `spec`.

    `jobs` worker processes share the decisions; the result does not depend on it. `progress(done,
    total)` is called as decisions are judged. ValueError for an invalid record, one that hides dice
    or a seat it does not have.
    """
    from .. import record as records
    from ..analysis.luck import face_luck  # the simulator, only when a game is analysed

    judge_refusal(spec)  # BotSpecError for a bad spec, ValueError for a bot that cannot judge, before any work
    n = len(record.get("seats") or ())
    chosen = list(range(n)) if seats is None else list(seats)
    for s in chosen:
        if not 0 <= s < n:
            raise ValueError(f"the record has seats 0 to {n - 1}, not {s}")
    tasks = _tasks(record, chosen)
    key = str(seed)
    done: list[Decision] = []
    if jobs > 1 and len(tasks) > 1:
        import multiprocessing

        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=start_worker) as pool:
            for decision in pool.map(_judge_star, [(t, spec, key) for t in tasks], chunksize=2):
                done.append(decision)
                if progress is not None:
                    progress(len(done), len(tasks))
    else:
        for t in tasks:
            done.append(_judge(t, spec, key))
            if progress is not None:
                progress(len(done), len(tasks))
    scores = [h.get("scores") for h in records.fill(record)["hands"]]
    luck = face_luck(record).hands  # the finished hands only
    names = [str(s["name"]) for s in record["seats"]]
    reviews = []
    for s in chosen:
        mine = tuple(d for d in done if d.seat == s)
        hands = []
        for k in sorted({d.hand for d in mine}):
            of_hand = [d for d in mine if d.hand == k]
            bid = next((d for d in of_hand if d.kind == "bid"), None)
            score = scores[k - 1][s] if k - 1 < len(scores) and scores[k - 1] else None
            hands.append(HandReview(
                k, score,
                bid.best_mean if bid is not None else None, bid.best_se if bid is not None else None,
                sum(d.loss for d in of_hand), math.sqrt(sum(d.loss_se**2 for d in of_hand)),
                luck[k - 1][s] if k - 1 < len(luck) else None,
            ))
        reviews.append(SeatReview(s, names[s], mine, tuple(hands)))
    return Analysis(spec, key, tuple(reviews))
