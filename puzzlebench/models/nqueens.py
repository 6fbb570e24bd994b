"""N-Queens, with optional pre-placed queens (the completion problem).

Stated as cells = rows, value = the column of the row's queen (1-based): every row holds one
queen (the cell's value), the columns are all different, and every diagonal holds at most one
queen (``AtMostOne`` over the candidates on it).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError, UnsupportedShapeError
from .base import Puzzle, Solution
from .svg import GIVEN, SOLVED, Figure, attrs
from .text import TextPlaces, content_lines, with_line
from .vocabulary import AllDifferent, AtMostOne, ExactlyOne, Rules, candidate

MAX_N = 64


class NQueens(Puzzle):
    kind = "nqueens"

    # -- its text forms (the reader weighs which kind a text is; these read it) --------------

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "NQueens":
        """A board of ``.`` and ``Q`` (one line or several), or ``n`` and its queens' places.

        Forms:
            ``n``            ``8``; or with pre-placed queens as 1-based pairs: ``8 (1,1) (3,5)``.
            ``board``        n lines of n squares, ``.`` empty and ``Q`` a queen.
        """
        reader = cls.read_block if "\n" in text.strip() else cls.read_line
        return reader(text, box=box, source=source)

    @classmethod
    def read_line(cls, text: str, *, box=None, source: str | None = None) -> "NQueens":
        if re.fullmatch(r"[.Qq]+", text.strip()):
            return parse_nqueens_board(text, source=source)
        return parse_nqueens_line(text, source=source)

    @classmethod
    def read_block(cls, text: str, *, box=None, source: str | None = None) -> "NQueens":
        return parse_nqueens_board(text, source=source)
    minizinc_parts = ("queens",)

    def __init__(self, n: int, placed: Iterable[tuple[int, int]] = (), *, source: str | None = None,
                 form: str = "n", metadata: dict[str, str] | None = None):
        """``placed``: pre-placed queens as 0-based ``(row, column)`` pairs."""
        if not 1 <= n <= MAX_N:
            raise UnsupportedShapeError(f"N-Queens needs 1 <= n <= {MAX_N}; got {n}", Place(source), at=("n",))
        self.n = n
        self.source = source
        self.form = form
        self.metadata = dict(metadata or {})
        givens = [0] * n
        seen: list[tuple[int, int]] = []
        for k, (row, col) in enumerate(placed):
            at = ("queen", k)           # the later queen of two: where a reader places the error
            if not (0 <= row < n and 0 <= col < n):
                raise InvalidPuzzleError(f"queen at ({row + 1},{col + 1}) is off the {n}x{n} board",
                                         Place(source), at=at)
            if (row, col) in seen:
                raise InvalidPuzzleError(f"two queens at ({row + 1},{col + 1})", Place(source), at=at)
            for r2, c2 in seen:
                if r2 == row or c2 == col or abs(r2 - row) == abs(c2 - col):
                    a, b = sorted([(r2, c2), (row, col)])
                    raise InvalidPuzzleError(f"queen at ({a[0] + 1},{a[1] + 1}) attacks queen at "
                                             f"({b[0] + 1},{b[1] + 1})", Place(source), at=at)
            seen.append((row, col))
            givens[row] = col + 1
        self.givens = tuple(givens)

    @property
    def n_values(self) -> int:
        return self.n

    def structure(self) -> tuple:
        return ("nqueens", self.n)

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "NQueens":
        return cls(len(givens), [(row, g - 1) for row, g in enumerate(givens) if g], source=source)

    @property
    def shape(self) -> str:
        placed = sum(1 for g in self.givens if g)
        return f"{self.n}-queens" + (f" ({placed} placed)" if placed else "")

    @property
    def placed(self) -> list[tuple[int, int]]:
        """Pre-placed queens, 0-based ``(row, column)``."""
        return [(r, c - 1) for r, c in enumerate(self.givens) if c]

    def _rules(self) -> Rules:
        n = self.n
        names = tuple(f"row {r + 1}" for r in range(n))
        rows = tuple(ExactlyOne(tuple(candidate(r, c, n) for c in range(1, n + 1)), f"row {r + 1}")
                     for r in range(n))
        columns = (AllDifferent(tuple(range(n)), "columns"),)
        diagonals = []
        for d in range(2 * n - 1):  # r + c = d
            cands = tuple(candidate(r, d - r + 1, n) for r in range(n) if 0 <= d - r < n)
            if len(cands) > 1:
                diagonals.append(AtMostOne(cands, f"diagonal r+c={d + 2}"))
        for d in range(-(n - 1), n):  # r - c = d
            cands = tuple(candidate(r, r - d + 1, n) for r in range(n) if 0 <= r - d < n)
            if len(cands) > 1:
                diagonals.append(AtMostOne(cands, f"anti-diagonal r-c={d}"))
        return Rules(n, n, self.givens, rows + columns + tuple(diagonals), names)

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.n
        if len(solution) != n:
            return [f"expected a column for each of the {n} rows, got {len(solution)}"]
        problems = [f"row {r + 1}: column {c} is off the board"
                    for r, c in enumerate(solution) if not (isinstance(c, int) and 1 <= c <= n)]
        if problems:
            return problems
        problems += [f"queen given at ({r + 1},{g}) is not in the solution"
                     for r, g in enumerate(self.givens) if g and solution[r] != g]
        for r1 in range(n):
            for r2 in range(r1 + 1, n):
                c1, c2 = solution[r1], solution[r2]
                if c1 == c2 or abs(c1 - c2) == r2 - r1:
                    problems.append(f"queen at ({r1 + 1},{c1}) attacks queen at ({r2 + 1},{c2})")
        return problems

    def format_solution(self, solution: Sequence[int]) -> str:
        return ",".join(str(c) for c in solution)

    def parse_solution(self, text: str) -> Solution:
        try:
            return tuple(int(t) for t in text.strip().split(","))
        except ValueError:
            raise ParseError(f"a queens solution is {self.n} comma-separated columns; got {text!r}") from None

    def write(self) -> str:
        """``n`` with the pre-placed queens as 1-based ``(row,col)`` pairs, or the board."""
        return self._write_columns(self.givens)

    def write_solution(self, solution: Sequence[int]) -> str:
        """A solution in the puzzle's own form: every queen as a pair, or the board."""
        return self._write_columns(solution)

    def _write_columns(self, columns: Sequence[int]) -> str:
        if self.form == "board":
            return self.pretty(columns)
        placed = " ".join(f"({r + 1},{c})" for r, c in enumerate(columns) if c)
        return f"{self.n} {placed}".strip()

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """A chess board, a crown a queen: placed ones black, a solution's blue."""
        n = self.n
        figure = Figure(n, n, kind=self.kind)
        figure.shade([c for c in range(n * n) if (c // n + c % n) % 2], "#e3d5b8", "dark-square")
        figure.grid()
        for row, given in enumerate(self.givens):
            column = given or (solution[row] if solution is not None else 0)
            if column:
                figure.raw(queen(figure, row * n + column - 1, "given" if given else "solved"))
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        cols = self.givens if solution is None else solution
        return "\n".join("".join("Q" if cols[r] == c + 1 else "." for c in range(self.n))
                         for r in range(self.n))


CROWN = ((0.2, 0.78), (0.14, 0.34), (0.34, 0.56), (0.5, 0.22), (0.66, 0.56), (0.86, 0.34), (0.8, 0.78))
"""A queen's crown, as fractions of a cell: base, then five points."""


def queen(figure: Figure, cell: int, cls: str) -> str:
    """A queen on ``cell`` (``class="given queen"`` or ``"solved queen"``)."""
    row, column = figure.rc(cell)
    points = " ".join(f"{figure.x(column + dx):.1f},{figure.y(row + dy):.1f}" for dx, dy in CROWN)
    colour = GIVEN if cls == "given" else SOLVED
    return (f'<polygon class="{cls} queen"{attrs(data_cell=figure.name(cell), data_value=column + 1, points=points)}'
            f' fill="{colour}" stroke="#fff" stroke-width="1"/>')


# -- reading the forms ----------------------------------------------------------------------

PAIR = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)")


def parse_nqueens_line(text: str, *, source: str | None = None) -> NQueens:
    """``n``, optionally followed by pre-placed queens as 1-based ``(row,col)`` pairs
    (``8 (1,1) (3,5)``).  Other fields are metadata: ``key=value`` under its key, plain
    numbers (the counts of the OEIS data file: ``n A000170(n) A002562(n)``) as
    ``field<k>``, and comma-separated columns (``1,5,8,6,3,7,2,4``: a solution as ``solve``
    writes it in JSON lines and ``generate`` after the puzzle) as ``solution``, which ``check``
    verifies (the commas split it into plain numbers, and check had no form for a queens
    answer at all)."""
    places = TextPlaces(text, source)
    m = re.match(r"\s*(\d+)(?=\s|$|\()", text)
    if not m:
        start = len(text) - len(text.lstrip())
        raise ParseError("expected the board size n of an N-Queens puzzle, then (row,col) pairs",
                         places.place(start))
    n = int(m.group(1))
    placed: list[tuple[int, int]] = []
    spots: dict[tuple, int] = {("n",): m.start(1)}
    metadata: dict[str, str] = {}
    for k, tok in enumerate(re.finditer(r"\(\s*\d+\s*,\s*\d+\s*\)|\d+(?:,\d+)+(?=\s|$)|[^\s,]+",
                                        text[m.end():]), start=2):
        word, off = tok.group(), m.end() + tok.start()
        pair = PAIR.fullmatch(word)
        key, eq, value = word.partition("=")
        if "," in word and not pair:
            if "solution" in metadata:
                raise ParseError(f"a second solution {word!r}: one after the puzzle", places.place(off))
            metadata["solution"] = word
        elif pair:
            spots["queen", len(placed)] = off
            placed.append((int(pair.group(1)) - 1, int(pair.group(2)) - 1))
        elif eq and key:
            metadata[key] = value
        elif word.isdigit() and not placed:
            metadata[f"field{k}"] = word
        else:
            raise ParseError(f"unexpected {word!r}: after n, pre-placed queens are 1-based "
                             "(row,col) pairs, e.g. 8 (1,1) (3,5)", places.place(off))
    try:
        return NQueens(n, placed, source=source, form="n", metadata=metadata)
    except PuzzleError as err:
        raise with_line(err, places, m.start(1), spots) from None


BOARD_EMPTY, BOARD_QUEEN = ".", "Qq"


def parse_nqueens_board(text: str, *, source: str | None = None) -> NQueens:
    """A board of n rows of n squares: ``.`` empty, ``Q`` a pre-placed queen (spaces between
    squares are allowed).  The completion problem: place the other queens."""
    places = TextPlaces(text, source)
    rows = content_lines(text)
    n = len(rows)
    if n == 0:
        raise ParseError("empty input: no puzzle found", places.place(0))
    placed = []
    spots: dict[tuple, int] = {}
    for r, (offset, line) in enumerate(rows):
        squares = [(offset + i, ch) for i, ch in enumerate(line) if not ch.isspace()]
        if len(squares) != n:
            raise ParseError(f"board row {r + 1} has {len(squares)} squares; a board of {n} rows "
                             f"needs {n} in every row", places.line_place(offset))
        for c, (off, ch) in enumerate(squares):
            if ch in BOARD_QUEEN:
                spots["queen", len(placed)] = off
                placed.append((r, c))
            elif ch != BOARD_EMPTY:
                raise ParseError(f"unexpected character {ch!r}: a board has '.' (empty) and "
                                 "'Q' (queen)", places.place(off))
    try:
        return NQueens(n, placed, source=source, form="board")
    except PuzzleError as err:
        raise with_line(err, places, rows[0][0], spots) from None
