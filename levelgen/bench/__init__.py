"""``levelgen bench``: fixed, seeded workloads reported as medians and ratios.

Each workload lives in its own module with a ``register(app)`` function adding its command.
Timing is measured here, at the edge, never asserted by tests.
"""

from __future__ import annotations

import typer

from . import boards, create, games, pack, paths, play, shape, solve
from . import serve as serve_bench  # `levelgen bench serve`

__all__ = ["bench_app"]

bench_app = typer.Typer(
    help="Benchmarks: fixed seeded workloads, reported as medians and ratios.",
    no_args_is_help=True,
    # As the top-level app: ``levelgen`` imports this group only when ``bench`` is asked for
    # (levelgen.cli.common.LAZY_GROUPS), as an app of its own.
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
for _module in (paths, solve, create, shape, play, pack, games, boards):
    _module.register(bench_app)
serve_bench.register(bench_app)
