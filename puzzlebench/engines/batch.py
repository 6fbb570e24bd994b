"""The batch fast path behind one door: how an engine with a native batch call declares it,
how its answers are checked in bulk, and how its records are built from the columns.

An engine with such a call mixes in :class:`NativeBatch` and states :meth:`~NativeBatch.batch_columns`
on the model's packed givens (:class:`~puzzlebench.models.sudoku_batch.SudokuBatch`); the
generic modules (``base.py``, ``results.py``, the harness) ask through :meth:`Engine.batch
<puzzlebench.engines.base.Engine.batch>` and :func:`verify_in_bulk` and never name the
batch.  The records of a batch call are views of its columns (:class:`BatchRecord`): each
field, the puzzle of a batch read from text too, is built when it is read.  The columnar result (:meth:`NativeBatch.batch_arrays`) is the same call writing arrays instead.
The call may split its batch over native threads (``batch_threads``, set by
:func:`~puzzlebench.engines.registry.split_over_threads`): the same
answers in the same order, each puzzle on its own clock.
"""

from __future__ import annotations

import operator
import os
from dataclasses import fields
from typing import Any, Sequence

from .. import _native
from ..models.base import Puzzle
from ..models.sudoku_batch import SudokuBatch
from ..options import MAX_THREADS
from ..results import SOLVED, STATUS_CODE, STATUS_CODES, Columns, Result, ResultColumns, Results, Stats, Status, Times

BATCH_KIND = "sudoku"
"""The kind whose puzzles a native batch call takes (the kind of a :class:`SudokuBatch`)."""


class NativeBatch:
    """Mix-in (before :class:`~puzzlebench.engines.base.Engine`) of an engine with a native
    batch call: it states :meth:`takes_batch` and :meth:`batch_columns`; :meth:`batch` packs
    the puzzles, calls it and builds the :class:`Results`."""

    spec: str
    batch_threads: int = 1
    """Native threads each batch call is split over (:func:`~puzzlebench.engines.registry.split_over_threads`)."""

    def threads_used(self, answered: int) -> int:
        """The threads a batch call of ``answered`` puzzles kept busy: at most one a puzzle."""
        return min(self.batch_threads, max(1, answered))

    def takes_batch(self, packed: SudokuBatch) -> bool:
        """Whether the batch call is worth making on these puzzles (else one at a time)."""
        return True

    def batch_columns(self, packed: SudokuBatch, *, limit: int | None,
                      time_limit: float | None) -> Columns | None:
        """The answers of one call as columns, unverified: one a puzzle, or the first ones only
        when a Ctrl-C stopped the call; ``None`` when the call declines the batch."""
        raise NotImplementedError

    def batch_arrays(self, packed: SudokuBatch, *, limit: int | None,
                     time_limit: float | None) -> ResultColumns | None:
        """The answers of one call as the columnar result, written by the C call in the same pass
        as the search (no object a puzzle), unverified; the first ones only after a Ctrl-C;
        ``None`` when the call declines the batch (the default: the columns are then built
        from the records)."""
        return None

    def batch_table(self, puzzles: Sequence[Puzzle], *, limit: int | None,
                    time_limit: float | None) -> ResultColumns | None:
        """The puzzles in one native call as a :class:`ResultColumns`, verified in bulk, when
        they pack into one :class:`SudokuBatch` the engine takes, else ``None``.  After a
        Ctrl-C, the puzzles answered before it."""
        packed = SudokuBatch.of(puzzles)
        if packed is None or not self.takes_batch(packed):
            return None
        table = self.batch_arrays(packed, limit=limit, time_limit=time_limit)
        if table is not None:
            verify_columns(table, packed.head(len(table)), self.batch_threads)
        return table

    def batch(self, puzzles: Sequence[Puzzle], *, limit: int | None, time_limit: float | None,
              keep: int) -> Results | None:
        """The puzzles in one native call when they pack into one :class:`SudokuBatch` the
        engine takes, else ``None`` (each is then run alone).  After a Ctrl-C, the puzzles
        answered before it."""
        packed = SudokuBatch.of(puzzles)
        if packed is None or not self.takes_batch(packed):
            return None
        columns = self.batch_columns(packed, limit=limit, time_limit=time_limit)
        if columns is None:
            return None
        if len(columns.counts) < len(packed):
            packed = packed.head(len(columns.counts))
        return columns_results(self.spec, limit, packed, columns)


