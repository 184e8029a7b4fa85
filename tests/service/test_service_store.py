"""The level library on SQLite (always) and on a real PostgreSQL server (when ``pg_ctl`` is
installed): idempotent storage by content id, filters, keyset pages, concurrent writers, and
the service itself on PostgreSQL.  The PostgreSQL cluster is a throwaway one for the session
(``postgres_url`` in ``conftest.py``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from levelgen.library import LevelFilter, Store
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.schema import LevelFile
from tests import ROOT


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'lib.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    s = Store(url)
    if request.param == "postgresql":  # one cluster for the session: start each test empty
        from levelgen.library import Base

        Base.metadata.drop_all(s.engine)
        Base.metadata.create_all(s.engine)
    try:
        yield s
    finally:
        s.close()


def level_data(size: str, seed: int, *, max_turns: int = 2, outside: bool = True) -> dict[str, Any]:
    width, height = (int(v) for v in size.split("x"))
    level = generate(Size(width, height), seed=seed, rules=Rules(max_turns, outside))
    return LevelFile.from_core(level).to_data()


def test_sqlite_uses_wal(tmp_path: Path) -> None:
    s = Store(f"sqlite:///{tmp_path / 'wal.db'}")
    with s.engine.connect() as connection:
        from sqlalchemy import text

        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    s.close()


def test_store_is_idempotent_by_content_id(store: Store) -> None:
    data = level_data("6x4", 1)
    summary, created = store.put_level(data)
    assert created and summary["id"] == data["id"] and summary["seed"] == 1
    again, created_again = store.put_level(data)
    assert not created_again and again == summary
    assert store.get_level(data["id"]) == data
    assert store.get_level("sha256:" + "0" * 64) is None


def test_filters_and_keyset_pages(store: Store) -> None:
    ids = {store.put_level(level_data("6x4", s))[0]["id"] for s in range(4)}
    store.put_level(level_data("6x4", 0, max_turns=1))
    store.put_level(level_data("4x4", 0, outside=False))
    hard = level_data("4x2", 0)
    hard["metrics"]["difficulty"] = {"score": 80.0, "band": "hard", "measures": {}}
    hard_id = store.put_level(hard)[0]["id"]
    found = store.list_levels(LevelFilter(size="6x4", max_turns=2))
    assert {item["id"] for item in found} == ids
    pages: list[str] = []
    after = None
    while True:
        page = store.list_levels(LevelFilter(size="6x4", max_turns=2), after=after, limit=3)
        pages += [item["id"] for item in page]
        if len(page) < 3:
            break
        after = page[-1]["id"]
    assert pages == sorted(ids)
    assert [i["id"] for i in store.list_levels(LevelFilter(outside=False))] != []
    banded = store.list_levels(LevelFilter(band="hard"))
    assert [i["id"] for i in banded] == [hard_id]
    assert banded[0]["difficulty"] == {"score": 80.0, "band": "hard"}
    assert len(store.list_levels(LevelFilter())) == 7


def test_concurrent_writers_store_one_row(store: Store) -> None:
    data = level_data("6x4", 9)
    results: list[bool] = []
    other = Store(store.url)

    def put(s: Store) -> None:
        results.append(s.put_level(data)[1])

    threads = [threading.Thread(target=put, args=(s,)) for s in (store, other) * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert sorted(results) == [False] * 5 + [True]
    assert len(store.list_levels(LevelFilter(size="6x4"))) == 1


def test_the_service_on_postgresql(postgres_url: str) -> None:
    from fastapi.testclient import TestClient

    from levelgen.service.app import create_app
    from levelgen.service.settings import Settings

    app = create_app(Settings(db=postgres_url, workers=1))
    with TestClient(app) as client:
        assert client.get("/readyz").status_code == 200
        level = client.post("/v1/levels", json={"size": "6x4", "seed": 77}).json()
        assert client.get(f"/v1/levels/{level['id']}").json() == level
        items = client.get("/v1/levels", params={"size": "6x4"}).json()["items"]
        assert level["id"] in [item["id"] for item in items]


def test_pack_levels_are_stored_with_their_library_rows(store: Store) -> None:
    from levelgen.pack.plan import make_level_text
    from levelgen.service import jobs
    from levelgen.service.runner import plan_of

    request = {
        "count": 2,
        "sizes": "6x4",
        "seed": 2,
        "difficulty": None,
        "ramp": None,
        "max_turns": 2,
        "outside": True,
        "layout": None,
    }
    plan = plan_of(request)
    texts = [make_level_text(job) for job in plan.jobs]
    store.put_level(json.loads(texts[0]))  # already in the library (made by a create)
    job_id = jobs.add_job(store, "c", request, 2, 5)
    with pytest.raises(jobs.TooManyJobs):
        jobs.add_job(store, "c", request, 2, 1)
    claimed = jobs.claim_job(store, "me", 60.0)
    assert claimed == (job_id, request)
    assert jobs.claim_job(store, "other", 60.0) is None  # held: nobody else takes it
    for index, text in enumerate(texts):
        jobs.store_pack_level(store, job_id, index, text)
        jobs.store_pack_level(store, job_id, index, text)  # twice: harmless
    job = jobs.get_job(store, job_id)
    assert job is not None and job["done"] == 2 and job["status"] == "running"
    assert jobs.pack_level_texts(store, job_id) == dict(enumerate(texts))
    for text in texts:
        assert store.get_level(json.loads(text)["id"]) == json.loads(text)
    jobs.release_job(store, job_id, "me")
    assert jobs.claim_job(store, "other", 60.0) == (job_id, request)


LEVELS = ROOT / "levels"


def _variant_files() -> tuple[dict[str, Any], dict[str, Any]]:
    slide = json.loads((LEVELS / "slide_down_12x8.json").read_text())
    stacked = json.loads((LEVELS / "layers_turtle_12x8.json").read_text())
    return slide, stacked


def _all_tiles(data: dict[str, Any]) -> int:
    from levelgen.linkup.core.layers import layered_tile_count
    from levelgen.linkup.schema import parse_level_data

    return layered_tile_count(parse_level_data(data).to_core().board)


def test_variant_levels_are_listed_with_their_rule_and_layers(store: Store) -> None:
    """A sliding level lists its rule, a stacked one its layers and the tiles of every layer;
    both filter."""
    slide, stacked = _variant_files()
    flat = level_data("6x4", 1)
    for data in (slide, stacked, flat):
        store.put_level(data)
    (found,) = store.list_levels(LevelFilter(slide="down"))
    assert found["id"] == slide["id"] and found["rules"] == slide["rules"]  # slide given
    assert found["layers"] == 1
    (found,) = store.list_levels(LevelFilter(layers=len(stacked["board"]["layers"]) + 1))
    assert found["id"] == stacked["id"] and found["tiles"] == _all_tiles(stacked)
    assert found["rules"] == {**stacked["rules"], "slide": "none"}
    classic = store.list_levels(LevelFilter(slide="none", layers=1))
    assert [item["id"] for item in classic] == [flat["id"]]


OLD_LEVELS_TABLE = """CREATE TABLE levels (
    id VARCHAR(71) PRIMARY KEY, size VARCHAR(8) NOT NULL, width INTEGER NOT NULL,
    height INTEGER NOT NULL, max_turns INTEGER NOT NULL, outside BOOLEAN NOT NULL,
    tiles INTEGER NOT NULL, kinds INTEGER NOT NULL, seed BIGINT, band VARCHAR(16),
    score FLOAT, solved BOOLEAN NOT NULL, data TEXT NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL)"""


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_library_of_0_2_0_is_upgraded(
    request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    """A ``levels`` table written by levelgen 0.2.0 (no slide or layers columns; a stacked
    level's tiles counted on the bottom layer) gets the columns, filled from each file."""
    from datetime import UTC, datetime

    from sqlalchemy import create_engine, text

    from levelgen.library import Base, engine_for

    url = f"sqlite:///{tmp_path / 'old.db'}"
    if backend == "postgresql":
        url = request.getfixturevalue("postgres_url")
        Base.metadata.drop_all(engine_for(url))
    old = engine_for(url) if backend == "postgresql" else create_engine(url)
    slide, stacked = _variant_files()
    with old.begin() as connection:
        connection.execute(text(OLD_LEVELS_TABLE))
        for data in (slide, stacked):
            bottom = sum(v > 0 for row in data["board"]["rows"] for v in row)
            connection.execute(
                text(
                    "INSERT INTO levels VALUES (:id, '12x8', 12, 8, 2, TRUE, :tiles, 1, NULL,"
                    " NULL, NULL, TRUE, :data, :now)"
                ),
                {
                    "id": data["id"],
                    "tiles": bottom,
                    "data": json.dumps(data),
                    "now": datetime.now(UTC),
                },
            )
    old.dispose()
    s = Store(url)
    try:
        (found,) = s.list_levels(LevelFilter(slide="down"))
        assert found["rules"]["slide"] == "down" and found["layers"] == 1
        (found,) = s.list_levels(LevelFilter(layers=len(stacked["board"]["layers"]) + 1))
        assert found["tiles"] == _all_tiles(stacked)
        assert found["kinds"] == len(
            {
                v
                for g in (stacked["board"]["rows"], *stacked["board"]["layers"])
                for r in g
                for v in r
                if v > 0
            }
        )
        Store(url).close()  # a current table is left as it is
    finally:
        if backend == "postgresql":
            Base.metadata.drop_all(s.engine)
        s.close()
