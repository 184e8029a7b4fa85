"""Link-up's pack planning: the create options of each level of a pack, in play order.

A pack's values are Link-up's create options, some of which may name more than one level:

- ``size``: one size ``12x8``, a list ``8x6,12x8`` (played in equal blocks in the order given)
  or a ramp ``8x6:18x10`` (width and height rise linearly, rounded; a full board with an odd
  cell count gets one more column, or one fewer at the top end).  Default: the size of the
  layout or shape, else 12x8.
- ``slide_cycle`` (or ``slide`` with commas): sliding rules such as ``none,down,up`` given to
  the levels in turn (level ``i`` slides ``cycle[i mod length]``).
- ``difficulty``: one target (a band or a score) for every level; or a ramp of bands, cut into
  equal blocks, one per band from the first to the last.

Every other option (``layout``, ``shape``, ``symmetry``, ``max_turns``, ``outside``, ...) goes to
every level as it is.  :func:`pack_levels` returns plain JSON values that
:meth:`levelgen.linkup.family.LinkupFamily.parse_spec` accepts; ``SpecError`` names the option
that cannot be planned.  Pure: no I/O, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...puzzles import SpecError
from ..core.geometry import MAX_SIDE, Size, format_size, parse_size
from ..core.rules import SLIDES
from ..difficulty.score import BANDS, ramp_bands

__all__ = ["DEFAULT_PACK_SIZE", "pack_levels", "parse_sizes", "size_plan"]

#: The size of a pack's levels when neither a size nor a layout is given.
DEFAULT_PACK_SIZE = "12x8"


def parse_sizes(text: str) -> tuple[tuple[Size, ...], bool]:
    """``12x8``, ``8x6,12x8`` (a list) or ``8x6:18x10`` (a ramp): the sizes and whether they
    are a ramp; ``SpecError`` naming ``size`` otherwise."""
    ramp = ":" in text
    parts = text.split(":") if ramp else text.split(",")
    if ramp and len(parts) != 2:
        raise SpecError("size", f"a ramp has two ends such as 8x6:18x10, got {text!r}")
    try:
        return tuple(parse_size(p.strip()) for p in parts), ramp
    except ValueError as exc:
        raise SpecError("size", str(exc)) from None


def size_plan(sizes: tuple[Size, ...], ramp: bool, count: int) -> list[Size]:
    """The size of each of ``count`` levels in play order (see the module docstring)."""
    if not ramp:
        return [sizes[i * len(sizes) // count] for i in range(count)]
    (w0, h0), (w1, h1) = sizes
    out = []
    for i in range(count):
        t = i / (count - 1) if count > 1 else 0.0
        w = int(w0 + (w1 - w0) * t + 0.5)
        h = int(h0 + (h1 - h0) * t + 0.5)
        if (w * h) % 2:
            w = w + 1 if w < MAX_SIDE else w - 1
        out.append(Size(w, h))
    return out


def pack_levels(
    values: Mapping[str, Any],
    count: int,
    *,
    difficulty: str | None,
    ramp: tuple[str, str] | None,
) -> list[dict[str, Any]]:
    """The create options of each of ``count`` levels (see the module docstring)."""
    if count < 1:
        raise SpecError("count", f"{count} is not at least 1")
    base = {k: v for k, v in values.items() if k not in ("size", "slide_cycle") and v is not None}
    cycle, cycle_name = _slide_cycle(values)
    if cycle is not None:
        base.pop("slide", None)
    variant = cycle is not None and any(s != "none" for s in cycle)
    steered = difficulty is not None or ramp is not None or base.get("difficulty") is not None
    if variant and steered:
        raise SpecError(
            cycle_name,
            "difficulty steering does not support sliding tiles yet; leave out difficulty and"
            " ramp, or give only none",
        )
    _check_symmetry(base.get("symmetry"), variant, steered)
    targets = _targets(difficulty or base.pop("difficulty", None), ramp, count)
    layout = base.get("layout")
    size = values.get("size")
    if size is not None and not isinstance(size, str):
        raise SpecError("size", f"expected a string, got {size!r}")
    sizes: list[str | None]
    if size is None:
        fixed = layout is not None or base.get("shape") is not None
        sizes = [None if fixed else DEFAULT_PACK_SIZE] * count
    else:
        size_list, size_ramp = parse_sizes(size)
        if (layout is not None or base.get("shape") is not None) and (
            size_ramp or len(size_list) > 1
        ):
            name = "layout" if layout is not None else "shape"
            raise SpecError(name, "it fixes the size: give one size (or none)")
        sizes = [format_size(s) for s in size_plan(size_list, size_ramp, count)]
    if isinstance(layout, str):
        _check_layout(layout)
    elif base.get("symmetry") is None and base.get("shape") is None and not base.get("layers"):
        for text in sorted({s for s in sizes if s is not None}):
            cells = parse_size(text).cells
            if cells % 2:
                raise SpecError(
                    "size", f"{text} has {cells} cells, an odd number: tiles are removed in pairs"
                )
    levels = []
    for i in range(count):
        one = dict(base)
        if sizes[i] is not None:
            one["size"] = sizes[i]
        if cycle is not None:
            one["slide"] = cycle[i % len(cycle)]
        if targets[i] is not None:
            one["difficulty"] = targets[i]
        levels.append(one)
    return levels


def _slide_cycle(values: Mapping[str, Any]) -> tuple[tuple[str, ...] | None, str]:
    """The sliding rules given to the levels in turn, and the option that gave them."""
    name = "slide_cycle" if values.get("slide_cycle") is not None else "slide"
    text = values.get(name)
    if text is None or (name == "slide" and isinstance(text, str) and "," not in text):
        return None, name
    if not isinstance(text, str):
        raise SpecError(name, f"expected a string such as none,down,up, got {text!r}")
    parts = tuple(p.strip() for p in text.split(","))
    for part in parts:
        if part not in SLIDES:
            raise SpecError(name, f"{part!r} is not one of {', '.join(SLIDES)}")
    return parts, name


def _check_symmetry(symmetry: object, variant: bool, steered: bool) -> None:
    from .symmetry import SYMMETRIES

    if symmetry is None:
        return
    if symmetry not in SYMMETRIES:
        raise SpecError("symmetry", f"{symmetry!r} is not one of {', '.join(SYMMETRIES)}")
    if variant:
        raise SpecError("symmetry", "symmetric levels are flat boards: leave out the slide cycle")
    if steered:
        raise SpecError(
            "symmetry",
            "difficulty steering does not support symmetric levels yet; leave out difficulty"
            " and ramp",
        )


def _targets(difficulty: object, ramp: tuple[str, str] | None, count: int) -> list[str | None]:
    """The difficulty target of each level: one for all, a ramp's bands, or none."""
    if ramp is not None:
        low, high = ramp
        for name, band in (("ramp", low), ("ramp", high)):
            if band not in BANDS:
                raise SpecError(name, f"{band!r} is not one of {', '.join(BANDS)}")
        if BANDS.index(high) < BANDS.index(low):
            raise SpecError("ramp", f"{low}:{high} falls; a ramp goes from easier to harder")
        return list(ramp_bands(BANDS.index(low), BANDS.index(high), count))
    if difficulty is None:
        return [None] * count
    from .steer import parse_target

    if not isinstance(difficulty, str):
        raise SpecError("difficulty", f"expected a band or a score, got {difficulty!r}")
    try:
        return [str(parse_target(difficulty))] * count
    except ValueError as exc:
        raise SpecError("difficulty", str(exc)) from None


def _check_layout(text: str) -> None:
    """A one-layer layout must have an even number of tile cells (more than none)."""
    from .generator import GenerationError, parse_layout

    if "\n\n" in text.strip("\n"):
        return  # stacked layers: the create spec checks them
    try:
        tiles = parse_layout(text).tile_count()
    except (GenerationError, ValueError) as exc:
        raise SpecError("layout", str(exc), is_format=True) from None
    if tiles == 0 or tiles % 2:
        raise SpecError(
            "layout",
            f"it has {tiles} tile cell{'' if tiles == 1 else 's'}; an even number > 0 is needed",
        )
