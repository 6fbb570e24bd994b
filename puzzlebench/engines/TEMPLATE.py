"""A template for a new engine, to be read top to bottom and copied.

An engine is one module in ``puzzlebench/engines/`` plus one line in ``engines/registry.py``'s
``FAMILIES`` (``"template": "puzzlebench.engines.TEMPLATE:TemplateEngine"``; this one is not
registered: the tests register it and hold it to every engine's checks).  ``Engine.run`` does
the rest for every engine alike (timing, the deadline, checking every solution, the one
shape of result), so an engine writes ``encode``, ``search`` and ``decode`` and its class
attributes: :class:`TemplateEngine` says what each must do.  This engine is the simplest
complete one: cells in reading order, each given every value its placed neighbours allow
(the conflicts of ``engines/cells.py``), no propagation.
"""

from __future__ import annotations

from typing import Any

from ..models.base import Puzzle
from ..results import Stats
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, SearchOutcome, limit_reached
from .cells import CellProblem, compile_rules, line_possible

CLOCK_EVERY = 1024   # nodes between two looks at the clock: a look costs more than a node


class TemplateEngine(Engine):
    """What an engine writes, in the order :meth:`Engine.run <puzzlebench.engines.base.Engine.run>` calls it.

    1. ``encode(puzzle)``: the puzzle in the engine's own terms (a matrix, a formula, a model).
       Work from ``puzzle.rules``, the rules stated in the shared vocabulary
       (``models/vocabulary.py``), not from the puzzle's class: then every kind, present and
       future, comes for free.  A rule the engine cannot express is an ``EngineError`` naming it.
    2. ``search(artifact, limit, keep, deadline)``: up to ``limit`` solutions (``None``: all),
       the first ``keep`` of them kept, the clock looked at every so many steps; a
       ``SearchOutcome`` with the counters (docs/STATISTICS.md says what each shared one means).
    3. ``decode(artifact, raw)``: a raw solution back to a value per cell.

    Then the class attributes: what ``puzzlebench solvers`` shows (``summary``, ``variants``,
    ``options``, ``statistics``, ``library``), which kinds it takes (``kinds``: ``EVERY_KIND``
    for an engine generic over the vocabulary), and whether every phase looks at the clock
    (``holds_time_limit``; if not, the API and the commands run it in a child process killed at
    the limit).  Statistics the engine cannot count stay ``None``: never a guess."""

    family = "template"
    summary = "reading-order search over the vocabulary, no propagation (the template for new engines)"
    kinds = EVERY_KIND
    holds_time_limit = True          # encode is one pass; search looks at the clock
    statistics = {"nodes": "cells given a value, solutions included",
                  "backtracks": "cells left with no value to try"}

    def encode(self, puzzle: Puzzle) -> CellProblem:
        return compile_rules(puzzle.rules)

    def size(self, artifact: CellProblem) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: CellProblem, limit: int | None, keep: int, deadline: Deadline) -> SearchOutcome:
        p = artifact
        values = [0] * p.n_cells
        solutions: list[tuple[int, ...]] = []
        count = nodes = backtracks = 0

        def allowed(cell: int) -> list[int]:
            out = []
            for v in range(1, p.n_values + 1):
                if p.domains[cell] >> (v - 1) & 1 and all(
                        values[other] != bit.bit_length() for other, bit in p.conflicts[cell * p.n_values + v - 1]):
                    out.append(v)
            return out

        # an explicit stack of (cell, values still to try): no recursion, any depth
        stack: list[tuple[int, list[int]]] = [(0, allowed(0))] if p.n_cells else []
        while stack:
            cell, options = stack[-1]
            if not options:
                values[cell] = 0
                stack.pop()
                backtracks += 1
                continue
            values[cell] = options.pop()
            nodes += 1
            if nodes % CLOCK_EVERY == 0 and deadline.expired():
                return SearchOutcome(solutions, count, True, self._stats(nodes, backtracks))
            if not all(line_possible(p.lines[k], values, p.n_values) for k in p.lines_of_cell[cell]):
                continue
            if not all(p.cages[k].possible(values) for k in p.cages_of_cell[cell]):
                continue      # the values placed in a cage fit none of its fillings
            if cell + 1 < p.n_cells:
                stack.append((cell + 1, allowed(cell + 1)))
            elif all(any(values[x // p.n_values] == x % p.n_values + 1 for x in g) for g in p.at_least_one):
                count += 1
                if len(solutions) < keep:
                    solutions.append(tuple(values))
                if limit_reached(count, limit):
                    break
        return SearchOutcome(solutions, count, False, self._stats(nodes, backtracks))

    def decode(self, artifact: CellProblem, raw: Any) -> tuple[int, ...]:
        return tuple(raw)

    @staticmethod
    def _stats(nodes: int, backtracks: int) -> Stats:
        return Stats(nodes=nodes, backtracks=backtracks, raw={"nodes": nodes, "backtracks": backtracks})
