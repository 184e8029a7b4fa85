"""The service's settings: one pydantic-settings class, read from ``LEVELGEN_*`` variables.

``levelgen serve`` builds a :class:`Settings` from its options (which win over the
environment); tests build one directly.  Every limit the service enforces is here, with the
default the README documents.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "read_api_key_file"]


class Settings(BaseSettings):
    """Configuration of one service process (``LEVELGEN_<NAME>`` in the environment)."""

    model_config = SettingsConfigDict(env_prefix="LEVELGEN_", extra="ignore")

    db: str = Field(
        default="sqlite:///levelgen-library.db",
        description="SQLAlchemy URL of the library (SQLite file by default, or PostgreSQL).",
    )
    api_key: str | None = Field(
        default=None, description="The key that writes need (None: writes are open)."
    )
    workers: int = Field(
        default_factory=lambda: max(os.cpu_count() or 1, 1),
        ge=1,
        le=64,
        description="Processes of the pool that runs solving and generating.",
    )
    queue_limit: int = Field(
        default=64, ge=0, description="CPU jobs that may wait for a worker; more get 503."
    )
    queue_timeout: float = Field(
        default=30.0,
        gt=0,
        description="Seconds a CPU job may wait for a free worker; then 503 (its own time"
        " counts from its start).",
    )
    client_limit: int = Field(
        default=32, ge=1, description="CPU jobs one client may have in flight; more get 429."
    )
    default_time_limit: float = Field(default=5.0, gt=0, description="Seconds, when not asked.")
    max_time_limit: float = Field(default=30.0, gt=0, description="Cap on any time_limit.")
    max_body_bytes: int = Field(default=4 * 1024 * 1024, ge=1024, description="413 above.")
    max_side: int = Field(default=64, ge=1, le=64, description="Widest / tallest board.")
    max_page: int = Field(default=200, ge=1, description="Most items on one page of a list.")
    max_pack_levels: int = Field(default=200, ge=1, description="Most levels in one pack.")
    max_jobs_per_client: int = Field(
        default=2, ge=1, description="Pack jobs one client may have queued or running."
    )
    retry_after: int = Field(default=1, ge=1, description="Seconds said in Retry-After.")
    db_lock_timeout: float = Field(
        default=5.0,
        gt=0,
        le=60,
        description="Seconds a library call waits for another writer's lock (SQLite's busy"
        " timeout, PostgreSQL's lock_timeout) or a free connection; then 503.  PostgreSQL:"
        " also the connect timeout; a statement may take twice that (statement_timeout),"
        " any wait for the server's answer twice that plus 1 s.",
    )
    max_header_bytes: int = Field(
        default=32 * 1024,
        ge=1024,
        description="Largest request head (request line and header fields); 431 above.",
    )
    max_header_fields: int = Field(default=100, ge=8, description="Most header fields; 431 above.")
    header_timeout: float = Field(
        default=10.0, gt=0, description="Seconds a request head may take to arrive; 408 after."
    )
    body_timeout: float = Field(
        default=60.0, gt=0, description="Seconds a request body may take to arrive; 408 after."
    )
    shutdown_grace: float = Field(default=10.0, ge=0, description="Seconds to finish on SIGTERM.")
    public_url: str | None = Field(
        default=None, description="Base URL the player page calls (default: the request's)."
    )


def read_api_key_file(path: str | Path) -> str:
    """The API key in ``path`` (its first line, stripped); ``ValueError`` when it is empty or
    cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the API key file {path}: {exc}") from None
    key = text.strip().splitlines()[0].strip() if text.strip() else ""
    if not key:
        raise ValueError(f"the API key file {path} is empty")
    return key
