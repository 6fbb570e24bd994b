"""The recipe of the embedded examples ``sudoku6``, ``sudoku12`` and ``skyscrapers5``
(:mod:`puzzlebench.models.examples`): the tests make them again from their seeds.

A *pattern* grid (:func:`.fill.pattern_sudoku_grid`, :func:`.fill.pattern_latin_square`: fast,
not uniform), then every given, or every visibility clue, dug in a seeded random order: a
minimal puzzle.
"""

from __future__ import annotations

import random

from ..models.skyscrapers import Skyscrapers, clues_shown
from ..models.sudoku import Sudoku
from .dig import Counter, dig
from .fill import pattern_latin_square, pattern_sudoku_grid


def example_sudoku(box: tuple[int, int], seed: int) -> tuple[Sudoku, tuple[int, ...]]:
    """A minimal unique Sudoku with ``box`` blocks, and its solution."""
    rng = random.Random(seed)
    solution = pattern_sudoku_grid(box, rng)
    order = list(range(len(solution)))
    rng.shuffle(order)
    counter = Counter("sudoku")

    def givens(cells: list) -> list[int]:
        kept = set(cells)
        return [v if cell in kept else 0 for cell, v in enumerate(solution)]
    kept = dig(range(len(solution)), order, lambda cells, _: counter.unique(Sudoku(box, givens(cells))))
    return Sudoku(box, givens(kept)), tuple(solution)


def example_skyscrapers(n: int, seed: int) -> tuple[Skyscrapers, tuple[int, ...]]:
    """A unique Skyscrapers of size ``n`` with clues only (minimal), and its solution.
    Latin squares whose full clue set allows several solutions are drawn again."""
    rng = random.Random(seed)
    counter = Counter("skyscrapers")
    while True:
        solution = pattern_latin_square(n, rng)
        clues = list(clues_shown(n, solution).values())
        if counter.unique(Skyscrapers(n, *clues)):
            break
    slots = [(side, k) for side in range(4) for k in range(n)]
    order = list(range(len(slots)))
    rng.shuffle(order)

    def puzzle(kept: list) -> Skyscrapers:
        shown = set(kept)
        return Skyscrapers(n, *[[v if (side, k) in shown else 0 for k, v in enumerate(values)]
                                for side, values in enumerate(clues)])
    kept = dig(slots, order, lambda kept, _: counter.unique(puzzle(kept)))
    return puzzle(kept), tuple(solution)
