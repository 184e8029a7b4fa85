"""The built-in tile pictures: simple bold icons drawn by this project as vector figures.

Each icon is a tuple of :class:`levelgen.formats.scene.Part` (polygons, ovals and thick lines
in a 100 x 100 box), so the SVG writer and the PNG writer (Pillow) draw the same shapes.  The
colours are the Okabe-Ito palette's, which stay apart with the common colour-vision
deficiencies, and no icon needs its colour to be told apart: each has its own silhouette
(``tests/linkup/draw/test_pictures.py`` rasterises them at 32 pixels and checks the distance
between every two).  ``BG`` is a placeholder for the tile's face colour (holes cut into a
shape), replaced when a tile is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...formats.scene import INK, Part
from .figures import arc, blob, heart, lens, line, ngon, oval, poly, star

__all__ = ["BG", "ICONS", "with_face"]

#: Okabe-Ito by initial: orange, sky blue, green, yellow, blue, vermillion, purple (pink).
O, S, G, Y, B, V, P = "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"  # noqa: E741
K, W = INK, "#FFFFFF"
BG = "face"


def _moon() -> list[Part]:
    outer = arc(50, 50, 38, 38, 45, 315, 20)  # the left of a disc, opening to the right
    end = outer[-1]
    r = math.hypot(end[0] - 70, end[1] - 50)
    a = math.degrees(math.atan2(end[1] - 50, end[0] - 70)) % 360
    inner = arc(70, 50, r, r, a, 360 - a + 0.0, 20)[::-1]
    return [poly(Y, outer + inner[1:-1])]


ICONS: tuple[tuple[str, tuple[Part, ...]], ...] = tuple(
    (name, tuple(parts))
    for name, parts in (
        (
            "apple",
            [
                oval(V, 50, 58, 34, 31),
                line(K, 6, [(50, 30), (55, 12)]),
                poly(G, lens(56, 24, 82, 14, 12)),
            ],
        ),
        (
            "pear",
            [
                *blob(G, [(44, 42, 15), (46, 68, 26)]),
                line(K, 6, [(44, 26), (50, 8)]),
                poly(G, lens(52, 16, 86, 24, 14)),
            ],
        ),
        (
            "cherries",
            [line(G, 5, [(32, 64), (56, 12), (68, 70)]), oval(V, 30, 70, 17), oval(V, 68, 74, 17)],
        ),
        ("banana", [poly(Y, arc(50, 16, 44, 62, 20, 160) + arc(50, 10, 38, 46, 150, 30))]),
        (
            "grapes",
            [
                line(G, 6, [(50, 28), (58, 8)]),
                *blob(
                    P,
                    [
                        (34, 36, 12),
                        (58, 32, 12),
                        (70, 44, 12),
                        (46, 54, 12),
                        (64, 62, 12),
                        (30, 58, 10),
                        (52, 78, 12),
                    ],
                ),
            ],
        ),
        (
            "lemon",
            [
                poly(Y, [(6, 52), (20, 44), (20, 60)]),
                poly(Y, [(94, 52), (80, 44), (80, 60)]),
                oval(Y, 50, 52, 36, 26),
            ],
        ),
        (
            "strawberry",
            [
                poly(V, [*arc(50, 40, 34, 20, 180, 360, 10), (80, 48), (50, 92), (20, 48)]),
                poly(G, star(50, 24, 22, 8, 5)),
                oval(Y, 38, 50, 3),
                oval(Y, 60, 50, 3),
                oval(Y, 50, 64, 3),
                oval(Y, 42, 76, 3),
                oval(Y, 58, 76, 3),
            ],
        ),
        (
            "carrot",
            [
                line(G, 6, [(50, 30), (34, 8)]),
                line(G, 6, [(50, 30), (50, 6)]),
                line(G, 6, [(50, 30), (66, 8)]),
                poly(O, [(30, 30), (70, 30), (52, 94), (48, 94)]),
            ],
        ),
        (
            "mushroom",
            [
                poly(W, [(38, 54), (62, 54), (66, 90), (34, 90)]),
                poly(V, arc(50, 58, 42, 44, 180, 360)),
                oval(W, 34, 36, 6),
                oval(W, 60, 28, 7),
                oval(W, 72, 46, 5),
            ],
        ),
        (
            "watermelon",
            [
                poly(G, arc(50, 30, 46, 46, 0, 180)),
                poly(V, arc(50, 30, 36, 36, 0, 180)),
                oval(K, 38, 44, 3.5, 5),
                oval(K, 62, 44, 3.5, 5),
                oval(K, 50, 56, 3.5, 5),
            ],
        ),
        (
            "fish",
            [poly(S, [(34, 50), (6, 28), (6, 72)]), oval(S, 58, 50, 34, 22), oval(K, 76, 44, 4.5)],
        ),
        (
            "cat",
            [
                poly(O, [(20, 46), (24, 10), (48, 30)]),
                poly(O, [(80, 46), (76, 10), (52, 30)]),
                oval(O, 50, 58, 34, 30),
                oval(K, 37, 54, 4, 6),
                oval(K, 63, 54, 4, 6),
                poly(K, [(45, 66), (55, 66), (50, 72)], outline=False),
            ],
        ),
        (
            "bird",
            [
                poly(B, [(26, 56), (4, 40), (8, 66)]),
                oval(B, 46, 60, 28, 20),
                oval(B, 70, 36, 15),
                poly(O, [(82, 30), (98, 38), (82, 44)]),
                oval(W, 72, 33, 4.5),
            ],
        ),
        (
            "snail",
            [
                poly(O, [(8, 84), (92, 84), (92, 70), (84, 60), (74, 70), (14, 74)]),
                line(K, 3.5, [(82, 62), (78, 40)]),
                line(K, 3.5, [(86, 62), (92, 42)]),
                oval(Y, 46, 52, 28),
                oval(O, 46, 52, 16),
                oval(Y, 46, 52, 6),
            ],
        ),
        (
            "rabbit",
            [
                oval(S, 38, 26, 9, 24),
                oval(S, 62, 26, 9, 24),
                oval(S, 50, 66, 28, 26),
                oval(K, 41, 62, 3.5),
                oval(K, 59, 62, 3.5),
                oval(P, 50, 72, 4, 3),
            ],
        ),
        (
            "bear",
            [
                oval(V, 24, 28, 13),
                oval(V, 76, 28, 13),
                oval(V, 50, 56, 34, 32),
                oval(Y, 50, 68, 14, 10),
                oval(K, 50, 64, 5, 4),
                oval(K, 38, 48, 4),
                oval(K, 62, 48, 4),
            ],
        ),
        (
            "owl",
            [
                poly(P, [(22, 36), (22, 8), (42, 26)]),
                poly(P, [(78, 36), (78, 8), (58, 26)]),
                oval(P, 50, 56, 32, 38),
                oval(W, 38, 44, 11),
                oval(W, 62, 44, 11),
                oval(K, 38, 44, 4.5),
                oval(K, 62, 44, 4.5),
                poly(O, [(45, 56), (55, 56), (50, 66)]),
            ],
        ),
        (
            "butterfly",
            [
                oval(O, 30, 34, 20, 18),
                oval(O, 70, 34, 20, 18),
                oval(S, 34, 68, 15, 14),
                oval(S, 66, 68, 15, 14),
                oval(K, 50, 54, 5, 30),
                line(K, 3.5, [(48, 26), (40, 8)]),
                line(K, 3.5, [(52, 26), (60, 8)]),
            ],
        ),
        (
            "turtle",
            [
                oval(G, 26, 78, 9),
                oval(G, 70, 78, 9),
                oval(G, 86, 60, 11, 10),
                poly(G, [(14, 72), (4, 78), (14, 66)]),
                poly(G, arc(48, 74, 38, 40, 180, 360)),
                poly(Y, ngon(48, 54, 12, 6)),
            ],
        ),
        (
            "duck",
            [
                poly(Y, [(22, 62), (6, 42), (30, 52)]),
                oval(Y, 46, 68, 34, 20),
                oval(Y, 68, 34, 16),
                poly(O, [(82, 32), (98, 38), (84, 46)]),
                oval(K, 70, 30, 4),
                line(K, 3.5, [(34, 66), (52, 72), (62, 64)]),
            ],
        ),
        (
            "whale",
            [
                poly(B, [(76, 56), (90, 26), (98, 34), (90, 60)]),
                oval(B, 44, 62, 40, 24),
                line(S, 5, [(34, 34), (34, 14)]),
                line(S, 5, [(34, 22), (22, 10)]),
                line(S, 5, [(34, 22), (46, 10)]),
                oval(W, 22, 60, 4.5),
            ],
        ),
        (
            "mouse",
            [
                line(K, 4, [(20, 70), (6, 58), (10, 40)]),
                oval(W, 50, 66, 32, 20),
                oval(P, 56, 40, 12),
                poly(W, [(74, 54), (96, 70), (76, 78)]),
                oval(P, 96, 70, 4),
                oval(K, 72, 62, 3.5),
            ],
        ),
        (
            "frog",
            [
                oval(G, 50, 62, 40, 26),
                oval(G, 30, 34, 14),
                oval(G, 70, 34, 14),
                oval(W, 30, 34, 7),
                oval(W, 70, 34, 7),
                oval(K, 30, 34, 3.5),
                oval(K, 70, 34, 3.5),
                line(K, 4, [(30, 68), (50, 76), (70, 68)]),
            ],
        ),
        (
            "penguin",
            [
                oval(O, 38, 92, 10, 5),
                oval(O, 62, 92, 10, 5),
                oval(B, 50, 54, 28, 38),
                oval(W, 50, 62, 18, 28),
                oval(K, 42, 34, 3.5),
                oval(K, 58, 34, 3.5),
                poly(O, [(44, 42), (56, 42), (50, 52)]),
            ],
        ),
        (
            "crab",
            [
                line(V, 6, [(30, 60), (16, 44)]),
                line(V, 6, [(70, 60), (84, 44)]),
                line(V, 5, [(30, 70), (10, 80)]),
                line(V, 5, [(70, 70), (90, 80)]),
                line(V, 5, [(36, 74), (24, 92)]),
                line(V, 5, [(64, 74), (76, 92)]),
                poly(V, [(10, 44), (4, 22), (18, 14), (22, 30), (30, 24), (28, 42)]),
                poly(V, [(90, 44), (96, 22), (82, 14), (78, 30), (70, 24), (72, 42)]),
                oval(V, 50, 64, 28, 18),
                oval(K, 42, 56, 3.5),
                oval(K, 58, 56, 3.5),
            ],
        ),
        (
            "bee",
            [
                oval(W, 38, 28, 13, 16),
                oval(W, 60, 28, 13, 16),
                poly(K, [(80, 58), (96, 58), (80, 66)], outline=False),
                oval(Y, 48, 60, 34, 22),
                line(K, 7, [(40, 42), (40, 78)]),
                line(K, 7, [(56, 42), (56, 78)]),
            ],
        ),
        ("heart", [poly(V, heart(50, 50, 2.7))]),
        ("star", [poly(Y, star(50, 54, 46, 19, 5))]),
        ("moon", _moon()),
        ("triangle", [poly(G, [(50, 10), (92, 86), (8, 86)])]),
        ("diamond", [poly(S, [(50, 6), (82, 50), (50, 94), (18, 50)])]),
        ("hexagon", [poly(P, ngon(50, 50, 42, 6, 0))]),
        (
            "cross",
            [
                poly(
                    V,
                    [
                        (38, 10),
                        (62, 10),
                        (62, 38),
                        (90, 38),
                        (90, 62),
                        (62, 62),
                        (62, 90),
                        (38, 90),
                        (38, 62),
                        (10, 62),
                        (10, 38),
                        (38, 38),
                    ],
                )
            ],
        ),
        ("ring", [oval(B, 50, 50, 40), oval(BG, 50, 50, 20)]),
        (
            "lightning",
            [poly(Y, [(60, 4), (18, 56), (46, 56), (36, 96), (82, 40), (54, 40), (68, 4)])],
        ),
        ("drop", [poly(S, [(50, 6), *arc(50, 64, 28, 28, 210, -30)])]),
        ("arrow", [poly(G, [(50, 6), (90, 46), (64, 46), (64, 94), (36, 94), (36, 46), (10, 46)])]),
        (
            "crown",
            [
                poly(O, [(8, 26), (30, 54), (50, 18), (70, 54), (92, 26), (82, 82), (18, 82)]),
                oval(S, 50, 66, 6),
            ],
        ),
        (
            "cloud",
            [*blob(S, [(28, 62, 18), (50, 48, 24), (74, 60, 18), (40, 70, 14), (62, 70, 14)])],
        ),
        (
            "sun",
            [
                *(
                    line(O, 7, [(50 + 30 * c, 50 + 30 * s), (50 + 45 * c, 50 + 45 * s)])
                    for c, s in (
                        (math.cos(math.radians(a)), math.sin(math.radians(a)))
                        for a in range(0, 360, 45)
                    )
                ),
                oval(Y, 50, 50, 24),
            ],
        ),
        (
            "flower",
            [
                line(G, 6, [(50, 60), (50, 96)]),
                *(
                    oval(P, 50 + 22 * math.cos(a), 42 + 22 * math.sin(a), 14)
                    for a in (math.radians(-90 + 72 * i) for i in range(5))
                ),
                oval(Y, 50, 42, 12),
            ],
        ),
        ("leaf", [poly(G, lens(14, 86, 86, 14, 46)), line(K, 3.5, [(8, 92), (70, 30)])]),
        (
            "tree",
            [
                poly(O, [(42, 74), (58, 74), (58, 96), (42, 96)]),
                poly(G, [(50, 4), (80, 44), (64, 44), (88, 78), (12, 78), (36, 44), (20, 44)]),
            ],
        ),
        (
            "house",
            [
                poly(Y, [(20, 46), (80, 46), (80, 92), (20, 92)]),
                poly(V, [(6, 50), (50, 10), (94, 50)]),
                poly(B, [(42, 64), (58, 64), (58, 92), (42, 92)]),
            ],
        ),
        (
            "key",
            [
                poly(O, [(40, 44), (94, 44), (94, 56), (40, 56)]),
                poly(O, [(80, 56), (90, 56), (90, 72), (80, 72)]),
                poly(O, [(64, 56), (72, 56), (72, 68), (64, 68)]),
                oval(O, 26, 50, 20),
                oval(BG, 26, 50, 8),
            ],
        ),
        (
            "bell",
            [
                oval(O, 50, 84, 8),
                poly(Y, [*arc(50, 38, 24, 26, 180, 360), (76, 68), (90, 80), (10, 80), (24, 68)]),
                oval(Y, 50, 10, 5),
            ],
        ),
        (
            "umbrella",
            [
                line(K, 6, [(50, 46), (50, 80), *arc(40, 80, 10, 10, 0, 180, 8)]),
                poly(P, arc(50, 50, 44, 40, 180, 360)),
            ],
        ),
        (
            "anchor",
            [
                line(B, 9, [(50, 28), (50, 90)]),
                line(B, 9, [(32, 40), (68, 40)]),
                line(B, 9, arc(50, 60, 32, 30, 10, 170)),
                oval(B, 50, 16, 11),
                oval(BG, 50, 16, 4.5),
            ],
        ),
        (
            "note",
            [
                poly(P, [(46, 76), (54, 76), (54, 10), (46, 10)]),
                poly(P, [(54, 10), (82, 26), (82, 44), (54, 30)]),
                oval(P, 36, 78, 17, 12),
            ],
        ),
        (
            "mug",
            [
                oval(S, 72, 56, 18),
                oval(BG, 72, 56, 8),
                poly(S, [(16, 28), (68, 28), (68, 90), (16, 90)]),
                line(K, 4, [(30, 20), (34, 12), (30, 4)]),
                line(K, 4, [(50, 20), (54, 12), (50, 4)]),
            ],
        ),
        (
            "clover",
            [
                line(G, 7, [(50, 56), (62, 94)]),
                *blob(G, [(50, 30, 18), (31, 58, 18), (69, 58, 18)]),
            ],
        ),
        (
            "sailboat",
            [
                poly(W, [(48, 8), (48, 66), (14, 66)]),
                poly(O, [(56, 18), (56, 66), (88, 66)]),
                poly(B, [(6, 72), (94, 72), (78, 92), (22, 92)]),
            ],
        ),
        (
            "bulb",
            [
                poly(K, [(38, 74), (62, 74), (60, 94), (40, 94)], outline=False),
                poly(Y, [(36, 56), (64, 56), (60, 74), (40, 74)]),
                oval(Y, 50, 38, 30),
            ],
        ),
        (
            "hourglass",
            [
                poly(O, [(24, 12), (76, 12), (54, 50), (76, 88), (24, 88), (46, 50)]),
                line(K, 8, [(14, 8), (86, 8)]),
                line(K, 8, [(14, 92), (86, 92)]),
            ],
        ),
        (
            "rocket",
            [
                poly(O, [(38, 76), (62, 76), (50, 98)]),
                poly(V, [(34, 48), (14, 82), (34, 76)]),
                poly(V, [(66, 48), (86, 82), (66, 76)]),
                poly(W, [(50, 2), (68, 28), (68, 78), (32, 78), (32, 28)]),
                oval(B, 50, 40, 9),
            ],
        ),
        (
            "balloon",
            [
                line(K, 3.5, [(50, 76), (44, 86), (56, 94), (50, 100)]),
                poly(V, [(44, 80), (56, 80), (50, 70)]),
                oval(V, 50, 40, 30, 34),
            ],
        ),
        (
            "spade",
            [
                poly(K, [(42, 70), (58, 70), (66, 94), (34, 94)], outline=False),
                poly(B, heart(50, 44, 2.4, down=True)),
            ],
        ),
        (
            "glasses",
            [
                line(K, 5, [(32, 54), (50, 46), (68, 54)]),
                oval(S, 26, 58, 20, 16),
                oval(S, 74, 58, 20, 16),
                oval(BG, 26, 58, 11, 8),
                oval(BG, 74, 58, 11, 8),
            ],
        ),
    )
)


def with_face(parts: Sequence[Part], face: str, ink: str = K) -> tuple[Part, ...]:
    """The parts with ``BG`` (a hole cut into a shape) in the tile's ``face`` colour, and the
    ink details (eyes, stems) in ``ink`` (white on a dark face)."""
    colours = {BG: face, K: ink}
    return tuple(
        Part(p.kind, p.points, colours[p.fill], p.width, p.outline) if p.fill in colours else p
        for p in parts
    )
