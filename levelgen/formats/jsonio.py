"""JSON files as every family reads and writes them: defensive reading, canonical writing.

Reading is defensive, since files come from anywhere.  A file is refused, with a
:class:`ReadError` whose problems carry a JSON pointer and a reason, when it is missing or
unreadable, larger than ``MAX_FILE_BYTES``, empty, not UTF-8, not JSON, or when its JSON has a
duplicate key, ``NaN`` / ``Infinity`` (or a number too large to be one), an absurdly long
integer, or nesting deeper than ``MAX_DEPTH``.  ``-`` names standard input / output.

Writing is canonical.  ``format_json`` gives deterministic bytes for a value (two-space
indent, arrays of numbers kept on one line, a trailing newline), so the same document always
makes the same file.  ``write_output`` is the one writer of every command's ``-o``: a regular
file gets a temporary file in its directory renamed over it with ``os.replace`` (a reader sees
the old file or the new one, never half of one, and a failed write leaves nothing behind); a
symbolic link is written through to its target; a device or FIFO is written in place and
stays what it is.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from .problems import Problem

__all__ = [
    "JSON_SCHEMA_DIALECT",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_SEED",
    "STDIO",
    "ReadError",
    "WriteError",
    "format_json",
    "parse_json",
    "read_bytes",
    "read_json",
    "read_text",
    "write_output",
    "write_text",
]

#: The JSON Schema dialect of every schema levelgen writes (``$schema`` of ``schemas/*.json``).
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The largest seed: seeds stay below 2**53 so that every JSON reader (JavaScript too) keeps
#: them exact.
MAX_SEED = 2**53 - 1
#: The largest file read, in bytes (4 MiB; a 64x64 level with its solution is about 210 KiB).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: The deepest nesting of arrays and objects accepted (a level file needs 5).
MAX_DEPTH = 16
#: The name that means standard input (reading) or standard output (writing).
STDIO = "-"
#: Integers longer than this many digits are refused before Python converts them.
_MAX_INT_DIGITS = 40
_LINE_WIDTH = 100


class ReadError(ValueError):
    """A file that cannot be read as a level: ``source`` names it, ``problems`` say where in it
    (a JSON pointer, ``""`` for the whole file) and why.  ``is_format`` is True when the file
    is JSON but not a level file (schema problems), False when it could not be read as JSON."""

    def __init__(self, source: str, problems: list[Problem], *, is_format: bool = False) -> None:
        self.source = source
        self.problems = tuple(problems)
        self.is_format = is_format
        super().__init__(f"{source}: " + "; ".join(str(p) for p in self.problems))


class WriteError(OSError):
    """A file that could not be written; nothing was left half-written."""


# ----- reading ----------------------------------------------------------------------------------


def read_bytes(source: str | Path, *, max_bytes: int = MAX_FILE_BYTES, what: str = "file") -> bytes:
    """The bytes of ``source`` (``"-"``: standard input), at most ``max_bytes``.

    Raises ``ReadError`` for a missing, unreadable, oversized or empty file."""
    name = str(source)
    try:
        if name == STDIO:
            data = _read_capped(sys.stdin.buffer, max_bytes)
        else:
            path = Path(source)
            size = path.stat().st_size
            if path.is_file() and size > max_bytes:
                raise _too_big(name, max_bytes, what, f"{size} bytes")
            with path.open("rb") as handle:
                data = _read_capped(handle, max_bytes)
    except FileNotFoundError:
        raise ReadError(name, [Problem("", f"no such {what}")]) from None
    except IsADirectoryError:
        raise ReadError(name, [Problem("", f"is a directory, not a {what}")]) from None
    except PermissionError:
        raise ReadError(name, [Problem("", "permission denied")]) from None
    except OSError as exc:
        raise ReadError(name, [Problem("", f"cannot read: {exc.strerror or exc}")]) from None
    if len(data) > max_bytes:
        raise _too_big(name, max_bytes, what, None)
    if not data.strip():
        raise ReadError(name, [Problem("", f"the {what} is empty")])
    return data


def _read_capped(handle: BinaryIO, max_bytes: int) -> bytes:
    return handle.read(max_bytes + 1)


def _too_big(name: str, max_bytes: int, what: str, size: str | None) -> ReadError:
    """``the level file is larger than the cap of 4 MiB`` (``: 5000000 bytes`` when known;
    a stream is read no further than the cap)."""
    cap = _format_bytes(max_bytes)
    told = f": {size}" if size is not None else ""
    return ReadError(name, [Problem("", f"the {what} is larger than the cap of {cap}{told}")])


def _format_bytes(n: int) -> str:
    if n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MiB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


def read_text(source: str | Path, *, max_bytes: int = MAX_FILE_BYTES, what: str = "file") -> str:
    """The text of ``source`` decoded as UTF-8 (a leading byte order mark is dropped).

    Raises ``ReadError`` as :func:`read_bytes` does, and for bytes that are not UTF-8."""
    data = read_bytes(source, max_bytes=max_bytes, what=what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(
            str(source),
            [Problem("", f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start}")],
        ) from None


def read_json(source: str | Path) -> object:
    """The JSON value of ``source``; ``ReadError`` when it is not acceptable JSON (see the
    module docstring)."""
    return parse_json(read_text(source), str(source))


@dataclass(frozen=True, slots=True)
class _Flaw:
    """A value the JSON parser met that must be refused; found (with its place) after parsing."""

    reason: str


class _Object(dict[str, Any]):
    """A JSON object that had a duplicate key (the first one is recorded)."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            flawed = _Object(pairs)
            flawed.duplicate = key
            return flawed
        out[key] = value
    return out


