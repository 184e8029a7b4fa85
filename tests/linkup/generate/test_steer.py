"""Steering generation towards a difficulty: targets, the density lever, determinism, the
off-band report, and ``levelgen create --difficulty`` through the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.difficulty.score import band_of
from levelgen.linkup.files import format_level
from levelgen.linkup.generate.generator import SLOT
from levelgen.linkup.generate.steer import Target, apply_density, parse_target, steered_generate
from levelgen.linkup.verify import replay

runner = CliRunner()


def test_parse_target() -> None:
    assert parse_target("Hard") == Target("hard")
    assert parse_target("37.5") == Target(band_of(37.5), 37.5)
    for bad in ("brutal", "-1", "101", "nan"):
        with pytest.raises(ValueError):
            parse_target(bad)


def test_target_distance_and_direction() -> None:
    easy = Target("easy")
    assert easy.distance(3.0) == 0 and easy.direction(3.0) == 0
    assert easy.distance(20.0) > 0 and easy.direction(20.0) == -1
    expert = Target("expert")
    assert expert.direction(10.0) == 1 and expert.distance(100.0) == 0
    score = Target(band_of(50.0), 50.0)
    assert score.distance(53.0) == 0 and score.direction(30.0) == 1


def test_apply_density_turns_an_even_share_of_slots() -> None:
    base = Board(6, 4, (SLOT,) * 24)
    holes = apply_density(base, -0.25, random.Random(1))
    walls = apply_density(base, 0.25, random.Random(1))
    assert holes.cells.count(EMPTY) == 6 and walls.cells.count(WALL) == 6
    assert apply_density(base, 0.0, random.Random(1)) is base
    assert apply_density(base, 0.04, random.Random(1)).cells.count(WALL) % 2 == 0


@pytest.mark.parametrize(("band", "outside"), [("easy", True), ("expert", False)])
def test_steered_levels_land_in_band_and_replay(band: str, outside: bool) -> None:
    rules = Rules(2, outside)
    result = steered_generate(Size(8, 6), parse_target(band), seed=7, rules=rules)
    level = result.level
    assert level.solution is not None and level.metrics is not None
    assert not replay(level.board, rules, level.solution)
    assert result.in_band and level.metrics.difficulty is not None
    assert level.metrics.difficulty.band == band
    assert level.generator is not None and level.generator.seed == 7
    assert level.generator.parameters["difficulty_in_band"] is True
    again = steered_generate(Size(8, 6), parse_target(band), seed=7, rules=rules)
    assert format_level(again.level) == format_level(level)


def test_a_missed_target_keeps_the_closest_and_says_so() -> None:
    # One attempt from the easy end cannot reach expert.
    result = steered_generate(Size(6, 4), Target("expert"), seed=1, max_attempts=1)
    assert not result.in_band and result.attempts == 1
    assert result.level.generator is not None
    assert result.level.generator.parameters["difficulty_in_band"] is False
    assert result.level.generator.parameters["difficulty"] == "expert"


def test_cli_create_difficulty(tmp_path: Path) -> None:
    out = tmp_path / "level.json"
    res = runner.invoke(
        app, ["create", "--size", "8x6", "--seed", "3", "--difficulty", "medium", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["metrics"]["difficulty"]["band"] == "medium"
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0
    bad = runner.invoke(app, ["create", "--size", "8x6", "--difficulty", "brutal"])
    assert bad.exit_code == 2 and "--difficulty" in bad.output
    kinds = runner.invoke(app, ["create", "--size", "8x6", "--difficulty", "easy", "--kinds", "4"])
    assert kinds.exit_code == 2 and "--kinds" in kinds.output


def test_cli_create_reports_a_miss_on_stderr(tmp_path: Path) -> None:
    out = tmp_path / "level.json"
    # A 2x2 board has a single level shape; no score near 99 exists for it.
    res = runner.invoke(
        app, ["create", "--size", "2x2", "--seed", "1", "--difficulty", "99", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert "closest found" in res.output
    data = json.loads(out.read_text())
    assert data["generator"]["parameters"]["difficulty_in_band"] is False
