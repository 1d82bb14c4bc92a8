"""`minodice advise` and `minodice trick`: the bid advisor and the trick referee on the command line."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..analysis import OPPONENT_POLICIES
from ..dice import Die
from ..table.referee import RefereeError, parse_held, parse_roll, referee
from ..table.refusal import rules_or_refusal
from .options import DEFAULT_VALUES, Finite, choice_help, cut, fail, split_list

__all__ = ["advise_command", "register", "trick_command"]


def advise_command(
    dice: Annotated[list[str], typer.Argument(
        help="Your dice, e.g. red red griffin gray, or red,red,gri,grey: names as typed at a table (grey, r, mino).",
        show_default=False)],
    players: Annotated[int, typer.Option("--players", "-p", help="Players at the table (3-6).")] = 4,
    position: Annotated[int, typer.Option(
        "--position", "--seat",
        help="Your seat counted from the start player, i.e. where you roll in the first trick: "
             "0 = you start, 1 = second, ...")] = 0,
    opponents: Annotated[str, typer.Option(
        help=f"How the others are assumed to bid and play: {', '.join(OPPONENT_POLICIES)}.")] = "greedy",
    scoring: Annotated[str, typer.Option(help=choice_help("scoring"))] = DEFAULT_VALUES["scoring"],
    all_specials: Annotated[str, typer.Option(help=choice_help("all_specials"))] = DEFAULT_VALUES["all_specials"],
    all_flags: Annotated[str, typer.Option(help=choice_help("all_flags"))] = DEFAULT_VALUES["all_flags"],
    precision: Annotated[float, typer.Option(
        help="Stop once every bid's expected score is known to ± this many points (95 %), 0.05 or more.",
        click_type=Finite(0.05))] = 1.0,
    seconds: Annotated[float, typer.Option(help="Time budget, 0.01 to 600.", click_type=Finite(0.01, 600))] = 0.8,
    seed: Annotated[int, typer.Option(help="Seed of the simulation (same seed, same answer).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")] = False,
) -> None:
    """Bid advice: chance of each trick count and expected score of each bid for your dice."""
    try:  # the dice are read as the referee reads them: grey, r, mino; red,red,griffin
        rules = rules_or_refusal(RefereeError, scoring=scoring, all_specials=all_specials, all_flags=all_flags)
        hand = parse_held(",".join(dice))
    except RefereeError as exc:
        fail("advise", str(exc))
    from ..analysis.advisor import advise  # numba: loaded only when advice is asked for
    from ..preparing import preparing
    from ..tui.advice import advice_table

    try:
        with preparing("the bid advisor", 5):  # the first advice of an install compiles it
            advice = advise(hand, players, position=position, opponents=opponents, rules=rules,
                            precision=precision, seconds=seconds, seed=seed)
    except ValueError as e:
        fail("advise", str(e))
    if as_json:
        typer.echo(json.dumps(advice.to_dict()))
        return
    from rich.console import Console

    console = Console()
    console.print(advice_table(advice))
    best = next(e for e in advice.bids if e.bid == advice.best)
    console.print(f"Bid [bold]{advice.best}[/]: expected {best.expected:+.1f} points, made {best.made:.0%} "
                  f"of the time.")
    note = "" if advice.precise else f" (time budget spent before ± {precision:g} was reached)"
    console.print(f"[dim]Up to {advice.deals} random deals of the unseen dice and {advice.playouts} "
                  f"playouts per bid (each bid until it was known to ± {precision:g}), "
                  f"{advice.seconds:.2f} s{note}.[/]")

def trick_command(
    rolls: Annotated[list[str], typer.Argument(
        help="The rolls in rolling order: die:face (red:6, grey:flag, mino:f) or a special die's "
             "name for its special face (griffin). Names as typed at a table: grey, r, mino.",
        show_default=False)],
    names: Annotated[list[str] | None, typer.Option(
        help="Players' names in rolling order: Ana,Ben,Cy or --names Ana --names Ben ...",
        show_default=False)] = None,
    held: Annotated[list[str] | None, typer.Option(
        help="What a roller held before rolling, to check the colour rule: N:die,die,... "
             "(N = roll number from 1; repeat).", show_default=False)] = None,
    all_specials: Annotated[str, typer.Option(help=choice_help("all_specials"))] = DEFAULT_VALUES["all_specials"],
    all_flags: Annotated[str, typer.Option(help=choice_help("all_flags"))] = DEFAULT_VALUES["all_flags"],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")] = False,
) -> None:
    """Referee a trick rolled with real dice: who wins, why, the bonus, and any broken colour rule.

    Exit status: 0 ruled, no foul; 1 ruled, and a roll broke the colour rule (--held); 2 refused:
    input that is no trick of Mino Dice (two minotaurs, more dice held than the bag has...) or wrong use.
    With --json a refusal is printed as {"error": {"code", "message", "params"}}.
    """
    try:
        rules = rules_or_refusal(RefereeError, all_specials=all_specials, all_flags=all_flags)
        parsed = [parse_roll(r) for r in rolls]
        verdict = referee(parsed, rules, held=_holdings(held or [], len(parsed)), names=split_list(names))
    except RefereeError as exc:
        if as_json:
            typer.echo(json.dumps({"error": exc.to_dict()}))
            raise typer.Exit(2) from None
        fail("trick", str(exc))
    from ..codes import printable

    typer.echo(json.dumps(verdict.to_dict()) if as_json else printable(verdict.summary()))
    if verdict.fouls:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add `advise` and `trick` to the command-line app."""
    app.command(name="advise")(advise_command)
    app.command(name="trick")(trick_command)


def _holdings(items: list[str], rolls: int) -> dict[int, list[Die]]:
    """`--held N:DICE` options → held dice by roll index (from 0)."""
    out = {}
    for item in items:
        number, sep, dice = item.partition(":")
        number = number.strip()
        if not sep or not number.isascii() or not number.isdigit():
            raise RefereeError("held_by_number", {"rolls": rolls, "key": cut(number if sep else item, 20, quote=False)})
        if len(number) > 2:  # no trick has 100 rolls (and int() would refuse 4,300 digits)
            raise RefereeError("held_roll_unknown", {"roll": cut(number, 20, quote=False), "rolls": rolls})
        out[int(number) - 1] = parse_held(dice)
    return out
