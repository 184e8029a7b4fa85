"""Byte identity across releases of the package's layout: levels created, solved and packed
from fixed seeds are compared, byte for byte, with files the command line wrote before the
package was laid out by family (``tests/data/golden``, written with the Python code alone).
Whatever moves inside, the same seed and options must keep giving the same files."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from tests import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden"

#: The file each create command line wrote (the output name, then the options).
CREATED = [
    ("classic_12x8_s0", "--size 12x8 --seed 0"),
    ("classic_12x8_s7", "--size 12x8 --seed 7"),
    ("wide_18x8_s3", "--size 18x8 --seed 3 --copies 2"),
    ("kinds_10x6_s5", "--size 10x6 --seed 5 --kinds 6"),
    ("turns1_8x6_s2", "--size 8x6 --seed 2 --max-turns 1"),
    ("noring_16x9_s4", "--size 16x9 --seed 4 --no-outside"),
    ("turns3_14x8_s9", "--size 14x8 --seed 9 --max-turns 3"),
    ("slide_down_12x8_s1", "--size 12x8 --seed 1 --slide down"),
    ("slide_center_10x8_s2", "--size 10x8 --seed 2 --slide center"),
    ("layers_12x8_s3", "--size 12x8 --seed 3 --layers 3"),
    ("easy_12x8_s11", "--size 12x8 --seed 11 --difficulty easy"),
    ("expert_12x8_s12", "--size 12x8 --seed 12 --difficulty expert"),
    ("score_16x9_s13", "--size 16x9 --seed 13 --difficulty 55"),
    ("big_24x14_s6", "--size 24x14 --seed 6"),
    ("layout_s21", f"--layout {ROOT / 'levels' / 'layouts' / 'diamond.txt'} --seed 21"),
]


def _run(*args: str) -> None:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("name", "options"), CREATED, ids=[name for name, _ in CREATED])
def test_created_levels_keep_their_bytes(tmp_path: Path, name: str, options: str) -> None:
    out = tmp_path / f"{name}.json"
    _run("create", *shlex.split(options), "-o", str(out))
    assert out.read_bytes() == (GOLDEN / f"{name}.json").read_bytes()


def test_a_solved_level_keeps_its_bytes(tmp_path: Path) -> None:
    out = tmp_path / "solved.json"
    _run("solve", str(GOLDEN / "hand_18x8.json"), "-o", str(out))
    assert out.read_bytes() == (GOLDEN / "hand_18x8.solved.json").read_bytes()


def test_a_pack_keeps_its_bytes(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    options = "--count 4 --size 8x6:12x8 --ramp easy:hard --seed 5 --workers 1"
    _run("pack", "-o", str(out), *shlex.split(options))
    expected = sorted(p.name for p in (GOLDEN / "pack_ramp").iterdir())
    assert sorted(p.name for p in out.iterdir()) == expected
    for name in expected:
        if name != "manifest.json":
            assert (out / name).read_bytes() == (GOLDEN / "pack_ramp" / name).read_bytes(), name
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest == json.loads((GOLDEN / "pack_ramp" / "manifest.json").read_text())
