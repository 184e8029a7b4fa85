"""The command line's shared pieces: the typer app, exit codes, options and the helpers that
read, check and write level files for every command.

Exit codes: 0 ok / solvable, 1 level well-formed but invalid or unsolvable, 2 usage error,
3 unreadable or schema-invalid input, 4 undecided within the budget, 70 internal error (a bug),
130 interrupted, 141 standard output closed by its reader.

Every input problem ends in a message naming the file, the place (a JSON pointer) and the
reason, and one of these exit codes; a traceback means a bug.  Level files are written
atomically (never half a file).  The heavy modules (pydantic models, solvers, the generator)
are imported inside the commands, so ``levelgen verify`` stays quick and never loads ortools
unless a solver needs it.
"""

from __future__ import annotations

import errno
import importlib
import math
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from ..puzzles import Capability, Family, FamilySetupError, SpecError, check_variable
from .coercion import no_type, quick_coercion

if TYPE_CHECKING:
    from ..formats import Problem
    from ..puzzles import Budget


T = TypeVar("T")

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_UNREADABLE, EXIT_UNDECIDED = 0, 1, 2, 3, 4
#: An unexpected exception: a bug (70 is EX_SOFTWARE of sysexits.h), never a verdict.
EXIT_INTERNAL = 70
#: Interrupted by the user (Ctrl-C): 128 + SIGINT, as shells report it.
EXIT_INTERRUPTED = 130
#: Standard output closed by its reader (``levelgen show big.json | head -2``): 128 + SIGPIPE,
#: what a shell reports for a program the signal ended, so it never reads as a verdict.
EXIT_BROKEN_PIPE = 141

EXIT_CODES_HELP = (
    "Exit codes: 0 ok or solvable; 1 level well-formed but invalid or unsolvable; 2 usage error;"
    " 3 unreadable or schema-invalid input; 4 undecided within the budget; 70 internal error"
    " (a bug: please report it); 130 interrupted (Ctrl-C); 141 standard output closed by its"
    " reader (a pipe into head, say)."
)

#: The order of the commands in ``levelgen --help``; commands not named here follow in the
#: order they were registered.
COMMAND_ORDER = (
    "create",
    "verify",
    "solve",
    "show",
    "schema",
    "version",
    "bench",
    "pack",
    "hint",
    "shuffle",
    "fix",
    "fill",
    "render",
    "export",
    "play",
    "serve",
    "library",
    "tables",
)

#: Commands whose module is imported only when the command is asked for (``levelgen --help``
#: asks for all), so that a command starts with its own module's imports only: name -> the
#: module that registers it on ``app`` (with the other commands of that module).  ``schema``
#: and ``version`` (light) are registered when the package is imported: typer builds the
#: group from the commands registered then, and needs two.
LAZY_COMMANDS = {
    "create": "levelgen.cli.create",
    "pack": "levelgen.cli.pack",
    "shapes": "levelgen.cli.create",
    "hint": "levelgen.cli.play",
    "shuffle": "levelgen.cli.play",
    "fix": "levelgen.cli.design",
    "fill": "levelgen.cli.design",
    "show": "levelgen.cli.show",
    "verify": "levelgen.cli.verify",
    "solve": "levelgen.cli.verify",
    "render": "levelgen.cli.render",
    "export": "levelgen.cli.render",
    "play": "levelgen.cli.render",
    "serve": "levelgen.cli.serve",
    "edit": "levelgen.cli.serve",
}

#: Command groups imported only when asked for (``levelgen bench`` pulls in every benchmark:
#: an HTTP client, the service's test server, ...), so that other commands start quickly:
#: name -> (module, attribute of its typer app).
LAZY_GROUPS = {
    "bench": ("levelgen.bench", "bench_app"),
    "library": ("levelgen.cli.library", "library_app"),
    "tables": ("levelgen.cli.tables", "tables_app"),
}

#: Set to 1 to see the traceback of an internal error.
DEBUG_VARIABLE = "LEVELGEN_DEBUG"

#: Errors writing standard output (a full disk, a reader that went away): ``main`` reports them.
_OUTPUT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("EPIPE", "ENOSPC", "EDQUOT", "EFBIG", "EIO")
    if hasattr(errno, name)
)


