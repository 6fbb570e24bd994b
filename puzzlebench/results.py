"""The one result record every engine answers with, and the shared vocabulary of statistics.

``status``:

- ``unique``   exactly one solution, proven: the limit was 2 or more (or none) and the search ended;
- ``multiple`` two or more found; ``count`` is exact when the limit was not reached;
- ``sat``      a solution found with limit 1 (uniqueness not asked);
- ``unsat``    no solution, proven;
- ``timeout``  the time limit struck first; ``count`` is what had been found by then;
- ``error``    the engine failed or answered wrongly; ``error`` says why.

Statistics under normalised names (``None`` where an engine has no such counter; each
engine's mapping is in its ``statistics`` table and in docs/STATISTICS.md):
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models.base import Puzzle, Solution


STATISTICS = {
    "nodes": "search-tree nodes: every node the search visits (branches, decisions), "
             "counted the engine's own way (DLX: Knuth's node count, a solution counts as a node)",
    "guesses": "branching points with more than one choice (a node where the search had to try "
               "alternatives; forced moves are not guesses)",
    "backtracks": "dead ends undone by a depth-first search (a choice that failed and was taken back)",
    "conflicts": "conflicts of a CDCL or CP engine (a clause or constraint falsified, leading to "
                 "learning): not a backtrack, so a column of its own",
    "propagations": "values fixed or candidates removed by propagation (unit propagations for SAT)",
}


class Status(str, enum.Enum):
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    SAT = "sat"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


def status_of(count: int, limit: int | None, timed_out: bool) -> Status:
    """The status a search earns: ``count`` solutions found, looking for up to ``limit``
    (``None`` = all), stopped by the clock or not."""
    if timed_out:
        return Status.TIMEOUT
    if count == 0:
        return Status.UNSAT
    if count >= 2:
        return Status.MULTIPLE
    return Status.SAT if limit == 1 else Status.UNIQUE


@dataclass
class Times:
    """Seconds, measured by the runner the same way for every engine."""

    parse: float = 0.0
    encode: float = 0.0
    solve: float = 0.0
    decode: float = 0.0
    total: float = 0.0


@dataclass
class Stats:
    nodes: int | None = None
    guesses: int | None = None
    backtracks: int | None = None
    conflicts: int | None = None
    propagations: int | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    def normalised(self) -> dict[str, int | None]:
        return {k: getattr(self, k) for k in STATISTICS}


@dataclass
class Result:
    kind: str
    solver: str
    limit: int | None
    status: Status
    count: int = 0
    solutions: list[Solution] = field(default_factory=list)
    times: Times = field(default_factory=Times)
    stats: Stats = field(default_factory=Stats)
    size: dict[str, int] = field(default_factory=dict)
    source: str | None = None
    error: str | None = None
    peak_memory: int | None = None
    verified: bool = False
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)

    @property
    def solution(self) -> str | None:
        """The first solution as the data files write it, or ``None``."""
        if not self.solutions or self.puzzle is None:
            return None
        return self.puzzle.format_solution(self.solutions[0])

    def to_dict(self) -> dict[str, Any]:
        """The JSON Lines record of the CLI."""
        return {
            "source": self.source,
            "kind": self.kind,
            "solver": self.solver,
            "limit": self.limit,
            "status": str(self.status),
            "count": self.count,
            "solution": self.solution,
            "times": asdict(self.times),
            "stats": {**self.stats.normalised(), "raw": self.stats.raw},
            "size": self.size,
            "peak_memory": self.peak_memory,
            "error": self.error,
        }


@dataclass
class ResultColumns:
    """The answers of one batch call as columns (index ``i`` = puzzle ``i``): what a caller that
    stores many answers (the harness) reads without one :class:`Result` per puzzle.

    Every puzzle of the batch is a finished search or a timeout (an engine returns no columns
    when some puzzle needs a :class:`Result` of its own, e.g. an error).  ``solutions`` holds
    ``cells`` values per puzzle: its first solution, meaningless where ``counts[i]`` is 0; the
    columns have not been verified (the caller checks them against the puzzles)."""

    kind: str
    solver: str
    limit: int | None
    statuses: list[Status]
    counts: list[int]
    solve_seconds: list[float]
    total_seconds: list[float]
    stats: dict[str, list[int]]  # normalised name -> one value per puzzle; absent: not counted
    raw_names: tuple[str, ...]
    raw: list[int]               # len(raw_names) values per puzzle, in one flat list
    size: dict[str, int]         # the same for every puzzle of the batch
    cells: int
    solutions: bytes

    def __len__(self) -> int:
        return len(self.statuses)


def error_result(message: str, *, kind: str = "", solver: str = "", limit: int | None = None,
                 source: str | None = None, puzzle: Puzzle | None = None,
                 times: Times | None = None) -> Result:
    return Result(kind=kind, solver=solver, limit=limit, status=Status.ERROR, source=source,
                  error=message, puzzle=puzzle, times=times or Times())

