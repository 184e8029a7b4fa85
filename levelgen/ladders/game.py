"""The snakes-and-ladders family: the table of operations the edges call
(:class:`levelgen.puzzles.Family`), each a thin call into the modules of this package.

``create`` steers a board into the spec's window (:mod:`levelgen.ladders.generate`), writes
its exact analysis and runs the verifier on the level (``verify`` without ``prove``: the
analysis recomputed and compared); ``verify --prove`` adds the checks that trust neither the
solver nor the float recurrence (:func:`levelgen.ladders.verify.proof_problems`).
``difficulty`` and ``rate`` give the difficulty block on the one scale
(:mod:`levelgen.ladders.rating`; ``create --difficulty BAND`` writes it); ``ramp`` gives
windows that rise from one band to another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..formats.grid import ExportGrid
from ..formats.scene import Scene
from ..puzzles import (
    Budget,
    Capability,
    CreateError,
    CreateOption,
    FamilyBase,
    HintAnswer,
    OptionKind,
    PlayerAssets,
    Progress,
    SchemaEntry,
    SolveAnswer,
    SpecError,
    Verdict,
)
from .analysis import Solved, analysis_of, solve_board
from .draw import draw_level
from .files import GAME, GeneratorFile, Level, dump_level, level_json_schema, parse_level
from .generate import design_rules_problems, generate_board
from .player import player_assets
from .rating import level_difficulty, rate_level, rate_solved
from .rules import Rules
from .show import show_level
from .spec import BANDS, Design, LaddersSpec, parse_spec, ramp_specs
from .verify import hint_level, solve_level, verify_level

__all__ = ["GENERATOR_NAME", "LaddersFamily"]

GENERATOR_NAME = "levelgen"

CREATE_OPTIONS = (
    CreateOption(
        "snakes",
        "N",
        "Snakes on the board (default 0.8*sqrt(squares): 8 on 10x10).",
        OptionKind.INT,
    ),
    CreateOption(
        "ladders",
        "N",
        "Ladders on the board (default 0.8*sqrt(squares): 8 on 10x10).",
        OptionKind.INT,
    ),
    CreateOption(
        "expected",
        "LO:HI",
        "Window of the exact expected number of rolls, either side optional (30:35, 30:, :40);"
        " instead of --difficulty.",
    ),
    CreateOption(
        "fewest",
        "LO:HI",
        "Bounds on the fewest rolls to finish (6:, :9, 6:9 or 7; default N/(3*faces) or more).",
    ),
    CreateOption("faces", "F", "Faces of the die, 2..20 (default 6).", OptionKind.INT),
    CreateOption(
        "overshoot",
        "RULE",
        "A roll past the last square: exact (stay, default), bounce (count back) or pass (win).",
    ),
    CreateOption(
        "final_snakes",
        "yes|no",
        "Allow snakes on the last row's squares within one roll of the end.",
        OptionKind.BOOL,
    ),
    CreateOption(
        "ladder_crossings",
        "K",
        "Most pairs of ladders whose lines cross (default 0).",
        OptionKind.INT,
    ),
    CreateOption(
        "snake_crossings",
        "K",
        "Most pairs of a snake with a snake or a ladder whose lines cross (default 2).",
        OptionKind.INT,
    ),
    CreateOption(
        "max_length",
        "R",
        "Most rows a snake or ladder spans (default half the rows, rounded up: 5 on 10x10).",
        OptionKind.INT,
    ),
    CreateOption(
        "shared_ends",
        "yes|no",
        "Allow two snakes or ladders to end on one square (default no).",
        OptionKind.BOOL,
    ),
    CreateOption(
        "thirds",
        "yes|no",
        "Each third of the board holds a jump's start, and a ladder's and a snake's when there"
        " are three of each (default yes).",
        OptionKind.BOOL,
    ),
)


def _version() -> str:
    from ..formats.version import VERSION

    return VERSION


class LaddersFamily(FamilyBase):
    """Snakes and ladders, for the registry (see the module docstring)."""

    name = GAME
    title = "Snakes and ladders"
    capabilities: frozenset[Capability] = frozenset(Capability) - {
        Capability.SHUFFLE,
        Capability.FIX,
        Capability.FILL,
    }
    schemas: Mapping[str, SchemaEntry] = {
        "level": SchemaEntry(level_json_schema, "snakes-ladders.level.v1.schema.json")
    }
    create_options: Sequence[CreateOption] = CREATE_OPTIONS
    bands: Sequence[str] = BANDS
    hint_options: Sequence[CreateOption] = (
        CreateOption(
            "square", "N", "the square the token is on (default 0, off the board).", OptionKind.INT
        ),
        CreateOption("within", "K", "the chance to finish within this many rolls.", OptionKind.INT),
    )

    def read(self, data: object) -> Level:
        return parse_level(data)

    def dump(self, document: Level) -> dict[str, Any]:
        return dump_level(document)

    def describe(self, document: Level) -> str:
        board, rules = document.board, document.rules
        text = (
            f"{board.width}x{board.height}, {len(board.snakes)} snakes, {len(board.ladders)}"
            f" ladders, d{rules.faces} {rules.overshoot}"
        )
        a = document.analysis
        if a is None:
            return text + ", not analysed"
        return f"{text}, expected {a.expected_rolls.value:.2f} rolls, fewest {a.fewest_rolls}"

    def parse_spec(self, values: Mapping[str, Any]) -> LaddersSpec:
        return parse_spec(values)

    def create(self, spec: LaddersSpec, seed: int, progress: Progress | None = None) -> Level:
        rules = Rules(spec.faces, spec.overshoot)
        kept: dict[str, Solved] = {}

        def accept(board: Any) -> Fraction | None:
            solved = solve_board(board, rules)
            if solved.start is None:
                return None
            kept["solved"] = solved
            return solved.start.rolls

        try:
            board = generate_board(spec, seed, accept=accept, progress=progress)
        except SpecError as exc:
            raise CreateError(str(exc)) from None
        analysis = analysis_of(kept["solved"])
        generator = GeneratorFile(
            name=GENERATOR_NAME, version=_version(), seed=seed, parameters=spec.parameters()
        )
        block = rate_solved(kept["solved"], board.squares, rules.faces) if spec.rated else None
        level = Level(board, rules, analysis, generator, difficulty=block)
        verdict = verify_level(level, prove=False, budget=Budget())
        if verdict.status != "ok":
            raise AssertionError(f"a created level failed its verification: {verdict.text}")
        if progress is not None:
            progress("search", 1, 1)
        return level

    def ramp(
        self, values: Mapping[str, Any], count: int, low: str, high: str
    ) -> list[dict[str, Any]]:
        return ramp_specs(values, count, low, high)

    def difficulty(self, document: Level) -> tuple[float, str]:
        """The score and band of the difficulty block, rated when the level has none
        (:mod:`levelgen.ladders.rating`)."""
        return level_difficulty(document)

    def rate(self, document: Level, *, seed: int) -> Level:
        """The level with its difficulty block (exact: ``seed`` is not needed)."""
        return rate_level(document)

    def add_benchmarks(self, app: Any) -> None:
        """``levelgen bench ladders`` (:mod:`.bench_command`)."""
        from .bench_command import register

        register(app)

    # ``options``: the family's own knobs by name (for ``hint``, the place: ``square`` and
    # ``within``).  This family has none for verify, solve, show and draw, and refuses any given.

    def verify(
        self,
        document: Level,
        *,
        prove: bool,
        budget: Budget,
        options: Mapping[str, Any] | None = None,
    ) -> Verdict:
        _no_options(options)
        return verify_level(document, prove=prove, budget=budget)

    def solve(
        self, document: Level, *, budget: Budget, options: Mapping[str, Any] | None = None
    ) -> SolveAnswer:
        _no_options(options)
        return solve_level(document, budget)

    def hint(
        self, document: Level, *, budget: Budget, options: Mapping[str, Any] | None = None
    ) -> HintAnswer:
        """``options``: the place, ``square`` (default 0, the start) and ``within`` (rolls)."""
        return hint_level(document, dict(options or {}), budget)

    def show(
        self, document: Level, *, color: bool, options: Mapping[str, Any] | None = None
    ) -> tuple[str, list[str]]:
        _no_options(options)
        return show_level(document, color=color), layout_warnings(document)

    def draw(
        self, document: Level, *, cell_size: int, options: Mapping[str, Any] | None = None
    ) -> Scene:
        _no_options(options)
        return draw_level(document, cell_size=cell_size)

    def export_grid(self, document: Level, *, options: Mapping[str, Any]) -> ExportGrid:
        """The level for engine exports (see :mod:`levelgen.ladders.export`); no options."""
        from .export import export_grid

        _no_options(options)
        return export_grid(document)

    def player(
        self,
        document: Level,
        *,
        with_api: bool,
        name: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> PlayerAssets:
        _no_options(options)
        return player_assets(document, with_api=with_api, name=name)


def layout_warnings(level: Level) -> list[str]:
    """The default layout rules of generated boards (crossings, longest jump) that ``level``
    breaks, as warnings: a board that breaks them is still valid."""
    board = level.board
    problems = design_rules_problems(
        board, level.rules, Design.for_board(board.width, board.height)
    )
    return [
        f"warning: {line} (a layout rule of generated boards; the board is still valid)"
        for line in problems
        if " cross " in line or " rows long " in line
    ]


def _no_options(options: Mapping[str, Any] | None) -> None:
    for option in options or {}:
        raise SpecError(option, "snakes-ladders takes no such option here")
