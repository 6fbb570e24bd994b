"""Seeded generators of proper (unique) puzzles of every kind but Sudoku (:mod:`.sudoku`) and
the Latin square completions (:mod:`.latin`): Sudoku-X, jigsaw, Killer, Futoshiki, KenKen (the
kinds Simon Tatham's programs share, each written as his game id so that his programs open
it), Skyscrapers and N-Queens completion.

Each draws a solution first (:mod:`.fill`, or a uniformly random Latin square), reads every
clue off it, then digs (:func:`.dig.dig`) until minimal, or, where digging cannot make a
puzzle unique (KenKen, Skyscrapers), adds givens until it is.  These do not grade (Tatham's
solo.c, keen.c, unequal.c dig to a difficulty with his solvers); they guarantee uniqueness.
The same seed gives the same puzzles: every choice comes from one ``random.Random``.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from ..engines import registry
from ..errors import UsageError
from ..models.futoshiki import MAX_N as FUTOSHIKI_MAX, Futoshiki
from ..models.jigsaw import JigsawSudoku
from ..models.kenken import KenKen
from ..models.killer import KillerSudoku
from ..models.nqueens import NQueens
from ..models.skyscrapers import MAX_N as SKY_MAX, Skyscrapers, clues_shown
from ..models.sudoku import DIGITS, infer_box
from ..models.sudokux import SudokuX
from ..results import Status
from .dig import Counter, dig
from .fill import random_filling, random_givens, random_queens_solution, sudoku_units
from .latin import random_latin_square

KENKEN_SIZES = {1: 0.1, 2: 0.5, 3: 0.3, 4: 0.1}
JIGSAW_COMPLETED_BY_SAT_FROM = 10
"""From this size a jigsaw's grid is completed by ``sat``, not the counter (the bitboard's
search, which digs in milliseconds): completing N random givens on random regions is where a
search without learning runs into heavy tails (``generate jigsaw --size 12 --seed 2`` ran over
90 s in the bitboard's first completion, --size 10 --seed 3 over 30 s; sat completes either in
0.03 s, the whole 12x12 in 0.3-0.5 s)."""
KILLER_SIZES = {2: 0.35, 3: 0.35, 4: 0.2, 5: 0.1}


# -- shared steps ------------------------------------------------------------------------------

def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def connected(cells: Sequence[int], n: int) -> bool:
    if not cells:
        return True
    inside, seen, todo = set(cells), {cells[0]}, [cells[0]]
    while todo:
        for d in neighbours(todo.pop(), n):
            if d in inside and d not in seen:
                seen.add(d)
                todo.append(d)
    return len(seen) == len(inside)


def components(cells: Sequence[int], n: int) -> list[tuple[int, ...]]:
    """The connected parts of a set of cells, each sorted, in order of their first cell."""
    left, parts = set(cells), []
    for start in sorted(cells):
        if start not in left:
            continue
        part, todo = {start}, [start]
        left.discard(start)
        while todo:
            for d in neighbours(todo.pop(), n):
                if d in left:
                    left.discard(d)
                    part.add(d)
                    todo.append(d)
        parts.append(tuple(sorted(part)))
    return parts


def dig_minimal(clues: list, rng: random.Random, build: Callable[[list], object], counter: Counter) -> list:
    """The clues left after one dig in a random order: a minimal set."""
    return dig(clues, rng.sample(range(len(clues)), len(clues)), lambda kept, _: counter.unique(build(kept)))


def grow_cages(n: int, rng: random.Random, sizes: dict[int, float],
               allowed: Callable[[list[int], int], bool] = lambda cage, cell: True) -> list[list[int]]:
    """A random partition of the grid into connected cages: from each cell not yet in a cage
    (in a random order), a cage grown by random neighbours not yet taken that ``allowed``
    admits, up to a size drawn from ``sizes``.  A cell left alone joins a neighbouring cage
    that admits it, when one under the largest size does."""
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    largest = max(sizes)
    for start in rng.sample(range(n * n), n * n):
        if owner[start] >= 0:
            continue
        want = rng.choices(list(sizes), weights=list(sizes.values()))[0]
        cage = [start]
        owner[start] = len(cages)
        while len(cage) < want:
            frontier = sorted({d for c in cage for d in neighbours(c, n) if owner[d] < 0 and allowed(cage, d)})
            if not frontier:
                break
            cell = rng.choice(frontier)
            cage.append(cell)
            owner[cell] = len(cages)
        if len(cage) == 1 and min(sizes) > 1:
            hosts = sorted({owner[d] for d in neighbours(start, n) if owner[d] >= 0 and owner[d] != len(cages)
                            and len(cages[owner[d]]) < largest and allowed(cages[owner[d]], start)})
            if hosts:
                host = rng.choice(hosts)
                cages[host].append(start)
                owner[start] = host
                continue
        cages.append(cage)
    return [sorted(c) for c in cages]


# -- Sudoku-X and jigsaw -----------------------------------------------------------------------

def generate_sudoku_x(box: tuple[int, int], rng: random.Random, counter) -> SudokuX:
    """A minimal Sudoku-X with ``box`` blocks, written as a Solo id."""
    n = box[0] * box[1]
    if not 4 <= n <= len(DIGITS):
        raise UsageError(f"Sudoku-X sizes go from 4 to {len(DIGITS)} values; got {box[0]}x{box[1]} blocks ({n})")
    solution = random_filling(n, _x_units(box), rng)
    kept = dig_minimal(list(range(n * n)), rng, lambda cells: SudokuX(box, _keep(solution, cells)), counter)
    return _finished(SudokuX(box, _keep(solution, kept), form="tatham"), solution)


def _lines(n: int) -> list[list[int]]:
    return [[i * n + j for j in range(n)] for i in range(n)] + [[i * n + j for i in range(n)] for j in range(n)]


def _x_units(box: tuple[int, int]) -> list[Sequence[int]]:
    n = box[0] * box[1]
    return sudoku_units(box) + [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]


def random_regions(n: int, rng: random.Random) -> list[int]:
    """N connected regions of N cells: boxes (rows where N is prime) reshaped by random swaps."""
    try:
        r, c = infer_box(n)
        regions = [(i // r) * (n // c) + j // c for i in range(n) for j in range(n)]
    except Exception:   # a prime N has no boxes: start from the rows
        regions = [i // n for i in range(n * n)]
    for _ in range(20 * n * n):
        cell = rng.randrange(n * n)
        home = regions[cell]
        others = [regions[d] for d in neighbours(cell, n) if regions[d] != home]
        if not others:
            continue
        away = rng.choice(others)
        back = [e for e in range(n * n) if regions[e] == away
                and any(regions[f] == home and f != cell for f in neighbours(e, n))]
        if not back:
            continue
        other = rng.choice(back)
        regions[cell], regions[other] = away, home
        if not (connected([x for x in range(n * n) if regions[x] == home], n)
                and connected([x for x in range(n * n) if regions[x] == away], n)):
            regions[cell], regions[other] = home, away
    return regions


def generate_jigsaw(n: int, rng: random.Random, counter) -> JigsawSudoku:
    """A minimal jigsaw Sudoku of size ``n`` on random regions, written as a Solo id: a
    solution completed by the counter (from :data:`JIGSAW_COMPLETED_BY_SAT_FROM` by sat) from
    N random givens that break no rule (a shuffled search took 10 s a 9x9 grid on these
    regions, the counter milliseconds), drawn again if they admit none; every given dug."""
    if not 2 <= n <= len(DIGITS):
        raise UsageError(f"jigsaw sizes go from 2 to {len(DIGITS)}; got {n}")
    solution = None
    completer = registry.make_engine("sat") if n >= JIGSAW_COMPLETED_BY_SAT_FROM else None
    while solution is None:   # a few layouts admit no grid at all: drawn again
        regions = random_regions(n, rng)
        units = _lines(n) + [[x for x in range(n * n) if regions[x] == k] for k in range(n)]
        for _ in range(3):
            start = JigsawSudoku(regions, random_givens(n, units, n, rng))
            found = completer.run(start, limit=1) if completer else counter.solve(start, limit=1)
            if found.solutions:
                solution = list(found.solutions[0])
                break
    kept = dig_minimal(list(range(n * n)), rng, lambda cells: JigsawSudoku(regions, _keep(solution, cells)), counter)
    return _finished(JigsawSudoku(regions, _keep(solution, kept)), solution)


# -- Killer ------------------------------------------------------------------------------------

def generate_killer(box: tuple[int, int], rng: random.Random, counter) -> KillerSudoku:
    """A Killer Sudoku with ``box`` blocks: random cages (no digit twice in one), givens dug."""
    n = box[0] * box[1]
    if not 4 <= n <= len(DIGITS):
        raise UsageError(f"Killer sizes go from 4 to {len(DIGITS)} values; got {box[0]}x{box[1]} blocks ({n})")
    solution = random_filling(n, sudoku_units(box), rng)
    cages = grow_cages(n, rng, KILLER_SIZES, lambda cage, cell: solution[cell] not in {solution[c] for c in cage})
    sums = [(cells, sum(solution[c] for c in cells)) for cells in cages]
    kept = dig_minimal(list(range(n * n)), rng, lambda cells: KillerSudoku(box, _keep(solution, cells), sums), counter)
    return _finished(KillerSudoku(box, _keep(solution, kept), sums, form="tatham"), solution)


# -- Futoshiki and KenKen ----------------------------------------------------------------------

def generate_futoshiki(n: int, rng: random.Random, counter) -> Futoshiki:
    """A minimal Futoshiki: givens and signs of a random Latin square dug together."""
    if not 2 <= n <= FUTOSHIKI_MAX:
        raise UsageError(f"Futoshiki sizes go from 2 to {FUTOSHIKI_MAX}; got {n}")
    solution = random_latin_square(n, rng)
    signs = [(a, b) if solution[a] < solution[b] else (b, a)
             for a in range(n * n) for b in neighbours(a, n) if a < b]
    clues = [("given", c) for c in range(n * n)] + [("sign", s) for s in signs]

    def build(kept: list) -> Futoshiki:
        cells = [c for what, c in kept if what == "given"]
        return Futoshiki(n, _keep(solution, cells), [s for what, s in kept if what == "sign"])
    kept = dig_minimal(clues, rng, build, counter)
    puzzle = build(kept)
    puzzle.form = "tatham"
    return _finished(puzzle, solution)


def kenken_cage(cells: Sequence[int], solution: Sequence[int], rng: random.Random) -> tuple[tuple[int, ...], str, int]:
    """A cage over ``cells`` with an operation its values allow (÷ where the two divide, − on
    two cells, else + or ×) and its target."""
    values = [solution[c] for c in cells]
    if len(cells) == 1:
        return tuple(cells), "+", values[0]
    if len(cells) == 2:
        big, small = max(values), min(values)
        if big % small == 0 and rng.random() < 0.5:
            return tuple(cells), "/", big // small
        if rng.random() < 0.6:
            return tuple(cells), "-", big - small
    if rng.random() < 0.5:
        return tuple(cells), "+", sum(values)
    product = 1
    for v in values:
        product *= v
    return tuple(cells), "*", product


def generate_kenken(n: int, rng: random.Random, counter) -> KenKen:
    """A proper KenKen of size ``n``: a uniformly random Latin square, cages grown at random
    (1 to 4 cells), each an operation its cells allow (- and / on two cells) and its target;
    while a second solution exists, one cell where the two differ leaves its cage as a
    one-cell cage (a given) and the rest of the cage is split into its connected parts, each
    with a fresh target.  Not minimal: proper."""
    if not 2 <= n <= len(DIGITS):
        raise UsageError(f"KenKen sizes go from 2 to {len(DIGITS)}; got {n}")
    solution = random_latin_square(n, rng)
    cages = [kenken_cage(cells, solution, rng) for cells in grow_cages(n, rng, KENKEN_SIZES)]
    while True:
        result = counter.solve(KenKen(n, cages))
        if result.status is Status.UNIQUE:
            break
        other = next(s for s in result.solutions if list(s) != solution)
        cell = rng.choice([c for c in range(n * n) if other[c] != solution[c]])
        [old] = [cage for cage in cages if cell in cage[0]]
        rest = components([c for c in old[0] if c != cell], n)
        cages = [cage for cage in cages if cage is not old] + [kenken_cage((cell,), solution, rng)] + \
            [kenken_cage(part, solution, rng) for part in rest]
    return _finished(KenKen(n, cages, form="tatham"), solution)


# -- the finish --------------------------------------------------------------------------------

def _keep(solution: Sequence[int], cells) -> list[int]:
    kept = set(cells)
    return [v if c in kept else 0 for c, v in enumerate(solution)]


def _finished(puzzle, solution: Sequence[int]):
    """The puzzle with its solution in its metadata, written as ``solve`` writes answers."""
    problems = puzzle.check(solution)
    if problems:   # the generator's own solution must obey the puzzle: a bug if not
        raise AssertionError(f"generated {puzzle.kind}: its solution breaks {problems[0]}")
    puzzle.metadata["solution"] = puzzle.write_solution(solution)
    return puzzle


# -- Skyscrapers and N-Queens -----------------------------------------------------------------

def generate_skyscrapers(n: int, rng: random.Random, remove: float = 0.5,
                         counter: Counter | None = None) -> Skyscrapers:
    """A proper Skyscrapers puzzle: unique, with about ``remove`` of its clues taken away.  A
    uniformly random Latin square and all 4N visibility clues; where those leave several
    solutions, cells that some solution fills with another value are given, in a random
    order, until the puzzle is unique; then clues are dug in a random order, up to ``remove``
    of them."""
    if not 1 <= n <= SKY_MAX:
        raise UsageError(f"Skyscrapers sizes go from 1 to {SKY_MAX}; got {n}")
    if not 0 <= remove <= 1:
        raise UsageError(f"--remove is a share of the clues, 0 to 1; got {remove:g}")
    counter = counter or Counter("skyscrapers")
    solution = random_latin_square(n, rng)
    clues = clues_shown(n, solution)
    givens = [0] * (n * n)

    def build():
        return Skyscrapers(n, clues["top"], clues["bottom"], clues["left"], clues["right"], givens)

    def unique() -> bool:
        return counter.solve(build()).status is Status.UNIQUE

    def admits_another_value(cell: int) -> bool:
        """Whether some solution of the puzzle so far puts another value in ``cell``."""
        row, col = divmod(cell, n)
        taken = {givens[row * n + j] for j in range(n)} | {givens[i * n + col] for i in range(n)}
        for value in range(1, n + 1):
            if value != solution[cell] and value not in taken:
                givens[cell] = value
                found = counter.solve(build(), limit=1).status is Status.SAT
                givens[cell] = 0
                if found:
                    return True
        return False

    cells = iter(rng.sample(range(n * n), n * n))  # a cell found fixed stays fixed: never tried again
    while not unique():
        cell = next(c for c in cells if admits_another_value(c))
        givens[cell] = solution[cell]
    slots = [(side, k) for side in ("top", "bottom", "left", "right") for k in range(n)]
    order = list(range(len(slots)))
    rng.shuffle(order)
    target = int(round(remove * len(slots)))
    shown = {side: list(values) for side, values in clues.items()}

    def unique_with(kept: list) -> bool:
        for side, k in slots:
            clues[side][k] = shown[side][k] if (side, k) in kept else 0
        return unique()

    kept = set(dig(slots, order, lambda kept, _: unique_with(set(kept)),
                   stop=lambda left: len(slots) - left >= target))
    for side, k in slots:
        clues[side][k] = shown[side][k] if (side, k) in kept else 0
    puzzle = build()
    puzzle.metadata["nsol"] = "1"
    puzzle.metadata["solution"] = ",".join(map(str, solution))   # written last on the line; `check` verifies it
    return puzzle


def generate_nqueens(n: int, placed: int, rng: random.Random) -> NQueens:
    """An N-Queens completion: a random solution of which ``placed`` queens are kept."""
    if not 0 <= placed <= n:
        raise UsageError(f"--placed must be between 0 and {n}; got {placed}")
    cols = random_queens_solution(n, rng)
    rows = sorted(rng.sample(range(n), placed))
    # the solution it was made from, written after the puzzle: `check` verifies it
    return NQueens(n, [(r, cols[r]) for r in rows], metadata={"solution": ",".join(str(c + 1) for c in cols)})
