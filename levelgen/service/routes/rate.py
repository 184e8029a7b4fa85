"""``POST /v1/rate``: a level of any game with its difficulty block.

The body is a level file, bare or in an envelope ``{"level": ..., "seed": 7}`` (``game``,
``time_limit`` too).  The answer is the level with ``metrics.difficulty`` (``score`` 0..100 on
the one scale of every game, ``band``, and the ``measures`` behind them), measured by its
family against its player model with randomness from ``seed`` (default 0), as ``levelgen rate``
writes it.  A game that cannot rate is refused (422 at ``/game``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import in_thread, json_bytes, limits_of, run_task, settings_of
from ..models import EXAMPLE_LEVEL
from ..problems import problem_responses
from ..tasks import create_time_limit, task_rate
from .check import document_body

router = APIRouter(prefix="/v1", tags=["check"])

_EXAMPLES = {
    "level": {"summary": "A bare level file", "value": EXAMPLE_LEVEL},
    "envelope": {
        "summary": "A level with the seed of its play-outs",
        "value": {"level": EXAMPLE_LEVEL, "seed": 7},
    },
}


@router.post(
    "/rate",
    summary="Rate a level: its difficulty block, on one scale for every game",
    description="Answers the level with `metrics.difficulty` (`score` 0..100, `band`,"
    " `measures`), as `levelgen rate` writes it.  `time_limit` (seconds, default and most: the"
    " server's maximum): a rating not done by then is a 422.",
    response_class=Response,
    responses={
        200: {
            "description": "The level with its difficulty block",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LevelFile"}}},
        },
        **problem_responses(400, 413, 422, 429, 503),
    },
    openapi_extra=document_body(
        "A level file, or {level, game, seed, time_limit}.",
        envelope="RateEnvelope",
        examples=_EXAMPLES,
    ),
)
async def rate(request: Request) -> Response:
    body = await request.body()
    limit = await in_thread(create_time_limit, body, settings_of(request).max_time_limit)
    result = await run_task(request, task_rate, body, limits_of(request), time_limit=limit)
    return json_bytes(result.body)
