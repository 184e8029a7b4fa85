"""Verify, solve and hint: a good file passes (and is proved), every tampered figure is found
at its pointer, an unsolvable board is answered with its trapped squares, budgets stop work."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from levelgen.formats import parse_json
from levelgen.ladders import FAMILY
from levelgen.ladders.chain import build_chain, is_closed_trap, replay_rolls
from levelgen.ladders.files import Level, parse_level
from levelgen.ladders.rules import Board, Rules
from levelgen.puzzles import Budget, SpecError

ROOT = Path(__file__).resolve().parents[2]
CHUTES = ROOT / "levels" / "ladders_chutes_10x10.json"
TRAP = Board(5, 4, (), ((14, 1), (15, 2), (16, 3), (17, 4), (18, 5), (19, 6)))


def _data() -> dict[str, Any]:
    value = parse_json(CHUTES.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def test_a_good_file_verifies_and_proves() -> None:
    level = parse_level(_data())
    verdict = FAMILY.verify(level, prove=False, budget=Budget())
    assert verdict.status == "ok", verdict.text
    proved = FAMILY.verify(level, prove=True, budget=Budget())
    assert proved.status == "ok", proved.text
    assert proved.details["proved"] is True
    assert proved.details["fewest_rolls"] == 7


def _tampered(change: Any, *, prove: bool = False) -> list[str]:
    data = copy.deepcopy(_data())
    change(data)
    verdict = FAMILY.verify(parse_level(data), prove=prove, budget=Budget())
    assert verdict.status == "invalid"
    return [p.pointer for p in verdict.problems]


def _bump_fraction(d: dict[str, Any]) -> None:
    p, q = d["analysis"]["expected_rolls"]["fraction"].split("/")
    d["analysis"]["expected_rolls"]["fraction"] = f"{int(p) + 1}/{q}"


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        (_bump_fraction, "/analysis/expected_rolls/fraction"),
        (
            lambda d: d["analysis"]["expected_rolls"].update(value=39.3),
            "/analysis/expected_rolls/value",
        ),
        (lambda d: d["analysis"].update(fewest_rolls=8), "/analysis/fewest_rolls"),
        (
            lambda d: d["analysis"].update(fewest_sequence=[1, 1, 6, 6, 1, 6, 5]),
            "/analysis/fewest_sequence",
        ),
        (lambda d: d["analysis"].update(median=33), "/analysis/median"),
        (lambda d: d["analysis"].update(mode=21), "/analysis/mode"),
        (lambda d: d["analysis"].update(p99=127), "/analysis/p99"),
        (lambda d: d["analysis"]["distribution"].pop(), "/analysis/distribution"),
        (lambda d: d["analysis"]["distribution"].__setitem__(40, 0.5), "/analysis/distribution/40"),
        (lambda d: d["analysis"]["players"][1].update(rounds=22.0), "/analysis/players/1/rounds"),
        (
            lambda d: d["analysis"]["expected_snakes"].update(fraction="4/1"),
            "/analysis/expected_snakes/fraction",
        ),
        (lambda d: d.update(id="sha256:" + "0" * 64), "/id"),
    ],
)
def test_each_tampered_figure_is_found(change: Any, pointer: str) -> None:
    assert pointer in _tampered(change)


def test_fractions_compare_as_fractions() -> None:
    data = _data()
    p, q = data["analysis"]["expected_rolls"]["fraction"].split("/")
    data["analysis"]["expected_rolls"]["fraction"] = f"{int(p) * 3}/{int(q) * 3}"
    verdict = FAMILY.verify(parse_level(data), prove=False, budget=Budget())
    assert verdict.status == "ok"


def test_another_equally_short_sequence_is_accepted() -> None:
    data = _data()
    # 0 -1-> 1 (ladder to 38) -6-> 44 -6-> 50 -1-> 51 (to 67) -1-> 68 -6-> 74 -6-> 80 (to 100)
    data["analysis"]["fewest_sequence"] = [1, 6, 6, 1, 1, 6, 6]
    chain = build_chain(parse_level(data).board, Rules())
    assert replay_rolls(chain, data["analysis"]["fewest_sequence"])[-1] == 100
    assert FAMILY.verify(parse_level(data), prove=False, budget=Budget()).status == "ok"
    data["analysis"]["fewest_sequence"] = [1, 6, 6, 1, 1, 6, 5]
    assert FAMILY.verify(parse_level(data), prove=False, budget=Budget()).status == "invalid"


def test_a_board_without_analysis_is_solved() -> None:
    data = _data()
    del data["analysis"]
    level = parse_level(data)
    verdict = FAMILY.verify(level, prove=False, budget=Budget())
    assert verdict.status == "solvable"
    answer = FAMILY.solve(level, budget=Budget())
    assert answer.status == "solved"
    assert FAMILY.dump(answer.document) == _data()
    assert FAMILY.verify(answer.document, prove=True, budget=Budget()).status == "ok"


def test_an_unsolvable_board_comes_with_its_trap() -> None:
    level = Level(TRAP, Rules())
    answer = FAMILY.solve(level, budget=Budget())
    assert answer.status == "unsolvable"
    chain = build_chain(TRAP, Rules())
    assert is_closed_trap(chain, answer.details["trapped"])
    squares = replay_rolls(chain, answer.details["rolls"])
    assert squares[-1] in answer.details["trapped"]
    assert FAMILY.verify(level, prove=False, budget=Budget()).status == "unsolvable"
    hint = FAMILY.hint(level, budget=Budget(), options={"square": 3})
    assert hint.status == "unsolvable" and 3 in hint.details["trapped"]


def test_a_trap_at_the_start_names_no_rolls() -> None:
    # From 0 every roll lands on a snake back into 1..5, and 12 is out of reach from there.
    board = Board(4, 3, (), ((6, 1), (7, 2), (8, 3), (9, 4), (10, 5), (11, 1)))
    answer = FAMILY.solve(Level(board, Rules()), budget=Budget())
    assert answer.status == "unsolvable" and answer.details["rolls"] == []
    assert answer.text.endswith("; the token starts on square 0, one of them")
    assert "rolls  reach" not in answer.text
    # Here 0 is free (1, 3, 4, 5 -> 11, 12), but a 2 climbs into the trap 6, 7, 8.
    board = Board(4, 3, ((2, 8), (5, 11)), ((9, 7), (10, 7)))
    answer = FAMILY.solve(Level(board, Rules(2)), budget=Budget())
    assert answer.details == {"trapped": [6, 7, 8], "rolls": [2]}
    assert answer.text.endswith("; rolls 2 from the start reach one of them")


def test_an_analysis_on_an_unsolvable_board_is_invalid() -> None:
    good = parse_level(_data())
    level = Level(TRAP, Rules(), good.analysis)
    verdict = FAMILY.verify(level, prove=False, budget=Budget())
    assert verdict.status == "invalid" and verdict.problems[0].pointer == "/analysis"


def test_a_spent_budget_is_unknown() -> None:
    level = parse_level(_data())
    budget = Budget(should_stop=lambda: True)
    assert FAMILY.verify(level, prove=False, budget=budget).status == "unknown"
    assert FAMILY.solve(level, budget=budget).status == "unknown"
    assert FAMILY.hint(level, budget=budget, options={}).status == "unknown"


def test_hints() -> None:
    level = parse_level(_data())
    start = FAMILY.hint(level, budget=Budget(), options={"square": 0, "within": 30})
    assert start.status == "ok"
    assert start.details["expected_rolls"] == _data()["analysis"]["expected_rolls"]["fraction"]
    assert start.details["finish_within"] == pytest.approx(_data()["analysis"]["distribution"][29])
    ladder = FAMILY.hint(level, budget=Budget(), options={"square": "80"})
    assert ladder.details["rests_on"] == 100 and ladder.details["expected_value"] == 0.0
    near = FAMILY.hint(level, budget=Budget(), options={"square": 99})
    assert near.details["expected_rolls"] == "6/1" and near.details["within"] == 6
    for bad in ({"square": 101}, {"square": True}, {"row": 1}, {"within": -1}):
        with pytest.raises(SpecError):
            FAMILY.hint(level, budget=Budget(), options=bad)
