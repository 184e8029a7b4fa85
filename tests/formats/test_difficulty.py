"""The one difficulty scale: bands, edges, placing a family's measure on it, the block."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from levelgen.formats.difficulty import (
    BAND_EDGES,
    BANDS,
    DifficultyBlock,
    band_bounds,
    band_of,
    block_problems,
    place_in_band,
    scale_score,
)


def test_edges_and_bands() -> None:
    assert BAND_EDGES == (12.5, 23.0, 48.0)
    assert [band_of(s) for s in (0.0, 12.4, 12.5, 22.9, 23.0, 47.9, 48.0, 100.0)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
        "expert",
        "expert",
    ]
    assert band_bounds("medium") == (12.5, 23.0)
    assert band_bounds("expert") == (48.0, 100.1)
    with pytest.raises(ValueError):
        band_bounds("impossible")


def test_linkup_takes_its_edges_from_the_scale() -> None:
    from levelgen.linkup.difficulty import score

    assert score.BAND_EDGES is BAND_EDGES
    assert score.BANDS is BANDS
    assert score.band_of is band_of


@given(st.sampled_from(BANDS), st.floats(allow_nan=False), st.floats(allow_nan=False))
def test_a_place_in_a_band_stays_in_it_and_rises(band: str, a: float, b: float) -> None:
    low, high = sorted((a, b))
    first, second = place_in_band(band, low), place_in_band(band, high)
    assert band_of(first) == band == band_of(second)
    assert 0.0 <= first <= second <= 100.0
    assert round(first, 1) == first


@given(st.floats(min_value=-50, max_value=200), st.floats(min_value=-50, max_value=200))
def test_scale_score_is_monotone(a: float, b: float) -> None:
    edges = (4.0, 10.5, 17.5, 23.5, 31.5)
    low, high = sorted((a, b))
    (band_low, t_low), (band_high, t_high) = scale_score(low, edges), scale_score(high, edges)
    assert BANDS.index(band_low) <= BANDS.index(band_high)
    if band_low == band_high:
        assert t_low <= t_high
    # a value inside a band's edges is placed inside it
    for i, band in enumerate(BANDS):
        middle = (edges[i] + edges[i + 1]) / 2
        assert scale_score(middle, edges) == (band, pytest.approx(0.5))


def test_scale_score_refuses_edges_out_of_order() -> None:
    with pytest.raises(ValueError):
        scale_score(1.0, (0.0, 2.0, 2.0, 3.0, 4.0))


def test_block_rounds_and_names_its_band() -> None:
    block = DifficultyBlock.of(47.96, {"b": 1.0, "a": 2.0})
    assert block.score == 48.0 and block.band == "expert"
    assert list(block.to_data()["measures"]) == ["a", "b"]
    assert DifficultyBlock.of(120.0, {}).score == 100.0
    assert DifficultyBlock.of(-3.0, {}).band == "easy"


def test_block_problems_name_the_place() -> None:
    good = DifficultyBlock(30.0, "hard", {})
    assert block_problems(good, 30.0) == []
    wrong_band = DifficultyBlock(30.0, "easy", {})
    assert [p.pointer for p in block_problems(wrong_band, None)] == ["/metrics/difficulty/band"]
    pointers = [p.pointer for p in block_problems(good, 31.0)]
    assert pointers == ["/metrics/difficulty/score"]
