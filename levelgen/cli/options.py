"""The families' own options on the command line, made from their declarations.

``create`` and ``pack`` take every family's create options, ``hint`` every family's hint
options (:class:`levelgen.puzzles.CreateOption`): :func:`with_family_options` adds them to
the command's signature when its module is imported (the command line imports a command's
module when it is used, so ``levelgen verify`` never loads a family it does not need).  An
option several families declare is one option whose help gives each game's meaning and
range.  The values reach the command's ``**family`` by spec name; then
:func:`family_spec_values` checks them against the chosen game: an option that game does not
declare is a usage error naming it, and each value is converted as its
:class:`~levelgen.puzzles.OptionKind` says (a whole number; a file of lines read as text; a
JSON file read as its value).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand

from ..puzzles import (
    CreateOption,
    Family,
    FamilyError,
    FamilySetupError,
    OptionKind,
    family,
    family_names,
)
from .common import EXIT_UNREADABLE, MAX_LAYOUT_BYTES, show_problems

__all__ = [
    "GAME_OPTIONS_CONTEXT",
    "GameOptionsCommand",
    "declared",
    "family_spec_values",
    "game_family",
    "given_values",
    "parse_game_options",
    "with_family_options",
]

F = TypeVar("F", bound=Callable[..., Any])


def declared(option_set: str) -> dict[str, list[tuple[str, CreateOption]]]:
    """Every family's options of ``option_set`` (``create_options``, ``hint_options``) by
    option name: the games that declare it, with their declarations.  A family that cannot be
    loaded is left out here (asking for its game says why)."""
    found: dict[str, list[tuple[str, CreateOption]]] = {}
    try:
        names = family_names()
    except FamilyError:  # a bad LEVELGEN_FAMILIES entry: the built-in games still have theirs
        names = family_names(builtin_only=True)
    for name in names:
        try:
            item = family(name)
        except FamilyError:
            continue
        for option in getattr(item, option_set, ()):
            found.setdefault(option.name, []).append((name, option))
    return found


def _annotation(name: str, games: Sequence[tuple[str, CreateOption]]) -> Any:
    """The typer annotation of the option ``name``, its help naming each game's meaning."""
    flag = "--" + name.replace("_", "-")
    parts = []
    for game, option in games:
        default = f" [default: {option.default}]" if option.default is not None else ""
        parts.append(f"{game}: {option.help}{default}")
    text = "  ".join(parts)
    if all(option.kind is OptionKind.BOOL for _, option in games):
        no = "--no-" + name.replace("_", "-")
        return Annotated[bool | None, typer.Option(f"{flag}/{no}", help=text, show_default=False)]
    metavar = games[0][1].metavar
    if all(option.kind is OptionKind.INT for _, option in games):
        return Annotated[
            int | None, typer.Option(flag, help=text, metavar=metavar, show_default=False)
        ]
    if games[0][1].kind in (OptionKind.LINES, OptionKind.JSON):
        metavar = "FILE"
    return Annotated[str | None, typer.Option(flag, help=text, metavar=metavar, show_default=False)]


def with_family_options(option_set: str) -> Callable[[F], F]:
    """Give a command (a function that ends in ``**family: Any``) an option for each of the
    families' options of ``option_set`` (``create_options``, ``hint_options``); their values
    reach ``family`` by spec name (None when not given: :func:`given_values` drops those)."""

    def decorate(func: F) -> F:
        signature = inspect.signature(func, eval_str=True)
        params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        taken = {p.name for p in params}
        for name, games in sorted(declared(option_set).items()):
            if name not in taken and name.isidentifier():
                params.append(
                    inspect.Parameter(
                        name,
                        inspect.Parameter.POSITIONAL_OR_KEYWORD,
                        default=None,
                        annotation=_annotation(name, games),
                    )
                )
        func.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        func.__annotations__ = {p.name: p.annotation for p in params}
        return func

    return decorate


