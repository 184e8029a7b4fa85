"""``levelgen hint`` and ``levelgen shuffle`` through typer's CliRunner: output, JSON and exit
codes; every hint's solution replayed, every shuffled file verified."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos, Size
from levelgen.linkup.core.moves import Move
from levelgen.linkup.core.paths import path_from_corners
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.files import format_level
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.schema.position import POSITION_SCHEMA_URI, position_to_data
from levelgen.linkup.verify import replay

runner = CliRunner()


def run(*args: str, input: str | None = None) -> Result:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def steps_to_moves(steps: list[dict[str, Any]]) -> list[Move]:
    return [
        Move(Pos(*s["a"]), Pos(*s["b"]), s["kind"], path_from_corners([Pos(*p) for p in s["path"]]))
        for s in steps
    ]


def test_hint_on_a_level_and_on_a_position(tmp_path: Path) -> None:
    level = generate(Size(8, 6), seed=3)
    source = write(tmp_path, "level.json", format_level(level))
    text = run("hint", source)
    assert text.exit_code == 0
    assert text.stdout.startswith("hint: [") and "safe: the rest of a solution" in text.stdout
    out = run("hint", source, "--json")
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert data["status"] == "hint" and data["proved"] is True
    assert data["solution"][0] == data["move"]
    assert replay(level.board, level.rules, steps_to_moves(data["solution"])) == []
    # A position with played moves, read from standard input.
    steps = (level.solution or ())[:5]
    position = {
        "$schema": POSITION_SCHEMA_URI,
        "game": "linkup",
        "format_version": 1,
        "level": json.loads(format_level(level)),
        "played": [{"a": list(m.a), "b": list(m.b)} for m in steps],
    }
    out = run("hint", "-", "--json", input=json.dumps(position))
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    board = level.board.without(*(p for m in steps for p in (m.a, m.b)))
    assert replay(board, level.rules, steps_to_moves(data["solution"])) == []


def test_hint_exit_codes_won_lost_undecided_bad(tmp_path: Path) -> None:
    won = write(tmp_path, "won.json", position_to_data(Board.from_rows(["..", ".."]), Rules()))
    result = run("hint", won)
    assert result.exit_code == 0 and result.stdout.startswith("won")
    lost = write(
        tmp_path, "lost.json", position_to_data(Board.from_rows(["12", "21"]), Rules(2, False))
    )
    result = run("hint", lost, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["status"] == "lost" and data["move"] is None and data["lost_at"] is None
    assert run("hint", lost).stdout.startswith("lost: ")
    big = write(tmp_path, "big.json", format_level(generate(Size(18, 10), seed=1)))
    result = run("hint", big, "--method", "search", "--time-limit", "0")
    assert result.exit_code == 4
    assert result.stdout.startswith("undecided") and "unproved: [" in result.stdout
    assert run("hint", str(tmp_path / "missing.json")).exit_code == 3
    bad = position_to_data(Board.from_rows(["11"]), Rules())
    bad["board"]["rows"] = [[1, "x"]]
    result = run("hint", write(tmp_path, "bad.json", bad))
    assert result.exit_code == 3 and "/board/rows/0/1" in result.stderr


def test_hint_text_counts_1_step_and_1_turn() -> None:
    """The hint's path is described with nouns that agree with their counts."""
    from levelgen.linkup.family import move_text as _move_text

    one_step = Move(Pos(0, 0), Pos(1, 0), 1, path_from_corners([Pos(0, 0), Pos(1, 0)]))
    assert _move_text(one_step).endswith("(0 turns, 1 step)")
    corner = path_from_corners([Pos(0, 0), Pos(1, 0), Pos(1, 1)])
    assert _move_text(Move(Pos(0, 0), Pos(1, 1), 1, corner)).endswith("(1 turn, 2 steps)")


