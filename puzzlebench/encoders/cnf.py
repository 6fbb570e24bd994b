"""CNF encoding of any puzzle stated in the shared vocabulary (direct encoding: one Boolean
variable per candidate, variable ``candidate + 1``; auxiliary variables come after them).

The encodings are the Sudoku literature's (``minimal``, ``efficient``, ``extended``,
``optimized``: Kwon & Jain, "Optimized CNF Encoding for Sudoku Puzzles", 2006; Lynce &
Ouaknine, "Sudoku as a SAT Problem", 2006) and tdoku's ``augmented`` (T. Dillon), derived from
the vocabulary so that every kind gets them; the at-most-one encodings are the literature's
too (``amo``: pairwise, Klieber & Kwon's commander, PySAT's ``CardEnc``).  A cage's filling
variables are decided by the cells' values, so that counting models counts solutions.
Building a formula per puzzle in Python is slow, so the empty grid's formula is built once
per shape (:func:`base_formula`) and a puzzle adds a unit clause per given or hands its
givens to a solver as assumptions.  Each encoding and rule in full: :func:`encode`.
"""

from __future__ import annotations

import itertools
from operator import add, sub
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from typing import Iterable, Iterator, Sequence

from ..errors import EngineError, UsageError
from .budget import INT_BYTES, ITEM_BYTES, LIST_BYTES, STR_BYTES
from ..models.base import Puzzle
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules, Visibility, candidate,
                                 different_groups, pairwise_different)

ENCODINGS = ("minimal", "efficient", "extended", "optimized", "augmented")
AMO_ENCODINGS = ("pairwise", "commander", "seqcounter", "ladder", "bitwise", "totalizer", "cardnetwrk")
DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"
COMMANDER_GROUP = 3
DIMACS_PIECE = 1 << 16   # clauses in a piece of DIMACS text (Cnf.pieces): about 1 MB of a 49x49's
DIMACS_MAGIC = "puzzlebench cnf"   # the first comment line of a DIMACS file puzzlebench wrote
DIMACS_HEADER_ORDER = ("kind", "shape", "box", "cells", "values", "encoding", "amo",
                       "top", "bottom", "left", "right", "givens", "map")


