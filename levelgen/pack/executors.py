"""Where a pack's jobs run: this process, a local process pool, or a Dask cluster.

:func:`run_jobs` makes the level of each job (:func:`levelgen.pack.plan.make_level_text`, a pure
function of the job) and hands each result to ``keep(index, text)`` in this process as it
finishes, each index exactly once.  ``workers == 1`` runs in this process; more use a
``ProcessPoolExecutor`` whose workers ignore Ctrl-C (the parent stops cleanly: pending jobs are
cancelled, running ones finish and are kept), are ended by the parent on SIGTERM (inside
:func:`stop_on_sigterm`: running jobs are abandoned) and end by themselves when the parent
dies, even by ``kill -9``; ``scheduler`` (an address such as
``tcp://127.0.0.1:8786``) sends the jobs to a Dask distributed scheduler
(``pip install 'levelgen[dask]'``).  Since every level depends on its job alone, the pack is the
same byte for byte whichever executor ran it, and whichever worker ran a job again after
another died.

On Dask the jobs travel in chunks (:func:`chunk_jobs`): large ones while much work is left,
single jobs at the end, so that the scheduling cost stays small against the work and no worker
waits long for the last chunk.  Before anything is submitted every worker imports the generator
once (:func:`warm_up`) and reports its levelgen version, which must be this one (a level file
records the version that made it); each chunk checks it again on the worker that runs it.
Each worker's statistical profiler (a sample of its threads' stacks every 10 ms, which costs
a pack about a tenth of its speed) is paused for the run and started again at the end
(:func:`set_profiler`).  Results come back as each chunk finishes.  A worker that dies costs only
the chunks it held:
the scheduler runs them again elsewhere.  A scheduler that goes away ends the run with
:class:`ExecutorLost`; the levels already kept stay kept.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..formats.lifetime import die_with_parent
from ..formats.version import VERSION as __version__
from ..puzzles import DEFAULT_GAME
from .plan import Job, make_level_text, plan_family_pack

__all__ = [
    "CHUNK_SPREAD",
    "DASK_CONNECT_TIMEOUT",
    "MAX_CHUNK",
    "ExecutorError",
    "ExecutorLost",
    "Terminated",
    "check_scheduler_address",
    "chunk_jobs",
    "run_jobs",
    "set_profiler",
    "stop_on_sigterm",
    "warm_up",
]

#: Seconds to wait for a Dask scheduler to answer, and for it to have a worker.
DASK_CONNECT_TIMEOUT = 10.0
#: Most jobs in one Dask task: a few seconds of work at most, so that a worker's death, a
#: Ctrl-C or the progress bar never waits on a long chunk.
MAX_CHUNK = 8
#: A chunk holds at most 1/(CHUNK_SPREAD x worker threads) of the jobs not yet submitted.
CHUNK_SPREAD = 4


class ExecutorError(RuntimeError):
    """The jobs could not run where they were sent (no Dask, no scheduler, no worker, a worker
    with another levelgen, a job that keeps killing workers): one line."""


class ExecutorLost(ExecutorError):
    """The Dask scheduler went away during the run; the levels kept so far stay kept."""


def run_jobs(
    jobs: Sequence[Job],
    keep: Callable[[int, str], None],
    *,
    workers: int = 1,
    scheduler: str | None = None,
) -> None:
    """Make every job's level and ``keep`` it as it finishes (see the module docstring).
    ``KeyboardInterrupt`` passes through after the running jobs are kept (pool) or cancelled
    (Dask); ``ExecutorError`` says why the jobs could not run."""
    if scheduler is not None:
        if jobs:
            _run_dask(list(jobs), scheduler, keep)
    elif workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            keep(*_run_job(job))
    else:
        _run_pool(list(jobs), workers, keep)


def _run_job(job: Job) -> tuple[int, str]:
    """One job in a worker: its index and level text."""
    return job.index, make_level_text(job)


class Terminated(KeyboardInterrupt):
    """SIGTERM reached the process that runs the jobs (see :func:`stop_on_sigterm`): the run
    stops as after Ctrl-C, except that jobs still running are abandoned, not awaited."""


@contextlib.contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` in the main thread (where the jobs are
    awaited), so that ``kill PID`` stops a run as Ctrl-C does: the pool shut down, its
    workers ended, the levels made so far kept.  Only in the main thread (elsewhere signal
    handlers cannot be set: then nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum: int, frame: object) -> None:
        raise Terminated()

    before = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _start_worker(parent: int) -> None:
    """Run in each pool worker as it starts: Ctrl-C (sent to the whole process group) is the
    parent's to handle, SIGTERM ends the worker (not the parent's handler, inherited through
    fork), and the worker ends the moment ``parent`` does, however it ended (``kill -9``
    included: nothing then shuts the pool down, and a worker would live on under PID 1)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


