"""Pack plans: what each level of a pack is asked to be, decided before any level is made.

A plan is a pure function of the request (game, count, the family's create options, one
difficulty or a ramp of bands, seed): one :class:`Job` per level, each with its create options
from the family's :meth:`~levelgen.puzzles.Family.pack_levels` and its own seed drawn from
``random.Random(seed)``.  :func:`make_level_text` turns one job into the bytes of its level
file and depends on nothing else, so a pack is the same byte for byte whatever runs the jobs
(one process, a pool of any size, a Dask cluster) and in whatever order they finish.
Everything here is picklable plain data.

Play order.  Jobs are numbered in the order the family planned them.  A pack with a ramp is
played in the order of its levels' difficulty scores (ties in plan order: see
:func:`play_order`), so that it never falls back however the measure scatters around its
targets; any other pack is played in plan order.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..puzzles import DEFAULT_GAME

__all__ = [
    "PACK_KEYS",
    "Job",
    "PackPlan",
    "PlanError",
    "difficulty_block",
    "file_name",
    "make_level_text",
    "plan_family_pack",
    "plan_pack",
    "plan_request",
    "play_order",
]

#: A pack request's own keys; every other key is a create option of its game.
PACK_KEYS = ("game", "count", "seed", "difficulty", "ramp")


class PlanError(ValueError):
    """A pack request that cannot be planned: ``option`` names the option as the create spec
    does (``size``, ``count``, ``ramp``; the command line shows ``--size``), ``reason`` says
    why; the message is ``--option: reason``.  ``is_format``: the value is a file's content that
    cannot be read as the option's (a layout that is no layout)."""

    def __init__(self, option: str, reason: str, *, is_format: bool = False) -> None:
        self.option = option
        self.reason = reason
        self.is_format = is_format
        super().__init__(f"--{option.replace('_', '-')}: {reason}")


@dataclass(frozen=True, slots=True)
class Job:
    """One level to make: its index in plan order, its game, its create options (sorted
    ``(name, value)`` pairs of plain JSON values) and its seed."""

    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    seed: int

    @property
    def values(self) -> dict[str, Any]:
        """The create options as a mapping."""
        return dict(self.options)

    @property
    def size(self) -> str | None:
        """The ``size`` option of the level (None when its game or its layout sets it)."""
        size = self.values.get("size")
        return size if isinstance(size, str) else None


@dataclass(frozen=True, slots=True)
class PackPlan:
    """Every job of a pack and the parameters recorded in its manifest."""

    game: str
    seed: int
    count: int
    difficulty: str | None
    ramp: str | None
    #: The pack's create options as asked (a family may take ranges there).
    options: tuple[tuple[str, Any], ...]
    jobs: tuple[Job, ...]

    def parameters(self) -> dict[str, Any]:
        """The manifest's ``parameters``."""
        return {
            "count": self.count,
            "difficulty": self.difficulty,
            "ramp": self.ramp,
            "options": dict(self.options),
        }


def file_name(index: int, count: int) -> str:
    """``001.json`` ...: the 1-based index, zero-padded to at least three digits."""
    return f"{index + 1:0{max(3, len(str(count)))}d}.json"


def plan_family_pack(
    game: str,
    count: int,
    seed: int,
    options: Mapping[str, Any],
    difficulty: str | None = None,
    ramp: str | None = None,
) -> PackPlan:
    """The plan of ``count`` levels of ``game`` from its create ``options``, each at
    ``difficulty`` or rising along ``ramp`` (two of the family's bands, ``easy:expert``):
    :meth:`~levelgen.puzzles.Family.pack_levels` gives each level's options, every distinct
    one is checked by the family's ``parse_spec``.  ``PlanError`` naming the option otherwise."""
    from ..puzzles import Capability, FamilyError, SpecError, family

    try:
        item = family(game)
    except FamilyError as exc:
        raise PlanError("game", str(exc)) from None
    for needed in (Capability.CREATE, Capability.PACK):
        if needed not in item.capabilities:
            raise PlanError("game", f"game {game!r} has no {needed.value} operation")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise PlanError("count", f"{count} is not at least 1")
    if difficulty is not None and ramp is not None:
        raise PlanError("ramp", "it and --difficulty exclude each other; give one")
    bands: tuple[str, str] | None = None
    if ramp is not None:
        bands = _parse_ramp(ramp, tuple(item.bands))
        ramp = ":".join(bands)
    values = {k: v for k, v in options.items() if v is not None}
    try:
        per_level = item.pack_levels(values, count, difficulty=difficulty, ramp=bands)
        if len(per_level) != count:
            raise PlanError("count", f"game {game!r} planned {len(per_level)} levels, not {count}")
        for one in {repr(sorted(v.items())): v for v in per_level}.values():
            item.parse_spec(one)
    except SpecError as exc:
        raise PlanError(exc.option, exc.reason, is_format=exc.is_format) from None
    rng = random.Random(seed)
    jobs = tuple(
        Job(i, game, tuple(sorted(per_level[i].items())), rng.randrange(2**53))
        for i in range(count)
    )
    return PackPlan(game, seed, count, difficulty, ramp, tuple(sorted(values.items())), jobs)


