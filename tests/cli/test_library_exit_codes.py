"""``levelgen library`` exits as the README's table says: an unreadable file 3 (empty, binary,
missing), a filter value no level can have 2, a database that cannot be reached 3 in one
clean line (no driver exception's name, no password)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()
LEVELS = Path(__file__).resolve().parents[2] / "levels"


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    result = runner.invoke(
        app, ["library", "import", str(LEVELS / "classic_12x8.json"), "--db", url]
    )
    assert result.exit_code == 0, result.output
    return url


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not UTF-8"),
        (b"{not json", "not JSON"),
        (json.dumps({"game": "linkup", "format_version": 1}).encode(), "/"),
        (json.dumps({"game": "sliding-puzzle", "format_version": 1}).encode(), "/"),
    ],
)
def test_import_of_an_unreadable_or_schema_invalid_file_exits_3(
    tmp_path: Path, db: str, content: bytes, reason: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    result = runner.invoke(app, ["library", "import", str(bad), "--db", db])
    assert result.exit_code == 3, result.output
    assert reason in result.output


@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        ("--band", "nightmare", "'nightmare' is not a band (easy, medium, hard, expert)"),
        ("--size", "99x99", "99x99 is no game's size (sides 1..64 at most)"),
        ("--size", "big", "'big' is not of the form WxH"),
        ("--game", "chess", "unknown game 'chess'"),
        ("--max-turns", "9", "9 is not in 0..8"),
    ],
)
def test_list_refuses_a_filter_no_level_can_have(
    db: str, option: str, value: str, reason: str
) -> None:
    result = runner.invoke(app, ["library", "list", option, value, "--db", db])
    assert result.exit_code == 2, result.output
    (line,) = result.output.splitlines()
    assert f"Invalid value for '{option}': {reason}" in line


def test_list_with_good_filters_lists(db: str) -> None:
    for args in (["--band", "easy"], ["--size", "12x8"], ["--game", "linkup"], []):
        result = runner.invoke(app, ["library", "list", *args, "--db", db])
        assert result.exit_code == 0, result.output


UNREACHABLE = "postgresql+psycopg://levelgen:s3cret@127.0.0.1:1/nowhere?connect_timeout=2"


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["export", "0" * 64, "-o", "out"],
        ["import", str(LEVELS / "classic_12x8.json")],
    ],
)
def test_an_unreachable_database_is_one_clean_line_exit_3(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["library", *args, "--db", UNREACHABLE])
    assert result.exit_code == 3, result.output
    (line,) = result.output.splitlines()
    assert line.startswith("levelgen library: --db: cannot use the library at postgresql")
    assert "OperationalError" not in line and "s3cret" not in line and "(psycopg" not in line
    assert "127.0.0.1" in line
