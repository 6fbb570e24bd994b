"""Random small puzzles of the kinds the engines must agree on (test_properties.py holds every
engine to it; the interop tests hold the exported models to it), each the same for a seed."""

import random

from puzzlebench.generators.fill import random_full_grid, random_queens_solution
from puzzlebench.models.futoshiki import Futoshiki
from puzzlebench.models.kenken import KenKen
from puzzlebench.models.killer import KillerSudoku
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.vocabulary import Cage, visible_count


def random_latin(n: int, rng: random.Random) -> list[int]:
    rows = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    rng.shuffle(rows)
    cols = list(range(n))
    rng.shuffle(cols)
    symbols = list(range(1, n + 1))
    rng.shuffle(symbols)
    return [symbols[rows[r][c] - 1] for r in range(n) for c in cols]


def random_cages(n: int, rng: random.Random, largest: int) -> list[list[int]]:
    """Cells grouped into connected cages of at most ``largest`` cells, grown at random."""
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    for cell in rng.sample(range(n * n), n * n):
        if owner[cell] >= 0:
            continue
        cage = [cell]
        owner[cell] = len(cages)
        size = rng.randint(1, largest)
        while len(cage) < size:
            frontier = [o for c in cage for o in (c - n, c + n, c - 1 if c % n else -1, c + 1 if (c + 1) % n else -1)
                        if 0 <= o < n * n and owner[o] < 0]
            if not frontier:
                break
            o = rng.choice(frontier)
            owner[o] = len(cages)
            cage.append(o)
        cages.append(cage)
    return cages


def random_kenken(seed: int, n: int) -> KenKen:
    rng = random.Random(seed)
    grid = random_latin(n, rng)
    specs = []
    for cells in random_cages(n, rng, 3):
        values = [grid[c] for c in cells]
        ops = ["+", "*"] + (["-"] if len(cells) == 2 else []) + \
              (["/"] if len(cells) == 2 and max(values) % min(values) == 0 else [])
        op = rng.choice(ops)
        cage = Cage(tuple(cells), op, 0, "c")
        specs.append((tuple(cells), op, cage.value_of(values)))
    return KenKen(n, specs)


def random_killer(seed: int) -> KillerSudoku:
    rng = random.Random(seed)
    grid = random_full_grid((2, 2), rng)
    cages = [(cells, sum(grid[c] for c in cells)) for cells in random_cages(4, rng, 3)
             if len({grid[c] for c in cells}) == len(cells)]
    covered = {c for cells, _ in cages for c in cells}
    cages += [((c,), grid[c]) for c in range(16) if c not in covered]
    return KillerSudoku((2, 2), [0] * 16, cages)


def random_skyscrapers(seed, n=4):
    rng = random.Random(seed)
    base = list(range(1, n + 1))
    rows = [base[i:] + base[:i] for i in range(n)]
    rng.shuffle(rows)
    grid = [v for r in rows for v in r]
    cols = [[grid[i * n + j] for i in range(n)] for j in range(n)]
    rws = [grid[i * n:(i + 1) * n] for i in range(n)]
    clue = lambda line: visible_count(line) if rng.random() < 0.6 else 0
    return Skyscrapers(n, [clue(c) for c in cols], [clue(c[::-1]) for c in cols],
                       [clue(r) for r in rws], [clue(r[::-1]) for r in rws])


def random_queens(seed, n):
    rng = random.Random(seed)
    cols = random_queens_solution(n, rng)
    rows = rng.sample(range(n), rng.randint(0, 2))
    return NQueens(n, [(r, cols[r]) for r in rows])


def random_futoshiki(seed, n, turned=0.1):
    """A random N x N Futoshiki and the Latin square it was made from (a shuffled cyclic
    one): some of its values as givens and some of its orderings of neighbours as signs, a
    fraction ``turned`` of the signs between two empty cells turned round, so that some
    instances have no solution (the square is then no solution)."""
    rng = random.Random(seed)
    rows = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    rng.shuffle(rows)
    columns = rng.sample(range(n), n)
    square = [rows[r][columns[c]] for r in range(n) for c in range(n)]
    givens = [v if rng.random() < 0.2 else 0 for v in square]
    signs = []
    for cell in range(n * n):
        for other in ([cell + 1] if cell % n + 1 < n else []) + ([cell + n] if cell + n < n * n else []):
            if rng.random() < 0.35:
                pair = (cell, other) if square[cell] < square[other] else (other, cell)
                if rng.random() < turned and not (givens[cell] or givens[other]):
                    pair = pair[::-1]
                signs.append(pair)
    return Futoshiki(n, givens, signs), square
