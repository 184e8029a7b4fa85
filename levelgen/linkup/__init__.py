"""The Link-up family (连连看, Onet, Shisen-Sho): its face, all the edges may import of it.

``FAMILY`` is its table of operations (:class:`levelgen.puzzles.Family`); the other names are
Link-up values and functions the edges (command line, service, packs, pictures, player,
benchmarks) use.  Each loads on first use, so importing this face is cheap and a command pays
only for the modules it needs (``levelgen verify`` never loads pydantic or ortools for a plain
level).  Inside, the family is laid out as:

- ``core``: geometry, rules, board, reachability (with its compiled twins), exact paths, moves,
  the live move list, sliding and stacked layers;
- ``verify``: the replay of a certificate, step by step;
- ``solvers``: one result type for every solver; the exact search (``solvers.search``), the
  repair solver, CP-SAT, the exhaustive baseline and the variants' search;
- ``generate``: generation by occupancy, kind shaping, steering to a difficulty, play-outs;
- ``play``: a game in progress, safe hints, solvable shuffles, position files;
- ``difficulty``: the measures, their score and bands;
- ``schema``: the file models and their JSON Schemas; ``files``: level files read and written;
- ``draw``: terminal and SVG pictures and the browser player's assets.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.board import EMPTY, WALL, Board
    from .core.geometry import MAX_SIDE, Pos, Size, format_size, parse_size
    from .core.layers import MAX_LAYERS
    from .core.level import GeneratorInfo, Level
    from .core.moves import Move, legal_pairs
    from .core.paths import Path, find_link
    from .core.reach import linkable_mask
    from .core.reference import reference_all, reference_best
    from .core.rules import SLIDES, Rules
    from .core.slide import SLIDE_DIRECTIONS
    from .core.variant_state import is_variant, state_of
    from .core.variant_support import refuse_variants, variant_problem
    from .difficulty import metrics_problems, solution_metrics
    from .difficulty.play import measure_difficulty, playout_win_rate
    from .difficulty.score import BANDS, ramp_bands, score_of
    from .draw.player import REPLAY_MS, player_assets
    from .draw.svg import board_scene, cell_shapes, render_svg
    from .draw.terminal import format_summary, render_board
    from .family import FAMILY, NOT_A_LEVEL, warm_up
    from .files import format_level, read_core_level, read_level
    from .generate.generator import (
        SLOT,
        GenerationError,
        format_layout,
        kind_tile_counts,
        parse_layout,
    )
    from .generate.generator import generate as generate_level
    from .generate.playout import deal, random_removal_order
    from .generate.shapes import UnknownShape, shape_info, shape_names, shape_text
    from .generate.shaping import DEFAULT_DETERMINISTIC_TIME, TARGETS, shape_kinds
    from .generate.spec import (
        CheckedSpec,
        CreateSpec,
        SpecError,
        check_create_spec,
        create_level,
        steered_level,
    )
    from .generate.steer import RUNGS, Target, apply_density, parse_target, steered_generate
    from .generate.symmetry import SYMMETRIES, board_symmetry, is_symmetric, symmetry_problem
    from .generate.variants import pyramid_layout
    from .play.answers import hint_to_data, position_from_data, read_position, shuffle_to_data
    from .play.game import Game
    from .play.position import Position, position_from_level
    from .play.position_file import PositionInvalid
    from .play.shuffle import shuffle
    from .play.variants import variant_shuffle
    from .schema import (
        SCHEMAS,
        LevelFile,
        LevelFormatError,
        StepFile,
        content_id,
        level_problems,
        parse_level_data,
    )
    from .schema.level import problems_from_validation_error
    from .schema.parameters import GENERATOR_SOLVE
    from .schema.position import PositionFile, position_to_data
    from .schema.quick import MAX_SEED
    from .solvers import SolveResult, SolveStatus, solve
    from .solvers.exhaustive import solve_exhaustive
    from .solvers.race import RivalFactory
    from .solvers.rival import rival_for
    from .verify import replay

#: Where each name of the face is defined: a module of this package (``module:name`` when the
#: face gives it another name).
_FACE = {
    "apply_density": "generate.steer",
    "board_symmetry": "generate.symmetry",
    "is_symmetric": "generate.symmetry",
    "shape_info": "generate.shapes",
    "shape_names": "generate.shapes",
    "shape_text": "generate.shapes",
    "SYMMETRIES": "generate.symmetry",
    "symmetry_problem": "generate.symmetry",
    "UnknownShape": "generate.shapes",
    "BANDS": "difficulty.score",
    "ramp_bands": "difficulty.score",
    "Board": "core.board",
    "board_scene": "draw.svg",
    "cell_shapes": "draw.svg",
    "check_create_spec": "generate.spec",
    "CheckedSpec": "generate.spec",
    "content_id": "schema",
    "create_level": "generate.spec",
    "CreateSpec": "generate.spec",
    "deal": "generate.playout",
    "DEFAULT_DETERMINISTIC_TIME": "generate.shaping",
    "EMPTY": "core.board",
    "FAMILY": "family",
    "NOT_A_LEVEL": "family",
    "find_link": "core.paths",
    "format_layout": "generate.generator",
    "format_level": "files",
    "format_size": "core.geometry",
    "format_summary": "draw.terminal",
    "Game": "play.game",
    "generate_level": "generate.generator:generate",
    "GenerationError": "generate.generator",
    "GENERATOR_SOLVE": "schema.parameters",
    "GeneratorInfo": "core.level",
    "hint_to_data": "play.answers",
    "is_variant": "core.variant_state",
    "kind_tile_counts": "generate.generator",
    "legal_pairs": "core.moves",
    "Level": "core.level",
    "level_problems": "schema",
    "LevelFile": "schema",
    "LevelFormatError": "schema",
    "linkable_mask": "core.reach",
    "MAX_LAYERS": "core.layers",
    "MAX_SEED": "schema.quick",
    "MAX_SIDE": "core.geometry",
    "measure_difficulty": "difficulty.play",
    "metrics_problems": "difficulty",
    "Move": "core.moves",
    "parse_layout": "generate.generator",
    "parse_level_data": "schema",
    "parse_size": "core.geometry",
    "parse_target": "generate.steer",
    "Path": "core.paths",
    "player_assets": "draw.player",
    "playout_win_rate": "difficulty.play",
    "Pos": "core.geometry",
    "Position": "play.position",
    "position_from_level": "play.position",
    "position_from_data": "play.answers",
    "position_to_data": "schema.position",
    "PositionFile": "schema.position",
    "PositionInvalid": "play.position_file",
    "problems_from_validation_error": "schema.level",
    "pyramid_layout": "generate.variants",
    "random_removal_order": "generate.playout",
    "read_core_level": "files",
    "read_level": "files",
    "read_position": "play.answers",
    "reference_all": "core.reference",
    "reference_best": "core.reference",
    "refuse_variants": "core.variant_support",
    "render_board": "draw.terminal",
    "render_svg": "draw.svg",
    "replay": "verify",
    "REPLAY_MS": "draw.player",
    "rival_for": "solvers.rival",
    "RivalFactory": "solvers.race",
    "Rules": "core.rules",
    "RUNGS": "generate.steer",
    "SCHEMAS": "schema",
    "score_of": "difficulty.score",
    "shape_kinds": "generate.shaping",
    "shuffle": "play.shuffle",
    "shuffle_to_data": "play.answers",
    "Size": "core.geometry",
    "SLIDE_DIRECTIONS": "core.slide",
    "SLIDES": "core.rules",
    "SLOT": "generate.generator",
    "solution_metrics": "difficulty",
    "solve": "solvers",
    "solve_exhaustive": "solvers.exhaustive",
    "SolveResult": "solvers",
    "SolveStatus": "solvers",
    "SpecError": "generate.spec",
    "state_of": "core.variant_state",
    "steered_generate": "generate.steer",
    "steered_level": "generate.spec",
    "StepFile": "schema",
    "Target": "generate.steer",
    "TARGETS": "generate.shaping",
    "variant_problem": "core.variant_support",
    "variant_shuffle": "play.variants",
    "WALL": "core.board",
    "warm_up": "family",
}

__all__ = [
    "BANDS",
    "DEFAULT_DETERMINISTIC_TIME",
    "EMPTY",
    "FAMILY",
    "GENERATOR_SOLVE",
    "MAX_LAYERS",
    "MAX_SEED",
    "MAX_SIDE",
    "NOT_A_LEVEL",
    "REPLAY_MS",
    "RUNGS",
    "SCHEMAS",
    "SLIDES",
    "SLIDE_DIRECTIONS",
    "SLOT",
    "SYMMETRIES",
    "TARGETS",
    "WALL",
    "Board",
    "CheckedSpec",
    "CreateSpec",
    "Game",
    "GenerationError",
    "GeneratorInfo",
    "Level",
    "LevelFile",
    "LevelFormatError",
    "Move",
    "Path",
    "Pos",
    "Position",
    "PositionFile",
    "PositionInvalid",
    "RivalFactory",
    "Rules",
    "Size",
    "SolveResult",
    "SolveStatus",
    "SpecError",
    "StepFile",
    "Target",
    "UnknownShape",
    "apply_density",
    "board_scene",
    "board_symmetry",
    "cell_shapes",
    "check_create_spec",
    "content_id",
    "create_level",
    "deal",
    "find_link",
    "format_layout",
    "format_level",
    "format_size",
    "format_summary",
    "generate_level",
    "hint_to_data",
    "is_symmetric",
    "is_variant",
    "kind_tile_counts",
    "legal_pairs",
    "level_problems",
    "linkable_mask",
    "measure_difficulty",
    "metrics_problems",
    "parse_layout",
    "parse_level_data",
    "parse_size",
    "parse_target",
    "player_assets",
    "playout_win_rate",
    "position_from_data",
    "position_from_level",
    "position_to_data",
    "problems_from_validation_error",
    "pyramid_layout",
    "ramp_bands",
    "random_removal_order",
    "read_core_level",
    "read_level",
    "read_position",
    "reference_all",
    "reference_best",
    "refuse_variants",
    "render_board",
    "render_svg",
    "replay",
    "rival_for",
    "score_of",
    "shape_info",
    "shape_kinds",
    "shape_names",
    "shape_text",
    "shuffle",
    "shuffle_to_data",
    "solution_metrics",
    "solve",
    "solve_exhaustive",
    "state_of",
    "steered_generate",
    "steered_level",
    "symmetry_problem",
    "variant_problem",
    "variant_shuffle",
    "warm_up",
]


if not TYPE_CHECKING:  # mypy sees the names through the imports above, and only those

    def __getattr__(name: str) -> Any:
        """A name of the face, imported the first time it is asked for."""
        module = _FACE.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module, _, attribute = module.partition(":")
        value = getattr(importlib.import_module(f".{module}", __name__), attribute or name)
        globals()[name] = value
        return value
