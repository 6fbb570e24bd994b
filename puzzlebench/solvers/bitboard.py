"""The native bitboard engines (C, in ``puzzlebench._native``): Sudoku of any block shape,
N-Queens and Skyscrapers, and the 9x9 batch path.

- Sudoku 9x9: band bitboards (a 27-bit word per digit and band, after JCZSolve / fsss2 and
  tdoku's digit planes), only the words changed since they were last seen revisited: box-line
  logic per band and stack by table lookup (option ``locked``), hidden singles per row, box
  and column, naked singles by bit-sliced counting; branching on the two-candidate cell that
  sees the most unsolved cells (see native/sudoku9.c).  Other block shapes,
  up to 64 values: one 64-bit candidate mask per cell, the same propagation, MRV.
- N-Queens: the classic column / diagonal bitmask search; pre-placed queens fix their row;
  mirror halving when counting all solutions of an empty board (exact).
- Skyscrapers (whole-line permutations filtered by the clues, N <= 9): every row and column must be a
  permutation fitting its two clues and its squares' domains; the values such permutations
  use (the line's support) come from a dynamic programme over the value sets of the parts
  before and after the tallest building (Pesant's regular-constraint passes), not from
  listing N! permutations; Latin singles, then the supports of lines with a clue, to a
  fixed point; branching on the line with the fewest fitting permutations, each tried whole.

:func:`solve_sudoku_lines` solves a list of 9x9 lines (or one bytes buffer of lines) in one C
call — parsing and validation included — and returns a lazy :class:`LineResults`.
"""

from __future__ import annotations

import time
from typing import Any, Iterator, Sequence

from .. import _native
from ..models.base import Puzzle
from ..models.nqueens import NQueens
from ..models.skyscrapers import Skyscrapers
from ..models.sudoku import Sudoku, parse_box, parse_sudoku_line
from ..results import Result, ResultColumns, Stats, Status, Times, status_of
from .base import Deadline, Engine, Option, SearchOutcome, checked_limits, verify_result

RAW_NAMES = ("nodes", "guesses", "backtracks", "naked_singles", "hidden_singles", "locked_eliminations")
# status codes of the C batch (bitboard.c)
_OK, _TIMEOUT, _BAD_CHAR, _RANGE, _DUPLICATE, _OTHER = range(6)
_FAST_BOXES = (None, (3, 3))


def _seconds(deadline: Deadline) -> float:
    """The C side's time limit: 0 = none; a spent deadline still gets a sliver, never 0."""
    remaining = deadline.remaining()
    return 0.0 if remaining is None else max(remaining, 1e-9)


def _stats(counters: Sequence[int], propagating: bool) -> Stats:
    nodes, guesses, backtracks, naked, hidden, locked = counters
    return Stats(nodes=nodes, guesses=guesses, backtracks=backtracks,
                 propagations=naked + hidden + locked if propagating else None,
                 raw=dict(zip(RAW_NAMES, counters)))


def _split(buffer: bytes, n: int, size: int) -> list[tuple[int, ...]]:
    return [tuple(buffer[i * size:(i + 1) * size]) for i in range(n)]


