"""Pack plans: what each level of a pack is asked to be, decided before any level is made.

A plan is a pure function of the request (count, sizes, layout, difficulty target or band
ramp, rules, seed): one :class:`Job` per level in play order, each with its size, target and
its own seed drawn from ``random.Random(seed)``.  :func:`make_level_text` turns one job into the
bytes of its level file and depends on nothing else, so a pack is the same byte for byte
whatever runs the jobs (one process, a pool of any size, a Dask cluster) and in whatever
order they finish.  Everything here is picklable plain data.

Play order.  ``--size A:B`` ramps width and height linearly from ``A`` to ``B`` (rounded;
a full board with an odd cell count gets one more column, or one fewer at the top end);
a list of sizes is played in equal blocks in the order given.  ``--ramp easy:expert`` cuts the
levels into equal blocks, one per band from the first to the last, in order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..linkup import BANDS, MAX_SIDE, Size, format_size, parse_size, ramp_bands

__all__ = [
    "Job",
    "PackPlan",
    "PlanError",
    "file_name",
    "make_level_text",
    "parse_ramp",
    "parse_sizes",
    "plan_family_pack",
    "plan_pack",
    "size_plan",
]


class PlanError(ValueError):
    """A pack request that cannot be planned; the message names the option and the reason."""


@dataclass(frozen=True, slots=True)
class Job:
    """One level to make: its index in play order, size, difficulty target (a band, a score
    as text, or None for plain generation), seed, rules and layout rows (or None)."""

    index: int
    size: str
    target: str | None
    seed: int
    max_turns: int
    outside: bool
    layout: tuple[str, ...] | None
    #: The sliding rule of this level (``--slide-cycle``; ``"none"``: the classic game).
    slide: str = "none"
    #: The game, and for another game than Link-up its create options for this level.
    game: str = "linkup"
    options: tuple[tuple[str, Any], ...] = ()
    #: The symmetry of this level (``--symmetry``; None: none asked for).
    symmetry: str | None = None


@dataclass(frozen=True, slots=True)
class PackPlan:
    """Every job of a pack and the parameters recorded in its manifest."""

    seed: int
    count: int
    sizes: tuple[str, ...]
    size_ramp: bool
    difficulty: str | None
    ramp: str | None
    max_turns: int
    outside: bool
    layout: tuple[str, ...] | None
    jobs: tuple[Job, ...]
    #: ``--slide-cycle``: level ``i`` slides ``slide_cycle[i % len]`` (None: not given).
    slide_cycle: tuple[str, ...] | None = None
    #: The game, and for another game than Link-up the create options asked for.
    game: str = "linkup"
    options: tuple[tuple[str, Any], ...] = ()
    #: ``--symmetry``: the symmetry of every level (None: not given).
    symmetry: str | None = None

    def parameters(self) -> dict[str, object]:
        """The manifest's ``parameters``."""
        if self.game != "linkup":
            return {
                "game": self.game,
                "count": self.count,
                "difficulty": self.difficulty,
                "ramp": self.ramp,
                "options": dict(self.options),
            }
        return {
            "count": self.count,
            "sizes": list(self.sizes),
            "size_ramp": self.size_ramp,
            "difficulty": self.difficulty,
            "ramp": self.ramp,
            "max_turns": self.max_turns,
            "outside": self.outside,
            "layout": None if self.layout is None else list(self.layout),
        } | (
            ({} if self.slide_cycle is None else {"slide_cycle": list(self.slide_cycle)})
            | ({} if self.symmetry is None else {"symmetry": self.symmetry})
        )


def file_name(index: int, count: int) -> str:
    """``001.json`` ...: the 1-based index, zero-padded to at least three digits."""
    return f"{index + 1:0{max(3, len(str(count)))}d}.json"


def parse_sizes(text: str) -> tuple[tuple[Size, ...], bool]:
    """``12x8``, ``8x6,12x8,18x10`` (a list) or ``8x6:18x10`` (a ramp): the sizes and whether
    they are a ramp.  ``PlanError`` for anything else."""
    ramp = ":" in text
    parts = text.split(":") if ramp else text.split(",")
    if ramp and len(parts) != 2:
        raise PlanError(f"--size: a ramp has two ends such as 8x6:18x10, got {text!r}")
    try:
        sizes = tuple(parse_size(p.strip()) for p in parts)
    except ValueError as exc:
        raise PlanError(f"--size: {exc}") from None
    return sizes, ramp


def size_plan(sizes: tuple[Size, ...], ramp: bool, count: int) -> list[Size]:
    """The size of each level in play order (see the module docstring)."""
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


