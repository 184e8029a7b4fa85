"""Levels over a board's whole range: every length that exists on the boards with a
whole-space table (a random frame of the layer, from the seed), long 4x4 levels by the
heuristic walk (each proved by the solver), the goal taken from a level file, and levels of
the lengths made before byte for byte as before (the hashes are those of the files the
generator wrote before the tables existed)."""

from __future__ import annotations

import hashlib
import json
import random
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.formats import format_json
from levelgen.puzzles import Budget, SpecError
from levelgen.sliding import FAMILY, bfs
from levelgen.sliding.generate import create_level, numbered_goal, tight_walk, walk_away
from levelgen.sliding.heuristics import lower_bound
from levelgen.sliding.level import SlidingLevel
from levelgen.sliding.solver import solve
from levelgen.sliding.spec import parse_spec
from tests import ROOT

#: Levels of options that existed before: the SHA-256 of ``create -o -`` (its first half).
BEFORE = [
    ("--size 3x3 --moves 20 --seed 1", "08e830216b1d6cad4bc4bdeb37220e11"),
    ("--size 4x4 --seed 2", "e2513ce0bc6b2ac065935e30d01a75e6"),
    ("--size 4x3 --colors 2 --moves 10 --seed 3", "f4bd55f39e03a7a9068da84126c9edb0"),
    ("--size 3x3 --difficulty hard --seed 4", "e134863bcb7d9653c195951e3453f354"),
    ("--size 3x3 --colors 3 --difficulty expert --seed 5", "c46ed5c68116cdb6909fa477fcb548a9"),
]


@pytest.mark.parametrize(("options", "digest"), BEFORE, ids=[o for o, _ in BEFORE])
def test_levels_made_before_keep_their_bytes(options: str, digest: str) -> None:
    result = CliRunner().invoke(
        app, ["create", "--game", "sliding-puzzle", *shlex.split(options), "-o", "-"]
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    if "--difficulty" in options:  # a level asked for by band carries its difficulty block now
        data = json.loads(text)
        assert data["metrics"].pop("difficulty")["band"] == data["metrics"]["band"]
        assert data["generator"]["parameters"].pop("rated") is True
        text = format_json(data)
    else:
        assert "difficulty" not in json.loads(text)["metrics"]
    assert hashlib.sha256(text.encode()).hexdigest()[:32] == digest


@pytest.mark.parametrize(("size", "moves"), [("3x3", 29), ("3x3", 30), ("3x3", 31), ("2x3", 21)])
def test_every_length_up_to_the_largest(size: str, moves: int) -> None:
    level = create_level(parse_spec({"size": size, "moves": moves}), 1)
    assert level.metrics is not None and level.metrics.optimal_length == moves
    assert level.metrics.band == "expert"
    found = solve(level.start, level.goal, count_cap=1000)
    assert found.length == moves and found.path == level.solution
    assert found.count == level.metrics.optimal_solutions
    verdict = FAMILY.verify(level, prove=True, budget=Budget(), options={})
    assert verdict.status == "ok", verdict.text


def test_the_seed_draws_from_the_whole_layer() -> None:
    """The 8-puzzle has two frames at 31 moves: seeds find both, and a seed its own."""
    starts = {create_level(parse_spec({"size": "3x3", "moves": 31}), s).start for s in range(8)}
    assert len(starts) == 2
    again = create_level(parse_spec({"size": "3x3", "moves": 31}), 3)
    assert format_json(FAMILY.dump(again)) == format_json(
        FAMILY.dump(create_level(parse_spec({"size": "3x3", "moves": 31}), 3))
    )


def test_colour_lengths_past_the_goal_farthest_are_refused() -> None:
    goal = [[1, 2, 1], [2, 0, 2], [1, 2, 1]]
    level = create_level(parse_spec({"goal": goal, "moves": 14}), 2)
    assert level.metrics is not None and level.metrics.optimal_length == 14
    assert solve(level.start, level.goal).length == 14
    with pytest.raises(SpecError) as err:
        create_level(parse_spec({"goal": goal, "moves": 15}), 2)
    assert err.value.option == "moves" and "the farthest is 14" in err.value.reason


def test_a_heuristic_walk_makes_a_proved_long_4x4_level() -> None:
    """Past the first expert top (55) a 4x4 level comes from the heuristic walk; the tests'
    tables are the smaller general split, so the length stays modest here (the benchmark
    makes 60, 66 and 72 with Korf and Felner's tables)."""
    goal = numbered_goal(4, 4)
    start, path = walk_away(goal, 56, random.Random(3))
    found = solve(start, goal)
    assert found.length == 56 == len(path) and found.path == path


def test_the_goal_of_a_level_file(tmp_path: object) -> None:
    path = ROOT / "levels" / "sliding_3x3_numbered.json"
    result = CliRunner().invoke(
        app,
        ["create", "--game", "sliding-puzzle", "--goal", str(path), "--moves", "9", "-o", "-"],
    )
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)
    assert made["goal"] == json.loads(path.read_text())["goal"]
    assert made["metrics"]["optimal_length"] == 9
    other = ROOT / "levels" / "slide_down_12x8.json"
    result = CliRunner().invoke(app, ["create", "--game", "sliding-puzzle", "--goal", str(other)])
    assert result.exit_code == 2
    assert "got a 'linkup' file" in result.output


def test_a_hint_out_of_budget_gives_a_move_and_the_proved_bound() -> None:
    level = FAMILY.read(json.loads((ROOT / "levels" / "sliding_4x4_numbered_40.json").read_text()))
    assert isinstance(level, SlidingLevel)
    hint = FAMILY.hint(level, budget=Budget(max_nodes=5), options={})
    assert hint.status == "unknown"
    assert hint.details["move"] in ("U", "D", "L", "R")
    assert hint.details["solution_length"] >= hint.details["lower_bound"] >= 30
    assert f"at least {hint.details['lower_bound']} are needed" in hint.text


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 16), st.integers(0, 2**31))
def test_a_tight_walks_frame_is_exactly_as_far_as_its_bound(moves: int, seed: int) -> None:
    goal = numbered_goal(3, 3)
    far = tight_walk(goal, moves, lambda frame: lower_bound(frame, goal), random.Random(seed))
    if far is not None:
        assert lower_bound(far, goal) == moves
        assert bfs.plain_distance(bytes(far.cells), bytes(goal.cells), 3, 3) == moves


def test_tight_walks_reach_short_lengths() -> None:
    goal = numbered_goal(3, 3)
    found = [
        tight_walk(goal, 8, lambda frame: lower_bound(frame, goal), random.Random(seed))
        for seed in range(5)
    ]
    assert any(f is not None for f in found)