@dataclass
class Cnf:
    """A puzzle's CNF: ``clauses`` (the shape's formula, shared and read-only, or the
    puzzle's own for ``optimized``) plus ``units`` (one literal per given).

    ``n_candidates`` first variables are candidates (variable ``k + 1`` is candidate ``k``);
    ``fixed`` (``optimized`` only) maps the candidates the givens decided to True/False.
    """

    n_vars: int
    clauses: list[list[int]]
    units: list[int]
    n_cells: int
    n_values: int
    givens: tuple[int, ...]
    encoding: str
    amo: str
    kind: str = ""
    shape: str = ""
    header: dict[str, str] = field(default_factory=dict)
    fixed: dict[int, bool] | None = None
    base_key: tuple | None = None
    puzzle: Puzzle | None = field(default=None, repr=False)
    """The puzzle encoded (the DIMACS header is made from it when written)."""

    def header_fields(self) -> dict[str, str]:
        """What the DIMACS header says about the puzzle (made only when asked for)."""
        if not self.header and self.puzzle is not None:
            self.header = header_fields(self.puzzle)
        return self.header

    def header_lines(self) -> list[str]:
        """The DIMACS header's ``c`` lines: everything decoding a model needs (the puzzle, the
        encoding, the map from variables to candidates), read back by
        :mod:`puzzlebench.encoders.dimacs`."""
        n, limit = self.n_values, self.n_candidates
        fields = dict(self.header_fields())
        fields["encoding"] = self.encoding
        fields["amo"] = self.amo
        fields["map"] = (f"variable v in 1..{limit} is cell (v-1) div {n} (0-based, row-major), "
                         f"value (v-1) mod {n} + 1; above {limit}: auxiliary")
        # the fields of DIMACS_HEADER_ORDER in that order, then a kind's own (a jigsaw's
        # regions, a Futoshiki's signs: decoding rebuilds the puzzle from them), the map last
        keys = [k for k in DIMACS_HEADER_ORDER if k in fields and k != "map"] + \
            [k for k in fields if k not in DIMACS_HEADER_ORDER] + ["map"]
        return [f"c {DIMACS_MAGIC}"] + [f"c {k}: {fields[k]}" for k in keys]

    def write(self) -> str:
        """The formula in DIMACS form (its clauses and a unit clause per given), header first:
        the artifact of ``puzzlebench export --to dimacs``."""
        return "".join(self.pieces())

    def pieces(self) -> Iterator[str]:
        """:meth:`write`'s text in pieces of :data:`DIMACS_PIECE` clauses, for a writer that
        holds one piece at a time: the whole text of an empty 49x49 is 185 MB, and a string of
        it, its encoding and the pieces it was joined from took 0.35 GB beside the formula."""
        yield "".join(line + "\n" for line in self.header_lines()) + f"p cnf {self.n_vars} {self.n_clauses}\n"
        yield from self.clause_pieces()
        yield "".join(f"{u} 0\n" for u in self.units)

    def clause_pieces(self) -> Iterator[str]:
        """The clauses (not the units) as DIMACS lines, :data:`DIMACS_PIECE` clauses a string."""
        clauses = iter(self.clauses)
        while piece := list(itertools.islice(clauses, DIMACS_PIECE)):
            yield "".join([" ".join(map(str, clause)) + " 0\n" for clause in piece])

    @property
    def n_candidates(self) -> int:
        return self.n_cells * self.n_values

    @property
    def n_clauses(self) -> int:
        return len(self.clauses) + len(self.units)

    def all_clauses(self) -> list[list[int]]:
        return self.clauses + [[u] for u in self.units]

    def open_candidate_vars(self) -> list[int]:
        """Variables of the candidates of the cells without a given (the ones a blocking
        clause needs: two solutions differ in an open cell)."""
        n = self.n_values
        out = []
        for cell, g in enumerate(self.givens):
            if not g:
                for v in range(1, n + 1):
                    var = cell * n + v
                    if self.fixed is None or var not in self.fixed:
                        out.append(var)
        return out

    def decode(self, true_literals: Iterable[int]) -> tuple[int, ...]:
        """A value per cell from the literals a model makes true (others are ignored)."""
        n, limit = self.n_values, self.n_candidates
        if self.fixed is None and type(true_literals) is list and len(true_literals) == self.n_cells:
            # the common case: exactly one true candidate per cell, in order (a list of the
            # positive candidate literals of a model, as the SAT engine hands it over)
            values = list(map(sub, true_literals, range(0, limit, n)))
            if 0 < min(values) and max(values) <= n:
                return tuple(values)
        values = list(self.givens)
        for lit in true_literals:
            if 0 < lit <= limit:
                if self.fixed is not None and lit in self.fixed:
                    continue  # decided by the givens; absent from the formula
                cell, rest = divmod(lit - 1, n)
                if self.givens[cell]:
                    continue
                if values[cell] and values[cell] != rest + 1:
                    raise EngineError(f"the model gives cell {cell + 1} two values "
                                      f"({values[cell]} and {rest + 1})")
                values[cell] = rest + 1
        missing = [c for c, v in enumerate(values) if not v]
        if missing:
            raise EngineError(f"the model gives cell {missing[0] + 1} no value")
        return tuple(values)


