"""Level packs on disk: making them (one process, a process pool or a Dask cluster) and
verifying them.

``make_pack(plan, out_dir, workers=..., scheduler=None)`` runs the jobs of a
:class:`levelgen.pack.plan.PackPlan` and writes ``out_dir`` so that it appears complete or not
at all: the levels go into a temporary sibling ``.NAME.partial`` (each file written atomically,
so a file there is always whole), then ``manifest.json``, then the directory is renamed to
``out_dir``.  An interrupted run leaves the sibling behind; ``resume=True`` keeps its levels
(the plan stored beside them must be the same) and makes only the missing ones.  Each level's
bytes depend on its job alone, so the pack is the same byte for byte for any number of workers,
on a cluster, and after a resume.

The jobs run on an executor of :mod:`levelgen.pack.executors`: this process, a local process
pool, or a Dask distributed scheduler.

``verify_pack(dir)`` checks a whole pack: the manifest against its schema, every file against
its SHA-256, id, size and stated difficulty, every level replayed with its metrics, the file
names, the pack id, and the plan (sizes and difficulty ramp) recomputed from the parameters.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats import Problem
from ..formats.version import VERSION as __version__
from ..formats.words import plural
from .executors import ExecutorError, Terminated, run_jobs
from .plan import Job, PackPlan, PlanError, file_name, plan_family_pack, plan_pack

__all__ = [
    "PackError",
    "PackInterrupted",
    "PackReport",
    "PlanError",
    "make_pack",
    "manifest_of",
    "pack_id",
    "plan_pack",
    "verify_pack",
]

MANIFEST = "manifest.json"
PLAN = "plan.json"
#: Seconds to wait for a Dask scheduler to answer.


class PackError(RuntimeError):
    """The pack could not be made (the target exists, a partial pack is in the way, a worker
    failed ...); the message says what to do."""


class PackInterrupted(PackError):
    """Ctrl-C, or SIGTERM when ``terminated`` (see :func:`levelgen.pack.executors.stop_on_sigterm`):
    ``done`` of ``total`` levels are kept in ``partial`` for ``--resume``."""

    def __init__(self, done: int, total: int, partial: Path, *, terminated: bool = False) -> None:
        self.done, self.total, self.partial = done, total, partial
        self.terminated = terminated
        super().__init__(
            f"{'terminated' if terminated else 'interrupted'}: {done} of"
            f" {plural(total, 'level')} kept in {partial}; run the same command with --resume"
            " to finish"
        )


def partial_dir(out_dir: Path) -> Path:
    """The temporary sibling a pack is built in."""
    return out_dir.parent / f".{out_dir.name}.partial"


def _plan_data(plan: PackPlan) -> dict[str, Any]:
    return {"levelgen_version": __version__, "seed": plan.seed, "parameters": plan.parameters()}


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def pack_id(manifest: dict[str, Any]) -> str:
    """``sha256:`` and the SHA-256 of the canonical JSON of the manifest's version, seed,
    parameters and levels."""
    keys = ("levelgen_version", "seed", "parameters", "levels")
    return "sha256:" + hashlib.sha256(_canonical({k: manifest[k] for k in keys})).hexdigest()


def make_pack(
    plan: PackPlan,
    out_dir: str | Path,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    resume: bool = False,
    on_level: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Make the pack of ``plan`` in ``out_dir`` (see the module docstring) and return its
    manifest.  ``on_level(done, total)`` is called as levels are kept (resumed ones first).
    Raises ``PackError`` (``PackInterrupted`` on Ctrl-C, and on SIGTERM inside
    :func:`levelgen.pack.executors.stop_on_sigterm`)."""
    from ..formats import WriteError, write_text

    out = Path(out_dir)
    if out.exists():
        raise PackError(f"{out} already exists: choose another --output or remove it")
    tmp = partial_dir(out)
    plan_text = json.dumps(_plan_data(plan), sort_keys=True, indent=1) + "\n"
    if tmp.exists():
        if not resume:
            raise PackError(
                f"{tmp} holds an interrupted pack: add --resume to finish it, or remove it"
            )
        stored = tmp / PLAN
        if not stored.is_file() or stored.read_text(encoding="utf-8") != plan_text:
            raise PackError(
                f"{tmp} was made with other parameters, seed or version: remove it or run the"
                " command that made it"
            )
    try:
        tmp.mkdir(parents=False, exist_ok=True)
        write_text(plan_text, tmp / PLAN)
    except (OSError, WriteError) as exc:
        raise PackError(f"cannot write {tmp}: {exc}") from None
    total = len(plan.jobs)
    todo = [job for job in plan.jobs if not (tmp / file_name(job.index, total)).is_file()]
    done = total - len(todo)
    if on_level is not None:
        on_level(done, total)

    def keep(index: int, text: str) -> None:
        nonlocal done
        try:
            write_text(text, tmp / file_name(index, total))
        except WriteError as exc:
            raise PackError(str(exc)) from None
        done += 1
        if on_level is not None:
            on_level(done, total)

    try:
        run_jobs(todo, keep, workers=workers, scheduler=scheduler)
    except KeyboardInterrupt as stop:
        raise PackInterrupted(done, total, tmp, terminated=isinstance(stop, Terminated)) from None
    except ExecutorError as exc:
        raise PackError(
            f"{exc}; {done} of {plural(total, 'level')} kept in {tmp}: run the same command"
            " with --resume to finish (any --workers or --scheduler)"
        ) from None
    manifest = _manifest(plan, tmp)
    try:
        from ..formats import format_json

        write_text(format_json(manifest), tmp / MANIFEST)
        (tmp / PLAN).unlink()
        if out.exists():
            raise PackError(f"{out} appeared while the pack was made; the pack is in {tmp}")
        os.rename(tmp, out)
    except (OSError, WriteError) as exc:
        raise PackError(f"cannot finish {out}: {exc}") from None
    return manifest