def every_core() -> int:
    """The cores this process may run on (its affinity where the system says it), at most
    :data:`~puzzlebench.options.MAX_THREADS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(cores, MAX_THREADS)


def columns_results(solver: str, limit: int | None, packed: SudokuBatch, columns: Columns) -> Results:
    """The :class:`Results` of a batch call, its records built from the columns when read
    (lazily for a batch that holds no puzzle objects)."""
    results = Results(BATCH_KIND, solver, limit, packed, columns=columns)
    results.solution_chars = packed.solution_chars
    return results


def _view_slots(fields_of: type) -> tuple[str, ...]:
    """The slots of a view of ``fields_of`` (native/records.c): the columns, the index, and
    one a field holding its value once set or built."""
    return ("_src", "_index", *(f"_held_{f.name}" for f in fields(fields_of)))


class _ColumnView:
    """What the views of a batch's columns share: equal to any instance of their dataclass
    with equal fields, and pickled (or copied) as that dataclass, never with the batch."""

    __slots__ = ()
    _stands_for: type

    def __eq__(self, other):
        base = self._stands_for
        if not isinstance(other, base):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(base) if f.compare)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return self._stands_for, tuple(getattr(self, f.name) for f in fields(self._stands_for))


class BatchTimes(_ColumnView, Times):
    """The :class:`Times` of a :class:`BatchRecord`, read from the columns."""
    __slots__ = _view_slots(Times)
    _stands_for = Times


class BatchStats(_ColumnView, Stats):
    """The :class:`Stats` of a :class:`BatchRecord`, read from the columns."""
    __slots__ = _view_slots(Stats)
    _stands_for = Stats


class BatchRecord(_ColumnView, Result):
    """A :class:`Result` read from the columns of a native batch call: each field is read
    from its column when first asked (native/records.c), its puzzle built from the batch only
    then, its ``solution`` text written from the column with the batch's own table.  Setting
    a field keeps the value set, as on any record."""
    __slots__ = _view_slots(Result)
    _stands_for = Result


_native.bind_column_views(BatchRecord, BatchTimes, BatchStats)


def verify_columns(table: ResultColumns, packed: SudokuBatch, threads: int = 1) -> None:
    """Check every first solution of a columnar result against its puzzle in one call of the
    bulk checker (native/check.c, :meth:`SudokuBatch.answers_right`, over ``threads`` native
    threads): ``table.verified`` set
    where right; a solved status with a wrong solution, or none, becomes an error naming the
    problem (the puzzle built for that one only)."""
    import numpy as np
    right = np.frombuffer(packed.answers_right(table.solutions, threads), np.uint8).astype(bool)
    solved = table.solved
    table.verified = solved & (table.count > 0) & right
    for i in np.flatnonzero(solved & ~table.verified).tolist():
        claimed = STATUS_CODES[table.status[i]]
        if table.count[i] == 0:
            problem = f"{claimed} with no solution to check"
        else:
            problem = packed[i].check(tuple(table.solutions[i].tolist()))[0]
        table.status[i] = STATUS_CODE[Status.ERROR]
        table.errors[i] = f"wrong answer from {table.solver}: {problem}"


def verify_in_bulk(results: Results) -> dict[int, bool] | None:
    """Check a batch's answers with the bulk checker where it has one: ``None`` when the
    columns of a native call were all right (``columns.verified`` set, the results left as
    columns); else the results as records and the indices of those found right (marked
    verified), the rest for the caller to check one by one."""
    if results.columns is not None:
        if _columns_verified(results):
            return None
        results.to_records()
    return _records_checked(results.records, results.puzzles)


def _columns_verified(results: Results) -> bool:
    """Check a batch's columns in one call of the kind's bulk checker: True, with
    ``columns.verified`` set, when every answer that claims a solution is right; False when
    the puzzles have no bulk checker or an answer is wrong (then checked one by one)."""
    columns, puzzles = results.columns, results.puzzles
    packed = SudokuBatch.of(puzzles)
    if puzzles and packed is None:
        return False
    flags = packed.answers_right(columns.solutions) if puzzles else b""
    # one byte a puzzle by map (a generator over 49,158 puzzles takes 0.4 us each)
    is_solved = {status: status in SOLVED for status in set(columns.statuses)}
    solved = bytes(map(is_solved.__getitem__, columns.statuses))
    claimed = bytes(map(operator.and_, solved, map(bool, columns.counts)))
    right = bytes(a & b for a, b in zip(claimed, flags)) if 0 in flags else claimed
    if right != solved:
        return False
    columns.verified = right
    return True


def _records_checked(records: Sequence[Result], puzzles: Sequence[Puzzle]) -> dict[int, bool]:
    """Records whose solutions the bulk checker found right (marked verified): one solution
    each (``limit`` 1 or a unique answer), of one size.  Index → True."""
    picked = [i for i, r in enumerate(records)
              if r.status in SOLVED and not r.verified and len(r.solutions) == 1 and r.count == 1]
    if not picked:
        return {}
    first = puzzles[picked[0]]
    same = [i for i in picked if type(puzzles[i]) is type(first) and len(records[i].solutions[0]) == first.n_cells
            and getattr(puzzles[i], "box", None) == getattr(first, "box", None)]
    try:
        packed = b"".join(bytes(records[i].solutions[0]) for i in same)
    except (TypeError, ValueError):  # not small numbers: the checker says what is wrong
        return {}
    batch = SudokuBatch.of([puzzles[i] for i in same]) if same else None
    if batch is None:
        return {}
    out = {}
    for i, ok in zip(same, batch.answers_right(packed)):
        if ok:
            records[i].verified = out[i] = True
    return out
