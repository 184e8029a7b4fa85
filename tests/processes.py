"""Running the console script's entry point in a fresh interpreter, to see what a command
loads and how the process ends (shared by the start-up tests)."""

from __future__ import annotations

import subprocess
import sys

_CODE = (
    "import atexit, sys\n"
    "from levelgen.cli import main\n"
    "def loaded():\n"
    "    names = sorted(m for m in sys.modules if m.startswith(tuple(prefixes)))\n"
    "    print('LOADED', *names)\n"
    "prefixes = sys.argv[1].split(',')\n"
    "atexit.register(loaded)\n"
    "sys.argv = ['levelgen', *sys.argv[2:]]\n"
    "main()\n"
)


def run_main(args: list[str], prefixes: tuple[str, ...]) -> tuple[int, str, list[str]]:
    """Run ``levelgen ARGS`` through ``levelgen.cli.main`` in a new process: its exit code,
    its standard output and error (without the last line), and the modules starting with one
    of ``prefixes`` loaded when it ended (read by an exit handler, which runs however the
    process ends)."""
    done = subprocess.run(
        [sys.executable, "-c", _CODE, ",".join(prefixes), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    output, _, last = done.stdout.rstrip("\n").rpartition("\n")
    if not last.startswith("LOADED"):
        output, last = done.stdout, ""  # pragma: no cover - the handler did not run
    assert last.startswith("LOADED"), (done.stdout, done.stderr)
    return done.returncode, output + "\n" + done.stderr, last.split()[1:]
