"""Sliding rules end to end: replay including the slide, generation with a certificate, the
exact solver against the exhaustive one and against a naive solver, and the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos, Size
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.reference import reference_best
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.core.slide import SLIDE_DIRECTIONS, slide_cells
from levelgen.linkup.files import format_level
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.schema import LevelFile, parse_level_data
from levelgen.linkup.solvers import Budget, SolveStatus, solve
from levelgen.linkup.verify import replay
from tests.strategies import small_boards

runner = CliRunner()


def naive_solvable(board: Board, rules: Rules) -> bool:
    """Depth-first over every pair, links by the Dijkstra reference, the slide cell by cell
    from :mod:`levelgen.linkup.core.slide` applied to plain lists, a visited set of cell tuples."""
    seen: set[tuple[int, ...]] = set()
    w, h = board.width, board.height

    def go(cells: tuple[int, ...]) -> bool:
        if all(v <= 0 for v in cells):
            return True
        if cells in seen:
            return False
        seen.add(cells)
        tiles = [i for i, v in enumerate(cells) if v >= 1]
        here = Board(w, h, cells)
        for x, i in enumerate(tiles):
            for j in tiles[x + 1 :]:
                if cells[i] != cells[j]:
                    continue
                a, b = Pos(i % w, i // w), Pos(j % w, j // w)
                if reference_best(here, a, b, rules) is None:
                    continue
                nxt = list(cells)
                nxt[i] = nxt[j] = 0
                if go(tuple(slide_cells(nxt, w, h, rules.slide))):
                    return True
        return False

    return go(board.cells)


@settings(max_examples=150, deadline=None)
@given(
    small_boards(max_tiles=12, max_width=4),
    st.sampled_from(SLIDE_DIRECTIONS),
    st.integers(1, 3),
    st.booleans(),
)
def test_search_exhaustive_and_naive_agree(
    board: Board, direction: str, max_turns: int, outside: bool
) -> None:
    rules = Rules(max_turns, outside, direction)
    a = solve(board, rules, method="search", budget=Budget(max_nodes=50000))
    b = solve(board, rules, method="exhaustive", budget=Budget(max_nodes=50000))
    assert SolveStatus.UNKNOWN not in (a.status, b.status)
    assert a.status == b.status
    if board.tile_count() <= 8:
        assert (a.status is SolveStatus.SOLVED) == naive_solvable(board, rules)
    if a.status is SolveStatus.SOLVED:
        assert replay(board, rules, a.moves or ()) == []


@pytest.mark.parametrize("direction", SLIDE_DIRECTIONS)
def test_generated_sliding_levels_replay(direction: str) -> None:
    for seed in range(3):
        rules = Rules(slide=direction)
        level = generate(Size(8, 6), seed=seed, rules=rules)
        assert level.solution is not None and level.rules.slide == direction
        assert replay(level.board, rules, level.solution) == []
        assert generate(Size(8, 6), seed=seed, rules=rules) == level
        # The file form keeps the rule and maps back to the same level.
        again = LevelFile.from_core(level).to_core()
        assert again == level


def test_generated_with_holes_and_walls() -> None:
    from levelgen.linkup.generate.generator import parse_layout

    layout = parse_layout("oo.ooo\no#oo#o\noooooo\n.ooo..\n")
    for direction in ("down", "up-right", "apart"):
        level = generate(Size(6, 4), seed=5, layout=layout, rules=Rules(slide=direction), copies=2)
        assert level.solution is not None
        assert replay(level.board, level.rules, level.solution) == []


def test_replay_checks_positions_after_the_slide() -> None:
    level = generate(Size(6, 4), seed=2, rules=Rules(slide="down"))
    assert level.solution is not None
    moves = list(level.solution)
    # Replayed without the slide, some step names a cell that the slide has emptied or
    # changed: the classic rules reject the same solution.
    classic = replay(level.board, Rules(), moves)
    assert classic != []
    # Under another direction the tiles are elsewhere after the first slide.
    assert replay(level.board, Rules(slide="up"), moves) != []
    # A step's problem names its pointer: swap two steps.
    swapped = [moves[1], moves[0], *moves[2:]]
    problems = replay(level.board, level.rules, swapped)
    assert problems == [] or problems[0].pointer.startswith("/solution/")


def test_solve_methods_for_sliding() -> None:
    level = generate(Size(6, 4), seed=4, rules=Rules(slide="center"))
    board, rules = level.board, level.rules
    cpsat = solve(board, rules, method="cpsat")
    assert cpsat.status is SolveStatus.UNKNOWN and "does not support" in cpsat.reason
    auto = solve(board, rules)
    assert auto.status is SolveStatus.SOLVED
    with pytest.raises(ValueError, match="do not combine"):
        solve(Board(2, 1, (1, 1), ((2, 2),)), Rules(slide="down"))


def test_file_format_slide_and_classic_unchanged() -> None:
    data = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": True, "slide": "up-left"},
        "board": {"width": 2, "height": 1, "rows": [[1, 1]]},
    }
    assert parse_level_data(data).to_core().rules.slide == "up-left"
    data["rules"] = {"max_turns": 2, "outside": True, "slide": "sideways"}
    with pytest.raises(ValueError, match="/rules/slide"):
        parse_level_data(data)
    classic = generate(Size(4, 2), seed=1)
    text = format_level(classic)
    assert '"slide"' not in text and '"layers"' not in text


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_cli_create_verify_solve_show(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    code, _ = run("create", "--size", "8x6", "--slide", "down", "--seed", "7", "-o", str(out))
    assert code == 0
    code, text = run("verify", str(out))
    assert code == 0 and "slide down" in text
    code, text = run("show", str(out), "--step", "3")
    assert code == 0 and "step 3 of 24" in text
    hand = json.loads(out.read_text())
    for key in ("solution", "metrics", "id"):
        hand.pop(key)
    (tmp_path / "hand.json").write_text(json.dumps(hand))
    code, text = run("solve", str(tmp_path / "hand.json"), "-o", str(tmp_path / "solved.json"))
    assert code == 0
    code, _ = run("verify", str(tmp_path / "solved.json"))
    assert code == 0

    layered = tmp_path / "l.json"
    code, _ = run("create", "--size", "8x6", "--layers", "3", "--seed", "1", "-o", str(layered))
    assert code == 0
    code, text = run("show", str(layered))
    assert code == 0 and "stack heights (3 layers):" in text and "3 layers" in text
    code, text = run("show", str(layered), "--step", "5")
    assert code == 0
    layout = tmp_path / "layout.txt"
    layout.write_text("oooo\noooo\n\n.oo.\n.oo.\n")
    code, _ = run("create", "--layout", str(layout), "--seed", "2", "-o", str(tmp_path / "x.json"))
    assert code == 0
    assert Level is not None


def test_cli_bad_variant_options(tmp_path: Path) -> None:
    code, text = run("create", "--size", "8x6", "--slide", "sideways")
    assert code == 2 and "--slide" in text
    code, text = run("create", "--size", "8x6", "--slide", "down", "--layers", "2")
    assert code == 2 and "do not combine" in text
    code, text = run("create", "--size", "4x4", "--layers", "3")
    assert code == 2 and "--layers" in text
    layout = tmp_path / "bad.txt"
    layout.write_text("oo.\nooo\n\n..o\n...\n")
    code, text = run("create", "--layout", str(layout))
    assert code == 3 and "line 4, column 3" in text
    code, text = run("create", "--layout", str(layout), "--layers", "3")
    assert code == 3


def test_random_sliding_boards_mostly_decided() -> None:
    """A small sample of random 6x4 boards: the search decides every one quickly."""
    rng = random.Random(11)
    for direction in SLIDE_DIRECTIONS:
        cells = [k for k in range(1, 7) for _ in range(4)]
        rng.shuffle(cells)
        result = solve(
            Board(6, 4, tuple(cells)),
            Rules(slide=direction),
            method="search",
            budget=Budget(max_nodes=20000),
        )
        assert result.status is not SolveStatus.UNKNOWN


@settings(max_examples=60, deadline=None)
@given(
    small_boards(max_tiles=16, max_width=5), st.sampled_from(SLIDE_DIRECTIONS), st.integers(0, 9)
)
def test_sliding_state_masks_stay_exact(board: Board, direction: str, seed: int) -> None:
    """The incremental masks of SlidingState equal those recomputed from its cells."""
    from levelgen.linkup.core.variant_state import SlidingState

    rng = random.Random(seed)
    state = SlidingState.of(board, Rules(slide=direction))
    state.kind_masks()
    while state.tile_count() >= 2:
        tiles = [i for i, v in enumerate(state.cells) if v >= 1]
        i, j = rng.sample(tiles, 2)
        w = board.width
        state.remove_pair(Pos(i % w, i // w), Pos(j % w, j // w))
        fresh = SlidingState.of(state.to_board(), state.rules)
        assert state.cells == slide_cells(state.cells, w, board.height, direction)
        assert (state.occupied, state.free) == (fresh.occupied, fresh.free)
        assert state.kind_masks() == fresh.kind_masks()


def test_bench_create_variants() -> None:
    code, text = run(
        "bench",
        "create",
        "--slide",
        "down",
        "--sizes",
        "6x4",
        "--count",
        "5",
        "--repeats",
        "1",
        "--seeds",
        "3",
        "--solve-boards",
        "1",
    )
    assert code == 0, text
    assert "6x4 slide down layers 1:" in text and "0 failures over 3 seeds" in text
    assert "solver: 1/1 random 8x6 boards decided" in text
    code, text = run(
        "bench",
        "create",
        "--layers",
        "2",
        "--sizes",
        "6x4",
        "--count",
        "5",
        "--repeats",
        "1",
        "--seeds",
        "2",
    )
    assert code == 0, text
    assert "6x4 slide none layers 2:" in text
    code, text = run("bench", "create", "--slide", "sideways")
    assert code == 2