def _run_pool(jobs: list[Job], workers: int, keep: Callable[[int, str], None]) -> None:
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(jobs)), initializer=_start_worker, initargs=(os.getpid(),)
    )
    # The end of a ramp (hard levels, large sizes) goes out first, so that the jobs left for
    # the end are short ones and no worker waits long for the last.
    pending: set[Future[tuple[int, str]]] = {pool.submit(_run_job, job) for job in reversed(jobs)}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                keep(*fut.result())
    except KeyboardInterrupt as stop:
        for fut in pending:
            fut.cancel()
        if isinstance(stop, Terminated):
            _end_workers(pool)
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


def _end_workers(pool: Any) -> None:
    """Send SIGTERM to the pool's worker processes (what they were making is abandoned; a
    resumed run makes it again), so that shutting the pool down does not wait for them."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError, ValueError):
            process.terminate()


# ----- Dask ------------------------------------------------------------------------------------


def chunk_jobs(jobs: Sequence[Job], slots: int) -> list[tuple[Job, ...]]:
    """``jobs`` in the order to submit them (the end of the plan first, as the pool does: hard
    levels and large sizes are the long ones) cut into chunks for ``slots`` worker threads.

    Guided self-scheduling: each chunk takes ``1/(CHUNK_SPREAD * slots)`` of the jobs left,
    between 1 and :data:`MAX_CHUNK`, so a run of ``n`` jobs is a few times ``slots`` large
    chunks followed by ever smaller ones, the last ``CHUNK_SPREAD * slots`` single jobs."""
    order = list(reversed(jobs))
    share = CHUNK_SPREAD * max(1, slots)
    chunks: list[tuple[Job, ...]] = []
    start = 0
    while start < len(order):
        size = max(1, min(MAX_CHUNK, (len(order) - start) // share))
        chunks.append(tuple(order[start : start + size]))
        start += size
    return chunks


def warm_up(game: str = DEFAULT_GAME) -> str:
    """Import the family of ``game`` and make one level of its defaults, so that the first
    real job pays no import or first-call cost; the levelgen version of this process."""
    from ..puzzles import family

    item = family(game)
    item.create(item.parse_spec(plan_family_pack(game, 1, 0, {}).jobs[0].values), 0)
    return __version__


def set_profiler(running: bool, dask_worker: Any = None) -> bool:
    """Run by ``Client.run`` on each worker's event loop: stop (``running=False``) or start
    again this Dask worker's statistical profiler; whether it was running before.  Dask
    samples every worker thread's stack each ``distributed.worker.profile.interval`` (10 ms)
    for its dashboard, and the samples hold the GIL the level generator needs; a pack pauses
    them, and starts again only those it stopped."""
    callbacks = getattr(dask_worker, "periodic_callbacks", None) or {}
    callback = callbacks.get("profile")
    if callback is None:
        return False
    was = bool(callback.is_running())
    if running:
        callback.start()
    else:
        callback.stop()
    return was


def _run_chunk(version: str, jobs: tuple[Job, ...]) -> list[tuple[int, str]]:
    """One Dask task: the index and level text of each job, made by this worker's levelgen,
    which must be ``version`` (the client's)."""
    if version != __version__:
        raise ExecutorError(_mismatch(version, [f"a worker runs levelgen {__version__}"]))
    return [_run_job(job) for job in jobs]


def _mismatch(version: str, found: list[str]) -> str:
    shown = "; ".join(found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
    return (
        f"the Dask workers must run levelgen {version}, as this machine does: {shown}"
        f" (pip install levelgen=={version} on every worker)"
    )


_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):\d{1,5}")


def check_scheduler_address(address: str) -> str:
    """``address`` when it reads as a Dask scheduler's ``[tcp://]HOST:PORT`` (or ``tls://``,
    ``ws://``, ``wss://``, ``ucx://``); ``ValueError`` saying what is expected otherwise."""
    if not _ADDRESS.fullmatch(address):
        raise ValueError(f"expected a scheduler address such as tcp://HOST:8786, got {address!r}")
    return address


def _connect(address: str, game: str) -> Any:
    """A Dask client of the scheduler at ``address`` that has at least one worker, whose
    workers all run this levelgen and are warmed up (see the module docstring)."""
    try:
        from distributed import Client
    except ImportError:
        raise ExecutorError(
            "--scheduler needs Dask distributed: pip install 'levelgen[dask]'"
        ) from None
    try:
        check_scheduler_address(address)
        client = Client(address, timeout=f"{DASK_CONNECT_TIMEOUT}s")  # type: ignore[no-untyped-call]
    except ValueError as exc:
        raise ExecutorError(f"--scheduler: {exc}") from None
    except (OSError, TimeoutError) as exc:
        raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=DASK_CONNECT_TIMEOUT)
        except TimeoutError:
            raise ExecutorError(
                f"the Dask scheduler at {address} has no worker after {DASK_CONNECT_TIMEOUT:g} s:"
                f" start some with dask worker {address}"
            ) from None
        answers = client.run(warm_up, game, on_error="return")
        found = [
            f"{worker} {_describe(answer)}"
            for worker, answer in sorted(answers.items())
            if answer != __version__
        ]
        if found:
            raise ExecutorError(_mismatch(__version__, found))
    except BaseException:
        client.close()  # type: ignore[no-untyped-call]
        raise
    return client


