"""Pack sheets: every level of a pack as a thumbnail, in play order, under the difficulty ramp.

A designer looks at one picture and sees whether the pack climbs as intended: the plot on top
draws each level's difficulty score (0..100) against its place in the pack, and the thumbnails
below carry the place, file name, size, band and score, and the start of the level's id.

:func:`read_pack` reads a pack directory: its ``manifest.json`` (the pack format: a ``levels``
list in play order of ``{"file", "id", "size", "difficulty": {"score", "band"} | null,
"sha256"}``), checking each file's SHA-256 against the manifest; or, without a manifest, every
``*.json`` level file of the directory sorted by name, with the difficulty a file may carry in
``metrics.difficulty``.  :func:`sheet_scene` lays the sheet out as a scene (drawn as PNG or
SVG), :func:`sheet_html` wraps it with a table of the levels in one self-contained HTML page.
"""

from __future__ import annotations

import hashlib
import html
import math
from dataclasses import dataclass
from pathlib import Path

from ..formats import Problem, parse_json, read_bytes
from ..formats.scene import INK, Group, Line, Rect, Scene, Shape, Text, scene_to_svg
from ..linkup import Level, board_scene, read_level

__all__ = ["MANIFEST", "PackError", "SheetEntry", "read_pack", "sheet_html", "sheet_scene"]

MANIFEST = "manifest.json"
#: Colours of the difficulty bands in the plot (Okabe-Ito), unknown bands grey.
BAND_COLOURS = {"easy": "#009E73", "medium": "#E69F00", "hard": "#D55E00", "expert": "#CC79A7"}
THUMB_CELL = 10
COLUMNS = 4


class PackError(ValueError):
    """A pack that cannot be read: ``source`` (a file) and ``problems`` (pointer, reason)."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(f"{source}: " + "; ".join(str(p) for p in problems))


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One level of a pack: its file name, level, id, size and (when known) difficulty."""

    file: str
    level: Level
    id: str
    size: str
    score: float | None
    band: str | None


def _difficulty(value: object, source: str, pointer: str) -> tuple[float | None, str | None]:
    if value is None:
        return None, None
    if not isinstance(value, dict):
        raise PackError(source, [Problem(pointer, "must be an object or null")])
    score, band = value.get("score"), value.get("band")
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 100:
        raise PackError(source, [Problem(f"{pointer}/score", "must be a number in 0..100")])
    if not isinstance(band, str):
        raise PackError(source, [Problem(f"{pointer}/band", "must be a string")])
    return float(score), band


def _entry(folder: Path, name: str, difficulty: tuple[float | None, str | None]) -> SheetEntry:
    from ..linkup import content_id

    level = read_level(folder / name).to_core()
    size = f"{level.board.width}x{level.board.height}"
    return SheetEntry(name, level, content_id(level.board, level.rules), size, *difficulty)


def _plain_name(name: str) -> bool:
    """A file name in the pack directory itself (no folders, not hidden)."""
    return bool(name) and not name.startswith(".") and "/" not in name and "\\" not in name


def read_pack(folder: str | Path) -> list[SheetEntry]:
    """The levels of the pack directory ``folder`` in play order.  ``PackError`` for a broken
    manifest or a file that does not match it, ``ReadError`` for an unreadable level file."""
    folder = Path(folder)
    manifest = folder / MANIFEST
    if not manifest.exists():
        names = sorted(p.name for p in folder.glob("*.json") if p.is_file())
        if not names:
            raise PackError(str(folder), [Problem("", "no manifest.json and no level files")])
        entries = []
        for name in names:
            data = parse_json(read_bytes(folder / name).decode("utf-8", "replace"), name)
            metrics = data.get("metrics") if isinstance(data, dict) else None
            found = metrics.get("difficulty") if isinstance(metrics, dict) else None
            try:
                difficulty = _difficulty(found, str(folder / name), "/metrics/difficulty")
            except PackError:
                difficulty = (None, None)  # the level file's own check reports it
            entries.append(_entry(folder, name, difficulty))
        return entries
    source = str(manifest)
    data = parse_json(read_bytes(manifest).decode("utf-8", "replace"), source)
    levels = data.get("levels") if isinstance(data, dict) else None
    if not isinstance(levels, list) or not levels:
        raise PackError(source, [Problem("/levels", "must be a non-empty list")])
    entries = []
    for i, item in enumerate(levels):
        at = f"/levels/{i}"
        if not isinstance(item, dict):
            raise PackError(source, [Problem(at, "must be an object")])
        file_name = item.get("file")
        if not isinstance(file_name, str) or not _plain_name(file_name):
            raise PackError(source, [Problem(f"{at}/file", "must be a plain file name")])
        difficulty = _difficulty(item.get("difficulty"), source, f"{at}/difficulty")
        digest = item.get("sha256")
        if digest is not None:
            actual = hashlib.sha256(read_bytes(folder / file_name)).hexdigest()
            if digest != actual:
                raise PackError(source, [Problem(f"{at}/sha256", f"does not match {file_name}")])
        entry = _entry(folder, file_name, difficulty)
        if item.get("id") not in (None, entry.id):
            raise PackError(source, [Problem(f"{at}/id", f"is not the id of {file_name}")])
        entries.append(entry)
    return entries


