"""KenKen (Tetsuya Miyamoto's "calcudoku", 2004; Simon Tatham's Keen): an N x N Latin square
cut into cages, each with a target and an operation: the values of a ``+`` cage add up to its
target, those of a ``*`` cage multiply to it, and a ``-`` or ``/`` cage has two cells whose
difference or quotient (larger over smaller) is its target.  A one-cell cage is a given.  A
cage may repeat a value where its cells are in different rows and columns.

Rules: an ``AllDifferent`` per row and column (``grid_rules``) and a ``Cage`` per cage, the
vocabulary's term for a cage, which every engine generic over the vocabulary encodes.  Text
forms (Tatham's Keen id, and a plain grid with cage lines): :class:`KenKen`.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError
from .base import Puzzle, Solution
from .cages import CageSpec, cage_name, cell_label, check_partition, claimed_plain, plain_text, read_plain
from .solo import edge_regions, edges_text, first_misfit
from .sudoku import DIGITS
from .svg import Figure
from .text import TextPlaces, cell_spots, content_lines, first_field, game_id_line, with_line
from .vocabulary import Cage, Rules, cage_problem, grid_rules, repeated

KEEN_ID = re.compile(r"\s*(\d+):([^,]*),(.*?)\s*$")
KEEN_CLAIM = re.compile(r"\s*\d+:[^/,\s]*,")   # a Towers id has a '/' before any comma
KEEN_CUT = re.compile(r"\s*\d+:(?=[0-9a-z_]*[a-z_])[^/,\s]*$")
"""A Keen id cut after its cage lines (no ``,`` and clues, or the comma mistyped): cage-line
characters with a letter or ``_`` and no ``/``, which no Towers id of any size lacks (4N clue
slots), and no comma, which every Unequal id has."""
KEEN_LETTERS = {"a": "+", "s": "-", "m": "*", "d": "/"}
KEEN_OPS = {op: letter for letter, op in KEEN_LETTERS.items()}

OPS_SHOWN = {"+": "+", "-": "\u2212", "*": "\u00d7", "/": "\u00f7"}
"""An operation as puzzle books print it: a minus sign, a times sign, a division sign."""


class KenKen(Puzzle):
    """A KenKen puzzle (see the module doc).

    Text forms:

    - ``tatham``: Simon Tatham's Keen game id ``N:BLOCKS,CLUES`` (his keen.c writes and reads it):
      ``BLOCKS`` the lines between cages as in Solo's jigsaw ids, compressed with repeat counts
      (``models/solo.py``), then one clue per cage in the order of the cages' first cells, a letter
      ``a`` ``s`` ``m`` ``d`` (+ - x /) and the target.  Read without ``--kind``.
    - ``plain``: the grid and a ``cage 7+: r1c1 r1c2`` line per cage (``models/cages.py``); read
      without ``--kind`` when a cage has an operation."""
    kind = "kenken"
    minizinc_parts = ("grid", "rows", "columns", "cages")

    def __init__(self, n: int, cages: Sequence[CageSpec], givens: Sequence[int] | None = None, *,
                 source: str | None = None, form: str = "plain", metadata: dict[str, str] | None = None):
        if not 1 <= n <= len(DIGITS):
            raise ParseError(f"a KenKen of size {n}: supported 1 to {len(DIGITS)}", Place(source))
        self.n = n
        self.cages = tuple((tuple(sorted(cells)), op, int(target)) for cells, op, target in cages)
        self.source, self.form, self.metadata = source, form, dict(metadata or {})
        check_partition(self.cages, n, source)
        values = list(givens) if givens is not None else [0] * (n * n)
        if len(values) != n * n:
            raise ParseError(f"a {n}x{n} KenKen has {n * n} cells; got {len(values)} values", Place(source))
        for k, spec in enumerate(self.cages):
            problem = cage_problem(self._cage(k, spec), n, False)
            if problem:
                raise InvalidPuzzleError(problem, Place(source))
            cells, _, target = spec
            if len(cells) == 1:
                if values[cells[0]] not in (0, target):
                    raise InvalidPuzzleError(f"{cell_label(cells[0], n)} is given as {values[cells[0]]} "
                                             f"in a one-cell cage of {target}", Place(source), at=("cell", cells[0]))
                values[cells[0]] = target
        self.givens = tuple(values)
        for cell, v in enumerate(self.givens):
            if not 0 <= v <= n:
                raise InvalidPuzzleError(f"{cell_label(cell, n)}: {v} is not a value of 1..{n}", Place(source),
                                         at=("cell", cell))
        for name, cells in self._lines():
            cell = repeated(self.givens, cells)
            if cell is not None:
                raise InvalidPuzzleError(f"{name} has two {self.givens[cell]}s", Place(source), at=("cell", cell))

    def _cage(self, k: int, spec: CageSpec) -> Cage:
        cells, op, target = spec
        return Cage(cells, op, target, cage_name(k, spec, self.n))

    @property
    def n_values(self) -> int:
        return self.n

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n} KenKen"

    def _lines(self) -> list[tuple[str, tuple[int, ...]]]:
        n = self.n
        return ([(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
                + [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)])

    def _rules(self) -> Rules:
        base = grid_rules(self.n, self.givens, self._lines())
        cages = tuple(self._cage(k, spec) for k, spec in enumerate(self.cages))
        return Rules(base.n_cells, base.n_values, base.givens, base.constraints + cages, base.cell_names)

    def structure(self) -> tuple:
        return ("kenken", self.n, self.cages)

    def header(self) -> dict[str, str]:
        return {"cages": cages_field(self.cages)}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "KenKen":
        n = round(len(givens) ** 0.5)
        return cls(n, parse_cages_field(fields.get("cages"), source), givens, source=source)

    # -- checking ------------------------------------------------------------------------

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.n
        if len(solution) != n * n:
            return [f"expected {n * n} values, got {len(solution)}"]
        problems = [f"{cell_label(i, n)}: {v} is not a value of 1..{n}"
                    for i, v in enumerate(solution) if not (isinstance(v, int) and 1 <= v <= n)]
        if problems:
            return problems
        problems = [f"{cell_label(i, n)}: given {g}, solution has {solution[i]}"
                    for i, g in enumerate(self.givens) if g and solution[i] != g]
        problems += [f"{name} repeats a value" for name, cells in self._lines()
                     if len({solution[c] for c in cells}) != n]
        for k, (cells, op, target) in enumerate(self.cages):
            values = [solution[c] for c in cells]
            if len(values) == 1:
                made = values[0]
            elif op == "+":
                made = sum(values)
            elif op == "*":
                made = 1
                for v in values:
                    made *= v
            elif op == "-":
                made = abs(values[0] - values[1])
            else:
                high, low = max(values), min(values)
                made = high // low if high % low == 0 else None
            if made != target:
                problems.append(f"{cage_name(k, (cells, op, target), n)}: "
                                f"{' '.join(map(str, values))} make {'no whole number' if made is None else made}")
        return problems

    # -- text ----------------------------------------------------------------------------

    def format_solution(self, solution: Sequence[int]) -> str:
        """N² digits; a value no digit writes (0, or a wrong answer decoded from a solver's
        output) makes the line numbers, space-separated, so that it is shown as it came."""
        if all(isinstance(v, int) and 1 <= v <= len(DIGITS) for v in solution):
            return "".join(DIGITS[v - 1] for v in solution)
        return " ".join(map(str, solution))

    def parse_solution(self, text: str) -> Solution:
        text = text.strip()
        if len(text) != self.n * self.n or any(ch.upper() not in DIGITS[:self.n] for ch in text):
            raise ParseError(f"a KenKen solution is {self.n * self.n} characters of 1..{DIGITS[self.n - 1]}")
        return tuple(DIGITS.index(ch.upper()) + 1 for ch in text)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """Its cages by bold borders, each with its target and operation in its first cell
        (a one-cell cage: its target alone)."""
        figure = Figure(self.n, self.n, kind=self.kind)
        figure.grid(_regions(self.cages, self.n))
        for cells, op, target in self.cages:
            op = op if len(cells) > 1 else None
            figure.cage(cells, f"{target}{OPS_SHOWN[op] if op else ''}", outline=False, data_target=target, data_op=op)
        figure.values(self.givens, solution)
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        return plain_text(self.n, self.givens if solution is None else solution, self.cages, True)

    def write(self) -> str:
        if self.form != "tatham":
            return plain_text(self.n, self.givens, self.cages, True)
        clues = "".join(f"{KEEN_OPS[op]}{target}" for _, op, target in sorted(self.cages))
        return f"{self.n}:{edges_text(_regions(self.cages, self.n), self.n, repeats=True)},{clues}"

    def write_solution(self, values: Sequence[int]) -> str:
        """In the plain form's grid, or, for a Keen id (which holds no values), as
        :meth:`format_solution` writes it."""
        if self.form != "tatham":
            return plain_text(self.n, values, self.cages, True)
        return self.format_solution(values)

    @classmethod
    def spans_lines(cls, text: str) -> bool:
        """A plain form spans lines; a Keen id is one line (a file of them is one a line)."""
        lines = content_lines(text)
        return not (lines and _is_keen_id(first_field(lines[0][1])))

    @classmethod
    def claims(cls, text: str) -> bool:
        lines = content_lines(text)
        if len(lines) == 1:
            return _is_keen_id(first_field(lines[0][1]))
        plain, with_op = claimed_plain(text)
        return plain and with_op

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "KenKen":
        lines = content_lines(text)
        if not lines:
            raise ParseError("empty input: no KenKen found", Place(source))
        if len(lines) == 1 and KEEN_CUT.match(first_field(lines[0][1])):
            _refuse_cut_id(text, lines[0], source)
        if len(lines) > 1 or not KEEN_ID.match(first_field(lines[0][1])):
            n, givens, cages, where, cell_at = read_plain(text, source, "KenKen", True)
            _check_cages(cages, n, where)
            try:
                return cls(n, cages, givens, source=source, form="plain")
            except PuzzleError as err:
                raise with_line(err, TextPlaces(text, source), lines[0][0], cell_spots(cell_at)) from None
        return read_keen(text, lines[0], source)


def _is_keen_id(field: str) -> bool:
    """Whether a line's first field is a Keen id, or one cut after its cage lines (an error
    of its own kind rather than a Towers id's clue count)."""
    return bool(KEEN_CLAIM.match(field) or KEEN_CUT.match(field))


