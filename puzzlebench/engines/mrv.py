"""Backtracking with bitmask candidate sets, minimum-remaining-values branching, naked and
hidden singles, in Python: the readable reference for the native bitboard engine.

Each cell holds a bitmask of its candidates; placing a value removes it from the cells it
conflicts with, singles are placed at once, and the search branches on the undecided cell
with the fewest candidates, copying the state on each branch.  Beyond these, each constraint
kind is narrowed by its own propagator (hidden singles in full groups, Skyscraper lines by
their support, Futoshiki signs by bounds, cages by their fillings), because without them
16x16 grids, 8x8 Towers and chains of signs take minutes in Python (results/bitboard.md).
The propagators in full: :class:`MrvEngine`.
"""

from __future__ import annotations

from dataclasses import replace

from ..models.base import Puzzle
from ..models.vocabulary import visible_count
from ..results import Stats
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, Option, SearchOutcome, limit_reached
from .cells import CellProblem, compile_rules, less_bounds, line_possible
from .cells import estimated_bytes as cells_estimated_bytes

CLOCK_EVERY = 256  # nodes between looks at the clock
SEARCH_BYTES = 16  # a pair of cells: a cell's domain in the copy a search level holds (Engine.estimated_bytes)


class _Timeout(Exception):
    pass


