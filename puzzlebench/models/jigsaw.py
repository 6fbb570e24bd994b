"""Jigsaw Sudoku: an N x N grid whose blocks are N regions of N cells of any shape; every row,
every column and every region holds each value once.  Nothing new to the vocabulary (an
``AllDifferent`` per row, column and region), so every engine generic over it solves jigsaw
puzzles with no code of its own.  Not a ``Sudoku``: the Sudoku fast paths know only
rectangular blocks.

Text form: Simon Tatham's Solo game id ``Nj:GRID,BLOCKS`` (his solo.c writes and reads it).
``GRID`` is as in every Solo id (a number is a given, a letter ``a``..``z`` a run of 1..26
empty cells, ``_`` between two numbers).  ``BLOCKS`` writes down the lines between regions
(``models/solo.py``: :func:`~.solo.edge_regions`).
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError
from .base import Puzzle, Solution
from .latin import latin_problems
from .solo import edge_regions, edges_text, grid_spots, grid_text, grid_values
from .sudoku import DIGITS
from .svg import Figure
from .text import TextPlaces, cell_spots, content_lines, first_field, game_id_line, with_line
from .vocabulary import Rules, grid_rules, repeated

TATHAM_ID = re.compile(r"\s*(\d+)j:([0-9a-z_]*),([a-z_]*)\s*$")
TATHAM_CLAIM = re.compile(r"\s*\d+j:")
"""What makes a line a Solo jigsaw id (to be read as one, with the reader's errors, even
when the rest is malformed; ``N:`` alone is a Towers or Unequal id)."""


class JigsawSudoku(Puzzle):
    kind = "jigsaw"
    minizinc_parts = ("grid", "rows", "columns", "regions")

    def __init__(self, regions: Sequence[int], givens: Sequence[int], *, source: str | None = None,
                 form: str = "tatham", metadata: dict[str, str] | None = None):
        n = round(len(givens) ** 0.5)
        if n * n != len(givens) or len(regions) != n * n or not 1 <= n <= len(DIGITS):
            raise ParseError(f"a jigsaw Sudoku of {len(givens)} cells and {len(regions)} region marks "
                             f"is not an N x N grid (N <= {len(DIGITS)})", Place(source))
        self.n = n
        self.regions = _numbered(regions)
        self.givens = tuple(int(v) for v in givens)
        self.source, self.form, self.metadata = source, form, dict(metadata or {})
        sizes = [self.regions.count(r) for r in range(max(self.regions) + 1)]
        if len(sizes) != n or any(size != n for size in sizes):
            raise InvalidPuzzleError(f"a {n}x{n} jigsaw needs {n} regions of {n} cells; the regions have "
                                     f"{', '.join(map(str, sorted(sizes)))} cells", Place(source))
        for cell, v in enumerate(self.givens):
            if not 0 <= v <= n:
                raise InvalidPuzzleError(f"r{cell // n + 1}c{cell % n + 1}: {v} is not a value of 1..{n}",
                                         Place(source), at=("cell", cell))
        for name, cells in self.units():
            cell = repeated(self.givens, cells)
            if cell is not None:
                raise InvalidPuzzleError(f"{name} has two {self.givens[cell]}s", Place(source), at=("cell", cell))

    @property
    def n_values(self) -> int:
        return self.n

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n} jigsaw"

    def units(self) -> list[tuple[str, tuple[int, ...]]]:
        n = self.n
        rows = [(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
        columns = [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
        regions = [(f"region {k + 1}", tuple(i for i, r in enumerate(self.regions) if r == k)) for k in range(n)]
        return rows + columns + regions

    def _rules(self) -> Rules:
        return grid_rules(self.n, self.givens, self.units())

    def structure(self) -> tuple:
        return ("jigsaw", self.regions)

    def header(self) -> dict[str, str]:
        return {"regions": " ".join(map(str, self.regions))}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "JigsawSudoku":
        try:
            regions = [int(x) for x in fields["regions"].split()]
        except (KeyError, ValueError):
            raise ParseError("the header gives no regions (regions: a region number per cell)",
                             Place(source, 1)) from None
        return cls(regions, givens, source=source)

    def check(self, solution: Sequence[int]) -> list[str]:
        return latin_problems(self.n, self.givens, solution, self.units())

    # -- text ----------------------------------------------------------------------------

    def format_solution(self, solution: Sequence[int]) -> str:
        return "".join(DIGITS[v - 1] for v in solution)

    def parse_solution(self, text: str) -> Solution:
        """A solution as :meth:`write_solution` writes it (a Solo id of the full grid, whose
        regions must be the puzzle's) or as :meth:`format_solution` does (N² characters)."""
        text = text.strip()
        found = TATHAM_ID.match(text)
        if found:
            if _numbered(edge_regions(found.group(3), self.n, TextPlaces(text), found.start(3))) != self.regions:
                raise ParseError("the solution's id has other regions than the puzzle's")
            return tuple(grid_values(found.group(2), self.n, TextPlaces(text), found.start(2), f"a {self.n}x{self.n} jigsaw"))
        if len(text) != self.n * self.n or any(ch.upper() not in DIGITS[:self.n] for ch in text):
            raise ParseError(f"a jigsaw solution is {self.n * self.n} characters of 1..{DIGITS[self.n - 1]}")
        return tuple(DIGITS.index(ch.upper()) + 1 for ch in text)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """Its regions by bold borders and a light fill each; givens black, solved values blue."""
        figure = Figure(self.n, self.n, kind=self.kind)
        figure.regions(self.regions)
        figure.grid(self.regions)
        figure.values(self.givens, solution)
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        values = self.givens if solution is None else solution
        n = self.n
        rows = []
        for r in range(n):
            cells = [DIGITS[v - 1] if v else "." for v in values[r * n:(r + 1) * n]]
            marks = [chr(ord("a") + self.regions[r * n + c]) for c in range(n)]
            rows.append(" ".join(cells) + "   " + "".join(marks))
        return "\n".join(rows)

    def write(self) -> str:
        return self.write_solution(self.givens)

    def write_solution(self, values: Sequence[int]) -> str:
        return f"{self.n}j:{grid_text(values)},{edges_text(self.regions, self.n)}"

    @classmethod
    def claims(cls, text: str) -> bool:
        lines = content_lines(text)
        return len(lines) == 1 and bool(TATHAM_CLAIM.match(first_field(lines[0][1])))

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "JigsawSudoku":
        lines = content_lines(text)
        (offset, line), metadata = game_id_line(lines[0]) if len(lines) == 1 else ((0, ""), {})
        found = TATHAM_ID.match(line)
        places = TextPlaces(text, source)
        if not found:
            claim = TATHAM_CLAIM.match(line)
            where = places.place(offset + _first_misfit(line, claim.end())) if claim \
                else Place(source, 1 if lines else None)
            raise ParseError("a jigsaw Sudoku is a Solo game id on one line: Nj:grid,regions "
                             "(grid: digits and letters a-z for runs of empty cells; regions: letters "
                             "a-z and _ for the edge runs)", where)
        n = int(found.group(1))
        if not 1 <= n <= len(DIGITS):
            raise ParseError(f"a jigsaw of size {n}: supported 1 to {len(DIGITS)}", places.place(offset + found.start(1)))
        givens = grid_values(found.group(2), n, places, offset + found.start(2), f"a {n}x{n} jigsaw")
        regions = edge_regions(found.group(3), n, places, offset + found.start(3))
        try:
            return cls(regions, givens, source=source, form="tatham", metadata=metadata)
        except PuzzleError as err:
            raise with_line(err, places, offset,
                            cell_spots(grid_spots(found.group(2), offset + found.start(2)))) from None


def _first_misfit(line: str, start: int) -> int:
    """Where a malformed Solo jigsaw id first goes wrong: the first character that is not of
    its part (the grid before the comma, the regions after it), or its end (no comma)."""
    body = line.rstrip()
    comma = body.find(",", start)
    for i in range(start, len(body)):
        allowed = "abcdefghijklmnopqrstuvwxyz_" if comma != -1 and i > comma else \
            "0123456789abcdefghijklmnopqrstuvwxyz_" + ("," if i == comma else "")
        if body[i] not in allowed:
            return i
    return len(body)


def _numbered(regions: Sequence[int]) -> tuple[int, ...]:
    """Region marks renumbered 0, 1, … in order of first appearance (the same regions)."""
    order: dict[int, int] = {}
    return tuple(order.setdefault(r, len(order)) for r in regions)
