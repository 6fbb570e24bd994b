"""Random Sudoku symmetries, so that no engine profits from a set's order or orientation.

A Sudoku with ``R x C`` blocks keeps its solution count under the validity-preserving
transformations (Felgenhauer & Jarvis, "Mathematics of Sudoku I", 2006): relabelling the
digits, permuting the rows inside a band and the bands, the columns inside a stack and the
stacks, and transposing when the blocks are square (a transposed ``2x3`` grid would have
``3x2`` blocks, another shape).  A transformation is a permutation of cells plus a
relabelling of values, applied alike to the givens and to a reference solution.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..models.sudoku import Sudoku


@dataclass(frozen=True)
class Symmetry:
    """``new[cell] = relabel[old[source_of[cell]]]``; ``relabel[0] = 0`` keeps empties empty."""

    source_of: tuple[int, ...]
    relabel: tuple[int, ...]

    def apply(self, values) -> tuple[int, ...]:
        return tuple(self.relabel[values[c]] for c in self.source_of)


def _grouped_permutation(groups: int, size: int, rng: random.Random) -> list[int]:
    """A permutation of ``groups*size`` lines that moves whole groups and lines inside them."""
    order = list(range(groups))
    rng.shuffle(order)
    lines = []
    for g in order:
        inner = list(range(size))
        rng.shuffle(inner)
        lines += [g * size + i for i in inner]
    return lines


def random_symmetry(box: tuple[int, int], rng: random.Random) -> Symmetry:
    r, c = box
    n = r * c
    rows = _grouped_permutation(n // r, r, rng)   # bands of r rows
    cols = _grouped_permutation(n // c, c, rng)   # stacks of c columns
    transpose = r == c and rng.random() < 0.5
    source_of = []
    for i in range(n):
        for j in range(n):
            si, sj = rows[i], cols[j]
            source_of.append(sj * n + si if transpose else si * n + sj)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return Symmetry(tuple(source_of), (0, *digits))


def scramble_sudoku(puzzle: Sudoku, rng: random.Random) -> Sudoku:
    """An equivalent Sudoku under a random symmetry; a reference ``solution`` in the metadata
    is transformed too."""
    sym = random_symmetry(puzzle.box, rng)
    metadata = {k: v for k, v in puzzle.metadata.items() if k != "solution"}
    ref = puzzle.metadata.get("solution")
    if ref:
        metadata["solution"] = puzzle.format_solution(sym.apply(puzzle.parse_solution(ref)))
    return Sudoku(puzzle.box, sym.apply(puzzle.givens), source=puzzle.source, form=puzzle.form,
                  empty=puzzle.empty, box_inferred=puzzle.box_inferred, metadata=metadata)
