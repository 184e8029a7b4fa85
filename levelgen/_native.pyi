"""Types of the optional compiled extension (``levelgen/_native.c``): the twins of
:mod:`levelgen.reach`'s functions of the same names."""

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
