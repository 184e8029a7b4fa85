"""What a new user ran into, each checked as they met it: ``--version``, a folder that is not
a pack, a pipe closed by its reader, one range for ``--layers``, position files in ``show``
and ``render``, ``shuffle`` without a seed, and the size cap in words."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner, Result

from levelgen import __version__
from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.schema.position import position_to_data
from tests import ROOT

runner = CliRunner()


def run(*args: str, input: str | bytes | None = None) -> Result:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def position_file(tmp_path: Path) -> Path:
    board = Board.from_rows(["1221", "3443", "4334"])
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_to_data(board, Rules())), encoding="utf-8")
    return path


def test_version_as_an_option_and_as_a_command() -> None:
    for args in (["--version"], ["version"]):
        result = run(*args)
        assert result.exit_code == 0 and result.stdout.strip() == __version__, args


def test_verify_of_a_folder_that_is_not_a_pack(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}")
    result = run("verify", str(tmp_path))
    assert result.exit_code == 3
    reason = "no manifest.json: not a pack directory (give its level files: DIR/*.json)"
    assert result.stderr == f"{tmp_path}: {reason}\n"
    assert result.stdout == ""
    assert "manifest.json" in run("verify", "--help").stdout


def test_a_reader_that_goes_away_is_exit_141_and_quiet() -> None:
    """``levelgen show big.json | head -2``: the pipe's reader is gone before the output is
    written (a pipe whose read end is closed), so the first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "from levelgen.cli import main; main()",
                "show",
                str(ROOT / "levels" / "classic_18x8.json"),
            ],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write)
    assert done.returncode == 141 and done.stderr == ""


def test_layers_has_one_range_and_one_is_the_flat_board() -> None:
    assert "Layers (1..8; 1: a flat board)" in " ".join(run("create", "--help").stdout.split())
    refused = run("create", "--size", "6x4", "--layers", "0")
    assert refused.exit_code == 2 and "0 is not in 1..8 (1: a flat board)" in refused.stderr
    flat = run("create", "--size", "6x4", "--seed", "3", "--layers", "1")
    plain = run("create", "--size", "6x4", "--seed", "3")
    assert (
        flat.exit_code == 0
        and json.loads(flat.stdout)["board"] == json.loads(plain.stdout)["board"]
    )


def test_a_position_file_is_shown_and_drawn_and_verify_says_what_it_is(tmp_path: Path) -> None:
    path = position_file(tmp_path)
    shown = run("show", str(path))
    assert shown.exit_code == 0, shown.output
    assert "position: 4x3, 12 tiles" in shown.stdout and shown.stderr == ""
    out = tmp_path / "position.svg"
    drawn = run("render", str(path), "-o", str(out))
    assert drawn.exit_code == 0, drawn.output
    assert out.read_text().startswith("<svg")
    stepped = run("show", str(path), "--step", "1")
    assert stepped.exit_code == 2 and "no solution to step through" in stepped.stderr
    checked = run("verify", str(path))
    assert checked.exit_code == 3
    assert checked.stderr.splitlines() == [
        f"{path}: a position file, not a level file: hint, shuffle, show and render read it"
    ]


def test_shuffle_without_a_seed_draws_one_and_records_it(tmp_path: Path) -> None:
    path = position_file(tmp_path)
    out = tmp_path / "out.json"
    result = run("shuffle", str(path), "-o", str(out))
    assert result.exit_code == 0, result.output
    seed = json.loads(out.read_text())["generator"]["seed"]
    assert f"(seed {seed})" in result.stderr
    again = run("shuffle", str(path), "--seed", str(seed))
    assert json.loads(again.stdout) == json.loads(out.read_text())  # the same deal again


def test_a_stream_over_the_cap_says_so_in_plain_words() -> None:
    result = run("verify", "-", input=b" " * (4 * 1024 * 1024 + 1))
    assert result.exit_code == 3
    assert result.stderr == "-: the file is larger than the cap of 4 MiB\n"


def test_show_counts_the_tiles_of_every_layer(tmp_path: Path) -> None:
    """No odd-kind warning for the layered sample levels (each kind's tiles are spread over
    the layers); a kind odd over all layers together is still named."""
    for path in sorted((ROOT / "levels").glob("layers_*.json")):
        result = run("show", str(path))
        assert result.exit_code == 0 and result.stderr == "", (path, result.stderr)
    data = json.loads((ROOT / "levels" / "layers_turtle_12x8.json").read_text())
    data.pop("solution", None)
    data.pop("id", None)
    data.pop("metrics", None)
    data["board"]["layers"][0][1][2] = 99  # one tile of a kind of its own, on the second layer
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(data))
    result = run("show", str(odd))
    assert result.exit_code == 0, result.output
    assert "warning: kind 99 has 1 tile, an odd number" in result.stderr


def test_link_up_commands_refuse_another_game_in_one_line(tmp_path: Path) -> None:
    """``shuffle`` is Link-up's: a sliding-puzzle or snakes-and-ladders file is refused as an
    operation its game does not have (exit 2), not as a broken Link-up file.  (``export``
    serves every built-in game; tests/export/test_games.py refuses a game without it.)"""
    for name in ("sliding_3x3_numbered.json", "ladders_chutes_10x10.json"):
        path = ROOT / "levels" / name
        game = json.loads(path.read_text())["game"]
        for args, operation in ((["shuffle", str(path), "--seed", "1"], "shuffle"),):
            result = run(*args)
            assert result.exit_code == 2, (args, result.output)
            assert result.stderr == f"{path}: game {game!r} has no {operation} operation\n"
    assert list(tmp_path.iterdir()) == []
