"""Pattern databases kept between runs: the sliding family's one module that touches files.

A pattern database is built on first use (:func:`levelgen.sliding.native.build_table`) and kept
in memory.  The tables of numbered puzzles of at least :data:`DISK_MIN_ENTRIES` entries are
also written to a per-user cache folder and read from there next time: ``$LEVELGEN_CACHE_DIR``
when set, else ``$XDG_CACHE_HOME/levelgen``, else ``~/.cache/levelgen``.  (A numbered puzzle's
tables depend only on the board and the goal's blank cell, so they recur; a colour puzzle's
depend on its goal pattern, drawn anew for every level, so they stay in memory.)  A numbered
4x4 board's tables (Korf and Felner's 6-6-3 split) are two of 5,765,760 bytes and one of
3,360: about 11.5 MB on disk per goal blank cell, built in about 11 s of CPU each by the
compiled builder the first time (the two side by side on two threads); a numbered 5x5 board's
(Korf and Felner's 6-6-6-6 split) are four of 127,512,000 bytes, 510 MB per goal blank cell.
A large table is announced through the store's ``report`` before it is built and when done
(the default store writes those lines on standard error); ``should_stop`` stops a build
(:class:`levelgen.sliding.pdb.TablesStopped`, nothing kept).  :func:`cached_tables` and
:func:`remove_tables` serve ``levelgen tables``.

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
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .native import build_table
from .pdb import Pattern, TablesStopped

__all__ = [
    "CACHE_ENV",
    "DISK_MIN_ENTRIES",
    "REPORT_SECONDS",
    "CachedTable",
    "TableStore",
    "TablesStopped",
    "build_estimate",
    "cache_dir",
    "cached_tables",
    "default_store",
    "remove_tables",
]

CACHE_ENV = "LEVELGEN_CACHE_DIR"
#: Numbered puzzles' tables at least this long go to disk too (smaller ones build in
#: milliseconds, even in Python).
DISK_MIN_ENTRIES = 20_000
#: The most table bytes kept in memory (the oldest used go first).
MEMORY_BYTES = 640 * 1024 * 1024
_MAGIC = b"LGPDB1\n"
_FORMAT = 1
#: Tables whose build is estimated at this many seconds or more (:func:`build_estimate`) are
#: announced (what is built, about how long) before they are built, and again when done,
#: through the store's ``report``.
REPORT_SECONDS = 0.5
#: States (placements times cells) the compiled builder goes through in a second on one idle
#: core, for the estimate it announces (a 6-tile 4x4 table: 92 million states, about 11 s).
STATES_PER_SECOND = 8_000_000


def build_estimate(cells: int, entries: int) -> float:
    """About how many seconds of one idle core the compiled builder takes for a table of
    ``entries`` placements on a board of ``cells`` cells."""
    return entries * cells / STATES_PER_SECOND


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

    def __init__(self, directory: Path | None, report: Callable[[str], None] | None = None) -> None:
        self.directory = directory
        #: Told, in one line, about each large table built (before and after).
        self.report = report
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._sizes: dict[str, str] = {}
        #: What happened to each table asked for, by file name: ``memory``, ``disk``,
        #: ``built`` or ``rebuilt`` (a bad file replaced); for reports and tests.
        self.events: list[tuple[str, str]] = []

    #: The solver passes its budget's ``should_stop`` to a source that says it takes one.
    accepts_should_stop = True

    def __call__(
        self,
        width: int,
        height: int,
        goal: bytes,
        pattern: Pattern,
        *,
        should_stop: Callable[[], bool] | None = None,
    ) -> bytes:
        """The table of ``pattern`` for this board and goal; :class:`TablesStopped` when
        ``should_stop`` said to stop while it was being built."""
        header, name = _header(width, height, goal, pattern)
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
            table = self._build(width, height, goal, pattern, should_stop)
            if use_disk:
                assert self.directory is not None
                _save(self.directory / name, header, table)
        with self._lock:
            self.events.append((name, state))
            self._sizes[name] = f"{width}x{height}"
            self._remember(name, table)
        return table

    def has(self, width: int, height: int, goal: bytes, pattern: Pattern) -> bool:
        """Whether the table of ``pattern`` is at hand without building it: in memory, or a
        file of its name in the cache folder (checked only when read)."""
        _, name = _header(width, height, goal, pattern)
        with self._lock:
            if name in self._memory:
                return True
        return self.directory is not None and (self.directory / name).is_file()

    def _build(
        self,
        width: int,
        height: int,
        goal: bytes,
        pattern: Pattern,
        should_stop: Callable[[], bool] | None,
    ) -> bytes:
        seconds = build_estimate(width * height, pattern.entries)
        loud = self.report is not None and seconds >= REPORT_SECONDS
        tiles = ",".join(str(c) for c in pattern.classes)
        what = f"the {width}x{height} pattern database of tile classes {tiles}"
        if loud:
            assert self.report is not None
            where = f"then read from {self.directory}" if self.directory else "kept in memory"
            self.report(
                f"building {what} ({pattern.entries:,} bytes, about {_duration(seconds)} of"
                f" one core; once, {where})"
            )
        t0 = time.perf_counter()
        table = build_table(width, height, goal, pattern, should_stop)
        if table is None:
            if loud:
                assert self.report is not None
                self.report(f"stopped building {what}: out of time")
            raise TablesStopped(what)
        if loud:
            assert self.report is not None
            self.report(f"built {what} in {_duration(time.perf_counter() - t0)}")
        return table

    def forget(self, size: str | None = None) -> None:
        """Drop the tables kept in memory (of board ``size`` only, when given)."""
        with self._lock:
            for name in list(self._memory):
                if size is None or self._sizes.get(name) == size:
                    self._bytes -= len(self._memory.pop(name))

    def _remember(self, name: str, table: bytes) -> None:
        self._memory[name] = table
        self._bytes += len(table)
        while self._bytes > MEMORY_BYTES and len(self._memory) > 1:
            _, old = self._memory.popitem(last=False)
            self._bytes -= len(old)


def _header(width: int, height: int, goal: bytes, pattern: Pattern) -> tuple[bytes, str]:
    """The header line of a table's file and the file's name."""
    key = _key(width, height, goal, pattern)
    header = json.dumps(key, sort_keys=True, separators=(",", ":")).encode("ascii")
    return header, "sliding-pdb-v1-" + hashlib.sha256(header).hexdigest()[:24] + ".bin"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(seconds, 0.1):.1f} s" if seconds < 10 else f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"


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


def _to_stderr(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"levelgen: {line}", file=sys.stderr, flush=True)


def default_store() -> TableStore:
    """The process's store over :func:`cache_dir` (made on first use), announcing the large
    tables it builds on standard error."""
    global _default
    if _default is None:
        _default = TableStore(cache_dir(), _to_stderr)
    return _default


@dataclass(frozen=True, slots=True)
class CachedTable:
    """One table file of the cache folder: its ``path``, the board ``size`` (``WxH``), the
    tile ``classes`` of its pattern, its ``entries``, the file's ``bytes`` and whether it is
    whole (``ok``: the header readable and the checksum right)."""

    path: Path
    size: str | None
    classes: tuple[int, ...]
    entries: int | None
    bytes: int
    ok: bool


def cached_tables(directory: Path | None = None) -> list[CachedTable]:
    """Every table file in ``directory`` (the cache folder by default), by name, each read
    and checked."""
    folder = cache_dir() if directory is None else directory
    try:
        paths = sorted(folder.glob("sliding-pdb-v1-*.bin"))
    except OSError:
        return []
    return [_inspect(path) for path in paths]


def _inspect(path: Path) -> CachedTable:
    try:
        data = path.read_bytes()
    except OSError:
        return CachedTable(path, None, (), None, 0, False)
    size: str | None = None
    classes: tuple[int, ...] = ()
    entries: int | None = None
    ok = False
    if data.startswith(_MAGIC):
        end = data.find(b"\n", len(_MAGIC))
        try:
            key = json.loads(data[len(_MAGIC) : end]) if end > 0 else None
        except ValueError:
            key = None
        if isinstance(key, dict):
            size = str(key.get("size"))
            classes = tuple(int(c) for c in key.get("classes", ()))
            entries = int(key.get("entries", 0))
            whole = len(data) == end + 1 + entries + 32
            ok = whole and hashlib.sha256(data[:-32]).digest() == data[-32:]
    return CachedTable(path, size, classes, entries, len(data), ok)


def remove_tables(size: str | None = None, directory: Path | None = None) -> list[CachedTable]:
    """Delete the table files of board ``size`` (``WxH``; every file when None, damaged ones
    too) from ``directory`` (the cache folder by default); the files deleted."""
    removed = []
    for table in cached_tables(directory):
        if size is not None and table.size != size:
            continue
        with contextlib.suppress(FileNotFoundError):
            table.path.unlink()
        removed.append(table)
    if _default is not None:
        _default.forget(size)
    return removed
