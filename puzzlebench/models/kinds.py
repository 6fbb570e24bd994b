"""The puzzle kinds: one registry line each.

A kind is one module of :mod:`puzzlebench.models` holding its :class:`~.base.Puzzle`
subclass: its rules in the shared vocabulary, its own checker, its text forms, and what the
encoders ask of it (:meth:`~.base.Puzzle.structure`, :meth:`~.base.Puzzle.header`,
:meth:`~.base.Puzzle.from_header`).  The reader, the command line (``--kind``), the DIMACS
decoder and the engines' ``kinds`` read the names from here; a class is imported only when
its kind is asked for.
"""

from __future__ import annotations

import importlib

from ..errors import UsageError
from .base import Puzzle

KINDS: dict[str, str] = {
    "sudoku": "puzzlebench.models.sudoku:Sudoku",
    "nqueens": "puzzlebench.models.nqueens:NQueens",
    "skyscrapers": "puzzlebench.models.skyscrapers:Skyscrapers",
    "latin": "puzzlebench.models.latin:LatinSquare",
    "sudoku-x": "puzzlebench.models.sudokux:SudokuX",
    "jigsaw": "puzzlebench.models.jigsaw:JigsawSudoku",
    "futoshiki": "puzzlebench.models.futoshiki:Futoshiki",
    "kenken": "puzzlebench.models.kenken:KenKen",
    "killer": "puzzlebench.models.killer:KillerSudoku",
}

KIND_NAMES: tuple[str, ...] = tuple(KINDS)


def kind_class(name: str) -> type[Puzzle]:
    """The puzzle class of a kind, by its name."""
    try:
        module, _, cls = KINDS[name].partition(":")
    except KeyError:
        raise UsageError(f"unknown kind {name!r}; known: {', '.join(KIND_NAMES)}") from None
    return getattr(importlib.import_module(module), cls)
