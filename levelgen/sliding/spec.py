"""What ``levelgen create --game sliding-puzzle`` is asked for: the create spec and its bands.

One spec serves the command line, the HTTP service and the pack planner, with one set of error
messages (:class:`levelgen.puzzles.SpecError` names the option).  Options:

- ``size``: ``WxH``, 2..8 each (default ``4x4``);
- ``moves``: the exact optimal length of the level, 1 .. :func:`moves_cap`;
- ``difficulty``: a band (``easy``, ``medium``, ``hard``, ``expert``), the length drawn from it
  (default ``medium`` when ``moves`` is not given; not both);
- ``colors``: ``K`` colours (2..7, at most W*H - 2) for a colour puzzle whose goal pattern is
  drawn from the seed; without it the puzzle is numbered;
- ``goal``: the goal frame itself (rows of labels, 0 the blank), or a sliding-puzzle level or
  position file whose goal is taken (the command line reads either from ``--goal FILE``):
  numbered when its labels differ, a colour puzzle when one repeats.

Bands are ranges of optimal length, per board size and kind (:func:`bands_for`): the table in
:data:`NUMBERED_BANDS` for the common sizes, otherwise four even ranges from ``max(2, T // 6)``
to a top ``T``: ``round(2.5 * W*H)`` up to 40 moves for numbered boards, ``round(1.6 * W*H)``
up to 30 for colour boards.  The expert band of a numbered board then reaches up to
:data:`EXPERT_TOPS` where the size has an entry (every length the board has, on the boards
whose whole space has a distance table; 66 on 4x4).  Lengths above the expert band are
expert too (:func:`band_of`), so a level's band never depends on how far the band reaches.

``moves`` goes up to :func:`moves_cap`: the size's largest distance on the boards with a
whole-space table (:data:`LARGEST`, found by :mod:`levelgen.sliding.space` and checked by the
tests on the small ones), 74 on 4x4 (the heuristic walk of :mod:`levelgen.sliding.generate`),
90 on 5x5, otherwise the top of the expert band.  A colour goal's farthest frame is nearer:
lengths beyond it are refused with it named when the level is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..puzzles import CreateOption, OptionKind, SpecError
from .rules import MAX_SIDE, MIN_SIDE, Frame, format_size, is_numbered, parse_size

__all__ = [
    "BANDS",
    "CREATE_OPTIONS",
    "EXPERT_TOPS",
    "LARGEST",
    "MAX_COLORS",
    "MOVES_CAPS",
    "NUMBERED_BANDS",
    "CreateSpec",
    "band_of",
    "bands_for",
    "first_bands",
    "first_tops",
    "moves_cap",
    "parse_spec",
    "ramp",
]

BANDS = ("easy", "medium", "hard", "expert")
MAX_COLORS = 7
Band = tuple[int, int]

#: Optimal-length bands (inclusive) of numbered boards of the common sizes.
NUMBERED_BANDS: dict[tuple[int, int], tuple[Band, Band, Band, Band]] = {
    (2, 2): ((1, 2), (3, 4), (5, 5), (6, 6)),
    (3, 2): ((3, 6), (7, 11), (12, 15), (16, 20)),
    (3, 3): ((4, 10), (11, 17), (18, 23), (24, 28)),
    (4, 2): ((4, 10), (11, 18), (19, 25), (26, 30)),
    (4, 4): ((10, 20), (21, 32), (33, 44), (45, 55)),
}
#: Optimal-length bands of colour boards of the common sizes.
COLOUR_BANDS: dict[tuple[int, int], tuple[Band, Band, Band, Band]] = {
    (2, 2): ((1, 2), (3, 4), (5, 5), (6, 6)),
    (3, 3): ((2, 5), (6, 8), (9, 11), (12, 14)),
    (4, 4): ((4, 9), (10, 15), (16, 21), (22, 26)),
}

#: The largest optimal distance of a numbered board with its blank in a corner, by
#: ``(longer side, shorter side)``: every frame's distance by whole-space search
#: (``levelgen bench sliding`` prints them; the 15-puzzle's 80 is Brüngger et al., 1999).
LARGEST: dict[tuple[int, int], int] = {
    (2, 2): 6,
    (3, 2): 21,
    (4, 2): 36,
    (3, 3): 31,
    (5, 2): 55,
    (4, 3): 53,
    (6, 2): 80,
}
#: How far the expert band of a numbered board reaches, where it reaches past the table above.
EXPERT_TOPS: dict[tuple[int, int], int] = {**LARGEST, (4, 4): 66}
#: The largest ``moves`` on boards without a whole-space table.
MOVES_CAPS: dict[tuple[int, int], int] = {**LARGEST, (4, 4): 74, (5, 5): 90}

CREATE_OPTIONS = (
    CreateOption("moves", "N", "the exact optimal length (proved); instead of --difficulty"),
    CreateOption("colors", "K", "a colour puzzle of K colours (2-7) with a goal pattern drawn"),
    CreateOption(
        "goal",
        "FILE",
        "the goal frame: a JSON array of rows (0 the blank), or a level file",
        OptionKind.JSON,
    ),
)


def bands_for(width: int, height: int, numbered: bool) -> tuple[Band, Band, Band, Band]:
    """The four length bands (inclusive ranges) of a board of this size and kind."""
    easy, medium, hard, expert = first_bands(width, height, numbered)
    top = EXPERT_TOPS.get((max(width, height), min(width, height))) if numbered else None
    if top is not None and top > expert[1]:
        expert = (expert[0], top)
    return easy, medium, hard, expert


def first_tops(width: int, height: int, numbered: bool) -> int:
    """The top of the expert band before it reached past :func:`first_bands`: lengths up to
    it are made as before (:func:`levelgen.sliding.generate.find_start`), byte for byte."""
    return first_bands(width, height, numbered)[-1][1]


def moves_cap(width: int, height: int, numbered: bool) -> int:
    """The largest ``moves`` of a board of this size (see the module docstring)."""
    key = (max(width, height), min(width, height))
    return max(MOVES_CAPS.get(key, 0), bands_for(width, height, numbered)[-1][1])


def first_bands(width: int, height: int, numbered: bool) -> tuple[Band, Band, Band, Band]:
    """The bands of :data:`NUMBERED_BANDS`, :data:`COLOUR_BANDS` or the even ranges."""
    key = (max(width, height), min(width, height))
    table = NUMBERED_BANDS if numbered else COLOUR_BANDS
    if key in table:
        return table[key]
    cells = width * height
    top = min(40, round(2.5 * cells)) if numbered else min(30, round(1.6 * cells))
    low = max(2, top // 6)
    step = (top - low + 1) / 4
    edges = [low + round(step * i) for i in range(5)]
    edges[4] = top + 1
    bands = [(edges[i], edges[i + 1] - 1) for i in range(4)]
    return bands[0], bands[1], bands[2], bands[3]


def band_of(length: int, width: int, height: int, numbered: bool) -> str:
    """The band an optimal length falls in (below the first: ``easy``; above the last:
    ``expert``)."""
    bands = bands_for(width, height, numbered)
    for name, (_, hi) in zip(BANDS, bands, strict=True):
        if length <= hi:
            return name
    return BANDS[-1]


@dataclass(frozen=True, slots=True)
class CreateSpec:
    """A parsed create request: the board, the exact optimal length (``moves``) or the band to
    draw it from (``difficulty``), and the goal: given, or drawn with ``colors`` colours, or
    numbered (tiles 1.. in reading order, the blank last)."""

    width: int
    height: int
    moves: int | None
    difficulty: str | None
    colors: int | None
    goal: Frame | None

    @property
    def numbered(self) -> bool:
        """Whether the level will be a numbered puzzle."""
        if self.goal is not None:
            return is_numbered(self.goal)
        return self.colors is None

    def parameters(self) -> dict[str, Any]:
        """The spec as the ``generator.parameters`` of a level file."""
        return {
            "size": format_size(self.width, self.height),
            "moves": self.moves,
            "difficulty": self.difficulty,
            "colors": self.colors,
            "goal": None if self.goal is None else self.goal.rows(),
        }


def _integer(option: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise SpecError(option, f"expected a whole number, got {_kind(value)}")
    if isinstance(value, str):
        text = value.strip()
        if not text.isdigit() or len(text) > 6:
            raise SpecError(option, f"expected a whole number, got {value!r}")
        return int(text)
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _goal(value: object) -> Frame:
    if isinstance(value, dict):
        value = _goal_of_file(value)
    if not isinstance(value, list | tuple) or not value:
        raise SpecError("goal", f"expected rows of labels (an array of arrays), got {_kind(value)}")
    rows: list[list[int]] = []
    for y, row in enumerate(value):
        if not isinstance(row, list | tuple):
            raise SpecError("goal", f"row {y} is not an array")
        for x, v in enumerate(row):
            if isinstance(v, bool) or not isinstance(v, int):
                raise SpecError("goal", f"row {y}, column {x}: expected a label, got {_kind(v)}")
        rows.append(list(row))
    try:
        return Frame.from_rows(rows)
    except ValueError as exc:
        raise SpecError("goal", str(exc)) from None


def _goal_of_file(document: dict[str, Any]) -> object:
    """The goal rows of a sliding-puzzle level (or position) file given as the goal."""
    game = document.get("game")
    if game != "sliding-puzzle":
        what = "an object without a game" if game is None else f"a {game!r} file"
        raise SpecError(
            "goal", f"expected rows of labels or a sliding-puzzle level file, got {what}"
        )
    if "goal" not in document:
        raise SpecError("goal", "the sliding-puzzle file has no goal (/goal)")
    return document["goal"]


_KNOWN = ("size", "moves", "difficulty", "colors", "goal")


def parse_spec(values: Mapping[str, Any]) -> CreateSpec:
    """A create spec from option values (absent or None ones take defaults); the first bad
    one raises :class:`SpecError`."""
    for key in values:
        if key not in _KNOWN:
            known = ", ".join(_KNOWN)
            raise SpecError(key, f"unknown option for sliding-puzzle (options: {known})")
    given = {k: v for k, v in values.items() if v is not None}
    goal = _goal(given["goal"]) if "goal" in given else None
    if "size" in given:
        if not isinstance(given["size"], str):
            got = _kind(given["size"])
            raise SpecError("size", f"expected WIDTHxHEIGHT such as 4x4, got {got}")
        try:
            width, height = parse_size(given["size"])
        except ValueError as exc:
            raise SpecError("size", str(exc)) from None
        if goal is not None and (goal.width, goal.height) != (width, height):
            raise SpecError(
                "goal", f"the goal is {goal.width}x{goal.height} but size is {width}x{height}"
            )
    elif goal is not None:
        width, height = goal.width, goal.height
    else:
        width, height = 4, 4
    colors = None
    if "colors" in given:
        colors = _integer("colors", given["colors"])
        top = min(MAX_COLORS, width * height - 2)
        if not 2 <= colors <= top:
            raise SpecError("colors", f"{colors} colours: a {width}x{height} board takes 2..{top}")
        if goal is not None:
            kinds = len(goal.labels())
            if is_numbered(goal) or kinds != colors:
                raise SpecError(
                    "colors", f"the goal has {kinds} labels; leave colors out with a goal"
                )
    numbered = is_numbered(goal) if goal is not None else colors is None
    moves = None
    difficulty = None
    if "moves" in given:
        if "difficulty" in given:
            raise SpecError("difficulty", "give moves or difficulty, not both")
        moves = _integer("moves", given["moves"])
        top = moves_cap(width, height, numbered)
        if not 1 <= moves <= top:
            kind = "numbered" if numbered else "colour"
            largest = (max(width, height), min(width, height)) in LARGEST
            why = "its largest distance" if largest else "what levelgen can prove"
            raise SpecError(
                "moves", f"{moves} moves: a {width}x{height} {kind} level has 1..{top} ({why})"
            )
    else:
        band = given.get("difficulty", "medium")
        if band not in BANDS:
            raise SpecError("difficulty", f"expected one of {', '.join(BANDS)}, got {band!r}")
        difficulty = band
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise SpecError("size", f"sides are {MIN_SIDE}..{MAX_SIDE}")
    return CreateSpec(width, height, moves, difficulty, colors, goal)


def ramp(values: Mapping[str, Any], count: int, low: str, high: str) -> list[dict[str, Any]]:
    """The create options of ``count`` levels whose optimal lengths rise evenly from the bottom
    of band ``low`` to the top of band ``high`` (the other options as in ``values``; ``moves``
    is set per level, ``difficulty`` left out)."""
    for name, band in (("low", low), ("high", high)):
        if band not in BANDS:
            raise SpecError(name, f"expected one of {', '.join(BANDS)}, got {band!r}")
    if BANDS.index(low) > BANDS.index(high):
        raise SpecError("high", f"band {high!r} is below {low!r}")
    if count < 1:
        raise SpecError("count", "a pack has at least one level")
    base = {k: v for k, v in values.items() if k not in ("moves", "difficulty")}
    first = parse_spec(base)
    bands = bands_for(first.width, first.height, first.numbered)
    lo = bands[BANDS.index(low)][0]
    hi = bands[BANDS.index(high)][1]
    ramped = []
    for i in range(count):
        moves = lo if count == 1 else lo + round((hi - lo) * i / (count - 1))
        ramped.append({**base, "moves": moves})
    return ramped
