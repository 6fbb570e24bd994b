"""The one result record every engine answers with, and the shared vocabulary of statistics.

One shape of result for every engine, so that the harness, the reports and the commands read
any engine alike: a :class:`Status` (what a status means, and the one meaning of solved, is
there), a count, solutions, :class:`Times` and :class:`Stats` under normalised names
(``None`` where an engine has no such counter; each engine's mapping is in its
``statistics`` table and in docs/STATISTICS.md).
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:
    import numpy as np

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
    """What a run answered (a result's ``status``):

    - ``unique``   exactly one solution, proven: the limit was 2 or more (or none) and the search ended;
    - ``multiple`` two or more found; ``count`` is exact when the limit was not reached;
    - ``sat``      a solution found with limit 1 (uniqueness not asked);
    - ``unsat``    no solution, proven;
    - ``timeout``  the time limit struck first; ``count`` is what had been found by then.  One
      meaning of solved: a run whose time on its clock (wall, or CPU with ``--clock cpu``) is over
      its time limit is a ``timeout`` whatever the engine answered, its answer kept as partial
      information (``count``, ``solutions``, and ``error`` naming the answer and the time);
    - ``memout``   the memory limit struck first (an allocation refused under it, or the process
      killed for memory), or the run finished with its peak past it (its answer kept, as a
      ``timeout``'s); ``peak_memory`` is what the run had reached by then;
    - ``error``    the engine failed or answered wrongly; ``error`` says why."""
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    SAT = "sat"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


SOLVED = (Status.UNIQUE, Status.MULTIPLE, Status.SAT)
"""The statuses that claim a solution (and so have one to check)."""

STATUS_CODES: tuple[Status, ...] = tuple(Status)
"""The status codes of :class:`ResultColumns`: code ``k`` is ``STATUS_CODES[k]`` (the C batch
calls code them in this order: native/engines.h, ``pb_status_code``)."""
STATUS_CODE = {status: code for code, status in enumerate(STATUS_CODES)}


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
    """Seconds, measured by the runner the same way for every engine.  The first five are wall
    time; ``cpu`` is CPU time (user + system, every thread) of the process that ran the engine
    and of every program it started and waited for, over encode, search and decode: per puzzle where the engine runs one puzzle at a time, and
    a batch call's CPU time shared evenly by its puzzles where it runs them as one batch."""

    parse: float = 0.0
    encode: float = 0.0
    solve: float = 0.0
    decode: float = 0.0
    total: float = 0.0
    cpu: float = 0.0


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


CERTIFICATE_STATUSES = ("verified", "failed", "none")


@dataclass(frozen=True)
class Certificate:
    """What backs a claim that no solution (``unsat``), no second one (``unique``) or no
    (k+1)-th one (a complete count of k) exists: the puzzle's CNF with a blocking clause for each
    solution found refuted by ``prover`` (a proof-logging SAT solver, ``sat:NAME``) and its DRAT
    proof checked by ``checker`` (:mod:`puzzlebench.engines.certify`).  ``status``: ``verified``
    (the checker accepted the proof), ``failed`` (it rejected it, or the prover found another
    solution) or ``none`` (no proof: ``reason`` says why, such as the time limit)."""

    status: str
    prover: str | None = None
    checker: str | None = None
    proof_bytes: int | None = None
    prove_seconds: float | None = None
    check_seconds: float | None = None
    reason: str | None = None


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
    certificate: Certificate | None = None

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
            **({"certificate": asdict(self.certificate)} if self.certificate is not None else {}),
        }


@dataclass
class Columns:
    """The answers of one batch call as arrays (index ``i`` = puzzle ``i``): what a native
    batch returns, read without an object per puzzle.

    Every puzzle of the batch is a finished search or a timeout.  ``solutions`` holds
    ``cells`` values per puzzle, its first solution (zeros where ``counts[i]`` is 0)."""

    statuses: list[Status]
    counts: list[int]
    solve_seconds: list[float]
    total_seconds: list[float]
    stats: dict[str, list[int]]  # normalised name -> one value per puzzle; absent: not counted
    raw_names: tuple[str, ...]
    raw: list[int]               # len(raw_names) values per puzzle, in one flat list
    size: dict[str, int] | list[dict[str, int]]  # one for the whole batch, or one per puzzle
    cells: int
    solutions: bytes
    verified: bytes | None = None  # one byte per puzzle once checked: 1 = its solution is right


TIME_NAMES = ("parse", "encode", "solve", "decode", "total", "cpu")
"""The fields of :class:`Times`, the time columns of :class:`ResultColumns`."""
NOT_COUNTED = -1
"""A statistic's value in :class:`ResultColumns` where the record's is ``None`` (not counted)."""


def names_of(names: Iterable[str], default: str = "") -> str:
    """The one kind or solver of many answers, or where they differ (a batch of several kinds,
    each by its default engine) each one in order of first use, joined by commas."""
    return ",".join(dict.fromkeys(part for name in names for part in name.split(",") if part)) or default


@dataclass
class ResultColumns:
    """The answers to many puzzles as arrays, index ``i`` = puzzle ``i``: what
    ``solve_many(..., columns=True)`` returns.  One array a field of :class:`Result`, no object
    a puzzle:

    - ``status``: ``uint8`` codes, ``STATUS_CODES[status[i]]`` the :class:`Status`;
    - ``count``: ``int64`` solutions found;
    - ``solutions``: ``uint8`` (puzzles x cells), the first solution, zeros where none;
    - ``stats``: every normalised statistic (:data:`STATISTICS`) as ``int64``, ``-1`` where
      the record's is ``None`` (:data:`NOT_COUNTED`); ``times``: :data:`TIME_NAMES` as
      ``float64`` seconds, as in :class:`Times`;
    - ``verified``: ``bool``, the first solution checked by the puzzle's checker;
    - ``errors``: the ``error`` text of the few puzzles that have one, by index.

    A native batch call (bitboard or dlx on Sudoku) writes it in C;
    :meth:`of_results` builds it from records for every other engine, the same arrays.
    ``kind`` and ``solver`` name the answers' kind and engine, each of several in order,
    joined by commas, where a batch mixes them (:func:`names_of`)."""

    kind: str
    solver: str
    limit: int | None
    status: np.ndarray
    count: np.ndarray
    solutions: np.ndarray
    stats: dict[str, np.ndarray]
    times: dict[str, np.ndarray]
    verified: np.ndarray
    errors: dict[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.status)

    @property
    def solved(self) -> np.ndarray:
        """Which puzzles' statuses claim a solution (``unique``, ``multiple``, ``sat``)."""
        import numpy as np
        return np.isin(self.status, [STATUS_CODE[s] for s in SOLVED])

    def statuses(self) -> list[Status]:
        """The statuses as :class:`Status` objects (one a puzzle: for reading a few, not many)."""
        return [STATUS_CODES[code] for code in self.status.tolist()]

    @classmethod
    def of_arrays(cls, kind: str, solver: str, limit: int | None, *, status: np.ndarray, count: np.ndarray,
                  solutions: np.ndarray, stats: dict[str, np.ndarray], solve: np.ndarray,
                  total: np.ndarray) -> "ResultColumns":
        """A native call's columns: the statistics it does not count filled with ``-1``, the
        times it has no part of (parse, encode, decode, CPU) with zeros, nothing verified yet."""
        import numpy as np   # here, not at import: the commands that never ask for columns skip it
        n = len(status)
        counted = {name: stats[name] if name in stats else np.full(n, NOT_COUNTED, np.int64)
                   for name in STATISTICS}
        zeros = {name: np.zeros(n) for name in TIME_NAMES}
        return cls(kind, solver, limit, status, count, solutions, counted,
                   {**zeros, "solve": solve, "total": total}, np.zeros(n, bool))

    @classmethod
    def of_results(cls, results: Sequence[Result], solver: str = "", limit: int | None = None) -> "ResultColumns":
        """The columns of records (an engine without a native batch call, or puzzles it does
        not take): the same arrays as a native call's."""
        import numpy as np
        n = len(results)
        first = results[0] if n else None
        firsts = [r.solutions[0] if r.solutions else () for r in results]
        cells = max(map(len, firsts), default=0)
        large = any(max(s, default=0) > 255 for s in firsts)   # an N-Queens board past 255 columns
        solutions = np.zeros((n, cells), np.uint16 if large else np.uint8)
        for i, s in enumerate(firsts):
            solutions[i, :len(s)] = s
        stats = {name: _column((_counted(getattr(r.stats, name)) for r in results), np.int64, n)
                 for name in STATISTICS}
        times = {name: _column((getattr(r.times, name) for r in results), np.float64, n) for name in TIME_NAMES}
        return cls(names_of(r.kind for r in results), names_of((r.solver for r in results), solver),
                   first.limit if first else limit,
                   _column((STATUS_CODE[r.status] for r in results), np.uint8, n),
                   _column((r.count for r in results), np.int64, n), solutions, stats, times,
                   _column((r.verified for r in results), bool, n),
                   {i: r.error for i, r in enumerate(results) if r.error})

    @classmethod
    def placed(cls, n: int, parts: Iterable[tuple[Sequence[int], "ResultColumns"]]) -> "ResultColumns":
        """One columnar result for ``n`` puzzles from parts answering some of them each
        (``(indices, columns)``: row ``k`` of the part is puzzle ``indices[k]``)."""
        import numpy as np
        parts = [(np.asarray(where, np.intp), part) for where, part in parts]
        first = parts[0][1]
        cells = max(part.solutions.shape[1] for _, part in parts)
        dtype = np.result_type(*(part.solutions.dtype for _, part in parts))
        out = cls(names_of(part.kind for _, part in parts), names_of(part.solver for _, part in parts),
                  first.limit, np.zeros(n, np.uint8), np.zeros(n, np.int64),
                  np.zeros((n, cells), dtype), {name: np.zeros(n, np.int64) for name in STATISTICS},
                  {name: np.zeros(n) for name in TIME_NAMES}, np.zeros(n, bool))
        for where, part in parts:
            out.status[where], out.count[where], out.verified[where] = part.status, part.count, part.verified
            out.solutions[where, :part.solutions.shape[1]] = part.solutions
            for name in STATISTICS:
                out.stats[name][where] = part.stats[name]
            for name in TIME_NAMES:
                out.times[name][where] = part.times[name]
            out.errors.update({int(where[k]): text for k, text in part.errors.items()})
        return out


def _counted(value: int | None) -> int:
    return NOT_COUNTED if value is None else value


def _column(values: Iterable, dtype, n: int) -> np.ndarray:
    import numpy as np
    return np.fromiter(values, dtype, n)


class Results(Sequence[Result]):
    """The answers to many puzzles, in their order: what :meth:`Engine.run_many
    <puzzlebench.engines.base.Engine.run_many>` and :func:`puzzlebench.solve_many` return and
    what the harness stores.

    ``results[i]`` is the :class:`Result` of puzzle ``i``.  Behind it is either a list of
    results (engines that run one puzzle at a time) or the :class:`Columns` of a native batch
    call (``results.columns``), whose records are views reading each field from the columns
    when asked (native/records.c); a caller that stores many answers (the harness) reads the
    columns instead.  ``parse_seconds`` is each
    puzzle's share of reading the batch, added to its ``times``; ``batch_cpu`` the CPU time of
    a batch call, and ``cpu_batch_size`` the number of puzzles each ``times.cpu`` is an even
    share of (1: each puzzle was timed alone).  ``kind`` and ``solver`` are the records', each
    of several joined by commas where they differ (:func:`names_of`)."""

    def __init__(self, kind: str, solver: str, limit: int | None, puzzles: Sequence[Puzzle],
                 records: list[Result] | None = None, columns: Columns | None = None):
        if (records is None) == (columns is None):
            raise ValueError("Results holds either records or columns")
        self.kind, self.solver, self.limit, self.puzzles = kind, solver, limit, puzzles
        self.records, self.columns = records, columns
        self.parse_seconds = 0.0
        self.batch_cpu = 0.0
        self.cpu_batch_size = 1
        self.wrong: set[int] = set()  # puzzles whose answers failed verification
        # For a batch read from text (no puzzle objects): the value-to-character table its
        # records write their solution text with, without building the puzzle; set by the
        # batch path (engines/batch.py), which knows such batches.
        self.solution_chars: bytes | None = None

    @classmethod
    def of(cls, results: list[Result], puzzles: Sequence[Puzzle], solver: str = "",
           limit: int | None = None) -> "Results":
        return cls(names_of(r.kind for r in results), names_of((r.solver for r in results), solver), limit,
                   puzzles, records=results)

    def __len__(self) -> int:
        return len(self.records) if self.records is not None else len(self.columns.statuses)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if self.records is not None:
            return self.records[i]
        i = range(len(self))[i]
        return next(self._from_columns(i, i + 1))

    def __iter__(self):
        if self.records is not None:
            return iter(self.records)
        return self._from_columns(0, len(self))

    def to_records(self) -> "Results":
        """The same answers as a list of records (what a caller that mends one answer needs)."""
        if self.records is None:
            self.records, self.columns = list(self), None
        return self

    def _from_columns(self, start: int, stop: int):
        """The records of puzzles ``start..stop``, one at a time: views of the columns that read
        each field when asked (native/records.c; their classes are the batch path's)."""
        from . import _native
        col = self.columns
        n = len(col.counts)
        cpu = self.batch_cpu / n if n else 0.0
        stats = tuple(_as_list(col.stats.get(name), n) for name in STATISTICS)
        args = (self.kind, self.solver, self.limit, _as_list(col.statuses, n), _as_list(col.counts, n),
                _as_list(col.solve_seconds, n), _as_list(col.total_seconds, n), stats, tuple(col.raw_names),
                _as_list(col.raw, n * len(col.raw_names)), col.size, col.cells, col.verified, col.solutions,
                self.parse_seconds, cpu, self.puzzles, self.solution_chars)
        return _native.column_records(*args, start, stop)


def _as_list(column, n: int):
    """A column as a list (the C pass reads lists); ``None`` (a statistic not counted) stays."""
    if column is None or type(column) is list:
        return column
    column = list(column)
    if len(column) != n:
        raise ValueError(f"a column of {len(column)} values for {n} puzzles")
    return column


def error_result(message: str, *, kind: str = "", solver: str = "", limit: int | None = None,
                 source: str | None = None, puzzle: Puzzle | None = None,
                 times: Times | None = None) -> Result:
    return Result(kind=kind, solver=solver, limit=limit, status=Status.ERROR, source=source,
                  error=message, puzzle=puzzle, times=times or Times())

