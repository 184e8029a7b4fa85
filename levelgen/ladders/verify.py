"""Verify, solve and hint: the family's answers about a level.

:func:`verify_level` checks a file: its ``id`` against its content, then (a board without an
analysis is solved instead) the analysis recomputed and compared figure by figure
(:func:`levelgen.ladders.analysis.analysis_problems`): fractions and integers exactly, floats
to 1e-9.  With ``prove`` it also checks the computation without trusting it: the
expectations from every square, solved a second way (all squares at once, where ``verify``
solves the transposed system for square 0 alone), put back into the chain's equations by
FLINT's matrix product and compared with the written fractions; the distribution's integers
(median, mode, percentiles, the last roll written) and each written chance against the exact
chances of :func:`levelgen.ladders.distribution.exact_absorbed` (within 1e-12); the fewest
rolls by the chain's own search.  :func:`solve_level` returns the level with its analysis, or
the trapped squares.  :func:`hint_level` gives, from a square, the exact expected rolls left
and the chance to finish within ``k`` rolls (there is no choice to advise in this game).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import flint

from ..puzzles import Budget, HintAnswer, Problem, SolveAnswer, SpecError, Verdict
from .analysis import (
    Unsolvable,
    analyse,
    analysis_of,
    analysis_problems,
    board_expectations,
    parse_fraction,
    solve_board,
)
from .chain import Chain, build_chain, fewest_rolls, trapped_squares
from .distribution import (
    COVERAGE,
    MAX_ROLLS,
    QUANTILES,
    Stopped,
    TooLong,
    chance_within,
    exact_absorbed,
)
from .exact import nearest_float, solve_expectations
from .files import AnalysisFile, Level, content_id

__all__ = ["hint_level", "proof_problems", "solve_level", "summary", "verify_level"]


def summary(level: Level, analysis: AnalysisFile) -> dict[str, Any]:
    """The figures of an analysed level for ``details``."""
    return {
        "squares": level.board.squares,
        "faces": level.rules.faces,
        "overshoot": level.rules.overshoot,
        "snakes": len(level.board.snakes),
        "ladders": len(level.board.ladders),
        "fewest_rolls": analysis.fewest_rolls,
        "expected_rolls": analysis.expected_rolls.fraction,
        "expected_value": analysis.expected_rolls.value,
        "median": analysis.median,
        "p90": analysis.p90,
    }


def _unsolvable_text(proof: Unsolvable) -> str:
    rolls = ", ".join(str(r) for r in proof.rolls)
    if proof.rolls:
        how = f"rolls {rolls} from the start reach one of them"
    else:  # the token is trapped before its first roll
        how = f"the token starts on square {proof.trapped[0]}, one of them"
    return (
        f"unsolvable: the game may never end: from squares {_squares_text(proof.trapped)} the"
        f" last square cannot be reached (every roll from them lands on one of them); {how}"
    )


def _squares_text(squares: Sequence[int]) -> str:
    """The first dozen ``squares`` and how many more."""
    shown = ", ".join(str(s) for s in squares[:12])
    return shown + (f" and {len(squares) - 12} more" if len(squares) > 12 else "")


def _proof_details(proof: Unsolvable) -> dict[str, Any]:
    return {"trapped": list(proof.trapped), "rolls": list(proof.rolls)}


def solve_level(level: Level, budget: Budget) -> SolveAnswer:
    """The level with its analysis (``solved``), the proof it has none (``unsolvable``) or
    ``unknown`` (the budget ran out, or the game is too long to describe)."""
    try:
        found = analyse(level.board, level.rules, should_stop=budget.should_stop)
    except Stopped:
        return SolveAnswer("unknown", "unknown: the budget ran out", None, {"proved": False})
    except TooLong as exc:
        return SolveAnswer("unknown", f"unknown: {exc}", None, {"proved": False})
    if isinstance(found, Unsolvable):
        return SolveAnswer("unsolvable", _unsolvable_text(found), None, _proof_details(found))
    solved = Level(level.board, level.rules, found, level.generator, None, level.difficulty)
    fraction = found.expected_rolls.fraction
    text = (
        f"solved: expected {found.expected_rolls.value:.4f} rolls"
        f" ({fraction if len(fraction) <= 40 else 'exact'}),"
        f" fewest {found.fewest_rolls}, median {found.median}"
    )
    return SolveAnswer("solved", text, solved, summary(solved, found))


def verify_level(level: Level, *, prove: bool, budget: Budget) -> Verdict:
    """The verdict on a level file (see the module docstring)."""
    problems: list[Problem] = []
    want = content_id(level.board, level.rules)
    if level.id is not None and level.id != want:
        problems.append(Problem("/id", f"does not match the content (expected {want})"))
    if level.analysis is None:
        answer = solve_level(level, budget)
        if problems:
            return Verdict("invalid", f"invalid: {problems[0]}", tuple(problems))
        status = "solvable" if answer.status == "solved" else answer.status
        text = answer.text.replace("solved:", "solvable:", 1)
        return Verdict(status, text, (), answer.details)
    try:
        solved = solve_board(level.board, level.rules)
        chain = solved.chain
        trapped = trapped_squares(chain)
        if trapped:
            found = analyse(level.board, level.rules)
            assert isinstance(found, Unsolvable)
            problems.append(Problem("/analysis", _unsolvable_text(found)))
            return Verdict(
                "invalid", f"invalid: {problems[0]}", tuple(problems), _proof_details(found)
            )
        computed = analysis_of(solved, should_stop=budget.should_stop)
        problems += analysis_problems(chain, level.analysis, computed)
        if level.difficulty is not None:
            problems += _difficulty_problems(level, computed.expected_rolls.value)
        if prove and not problems:
            problems += proof_problems(chain, solved.settled, level.analysis, budget.should_stop)
    except Stopped:
        return Verdict("unknown", "unknown: the budget ran out", tuple(problems), {"proved": False})
    except TooLong as exc:
        return Verdict("unknown", f"unknown: {exc}", tuple(problems), {"proved": False})
    details = {**summary(level, computed), "proved": prove}
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return Verdict("invalid", f"invalid: {problems[0]}{more}", tuple(problems), details)
    how = "proved" if prove else "recomputed"
    text = (
        f"ok: analysis {how} ({level.board.width}x{level.board.height}, expected"
        f" {computed.expected_rolls.value:.4f} rolls, fewest {computed.fewest_rolls})"
    )
    return Verdict("ok", text, (), details)


def _difficulty_problems(level: Level, expected: float) -> list[Problem]:
    """Where the difficulty block contradicts itself or the board's expected length (its
    score is recomputed from its measures: :func:`levelgen.ladders.rating.score_of`)."""
    from ..formats.difficulty import block_problems
    from .rating import score_of

    block = level.difficulty
    assert block is not None
    out = []
    stated = block.measures.get("expected")
    if stated is not None and not math.isclose(stated, expected, rel_tol=1e-9):
        out.append(
            Problem(
                "/metrics/difficulty/measures/expected",
                f"states {stated} but the expected length is {expected}",
            )
        )
    try:
        recomputed = score_of(block.measures, level.board.squares, level.rules.faces)
    except KeyError:
        recomputed = None
    return out + block_problems(block, recomputed)


def proof_problems(
    chain: Chain,
    settled: tuple[int, ...],
    written: AnalysisFile,
    should_stop: Callable[[], bool] | None = None,
) -> list[Problem]:
    """The checks of ``verify --prove`` that trust neither the solves nor the float recurrence:
    the expectations from every square solved (three right-hand sides at once) and put back
    into the chain's equations by a matrix product, their values at square 0 against the
    written fractions (which the transposed solve of ``verify`` gave), the distribution
    against the exact recurrence, and the fewest rolls by the chain's own search."""
    problems: list[Problem] = []
    expectations = solve_expectations(chain, settled)
    size = len(settled)
    index = {s: i for i, s in enumerate(settled)}
    matrix = flint.fmpz_mat(size, size)
    rhs = flint.fmpz_mat(size, 3)
    solution = flint.fmpq_mat(size, 3)
    for i, s in enumerate(settled):
        matrix[i, i] = chain.faces
        for t in chain.after[s]:
            if t != chain.n:
                matrix[i, index[t]] = matrix[i, index[t]] - 1
        rhs[i, 0] = chain.faces
        rhs[i, 1] = chain.snake_rolls[s]
        rhs[i, 2] = chain.ladder_rolls[s]
        solution[i, 0] = flint.fmpq(*_parts(expectations.rolls(s)))
        solution[i, 1] = flint.fmpq(*_parts(expectations.snakes(s)))
        solution[i, 2] = flint.fmpq(*_parts(expectations.ladders(s)))
    if flint.fmpq_mat(matrix) * solution != flint.fmpq_mat(rhs):
        problems.append(
            Problem("/analysis/expected_rolls", "the expectations break the chain's equations")
        )
    for name, value in (
        ("expected_rolls", expectations.rolls(0)),
        ("expected_snakes", expectations.snakes(0)),
        ("expected_ladders", expectations.ladders(0)),
    ):
        if parse_fraction(getattr(written, name).fraction) != value:
            problems.append(Problem(f"/analysis/{name}", "not the solution of the equations"))
    problems += _distribution_proof(chain, settled, written, should_stop)
    fewest = fewest_rolls(chain)
    if fewest is None or fewest[0] != written.fewest_rolls:
        problems.append(Problem("/analysis/fewest_rolls", "not the fewest rolls"))
    return problems


