"""Seeded generators of proper (unique) puzzles of the kinds Simon Tatham's programs share:
Sudoku-X, jigsaw Sudoku, Killer Sudoku, Futoshiki (his Unequal) and KenKen (his Keen).  Each
puzzle comes with its solution and is written as his game id, so that his programs open it.

Glossary:
    solution  a complete grid obeying the kind's rules, drawn first; every clue is read off it.
    clue      a given, a sign (Futoshiki) or a cage (Killer, KenKen): what the puzzle shows.
    dig       remove clues one at a time in a random order, keeping a removal only when the
              puzzle still has exactly one solution (the classic "dig holes" method): one pass
              leaves a *minimal* puzzle, since fewer clues never restore uniqueness.
    counter   what proves uniqueness: the harness's fastest engine for the kind, limit 2 (Killer,
              and KenKen from size 12: sat, whose learning escapes the heavy-tailed searches of
              mrv there; ``generate.LEARNING_FROM``).

How each kind is made:
    Sudoku-X          a solution by a randomly shuffled search (as the Sudoku generator's full
                      grids), then every given dug.
    jigsaw            regions drawn first: boxes (rows where N is prime) reshaped by random
                      swaps of two cells between neighbouring regions that keep both connected;
                      a solution completed by the counter (from size 10 by sat:
                      ``JIGSAW_COMPLETED_BY_SAT_FROM``) from N random givens that break no
                      rule (the shuffled search took 10 s a 9x9 grid on these regions, the
                      counter milliseconds), drawn again if they admit none; every given dug.
    Killer            a Sudoku solution (the same search), cages grown at random over it (2 to 5 cells, no digit
                      twice), each cage's sum read off, then every given dug (most puzzles
                      keep none).
    Futoshiki         a uniformly random Latin square (Jacobson and Matthews), every given and
                      every sign between neighbours, then all of them dug together.
    KenKen            a uniformly random Latin square, cages grown at random (1 to 4 cells),
                      each an operation the cells allow (- and / on two cells) and its
                      target; while a second solution exists, one cell where the two differ
                      leaves its cage as a one-cell cage (a given) and the rest of the cage is
                      split into its connected parts, each with a fresh target.  Not minimal:
                      proper.

The same seed gives the same puzzles for the same counter: every choice comes from one
``random.Random``; the counter is asked whether a puzzle is unique, and besides for a jigsaw's
completion and, in KenKen, for a second solution (any cell where the two differ would do).  Tatham's own generators (solo.c, keen.c, unequal.c) dig to a difficulty
with his solvers; these do not grade, they only guarantee uniqueness.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from ..errors import UsageError
from ..models.futoshiki import MAX_N as FUTOSHIKI_MAX, Futoshiki
from ..models.jigsaw import JigsawSudoku
from ..models.kenken import KenKen
from ..models.killer import KillerSudoku
from ..models.sudoku import DIGITS, Sudoku, infer_box
from ..models.sudokux import SudokuX
from ..results import Status
from ..solvers import registry
from .latin_squares import random_latin_square

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


def unique(counter, puzzle) -> bool:
    return counter.solve(puzzle).status is Status.UNIQUE


def dig(clues: list, rng: random.Random, build: Callable[[list], object], counter) -> list:
    """The clues left after one pass in a random order (see the glossary): a minimal set."""
    kept = list(clues)
    for clue in rng.sample(clues, len(clues)):
        trial = [c for c in kept if c != clue]
        if unique(counter, build(trial)):
            kept = trial
    return kept


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
    kept = dig(list(range(n * n)), rng, lambda cells: SudokuX(box, _keep(solution, cells)), counter)
    return _finished(SudokuX(box, _keep(solution, kept), form="tatham"), solution)


def _lines(n: int) -> list[list[int]]:
    return [[i * n + j for j in range(n)] for i in range(n)] + [[i * n + j for i in range(n)] for j in range(n)]


def _sudoku_units(box: tuple[int, int]) -> list[Sequence[int]]:
    return [cells for _, cells in Sudoku(box, [0] * (box[0] * box[1]) ** 2).units()]


def _x_units(box: tuple[int, int]) -> list[Sequence[int]]:
    n = box[0] * box[1]
    return _sudoku_units(box) + [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]


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
    """A minimal jigsaw Sudoku of size ``n`` on random regions, written as a Solo id."""
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
    kept = dig(list(range(n * n)), rng, lambda cells: JigsawSudoku(regions, _keep(solution, cells)), counter)
    return _finished(JigsawSudoku(regions, _keep(solution, kept)), solution)


# -- Killer ------------------------------------------------------------------------------------

def generate_killer(box: tuple[int, int], rng: random.Random, counter) -> KillerSudoku:
    """A Killer Sudoku with ``box`` blocks: random cages (no digit twice in one), givens dug."""
    n = box[0] * box[1]
    if not 4 <= n <= len(DIGITS):
        raise UsageError(f"Killer sizes go from 4 to {len(DIGITS)} values; got {box[0]}x{box[1]} blocks ({n})")
    solution = random_filling(n, _sudoku_units(box), rng)
    cages = grow_cages(n, rng, KILLER_SIZES, lambda cage, cell: solution[cell] not in {solution[c] for c in cage})
    sums = [(cells, sum(solution[c] for c in cells)) for cells in cages]
    kept = dig(list(range(n * n)), rng, lambda cells: KillerSudoku(box, _keep(solution, cells), sums), counter)
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
    kept = dig(clues, rng, build, counter)
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
    """A proper KenKen of size ``n`` (see the module)."""
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


KIND_GENERATORS = {"sudoku-x": generate_sudoku_x, "jigsaw": generate_jigsaw, "killer": generate_killer,
                   "futoshiki": generate_futoshiki, "kenken": generate_kenken}
"""Each kind's generator: ``(shape, rng, counter)``, the shape a block shape for
Sudoku-X and Killer, a size for the others."""
