"""``GET /edit`` and ``GET /edit/{game}``: the level editor in the browser.

Each game with an editor (:attr:`levelgen.puzzles.Capability.EDIT`) has a page
(:func:`levelgen.player.editor.build_editor_html`) that checks every change through this
service's public API (``/v1/solve``, ``/v1/rate``, ``/v1/hint``, ``/v1/fix``...), opens stored
levels (``GET /v1/levels/{id}``) and saves proved ones (``PUT /v1/levels/{id}``).  ``/edit``
goes to the editor of the level ``levelgen edit FILE`` opened, else to the default game's.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import RedirectResponse, Response

from ...puzzles import DEFAULT_GAME
from ..deps import run_task, settings_of
from ..problems import problem_responses
from ..tasks import task_editor

router = APIRouter(tags=["editor"])

_HTML = {"description": "The editor page", "content": {"text/html": {"schema": {"type": "string"}}}}


def _opened(request: Request) -> tuple[str, str] | None:
    """``(game, file text)`` of the level ``levelgen edit FILE`` opened, or None."""
    opened: tuple[str, str] | None = getattr(request.app.state, "edit_document", None)
    return opened


@router.get(
    "/edit",
    summary="The level editor",
    response_class=RedirectResponse,
    status_code=307,
    responses={307: {"description": "To the editor of the opened level's game, or the default"}},
)
async def edit_index(request: Request) -> RedirectResponse:
    opened = _opened(request)
    game = opened[0] if opened else DEFAULT_GAME
    return RedirectResponse(f"edit/{game}", status_code=307)


@router.get(
    "/edit/{game}",
    summary="The level editor of one game",
    response_class=Response,
    responses={200: _HTML, **problem_responses(404, 429, 503)},
)
async def edit_page(
    request: Request, game: Annotated[str, Path(pattern=r"^[a-z][a-z0-9-]{0,63}$")]
) -> Response:
    opened = _opened(request)
    text = opened[1] if opened and opened[0] == game else None
    api_base = settings_of(request).public_url or ""
    result = await run_task(request, task_editor, game, text, api_base)
    return Response(result.body, media_type="text/html; charset=utf-8")
