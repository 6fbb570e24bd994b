"""Sudoku with blocks of any shape: ``R x C`` blocks (R rows, C columns) on an N x N grid,
N = R*C values, from 2x2 (4x4 grid) up to 64 values.

Rules: every cell holds one value; every row, column and block holds every value once
(``AllDifferent`` over its N cells).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from operator import itemgetter
from typing import Callable, Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError, UnsupportedShapeError, UsageError
from ..options import BOX
from .base import Puzzle, Solution
from .solo import first_misfit, grid_spots, grid_text, grid_values
from .svg import Figure
from .text import CPMPY_HEADER, TextPlaces, cell_spots, content_lines, game_id_line, with_line
from .vocabulary import Rules, grid_rules, repeated

MAX_VALUES = 64
DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Values 1..35 as single characters (``A`` = 10); larger grids only in the numbers form."""
EMPTY_CHARS = ".0_"
CHAR_VALUES = {**{ch: 0 for ch in EMPTY_CHARS}, **{ch: i + 1 for i, ch in enumerate(DIGITS)},
               **{ch.lower(): i + 1 for i, ch in enumerate(DIGITS)}}


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


def self_describing_form(box: tuple[int, int]) -> str:
    """The one-line form in which a Sudoku of these blocks reads back as these blocks with no
    ``--box`` (what ``generate`` writes): the plain line where the reader infers the shape
    (:func:`infer_box`; a line of 4 cells or more), else Simon Tatham's Solo id, which names the
    block (``CxR:``; up to 35 values: 3x2, 4x3, 1x3, a 2x2 grid), else numbers, which need
    ``--box`` to be read back (a 40-value grid of 4x10 blocks)."""
    if box_is_inferred(box):
        return "line"
    return "solo" if box[0] * box[1] <= len(DIGITS) else "line"


def box_is_inferred(box: tuple[int, int]) -> bool:
    """Whether a grid of these blocks, read with no ``--box``, is read with these blocks."""
    n = box[0] * box[1]
    try:
        return n >= 2 and infer_box(n) == tuple(box)
    except UnsupportedShapeError:
        return False


