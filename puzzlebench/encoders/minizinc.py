"""Rules in the shared vocabulary as MiniZinc: a parametric model per kind (``KIND.mzn``), the
data of one puzzle (a ``.dzn``), and the single-file form (the model and its data in one
``.mzn``), as MiniZinc users write models (Nethercote, Stuckey et al., "MiniZinc: Towards a
Standard CP Modelling Language", CP 2007).

A kind names the parts its model is made of (``Puzzle.minizinc_parts``, :func:`parts_of`);
each part is the MiniZinc text it adds and the data it reads from the rules, *claiming* the
vocabulary constraints it states by their content.  A constraint no part claims is refused,
and so is a part whose constraints the rules lack, so that a model states exactly the
puzzle's rules (:mod:`tests.test_interop` holds its solutions to the in-process engines').
No auxiliary variable: ``minizinc --all-solutions`` counts the puzzle's solutions, printed as
``c = [v1, v2, …];`` and read back by :func:`read_answer`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..errors import ParseError, Place, UsageError
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules,
                                 Visibility, candidate)
from .dimacs import file_lines
from .interop import ModelText, cannot_express, header_lines, read_header

TARGET = "minizinc"
MODEL_MAGIC = "% puzzlebench's MiniZinc model of "   # a kind's model's first words: no puzzle's header
# all_different_int declared by the model, without a body: MiniZinc passes it to the solver as
# the FlatZinc constraint all_different_int, Gecode's own propagator.  Debian's Gecode 6.2.0
# library predates MiniZinc 2.5's fzn_ names, so MiniZinc's alldifferent reaches it decomposed
# into pairwise disequalities (16x16 Sudokus: 0.25 to 14 s against 0.05 s), and including
# "all_different_int.mzn" is deprecated since MiniZinc 2.6 (a warning on every call).
# ":: domain" asks for domain consistency, the propagation strength every Sudoku solver relies on.
DECLARATIONS = "\n".join([
    "% all-different on integers: the FlatZinc constraint all_different_int (Gecode's propagator)",
    "predicate all_different_int(array[int] of var int: x);",
])
OUTPUT_LINE = re.compile(r"^c = \[([0-9,\s]*)\];$")
CAGE_OPS = {"+": "ADD", "-": "SUB", "*": "MUL", "/": "DIV"}


class Claims:
    """A puzzle's vocabulary constraints, each found by its content and taken once by the part
    that states it."""

    def __init__(self, puzzle, target: str):
        self.puzzle, self.target = puzzle, target
        self.rules: Rules = puzzle.rules
        self.left: dict[tuple, list] = {}
        for con in self.rules.constraints:
            self.left.setdefault(self.key(con), []).append(con)

    @staticmethod
    def key(con) -> tuple:
        if isinstance(con, AllDifferent):
            return AllDifferent, frozenset(con.cells)
        if isinstance(con, (ExactlyOne, AtMostOne)):
            return type(con), frozenset(con.candidates)
        if isinstance(con, Visibility):
            return Visibility, con.cells
        if isinstance(con, Less):
            return Less, con.smaller, con.larger
        return type(con), id(con)

    def take(self, *key):
        """The constraint of that content, taken; ``None`` when the rules hold none (left)."""
        found = self.left.get(key)
        return found.pop() if found else None

    def need(self, part: str, what: str, *key):
        """As :meth:`take`, refusing rules that lack a constraint the part states."""
        con = self.take(*key)
        if con is None:
            raise UsageError(f"export target {self.target!r} cannot express this {self.puzzle.kind} puzzle: "
                             f"the model's part {part!r} states {what}, which its rules lack")
        return con

    def of_type(self, kind: type) -> list:
        """Every constraint of that type not yet taken, in the rules' order, taken."""
        out = []
        for con in self.rules.constraints:
            if isinstance(con, kind):
                left = self.left.get(self.key(con), [])
                for k, x in enumerate(left):
                    if x is con:
                        out.append(left.pop(k))
                        break
        return out

    def finish(self) -> None:
        """Refuse the first rule no part took."""
        for con in self.rules.constraints:
            if any(x is con for x in self.left.get(self.key(con), ())):
                raise UsageError(cannot_express(self.target, self.puzzle.kind, con))


