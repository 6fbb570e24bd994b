"""Errors a user can cause, and how they are shown.

Every error that comes from a user's input (a puzzle text, a file, a solver spec, a
command-line option) is a :class:`PuzzlebenchError`; the CLI prints its message and never a
traceback.  A :class:`PuzzleError` knows *where* it happened: ``source`` (a file name or
``<stdin>``), 1-based ``line`` and ``column``, so that its text reads
``top95.txt:12:81: expected 81 cells, got 80``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass


class PuzzlebenchError(Exception):
    """Base of every error caused by what a user asked for."""


@dataclass(frozen=True)
class Place:
    """Where something stands in the input: file (or ``<stdin>``), 1-based line and column."""

    source: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [str(p) for p in (self.source, self.line, self.column) if p is not None]
        return ":".join(parts)


class PuzzleError(PuzzlebenchError):
    """A puzzle that cannot be read or cannot be solved as stated.

    ``message`` is the problem alone; ``str(error)`` prefixes the place when known.
    """

    def __init__(self, message: str, place: Place | None = None, *, at: tuple | None = None):
        super().__init__(message)
        self.message = message
        self.place = place or Place()
        # what in the puzzle the problem is at, for the reader that knows its text to give the
        # column: ("cell", index) or ("clue", side, index)
        self.at = at

    def __str__(self) -> str:
        where = str(self.place)
        return f"{where}: {self.message}" if where else self.message

    @property
    def source(self) -> str | None:
        return self.place.source

    @property
    def line(self) -> int | None:
        return self.place.line

    @property
    def column(self) -> int | None:
        return self.place.column

    def located(self, source: str | None, first_line: int) -> "PuzzleError":
        """The same error placed in a file: a record that starts at ``first_line`` of
        ``source``.  A line known relative to the record is shifted; an unknown one becomes
        the record's first line."""
        err = copy.copy(self)
        rel = self.place.line
        err.place = Place(self.place.source or source,
                          first_line + rel - 1 if rel is not None else first_line,
                          self.place.column)
        return err


class ParseError(PuzzleError):
    """The text is not a puzzle of the expected form (wrong length, unknown character, …)."""


class AmbiguousKindError(ParseError):
    """The text could be more than one kind of puzzle: ``--kind`` must say which."""


class InvalidPuzzleError(PuzzleError):
    """The givens already break one of the puzzle's rules (``row 3 has two 5s``)."""


class UnsupportedShapeError(PuzzleError):
    """A size or block shape the puzzle kind (or an engine) does not handle."""


class SolverSpecError(PuzzlebenchError):
    """A solver spec that names no known engine, variant or option, or a bad option value."""


class EngineError(PuzzlebenchError):
    """An engine cannot handle what it was given (a puzzle kind it cannot express, a limit)."""


class OutOfTime(Exception):
    """The time limit passed while an engine was still building what it searches (an encoder
    that watches the clock raises it; :meth:`Engine.run` turns it into a ``timeout``), or in
    the middle of a search that stops by unwinding (the human solver's and the chains').  Not a
    mistake of the user's: no place, no message to print."""


class UsageError(PuzzlebenchError):
    """A command-line or API argument out of range (a time limit of 0, a bad ``--box``)."""
