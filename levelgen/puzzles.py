"""Puzzle families: the table of operations a game implements, and the registry that finds it.

levelgen serves several puzzle families (Link-up, sliding-tile puzzles, snakes and ladders, and
any a studio adds).  In the manner of Simon Tatham's ``struct game``, each family is one object
that satisfies :class:`Family`: its name (the ``game`` field of its files), its file formats,
and the operations *create*, *verify*, *solve*, *hint*, *show*, *draw* and *play*.  The edges
(the command line, the HTTP service, packs, pictures, the browser player) know only this table:
they read a file's ``game``, find the family with :func:`family_of`, and call its operations.

A family that lacks an operation leaves its :class:`Capability` out of ``capabilities``; the
edges then refuse with one line (:func:`require`), and the family's method is never called.

The registry (:func:`family`, :func:`families`) holds the built-in families and those that
other packages register through the entry-point group ``levelgen.families``: an entry
``name = "package.module:attribute"`` names a :class:`Family` object (or a function of no
argument that returns one); ``LEVELGEN_FAMILIES=name=package.module:attribute`` adds one
without packaging it (for a family under development, and the service's worker processes
inherit it).  The built-in families are declared in that group too, and are
also found without package metadata (a source checkout), so ``levelgen`` never needs its own
installation to know its games.  Families load lazily: asking for one imports it alone.

Operations take ``options``: the family's own knobs by name (Link-up's ``method`` or ``step``,
a square of snakes and ladders), as the command line's options (``--step``) or the service's
body fields give them; a family refuses a name it does not know with :class:`SpecError`.

Every operation is pure: no file or network I/O, no global random state (a ``seed`` is given),
no wall clock (a :class:`Budget` carries the edge's ``should_stop``).  Results say what they
found in a three-way status; ``unsolvable`` comes only with a proof, a spent budget is
``unknown``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .formats.budget import Budget
from .formats.problems import Problem
from .formats.table import (
    Capability,
    CreateError,
    CreateOption,
    DesignAnswer,
    DocumentError,
    FamilyError,
    FamilySetupError,
    HintAnswer,
    OptionKind,
    PlayerAssets,
    SchemaEntry,
    ShuffleAnswer,
    SolveAnswer,
    SpecError,
    Verdict,
)

if TYPE_CHECKING:
    from .formats.grid import ExportGrid
    from .formats.scene import Scene

__all__ = [
    "DEFAULT_GAME",
    "ENTRY_POINT_GROUP",
    "FAMILIES_VARIABLE",
    "Budget",
    "Capability",
    "CreateError",
    "CreateOption",
    "DesignAnswer",
    "DocumentError",
    "Family",
    "FamilyBase",
    "FamilyError",
    "FamilySetupError",
    "HintAnswer",
    "OptionKind",
    "PlayerAssets",
    "Problem",
    "Progress",
    "SchemaEntry",
    "ShuffleAnswer",
    "SolveAnswer",
    "SpecError",
    "Verdict",
    "check_variable",
    "families",
    "family",
    "family_names",
    "family_of",
    "register",
    "require",
]

#: The game of a file without a ``game`` field, and of a command or request that names none.
DEFAULT_GAME = "linkup"

#: The entry-point group through which packages register families.
ENTRY_POINT_GROUP = "levelgen.families"
#: The environment variable that names more families (see :func:`family`).
FAMILIES_VARIABLE = "LEVELGEN_FAMILIES"

#: ``progress(stage, done, total)``: a long computation's report (see
#: :mod:`levelgen.formats.progress`).
Progress = Callable[[str, int, int], None]


@runtime_checkable
class Family(Protocol):
    """The table of one puzzle family's operations (see the module docstring).

    ``document`` below is the family's own parsed file (a level, or a position where the
    family has one), as :meth:`read` returns it; the edges never look inside it.
    """

    #: The ``game`` field of the family's files and the registry key (``linkup``).
    name: str
    #: A short human name (``Link-up``).
    title: str
    #: The operations it has.
    capabilities: frozenset[Capability]
    #: Its file formats, the level's first: ``{"level": SchemaEntry(...), ...}``.
    schemas: Mapping[str, SchemaEntry]
    #: Its own create options, and its difficulty bands from easiest to hardest.
    create_options: Sequence[CreateOption]
    bands: Sequence[str]
    #: Its own hint options (the place asked about: a square, a step; a solver method).
    hint_options: Sequence[CreateOption]
    #: The size (``WxH``) of the typical board of the game: the board of the editor's
    #: latency benchmark (``levelgen bench editor``); ``""`` for a game without an editor.
    editor_size: str

    def read(self, data: object) -> Any:
        """Parse JSON data (already read and checked for duplicate keys and non-finite numbers)
        into a document; :class:`DocumentError` with JSON pointers otherwise."""
        ...

    def dump(self, document: Any) -> dict[str, Any]:
        """The document as canonical JSON data (``format_json`` gives its bytes)."""
        ...

    def describe(self, document: Any) -> str:
        """One line that names the document (``4x4 numbered, optimal 40``)."""
        ...

    def parse_spec(self, values: Mapping[str, Any]) -> Any:
        """A create spec from option values (``size``, ``difficulty`` and the family's own
        options; absent ones take defaults): :class:`SpecError` names the first bad one."""
        ...

    def create(self, spec: Any, seed: int, progress: Progress | None = None) -> Any:
        """A level for ``spec`` from ``seed`` (same seed, same level), with its certificate
        replayed by the family's own verifier."""
        ...

    def ramp(
        self, values: Mapping[str, Any], count: int, low: str, high: str
    ) -> list[dict[str, Any]]:
        """The create options of ``count`` levels of a pack whose difficulty rises from band
        ``low`` to band ``high``, in play order: plain JSON values (a pack's plan records them
        and its workers give them to :meth:`parse_spec`)."""
        ...

    def pack_levels(
        self,
        values: Mapping[str, Any],
        count: int,
        *,
        difficulty: str | None,
        ramp: tuple[str, str] | None,
    ) -> list[dict[str, Any]]:
        """The create options of each of the ``count`` levels of a pack, in play order: the
        pack's ``values`` (a family may take ranges there, such as sizes that grow), steered
        to ``difficulty`` or rising along ``ramp`` (two bands); plain JSON values.
        :class:`SpecError` names a value that cannot be planned."""
        ...

    def difficulty(self, document: Any) -> tuple[float, str]:
        """The document's difficulty score (0..100, higher is harder) and its band."""
        ...

    def summary(self, document: Any) -> Mapping[str, Any]:
        """What the level library keeps of a level besides its file, to list and filter on:
        ``width``, ``height`` (0: none), ``seed`` (or None), ``solved`` (it carries its
        certificate), ``score`` and ``band`` (its difficulty as the level records it, or None)
        and, where the family's levels have them, ``rules`` (``max_turns``, ``outside``,
        ``slide``), ``layers``, ``tiles`` and ``kinds`` (left out: null in the lists)."""
        ...

    def rate(self, document: Any, *, seed: int) -> Any:
        """The document with its difficulty block (``metrics.difficulty``: ``score`` 0..100,
        ``band`` and the ``measures`` behind them), measured against the family's player model
        with randomness from ``seed``."""
        ...

    def shuffle(
        self, document: Any, *, seed: int, budget: Budget, options: Mapping[str, Any]
    ) -> ShuffleAnswer:
        """A re-deal of a position (or level) from ``seed`` that can still be won."""
        ...

    def fix(self, document: Any, *, budget: Budget, options: Mapping[str, Any]) -> DesignAnswer:
        """The fewest changes found within ``budget`` that make an unsolvable level solvable
        (Link-up: tile swaps; ``options``: ``max_swaps``), the level with its certificate."""
        ...

    def fill(
        self, document: Any, *, seed: int, budget: Budget, options: Mapping[str, Any]
    ) -> DesignAnswer:
        """Pieces put on the given empty cells (``options``: ``slots``, a list of ``[x, y]``;
        the family's own, Link-up's ``kinds``) so that the level is solvable, from ``seed``."""
        ...

    def notes(self, document: Any) -> Sequence[str]:
        """What a user should know about a level just created (a difficulty target missed:
        the closest level found was kept), one line each."""
        ...

    def shapes(self) -> Sequence[Mapping[str, Any]]:
        """The named layouts ``create --shape`` takes: ``name``, ``size``, ``tiles`` and
        ``symmetry`` of each (empty: the family has none)."""
        ...

    def add_benchmarks(self, app: Any) -> None:
        """Add the family's own commands to ``levelgen bench`` (``app``: its typer app)."""
        ...

    def add_table_commands(self, app: Any) -> None:
        """Add the family's commands over its cached tables to ``levelgen tables``."""
        ...

    def export_grid(self, document: Any, *, options: Mapping[str, Any]) -> ExportGrid:
        """The document as tile layers and a tileset for engine exports (Tiled, CSV, JSON)."""
        ...

    def verify(
        self, document: Any, *, prove: bool, budget: Budget, options: Mapping[str, Any]
    ) -> Verdict:
        """Check the document: its certificate replayed and its figures recomputed (with
        ``prove``, its claims proved again); a document without a certificate is solved."""
        ...

    def solve(self, document: Any, *, budget: Budget, options: Mapping[str, Any]) -> SolveAnswer:
        """Solve the document and return it with a certificate, or the proof it has none."""
        ...

    def hint(self, document: Any, *, budget: Budget, options: Mapping[str, Any]) -> HintAnswer:
        """Advice on a position: the document (a level, or a position where the family has
        position files) and the family's own place options (a square, a step)."""
        ...

    def show(
        self, document: Any, *, color: bool, options: Mapping[str, Any]
    ) -> tuple[str, list[str]]:
        """The document drawn for a terminal (ANSI colours when ``color``) with a summary
        line, and warnings about it (printed apart, on standard error)."""
        ...

    def draw(self, document: Any, *, cell_size: int, options: Mapping[str, Any]) -> Scene:
        """The document drawn as a picture (:mod:`levelgen.formats.scene`), which the edges
        write as SVG or PNG; ``cell_size``: pixels per cell or square."""
        ...

    def player(
        self,
        document: Any,
        *,
        with_api: bool,
        name: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> PlayerAssets:
        """The browser player of the document (``with_api``: the page will be served with an
        API base, so it may offer hints; ``name``: the file's name for the page's title, ``""``
        for standard input, None for a page the service serves; ``options``: the family's own
        picture options, as for :meth:`draw`);
        :func:`levelgen.player.build_page` makes the self-contained page around it."""
        ...

    def editor(self, document: Any | None) -> PlayerAssets:
        """The browser editor's part for this family (:attr:`Capability.EDIT`): its controls
        and board in ``body``, its script (which registers itself with the editor's shell,
        ``LevelgenEditor.register``: see :mod:`levelgen.player.editor`), its style, and
        ``data`` (what the script needs: defaults, names, limits).  ``document``: the level to
        open (its dumped file in ``data["document"]`` is added by the shell), None for a new
        one."""
        ...


class FamilyBase:
    """Defaults a family may inherit: no hint options, packs planned through :meth:`ramp`,
    a library summary read from the dumped file, and no rating, export, shuffle, fix, fill or
    editor (leave :attr:`Capability.RATE`, :attr:`Capability.EXPORT`, :attr:`Capability.SHUFFLE`,
    :attr:`Capability.FIX`, :attr:`Capability.FILL` and :attr:`Capability.EDIT` out of
    ``capabilities``: the edges then never call them)."""

    name: str
    hint_options: Sequence[CreateOption] = ()
    editor_size: str = ""

    def ramp(
        self, values: Mapping[str, Any], count: int, low: str, high: str
    ) -> list[dict[str, Any]]:
        raise NotImplementedError  # a family with PACK gives it (or its own pack_levels)

    def pack_levels(
        self,
        values: Mapping[str, Any],
        count: int,
        *,
        difficulty: str | None,
        ramp: tuple[str, str] | None,
    ) -> list[dict[str, Any]]:
        """``values`` for every level, with ``difficulty`` when given, or :meth:`ramp`'s
        options from ``ramp``'s first band to its second."""
        if ramp is not None:
            return self.ramp(values, count, ramp[0], ramp[1])
        one = dict(values) if difficulty is None else {**values, "difficulty": difficulty}
        return [dict(one) for _ in range(count)]

    def summary(self, document: Any) -> Mapping[str, Any]:
        """:func:`~levelgen.formats.summary.file_summary` of the dumped level, with
        :meth:`difficulty`'s score (None when not finite) and band (both None when the level
        cannot be measured)."""
        import math
        from contextlib import suppress

        from .formats.summary import file_summary

        found = file_summary(self.dump(document))  # type: ignore[attr-defined]
        score: float | None = None
        band: str | None = None
        with suppress(DocumentError):
            score, band = self.difficulty(document)  # type: ignore[attr-defined]
        if score is not None and not math.isfinite(score):
            score = None
        return {**found, "score": score, "band": band}

    def add_benchmarks(self, app: Any) -> None:
        """No benchmark commands of its own."""

    def add_table_commands(self, app: Any) -> None:
        """No cached tables."""

    def rate(self, document: Any, *, seed: int) -> Any:
        raise FamilyError(f"game {self.name!r} has no rate operation")

    def shuffle(
        self, document: Any, *, seed: int, budget: Budget, options: Mapping[str, Any]
    ) -> ShuffleAnswer:
        raise FamilyError(f"game {self.name!r} has no shuffle operation")

    def fix(self, document: Any, *, budget: Budget, options: Mapping[str, Any]) -> DesignAnswer:
        raise FamilyError(f"game {self.name!r} has no fix operation")

    def fill(
        self, document: Any, *, seed: int, budget: Budget, options: Mapping[str, Any]
    ) -> DesignAnswer:
        raise FamilyError(f"game {self.name!r} has no fill operation")

    def notes(self, document: Any) -> Sequence[str]:
        return ()

    def shapes(self) -> Sequence[Mapping[str, Any]]:
        return ()

    def export_grid(self, document: Any, *, options: Mapping[str, Any]) -> ExportGrid:
        raise FamilyError(f"game {self.name!r} has no export operation")

    def editor(self, document: Any | None) -> PlayerAssets:
        raise FamilyError(f"game {self.name!r} has no editor")


# ----- the registry ---------------------------------------------------------------------------

#: The built-in families (also declared under the entry-point group in pyproject.toml).
_BUILTIN: dict[str, str] = {
    DEFAULT_GAME: "levelgen.linkup:FAMILY",
    "sliding-puzzle": "levelgen.sliding:FAMILY",
    "snakes-ladders": "levelgen.ladders:FAMILY",
}

_loaded: dict[str, Family] = {}


def register(item: Family) -> Family:
    """Add a family object to the registry (a test's or an application's own); returns it.
    A family of the same name is replaced."""
    if not isinstance(item, Family):
        raise FamilyError(f"{item!r} is not a puzzle family (see levelgen.puzzles.Family)")
    _loaded[item.name] = item
    return item


def _load(name: str, reference: str) -> Family:
    """The family object ``reference`` (``package.module:attribute``) names, or
    :class:`FamilySetupError` saying where ``name`` was registered and what is wrong."""
    where = _where(name)
    module_name, _, attribute = reference.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise FamilySetupError(
            f"{where}: cannot import {module_name!r} for game {name!r} ({exc}); the module must"
            " be importable (installed, or on PYTHONPATH)"
        ) from None
    except Exception as exc:
        raise FamilySetupError(
            f"{where}: importing {module_name!r} for game {name!r} failed:"
            f" {type(exc).__name__}: {exc}"
        ) from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise FamilySetupError(
                f"{where}: module {module_name!r} has no attribute {attribute!r} (game {name!r})"
            ) from None
    if callable(target) and not isinstance(target, Family):
        target = target()
    if not isinstance(target, Family):
        raise FamilySetupError(
            f"{where}: {reference} is not a puzzle family (see levelgen.puzzles.Family)"
        )
    return target


def _where(name: str) -> str:
    """Where the family ``name`` was registered, for a message."""
    return FAMILIES_VARIABLE if name in _variable_entries() else f"entry point {name!r}"


#: ``name=package.module:attribute``, as ``LEVELGEN_FAMILIES`` lists them.
_ENTRY = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)=([A-Za-z_][\w.]*):([A-Za-z_][\w.]*)")


