"""Level packs: plans, the same bytes for any worker count, resume after an interruption,
verification (hashes, ids, plan, solutions), the manifest schema, the CLI, and a Dask
``LocalCluster`` giving the same bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.pack import (
    PackError,
    PackInterrupted,
    make_pack,
    partial_dir,
    plan_pack,
    verify_pack,
)
from levelgen.pack.manifest import manifest_json_schema
from levelgen.pack.plan import PackPlan, PlanError, file_name
from tests import ROOT

runner = CliRunner()
SCHEMA_FILE = ROOT / "schemas" / "pack-manifest.v1.schema.json"


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def small_plan(
    count: int = 4, *, seed: int = 9, ramp: str = "easy:hard", sizes: str = "6x4"
) -> PackPlan:
    return plan_pack(count=count, sizes=sizes, seed=seed, ramp=ramp)


def test_plans() -> None:
    assert [job.size for job in plan_pack(count=5, sizes="8x6:18x10", seed=1).jobs] == [
        "8x6",
        "12x7",  # 11x7 has an odd cell count: one column more
        "13x8",
        "16x9",
        "18x10",
    ]
    ramp = plan_pack(count=8, sizes="8x6,12x8", seed=1, ramp="easy:expert").jobs
    assert [job.size for job in ramp] == ["8x6"] * 4 + ["12x8"] * 4
    bands = ["easy"] * 2 + ["medium"] * 2 + ["hard"] * 2 + ["expert"] * 2
    assert [job.values["difficulty"] for job in ramp] == bands
    assert file_name(0, 20) == "001.json" and file_name(9999, 10000) == "10000.json"
    plan = plan_pack(count=3, sizes="12x8", seed=1)
    assert plan == plan_pack(count=3, sizes="12x8", seed=1)
    assert len({job.seed for job in plan.jobs}) == 3
    for kwargs, option in [
        ({"ramp": "hard:easy"}, "--ramp"),
        ({"ramp": "easy:brutal"}, "--ramp"),
        ({"ramp": "easy:hard", "difficulty": "easy"}, "--ramp"),
        ({"difficulty": "brutal"}, "--difficulty"),
        ({"sizes": "12x8:1x"}, "--size"),
        ({"count": 0}, "--count"),
        ({"sizes": "3x3"}, "--size"),
        ({"sizes": "12x8", "layout": ("ooo",)}, "--layout"),
    ]:
        args: dict[str, object] = {"count": 2, "sizes": "12x8", "seed": 1, **kwargs}
        with pytest.raises(PlanError, match=option):
            plan_pack(**args)  # type: ignore[arg-type]


def test_same_bytes_for_any_worker_count_and_verified(tmp_path: Path) -> None:
    plan = small_plan()
    make_pack(plan, tmp_path / "one", workers=1)
    make_pack(plan, tmp_path / "two", workers=2)
    one, two = files_of(tmp_path / "one"), files_of(tmp_path / "two")
    assert one == two
    assert sorted(one) == ["001.json", "002.json", "003.json", "004.json", "manifest.json"]
    report = verify_pack(tmp_path / "one")
    assert report.problems == [] and report.levels == 4
    manifest = json.loads(one["manifest.json"])
    assert manifest["$schema"] == "urn:levelgen:schema:pack-manifest:v1"
    import jsonschema

    jsonschema.validate(manifest, manifest_json_schema())
    assert not partial_dir(tmp_path / "one").exists()


def test_interrupted_run_resumes_to_the_same_bytes(tmp_path: Path) -> None:
    plan = small_plan(count=5)
    make_pack(plan, tmp_path / "whole")
    target = tmp_path / "pack"

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(PackInterrupted) as info:
        make_pack(plan, target, on_level=stop_after_two)
    assert info.value.done == 2 and not target.exists()
    kept = sorted(p.name for p in partial_dir(target).iterdir())
    assert kept == ["001.json", "002.json", "plan.json"]
    with pytest.raises(PackError, match="--resume"):
        make_pack(plan, target)
    other = small_plan(count=5, seed=10)
    with pytest.raises(PackError, match="other parameters"):
        make_pack(other, target, resume=True)
    seen: list[int] = []
    make_pack(plan, target, resume=True, on_level=lambda d, t: seen.append(d))
    assert seen[0] == 2  # the two kept levels were not made again
    assert files_of(target) == files_of(tmp_path / "whole")
    with pytest.raises(PackError, match="already exists"):
        make_pack(plan, target)


def test_verify_finds_tampering(tmp_path: Path) -> None:
    good = tmp_path / "good"
    make_pack(small_plan(count=3), good)

    def copy(name: str) -> Path:
        folder = tmp_path / name
        shutil.copytree(good, folder)
        return folder

    changed = copy("changed")
    level = changed / "002.json"
    level.write_text(level.read_text().replace('"seed": ', '"seed":  '))
    assert [p.pointer for p in verify_pack(changed).problems] == ["/levels/1/sha256"]

    missing = copy("missing")
    (missing / "003.json").unlink()
    assert [p.pointer for p in verify_pack(missing).problems] == ["/levels/2/file"]

    swapped = copy("swapped")
    data = json.loads((swapped / "manifest.json").read_text())
    data["levels"][0], data["levels"][1] = data["levels"][1], data["levels"][0]
    (swapped / "manifest.json").write_text(json.dumps(data))
    pointers = {p.pointer for p in verify_pack(swapped).problems}
    assert {"/pack_id", "/levels/0/file", "/levels/1/file"} <= pointers

    bad_schema = copy("bad_schema")
    data = json.loads((bad_schema / "manifest.json").read_text())
    data["levels"][0]["sha256"] = "xyz"
    (bad_schema / "manifest.json").write_text(json.dumps(data))
    report = verify_pack(bad_schema)
    assert not report.readable and report.problems[0].pointer == "/levels/0/sha256"


def test_ramp_is_checked(tmp_path: Path) -> None:
    """A ramped pack is played in the order of its scores: levels out of that order are a
    problem; a level whose band is not the one its plan asked for is a note."""
    from levelgen.pack import pack_id

    folder = tmp_path / "pack"
    make_pack(small_plan(count=3, ramp="easy:hard"), folder)
    data = json.loads((folder / "manifest.json").read_text())
    scores = [entry["score"] for entry in data["levels"]]
    assert scores == sorted(scores) and scores[0] < scores[-1]
    data["parameters"]["ramp"] = "expert:expert"
    data["pack_id"] = pack_id(data)
    (folder / "manifest.json").write_text(json.dumps(data))
    report = verify_pack(folder)
    assert report.problems == [] and len(report.notes) == 3
    assert "asked for expert" in report.notes[0]
    swapped = tmp_path / "swapped"
    shutil.copytree(folder, swapped)
    data["levels"][0], data["levels"][2] = data["levels"][2], data["levels"][0]
    names = [data["levels"][i]["file"] for i in (0, 2)]
    for entry, name in zip([data["levels"][0], data["levels"][2]], names[::-1], strict=True):
        entry["file"] = name
    (swapped / "001.json").write_bytes((folder / "003.json").read_bytes())
    (swapped / "003.json").write_bytes((folder / "001.json").read_bytes())
    data["pack_id"] = pack_id(data)
    (swapped / "manifest.json").write_text(json.dumps(data))
    pointers = [p.pointer for p in verify_pack(swapped).problems]
    assert pointers == ["/levels/1/score", "/levels/2/score"]


def test_manifest_schema_is_checked_in() -> None:
    assert json.loads(SCHEMA_FILE.read_text()) == manifest_json_schema()


def test_cli_pack_and_verify(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    args = ["pack", "-o", str(out), "--count", "3", "--size", "6x4", "--seed", "4"]
    res = runner.invoke(app, [*args, "--ramp", "easy:medium", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0
    assert runner.invoke(app, ["verify", str(out / "manifest.json")]).exit_code == 0
    again = runner.invoke(app, [*args, "--workers", "1"])
    assert again.exit_code == 3 and "already exists" in again.output
    (out / "001.json").write_text("{}")
    res = runner.invoke(app, ["verify", str(out)])
    assert res.exit_code == 1 and "/levels/0/sha256" in res.output
    bad = runner.invoke(app, [*args[:-2], "--ramp", "hard:easy", "-o", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--ramp" in bad.output
    (out / "manifest.json").write_text("[")
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 3


def test_dask_local_cluster_gives_the_same_bytes(tmp_path: Path) -> None:
    pytest.importorskip(
        "distributed", reason="Dask distributed is not installed: pip install 'levelgen[dask]'"
    )
    from distributed import LocalCluster

    plan = small_plan(count=3)
    make_pack(plan, tmp_path / "local", workers=1)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        make_pack(plan, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert files_of(tmp_path / "dask") == files_of(tmp_path / "local")


def test_unreachable_scheduler_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed", reason="Dask distributed is not installed")
    import levelgen.pack

    monkeypatch.setattr(levelgen.pack.executors, "DASK_CONNECT_TIMEOUT", 1.0)
    with pytest.raises(PackError, match="Dask scheduler"):
        make_pack(small_plan(count=1), tmp_path / "p", scheduler="tcp://127.0.0.1:9")


def test_interrupting_the_pool_keeps_whole_levels_only(tmp_path: Path) -> None:
    plan = small_plan(count=6, sizes="8x6")
    make_pack(plan, tmp_path / "whole", workers=1)
    target = tmp_path / "pack"

    def stop(done: int, total: int) -> None:
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(PackInterrupted) as info:
        make_pack(plan, target, workers=2, on_level=stop)
    kept = sorted(p.name for p in partial_dir(target).iterdir() if p.name != "plan.json")
    assert len(kept) == info.value.done and not target.exists()
    whole = files_of(tmp_path / "whole")
    from levelgen.pack.plan import make_level_text

    # Whatever was kept is a whole, final level file, named by its place in the plan.
    planned = {file_name(job.index, 6): make_level_text(job).encode() for job in plan.jobs}
    assert set(planned.values()) == {v for k, v in whole.items() if k != "manifest.json"}
    for name in kept:
        assert (partial_dir(target) / name).read_bytes() == planned[name]
    make_pack(plan, target, workers=2, resume=True)
    assert files_of(target) == whole


def test_bench_pack_reports_same_bytes() -> None:
    res = runner.invoke(
        app, ["bench", "pack", "--count", "2", "--size", "6x4", "--workers", "1,2", "--json"]
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["machine_parallelism"] > 0
    rows = report["runs"]
    assert [r["run"] for r in rows] == ["1 workers", "2 workers"]
    assert all(r["same_bytes"] for r in rows)


def test_pack_slide_cycle(tmp_path: Path) -> None:
    """``--slide-cycle`` gives the sliding rules to the levels in turn; the manifest records
    it, the pack verifies, and classic manifests stay without the field."""
    from levelgen.pack import make_pack, verify_pack
    from levelgen.pack.plan import PlanError, plan_pack

    plan = plan_pack(count=3, sizes="6x4", seed=5, slide_cycle="down,none")
    assert [job.values["slide"] for job in plan.jobs] == ["down", "none", "down"]
    assert plan.parameters()["options"]["slide_cycle"] == "down,none"
    assert "slide_cycle" not in plan_pack(count=1, sizes="6x4", seed=5).parameters()["options"]
    out = tmp_path / "pack"
    make_pack(plan, out, workers=1)
    report = verify_pack(out)
    assert report.problems == [], report.problems
    first = json.loads((out / "001.json").read_text())
    manifest = json.loads((out / "manifest.json").read_text())
    assert all(entry["score"] is not None for entry in manifest["levels"])  # variants rated
    assert "difficulty" in first["metrics"]
    assert (
        first["rules"]["slide"] == "down"
        and "slide" not in json.loads((out / "002.json").read_text())["rules"]
    )
    for bad in ("down,sideways", ""):
        with pytest.raises(PlanError, match="--slide-cycle"):
            plan_pack(count=1, sizes="6x4", seed=5, slide_cycle=bad)
    with pytest.raises(PlanError, match="--slide-cycle"):
        plan_pack(count=1, sizes="6x4", seed=5, slide_cycle="up", difficulty="easy")


def test_manifest_schema_identifier_and_plurals(tmp_path: Path) -> None:
    """Only the documented ``$schema`` of a manifest is accepted; counts of one are singular."""
    good = tmp_path / "good"
    make_pack(small_plan(count=1), good)
    done = runner.invoke(app, ["verify", str(good)])
    assert done.exit_code == 0 and "pack of 1 level;" in done.output
    other = tmp_path / "other"
    shutil.copytree(good, other)
    data = json.loads((other / "manifest.json").read_text())
    data["$schema"] = "urn:zzz"
    (other / "manifest.json").write_text(json.dumps(data))
    report = verify_pack(other)
    assert not report.readable and report.problems[0].pointer == "/$schema"
    with pytest.raises(PlanError, match="1 tile cell;"):
        from levelgen.pack.plan import plan_pack

        plan_pack(count=1, sizes="3x1", seed=1, layout=("o..",))