def _refuse_cut_id(text: str, line: tuple[int, str], source: str | None) -> None:
    """A Keen id without its ``,`` and clues: an error at its first character that is not a
    cage line's, or at its end."""
    (offset, body), _ = game_id_line(line)
    bad = first_misfit(body, body.index(":") + 1)
    place = TextPlaces(text, source).place(offset + bad)
    if bad < len(body):
        raise ParseError(f"unexpected {body[bad]!r} in a Keen id: its cage lines are digits, letters "
                         "a-z and '_', then ',' and the clues", place)
    raise ParseError("a Keen id is N:CAGES,CLUES; this one ends after its cage lines, with no ',' "
                     "and clues", place)


def _regions(cages: Sequence[CageSpec], n: int) -> list[int]:
    regions = [0] * (n * n)
    for k, (cells, _, _) in enumerate(cages):
        for cell in cells:
            regions[cell] = k
    return regions


def _check_cages(cages: Sequence[CageSpec], n: int, where: Sequence[Place]) -> None:
    """A cage no filling can reach, or a - or / cage of other than two cells, refused at its
    place in the text."""
    for k, spec in enumerate(cages):
        problem = cage_problem(Cage(spec[0], spec[1], spec[2], cage_name(k, spec, n)), n, False)
        if problem:
            raise InvalidPuzzleError(problem, where[k])