def _variable_entries() -> dict[str, str]:
    """The families named in ``LEVELGEN_FAMILIES`` (``name=package.module:attribute``,
    separated by commas; spaces around an entry and empty entries are ignored):
    :class:`FamilySetupError` naming the variable and the entry when one is not of that form."""
    import os

    found: dict[str, str] = {}
    for item in os.environ.get(FAMILIES_VARIABLE, "").split(","):
        item = item.strip()
        if not item:
            continue
        match = _ENTRY.fullmatch(item)
        if match is None:
            raise FamilySetupError(
                f"{FAMILIES_VARIABLE}: {item!r} is not name=package.module:attribute"
                " (entries separated by commas)"
            )
        found[match.group(1)] = f"{match.group(2)}:{match.group(3)}"
    return found


def check_variable() -> None:
    """:class:`FamilySetupError` when ``LEVELGEN_FAMILIES`` holds an entry that is not of its
    form (the modules are imported only when their game is asked for)."""
    _variable_entries()


def _entry_points() -> dict[str, str]:
    """The families registered through the entry-point group, and those named in the
    environment variable ``LEVELGEN_FAMILIES`` (a family tried before it is packaged; it wins
    over an entry point of that name)."""
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    found.update(_variable_entries())
    return found


def family(name: str) -> Family:
    """The family called ``name``; :class:`FamilyError` names the known ones otherwise."""
    found = _loaded.get(name)
    if found is not None:
        return found
    reference = _BUILTIN.get(name) or _entry_points().get(name)
    if reference is None:
        known = ", ".join(sorted(families()))
        raise FamilyError(f"unknown game {name!r} (known: {known})")
    found = _load(name, reference)
    _loaded[name] = found
    return found


