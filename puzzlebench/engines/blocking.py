"""Counting by blocking: solve, keep the model, add a constraint that forbids it, solve again,
until no model is left, the limit is reached or the clock runs out.  The one loop behind every
engine that cannot enumerate by itself (``sat``, ``cpmpy``'s back ends without ``solveAll``,
the ``ext:`` SAT programs and minisat+, Exact in :mod:`.tool_runner`); each engine brings its
own call to solve once and its own blocking constraint."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..runtime.limits import Deadline
from .base import limit_reached

STOPPED = object()
"""What ``solve_once`` answers when its clock (or a Ctrl-C) stopped it before an answer."""


@dataclass
class Enumerated:
    kept: list = field(default_factory=list)   # the first ``keep`` models
    count: int = 0
    timed_out: bool = False   # stopped by the deadline, or by the solver's own clock
    finished: bool = False    # no model is left (solve_once said so, or nothing was left to block)


def enumerate_by_blocking(solve_once: Callable[[], Any], block: Callable[[Any], bool], limit: int | None,
                          keep: int, deadline: Deadline | None) -> Enumerated:
    """Models of ``solve_once()`` (a model, ``None`` when there is none, :data:`STOPPED`),
    each forbidden with ``block(model)`` before the next call (False: nothing is left to
    block, no other model can exist), up to ``limit`` models; the deadline is looked at
    before each call (a solver that cannot be interrupted stops between models)."""
    found = Enumerated()
    while True:
        if deadline is not None and deadline.expired():
            found.timed_out = True
            return found
        model = solve_once()
        if model is STOPPED:
            found.timed_out = True
            return found
        if model is None:
            found.finished = True
            return found
        found.count += 1
        if len(found.kept) < keep:
            found.kept.append(model)
        if limit_reached(found.count, limit):
            return found
        if not block(model):
            found.finished = True
            return found
