"""``/v1/levels``: create a level (stored in the library), fetch one, list and filter them."""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from ...formats import MAX_SEED
from ...library import LevelFilter, Store
from ...puzzles import DEFAULT_GAME
from ..deps import in_thread, json_bytes, require_key, run_task, settings_of, store_of
from ..models import LevelPage
from ..problems import ProblemError, problem_responses
from ..tasks import create_time_limit, task_admit, task_create, task_svg

router = APIRouter(prefix="/v1/levels", tags=["levels"])

LEVEL_ID = r"^sha256:[0-9a-f]{64}$"
_LEVEL_SCHEMA = {"$ref": "#/components/schemas/LevelFile"}


def _level_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _LEVEL_SCHEMA}}}


def level_url(level_id: str) -> str:
    return f"/v1/levels/{level_id}"


def _store_level(store: Store, body: bytes) -> tuple[dict[str, Any], bool]:
    data: dict[str, Any] = json.loads(body)
    return store.put_level(data)


@router.post(
    "",
    status_code=201,
    summary="Create a level and store it in the library",
    description="The options of `levelgen create` as a JSON body, for the game named by"
    f" `game` (default `{DEFAULT_GAME}`): each game's own options, as `CreateRequest` lists"
    " them."
    "  Answers the level file (201 when it is new, 200 when the library already had it:"
    " creation is idempotent).  `time_limit` (seconds, default and most: the server's"
    " maximum): a level not made by then is a 422 and its work is stopped.  Needs the API"
    " key when one is configured.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/CreateRequest"}}
            },
        }
    },
    dependencies=[Depends(require_key)],
    response_class=Response,
    responses={
        200: _level_response("The level, already in the library"),
        201: _level_response("The level, created and stored"),
        **problem_responses(400, 401, 413, 422, 429, 503),
    },
)
async def create_level(request: Request) -> Response:
    drawn = secrets.randbelow(MAX_SEED + 1)
    body = await request.body()
    settings = settings_of(request)
    limit = await in_thread(create_time_limit, body, settings.max_time_limit)
    result = await run_task(request, task_create, body, drawn, settings.max_side, time_limit=limit)
    summary, created = await in_thread(_store_level, store_of(request), result.body)
    headers = {"Location": level_url(summary["id"])}
    return json_bytes(result.body, 201 if created else 200, headers)


@router.get(
    "",
    summary="List and filter the stored levels",
    description="Filters: `game` (a game's name), `size` (WxH),"
    " `max_turns`, `outside`, `band` (difficulty band), `slide` (a sliding rule, `none` for"
    " the classic game), `layers` (1 for flat boards)."
    " Pages in id order; follow `next` for the next page.",
    response_model=LevelPage,
    responses=problem_responses(422, 503),
)
async def list_levels(
    request: Request,
    size: Annotated[str | None, Query(pattern=r"^[0-9]{1,2}x[0-9]{1,2}$")] = None,
    max_turns: Annotated[int | None, Query(ge=0, le=8)] = None,
    outside: bool | None = None,
    band: Annotated[str | None, Query(pattern=r"^(easy|medium|hard|expert)$")] = None,
    slide: Annotated[str | None, Query(pattern=r"^[a-z][a-z-]{0,15}$")] = None,
    layers: Annotated[int | None, Query(ge=1, le=64)] = None,
    game: Annotated[str | None, Query(pattern=r"^[a-z][a-z0-9-]{0,63}$")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    after: Annotated[str | None, Query(pattern=LEVEL_ID)] = None,
) -> dict[str, Any]:
    limit = min(limit, settings_of(request).max_page)
    where = LevelFilter(size, max_turns, outside, band, slide, layers, game)
    store = store_of(request)
    items = await in_thread(lambda: store.list_levels(where, after=after, limit=limit))
    for item in items:
        item["url"] = level_url(item["id"])
    following = None
    if len(items) == limit:
        query = request.url.include_query_params(after=items[-1]["id"])
        following = f"{query.path}?{query.query}"
    return {"items": items, "next": following}


@router.get(
    "/{level_id}.svg",
    summary="A picture of a stored level (SVG)",
    description="The starting board as SVG: a colour and a glyph per kind, walls, holes, and"
    " the ring when paths may use it.",
    response_class=Response,
    responses={
        200: {
            "description": "The picture",
            "content": {"image/svg+xml": {"schema": {"type": "string"}}},
        },
        **problem_responses(404, 422, 429, 503),
    },
)
async def get_level_svg(
    request: Request,
    level_id: Annotated[str, Path(pattern=LEVEL_ID)],
    cell_size: Annotated[int, Query(ge=8, le=128, description="Pixels per cell.")] = 32,
) -> Response:
    text = await in_thread(store_of(request).get_level_text, level_id)
    if text is None:
        raise ProblemError(404, f"no level {level_id} in the library", parameter="level_id")
    result = await run_task(request, task_svg, text, cell_size)
    return Response(result.body, media_type="image/svg+xml")


@router.put(
    "/{level_id}",
    status_code=201,
    summary="Store a level file (verified first) in the library",
    description="The body is a level file of any game with its certificate, whose `id` is the"
    " one in the URL.  It is checked as `levelgen library import` checks a file (structure,"
    " then the solution replayed by its game's verifier: the library keeps only proved"
    " levels) and stored under its id.  Answers its library summary (201 when it is new, 200"
    " when the library already had it).  Needs the API key when one is configured.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _LEVEL_SCHEMA}},
        }
    },
    dependencies=[Depends(require_key)],
    response_class=Response,
    responses={
        200: {"description": "The level was already in the library"},
        201: {"description": "The level, checked and stored"},
        **problem_responses(400, 401, 413, 422, 429, 503),
    },
)
async def put_level(request: Request, level_id: Annotated[str, Path(pattern=LEVEL_ID)]) -> Response:
    result = await run_task(request, task_admit, level_id, await request.body())
    summary, created = await in_thread(_store_level, store_of(request), result.body)
    headers = {"Location": level_url(summary["id"])}
    return JSONResponse(summary, 201 if created else 200, headers)


@router.get(
    "/{level_id}",
    summary="A stored level",
    response_class=Response,
    responses={
        200: _level_response("The level file"),
        **problem_responses(404, 422, 503),
    },
)
async def get_level(request: Request, level_id: Annotated[str, Path(pattern=LEVEL_ID)]) -> Response:
    data = await in_thread(store_of(request).get_level, level_id)
    if data is None:
        raise ProblemError(404, f"no level {level_id} in the library", parameter="level_id")
    return JSONResponse(data)
