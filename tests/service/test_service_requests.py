"""Requests under abuse: writes that are not JSON (415, so that a page of another site cannot
write without asking first), and a real server's answers on a kept-alive connection: a 500 of
an injected bug leaves the connection usable, and every answer (500, 503, 413, 415, 431, 404)
carries an ``X-Request-ID``."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from levelgen.service.app import create_app
from levelgen.service.settings import Settings
from tests.service.family_slow import BUG_GOAL, REFERENCE
from tests.service.test_faults_process import PATIENCE, Server, serve

JSON = {"Content-Type": "application/json"}

# ----- writes are JSON (item 4 of issue 40) ------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("json")
    settings = Settings(db=f"sqlite:///{folder / 'lib.db'}", workers=1)
    with TestClient(create_app(settings)) as c:
        yield c


CREATE = json.dumps({"size": "4x2", "seed": 1})
PACK = json.dumps({"count": 1, "size": "4x2", "seed": 1})

#: What a web page of another site may send without a preflight, and other non-JSON types.
NOT_JSON = [
    ({"Content-Type": "text/plain"}, "Content-Type text/plain"),
    ({"Content-Type": "text/plain;charset=UTF-8"}, "text/plain"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, "x-www-form-urlencoded"),
    ({"Content-Type": "multipart/form-data; boundary=x"}, "multipart/form-data"),
    ({}, "no Content-Type"),
    ({"Content-Type": "application/json; charset=latin-1"}, "charset of latin-1"),
    ({"Content-Type": "application/jsonp"}, "application/jsonp"),
]


@pytest.mark.parametrize(("headers", "named"), NOT_JSON)
@pytest.mark.parametrize(("path", "body"), [("/v1/levels", CREATE), ("/v1/packs", PACK)])
def test_a_write_that_is_not_json_is_refused_with_415(
    client: TestClient, path: str, body: str, headers: dict[str, str], named: str
) -> None:
    answer = client.post(path, content=body.encode(), headers=headers)
    assert answer.status_code == 415, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.headers["accept-post"] == "application/json"
    assert answer.headers["x-request-id"]
    doc = answer.json()
    assert doc["type"] == "urn:levelgen:problem:unsupported-media-type"
    assert "application/json" in doc["detail"] and named in doc["detail"]
    assert client.get("/v1/levels").json()["items"] == []  # nothing was written


def test_refusals_cover_every_write_and_a_form_post_of_the_player(client: TestClient) -> None:
    for path in ("/v1/verify", "/v1/solve", "/v1/hint", "/v1/shuffle"):
        answer = client.post(path, content=b"{}", headers={"Content-Type": "text/plain"})
        assert answer.status_code == 415, (path, answer.text)
    form = client.post("/v1/levels", data={"size": "4x2"})  # an HTML form's body
    assert form.status_code == 415


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"]
)
def test_json_writes_are_accepted(client: TestClient, content_type: str) -> None:
    answer = client.post(
        "/v1/levels", content=CREATE.encode(), headers={"Content-Type": content_type}
    )
    assert answer.status_code in (200, 201), answer.text


def test_a_post_without_a_body_is_not_a_415(client: TestClient) -> None:
    # Nothing to read, so nothing to refuse for its type: the handler says what is missing.
    answer = client.post("/v1/verify")
    assert answer.status_code == 400 and "empty" in answer.json()["detail"]


def test_the_players_send_json() -> None:
    from tests import ROOT

    # A script either names the type at each fetch, or sends every request through one
    # function that sets it whenever there is a body (the editor's shell).
    wrapper = 'headers["Content-Type"] = "application/json";'
    for script in sorted((ROOT / "levelgen").rglob("*.js")):
        text = script.read_text()
        calls = text.split("fetch(")[1:]
        if len(calls) == 1 and wrapper in text:
            continue
        for call in calls:
            head = call[:300]
            assert '"Content-Type": "application/json"' in head, (script, head)


# ----- a real server's answers on a kept-alive connection (item 7 of issue 40) ----------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "LEVELGEN_FAMILIES": REFERENCE,
        "LEVELGEN_MAX_BODY_BYTES": "2048",
        "LEVELGEN_QUEUE_LIMIT": "0",
    }
    running = serve(tmp_path_factory.mktemp("keep"), env=env)
    try:
        yield running
    finally:
        running.kill()


def ask(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> http.client.HTTPResponse:
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    connection.request(method, path, body=data, headers=headers if headers is not None else JSON)
    answer = connection.getresponse()
    answer.read()
    return answer


def test_a_500_keeps_the_connection_and_names_the_request(server: Server) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        bug = ask(connection, "POST", "/v1/levels", {"game": "slow", "goal": BUG_GOAL})
        assert bug.status == 500
        assert bug.getheader("x-request-id")
        # Either the connection stays open, or the answer said it would not.
        assert (bug.getheader("connection") or "").lower() != "close"
        sock = connection.sock
        for _ in range(2):  # the next requests on the same connection are answered
            assert ask(connection, "GET", "/healthz").status == 200
            assert connection.sock is sock  # not a new connection made behind our back
    finally:
        connection.close()
    events = server.events()
    logged = [e for e in events if e["event"] == "internal-error"]
    assert logged and logged[-1]["request_id"] == bug.getheader("x-request-id")
    assert "RuntimeError: an injected bug" in logged[-1]["reason"]
    assert "Exception in ASGI application" not in server.log.read_text()


def test_every_error_names_its_request(server: Server) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        answers = {
            404: ask(connection, "GET", "/v1/nothing"),
            405: ask(connection, "DELETE", "/v1/levels"),
            415: ask(connection, "POST", "/v1/levels", b"{}", {"Content-Type": "text/plain"}),
            422: ask(connection, "POST", "/v1/levels", {"game": "slow", "goal": -1}),
        }
        big = ask(connection, "POST", "/v1/verify", b"[" * 4000)
        answers[413] = big
        for status, answer in answers.items():
            assert answer.status == status and answer.getheader("x-request-id"), status
    finally:
        connection.close()
    # One worker busy and no queue: a 503.  The slow request may lose the race for the worker
    # to a quick one (then it is the one refused): asked again, up to three times.
    for _attempt in range(3):
        refused, slow_status = _busy_refusal(server)
        if refused is not None:
            assert refused.getheader("x-request-id")
            assert refused.getheader("retry-after")
            return
        assert slow_status == 503, "no 503 while the only worker was busy"
    raise AssertionError("the slow request lost the race for the worker three times")


def _busy_refusal(server: Server) -> tuple[http.client.HTTPResponse | None, int]:
    """Six seconds of work on the one worker, and quick requests for up to five: the first
    503 among them (or None), and the status of the slow request."""
    busy = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    other = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        busy.request("POST", "/v1/levels", body=b'{"game": "slow", "goal": 9006}', headers=JSON)
        refused = None
        until = time.monotonic() + 5
        while refused is None and time.monotonic() < until:
            answer = ask(other, "POST", "/v1/levels", {"game": "slow", "goal": 5})
            if answer.status == 503:
                refused = answer
            time.sleep(0.02)
        slow = busy.getresponse()
        slow.read()
        return refused, slow.status
    finally:
        busy.close()
        other.close()


def test_a_refusal_before_any_application_names_its_request(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: p\r\n" * 200 + b"\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head = answer.split(b"\r\n\r\n")[0].decode().lower()
    assert head.startswith("http/1.1 431")
    assert "connection: close" in head and "x-request-id: " in head
