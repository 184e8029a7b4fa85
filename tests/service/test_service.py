"""The HTTP service through httpx against the ASGI app (starlette's TestClient): every
endpoint, the problem documents, the limits (413, 422 with the pointer, 503, 429, 401), the
request ids and the access log.  One app (one worker process) serves the whole module."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from levelgen.service.app import create_app
from levelgen.service.settings import Settings
from levelgen.service.tasks import DocumentOptions, Limits, read_document
from tests import ROOT

KEY = "s3cret-key"
HAND_MADE: dict[str, Any] = {
    "game": "linkup",
    "format_version": 1,
    "rules": {"max_turns": 2, "outside": True},
    "board": {"width": 4, "height": 2, "rows": [[1, 2, 2, 1], [3, 0, 0, 3]]},
}
STUCK: dict[str, Any] = {
    "game": "linkup",
    "format_version": 1,
    "rules": {"max_turns": 2, "outside": False},
    "board": {"width": 2, "height": 2, "rows": [[1, 2], [2, 1]]},
}


def make_client(tmp: Path, **options: Any) -> TestClient:
    values: dict[str, Any] = {
        "db": f"sqlite:///{tmp / 'library.db'}",
        "workers": 1,
        "max_time_limit": 30.0,  # also the time limit of creates (here under load)
        "default_time_limit": 2.0,
        **options,
    }
    # Bodies are JSON (a write of another type is refused with 415, see test_service_requests).
    return TestClient(create_app(Settings(**values)), headers={"content-type": "application/json"})


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("svc"), api_key=KEY, max_side=32) as c:
        yield c


AUTH = {"Authorization": f"Bearer {KEY}"}


def problem(response: Any, status: int, pointer: str | None = None) -> dict[str, Any]:
    """The problem document of ``response``, checked to be one of ``status``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    doc: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "pointer"} <= set(doc)
    assert doc["status"] == status
    assert doc["type"].startswith("urn:levelgen:problem:")
    if pointer is not None:
        assert doc["pointer"] == pointer, doc
    return doc


# ----- levels ----------------------------------------------------------------------------------


def test_create_stores_once_and_reads_back(client: TestClient) -> None:
    first = client.post("/v1/levels", json={"size": "6x4", "seed": 11}, headers=AUTH)
    assert first.status_code == 201, first.text
    level = first.json()
    assert level["board"]["width"] == 6 and level["generator"]["seed"] == 11
    assert first.headers["location"] == f"/v1/levels/{level['id']}"
    again = client.post("/v1/levels", json={"size": "6x4", "seed": 11}, headers=AUTH)
    assert again.status_code == 200 and again.json() == level
    fetched = client.get(f"/v1/levels/{level['id']}")
    assert fetched.status_code == 200 and fetched.json() == level
    verdict = client.post("/v1/verify", json=level).json()
    assert verdict["files"][0]["status"] == "ok" and verdict["exit_code"] == 0


