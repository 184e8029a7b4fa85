"""``levelgen library import|list|export`` through typer's CliRunner on a SQLite library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from tests import ROOT

runner = CliRunner()


def make_levels(folder: Path, seeds: range, size: str = "6x4") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        path = folder / f"{seed:03}.json"
        result = runner.invoke(
            app, ["create", "--size", size, "--seed", str(seed), "-o", str(path)]
        )
        assert result.exit_code == 0, result.output
        paths.append(path)
    return paths


def test_import_list_export_round_trip(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    paths = make_levels(tmp_path / "in", range(3))
    make_levels(tmp_path / "in", range(10, 11), size="4x4")
    result = runner.invoke(app, ["library", "import", str(tmp_path / "in"), "--db", db])
    assert result.exit_code == 0, result.output
    assert "4 stored, 0 already" in result.output
    again = runner.invoke(app, ["library", "import", str(paths[0]), "--db", db])
    assert again.exit_code == 0 and "0 stored, 1 already" in again.output
    listed = runner.invoke(app, ["library", "list", "--size", "6x4", "--json", "--db", db])
    assert listed.exit_code == 0
    items = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(items) == 3 and {i["seed"] for i in items} == {0, 1, 2}
    plain = runner.invoke(app, ["library", "list", "--db", db])
    assert len(plain.stdout.splitlines()) == 4 and "4x4" in plain.stdout
    ids = [json.loads(p.read_text())["id"] for p in paths]
    out = tmp_path / "out"
    exported = runner.invoke(app, ["library", "export", *ids, "-o", str(out), "--db", db])
    assert exported.exit_code == 0, exported.output
    for path, level_id in zip(paths, ids, strict=True):
        written = out / f"{level_id.removeprefix('sha256:')}.json"
        assert written.read_bytes() == path.read_bytes()  # canonical: byte for byte


def test_import_refuses_bad_levels_and_export_unknown_ids(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    (good,) = make_levels(tmp_path, range(1))
    level = json.loads(good.read_text())
    level["solution"][0]["kind"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(level))
    unsolved = tmp_path / "unsolved.json"
    del level["solution"], level["metrics"]
    unsolved.write_text(json.dumps(level))
    result = runner.invoke(app, ["library", "import", str(bad), str(unsolved), "--db", db])
    assert result.exit_code == 1
    assert "/solution/0" in result.output and "no solution" in result.output
    missing = runner.invoke(app, ["library", "import", str(tmp_path / "nope.json"), "--db", db])
    assert missing.exit_code == 3 and "no such file" in missing.output
    unknown = runner.invoke(
        app, ["library", "export", "sha256:" + "0" * 64, "-o", str(tmp_path / "x"), "--db", db]
    )
    assert unknown.exit_code == 1 and "not in the library" in unknown.output
    listed = runner.invoke(app, ["library", "list", "--db", db])
    assert listed.stdout == ""


def test_list_shows_and_filters_the_variants(tmp_path: Path) -> None:
    """Sliding and stacked levels list with their rule and layers, and filter on them."""
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    levels = ROOT / "levels"
    for name in ("slide_down_12x8.json", "layers_turtle_12x8.json", "classic_12x8.json"):
        result = runner.invoke(app, ["library", "import", str(levels / name), "--db", db])
        assert result.exit_code == 0, result.output
    plain = runner.invoke(app, ["library", "list", "--db", db]).stdout
    assert "slide down" in plain and "4 layers" in plain
    slid = runner.invoke(app, ["library", "list", "--slide", "down", "--db", db]).stdout
    assert len(slid.splitlines()) == 1 and "slide down" in slid
    flat = runner.invoke(app, ["library", "list", "--slide", "none", "--layers", "1", "--db", db])
    assert len(flat.stdout.splitlines()) == 1 and "slide" not in flat.stdout
    bad = runner.invoke(app, ["library", "list", "--slide", "sideways", "--db", db])
    assert bad.exit_code == 2 and "--slide" in bad.output


def test_export_takes_the_hex_of_the_files_it_writes(tmp_path: Path) -> None:
    """The ``<hex>`` of ``DIR/<hex>.json`` (with or without ``.json``) names the level as
    ``sha256:<hex>`` does; anything else is refused as an id before any work (exit 2)."""
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    (path,) = make_levels(tmp_path / "in", range(1))
    assert runner.invoke(app, ["library", "import", str(path), "--db", db]).exit_code == 0
    digits = json.loads(path.read_text())["id"].removeprefix("sha256:")
    for given in (digits, f"{digits}.json"):
        out = tmp_path / f"out-{len(given)}"
        result = runner.invoke(app, ["library", "export", given, "-o", str(out), "--db", db])
        assert result.exit_code == 0, result.output
        assert (out / f"{digits}.json").read_bytes() == path.read_bytes()
    bad = runner.invoke(app, ["library", "export", "abc", "-o", str(tmp_path / "b"), "--db", db])
    assert bad.exit_code == 2 and "'abc' is not a level id" in bad.output
    assert not (tmp_path / "b").exists()


def test_reads_make_no_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``list`` and ``export`` with the default library (a SQLite file in the current folder)
    say there is none, exit 3, and leave no file behind; ``import`` makes it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LEVELGEN_DB", raising=False)
    listed = runner.invoke(app, ["library", "list"])
    assert listed.exit_code == 3, listed.output
    assert "no library at sqlite:///levelgen-library.db" in listed.stderr
    exported = runner.invoke(app, ["library", "export", "0" * 64, "-o", "out"])
    assert exported.exit_code == 3 and "no library" in exported.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    (path,) = make_levels(tmp_path / "in", range(1))
    assert runner.invoke(app, ["library", "import", str(path)]).exit_code == 0
    assert (tmp_path / "levelgen-library.db").is_file()
    again = runner.invoke(app, ["library", "list"])
    assert again.exit_code == 0 and len(again.stdout.splitlines()) == 1


def test_every_game_imports_lists_and_exports(tmp_path: Path) -> None:
    """Sliding-puzzle and snakes-and-ladders levels go in as Link-up's do (their certificates
    replayed by their own verifiers), list with their game (and filter by it), and come out
    byte for byte; a sliding level whose certificate is broken is refused."""
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    sliding = ROOT / "levels" / "sliding_3x3_numbered.json"
    ladders = ROOT / "levels" / "ladders_chutes_10x10.json"
    (linkup,) = make_levels(tmp_path / "in", range(1))
    result = runner.invoke(
        app, ["library", "import", str(sliding), str(ladders), str(linkup), "--db", db]
    )
    assert result.exit_code == 0, result.output
    assert "3 stored, 0 already" in result.output
    plain = runner.invoke(app, ["library", "list", "--db", db])
    assert plain.exit_code == 0, plain.output
    lines = plain.stdout.splitlines()
    assert len(lines) == 3
    assert any("  sliding-puzzle  3x3  " in line for line in lines)
    assert any("  snakes-ladders  " in line for line in lines)
    only = runner.invoke(app, ["library", "list", "--game", "sliding-puzzle", "--json", "--db", db])
    (item,) = [json.loads(line) for line in only.stdout.splitlines()]
    assert item["game"] == "sliding-puzzle" and item["rules"] is None
    out = tmp_path / "out"
    exported = runner.invoke(app, ["library", "export", item["id"], "-o", str(out), "--db", db])
    assert exported.exit_code == 0, exported.output
    (written,) = out.iterdir()
    assert written.read_bytes() == sliding.read_bytes()
    broken = json.loads(sliding.read_text())
    broken["solution"] = broken["solution"][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    refused = runner.invoke(app, ["library", "import", str(bad), "--db", db])
    assert refused.exit_code == 1 and refused.stderr.startswith(f"{bad}: /solution")


def test_a_pack_of_any_game_imports_and_its_manifest_says_what_it_is(tmp_path: Path) -> None:
    """A sliding-puzzle pack's folder imports its levels (not its manifest); the manifest
    itself given to ``import`` is refused in one line saying it is a pack manifest, exit 3."""
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    pack = tmp_path / "pack"
    made = runner.invoke(
        app,
        [
            *("pack", "--game", "sliding-puzzle", "--size", "3x3", "--count", "2"),
            *("--seed", "1", "--workers", "1", "-o", str(pack)),
        ],
    )
    assert made.exit_code == 0, made.output
    manifest = pack / "manifest.json"
    refused = runner.invoke(app, ["library", "import", str(manifest), "--db", db])
    assert refused.exit_code == 3, refused.output
    (line, summary) = refused.stderr.splitlines()
    assert line == (
        f"{manifest}: a pack manifest, not a level file: import its folder"
        f" (levelgen library import {pack}) or its level files"
    )
    assert summary.startswith("0 stored")
    result = runner.invoke(app, ["library", "import", str(pack), "--db", db])
    assert result.exit_code == 0, result.output
    assert "2 stored, 0 already in the library, 2 files" in result.output
    listed = runner.invoke(app, ["library", "list", "--json", "--db", db])
    items = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(i["game"], i["size"], i["rules"], i["solved"]) for i in items] == [
        ("sliding-puzzle", "3x3", None, True)
    ] * 2


def test_list_filters_are_checked_through_the_families(tmp_path: Path) -> None:
    """``--slide`` takes what some game's ``slide`` option takes (the refusal is that game's
    reason); ``--size`` is bounded by the largest side any game's level schema allows."""
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    make_levels(tmp_path / "in", range(1))
    assert (
        runner.invoke(app, ["library", "import", str(tmp_path / "in"), "--db", db]).exit_code == 0
    )
    bad = runner.invoke(app, ["library", "list", "--slide", "sideways", "--db", db])
    assert bad.exit_code == 2
    assert "'sideways' is not one of none, down," in bad.output
    for size in ("64x1", "1x64"):
        ok = runner.invoke(app, ["library", "list", "--size", size, "--db", db])
        assert ok.exit_code == 0 and ok.stdout == ""
    big = runner.invoke(app, ["library", "list", "--size", "65x2", "--db", db])
    assert big.exit_code == 2 and "65x2 is no game's size (sides 1..64 at most)" in big.output
