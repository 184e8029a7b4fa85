"""``levelgen bench pack``: the runs it reports, medians over repeats, the Dask row and its ratio
to the local pool, and the byte-for-byte comparison (figures are printed, never asserted)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from levelgen.bench import pack as bench_pack
from levelgen.cli import app

runner = CliRunner()


def test_bench_pack_with_dask_reports_the_ratio_at_the_same_process_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("distributed", reason="Dask distributed is not installed")
    monkeypatch.setattr(bench_pack, "machine_parallelism", lambda workers: float(workers))
    args = ["bench", "pack", "--count", "3", "--size", "6x4", "--workers", "2", "--dask"]
    res = runner.invoke(app, [*args, "--repeats", "2", "--seed", "4", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    rows = report["runs"]
    assert [r["run"] for r in rows] == ["2 workers", "dask 2 workers"]
    assert all(r["same_bytes"] and len(r["repeats"]) == 2 for r in rows)
    compared = report["dask_vs_pool"]
    assert compared["processes"] == 2
    assert compared["dask_levels_per_s"] == rows[1]["levels_per_s"]
    assert compared["pool_levels_per_s"] == rows[0]["levels_per_s"]
    assert compared["ratio"] > 0


def test_bench_pack_refuses_bad_worker_counts() -> None:
    res = runner.invoke(app, ["bench", "pack", "--workers", "0"])
    assert res.exit_code == 2 and "--workers" in res.output
