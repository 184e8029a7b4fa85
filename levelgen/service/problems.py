"""Errors as RFC 9457 problem documents (``application/problem+json``).

Every error the service answers is one JSON object: ``type`` (a URN naming the kind of
problem), ``title`` (the same for every problem of that type), ``status``, ``detail`` (the
reason, in the CLI's words) and ``pointer`` (our extension: the JSON pointer of the place in
the request body, ``""`` for the whole body or when the problem is not about the body), plus
``parameter`` for a query or path parameter and ``problems`` when a body has several.
Verdicts (``invalid``, ``unsolvable``, ``undecided``) are answers, not problems: they are 200s.

A type is named by its status, except where one status has several causes a client tells
apart: a 503 is ``busy`` (the worker pool is full) or ``library-unavailable`` (the level
library's database refused the call for now, :class:`~levelgen.library.LibraryUnavailable`);
both carry ``Retry-After``.  Only an exception nobody expected is a 500, ``internal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from ..library import LibraryUnavailable

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "Problem",
    "ProblemError",
    "install_problem_handlers",
    "library_problem",
    "problem_responses",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"

#: Problem types by status: (slug, title).
_TYPES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "The request body is not acceptable JSON"),
    401: ("unauthorized", "An API key is needed"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed"),
    408: ("timeout", "The request did not arrive in time"),
    409: ("conflict", "Conflict"),
    413: ("too-large", "The request body is too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("invalid", "The request is well-formed but not acceptable"),
    429: ("too-many-jobs", "Too many jobs of this client at once"),
    431: ("headers-too-large", "The request's header fields are too large"),
    500: ("internal", "Internal error (a bug)"),
    503: ("busy", "The service is busy: try again later"),
}

#: Problem types named by their cause where a status has several: slug -> title.
_CAUSES: dict[str, str] = {
    "library-unavailable": "The level library is unavailable: try again later",
}


class Problem(BaseModel):
    """An RFC 9457 problem document."""

    type: str = Field(examples=["urn:levelgen:problem:invalid"])
    title: str = Field(examples=["The request is well-formed but not acceptable"])
    status: int = Field(ge=400, le=599, examples=[422])
    detail: str = Field(examples=["/board/rows/3/7: must be at least -1"])
    pointer: str = Field(
        default="",
        description="JSON pointer of the place in the request body ('' for the whole body).",
        examples=["/board/rows/3/7"],
    )
    parameter: str | None = Field(default=None, description="The query or path parameter.")
    problems: list[dict[str, str]] | None = Field(
        default=None, description="Every problem found, as {pointer, reason}."
    )


def problem_type(status: int, cause: str | None = None) -> tuple[str, str]:
    """The type URN and title of a problem of ``status`` (and ``cause``, a key of the causes
    one status may have)."""
    if cause is not None:
        return f"urn:levelgen:problem:{cause}", _CAUSES[cause]
    slug, title = _TYPES.get(status, ("error", "Error"))
    return f"urn:levelgen:problem:{slug}", title


class ProblemError(Exception):
    """Raised anywhere in a request: answered as a problem document of ``status`` (its type
    named by ``cause`` when given, see :data:`_CAUSES`)."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        pointer: str = "",
        parameter: str | None = None,
        problems: Sequence[tuple[str, str]] = (),
        headers: dict[str, str] | None = None,
        cause: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.pointer = pointer
        self.parameter = parameter
        self.problems = list(problems)
        self.headers = headers or {}
        self.cause = cause

    def document(self) -> dict[str, Any]:
        kind, title = problem_type(self.status, self.cause)
        doc: dict[str, Any] = {
            "type": kind,
            "title": title,
            "status": self.status,
            "detail": self.detail,
            "pointer": self.pointer,
        }
        if self.parameter is not None:
            doc["parameter"] = self.parameter
        if self.problems:
            doc["problems"] = [{"pointer": p, "reason": r} for p, r in self.problems]
        return doc

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.document(),
            status_code=self.status,
            headers=self.headers,
            media_type=PROBLEM_MEDIA_TYPE,
        )

    def raw(self, request_id: str) -> bytes:
        """The whole HTTP/1.1 response, closing the connection, with ``request_id`` in
        ``X-Request-ID``: for the server's protocol layer, which answers before any
        application runs."""
        body = self.response().body
        phrase = {408: "Request Timeout", 431: "Request Header Fields Too Large"}
        head = [
            f"HTTP/1.1 {self.status} {phrase.get(self.status, 'Error')}",
            f"content-type: {PROBLEM_MEDIA_TYPE}",
            f"content-length: {len(body)}",
            "connection: close",
            f"x-request-id: {request_id}",
            *(f"{name}: {value}" for name, value in self.headers.items()),
        ]
        return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + bytes(body)


