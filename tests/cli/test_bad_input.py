"""Bad input, one test each: a clear message with the place, the right exit code, never a
traceback, and never a partial file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from levelgen.cli import app
from levelgen.linkup.files import MAX_FILE_BYTES

runner = CliRunner()


def run(*args: str, input: str | None = None) -> Result:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


def verify_text(tmp_path: Path, text: str | bytes) -> tuple[int, str]:
    """Exit code and output of ``levelgen verify`` on a file holding ``text``."""
    path = tmp_path / "level.json"
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    result = run("verify", str(path))
    prefix = f"{path}: "
    # The problems go to standard error, the verdict (when there is one) to standard output.
    lines = result.stderr.splitlines() + result.stdout.splitlines()
    assert all(line.startswith(prefix) for line in lines), result.output
    assert len(result.stdout.splitlines()) <= 1, result.stdout
    return result.exit_code, "\n".join(line.removeprefix(prefix) for line in lines)


def verify_data(tmp_path: Path, data: Any) -> tuple[int, str]:
    return verify_text(tmp_path, json.dumps(data))


def rules(max_turns: int = 2, outside: bool = True) -> dict[str, Any]:
    return {"max_turns": max_turns, "outside": outside}


def board(rows: list[list[int]]) -> dict[str, Any]:
    return {"width": len(rows[0]), "height": len(rows), "rows": rows}


def level(rows: list[list[int]], solution: list[Any] | None = None, **kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "linkup",
        "format_version": 1,
        "rules": rules(**kw),
        "board": board(rows),
    }
    if solution is not None:
        data["solution"] = solution
    return data


def step(a: list[int], b: list[int], kind: int, *path: list[int]) -> dict[str, Any]:
    return {"a": a, "b": b, "kind": kind, "path": list(path) or [a, b]}


# A 3x2 board, no ring: the 2s stand between the 1s and between the 3s, so they go first.
ROWS = [[1, 2, 1], [3, 2, 3]]
GOOD = [step([1, 0], [1, 1], 2), step([0, 0], [2, 0], 1), step([0, 1], [2, 1], 3)]


def test_the_reference_level_is_valid(tmp_path: Path) -> None:
    """The base of the solution cases below verifies: each case breaks exactly one thing."""
    code, text = verify_data(tmp_path, level(ROWS, GOOD, outside=False))
    assert code == 0 and text.startswith("ok: solution replayed")


# ----- unreadable input: exit 3 ----------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    result = run("verify", str(tmp_path / "nope.json"))
    assert result.exit_code == 3
    assert result.stderr == f"{tmp_path / 'nope.json'}: no such file\n"
    assert result.stdout == ""


def test_not_json(tmp_path: Path) -> None:
    assert verify_text(tmp_path, '{"game": linkup}') == (
        3,
        "not JSON: Expecting value at line 1 column 10",
    )


def test_empty_file(tmp_path: Path) -> None:
    assert verify_text(tmp_path, "") == (3, "the file is empty")


def test_file_over_the_size_cap(tmp_path: Path) -> None:
    code, text = verify_text(tmp_path, " " * MAX_FILE_BYTES + "{}")
    assert code == 3 and text.startswith("the file is larger than the cap of 4 MiB")


def test_not_utf8(tmp_path: Path) -> None:
    code, text = verify_text(tmp_path, b'{"game": "\xff"}')
    assert (code, text) == (3, "not UTF-8 text: byte 0xff at offset 10")


def test_deep_nesting(tmp_path: Path) -> None:
    code, text = verify_text(tmp_path, '{"board": ' + "[" * 100 + "]" * 100 + "}")
    assert code == 3
    assert text.startswith("/board/0/0/0/")
    assert text.endswith(": arrays and objects are nested deeper than the limit of 16")


def test_duplicate_keys(tmp_path: Path) -> None:
    text = '{"game": "linkup", "board": {"width": 2, "width": 3}}'
    assert verify_text(tmp_path, text) == (3, "/board/width: duplicate key 'width'")


def test_nan(tmp_path: Path) -> None:
    code, text = verify_text(tmp_path, '{"metrics": {"mean_moves": NaN}}')
    assert (code, text) == (
        3,
        "/metrics/mean_moves: NaN is not allowed: JSON numbers must be finite",
    )


def test_wrong_types(tmp_path: Path) -> None:
    data = level([[1, 1]])
    data["rules"]["max_turns"] = "2"
    data["board"]["rows"][0][1] = 1.0
    data["board"]["height"] = True
    code, text = verify_data(tmp_path, data)
    assert code == 3
    assert text.splitlines() == [
        "/rules/max_turns: expected an integer, got the string '2'",
        "/board/height: expected an integer, got true",
        "/board/rows/0/1: expected an integer, got 1.0",
    ]


def test_negative_size(tmp_path: Path) -> None:
    data = level([[1, 1]])
    data["board"]["width"] = -2
    assert verify_data(tmp_path, data) == (3, "/board/width: -2 is under the minimum of 1")


def test_huge_size_names_the_cap(tmp_path: Path) -> None:
    data = level([[1, 1]])
    data["board"]["height"] = 10**6
    assert verify_data(tmp_path, data) == (3, "/board/height: 1000000 is over the limit of 64")
    data = level([[1, 1]] * 65)
    code, text = verify_data(tmp_path, data)
    assert code == 3 and "/board/rows: the board is 65 rows high, at most 64" in text
    data = level([[1] * 1000, [1] * 1000])
    code, text = verify_data(tmp_path, data)
    assert code == 3 and "/board/rows/0: row 0 is 1000 cells wide, at most 64" in text
    assert "after validation" not in text


def test_ragged_rows(tmp_path: Path) -> None:
    data = level([[1, 1, 0], [2, 2, 0]])
    data["board"]["rows"][1].pop()
    assert verify_data(tmp_path, data) == (3, "/board/rows/1: 2 cells, but width is 3")


def test_unknown_game(tmp_path: Path) -> None:
    data = {**level([[1, 1]]), "game": "mahjong"}
    code, message = verify_data(tmp_path, data)
    assert (code, message.split(" (known:")[0]) == (3, "/game: unknown game 'mahjong'")


def test_unknown_format_version(tmp_path: Path) -> None:
    data = {**level([[1, 1]]), "format_version": 2}
    assert verify_data(tmp_path, data) == (3, "/format_version: expected 1, got 2")


def test_unknown_field(tmp_path: Path) -> None:
    data = {**level([[1, 1]]), "gravity": True}
    assert verify_data(tmp_path, data) == (
        3,
        "/gravity: unknown field (not part of level format v1)",
    )


def test_thousands_of_problems_are_cut_short(tmp_path: Path) -> None:
    data = {**level([[1, 1]]), **{f"x{i}": i for i in range(2000)}}
    code, text = verify_data(tmp_path, data)
    lines = text.splitlines()
    assert code == 3 and len(lines) == 51
    assert lines[-1] == "... and 1950 more problems"


def test_stdin_that_is_not_json() -> None:
    result = run("verify", "-", input="hello")
    assert result.exit_code == 3
    assert result.stderr == "-: not JSON: Expecting value at line 1 column 1\n"
    assert result.stdout == ""


# ----- well-formed but invalid: exit 1 ---------------------------------------------------------


def test_odd_count_of_a_kind(tmp_path: Path) -> None:
    code, text = verify_data(tmp_path, level([[1, 1, 2], [1, 2, 0]]))
    assert code == 1
    assert text == (
        "/board/rows/1/0: kind 1 has 3 tiles, an odd number, so it can never be cleared"
        " (cells [0, 0], [1, 0], [0, 1])"
    )


def test_stale_id(tmp_path: Path) -> None:
    data = {**level([[1, 1]]), "id": "sha256:" + "0" * 64}
    code, text = verify_data(tmp_path, data)
    assert code == 1 and text.startswith("/id: does not match the board and rules")


def test_step_naming_an_empty_cell(tmp_path: Path) -> None:
    solution = [GOOD[0], step([1, 0], [0, 0], 2), *GOOD[2:]]
    code, text = verify_data(tmp_path, level(ROWS, solution, outside=False))
    assert (code, text) == (1, "/solution/1/a: cell [1, 0] is empty at step 1")


def test_step_naming_a_wall(tmp_path: Path) -> None:
    code, text = verify_data(tmp_path, level([[1, -1, 1]], [step([0, 0], [1, 0], 1)]))
    assert (code, text) == (1, "/solution/0/b: cell [1, 0] is a wall at step 0")


def test_step_with_cells_of_different_kinds(tmp_path: Path) -> None:
    solution = [step([0, 0], [0, 1], 1), *GOOD]
    code, text = verify_data(tmp_path, level(ROWS, solution, outside=False))
    assert (code, text) == (1, "/solution/0: cells [0, 0] and [0, 1] hold different kinds 1 and 3")


def test_step_with_a_wrong_kind(tmp_path: Path) -> None:
    solution = [step([1, 0], [1, 1], 5), *GOOD[1:]]
    code, text = verify_data(tmp_path, level(ROWS, solution, outside=False))
    assert (code, text) == (1, "/solution/0/kind: kind is 5 but the cells hold kind 2")


def test_step_whose_pair_is_not_linkable_at_that_moment(tmp_path: Path) -> None:
    solution = [GOOD[1], GOOD[0], GOOD[2]]  # the 1s before the 2s: blocked without the ring
    code, text = verify_data(tmp_path, level(ROWS, solution, outside=False))
    assert (code, text) == (
        1,
        "/solution/0/path: the path crosses [1, 0], which holds a tile of kind 2",
    )


def test_path_through_a_wall(tmp_path: Path) -> None:
    code, text = verify_data(tmp_path, level([[1, -1, 1]], [step([0, 0], [2, 0], 1)]))
    assert (code, text) == (1, "/solution/0/path: the path crosses [1, 0], which holds a wall")


def test_path_that_is_not_a_best_path(tmp_path: Path) -> None:
    detour = step([0, 0], [3, 0], 1, [0, 0], [0, -1], [3, -1], [3, 0])
    code, text = verify_data(tmp_path, level([[1, 0, 0, 1]], [detour]))
    assert (code, text) == (
        1,
        "/solution/0/path: not a best path: 2 turns and 5 steps, but a path with 0 turns and"
        " 3 steps exists",
    )


def test_not_a_best_path_says_1_turn_and_1_step(tmp_path: Path) -> None:
    """The counts in the message agree with their nouns (1 turn, 1 step)."""
    over = step([0, 0], [1, 1], 1, [0, 0], [0, -1], [1, -1], [1, 1])
    code, text = verify_data(tmp_path, level([[1, 0], [0, 1]], [over]))
    assert (code, text) == (
        1,
        "/solution/0/path: not a best path: 2 turns and 4 steps, but a path with 1 turn and"
        " 2 steps exists",
    )
    around = step([0, 0], [1, 0], 1, [0, 0], [0, -1], [1, -1], [1, 0])
    code, text = verify_data(tmp_path, level([[1, 1]], [around]))
    assert (code, text) == (
        1,
        "/solution/0/path: not a best path: 2 turns and 3 steps, but a path with 0 turns and"
        " 1 step exists",
    )


def test_path_with_a_diagonal_segment(tmp_path: Path) -> None:
    bad = step([0, 0], [2, 0], 1, [0, 0], [2, 1], [2, 0])
    code, text = verify_data(tmp_path, level(ROWS, [GOOD[0], bad, GOOD[2]], outside=False))
    assert (code, text) == (
        1,
        "/solution/1/path: points 0 [0, 0] and 1 [2, 1] are not on one row or column",
    )


def test_path_using_the_ring_when_the_rules_forbid_it(tmp_path: Path) -> None:
    ring = step([0, 0], [2, 0], 1, [0, 0], [0, -1], [2, -1], [2, 0])
    code, text = verify_data(tmp_path, level(ROWS, [GOOD[0], ring, GOOD[2]], outside=False))
    assert (code, text) == (
        1,
        "/solution/1/path: the path uses the ring cell [0, -1] but the rules do not allow"
        " outside paths",
    )


def test_path_with_too_many_turns(tmp_path: Path) -> None:
    detour = step([0, 0], [3, 0], 1, [0, 0], [0, -1], [3, -1], [3, 0])
    code, text = verify_data(tmp_path, level([[1, 2, 2, 1]], [detour], max_turns=1))
    assert (code, text) == (1, "/solution/0/path: the path turns 2 times; the rules allow 1")


def test_path_that_ends_elsewhere(tmp_path: Path) -> None:
    wrong = step([1, 0], [1, 1], 2, [1, 0], [2, 0], [2, 1])
    code, text = verify_data(tmp_path, level(ROWS, [wrong, *GOOD[1:]], outside=False))
    assert (code, text) == (
        1,
        "/solution/0/path: path runs [1, 0] to [2, 1], not between the step's cells",
    )


def test_path_written_backwards(tmp_path: Path) -> None:
    backwards = step([1, 0], [1, 1], 2, [1, 1], [1, 0])
    code, text = verify_data(tmp_path, level(ROWS, [backwards, *GOOD[1:]], outside=False))
    assert (code, text) == (
        1,
        "/solution/0/path: path runs from b [1, 1] to a [1, 0]: write it from a to b",
    )


def test_metrics_that_the_solution_does_not_give(tmp_path: Path) -> None:
    right = {"start_moves": 1, "mean_moves": 1.3333, "turn_histogram": [3, 0, 0], "extra": {}}
    code, _ = verify_data(tmp_path, {**level(ROWS, GOOD, outside=False), "metrics": right})
    assert code == 0
    wrong = {**right, "start_moves": 5, "turn_histogram": [0, 3, 0]}
    code, text = verify_data(tmp_path, {**level(ROWS, GOOD, outside=False), "metrics": wrong})
    assert (code, text) == (
        1,
        "/metrics/start_moves: states 5 but the solution gives 1\n"
        "/metrics/turn_histogram: states [0, 3, 0] but the solution gives [3, 0, 0]",
    )


def test_solution_that_leaves_tiles(tmp_path: Path) -> None:
    code, text = verify_data(tmp_path, level(ROWS, GOOD[:2], outside=False))
    assert (code, text) == (1, "/solution: after the last step 2 tiles remain, first at [0, 1]")


def test_step_off_the_board(tmp_path: Path) -> None:
    solution = [step([1, 0], [1, 2], 2), *GOOD[1:]]
    code, text = verify_data(tmp_path, level(ROWS, solution, outside=False))
    assert (code, text) == (1, "/solution/0/b: cell [1, 2] is not on the board")


# ----- bad command-line values: exit 2, nothing written -----------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "12by8"], "Invalid value for '--size': size '12by8' is not of the form WxH"),
        (
            ["--size", "0x4"],
            "Invalid value for '--size': width 0 in size '0x4' is out of range 1..64",
        ),
        (["--size", "65x4"], "out of range 1..64"),
        (
            ["--size", "3x3"],
            "Invalid value for '--size': the board has 9 tile cells, an odd number",
        ),
        (["--size", "12x8", "--copies", "3"], "Invalid value for '--copies': 3 is not an even"),
        (["--size", "12x8", "--copies", "0"], "Invalid value for '--copies'"),
        (["--size", "12x8", "--kinds", "0"], "Invalid value for '--kinds': 0 is not at least 1"),
        (["--size", "12x8", "--kinds", "49"], "Invalid value for '--kinds': kinds = 49 is more"),
        (["--size", "12x8", "--max-turns", "9"], "Invalid value for '--max-turns': 9 is not in"),
        (["--size", "12x8", "--seed", "-1"], "Invalid value for '--seed': -1 is not in"),
        (["--size", "12x8", "--seed", "x"], "Invalid value for '--seed'"),
        (["--seed", "1"], "Invalid value for '--size': give a size such as 12x8"),
    ],
)
def test_bad_create_values(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "level.json"
    result = run("create", *args, "-o", str(out))
    assert result.exit_code == 2
    assert message in result.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_bad_method_and_time_limit(tmp_path: Path) -> None:
    path = tmp_path / "level.json"
    path.write_text(json.dumps(level([[1, 1]])), encoding="utf-8")
    result = run("verify", str(path), "--method", "magic")
    assert result.exit_code == 2 and "Invalid value for '--method'" in result.stderr
    result = run("verify", str(path), "--time-limit", "-1")
    assert result.exit_code == 2 and "Invalid value for '--time-limit'" in result.stderr


def test_layout_problems(tmp_path: Path) -> None:
    out = tmp_path / "out" / "level.json"
    out.parent.mkdir()
    result = run("create", "--layout", str(tmp_path / "none.txt"), "-o", str(out))
    assert result.exit_code == 3 and "none.txt: no such layout" in result.stderr
    layout = tmp_path / "shape.txt"
    layout.write_text("oo\nox\n", encoding="utf-8")
    result = run("create", "--layout", str(layout), "-o", str(out))
    assert result.exit_code == 3 and "line 2, column 2 of the layout" in result.stderr
    layout.write_text("oo\noo\n", encoding="utf-8")
    result = run("create", "--layout", str(layout), "--size", "4x4", "-o", str(out))
    assert result.exit_code == 2 and "differs from the 2x2" in result.stderr
    layout.write_text("o#o\n", encoding="utf-8")
    result = run("create", "--layout", str(layout), "--copies", "2", "--no-outside", "-o", str(out))
    assert result.exit_code == 1 and "no removal is possible" in result.stderr
    assert list(out.parent.iterdir()) == []


def test_a_failed_command_keeps_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "level.json"
    out.write_text("precious\n", encoding="utf-8")
    unsolvable = tmp_path / "hand.json"
    rows = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]
    unsolvable.write_text(json.dumps(level(rows, outside=False)), encoding="utf-8")
    assert run("solve", str(unsolvable), "--method", "search", "-o", str(out)).exit_code == 1
    assert run("create", "--size", "1x1", "-o", str(out)).exit_code == 2
    assert out.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.json", "level.json"]


def test_unwritable_output(tmp_path: Path) -> None:
    result = run("create", "--size", "4x2", "--seed", "1", "-o", str(tmp_path / "no" / "x.json"))
    assert result.exit_code == 3
    assert "cannot write" in result.stderr
