"""The shipped levels (``levels/*.json``), one test case per file.

Each file must validate against the checked-in JSON Schema with an independent validator
(jsonschema, draft 2020-12), load, carry a solution that replays, have metrics that match its
solution, be written canonically, and, when made by this version of levelgen, come out
byte-identical when generated again from its recorded seed and parameters.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from levelgen import __version__
from levelgen.linkup.core.geometry import parse_size
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.difficulty import solution_metrics
from levelgen.linkup.files import format_level, read_level
from levelgen.linkup.generate.generator import GENERATOR_NAME, generate
from levelgen.linkup.generate.variants import parse_layers_layout
from levelgen.linkup.schema import level_problems
from levelgen.linkup.verify import replay
from tests import ROOT, level_files

SCHEMA = json.loads((ROOT / "schemas" / "level.v1.schema.json").read_text(encoding="utf-8"))
LEVEL_FILES = level_files("linkup")


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


@pytest.mark.parametrize("path", LEVEL_FILES, ids=[p.name for p in LEVEL_FILES])
def test_level_file(path: Path, validator: jsonschema.Draft202012Validator) -> None:
    text = path.read_text(encoding="utf-8")
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(json.loads(text))]
    assert errors == []

    file = read_level(path)
    assert level_problems(file) == []
    assert text == format_level(file), "not canonical: rewrite it with levelgen"
    level = file.to_core()
    assert level.solution is not None, "a shipped level carries its solution"
    assert replay(level.board, level.rules, level.solution) == []
    assert level.metrics is not None
    measured = solution_metrics(level.board, level.rules, level.solution)
    assert (level.metrics.start_moves, level.metrics.mean_moves) == (
        measured.start_moves,
        measured.mean_moves,
    )
    assert level.metrics.turn_histogram == measured.turn_histogram

    generator = level.generator
    if generator is None or generator.name != GENERATOR_NAME or generator.version != __version__:
        return
    params = generator.parameters
    layout = params.get("layout")
    again = generate(
        parse_size(str(params["size"])),
        kinds=params.get("kinds"),
        copies=params.get("copies", 4),
        rules=Rules(
            params.get("max_turns", 2), params.get("outside", True), params.get("slide", "none")
        ),
        layout=parse_layers_layout("\n".join(layout)) if isinstance(layout, list) else None,
        seed=generator.seed,
        symmetry=params.get("symmetry"),  # type: ignore[arg-type]
        shape=params.get("shape"),  # type: ignore[arg-type]
    )
    assert format_level(again) == text, "not reproducible from its seed and parameters"
