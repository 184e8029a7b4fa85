"""The snakes-and-ladders player in a real Chromium (Playwright driving Debian's ``chromium``;
no browser download): a seeded game of several tokens played to the end by pressing Roll,
every move replayed in Python by the family's own rules; the expected rolls shown are the
page's table; keyboard play; new games; no request leaves the page.

Skipped, with the reason, only when Playwright or a Chromium binary is missing here; with
``LEVELGEN_REQUIRE_BROWSER=1`` a missing browser is a failure instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from levelgen.formats import parse_json
from levelgen.ladders import FAMILY
from levelgen.ladders.chain import build_chain
from levelgen.player import build_page
from tests.browser import ORIGIN

ROOT = Path(__file__).resolve().parents[2]


def _open(page: Any, name: str) -> tuple[Any, list[str]]:
    level = FAMILY.read(parse_json((ROOT / "levels" / name).read_text(encoding="utf-8")))
    html = build_page(FAMILY.player(level, with_api=False))
    requests: list[str] = []

    def handle(route: Any) -> None:
        if route.request.url == ORIGIN + "/play":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        else:
            requests.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    page.goto(ORIGIN + "/play")
    return level, requests


def _replay(level: Any, players: int, rolls: list[int]) -> tuple[list[int], int]:
    chain = build_chain(level.board, level.rules)
    positions = [0] * players
    turn = 0
    for roll in rolls:
        positions[turn] = chain.after[positions[turn]][roll - 1]
        if positions[turn] == level.board.squares:
            return positions, turn
        turn = (turn + 1) % players
    return positions, -1


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("ladders_chutes_10x10.json", 3),
        ("ladders_bounce_10x10.json", 2),
        ("ladders_pass_d8_10x10.json", 6),
    ],
)
def test_a_seeded_game_to_the_end(page: Any, name: str, players: int) -> None:
    level, requests = _open(page, name)
    page.select_option("#players", str(players))
    page.evaluate("laddersPlayer.seed(12345)")
    page.click("#roll")  # one press as a person would, then the rest from the page's own loop
    page.evaluate(
        """() => { for (let i = 0; i < 5000 && document.body.dataset.status !== "won"; i++)
                     document.getElementById("roll").click(); }"""
    )
    assert page.get_attribute("body", "data-status") == "won"
    state = page.evaluate("laddersPlayer.state()")
    positions, winner = _replay(level, players, state["rolls"])
    assert state["positions"] == positions and state["won"] == winner
    assert page.get_attribute("body", "data-positions") == ",".join(map(str, positions))
    assert "wins" in page.text_content("#message")
    assert page.is_disabled("#roll")
    assert requests == []


def test_expected_rolls_left_and_keys(page: Any) -> None:
    level, requests = _open(page, "ladders_chutes_10x10.json")
    table = FAMILY.player(level, with_api=False).data["expected"]
    items = page.locator("#tokens li")
    assert items.count() == 2
    assert f"expected rolls left {table[0]:.2f}" in items.nth(0).text_content()
    page.evaluate("laddersPlayer.seed(7)")
    page.keyboard.press("r")
    page.keyboard.press("r")
    state = page.evaluate("laddersPlayer.state()")
    assert len(state["rolls"]) == 2
    for i, square in enumerate(state["positions"]):
        assert (
            f"square {square}, expected rolls left {table[square]:.2f}"
            in items.nth(i).text_content()
        )
    page.keyboard.press("n")
    assert page.evaluate("laddersPlayer.state()")["rolls"] == []
    assert page.get_attribute("body", "data-positions") == "0,0"
    # The same seed plays the same game.
    page.evaluate("laddersPlayer.seed(7)")
    page.keyboard.press("r")
    page.keyboard.press("r")
    assert page.evaluate("laddersPlayer.state()")["rolls"] == state["rolls"]
    assert requests == []
    assert page.locator("#board .snake").count() == 10
    assert page.locator("#board .ladder").count() == 9


def test_the_unseeded_die(page: Any) -> None:
    _open(page, "ladders_wide_16x6.json")
    page.select_option("#players", "1")
    for _ in range(30):
        if page.get_attribute("body", "data-status") == "won":
            break
        page.click("#roll")
    rolls = page.evaluate("laddersPlayer.state()")["rolls"]
    assert rolls and all(1 <= r <= 6 for r in rolls)


def test_snakes_are_curves_with_heads(page: Any, tmp_path: Path) -> None:
    level, requests = _open(page, "ladders_medium_10x10.json")
    snakes = page.locator("#board .snake")
    assert snakes.count() == len(level.board.snakes)
    for i in range(snakes.count()):
        paths = snakes.nth(i).locator("path")
        assert paths.count() == 8  # four narrowing pieces, each over its outline
        assert all(
            " C" in d or "C" in d
            for d in paths.evaluate_all("ps => ps.map(p => p.getAttribute('d'))")
        )
        assert snakes.nth(i).locator("circle").count() == 6  # the head and two eyes
    # The body narrows from head to tail.
    widths = (
        snakes.nth(0)
        .locator("path")
        .evaluate_all("ps => ps.map(p => parseFloat(p.getAttribute('stroke-width')))")
    )
    assert widths[4:] == sorted(widths[4:], reverse=True) and widths[4] > widths[7]
    shot = tmp_path / "board.png"
    page.locator("#board").screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert requests == []
