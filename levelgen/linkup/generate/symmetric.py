"""Symmetric levels: ``levelgen create --symmetry mirror|rotate|both``.

What is symmetric (see :mod:`levelgen.linkup.generate.symmetry` for the maps):

* the layout, always: which cells hold tiles, holes and walls.  A given layout (``--layout``,
  ``--shape``) must have the symmetry (and no tile on a cell no symmetric order can remove);
  without one, a symmetric layout is drawn from the seed: the rectangle with small symmetric
  clusters of holes, its tile count a multiple of ``copies`` when the board allows (the
  parameters then record ``layout`` null, as asked: the seed and symmetry make it again);
* the removal order, always: each step of the solution is followed by its images
  (:mod:`levelgen.linkup.generate.playout_symmetric`), so the order is a symmetric one;
* the kinds, where the kind counts allow it: every pair of a step gets the same kind unless the
  counts force a split (:func:`levelgen.linkup.generate.symmetry.symmetric_kinds`).  They
  always are under ``mirror`` and ``rotate`` when every kind has a multiple of 4 tiles (the
  default 4 copies on a tile count that is a multiple of 4), and under ``both`` when every
  kind has a multiple of 8; under ``both`` with 4 tiles per kind they are left-right
  symmetric.  ``generator.parameters.kinds_symmetry`` records the symmetry the kinds have
  (``both``, ``mirror``, ``rotate`` or ``none``), measured on the board.

The level is a certificate like any other: dealt on the order by occupancy invariance, its
solution replayed by :func:`levelgen.linkup.verify.replay` before it is returned.
"""

from __future__ import annotations

import random
from typing import Any

from ...formats.version import VERSION as __version__
from ..core.board import Board
from ..core.geometry import Size, format_size
from ..core.level import GeneratorInfo, Level
from ..core.rules import Rules
from ..difficulty import solution_metrics
from ..verify import replay
from .generator import (
    GENERATOR_NAME,
    GenerationError,
    check_request,
    format_layout,
    kind_tile_counts,
)
from .playout import deal
from .playout_symmetric import symmetric_removal_order
from .symmetry import (
    SYMMETRIES,
    board_symmetry,
    symmetric_kinds,
    symmetric_layout,
    symmetry_problem,
)

__all__ = ["LAYOUT_TRIES", "generate_symmetric"]

#: Layouts drawn (each with its own playout) before giving up, when no layout is given.
LAYOUT_TRIES = 4


def generate_symmetric(
    size: Size,
    symmetry: str,
    *,
    kinds: int | None = None,
    copies: int = 4,
    rules: Rules,
    layout: Board | None = None,
    seed: int,
    max_attempts: int = 200,
    shape: str | None = None,
) -> Level:
    """A level of ``size`` with ``symmetry`` (see the module docstring); the other parameters
    as :func:`levelgen.linkup.generate.generator.generate`.  ``GenerationError`` for an
    impossible request or when no symmetric removal order was found."""
    if symmetry not in SYMMETRIES:
        raise GenerationError(f"symmetry {symmetry!r} is not one of {', '.join(SYMMETRIES)}")
    width, height = check_request(size, seed, max_attempts)
    rng = random.Random(seed)
    if layout is not None:
        if layout.size != (width, height):
            raise GenerationError(
                f"the layout is {format_size(layout.size)} but the size asked is"
                f" {format_size(Size(width, height))}"
            )
        problem = symmetry_problem(layout, symmetry)
        if problem is not None:
            raise GenerationError(problem)
        counts = kind_tile_counts(layout.tile_count(), kinds=kinds, copies=copies)
        template = layout
        order = symmetric_removal_order(template, rules, symmetry, rng, max_attempts=max_attempts)
    else:
        least = copies if kinds is None else kinds * copies
        for _ in range(LAYOUT_TRIES):
            template = symmetric_layout(width, height, symmetry, rng, copies=copies, least=least)
            counts = kind_tile_counts(template.tile_count(), kinds=kinds, copies=copies)
            order = symmetric_removal_order(
                template, rules, symmetry, rng, max_attempts=max_attempts
            )
            if order is not None:
                break
    if order is None:
        tries = "" if layout is not None else f" on each of {LAYOUT_TRIES} layouts"
        raise GenerationError(
            f"no {symmetry}-symmetric removal order found for this {format_size(template.size)}"
            f" layout with max_turns {rules.max_turns} and outside"
            f" {'on' if rules.outside else 'off'}: the playout met {max_attempts} dead ends"
            f"{tries} (try more turns, outside on, or another layout)"
        )
    flat = [pair for step in order for pair in step]
    orbits, start = [], 0
    for step in order:
        orbits.append(list(range(start, start + len(step))))
        start += len(step)
    pair_kinds, _ = symmetric_kinds(orbits, counts, rng)
    board, moves = deal(template, rules, flat, pair_kinds)
    problems = replay(board, rules, moves)
    if problems:
        raise AssertionError(f"generated level does not replay (a bug): {problems[0]}")
    parameters: dict[str, Any] = {
        "size": format_size(Size(width, height)),
        "kinds": len(counts),
        "copies": copies,
        "max_turns": rules.max_turns,
        "outside": rules.outside,
        "layout": None if layout is None else format_layout(layout).splitlines(),
        "symmetry": symmetry,
        "kinds_symmetry": board_symmetry(board),
    }
    if shape is not None:
        parameters["shape"] = shape
    return Level(
        board=board,
        rules=rules,
        solution=tuple(moves),
        metrics=solution_metrics(board, rules, moves),
        generator=GeneratorInfo(GENERATOR_NAME, __version__, seed, parameters),
    )
