"""``POST /v1/verify`` and ``POST /v1/solve``: stateless checks of a level in the body.

The body is a level file, bare or in an envelope with ``method`` and ``time_limit`` (capped by
the server's maximum; running out ends as ``undecided``).  The answers are those of the CLI:
verdicts are 200s; only a body that is not a level file is an error (400 / 422 with the
pointer)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import json_bytes, limits_of, run_task
from ..models import EXAMPLE_LEVEL, SolveAnswer, VerifyReport
from ..problems import problem_responses
from ..tasks import task_solve, task_verify

router = APIRouter(prefix="/v1", tags=["check"])


def document_body(
    description: str,
    *,
    bare: tuple[str, ...] = ("LevelFile",),
    envelope: str = "LevelEnvelope",
    examples: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The OpenAPI request body of a document (bare, or in an envelope with options)."""
    return {
        "requestBody": {
            "required": True,
            "description": description,
            "content": {
                "application/json": {
                    "schema": {
                        "anyOf": [
                            {"$ref": f"#/components/schemas/{name}"} for name in (*bare, envelope)
                        ]
                    },
                    "examples": examples
                    or {
                        "level": {"summary": "A bare level file", "value": EXAMPLE_LEVEL},
                        "envelope": {
                            "summary": "A level with solver options",
                            "value": {"level": EXAMPLE_LEVEL, "method": "search", "time_limit": 2},
                        },
                    },
                }
            },
        }
    }


@router.post(
    "/verify",
    summary="Verify a level: replay its solution, or solve it",
    description="Answers what `levelgen verify --json` prints for one file.",
    response_class=Response,
    responses={200: {"model": VerifyReport}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body("A level file, or {level, method, time_limit}."),
)
async def verify(request: Request) -> Response:
    result = await run_task(request, task_verify, await request.body(), limits_of(request))
    return json_bytes(result.body)


@router.post(
    "/solve",
    summary="Solve a hand-made level",
    description="The level with a solution and metrics, or the verdict saying why not.",
    response_class=Response,
    responses={200: {"model": SolveAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body("A level file, or {level, method, time_limit}."),
)
async def solve(request: Request) -> Response:
    result = await run_task(request, task_solve, await request.body(), limits_of(request))
    return json_bytes(result.body)