def _constant(name: str) -> _Flaw:
    return _Flaw(f"{name} is not allowed: JSON numbers must be finite")


def _float(text: str) -> float | _Flaw:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        return _Flaw(f"the number {text[:30]} is too large")
    return value


def _int(text: str) -> int | _Flaw:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        return _Flaw(f"an integer of {len(text.lstrip('-'))} digits is too long")
    return int(text)


def parse_json(text: str, source: str = "<text>") -> object:
    """Parse ``text`` as strict JSON (see the module docstring); ``ReadError`` naming the
    place (a JSON pointer, or a line and column for syntax errors) and the reason."""
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_constant,
            parse_float=_float,
            parse_int=_int,
        )
    except json.JSONDecodeError as exc:
        raise ReadError(
            source, [Problem("", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")]
        ) from None
    except RecursionError:
        raise ReadError(source, [Problem("", _too_deep())]) from None
    flaw = _first_flaw(value)
    if flaw is not None:
        pointer, reason = flaw
        raise ReadError(source, [Problem(pointer, reason)])
    return value


def _too_deep() -> str:
    return f"arrays and objects are nested deeper than the limit of {MAX_DEPTH}"


def _first_flaw(value: object) -> tuple[str, str] | None:
    """The first refused value of a parsed document, as (pointer, reason), or None.

    Iterative, so no document can exhaust the stack here; the walk is depth first in document
    order, and visits only the values that can be or hold a flaw (objects, arrays and the
    flaws themselves: the numbers and strings of a large level are most of it)."""
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        node, pointer, depth = stack.pop()
        if isinstance(node, _Flaw):
            return pointer, node.reason
        if not isinstance(node, dict | list):
            continue  # the document itself may be a plain value
        if depth >= MAX_DEPTH:
            return pointer, _too_deep()
        if isinstance(node, _Object):
            key = node.duplicate
            return f"{pointer}/{_escape(key)}", f"duplicate key {key!r}"
        items: Iterable[tuple[object, object]] = (
            node.items() if isinstance(node, dict) else enumerate(node)
        )
        children = [
            (v, f"{pointer}/{_escape(str(k))}", depth + 1)
            for k, v in items
            if isinstance(v, dict | list | _Flaw)
        ]
        stack.extend(reversed(children))
    return None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


# ----- writing ----------------------------------------------------------------------------------


def format_json(value: object) -> str:
    """``value`` as indented JSON with a trailing newline: objects one member per line, arrays
    of scalars on one line, other arrays on one line when they fit in 100 columns."""
    return "".join(_format(value, 0, 0)) + "\n"


def _format(value: object, indent: int, column: int) -> Iterator[str]:
    """Lines of ``value`` nested ``indent`` spaces deep, its first line starting at ``column``.
    A container goes on one line when it is an array of scalars, or when it is at most three
    deep and its one-line form fits (only then is that form written out, to be measured)."""
    if not isinstance(value, dict | list) or not value:
        yield _flat(value)
        return
    if isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        yield _flat(value)
        return
    if _depth_at_most(value, 3):
        flat = _flat(value)
        if column + len(flat) <= _LINE_WIDTH:
            yield flat
            return
    inner = indent + 2
    items: list[tuple[str, object]]
    if isinstance(value, dict):
        items = [(json.dumps(k, ensure_ascii=False) + ": ", v) for k, v in value.items()]
        open_, close = "{", "}"
    else:
        items = [("", v) for v in value]
        open_, close = "[", "]"
    yield open_ + "\n"
    for i, (prefix, item) in enumerate(items):
        yield " " * inner + prefix
        yield from _format(item, inner, inner + len(prefix))
        yield ",\n" if i < len(items) - 1 else "\n"
    yield " " * indent + close


def _flat(value: object) -> str:
    """``value`` on one line."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def _depth_at_most(value: object, limit: int) -> bool:
    """Whether ``value`` nests at most ``limit`` containers deep (a scalar is 0 deep)."""
    if isinstance(value, dict):
        children: Iterable[object] = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return True
    return limit > 0 and all(_depth_at_most(v, limit - 1) for v in children)


def write_text(text: str, target: str | Path, *, replace: bool = True) -> None:
    """Write ``text`` (UTF-8) to ``target`` as :func:`write_output` does."""
    write_output(text.encode("utf-8"), target, replace=replace)


def write_output(data: bytes, target: str | Path, *, replace: bool = True) -> None:
    """Write ``data`` to ``target``, the one writer behind every ``-o``.

    ``"-"`` is standard output.  A symbolic link is written through to the file it names (as
    ``cp`` and ``sort -o`` do), never replaced by a file.  A regular file (or a new name) is
    written atomically: a temporary file in the same directory, flushed and synced, then renamed
    over the target (keeping the permission bits of the file it replaces) or, when ``replace``
    is false, linked to the name, which fails if it exists (no race).  Anything else that exists
    there, a device such as ``/dev/null``, a FIFO or a socket, is opened and written in place,
    so it stays what it is.  ``WriteError`` on failure, with no temporary file left behind."""
    if str(target) == STDIO:
        try:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            raise  # the reader went away: the edge exits quietly
        except OSError as exc:
            raise WriteError(f"cannot write to standard output: {exc.strerror or exc}") from None
        return
    named = Path(target)
    path = Path(os.path.realpath(named)) if named.is_symlink() else named
    try:
        status = path.stat()
    except FileNotFoundError:
        status = None
    except OSError as exc:
        raise WriteError(f"cannot write {named}: {exc.strerror or exc}") from None
    if status is not None and not replace:
        raise WriteError(f"{named} exists; not replaced")
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise WriteError(f"cannot write {named}: it is a directory")
    if status is not None and not stat.S_ISREG(status.st_mode):
        _write_in_place(data, path, named)
    else:
        _write_atomically(data, path, named, replace=replace)


def _write_in_place(data: bytes, path: Path, named: Path) -> None:
    """Write ``data`` into the device, FIFO or socket at ``path`` (a FIFO waits for its
    reader, as any writer's would)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise WriteError(f"cannot write {named}: {exc.strerror or exc}") from None


def _write_atomically(data: bytes, path: Path, named: Path, *, replace: bool) -> None:
    """Write ``data`` to the regular file ``path`` through a temporary sibling and a rename."""
    import tempfile  # here, not at the top: reading (the quick path of verify) never needs it

    tmp_name = ""
    try:
        mode = _new_file_mode(path)
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        if replace:
            os.replace(tmp_name, path)
        else:
            _link_new(tmp_name, path)
        tmp_name = ""
    except FileExistsError:
        raise WriteError(f"{named} exists; not replaced") from None
    except OSError as exc:
        raise WriteError(f"cannot write {named}: {exc.strerror or exc}") from None
    finally:
        if tmp_name:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _link_new(tmp_name: str, path: Path) -> None:
    """Give the finished temporary file the name ``path`` only if nothing has it
    (``FileExistsError`` otherwise); where hard links are not supported, an exclusive create
    reserves the name before the rename."""
    try:
        os.link(tmp_name, path)
    except FileExistsError:
        raise
    except OSError:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.replace(tmp_name, path)
        return
    os.unlink(tmp_name)


def _new_file_mode(path: Path) -> int:
    """The permission bits for the written file: those of the file it replaces, else the
    usual ``0o666`` less the process umask."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