def test_a_position_whose_level_has_bad_layers_is_refused_with_a_pointer(
    tmp_path: Path,
) -> None:
    """An embedded level's layers are checked as a level file's are (found by schemathesis:
    a layer of the wrong height reached the core board and was a server error)."""
    level: dict[str, Any] = {
        "format_version": 1,
        "game": "linkup",
        "board": {"width": 1, "height": 1, "rows": [[1]], "layers": [[[0]], [[1], [0]]]},
        "rules": {"max_turns": 0, "outside": False},
    }
    position = {"$schema": POSITION_SCHEMA_URI, "format_version": 1, "game": "linkup"}
    result = run("hint", write(tmp_path, "p.json", {**position, "level": level}))
    assert result.exit_code == 3
    assert "/level/board/layers/1: 2 rows, but height is 1" in result.stderr
    level["board"]["layers"] = [[[0]], [[1]]]
    result = run("hint", write(tmp_path, "q.json", {**position, "level": level}))
    assert result.exit_code == 3
    assert "/level/board/layers/1/0/0: a tile on layer 2 above an empty cell" in result.stderr


def test_hint_names_the_illegal_played_move(tmp_path: Path) -> None:
    level = generate(Size(6, 4), seed=1)
    step = (level.solution or ())[0]
    position = {
        "game": "linkup",
        "format_version": 1,
        "level": json.loads(format_level(level)),
        "played": [{"a": list(step.a), "b": list(step.b)}, {"a": list(step.a), "b": [0, 0]}],
    }
    result = run("hint", write(tmp_path, "p.json", position))
    assert result.exit_code == 1  # well-formed but invalid, as in a sliding puzzle's position
    assert "/played/1: illegal move" in result.stderr


def test_shuffle_writes_a_level_that_verifies(tmp_path: Path) -> None:
    stuck = write(
        tmp_path, "stuck.json", position_to_data(Board.from_rows(["123", "312", "231"]), Rules())
    )
    # Every kind has an odd count: impossible.
    result = run("shuffle", stuck, "--seed", "1")
    assert result.exit_code == 1 and "odd number" in result.stderr
    board = Board.from_rows(["1221", "3443", "4334"])
    source = write(tmp_path, "pos.json", position_to_data(board, Rules(1, False)))
    out = tmp_path / "out.json"
    result = run("shuffle", source, "--seed", "9", "--min-moves", "2", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    verify = run("verify", str(out))
    assert verify.exit_code == 0 and "ok: solution replayed" in verify.stdout
    shuffled = json.loads(out.read_text())
    assert shuffled["board"]["rows"] != [[1, 2, 2, 1], [3, 4, 4, 3], [4, 3, 3, 4]]
    again = run("shuffle", source, "--seed", "9", "--min-moves", "2")
    assert json.loads(again.stdout) == shuffled
    clobber = run("shuffle", source, "--seed", "9", "-o", str(out), "--no-clobber")
    assert clobber.exit_code == 3 and "--no-clobber" in clobber.stderr
    report = run("shuffle", source, "--seed", "9", "--json")
    data = json.loads(report.stdout)
    assert data["status"] == "shuffled" and data["level"]["board"] == shuffled["board"]
    assert run("shuffle", source, "--seed", "-1").exit_code == 2
    failed = run("shuffle", source, "--seed", "1", "--min-moves", "50")
    assert failed.exit_code == 4 and "fewer than 50" in failed.stderr


def test_hint_says_where_a_game_with_history_was_lost(tmp_path: Path) -> None:
    import random

    from levelgen.linkup.play.game import Game

    rules = Rules(2, False)
    level = generate(Size(10, 6), seed=15, rules=rules)
    game = Game(level.board, rules)
    rng = random.Random(15)
    while game.legal_pairs():
        pairs = game.legal_pairs()
        game.play(*pairs[rng.randrange(len(pairs))])
    position = {
        "$schema": POSITION_SCHEMA_URI,
        "game": "linkup",
        "format_version": 1,
        "level": json.loads(format_level(level)),
        "played": [{"a": list(m.a), "b": list(m.b)} for m in game.played],
    }
    result = run("hint", write(tmp_path, "lost.json", position), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["status"] == "lost" and data["solution"] == []
    expected = game.hint().lost_at
    assert expected is not None and data["lost_at"] == expected
    assert data["undo"] == len(game.played) - data["lost_at"]
    text = run("hint", write(tmp_path, "lost.json", position))
    assert f"the game was lost by move {data['lost_at']} (undo {data['undo']})" in text.stdout
