"""What ``levelgen create`` may be asked, checked once for every edge (command line and HTTP).

A :class:`CreateSpec` holds the create options as plain values (the layout as its text, never a
file path); :func:`check_create_spec` checks them all before any work and returns a
:class:`CheckedSpec` (the parsed size, rules and layout board) or raises :class:`SpecError`
naming the option (``field``: ``size``, ``seed``, ``kinds``, ``copies``, ``max_turns``,
``layout``, ``difficulty``) and the reason.  The command line shows the field as ``'--size'``,
the HTTP service as the JSON pointer ``/size``.  :func:`create_level` generates the level of a
checked spec.  Pure: no I/O, no clock; the seed must already be chosen (drawing one is the
edge's business).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .generator import GenerationError, generate, kind_tile_counts, parse_layout
from .geometry import Size, parse_size
from .level import Level
from .rules import MAX_TURNS_LIMIT, Rules

__all__ = [
    "MAX_SEED",
    "CheckedSpec",
    "CreateSpec",
    "SpecError",
    "check_create_spec",
    "create_level",
]

#: Seeds stay below 2**53 so that every JSON reader (JavaScript included) keeps them exact.
MAX_SEED = 2**53 - 1


class SpecError(ValueError):
    """A create option that cannot be met: ``field`` names the option, the message says why."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True, slots=True)
class CreateSpec:
    """The create options.  ``size`` is ``"WxH"`` (None: the layout's size); ``layout`` is the
    text of a layout (``o`` a tile cell, ``.`` a hole, ``#`` a wall), None for a full
    rectangle; ``layout_name`` is how messages name the layout."""

    size: str | None = None
    seed: int | None = None
    kinds: int | None = None
    copies: int = 4
    max_turns: int = 2
    outside: bool = True
    layout: str | None = None
    layout_name: str = "the layout"
    difficulty: str | None = None


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
    template = None
    if spec.layout is not None:
        try:
            template = parse_layout(spec.layout)
        except GenerationError as exc:
            raise SpecError("layout", str(exc)) from None
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
    tiles = template.tile_count() if template is not None else Size(*size).cells
    if template is not None and tiles == 0:
        raise SpecError("layout", f"{spec.layout_name} has no tile cell (o)")
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

        if spec.kinds is not None:
            raise SpecError(
                "kinds", "the steering chooses the kinds (through copies): leave kinds out"
            )
        try:
            target = str(parse_target(spec.difficulty))
        except ValueError as exc:
            raise SpecError("difficulty", str(exc)) from None
    rules = Rules(spec.max_turns, spec.outside)
    return CheckedSpec(Size(*size), spec.kinds, spec.copies, rules, template, tiles, target)


def create_level(checked: CheckedSpec, seed: int) -> Level:
    """The level of ``checked`` and ``seed`` (the same for the same inputs and version).  With
    a difficulty target, the steered level (the closest found when none met the target; its
    ``generator.parameters`` say so).

    ``GenerationError`` when no level can be made (no complete removal order was found)."""
    if checked.difficulty is not None:
        from .steer import parse_target, steered_generate

        target = parse_target(checked.difficulty)
        size, rules, layout = checked.size, checked.rules, checked.layout
        return steered_generate(size, target, seed=seed, rules=rules, layout=layout).level
    return generate(
        checked.size,
        kinds=checked.kinds,
        copies=checked.copies,
        rules=checked.rules,
        layout=checked.layout,
        seed=seed,
    )
