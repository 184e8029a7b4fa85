"""What ``levelgen create`` may be asked, checked once for every edge (command line and HTTP).

A :class:`CreateSpec` holds the create options as plain values (the layout as its text, never a
file path); :func:`check_create_spec` checks them all before any work and returns a
:class:`CheckedSpec` (the parsed size, rules and layout board) or raises :class:`SpecError`
naming the option (``field``: ``size``, ``seed``, ``kinds``, ``copies``, ``max_turns``,
``slide``, ``layers``, ``layout``, ``difficulty``, ``symmetry``) and the reason.  The command
line shows the field as ``'--size'``, the HTTP service as the JSON pointer ``/size``.
:func:`create_level` generates the level of a checked spec.  Pure: no I/O, no clock; the seed
must already be chosen (drawing one is the edge's business).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...formats.progress import Progress
from ..core.board import Board
from ..core.geometry import Size, parse_size
from ..core.layers import MAX_LAYERS, layer_count, layered_tile_count
from ..core.level import Level
from ..core.rules import MAX_TURNS_LIMIT, SLIDES, Rules
from .generator import GenerationError, generate, kind_tile_counts, parse_layout

if TYPE_CHECKING:
    from .steer import SteerResult

__all__ = [
    "MAX_SEED",
    "CheckedSpec",
    "CreateSpec",
    "SpecError",
    "check_create_spec",
    "create_level",
    "steered_level",
]

#: Seeds stay below 2**53 so that every JSON reader (JavaScript included) keeps them exact.
MAX_SEED = 2**53 - 1


class SpecError(ValueError):
    """A create option that cannot be met: ``field`` names the option, the message says why.
    ``unreadable`` is set when the layout text itself cannot be read as a layout (the command
    line reports that as an unreadable file, not as a bad option value)."""

    def __init__(self, field: str, message: str, *, unreadable: bool = False) -> None:
        self.field = field
        self.message = message
        self.unreadable = unreadable
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True, slots=True)
class CreateSpec:
    """The create options.  ``size`` is ``"WxH"`` (None: the layout's size); ``layout`` is the
    text of a layout (``o`` a tile cell, ``.`` a hole, ``#`` a wall; for stacked layers one
    block of lines per layer, bottom first, separated by a blank line), None for a full
    rectangle (or, with ``layers``, a pyramid); ``layout_name`` is how messages name the
    layout.  ``slide`` is a rule of :data:`levelgen.linkup.core.rules.SLIDES`.  ``layers`` is
    the number of layers, ``1..MAX_LAYERS``: 1 is the flat board of the classic game (a
    pyramid of one layer), None the layout's own layers (one without a layout).  ``symmetry``
    is one of :data:`levelgen.linkup.generate.symmetry.SYMMETRIES` or None (see
    :mod:`levelgen.linkup.generate.symmetric`); ``shape`` the name of the shape the layout
    came from (recorded in the level), None for none."""

    size: str | None = None
    seed: int | None = None
    kinds: int | None = None
    copies: int = 4
    max_turns: int = 2
    outside: bool = True
    layout: str | None = None
    layout_name: str = "the layout"
    difficulty: str | None = None
    slide: str = "none"
    layers: int | None = None
    symmetry: str | None = None
    shape: str | None = None


@dataclass(frozen=True, slots=True)
class CheckedSpec:
    """A spec whose options were all checked: what :func:`create_level` needs."""

    size: Size
    kinds: int | None
    copies: int
    rules: Rules
    layout: Board | None
    tiles: int
    difficulty: str | None = None
    symmetry: str | None = None
    shape: str | None = None


def check_create_spec(spec: CreateSpec) -> CheckedSpec:
    """Check every option of ``spec``; ``SpecError`` (with the option's name) for the first
    one that cannot be met.  The seed may still be None (the edge draws one)."""
    if spec.seed is not None and not 0 <= spec.seed <= MAX_SEED:
        raise SpecError("seed", f"{spec.seed} is not in 0..{MAX_SEED}")
    if spec.copies < 2 or spec.copies % 2:
        raise SpecError(
            "copies", f"{spec.copies} is not an even number of at least 2 (tiles go in pairs)"
        )
    if spec.kinds is not None and spec.kinds < 1:
        raise SpecError("kinds", f"{spec.kinds} is not at least 1")
    if not 0 <= spec.max_turns <= MAX_TURNS_LIMIT:
        raise SpecError("max_turns", f"{spec.max_turns} is not in 0..{MAX_TURNS_LIMIT}")
    _check_variants(spec.slide, spec.layers)
    template = None
    if spec.layout is not None:
        template = _parse_any_layout(spec.layout, spec.layers)
    if spec.size is None:
        if template is None:
            raise SpecError("size", "give a size such as 12x8, or a layout")
        size = template.size
    else:
        try:
            size = parse_size(spec.size)
        except ValueError as exc:
            raise SpecError("size", str(exc)) from None
        if template is not None and template.size != size:
            raise SpecError(
                "size",
                f"{spec.size} differs from the {template.width}x{template.height}"
                f" of {spec.layout_name}",
            )
    template = _layers_template(template, spec.layers, size, spec.layout_name)
    tiles = layered_tile_count(template) if template is not None else Size(*size).cells
    if template is not None and tiles == 0:
        raise SpecError("layout", f"{spec.layout_name} has no tile cell (o)")
    if spec.symmetry is not None:
        tiles = _check_symmetry(spec, template, Size(*size))
    try:
        kind_tile_counts(tiles, kinds=spec.kinds, copies=spec.copies)
    except GenerationError as exc:
        field = "kinds" if spec.kinds is not None and "kinds" in str(exc) else "copies"
        if tiles % 2:
            field = "layout" if template is not None else "size"
        raise SpecError(field, str(exc)) from None
    target = None
    if spec.difficulty is not None:
        from .steer import parse_target

        if spec.slide != "none" or (template is not None and template.upper):
            variant = f"slide {spec.slide}" if spec.slide != "none" else "stacked layers"
            raise SpecError("difficulty", f"difficulty steering does not support {variant} yet")
        if spec.kinds is not None:
            raise SpecError(
                "kinds", "the steering chooses the kinds (through copies): leave kinds out"
            )
        try:
            target = str(parse_target(spec.difficulty))
        except ValueError as exc:
            raise SpecError("difficulty", str(exc)) from None
    rules = Rules(spec.max_turns, spec.outside, spec.slide)
    return CheckedSpec(
        Size(*size),
        spec.kinds,
        spec.copies,
        rules,
        template,
        tiles,
        target,
        spec.symmetry,
        spec.shape,
    )


def _check_symmetry(spec: CreateSpec, template: Board | None, size: Size) -> int:
    """The tile count of a symmetric level of ``spec`` (at most, for a layout still to be
    drawn); ``SpecError`` naming ``symmetry`` when the symmetry cannot be met."""
    from .symmetry import SYMMETRIES, symmetry_problem

    if spec.symmetry not in SYMMETRIES:
        raise SpecError("symmetry", f"{spec.symmetry!r} is not one of {', '.join(SYMMETRIES)}")
    if spec.slide != "none" or (template is not None and template.upper) or (spec.layers or 1) > 1:
        raise SpecError(
            "symmetry", "symmetric levels are flat boards: leave out --slide and --layers"
        )
    if spec.difficulty is not None:
        raise SpecError("symmetry", "difficulty steering does not support symmetric levels yet")
    if template is None:
        return size.cells - (size.width % 2) * (size.height % 2)  # the centre is a hole
    problem = symmetry_problem(template, spec.symmetry)
    if problem is not None:
        raise SpecError("symmetry", f"{problem} ({spec.layout_name})")
    return template.tile_count()


def _check_variants(slide: str, layers: int | None) -> None:
    if slide not in SLIDES:
        raise SpecError("slide", f"{slide!r} is not one of {', '.join(SLIDES)}")
    if layers is not None and not 1 <= layers <= MAX_LAYERS:
        raise SpecError("layers", f"{layers} is not in 1..{MAX_LAYERS} (1: a flat board)")
    if layers is not None and layers > 1 and slide != "none":
        raise SpecError(
            "slide",
            f"slide {slide} with {layers} layers: stacked layers and sliding tiles do not combine",
        )


def _parse_any_layout(text: str, layers: int | None) -> Board:
    """A one-layer layout, or one of several layers separated by blank lines; ``SpecError``
    (``unreadable``) for text that is not a layout."""
    from .variants import parse_layers_layout

    blocks = [b for b in text.strip("\n").split("\n\n") if b.strip()]
    try:
        if len(blocks) < 2 and not layers:
            return parse_layout(text)
        return parse_layers_layout(text)
    except (GenerationError, ValueError) as exc:
        raise SpecError("layout", str(exc), unreadable=True) from None


def _layers_template(
    template: Board | None, layers: int | None, size: tuple[int, int], layout_name: str
) -> Board | None:
    """The template with ``layers``: the layout's (whose layer count must match) or a
    pyramid of ``size``."""
    from .variants import pyramid_layout

    if layers is None:
        return template
    if template is not None:
        if layer_count(template) != layers:
            raise SpecError(
                "layers", f"{layout_name} has {layer_count(template)} layers, not {layers}"
            )
        return template
    try:
        return pyramid_layout(size[0], size[1], layers)
    except ValueError as exc:
        raise SpecError("layers", str(exc)) from None


def create_level(checked: CheckedSpec, seed: int, progress: Progress | None = None) -> Level:
    """The level of ``checked`` and ``seed`` (the same for the same inputs and version).  With
    a difficulty target, the steered level (the closest found when none met the target; its
    ``generator.parameters`` say so).

    ``GenerationError`` when no level can be made (no complete removal order was found)."""
    if checked.difficulty is not None:
        return steered_level(checked, seed).level
    return generate(
        checked.size,
        kinds=checked.kinds,
        copies=checked.copies,
        rules=checked.rules,
        layout=checked.layout,
        seed=seed,
        progress=progress,
        symmetry=checked.symmetry,
        shape=checked.shape,
    )


def steered_level(checked: CheckedSpec, seed: int) -> SteerResult:
    """The steering's answer for a spec with a difficulty target (:func:`create_level` keeps
    only its level; the command line also says when the target was missed)."""
    from .steer import parse_target, steered_generate

    assert checked.difficulty is not None, "steered_level needs a difficulty target"
    target = parse_target(checked.difficulty)
    size, rules, layout = checked.size, checked.rules, checked.layout
    return steered_generate(size, target, seed=seed, rules=rules, layout=layout)
