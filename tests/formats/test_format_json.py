"""``format_json`` against the plain definition of the canonical layout: the same text for any
JSON value (it writes a container's one-line form only for containers at most three deep; this
writes it for every container)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.formats import format_json

WIDTH = 100


def reference(value: object) -> str:
    return "".join(_lines(value, 0, 0)) + "\n"


def _lines(value: object, indent: int, column: int) -> Iterator[str]:
    flat = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))
    if not isinstance(value, dict | list) or not value:
        yield flat
        return
    scalars = isinstance(value, list) and not any(isinstance(v, dict | list) for v in value)
    if scalars or (column + len(flat) <= WIDTH and _depth(value) <= 3):
        yield flat
        return
    inner = indent + 2
    if isinstance(value, dict):
        items = [(json.dumps(k, ensure_ascii=False) + ": ", v) for k, v in value.items()]
        open_, close = "{", "}"
    else:
        items = [("", v) for v in value]
        open_, close = "[", "]"
    yield open_ + "\n"
    for i, (prefix, item) in enumerate(items):
        yield " " * inner + prefix
        yield from _lines(item, inner, inner + len(prefix))
        yield ",\n" if i < len(items) - 1 else "\n"
    yield " " * indent + close


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=60,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_the_same_text_as_the_plain_definition(value: object) -> None:
    assert format_json(value) == reference(value)


def test_around_the_line_width() -> None:
    """Containers whose one-line form is just under, at and just over the width."""
    for n in range(20, 40):
        for value in ({"a": [[1, 2]] * n}, [{"k": "x" * n, "v": [1, [2]]}], {"x": {"y": [n] * n}}):
            assert format_json(value) == reference(value)
