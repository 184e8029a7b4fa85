"""The solvers at full size: no recursion grows with the board, every board up to 64x64 gets
one of the three answers (never an exception), and the levels the generator writes are
decided.

The recursion check reads the package's source: it builds the call graph of every function
(direct calls by name, calls of nested functions, ``self.method`` calls inside a class, and
names imported from other modules of the package) and fails on any cycle that is not on the
short list of recursions whose depth is bounded by the rules or the file format.
"""

from __future__ import annotations

import ast
import random
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import levelgen
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.rules import MAX_TURNS_LIMIT, Rules
from levelgen.linkup.solvers import Budget, SolveStatus, solve

PACKAGE = Path(levelgen.__file__).parent

#: Recursions whose depth does not grow with the board, with the bound.
BOUNDED_RECURSION = {
    # one level per turn of the path: at most ``max_turns`` + 1 <= 9 deep
    ("levelgen.linkup.core.paths", "_by_levels.walk"),
    # one level per nesting of the level file's JSON (a fixed shape, at most 16 deep on read)
    ("levelgen.formats.jsonio", "_format"),
    # at most ``limit`` (3) + 1 levels: it stops one level below the depth it asks about
    ("levelgen.formats.jsonio", "_depth_at_most"),
    # a layered board draws its top view as a one-layer board: two levels at most
    ("levelgen.linkup.draw.terminal", "render_board"),
    ("levelgen.linkup.draw.terminal", "_render_stacks"),
    # a picture's scene: groups nest as the renderer builds them (sheet > board > tile), a
    # fixed few levels whatever the board's size
    ("levelgen.render.png", "_draw"),
    ("levelgen.formats.scene", "_shape_svg"),
}

