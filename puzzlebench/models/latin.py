"""Latin square completion: an N x N grid (N <= 64) with some cells given; every row and every
column holds each of the values 1..N once.  With holes punched in a complete random square it
is the quasigroup-with-holes (QWH) problem, the classic SAT and CSP benchmark family (Gomes and
Selman, "Problem structure in the presence of perturbations", AAAI 1997; Achlioptas, Gomes,
Kautz and Selman, "Generating satisfiable problem instances", AAAI 2000).

Rules: an ``ExactlyOne`` per cell and an ``AllDifferent`` per row and column: nothing new to
the vocabulary, so every engine generic over it solves Latin squares with no code of its own.
Text forms (``grid``, and the literature's ``.pls``), each able to carry its solution for
``check``: :class:`LatinSquare`.
"""

from __future__ import annotations

import math
import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError, UnsupportedShapeError
from .base import Puzzle, Solution
from .svg import Figure
from .text import TextPlaces, cell_spots, content_lines, with_line
from .vocabulary import Rules, grid_rules, repeated

MAX_N = 64
PLS_HEADER = re.compile(r"\s*order\s+(\S+)\s*$", re.IGNORECASE)
"""A ``.pls`` file's first line, whatever its order: ``order -3`` is a wrong order, not a Sudoku."""
SOLUTION_LINE = re.compile(r"\s*solution\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"[^\s,]+")


class LatinSquare(Puzzle):
    """A Latin square to complete (see the module doc).

    Text forms (:meth:`LatinSquare.read_text`, with ``--kind latin``; a ``.pls`` file's ``order``
    line needs no ``--kind``):

    - ``grid``: N lines of N numbers separated by spaces or commas, ``0``, ``-1`` or ``.`` empty;
    - ``pls``: the quasigroup-completion files of the literature: a line ``order N``, then N rows of
      N numbers with ``-1`` for a hole and values counted from 0 (as the ``.pls`` generators write
      them: the value ``v`` there is ``v + 1`` here).

    Either form may carry its solution, for ``check``: a line ``solution`` after the rows, then N
    rows in the same form, with no hole (:meth:`LatinSquare.write_with_solution`, what ``generate
    latin`` writes).  The literature's ``.pls`` files have no place for one (its generators keep the
    square apart or not at all), and a block is the only record a Latin square has, so the solution
    goes in the block; a ``.pls`` reader that stops after N rows still reads the puzzle."""
    kind = "latin"
    minizinc_parts = ("grid", "rows", "columns")
    spans_lines = True   # in a file of many, a puzzle is a block of lines (blank lines between)
    missing_solution = "no solution given: after the rows, a line 'solution', then the solution's rows"

    def __init__(self, n: int, givens: Sequence[int], *, source: str | None = None, form: str = "grid",
                 metadata: dict[str, str] | None = None):
        if not 1 <= n <= MAX_N:
            raise UnsupportedShapeError(f"a Latin square needs 1 <= N <= {MAX_N}; got {n}", Place(source))
        if len(givens) != n * n:
            raise ParseError(f"a {n}x{n} Latin square has {n * n} cells; got {len(givens)}", Place(source))
        self.n = n
        self.givens = tuple(int(v) for v in givens)
        self.source, self.form, self.metadata = source, form, dict(metadata or {})
        for cell, v in enumerate(self.givens):
            if not 0 <= v <= n:
                raise InvalidPuzzleError(f"r{cell // n + 1}c{cell % n + 1}: value {v} is not in 1..{n}",
                                         Place(source), at=("cell", cell))
        broken = line_repeat_cells(n, self.givens)
        if broken:
            raise InvalidPuzzleError(broken[0][0], Place(source), at=("cell", broken[0][1]))

    @property
    def n_values(self) -> int:
        return self.n

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n}"

    def _rules(self) -> Rules:
        return grid_rules(self.n, self.givens, latin_lines(self.n))

    def structure(self) -> tuple:
        return ("latin", self.n)

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "LatinSquare":
        return cls(math.isqrt(len(givens)), givens, source=source)

    # -- checking ------------------------------------------------------------------------

    def _repeats(self, values: Sequence[int]) -> list[str]:
        return line_repeats(self.n, values)

    def check(self, solution: Sequence[int]) -> list[str]:
        return latin_problems(self.n, self.givens, solution)

    # -- text ----------------------------------------------------------------------------

    def format_solution(self, solution: Sequence[int]) -> str:
        return " ".join(map(str, solution))

    def parse_solution(self, text: str) -> Solution:
        return numbers_solution(text, self.n, "a Latin square")

    def write(self) -> str:
        return self.write_solution(self.givens)

    def write_solution(self, values: Sequence[int]) -> str:
        rows = self._rows(values)
        return f"order {self.n}\n{rows}" if self.form == "pls" else rows

    def write_generated(self, note: str = "") -> str:
        """A quasigroup with holes as ``generate`` writes it: a comment saying what it is (its
        holes, their pattern, ``note``), the block :meth:`write_with_solution` writes, a blank
        line."""
        n, holes = self.n, int(self.metadata["holes"])
        pattern = self.metadata.get("pattern", "uniform")
        square = self.parse_solution(self.metadata["solution"])
        return (f"# QWH order {n}: {holes} holes ({holes / (n * n):.1%}, {pattern}), {note}\n"
                f"{self.write_with_solution(square)}\n")

    def write_with_solution(self, solution: Sequence[int]) -> str:
        """The puzzle, then a line ``solution`` and the solution's rows in the same form: the
        block ``check`` verifies (see :class:`LatinSquare`)."""
        return f"{self.write()}\nsolution\n{self._rows(solution)}"

    def _rows(self, values: Sequence[int]) -> str:
        n = self.n
        rows = [values[r * n:(r + 1) * n] for r in range(n)]
        if self.form == "pls":
            return "\n".join(" ".join(str(v - 1) for v in row) for row in rows)
        width = len(str(n))
        return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in rows)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """Its grid; givens black, solved values blue."""
        figure = Figure(self.n, self.n, kind=self.kind)
        figure.grid()
        figure.values(self.givens, solution)
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        values = self.givens if solution is None else solution
        width = len(str(self.n))
        n = self.n
        return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in values[r * n:(r + 1) * n])
                         for r in range(n))

    @classmethod
    def claims(cls, text: str) -> bool:
        """Whether a text is a Latin square whatever ``--kind`` says: a ``.pls`` file, or rows
        with a ``solution`` line after them (no other kind has that form)."""
        lines = content_lines(text)
        return bool(lines) and (bool(PLS_HEADER.match(lines[0][1]))
                                or any(SOLUTION_LINE.match(line) for _, line in lines[1:]))

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "LatinSquare":
        """A Latin square in either of its forms (see :class:`LatinSquare`); errors name the
        line and column."""
        places = TextPlaces(text, source)
        lines = content_lines(text)
        if not lines:
            raise ParseError("empty input: no Latin square found", Place(source))
        cut = next((i for i, (_, line) in enumerate(lines) if SOLUTION_LINE.match(line)), len(lines))
        lines, below = lines[:cut], lines[cut:]
        if not lines:
            raise ParseError("'solution' comes before any row of the square", places.line_place(below[0][0]))
        header = PLS_HEADER.match(lines[0][1])
        form, rows = ("pls", lines[1:]) if header else ("grid", lines)
        order = header.group(1) if header else None
        if header and not (order.isascii() and order.isdigit() and 1 <= int(order) <= MAX_N):
            # said first: "followed by 0 rows; expected 99999999999"
            raise UnsupportedShapeError(f"a Latin square needs 1 <= N <= {MAX_N}; got 'order {order}'",
                                        places.place(lines[0][0] + header.start(1)))
        n = int(order) if header else len(rows)
        if header and len(rows) != n:
            raise ParseError(f"'order {n}' is followed by {len(rows)} rows; expected {n}",
                             places.line_place(lines[0][0]))
        values, spots = _read_rows(rows, n, form, places)
        metadata = {}
        if below:
            if len(below) != n + 1:
                raise ParseError(f"'solution' is followed by {len(below) - 1} rows; expected {n}",
                                 places.line_place(below[0][0]))
            solution, at = _read_rows(below[1:], n, form, places)
            if 0 in solution:
                raise ParseError("a hole in the solution: it fills every cell", places.place(at[solution.index(0)]))
            metadata["solution"] = " ".join(map(str, solution))
        try:
            return cls(n, values, source=source, form=form, metadata=metadata)
        except PuzzleError as err:
            raise with_line(err, places, lines[0][0], cell_spots(spots)) from None


