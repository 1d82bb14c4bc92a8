"""`minodice train`: train the learned bot by self-play (numpy; no deep-learning framework)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from ..dice import MAX_SEATS, MIN_SEATS

__all__ = ["MAX_EXPERT_GAMES", "MAX_TABLES", "register", "train"]

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


def _checked(parse: Callable[[str], object]) -> Callable[[str | None], str | None]:
    """typer's check of an option that `parse` reads (so its BadParameter message names the option)."""
    def check(text: str | None) -> str | None:
        if text is not None:
            parse(text)
        return text

    return check


def parse_tables(text: str) -> tuple[int, int, int]:
    """`--tables` ("96,32,128": self-play, against greedy, against --against), or BadParameter in words."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise typer.BadParameter(f"give three whole numbers separated by commas, e.g. 96,32,128 (not {text!r})")
    counts = (int(parts[0]), int(parts[1]), int(parts[2]))
    if max(counts) > MAX_TABLES:
        raise typer.BadParameter(f"each count is 0 to {MAX_TABLES:,} tables (not {text!r})")
    if not sum(counts):
        raise typer.BadParameter(f"at least one table is needed (not {text!r})")
    return counts


def _default_tables() -> str:
    """`--tables`'s defaults, without and with --against (from the light defaults module)."""
    from ..bots.defaults import DEFAULT_AGAINST_TABLES, DEFAULT_TABLES

    return f"{','.join(map(str, DEFAULT_TABLES))}; with --against {','.join(map(str, DEFAULT_AGAINST_TABLES))}"


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
    minutes: Annotated[float | None, typer.Option(help="Or: train for this long (not reproducible).", min=0.01)] = None,
    seats: Annotated[int, typer.Option(help="Players at the training tables.", min=MIN_SEATS, max=MAX_SEATS)] = 4,
    hidden: Annotated[str | None, typer.Option(help=f"The new network's hidden layers, their widths separated by "
                                               f"commas [default: {_default_hidden()}]; a --from network keeps "
                                               "its own.", show_default=False, callback=_checked(parse_hidden))] = None,
    recall: Annotated[bool, typer.Option(help="The new network sees the hand's recall: the dice each seat has "
                                         "rolled this hand and the colours it has shown it lacks. --no-recall: "
                                         "the first version's inputs (the shipped networks).")] = True,
    checkpoints: Annotated[Path | None, typer.Option(help="Save a checkpoint and a log line (log.jsonl) here at "
                                                     "every evaluation.")] = None,
    every: Annotated[int, typer.Option(help="Updates between evaluations against greedy.", min=1)] = 10,
    start: Annotated[Path | None, typer.Option("--from", help="Train on from this network instead of fresh "
                                               "weights.")] = None,
    against: Annotated[Path | None, typer.Option(help="Also seat the network against this fixed network in every "
                                                 "other seat (its likeliest moves), at the third kind of --tables; "
                                                 "each evaluation then also gives its lead over it.")] = None,
    guide: Annotated[int, typer.Option(help="Oracle guiding: for the first N updates the network also sees the "
                                       "dice every other seat holds, at each decision with a chance falling from "
                                       "1 to 0; after that, and in the file written, it plays without them.",
                                       min=0)] = 0,
    tables: Annotated[str | None, typer.Option(help=f"Tables an update plays: self-play, against greedy, against "
                                               f"--against, separated by commas [default: {_default_tables()}].",
                                               show_default=False, callback=_checked(parse_tables))] = None,
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
    """Train the `neural` bot: PPO in self-play tables and against greedy bots (and a fixed network, with
    --against; seeing the other seats' dice at first, with --guide), in the vector environment.

    Prints, at every evaluation, the decisions trained on and the network's lead over greedy bots (and over
    the --against network). Exit status: 0 done; 2 an option or the --from or --against file is wrong.
    """
    from ..bots.defaults import DEFAULT_HIDDEN

    widths = parse_hidden(hidden) if hidden is not None else None
    refusal = _misplaced(new_shape=[name for name, given in (("--hidden", widths is not None),
                                                             ("--no-recall", not recall)) if given],
                         ppo_only=[name for name, given in (("--against", against is not None),
                                                            ("--tables", tables is not None), ("--guide", guide > 0))
                                   if given],
                         expert_only=[name for name, given in (("--keep", keep is not None),
                                                               ("--opponent", opponent is not None)) if given],
                         start=start is not None, expert=expert is not None, data=bool(data), guide=guide > 0,
                         recall=recall)
    if refusal:
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    if expert is not None or data:
        _expert(expert, out, seed=seed, seats=seats, start=start, games=games, epochs=epochs, jobs=jobs,
                keep=keep, saved=data or [], opponent=opponent)
        return
    _ppo(out, seed=seed, updates=updates, minutes=minutes, seats=seats, hidden=widths or DEFAULT_HIDDEN,
         recall=recall, checkpoints=checkpoints, every=every, start=start, against=against, tables=tables,
         guide=guide)


