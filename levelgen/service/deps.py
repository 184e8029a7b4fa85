"""What handlers share: the app's store, pool and settings, the client's identity, the API key
check for writes, and running a task in the pool with its failures mapped to problems."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from ..library import Store
from .problems import ProblemError
from .settings import Settings
from .tasks import Limits, TaskResult
from .work import Busy, Overdue, TooMany, WorkPool

__all__ = [
    "client_of",
    "in_thread",
    "json_bytes",
    "limits_of",
    "require_key",
    "run_task",
    "settings_of",
    "store_of",
]

#: Seconds a task may run past the longest time limit before it is abandoned.
SLACK = 5.0


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def limits_of(request: Request) -> Limits:
    """The limits the tasks apply, from the settings."""
    settings = settings_of(request)
    return Limits(settings.max_side, settings.default_time_limit, settings.max_time_limit)


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def pool_of(request: Request) -> WorkPool:
    pool: WorkPool = request.app.state.pool
    return pool


def client_of(request: Request) -> str:
    """Who is asking: the client address (each address has its own job limits)."""
    return request.client.host if request.client else "unknown"


def require_key(request: Request) -> None:
    """A dependency of every write: when an API key is configured the request must carry it
    (``Authorization: Bearer KEY`` or ``X-API-Key: KEY``), compared in constant time."""
    key = settings_of(request).api_key
    if key is None:
        return
    given = request.headers.get("x-api-key", "")
    auth = request.headers.get("authorization", "")
    if not given and auth[:7].lower() == "bearer ":
        given = auth[7:].strip()
    if not hmac.compare_digest(given.encode("utf-8"), key.encode("utf-8")):
        reason = "a wrong API key was given" if given else "this write needs an API key"
        raise ProblemError(
            401,
            f"{reason}: send it as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'",
            headers={"WWW-Authenticate": 'Bearer realm="levelgen"'},
        )


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """A blocking call (the database) in a worker thread, off the event loop."""
    return await run_in_threadpool(fn, *args)


async def _client_gone(request: Request) -> None:
    """Return when the client has gone away (after the body has been read: the server then
    reports nothing but the disconnect, or the end of the response)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def run_task(
    request: Request,
    fn: Callable[..., TaskResult],
    *args: Any,
    time_limit: float | None = None,
) -> TaskResult:
    """``fn(*args)`` in the process pool; 503 (with Retry-After) when the pool is full or the
    task overran, 429 when this client has too many tasks in flight, the task's own problem
    (400 / 422) when the input was refused.  The task is stopped in its worker when the
    client goes away (:class:`ClientDisconnect`) or this request is cancelled.  With
    ``time_limit`` (a task that takes no budget: generation) the task is stopped when it
    runs longer, answered 422 (``/time_limit``)."""
    settings = settings_of(request)
    retry = {"Retry-After": str(settings.retry_after)}
    timeout = settings.max_time_limit + SLACK if time_limit is None else time_limit
    work = asyncio.ensure_future(
        pool_of(request).run(client_of(request), fn, *args, timeout=timeout)
    )
    gone = asyncio.ensure_future(_client_gone(request))
    try:
        await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not work.done():  # the client left, or this request is cancelled
            work.cancel()
            with contextlib.suppress(BaseException):
                await work
    if work.cancelled():
        raise ClientDisconnect()
    try:
        result = work.result()
    except Busy as exc:
        raise ProblemError(503, str(exc), headers=retry) from None
    except TooMany as exc:
        raise ProblemError(429, str(exc), headers=retry) from None
    except Overdue as exc:
        if time_limit is not None:
            raise ProblemError(
                422,
                f"/time_limit: nothing was made within {time_limit:g} s (this service allows"
                f" up to {settings.max_time_limit:g} s); ask for a smaller or easier level",
                pointer="/time_limit",
            ) from None
        raise ProblemError(503, str(exc), headers=retry) from None
    if result.status >= 400:
        raise ProblemError(
            result.status, result.detail, pointer=result.pointer, problems=result.problems
        )
    return result


def json_bytes(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON response of bytes already serialized (by a worker)."""
    return Response(body, status_code=status, media_type="application/json", headers=headers)
