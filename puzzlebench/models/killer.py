"""Killer Sudoku: a Sudoku whose grid is also cut into cages, each with a sum; the values of a
cage are all different and add up to its sum.  Givens are optional (Tatham's killer puzzles
often have none).

Rules: those of a Sudoku of the same block shape (``models/sudoku.py``'s units), plus, for each
cage, an ``AllDifferent`` over its cells and a ``Cage`` (``+``) over them: the vocabulary's
term for a cage, which every engine generic over the vocabulary encodes.  Not a ``Sudoku``:
the Sudoku fast paths know nothing of cages.  Text forms (Tatham's Solo id, and a plain grid
with cage lines): :class:`KillerSudoku`.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError
from .base import Puzzle, Solution
from .cages import CageSpec, cage_name, cell_label, check_partition, claimed_plain, plain_text, read_plain
from .kenken import parse_cages_field, cages_field
from .solo import edge_regions, edges_text, grid_spots, grid_text, grid_values
from .sudoku import Sudoku, infer_box, unit_table
from .text import TextPlaces, cell_spots, content_lines, first_field, game_id_line, with_line
from .vocabulary import AllDifferent, Cage, Rules, cage_problem, grid_rules, repeated

SOLO_ID = re.compile(r"\s*(\d+)x(\d+)k:([^,]*),([^,]*),(.*?)\s*$")
SOLO_CLAIM = re.compile(r"\s*\d+x\d+k:")


class KillerSudoku(Puzzle):
    """A Killer Sudoku (see the module doc).

    Text forms:

    - ``tatham``: Simon Tatham's Solo game id ``CxRk:GRID,CAGES,SUMS`` (his solo.c writes and reads
      it): blocks ``C`` cells wide and ``R`` high, ``k`` for killer; ``GRID`` the givens as in
      every Solo id, ``CAGES`` the lines between cages as Solo's jigsaw blocks write them, ``SUMS``
      a grid in the same form as ``GRID`` holding each cage's sum in one of its cells (its first
      in reading order).  Read without ``--kind``.
    - ``plain``: the grid and a ``cage 15: r1c1 r1c2`` line per cage (``models/cages.py``); read
      without ``--kind`` when no cage has an operation."""
    kind = "killer"
    minizinc_parts = ("grid", "rows", "columns", "blocks", "cages", "cage_distinct")

    def __init__(self, box: tuple[int, int], givens: Sequence[int], cages: Sequence[tuple[Sequence[int], int]], *,
                 source: str | None = None, form: str = "plain", metadata: dict[str, str] | None = None):
        self.plain = Sudoku(box, givens, source=source, form="line")
        self.box, self.size = self.plain.box, self.plain.size
        self.n = self.size
        self.givens, self.source, self.form = self.plain.givens, source, form
        self.metadata = dict(metadata or {})
        self.cages: tuple[CageSpec, ...] = tuple((tuple(sorted(cells)), "+", int(total)) for cells, total in cages)
        check_partition(self.cages, self.n, source)
        for k, spec in enumerate(self.cages):
            problem = cage_problem(self._cage(k, spec), self.n, True)
            if problem:
                raise InvalidPuzzleError(problem, Place(source))
            cell = repeated(self.givens, spec[0])
            if cell is not None:
                raise InvalidPuzzleError(f"{cage_name(k, spec, self.n, False)} has two {self.givens[cell]}s",
                                         Place(source), at=("cell", cell))

    def _cage(self, k: int, spec: CageSpec) -> Cage:
        return Cage(spec[0], "+", spec[2], cage_name(k, spec, self.n, False))

    @property
    def n_values(self) -> int:
        return self.size

    @property
    def shape(self) -> str:
        return f"{self.plain.shape} killer"

    def _rules(self) -> Rules:
        base = grid_rules(self.size, self.givens, unit_table(*self.box))
        extra = []
        for k, spec in enumerate(self.cages):
            cage = self._cage(k, spec)
            if len(spec[0]) > 1:
                extra.append(AllDifferent(spec[0], cage.name))
            extra.append(cage)
        return Rules(base.n_cells, base.n_values, base.givens, base.constraints + tuple(extra), base.cell_names)

    def structure(self) -> tuple:
        return ("killer", self.box, self.cages)

    def header(self) -> dict[str, str]:
        return {"box": "x".join(map(str, self.box)), "cages": cages_field(self.cages)}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "KillerSudoku":
        box = Sudoku.from_header(fields, givens, source).box
        cages = parse_cages_field(fields.get("cages"), source)
        return cls(box, givens, [(cells, target) for cells, _, target in cages], source=source)

    # -- checking ------------------------------------------------------------------------

    def check(self, solution: Sequence[int]) -> list[str]:
        problems = self.plain.check(solution)
        if problems or len(solution) != self.size ** 2:
            return problems
        for k, (cells, _, total) in enumerate(self.cages):
            values = [solution[c] for c in cells]
            name = cage_name(k, (cells, "+", total), self.n, False)
            if len(set(values)) != len(values):
                problems.append(f"{name} repeats a value")
            if sum(values) != total:
                problems.append(f"{name}: its values add up to {sum(values)}")
        return problems

    # -- text ----------------------------------------------------------------------------

    def format_solution(self, solution: Sequence[int]) -> str:
        return self.plain.format_solution(solution)

    def parse_solution(self, text: str) -> Solution:
        """A solution as :meth:`write_solution` writes it (a Solo id of the full grid, whose
        cages must be the puzzle's) or in any of the plain Sudoku's forms."""
        found = SOLO_ID.match(text)
        if found is None:
            return self.plain.parse_solution(text)
        if self.form == "tatham" and text[found.start(4):].strip() != self.write().split(",", 1)[1]:
            raise ParseError("the solution's id has other cages or sums than the puzzle's")
        return tuple(grid_values(found.group(3), self.n, TextPlaces(text), found.start(3), f"a {self.n}x{self.n} killer"))

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """The Sudoku's drawing with each cage's dashed outline, its sum in its first cell."""
        figure = self.plain.figure(self.kind)
        for cells, _, total in self.cages:
            figure.cage(cells, str(total), data_sum=total)
        figure.values(self.givens, solution)
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        return plain_text(self.n, self.givens if solution is None else solution, self.cages, False)

    def write(self) -> str:
        return self.write_solution(self.givens)

    def write_solution(self, values: Sequence[int]) -> str:
        if self.form != "tatham":
            return plain_text(self.n, values, self.cages, False)
        n = self.n
        regions = [0] * (n * n)
        sums = [0] * (n * n)
        for k, (cells, _, total) in enumerate(self.cages):
            sums[cells[0]] = total
            for cell in cells:
                regions[cell] = k
        # Solo writes the block width first; our box is rows x columns
        return f"{self.box[1]}x{self.box[0]}k:{grid_text(values)},{edges_text(regions, n)},{grid_text(sums)}"

    @classmethod
    def spans_lines(cls, text: str) -> bool:
        """A plain form spans lines; a Solo id is one line (a file of them is one a line)."""
        lines = content_lines(text)
        return not (lines and SOLO_CLAIM.match(first_field(lines[0][1])))

    @classmethod
    def claims(cls, text: str) -> bool:
        lines = content_lines(text)
        if len(lines) == 1:
            return bool(SOLO_CLAIM.match(lines[0][1]))
        plain, with_op = claimed_plain(text)
        return plain and not with_op

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "KillerSudoku":
        lines = content_lines(text)
        if not lines:
            raise ParseError("empty input: no Killer Sudoku found", Place(source))
        if len(lines) == 1 and SOLO_CLAIM.match(lines[0][1]):
            return read_solo_killer(text, lines[0], source)
        n, givens, cages, where, cell_at = read_plain(text, source, "Killer Sudoku", False)
        for k, spec in enumerate(cages):
            problem = cage_problem(Cage(spec[0], "+", spec[2], cage_name(k, spec, n, False)), n, True)
            if problem:
                raise InvalidPuzzleError(problem, where[k])
        shape = _box(box) or infer_box(n)
        try:
            return cls(shape, givens, [(cells, total) for cells, _, total in cages], source=source, form="plain")
        except PuzzleError as err:
            raise with_line(err, TextPlaces(text, source), lines[0][0], cell_spots(cell_at)) from None


def _box(box) -> tuple[int, int] | None:
    if box is None:
        return None
    if isinstance(box, str):
        rows, _, cols = box.lower().partition("x")
        return int(rows), int(cols)
    return tuple(box)


def _number_places(text: str, start: int) -> dict[int, int]:
    """Where each number of a Solo grid stands in the text, by cell."""
    out, cell = {}, 0
    for m in re.finditer(r"[a-z]|\d+|_", text):
        if m.group().isalpha():
            cell += ord(m.group()) - ord("a") + 1
        elif m.group() != "_":
            out[cell] = start + m.start()
            cell += 1
    return out


def read_solo_killer(text: str, line: tuple[int, str], source: str | None) -> KillerSudoku:
    """A Solo killer id (see :class:`KillerSudoku`); errors name the column."""
    (offset, body), metadata = game_id_line(line)
    places = TextPlaces(text, source)
    found = SOLO_ID.match(body)
    if found is None:
        commas = body.count(",")
        at = body.index(":") + 1
        raise ParseError(f"a Solo killer id is CxRk:grid,cages,sums; this one has {commas + 1} "
                         f"part{'s' if commas else ''} after the colon", places.place(offset + at))
    wide, high = int(found.group(1)), int(found.group(2))
    n = wide * high
    if not 1 <= n <= 35:
        raise ParseError(f"a killer of {wide}x{high} blocks: supported up to 35 values", places.place(offset + found.start(1)))
    what = f"a {n}x{n} killer"
    givens = grid_values(found.group(3), n, places, offset + found.start(3), what)
    regions = edge_regions(found.group(4), n, places, offset + found.start(4), what="cage lines")
    sums = grid_values(found.group(5), n, places, offset + found.start(5), f"the sums of {what}", largest=n * n * n)
    sum_at = _number_places(found.group(5), offset + found.start(5))
    cages = []
    for r in sorted(set(regions)):
        cells = tuple(c for c in range(n * n) if regions[c] == r)
        totals = [sums[c] for c in cells if sums[c]]
        if len(totals) != 1:
            raise ParseError(f"the cage at {cell_label(cells[0], n)} has {len(totals)} sums; a cage has one",
                             places.place(offset + found.start(5)))
        if sums[cells[0]] == 0:
            raise ParseError(f"the sum of the cage at {cell_label(cells[0], n)} is not in its first cell",
                             places.place(offset + found.start(5)))
        problem = cage_problem(Cage(cells, "+", totals[0], cage_name(len(cages), (cells, "+", totals[0]), n, False)),
                               n, True)
        if problem:
            raise InvalidPuzzleError(problem, places.place(sum_at[cells[0]]))
        cages.append((cells, totals[0]))
    try:
        return KillerSudoku((high, wide), givens, cages, source=source, form="tatham", metadata=metadata)
    except PuzzleError as err:
        raise with_line(err, places, offset,
                        cell_spots(grid_spots(found.group(3), offset + found.start(3)))) from None
