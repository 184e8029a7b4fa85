"""``create --symmetry`` and ``--shape``, ``levelgen shapes``, ``pack --symmetry`` and the
service's create and pack bodies: symmetric files that verify, and every impossible combination
refused in one line naming the option (exit 2, no file written)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from levelgen.cli import app
from levelgen.linkup import Board, is_symmetric, shape_info, shape_names

runner = CliRunner()


def run(*args: str) -> Result:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


def board_of(path: Path) -> tuple[Board, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data["board"]["rows"]
    board = Board(len(rows[0]), len(rows), tuple(v for row in rows for v in row))
    return board, data["generator"]["parameters"]


def test_shapes_lists_every_shape() -> None:
    result = run("shapes")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["name", "size", "tiles", "symmetry"]
    assert len(lines) == 1 + len(shape_names()) >= 7
    for line, name in zip(lines[1:], shape_names(), strict=True):
        info = shape_info(name)
        assert line.split() == [name, f"{info.width}x{info.height}", str(info.tiles), info.symmetry]
    listed = json.loads(run("shapes", "--json").stdout)
    assert {row["name"] for row in listed} >= {"heart", "pyramid", "ring", "diamond", "cross"}
    assert {row["symmetry"] for row in listed} == {"both", "mirror", "rotate"}


@pytest.mark.parametrize("symmetry", ["mirror", "rotate", "both"])
def test_create_symmetry_writes_a_symmetric_level_that_verifies(
    tmp_path: Path, symmetry: str
) -> None:
    out = tmp_path / "level.json"
    result = run("create", "--size", "12x8", "--seed", "5", "--symmetry", symmetry, "-o", str(out))
    assert result.exit_code == 0, result.output
    board, params = board_of(out)
    assert is_symmetric(board, symmetry)
    assert is_symmetric(board, "mirror" if symmetry == "both" else symmetry, kinds=True)
    assert params["symmetry"] == symmetry
    assert params["kinds_symmetry"] in (symmetry, "mirror", "both")
    assert run("verify", str(out)).exit_code == 0
    again = tmp_path / "again.json"
    run("create", "--size", "12x8", "--seed", "5", "--symmetry", symmetry, "-o", str(again))
    assert again.read_bytes() == out.read_bytes()


def test_create_shape_with_and_without_symmetry(tmp_path: Path) -> None:
    out = tmp_path / "heart.json"
    result = run(
        "create", "--shape", "heart", "--symmetry", "mirror", "--seed", "2", "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    board, params = board_of(out)
    assert (board.width, board.height, board.tile_count()) == (14, 11, 104)
    assert is_symmetric(board, "mirror", kinds=True)
    assert params["shape"] == "heart" and params["symmetry"] == "mirror"
    assert run("verify", str(out)).exit_code == 0
    plain = tmp_path / "plain.json"
    assert run("create", "--shape", "ring", "--seed", "2", "-o", str(plain)).exit_code == 0
    board, params = board_of(plain)
    assert params["shape"] == "ring" and "symmetry" not in params
    assert is_symmetric(board, "both") and not is_symmetric(board, "mirror", kinds=True)


@pytest.mark.parametrize(
    ("layout", "args", "option", "words"),
    [
        ("oooo\noo..\n", ["--symmetry", "mirror"], "--symmetry", "not mirror-symmetric"),
        ("ooo\nooo\nooo\nooo\nooo\no.o\n", ["--symmetry", "mirror"], "--symmetry", "holds 5"),
        ("ooo\nooo\nooo\n", ["--symmetry", "rotate"], "--symmetry", "centre cell [1, 1]"),
        ("oooo\noooo\n", ["--symmetry", "diagonal"], "--symmetry", "not one of mirror"),
        ("oooo\noooo\n", ["--symmetry", "mirror", "--slide", "down"], "--symmetry", "flat"),
        ("oooo\noooo\n", ["--symmetry", "mirror", "--difficulty", "hard"], "--symmetry", "steer"),
        ("oooo\noooo\n", ["--shape", "heart"], "--shape", "not both"),
        (None, ["--shape", "hearts"], "--shape", "'hearts' is not a shape"),
        (None, ["--shape", "pinwheel", "--symmetry", "mirror"], "--symmetry", "pinwheel"),
        (None, ["--size", "3x3", "--symmetry", "both", "--copies", "10"], "--copies", "8 tile"),
    ],
)
def test_impossible_combinations_are_one_line_exit_2(
    tmp_path: Path, layout: str | None, args: list[str], option: str, words: str
) -> None:
    out = tmp_path / "level.json"
    given: list[str] = []
    if layout is not None:
        path = tmp_path / "layout.txt"
        path.write_text(layout, encoding="utf-8")
        given = ["--layout", str(path)]
    result = run("create", *given, *args, "--seed", "1", "-o", str(out))
    assert result.exit_code == 2, result.output
    errors = result.stderr.splitlines()
    assert len(errors) == 1, result.stderr
    assert f"'{option}'" in errors[0] and words in errors[0], errors[0]
    assert not out.exists()


def test_other_games_refuse_the_linkup_options() -> None:
    result = run("create", "--game", "sliding-puzzle", "--size", "3x3", "--symmetry", "mirror")
    assert result.exit_code == 2
    assert "symmetry" in result.stderr
    result = run("pack", "--game", "sliding-puzzle", "--symmetry", "mirror", "-o", "x")
    assert result.exit_code == 2 and "'--symmetry'" in result.stderr


def test_pack_symmetry(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    args = ["pack", "--count", "3", "--size", "10x8", "--seed", "4", "--workers", "1"]
    result = run(*args, "--symmetry", "rotate", "-o", str(out))
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["parameters"]["options"]["symmetry"] == "rotate"
    for entry in manifest["levels"]:
        board, params = board_of(out / entry["file"])
        assert is_symmetric(board, "rotate", kinds=True) and params["symmetry"] == "rotate"
        assert entry["size"] == "10x8" and "score" in entry
    assert run("verify", str(out)).exit_code == 0
    shaped = tmp_path / "hearts"
    wrong = run(*args, "--shape", "heart", "-o", str(shaped))
    assert wrong.exit_code == 2 and "'--size'" in wrong.stderr and "14x11" in wrong.stderr
    args = [a for a in args if a not in ("--size", "10x8")]
    result = run(*args, "--shape", "heart", "--symmetry", "mirror", "-o", str(shaped))
    assert result.exit_code == 0, result.output
    board, _ = board_of(shaped / "001.json")
    assert board.size == (14, 11) and is_symmetric(board, "mirror", kinds=True)
    refused = run(*args, "--symmetry", "mirror", "--ramp", "easy:hard", "-o", str(tmp_path / "r"))
    assert refused.exit_code == 2 and "'--symmetry'" in refused.stderr
    assert not (tmp_path / "r").exists()


# ----- the service's bodies --------------------------------------------------------------------


def test_service_create_body_takes_symmetry_and_shape() -> None:
    from levelgen.service.tasks import task_create

    done = task_create(b'{"size": "12x8", "seed": 3, "symmetry": "both"}', 0, 64)
    assert done.status == 201, done
    data = json.loads(done.body)
    rows = data["board"]["rows"]
    board = Board(len(rows[0]), len(rows), tuple(v for row in rows for v in row))
    assert is_symmetric(board, "both") and data["generator"]["parameters"]["symmetry"] == "both"
    shaped = task_create(b'{"shape": "cross", "seed": 1, "symmetry": "mirror"}', 0, 64)
    assert shaped.status == 201 and json.loads(shaped.body)["board"]["width"] == 12
    for body, pointer in [
        (b'{"size": "12x8", "symmetry": "diagonal"}', "/symmetry"),
        (b'{"shape": "hearts"}', "/shape"),
        (b'{"shape": "heart", "layout": ["oo"]}', "/shape"),
        (b'{"shape": "heart", "symmetry": "rotate"}', "/symmetry"),
        (b'{"size": "12x8", "symmetry": 3}', "/symmetry"),
    ]:
        refused = task_create(body, 0, 64)
        assert refused.status == 422 and refused.pointer == pointer, (body, refused)


def test_service_pack_body_takes_symmetry() -> None:
    from levelgen.service.problems import ProblemError
    from levelgen.service.routes.packs import PackRequest, _check
    from levelgen.service.runner import plan_of

    values = _check(PackRequest(count=2, size="12x8", seed=1, symmetry="mirror"), 64, 10)
    assert values["options"]["symmetry"] == "mirror"
    assert all(job.values["symmetry"] == "mirror" for job in plan_of(values).jobs)
    with pytest.raises(ProblemError) as caught:
        _check(PackRequest(count=2, size="12x8", symmetry="mirror", ramp="easy:hard"), 64, 10)
    assert caught.value.pointer == "/symmetry"
