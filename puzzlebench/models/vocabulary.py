"""The shared vocabulary in which every puzzle kind states its rules once.

A puzzle is a set of *cells*, each taking exactly one *value* from ``1..n_values``.  A
*candidate* is the statement "cell = value"; candidates are numbered
``cell * n_values + (value - 1)`` (see :func:`candidate`), so an encoder never needs a table.

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

Givens are part of the rules (``Rules.givens``, ``0`` for an empty cell).  Every encoder
works from :class:`Rules` alone, so a new puzzle kind needs no new encoder unless it brings
a new kind of constraint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence, Union


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


Constraint = Union[ExactlyOne, AtMostOne, AllDifferent, Visibility, Less]


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
    """

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
        return out


def grid_rules(n: int, givens: Sequence[int], units: Iterable[tuple[str, tuple[int, ...]]]) -> Rules:
    """The rules of an N x N grid of values 1..N whose ``units`` (named groups of N cells)
    each hold every value once: one value per cell (``ExactlyOne``), an ``AllDifferent`` per
    unit.  Sudoku, Sudoku-X and Latin squares are this with other units."""
    names = tuple(f"r{i // n + 1}c{i % n + 1}" for i in range(n * n))
    cells = tuple(ExactlyOne(tuple(candidate(cell, v, n) for v in range(1, n + 1)), f"cell {names[cell]}")
                  for cell in range(n * n))
    return Rules(n * n, n, tuple(givens), cells + tuple(AllDifferent(c, name) for name, c in units), names)
