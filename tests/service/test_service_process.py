"""A real ``levelgen serve`` process on a loopback port: start, create, fetch, verify, the
access log on standard error, then a graceful stop on SIGTERM (exit 0)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(tmp: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("LEVELGEN_API_KEY", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "levelgen",
            "serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--db",
            f"sqlite:///{tmp / 'lib.db'}",
            *extra,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: a kill can take its workers too
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(process.stderr.read().decode() if process.stderr else "died")
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not become ready")


def test_real_server_round_trip_and_sigterm(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("k3y\n")
    process, base = start_server(tmp_path, "--api-key-file", str(key_file))
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            assert client.post("/v1/levels", json={"size": "6x4"}).status_code == 401
            created = client.post(
                "/v1/levels", json={"size": "6x4", "seed": 4}, headers={"X-API-Key": "k3y"}
            )
            assert created.status_code == 201
            level = created.json()
            assert client.get(f"/v1/levels/{level['id']}").json() == level
            verdict = client.post("/v1/verify", json=level, headers={"X-Request-ID": "r-1"})
            assert verdict.json()["exit_code"] == 0
            assert verdict.headers["x-request-id"] == "r-1"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once it has stopped
    assert process.stderr is not None
    lines = [json.loads(x) for x in process.stderr.read().decode().splitlines() if x[:1] == "{"]
    assert lines[0]["event"] == "started" and lines[-1]["event"] == "stopped"
    verify_line = next(x for x in lines if x.get("request_id") == "r-1")
    assert verify_line["route"] == "/v1/verify" and verify_line["status"] == 200


def test_bad_options_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "levelgen", "serve", "--api-key-file", str(tmp_path / "none")],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert b"--api-key-file" in result.stderr and b"Traceback" not in result.stderr


def test_an_unusable_library_exits_2(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    db = f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'lib.db'}"
    result = subprocess.run(
        [sys.executable, "-m", "levelgen", "serve", "--db", db],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert b"--db: cannot open" in result.stderr and b"Traceback" not in result.stderr


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from levelgen.service.settings import Settings

    monkeypatch.setenv("LEVELGEN_API_KEY", "from-env")
    monkeypatch.setenv("LEVELGEN_MAX_TIME_LIMIT", "7.5")
    settings = Settings()
    assert settings.api_key == "from-env" and settings.max_time_limit == 7.5


def test_the_started_line_gives_the_url_of_a_port_zero_server(tmp_path: Path) -> None:
    # With --port 0 the system picks the port: the "started" line of the log says which.
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "levelgen",
            "serve",
            "--port",
            "0",
            "--workers",
            "1",
            "--db",
            f"sqlite:///{tmp_path / 'library.db'}",
        ],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        started = json.loads(process.stderr.readline())
        assert started["event"] == "started"
        url = started["url"]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