def _parts(value: Fraction) -> tuple[int, int]:
    return value.numerator, value.denominator


def _distribution_proof(
    chain: Chain,
    settled: tuple[int, ...],
    written: AnalysisFile,
    should_stop: Callable[[], bool] | None,
) -> list[Problem]:
    """The written distribution's integers and chances against the exact chances."""
    rolls = len(written.distribution)
    absorbed = exact_absorbed(chain, settled, 0, rolls, should_stop=should_stop)
    ended: list[Fraction] = []
    total = Fraction(0)
    for value in absorbed:
        total += value
        ended.append(total)
    problems: list[Problem] = []
    for k, (got, want) in enumerate(zip(written.distribution, ended, strict=True)):
        if abs(Fraction(got) - want) > Fraction(1, 10**12):
            problems.append(
                Problem(f"/analysis/distribution/{k}", f"is off the exact {float(want)!r}")
            )
            break
    if ended[-1] < COVERAGE or (rolls > 1 and ended[-2] >= COVERAGE):
        problems.append(
            Problem("/analysis/distribution", "does not end where the chance first reaches 0.999")
        )
    for name, q in QUANTILES.items():
        first = next((k + 1 for k, e in enumerate(ended) if e >= q), None)
        if first != getattr(written, name):
            problems.append(Problem(f"/analysis/{name}", f"the exact value is {first}"))
    # The mode: past roll k the game ends on one roll with at most the chance it is still on.
    top = max(absorbed)
    more = absorbed
    while 1 - ended[-1] >= top:
        more = exact_absorbed(chain, settled, 0, 2 * len(more), should_stop=should_stop)
        ended = [Fraction(0)]
        for value in more:
            ended.append(ended[-1] + value)
        ended = ended[1:]
        top = max(more)
    mode = more.index(top) + 1
    if mode != written.mode:
        problems.append(Problem("/analysis/mode", f"the exact value is {mode}"))
    return problems