def _manifest(plan: PackPlan, folder: Path) -> dict[str, Any]:
    total = len(plan.jobs)
    texts = {job.index: (folder / file_name(job.index, total)).read_bytes() for job in plan.jobs}
    return manifest_of(plan, texts)


def manifest_of(plan: PackPlan, texts: Mapping[int, bytes]) -> dict[str, Any]:
    """The manifest of a pack whose level ``i`` has the bytes ``texts[i]`` (what ``levelgen
    pack`` writes, and the service's pack jobs too)."""
    from .manifest import MANIFEST_SCHEMA_URI

    total = len(plan.jobs)
    levels = []
    for job in plan.jobs:
        data = texts[job.index]
        name = file_name(job.index, total)
        level = json.loads(data)
        if plan.game != "linkup":
            levels.append(_family_entry(plan.game, job, name, data, level))
            continue
        diff = level.get("metrics", {}).get("difficulty")
        levels.append(
            {
                "file": name,
                "id": level["id"],
                "size": f"{level['board']['width']}x{level['board']['height']}",
                "difficulty": None
                if diff is None
                else {"score": diff["score"], "band": diff["band"]},
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        )
    manifest: dict[str, Any] = {"$schema": MANIFEST_SCHEMA_URI, "game": plan.game, "pack_id": ""}
    manifest.update(_plan_data(plan))
    manifest["levels"] = levels
    manifest["pack_id"] = pack_id(manifest)
    return manifest


def _family_entry(
    game: str, job: Job, name: str, data: bytes, level: dict[str, Any]
) -> dict[str, Any]:
    """The manifest entry of a level of another game than Link-up."""
    from ..puzzles import family

    item = family(game)
    digest = hashlib.sha256(data).hexdigest()
    score, band = item.difficulty(item.read(level))
    return {
        "file": name,
        "id": level.get("id") or f"sha256:{digest}",
        "size": level_size(level) or job.size or None,
        "difficulty": {"score": score, "band": band},
        "sha256": digest,
    }


def level_size(level: object) -> str | None:
    """``WxH`` of a level file's JSON value of any game: its ``width`` and ``height``, at the
    top (a sliding puzzle) or in its ``board`` (Link-up, snakes and ladders); None when it
    states none (a family whose levels have no size)."""
    if not isinstance(level, dict):
        return None
    board = level.get("board")
    where = board if isinstance(board, dict) and "width" in board else level
    width, height = where.get("width"), where.get("height")
    if type(width) is int and type(height) is int:
        return f"{width}x{height}"
    return None


# ----- verification ----------------------------------------------------------------------------


@dataclass
class PackReport:
    """What :func:`verify_pack` found: ``problems`` (each makes the pack invalid; pointers are
    into the manifest, or ``FILE: /pointer`` into a level), ``notes`` (levels that missed their
    band and say so in their file), the level count, and whether the manifest could be read
    at all (``readable``)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    levels: int = 0
    readable: bool = True


def verify_pack(path: str | Path) -> PackReport:
    """Check the pack at ``path`` (its directory or its ``manifest.json``)."""
    from pydantic import ValidationError

    from ..formats import ReadError, read_json
    from ..linkup import problems_from_validation_error
    from .manifest import FamilyParametersFile, manifest_model

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
        report.problems.extend(problems_from_validation_error(exc, data))
        return report
    assert isinstance(data, dict)
    report.levels = len(manifest.levels)
    if pack_id(data) != manifest.pack_id:
        report.problems.append(Problem("/pack_id", "does not match the manifest's content"))
    if manifest.game != "linkup" or isinstance(manifest.parameters, FamilyParametersFile):
        _verify_family_pack(folder, manifest, report)
        return report
    p = manifest.parameters
    expected = _expected_plan(manifest, report)
    if p.count != len(manifest.levels):
        report.problems.append(
            Problem("/levels", f"holds {len(manifest.levels)} levels, parameters say {p.count}")
        )
    for i, entry in enumerate(manifest.levels):
        job = expected[i] if expected is not None and i < len(expected) else None
        report.problems.extend(_check_level(folder, i, entry, len(manifest.levels), job, report))
    return report


def _verify_family_pack(folder: Path, manifest: Any, report: PackReport) -> None:
    """The checks of a pack of another game than Link-up: the parameters make a plan of the
    same game and count, and every level's file name, bytes, id and difficulty match the
    manifest and its certificate verifies."""
    from ..formats import ReadError, parse_json, read_bytes
    from ..formats.reports import wall_clock_budget
    from ..puzzles import DocumentError, FamilyError, family
    from .manifest import FamilyParametersFile

    p = manifest.parameters
    if not isinstance(p, FamilyParametersFile) or p.game != manifest.game:
        report.problems.append(Problem("/parameters/game", f"is not {manifest.game!r}"))
        return
    try:
        item = family(manifest.game)
        plan = plan_family_pack(p.game, p.count, manifest.seed, p.options, p.difficulty, p.ramp)
    except (FamilyError, PlanError) as exc:
        report.problems.append(Problem("/parameters", f"do not make a plan: {exc}"))
        return
    if p.count != len(manifest.levels):
        report.problems.append(
            Problem("/levels", f"holds {len(manifest.levels)} levels, parameters say {p.count}")
        )
    for i, entry in enumerate(manifest.levels):
        where = f"/levels/{i}"
        if entry.file != file_name(i, len(manifest.levels)):
            report.problems.append(Problem(f"{where}/file", f"is {entry.file!r}"))
        try:
            data = read_bytes(folder / entry.file, what="level file")
            document = item.read(parse_json(data.decode("utf-8"), entry.file))
        except ReadError as exc:
            report.problems.append(Problem(f"{where}/file", exc.problems[0].message))
            continue
        except DocumentError as exc:
            report.problems.extend(_in_file(entry.file, exc.problems))
            continue
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            report.problems.append(Problem(f"{where}/sha256", f"does not match {entry.file}"))
        job = plan.jobs[i] if i < len(plan.jobs) else None
        # The size of the level (a manifest of an older levelgen says null: accepted).
        size = level_size(json.loads(data)) or (job.size if job is not None else None) or None
        if entry.size is not None and entry.size != size:
            report.problems.append(Problem(f"{where}/size", f"is not {entry.file}'s {size}"))
        if job is not None and job.size and size != job.size:
            report.problems.append(Problem(f"{where}/size", f"is {size}; the plan says {job.size}"))
        score, band = item.difficulty(document)
        if {"score": score, "band": band} != entry.difficulty.model_dump():
            report.problems.append(
                Problem(f"{where}/difficulty", f"{entry.file} measures {score} ({band})")
            )
        verdict = item.verify(document, prove=False, budget=wall_clock_budget(60), options={})
        if verdict.status != "ok":
            report.problems.extend(_in_file(entry.file, verdict.problems))
            if not verdict.problems:
                report.problems.append(Problem(where, f"{entry.file}: {verdict.text}"))


def _expected_plan(manifest: Any, report: PackReport) -> tuple[Job, ...] | None:
    p = manifest.parameters
    sizes = ":".join(p.sizes) if p.size_ramp else ",".join(p.sizes)
    try:
        plan = plan_pack(
            count=p.count,
            sizes=sizes,
            seed=manifest.seed,
            difficulty=p.difficulty,
            ramp=p.ramp,
            max_turns=p.max_turns,
            outside=p.outside,
            layout=None if p.layout is None else tuple(p.layout),
            slide_cycle=None if p.slide_cycle is None else ",".join(p.slide_cycle),
            symmetry=p.symmetry,
        )
    except PlanError as exc:
        report.problems.append(Problem("/parameters", f"do not make a plan: {exc}"))
        return None
    return plan.jobs


def _check_level(
    folder: Path, i: int, entry: Any, count: int, job: Job | None, report: PackReport
) -> Iterator[Problem]:
    from ..formats import ReadError, read_bytes
    from ..linkup import level_problems, metrics_problems, read_level, replay

    where = f"/levels/{i}"
    if entry.file != file_name(i, count):
        yield Problem(f"{where}/file", f"is {entry.file!r}, expected {file_name(i, count)!r}")
    path = folder / entry.file
    try:
        data = read_bytes(path, what="level file")
    except ReadError as exc:
        yield Problem(f"{where}/file", "; ".join(p.message for p in exc.problems))
        return
    if hashlib.sha256(data).hexdigest() != entry.sha256:
        yield Problem(f"{where}/sha256", f"does not match the bytes of {entry.file}")
    try:
        file = read_level(path)
    except ReadError as exc:
        yield from _in_file(entry.file, exc.problems)
        return
    if file.id != entry.id:
        yield Problem(f"{where}/id", f"is not the id of {entry.file} ({file.id})")
    size = f"{file.board.width}x{file.board.height}"
    if size != entry.size:
        yield Problem(f"{where}/size", f"is {entry.size} but {entry.file} is {size}")
    if job is not None and size != job.size:
        yield Problem(f"{where}/size", f"is {size} but the size plan says {job.size}")
    if job is not None and file.rules.slide != job.slide:
        yield Problem(
            f"{where}/file", f"{entry.file} slides {file.rules.slide}, the plan says {job.slide}"
        )
    metrics = file.metrics
    diff = None if metrics is None else metrics.difficulty
    stated = None if diff is None else {"score": diff.score, "band": diff.band}
    listed = None if entry.difficulty is None else entry.difficulty.model_dump()
    if stated != listed:
        yield Problem(f"{where}/difficulty", f"is {listed} but {entry.file} states {stated}")
    if job is not None and job.target is not None:
        yield from _check_target(entry.file, where, job.target, diff, file, report)
    yield from _in_file(entry.file, level_problems(file))
    level = file.to_core()
    if level.solution is None:
        yield Problem(where, f"{entry.file} carries no solution")
        return
    problems = replay(level.board, level.rules, level.solution)
    if not problems and level.metrics is not None:
        problems = metrics_problems(level.board, level.rules, level.solution, level.metrics)
    yield from _in_file(entry.file, problems)


def _check_target(
    name: str, where: str, target: str, diff: Any, file: Any, report: PackReport
) -> Iterator[Problem]:
    from ..linkup import parse_target

    wanted = parse_target(target)
    if diff is None:
        yield Problem(f"{where}/difficulty", f"is missing; the plan asks for {target}")
        return
    if wanted.distance(diff.score) == 0:
        return
    params = {} if file.generator is None else file.generator.parameters
    if params.get("difficulty_in_band") is False and params.get("difficulty") == str(wanted):
        report.notes.append(
            f"{name}: asked for {target}, the closest found scores {diff.score} ({diff.band});"
            " the file says so"
        )
        return
    yield Problem(
        f"{where}/difficulty", f"scores {diff.score} ({diff.band}) but the ramp asks for {target}"
    )


def _in_file(name: str, problems: Iterable[Problem]) -> Iterator[Problem]:
    for p in problems:
        yield Problem(f"{name}: {p.pointer}" if p.pointer else name, p.message)


def remove_partial(out_dir: str | Path) -> None:
    """Remove the temporary sibling of ``out_dir`` (used by tests and ``--restart``)."""
    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(partial_dir(Path(out_dir)))
