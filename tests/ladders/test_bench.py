"""The benchmark functions run and report their figures (no timed assertion: the figures are
for the bench command; only what they compute is checked)."""

from __future__ import annotations

from levelgen.ladders import bench


def test_chutes_and_ladders_figures() -> None:
    figures = bench.chutes_and_ladders()
    assert figures["same_fraction"] is True
    assert figures["expected_rolls"] == figures["published"]
    assert figures["fewest_rolls"] == 7


def test_analysis_and_generation_figures() -> None:
    timing = bench.analysis_seconds("10x10", boards=2, repeats=1)
    assert timing["median_seconds"] > 0 and len(timing["expected_rolls"]) == 2
    rate = bench.generation_rate(count=3)
    assert rate["boards"] == 3 and rate["boards_per_second"] > 0
    assert 30 <= rate["expected_min"] <= rate["expected_max"] <= 35


def test_random_boards_are_seeded() -> None:
    assert bench.random_board("12x8", 4) == bench.random_board("12x8", 4)
    assert bench.random_board("12x8", 4) != bench.random_board("12x8", 5)
