"""Link-up's texts for the family table's answers (a deadlock core, an undecided verdict, a
move, odd kinds, a position's summary) and the board before a solution step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..formats.budget import Budget
from ..formats.words import plural
from ..puzzles import DocumentError, SpecError

if TYPE_CHECKING:
    from .core.board import Board
    from .core.geometry import Pos
    from .core.level import Level
    from .core.moves import Move
    from .core.paths import Path
    from .play.position import Position

#: Cells of a deadlock core named in a one-line verdict at most (``--json`` has them all).
CORE_SHOWN = 12


def core_text(cells: Sequence[Pos]) -> str:
    """``; deadlock core: [x, y], ...`` for a verdict's line, the first :data:`CORE_SHOWN`
    cells and how many more (a shuffled 64x64 board can have thousands); empty for none."""
    if not cells:
        return ""
    shown = ", ".join(str(p) for p in cells[:CORE_SHOWN])
    more = f" and {len(cells) - CORE_SHOWN} more" if len(cells) > CORE_SHOWN else ""
    return f"; deadlock core: {shown}{more}"


def undecided_text(budget: Budget, reason: str | None) -> str:
    limit = budget.time_limit
    within = f"within {limit:g} s" if limit is not None else "within the budget"
    return f"undecided {within}" + (f": {reason}" if reason else "")


def odd_kind_warnings(board: Board) -> list[str]:
    """A warning for each kind with an odd number of tiles on ``board`` (every layer)."""
    return [
        f"warning: kind {kind} has {plural(count, 'tile')}, an odd number, so the board can"
        " never be cleared"
        for kind, count in sorted(kind_counts(board).items())
        if count % 2
    ]


def position_summary(position: Position) -> str:
    """One line about a position: ``position: 4x2, 4 tiles, ...``, and the moves played
    since its level when the file gives them."""
    from .core.level import Level
    from .draw.terminal import format_summary

    text = "position: " + format_summary(Level(position.board, position.rules))
    if position.level is not None:
        text += f", {plural(len(position.played), 'move')} played"
    return text


def kind_counts(board: Board) -> dict[int, int]:
    """Tiles of each kind on every layer of ``board``."""
    counts: dict[int, int] = {}
    for layer in (board.cells, *board.upper):
        for value in layer:
            if value >= 1:
                counts[value] = counts.get(value, 0) + 1
    return counts


def move_text(move: Move) -> str:
    """A move for a person: its cells, kind and path with its turns and steps."""
    corners = " ".join(str(p) for p in move.path.corners)
    return (
        f"{move.a} - {move.b} (kind {move.kind}), path {corners}"
        f" ({plural(move.path.turns, 'turn')}, {plural(move.path.length, 'step')})"
    )


def board_at_step(level: Level, step: int) -> tuple[Board, Path]:
    """The board before solution step ``step`` (slides included, for variants) and that
    step's path.  ``SpecError`` (``step``) for a level without a solution or a step out of
    range; ``DocumentError`` when the solution breaks before it."""
    from .verify import replay

    solution = level.solution or ()
    if not solution:
        raise SpecError("step", "the level has no solution to step through")
    if not 0 <= step < len(solution):
        raise SpecError(
            "step",
            f"{step} is not in 0..{len(solution) - 1} (the solution has"
            f" {plural(len(solution), 'step')})",
        )
    # Replaying a prefix ends with tiles left (pointer "/solution"): only step problems count.
    problems = [
        p for p in replay(level.board, level.rules, solution[:step]) if p.pointer != "/solution"
    ]
    if problems:
        raise DocumentError(problems, is_format=False)
    if level.board.upper or level.rules.slide != "none":
        from .core.variant_state import state_of

        state = state_of(level.board, level.rules)  # positions of the moment: slides included
        for move in solution[:step]:
            state.remove_pair(move.a, move.b)
        return state.to_board(), solution[step].path
    board = level.board.without(*(p for move in solution[:step] for p in (move.a, move.b)))
    return board, solution[step].path
