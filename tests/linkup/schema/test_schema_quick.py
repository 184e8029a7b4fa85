"""The quick level reader (no pydantic) against the level models: whatever it accepts, the
models accept as the same level, with the same problems; and it accepts the common files."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.schema import LevelFormatError, level_problems, parse_level_data
from levelgen.linkup.schema.quick import SCHEMA_URI, id_problems, odd_kind_problems, quick_level
from tests import ROOT, level_files
from tests.processes import run_main

LEVELS = ROOT / "levels"
FILES = level_files("linkup")


def _data(path: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return value


def _bases() -> list[dict[str, Any]]:
    """Valid level files of many shapes: every classic file of ``levels/``, the same without
    solution, metrics, generator and id, one with a measured difficulty, a small hand-made
    level of another tool, and a level of one cell (one tile: odd, but well-formed)."""
    bases = [_data(p) for p in FILES if "layers" not in _data(p)["board"]]
    stripped = []
    for data in bases:
        bare = {k: v for k, v in data.items() if k not in ("solution", "metrics", "generator")}
        bare.pop("id")
        stripped.append(bare)
    rated = copy.deepcopy(bases[0])
    rated["metrics"]["difficulty"] = {"score": 41.5, "band": "medium", "measures": {"trap": 2}}
    rated["metrics"]["extra"] = {"ratio": 1, "z": -2.5}
    rated["board"]["layers"] = None
    rated["id"] = None
    hand = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 0, "outside": False, "slide": "none"},
        "board": {"width": 3, "height": 1, "rows": [[1, -1, 1]]},
        "solution": [],
        "metrics": None,
        "generator": {"name": "my-editor", "version": "1", "parameters": {"a": [1, "b", None]}},
    }
    tiny = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 8, "outside": True},
        "board": {"width": 1, "height": 1, "rows": [[5]]},
    }
    return [*bases, *stripped, rated, hand, tiny]


BASES = _bases()
FILES_CLASSIC = (len(BASES) - 3) // 2


def _same_as_models(data: object) -> bool:
    """Whether the quick reader accepted ``data``; when it did, the models accept it too and
    read the same level (values of the same types), the same id and the same problems."""
    quick = quick_level(data)
    if quick is None:
        return False
    level, level_id = quick
    try:
        file = parse_level_data(data)
        core = file.to_core()
    except LevelFormatError as exc:  # pragma: no cover - the failure this test is for
        pytest.fail(f"the quick reader accepted what the models refuse: {exc}")
    assert repr(core) == repr(level)
    assert file.id == level_id
    rows = [("/board/rows", level.board.grid())]
    ours = odd_kind_problems(rows) + id_problems(level_id, level.board, level.rules)
    assert ours == level_problems(file)
    return True


@pytest.mark.parametrize("index", range(len(BASES)))
def test_the_quick_reader_reads_valid_classic_files(index: int) -> None:
    assert _same_as_models(BASES[index])


def test_stacked_layers_are_left_to_the_models() -> None:
    layered = [p for p in FILES if "layers" in _data(p)["board"]]
    assert layered
    for path in layered:
        data = _data(path)
        assert quick_level(data) is None
        parse_level_data(data).to_core()


_ODD = [
    True,
    False,
    None,
    float("nan"),
    float("inf"),
    1.0,
    0.5,
    -0.0,
    100.0,
    100.5,
    float(2**53),
    10**30,
    63,
    64,
    65,
    4095,
    4096,
    4097,
    2**53 - 1,
    2**53,
    "",
    "x",
    "none",
    "down",
    "diagonal",
    "linkup",
    "easy",
    "levelgen",
    "12x8",
    "1x8",
    SCHEMA_URI,
    SCHEMA_URI + "\n",
    "sha256:" + "0" * 64,
    "sha256:" + "0" * 64 + "\n",
    "x" * 201,
    [],
    {},
]
#: Small JSON values; each draw a fresh copy (the ``[]`` and ``{}`` of ``_ODD`` drawn as they are
#: would be shared, and a later change could put an object inside itself).
VALUES = st.recursive(
    st.sampled_from(_ODD).map(copy.deepcopy) | st.integers(-3, 9),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
_FIELD_NAMES = [
    "$schema",
    "schema_uri",
    "game",
    "format_version",
    "id",
    "rules",
    "board",
    "layers",
    "rows",
    "width",
    "height",
    "max_turns",
    "outside",
    "slide",
    "solution",
    "metrics",
    "difficulty",
    "extra",
    "measures",
    "seed",
    "parameters",
    "kinds",
    "copies",
    "size",
    "a",
    "kind",
    "path",
    "zzz",
]
KEYS = st.sampled_from(_FIELD_NAMES)


def _slots(node: Any) -> list[tuple[Any, Any]]:
    """The places of ``node`` a change can hit: each field of an object and one new field,
    each item of an array and one new item (of a long array only its first two and last
    items, so that the board's cells do not crowd out the other fields)."""
    slots: list[tuple[Any, Any]] = []
    if isinstance(node, dict):
        keys: list[Any] = sorted(node)
        slots += [(node, key) for key in keys] + [(node, None)]
    else:
        keys = list(range(len(node)))
        keys = keys if len(keys) <= 4 else [*keys[:2], keys[-1]]
        slots += [(node, i) for i in keys] + [(node, None)]
    for key in keys:
        if isinstance(node[key], dict | list):
            slots += _slots(node[key])
    return slots


def _near_misses(value: object) -> list[object]:
    """Values close to ``value`` that a reader may wrongly take for it, or rightly: another
    type for the same number or text, the next numbers, bounds, an edited string, an array
    or object one item longer or shorter."""
    misses: list[object] = [None, [], {}, "x"]
    if isinstance(value, bool):
        misses += [int(value), not value, "true"]
    elif isinstance(value, int):
        misses += [True, False, float(value), value - 1, value + 1, -1, 0, 1, str(value)]
        misses += [float("nan"), float("-inf")]
        misses += [2, 8, 9, 64, 65, 100, 101, 4096, 4097, 2**53 - 1, 2**53]
    elif isinstance(value, float):
        misses += [float("nan"), float("inf"), -value, True, value + 100]
        misses += [int(value)] if math.isfinite(value) else []
    elif isinstance(value, str):
        misses += ["", value + "\n", value.upper(), value + "x", "x" * 201, 1, True]
        misses += ["none", "down", "sideways", "easy", "hardest", "levelgen", "12x8", "0x8"]
    elif isinstance(value, list):
        misses += [value[:-1], value + value[-1:], [value], value[:1] * 3] if value else [[1]]
    elif isinstance(value, dict):
        misses += [{k: v for k, v in value.items() if k != key} for key in value]
    return misses


def _single_changes(value: Any) -> Iterator[Any]:
    """Copies of ``value`` with one change: each place set to each of its near misses, and
    each object given each field name of the format with a plausible value."""
    for node, key in _slots(value):
        if key is None and isinstance(node, dict):
            changes = [(name, v) for name in _FIELD_NAMES for v in (1, True, "x", [], {})]
        elif key is None:
            changes = [(len(node), v) for v in _near_misses(node[-1] if node else 1)]
        else:
            changes = [(key, v) for v in _near_misses(node[key])]
        for place, new in changes:
            if isinstance(node, list) and place == len(node):
                node.append(new)
                yield value
                node.pop()
                continue
            original = node.get(place, _NONE) if isinstance(node, dict) else node[place]
            node[place] = new
            yield value
            if original is _NONE:
                del node[place]
            else:
                node[place] = original


_NONE = object()


def _mutate(value: Any, data: st.DataObject) -> None:
    """One random change at a random place of ``value`` (a JSON object): a value replaced
    (by a near miss, or any small JSON value), a field or an item removed, a field added, an
    item added (a copy of another)."""
    node, key = data.draw(st.sampled_from(_slots(value)))
    if key is None and isinstance(node, dict):
        node[data.draw(KEYS)] = data.draw(VALUES)
    elif key is None:
        if node:
            node.append(copy.deepcopy(node[data.draw(st.integers(0, len(node) - 1))]))
    elif data.draw(st.booleans()):
        del node[key]
    else:
        node[key] = data.draw(st.sampled_from(_near_misses(node[key])) | VALUES)


#: A classic file, a sliding one, both without solution, metrics and provenance, the rated,
#: the hand-made and the tiny one.
_SLIDING = next(i for i, base in enumerate(BASES) if "slide" in base["rules"])
SINGLE = [0, _SLIDING, FILES_CLASSIC, FILES_CLASSIC + _SLIDING, *range(len(BASES) - 3, len(BASES))]


@pytest.mark.parametrize("index", SINGLE)
def test_every_single_change_is_read_alike_or_left_to_the_models(index: int) -> None:
    """Each file changed in one place in every near-missing way: whatever the quick reader
    still accepts, the models read alike (and some changes keep the file valid)."""
    value = copy.deepcopy(BASES[index])
    accepted = sum(_same_as_models(changed) for changed in _single_changes(value))
    assert accepted > 0
    assert value == BASES[index]


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_what_the_quick_reader_accepts_the_models_read_alike(data: st.DataObject) -> None:
    value = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(value, data)
    _same_as_models(value)


def test_verify_of_a_classic_level_goes_without_pydantic(tmp_path: Path) -> None:
    """``levelgen verify`` reads a classic level without importing pydantic (its import and
    the models' build cost a tenth of a second), and still refuses a bad one with the models'
    pointers and reasons."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BASES[0]), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**BASES[0], "rules": {"max_turns": True, "outside": True}}))
    code, output, loaded = run_main(["verify", str(good)], ("pydantic",))
    assert code == 0 and loaded == [] and output.startswith(f"{good}: ok: solution replayed")
    code, output, loaded = run_main(["verify", str(bad)], ("pydantic",))
    assert code == 3 and "pydantic" in loaded
    assert f"{bad}: /rules/max_turns: expected an integer, got true\n" in output