class BitboardEngine(Engine):
    kinds = frozenset({"sudoku", "nqueens", "skyscrapers"})
    family = "bitboard"
    holds_time_limit = True
    summary = "native C bitboards: Sudoku (band bitboards, any block shape), N-Queens, Skyscrapers"
    options = (
        Option("locked", bool, True, "Sudoku: locked candidates (pointing and claiming): on 9x9 with every "
               "band and stack update, on other shapes when singles stall"),
        Option("symmetry", bool, True, "N-Queens: mirror halving when counting all solutions of an empty board"),
    )
    statistics = {
        "nodes": "search nodes: the root and every alternative tried at a branch",
        "guesses": "branch points with two or more alternatives (Sudoku: a cell; N-Queens: a "
                   "row; Skyscrapers: a row or column, each alternative a whole permutation)",
        "backtracks": "alternatives whose propagation (Sudoku, Skyscrapers) or filtering "
                      "(N-Queens: a row with no free square) failed at once",
        "propagations": "Sudoku only: naked singles + hidden singles placed + candidates removed "
                        "by pointing/claiming (raw: naked_singles, hidden_singles, locked_eliminations)",
    }

    def size(self, artifact: Puzzle) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: Puzzle, limit: int | None, keep: int, deadline: Deadline) -> SearchOutcome:
        seconds = _seconds(deadline)
        if isinstance(artifact, Sudoku):
            rows, cols = artifact.box
            count, timed_out, sols, counters = _native.sudoku_solve(
                rows, cols, bytes(artifact.givens), limit, keep, seconds, self.settings["locked"])
            propagating = True
        elif isinstance(artifact, NQueens):
            count, timed_out, sols, counters = _native.nqueens_solve(
                artifact.n, bytes(artifact.givens), limit, keep, seconds, self.settings["symmetry"])
            propagating = False
        elif isinstance(artifact, Skyscrapers):
            count, timed_out, sols, counters = _native.skyscrapers_solve(
                artifact.n, bytes(artifact.top), bytes(artifact.bottom), bytes(artifact.left),
                bytes(artifact.right), bytes(artifact.givens), limit, keep, seconds)
            propagating = False
        else:
            raise TypeError(f"bitboard cannot solve {type(artifact).__name__}")
        cells = artifact.n_cells
        return SearchOutcome(_split(sols, len(sols) // cells if cells else 0, cells), count,
                             timed_out, _stats(counters, propagating))

    # -- batch paths ----------------------------------------------------------------------

    def run_many(self, puzzles: Sequence[Puzzle], *, limit: int | None = 2,
                 time_limit: float | None = None, keep: int = 10,
                 verify: bool = True) -> list[Result]:
        """9x9 Sudoku go through one C call (their givens as one buffer of lines); the rest,
        one by one."""
        limit, time_limit = checked_limits(limit, time_limit)
        fast = [i for i, p in enumerate(puzzles) if isinstance(p, Sudoku) and p.box == (3, 3)]
        results: list[Result | None] = [None] * len(puzzles)
        if fast:
            buffer = _lines_buffer(puzzles[i] for i in fast)
            batch = solve_sudoku_lines(buffer, limit=limit, time_limit=time_limit,
                                       locked=self.settings["locked"], engine=self, verify=False)
            for k, i in enumerate(fast):
                result = batch[k]
                result.puzzle = puzzles[i]
                result.source = puzzles[i].source
                if verify:
                    verify_result(result, puzzles[i])
                results[i] = result
        for i, p in enumerate(puzzles):
            if results[i] is None:
                results[i] = self.run(p, limit=limit, time_limit=time_limit, keep=keep, verify=verify)
        return results  # type: ignore[return-value]

    def run_columns(self, puzzles: Sequence[Puzzle], *, limit: int | None = 2,
                    time_limit: float | None = None) -> ResultColumns | None:
        """9x9 Sudoku only: the C batch's arrays as columns (no :class:`Result` per puzzle)."""
        limit, time_limit = checked_limits(limit, time_limit)
        if not puzzles or not all(isinstance(p, Sudoku) and p.box == (3, 3) for p in puzzles):
            return None
        batch = solve_sudoku_lines(_lines_buffer(puzzles), limit=limit, time_limit=time_limit,
                                   locked=self.settings["locked"], engine=self, verify=False)
        return batch.columns()

    def run_texts(self, texts: Sequence[str], *, kind: str | None = None,
                  box: str | tuple[int, int] | None = None, limit: int | None = 2,
                  time_limit: float | None = None, keep: int = 10) -> "LineResults | list[Result]":
        """Texts straight to the C batch when they can be 9x9 Sudoku lines (the API's
        ``solve_many`` calls this); otherwise parse and run them one by one."""
        limit, time_limit = checked_limits(limit, time_limit)
        if kind not in (None, "sudoku") or parse_box(box) not in _FAST_BOXES:
            return self._parse_and_run(texts, kind, box, limit, time_limit, keep)
        return solve_sudoku_lines(texts, limit=limit, time_limit=time_limit,
                                  locked=self.settings["locked"], engine=self, kind=kind, box=box)

    def _parse_and_run(self, texts, kind, box, limit, time_limit, keep) -> list[Result]:
        return [self.run_text(t, kind=kind, box=box, limit=limit, time_limit=time_limit, keep=keep)
                for t in texts]


class LineResults(Sequence[Result]):
    """The answer of one batch call: arrays over the puzzles, read lazily.

    ``len(results)`` puzzles; ``results.status(i)``, ``results.count(i)``,
    ``results.solution(i)`` (the solution as an 81-character line, or ``None``) and
    ``results.stats(i)`` read the C arrays directly; ``results[i]`` builds a full
    :class:`~puzzlebench.results.Result` on demand (solution checked by the model's checker
    when ``verify``).  Lines that are not 81 ASCII characters or that the C validation
    rejected go through the reader's parse, which gives the exact error text.
    ``results.seconds`` is the whole call's wall time; ``times.solve`` of each record is the
    C search time of that puzzle, ``times.total`` adds its share of the call's parse and
    overhead."""

    def __init__(self, lines, raw: tuple, limit: int | None, engine: Engine, seconds: float,
                 kind=None, box=None, time_limit=None, verify: bool = True):
        (self._n, self._status, self._column, counts, stats, secs, self._solutions) = raw
        self._counts = memoryview(counts).cast("Q")
        self._stats = memoryview(stats).cast("Q")  # uint64_t, as the C counters
        self._secs = memoryview(secs).cast("d")
        self._lines = lines
        self.limit, self.engine, self.seconds = limit, engine, seconds
        self._kind, self._box, self._time_limit, self._verify = kind, box, time_limit, verify
        self._slow: dict[int, Result] = {}
        self._overhead = (seconds - sum(self._secs)) / self._n if self._n else 0.0

    def __len__(self) -> int:
        return self._n

    def _line(self, i: int) -> str:
        if isinstance(self._lines, (list, tuple)):
            return self._lines[i]
        if not hasattr(self, "_split_lines"):
            text = bytes(self._lines).decode("utf-8", "replace").split("\n")
            if text and text[-1] == "":
                text.pop()
            self._split_lines = [t[:-1] if t.endswith("\r") else t for t in text]
        return self._split_lines[i]

    def is_fast(self, i: int) -> bool:
        """Was puzzle ``i`` parsed and solved in C (not an error, not another shape)?"""
        return self._status[i] in (_OK, _TIMEOUT)

    def rejected(self, i: int) -> tuple[str, int] | None:
        """How the C validation rejected line ``i``: (``"character"`` | ``"range"`` |
        ``"duplicate"``, 1-based column or 0), or ``None``."""
        code = self._status[i]
        names = {_BAD_CHAR: "character", _RANGE: "range", _DUPLICATE: "duplicate"}
        return (names[code], self._column[i]) if code in names else None

    def status(self, i: int) -> Status:
        if not self.is_fast(i):
            return self[i].status
        return status_of(self._counts[i], self.limit, self._status[i] == _TIMEOUT)

    def count(self, i: int) -> int:
        return self._counts[i] if self.is_fast(i) else self[i].count

    def solution(self, i: int) -> str | None:
        if not self.is_fast(i):
            return self[i].solution
        if not self._counts[i]:
            return None
        return self._solutions[i * 81:(i + 1) * 81].decode("ascii")

    def stats(self, i: int) -> Stats:
        return _stats(self._stats[i * 6:(i + 1) * 6].tolist(), True)

    def statuses(self) -> list[Status]:
        """Every puzzle's status, read from the arrays in one sweep."""
        if any(code != _OK for code in self._status):
            return [self.status(i) for i in range(self._n)]
        by_count = [status_of(c, self.limit, False) for c in range(3)]
        return [by_count[c if c < 2 else 2] for c in self._counts]

    def columns(self) -> ResultColumns | None:
        """The whole batch as columns, read from the C arrays in a few sweeps; ``None`` when
        some line was not solved in C (rejected or another shape: it needs a :class:`Result`)."""
        codes = bytes(self._status)
        if codes.count(_OK) + codes.count(_TIMEOUT) != self._n:
            return None
        counters = self._stats.tolist()
        singles = [a + b + c for a, b, c in zip(counters[3::6], counters[4::6], counters[5::6])]
        overhead = self._overhead
        solve = self._secs.tolist()
        return ResultColumns(
            kind="sudoku", solver=self.engine.spec, limit=self.limit, statuses=self.statuses(),
            counts=self._counts.tolist(), solve_seconds=solve, total_seconds=[s + overhead for s in solve],
            stats={"nodes": counters[0::6], "guesses": counters[1::6], "backtracks": counters[2::6],
                   "propagations": singles},
            raw_names=RAW_NAMES, raw=counters, size={"cells": 81, "values": 9}, cells=81,
            solutions=self._solutions.translate(_DIGIT_VALUES))

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        if not self.is_fast(i):
            if i not in self._slow:
                self._slow[i] = self.engine.run_text(self._line(i), kind=self._kind, box=self._box,
                                                     limit=self.limit, time_limit=self._time_limit,
                                                     keep=1)
            return self._slow[i]
        solve = self._secs[i]
        times = Times(solve=solve, total=solve + self._overhead)
        text = self.solution(i)
        solutions = [tuple(b - 48 for b in text.encode())] if text else []
        result = Result(kind="sudoku", solver=self.engine.spec, limit=self.limit,
                        status=self.status(i), count=self._counts[i], solutions=solutions,
                        times=times, stats=self.stats(i), size={"cells": 81, "values": 9})
        if self._verify:
            result.puzzle = parse_sudoku_line(self._line(i))
            verify_result(result, result.puzzle)
        return result

    def __iter__(self) -> Iterator[Result]:
        return (self[i] for i in range(self._n))


_GIVEN_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")
_DIGIT_VALUES = bytes.maketrans(b"0123456789", bytes(range(10)))


def _lines_buffer(puzzles) -> bytes:
    """9x9 Sudoku as the C batch reads them: one line of 81 digits each (0 = empty)."""
    return b"\n".join(bytes(p.givens).translate(_GIVEN_DIGITS) for p in puzzles)


def solve_sudoku_lines(lines: Sequence[str] | bytes, limit: int | None = 2, *,
                       time_limit: float | None = None, locked: bool = True,
                       engine: Engine | None = None, kind: str | None = None,
                       box: Any = None, verify: bool = True) -> LineResults:
    """Solve 9x9 Sudoku lines in one C call: parse, validate, search (GIL released).

    ``lines``: a list of str (81 characters each) or one bytes buffer of lines separated by
    ``\\n``.  ``limit``: 2 = solve and prove unique, ``None``/0 = count all.
    ``time_limit``: seconds per puzzle.  Returns a :class:`LineResults` (lazy records)."""
    engine = engine or BitboardEngine(options={"locked": locked})
    if isinstance(lines, str):
        raise TypeError("solve_sudoku_lines takes a list of lines or a bytes buffer, not one str")
    if not isinstance(lines, (list, tuple, bytes, bytearray, memoryview)):
        lines = list(lines)
    start = time.perf_counter()
    raw = _native.sudoku9_batch(lines, limit or None, time_limit or 0.0, locked)
    return LineResults(lines, raw, limit or None, engine, time.perf_counter() - start,
                       kind=kind, box=box, time_limit=time_limit, verify=verify)
