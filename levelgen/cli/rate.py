"""``levelgen rate``: add the difficulty block to levels of any game."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    app,
    show_problems,
    write_data,
)

#: What a file's outcome is called in ``--json``, by exit code.
_STATUS = {
    EXIT_OK: "rated",
    EXIT_INVALID: "invalid",
    EXIT_USAGE: "refused",
    EXIT_UNREADABLE: "unreadable",
}


@app.command()
def rate(
    files: Annotated[
        list[str],
        typer.Argument(help="Level files of any game ('-': standard input).", metavar="FILE..."),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "-o",
            "--output",
            help="Where to write the rated level of one FILE ('-': standard output, the"
            " default for one FILE without --json); written atomically.",
            metavar="FILE",
        ),
    ] = None,
    in_place: Annotated[
        bool,
        typer.Option("--in-place", help="Write each rated level back to its FILE (atomically)."),
    ] = False,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print a JSON array with each FILE's game, score, band and measures (or its"
            " problems) instead of the level; with --in-place or --output the levels are"
            " written too.",
        ),
    ] = False,
    seed: Annotated[
        int,
        typer.Option(
            help="Seed of the play-outs of the games whose player model is random (Link-up,"
            " the sliding puzzle); the same seed and file give the same block.",
            metavar="N",
            min=0,
            max=2**53 - 1,
        ),
    ] = 0,
) -> None:
    """Rate levels of any game: each level gets its difficulty block, metrics.difficulty =
    {score 0..100, band (easy < 12.5 <= medium < 23 <= hard < 48 <= expert), measures},
    measured against its game's player model (Link-up: seeded players; the sliding puzzle:
    the optimal length in the size's range and a greedy human-like player; snakes and
    ladders: the expected length and the chance to finish within an ordinary game).

    One FILE: the rated level goes to standard output (or --output); several FILEs need
    --in-place or --json.  A Link-up level must have a solution (solve it first); a sliding
    puzzle without one is solved optimally.  Exit codes: 0 every file rated; 1 a level is
    well-formed but invalid or cannot be rated (no solution, a variant without a player
    model); 2 usage error, or a game without a rate operation; 3 unreadable or
    schema-invalid input, or unwritable output; 70 internal error (a bug).
    """
    from ..formats import format_json

    if output is not None and (in_place or len(files) > 1):
        what = "--in-place" if in_place else "several FILEs"
        raise typer.BadParameter(f"give --output or {what}, not both", param_hint="'--output'")
    if json_output and output == "-":
        raise typer.BadParameter(
            "--json prints to standard output: write the level to a file", param_hint="'--output'"
        )
    if in_place and "-" in files:
        raise typer.BadParameter("standard input cannot be rewritten", param_hint="'--in-place'")
    if len(files) > 1 and not (in_place or json_output):
        raise typer.BadParameter(
            "several files: give --in-place to rewrite them, or --json for a summary",
            param_hint="'FILE...'",
        )
    if output is None and not in_place and not json_output:
        output = "-"
    worst = EXIT_OK
    summary: list[dict[str, Any]] = []
    for source in files:
        code, entry, text = _rate_one(source, seed)
        summary.append(entry)
        if text is not None:
            target = source if in_place else output
            if target is not None:
                write_data(text.encode("utf-8"), target)
        worst = max(worst, code)
    if json_output:
        typer.echo(format_json(summary), nl=False)
    raise typer.Exit(worst)


def _rate_one(source: str, seed: int) -> tuple[int, dict[str, Any], str | None]:
    """The exit code of ``source``, its ``--json`` entry and the rated level's text (None
    when it could not be rated: its problems are then on standard error, in one line each)."""
    from ..formats import ReadError, format_json, read_json
    from ..puzzles import Capability, DocumentError, FamilySetupError, family_of

    entry: dict[str, Any] = {"file": source}
    try:
        data = read_json(source)
    except ReadError as exc:
        return _refused(source, entry, EXIT_UNREADABLE, exc.problems)
    try:
        item = family_of(data)
    except DocumentError as exc:
        return _refused(source, entry, EXIT_UNREADABLE, exc.problems)
    except FamilySetupError as exc:
        typer.echo(f"{source}: {exc}", err=True)
        return EXIT_USAGE, {**entry, "status": "refused", "problems": []}, None
    entry["game"] = item.name
    if Capability.RATE not in item.capabilities:
        message = f"game {item.name!r} has no rate operation"
        typer.echo(f"{source}: {message}", err=True)
        problems = [{"pointer": "/game", "message": message}]
        return EXIT_USAGE, {**entry, "status": "refused", "problems": problems}, None
    try:
        rated = item.rate(item.read(data), seed=seed)
    except DocumentError as exc:
        code = EXIT_UNREADABLE if exc.is_format else EXIT_INVALID
        return _refused(source, entry, code, exc.problems)
    dumped = item.dump(rated)
    block = dumped.get("metrics", {}).get("difficulty")
    if not isinstance(block, dict):  # pragma: no cover - every RATE family writes its block
        raise AssertionError(f"game {item.name!r} rated a level without metrics.difficulty")
    entry.update(status="rated", **block)
    return EXIT_OK, entry, format_json(dumped)


def _refused(
    source: str, entry: dict[str, Any], code: int, problems: Any
) -> tuple[int, dict[str, Any], None]:
    show_problems(source, problems)
    listed = [{"pointer": p.pointer, "message": p.message} for p in problems]
    return code, {**entry, "status": _STATUS[code], "problems": listed}, None
