"""How much work a computation may do: the budget every solver and search of every game takes.

The budget is deterministic where it can be (``max_nodes``, a count in the solver's own units);
a wall-clock limit comes only from the edges, as a ``should_stop`` callable
(:func:`levelgen.formats.reports.wall_clock_budget`), so no game's core reads the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Budget"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work a solver may do.

    ``max_nodes``: a deterministic work bound in the solver's own units; None means unlimited.
    ``should_stop``: polled now and then; returning True makes the solver give up with
    ``unknown`` (the edges use it for wall-clock limits).  ``clock``: seconds, used only to
    report elapsed time.  ``time_limit``: seconds for solvers that take a limit natively; the
    edges set it together with ``should_stop``."""

    max_nodes: int | None = None
    should_stop: Callable[[], bool] | None = None
    clock: Callable[[], float] | None = None
    time_limit: float | None = None

    def spent(self) -> bool:
        """True when ``should_stop`` says to give up."""
        return self.should_stop is not None and self.should_stop()