def test_create_is_deterministic_like_the_cli(client: TestClient, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from levelgen.cli import app

    out = tmp_path / "cli.json"
    result = CliRunner().invoke(app, ["create", "--size", "8x4", "--seed", "5", "-o", str(out)])
    assert result.exit_code == 0, result.output
    body = {"size": "8x4", "seed": 5}
    served = client.post("/v1/levels", json=body, headers=AUTH).json()
    assert served == json.loads(out.read_text())


@pytest.mark.parametrize(
    ("body", "args"),
    [
        ({"size": "8x4", "seed": 5, "slide": "down"}, ["--slide", "down"]),
        ({"size": "10x7", "seed": 2, "layers": 3}, ["--layers", "3"]),
        (
            {"layout": ["oooo", "oooo", "", "oo..", "oo.."], "seed": 4, "copies": 2},
            ["--layout", "LAYOUT", "--copies", "2"],
        ),
    ],
    ids=["slide", "pyramid", "layers-layout"],
)
def test_create_variants_like_the_cli(
    client: TestClient, tmp_path: Path, body: dict[str, Any], args: list[str]
) -> None:
    """The variants' create options (slide, layers, a layered layout) give over HTTP the bytes
    the command line writes: both edges go through one spec check and one generator."""
    from typer.testing import CliRunner

    from levelgen.cli import app

    layout = tmp_path / "layout.txt"
    layout.write_text("".join(line + "\n" for line in body.get("layout", [])))
    out = tmp_path / "cli.json"
    size = ["--size", body["size"]] if "size" in body else []
    argv = ["create", *size, "--seed", str(body["seed"]), "-o", str(out)]
    argv += [str(layout) if a == "LAYOUT" else a for a in args]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    served = client.post("/v1/levels", json=body, headers=AUTH)
    assert served.status_code in (200, 201), served.text
    assert served.content == out.read_bytes()  # the canonical bytes, as the CLI writes them
    level = served.json()
    layers = 1 + len(level["board"].get("layers", []))
    params = {"slide": level["rules"].get("slide", "none"), "layers": layers}
    listed = client.get("/v1/levels", params=params).json()["items"]
    assert level["id"] in [item["id"] for item in listed]
    rules = {"slide": "none", **level["rules"]}
    assert all(item["rules"] == rules for item in listed if item["id"] == level["id"])


def test_create_with_layout_and_options(client: TestClient) -> None:
    body = {"layout": ["oooo", "o##o", "oooo"], "seed": 3, "copies": 2, "max_turns": 1}
    level = client.post("/v1/levels", json=body, headers=AUTH).json()
    assert level["board"]["rows"][1][1:3] == [-1, -1]
    assert level["rules"] == {"max_turns": 1, "outside": True}


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"size": "7x3", "seed": 1}, "/size"),
        ({"size": "40x40", "seed": 1}, "/size"),  # over this service's max_side 32
        ({"size": "6x4", "max_turns": 9}, "/max_turns"),
        ({"size": "6x4", "copies": 3}, "/copies"),
        ({"size": "6x4", "kinds": 0}, "/kinds"),
        ({"size": "6x4", "seed": -1}, "/seed"),
        ({"size": "6x4", "bogus": 1}, "/bogus"),
        ({"size": "6x4", "outside": "maybe"}, "/outside"),
        ({"layout": ["oxo"]}, "/layout"),
        ({}, "/size"),
        ({"size": "6x4", "difficulty": "impossible"}, "/difficulty"),
        ({"size": "6x4", "difficulty": "easy", "kinds": 3}, "/kinds"),
        ({"size": "6x4", "slide": "sideways"}, "/slide"),
        ({"size": "6x4", "layers": 9}, "/layers"),
        ({"size": "6x4", "layers": 2, "slide": "down"}, "/slide"),
        ({"size": "6x4", "slide": "down", "difficulty": "easy"}, "/difficulty"),
        ({"layout": ["oo", "", "oo"], "layers": 3}, "/layers"),
        ({"layout": ["..", "", "oo"]}, "/layout"),
    ],
)
def test_create_refusals_name_the_option(
    client: TestClient, body: dict[str, Any], pointer: str
) -> None:
    doc = problem(client.post("/v1/levels", json=body, headers=AUTH), 422, pointer)
    assert doc["detail"].startswith(pointer)


def test_create_with_difficulty_and_filter_by_band(client: TestClient) -> None:
    body = {"size": "8x6", "seed": 4, "difficulty": "easy"}
    level = client.post("/v1/levels", json=body, headers=AUTH).json()
    band = level["metrics"]["difficulty"]["band"]
    found = client.get("/v1/levels", params={"band": band, "size": "8x6"}).json()["items"]
    assert level["id"] in [item["id"] for item in found]
    assert all(item["difficulty"]["band"] == band for item in found)


