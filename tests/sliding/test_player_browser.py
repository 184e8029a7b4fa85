"""The sliding-puzzle player in a real Chromium (Playwright driving Debian's ``chromium``; no
browser download), the page built by :func:`levelgen.player.build_page` around
``FAMILY.player``: the page's own search gives the optimal distance and the least optimal
solution a plain breadth-first search and the Python solver give, on random small boards; a
3x3 level is played to the end by clicking along its certificate with the distance left
counting down; arrow keys, undo, restart and local hints; no request at all without an API
base; with one, a 4x4 position too far for the page is settled by ``POST /v1/hint`` (answered
here by ``page.route`` with the family's own hint).

Skipped, with the reason, only when Playwright or a Chromium binary is missing here; with
``LEVELGEN_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing browser is a failure instead.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from levelgen.formats import parse_json
from levelgen.player import build_page
from levelgen.puzzles import Budget
from levelgen.sliding import FAMILY, bfs, solver
from levelgen.sliding.level import SlidingLevel
from levelgen.sliding.rules import Frame
from tests.browser import ORIGIN

ROOT = Path(__file__).resolve().parents[2]


def _level(name: str) -> SlidingLevel:
    path = ROOT / "levels" / name
    level = FAMILY.read(parse_json(path.read_text(encoding="utf-8"), str(path)))
    assert isinstance(level, SlidingLevel)
    return level


def _open(page: Any, level: SlidingLevel, api_base: str | None = None) -> list[str]:
    """Serve the level's page and record every other request it makes."""
    html = build_page(FAMILY.player(level, with_api=api_base is not None), api_base)
    requests: list[str] = []

    def handle(route: Any) -> None:
        if route.request.url == ORIGIN + "/play":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        else:
            requests.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    page.goto(ORIGIN + "/play")
    return requests


def _state(page: Any) -> tuple[str, int, str]:
    return tuple(
        page.evaluate(
            "() => [document.body.dataset.status, +document.body.dataset.moves,"
            " document.body.dataset.distance]"
        )
    )


def _click_move(page: Any, frame: Frame, move: str) -> Frame:
    after = frame.move(move)
    page.click(f'#board [data-cell="{after.blank}"]')
    return after


BOARDS = [(3, 3, None), (3, 2, None), (2, 4, None), (3, 3, 2), (4, 3, 3), (3, 3, 3), (4, 2, 2)]


@pytest.mark.parametrize(("width", "height", "colors"), BOARDS)
def test_the_page_search_agrees_with_bfs_and_the_solver(
    page: Any, width: int, height: int, colors: int | None
) -> None:
    """The page's bound never passes the true distance and its search finds the solver's
    least optimal solution, on random frames of random goals of the board."""
    rng = random.Random(width * 100 + height * 10 + (colors or 0))
    n = width * height
    labels = list(range(n)) if colors is None else [0] + [1 + i % colors for i in range(n - 1)]
    for _ in range(2):
        rng.shuffle(labels)
        goal = Frame(width, height, tuple(labels))
        page.set_content(build_page(FAMILY.player(SlidingLevel(goal, goal), with_api=False)))
        frames = []
        for _ in range(15):
            frame = goal
            for _ in range(rng.randint(0, 40)):
                frame = frame.move(rng.choice([d for d, _ in frame.neighbours()]))
            frames.append(frame)
        answers = page.evaluate(
            "fs => fs.map(f => [window.levelgenPlayer.solveLocal(f),"
            " window.levelgenPlayer.bound(f)])",
            [list(f.cells) for f in frames],
        )
        for frame, (path, bound) in zip(frames, answers, strict=True):
            d = bfs.plain_distance(bytes(frame.cells), bytes(goal.cells), width, height)
            assert d is not None and bound <= d
            assert path == solver.solve(frame, goal).path


