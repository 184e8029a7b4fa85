"""``levelgen schema`` and ``levelgen version``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..formats.version import VERSION as __version__
from .common import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    NoClobberOption,
    app,
    check_output,
    fail,
    show_problems,
    write_data,
)

if TYPE_CHECKING:
    from ..puzzles import SchemaEntry

# ----- schema ----------------------------------------------------------------------------------


def schema_registry() -> dict[str, SchemaEntry]:
    """Every JSON Schema ``levelgen schema`` serves, by name: Link-up's files under their own
    names (``level``, ``position``), the pack manifest, and each other family's as
    ``GAME`` (its level file) or ``GAME-NAME``."""
    from ..pack.manifest import manifest_json_schema
    from ..puzzles import DEFAULT_GAME, SchemaEntry, families

    registry: dict[str, SchemaEntry] = {}
    for name, item in families().items():
        for key, entry in item.schemas.items():
            if name == DEFAULT_GAME:
                registry[key] = entry
            else:
                registry[name if key == "level" else f"{name}-{key}"] = entry
    registry["pack-manifest"] = SchemaEntry(manifest_json_schema, "pack-manifest.v1.schema.json")
    return registry


@app.command()
def schema(
    name: Annotated[
        str | None,
        typer.Argument(
            help="Which schema: level (default when printing), position, pack-manifest, or"
            " another game's (sliding-puzzle, snakes-ladders); --check without a name checks"
            " every one.",
            metavar="NAME",
            show_default=False,
        ),
    ] = None,
    check: Annotated[
        bool,
        typer.Option("--check", help="Compare with the checked-in schema instead of printing."),
    ] = False,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            help="The schema file --check compares with (default: schemas/NAME.v1.schema.json"
            " of the source tree, else of the current folder or the nearest one above).",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            help="Where to write ('-': standard output). An existing file is replaced unless"
            " --no-clobber is given.",
            metavar="FILE",
        ),
    ] = "-",
    no_clobber: NoClobberOption = False,
) -> None:
    """Print a JSON Schema (draft 2020-12) of levelgen's files, generated from the models.

    Exit codes: 0 printed, or --check found no drift; 1 --check found a file out of date;
    2 unknown NAME, or --check found no schema file; 3 --check could not read the file or it
    is not a JSON Schema, or the output could not be written; 70 internal error (a bug).
    """
    from ..formats import format_json

    SCHEMAS = schema_registry()

    if name is not None and name not in SCHEMAS:
        raise typer.BadParameter(
            f"{name!r} is not one of: {', '.join(SCHEMAS)}", param_hint="'NAME'"
        )
    if not check:
        check_output(output, no_clobber)
        generated = SCHEMAS[name or "level"].generate()
        write_data(format_json(generated).encode("utf-8"), output, no_clobber=no_clobber)
        return
    if file is not None:
        _check_one(name or "level", file)
        return
    for each in [name] if name is not None else list(SCHEMAS):
        found = _checked_in_schema(Path("schemas", SCHEMAS[each].file_name))
        if found is None:
            fail(
                EXIT_USAGE,
                f"levelgen: no schemas/{SCHEMAS[each].file_name} found in the source tree or"
                " the current folder and its parents; pass --file",
            )
        _check_one(each, found)


def _check_one(name: str, file: Path) -> None:
    """Compare the checked-in ``file`` with the generated schema ``name``; exit 1 or 3 when
    it is out of date or not a JSON Schema."""
    from ..formats import JSON_SCHEMA_DIALECT, ReadError, read_json

    SCHEMAS = schema_registry()

    try:
        stored = read_json(file)
    except ReadError as exc:
        show_problems(str(file), exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    generated = SCHEMAS[name].generate()
    if not _looks_like_a_schema(stored):
        what = (
            "a level file"
            if isinstance(stored, dict) and "game" in stored
            else "a JSON document of another kind"
        )
        fail(
            EXIT_UNREADABLE,
            f'{file}: not a JSON Schema (it looks like {what}, with no "$schema":'
            f' "{JSON_SCHEMA_DIALECT}"); pass the checked-in schemas/'
            f"{SCHEMAS[name].file_name}",
        )
    if stored != generated:
        fail(
            EXIT_INVALID,
            f"{file}: out of date with the models; regenerate it with:"
            f" levelgen schema {name} -o {file}",
        )
    typer.echo(f"{file}: up to date")


def _looks_like_a_schema(value: object) -> bool:
    """A JSON object with the draft 2020-12 ``$schema``, or, without one, with schema keywords
    and none of a level file's fields (an old or hand-written schema is out of date, not
    something else)."""
    from ..formats import JSON_SCHEMA_DIALECT

    if not isinstance(value, dict):
        return False
    if "$schema" in value:
        return bool(value["$schema"] == JSON_SCHEMA_DIALECT)
    keywords = {"type", "properties", "$defs", "$id", "anyOf", "allOf", "oneOf"}
    level_keys = {"game", "board", "format_version"}
    return bool(keywords & value.keys()) and not level_keys & value.keys()


def _checked_in_schema(relative: Path) -> Path | None:
    """``relative`` (``schemas/...``) next to the package (a source checkout), else in the
    current folder or the nearest parent that has one (an installed package), else None."""
    for folder in (Path(__file__).resolve().parents[2], Path.cwd(), *Path.cwd().parents):
        candidate = folder / relative
        if candidate.is_file():
            return candidate
    return None


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)
