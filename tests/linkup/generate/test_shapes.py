"""The named shapes: the package's copies are ``levels/shapes/`` byte for byte and ship as
package data; every shape is symmetric, holds a multiple of 4 tiles, and makes levels that
verify, plain and with its symmetry."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch

import pytest

from levelgen.linkup.core.geometry import Size
from levelgen.linkup.generate.generator import generate, parse_layout
from levelgen.linkup.generate.shapes import (
    UnknownShape,
    shape_info,
    shape_names,
    shape_text,
)
from levelgen.linkup.generate.symmetry import is_symmetric
from tests import ROOT

from .test_symmetry import verdict

SOURCE = ROOT / "levels" / "shapes"
PACKAGE = ROOT / "levelgen" / "linkup" / "generate" / "shapes"


def test_the_package_carries_levels_shapes_byte_for_byte() -> None:
    source = {p.name: p.read_bytes() for p in SOURCE.glob("*.txt")}
    copies = {p.name: p.read_bytes() for p in PACKAGE.glob("*.txt")}
    assert source == copies, "copy levels/shapes/*.txt into levelgen/linkup/generate/shapes/"
    assert len(source) >= 6
    assert sorted(n.removesuffix(".txt") for n in source) == list(shape_names())


def test_the_shapes_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["levelgen"]
    for path in PACKAGE.glob("*.txt"):
        relative = path.relative_to(ROOT / "levelgen").as_posix()
        assert any(fnmatch(relative, pattern) for pattern in patterns), relative


@pytest.mark.parametrize("name", shape_names())
def test_every_shape_makes_levels_that_verify(name: str) -> None:
    info = shape_info(name)
    template = parse_layout(shape_text(name))
    assert (info.width, info.height, info.tiles) == (*template.size, template.tile_count())
    assert info.symmetry in ("both", "mirror", "rotate")
    assert info.tiles % 4 == 0
    size = Size(info.width, info.height)
    plain = generate(size, seed=1, layout=template, shape=name)
    assert verdict(plain) == "ok"
    assert plain.generator is not None and plain.generator.parameters["shape"] == name
    symmetries = ["mirror", "rotate", "both"] if info.symmetry == "both" else [info.symmetry]
    for symmetry in symmetries:
        for seed in range(3):
            level = generate(size, seed=seed, layout=template, symmetry=symmetry, shape=name)
            assert is_symmetric(level.board, symmetry)
            assert is_symmetric(
                level.board, "mirror" if symmetry == "both" else symmetry, kinds=True
            )
            assert verdict(level) == "ok"


def test_an_unknown_shape_names_the_shapes() -> None:
    with pytest.raises(UnknownShape, match="heart"):
        shape_text("hearts")
    with pytest.raises(UnknownShape):
        shape_text("../layouts/diamond")
