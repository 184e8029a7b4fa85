"""The player in a real Chromium (Playwright driving Debian's ``chromium``; no browser
download): the JavaScript path rule agrees with ``levelgen.linkup.core.paths.find_path`` on
thousands of random queries (answer, turns, length and exact corner points) and with ``legal_moves``
on whole boards; a whole 12x8 level is played to the end by clicking along its certificate; an
illegal pair is refused with its reason; undo and restart restore; keyboard play; the solution
replay; the page makes no request; with an API base, hints and shuffles go through the API
(answered here by ``page.route``).

Skipped, with the reason, only when Playwright or a Chromium binary is missing here; with
``LEVELGEN_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing browser is a failure instead.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.moves import legal_moves
from levelgen.linkup.core.paths import find_path
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.draw.player import player_asset
from levelgen.linkup.files import read_level
from tests import ROOT
from tests.browser import ORIGIN
from tests.linkup.draw.pages import build_player_html

LEVEL = ROOT / "levels" / "classic_12x8.json"


def _serve(page: Any, html: str, path: str = "/play/level") -> list[str]:
    """Answer ``ORIGIN + path`` with ``html`` and record every other request the page makes."""
    requests: list[str] = []

    def handle(route: Any) -> None:
        url = route.request.url
        if url == ORIGIN + path:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        else:
            requests.append(url)
            route.abort()

    page.route("**/*", handle)
    page.goto(ORIGIN + path)
    return requests


def _random_queries(rng: random.Random, n: int) -> list[dict[str, Any]]:
    queries = []
    while len(queries) < n:
        w, h = rng.randint(1, 12), rng.randint(1, 8)
        holes, walls, kinds = rng.random() * 0.7, rng.random() * 0.15, rng.randint(1, 3)
        grid = [
            [
                0 if rng.random() < holes else -1 if rng.random() < walls else rng.randint(1, kinds)
                for _ in range(w)
            ]
            for _ in range(h)
        ]
        tiles = [(x, y) for y in range(h) for x in range(w) if grid[y][x] > 0]
        if len(tiles) < 2:
            continue
        board = Board.from_grid(grid)
        for _ in range(4):
            a, b = rng.sample(tiles, 2)
            mates = [t for t in tiles if t != a and grid[t[1]][t[0]] == grid[a[1]][a[0]]]
            if mates and rng.random() < 0.8:  # mostly pairs of one kind: paths to compare
                b = rng.choice(mates)
            rules = Rules(max_turns=rng.randint(0, 4), outside=rng.random() < 0.5)
            path = find_path(board, Pos(*a), Pos(*b), rules)
            want = None if path is None else [[[p.x, p.y] for p in path.corners], path.length]
            queries.append(
                {
                    "rows": grid,
                    "a": a,
                    "b": b,
                    "t": rules.max_turns,
                    "o": rules.outside,
                    "want": want,
                }
            )
    return queries


def test_js_path_rule_agrees_with_python(page: Any) -> None:
    queries = _random_queries(random.Random(20240519), 3000)
    page.set_content("<!DOCTYPE html><title>paths</title>")
    page.add_script_tag(content=player_asset("paths.js"))
    got = page.evaluate(
        """qs => qs.map(q => {
            const p = LinkupPaths.findPath(q.rows, q.a, q.b, q.t, q.o);
            return p === null ? null : [p.corners, p.length, p.turns];
        })""",
        [{k: v for k, v in q.items() if k != "want"} for q in queries],
    )
    linked = 0
    for query, answer in zip(queries, got, strict=True):
        want = query["want"]
        if want is None:
            assert answer is None, query
            continue
        linked += 1
        corners, length, turns = answer
        assert [corners, length] == want, query
        assert turns == len(want[0]) - 2
    assert linked > 1000  # the sample is not all refusals


def test_js_legal_pairs_agree_with_python(page: Any) -> None:
    rng = random.Random(77)
    boards = []
    for _ in range(120):
        w, h = rng.randint(2, 12), rng.randint(2, 8)
        grid = [
            [
                0 if rng.random() < 0.35 else -1 if rng.random() < 0.08 else rng.randint(1, 4)
                for _ in range(w)
            ]
            for _ in range(h)
        ]
        rules = Rules(max_turns=rng.randint(0, 3), outside=rng.random() < 0.5)
        pairs = sorted(
            sorted([[m.a.x, m.a.y], [m.b.x, m.b.y]], key=lambda p: (p[1], p[0]))
            for m in legal_moves(Board.from_grid(grid), rules)
        )
        boards.append({"rows": grid, "t": rules.max_turns, "o": rules.outside, "want": pairs})
    page.set_content("<!DOCTYPE html><title>pairs</title>")
    page.add_script_tag(content=player_asset("paths.js"))
    got = page.evaluate(
        "bs => bs.map(b => LinkupPaths.legalPairs(b.rows, b.t, b.o))",
        [{k: v for k, v in b.items() if k != "want"} for b in boards],
    )
    for board, pairs in zip(boards, got, strict=True):
        assert sorted(pairs) == board["want"], board


def _cell(x: int, y: int) -> str:
    return f'#board [data-x="{x}"][data-y="{y}"]'


def _status(page: Any) -> tuple[int, int, str]:
    data = page.evaluate("({...document.body.dataset})")
    return int(data["tiles"]), int(data["moves"]), data["status"]


def test_play_a_whole_level_by_clicking(page: Any, tmp_path: Path) -> None:
    level = read_level(LEVEL).to_core()
    assert level.solution is not None and (level.board.width, level.board.height) == (12, 8)
    requests = _serve(page, build_player_html(level))
    tiles, moves, status = _status(page)
    assert (tiles, moves, status) == (
        level.board.tile_count(),
        len(legal_moves(level.board, level.rules)),
        "playing",
    )

    # An illegal pair of different kinds is refused with its reason; nothing changes.
    first = level.solution[0]
    other = next(p for p in level.board.tiles() if level.board[p] != first.kind)
    page.click(_cell(*first.a))
    page.click(_cell(*other))
    assert "different kinds" in page.text_content("#message")
    assert _status(page)[0] == tiles
    # A same-kind pair with no path is refused naming the turns.
    blocked = next(
        (a, b)
        for a in level.board.tiles()
        for b in level.board.tiles()
        if a < b
        and level.board[a] == level.board[b]
        and find_path(level.board, a, b, level.rules) is None
    )
    page.click(_cell(*blocked[0]))
    page.click(_cell(*blocked[1]))
    assert "no path with at most 2 turns" in page.text_content("#message")
    assert page.evaluate("window.levelgenPlayer.grid") == level.board.grid()

    # A legal move, then undo restores the board.
    page.click(_cell(*first.a))
    page.click(_cell(*first.b))
    assert _status(page)[0] == tiles - 2
    page.click("#undo")
    assert page.evaluate("window.levelgenPlayer.grid") == level.board.grid()
    assert _status(page)[0] == tiles

    board = level.board
    for i, move in enumerate(level.solution):
        page.click(_cell(*move.a))
        page.click(_cell(*move.b))
        board = board.without(move.a, move.b)
        left, moves, status = _status(page)
        assert left == board.tile_count(), f"step {i}: {page.text_content('#message')}"
        if i == 0:
            drawn = page.get_attribute("#board .path", "data-corners")
            assert drawn == " ".join(f"{p.x},{p.y}" for p in move.path.corners)
        if i == len(level.solution) // 2:
            assert moves == len(legal_moves(board, level.rules))
            page.screenshot(path=str(tmp_path / "player.png"))
    assert _status(page) == (0, 0, "won")
    assert "Cleared" in page.text_content("#message")
    page.screenshot(path=str(tmp_path / "won.png"))
    assert (tmp_path / "player.png").stat().st_size > 1000
    page.click("#restart")
    assert page.evaluate("window.levelgenPlayer.grid") == level.board.grid()
    assert requests == []  # no network access at all


def test_keyboard_stuck_and_solution_replay(page: Any) -> None:
    # 1 1 / 2 3 / 3 2 without a ring and no turns: after removing the 1s the rest is stuck.
    level = read_level(LEVEL).to_core()
    small = Level(
        Board.from_grid([[1, 1, 0], [2, 3, 0], [3, 2, -1]]), Rules(max_turns=0, outside=False)
    )
    _serve(page, build_player_html(small))
    page.focus("#board")
    page.keyboard.press("Enter")  # the cursor starts at 0, 0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert _status(page) == (4, 0, "stuck")
    assert "Stuck" in page.text_content("#message")
    page.keyboard.press("u")
    assert _status(page)[0] == 6

    page.unroute("**/*")
    _serve(page, build_player_html(level, replay_ms=15), path="/play/replay")
    page.click("#solution")
    page.wait_for_selector("body[data-status='won']", timeout=20000)
    assert page.evaluate("window.levelgenPlayer.history.length") == len(level.solution or ())


def test_api_hint_and_shuffle(page: Any) -> None:
    from playwright.sync_api import expect

    level = read_level(LEVEL).to_core()
    move = legal_moves(level.board, level.rules)[3]
    shuffled = [list(reversed(row)) for row in reversed(level.board.grid())]
    bodies: list[dict[str, Any]] = []
    answers = iter(
        [
            (
                200,
                {
                    "status": "hint",
                    "move": {
                        "a": list(move.a),
                        "b": list(move.b),
                        "kind": move.kind,
                        "path": [list(p) for p in move.path.corners],
                    },
                    "solution": [],
                },
            ),
            (
                200,
                {
                    "board": {"width": 12, "height": 8, "rows": shuffled},
                    "solution": [],
                    "id": "sha256:x",
                },
            ),
            (503, {"detail": "busy"}),
            (200, {"status": "lost"}),
            (200, {"status": "undecided", "reason": "out of time"}),
        ]
    )
    html = build_player_html(level, api_base="")

    def handle(route: Any) -> None:
        request = route.request
        if request.url == ORIGIN + "/play/api":
            route.fulfill(status=200, content_type="text/html", body=html)
            return
        assert request.method == "POST" and request.url in (
            ORIGIN + "/v1/hint",
            ORIGIN + "/v1/shuffle",
        )
        bodies.append(json.loads(request.post_data or "null"))
        status, answer = next(answers)
        route.fulfill(status=status, content_type="application/json", body=json.dumps(answer))

    page.route("**/*", handle)
    page.goto(ORIGIN + "/play/api")
    page.click("#hint")
    page.wait_for_selector("#board .hint")
    hinted = page.eval_on_selector_all(
        "#board .hint", "es => es.map(e => [+e.dataset.x, +e.dataset.y])"
    )
    assert sorted(hinted) == sorted([list(move.a), list(move.b)])
    assert "Hint" in page.text_content("#message")
    assert bodies[0] == {
        "$schema": "urn:levelgen:schema:position:v1",
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": True},
        "board": {"width": 12, "height": 8, "rows": level.board.grid()},
    }
    page.click("#shuffle")
    expect(page.locator("#message")).to_contain_text("Shuffled")
    assert page.evaluate("window.levelgenPlayer.grid") == shuffled
    page.click("#undo")
    assert page.evaluate("window.levelgenPlayer.grid") == level.board.grid()
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("HTTP 503")
    assert "busy" in page.text_content("#message")
    page.keyboard.press("h")
    expect(page.locator("#message")).to_contain_text("No safe move")
    page.click("#shuffle")
    expect(page.locator("#message")).to_contain_text("no new board (undecided: out of time)")
    assert page.evaluate("window.levelgenPlayer.grid") == level.board.grid()
    assert len(bodies) == 5


# ----- the Onet variants: sliding tiles and stacked layers ------------------------------------

SLIDE_LEVEL = ROOT / "levels" / "slide_down_12x8.json"
LAYERS_LEVEL = ROOT / "levels" / "layers_turtle_12x8.json"


def test_js_slide_agrees_with_python(page: Any) -> None:
    """slide.js against ``levelgen.linkup.core.slide.slide_cells``: every rule, random boards with
    walls and holes (odd and even widths), tiles numbered by identity, random pairs removed in turn
    with a slide after each; every intermediate board is compared."""
    from levelgen.linkup.core.slide import SLIDE_DIRECTIONS, slide_cells

    assert len(SLIDE_DIRECTIONS) == 10
    rng = random.Random(2020)
    cases = []
    for k in range(300):
        rule = SLIDE_DIRECTIONS[k % len(SLIDE_DIRECTIONS)]
        w, h = rng.randint(1, 9), rng.randint(1, 7)
        holes, walls = rng.random() * 0.5, rng.random() * 0.25
        cells, ident = [], 0
        for _ in range(w * h):
            if rng.random() < walls:
                cells.append(-1)
            elif rng.random() < holes:
                cells.append(0)
            else:
                ident += 1
                cells.append(ident)
        removed, states, now = [], [], list(cells)
        while sum(1 for v in now if v > 0) >= 2 and len(removed) < 12:
            a, b = rng.sample([i for i, v in enumerate(now) if v > 0], 2)
            now[a] = now[b] = 0
            now = slide_cells(now, w, h, rule)
            removed.append([a, b])
            states.append(now)
        cases.append(
            {"cells": cells, "w": w, "h": h, "rule": rule, "removed": removed, "want": states}
        )
    page.set_content("<!DOCTYPE html><title>slide</title>")
    page.add_script_tag(content=player_asset("slide.js"))
    got = page.evaluate(
        """cs => cs.map(c => {
            let now = c.cells.slice();
            const out = [];
            for (const [a, b] of c.removed) {
                now[a] = 0; now[b] = 0;
                now = LinkupSlide.slideCells(now, c.w, c.h, c.rule);
                out.push(now);
            }
            return out;
        })""",
        [{k: v for k, v in c.items() if k != "want"} for c in cases],
    )
    moved = 0
    for case, states in zip(cases, got, strict=True):
        assert states == case["want"], case
        moved += sum(any(s[i] for i in r) for s, r in zip(states, case["removed"], strict=True))
    assert moved > 100  # tiles did slide into the removed cells


def _random_stacked(rng: random.Random) -> Board:
    w, h = rng.randint(1, 9), rng.randint(1, 7)
    kinds = rng.randint(1, 4)
    cells = [
        0 if rng.random() < 0.2 else -1 if rng.random() < 0.1 else rng.randint(1, kinds)
        for _ in range(w * h)
    ]
    upper: list[tuple[int, ...]] = []
    below = cells
    for _ in range(rng.randint(0, 3)):
        layer = tuple(
            rng.randint(1, kinds) if below[i] >= 1 and rng.random() < 0.5 else 0
            for i in range(w * h)
        )
        upper.append(layer)
        below = list(layer)
    return Board(w, h, tuple(cells), tuple(upper))


def _layers_of(board: Board) -> list[list[list[int]]]:
    w = board.width
    return [[list(lay[y * w : (y + 1) * w]) for y in range(board.height)] for lay in board.upper]


def test_js_layered_paths_agree_with_python(page: Any) -> None:
    """paths.js with layers against :class:`levelgen.linkup.core.layers.Stacks`: the best path of
    random pairs of top tiles (answer, length, corners) and the legal pairs of whole boards."""
    from levelgen.linkup.core.layers import Stacks

    rng = random.Random(515)
    queries: list[dict[str, Any]] = []
    boards: list[dict[str, Any]] = []
    flying = 0
    while len(queries) < 400:
        board = _random_stacked(rng)
        rules = Rules(max_turns=rng.randint(0, 3), outside=rng.random() < 0.5)
        stacks = Stacks.of(board, rules)
        common = {"rows": board.grid(), "layers": _layers_of(board)}
        common |= {"t": rules.max_turns, "o": rules.outside}
        if len(boards) < 100:
            pos = stacks.layout.pos
            pairs = sorted(
                sorted([list(pos(a)), list(pos(b))], key=lambda p: p[::-1])
                for a, b in stacks.legal_pairs()
            )
            boards.append({**common, "want": pairs})
        cells = [Pos(x, y) for y in range(board.height) for x in range(board.width)]
        tops = [p for p in cells if stacks.height(p) > 0]
        if len(tops) < 2:
            continue
        for _ in range(4):
            a, b = rng.sample(tops, 2)
            mates = [t for t in tops if t != a and stacks.top(t) == stacks.top(a)]
            if mates and rng.random() < 0.85:
                b = rng.choice(mates)
            path = stacks.find_path(a, b) if stacks.top(a) == stacks.top(b) else None
            want = None if path is None else [[[p.x, p.y] for p in path.corners], path.length]
            if path is not None and any(
                board.is_inside(c) and stacks.height(c) for c in path.cells()[1:-1]
            ):
                flying += 1  # the path flies over a lower stack
            queries.append({**common, "a": list(a), "b": list(b), "want": want})
    page.set_content("<!DOCTYPE html><title>layers</title>")
    page.add_script_tag(content=player_asset("paths.js"))
    got = page.evaluate(
        """qs => qs.map(q => {
            const p = LinkupPaths.findPath(q.rows, q.a, q.b, q.t, q.o, q.layers);
            return p === null ? null : [p.corners, p.length];
        })""",
        [{k: v for k, v in q.items() if k != "want"} for q in queries],
    )
    for query, answer in zip(queries, got, strict=True):
        assert answer == query["want"], query
    assert sum(1 for q in queries if q["want"]) > 100 and flying > 20
    pairs = page.evaluate(
        "bs => bs.map(b => LinkupPaths.legalPairs(b.rows, b.t, b.o, b.layers))",
        [{k: v for k, v in b.items() if k != "want"} for b in boards],
    )
    for board_case, found in zip(boards, pairs, strict=True):
        assert sorted(found) == board_case["want"], board_case


@pytest.mark.parametrize("path", [SLIDE_LEVEL, LAYERS_LEVEL], ids=["slide", "layers"])
def test_play_a_variant_level_by_clicking(page: Any, path: Path) -> None:
    """A whole variant level played by clicking its certificate (each step in the positions of
    its moment): after every move the page's board (rows and layers), tile count, legal move
    count and status are the Python state's."""
    from levelgen.linkup.core.variant_state import state_of
    from levelgen.linkup.schema.position import position_to_data

    level = read_level(path).to_core()
    assert level.solution is not None
    page.emulate_media(reduced_motion="reduce")  # no slide animation to wait for
    requests = _serve(page, build_player_html(level))
    state = state_of(level.board, level.rules)
    start = position_to_data(level.board, level.rules)["board"]
    assert _status(page) == (state.tile_count(), len(state.legal_pairs()), "playing")
    assert page.evaluate("window.levelgenPlayer.board") == start
    # Stacks show their height: a badge, the height in data-height and in the spoken label.
    heights = {
        (x, y): state.height(Pos(x, y)) if path == LAYERS_LEVEL else int(level.board[x, y] > 0)
        for y in range(level.board.height)
        for x in range(level.board.width)
    }
    assert page.locator("#board .badge").count() == sum(h > 1 for h in heights.values())
    (x, y), tallest = max(heights.items(), key=lambda item: item[1])
    assert page.get_attribute(_cell(x, y), "data-height") == str(tallest)
    label = page.get_attribute(_cell(x, y), "aria-label") or ""
    assert (f"stack of {tallest}" in label) == (path == LAYERS_LEVEL)
    first = level.solution[0]
    page.click(_cell(*first.a))
    page.click(_cell(*first.b))
    assert _status(page)[0] == state.tile_count() - 2
    # Tiles that slid are marked (and glide in unless the reader asked for reduced motion).
    assert (page.locator("#board .slid").count() > 0) == (path == SLIDE_LEVEL)
    page.click("#undo")
    assert page.evaluate("window.levelgenPlayer.board") == start
    # The first steps with the pointer, the rest by click events dispatched in the page (one
    # round trip: a real click costs tens of milliseconds of Playwright's checks each).
    real = 4
    for move in level.solution[:real]:
        page.click(_cell(*move.a))
        page.click(_cell(*move.b))
    assert page.evaluate("window.levelgenPlayer.history.length") == real
    boards = page.evaluate(
        """steps => steps.map(([a, b]) => {
            for (const [x, y] of [a, b]) {
                const tile = document.querySelector(`#board [data-x="${x}"][data-y="${y}"]`);
                tile.dispatchEvent(new MouseEvent("click", { bubbles: true }));
            }
            const d = document.body.dataset;
            return [window.levelgenPlayer.board, +d.tiles, +d.moves, d.status];
        })""",
        [[list(m.a), list(m.b)] for m in level.solution[real:]],
    )
    for i, move in enumerate(level.solution):
        state.remove_pair(move.a, move.b)
        if i < real:
            continue
        board, tiles, moves, status = boards[i - real]
        assert board == position_to_data(state.to_board(), level.rules)["board"], f"step {i}"
        left = state.tile_count()
        want_status = "playing" if left else "won"
        assert (tiles, moves, status) == (left, len(state.legal_pairs()), want_status), i
    assert _status(page) == (0, 0, "won")
    assert "Cleared" in page.text_content("#message")
    assert requests == []


