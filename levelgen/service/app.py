"""The FastAPI application factory of ``levelgen serve``.

``create_app(settings)`` wires the pieces: the library (:class:`~.store.Store`), the bounded
process pool (:class:`~.work.WorkPool`), the routes (one module per resource under
``routes/``), RFC 9457 problem documents for every error, the body size cap, JSON-only writes
(415), request ids and the access log.  The store and the pool are opened in the lifespan (at
start-up) and closed at shutdown: on SIGTERM uvicorn stops accepting and lets running requests
finish within the grace period, then cancels those still running (their tasks stop in the
workers); the pack runner gives its job back and the workers are stopped.

The OpenAPI document (``/openapi.json``, browsable at ``/docs``) describes the files of every
family by their own JSON Schemas, the bodies by the families' option declarations
(:mod:`levelgen.service.openapi`), and every error by the ``Problem`` model.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp

from ..formats.version import VERSION as __version__
from ..library import Store
from .middleware import AccessLog, BodyLimit, JsonWrites, log_event
from .openapi import family_components, mark_levels
from .problems import Problem, install_problem_handlers
from .routes import check, design, edit, health, levels, packs, play, player, rate
from .routes.packs import PackRequest
from .runner import PackRunner
from .settings import Settings
from .work import WorkPool

__all__ = ["create_app"]


def _safe_url(url: str) -> str:
    """``url`` without its password, for the log."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "?"


def _report(event: str, fields: dict[str, Any]) -> None:
    """The library's outages and recoveries, as events of the service's log."""
    log_event(event, **fields)


#: Where the docs page finds Swagger UI: the copy packaged by swagger-ui-bundle, not a CDN.
DOCS_ASSETS = "/docs/assets"


def _serve_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from the package (``swagger-ui-bundle``), so the page works
    offline and behind a firewall; its assets under ``/docs/assets``."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles
    from swagger_ui_bundle import swagger_ui_path

    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="levelgen API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png",
        )


class _Service(FastAPI):
    """FastAPI with the access log around everything, Starlette's 500 handling included (so
    a 500 carries the request id and does not close the connection)."""

    def build_middleware_stack(self) -> ASGIApp:
        return AccessLog(super().build_middleware_stack())


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service for ``settings`` (default: from the ``LEVELGEN_*`` environment)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await run_in_threadpool(
            partial(Store, settings.db, lock_timeout=settings.db_lock_timeout, report=_report)
        )
        pool = WorkPool(
            settings.workers, settings.queue_limit, settings.client_limit, settings.queue_timeout
        )
        await run_in_threadpool(pool.start)
        runner = PackRunner(store, pool, settings.workers, settings.max_time_limit)
        app.state.store, app.state.pool, app.state.runner = store, pool, runner
        runner.start()
        url = getattr(app.state, "url", None)
        log_event("started", url=url, workers=settings.workers, db=_safe_url(settings.db))
        try:
            yield
        finally:
            await runner.stop()
            await run_in_threadpool(pool.shutdown)
            await run_in_threadpool(store.close)
            log_event("stopped")

    app = _Service(
        title="levelgen",
        version=__version__,
        summary="Puzzle levels (Link-up, sliding puzzles, snakes and ladders, and the games a"
        " package adds) with replayable proofs, over HTTP.",
        lifespan=lifespan,
        separate_input_output_schemas=False,
        docs_url=None,
    )
    app.state.settings = settings
    _serve_docs(app)
    install_problem_handlers(app, settings.retry_after)
    routers = (
        levels.router,
        check.router,
        play.router,
        rate.router,
        design.router,
        packs.router,
        player.router,
        edit.router,
        health.router,
    )
    for router in routers:
        app.include_router(router)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(JsonWrites)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                routes=app.routes,
                separate_input_output_schemas=False,
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in (Problem, PackRequest):
                found = model.model_json_schema(
                    by_alias=True, ref_template="#/components/schemas/{model}"
                )
                components.update(found.pop("$defs", {}))
                components[model.__name__] = found
            components.update(family_components())
            app.openapi_schema = mark_levels(schema)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
