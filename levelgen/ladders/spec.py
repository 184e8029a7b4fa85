"""What ``create`` may be asked for snakes and ladders, checked once for every edge, and the
difficulty bands.

A :class:`LaddersSpec` is made by :func:`parse_spec` from option values (strings from the
command line, JSON values over HTTP): ``size`` (``WxH``, default ``10x10``), ``snakes`` and
``ladders`` (counts; default ``0.8 * sqrt(N)`` each: 8 on 10x10, 16 on 20x20), ``expected``
(the window of the exact expected rolls, ``lo:hi`` with either side optional, decimals
allowed), ``fewest`` (the fewest rolls: ``lo:``, ``:hi``, ``lo:hi`` or ``n``; default at
least ``ceil(N / (3 * faces))``), ``faces`` (2..20, default 6), ``overshoot`` (``exact``,
``bounce``, ``pass``), ``difficulty`` (a band, whose window is used for ``expected``; the
default when neither is given is ``medium``), ``final_snakes`` (allow snakes on the
final squares of the last row; default no), and the layout rules a player can follow
(:mod:`levelgen.ladders.geometry` defines crossing): ``ladder_crossings``, the most pairs of
ladders that cross (default 0), ``snake_crossings``, the most pairs that cross of a snake
with a snake or a ladder (default 2), ``max_length``, the longest jump in rows (the straight
line between the centres of its squares, a row's height the unit; default half the rows,
rounded up: 5 on 10x10), ``shared_ends`` (allow two jumps to end on one square;
default no) and ``thirds`` (each third of the board holds a jump's start, and a ladder's and
a snake's with three of each or more; default yes), and ``rated``, whether the level gets
its difficulty block (:mod:`levelgen.ladders.rating`; default: when ``difficulty`` is
given).  A bad value raises
:class:`levelgen.puzzles.SpecError` naming the option.

Bands measure the expected length against ``L0 = 2N / (faces + 1)``, the rolls a token needs
to cross N squares at the mean roll: ``easy`` 0.7-1.05 L0, ``medium`` 1.05-1.4 L0, ``hard``
1.4-1.9 L0, ``expert`` 1.9-2.6 L0, each edge rounded to a tenth of a roll (10x10 with a
six-faced die: 20.0:30.0, 30.0:40.0, 40.0:54.3, 54.3:74.3).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..puzzles import SpecError
from .rules import MAX_FACES, MAX_SIDE, MIN_FACES, OVERSHOOTS, format_size, parse_size

__all__ = [
    "BANDS",
    "OPTIONS",
    "Design",
    "LaddersSpec",
    "band_of",
    "band_window",
    "format_window",
    "parse_spec",
    "ramp_specs",
]

BANDS = ("easy", "medium", "hard", "expert")
_BAND_FACTORS = {
    "easy": (Fraction(7, 10), Fraction(21, 20)),
    "medium": (Fraction(21, 20), Fraction(7, 5)),
    "hard": (Fraction(7, 5), Fraction(19, 10)),
    "expert": (Fraction(19, 10), Fraction(13, 5)),
}
#: The option names parse_spec takes (``seed`` is accepted and checked, but create takes the
#: seed as its own argument).
OPTIONS = (
    "size",
    "snakes",
    "ladders",
    "expected",
    "fewest",
    "faces",
    "overshoot",
    "difficulty",
    "final_snakes",
    "ladder_crossings",
    "snake_crossings",
    "max_length",
    "shared_ends",
    "thirds",
    "seed",
)
MAX_SEED = 2**53 - 1
#: The default most crossings of a snake with a snake or a ladder (ladders with ladders: 0).
DEFAULT_SNAKE_CROSSINGS = 2
MAX_CROSSINGS = 10_000
_TRUE = {"yes", "true", "1", "on"}
_FALSE = {"no", "false", "0", "off"}

Window = tuple[Fraction | None, Fraction | None]
Bounds = tuple[int | None, int | None]


@dataclass(frozen=True, slots=True)
class Design:
    """The layout rules of a generated board beyond the counts and the window (see the module
    docstring); :meth:`for_height` gives the defaults."""

    final_snakes: bool = False
    ladder_crossings: int = 0
    snake_crossings: int = DEFAULT_SNAKE_CROSSINGS
    max_length: int = 5
    shared_ends: bool = False
    thirds: bool = True

    @classmethod
    def for_board(cls, width: int, height: int) -> Design:
        """The defaults on a board of ``width`` x ``height`` squares."""
        return cls(max_length=default_max_length(width, height))


@dataclass(frozen=True, slots=True)
class LaddersSpec:
    """A checked create spec.  ``window``: the expected rolls asked for (from ``expected`` or the
    band), either side None when open; ``fewest``: bounds on the fewest rolls."""

    width: int
    height: int
    snakes: int
    ladders: int
    faces: int
    overshoot: str
    window: Window
    fewest: Bounds
    difficulty: str | None
    expected: str | None
    final_snakes: bool
    ladder_crossings: int
    snake_crossings: int
    max_length: int
    shared_ends: bool
    thirds: bool
    #: Whether ``difficulty`` was asked for (not the default): the level is then rated.
    rated: bool = False

    @property
    def squares(self) -> int:
        """N."""
        return self.width * self.height

    @property
    def design(self) -> Design:
        """The layout rules the board keeps."""
        return Design(
            self.final_snakes,
            self.ladder_crossings,
            self.snake_crossings,
            self.max_length,
            self.shared_ends,
            self.thirds,
        )

    def parameters(self) -> dict[str, Any]:
        """The options as the level file's ``generator.parameters`` (``parse_spec`` of them gives
        this spec again)."""
        return {
            "size": format_size(self.width, self.height),
            "snakes": self.snakes,
            "ladders": self.ladders,
            "expected": self.expected,
            "fewest": format_bounds(self.fewest),
            "faces": self.faces,
            "overshoot": self.overshoot,
            "difficulty": self.difficulty,
            "final_snakes": self.final_snakes,
            "ladder_crossings": self.ladder_crossings,
            "snake_crossings": self.snake_crossings,
            "max_length": self.max_length,
            "shared_ends": self.shared_ends,
            "thirds": self.thirds,
        } | ({"rated": True} if self.rated else {})


def base_length(squares: int, faces: int) -> Fraction:
    """``L0 = 2N / (faces + 1)``: rolls to cross N squares at the mean roll."""
    return Fraction(2 * squares, faces + 1)


def _tenth(value: Fraction) -> Fraction:
    return Fraction(math.floor(value * 10 + Fraction(1, 2)), 10)


def band_window(band: str, squares: int, faces: int) -> tuple[Fraction, Fraction]:
    """The expected-rolls window of ``band`` on a board of ``squares`` squares."""
    low, high = _BAND_FACTORS[band]
    base = base_length(squares, faces)
    return _tenth(low * base), _tenth(high * base)


def band_of(expected: float, squares: int, faces: int) -> str:
    """The band whose window holds ``expected`` (below easy: easy; above expert: expert)."""
    for band in BANDS[:-1]:
        if expected < band_window(band, squares, faces)[1]:
            return band
    return BANDS[-1]


def format_number(value: Fraction) -> str:
    """A window edge as text: an integer or a decimal (at most 4 places, rounded)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text


