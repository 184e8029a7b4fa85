"""Pack jobs in the library: durable, resumable, never half-stored.

A job row records what was asked (the arguments of :func:`levelgen.pack.plan.plan_pack`), and
each level, once made, is stored with its canonical text in ``pack_levels`` and its library row
in ``levels``, in one transaction: a level is there whole or not at all.  A job is ``done`` (with
its manifest) only once every level is stored; until then ``GET /v1/packs/{id}`` shows the
progress and no manifest.  Because each level's bytes depend on its plan entry alone, a job
taken over after its process died (its lease ran out, or its owner is a dead process on this
host) makes only the missing levels and ends with the same pack, byte for byte.

Leases: the process making a job holds ``owner`` and ``lease_until`` and renews them; taking a
job over is a compare-and-set on the values read, so two replicas never both claim it.
All functions here are blocking (the service calls them from a thread).
"""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from ..library import LevelRow, PackJobRow, PackLevelRow, Store, _row_for, level_id_of

__all__ = [
    "ACTIVE",
    "TooManyJobs",
    "add_job",
    "cancel_job",
    "claim_job",
    "fail_job",
    "finish_job",
    "get_job",
    "job_data",
    "new_owner",
    "pack_level_text",
    "pack_level_texts",
    "release_job",
    "renew_lease",
    "store_pack_level",
]

#: The statuses of a job still to be made.
ACTIVE = ("queued", "running")


class TooManyJobs(Exception):
    """The client has as many active jobs as it may."""


def new_owner() -> str:
    """This process's owner name: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _owner_is_dead(owner: str | None) -> bool:
    """True when ``owner`` names a process on this host that no longer runs."""
    if owner is None:
        return True
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    if int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _now() -> datetime:
    return datetime.now(UTC)


def add_job(store: Store, client: str, request: dict[str, Any], count: int, limit: int) -> str:
    """A new queued job for ``client``; ``TooManyJobs`` when it already has ``limit`` active
    jobs.  Returns the job id."""
    job_id = uuid.uuid4().hex
    with store.session() as session:
        active = session.scalar(
            select(func.count())
            .select_from(PackJobRow)
            .where(PackJobRow.client == client, PackJobRow.status.in_(ACTIVE))
        )
        if (active or 0) >= limit:
            raise TooManyJobs(f"this client already has {active} pack jobs queued or running")
        now = _now()
        session.add(
            PackJobRow(
                id=job_id,
                client=client,
                status="queued",
                request=json.dumps(request, sort_keys=True),
                count=count,
                done=0,
                created_at=now,
                updated_at=now,
            )
        )
    return job_id


def claim_job(store: Store, owner: str, lease: float) -> tuple[str, dict[str, Any]] | None:
    """Take the oldest job that nobody holds (queued, or running under a lease that ran out or
    a dead owner): ``(job id, request)``, or None."""
    now = time.time()
    with store.session() as session:
        candidates = session.execute(
            select(PackJobRow.id, PackJobRow.owner, PackJobRow.lease_until)
            .where(PackJobRow.status.in_(ACTIVE))
            .order_by(PackJobRow.created_at)
            .limit(20)
        ).all()
    for job_id, held_by, until in candidates:
        if until is not None and until > now and not _owner_is_dead(held_by):
            continue
        with store.session() as session:
            taken = session.execute(
                update(PackJobRow)
                .where(
                    PackJobRow.id == job_id,
                    PackJobRow.owner.is_(None) if held_by is None else PackJobRow.owner == held_by,
                    PackJobRow.lease_until.is_(None)
                    if until is None
                    else PackJobRow.lease_until == until,
                )
                .values(status="running", owner=owner, lease_until=now + lease, updated_at=_now())
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                continue
            row = session.get(PackJobRow, job_id)
            assert row is not None
            return job_id, dict(json.loads(row.request))
    return None


def renew_lease(store: Store, job_id: str, owner: str, lease: float) -> bool:
    """Extend ``owner``'s lease of the job; False when it is no longer theirs."""
    with store.session() as session:
        result = session.execute(
            update(PackJobRow)
            .where(
                PackJobRow.id == job_id,
                PackJobRow.owner == owner,
                PackJobRow.status.in_(ACTIVE),  # a cancelled job is no longer anybody's
            )
            .values(lease_until=time.time() + lease)
        )
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def release_job(store: Store, job_id: str, owner: str) -> None:
    """Give the job back (a graceful stop): the next process resumes it at once."""
    with store.session() as session:
        session.execute(
            update(PackJobRow)
            .where(PackJobRow.id == job_id, PackJobRow.owner == owner)
            .values(status="queued", owner=None, lease_until=None, updated_at=_now())
        )