class GameOptionsCommand(TyperCommand):
    """A command whose game is known only from its file (``hint``): it takes the options it
    does not know as they come (``context_settings`` of :data:`GAME_OPTIONS_CONTEXT`), and
    :func:`parse_game_options` reads them against that game's declarations once the file is
    read, so a hint loads no other game.  Its help lists every game's options."""

    option_set = "hint_options"

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name, games in sorted(declared(self.option_set).items()):
            flag = "--" + name.replace("_", "-")
            kinds = {option.kind for _, option in games}
            metavar = "" if kinds == {OptionKind.BOOL} else " " + games[0][1].metavar
            for game, option in games:
                rows.append((f"{flag}{metavar}", f"{game}: {option.help}"))
        if rows:
            with formatter.section("Options of each game"):
                formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)


#: The context settings of a :class:`GameOptionsCommand`.
GAME_OPTIONS_CONTEXT = {"ignore_unknown_options": True, "allow_extra_args": True}


def parse_game_options(item: Family, args: Sequence[str], option_set: str) -> dict[str, Any]:
    """The options in ``args`` (``--name VALUE``, ``--name=VALUE``, ``--flag``,
    ``--no-flag``) read against the family's declarations of ``option_set``: a usage error
    naming an option the game does not have or an argument that is no option."""
    own = {option.name: option for option in getattr(item, option_set, ())}
    values: dict[str, Any] = {}
    rest = list(args)
    while rest:
        token = rest.pop(0)
        if not token.startswith("--") or token == "--":
            raise typer.BadParameter(f"unexpected argument {token!r}")
        flag, equals, text = token.partition("=")
        name = flag[2:].replace("-", "_")
        negated = (
            name.startswith("no_") and name[3:] in own and own[name[3:]].kind is OptionKind.BOOL
        )
        option = own.get(name[3:] if negated else name)
        if option is None:
            raise typer.BadParameter(f"not an option of game {item.name!r}", param_hint=f"'{flag}'")
        if option.kind is OptionKind.BOOL:
            if equals:
                raise typer.BadParameter("takes no value", param_hint=f"'{flag}'")
            values[option.name] = not negated
            continue
        if not equals:
            if not rest:
                raise typer.BadParameter("requires a value", param_hint=f"'{flag}'")
            text = rest.pop(0)
        values[option.name] = text
    return family_spec_values(item, values, option_set)


def given_values(family: Mapping[str, Any]) -> dict[str, Any]:
    """The families' options the user gave (not None), by spec name."""
    return {name: value for name, value in family.items() if value is not None}


def game_family(game: str) -> Family:
    """The family of ``--game``: a usage error naming the option for an unknown game; a
    family that cannot be loaded is a setup error in one line (exit 2)."""
    try:
        return family(game)
    except FamilySetupError:
        raise  # LEVELGEN_FAMILIES or an entry point: one line naming it (exit 2)
    except FamilyError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--game'") from None


def family_spec_values(
    item: Family, given: Mapping[str, Any], option_set: str = "create_options"
) -> dict[str, Any]:
    """``given`` (as :func:`family_values` gives them) as the family ``item`` takes them: a
    usage error for an option it does not declare or a value that is not of its kind; exit 3
    for a file that cannot be read."""
    own = {option.name: option for option in getattr(item, option_set, ())}
    out: dict[str, Any] = {}
    for name, value in given.items():
        flag = "'--" + name.replace("_", "-") + "'"
        option = own.get(name)
        if option is None:
            raise typer.BadParameter(f"not an option of game {item.name!r}", param_hint=flag)
        out[name] = _converted(option, value, flag)
    return out


def _converted(option: CreateOption, value: Any, flag: str) -> Any:
    if option.kind is OptionKind.BOOL and not isinstance(value, bool):
        raise typer.BadParameter(f"{value!r} is not a flag", param_hint=flag)
    if option.kind is OptionKind.INT and isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            raise typer.BadParameter(f"{value!r} is not a whole number", param_hint=flag) from None
    if option.kind is OptionKind.LINES and isinstance(value, str):
        from ..formats import ReadError, read_text

        try:
            return read_text(value, max_bytes=MAX_LAYOUT_BYTES, what=option.name)
        except ReadError as exc:
            show_problems(value, exc.problems)
            raise typer.Exit(EXIT_UNREADABLE) from None
    if option.kind is OptionKind.JSON and isinstance(value, str):
        from ..formats import ReadError, read_json

        try:
            return read_json(value)
        except ReadError as exc:
            show_problems(value, exc.problems)
            raise typer.Exit(EXIT_UNREADABLE) from None
    return value
