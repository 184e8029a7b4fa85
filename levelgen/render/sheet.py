"""Pack sheets: every level of a pack as a thumbnail, in play order, under the difficulty ramp.

A designer looks at one picture and sees whether the pack climbs as intended: the plot on top
draws each level's difficulty score against its place in the pack, and the thumbnails below
carry the place, file name, size, band and score, and the start of the level's id.  Levels of
any game: each thumbnail is its family's picture (:meth:`levelgen.puzzles.Family.draw`), or,
for a game that draws no pictures, the text its ``show`` prints (else its one-line
description).

:func:`read_pack` reads a pack directory: its ``manifest.json`` (a ``levels`` list in play order
of ``{"file", "id", "size", "difficulty": {"score", "band"}, "sha256"}``, each but ``file``
optional; a ``score`` and ``band`` beside ``file`` are read too), checking each file's SHA-256
and id against the manifest; or, without a manifest, every ``*.json`` level file of the
directory sorted by name.  A level's game is its file's ``game``, else the manifest's; its
difficulty the manifest's, else the file's ``metrics.difficulty``.  :func:`sheet_scene` lays
the sheet out as a scene (drawn as PNG or SVG), :func:`sheet_html` wraps it with a table of
the levels in one self-contained HTML page.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats import Problem, read_bytes, read_json
from ..formats.manifest import MANIFEST, is_pack_manifest
from ..formats.scene import INK, Group, Line, Rect, Scene, Shape, Text, scene_to_svg
from ..puzzles import Capability, DocumentError, Family, FamilyError, SpecError, family, family_of

__all__ = [
    "MANIFEST",
    "PackError",
    "SheetEntry",
    "read_pack",
    "sheet_html",
    "sheet_scene",
    "thumbnail",
]

#: Colours of the difficulty bands in the plot (Okabe-Ito), unknown bands grey.
BAND_COLOURS = {"easy": "#009E73", "medium": "#E69F00", "hard": "#D55E00", "expert": "#CC79A7"}
THUMB_CELL = 10
#: The width a thumbnail is drawn to when its family's smallest cells allow.
THUMB_WIDTH = 200
COLUMNS = 4
#: A text thumbnail's most lines and characters a line.
TEXT_LINES, TEXT_COLUMNS = 14, 34


class PackError(ValueError):
    """A pack that cannot be read: ``source`` (a file) and ``problems`` (pointer, reason)."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(f"{source}: " + "; ".join(str(p) for p in problems))


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One level of a pack: its file name, family and document (as the family read it), id,
    size and (when known) difficulty."""

    file: str
    family: Family
    document: Any
    id: str
    size: str
    score: float | None
    band: str | None
    source: str = ""  # the file's path, for messages


def _difficulty(value: object, source: str, pointer: str) -> tuple[float | None, str | None]:
    if value is None:
        return None, None
    if not isinstance(value, dict):
        raise PackError(source, [Problem(pointer, "must be an object or null")])
    return _score(value.get("score"), value.get("band"), source, pointer)


def _score(
    score: object, band: object, source: str, pointer: str
) -> tuple[float | None, str | None]:
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score < math.inf:
        raise PackError(source, [Problem(f"{pointer}/score", "must be a number >= 0")])
    if band is not None and not isinstance(band, str):
        raise PackError(source, [Problem(f"{pointer}/band", "must be a string")])
    return float(score), band


def _file_difficulty(data: object, source: str) -> tuple[float | None, str | None]:
    """The difficulty a level file states in ``metrics.difficulty`` (none when it states
    none or a broken one: its family's checks report that)."""
    metrics = data.get("metrics") if isinstance(data, dict) else None
    found = metrics.get("difficulty") if isinstance(metrics, dict) else None
    try:
        return _difficulty(found, source, "/metrics/difficulty")
    except PackError:
        return None, None


_SIZE = re.compile(r"[1-9][0-9]*x[1-9][0-9]*")


def _read_level(path: Path, game: str | None) -> tuple[Family, Any, object]:
    """The family, document and JSON data of the level file ``path``; a file without a
    ``game`` is of the manifest's ``game`` when it names one."""
    source = str(path)
    data = read_json(source)
    if is_pack_manifest(data):
        raise PackError(source, [Problem("", "a pack manifest, not a level")])
    try:
        if game is not None and not (isinstance(data, dict) and "game" in data):
            item = family(game)
        else:
            item = family_of(data)
        return item, item.read(data), data
    except DocumentError as exc:
        raise PackError(source, list(exc.problems)) from None
    except FamilyError as exc:
        raise PackError(source, [Problem("/game", str(exc))]) from None


def _entry(
    folder: Path,
    name: str,
    game: str | None,
    difficulty: tuple[float | None, str | None] | None,
    size: object = None,
) -> SheetEntry:
    item, document, data = _read_level(folder / name, game)
    if difficulty is None or difficulty[0] is None:
        difficulty = _file_difficulty(data, str(folder / name))
    dumped = item.dump(document).get("id")
    stated = data.get("id") if isinstance(data, dict) else None
    level_id = dumped if isinstance(dumped, str) else stated if isinstance(stated, str) else ""
    if not isinstance(size, str):
        found = _SIZE.match(item.describe(document))
        size = found.group(0) if found else ""
    return SheetEntry(name, item, document, level_id, size, *difficulty, str(folder / name))


def _plain_name(name: str) -> bool:
    """A file name in the pack directory itself (no folders, not hidden)."""
    return bool(name) and not name.startswith(".") and "/" not in name and "\\" not in name


def read_pack(folder: str | Path) -> list[SheetEntry]:
    """The levels of the pack directory ``folder`` in play order.  ``PackError`` for a broken
    manifest, a file that does not match it or is not a level of its game, ``ReadError``
    for an unreadable file."""
    folder = Path(folder)
    manifest = folder / MANIFEST
    if not manifest.exists():
        names = sorted(p.name for p in folder.glob("*.json") if p.is_file())
        if not names:
            raise PackError(str(folder), [Problem("", "no manifest.json and no level files")])
        return [_entry(folder, name, None, None) for name in names]
    source = str(manifest)
    data = read_json(source)
    levels = data.get("levels") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(levels, list) or not levels:
        raise PackError(source, [Problem("/levels", "must be a non-empty list")])
    game = data.get("game")
    if game is None and isinstance(data.get("parameters"), dict):
        game = data["parameters"].get("game")
    if game is not None and not isinstance(game, str):
        raise PackError(source, [Problem("/game", "must be a string")])
    entries = []
    for i, item in enumerate(levels):
        at = f"/levels/{i}"
        if not isinstance(item, dict):
            raise PackError(source, [Problem(at, "must be an object")])
        file_name = item.get("file")
        if not isinstance(file_name, str) or not _plain_name(file_name):
            raise PackError(source, [Problem(f"{at}/file", "must be a plain file name")])
        if "difficulty" in item:
            difficulty = _difficulty(item["difficulty"], source, f"{at}/difficulty")
        elif "score" in item:
            difficulty = _score(item["score"], item.get("band"), source, at)
        else:
            difficulty = None
        digest = item.get("sha256")
        if digest is not None:
            actual = hashlib.sha256(read_bytes(folder / file_name)).hexdigest()
            if digest != actual:
                raise PackError(source, [Problem(f"{at}/sha256", f"does not match {file_name}")])
        entry = _entry(folder, file_name, game, difficulty, item.get("size"))
        if item.get("id") not in (None, entry.id) and entry.id:
            raise PackError(source, [Problem(f"{at}/id", f"is not the id of {file_name}")])
        entries.append(entry)
    return entries


def _text_thumbnail(lines: list[str], cell_size: int) -> Scene:
    """Text as a thumbnail: the first :data:`TEXT_LINES` lines, each cut to
    :data:`TEXT_COLUMNS` characters."""
    shown = [line.rstrip()[:TEXT_COLUMNS] for line in lines[:TEXT_LINES]] or [""]
    if len(lines) > TEXT_LINES:
        shown[-1] = "..."
    size = max(9, cell_size + 1)
    width = max(60, 8 + max(len(line) for line in shown) * size * 3 // 5)
    height = 8 + len(shown) * (size + 3)
    items: list[Shape] = [
        Text(4, 4 + i * (size + 3) + size // 2, line, size, INK, anchor="start")
        for i, line in enumerate(shown)
    ]
    return Scene(width, height, tuple(items))


def thumbnail(entry: SheetEntry, cell_size: int = THUMB_CELL) -> Scene:
    """The level's thumbnail: its family's picture, drawn about :data:`THUMB_WIDTH` pixels
    wide where its cells may be that small; the text of ``show`` (or the description) for a
    game without pictures.  ``PackError`` naming the file when the family cannot draw it."""
    item, document = entry.family, entry.document
    try:
        if Capability.DRAW not in item.capabilities:
            if Capability.SHOW in item.capabilities:
                text, _ = item.show(document, color=False, options={})
            else:
                text = item.describe(document)
            return _text_thumbnail(text.splitlines(), cell_size)
        scene = item.draw(document, cell_size=cell_size, options={})
        if scene.width > THUMB_WIDTH and cell_size > 4:
            smaller = max(4, cell_size * THUMB_WIDTH // scene.width)
            scene = item.draw(document, cell_size=smaller, options={})
        return scene
    except DocumentError as exc:
        raise PackError(entry.source or entry.file, list(exc.problems)) from None
    except SpecError as exc:
        raise PackError(entry.source or entry.file, [Problem("", str(exc))]) from None


def _plot(entries: list[SheetEntry], width: int, height: int) -> list[Shape]:
    """The difficulty ramp: score (0..100, or up to the highest score a pack states on
    another scale) against place in the pack."""
    left, top, right, bottom = 44, 28, width - 16, height - 26
    highest = max((e.score for e in entries if e.score is not None), default=0.0)
    scale = 100 if highest <= 100 else 25 * math.ceil(highest / 25)
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
        return bottom - round((bottom - top) * score / scale)

    for tick in (0, scale // 4, scale // 2, scale * 3 // 4, scale):
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
    short = entry.id.removeprefix("sha256:")[:12]
    return f"{index + 1}. {entry.file}  {entry.size}", f"{difficulty}  {short}"


def _on_ground(scene: Scene) -> tuple[Shape, ...]:
    """The scene's shapes, on its own background when that is not white."""
    if scene.background.upper() == "#FFFFFF":
        return scene.items
    return (Rect(0, 0, scene.width, scene.height, scene.background), *scene.items)


def sheet_scene(
    entries: list[SheetEntry], *, title: str = "", cell_size: int = THUMB_CELL
) -> Scene:
    """The sheet: the difficulty plot, then the thumbnails in rows of ``COLUMNS``."""
    if not entries:
        raise ValueError("a sheet needs at least one level")
    thumbs = [thumbnail(e, cell_size) for e in entries]
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
            Group(_on_ground(thumb), dx=(box_w - 8 - thumb.width) // 2, dy=4),
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
