"""The naive reference: seed 002's backtracking with a list of stacks.

Seed 002 (a French course on backtracking) searches with one stack per position: the stack of
position ``i`` holds the choices still to try there, its top is the choice being tried, and
``choices(i, tops)`` gives the choices for position ``i`` given the tops of the stacks before it.
Going back (``retour``) drops the exhausted stacks at the end, then the top of the last one.

Applied to puzzles in fixed cell order, with no propagation: a value is a choice for a cell
when no earlier cell rules it out; a skyscraper line is checked when its last cell is placed.
It will time out on hard puzzles, cleanly.
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..models.base import Puzzle
from ..models.vocabulary import visible_count
from ..results import Stats
from .base import Deadline, Engine, SearchOutcome, count_solutions
from .cells import CellProblem, compile_rules

Choices = Callable[[int, list], Sequence]
CLOCK_EVERY = 2048  # iterations between looks at the clock


class SearchCounters:
    def __init__(self):
        self.nodes = self.guesses = self.backtracks = 0
        self.timed_out = False


def stack_search(n: int, choices: Choices, counters: SearchCounters | None = None,
                 deadline: Deadline | None = None) -> Iterator[list]:
    """Every sequence of ``n`` choices, by seed 002's stack search (its ``recherche``).

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

    def go_back() -> None:  # the seed's retour()
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


def puzzle_choices(problem: CellProblem) -> Choices:
    """``choices(i, tops)`` for a puzzle: the values of cell ``i`` that no earlier cell rules out."""
    nv = problem.n_values
    # For each cell, the conflicts coming from earlier cells only: (earlier cell, value) pairs
    # that rule out value v of this cell.
    earlier: list[list[tuple[int, int, int]]] = []
    for cell in range(problem.n_cells):
        rules_out = []
        for v in range(1, nv + 1):
            for other, bit in problem.conflicts[cell * nv + v - 1]:
                if other < cell:
                    rules_out.append((other, bit.bit_length(), v))
        earlier.append(rules_out)
    last_cell_lines = [[k for k in problem.lines_of_cell[c]
                        if max(problem.lines[k].cells) == c] for c in range(problem.n_cells)]
    groups_closing = [[g for g in problem.at_least_one
                       if max(x // nv for x in g) == c] for c in range(problem.n_cells)]

    def choices(i: int, tops: list) -> list[int]:
        allowed = problem.domains[i]
        for other, value, v in earlier[i]:
            if tops[other] == value:
                allowed &= ~(1 << (v - 1))
        out = [v for v in range(1, nv + 1) if allowed >> (v - 1) & 1]
        if last_cell_lines[i] or groups_closing[i]:
            out = [v for v in out if _closes_well(problem, tops + [v], last_cell_lines[i], groups_closing[i])]
        return out

    return choices


def _closes_well(problem: CellProblem, values: list[int], lines: list[int], groups) -> bool:
    for k in lines:
        line = problem.lines[k]
        if visible_count([values[c] for c in line.cells]) != line.clue:
            return False
    nv = problem.n_values
    return all(any(values[x // nv] == x % nv + 1 for x in g) for g in groups)


class BacktrackEngine(Engine):
    family = "backtrack"
    summary = "seed 002's stack backtracking in fixed cell order, no propagation (pure Python)"
    statistics = {
        "nodes": "choices tried: every value put on top of a stack",
        "guesses": "stacks created with more than one choice",
        "backtracks": "dead ends: calls of the seed's retour() that did not follow a solution",
    }

    def encode(self, puzzle: Puzzle) -> CellProblem:
        return compile_rules(puzzle.rules)

    def size(self, artifact: CellProblem) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: CellProblem, limit, keep, deadline: Deadline) -> SearchOutcome:
        counters = SearchCounters()
        found = stack_search(artifact.n_cells, puzzle_choices(artifact), counters, deadline)
        kept, count = count_solutions(found, limit, keep)
        stats = Stats(nodes=counters.nodes, guesses=counters.guesses, backtracks=counters.backtracks,
                      raw={"nodes": counters.nodes, "guesses": counters.guesses,
                           "retour": counters.backtracks})
        return SearchOutcome([tuple(s) for s in kept], count, counters.timed_out, stats)
