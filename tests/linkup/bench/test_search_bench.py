"""``levelgen bench solve`` on a tiny benchmark folder: figures, JSON, comparison and errors."""

from __future__ import annotations

import json
from pathlib import Path

from pytest import MonkeyPatch
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.bench import solve as bench_solve
from levelgen.linkup.bench.common import BenchBoard
from levelgen.linkup.bench.solve import BoardRun, cross_check, scale_boards, summarize
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.generator import generate

runner = CliRunner()

BOARDS = [
    # Solvable with or without the ring.
    [[1, 1, 2, 2], [3, 3, 4, 4]],
    # The crossed block: unsolvable with two turns, ring or not.
    [[1, 2, 3, 3], [2, 1, 4, 4]],
]


def write_bench(folder: Path) -> Path:
    lines = [
        json.dumps(
            {
                "id": f"bench-4x2-{i:02d}",
                "seed": i,
                "width": 4,
                "height": 2,
                "grid": grid,
                "rules": {"max_turns": 2, "outside": True},
            }
        )
        for i, grid in enumerate(BOARDS)
    ]
    (folder / "bench_4x2.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_text_report_has_every_group_and_memory(tmp_path: Path) -> None:
    folder = write_bench(tmp_path)
    result = runner.invoke(app, ["bench", "solve", "--boards", str(folder), "--time-limit", "5"])
    assert result.exit_code == 0, result.output
    assert "4x2 outside=on" in result.output and "4x2 outside=off" in result.output
    assert "decided 100.0%" in result.output
    assert "peak resident memory" in result.output


def test_json_report_counts_and_compare(tmp_path: Path) -> None:
    folder = write_bench(tmp_path)
    result = runner.invoke(
        app,
        ["bench", "solve", "--boards", str(folder), "--no-outside", "--compare", "--json"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    search = report["methods"]["search"]
    assert list(search["groups"]) == ["4x2 outside=off"]
    assert search["all"]["solved"] == 1 and search["all"]["unsolvable"] == 1
    assert search["all"]["decided"] == 1.0
    assert report["methods"]["exhaustive"]["all"]["decided"] == 1.0
    assert report["speedup_vs_exhaustive"] > 0
    assert report["peak_rss_mb"] > 0


def test_methods_take_turns_board_by_board(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    """With ``--compare`` each board is decided by both methods before the next one, so that
    a slower or faster spell of the machine weighs on both alike."""
    calls: list[tuple[str, str, bool]] = []
    real = bench_solve._run_one

    def spy(
        bb: BenchBoard, rules: Rules, method: str, time_limit: float, rival: object
    ) -> BoardRun:
        calls.append((bb.id, method, rules.outside))
        return real(bb, rules, method, time_limit, rival)  # type: ignore[arg-type]

    monkeypatch.setattr(bench_solve, "_run_one", spy)
    folder = write_bench(tmp_path)
    result = runner.invoke(app, ["bench", "solve", "--boards", str(folder), "--compare"])
    assert result.exit_code == 0, result.output
    assert calls == [
        (f"bench-4x2-{i:02d}", method, outside)
        for outside in (True, False)
        for i in range(len(BOARDS))
        for method in ("search", "exhaustive")
    ]


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["bench", "solve", "--boards", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert "'--boards'" in result.output and "nowhere is not a folder" in result.output


def test_unknown_method_is_a_usage_error(tmp_path: Path) -> None:
    folder = write_bench(tmp_path)
    result = runner.invoke(app, ["bench", "solve", "--boards", str(folder), "--method", "magic"])
    assert result.exit_code == 2


def test_summarize_counts_undecided_and_medians() -> None:
    runs = [
        BoardRun("a", "4x2", True, "solved", 0.1, 5, {}),
        BoardRun("b", "4x2", True, "unknown", 0.5, 50, {"variables": 7}),
        BoardRun("c", "4x2", True, "unsolvable", 0.2, 9, {"variables": 3}),
    ]
    s = summarize(runs)
    assert (s["solved"], s["unsolvable"], s["unknown"]) == (1, 1, 1)
    assert s["decided"] == 2 / 3
    assert s["median_s"] == 0.2 and s["max_s"] == 0.5
    assert s["median_nodes"] == 9 and s["max_nodes"] == 50
    assert s["model_per_board"] == {"variables": {"median": 5.0, "max": 7}}


def test_cross_check_counts_boards_both_decided_and_contradictions() -> None:
    ours = [
        BoardRun("a", "4x2", True, "solved", 0.1, 5, {}),
        BoardRun("b", "4x2", True, "unsolvable", 0.1, 5, {}),
        BoardRun("c", "4x2", False, "unknown", 0.1, 5, {}),
    ]
    theirs = [
        BoardRun("a", "4x2", True, "solved", 0.1, 5, {}),
        BoardRun("b", "4x2", True, "solved", 0.1, 5, {}),
        BoardRun("c", "4x2", False, "solved", 0.1, 5, {}),
    ]
    assert cross_check(ours, theirs) == {"both_decided": 2, "contradictions": ["b outside=on"]}


def test_cross_check_option_reports_agreement(tmp_path: Path) -> None:
    folder = write_bench(tmp_path)
    args = ["bench", "solve", "--boards", str(folder), "--cross-check", "exhaustive"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "cross-check with exhaustive: both decided 4 board and rule sets, 0 contradictions" in (
        result.output
    )
    bad = runner.invoke(app, ["bench", "solve", "--boards", str(folder), "--cross-check", "x"])
    assert bad.exit_code == 2


def test_bad_benchmark_line_is_a_message_for_every_bench(tmp_path: Path) -> None:
    (tmp_path / "bench_4x2.jsonl").write_text("garbage\n")
    for command in ("paths", "solve"):
        result = runner.invoke(app, ["bench", command, "--boards", str(tmp_path)])
        assert result.exit_code == 3, result.output
        assert "bench_4x2.jsonl:1: not a benchmark board" in result.output


def test_scale_set_generates_levels_and_reports_each_size() -> None:
    args = ["bench", "solve", "--set", "scale", "--sizes", "12x8,10x6", "--seeds", "2"]
    result = runner.invoke(app, [*args, "--json", "--time-limit", "5"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["set"] == "scale"
    groups = report["methods"]["search"]["groups"]
    assert set(groups) == {"10x6 outside=on", "12x8 outside=on"}
    for group in groups.values():
        assert group["boards"] == 2
        assert group["solved"] == 2  # generated levels are solvable
    boards = scale_boards(["12x8"], 2)
    assert [b.id for b in boards] == ["scale-12x8-0", "scale-12x8-1"]
    assert boards[0].board == generate(Size(12, 8), seed=0).board
    assert report["seeds"] == [0, 1]


def test_scale_set_can_start_at_a_later_seed() -> None:
    """``--first-seed K`` measures the levels of seeds K, K + 1, ... (levels not looked at
    when the solver was tuned)."""
    boards = scale_boards(["12x8"], 2, 5)
    assert [b.id for b in boards] == ["scale-12x8-5", "scale-12x8-6"]
    assert boards[1].board == generate(Size(12, 8), seed=6).board
    args = ["bench", "solve", "--set", "scale", "--sizes", "10x6", "--seeds", "3"]
    result = runner.invoke(app, [*args, "--first-seed", "7", "--json", "--time-limit", "5"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["seeds"] == [7, 8, 9]
    assert report["methods"]["search"]["groups"]["10x6 outside=on"]["solved"] == 3
    bad = runner.invoke(app, [*args, "--first-seed", "-1"])
    assert bad.exit_code == 2 and "--first-seed" in bad.output


def test_scale_set_refuses_a_bad_size_or_set() -> None:
    bad = runner.invoke(app, ["bench", "solve", "--set", "scale", "--sizes", "12y8"])
    assert bad.exit_code == 2
    assert "--sizes" in bad.output
    wrong = runner.invoke(app, ["bench", "solve", "--set", "huge"])
    assert wrong.exit_code == 2
    assert "--set" in wrong.output
