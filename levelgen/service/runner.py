"""The pack job runner: a background task of the service that makes queued pack jobs.

It claims one job at a time from the library (:mod:`levelgen.service.jobs`), plans it with
:func:`levelgen.pack.plan.plan_request`, sends the levels still missing to the process pool
(:func:`levelgen.pack.plan.make_level_text`, at most ``workers`` at once so that interactive
requests are never starved), stores each one as it arrives, renews its lease while it works,
and writes the manifest when every level is stored.  A job whose level cannot be made is
``failed`` with the reason, and so is one whose level takes longer than the job's
``time_limit`` (the server's maximum by default).  A job cancelled by a client
(``DELETE /v1/packs/{id}``) stops at once, its levels kept.  Stopping (SIGTERM) cancels the
work in flight and gives the job back, queued: the next start resumes it.  A killed process
leaves its lease, which the next process takes over (at once on the same host, where the dead
owner is seen; else when it runs out).

The library may go away for a while (a database restart, a lock held by another process):
the runner then waits with back-off, keeps the levels it has made until they are stored, and
goes on where it was; such an outage never fails a job, and nothing but :meth:`PackRunner.stop`
ends the runner.  If it loses the job's lease meanwhile, the process that took the job over
finishes it (the same bytes either way).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ..library import LibraryUnavailable, Store
from ..library.errors import driver_message
from ..pack.plan import Job, PackPlan, make_level_text, plan_request
from . import jobs
from .deps import in_thread
from .middleware import log_event
from .work import Busy, Overdue, TooMany, WorkPool

__all__ = ["Backoff", "PackRunner", "failure_reason", "manifest_of", "plan_of"]

#: Seconds a claimed job stays ours without a renewal, and between renewals.
LEASE = 15.0
RENEW_EVERY = 3.0
#: Seconds between looks for new jobs when there is none.
POLL = 1.0


def plan_of(request: dict[str, Any]) -> PackPlan:
    """The plan of a stored job request (``PlanError`` for a bad one)."""
    return plan_request(request)


def manifest_of(plan: PackPlan, texts: dict[int, str]) -> dict[str, Any]:
    """The manifest of a pack whose level ``i`` has the text ``texts[i]``: the same as
    ``levelgen pack`` writes beside the same files."""
    from ..pack import manifest_of as pack_manifest

    return pack_manifest(plan, {i: text.encode("utf-8") for i, text in texts.items()})


class _LeaseLost(Exception):
    """Another process holds the job now (our lease ran out while the library was away)."""


class Backoff:
    """Waits between attempts: doubling from ``first`` to ``longest`` seconds, each drawn at
    random from its upper half so that replicas do not retry in step; ``reset`` after a
    success."""

    def __init__(self, first: float = 0.25, longest: float = 8.0) -> None:
        self.first = first
        self.longest = longest
        self.failures = 0

    def next(self) -> float:
        ceiling = min(self.longest, self.first * 2**self.failures)
        self.failures += 1
        return random.uniform(ceiling / 2, ceiling)

    def reset(self) -> None:
        self.failures = 0


def _leaf(exc: BaseException) -> BaseException:
    """The first exception inside (task) groups."""
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc


def failure_reason(exc: BaseException) -> str:
    """What a failed job's ``error`` says: the exception's type and the first line of its
    message; for a database error, the driver's first line, never the SQL or its parameters
    (they stay out of the client's view)."""
    message = driver_message(exc) if isinstance(exc, SQLAlchemyError) else str(exc)
    first = (message.strip().splitlines() or [""])[0][:300]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


class PackRunner:
    """Makes pack jobs in the background of one service process.

    Nothing ends its loop but :meth:`stop`: a library that is away (:class:`LibraryUnavailable`)
    is waited for with back-off, the job in hand kept and resumed; any other error while
    looking for jobs is logged and waited out the same way; an error while making a job
    fails that job only.  ``running`` says whether the loop is alive (readiness)."""

    def __init__(
        self, store: Store, pool: WorkPool, concurrency: int, time_limit: float = 30.0
    ) -> None:
        self.store = store
        self.pool = pool
        self.concurrency = max(1, concurrency)
        self.time_limit = time_limit  # seconds per level when the job names none
        self.owner = jobs.new_owner()
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._current: str | None = None
        self._job: asyncio.Task[None] | None = None

    def cancel(self, job_id: str) -> None:
        """Stop making job ``job_id`` now, if it is the one in hand (cancelled by a client)."""
        if self._current == job_id and self._job is not None:
            self._job.cancel()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="pack-runner")
        self._task.add_done_callback(self._ended)

    @staticmethod
    def _ended(task: asyncio.Task[None]) -> None:
        error = None if task.cancelled() else task.exception()
        if error is not None:  # a bug: readiness says so from now on
            log_event("pack-runner-ended", reason=failure_reason(_leaf(error)))

    async def stop(self) -> None:
        """Cancel the work in flight and give the current job back (when the library
        answers; else its lease runs out and the next process takes it over)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task])
        if self._current is not None:
            try:
                await in_thread(jobs.release_job, self.store, self._current, self.owner)
            except Exception as exc:
                log_event("pack-not-released", job=self._current, reason=failure_reason(exc))
            self._current = None

    async def _loop(self) -> None:
        backoff = Backoff()
        while True:
            try:
                claimed = await in_thread(jobs.claim_job, self.store, self.owner, LEASE)
            except Exception as exc:  # the library is away, or a bug: wait, and look again
                if not isinstance(exc, LibraryUnavailable):  # that one is logged by the store
                    log_event("pack-runner-error", reason=failure_reason(exc))
                await self._idle(backoff.next())  # a new job (the library works) ends it early
                continue
            backoff.reset()
            if claimed is None:
                await self._idle(POLL)
                continue
            job_id, request = claimed
            self._current = job_id
            self._job = asyncio.get_running_loop().create_task(self._run(job_id, request))
            try:
                await asyncio.wait([self._job])  # a cancelled job ends its task, not the loop
            except asyncio.CancelledError:  # stop(): the job's work stops too
                self._job.cancel()
                await asyncio.wait([self._job])
                raise
            if self._job.cancelled():
                log_event("pack-cancelled", job=job_id)
            else:
                self._job.result()  # an error out of _run ends the loop, as a bug does
            self._current = None

    async def _idle(self, seconds: float) -> None:
        """Wait ``seconds``, or less when a job is added meanwhile."""
        self.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), seconds)

    async def _run(self, job_id: str, request: dict[str, Any]) -> None:
        """Make the job; while the library is away, wait and resume it (the levels stored
        stay); fail it for any other error."""
        backoff = Backoff()
        while True:
            try:
                await self._make(job_id, request)
                return
            except Exception as exc:
                leaf = _leaf(exc)
                if isinstance(leaf, _LeaseLost):
                    log_event("pack-taken-over", job=job_id)
                    return
                if not isinstance(leaf, LibraryUnavailable):
                    break
            await asyncio.sleep(backoff.next())
        reason = failure_reason(leaf)  # a level that cannot be made: the job fails, cleanly
        log_event("pack-failed", job=job_id, reason=reason)
        # When the library is away now (or refuses even that), the lease runs out and whoever
        # takes the job over meets the same failure; the runner goes on either way.
        try:
            await in_thread(jobs.fail_job, self.store, job_id, reason)
        except Exception as exc:
            if not isinstance(exc, LibraryUnavailable):
                log_event("pack-runner-error", job=job_id, reason=failure_reason(exc))

    async def _make(self, job_id: str, request: dict[str, Any]) -> None:
        if not await in_thread(jobs.renew_lease, self.store, job_id, self.owner, LEASE):
            raise _LeaseLost(job_id)
        plan = await in_thread(plan_of, request)
        have = await in_thread(jobs.done_indices, self.store, job_id)
        missing = [job for job in plan.jobs if job.index not in have]
        log_event("pack-start", job=job_id, count=len(plan.jobs), missing=len(missing))
        queue: asyncio.Queue[Job] = asyncio.Queue()
        for job in missing:
            queue.put_nowait(job)
        limit = min(float(request.get("time_limit", self.time_limit)), self.time_limit)
        async with asyncio.TaskGroup() as group:  # one failure cancels the others
            renewer = group.create_task(self._renew(job_id))
            workers = [
                group.create_task(self._worker(job_id, queue, limit))
                for _ in range(self.concurrency)
            ]
            await asyncio.gather(*workers)
            renewer.cancel()
        texts = await in_thread(jobs.pack_level_texts, self.store, job_id)
        manifest = await in_thread(manifest_of, plan, texts)
        await in_thread(jobs.finish_job, self.store, job_id, manifest)
        log_event("pack-done", job=job_id, pack_id=manifest["pack_id"])

    async def _worker(self, job_id: str, queue: asyncio.Queue[Job], limit: float) -> None:
        while not queue.empty():
            job = queue.get_nowait()
            while True:
                try:
                    text = await self.pool.run("pack-runner", make_level_text, job, timeout=limit)
                    break
                except (Busy, TooMany):  # the pool is full of requests: wait for room
                    await asyncio.sleep(0.2)
                except Overdue:
                    n = job.index + 1
                    raise Overdue(f"level {n} was not made within {limit:g} s") from None
            backoff = Backoff()
            while True:  # a level made is kept until stored (or the job is taken over)
                try:
                    await in_thread(jobs.store_pack_level, self.store, job_id, job.index, text)
                    break
                except LibraryUnavailable:
                    await asyncio.sleep(backoff.next())

    async def _renew(self, job_id: str) -> None:
        """Renew the lease every few seconds; ``_LeaseLost`` when another process has the job
        (which stops this one's work on it)."""
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                ours = await in_thread(jobs.renew_lease, self.store, job_id, self.owner, LEASE)
            except LibraryUnavailable:
                continue  # the lease may run out meanwhile; we learn it at the next renewal
            if not ours:
                raise _LeaseLost(job_id)
