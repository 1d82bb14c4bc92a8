"""`minodice train`: train the learned bot by self-play (numpy; no deep-learning framework)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..dice import MAX_SEATS, MIN_SEATS
from .errors import NOTHING_SAVED, fail, interrupted
from .options import Finite

if TYPE_CHECKING:
    from ..bots.network import PolicyValueNet
    from ..learn import TrainConfig, Trainer

__all__ = [
    "MAX_EXPERT_GAMES", "MAX_TABLES", "checked", "misplaced", "parse_hidden", "parse_tables", "progress_line", "register",
    "run_ppo", "train",
]

#: The most games `--expert` plays in one run (their decisions are held in memory: about 0.2 MB a 4-seat game).
MAX_EXPERT_GAMES = 5_000
#: `--hidden`: at most this many hidden layers, each of MIN_WIDTH to MAX_WIDTH units.
MAX_LAYERS, MIN_WIDTH, MAX_WIDTH = 4, 8, 1024
#: `--tables`: at most this many tables of each kind (an update holds every table's decisions in memory).
MAX_TABLES = 4096


def parse_hidden(text: str) -> tuple[int, ...]:
    """`--hidden` ("256,256": the hidden layers' widths), or BadParameter in words."""
    parts = [p.strip() for p in text.split(",")]
    if not 1 <= len(parts) <= MAX_LAYERS or not all(p.isdigit() and len(p) <= 5 for p in parts):
        raise typer.BadParameter(f"give 1 to {MAX_LAYERS} widths separated by commas, e.g. 256,256 (not {text!r})")
    widths = tuple(int(p) for p in parts)
    if not all(MIN_WIDTH <= w <= MAX_WIDTH for w in widths):
        raise typer.BadParameter(f"each width is {MIN_WIDTH} to {MAX_WIDTH} units (not {text!r})")
    return widths


def checked(parse: Callable[[str], object]) -> Callable[[str | None], str | None]:
    """typer's check of an option that `parse` reads (so its BadParameter message names the option)."""
    def check(text: str | None) -> str | None:
        if text is not None:
            parse(text)
        return text

    return check


def parse_tables(text: str, kinds: int = 2) -> tuple[int, ...]:
    """`--tables` ("192,64": self-play, against greedy; the lab's has a third kind), or BadParameter in words."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != kinds or not all(p.isdigit() for p in parts):
        example = ",".join(("192", "64", "128")[:kinds])
        raise typer.BadParameter(f"give {('two', 'three')[kinds - 2]} whole numbers separated by commas, e.g. "
                                 f"{example} (not {text!r})")
    counts = tuple(int(p) for p in parts)
    if max(counts) > MAX_TABLES:
        raise typer.BadParameter(f"each count is 0 to {MAX_TABLES:,} tables (not {text!r})")
    if not sum(counts):
        raise typer.BadParameter(f"at least one table is needed (not {text!r})")
    return counts


def _default_tables() -> str:
    """`--tables`'s defaults (from the light defaults module)."""
    from ..bots.defaults import DEFAULT_TABLES

    return ",".join(map(str, DEFAULT_TABLES))


def _default_hidden() -> str:
    """The network's default hidden layers, as `--hidden` writes them (from the light defaults module)."""
    from ..bots.defaults import DEFAULT_HIDDEN

    return ",".join(str(w) for w in DEFAULT_HIDDEN)


def train(
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the trained network (.npz); play it "
                                      "with --bot neural:weights=PATH.")] = Path("neural.npz"),
    seed: Annotated[int, typer.Option(help="Seed of the tables, the sampling and the first weights: the same seed "
                                      "and --updates give the same network on this machine.")] = 0,
    updates: Annotated[int | None, typer.Option(help="Updates to run (reproducible).", min=1)] = None,
    minutes: Annotated[float | None, typer.Option(help="Or: train for this long (not reproducible).",
                                                  click_type=Finite(0.01))] = None,
    seats: Annotated[int, typer.Option(help="Players at the training tables.", min=MIN_SEATS, max=MAX_SEATS)] = 4,
    hidden: Annotated[str | None, typer.Option(help=f"The new network's hidden layers, their widths separated by "
                                               f"commas [default: {_default_hidden()}]; a --from network keeps "
                                               "its own.", show_default=False, callback=checked(parse_hidden))] = None,
    checkpoints: Annotated[Path | None, typer.Option(help="Save a checkpoint and a log line (log.jsonl) here at "
                                                     "every evaluation.")] = None,
    every: Annotated[int, typer.Option(help="Updates between evaluations against greedy.", min=1)] = 10,
    start: Annotated[Path | None, typer.Option("--from", help="Train on from this network instead of fresh "
                                               "weights.")] = None,
    tables: Annotated[str | None, typer.Option(help=f"Tables an update plays: self-play, and against greedy, "
                                               f"separated by commas [default: {_default_tables()}].",
                                               show_default=False, callback=checked(parse_tables))] = None,
    expert: Annotated[str | None, typer.Option(help="Expert iteration instead of PPO: play --games games with this "
                                               "search bot at every seat (or against --opponent), then train the "
                                               "network (--from, else the shipped one) on its moves and hand "
                                               "scores.")] = None,
    opponent: Annotated[str | None, typer.Option(help="With --expert: seat this bot in every other seat (the search "
                                                 "bot takes each seat in turn) and train only on the search bot's "
                                                 "decisions, at the table it is to play at.")] = None,
    games: Annotated[int, typer.Option(help="With --expert: games to play (game i dealt from seed --seed + i).",
                                       min=1, max=MAX_EXPERT_GAMES)] = 200,
    epochs: Annotated[int, typer.Option(help="With --expert: passes over the decisions.", min=1)] = 4,
    jobs: Annotated[int, typer.Option(help="With --expert: processes playing the games.", min=1)] = 1,
    keep: Annotated[Path | None, typer.Option(help="With --expert: also write the games' decisions here (.npz), "
                                              "to train on again with --data without playing them.")] = None,
    data: Annotated[list[Path] | None, typer.Option(help="Expert iteration on decisions written by --keep instead "
                                                    "of playing games (repeat to join files).")] = None,
) -> None:
    """Train the `neural` bot: by PPO against itself and greedy bots, or on a search bot's games (--expert).

    PPO plays self-play tables and tables against greedy bots in the vector environment (a new network
    reads the shipped networks' inputs: `--seed 1 --updates 1000` is how the 4-seat one was trained);
    expert iteration trains on a search bot's games (--expert) or on decisions kept from them (--data).

    Prints, at every evaluation, the decisions trained on and the network's lead over greedy bots. Exit
    status: 0 done; 2 an option or the --from file is wrong; 130 interrupted (the line says what was saved).
    """
    from ..bots.defaults import DEFAULT_HIDDEN, DEFAULT_TABLES

    widths = parse_hidden(hidden) if hidden is not None else None
    refusal = misplaced(new_shape=["--hidden"] if widths is not None else [],
                        ppo_only=["--tables"] if tables is not None else [],
                        expert_only=[name for name, given in (("--keep", keep is not None),
                                                              ("--opponent", opponent is not None)) if given],
                        start=start is not None, expert=expert is not None, data=bool(data))
    if refusal:
        fail("train", refusal)
    if expert is not None or data:
        _expert(expert, out, seed=seed, seats=seats, start=start, games=games, epochs=epochs, jobs=jobs,
                keep=keep, saved=data or [], opponent=opponent)
        return
    from ..learn import TrainConfig

    counts = parse_tables(tables) if tables is not None else DEFAULT_TABLES
    cfg = TrainConfig(seed=seed, seats=seats, hidden=widths or DEFAULT_HIDDEN, selfplay_envs=counts[0],
                      greedy_envs=counts[1])
    run_ppo(cfg, out, updates=updates, minutes=minutes, checkpoints=checkpoints, every=every, start=start)


