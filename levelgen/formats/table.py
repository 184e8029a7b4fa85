"""The values the family table (:mod:`levelgen.puzzles`) passes: capabilities, option
declarations, the answers of the operations and the errors they raise.  :mod:`levelgen.puzzles`
re-exports every name; families and edges import them from there."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .problems import Problem

__all__ = [
    "Capability",
    "CreateError",
    "CreateOption",
    "DesignAnswer",
    "DocumentError",
    "FamilyError",
    "FamilySetupError",
    "HintAnswer",
    "OptionKind",
    "PlayerAssets",
    "SchemaEntry",
    "ShuffleAnswer",
    "SolveAnswer",
    "SpecError",
    "Verdict",
]


class Capability(StrEnum):
    """An operation a family may offer; the edges check it before calling."""

    CREATE = "create"  # make a level from a spec and a seed, with its certificate
    VERIFY = "verify"  # check a file: structure, certificate replayed, figures
    PROVE = "prove"  # verify --prove: re-prove the certificate's claims (optimality, ...)
    SOLVE = "solve"  # answer solved / unsolvable (with proof) / unknown
    HINT = "hint"  # advise on a position
    SHOW = "show"  # draw in a terminal
    DRAW = "draw"  # draw as SVG
    PLAY = "play"  # the browser player's script and style
    PACK = "pack"  # packs ramped by difficulty (needs CREATE and RATE)
    RATE = "rate"  # the difficulty block of a level (score 0..100, band, measures)
    EXPORT = "export"  # engine exports: Tiled map and tileset, CSV and JSON grids
    SHUFFLE = "shuffle"  # re-deal a position so that it can be won again
    FIX = "fix"  # the fewest changes found that make an unsolvable level solvable
    FILL = "fill"  # put pieces on given empty cells so that the level is solvable
    EDIT = "edit"  # the browser editor's script and style (checked through the public API)


class FamilyError(LookupError):
    """An unknown game, or an operation its family does not have: one line for the user."""


class FamilySetupError(FamilyError):
    """A family named in ``LEVELGEN_FAMILIES`` or an entry point that cannot be loaded (an
    entry that is not ``name=package.module:attribute``, a module that cannot be imported, an
    attribute it lacks, an object that is no family): a setup problem, not a bug, in one line
    naming where the family was named (the command line exits 2)."""


class CreateError(RuntimeError):
    """No level can be made for a spec (a layout that admits none, a window no board meets
    within the attempts): one line for the user."""


class DocumentError(ValueError):
    """A document (file or request body) that is not a valid file of its family.

    ``problems`` say where (JSON pointers) and why; ``is_format`` is True when the data breaks
    the file's schema (exit 3 at the CLI), False when it is well-formed but invalid as a game
    (a move off the board, a goal with other labels: exit 1)."""

    def __init__(self, problems: Sequence[Problem], *, is_format: bool = True) -> None:
        self.problems = tuple(problems)
        self.is_format = is_format
        super().__init__("; ".join(str(p) for p in self.problems))


class SpecError(ValueError):
    """A create option that cannot be used: ``option`` names it as the spec does (``moves``;
    the CLI shows ``--moves``, the service ``/moves``), ``reason`` says why."""

    def __init__(self, option: str, reason: str, *, is_format: bool = False) -> None:
        self.option = option
        self.reason = reason
        #: The value is a file's content that cannot be read as the option's (a layout that
        #: is no layout): the command line reports the file as unreadable (exit 3).
        self.is_format = is_format
        super().__init__(f"{option}: {reason}")


@dataclass(frozen=True, slots=True)
class SchemaEntry:
    """A JSON Schema of a family's files: its generator and the name of its checked-in copy
    under ``schemas/`` (``sliding-puzzle.level.v1.schema.json``)."""

    generate: Callable[[], dict[str, Any]]
    file_name: str


class OptionKind(StrEnum):
    """How an option's value is given: the command line's parser and the service's field type.

    ``text``: a string (``--slide down``; ``"slide": "down"``); ``int``: a whole number;
    ``bool``: ``--name/--no-name`` and a JSON boolean; ``lines``: a file of lines at the command
    line (its text is given), a list of strings over HTTP (joined by newlines); ``json``: a JSON
    file at the command line, any JSON value over HTTP (the parsed value is given)."""

    TEXT = "text"
    INT = "int"
    BOOL = "bool"
    LINES = "lines"
    JSON = "json"


@dataclass(frozen=True, slots=True)
class CreateOption:
    """A family's own option (of create, or of hint where :attr:`Family.hint_options` lists
    it; ``size``, ``seed`` and ``difficulty`` serve every family that creates): its spec name,
    a metavar, one line of help that gives its range, how its value is given (``kind``) and
    the default the help shows.  The CLI shows it as ``--name`` (underscores as dashes) and the
    service takes it as a body field; the value reaches :meth:`Family.parse_spec` as
    :class:`OptionKind` says."""

    name: str
    metavar: str
    help: str
    kind: OptionKind = OptionKind.TEXT
    default: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``verify`` found.  ``status``: ``ok`` (the certificate replays and every stated
    figure checks), ``invalid`` (``problems`` say where), or, for a file without a certificate,
    ``solvable`` / ``unsolvable`` / ``unknown`` as :class:`SolveAnswer`.  ``text``: one line
    for a person (``ok: solution replayed (4x4 numbered, 40 moves)``); ``details``: the
    figures for ``--json`` and the service."""

    status: str
    text: str
    problems: tuple[Problem, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SolveAnswer:
    """What ``solve`` found.  ``status``: ``solved`` (``document`` is the level with its
    certificate, replayed), ``unsolvable`` (``text`` and ``details`` carry the proof),
    ``unknown`` (the budget ran out; ``document`` may hold the best certificate found so far,
    marked in ``details`` as not proved) or ``invalid`` (the document cannot be solved as it
    is: ``problems`` say where)."""

    status: str
    text: str
    document: Any | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """What ``hint`` advises: ``status`` ``ok`` / ``unsolvable`` / ``unknown``, the ``text`` for
    a person (one line or a few) and the figures in ``details`` (the move, the distance or
    expectation left): the JSON the command line's ``--json`` and the service answer."""

    status: str
    text: str
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ShuffleAnswer:
    """What ``shuffle`` found: ``status`` ``shuffled`` (``document`` is the re-dealt position
    as a level with its certificate), ``impossible`` (no deal can be won: ``text`` says why)
    or ``failed`` (none found within the attempts or the budget); ``details`` as ``levelgen
    shuffle --json`` prints them."""

    status: str
    text: str
    document: Any | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayerAssets:
    """What a family's browser player is made of.  The page (:func:`levelgen.player.build_page`)
    puts ``title`` in its ``<title>`` and ``<h1>``, ``body`` (HTML: help, buttons, counters, the
    board's element) inside ``<main>`` after the heading, ``style`` in a ``<style>``, ``data`` as
    JSON in ``<script type="application/json" id="levelgen-level">`` with ``apiBase`` added
    (``null``, or the URL prefix of the service for ``POST {apiBase}/v1/hint``), then each of
    ``scripts`` in order.  No external resource: the page's Content Security Policy forbids
    every request but those to the API base."""

    title: str
    body: str
    style: str
    scripts: tuple[str, ...]
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class DesignAnswer:
    """What ``fix`` or ``fill`` found: ``status`` (fix: ``fixed``, ``solvable``, ``not-found``
    or ``invalid``; fill: ``filled`` or ``not-found``), ``text`` (one line for a person),
    ``document`` (the level with its certificate, replayed, or None), ``details`` (the
    family's figures: a fix's ``swaps``, ``count`` and ``fewer_ruled_out``, a fill's
    ``placed``) and ``problems`` (why a level is ``invalid``)."""

    status: str
    text: str
    document: Any | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
