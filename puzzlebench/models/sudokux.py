"""Sudoku-X: a Sudoku whose two main diagonals are units too (each holds every value once).

Rules: those of a Sudoku of the same block shape (``models/sudoku.py``'s units) plus an
``AllDifferent`` over each diagonal; nothing new to the vocabulary, so every engine generic
over it solves Sudoku-X with no code of its own.  The class is not a ``Sudoku``: the Sudoku
fast paths (native batches, the bulk checker, scrambling) know only rows, columns and blocks,
and must never take a Sudoku-X for one.  Text forms (Tatham's Solo id, and a Sudoku line with
``--kind sudoku-x``): :class:`SudokuX`.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError
from .base import Puzzle, Solution
from .solo import first_misfit, grid_spots, grid_text, grid_values
from .sudoku import Sudoku, parse_sudoku_data_line, unit_table
from .text import TextPlaces, cell_spots, content_lines, first_field, game_id_line, with_line
from .vocabulary import Rules, grid_rules, repeated

TATHAM_ID = re.compile(r"\s*(\d+)x(\d+)x:([0-9a-z_]*)\s*$")
TATHAM_CLAIM = re.compile(r"\s*\d+x\d+x:")
"""What makes a line's first field a Solo Sudoku-X id (read as one even when malformed)."""


class SudokuX(Puzzle):
    """A Sudoku-X (see the module doc).

    Text forms:

    - ``tatham``: Simon Tatham's Solo game id ``CxRx:GRID`` (his solo.c writes and reads it):
      blocks ``C`` cells wide and ``R`` high, the ``x`` after them marking the diagonals.  In
      ``GRID`` a number is a given, a letter ``a``..``z`` a run of 1..26 empty cells, and ``_``
      separates two numbers that would otherwise run together.  Read without ``--kind``.
    - ``line``: one line of N² characters as for a Sudoku, with ``--kind sudoku-x``."""
    kind = "sudoku-x"
    minizinc_parts = ("grid", "rows", "columns", "blocks", "diagonals")

    def __init__(self, box: tuple[int, int], givens: Sequence[int], *, source: str | None = None,
                 form: str = "line", metadata: dict[str, str] | None = None):
        self.plain = Sudoku(box, givens, source=source, form="line" if form == "tatham" else form)
        self.box, self.size = self.plain.box, self.plain.size
        self.givens, self.source, self.form = self.plain.givens, source, form
        self.metadata = dict(metadata or {})
        for name, cells in self.diagonals():
            cell = repeated(self.givens, cells)
            if cell is not None:
                raise InvalidPuzzleError(f"{name} has two {self.plain.value_text(self.givens[cell])}s",
                                         Place(source), at=("cell", cell))

    @property
    def n_values(self) -> int:
        return self.size

    @property
    def shape(self) -> str:
        return f"{self.plain.shape} with diagonals"

    def diagonals(self) -> list[tuple[str, tuple[int, ...]]]:
        n = self.size
        return [("the main diagonal", tuple(i * n + i for i in range(n))),
                ("the anti-diagonal", tuple(i * n + n - 1 - i for i in range(n)))]

    def units(self) -> list[tuple[str, tuple[int, ...]]]:
        return list(unit_table(*self.box)) + self.diagonals()

    def _rules(self) -> Rules:
        return grid_rules(self.size, self.givens, self.units())

    def structure(self) -> tuple:
        return ("sudoku-x", self.box)

    def header(self) -> dict[str, str]:
        return {"box": "x".join(map(str, self.box))}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "SudokuX":
        return cls(Sudoku.from_header(fields, givens, source).box, givens, source=source)

    def check(self, solution: Sequence[int]) -> list[str]:
        problems = self.plain.check(solution)
        if problems or len(solution) != self.size ** 2:
            return problems
        missing = [name for name, cells in self.diagonals() if len({solution[c] for c in cells}) != self.size]
        return [f"{name} repeats a value" for name in missing]

    # -- text ----------------------------------------------------------------------------

    def format_solution(self, solution: Sequence[int]) -> str:
        return self.plain.format_solution(solution)

    def parse_solution(self, text: str) -> Solution:
        """A solution as :meth:`write_solution` writes it (a Solo id of the full grid) or in
        any of the plain Sudoku's forms."""
        found = TATHAM_ID.match(text)
        if found is None:
            return self.plain.parse_solution(text)
        return tuple(grid_values(found.group(3), self.size, TextPlaces(text), found.start(3),
                                 f"a {self.size}x{self.size} Sudoku"))

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """The Sudoku's drawing with its two diagonals."""
        figure = self.plain.figure(self.kind)
        for _, cells in self.diagonals():
            figure.diagonal(cells)
        figure.values(self.givens, solution)
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        return self.plain.pretty(solution)

    def write(self) -> str:
        return self.write_solution(self.givens)

    def write_solution(self, values: Sequence[int]) -> str:
        if self.form != "tatham":
            return self.plain.write_solution(values)
        return f"{self.box[1]}x{self.box[0]}x:{grid_text(values)}"   # Solo writes the block width first

    @classmethod
    def claims(cls, text: str) -> bool:
        lines = content_lines(text)
        return len(lines) == 1 and bool(TATHAM_CLAIM.match(first_field(lines[0][1])))

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "SudokuX":
        lines = content_lines(text)
        if len(lines) != 1:
            raise ParseError("a Sudoku-X is one line: a Solo game id (3x3x:…) or N² characters", Place(source))
        if not TATHAM_CLAIM.match(first_field(lines[0][1])):
            plain = parse_sudoku_data_line(lines[0][1], box=box, source=source)
            try:
                return cls(plain.box, plain.givens, source=source, form="line", metadata=plain.metadata)
            except PuzzleError as err:   # a diagonal's repeat: at its cell of the line's first field
                start = lines[0][0] + len(lines[0][1]) - len(lines[0][1].lstrip())
                raise with_line(err, TextPlaces(text, source), start,
                                cell_spots(range(start, start + len(plain.givens)))) from None
        (offset, line), metadata = game_id_line(lines[0])
        places = TextPlaces(text, source)
        found = TATHAM_ID.match(line)
        if not found:
            bad = first_misfit(line, TATHAM_CLAIM.match(line).end())
            raise ParseError(f"unexpected {line[bad]!r} in a Solo Sudoku-X id: its grid is digits, and "
                             "letters a-z for runs of empty cells", places.place(offset + bad))
        wide, high = int(found.group(1)), int(found.group(2))
        n = wide * high
        values = grid_values(found.group(3), n, places, offset + found.start(3), f"a {n}x{n} Sudoku")
        try:
            return cls((high, wide), values, source=source, form="tatham", metadata=metadata)   # our box is rows x columns
        except PuzzleError as err:
            raise with_line(err, places, offset,
                            cell_spots(grid_spots(found.group(3), offset + found.start(3)))) from None

