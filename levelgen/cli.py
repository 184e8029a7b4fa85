"""The ``levelgen`` command line: thin typer commands over the library.

Exit codes: 0 ok / solvable, 1 level well-formed but invalid or unsolvable, 2 usage error,
3 unreadable or schema-invalid input, 4 undecided within the budget.
"""

from __future__ import annotations

import typer

from . import __version__
from .bench import bench_app

__all__ = ["app", "main"]

EXIT_CODES_HELP = (
    "Exit codes: 0 ok or solvable; 1 level well-formed but invalid or unsolvable; 2 usage error;"
    " 3 unreadable or schema-invalid input; 4 undecided within the budget."
)

app = typer.Typer(
    name="levelgen",
    help="Generate and verify Link-up (Onet, Shisen-Sho) levels with proofs of solvability.\n\n"
    + EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(bench_app, name="bench")


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


def main() -> None:
    """Entry point of the console script."""
    app()
