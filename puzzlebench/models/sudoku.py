"""Sudoku with blocks of any shape: ``R x C`` blocks (R rows, C columns) on an N x N grid,
N = R*C values, from 2x2 (4x4 grid) up to 64 values.

Rules: every cell holds one value; every row, column and block holds every value once
(``AllDifferent`` over its N cells).
"""

from __future__ import annotations

import math
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, UnsupportedShapeError
from .base import Puzzle, Solution
from .vocabulary import AllDifferent, ExactlyOne, Rules, candidate

MAX_VALUES = 64
DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Values 1..35 as single characters (``A`` = 10); larger grids only in the numbers form."""
EMPTY_CHARS = ".0_"


def infer_box(n: int) -> tuple[int, int]:
    """The block shape of an N x N grid when none is given: square blocks when N is a square,
    else the most square factorisation with fewer rows than columns (6 → 2x3, 12 → 3x4)."""
    root = math.isqrt(n)
    if root * root == n:
        return root, root
    for rows in range(root, 0, -1):
        if n % rows == 0 and rows > 1:
            return rows, n // rows
    raise UnsupportedShapeError(f"no block shape for a {n}x{n} grid: {n} is prime; "
                                "give --box RxC with R*C = N")


def parse_box(text: str | tuple[int, int] | None) -> tuple[int, int] | None:
    """``"3x4"`` or ``(3, 4)`` → ``(3, 4)`` (rows x columns of a block)."""
    if text is None or isinstance(text, tuple):
        return text
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UnsupportedShapeError(f"block shape {text!r}: expected RxC, e.g. 3x3 or 2x3")
    return int(parts[0]), int(parts[1])


class Sudoku(Puzzle):
    kind = "sudoku"

    def __init__(self, box: tuple[int, int], givens: Sequence[int], *, source: str | None = None,
                 form: str = "line", empty: str = ".", box_inferred: bool = False,
                 metadata: dict[str, str] | None = None):
        rows, cols = box
        n = rows * cols
        if rows < 1 or cols < 1 or n < 1 or n > MAX_VALUES:
            raise UnsupportedShapeError(
                f"block shape {rows}x{cols} gives {n} values; supported: 1 to {MAX_VALUES} "
                "values (2x2, 2x3, 3x3, 2x4, 3x4, 4x4, 5x5, … 8x8)")
        if len(givens) != n * n:
            raise UnsupportedShapeError(
                f"{len(givens)} cells do not make a grid for {rows}x{cols} blocks "
                f"({n * n} cells expected)")
        self.box = (rows, cols)
        self.box_inferred = box_inferred
        self.size = n
        self.givens = tuple(int(v) for v in givens)
        self.source = source
        self.form = form
        self.empty = empty
        self.metadata = dict(metadata or {})
        self._validate()

    # -- geometry -------------------------------------------------------------------------

    @property
    def n_values(self) -> int:
        return self.size

    @property
    def shape(self) -> str:
        r, c = self.box
        return f"{self.size}x{self.size} ({r}x{c} blocks)"

    def block_of(self, row: int, col: int) -> int:
        r, c = self.box
        return (row // r) * r + col // c

    def units(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every row, column and block with its cells: ``("row 1", cells)`` …"""
        n = self.size
        r, c = self.box
        out = [(f"row {i + 1}", tuple(i * n + j for j in range(n))) for i in range(n)]
        out += [(f"column {j + 1}", tuple(i * n + j for i in range(n))) for j in range(n)]
        for b in range(n):
            top, left = (b // r) * r, (b % r) * c
            out.append((f"block {b + 1}",
                        tuple((top + i) * n + left + j for i in range(r) for j in range(c))))
        return out

    def _rules(self) -> Rules:
        n = self.size
        names = tuple(f"r{i // n + 1}c{i % n + 1}" for i in range(n * n))
        cells = tuple(ExactlyOne(tuple(candidate(cell, v, n) for v in range(1, n + 1)), f"cell {names[cell]}")
                      for cell in range(n * n))
        units = tuple(AllDifferent(cells_, name) for name, cells_ in self.units())
        return Rules(n * n, n, self.givens, cells + units, names)

    # -- validation and checking -------------------------------------------------------------

    def _validate(self) -> None:
        n = self.size
        for cell, v in enumerate(self.givens):
            if not 0 <= v <= n:
                raise InvalidPuzzleError(f"r{cell // n + 1}c{cell % n + 1} has value {v}, "
                                         f"outside 1..{n}", Place(self.source))
        for name, cells in self.units():
            seen: dict[int, int] = {}
            for cell in cells:
                v = self.givens[cell]
                if v:
                    if v in seen:
                        raise InvalidPuzzleError(f"{name} has two {self.value_text(v)}s",
                                                 Place(self.source))
                    seen[v] = cell

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.size
        if len(solution) != n * n:
            return [f"expected {n * n} values, got {len(solution)}"]
        problems = [f"r{c // n + 1}c{c % n + 1} = {v} is not a value 1..{n}"
                    for c, v in enumerate(solution) if not (isinstance(v, int) and 1 <= v <= n)]
        if problems:
            return problems
        problems += [f"r{c // n + 1}c{c % n + 1} is given as {self.value_text(g)}, "
                     f"solution has {self.value_text(solution[c])}"
                     for c, g in enumerate(self.givens) if g and g != solution[c]]
        for name, cells in self.units():
            values = [solution[c] for c in cells]
            missing = sorted(set(range(1, n + 1)) - set(values))
            if missing:
                problems.append(f"{name} lacks {', '.join(self.value_text(v) for v in missing)}")
        return problems

    # -- text ---------------------------------------------------------------------------------

    def value_text(self, v: int) -> str:
        return DIGITS[v - 1] if 1 <= v <= len(DIGITS) and self.size <= len(DIGITS) else str(v)

    def _cells_text(self, values: Sequence[int]) -> str:
        if self.form == "numbers" or self.size > len(DIGITS):
            return " ".join(str(v) for v in values)
        return "".join(DIGITS[v - 1] if v else self.empty for v in values)

    def format_solution(self, solution: Sequence[int]) -> str:
        return self._cells_text(solution)

    def write(self) -> str:
        return self._cells_text(self.givens)

    def parse_solution(self, text: str) -> Solution:
        return parse_sudoku_line(text.strip(), box=self.box).givens

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        values = self.givens if solution is None else solution
        n = self.size
        r, c = self.box
        width = max(1, len(self.value_text(n)))
        lines = []
        rule = "+".join("-" * ((width + 1) * c + 1) for _ in range(r))
        for i in range(n):
            if i and i % r == 0:
                lines.append(rule)
            groups = []
            for b in range(0, n, c):
                groups.append(" ".join((self.value_text(v) if v else ".").rjust(width)
                                       for v in values[i * n + b:i * n + b + c]))
            lines.append(" | ".join(groups))
        return "\n".join(lines)


def parse_sudoku_line(text: str, *, box: tuple[int, int] | str | None = None,
                      source: str | None = None) -> Sudoku:
    """A Sudoku written as one string of N² characters: ``.``, ``0`` or ``_`` empty,
    ``1-9`` then ``A`` = 10 … ``Z`` = 35 (case-insensitive).  Columns in errors are 1-based."""
    box = parse_box(box)
    length = len(text)
    n = math.isqrt(length)
    if n * n != length or n == 0:
        expected = ", ".join(str(k * k) for k in (4, 6, 9, 12, 16, 25))
        raise ParseError(f"a Sudoku line has N² characters ({expected}, …); got {length}",
                         Place(source, 1, None))
    if n > len(DIGITS):
        raise UnsupportedShapeError(f"a {n}x{n} Sudoku needs the numbers form "
                                    f"(one character covers values up to {len(DIGITS)})", Place(source, 1))
    empty_used = None
    values = []
    for col, ch in enumerate(text, start=1):
        if ch in EMPTY_CHARS:
            values.append(0)
            empty_used = empty_used or ch
            continue
        v = DIGITS.find(ch.upper()) + 1
        if v == 0:
            raise ParseError(f"unexpected character {ch!r}: expected a value (1-9, A-Z) "
                             f"or an empty cell (. 0 _)", Place(source, 1, col))
        if v > n:
            raise ParseError(f"value {ch!r} ({v}) is out of range for a {n}x{n} Sudoku "
                             f"(1..{n})", Place(source, 1, col))
        values.append(v)
    inferred = box is None
    shape = box or infer_box(n)
    if shape[0] * shape[1] != n:
        raise UnsupportedShapeError(f"block shape {shape[0]}x{shape[1]} does not divide a "
                                    f"{n}x{n} grid ({shape[0]}*{shape[1]} != {n})", Place(source, 1))
    return Sudoku(shape, values, source=source, form="line", empty=empty_used or ".",
                  box_inferred=inferred)
