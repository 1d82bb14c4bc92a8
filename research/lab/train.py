"""`python -m research.lab train`: `minodice train`'s PPO with the lab's flags `--against`, `--guide` and `--recall`.

The options it shares with `minodice train` are that command's own declarations (`PRODUCT`), so their
help and checks stay the product's; the run is the product's too (`minodice.cli.train.run_ppo`) with the
lab's trainer (`research.lab.ppo.LabTrainer`). Expert iteration is `minodice train --expert`.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, get_type_hints

import typer

from minodice.cli import train as product
from minodice.cli.errors import fail

if TYPE_CHECKING:
    from minodice.bots.network import PolicyValueNet

__all__ = ["PRODUCT", "register", "train"]

#: `minodice train`'s options, each as declared there (type and typer option), by parameter name.
PRODUCT = get_type_hints(product.train, include_extras=True)
#: The options the lab's train shares with it.
Out, Seed, Updates, Minutes, Seats, Hidden, Checkpoints, Every, Start = (
    PRODUCT[name] for name in ("out", "seed", "updates", "minutes", "seats", "hidden", "checkpoints", "every", "start"))

_parse_tables = partial(product.parse_tables, kinds=3)


def _default_tables() -> str:
    """`--tables`'s defaults, without and with --against."""
    from minodice.bots.defaults import DEFAULT_TABLES

    from .ppo import DEFAULT_AGAINST_TABLES

    return f"{','.join(map(str, (*DEFAULT_TABLES, 0)))}; with --against {','.join(map(str, DEFAULT_AGAINST_TABLES))}"


def train(
    out: Out = Path("neural.npz"),
    seed: Seed = 0,
    updates: Updates = None,
    minutes: Minutes = None,
    seats: Seats = 4,
    hidden: Hidden = None,
    recall: Annotated[bool, typer.Option(help="The network sees the hand's recall (observation version 2): the "
                                         "dice each seat has rolled this hand and the colours it has shown it "
                                         "lacks; a --from network of the first version grows those inputs, with "
                                         "no weight. --no-recall: the first version's inputs for a new network, "
                                         "a --from one's own, as `minodice train` (the shipped networks).")] = False,
    checkpoints: Checkpoints = None,
    every: Every = 10,
    start: Start = None,
    against: Annotated[Path | None, typer.Option(help="Also seat the network against this fixed network in every "
                                                 "other seat (its likeliest moves), at the third kind of --tables; "
                                                 "each evaluation then also gives its lead over it.")] = None,
    guide: Annotated[int, typer.Option(help="Oracle guiding: for the first N updates the network also sees the "
                                       "dice every other seat holds, at each decision with a chance falling from "
                                       "1 to 0; after that, and in the file written, it plays without them. A "
                                       "new network needs --recall.", min=0)] = 0,
    tables: Annotated[str | None, typer.Option(help=f"Tables an update plays: self-play, against greedy, against "
                                               f"--against, separated by commas [default: {_default_tables()}].",
                                               show_default=False, callback=product.checked(_parse_tables))] = None,
) -> None:
    """Train the `neural` bot by `minodice train`'s PPO with the lab's experiments: tables against a fixed
    network (--against), oracle guiding (--guide), a network that reads the hand's recall (--recall).
    Expert iteration is the product's: `minodice train --expert`.

    Prints, at every evaluation, the decisions trained on and the network's lead over greedy bots (and over
    the --against network). Exit status: 0 done; 2 an option or the --from or --against file is wrong.
    """
    from minodice.bots.defaults import DEFAULT_HIDDEN, DEFAULT_TABLES

    from .ppo import DEFAULT_AGAINST_TABLES, LabConfig, LabTrainer

    widths = product.parse_hidden(hidden) if hidden is not None else None
    refusal = product.misplaced(new_shape=["--hidden"] if widths is not None else [], ppo_only=[], expert_only=[],
                                start=start is not None, expert=False, data=False)
    if refusal is None and guide and not recall:
        refusal = "--guide trains a network that sees the hand's recall: add --recall"
    counts = _parse_tables(tables) if tables is not None else DEFAULT_AGAINST_TABLES if against else (
        *DEFAULT_TABLES, 0)
    if refusal is None and (against is None) != (counts[2] == 0):
        refusal = ("the third of --tables plays against a fixed network: give it with --against" if against is None
                   else "--against needs tables to play it at: the third of --tables must be above 0")
    if refusal:
        fail("train", refusal)
    cfg = LabConfig(seed=seed, seats=seats, hidden=widths or DEFAULT_HIDDEN, selfplay_envs=counts[0],
                    greedy_envs=counts[1], recall=recall, against_envs=counts[2],
                    against=None if against is None else str(against), guide=guide)
    product.run_ppo(cfg, out, updates=updates, minutes=minutes, checkpoints=checkpoints, every=every, start=start,
                    check=partial(_check, start=start, against=against, guide=guide), make_trainer=LabTrainer,
                    report=_report)


def _check(net: PolicyValueNet | None, *, start: Path | None, against: Path | None, guide: int) -> None:
    """The lab's files, before any training (ValueError in words): a guided --from network must read the
    recall already, and the --against network must load."""
    from minodice.bots.network import load_network

    if guide and net is not None and not net.recall:
        raise ValueError(f"--guide trains a network that sees the hand's recall; {start} is of the first version "
                         "(train it on with --recall first)")
    if against is not None:
        load_network(against)


def _report(entry: dict) -> None:
    """The product's line for an evaluation, with the lead over the --against network if there is one."""
    fixed = (f"  over --against {entry['against_lead']:+6.1f} ± {entry['against_ci95']:.1f}"
             if "against_lead" in entry else "")
    typer.echo(product.progress_line(entry) + fixed)


def register(app: typer.Typer) -> None:
    """Add the lab's `train` to a command-line app."""
    app.command()(train)
