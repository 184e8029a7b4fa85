"""The Link-up player page of a core level, with the player's own knobs (``title``,
``replay_ms``) that the family's ``player`` operation does not take."""

from __future__ import annotations

from levelgen.linkup.core.level import Level
from levelgen.linkup.draw.player import REPLAY_MS, player_assets
from levelgen.player import build_page


def build_player_html(
    level: Level, *, api_base: str | None = None, title: str = "", replay_ms: int | None = None
) -> str:
    assets = player_assets(
        level,
        with_api=api_base is not None,
        title=title,
        replay_ms=REPLAY_MS if replay_ms is None else replay_ms,
    )
    return build_page(assets, api_base)
