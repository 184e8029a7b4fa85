"""``levelgen render``, ``levelgen play`` and ``levelgen export``: pictures of levels and packs,
the browser player, and exports for game engines.  Thin commands over :mod:`levelgen.render`,
:mod:`levelgen.player` and :mod:`levelgen.export`."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..formats.words import plural
from .common import (
    EXIT_UNREADABLE,
    EXIT_USAGE,
    app,
    document_of,
    fail,
    family_options,
    require,
    run_operation,
    show_problems,
    write_data,
)

if TYPE_CHECKING:
    from ..formats.grid import ExportGrid, ExportTile
    from ..puzzles import Family
    from ..render.sheet import SheetEntry

NoClobberOption = Annotated[
    bool, typer.Option("--no-clobber", help="Refuse to overwrite an existing output file.")
]
CellSizeOption = Annotated[
    int,
    typer.Option("--cell-size", min=4, max=256, help="Pixels per cell.", metavar="PX"),
]


TilesOption = Annotated[
    str | None,
    typer.Option(
        "--tiles",
        help="Link-up: what the tiles show: pictures (the built-in set, the default), glyphs"
        " (letters and digits on colours), or a folder of the studio's images, one a kind"
        " named by its number (1.png, 2.svg, ...; PNG, JPEG or SVG).",
        metavar="pictures|glyphs|FOLDER",
    ),
]
ImageOption = Annotated[
    str | None,
    typer.Option(
        "--image",
        help="Sliding puzzle (numbered): a PNG or JPEG picture cut into the tiles; the goal"
        " shows the whole picture.",
        metavar="FILE",
    ),
]
NumbersOption = Annotated[
    bool | None,
    typer.Option(
        "--numbers/--no-numbers",
        help="With --image: show each tile's number on its part of the picture (default: no).",
    ),
]


def _picture_options(
    tiles: str | None, image: str | None, numbers: bool | None
) -> dict[str, object]:
    """The family options of --tiles, --image and --numbers, their files read and checked
    (exit 3 with one line naming the option for a file that cannot be used)."""
    from ..render.images import ImageFileError, read_image, read_numbered_images

    options: dict[str, object] = {}
    if tiles is not None:
        try:
            options["tiles"] = (
                tiles if tiles in ("pictures", "glyphs") else read_numbered_images(tiles)
            )
        except ImageFileError as exc:
            fail(EXIT_UNREADABLE, f"levelgen: --tiles {exc.where}: {exc.reason}")
    if image is not None:
        try:
            options["image"] = read_image(image)
        except ImageFileError as exc:
            fail(EXIT_UNREADABLE, f"levelgen: --image {exc.where}: {exc.reason}")
    if numbers is not None:
        options["numbers"] = numbers
    return options


def _suffix(output: str, allowed: tuple[str, ...]) -> str:
    suffix = FilePath(output).suffix.lower()
    if suffix not in allowed:
        raise typer.BadParameter(
            f"{output!r} must end in {', '.join(allowed)}", param_hint="'-o' / '--output'"
        )
    return suffix


def _read_level(source: str, command: str) -> tuple[Family, Any]:
    """The family and document of the level file ``source``, as :func:`read_document` reads
    them; a pack's manifest is refused in one line (exit 3) that says what it is."""
    from ..formats import ReadError, read_json
    from ..formats.manifest import PACK_MANIFEST, is_pack_manifest

    try:
        data = read_json(source)
    except ReadError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    if is_pack_manifest(data):
        fail(EXIT_UNREADABLE, f"{source}: {PACK_MANIFEST}: {command} the pack's directory")
    return document_of(source, data)


