"""Verifying a pack on disk, of any game: ``levelgen verify DIR``.

:func:`verify_pack` checks the manifest against its schema and its pack id, and every level:
its file name (play order), bytes (SHA-256), id, size and difficulty against the manifest,
and its certificate through its family's ``verify``.  The plan is made again from the
parameters: every level's seed must be one of the plan's, its size the one planned for that
seed, and a ramped pack's levels must follow their scores.  A level whose band is not the one
its plan asked for is a note (the family kept the closest level it found), not a problem.

A manifest of an older levelgen (see :mod:`levelgen.pack.manifest`) gets the checks of its
levels only (names, bytes, ids, sizes, certificates).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats import Problem

__all__ = ["PackReport", "verify_pack"]

#: Seconds each level's certificate may take to verify.
LEVEL_TIME_LIMIT = 60.0


@dataclass
class PackReport:
    """What :func:`verify_pack` found: ``problems`` (each makes the pack invalid; pointers are
    into the manifest, or ``FILE: /pointer`` into a level), ``notes`` (levels that missed the
    band their plan asked for), the level count, and whether the manifest could be read at all
    (``readable``)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    levels: int = 0
    readable: bool = True


def verify_pack(path: str | Path) -> PackReport:
    """Check the pack at ``path`` (its directory or its ``manifest.json``)."""
    from pydantic import ValidationError

    from ..formats import ReadError, read_json
    from ..puzzles import FamilyError, family
    from . import MANIFEST, pack_id
    from .manifest import PackManifestFile, manifest_model

    folder = Path(path)
    manifest_path = folder / MANIFEST if folder.is_dir() else folder
    folder = manifest_path.parent
    report = PackReport()
    try:
        data = read_json(manifest_path)
        manifest = manifest_model(data).model_validate(data)
    except ReadError as exc:
        report.readable = False
        report.problems.extend(exc.problems)
        return report
    except ValidationError as exc:
        report.readable = False
        report.problems.extend(_schema_problems(exc, data))
        return report
    assert isinstance(data, dict)
    report.levels = len(manifest.levels)
    if pack_id(data) != manifest.pack_id:
        report.problems.append(Problem("/pack_id", "does not match the manifest's content"))
    if manifest.parameters.count != len(manifest.levels):
        report.problems.append(
            Problem(
                "/levels",
                f"holds {len(manifest.levels)} levels, parameters say {manifest.parameters.count}",
            )
        )
    try:
        item = family(manifest.game)
    except FamilyError as exc:
        report.problems.append(Problem("/game", str(exc)))
        return report
    if isinstance(manifest, PackManifestFile):
        _verify_current(folder, item, manifest, report)
    else:
        for i, entry in enumerate(manifest.levels):
            _check_file(folder, item, i, entry, len(manifest.levels), report)
    return report


def _schema_problems(exc: Any, data: object) -> list[Problem]:
    from ..formats.validation import reason, validation_problems

    def reason_of(err: Any, loc: Any, value: object) -> str:
        return reason(err["type"], err["msg"], value, file_format="pack manifest v1")

    errors = exc.errors(include_url=False, include_input=False)
    return validation_problems(errors, data, reason_of)


def _verify_current(folder: Path, item: Any, manifest: Any, report: PackReport) -> None:
    """The checks of a manifest of this levelgen's form (see the module docstring)."""
    from .plan import PlanError, plan_family_pack

    p = manifest.parameters
    try:
        plan = plan_family_pack(
            manifest.game, p.count, manifest.seed, p.options, p.difficulty, p.ramp
        )
    except PlanError as exc:
        report.problems.append(Problem("/parameters", f"do not make a plan: {exc}"))
        plan = None
    jobs: dict[int, list[Any]] = {}
    for job in plan.jobs if plan is not None else ():
        jobs.setdefault(job.seed, []).append(job)
    previous: tuple[float, int] | None = None
    for i, entry in enumerate(manifest.levels):
        where = f"/levels/{i}"
        level = _check_file(folder, item, i, entry, len(manifest.levels), report)
        if plan is None:
            continue
        found = jobs.get(entry.seed)
        if not found:
            report.problems.append(Problem(f"{where}/seed", "is not the seed of a planned level"))
            continue
        job = found.pop(0)
        if level is not None and job.size is not None and entry.size != job.size:
            report.problems.append(
                Problem(f"{where}/size", f"is {entry.size}; the plan says {job.size}")
            )
        target = job.values.get("difficulty")
        if target in item.bands and entry.band is not None and entry.band != target:
            report.notes.append(
                f"{entry.file}: asked for {target}, the closest found scores {entry.score}"
                f" ({entry.band})"
            )
        if plan.ramp is not None:
            key = (entry.score or 0.0, job.index)
            if previous is not None and key < previous:
                report.problems.append(
                    Problem(
                        f"{where}/score",
                        f"{entry.score} is below the level before it: a ramped pack is played"
                        " in the order of its scores",
                    )
                )
            previous = key


def _check_file(
    folder: Path, item: Any, i: int, entry: Any, count: int, report: PackReport
) -> dict[str, Any] | None:
    """The checks of one level file against its manifest entry and its certificate; the
    level's JSON value when it could be read."""
    from ..formats import ReadError, parse_json, read_bytes
    from ..formats.reports import wall_clock_budget
    from ..puzzles import DocumentError
    from . import level_size
    from .plan import difficulty_block, file_name

    where = f"/levels/{i}"
    problems = report.problems
    if entry.file != file_name(i, count):
        problems.append(
            Problem(f"{where}/file", f"is {entry.file!r}, expected {file_name(i, count)!r}")
        )
    try:
        raw = read_bytes(folder / entry.file, what="level file")
        data = parse_json(raw.decode("utf-8"), entry.file)
    except ReadError as exc:
        problems.append(Problem(f"{where}/file", "; ".join(p.message for p in exc.problems)))
        return None
    if hashlib.sha256(raw).hexdigest() != entry.sha256:
        problems.append(Problem(f"{where}/sha256", f"does not match the bytes of {entry.file}"))
    given = data.get("id") if isinstance(data, dict) else None
    level_id = given if isinstance(given, str) else f"sha256:{hashlib.sha256(raw).hexdigest()}"
    if level_id != entry.id:
        problems.append(Problem(f"{where}/id", f"is not the id of {entry.file} ({level_id})"))
    size = level_size(data)
    if entry.size is not None and size != entry.size:
        problems.append(Problem(f"{where}/size", f"is {entry.size} but {entry.file} is {size}"))
    block = difficulty_block(data)
    stated = None if block is None else (block["score"], block["band"])
    if hasattr(entry, "score"):
        listed = None if entry.score is None else (entry.score, entry.band)
        if stated != listed:
            shown = "none" if stated is None else f"{stated[0]} ({stated[1]})"
            problems.append(Problem(f"{where}/score", f"{entry.file} states {shown}"))
    try:
        document = item.read(data)
    except DocumentError as exc:
        problems.extend(_in_file(entry.file, exc.problems))
        return None
    verdict = item.verify(
        document, prove=False, budget=wall_clock_budget(LEVEL_TIME_LIMIT), options={}
    )
    if verdict.status != "ok":
        problems.extend(_in_file(entry.file, verdict.problems))
        if not verdict.problems:
            problems.append(Problem(where, f"{entry.file}: {verdict.text}"))
    return data if isinstance(data, dict) else None


def _in_file(name: str, problems: Iterable[Problem]) -> Iterator[Problem]:
    for p in problems:
        yield Problem(f"{name}: {p.pointer}" if p.pointer else name, p.message)
