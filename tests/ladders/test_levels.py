"""The sample levels (``levels/ladders_*.json``): each verifies and proves; Chutes and Ladders
carries the published fraction and its fewest rolls; every generated one is made again,
byte for byte, from the seed and parameters it records."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from levelgen.formats import format_json, parse_json
from levelgen.ladders import FAMILY
from levelgen.ladders.analysis import parse_fraction
from levelgen.ladders.bench import CHUTES_AND_LADDERS, PUBLISHED_EXPECTED
from levelgen.puzzles import Budget

ROOT = Path(__file__).resolve().parents[2]
LEVELS = sorted((ROOT / "levels").glob("ladders_*.json"))
SCHEMA = json.loads((ROOT / "schemas" / "snakes-ladders.level.v1.schema.json").read_text())


def test_the_samples_cover_the_rules() -> None:
    levels = [FAMILY.read(parse_json(p.read_text(encoding="utf-8"))) for p in LEVELS]
    assert {lv.rules.overshoot for lv in levels} == {"exact", "bounce", "pass"}
    assert any(lv.board.width != lv.board.height for lv in levels)
    assert any(lv.rules.faces != 6 for lv in levels)
    assert len(LEVELS) >= 5


@pytest.mark.parametrize("path", LEVELS, ids=[p.name for p in LEVELS])
def test_sample_verifies(path: Path) -> None:
    data = parse_json(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)  # an independent validator
    level = FAMILY.read(data)
    verdict = FAMILY.verify(level, prove=True, budget=Budget())
    assert verdict.status == "ok", verdict.text
    assert format_json(FAMILY.dump(level)) == path.read_text(encoding="utf-8")
    if level.generator is not None and level.generator.name == "levelgen":
        assert level.generator.seed is not None
        spec = FAMILY.parse_spec(dict(level.generator.parameters))
        remade = FAMILY.create(spec, level.generator.seed)
        assert format_json(FAMILY.dump(remade)) == path.read_text(encoding="utf-8")


def test_chutes_and_ladders() -> None:
    path = ROOT / "levels" / "ladders_chutes_10x10.json"
    level = FAMILY.read(parse_json(path.read_text(encoding="utf-8")))
    assert level.board == CHUTES_AND_LADDERS
    assert level.analysis is not None
    assert parse_fraction(level.analysis.expected_rolls.fraction) == PUBLISHED_EXPECTED
    assert level.analysis.fewest_rolls == 7