def _plot(entries: list[SheetEntry], width: int, height: int) -> list[Shape]:
    """The difficulty ramp: score (0..100) against place in the pack."""
    left, top, right, bottom = 44, 28, width - 16, height - 26
    items: list[Shape] = [
        Text(left, 12, "difficulty along the pack", 13, INK, bold=True, anchor="start"),
    ]
    x = right
    for band, colour in reversed(BAND_COLOURS.items()):  # the legend, right-aligned
        items.append(Text(x, 12, band, 11, "#444444", anchor="end"))
        x -= 7 * len(band) + 6
        items.append(Rect(x - 9, 8, 8, 8, colour, stroke=INK, stroke_width=1, radius=4))
        x -= 22
    n = len(entries)

    def px(i: int) -> int:
        return left + (right - left) // 2 if n == 1 else left + (right - left) * i // (n - 1)

    def py(score: float) -> int:
        return bottom - round((bottom - top) * score / 100)

    for tick in (0, 25, 50, 75, 100):
        y = py(tick)
        items.append(Line(((left, y), (right, y)), "#DDDDDD" if tick else "#888888", 1))
        items.append(Text(left - 6, y, str(tick), 10, "#555555", anchor="end"))
    step = max(1, math.ceil(n / 20))
    for i in range(0, n, step):
        items.append(Text(px(i), bottom + 12, str(i + 1), 10, "#555555"))
    run: list[tuple[int, int]] = []
    for i, entry in enumerate([*entries, None]):
        if entry is not None and entry.score is not None:
            run.append((px(i), py(entry.score)))
            continue
        if len(run) > 1:  # a level without a difficulty breaks the line
            items.append(Line(tuple(run), "#0072B2", 2))
        run = []
    for i, entry in enumerate(entries):
        if entry.score is None:
            items.append(Text(px(i), bottom - 8, "?", 11, "#888888"))
            continue
        colour = BAND_COLOURS.get(entry.band or "", "#777777")
        x, y = px(i), py(entry.score)
        items.append(Rect(x - 4, y - 4, 8, 8, colour, stroke=INK, stroke_width=1, radius=4))
    return items


def _caption(index: int, entry: SheetEntry) -> tuple[str, str]:
    if entry.score is None:
        difficulty = "difficulty unknown"
    else:
        difficulty = f"{entry.band or '?'} {entry.score:.1f}"
    return f"{index + 1}. {entry.file}  {entry.size}", f"{difficulty}  {entry.id[7:19]}"


def sheet_scene(
    entries: list[SheetEntry], *, title: str = "", cell_size: int = THUMB_CELL
) -> Scene:
    """The sheet: the difficulty plot, then the thumbnails in rows of ``COLUMNS``."""
    if not entries:
        raise ValueError("a sheet needs at least one level")
    thumbs = []
    for e in entries:  # large boards get smaller cells: thumbnails stay about 200 pixels wide
        cells = max(4, min(cell_size, 200 // (max(e.level.board.width, e.level.board.height) + 2)))
        thumbs.append(board_scene(e.level.board, e.level.rules, cell_size=cells, labels=False))
    box_w = max(max(t.width for t in thumbs), 190) + 16
    box_h = max(t.height for t in thumbs) + 40
    columns = min(COLUMNS, len(entries))
    width = columns * box_w + 16
    plot_h = 170
    head = 30 if title else 0
    items: list[Shape] = []
    if title:
        items.append(Text(16, 18, title, 16, INK, bold=True, anchor="start"))
    items.append(Group(tuple(_plot(entries, width, plot_h)), dy=head))
    top = head + plot_h + 10
    rows = math.ceil(len(entries) / columns)
    for i, (entry, thumb) in enumerate(zip(entries, thumbs, strict=True)):
        x0 = 8 + (i % columns) * box_w
        y0 = top + (i // columns) * box_h
        first, second = _caption(i, entry)
        inner = (
            Rect(0, 0, box_w - 8, box_h - 8, "#FAFAFA", stroke="#CCCCCC", stroke_width=1),
            Group(thumb.items, dx=(box_w - 8 - thumb.width) // 2, dy=4),
            Text(8, box_h - 34, first, 11, INK, bold=True, anchor="start"),
            Text(8, box_h - 18, second, 10, "#444444", anchor="start"),
        )
        attrs = (("class", "level"), ("data-index", str(i)), ("data-file", entry.file))
        items.append(Group(inner, dx=x0, dy=y0, attrs=attrs))
    height = top + rows * box_h + 8
    return Scene(width, height, tuple(items), title=title or "levelgen pack sheet")


def sheet_html(entries: list[SheetEntry], *, title: str = "") -> str:
    """One self-contained HTML page: the sheet as inline SVG and a table of the levels."""
    svg = scene_to_svg(sheet_scene(entries))  # the page's heading carries the title
    rows = []
    for i, e in enumerate(entries):
        score = "" if e.score is None else f"{e.score:.1f}"
        cells = (str(i + 1), e.file, e.size, e.band or "", score, e.id)
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    heading = html.escape(title or "levelgen pack sheet")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{heading}</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:1rem;color:#222}\n"
        "svg{max-width:100%;height:auto}\ntable{border-collapse:collapse;margin-top:1rem}\n"
        "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;font-size:.9rem}\n"
        "td:last-child{word-break:break-all}\n"
        "</style>\n</head>\n<body>\n"
        f"<h1>{heading}</h1>\n{svg}<table>\n"
        "<tr><th>#</th><th>file</th><th>size</th><th>band</th><th>score</th><th>id</th></tr>\n"
        + "\n".join(rows)
        + "\n</table>\n</body>\n</html>\n"
    )