def internal_error(exc: BaseException) -> NoReturn:
    """Report ``exc`` as a bug in one line on standard error (the traceback first when
    ``LEVELGEN_DEBUG=1``) and exit with ``EXIT_INTERNAL``."""
    if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
        traceback.print_exception(exc, file=sys.stderr)
    text = " ".join(str(exc).split()) or "(no message)"
    if len(text) > 300:
        text = text[:297] + "..."
    hint = "" if os.environ.get(DEBUG_VARIABLE) else f"; {DEBUG_VARIABLE}=1 shows the traceback"
    typer.echo(
        f"levelgen: internal error (a bug, please report it): {type(exc).__name__}: {text}{hint}",
        err=True,
    )
    raise typer.Exit(EXIT_INTERNAL)


def is_output_error(exc: OSError) -> bool:
    """Whether ``exc`` is a failure to write standard output (handled by ``main``)."""
    return isinstance(exc, BrokenPipeError) or exc.errno in _OUTPUT_ERRNOS


def reader_gone() -> NoReturn:
    """Standard output's reader went away (``levelgen show big.json | head -2``): point
    standard output at the null device (so that no later flush fails again) and exit with
    ``EXIT_BROKEN_PIPE``, quietly, as a program ended by SIGPIPE."""
    import contextlib

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise typer.Exit(EXIT_BROKEN_PIPE)


#: typer's usage error (a bad option value, an unknown option or command: exit 2), the base of
#: ``typer.BadParameter``.
USAGE_ERROR: type[Exception] = next(
    k for k in typer.BadParameter.__mro__ if k.__name__ == "UsageError"
)


def one_line(exc: Any) -> Any:
    """``exc``, a usage error, made to show itself in one line on standard error, as every
    input problem is reported: ``levelgen pack: Invalid value for '--count': 0 is less than 1;
    see levelgen pack --help``, instead of the usage, a hint and the error on four lines."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # a group without a command: its help
        return exc
    ctx = getattr(exc, "ctx", None)
    command = ctx.command_path if ctx is not None else "levelgen"
    text = " ".join(exc.format_message().split()).rstrip(".")

    def show(file: Any = None) -> None:
        typer.echo(f"{command}: {text}; see {command} --help", err=True)

    exc.show = show
    return exc


class LevelgenGroup(TyperGroup):
    """The top-level command group: commands listed in ``COMMAND_ORDER``, and every command
    (those of later modules and ``bench`` too) run so that an unexpected exception becomes
    one line and exit ``EXIT_INTERNAL``, in the console script and under ``CliRunner`` alike.
    The CLI's own exits (``typer.Exit``, usage errors) pass through; Ctrl-C exits 130."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        names += [name for name in (*LAZY_COMMANDS, *LAZY_GROUPS) if name not in names]
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda name: (rank.get(name, len(rank)), names.index(name)))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command, with its arguments' help showing their metavar (``FILE``) alone, not
        followed by typer's Python type (``FILE <list[str]>``), and its options' values named
        as argparse names them (``--count COUNT``, not ``--count <int range>``) where they
        have no metavar of their own and no list of choices.  The module of a command of
        ``LAZY_COMMANDS`` and a group of ``LAZY_GROUPS`` are imported and added here, the first
        time they are asked for."""
        if cmd_name in LAZY_GROUPS and cmd_name not in self.commands:
            module, attribute = LAZY_GROUPS[cmd_name]
            group = typer.main.get_command(getattr(importlib.import_module(module), attribute))
            self.add_command(group, cmd_name)
        elif cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            importlib.import_module(LAZY_COMMANDS[cmd_name])
            self._add_registered()
        command = super().get_command(ctx, cmd_name)
        # A group's commands too (``levelgen library export ID...``).
        for each in (command, *getattr(command, "commands", {}).values()):
            for param in getattr(each, "params", ()):
                if isinstance(param, TyperArgument) and param.metavar:
                    param.display_type_rich = no_type  # type: ignore[method-assign]
                elif (
                    isinstance(param, TyperOption)
                    and param.metavar is None
                    and not param.is_flag
                    and not getattr(getattr(param, "type_descriptor", None), "is_choice", True)
                    and param.name
                ):
                    param.metavar = param.name.upper()
            for param in each.get_params(ctx) if command is not None else ():
                quick_coercion(param)  # --help too
        return command

    def parse_args(self, ctx: Any, args: list[str]) -> Any:
        for param in self.get_params(ctx):  # the group's own (--help)
            quick_coercion(param)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As typer resolves it; for a name that is no command, every lazy command is loaded
        first, so that typer's "Did you mean" suggestions see them all (``bench`` stays
        unloaded, as before: its imports are heavy)."""
        known = (*self.commands, *LAZY_COMMANDS, *LAZY_GROUPS)
        if args and args[0] not in known:
            for name in (*LAZY_COMMANDS, *LAZY_GROUPS):
                if name != "bench":
                    self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def _add_registered(self) -> None:
        """Add the commands registered on ``app`` since this group was built (by a module of
        ``LAZY_COMMANDS`` imported just now), built as typer builds them."""
        for info in app.registered_commands:
            callback = getattr(info.callback, "__name__", "")
            name = info.name or typer.main.get_command_name(callback)
            if name not in self.commands:
                self.add_command(
                    typer.main.get_command_from_info(
                        info,
                        pretty_exceptions_short=app.pretty_exceptions_short,
                        rich_markup_mode=app.rich_markup_mode,
                    )
                )

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except USAGE_ERROR as exc:
            raise one_line(exc) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except USAGE_ERROR as exc:
            raise one_line(exc) from None
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise
        except FamilySetupError as exc:
            fail(EXIT_USAGE, f"levelgen: {exc}")
        except KeyboardInterrupt:
            typer.echo("levelgen: interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            reader_gone()
        except OSError as exc:
            if is_output_error(exc):
                raise
            internal_error(exc)
        except Exception as exc:
            internal_error(exc)


app = typer.Typer(
    cls=LevelgenGroup,
    name="levelgen",
    help="Generate and verify puzzle levels with replayable proofs: Link-up (Onet, Shisen-Sho),"
    " sliding-tile puzzles, snakes and ladders, and any game a package registers.\n\n"
    + EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain one-line errors: easy to read in logs and to grep
)


def _print_version(value: bool) -> None:
    if value:
        from ..formats.version import VERSION

        try:
            typer.echo(VERSION)
        except BrokenPipeError:
            reader_gone()
        raise typer.Exit(EXIT_OK)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit (as 'levelgen version').",
            is_eager=True,
            callback=_print_version,
        ),
    ] = False,
) -> None:
    """The options of ``levelgen`` itself, before the command; ``LEVELGEN_FAMILIES`` checked
    (exit 2 in one line when an entry is not ``name=package.module:attribute``)."""
    check_variable()


