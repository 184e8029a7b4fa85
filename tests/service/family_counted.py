"""*counted*: the counting family (:mod:`tests.family_counting`) with a hint option and a
rating, for the service's tests of families' own hint options and ``POST /v1/rate``.

Reached through ``LEVELGEN_FAMILIES=counted=tests.service.family_counted:COUNTED``.  Its hint
takes ``at``, the number the player has reached (the start by default); its rating scores a
level by its shortest solution's length and records the seed it was given."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from levelgen.puzzles import (
    Budget,
    Capability,
    CreateOption,
    HintAnswer,
    OptionKind,
    SpecError,
)
from tests.family_counting import LIMIT, Counting, CountingFamily, _shortest

REFERENCE = "counted=tests.service.family_counted:COUNTED"


class CountedFamily(CountingFamily):
    name = "counted"
    title = "Counted"
    capabilities = CountingFamily.capabilities | {Capability.RATE}
    hint_options = (
        CreateOption("at", "N", f"counted: the number reached, 0..{LIMIT}.", OptionKind.INT),
    )

    def read(self, data: object) -> Counting:
        document = super().read(data)
        if isinstance(data, dict) and isinstance(data.get("metrics"), dict):
            return _Rated(document.start, document.goal, document.solution, metrics=data["metrics"])
        return document

    def dump(self, document: Counting) -> dict[str, Any]:
        data = super().dump(document)
        if isinstance(document, _Rated):
            data["metrics"] = document.metrics
        return data

    def hint(self, document: Counting, *, budget: Budget, options: Mapping[str, Any]) -> HintAnswer:
        at = options.get("at", document.start)
        if not 0 <= at <= LIMIT:
            raise SpecError("at", f"expected 0..{LIMIT}")
        return super().hint(Counting(at, document.goal), budget=budget, options={})

    def rate(self, document: Counting, *, seed: int) -> Counting:
        length = len(_shortest(document.start, document.goal) or "")
        score = min(100.0, 10.0 * length)
        block = {"score": score, "band": self.bands[score >= 50], "measures": {"seed": seed}}
        return _Rated(
            document.start, document.goal, document.solution, metrics={"difficulty": block}
        )


@dataclass(frozen=True)
class _Rated(Counting):
    metrics: Any = None


COUNTED = CountedFamily()
