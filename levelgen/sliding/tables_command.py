"""The sliding puzzle's ``levelgen tables`` commands: its pattern databases in the cache folder
(added through the family table, :meth:`SlidingPuzzleFamily.add_table_commands`).

``list`` shows every table file (board size, file, bytes, whether its checksum holds),
``build SIZE`` builds (or reads and checks) the tables of a numbered board of that size ahead
of its first use, saying what it builds and how long it takes, and ``clear [SIZE]`` deletes
the files (of one board size).  The folder is :func:`levelgen.sliding.pdb_cache.cache_dir`
(``$LEVELGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/levelgen``, else ``~/.cache/levelgen``).
"""

from __future__ import annotations

import json
import re
import time
from typing import Annotated

import typer

from ..formats.words import plural

__all__ = ["register"]

#: A usage error (see :mod:`levelgen.cli.common`).
EXIT_USAGE = 2

_SIZE = re.compile(r"([0-9]{1,2})x([0-9]{1,2})")


def _size(text: str) -> tuple[int, int]:
    """``WxH`` of a sliding-puzzle board (2..8 each), or exit 2 naming ``SIZE``."""
    found = _SIZE.fullmatch(text.strip())
    if found is None or not all(2 <= int(v) <= 8 for v in found.groups()):
        typer.echo(
            f"levelgen tables: SIZE: {text!r} is not a board size WxH of 2..8 each", err=True
        )
        raise typer.Exit(EXIT_USAGE)
    return int(found.group(1)), int(found.group(2))


JsonOption = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]


def list_tables(json_output: JsonOption = False) -> None:
    """The table files in the cache folder: board size, file, bytes, checksum (each file is
    read and checked)."""
    from .pdb_cache import cache_dir, cached_tables

    folder = cache_dir()
    found = cached_tables(folder)
    if json_output:
        rows = [
            {
                "size": t.size,
                "file": t.path.name,
                "bytes": t.bytes,
                "entries": t.entries,
                "classes": list(t.classes),
                "checksum_ok": t.ok,
            }
            for t in found
        ]
        typer.echo(json.dumps({"folder": str(folder), "tables": rows}, indent=2))
        return
    typer.echo(f"folder: {folder}")
    if not found:
        typer.echo("no tables cached")
        return
    for t in found:
        state = "checksum ok" if t.ok else "DAMAGED (rebuilt on next use)"
        typer.echo(f"{t.size or '?'}  {t.path.name}  {t.bytes:,} bytes  {state}")
    total = sum(t.bytes for t in found)
    typer.echo(f"{plural(len(found), 'file')}, {total:,} bytes")


def build_tables(
    size: Annotated[str, typer.Argument(help="Board size WxH, e.g. 4x4 or 5x5.", metavar="SIZE")],
) -> None:
    """Build the tables of a numbered board of SIZE (goal: tiles in reading order, the blank
    last) ahead of its first use, or read and check them when cached."""
    from .generate import numbered_goal
    from .pdb_cache import default_store
    from .solver import tables_for

    width, height = _size(size)
    store = default_store()
    before = len(store.events)
    t0 = time.perf_counter()
    built_tables = tables_for(numbered_goal(width, height), store)
    seconds = time.perf_counter() - t0
    events = store.events[before:]
    built = sum(1 for _, state in events if state in ("built", "rebuilt"))
    read = sum(1 for _, state in events if state == "disk")
    kept = sum(1 for _, state in events if state == "memory")
    total = sum(len(t) for t in built_tables)
    folder = store.directory
    on_disk = folder is not None and any((folder / name).exists() for name, _ in events)
    where = f"cached in {folder}" if on_disk else "small: kept in memory"
    count = plural(len(built_tables), "table")
    typer.echo(
        f"{width}x{height}: {count}, {total:,} bytes ({built} built, {read} read from disk,"
        f" {kept} in memory) in {seconds:.1f} s; {where}"
    )


def clear_tables(
    size: Annotated[
        str | None, typer.Argument(help="Only the tables of this board size.", metavar="SIZE")
    ] = None,
) -> None:
    """Delete the table files (of boards of SIZE only, when given); they are built again on
    next use."""
    from .pdb_cache import cache_dir, remove_tables

    if size is not None:
        width, height = _size(size)
        size = f"{width}x{height}"
    removed = remove_tables(size)
    total = sum(t.bytes for t in removed)
    typer.echo(f"removed {plural(len(removed), 'file')} ({total:,} bytes) from {cache_dir()}")


def register(app: typer.Typer) -> None:
    """Add ``list``, ``build`` and ``clear`` to ``levelgen tables``."""
    app.command("list")(list_tables)
    app.command("build")(build_tables)
    app.command("clear")(clear_tables)
