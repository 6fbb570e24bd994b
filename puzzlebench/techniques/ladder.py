"""A Sudoku solver that uses the techniques people use, easiest first, and explains each step.

It follows Félix Landreau's TIPE study (2025), which rates a grid by the techniques a
progressive solver needs, and adds the classic catalogue's next ones (Sudopedia and HoDoKu's
technique pages; A. Stuart, "The Logic of Sudoku", 2007); a second ladder (``ladder="se"``)
follows Sudoku Explainer (N. Juillerat) step for step with SE's ratings, up to the chains of
:mod:`.chains`.  At every step the easiest technique that makes progress is applied and
logged in words, then the ladder starts again; when none applies it guesses the cell with
the fewest candidates.  Every technique is a sound deduction (the uniqueness ones only under
``assume_unique``), so the guessing search enumerates all solutions when asked.  The ladders
in full: :class:`HumanSolver`; the techniques, one module a family: :mod:`.singles`,
:mod:`.subsets`, :mod:`.fish`, :mod:`.wings`, :mod:`.uniqueness`, :mod:`.chains`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterator, Sequence

from ..errors import OutOfTime
from . import chains
from .fish import (five_strong_links, four_strong_links, jellyfish, simple_colouring, six_strong_links, swordfish,
                   three_strong_links, turbot_fish, x_wing)
from .grid import Clock, Contradiction, State, Step, geometry, values_of
from .singles import hidden_single, last_free_cell, naked_single
from .subsets import (box_line_reduction, hidden_pair, hidden_quad, hidden_triple, naked_pair, naked_quad, naked_triple,
                      pointing_pair)
from .uniqueness import bug, unique_rectangle, unique_rectangle_2_4
from .wings import aligned_pair_exclusion, wxyz_wing, xy_chain, xyz_wing, y_wing

TECHNIQUES: tuple[str, ...] = (
    "last free cell", "hidden single", "naked single", "naked pair", "naked triple",
    "pointing pair", "hidden pair", "hidden triple", "box-line reduction", "x-wing", "y-wing",
    "swordfish", "simple colouring", "xyz-wing", "jellyfish", "unique rectangle", "xy-chain",
)
"""Every technique in the order tried: the study's twelve in its order, then the additions."""
GUESS = "guess"
"""The study's "backtracking": a cell's value chosen without a deduction."""
ORDER = {name: i for i, name in enumerate(TECHNIQUES + (GUESS,))}


TECHNIQUE_FUNCTIONS = {
    "last free cell": last_free_cell, "hidden single": hidden_single, "naked single": naked_single,
    "naked pair": naked_pair, "naked triple": naked_triple, "pointing pair": pointing_pair,
    "hidden pair": hidden_pair, "hidden triple": hidden_triple,
    "box-line reduction": box_line_reduction, "x-wing": x_wing, "y-wing": y_wing,
    "swordfish": swordfish, "simple colouring": simple_colouring, "xyz-wing": xyz_wing,
    "jellyfish": jellyfish, "unique rectangle": unique_rectangle, "xy-chain": xy_chain,
}
assert tuple(TECHNIQUE_FUNCTIONS) == TECHNIQUES


# -- Sudoku Explainer's ladder ----------------------------------------------------------------
# SE's techniques in its order, with its ratings (N. Juillerat, Sudoku Explainer 1.2, and the
# SukakuExplainer fork's Solver.java and hint classes): hidden single 1.2 in a box, 1.5 in a
# line, 1.0 for the last cell of a unit; naked single 2.3; pointing 2.6, claiming 2.8; naked
# pair 3.0; X-wing 3.2; hidden pair 3.4; naked triple 3.6; swordfish 3.8; hidden triple 4.0;
# XY-wing 4.2; XYZ-wing 4.4; unique rectangle 4.5 (type 2: 4.6); naked quad 5.0; jellyfish
# 5.2; hidden quad 5.4; BUG 5.6; aligned pair exclusion 6.2; then the chains of
# :mod:`.chains`, rated by the chain.  The Sudoku Exchange bank, the public data with SE
# ratings, was rated by a SukakuExplainer-like version (its 4.1 puzzles are two-string kites,
# its 5.4 ones three strong links), so SukakuExplainer's additions are here too, at their
# ratings: the turbot fish family 4.0-4.2 (after the hidden triple), WXYZ-wing 5.5-5.6 and
# the strong-linked fishes 5.4-6.9 (X-chains of 3-6 strong links, before the chains).
# Not here: SE's "direct" variants of the subsets (a subset that yields a single at once,
# 1.7-2.5), aligned triple exclusion (7.5), unique rectangles of type 3, unique loops, BUG
# types 2-4, grouped links, VWXYZ-wings: a puzzle whose hardest step is one of those is rated
# by the next rung that solves it.

