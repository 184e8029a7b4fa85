"""The level editor's page: the shell every family's editor runs in, served at ``/edit/{game}``.

The page is :func:`levelgen.player.build_page`'s self-contained shell (no external resource;
its Content Security Policy lets it call only the service that served it) around:

- the shell's toolbar (undo and redo, open a file or a stored level, download the level with
  its certificate, save it to the library with the API key when the service has one), the
  links to the other games' editors, and the verdict panel;
- the family's part (:meth:`levelgen.puzzles.Family.editor`): its controls and board, its
  style and its script.

The family's script registers itself with ``LevelgenEditor.register`` (``editor.js``).  After
every change the shell asks it for the document, keeps it for undo, and after a short debounce
lets it check the document through the service's public API (``/v1/solve``, ``/v1/rate``,
``/v1/hint``...); the answer of the latest change alone is shown (older answers are dropped),
with a spinner when it takes longer than a moment.  The time from the change to its verdict is
shown on the page (``#latency``) and kept in ``LevelgenEditor.latencies()``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from ..puzzles import Capability, Family, PlayerAssets, require
from . import build_page

__all__ = ["build_editor_html", "editor_games"]


def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def editor_games(items: Sequence[Family]) -> list[tuple[str, str]]:
    """``(name, title)`` of each family with an editor, in the order given."""
    return [(item.name, item.title) for item in items if Capability.EDIT in item.capabilities]


def _toolbar(game: str, games: Sequence[tuple[str, str]]) -> str:
    links = "".join(
        f'<a href="{html.escape(name)}"'
        + (' aria-current="page"' if name == game else "")
        + f">{html.escape(title)}</a>"
        for name, title in games
    )
    return (
        f'<nav id="games" aria-label="Editors">{links}</nav>\n'
        '<div id="toolbar" class="bar">\n'
        '  <button id="undo" type="button" title="Ctrl+Z" disabled>Undo</button>\n'
        '  <button id="redo" type="button" title="Ctrl+Shift+Z" disabled>Redo</button>\n'
        '  <label class="file">Open file <input id="open-file" type="file"'
        ' accept=".json,application/json"></label>\n'
        '  <span class="group"><input id="level-id" placeholder="stored level id (sha256:…)"'
        ' aria-label="Stored level id" spellcheck="false">'
        '<button id="open-stored" type="button">Open stored</button></span>\n'
        '  <button id="download" type="button">Download JSON</button>\n'
        '  <span class="group"><input id="api-key" type="password" placeholder="API key"'
        ' aria-label="API key (when the service has one)" autocomplete="off">'
        '<button id="save" type="button">Save to library</button></span>\n'
        "</div>\n"
    )


_PANEL = (
    '<aside id="panel">\n'
    '  <div id="verdict" data-state="pending" role="status" aria-live="polite">'
    '<span class="spinner" aria-hidden="true"></span><b id="verdict-text">checking…</b></div>\n'
    '  <p class="meta">Checked by the service in <span id="latency">-</span>'
    " after the change.</p>\n"
    '  <div id="details"></div>\n'
    '  <p id="message" role="status"></p>\n'
    "</aside>\n"
)


def build_editor_html(
    item: Family,
    document: Any | None = None,
    *,
    games: Sequence[tuple[str, str]] = (),
    api_base: str = "",
) -> str:
    """The editor page of the family ``item`` (:class:`~levelgen.puzzles.FamilyError` for a
    game without :attr:`~levelgen.puzzles.Capability.EDIT`), opened on ``document`` (the
    family's parsed level) or a new level; ``games``: ``(name, title)`` of the editors to link
    (:func:`editor_games`); ``api_base``: the service's URL prefix (``""``: the page's own
    origin), the only address the page may call.  Deterministic: same inputs, same bytes."""
    require(item, Capability.EDIT)
    part = item.editor(document)
    dumped = None if document is None else item.dump(document)
    listed = list(games) or [(item.name, item.title)]
    data: dict[str, Any] = {
        "game": item.name,
        "title": item.title,
        "games": [name for name, _ in listed],
        "document": dumped,
        "family": dict(part.data),
    }
    body = (
        _toolbar(item.name, listed)
        + '<div id="workbench">\n<section id="family">\n'
        + part.body
        + "</section>\n"
        + _PANEL
        + "</div>\n"
    )
    assets = PlayerAssets(
        title=part.title,
        body=body,
        style=_asset("editor.css") + part.style,
        scripts=(_asset("editor.js"), *part.scripts),
        data=data,
    )
    return build_page(assets, api_base)
