"""``levelgen bench``: fixed, seeded workloads reported as medians and ratios.

Each workload lives in its own module with a ``register(app)`` function adding its command.
Timing is measured here, at the edge, never asserted by tests.
"""

from __future__ import annotations

import typer

from . import create, pack, paths, play, shape, solve
from . import serve as serve_bench  # `levelgen bench serve`

__all__ = ["bench_app"]

bench_app = typer.Typer(
    help="Benchmarks: fixed seeded workloads, reported as medians and ratios.",
    no_args_is_help=True,
)
for _module in (paths, solve, create, shape, play, pack):
    _module.register(bench_app)
serve_bench.register(bench_app)