def misplaced(*, new_shape: list[str], ppo_only: list[str], expert_only: list[str], start: bool, expert: bool,
              data: bool) -> str | None:
    """Why the options given do not go together (None if they do): each kind of training takes its own."""
    def verb(names: list[str]) -> str:
        return f"{' and '.join(names)} shape{'s' if len(names) == 1 else ''}"

    if new_shape and (start or expert or data):
        return f"{verb(new_shape)} a new network: --from, --expert and --data train an existing one"
    if ppo_only and (expert or data):
        return f"{verb(ppo_only)} PPO's training: --expert and --data train on a search's games instead"
    if expert and data:
        return "give --expert (play games) or --data (train on saved ones), not both"
    if expert_only and not expert:
        flag = expert_only[0]
        if data:
            return f"{flag} goes with --expert: --data trains on decisions already played"
        why = {"--keep": "it writes the games' decisions",
               "--opponent": "the bot the search plays against; PPO plays against itself and greedy"}
        return f"{flag} goes with --expert ({why[flag]})"
    return None


def run_ppo(cfg: TrainConfig, out: Path, *, updates: int | None, minutes: float | None, checkpoints: Path | None,
            every: int, start: Path | None, check: Callable[[PolicyValueNet | None], None] | None = None,
            make_trainer: Callable[[TrainConfig, PolicyValueNet | None], Trainer] | None = None,
            report: Callable[[dict], None] | None = None) -> None:
    """PPO (`learn.train`) from `cfg`: the files checked in words first (exit 2: the --from network, which
    `check` may refuse too, and the places written to), then the run, a line at every evaluation. The lab's
    train (`research/lab`) passes its own `check`, `make_trainer` and `report`."""
    from ..bots.neural import load_network
    from ..learn import Trainer
    from ..learn import train as run

    if (updates is None) == (minutes is None):
        fail("train", "give --updates (reproducible) or --minutes")
    try:
        net = load_network(start) if start is not None else None
        if check is not None:
            check(net)
        _writable(out)
        if checkpoints is not None:
            _writable(checkpoints / "log.jsonl")
    except (ValueError, OSError) as exc:
        fail("train", str(exc))
    try:
        run(cfg, out, updates=updates, minutes=minutes, checkpoints=checkpoints, every=every,
            start=None if net is None else net.copy(), report=report or _report,
            make_trainer=make_trainer or Trainer)
    except KeyboardInterrupt:
        kept = (f"the evaluations' checkpoints and log are in {checkpoints}" if checkpoints is not None
                else "the network was not written (--checkpoints keeps one at every evaluation)")
        interrupted("train", kept)
    typer.echo(f"wrote {out}")