def format_window(window: Window) -> str:
    """``"30:40"``, ``"30:"``, ``":40"``."""
    low, high = window
    return (
        f"{'' if low is None else format_number(low)}:{'' if high is None else format_number(high)}"
    )


def format_bounds(bounds: Bounds) -> str:
    """``"6:"``, ``"6:9"``."""
    low, high = bounds
    return f"{'' if low is None else low}:{'' if high is None else high}"


def _int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise SpecError(name, f"expected an integer, got {str(value).lower()}")
    if isinstance(value, str):
        text = value.strip()
        if not text.isdigit() or len(text) > 9:
            raise SpecError(name, f"expected an integer, got {value!r}")
        value = int(text)
    if not isinstance(value, int):
        raise SpecError(name, f"expected an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise SpecError(name, f"must be {low}..{high}, got {value}")
    return value


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise SpecError(name, f"expected a string, got {type(value).__name__}")
    if len(value) > 40:
        raise SpecError(name, "too long")
    return value.strip()


def _number(name: str, text: str) -> Fraction:
    try:
        if not text or any(c not in "0123456789." for c in text):
            raise ValueError
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SpecError(name, f"expected a number such as 30 or 32.5, got {text!r}") from None


def parse_window(text: str) -> Window:
    """``"lo:hi"`` (either side may be left out) as fractions; ``SpecError`` at ``expected``."""
    low_text, colon, high_text = text.partition(":")
    if not colon:
        raise SpecError(
            "expected", f"expected lo:hi such as 30:35 (either side optional), got {text!r}"
        )
    low = _number("expected", low_text.strip()) if low_text.strip() else None
    high = _number("expected", high_text.strip()) if high_text.strip() else None
    if low is not None and low < 1:
        raise SpecError(
            "expected", "a game lasts at least one roll: the window must start at 1 or more"
        )
    if low is not None and high is not None and not low < high:
        raise SpecError("expected", f"the window {text!r} is empty: lo must be below hi")
    return low, high


def parse_bounds(value: object) -> Bounds:
    """``"lo:"``, ``":hi"``, ``"lo:hi"`` or ``n`` (also a JSON integer) as bounds on the fewest
    rolls; ``SpecError`` at ``fewest``."""
    if isinstance(value, int) and not isinstance(value, bool):
        n = _int("fewest", value, 1, 100_000)
        return n, n
    text = _text("fewest", value)
    low_text, colon, high_text = text.partition(":")
    if not colon:
        n = _int("fewest", text, 1, 100_000)
        return n, n
    low = _int("fewest", low_text, 1, 100_000) if low_text.strip() else None
    high = _int("fewest", high_text, 1, 100_000) if high_text.strip() else None
    if low is not None and high is not None and low > high:
        raise SpecError("fewest", f"the bounds {text!r} are empty: lo must not be above hi")
    return low, high


def _bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise SpecError(name, f"expected yes or no, got {value!r}")


def default_jumps(squares: int) -> int:
    """The default number of snakes (and of ladders): ``0.8 * sqrt(N)`` rounded (8 on 10x10,
    16 on 20x20), at most half the jumps the board takes."""
    return max(0, min(round(0.8 * math.sqrt(squares)), jump_capacity(squares) // 2))


def min_jump_length(squares: int) -> int:
    """The shortest jump the generator places: ``max(2, ceil(N / 10))`` squares."""
    return max(2, math.ceil(squares / 10))


def default_max_length(width: int, height: int) -> int:
    """The default longest jump in rows: half the board's rows, rounded up (5 on 10 rows), or
    the least length that lets a jump of the shortest kind be placed when that is more (on
    boards of one or two rows)."""
    length = max(1, math.ceil(height / 2))
    shortest = min_jump_length(width * height)
    while length < 2 * MAX_SIDE and not length_allows(width, height, length, shortest):
        length += 1
    return length


def length_allows(width: int, height: int, limit: int, shortest: int) -> bool:
    """Whether some jump at most ``limit`` rows long joins two squares ``shortest`` or more
    apart in number.  The layout repeats every two rows (numbers shifted by ``2 * width``), so
    starts on the bottom two rows stand for all."""
    for row in range(min(2, height)):
        for column in range(width):
            start = row * width + (column + 1 if row % 2 == 0 else width - column)
            for up in range(min(limit, height - 1 - row) + 1):
                across = math.isqrt(max(0, limit * limit - up * up))
                for other in range(max(0, column - across), min(width, column + across + 1)):
                    end_row = row + up
                    end = end_row * width + (other + 1 if end_row % 2 == 0 else width - other)
                    if abs(end - start) >= shortest:
                        return True
    return False


def jump_capacity(squares: int) -> int:
    """The most jumps (snakes and ladders together) a board of ``squares`` squares takes."""
    return max(0, (squares - 2) // 4)


def parse_spec(values: Mapping[str, Any]) -> LaddersSpec:
    """A checked spec from option values (absent or None: the default); ``SpecError`` names the
    first bad option."""
    for name in values:
        if name not in OPTIONS and name != "rated":
            known = ", ".join(OPTIONS[:-1])
            raise SpecError(name, f"unknown option for snakes-ladders (known: {known})")
    given = {k: v for k, v in values.items() if v is not None}
    if "seed" in given:
        _int("seed", given["seed"], 0, MAX_SEED)
    try:
        width, height = parse_size(_text("size", given.get("size", "10x10")))
    except ValueError as exc:
        raise SpecError("size", str(exc)) from None
    squares = width * height
    faces = _int("faces", given.get("faces", 6), MIN_FACES, MAX_FACES)
    if faces > squares:
        raise SpecError("faces", f"a die of {faces} faces on a board of {squares} squares")
    overshoot = _text("overshoot", given.get("overshoot", "exact"))
    if overshoot not in OVERSHOOTS:
        raise SpecError("overshoot", f"must be one of {', '.join(OVERSHOOTS)}, got {overshoot!r}")
    capacity = jump_capacity(squares)
    snakes = _int("snakes", given.get("snakes", default_jumps(squares)), 0, max(capacity, 0))
    ladders = _int("ladders", given.get("ladders", default_jumps(squares)), 0, max(capacity, 0))
    if snakes + ladders > capacity:
        raise SpecError(
            "snakes",
            f"{snakes} snakes and {ladders} ladders: a {width}x{height} board takes"
            f" {capacity} jumps at most",
        )
    difficulty = None
    expected = None
    if "difficulty" in given and "expected" in given:
        raise SpecError("expected", "give expected or difficulty, not both")
    if "difficulty" in given:
        difficulty = _text("difficulty", given["difficulty"])
        if difficulty not in BANDS:
            raise SpecError("difficulty", f"must be one of {', '.join(BANDS)}, got {difficulty!r}")
        window: Window = band_window(difficulty, squares, faces)
    elif "expected" in given:
        expected = _text("expected", given["expected"])
        window = parse_window(expected)
        expected = format_window(window) if window != (None, None) else ":"
    else:
        difficulty = "medium"
        window = band_window(difficulty, squares, faces)
    if "fewest" in given:
        fewest = parse_bounds(given["fewest"])
    else:
        fewest = (max(1, math.ceil(squares / (3 * faces))), None)
    final_snakes = _bool("final_snakes", given.get("final_snakes", False))
    ladder_crossings = _int("ladder_crossings", given.get("ladder_crossings", 0), 0, MAX_CROSSINGS)
    snake_crossings = _int(
        "snake_crossings", given.get("snake_crossings", DEFAULT_SNAKE_CROSSINGS), 0, MAX_CROSSINGS
    )
    max_length = _int(
        "max_length", given.get("max_length", default_max_length(width, height)), 1, 2 * MAX_SIDE
    )
    shortest = min_jump_length(squares)
    if snakes + ladders > 0 and not length_allows(width, height, max_length, shortest):
        raise SpecError(
            "max_length",
            f"no two squares of a {width}x{height} board at most {max_length} rows apart are"
            f" {shortest} apart in number, the generator's shortest jump (N/10)",
        )
    shared_ends = _bool("shared_ends", given.get("shared_ends", False))
    thirds = _bool("thirds", given.get("thirds", True))
    return LaddersSpec(
        width,
        height,
        snakes,
        ladders,
        faces,
        overshoot,
        window,
        fewest,
        difficulty,
        expected,
        final_snakes,
        ladder_crossings,
        snake_crossings,
        max_length,
        shared_ends,
        thirds,
        _rated(values),
    )


def _rated(values: Mapping[str, Any]) -> bool:
    """Whether the level gets its difficulty block: ``rated`` when given (the generator
    parameters of a rated level record ``rated: true``), else whether ``difficulty`` was asked
    for.  Recorded generator parameters name every option (``expected`` too, null when
    unused), so those of a level made without a block make it again without one although
    they record its default band."""
    value = values.get("rated")
    if value is not None:
        return _bool("rated", value)
    return values.get("difficulty") is not None and "expected" not in values


def ramp_specs(values: Mapping[str, Any], count: int, low: str, high: str) -> list[dict[str, Any]]:
    """The create options of ``count`` levels whose expected-length windows rise evenly from
    the bottom of band ``low`` to the top of band ``high`` (each at least two rolls wide)."""
    for name in ("expected", "difficulty"):
        if values.get(name) is not None:
            raise SpecError(name, "a pack ramps the expected length itself: leave this option out")
    for band in (low, high):
        if band not in BANDS:
            raise SpecError("difficulty", f"must be one of {', '.join(BANDS)}, got {band!r}")
    if BANDS.index(low) > BANDS.index(high):
        raise SpecError("difficulty", f"the ramp runs from {low} up to {high}: {low} is harder")
    if count < 1:
        raise SpecError("count", "a pack needs at least one level")
    base = parse_spec(values)
    bottom = band_window(low, base.squares, base.faces)[0]
    top = band_window(high, base.squares, base.faces)[1]
    step = (top - bottom) / count
    width = max(step, Fraction(2))
    ramped = []
    for i in range(count):
        centre = bottom + step * i + step / 2
        lo = max(bottom, _tenth(centre - width / 2))
        hi = min(top, _tenth(centre + width / 2))
        ramped.append({**values, "expected": format_window((lo, hi))})
    return ramped
