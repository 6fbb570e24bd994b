"""Futoshiki: a Latin square (N x N, values 1..N, N <= 64) with some cells given and inequality
signs between orthogonal neighbours, the cell a sign's point faces holding the smaller value.
The puzzle of Tamaki Seto (Japan, 2001), printed by The Guardian from 2006; Simon Tatham's
Portable Puzzle Collection has it as "Unequal".

Rules: those of a Latin square plus one ``Less(smaller, larger)`` per sign, the vocabulary's
term for an inequality, so that every engine generic over the vocabulary encodes it once for
its paradigm.  Two text forms, read without ``--kind``: ``tatham``, Tatham's Unequal game id
as his unequal.c writes and reads it, and ``grid``, the puzzle as books print it (what
``show`` prints); both in full: :class:`Futoshiki`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError, UnsupportedShapeError
from .base import Puzzle, Solution
from .latin import latin_lines, latin_problems, line_repeat_cells, line_repeats, numbers_solution
from .svg import Figure
from .text import (TextPlaces, cell_spots, content_lines, first_field, game_id_line, row_length_problem,
                   with_line)
from .vocabulary import Less, Rules, grid_rules

MAX_N = 64
TATHAM_ID = re.compile(r"\s*(\d+)([a-z]*)\s*:(.*?)\s*$")
"""``N[params]:cells``; whether the cells are an Unequal grid is :meth:`Futoshiki.claims`'s
question (a Towers id ``5:/3/…`` shares the head)."""
FLAGS = {"U": (-1, 0), "R": (0, 1), "D": (1, 0), "L": (0, -1)}
"""Tatham's flags: this cell is greater than its neighbour in that direction (row, column step)."""
_GRID_LINE = re.compile(r"[0-9.<>^v \t]*")
_SIGN_LINE = re.compile(r"[\s^v]*[\^v][\s^v]*")
_TOKEN = re.compile(r"[^\s,]+")