def _misplaced(*, new_shape: list[str], ppo_only: list[str], expert_only: list[str], start: bool, expert: bool,
               data: bool, guide: bool, recall: bool) -> str | None:
    """Why the options given do not go together (None if they do): each kind of training takes its own."""
    def verb(names: list[str]) -> str:
        return f"{' and '.join(names)} shape{'s' if len(names) == 1 else ''}"

    if new_shape and (start or expert or data):
        return f"{verb(new_shape)} a new network: --from, --expert and --data train an existing one"
    if ppo_only and (expert or data):
        return f"{verb(ppo_only)} PPO's training: --expert and --data train on a search's games instead"
    if guide and not recall:
        return "--guide trains a network that sees the hand's recall: leave out --no-recall"
    if expert and data:
        return "give --expert (play games) or --data (train on saved ones), not both"
    if expert_only and not expert:
        flag = expert_only[0]
        if data:
            return f"{flag} goes with --expert: --data trains on decisions already played"
        why = {"--keep": "it writes the games' decisions",
               "--opponent": "the bot the search plays against; PPO's fixed opponent is --against"}
        return f"{flag} goes with --expert ({why[flag]})"
    return None


def _ppo(out: Path, *, seed: int, updates: int | None, minutes: float | None, seats: int, hidden: tuple[int, ...],
         recall: bool, checkpoints: Path | None, every: int, start: Path | None, against: Path | None,
         tables: str | None, guide: int) -> None:
    """PPO (`learn.train`): its options checked in words, then the run, a line at every evaluation."""
    from ..bots.defaults import DEFAULT_AGAINST_TABLES, DEFAULT_TABLES
    from ..bots.neural import load_network
    from ..codes import printable
    from ..learn import TrainConfig
    from ..learn import train as run

    if (updates is None) == (minutes is None):
        typer.echo("error: give --updates (reproducible) or --minutes", err=True)
        raise typer.Exit(2)
    counts = parse_tables(tables) if tables is not None else DEFAULT_AGAINST_TABLES if against else DEFAULT_TABLES
    if (against is None) != (counts[2] == 0):
        typer.echo("error: the third of --tables plays against a fixed network: give it with --against"
                   if against is None else "error: --against needs tables to play it at: the third of --tables "
                   "must be above 0", err=True)
        raise typer.Exit(2)
    try:
        net = load_network(start) if start is not None else None
        if guide and net is not None and not net.recall:
            raise ValueError(f"--guide trains a network that sees the hand's recall; {start} is of the first "
                             "version (--no-recall)")
        if against is not None:
            load_network(against)
        _writable(out)
        if checkpoints is not None:
            _writable(checkpoints / "log.jsonl")
    except (ValueError, OSError) as exc:
        typer.echo(printable(f"error: {exc}"), err=True)
        raise typer.Exit(2) from None

    cfg = TrainConfig(seed=seed, seats=seats, hidden=hidden, recall=recall,
                      selfplay_envs=counts[0], greedy_envs=counts[1], against_envs=counts[2],
                      against=None if against is None else str(against), guide=guide)
    run(cfg, out, updates=updates, minutes=minutes, checkpoints=checkpoints, every=every,
        start=None if net is None else net.copy(), report=_report)
    typer.echo(f"wrote {out}")


def _report(entry: dict) -> None:
    """One line for an evaluation of a PPO run (its `log.jsonl` entry)."""
    over_fixed = f"  over --against {entry['against_lead']:+6.1f} ± {entry['against_ci95']:.1f}" \
        if "against_lead" in entry else ""
    typer.echo(f"update {entry['update']:5d}  {entry['decisions']:>11,} decisions  {entry['seconds']:7.0f} s  "
               f"lead over greedy {entry['greedy_lead']:+6.1f} ± {entry['greedy_ci95']:.1f}{over_fixed}")


def _expert(spec: str | None, out: Path, *, seed: int, seats: int, start: Path | None, games: int, epochs: int,
            jobs: int, keep: Path | None, saved: list[Path], opponent: str | None = None) -> None:
    """Expert iteration's supervised step (`learn.expert`): the search bot's games (or decisions saved by --keep),
    then the network trained on them; its agreement with the search and its value error on the last tenth of
    the games (held out)."""
    from ..bots.neural import load_network
    from ..codes import printable
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
        typer.echo(printable(f"error: {exc}"), err=True)
        raise typer.Exit(2) from None
    net = net.copy()  # the shipped or cached network stays as it is
    if loaded is None:
        against = "" if opponent is None else f" against {seats - 1} {opponent}"
        typer.echo(f"playing {games} games of {spec} at {seats} seats{against} ...")
        loaded = collect(str(spec), games, seats=seats, seed=seed, jobs=jobs, opponent=opponent)
        if keep is not None:
            loaded.save(str(keep))
            typer.echo(f"wrote the {len(loaded):,} decisions to {keep}")
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
    typer.echo(f"wrote {out}")


def _check_built_in(flag: str, spec: str | None) -> None:
    """Refuse a `flag` bot that is not a built-in one, or not a valid spec (ValueError naming the flag)."""
    from ..bots import BotSpecError, make_bot

    if spec is None:
        return
    if spec.startswith("cmd:"):
        raise ValueError(f"{flag} takes a built-in bot (it plays many games), not a program")
    try:
        make_bot(spec)
    except BotSpecError as exc:
        raise ValueError(f"{flag}: {exc}") from None


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
