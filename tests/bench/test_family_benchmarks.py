"""``levelgen bench`` gets each family's commands through the table
(:meth:`levelgen.puzzles.Family.add_benchmarks`), a registered family's too, and loads no
family's benchmark modules for another command."""

from __future__ import annotations

import pytest

from tests import ROOT
from tests.processes import run_main


def test_a_registered_family_adds_its_benchmark_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEVELGEN_FAMILIES", "counting=tests.bench.family_benched:BENCHED")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    code, output, _ = run_main(["bench", "--help"], ("levelgen",))
    assert code == 0, output
    commands = [line.split()[0] for line in output.split("Commands:")[1].splitlines() if line]
    for name in ("paths", "solve", "create", "boards", "sliding", "ladders", "pack", "serve"):
        assert name in commands
    assert "counting" in commands
    code, output, loaded = run_main(["bench", "counting", "--count", "4"], ("levelgen",))
    assert code == 0 and output.startswith("1 2 3 4"), output
    assert "levelgen.bench" in loaded and "levelgen.linkup.bench" in loaded


def test_other_commands_load_no_benchmarks() -> None:
    code, _, loaded = run_main(["version"], ("levelgen.bench", "levelgen.linkup.bench"))
    assert code == 0 and loaded == []