#: The layout file cap: a 64x64 layout is about 4 KiB.
MAX_LAYOUT_BYTES = 64 * 1024


class Method(StrEnum):
    """Which solver decides a level that has no solution."""

    auto = "auto"
    search = "search"
    cpsat = "cpsat"
    exhaustive = "exhaustive"


OutputOption = Annotated[
    str,
    typer.Option(
        "-o",
        "--output",
        help="Where to write the level ('-': standard output). An existing file is replaced"
        " (atomically) unless --no-clobber is given.",
        metavar="FILE",
    ),
]
NoClobberOption = Annotated[
    bool,
    typer.Option(
        "--no-clobber",
        help="Refuse to replace an existing output file (exit 3, nothing written).",
    ),
]
MethodOption = Annotated[
    Method | None,
    typer.Option(
        help="Link-up's solver for levels without a solution: search (exact search), cpsat"
        " (CP-SAT), exhaustive (plain exhaustive search: slow, for few kinds), or auto (search,"
        " then CP-SAT if undecided; above 500 tiles a fast repair solver, then the search)."
        "  [default: auto]",
        show_default=False,
    ),
]


def _finite_seconds(value: float) -> float:
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number of seconds")
    if value < 0:
        raise typer.BadParameter(f"{value:g} is negative: give a number of seconds >= 0")
    return value


TimeLimitOption = Annotated[
    float,
    typer.Option(
        "--time-limit",
        callback=_finite_seconds,
        help="Seconds the solver may take before answering undecided (a finite number >= 0).",
        metavar="SECONDS",
    ),
]


WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        metavar="N",
        help="Processes for auto's race of two repair runs on boards over 500 tiles: 2 or more"
        " runs the second on another core, 1 both in this process (slower; the same answer)."
        "  [default: 2 when this machine has two CPUs or more]",
        show_default=False,
    ),
]


