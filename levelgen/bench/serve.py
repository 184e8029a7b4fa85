"""``levelgen bench serve``: the HTTP service under a bounded load on the loopback interface.

Starts ``levelgen serve`` on 127.0.0.1 (a free port, a throwaway SQLite library, ``--workers``
pool processes), then drives each endpoint with a fixed number of requests from ``--clients``
concurrent httpx async clients and reports, per endpoint, the throughput (requests per second
over the whole run) and the p50 / p95 / p99 latency, next to the targets, with the count of
error responses (anything but 2xx), and the CPU time per request of the server (its event loop
and its pool, from ``/proc``) and of this client: on a machine shared with other work the rate
follows the CPU left over, and the CPU per request says what the service itself costs.
Loopback only, bounded in count; the server is stopped (SIGTERM) at the end.  The client runs
on the same machine and takes its share of the CPU.

Workloads: ``create`` 12x8 (``POST /v1/levels``, seeds 0..N-1), ``verify`` 12x8 (``POST
/v1/verify`` of levels with their solutions: replay and metrics check), ``hint`` 18x10 (``POST
/v1/hint`` of positions 20 moves into 20 generated levels, as the browser player sends them:
rules and the current board; each answer is a proved safe move).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..puzzles import DEFAULT_GAME

__all__ = ["TARGETS", "Load", "register", "run_load", "start_server"]

#: Targets by workload: ("rate", requests/s at least) or ("p95", milliseconds at most).
TARGETS: dict[str, tuple[str, float]] = {
    "create 12x8": ("rate", 150.0),
    "verify 12x8": ("rate", 300.0),
    "hint 18x10": ("p95", 100.0),
}

#: A request: method, path, JSON body.
Request = tuple[str, str, Any]


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its live children, from
    ``/proc`` (0.0 where there is no ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    pids = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():  # children of every thread
            pids += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        return 0.0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


@dataclass(frozen=True, slots=True)
class Load:
    """What one workload measured."""

    name: str
    requests: int
    clients: int
    seconds: float
    latencies_ms: list[float]
    errors: int
    first_error: str
    server_cpu: float = 0.0
    client_cpu: float = 0.0

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "requests": self.requests,
            "clients": self.clients,
            "seconds": round(self.seconds, 3),
            "rate": round(self.rate, 1),
            "p50_ms": round(self.percentile(50), 2),
            "p95_ms": round(self.percentile(95), 2),
            "p99_ms": round(self.percentile(99), 2),
            "errors": self.errors,
            "server_cpu_ms": round(self.server_cpu * 1000 / self.requests, 2),
            "client_cpu_ms": round(self.client_cpu * 1000 / self.requests, 2),
        }
        if self.first_error:
            data["first_error"] = self.first_error
        target = TARGETS.get(self.name)
        if target is not None:
            kind, value = target
            data["target"] = f"{kind} {'>=' if kind == 'rate' else '<='} {value:g}"
            got = self.rate if kind == "rate" else self.percentile(95)
            data["met"] = got >= value if kind == "rate" else got <= value
        return data


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(folder: Path, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """``levelgen serve`` on a free loopback port with a library in ``folder``; waits until
    it is ready (``RuntimeError`` when it dies or is not ready within a minute)."""
    import httpx

    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "LEVELGEN_API_KEY"}
    command = [sys.executable, "-m", "levelgen", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", str(workers)]
    command += ["--db", f"sqlite:///{folder / 'bench.db'}"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"levelgen serve exited with {process.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("levelgen serve was not ready within 60 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def _drive(
    base: str, name: str, make: Callable[[int], Request], count: int, clients: int
) -> Load:
    import httpx

    latencies: list[float] = []
    errors = 0
    first_error = ""
    next_index = 0

    async def client_loop() -> None:
        nonlocal next_index, errors, first_error
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            while next_index < count:
                index = next_index
                next_index += 1
                method, path, body = make(index)
                start = time.perf_counter()
                try:
                    response = await client.request(method, path, json=body)
                    status, text = response.status_code, response.text
                except httpx.HTTPError as exc:
                    status, text = 0, str(exc)
                latencies.append((time.perf_counter() - start) * 1000)
                if not 200 <= status < 300:
                    errors += 1
                    first_error = first_error or f"{status}: {text[:200]}"

    start = time.perf_counter()
    await asyncio.gather(*(client_loop() for _ in range(clients)))
    return Load(name, count, clients, time.perf_counter() - start, latencies, errors, first_error)


def run_load(
    base: str,
    name: str,
    make: Callable[[int], Request],
    count: int,
    clients: int,
    server_pid: int | None = None,
) -> Load:
    """``count`` requests ``make(0..count-1)`` from ``clients`` concurrent clients, with the
    CPU seconds the server (``server_pid`` and its workers) and this client used."""
    import dataclasses

    server_before = process_tree_cpu(server_pid) if server_pid else 0.0
    client_before = time.process_time()
    load = asyncio.run(_drive(base, name, make, count, clients))
    return dataclasses.replace(
        load,
        server_cpu=(process_tree_cpu(server_pid) - server_before) if server_pid else 0.0,
        client_cpu=time.process_time() - client_before,
    )


def _levels(base: str, size: str, seeds: range) -> list[dict[str, Any]]:
    import httpx

    with httpx.Client(base_url=base, timeout=60) as client:
        return [
            client.post("/v1/levels", json={"size": size, "seed": seed}).json() for seed in seeds
        ]


#: The workloads' names, as ``--only`` takes them.
WORKLOADS = ("create", "verify", "hint")


def chosen_workloads(only: str | None) -> set[str]:
    """The workloads ``--only`` names (all when not given); ``typer.BadParameter`` (exit 2)
    naming the workloads for a name that is none of them, or for no name at all."""
    if only is None:
        return set(WORKLOADS)
    names = [name.strip() for name in only.split(",") if name.strip()]
    known = ", ".join(WORKLOADS)
    if not names:
        raise typer.BadParameter(f"give workload names: {known}", param_hint="'--only'")
    for name in names:
        if name not in WORKLOADS:
            raise typer.BadParameter(
                f"{name!r} is not a workload (the workloads: {known})", param_hint="'--only'"
            )
    return set(names)


def workloads(base: str, requests: int) -> list[tuple[str, Callable[[int], Request], int]]:
    """The workloads: (name, request maker, request count)."""
    levels = _levels(base, "12x8", range(10_000, 10_020))
    positions = [_position(level, 20) for level in _levels(base, "18x10", range(10_000, 10_020))]
    return [
        ("create 12x8", lambda i: ("POST", "/v1/levels", {"size": "12x8", "seed": i}), requests),
        ("verify 12x8", lambda i: ("POST", "/v1/verify", levels[i % len(levels)]), requests),
        ("hint 18x10", lambda i: ("POST", "/v1/hint", positions[i % len(positions)]), requests),
    ]


def _position(level: dict[str, Any], played: int) -> dict[str, Any]:
    """The position file the browser player sends: rules and the current board of ``level``
    (of the default game, which the workloads create) after the first ``played`` steps of its
    solution."""
    rows = [list(row) for row in level["board"]["rows"]]
    for step in level["solution"][:played]:
        for x, y in (step["a"], step["b"]):
            rows[y][x] = 0
    board = {**level["board"], "rows": rows}
    return {
        "$schema": "urn:levelgen:schema:position:v1",
        "game": DEFAULT_GAME,
        "format_version": 1,
        "rules": level["rules"],
        "board": board,
    }


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the bench app."""

    @app.command("serve")
    def bench_serve(
        requests: Annotated[
            int, typer.Option(min=1, max=100_000, help="Requests per workload.")
        ] = 1000,
        clients: Annotated[int, typer.Option(min=1, max=256, help="Concurrent clients.")] = 16,
        workers: Annotated[
            int | None, typer.Option(min=1, max=64, help="Server pool processes (default: CPUs).")
        ] = None,
        only: Annotated[
            str | None,
            typer.Option(
                help=f"Comma-separated workloads to run: {', '.join(WORKLOADS)} (default: all).",
                metavar="NAMES",
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Throughput and p50/p95/p99 latency per endpoint of `levelgen serve` on loopback."""
        report: dict[str, Any] = {}
        chosen = chosen_workloads(only)
        with tempfile.TemporaryDirectory(prefix="lgbench") as folder:
            process, base = start_server(Path(folder), workers or os.cpu_count() or 1)
            try:
                for name, make, count in workloads(base, requests):
                    if name.split()[0] not in chosen:
                        continue
                    run_load(base, name, make, min(count, 2 * clients), clients)  # warm up
                    load = run_load(base, name, make, count, clients, process.pid)
                    report[name] = load.to_data()
            finally:
                stop_server(process)
        if as_json:
            typer.echo(json.dumps(report, indent=2))
            return
        for name, row in report.items():
            met = {True: "met", False: "MISSED"}.get(row.get("met"), "")
            typer.echo(
                f"{name:<14} {row['rate']:8.1f} req/s  p50 {row['p50_ms']:7.2f} ms"
                f"  p95 {row['p95_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms"
                f"  errors {row['errors']}  ({row['requests']} requests, {row['clients']} clients;"
                f" CPU per request: server {row['server_cpu_ms']} ms,"
                f" client {row['client_cpu_ms']} ms)"
                + (f"  target {row['target']}: {met}" if "target" in row else "")
            )
            if row.get("first_error"):
                typer.echo(f"  first error: {row['first_error']}")