def _parse_ramp(text: str, bands: tuple[str, ...]) -> tuple[str, str]:
    """``easy:expert`` -> ``("easy", "expert")``; ``PlanError`` for unknown or falling bands."""
    parts = text.strip().lower().split(":")
    if len(parts) != 2 or any(p not in bands for p in parts):
        raise PlanError("ramp", f"expected FROM:TO with bands {', '.join(bands)}, got {text!r}")
    if bands.index(parts[1]) < bands.index(parts[0]):
        raise PlanError("ramp", f"{text!r} falls; a ramp goes from easier to harder")
    return parts[0], parts[1]


def plan_pack(
    *,
    count: int,
    seed: int,
    game: str = DEFAULT_GAME,
    difficulty: str | None = None,
    ramp: str | None = None,
    sizes: str | None = None,
    **options: Any,
) -> PackPlan:
    """:func:`plan_family_pack` with the create options as keywords (None: left out).
    ``sizes`` is ``size`` (the name older callers use); a sequence of strings is given as its
    lines (a layout's rows)."""
    values = {k: _lines(v) for k, v in options.items() if v is not None}
    if sizes is not None:
        values["size"] = sizes
    return plan_family_pack(game, count, seed, values, difficulty, ramp)


def _lines(value: Any) -> Any:
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return "".join(f"{row}\n" for row in value)
    return value


def plan_request(request: Mapping[str, Any]) -> PackPlan:
    """The plan of a stored request (a service job's, a manifest's parameters with its game
    and seed): ``game`` (the default game when absent), ``count``, ``seed``, ``difficulty``,
    ``ramp`` and the create options, in ``options`` or beside those keys (older requests;
    their ``sizes`` is ``size``, a list of rows is its lines).  ``PlanError`` for a bad one."""
    options = dict(request.get("options") or {})
    for key, value in request.items():
        if key not in (*PACK_KEYS, "options", "time_limit") and value is not None:
            options["size" if key == "sizes" else key] = _lines(value)
    return plan_family_pack(
        request.get("game") or DEFAULT_GAME,
        request["count"],
        request["seed"],
        options,
        request.get("difficulty"),
        request.get("ramp"),
    )


def difficulty_block(data: object) -> dict[str, Any] | None:
    """The ``metrics.difficulty`` block of a level file's JSON value, when it has one with a
    number ``score`` and a string ``band``."""
    metrics = data.get("metrics") if isinstance(data, dict) else None
    block = metrics.get("difficulty") if isinstance(metrics, dict) else None
    if not isinstance(block, dict):
        return None
    score, band = block.get("score"), block.get("band")
    if isinstance(score, bool) or not isinstance(score, int | float) or not isinstance(band, str):
        return None
    return block


def make_level_text(job: Job) -> str:
    """The canonical text of the level file of ``job`` (the same job: the same text): the
    family's level for the job's options and seed, with its difficulty block (rated with the
    job's seed when creating gave none; a level its family does not rate, refused with
    ``FamilyError`` or ``DocumentError``, stays without one)."""
    from ..formats import format_json
    from ..puzzles import Capability, DocumentError, FamilyError, family

    item = family(job.game)
    document = item.create(item.parse_spec(job.values), job.seed)
    data = item.dump(document)
    if difficulty_block(data) is None and Capability.RATE in item.capabilities:
        with contextlib.suppress(
            FamilyError, DocumentError
        ):  # not rated: the manifest's score is null
            data = item.dump(item.rate(document, seed=job.seed))
    return format_json(data)


def play_order(plan: PackPlan, scores: Sequence[float | None]) -> list[int]:
    """The plan indices of the levels in play order: by score (``scores[i]`` of job ``i``;
    None, a level its family does not measure, counts as 0), ties in plan order, for a pack
    with a ramp; plan order otherwise."""
    indices = list(range(len(plan.jobs)))
    if plan.ramp is None:
        return indices
    return sorted(indices, key=lambda i: (scores[i] or 0.0, i))