def family_names(*, builtin_only: bool = False) -> list[str]:
    """The names of every family known (built-in, registered, entry points and
    ``LEVELGEN_FAMILIES``), or of the built-in ones alone, without loading them."""
    if builtin_only:
        return list(_BUILTIN)
    return sorted({**_BUILTIN, **_entry_points(), **dict.fromkeys(_loaded)})


def families() -> dict[str, Family]:
    """Every family known: the built-in ones, the registered ones and those of the entry-point
    group, by name."""
    names = {**_BUILTIN, **_entry_points()}
    for name in names:
        if name not in _loaded:
            _loaded[name] = _load(name, names[name])
    return dict(sorted(_loaded.items()))


def family_of(data: object) -> Family:
    """The family of a document: the one its ``game`` field names (Link-up when the field is
    absent or not a string: Link-up's own checks then say what is wrong with it).
    :class:`DocumentError` at ``/game`` when it names no known game; :class:`FamilySetupError`
    when the family it names cannot be loaded."""
    game = data.get("game") if isinstance(data, dict) else None
    if not isinstance(game, str):
        game = DEFAULT_GAME
    try:
        return family(game)
    except FamilySetupError:
        raise  # not the document's fault
    except FamilyError as exc:
        raise DocumentError([Problem("/game", str(exc))]) from None


def require(item: Family, capability: Capability) -> None:
    """:class:`FamilyError` in one line when ``item`` lacks ``capability``."""
    if capability not in item.capabilities:
        raise FamilyError(f"game {item.name!r} has no {capability.value} operation")