class _Builder:
    def __init__(self, n_candidates: int, amo: str):
        self.top = n_candidates
        self.amo = amo
        self.clauses: list[list[int]] = []

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def at_least_one(self, lits: Sequence[int]) -> None:
        self.clauses.append(list(lits))

    def at_most_one(self, lits: Sequence[int]) -> None:
        lits = list(lits)
        if len(lits) <= 1:
            return
        if self.amo == "pairwise" or len(lits) <= 2:
            self.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
        elif self.amo == "commander":
            self._commander(lits)
        else:
            self._cardenc(lits, 1, "atmost")

    def exactly(self, lits: Sequence[int], k: int) -> None:
        if k == 1:
            self.at_least_one(lits)
            self.at_most_one(lits)
            return
        # pairwise, commander, ladder and bitwise only say "at most one": a bound k > 1
        # goes through a counter (the sequential counter unless another counter was asked)
        counter = self.amo if self.amo in ("seqcounter", "totalizer", "cardnetwrk") else "seqcounter"
        self._cardenc(list(lits), k, "equals", encoding=counter)

    def _commander(self, lits: list[int]) -> None:
        """Klieber & Kwon 2007: at most one per group (pairwise), a group's literal implies
        its commander, and at most one commander (recursively)."""
        while len(lits) > COMMANDER_GROUP + 1:
            commanders = []
            for i in range(0, len(lits), COMMANDER_GROUP):
                group = lits[i:i + COMMANDER_GROUP]
                if len(group) == 1:
                    commanders.append(group[0])
                    continue
                c = self.new_var()
                self.clauses.extend([-a, -b] for a, b in itertools.combinations(group, 2))
                self.clauses.extend([-x, c] for x in group)
                self.clauses.append([-c] + group)  # c only when one of its group is true
                commanders.append(c)
            lits = commanders
        self.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))

    def _cardenc(self, lits: list[int], k: int, how: str, encoding: str | None = None) -> None:
        from pysat.card import CardEnc, EncType

        enc = getattr(EncType, encoding or self.amo)
        cnf = getattr(CardEnc, how)(lits=lits, bound=k, top_id=self.top, encoding=enc)
        self.clauses.extend(cnf.clauses)
        self.top = max(self.top, cnf.nv)

    def visibility(self, cells: Sequence[int], clue: int, n: int) -> None:
        """``clue`` towers seen along ``cells`` (from the viewer outwards)."""
        x = lambda i, v: cells[i] * n + v  # noqa: E731  (variable of "cell i has height v")
        seen = []
        prev_g: list[int] | None = None  # prev_g[v]: one of the cells before i is >= v
        for i in range(len(cells)):
            vis = self.new_var()
            seen.append(vis)
            if prev_g is None:
                self.clauses.append([vis])
            else:
                for v in range(1, n + 1):
                    self.clauses.append([-x(i, v), prev_g[v], vis])
                    self.clauses.append([-x(i, v), -prev_g[v], -vis])
            if i < len(cells) - 1:
                g = [0] * (n + 2)
                for v in range(n, 0, -1):
                    gv = self.new_var()
                    g[v] = gv
                    defn = [x(i, v)] + ([g[v + 1]] if v < n else []) + ([prev_g[v]] if prev_g else [])
                    self.clauses.append([-gv] + defn)
                    self.clauses.extend([-d, gv] for d in defn)
                prev_g = g
        self.exactly(seen, clue)

    def cage(self, cells: Sequence[int], fillings: Sequence[tuple[int, ...]], distinct: bool, n: int) -> None:
        """One variable per filling (see :func:`encode`): at least one, each implying its
        candidates; a tuple filling also implied by them."""
        if not fillings:
            f = self.new_var()
            self.clauses += [[f], [-f]]   # no filling: unsatisfiable
            return
        chosen = []
        for filling in fillings:
            f = self.new_var()
            chosen.append(f)
            if distinct:
                self.clauses.extend([-f] + [cell * n + v for v in filling] for cell in cells)
                # and each of its values in some cell: redundant given the AllDifferent, but it
                # lets propagation drop a set once one of its values has no place left
                self.clauses.extend([-f] + [cell * n + v for cell in cells] for v in filling)
            else:
                lits = [cell * n + v for cell, v in zip(cells, filling)]
                self.clauses.extend([-f, x] for x in lits)
                self.clauses.append([-x for x in lits] + [f])
        self.at_least_one(chosen)


