"""The memory budget of a run: what its encoding and the solver's own copy of it will hold at
their peak, estimated from the puzzle's shape before anything is allocated, and refused when it
is more than the run may hold (an empty 49x49's ``solve --solver sat`` took 2.6 GB, a third of
it Glucose's copy of the clauses).  Each encoder states ``estimated_bytes`` next to itself, each
engine adds what its library holds (:data:`PYSAT_BYTES`), all fitted to peaks of whole
processes (results/budget.md); :func:`check_budget` is the one check: past what a memory limit
leaves, a ``memout``; without one, past :data:`DEFAULT_BUDGET` (the run's own share, as its
peak is measured above the process's baseline), a refusal naming the estimate.  What a long search adds with time is for the time limit to bound.
"""

from __future__ import annotations

import resource

from ..errors import UsageError
from ..runtime.child import status_bytes

DEFAULT_BUDGET = 2 * 2**30
"""What a process may reach without ``--memory-limit`` (2 GiB); a limit replaces it."""
MB = 2**20

# What CPython's objects of a formula take (64-bit, pymalloc's 16-byte blocks): a clause is a
# list (56 bytes with its GC header, its pointer in the formula's list, its item array rounded
# up and the pools' slack: an empty 49x49's formula is 155 resident bytes a binary clause,
# 170 here), each literal a pointer and, past 256, an int of its own (28 bytes in 32)
LIST_BYTES = 88
ITEM_BYTES = 8
INT_BYTES = 32
STR_BYTES = 49   # an ASCII string's head and its closing NUL, before its characters

PYSAT_BYTES = {
    "glucose3": (85, 5), "glucose4": (80, 5), "glucose42": (77, 5), "gluecard3": (77, 5), "gluecard4": (76, 5),
    "minisat22": (40, 5), "minicard": (34, 6), "minisatep": (34, 6), "maplecm": (42, 6), "maplesat": (39, 6),
    "mergesat3": (40, 6), "ergo": (58, 5), "lingeling": (18, 17), "kissat404": (106, 5),
    "cadical103": (144, 5), "cadical153": (144, 5), "cadical195": (191, 5), "cadical300": (211, 5),
    "maplechrono": (1153, 5),
}
"""Bytes a PySAT solver holds a clause and a literal of the formula it was given, at its peak
through loading it and two solves: its own copy (a literal is 4 bytes, a clause a header and
two watches), the growth of its arenas and what its search adds (Glucose's garbage collection
copies its arena; MapleLCMDistChronoBT's kept learnt clauses outgrow its copy 20 times over on
an empty grid).  The largest per clause measured on empty 25x25 to 49x49 Sudokus (binary
clauses) and per literal on 200,000 clauses of 20 literals, plus 15 % (results/budget.md)."""


def pysat_bytes(solver: str) -> tuple[int, int]:
    """What ``solver`` holds a clause and a literal (:data:`PYSAT_BYTES`); for one that was not
    measured, the most any measured solver holds of each."""
    return PYSAT_BYTES.get(solver) or (max(c for c, _ in PYSAT_BYTES.values()), max(l for _, l in PYSAT_BYTES.values()))


class OverBudget(UsageError):
    """An encoding refused before it was made; ``limited``: the budget was a memory limit's
    (a ``memout``), not the default one."""

    def __init__(self, message: str, limited: bool):
        super().__init__(message)
        self.limited = limited


def data_left() -> int | None:
    """Under a memory limit (a soft ``RLIMIT_DATA`` set on this process by runtime/child.py or
    the harness's worker: its idle data plus the limit), the bytes of it left: what an encoding
    made now, or a program started now (which would otherwise inherit the whole cap, this
    process's own data included), may hold; ``None`` without one."""
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(soft - (status_bytes(b"VmData:") or 0), MB)


ESTIMATE_FACTOR = 2
"""How far an estimate may be above what is made (tests/encoders/test_budget.py holds each
within a factor of two): under a cap, which holds the run for real, an encoding is refused
only when even half its estimate would not fit."""


def check_budget(estimate: int, what: str, memory_limit: int | None = None) -> None:
    """Raise :class:`OverBudget` when ``estimate`` bytes (of ``what``) are more than the run
    may hold: ``memory_limit`` (bytes) when given (nothing else holds it: ``export``,
    ``generate``, the API's ``encode``); else, under a cap (a soft ``RLIMIT_DATA``), when it is
    more than :data:`ESTIMATE_FACTOR` times what the cap leaves (the cap stops the rest); else
    :data:`DEFAULT_BUDGET`.  The default budget bounds the run's own share, as its peak is
    measured (above the process's idle baseline), so the answer does not depend on what the
    calling process held before it."""
    if memory_limit is not None:
        limit, factor, than = memory_limit, 1, "more than"
    else:
        limit, factor, than = data_left(), ESTIMATE_FACTOR, "more than twice"
    if limit is None:
        if estimate > DEFAULT_BUDGET:
            raise OverBudget(f"{what} is estimated at {estimate / MB:,.0f} MB, more than the default memory "
                             f"budget of {DEFAULT_BUDGET / MB:,.0f} MB; give --memory-limit MB to allow more", False)
    elif estimate > factor * limit:
        raise OverBudget(f"{what} is estimated at {estimate / MB:,.0f} MB, {than} the {limit / MB:,.0f} MB "
                         "the memory limit leaves; not started", True)
