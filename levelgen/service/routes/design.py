"""``POST /v1/fix`` and ``POST /v1/fill``: a level editor's aids, for a game that has them
(Link-up).

Fix: the body is a level file, bare or in an envelope ``{"level": ..., "time_limit": 5,
"max_swaps": 4}``; the answer is the fewest changes found within the time limit that make the
level solvable (Link-up: tile swaps, applied in order), the fixed level with its certificate,
and ``fewer_ruled_out`` (every smaller number of changes was tried and proved not to help).
Fill: the body is ``{"level": ..., "slots": [[x, y], ...], "kinds": null, "seed": 0,
"time_limit": 5}``; the answer is the level with a piece on every slot, solvable (its
certificate replayed), and what was placed where.  ``not-found`` and ``invalid`` are answers
(200); a body that cannot be used is a problem document (400 / 422 with the pointer)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import json_bytes, limits_of, run_task
from ..design import task_fill, task_fix
from ..models import EXAMPLE_LEVEL, FillAnswer, FixAnswer
from ..problems import problem_responses
from .check import document_body

router = APIRouter(prefix="/v1", tags=["design"])

#: A 4x2 level that cannot be cleared (the two pairs cross) and is fixed by one swap.
EXAMPLE_STUCK = {
    **EXAMPLE_LEVEL,
    "rules": {"max_turns": 0, "outside": False},
    "board": {"width": 2, "height": 2, "rows": [[1, 2], [2, 1]]},
}
#: A level drawn in part: two tiles painted, four empty cells to fill.
EXAMPLE_PART = {
    **EXAMPLE_LEVEL,
    "board": {"width": 3, "height": 2, "rows": [[1, 0, 0], [0, 0, 1]]},
}


@router.post(
    "/fix",
    summary="Suggest a fix: the fewest swaps found that make a level solvable",
    description="Answers `status` (`fixed`, `solvable`, `not-found` or `invalid`), `message`,"
    " `swaps` (pairs of cells whose pieces are exchanged, in order), `count`,"
    " `fewer_ruled_out` (true only when every smaller number of swaps was tried and proved"
    " unsolvable), `level` (the fixed level with its certificate, replayed) and `problems`,"
    " as `levelgen fix --json` prints them.  `time_limit` (seconds, capped by the server's"
    " maximum) bounds the search; `max_swaps` (default 4) its depth.",
    response_class=Response,
    responses={200: {"model": FixAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body(
        "A level file, or {level, game, time_limit, max_swaps}.",
        envelope="FixEnvelope",
        examples={
            "level": {"summary": "A level that cannot be cleared", "value": EXAMPLE_STUCK},
            "envelope": {
                "summary": "With a time limit and at most two swaps",
                "value": {"level": EXAMPLE_STUCK, "time_limit": 2, "max_swaps": 2},
            },
        },
    ),
)
async def fix(request: Request) -> Response:
    result = await run_task(request, task_fix, await request.body(), limits_of(request))
    return json_bytes(result.body)


@router.post(
    "/fill",
    summary="Fill the rest: pieces on the given empty cells, the level solvable",
    description="Answers `status` (`filled` or `not-found`), `message`, `placed` (`at` and"
    " `kind` of each slot), `seed` and `level` (with its certificate, replayed), as `levelgen"
    " fill --json` prints them.  Slots must be empty cells; slots that cannot make every"
    " kind's count even are a 422 at `/slots`.",
    response_class=Response,
    responses={200: {"model": FillAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body(
        "{level, slots, kinds, seed, game, time_limit}.",
        bare=(),
        envelope="FillEnvelope",
        examples={
            "envelope": {
                "summary": "Four empty cells of a level drawn in part",
                "value": {
                    "level": EXAMPLE_PART,
                    "slots": [[1, 0], [2, 0], [0, 1], [1, 1]],
                    "seed": 0,
                },
            }
        },
    ),
)
async def fill(request: Request) -> Response:
    result = await run_task(request, task_fill, await request.body(), limits_of(request))
    return json_bytes(result.body)
