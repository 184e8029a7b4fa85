"""Pattern databases kept between runs: the sliding family's one module that touches files.

A pattern database is built on first use (:func:`levelgen.sliding.native.build_table`) and kept
in memory.  The tables of numbered puzzles of at least :data:`DISK_MIN_ENTRIES` entries are
also written to a per-user cache folder and read from there next time: ``$LEVELGEN_CACHE_DIR``
when set, else ``$XDG_CACHE_HOME/levelgen``, else ``~/.cache/levelgen``.  (A numbered puzzle's
tables depend only on the board and the goal's blank cell, so they recur; a colour puzzle's
depend on its goal pattern, drawn anew for every level, so they stay in memory.)  A numbered
4x4 board's tables (Korf and Felner's 6-6-3 split) are two of 5,765,760 bytes and one of
3,360: about 11.5 MB on disk per goal blank cell, built in about 11 s of CPU each by the
compiled builder the first time (the two side by side on two threads).

Each file is ``sliding-pdb-v1-<key hash>.bin``: a first line ``LGPDB1``, a line of JSON naming
the table (board size, goal, pattern, length), the table, and the SHA-256 of everything before
it.  A file that is missing, short, of another key or whose checksum does not match is built
again and replaced; writing goes through a temporary file renamed over the target, so a reader
never sees half a file, and a folder that cannot be written only costs the rebuild next time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from .native import build_table
from .pdb import Pattern

__all__ = [
    "CACHE_ENV",
    "DISK_MIN_ENTRIES",
    "TableStore",
    "cache_dir",
    "default_store",
]

CACHE_ENV = "LEVELGEN_CACHE_DIR"
#: Numbered puzzles' tables at least this long go to disk too (smaller ones build in
#: milliseconds, even in Python).
DISK_MIN_ENTRIES = 20_000
#: The most table bytes kept in memory (the oldest used go first).
MEMORY_BYTES = 160 * 1024 * 1024
_MAGIC = b"LGPDB1\n"
_FORMAT = 1


def cache_dir() -> Path:
    """The per-user cache folder for pattern databases (see the module docstring)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "levelgen"
    return Path.home() / ".cache" / "levelgen"


def _key(width: int, height: int, goal: bytes, pattern: Pattern) -> dict[str, object]:
    return {
        "format": _FORMAT,
        "size": f"{width}x{height}",
        "goal": goal.hex(),
        "classes": list(pattern.classes),
        "counts": list(pattern.counts),
        "entries": pattern.entries,
    }


class TableStore:
    """Pattern databases by key: from memory, else from ``directory`` (checked), else built
    (and saved when large and numbered).  ``directory`` None keeps everything in memory.
    Safe to call from several threads (the tables of one puzzle are built side by side)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        #: What happened to each table asked for, by file name: ``memory``, ``disk``,
        #: ``built`` or ``rebuilt`` (a bad file replaced); for reports and tests.
        self.events: list[tuple[str, str]] = []

    def __call__(self, width: int, height: int, goal: bytes, pattern: Pattern) -> bytes:
        """The table of ``pattern`` for this board and goal."""
        key = _key(width, height, goal, pattern)
        header = json.dumps(key, sort_keys=True, separators=(",", ":")).encode("ascii")
        name = "sliding-pdb-v1-" + hashlib.sha256(header).hexdigest()[:24] + ".bin"
        with self._lock:
            found = self._memory.get(name)
            if found is not None:
                self._memory.move_to_end(name)
                self.events.append((name, "memory"))
                return found
        numbered = len(set(goal)) == len(goal)
        use_disk = self.directory is not None and numbered and pattern.entries >= DISK_MIN_ENTRIES
        table = None
        state = "built"
        if use_disk:
            assert self.directory is not None
            table, state = _load(self.directory / name, header, pattern.entries)
        if table is None:
            table = build_table(width, height, goal, pattern)
            if use_disk:
                assert self.directory is not None
                _save(self.directory / name, header, table)
        with self._lock:
            self.events.append((name, state))
            self._remember(name, table)
        return table

    def _remember(self, name: str, table: bytes) -> None:
        self._memory[name] = table
        self._bytes += len(table)
        while self._bytes > MEMORY_BYTES and len(self._memory) > 1:
            _, old = self._memory.popitem(last=False)
            self._bytes -= len(old)


def _load(path: Path, header: bytes, entries: int) -> tuple[bytes | None, str]:
    """The table in ``path`` when it is whole and of this key: ``(table, "disk")``; else
    ``(None, "built")`` for a missing file or ``(None, "rebuilt")`` for a bad one."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None, "built"
    except OSError:
        return None, "rebuilt"
    head = _MAGIC + header + b"\n"
    if len(data) != len(head) + entries + 32 or not data.startswith(head):
        return None, "rebuilt"
    body, digest = data[:-32], data[-32:]
    if hashlib.sha256(body).digest() != digest:
        return None, "rebuilt"
    return body[len(head) :], "disk"


def _save(path: Path, header: bytes, table: bytes) -> None:
    """Write the table file atomically; a folder that cannot be written is left alone."""
    body = _MAGIC + header + b"\n" + table
    tmp = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(body)
            handle.write(hashlib.sha256(body).digest())
        os.replace(tmp, path)
        tmp = ""
    except OSError:
        pass
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


_default: TableStore | None = None


def default_store() -> TableStore:
    """The process's store over :func:`cache_dir` (made on first use)."""
    global _default
    if _default is None:
        _default = TableStore(cache_dir())
    return _default
