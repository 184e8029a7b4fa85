"""The pattern-database cache on disk: where it lives, a table read back whole, a damaged or
foreign file built again, nothing half-written left, a folder that cannot be written tolerated."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from levelgen.sliding import pdb, pdb_cache
from levelgen.sliding.encoding import encode_puzzle
from levelgen.sliding.rules import Frame

GOAL = Frame(4, 3, (*range(1, 12), 0))
ENC = encode_puzzle(GOAL)
PATTERN = pdb.make_pattern([1, 2], [1] * 2, 12)  # 132 entries: memory only
BIG = pdb.make_pattern([1, 2, 3, 4], [1] * 4, 12)  # 11,880 entries: on disk in these tests


@pytest.fixture(autouse=True)
def _small_disk_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdb_cache, "DISK_MIN_ENTRIES", 10_000)


def test_the_folder_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(pdb_cache.CACHE_ENV, str(tmp_path / "a"))
    assert pdb_cache.cache_dir() == tmp_path / "a"
    monkeypatch.delenv(pdb_cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pdb_cache.cache_dir() == tmp_path / "xdg" / "levelgen"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert pdb_cache.cache_dir() == tmp_path / "home" / ".cache" / "levelgen"


def test_tables_are_written_read_checked_and_rebuilt(tmp_path: Path) -> None:
    store = pdb_cache.TableStore(tmp_path)
    small = store(4, 3, ENC.goal, PATTERN)
    assert list(tmp_path.iterdir()) == []  # below DISK_MIN_ENTRIES: memory only
    table = store(4, 3, ENC.goal, BIG)
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].name.startswith("sliding-pdb-v1-")
    assert table == pdb_cache.build_table(4, 3, ENC.goal, BIG)
    assert store(4, 3, ENC.goal, BIG) is table
    fresh = pdb_cache.TableStore(tmp_path)
    assert fresh(4, 3, ENC.goal, BIG) == table
    assert fresh.events[-1][1] == "disk"
    data = bytearray(files[0].read_bytes())
    data[len(data) // 2] ^= 0xFF  # one damaged byte: the checksum fails
    files[0].write_bytes(bytes(data))
    damaged = pdb_cache.TableStore(tmp_path)
    assert damaged(4, 3, ENC.goal, BIG) == table
    assert damaged.events[-1][1] == "rebuilt"
    assert pdb_cache.TableStore(tmp_path)(4, 3, ENC.goal, BIG) == table
    files[0].write_bytes(files[0].read_bytes()[:100])  # cut short
    short = pdb_cache.TableStore(tmp_path)
    assert short(4, 3, ENC.goal, BIG) == table and short.events[-1][1] == "rebuilt"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert len(small) == PATTERN.entries


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_folder_that_cannot_be_written_only_costs_the_rebuild(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        store = pdb_cache.TableStore(tmp_path / "sub")
        assert len(store(4, 3, ENC.goal, BIG)) == BIG.entries
    finally:
        tmp_path.chmod(0o700)


def test_a_file_in_the_way_only_costs_the_rebuild(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = pdb_cache.TableStore(blocker)
    assert len(store(4, 3, ENC.goal, BIG)) == BIG.entries
    assert store.events[-1][1] == "built"


def test_colour_tables_stay_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A colour puzzle's tables belong to its goal pattern, drawn anew for each level."""
    goal = Frame(4, 3, (0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1))
    enc = encode_puzzle(goal)
    pattern = pdb.make_pattern([1, 2], [6, 5], 12)  # 5,544 entries ...
    store = pdb_cache.TableStore(tmp_path)
    monkeypatch.setattr(pdb_cache, "DISK_MIN_ENTRIES", 1_000)  # ... over the threshold
    assert len(store(4, 3, enc.goal, pattern)) == pattern.entries
    assert list(tmp_path.iterdir()) == []
