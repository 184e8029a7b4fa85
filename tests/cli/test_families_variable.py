"""A family named in ``LEVELGEN_FAMILIES`` that cannot be loaded is a setup problem, said in
one line naming the variable and the problem (exit 2), never an internal error (exit 70) and
never silently ignored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import levelgen.puzzles as registry
from levelgen.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _forget_counting() -> Iterator[None]:
    registry._loaded.pop("counting", None)
    yield
    registry._loaded.pop("counting", None)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            "counting=no_such_module_for_levelgen:FAMILY",
            "LEVELGEN_FAMILIES: cannot import 'no_such_module_for_levelgen' for game 'counting'"
            " (No module named 'no_such_module_for_levelgen'); the module must be importable"
            " (installed, or on PYTHONPATH)",
        ),
        (
            "counting=tests.family_counting:NO_SUCH_FAMILY",
            "LEVELGEN_FAMILIES: module 'tests.family_counting' has no attribute"
            " 'NO_SUCH_FAMILY' (game 'counting')",
        ),
        (
            "counting=levelgen.puzzles:Problem.__name__",
            "LEVELGEN_FAMILIES: levelgen.puzzles:Problem.__name__ is not a puzzle family",
        ),
        ("garbage", "LEVELGEN_FAMILIES: 'garbage' is not name=package.module:attribute"),
        ("counting=tests.family_counting", "'counting=tests.family_counting' is not name="),
        (
            "counting=tests.family_counting:COUNTING,oops",
            "LEVELGEN_FAMILIES: 'oops' is not name=package.module:attribute",
        ),
    ],
)
@pytest.mark.parametrize("command", ["create", "verify", "schema"])
def test_a_family_that_cannot_load_is_one_line_and_exit_2(
    value: str, expected: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(registry.FAMILIES_VARIABLE, value)
    level = tmp_path / "c.json"
    level.write_text('{"game": "counting", "format_version": 1}')
    args = {
        "create": ["create", "--game", "counting"],
        "verify": ["verify", str(level)],
        "schema": ["schema", "--check"],
    }[command]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [f"levelgen: {expected}"] or (
        len(result.output.splitlines()) == 1 and expected in result.output
    ), result.output
    assert "internal error" not in result.output


def test_a_well_formed_variable_still_loads_its_family(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.FAMILIES_VARIABLE, " counting=tests.family_counting:COUNTING ,")
    result = runner.invoke(app, ["create", "--game", "counting", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert '"game": "counting"' in result.output