def parse_ramp(text: str) -> tuple[int, int]:
    """``easy:expert`` -> band indices (0, 3); ``PlanError`` for unknown or falling bands."""
    parts = text.strip().lower().split(":")
    if len(parts) != 2 or any(p not in BANDS for p in parts):
        raise PlanError(f"--ramp: expected FROM:TO with bands {', '.join(BANDS)}, got {text!r}")
    lo, hi = BANDS.index(parts[0]), BANDS.index(parts[1])
    if hi < lo:
        raise PlanError(f"--ramp: {text!r} falls; a ramp goes from easier to harder")
    return lo, hi


def plan_pack(
    *,
    count: int,
    sizes: str,
    seed: int,
    difficulty: str | None = None,
    ramp: str | None = None,
    max_turns: int = 2,
    outside: bool = True,
    layout: tuple[str, ...] | None = None,
    slide_cycle: str | None = None,
    symmetry: str | None = None,
) -> PackPlan:
    """The plan of a pack; ``PlanError`` naming the option for a bad request.  ``slide_cycle``:
    sliding rules such as ``none,down,up`` given to the levels in turn (variant levels get no
    difficulty measure: the seeded players play the classic game only).  ``symmetry``: every
    level symmetric (``create --symmetry``; no difficulty steering then)."""
    from ..linkup import parse_target

    cycle = _parse_slide_cycle(slide_cycle)
    _check_symmetry(symmetry, cycle, difficulty or ramp, layout)
    if cycle is not None and any(s != "none" for s in cycle) and (difficulty or ramp):
        raise PlanError(
            "--slide-cycle: difficulty steering does not support sliding tiles yet;"
            " leave out --difficulty and --ramp, or give only none"
        )

    if count < 1:
        raise PlanError(f"--count: {count} is not at least 1")
    if difficulty is not None and ramp is not None:
        raise PlanError("--ramp: it and --difficulty exclude each other; give one")
    if difficulty is not None:
        try:
            difficulty = str(parse_target(difficulty))
        except ValueError as exc:
            raise PlanError(f"--difficulty: {exc}") from None
    size_list, size_ramp = parse_sizes(sizes)
    if layout is not None and (size_ramp or len(size_list) > 1):
        raise PlanError("--layout fixes the size: give one --size (or none)")
    per_level = size_plan(size_list, size_ramp, count)
    if layout is None and symmetry is None:  # a symmetric layout leaves the centre out
        for size in sorted(set(per_level)):
            if size.cells % 2:
                raise PlanError(
                    f"--size: {format_size(size)} has {size.cells} cells, an odd number:"
                    " tiles are removed in pairs"
                )
    elif layout is not None:
        tiles = sum(row.count("o") for row in layout)
        if tiles == 0 or tiles % 2:
            raise PlanError(
                f"--layout: it has {tiles} tile cell{'' if tiles == 1 else 's'};"
                " an even number > 0 is needed"
            )
    if ramp is not None:
        lo, hi = parse_ramp(ramp)
        ramp = f"{BANDS[lo]}:{BANDS[hi]}"
        targets: list[str | None] = list(ramp_bands(lo, hi, count))
    else:
        targets = [difficulty] * count
    rng = random.Random(seed)
    jobs = tuple(
        Job(
            i,
            format_size(per_level[i]),
            targets[i],
            rng.randrange(2**53),
            max_turns,
            outside,
            layout,
            "none" if cycle is None else cycle[i % len(cycle)],
            symmetry=symmetry,
        )
        for i in range(count)
    )
    return PackPlan(
        seed=seed,
        count=count,
        sizes=tuple(format_size(s) for s in size_list),
        size_ramp=size_ramp,
        difficulty=difficulty,
        ramp=ramp,
        max_turns=max_turns,
        outside=outside,
        layout=layout,
        jobs=jobs,
        slide_cycle=cycle,
        symmetry=symmetry,
    )


def _check_symmetry(
    symmetry: str | None,
    cycle: tuple[str, ...] | None,
    steered: str | None,
    layout: tuple[str, ...] | None,
) -> None:
    """``PlanError`` naming ``--symmetry`` when the levels cannot have it."""
    from ..linkup import SYMMETRIES, parse_layout, symmetry_problem

    if symmetry is None:
        return
    if symmetry not in SYMMETRIES:
        raise PlanError(f"--symmetry: {symmetry!r} is not one of {', '.join(SYMMETRIES)}")
    if cycle is not None and any(s != "none" for s in cycle):
        raise PlanError("--symmetry: symmetric levels are flat boards: leave out --slide-cycle")
    if steered:
        raise PlanError(
            "--symmetry: difficulty steering does not support symmetric levels yet;"
            " leave out --difficulty and --ramp"
        )
    if layout is not None:
        problem = symmetry_problem(parse_layout("\n".join(layout)), symmetry)
        if problem is not None:
            raise PlanError(f"--symmetry: {problem}")


