"""The naive reference: backtracking with a list of stacks.

A French course on backtracking ("recherche par retour en arrière", whose grids are the
``course-*`` examples) searches with one stack per position: the stack of
position ``i`` holds the choices still to try there, its top is the choice being tried, and
``choices(i, tops)`` gives the choices for position ``i`` given the tops of the stacks before it.
Going back (``retour``) drops the exhausted stacks at the end, then the top of the last one.
Applied to puzzles in a cell order fixed before the search (by default fewest candidates left
by the givens first; ``@order=row`` for the course's reading order), with no propagation: a value is a choice for a cell
when no earlier cell rules it out; a skyscraper line is checked when its last cell is placed,
a cage at each of its cells (the values placed so far must fit one of its fillings).
It will time out on hard puzzles, cleanly.
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..models.base import Puzzle
from ..models.vocabulary import visible_count
from ..results import Stats
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, Option, SearchOutcome, count_solutions
from .cells import CellProblem, compile_rules
from .cells import estimated_bytes as cells_estimated_bytes

Choices = Callable[[int, list], Sequence]
CLOCK_EVERY = 2048  # iterations between looks at the clock


class SearchCounters:
    def __init__(self):
        self.nodes = self.guesses = self.backtracks = 0
        self.timed_out = False


def stack_search(n: int, choices: Choices, counters: SearchCounters | None = None,
                 deadline: Deadline | None = None) -> Iterator[list]:
    """Every sequence of ``n`` choices, by the course's stack search (its ``recherche``).

    ``choices(i, tops)`` lists the possible choices at position ``i`` given ``tops``, the
    choices made at positions ``0..i-1``; the last one listed is tried first, as in the seed.
    Yields each solution (a new list).  Stops early, setting ``counters.timed_out``, when the
    deadline passes.
    """
    counters = counters or SearchCounters()
    stacks: list[list] = []
    tops: list = []

    def push(new: Sequence) -> None:
        stacks.append(list(new))
        tops.append(stacks[-1][-1])
        counters.nodes += 1
        if len(new) > 1:
            counters.guesses += 1

    def go_back() -> None:  # the course's retour()
        counters.backtracks += 1
        while stacks and len(stacks[-1]) == 1:
            stacks.pop()
            tops.pop()
        if stacks:
            stacks[-1].pop()
            tops[-1] = stacks[-1][-1]
            counters.nodes += 1

    first = choices(0, tops) if n else [None]
    if not first:
        return
    if n == 0:
        yield []
        return
    push(first)
    ticks = 0
    while stacks:
        ticks += 1
        if deadline is not None and ticks % CLOCK_EVERY == 0 and deadline.expired():
            counters.timed_out = True
            return
        r = len(stacks)
        if r < n:
            new = choices(r, tops)
            if new:
                push(new)
            else:
                go_back()
        else:
            yield list(tops)
            counters.backtracks -= 1  # moving on after a solution is not a dead end
            go_back()


def static_order(problem: CellProblem) -> list[int]:
    """Cells ordered once, before the search: fewest candidates left by the givens first
    (ties in reading order).  Still a fixed order, and still no propagation."""
    nv = problem.n_values
    blocked = [0] * problem.n_cells
    for cell, d in enumerate(problem.domains):
        if d & (d - 1) == 0:
            for other, bit in problem.conflicts[cell * nv + d.bit_length() - 1]:
                blocked[other] |= bit
    left = [(d & ~blocked[c]).bit_count() if d & (d - 1) else 0 for c, d in enumerate(problem.domains)]
    return sorted(range(problem.n_cells), key=lambda c: (left[c], c))


def puzzle_choices(problem: CellProblem, order: list[int]) -> Choices:
    """``choices(i, tops)`` for a puzzle searched in ``order``: the values of cell ``order[i]``
    that no cell placed before it rules out."""
    nv = problem.n_values
    position = {cell: i for i, cell in enumerate(order)}
    same_value: list[list[int]] = []  # earlier positions that may not share this cell's value
    other: list[list[tuple[int, int, int]]] = []  # (earlier position, its value, value it excludes)
    peers_of, extra = problem.conflicts.peers, problem.conflicts.extra
    for i, cell in enumerate(order):
        # the cells of a shared AllDifferent, and cells that the other constraints keep from
        # every value of this one, may not share its value; the rest exclude value by value
        pairs = {(position[o], bit.bit_length(), v) for v in range(1, nv + 1)
                 for o, bit in extra.get(cell * nv + v - 1, ()) if position[o] < i}
        peer_set = {position[o] for o in peers_of[cell] if position[o] < i}
        peer_set |= {j for j, _, _ in pairs if all((j, v, v) in pairs for v in range(1, nv + 1))}
        same_value.append(sorted(peer_set))
        other.append(sorted((j, w, v) for j, w, v in pairs if not (j in peer_set and w == v)))
    closing_lines = [[k for k in problem.lines_of_cell[cell]
                      if max(position[c] for c in problem.lines[k].cells) == i]
                     for i, cell in enumerate(order)]
    closing_groups = [[g for g in problem.at_least_one
                       if max(position[x // nv] for x in g) == i] for i in range(len(order))]
    cages = [[problem.cages[k] for k in problem.cages_of_cell[cell]] for cell in order]

    def choices(i: int, tops: list) -> list[int]:
        allowed = problem.domains[order[i]]
        for j in same_value[i]:
            allowed &= ~(1 << (tops[j] - 1))
        for j, w, v in other[i]:
            if tops[j] == w:
                allowed &= ~(1 << (v - 1))
        out = [v for v in range(1, nv + 1) if allowed >> (v - 1) & 1]
        if closing_lines[i] or closing_groups[i] or cages[i]:
            out = [v for v in out
                   if _closes_well(problem, order, tops + [v], closing_lines[i], closing_groups[i], cages[i])]
        return out

    return choices


def _closes_well(problem: CellProblem, order: list[int], tops: list[int], lines: list[int],
                 groups, cages=()) -> bool:
    values = [0] * problem.n_cells
    for cell, v in zip(order, tops):
        values[cell] = v
    for k in lines:
        line = problem.lines[k]
        if visible_count([values[c] for c in line.cells]) != line.clue:
            return False
    if not all(cage.possible(values) for cage in cages):
        return False
    nv = problem.n_values
    return all(any(values[x // nv] == x % nv + 1 for x in g) for g in groups)


class BacktrackEngine(Engine):
    kinds = EVERY_KIND
    family = "backtrack"
    holds_time_limit = True
    summary = "stack backtracking (one stack per position) in fixed cell order, no propagation (pure Python)"
    options = (Option("order", str, "static", "cell order, fixed before the search: 'static' = fewest "
                      "candidates left by the givens first, 'row' = reading order (the course's)",
                      ("static", "row")),)
    statistics = {
        "nodes": "choices tried: every value put on top of a stack",
        "guesses": "stacks created with more than one choice",
        "backtracks": "dead ends: calls of the course's retour() that did not follow a solution",
    }

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        return cells_estimated_bytes(puzzle.rules)

    def encode(self, puzzle: Puzzle) -> CellProblem:
        return compile_rules(puzzle.rules)

    def size(self, artifact: CellProblem) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: CellProblem, limit, keep, deadline: Deadline) -> SearchOutcome:
        counters = SearchCounters()
        order = static_order(artifact) if self.settings["order"] == "static" else list(range(artifact.n_cells))
        found = stack_search(artifact.n_cells, puzzle_choices(artifact, order), counters, deadline)
        kept, count = count_solutions(found, limit, keep)
        kept = [_in_cell_order(order, s) for s in kept]
        stats = Stats(nodes=counters.nodes, guesses=counters.guesses, backtracks=counters.backtracks,
                      raw={"nodes": counters.nodes, "guesses": counters.guesses,
                           "retour": counters.backtracks})
        return SearchOutcome(kept, count, counters.timed_out, stats)


def _in_cell_order(order: list[int], values: list[int]) -> tuple[int, ...]:
    out = [0] * len(order)
    for cell, v in zip(order, values):
        out[cell] = v
    return tuple(out)
