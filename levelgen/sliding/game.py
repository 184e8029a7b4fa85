"""The sliding-puzzle family's table of operations (:class:`levelgen.puzzles.Family`).

:class:`SlidingPuzzleFamily` joins the parts: files (:mod:`.schema`), create specs and bands
(:mod:`.spec`), the generator (:mod:`.generate`), the verifier (:mod:`.verify`), the solver
(:mod:`.solver`), pictures (:mod:`.draw`) and the browser player (:mod:`.player`).  The
documents it takes and gives are :class:`levelgen.sliding.level.SlidingLevel` values (a level,
or a position: a level with ``played`` and/or ``current``).

What the operations answer, in ``details`` (JSON values, returned by the service as they are):

- ``solve``: ``game``, ``size``, ``kind``, ``method``, ``nodes``, ``optimal_length`` (None
  unless solved), ``solution`` (the least optimal solution, or the best found when unknown,
  or None), ``proved_optimal``, ``lower_bound`` (proved), ``heuristic_bound`` (the search's
  bound at the start), ``optimal_solutions`` and ``solutions_cap`` (None when not counted),
  and ``invariant`` (the figures of the proof) when unsolvable;
- ``hint``: ``move`` (``U``/``D``/``L``/``R``, the blank's way, or None at the goal),
  ``tile`` (the label that slides), ``distance`` (optimal moves left, None when unknown),
  ``lower_bound`` (proved), ``frame`` (the rows the hint is for), ``method`` and ``nodes``;
  when the budget ran out before the optimum was proved (``unknown``), the move starts the
  best solution found, of ``solution_length`` moves;
- ``verify``: see :func:`levelgen.sliding.verify.verify_level`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..formats.grid import ExportGrid
from ..formats.scene import ImageFile, Scene
from ..puzzles import (
    Budget,
    Capability,
    CreateOption,
    DocumentError,
    FamilyBase,
    HintAnswer,
    PlayerAssets,
    Progress,
    SchemaEntry,
    SolveAnswer,
    SpecError,
    Verdict,
)
from .draw import draw_level, show_level
from .editor import editor_assets
from .generate import create_level
from .heuristics import lower_bound
from .level import Metrics, SlidingLevel
from .picture import CutPicture, PictureError, cut_picture
from .player import player_assets
from .rating import level_difficulty, rate_level
from .rules import Frame, MoveError, apply_moves, parse_moves
from .schema import dump_level, level_json_schema, parse_level
from .solver import COUNT_CAP, solve
from .spec import BANDS, CREATE_OPTIONS, CreateSpec, band_of, parse_spec, ramp
from .verify import verify_level

__all__ = ["SlidingPuzzleFamily"]

_WAY = {"U": "down", "D": "up", "L": "right", "R": "left"}


def _level(document: Any) -> SlidingLevel:
    if not isinstance(document, SlidingLevel):
        raise TypeError(f"expected a sliding-puzzle level, got {type(document).__name__}")
    return document


class SlidingPuzzleFamily(FamilyBase):
    """Sliding-tile puzzles: numbered (the 8- and 15-puzzles) and colour boards, 2x2 to 8x8,
    levels at an exact optimal length, solved optimally."""

    name = "sliding-puzzle"
    title = "Sliding puzzle"
    capabilities: frozenset[Capability] = frozenset(Capability) - {
        Capability.SHUFFLE,
        Capability.FIX,
        Capability.FILL,
    }
    schemas: Mapping[str, SchemaEntry] = {
        "level": SchemaEntry(level_json_schema, "sliding-puzzle.level.v1.schema.json")
    }
    create_options: Sequence[CreateOption] = CREATE_OPTIONS
    editor_size = "4x4"
    bands: Sequence[str] = BANDS
    hint_options: Sequence[CreateOption] = (
        CreateOption("played", "MOVES", "moves played since the file's position (U, D, L, R)."),
    )

    # ----- files ---------------------------------------------------------------------------

    def read(self, data: object) -> SlidingLevel:
        """A level or position from parsed JSON (see :mod:`levelgen.sliding.schema`)."""
        return parse_level(data)

    def dump(self, document: Any) -> dict[str, Any]:
        """The canonical JSON value of a level or position."""
        return dump_level(_level(document))

    def describe(self, document: Any) -> str:
        """``4x4 numbered, optimal 40 moves (hard)``; a position adds what was played."""
        level = _level(document)
        text = f"{level.size_text} {level.kind}"
        if not level.numbered:
            text += f" ({len(level.goal.labels())} colours)"
        if level.metrics is not None:
            text += f", optimal {level.metrics.optimal_length} moves ({level.metrics.band})"
        elif level.solution is not None:
            text += f", a solution of {len(level.solution)} moves"
        else:
            text += ", no certificate"
        if level.played:
            text += f", {len(level.played)} played"
        elif level.current is not None:
            text += ", a position"
        return text

    # ----- making levels -------------------------------------------------------------------

    def parse_spec(self, values: Mapping[str, Any]) -> CreateSpec:
        """A create spec (see :mod:`levelgen.sliding.spec`)."""
        return parse_spec(values)

    def create(self, spec: Any, seed: int, progress: Progress | None = None) -> SlidingLevel:
        """A level at the spec's exact optimal length (see :mod:`levelgen.sliding.generate`)."""
        if not isinstance(spec, CreateSpec):
            raise TypeError("expected a spec from parse_spec")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SpecError("seed", "expected a whole number >= 0")
        return create_level(spec, seed, progress)

    def ramp(
        self, values: Mapping[str, Any], count: int, low: str, high: str
    ) -> list[dict[str, Any]]:
        """Create options whose optimal lengths rise evenly from the bottom of band ``low`` to
        the top of band ``high``."""
        return ramp(values, count, low, high)

    def difficulty(self, document: Any) -> tuple[float, str]:
        """The score and band of the level's difficulty block, rated when it has none."""
        return level_difficulty(_checked(_level(document)))

    def rate(self, document: Any, *, seed: int) -> SlidingLevel:
        """The level with its difficulty block (see :mod:`levelgen.sliding.rating`); its
        certificate and figures are checked first, as ``verify`` does."""
        return rate_level(_checked(_level(document)), seed=seed)

    def add_benchmarks(self, app: Any) -> None:
        """``levelgen bench sliding`` (:mod:`.bench_command`)."""
        from .bench_command import register

        register(app)

    def add_table_commands(self, app: Any) -> None:
        """``levelgen tables list|build|clear`` (:mod:`.tables_command`)."""
        from .tables_command import register

        register(app)

    # ----- checking and solving ------------------------------------------------------------

    def verify(
        self, document: Any, *, prove: bool, budget: Budget, options: Mapping[str, Any]
    ) -> Verdict:
        """See :func:`levelgen.sliding.verify.verify_level` (no options)."""
        _no_options(options, "verify")
        return verify_level(_level(document), prove=prove, budget=budget)

    def solve(self, document: Any, *, budget: Budget, options: Mapping[str, Any]) -> SolveAnswer:
        """Solve the level from its start: the level with its certificate and metrics
        (solved), the invariant (unsolvable), or the best solution found and the proved
        lower bound (unknown; no metrics, as nothing is proved)."""
        _no_options(options, "solve")
        level = _level(document)
        found = solve(level.start, level.goal, budget, count_cap=COUNT_CAP)
        details: dict[str, Any] = {
            "game": self.name,
            "size": level.size_text,
            "kind": level.kind,
            "status": found.status,
            "method": found.method,
            "nodes": found.nodes,
            "optimal_length": found.length,
            "solution": found.path,
            "proved_optimal": found.status == "solved",
            "lower_bound": found.lower_bound,
            "bound_factor": found.bound_factor,
            "heuristic_bound": found.heuristic,
            "optimal_solutions": found.count,
            "solutions_cap": COUNT_CAP if found.count is not None else None,
        }
        if found.status == "unsolvable":
            details["invariant"] = found.invariant
            return SolveAnswer("unsolvable", f"unsolvable: {found.reason}", None, details)
        if found.status == "solved":
            assert found.length is not None
            metrics = Metrics(
                found.length,
                found.count,
                COUNT_CAP,
                lower_bound(level.start, level.goal),
                band_of(found.length, level.width, level.height, level.numbered),
            )
            solved = SlidingLevel(
                level.start,
                level.goal,
                found.path,
                metrics,
                level.generator,
                level.played,
                level.current,
            )
            return SolveAnswer("solved", f"solved: {found.reason}", solved, details)
        best = None
        if found.path is not None:
            best = SlidingLevel(
                level.start,
                level.goal,
                found.path,
                None,
                level.generator,
                level.played,
                level.current,
            )
        return SolveAnswer("unknown", f"unknown: {found.reason}", best, details)

    def hint(self, document: Any, *, budget: Budget, options: Mapping[str, Any]) -> HintAnswer:
        """The next move of the least optimal solution from the position, and the optimal
        distance left.  ``options`` may hold ``played``: moves played after the document's
        position (:class:`SpecError` for other keys or moves off the board)."""
        at = options
        level = _level(document)
        frame = level.frame_now()
        for key in at:
            if key != "played":
                raise SpecError(key, "unknown place option for sliding-puzzle (options: played)")
        extra = at.get("played")
        if extra is not None:
            if not isinstance(extra, str):
                raise SpecError("played", "expected a string of moves U, D, L, R")
            try:
                frame = apply_moves(frame, parse_moves(extra))
            except MoveError as exc:
                raise SpecError("played", str(exc)) from None
        details: dict[str, Any] = {"frame": frame.rows(), "move": None, "tile": None}
        if frame == level.goal:
            details.update(distance=0, lower_bound=0, method="none", nodes=0)
            return HintAnswer("ok", "solved: the goal is reached", details)
        found = solve(frame, level.goal, budget, known=level.known_solution(extra or ""))
        details.update(
            distance=found.length,
            lower_bound=found.lower_bound,
            method=found.method,
            nodes=found.nodes,
        )
        if found.status == "unsolvable":
            details["invariant"] = found.invariant
            return HintAnswer("unsolvable", f"unsolvable: {found.reason}", details)
        if found.path:
            move = found.path[0]
            tile = _tile_of(frame, move)
            details.update(move=move, tile=tile)
            if found.status == "solved":
                text = (
                    f"move {move}: slide tile {tile} {_WAY[move]};"
                    f" {found.length} moves left with best play"
                )
                return HintAnswer("ok", text, details)
            details.update(solution_length=len(found.path))
            return HintAnswer(
                "unknown",
                f"unknown: {found.reason}; move {move} (slide tile {tile} {_WAY[move]})"
                f" starts a solution of {len(found.path)} moves, at least"
                f" {found.lower_bound} are needed",
                details,
            )
        return HintAnswer("unknown", f"unknown: {found.reason}", details)

    # ----- pictures and play ---------------------------------------------------------------

    def show(
        self, document: Any, *, color: bool, options: Mapping[str, Any]
    ) -> tuple[str, list[str]]:
        """The level (or position) and its goal as terminal text."""
        _no_options(options, "show")
        return show_level(_level(document), color=color), []

    def draw(self, document: Any, *, cell_size: int, options: Mapping[str, Any]) -> Scene:
        """The level (or position) and its goal as a picture; ``image`` (a PNG or JPEG
        :class:`~levelgen.formats.scene.ImageFile`, or its bytes):
        a picture puzzle, its tiles cut from the image (``numbers``: numbered too)."""
        level = _level(document)
        cs = max(8, cell_size)
        picture, numbers = _picture_options(level, options, "draw", 2 * cs)
        return draw_level(level, cell_size=cs, picture=picture, numbers=numbers)

    def export_grid(self, document: Any, *, options: Mapping[str, Any]) -> ExportGrid:
        """The level for engine exports (see :mod:`levelgen.sliding.export`); no options."""
        from .export import export_grid

        _no_options(options, "export")
        return export_grid(_level(document))

    def player(
        self,
        document: Any,
        *,
        with_api: bool,
        name: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> PlayerAssets:
        """The browser player of the level (or position); ``image`` and ``numbers`` as for
        :meth:`draw`."""
        level = _level(document)
        picture, numbers = _picture_options(level, options or {}, "play", PICTURE_TILE_PX)
        return player_assets(level, with_api=with_api, picture=picture, numbers=numbers)

    def editor(self, document: Any | None) -> PlayerAssets:
        """The browser editor's part (:mod:`.editor`): start and goal frames, each change solved."""
        return editor_assets(document)


#: Pixels a tile of a picture puzzle's player page (shown at 64, sharp on dense screens).
PICTURE_TILE_PX = 128


def _picture_options(
    level: SlidingLevel, options: Mapping[str, Any], what: str, tile_px: int
) -> tuple[CutPicture | None, bool]:
    """The cut picture (or None) and whether its tiles show numbers; :class:`SpecError`
    naming the option for any other option, ``numbers`` without ``image``, a colour puzzle
    or bytes that are no PNG or JPEG image."""
    for name in options:
        if name not in ("image", "numbers"):
            raise SpecError(name, f"not an option of sliding-puzzle's {what}")
    data, numbers = options.get("image"), options.get("numbers")
    if data is None:
        if numbers is not None:
            raise SpecError("numbers", "numbers on picture tiles need --image")
        return None, False
    if not level.numbered:
        raise SpecError(
            "image",
            "a colour puzzle's tiles share labels and are interchangeable: a picture needs a"
            " numbered puzzle",
        )
    if isinstance(data, ImageFile):
        data = data.data
    if not isinstance(data, bytes):
        raise SpecError("image", "must be a PNG or JPEG image")
    try:
        picture = cut_picture(data, level.goal, tile_px)
    except PictureError as exc:
        raise SpecError("image", str(exc)) from None
    return picture, bool(numbers)


def _no_options(options: Mapping[str, Any], what: str) -> None:
    """:class:`SpecError` for any option: the sliding puzzle's ``what`` takes none."""
    for name in options:
        raise SpecError(name, f"not an option of sliding-puzzle's {what}")


def _tile_of(frame: Frame, move: str) -> int:
    """The label of the tile that ``move`` slides (the one the blank goes to)."""
    return frame.cells[frame.move(move).blank]


def _checked(level: SlidingLevel) -> SlidingLevel:
    """``level``, or :class:`DocumentError` (not a format error) saying what is wrong with its
    certificate and stated figures."""
    from .verify import certificate_problems

    problems = certificate_problems(level)
    if problems:
        raise DocumentError(problems, is_format=False)
    return level
