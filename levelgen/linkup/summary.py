"""What the level library keeps of a Link-up level (:meth:`LinkupFamily.summary`): its size,
rules, layers, tiles and kinds (every layer counted), seed, whether it carries its solution,
and the difficulty the level records.  A level without a difficulty block gets none here:
measuring one plays the level out (seconds on a large board), which ``levelgen rate`` does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.level import Level

__all__ = ["level_summary"]


def level_summary(level: Level) -> dict[str, Any]:
    """The library's summary of ``level`` (see :meth:`levelgen.puzzles.Family.summary`)."""
    board, rules = level.board, level.rules
    tiles = [v for layer in (board.cells, *board.upper) for v in layer if v > 0]
    found = level.metrics.difficulty if level.metrics is not None else None
    generator = level.generator
    return {
        "width": board.width,
        "height": board.height,
        "seed": generator.seed if generator is not None else None,
        "solved": bool(level.solution),
        "score": found.score if found is not None else None,
        "band": found.band if found is not None else None,
        "rules": {"max_turns": rules.max_turns, "outside": rules.outside, "slide": rules.slide},
        "layers": 1 + len(board.upper),
        "tiles": len(tiles),
        "kinds": len(set(tiles)),
    }
