"""Uniformly random Latin squares (Jacobson and Matthews, "Generating uniformly distributed
random Latin squares", Journal of Combinatorial Designs 4(6), 1996) and the Latin square
completions made from them, quasigroups with holes (QWH: Achlioptas, Gomes, Kautz and Selman,
"Generating satisfiable problem instances", AAAI 2000): a random square with a share of its
cells emptied, uniformly or balanced over rows and columns (Kautz, Ruan, Achlioptas, Gomes,
Selman and Stickel, "Balance and filtering in structured satisfiable problems", IJCAI 2001).
The square solves the instance: satisfiable by construction, no solver involved.

Every random choice comes from the ``random.Random`` handed in: the same seed, the same squares.
"""

from __future__ import annotations

import random

from ..errors import UsageError
from ..models.latin import MAX_N, LatinSquare


class IncidenceCube:
    """A Latin square of order ``n`` as the incidence cube of Jacobson and Matthews, proper
    or improper, with the 1s of every line kept in lists so that a move costs O(1).

    A Latin square of order N is its *incidence cube*: f(r, c, s) = 1 when cell
    (r, c) holds symbol s, else 0, and every line of the cube (fix two of r, c, s) sums to 1.
    The chain also visits *improper* cubes: one entry is -1, and the three lines through it
    hold two 1s each (every line still sums to 1).  A move picks a cell (r, c, s):
    from a proper cube one whose entry is 0, uniformly; from an improper one the -1 cell.  It
    then picks r', c', s' among the 1s of the lines through (r, c, s) (the only one in a proper
    cube, one of the two, uniformly, in an improper one) and adds 1 to (r, c, s), (r, c', s'),
    (r', c, s'), (r', c', s) and takes 1 from (r, c, s'), (r, c', s), (r', c, s), (r', c', s'):
    every line keeps its sum.  When (r', c', s') falls to -1 the cube is improper there.
    Jacobson and Matthews prove the chain connected and its stationary distribution uniform on
    the proper cubes: the Latin squares.  We start from the cyclic square and stop on a proper
    cube once N^2 moves were made from proper cubes: about N^3 moves in all, the usual mixing
    choice (see :func:`random_latin_square` for why those moves are the ones counted)."""

    def __init__(self, n: int):
        self.n = n
        self.entry = [0] * (n * n * n)          # f(r, c, s) at (r*n + c)*n + s
        self.symbols = [[] for _ in range(n * n)]   # line (r, c, .): the s with f = 1, at r*n + c
        self.columns = [[] for _ in range(n * n)]   # line (r, ., s): the c with f = 1, at r*n + s
        self.rows = [[] for _ in range(n * n)]      # line (., c, s): the r with f = 1, at c*n + s
        self.improper: tuple[int, int, int] | None = None
        for r in range(n):
            for c in range(n):
                self._add(r, c, (r + c) % n, 1)

    def _add(self, r: int, c: int, s: int, delta: int) -> None:
        n = self.n
        at = (r * n + c) * n + s
        before = self.entry[at]
        self.entry[at] = before + delta
        if before == 0 and delta == 1:
            self.symbols[r * n + c].append(s)
            self.columns[r * n + s].append(c)
            self.rows[c * n + s].append(r)
        elif before == 1 and delta == -1:
            self.symbols[r * n + c].remove(s)
            self.columns[r * n + s].remove(c)
            self.rows[c * n + s].remove(r)

    def move(self, rng: random.Random) -> None:
        """One move of the chain (a no-op for n = 1, whose one square has no 0 entry)."""
        n = self.n
        if n < 2:
            return
        if self.improper is None:
            r, c = rng.randrange(n), rng.randrange(n)
            held = self.symbols[r * n + c][0]
            s = rng.randrange(n - 1)
            s += s >= held                      # uniform over the n - 1 symbols that cell lacks
            s1 = held
            c1 = self.columns[r * n + s][0]
            r1 = self.rows[c * n + s][0]
        else:
            r, c, s = self.improper
            s1 = rng.choice(self.symbols[r * n + c])
            c1 = rng.choice(self.columns[r * n + s])
            r1 = rng.choice(self.rows[c * n + s])
        add = self._add
        # eight different entries (r != r1, c != c1, s != s1): the order of the updates is free
        add(r, c, s, 1)
        add(r, c1, s1, 1)
        add(r1, c, s1, 1)
        add(r1, c1, s, 1)
        add(r, c, s1, -1)
        add(r, c1, s, -1)
        add(r1, c, s, -1)
        add(r1, c1, s1, -1)
        self.improper = (r1, c1, s1) if self.entry[(r1 * n + c1) * n + s1] == -1 else None

    def square(self) -> list[int]:
        """The Latin square (values 1..n, row by row) of a proper cube."""
        if self.improper is not None:
            raise ValueError("an improper cube is no Latin square")
        return [line[0] + 1 for line in self.symbols]


