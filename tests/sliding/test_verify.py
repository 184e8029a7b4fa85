"""The verifier trusts nothing a file says: a certificate that does not reach the goal, a stated
length, bound, band or count that is wrong, a solution that is not optimal (with prove), a wrong
id; a file without a certificate is solved; a small budget leaves ``unknown``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from levelgen.formats import parse_json
from levelgen.puzzles import Budget
from levelgen.sliding import FAMILY
from levelgen.sliding.level import Metrics, SlidingLevel
from levelgen.sliding.rules import Frame, apply_moves
from levelgen.sliding.spec import band_of
from levelgen.sliding.verify import verify_level

GOAL = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
START = apply_moves(GOAL, "ULDLURRDLLUR")


def _level() -> SlidingLevel:
    spec = FAMILY.parse_spec({"goal": GOAL.rows(), "moves": 14})
    level = FAMILY.create(spec, 4)
    assert isinstance(level, SlidingLevel)
    return level


def _verdict(
    level: SlidingLevel, prove: bool = True, budget: Budget | None = None
) -> tuple[str, str, str]:
    v = verify_level(level, prove=prove, budget=budget or Budget())
    pointer = v.problems[0].pointer if v.problems else ""
    return v.status, pointer, v.text


def test_a_made_level_verifies_and_proves() -> None:
    level = _level()
    status, _, text = _verdict(level)
    assert status == "ok" and "proved optimal" in text
    v = verify_level(level, prove=False, budget=Budget())
    assert v.status == "ok" and v.details["proved_optimal"] is False
    assert v.details["solution_length"] == 14


def test_wrong_claims_are_invalid_with_their_place() -> None:
    level = _level()
    assert level.metrics is not None and level.solution is not None
    m = level.metrics
    cases = [
        (dataclasses.replace(level, solution=level.solution[:-2]), "/solution"),
        (dataclasses.replace(level, solution=level.solution + "UD"), "/metrics/optimal_length"),
        (
            dataclasses.replace(
                level, metrics=dataclasses.replace(m, lower_bound=m.lower_bound + 1)
            ),
            "/metrics/lower_bound",
        ),
        (
            dataclasses.replace(level, metrics=dataclasses.replace(m, band="expert")),
            "/metrics/band",
        ),
        (dataclasses.replace(level, level_id="sha256:" + "0" * 64), "/id"),
    ]
    for bad, pointer in cases:
        status, where, _ = _verdict(bad, prove=False)
        assert (status, where) == ("invalid", pointer), bad


def test_prove_catches_a_longer_solution_and_a_wrong_count() -> None:
    level = _level()
    assert level.metrics is not None and level.solution is not None
    longer = level.solution + "UD"  # the goal's blank is in the bottom right cell
    assert apply_moves(level.start, longer) == level.goal
    detour = dataclasses.replace(
        level,
        solution=longer,
        metrics=dataclasses.replace(level.metrics, optimal_length=16, band=band_of(16, 3, 3, True)),
    )
    status, pointer, text = _verdict(detour)
    assert status == "invalid" and pointer == "/metrics/optimal_length" and "14 moves" in text
    counted = dataclasses.replace(
        level, metrics=dataclasses.replace(level.metrics, optimal_solutions=999)
    )
    status, pointer, _ = _verdict(counted)
    assert (status, pointer) == ("invalid", "/metrics/optimal_solutions")
    plain = dataclasses.replace(detour, metrics=None)
    status, _, text = _verdict(plain)
    assert status == "ok" and "the optimum is 14" in text


def test_no_certificate_is_solved_and_an_unreachable_goal_is_unsolvable() -> None:
    status, _, text = _verdict(SlidingLevel(START, GOAL))
    assert status == "solvable" and "12 moves" in text
    swapped = Frame(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    v = verify_level(SlidingLevel(swapped, GOAL), prove=False, budget=Budget())
    assert v.status == "unsolvable"
    assert v.details["invariant"]["invariant"] == "parity"
    wrong = SlidingLevel(START, GOAL, metrics=Metrics(10, None, 1000, 10, "easy"))
    status, pointer, _ = _verdict(wrong, prove=False)
    assert (status, pointer) == ("invalid", "/metrics/lower_bound")


def test_a_small_budget_leaves_unknown() -> None:
    path = Path(__file__).resolve().parents[2] / "levels" / "sliding_4x4_numbered_40.json"
    level = FAMILY.read(parse_json(path.read_text(encoding="utf-8")))
    v = verify_level(level, prove=True, budget=Budget(max_nodes=100))
    assert v.status == "unknown" and "not proved optimal" in v.text
    assert 0 < v.details["lower_bound_proved"] <= 40
    v = verify_level(
        dataclasses.replace(level, solution=None), prove=False, budget=Budget(max_nodes=100)
    )
    assert v.status == "unknown"
    json.dumps(v.details)