def less_clauses(con: Less, n: int) -> list[list[int]]:
    """``smaller < larger`` over the candidates.  The conflicts: ``x[smaller]=v ->
    x[larger] != w`` for every ``w <= v``, one binary clause per pair of values that breaks
    it (complete with the cells' exactly-one; unit propagation prunes the neighbour's values
    as soon as a value is set).  The supports (Gent, "Arc consistency in SAT", ECAI 2002):
    ``x[smaller]=v -> x[larger] is one of v+1..N`` and ``x[larger]=w -> x[smaller] is one of
    1..w-1``, so that unit propagation also removes a value with no support left, before
    either cell is set (arc consistency: the bounds reasoning of a Futoshiki chain); for
    ``smaller = N`` and ``larger = 1`` they are unit clauses."""
    a, b = con.smaller * n, con.larger * n
    conflicts = [[-(a + v), -(b + w)] for v in range(1, n + 1) for w in range(1, v + 1)]
    supports = ([[-(a + v)] + [b + w for w in range(v + 1, n + 1)] for v in range(1, n + 1)]
                + [[-(b + w)] + [a + v for v in range(1, w)] for w in range(1, n + 1)])
    return conflicts + supports


def is_cell_constraint(con: ExactlyOne, n: int) -> bool:
    """An ``ExactlyOne`` that states one cell's value (its ``n`` candidates in order)."""
    c = con.candidates
    return len(c) == n and c[0] % n == 0 and c == tuple(range(c[0], c[0] + n))


MAX_PARTITIONS = 8  # partitions kept per unit (a Sudoku block has 2; exotic units could have many)


def unit_partitions(rules: Rules) -> dict[int, list[list[tuple[int, ...]]]]:
    """For each ``AllDifferent`` (by its index in ``rules.constraints``) over as many cells as
    values, its partitions into intersections with the other such units (each intersection
    two cells or more, sorted cell numbers); units without a partition are left out.

    A partition is found by exact cover: the first cell not yet covered must lie in one of
    the chosen intersections (at most :data:`MAX_PARTITIONS` per unit, in a fixed order)."""
    n = rules.n_values
    full = [(i, con.cells) for i, con in enumerate(rules.constraints)
            if isinstance(con, AllDifferent) and len(con.cells) == n and len(set(con.cells)) == n]
    sets = {i: frozenset(cells) for i, cells in full}
    out: dict[int, list[list[tuple[int, ...]]]] = {}
    for i, cells in full:
        u = sets[i]
        pieces: dict[frozenset, None] = {}
        for j, _ in full:
            meet = u & sets[j]
            if j != i and 2 <= len(meet) < len(u):
                pieces.setdefault(meet)
        if not pieces:
            continue
        order = {c: k for k, c in enumerate(cells)}
        found: list[list[frozenset]] = []

        def cover(left: frozenset, chosen: list[frozenset]) -> None:
            if len(found) >= MAX_PARTITIONS:
                return
            if not left:
                found.append(list(chosen))
                return
            first = min(left, key=order.__getitem__)
            for piece in pieces:
                if first in piece and piece <= left:
                    chosen.append(piece)
                    cover(left - piece, chosen)
                    chosen.pop()

        cover(u, [])
        if found:
            out[i] = [[tuple(sorted(piece)) for piece in p] for p in found]
    return out


def _one_of_group(b: "_Builder", lits: list[int], fixed: dict[int, bool] | None,
                  at_least: bool, at_most: bool) -> None:
    """A group of literals of which at most one is true (a cell's values, a unit's places for a
    value), at least one too if ``at_least``.  With ``fixed`` (the ``optimized`` encoding) only
    its open literals are encoded, which is what simplifying the full group by ``fixed`` leaves:
    a fixed-true literal settles the group (:func:`givens_decisions` has made each other literal
    false), and two of them (givens in conflict) give the empty clause."""
    if fixed is not None:
        true = sum(1 for lit in lits if fixed.get(lit))
        if true:
            if true > 1:
                b.clauses.append([])
            return
        lits = [lit for lit in lits if lit not in fixed]
    if at_least:
        b.at_least_one(lits)
    if at_most:
        b.at_most_one(lits)


