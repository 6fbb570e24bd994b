"""What the kinds with cages (Killer Sudoku, KenKen) share: the cages checked to partition the
grid, their names, and the plain text form.

Plain form (read and written by both kinds; ``show`` prints it): N lines of N cells (a digit,
or ``A``.. for 10 and above, ``.`` or ``0`` empty) separated by spaces, then one line per cage,
``cage TARGET[OP]: r1c1 r1c2 …`` — ``OP`` one of ``+ - * /`` (``x`` is read as ``*``), none for
a Killer cage (a sum) and for a one-cell KenKen cage (a given).  Blank lines and ``#``
comments may come between.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place
from .sudoku import CHAR_VALUES, DIGITS
from .text import TextPlaces, content_lines, row_length_problem

PLAIN_FORM = ("its plain form is N rows of N cells separated by spaces, then its cage lines (or give "
              "its game id)")

CageSpec = tuple[tuple[int, ...], str, int]
"""A cage as a kind stores it: its cells (sorted), its operation (``+ - * /``) and its target."""

CAGE_LINE = re.compile(r"\s*cage\b", re.IGNORECASE)
_CAGE = re.compile(r"\s*cage\s+(\d+)\s*([-+*/xX]?)\s*:(.*)$", re.IGNORECASE)
_CELL = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)


def cell_label(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def cage_name(number: int, spec: CageSpec, n: int, with_op: bool = True) -> str:
    """``cage 3 (7+ at r1c1 r1c2)``: how messages name a cage."""
    cells, op, target = spec
    shown = f"{target}{op if with_op and len(cells) > 1 else ''}"
    return f"cage {number + 1} ({shown} at {' '.join(cell_label(c, n) for c in cells)})"


def check_partition(cages: Sequence[CageSpec], n: int, source: str | None) -> None:
    """Every cell of the N x N grid in exactly one cage, else an error naming the first cell
    that is in none or in two."""
    owner: dict[int, int] = {}
    for k, (cells, _, _) in enumerate(cages):
        for cell in cells:
            if not 0 <= cell < n * n:
                raise InvalidPuzzleError(f"cage {k + 1} names a cell outside the {n}x{n} grid", Place(source))
            if cell in owner:
                raise InvalidPuzzleError(f"{cell_label(cell, n)} is in two cages ({owner[cell] + 1} and {k + 1})",
                                         Place(source))
            owner[cell] = k
    missing = [c for c in range(n * n) if c not in owner]
    if missing:
        shown = " ".join(cell_label(c, n) for c in missing[:5]) + (" …" if len(missing) > 5 else "")
        raise InvalidPuzzleError(f"the cages do not cover the grid: {shown} in no cage", Place(source))


def plain_text(n: int, values: Sequence[int], cages: Sequence[CageSpec], with_op: bool) -> str:
    """The plain form (see the module)."""
    rows = [" ".join(DIGITS[v - 1] if v else "." for v in values[r * n:(r + 1) * n]) for r in range(n)]
    lines = []
    for cells, op, target in cages:
        shown = f"{target}{op if with_op and len(cells) > 1 else ''}"
        lines.append(f"cage {shown}: {' '.join(cell_label(c, n) for c in cells)}")
    return "\n".join(rows + lines)


def read_plain(text: str, source: str | None, what: str, with_op: bool
               ) -> tuple[int, list[int], list[CageSpec], list[Place], list[int]]:
    """The plain form: ``(N, givens, cages, the place of each cage line, the offset of each
    cell in the text)``; errors name the line and column.  ``with_op``: a cage of two cells or more must have an operation (KenKen);
    without it, none may (Killer: sums)."""
    places = TextPlaces(text, source)
    lines = content_lines(text)
    grid = [(at, line) for at, line in lines if not CAGE_LINE.match(line)]
    cage_lines = [(at, line) for at, line in lines if CAGE_LINE.match(line)]
    if not grid:
        raise ParseError(f"{what} in plain form starts with its grid: N lines of N cells", Place(source, 1))
    n = len(grid)
    if n > len(DIGITS):
        raise ParseError(f"a {what} of {n} rows: supported 1 to {len(DIGITS)}", places.line_place(grid[0][0]))
    givens: list[int] = []
    cell_at: list[int] = []
    for at, line in grid:
        cells = [(at + m.start(), m.group()) for m in re.finditer(r"\S+", line)]
        if len(cells) != n:
            raise ParseError(row_length_problem(what, n, len(cells), PLAIN_FORM), places.line_place(at))
        for where, token in cells:
            v = CHAR_VALUES.get(token)
            if n == 1 and len(token) > 1:   # a whole grid on one line: a Sudoku's, most likely
                raise ParseError(f"a line of {len(token)} characters is no {what}: {PLAIN_FORM}",
                                 places.place(where))
            if v is None or v > n:
                raise ParseError(f"unexpected {token!r}: a cell is a value of 1..{DIGITS[n - 1]} or . for none",
                                 places.place(where))
            givens.append(v)
            cell_at.append(where)
    if not cage_lines:
        raise ParseError(f"a {what} lists its cages after the grid: cage TARGET{'OP' if with_op else ''}: r1c1 …",
                         places.line_place(grid[-1][0]))
    cages: list[CageSpec] = []
    where_cage: list[Place] = []
    owner: dict[int, int] = {}
    for at, line in cage_lines:
        m = _CAGE.match(line)
        if not m:
            raise ParseError(f"a cage line is 'cage TARGET{'OP' if with_op else ''}: r1c1 r1c2 …'",
                             places.line_place(at))
        op = m.group(2).replace("x", "*").replace("X", "*")
        cells = []
        rest_at = at + m.start(3)
        for token in re.finditer(r"\S+", m.group(3)):
            found = _CELL.fullmatch(token.group())
            r, c = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
            if not (1 <= r <= n and 1 <= c <= n):
                raise ParseError(f"{token.group()!r} is not a cell r1c1..r{n}c{n}", places.place(rest_at + token.start()))
            cell = (r - 1) * n + c - 1
            if cell in owner and owner[cell] != len(cages):
                raise ParseError(f"{token.group()} is in two cages ({owner[cell] + 1} and {len(cages) + 1})",
                                 places.place(rest_at + token.start()))
            owner[cell] = len(cages)
            cells.append(cell)
        if not cells:
            raise ParseError("a cage names its cells: r1c1 r1c2 …", places.line_place(at))
        if len(set(cells)) != len(cells):
            raise ParseError("a cage names a cell twice", places.line_place(at))
        if with_op and not op and len(cells) > 1:
            raise ParseError(f"a cage of {len(cells)} cells needs an operation after its target: + - * or /",
                             places.place(at + m.end(1)))
        if not with_op and op:
            raise ParseError(f"a Killer cage's target is a sum: no {op!r} after it", places.place(at + m.start(2)))
        cages.append((tuple(sorted(cells)), op or "+", int(m.group(1))))
        where_cage.append(places.line_place(at))
    missing = [c for c in range(n * n) if c not in owner]
    if missing:
        raise ParseError(f"the cages do not cover the grid: {cell_label(missing[0], n)} is in no cage",
                         places.place(cell_at[missing[0]]))
    return n, givens, cages, where_cage, cell_at


def claimed_plain(text: str) -> tuple[bool, bool]:
    """Whether a text is a plain form with cages, and whether one of its cages has an
    operation (KenKen) rather than none (Killer)."""
    lines = content_lines(text)
    cage_lines = [line for _, line in lines if CAGE_LINE.match(line)]
    if not cage_lines or len(cage_lines) == len(lines):
        return False, False
    with_op = any((m := _CAGE.match(line)) and m.group(2) for line in cage_lines)
    return True, bool(with_op)