SE_RATINGS = {
    "last free cell": 1.0, "naked single": 2.3, "pointing pair": 2.6, "box-line reduction": 2.8,
    "naked pair": 3.0, "x-wing": 3.2, "hidden pair": 3.4, "naked triple": 3.6, "swordfish": 3.8,
    "hidden triple": 4.0, "y-wing": 4.2, "xyz-wing": 4.4, "unique rectangle": 4.5,
    "naked quad": 5.0, "jellyfish": 5.2, "hidden quad": 5.4, "bug": 5.6,
    "aligned pair exclusion": 6.2,
}


def _rated(f, technique: str):
    def rated(s: State) -> Step | None:
        step = f(s)
        if step is None:
            return None
        if step.rating is not None:
            return step
        rating = SE_RATINGS.get(technique)
        if technique == "hidden single":
            rating = 1.2 if " in box " in step.text else 1.5
        return replace(step, rating=rating)
    rated.__name__ = f.__name__
    return rated


def _chain_rung(kind: str, ctx):
    """The rung ``kind`` of :mod:`.chains`; ``ctx`` (a ``chains.ChainContext``, one per
    solver, shared by its rungs) is what they remember between steps."""
    def rung(s: State, deadline: Clock | None = None) -> Step | None:
        if kind == "chains":
            hint = chains.cycles_and_forcing_chains(s, deadline, ctx)
        else:
            hint = chains.multiple_chains(s, deadline=deadline, ctx=ctx, **chains.RUNGS[kind])
        if hint is None:
            return None
        return Step(hint.technique, hint.placements, hint.eliminations, hint.text, 0, hint.rating,
                    cells=tuple(dict.fromkeys(c for c, _ in hint.candidates)),
                    candidates=hint.candidates, links=hint.links)
    rung.__name__ = kind.replace(" ", "_")
    rung.takes_deadline = True
    return rung


SE_LADDER: tuple[str, ...] = (
    "last free cell", "hidden single", "naked single", "pointing pair", "box-line reduction",
    "naked pair", "x-wing", "hidden pair", "naked triple", "swordfish", "hidden triple",
    "turbot fish", "y-wing", "xyz-wing", "unique rectangle", "unique rectangle 2/4", "naked quad",
    "jellyfish", "hidden quad", "wxyz-wing", "3 strong links", "bug", "4 strong links",
    "aligned pair exclusion", "5 strong links", "6 strong links", "chains", "nishio", "multiple chains", "dynamic chains", "dynamic chains+",
)
"""The rungs of the ``se`` ladder in order; the last five are the chain searches."""
CHAIN_RUNGS = ("chains", "nishio", "multiple chains", "dynamic chains", "dynamic chains+")
UNIQUENESS = frozenset({"unique rectangle", "unique rectangle 2/4", "bug"})


# -- the solver -------------------------------------------------------------------------------

@dataclass
class Solved:
    """One solution and the steps of the branch that reached it."""

    values: tuple[int, ...]
    steps: list[Step]


