"""``POST /v1/hint`` and ``POST /v1/shuffle``: the play engine on a game in progress.

The body is a position file (or a level file: its start), bare as the browser player sends it,
or ``{"position": ..., "time_limit": 2, "method": "auto"}`` (a shuffle also takes ``seed``,
drawn when absent and said in the answer, and ``min_moves``).  The answers are those of
``levelgen hint --json`` and ``levelgen shuffle --json``; ``lost``, ``impossible`` and
``undecided`` are verdicts (200), not errors."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...linkup import MAX_SEED
from ..deps import json_bytes, limits_of, run_task
from ..models import EXAMPLE_LEVEL, HintAnswer, ShuffleAnswer
from ..problems import problem_responses
from ..tasks import task_hint, task_shuffle
from .check import document_body

router = APIRouter(prefix="/v1", tags=["play"])

EXAMPLE_POSITION = {
    "$schema": "urn:levelgen:schema:position:v1",
    "game": "linkup",
    "format_version": 1,
    "level": EXAMPLE_LEVEL,
    "played": [{"a": [1, 0], "b": [2, 0]}],
}
_EXAMPLES = {
    "position": {"summary": "A game in progress", "value": EXAMPLE_POSITION},
    "level": {"summary": "A level at its start", "value": EXAMPLE_LEVEL},
    "envelope": {
        "summary": "A position with options",
        "value": {"position": EXAMPLE_POSITION, "time_limit": 2},
    },
}
_BODY = {"bare": ("PositionFile", "LevelFile"), "envelope": "PositionEnvelope"}


@router.post(
    "/hint",
    summary="A safe hint for a game in progress",
    description="Answers what `levelgen hint --json` prints: a move proved safe by the rest of"
    " a solution, or won / lost / undecided.",
    response_class=Response,
    responses={200: {"model": HintAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body(
        "A position or level file, or {position, method, time_limit}.",
        examples=_EXAMPLES,
        **_BODY,  # type: ignore[arg-type]
    ),
)
async def hint(request: Request) -> Response:
    result = await run_task(request, task_hint, await request.body(), limits_of(request))
    return json_bytes(result.body)


@router.post(
    "/shuffle",
    summary="A solvable shuffle of the remaining tiles",
    description="Answers what `levelgen shuffle --json` prints: the tiles re-dealt over the"
    " same cells as a level file with its solution.",
    response_class=Response,
    responses={200: {"model": ShuffleAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body(
        "A position or level file, or {position, seed, min_moves, time_limit}.",
        examples=_EXAMPLES,
        **_BODY,  # type: ignore[arg-type]
    ),
)
async def shuffle(request: Request) -> Response:
    seed = secrets.randbelow(MAX_SEED + 1)
    body = await request.body()
    result = await run_task(request, task_shuffle, body, limits_of(request), seed)
    return json_bytes(result.body)
