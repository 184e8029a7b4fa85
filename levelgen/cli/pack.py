"""``levelgen pack``: a directory of levels with a manifest, made in parallel.

Thin over :mod:`levelgen.pack`: the options are the game's create options (a family may take
ranges there, such as a size ramp ``8x6:18x10``); parse them into a plan, run it with a
progress bar on standard error (only on a terminal: levels, levels/s and the ETA), report.
``levelgen verify DIR`` checks a pack through :func:`pack_verdict`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..formats.words import plural
from ..puzzles import DEFAULT_GAME, OptionKind
from .common import EXIT_INVALID, EXIT_UNREADABLE, app, fail
from .options import family_spec_values, game_family, given_values, with_family_options

if TYPE_CHECKING:
    from .common import Verdict

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130
#: Exit status after SIGTERM (128 + SIGTERM), as shells report it.
EXIT_TERMINATED = 143


@app.command()
@with_family_options("create_options")
def pack(
    output: Annotated[
        str, typer.Option("-o", "--output", help="The pack directory to create.", metavar="DIR")
    ],
    count: Annotated[int, typer.Option(min=1, max=100_000, help="Levels in the pack.")] = 20,
    size: Annotated[
        str | None,
        typer.Option(
            help="The size of the levels, as create takes it (the game's default when left"
            f" out); {DEFAULT_GAME} also takes a list 8x6,12x8 (equal blocks in order) or a"
            " ramp 8x6:18x10, and defaults to the layout's size, else 12x8.",
            metavar="SIZES",
        ),
    ] = None,
    ramp: Annotated[
        str | None,
        typer.Option(
            help="Difficulty ramp FROM:TO over the game's bands, e.g. easy:expert: the levels"
            " are steered along it, then played in the order of their scores."
        ),
    ] = None,
    difficulty: Annotated[
        str | None,
        typer.Option(
            help="One target for every level: a band (easy|medium|hard|expert), as"
            " create --difficulty takes it."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the pack (default: drawn and recorded).")
    ] = None,
    slide_cycle: Annotated[
        str | None,
        typer.Option(
            "--slide-cycle",
            help="Sliding rules given to the levels in turn, such as none,down,up (the same as"
            " --slide with commas).",
            metavar="RULES",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=512, help="Worker processes (default: all cores)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Run the jobs on this Dask distributed scheduler (tcp://HOST:PORT) instead"
            " of local processes; needs pip install 'levelgen[dask]'.",
            metavar="ADDRESS",
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish an interrupted run of the same command.")
    ] = False,
    game: Annotated[
        str,
        typer.Option(
            help=f"The game of the levels: {DEFAULT_GAME}, sliding-puzzle, snakes-ladders, or"
            " one a package registers.",
            metavar="NAME",
        ),
    ] = DEFAULT_GAME,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="A create option of the game for every level, NAME=VALUE (repeatable), such"
            " as moves=40 or snakes=8.",
            metavar="NAME=VALUE",
        ),
    ] = None,
    **family_given: Any,
) -> None:
    """Make a pack of any game: DIR/manifest.json and one level file per level, in play order
    (a --ramp pack: in the order of the levels' difficulty scores).

    The directory appears complete or not at all; the same seed and options give the same
    bytes for any --workers and with --scheduler.  Each game takes its create options (named
    below with their game), for every level.  Exit codes: 0 written; 1 a level could not be
    made; 2 bad options, or an option the game does not have; 3 unreadable layout or
    unwritable directory; 130 interrupted (Ctrl-C), 143 terminated (SIGTERM): finish with
    --resume.
    """
    import secrets

    from ..formats import MAX_SEED
    from ..pack import PackError, PackInterrupted, make_pack
    from ..pack.plan import PlanError, plan_family_pack
    from ..puzzles import CreateError
    from .common import set_values

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise typer.BadParameter(f"{seed} is not in 0..{MAX_SEED}", param_hint="'--seed'")
    if scheduler is not None:
        from ..pack.executors import check_scheduler_address

        try:
            check_scheduler_address(scheduler)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--scheduler'") from None
    item = game_family(game)
    given = given_values(family_given)
    options: dict[str, Any] = family_spec_values(item, given)
    extra = set_values(settings or [])
    for name, value in extra.items():
        if name in options:
            raise typer.BadParameter(f"given twice (also as --{name})", param_hint="'--set'")
        options[name] = value
    if size is not None:
        options["size"] = size
    if slide_cycle is not None:
        options["slide_cycle"] = slide_cycle
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    try:
        plan = plan_family_pack(game, count, seed, options, difficulty, ramp)
    except PlanError as exc:
        source = given.get(exc.option)
        reason = f"{source}: {exc.reason}" if _is_file(item, exc.option, source) else exc.reason
        if exc.is_format and _is_file(item, exc.option, source):
            fail(EXIT_UNREADABLE, reason)
        flag = "--set" if exc.option in extra else _flag(exc.option)
        raise typer.BadParameter(reason, param_hint=f"'{flag}'") from None
    from ..pack.executors import stop_on_sigterm

    n = workers or os.cpu_count() or 1
    try:
        with stop_on_sigterm(), _Progress(count) as on_level:
            manifest = make_pack(
                plan, output, workers=n, scheduler=scheduler, resume=resume, on_level=on_level
            )
    except PackInterrupted as exc:
        fail(EXIT_TERMINATED if exc.terminated else EXIT_INTERRUPTED, f"levelgen pack: {exc}")
    except (PackError, OSError) as exc:
        fail(EXIT_UNREADABLE, f"levelgen pack: {exc}")
    except CreateError as exc:
        fail(EXIT_INVALID, f"levelgen pack: a level could not be made: {exc}")
    off = _missed(plan, manifest)
    note = f"; {off} missed their band (the closest found was kept)" if off else ""
    typer.echo(
        f"{output}: {plural(count, 'level')}, seed {seed}, pack id {manifest['pack_id']}{note}",
        err=True,
    )


def _flag(option: str) -> str:
    """The command line's name of a spec option (``--max-turns``)."""
    return "--" + option.replace("_", "-")


def _is_file(item: Any, option: str, source: object) -> bool:
    """Whether the option's value came from a file (a lines or JSON option)."""
    kinds = {one.name: one.kind for one in item.create_options}
    return isinstance(source, str) and kinds.get(option) in (OptionKind.LINES, OptionKind.JSON)


def _missed(plan: Any, manifest: dict[str, Any]) -> int:
    """Levels whose band is not the one their plan asked for."""
    from ..puzzles import family

    bands = set(family(plan.game).bands)
    asked = {job.seed: job.values.get("difficulty") for job in plan.jobs}
    return sum(
        1
        for entry in manifest["levels"]
        if asked.get(entry["seed"]) in bands and entry["band"] != asked[entry["seed"]]
    )


class _Progress:
    """A rich progress bar on standard error when it is a terminal (else nothing): levels done,
    levels/s and the time left.  Used as ``with _Progress(total) as on_level``."""

    def __init__(self, total: int) -> None:
        from .common import stderr_is_terminal

        self.total = total
        self.bar = None
        if stderr_is_terminal():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("pack"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
        self.task: Any = 0
        self.start = 0.0
        self.first = -1

    def __enter__(self) -> _Progress:
        if self.bar is not None:
            self.bar.start()
            self.task = self.bar.add_task("pack", total=self.total, rate="")
        return self

    def __call__(self, done: int, total: int) -> None:
        import time

        if self.bar is None:
            return
        now = time.monotonic()
        if self.first < 0:
            self.first, self.start = done, now
        made = done - self.first
        rate = f"{made / (now - self.start):.1f} levels/s" if made and now > self.start else ""
        self.bar.update(self.task, completed=done, rate=rate)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def pack_verdict(source: str) -> Verdict:
    """``levelgen verify DIR``: the verdict for a pack directory (or its manifest.json)."""
    from ..pack import verify_pack
    from .common import Verdict

    report = verify_pack(source)
    if not report.readable:
        return Verdict(source, "unreadable", problems=report.problems)
    if report.problems:
        return Verdict(source, "invalid", problems=report.problems)
    notes = "".join(f"\n{source}: note: {n}" for n in report.notes)
    return Verdict(
        source,
        "ok",
        f"ok: pack of {report.levels} level{'' if report.levels == 1 else 's'}; hashes, ids,"
        " plan and every solution checked" + notes,
    )
