"""The shared vocabulary in which every puzzle kind states its rules once.

A puzzle is a set of *cells*, each taking exactly one *value* from ``1..n_values``; a
*candidate* is the statement "cell = value", numbered ``cell * n_values + (value - 1)``
(:func:`candidate`), so that an encoder never needs a table.  The constraints are few and
general (:class:`ExactlyOne`, :class:`AtMostOne`, :class:`AllDifferent`, :class:`Visibility`,
:class:`Less`, :class:`Cage`; :class:`Rules` lists what each says), and the givens are part of
the rules.  Why: every encoder works from :class:`Rules` alone, so that a new puzzle kind
needs no new encoder unless it brings a new kind of constraint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Iterator, Sequence, Union

from ..errors import EngineError


def candidate(cell: int, value: int, n_values: int) -> int:
    """Index of the candidate "cell = value" (value counts from 1, cells from 0)."""
    return cell * n_values + value - 1


def candidate_cell_value(index: int, n_values: int) -> tuple[int, int]:
    """Inverse of :func:`candidate`: ``(cell, value)``."""
    cell, rest = divmod(index, n_values)
    return cell, rest + 1


@dataclass(frozen=True)
class ExactlyOne:
    candidates: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class AtMostOne:
    candidates: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class AllDifferent:
    cells: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class Visibility:
    """``clue`` towers are seen along ``cells`` (listed from the viewer outwards)."""

    cells: tuple[int, ...]
    clue: int
    name: str


@dataclass(frozen=True)
class Less:
    """The value of cell ``smaller`` is less than the value of cell ``larger``."""

    smaller: int
    larger: int
    name: str


CAGE_OPERATIONS = ("+", "-", "*", "/")


@dataclass(frozen=True)
class Cage:
    """The values of ``cells`` combined by ``op`` make ``target``: ``+`` their sum, ``*``
    their product, ``-`` and ``/`` (two cells) the larger minus, or divided by, the smaller.
    One cell: its value is ``target``, whatever ``op``."""

    cells: tuple[int, ...]
    op: str
    target: int
    name: str

    def value_of(self, values: Sequence[int]) -> int | None:
        """What ``values`` (one per cell, in order) make under ``op``; ``None`` when a
        quotient is not a whole number."""
        if len(values) == 1:
            return values[0]
        if self.op == "+":
            return sum(values)
        if self.op == "*":
            product = 1
            for v in values:
                product *= v
            return product
        high, low = max(values), min(values)
        if self.op == "-":
            return high - low
        return high // low if high % low == 0 else None

    def holds(self, values: Sequence[int]) -> bool:
        return self.value_of(values) == self.target

    def fillings(self, n_values: int, distinct: bool = False) -> tuple[tuple[int, ...], ...]:
        """The admissible fillings of the cage with values ``1..n_values``.

        ``distinct=False``: every tuple of values, one per cell in ``cells`` order, that makes
        the target.  ``distinct=True`` (the cells must take different values, as a Killer
        cage's or a KenKen cage within one line): every *set* of ``len(cells)`` different
        values that makes it, as an increasing tuple; the cells take them in some order."""
        try:
            return cage_fillings(self.op, self.target, len(self.cells), n_values, distinct)
        except _TooMany:
            raise EngineError(f"{self.name}: more than {MAX_FILLING_VALUES // len(self.cells):,} "
                              f"{'sets of different values' if distinct else 'fillings'} of 1..{n_values} "
                              f"make {self.target}{self.op}: too many to list for an encoding") from None

    def fillable(self, n_values: int, distinct: bool = False) -> bool:
        """Whether some filling makes the target, found without listing them all (a 27-cell
        sum cage has more fillings than any memory holds; listing them to see whether there
        is one would take the reader 7 GB and more than a minute)."""
        return cage_fillable(self.op, self.target, len(self.cells), n_values, distinct)


MAX_FILLING_VALUES = 10_000_000
"""At most this many values (fillings x cells) listed for one cage, about 100 MB: an engine
that asks for more gets an error naming the cage rather than a search that outgrows the
machine, looking at no clock (a 7-cell sum cage of a 9x9 KenKen has at most 215,000
fillings, 1.5 million values)."""


class _TooMany(Exception):
    """A cage's fillings passed :data:`MAX_FILLING_VALUES`."""


@lru_cache(maxsize=4096)
def cage_fillable(op: str, target: int, size: int, n_values: int, distinct: bool) -> bool:
    """:meth:`Cage.fillable`: bounds for sums, a search stopping at the first for products."""
    if size == 1:
        return 1 <= target <= n_values
    if op in ("-", "/"):
        return size == 2 and bool(cage_fillings(op, target, size, n_values, distinct))
    if distinct and size > n_values:
        return False
    if op == "+":
        if distinct:   # every sum between the smallest and the largest set is some set's
            return size * (size + 1) // 2 <= target <= size * (2 * n_values - size + 1) // 2
        return size <= target <= size * n_values

    def splits(quotient: int, count: int, top: int) -> bool:
        """``quotient`` as exactly ``count`` factors of 2..top, each at most the one before
        (distinct: below it)."""
        if count == 0:
            return quotient == 1
        if count >= quotient.bit_length():   # each factor at least doubles the product
            return False
        for v in range(min(top, quotient), 1, -1):
            if quotient % v == 0 and splits(quotient // v, count - 1, v - 1 if distinct else v):
                return True
        return False

    if target < 1:
        return False
    if distinct:   # the values other than a 1
        return splits(target, size, n_values) or splits(target, size - 1, n_values)
    return any(splits(target, k, n_values) for k in range(min(size, target.bit_length()) + 1))


@lru_cache(maxsize=4096)
def cage_fillings(op: str, target: int, size: int, n_values: int, distinct: bool) -> tuple[tuple[int, ...], ...]:
    """:meth:`Cage.fillings` by a search over values, pruned by the partial sum or product
    (a product cage keeps only divisors of its target), cached: a puzzle's cages repeat.
    Past :data:`MAX_FILLING_VALUES` values, :class:`_TooMany`."""
    budget = max(1, MAX_FILLING_VALUES // size)
    if size == 1:
        return ((target,),) if 1 <= target <= n_values else ()
    if op in ("-", "/"):
        if size != 2:
            return ()
        pairs = [(a, b) for a in range(1, n_values + 1) for b in range(1, n_values + 1)
                 if a != b or not distinct]
        good = [(a, b) for a, b in pairs
                if (max(a, b) - min(a, b) if op == "-" else
                    (max(a, b) // min(a, b) if max(a, b) % min(a, b) == 0 else None)) == target]
        return tuple(p for p in good if not distinct or p[0] < p[1])
    out: list[tuple[int, ...]] = []
    prefix: list[int] = []

    def extend(left: int, acc: int) -> None:
        if left == 0:
            if acc == target:
                if len(out) >= budget:
                    raise _TooMany
                out.append(tuple(prefix))
            return
        low = prefix[-1] + 1 if distinct and prefix else 1
        for v in range(low, n_values + 1):
            if op == "+":
                rest = acc + v
                # the other cells add at least 1 each (distinct: at least v+1, v+2, …)
                least = rest + (sum(range(v + 1, v + left)) if distinct else left - 1)
                if least > target:
                    break
                most = rest + (left - 1) * n_values
                if most < target:
                    continue
            else:
                rest = acc * v
                if target % rest:
                    continue
            prefix.append(v)
            extend(left - 1, rest)
            prefix.pop()

    extend(size, 0 if op == "+" else 1)
    return tuple(out)


def different_groups(rules: "Rules") -> list[set[int]]:
    """For each cell, the indices of the ``AllDifferent`` constraints holding it (made once per
    encoding: :func:`pairwise_different` asks it for every cage)."""
    groups: list[set[int]] = [set() for _ in range(rules.n_cells)]
    for k, con in enumerate(rules.constraints):
        if isinstance(con, AllDifferent):
            for c in con.cells:
                groups[c].add(k)
    return groups


def pairwise_different(rules: "Rules", cells: Sequence[int], groups: list[set[int]] | None = None) -> bool:
    """Whether every two of ``cells`` share an ``AllDifferent`` of ``rules`` (so that they
    take different values: a Killer cage, a KenKen cage inside one row); ``groups`` is
    :func:`different_groups` when the caller has it."""
    groups = groups if groups is not None else different_groups(rules)
    return all(groups[a] & groups[b] for i, a in enumerate(cells) for b in cells[i + 1:])


def cage_problem(cage: Cage, n_values: int, distinct: bool) -> str | None:
    """Why no filling of values ``1..n_values`` can make ``cage``'s target (a rule of the
    kinds with cages: such a cage is refused when the puzzle is built), or ``None``."""
    if cage.op not in CAGE_OPERATIONS:
        return f"{cage.name}: unknown operation {cage.op!r} (one of {' '.join(CAGE_OPERATIONS)})"
    if cage.op in ("-", "/") and len(cage.cells) != 2:
        return f"{cage.name}: a {cage.op} cage has two cells; this one has {len(cage.cells)}"
    if len(cage.cells) == 1 and not cage.fillable(n_values, distinct):
        return f"{cage.name}: {cage.target} is not a value of 1..{n_values}"
    if not cage.fillable(n_values, distinct):
        values = "different values" if distinct and len(cage.cells) > 1 else "values"
        return (f"{cage.name}: no {len(cage.cells)} {values} of 1..{n_values} make "
                f"{cage.target}{'' if len(cage.cells) == 1 else cage.op}")
    return None


Constraint = Union[ExactlyOne, AtMostOne, AllDifferent, Visibility, Less, Cage]


def repeated(values: Sequence[int], cells: Iterable[int]) -> int | None:
    """The first of ``cells`` whose value (0 = empty) an earlier one of them holds too — the
    second of two, where a reader places the error — or ``None``."""
    seen: set[int] = set()
    for c in cells:
        v = values[c]
        if v:
            if v in seen:
                return c
            seen.add(v)
    return None


def visible_count(heights: Sequence[int]) -> int:
    """How many of ``heights`` (listed from the viewer outwards) are seen: each one taller
    than all before it."""
    seen, tallest = 0, 0
    for h in heights:
        if h > tallest:
            seen, tallest = seen + 1, h
    return seen


@dataclass(frozen=True)
class Rules:
    """A puzzle stated in the shared vocabulary.

    ``cell_names[i]`` is how messages name cell ``i`` (``r3c5``, 1-based).  Every cell takes
    exactly one value: the kinds state that with an :class:`ExactlyOne` per cell, so that the
    list of constraints is the whole statement.
    

    Constraints:

    - :class:`ExactlyOne` over candidates — exactly one of them is true (a cell's value; a
      Sudoku row holding a digit once).
    - :class:`AtMostOne` over candidates — at most one is true (an N-Queens diagonal).
    - :class:`AllDifferent` over cells — the cells take pairwise different values (a Sudoku
      unit, a Latin-square line).  When there are as many cells as values this also says every
      value appears once, which encoders may use (exact cover turns it into primary items).
    - :class:`Visibility` over cells — seen from the clue's side (``cells`` is listed from the
      viewer outwards), exactly ``clue`` cells are higher than every cell before them.
    - :class:`Less` over two cells — the value of ``smaller`` is less than that of ``larger``
      (a Futoshiki inequality sign).
    - :class:`Cage` over cells — the cells' values combined by ``op`` (``+`` sum, ``*`` product,
      ``-`` difference, ``/`` quotient; the last two on two cells, larger over smaller) make
      ``target`` (a Killer Sudoku cage, a KenKen cage).  A cage says nothing of repeats: a Killer
      cage is a ``Cage`` plus an ``AllDifferent`` over the same cells.  :meth:`Cage.fillings`
      lists the value tuples that make the target, which is how most encoders state it."""

    n_cells: int
    n_values: int
    givens: tuple[int, ...]
    constraints: tuple[Constraint, ...]
    cell_names: tuple[str, ...] = field(repr=False, default=())

    @property
    def n_candidates(self) -> int:
        return self.n_cells * self.n_values

    def of_type(self, kind: type) -> Iterator:
        return (c for c in self.constraints if isinstance(c, kind))

    def cell_name(self, cell: int) -> str:
        return self.cell_names[cell] if self.cell_names else f"cell {cell + 1}"

    def violations(self, solution: Sequence[int]) -> list[str]:
        """Every constraint that ``solution`` (a value per cell) breaks, by name.

        A generic checker over the vocabulary.  Each kind also has its own ``check``,
        written without the vocabulary; the tests make the two agree, so that a mistake in a
        kind's rules cannot hide behind a mistake in its checker.
        """
        n = self.n_values
        if len(solution) != self.n_cells:
            return [f"expected {self.n_cells} values, got {len(solution)}"]
        bad = [f"{self.cell_name(c)} has value {v}, outside 1..{n}"
               for c, v in enumerate(solution) if not 1 <= v <= n]
        if bad:
            return bad
        true = {candidate(c, v, n) for c, v in enumerate(solution)}
        out = [f"{self.cell_name(c)} is given as {g}, not {solution[c]}"
               for c, g in enumerate(self.givens) if g and g != solution[c]]
        for con in self.constraints:
            if isinstance(con, ExactlyOne):
                k = sum(1 for x in con.candidates if x in true)
                if k != 1:
                    out.append(f"{con.name}: {k} true, expected exactly one")
            elif isinstance(con, AtMostOne):
                k = sum(1 for x in con.candidates if x in true)
                if k > 1:
                    out.append(f"{con.name}: {k} true, expected at most one")
            elif isinstance(con, AllDifferent):
                values = [solution[c] for c in con.cells]
                if len(set(values)) != len(values):
                    out.append(f"{con.name}: values repeat")
            elif isinstance(con, Visibility):
                seen = visible_count([solution[c] for c in con.cells])
                if seen != con.clue:
                    out.append(f"{con.name}: {seen} seen, clue says {con.clue}")
            elif isinstance(con, Less):
                if not solution[con.smaller] < solution[con.larger]:
                    out.append(f"{con.name}: {solution[con.smaller]} is not less than {solution[con.larger]}")
            elif isinstance(con, Cage):
                values = [solution[c] for c in con.cells]
                if not con.holds(values):
                    made = con.value_of(values)
                    out.append(f"{con.name}: the values make {'no whole number' if made is None else made}, "
                               f"the cage says {con.target}")
        return out


def grid_rules(n: int, givens: Sequence[int], units: Iterable[tuple[str, tuple[int, ...]]]) -> Rules:
    """The rules of an N x N grid of values 1..N whose ``units`` (named groups of N cells)
    each hold every value once: one value per cell (``ExactlyOne``), an ``AllDifferent`` per
    unit.  Sudoku, Sudoku-X and Latin squares are this with other units."""
    names = tuple(f"r{i // n + 1}c{i % n + 1}" for i in range(n * n))
    cells = tuple(ExactlyOne(tuple(candidate(cell, v, n) for v in range(1, n + 1)), f"cell {names[cell]}")
                  for cell in range(n * n))
    return Rules(n * n, n, tuple(givens), cells + tuple(AllDifferent(c, name) for name, c in units), names)
