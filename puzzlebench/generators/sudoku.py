"""Seeded Sudoku of any block shape, minimal or with a target clue count, and 9x9 Sudoku to a
target rating.

A full grid (the shuffled search of :mod:`.fill`; from :data:`LARGE_GRID` values, random
blocks on the diagonal completed by the engine: the search took 31 s for one 25x25 grid, the
engine 5 ms), then its clues dug in a random order (:func:`.dig.dig`).  From 16 values the
counter gets a short first look at each check and a SAT solver decides the rest
(:class:`CluesProver`; results/generate_large.md).  With a time limit per check a clue the
engine could not decide in time is kept: the puzzle is still unique, not minimal, and its
metadata counts those clues (``undecided``); a second, longer check of those clues alone
(``recheck_seconds``) digs deeper for a fraction of what the longer limit would cost on every
clue.  To a target rating: minimal puzzles rated by
``rate``'s default score, kept when in range (generate and test, no steering).
"""

from __future__ import annotations

import random
import time
from typing import Callable, Iterator

from ..encoders.budget import check_budget, pysat_bytes
from ..encoders.cnf import encode
from ..encoders.cnf import estimated_bytes as cnf_estimated_bytes
from ..errors import UsageError
from ..models.sudoku import MAX_VALUES, Sudoku, box_is_inferred, self_describing_form
from ..models.vocabulary import candidate
from ..results import Status
from ..runtime.interrupts import CtrlCWatch, stop_at_ctrl_c
from ..runtime.limits import Deadline
from .dig import Counter, dig
from .fill import random_full_grid

LARGE_GRID = 16
"""Values from which a full grid is completed by the engine rather than by backtracking."""


def line_form_warning(box: tuple[int, int]) -> str | None:
    """Said of a block shape whose puzzles are written as numbers, which name no shape: how to
    read them back (``None`` where the line names it)."""
    if self_describing_form(box) == "line" and not box_is_inferred(box) and box[0] * box[1] <= MAX_VALUES:
        return (f"--box {box[0]}x{box[1]}: a grid of {box[0] * box[1]} values is written as numbers, "
                f"which name no block shape: read it back with --box {box[0]}x{box[1]}")
    return None


def completed_grid(box: tuple[int, int], rng: random.Random, counter: Counter) -> list[int]:
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
"""The PySAT solver of :class:`CluesProver`: CaDiCaL
1.9.5 decided 61 late checks of a 25x25 dig (seed 1, checks 330 on) in 40 s of CPU where
Glucose 4 decided 46 and MiniSat 2.2 19 (CaDiCaL 1.5.3: 57; Glucose with the grid's values as
phases: 46; the ``augmented`` encoding: 27).  CaDiCaL cannot be interrupted in-process, so
under a time limit per check the interruptible :data:`SAT_SOLVER_TIMED` serves."""
SAT_SOLVER_TIMED = "glucose4"
SAT_ENCODING = "optimized"
"""Its CNF encoding (:mod:`puzzlebench.encoders.cnf`): each check's own formula, the givens
propagated away."""
COUNTER_SECONDS = 0.05
"""The counter's one turn in a check of :class:`CluesProver` (0: the SAT solver alone)."""


class CluesProver:
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

    def __init__(self, box: tuple[int, int], solution: list[int], counter: Counter, timed: bool = False):
        self.box, self.counter = box, counter
        self.solver_name = SAT_SOLVER_TIMED if timed else SAT_SOLVER   # an answer is the same from either
        n = box[0] * box[1]
        self.literal = [candidate(cell, v, n) + 1 for cell, v in enumerate(solution)]
        self.watchdog = None
        self.ctrl_c = CtrlCWatch()   # one for the dig's checks, not a thread a check
        self.decided = {"counter": 0, "sat": 0}   # checks decided by each engine (the benchmark's figures)
        self.seconds = {"counter": 0.0, "sat": 0.0}   # CPU time spent by each

    @staticmethod
    def check_budget(box: tuple[int, int], memory_limit: int | None) -> None:
        """The SAT checks' formulas grow as clues go, to the empty grid's at most: that one's
        estimate (and what the larger of the two solvers holds of it) held to the budget
        before the grid is drawn."""
        n = box[0] * box[1]
        per_clause, per_literal = max(pysat_bytes(SAT_SOLVER), pysat_bytes(SAT_SOLVER_TIMED))
        estimate = cnf_estimated_bytes(Sudoku(box, [0] * (n * n)), "extended", per_clause=per_clause,
                                       per_literal=per_literal)
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
            from ..engines.sat import Watchdog

            self.watchdog = self.watchdog or Watchdog()
            self.watchdog.arm(solver, deadline.at)
            try:
                with stop_at_ctrl_c(solver.interrupt, watch=self.ctrl_c):   # solve_limited sets no SIGINT handler
                    return solver.solve_limited(expect_interrupt=True)
            finally:
                self.watchdog.disarm()

    def close(self) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()
        self.ctrl_c.close()