def test_writes_need_the_key_reads_do_not(client: TestClient) -> None:
    doc = problem(client.post("/v1/levels", json={"size": "4x2"}), 401)
    assert "API key" in doc["detail"]
    wrong = client.post("/v1/levels", json={"size": "4x2"}, headers={"X-API-Key": "nope"})
    problem(wrong, 401)
    ok = client.post("/v1/levels", json={"size": "4x2", "seed": 1}, headers={"X-API-Key": KEY})
    assert ok.status_code in (200, 201)
    assert client.get("/v1/levels").status_code == 200
    assert client.post("/v1/verify", json=HAND_MADE).status_code == 200


def test_list_filters_and_pages(client: TestClient) -> None:
    for seed in range(5):
        body = {"size": "4x4", "seed": seed, "max_turns": 2}
        assert client.post("/v1/levels", json=body, headers=AUTH).status_code in (200, 201)
    body = {"size": "4x4", "seed": 0, "outside": False}
    client.post("/v1/levels", json=body, headers=AUTH)
    page = client.get("/v1/levels", params={"size": "4x4", "outside": True}).json()
    ids = [item["id"] for item in page["items"]]
    assert len(ids) == 5 and ids == sorted(ids) and page["next"] is None
    assert all(item["size"] == "4x4" and item["rules"]["outside"] for item in page["items"])
    seen: list[str] = []
    url: str | None = "/v1/levels?size=4x4&outside=true&limit=2"
    while url is not None:
        data = client.get(url).json()
        seen += [item["id"] for item in data["items"]]
        url = data["next"]
    assert seen == ids
    none = client.get("/v1/levels", params={"size": "4x4", "band": "hard"}).json()
    assert none == {"items": [], "next": None}
    problem(client.get("/v1/levels", params={"size": "big"}), 422)
    problem(client.get("/v1/levels", params={"limit": 0}), 422)


def test_level_picture_as_svg(client: TestClient) -> None:
    from levelgen.linkup.draw.svg import render_svg
    from levelgen.linkup.schema import parse_level_data

    level = client.post("/v1/levels", json={"size": "6x4", "seed": 31}, headers=AUTH).json()
    response = client.get(f"/v1/levels/{level['id']}.svg", params={"cell_size": 20})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    core = parse_level_data(level).to_core()
    assert response.text == render_svg(core.board, core.rules, cell_size=20)
    assert response.text.count('class="tile"') == 24
    problem(client.get(f"/v1/levels/sha256:{'1' * 64}.svg"), 404)
    problem(client.get(f"/v1/levels/{level['id']}.svg", params={"cell_size": 2}), 422)


