"""Rules in the shared vocabulary as an OR-Tools CP-SAT model (Perron and Didier, "CP-SAT",
OR-Tools), in two formulations: ``int`` (an integer per cell, ``AddAllDifferent``, the
classic three-AllDifferent N-Queens model) and ``bool`` (a Boolean per candidate, the SAT
view); :func:`encode_cpsat` says how each rule is written.  Every auxiliary literal is a
function of the cells, so an enumeration counts solutions.

The ``int`` formulation is one walk over the rules (:func:`walk_int`) that says each piece to
an :class:`IntWriter` (CP-SAT's here, CPMpy's in :mod:`puzzlebench.engines.cpmpy`), so that
what is known of each rule is written once; :func:`candidate_groups`,
:func:`diagonal_families` and :func:`visibility_terms` are shared with :mod:`.smt` for the
same reason.  :meth:`CpSatModel.write` writes the model proto in protobuf text form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..errors import SolverSpecError
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules, Visibility,
                                 candidate, candidate_cell_value, different_groups,
                                 pairwise_different)

FORMULATIONS = ("int", "bool")


def check_formulation(name: str, known: tuple[str, ...], what: str) -> str:
    if name not in known:
        raise SolverSpecError(f"unknown {what} formulation {name!r}; known: {', '.join(known)}")
    return name


# -- shared views of the vocabulary -----------------------------------------------------------

@dataclass(frozen=True)
class CandidateGroup:
    """``exactly`` (one of ``candidates`` is true) or ``at most`` one of them."""

    exactly: bool
    candidates: tuple[int, ...]
    name: str


def candidate_groups(rules: Rules) -> Iterator[CandidateGroup]:
    """Every constraint but ``Visibility``, ``Less`` and ``Cage`` as groups over candidates: ``AllDifferent`` over k
    cells becomes, for each value, at most one of the k candidates (exactly one when k equals
    the number of values, the "every value once" reading)."""
    n = rules.n_values
    for con in rules.constraints:
        if isinstance(con, ExactlyOne):
            yield CandidateGroup(True, con.candidates, con.name)
        elif isinstance(con, AtMostOne):
            if len(con.candidates) > 1:
                yield CandidateGroup(False, con.candidates, con.name)
        elif isinstance(con, AllDifferent):
            full = len(con.cells) == n
            for v in range(1, n + 1):
                yield CandidateGroup(full, tuple(candidate(c, v, n) for c in con.cells),
                                     f"{con.name} value {v}")


def candidates_named(rules: Rules, signs_as_clauses: bool = False, open_only: bool = False) -> int:
    """How many candidates the rules name, each as often as a constraint names it (an
    ``AllDifferent`` of k cells its k·n, a cage or a line its cells', a sign its two cells' or,
    ``signs_as_clauses``, the n(n+1)/2 pairs of values that break it, two a clause): what a
    solver's model of the rules grows with, 4n³ for an empty n×n Sudoku.  ``open_only``: only
    the candidates the givens leave open (an open cell's values that no given of its
    ``AllDifferent`` units takes), what a solver keeps once it has simplified the givens away."""
    n = rules.n_values
    closed = _closed_values(rules) if open_only else [0] * rules.n_cells
    left = [n - bin(mask).count("1") for mask in closed]
    named = 0
    for con in rules.constraints:
        if isinstance(con, (ExactlyOne, AtMostOne)):
            named += sum(1 for x in con.candidates if not closed[x // n] >> (x % n + 1) & 1)
        elif isinstance(con, Less):
            named += (n * (n + 1) if signs_as_clauses else 2 * n) if left[con.smaller] or left[con.larger] else 0
        elif isinstance(con, (AllDifferent, Cage, Visibility)):
            named += sum(left[c] for c in con.cells)
    return named


def _closed_values(rules: Rules) -> list[int]:
    """The values each cell cannot take given the givens, as a bitmask (bit v for value v): all of them
    for a given cell, else those the givens of its ``AllDifferent`` units take."""
    everything = (1 << (rules.n_values + 1)) - 2
    closed = [everything if g else 0 for g in rules.givens]
    for con in rules.constraints:
        if isinstance(con, AllDifferent):
            given = 0
            for c in con.cells:
                if rules.givens[c]:
                    given |= 1 << rules.givens[c]
            for c in con.cells:
                closed[c] |= given
    return closed


CPSAT_BYTES = {"int": 840, "bool": 420}
"""What CP-SAT holds a candidate named (:func:`candidates_named`) through presolve and two
solves: at most 730 and 360 bytes measured on empty Sudokus from 25x25 to 64x64, plus 15 %
(results/budget.md)."""
CPSAT_FIRST_SOLVE = 12 * 2**20
"""What CP-SAT allocates on its first solve whatever the model (9.4 MB on a 9x9)."""


def estimated_bytes(puzzle, formulation: str = "int") -> int:
    """What CP-SAT holds for ``puzzle``'s model, before it is made (:data:`CPSAT_BYTES` a
    candidate the givens leave open)."""
    named = candidates_named(puzzle.rules, formulation == "bool", open_only=True)
    return CPSAT_FIRST_SOLVE + named * CPSAT_BYTES[formulation]


@dataclass(frozen=True)
class DiagonalFamily:
    """``AllDifferent(value[cell] + sign*cell for cell in cells)`` standing for the
    ``AtMostOne`` constraints it replaces (``sign`` -1: value - cell constant on a diagonal)."""

    sign: int
    cells: tuple[int, ...]
    replaced: frozenset[str]


def diagonal_families(rules: Rules) -> tuple[list[DiagonalFamily], list[AtMostOne]]:
    """Find ``AtMostOne`` constraints that are the diagonals of a board (one candidate per cell,
    ``value - cell`` or ``value + cell`` constant) and, when one direction's constraints cover
    every diagonal of two or more squares over their cells, replace them by one AllDifferent
    over offset values.  Returns the families and the ``AtMostOne`` constraints left over."""
    n = rules.n_values
    by_sign: dict[int, list[tuple[int, AtMostOne, frozenset[int]]]] = {1: [], -1: []}
    rest: list[AtMostOne] = []
    for con in rules.of_type(AtMostOne):
        pairs = [candidate_cell_value(x, n) for x in con.candidates]
        cells = [c for c, _ in pairs]
        if len(pairs) < 2 or len(set(cells)) != len(cells):
            rest.append(con)
            continue
        for sign in (1, -1):
            keys = {v + sign * c for c, v in pairs}
            if len(keys) == 1:
                by_sign[sign].append((keys.pop(), con, frozenset(con.candidates)))
                break
        else:
            rest.append(con)
    families = []
    for sign, found in by_sign.items():
        if not found:
            continue
        cells = sorted({candidate_cell_value(x, n)[0] for _, con, _ in found for x in con.candidates})
        covered: dict[int, frozenset[int]] = {}
        for key, _, cands in found:
            covered[key] = covered.get(key, frozenset()) | cands
        complete = True
        for key in {v + sign * c for c in cells for v in range(1, n + 1)}:
            diagonal = {candidate(c, key - sign * c, n) for c in cells if 1 <= key - sign * c <= n}
            if len(diagonal) > 1 and not diagonal <= covered.get(key, frozenset()):
                complete = False
                break
        if complete:
            families.append(DiagonalFamily(sign, tuple(cells), frozenset(c.name for _, c, _ in found)))
        else:
            rest.extend(con for _, con, _ in found)
    return families, rest


@dataclass(frozen=True)
class VisibilityTerms:
    """The Boolean encoding of one ``Visibility`` line over candidate literals.

    ``prefix[(i, v)]`` stands for "one of the first i+1 cells is at least v tall" and is
    defined as ``prefix[(i-1, v)] or cell i is at least v``; cell i is seen with height v when
    ``x(i, v) and not prefix[(i-1, v)]``; the first cell is always seen, so the ``seen`` terms
    of cells 1.. must sum to ``clue - 1``.  Heights run 2..N in ``seen`` (a cell of height 1
    behind another is never seen)."""

    prefix: dict[tuple[int, int], tuple[int, ...]]
    """(i, v) -> candidates of cell i with value >= v (the disjuncts added at step i)."""
    seen: list[tuple[int, int]]
    """(i, v) pairs whose "cell i has v and prefix (i-1, v) is false" terms are summed."""
    target: int


def visibility_terms(con: Visibility, n: int) -> VisibilityTerms:
    prefix = {}
    for i, cell in enumerate(con.cells):
        for v in range(2, n + 1):
            prefix[(i, v)] = tuple(candidate(cell, w, n) for w in range(v, n + 1))
    seen = [(i, v) for i in range(1, len(con.cells)) for v in range(2, n + 1)]
    return VisibilityTerms(prefix, seen, con.clue - 1)


def less_pairs(n: int) -> list[tuple[int, int]]:
    """The value pairs ``(v, w)`` that break ``smaller < larger`` (``w <= v``): the Boolean
    formulations forbid each one with a binary clause, as the CNF does."""
    return [(v, w) for v in range(1, n + 1) for w in range(1, v + 1)]


# -- the CP-SAT model -------------------------------------------------------------------------

@dataclass
class CpSatModel:
    """A CP-SAT model and how to read a solution back: ``cells`` (int formulation: the
    variable of each cell) or ``literals`` (bool formulation: the Boolean of each candidate)."""

    formulation: str
    model: Any
    n_cells: int
    n_values: int
    cells: list[Any] = field(default_factory=list)
    literals: list[Any] = field(default_factory=list)

    def write(self) -> str:
        """The model proto in protobuf text form (``puzzlebench export --to cpsat``)."""
        return str(self.model.proto)

    def size(self) -> dict[str, int]:
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}

    def rule_out(self, cell: int, v: int) -> None:
        """Forbid value ``v`` in ``cell`` (a Sukaku's ruled-out pencil mark)."""
        if self.formulation == "int":
            self.model.add(self.cells[cell] != v)
        else:
            self.model.add_bool_or([~self.literals[candidate(cell, v, self.n_values)]])

    def decode_values(self, value) -> tuple[int, ...]:
        """A solution from ``value(var)`` (a solver's or a callback's ``Value``)."""
        if self.formulation == "int":
            return tuple(int(value(x)) for x in self.cells)
        n = self.n_values
        out = [0] * self.n_cells
        for index, lit in enumerate(self.literals):
            if value(lit):
                cell, v = candidate_cell_value(index, n)
                out[cell] = v
        return tuple(out)


def encode_cpsat(rules: Rules, formulation: str = "int") -> CpSatModel:
    """The CP-SAT model of ``rules`` in the named formulation (``int`` or ``bool``).

    - ``int``: one integer variable per cell (domain 1..N, a given fixes it).  ``AllDifferent``
      becomes ``AddAllDifferent``; a family of ``AtMostOne`` diagonals that covers every diagonal of
      one direction becomes one ``AddAllDifferent`` over ``q[r] + r`` (or ``q[r] - r``): the classic
      three-AllDifferent N-Queens model; any other ``AtMostOne``/``ExactlyOne`` over candidates gets
      a reified literal per candidate.  ``Visibility`` uses a reified Boolean per cell ("taller than
      the prefix maximum", the maximum from ``AddMaxEquality``) and a sum equal to the clue.
      ``Less`` is the linear inequality ``cell < cell``.
    - ``bool``: one Boolean per candidate (the SAT view).  ``ExactlyOne``/``AtMostOne`` map to
      ``AddExactlyOne``/``AddAtMostOne``; ``AllDifferent`` to one at-most-one (exactly-one when
      there are as many cells as values) per value; ``Visibility`` to the prefix-height encoding of
      :func:`visibility_terms`; ``Less`` to a binary clause per value pair that breaks it.

    :func:`candidate_groups` leaves out ``Visibility``, ``Less`` and ``Cage``: each formulation adds them.
    ``Cage`` in ``int``: a linear sum when its cells are pairwise different and ``op`` is ``+`` (the
    ``AllDifferent`` over them is stated anyway: a Killer cage), otherwise a table of its admissible
    fillings (``AddAllowedAssignments``: products, differences, quotients, KenKen sums).  In
    ``bool``: one literal per filling, exactly one of them, each implying its candidates (a set
    filling: each cell takes one of its values); the values decide the filling, so enumeration
    counts solutions."""
    from ortools.sat.python import cp_model

    check_formulation(formulation, FORMULATIONS, "CP-SAT")
    model = cp_model.CpModel()
    build = _build_int if formulation == "int" else _build_bool
    return build(rules, model)


class IntWriter:
    """What :func:`walk_int` asks of a library that models an integer variable per cell: the
    CP-SAT ``int`` formulation here, CPMpy's model in :mod:`puzzlebench.engines.cpmpy`.  The
    walk holds what is known of the vocabulary (a cell's one-of-N is its domain, N-Queens
    diagonals are an AllDifferent over offset values, a Killer cage is a sum, any other cage
    a table); a writer only says each piece in its library's words.  The variables it makes
    must take ``+`` with an integer (an offset diagonal)."""

    def cell(self, index: int, low: int, high: int) -> Any:
        raise NotImplementedError

    def all_different(self, terms: list) -> None:
        raise NotImplementedError

    def count_one(self, cells: list, pairs: list[tuple[int, int]], exactly: bool) -> None:
        """Exactly one (or at most one) of the ``cell = value`` terms ``pairs`` holds."""
        raise NotImplementedError

    def less(self, smaller, larger) -> None:
        raise NotImplementedError

    def sum_equals(self, terms: list, target: int) -> None:
        raise NotImplementedError

    def table(self, terms: list, rows: list[tuple[int, ...]]) -> None:
        raise NotImplementedError

    def visibility(self, line: list, clue: int, n: int) -> None:
        """``clue`` cells of ``line`` are taller than every cell before them."""
        raise NotImplementedError


def walk_int(rules: Rules, writer: IntWriter) -> list:
    """Say ``rules`` to ``writer``, an integer variable per cell (a given fixes its domain);
    the cells' variables, in order."""
    n = rules.n_values
    cells = [writer.cell(c, g or 1, g or n) for c, g in enumerate(rules.givens)]
    groups = different_groups(rules)
    families, leftover = diagonal_families(rules)
    for fam in families:
        writer.all_different([cells[c] + fam.sign * c for c in fam.cells])
    for con in leftover:
        writer.count_one(cells, [candidate_cell_value(x, n) for x in con.candidates], False)
    for con in rules.constraints:
        if isinstance(con, ExactlyOne):
            pairs = [candidate_cell_value(x, n) for x in con.candidates]
            if len({cell for cell, _ in pairs}) == 1 and len(pairs) == n:
                continue  # the cell's own domain says it
            writer.count_one(cells, pairs, True)
        elif isinstance(con, AllDifferent):
            writer.all_different([cells[c] for c in con.cells])
        elif isinstance(con, Visibility):
            writer.visibility([cells[c] for c in con.cells], con.clue, n)
        elif isinstance(con, Less):
            writer.less(cells[con.smaller], cells[con.larger])
        elif isinstance(con, Cage):
            terms = [cells[c] for c in con.cells]
            if con.op == "+" and pairwise_different(rules, con.cells, groups):
                writer.sum_equals(terms, con.target)
            else:
                writer.table(terms, list(con.fillings(n)))
    return cells


class _CpSatIntWriter(IntWriter):
    def __init__(self, model):
        self.model = model
        self.literals: dict[tuple[int, int], Any] = {}

    def cell(self, index, low, high):
        return self.model.new_int_var(low, high, f"c{index}")

    def literal(self, cells: list, cell: int, v: int):
        """The reified candidate "cell = value", made once."""
        if (cell, v) not in self.literals:
            b = self.model.new_bool_var(f"x{cell}_{v}")
            self.model.add(cells[cell] == v).only_enforce_if(b)
            self.model.add(cells[cell] != v).only_enforce_if(~b)
            self.literals[(cell, v)] = b
        return self.literals[(cell, v)]

    def all_different(self, terms):
        self.model.add_all_different(terms)

    def count_one(self, cells, pairs, exactly):
        chosen = [self.literal(cells, c, v) for c, v in pairs]
        if exactly:
            self.model.add_exactly_one(chosen)
        else:
            self.model.add_at_most_one(chosen)

    def less(self, smaller, larger):
        self.model.add(smaller < larger)

    def sum_equals(self, terms, target):
        self.model.add(sum(terms) == target)

    def table(self, terms, rows):
        self.model.add_allowed_assignments(terms, rows)

    def visibility(self, line, clue, n):
        _visibility_int(self.model, line, clue, n)


def _build_int(rules: Rules, model) -> CpSatModel:
    cells = walk_int(rules, _CpSatIntWriter(model))
    return CpSatModel("int", model, rules.n_cells, rules.n_values, cells=cells)


def _visibility_int(model, line: list, clue: int, n: int) -> None:
    """Cell i is seen iff it is taller than the maximum of the cells before it."""
    seen = []
    tallest = line[0]
    for i in range(1, len(line)):
        b = model.new_bool_var("")
        model.add(line[i] > tallest).only_enforce_if(b)
        model.add(line[i] <= tallest).only_enforce_if(~b)
        seen.append(b)
        if i + 1 < len(line):
            m = model.new_int_var(1, n, "")
            model.add_max_equality(m, line[:i + 1])
            tallest = m
    _sum_equals(model, seen, clue - 1)


def _sum_equals(model, literals: list, target: int) -> None:
    if literals:
        model.add(sum(literals) == target)
    elif target != 0:
        model.add_bool_or([])  # a one-cell line that must show more than one tower: infeasible


def _build_bool(rules: Rules, model) -> CpSatModel:
    n = rules.n_values
    lits = [model.new_bool_var(f"x{c}_{v}") for c in range(rules.n_cells) for v in range(1, n + 1)]
    for c, g in enumerate(rules.givens):
        if g:
            model.add_bool_or([lits[candidate(c, g, n)]])
    for group in candidate_groups(rules):
        chosen = [lits[x] for x in group.candidates]
        if group.exactly:
            model.add_exactly_one(chosen)
        else:
            model.add_at_most_one(chosen)
    for con in rules.of_type(Visibility):
        _visibility_bool(model, lits, con, n)
    for con in rules.of_type(Less):
        for v, w in less_pairs(n):
            model.add_bool_or([~lits[candidate(con.smaller, v, n)], ~lits[candidate(con.larger, w, n)]])
    groups = different_groups(rules)
    for con in rules.of_type(Cage):
        _cage_bool(model, lits, con, n, pairwise_different(rules, con.cells, groups))
    return CpSatModel("bool", model, rules.n_cells, n, literals=lits)


def _cage_bool(model, lits: list, cage: Cage, n: int, distinct: bool) -> None:
    chosen = []
    for filling in cage.fillings(n, distinct):
        f = model.new_bool_var("")
        chosen.append(f)
        if distinct:
            for cell in cage.cells:
                model.add_bool_or([lits[candidate(cell, v, n)] for v in filling]).only_enforce_if(f)
        else:
            for cell, v in zip(cage.cells, filling):
                model.add_implication(f, lits[candidate(cell, v, n)])
    model.add_exactly_one(chosen)


def _visibility_bool(model, lits: list, con: Visibility, n: int) -> None:
    terms = visibility_terms(con, n)
    prefix: dict[tuple[int, int], Any] = {}
    for (i, v), cands in terms.prefix.items():
        parts = [lits[x] for x in cands] + ([prefix[(i - 1, v)]] if i else [])
        p = model.new_bool_var("")
        # p <-> OR(parts)
        model.add_bool_or(parts).only_enforce_if(p)
        for q in parts:
            model.add_implication(q, p)
        prefix[(i, v)] = p
    seen = []
    for i, v in terms.seen:
        x = lits[candidate(con.cells[i], v, n)]
        before = prefix[(i - 1, v)]
        s = model.new_bool_var("")
        # s <-> x and not before
        model.add_bool_and([x, ~before]).only_enforce_if(s)
        model.add_bool_or([~x, before, s])
        seen.append(s)
    _sum_equals(model, seen, terms.target)


# -- export targets (puzzlebench.encoders.registry.FORMATS) ---------------------------------

def export_cpsat(puzzle, formulation: str = "int") -> CpSatModel:
    """``export --to cpsat``: the integer model's proto in text form."""
    return encode_cpsat(puzzle.rules, formulation)


def export_cpsat_bool(puzzle) -> CpSatModel:
    """``export --to cpsat-bool``: the Boolean model's proto in text form."""
    return encode_cpsat(puzzle.rules, "bool")
