"""The browser player's page: one self-contained HTML file around a family's player assets.

:func:`build_page` puts a family's :class:`levelgen.puzzles.PlayerAssets` (its script, style,
body and data) into one page with no external script, style sheet or font, and a Content
Security Policy that forbids every network request unless an API base is given.  With
``api_base`` (the service mounts the page at ``GET /play/{id}``) the page may call that API
(hints, shuffles).  The page is deterministic: the same assets and ``api_base`` give the same
bytes.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from ..puzzles import Capability, Family, PlayerAssets, require

__all__ = ["build_page", "build_player_html"]


def _script_json(value: object) -> str:
    """JSON safe inside ``<script>``: no ``<``, ``>`` or ``&`` that could end the element."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _connect_src(api_base: str | None) -> str:
    if api_base is None:
        return "'none'"
    parts = urlsplit(api_base)
    if parts.scheme in ("http", "https") and parts.netloc:
        if not re.fullmatch(
            r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?", parts.netloc
        ):
            raise ValueError(f"api_base {api_base!r}: not a plain host[:port]")
        return f"'self' {parts.scheme}://{parts.netloc}"
    if any(c in api_base for c in "\"'<>& ;"):
        raise ValueError(f"api_base {api_base!r}: not a plain path")
    return "'self'"


def build_page(assets: PlayerAssets, api_base: str | None = None) -> str:
    """The self-contained player page of a family's ``assets`` (see
    :class:`levelgen.puzzles.PlayerAssets`); with ``api_base`` (``""`` for the page's own origin,
    or a URL prefix) the page may call that API (``ValueError`` for an ``api_base`` with a user
    part, quotes or spaces).  Deterministic: the same assets and ``api_base``, the same bytes."""
    heading = html.escape(assets.title)
    policy = (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';"
        f" img-src data:; connect-src {_connect_src(api_base)}; base-uri 'none'; form-action 'none'"
    )
    data = {**assets.data, "apiBase": None if api_base is None else api_base.rstrip("/")}
    scripts = "".join(f"<script>\n{script}</script>\n" for script in assets.scripts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{heading}</title>\n"
        f"<style>\n{assets.style}</style>\n"
        "</head>\n<body>\n<main>\n"
        f"<h1>{heading}</h1>\n"
        f"{assets.body}"
        "</main>\n"
        f'<script type="application/json" id="levelgen-level">{_script_json(data)}</script>\n'
        f"{scripts}"
        "</body>\n</html>\n"
    )


def build_player_html(
    item: Family,
    document: Any,
    *,
    api_base: str | None = None,
    name: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> str:
    """The player page of ``document``, a level of the family ``item`` (its
    :meth:`~levelgen.puzzles.Family.player` assets in :func:`build_page`'s shell); ``name``
    and ``options`` as the family's ``player`` takes them, ``api_base`` as :func:`build_page`.
    :class:`~levelgen.puzzles.FamilyError` for a game without a player."""
    require(item, Capability.PLAY)
    with_api = api_base is not None
    if options:
        assets = item.player(document, with_api=with_api, name=name, options=options)
    else:
        assets = item.player(document, with_api=with_api, name=name)
    return build_page(assets, api_base)
