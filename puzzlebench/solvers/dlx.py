"""Dancing Links in C (family ``dlx``): Knuth's Algorithm X with secondary items, and
Algorithm C (colors), as in his programs DLX1 and DLX2 (TAOCP 7.2.2.1).

The search is ``puzzlebench/native/dlx.c``; it releases the GIL and honours the time limit
(it looks at the clock every 1024 nodes).  Its counters are Knuth's (``nodes``, ``updates``,
``cleansings``) and equal those of the readable twin :mod:`puzzlebench.solvers.dlx_py`.

A batch path (:meth:`DlxEngine.run_many`) solves many Sudokus of one block shape in one C
call (``native/dlx_sudoku.c``): the same Algorithm X on the same matrix the Python encoder
builds, with the fixed-shape links kept in arrays, so the counters are the same as one puzzle
at a time (the tests check it).
"""

from __future__ import annotations

import time
from typing import Sequence

from ..encoders.exact_cover import ExactCoverMatrix
from ..models.base import Puzzle
from ..models.sudoku import DIGITS as SUDOKU_DIGITS, infer_box, parse_box, parse_sudoku_line
from ..results import Result, Stats, Status, Times, error_result, status_of
from .base import Deadline, Engine, SearchOutcome, checked_limits, verify_result
from .dlx_py import ExactCoverEngine

try:
    from .. import _native
except ImportError as exc:  # pragma: no cover - the extension is built with the package
    _native = None
    _IMPORT_ERROR = str(exc)

BATCH_MIN = 2  # a batch call pays off from two puzzles on


def _native_function(name: str):
    fn = getattr(_native, name, None) if _native is not None else None
    return fn


def solve_matrix(matrix: ExactCoverMatrix, limit: int | None, keep: int,
                 time_limit: float | None) -> SearchOutcome:
    """Run the C engine on a matrix: raw solutions are tuples of option indices."""
    items, colors, starts = matrix.arrays()
    count, kept, nodes, updates, cleansings, timed_out = _native.dlx_solve(
        matrix.n_primary, matrix.n_secondary, items, colors, starts,
        0 if limit is None else limit, keep, 0.0 if time_limit is None else max(time_limit, 1e-9))
    raw = {"nodes": nodes, "updates": updates}
    if matrix.colored:
        raw["cleansings"] = cleansings
    return SearchOutcome(list(kept), count, timed_out, Stats(nodes=nodes, raw=raw))


class DlxEngine(ExactCoverEngine):
    family = "dlx"
    holds_time_limit = True
    summary = ("Dancing Links in C: Knuth's Algorithm X (secondary items) and C (colors), "
               "his node and update counts; batch path for Sudoku")

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if _native_function("dlx_solve") is None:
            return "the compiled extension puzzlebench._native (with dlx_solve) is not built"
        return None

    def search(self, artifact: ExactCoverMatrix, limit: int | None, keep: int,
               deadline: Deadline) -> SearchOutcome:
        return solve_matrix(artifact, limit, keep, deadline.remaining())

    # -- the batch paths ------------------------------------------------------------------

    def run_texts(self, texts: Sequence[str], *, kind: str | None = None, box=None,
                  limit: int | None = 2, time_limit: float | None = None,
                  keep: int = 10) -> Sequence[Result]:
        """Sudoku lines straight to the C batch (the API's ``solve_many`` calls this);
        anything else is parsed and run one by one."""
        limit, time_limit = checked_limits(limit, time_limit)
        if kind in (None, "sudoku"):
            batch = sudoku_lines_batch(texts, box=box, limit=limit, time_limit=time_limit,
                                       keep=keep, engine=self, kind=kind)
            if batch is not None:
                return batch
        return [self.run_text(t, kind=kind, box=box, limit=limit, time_limit=time_limit, keep=keep)
                for t in texts]

    def run_many(self, puzzles: Sequence[Puzzle], *, limit: int | None = 2,
                 time_limit: float | None = None, keep: int = 10,
                 verify: bool = True) -> list[Result]:
        """Sudokus go through one C call per block shape; everything else one at a time."""
        limit, time_limit = checked_limits(limit, time_limit)
        results: list[Result | None] = [None] * len(puzzles)
        by_box: dict[tuple[int, int], list[int]] = {}
        for k, p in enumerate(puzzles):
            if p.kind == "sudoku":
                by_box.setdefault(p.box, []).append(k)
        for box, indices in by_box.items():
            if len(indices) < BATCH_MIN:
                continue
            batch = sudoku_batch([puzzles[k] for k in indices], limit=limit,
                                 time_limit=time_limit, keep=keep, verify=verify, solver=self.spec)
            for k, result in zip(indices, batch):
                results[k] = result
        for k, p in enumerate(puzzles):
            if results[k] is None:
                results[k] = self.run(p, limit=limit, time_limit=time_limit, keep=keep, verify=verify)
        return results


def sudoku_batch(puzzles: Sequence[Puzzle], *, limit: int | None = 2, time_limit: float | None = None,
                 keep: int = 10, verify: bool = True, solver: str = "dlx") -> list[Result]:
    """Solve Sudokus of one block shape in one C call (encode and search in C)."""
    box = puzzles[0].box
    start = time.perf_counter()
    givens = b"".join(bytes(p.givens) for p in puzzles)
    rows = _native.dlx_sudoku_batch(givens, box[0], box[1], 0 if limit is None else limit, keep,
                                    0.0 if time_limit is None else max(time_limit, 1e-9))
    elapsed = (time.perf_counter() - start) / max(1, len(puzzles))
    out = []
    for p, row in zip(puzzles, rows):
        if row is None:  # givens that break a rule (a constructed Sudoku never has them)
            out.append(error_result("givens break a rule", kind="sudoku", solver=solver,
                                    limit=limit, source=p.source, puzzle=p))
            continue
        count, sols, nodes, updates, timed_out, items, options = row
        times = Times(solve=elapsed, total=elapsed)  # the batch's time, shared evenly
        result = Result(kind="sudoku", solver=solver, limit=limit,
                        status=status_of(count, limit, timed_out), count=count,
                        solutions=[tuple(s) for s in sols], times=times,
                        stats=Stats(nodes=nodes, raw={"nodes": nodes, "updates": updates}),
                        size={"items": items, "primary_items": items, "secondary_items": 0,
                              "options": options, "entries": 4 * options},
                        source=p.source, puzzle=p)
        if verify:
            verify_result(result, p)
        out.append(result)
    return out


