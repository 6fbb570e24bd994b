"""The puzzle kinds: one entry each, everything the framework knows of a kind in one place.

A :class:`Kind` names its :class:`~.base.Puzzle` subclass (its rules in the shared
vocabulary, its checker, its text forms: ``claims``/``read_text`` for a kind the reader does
not weigh itself), its generator and default shape, its examples and its drawing.  The
reader, the command line, the DIMACS decoder, the engines' ``kinds`` and ``generate`` read the
entries from here, live, so that :func:`register_kind` is the one call a new kind needs.  A
generator is named, not imported: the generators sit in a layer above this one and resolve
the name (:mod:`puzzlebench.generators.dispatch`).  A class is imported only when asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Set
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..errors import UsageError
from .base import Puzzle
from .svg import text_figure


@dataclass(frozen=True)
class Kind:
    """One kind.  ``model``: ``"module:Class"`` (or the class); ``generator``: a name the
    generators resolve (their own, or ``"module:function"``), ``None`` if it has none;
    ``shape``: ``"box"`` (a block shape, ``--box RxC``) or ``"size"``; ``default_shape``;
    ``generate_options``: the ``generate`` options it takes besides its shape (``rating``: the
    rating targets, for a kind with a rated generator in :mod:`puzzlebench.generators.dispatch`);
    ``proven_unique``: whether its generator proves uniqueness (a counter is made for it);
    ``learning_from``: the size from which those checks go to ``sat``; ``slow_from``: the size
    from which generating takes minutes a puzzle, and what was measured; ``examples``: its
    embedded examples beyond :mod:`.examples` (objects with ``name``, ``kind``, ``text``,
    ``description``, ``box``, ``solutions``); ``drawing``: the name of the class's method that
    draws a puzzle as SVG, ``method(solution=None)`` (``None``: its text form in an SVG)."""

    name: str
    model: str | type
    generator: str | None = None
    shape: str = "size"
    default_shape: int | tuple[int, int] | None = None
    generate_options: tuple[str, ...] = ()
    proven_unique: bool = True
    learning_from: int | None = None
    slow_from: tuple[int, str] | None = None
    examples: tuple = ()
    drawing: str | None = None

    def model_class(self) -> type[Puzzle]:
        if not isinstance(self.model, str):
            return self.model
        module, _, cls = self.model.partition(":")
        return getattr(importlib.import_module(module), cls)

    def draw(self, puzzle: Puzzle, solution: Sequence[int] | None = None) -> str:
        """The puzzle (with ``solution``'s values) as SVG, drawn by the kind's ``drawing``
        method; a kind without one: its text form, ``pretty()``, inside an SVG."""
        method = getattr(puzzle, self.drawing, None) if self.drawing else None
        if method is None:
            return text_figure(puzzle.pretty(solution), puzzle.kind)
        return method(solution)


KINDS: dict[str, Kind] = {}


def register_kind(kind: Kind) -> Kind:
    """Add a kind (or replace the entry of its name): the one call a new kind needs."""
    if kind.shape not in ("box", "size"):
        raise ValueError(f"kind {kind.name!r}: shape is 'box' or 'size', not {kind.shape!r}")
    KINDS[kind.name] = kind
    return kind


def unregister_kind(name: str) -> None:
    """Remove a kind registered by :func:`register_kind` (a test's toy kind, once it is done)."""
    KINDS.pop(name, None)


for _entry in (
    Kind("sudoku", "puzzlebench.models.sudoku:Sudoku", "sudoku", "box", (3, 3),
         ("clues", "check_seconds", "recheck_seconds", "rating", "unsat"), drawing="svg"),
    Kind("nqueens", "puzzlebench.models.nqueens:NQueens", "nqueens", "size", 8, ("placed",), proven_unique=False,
         drawing="svg"),
    Kind("skyscrapers", "puzzlebench.models.skyscrapers:Skyscrapers", "skyscrapers", "size", 6, ("remove",),
         drawing="svg"),
    Kind("latin", "puzzlebench.models.latin:LatinSquare", "latin", "size", 30, ("holes", "balanced"),
         proven_unique=False, drawing="svg"),
    Kind("sudoku-x", "puzzlebench.models.sudokux:SudokuX", "sudoku-x", "box", (3, 3), drawing="svg"),
    Kind("jigsaw", "puzzlebench.models.jigsaw:JigsawSudoku", "jigsaw", "size", 9,
         slow_from=(14, "size 14: half a CPU minute, 16: over 4 CPU minutes"), drawing="svg"),
    Kind("futoshiki", "puzzlebench.models.futoshiki:Futoshiki", "futoshiki", "size", 5, drawing="svg"),
    Kind("kenken", "puzzlebench.models.kenken:KenKen", "kenken", "size", 6, learning_from=12,
         slow_from=(21, "size 24: 1.5 CPU minutes"), drawing="svg"),
    Kind("killer", "puzzlebench.models.killer:KillerSudoku", "killer", "box", (3, 3), learning_from=4,
         drawing="svg"),
):
    register_kind(_entry)
# learning_from (the generators' counter): KenKen grids of random cages are Latin squares with
# few givens, where backtracking has heavy-tailed run times (Gomes, Selman, Crato and Kautz,
# "Heavy-tailed phenomena in satisfiability and constraint satisfaction problems", J. Autom.
# Reasoning 2000): `generate kenken --size 16 --seed 2` spent over 150 s in mrv's first check,
# sat 0.25 s the whole puzzle.  CPU seconds a puzzle, mrv / sat, seeds 1-3: size 12
# 0.02-0.06 / 0.08-0.12; 13 0.06-1.5 / 0.07-0.15; 14 0.5, 2.4, >60 / 0.13-0.45; 15 12.8, >60 /
# 0.26-0.30; 16 0.8, 4.5, >150 / 0.19-0.25; 20 >60 / 1.4-2.4 (24: sat 92 s, cpsat 21 s, which
# slow_from warns of).  Killer, whose cages mrv propagates a filling at a time, at every size:
# 2x4 0.05-0.07 / 0.02 s, 3x3 0.11-0.52 / 0.04 s, 3x4 (seed 2) over 90 s / 0.84 s.


class KindNames(Set):
    """The names of the registered kinds, in registration order, read live (a kind registered
    later is in it): what ``--kind`` offers, what an engine of every kind takes."""

    def __iter__(self) -> Iterator[str]:
        return iter(list(KINDS))

    def __len__(self) -> int:
        return len(KINDS)

    def __contains__(self, name: object) -> bool:
        return name in KINDS

    def __repr__(self) -> str:
        return f"KindNames({list(KINDS)})"

    @classmethod
    def _from_iterable(cls, names):
        return frozenset(names)


KIND_NAMES = KindNames()


def kind_entry(name: str) -> Kind:
    """The entry of a kind, by its name."""
    try:
        return KINDS[name]
    except KeyError:
        raise UsageError(f"unknown kind {name!r}; known: {', '.join(KIND_NAMES)}") from None


def kind_class(name: str) -> type[Puzzle]:
    """The puzzle class of a kind, by its name."""
    return kind_entry(name).model_class()


def generated_kinds() -> tuple[str, ...]:
    """The kinds ``generate`` makes, in registration order."""
    return tuple(name for name, kind in KINDS.items() if kind.generator is not None)


def shaped_by_box() -> tuple[str, ...]:
    """The kinds whose shape is a block shape (``--box``); the others take ``--size``."""
    return tuple(name for name, kind in KINDS.items() if kind.shape == "box")