def _read_pack(folder: str) -> list[SheetEntry]:
    """The levels of a pack directory; exit 3 with the problems when it cannot be read."""
    from ..formats import ReadError
    from ..render.sheet import PackError, read_pack

    try:
        return read_pack(folder)
    except (PackError, ReadError) as exc:
        show_problems(exc.source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None


def _render_pack(folder: str, output: str, no_clobber: bool) -> None:
    from ..render.sheet import PackError, sheet_html, sheet_scene

    suffix = _suffix(output, (".png", ".svg", ".html"))
    entries = _read_pack(folder)
    title = FilePath(folder).resolve().name
    try:
        if suffix == ".html":
            data = sheet_html(entries, title=title).encode("utf-8")
        else:
            data = _picture(sheet_scene(entries, title=title), suffix, sheet=True)
    except PackError as exc:  # a level its family cannot draw
        show_problems(exc.source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    write_data(data, output, no_clobber=no_clobber)


def _picture(scene: object, suffix: str, *, sheet: bool = False) -> bytes:
    from ..formats.scene import Scene, scene_to_svg
    from ..render.png import MAX_PIXELS

    assert isinstance(scene, Scene)
    if scene.width * scene.height > MAX_PIXELS:
        too_big = f"the picture would be {scene.width}x{scene.height} pixels, more than" + (
            f" {MAX_PIXELS // 1_000_000} million: "
        )
        if sheet:
            raise typer.BadParameter(too_big + "write the sheet as .html", param_hint="'-o'")
        raise typer.BadParameter(too_big + "choose a smaller cell size", param_hint="'--cell-size'")
    if suffix == ".svg":
        return scene_to_svg(scene).encode("utf-8")
    from ..render.png import PictureError, scene_to_png

    try:
        return scene_to_png(scene)
    except PictureError as exc:
        raise typer.BadParameter(f"{exc}, or write .svg", param_hint="'--tiles'") from None


@app.command()
def render(
    source: Annotated[
        str,
        typer.Argument(
            help="A level file ('-': standard input), a position file (its current board), or"
            " a pack directory for a sheet.",
            metavar="FILE|PACK_DIR",
        ),
    ],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            help="The picture: .svg or .png (a pack: .png, .svg or .html); an existing file is"
            " replaced (see --no-clobber).",
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
    tiles: TilesOption = None,
    image: ImageOption = None,
    numbers: NumbersOption = None,
    no_clobber: NoClobberOption = False,
) -> None:
    """Draw a level as SVG or PNG, or a pack directory as a sheet of thumbnails in play order
    under the plot of its difficulty.

    Link-up tiles show the built-in pictures unless --tiles says otherwise; a numbered
    sliding puzzle becomes a picture puzzle with --image.  Exit codes: 0 written; 1 invalid
    level (or its solution breaks before step N); 2 bad option (an option the level's game
    does not take, a kind the --tiles folder lacks); 3 unreadable input (a --tiles or --image
    file too) or output not written.
    """
    from ..puzzles import Capability

    if source != "-" and FilePath(source).is_dir():
        if step is not None or path:
            raise typer.BadParameter("a pack sheet has no steps", param_hint="'--step' / '--path'")
        if tiles is not None or image is not None or numbers is not None:
            raise typer.BadParameter(
                "a pack sheet draws thumbnails only", param_hint="'--tiles' / '--image'"
            )
        _render_pack(source, output, no_clobber)
        return
    suffix = _suffix(output, (".svg", ".png"))
    family, document = _read_level(source, "render")
    require(family, Capability.DRAW, source)
    options = family_options(step=step, path=path) | _picture_options(tiles, image, numbers)
    scene = run_operation(
        source, lambda: family.draw(document, cell_size=cell_size, options=options)
    )
    write_data(_picture(scene, suffix), output, no_clobber=no_clobber)


# ----- export ----------------------------------------------------------------------------------


class ExportFormat(StrEnum):
    """What ``levelgen export`` writes."""

    tiled = "tiled"
    csv = "csv"
    json_grid = "json-grid"


_SUFFIXES = {
    ExportFormat.tiled: (".tmj", ".json"),
    ExportFormat.csv: (".csv",),
    ExportFormat.json_grid: (".json",),
}


def _json_bytes(data: object) -> bytes:
    return (json.dumps(data, indent=2) + "\n").encode("utf-8")


#: What exports the levels that a flat grid cannot hold.
_TILED_INSTEAD = "--format tiled exports it"


def _grid_of(family: Family, document: Any, source: str, form: ExportFormat) -> ExportGrid:
    """The family's export grid of ``document``: exit 2 in one line for a game without
    export, or a level the flat ``form`` cannot hold."""
    from ..puzzles import Capability

    require(family, Capability.EXPORT, source)
    grid = run_operation(source, lambda: family.export_grid(document, options={}))
    if form is not ExportFormat.tiled and grid.grid is None:
        where = grid.no_grid.pointer if grid.no_grid else "/"
        reason = grid.no_grid.message if grid.no_grid else "no flat grid holds the level"
        fail(
            EXIT_USAGE,
            f"{source}: {where}: export --format {form.value}: {reason}; {_TILED_INSTEAD}",
        )
    return grid


def _export_files(
    grid: ExportGrid,
    form: ExportFormat,
    name: str,
    *,
    tileset: str,
    level_file: str | None,
    gids: list[int] | None = None,
) -> tuple[str, bytes]:
    """(file name, bytes) of one level's export."""
    from ..export import grid_csv, grid_json, map_data

    if form is ExportFormat.csv:
        return name, grid_csv(grid).encode("utf-8")
    if form is ExportFormat.json_grid:
        return name, grid_json(grid).encode("utf-8")
    data = map_data(grid, tileset=tileset, level_file=level_file, gids=gids)
    return name, _json_bytes(data)


def _tileset_files(stem: str, tiles: list[ExportTile], tile_size: int) -> list[tuple[str, bytes]]:
    from ..export import tileset_data, tileset_png

    data = tileset_data(tiles, image=f"{stem}.png", tile_size=tile_size)
    png = tileset_png(tiles, tile_size=tile_size)
    return [(f"{stem}.png", png), (f"{stem}.tsj", _json_bytes(data))]


def _write_all(
    folder: FilePath, files: list[tuple[str, bytes]], no_clobber: bool, legend: str = ""
) -> None:
    """Write every file into ``folder`` under the rules of ``-o`` (``--no-clobber`` checked
    for all before any is written), then say on standard error which were written (and for a
    flat grid what its numbers mean)."""
    if no_clobber:
        for name, _ in files:
            if (folder / name).exists():
                fail(EXIT_UNREADABLE, f"levelgen: {folder / name} exists (--no-clobber)")
    for name, data in files:  # the tileset first, the maps that name it last
        write_data(data, str(folder / name), no_clobber=no_clobber)
    names = [str(folder / name) for name, _ in files]
    if len(names) > 4:
        names = [*names[:3], f"... and {len(names) - 3} more in {folder}"]
    line = f"levelgen export: wrote {plural(len(files), 'file')}: {', '.join(names)}"
    typer.echo(line + (f" (cells: {legend})" if legend else ""), err=True)


@app.command()
def export(
    source: Annotated[
        str,
        typer.Argument(
            help="A level file ('-': standard input) or a pack directory.",
            metavar="FILE|PACK_DIR",
        ),
    ],
    form: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            help="tiled (a Tiled .tmj map, and beside it its tileset OUT.tileset.tsj and"
            " OUT.tileset.png, under the same rules as OUT), csv (one line"
            " per board row) or json-grid (the grid, the id and the game's rules).",
        ),
    ],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            help="The file to write (a pack: the directory to write into); an existing file is"
            " replaced (see --no-clobber).  The files written are listed on standard error.",
            metavar="OUT",
        ),
    ],
    no_clobber: NoClobberOption = False,
) -> None:
    """Export a level, or every level of a pack, for game engines (Link-up, sliding puzzles,
    snakes and ladders).

    Tiled maps hold the game's tile layers (Link-up: the board, gid 0 a hole, 1 a wall,
    k + 1 kind k; sliding puzzle: the start and the hidden goal, gid the tile's label;
    snakes and ladders: the squares, gid the square's number, and the jumps as polylines)
    with the level's id and rules as map properties; a pack's maps share one tileset.
    Link-up levels whose tiles slide (--slide) or stack in layers export to Tiled only.
    Exit codes: 0 written; 1 invalid level; 2 bad option, a game without export, or a format
    the level cannot have (csv or json-grid of such a level); 3 unreadable input or output
    not written.
    """
    if source != "-" and FilePath(source).is_dir():
        _export_pack(source, form, FilePath(output), no_clobber)
        return
    family, document = _read_level(source, "export")
    grid = _grid_of(family, document, source, form)
    out = FilePath(output)
    if output == "-" or out.is_dir() or output.endswith(("/", "\\")):
        raise typer.BadParameter(f"{output!r} must name a file", param_hint="'-o' / '--output'")
    _suffix(output, _SUFFIXES[form])
    # The tileset beside the map is named after it, with a part no other command's output
    # has (level.tileset.png, not level.png: perhaps the level's own picture).
    stem = f"{out.stem}.tileset"
    files = [_export_files(grid, form, out.name, tileset=f"{stem}.tsj", level_file=None)]
    if form is ExportFormat.tiled:
        files = _tileset_files(stem, list(grid.tiles), grid.tile_size) + files
    legend = "" if form is ExportFormat.tiled else grid.legend
    _write_all(out.parent, files, no_clobber, legend)


