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
from typing import TYPE_CHECKING, Annotated

import typer

from .common import EXIT_USAGE, app, fail, read_document

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..service.settings import Settings


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
    settings = service_settings(
        "serve", workers=workers, db=db, api_key_file=api_key_file, grace=grace
    )
    try:
        listener = listen(host, port)
    except OSError as exc:
        fail(EXIT_USAGE, f"levelgen serve: cannot listen on {host}:{port}: {exc.strerror or exc}")
    from ..service.app import create_app

    run_service(create_app(settings), settings, listener)


@app.command()
def edit(
    file: Annotated[
        str | None,
        typer.Argument(help="A level file to open (any game with an editor).", metavar="FILE"),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 0,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL of the library that 'Save to library' writes to (default"
            " sqlite:///levelgen-library.db).",
            metavar="URL",
        ),
    ] = None,
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the page in the browser.")
    ] = True,
) -> None:
    """Open the level editor in the browser: the service on this machine (as
    ``levelgen serve``), the editor page of FILE's game (or of the default game) with FILE
    in it, its URL printed.  Every change is checked by the service (solvable with its
    solution, unsolvable with its proof, or undecided); the page downloads the level with
    its certificate or saves it to the library.  Stop with Ctrl-C.

    Exit codes: 0 stopped; 1 FILE well-formed but invalid; 2 bad options, or a game without
    an editor; 3 FILE unreadable or not a level file.
    """
    from ..formats import format_json
    from ..puzzles import DEFAULT_GAME, Capability

    opened: tuple[str, str] | None = None
    game = DEFAULT_GAME
    if file is not None:
        item, document = read_document(file)
        if Capability.EDIT not in item.capabilities:
            fail(EXIT_USAGE, f"levelgen edit: {file}: game {item.name!r} has no editor")
        game = item.name
        opened = (game, format_json(item.dump(document)))
    settings = service_settings("edit", workers=None, db=db, api_key_file=None, grace=None)
    try:
        listener = listen(host, port)
    except OSError as exc:
        fail(EXIT_USAGE, f"levelgen edit: cannot listen on {host}:{port}: {exc.strerror or exc}")
    from ..service.app import create_app

    application = create_app(settings)
    application.state.edit_document = opened
    url = f"{listening_url(listener)}/edit/{game}"
    typer.echo(f"levelgen edit: {url}  (Ctrl-C stops)")
    if browser:
        import threading
        import webbrowser

        # A console browser may hold the terminal: never wait for it.
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    run_service(application, settings, listener)


def service_settings(
    command: str,
    *,
    workers: int | None,
    db: str | None,
    api_key_file: str | None,
    grace: float | None,
) -> Settings:
    """The service's settings: the ``LEVELGEN_*`` environment with these options over it
    (exit 2 with one line naming the option for a bad value), the library opened once."""
    from pydantic import ValidationError

    from ..library import Store
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
            fail(EXIT_USAGE, f"levelgen {command}: --api-key-file: {exc}")
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        fail(EXIT_USAGE, f"levelgen {command}: {str(exc).splitlines()[0]}")
    try:
        # The library opens (and has its tables) before we listen.
        Store(settings.db, lock_timeout=settings.db_lock_timeout).close()
    except Exception as exc:  # a bad URL, an unreachable server, an unwritable file
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        fail(EXIT_USAGE, f"levelgen {command}: --db: cannot open {settings.db}: {reason}")
    return settings


def run_service(application: FastAPI, settings: Settings, listener: socket.socket) -> None:
    """Serve ``application`` on ``listener`` until SIGTERM or Ctrl-C (then gracefully)."""
    import uvicorn

    from ..service.middleware import guarded_http

    http = guarded_http(
        max_head_bytes=settings.max_header_bytes,
        max_fields=settings.max_header_fields,
        head_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
    )
    application.state.url = listening_url(listener)
    config = uvicorn.Config(
        application,
        http=http,
        access_log=False,
        log_level="warning",
        timeout_graceful_shutdown=settings.shutdown_grace,  # type: ignore[arg-type]
    )
    uvicorn.Server(config).run(sockets=[listener])


def listening_url(listener: socket.socket) -> str:
    """``http://HOST:PORT`` of a listening socket (the port really bound, for --port 0)."""
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    return f"http://{shown}:{bound_port}"


def listen(host: str, port: int) -> socket.socket:
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
