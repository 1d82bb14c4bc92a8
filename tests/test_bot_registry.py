"""The bot registry is the one source of every bot's name, options and defaults: the bots use
those defaults, and `minodice bots`, `play --help` and the bot options table of docs/bots.md show them."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minodice.bots import BUILTIN, BotSpecError, make_bot
from minodice.cli import app

BOTS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "bots.md"
runner = CliRunner()


def flat(text: str) -> str:
    """Output with its line wrapping and table borders undone (words kept in order)."""
    return " ".join(re.sub(r"[│┃]", " ", text).split())


def expected_tokens() -> list[str]:
    """Every registered bot's name, and every option as shown: `sims=800`, or the bare name."""
    tokens = []
    for name in BUILTIN:
        tokens.append(name)
        tokens.extend(str(o) for o in BUILTIN.info(name).options)
    return tokens


def test_the_searching_bots_use_the_registered_defaults() -> None:
    """A bot made without options has exactly the registry's defaults (so the help cannot go stale)."""
    for name in ("montecarlo", "ismcts", "neural+search"):
        bot = make_bot(name, seed=0)
        info = BUILTIN.info(name)
        assert info.options, name
        for option in info.options:
            assert getattr(bot, option.name) == option.default, (name, option.name)
        assert bot.describe() == name  # defaults are not spelled out in the spec


def test_every_registered_option_is_accepted_and_no_other() -> None:
    shipped = resources.files("minodice.bots").joinpath("weights", "neural-4.npz")
    for name in BUILTIN:
        for option in BUILTIN.info(name).options:
            if option.name != "seconds":  # timed bots are slow to test, and not reproducible
                value = option.default if option.default is not None else 1
                value = shipped if option.kind == "file" else value  # a network file
                value = "greedy" if option.name == "bid_policy" else value  # a playout policy
                make_bot(f"{name}:{option.name}={value}", seed=0)
        with pytest.raises(BotSpecError):
            make_bot(f"{name}:nosuchoption=1", seed=0)


def test_minodice_bots_lists_every_bot_option_and_default() -> None:
    result = runner.invoke(app, ["bots"], terminal_width=100)
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    for token in expected_tokens():
        assert re.search(rf"(^|\s){re.escape(token)}(\s|$)", text), token
    assert "sims=96" not in text and "c=0.7" not in text


def test_play_help_lists_every_bot_option_and_default() -> None:
    result = runner.invoke(app, ["play", "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    for name in BUILTIN:
        info = BUILTIN.info(name)
        shown = f"{name} ({info.usage})" if info.options else name
        assert shown in text, shown


def bot_table_rows() -> dict[str, str]:
    """The bot options table of docs/bots.md (section "## Options and their defaults"): spec -> the rest of its row."""
    section = BOTS_PAGE.read_text(encoding="utf-8").split("\n## Options and their defaults\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = re.match(r"\| `([^`]+)` \|(.*)\|$", line)
        if found:
            rows[found.group(1)] = found.group(2)
    return rows


def test_the_bot_options_table_matches_the_registry() -> None:
    rows = bot_table_rows()
    assert [spec for spec in rows if not spec.startswith("cmd:")] == list(BUILTIN)
    for name in BUILTIN:
        info = BUILTIN.info(name)
        row = rows[name]
        shown = set(re.findall(r"`(\w+=[^`\s]*)`", row))
        assert shown == {str(o) for o in info.options if o.default is not None}, name
        for option in info.options:
            if option.default is None:
                assert f"`{option.name}`" in row, (name, option.name)


@pytest.mark.parametrize("spec", [
    "z" * 5000,  # an unknown bot
    "montecarlo:" + "z" * 5000,  # an option without a value
    "montecarlo:policy=" + "z" * 5000,  # a bad value
    "oracle:sees=" + "z" * 5000,
    "neural+search:prior=" + "z" * 5000,
    "neural+search:bid_policy=" + "z" * 5000,
    "montecarlo:" + "z" * 5000 + "=1",  # an unknown option
])
def test_a_huge_bad_spec_gets_a_one_line_error(spec: str) -> None:
    """Every option's error echoes a bad value cut short with its length, so a pasted file makes one line."""
    with pytest.raises(BotSpecError) as caught:
        make_bot(spec, seed=0)
    message = str(caught.value)
    assert len(message) < 400, message
    assert "5,0" in message  # the length of what was cut


def test_play_echoes_a_huge_bad_spec_cut_short() -> None:
    result = runner.invoke(app, ["play", "--bot", "montecarlo:policy=" + "z" * 5000, "--bot", "greedy"])
    assert result.exit_code != 0
    assert "policy must be greedy or random" in result.output
    assert len(result.output) < 400, result.output
