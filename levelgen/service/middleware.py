"""Plain ASGI middleware: request ids with a structured access log, and the body size cap.

``AccessLog`` gives every request an id (the client's ``X-Request-ID`` when it is a short
token, else a fresh one), sends it back in ``X-Request-ID``, and writes one JSON line per
request to the ``levelgen.access`` logger (standard error): time, request id, method, path,
route template, status, duration in milliseconds, client address.

``BodyLimit`` refuses a body larger than the cap with 413: at once when ``Content-Length``
says so, otherwise as soon as the streamed bytes pass the cap (the handler reading the body
gets a :class:`~levelgen.service.problems.ProblemError`).
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .problems import ProblemError

__all__ = ["AccessLog", "BodyLimit", "access_logger", "log_event"]

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
        request_id = given if _TOKEN.fullmatch(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        start = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", request_id.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            route = scope.get("route")
            client = scope.get("client")
            record: dict[str, Any] = {
                "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "request_id": request_id,
                "method": scope.get("method"),
                "path": scope.get("path"),
                "route": getattr(route, "path", None),
                "status": status,
                "duration_ms": round((time.perf_counter() - start) * 1000, 2),
                "client": client[0] if client else None,
            }
            self.logger.info(json.dumps(record, separators=(",", ":")))


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
