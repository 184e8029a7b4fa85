"""Reading and writing level files: strict JSON, caps, canonical bytes, atomic writes."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.files import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    ReadError,
    WriteError,
    format_json,
    format_level,
    parse_json,
    read_bytes,
    read_level,
    read_text,
    write_level,
    write_text,
)
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.schema import LevelFile


def read_problem(text: str) -> tuple[str, str]:
    with pytest.raises(ReadError) as info:
        parse_json(text)
    (problem,) = info.value.problems
    return problem.pointer, problem.message


# ----- canonical output ------------------------------------------------------------------------


def test_same_level_same_bytes_and_a_trailing_newline() -> None:
    level = generate(Size(8, 6), seed=11)
    text = format_level(level)
    assert text == format_level(generate(Size(8, 6), seed=11))
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == format_level(LevelFile.from_core(level))


def test_reading_and_writing_again_changes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "level.json"
    text = write_level(generate(Size(6, 4), seed=2, rules=Rules(1, True)), target)
    assert target.read_text(encoding="utf-8") == text
    assert format_level(read_level(target)) == text


def test_free_form_maps_are_sorted(tmp_path: Path) -> None:
    data = json.loads(format_level(generate(Size(4, 2), seed=1)))
    data["generator"]["name"] = "another-tool"  # free-form parameters
    data["generator"]["parameters"] = {"zeta": 1, "alpha": 2}
    target = tmp_path / "level.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    written = format_level(read_level(target))
    assert written.index('"alpha"') < written.index('"zeta"')


def test_format_json_layout() -> None:
    value = {"rows": [[1, 2], [3, 4]], "long": list(range(60)), "empty": [], "o": {}}
    text = format_json(value)
    assert json.loads(text) == value
    assert '"long": [0, 1, 2,' in text  # arrays of numbers stay on one line
    assert text.splitlines()[0] == "{"
    with pytest.raises(ValueError):
        format_json({"x": float("nan")})


# ----- strict JSON ------------------------------------------------------------------------------


def test_duplicate_keys_are_named_with_their_place() -> None:
    assert read_problem('{"a": 1, "a": 2}') == ("/a", "duplicate key 'a'")
    text = '{"board": {"rows": [[1]], "x/y": {"k": 1, "k": 2}}}'
    assert read_problem(text) == ("/board/x~1y/k", "duplicate key 'k'")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused(constant: str) -> None:
    pointer, reason = read_problem(f'{{"metrics": {{"mean_moves": {constant}}}}}')
    assert pointer == "/metrics/mean_moves"
    assert reason.endswith("is not allowed: JSON numbers must be finite")


def test_numbers_too_large_are_refused() -> None:
    assert read_problem("[1, 1e999]") == ("/1", "the number 1e999 is too large")
    pointer, reason = read_problem("[" + "9" * 5000 + "]")
    assert pointer == "/0" and reason == "an integer of 5000 digits is too long"


def test_deep_nesting_is_refused_with_the_place() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    parse_json(ok)
    pointer, reason = read_problem("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert pointer == "/0" * MAX_DEPTH
    assert reason == f"arrays and objects are nested deeper than the limit of {MAX_DEPTH}"
    # Deeper than Python's recursion limit: still a clean error.
    assert read_problem("[" * 100_000)[1] == reason


def test_syntax_errors_give_line_and_column() -> None:
    assert read_problem('{\n  "a": tru\n}') == (
        "",
        "not JSON: Expecting value at line 2 column 8",
    )


# ----- files ------------------------------------------------------------------------------------


def test_missing_directory_empty_and_whitespace_files(tmp_path: Path) -> None:
    cases = {
        tmp_path / "none.json": "no such file",
        tmp_path: "is a directory, not a file",
    }
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "blank.json").write_bytes(b" \n\t\n")
    cases[tmp_path / "empty.json"] = "the file is empty"
    cases[tmp_path / "blank.json"] = "the file is empty"
    for path, reason in cases.items():
        with pytest.raises(ReadError) as info:
            read_bytes(path)
        assert info.value.problems[0].message == reason
        assert info.value.source == str(path)


def test_size_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(ReadError) as info:
        read_bytes(big)
    assert "larger than the cap of 4 MiB" in info.value.problems[0].message
    with pytest.raises(ReadError, match="cap of 10 bytes"):
        read_bytes(big, max_bytes=10)


def test_not_utf8_and_byte_order_mark(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(ReadError) as info:
        read_text(bad)
    assert info.value.problems[0].message == "not UTF-8 text: byte 0xe9 at offset 13"
    bom = tmp_path / "bom.json"
    bom.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert read_text(bom) == '{"a": 1}'


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    level = generate(Size(4, 2), seed=4)
    data = format_level(level).encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert read_level("-").to_core() == level


def test_schema_problems_are_format_errors(tmp_path: Path) -> None:
    path = tmp_path / "level.json"
    path.write_text('{"game": "linkup"}', encoding="utf-8")
    with pytest.raises(ReadError) as info:
        read_level(path)
    assert info.value.is_format
    assert {p.pointer for p in info.value.problems} == {"/format_version", "/rules", "/board"}


# ----- atomic writes ----------------------------------------------------------------------------


def test_write_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    write_text("new\n", target)
    assert target.read_text(encoding="utf-8") == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_text("old\n", encoding="utf-8")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(WriteError, match="No space left on device"):
        write_text("new\n", target)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_writing_into_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="cannot write"):
        write_text("x\n", tmp_path / "no" / "such" / "dir.json")
    assert list(tmp_path.iterdir()) == []


def test_dash_writes_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    write_text("hello\n", "-")
    assert capsys.readouterr().out == "hello\n"
