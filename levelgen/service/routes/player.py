"""``GET /play/{id}``: the browser player page of a stored level.

The page (:func:`levelgen.player.build_player_html`) is self-contained; served here it also
offers safe hints and the solvable shuffle through this service's ``/v1/hint`` and
``/v1/shuffle`` (``LEVELGEN_PUBLIC_URL`` when the service is reached under another address,
else the page's own origin).  Sliding and layered levels play too: the page slides the tiles
and stacks the layers as the core does, and sends its positions with ``rules.slide`` and
``board.layers``, which those endpoints accept."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from ..deps import in_thread, run_task, settings_of, store_of
from ..problems import ProblemError, problem_responses
from ..tasks import task_player
from .levels import LEVEL_ID

router = APIRouter(tags=["player"])


@router.get(
    "/play/{level_id}",
    summary="Play a stored level in the browser",
    response_class=Response,
    responses={
        200: {
            "description": "The player page",
            "content": {"text/html": {"schema": {"type": "string"}}},
        },
        **problem_responses(404, 422, 429, 503),
    },
)
async def play_page(request: Request, level_id: Annotated[str, Path(pattern=LEVEL_ID)]) -> Response:
    text = await in_thread(store_of(request).get_level_text, level_id)
    if text is None:
        raise ProblemError(404, f"no level {level_id} in the library", parameter="level_id")
    api_base = settings_of(request).public_url or ""
    result = await run_task(request, task_player, text, api_base)
    return Response(result.body, media_type="text/html; charset=utf-8")
