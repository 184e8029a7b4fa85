"""``levelgen library import|list|export``: the level library from the command line.

The library is the service's store (``--db URL``, default the service's SQLite file, or
``LEVELGEN_DB``).  ``import`` checks every level as ``verify`` does (structure, then the
solution replayed; levels without a solution are refused: the library keeps only proved
levels) and stores it by content id (importing twice stores once), making the library when
it is not there yet.  ``list`` and ``export`` only read: they refuse a SQLite file that does
not exist rather than make one.  ``export`` writes each level canonically as
``DIR/<hex>.json``, atomically, and takes ids as ``sha256:<hex>`` or ``<hex>`` alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ..formats.reports import problem_lines
from ..formats.words import plural
from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_USAGE, fail

if TYPE_CHECKING:
    from ..library import Store

library_app = typer.Typer(
    help="The level library: import, list and export stored levels.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

DbOption = Annotated[
    str | None,
    typer.Option(help="SQLAlchemy URL of the library (default: as levelgen serve).", metavar="URL"),
]


def _open(db: str | None, *, create: bool = True) -> Store:
    """The library at ``--db`` (default: the service's).  Unless ``create``, a SQLite file
    that does not exist yet is not made (a read makes no file): exit 3 saying so."""
    from ..library import Store
    from ..service.settings import Settings

    url = db if db is not None else Settings().db
    if not create:
        missing = _missing_sqlite_file(url)
        if missing is not None:
            fail(
                EXIT_UNREADABLE,
                f"levelgen library: --db: no library at {url} ({missing} does not exist;"
                " 'levelgen library import' makes it)",
            )
    try:
        return Store(url)
    except ValueError as exc:  # not a database URL
        fail(EXIT_USAGE, f"levelgen library: --db: {exc}")
    except ImportError as exc:  # a database without its driver (mysql://...)
        fail(EXIT_USAGE, f"levelgen library: --db: no driver for {_shown(url)} ({exc})")
    except Exception as exc:  # an unreachable server, a read-only or broken file
        _unavailable(url, exc)


def _shown(url: str) -> str:
    """``url`` as a message may show it: without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the --db URL"


def _unavailable(url: str, exc: BaseException) -> NoReturn:
    """Exit 3 in one line: the library at ``url`` cannot be opened, reached or written (the
    driver's first line, without SQLAlchemy's wrapping: the library is the command's input or
    output, as a file would be)."""
    from ..library.errors import LibraryUnavailable, driver_message

    if isinstance(exc, LibraryUnavailable):
        reason = f"{exc.reason} ({exc.cause})"
    else:
        reason = driver_message(exc)
    fail(
        EXIT_UNREADABLE,
        f"levelgen library: --db: cannot use the library at {_shown(url)}: {reason}",
    )


@contextmanager
def _calls(store: Store) -> Iterator[None]:
    """The store's calls in this block: a database that fails them (gone away, locked, read
    only) ends the command in one line, exit 3 (see :func:`_unavailable`); the store is
    closed at the end."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..library.errors import LibraryUnavailable

    try:
        yield
    except (LibraryUnavailable, SQLAlchemyError) as exc:
        _unavailable(store.url, exc)
    finally:
        store.close()


def _missing_sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL when it does not exist (None for another database, an
    in-memory one, or a URL SQLAlchemy cannot read: opening it says why)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or database in (None, "", ":memory:"):
        return None
    assert database is not None
    if database.startswith("file:") or Path(database).exists():
        return None
    return database


#: A level id as the library and ``export`` name it: ``sha256:`` and 64 hex digits.
_LEVEL_ID = re.compile(r"(sha256:)?([0-9a-f]{64})")


def _level_id(text: str) -> str:
    """``sha256:HEX`` for an id given as ``sha256:HEX``, ``HEX`` (the name of a file ``export``
    writes, with or without ``.json``); ``typer.BadParameter`` otherwise."""
    found = _LEVEL_ID.fullmatch(text.removesuffix(".json"))
    if found is None:
        raise typer.BadParameter(
            f"{text!r} is not a level id (sha256: and 64 hex digits, or the digits alone)",
            param_hint="'ID'",
        )
    return f"sha256:{found.group(2)}"


#: What :func:`import_problems` finds: the level's JSON data (None when refused), the lines
#: that say why, and the exit code of the refusal (3 unreadable or schema-invalid, 1 invalid).
Imported = tuple[dict[str, object] | None, list[str], int]


def import_problems(source: str) -> Imported:
    """The level file ``source`` (of any game) as JSON data when it is a valid level whose
    certificate replays (its family's own verifier), else None, one line per problem and the
    exit code (3 for a file that cannot be read or breaks its schema: missing, empty, not UTF-8
    or JSON, a pack manifest; 1 for a level well-formed but invalid or without a
    certificate)."""
    from ..formats import ReadError, read_json
    from ..library.admission import admit

    try:
        data = read_json(source)
    except ReadError as exc:
        return None, problem_lines(source, exc.problems), EXIT_UNREADABLE
    if _is_manifest(data):
        folder = str(Path(source).parent)
        line = (
            f"{source}: a pack manifest, not a level file: import its folder"
            f" (levelgen library import {folder}) or its level files"
        )
        return None, [line], EXIT_UNREADABLE
    found = admit(data)
    if found.data is not None:
        return found.data, [], 0
    code = EXIT_UNREADABLE if found.is_format else EXIT_INVALID
    return None, problem_lines(source, list(found.problems)), code


def _is_manifest(data: object) -> bool:
    """Whether JSON data is a pack manifest (its ``$schema``, or a pack id and a level list)."""
    from ..pack.manifest import MANIFEST_SCHEMA_URI

    if not isinstance(data, dict):
        return False
    return data.get("$schema") == MANIFEST_SCHEMA_URI or {"pack_id", "levels"} <= data.keys()


@library_app.command("import")
def import_levels(
    paths: Annotated[
        list[str], typer.Argument(help="Level files, or folders of *.json files.", metavar="PATH")
    ],
    db: DbOption = None,
) -> None:
    """Store level files (each verified first) in the library.

    Exit codes: 0 all stored (or already there); 1 some level invalid or without a
    certificate; 3 some file unreadable (missing, empty, not UTF-8 or JSON) or not a level
    file of its schema, or the library cannot be reached or written.
    """
    files: list[str] = []
    for path in paths:
        folder = Path(path)
        if folder.is_dir():
            files.extend(str(p) for p in sorted(folder.glob("*.json")) if p.name != "manifest.json")
        else:
            files.append(path)
    store = _open(db)
    code = 0
    stored = existing = 0
    with _calls(store):
        for source in files:
            data, lines, refused = import_problems(source)
            if data is None:
                for line in lines:
                    typer.echo(line, err=True)
                code = max(code, refused)
                continue
            _summary, created = store.put_level(data)
            stored += created
            existing += not created
    typer.echo(
        f"{stored} stored, {existing} already in the library, {plural(len(files), 'file')}",
        err=True,
    )
    raise typer.Exit(code)


@library_app.command("list")
def list_levels(
    size: Annotated[str | None, typer.Option(help="Only this size (WxH).", metavar="WxH")] = None,
    max_turns: Annotated[
        int | None,
        typer.Option("--max-turns", min=0, max=8, help="Only these rules' turns.", metavar="T"),
    ] = None,
    band: Annotated[
        str | None, typer.Option(help="Only this difficulty band.", metavar="BAND")
    ] = None,
    slide: Annotated[
        str | None,
        typer.Option(help="Only this sliding rule ('none': the classic game).", metavar="DIR"),
    ] = None,
    layers: Annotated[
        int | None,
        typer.Option(min=1, help="Only this many stacked layers (1: flat).", metavar="N"),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(help="Only levels of this game (its files' game field).", metavar="NAME"),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many.")] = 1000,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    db: DbOption = None,
) -> None:
    """List the stored levels (id, size, the rules and tiles of a game whose levels have them,
    else the game; seed, difficulty band).

    Exit codes: 0 listed; 2 bad option (a size, band or game no level can have); 3 no library
    there (a read makes none), or it cannot be reached.
    """
    from ..library import LevelFilter

    if slide is not None:
        _check_slide(slide)
    _check_filter(size, band, game)
    store = _open(db, create=False)
    with _calls(store):
        where = LevelFilter(size, max_turns, None, band, slide, layers, game)
        items = store.list_levels(where, limit=limit)
    for item in items:
        if json_output:
            typer.echo(json.dumps(item, separators=(",", ":")))
        else:
            typer.echo(_list_line(item))


def _check_filter(size: str | None, band: str | None, game: str | None) -> None:
    """Exit 2 naming the option when ``--size``, ``--band`` or ``--game`` is a value no stored
    level can have (a list that can only be empty is a mistake, not an answer): a size of
    another form or larger than any game's boards, a band no game has, a game not known."""
    from ..puzzles import FamilyError, families, family

    if game is not None:
        try:
            family(game)
        except FamilyError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--game'") from None
    if size is not None:
        found = re.fullmatch(r"([0-9]{1,4})x([0-9]{1,4})", size)
        if found is None:
            raise typer.BadParameter(f"{size!r} is not of the form WxH", param_hint="'--size'")
        most = max((_max_side(item) for item in families().values()), default=0)
        if not all(1 <= int(side) <= most for side in found.groups()):
            raise typer.BadParameter(
                f"{size} is no game's size (sides 1..{most} at most)", param_hint="'--size'"
            )
    if band is not None:
        kinds = families() if game is None else {game: family(game)}
        bands = list(dict.fromkeys(b for item in kinds.values() for b in item.bands))
        if band not in bands:
            raise typer.BadParameter(
                f"{band!r} is not a band ({', '.join(bands)})", param_hint="'--band'"
            )


def _check_slide(slide: str) -> None:
    """Exit 2 naming ``--slide`` when no game that has a ``slide`` create option takes
    ``slide`` (its family's reason for the first such game that refuses it)."""
    from ..puzzles import SpecError, families

    reason = "no game has a sliding rule"
    for item in families().values():
        if not any(option.name == "slide" for option in item.create_options):
            continue
        try:
            item.parse_spec({"slide": slide})
        except SpecError as exc:
            if exc.option == "slide":
                reason = exc.reason
                continue
        return  # refused for another option than slide, or taken: a rule of this game
    raise typer.BadParameter(reason, param_hint="'--slide'")


def _max_side(item: Any) -> int:
    """The longest side a family's level files may have: the largest ``maximum`` of a
    ``width`` or ``height`` property in its level schema (0 when it states none)."""
    found = 0
    stack: list[object] = [next(iter(item.schemas.values())).generate()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("width", "height") and isinstance(value, dict):
                    most = value.get("maximum")
                    if isinstance(most, int):
                        found = max(found, most)
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _list_line(item: dict[str, Any]) -> str:
    """One level of ``library list``: id, size, the rules and tiles of a level whose game has
    them (else the game), seed, band."""
    band_name = item["difficulty"]["band"] if item["difficulty"] else "-"
    seed = "-" if item["seed"] is None else item["seed"]
    rules = item["rules"]
    if rules is None:
        return f"{item['id']}  {item['game']}  {item['size'] or '-'}  seed {seed}  {band_name}"
    turns = f"max {rules['max_turns']} turns, {'ring' if rules['outside'] else 'no ring'}"
    if rules["slide"] != "none":
        turns += f", slide {rules['slide']}"
    if item["layers"] > 1:
        turns += f", {item['layers']} layers"
    return f"{item['id']}  {item['size']}  {turns}  {item['tiles']} tiles  seed {seed}  {band_name}"


def _canonical(data: dict[str, Any]) -> str:
    """The canonical text of a stored level file (of any game), as ``create`` writes it."""
    from ..formats import format_json
    from ..puzzles import family_of

    item = family_of(data)
    return format_json(item.dump(item.read(data)))


@library_app.command("export")
def export_levels(
    ids: Annotated[
        list[str],
        typer.Argument(
            help="Level ids: sha256:HEX, or HEX alone (the name of the file export writes).",
            metavar="ID",
        ),
    ],
    output: Annotated[
        str, typer.Option("-o", "--output", help="Folder to write into.", metavar="DIR")
    ],
    db: DbOption = None,
) -> None:
    """Write stored levels as canonical level files DIR/<hex>.json.

    Exit codes: 0 all written; 1 some id not in the library; 2 not a level id; 3 no library
    there (or it cannot be reached), or the folder is not writable.
    """
    from ..formats import WriteError, write_text

    ids = [_level_id(text) for text in ids]
    folder = Path(output)
    store = _open(db, create=False)
    code = 0
    with _calls(store):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(EXIT_UNREADABLE, f"levelgen library export: {output}: {exc.strerror or exc}")
        for level_id in ids:
            data = store.get_level(level_id)
            if data is None:
                typer.echo(f"{level_id}: not in the library", err=True)
                code = EXIT_INVALID
                continue
            target = folder / f"{level_id.removeprefix('sha256:')}.json"
            try:
                write_text(_canonical(data), target)
            except WriteError as exc:
                fail(EXIT_UNREADABLE, f"levelgen library export: {exc}")
            typer.echo(str(target))
    raise typer.Exit(code)
