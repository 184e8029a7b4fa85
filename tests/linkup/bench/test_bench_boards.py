"""The fixed benchmark boards made from their seeds (``levelgen.linkup.bench.boards``): the same
bytes as the published benchmark set, and the benchmarks that run on them from a fresh clone (no
``shared/bench`` folder anywhere); ``bench serve --only`` names its workloads."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.bench.boards import (
    BENCH_SIZES,
    SplitMix64,
    bench_file_name,
    bench_file_text,
    bench_records,
)
from levelgen.linkup.bench.common import fixed_boards

runner = CliRunner()

#: SHA-256 of the published files (``shared/bench/bench_WxH.jsonl``, made by its
#: ``make_bench.py``).
PUBLISHED = {
    "bench_12x8.jsonl": "7cf44a3e3852b854f364b3b70c3573286c5e5f50b0d21f9a54cec59a1eaa2dc5",
    "bench_16x9.jsonl": "6203d49ee1829df983a09f3550bff541e5c7b0b2ff60a523ea48ffd4162c79cc",
    "bench_18x10.jsonl": "139c874f71bdfe58e0259374234634a03d6b88affc01319dacc8e9d39148481a",
    "bench_24x14.jsonl": "a38354a01f9abf194cc9c87551cd65901942d3338d612038511d1f0a73540296",
}
#: Where the published files are on the project's machines (the test compares the bytes too
#: when they are there).
SHARED = Path("/work/shared/bench")


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current folder with no ``shared/bench`` above it: a fresh clone's view."""
    folder = tmp_path / "clone"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_splitmix64_known_outputs() -> None:
    """The reference outputs of SplitMix64 from seed 0 (Vigna's splitmix64.c)."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


@pytest.mark.parametrize(("width", "height"), BENCH_SIZES)
def test_made_boards_are_the_published_bytes(width: int, height: int) -> None:
    text = bench_file_text(width, height)
    name = bench_file_name(width, height)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == PUBLISHED[name]
    if (SHARED / name).is_file():
        assert (SHARED / name).read_text(encoding="utf-8") == text


def test_made_boards_are_full_boards_of_four_tiles_a_kind() -> None:
    for width, height in BENCH_SIZES:
        records = bench_records(width, height)
        assert [r["seed"] for r in records] == [
            100_000 * width + 1_000 * height + i for i in range(20)
        ]
        for record in records:
            tiles = [v for row in record["grid"] for v in row]
            assert len(record["grid"]) == height and len(tiles) == width * height
            assert sorted(tiles) == [1 + k // 4 for k in range(width * height)]


def test_fixed_boards_by_size_and_a_size_of_none() -> None:
    boards = fixed_boards(["16x9"])
    assert [b.id for b in boards] == [f"bench-16x9-{i:02d}" for i in range(20)]
    assert all((b.board.width, b.board.height) == (16, 9) for b in boards)
    with pytest.raises(ValueError, match="no benchmark boards of size 13x7"):
        fixed_boards(["13x7"])


def test_bench_paths_runs_without_a_boards_folder(elsewhere: Path) -> None:
    args = ["bench", "paths", "--sizes", "12x8", "--repeats", "1", "--check", "20", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report["sizes"]) == ["12x8"] and report["check"]["disagreements"] == 0


def test_bench_solve_runs_without_a_boards_folder(elsewhere: Path) -> None:
    args = ["bench", "solve", "--sizes", "12x8", "--outside", "--time-limit", "5", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    groups = json.loads(result.stdout)["methods"]["search"]["groups"]
    assert list(groups) == ["12x8 outside=on"]
    assert groups["12x8 outside=on"]["boards"] == 20


def test_bench_size_with_no_boards_is_a_usage_error(elsewhere: Path) -> None:
    for command in ("paths", "solve"):
        result = runner.invoke(app, ["bench", command, "--sizes", "13x7"])
        assert result.exit_code == 2, result.output
        assert "'--sizes'" in result.output and "13x7" in result.output
        assert "12x8, 16x9, 18x10, 24x14" in result.output


def test_bench_boards_writes_and_checks_the_files(tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    result = runner.invoke(app, ["bench", "boards", str(folder)])
    assert result.exit_code == 0, result.output
    for width, height in BENCH_SIZES:
        written = (folder / bench_file_name(width, height)).read_bytes()
        assert hashlib.sha256(written).hexdigest() == PUBLISHED[bench_file_name(width, height)]
    assert runner.invoke(app, ["bench", "boards", str(folder), "--check"]).exit_code == 0
    (folder / "bench_16x9.jsonl").write_text("{}\n")
    changed = runner.invoke(app, ["bench", "boards", str(folder), "--check"])
    assert changed.exit_code == 1 and "bench_16x9.jsonl: missing or different" in changed.output
    loaded = runner.invoke(
        app, ["bench", "paths", "--boards", str(folder), "--sizes", "12x8", "--check", "0"]
    )
    assert loaded.exit_code == 0, loaded.output


@pytest.mark.parametrize(("only", "reason"), [("nosuch", "'nosuch' is not a workload"), (",", "")])
def test_bench_serve_only_names_its_workloads(only: str, reason: str) -> None:
    """A workload name that is none of them is refused before the server starts."""
    result = runner.invoke(app, ["bench", "serve", "--only", only])
    assert result.exit_code == 2, result.output
    assert "'--only'" in result.output and reason in result.output
    assert "create, verify, hint" in result.output
