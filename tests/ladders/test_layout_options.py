"""The layout rules as create options at the edges: ``levelgen create --set NAME=VALUE`` and
the service's create body take them, the level records them, a contradiction is a usage error
(exit 2 / 422 at the option) and a search that finds no layout is exit 1."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.formats import parse_json
from levelgen.ladders import FAMILY
from levelgen.ladders.geometry import board_crossings, jump_length
from tests.service.test_service import AUTH, make_client

runner = CliRunner()


def test_cli_create_takes_the_layout_options(tmp_path: Path) -> None:
    out = tmp_path / "board.json"
    result = runner.invoke(
        app,
        [
            "create",
            "--game",
            "snakes-ladders",
            "--expected",
            "30:40",
            "--seed",
            "4",
            "--set",
            "max_length=4",
            "--set",
            "snake_crossings=1",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    level = FAMILY.read(parse_json(out.read_text(encoding="utf-8")))
    assert level.generator is not None
    params = level.generator.parameters
    assert (params["max_length"], params["snake_crossings"], params["ladder_crossings"]) == (
        4,
        1,
        0,
    )
    ladder_ladder, ladder_snake, snake_snake = board_crossings(level.board)
    assert ladder_ladder == 0 and ladder_snake + snake_snake <= 1
    jumps = [*level.board.ladders, *level.board.snakes]
    assert max(jump_length(a, b, 10, 10) for a, b in jumps) <= 4


def test_cli_contradiction_and_no_layout(tmp_path: Path) -> None:
    out = tmp_path / "board.json"
    base = ["create", "--game", "snakes-ladders", "--seed", "1", "-o", str(out)]
    result = runner.invoke(app, [*base, "--size", "1x30", "--set", "max_length=2"])
    assert result.exit_code == 2
    assert "shortest jump" in result.output
    options = ["--size", "8x4", "--snakes", "4", "--ladders", "3", "--expected", "1:"]
    settings = ["--set", "max_length=1", "--set", "snake_crossings=0"]
    result = runner.invoke(app, [*base, *options, *settings])
    assert result.exit_code == 1
    assert "max_length: no layout of 4 snakes and 3 ladders keeps the layout rules" in (
        result.output
    )
    assert not out.exists()


def test_service_create_body_takes_them(tmp_path: Path) -> None:
    with make_client(tmp_path, api_key="s3cret-key") as client:
        body = {"game": "snakes-ladders", "seed": 2, "max_length": 4, "thirds": True}
        response = client.post("/v1/levels", json=body, headers=AUTH)
        assert response.status_code in (200, 201), response.text
        level = response.json()
        level = level.get("level", level)
        assert level["generator"]["parameters"]["max_length"] == 4
        bad = client.post(
            "/v1/levels",
            json={"game": "snakes-ladders", "seed": 2, "ladder_crossings": -1},
            headers=AUTH,
        )
        assert bad.status_code == 422
        assert "ladder_crossings" in json.dumps(bad.json())