@dataclass
class HumanSolver:
    """Easiest technique first; guess when stuck.  ``techniques`` limits the ones used (in
    the order of :data:`TECHNIQUES`); ``truth`` (a known solution) makes every elimination and
    placement checked while the branch agrees with it — a wrong deduction raises
    ``AssertionError`` naming the step.

    Félix Landreau's TIPE study (2025) rates a grid by the techniques a progressive solver needs, "les
    techniques fournies par ordre croissant de difficulté": last free cell, hidden single, naked
    single, naked pair, naked triple, pointing pair, hidden pair, hidden triple, box-line
    reduction, X-wing, Y-wing, swordfish, and backtracking when nothing else works.  This module
    adds, after those, simple colouring, XYZ-wing, jellyfish, unique rectangle (type 1) and
    XY-chains (the classic catalogue: Sudopedia / HoDoKu's technique pages, A. Stuart's
    "The Logic of Sudoku").

    At every step the solver applies the *easiest* technique that makes progress (one placement
    or one set of eliminations), logs it in words ("r3c5 = 7: hidden single in box 2"), and
    starts again from the easiest.  When none applies it guesses the cell with the fewest
    candidates (the study's "backtracking"), solving each branch the same way, and records the
    guess depth.  Candidates are bitmasks (bit v-1 for value v) per cell; every grid with
    rectangular blocks is handled, each technique wherever it is defined.

    A second ladder, ``HumanSolver(ladder="se")``, follows Sudoku Explainer instead (N.
    Juillerat's SE and its SukakuExplainer fork): SE's techniques in SE's order, each step
    carrying SE's rating (``Step.rating``), up to the chains and forcing chains of
    :mod:`.chains`; the rating package scores a puzzle by SE's rule, the hardest step's rating
    (see the comment above :data:`SE_RATINGS`)."""

    box: tuple[int, int] = (3, 3)
    techniques: tuple[str, ...] = TECHNIQUES
    ladder: str = "human"  # "human": TECHNIQUES; "se": Sudoku Explainer's SE_LADDER (rated steps)
    assume_unique: bool = False
    truth: tuple[int, ...] | None = None
    deadline: Clock | None = None
    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    max_depth: int = 0
    steps_taken: int = 0
    _functions: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        self.g = geometry(tuple(self.box))
        if self.ladder == "se":
            funcs = {**TECHNIQUE_FUNCTIONS, "naked quad": naked_quad, "hidden quad": hidden_quad,
                     "bug": bug, "aligned pair exclusion": aligned_pair_exclusion,
                     "unique rectangle 2/4": unique_rectangle_2_4, "turbot fish": turbot_fish,
                     "wxyz-wing": wxyz_wing, "3 strong links": three_strong_links,
                     "4 strong links": four_strong_links, "5 strong links": five_strong_links,
                     "6 strong links": six_strong_links}
            ctx = chains.ChainContext()
            self._functions = [_chain_rung(t, ctx) if t in CHAIN_RUNGS else _rated(funcs[t], t)
                               for t in SE_LADDER if t not in UNIQUENESS or self.assume_unique]
        elif self.ladder == "human":
            self._functions = [TECHNIQUE_FUNCTIONS[t] for t in TECHNIQUES if t in self.techniques
                               and (t != "unique rectangle" or self.assume_unique)]
        else:
            raise ValueError(f"unknown ladder {self.ladder!r} (human, se)")

    def next_step(self, s: State) -> Step | None:
        """The easiest step that makes progress (raises Contradiction on a dead branch)."""
        for f in self._functions:
            step = f(s, self.deadline) if getattr(f, "takes_deadline", False) else f(s)
            if step is not None:
                return step
        return None

    def solutions(self, givens: Sequence[int]) -> Iterator[Solved]:
        """Every solution, each with the steps of its branch (guesses included)."""
        try:
            state = State.from_givens(self.g, givens)
        except Contradiction:
            return
        yield from self._search(state, [], 0)

    def _search(self, s: State, steps: list[Step], depth: int) -> Iterator[Solved]:
        self.nodes += 1
        self.max_depth = max(self.max_depth, depth)
        on_truth = self.truth is not None and self._agrees(s)
        try:
            while s.unsolved:
                # before every look for a step (a scan of the ladder: a clock reading costs a
                # fraction of one), not every so many steps taken: a search of guesses alone
                # takes no step (an empty 25x25, 10 ms a scan) and would overrun its limit
                if self.deadline is not None and self.deadline.expired():
                    raise OutOfTime
                step = self.next_step(s)
                if step is None:
                    break
                if on_truth:
                    self._check(step)
                self.steps_taken += 1
                s.apply(step)
                steps.append(replace(step, depth=depth))
        except Contradiction:
            self.backtracks += 1
            return
        if not s.unsolved:
            yield Solved(tuple(s.val), steps)
            return
        cell = min((c for c, m in enumerate(s.cand) if m), key=lambda c: s.cand[c].bit_count())
        self.guesses += 1
        options = values_of(s.cand[cell])
        for v in options:
            child = s.copy()
            guess = Step(GUESS, ((cell, v),), (),
                         f"{self.g.names[cell]} = {v}: guess at depth {depth + 1} "
                         f"(candidates {','.join(map(str, options))})", depth + 1,
                         cells=(cell,), candidates=tuple((cell, o) for o in options))
            try:
                child.place(cell, v)
            except Contradiction:
                self.backtracks += 1
                continue
            yield from self._search(child, steps + [guess], depth + 1)

    def _agrees(self, s: State) -> bool:
        return all(not v or v == t for v, t in zip(s.val, self.truth))

    def _check(self, step: Step) -> None:
        for cell, v in step.eliminations:
            if self.truth[cell] == v:
                raise AssertionError(f"false elimination by {step.text}: "
                                     f"{self.g.names[cell]} is {v} in the solution")
        for cell, v in step.placements:
            if self.truth[cell] != v:
                raise AssertionError(f"false placement by {step.text}: "
                                     f"{self.g.names[cell]} is {self.truth[cell]} in the solution")


# -- a fast counter for statuses --------------------------------------------------------------

def count_solutions(box: tuple[int, int], givens: Sequence[int], limit: int = 2) -> tuple[int, tuple[int, ...] | None]:
    """How many solutions (up to ``limit``) and the first: singles and MRV guessing only,
    the quick way to learn whether a puzzle is proper before it is rated."""
    solver = HumanSolver(box, techniques=("hidden single", "naked single"))
    first, count = None, 0
    for solved in solver.solutions(givens):
        count += 1
        first = first or solved.values
        if count >= limit:
            break
    return count, first
