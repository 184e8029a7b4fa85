"""A third-party puzzle family for the tests, as small as a real one can be: *counting*.

A level is a start and a goal (whole numbers 0..10,000); a move adds one (``+``) or doubles
(``*``).  The certificate is a shortest sequence of moves (breadth-first search); a goal below
the start is unsolvable, since every move increases the number.  It implements every operation
of :class:`levelgen.puzzles.Family` except drawing and playing, which it declares absent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from levelgen.puzzles import (
    Budget,
    Capability,
    CreateError,
    CreateOption,
    DocumentError,
    FamilyBase,
    HintAnswer,
    Problem,
    Progress,
    SchemaEntry,
    SolveAnswer,
    SpecError,
    Verdict,
)

LIMIT = 10_000


@dataclass(frozen=True)
class Counting:
    start: int
    goal: int
    solution: str | None = None
    #: The difficulty block (``metrics.difficulty``) once rated: score 0..100 and band.
    rating: tuple[float, str] | None = None


def _rating(moves: str) -> tuple[float, str]:
    """Five points a move (at most 100); easy below 40."""
    score = float(min(100, 5 * len(moves)))
    return score, "easy" if score < 40 else "hard"


def _shortest(start: int, goal: int, budget: Budget | None = None) -> str | None:
    if goal < start:
        return None
    seen = {start: ""}
    queue = deque([start])
    while queue:
        if budget is not None and budget.spent():
            raise TimeoutError
        n = queue.popleft()
        if n == goal:
            return seen[n]
        for move, m in (("+", n + 1), ("*", n * 2)):
            if m <= goal and m not in seen:
                seen[m] = seen[n] + move
                queue.append(m)
    return None


def _replay(start: int, moves: str) -> int:
    for move in moves:
        start = start + 1 if move == "+" else start * 2
    return start


class CountingFamily(FamilyBase):
    name = "counting"
    title = "Counting"
    capabilities = frozenset(
        {
            Capability.CREATE,
            Capability.VERIFY,
            Capability.SOLVE,
            Capability.HINT,
            Capability.SHOW,
            Capability.PACK,
            Capability.RATE,
        }
    )
    create_options = (CreateOption("goal", "N", "The number to reach."),)
    bands = ("easy", "hard")
    schemas: Mapping[str, SchemaEntry] = {
        "level": SchemaEntry(lambda: {"type": "object"}, "counting.level.v1.schema.json")
    }

    def read(self, data: object) -> Counting:
        if not isinstance(data, dict):
            raise DocumentError([Problem("", "expected a JSON object")])
        for key in ("start", "goal"):
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= LIMIT:
                raise DocumentError([Problem(f"/{key}", f"expected a whole number 0..{LIMIT}")])
        solution = data.get("solution")
        if solution is not None and not (isinstance(solution, str) and set(solution) <= {"+", "*"}):
            raise DocumentError([Problem("/solution", "expected a string of + and *")])
        rating = None
        metrics = data.get("metrics")
        if metrics is not None:
            block = metrics.get("difficulty") if isinstance(metrics, dict) else None
            if not isinstance(block, dict) or not isinstance(block.get("score"), float):
                raise DocumentError([Problem("/metrics", "expected a difficulty block")])
            rating = (block["score"], str(block.get("band")))
        return Counting(data["start"], data["goal"], solution, rating)

    def dump(self, document: Counting) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.name, "start": document.start, "goal": document.goal}
        if document.solution is not None:
            data["solution"] = document.solution
        if document.rating is not None:
            score, band = document.rating
            moves = len(document.solution or "")
            block = {"score": score, "band": band, "measures": {"moves": moves}}
            data["metrics"] = {"difficulty": block}
        return data

    def describe(self, document: Counting) -> str:
        return f"from {document.start} to {document.goal}"

    def parse_spec(self, values: Mapping[str, Any]) -> int:
        unknown = sorted(set(values) - {"goal"})
        if unknown:
            raise SpecError(unknown[0], "not a create option of counting")
        goal = values.get("goal", 100)
        if isinstance(goal, str) and goal.isdigit():
            goal = int(goal)
        if isinstance(goal, bool) or not isinstance(goal, int) or not 1 <= goal <= LIMIT:
            raise SpecError("goal", f"expected a whole number 1..{LIMIT}")
        return goal

    def create(self, spec: int, seed: int, progress: Progress | None = None) -> Counting:
        start = seed % spec
        moves = _shortest(start, spec)
        if moves is None:
            raise CreateError("no way from the start to the goal")
        return Counting(start, spec, moves)

    def ramp(
        self, values: Mapping[str, Any], count: int, low: str, high: str
    ) -> list[dict[str, Any]]:
        return [dict(values) for _ in range(count)]

    def difficulty(self, document: Counting) -> tuple[float, str]:
        return _rating(document.solution or "")

    def rate(self, document: Counting, *, seed: int) -> Counting:
        moves = _shortest(document.start, document.goal)
        if moves is None:
            raise DocumentError([Problem("/goal", "below the start: nothing to rate")])
        return Counting(document.start, document.goal, document.solution, _rating(moves))

    def verify(
        self, document: Counting, *, prove: bool, budget: Budget, options: Mapping[str, Any]
    ) -> Verdict:
        if document.solution is None:
            answer = self.solve(document, budget=budget, options=options)
            status = {"solved": "solvable"}.get(answer.status, answer.status)
            return Verdict(status, answer.text)
        if _replay(document.start, document.solution) != document.goal:
            return Verdict("invalid", "", (Problem("/solution", "does not reach the goal"),))
        best = _shortest(document.start, document.goal)
        if best is not None and len(best) < len(document.solution):
            return Verdict("invalid", "", (Problem("/solution", "not a shortest solution"),))
        return Verdict(
            "ok", f"ok: {len(document.solution)} moves", (), {"moves": document.solution}
        )

    def solve(
        self, document: Counting, *, budget: Budget, options: Mapping[str, Any]
    ) -> SolveAnswer:
        if options:
            raise SpecError(sorted(options)[0], "not an option of counting")
        if document.goal < document.start:
            return SolveAnswer("unsolvable", "unsolvable: the goal is below the start")
        try:
            moves = _shortest(document.start, document.goal, budget)
        except TimeoutError:
            return SolveAnswer("unknown", "undecided within the budget")
        solved = Counting(document.start, document.goal, moves)
        return SolveAnswer("solved", f"solved: {len(moves or '')} moves", solved, {"moves": moves})

    def hint(self, document: Counting, *, budget: Budget, options: Mapping[str, Any]) -> HintAnswer:
        moves = _shortest(document.start, document.goal)
        if moves is None:
            return HintAnswer("unsolvable", "lost: the goal is below the start", {"move": None})
        move = moves[:1] or None
        return HintAnswer("ok", f"hint: {move or 'won'}", {"move": move, "left": len(moves)})

    def show(
        self, document: Counting, *, color: bool, options: Mapping[str, Any]
    ) -> tuple[str, list[str]]:
        return f"{document.start} -> {document.goal}", []

    def draw(self, document: Counting, *, cell_size: int, options: Mapping[str, Any]) -> Any:
        raise AssertionError("declared absent: never called")

    def player(self, document: Counting, *, with_api: bool, name: str | None = None) -> Any:
        raise AssertionError("declared absent: never called")


COUNTING = CountingFamily()
