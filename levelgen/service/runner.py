"""The pack job runner: a background task of the service that makes queued pack jobs.

It claims one job at a time from the library (:mod:`levelgen.service.jobs`), plans it with
:func:`levelgen.pack.plan.plan_pack`, sends the levels still missing to the process pool
(:func:`levelgen.pack.plan.make_level_text`, at most ``workers`` at once so that interactive
requests are never starved), stores each one as it arrives, renews its lease while it works,
and writes the manifest when every level is stored.  A job whose level cannot be made is
``failed`` with the reason.  Stopping (SIGTERM) cancels the work in flight and gives the job
back: the next start resumes it.  A killed process leaves its lease, which the next process
takes over (at once on the same host, where the dead owner is seen; else when it runs out).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..library import Store
from ..pack.plan import Job, PackPlan, make_level_text, plan_pack
from . import jobs
from .deps import in_thread
from .middleware import log_event
from .work import Busy, TooMany, WorkPool

__all__ = ["PackRunner", "manifest_of", "plan_of"]

#: Seconds a claimed job stays ours without a renewal, and between renewals.
LEASE = 15.0
RENEW_EVERY = 3.0
#: Seconds between looks for new jobs when there is none.
POLL = 1.0


def plan_of(request: dict[str, Any]) -> PackPlan:
    """The plan of a stored job request (``PlanError`` for a bad one)."""
    layout = request.get("layout")
    return plan_pack(
        count=request["count"],
        sizes=request["sizes"],
        seed=request["seed"],
        difficulty=request.get("difficulty"),
        ramp=request.get("ramp"),
        max_turns=request.get("max_turns", 2),
        outside=request.get("outside", True),
        layout=None if layout is None else tuple(layout),
        slide_cycle=request.get("slide_cycle"),
    )


def manifest_of(plan: PackPlan, texts: dict[int, str]) -> dict[str, Any]:
    """The manifest of a pack whose level ``i`` has the text ``texts[i]``: the same as
    ``levelgen pack`` writes beside the same files."""
    from ..pack import manifest_of as pack_manifest

    return pack_manifest(plan, {i: text.encode("utf-8") for i, text in texts.items()})


class PackRunner:
    """Makes pack jobs in the background of one service process."""

    def __init__(self, store: Store, pool: WorkPool, concurrency: int) -> None:
        self.store = store
        self.pool = pool
        self.concurrency = max(1, concurrency)
        self.owner = jobs.new_owner()
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._current: str | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Cancel the work in flight and give the current job back."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._current is not None:
            await in_thread(jobs.release_job, self.store, self._current, self.owner)

    async def _loop(self) -> None:
        while True:
            claimed = await in_thread(jobs.claim_job, self.store, self.owner, LEASE)
            if claimed is None:
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), POLL)
                continue
            job_id, request = claimed
            self._current = job_id
            try:
                await self._make(job_id, request)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a level that cannot be made: the job fails, cleanly
                leaf: BaseException = exc
                while isinstance(leaf, BaseExceptionGroup):
                    leaf = leaf.exceptions[0]
                reason = f"{type(leaf).__name__}: {leaf}"
                await in_thread(jobs.fail_job, self.store, job_id, reason)
                log_event("pack-failed", job=job_id, reason=reason)
            self._current = None

    async def _make(self, job_id: str, request: dict[str, Any]) -> None:
        plan = await in_thread(plan_of, request)
        have = await in_thread(jobs.done_indices, self.store, job_id)
        missing = [job for job in plan.jobs if job.index not in have]
        log_event("pack-start", job=job_id, count=len(plan.jobs), missing=len(missing))
        renewer = asyncio.get_running_loop().create_task(self._renew(job_id))
        try:
            queue: asyncio.Queue[Job] = asyncio.Queue()
            for job in missing:
                queue.put_nowait(job)
            async with asyncio.TaskGroup() as group:  # one failure cancels the others
                for _ in range(self.concurrency):
                    group.create_task(self._worker(job_id, queue))
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
        texts = await in_thread(jobs.pack_level_texts, self.store, job_id)
        manifest = await in_thread(manifest_of, plan, texts)
        await in_thread(jobs.finish_job, self.store, job_id, manifest)
        log_event("pack-done", job=job_id, pack_id=manifest["pack_id"])

    async def _worker(self, job_id: str, queue: asyncio.Queue[Job]) -> None:
        while not queue.empty():
            job = queue.get_nowait()
            while True:
                try:
                    text = await self.pool.run("pack-runner", make_level_text, job)
                    break
                except (Busy, TooMany):  # the pool is full of requests: wait for room
                    await asyncio.sleep(0.2)
            await in_thread(jobs.store_pack_level, self.store, job_id, job.index, text)

    async def _renew(self, job_id: str) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            await in_thread(jobs.renew_lease, self.store, job_id, self.owner, LEASE)