def test_player_page_calls_this_service(client: TestClient) -> None:
    level = client.post("/v1/levels", json={"size": "6x4", "seed": 32}, headers=AUTH).json()
    page = client.get(f"/play/{level['id']}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '"apiBase":""' in page.text and level["id"] in page.text
    assert 'id="hint"' in page.text and "connect-src 'self'" in page.text
    problem(client.get(f"/play/sha256:{'2' * 64}"), 404)


@pytest.mark.parametrize(
    "name", ["slide_down_12x8.json", "layers_turtle_12x8.json"], ids=["slide", "layers"]
)
def test_player_page_of_a_variant_level(client: TestClient, name: str) -> None:
    """A stored sliding or layered level is served as a player page (it was refused with a
    422); the position such a page sends (rule and layers as in the level file) is accepted
    by ``/v1/hint`` and ``/v1/shuffle``."""
    from levelgen.linkup.core.variant_state import state_of
    from levelgen.linkup.files import read_level
    from levelgen.linkup.schema.position import position_to_data

    path = ROOT / "levels" / name
    data = json.loads(path.read_text(encoding="utf-8"))
    client.app.state.store.put_level(data)  # type: ignore[attr-defined]
    page = client.get(f"/play/{data['id']}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "LinkupSlide" in page.text and 'id="hint"' in page.text
    level = read_level(path).to_core()
    assert level.solution is not None
    state = state_of(level.board, level.rules)
    for move in level.solution[:2]:
        state.remove_pair(move.a, move.b)
    position = position_to_data(state.to_board(), level.rules)
    assert ("slide" in position["rules"]) != ("layers" in position["board"])
    hint = client.post("/v1/hint", json=position)
    assert hint.status_code == 200 and hint.json()["status"] == "hint", hint.text
    shuffled = client.post("/v1/shuffle", json=position)
    assert shuffled.status_code == 200 and shuffled.json()["status"] == "shuffled", shuffled.text


def test_missing_and_malformed_ids(client: TestClient) -> None:
    problem(client.get("/v1/levels/sha256:" + "0" * 64), 404)
    problem(client.get("/v1/levels/nope"), 422)
    problem(client.get("/v1/nothing"), 404)
    problem(client.delete("/v1/levels"), 405)


# ----- verify and solve -----------------------------------------------------------------------


def test_verify_answers_as_the_cli_json(client: TestClient, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from levelgen.cli import app

    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND_MADE))
    cli = CliRunner().invoke(app, ["verify", "--json", str(path)])
    expected = json.loads(cli.stdout)
    expected["files"][0]["file"] = "request"
    assert client.post("/v1/verify", json=HAND_MADE).json() == expected
    envelope = {"level": HAND_MADE, "method": "search", "time_limit": 1}
    assert client.post("/v1/verify", json=envelope).json() == expected


def test_unsolvable_is_a_verdict_not_an_error(client: TestClient) -> None:
    verify = client.post("/v1/verify", json=STUCK)
    assert verify.status_code == 200
    verdict = verify.json()["files"][0]
    assert verdict["status"] == "unsolvable" and verdict["deadlock"]
    solve = client.post("/v1/solve", json=STUCK)
    assert solve.status_code == 200
    assert solve.json()["status"] == "unsolvable" and solve.json()["level"] is None


def test_solve_returns_a_level_that_verifies(client: TestClient) -> None:
    answer = client.post("/v1/solve", json={"level": HAND_MADE, "time_limit": 2}).json()
    assert answer["status"] == "solved" and answer["exit_code"] == 0
    assert len(answer["level"]["solution"]) == 3
    verdict = client.post("/v1/verify", json=answer["level"]).json()
    assert verdict["files"][0]["status"] == "ok"


def test_a_wrong_solution_is_an_invalid_verdict(client: TestClient) -> None:
    level = client.post("/v1/levels", json={"size": "6x4", "seed": 2}, headers=AUTH).json()
    level["solution"][0]["path"] = [level["solution"][0]["a"], level["solution"][0]["a"]]
    verdict = client.post("/v1/verify", json=level).json()["files"][0]
    assert verdict["status"] == "invalid"
    assert verdict["problems"][0]["pointer"].startswith("/solution/0")


@pytest.mark.parametrize(
    ("body", "status", "pointer"),
    [
        (b"", 400, ""),
        (b"{nope", 400, ""),
        (b'{"game": "linkup", "game": "linkup"}', 422, "/game"),
        (b'{"level": {"game": 1}, "time_limit": NaN}', 422, "/time_limit"),
        (json.dumps({"level": HAND_MADE, "time_limit": -1}).encode(), 422, "/time_limit"),
        (json.dumps({"level": HAND_MADE, "method": "magic"}).encode(), 422, "/method"),
        (json.dumps({"level": HAND_MADE, "extra": 1}).encode(), 422, "/extra"),
        (
            json.dumps({**HAND_MADE, "rules": {"max_turns": 9, "outside": True}}).encode(),
            422,
            "/rules/max_turns",
        ),
        (
            json.dumps(
                {"level": {**HAND_MADE, "board": {"width": 4, "height": 2, "rows": [[1, 2, 2, 1]]}}}
            ).encode(),
            422,
            "/level/board/rows",
        ),
    ],
)
def test_bad_bodies_are_problems_with_pointers(
    client: TestClient, body: bytes, status: int, pointer: str
) -> None:
    for path in ("/v1/verify", "/v1/solve"):
        problem(client.post(path, content=body), status, pointer)


def test_board_larger_than_the_service_allows(client: TestClient) -> None:
    rows = [[1] * 33 for _ in range(2)]
    big = {**HAND_MADE, "board": {"width": 33, "height": 2, "rows": rows}}
    doc = problem(client.post("/v1/verify", json=big), 422, "/board/width")
    assert "32" in doc["detail"]


def test_running_out_of_time_is_an_undecided_verdict(client: TestClient) -> None:
    level = client.post("/v1/levels", json={"size": "24x14", "seed": 1}, headers=AUTH).json()
    for key in ("solution", "metrics", "id"):
        del level[key]
    body = {"level": level, "time_limit": 0.0001, "method": "search"}
    verdict = client.post("/v1/verify", json=body)
    assert verdict.status_code == 200
    assert verdict.json()["files"][0]["status"] == "undecided"
    assert verdict.json()["exit_code"] == 4
    solved = client.post("/v1/solve", json=body).json()
    assert solved["status"] == "undecided" and solved["level"] is None


def test_time_limit_is_capped_by_the_server() -> None:
    limits = Limits(64, 2.0, 5.0)
    body = json.dumps({"level": HAND_MADE, "time_limit": 1000}).encode()
    read = read_document(body, limits)
    assert isinstance(read, tuple) and read[2] == DocumentOptions(5.0)
    bare = read_document(json.dumps(HAND_MADE).encode(), limits)
    assert isinstance(bare, tuple) and bare[2] == DocumentOptions(2.0)
    position = json.dumps({"position": HAND_MADE, "time_limit": 9, "method": "search"}).encode()
    read = read_document(position, limits, "position")
    assert isinstance(read, tuple) and read[2] == DocumentOptions(5.0, None, {"method": "search"})


# ----- hint and shuffle -------------------------------------------------------------------------


BAD_PLAY = {  # kinds 1 and 2: not a move
    "game": "linkup",
    "format_version": 1,
    "level": HAND_MADE,
    "played": [{"a": [0, 0], "b": [1, 0]}],
}


def position_of(level: dict[str, Any], played: int) -> dict[str, Any]:
    """A position file: ``level`` with the first ``played`` steps of its solution made."""
    steps = [{"a": s["a"], "b": s["b"]} for s in level["solution"][:played]]
    return {
        "$schema": "urn:levelgen:schema:position:v1",
        "game": "linkup",
        "format_version": 1,
        "level": level,
        "played": steps,
    }


def test_hint_answers_as_the_cli_json(client: TestClient, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from levelgen.cli import app

    level = client.post("/v1/levels", json={"size": "6x4", "seed": 21}, headers=AUTH).json()
    position = position_of(level, 3)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    cli = CliRunner().invoke(app, ["hint", "--json", str(path)])
    expected = json.loads(cli.stdout)
    answer = client.post("/v1/hint", json=position)
    assert answer.status_code == 200 and answer.json() == expected
    assert expected["status"] == "hint" and expected["proved"]
    enveloped = client.post("/v1/hint", json={"position": position, "time_limit": 3})
    assert enveloped.json() == expected
    won = client.post("/v1/hint", json=position_of(level, len(level["solution"]))).json()
    assert won["status"] == "won"
    lost = client.post("/v1/hint", json=STUCK).json()
    assert lost["status"] == "lost" and lost["move"] is None


def test_shuffle_gives_a_level_that_verifies(client: TestClient) -> None:
    level = client.post("/v1/levels", json={"size": "6x4", "seed": 22}, headers=AUTH).json()
    body = {"position": position_of(level, 4), "seed": 5}
    answer = client.post("/v1/shuffle", json=body).json()
    assert answer["status"] == "shuffled" and answer["seed"] == 5
    assert client.post("/v1/shuffle", json=body).json() == answer  # same seed, same deal
    verdict = client.post("/v1/verify", json=answer["level"]).json()
    assert verdict["files"][0]["status"] == "ok"
    drawn = client.post("/v1/shuffle", json=position_of(level, 4)).json()
    assert drawn["status"] == "shuffled" and isinstance(drawn["seed"], int)
    impossible = {**HAND_MADE, "board": {"width": 3, "height": 1, "rows": [[1, 1, 1]]}}
    assert client.post("/v1/shuffle", json=impossible).json()["status"] == "impossible"


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"position": HAND_MADE, "seed": -1}, "/seed"),
        ({"position": HAND_MADE, "min_moves": 1.5}, "/min_moves"),
        ({"position": HAND_MADE, "what": 1}, "/what"),
        ({**BAD_PLAY}, "/played/0"),
        ({"position": BAD_PLAY}, "/position/played/0"),
    ],
)
def test_bad_positions_are_problems_with_pointers(
    client: TestClient, body: dict[str, Any], pointer: str
) -> None:
    for path in ("/v1/hint", "/v1/shuffle"):
        doc = problem(client.post(path, json=body), 422)
        assert doc["pointer"].startswith(pointer), doc


