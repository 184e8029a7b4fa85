"""What every family's files share: strict JSON reading, canonical JSON writing, the one writer
behind every ``-o``, and problems with JSON pointers."""

from __future__ import annotations

from .jsonio import (
    JSON_SCHEMA_DIALECT,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_SEED,
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
from .problems import Problem

__all__ = [
    "JSON_SCHEMA_DIALECT",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_SEED",
    "STDIO",
    "Problem",
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
