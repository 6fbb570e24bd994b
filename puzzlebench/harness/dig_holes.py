"""Seeded generators of proper (unique) puzzles, for the sizes no public set covers: Sudoku
with 2x3 or 3x4 blocks, Skyscrapers.  The embedded examples ``sudoku6``, ``sudoku12`` and
``skyscrapers5`` were made by these functions (the tests make them again from their seeds).

Method (the classic "dig holes" generator): a random solution — the pattern grid
``(cols*(i % rows) + i // rows + j) % N`` with bands, rows within bands, stacks, columns within
stacks and digits shuffled (the Sudoku symmetries), or for Skyscrapers a cyclic Latin square
with rows, columns and symbols shuffled, and all its visibility clues — then each given (or
clue) in a seeded random order is removed when the puzzle still has exactly one solution
(counted by the ``mrv`` engine, limit 2).  The result is minimal: no given can be removed.
"""

from __future__ import annotations

import random

from ..models.skyscrapers import Skyscrapers, clues_shown
from ..models.sudoku import Sudoku


def _unique(puzzle) -> bool:
    from ..solvers.mrv import MrvEngine
    return MrvEngine().run(puzzle, limit=2, verify=False).count == 1


def sudoku_solution(box: tuple[int, int], rng: random.Random) -> list[int]:
    """A random full grid of ``box`` blocks (rows x columns)."""
    r, c = box
    n = r * c
    base = [[(c * (i % r) + i // r + j) % n + 1 for j in range(n)] for i in range(n)]
    bands = list(range(c))
    rng.shuffle(bands)
    rows = [b * r + i for b in bands for i in rng.sample(range(r), r)]
    stacks = list(range(r))
    rng.shuffle(stacks)
    cols = [s * c + j for s in stacks for j in rng.sample(range(c), c)]
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    return [relabel[base[i][j] - 1] for i in rows for j in cols]


def generate_sudoku(box: tuple[int, int], seed: int) -> tuple[Sudoku, tuple[int, ...]]:
    """A minimal unique Sudoku with ``box`` blocks, and its solution."""
    rng = random.Random(seed)
    solution = sudoku_solution(box, rng)
    givens = list(solution)
    order = list(range(len(givens)))
    rng.shuffle(order)
    for cell in order:
        value, givens[cell] = givens[cell], 0
        if not _unique(Sudoku(box, givens)):
            givens[cell] = value
    return Sudoku(box, givens), tuple(solution)


def generate_skyscrapers(n: int, seed: int) -> tuple[Skyscrapers, tuple[int, ...]]:
    """A unique Skyscrapers of size ``n`` with clues only (minimal), and its solution.
    Latin squares whose full clue set allows several solutions are drawn again."""
    rng = random.Random(seed)
    while True:
        rows, cols, symbols = rng.sample(range(n), n), rng.sample(range(n), n), rng.sample(range(1, n + 1), n)
        solution = [symbols[(rows[i] + cols[j]) % n] for i in range(n) for j in range(n)]
        clues = list(clues_shown(n, solution).values())
        if _unique(Skyscrapers(n, *clues)):
            break
    slots = [(side, k) for side in range(4) for k in range(n)]
    rng.shuffle(slots)
    for side, k in slots:
        value, clues[side][k] = clues[side][k], 0
        if not _unique(Skyscrapers(n, *clues)):
            clues[side][k] = value
    return Skyscrapers(n, *clues), tuple(solution)
