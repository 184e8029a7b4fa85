"""Hints and shuffles for the variants (levelgen.linkup.play.variants), cross-checked against the
variant exhaustive solver on small boards, and through the CLI and the HTTP tasks."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.rules import SLIDES, Rules
from levelgen.linkup.core.variant_state import state_of
from levelgen.linkup.play.variants import variant_hint, variant_legal_moves, variant_shuffle
from levelgen.linkup.schema import parse_level_data
from levelgen.linkup.solvers import SolveStatus, solve
from levelgen.linkup.verify.variants import replay_variant
from tests import ROOT

LEVELS = ROOT / "levels"


def _random_sliding(rng: random.Random) -> tuple[Board, Rules]:
    width, height = rng.choice([(3, 3), (4, 3), (4, 4)])
    cells = width * height
    tiles = rng.randrange(4, cells + 1, 2)
    kinds = [1 + (i // 2) % 3 for i in range(tiles)]
    values = kinds + [0] * (cells - tiles)
    rng.shuffle(values)
    slide = rng.choice([s for s in SLIDES if s != "none"])
    return Board(width, height, tuple(values)), Rules(rng.choice([1, 2]), rng.random() < 0.5, slide)


def _random_layered(rng: random.Random) -> tuple[Board, Rules]:
    width, height = rng.choice([(3, 3), (4, 3)])
    n = width * height
    base = [1] * n
    upper = [1 if rng.random() < 0.5 else 0 for _ in range(n)]
    tiles = n + sum(upper)
    if tiles % 2:
        upper[upper.index(1) if 1 in upper else 0] ^= 1
        tiles = n + sum(upper)
    kinds = [1 + (i // 2) % 5 for i in range(tiles)]
    rng.shuffle(kinds)
    it = iter(kinds)
    layer0 = tuple(next(it) for _ in base)
    layer1 = tuple(next(it) if u else 0 for u in upper)
    board = Board(width, height, layer0, (layer1,) if any(layer1) else ())
    return board, Rules(rng.choice([0, 1, 2]), rng.random() < 0.5)


def _after(board: Board, rules: Rules, a: object, b: object) -> Board:
    state = state_of(board, rules)
    state.remove_pair(a, b)  # type: ignore[arg-type]
    return state.to_board()


@pytest.mark.parametrize("make", [_random_sliding, _random_layered], ids=["slide", "layers"])
def test_hints_agree_with_the_exhaustive_solver(make: object) -> None:
    rng = random.Random(20)
    seen = {"hint": 0, "lost": 0}
    for _ in range(40):
        board, rules = make(rng)  # type: ignore[operator]
        truth = solve(board, rules, method="exhaustive")
        assert truth.status is not SolveStatus.UNKNOWN
        result = variant_hint(board, rules, method="search")
        if truth.status is SolveStatus.SOLVED:
            assert result.status == "hint" and result.proved and result.move is not None
            assert result.move in variant_legal_moves(board, rules)
            assert result.solution[0] == result.move
            assert replay_variant(board, rules, result.solution) == []
            after = _after(board, rules, result.move.a, result.move.b)
            rest = solve(after, rules, method="exhaustive")
            assert rest.status is SolveStatus.SOLVED or state_of(after, rules).tile_count() == 0
        else:
            assert result.status == "lost" and result.proved and result.move is None
        seen[result.status] += 1
    assert seen["hint"] and seen["lost"]  # both answers were exercised


def test_hint_won_and_no_move() -> None:
    empty = Board(2, 1, (0, 0))
    assert variant_hint(empty, Rules(slide="down")).status == "won"
    stuck = Board(2, 2, (1, 2, 2, 1))
    result = variant_hint(stuck, Rules(0, False, "down"))
    assert result.status == "lost" and "no legal move" in result.reason


@pytest.mark.parametrize("make", [_random_sliding, _random_layered], ids=["slide", "layers"])
def test_shuffle_keeps_the_cells_and_is_solvable(make: object) -> None:
    rng = random.Random(7)
    done = 0
    for seed in range(25):
        board, rules = make(rng)  # type: ignore[operator]
        result = variant_shuffle(board, rules, seed, min_moves=1)
        if result.status != "shuffled":
            assert result.status in ("failed", "impossible") and result.reason
            continue
        new = result.board
        assert new is not None
        done += 1
        # the same cells (and stack heights) hold tiles; the kinds are a permutation
        assert [v > 0 for v in new.cells] == [v > 0 for v in board.cells]
        assert [[v > 0 for v in layer] for layer in new.upper] == [
            [v > 0 for v in layer] for layer in board.upper
        ]
        assert sorted(v for c in (new.cells, *new.upper) for v in c) == sorted(
            v for c in (board.cells, *board.upper) for v in c
        )
        assert replay_variant(new, rules, result.solution) == []
        assert result.legal_moves == len(variant_legal_moves(new, rules)) >= 1
        again = variant_shuffle(board, rules, seed, min_moves=1)
        assert again.board == new and again.solution == result.solution
    assert done >= 10


def test_shuffle_refuses_odd_kinds() -> None:
    result = variant_shuffle(Board(3, 1, (1, 1, 1)), Rules(slide="left"), 1)
    assert result.status == "impossible" and "odd" in result.reason


# ----- through the CLI and HTTP -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["slide_down_12x8", "layers_turtle_12x8"])
def test_cli_hint_and_shuffle_on_variant_levels(name: str, tmp_path: Path) -> None:
    source = str(LEVELS / f"{name}.json")
    runner = CliRunner()
    hint = runner.invoke(app, ["hint", source, "--json"])
    assert hint.exit_code == 0, hint.output
    data = json.loads(hint.stdout)
    assert data["status"] == "hint" and data["proved"] and data["solution"][0] == data["move"]
    out = tmp_path / "shuffled.json"
    shuffled = runner.invoke(app, ["shuffle", source, "--seed", "9", "-o", str(out)])
    assert shuffled.exit_code == 0, shuffled.output
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    before = parse_level_data(json.loads(Path(source).read_text())).to_core()
    after = parse_level_data(json.loads(out.read_text())).to_core()
    assert after.rules == before.rules
    assert [v > 0 for v in after.board.cells] == [v > 0 for v in before.board.cells]


def test_position_with_a_slide_rule_is_hinted_under_that_rule() -> None:
    from levelgen.linkup.play.answers import position_from_data

    # Under "left" the 3 slides into the first column after the 1s go: the rest of the
    # solution is written in the positions of that moment.
    data = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 0, "outside": False, "slide": "left"},
        "board": {"width": 3, "height": 2, "rows": [[1, 1, 3], [2, 2, 3]]},
    }
    position = position_from_data(data)
    assert position.rules.slide == "left"
    result = variant_hint(position.board, position.rules, method="exhaustive")
    assert result.status == "hint" and len(result.solution) == 3
    assert replay_variant(position.board, position.rules, result.solution) == []
    classic = Rules(0, False)
    assert replay_variant(position.board, classic, result.solution) != [] or all(
        m.kind != 3 or m.a.x == 2 for m in result.solution
    )


def test_service_tasks_hint_and_shuffle_variants() -> None:
    from levelgen.service.tasks import Limits, task_hint, task_shuffle

    body = (LEVELS / "slide_up-left_10x8.json").read_bytes()
    limits = Limits(max_side=32, default_time=5.0, max_time=5.0)
    hint = task_hint(body, limits)
    assert hint.status == 200 and json.loads(hint.body)["status"] == "hint"
    shuffled = task_shuffle(body, limits, 5)
    answer = json.loads(shuffled.body)
    assert shuffled.status == 200 and answer["status"] == "shuffled"
    assert answer["level"]["rules"]["slide"] == "up-left"


def test_position_files_round_trip_the_variants() -> None:
    from levelgen.linkup.play.answers import position_from_data
    from levelgen.linkup.schema.position import position_to_data

    for name in ("slide_center_12x8", "layers_pyramid_16x9"):
        level = parse_level_data(json.loads((LEVELS / f"{name}.json").read_text())).to_core()
        back = position_from_data(position_to_data(level.board, level.rules))
        assert back.board == level.board and back.rules == level.rules
    classic = position_to_data(Board(2, 1, (1, 1)), Rules())
    assert "slide" not in classic["rules"] and "layers" not in classic["board"]


def _safe(board: Board, rules: Rules, move: Any) -> bool:
    after = _after(board, rules, move.a, move.b)
    return (
        state_of(after, rules).tile_count() == 0
        or solve(after, rules, method="exhaustive").status is SolveStatus.SOLVED
    )


@pytest.mark.parametrize("make", [_random_sliding, _random_layered], ids=["slide", "layers"])
def test_hint_is_the_most_natural_safe_move(make: object) -> None:
    """On small boards (where the tries' small searches decide) the hint is the most natural
    safe move (by the exhaustive solver) whenever fewer than ``VARIANT_NATURAL_TRIES`` unsafe
    moves come before it in natural order, and in any case a safe one; it often differs from
    the solver's own first move, which was the hint before."""
    from levelgen.linkup.core.natural import natural_key
    from levelgen.linkup.play.variants import VARIANT_NATURAL_TRIES

    rng = random.Random(44)
    checked = differs = 0
    for _ in range(60):
        board, rules = make(rng)  # type: ignore[operator]
        if solve(board, rules, method="exhaustive").status is not SolveStatus.SOLVED:
            continue
        legal = sorted(variant_legal_moves(board, rules), key=natural_key)
        first_safe = next(i for i, m in enumerate(legal) if _safe(board, rules, m))
        result = variant_hint(board, rules, method="search")
        assert result.status == "hint" and result.move is not None
        assert _safe(board, rules, result.move)
        assert replay_variant(board, rules, result.solution) == []
        if first_safe < VARIANT_NATURAL_TRIES:
            assert {result.move.a, result.move.b} == {legal[first_safe].a, legal[first_safe].b}
            checked += 1
        solver_first = (solve(board, rules, method="search").moves or ())[0]
        differs += {solver_first.a, solver_first.b} != {result.move.a, result.move.b}
    assert checked > 20 and differs > 5


@pytest.mark.parametrize("make", [_random_sliding, _random_layered], ids=["slide", "layers"])
def test_lost_variant_game_says_which_move_lost_it(make: object, tmp_path: Path) -> None:
    """A lost variant game given with its level and played moves reports ``lost_at`` (the
    move after which no solution exists, checked against the exhaustive solver on every
    prefix) and ``undo``, directly and through a position file with level + played."""
    from levelgen.linkup.core.level import Level
    from levelgen.linkup.schema import LevelFile
    from levelgen.service.tasks import Limits, task_hint

    rng = random.Random(7)
    found = early = 0
    for _ in range(200):
        board, rules = make(rng)  # type: ignore[operator]
        if solve(board, rules, method="exhaustive").status is not SolveStatus.SOLVED:
            continue
        state, played, boards = state_of(board, rules), [], [board]
        while moves := variant_legal_moves(state.to_board(), rules):  # random play until stuck
            move = rng.choice(moves)
            played.append(move)
            state.remove_pair(move.a, move.b)
            boards.append(state.to_board())
        if state.tile_count() == 0 or not played:
            continue
        solvable = [
            solve(b, rules, method="exhaustive").status is SolveStatus.SOLVED for b in boards
        ]
        want = solvable.index(False) - 1
        result = variant_hint(boards[-1], rules, start=board, played=played)
        assert result.status == "lost"
        assert (result.lost_at, result.undo) == (want, len(played) - want), solvable
        assert f"lost by move {want}" in result.reason
        position = {
            "game": "linkup",
            "format_version": 1,
            "level": LevelFile.from_core(Level(board, rules)).to_data(),
            "played": [{"a": list(m.a), "b": list(m.b)} for m in played],
        }
        answer = task_hint(json.dumps(position).encode(), Limits(max_side=32))
        data = json.loads(answer.body)
        assert answer.status == 200 and (data["lost_at"], data["undo"]) == (want, result.undo)
        if not found:  # the CLI too
            file = tmp_path / "position.json"
            file.write_text(json.dumps(position), encoding="utf-8")
            cli = CliRunner().invoke(app, ["hint", str(file), "--json"])
            assert cli.exit_code == 1 and json.loads(cli.stdout)["lost_at"] == want, cli.output
        bare = variant_hint(boards[-1], rules)  # without the history: not known
        assert bare.status == "lost" and bare.lost_at is None
        found += 1
        early += want < len(played) - 1
        if found == 6:
            break
    assert found == 6 and early  # some games were lost before their last move