def _encode_constraints(rules: Rules, encoding: str, amo: str,
                        fixed: dict[int, bool] | None = None) -> tuple[int, list[list[int]]]:
    """``fixed`` (the ``optimized`` encoding): one-of groups are encoded over their open
    literals only (:func:`_one_of_group`), without building the full formula first (a 25x25
    grid's full ``extended`` formula has 0.9M clauses; a late check of the generator's dig
    keeps 27k); the other constraints' clauses are simplified by ``fixed`` as they are made."""
    n = rules.n_values
    b = _Builder(rules.n_candidates, amo)
    partitions = unit_partitions(rules) if encoding == "augmented" else {}
    groups = different_groups(rules) if any(isinstance(c, Cage) for c in rules.constraints) else None
    triads: dict[tuple[tuple[int, ...], int], int] = {}

    def triad(piece: tuple[int, ...], v: int) -> int:
        """t(piece, v): v is in one cell of ``piece`` (and in at most one)."""
        t = triads.get((piece, v))
        if t is None:
            t = triads[piece, v] = b.new_var()
            lits = [candidate(cell, v, n) + 1 for cell in piece] + [-t]
            b.at_least_one(lits)
            b.at_most_one(lits)
        return t

    for index, con in enumerate(rules.constraints):
        if isinstance(con, ExactlyOne):
            _one_of_group(b, [c + 1 for c in con.candidates], fixed, True,
                          encoding != "minimal" or not is_cell_constraint(con, n))
        elif isinstance(con, AtMostOne):
            _one_of_group(b, [c + 1 for c in con.candidates], fixed, False, True)
        elif index in partitions:
            for v in range(1, n + 1):
                for partition in partitions[index]:
                    lits = [triad(piece, v) for piece in partition]
                    b.at_least_one(lits)
                    b.at_most_one(lits)
        elif isinstance(con, AllDifferent):
            full = len(con.cells) == n and encoding in ("extended", "optimized", "augmented")
            for v in range(1, n + 1):
                _one_of_group(b, [candidate(cell, v, n) + 1 for cell in con.cells], fixed, full, True)
        else:
            start = len(b.clauses)
            if isinstance(con, Visibility):
                b.visibility(con.cells, con.clue, n)
            elif isinstance(con, Less):
                b.clauses.extend(less_clauses(con, n))
            elif isinstance(con, Cage):
                distinct = pairwise_different(rules, con.cells, groups)
                b.cage(con.cells, con.fillings(n, distinct), distinct, n)
            else:  # a new kind of constraint needs a new clause family here
                raise EngineError(f"the CNF encoder cannot express {type(con).__name__} ({con.name})")
            if fixed is not None:
                b.clauses[start:] = simplify(b.clauses[start:], fixed)
    return b.top, b.clauses


def check_options(encoding: str, amo: str) -> None:
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown CNF encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    if amo not in AMO_ENCODINGS:
        raise UsageError(f"unknown at-most-one encoding {amo!r}; choose one of {', '.join(AMO_ENCODINGS)}")


def structure_key(puzzle: Puzzle) -> tuple:
    """What a puzzle's formula depends on besides its givens (the kind says)."""
    return puzzle.structure()


_BASE: dict[tuple, tuple[int, list[list[int]]]] = {}


def base_formula(puzzle: Puzzle, encoding: str, amo: str) -> tuple[tuple, int, list[list[int]]]:
    """The formula of the puzzle's shape without givens, built once per shape (cached):
    ``(key, n_vars, clauses)``.  The clause lists are shared: never modify them."""
    key = (structure_key(puzzle), encoding, amo)
    hit = _BASE.get(key)
    if hit is None:
        rules = puzzle.rules
        hit = _encode_constraints(rules, encoding, amo)
        if len(_BASE) > 64:
            _BASE.clear()
        _BASE[key] = hit
    return key, hit[0], hit[1]


def header_fields(puzzle: Puzzle) -> dict[str, str]:
    """What the DIMACS header says about the puzzle so that decoding needs nothing else."""
    return {"kind": puzzle.kind, "shape": puzzle.shape, "cells": str(puzzle.n_cells),
            "values": str(puzzle.n_values), "givens": " ".join(map(str, puzzle.givens)), **puzzle.header()}


