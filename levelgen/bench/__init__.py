"""``levelgen bench``: fixed, seeded workloads reported as medians and ratios.

Each workload lives in its own module with a ``register(app)`` function adding its command.
Timing is measured here, at the edge, never asserted by tests.
"""

from __future__ import annotations

import typer

from . import create, pack, paths, shape, solve

__all__ = ["bench_app"]

bench_app = typer.Typer(
    help="Benchmarks: fixed seeded workloads, reported as medians and ratios.",
    no_args_is_help=True,
)
for _module in (paths, solve, create, shape, pack):
    _module.register(bench_app)
