"""``levelgen tables``: the cached tables of the games that keep them (the sliding puzzle's
pattern databases and whole-space tables), each game's commands added through the family
table (:meth:`levelgen.puzzles.Family.add_table_commands`)."""

from __future__ import annotations

import typer

from ..puzzles import families

__all__ = ["tables_app"]

tables_app = typer.Typer(
    help="Cached tables of the games that keep them (the sliding puzzle's pattern databases):"
    " list, build, clear.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
for _family in families().values():
    _family.add_table_commands(tables_app)
