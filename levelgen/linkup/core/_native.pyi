"""Types of the optional compiled extension (``levelgen/linkup/core/_native.c``): the twins of
:mod:`levelgen.reach`'s functions of the same names."""

from collections.abc import Callable

from .board import Layout

def axis_hits(
    src: int, free: int, targets: int, max_turns: int, stride: int, /
) -> tuple[list[int], list[int]]: ...
def link_hits(src: int, free: int, targets: int, max_turns: int, stride: int, /) -> int: ...
def link_reach(
    src: int,
    free: int,
    targets: int,
    max_turns: int,
    stride: int,
    toward: tuple[int, int, int, int] | None,
    stop: int,
    /,
) -> tuple[int, int, int]: ...
def remove_pair(
    links: list[int],
    kind_of: list[int],
    kind_mask: dict[int, int],
    left: list[int],
    a: int,
    b: int,
    free: int,
    open_mask: int,
    total: int,
    max_turns: int,
    stride: int,
    gained: list[tuple[int, int]] | None,
    /,
) -> tuple[int, int, int]: ...
def fill_links(
    links: list[int],
    kind_of: list[int],
    kind_mask: dict[int, int],
    free: int,
    linked: int,
    fill_kinds: bool,
    even_tiles: int | None,
    max_turns: int,
    stride: int,
    /,
) -> tuple[int, int]: ...
def replay_moves(
    seq: list[tuple[int, int]],
    support: list[int],
    decided: set[int],
    drop: int,
    start_free: int,
    link_cells: Callable[[Layout, int, int, int, int], int | None],
    layout: Layout,
    max_turns: int,
    stride: int,
    size: int,
    /,
) -> tuple[list[tuple[int, int]], list[int], set[int], int]: ...
def direct_path(
    free: int, a: int, b: int, max_turns: int, stride: int, /
) -> tuple[list[int], int] | None: ...
