"""The trick referee against RULES.md's rules and decisions, and its command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from minodice.cli import app
from minodice.table.referee import parse_held, parse_roll, referee
from minodice.dice import Die, Face
from minodice.rules import Rules


def judge(*rolls: str, rules: Rules | None = None, **kw):
    return referee([parse_roll(r) for r in rolls], rules, **kw)


@pytest.mark.parametrize(
    ("rolls", "winner", "bonus"),
    [
        (("red:6", "griffin", "gray:flag"), 1, 0),  # a special face beats every number
        (("griffin", "minotaur", "red:7"), 1, 30),  # minotaur beats griffin: +30 per griffin face
        (("griffin", "minotaur", "griffin", "yellow:3"), 1, 60),
        (("mermaid", "griffin", "red:7"), 1, 0),  # griffin beats mermaid
        (("minotaur", "mermaid", "red:7"), 1, 50),  # mermaid beats minotaur: +50
        (("minotaur:flag", "mermaid", "red:7"), 1, 0),  # a minotaur die showing a flag is just a 0
        (("minotaur", "griffin", "mermaid"), 2, 50),  # all three: the mermaid (decision), +50
        (("red:6", "yellow:5", "red:6"), 2, 0),  # equal numbers: the later roll wins
        (("mermaid", "mermaid", "purple:3"), 1, 0),  # equal specials: the later roll wins
        (("gray:flag", "gray:flag", "minotaur:flag"), 0, 0),  # all flags: the first roller (decision)
        (("gray:flag", "purple:1", "gray:flag"), 1, 0),  # a flag is 0 and loses to any number
    ],
)
def test_rulings_follow_the_rules(rolls: tuple[str, ...], winner: int, bonus: int) -> None:
    v = judge(*rolls)
    assert (v.winner, v.bonus) == (winner, bonus)
    assert v.names[winner] in v.summary()


def test_rule_options_change_the_ruling() -> None:
    assert judge("minotaur", "griffin", "mermaid", rules=Rules(all_specials="minotaur")).winner == 0
    assert judge("minotaur", "griffin", "mermaid", rules=Rules(all_specials="griffin")).winner == 1
    assert judge("gray:flag", "gray:flag", "mermaid:flag", rules=Rules(all_flags="last")).winner == 2


def test_explanations_say_why() -> None:
    assert "the minotaur beats the griffin" in judge("griffin", "minotaur").summary()
    assert "later roll wins" in judge("red:6", "red:6", "gray:1").summary()
    assert "every face is a flag" in judge("gray:flag", "gray:flag", "gray:flag").summary()
    assert "+50" in judge("minotaur", "mermaid", "gray:1").summary()


def test_lead_colour_comes_from_the_first_number_die_whatever_it_shows() -> None:
    assert judge("griffin", "gray:flag", "red:5").lead is Die("gray")
    assert judge("griffin", "mermaid", "minotaur").lead is None


def test_colour_rule_fouls_are_flagged_only_when_the_held_dice_are_known() -> None:
    v = judge("red:6", "yellow:5", "griffin", names=["Ana", "Ben", "Cy"],
              held={1: parse_held("yellow,red"), 2: parse_held("griffin,red")})
    assert len(v.fouls) == 1 and "Ben rolled yellow while holding red" in v.fouls[0]
    assert "Foul" in v.summary()
    # Holding no die of the lead colour, any die may be rolled; a special die always may.
    assert not judge("red:6", "yellow:5", held={1: parse_held("yellow,purple")}).fouls
    assert not judge("red:6", "mermaid", held={1: parse_held("mermaid,red")}).fouls
    # A special lead sets no colour.
    assert not judge("griffin", "yellow:5", held={1: parse_held("yellow,red")}).fouls


def test_impossible_input_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="no face '3'"):
        parse_roll("red:3")
    with pytest.raises(ValueError, match="not a die"):
        parse_roll("blue:3")
    with pytest.raises(ValueError, match="say which face"):
        parse_roll("red")
    with pytest.raises(ValueError, match="one roll per player"):
        judge("red:6")
    with pytest.raises(ValueError, match="one roll per player"):
        judge(*["red:6"] * 7)
    with pytest.raises(ValueError, match="said to hold only"):
        judge("red:6", "yellow:5", held={1: parse_held("red")})
    with pytest.raises(ValueError, match="2 names for 3 rolls"):
        judge("red:6", "yellow:5", "gray:1", names=["a", "b"])
    assert parse_roll("minotaur") == (Die("minotaur"), Face.MINOTAUR)


def test_trick_command() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["trick", "red:6", "griffin", "gray:flag", "--names", "Ana,Ben,Cy"])
    assert out.exit_code == 0 and "Ben wins the trick with the griffin" in out.output
    out = runner.invoke(app, ["trick", "red:6", "yellow:5", "--held", "2:yellow,red", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["winner"] == 0 and data["fouls"] and data["lead"] == "red"
    out = runner.invoke(app, ["trick", "red:6", "yellow:5", "--held", "2:yellow,red"])
    assert out.exit_code == 2 and "Foul" in out.output  # a foul is worth a non-zero exit for scripts
    out = runner.invoke(app, ["trick", "red:3", "griffin"])
    assert out.exit_code != 0 and "no face" in out.output
    out = runner.invoke(app, ["trick", "red:6", "griffin", "--held", "x:red"])
    assert out.exit_code != 0 and "roll number" in out.output