def _describe(answer: object) -> str:
    """What a worker's answer to :func:`warm_up` says about its levelgen."""
    if isinstance(answer, str):
        return f"runs levelgen {answer}"
    if isinstance(answer, ImportError):
        return f"cannot import levelgen ({answer})"
    # Another levelgen may lack warm_up, or fail in it.
    return f"cannot run this levelgen's jobs ({type(answer).__name__}: {answer})"


def _run_dask(jobs: list[Job], address: str, keep: Callable[[int, str], None]) -> None:
    client = _connect(address, jobs[0].game)
    try:
        paused = [w for w, was in client.run(set_profiler, False).items() if was]
        try:
            _stream(client, jobs, address, keep)
        finally:
            if paused and client.status == "running":
                client.run(set_profiler, True, workers=paused, on_error="return")
    except ExecutorLost:
        # Closing stops the client's attempts to reconnect, which distributed logs as an
        # error with a traceback; the one line of ExecutorLost says all there is to say.
        logger = logging.getLogger("distributed.client")
        level = logger.level
        logger.setLevel(logging.CRITICAL)
        try:
            client.close()
        finally:
            logger.setLevel(level)
        raise
    except BaseException:
        client.close()
        raise
    client.close()


def _stream(client: Any, jobs: list[Job], address: str, keep: Callable[[int, str], None]) -> None:
    """Submit the chunks of ``jobs`` and keep their levels as each chunk finishes."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    chunks = chunk_jobs(jobs, sum(client.nthreads().values()))
    run = uuid.uuid4().hex[:12]
    # Each chunk its own key (this run, its place) and a priority that falls with its place,
    # so that the scheduler hands them out in the order of chunk_jobs.
    pending = {
        client.submit(
            _run_chunk,
            __version__,
            chunk,
            key=f"levelgen-pack-{run}-{i:06d}",
            priority=len(chunks) - i,
        ): chunk
        for i, chunk in enumerate(chunks)
    }
    kept: set[int] = set()
    try:
        # with_results: each chunk's result is fetched as soon as it is ready, in the
        # background and all at once, instead of one round trip per chunk in this loop.
        finished = as_completed(  # type: ignore[no-untyped-call]
            list(pending), loop=client.loop, with_results=True, raise_errors=False
        )
        for fut, result in finished:
            chunk = pending.pop(fut)
            if fut.cancelled():
                raise ExecutorLost(f"lost the Dask scheduler at {address}")
            if fut.status == "error":
                _raise_task_error(result, chunk, KilledWorker)
            fut.release()  # the scheduler forgets the chunk: no copy to keep or recompute
            for index, text in result:
                if index not in kept:  # each level once, whatever happened on the cluster
                    kept.add(index)
                    keep(index, text)
    except ExecutorLost:
        raise
    except BaseException:
        client.cancel(list(pending))
        raise


def _raise_task_error(result: Any, chunk: tuple[Job, ...], killed: type[Exception]) -> None:
    """Raise what a chunk raised: its own exception (a level that cannot be made, a worker with
    another levelgen), or ``ExecutorError`` when it took down the workers that ran it."""
    _, exc, tb = result
    if isinstance(exc, killed):
        first, last = sorted((chunk[0].index + 1, chunk[-1].index + 1))
        raise ExecutorError(
            f"Dask workers died {exc.args[2] + 1 if len(exc.args) > 2 else 'several'} times"
            f" while making levels {first}-{last}: see the worker logs (memory, signals)"
        ) from None
    raise exc.with_traceback(tb)