def generate_sudoku(box: tuple[int, int], rng: random.Random, clues: int | None = None,
                    attempts: int = 20, counter: Counter | None = None, check_seconds: float | None = None,
                    on_cell: Callable[[], None] | None = None, sat: bool = True,
                    recheck_seconds: float | None = None) -> Sudoku:
    """A Sudoku with a unique solution: minimal, or with ``clues`` clues.  ``check_seconds``:
    the time limit of each uniqueness check (module text); ``recheck_seconds``: the limit of a
    second check of each clue the first left undecided, in the order they were dug, after the
    pass (a clue needed stays needed with fewer clues, so only those can go then); ``on_cell``:
    called after each clue tried (a progress bar's step); ``sat``: from :data:`LARGE_GRID`
    values, the counter's first look and a SAT solver (:class:`CluesProver`), else the counter
    alone (the benchmark's reference)."""
    r, c = box
    n = r * c
    if clues is not None and not 0 < clues <= n * n:
        raise UsageError(f"--clues must be between 1 and {n * n} for {r}x{c} blocks; got {clues}")
    counter = counter or Counter("sudoku")
    if sat and n >= LARGE_GRID:
        CluesProver.check_budget(box, counter.memory_limit)
    best = None
    for _ in range(attempts):
        solution = random_full_grid(box, rng) if n < LARGE_GRID else completed_grid(box, rng, counter)
        givens = list(solution)
        order = list(range(n * n))
        rng.shuffle(order)
        undecided: list[int] = []   # the cells whose check ran out of time, in the order dug
        prover = CluesProver(box, solution, counter, check_seconds is not None) if sat and n >= LARGE_GRID else None

        def check(cell: int, seconds: float | None) -> bool:   # the clue at `cell` gone for good if unique
            givens[cell] = 0
            if prover is None:
                status = counter.solve(Sudoku(box, givens), time_limit=seconds).status
            else:
                status = prover.removable(givens, cell, seconds)
            if status is not Status.UNIQUE:
                givens[cell] = solution[cell]
                if status is Status.TIMEOUT:
                    undecided.append(cell)
            return status is Status.UNIQUE

        def removable(kept: list, cell: int) -> bool:   # `givens` is `kept` written out
            unique = check(cell, check_seconds)
            if on_cell is not None:
                on_cell()
            return unique

        dig(range(n * n), order, removable, stop=None if clues is None else lambda left: left <= clues)
        if recheck_seconds is not None:
            first, left = undecided.copy(), sum(1 for g in givens if g)
            undecided.clear()
            for cell in first:
                if clues is not None and left <= clues:
                    break
                left -= check(cell, recheck_seconds)
        form = self_describing_form(box)   # 3x2 blocks written as a line read back as 2x3: a Solo id names them
        metadata = {"solution": Sudoku(box, solution, form=form).write()}
        if prover is not None:
            prover.close()
            metadata["decided"] = dict(prover.decided)
            metadata["seconds"] = {k: round(v, 3) for k, v in prover.seconds.items()}
        if undecided:
            metadata["undecided"] = len(undecided)
        puzzle = Sudoku(box, givens, form=form, metadata=metadata)
        count = sum(1 for g in givens if g)
        if clues is None or count == clues:
            return puzzle
        if best is None or count < sum(1 for g in best.givens if g):
            best = puzzle
    raise UsageError(f"no {r}x{c} Sudoku with {clues} clues found in {attempts} attempts "
                     f"(the fewest reached: {sum(1 for g in best.givens if g)}); ask for more clues")


def without_solution(puzzle: Sudoku, rng: random.Random) -> Sudoku:
    """``puzzle`` (unique, its solution in its metadata) with one more given, at an open cell:
    a value its solution does not have there and no given of the cell's row, column or block
    holds, so that no rule is broken at once and yet no solution remains (the one solution has
    another value there).  An unsatisfiable puzzle that only a search, or a proof, can tell."""
    n = puzzle.n_values
    solution = puzzle.parse_solution(puzzle.metadata["solution"])
    givens = list(puzzle.givens)
    units = [cells for _, cells in puzzle.units()]
    cells = [cell for cell in range(n * n) if not givens[cell]]
    rng.shuffle(cells)
    for cell in cells:
        seen = {givens[other] for unit in units if cell in unit for other in unit}
        values = [v for v in range(1, n + 1) if v not in seen and v != solution[cell]]
        if values:
            givens[cell] = rng.choice(values)
            return Sudoku(puzzle.box, givens, form=puzzle.form)
    raise UsageError("no open cell takes another value without breaking a rule: the puzzle is too full")


# -- Sudoku to a target rating -----------------------------------------------------------------

RATING_SCALE = (1.0, 12.0)
"""The SE scale's ends: 1.0 (a last free cell) to SE's 11.x for the nested forcing chains."""
ATTEMPTS_PER_PUZZLE = 200


def known_techniques() -> tuple[str, ...]:
    """Every technique name an explanation can carry: the human solver's, SE's ladder's (its
    chain rungs by the names of their steps) and ``guess``."""
    from ..techniques import chains
    from ..techniques.ladder import CHAIN_RUNGS, GUESS, SE_LADDER, TECHNIQUES
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
    counter = Counter("sudoku")
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