def done_indices(store: Store, job_id: str) -> set[int]:
    with store.session() as session:
        rows = session.scalars(select(PackLevelRow.index).where(PackLevelRow.job_id == job_id))
        return set(rows)


def store_pack_level(store: Store, job_id: str, index: int, text: str) -> None:
    """Store level ``index`` of the job (its text, and its row in the library) in one
    transaction, and count it.  Storing the same level twice is harmless; when another writer
    stores the same library row at the same moment, the transaction is tried again (the row is
    then there and only the pack's row is added)."""
    data = json.loads(text)
    level_id = level_id_of(data)
    for attempt in range(3):
        try:
            with store.session() as session:
                if session.get(PackLevelRow, (job_id, index)) is None:
                    level = PackLevelRow(
                        job_id=job_id, index=index, level_id=level_id_of(data), text=text
                    )
                    session.add(level)
                if session.get(LevelRow, level_id) is None:
                    session.add(_row_for(data))
                session.flush()
                done = session.scalar(
                    select(func.count())
                    .select_from(PackLevelRow)
                    .where(PackLevelRow.job_id == job_id)
                )
                session.execute(
                    update(PackJobRow)
                    .where(PackJobRow.id == job_id)
                    .values(done=done or 0, updated_at=_now())
                )
            return
        except IntegrityError:
            if attempt == 2:
                raise


def finish_job(store: Store, job_id: str, manifest: dict[str, Any]) -> None:
    with store.session() as session:
        session.execute(
            update(PackJobRow)
            .where(PackJobRow.id == job_id, PackJobRow.status.in_(ACTIVE))
            .values(
                status="done",
                manifest=json.dumps(manifest),
                pack_id=manifest["pack_id"],
                owner=None,
                lease_until=None,
                updated_at=_now(),
            )
        )


def fail_job(store: Store, job_id: str, error: str) -> None:
    with store.session() as session:
        session.execute(
            update(PackJobRow)
            .where(PackJobRow.id == job_id, PackJobRow.status.in_(ACTIVE))
            .values(status="failed", error=error, owner=None, lease_until=None, updated_at=_now())
        )


def cancel_job(store: Store, job_id: str) -> dict[str, Any] | None:
    """Cancel the job when it is queued or running (the levels stored stay); the job as it
    is then, or None when there is no such job."""
    with store.session() as session:
        session.execute(
            update(PackJobRow)
            .where(PackJobRow.id == job_id, PackJobRow.status.in_(ACTIVE))
            .values(status="cancelled", owner=None, lease_until=None, updated_at=_now())
        )
        row = session.get(PackJobRow, job_id)
        return None if row is None else job_data(row)


def job_data(row: PackJobRow) -> dict[str, Any]:
    """The JSON form of a job (``GET /v1/packs/{id}``)."""
    return {
        "id": row.id,
        "status": row.status,
        "count": row.count,
        "done": row.done,
        "error": row.error,
        "pack_id": row.pack_id,
        "request": json.loads(row.request),
        "manifest": None if row.manifest is None else json.loads(row.manifest),
        "url": f"/v1/packs/{row.id}",
        "levels_url": f"/v1/packs/{row.id}/levels/{{n}}",
    }


def get_job(store: Store, job_id: str) -> dict[str, Any] | None:
    with store.session() as session:
        row = session.get(PackJobRow, job_id)
        return None if row is None else job_data(row)


def pack_level_text(store: Store, job_id: str, index: int) -> str | None:
    """The text of level ``index`` (0-based) of the job, when it is made."""
    with store.session() as session:
        row = session.get(PackLevelRow, (job_id, index))
        return None if row is None else row.text


def pack_level_texts(store: Store, job_id: str) -> dict[int, str]:
    with store.session() as session:
        rows = session.scalars(select(PackLevelRow).where(PackLevelRow.job_id == job_id))
        return {row.index: row.text for row in rows}
