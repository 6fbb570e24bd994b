"""Complete grids drawn at random: the solutions every generator starts from.

One grid filler (:func:`random_filling`, a shuffled search over any units), the Sudoku and
N-Queens solutions built on it or on its like, and the *pattern* grids (a fixed grid with its
symmetries shuffled) that made the embedded examples.  Uniformly random Latin squares are
:mod:`.latin`'s.  Every random choice comes from the ``random.Random`` handed in.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..errors import UsageError
from ..models.sudoku import Sudoku


def random_filling(n: int, units: Sequence[Sequence[int]], rng: random.Random,
                   tries: int | None = None) -> list[int] | None:
    """A complete grid of values 1..n in which no unit holds a value twice, by a randomly
    shuffled search: the cell with the fewest candidates first, its values in a random order.
    A search that makes 200,000 steps starts again (a rare dead end in a big grid); after
    ``tries`` starts (``None``: never) the units are taken to admit no grid: ``None``."""
    peer_sets = [set() for _ in range(n * n)]
    for unit in units:
        for cell in unit:
            peer_sets[cell].update(x for x in unit if x != cell)
    peers = [sorted(p) for p in peer_sets]
    full = (1 << n) - 1
    grid = [0] * (n * n)
    budget = [200_000]

    def candidates(cell: int) -> int:
        used = 0
        for p in peers[cell]:
            if grid[p]:
                used |= 1 << (grid[p] - 1)
        return full & ~used

    def fill() -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        best, best_mask, best_count = -1, 0, n + 1
        for cell in range(n * n):
            if not grid[cell]:
                mask = candidates(cell)
                k = mask.bit_count()
                if k < best_count:
                    best, best_mask, best_count = cell, mask, k
                    if k <= 1:
                        break
        if best < 0:
            return True
        values = [v + 1 for v in range(n) if best_mask >> v & 1]
        rng.shuffle(values)
        for v in values:
            grid[best] = v
            if fill():
                return True
        grid[best] = 0
        return False

    started = 1
    while not fill():
        if tries is not None and started >= tries:
            return None
        grid[:] = [0] * (n * n)
        budget[0] = 200_000
        started += 1
    return grid


def random_givens(n: int, units: Sequence[Sequence[int]], count: int, rng: random.Random) -> list[int]:
    """``count`` givens at random cells, each a value no unit of its cell holds yet."""
    givens = [0] * (n * n)
    units_of: dict[int, list[Sequence[int]]] = {}
    for unit in units:
        for cell in unit:
            units_of.setdefault(cell, []).append(unit)
    for cell in rng.sample(range(n * n), count):
        taken = {givens[c] for unit in units_of.get(cell, []) for c in unit}
        free = [v for v in range(1, n + 1) if v not in taken]
        if free:
            givens[cell] = rng.choice(free)
    return givens


def sudoku_units(box: tuple[int, int]) -> list[Sequence[int]]:
    """The cells of every row, column and block of a Sudoku with ``box`` blocks."""
    return [cells for _, cells in Sudoku(box, [0] * (box[0] * box[1]) ** 2).units()]


def random_full_grid(box: tuple[int, int], rng: random.Random) -> list[int]:
    """A complete Sudoku grid by the shuffled search (:func:`random_filling`)."""
    return random_filling(box[0] * box[1], sudoku_units(box), rng)


def pattern_sudoku_grid(box: tuple[int, int], rng: random.Random) -> list[int]:
    """A full grid of ``box`` blocks: the pattern ``(cols*(i % rows) + i // rows + j) % N``
    with bands, rows within bands, stacks, columns within stacks and digits shuffled (the
    Sudoku symmetries).  Fast at any size, far from uniform."""
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


def pattern_latin_square(n: int, rng: random.Random) -> list[int]:
    """The cyclic Latin square of order ``n`` with its rows, columns and symbols shuffled."""
    rows, cols, symbols = rng.sample(range(n), n), rng.sample(range(n), n), rng.sample(range(1, n + 1), n)
    return [symbols[(rows[i] + cols[j]) % n] for i in range(n) for j in range(n)]


def random_queens_solution(n: int, rng: random.Random) -> list[int]:
    """Columns (0-based) of a random N-Queens solution, by randomised backtracking."""
    if n in (2, 3):
        raise UsageError(f"{n}-queens has no solution")
    cols: list[int] = []
    used, d1, d2 = set(), set(), set()

    def place(row: int) -> bool:
        if row == n:
            return True
        options = [c for c in range(n) if c not in used and row + c not in d1 and row - c not in d2]
        rng.shuffle(options)
        for c in options:
            cols.append(c)
            used.add(c), d1.add(row + c), d2.add(row - c)
            if place(row + 1):
                return True
            cols.pop()
            used.discard(c), d1.discard(row + c), d2.discard(row - c)
        return False

    place(0)
    return cols
