"""The benchmark workloads on a few items each (the figures of a full run are the README's):
Korf's data file is whole (100 solvable instances, mean published length 53.05), and every
workload returns figures that say its answers were right."""

from __future__ import annotations

import json

import pytest

from levelgen.sliding import bench
from levelgen.sliding.rules import reachability


def test_korfs_instances_are_whole() -> None:
    items = bench.load_korf100()
    assert [i.number for i in items] == list(range(1, 101))
    assert sum(i.length for i in items) == 5305
    for item in items:
        assert sorted(item.frame.cells) == list(range(16))
        assert reachability(item.frame, bench.KORF_GOAL).reachable
        assert item.length % 2 == (item.frame.blank // 4 + item.frame.blank % 4) % 2


def test_the_workloads_report_right_answers() -> None:
    easy = [i for i in bench.load_korf100() if i.number in (79, 42)]
    korf = bench.bench_korf(easy)
    assert korf.all_correct and korf.count == 2
    assert [r["length"] for r in korf.rows] == [42, 42]
    numbered = bench.bench_numbered(2, low=24, high=25)
    assert numbered.all_correct and [r["optimal_length"] for r in numbered.rows] == [24, 25]
    colour = bench.bench_colour(4)
    small = bench.bench_small(6)
    for figures in (korf, numbered, colour, small):
        assert figures.all_correct
        assert figures.median_seconds <= figures.max_seconds
        json.dumps(figures.as_dict())
    assert {r["colors"] for r in colour.rows} == {2, 3}


def test_the_length_workloads_report_right_answers(capsys: pytest.CaptureFixture[str]) -> None:
    from levelgen.sliding import bench_lengths

    every = bench_lengths.bench_every_length("2x3")
    assert every.all_correct and every.count == 21
    assert [r["moves"] for r in every.rows] == list(range(1, 22))
    largest = bench_lengths.bench_largest(("3x2", "2x4"), count=1)
    assert largest.all_correct
    assert [(r["size"], r["largest"]) for r in largest.rows] == [("3x2", 21), ("2x4", 36)]
    long = bench_lengths.bench_long((30,), count=2)
    assert long.all_correct and long.count == 2
    json.dumps([f.as_dict() for f in (every, largest, long)])
    from levelgen.sliding.bench_command import _lengths

    figures = {"every-length-3x3": every, "largest-3x4": largest, "long-4x4": long}
    _lengths({k: v.as_dict() for k, v in figures.items()})
    printed = capsys.readouterr().out
    assert "a level at each of 1..21 moves (all exact: True)" in printed
    assert "2x4 at its largest distance 36" in printed and "4x4 at 30 moves: median" in printed


def test_korf_and_taylors_24_puzzles_are_the_published_ones_turned() -> None:
    """The ten 24-puzzles: lengths 95..114 as published, each reachable, and turned half round
    onto the numbered goal without changing its Manhattan distance (the same puzzle)."""
    from levelgen.sliding.bench import KORF24, load_korf24
    from levelgen.sliding.heuristics import manhattan
    from levelgen.sliding.rules import Frame, reachability

    korf_goal = Frame(5, 5, tuple(range(25)))
    goal = Frame(5, 5, (*range(1, 25), 0))
    loaded = load_korf24()
    assert [i.length for i in loaded] == [95, 96, 97, 98, 100, 101, 104, 108, 113, 114]
    for item, (_, _, text) in zip(loaded, KORF24, strict=True):
        original = Frame(5, 5, tuple(int(v) for v in text.split()))
        assert sorted(original.cells) == list(range(25))
        assert reachability(item.frame, goal).reachable
        assert reachability(original, korf_goal).reachable
        assert manhattan(item.frame, goal) == manhattan(original, korf_goal)


def test_the_bounded_workload_states_bounds_and_factors() -> None:
    found = bench.bench_bounded(side=6, count=2, limit=0.2)
    assert found.count == 2 and len(found.rows) == 2
    for row in found.rows:
        assert row["lower_bound"] > 0
        if row["solution"] is not None and row["status"] == "unknown":
            assert row["factor"] == round(row["solution"] / row["lower_bound"], 3)
        assert row["seconds"] < 5


def test_the_bounded_workload_starts_from_walks_on_request() -> None:
    """``--walk``: the starts are that many moves from the goal; a short walk is solved
    optimally, at most as long as the walk."""
    found = bench.bench_bounded(side=6, count=2, limit=2.0, walk=12)
    assert found.name == "bounded-6x6-walk-12" and found.all_correct
    for row in found.rows:
        assert row["status"] == "solved" and row["factor"] == 1.0
        assert row["solution"] == row["lower_bound"] <= 12


def test_the_bounded_command_takes_a_side_and_a_walk() -> None:
    from typer.testing import CliRunner

    from levelgen.cli import app

    shown = CliRunner().invoke(
        app, ["bench", "sliding", "--bounded", "--side", "6", "--walk", "10", "--limit", "2"]
    )
    assert shown.exit_code == 0, shown.output
    assert "bounded-6x6-walk-10" in shown.output and "status solved" in shown.output
    refused = CliRunner().invoke(app, ["bench", "sliding", "--bounded", "--side", "9"])
    assert refused.exit_code == 2 and "--side" in refused.output
