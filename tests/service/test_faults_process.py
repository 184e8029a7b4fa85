"""A real ``levelgen serve`` process on loopback under faults of its own and abusive clients:
killed with SIGKILL, its pool's workers (and multiprocessing's resource tracker) must not
outlive it; request heads too large or with too many fields are refused with 431; a head or a
body that stops coming is answered 408 and the connection closed, and an idle connection is
closed, instead of being waited on forever; a library locked by another process gets 503s
naming the library, on connections kept open, and one line in the log.  Each raw exchange is
bounded by a socket timeout; each server is killed with its process group at the end."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import ROOT
from tests.service.test_service_process import free_port

#: Seconds a raw exchange may take before the test says the server waits forever.
PATIENCE = 15.0
LIBRARY_PROBLEM = "urn:levelgen:problem:library-unavailable"
JSON = {"Content-Type": "application/json"}


class Server:
    """A ``levelgen serve`` process: its ``port``, its ``base`` URL and its log file."""

    def __init__(self, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.folder = log.parent  # where its library is: lib.db
        self.process = process
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log = log

    def events(self) -> list[dict[str, Any]]:
        """The JSON lines of its log that name an event (start, stop, the library...)."""
        found = []
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                if "event" in record:
                    found.append(record)
        return found

    def kill(self) -> None:
        """SIGKILL to the server's whole process group (its workers too), then reap it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def serve(tmp: Path, *args: str, env: dict[str, str] | None = None) -> Server:
    """Start ``levelgen serve`` on a free loopback port with a SQLite library in ``tmp``
    (one worker unless ``args`` say otherwise) and wait until it is ready."""
    port = free_port()
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    environment.pop("LEVELGEN_API_KEY", None)
    log = tmp / f"serve-{port}.log"
    command = [sys.executable, "-m", "levelgen", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp / 'lib.db'}"]
    command += args if "--workers" in args else ("--workers", "1", *args)
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, env=environment, stdout=sink, stderr=sink, start_new_session=True
        )
    server = Server(process, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server ended: {log.read_text()}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{server.base}/readyz", timeout=1).status_code == 200:
                return server
        time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not become ready")


# ----- processes -------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of process ``pid``, or None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def children_of(pid: int) -> dict[int, int]:
    """The processes whose parent is ``pid``: pid -> start time."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] == pid:
                found[int(entry.name)] = stat[2]
    return found


def running(pid: int, started: int) -> bool:
    """True while process ``pid`` (the one started at ``started``) runs (a zombie has ended)."""
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_kill_9_takes_the_pool_along(tmp_path: Path) -> None:
    """SIGKILL to the server alone (as the kernel's OOM killer or a crash ends it): its pool's
    workers and the resource tracker end with it, within seconds."""
    server = serve(tmp_path, "--workers", "2")
    try:
        children = children_of(server.process.pid)
        assert len(children) >= 2, children  # the two workers (and the resource tracker)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if not any(running(pid, started) for pid, started in children.items()):
                break
            time.sleep(0.1)
        left = sorted(pid for pid, started in children.items() if running(pid, started))
        assert not left, f"processes left behind by the killed server: {left}"
    finally:
        server.kill()


# ----- abusive clients -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with one-second head and body timeouts and a half-second lock timeout."""
    env = {
        "LEVELGEN_HEADER_TIMEOUT": "1",
        "LEVELGEN_BODY_TIMEOUT": "1",
        "LEVELGEN_DB_LOCK_TIMEOUT": "0.5",
    }
    server = serve(tmp_path_factory.mktemp("edge"), env=env)
    try:
        yield server
    finally:
        server.kill()
    assert "Traceback" not in server.log.read_text()  # refusals are answers, not accidents


def read_to_end(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a reset ends it too);
    AssertionError when it neither answers nor closes within :data:`PATIENCE` seconds."""
    sock.settimeout(PATIENCE)
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        except TimeoutError:
            raise AssertionError(f"still open after {PATIENCE} s: {b''.join(chunks)!r}") from None
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def exchange(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sock:
        sock.sendall(data)
        return read_to_end(sock)


def problem_of(answer: bytes, status: int) -> dict[str, Any]:
    """The problem document of the raw HTTP answer, checked to be one of ``status`` that
    closes the connection."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} "), answer[:300]
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    document: dict[str, Any] = json.loads(body)
    assert document["status"] == status and document["type"].startswith("urn:levelgen:problem:")
    return document


def test_a_head_too_large_gets_431(edge: Server) -> None:
    big = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n"
    document = problem_of(exchange(edge.port, big), 431)
    assert "bytes" in document["detail"]


def test_too_many_header_fields_get_431(edge: Server) -> None:
    fields = b"".join(b"X-F%d: v\r\n" % i for i in range(150))
    document = problem_of(exchange(edge.port, b"GET /healthz HTTP/1.1\r\n" + fields + b"\r\n"), 431)
    assert "fields" in document["detail"]


def test_a_huge_head_is_cut_short(edge: Server) -> None:
    """A 4 MiB header is refused after the first bytes past the cap, not read whole."""
    with socket.create_connection(("127.0.0.1", edge.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        try:
            for _ in range(64):
                sock.sendall(b"a" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            return  # refused and closed while we were still sending
        answer = read_to_end(sock)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]


def test_a_body_shorter_than_its_length_gets_408(edge: Server) -> None:
    start = time.monotonic()
    request = b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    answer = exchange(edge.port, request + b'Content-Length: 100\r\n\r\n{"board": ')
    problem_of(answer, 408)
    assert time.monotonic() - start < PATIENCE


def test_a_head_that_stops_coming_gets_408(edge: Server) -> None:
    problem_of(exchange(edge.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n"), 408)


def test_bytes_that_are_not_http_get_a_problem(edge: Server) -> None:
    problem_of(exchange(edge.port, b"HELLO / SMTP\r\n\r\n"), 400)


def test_an_idle_connection_is_closed(edge: Server) -> None:
    with socket.create_connection(("127.0.0.1", edge.port), timeout=PATIENCE) as sock:
        assert read_to_end(sock) == b""


def test_ordinary_requests_keep_their_connection(edge: Server) -> None:
    """The limits leave ordinary clients alone: several requests on one connection, with a
    body sent in two parts, and a pause between requests shorter than the keep-alive."""
    level = (ROOT / "levels" / "slide_down_12x8.json").read_bytes()
    with httpx.Client(base_url=edge.base, timeout=PATIENCE) as client:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
        verdict = client.post(
            "/v1/verify",
            content=iter([level[:100], level[100:]]),
            headers={"X-Pad": "p" * 8000, **JSON},
        )
        assert verdict.status_code == 200 and verdict.json()["exit_code"] == 0


# ----- the library locked by another process ------------------------------------------------------


def test_a_locked_sqlite_library(edge: Server) -> None:
    """Another process holds the library's write lock: each write waits the lock timeout
    (0.5 s here) and gets 503 with Retry-After, on a connection that stays open; reads go on;
    one line in the log for the whole incident, no traceback; writes work once it is free."""
    server = edge
    known = len(server.events())
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    lock = sqlite3.connect(server.folder / "lib.db", isolation_level=None, timeout=30)
    try:
        lock.execute("BEGIN IMMEDIATE")
        socket_used = None

        def ask(method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], bytes]:
            nonlocal socket_used
            data = None if body is None else json.dumps(body)
            connection.request(method, path, body=data, headers=JSON)
            response = connection.getresponse()
            content = response.read()
            assert socket_used in (None, connection.sock), "the connection was closed"
            socket_used = connection.sock
            return response.status, dict(response.getheaders()), content

        for seed in range(3):
            status, headers, content = ask("POST", "/v1/levels", {"size": "6x4", "seed": seed})
            assert status == 503, content
            assert int(headers["retry-after"]) >= 1
            assert headers["content-type"] == "application/problem+json"
            document = json.loads(content)
            assert document["type"] == LIBRARY_PROBLEM and "locked" in document["detail"]
        assert ask("GET", "/v1/levels")[0] == 200  # readers do not wait for the writer
        lock.execute("ROLLBACK")
        assert ask("POST", "/v1/levels", {"size": "6x4", "seed": 0})[0] == 201

        def recovered() -> bool:
            return any(e["event"] == "library-recovered" for e in server.events()[known:])

        deadline = time.monotonic() + 30
        while not recovered():
            assert time.monotonic() < deadline, "the log does not say the library is back"
            time.sleep(0.1)
    finally:
        lock.close()
        connection.close()
    outages = [e for e in server.events()[known:] if e["event"] == "library-unavailable"]
    assert len(outages) == 1 and outages[0]["db"] == "sqlite"
    assert "Traceback" not in server.log.read_text()
