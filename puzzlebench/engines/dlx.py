"""Dancing Links in C (family ``dlx``): Knuth's Algorithm X with secondary items, and
Algorithm C (colors), as in his programs DLX1 and DLX2 (TAOCP 7.2.2.1).

The search is ``puzzlebench/native/dlx.c``; it releases the GIL and honours the time limit
(it looks at the clock every 1024 nodes).  Its counters are Knuth's (``nodes``, ``updates``,
``cleansings``) and equal those of the readable twin :mod:`puzzlebench.engines.dlx_py`.

A batch path (:meth:`DlxEngine.batch_columns`, by :mod:`~puzzlebench.engines.batch`) solves
many Sudokus of one block shape in one C call (``native/dlx_sudoku.c``): the same Algorithm X
on the same matrix the Python encoder builds, with the fixed-shape links kept as a bitset of
options, so the counters are the same as one puzzle at a time (the tests check it).

Its claims of absence on Sudoku are certified by its own proof (:meth:`DlxEngine.prove`, the
search compiled with proof hooks, ``native/dlx_sudoku_proof.c``): the negation of its decisions
at each dead end, solution and refuted branch, covering being unit propagation on the CNF.
"""

from __future__ import annotations

import time
from typing import Sequence

from ..encoders.exact_cover import ExactCoverMatrix
from ..errors import EngineError
from ..models.base import Puzzle
from ..models.sudoku_batch import SudokuBatch
from ..results import STATUS_CODE, Columns, ResultColumns, Stats, Status, status_of
from ..runtime.child import MB, machine_memory
from ..runtime.limits import Deadline, native_seconds
from .base import SearchOutcome, proof_of_these
from .batch import BATCH_KIND, NativeBatch
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
    """Run the C engine on a matrix: raw solutions are tuples of option indices.  The C engine
    allocates room for the ``keep`` solutions up front (an ``int`` per primary item each):
    ``keep`` is cut to the limit, and a room larger than this machine is an error, not a
    ``MemoryError`` traceback (``solve-xc --show 2147483647``)."""
    keep = min(keep, limit) if limit else keep
    room, total = 4 * keep * (matrix.n_primary + 1), machine_memory()
    if total is not None and room > total:
        raise EngineError(f"keeping {keep:,} solutions takes {room / MB:,.0f} MB up front, more than this "
                          f"machine's {total // MB:,} MB: keep fewer (--keep, --show) or give a --limit")
    items, colors, starts = matrix.arrays()
    count, kept, nodes, updates, cleansings, timed_out = _native.dlx_solve(
        matrix.n_primary, matrix.n_secondary, items, colors, starts,
        0 if limit is None else limit, keep, native_seconds(time_limit))
    raw = {"nodes": nodes, "updates": updates}
    if matrix.colored:
        raw["cleansings"] = cleansings
    return SearchOutcome(list(kept), count, timed_out, Stats(nodes=nodes, raw=raw))


class DlxEngine(NativeBatch, ExactCoverEngine):
    family = "dlx"
    held_per_entry = 144   # the C links and their arrays: 240 bytes an entry in all on an empty 49x49
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

    def prove(self, puzzle: Puzzle, solutions: Sequence, deadline: Deadline) -> bytes | None:
        """The solutions counted again by the Sudoku search (native/dlx_sudoku.c) compiled to
        write a DRUP proof as it goes (native/dlx_sudoku_proof.c: not-D for a branch item left
        without options, for a solution, and for a branch item whose every choice is refuted,
        D the options chosen among two or more); its proof, when they are ``solutions``.  Sudoku
        of any block shape; other puzzles none."""
        if puzzle.kind != "sudoku" or _native_function("dlx_sudoku_prove") is None:
            return None
        proof, count, found = _native.dlx_sudoku_prove(bytes(puzzle.givens), puzzle.box[0], puzzle.box[1],
                                                       len(solutions) + 1,
                                                       native_seconds(deadline.remaining()))
        return proof_of_these(solutions, proof, count, found, puzzle.n_cells)

    # -- the batch path ---------------------------------------------------------------------

    def takes_batch(self, packed: SudokuBatch) -> bool:
        return len(packed) >= BATCH_MIN

    def batch_columns(self, packed: SudokuBatch, *, limit: int | None,
                      time_limit: float | None) -> Columns | None:
        """Sudokus of one block shape in one C call (encode and search in C), on the model's
        packed givens; anything else one at a time.  The call's time (times its threads: the
        time of the thread a puzzle ran on) is shared evenly.  After a Ctrl-C, the puzzles
        answered before the first it left unanswered."""
        start = time.perf_counter()
        rows = _native.dlx_sudoku_batch(packed.values, packed.box[0], packed.box[1],
                                        0 if limit is None else limit, 1,
                                        native_seconds(time_limit), self.batch_threads)
        elapsed = (time.perf_counter() - start) * self.threads_used(len(rows))
        if None in rows:  # givens that break a rule: a validated batch never has them
            return None
        if len(rows) < len(packed):   # a Ctrl-C stopped the call: the puzzles answered before it
            elapsed = sum(row[7] for row in rows)
        share = elapsed / max(1, len(rows))
        counts = [row[0] for row in rows]
        nodes = [row[2] for row in rows]
        empty = bytes(packed.cells)
        return Columns(
            statuses=[status_of(row[0], limit, row[4]) for row in rows], counts=counts,
            solve_seconds=[share] * len(rows), total_seconds=[share] * len(rows),
            stats={"nodes": nodes}, raw_names=("nodes", "updates"),
            raw=[v for row in rows for v in (row[2], row[3])],
            size=[{"items": row[5], "primary_items": row[5], "secondary_items": 0,
                   "options": row[6], "entries": 4 * row[6]} for row in rows],
            cells=packed.cells, solutions=b"".join(bytes(row[1][0]) if row[1] else empty for row in rows))

    def batch_arrays(self, packed: SudokuBatch, *, limit: int | None,
                     time_limit: float | None) -> ResultColumns | None:
        """:meth:`batch_columns` as the columnar result: the C call writes the status codes,
        counts, counters and first solutions into arrays, no object a puzzle; the call's time
        shared as there."""
        import numpy as np
        n = len(packed)
        status, counts, nodes, updates = (np.empty(n, np.uint8), np.empty(n, np.int64), np.empty(n, np.int64),
                                          np.empty(n, np.int64))
        items, options, solutions = np.empty(n, np.int32), np.empty(n, np.int32), np.empty((n, packed.cells), np.uint8)
        start = time.perf_counter()
        answered = _native.dlx_sudoku_batch_columns(
            packed.values, packed.box[0], packed.box[1], 0 if limit is None else limit,
            native_seconds(time_limit),
            status, counts, nodes, updates, items, options, solutions, self.batch_threads)
        elapsed = (time.perf_counter() - start) * self.threads_used(answered)
        share = np.full(answered, elapsed / max(1, answered))
        if (status[:answered] == STATUS_CODE[Status.ERROR]).any():   # givens that break a rule
            return None
        return ResultColumns.of_arrays(
            BATCH_KIND, self.spec, limit, status=status[:answered], count=counts[:answered],
            solutions=solutions[:answered], stats={"nodes": nodes[:answered]}, solve=share, total=share.copy())
