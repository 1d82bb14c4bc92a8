"""`minodice advise` and `minodice trick`: the bid advisor and the trick referee on the command line."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from ..analysis.advisor import OPPONENT_POLICIES, advise, parse_dice
from ..rules import RuleError, Rules
from ..table.referee import parse_held, parse_roll, referee
from ..tui.advice import advice_table
from .options import DEFAULT_VALUES, choice_help

__all__ = ["register"]


def _rules(scoring: str, all_specials: str, all_flags: str) -> Rules:
    try:
        return Rules(scoring=scoring, all_specials=all_specials, all_flags=all_flags)
    except RuleError as e:
        raise typer.BadParameter(str(e)) from None


def register(app: typer.Typer) -> None:
    """Add `advise` and `trick` to the command-line app."""

    @app.command(name="advise")
    def advise_cmd(
        dice: Annotated[list[str], typer.Argument(help="Your dice, e.g. red red griffin gray.")],
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
            help="Stop once every bid's expected score is known to ± this many points (95 %).", min=0.05)] = 1.0,
        seconds: Annotated[float, typer.Option(help="Time budget.", min=0.01)] = 0.8,
        seed: Annotated[int, typer.Option(help="Seed of the simulation (same seed, same answer).")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")] = False,
    ) -> None:
        """Bid advice: chance of each trick count and expected score of each bid for your dice."""
        rules = _rules(scoring, all_specials, all_flags)
        try:
            advice = advise(parse_dice(dice), players, position=position, opponents=opponents, rules=rules,
                            precision=precision, seconds=seconds, seed=seed)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None
        if as_json:
            typer.echo(json.dumps(advice.to_dict()))
            return
        console = Console()
        console.print(advice_table(advice))
        best = next(e for e in advice.bids if e.bid == advice.best)
        console.print(f"Bid [bold]{advice.best}[/]: expected {best.expected:+.1f} points, made {best.made:.0%} "
                      f"of the time. P(t) is the chance of winning t tricks when you play for that bid.")
        note = "" if advice.precise else f" (time budget spent before ± {precision:g} was reached)"
        console.print(f"[dim]Up to {advice.deals} random deals of the unseen dice and {advice.playouts} "
                      f"playouts per bid (each bid until it was known to ± {precision:g}), "
                      f"{advice.seconds:.2f} s{note}.[/]")

    @app.command(name="trick")
    def trick_cmd(
        rolls: Annotated[list[str], typer.Argument(
            help="The rolls in rolling order: die:face (red:6, gray:flag, minotaur:flag) or a special die's "
                 "name for its special face (griffin).")],
        names: Annotated[str | None, typer.Option(help="Players' names in rolling order, comma-separated.")] = None,
        held: Annotated[list[str] | None, typer.Option(
            help="What a roller held before rolling, to check the colour rule: N:die,die,... "
                 "(N = roll number from 1; repeat).")] = None,
        all_specials: Annotated[str, typer.Option(help=choice_help("all_specials"))] = DEFAULT_VALUES["all_specials"],
        all_flags: Annotated[str, typer.Option(help=choice_help("all_flags"))] = DEFAULT_VALUES["all_flags"],
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")] = False,
    ) -> None:
        """Referee a trick rolled with real dice: who wins, why, the bonus, and any broken colour rule."""
        rules = _rules(DEFAULT_VALUES["scoring"], all_specials, all_flags)
        try:
            parsed = [parse_roll(r) for r in rolls]
            holdings = {}
            for item in held or []:
                num, sep, dice = item.partition(":")
                if not sep or not num.strip().isdigit():
                    raise ValueError(f"--held {item!r}: write the roll number, a colon, then the dice, e.g. 2:red,yellow")
                holdings[int(num) - 1] = parse_held(dice)
            name_list = [x.strip() for x in names.split(",")] if names else None
            verdict = referee(parsed, rules, held=holdings, names=name_list)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None
        if as_json:
            typer.echo(json.dumps(verdict.to_dict()))
            return
        typer.echo(verdict.summary())
        if verdict.fouls:
            raise typer.Exit(2)
