"""Typed bot specs (issue 54): every built-in bot's options are declared once (`bots.spec.Option`), and that
one declaration parses, writes back and refuses each of them; a spec's refusal is one line naming the
option, with a suggestion where a declared name is close, and exit 2 at the command line."""

from __future__ import annotations

import math
from importlib import resources

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minodice.bots import BUILTIN, BotSpec, BotSpecError, ExternalSpec, Option, make_bot, parse_spec
from minodice.bots.levels import LEVELS
from minodice.bots.montecarlo import MonteCarloBot
from minodice.bots.neural import NeuralSearchBot
from minodice.bots.spec import format_value
from minodice.cli import app

runner = CliRunner()
SHIPPED = str(resources.files("minodice.bots").joinpath("weights", "neural-4.npz"))
OPTIONS = [(name, option) for name in BUILTIN for option in BUILTIN[name].options]


def good_values(option: Option) -> list[object]:
    """Values the declaration takes, as Python values: its default, its bounds, one inside."""
    if option.kind == "choice":
        return list(option.choices)
    if option.kind == "file":
        return [SHIPPED]
    low = option.low if option.low_inclusive else (math.floor(option.low) + 1 if option.kind == "whole"
                                                   else option.low + 0.25)
    values = [low, option.default] + ([option.high] if option.high is not None else [])
    if option.zero_off:
        values.append(0)
    return [int(v) if option.kind == "whole" else float(v) for v in values if v is not None]


def bad_values(option: Option) -> list[tuple[str, str]]:
    """(typed value, the code it is refused with)."""
    if option.kind == "choice":
        return [("sideways", "not_choice"), ("", "not_choice")]
    if option.kind == "file":
        return [("", "no_file"), ("a,b.npz", "option_syntax")]
    bad = [("abc", "not_number"), ("-1", "below_range"), ("", "not_number")]
    if option.kind == "whole":
        bad += [("1.5", "not_whole"), ("nan", "not_whole"), ("0", "below_range"), ("1_000", "not_number"),
                ("٣", "not_number")]
    else:
        bad += [("nan", "not_finite"), ("inf", "not_finite"), ("1e400", "not_finite")]
    if option.high is not None:
        bad.append((format_value(option.high * 2), "above_range"))
    if not option.low_inclusive and not option.zero_off:
        bad.append(("0", "below_range"))
    return bad


def spec_with(name: str, option: str, raw: str) -> str:
    """`name:option=raw` (every product option is taken alone; the lab's, which need a network policy beside
    them, are tested in research/tests)."""
    return f"{name}:{option}={raw}"


@pytest.mark.parametrize(("name", "option"), OPTIONS, ids=[f"{n}:{o.name}" for n, o in OPTIONS])
def test_every_declared_option_is_parsed_written_back_and_refused_by_its_declaration(name: str, option: Option) -> None:
    for value in good_values(option):
        text = spec_with(name, option.name, format_value(value))
        spec = parse_spec(text)
        assert isinstance(spec, BotSpec)
        assert spec.get(option.name) == value and str(spec) == str(parse_spec(str(spec)))
        assert parse_spec(str(spec)) == spec
        # the same value given from Python goes through the same check
        assert BUILTIN.spec(name, **spec.given) == spec
    for raw, code in bad_values(option):
        with pytest.raises(BotSpecError) as refused:
            parse_spec(spec_with(name, option.name, raw))
        assert refused.value.code == code, (raw, refused.value)
        message = str(refused.value)
        assert "\n" not in message and len(message) < 300
        if code != "option_syntax":
            assert option.name in message and name in message
    twice = spec_with(name, option.name, format_value(good_values(option)[0]))
    with pytest.raises(BotSpecError) as repeated:
        parse_spec(f"{twice},{option.name}={format_value(good_values(option)[0])}")
    assert repeated.value.code == "option_repeated" and option.name in str(repeated.value)


def test_a_bot_made_in_python_is_checked_by_the_same_declaration() -> None:
    with pytest.raises(BotSpecError) as refused:
        MonteCarloBot(sims=0)
    assert refused.value.code == "below_range" and refused.value.params["option"] == "sims"
    with pytest.raises(BotSpecError) as refused:
        NeuralSearchBot(policy="value", rivals=1.0)
    assert refused.value.code == "rivals_value_head"
    assert MonteCarloBot(sims=200, rivals=1.0).describe() == "montecarlo:sims=200,rivals=1"


