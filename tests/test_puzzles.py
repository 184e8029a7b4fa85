"""The family table and its registry: the built-in Link-up table, a third-party family found
through the entry-point group and through ``LEVELGEN_FAMILIES``, and that family run through
every edge that takes any game (create, verify, solve, hint and show on the command line;
verify, solve and hint in the service), with one clear line for what it declares absent."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import levelgen.puzzles as registry
from levelgen import families, family, family_of
from levelgen.cli import app
from levelgen.puzzles import Budget, Capability, DocumentError, Family, FamilyError
from tests.family_counting import COUNTING, CountingFamily

runner = CliRunner()
REFERENCE = "tests.family_counting:COUNTING"


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The counting family, named in LEVELGEN_FAMILIES (so service workers see it too)."""
    monkeypatch.setenv(registry.FAMILIES_VARIABLE, f"counting={REFERENCE}")
    yield
    registry._loaded.pop("counting", None)


def test_the_builtin_family_is_found_by_name() -> None:
    linkup = family("linkup")
    assert isinstance(linkup, Family)
    assert linkup.name == "linkup" and Capability.SOLVE in linkup.capabilities
    assert "linkup" in families()
    assert family_of({"game": "linkup"}) is linkup
    assert family_of({"board": {}}) is linkup  # no game: Link-up's own checks say what is wrong


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(FamilyError, match=r"unknown game 'mahjong' \(known: .*linkup"):
        family("mahjong")
    with pytest.raises(DocumentError) as caught:
        family_of({"game": "mahjong"})
    assert caught.value.problems[0].pointer == "/game"


def test_a_family_registers_through_the_entry_point_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    point = EntryPoint("counting", REFERENCE, registry.ENTRY_POINT_GROUP)

    def entry_points(*, group: str) -> list[EntryPoint]:
        return [point] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    try:
        assert family("counting") is COUNTING
        assert "counting" in families()
    finally:
        registry._loaded.pop("counting", None)


def test_register_refuses_what_is_not_a_family() -> None:
    with pytest.raises(FamilyError, match="not a puzzle family"):
        registry.register(object())  # type: ignore[arg-type]
    again = registry.register(CountingFamily())
    try:
        assert family("counting") is again
    finally:
        registry._loaded.pop("counting", None)


def test_the_linkup_table_creates_verifies_solves_and_hints() -> None:
    linkup = family("linkup")
    level = linkup.create(linkup.parse_spec({"size": "6x4"}), 5)
    verdict = linkup.verify(level, prove=True, budget=Budget(), options={})
    assert verdict.status == "ok" and verdict.text.startswith("ok: solution replayed")
    bare = linkup.read({k: v for k, v in linkup.dump(level).items() if k != "solution"})
    solved = linkup.solve(bare, budget=Budget(), options={"method": "search"})
    assert solved.status == "solved" and solved.document is not None
    assert linkup.verify(solved.document, prove=False, budget=Budget(), options={}).status == "ok"
    assert linkup.hint(level, budget=Budget(), options={}).status == "ok"
    text, warnings = linkup.show(level, color=False, options={"step": 0})
    assert "step 0 of" in text and warnings == []
    assert linkup.draw(level, cell_size=16, options={}).width > 0
    assert linkup.difficulty(level)[1] in linkup.bands


def _run(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_a_third_party_family_through_the_command_line(tmp_path: Path, counting: None) -> None:
    level = tmp_path / "level.json"
    made = _run("create", "--game", "counting", "--set", "goal=37", "--seed", "5", "-o", str(level))
    assert made.exit_code == 0, made.output
    data = json.loads(level.read_text())
    assert data == {
        "game": "counting",
        "start": 5,
        "goal": 37,
        "solution": "++++**+",
    }
    checked = _run("verify", str(level), "--json")
    assert checked.exit_code == 0, checked.output
    verdict = json.loads(checked.stdout)["files"][0]
    assert verdict["status"] == "ok" and verdict["moves"] == data["solution"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"game": "counting", "start": 3, "goal": 12}))
    assert _run("verify", str(bare)).exit_code == 0
    out = tmp_path / "solved.json"
    assert _run("solve", str(bare), "-o", str(out)).exit_code == 0
    assert json.loads(out.read_text())["solution"] == "**"
    hint = _run("hint", str(bare), "--json")
    assert hint.exit_code == 0
    assert json.loads(hint.stdout) == {"status": "ok", "message": "hint: *", "move": "*", "left": 2}
    assert _run("show", str(bare)).stdout.strip() == "3 -> 12"
    lost = tmp_path / "lost.json"
    lost.write_text(json.dumps({"game": "counting", "start": 30, "goal": 12}))
    assert _run("verify", str(lost)).exit_code == 1
    assert _run("solve", str(lost)).exit_code == 1
    assert _run("hint", str(lost)).exit_code == 1