def progress_line(entry: dict) -> str:
    """One line for an evaluation of a PPO run (its `log.jsonl` entry): decisions, time, lead over greedy."""
    return (f"update {entry['update']:5d}  {entry['decisions']:>11,} decisions  {entry['seconds']:7.0f} s  "
            f"lead over greedy {entry['greedy_lead']:+6.1f} ± {entry['greedy_ci95']:.1f}")


def _report(entry: dict) -> None:
    """Print an evaluation's `progress_line`."""
    typer.echo(progress_line(entry))


def _expert(spec: str | None, out: Path, *, seed: int, seats: int, start: Path | None, games: int, epochs: int,
            jobs: int, keep: Path | None, saved: list[Path], opponent: str | None = None) -> None:
    """Expert iteration's supervised step (`learn.expert`): the search bot's games (or decisions saved by --keep),
    then the network trained on them; its agreement with the search and its value error on the last tenth of
    the games (held out)."""
    from ..bots.neural import load_network
    from ..learn.expert import ExpertData, collect, evaluate, fit, held_out

    loaded = None
    try:
        for flag, given in (("--expert", spec), ("--opponent", opponent)):
            _check_built_in(flag, given)
        net = load_network(start, seats=seats)
        if out.resolve() in {p.resolve() for p in (*saved, *([keep] if keep else []))}:
            raise ValueError(f"--out {out} would overwrite the decisions: write the network to another file")
        for path in (out, keep):
            if path is not None:
                _writable(path)
        if saved:
            loaded = ExpertData.load(*map(str, saved))
            if not len(loaded):
                raise ValueError("the decision files hold no decisions")
    except (ValueError, OSError) as exc:
        fail("train", str(exc))
    net = net.copy()  # the shipped or cached network stays as it is
    kept = NOTHING_SAVED
    try:
        if loaded is None:
            against = "" if opponent is None else f" against {seats - 1} {opponent}"
            typer.echo(f"playing {games} games of {spec} at {seats} seats{against} ...")
            loaded = collect(str(spec), games, seats=seats, seed=seed, jobs=jobs, opponent=opponent)
            if keep is not None:
                loaded.save(str(keep))
                typer.echo(f"wrote the {len(loaded):,} decisions to {keep}")
                kept = f"the games' decisions are in {keep} (train on them with --data)"
        held = held_out(loaded)
        train_on, test = loaded.subset(~held), loaded.subset(held)
        if not len(test) or not len(train_on):
            train_on = test = loaded
        before = evaluate(net, test)
        fit(net, train_on, epochs=epochs, seed=seed)
        after = evaluate(net, test)
        for name, b in before.items():
            typer.echo(f"held-out {name:12s} {b:8.4f} -> {after[name]:8.4f}")
        source = ({"spec": spec, "opponent": opponent, "games": games} if not saved
                  else {"data": [p.name for p in saved], "games": len(set(loaded.game.tolist()))})
        net.meta.update({"expert": {**source, "epochs": epochs, "seed": seed, "decisions": int((~held).sum())}})
        net.save(out)
    except KeyboardInterrupt:
        interrupted("train", kept)
    typer.echo(f"wrote {out}")


def _check_built_in(flag: str, spec: str | None) -> None:
    """Refuse a `flag` bot that is not a built-in one, or not a valid spec (ValueError naming the flag)."""
    from ..bots import BotSpecError, ExternalSpec, parse_spec

    if spec is None:
        return
    try:
        parsed = parse_spec(spec)
    except BotSpecError as exc:
        raise ValueError(f"{flag}: {exc}") from None
    if isinstance(parsed, ExternalSpec):
        raise ValueError(f"{flag} takes a built-in bot (it plays many games), not a program")


def _writable(path: Path) -> None:
    """Refuse, before any training, a place the result could not be written to (ValueError saying why)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot make the folder {path.parent}: {exc.strerror or exc}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise ValueError(f"cannot write {path}: permission denied")
    try:  # a trial file: os.access says yes to root, and to folders such as /proc that take no new files
        with tempfile.NamedTemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None


def register(app: typer.Typer) -> None:
    """Add `train` to the command-line app."""
    app.command()(train)