def test_a_level_played_to_the_end_by_clicks(page: Any) -> None:
    level = _level("sliding_3x3_numbered.json")
    assert level.solution is not None and level.metrics is not None
    requests = _open(page, level)
    assert _state(page) == ("playing", 0, str(level.metrics.optimal_length))
    frame = level.start
    for i, move in enumerate(level.solution):
        frame = _click_move(page, frame, move)
        _, moves, distance = _state(page)
        assert moves == i + 1
        assert distance == str(len(level.solution) - i - 1)
    assert _state(page)[0] == "won"
    assert f"Solved in {len(level.solution)} moves" in page.text_content("#message")
    assert page.evaluate("() => window.levelgenPlayer.cells") == list(level.goal.cells)
    assert requests == []


def test_keys_undo_restart_and_local_hints(page: Any) -> None:
    level = _level("sliding_3x4_colour_2.json")
    assert level.metrics is not None
    requests = _open(page, level)
    dist = bfs.distances_from(bytes(level.goal.cells), level.width, level.height)
    frame = level.start
    keys = {"R": "ArrowLeft", "L": "ArrowRight", "D": "ArrowUp", "U": "ArrowDown"}
    rng = random.Random(3)
    for _ in range(6):
        move = rng.choice([d for d, _ in frame.neighbours()])
        page.keyboard.press(keys[move])
        frame = frame.move(move)
        assert _state(page)[2] == str(dist[bytes(frame.cells)])
    assert page.evaluate("() => window.levelgenPlayer.cells") == list(frame.cells)
    page.keyboard.press("u")
    assert _state(page)[1] == 5
    page.click("#undo")
    assert _state(page)[1] == 4
    page.click("#hint")
    expected = FAMILY.hint(
        SlidingLevel(level.start, level.goal, current=_frame(page, level)),
        budget=Budget(),
        options={},
    )
    hinted = page.eval_on_selector("#board .hint", "e => +e.dataset.cell")
    now = _frame(page, level)
    assert hinted == now.move(expected.details["move"]).blank
    assert "Hint" in page.text_content("#message")
    page.click("#restart")
    assert _state(page) == ("playing", 0, str(level.metrics.optimal_length))
    page.click(f'#board [data-cell="{(level.start.blank + 5) % level.start.size}"]')
    assert _state(page)[1] in (0, 1)  # a far tile is refused, a neighbour slides
    assert requests == []


def _frame(page: Any, level: SlidingLevel) -> Frame:
    return Frame(
        level.width, level.height, tuple(page.evaluate("() => window.levelgenPlayer.cells"))
    )


def test_a_position_too_far_for_the_page_asks_the_api(page: Any) -> None:
    level = _level("sliding_4x4_numbered_40.json")
    assets = FAMILY.player(level, with_api=True)
    # A page whose search gives up at once: everything beyond the known start goes to the API.
    data = {**assets.data, "nodeCap": 10, "hintNodes": 10}
    html = build_page(dataclasses.replace(assets, data=data), "")
    bodies: list[Any] = []

    def handle(route: Any) -> None:
        request = route.request
        if request.url == ORIGIN + "/play":
            route.fulfill(status=200, content_type="text/html", body=html)
            return
        assert request.method == "POST" and request.url == ORIGIN + "/v1/hint"
        body = json.loads(request.post_data or "null")
        bodies.append(body)
        answer = FAMILY.hint(FAMILY.read(body), budget=Budget(), options={})
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps(
                {"status": answer.status, "text": answer.text, "details": dict(answer.details)}
            ),
        )

    page.route("**/*", handle)
    page.goto(ORIGIN + "/play")
    assert _state(page)[2] == "40"
    frame = level.start
    assert level.solution is not None
    wrong = next(d for d, _ in frame.neighbours() if d != level.solution[0])
    frame = _click_move(page, frame, wrong)
    assert _state(page)[2] == ""  # unknown: the page's search gave up
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#board .hint') !== null")
    assert bodies, "the page asked the API"
    sent = FAMILY.read(bodies[-1])
    assert sent.frame_now() == frame
    expected = FAMILY.hint(sent, budget=Budget(), options={})
    assert _state(page)[2] == str(expected.details["distance"])
    assert (
        page.eval_on_selector("#board .hint", "e => +e.dataset.cell")
        == frame.move(expected.details["move"]).blank
    )


