"""The sample levels under ``levels/sliding_*.json``, data-driven: each reads, verifies with its
optimality proved again, and, when it names its generator, is made again byte for byte from
its seed and parameters."""

from __future__ import annotations

from pathlib import Path

import pytest

from levelgen.formats import format_json, parse_json
from levelgen.puzzles import Budget
from levelgen.sliding import FAMILY
from levelgen.sliding.level import SlidingLevel

ROOT = Path(__file__).resolve().parents[2]
LEVELS = sorted((ROOT / "levels").glob("sliding_*.json"))


def test_there_are_samples_of_every_kind() -> None:
    names = [p.name for p in LEVELS]
    assert any("3x3" in n for n in names) and any("4x4_numbered" in n for n in names)
    assert any("colour" in n for n in names) and any("5x3" in n or "3x4" in n for n in names)


@pytest.mark.parametrize("path", LEVELS, ids=[p.stem for p in LEVELS])
def test_sample_level_verifies_and_regenerates(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    level = FAMILY.read(parse_json(text, str(path)))
    assert isinstance(level, SlidingLevel)
    verdict = FAMILY.verify(level, prove=True, budget=Budget(), options={})
    assert verdict.status == "ok", verdict.text
    assert verdict.details["proved_optimal"]
    assert level.metrics is not None
    assert verdict.details["optimal_length"] == level.metrics.optimal_length
    g = level.generator
    if g is not None and g.name == "levelgen":
        values = {k: v for k, v in g.parameters.items() if v is not None}
        values["rated"] = bool(g.parameters.get("rated"))  # a rated level records it
        spec = FAMILY.parse_spec(values)
        assert g.seed is not None
        assert format_json(FAMILY.dump(FAMILY.create(spec, g.seed))) == text