@pytest.mark.parametrize(("text", "code", "words"), [
    ("montecrlo", "unknown_bot", "did you mean 'montecarlo'?"),
    ("expret", "unknown_bot", "did you mean 'expert'?"),
    ("zzzz", "unknown_bot", "choose one of random, greedy"),
    ("montecarlo:simz=5", "unknown_option", "did you mean 'sims'?"),
    ("montecarlo:sims=nan", "not_whole", "option sims must be a whole number"),
    ("montecarlo:infer=nan", "not_finite", "option infer must be a finite number"),
    ("neural+search:guide=bids,guide=rolls", "option_repeated", "option guide is given twice"),
    ("montecarlo:sims=5,sims=6", "option_repeated", "option sims is given twice"),
    ("greedy:sims=5", "no_options", "the greedy bot takes no options"),
    ("montecarlo:sims", "option_syntax", "must look like key=value"),
    ("neural+search:policy=network,seconds=1", "network_seconds", "takes a playout budget"),
    ("neural+search:policy=network,sims=20000", "network_sims", "at most 16,384 playouts"),
    ("neural+search:trust=2", "unknown_option", "has no option 'trust'"),  # the lab's (research/lab), not the product's
    ("expert:policy=value", "rivals_value_head", "rivals needs a judge that plays the hand out"),
    ("", "spec_empty", "a bot spec must be a name"),
    ("cmd:  ", "cmd_empty", "needs a program"),
])
def test_a_refused_spec_says_why_in_one_line(text: str, code: str, words: str) -> None:
    with pytest.raises(BotSpecError) as refused:
        parse_spec(text)
    assert refused.value.code == code and words in str(refused.value), str(refused.value)
    assert "\n" not in str(refused.value)


def test_levels_and_external_programs_are_specs_too() -> None:
    for level in LEVELS:
        assert parse_spec(level.name) == level.spec
    expert = next(lv for lv in LEVELS if lv.name == "expert").spec
    changed = parse_spec("expert:prior=0")
    assert isinstance(changed, BotSpec) and changed.get("prior") == 0 and changed.replace(prior=None) == expert
    assert parse_spec(" cmd:python3 bot.py ") == ExternalSpec("python3 bot.py")
    assert str(ExternalSpec("python3 bot.py")) == "cmd:python3 bot.py"
    assert make_bot(BUILTIN.spec("montecarlo", sims=8), seed=1).describe() == "montecarlo:sims=8"


@st.composite
def valid_specs(draw: st.DrawFn) -> BotSpec:
    name = draw(st.sampled_from([n for n in BUILTIN if BUILTIN[n].options]))
    options = BUILTIN[name].options
    chosen = draw(st.lists(st.sampled_from(options), unique_by=lambda o: o.name, max_size=len(options)))
    values: dict[str, object] = {}
    for option in chosen:
        if option.kind == "choice":
            values[option.name] = draw(st.sampled_from(option.choices))
        elif option.kind == "file":
            values[option.name] = SHIPPED
        elif option.kind == "whole":
            values[option.name] = draw(st.integers(1, int(option.high or 10**6)))
        else:
            low = option.low
            high = option.high if option.high is not None else 1e6
            values[option.name] = draw(st.floats(low, high, exclude_min=not option.low_inclusive, allow_nan=False))
    try:
        return BUILTIN.spec(name, **values)
    except BotSpecError:
        assume(False)  # a combination the bot refuses (e.g. seconds with a network policy)
        raise


@settings(max_examples=300, deadline=None)
@given(valid_specs())
def test_a_spec_written_back_reads_as_the_same_spec(spec: BotSpec) -> None:
    assert parse_spec(str(spec)) == spec
    shuffled = BUILTIN.parse(f"{spec.name}:{','.join(reversed(str(spec).split(':', 1)[1].split(',')))}") \
        if spec.options else BUILTIN.parse(spec.name)
    assert shuffled == spec  # the order options are written in does not matter


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=80) | st.builds(lambda n, rest: f"{n}:{rest}", st.sampled_from(list(BUILTIN)),
                                        st.text(max_size=60)))
def test_any_text_is_a_spec_or_a_one_line_refusal(text: str) -> None:
    try:
        parsed = parse_spec(text)
    except BotSpecError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 500
        return
    assert isinstance(parsed, BotSpec | ExternalSpec)
    if isinstance(parsed, BotSpec):
        assert parse_spec(str(parsed)) == parsed


@pytest.mark.parametrize(("args", "words"), [
    (["play", "--bot", "neural+search:guide=bids,guide=rolls", "--bot", "greedy"], "option guide is given twice"),
    (["play", "--bot", "montecrlo"], "did you mean 'montecarlo'?"),
    (["play", "--bot", "montecarlo:sims=nan", "--bot", "greedy"], "option sims must be a whole number"),
    (["play", "--bot", "montecarlo:simz=5", "--bot", "greedy"], "did you mean 'sims'?"),
    (["tournament", "--seat", "montecrlo", "--seat", "greedy", "--seat", "greedy"], "did you mean 'montecarlo'?"),
    (["tournament", "--seat", "montecarlo:simz=5", "--seat", "greedy", "--seat", "greedy"], "did you mean 'sims'?"),
    (["explain", "--bot", "montecarlo:sims=5,sims=6"], "option sims is given twice"),
])
def test_the_commands_refuse_a_bad_spec_in_one_line_with_exit_2(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0], result.output


def test_a_refusal_crosses_processes_whole() -> None:
    """The server's bot processes send a refusal back pickled: its code and parameters survive."""
    import pickle

    with pytest.raises(BotSpecError) as refused:
        parse_spec("montecarlo:simz=5")
    again = pickle.loads(pickle.dumps(refused.value))
    assert (again.code, again.params, str(again)) == (refused.value.code, refused.value.params, str(refused.value))
