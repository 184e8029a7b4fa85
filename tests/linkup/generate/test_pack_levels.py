"""Link-up's pack planning: size ramps and lists, slide cycles, difficulty targets and ramps,
and the option each refusal names."""

from __future__ import annotations

from typing import Any

import pytest

from levelgen.linkup.family import FAMILY
from levelgen.puzzles import SpecError


def plan(values: dict[str, Any], count: int, **kwargs: Any) -> list[dict[str, Any]]:
    kwargs.setdefault("difficulty", None)
    kwargs.setdefault("ramp", None)
    return FAMILY.pack_levels(values, count, **kwargs)


def test_sizes_ramp_and_list() -> None:
    ramped = plan({"size": "8x6:18x10"}, 5)
    # 11x7 has an odd cell count: one column more.
    assert [one["size"] for one in ramped] == ["8x6", "12x7", "13x8", "16x9", "18x10"]
    listed = plan({"size": "8x6,12x8", "max_turns": 1}, 4)
    assert listed == [{"size": s, "max_turns": 1} for s in ("8x6", "8x6", "12x8", "12x8")]
    assert plan({}, 2) == [{"size": "12x8"}, {"size": "12x8"}]
    assert plan({"shape": "heart"}, 1) == [{"shape": "heart"}]  # the shape's own size
    for one in ramped:
        FAMILY.parse_spec(one)


def test_difficulty_and_ramp() -> None:
    bands = [one["difficulty"] for one in plan({"size": "6x4"}, 8, ramp=("easy", "expert"))]
    assert bands == ["easy"] * 2 + ["medium"] * 2 + ["hard"] * 2 + ["expert"] * 2
    assert plan({"size": "6x4"}, 1, difficulty=" HARD ") == [{"size": "6x4", "difficulty": "hard"}]


def test_slide_cycles() -> None:
    cycled = plan({"size": "6x4", "slide_cycle": "down,none"}, 3)
    assert [one["slide"] for one in cycled] == ["down", "none", "down"]
    assert "slide_cycle" not in cycled[0]
    assert [one["slide"] for one in plan({"size": "6x4", "slide": "up,left"}, 2)] == ["up", "left"]
    assert plan({"size": "6x4", "slide": "up"}, 1) == [{"size": "6x4", "slide": "up"}]


@pytest.mark.parametrize(
    ("values", "kwargs", "option", "words"),
    [
        ({"size": "8x6:10x8:12x8"}, {}, "size", "two ends"),
        ({"size": "3x3"}, {}, "size", "odd number"),
        ({"size": "6x4:8x6", "layout": "oooo\noooo\n"}, {}, "layout", "fixes the size"),
        ({"layout": "ooo\n"}, {}, "layout", "3 tile cells"),
        ({"size": "6x4", "slide_cycle": "down,sideways"}, {}, "slide_cycle", "'sideways'"),
        ({"size": "6x4", "slide": "none,up"}, {"difficulty": "easy"}, "slide", "steering"),
        ({"size": "6x4", "symmetry": "spiral"}, {}, "symmetry", "'spiral'"),
        ({"size": "6x4", "symmetry": "mirror"}, {"ramp": ("easy", "hard")}, "symmetry", "steer"),
        ({"size": "6x4"}, {"ramp": ("hard", "easy")}, "ramp", "falls"),
        ({"size": "6x4"}, {"difficulty": "brutal"}, "difficulty", "brutal"),
    ],
)
def test_refusals_name_the_option(
    values: dict[str, Any], kwargs: dict[str, Any], option: str, words: str
) -> None:
    with pytest.raises(SpecError) as caught:
        plan(values, 4, **kwargs)
    assert caught.value.option == option and words in caught.value.reason
