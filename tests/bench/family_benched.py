"""The test family with a benchmark command of its own (``levelgen bench counting``), to see
that ``levelgen bench`` reaches a family's benchmarks through the table alone."""

from __future__ import annotations

from typing import Any

from tests.family_counting import CountingFamily


class BenchedCounting(CountingFamily):
    def add_benchmarks(self, app: Any) -> None:
        @app.command("counting")
        def counting(count: int = 3) -> None:
            """Count to --count (a workload of the counting family)."""
            print(" ".join(str(n) for n in range(1, count + 1)))


BENCHED = BenchedCounting()
