"""The generator: certificates that replay, exact paths, kind rules, layouts, determinism and
every refusal."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import levelgen
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.moves import legal_moves
from levelgen.linkup.core.paths import find_path
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate import generator
from levelgen.linkup.generate.generator import (
    GENERATOR_NAME,
    SLOT,
    GenerationError,
    format_layout,
    generate,
    kind_tile_counts,
    parse_layout,
)
from levelgen.linkup.verify import Problem, replay

SHAPED = """\
..oooooo..
.oooooooo.
oooo..oooo
oooo..oooo
.oooooooo.
..oooooo..
"""

WALLED = """\
oooooooo
oo#oo#oo
oooooooo
oo#oo#oo
oooooooo
"""


def check_level(level: Level) -> None:
    """Everything a generated level promises, checked without trusting the generator."""
    assert level.solution is not None and level.metrics is not None
    assert replay(level.board, level.rules, level.solution) == []
    board = level.board
    counts = []
    for move in level.solution:
        assert (move.a.y, move.a.x) < (move.b.y, move.b.x)
        assert move.path == find_path(board, move.a, move.b, level.rules)
        counts.append(len(legal_moves(board, level.rules)))
        board = board.without(move.a, move.b)
    assert board.is_cleared()
    assert level.metrics.start_moves == counts[0]
    assert level.metrics.mean_moves == round(sum(counts) / len(counts), 4)
    hist = [0] * (level.rules.max_turns + 1)
    for move in level.solution:
        hist[move.path.turns] += 1
    assert level.metrics.turn_histogram == tuple(hist)


# ----- determinism and provenance -----------------------------------------------------------


def test_same_seed_same_level() -> None:
    first = generate(Size(12, 8), seed=7)
    again = generate(Size(12, 8), seed=7)
    assert first == again
    check_level(first)


def test_different_seeds_different_boards() -> None:
    boards = {generate(Size(12, 8), seed=seed).board for seed in range(8)}
    assert len(boards) == 8


def test_generator_info_records_every_parameter() -> None:
    rules = Rules(max_turns=3, outside=False)
    level = generate(Size(6, 4), kinds=4, copies=6, rules=rules, seed=11)
    info = level.generator
    assert info is not None
    assert (info.name, info.version, info.seed) == (GENERATOR_NAME, levelgen.__version__, 11)
    assert info.parameters == {
        "size": "6x4",
        "kinds": 4,
        "copies": 6,
        "max_turns": 3,
        "outside": False,
        "layout": None,
    }
    assert level.rules == rules


def test_recorded_parameters_regenerate_the_level() -> None:
    layout = parse_layout(SHAPED)
    level = generate(Size(10, 6), layout=layout, seed=3)
    assert level.generator is not None
    p = level.generator.parameters
    assert p["layout"] == SHAPED.splitlines()
    again = generate(
        Size(10, 6),
        kinds=p["kinds"],
        copies=p["copies"],
        rules=Rules(p["max_turns"], p["outside"]),
        layout=parse_layout("\n".join(p["layout"])),
        seed=level.generator.seed,
    )
    assert again == level


def test_max_attempts_does_not_change_a_found_level() -> None:
    assert generate(Size(8, 6), seed=5) == generate(Size(8, 6), seed=5, max_attempts=1)


# ----- kinds --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "kinds", "copies", "expected"),
    [
        (96, None, 4, [4] * 24),
        (50, None, 4, [6] + [4] * 11),
        (54, None, 8, [10, 10, 10, 8, 8, 8]),
        (22, None, 12, [22]),
        (40, None, 16, [20, 20]),
        (96, 20, 4, [6] * 8 + [4] * 12),
        (96, 24, 4, [4] * 24),
        (96, 48, 2, [2] * 48),
        (96, 1, 4, [96]),
        (12, None, 2, [2] * 6),
        (2, None, 2, [2]),
    ],
)
def test_kind_tile_counts(tiles: int, kinds: int | None, copies: int, expected: list[int]) -> None:
    assert kind_tile_counts(tiles, kinds=kinds, copies=copies) == expected


@pytest.mark.parametrize(
    ("size", "kinds", "copies"),
    [((12, 8), None, 4), ((10, 5), None, 4), ((12, 8), 20, 4), ((9, 6), None, 6), ((7, 2), 7, 2)],
)
def test_generated_kind_counts_follow_the_rule(
    size: tuple[int, int], kinds: int | None, copies: int
) -> None:
    level = generate(Size(*size), kinds=kinds, copies=copies, seed=1)
    tiles = size[0] * size[1]
    counts = level.board.kind_counts()
    want = kind_tile_counts(tiles, kinds=kinds, copies=copies)
    assert counts == {kind: n for kind, n in enumerate(want, 1)}
    check_level(level)


def test_remainder_goes_to_the_first_kinds() -> None:
    counts = generate(Size(10, 5), seed=2).board.kind_counts()
    assert counts[1] == 6
    assert all(n == 4 for kind, n in counts.items() if kind != 1)
    assert len(counts) == 12


# ----- sizes, layouts and rules ---------------------------------------------------------------


@pytest.mark.parametrize("size", [(1, 2), (2, 1), (3, 2), (12, 8), (8, 12), (24, 14), (64, 2)])
def test_sizes(size: tuple[int, int]) -> None:
    copies = 2 if size[0] * size[1] < 4 else 4
    level = generate(Size(*size), copies=copies, seed=size[0])
    assert level.board.size == size
    check_level(level)


@pytest.mark.parametrize("text", [SHAPED, WALLED])
@pytest.mark.parametrize("outside", [True, False])
def test_layouts_keep_holes_and_walls(text: str, outside: bool) -> None:
    layout = parse_layout(text)
    level = generate(layout.size, layout=layout, rules=Rules(outside=outside), seed=4)
    for slot, cell in zip(layout.cells, level.board.cells, strict=True):
        if slot == SLOT:
            assert cell >= 1
        else:
            assert cell == slot
    check_level(level)


@pytest.mark.parametrize("max_turns", [0, 1, 2, 3])
@pytest.mark.parametrize("outside", [True, False])
def test_rules(max_turns: int, outside: bool) -> None:
    rules = Rules(max_turns=max_turns, outside=outside)
    size = Size(6, 4) if max_turns == 0 else Size(12, 8)
    level = generate(size, rules=rules, seed=9)
    assert level.rules == rules
    check_level(level)


@settings(derandomize=True, deadline=None, max_examples=150)
@given(
    width=st.integers(1, 10),
    height=st.integers(1, 8),
    seed=st.integers(0, 2**32),
    max_turns=st.integers(1, 3),
    outside=st.booleans(),
    copies=st.sampled_from([2, 4, 6]),
)
def test_any_request_gives_a_level_that_replays(
    width: int, height: int, seed: int, max_turns: int, outside: bool, copies: int
) -> None:
    if width * height % 2:
        width += 1
    tiles = width * height
    if tiles < copies:
        copies = 2
    level = generate(
        Size(width, height),
        copies=copies,
        rules=Rules(max_turns=max_turns, outside=outside),
        seed=seed,
    )
    check_level(level)
    assert sorted(level.board.kind_counts().values(), reverse=True) == kind_tile_counts(
        tiles, copies=copies
    )


def test_a_level_that_fails_replay_is_never_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generator, "replay", lambda *args: [Problem("/solution/0", "broken")])
    with pytest.raises(AssertionError, match="does not replay"):
        generate(Size(4, 2), seed=0)


# ----- layouts as text ------------------------------------------------------------------------


def test_parse_layout() -> None:
    board = parse_layout("o.#o  \r\noooo\n\n  \n")
    assert board.size == (4, 2)
    assert board.cells == (SLOT, EMPTY, WALL, SLOT, SLOT, SLOT, SLOT, SLOT)


@pytest.mark.parametrize("text", [SHAPED, WALLED, "oo\n", "o.#\n#.o\n"])
def test_format_layout_round_trip(text: str) -> None:
    assert format_layout(parse_layout(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the layout is empty"),
        ("\n \n", "the layout is empty"),
        ("oo\nox\n", "line 2, column 2 of the layout: unexpected 'x'"),
        ("o o\n", "line 1, column 2 of the layout: unexpected ' '"),
        ("oo\n1o\n", "line 2, column 1"),
        ("oooo\noo\n", "line 2 of the layout has 2 cells, but line 1 has 4"),
        ("oo\n\noo\n", "line 2 of the layout is empty"),
        ("o" * 65, "line 1 of the layout has 65 cells; at most 64"),
        ("o\n" * 65, "the layout has 65 lines; at most 64"),
    ],
)
def test_parse_layout_errors(text: str, message: str) -> None:
    with pytest.raises(GenerationError, match=message):
        parse_layout(text)


# ----- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": Size(3, 3)}, "9 tile cells, an odd number"),
        ({"size": Size(0, 4)}, r"width 0 is out of range 1\.\.64"),
        ({"size": Size(4, 65)}, r"height 65 is out of range 1\.\.64"),
        ({"size": "12x8"}, "size must be a"),
        ({"copies": 3}, "copies must be an even number of at least 2"),
        ({"copies": 0}, "copies must be an even number"),
        ({"copies": 128}, "96 tile cells, fewer than copies = 128"),
        ({"kinds": 0}, "kinds must be a whole number of at least 1"),
        ({"kinds": 49}, "kinds = 49 is more than the 48 pairs"),
        ({"kinds": 25}, r"kinds 25 x copies 4 = 100 tiles, more than the board's 96"),
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"max_attempts": 0}, "max_attempts must be at least 1"),
        ({"layout": parse_layout("oo\noo\n")}, "the layout is 2x2 but the size asked is 12x8"),
    ],
)
def test_refusals(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"size": Size(12, 8), "seed": 0, **kwargs}
    with pytest.raises(GenerationError, match=message):
        generate(**args)  # type: ignore[arg-type]


def test_layout_without_tiles() -> None:
    layout = parse_layout("..#\n#..\n")
    with pytest.raises(GenerationError, match="the layout has no tile cell"):
        generate(layout.size, layout=layout, seed=0)


def test_layout_with_an_odd_tile_count() -> None:
    layout = parse_layout("ooo.\n")
    with pytest.raises(GenerationError, match="3 tile cells, an odd number"):
        generate(layout.size, layout=layout, copies=2, seed=0)


def test_layout_where_no_removal_is_possible() -> None:
    layout = parse_layout("o#o\n#.#\no#o\n")
    rules = Rules(max_turns=2, outside=False)
    with pytest.raises(GenerationError, match="no removal is possible at all"):
        generate(layout.size, layout=layout, rules=rules, copies=2, seed=0)


def test_layout_with_only_dead_ends() -> None:
    layout = parse_layout("oo#o#o\n")
    rules = Rules(max_turns=0, outside=False)
    with pytest.raises(
        GenerationError,
        match="no complete removal order found for this 6x1 layout with max_turns 0 and"
        " outside off: the random playout met 7 dead ends",
    ):
        generate(layout.size, layout=layout, rules=rules, copies=2, seed=0, max_attempts=7)


def test_generation_error_is_a_value_error() -> None:
    assert issubclass(GenerationError, ValueError)


def test_docstring_examples() -> None:
    assert doctest.testmod(generator).failed == 0


def test_full_board_has_no_empty_cell() -> None:
    level = generate(Size(12, 8), seed=0)
    assert EMPTY not in level.board.cells and WALL not in level.board.cells
    assert Board.from_grid(level.board.grid()) == level.board


def test_same_level_in_fresh_processes() -> None:
    """No dependence on hash seeds or process state: two fresh interpreters agree."""
    code = (
        "from levelgen.linkup.generate.generator import generate, parse_layout\n"
        "from levelgen.linkup.core.geometry import Size\n"
        f"layout = parse_layout({SHAPED!r})\n"
        "print(repr(generate(Size(12, 8), seed=42)))\n"
        "print(repr(generate(Size(10, 6), layout=layout, seed=43)))\n"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert repr(generate(Size(12, 8), seed=42)) in outputs[0]


def test_layout_slots_may_hold_any_kind() -> None:
    """A dressed board can serve as a layout: its tiles are slots, whatever their kinds."""
    first = generate(Size(6, 4), seed=8)
    again = generate(Size(6, 4), layout=first.board, seed=8)
    assert again.board == first.board
    assert format_layout(first.board) == "oooooo\n" * 4


def test_bench_create_command() -> None:
    """The benchmark runs end to end (its figures are timings, never asserted here)."""
    from typer.testing import CliRunner

    from levelgen.cli import app

    result = CliRunner().invoke(
        app,
        ["bench", "create", "--sizes", "6x4", "--count", "5", "--repeats", "1", "--seeds", "5"],
    )
    assert result.exit_code == 0, result.output
    assert "levels/s" in result.output
    assert "0 unsolvable or unreplayable levels over 5 seeds" in result.output