def hint_level(level: Level, at: Mapping[str, Any], budget: Budget) -> HintAnswer:
    """The expected rolls left from ``at["square"]`` (default 0) and the chance to finish within
    ``at["within"]`` rolls (0..100,000; default: the expected rolls left, rounded up, at most
    100,000)."""
    for name in at:
        if name not in ("square", "within"):
            raise SpecError(name, "unknown place option (known: square, within)")
    n = level.board.squares
    square = _place_int("square", at.get("square", 0), 0, n)
    chain = build_chain(level.board, level.rules)
    resting = chain.resting(square)
    if budget.spent():
        return HintAnswer("unknown", "unknown: the budget ran out")
    moved = "" if resting == square else f" (the jump takes the token on to {resting})"
    if resting == n:
        return HintAnswer(
            "ok",
            f"square {square}{moved}: the game is won",
            {"square": square, "rests_on": resting, "expected_rolls": "0/1", "expected_value": 0.0},
        )
    trapped = trapped_squares(chain, resting)
    if trapped:
        return HintAnswer(
            "unsolvable",
            f"square {square}{moved}: the game may never end from here: the last square cannot be"
            f" reached from squares {_squares_text(trapped)}",
            {"square": square, "rests_on": resting, "trapped": trapped},
        )
    chain, settled, expectations = board_expectations(level.board, level.rules)
    expected = expectations.rolls(resting)
    within = at.get("within")
    k = (
        min(math.ceil(expected), MAX_ROLLS)
        if within is None
        else _place_int("within", within, 0, MAX_ROLLS)
    )
    value = nearest_float(expected)
    chance = chance_within(chain, settled, resting, k)
    fewest = fewest_rolls(chain, resting)
    assert fewest is not None
    details = {
        "square": square,
        "rests_on": resting,
        "expected_rolls": f"{expected.numerator}/{expected.denominator}",
        "expected_value": value if math.isfinite(value) else None,
        "within": k,
        "finish_within": chance,
        "fewest_rolls": fewest[0],
        "fewest_sequence": list(fewest[1]),
    }
    text = (
        f"square {square}{moved}: expected {value:.4f} rolls left; chance to"
        f" finish within {k} rolls {chance:.4f}; fewest {fewest[0]}"
    )
    return HintAnswer("ok", text, details)


def _place_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise SpecError(name, f"expected an integer, got {value!r}")
    if isinstance(value, str):
        if not value.strip().isdigit() or len(value) > 9:
            raise SpecError(name, f"expected an integer, got {value!r}")
        value = int(value)
    if not low <= value <= high:
        raise SpecError(name, f"must be {low}..{high}, got {value}")
    return value
