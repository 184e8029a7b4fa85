"""The version of levelgen, as files record it in their ``generator`` block (same seed and
version, same bytes) and as ``levelgen version`` prints it."""

__all__ = ["VERSION"]

VERSION = "0.2.0"
