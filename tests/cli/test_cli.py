"""The command line, through typer's CliRunner: every command, its output and its exit code."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner, Result

import levelgen.cli.create
import levelgen.linkup.solvers
from levelgen import __version__
from levelgen.cli import app
from levelgen.cli.common import LevelgenGroup
from levelgen.linkup.schema import level_json_schema
from levelgen.linkup.solvers import SolveResult, SolveStatus
from tests.processes import run_main

runner = CliRunner()


def run(*args: str, input: str | None = None) -> Result:
    """Invoke the CLI; any exception other than a clean exit is a bug."""
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def hand_made(tmp_path: Path, rows: list[list[int]], outside: bool = True) -> Path:
    path = tmp_path / "hand.json"
    data = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": outside},
        "board": {"width": len(rows[0]), "height": len(rows), "rows": rows},
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ----- create ---------------------------------------------------------------------------------


def test_create_writes_a_level_to_standard_output() -> None:
    result = run("create", "--size", "12x8", "--seed", "42")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "linkup" and data["format_version"] == 1
    assert (data["board"]["width"], data["board"]["height"]) == (12, 8)
    assert len(data["solution"]) == 48
    assert data["generator"]["seed"] == 42
    assert result.stderr == ""  # not a terminal, no -o: nothing but the level


def test_same_seed_same_bytes() -> None:
    args = ("create", "--size", "10x6", "--seed", "7", "--max-turns", "3", "--no-outside")
    first, second = run(*args), run(*args)
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["rules"] == {"max_turns": 3, "outside": False}


def test_create_without_seed_records_the_seed_it_drew(tmp_path: Path) -> None:
    out = tmp_path / "level.json"
    result = run("create", "--size", "6x4", "-o", str(out))
    assert result.exit_code == 0
    seed = json.loads(out.read_text(encoding="utf-8"))["generator"]["seed"]
    again = run("create", "--size", "6x4", "--seed", str(seed))
    assert again.stdout == out.read_text(encoding="utf-8")
    assert f"seed {seed}" in result.stderr and str(out) in result.stderr


def test_create_on_a_terminal_shows_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levelgen.cli.create, "stderr_is_terminal", lambda: True)
    result = run("create", "--size", "6x4", "--seed", "1", "--kinds", "3")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert "6x4, 24 tiles, 3 kinds" in lines[-1]
    assert any(line.startswith(" 0 ·") for line in lines)
    json.loads(result.stdout)


def test_create_with_a_layout(tmp_path: Path) -> None:
    layout = tmp_path / "shape.txt"
    layout.write_text("oooooo\noo..oo\no#oo#o\noooooo\n", encoding="utf-8")
    result = run("create", "--layout", str(layout), "--seed", "3")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["board"]["rows"]
    assert rows[1][2:4] == [0, 0] and rows[2][1] == -1 and rows[2][4] == -1
    assert run("create", "--layout", str(layout), "--size", "6x4", "--seed", "3").stdout == (
        result.stdout
    )


# ----- verify ---------------------------------------------------------------------------------


def test_verify_a_created_level(tmp_path: Path) -> None:
    out = tmp_path / "level.json"
    assert run("create", "--size", "12x8", "--seed", "5", "-o", str(out)).exit_code == 0
    result = run("verify", str(out))
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{out}: ok: solution replayed (12x8, 96 tiles")


def test_verify_reads_standard_input() -> None:
    level = run("create", "--size", "6x4", "--seed", "9").stdout
    result = run("verify", "-", input=level)
    assert result.exit_code == 0 and result.stdout.startswith("-: ok")


def test_verify_json_and_the_most_serious_exit_code(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    run("create", "--size", "6x4", "--seed", "1", "-o", str(good))
    data = json.loads(good.read_text(encoding="utf-8"))
    data["solution"].pop()
    invalid = tmp_path / "invalid.json"
    invalid.write_text(json.dumps(data), encoding="utf-8")
    missing = tmp_path / "missing.json"
    result = run("verify", "--json", str(good), str(invalid), str(missing))
    report = json.loads(result.stdout)
    assert result.exit_code == 3 == report["exit_code"]
    statuses = [(f["status"], f["exit_code"]) for f in report["files"]]
    assert statuses == [("ok", 0), ("invalid", 1), ("unreadable", 3)]
    assert report["files"][1]["problems"][0]["pointer"] == "/solution"
    assert run("verify", str(good), str(invalid)).exit_code == 1


def test_verify_solves_a_level_without_solution(tmp_path: Path) -> None:
    path = hand_made(tmp_path, [[1, 2, 2, 1], [3, -1, 0, 3], [1, 2, 2, 1]])
    result = run("verify", str(path), "--method", "search")
    assert result.exit_code == 0
    assert result.stdout == f"{path}: solvable: a solution of 5 steps was found\n"


def test_verify_reports_an_unsolvable_level_with_its_deadlock_core(tmp_path: Path) -> None:
    rows = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]
    path = hand_made(tmp_path, rows, outside=False)
    result = run("verify", str(path), "--method", "search", "--json")
    assert result.exit_code == 1
    (verdict,) = json.loads(result.stdout)["files"]
    assert verdict["status"] == "unsolvable"
    assert [0, 0] in verdict["deadlock"]
    text = run("verify", str(path), "--method", "search").stdout
    assert text.startswith(f"{path}: unsolvable: ") and "deadlock core: [0, 0]" in text


def _undecided(*args: Any, **kwargs: Any) -> SolveResult:
    return SolveResult(SolveStatus.UNKNOWN, reason="the node budget ran out")


def test_verify_undecided_exits_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levelgen.linkup.solvers, "solve", _undecided)
    path = hand_made(tmp_path, [[1, 1]])
    result = run("verify", str(path), "--time-limit", "2")
    assert result.exit_code == 4
    assert result.stdout == f"{path}: undecided within 2 s: the node budget ran out\n"


def test_verify_does_not_load_ortools(tmp_path: Path) -> None:
    """The quick path: a level with a solution is replayed without CP-SAT, rich or pydantic
    (neither the level models nor typer's coercion of the files, numbers and choices)."""
    out = tmp_path / "level.json"
    run("create", "--size", "12x8", "--seed", "5", "-o", str(out))
    args = ["verify", str(out), "--time-limit", "10", "--method", "auto", "--workers", "2"]
    banned = ("ortools", "levelgen.linkup.solvers.cpsat", "rich", "typer._adapters", "pydantic")
    code, _, loaded = run_main(args, banned)
    assert code == 0 and loaded == []


def test_hint_and_version_load_only_what_they_use(tmp_path: Path) -> None:
    """Start-up: a command imports its own module only (the others load lazily), typer's
    pydantic coercion is not built for values that need none, a classic file leaves the
    variant modules alone, and a hint the search settles leaves CP-SAT's modules alone; a
    hint on a classic level file and ``version`` do without pydantic."""
    out = tmp_path / "level.json"
    run("create", "--size", "12x8", "--seed", "5", "-o", str(out))
    banned = (
        "typer._adapters",
        "ortools",
        "levelgen.linkup.solvers.cpsat",
        "levelgen.linkup.play.variants",
        "levelgen.cli.create",
        "levelgen.cli.verify",
        "levelgen.cli.render",
        "levelgen.bench",
        "levelgen.linkup.bench",
    )
    for args in (["hint", str(out)], ["hint", str(out), "--json"], ["version"]):
        code, _, loaded = run_main(args, (*banned, "pydantic"))
        assert code == 0 and loaded == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["create", "--size", "4x2", "--seed", "1"], ["schema"]])