def read_keen(text: str, line: tuple[int, str], source: str | None) -> KenKen:
    """A Keen game id (see :class:`KenKen`); errors name the column."""
    (offset, body), metadata = game_id_line(line)
    places = TextPlaces(text, source)
    found = KEEN_ID.match(body)
    n = int(found.group(1))
    if not 1 <= n <= len(DIGITS):
        raise ParseError(f"a KenKen of size {n}: supported 1 to {len(DIGITS)}", places.place(offset + found.start(1)))
    regions = edge_regions(found.group(2), n, places, offset + found.start(2), repeats=True, what="cage lines")
    firsts = sorted(set(regions))
    cells_of = {r: tuple(c for c in range(n * n) if regions[c] == r) for r in firsts}
    clue_text, start = found.group(3), offset + found.start(3)
    cages, where = [], []
    at = 0
    for r in firsts:
        m = re.compile(r"([a-z])(\d+)").match(clue_text, at)
        if m is None:
            if at >= len(clue_text):
                raise ParseError(f"{len(cages)} clues for {len(firsts)} cages", places.place(start + at))
            raise ParseError(f"unexpected {clue_text[at]!r}: a clue is a letter a s m d (+ - x /) and a number",
                             places.place(start + at))
        if m.group(1) not in KEEN_LETTERS:
            raise ParseError(f"unknown clue letter {m.group(1)!r}: a s m d (+ - x /)", places.place(start + at))
        cages.append((cells_of[r], KEEN_LETTERS[m.group(1)], int(m.group(2))))
        where.append(places.place(start + at))
        at = m.end()
    if at < len(clue_text):
        raise ParseError(f"more clues than the {len(firsts)} cages", places.place(start + at))
    _check_cages(cages, n, where)
    try:
        return KenKen(n, cages, source=source, form="tatham", metadata=metadata)
    except PuzzleError as err:
        raise err.located(source, places.place(offset).line) from None


def cages_field(cages: Sequence[CageSpec]) -> str:
    """Cages as an exported header writes them: ``7+:0,1 2/:4,8`` (cells from 0)."""
    return " ".join(f"{target}{op}:{','.join(map(str, cells))}" for cells, op, target in cages)


def parse_cages_field(text: str | None, source: str | None) -> list[CageSpec]:
    cages = []
    for item in (text or "").split():
        m = re.fullmatch(r"(\d+)([-+*/]):(\d+(?:,\d+)*)", item)
        if m is None:
            raise ParseError(f"the header's cage {item!r} is not TARGETOP:cell,cell…", Place(source, 1))
        cages.append((tuple(int(c) for c in m.group(3).split(",")), m.group(2), int(m.group(1))))
    if not cages:
        raise ParseError("the header gives no cages (cages: TARGETOP:cell,cell… per cage)", Place(source, 1))
    return cages
