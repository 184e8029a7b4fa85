"""The editor's routes: ``GET /edit`` and ``/edit/{game}`` (each built-in game has an editor
page that may call only this service), ``PUT /v1/levels/{id}`` (a proved level stored after its
certificate replays), and ``levelgen edit`` (the page of FILE's game with FILE in it)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.puzzles import Capability, family, family_names
from tests import ROOT
from tests.service.test_service import AUTH, KEY, make_client, problem

LEVEL = ROOT / "levels" / "classic_12x8.json"
EDITABLE = family_names(builtin_only=True)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("edit"), api_key=KEY) as c:
        yield c


def _level() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LEVEL.read_text(encoding="utf-8"))
    return data


def test_a_proved_level_is_stored_once_and_read_back(client: TestClient) -> None:
    level = _level()
    url = f"/v1/levels/{level['id']}"
    first = client.put(url, json=level, headers=AUTH)
    assert first.status_code == 201, first.text
    assert first.json()["id"] == level["id"] and first.headers["location"] == url
    again = client.put(url, json=level, headers=AUTH)
    assert again.status_code == 200 and again.json()["id"] == level["id"]
    assert client.get(url).json()["board"] == level["board"]


def test_storing_needs_the_key(client: TestClient) -> None:
    level = _level()
    problem(client.put(f"/v1/levels/{level['id']}", json=level), 401)


def test_a_level_without_its_certificate_is_refused(client: TestClient) -> None:
    level = _level()
    del level["solution"]
    found = problem(client.put(f"/v1/levels/{level['id']}", json=level, headers=AUTH), 422)
    assert "solve it first" in found["detail"]


def test_a_level_whose_certificate_fails_is_refused_with_its_place(client: TestClient) -> None:
    level = _level()
    level["solution"][3], level["solution"][40] = level["solution"][40], level["solution"][3]
    found = problem(client.put(f"/v1/levels/{level['id']}", json=level, headers=AUTH), 422)
    assert found["pointer"].startswith("/solution/")


def test_the_id_must_be_the_urls(client: TestClient) -> None:
    level = _level()
    other = "sha256:" + "0" * 64
    problem(client.put(f"/v1/levels/{other}", json=level, headers=AUTH), 422, "/id")


def test_a_body_that_is_not_json_is_a_400(client: TestClient) -> None:
    level = _level()
    response = client.put(f"/v1/levels/{level['id']}", content=b"{not json", headers=AUTH)
    problem(response, 400)


def test_edit_goes_to_the_default_games_editor(client: TestClient) -> None:
    response = client.get("/edit", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "edit/linkup"


def test_an_unknown_game_has_no_editor(client: TestClient) -> None:
    problem(client.get("/edit/no-such-game"), 404)


@pytest.mark.parametrize("game", EDITABLE)
def test_every_builtin_game_has_an_editor_that_calls_only_this_service(
    client: TestClient, game: str
) -> None:
    assert Capability.EDIT in family(game).capabilities
    response = client.get(f"/edit/{game}")
    assert response.status_code == 200, response.text
    page = response.text
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None and "connect-src 'self';" in policy.group(1)
    assert "default-src 'none'" in policy.group(1)
    # The page links every game's editor and registers the game's part with the shell.
    for other in EDITABLE:
        assert f'href="{other}"' in page
    assert "LevelgenEditor.register" in page
    data = json.loads(re.search(r'id="levelgen-level">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert data["game"] == game and data["document"] is None and data["apiBase"] == ""


runner = CliRunner()


def test_edit_refuses_an_unreadable_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["edit", str(tmp_path / "missing.json"), "--no-browser"])
    assert result.exit_code == 3, result.output
    assert "missing.json" in result.output


def test_edit_opens_the_file_in_its_games_editor(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    command = [sys.executable, "-m", "levelgen", "edit", str(LEVEL), "--no-browser"]
    process = subprocess.Popen(
        [*command, "--db", db], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.match(r"levelgen edit: (http://127\.0\.0\.1:\d+/edit/linkup)\s", line)
        assert found, line
        with urllib.request.urlopen(found.group(1), timeout=60) as response:
            page = response.read().decode("utf-8")
        data = json.loads(re.search(r'id="levelgen-level">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
        assert data["document"]["board"] == _level()["board"]
    finally:
        process.terminate()
        # uvicorn re-raises the signal once it has stopped
        assert process.wait(timeout=60) in (0, -signal.SIGTERM)
