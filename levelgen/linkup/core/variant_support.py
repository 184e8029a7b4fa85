"""Which features know the Onet variants, and the one clear refusal of those that do not.

The sliding rules (``Rules.slide``, :mod:`levelgen.linkup.core.slide`) and stacked layers
(``Board.upper``, :mod:`levelgen.linkup.core.layers`) are handled by create, verify, solve, show,
hint and shuffle (:mod:`levelgen.linkup.play.variants`), render, the Tiled export and the browser
player (whose script ports the slide rules and the layered link rule).  The features still written
for the classic game only would answer wrongly for a variant board: the incremental live move list
of :class:`levelgen.linkup.play.game.Game` (and the classic shuffle built on it) assumes
monotonicity and a flat board, the CSV and grid exports hold one flat layer and no rule, and the
seeded players of the difficulty measures (and so difficulty steering) play the classic rule.  Each
of them calls :func:`refuse_variants` at its entry, which raises :class:`UnsupportedVariant` naming
the place in the level file (``/rules/slide`` or ``/board/layers``) and the feature; the edges
turn it into one line (CLI, exit 3) or a 422 problem document (HTTP).
"""

from __future__ import annotations

from .board import Board
from .rules import Rules

__all__ = ["UnsupportedVariant", "is_variant", "refuse_variants", "variant_problem"]


def is_variant(board: Board, rules: Rules) -> bool:
    """True when ``board`` has layers or ``rules`` slide: the classic code does not apply."""
    return bool(board.upper) or rules.slide != "none"


class UnsupportedVariant(ValueError):
    """A feature that does not know a variant was given a variant board or rule.
    ``pointer`` is the JSON pointer of the level file field (``/rules/slide``)."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f"{pointer}: {message}")
        self.pointer = pointer
        self.message = message


def variant_problem(board: Board, rules: Rules, feature: str) -> tuple[str, str] | None:
    """``(pointer, reason)`` when ``feature`` (a phrase such as ``"hint"``) cannot take this
    board and rules, else None."""
    if rules.slide != "none":
        return (
            "/rules/slide",
            f"{feature} does not support sliding tiles yet (slide {rules.slide!r})",
        )
    if board.upper:
        return (
            "/board/layers",
            f"{feature} does not support stacked layers yet ({len(board.upper) + 1} layers)",
        )
    return None


def refuse_variants(board: Board, rules: Rules, feature: str) -> None:
    """Raise :class:`UnsupportedVariant` when :func:`variant_problem` finds one."""
    found = variant_problem(board, rules, feature)
    if found is not None:
        raise UnsupportedVariant(*found)
