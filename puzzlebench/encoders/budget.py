"""The memory budget of an encoding: its size estimated from the puzzle's shape before anything
is allocated, and refused when it is more than the run may hold.

An empty 64x64 Sudoku's CNF (33 million clauses) reached 6.4 GB before the SAT solver started,
and its DIMACS export 6.1 GB; a 64x64 Futoshiki's search tables 5 GB.  Each encoder states
``estimated_bytes`` next to itself (what its Python objects take, from the counts of clauses,
literals, options and entries the shape gives), and :func:`check_budget` is the one check:
under a memory limit (``--memory-limit``: a soft ``RLIMIT_DATA``, or a limit given here) an
estimate past what it leaves is a ``memout``; without one, past :data:`DEFAULT_BUDGET`, a
refusal naming the estimate and the option that raises the budget.
"""

from __future__ import annotations

import resource

from ..errors import UsageError

DEFAULT_BUDGET = 2 * 2**30
"""What an encoding may take without ``--memory-limit`` (2 GiB); a limit replaces it."""
MB = 2**20

# What CPython's objects of a formula take (64-bit): a clause is a list (56 bytes, and its
# pointer in the formula's list), each literal a pointer and, past 256, an int of its own
LIST_BYTES = 64
ITEM_BYTES = 8
INT_BYTES = 28
TUPLE_BYTES = 56


class OverBudget(UsageError):
    """An encoding refused before it was made; ``limited``: the budget was a memory limit's
    (a ``memout``), not the default one."""

    def __init__(self, message: str, limited: bool):
        super().__init__(message)
        self.limited = limited


def data_left() -> int | None:
    """Under a memory limit (a soft ``RLIMIT_DATA`` set on this process by solvers/child.py or
    the harness's worker: its idle data plus the limit), the bytes of it left: what an encoding
    made now, or a program started now (which would otherwise inherit the whole cap, this
    process's own data included), may hold; ``None`` without one."""
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/status", "rb") as f:
            status = f.read()
        at = status.index(b"VmData:")
        data = int(status[at + 7:status.index(b"kB", at)]) * 1024
    except (OSError, ValueError):
        data = 0
    return max(soft - data, MB)


def check_budget(estimate: int, what: str, memory_limit: int | None = None) -> None:
    """Raise :class:`OverBudget` when ``estimate`` bytes (of ``what``) are more than the run
    may hold: ``memory_limit`` (bytes) when given, else what a soft ``RLIMIT_DATA`` leaves,
    else :data:`DEFAULT_BUDGET`."""
    limit = memory_limit if memory_limit is not None else data_left()
    if limit is None and estimate > DEFAULT_BUDGET:
        raise OverBudget(f"{what} is estimated at {estimate / MB:,.0f} MB, more than the default memory budget "
                         f"of {DEFAULT_BUDGET / MB:,.0f} MB; give --memory-limit MB to allow more", False)
    if limit is not None and estimate > limit:
        raise OverBudget(f"{what} is estimated at {estimate / MB:,.0f} MB, more than the {limit / MB:,.0f} MB "
                         "the memory limit leaves; not started", True)