def _export_pack(folder: str, form: ExportFormat, out: FilePath, no_clobber: bool) -> None:
    from ..export import shared_tiles

    entries = _read_pack(folder)
    grids = [_grid_of(e.family, e.document, e.source, form) for e in entries]
    sizes = sorted({grid.tile_size for grid in grids})
    if form is ExportFormat.tiled and len(sizes) > 1:
        fail(EXIT_USAGE, f"{folder}: tiles of {sizes} pixels cannot share one tileset")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(EXIT_UNREADABLE, f"levelgen: cannot make {out}: {exc.strerror or exc}")
    files: list[tuple[str, bytes]] = []
    gids: list[list[int] | None] = [None] * len(grids)
    if form is ExportFormat.tiled:
        tiles, shared = shared_tiles(grids)
        files += _tileset_files("tileset", tiles, sizes[0])
        gids = list(shared)
    suffix = {ExportFormat.tiled: ".tmj", ExportFormat.csv: ".csv"}.get(form, ".json")
    for entry, grid, mine in zip(entries, grids, gids, strict=True):
        name = FilePath(entry.file).stem + suffix
        files.append(
            _export_files(grid, form, name, tileset="tileset.tsj", level_file=entry.file, gids=mine)
        )
    legends = {grid.legend for grid in grids}
    legend = "" if form is ExportFormat.tiled or len(legends) > 1 else legends.pop()
    _write_all(out, files, no_clobber, legend)


