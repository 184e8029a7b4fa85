"""Link-up's commands of ``levelgen bench``: fixed, seeded workloads reported as medians and
ratios (paths, solve, create, shape, play, boards, fix).

Each workload lives in its own module with a ``register(app)`` function adding its command;
:func:`register` adds them all (:meth:`levelgen.linkup.family.LinkupFamily.add_benchmarks`).
Timing is measured here, never asserted by tests.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(app: Any) -> None:
    """Add Link-up's benchmark commands to the typer app ``app``."""
    from . import boards, create, design, paths, play, shape, solve

    for module in (paths, solve, create, shape, play, boards, design):
        module.register(app)
