"""``levelgen bench fix``: a small run reports the broken boards, the swaps found and no replay
failure (its timing is measured, never asserted)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()


def test_a_small_run_reports_fixes_that_replay() -> None:
    args = ["bench", "fix", "--levels", "2", "--copies", "2", "--tries", "200", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    for name in ("1_swaps", "2_swaps"):
        part = report[name]
        assert part["boards"] + part["no_unsolvable_break"] == 2
        assert part["replay_failures"] == 0
        assert sum(part["statuses"].values()) == part["boards"]
        assert all(1 <= n <= 4 for n in part["swaps"])
