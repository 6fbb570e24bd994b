"""Seeded, reproducible puzzle generators: they fill what no public set covers (6x6 and 12x12
Sudoku, proper Skyscrapers above 7x7, N-Queens completion instances).

- **Sudoku** of any block shape: a random full grid (randomised backtracking with minimum
  remaining values; from 16 values on, random blocks on the diagonal, which share no row or
  column, completed by the engine: the backtracking took 31 s for one 25x25 grid, the engine
  5 ms), then clues removed in a random order, each removal kept only when the
  puzzle still has a unique solution, proven by the fastest registered engine (``bitboard``
  when registered, else ``mrv``) with a solution limit of 2; from 16 values that engine gets
  a short first look at each check and a SAT solver decides the rest (:class:`_CluesProver`:
  the counter alone left most late checks of a 25x25 undecided in 2 s each;
  results/generate_large.md has the times of minimal 25x25s).  One pass over every clue gives a
  *minimal* puzzle (removing any further clue makes it ambiguous: a clue that could not be
  removed earlier cannot be removed later, since fewer clues never restore uniqueness).  With
  a target clue count the pass stops there; a grid whose minimal puzzles keep more clues is
  redrawn.  With a time limit per check (``check_seconds``), a clue whose removal the engine
  could not decide in time is kept: the puzzle is still proven unique, but not minimal, and
  its metadata counts those clues (``undecided``).
- **Sudoku to a target rating** (9x9): the minimal puzzles above, each rated by ``rate``'s
  default score (:func:`puzzlebench.rating.rate_puzzle`), kept when the score lies in a range
  and, if asked, the explanation uses a technique (generate and test, no steering).
- **Skyscrapers** (N <= 9): a random Latin square and all 4N visibility clues; where those
  leave several solutions, cells that some solution fills with another value are given, taken
  in a random order, until the puzzle is unique; then a share of the clues is removed in random
  order, keeping uniqueness (a *proper* puzzle).  The engine is asked only whether solutions
  exist, never *which* one it found first, so the same seed gives the same puzzles whatever
  engine counts.
- **N-Queens completion**: a random solution of N-Queens, of which ``placed`` queens are
  kept: solvable by construction.
- **Latin square completion (QWH)**: a uniformly random Latin square (Jacobson and Matthews'
  chain) with a share of its cells emptied, uniformly or balanced over rows and columns:
  satisfiable by construction (``latin_squares.py``).

The same seed gives the same puzzles: every random choice comes from one ``random.Random``.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Iterator

from ..encoders.budget import check_budget
from ..encoders.cnf import encode
from ..encoders.cnf import estimated_bytes as cnf_estimated_bytes
from ..errors import UsageError
from .generate_kinds import KIND_GENERATORS, random_filling
from .latin_squares import check_qwh_arguments, qwh_instance
from ..models.nqueens import NQueens
from ..models.skyscrapers import MAX_N as SKY_MAX, Skyscrapers, clues_shown
from ..models.sudoku import Sudoku, self_describing_form
from ..models.vocabulary import candidate
from ..results import Status
from ..solvers import registry
from ..solvers.base import Deadline

PREFERRED = ("bitboard", "mrv")
GENERATED_KINDS = ("sudoku", "skyscrapers", "nqueens", "latin", *KIND_GENERATORS)
SHAPED_BY_BOX = ("sudoku", "sudoku-x", "killer")
"""The kinds whose size is their block shape (``box``); the others have ``size``."""
GENERATED_SIZES = {"nqueens": 8, "skyscrapers": 6, "latin": 30, "jigsaw": 9, "futoshiki": 5, "kenken": 6}
"""The default ``size`` of the kinds that take one (the others take a block shape)."""


def uniqueness_engine(kind: str):
    """The fastest registered engine that handles ``kind`` (bitboard, else mrv)."""
    for family in PREFERRED:
        if family in registry.FAMILIES:
            try:
                engine = registry.make_engine(family)
            except Exception:
                continue
            if kind in engine.kinds:
                return engine
    return registry.make_engine("mrv")


LEARNING_FROM = {"kenken": 12, "killer": 4}
"""The size from which a kind's uniqueness checks go to ``sat`` (CDCL: it learns from its dead
ends) rather than ``mrv``.  KenKen grids of random cages are Latin squares with few givens, where
a backtracking search has heavy-tailed run times (Gomes, Selman, Crato and Kautz, "Heavy-tailed
phenomena in satisfiability and constraint satisfaction problems", J. Autom. Reasoning 2000):
``generate kenken --size 16 --seed 2`` spent over 150 s in mrv's first check (4,600 nodes in
40 s, each a pass over the cages' fillings), where sat takes 0.25 s for the whole puzzle.  CPU
seconds a puzzle, mrv / sat, seeds 1-3: size 12 0.02-0.06 / 0.08-0.12; 13 0.06-1.5 / 0.07-0.15;
14 0.5, 2.4, >60 / 0.13-0.45; 15 12.8, >60 / 0.26-0.30; 16 0.8, 4.5, >150 / 0.19-0.25; 20 >60
/ 1.4-2.4 (and 24: sat 92 s, cpsat 21 s CPU, which :data:`SLOW_FROM` warns of).  Killer, whose
cages mrv propagates a filling at a time, at every size (the same puzzles: digging asks only
whether a puzzle is unique): 2x4 0.05-0.07 / 0.02 s, 3x3 0.11-0.52 / 0.04 s, 3x4 (seed 2) over
90 s / 0.84 s."""
SLOW_FROM = {"kenken": (21, "size 24: 1.5 CPU minutes"),
             "jigsaw": (14, "size 14: half a CPU minute, 16: over 4 CPU minutes")}
"""The size from which a kind's generation takes minutes a puzzle (each uniqueness check a hard
search, with sat as with the bitboard), and what was measured: a warning says so before it
starts."""


class _Counter:
    """Solution counting (limit 2) with a fallback to ``mrv`` when the fast engine refuses a
    shape (a bitboard engine may stop at some size); from :data:`LEARNING_FROM` a kind's size,
    ``sat``.  Each check's encoding is held to ``memory_limit`` bytes (``None``: the default
    budget): one estimated past it stops the generator (:class:`~..encoders.budget.OverBudget`,
    a usage error), before it is made."""

    def __init__(self, kind: str, size: int | None = None, memory_limit: int | None = None):
        learning = size is not None and size >= LEARNING_FROM.get(kind, size + 1)
        self.engine = registry.make_engine("sat") if learning else uniqueness_engine(kind)
        self.engine.memory_budget = self.memory_limit = memory_limit
        self.fallback = None

    def solve(self, puzzle, limit: int = 2, time_limit: float | None = None):
        self.engine.check_budget(puzzle)
        result = self.engine.run(puzzle, limit=limit, keep=2, time_limit=time_limit)
        if result.status is Status.ERROR and not result.verified:
            if self.fallback is None:
                self.fallback = registry.make_engine("mrv")
                self.fallback.memory_budget = self.memory_limit
            self.fallback.check_budget(puzzle)
            result = self.fallback.run(puzzle, limit=limit, keep=2)
        if result.status is Status.ERROR:
            raise RuntimeError(f"uniqueness check failed: {result.error}")
        return result


# -- Sudoku ------------------------------------------------------------------------------------

def random_full_grid(box: tuple[int, int], rng: random.Random) -> list[int]:
    """A uniformly shuffled search for a complete grid: random value order, MRV cell choice."""
    n = box[0] * box[1]
    return random_filling(n, [cells for _, cells in Sudoku(box, [0] * n * n).units()], rng)


LARGE_GRID = 16
"""Values from which a full grid is completed by the engine rather than by backtracking."""


def completed_grid(box: tuple[int, int], rng: random.Random, counter: _Counter) -> list[int]:
    """A full grid: the blocks on the diagonal (they share no row or column) filled with
    random permutations, the rest completed by the engine (one solution), its values then
    relabelled at random.  Not uniform over all grids (neither is the backtracking's)."""
    r, c = box
    n = r * c
    while True:
        grid = [0] * (n * n)
        for b in range(min(r, c)):   # block b of band b and stack b
            values = list(range(1, n + 1))
            rng.shuffle(values)
            cells = [(b * r + i) * n + b * c + j for i in range(r) for j in range(c)]
            for cell, v in zip(cells, values):
                grid[cell] = v
        found = counter.solve(Sudoku(box, grid), limit=1, time_limit=10.0)
        if found.solutions:
            relabel = list(range(1, n + 1))
            rng.shuffle(relabel)
            return [relabel[v - 1] for v in found.solutions[0]]


SAT_SOLVER = "cadical195"
"""The PySAT solver of :class:`_CluesProver`: CaDiCaL
1.9.5 decided 61 late checks of a 25x25 dig (seed 1, checks 330 on) in 40 s of CPU where
Glucose 4 decided 46 and MiniSat 2.2 19 (CaDiCaL 1.5.3: 57; Glucose with the grid's values as
phases: 46; the ``augmented`` encoding: 27).  CaDiCaL cannot be interrupted in-process, so
under a time limit per check the interruptible :data:`SAT_SOLVER_TIMED` serves."""
SAT_SOLVER_TIMED = "glucose4"
SAT_ENCODING = "optimized"
"""Its CNF encoding (:mod:`puzzlebench.encoders.cnf`): each check's own formula, the givens
propagated away."""
COUNTER_SECONDS = 0.05
"""The counter's one turn in a check of :class:`_CluesProver` (0: the SAT solver alone)."""


class _CluesProver:
    """Whether a clue of a large grid can go: the counter's quick look, then a SAT solver.

    Every check of the dig asks one question: with the clue at ``cell`` removed, has the puzzle
    a solution other than the full grid ``S`` it was dug from?  The givens before the removal
    had ``S`` as their only solution, so another solution must differ from ``S`` at ``cell``:
    the question is whether the remaining givens and "``cell`` is not ``S[cell]``" are
    satisfiable.  The counting engine (``bitboard``) asks it by counting the puzzle's
    solutions up to 2, which it does in milliseconds on the early checks (all of a 16x16 dig's,
    where it is faster than a SAT solver) but not on the late checks of a 25x25 dig, which sit
    near the hard region of these problems (about 45 % of the cells given): there it decided 13
    of 74 sampled checks in 2 s, mostly where the SAT solver was as quick.  So the counter gets
    one short turn (:data:`COUNTER_SECONDS`) and the SAT solver, if it is needed, the rest of
    the check, on a formula of the check's own: the ``optimized`` encoding of the givens (a
    late check of a 25x25 dig keeps 27k clauses of the empty grid's 0.9M) and the unit clause
    "not ``S[cell]``".  It replaced one incremental solver for the whole dig asked with the
    givens as assumptions: on the same checks the two are even in total (ratios 0.84 and 1.09
    on two seeds), but on the costliest ten the check's own formula is 3-5x faster, and the
    slow seeds are made of such checks (results/generate_checks.md).  The answer
    does not depend on which engine gives it, so a seed gives the same puzzle whatever decides
    each check.  ``check_seconds`` bounds a check as a whole (the SAT solver interrupted by a
    watchdog at that point): an undecided clue is kept.

    No pool of the second solutions found is kept: one found for the check of ``cell`` differs
    from ``S`` at ``cell``, which then stays a given for the rest of the dig, so it agrees with
    the givens of no later check and answers none of them."""

    def __init__(self, box: tuple[int, int], solution: list[int], counter: _Counter, timed: bool = False):
        self.box, self.counter = box, counter
        self.solver_name = SAT_SOLVER_TIMED if timed else SAT_SOLVER   # an answer is the same from either
        n = box[0] * box[1]
        self.literal = [candidate(cell, v, n) + 1 for cell, v in enumerate(solution)]
        self.watchdog = None
        self.decided = {"counter": 0, "sat": 0}   # checks decided by each engine (the benchmark's figures)
        self.seconds = {"counter": 0.0, "sat": 0.0}   # CPU time spent by each

    @staticmethod
    def check_budget(box: tuple[int, int], memory_limit: int | None) -> None:
        """The SAT checks' formulas grow as clues go, to the empty grid's at most: that one's
        estimate (and the solver's copy) held to the budget before the grid is drawn."""
        n = box[0] * box[1]
        estimate = cnf_estimated_bytes(Sudoku(box, [0] * (n * n)), "extended", per_clause=16, per_literal=4)
        check_budget(estimate, f"the SAT checks' encoding of a {n}x{n} sudoku (with no clue left)", memory_limit)

    def removable(self, givens: list[int], cell: int, check_seconds: float | None) -> Status:
        """UNIQUE: the clue at ``cell`` (already 0 in ``givens``) can go; MULTIPLE: it must stay;
        TIMEOUT: ``check_seconds`` passed first."""
        deadline = Deadline(check_seconds)
        left = deadline.remaining()
        if left is not None and left <= 0:
            return Status.TIMEOUT
        if COUNTER_SECONDS > 0:
            started = time.process_time()
            status = self.counter.solve(Sudoku(self.box, givens),
                                        time_limit=COUNTER_SECONDS if left is None else min(COUNTER_SECONDS, left)).status
            self.seconds["counter"] += time.process_time() - started
            if status is not Status.TIMEOUT:
                self.decided["counter"] += 1
                return status
        if deadline.expired():
            return Status.TIMEOUT
        started = time.process_time()
        found = self.another_solution(givens, cell, deadline)
        self.seconds["sat"] += time.process_time() - started
        if found is None:
            return Status.TIMEOUT
        self.decided["sat"] += 1
        return Status.MULTIPLE if found else Status.UNIQUE

    def another_solution(self, givens: list[int], cell: int, deadline: Deadline) -> bool | None:
        """Whether ``givens`` have a solution with ``cell`` not its value in the grid (None: the
        deadline passed first), by a solver of the check's own."""
        from pysat.solvers import Solver

        with Solver(name=self.solver_name, bootstrap_with=encode(Sudoku(self.box, givens), SAT_ENCODING).clauses) as solver:
            solver.add_clause([-self.literal[cell]])
            if deadline.at is None:
                return solver.solve()
            from ..solvers.sat import Watchdog

            self.watchdog = self.watchdog or Watchdog()
            self.watchdog.arm(solver, deadline.at)
            try:
                return solver.solve_limited(expect_interrupt=True)
            finally:
                self.watchdog.disarm()

    def close(self) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()


def generate_sudoku(box: tuple[int, int], rng: random.Random, clues: int | None = None,
                    attempts: int = 20, counter: _Counter | None = None, check_seconds: float | None = None,
                    on_cell: Callable[[], None] | None = None, sat: bool = True) -> Sudoku:
    """A Sudoku with a unique solution: minimal, or with ``clues`` clues.  ``check_seconds``:
    the time limit of each uniqueness check (module text); ``on_cell``: called after each
    clue tried (a progress bar's step); ``sat``: from :data:`LARGE_GRID` values, the counter's
    first look and a SAT solver (:class:`_CluesProver`), else the counter alone (the
    benchmark's reference)."""
    r, c = box
    n = r * c
    if clues is not None and not 0 < clues <= n * n:
        raise UsageError(f"--clues must be between 1 and {n * n} for {r}x{c} blocks; got {clues}")
    counter = counter or _Counter("sudoku")
    if sat and n >= LARGE_GRID:
        _CluesProver.check_budget(box, counter.memory_limit)
    best = None
    for _ in range(attempts):
        solution = random_full_grid(box, rng) if n < LARGE_GRID else completed_grid(box, rng, counter)
        givens = list(solution)
        order = list(range(n * n))
        rng.shuffle(order)
        undecided = 0
        prover = _CluesProver(box, solution, counter, check_seconds is not None) if sat and n >= LARGE_GRID else None
        for cell in order:
            if clues is not None and sum(1 for g in givens if g) <= clues:
                break
            keep = givens[cell]
            givens[cell] = 0
            if prover is None:
                status = counter.solve(Sudoku(box, givens), time_limit=check_seconds).status
            else:
                status = prover.removable(givens, cell, check_seconds)
            if status is not Status.UNIQUE:
                givens[cell] = keep
                undecided += status is Status.TIMEOUT
            if on_cell is not None:
                on_cell()
        form = self_describing_form(box)   # 3x2 blocks written as a line read back as 2x3: a Solo id names them
        metadata = {"solution": Sudoku(box, solution, form=form).write()}
        if prover is not None:
            prover.close()
            metadata["decided"] = dict(prover.decided)
            metadata["seconds"] = {k: round(v, 3) for k, v in prover.seconds.items()}
        if undecided:
            metadata["undecided"] = undecided
        puzzle = Sudoku(box, givens, form=form, metadata=metadata)
        count = sum(1 for g in givens if g)
        if clues is None or count == clues:
            return puzzle
        if best is None or count < sum(1 for g in best.givens if g):
            best = puzzle
    raise UsageError(f"no {r}x{c} Sudoku with {clues} clues found in {attempts} attempts "
                     f"(the fewest reached: {sum(1 for g in best.givens if g)}); ask for more clues")


# -- Sudoku to a target rating -----------------------------------------------------------------

RATING_SCALE = (1.0, 12.0)
"""The SE scale's ends: 1.0 (a last free cell) to SE's 11.x for the nested forcing chains."""
ATTEMPTS_PER_PUZZLE = 200


def known_techniques() -> tuple[str, ...]:
    """Every technique name an explanation can carry: the human solver's, SE's ladder's (its
    chain rungs by the names of their steps) and ``guess``."""
    from ..solvers import chains
    from ..solvers.human import CHAIN_RUNGS, GUESS, SE_LADDER, TECHNIQUES
    names = list(TECHNIQUES)
    names += [t for t in SE_LADDER if t not in CHAIN_RUNGS and t != "unique rectangle 2/4"]  # its steps say "unique rectangle"
    names += [f"bidirectional {k}" if k.endswith("cycle") else k for k in chains.BASE]
    names.append(GUESS)
    return tuple(dict.fromkeys(names))


def check_rating_arguments(rating_min: float, rating_max: float, technique: str | None) -> None:
    low, high = RATING_SCALE
    for name, value in (("--rating-min", rating_min), ("--rating-max", rating_max)):
        if not low <= value <= high:
            raise UsageError(f"{name} {value:g} is outside the SE scale ({low:.1f} to {high:.1f})")
    if rating_min > rating_max:
        raise UsageError(f"--rating-min {rating_min:g} is more than --rating-max {rating_max:g}")
    if technique is not None and technique not in known_techniques():
        raise UsageError(f"unknown technique {technique!r}; known: {', '.join(known_techniques())}")


def generate_rated_sudoku(count: int, seed: int, rating_min: float = RATING_SCALE[0],
                          rating_max: float = RATING_SCALE[1], *, technique: str | None = None,
                          attempts: int | None = None, check_seconds: float | None = None,
                          rating_seconds: float | None = None,
                          on_attempt: Callable[[bool], None] | None = None) -> Iterator[Sudoku]:
    """``count`` minimal 9x9 Sudoku whose rating (``rate``'s default score:
    :func:`puzzlebench.rating.rate_puzzle`) lies in [``rating_min``, ``rating_max``] and, with
    ``technique``, whose explanation uses that technique; metadata ``rating`` holds the score.

    Generate and test: the candidates are exactly the puzzles of ``generate("sudoku", …,
    seed)`` in their order (the same random stream), each rated, the ones in range kept, so the
    same seed gives the same puzzles (unless a rating meets its time limit, ``rating_seconds``:
    the model then scores the puzzle, and where that happens depends on the machine).  No
    steering: a minimal puzzle cannot be dug further towards a harder rating, and adding clues
    back towards an easier one would give up minimality; a new grid is drawn instead.
    ``attempts`` (default 200 per puzzle asked) bounds the candidates; when it runs out the
    puzzles found were yielded and a :class:`UsageError` says what ratings were seen.
    ``on_attempt(kept)`` is called after each candidate rated."""
    from ..rating import LADDER_SECONDS, rate_puzzle
    check_rating_arguments(rating_min, rating_max, technique)
    budget = attempts if attempts is not None else ATTEMPTS_PER_PUZZLE * count
    if budget < 1:
        raise UsageError(f"--attempts must be 1 or more; got {budget}")
    seconds = LADDER_SECONDS if rating_seconds is None else rating_seconds or None
    rng = random.Random(f"sudoku:{seed}")   # generate("sudoku")'s stream: its puzzles, in order
    counter = _Counter("sudoku")
    found, seen = 0, []
    for _ in range(budget):
        puzzle = generate_sudoku((3, 3), rng, counter=counter, check_seconds=check_seconds)
        rating = rate_puzzle(puzzle, ladder_seconds=seconds)
        kept = (rating.score is not None and rating_min <= round(rating.score, 1) <= rating_max
                and (technique is None or technique in rating.techniques))
        if rating.score is not None:
            seen.append(rating.score)
        if on_attempt is not None:
            on_attempt(kept)
        if kept:
            puzzle.metadata["rating"] = f"{rating.score:.1f}"
            yield puzzle
            found += 1
            if found == count:
                return
    wanted = f"{rating_min:g}..{rating_max:g}" + (f" using {technique}" if technique else "")
    seen_text = f"lowest {min(seen):.1f}, highest {max(seen):.1f}" if seen else "none rated"
    head = f"only {found} of {count} puzzles" if found else "no puzzle"
    raise UsageError(f"{head} rated {wanted} found in {budget} attempts (ratings seen: {seen_text})")


# -- Skyscrapers -------------------------------------------------------------------------------

def random_latin_square(n: int, rng: random.Random) -> list[int]:
    grid = [0] * (n * n)

    def fill(cell: int) -> bool:
        if cell == n * n:
            return True
        i, j = divmod(cell, n)
        used = {grid[i * n + k] for k in range(j)} | {grid[k * n + j] for k in range(i)}
        values = [v for v in range(1, n + 1) if v not in used]
        rng.shuffle(values)
        for v in values:
            grid[cell] = v
            if fill(cell + 1):
                return True
        grid[cell] = 0
        return False

    fill(0)
    return grid


def generate_skyscrapers(n: int, rng: random.Random, remove: float = 0.5,
                         counter: _Counter | None = None) -> Skyscrapers:
    """A proper Skyscrapers puzzle: unique, with about ``remove`` of its clues taken away."""
    if not 1 <= n <= SKY_MAX:
        raise UsageError(f"Skyscrapers sizes go from 1 to {SKY_MAX}; got {n}")
    if not 0 <= remove <= 1:
        raise UsageError(f"--remove is a share of the clues, 0 to 1; got {remove:g}")
    counter = counter or _Counter("skyscrapers")
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
    rng.shuffle(slots)
    target = int(round(remove * len(slots)))
    removed = 0
    for side, k in slots:
        if removed >= target:
            break
        keep = clues[side][k]
        clues[side][k] = 0
        if unique():
            removed += 1
        else:
            clues[side][k] = keep
    puzzle = build()
    puzzle.metadata["nsol"] = "1"
    puzzle.metadata["solution"] = ",".join(map(str, solution))   # written last on the line; `check` verifies it
    return puzzle


# -- N-Queens ----------------------------------------------------------------------------------

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


def generate_nqueens(n: int, placed: int, rng: random.Random) -> NQueens:
    if not 0 <= placed <= n:
        raise UsageError(f"--placed must be between 0 and {n}; got {placed}")
    cols = random_queens_solution(n, rng)
    rows = sorted(rng.sample(range(n), placed))
    # the solution it was made from, written after the puzzle: `check` verifies it
    return NQueens(n, [(r, cols[r]) for r in rows], metadata={"solution": ",".join(str(c + 1) for c in cols)})


# -- many at once ------------------------------------------------------------------------------

def generate(kind: str, count: int, seed: int, *, box: tuple[int, int] = (3, 3), clues: int | None = None,
             size: int = 8, remove: float = 0.5, placed: int = 0, holes: float = 0.42,
             balanced: bool = False, check_seconds: float | None = None,
             on_cell: Callable[[], None] | None = None, memory_limit: int | None = None) -> Iterator:
    """``count`` puzzles of ``kind``, the same ones for the same arguments (Sudoku: the same
    ones for the same ``check_seconds`` too, where a check reaches it).  ``memory_limit``: the
    bytes a uniqueness check's encoding may take (:class:`_Counter`)."""
    rng = random.Random(f"{kind}:{seed}")
    if kind == "latin":   # satisfiable by construction: no solver involved
        check_qwh_arguments(size, holes)
        for _ in range(count):
            yield qwh_instance(size, holes, rng, balanced=balanced)
        return
    values = box[0] * box[1] if kind in SHAPED_BY_BOX else size
    counter = _Counter(kind, values, memory_limit) if kind != "nqueens" else None
    for _ in range(count):
        if kind == "sudoku":
            yield generate_sudoku(box, rng, clues, counter=counter, check_seconds=check_seconds, on_cell=on_cell)
        elif kind == "skyscrapers":
            yield generate_skyscrapers(size, rng, remove, counter=counter)
        elif kind == "nqueens":
            yield generate_nqueens(size, placed, rng)
        elif kind in KIND_GENERATORS:
            shape = box if kind in ("sudoku-x", "killer") else size
            yield KIND_GENERATORS[kind](shape, rng, counter)
        else:
            raise UsageError(f"cannot generate {kind!r}: choose {', '.join(GENERATED_KINDS)}")