def random_latin_square(n: int, rng: random.Random, proper_moves: int | None = None) -> list[int]:
    """A uniformly random Latin square of order ``n`` (values 1..n, row by row): the chain
    from the cyclic square until it has made ``proper_moves`` (default n^2) moves from proper
    cubes, and stands on a proper cube again.

    Why count the moves made from proper cubes: the proper cubes the chain visits, in order,
    are themselves a reversible chain with the uniform distribution (the chain watched on a
    subset), so its state after a fixed number of steps tends to uniform.  Making a fixed
    number of moves and then going on *until* a proper cube does not: it favours the squares
    from which the chain wanders longest through improper cubes (on order 4, 28,800 draws that
    way, after 64 or 640 moves, gave chi-squares of 4,771 and 5,007 on 575 degrees of freedom;
    this way 593).  Why n^2: a walk through improper cubes lasts about n moves (the chain
    spends most of its time there), so n^2 moves from proper cubes are about n^3 moves in
    all, the usual mixing choice (order 30: about 27,000 moves; order 4's 576 squares come out
    uniform at 16, not yet at 4)."""
    cube = IncidenceCube(n)
    target = n * n if proper_moves is None else proper_moves
    made = 0
    while True:
        if cube.improper is None:
            if made == target:
                return cube.square()
            made += 1
        cube.move(rng)


# -- holes -------------------------------------------------------------------------------------

def hole_count(n: int, share: float) -> int:
    """The number of holes a share of an n x n square makes (rounded to the nearest)."""
    return int(round(share * n * n))


def uniform_holes(n: int, holes: int, rng: random.Random) -> set[int]:
    """``holes`` cells chosen uniformly among the n^2."""
    return set(rng.sample(range(n * n), holes))


def balanced_holes(n: int, holes: int, rng: random.Random) -> set[int]:
    """``holes`` cells with the same number in every row and every column (within one): a
    circulant pattern of those degrees, rows and columns shuffled, then mixed by 2x2 switches."""
    per_line, extra = divmod(holes, n)
    pattern = {r * n + (r + k) % n for r in range(n) for k in range(per_line)}
    pattern |= {r * n + (r + per_line) % n for r in range(extra)}
    row_order, column_order = list(range(n)), list(range(n))
    rng.shuffle(row_order)
    rng.shuffle(column_order)
    cells = [row_order[cell // n] * n + column_order[cell % n] for cell in sorted(pattern)]
    chosen = set(cells)
    if 0 < holes < n * n:
        for _ in range(4 * len(cells)):
            i, j = rng.randrange(len(cells)), rng.randrange(len(cells))
            (r1, c1), (r2, c2) = divmod(cells[i], n), divmod(cells[j], n)
            a, b = r1 * n + c2, r2 * n + c1
            if r1 != r2 and c1 != c2 and a not in chosen and b not in chosen:
                chosen -= {cells[i], cells[j]}
                chosen |= {a, b}
                cells[i], cells[j] = a, b
    return chosen


def qwh_instance(n: int, share: float, rng: random.Random, *, balanced: bool = False) -> LatinSquare:
    """A quasigroup with holes: a uniformly random Latin square of order ``n`` with a share
    ``share`` of its cells emptied (uniformly, or ``balanced`` over rows and columns), written
    in the ``.pls`` form; the square stays in ``metadata['solution']``."""
    square = random_latin_square(n, rng)
    holes = hole_count(n, share)
    emptied = balanced_holes(n, holes, rng) if balanced else uniform_holes(n, holes, rng)
    givens = [0 if cell in emptied else v for cell, v in enumerate(square)]
    return LatinSquare(n, givens, form="pls",
                       metadata={"solution": " ".join(map(str, square)), "holes": str(holes),
                                 "pattern": "balanced" if balanced else "uniform"})


def check_qwh_arguments(n: int, share: float) -> None:
    """Refuse an order or a share of holes no QWH instance has, in one line each."""
    if not 1 <= n <= MAX_N:
        raise UsageError(f"--size: Latin square orders go from 1 to {MAX_N}; got {n}")
    if not 0 <= share <= 1:   # NaN fails too
        raise UsageError(f"--holes is a share of the cells, 0 to 1; got {share:g}")


def generate_qwh(n: int, rng: random.Random, holes: float = 0.42, balanced: bool = False) -> LatinSquare:
    """:func:`qwh_instance` after :func:`check_qwh_arguments`."""
    check_qwh_arguments(n, holes)
    return qwh_instance(n, holes, rng, balanced=balanced)