def _read_rows(rows: list[tuple[int, str]], n: int, form: str, places: TextPlaces) -> tuple[list[int], list[int]]:
    """The values of N rows of N numbers (0 a hole) and the text offset of each."""
    values, spots = [], []
    for offset, line in rows:
        tokens = [(offset + m.start(), m.group()) for m in _TOKEN.finditer(line)]
        if len(tokens) != n:
            raise ParseError(f"a row of a {n}x{n} Latin square has {n} numbers; this one has {len(tokens)}",
                             places.line_place(offset))
        for at, token in tokens:
            values.append(_value(token, n, form, places.place(at)))
            spots.append(at)
    return values, spots


def _value(token: str, n: int, form: str, place: Place) -> int:
    if token in (".", "-1", "0") and not (form == "pls" and token == "0"):
        return 0
    try:
        v = int(token) + (1 if form == "pls" else 0)
    except ValueError:
        raise ParseError(f"unexpected {token!r}: expected a number (0, -1 or . for a hole)", place) from None
    if not 1 <= v <= n:
        shown = f"{token} (value {v})" if form == "pls" else token
        raise ParseError(f"{shown} is not a value of a {n}x{n} Latin square", place)
    return v


# -- what every Latin square checks (Futoshiki too) ------------------------------------------

def latin_lines(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """The rows and columns of an N x N grid, named, each its cells in order."""
    return ([(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
            + [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)])


def line_repeats(n: int, values: Sequence[int], units=None) -> list[str]:
    """Each unit (by default the rows and columns) where a value (0 = empty) stands twice,
    in words."""
    return [message for message, _ in line_repeat_cells(n, values, units)]


def line_repeat_cells(n: int, values: Sequence[int], units=None) -> list[tuple[str, int]]:
    """:func:`line_repeats` with the cell of each repeat (the second of the two)."""
    out = []
    for name, cells in units if units is not None else latin_lines(n):
        cell = repeated(values, cells)
        if cell is not None:
            out.append((f"{name} has two {values[cell]}s", cell))
    return out


def latin_problems(n: int, givens: Sequence[int], solution: Sequence[int], units=None) -> list[str]:
    """Every way ``solution`` fails to be an N x N grid of values 1..N completing ``givens``
    whose ``units`` (by default the rows and columns: a Latin square) hold each value once."""
    if len(solution) != n * n:
        return [f"expected {n * n} values, got {len(solution)}"]
    problems = [f"r{i // n + 1}c{i % n + 1}: {v} is not a value of 1..{n}"
                for i, v in enumerate(solution) if not (isinstance(v, int) and 1 <= v <= n)]
    if problems:
        return problems
    problems += [f"r{i // n + 1}c{i % n + 1}: given {g}, solution has {solution[i]}"
                 for i, g in enumerate(givens) if g and solution[i] != g]
    return problems + line_repeats(n, solution, units)


def numbers_solution(text: str, n: int, what: str) -> Solution:
    """A solution written as numbers (separated by blanks or commas)."""
    try:
        return tuple(int(t) for t in _TOKEN.findall(text))
    except ValueError:
        raise ParseError(f"{what}'s solution is {n * n} numbers; got {text[:40]!r}") from None
