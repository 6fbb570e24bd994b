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

from ..engines import registry
from ..models.kinds import KINDS
from ..results import Status

PREFERRED = ("bitboard", "mrv")

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
    shape (a bitboard engine may stop at some size); from its kind's ``learning_from`` size
    (:mod:`puzzlebench.models.kinds`), ``sat``, which learns from its dead ends.  Each check's encoding is held to ``memory_limit`` bytes (``None``: the default
    budget): one estimated past it stops the generator (:class:`~..encoders.budget.OverBudget`,
    a usage error), before it is made."""

    def __init__(self, kind: str, size: int | None = None, memory_limit: int | None = None):
        learning_from = KINDS[kind].learning_from if kind in KINDS else None
        learning = size is not None and learning_from is not None and size >= learning_from
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