def library_problem(error: LibraryUnavailable, retry_after: int) -> ProblemError:
    """The 503 of a call the level library refused for now."""
    detail = f"{error}: try again in {retry_after} s"
    return ProblemError(
        503, detail, headers={"Retry-After": str(retry_after)}, cause="library-unavailable"
    )


def _escape(part: object) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def _validation_problem(exc: RequestValidationError) -> ProblemError:
    """A 422 for FastAPI's own validation (create bodies, query parameters)."""
    found: list[tuple[str, str, str | None]] = []
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            context = error.get("ctx") or {}
            return ProblemError(400, f"not JSON: {context.get('error', 'malformed')}")
        loc = list(error.get("loc", ()))
        where = loc[0] if loc else "body"
        rest = loc[1:]
        reason = str(error.get("msg", "invalid"))
        if where == "body":
            # A tagged union adds the model's name to the location: leave it out.
            rest = [p for p in rest if not (isinstance(p, str) and p[:1].isupper())]
            found.append(("".join(f"/{_escape(p)}" for p in rest), reason, None))
        else:
            name = str(rest[0]) if rest else str(where)
            found.append(("", reason, name))
    if not found:
        return ProblemError(422, "the request is not acceptable")
    pointer, reason, parameter = found[0]
    place = f"{pointer}: " if pointer else (f"{parameter}: " if parameter else "")
    body = [(p, r) for p, r, q in found if q is None]
    return ProblemError(
        422,
        f"{place}{reason}",
        pointer=pointer,
        parameter=parameter,
        problems=body if len(body) > 1 else (),
    )


def _allowed_methods(app: FastAPI, path: str) -> list[str]:
    """The methods the OpenAPI document gives the paths that match ``path``, sorted."""
    import re

    methods: set[str] = set()
    for template, operations in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            methods |= {m.upper() for m in operations if m not in ("parameters", "summary")}
    return sorted(methods)


def install_problem_handlers(app: FastAPI, retry_after: int = 1) -> None:
    """Answer every error of ``app`` as a problem document (``retry_after``: the seconds a
    503 of the library says).  Only an unexpected exception is logged, with its traceback
    (by the server); the others are answers."""

    async def on_problem(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ProblemError)
        return exc.response()

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        detail = exc.detail if isinstance(exc.detail, str) else problem_type(exc.status_code)[1]
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, not those of its first route
            allowed = _allowed_methods(app, request.url.path)
            headers["Allow"] = ", ".join(allowed)
            detail = f"{request.method} is not a method of {request.url.path}: use " + (
                " or ".join(allowed)
            )
        return ProblemError(exc.status_code, detail, headers=headers).response()

    async def on_validation(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return _validation_problem(exc).response()

    async def on_library(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, LibraryUnavailable)
        return library_problem(exc, retry_after).response()  # logged once per outage

    async def on_gone(_request: Request, _exc: Exception) -> JSONResponse:
        # The client left (or the server cut a body that stopped coming): nobody reads this.
        return ProblemError(400, "the client closed the request").response()

    async def on_bug(_request: Request, _exc: Exception) -> JSONResponse:
        return ProblemError(500, "internal error: this is a bug in levelgen").response()

    app.add_exception_handler(ProblemError, on_problem)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(LibraryUnavailable, on_library)
    app.add_exception_handler(ClientDisconnect, on_gone)
    app.add_exception_handler(Exception, on_bug)


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for ``statuses``, each a problem document."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        out[status] = {
            "description": problem_type(status)[1],
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
    return out
