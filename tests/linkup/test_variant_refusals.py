"""Features that do not know the Onet variants refuse them with one clear line.

Every entry point that was written for the classic game only (the live move list of
``play.Game``, the classic shuffle, the CSV and grid exports, difficulty measures and
steering) must name ``/rules/slide`` or ``/board/layers`` instead of crashing or answering for
a flat, gravity-free board.  See :mod:`levelgen.linkup.core.variant_support`.  The browser player
plays the variants (``tests/test_player.py``, ``tests/test_player_browser.py``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.core.variant_support import (
    UnsupportedVariant,
    refuse_variants,
    variant_problem,
)
from levelgen.linkup.schema import LevelFormatError, parse_level_data
from tests import ROOT

LEVELS = ROOT / "levels"
SLIDE = LEVELS / "slide_down_12x8.json"
LAYERS = LEVELS / "layers_pyramid_16x9.json"
POINTERS = {SLIDE: "/rules/slide", LAYERS: "/board/layers"}


def _level(path: Path) -> Level:
    return parse_level_data(json.loads(path.read_text())).to_core()


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


# ----- the core -------------------------------------------------------------------------------


def test_variant_problem_names_the_field() -> None:
    flat = Board.from_rows(["1.1"])
    assert variant_problem(flat, Rules(), "hint") is None
    refuse_variants(flat, Rules(), "hint")  # the classic game passes
    found = variant_problem(flat, Rules(slide="left"), "hint")
    assert found is not None and found[0] == "/rules/slide" and "'left'" in found[1]
    stacked = Board(3, 1, (1, 0, 1), ((1, 0, 1),))
    found = variant_problem(stacked, Rules(), "render")
    assert found is not None and found[0] == "/board/layers" and "2 layers" in found[1]
    with pytest.raises(UnsupportedVariant) as info:
        refuse_variants(stacked, Rules(), "render")
    assert isinstance(info.value, ValueError) and info.value.pointer == "/board/layers"


@pytest.mark.parametrize("path", [SLIDE, LAYERS], ids=["slide", "layers"])
def test_core_entry_points_refuse(path: Path) -> None:
    from levelgen.export import NoGridError, grid_csv, grid_json
    from levelgen.linkup.difficulty.play import measure_difficulty, playout_win_rate
    from levelgen.linkup.draw.export import export_grid
    from levelgen.linkup.generate.steer import Target, steered_generate
    from levelgen.linkup.play.game import Game
    from levelgen.linkup.play.shuffle import shuffle

    level = _level(path)
    board, rules = level.board, level.rules
    assert level.solution is not None
    calls = [
        lambda: Game(board, rules),
        lambda: shuffle(board, rules, 1),
        lambda: measure_difficulty(board, rules, level.solution or ()),
        lambda: playout_win_rate(board, rules, seed=1, playouts=2),
        lambda: steered_generate(board.size, Target("easy"), seed=1, rules=rules, layout=board),
    ]
    for call in calls:
        with pytest.raises(UnsupportedVariant) as info:
            call()
        assert info.value.pointer == POINTERS[path]
    for flat in (grid_csv, grid_json):  # no flat grid holds the level: the Tiled map does
        with pytest.raises(NoGridError) as refused:
            flat(export_grid(level))
        assert refused.value.problem.pointer == POINTERS[path]


# ----- the CLI --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [SLIDE, LAYERS], ids=["slide", "layers"])
@pytest.mark.parametrize(
    "command",
    [
        ["export", "--format", "csv", "-o", "{tmp}/x.csv"],
        ["export", "--format", "json-grid", "-o", "{tmp}/x.json"],
    ],
    ids=lambda c: "-".join(c[:2]).replace("{tmp}/", ""),
)
def test_cli_refuses_with_one_line(path: Path, command: list[str], tmp_path: Path) -> None:
    """A valid level that the format asked for cannot hold: exit 2 (the option), not 3 (the
    input is readable), in one line that says which format can."""
    args = [command[0], str(path), *(a.format(tmp=tmp_path) for a in command[1:])]
    result = _run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: {POINTERS[path]}: ")
    assert "does not support" in lines[0] and lines[0].endswith("; --format tiled exports it")
    assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no partial file


@pytest.mark.parametrize("path", [SLIDE, LAYERS], ids=["slide", "layers"])
def test_cli_refuses_packs_holding_a_variant(path: Path, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    shutil.copy(LEVELS / "classic_12x8.json", pack / "001.json")
    shutil.copy(path, pack / "002.json")
    for args in (
        ["export", str(pack), "--format", "csv", "-o", str(tmp_path / "out")],
        ["export", str(pack), "--format", "json-grid", "-o", str(tmp_path / "out")],
    ):
        result = _run(*args)
        assert result.exit_code == 2, result.output
        assert f"002.json: {POINTERS[path]}: " in result.stderr
        assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "options", [["--slide", "down"], ["--layers", "3"]], ids=["slide", "layers"]
)
def test_create_refuses_steering_a_variant(options: list[str], tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    result = _run("create", "--size", "12x8", *options, "--difficulty", "easy", "-o", str(out))
    assert result.exit_code == 2, result.output
    assert "--difficulty" in result.output and "does not support" in result.output
    assert not out.exists()


# ----- positions ------------------------------------------------------------------------------


def _position(**fields: Any) -> dict[str, Any]:
    return {"game": "linkup", "format_version": 1, **fields}


def test_bare_positions_keep_the_variant() -> None:
    from levelgen.linkup.play.answers import position_from_data

    rows = [[1, 2, 2, 1], [3, 0, 0, 3]]
    slide = position_from_data(
        _position(
            rules={"max_turns": 2, "outside": True, "slide": "up"},
            board={"width": 4, "height": 2, "rows": rows},
        )
    )
    assert slide.rules.slide == "up"  # was dropped: hints would have ignored the slide
    layered = position_from_data(
        _position(
            rules={"max_turns": 2, "outside": True},
            board={"width": 4, "height": 2, "rows": rows, "layers": [[[1, 0, 0, 1], [0] * 4]]},
        )
    )
    assert layered.board.upper == ((1, 0, 0, 1, 0, 0, 0, 0),)


@pytest.mark.parametrize(
    ("fields", "pointer"),
    [
        (
            {"rules": {"max_turns": 2, "outside": True}, "layers": [[[1, 0, 0, 0], [1, 0, 0, 0]]]},
            "/board/layers/0/1/0",
        ),
        ({"rules": {"max_turns": 2, "outside": True}, "layers": [[[1, 0]]]}, "/board/layers/0"),
        (
            {
                "rules": {"max_turns": 2, "outside": True, "slide": "down"},
                "layers": [[[0] * 4] * 2],
            },
            "/rules/slide",
        ),
    ],
    ids=["tile-above-hole", "shape", "with-slide"],
)
def test_bare_position_layer_problems(fields: dict[str, Any], pointer: str) -> None:
    from levelgen.linkup.play.answers import position_from_data

    board = {"width": 4, "height": 2, "rows": [[1, 2, 2, 1], [0, 0, 0, 0]]}
    board["layers"] = fields["layers"]
    with pytest.raises(LevelFormatError) as info:
        position_from_data(_position(rules=fields["rules"], board=board))
    assert info.value.problems[0].pointer == pointer


@pytest.mark.parametrize("path", [SLIDE, LAYERS], ids=["slide", "layers"])
def test_played_moves_on_a_variant_level_are_replayed(path: Path) -> None:
    from levelgen.linkup.core.variant_state import state_of
    from levelgen.linkup.play.answers import position_from_data
    from levelgen.linkup.play.variants import variant_hint
    from levelgen.linkup.schema.position import position_to_data
    from levelgen.linkup.solvers import SolveStatus, solve

    data = json.loads(path.read_text())
    level = parse_level_data(data).to_core()
    assert level.solution is not None
    steps = [{"a": s["a"], "b": s["b"]} for s in data["solution"][:5]]
    position = position_from_data(_position(level=data, played=steps))
    state = state_of(level.board, level.rules)
    for move in level.solution[:5]:
        state.remove_pair(move.a, move.b)
    assert position.board == state.to_board() and position.played == level.solution[:5]
    # the current board may be sent along; it must match the replay
    board = position_to_data(position.board, position.rules)["board"]
    assert position_from_data(_position(level=data, played=steps, board=board)) == position
    wrong = dict(board, rows=[[0] * len(board["rows"][0]), *board["rows"][1:]])
    with pytest.raises(LevelFormatError) as info:
        position_from_data(_position(level=data, played=steps, board=wrong))
    assert info.value.problems[0].pointer == "/board"
    hint = variant_hint(position.board, position.rules)
    assert hint.status == "hint"
    assert solve(position.board, position.rules).status is SolveStatus.SOLVED
    # an illegal step names its index: the 6th step played twice
    again = [*steps, steps[-1]]
    with pytest.raises(LevelFormatError) as info:
        position_from_data(_position(level=data, played=again))
    assert info.value.problems[0].pointer == "/played/5"
    assert "illegal move" in info.value.problems[0].message
    # the level alone is a position; its rule must agree with /rules
    plain = _position(level=data, rules={"max_turns": 2, "outside": True, "slide": "down"})
    if path == SLIDE:
        assert position_from_data(plain).rules.slide == "down"
    else:
        with pytest.raises(LevelFormatError) as info:
            position_from_data(plain)
        assert info.value.problems[0].pointer == "/rules"


# ----- the HTTP service -----------------------------------------------------------------------


@pytest.mark.parametrize("path", [SLIDE, LAYERS], ids=["slide", "layers"])
def test_service_player_page_plays_variants(path: Path) -> None:
    """``GET /play/{id}`` no longer refuses a variant: the page carries the rule and layers."""
    from levelgen.service.tasks import task_player

    result = task_player(path.read_text(), "")
    assert result.status == 200
    page = result.body.decode()
    assert ('"slide":"down"' in page) if path == SLIDE else ('"layers":[[[' in page)
    assert 'id="hint"' in page and "LinkupSlide" in page


def test_pack_cli_slide_cycle_options(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    bad = _run("pack", "--count", "2", "--size", "6x4", "--slide-cycle", "down,x", "-o", str(out))
    assert bad.exit_code == 2 and "--slide-cycle" in bad.output
    steer = _run(
        "pack",
        "--count",
        "1",
        "--size",
        "6x4",
        "--slide-cycle",
        "up",
        "--ramp",
        "easy:hard",
        "-o",
        str(out),
    )
    assert steer.exit_code == 2 and "does not support sliding" in steer.output
    made = _run(
        "pack",
        "--count",
        "2",
        "--size",
        "6x4",
        "--seed",
        "1",
        "--slide-cycle",
        "left",
        "--workers",
        "1",
        "-o",
        str(out),
    )
    assert made.exit_code == 0, made.output
    data = json.loads((out / "manifest.json").read_text())
    assert data["parameters"]["options"]["slide_cycle"] == "left"
    for entry in data["levels"]:
        assert json.loads((out / entry["file"]).read_text())["rules"]["slide"] == "left"