def test_unwritable_standard_output_is_a_message(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "levelgen", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 3
    assert "No space left on device" in done.stderr
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr


def test_reader_going_away_is_quiet() -> None:
    done = subprocess.run(
        f"{sys.executable} -m levelgen create --size 64x64 --seed 1 | head -c 10 >/dev/null",
        shell=True,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr


def test_a_command_leaves_at_once_with_its_code_its_output_and_its_exit_handlers(
    tmp_path: Path,
) -> None:
    """The console script ends the process as soon as a command is done (no interpreter
    teardown): all of the output is there, the exit code is the command's, and the exit
    handlers ran (after the output, as at an ordinary exit: ``run_main`` reads the modules
    in one)."""
    out = tmp_path / "level.json"
    run("create", "--size", "12x8", "--seed", "5", "-o", str(out))
    code, output, loaded = run_main(["verify", str(out), "--json"], ("levelgen.cli.verify",))
    assert code == 0 and loaded == ["levelgen.cli.verify"]
    assert json.loads(output)["files"][0]["status"] == "ok"
    code, output, _ = run_main(["show", str(out)], ())
    assert code == 0 and "12x8, 96 tiles" in output
    code, output, _ = run_main(["verify", str(tmp_path / "missing.json")], ())
    assert code == 3 and "missing.json: no such file" in output


# ----- internal errors --------------------------------------------------------------------------


def _boom(*args: object, **kwargs: object) -> None:
    raise ZeroDivisionError("division by zero\nin a library function")


@pytest.mark.parametrize(
    ("target", "args"),
    [
        ("levelgen.linkup.generate.spec.generate", ["create", "--size", "4x4", "--seed", "1"]),
        ("levelgen.linkup.verify.replay", ["verify", "LEVEL"]),
        ("levelgen.linkup.solvers.solve", ["solve", "HAND"]),
        ("levelgen.linkup.draw.terminal.render_board", ["show", "LEVEL"]),
        ("levelgen.formats.format_json", ["schema"]),
        ("levelgen.linkup.bench.paths.boards_for_command", ["bench", "paths", "--check", "0"]),
    ],
)
def test_an_unexpected_exception_is_a_bug_exit_70(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, args: list[str]
) -> None:
    """Any command, bench included: one line naming the exception, exit 70 (never 1 or 4),
    and no file left behind."""
    level = tmp_path / "level.json"
    assert run("create", "--size", "6x4", "--seed", "3", "-o", str(level)).exit_code == 0
    hand = hand_made(tmp_path, [[1, 2, 2, 1]])
    args = [{"LEVEL": str(level), "HAND": str(hand)}.get(a, a) for a in args]
    monkeypatch.setattr(target, _boom)
    monkeypatch.delenv("LEVELGEN_DEBUG", raising=False)
    out = tmp_path / "out.json"
    if args[0] in ("create", "solve"):
        args += ["-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 70, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("levelgen: internal error (a bug, please report it):")
    assert "ZeroDivisionError: division by zero in a library function" in lines[0]
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.json", "level.json"]


def test_internal_error_traceback_with_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("levelgen.linkup.generate.spec.generate", _boom)
    monkeypatch.setenv("LEVELGEN_DEBUG", "1")
    result = runner.invoke(app, ["create", "--size", "4x4", "--seed", "1"])
    assert result.exit_code == 70
    assert "Traceback (most recent call last)" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("levelgen: internal error")


def test_internal_error_in_the_console_script(tmp_path: Path) -> None:
    """``main`` (the installed ``levelgen``) gives the same exit code and line."""
    script = (
        "import levelgen.linkup.generate.generator as g\n"
        "def boom(*a, **k): raise KeyError('oops')\n"
        "g.generate = boom\n"
        "from levelgen.cli import main\n"
        "main()\n"
    )
    out = tmp_path / "x.json"
    done = subprocess.run(
        [sys.executable, "-c", script, "create", "--size", "4x4", "--seed", "1", "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 70, done.stderr
    assert done.stderr.count("\n") == 1 and "KeyError: 'oops'" in done.stderr
    assert not out.exists()


def test_exit_codes_are_documented() -> None:
    text = run("--help").stdout
    assert "70 internal error" in text
    for command in ("create", "verify", "solve", "show", "schema"):
        assert "70" in run(command, "--help").stdout, command


def test_command_order_in_help() -> None:
    text = run("--help").stdout
    listed = [line.split()[0] for line in text.split("Commands:")[1].splitlines() if line.strip()]
    assert listed[:7] == ["create", "verify", "solve", "show", "schema", "version", "bench"]


# ----- progress ---------------------------------------------------------------------------------


def test_progress_bar_on_a_terminal_only() -> None:
    from rich.console import Console

    from levelgen.cli.progress import progress_bar
    from levelgen.formats.progress import no_progress

    with progress_bar("creating 4x4") as report:  # under pytest stderr is no terminal
        assert report is no_progress
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    with progress_bar("creating 64x64", console=console) as report:
        report("removal order", 1024, 2048)
    assert "creating 64x64: removal order" in out.getvalue()
    assert "50%" in out.getvalue()


def test_create_quiet_when_stderr_is_not_a_terminal() -> None:
    result = run("create", "--size", "24x24", "--max-turns", "0", "--seed", "2")
    assert result.exit_code == 0 and result.stderr == ""


# ----- file and CLI edges (issue 15, section 4) -------------------------------------------------


def test_a_board_without_tiles_is_refused(tmp_path: Path) -> None:
    empty = hand_made(tmp_path, [[0, -1, 0], [0, 0, 0]])
    for command in ("verify", "solve", "show"):
        result = run(command, str(empty))
        assert result.exit_code == 3, (command, result.output)
        assert f"{empty}: /board/rows: the board has no tile" in result.output


def test_schema_identifier_must_be_exact(tmp_path: Path) -> None:
    path = hand_made(tmp_path, [[1, 2, 2, 1]])
    data = json.loads(path.read_text())
    data["$schema"] = "https://example.com/anything"
    path.write_text(json.dumps(data))
    result = run("verify", str(path))
    assert result.exit_code == 3 and "/$schema" in result.output


def test_solve_records_who_solved_it(tmp_path: Path) -> None:
    made = tmp_path / "made.json"
    assert run("create", "--size", "4x2", "--seed", "7", "-o", str(made)).exit_code == 0
    data = json.loads(made.read_text())
    data["board"]["rows"] = [[1, 2, 2, 1], [3, 3, 4, 4]]  # hand-edited
    for key in ("solution", "metrics", "id"):
        data.pop(key)
    made.write_text(json.dumps(data))
    out = tmp_path / "solved.json"
    result = run("solve", str(made), "--method", "search", "-o", str(out))
    assert result.exit_code == 0, result.output
    generator = json.loads(out.read_text())["generator"]
    assert generator["name"] == "levelgen-solve" and generator["version"] == __version__
    assert "seed" not in generator
    assert generator["parameters"]["method"] == "search"
    assert generator["parameters"]["requested_method"] == "search"
    assert run("verify", str(out)).exit_code == 0


def test_method_exhaustive_is_offered(tmp_path: Path) -> None:
    path = hand_made(tmp_path, [[1, 2, 2, 1]])
    result = run("verify", str(path), "--method", "exhaustive")
    assert result.exit_code == 0, result.output
    assert "solvable: a solution of 2 steps" in result.stdout
    assert "exhaustive" in run("solve", "--help").stdout


def test_unknown_generator_parameter_is_refused(tmp_path: Path) -> None:
    made = tmp_path / "made.json"
    assert run("create", "--size", "4x2", "--seed", "7", "-o", str(made)).exit_code == 0
    data = json.loads(made.read_text())
    data["generator"]["parameters"]["colour"] = "red"
    made.write_text(json.dumps(data))
    result = run("verify", str(made))
    assert result.exit_code == 3
    assert "/generator/parameters/colour: unknown parameter" in result.output


def test_schema_check_on_a_level_file_says_it_is_not_a_schema(tmp_path: Path) -> None:
    level = tmp_path / "level.json"
    assert run("create", "--size", "4x2", "--seed", "7", "-o", str(level)).exit_code == 0
    before = level.read_bytes()
    result = run("schema", "--check", "--file", str(level))
    assert result.exit_code == 3
    assert "not a JSON Schema (it looks like a level file" in result.output
    assert "schema -o" not in result.output
    assert level.read_bytes() == before


def test_schema_registry_serves_names() -> None:
    assert json.loads(run("schema", "level").stdout) == level_json_schema()
    assert run("schema", "nope").exit_code == 2
    result = run("schema", "--check")
    assert result.exit_code == 0 and "level.v1.schema.json: up to date" in result.stdout


def test_verify_json_message_for_invalid_and_unreadable(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    empty = hand_made(tmp_path, [[0, 0]])
    text = run("verify", str(bad), str(empty)).output
    report = json.loads(run("verify", "--json", str(bad), str(empty)).stdout)
    messages = [f["message"] for f in report["files"]]
    assert all(messages)
    assert "\n".join(messages) == text.strip()


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_time_limit_must_be_finite(tmp_path: Path, value: str) -> None:
    path = hand_made(tmp_path, [[1, 2, 2, 1]])
    result = run("verify", str(path), f"--time-limit={value}")
    assert result.exit_code == 2
    assert "is not a finite number of seconds" in result.output


def test_sizes_take_ascii_digits_only() -> None:
    result = run("create", "--size", "１２x8", "--seed", "1")
    assert result.exit_code == 2 and "WxH" in result.output


def test_singular_words() -> None:
    result = run("create", "--size", "2x1", "--seed", "1", "--max-turns", "1", "--copies", "2")
    assert result.exit_code == 0
    from levelgen.linkup import format_summary
    from levelgen.linkup.schema import parse_level_data

    data = json.loads(result.stdout)
    assert data["board"]["rows"] == [[1, 1]]
    summary = format_summary(parse_level_data(data).to_core())
    assert "2 tiles, 1 kind, max 1 turn" in summary and "solution 1 step," in summary
    odd = run("create", "--size", "3x1", "--seed", "1")
    assert "3 tile cells" in odd.output


def test_help_shows_file_not_python_types() -> None:
    for command in ("verify", "solve", "show"):
        assert "<list[str]>" not in run(command, "--help").stdout
        assert "<str>" not in run(command, "--help").stdout
    for command in ("verify", "solve", "hint"):
        shown = run(command, "--help").stdout
        assert "--workers N" in shown and "<int range>" not in shown


@pytest.mark.parametrize(
    "command",
    [
        *(
            [name]
            for name in [
                "create",
                "verify",
                "solve",
                "show",
                "schema",
                "hint",
                "shuffle",
                "render",
                "export",
                "play",
                "pack",
                "serve",
            ]
        ),
        *(
            ["bench", name]
            for name in ["paths", "solve", "create", "shape", "play", "pack", "serve"]
        ),
        *(["library", name] for name in ["import", "list", "export"]),
        *(["tables", name] for name in ["list", "build", "clear"]),
        ["bench", "sliding"],
    ],
)
def test_help_names_values_not_python_types(command: list[str]) -> None:
    # An option's value is named (``--count COUNT``, ``--time-limit SECONDS``) or its choices
    # listed (``--format <tiled|csv|json-grid>``), never typer's type (``<int range>``).
    shown = run(*command, "--help")
    assert shown.exit_code == 0, shown.output
    for python_type in ("<int", "<float", "<str", "<path", "<list", "range>"):
        assert python_type not in shown.stdout, (command, python_type)


def test_no_clobber(tmp_path: Path) -> None:
    target = tmp_path / "level.json"
    target.write_text("keep me")
    assert "replaced" in run("create", "--help").stdout
    for args in (
        ["create", "--size", "4x2", "--seed", "1"],
        ["schema"],
        ["solve", str(hand_made(tmp_path, [[1, 2, 2, 1]]))],
    ):
        result = run(*args, "-o", str(target), "--no-clobber")
        assert result.exit_code == 3, args
        assert "exists; not replaced" in result.output
        assert target.read_text() == "keep me"
    assert run("create", "--size", "4x2", "--seed", "1", "-o", str(target)).exit_code == 0
    assert json.loads(target.read_text())["game"] == "linkup"


def test_no_clobber_write_is_atomic_against_a_racing_file(tmp_path: Path) -> None:
    from levelgen.linkup.files import WriteError, write_text

    target = tmp_path / "x.txt"
    write_text("one", target, replace=False)
    with pytest.raises(WriteError, match="exists; not replaced"):
        write_text("two", target, replace=False)
    assert target.read_text() == "one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]


def _outputs(tmp_path: Path, target: Path) -> list[list[str]]:
    """A command line of each kind of ``-o`` writer: a level, a schema, a solved file, an SVG."""
    hand = str(hand_made(tmp_path, [[1, 2, 2, 1]]))
    return [
        ["create", "--size", "4x2", "--seed", "1", "-o", str(target)],
        ["schema", "-o", str(target)],
        ["solve", hand, "-o", str(target)],
        ["render", hand, "-o", str(target)],
    ]


def test_output_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    # ``-o link`` writes the file the link names (as cp and sort -o do) and keeps the link.
    real = tmp_path / "real.svg"
    link = tmp_path / "link.svg"
    link.symlink_to(real)  # dangling at first: the first write creates the target
    for args in _outputs(tmp_path, link):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
        assert link.is_symlink(), args
        assert real.is_file() and real.stat().st_size > 0, args


def test_output_to_a_fifo_writes_through(tmp_path: Path) -> None:
    # ``-o FIFO`` writes into the pipe for its reader; the FIFO is not replaced by a file.
    import os
    import stat
    import threading

    fifo = tmp_path / "pipe.svg"
    os.mkfifo(fifo)
    for args in _outputs(tmp_path, fifo):
        received: list[bytes] = []
        reader = threading.Thread(
            target=lambda into=received: into.append(fifo.read_bytes()), daemon=True
        )
        reader.start()
        result = run(*args)
        reader.join(timeout=30)
        assert not reader.is_alive(), args
        assert result.exit_code == 0, (args, result.output)
        assert stat.S_ISFIFO(fifo.stat().st_mode), args
        assert received and received[0], args


def test_output_to_a_device_keeps_the_device(tmp_path: Path) -> None:
    # ``-o /dev/null`` as root once replaced the device with a regular file.  A private node
    # of the null device (major 1, minor 3) stands in for it; making one needs CAP_MKNOD.
    import os
    import stat

    null = tmp_path / "null.svg"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root (CAP_MKNOD)")
    for args in _outputs(tmp_path, null):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
        assert stat.S_ISCHR(null.stat().st_mode), args
    assert run("create", "--size", "4x2", "-o", str(null), "--no-clobber").exit_code == 3
    assert stat.S_ISCHR(null.stat().st_mode)


def test_output_to_a_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "out.svg"
    folder.mkdir()
    for args in _outputs(tmp_path, folder):
        result = run(*args)
        assert result.exit_code == 3, (args, result.output)
        assert "is a directory" in result.output, args
    assert folder.is_dir() and not any(folder.iterdir())


def test_show_warns_about_an_odd_kind(tmp_path: Path) -> None:
    path = hand_made(tmp_path, [[1, 2, 2, 1, 3]])
    result = run("show", str(path))
    assert result.exit_code == 0
    assert "warning: kind 3 has 1 tile, an odd number" in result.stderr
    even = run("show", str(hand_made(tmp_path, [[1, 2, 2, 1]])))
    assert even.stderr == ""


def test_group_commands_show_their_argument_without_its_python_type() -> None:
    from levelgen.cli import app as cli_app

    shown = CliRunner().invoke(cli_app, ["library", "export", "--help"]).output
    assert "<list[str]>" not in shown and "ID" in shown


class _Pick(StrEnum):
    auto = "auto"
    search = "search"


_NUMBERS = ["0", "1", "7", "10", "2.5", "0.1", "007", "1e3", " 5", "-1", "+1", "1_000", "nan"]
_NUMBERS += ["inf", "99999999999999999999", "１２", "0x10", "3.", ".5", "12.250"]


@pytest.mark.parametrize(
    "args",
    [
        ["a.json"],
        ["a.json", "-", "b c.json"],
        ["--", "-x.json"],
        ["--tag", "t", "a"],
        [],
        *(["a", "--count", text] for text in _NUMBERS),
        *(["a", "--seconds", text] for text in _NUMBERS),
        *(["a", "--pick", text] for text in ["auto", "search", "Search", "cpsat", ""]),
    ],
)
def test_quick_coercion_gives_what_typer_gives(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``list[str]`` argument (``FILE...``) and option, numbers and choices given as text,
    coerced without typer's pydantic adapter where they plainly need none, come out as
    typer's own coercion gives them (the same values and types, the same errors), and no
    adapter is built for the lists, plain numbers and choices."""
    import typer._coercion

    seen: list[str] = []
    built: list[object] = []
    build = typer._coercion.build_runtime_param

    def recording(descriptor: Any) -> Any:
        built.append(descriptor.annotation)
        return build(descriptor)

    monkeypatch.setattr(typer._coercion, "build_runtime_param", recording)

    def command(
        files: Annotated[list[str], typer.Argument(metavar="FILE")],
        tag: Annotated[list[str] | None, typer.Option()] = None,
        count: Annotated[int | None, typer.Option(min=1, max=10)] = None,
        seconds: Annotated[float, typer.Option(min=0)] = 1.0,
        pick: Annotated[_Pick, typer.Option()] = _Pick.auto,
    ) -> None:
        seen.append(repr((files, tag, count, seconds, pick)))

    outcomes = []
    for group in (LevelgenGroup, TyperGroup):
        each = typer.Typer(cls=group)
        each.command()(command)
        each.command("other")(command)  # a group, as levelgen's own app
        result = CliRunner().invoke(each, ["command", *args])
        outcomes.append((result.exit_code, result.output))
        option, value = (args[1], args[2]) if len(args) == 3 else ("", "")
        plain = {
            "": ("",),
            "--count": ("1", "7", "10"),
            "--seconds": ("0", "1", "7", "10", "2.5", "0.1", "12.250"),
            "--pick": ("auto", "search"),
        }.get(option, ())
        if group is LevelgenGroup and value in plain:
            assert built == []
    if "Value error, " in outcomes[1][1]:
        # A choice typer refuses in pydantic's words: levelgen names the value and the choices.
        assert outcomes[0][0] == outcomes[1][0] == 2 and not seen
        assert f"{value!r} is not one of: auto, search" in outcomes[0][1]
        assert "Value error" not in outcomes[0][1]
        return
    if "Input should be" in outcomes[1][1]:
        # A number typer refuses in pydantic's words: levelgen says it in its own.
        assert outcomes[0][0] == outcomes[1][0] == 2 and not seen
        assert "Input should be" not in outcomes[0][1]
        assert f"{value}" in outcomes[0][1] and f"'{option}'" in outcomes[0][1]
        return
    assert outcomes[0] == outcomes[1]
    assert len(seen) in (0, 2) and seen[:1] == seen[1:]
    assert seen or outcomes[0][0] == 2
