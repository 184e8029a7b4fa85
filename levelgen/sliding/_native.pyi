"""Types of the optional compiled extension (``levelgen/sliding/_native.c``): the twins of
:func:`levelgen.sliding.pdb.build_table` and
:func:`levelgen.sliding.idastar.python_bounded_search`."""

from collections.abc import Callable, Sequence

API: int

def build_table(
    width: int,
    height: int,
    goal: bytes,
    classes: bytes,
    counts: bytes,
    should_stop: Callable[[], bool] | None = None,
    method: int = 0,
    /,
) -> bytes | None: ...
def search(
    width: int,
    height: int,
    goal: bytes,
    start: bytes,
    patterns: Sequence[tuple[bytes, bytes, bytes]],
    crossing: bytes,
    tcell: bytes,
    tclass: bytes,
    threshold: int,
    count_cap: int,
    node_limit: int,
    should_stop: Callable[[], bool] | None,
    wnum: int = 1,
    wden: int = 1,
    /,
) -> tuple[str | None, int, int, int | None, bool]: ...
def astar(
    width: int,
    height: int,
    goal: bytes,
    start: bytes,
    patterns: Sequence[tuple[bytes, bytes, bytes]],
    crossing: bytes,
    tcell: bytes,
    tclass: bytes,
    wnum: int,
    wden: int,
    bound: int,
    node_limit: int,
    should_stop: Callable[[], bool] | None,
    frozen: int = 0,
    partial: bool = False,
    /,
) -> tuple[str | None, int, int, bool]: ...
