"""The trick referee against RULES.md's rules and decisions, and its command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from minodice import rules as R
from minodice.cli import app
from minodice.codes import SHEET_REFUSALS
from minodice.dice import Die, Face
from minodice.rules import Reason, Rules
from minodice.table.referee import Foul, RefereeError, parse_held, parse_roll, referee


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


@pytest.mark.parametrize(
    "rolls",
    [("griffin", "minotaur"), ("red:6", "red:6", "gray:1"), ("gray:flag", "gray:flag", "gray:flag"),
     ("minotaur", "mermaid", "gray:1"), ("griffin", "minotaur", "griffin", "yellow:3"), ("minotaur", "griffin", "mermaid"),
     ("red:6", "griffin", "gray:flag")],
)
def test_reasons_are_the_rules_own_values(rolls: tuple[str, ...]) -> None:
    parsed = [parse_roll(r) for r in rolls]
    faces = [f for _, f in parsed]
    v = referee(parsed)
    assert v.why == R.trick_reason(faces, Rules()) and v.bonus_why == R.bonus_reason(faces, v.winner)
    assert v.winner == R.trick_winner(faces, Rules()) and v.bonus == R.trick_bonus(faces, v.winner)
    assert f": {v.why.text()}." in v.summary()
    if v.bonus_why is not None:
        assert f"Bonus: {v.bonus_why.text()}." in v.summary()


def test_the_reasons_codes_and_params() -> None:
    v = judge("red:6", "red:6", "gray:1")
    assert v.why.to_dict() == {"code": "highest_number", "params": {"face": "6", "tie": True}}
    v = judge("griffin", "minotaur", "griffin", "yellow:3")
    assert v.why.to_dict() == {"code": "special_beats_special", "params": {"face": "minotaur", "beaten": "griffin",
                                                                          "tie": False}}
    assert v.bonus_why is not None
    assert v.bonus_why.to_dict() == {"code": "minotaur_took_griffins", "params": {"points": 60, "griffins": 2}}
    assert judge("minotaur", "mermaid", "red:7").bonus_why == Reason("mermaid_took_minotaur", {"points": 50})
    assert judge("red:7", "griffin").bonus_why is None
    assert judge("gray:flag", "gray:flag").why == Reason("only_flags", {"which": "first"})


def test_lead_colour_comes_from_the_first_number_die_whatever_it_shows() -> None:
    assert judge("griffin", "gray:flag", "red:5").lead is Die("gray")
    assert judge("griffin", "mermaid", "minotaur").lead is None


def test_colour_rule_fouls_are_flagged_only_when_the_held_dice_are_known() -> None:
    v = judge("red:6", "yellow:5", "griffin", names=["Ana", "Ben", "Cy"],
              held={1: parse_held("yellow,red"), 2: parse_held("griffin,red")})
    assert v.fouls == (Foul(1, Reason("must_follow", {"colour": Die.RED, "die": Die.YELLOW})),)
    assert v.fouls[0].reason == R.follow_foul([Die.YELLOW, Die.RED], Die.RED, Die.YELLOW)
    assert v.fouls[0].to_dict() == {"roll": 1, "die": "yellow", "lead": "red",
                                    "reason": {"code": "must_follow", "params": {"colour": "red", "die": "yellow"}}}
    assert ("Foul by Ben (yellow rolled): you must roll red or a special die: you hold red and red was led."
            in v.summary())
    # Every roll's foul in one ruling, in rolling order, each judged by the lead before it.
    v = judge("griffin", "purple:2", "yellow:5", "red:7",
              held={3: parse_held("red,purple"), 2: parse_held("yellow,purple"), 1: parse_held("purple,red")})
    assert [(f.roll, f.lead, f.die) for f in v.fouls] == [(2, Die.PURPLE, Die.YELLOW), (3, Die.PURPLE, Die.RED)]
    # Holding no die of the lead colour, any die may be rolled; a special die always may.
    assert not judge("red:6", "yellow:5", held={1: parse_held("yellow,purple")}).fouls
    assert not judge("red:6", "mermaid", held={1: parse_held("mermaid,red")}).fouls
    # A special lead sets no colour.
    assert not judge("griffin", "yellow:5", held={1: parse_held("yellow,red")}).fouls


DICE = ["minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray"]

#: (what the referee is given, its English words, code, params) of each refusal.
REFEREE_REFUSALS = [
    (lambda: parse_roll("red:3"), "^'red:3': a red die has no face '3' \\(its faces: 5, 6 and 7\\)$", "no_such_face",
     {"text": "red:3", "die": "red", "face": "3", "faces": ["5", "6", "7"]}),
    (lambda: parse_roll("blue:3"), "^'blue' is not a die \\(the dice are minotaur, griffin, mermaid, red, yellow, "
     "purple and gray\\)$", "not_a_die", {"name": "blue", "dice": DICE}),
    (lambda: parse_held("red, pink"), "^'pink' is not a die", "not_a_die", {"name": "pink", "dice": DICE}),
    (lambda: parse_roll("red"), "^'red': say which face the red die showed, e.g. red:7$", "face_needed",
     {"text": "red", "die": "red", "example": "red:7"}),
    (lambda: judge("red:6"), "one roll per player.*got 1$", "roll_count", {"count": 1}),
    (lambda: judge(*["red:6"] * 7), "one roll per player.*got 7$", "roll_count", {"count": 7}),
    (lambda: judge("red:6", "yellow:5", held={1: parse_held("red")}),
     "^roll 2 rolled a yellow die but was said to hold only red$", "held_without_die",
     {"name": "roll 2", "die": "yellow", "held": ["red"]}),
    (lambda: judge("red:6", "yellow:5", held={4: parse_held("red")}),
     "^held dice given for roll 5, but the trick has 2 rolls$", "held_roll_unknown", {"roll": 5, "rolls": 2}),
    (lambda: judge("red:6", "yellow:5", "gray:1", names=["a", "b"]),
     "^2 names for 3 rolls: give one name per roll$", "name_count", {"given": 2, "rolls": 3}),
    (lambda: judge("red:6", "yellow:5", names=["Ana", " "]),
     "^every roll needs a roller's name", "roller_needs_name", {}),
    # names as people type them: a prefix two dice share is refused with both, not guessed
    (lambda: parse_roll("g:flag"), "^'g' could mean more than one die \\(griffin and gray\\): type more of the name$",
     "ambiguous_die", {"name": "g", "dice": ["griffin", "gray"]}),
    (lambda: parse_held("red, m"), "^'m' could mean more than one die", "ambiguous_die",
     {"name": "m", "dice": ["minotaur", "mermaid"]}),
    (lambda: parse_roll("gray:s"), "^'gray:s': a gray die has no face 's'", "no_such_face",
     {"text": "gray:s", "die": "gray", "face": "s", "faces": ["flag", "1", "7"]}),
    # tricks the one bag cannot give: refused, not ruled on
    (lambda: judge("minotaur", "minotaur", "red:6"), "^2 minotaur dice were rolled, but the bag holds only 1$",
     "rolled_over_bag", {"count": 2, "die": "minotaur", "bag": 1}),
    (lambda: judge("griffin", "griffin", "griffin", "griffin"), "^4 griffin dice were rolled, but the bag holds only 3$",
     "rolled_over_bag", {"count": 4, "die": "griffin", "bag": 3}),
    (lambda: judge("mermaid", "mermaid:flag", "mermaid", "red:5"), "^3 mermaid dice were rolled", "rolled_over_bag",
     {"count": 3, "die": "mermaid", "bag": 2}),
    (lambda: judge("minotaur", "red:6", held={1: parse_held("red,minotaur")}),
     "^the dice held and rolled include 2 minotaur dice, but the bag holds only 1$", "held_over_bag",
     {"count": 2, "die": "minotaur", "bag": 1}),
    (lambda: judge("red:6", "griffin", held={0: parse_held("red,griffin,griffin"), 1: parse_held("griffin,griffin")}),
     "^the dice held and rolled include 4 griffin dice", "held_over_bag", {"count": 4, "die": "griffin", "bag": 3}),
]
#: Referee codes checked over HTTP only (`sheet_api` raises them): tests/test_server_sheet.py.
HTTP_ONLY = {"held_by_number", "bad_rule_value"}


@pytest.mark.parametrize(("call", "message", "code", "params"), REFEREE_REFUSALS)
def test_impossible_input_is_refused_with_a_code(call, message: str, code: str, params: dict) -> None:
    with pytest.raises(RefereeError, match=message) as error:
        call()
    exc = error.value
    assert isinstance(exc, ValueError) and code in SHEET_REFUSALS
    assert (exc.code, exc.params) == (code, params)
    assert exc.to_dict() == {"code": code, "message": str(exc), "params": params}
    assert json.loads(json.dumps(exc.to_dict())) == exc.to_dict()


def test_parse_roll() -> None:
    assert parse_roll("minotaur") == (Die("minotaur"), Face.MINOTAUR)
    assert parse_roll(" Gray:FLAG ") == (Die.GRAY, Face.FLAG)
    assert parse_held("red, griffin") == [Die.RED, Die.GRIFFIN]


@pytest.mark.parametrize(
    ("typed", "roll"),
    [
        ("grey:flag", (Die.GRAY, Face.FLAG)),  # the other spelling
        ("GREY:F", (Die.GRAY, Face.FLAG)),  # any case; a face by its prefix
        ("r:6", (Die.RED, Face.SIX)),  # a prefix only one die's name begins with, as at the game's prompt
        ("mino", (Die.MINOTAUR, Face.MINOTAUR)),
        ("mino:f", (Die.MINOTAUR, Face.FLAG)),
        ("gri", (Die.GRIFFIN, Face.GRIFFIN)),
        ("mer : mer", (Die.MERMAID, Face.MERMAID)),
        ("violet:2", (Die.PURPLE, Face.TWO)),
        ("y:3", (Die.YELLOW, Face.THREE)),
    ],
)
def test_rolls_are_read_as_people_type_them(typed: str, roll: tuple[Die, Face]) -> None:
    assert parse_roll(typed) == roll


def test_held_dice_are_read_as_people_type_them() -> None:
    assert parse_held("r, y,GRI,grey,p") == [Die.RED, Die.YELLOW, Die.GRIFFIN, Die.GRAY, Die.PURPLE]


def test_the_game_prompt_reads_dice_with_the_same_parser() -> None:
    from minodice.tui.prompts import Problem, parse_die

    assert parse_die("grey", held=(), menu=()) is Die.GRAY
    assert parse_die("mino", held=(), menu=()) is Die.MINOTAUR
    problem = parse_die("gr", held=(), menu=())
    assert isinstance(problem, Problem) and "griffin or gray" in problem.message
    assert parse_die("gr", held=(Die.GRAY,), menu=()) is Die.GRAY  # the prompt may pick the one held


def test_the_bag_allows_what_it_holds() -> None:
    assert judge("minotaur", "mermaid", "mermaid:flag", "griffin").winner == 1  # two mermaids are fine
    assert judge("griffin", "griffin", "griffin", "red:5").winner == 2
    assert not judge("red:6", "red:5", held={1: parse_held("red,red,red,red,red,red")}).fouls  # 7 reds in all
    with pytest.raises(RefereeError, match="8 red dice"):
        judge("red:6", "red:5", held={1: parse_held("red,red,red,red,red,red,red")})


runner = CliRunner()


def test_trick_command() -> None:
    out = runner.invoke(app, ["trick", "red:6", "griffin", "gray:flag", "--names", "Ana,Ben,Cy"])
    assert out.exit_code == 0 and "Ben wins the trick with the griffin" in out.output
    out = runner.invoke(app, ["trick", "red:6", "yellow:5", "--held", "2:yellow,red", "--json"])
    assert out.exit_code == 1  # a foul: the same status as in text mode
    data = json.loads(out.stdout)
    assert data["winner"] == 0 and data["lead"] == "red"
    assert data["reason"] == {"code": "highest_number", "params": {"face": "6", "tie": False}}
    assert data["fouls"] == [{"roll": 1, "die": "yellow", "lead": "red",
                              "reason": {"code": "must_follow", "params": {"colour": "red", "die": "yellow"}}}]
    out = runner.invoke(app, ["trick", "red:6", "yellow:5", "--held", "2:yellow,red"])
    assert out.exit_code == 1 and "Foul by roll 2" in out.stdout  # a foul is worth a non-zero exit for scripts
    out = runner.invoke(app, ["trick", "red:6", "yellow:5", "--held", "2:yellow,purple", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["fouls"] == []


def test_trick_command_reads_names_and_dice_as_typed() -> None:
    for names in (["--names", "Ana,Ben,Cy,Dee"], ["--names", "Ana", "--names", "Ben", "--names", "Cy,Dee"]):
        out = runner.invoke(app, ["trick", "r:6", "gri", "grey:f", "mino", *names])
        assert out.exit_code == 0, out.output
        assert out.stdout.startswith("Dee wins the trick with the minotaur: the minotaur beats the griffin.")
    out = runner.invoke(app, ["trick", "r:6", "y:5", "--held", "2:y,r", "--names", "Ana", "--names", "Ben"])
    assert out.exit_code == 1 and "Foul by Ben (yellow rolled)" in out.stdout


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["minotaur", "minotaur", "red:6"], "2 minotaur dice were rolled, but the bag holds only 1", "rolled_over_bag"),
        (["griffin"] * 4, "4 griffin dice were rolled", "rolled_over_bag"),
        (["mermaid", "mermaid", "mermaid:flag"], "3 mermaid dice were rolled", "rolled_over_bag"),
        (["minotaur", "red:6", "--held", "2:red,minotaur"], "include 2 minotaur dice", "held_over_bag"),
        (["g:flag", "red:6"], "'g' could mean more than one die (griffin and gray)", "ambiguous_die"),
        (["red:3", "griffin"], "a red die has no face '3'", "no_such_face"),
        (["red:6", "griffin", "--held", "x:red"], "held dice are given by roll number (1 to 2), not 'x'",
         "held_by_number"),
        (["red:6", "griffin", "--held", "red"], "not 'red'", "held_by_number"),
        (["red:6", "griffin", "--held", "9" * 5000 + ":red"], "roll 99999999999999999999… (5,000 characters), but",
         "held_roll_unknown"),
        (["red:6", "griffin", "--held", "²:red"], "not '²'", "held_by_number"),
        (["red:6", "griffin", "--names", "Ana,"], "every roll needs a roller's name", "roller_needs_name"),
        (["red:6", "griffin", "--all-flags", "middle"], "rule all_flags cannot be 'middle'", "bad_rule_value"),
    ],
)
def test_trick_command_refuses_impossible_tricks(args: list[str], message: str, code: str) -> None:
    out = runner.invoke(app, ["trick", *args])
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith("minodice trick: ") and message in out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr  # one line, in words
    out = runner.invoke(app, ["trick", *args, "--json"])
    assert out.exit_code == 2
    error = json.loads(out.stdout)["error"]
    assert error["code"] == code and message in error["message"]


def test_trick_usage_errors_exit_2_as_refusals() -> None:
    assert runner.invoke(app, ["trick"]).exit_code == 2
    assert runner.invoke(app, ["trick", "red:6", "griffin", "--bogus"]).exit_code == 2


def test_the_web_referee_refuses_what_the_command_refuses() -> None:
    pytest.importorskip("fastapi")
    from minodice.server.sheet_api import TrickBody, judge

    with pytest.raises(RefereeError) as error:
        judge(TrickBody(rolls=["mino", "minotaur:flag", "red:6"]))
    assert error.value.code == "rolled_over_bag"
    with pytest.raises(RefereeError) as error:
        judge(TrickBody(rolls=["minotaur", "red:6"], held={"2": "r,mino"}))
    assert error.value.code == "held_over_bag"
    assert judge(TrickBody(rolls=["grey:f", "r:6"], names=["Ana", "Ben"])).winner == 1
