"""The level library: a durable store of levels (and, with packs, pack jobs) on SQLAlchemy 2.0.

One :class:`Store` per process owns an engine made from a URL: SQLite by default (a file, in
WAL mode so readers never wait for the writer), or any SQLAlchemy URL such as
``postgresql://user@/db?host=/run/postgresql`` so that several service replicas share one
library (``postgresql://`` URLs use the psycopg 3 driver).  Tables are created when missing.

Levels are stored by their content id (``sha256:`` of board and rules): storing the same level
twice keeps one row and says so (``created`` False), which makes creation idempotent even when
two replicas race (the primary key decides; the loser reads the winner's row).  The fields
games filter on (size, rules, difficulty band) are columns with an index; the level itself is
kept as its canonical JSON.  Each call opens and closes its own session (a unit of work).

Waits are bounded: a call waits at most ``lock_timeout`` seconds (:data:`LOCK_TIMEOUT`, 5) for
a lock another writer holds (SQLite's busy timeout, PostgreSQL's ``lock_timeout``) or for a
free pooled connection.  On PostgreSQL, connecting takes at most that long too
(``connect_timeout``), a statement at most twice that (``statement_timeout``), and any wait
for the server's answer at most a second more, after which the client cuts the connection
(:mod:`.bounded`: a frozen server ends nothing itself).  A call the database refuses for a
passing reason (unreachable, restarting, locked past that wait, a full disk, a read-only file
or server, no answer in time: see :mod:`.errors`) raises :class:`LibraryUnavailable`; pooled
connections are checked before use (``pool_pre_ping``), those a lost server cut are replaced,
and all of them are after an error that may stick to a connection (a SQLite file opened while
it was read-only stays so: ``engine.dispose()``), so the store works again by itself once the
database is back.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from ..puzzles import DEFAULT_GAME, family_of
from .errors import LibraryUnavailable, Outage, needs_new_connection, transient_reason

__all__ = [
    "LOCK_TIMEOUT",
    "Base",
    "LevelFilter",
    "LevelRow",
    "LibraryUnavailable",
    "PackJobRow",
    "PackLevelRow",
    "Store",
    "engine_for",
    "level_id_of",
    "level_summary",
]

#: Seconds a call waits for a lock held by another writer or for a free pooled connection
#: before it is refused (:class:`LibraryUnavailable`); shorter than a client's patience.
LOCK_TIMEOUT = 5.0

#: Bytes that must be free on the disk of a SQLite library for it to count as ready.
MIN_FREE = 64 * 1024


def call_bounds(lock_timeout: float) -> tuple[float, float]:
    """A PostgreSQL statement's time limit on the server (``statement_timeout``) and the
    longest wait for any answer of the server before the client cuts the connection, in
    seconds, for a store whose lock waits last ``lock_timeout``."""
    return 2 * lock_timeout, 2 * lock_timeout + 1


class Base(DeclarativeBase):
    pass


class LevelRow(Base):
    """One stored level: the filterable fields as columns, the file as canonical JSON."""

    __tablename__ = "levels"

    id: Mapped[str] = mapped_column(String(71), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), server_default=DEFAULT_GAME, index=True)
    size: Mapped[str] = mapped_column(String(8))
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    max_turns: Mapped[int] = mapped_column(Integer)
    outside: Mapped[bool] = mapped_column(Boolean)
    slide: Mapped[str] = mapped_column(String(16), server_default="none")
    layers: Mapped[int] = mapped_column(Integer, server_default="1")
    tiles: Mapped[int] = mapped_column(Integer)
    kinds: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    band: Mapped[str | None] = mapped_column(String(16), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    #: The family's own fields of the level's summary as JSON (``rules``, ``layers``, ``tiles``,
    #: ``kinds``: those its levels have); NULL in a row written before the column existed.
    facts: Mapped[str | None] = mapped_column(Text, nullable=True)
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_levels_filter", "size", "max_turns", "outside", "band"),
        Index("ix_levels_band", "band"),
    )


class PackJobRow(Base):
    """A pack job: what was asked (the plan's arguments), its state and, when done, the
    manifest.  ``owner`` and ``lease_until`` say which service process is making it: a job
    whose lease ran out (its process died) or whose owner is a dead process on this host is
    taken over and resumed."""

    __tablename__ = "pack_jobs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    client: Mapped[str] = mapped_column(String(128), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    request: Mapped[str] = mapped_column(Text)
    count: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    manifest: Mapped[str | None] = mapped_column(Text, nullable=True)
    pack_id: Mapped[str | None] = mapped_column(String(71), nullable=True, index=True)
    owner: Mapped[str | None] = mapped_column(String(128), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)  # epoch seconds
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PackLevelRow(Base):
    """One finished level of a pack job: its canonical file text (the bytes the manifest's
    SHA-256 is of).  Stored in the same transaction as the level's library row."""

    __tablename__ = "pack_levels"

    job_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    level_id: Mapped[str] = mapped_column(String(71))
    text: Mapped[str] = mapped_column(Text)


@dataclass(frozen=True, slots=True)
class LevelFilter:
    """What ``GET /v1/levels`` and ``levelgen library list`` filter on (None: any)."""

    size: str | None = None
    max_turns: int | None = None
    outside: bool | None = None
    band: str | None = None
    slide: str | None = None
    layers: int | None = None
    game: str | None = None


def engine_for(url: str, *, lock_timeout: float = LOCK_TIMEOUT) -> Engine:
    """An engine for ``url``: SQLite in WAL mode with a busy timeout of ``lock_timeout``
    seconds, PostgreSQL through psycopg 3 with that ``lock_timeout`` and a connect timeout
    (unless the URL sets ``options`` or ``connect_timeout`` itself).  ``ValueError`` for a URL
    SQLAlchemy cannot parse."""
    try:
        parsed = make_url(url)
    except Exception as exc:  # sqlalchemy.exc.ArgumentError and friends
        raise ValueError(f"not a database URL: {url!r}") from exc
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    millis = max(1, round(lock_timeout * 1000))
    if parsed.get_backend_name() != "sqlite":
        connect: dict[str, Any] = {}
        postgresql = parsed.get_backend_name() == "postgresql"
        statement, answer = call_bounds(lock_timeout)
        if postgresql:
            if "connect_timeout" not in parsed.query:
                connect["connect_timeout"] = max(2, math.ceil(lock_timeout))
            if "options" not in parsed.query:
                connect["options"] = (
                    f"-c lock_timeout={millis} -c statement_timeout={round(statement * 1000)}"
                )
        engine = create_engine(
            parsed, pool_pre_ping=True, pool_timeout=lock_timeout, connect_args=connect
        )
        if postgresql and parsed.get_driver_name() == "psycopg":
            from .bounded import bounded_connection

            connection_class = bounded_connection(answer)

            @event.listens_for(engine, "do_connect")
            def _bounded(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
                return connection_class.connect(*cargs, **cparams)

        return engine
    memory = parsed.database in (None, "", ":memory:")
    pooling: dict[str, Any] = {"pool_timeout": lock_timeout}
    if memory:  # one connection for the whole process: nothing to wait for
        pooling = {"poolclass": StaticPool}
    engine = create_engine(
        parsed,
        connect_args={"check_same_thread": False, "timeout": lock_timeout},
        **pooling,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={millis}")
        cursor.close()

    return engine


#: The fields of a level's summary a family has or not (null in the lists when it has not).
OWN_FIELDS = ("rules", "layers", "tiles", "kinds")


def level_summary(row: LevelRow) -> dict[str, Any]:
    """The list form of a stored level (no board, no solution); the fields its family's levels
    do not have (rules, layers, tiles, kinds: see :meth:`levelgen.puzzles.Family.summary`)
    are null."""
    difficulty = None if row.band is None else {"score": row.score, "band": row.band}
    own = json.loads(row.facts) if row.facts is not None else _own_fields(row.data)
    return {
        "id": row.id,
        "game": row.game,
        "size": row.size,
        **{name: own.get(name) for name in OWN_FIELDS},
        "seed": row.seed,
        "difficulty": difficulty,
        "solved": row.solved,
    }


def _own_fields(data: str) -> dict[str, Any]:
    """The family's own summary fields of a stored file (a row written before the ``facts``
    column existed); none when its family is not known here."""
    try:
        return dict(json.loads(_row_for(json.loads(data)).facts or "{}"))
    except (ValueError, LookupError):  # DocumentError, FamilyError
        return {}


def _row_for(data: dict[str, Any]) -> LevelRow:
    """The row of a level file's JSON value of any game (checked by the caller), from what its
    family says of it (:meth:`levelgen.puzzles.Family.summary`)."""
    item = family_of(data)
    found = item.summary(item.read(data))
    width, height = found.get("width") or 0, found.get("height") or 0
    rules = found.get("rules") or {}
    score, band = found.get("score"), found.get("band")
    return LevelRow(
        id=level_id_of(data),
        game=item.name,
        size=f"{width}x{height}" if width else "",
        width=width,
        height=height,
        max_turns=rules.get("max_turns", 0),
        outside=rules.get("outside", False),
        slide=rules.get("slide", "none"),
        layers=found.get("layers") or 1,
        tiles=found.get("tiles") or 0,
        kinds=found.get("kinds") or 0,
        seed=found.get("seed"),
        band=band if isinstance(band, str) else None,
        score=float(score) if isinstance(score, int | float) and math.isfinite(score) else None,
        solved=bool(found.get("solved")),
        facts=json.dumps({k: found[k] for k in OWN_FIELDS if k in found}, separators=(",", ":")),
        data=json.dumps(data, separators=(",", ":"), ensure_ascii=False),
        created_at=datetime.now(UTC),
    )


def level_id_of(data: dict[str, Any]) -> str:
    """A level's id in the library: its file's ``id``, else ``sha256:`` and the SHA-256 of its
    canonical JSON (a game whose files carry no id)."""
    found = data.get("id")
    if isinstance(found, str):
        return found
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _upgrade_levels(engine: Engine) -> None:
    """Bring an older library up to date: a ``levels`` table without the ``game`` column gets it
    (its levels are of the default game); one made by levelgen 0.2.0, with no ``slide`` and
    ``layers`` columns, gets them, filled (and ``tiles`` and ``kinds``, which counted the bottom
    layer only) from each stored file; one without the ``facts`` column gets it, filled from
    each stored file.  Run once per database; a current table is left alone."""
    columns = {c["name"] for c in inspect(engine).get_columns("levels")}
    if "game" not in columns:
        try:
            with engine.begin() as connection:
                connection.execute(
                    text(
                        "ALTER TABLE levels ADD COLUMN game VARCHAR(64) NOT NULL"
                        f" DEFAULT '{DEFAULT_GAME}'"
                    )
                )
        except Exception:
            if "game" not in {c["name"] for c in inspect(engine).get_columns("levels")}:
                raise
    for names, add in ((("slide", "layers"), _add_variant_columns), (("facts",), _add_facts)):
        if set(names) <= columns:
            continue
        try:
            with engine.begin() as connection:
                add(connection)
        except Exception:
            # Another replica may have upgraded the table meanwhile; only then is this fine.
            columns = {c["name"] for c in inspect(engine).get_columns("levels")}
            if not set(names) <= columns:
                raise
        columns = {c["name"] for c in inspect(engine).get_columns("levels")}


def _add_facts(connection: Connection) -> None:
    """The ``facts`` column, filled from each stored file (a file whose family is not known
    here keeps NULL: its list form is worked out when it is listed)."""
    connection.execute(text("ALTER TABLE levels ADD COLUMN facts TEXT"))
    for level_id, data in connection.execute(text("SELECT id, data FROM levels")).all():
        try:
            facts = _row_for(json.loads(data)).facts
        except (ValueError, LookupError):
            continue
        connection.execute(
            text("UPDATE levels SET facts = :facts WHERE id = :id"),
            {"facts": facts, "id": level_id},
        )


def _add_variant_columns(connection: Connection) -> None:
    connection.execute(
        text("ALTER TABLE levels ADD COLUMN slide VARCHAR(16) NOT NULL DEFAULT 'none'")
    )
    connection.execute(text("ALTER TABLE levels ADD COLUMN layers INTEGER NOT NULL DEFAULT 1"))
    # Fill them, and the tile and kind counts that counted the bottom layer only.
    for level_id, data in connection.execute(text("SELECT id, data FROM levels")).all():
        row = _row_for(json.loads(data))
        connection.execute(
            text(
                "UPDATE levels SET slide = :slide, layers = :layers, tiles = :tiles,"
                " kinds = :kinds WHERE id = :id"
            ),
            {
                "slide": row.slide,
                "layers": row.layers,
                "tiles": row.tiles,
                "kinds": row.kinds,
                "id": level_id,
            },
        )


class Store:
    """The library on one database.  Methods are blocking: the service calls them from a
    thread, never on the event loop.  ``report(event, fields)`` hears of the database going
    away and coming back (:class:`~.errors.Outage`; default: the ``levelgen.library``
    logger)."""

    def __init__(
        self,
        url: str,
        *,
        lock_timeout: float = LOCK_TIMEOUT,
        report: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        self.url = url
        self.engine = engine_for(url, lock_timeout=lock_timeout)
        self.outage = Outage(self.engine.dialect.name, report)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        Base.metadata.create_all(self.engine)
        _upgrade_levels(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits when the block ends normally and rolls back otherwise.
        A transient database error comes out as :class:`LibraryUnavailable` (its cause
        chained); any other error as it was raised."""
        try:
            with self.sessions() as session, session.begin():
                yield session
        except SQLAlchemyError as exc:
            reason = transient_reason(exc)
            if reason is None:
                raise
            if isinstance(exc, DBAPIError) and needs_new_connection(exc.orig):
                # The session has given its connection back: close every idle one, and let
                # those in use go when they are given back (they may be unfit for good).
                self.engine.dispose()
            raise self.outage.refused(exc, reason) from exc
        self.outage.worked()

    def ping(self) -> None:
        """Raise (:class:`LibraryUnavailable` when it is passing) when the database cannot
        be reached."""
        with self.session() as session:
            session.execute(text("SELECT 1"))

    def check_writable(self) -> None:
        """Raise :class:`LibraryUnavailable` when a write would be refused now (readiness):
        a call was refused less than :data:`~.errors.QUIET` seconds ago because the storage
        took no write (:data:`~.errors.WRITE_FAULTS`), the disk of a SQLite
        file has less than :data:`MIN_FREE` bytes free, or a statement that writes (an
        ``UPDATE`` that matches no row: it changes nothing and writes nothing to the disk,
        but needs a connection that may write, and the write lock on SQLite) fails."""
        recent = self.outage.recent()
        if recent is not None:
            raise LibraryUnavailable(recent.backend, recent.reason, recent.cause)
        path = self.engine.url.database if self.engine.dialect.name == "sqlite" else None
        if path and path != ":memory:" and not path.startswith("file:"):
            folder = os.path.dirname(os.path.abspath(path))
            disk = os.statvfs(folder)
            free = (disk.f_bfree if os.geteuid() == 0 else disk.f_bavail) * disk.f_frsize
            if free < MIN_FREE:  # not a refused call: the log's outages stay those of calls
                raise LibraryUnavailable("sqlite", "has a full disk", f"{free} bytes free")
        with self.session() as session:
            session.execute(
                update(PackJobRow).where(PackJobRow.id == "-").values(done=PackJobRow.done)
            )

    # ----- levels ------------------------------------------------------------------------------

    def put_level(self, data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Store the level file ``data`` (a checked level file's JSON value with its ``id``)
        unless a level of that id is stored.  Returns its summary and whether it is new."""
        row = _row_for(data)
        try:
            with self.session() as session:
                session.add(row)
        except IntegrityError:  # stored before (or by another writer just now): that one stands
            existing = self._summary(row.id)
            if existing is None:
                raise
            return existing, False
        return level_summary(row), True

    def _summary(self, level_id: str) -> dict[str, Any] | None:
        with self.session() as session:
            row = session.get(LevelRow, level_id)
            return None if row is None else level_summary(row)

    def get_level(self, level_id: str) -> dict[str, Any] | None:
        """The level file stored under ``level_id``, or None."""
        with self.session() as session:
            row = session.get(LevelRow, level_id)
            return None if row is None else dict(json.loads(row.data))

    def get_level_text(self, level_id: str) -> str | None:
        """The level file stored under ``level_id`` as compact JSON text, or None."""
        with self.session() as session:
            row = session.get(LevelRow, level_id)
            return None if row is None else row.data

    def has_level(self, level_id: str) -> bool:
        return self._summary(level_id) is not None

    def list_levels(
        self, where: LevelFilter, *, after: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Summaries of the stored levels that match ``where``, in id order, the first
        ``limit`` after the id ``after`` (keyset pagination: stable under inserts)."""
        query = select(LevelRow).order_by(LevelRow.id).limit(limit)
        if where.size is not None:
            query = query.where(LevelRow.size == where.size)
        if where.max_turns is not None:
            query = query.where(LevelRow.max_turns == where.max_turns)
        if where.outside is not None:
            query = query.where(LevelRow.outside == where.outside)
        if where.band is not None:
            query = query.where(LevelRow.band == where.band)
        if where.slide is not None:
            query = query.where(LevelRow.slide == where.slide)
        if where.layers is not None:
            query = query.where(LevelRow.layers == where.layers)
        if where.game is not None:
            query = query.where(LevelRow.game == where.game)
        if after is not None:
            query = query.where(LevelRow.id > after)
        with self.session() as session:
            return [level_summary(row) for row in session.scalars(query)]