def _side(n: int) -> int:
    return round(n ** 0.5)


def _grid_of(claims: Claims) -> int:
    """N of an N x N grid of values 1..N, each cell's one-of-N claimed (its domain says it)."""
    rules = claims.rules
    n = rules.n_values
    if rules.n_cells != n * n:
        raise UsageError(f"export target {claims.target!r} cannot express this {claims.puzzle.kind} puzzle: "
                         f"{rules.n_cells} cells of values 1..{n} are no {n}x{n} grid")
    _cells_own(claims)
    return n


def _cells_own(claims: Claims) -> None:
    n = claims.rules.n_values
    for cell in range(claims.rules.n_cells):
        claims.need("grid", f"cell {cell}'s one value", ExactlyOne,
                    frozenset(candidate(cell, v, n) for v in range(1, n + 1)))


def _array2d(rows: list[list[int]], width: int) -> str:
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    return "[| " + " | ".join(", ".join(map(str, r)) for r in rows) + " |]"


def _grid_data(values: list[int], n: int) -> str:
    return _array2d([values[i * n:(i + 1) * n] for i in range(n)], n)


def _list(values) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


# -- the parts: the MiniZinc text each adds to a kind's model, and the data it reads ---------

@dataclass(frozen=True)
class Part:
    name: str
    text: str
    data: Callable[[Claims], list[str]]
    """Reads the part's data from the puzzle's rules (``name = value;`` lines of a ``.dzn``),
    claiming the constraints it states."""


def _grid(claims: Claims) -> list[str]:
    n = _grid_of(claims)
    return [f"N = {n};", f"givens = {_grid_data(list(claims.rules.givens), n)};"]


def _queens(claims: Claims) -> list[str]:
    rules = claims.rules
    n = rules.n_values
    if rules.n_cells != n:
        raise UsageError(f"export target {claims.target!r} cannot express this {claims.puzzle.kind} puzzle: "
                         f"{rules.n_cells} rows of {n} columns is no N-Queens board")
    _cells_own(claims)
    claims.need("queens", "the columns all different", AllDifferent, frozenset(range(n)))
    for sign, name in ((1, "diagonal"), (-1, "anti-diagonal")):
        for key in range(-2 * n, 2 * n + 1):
            squares = frozenset(candidate(r, v, n) for r in range(n) for v in range(1, n + 1) if v + sign * r == key)
            if len(squares) > 1:
                claims.need("queens", f"the {name} {sorted(squares)} at most one queen", AtMostOne, squares)
    return [f"N = {n};", f"givens = {_list(rules.givens)};"]


def _units(part: str, cells_of: Callable[[int], list[list[int]]]) -> Callable[[Claims], list[str]]:
    """The data of an ``AllDifferent`` family computed from N alone: none, each unit claimed."""
    def data(claims: Claims) -> list[str]:
        n = _side(claims.rules.n_cells)
        for unit in cells_of(n):
            claims.need(part, f"cells {unit} all different", AllDifferent, frozenset(unit))
        return []
    return data


def _blocks(claims: Claims) -> list[str]:
    n = _side(claims.rules.n_cells)
    for rows in range(1, n + 1):
        if n % rows:
            continue
        cols = n // rows
        units = [frozenset((br * rows + i) * n + bc * cols + j for i in range(rows) for j in range(cols))
                 for br in range(cols) for bc in range(rows)]
        if all(claims.left.get((AllDifferent, u)) for u in units):
            for u in units:
                claims.take(AllDifferent, u)
            return [f"block_rows = {rows};", f"block_cols = {cols};"]
    raise UsageError(f"export target {claims.target!r} cannot express this {claims.puzzle.kind} puzzle: "
                     f"the model's part 'blocks' states blocks of R x C cells, which its rules lack")