def test_what_a_family_lacks_is_said_in_one_line(tmp_path: Path, counting: None) -> None:
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"game": "counting", "start": 3, "goal": 12}))
    drawn = _run("render", str(bare), "-o", str(tmp_path / "x.svg"))
    assert drawn.exit_code == 2
    assert drawn.stderr.strip() == f"{bare}: game 'counting' has no draw operation"
    assert _run("play", str(bare), "-o", str(tmp_path / "x.html")).exit_code == 2
    refused = _run("solve", str(bare), "--method", "search")
    assert refused.exit_code == 2 and "'--method'" in refused.output
    assert _run("create", "--game", "counting", "--copies", "4").exit_code == 2


def test_a_third_party_family_through_the_service(tmp_path: Path, counting: None) -> None:
    from levelgen.service.app import create_app
    from levelgen.service.settings import Settings

    settings = Settings(db=f"sqlite:///{tmp_path / 'library.db'}", workers=1)
    with TestClient(create_app(settings)) as client:
        body = {"game": "counting", "start": 3, "goal": 12}
        report = client.post("/v1/verify", json=body).json()
        assert report["exit_code"] == 0 and report["files"][0]["status"] == "solvable"
        solved = client.post("/v1/solve", json=body).json()
        assert solved["status"] == "solved" and solved["level"]["solution"] == "**"
        hinted = client.post("/v1/hint", json=body).json()
        assert hinted == {"status": "ok", "message": "hint: *", "move": "*", "left": 2}
        wrong = client.post("/v1/verify", json={"game": "counting", "start": -1, "goal": 2})
        assert wrong.status_code == 422 and wrong.json()["pointer"] == "/start"
        made = client.post("/v1/levels", json={"game": "counting", "goal": 40, "seed": 9})
        assert made.status_code == 201 and made.json() == {
            "game": "counting",
            "start": 9,
            "goal": 40,
            "solution": "+**",
        }
        again = client.post("/v1/levels", json={"game": "counting", "goal": 40, "seed": 9})
        assert again.status_code == 200
        client.post("/v1/levels", json={"size": "4x2", "seed": 1})
        listed = client.get("/v1/levels", params={"game": "counting"}).json()["items"]
        assert [item["game"] for item in listed] == ["counting"]
        assert listed[0]["rules"] is None and listed[0]["difficulty"]["band"] == "easy"
        assert {i["game"] for i in client.get("/v1/levels").json()["items"]} == {
            "counting",
            "linkup",
        }
        refused = client.post("/v1/levels", json={"game": "counting", "goal": "x"})
        assert refused.status_code == 422 and refused.json()["pointer"] == "/goal"
        body = {"game": "counting", "count": 2, "seed": 1, "options": {"goal": 30}}
        started = client.post("/v1/packs", json=body)
        assert started.status_code == 202, started.text
        url = started.headers["Location"]
        for _ in range(200):
            job = client.get(url).json()
            if job["status"] in ("done", "failed"):
                break
            time.sleep(0.05)
        assert job["status"] == "done", job
        assert job["manifest"]["game"] == "counting" and len(job["manifest"]["levels"]) == 2
        bad = client.post("/v1/packs", json={**body, "options": {"goal": 0}})
        assert bad.status_code == 422 and bad.json()["pointer"] == "/options/goal"


def test_a_third_party_family_makes_and_verifies_a_pack(tmp_path: Path, counting: None) -> None:
    out = tmp_path / "pack"
    made = _run(
        "pack",
        "--game",
        "counting",
        "--set",
        "goal=50",
        "--count",
        "3",
        "--seed",
        "7",
        "--workers",
        "1",
        "-o",
        str(out),
    )
    assert made.exit_code == 0, made.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "counting" and manifest["parameters"]["options"] == {"goal": "50"}
    assert [entry["file"] for entry in manifest["levels"]] == ["001.json", "002.json", "003.json"]
    checked = _run("verify", str(out))
    assert checked.exit_code == 0, checked.output
    (out / "002.json").write_text(json.dumps({"game": "counting", "start": 1, "goal": 50}))
    broken = _run("verify", str(out))
    assert broken.exit_code == 1 and "/levels/1/sha256" in broken.output
