"""What every family's files share: strict JSON reading, canonical JSON writing, the one writer
behind every ``-o``, and problems with JSON pointers."""

from __future__ import annotations

from ..family import Problem
from .jsonio import (
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

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
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