def _regions(claims: Claims) -> list[str]:
    n = _side(claims.rules.n_cells)
    region = [0] * (n * n)
    groups = [con for con in claims.of_type(AllDifferent) if len(con.cells) == n]
    for k, con in enumerate(groups, start=1):
        for cell in con.cells:
            if region[cell]:
                raise UsageError(f"export target {claims.target!r} cannot express this {claims.puzzle.kind} "
                                 f"puzzle: its regions overlap ({con.name})")
            region[cell] = k
    if len(groups) != n or not all(region):
        raise UsageError(f"export target {claims.target!r} cannot express this {claims.puzzle.kind} puzzle: "
                         f"the model's part 'regions' states {n} regions covering the grid, which its rules lack")
    return [f"region = {_grid_data(region, n)};"]


def _cages(claims: Claims) -> list[str]:
    n = _side(claims.rules.n_cells)
    cage = [0] * (n * n)
    cages = claims.of_type(Cage)
    for k, con in enumerate(cages, start=1):
        for cell in con.cells:
            cage[cell] = k
    return [f"n_cages = {len(cages)};", f"cage = {_grid_data(cage, n)};",
            f"cage_op = [{', '.join(CAGE_OPS[con.op] for con in cages)}];",
            f"cage_target = {_list(con.target for con in cages)};"]


def _cage_distinct(claims: Claims) -> list[str]:
    for con in claims.rules.of_type(Cage):
        if len(con.cells) > 1:
            claims.need("cage_distinct", f"{con.name}'s cells all different", AllDifferent, frozenset(con.cells))
        else:
            claims.take(AllDifferent, frozenset(con.cells))
    return []


