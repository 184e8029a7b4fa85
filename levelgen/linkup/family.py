"""The Link-up family's table of operations (:class:`levelgen.puzzles.Family`).

Each operation is the Link-up code the command line and the service have always run, behind
the generic table: ``verify`` replays the solution and checks the stated metrics (a level
without a solution is solved), ``solve`` records the solver that answered, ``hint`` gives a
safe move proved by the rest of a solution, ``show`` and ``draw`` picture the board (before a
solution step with ``step``), ``player`` gives the browser player's assets.  The texts and
JSON figures are those ``levelgen verify``, ``solve`` and ``hint`` print, so every edge that
goes through the table answers as the command line does.

Documents are :class:`LinkupDocument`: a level (with what is wrong with it: an odd kind, a
stale id, a path that is not straight lines) or a position file (a level and the moves played,
or a bare board).  Options, by name: ``method`` (auto, search, cpsat, exhaustive) and
``workers`` for the solvers, ``keep_generator`` for ``solve`` (keep the file's generator block
instead of recording the solver), ``step`` and ``path`` for ``show`` and ``draw``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..formats.problems import Problem
from ..formats.words import plural
from ..puzzles import (
    Budget,
    Capability,
    CreateError,
    CreateOption,
    DesignAnswer,
    DocumentError,
    FamilyBase,
    HintAnswer,
    PlayerAssets,
    Progress,
    SchemaEntry,
    ShuffleAnswer,
    SolveAnswer,
    SpecError,
    Verdict,
)
from .document import LinkupDocument

if TYPE_CHECKING:
    from ..formats.grid import ExportGrid
    from ..formats.scene import Scene
    from .core.level import Level
    from .generate.spec import CheckedSpec
    from .play.position import Position

__all__ = ["FAMILY", "NOT_A_LEVEL", "LinkupDocument", "LinkupFamily", "warm_up"]

from .family_text import (
    board_at_step,
    core_text,
    move_text,
    odd_kind_warnings,
    position_summary,
    undecided_text,
)
from .options import (
    HINT_OPTIONS,
    check_options,
    check_tiles,
    create_options,
    int_option,
    load_search,
    method_option,
    rival_option,
    tile_option,
)

#: Why a position file is refused where a level file is needed.
NOT_A_LEVEL = "a position file, not a level file: hint, shuffle, show and render read it"


class LinkupFamily(FamilyBase):
    """Link-up: pairs of equal tiles joined by a path of at most ``max_turns`` turns."""

    name = "linkup"
    title = "Link-up"
    capabilities = frozenset(Capability)  # Capability.EDIT too: the editor below
    editor_size = "12x8"

    hint_options = HINT_OPTIONS

    @property
    def create_options(self) -> tuple[CreateOption, ...]:
        return create_options()

    @property
    def bands(self) -> tuple[str, ...]:
        from .difficulty.score import BANDS

        return BANDS

    @property
    def schemas(self) -> dict[str, SchemaEntry]:
        from .schema import SCHEMAS

        return SCHEMAS

    # ----- files ---------------------------------------------------------------------------

    def read(self, data: object) -> LinkupDocument:
        from ..formats.jsonio import ReadError
        from .files import core_level_from_data
        from .play.answers import is_position_data

        if is_position_data(data):
            from .play.position_file import PositionInvalid, parse_position_data
            from .schema.level import LevelFormatError

            try:
                position = parse_position_data(data)
            except LevelFormatError as exc:
                invalid = isinstance(exc, PositionInvalid)  # well-formed, but does not replay
                raise DocumentError(exc.problems, is_format=not invalid) from None
            return LinkupDocument(position.level, (), position)
        try:
            level, problems = core_level_from_data(data)
        except ReadError as exc:
            raise DocumentError(exc.problems, is_format=exc.is_format) from None
        return LinkupDocument(level, tuple(problems))

    def dump(self, document: LinkupDocument) -> dict[str, Any]:
        from .schema import LevelFile

        if document.level is None:
            from .schema.position import position_to_data

            assert document.position is not None
            return position_to_data(document.position.board, document.position.rules)
        return LevelFile.from_core(document.level).to_data()

    def describe(self, document: LinkupDocument) -> str:
        from .draw.terminal import format_summary

        if document.position is not None:
            return position_summary(document.position)
        assert document.level is not None
        return format_summary(document.level)

    # ----- creating ------------------------------------------------------------------------

    def parse_spec(self, values: Mapping[str, Any]) -> CheckedSpec:
        from .generate.spec import CreateSpec, check_create_spec
        from .generate.spec import SpecError as LinkupSpecError

        known = {"size", "difficulty", "layout_name", *(o.name for o in self.create_options)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise SpecError(unknown[0], "not a create option of linkup")
        outside = values.get("outside", True)
        if not isinstance(outside, bool):
            raise SpecError("outside", f"expected true or false, got {outside!r}")
        for name in ("size", "layout", "slide", "difficulty", "layout_name", "symmetry", "shape"):
            if values.get(name) is not None and not isinstance(values[name], str):
                raise SpecError(name, f"expected a string, got {values[name]!r}")
        layout, layout_name = values.get("layout"), values.get("layout_name") or "the layout"
        shape = values.get("shape")
        if shape is not None:
            from .generate.shapes import UnknownShape, shape_text

            if layout is not None:
                raise SpecError("shape", "give a layout or a shape, not both")
            try:
                layout, layout_name = shape_text(shape), f"shape {shape}"
            except UnknownShape as exc:
                raise SpecError("shape", str(exc)) from None
        spec = CreateSpec(
            size=values.get("size"),
            kinds=int_option(values, "kinds", None),
            copies=int_option(values, "copies", 4) or 0,
            max_turns=int_option(values, "max_turns", 2) or 0,
            outside=outside,
            layout=layout,
            layout_name=layout_name,
            difficulty=values.get("difficulty"),
            slide=values.get("slide") or "none",
            layers=int_option(values, "layers", None),
            symmetry=values.get("symmetry"),
            shape=shape,
        )
        try:
            return check_create_spec(spec)
        except LinkupSpecError as exc:
            raise SpecError(exc.field, exc.message, is_format=exc.unreadable) from None

    def create(
        self, spec: CheckedSpec, seed: int, progress: Progress | None = None
    ) -> LinkupDocument:
        from .generate.generator import GenerationError
        from .generate.spec import create_level

        try:
            return LinkupDocument(create_level(spec, seed, progress))
        except GenerationError as exc:
            raise CreateError(str(exc)) from None

    def notes(self, document: LinkupDocument) -> list[str]:
        """A difficulty target the level missed (the closest level found was kept)."""
        level = document.level
        generator = level.generator if level is not None else None
        if generator is None or generator.parameters.get("difficulty_in_band") is not False:
            return []
        found = level.metrics.difficulty if level is not None and level.metrics else None
        got = "" if found is None else f" scores {found.score} ({found.band})"
        target = generator.parameters.get("difficulty")
        attempts = generator.parameters.get("attempts")
        tried = f" in {attempts} attempts" if attempts is not None else ""
        return [
            f"no level met --difficulty {target}{tried}; the closest found{got} was written"
            " (generator.parameters.difficulty_in_band is false)"
        ]

    def shapes(self) -> list[dict[str, Any]]:
        """The named layouts of :mod:`levelgen.linkup.generate.shapes`."""
        from .generate.shapes import shape_info, shape_names

        rows = []
        for name in shape_names():
            i = shape_info(name)
            size = f"{i.width}x{i.height}"
            rows.append({"name": i.name, "size": size, "tiles": i.tiles, "symmetry": i.symmetry})
        return rows

    def ramp(
        self, values: Mapping[str, Any], count: int, low: str, high: str
    ) -> list[dict[str, Any]]:
        """Equal blocks of levels steered to each band from ``low`` to ``high``, in order."""
        from .difficulty.score import BANDS, ramp_bands

        for name, band in (("low", low), ("high", high)):
            if band not in BANDS:
                raise SpecError("ramp", f"{band!r} ({name}) is not one of: {', '.join(BANDS)}")
        bands = ramp_bands(BANDS.index(low), BANDS.index(high), count)
        return [{**values, "difficulty": band} for band in bands]

    def pack_levels(
        self,
        values: Mapping[str, Any],
        count: int,
        *,
        difficulty: str | None,
        ramp: tuple[str, str] | None,
    ) -> list[dict[str, Any]]:
        """Sizes ramped or listed, slide cycles and difficulty (see :mod:`.generate.pack`)."""
        from .generate.pack import pack_levels

        return pack_levels(values, count, difficulty=difficulty, ramp=ramp)

    def difficulty(self, document: LinkupDocument) -> tuple[float, str]:
        level = self._level(document)
        if level.metrics is not None and level.metrics.difficulty is not None:
            found = level.metrics.difficulty
            return found.score, found.band
        if level.solution is None:
            raise DocumentError([Problem("/solution", "no solution to measure: solve it first")])
        from .difficulty.play import measure_difficulty

        measured = measure_difficulty(level.board, level.rules, level.solution)
        return measured.score, measured.band

    def rate(self, document: LinkupDocument, *, seed: int) -> LinkupDocument:
        """The level with its difficulty block (see :mod:`levelgen.linkup.rating`)."""
        from .rating import rate_level

        level = self._level(document)
        if document.problems:
            raise DocumentError(document.problems, is_format=False)
        return LinkupDocument(rate_level(level, seed=seed))

    def summary(self, document: LinkupDocument) -> dict[str, Any]:
        """The library's summary (:mod:`.summary`): the recorded difficulty, never measured."""
        from .summary import level_summary

        return level_summary(self._level(document))

    def add_benchmarks(self, app: Any) -> None:
        """``levelgen bench`` paths, solve, create, shape, play and boards (:mod:`.bench`)."""
        from .bench import register

        register(app)

    # ----- checking and solving ------------------------------------------------------------

    def verify(
        self,
        document: LinkupDocument,
        *,
        prove: bool = False,
        budget: Budget,
        options: Mapping[str, Any],
    ) -> Verdict:
        """The replayed solution is itself a complete proof, so ``prove`` checks what ``verify``
        checks."""
        from .difficulty import metrics_problems
        from .draw.terminal import format_summary
        from .verify import replay

        options = check_options(options, ("method", "workers"), "verify")
        if document.position is not None:
            return Verdict("schema-invalid", "", (Problem("", NOT_A_LEVEL),), {"deadlock": []})
        level, problems = document.level, list(document.problems)
        if level is None:
            return Verdict("invalid", "", tuple(problems), {"deadlock": []})
        if level.solution is not None:
            problems.extend(replay(level.board, level.rules, level.solution))
            if not problems and level.metrics is not None:
                problems = metrics_problems(level.board, level.rules, level.solution, level.metrics)
            if problems:
                return Verdict("invalid", "", tuple(problems), {"deadlock": []})
            return Verdict(
                "ok", f"ok: solution replayed ({format_summary(level)})", (), {"deadlock": []}
            )
        if problems:
            return Verdict("invalid", "", tuple(problems), {"deadlock": []})
        from .solvers import SolveStatus, solve

        result = solve(
            level.board,
            level.rules,
            budget=budget,
            method=method_option(options),
            rival=rival_option(options),
        )
        if result.status is SolveStatus.SOLVED:
            steps = plural(len(result.moves or ()), "step")
            return Verdict("solvable", f"solvable: a solution of {steps} was found")
        if result.status is SolveStatus.UNSOLVABLE:
            core = [[p.x, p.y] for p in result.deadlock]
            text = f"unsolvable: {result.reason}" if result.reason else "unsolvable"
            text += core_text(result.deadlock)
            return Verdict("unsolvable", text, (), {"deadlock": core})
        return Verdict("undecided", undecided_text(budget, result.reason), (), {"deadlock": []})

    def solve(
        self, document: LinkupDocument, *, budget: Budget, options: Mapping[str, Any]
    ) -> SolveAnswer:
        """Any solution in the file is replaced.  The solved level's generator block names
        levelgen-solve, its version and the solver that answered (the seed and parameters of
        whatever made the earlier board no longer describe it); ``keep_generator`` keeps the
        file's own block instead."""
        from ..formats.version import VERSION
        from .core.level import GeneratorInfo, Level
        from .difficulty import solution_metrics
        from .schema.parameters import GENERATOR_SOLVE
        from .solvers import SolveStatus, solve

        options = check_options(options, ("method", "workers", "keep_generator"), "solve")
        level = document.level
        if level is None or document.problems or document.position is not None:
            problems = document.problems
            if document.position is not None:
                problems = (Problem("", NOT_A_LEVEL),)
            return SolveAnswer("invalid", "the level is invalid", problems=problems)
        method = method_option(options)
        result = solve(
            level.board, level.rules, budget=budget, method=method, rival=rival_option(options)
        )
        if result.status is SolveStatus.UNSOLVABLE:
            reason = result.reason or "no removal order clears the board"
            text = f"unsolvable: {reason}"
            text += core_text(result.deadlock)
            deadlock = [[p.x, p.y] for p in result.deadlock]
            return SolveAnswer("unsolvable", text, None, {"deadlock": deadlock})
        if result.status is SolveStatus.UNKNOWN:
            return SolveAnswer("unknown", undecided_text(budget, result.reason), None, {})
        moves = result.moves or ()
        provenance = level.generator
        if not options.get("keep_generator"):
            parameters: dict[str, object] = {
                "method": result.method or method,
                "requested_method": method,
                "time_limit": budget.time_limit,
            }
            provenance = GeneratorInfo(GENERATOR_SOLVE, VERSION, None, parameters)
        solved = Level(
            level.board,
            level.rules,
            moves,
            solution_metrics(level.board, level.rules, moves),
            provenance,
        )
        text = f"solved: a solution of {len(moves)} steps"
        return SolveAnswer("solved", text, LinkupDocument(solved), {})

    def hint(
        self, document: LinkupDocument, *, budget: Budget, options: Mapping[str, Any]
    ) -> HintAnswer:
        """A safe hint: a move after which the game can still be won, proved by the rest of a
        solution (statuses: ``ok`` for a hint or a won game, ``unsolvable`` for a lost one,
        ``unknown`` when undecided; ``details`` as ``levelgen hint --json``)."""
        from .play.answers import hint_to_data
        from .play.position import position_from_level

        options = check_options(options, ("method", "workers"), "hint")
        position = document.position
        if position is None:
            if document.level is None:
                raise DocumentError(document.problems)
            position = position_from_level(document.level)
        result = position.hint(budget, method=method_option(options), rival=rival_option(options))
        lines: list[str]
        if result.status == "hint" and result.move is not None:
            lines = [f"hint: {move_text(result.move)}", f"safe: {result.reason}"]
        elif result.status == "won":
            lines = ["won: no tiles are left"]
        elif result.status == "lost":
            text = f"lost: {result.reason}"
            text += core_text(result.deadlock)
            lines = [text]
        else:
            lines = [result.reason]
            if result.move is not None:
                lines.append(f"unproved: {move_text(result.move)}")
        status = {"hint": "ok", "won": "ok", "lost": "unsolvable"}.get(result.status, "unknown")
        return HintAnswer(status, "\n".join(lines), hint_to_data(result))

    def shuffle(
        self,
        document: LinkupDocument,
        *,
        seed: int,
        budget: Budget,
        options: Mapping[str, Any],
    ) -> ShuffleAnswer:
        """A solvable re-deal of the position's tiles (:mod:`levelgen.linkup.play.dealing`)."""
        from .play.dealing import shuffle_answer
        from .play.position import position_from_level

        position = document.position
        if position is None:
            position = position_from_level(self._level(document))
        answer = shuffle_answer(position, seed=seed, budget=budget, options=options)
        if answer.document is None:
            return answer
        return replace(answer, document=LinkupDocument(answer.document))

    def fix(
        self, document: LinkupDocument, *, budget: Budget, options: Mapping[str, Any]
    ) -> DesignAnswer:
        """The fewest tile swaps found that make the level solvable (:mod:`.design`)."""
        from .design.answers import fix_answer

        return fix_answer(document, budget=budget, options=options)

    def fill(
        self, document: LinkupDocument, *, seed: int, budget: Budget, options: Mapping[str, Any]
    ) -> DesignAnswer:
        """Tiles put on the given empty cells so that the level is solvable (:mod:`.design`)."""
        from .design.answers import fill_answer

        return fill_answer(document, seed=seed, budget=budget, options=options)

    # ----- pictures ------------------------------------------------------------------------

    def show(
        self, document: LinkupDocument, *, color: bool, options: Mapping[str, Any]
    ) -> tuple[str, list[str]]:
        """The board with a glyph and colour per kind, then a summary; with ``step`` the board
        before that solution step with its path.  A position file shows its current board.
        Warns of a kind with an odd number of tiles, counted over every layer (the board is
        shown all the same)."""
        from .draw.terminal import format_summary, render_board

        options = check_options(options, ("step",), "show")
        step = options.get("step")
        position = document.position
        if position is not None:
            if step is not None:
                raise SpecError("step", "a position file has no solution to step through")
            picture = render_board(position.board, position.rules, color=color)
            warnings = odd_kind_warnings(position.board)
            return f"{picture}\n{position_summary(position)}", warnings
        level = self._level(document)
        warnings = odd_kind_warnings(level.board)
        if step is None:
            picture = render_board(level.board, level.rules, color=color)
            return f"{picture}\n{format_summary(level)}", warnings
        board, _ = board_at_step(level, step)
        solution = level.solution or ()
        move = solution[step]
        picture = render_board(board, level.rules, path=move.path, color=color)
        turns, length = move.path.turns, move.path.length
        line = (
            f"step {step} of {len(solution)}: kind {move.kind}, {move.a} and {move.b},"
            f" {plural(turns, 'turn')}, {plural(length, 'step')} long"
        )
        return f"{picture}\n{line}", warnings

    def draw(
        self, document: LinkupDocument, *, cell_size: int, options: Mapping[str, Any]
    ) -> Scene:
        """The board as a picture; with ``step`` the board before that solution step, with its
        path drawn unless ``path`` is false (``path`` alone draws step 0's).  A position file
        is drawn as its current board.  ``tiles``: a :class:`~levelgen.linkup.draw.tiles.TileSet`
        (the built-in pictures unless given)."""
        from .draw.svg import board_scene

        options = check_options(options, ("step", "path", "tiles"), "draw")
        step, show_path = options.get("step"), options.get("path")
        tiles = tile_option(options)
        position = document.position
        if position is not None:
            if step is not None or show_path:
                raise SpecError("step", "a position file has no solution to step through")
            check_tiles(position.board, tiles)
            return board_scene(position.board, position.rules, cell_size=cell_size, tiles=tiles)
        level = self._level(document)
        check_tiles(level.board, tiles)
        if step is None and show_path:
            step = 0
        if step is None:
            return board_scene(level.board, level.rules, cell_size=cell_size, tiles=tiles)
        board, path = board_at_step(level, step)
        drawn = path if show_path is not False else None
        return board_scene(board, level.rules, path=drawn, cell_size=cell_size, tiles=tiles)

    def export_grid(self, document: LinkupDocument, *, options: Mapping[str, Any]) -> ExportGrid:
        """The level for engine exports (see :mod:`levelgen.linkup.draw.export`); no options."""
        from .draw.export import export_grid

        check_options(options, (), "export")
        if document.position is not None:
            raise DocumentError([Problem("", NOT_A_LEVEL)])
        return export_grid(self._level(document))

    def player(
        self,
        document: LinkupDocument,
        *,
        with_api: bool,
        name: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> PlayerAssets:
        """The player page's assets; ``tiles`` as for :meth:`draw`."""
        from .draw.player import player_assets

        tiles = tile_option(check_options(options or {}, ("tiles",), "play"))
        level = self._level(document)
        check_tiles(level.board, tiles)
        title = ""  # the player's own: "Link-up WxH level"
        if name is not None:
            title = f"Link-up {level.board.width}x{level.board.height}"
            title += f": {name}" if name else ""
        return player_assets(level, with_api=with_api, title=title, tiles=tiles)

    def editor(self, document: LinkupDocument | None) -> PlayerAssets:
        """The editor's part of the editor page (:mod:`levelgen.linkup.draw.editor`)."""
        from .draw.editor import editor_assets

        return editor_assets(document)

    def warm_up(self) -> None:
        """Import what the service's tasks need (once in each of its workers, at start)."""
        warm_up()

    def _position(self, document: LinkupDocument) -> Position:
        if document.position is not None:
            return document.position
        from .play.position import position_from_level

        return position_from_level(self._level(document))

    def _level(self, document: LinkupDocument) -> Level:
        if document.level is None:
            if document.position is not None:
                raise DocumentError(
                    [Problem("", "a position file without its level: give the level file")]
                )
            raise DocumentError(document.problems, is_format=False)
        return document.level


def warm_up() -> None:
    """Import what the service's tasks need (once in each worker, at start)."""
    from .generate import generator  # noqa: F401
    from .play import answers, game  # noqa: F401
    from .schema import level  # noqa: F401

    load_search()
    from .solvers import solve  # noqa: F401
    from .verify import replay  # noqa: F401


FAMILY = LinkupFamily()