def givens_decisions(rules: Rules) -> dict[int, bool]:
    """Variables the givens decide (Kwon & Jain's optimized encoding): the given candidate is
    true; the other candidates of its cell, and every candidate sharing a one-of constraint
    or an ``AllDifferent`` value with it, are false."""
    n = rules.n_values
    fixed: dict[int, bool] = {}
    given_vars = {candidate(c, g, n) + 1 for c, g in enumerate(rules.givens) if g}
    for var in given_vars:
        fixed[var] = True
    for con in rules.constraints:
        if isinstance(con, (ExactlyOne, AtMostOne)):
            lits = [c + 1 for c in con.candidates]
            if any(v in given_vars for v in lits):
                for v in lits:
                    fixed.setdefault(v, False)
        elif isinstance(con, AllDifferent):
            for cell in con.cells:
                g = rules.givens[cell]
                if g:
                    for other in con.cells:
                        fixed.setdefault(candidate(other, g, n) + 1, False)
    for c, g in enumerate(rules.givens):
        if g:
            for v in range(1, n + 1):
                fixed.setdefault(candidate(c, v, n) + 1, False)
    return fixed


def simplify(clauses: list[list[int]], fixed: dict[int, bool]) -> list[list[int]]:
    """Drop the clauses a fixed literal satisfies and the fixed-false literals of the rest."""
    out = []
    for clause in clauses:
        kept = []
        for lit in clause:
            value = fixed.get(abs(lit))
            if value is None:
                kept.append(lit)
            elif value == (lit > 0):
                break
        else:
            out.append(kept)
    return out


