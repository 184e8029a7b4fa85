"""Rating a Link-up level: the block of the seeded players, on the one scale."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from levelgen.formats import parse_json
from levelgen.formats.difficulty import band_of
from levelgen.linkup.difficulty.play import measure_difficulty
from levelgen.puzzles import Budget, DocumentError, family

ROOT = Path(__file__).resolve().parents[3]
FAMILY = family("linkup")


def _read(name: str) -> object:
    return parse_json((ROOT / "levels" / name).read_text(encoding="utf-8"))


def test_rate_adds_the_measured_block() -> None:
    document = FAMILY.read(_read("classic_12x8.json"))
    rated = FAMILY.rate(document, seed=4)
    level = rated.level
    assert level.metrics is not None and level.metrics.difficulty is not None
    block = level.metrics.difficulty
    assert block == measure_difficulty(level.board, level.rules, level.solution, seed=4)
    assert 0 <= block.score <= 100 and block.band == band_of(block.score)
    data = FAMILY.dump(rated)
    assert data["metrics"]["difficulty"]["score"] == block.score
    assert FAMILY.difficulty(FAMILY.read(data)) == (block.score, block.band)
    # the rest of the level is as it was
    before = FAMILY.dump(document)
    assert {k: v for k, v in data.items() if k != "metrics"} == {
        k: v for k, v in before.items() if k != "metrics"
    }
    assert FAMILY.rate(document, seed=4) == rated  # seeded


def test_rate_refuses_a_level_without_solution() -> None:
    document = FAMILY.read(_read("classic_12x8.json"))
    bare = dataclasses.replace(document, level=dataclasses.replace(document.level, solution=None))
    with pytest.raises(DocumentError) as caught:
        FAMILY.rate(bare, seed=0)
    assert not caught.value.is_format
    assert caught.value.problems[0].pointer == "/solution"


@pytest.mark.parametrize("name", ["slide_down_12x8.json", "layers_pyramid_16x9.json"])
def test_variants_are_rated_by_their_own_players(name: str) -> None:
    """A variant is rated by players of its own moves: the block is seeded, on the scale, its
    score is what its measures give (so verify accepts it), and a random player that clears
    every game means no trap risk."""
    from levelgen.linkup.difficulty.score import score_of
    from levelgen.linkup.difficulty.variant_play import RUNS

    document = FAMILY.read(_read(name))
    rated = FAMILY.rate(document, seed=3)
    block = rated.level.metrics.difficulty
    assert block.score == score_of(block.measures) and block.band == band_of(block.score)
    assert FAMILY.rate(document, seed=3) == rated
    wins = block.measures["random_win_rate"] * RUNS
    steps = block.measures["tiles"] // 2
    expected = 1 - (max(0.5, wins) / RUNS) ** (1 / steps)
    assert block.measures["trap_rate"] == pytest.approx(expected, abs=1e-4)
    again = FAMILY.read(FAMILY.dump(rated))
    verdict = FAMILY.verify(again, prove=False, budget=Budget(), options={})
    assert verdict.status == "ok", verdict.problems
