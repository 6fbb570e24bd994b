"""What the human-technique solver learns about one puzzle: the facts a difficulty model
weighs (Landreau, TIPE 2025, §2: the count of each technique; §3: the Quine measure; annexe 1: the
visual criteria)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import OutOfTime
from ..runtime.limits import Deadline
from ..techniques.grid import Contradiction, State, Step
from ..techniques.ladder import GUESS, ORDER, TECHNIQUES, HumanSolver, count_solutions
from .criteria import visual_criteria

SINGLES = ("last free cell", "hidden single", "naked single")
LADDER_SECONDS = 5.0
"""Default time limit of SE's ladder per puzzle: above the slowest puzzle SE rates <= 9.3
in results/rating_hard.md (0.7 s of CPU) with room for a loaded machine; a puzzle past it
(nested forcing chains, SE 9.5+) is scored by the model."""
ALL_MOVES = TECHNIQUES + (GUESS,)


@dataclass
class Profile:
    """``status``: ``unique`` (rated), ``multiple`` or ``unsat`` (not a proper puzzle: no
    rating).  ``techniques`` counts the steps of the branch that reached the solution
    (guesses included); ``backtracks`` the branches given up; ``depth`` the deepest guess."""

    status: str
    criteria: dict[str, float]
    techniques: dict[str, int] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    guesses: int = 0
    backtracks: int = 0
    depth: int = 0
    singles: SinglesPass | None = None
    stuck_left: int = 0
    solution: tuple[int, ...] | None = None
    quine: dict[str, float] | None = None
    ladder: SeLadder | None = None

    @property
    def hardest(self) -> str | None:
        if not self.techniques:
            return None
        return max(self.techniques, key=ORDER.__getitem__)


@dataclass
class SeLadder:
    """The solve with Sudoku Explainer's ladder (:data:`puzzlebench.techniques.ladder.SE_LADDER`):
    ``status`` ``solved`` (every step a technique: ``rating`` is SE's rule, the hardest step's
    rating), ``beyond`` (the ladder ran out and the solver guessed: no SE-rule rating) or
    ``timeout`` (the time limit stopped it); ``steps`` the rated steps (up to the stop)."""

    status: str
    rating: float | None
    steps: list[Step]
    seconds: float
    guesses: int = 0
    backtracks: int = 0
    depth: int = 0

    @property
    def hardest(self) -> str | None:
        if self.status == "beyond":
            return GUESS
        rated = [s for s in self.steps if s.rating is not None]
        return max(rated, key=lambda s: s.rating).technique if rated else None


def se_ladder(box: tuple[int, int], givens: Sequence[int], *, seconds: float | None = LADDER_SECONDS,
              truth: tuple[int, ...] | None = None) -> SeLadder:
    """Solve a proper puzzle with SE's ladder within ``seconds`` (None: no limit)."""
    import time
    t0 = time.perf_counter()
    solver = HumanSolver(tuple(box), ladder="se", assume_unique=True, truth=truth,
                         deadline=Deadline(seconds))
    steps: list[Step] = []
    try:
        solved = next(solver.solutions(givens))
        steps = solved.steps
    except OutOfTime:
        return SeLadder("timeout", None, steps, time.perf_counter() - t0)
    elapsed = time.perf_counter() - t0
    search = (solver.guesses, solver.backtracks, solver.max_depth)
    if any(s.technique == GUESS for s in steps):
        return SeLadder("beyond", None, steps, elapsed, *search)
    return SeLadder("solved", max((s.rating for s in steps), default=0.0), steps, elapsed, *search)


@dataclass(frozen=True)
class SinglesPass:
    """Solving with the singles alone: the cells left when they run out, and how many
    cells could be placed by a single at each step (Pelánek 2014: a person's time per step
    grows as the number of places to find a move shrinks)."""

    left: int
    steps: int
    mean_options: float
    effort: float  # Σ over the steps of 1 / (cells placeable by a single)


def singles_available(s: State) -> int:
    """Cells that a naked or a hidden single would place now."""
    g, cand = s.g, s.cand
    cells = 0
    for c, m in enumerate(cand):
        if m and not m & (m - 1):
            cells |= 1 << c
    for unit in g.units:
        once = more = 0
        for c in unit:
            m = cand[c]
            more |= once & m
            once |= m
        hidden = once & ~more
        if hidden:
            for c in unit:
                if cand[c] & hidden:
                    cells |= 1 << c
    return cells.bit_count()


def singles_pass(box: tuple[int, int], givens: Sequence[int]) -> SinglesPass:
    """The baseline "cells left after naked and hidden singles", and the options on the way."""
    solver = HumanSolver(box, techniques=SINGLES)
    options: list[int] = []
    try:
        state = State.from_givens(solver.g, givens)
        while state.unsolved:
            step = solver.next_step(state)
            if step is None:
                break
            options.append(singles_available(state) or 1)
            state.apply(step)
    except Contradiction:
        return SinglesPass(0, len(options), 0.0, 0.0)
    mean = sum(options) / len(options) if options else 0.0
    return SinglesPass(state.unsolved, len(options), mean, sum(1 / k for k in options))