def encode(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO) -> Cnf:
    """The CNF of ``puzzle``: the shape's cached formula plus a unit clause per given, or,
    for ``optimized``, the formula with the givens propagated away.

    Encodings, named as the Sudoku literature names them (Kwon & Jain, "Optimized CNF Encoding for
    Sudoku Puzzles", 2006; Lynce & Ouaknine, "Sudoku as a SAT Problem", 2006):

    - ``minimal``:   every cell has at least one value; every row/column/block (every
      ``AllDifferent``) has each value at most once.  A cell may not get two values in a model
      because ``n`` cells that each take a value and never repeat one fill the unit exactly
      (pigeonhole), so solutions still decode one value per cell.
    - ``efficient``: minimal + each cell has at most one value.
    - ``extended``:  efficient + each ``AllDifferent`` over as many cells as values has each
      value at least once (the redundant clauses that let unit propagation find hidden singles).
    - ``optimized``: extended with the givens propagated away first (Kwon & Jain): the given
      candidates are true, the candidates they exclude are false, and only the clauses still
      open, over undecided variables, remain; no unit clause per given.
    - ``augmented``: the representation of Tom Dillon's tdoku benchmark (its best minisat
      entry, "augmented"), derived from the vocabulary: for an ``AllDifferent`` unit ``U`` holding
      every value once, the other such units meeting it in two cells or more give
      *intersections*; pairwise disjoint intersections covering ``U`` are a *partition* of ``U``
      (a Sudoku row: its three block segments; a block: its row segments, and separately its
      column segments; rectangular blocks alike).  Each intersection ``I`` and value ``v`` used
      by a partition gets a *triad* variable ``t(I,v)``, true when ``v`` is in ``I``: exactly one
      of ``{x(c,v) : c in I} + {not t(I,v)}`` (at most one cell of ``I`` has ``v``, and ``t`` iff
      one does).  Each partition of ``U`` then gets, per value, exactly one of its triads; a unit
      with no partition keeps the extended clauses.  Cells keep their exactly-one.  9x9: 729 +
      486 variables, 7,695 clauses (81 x 37 cell clauses, 486 x 7 triad clauses, 324 x 4
      partition clauses).  Skyscrapers lines and the N-Queens columns meet no other unit in two
      cells, so there ``augmented`` is ``extended``.

    ``ExactlyOne`` constraints that are not a cell's value (none in the built-in kinds but the
    cell constraints) and ``AtMostOne`` constraints (N-Queens diagonals) are always encoded in
    full.  ``Visibility`` (Skyscrapers) uses auxiliary variables: ``g[i][v]`` "one of the first
    ``i+1`` cells seen from the clue is ``>= v``" and ``vis[i]`` "cell ``i`` is seen", tied by
    ``x[i][v] and not g[i-1][v] -> vis[i]`` and ``x[i][v] and g[i-1][v] -> not vis[i]``, then
    exactly ``clue`` of the ``vis`` variables are true (PySAT's ``CardEnc``, sequential counter).
    ``Less`` (Futoshiki's signs) is one binary clause per pair of values that breaks it and
    one support clause per value (:func:`less_clauses`).
    ``Cage`` (Killer Sudoku, KenKen) gets one auxiliary variable per admissible filling
    (:meth:`~puzzlebench.models.vocabulary.Cage.fillings`): at least one filling, and each filling
    implies its cells' candidates.  Where the cage's cells are pairwise different (every two share
    an ``AllDifferent``: a Killer cage) a filling is a *set* of values and implies "each cell takes
    one of them" and "each of them is in some cell"; otherwise a tuple, implying each cell's value, and implied back by them (the
    clause ``not x1 or … or f``, which lets propagation find the filling).  Either way the values
    decide which filling is true (two fillings cannot hold at once: a tuple fixes every value, and
    k different values in a k-set are that set), so a count of models is a count of solutions.

    At-most-one encodings (option ``amo``): ``pairwise`` (binomial, no auxiliary variable: the
    encoding whose clause counts the literature quotes), ``commander`` (Klieber & Kwon,
    "Efficient CNF Encoding for Selecting 1 from N Objects", 2007: groups of 3, commander
    variables, recursively), and PySAT's ``CardEnc`` encodings ``seqcounter`` (Sinz 2005),
    ``ladder``, ``bitwise``, ``totalizer`` and ``cardnetwrk``."""
    if encoding not in ENCODINGS or amo not in AMO_ENCODINGS:
        check_options(encoding, amo)
    n = puzzle.n_values
    if encoding == "optimized":
        fixed = givens_decisions(puzzle.rules)
        top, clauses = _encode_constraints(puzzle.rules, "extended", amo, fixed)
        return Cnf(top, clauses, [], puzzle.n_cells, n, puzzle.givens, encoding,
                   amo, puzzle.kind, puzzle.shape, fixed=fixed, puzzle=puzzle)
    key, top, clauses = base_formula(puzzle, encoding, amo)
    givens = puzzle.givens
    units = list(compress(map(add, range(0, len(givens) * n, n), givens), givens))
    return Cnf(top, clauses, units, len(givens), n, givens, encoding, amo, puzzle.kind, puzzle.shape,
               base_key=key, puzzle=puzzle)


@lru_cache(maxsize=None)
def empty_grid_clause_count(box: tuple[int, int], encoding: str, amo: str = "pairwise") -> int:
    """Clauses of the empty Sudoku grid of ``box`` blocks (the figures the literature quotes)."""
    from ..models.sudoku import Sudoku

    r, c = box
    return encode(Sudoku(box, [0] * (r * c) ** 2), encoding, amo).n_clauses


# -- the memory budget (encoders/budget.py) ------------------------------------------------------

def _amo_size(k: int, amo: str) -> tuple[int, int]:
    """(clauses, literals) of an at-most-one over ``k`` literals: pairwise k(k-1)/2 binary
    clauses; bitwise k·log2 k binary ones; the others a few ternary clauses a literal."""
    if k <= 1:
        return 0, 0
    if amo == "pairwise" or k == 2:
        pairs = k * (k - 1) // 2
        return pairs, 2 * pairs
    if amo == "bitwise":
        bits = (k - 1).bit_length()
        return k * bits, 2 * k * bits
    return 4 * k, 12 * k


_SIZES: dict[tuple, tuple[int, int]] = {}


