"""``POST /v1/fix`` and ``POST /v1/fill`` through the ASGI app: the editor's shapes, levels that
verify, RFC 9457 problems with pointers for bodies that cannot be used, documented in OpenAPI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.test_service import make_client, problem

ROOT = Path(__file__).resolve().parents[2]

#: What the editor sends: no solution, id or generator.
STUCK: dict[str, Any] = {
    "$schema": "urn:levelgen:schema:level:v1",
    "game": "linkup",
    "format_version": 1,
    "rules": {"max_turns": 0, "outside": False},
    "board": {"width": 2, "height": 2, "rows": [[1, 2], [2, 1]]},
}
PART: dict[str, Any] = {
    **STUCK,
    "rules": {"max_turns": 2, "outside": True},
    "board": {"width": 3, "height": 2, "rows": [[1, 0, 0], [0, 0, 1]]},
}
SLOTS = [[1, 0], [2, 0], [0, 1], [1, 1]]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("design")) as c:
        yield c


def _verifies(client: TestClient, level: dict[str, Any]) -> None:
    verdict = client.post("/v1/verify", json=level).json()
    assert verdict["files"][0]["status"] == "ok", verdict


def test_fix_of_a_bare_level(client: TestClient) -> None:
    response = client.post("/v1/fix", json=STUCK)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["status"] == "fixed" and answer["count"] == 1 == len(answer["swaps"])
    assert answer["fewer_ruled_out"] is True and answer["problems"] == []
    assert isinstance(answer["message"], str) and "\n" not in answer["message"]
    (a, b) = answer["swaps"][0]
    rows = [list(r) for r in STUCK["board"]["rows"]]
    rows[a[1]][a[0]], rows[b[1]][b[0]] = rows[b[1]][b[0]], rows[a[1]][a[0]]
    assert answer["level"]["board"]["rows"] == rows  # the swaps, applied in order
    _verifies(client, answer["level"])


def test_fix_envelope_and_its_answers(client: TestClient) -> None:
    body = {"level": STUCK, "time_limit": 2, "max_swaps": 0}
    answer = client.post("/v1/fix", json=body).json()
    assert answer["status"] == "not-found" and answer["level"] is None and answer["swaps"] == []
    solvable = {**STUCK, "board": {"width": 2, "height": 2, "rows": [[1, 2], [1, 2]]}}
    answer = client.post("/v1/fix", json={"level": solvable}).json()
    assert answer["status"] == "solvable" and answer["count"] == 0
    _verifies(client, answer["level"])
    odd = {**STUCK, "board": {"width": 2, "height": 2, "rows": [[1, 2], [2, 2]]}}
    answer = client.post("/v1/fix", json=odd).json()
    assert answer["status"] == "invalid" and answer["level"] is None and answer["problems"]
    assert all({"pointer", "reason"} == set(p) for p in answer["problems"])


def test_fix_refusals_are_problems(client: TestClient) -> None:
    problem(client.post("/v1/fix", json={"level": STUCK, "max_swaps": 99}), 422, "/max_swaps")
    problem(client.post("/v1/fix", json={"level": STUCK, "max_swaps": "2"}), 422, "/max_swaps")
    problem(client.post("/v1/fix", json={"level": STUCK, "max_swaps": None}), 422, "/max_swaps")
    problem(client.post("/v1/fix", json={"level": STUCK, "seed": 1}), 422, "/seed")
    problem(client.post("/v1/fix", content=b"{"), 400)
    sliding = (ROOT / "levels" / "sliding_3x3_numbered.json").read_bytes()
    problem(client.post("/v1/fix", content=sliding), 422, "/game")
    bad = {**STUCK, "board": {"width": 2, "height": 2, "rows": [[1, 2], [2]]}}
    assert client.post("/v1/fix", json=bad).status_code == 422


def test_fill_answers_a_level_that_verifies(client: TestClient) -> None:
    body = {"level": PART, "slots": SLOTS, "kinds": None, "seed": 0, "time_limit": 5}
    response = client.post("/v1/fill", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["status"] == "filled" and answer["seed"] == 0
    assert [p["at"] for p in answer["placed"]] == SLOTS
    rows = answer["level"]["board"]["rows"]
    assert all(rows[y][x] == p["kind"] for p in answer["placed"] for x, y in [p["at"]])
    assert rows[0][0] == 1 == rows[1][2]
    _verifies(client, answer["level"])
    assert client.post("/v1/fill", json=body).json() == answer  # same seed, same fill


def test_fill_refusals_are_problems(client: TestClient) -> None:
    doc = problem(client.post("/v1/fill", json={"level": PART, "slots": SLOTS[:3]}), 422, "/slots")
    assert "even" in doc["detail"]
    problem(
        client.post("/v1/fill", json={"level": PART, "slots": [[0, 0], [1, 0]]}), 422, "/slots/0"
    )
    problem(client.post("/v1/fill", json={"level": PART, "slots": [[1, 0], "x"]}), 422, "/slots/1")
    problem(client.post("/v1/fill", json={"level": PART}), 422, "/slots")
    problem(client.post("/v1/fill", json=PART), 422, "/slots")
    problem(
        client.post("/v1/fill", json={"level": PART, "slots": SLOTS, "kinds": 0}), 422, "/kinds"
    )
    problem(
        client.post("/v1/fill", json={"level": PART, "slots": SLOTS, "colour": 1}), 422, "/colour"
    )
    ladders = (ROOT / "levels" / "ladders_medium_10x10.json").read_text()
    body = '{"level": ' + ladders + ', "slots": [[0, 0]]}'
    problem(client.post("/v1/fill", content=body.encode()), 422, "/game")


def test_openapi_documents_both(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/v1/fix", "/v1/fill"):
        operation = spec["paths"][path]["post"]
        assert "200" in operation["responses"] and "422" in operation["responses"]
    schemas = spec["components"]["schemas"]
    assert {"FixEnvelope", "FillEnvelope", "FixAnswer", "FillAnswer"} <= set(schemas)
    assert set(schemas["FillEnvelope"]["required"]) == {"level", "slots"}


def test_fill_completes_an_odd_kind_of_a_level_drawn_in_part(client: TestClient) -> None:
    part = {**PART, "board": {"width": 3, "height": 2, "rows": [[1, 0, 0], [0, 0, 0]]}}
    slots = [[1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]
    answer = client.post("/v1/fill", json={"level": part, "slots": slots, "seed": 2}).json()
    assert answer["status"] == "filled", answer
    assert sorted(p["kind"] for p in answer["placed"]).count(1) % 2 == 1  # kind 1 made even
    _verifies(client, answer["level"])
