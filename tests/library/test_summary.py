"""The library's rows come from each family's summary (:meth:`levelgen.puzzles.Family.summary`):
Link-up's rules, layers, tiles and kinds; nothing of those for a game without them (FamilyBase's
default, read from the dumped file, with the family's difficulty); an older library gets the
``facts`` column filled from its stored files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from levelgen.library import LevelFilter, Store
from levelgen.puzzles import Budget, _loaded, family, register
from tests import ROOT
from tests.family_counting import COUNTING


@pytest.fixture
def counting() -> Iterator[None]:
    register(COUNTING)
    try:
        yield
    finally:
        _loaded.pop(COUNTING.name, None)


def _linkup(seed: int = 3) -> dict[str, object]:
    item = family("linkup")
    return item.dump(item.create(item.parse_spec({"size": "6x4", "max_turns": 1}), seed))


def test_a_game_without_rules_is_stored_through_the_default_summary(
    tmp_path: Path, counting: None
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lib.db'}")
    item = family("counting")
    solved = item.solve(
        item.read({"game": "counting", "start": 3, "goal": 20}), budget=Budget(), options={}
    )
    data = item.dump(solved.document)
    summary, created = store.put_level(data)
    assert created
    assert summary["game"] == "counting" and summary["size"] == ""
    assert [summary[k] for k in ("rules", "layers", "tiles", "kinds")] == [None] * 4
    score, band = item.difficulty(solved.document)
    assert summary["difficulty"] == {"score": score, "band": band} and summary["solved"]
    assert store.list_levels(LevelFilter(game="counting")) == [summary]
    store.close()


def test_linkup_rows_keep_their_rules_and_only_a_recorded_difficulty(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lib.db'}")
    summary, _ = store.put_level(_linkup())
    assert summary["rules"] == {"max_turns": 1, "outside": True, "slide": "none"}
    assert summary["layers"] == 1 and summary["tiles"] == 24 and summary["difficulty"] is None
    assert store.list_levels(LevelFilter(max_turns=1)) == [summary]
    store.close()


def test_an_older_library_gets_its_facts_column_filled(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    store = Store(url)
    sliding = json.loads((ROOT / "levels" / "sliding_3x3_numbered.json").read_text())
    before = [store.put_level(_linkup())[0], store.put_level(sliding)[0]]
    with store.engine.begin() as connection:
        connection.execute(text("ALTER TABLE levels DROP COLUMN facts"))
    store.close()
    again = Store(url)
    with again.engine.connect() as connection:
        facts = connection.execute(text("SELECT facts FROM levels")).scalars().all()
    assert None not in facts
    assert sorted(again.list_levels(LevelFilter()), key=lambda s: s["game"]) == before
    again.close()