def formula_size(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO) -> tuple[int, int]:
    """(clauses, literals) of the puzzle's formula, counted from its constraints without making
    it (``augmented`` counted as ``extended``, which it replaces in part; for ``optimized``, the
    one-of groups' open literals, the other constraints whole); once per shape, as the formula,
    but for ``optimized``, whose formula is each puzzle's."""
    if encoding == "optimized":
        return _count_formula(puzzle, encoding, amo)
    key = (structure_key(puzzle), encoding, amo)
    size = _SIZES.get(key)
    if size is None:
        if len(_SIZES) > 64:
            _SIZES.clear()
        size = _SIZES[key] = _count_formula(puzzle, encoding, amo)
    return size


def _count_formula(puzzle: Puzzle, encoding: str, amo: str) -> tuple[int, int]:
    n = puzzle.n_values
    clauses = literals = 0
    fixed = givens_decisions(puzzle.rules) if encoding == "optimized" else None

    def group(lits, at_least: bool, at_most: bool) -> None:
        """As :func:`_one_of_group` encodes it: with ``fixed``, a group a given settles is
        gone, the others keep their open literals."""
        nonlocal clauses, literals
        if fixed is None:
            k = len(lits)
        elif any(fixed.get(lit) for lit in lits):
            return
        else:
            k = sum(1 for lit in lits if lit not in fixed)
        if at_least:
            clauses, literals = clauses + 1, literals + k
        if at_most:
            c, l = _amo_size(k, amo)
            clauses, literals = clauses + c, literals + l

    for con in puzzle.rules.constraints:
        if isinstance(con, ExactlyOne):
            group([c + 1 for c in con.candidates], True, encoding != "minimal" or not is_cell_constraint(con, n))
        elif isinstance(con, AtMostOne):
            group([c + 1 for c in con.candidates], False, True)
        elif isinstance(con, AllDifferent):
            full = len(con.cells) == n and encoding != "minimal" and encoding != "efficient"
            for v in range(1, n + 1):
                group([candidate(cell, v, n) + 1 for cell in con.cells] if fixed is not None else con.cells,
                      full, True)
        elif isinstance(con, Visibility):   # 2 clauses a height a cell, n+1 a threshold, the count
            m = len(con.cells)
            clauses, literals = clauses + 3 * m * n + 4 * m, literals + 8 * m * n + 12 * m
        elif isinstance(con, Less):
            clauses, literals = clauses + n * (n + 1) // 2 + 2 * n, literals + n * (n + 1) + n * (n + 3)
        elif isinstance(con, Cage):   # a filling's clauses: a few a cell (its fillings not counted)
            m = len(con.cells)
            clauses, literals = clauses + m * n * (m + 1), literals + m * n * (m + 1) * (m + 2)
    return clauses, literals


def estimated_bytes(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                    per_clause: int = 0, per_literal: int = 0) -> int:
    """What :func:`encode` takes for ``puzzle`` (its clause lists), before it is made; and
    ``per_clause`` and ``per_literal`` bytes more (a solver's copy, a text)."""
    clauses, literals = formula_size(puzzle, encoding, amo)
    return clauses * (LIST_BYTES + per_clause) + literals * (ITEM_BYTES + INT_BYTES + per_literal)


def estimated_export_bytes(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                           whole_texts: int = 0) -> int:
    """:func:`estimated_bytes` and the DIMACS text written from it: a piece of it
    (:meth:`Cnf.pieces`: a line a clause, a string each, and their join), and ``whole_texts``
    copies of the whole text held at once (a literal's digits, its sign and a space; ``0`` and
    a newline a clause)."""
    clauses, literals = formula_size(puzzle, encoding, amo)
    digits = len(str(puzzle.n_cells * puzzle.n_values)) + 2
    share = min(clauses, DIMACS_PIECE) / max(clauses, 1)
    piece = share * (clauses * (STR_BYTES + ITEM_BYTES + 2 * 2) + literals * 2 * digits)
    return estimated_bytes(puzzle, encoding, amo, per_clause=2 * whole_texts,
                           per_literal=digits * whole_texts) + int(piece)


def export_dimacs(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO) -> Cnf:
    """The export target ``dimacs``: the puzzle's CNF, which ``write()`` turns into DIMACS."""
    return encode(puzzle, encoding, amo)