# ----- play ------------------------------------------------------------------------------------


@app.command()
def play(
    source: Annotated[
        str, typer.Argument(help="A level file ('-': standard input).", metavar="FILE")
    ],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            help="The page to write (.html); an existing file is replaced (see --no-clobber).",
            metavar="OUT",
        ),
    ],
    api_base: Annotated[
        str | None,
        typer.Option(
            "--api-base",
            help="URL of a levelgen service: the page then offers safe hints and the solvable"
            " shuffle through its API (without it the page makes no network request).",
            metavar="URL",
        ),
    ] = None,
    tiles: TilesOption = None,
    image: ImageOption = None,
    numbers: NumbersOption = None,
    no_clobber: NoClobberOption = False,
) -> None:
    """Write a self-contained HTML page that plays the level in a browser: click or tap two
    tiles, undo, restart, counters, show the solution; keyboard playable.  Pictures
    (--tiles, --image) are embedded in the page: it makes no request for them.

    Exit codes: 0 written; 1 invalid level; 2 bad option (an option the level's game does
    not take, a kind the --tiles folder lacks); 3 unreadable input (a --tiles or --image file
    too) or output not written.
    """
    from ..player import build_page
    from ..puzzles import Capability

    _suffix(output, (".html", ".htm"))
    if api_base is not None and not api_base.startswith(("http://", "https://", "/")):
        raise typer.BadParameter(
            f"{api_base!r} must be an http(s) URL or a path starting with /",
            param_hint="'--api-base'",
        )
    family, document = _read_level(source, "play")
    require(family, Capability.PLAY, source)
    name = "" if source == "-" else FilePath(source).name
    with_api = api_base is not None
    options = _picture_options(tiles, image, numbers)
    if options:
        assets = run_operation(
            source,
            lambda: family.player(document, with_api=with_api, name=name, options=options),
        )
    else:
        assets = run_operation(
            source, lambda: family.player(document, with_api=with_api, name=name)
        )
    try:
        page = build_page(assets, api_base)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--api-base'") from None
    write_data(page.encode("utf-8"), output, no_clobber=no_clobber)
