"""Level files of the Link-up family: reading them into core levels, writing them canonically.

The JSON handling itself (defensive reading, canonical formatting, the one writer) is
:mod:`levelgen.formats.jsonio`, shared by every family; its names are re-exported here.  A level
must be a level file of format v1 (:func:`levelgen.linkup.schema.parse_level_data`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..formats.jsonio import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    STDIO,
    ReadError,
    WriteError,
    format_json,
    parse_json,
    read_bytes,
    read_json,
    read_text,
    write_output,
    write_text,
)
from .core.level import Level
from .verify import Problem

if TYPE_CHECKING:
    from .schema import LevelFile

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "STDIO",
    "ReadError",
    "WriteError",
    "core_level_from_data",
    "format_json",
    "format_level",
    "parse_json",
    "read_bytes",
    "read_core_level",
    "read_json",
    "read_level",
    "read_text",
    "write_level",
    "write_output",
    "write_text",
]


def read_level(source: str | Path) -> LevelFile:
    """The level file ``source``.  ``ReadError`` when it cannot be read, is not JSON, or is not
    a level file of format v1 (then ``is_format`` is True)."""
    from .schema import LevelFormatError, parse_level_data

    data = read_json(source)
    try:
        return parse_level_data(data)
    except LevelFormatError as exc:
        raise ReadError(str(source), list(exc.problems), is_format=True) from None


def read_core_level(
    source: str | Path, *, content: bool = True
) -> tuple[Level | None, list[Problem]]:
    """The core level of the file ``source`` and what is wrong with it: when ``content``, an
    odd number of tiles of a kind or a stale ``id`` (the level is still given), and a solution
    path that is not straight lines (then the level is None).  ``ReadError`` as
    :func:`read_level`.  A plain classic level is read without pydantic
    (:func:`levelgen.linkup.schema.quick.quick_level`); anything else goes through the models."""
    return core_level_from_data(read_json(source), str(source), content=content)


def core_level_from_data(
    data: object, source: str = "<data>", *, content: bool = True
) -> tuple[Level | None, list[Problem]]:
    """:func:`read_core_level` of JSON data already read (``source`` names it in errors)."""
    from .schema.quick import id_problems, odd_kind_problems, quick_level

    quick = quick_level(data)
    if quick is not None:
        level, level_id = quick
        if not content:
            return level, []
        problems = odd_kind_problems([("/board/rows", level.board.grid())])
        return level, problems + id_problems(level_id, level.board, level.rules)
    from .schema import LevelFormatError, level_problems, parse_level_data

    try:
        file = parse_level_data(data)
    except LevelFormatError as exc:
        raise ReadError(source, list(exc.problems), is_format=True) from None
    problems = level_problems(file) if content else []
    try:
        return file.to_core(), problems
    except LevelFormatError as exc:
        return None, [*problems, *exc.problems]


def format_level(level: Level | LevelFile) -> str:
    """The canonical text of a level file (deterministic, ending with a newline)."""
    from .schema import LevelFile

    file = level if isinstance(level, LevelFile) else LevelFile.from_core(level)
    return format_json(file.to_data())


def write_level(level: Level | LevelFile, target: str | Path, *, replace: bool = True) -> str:
    """Write ``level`` canonically to ``target`` (``"-"``: standard output), atomically.
    Returns the text written; ``WriteError`` when it could not be written (nothing is left
    half-written) or when ``replace`` is false and ``target`` exists."""
    text = format_level(level)
    write_text(text, target, replace=replace)
    return text