def _less(claims: Claims) -> list[str]:
    n = _side(claims.rules.n_cells)
    signs = claims.of_type(Less)
    rows = [[a // n + 1, a % n + 1, b // n + 1, b % n + 1] for a, b in ((s.smaller, s.larger) for s in signs)]
    return [f"n_less = {len(rows)};", f"less = {_array2d(rows, 4)};"]


def _visibility(claims: Claims) -> list[str]:
    n = _side(claims.rules.n_cells)
    lines = {   # a side: its lines, each listed from the viewer outwards
        "clue_top": [tuple(i * n + j for i in range(n)) for j in range(n)],
        "clue_bottom": [tuple(i * n + j for i in reversed(range(n))) for j in range(n)],
        "clue_left": [tuple(i * n + j for j in range(n)) for i in range(n)],
        "clue_right": [tuple(i * n + j for j in reversed(range(n))) for i in range(n)],
    }
    out = []
    for side, cells in lines.items():
        clues = []
        for line in cells:
            con = claims.take(Visibility, line)
            clues.append(con.clue if con is not None else 0)
        out.append(f"{side} = {_list(clues)};")
    return out


def _cells(expression: str, where: str) -> str:
    return f"[{expression} | {where}]"


def _all_different(over: str, cells: str) -> str:
    """The one statement of an ``AllDifferent`` in every part: ``cells`` an array expression
    (a comprehension), ``over`` what it ranges over (``""``: a single one)."""
    body = f"all_different_int({cells}) :: domain"
    return f"constraint forall({over})({body});" if over else f"constraint {body};"


GRID = "\n".join([
    "% the grid: N x N cells c[i, j] of values 1..N; givens[i, j] > 0 is a given value",
    "int: N;",
    "array[1..N, 1..N] of 0..N: givens;",
    "array[1..N, 1..N] of var 1..N: c;",
    "constraint forall(i, j in 1..N where givens[i, j] > 0)(c[i, j] = givens[i, j]);",
])
QUEENS = "\n".join([
    "% N queens on an N x N board, one a row: c[i] is the column of row i's queen, givens[i] > 0",
    "% a queen placed there; no two in a column or on a diagonal",
    "int: N;",
    "array[1..N] of 0..N: givens;",
    "array[1..N] of var 1..N: c;",
    "constraint forall(i in 1..N where givens[i] > 0)(c[i] = givens[i]);",
    _all_different("", "c"),
    _all_different("", _cells("c[i] + i", "i in 1..N")),
    _all_different("", _cells("c[i] - i", "i in 1..N")),
])
VISIBILITY = "\n".join([
    "% the clues: towers seen from the top of each column, its bottom, the left of each row, its",
    "% right (0: no clue); a tower is seen when it is taller than every one before it",
    "array[1..N] of 0..N: clue_top;",
    "array[1..N] of 0..N: clue_bottom;",
    "array[1..N] of 0..N: clue_left;",
    "array[1..N] of 0..N: clue_right;",
    "function var int: seen(array[int] of var int: line) =",
    "    1 + sum(k in 2..length(line))(bool2int(line[k] > max([line[m] | m in 1..k - 1])));",
    # a column's two clues together, then a row's: the order of the rules, to which Gecode's
    # default search is sensitive (a 7x7 full-clue puzzle: 1,374 nodes in this order, 236,336
    # with every top clue first)
    "constraint forall(j in 1..N)(",
    "    (clue_top[j] = 0 \\/ seen([c[i, j] | i in 1..N]) = clue_top[j]) /\\",
    "    (clue_bottom[j] = 0 \\/ seen([c[N + 1 - i, j] | i in 1..N]) = clue_bottom[j]));",
    "constraint forall(i in 1..N)(",
    "    (clue_left[i] = 0 \\/ seen([c[i, j] | j in 1..N]) = clue_left[i]) /\\",
    "    (clue_right[i] = 0 \\/ seen([c[i, N + 1 - j] | j in 1..N]) = clue_right[i]));",
])
CAGES = "\n".join([
    "% the cages: cage[i, j] > 0 is the cage of cell (i, j); a cage's cells combined by its",
    "% operation make its target (SUB and DIV: two cells, the larger minus or over the smaller;",
    "% one cell: its value)",
    "enum OPERATION = {ADD, SUB, MUL, DIV};",
    "int: n_cages;",
    "array[1..N, 1..N] of 0..n_cages: cage;",
    "array[1..n_cages] of OPERATION: cage_op;",
    "array[1..n_cages] of int: cage_target;",
    "constraint forall(k in 1..n_cages)(",
    "    let { array[int] of var 1..N: v = [c[i, j] | i, j in 1..N where cage[i, j] = k] } in",
    "    if length(v) = 1 then v[1] = cage_target[k]",
    "    elseif cage_op[k] = ADD then sum(v) = cage_target[k]",
    "    elseif cage_op[k] = MUL then product(v) = cage_target[k]",
    "    elseif cage_op[k] = SUB then max(v) - min(v) = cage_target[k]",
    "    else max(v) = cage_target[k] * min(v) endif);",
])

PARTS: dict[str, Part] = {p.name: p for p in (
    Part("grid", GRID, _grid),
    Part("queens", QUEENS, _queens),
    Part("rows", "% every row holds every value once\n"
         + _all_different("i in 1..N", _cells("c[i, j]", "j in 1..N")),
         _units("rows", lambda n: [[i * n + j for j in range(n)] for i in range(n)])),
    Part("columns", "% every column holds every value once\n"
         + _all_different("j in 1..N", _cells("c[i, j]", "i in 1..N")),
         _units("columns", lambda n: [[i * n + j for i in range(n)] for j in range(n)])),
    Part("blocks", "\n".join([
        "% every block of block_rows x block_cols cells holds every value once",
        "int: block_rows;",
        "int: block_cols;",
        'constraint assert(block_rows * block_cols = N, "a block has N cells");',
        _all_different("p in 0..N div block_rows - 1, q in 0..N div block_cols - 1",
                       _cells("c[p * block_rows + i, q * block_cols + j]", "i in 1..block_rows, j in 1..block_cols")),
    ]), _blocks),
    Part("diagonals", "% each of the two diagonals holds every value once\n"
         + _all_different("", _cells("c[i, i]", "i in 1..N")) + "\n"
         + _all_different("", _cells("c[i, N + 1 - i]", "i in 1..N")),
         _units("diagonals", lambda n: [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]])),
    Part("regions", "\n".join([
        "% the regions: region[i, j] is the region of cell (i, j); every region holds every value once",
        "array[1..N, 1..N] of 1..N: region;",
        _all_different("k in 1..N", _cells("c[i, j]", "i, j in 1..N where region[i, j] = k")),
    ]), _regions),
    Part("cages", CAGES, _cages),
    Part("cage_distinct", "% a cage's cells hold different values\n"
         + _all_different("k in 1..n_cages", _cells("c[i, j]", "i, j in 1..N where cage[i, j] = k")),
         _cage_distinct),
    Part("less", "\n".join([
        "% the signs: less[k, ..] = i1, j1, i2, j2 says c[i1, j1] < c[i2, j2]",
        "int: n_less;",
        "array[1..n_less, 1..4] of 1..N: less;",
        "constraint forall(k in 1..n_less)(c[less[k, 1], less[k, 2]] < c[less[k, 3], less[k, 4]]);",
    ]), _less),
    Part("visibility", VISIBILITY, _visibility),
)}
OUTPUTS = {"grid": 'output ["c = \\([c[i, j] | i, j in 1..N]);\\n"];',
           "queens": 'output ["c = \\(c);\\n"];'}


def parts_of(kind_class, target: str = TARGET) -> list[Part]:
    """The parts of a kind's model (the class's ``minizinc_parts``), refused in one line
    naming the kind and the target when it has none or names an unknown one.

    - ``grid``: ``array[1..N, 1..N] of var 1..N: c`` and the givens (the cells' one-of-N is the
      domain); ``queens``: N-Queens, ``array[1..N] of var 1..N: c`` (a row's queen's column),
      the classic model: ``all_different_int`` over ``c``, ``c[i] + i`` and ``c[i] - i``;
    - ``AllDifferent`` families: ``rows``, ``columns``, ``blocks`` (``block_rows`` x
      ``block_cols``), ``diagonals``, ``regions`` (``region[i, j]``, a jigsaw's), ``cage_distinct``
      (each cage's cells, a Killer's): ``all_different_int`` (MiniZinc's ``alldifferent`` on
      integers: see :data:`DECLARATIONS`), with domain consistency;
    - ``cages``: ``cage[i, j]`` (0: none), ``cage_op`` (``ADD``, ``SUB``, ``MUL``, ``DIV``) and
      ``cage_target``: ``sum``, ``product``, ``max - min`` or ``max = target * min`` over a
      cage's cells (one cell: its value);
    - ``less``: ``less[k, ..] = i1, j1, i2, j2``, ``c[i1, j1] < c[i2, j2]`` (Futoshiki's signs);
    - ``visibility``: ``clue_top``, ``clue_bottom``, ``clue_left``, ``clue_right`` (0: none), the
      count of cells taller than every cell before them along the line."""
    names = tuple(getattr(kind_class, "minizinc_parts", ()))
    unknown = [name for name in names if name not in PARTS]
    if not names or unknown or names[0] not in OUTPUTS:
        why = f"unknown parts {', '.join(unknown)}" if unknown else "it names no MiniZinc model (minizinc_parts)"
        raise UsageError(f"export target {target!r} cannot express the {kind_class.kind} kind: {why}")
    return [PARTS[name] for name in names]


def kind_model(kind_class, target: str = TARGET) -> str:
    """The MiniZinc model of a kind (``KIND.mzn``): every puzzle of the kind is this text and
    its data."""
    parts = parts_of(kind_class, target)
    return (f"{MODEL_MAGIC}{kind_class.kind} puzzles: a puzzle's data is a .dzn\n"
            f"% (puzzlebench export --to minizinc-data, or --to mzn+dzn); the parts: "
            f"{', '.join(p.name for p in parts)}\n"
            f"{DECLARATIONS}\n\n"
            + "\n\n".join(p.text for p in parts)
            + f"\n\nsolve satisfy;\n{OUTPUTS[parts[0].name]}\n")


def instance_data(puzzle, target: str = TARGET) -> str:
    """The data of one puzzle (a ``.dzn``) for its kind's model, every rule claimed by a part."""
    claims = Claims(puzzle, target)
    lines = [line for part in parts_of(type(puzzle), target) for line in part.data(claims)]
    claims.finish()
    return "\n".join(lines) + "\n"


def _header(puzzle) -> str:
    return "\n".join("% " + line for line in header_lines(puzzle, TARGET)) + "\n"


def data_file(puzzle, target: str = "minizinc-data") -> str:
    """A puzzle's ``.dzn``: the header ``decode --minizinc`` reads, then its data."""
    return _header(puzzle) + instance_data(puzzle, target)


def export_minizinc(puzzle) -> ModelText:
    """``export --to minizinc``: one ``.mzn`` file, the kind's model with the puzzle's data."""
    data = instance_data(puzzle)
    text = _header(puzzle) + kind_model(type(puzzle)) + "\n% the puzzle's data\n" + data
    return ModelText(text, puzzle.n_cells, puzzle.n_values)


def export_minizinc_data(puzzle) -> ModelText:
    """``export --to minizinc-data``: the puzzle's ``.dzn`` for its kind's model, with the header
    ``decode --minizinc`` reads."""
    return ModelText(data_file(puzzle), puzzle.n_cells, puzzle.n_values)


def export_minizinc_model(puzzle) -> ModelText:
    """``export --to minizinc-model``: the model of the puzzle's kind (the same text for every
    puzzle of the kind)."""
    return ModelText(kind_model(type(puzzle), "minizinc-model"), puzzle.n_cells, puzzle.n_values)


# -- reading back -----------------------------------------------------------------------------

def puzzle_of(text: str, source: str | None = None):
    """The puzzle a single-file ``.mzn`` or a ``.dzn`` describes (its header); a kind's model
    holds none, and is refused saying what to give instead."""
    if text.startswith(MODEL_MAGIC):
        kind = text[len(MODEL_MAGIC):].split(" ", 1)[0]
        raise ParseError(f"this is the model of every {kind} puzzle, which names none: decode takes the "
                         f"puzzle's .dzn (export --to minizinc-data) or its single .mzn (--to minizinc)",
                         Place(source, 1))
    return read_header(text, TARGET, "%", source)


SEPARATOR = "----------"
COMPLETE = "=========="
UNSAT = "=====UNSATISFIABLE====="
UNKNOWN = ("=====UNKNOWN=====", "=====ERROR=====")


def read_answer(text: str, n_cells: int, source: str | None = None) -> tuple[str, list[tuple[int, ...]], bool]:
    """MiniZinc's output: the status, every solution printed (a value per cell), and whether
    the search was complete (``==========``: every solution was printed, when enumerating)."""
    solutions: list[tuple[int, ...]] = []
    complete = unknown = False
    unsat = first = 0   # the lines of the UNSAT status and of the first solution
    for number, raw in file_lines(text):
        line = raw.strip()
        if not line or line == SEPARATOR or line.startswith("%"):
            continue
        if line == COMPLETE:
            complete = True
        elif line == UNSAT:
            unsat, complete = number, True
        elif line in UNKNOWN:
            unknown = True
        else:
            found = OUTPUT_LINE.match(line)
            if found is None:
                raise ParseError(f"not a line of puzzlebench's MiniZinc output: {line[:60]!r}",
                                 Place(source, number, 1))
            values = [int(w) for w in found.group(1).replace(",", " ").split()]
            if len(values) != n_cells:
                raise ParseError(f"{len(values)} values for the {n_cells} cells", Place(source, number, 1))
            solutions.append(tuple(values))
            first = first or number
    if solutions and unsat:   # the solution was taken, the status unread
        raise ParseError(f"the output says {UNSAT} (line {unsat}) and prints a solution",
                         Place(source, first, 1))
    if solutions:
        return "SATISFIABLE", solutions, complete
    if unsat:
        return "UNSATISFIABLE", [], True
    if unknown or not text.strip():
        return "UNKNOWN", [], False
    raise ParseError("no solution and no status in MiniZinc's output", Place(source, 1))


def decode_answer(text: str, source: str, answer_text: str, answer_source: str):
    """``decode --minizinc``: (the model's or data file's puzzle, MiniZinc's status, its first
    solution or ``None``)."""
    puzzle = puzzle_of(text, source)
    if not answer_text.strip():
        # the reader takes no output as "unknown" (an engine killed at its time limit); a file
        # named here that holds nothing is no answer (MiniZinc not run, its output elsewhere),
        # an error as an empty answer is for the other formats, not "unknown" with exit 0
        raise ParseError("empty: MiniZinc's output has the solutions it found or a status line "
                         "(=====UNKNOWN=====, =====UNSATISFIABLE=====)", Place(answer_source, 1))
    status, solutions = read_answer(answer_text, puzzle.n_cells, answer_source)[:2]
    return puzzle, status, solutions[0] if solutions else None
