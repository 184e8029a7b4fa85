"""Usage errors as the README promises them: one line naming the command, the option and the
reason in levelgen's words (never typer's usage block, never pydantic's "Input should be"),
exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["pack", "-o", "p", "--count", "0"], "levelgen pack: Invalid value for '--count': 0 is"),
        (["pack", "-o", "p", "--count", "abc"], "'--count': 'abc' is not an integer"),
        (["pack", "-o", "p", "--workers", "-1"], "'--workers': -1 is not in 1..512"),
        (["verify", "--time-limit", "abc", "x"], "'--time-limit': 'abc' is not a number"),
        (["create", "--max-turns", "x"], "'--max-turns': 'x' is not an integer"),
        (["library", "list", "--limit", "x"], "levelgen library list: Invalid value for '--limit'"),
        (["create", "--count", "3"], "levelgen create: No such option: --count"),
        (["bogus"], "levelgen: No such command 'bogus'"),
        (["--bogus"], "levelgen: No such option: --bogus"),
        (["create", "--size", "12by8"], "'--size': size '12by8' is not of the form WxH"),
    ],
)
def test_a_usage_error_is_one_line_in_levelgen_words(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert expected in lines[0]
    assert "Input should be" not in lines[0] and "Usage:" not in lines[0]
    assert lines[0].endswith("--help")  # where to read more


@pytest.mark.parametrize("args", [[], ["library"], ["bench"]])
def test_a_group_without_a_command_still_shows_its_help(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.output.startswith("Usage: levelgen"), result.output
    assert "Commands:" in result.output and len(result.output.splitlines()) > 5
