"""``levelgen serve``: run the HTTP service (FastAPI on uvicorn) on one port.

The options win over the ``LEVELGEN_*`` environment (see
:class:`levelgen.service.settings.Settings`).  ``--workers`` is the number of processes of the
pool that runs the CPU work (one uvicorn event loop feeds them).  On SIGTERM or Ctrl-C the
server stops accepting, lets running requests finish within ``--grace`` seconds, answers those
still running 503 (their tasks stop), gives the pack job back (queued) and ends the workers.
Requests are read through :func:`levelgen.service.middleware.guarded_http`: limits on request
heads (431) and deadlines on reading them and their bodies (408).
"""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from .common import EXIT_USAGE, app, fail


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="Worker processes for solving and generating."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL of the library (default sqlite:///levelgen-library.db).",
            metavar="URL",
        ),
    ] = None,
    api_key_file: Annotated[
        str | None,
        typer.Option(
            "--api-key-file",
            help="File holding the API key that writes need (else LEVELGEN_API_KEY).",
            metavar="FILE",
        ),
    ] = None,
    grace: Annotated[
        float | None,
        typer.Option(min=0.0, help="Seconds running requests get to finish at shutdown."),
    ] = None,
) -> None:
    """Run the HTTP service: levels, verify, solve, hints, shuffles, packs and the library.

    The "started" line of the log (JSON on standard error) gives the URL it listens on, with
    the port really bound (so --port 0 can be found).

    OpenAPI at /openapi.json, docs at /docs.  Exit codes: 0 stopped; 2 bad option values.
    """
    import uvicorn
    from pydantic import ValidationError

    from ..library import Store
    from ..service.app import create_app
    from ..service.middleware import guarded_http
    from ..service.settings import Settings, read_api_key_file

    overrides: dict[str, object] = {}
    if workers is not None:
        overrides["workers"] = workers
    if db is not None:
        overrides["db"] = db
    if grace is not None:
        overrides["shutdown_grace"] = grace
    if api_key_file is not None:
        try:
            overrides["api_key"] = read_api_key_file(api_key_file)
        except ValueError as exc:
            fail(EXIT_USAGE, f"levelgen serve: --api-key-file: {exc}")
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        fail(EXIT_USAGE, f"levelgen serve: {str(exc).splitlines()[0]}")
    try:
        # The library opens (and has its tables) before we listen.
        Store(settings.db, lock_timeout=settings.db_lock_timeout).close()
    except Exception as exc:  # a bad URL, an unreachable server, an unwritable file
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        fail(EXIT_USAGE, f"levelgen serve: --db: cannot open {settings.db}: {reason}")
    http = guarded_http(
        max_head_bytes=settings.max_header_bytes,
        max_fields=settings.max_header_fields,
        head_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
    )
    try:
        listener = _listen(host, port)
    except OSError as exc:
        fail(EXIT_USAGE, f"levelgen serve: cannot listen on {host}:{port}: {exc.strerror or exc}")
    application = create_app(settings)
    # The "started" line says where the service listens: the port really bound (--port 0).
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    application.state.url = f"http://{shown}:{bound_port}"
    config = uvicorn.Config(
        application,
        http=http,
        access_log=False,
        log_level="warning",
        timeout_graceful_shutdown=settings.shutdown_grace,  # type: ignore[arg-type]
    )
    uvicorn.Server(config).run(sockets=[listener])


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (port 0: one the system picks), as uvicorn would
    bind it (address reuse, IPv6 when the host is one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener
