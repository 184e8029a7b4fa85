"""Link-up's own options: declared for the family table (what ``create``, packs and the
service's create body take, and what ``hint`` takes), and read strictly (:class:`SpecError`
names the option)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..puzzles import CreateOption, OptionKind, SpecError

if TYPE_CHECKING:
    from .core.board import Board
    from .draw.tiles import TileSet

__all__ = [
    "HINT_OPTIONS",
    "METHODS",
    "check_options",
    "check_tiles",
    "create_options",
    "int_option",
    "load_search",
    "method_option",
    "rival_option",
    "tile_option",
]

TEXT, INT, BOOL, LINES = OptionKind.TEXT, OptionKind.INT, OptionKind.BOOL, OptionKind.LINES

#: The solver methods a level without a solution may be decided with.
METHODS = ("auto", "search", "cpsat", "exhaustive")


def create_options() -> tuple[CreateOption, ...]:
    """Link-up's create options, as ``create``, ``pack`` and the service take them."""
    from .core.layers import MAX_LAYERS
    from .core.rules import SLIDES

    return (
        CreateOption("kinds", "K", "Distinct tile kinds (default: tiles / copies).", INT),
        CreateOption("copies", "C", "Tiles per kind: an even number, 2..64.", INT, "4"),
        CreateOption("max_turns", "T", "Most turns a linking path may make (0..8).", INT, "2"),
        CreateOption("outside", "BOOL", "Whether paths may use the ring around.", BOOL, "outside"),
        CreateOption(
            "layout",
            "FILE",
            "A layout file: one line per row, o a tile cell, . a hole, # a wall; for"
            " layers one block of lines per layer, bottom first, a blank line between.",
            LINES,
        ),
        CreateOption(
            "slide",
            "DIR",
            "After every removal the tiles slide: " + ", ".join(SLIDES) + ".",
            TEXT,
            "none",
        ),
        CreateOption(
            "layers",
            "N",
            f"Layers (1..{MAX_LAYERS}; 1: a flat board): a pyramid, each layer one cell in"
            " from the one below, unless the layout gives them.",
            INT,
        ),
        CreateOption(
            "symmetry",
            "SYM",
            "A symmetric level: mirror (left-right), rotate (a half turn) or both; the"
            " layout, and the kinds where their counts allow.",
        ),
        CreateOption(
            "shape", "NAME", "A named layout (heart, pyramid, ring, ...: see levelgen shapes)."
        ),
    )


#: Link-up's hint options.
HINT_OPTIONS: tuple[CreateOption, ...] = (
    CreateOption(
        "method",
        "METHOD",
        "The solver that proves the hint: " + ", ".join(METHODS) + ".",
        TEXT,
        "auto",
    ),
    CreateOption(
        "workers",
        "N",
        "Processes for auto's race of two repair runs on boards over 500 tiles (1 or more).",
        INT,
    ),
)


def check_options(options: Mapping[str, Any], allowed: Sequence[str], what: str) -> dict[str, Any]:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        known = ", ".join(allowed) or "none"
        raise SpecError(unknown[0], f"not an option of linkup's {what} (its options: {known})")
    return dict(options)


def tile_option(options: Mapping[str, Any]) -> TileSet:
    """The tile set of the ``tiles`` option (see :func:`levelgen.linkup.draw.tiles.tile_set`)."""
    from .draw.tiles import PICTURES, tile_set

    if options.get("tiles") is None:
        return PICTURES
    try:
        return tile_set(options["tiles"])
    except ValueError as exc:
        raise SpecError("tiles", str(exc)) from None


def check_tiles(board: Board, tiles: TileSet) -> None:
    """:class:`SpecError` naming the first kind of ``board`` a studio's tile set lacks."""
    from .draw.svg import check_tiles as check_kinds

    try:
        check_kinds(board, tiles)
    except ValueError as exc:
        raise SpecError("tiles", str(exc)) from None


def method_option(options: Mapping[str, Any]) -> str:
    method = options.get("method") or "auto"
    if method not in METHODS:
        raise SpecError("method", f"{method!r} is not one of: {', '.join(METHODS)}")
    if method == "exhaustive":
        load_search()
    return str(method)


def load_search() -> None:
    """Import the search solver's package before the exhaustive solver's module:
    ``solvers.exhaustive`` imports ``solvers.search.common``, and the ``solvers.search``
    package imports ``solvers.exhaustive`` back, which fails when the exhaustive module is
    the first of the two to load."""
    from .solvers import search  # noqa: F401


def rival_option(options: Mapping[str, Any]) -> Any:
    from .solvers.rival import rival_for

    workers = options.get("workers")
    if workers is None:
        return rival_for(None)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SpecError("workers", f"expected a whole number of at least 1, got {workers!r}")
    return rival_for(workers)


def int_option(values: Mapping[str, Any], name: str, default: int | None) -> int | None:
    """An integer option, strictly: not a bool, not a string of digits."""
    value = values.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(name, f"expected a whole number, got {value!r}")
    return value
