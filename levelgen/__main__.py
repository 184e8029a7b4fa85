"""``python -m levelgen`` runs the command-line interface."""

from .cli import main

main()