@pytest.mark.parametrize(
    "path", [ROOT / "levels" / "slide_up-left_10x8.json", LAYERS_LEVEL], ids=["slide", "layers"]
)
def test_variant_replay_hint_and_shuffle_through_the_service(page: Any, path: Path) -> None:
    """The solution replay of a variant level (steps in the positions of their moment) wins;
    hint and shuffle requests are answered by the service's own tasks: the page sends the
    position as a position file with ``rules.slide`` / ``board.layers``, the service accepts
    it, the hinted move is legal in the page, and the shuffled board (layers included) plays to
    the end by its replayed certificate."""
    from playwright.sync_api import expect

    from levelgen.linkup.core.variant_state import state_of
    from levelgen.linkup.schema.position import position_to_data
    from levelgen.service.tasks import Limits, task_hint, task_shuffle

    level = read_level(path).to_core()
    assert level.solution is not None
    html = build_player_html(level, api_base="", replay_ms=5)
    bodies: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        request = route.request
        if request.url == ORIGIN + "/play/variant":
            route.fulfill(status=200, content_type="text/html", body=html)
            return
        body = request.post_data or ""
        bodies.append(json.loads(body))
        if request.url == ORIGIN + "/v1/hint":
            result = task_hint(body.encode(), Limits())
        else:
            assert request.url == ORIGIN + "/v1/shuffle"
            result = task_shuffle(body.encode(), Limits(), 7)
        assert result.status == 200, result.body
        answers.append(json.loads(result.body))
        route.fulfill(status=200, content_type="application/json", body=result.body)

    page.emulate_media(reduced_motion="reduce")
    page.route("**/*", handle)
    page.goto(ORIGIN + "/play/variant")
    page.click("#solution")
    page.wait_for_selector("body[data-status='won']", timeout=20000)
    assert page.evaluate("window.levelgenPlayer.history.length") == len(level.solution)
    page.click("#restart")

    state = state_of(level.board, level.rules)
    for move in level.solution[:3]:
        page.click(_cell(*move.a))
        page.click(_cell(*move.b))
        state.remove_pair(move.a, move.b)
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("Hint:")
    sent = position_to_data(state.to_board(), level.rules)
    assert bodies[-1] == sent
    assert ("slide" in sent["rules"]) == (path != LAYERS_LEVEL)
    assert ("layers" in sent["board"]) == (path == LAYERS_LEVEL)
    move = answers[-1]["move"]
    hinted = page.eval_on_selector_all(
        "#board .hint", "es => es.map(e => [+e.dataset.x, +e.dataset.y])"
    )
    assert sorted(hinted) == sorted([move["a"], move["b"]])
    page.click(_cell(*move["a"]))
    page.click(_cell(*move["b"]))
    state.remove_pair(Pos(*move["a"]), Pos(*move["b"]))
    before = position_to_data(state.to_board(), level.rules)["board"]
    assert page.evaluate("window.levelgenPlayer.board") == before

    page.click("#shuffle")
    expect(page.locator("#message")).to_contain_text("Shuffled")
    assert bodies[-1]["board"] == before
    shuffled = answers[-1]["level"]
    assert shuffled is not None and shuffled["board"] != before
    assert ("layers" in shuffled["board"]) == (path == LAYERS_LEVEL)
    assert page.evaluate("window.levelgenPlayer.board") == shuffled["board"]
    page.click("#undo")
    assert page.evaluate("window.levelgenPlayer.board") == before
    page.click("#shuffle")
    expect(page.locator("#message")).to_contain_text("Shuffled")
    page.click("#solution")  # the shuffled board's certificate, replayed in the page
    page.wait_for_selector("body[data-status='won']", timeout=20000)
    assert page.evaluate("window.levelgenPlayer.history.length") == len(shuffled["solution"])
