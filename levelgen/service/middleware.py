"""The guards at the service's edge: request ids with a structured access log and the body
size cap (plain ASGI middleware), and limits on reading requests (in the HTTP protocol).

``AccessLog`` gives every request an id (the client's ``X-Request-ID`` when it is a short
token, else a fresh one), sends it back in ``X-Request-ID``, and writes one JSON line per
request to the ``levelgen.access`` logger (standard error): time, request id, method, path,
route template, status, duration in milliseconds, client address.

``AccessLog`` wraps the whole application, its error handling included, so that every answer
carries the id, a 500 too.  A bug answered with a 500 is logged (``internal-error``, with the
traceback) and the connection is kept open: the server does not close a keep-alive connection
after an answer that did not say ``Connection: close``.  A request cut short because the server
stops (its grace is over) is answered 503 with ``Connection: close``.

``JsonWrites`` refuses a write (``POST``, ``PUT``, ``PATCH`` with a body) whose
``Content-Type`` is not ``application/json`` (a ``charset`` of UTF-8 may be given) with 415:
a web page of another site can send a "simple" cross-site request (``text/plain``, form data)
without asking first, but not a JSON one.

``BodyLimit`` refuses a body larger than the cap with 413: at once when ``Content-Length``
says so, otherwise as soon as the streamed bytes pass the cap (the handler reading the body
gets a :class:`~levelgen.service.problems.ProblemError`).

:func:`guarded_http` is uvicorn's httptools protocol with what it lacks against abusive
clients, enforced before any application code runs and before the bytes are kept: a request
head (request line and header fields) larger than its cap or with too many fields is answered
431; a head that has not arrived within its deadline (counted from the connection's opening or
from its first byte), or a body within its own (counted from the end of the head, so a body
shorter than its ``Content-Length`` is not waited on forever), is answered 408; each of these
closes the connection, and a connection that stays idle past the head deadline is closed
without a word.  The answers are problem documents like every other error (so is the 400 of
bytes that are not HTTP at all), with ``Connection: close``, an ``X-Request-ID`` and a line in
the access log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import time
import traceback
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .problems import ProblemError

__all__ = [
    "AccessLog",
    "BodyLimit",
    "JsonWrites",
    "access_logger",
    "guarded_http",
    "log_event",
    "new_request_id",
]

_TOKEN = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def access_logger() -> logging.Logger:
    """The access logger, writing bare JSON lines to standard error (set up once)."""
    logger = logging.getLogger("levelgen.access")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def log_event(event: str, **fields: Any) -> None:
    """One JSON line for a service event (start, stop) in the access log."""
    record = {"ts": datetime.now(UTC).isoformat(timespec="milliseconds"), "event": event}
    access_logger().info(json.dumps({**record, **fields}, separators=(",", ":")))


def new_request_id() -> str:
    """A fresh request id."""
    return uuid.uuid4().hex


def _access_record(
    request_id: str, scope: Scope | None, status: int, duration_ms: float | None
) -> str:
    route = scope.get("route") if scope else None
    client = scope.get("client") if scope else None
    record: dict[str, Any] = {
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "request_id": request_id,
        "method": scope.get("method") if scope else None,
        "path": scope.get("path") if scope else None,
        "route": getattr(route, "path", None),
        "status": status,
        "duration_ms": duration_ms,
        "client": client[0] if client else None,
    }
    return json.dumps(record, separators=(",", ":"))


class AccessLog:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.logger = access_logger()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = ""
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given = value.decode("latin-1")
        request_id = given if _TOKEN.fullmatch(given) else new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        start = time.perf_counter()
        status = 500
        started = completed = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, started, completed
            if message["type"] == "http.response.start":
                status, started = message["status"], True
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", request_id.encode("latin-1")))
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                completed = True
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except asyncio.CancelledError:
            # The server stops and its grace is over: say so, then the connection closes.
            if not started:
                stopping = ProblemError(
                    503, "the server is stopping: try again", headers={"Retry-After": "1"}
                )
                response = stopping.response()
                response.headers["connection"] = "close"
                await response(scope, receive, send_with_id)
                return  # answered: the request ends here, and the server closes the connection
            raise
        except Exception as exc:
            # A bug: Starlette has answered 500 and re-raises.  Logged here, once, and kept
            # from the server, which would close the connection without a word.
            log_event(
                "internal-error",
                request_id=request_id,
                reason=f"{type(exc).__name__}: {exc}"[:300],
                traceback=traceback.format_exc(),
            )
            if not started:
                await ProblemError(500, "internal error: this is a bug in levelgen").response()(
                    scope, receive, send_with_id
                )
            elif not completed:
                raise  # too late for an answer: the server closes the connection
        finally:
            duration = round((time.perf_counter() - start) * 1000, 2)
            self.logger.info(_access_record(request_id, scope, status, duration))


_JSON = re.compile(r"\s*application/json\s*(;.*)?", re.IGNORECASE)
_CHARSET = re.compile(r";\s*charset\s*=\s*\"?([^\s;\"]+)", re.IGNORECASE)


def json_type_problem(method: str, content_type: str | None) -> ProblemError | None:
    """The 415 of a write body sent as ``content_type`` (None: no ``Content-Type``), or None
    when it is JSON (``application/json``, any parameters, a charset of UTF-8 only)."""
    if content_type is not None and _JSON.fullmatch(content_type):
        charset = _CHARSET.search(content_type)
        if charset is None or charset.group(1).lower() in ("utf-8", "utf8"):
            return None
        reason = f"a charset of {charset.group(1)} (JSON is UTF-8)"
    else:
        reason = "no Content-Type" if content_type is None else f"Content-Type {content_type}"
    accept = {"POST": "Accept-Post", "PATCH": "Accept-Patch"}.get(method)
    return ProblemError(
        415,
        f"the request body must be JSON, sent with 'Content-Type: application/json'; got {reason}",
        headers={accept: "application/json"} if accept else None,
    )


class JsonWrites:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in ("POST", "PUT", "PATCH"):
            content_type: str | None = None
            has_body = False
            for name, value in scope.get("headers", ()):
                if name == b"content-type":
                    content_type = value.decode("latin-1")
                elif name == b"content-length":
                    has_body = has_body or value.strip() not in (b"0", b"")
                elif name == b"transfer-encoding":
                    has_body = True
            problem = json_type_problem(scope["method"], content_type) if has_body else None
            if problem is not None:
                await problem.response()(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = ProblemError(
            413, f"the request body is larger than the cap of {self.max_bytes} bytes"
        )
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                response = too_large.response()
                response.headers["connection"] = "close"
                await response(scope, receive, send)
                return
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise too_large
            return message

        await self.app(scope, capped, send)


def guarded_http(
    *, max_head_bytes: int, max_fields: int, head_timeout: float, body_timeout: float
) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with the request limits of the module docstring: heads
    of at most ``max_head_bytes`` bytes and ``max_fields`` header fields (else 431), a head
    within ``head_timeout`` seconds and a body within ``body_timeout`` (else 408)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    too_large = ProblemError(431, f"the request head is larger than {max_head_bytes} bytes")
    too_many = ProblemError(431, f"the request has more than {max_fields} header fields")
    head_late = ProblemError(408, f"the request head did not arrive within {head_timeout:g} s")
    body_late = ProblemError(408, f"the request body did not arrive within {body_timeout:g} s")

    class GuardedHttp(HttpToolsProtocol):
        # State on top of uvicorn's: ``reading_head`` between requests and while a head comes
        # in; ``received`` bytes since that head began (the parser keeps a header's bytes
        # until it is whole, so an unfinished head is measured here); ``size`` and ``fields``
        # of the head as parsed; the one ``deadline`` running; the ``refusal`` to answer.
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.reading_head = True
            self.received = self.size = self.fields = 0
            self.deadline: asyncio.TimerHandle | None = None
            self.refusal: ProblemError | None = None

        def _arm(self, seconds: float, overdue: Callable[[], None]) -> None:
            self._disarm()
            self.deadline = self.loop.call_later(seconds, overdue)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _refuse(self, problem: ProblemError) -> None:
            """Answer ``problem`` and close; a request still being answered is dropped (its
            application reads a disconnect, its answer goes nowhere)."""
            self._disarm()
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
                if cycle.response_started:  # too late for another answer
                    self.transport.close()
                    return
            request_id = new_request_id()
            self.transport.write(problem.raw(request_id))
            self.transport.close()
            access_logger().info(_access_record(request_id, None, problem.status, None))

        def send_400_response(self, msg: str) -> None:
            """Bytes that are not HTTP/1.1 (uvicorn's plain-text 400, as a problem)."""
            self._refuse(ProblemError(400, "the request is not valid HTTP/1.1"))

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm(head_timeout, self._head_overdue)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.reading_head:
                if self.deadline is None:
                    self._arm(head_timeout, self._head_overdue)
                self.received += len(data)
            super().data_received(data)
            if self.refusal is not None:
                self._refuse(self.refusal)
            elif self.reading_head and self.received > max_head_bytes:
                self._refuse(too_large)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.size = self.fields = 0

        def on_url(self, url: bytes) -> None:
            self.size += len(url)
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self.size += len(name) + len(value) + 4
            self.fields += 1
            if self.refusal is None and self.size > max_head_bytes:
                self.refusal = too_large
            elif self.refusal is None and self.fields > max_fields:
                self.refusal = too_many
            if self.refusal is None:
                super().on_header(name, value)

        def on_headers_complete(self) -> None:
            if self.refusal is not None:  # answered once the parser returns
                return
            self.reading_head = False
            self._arm(body_timeout, self._body_overdue)
            super().on_headers_complete()

        def on_body(self, body: bytes) -> None:
            if self.refusal is None:
                super().on_body(body)

        def on_message_complete(self) -> None:
            if self.refusal is not None:
                return
            self._disarm()
            self.reading_head = True
            self.received = 0
            super().on_message_complete()

        def _head_overdue(self) -> None:
            self.deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is not None and not self.cycle.response_complete:
                self._arm(head_timeout, self._head_overdue)  # the next head waits for an answer
            elif self.received == 0:
                self.transport.close()  # idle: nobody to answer
            else:
                self._refuse(head_late)

        def _body_overdue(self) -> None:
            self.deadline = None
            self._refuse(body_late)

    return GuardedHttp
