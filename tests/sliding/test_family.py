"""The family face: it is a :class:`levelgen.puzzles.Family`, registered under its game name;
describe, hint (the next move of the least optimal solution and the distance left, against
a plain breadth-first search), solve answers with JSON details, show, draw and the player's
assets."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.formats.scene import Group, Scene, Text, scene_to_svg
from levelgen.puzzles import Budget, Capability, Family, SpecError
from levelgen.sliding import FAMILY, bfs
from levelgen.sliding.level import SlidingLevel
from levelgen.sliding.rules import DIRECTIONS, Frame, apply_moves, frames_of

GOAL = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))


def _level(seed: int = 2, **values: object) -> SlidingLevel:
    level = FAMILY.create(FAMILY.parse_spec({"size": "3x3", "moves": 16, **values}), seed)
    assert isinstance(level, SlidingLevel)
    return level


def test_it_is_a_family_with_every_capability_but_shuffle() -> None:
    assert isinstance(FAMILY, Family)
    assert FAMILY.name == "sliding-puzzle"
    assert set(FAMILY.capabilities) >= set(Capability) - {
        Capability.SHUFFLE,
        Capability.FIX,
        Capability.FILL,
    }
    assert list(FAMILY.bands) == ["easy", "medium", "hard", "expert"]
    assert [o.name for o in FAMILY.create_options] == ["moves", "colors", "goal"]
    assert FAMILY.schemas["level"].generate()["$id"].endswith("sliding-puzzle:level:v1")


def test_describe() -> None:
    level = _level()
    assert FAMILY.describe(level) == "3x3 numbered, optimal 16 moves (medium)"
    colour = _level(colors=2, moves=12)
    assert FAMILY.describe(colour) == "3x3 colour (2 colours), optimal 12 moves (expert)"
    bare = SlidingLevel(level.start, level.goal, played="U" if level.start.can_move("U") else "L")
    assert FAMILY.describe(bare).endswith("no certificate, 1 played")


def test_hints_follow_the_least_optimal_solution() -> None:
    rng = random.Random(5)
    dist = bfs.distances_from(bytes(GOAL.cells), 3, 3)
    level = _level()
    frame = level.start
    played = ""
    for _ in range(12):
        here = SlidingLevel(level.start, level.goal, played=played)
        hint = FAMILY.hint(here, budget=Budget(), options={})
        assert hint.status == "ok"
        d = dist[bytes(frame.cells)]
        assert hint.details["distance"] == d
        if d == 0:
            assert hint.details["move"] is None
            break
        best = next(
            m for m in DIRECTIONS if frame.can_move(m) and dist[bytes(frame.move(m).cells)] == d - 1
        )
        assert hint.details["move"] == best
        assert hint.details["tile"] == frame.cells[frame.move(best).blank]
        json.dumps(hint.details)
        move = best if rng.random() < 0.7 else rng.choice([m for m, _ in frame.neighbours()])
        played += move
        frame = frame.move(move)
    extra = FAMILY.hint(level, budget=Budget(), options={"played": level.solution[:3]})
    assert extra.details["distance"] == 13


def test_hint_refuses_bad_places() -> None:
    level = _level()
    with pytest.raises(SpecError) as err:
        FAMILY.hint(level, budget=Budget(), options={"square": 3})
    assert err.value.option == "square"
    with pytest.raises(SpecError) as err:
        FAMILY.hint(level, budget=Budget(), options={"played": "UUUU"})
    assert err.value.option == "played"


def test_solve_answers() -> None:
    level = _level()
    bare = SlidingLevel(level.start, level.goal)
    answer = FAMILY.solve(bare, budget=Budget(), options={})
    assert answer.status == "solved"
    assert answer.document.solution == level.solution
    assert answer.document.metrics == level.metrics
    assert answer.details["optimal_length"] == 16 and answer.details["proved_optimal"]
    json.dumps(answer.details)
    swapped = SlidingLevel(Frame(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)), GOAL)
    answer = FAMILY.solve(swapped, budget=Budget(), options={})
    assert answer.status == "unsolvable" and answer.document is None
    assert answer.details["invariant"]["permutation_parity"] == "odd"
    hint = FAMILY.hint(swapped, budget=Budget(), options={})
    assert hint.status == "unsolvable"
    json.dumps(answer.details)


def test_difficulty_and_ramp() -> None:
    level = _level()
    # the score on the one scale (levelgen.sliding.rating): 16 moves on 3x3 is medium
    score, band = FAMILY.difficulty(level)
    assert band == "medium" and 12.5 <= score < 23
    assert FAMILY.difficulty(SlidingLevel(level.start, level.goal)) == (score, band)
    specs = FAMILY.ramp({"size": "3x3"}, 3, "easy", "expert")
    assert [s["moves"] for s in specs] == [4, 18, 31]  # the expert band reaches 31


def test_show_draw_and_player() -> None:
    level = _level(colors=3, moves=12)
    text = FAMILY.show(level, color=False, options={})[0]
    assert text.splitlines()[1].startswith("start") and "goal" in text
    assert "\x1b[" in FAMILY.show(level, color=True, options={})[0]
    assert "\x1b[" not in text
    scene = FAMILY.draw(level, cell_size=40, options={})
    assert isinstance(scene, Scene)
    svg = scene_to_svg(scene)
    assert svg.count('class="tile start"') == 8 and svg.count('class="tile goal"') == 8
    texts = [t for g in scene.items if isinstance(g, Group) for t in _texts(g)]
    assert {"A", "B", "C"} <= set(texts)
    numbered = FAMILY.draw(_level(), cell_size=30, options={})
    assert {str(i) for i in range(1, 9)} <= {
        t for g in numbered.items if isinstance(g, Group) for t in _texts(g)
    }
    assets = FAMILY.player(level, with_api=False)
    assert assets.data["distance"] == 12 and assets.data["numbered"] is False
    assert 'id="board"' in assets.body and 'id="hint"' in assets.body
    json.dumps(dict(assets.data))
    position = SlidingLevel(level.start, level.goal, played=level.solution[:2])
    assert FAMILY.player(position, with_api=True).data["distance"] is None
    assert FAMILY.show(position, color=False, options={})[0].splitlines()[1].startswith("now")


def _texts(group: Group) -> list[str]:
    out = []
    for item in group.items:
        if isinstance(item, Text):
            out.append(item.text)
        elif isinstance(item, Group):
            out.extend(_texts(item))
    return out


def test_read_dump_round_trip_and_positions() -> None:
    level = _level()
    data = FAMILY.dump(level)
    again = FAMILY.read(json.loads(json.dumps(data)))
    assert FAMILY.dump(again) == data
    data["played"] = level.solution[:5]
    position = FAMILY.read(data)
    assert position.frame_now() == apply_moves(level.start, level.solution[:5])
    assert FAMILY.hint(position, budget=Budget(), options={}).details["distance"] == 11


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.lists(st.sampled_from(DIRECTIONS), max_size=30), st.booleans())
def test_the_known_way_back_reaches_the_goal(seed: int, wander: list[str], current: bool) -> None:
    """From any position the file's moves lead to, back along them to the start and on along
    the certificate, no frame twice; with only ``current``, the certificate's rest when the
    frame is on its path."""
    level = _level(seed)
    assert level.solution is not None
    played = ""
    frame = level.start
    for move in wander:
        if frame.can_move(move):
            played += move
            frame = frame.move(move)
    known = SlidingLevel(level.start, level.goal, level.solution, played=played).known_solution()
    assert known is not None and apply_moves(frame, known) == level.goal
    assert len(known) <= len(played) + len(level.solution)
    along = frames_of(3, bytes(frame.cells), known)
    assert len(set(along)) == len(along)
    if current:
        at = SlidingLevel(level.start, level.goal, level.solution, current=frame)
        rest = at.known_solution()
        on_path = frames_of(3, bytes(level.start.cells), level.solution)
        if bytes(frame.cells) in on_path:
            assert rest is not None and level.solution.endswith(rest)
            assert apply_moves(frame, rest) == level.goal
        else:
            assert rest is None
        step = next(m for m in DIRECTIONS if frame.can_move(m))
        after = at.known_solution(step)
        if rest is not None:
            assert after is not None and apply_moves(frame.move(step), after) == level.goal


def test_no_known_way_without_a_certificate_that_replays() -> None:
    level = _level()
    assert level.solution is not None
    assert SlidingLevel(level.start, level.goal).known_solution() is None
    broken = SlidingLevel(level.start, level.goal, level.solution[:-1], played="")
    assert broken.known_solution() is None
    assert level.known_solution("X") is None


def test_a_hint_out_of_budget_offers_the_way_back_to_the_certificate() -> None:
    """The search stopped at once: the answer's solution is the way back along the moves
    played and on along the certificate, stated against the proved bound."""
    level = _level()
    assert level.solution is not None
    frame, played = level.start, ""
    for move in "UULLDDRRUL" * 2:
        if frame.can_move(move):
            frame, played = frame.move(move), played + move
    here = SlidingLevel(level.start, level.goal, level.solution, played=played)
    known = here.known_solution()
    assert known is not None
    hint = FAMILY.hint(here, budget=Budget(max_nodes=1), options={})
    assert hint.status == "unknown" and hint.details["move"] == known[0]
    assert hint.details["solution_length"] == len(known) < len(played) + len(level.solution)
    assert hint.details["lower_bound"] <= len(known)
    assert "the way back to the level's certificate" in hint.text