# -- texts straight to the batch (the API's solve_many calls run_texts) -------------------

_EMPTY_CHARS = ".0_"


def _value_table() -> bytes:
    """Byte translation: empty cell → 0, ``1-9A-Z`` (either case) → 1..35, anything else → 255."""
    table = bytearray([255]) * 256
    for ch in _EMPTY_CHARS:
        table[ord(ch)] = 0
    for v, ch in enumerate(SUDOKU_DIGITS, start=1):
        table[ord(ch)] = table[ord(ch.lower())] = v
    return bytes(table)


_VALUES = _value_table()


class DlxLineResults(Sequence[Result]):
    """The answer of one batch call over Sudoku lines, as results built on demand.

    ``count(i)``, ``status(i)`` and ``stats(i)`` read the C answer directly; ``results[i]``
    builds the full :class:`~puzzlebench.results.Result`, its solutions checked by the model's
    own checker (``verify``).  Lines the batch could not take (a wrong length or character,
    givens that break a rule) go through the reader's parse and the one-puzzle path, which
    gives the exact error text.  ``seconds``: the whole call's wall time."""

    def __init__(self, lines: Sequence[str], rows: list, box: tuple[int, int], limit: int | None,
                 engine: Engine, seconds: float, time_limit: float | None, keep: int,
                 verify: bool = True, kind: str | None = None):
        self._lines, self._rows, self.box = lines, rows, box
        self.limit, self.engine, self.seconds = limit, engine, seconds
        self._time_limit, self._keep, self._verify, self._kind = time_limit, keep, verify, kind
        self._share = seconds / len(lines) if lines else 0.0
        self._slow: dict[int, Result] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def is_fast(self, i: int) -> bool:
        return self._rows[i] is not None

    def count(self, i: int) -> int:
        return self._rows[i][0] if self.is_fast(i) else self[i].count

    def status(self, i: int) -> Status:
        if not self.is_fast(i):
            return self[i].status
        row = self._rows[i]
        return status_of(row[0], self.limit, row[4])

    def stats(self, i: int) -> Stats:
        if not self.is_fast(i):
            return self[i].stats
        nodes, updates = self._rows[i][2:4]
        return Stats(nodes=nodes, raw={"nodes": nodes, "updates": updates})

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if not self.is_fast(i):
            if i not in self._slow:
                self._slow[i] = self.engine.run_text(self._lines[i], kind=self._kind, box=self.box,
                                                     limit=self.limit, time_limit=self._time_limit,
                                                     keep=self._keep)
            return self._slow[i]
        count, sols, nodes, updates, timed_out, items, options = self._rows[i]
        result = Result(kind="sudoku", solver=self.engine.spec, limit=self.limit,
                        status=status_of(count, self.limit, timed_out), count=count,
                        solutions=[tuple(s) for s in sols],
                        times=Times(solve=self._share, total=self._share), stats=self.stats(i),
                        size={"items": items, "primary_items": items, "secondary_items": 0,
                              "options": options, "entries": 4 * options})
        result.puzzle = parse_sudoku_line(self._lines[i].strip(), box=self.box)
        result.source = result.puzzle.source
        if self._verify:
            verify_result(result, result.puzzle)
        return result

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def sudoku_lines_batch(lines: Sequence[str], *, box=None, limit: int | None = 2,
                       time_limit: float | None = None, keep: int = 10, verify: bool = True,
                       engine: Engine | None = None, kind: str | None = None) -> DlxLineResults | None:
    """Sudoku lines (N² characters each, one N) in one C call, or ``None`` when they are not
    all lines of one size (the caller then parses them one by one)."""
    engine = engine or DlxEngine()
    if not lines:
        return None
    start = time.perf_counter()
    stripped = [t.strip() for t in lines]
    size = len(stripped[0])
    n = int(round(size ** 0.5))
    if n * n != size or n < 1 or n > len(SUDOKU_DIGITS) or any(len(t) != size for t in stripped):
        return None
    try:
        shape = parse_box(box) or infer_box(n)
    except Exception:
        return None
    if shape[0] * shape[1] != n:
        return None
    try:
        data = "".join(stripped).encode("ascii").translate(_VALUES)
    except UnicodeEncodeError:
        return None
    bad: set[int] = set()
    if max(data) > n:  # a character that is no value here: those lines take the slow path
        bad = {i for i in range(len(stripped)) if max(data[i * size:(i + 1) * size]) > n}
        data = b"".join(bytes(size) if i in bad else data[i * size:(i + 1) * size]
                        for i in range(len(stripped)))
    rows = _native.dlx_sudoku_batch(data, shape[0], shape[1], 0 if limit is None else limit, keep,
                                    0.0 if time_limit is None else max(time_limit, 1e-9))
    for i in bad:
        rows[i] = None
    return DlxLineResults(stripped, rows, shape, limit, engine, time.perf_counter() - start,
                          time_limit, keep, verify, kind)
