"""Pictures of levels: ``terminal`` (the coloured text of ``levelgen show``) today; SVG, PNG
and pack sheets join it.  Re-exports the terminal renderer's names."""

from __future__ import annotations

from ..linkup.draw.terminal import format_summary, render_board, use_color

__all__ = ["format_summary", "render_board", "use_color"]
