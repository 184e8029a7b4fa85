"""Generation steered towards a difficulty: ``create --difficulty easy|medium|hard|expert|N``.

Levers.  Measured with ``levelgen bench create --difficulty --levers`` (numbers in the README),
two levers move the score of :mod:`levelgen.linkup.difficulty.score` far and reliably: the *layout
density* (tile slots turned into holes make a board roomier and easier; slots turned into
walls block paths and breed traps) and the *copies* per kind (many copies: many moves to choose
from; four copies: the most traps).  Kind assignment by
:func:`levelgen.linkup.generate.shaping.shape_kinds` (CP-SAT) on full 12x8 boards: shaped "easy"
lowers the mean score from 22.4 (random deal) to
14.1, shaped "hard" leaves it at 24.3 with the random player winning as often as before, and
each costs 1.5 to 2 s a level where a density rung costs milliseconds, so the steering does
not use it; the choice of removal order is the generator's
own (partners far apart), which keeps the pair distance measure near its maximum on every rung.

The ladder.  ``RUNGS`` orders (density, copies) settings from easiest to hardest.  Steering
starts at the band's usual rung, makes a level (a fresh seed drawn from the user's seed for
every attempt), scores it without the random player, and climbs when the score is below the
target, descends when above, until a level lands in the target or ``max_attempts`` are spent;
then the level closest to the target is kept and ``in_band`` is False (the CLI says so on
standard error, and the file's ``generator.parameters.difficulty_in_band`` is false).  The
kept level's difficulty is then completed with the random player's win rate.

Pure and deterministic: the same size, rules, layout, target and seed give the same level.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..core.board import EMPTY, WALL, Board
from ..core.geometry import Size
from ..core.level import Difficulty, GeneratorInfo, Level
from ..core.rules import Rules
from ..difficulty.play import DEFAULT_PLAY, PlaySettings, measure_difficulty, playout_win_rate
from ..difficulty.score import BANDS, Band, band_bounds, band_of
from .generator import SLOT, GenerationError, generate

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "RUNGS",
    "Rung",
    "SteerResult",
    "Target",
    "apply_density",
    "parse_target",
    "steered_generate",
]

#: Levels tried before the closest is kept.
DEFAULT_MAX_ATTEMPTS = 12
#: A numeric target is met within this many points.
SCORE_TOLERANCE = 5.0


@dataclass(frozen=True, slots=True)
class Rung:
    """One lever setting: ``density`` < 0 turns that share of the tile slots into holes, > 0
    into walls; ``copies`` tiles per kind."""

    density: float
    copies: int


RUNGS: tuple[Rung, ...] = (
    Rung(-0.40, 8),
    Rung(-0.30, 8),
    Rung(-0.20, 6),
    Rung(-0.10, 4),
    Rung(0.0, 4),
    Rung(0.05, 4),
    Rung(0.10, 4),
    Rung(0.15, 4),
    Rung(0.20, 4),
)
#: Where each band starts on the ladder.
START_RUNG: dict[str, int] = {"easy": 1, "medium": 2, "hard": 5, "expert": 8}


@dataclass(frozen=True, slots=True)
class Target:
    """A band, or a score (``score`` set, ``band`` its band)."""

    band: Band
    score: float | None = None

    def __str__(self) -> str:
        return self.band if self.score is None else f"{self.score:g}"

    def distance(self, score: float) -> float:
        """0 when ``score`` meets the target, else how far it is from it."""
        if self.score is not None:
            return max(0.0, abs(score - self.score) - SCORE_TOLERANCE)
        low, high = band_bounds(self.band)
        return low - score if score < low else score - high + 0.1 if score >= high else 0.0

    def direction(self, score: float) -> int:
        """+1 when a harder level is needed, -1 an easier one, 0 when met."""
        if self.distance(score) == 0:
            return 0
        centre = self.score if self.score is not None else sum(band_bounds(self.band)) / 2
        return 1 if score < centre else -1


def parse_target(text: str) -> Target:
    """``easy``, ``medium``, ``hard``, ``expert`` or a score 0..100; ``ValueError`` otherwise."""
    word = text.strip().lower()
    if word in BANDS:
        return Target(word)
    try:
        score = float(word)
    except ValueError:
        raise ValueError(
            f"{text!r} is neither a band ({', '.join(BANDS)}) nor a score 0..100"
        ) from None
    if not 0 <= score <= 100:
        raise ValueError(f"the score {score:g} is not in 0..100")
    return Target(band_of(score), score)


@dataclass(frozen=True, slots=True)
class SteerResult:
    """The level kept, the target, whether it was met, the attempts made and the rung used."""

    level: Level
    target: Target
    in_band: bool
    attempts: int
    rung: Rung


def apply_density(template: Board, density: float, rng: random.Random) -> Board:
    """``template`` with ``round(|density| * slots)`` of its tile slots (an even number, drawn
    with ``rng``) turned into holes (``density`` < 0) or walls (> 0)."""
    slots = [i for i, v in enumerate(template.cells) if v >= 1]
    n = int(abs(density) * len(slots) + 0.5) // 2 * 2
    if n == 0:
        return template
    cells = list(template.cells)
    for i in rng.sample(slots, n):
        cells[i] = EMPTY if density < 0 else WALL
    return Board(template.width, template.height, tuple(cells))


def steered_generate(
    size: Size,
    target: Target,
    *,
    seed: int,
    rules: Rules | None = None,
    layout: Board | None = None,
    kinds: int | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    settings: PlaySettings = DEFAULT_PLAY,
) -> SteerResult:
    """A level of ``size`` steered towards ``target`` (see the module docstring).  ``layout``:
    the template whose tile slots the density lever works on (default: a full board).
    Raises ``GenerationError`` when no attempt produced a level at all."""
    rules = rules or Rules()
    from ..core.variant_support import refuse_variants

    refuse_variants(layout or Board(1, 1, (SLOT,)), rules, "difficulty steering")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerationError(f"seed must be a non-negative integer, got {seed!r}")
    if max_attempts < 1:
        raise GenerationError(f"max_attempts must be at least 1, got {max_attempts!r}")
    width, height = size
    base = layout if layout is not None else Board(width, height, (SLOT,) * (width * height))
    rng = random.Random(seed)
    rung = START_RUNG[target.band]
    best: tuple[float, Level, Difficulty, int, int] | None = None
    last_error: GenerationError | None = None
    attempts = 0
    for attempt in range(max_attempts):
        attempts = attempt + 1
        level_seed = rng.randrange(2**53)
        setting = RUNGS[rung]
        template = apply_density(base, setting.density, random.Random(level_seed))
        try:
            level = generate(
                size,
                kinds=kinds,
                copies=setting.copies,
                rules=rules,
                layout=None if template is base and layout is None else template,
                seed=level_seed,
            )
        except GenerationError as exc:
            last_error = exc
            rung = max(0, rung - 1)  # too many walls (or copies) for this board
            continue
        assert level.solution is not None
        diff = measure_difficulty(
            level.board,
            rules,
            level.solution,
            seed=level_seed,
            settings=settings,
            with_random=False,
        )
        gap = target.distance(diff.score)
        if best is None or gap < best[0]:
            best = (gap, level, diff, rung, level_seed)
        step = target.direction(diff.score)
        if step == 0:
            break
        far = 2 if gap > 15 else 1
        rung = min(len(RUNGS) - 1, max(0, rung + step * far))
    if best is None:
        assert last_error is not None
        raise last_error
    gap, level, diff, used, level_seed = best
    assert level.solution is not None and level.metrics is not None
    measures = dict(diff.measures)
    measures["random_win_rate"] = round(
        playout_win_rate(level.board, rules, seed=level_seed, playouts=settings.random_playouts),
        4,
    )
    difficulty = Difficulty(diff.score, diff.band, measures)
    generator = level.generator
    assert generator is not None
    parameters = dict(generator.parameters)
    parameters.update(
        {
            "difficulty": str(target),
            "difficulty_in_band": gap == 0,
            "density": RUNGS[used].density,
            "level_seed": level_seed,
        }
    )
    steered = dataclasses.replace(
        level,
        metrics=dataclasses.replace(level.metrics, difficulty=difficulty),
        generator=GeneratorInfo(generator.name, generator.version, seed, parameters),
    )
    return SteerResult(steered, target, gap == 0, attempts, RUNGS[used])
