"""``/healthz`` (the process answers) and ``/readyz`` (the library, the pool and the pack
runner work: a load balancer sends requests elsewhere while it says 503).  The library is
ready when it would take a write now (:meth:`~levelgen.library.Store.check_writable`: no call
refused in the last seconds, room on a SQLite file's disk, a statement that writes works)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ...library import LibraryUnavailable
from ..deps import in_thread, pool_of, settings_of, store_of
from ..models import Health
from ..problems import ProblemError, library_problem, problem_responses
from ..runner import PackRunner

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness", response_model=Health)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="Readiness", response_model=Health, responses=problem_responses(503))
async def readyz(request: Request) -> dict[str, str]:
    retry_after = settings_of(request).retry_after
    retry = {"Retry-After": str(retry_after)}
    if not pool_of(request).started:
        raise ProblemError(503, "the worker pool is not running", headers=retry)
    runner: PackRunner = request.app.state.runner
    if not runner.running:
        raise ProblemError(503, "the pack runner is not running", headers=retry)
    try:
        await in_thread(store_of(request).check_writable)
    except LibraryUnavailable as exc:
        raise library_problem(exc, retry_after) from None
    except Exception as exc:
        reason = f"the library is not reachable: {type(exc).__name__}"
        raise ProblemError(503, reason, headers=retry) from None
    return {"status": "ready"}