class Futoshiki(Puzzle):
    """A Futoshiki puzzle (see the module doc).  Text forms:

    - ``tatham``: Tatham's Unequal game id ``N:CELLS``, as his unequal.c writes it: for every cell
      in reading order its number (``0`` empty), then the flags ``U``, ``R``, ``D``, ``L`` (in that
      order) saying that this cell is *greater* than its neighbour up, right, down or left, then
      ``,`` (after the last cell too).  His reader also takes a letter ``a``..``z`` before a number
      as a run of 1..26 empty cells, flags in any order, and no comma after the last cell; so
      does this one.  ``N`` may carry his difficulty (``5dk:``); ``5a:`` is his "adjacent" mode,
      whose marks say that two values differ by one: another puzzle, refused.  Read without
      ``--kind``.
    - ``grid``: the puzzle as books print it: rows of cells (a number, ``.`` or ``0`` for an empty
      cell; right-aligned in the width of N) with ``<`` or ``>`` between horizontal neighbours
      (a space where there is none), and between two rows a line of ``^`` and ``v`` under the
      cells whose vertical neighbours they order (``^``: the upper cell is the smaller; ``v``: the
      lower one), left out when it would be blank.  Read without ``--kind`` once the grid shows
      a sign; ``show`` prints it::"""
    kind = "futoshiki"
    minizinc_parts = ("grid", "rows", "columns", "less")

    def __init__(self, n: int, givens: Sequence[int], less: Sequence[tuple[int, int]] = (), *,
                 source: str | None = None, form: str = "tatham", params: str = "",
                 metadata: dict[str, str] | None = None):
        """``less``: the signs, as pairs ``(smaller cell, larger cell)`` of orthogonal
        neighbours (cells numbered row by row from 0).  ``params``: what stood between N and
        the colon of a Tatham id (his difficulty), written back with it."""
        if not 1 <= n <= MAX_N:
            raise UnsupportedShapeError(f"a Futoshiki needs 1 <= N <= {MAX_N}; got {n}", Place(source))
        if len(givens) != n * n:
            raise ParseError(f"a {n}x{n} Futoshiki has {n * n} cells; got {len(givens)}", Place(source))
        self.n = n
        self.givens = tuple(int(v) for v in givens)
        self.less = tuple(sorted({(int(a), int(b)) for a, b in less}))
        self.source, self.form, self.params = source, form, params
        self.metadata = dict(metadata or {})
        problem, at = self._invalid()
        if problem:
            raise InvalidPuzzleError(problem, Place(source), at=at)

    def _invalid(self) -> tuple[str | None, tuple | None]:
        """The first reason these givens and signs cannot be a Futoshiki, or None, and the cell
        it is at when it is one cell (for the reader to place)."""
        n = self.n
        for cell, v in enumerate(self.givens):
            if not 0 <= v <= n:
                return f"{self.cell_label(cell)}: {v} is not a value of 1..{n}", ("cell", cell)
        pairs = set(self.less)
        for a, b in self.less:
            if not (0 <= a < n * n and 0 <= b < n * n and _neighbours(a, b, n)):
                return f"a sign between cells {a} and {b}, which are not orthogonal neighbours of a {n}x{n} grid", None
            if (b, a) in pairs:
                return f"{self.cell_label(a)} < {self.cell_label(b)} and {self.cell_label(b)} < {self.cell_label(a)}", None
            broken = _broken_sign(a, b, self.givens, n)
            if broken:
                return broken, None
        repeats = line_repeat_cells(n, self.givens)
        return (repeats[0][0], ("cell", repeats[0][1])) if repeats else (None, None)

    def cell_label(self, cell: int) -> str:
        return _label(cell, self.n)


    @property
    def n_values(self) -> int:
        return self.n

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n}"

    def _rules(self) -> Rules:
        latin = _latin_rules(self.n)
        signs = tuple(Less(a, b, f"{self.cell_label(a)} < {self.cell_label(b)}") for a, b in self.less)
        return Rules(latin.n_cells, latin.n_values, self.givens, latin.constraints + signs, latin.cell_names)

    def structure(self) -> tuple:
        return ("futoshiki", self.n, self.less)

    def header(self) -> dict[str, str]:
        return {"less": " ".join(f"{a}<{b}" for a, b in self.less) or "-"}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "Futoshiki":
        text = fields.get("less")
        pairs = [] if text == "-" else [re.fullmatch(r"(\d{1,5})<(\d{1,5})", w) for w in (text or "").split()]
        if text is None or not all(pairs):
            raise ParseError("the header gives no signs (less: smaller<larger cell pairs, or -)", Place(source, 1))
        n = round(len(givens) ** 0.5)
        return cls(n, givens, [(int(m.group(1)), int(m.group(2))) for m in pairs], source=source)

    # -- checking ------------------------------------------------------------------------

    def _repeats(self, values: Sequence[int]) -> list[str]:
        return line_repeats(self.n, values)

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.n
        problems = latin_problems(n, self.givens, solution)
        if len(solution) != n * n or not all(isinstance(v, int) and 1 <= v <= n for v in solution):
            return problems   # no values to hold the signs to
        return problems + [why for a, b in self.less if (why := _broken_sign(a, b, solution, n))]

    # -- text ----------------------------------------------------------------------------

    def format_solution(self, solution: Sequence[int]) -> str:
        return " ".join(map(str, solution))

    def parse_solution(self, text: str) -> Solution:
        """A solution as :meth:`write_solution` writes it (an Unequal id of the full grid,
        whose signs must be the puzzle's) or as numbers."""
        text = text.strip()
        if _is_unequal_id(text):
            n, _, values, signs, _ = _parse_tatham((0, text), TextPlaces(text))
            if n != self.n or set(signs) != set(self.less):
                raise ParseError("the solution's id has other signs than the puzzle's")
            return tuple(values)
        return numbers_solution(text, self.n, "a Futoshiki")

    def write(self) -> str:
        return self.write_solution(self.givens)

    def write_solution(self, values: Sequence[int]) -> str:
        return self.tatham_id(values) if self.form == "tatham" else self.grid_text(values)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """Its grid with a sign on the edge between each ordered pair."""
        figure = Figure(self.n, self.n, kind=self.kind)
        figure.grid()
        figure.values(self.givens, solution)
        for smaller, larger in self.less:
            first, second = sorted((smaller, larger))
            figure.sign(first, second, "<" if first == smaller else ">")
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        return self.grid_text(self.givens if solution is None else solution)

    def tatham_id(self, values: Sequence[int]) -> str:
        """The values (0 = empty) and the signs as an Unequal game id, as unequal.c writes it."""
        n = self.n
        greater: dict[int, str] = {}
        for a, b in self.less:                 # b is greater than a: a flag of b's towards a
            step = (a // n - b // n, a % n - b % n)
            greater[b] = greater.get(b, "") + next(f for f, d in FLAGS.items() if d == step)
        cells = [f"{v}{''.join(sorted(greater.get(i, ''), key='URDL'.index))}," for i, v in enumerate(values)]
        return f"{n}{self.params}:{''.join(cells)}"

    def grid_text(self, values: Sequence[int]) -> str:
        """The values (0 = empty) and the signs as books print them (the ``grid`` form)."""
        n = self.n
        width = len(str(n))
        pairs = set(self.less)
        lines = []
        for r in range(n):
            row = []
            for c in range(n):
                cell = r * n + c
                row.append((str(values[cell]) if values[cell] else ".").rjust(width))
                if c + 1 < n:
                    row.append("<" if (cell, cell + 1) in pairs else ">" if (cell + 1, cell) in pairs else " ")
            lines.append("".join(row))
            if r + 1 < n:
                marks = []
                for c in range(n):
                    cell = r * n + c
                    mark = "^" if (cell, cell + n) in pairs else "v" if (cell + n, cell) in pairs else " "
                    marks.append(" " * (width - 1) + mark)
                signs = " ".join(marks).rstrip()
                if signs:
                    lines.append(signs)
        return "\n".join(lines)

    # -- reading -------------------------------------------------------------------------

    @classmethod
    def claims(cls, text: str) -> bool:
        """Whether a text is a Futoshiki whatever ``--kind`` says: Unequal ids, one a line
        (``N:`` then cells separated by commas: no ``/`` as in a Towers id, no ``_``), or a
        grid showing a sign (only cells, ``<``, ``>``, ``^`` and ``v``)."""
        lines = content_lines(text)
        if not lines:
            return False
        if all(_is_unequal_id(first_field(line)) for _, line in lines):
            return True
        if len(lines) < 2 or not any(re.search(r"[<>^]", line) or _SIGN_LINE.fullmatch(line) for _, line in lines):
            return False
        grid = [bool(_GRID_LINE.fullmatch(line)) for _, line in lines]
        if all(grid):
            return any(re.search(r"\d|\.", line) for _, line in lines)
        # a grid with a bad line (a mistyped sign line): a Futoshiki all the same when its first
        # line is a row and most lines are its lines, so that the error names the bad line
        # rather than "cannot tell the kind" at line 1
        return grid[0] and bool(re.search(r"\d|\.", lines[0][1])) and 2 * sum(grid) > len(grid)

    @classmethod
    def spans_lines(cls, text: str) -> bool:
        """A grid is one puzzle of several lines; Unequal ids are one a line."""
        lines = content_lines(text)
        return not (lines and _is_unequal_id(first_field(lines[0][1])))

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "Futoshiki":
        """A Futoshiki in either of its forms (see :class:`Futoshiki`); errors name the line
        and column."""
        lines = content_lines(text)
        if not lines:
            raise ParseError("empty input: no Futoshiki found", Place(source))
        places = TextPlaces(text, source)
        if len(lines) == 1 and TATHAM_ID.match(first_field(lines[0][1])):
            id_line, metadata = game_id_line(lines[0])
            puzzle = _read_tatham(id_line, places)
            puzzle.metadata.update(metadata)
            return puzzle
        return _read_grid(lines, places)


GRID_FORMS = ("its grid is N rows of N cells (a number, . empty) with < or > between neighbours and "
              "lines of ^ and v between rows, or give its Unequal game id (N:…)")


@lru_cache(maxsize=MAX_N)
def _latin_rules(n: int) -> Rules:
    """The Latin square part of every N x N Futoshiki, stated once per N (the same objects
    for every puzzle of the size, so that the engines' caches by shape hit at once)."""
    return grid_rules(n, (0,) * (n * n), latin_lines(n))


def _neighbours(a: int, b: int, n: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


def _is_unequal_id(line: str) -> bool:
    found = TATHAM_ID.match(line)
    return bool(found) and "/" not in found.group(3) and "_" not in found.group(3) and found.group(3).count(",") >= 2


def _label(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _broken_sign(smaller: int, larger: int, values: Sequence[int], n: int) -> str | None:
    """Why the values (0 = empty) break the sign ``smaller < larger``, or None."""
    a, b = values[smaller], values[larger]
    if a and b and not a < b:
        return f"{_label(smaller, n)} < {_label(larger, n)}, but they hold {a} and {b}"
    return None


def _check_signs(n: int, givens: list[int], signs: dict[tuple[int, int], int], places: TextPlaces) -> None:
    """Each sign against the givens and the other signs, placed at the sign (the later of
    two that contradict each other)."""
    for (a, b), at in signs.items():
        if (b, a) in signs:
            raise InvalidPuzzleError(f"{_label(a, n)} < {_label(b, n)} contradicts {_label(b, n)} < {_label(a, n)}",
                                     places.place(max(at, signs[b, a])))
        broken = _broken_sign(a, b, givens, n)
        if broken:
            raise InvalidPuzzleError(broken, places.place(at))


def _read_tatham(line: tuple[int, str], places: TextPlaces) -> Futoshiki:
    n, params, givens, signs, spots = _parse_tatham(line, places)
    _check_signs(n, givens, signs, places)
    try:
        return Futoshiki(n, givens, list(signs), source=places.source, form="tatham", params=params)
    except PuzzleError as err:
        raise with_line(err, places, line[0], cell_spots(spots)) from None


def _parse_tatham(line: tuple[int, str], places: TextPlaces
                  ) -> tuple[int, str, list[int], dict[tuple[int, int], int], list[int]]:
    """An Unequal id's size, parameters, values (0 = empty) and signs ``(smaller, larger)``
    with the offset of each flag, as written, not yet checked against each other; and the
    offset of each cell (an empty run's letter, a number)."""
    offset, text = line
    found = TATHAM_ID.match(text)
    n, params, body = int(found.group(1)), found.group(2), found.group(3)
    start = offset + found.start(3)
    if not 1 <= n <= MAX_N:
        raise UnsupportedShapeError(f"a Futoshiki of size {n}: supported 1 to {MAX_N}",
                                    places.place(offset + found.start(1)))
    if params.startswith("a"):
        raise ParseError(f"'{n}a:' is an id of Unequal's adjacent mode (marks join values that differ "
                         "by one): another puzzle than Futoshiki, not read here", places.place(offset + found.start(2)))
    if params and not re.fullmatch(r"d[a-z]", params):
        raise ParseError(f"unexpected {params!r} after the size: Unequal's ids say 'dX' (a difficulty) there",
                         places.place(offset + found.start(2)))
    what = f"a {n}x{n} Futoshiki"
    givens = [0] * (n * n)
    spots = [start] * (n * n)
    signs: dict[tuple[int, int], int] = {}   # (smaller, larger) -> offset of its flag
    cell, i = 0, 0
    while i < len(body):
        while i < len(body) and "a" <= body[i] <= "z":      # a run of empty cells
            cell += ord(body[i]) - ord("a") + 1
            if cell >= n * n:
                raise ParseError(f"{body[i]!r} (a run of {ord(body[i]) - ord('a') + 1} empty cells) runs past "
                                 f"the {n * n} cells of {what}", places.place(start + i))
            i += 1
        if cell >= n * n:
            raise ParseError(f"the id describes more than the {n * n} cells of {what}", places.place(start + i))
        number = re.match(r"\d+", body[i:])
        if not number:
            what_is_there = f"unexpected {body[i]!r}" if i < len(body) else "the id ends"
            raise ParseError(f"{what_is_there}: expected the number of {_label(cell, n)} (0 = empty)",
                             places.place(start + i))
        value = int(number.group())
        if value > n:
            raise ParseError(f"{number.group()} is not a value of {what}", places.place(start + i))
        givens[cell], spots[cell] = value, start + i
        i += number.end()
        while i < len(body) and body[i] in FLAGS:
            dr, dc = FLAGS[body[i]]
            r, c = divmod(cell, n)
            if not (0 <= r + dr < n and 0 <= c + dc < n):
                raise ParseError(f"flag {body[i]} of {_label(cell, n)} points off the grid", places.place(start + i))
            signs.setdefault(((r + dr) * n + c + dc, cell), start + i)
            i += 1
        cell += 1
        if i < len(body) and body[i] != ",":
            raise ParseError(f"unexpected {body[i]!r} after {_label(cell - 1, n)}: expected a flag U, R, D or L, or ','",
                             places.place(start + i))
        i += 1
    if cell < n * n:
        raise ParseError(f"the id describes {cell} cells; {what} has {n * n}", places.place(start + len(body)))
    return n, params, givens, signs, spots


def _read_grid(lines: list[tuple[int, str]], places: TextPlaces) -> Futoshiki:
    """Rows of cells with ``<``/``>`` between them and lines of ``^``/``v`` between rows."""
    rows: list[list[tuple[int, int, int]]] = []        # per row: (start, end, value) of its cells
    across: list[tuple[int, int, str, int]] = []      # (row, left cell's column, sign, offset)
    down: list[tuple[int, int, str, int]] = []        # (upper row, column, sign, offset)
    pending: tuple[int, str] | None = None            # a sign line waiting for the row below it
    for offset, line in lines:
        if _SIGN_LINE.fullmatch(line):
            if not rows or pending:
                raise ParseError("a line of ^ and v signs must stand between two rows of cells",
                                 places.line_place(offset))
            pending = (offset, line)
            continue
        if not re.search(r"[\d.<>]", line):   # no cell and no sign of a row: a sign line, mistyped
            bad = next(m for m in re.finditer(r"[^\s^v]", line))
            raise ParseError(f"unexpected {bad.group()!r} in a line of signs between two rows: only ^ "
                             "(the upper cell is the smaller) and v", places.place(offset + bad.start()))
        cells: list[tuple[int, int, int]] = []
        sign: tuple[str, int] | None = None
        for m in re.finditer(r"\d+|\S", line):
            token, at = m.group(), offset + m.start()
            if token in "<>":
                if not cells or sign:
                    raise ParseError(f"'{token}' must stand between two cells", places.place(at))
                sign = (token, at)
            elif token == "." or token.isdigit():
                if sign:
                    across.append((len(rows), len(cells) - 1, sign[0], sign[1]))
                    sign = None
                cells.append((m.start(), m.end(), 0 if token == "." else int(token)))
            else:
                raise ParseError(f"unexpected {token!r}: expected a number, '.', '<' or '>' (or a line of ^ and v)",
                                 places.place(at))
        if sign:
            raise ParseError(f"'{sign[0]}' must stand between two cells", places.place(sign[1]))
        if pending:
            down += _vertical_signs(rows[-1], len(rows) - 1, pending, places)
            pending = None
        rows.append(cells)
    if pending:
        raise ParseError("a line of ^ and v signs must stand between two rows of cells", places.line_place(pending[0]))
    n = len(rows)
    if not 1 <= n <= MAX_N:
        raise UnsupportedShapeError(f"a Futoshiki of {n} rows: supported 1 to {MAX_N}", places.line_place(lines[0][0]))
    cell_rows = [offset for offset, line in lines if not _SIGN_LINE.fullmatch(line)]
    for r, cells in enumerate(rows):
        if len(cells) != n:
            whole = lines[0][1].strip()
            if n == 1 and len(whole.split()) == 1:   # a whole grid on one line: a Sudoku's, most likely
                raise ParseError(f"a line of {len(whole)} characters is no Futoshiki: {GRID_FORMS}",
                                 places.line_place(cell_rows[r]))
            raise ParseError(row_length_problem("Futoshiki", n, len(cells), GRID_FORMS), places.line_place(cell_rows[r]))
        for start, _, value in cells:
            if value > n:
                raise ParseError(f"{value} is not a value of a {n}x{n} Futoshiki", places.place(cell_rows[r] + start))
    signs: dict[tuple[int, int], int] = {}
    for r, c, token, at in across:
        left, right = r * n + c, r * n + c + 1
        signs.setdefault((left, right) if token == "<" else (right, left), at)
    for r, c, token, at in down:
        upper, lower = r * n + c, (r + 1) * n + c
        signs.setdefault((upper, lower) if token == "^" else (lower, upper), at)
    givens = [value for cells in rows for _, _, value in cells]
    _check_signs(n, givens, signs, places)
    try:
        return Futoshiki(n, givens, list(signs), source=places.source, form="grid")
    except PuzzleError as err:
        spots = [cell_rows[r] + start for r, cells in enumerate(rows) for start, _, _ in cells]
        raise with_line(err, places, lines[0][0], cell_spots(spots)) from None


def _vertical_signs(above: list[tuple[int, int, int]], row: int, sign_line: tuple[int, str],
                    places: TextPlaces) -> list[tuple[int, int, str, int]]:
    """The ``^``/``v`` of a sign line, each under a cell of the row above: cell k owns the
    columns after the end of cell k-1 up to its own end (numbers are right-aligned)."""
    offset, line = sign_line
    out = []
    for m in re.finditer(r"[\^v]", line):
        column = m.start()
        owner = next((k for k, (_, end, _) in enumerate(above) if column < end), None)
        if owner is None:
            raise ParseError(f"'{m.group()}' stands under no cell of the row above", places.place(offset + column))
        out.append((row, owner, m.group(), offset + column))
    return out
