"""Position files read into positions: the file's checks, then the played moves replayed.

:func:`parse_position_data` validates a position file (:mod:`levelgen.linkup.schema.position`
holds its model) and builds the :class:`levelgen.linkup.play.position.Position` it describes:
a bare board, or a level and the moves played since, replayed (on the variant playing state
for sliding and layered levels) and checked against the board when the file gives one.
"""

from __future__ import annotations

from pydantic import ValidationError

from ...formats.words import plural
from ..core.board import Board
from ..core.geometry import Pos
from ..core.level import Level
from ..core.moves import Move
from ..schema.level import LevelFormatError, problems_from_validation_error
from ..schema.level import _variant_problems as variant_problems
from ..schema.position import (
    PositionFile,
    bare_board,
    board_difference,
    in_position,
    rules_of,
    shape_problems,
    under,
)
from ..verify import Problem
from .position import Position

__all__ = ["PositionInvalid", "parse_position_data"]


class PositionInvalid(LevelFormatError):
    """A position file of the right form whose played moves do not replay (an illegal move at
    ``/played/k``), or whose board or rules are not where they lead: well-formed but invalid,
    as a sliding puzzle's impossible ``played`` is (exit 1 at the command line, not 3)."""


def parse_position_data(data: object) -> Position:
    """Validate a parsed JSON value as a position file and build the position.

    ``LevelFormatError`` with JSON pointers: schema problems, rows of the wrong size, a missing
    board (and level), played moves without a level; :class:`PositionInvalid` for an illegal
    played move (``/played/k``), or a board or rules that do not agree with the level after
    the played moves."""
    from .game import Game, IllegalMove

    if not isinstance(data, dict):
        raise LevelFormatError([Problem("", "expected a JSON object")])
    try:
        file = PositionFile.model_validate(data)
    except ValidationError as exc:
        found = problems_from_validation_error(exc, data)
        raise LevelFormatError([in_position(p) for p in found]) from None
    problems: list[Problem] = []
    if file.board is not None:
        problems += shape_problems(file.board, "/board")
    if file.level is not None:
        # The embedded level's rows, then its layers (their shape, and tiles stacked on
        # tiles), as in a level file: the core board would refuse them with a bare error.
        shape = shape_problems(file.level.board, "/level/board")
        problems += shape or [under("/level", p) for p in variant_problems(file.level)]
    if file.level is None:
        if file.played is not None:
            problems.append(Problem("/played", "played moves need the starting level in /level"))
        for name, value in (("rules", file.rules), ("board", file.board)):
            if value is None:
                problems.append(
                    Problem(f"/{name}", "required field is missing (or give the level in /level)")
                )
    if problems:
        raise LevelFormatError(problems)
    if file.level is None:
        assert file.board is not None and file.rules is not None
        rules = rules_of(file.rules)
        return Position(bare_board(file.board, rules), rules, None, ())
    try:
        level = file.level.to_core()
    except LevelFormatError as exc:
        raise LevelFormatError([under("/level", p) for p in exc.problems]) from None
    rules = level.rules
    if file.rules is not None and rules_of(file.rules) != rules:
        raise PositionInvalid([Problem("/rules", "does not match the rules of /level/rules")])
    if level.board.upper or rules.slide != "none":
        return _variant_position(file, level)
    game = Game(level.board, rules)
    for k, step in enumerate(file.played or ()):
        try:
            game.play(Pos(*step.a), Pos(*step.b))
        except IllegalMove as exc:
            raise PositionInvalid([Problem(f"/played/{k}", f"illegal move: {exc}")]) from None
    board = game.board
    if file.board is not None:
        given = Board.from_grid(file.board.rows)
        if given != board:
            raise PositionInvalid([Problem("/board", board_difference(given, board))])
    return Position(board, rules, level, game.played)


def _variant_position(file: PositionFile, level: Level) -> Position:
    """The position of a variant level (sliding or layered) after the ``played`` moves,
    replayed on the variant playing state (each move in the positions of its moment, the slide
    after it); ``/board`` must match the result when given."""
    from ..core.variant_state import state_of

    state = state_of(level.board, level.rules)
    played = []
    for k, step in enumerate(file.played or ()):
        a, b = Pos(*step.a), Pos(*step.b)
        why = None
        inside = all(0 <= p.x < level.board.width and 0 <= p.y < level.board.height for p in (a, b))
        path = state.find_path(a, b) if inside and a != b else None
        if not inside:
            why = "a cell outside the board"
        elif a == b:
            why = "the two cells are the same"
        elif state.top(a) < 1 or state.top(b) < 1:
            why = f"no tile at {a if state.top(a) < 1 else b}"
        elif state.top(a) != state.top(b):
            why = f"kinds {state.top(a)} and {state.top(b)} differ"
        elif path is None:
            why = f"no path of at most {plural(level.rules.max_turns, 'turn')} joins {a} and {b}"
        if why is not None or path is None:
            raise PositionInvalid([Problem(f"/played/{k}", f"illegal move: {why}")])
        played.append(Move(a, b, state.top(a), path))
        state.remove_pair(a, b)
    board = state.to_board()
    if file.board is not None:
        given = bare_board(file.board, level.rules)
        upper = list(given.upper)
        while upper and not any(v >= 1 for v in upper[-1]):
            upper.pop()  # empty top layers say nothing (the replay drops them)
        given = Board(given.width, given.height, given.cells, tuple(upper))
        if given != board:
            raise PositionInvalid([Problem("/board", board_difference(given, board))])
    return Position(board, level.rules, level, tuple(played))
