"""``levelgen tables``: list, build and clear the sliding-puzzle pattern databases of a cache
folder (a temporary one: ``LEVELGEN_CACHE_DIR``); small boards only (3x3: one table of
362,880 bytes)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.sliding import pdb_cache

runner = CliRunner()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(pdb_cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(pdb_cache, "_default", None)
    yield tmp_path


def test_build_list_and_clear(cache: Path) -> None:
    empty = runner.invoke(app, ["tables", "list"])
    assert empty.exit_code == 0 and "no tables cached" in empty.output
    built = runner.invoke(app, ["tables", "build", "3x3"])
    assert built.exit_code == 0, built.output
    assert "3x3: 1 table, 362,880 bytes (1 built, 0 read from disk, 0 in memory)" in built.output
    again = runner.invoke(app, ["tables", "build", "3x3"])
    assert "(0 built, 0 read from disk, 1 in memory)" in again.output
    pdb_cache._default = None  # as a new process: from the file (the fixture restores it)
    fresh = runner.invoke(app, ["tables", "build", "3x3"])
    assert "(0 built, 1 read from disk, 0 in memory)" in fresh.output
    listed = runner.invoke(app, ["tables", "list", "--json"])
    rows = json.loads(listed.output)["tables"]
    assert [(r["size"], r["entries"], r["checksum_ok"]) for r in rows] == [("3x3", 362880, True)]
    files = list(cache.glob("sliding-pdb-v1-*.bin"))
    assert len(files) == 1 and rows[0]["bytes"] == files[0].stat().st_size
    data = bytearray(files[0].read_bytes())
    data[100] ^= 1
    files[0].write_bytes(bytes(data))
    damaged = runner.invoke(app, ["tables", "list"])
    assert "DAMAGED" in damaged.output and "1 file," in damaged.output
    other = runner.invoke(app, ["tables", "clear", "4x4"])
    assert other.exit_code == 0 and "removed 0 files" in other.output
    cleared = runner.invoke(app, ["tables", "clear", "3x3"])
    assert cleared.exit_code == 0 and "removed 1 file " in cleared.output
    assert not list(cache.glob("*.bin"))


@pytest.mark.parametrize("size", ["9x9", "1x3", "big", "4x"])
def test_a_bad_size_is_a_usage_error(cache: Path, size: str) -> None:
    got = runner.invoke(app, ["tables", "build", size])
    assert got.exit_code == 2
    assert got.output.strip().splitlines() == [
        f"levelgen tables: SIZE: {size!r} is not a board size WxH of 2..8 each"
    ]


def test_large_builds_are_announced(tmp_path: Path) -> None:
    """A table estimated at half a second or more is announced before (what, how long) and
    after (how long it took); small ones are not."""
    from levelgen.sliding.pdb import make_pattern

    lines: list[str] = []
    store = pdb_cache.TableStore(tmp_path, lines.append)
    goal = bytes([*range(1, 16), 0])
    store(4, 4, goal, make_pattern([1, 2], [1, 1], 16))
    assert lines == []
    store(4, 4, goal, make_pattern([1, 2, 3, 4, 5], [1] * 5, 16))
    assert lines[0].startswith("building the 4x4 pattern database of tile classes 1,2,3,4,5")
    assert "524,160 bytes, about" in lines[0] and str(tmp_path) in lines[0]
    assert lines[1].startswith("built the 4x4 pattern database of tile classes 1,2,3,4,5 in")