def _parse_slide_cycle(text: str | None) -> tuple[str, ...] | None:
    """``none,down,up`` -> the rules in order; ``PlanError`` naming an unknown rule."""
    from ..linkup import SLIDES

    if text is None:
        return None
    parts = tuple(p.strip() for p in text.split(","))
    for part in parts:
        if part not in SLIDES:
            raise PlanError(f"--slide-cycle: {part!r} is not one of {', '.join(SLIDES)}")
    return parts


#: Attempts per level for a pack (more than ``create``'s: a pack should stay on its ramp).
PACK_ATTEMPTS = 20


def plan_family_pack(
    game: str,
    count: int,
    seed: int,
    options: dict[str, Any],
    difficulty: str | None = None,
    ramp: str | None = None,
) -> PackPlan:
    """The plan of a pack of another game than Link-up: ``count`` levels of the family's create
    ``options``, each at ``difficulty`` (a band) or along the family's ``ramp`` of bands
    (:meth:`levelgen.puzzles.Family.ramp`); ``PlanError`` naming the option otherwise."""
    from ..puzzles import Capability, FamilyError, SpecError, family

    try:
        item = family(game)
    except FamilyError as exc:
        raise PlanError(f"--game: {exc}") from None
    if Capability.PACK not in item.capabilities:
        raise PlanError(f"--game: game {game!r} has no pack operation")
    if count < 1:
        raise PlanError(f"--count: {count} is not at least 1")
    if difficulty is not None and ramp is not None:
        raise PlanError("--ramp: it and --difficulty exclude each other; give one")
    per_level: list[dict[str, Any]]
    try:
        if ramp is not None:
            parts = ramp.strip().lower().split(":")
            if len(parts) != 2 or any(p not in item.bands for p in parts):
                bands = ", ".join(item.bands)
                raise PlanError(f"--ramp: expected FROM:TO with bands {bands}, got {ramp!r}")
            ramp = ":".join(parts)
            per_level = item.ramp(options, count, parts[0], parts[1])
        else:
            one = dict(options) if difficulty is None else {**options, "difficulty": difficulty}
            per_level = [one] * count
        for values in {repr(sorted(v.items())): v for v in per_level}.values():
            item.parse_spec(values)
    except SpecError as exc:
        raise PlanError(f"--{exc.option.replace('_', '-')}: {exc.reason}") from None
    rng = random.Random(seed)
    jobs = tuple(
        Job(
            i,
            str(per_level[i].get("size", "")),
            None,
            rng.randrange(2**53),
            0,
            False,
            None,
            game=game,
            options=tuple(sorted(per_level[i].items())),
        )
        for i in range(count)
    )
    return PackPlan(
        seed=seed,
        count=count,
        sizes=(),
        size_ramp=False,
        difficulty=difficulty,
        ramp=ramp,
        max_turns=0,
        outside=False,
        layout=None,
        jobs=jobs,
        game=game,
        options=tuple(sorted(options.items())),
    )


def make_level_text(job: Job) -> str:
    """The canonical text of the level file of ``job`` (the same job: the same text)."""
    if job.game != "linkup":
        from ..formats import format_json
        from ..puzzles import family

        item = family(job.game)
        document = item.create(item.parse_spec(dict(job.options)), job.seed)
        return format_json(item.dump(document))
    from ..linkup import (
        Rules,
        format_level,
        measure_difficulty,
        parse_layout,
        parse_target,
        steered_generate,
    )
    from ..linkup import (
        generate_level as generate,
    )

    size = parse_size(job.size)
    rules = Rules(job.max_turns, job.outside, job.slide)
    template = None if job.layout is None else parse_layout("\n".join(job.layout))
    if job.slide != "none":  # no difficulty measure for variants (see plan_pack)
        level = generate(size, rules=rules, layout=template, seed=job.seed)
    elif job.target is None:
        level = generate(size, rules=rules, layout=template, seed=job.seed, symmetry=job.symmetry)
        assert level.solution is not None and level.metrics is not None
        import dataclasses

        diff = measure_difficulty(level.board, rules, level.solution, seed=job.seed)
        level = dataclasses.replace(
            level, metrics=dataclasses.replace(level.metrics, difficulty=diff)
        )
    else:
        result = steered_generate(
            size,
            parse_target(job.target),
            seed=job.seed,
            rules=rules,
            layout=template,
            max_attempts=PACK_ATTEMPTS,
        )
        level = result.level
    return format_level(level)