@lru_cache(maxsize=None)
def unit_table(rows: int, cols: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The rows, columns and blocks of a grid of ``rows x cols`` blocks, with their cells
    (computed once per shape)."""
    n = rows * cols
    out = [(f"row {i + 1}", tuple(i * n + j for j in range(n))) for i in range(n)]
    out += [(f"column {j + 1}", tuple(i * n + j for i in range(n))) for j in range(n)]
    for b in range(n):
        top, left = (b // rows) * rows, (b % rows) * cols
        out.append((f"block {b + 1}",
                    tuple((top + i) * n + left + j for i in range(rows) for j in range(cols))))
    return tuple(out)


@lru_cache(maxsize=None)
def _unit_getters(rows: int, cols: int) -> tuple[Callable, ...]:
    """One ``itemgetter`` per row, column and block: the values of a unit in one C call (as a
    tuple, even for the one-cell units of a 1x1 grid)."""
    return tuple(itemgetter(*cells) if len(cells) > 1 else itemgetter(slice(cells[0], cells[0] + 1))
                 for _, cells in unit_table(rows, cols))


@lru_cache(maxsize=None)
def block_map(rows: int, cols: int) -> tuple[int, ...]:
    """The block of every cell (numbered as :func:`unit_table` numbers them, from 0)."""
    n = rows * cols
    return tuple((r // rows) * rows + c // cols for r in range(n) for c in range(n))


def parse_box(box: str | tuple[int, int] | None) -> tuple[int, int] | None:
    """``"3x4"`` → ``(3, 4)`` (rows x columns of a block), read by :data:`~puzzlebench.options.BOX`;
    a tuple passes as it is (the API and the commands check theirs where they are given)."""
    if box is None or isinstance(box, tuple):
        return box
    try:
        return BOX.check(box, "block shape")
    except UsageError as exc:   # a header's box field: the puzzle's error, placed by its reader
        raise UnsupportedShapeError(str(exc)) from None


@lru_cache(maxsize=None)
def _shape_text(rows: int, cols: int) -> str:
    """``9x9 (3x3 blocks)``: made once a shape (the bench asks it of every puzzle)."""
    n = rows * cols
    return f"{n}x{n} ({rows}x{cols} blocks)"


class Sudoku(Puzzle):
    kind = "sudoku"

    # -- its text forms (the reader weighs which kind a text is; these read it) --------------

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "Sudoku":
        """A Sudoku in any of its forms: one line, or a block of lines.

        Forms:
            ``line``         one line of N² characters: ``.``, ``0`` or ``_`` empty, ``1-9`` then
                             ``A`` = 10 … ``Z`` = 35 (case-insensitive).  Further whitespace-separated
                             fields are metadata: field 2 is ``solution`` when it is a full grid of the
                             same length, ``key=value`` fields go under their key, others ``field<k>``.
            ``numbers``      N² numbers on one line, separated by spaces or commas (0 = empty); the
                             only form for N > 35 (up to 64).
            ``grid``         N lines of N cells: characters (``53..7....``), or characters / numbers
                             separated by spaces; ``|`` between blocks and ``---+---`` lines are skipped.
            ``numbers_grid`` N lines of N numbers without ``|`` (``1 0 0 0`` rows).
            ``list``         ``[[1,0,0,0],[0,0,2,0],…]``; ``flat_list`` its flat
                             ``[3,0,4, 0,8,0, …]``; both may span lines.
            ``cpmpy``        CPMpy 1.1's scaled-sudoku-instances format: ``# size=N box=WxH`` (W = block
                             width in columns, H = height in rows: our shape is HxW), then N rows of N
                             characters from ``123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0`` (``0`` = 36),
                             ``.`` empty.
            ``solo``         Simon Tatham's Solo game id ``CxR:GRID`` (blocks C wide, R high), with
                             data-line fields after it.
            ``sukaku``       pencil marks (:mod:`puzzlebench.models.sukaku`): a line of 729 characters
                             of ``0-9.``, or 9 rows of 9 candidate-digit tokens (``1245 3 6789 …``)
                             with some token of two or more digits; read when no ``box`` is given.
            Block shape: ``box`` (``"2x3"`` = 2 rows, 3 columns, or ``(2, 3)``), else the CPMpy header,
            else inferred (:func:`~puzzlebench.models.sudoku.infer_box`; ``puzzle.box_inferred``).
        """
        return cls.read_block(text, box=box, source=source) if "\n" in text.strip() else \
            cls.read_line(text, box=box, source=source)

    @classmethod
    def read_line(cls, text: str, *, box=None, source: str | None = None) -> "Sudoku":
        """A Solo id, a list of rows, a line of N² characters or of N² numbers (a pencil-mark
        line, a Sukaku, is told apart by the reader, which knows both kinds)."""
        stripped = text.strip()
        fields = stripped.split()
        if SOLO_CLAIM.match(stripped):
            return parse_solo_sudoku(text, source=source)
        if stripped.startswith("["):
            return parse_sudoku_list(text, box=box, source=source)
        if fields and is_sudoku_string(fields[0]):
            return parse_sudoku_data_line(text, box=box, source=source)
        return parse_sudoku_numbers(text, box=box, source=source)

    @classmethod
    def read_block(cls, text: str, *, box=None, source: str | None = None) -> "Sudoku":
        """A CPMpy instance, a list of rows or a grid (a pencil-mark grid: the reader's)."""
        first = content_lines(text)[0][1].strip()
        if CPMPY_HEADER.match(first):
            return parse_sudoku_cpmpy(text, box=box, source=source)
        if first.startswith("["):
            return parse_sudoku_list(text, box=box, source=source)
        return parse_sudoku_grid(text, box=box, source=source)
    minizinc_parts = ("grid", "rows", "columns", "blocks")

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
        self.givens = tuple(map(int, givens))
        self.source = source
        self.form = form
        self.empty = empty
        self.metadata = dict(metadata or {})
        self._validate()

    @classmethod
    def of_valid_givens(cls, box: tuple[int, int], givens: bytes, *, empty: str = ".",
                        box_inferred: bool = True) -> "Sudoku":
        """A puzzle of a :class:`~.sudoku_batch.SudokuBatch`, whose givens were validated with the batch
        (the attributes :meth:`__init__` sets, without validating again)."""
        puzzle = cls.__new__(cls)
        puzzle.__dict__ = {"box": box, "box_inferred": box_inferred, "size": box[0] * box[1],
                           "givens": tuple(givens), "source": None, "form": "line", "empty": empty,
                           "metadata": {}}
        return puzzle

    def format_solution(self, solution: Sequence[int]) -> str:
        """One line in the input's own alphabet: characters for the line, grid and CPMpy
        forms, space-separated numbers for the numbers and list forms."""
        if self.form in ("line", "grid", "solo") and self.size <= len(DIGITS):
            try:  # the common case (results are read by the thousand) in one translation
                return bytes(solution).translate(value_chars(self.empty)).decode("ascii")
            except (TypeError, ValueError):  # not small numbers: written one by one
                pass
        return self._cells_text(solution)

    # -- geometry -------------------------------------------------------------------------

    @property
    def n_values(self) -> int:
        return self.size

    @property
    def shape(self) -> str:
        return _shape_text(*self.box)

    def structure(self) -> tuple:
        return ("sudoku", self.box)

    def header(self) -> dict[str, str]:
        return {"box": "x".join(map(str, self.box))}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "Sudoku":
        box = parse_box(fields.get("box", ""))
        if box is None:
            raise ParseError("the header gives no block shape (box: RxC)", Place(source, 1))
        return cls(box, givens, source=source, form="numbers" if box[0] * box[1] > len(DIGITS) else "line")

    def units(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every row, column and block with its cells: ``("row 1", cells)`` …"""
        return list(unit_table(*self.box))

    def _rules(self) -> Rules:
        return grid_rules(self.size, self.givens, self.units())

    # -- validation and checking -------------------------------------------------------------

    def _validate(self) -> None:
        n = self.size
        g = self.givens
        if min(g) < 0 or max(g) > n:
            cell, v = next((c, v) for c, v in enumerate(g) if not 0 <= v <= n)
            raise InvalidPuzzleError(f"r{cell // n + 1}c{cell % n + 1} has value {v}, "
                                     f"outside 1..{n}", Place(self.source), at=("cell", cell))
        if not self._has_repeats():
            return
        for name, cells in unit_table(*self.box):   # name the first broken unit, in order
            c = repeated(g, cells)
            if c is not None:
                raise InvalidPuzzleError(f"{name} has two {self.value_text(g[c])}s",
                                         Place(self.source), at=("cell", c))

    def _has_repeats(self) -> bool:
        """Whether some row, column or block holds a value twice (bitmasks, one pass over
        the givens)."""
        n = self.size
        r, c = self.box
        rows, cols, blocks = [0] * n, [0] * n, [0] * n
        for cell, v in enumerate(self.givens):
            if v:
                i, j = divmod(cell, n)
                b = (i // r) * r + j // c
                bit = 1 << v
                if (rows[i] | cols[j] | blocks[b]) & bit:
                    return True
                rows[i] |= bit
                cols[j] |= bit
                blocks[b] |= bit
        return False

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.size
        if len(solution) != n * n:
            return [f"expected {n * n} values, got {len(solution)}"]
        if self._plainly_right(solution):
            return []
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

    def _plainly_right(self, solution: Sequence[int]) -> bool:
        """The common case in a few C-level sweeps (results are checked by the thousand): every
        value an int of 1..n, every given kept, every unit holding all n values.  False sends
        ``check`` through the detailed pass that names each problem."""
        n = self.size
        values = set(range(1, n + 1))
        if not all(type(v) is int for v in solution) or not set(solution) <= values:
            return False
        if any(g and g != v for g, v in zip(self.givens, solution)):
            return False
        return all(len(set(unit(solution))) == n for unit in _unit_getters(*self.box))

    # -- text ---------------------------------------------------------------------------------

    def value_text(self, v: int) -> str:
        """A value as messages and grids show it: ``1-9``, ``A``-``Z`` up to 35, else the number."""
        return DIGITS[v - 1] if 1 <= v <= len(DIGITS) and self.size <= len(DIGITS) else str(v)

    def _char(self, v: int) -> str:
        if self.form == "cpmpy":
            return CPMPY_DIGITS[v - 1] if v else "."
        return DIGITS[v - 1] if v else self.empty

    def _uses_characters(self) -> bool:
        """One character per cell (line, grid, cpmpy forms), else numbers."""
        if self.form == "cpmpy":
            return self.size <= len(CPMPY_DIGITS)
        return self.form in ("line", "grid", "solo") and self.size <= len(DIGITS)

    def _cells_text(self, values: Sequence[int]) -> str:
        if self._uses_characters():
            return "".join(self._char(v) for v in values)
        return " ".join(str(v) for v in values)

    def write(self) -> str:
        """The puzzle in its input's own form (line → line, grid → grid, numbers → numbers,
        list → list, CPMpy → CPMpy)."""
        return self._write_values(self.givens)

    def write_solution(self, solution: Sequence[int]) -> str:
        """A solution written in the puzzle's own form (a grid for a grid)."""
        return self._write_values(solution)

    def _write_values(self, values: Sequence[int]) -> str:
        n = self.size
        rows = [values[i * n:(i + 1) * n] for i in range(n)]
        if self.form == "grid":
            return self.pretty(values, empty=self.empty)
        if self.form == "solo":   # Solo writes the block width first; our box is rows x columns
            return f"{self.box[1]}x{self.box[0]}:{grid_text(values)}"
        if self.form == "numbers_grid":
            width = len(str(n))
            return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in rows)
        if self.form == "list":
            return "[" + ", ".join("[" + ", ".join(map(str, row)) + "]" for row in rows) + "]"
        if self.form == "flat_list":
            return "[" + ", ".join(map(str, values)) + "]"
        if self.form == "cpmpy":
            r, c = self.box
            return "\n".join([f"# size={n} box={c}x{r}"] + ["".join(self._char(v) for v in row)
                                                             for row in rows])
        return self._cells_text(values)

    def parse_solution(self, text: str) -> Solution:
        """A solution as :meth:`format_solution` or :meth:`write_solution` writes it: one
        character per cell in the puzzle's alphabet, or numbers."""
        text = text.strip()
        n = self.size
        solo = SOLO_ID.match(text)
        if solo:
            return tuple(grid_values(solo.group(3), n, TextPlaces(text), solo.start(3), f"a {n}x{n} Sudoku"))
        if self.form == "cpmpy" and text.startswith("#"):
            text = text.split("\n", 1)[1] if "\n" in text else ""
        compact = re.sub(r"[\s|+\-]", "", text)
        if len(compact) == n * n and not re.search(r"[,\[\]]", text) and (
                self._uses_characters() or not re.search(r"\s", text)):
            alphabet = CPMPY_DIGITS if self.form == "cpmpy" else DIGITS
            values = []
            for ch in compact:
                if ch in "._" or (ch == "0" and self.form != "cpmpy"):
                    values.append(0)
                elif ch.upper() in alphabet:
                    values.append(alphabet.index(ch.upper()) + 1)
                else:
                    raise ParseError(f"unexpected character {ch!r} in a solution")
            return tuple(values)
        tokens = [t for t in re.split(r"[\s,\[\]|]+", text) if t and not re.fullmatch(r"[-+]+", t)]
        if not all(t.isdigit() for t in tokens):
            bad = next(t for t in tokens if not t.isdigit())
            raise ParseError(f"unexpected {bad!r} in a solution: expected {n * n} values")
        if len(tokens) != n * n:
            raise ParseError(f"a solution of a {n}x{n} Sudoku has {n * n} values; got {len(tokens)}")
        return tuple(int(t) for t in tokens)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """The puzzle drawn: bold block borders, givens in black, ``solution``'s values in blue."""
        figure = self.figure()
        figure.values(self.givens, solution)
        return figure.svg()

    def figure(self, kind: str | None = None) -> Figure:
        """The empty grid with its blocks' borders: what the kinds built on a Sudoku draw on."""
        figure = Figure(self.size, self.size, kind=kind or self.kind)
        figure.grid(block_map(*self.box))
        return figure

    def pretty(self, solution: Sequence[int] | None = None, empty: str = ".") -> str:
        """The grid with `` | `` between blocks and ``-+-`` rules between bands, aligned."""
        values = self.givens if solution is None else solution
        n = self.size
        r, c = self.box
        width = max(1, len(self.value_text(n)))
        group = c * width + (c - 1)          # the width of one block's cells in a row
        rule = "-+-".join("-" * group for _ in range(n // c))
        lines = []
        for i in range(n):
            if i and i % r == 0:
                lines.append(rule)
            groups = []
            for b in range(0, n, c):
                groups.append(" ".join((self.value_text(v) if v else empty).rjust(width)
                                       for v in values[i * n + b:i * n + b + c]))
            lines.append(" | ".join(groups))
        return "\n".join(lines)


# -- reading the forms ----------------------------------------------------------------------

CPMPY_DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0"
"""The alphabet of the scaled-sudoku-instances corpus that CPMpy 1.1 reads: there ``0`` is 36
and only ``.`` is empty."""
SIZES_HINT = "16, 36, 81, 144, 256, 625, …"


def _choose_box(n: int, box, places: TextPlaces, offset: int = 0) -> tuple[tuple[int, int], bool]:
    """The block shape: the one given (checked against N), else inferred."""
    box = parse_box(box)
    if box is None:
        try:
            return infer_box(n), True
        except UnsupportedShapeError as err:
            raise with_line(err, places, offset) from None
    if box[0] * box[1] != n:
        raise UnsupportedShapeError(f"block shape {box[0]}x{box[1]} does not divide a "
                                    f"{n}x{n} grid ({box[0]}*{box[1]} != {n})", places.line_place(offset))
    return box, False


def _build(values: list[int], n: int, box, places: TextPlaces, *, form: str, empty: str = ".",
           metadata: dict[str, str] | None = None, offset: int = 0, cells=()) -> Sudoku:
    """The Sudoku, its errors placed in the text (``cells``: each cell's offset, when known)."""
    if n > MAX_VALUES:
        raise UnsupportedShapeError(f"a {n}x{n} Sudoku has more than {MAX_VALUES} values; "
                                    f"supported: up to {MAX_VALUES}", places.line_place(offset))
    shape, inferred = _choose_box(n, box, places, offset)
    try:
        return Sudoku(shape, values, source=places.source, form=form, empty=empty,
                      box_inferred=inferred, metadata=metadata)
    except PuzzleError as err:
        raise with_line(err, places, offset, cell_spots(cells)) from None


SOLO_ID = re.compile(r"(\d+)x(\d+):([0-9a-z_]*)$")
def is_sudoku_string(first: str) -> bool:
    """A first field that is a Sudoku string (possibly of a wrong length): four or more
    characters that are not separated numbers."""
    return len(first) >= 4 and "," not in first and not first.startswith("[")


SOLO_CLAIM = re.compile(r"\s*\d+x\d+:")
"""Simon Tatham's Solo game id of a plain Sudoku, ``CxR:GRID`` (blocks C cells wide and R
high; the grid as :mod:`puzzlebench.models.solo` reads it), and what makes a line one."""


def parse_solo_sudoku(text: str, *, source: str | None = None) -> Sudoku:
    """A plain Solo id on one line, with data-line fields after it (``solution`` …)."""
    places = TextPlaces(text, source)
    (offset, body), metadata = game_id_line((0, text))
    found = SOLO_ID.match(body)
    if not found:
        bad = first_misfit(body, SOLO_CLAIM.match(body).end())
        raise ParseError(f"unexpected {body[bad]!r} in a Solo Sudoku id: its grid is digits, and letters "
                         "a-z for runs of empty cells", places.place(offset + bad))
    wide, high = int(found.group(1)), int(found.group(2))
    n = wide * high
    if not 1 <= n <= len(DIGITS):
        raise UnsupportedShapeError(f"a Solo id of {wide}x{high} blocks: supported up to {len(DIGITS)} values",
                                    places.place(offset + found.start(1)))
    values = grid_values(found.group(3), n, places, offset + found.start(3), f"a {n}x{n} Sudoku")
    try:
        return Sudoku((high, wide), values, source=source, form="solo", metadata=metadata)
    except PuzzleError as err:
        raise with_line(err, places, offset,
                        cell_spots(grid_spots(found.group(3), offset + found.start(3)))) from None


def _is_solution_text(field: str, length: int) -> bool:
    return len(field) == length and all(ch.upper() in DIGITS for ch in field)


def _length_error_column(length: int) -> int:
    """Where a line of a wrong length goes wrong, 0-based: just after its last character when
    it is shorter than the nearest N², else at its first extra character."""
    squares = [k * k for k in range(2, len(DIGITS) + 1)]
    nearest = min(squares, key=lambda sq: (abs(sq - length), sq))
    return length if length < nearest else nearest


def parse_sudoku_line(text: str, *, box: tuple[int, int] | str | None = None,
                      source: str | None = None, first_column: int = 1,
                      metadata: dict[str, str] | None = None) -> Sudoku:
    """A Sudoku written as one string of N² characters: ``.``, ``0`` or ``_`` empty,
    ``1-9`` then ``A`` = 10 … ``Z`` = 35 (case-insensitive).  Columns in errors are 1-based
    (``first_column`` is the column of the string's first character in its line)."""
    box = parse_box(box)
    length = len(text)
    n = math.isqrt(length)
    if n * n != length or n < 2:
        raise ParseError(f"a Sudoku line has N² characters ({SIZES_HINT}); got {length}",
                         Place(source, 1, first_column + _length_error_column(length)))
    if n > MAX_VALUES:
        raise UnsupportedShapeError(f"a {n}x{n} Sudoku has more than {MAX_VALUES} values; supported: up to "
                                    f"{MAX_VALUES}", Place(source, 1))
    if n > len(DIGITS):
        raise UnsupportedShapeError(f"a {n}x{n} Sudoku needs the numbers form (one character covers values "
                                    f"up to {len(DIGITS)}; numbers up to {MAX_VALUES})", Place(source, 1))
    values = [CHAR_VALUES.get(ch, -1) for ch in text]
    if min(values) < 0 or max(values) > n:
        for col, (ch, v) in enumerate(zip(text, values), start=first_column):
            if v < 0:
                raise ParseError(f"unexpected character {ch!r}: expected a value (1-9, A-Z) "
                                 f"or an empty cell (. 0 _)", Place(source, 1, col))
            if v > n:
                raise ParseError(f"value {ch!r} ({v}) is out of range for a {n}x{n} Sudoku "
                                 f"(1..{n})", Place(source, 1, col))
    empty_used = next((ch for ch in EMPTY_CHARS if ch in text), None) if 0 in values else None
    if empty_used and len([ch for ch in EMPTY_CHARS if ch in text]) > 1:
        empty_used = next(ch for ch in text if ch in EMPTY_CHARS)
    inferred = box is None
    shape = box or infer_box(n)
    if shape[0] * shape[1] != n:
        raise UnsupportedShapeError(f"block shape {shape[0]}x{shape[1]} does not divide a "
                                    f"{n}x{n} grid ({shape[0]}*{shape[1]} != {n})", Place(source, 1))
    try:
        return Sudoku(shape, values, source=source, form="line", empty=empty_used or ".",
                      box_inferred=inferred, metadata=metadata)
    except PuzzleError as err:
        raise with_line(err, TextPlaces(" " * (first_column - 1) + text, source), 0,
                        cell_spots(range(first_column - 1, first_column - 1 + length))) from None


@lru_cache(maxsize=None)
def value_chars(empty: str) -> bytes:
    """Byte translation of values to their characters: 0 → ``empty``, 1.. → ``DIGITS``, a
    value beyond them → ``?``."""
    return (empty + DIGITS).encode("ascii") + b"?" * (255 - len(DIGITS))


def _is_square(k: int) -> bool:
    return math.isqrt(k) ** 2 == k


def parse_sudoku_data_line(text: str, *, box=None, source: str | None = None) -> Sudoku:
    """A data-file line: the puzzle string, then optional whitespace-separated fields kept as
    metadata — field 2 as ``solution`` when it is a full grid of the same size, ``key=value``
    fields under their key, any other field as ``field<k>`` (k counts from 1)."""
    places = TextPlaces(text, source)
    fields = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
    if not fields:
        raise ParseError("empty input: no puzzle found", Place(source))
    start, puzzle = fields[0]
    whole = text.strip()
    if not _is_square(len(puzzle)) and _is_square(len(whole)) and len(whole) >= 16:
        # N² characters in all with a blank inside: a stray blank in the grid, not fields
        try:
            return parse_sudoku_line(whole, box=box, source=source, first_column=start + 1)
        except PuzzleError as err:
            raise with_line(err, places, start) from None
    metadata: dict[str, str] = {}
    for k, (_, field) in enumerate(fields[1:], start=2):
        key, eq, value = field.partition("=")
        if eq and key:
            metadata[key] = value
        elif k == 2 and _is_solution_text(field, len(puzzle)):
            metadata["solution"] = field
        else:
            metadata[f"field{k}"] = field
    try:
        return parse_sudoku_line(puzzle, box=box, source=source, first_column=start + 1,
                                 metadata=metadata)
    except PuzzleError as err:
        raise with_line(err, places, start) from None


def _number(token: str, offset: int, n: int, places: TextPlaces) -> int:
    if not token.isdigit():
        raise ParseError(f"unexpected {token!r}: expected a number (0 = empty)", places.place(offset))
    v = int(token)
    if v > n:
        raise ParseError(f"value {v} is out of range for a {n}x{n} Sudoku (1..{n}, 0 = empty)",
                         places.place(offset))
    return v


def parse_sudoku_numbers(text: str, *, box=None, source: str | None = None) -> Sudoku:
    """N² numbers on one line, separated by spaces or commas (0 = empty): any N up to 64; or
    2N² numbers, the puzzle and then its solution (as ``generate`` writes a grid beyond 35
    values, for ``check``: 2N² is never a square, so the two readings cannot meet)."""
    places = TextPlaces(text, source)
    tokens = [(m.start(), m.group()) for m in re.finditer(r"[^\s,]+", text)]
    n = math.isqrt(len(tokens))
    metadata = None
    if n * n != len(tokens) and len(tokens) % 2 == 0 and _is_square(len(tokens) // 2):
        n = math.isqrt(len(tokens) // 2)
        tokens, solution = tokens[:n * n], tokens[n * n:]
        metadata = {"solution": " ".join(t for _, t in solution)}
    if n * n != len(tokens) or n == 0:
        raise ParseError(f"a Sudoku in numbers has N² values ({SIZES_HINT}), or 2N² (the puzzle, then its "
                         f"solution); got {len(tokens)}", places.line_place(tokens[0][0] if tokens else 0))
    values = [_number(t, off, n, places) for off, t in tokens]
    return _build(values, n, box, places, form="numbers", empty="0", metadata=metadata,
                  cells=[off for off, _ in tokens])


SEPARATOR_LINE = re.compile(r"^[\s|]*[-+=][-+=\s|]*$")
CELL_TOKEN = re.compile(r"[^\s,|;]+")


def grid_rows(text: str) -> list[tuple[int, str]]:
    """The rows of a grid: content lines that are not ``---+---`` separators."""
    return [(off, line) for off, line in content_lines(text) if not SEPARATOR_LINE.match(line)]


def row_cells(offset: int, line: str, expected: int) -> tuple[list[tuple[int, str]], bool]:
    """The cells of one grid row as ``(offset, token)``, and whether they were read as
    separated tokens (else one character a cell).  Tokens are separated by spaces, commas,
    ``|`` or ``;``; a row of exactly ``expected`` tokens is a cell per token (so numbers may
    have several digits), any other row is read one character a cell (``53..7....``,
    ``53. .7. ...``)."""
    tokens = [(offset + m.start(), m.group()) for m in CELL_TOKEN.finditer(line)]
    if len(tokens) == expected:
        return tokens, True
    numbers = all(t.isdigit() for _, t in tokens)
    grouped_digits = numbers and all(len(t) > 1 for _, t in tokens) and \
        sum(len(t) for _, t in tokens) == expected
    if len(tokens) > 1 and numbers and not grouped_digits:
        return tokens, True
    return [(off + i, ch) for off, t in tokens for i, ch in enumerate(t)], False


def _cell_value(token: str, offset: int, n: int, places: TextPlaces) -> int:
    if token in ("0", ".", "_") or (token.isdigit() and int(token) == 0):
        return 0
    if token.isdigit():
        v = int(token)
    elif len(token) == 1 and token.upper() in DIGITS and n <= len(DIGITS):
        v = DIGITS.index(token.upper()) + 1
    else:
        what = "character" if len(token) == 1 else "cell"
        raise ParseError(f"unexpected {what} {token!r}: expected a value (1-9, A-Z or a number) "
                         "or an empty cell (. 0 _)", places.place(offset))
    if v > n:
        raise ParseError(f"value {token!r} ({v}) is out of range for a {n}x{n} Sudoku (1..{n})",
                         places.place(offset))
    return v


def parse_sudoku_grid(text: str, *, box=None, source: str | None = None) -> Sudoku:
    """N lines of N cells: characters (``53..7....``), characters or numbers separated by
    spaces, ``|`` between blocks and ``---+---`` lines between bands (skipped); ``.``, ``0``
    or ``_`` empty.  Written back as a grid (numbers without separators stay numbers)."""
    places = TextPlaces(text, source)
    rows = grid_rows(text)
    n = len(rows)
    if n == 0:
        raise ParseError("empty input: no puzzle found", Place(source))
    values: list[int] = []
    spots: list[int] = []
    all_numbers, empty = True, None
    for i, (offset, line) in enumerate(rows, start=1):
        cells, separated = row_cells(offset, line, n)
        if len(cells) != n:
            raise ParseError(f"grid row {i} has {len(cells)} cells; a grid of {n} rows needs "
                             f"{n} cells in every row", places.line_place(offset))
        all_numbers &= separated and all(t.isdigit() for _, t in cells)
        for off, token in cells:
            v = _cell_value(token, off, n, places)
            if not v and empty is None:
                empty = token if len(token) == 1 else "0"
            values.append(v)
            spots.append(off)
    lines = content_lines(text)
    plain = all_numbers and len(lines) == n and not any("|" in line for _, line in lines)
    form = "numbers_grid" if plain else "grid"
    return _build(values, n, box, places, form=form,
                  empty="0" if plain else (empty or "."), offset=rows[0][0], cells=spots)


def parse_sudoku_list(text: str, *, box=None, source: str | None = None) -> Sudoku:
    """The list form of a French backtracking course: ``[[1,0,0,0],[0,0,2,0],…]`` (a list of rows) or a flat list of
    N² numbers ``[3,0,4, 0,8,0, …]``; 0 = empty; may span lines."""
    places = TextPlaces(text, source)
    depth, rows, flat = 0, [], []
    row_starts: list[int] = []
    first = None
    for m in re.finditer(r"\d+|\S", text):
        tok, off = m.group(), m.start()
        if first is None:
            first = off
        if tok == "[":
            depth += 1
            if depth == 2:
                rows.append([])
                row_starts.append(off)
            elif depth > 2:
                raise ParseError("lists nest two deep at most: a list of rows of numbers",
                                 places.place(off))
        elif tok == "]":
            depth -= 1
            if depth < 0:
                raise ParseError("unbalanced brackets: ']' without '['", places.place(off))
        elif tok.isdigit():
            if depth == 2:
                rows[-1].append((off, tok))
            elif depth == 1:
                flat.append((off, tok))
            else:
                raise ParseError(f"unexpected {tok!r} outside the list", places.place(off))
        elif tok != ",":
            raise ParseError(f"unexpected character {tok!r}: expected numbers, ',', '[' or ']'",
                             places.place(off))
        if depth == 0 and first is not None and tok == "]":
            rest = text[off + 1:]
            if rest.strip():
                extra = off + 1 + len(rest) - len(rest.lstrip())
                raise ParseError(f"unexpected {rest.strip()[0]!r} after the list", places.place(extra))
            break
    if depth > 0:
        raise ParseError("unbalanced brackets: the list is not closed with ']'",
                         places.place(len(text.rstrip()) - 1 if text.strip() else 0))
    if rows and flat:
        raise ParseError("a list is either rows of numbers or numbers, not both",
                         places.place(flat[0][0]))
    if rows:
        n = len(rows)
        for i, row in enumerate(rows, start=1):
            if len(row) != n:
                off = row_starts[i - 1]
                raise ParseError(f"list row {i} has {len(row)} values; a list of {n} rows needs "
                                 f"{n} in every row", places.place(off))
        cells, form = [c for row in rows for c in row], "list"
    else:
        n = math.isqrt(len(flat))
        if n * n != len(flat) or n == 0:
            raise ParseError(f"a Sudoku in numbers has N² values ({SIZES_HINT}); got {len(flat)}",
                             places.place(first or 0))
        cells, form = flat, "flat_list"
    values = [_number(t, off, n, places) for off, t in cells]
    return _build(values, n, box, places, form=form, empty="0", offset=first or 0,
                  cells=[off for off, _ in cells])


def parse_sudoku_cpmpy(text: str, *, box=None, source: str | None = None) -> Sudoku:
    """The scaled-sudoku-instances format read by CPMpy 1.1: a header ``# size=N box=WxH``
    (W = block width in columns, H = height in rows, so our shape is H x W), then N rows of N
    characters from ``123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0`` (``0`` is 36), ``.`` empty."""
    places = TextPlaces(text, source)
    lines = content_lines(text)
    if not lines or not CPMPY_HEADER.match(lines[0][1].strip()):
        raise ParseError("expected a header '# size=N box=WxH'", places.place(lines[0][0] if lines else 0))
    head_off, head = lines[0]
    m = CPMPY_HEADER.match(head.strip())
    n = int(m.group(1))
    header_box = (int(m.group(3)), int(m.group(2))) if m.group(2) else None
    given = parse_box(box)
    if given and header_box and given != header_box:
        raise UnsupportedShapeError(f"block shape {given[0]}x{given[1]} given, but the header "
                                    f"says box={header_box[1]}x{header_box[0]} (width x height), "
                                    f"i.e. {header_box[0]}x{header_box[1]}", places.line_place(head_off))
    if n < 1 or n > len(CPMPY_DIGITS):
        raise UnsupportedShapeError(f"size={n}: this format holds sizes 1 to {len(CPMPY_DIGITS)}",
                                    places.line_place(head_off))
    rows = lines[1:]
    if len(rows) != n:
        raise ParseError(f"size={n}: expected {n} rows after the header, got {len(rows)}",
                         places.line_place(rows[n][0] if len(rows) > n else head_off))
    values = []
    for i, (offset, line) in enumerate(rows, start=1):
        lead = len(line) - len(line.lstrip())
        row = line.strip()
        if len(row) != n:
            raise ParseError(f"row {i} has {len(row)} characters; size={n} needs {n}",
                             places.line_place(offset))
        for j, ch in enumerate(row):
            off = offset + lead + j
            if ch == ".":
                values.append(0)
                continue
            v = CPMPY_DIGITS.find(ch.upper()) + 1
            if v == 0:
                raise ParseError(f"unexpected character {ch!r}: expected a value from "
                                 f"{CPMPY_DIGITS[:n]} or '.' (empty)", places.place(off))
            if v > n:
                raise ParseError(f"value {ch!r} ({v}) is out of range for a {n}x{n} Sudoku "
                                 f"(1..{n}; in this format 0 is 36 and '.' is empty)", places.place(off))
            values.append(v)
    spots = [offset + len(line) - len(line.lstrip()) + j for offset, line in rows for j in range(n)]
    return _build(values, n, given or header_box, places, form="cpmpy", empty=".", offset=head_off,
                  cells=spots)