def _hint_off_the_path(page: Any, level: SlidingLevel) -> tuple[Frame, Any]:
    """Play one move off the level's certificate and ask for a hint: the frame and the
    family's own hint there."""
    assert level.solution is not None
    frame = level.start
    wrong = next(d for d, _ in frame.neighbours() if d != level.solution[0])
    frame = _click_move(page, frame, wrong)
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#board .hint') !== null")
    return frame, FAMILY.hint(SlidingLevel(frame, level.goal), budget=Budget(), options={})


@pytest.mark.parametrize("name", ["sliding_3x3_numbered.json", "sliding_4x4_numbered_40.json"])
def test_an_optimal_hint_off_the_path_without_the_network(page: Any, name: str) -> None:
    """A move off the optimal path, then a hint: the family's optimal move and distance,
    worked out by the page alone (the whole space on 3x3, IDA* on 4x4)."""
    level = _level(name)
    requests = _open(page, level)
    frame, expected = _hint_off_the_path(page, level)
    assert expected.status == "ok"
    hinted = page.eval_on_selector("#board .hint", "e => +e.dataset.cell")
    assert hinted == frame.move(expected.details["move"]).blank
    assert _state(page)[2] == str(expected.details["distance"])
    assert f"{expected.details['distance']} moves left" in page.text_content("#message")
    assert requests == []


def test_a_hint_beyond_the_page_search_follows_a_known_solution(page: Any) -> None:
    """When the page's search gives up and there is no service, the hint is the first move of
    the shortest solution the page knows (back onto the certificate), marked with its length
    and the proved lower bound."""
    level = _level("sliding_4x4_numbered_40.json")
    assets = FAMILY.player(level, with_api=False)
    data = {**assets.data, "nodeCap": 10, "hintNodes": 10}
    requests: list[str] = []

    def handle(route: Any) -> None:
        if route.request.url == ORIGIN + "/play":
            html = build_page(dataclasses.replace(assets, data=data), None)
            route.fulfill(status=200, content_type="text/html", body=html)
        else:
            requests.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    page.goto(ORIGIN + "/play")
    assert level.solution is not None
    frame = level.start
    wrong = next(d for d, _ in frame.neighbours() if d != level.solution[0])
    frame = _click_move(page, frame, wrong)
    page.click("#hint")
    hinted = page.eval_on_selector("#board .hint", "e => +e.dataset.cell")
    assert hinted == level.start.blank  # undo the move: back onto the certificate
    text = page.text_content("#message")
    assert "a solution of 41 moves" in text
    bound = int(text.split("at least ")[1].split(" ")[0])
    assert bound <= 41 and bound >= 2
    assert _state(page)[2] == ""
    assert requests == []


def test_the_page_hint_search_agrees_with_the_solver_on_4x4(page: Any) -> None:
    """The page's fast IDA* (numbered boards) finds the solver's least optimal solution."""
    level = _level("sliding_4x4_numbered_40.json")
    page.set_content(build_page(FAMILY.player(level, with_api=False)))
    rng = random.Random(7)
    frames = []
    for _ in range(6):
        frame = level.goal
        for _ in range(rng.randint(10, 40)):
            frame = frame.move(rng.choice([d for d, _ in frame.neighbours()]))
        frames.append(frame)
    answers = page.evaluate(
        "fs => fs.map(f => window.levelgenPlayer.hintSolve(f))", [list(f.cells) for f in frames]
    )
    for frame, answer in zip(frames, answers, strict=True):
        assert answer["path"] == solver.solve(frame, level.goal).path
