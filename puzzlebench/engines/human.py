"""The ``human`` engine: the technique ladder of :mod:`puzzlebench.techniques.ladder` as a
solver, counting solutions by its guesses (unique rectangles off: counting must not assume
uniqueness), its steps counted per technique.
"""

from __future__ import annotations

from ..errors import OutOfTime
from ..models.sudoku import Sudoku
from ..results import Stats
from ..runtime.limits import Deadline
from ..techniques.ladder import HumanSolver
from .base import Engine, SearchOutcome, limit_reached


class HumanEngine(Engine):
    family = "human"
    holds_time_limit = True
    summary = "human techniques easiest first, guessing when stuck (after Landreau's TIPE 2025 study; explained steps)"
    kinds = frozenset({"sudoku"})
    takes_candidates = True   # State.from_givens starts from a Sukaku's pencil marks
    statistics = {
        "nodes": "branches solved by techniques (the root counts)",
        "guesses": "guess points: no technique applied, a cell's values were tried",
        "backtracks": "branches that ended in a contradiction",
        "propagations": "technique steps applied (placements and elimination sets)",
    }

    def encode(self, puzzle: Sudoku) -> Sudoku:
        return puzzle

    def size(self, artifact: Sudoku) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: Sudoku, limit, keep, deadline: Deadline) -> SearchOutcome:
        # Counting must not assume uniqueness: unique rectangles stay off.
        solver = HumanSolver(artifact.box, deadline=deadline)
        kept, count, timed_out = [], 0, False
        per_technique: dict[str, int] = {}
        try:
            for solved in solver.solutions(artifact.givens):
                count += 1
                if len(kept) < keep:
                    kept.append(solved.values)
                if count == 1:
                    for step in solved.steps:
                        per_technique[step.technique] = per_technique.get(step.technique, 0) + 1
                if limit_reached(count, limit):
                    break
        except OutOfTime:
            timed_out = True
        stats = Stats(nodes=solver.nodes, guesses=solver.guesses, backtracks=solver.backtracks,
                      propagations=solver.steps_taken,
                      raw={"nodes": solver.nodes, "guesses": solver.guesses,
                           "backtracks": solver.backtracks, "max_depth": solver.max_depth,
                           "steps": solver.steps_taken, "first_solution_techniques": per_technique})
        return SearchOutcome(kept, count, timed_out, stats)