# ----- limits, health, openapi, request ids -----------------------------------------------------


def test_body_over_the_cap_is_413(tmp_path: Path) -> None:
    with make_client(tmp_path, max_body_bytes=2048) as small:
        big = json.dumps({"level": HAND_MADE, "pad": "x" * 4096}).encode()
        problem(small.post("/v1/verify", content=big), 413)

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
            for _ in range(8):
                yield b" " * 512

        problem(small.post("/v1/verify", content=chunks()), 413)
        assert small.post("/v1/verify", json=HAND_MADE).status_code == 200


def test_full_queue_is_503_and_busy_client_is_429(client: TestClient) -> None:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    pool.in_flight += pool.capacity
    try:
        doc = problem(client.post("/v1/verify", json=HAND_MADE), 503)
        assert "busy" in doc["detail"]
    finally:
        pool.in_flight -= pool.capacity
    pool.per_client["testclient"] += pool.client_limit
    try:
        response = client.post("/v1/verify", json=HAND_MADE)
        problem(response, 429)
        assert response.headers["retry-after"] == "1"
    finally:
        pool.per_client["testclient"] -= pool.client_limit
    assert client.post("/v1/verify", json=HAND_MADE).status_code == 200


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}


def test_openapi_documents_every_endpoint_with_examples(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in (
        "/v1/levels",
        "/v1/levels/{level_id}",
        "/v1/verify",
        "/v1/solve",
        "/healthz",
        "/readyz",
    ):
        assert path in doc["paths"], path
    schemas = doc["components"]["schemas"]
    assert {"LevelFile", "Problem", "CreateRequest", "VerifyReport", "SolveAnswer"} <= set(schemas)
    body = doc["paths"]["/v1/verify"]["post"]["requestBody"]["content"]["application/json"]
    assert body["examples"]
    assert schemas["CreateRequest"]["examples"]
    assert client.get("/docs").status_code == 200


def test_request_ids_and_access_log(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    import logging

    logger = logging.getLogger("levelgen.access")
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    keep = Keep()
    logger.addHandler(keep)
    try:
        given = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
        fresh = client.get("/v1/levels/nope")
    finally:
        logger.removeHandler(keep)
    assert given.headers["x-request-id"] == "abc-123"
    assert len(fresh.headers["x-request-id"]) == 32
    lines = [json.loads(r) for r in records]
    assert lines[0]["request_id"] == "abc-123" and lines[0]["status"] == 200
    assert lines[0]["route"] == "/healthz"
    assert lines[1]["status"] == 422 and lines[1]["route"] == "/v1/levels/{level_id}"
    assert lines[1]["duration_ms"] >= 0


def test_the_docs_page_loads_nothing_from_elsewhere(client: TestClient) -> None:
    # Swagger UI is served from the package: the page works offline and behind a firewall.
    page = client.get("/docs")
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(url.startswith("/") for url in sources), sources
    for url in sources:
        assert client.get(url).status_code == 200, url
    assert "cdn" not in page.text.lower()


# ----- strict bodies and the contract with the OpenAPI document --------------------------------


@pytest.mark.parametrize(
    ("path", "body", "status", "pointer"),
    [
        # Read by the files' strict reader, as every other body is: the place and the reason.
        ("/v1/levels", b'{"size": "4x4", "size": "6x4"}', 422, "/size"),
        ("/v1/levels", b'{"size": "4x4", "seed": NaN}', 422, "/seed"),
        ("/v1/levels", b'{"size": "4x4"', 400, ""),
        ("/v1/levels", b'{"size": "4x4", "seed": true}', 422, "/seed"),
        ("/v1/levels", b'{"size": "4x4", "max_turns": "2"}', 422, "/max_turns"),
        ("/v1/levels", b'{"size": "4x4", "outside": "yes"}', 422, "/outside"),
        ("/v1/levels", b'{"size": "4x4", "copies": "2"}', 422, "/copies"),
        ("/v1/levels", b'{"size": "4x4", "kinds": 2.0}', 422, "/kinds"),
        ("/v1/levels", b'{"game": 3}', 422, "/game"),
        ("/v1/levels", b'{"game": "mahjong"}', 422, "/game"),
        ("/v1/packs", b'{"count": 2, "count": 3}', 422, "/count"),
        ("/v1/packs", b'[{"count": 2}', 400, ""),
        ("/v1/packs", b'{"count": "5"}', 422, "/count"),
        ("/v1/packs", b'{"count": 2, "seed": true}', 422, "/seed"),
        ("/v1/packs", b'{"count": 2, "outside": "yes"}', 422, "/outside"),
        ("/v1/packs", b'{"count": 2, "layout": []}', 422, "/layout"),
    ],
)
def test_create_and_pack_options_are_read_strictly(
    client: TestClient, path: str, body: bytes, status: int, pointer: str
) -> None:
    answer = client.post(path, content=body, headers={**AUTH, "content-type": "application/json"})
    found = problem(answer, status)
    assert found["pointer"] == pointer or found["detail"].startswith(pointer), found


def test_a_method_a_path_lacks_names_every_method_it_has(client: TestClient) -> None:
    for method in ("DELETE", "OPTIONS", "PUT"):
        answer = client.request(method, "/v1/levels")
        assert answer.status_code == 405
        assert answer.headers["allow"] == "GET, POST"
    assert client.request("PUT", "/v1/verify").headers["allow"] == "POST"


def test_an_option_the_schema_refuses_is_refused(client: TestClient) -> None:
    body = {"position": HAND_MADE, "min_moves": None}
    assert problem(client.post("/v1/hint", json=body), 422)["pointer"] == "/min_moves"


def test_every_method_of_the_cli_is_taken(client: TestClient) -> None:
    """``exhaustive``, which ``levelgen verify --method`` takes, is taken over HTTP too, with
    the CLI's answers."""
    for method in ("auto", "search", "cpsat", "exhaustive"):
        solved = client.post("/v1/solve", json={"level": HAND_MADE, "method": method})
        assert solved.status_code == 200, (method, solved.text)
        verdict = client.post("/v1/verify", json={"level": STUCK, "method": method})
        assert verdict.status_code == 200, (method, verdict.text)
        assert verdict.json()["files"][0]["status"] == "unsolvable", method
    refused = client.post("/v1/solve", json={"level": HAND_MADE, "method": "guess"})
    assert "exhaustive" in problem(refused, 422, "/method")["detail"]


def test_a_binary_body_names_its_byte_and_a_bad_query_is_not_called_json(
    client: TestClient,
) -> None:
    doc = problem(client.post("/v1/verify", content=b'{"a": "\xff"}'), 400)
    assert doc["detail"] == "not UTF-8 text: byte 0xff at offset 7"
    doc = problem(client.get("/v1/levels", params={"limit": "many"}), 422)
    assert "JSON" not in doc["title"]
