"""The player page of any family's document: the family's assets in the generic shell."""

from __future__ import annotations

import json

import pytest

from levelgen import family
from levelgen.player import build_page, build_player_html
from levelgen.puzzles import FamilyError
from tests import ROOT
from tests.family_counting import COUNTING, Counting


@pytest.mark.parametrize(
    "name", ["classic_12x8.json", "sliding_3x3_numbered.json", "ladders_chutes_10x10.json"]
)
def test_the_page_of_each_game(name: str) -> None:
    data = json.loads((ROOT / "levels" / name).read_text(encoding="utf-8"))
    item = family(data["game"])
    document = item.read(data)
    page = build_player_html(item, document, name=name)
    assets = item.player(document, with_api=False, name=name)
    assert page == build_page(assets) and f"<title>{assets.title}</title>" in page
    served = build_player_html(item, document, api_base="")
    assert "connect-src 'self'" in served and "connect-src 'none'" in page


def test_a_game_without_a_player_is_refused() -> None:
    with pytest.raises(FamilyError, match="'counting' has no play operation"):
        build_player_html(COUNTING, Counting(1, 5))
