"""``levelgen render``, ``levelgen play`` and ``levelgen export``: pictures of levels and packs,
the browser player, and exports for game engines.  Thin commands over :mod:`levelgen.render`,
:mod:`levelgen.player` and :mod:`levelgen.export`."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Annotated

import typer

from .common import EXIT_INVALID, EXIT_UNREADABLE, app, core, fail, load, show_problems

if TYPE_CHECKING:
    from ..board import Board
    from ..level import Level
    from ..paths import Path

NoClobberOption = Annotated[
    bool, typer.Option("--no-clobber", help="Refuse to overwrite an existing output file.")
]
CellSizeOption = Annotated[
    int,
    typer.Option("--cell-size", min=4, max=256, help="Pixels per cell.", metavar="PX"),
]


def write_output(data: bytes, output: str, *, no_clobber: bool) -> None:
    """Write ``data`` to ``output`` atomically, or exit 3 saying why it could not."""
    from ..storage import WriteError, write_bytes

    try:
        write_bytes(data, output, clobber=not no_clobber)
    except WriteError as exc:
        fail(EXIT_UNREADABLE, f"levelgen: {exc}")


def _suffix(output: str, allowed: tuple[str, ...]) -> str:
    suffix = FilePath(output).suffix.lower()
    if suffix not in allowed:
        raise typer.BadParameter(
            f"{output!r} must end in {', '.join(allowed)}", param_hint="'-o' / '--output'"
        )
    return suffix


def position_at_step(source: str, level: Level, step: int) -> tuple[Board, Path]:
    """The board before solution step ``step`` and that step's path; exit 2 for a step out of
    range, exit 1 when the solution breaks before it."""
    from ..verify import replay

    solution = level.solution or ()
    if not solution:
        raise typer.BadParameter(f"{source} has no solution to step through", param_hint="'--step'")
    if not 0 <= step < len(solution):
        raise typer.BadParameter(
            f"{step} is not in 0..{len(solution) - 1} (the solution has {len(solution)} steps)",
            param_hint="'--step'",
        )
    problems = [
        p for p in replay(level.board, level.rules, solution[:step]) if p.pointer != "/solution"
    ]
    if problems:
        show_problems(source, problems)
        raise typer.Exit(EXIT_INVALID)
    board = level.board.without(*(p for move in solution[:step] for p in (move.a, move.b)))
    return board, solution[step].path


def _render_pack(folder: str, output: str, no_clobber: bool) -> None:
    from ..render.sheet import PackError, read_pack, sheet_html, sheet_scene
    from ..storage import ReadError

    suffix = _suffix(output, (".png", ".svg", ".html"))
    try:
        entries = read_pack(folder)
    except PackError as exc:
        show_problems(exc.source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    except ReadError as exc:
        show_problems(exc.source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    title = FilePath(folder).resolve().name
    if suffix == ".html":
        data = sheet_html(entries, title=title).encode("utf-8")
    else:
        data = _picture(sheet_scene(entries, title=title), suffix)
    write_output(data, output, no_clobber=no_clobber)


def _picture(scene: object, suffix: str) -> bytes:
    from ..render.svg import Scene, scene_to_svg

    assert isinstance(scene, Scene)
    if suffix == ".svg":
        return scene_to_svg(scene).encode("utf-8")
    from ..render.png import scene_to_png

    return scene_to_png(scene)


@app.command()
def render(
    source: Annotated[
        str,
        typer.Argument(
            help="A level file ('-': standard input), or a pack directory for a sheet.",
            metavar="FILE|PACK_DIR",
        ),
    ],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            help="The picture: .svg or .png (a pack: .png, .svg or .html).",
            metavar="OUT",
        ),
    ],
    step: Annotated[
        int | None,
        typer.Option(
            help="The board before solution step N (counted from 0) with that step's path.",
            metavar="N",
        ),
    ] = None,
    path: Annotated[
        bool | None,
        typer.Option(
            "--path/--no-path",
            help="Draw the path of the step (default: with --step; --path alone: step 0).",
        ),
    ] = None,
    cell_size: CellSizeOption = 32,
    no_clobber: NoClobberOption = False,
) -> None:
    """Draw a level as SVG or PNG, or a pack directory as a sheet of thumbnails in play order
    under the plot of its difficulty.

    Exit codes: 0 written; 1 invalid level (or its solution breaks before step N); 2 bad
    option; 3 unreadable input or output not written.
    """
    from ..render.svg import board_scene

    if source != "-" and FilePath(source).is_dir():
        if step is not None or path:
            raise typer.BadParameter("a pack sheet has no steps", param_hint="'--step' / '--path'")
        _render_pack(source, output, no_clobber)
        return
    suffix = _suffix(output, (".svg", ".png"))
    level = core(source, load(source), strict=False)
    board, drawn = level.board, None
    if step is not None or path:
        board, drawn = position_at_step(source, level, step or 0)
        if path is False:
            drawn = None
    scene = board_scene(board, level.rules, path=drawn, cell_size=cell_size)
    write_output(_picture(scene, suffix), output, no_clobber=no_clobber)