def profile_puzzle(box: tuple[int, int], givens: Sequence[int], *, truth: tuple[int, ...] | None = None,
                   quine: bool = False, ladder: bool = False,
                   ladder_seconds: float | None = LADDER_SECONDS) -> Profile:
    """Solve with every technique (unique rectangles included once the puzzle is known to
    have one solution) and collect the facts; ``truth`` checks every deduction.  ``ladder``:
    also solve with SE's ladder (9x9 only: SE's scale is defined there), within
    ``ladder_seconds``."""
    box = tuple(box)
    criteria = visual_criteria(box, givens)
    count, first = count_solutions(box, givens, limit=2)
    if count != 1:
        return Profile("unsat" if count == 0 else "multiple", criteria)
    solver = HumanSolver(box, assume_unique=True, truth=truth)
    solved = next(solver.solutions(givens))
    if solved.values != first:
        raise AssertionError("the human solver and the counting search found different solutions")
    counts = Counter(step.technique for step in solved.steps)
    prof = Profile("unique", criteria, dict(counts), solved.steps, counts.get(GUESS, 0),
                   solver.backtracks, solver.max_depth,
                   singles_pass(box, givens), _left_before_first_guess(givens, solved.steps),
                   solved.values)
    if quine:
        prof.quine = quine_measure(box, givens)
    if ladder and box == (3, 3):
        prof.ladder = se_ladder(box, givens, seconds=ladder_seconds, truth=truth)
    return prof


def _left_before_first_guess(givens: Sequence[int], steps: Sequence[Step]) -> int:
    """Empty cells left when every technique is stuck for the first time (0: no guess)."""
    placed = sum(len(s.placements) for s in steps if s.depth == 0)
    return sum(1 for v in givens if not v) - placed


def quine_measure(box: tuple[int, int], givens: Sequence[int]) -> dict[str, float] | None:
    """Landreau (TIPE 2025) §3.C: the Quine dilemma solver's disjunction depth, number of disjunctions
    and number of eliminations (Quine steps), heuristic h1, for the search that finds the
    first solution (:mod:`puzzlebench.engines.quine`, the CNF issue's engine)."""
    try:
        from ..engines.quine import QuineEngine
    except ImportError:  # pragma: no cover - the engine ships with the package
        return None
    from ..models.sudoku import Sudoku
    result = QuineEngine("h1").run(Sudoku(tuple(box), givens), limit=1)
    raw = result.stats.raw
    if "max_depth" not in raw:
        return None
    return {"depth": float(raw["max_depth"]),
            "disjunctions": float(sum(raw["disjunctions_per_depth"])),
            "eliminations": float(sum(raw["steps_per_depth"]))}


def feature_vector(prof: Profile) -> dict[str, float]:
    """Every feature a model may use, by name:

    - ``n:T`` how often technique T (or ``guess``) was used, ``used:T`` whether it was (the
      study's "coefficient de première utilisation"), ``hardest:T`` whether T was the hardest;
    - ``backtracks``, ``depth``: the guessing search; ``singles_left``, ``stuck_left``: empty
      cells left by the singles alone and by every technique, before any guess;
      ``singles_options`` the mean number of cells a single could fill at each step of the
      singles pass, ``singles_effort`` Σ 1/options (:class:`SinglesPass`);
    - the visual criteria; ``quine:*`` when the Quine measure was computed.
    """
    f: dict[str, float] = {}
    hardest = prof.hardest
    for t in ALL_MOVES:
        n = prof.techniques.get(t, 0)
        f[f"n:{t}"] = float(n)
        f[f"used:{t}"] = 1.0 if n else 0.0
        f[f"hardest:{t}"] = 1.0 if t == hardest else 0.0
    f["backtracks"] = float(prof.backtracks)
    f["depth"] = float(prof.depth)
    single = prof.singles or SinglesPass(0, 0, 0.0, 0.0)
    f["singles_left"] = float(single.left)
    f["singles_options"] = single.mean_options
    f["singles_effort"] = single.effort
    f["stuck_left"] = float(prof.stuck_left)
    for k, v in prof.criteria.items():
        f[k] = float(v)
    for k, v in (prof.quine or {}).items():
        f[f"quine:{k}"] = float(v)
    return f


FEATURE_SETS = {
    "seed": [f"n:{t}" for t in ALL_MOVES] + [f"used:{t}" for t in ALL_MOVES],
    "full": ([f"n:{t}" for t in ALL_MOVES] + [f"used:{t}" for t in ALL_MOVES]
             + [f"hardest:{t}" for t in ALL_MOVES]
             + ["backtracks", "depth", "singles_left", "singles_options", "singles_effort", "stuck_left",
                "clues", "candidates", "spread_rows", "spread_columns", "spread_boxes",
                "spread_values"]),
}
FEATURE_SETS["full+quine"] = FEATURE_SETS["full"] + ["quine:depth", "quine:disjunctions", "quine:eliminations"]
"""``seed``: the study's model Σ α_j n_j + Σ β_j [n_j > 0]; ``full``: with the hardest
technique, the guessing search and the visual criteria."""
