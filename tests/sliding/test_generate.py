"""The generator: the optimal length is exactly the one asked (checked by a plain breadth-first
search where the board allows), the same seed gives the same bytes, goals drawn or given, and
lengths no frame has are refused."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.formats import format_json
from levelgen.puzzles import SpecError
from levelgen.sliding import FAMILY, bfs
from levelgen.sliding.generate import create_level, draw_colour_goal
from levelgen.sliding.heuristics import lower_bound
from levelgen.sliding.rules import apply_moves
from levelgen.sliding.spec import parse_spec
from levelgen.sliding.verify import certificate_problems


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["2x2", "3x2", "2x3", "3x3", "4x2"]),
    st.sampled_from([None, 2, 3]),
    st.integers(0, 2**31),
    st.sampled_from(["easy", "medium", "hard", "expert"]),
)
def test_levels_are_exactly_as_long_as_asked(
    size: str, colors: int | None, seed: int, band: str
) -> None:
    values = {"size": size, "difficulty": band}
    if colors is not None and not (size == "2x2" and colors == 3):
        values["colors"] = colors
    level = create_level(parse_spec(values), seed)
    assert level.metrics is not None and level.solution is not None
    plain = bfs.plain_distance(
        bytes(level.start.cells), bytes(level.goal.cells), level.width, level.height
    )
    assert plain == level.metrics.optimal_length == len(level.solution)
    assert apply_moves(level.start, level.solution) == level.goal
    assert level.metrics.lower_bound == lower_bound(level.start, level.goal) <= plain
    assert certificate_problems(level) == []


def test_the_same_seed_gives_the_same_bytes() -> None:
    for values in (
        {"size": "4x4", "moves": 30},
        {"size": "4x4", "colors": 3, "difficulty": "hard"},
        {"size": "5x3", "difficulty": "medium"},
        {"size": "3x3", "goal": [[1, 1, 2], [2, 0, 3], [3, 1, 2]], "moves": 9},
    ):
        spec = parse_spec(values)
        one = format_json(FAMILY.dump(FAMILY.create(spec, 11)))
        two = format_json(FAMILY.dump(FAMILY.create(spec, 11)))
        other = format_json(FAMILY.dump(FAMILY.create(spec, 12)))
        assert one == two
        assert one != other


def test_given_goals_are_kept_and_drawn_goals_are_even() -> None:
    goal = [[2, 2, 1], [1, 0, 1]]
    level = create_level(parse_spec({"goal": goal, "moves": 7}), 3)
    assert level.goal.rows() == goal and level.metrics is not None
    assert level.metrics.optimal_length == 7
    frame = draw_colour_goal(4, 4, 3, random.Random(1))
    assert sorted(frame.labels().values()) == [5, 5, 5]
    assert frame.cells.count(0) == 1


def test_a_length_no_frame_has_is_refused_with_the_farthest() -> None:
    with pytest.raises(SpecError) as err:
        create_level(parse_spec({"goal": [[1, 1], [1, 0]], "moves": 5}), 0)
    assert err.value.option == "moves"
    assert "the farthest is 2" in err.value.reason  # all tiles alike: only the blank moves


def test_progress_is_reported() -> None:
    seen: list[tuple[str, int, int]] = []
    create_level(parse_spec({"size": "3x3", "moves": 12}), 5, lambda *a: seen.append(a))
    assert seen and seen[-1][1] == seen[-1][2]


@pytest.mark.parametrize(("size", "seed"), [("3x2", 5), ("2x3", 0)])
def test_a_band_past_a_drawn_colour_goals_farthest_frame_is_cut_to_it(size: str, seed: int) -> None:
    # These two colour goals are at most 9 moves from any frame, below the expert band's top.
    level = create_level(parse_spec({"size": size, "colors": 2, "difficulty": "expert"}), seed)
    assert level.metrics is not None and level.solution is not None
    assert level.metrics.optimal_length == len(level.solution) <= 9
    assert certificate_problems(level) == []
