"""The family object as the edges see it: the protocol, capabilities, options, and the
pictures (terminal, scene, SVG and PNG), all JSON-serialisable where they are data."""

from __future__ import annotations

import json
from pathlib import Path

from levelgen.formats import parse_json
from levelgen.formats.scene import Group, Line, scene_to_svg
from levelgen.ladders import FAMILY
from levelgen.ladders.files import Level, parse_level
from levelgen.player import build_page
from levelgen.puzzles import Budget, Capability, Family, family_of, register

ROOT = Path(__file__).resolve().parents[2]


def _level(name: str = "ladders_chutes_10x10.json") -> Level:
    return parse_level(parse_json((ROOT / "levels" / name).read_text(encoding="utf-8")))


def test_the_protocol() -> None:
    assert isinstance(FAMILY, Family)
    register(FAMILY)  # as the registry will hold it: found by a file's game
    assert (
        family_of(parse_json((ROOT / "levels" / "ladders_chutes_10x10.json").read_text())) is FAMILY
    )
    assert FAMILY.name == "snakes-ladders"
    assert FAMILY.capabilities >= frozenset(Capability) - {
        Capability.SHUFFLE,
        Capability.FIX,
        Capability.FILL,
    }
    assert list(FAMILY.bands) == ["easy", "medium", "hard", "expert"]
    names = {o.name for o in FAMILY.create_options}
    assert names == {
        "snakes",
        "ladders",
        "expected",
        "fewest",
        "faces",
        "overshoot",
        "final_snakes",
        "ladder_crossings",
        "snake_crossings",
        "max_length",
        "shared_ends",
        "thirds",
    }
    assert all(o.metavar and o.help.endswith(".") for o in FAMILY.create_options)
    assert (
        FAMILY.schemas["level"].generate()["$id"] == "urn:levelgen:schema:snakes-ladders:level:v1"
    )


def test_describe_and_difficulty() -> None:
    level = _level()
    assert FAMILY.describe(level) == (
        "10x10, 10 snakes, 9 ladders, d6 exact, expected 39.23 rolls, fewest 7"
    )
    # the score on the one scale (levelgen.ladders.rating): 39.2 rolls on 10x10 is medium
    score, band = FAMILY.difficulty(level)
    assert band == "medium" and 12.5 <= score < 23
    bare = Level(level.board, level.rules)
    assert FAMILY.difficulty(bare) == (score, band)
    assert "not analysed" in FAMILY.describe(bare)


def test_details_are_json() -> None:
    level = _level()
    for details in (
        FAMILY.verify(level, prove=True, budget=Budget()).details,
        FAMILY.solve(level, budget=Budget()).details,
        FAMILY.hint(level, budget=Budget(), options={"square": 12}).details,
    ):
        json.dumps(details, allow_nan=False)


def test_show() -> None:
    level = _level()
    plain, _ = FAMILY.show(level, color=False)
    lines = plain.splitlines()
    assert lines[1].split()[0] == "100" and lines[10].split()[0] == "1^"
    assert "80^" in lines[3] and "98v" in lines[1]
    assert "\x1b[" not in plain
    assert "\x1b[31m" in FAMILY.show(level, color=True)[0]
    assert "expected 39.2251 rolls" in plain
    # Milton Bradley's board breaks the layout rules of generated boards: said, not refused.
    _, warnings = FAMILY.show(level, color=False)
    assert warnings == [
        "warning: the jump 28 -> 84 is 7.2 rows long (at most 5) (a layout rule of generated"
        " boards; the board is still valid)",
        "warning: the jump 87 -> 24 is 6.7 rows long (at most 5) (a layout rule of generated"
        " boards; the board is still valid)",
        "warning: 10 pairs of a snake and a jump cross (at most 2) (a layout rule of generated"
        " boards; the board is still valid)",
    ]
    assert FAMILY.verify(level, prove=False, budget=Budget()).status == "ok"
    generated = _level("ladders_medium_10x10.json")
    assert FAMILY.show(generated, color=False)[1] == []


def test_draw_has_board_jumps_and_plot() -> None:
    level = _level()
    scene = FAMILY.draw(level, cell_size=40)
    groups = [s for s in scene.items if isinstance(s, Group)]
    kinds = [dict(g.attrs).get("class") for g in groups]
    assert kinds.count("ladder") == 9 and kinds.count("snake") == 10
    assert kinds.count("distribution") == 1
    assert scene.width == 440 and scene.height > 440
    svg = scene_to_svg(scene)
    assert svg.count('class="snake"') == 10 and ">100<" in svg
    assert scene_to_svg(FAMILY.draw(level, cell_size=40)) == svg
    bare = FAMILY.draw(Level(level.board, level.rules), cell_size=40)
    assert bare.height == 440
    jumps = [g for g in groups if dict(g.attrs).get("class") in ("ladder", "snake")]
    assert all(isinstance(s, Line) for g in jumps for s in g.items)


def test_png() -> None:
    from levelgen.render.png import scene_to_png

    data = scene_to_png(FAMILY.draw(_level("ladders_wide_16x6.json"), cell_size=32))
    assert data.startswith(b"\x89PNG")


def test_player_assets() -> None:
    level = _level()
    assets = FAMILY.player(level, with_api=False)
    json.dumps(assets.data, allow_nan=False)
    table = assets.data["expected"]
    assert len(table) == 101 and table[100] == 0.0 and table[80] == 0.0
    assert abs(table[0] - 39.22512230823496) < 1e-12
    assert table[1] == table[38]  # the foot of a ladder: from its top
    page = build_page(assets)
    assert page == build_page(FAMILY.player(level, with_api=False))
    assert "laddersPlayer" in page and "connect-src 'none'" in page


def test_options_as_a_later_protocol_passes_them() -> None:
    import pytest

    from levelgen.puzzles import SpecError

    level = _level()
    hint = FAMILY.hint(level, budget=Budget(), options={"square": 47, "within": 20})
    assert hint.details["rests_on"] == 26 and hint.details["within"] == 20
    assert FAMILY.solve(level, budget=Budget(), options={}).status == "solved"
    assert FAMILY.verify(level, prove=False, budget=Budget(), options={}).status == "ok"
    for call in (
        lambda: FAMILY.solve(level, budget=Budget(), options={"method": "x"}),
        lambda: FAMILY.draw(level, cell_size=30, options={"step": 3}),
        lambda: FAMILY.show(level, color=False, options={"step": 3}),
    ):
        with pytest.raises(SpecError):
            call()
    named = FAMILY.player(level, with_api=False, name="chutes.json")
    assert named.title == "Snakes and ladders 10x10: chutes.json"
