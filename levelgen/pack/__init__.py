"""Level packs on disk: making them (one process, a process pool or a Dask cluster) and
verifying them, for any game whose family packs (:attr:`levelgen.puzzles.Capability.PACK`).

``make_pack(plan, out_dir, workers=..., scheduler=None)`` runs the jobs of a
:class:`levelgen.pack.plan.PackPlan` and writes ``out_dir`` so that it appears complete or not
at all: the levels go into a temporary sibling ``.NAME.partial`` (each file written atomically,
so a file there is always whole, named by its place in the plan), then the files in play order
and ``manifest.json`` into a folder inside it, which is renamed to ``out_dir``.  An interrupted
run leaves the sibling behind; ``resume=True`` keeps its levels (the plan stored beside them
must be the same) and makes only the missing ones.  Each level's bytes depend on its job alone,
and the play order on the levels alone, so the pack is the same byte for byte for any number
of workers, on a cluster, and after a resume.

The jobs run on an executor of :mod:`levelgen.pack.executors`: this process, a local process
pool, or a Dask distributed scheduler.

``verify_pack(dir)`` (:mod:`levelgen.pack.verify`) checks a whole pack.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..formats.version import VERSION as __version__
from ..formats.words import plural
from .executors import ExecutorError, Terminated, run_jobs
from .plan import (
    PackPlan,
    PlanError,
    difficulty_block,
    file_name,
    plan_family_pack,
    plan_pack,
    plan_request,
    play_order,
)
from .verify import PackReport, verify_pack

__all__ = [
    "MANIFEST",
    "PackError",
    "PackInterrupted",
    "PackReport",
    "PlanError",
    "level_entry",
    "level_size",
    "make_pack",
    "manifest_of",
    "pack_contents",
    "pack_id",
    "partial_dir",
    "plan_family_pack",
    "plan_pack",
    "plan_request",
    "verify_pack",
]

MANIFEST = "manifest.json"
PLAN = "plan.json"
#: The folder inside the partial pack where the finished pack is put together.
FINISHED = ".finished"


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
    return {
        "game": plan.game,
        "levelgen_version": __version__,
        "seed": plan.seed,
        "parameters": plan.parameters(),
    }


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def pack_id(manifest: Mapping[str, Any]) -> str:
    """``sha256:`` and the SHA-256 of the canonical JSON of the manifest's game, version, seed,
    parameters and levels (a manifest of an older form: all but the game, which it did not
    cover)."""
    keys = ["levelgen_version", "seed", "parameters", "levels"]
    levels = manifest.get("levels")
    if not (isinstance(levels, list) and levels and isinstance(levels[0], dict)) or (
        "difficulty" not in levels[0]
    ):
        keys.append("game")
    return "sha256:" + hashlib.sha256(_canonical({k: manifest.get(k) for k in keys})).hexdigest()


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
    return _finish(plan, tmp, out)


def _finish(plan: PackPlan, tmp: Path, out: Path) -> dict[str, Any]:
    """Put the pack together in play order inside ``tmp`` and rename it to ``out``; the levels
    in plan order stay in ``tmp`` until then, so that an interrupted finish is resumed."""
    from ..formats import WriteError, format_json, write_text

    total = len(plan.jobs)
    texts = {job.index: (tmp / file_name(job.index, total)).read_bytes() for job in plan.jobs}
    manifest, order = pack_contents(plan, texts)
    finished = tmp / FINISHED
    try:
        if finished.exists():
            shutil.rmtree(finished)
        finished.mkdir()
        for place, index in enumerate(order):
            write_text(texts[index].decode("utf-8"), finished / file_name(place, total))
        write_text(format_json(manifest), finished / MANIFEST)
        if out.exists():
            raise PackError(f"{out} appeared while the pack was made; the pack is in {finished}")
        os.rename(finished, out)
    except (OSError, WriteError) as exc:
        raise PackError(f"cannot finish {out}: {exc}") from None
    shutil.rmtree(tmp, ignore_errors=True)
    return manifest


def manifest_of(plan: PackPlan, texts: Mapping[int, bytes]) -> dict[str, Any]:
    """The manifest of a pack whose level of plan index ``i`` has the bytes ``texts[i]`` (what
    ``levelgen pack`` writes, and the service's pack jobs too)."""
    return pack_contents(plan, texts)[0]


def pack_contents(plan: PackPlan, texts: Mapping[int, bytes]) -> tuple[dict[str, Any], list[int]]:
    """The manifest of the pack whose level of plan index ``i`` has the bytes ``texts[i]``, and
    the plan indices in play order (:func:`levelgen.pack.plan.play_order`)."""
    from .manifest import MANIFEST_SCHEMA_URI

    total = len(plan.jobs)
    data = {i: json.loads(texts[i]) for i in range(total)}
    blocks = [difficulty_block(data[i]) for i in range(total)]
    scores = [None if block is None else float(block["score"]) for block in blocks]
    order = play_order(plan, scores)
    levels = [
        level_entry(file_name(place, total), texts[index], data[index], plan.jobs[index].seed)
        for place, index in enumerate(order)
    ]
    manifest: dict[str, Any] = {"$schema": MANIFEST_SCHEMA_URI, "pack_id": ""}
    manifest.update(_plan_data(plan))
    manifest["levels"] = levels
    manifest["pack_id"] = pack_id(manifest)
    return manifest, order


def level_entry(name: str, text: bytes, level: object, seed: int) -> dict[str, Any]:
    """The manifest entry of the level file ``name`` with the bytes ``text`` (``level``: their
    JSON value) made from ``seed``."""
    digest = hashlib.sha256(text).hexdigest()
    given = level.get("id") if isinstance(level, dict) else None
    block = difficulty_block(level)
    return {
        "file": name,
        "id": given if isinstance(given, str) else f"sha256:{digest}",
        "size": level_size(level),
        "score": None if block is None else block["score"],
        "band": None if block is None else block["band"],
        "seed": seed,
        "sha256": digest,
    }


def level_size(level: object) -> str | None:
    """``WxH`` of a level file's JSON value of any game: its ``width`` and ``height``, at the
    top or in its ``board``; None when it states none (a family whose levels have no size)."""
    if not isinstance(level, dict):
        return None
    board = level.get("board")
    where = board if isinstance(board, dict) and "width" in board else level
    width, height = where.get("width"), where.get("height")
    if type(width) is int and type(height) is int:
        return f"{width}x{height}"
    return None


def remove_partial(out_dir: str | Path) -> None:
    """Remove the temporary sibling of ``out_dir`` (used by tests and ``--restart``)."""
    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(partial_dir(Path(out_dir)))