class MrvSearch:
    def __init__(self, problem: CellProblem, limit: int | None, keep: int, deadline: Deadline,
                 lines: bool = True):
        self.p = problem
        # the terms narrowed to their support: cages, then visibility lines (option ``lines``;
        # off, placed towers are only checked against their clue, line_possible)
        self.terms = problem.cages + (problem.sights if lines else ())
        self.check_lines = bool(problem.lines) and not lines
        self.terms_of_cell: list[list[int]] | None = None
        if self.terms:
            self.terms_of_cell = [[] for _ in range(problem.n_cells)]
            for k, term in enumerate(self.terms):
                for cell in term.cells:
                    self.terms_of_cell[cell].append(k)
        self.limit, self.keep, self.deadline = limit, keep, deadline
        self.solutions: list[tuple[int, ...]] = []
        self.count = 0
        self.nodes = self.guesses = self.backtracks = self.propagations = 0

    def run(self) -> bool:
        """Search; True when the clock stopped it."""
        p = self.p
        domains = list(p.domains)
        values = [0] * p.n_cells
        start = [c for c in range(p.n_cells) if _single(domains[c])]
        self.nodes = 1  # the root
        try:
            if self._settle(domains, values, start, set(range(len(self.terms)))) and \
                    self._hidden_singles(domains, values):
                self._branch(domains, values)
        except _Timeout:
            return True
        return False

    def _settle(self, domains: list[int], values: list[int], queue: list[int],
                terms: set[int] | None = None) -> bool:
        """Place every decided cell in ``queue`` and every naked single that follows, with
        the terms (cages, and visibility lines unless option ``lines`` is off; ``terms``: to
        look at in any case) narrowed to their support, to a fixpoint; False on a
        contradiction."""
        p, nv = self.p, self.p.n_values
        terms_of = self.terms_of_cell
        touched_lines = set()
        touched = set(terms or ())
        while True:
            while queue:
                cell = queue.pop()
                if values[cell]:
                    continue
                v = domains[cell].bit_length()
                values[cell] = v
                if self.check_lines:
                    touched_lines.update(p.lines_of_cell[cell])
                if terms_of:
                    touched.update(terms_of[cell])
                for other, bit in p.conflicts[cell * nv + v - 1]:
                    d = domains[other]
                    if d & bit:
                        d &= ~bit
                        domains[other] = d
                        if not d:
                            return False
                        if terms_of:
                            touched.update(terms_of[other])
                        if _single(d) and not values[other]:
                            self.propagations += 1
                            queue.append(other)
                    elif values[other] and d == bit:
                        return False
            if not touched:
                break
            touched = self._narrow(domains, values, touched, queue)
            if touched is None:
                return False
            if not queue and not touched:
                break
        return all(line_possible(p.lines[k], values, nv) for k in touched_lines)

    def _narrow(self, domains: list[int], values: list[int], terms: set[int],
                queue: list[int]) -> set[int] | None:
        """Keep in each term's cells the values its support allows (a cage's consistent
        fillings, a visibility line's fitting runs); the terms of the cells that lost a
        value (to look at again), or None on a contradiction.  A cell left with one value
        is queued (a naked single)."""
        terms_of = self.terms_of_cell
        again: set[int] = set()
        for k in terms:
            term = self.terms[k]
            kept = term.supported(domains)
            if kept is None:
                return None
            for cell, d in zip(term.cells, kept):
                if d != domains[cell]:
                    domains[cell] = d
                    again.update(terms_of[cell])
                    if _single(d) and not values[cell]:
                        self.propagations += 1
                        queue.append(cell)
        return again

    def _hidden_singles(self, domains: list[int], values: list[int]) -> bool:
        """Place hidden singles (and the naked singles they lead to) until none is left;
        False on a contradiction."""
        full = (1 << self.p.n_values) - 1
        changed = True
        while changed:
            changed = False
            for unit in self.p.full_units:
                once = twice = 0
                for cell in unit:
                    d = domains[cell]
                    twice |= once & d
                    once |= d
                if once != full:
                    return False
                lonely = once & ~twice
                if not lonely:
                    continue
                queue = []
                for cell in unit:
                    bit = domains[cell] & lonely
                    if bit and not values[cell]:
                        if bit & (bit - 1):
                            return False  # one cell is the only place of two values
                        domains[cell] = bit
                        queue.append(cell)
                if queue:
                    self.propagations += len(queue)
                    changed = True
                    if not self._settle(domains, values, queue):
                        return False
        return True

    def _propagate(self, domains: list[int], values: list[int], queue: list[int]) -> bool:
        while True:
            if not (self._settle(domains, values, queue) and self._hidden_singles(domains, values)):
                return False
            if not self.p.less:
                return True
            changed = less_bounds(self.p.less, domains)
            if changed is None:
                return False
            queue = [c for c in changed if not values[c] and _single(domains[c])]
            self.propagations += len(queue)
            if not queue:
                return True

    def _branch(self, domains: list[int], values: list[int]) -> None:
        """Depth first over the most constrained cell, the branch points on a list rather than
        the call stack (a 64x64 grid goes thousands of levels deep, past Python's recursion
        limit); the same steps and counters as the recursive form, in the same order."""
        points = [self._open(domains, values)]
        while points:
            point = points[-1]
            if point is None or not point[3]:     # a leaf, or every alternative tried
                points.pop()
                continue
            d, v, best, mask = point
            bit = mask & -mask
            points[-1] = (d, v, best, mask ^ bit)
            self.nodes += 1
            if self.nodes % CLOCK_EVERY == 0 and self.deadline.expired():
                raise _Timeout
            d2, v2 = d[:], v[:]
            d2[best] = bit
            if self._propagate(d2, v2, [best]):
                points.append(self._open(d2, v2))
                if limit_reached(self.count, self.limit):
                    return
            else:
                self.backtracks += 1

    def _open(self, domains: list[int], values: list[int]) -> tuple | None:
        """A branch point on the cell with fewest candidates ``(domains, values, cell, its
        candidates)``, or ``None`` where every cell is placed (a solution counted)."""
        best, best_count = -1, self.p.n_values + 1
        for cell, v in enumerate(values):
            if not v:
                k = domains[cell].bit_count()
                if k < best_count:
                    best, best_count = cell, k
                    if k == 2:
                        break
        if best < 0:
            if self._complete(values):
                self.count += 1
                if len(self.solutions) < self.keep:
                    self.solutions.append(tuple(values))
            return None
        if best_count > 1:
            self.guesses += 1
        return domains, values, best, domains[best]

    def _complete(self, values: list[int]) -> bool:
        nv = self.p.n_values
        return (all(any(values[x // nv] == x % nv + 1 for x in g) for g in self.p.at_least_one)
                and all(c.cage.holds([values[x] for x in c.cage.cells]) for c in self.p.cages)
                and all(visible_count([values[x] for x in line.cells]) == line.clue for line in self.p.lines))


def _single(mask: int) -> bool:
    return mask & (mask - 1) == 0


class MrvEngine(Engine):
    """Bitmask MRV backtracking with each constraint kind's propagator (see the module doc).

    Each cell holds a bitmask of its candidates (bit v-1 for value v); placing
    a value removes it from the cells it conflicts with; a cell left with one candidate is placed
    at once (a naked single) and a cell left with none is a dead end; the search branches on the
    undecided cell with the fewest candidates (popcount), copying the state on each branch.
    Beyond the seed, hidden singles: in a group of cells that must hold every value once (an
    ``AllDifferent`` over as many cells as values), a value with one place left goes there, and a
    value with none is a dead end.  Without them 16x16 grids take minutes in Python.
    Skyscraper lines are narrowed by their propagator, like cages
    (:class:`~puzzlebench.engines.cells.VisibilitySupport`: each cell keeps the heights some run of
    towers that shows the clue uses; without it, option ``lines=false``, placed towers are only
    checked against the bound of :func:`~puzzlebench.engines.cells.line_possible`, and most of
    Tatham's 8x8 Towers puzzles run out of 20 s: results/bitboard.md);
    ``Less`` pairs (Futoshiki's signs) by bounds, to a fixpoint, after every placement
    (:func:`~puzzlebench.engines.cells.less_bounds`): placing a value alone prunes only the
    neighbour, and a chain of signs left mrv a minute on one 7x7; a cage keeps in its cells the
    values of its fillings still consistent with their domains."""

    kinds = EVERY_KIND
    family = "mrv"
    holds_time_limit = True
    summary = "bitmask candidates, MRV branching and naked singles (pure Python)"
    statistics = {
        "nodes": "search nodes: the root and every alternative tried at a branch",
        "guesses": "branch points whose chosen cell had two or more candidates",
        "backtracks": "values tried at a branch whose propagation failed at once",
        "propagations": "cells placed by propagation: naked singles (one candidate left) and "
                        "hidden singles (one place left for a value in a row, column, block…)",
    }

    options = (
        Option("lines", bool, True, "Skyscrapers: each visibility clue narrows its line's domains to the "
               "heights that some run of towers showing the clue uses; off: placed towers are checked "
               "against the clue"),
    )

    takes_candidates = True

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        """The conflict tables and the search's domains, a list of every cell's a level, as
        many levels as cells at most: 19 bytes a pair of cells in all measured on empty Sudokus
        from 36x36 to 64x64 (304 MB on 64x64; results/budget.md)."""
        return cells_estimated_bytes(puzzle.rules) + SEARCH_BYTES * puzzle.n_cells ** 2

    def encode(self, puzzle: Puzzle) -> CellProblem:
        problem = compile_rules(puzzle.rules)
        marks = getattr(puzzle, "candidates", None)   # a Sukaku's pencil marks: narrower domains
        if marks:
            problem = replace(problem, domains=tuple(d & m for d, m in zip(problem.domains, marks)))
        return problem

    def size(self, artifact: CellProblem) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: CellProblem, limit, keep, deadline: Deadline) -> SearchOutcome:
        s = MrvSearch(artifact, limit, keep, deadline, self.settings["lines"])
        timed_out = s.run()
        stats = Stats(nodes=s.nodes, guesses=s.guesses, backtracks=s.backtracks,
                      propagations=s.propagations,
                      raw={"nodes": s.nodes, "guesses": s.guesses, "failed_values": s.backtracks,
                           "singles": s.propagations})
        return SearchOutcome(s.solutions, s.count, timed_out, stats)
