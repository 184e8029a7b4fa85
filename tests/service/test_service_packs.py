"""Pack jobs over HTTP: 202 and a job URL, progress, the manifest (the same as ``levelgen
pack`` writes), levels by number, the limits (pack size, jobs per client), a failed job, and
durability: a job whose process died is resumed by the next one, through the ASGI app and
through a real ``levelgen serve`` killed with SIGKILL in the middle of a pack."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from levelgen.library import Store
from levelgen.pack import make_pack
from levelgen.pack.plan import make_level_text
from levelgen.service import jobs
from levelgen.service.app import create_app
from levelgen.service.runner import manifest_of, plan_of
from levelgen.service.settings import Settings
from tests.service.test_service_process import start_server


def make_client(tmp: Path, **options: Any) -> TestClient:
    values: dict[str, Any] = {"db": f"sqlite:///{tmp / 'lib.db'}", "workers": 1, **options}
    return TestClient(create_app(Settings(**values)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("packs"), max_pack_levels=10) as c:
        yield c


def wait_done(get: Any, url: str, seconds: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        data: dict[str, Any] = get(url).json()
        if data["status"] in ("done", "failed"):
            return data
        time.sleep(0.05)
    raise AssertionError(f"the job did not end: {data}")


@pytest.mark.parametrize(
    "body",
    [
        {"count": 3, "size": "6x4:8x4", "seed": 5},
        {"count": 3, "size": "8x4", "seed": 2, "slide_cycle": "none,down,apart"},
        {"game": "sliding-puzzle", "count": 3, "size": "3x3", "ramp": "easy:hard", "seed": 4},
        {"game": "snakes-ladders", "count": 3, "size": "8x8", "snakes": 4, "seed": 1},
    ],
    ids=["classic", "slide-cycle", "sliding-ramp", "snakes"],
)
def test_pack_job_makes_the_same_pack_as_the_cli(
    client: TestClient, tmp_path: Path, body: dict[str, Any]
) -> None:
    started = client.post("/v1/packs", json=body)
    assert started.status_code == 202, started.text
    job = started.json()
    assert started.headers["location"] == job["url"] == f"/v1/packs/{job['id']}"
    assert job["status"] in ("queued", "running") and job["manifest"] is None
    done = wait_done(client.get, job["url"])
    assert done["status"] == "done" and done["done"] == 3
    plan = plan_of(done["request"])
    make_pack(plan, tmp_path / "pack", workers=1)
    on_disk = json.loads((tmp_path / "pack" / "manifest.json").read_text())
    assert done["manifest"] == on_disk and done["pack_id"] == on_disk["pack_id"]
    assert on_disk["game"] == body.get("game", "linkup")
    assert all(entry["size"] for entry in on_disk["levels"])
    for n, entry in enumerate(on_disk["levels"], 1):
        level = client.get(f"{job['url']}/levels/{n}")
        assert level.status_code == 200
        assert level.content == (tmp_path / "pack" / entry["file"]).read_bytes()
        assert hashlib.sha256(level.content).hexdigest() == entry["sha256"]
        stored = client.get(f"/v1/levels/{entry['id']}")  # also in the library
        assert stored.status_code == 200
    assert client.get(f"{job['url']}/levels/4").status_code == 404
    assert client.get(f"/v1/packs/{'0' * 32}").status_code == 404
    assert client.get("/v1/packs/nope").status_code == 422


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"count": 0}, "/count"),
        ({"count": 11}, "/count"),  # over this service's pack limit of 10
        ({"count": 2, "size": "big"}, "/size"),
        ({"count": 2, "size": "80x80"}, "/size"),
        ({"count": 2, "ramp": "hard:easy"}, "/ramp"),
        ({"count": 2, "difficulty": "impossible"}, "/difficulty"),
        ({"count": 2, "layout": ["oxo"]}, "/layout"),
        ({"count": 2, "max_turns": 9}, "/max_turns"),
        ({"count": 2, "seed": -4}, "/seed"),
        ({"count": 2, "colour": "red"}, "/colour"),
        ({"count": 2, "slide_cycle": "none,sideways"}, "/slide_cycle"),
        ({"count": 2, "slide_cycle": "down", "difficulty": "easy"}, "/slide_cycle"),
        ({"count": 2, "size": "6x4", "copies": 3}, "/copies"),
        ({"game": "sliding-puzzle", "count": 2, "moves": "many"}, "/moves"),
        ({"game": "snakes-ladders", "count": 2, "colour": "red"}, "/colour"),
        ({"game": "chess", "count": 2}, "/game"),
    ],
)
def test_bad_pack_requests(client: TestClient, body: dict[str, Any], pointer: str) -> None:
    response = client.post("/v1/packs", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["pointer"] == pointer


def test_a_level_that_cannot_be_made_fails_the_job(client: TestClient) -> None:
    body = {"count": 2, "layout": ["o#o"], "outside": False, "copies": 2, "seed": 1}
    job = client.post("/v1/packs", json=body).json()
    done = wait_done(client.get, job["url"])
    assert done["status"] == "failed" and "CreateError" in done["error"]
    assert done["manifest"] is None
    level = client.get(f"{job['url']}/levels/1")
    assert level.status_code == 404 and "failed" in level.json()["detail"]


def test_jobs_per_client_and_the_key(tmp_path: Path) -> None:
    with make_client(tmp_path, max_jobs_per_client=1, api_key="k") as c:
        c.portal.call(c.app.state.runner.stop)  # type: ignore[attr-defined]
        assert c.post("/v1/packs", json={"count": 1}).status_code == 401
        key = {"X-API-Key": "k"}
        first = c.post("/v1/packs", json={"count": 1, "size": "4x2"}, headers=key)
        assert first.status_code == 202
        second = c.post("/v1/packs", json={"count": 1, "size": "4x2"}, headers=key)
        assert second.status_code == 429 and second.headers["retry-after"]
        assert c.get(first.json()["url"]).json()["status"] == "queued"


def test_a_job_of_a_dead_process_is_resumed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    store = Store(url)
    request = {
        "count": 3,
        "sizes": "6x4",
        "seed": 9,
        "difficulty": None,
        "ramp": None,
        "max_turns": 2,
        "outside": True,
        "layout": None,
    }
    job_id = jobs.add_job(store, "someone", request, 3, 5)
    dead = f"{os.uname().nodename}:999999:dead"  # no such process: its lease is void
    assert jobs.claim_job(store, dead, 3600.0) is not None
    plan = plan_of(request)
    texts = {job.index: make_level_text(job) for job in plan.jobs}
    jobs.store_pack_level(store, job_id, 1, texts[1])  # one level made before it died
    store.close()
    with make_client(tmp_path) as c:
        done = wait_done(c.get, f"/v1/packs/{job_id}")
    assert done["status"] == "done" and done["manifest"] == manifest_of(plan, texts)


def test_kill_9_in_the_middle_of_a_pack(tmp_path: Path) -> None:
    # 40 levels: about 2 s of work after the second, so that the kill lands in the middle
    # even when this process waits long for the CPU (16 took 0.7-1 s and once all finished).
    count = 40
    process, base = start_server(tmp_path)
    body = {"count": count, "size": "8x6", "ramp": "easy:hard", "seed": 3}
    try:
        job = httpx.post(f"{base}/v1/packs", json=body, timeout=30).json()
        deadline = time.monotonic() + 60
        while httpx.get(f"{base}{job['url']}", timeout=30).json()["done"] < 2:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        # SIGKILL to the server and its pool's workers (as a service manager kills the whole
        # group): no shutdown at all, and no worker left behind by the test.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    halfway = Store(f"sqlite:///{tmp_path / 'lib.db'}")
    made = jobs.pack_level_texts(halfway, job["id"])
    halfway.close()
    assert 2 <= len(made) < count  # killed in the middle
    process, base = start_server(tmp_path)
    try:
        done = wait_done(lambda u: httpx.get(f"{base}{u}", timeout=30), job["url"])
        texts = {
            n: httpx.get(f"{base}{job['url']}/levels/{n}", timeout=30).content
            for n in range(1, count + 1)
        }
        verdicts = [
            httpx.post(
                f"{base}/v1/verify",
                content=texts[n],
                headers={"Content-Type": "application/json"},
                timeout=60,
            ).json()["exit_code"]
            for n in range(1, count + 1)
        ]
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert done["status"] == "done" and done["done"] == count
    for n, entry in enumerate(done["manifest"]["levels"], 1):
        assert hashlib.sha256(texts[n]).hexdigest() == entry["sha256"]
    assert verdicts == [0] * count
    # What was stored before the kill (by plan index) was whole and kept, at its place in
    # play order (a ramped pack: the order of the levels' scores).
    place = {entry["seed"]: n for n, entry in enumerate(done["manifest"]["levels"], 1)}
    planned = plan_of(done["request"]).jobs
    for index, text in made.items():
        assert texts[place[planned[index].seed]] == text.encode()


def test_sigterm_gives_the_job_back(tmp_path: Path) -> None:
    from levelgen.library import PackJobRow

    process, base = start_server(tmp_path)
    try:
        body = {"count": 16, "size": "8x6", "ramp": "easy:hard", "seed": 4}
        job = httpx.post(f"{base}/v1/packs", json=body, timeout=30).json()
        deadline = time.monotonic() + 60
        while httpx.get(f"{base}{job['url']}", timeout=30).json()["done"] < 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    store = Store(f"sqlite:///{tmp_path / 'lib.db'}")
    with store.session() as session:
        row = session.get(PackJobRow, job["id"])
        assert row is not None
        state = (row.status, row.owner, row.lease_until, row.done)
    made = jobs.pack_level_texts(store, job["id"])
    store.close()
    assert state[0] in ("queued", "done")
    if state[0] == "queued":  # stopped in the middle: given back, queued for the next start
        assert state[1] is None and state[2] is None and state[3] == len(made) < 16
