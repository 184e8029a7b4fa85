"""``POST /v1/hint`` and ``POST /v1/shuffle``: the play engine on a game in progress.

The body is a position file (or a level file: its start) of any game, bare as the browser
players send it, or an envelope ``{"position": ..., "time_limit": 2, ...}`` (or ``"level"``)
with the options of the game's hint (its declared ``hint_options``: Link-up's ``method``,
snakes and ladders' ``square`` and ``within``, ...); the envelope's ``game``, else the
document's, says which game.  A shuffle, for a game that has one, takes ``seed`` (drawn when
absent and said in the answer) and ``min_moves``.  The answers are those of ``levelgen hint
--json`` and ``levelgen shuffle --json``; ``lost``, ``impossible`` and ``undecided`` are
verdicts (200), not errors."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...formats import MAX_SEED
from ...puzzles import DEFAULT_GAME
from ..deps import json_bytes, limits_of, run_task
from ..models import EXAMPLE_LEVEL, HintAnswer, ShuffleAnswer
from ..problems import problem_responses
from ..tasks import task_hint, task_shuffle
from .check import document_body

router = APIRouter(prefix="/v1", tags=["play"])

EXAMPLE_POSITION = {
    "$schema": "urn:levelgen:schema:position:v1",
    "game": DEFAULT_GAME,
    "format_version": 1,
    "level": EXAMPLE_LEVEL,
    "played": [{"a": [1, 0], "b": [2, 0]}],
}
_EXAMPLES = {
    "position": {"summary": "A game in progress", "value": EXAMPLE_POSITION},
    "level": {"summary": "A level at its start", "value": EXAMPLE_LEVEL},
    "envelope": {
        "summary": "A position with options",
        "value": {"position": EXAMPLE_POSITION, "time_limit": 2, "method": "search"},
    },
}
#: A small snakes-and-ladders level (a ladder from 3 to 14, a snake from 12 to 5).
EXAMPLE_LADDERS = {
    "game": "snakes-ladders",
    "format_version": 1,
    "rules": {"faces": 6, "overshoot": "exact"},
    "board": {"width": 4, "height": 4, "ladders": [[3, 14]], "snakes": [[12, 5]]},
}
_HINT_EXAMPLES = {
    **_EXAMPLES,
    "square": {
        "summary": "Snakes and ladders: the token on square 2, the chance within 5 rolls",
        "value": {"level": EXAMPLE_LADDERS, "square": 2, "within": 5},
    },
}
_SHUFFLE_EXAMPLES = {
    **_EXAMPLES,
    "envelope": {
        "summary": "A position with the shuffle's options",
        "value": {"position": EXAMPLE_POSITION, "seed": 5, "min_moves": 2},
    },
}
_BARE = ("PositionFile", "LevelFile")


@router.post(
    "/hint",
    summary="A safe hint for a game in progress",
    description="Answers what `levelgen hint --json` prints for the game of the position:"
    " Link-up's move proved safe by the rest of a solution (or won / lost / undecided), a"
    " sliding puzzle's next optimal move, the expected rolls left in snakes and ladders.  The"
    " envelope takes the game's own hint options (`HintEnvelope`, one per game).",
    response_class=Response,
    responses={200: {"model": HintAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body(
        "A position or level file, or {position or level, game, time_limit, the game's hint"
        " options}.",
        examples=_HINT_EXAMPLES,
        bare=_BARE,
        envelope="HintEnvelope",
    ),
)
async def hint(request: Request) -> Response:
    result = await run_task(request, task_hint, await request.body(), limits_of(request))
    return json_bytes(result.body)


@router.post(
    "/shuffle",
    summary="A solvable shuffle of the remaining tiles",
    description="Answers what `levelgen shuffle --json` prints, for a game that shuffles"
    " (Link-up): the tiles re-dealt over the same cells as a level file with its solution.",
    response_class=Response,
    responses={200: {"model": ShuffleAnswer}, **problem_responses(400, 413, 422, 429, 503)},
    openapi_extra=document_body(
        "A position or level file, or {position or level, game, seed, min_moves, time_limit}.",
        examples=_SHUFFLE_EXAMPLES,
        bare=_BARE,
        envelope="ShuffleEnvelope",
    ),
)
async def shuffle(request: Request) -> Response:
    seed = secrets.randbelow(MAX_SEED + 1)
    body = await request.body()
    result = await run_task(request, task_shuffle, body, limits_of(request), seed)
    return json_bytes(result.body)
