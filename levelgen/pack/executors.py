"""Where a pack's jobs run: this process, a local process pool, or a Dask cluster.

:func:`run_jobs` makes the level of each job (:func:`levelgen.pack.plan.make_level_text`, a pure
function of the job) and hands each result to ``keep(index, text)`` in this process as it
finishes.  ``workers == 1`` runs in this process; more use a ``ProcessPoolExecutor`` whose
workers ignore Ctrl-C (the parent stops cleanly: pending jobs are cancelled, running ones
finish and are kept); ``scheduler`` (an address such as ``tcp://127.0.0.1:8786``) sends the
jobs to a Dask distributed scheduler (``pip install 'levelgen[dask]'``).  Since every level
depends on its job alone, the pack is the same byte for byte whichever executor ran it.
"""

from __future__ import annotations

import hashlib
import signal
from collections.abc import Callable

from ..formats.version import VERSION as __version__
from .plan import Job, make_level_text

__all__ = ["DASK_CONNECT_TIMEOUT", "ExecutorError", "run_jobs"]

#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_TIMEOUT = 10.0


class ExecutorError(RuntimeError):
    """The jobs could not run where they were sent (no Dask, no scheduler): one line."""


def run_jobs(
    jobs: list[Job],
    keep: Callable[[int, str], None],
    *,
    workers: int = 1,
    scheduler: str | None = None,
) -> None:
    """Make every job's level and ``keep`` it as it finishes (see the module docstring).
    ``KeyboardInterrupt`` passes through after the running jobs are kept."""
    if scheduler is not None:
        _run_dask(jobs, scheduler, keep)
    elif workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            keep(*_run_job(job))
    else:
        _run_pool(jobs, workers, keep)


def _run_job(job: Job) -> tuple[int, str]:
    """One job in a worker: its index and level text."""
    return job.index, make_level_text(job)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_pool(jobs: list[Job], workers: int, keep: Callable[[int, str], None]) -> None:
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), initializer=_ignore_sigint)
    # The end of a ramp (hard levels, large sizes) goes out first, so that the jobs left for
    # the end are short ones and no worker waits long for the last.
    pending: set[Future[tuple[int, str]]] = {pool.submit(_run_job, job) for job in reversed(jobs)}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                keep(*fut.result())
    except KeyboardInterrupt:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        # Jobs that were running have finished: keep them (each is a whole level).
        for fut in pending:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                keep(*fut.result())
        raise
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _run_dask(jobs: list[Job], address: str, keep: Callable[[int, str], None]) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ExecutorError(
            "--scheduler needs Dask distributed: pip install 'levelgen[dask]'"
        ) from None
    try:
        client = Client(address, timeout=f"{DASK_CONNECT_TIMEOUT}s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        last_first = jobs[::-1]
        futures = client.map(_run_job, last_first, key=[_job_key(j) for j in last_first])
        try:
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                keep(*fut.result())
        except KeyboardInterrupt:
            client.cancel(futures)  # type: ignore[no-untyped-call]
            raise


def _job_key(job: Job) -> str:
    """The Dask key of a job: its whole content (and version) hashed, so that equal jobs, and
    only they, may share a result (the level is a pure function of the job)."""
    digest = hashlib.sha256(f"{__version__} {job!r}".encode()).hexdigest()[:24]
    return f"levelgen-level-{job.index}-{digest}"
