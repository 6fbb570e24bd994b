"""Uniqueness, and the one dig every generator uses.

:class:`Counter` proves a puzzle unique (solutions counted up to 2, by the fastest engine for
the kind); :func:`dig` removes clues one at a time in a given order, keeping a removal only
when the puzzle is still unique (the classic "dig holes" method).  One full pass leaves a
*minimal* puzzle: a clue that could not go earlier cannot go later, since fewer clues never
restore uniqueness.  The engine is asked only whether a puzzle is unique, never which
solution it found first, so a seed gives the same puzzle whatever engine counts.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ..results import Status
from ..solvers import registry

PREFERRED = ("bitboard", "mrv")

LEARNING_FROM = {"kenken": 12, "killer": 4}
"""The size from which a kind's uniqueness checks go to ``sat`` (CDCL: it learns from its dead
ends) rather than ``mrv``.  KenKen grids of random cages are Latin squares with few givens, where
a backtracking search has heavy-tailed run times (Gomes, Selman, Crato and Kautz, "Heavy-tailed
phenomena in satisfiability and constraint satisfaction problems", J. Autom. Reasoning 2000):
``generate kenken --size 16 --seed 2`` spent over 150 s in mrv's first check (4,600 nodes in
40 s, each a pass over the cages' fillings), where sat takes 0.25 s for the whole puzzle.  CPU
seconds a puzzle, mrv / sat, seeds 1-3: size 12 0.02-0.06 / 0.08-0.12; 13 0.06-1.5 / 0.07-0.15;
14 0.5, 2.4, >60 / 0.13-0.45; 15 12.8, >60 / 0.26-0.30; 16 0.8, 4.5, >150 / 0.19-0.25; 20 >60
/ 1.4-2.4 (and 24: sat 92 s, cpsat 21 s CPU, which ``SLOW_FROM`` warns of).  Killer, whose
cages mrv propagates a filling at a time, at every size (the same puzzles: digging asks only
whether a puzzle is unique): 2x4 0.05-0.07 / 0.02 s, 3x3 0.11-0.52 / 0.04 s, 3x4 (seed 2) over
90 s / 0.84 s."""


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


class Counter:
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

    def unique(self, puzzle) -> bool:
        return self.solve(puzzle).status is Status.UNIQUE


def dig(clues: Sequence, order: Iterable[int], removable: Callable[[list, int], bool],
        stop: Callable[[int], bool] | None = None) -> list:
    """The clues left after trying to remove ``clues[i]`` for each ``i`` of ``order``, in
    turn: a removal is kept when ``removable(the clues left without it, i)``.  ``stop(number
    of clues left)``, asked before each try, ends the pass early (a target count)."""
    kept = set(range(len(clues)))
    for i in order:
        if stop is not None and stop(len(kept)):
            break
        trial = kept - {i}
        if removable([clues[j] for j in sorted(trial)], i):
            kept = trial
    return [clues[j] for j in sorted(kept)]