Func = tuple[str, str]


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve_from(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    # A package's __init__ is the package itself; a module's level 1 is its package.
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@dataclass
class _Module:
    name: str
    top: set[str]
    imported: dict[str, Func]
    graph: dict[Func, set[Func]]


def _call_graph() -> dict[Func, set[Func]]:
    """Edges from each function ``(module, qualname)`` to the package functions it calls."""
    graph: dict[Func, set[Func]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported: dict[str, Func] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _resolve_from(module, node, path.name == "__init__.py")
                if source.startswith("levelgen"):
                    for alias in node.names:
                        imported[alias.asname or alias.name] = (source, alias.name)
        top = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        _visit(tree.body, "", [], None, _Module(module, top, imported, graph))
    return graph


def _visit(
    body: list[ast.stmt], prefix: str, scopes: list[set[str]], cls: set[str] | None, m: _Module
) -> None:
    for node in body:
        if isinstance(node, ast.ClassDef):
            methods = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            _visit(node.body, f"{prefix}{node.name}.", scopes, methods, m)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{node.name}"
            nested = {
                n.name
                for n in ast.walk(node)
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n is not node
            }
            calls = m.graph.setdefault((m.name, name), set())
            for n in ast.walk(node):
                if not isinstance(n, ast.Call):
                    continue
                f = n.func
                if isinstance(f, ast.Name):
                    if f.id in nested:
                        calls.add((m.name, f"{name}.{f.id}"))
                    elif any(f.id in s for s in scopes):
                        calls.add((m.name, _enclosing(prefix, f.id, scopes)))
                    elif f.id in m.top:
                        calls.add((m.name, f.id))
                    elif f.id in m.imported:
                        calls.add(m.imported[f.id])
                elif (
                    isinstance(f, ast.Attribute)
                    and isinstance(f.value, ast.Name)
                    and f.value.id in ("self", "cls")
                    and cls is not None
                    and f.attr in cls
                ):
                    calls.add((m.name, f"{prefix}{f.attr}"))
            _visit(node.body, f"{name}.", [*scopes, nested], None, m)


def _enclosing(prefix: str, name: str, scopes: list[set[str]]) -> str:
    """The qualified name of the nested function ``name`` defined in an enclosing scope."""
    parts = prefix.rstrip(".").split(".")
    for depth in range(len(scopes) - 1, -1, -1):
        if name in scopes[depth]:
            return ".".join([*parts[: depth + 1], name])
    return name  # pragma: no cover - guarded by the caller


def _cycles(graph: dict[Func, set[Func]]) -> list[set[Func]]:
    """The strongly connected components that hold a cycle (iterative Tarjan)."""
    index: dict[Func, int] = {}
    low: dict[Func, int] = {}
    on: set[Func] = set()
    stack: list[Func] = []
    found: list[set[Func]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1 or v in graph.get(v, ()):
                    found.append(comp)
    return found


def test_the_call_graph_finds_a_planted_recursion() -> None:
    graph = {("m", "a"): {("m", "b")}, ("m", "b"): {("m", "a")}, ("m", "c"): {("m", "c")}}
    assert sorted(map(sorted, _cycles(graph))) == [[("m", "a"), ("m", "b")], [("m", "c")]]


def test_the_call_graph_sees_nested_and_method_calls() -> None:
    graph = _call_graph()
    walk = ("levelgen.linkup.core.paths", "_by_levels.walk")
    assert walk in graph[walk]
    engine = ("levelgen.linkup.solvers.search.engine", "Engine._dfs")
    assert ("levelgen.linkup.solvers.search.engine", "Engine._enter") in graph[engine]


def test_no_recursion_grows_with_the_board() -> None:
    unexpected = [c for c in _cycles(_call_graph()) if not c <= BOUNDED_RECURSION]
    assert unexpected == []


def _budget(seconds: float, nodes: int | None = None) -> Budget:
    start = time.perf_counter()
    return Budget(nodes, lambda: time.perf_counter() - start > seconds, time.perf_counter, seconds)


@pytest.mark.parametrize(
    ("width", "height", "halves"), [(32, 32, False), (64, 64, False), (64, 64, True)]
)
def test_huge_boards_of_one_or_two_kinds_are_solved(width: int, height: int, halves: bool) -> None:
    rows = [[2 if halves and y >= height // 2 else 1] * width for y in range(height)]
    board = Board.from_grid(rows)
    result = solve(board, Rules(max_turns=2, outside=True), budget=Budget(max_nodes=2_000))
    assert result.status is SolveStatus.SOLVED
    assert result.moves is not None and len(result.moves) == width * height // 2


def test_the_exhaustive_search_survives_a_huge_board() -> None:
    board = Board.from_grid([[1] * 64 for _ in range(64)])
    result = solve(board, Rules(), budget=Budget(max_nodes=3), method="exhaustive")
    assert result.status is SolveStatus.UNKNOWN


@st.composite
def any_boards(draw: st.DrawFn) -> Board:
    """Boards 1x2 .. 64x64 (mostly small, some huge), one to many kinds, walls and holes;
    every kind an even count of tiles unless ``odd`` is drawn."""
    big = draw(st.sampled_from([False, False, False, True]))
    top = 64 if big else 10
    width = draw(st.integers(1, top))
    height = draw(st.integers(2 if width == 1 else 1, top))
    n = width * height
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    walls = int(n * draw(st.sampled_from([0.0, 0.0, 0.05, 0.2])))
    tiles = int((n - walls) * draw(st.sampled_from([0.2, 0.6, 0.9, 1.0]))) // 2 * 2
    kinds = draw(st.sampled_from([1, 2, 3, max(1, tiles // 4), max(1, tiles // 2)]))
    cells = [1 + (i // 2) % kinds for i in range(tiles)]
    if cells and draw(st.booleans()) and draw(st.booleans()):
        cells[-1] = WALL  # an odd count of a kind
    cells += [WALL] * walls + [EMPTY] * (n - walls - tiles)
    rng.shuffle(cells)
    return Board(width, height, tuple(cells))


@settings(
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    board=any_boards(),
    max_turns=st.integers(0, MAX_TURNS_LIMIT),
    outside=st.booleans(),
    method=st.sampled_from(["auto", "auto", "search", "cpsat", "exhaustive"]),
)
def test_every_board_gets_one_of_the_three_answers(
    board: Board, max_turns: int, outside: bool, method: str
) -> None:
    result = solve(
        board,
        Rules(max_turns=max_turns, outside=outside),
        budget=_budget(0.3, nodes=300),
        method=method,
    )
    assert result.status in (SolveStatus.SOLVED, SolveStatus.UNSOLVABLE, SolveStatus.UNKNOWN)
    if result.status is SolveStatus.SOLVED:
        assert result.moves is not None and len(result.moves) * 2 == board.tile_count()


@pytest.mark.parametrize(
    ("width", "height", "kinds", "max_turns", "outside", "method"),
    [
        (64, 64, 1024, 0, True, "auto"),
        (64, 64, 3, 8, False, "auto"),
        (64, 48, 600, 5, True, "search"),
        (48, 27, 2, 3, False, "cpsat"),
        (64, 64, 300, 1, True, "exhaustive"),
        (17, 64, 200, 7, True, "auto"),
    ],
)
def test_huge_random_boards_get_one_of_the_three_answers(
    width: int, height: int, kinds: int, max_turns: int, outside: bool, method: str
) -> None:
    rng = random.Random(width * 1000 + height)
    n = width * height
    cells = [1 + (i // 2) % kinds for i in range(n * 8 // 10 // 2 * 2)]
    cells += [WALL] * (n // 20)
    cells += [EMPTY] * (n - len(cells))
    rng.shuffle(cells)
    result = solve(
        Board(width, height, tuple(cells)),
        Rules(max_turns=max_turns, outside=outside),
        budget=_budget(0.5, nodes=200),
        method=method,
    )
    assert result.status in (SolveStatus.SOLVED, SolveStatus.UNSOLVABLE, SolveStatus.UNKNOWN)
