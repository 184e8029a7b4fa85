"""Packs of every game through one road: the size and difficulty each level was made with in
the manifest, ramps that never fall, the test family's packs (no edge changed for it), resume
to the same bytes when the play order is not the plan's, and older manifests still verified."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from levelgen.pack import (
    PackInterrupted,
    make_pack,
    pack_id,
    partial_dir,
    plan_family_pack,
    verify_pack,
)
from levelgen.pack.plan import difficulty_block
from levelgen.puzzles import FamilyBase, family, register
from tests import ROOT
from tests.family_counting import COUNTING

#: Small, fast packs of each built-in game.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("linkup", {"size": "6x4"}),
    ("sliding-puzzle", {"size": "3x3"}),
    ("snakes-ladders", {}),
]


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def rates(game: str) -> bool:
    """Whether the family gives levels their difficulty block (its own ``rate``)."""
    return type(family(game)).rate is not FamilyBase.rate


def drops(scores: list[float]) -> int:
    """How often a level scores more than 3 points below the one before it."""
    return sum(1 for a, b in pairwise(scores) if b < a - 3)


@pytest.fixture
def counting() -> Iterator[None]:
    from levelgen import puzzles

    register(COUNTING)
    yield
    puzzles._loaded.pop("counting", None)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_pack_of_each_game_records_what_each_level_is(
    tmp_path: Path, game: str, options: dict[str, Any]
) -> None:
    plan = plan_family_pack(game, 3, 11, options, ramp="easy:hard")
    out = tmp_path / "pack"
    manifest = make_pack(plan, out, workers=1)
    assert manifest["game"] == game and manifest["parameters"]["options"] == options
    assert [e["file"] for e in manifest["levels"]] == ["001.json", "002.json", "003.json"]
    for entry in manifest["levels"]:
        level = json.loads((out / entry["file"]).read_text())
        board = level.get("board", level)
        assert entry["size"] == f"{board['width']}x{board['height']}"  # never null
        if entry["score"] is None and not rates(game):
            continue  # the family gives no difficulty block yet
        block = difficulty_block(level)
        assert block is not None and 0 <= block["score"] <= 100
        assert (entry["score"], entry["band"]) == (block["score"], block["band"])
        assert block["band"] in family(game).bands
    assert verify_pack(out).problems == []


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_ramp_of_40_never_falls(tmp_path: Path, game: str, options: dict[str, Any]) -> None:
    plan = plan_family_pack(game, 40, 3, options, ramp="easy:expert")
    manifest = make_pack(plan, tmp_path / "pack", workers=1)
    scores = [entry["score"] for entry in manifest["levels"]]
    if None in scores and not rates(game):
        pytest.skip(f"{game} gives no difficulty block yet")
    assert None not in scores and drops(scores) == 0
    assert scores[-1] - scores[0] > 20, scores  # it rises


def test_the_test_family_packs_rise_and_resume_to_the_same_bytes(
    tmp_path: Path, counting: None
) -> None:
    plan = plan_family_pack("counting", 12, 5, {"goal": 3000}, ramp="easy:hard")
    whole = tmp_path / "whole"
    manifest = make_pack(plan, whole, workers=1)
    scores = [entry["score"] for entry in manifest["levels"]]
    assert scores == sorted(scores) and len(set(scores)) > 1
    planned = [job.seed for job in plan.jobs]
    played = [entry["seed"] for entry in manifest["levels"]]
    assert sorted(played) == sorted(planned) and played != planned  # the order was changed
    assert verify_pack(whole).problems == []

    target = tmp_path / "pack"

    def stop(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(PackInterrupted):
        make_pack(plan, target, workers=1, on_level=stop)
    assert not target.exists() and partial_dir(target).exists()
    make_pack(plan, target, workers=1, resume=True)
    assert files_of(target) == files_of(whole)
    assert not partial_dir(target).exists()
    again = tmp_path / "again"
    make_pack(plan, again, workers=2)
    assert files_of(again) == files_of(whole)


def test_an_interrupted_finish_is_resumed(tmp_path: Path, counting: None) -> None:
    """The levels stay in the partial pack until the finished one is renamed: a finish cut
    short (its folder half written) is made again by --resume."""
    plan = plan_family_pack("counting", 6, 8, {"goal": 900}, ramp="easy:hard")
    whole = tmp_path / "whole"
    make_pack(plan, whole, workers=1)
    target = tmp_path / "pack"

    def stop(done: int, total: int) -> None:
        if done == 6:
            raise KeyboardInterrupt

    with pytest.raises(PackInterrupted):
        make_pack(plan, target, workers=1, on_level=stop)
    half = partial_dir(target) / ".finished"
    half.mkdir()
    (half / "001.json").write_text("{")
    make_pack(plan, target, workers=1, resume=True)
    assert files_of(target) == files_of(whole)


def test_a_ramped_pack_out_of_order_is_a_problem(tmp_path: Path, counting: None) -> None:
    plan = plan_family_pack("counting", 4, 5, {"goal": 3000}, ramp="easy:hard")
    out = tmp_path / "pack"
    make_pack(plan, out, workers=1)
    data = json.loads((out / "manifest.json").read_text())
    first, last = data["levels"][0], data["levels"][-1]
    first_bytes, last_bytes = (out / first["file"]).read_bytes(), (out / last["file"]).read_bytes()
    first["file"], last["file"] = last["file"], first["file"]
    data["levels"][0], data["levels"][-1] = last, first
    (out / first["file"]).write_bytes(first_bytes)
    (out / last["file"]).write_bytes(last_bytes)
    data["pack_id"] = pack_id(data)
    (out / "manifest.json").write_text(json.dumps(data))
    pointers = [p.pointer for p in verify_pack(out).problems]
    assert "/levels/1/score" in pointers and "/levels/3/score" in pointers


def test_an_older_manifest_is_still_verified(tmp_path: Path) -> None:
    """A Link-up manifest of an older levelgen (its options spelled out in ``parameters``,
    ``difficulty`` in each level): its levels are checked."""
    golden = ROOT / "tests" / "data" / "golden" / "pack_ramp"
    out = tmp_path / "older"
    shutil.copytree(golden, out)
    current = json.loads((golden / "manifest.json").read_text())
    levels = []
    for entry in current["levels"]:
        levels.append(
            {
                "file": entry["file"],
                "id": entry["id"],
                "size": entry["size"],
                "difficulty": {"score": entry["score"], "band": entry["band"]},
                "sha256": entry["sha256"],
            }
        )
    older: dict[str, Any] = {
        "$schema": "urn:levelgen:schema:pack-manifest:v1",
        "pack_id": "",
        "levelgen_version": current["levelgen_version"],
        "seed": current["seed"],
        "parameters": {
            "count": 4,
            "sizes": ["8x6", "12x8"],
            "size_ramp": True,
            "difficulty": None,
            "ramp": "easy:hard",
            "max_turns": 2,
            "outside": True,
            "layout": None,
        },
        "levels": levels,
    }
    older["pack_id"] = pack_id(older)
    (out / "manifest.json").write_text(json.dumps(older))
    report = verify_pack(out)
    assert report.readable and report.problems == [] and report.levels == 4
    (out / "002.json").write_text("{}")
    assert "/levels/1/sha256" in [p.pointer for p in verify_pack(out).problems]


def test_the_command_line_takes_each_games_declared_options(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from levelgen.cli import app

    runner = CliRunner()
    out = tmp_path / "snakes"
    args = ["pack", "--game", "snakes-ladders", "--size", "8x8", "--snakes", "4", "--count", "2"]
    made = runner.invoke(app, [*args, "--seed", "3", "--workers", "1", "-o", str(out)])
    assert made.exit_code == 0, made.output
    manifest = json.loads((out / "manifest.json").read_text())
    options = manifest["parameters"]["options"]  # as the game declares them (text or number)
    assert sorted(options) == ["size", "snakes"] and str(options["snakes"]) == "4"
    assert [entry["size"] for entry in manifest["levels"]] == ["8x8", "8x8"]
    refused = runner.invoke(app, ["pack", "--moves", "30", "-o", str(tmp_path / "x")])
    assert refused.exit_code == 2 and "'--moves'" in refused.output
    assert "not an option of game 'linkup'" in refused.output
    layout = tmp_path / "layout.txt"
    layout.write_text("oooo\no.oo\n")
    odd = runner.invoke(app, ["pack", "--layout", str(layout), "-o", str(tmp_path / "y")])
    assert odd.exit_code == 2 and "'--layout'" in odd.output and "7 tile cells" in odd.output
    layout.write_text("oxoo\n")
    unreadable = runner.invoke(app, ["pack", "--layout", str(layout), "-o", str(tmp_path / "z")])
    assert unreadable.exit_code == 3 and str(layout) in unreadable.output
    assert not any(p.name in ("x", "y", "z") for p in tmp_path.iterdir())