def fail(code: int, message: str) -> NoReturn:
    """Print ``message`` on standard error and exit with ``code``."""
    typer.echo(message, err=True)
    raise typer.Exit(code)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def budget(time_limit: float) -> Budget:
    """A wall-clock budget of ``time_limit`` seconds (the clock is read at the edge)."""
    from ..formats.reports import wall_clock_budget

    return wall_clock_budget(time_limit)


def show_problems(source: str, problems: Iterable[Problem]) -> None:
    from ..formats.reports import problem_lines

    for line in problem_lines(source, problems):
        typer.echo(line, err=True)


def check_output(output: str, no_clobber: bool) -> None:
    """Exit 3 before any work when ``--no-clobber`` forbids replacing ``output``."""
    from ..formats import STDIO

    if no_clobber and output != STDIO and Path(output).exists():
        fail(EXIT_UNREADABLE, f"levelgen: {output} exists; not replaced (--no-clobber)")


def write_data(data: bytes, output: str, *, no_clobber: bool = False) -> None:
    """Write ``data`` to ``output`` through the one writer of every ``-o``
    (:func:`levelgen.formats.write_output`: atomic for a regular file, written through to a
    link's target, a device or a FIFO), or exit 3 saying why it could not."""
    from ..formats import WriteError, write_output

    try:
        write_output(data, output, replace=not no_clobber)
    except WriteError as exc:
        fail(EXIT_UNREADABLE, f"levelgen: {exc}")


@dataclass
class Verdict:
    """The outcome for one file of ``levelgen verify``: its status (see
    :func:`levelgen.formats.reports.status_code`), the message, the problems and the family's own
    figures (``details``, after the common fields in ``--json``)."""

    file: str
    status: str
    message: str = ""
    problems: list[Problem] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def code(self) -> int:
        from ..formats.reports import status_code

        return status_code(self.status)

    def to_data(self) -> dict[str, Any]:
        from ..formats.reports import verdict_data

        return verdict_data(self.file, self.status, self.message, self.problems, self.details)


def read_document(source: str) -> tuple[Family, Any]:
    """The family and document of the file ``source`` (any game: its ``game`` field says
    which); exit 3 when it cannot be read or is not a file of its format, exit 1 when it is
    well-formed but invalid."""
    from ..formats import ReadError, read_json

    try:
        data = read_json(source)
    except ReadError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    return document_of(source, data)


def document_of(source: str, data: object) -> tuple[Family, Any]:
    """:func:`read_document` of JSON data already read."""
    from ..puzzles import DocumentError, family_of

    try:
        family = family_of(data)
        return family, family.read(data)
    except DocumentError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE if exc.is_format else EXIT_INVALID) from None


def require(family: Family, capability: Capability, source: str) -> None:
    """Exit 2 in one line when ``family`` lacks ``capability``."""
    if capability not in family.capabilities:
        fail(EXIT_USAGE, f"{source}: game {family.name!r} has no {capability.value} operation")


def family_options(**given: Any) -> dict[str, Any]:
    """The family options the user gave (those not None), by their spec names."""
    return {name: value for name, value in given.items() if value is not None}


def run_operation(source: str, operation: Callable[[], T]) -> T:
    """``operation()`` (a family's), with its refusals turned into exits: an option it does
    not take or cannot meet exits 2 naming the option, a document it cannot use exits 1 (3
    when not a file of its format) with the problems, a level it cannot make exits 1."""
    from ..puzzles import CreateError, DocumentError

    try:
        return operation()
    except SpecError as exc:
        refuse_option(exc)
    except DocumentError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE if exc.is_format else EXIT_INVALID) from None
    except CreateError as exc:
        fail(EXIT_INVALID, f"levelgen create: {exc}")


def refuse_option(exc: SpecError) -> NoReturn:
    """Exit 2 naming the option (``--step``) and the reason."""
    option = "--" + exc.option.replace("_", "-")
    raise typer.BadParameter(exc.reason, param_hint=f"'{option}'")


def set_values(items: list[str]) -> dict[str, str]:
    """``--set NAME=VALUE`` options as spec values (names with ``-`` read as ``_``)."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{item!r} is not NAME=VALUE", param_hint="'--set'")
        out[name.strip().replace("-", "_")] = value
    return out
