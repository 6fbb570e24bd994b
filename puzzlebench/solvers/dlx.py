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
from typing import Any, Sequence

from ..encoders.exact_cover import ExactCoverMatrix, encode_puzzle
from ..models.base import Puzzle
from ..results import Result, Stats, Times, error_result, status_of
from .base import Deadline, Engine, SearchOutcome, verify_result

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


class DlxEngine(Engine):
    family = "dlx"
    exact_cover = True  # takes any ExactCoverMatrix (puzzlebench solve-xc)
    summary = ("Dancing Links in C: Knuth's Algorithm X (secondary items) and C (colors), "
               "his node and update counts; batch path for Sudoku")
    statistics = {"nodes": "Knuth's node count: entries to a search level, plus one per solution "
                           "(raw: nodes, updates, cleansings as DLX1/DLX2 count them)"}

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if _native_function("dlx_solve") is None:
            return "the compiled extension puzzlebench._native (with dlx_solve) is not built"
        return None

    def encode(self, puzzle: Puzzle) -> ExactCoverMatrix:
        return encode_puzzle(puzzle)

    def size(self, artifact: ExactCoverMatrix) -> dict[str, int]:
        return artifact.size()

    def search(self, artifact: ExactCoverMatrix, limit: int | None, keep: int,
               deadline: Deadline) -> SearchOutcome:
        return solve_matrix(artifact, limit, keep, deadline.remaining())

    def decode(self, artifact: ExactCoverMatrix, raw: Any) -> tuple[int, ...]:
        return artifact.decode(raw)

    # -- the batch path -------------------------------------------------------------------

    def run_many(self, puzzles: Sequence[Puzzle], *, limit: int | None = 2,
                 time_limit: float | None = None, keep: int = 10,
                 verify: bool = True) -> list[Result]:
        """Sudokus go through one C call per block shape; everything else one at a time."""
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
