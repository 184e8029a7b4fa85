"""``levelgen bench``: fixed, seeded workloads reported as medians and ratios.

The cross-family workloads live here (``pack``, ``serve``, ``editor``), each in its own module
with a ``register(app)`` function adding its command; each family adds its own commands through the
table (:meth:`levelgen.puzzles.Family.add_benchmarks`: Link-up's paths, solve, create, shape,
play and boards, ``sliding``, ``ladders``).  Timing is measured here, never asserted by tests.
"""

from __future__ import annotations

import typer

from ..puzzles import families
from . import editor, pack
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
for _family in families().values():
    _family.add_benchmarks(bench_app)
pack.register(bench_app)
editor.register(bench_app)
serve_bench.register(bench_app)
