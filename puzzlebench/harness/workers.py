"""Worker processes with hard time limits: the local :class:`~.runner.Executor`.

Each worker is a forked process that takes :class:`~.runner.WorkUnit` s over a pipe and sends
back rows.  Before each puzzle it writes *which* puzzle and *when it started* into a small
shared array, so the parent knows, without asking, what a worker is doing:

- a worker whose current puzzle outlives ``time_limit + grace`` is killed (SIGKILL); that pair
  is recorded as ``timeout`` with the reason, and the rest of its unit goes to a new worker;
- a worker that dies (an exception in C, ``os._exit``, a signal) is noticed by its process
  sentinel; that pair is recorded as ``error`` with the exit code or signal, the rest goes on;
- a unit run through an engine's batch path (one native call for many puzzles) cannot say
  which puzzle stalled or crashed, so a failed batch is split into single-puzzle batches and
  only the puzzle that fails alone is recorded.

Peak memory is the worker's resident-set high-water mark from the OS (``VmHWM`` in
``/proc/self/status``), reset before each puzzle (or batch) by writing ``5`` to
``/proc/self/clear_refs`` (Linux 4.0+); where that cannot be done, the process-lifetime
``ru_maxrss`` of :func:`resource.getrusage`.

Every answer is verified here, by the harness, not left to the engine: single puzzles by
:func:`~puzzlebench.solvers.base.verify_result` (the puzzle's own checker), batches of Sudoku
in bulk by the native twin of the Sudoku checker (``native/check.c``: each unit's values as a
bitmask), any failure re-checked by the puzzle's checker for its message.  An engine that answers a batch as columns
(:meth:`~puzzlebench.solvers.base.Engine.run_columns`: the bitboard's 9x9 C batch) is checked
on those columns, and the worker sends the unit back as one :class:`~.runner.RowBatch`; a
wrong answer there sends the unit down the :class:`~puzzlebench.results.Result` path, which
names it.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import operator
import os
import queue
import resource
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence

from ..models.base import Puzzle
from ..results import Result, ResultColumns, Status
from ..solvers.base import verify_result
from .runner import (_STATUS_TEXT, STAT_FIELDS, PuzzleSlice, Row, RowBatch, WorkUnit, _json, contiguous,
                     failure_row, json_objects, row_of)
from ..solvers.child import die_with_parent
from ..solvers.registry import make_engine

FLUSH_SECONDS = 0.25   # a worker sends what it has at least this often (each send is a transaction)
POLL_SECONDS = 0.05    # how often the parent looks at the clocks of its workers
SOLVED = (Status.UNIQUE, Status.MULTIPLE, Status.SAT)


def grace_for(time_limit: float) -> float:
    """Time past the limit before a worker is killed: engines look at their clock only every
    so many nodes, and most encoders not at all (exact cover's Skyscrapers lines, the longest
    to build, do: ``Engine.encode_until``)."""
    return 1.0 + 0.1 * time_limit


# -- memory ------------------------------------------------------------------------------------

class MemoryProbe:
    """Peak resident set of this process since the last :meth:`reset`, in bytes."""

    def __init__(self):
        self.resettable = True
        try:
            self._clear = open("/proc/self/clear_refs", "w")
            self._status = open("/proc/self/status", "rb", buffering=0)
        except OSError:
            self.resettable = False

    def reset(self) -> None:
        if self.resettable:
            try:
                self._clear.write("5")
                self._clear.flush()
            except OSError:
                self.resettable = False

    def peak(self) -> int:
        if self.resettable:
            self._status.seek(0)
            data = self._status.read()
            at = data.find(b"VmHWM:")
            if at >= 0:
                return int(data[at + 6:data.index(b"kB", at)]) * 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# -- verification ------------------------------------------------------------------------------

def verify(result: Result, puzzle: Puzzle) -> bool:
    """Verify ``result`` unless the engine already did; True when the answer is wrong."""
    if result.status not in SOLVED:
        return False
    if not result.verified:
        verify_result(result, puzzle)
    if result.status is Status.ERROR:
        return True
    if not result.solutions:
        claimed = result.status
        result.status, result.verified = Status.ERROR, False
        result.error = f"wrong answer from {result.solver}: {claimed} with no solution to check"
        return True
    return False


def verify_many(results: list[Result], puzzles: list[Puzzle]) -> list[bool]:
    """:func:`verify` for a batch: Sudoku solutions of one block shape are checked together
    (:func:`sudoku_answers_right`); a failure is then explained by the puzzle's own checker.
    Other kinds one by one."""
    from ..models.sudoku import Sudoku
    wrong = [False] * len(results)
    groups: dict[tuple[int, int], list[int]] = {}
    for i, (res, puzzle) in enumerate(zip(results, puzzles)):
        if res.status in SOLVED and not res.verified:
            if isinstance(puzzle, Sudoku) and len(res.solutions) == min(res.count, 2) and res.solutions:
                groups.setdefault(puzzle.box, []).append(i)
                continue
        wrong[i] = verify(res, puzzle)
    for box, members in groups.items():
        good = _sudoku_solutions_valid(box, [results[i] for i in members], [puzzles[i] for i in members])
        for i, ok in zip(members, good):
            if ok:
                results[i].verified = True
            else:
                wrong[i] = verify(results[i], puzzles[i])
                if not wrong[i]:  # the bulk check and the checker disagree: trust neither
                    results[i].status, results[i].verified = Status.ERROR, False
                    results[i].error = "bulk verification failed where the checker passed (harness bug)"
                    wrong[i] = True
    return wrong


def _sudoku_solutions_valid(box, results: list[Result], puzzles: list[Puzzle]) -> list[bool]:
    cells = (box[0] * box[1]) ** 2
    sols, givens, owner = [], [], []
    good = [True] * len(results)
    for k, (res, puzzle) in enumerate(zip(results, puzzles)):
        for sol in res.solutions:
            try:
                packed = bytes(sol)
            except (TypeError, ValueError):
                packed = b""
            if len(packed) != cells:
                good[k] = False  # not n*n small numbers: the checker will say what is wrong
                continue
            sols.append(packed)
            givens.append(puzzle.givens)
            owner.append(k)
    if sols:
        for k, fine in zip(owner, sudoku_answers_right(box, b"".join(sols), givens)):
            if not fine:
                good[k] = False
    for k, res in enumerate(results):  # two solutions of one puzzle must differ
        if len(res.solutions) > 1 and len(set(map(tuple, res.solutions))) < len(res.solutions):
            good[k] = False
    return good


def sudoku_answers_right(box: tuple[int, int], solutions: bytes, givens: Sequence[Sequence[int]]) -> bytes:
    """Which of the Sudoku answers in ``solutions`` (``n*n`` values per puzzle, one byte each)
    are right for the puzzles whose givens are the same entry of ``givens`` (0 = empty): every
    value in 1..n, every given kept, every row, column and block holding each value once.  The
    rules of :meth:`Sudoku.check <puzzlebench.models.sudoku.Sudoku.check>` for a whole batch in
    one call of the native twin (``native/check.c``, which shares no code with any engine);
    one byte per puzzle, 1 where right."""
    from .. import _native
    return _native.sudoku_check_batch(box[0], box[1], solutions, givens)


def columns_to_rows(columns: ResultColumns, puzzles: list[Puzzle], task_ids: list[int],
                    peak: int | None) -> RowBatch | None:
    """Verify a batch's columns in bulk and turn them into a :class:`RowBatch`, or ``None``
    when that cannot be done here (not Sudoku of one block shape) or some answer is wrong
    (then the caller takes the :class:`Result` path, which says what is wrong).  A field with
    one value for the whole batch (a status, a count: all puzzles unique, say) is sent as
    shared, which the database writes as a literal instead of binding it to every row."""
    from ..models.sudoku import Sudoku
    n = len(puzzles)
    if len(columns) != n or not n or columns.kind != "sudoku":
        return None
    if not all(issubclass(t, Sudoku) for t in set(map(type, puzzles))):
        return None
    boxes = set(map(_BOX, puzzles))
    if len(boxes) != 1:
        return None
    box = boxes.pop()
    cells = (box[0] * box[1]) ** 2
    if columns.cells != cells or len(columns.solutions) != n * cells:
        return None
    statuses, counts = columns.statuses, columns.counts
    out: dict[str, list] = {}
    shared: dict[str, object] = {}
    if statuses.count(statuses[0]) == n:  # the list's own count: identity first, no enum hashing
        shared["status"] = _STATUS_TEXT[statuses[0]]
        picked = range(n) if statuses[0] in SOLVED else range(0)
        shared["verified"] = 1 if picked else 0
    else:
        codes = [_STATUS_BY_ID[id(s)] for s in statuses]
        out["status"] = [text for text, _ in codes]
        out["verified"] = [solved for _, solved in codes]  # an int: SQLite binds bools slowly
        picked = [k for k, (_, solved) in enumerate(codes) if solved]
    if picked:
        if (min(counts) if len(picked) == n else min(counts[k] for k in picked)) < 1:
            return None  # "solved" without a solution to check
        solutions, givens = columns.solutions, list(map(_GIVENS, puzzles))
        if len(picked) < n:
            solutions = b"".join([solutions[k * cells:(k + 1) * cells] for k in picked])
            givens = [givens[k] for k in picked]
        if 0 in sudoku_answers_right(box, solutions, givens):
            return None
    if counts.count(counts[0]) == n:
        shared["count"] = counts[0]
    else:
        out["count"] = counts
    out["t_solve"], out["t_total"] = columns.solve_seconds, columns.total_seconds
    shared.update(t_parse=0.0, t_encode=0.0, t_decode=0.0, peak_memory=peak, size=_json.dumps(columns.size),
                  error=None, wrong=0)
    stats = columns.stats
    for name in STAT_FIELDS:
        if name in stats:
            out[name] = stats[name]
        else:
            shared[name] = None
    if columns.raw_names:
        out["raw_stats"] = json_objects(columns.raw_names, columns.raw)
    else:
        shared["raw_stats"] = None
    return RowBatch(task_ids, out, shared)


_BOX, _GIVENS = operator.attrgetter("box"), operator.attrgetter("givens")
_STATUS_BY_ID = {id(s): (s.value, int(s in SOLVED)) for s in Status}
"""A status's text and whether it claims solutions, by the identity of the member (hashing an
enum member runs Python code)."""


# -- the worker --------------------------------------------------------------------------------
#
# The shared array of a worker: [0] index of the puzzle being run in its unit, [1] when it
# started (time.monotonic, the same clock in every process), [2] the unit's sequence number.
# The worker writes them in the order start, index, sequence; the parent reads them in the
# reverse order, so an index read after a matching sequence is never older than that unit.

INDEX, STARTED, SEQ = 0, 1, 2

_CATALOG = None
"""Task id -> puzzle, set by the parent just before it forks a worker: the worker inherits the
puzzles with its memory, so a unit needs to carry only task ids (pickling a puzzle costs more
than solving it on the fastest engines)."""


def _mark(shared, seq: int, index: int) -> None:
    shared[STARTED] = time.monotonic()
    shared[INDEX] = index
    shared[SEQ] = seq


def worker_main(conn, shared, parent_pid: int) -> None:
    """A worker's life: take ``(seq, unit)`` until the pipe closes or a ``None`` arrives."""
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    probe = MemoryProbe()
    engines = {}
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        seq, unit = msg
        _mark(shared, seq, 0)
        if unit.puzzles is None:  # sent without them: this worker inherited them
            run = contiguous(unit.task_ids)
            unit = replace(unit, puzzles=_CATALOG[run.start:run.stop] if run is not None
                           else [_CATALOG[tid] for tid in unit.task_ids])
        key = (unit.solver, tuple(sorted(unit.engines.items())))
        try:
            if key not in engines:
                engines[key] = make_engine(unit.solver, unit.engines)
            engine = engines[key]
        except Exception as exc:  # a spec that cannot be built here: every task says why
            conn.send([failure_row(tid, Status.ERROR, f"{type(exc).__name__}: {exc}") for tid in unit.task_ids])
            conn.send(None)
            continue
        if unit.batch:
            _run_batch(conn, shared, seq, unit, engine, probe)
        else:
            _run_single(conn, shared, seq, unit, engine, probe)
        conn.send(None)  # unit done


def _run_single(conn, shared, seq: int, unit: WorkUnit, engine, probe: MemoryProbe) -> None:
    rows: list[Row] = []
    last_flush = time.monotonic()
    for index, (tid, puzzle) in enumerate(zip(unit.task_ids, unit.puzzles)):
        _mark(shared, seq, index)
        probe.reset()
        try:
            result = engine.run(puzzle, limit=unit.limit, time_limit=unit.time_limit, keep=unit.keep,
                                verify=False)
            wrong = verify(result, puzzle)
            rows.append(row_of(tid, result, probe.peak(), wrong))
        except Exception as exc:  # an engine bug: this pair is an error, the worker goes on
            rows.append(failure_row(tid, Status.ERROR, f"{engine.spec} raised {type(exc).__name__}: {exc}",
                                    time.monotonic() - shared[STARTED]))
        now = time.monotonic()
        if now - last_flush >= FLUSH_SECONDS:
            conn.send(rows)
            rows, last_flush = [], now
    if rows:
        conn.send(rows)


def _run_batch(conn, shared, seq: int, unit: WorkUnit, engine, probe: MemoryProbe) -> None:
    _mark(shared, seq, 0)
    ids, puzzles = unit.task_ids, list(unit.puzzles)
    probe.reset()
    try:
        columns = engine.run_columns(puzzles, limit=unit.limit, time_limit=unit.time_limit)
        batch = columns_to_rows(columns, puzzles, ids, probe.peak()) if columns is not None else None
    except Exception:  # the Result path below runs it again and says what went wrong
        batch = None
    if batch is not None:
        conn.send(batch)
        return
    _mark(shared, seq, 0)
    probe.reset()
    try:
        results = engine.run_many(puzzles, limit=unit.limit, time_limit=unit.time_limit, keep=unit.keep,
                                  verify=False)
        if len(results) != len(puzzles):
            raise RuntimeError(f"run_many returned {len(results)} results for {len(puzzles)} puzzles")
    except Exception as exc:
        if len(puzzles) == 1:
            conn.send([failure_row(ids[0], Status.ERROR, f"{engine.spec} raised {type(exc).__name__}: {exc}")])
        else:  # say which puzzle: run them one by one
            _run_single(conn, shared, seq, replace(unit, batch=False), engine, probe)
        return
    peak = probe.peak()
    wrong = verify_many(results, puzzles)
    conn.send([row_of(tid, res, peak, bad) for tid, res, bad in zip(ids, results, wrong)])


# -- the parent side ---------------------------------------------------------------------------

AHEAD = 2
"""Units sent to a worker before it finishes the first: it starts the next at once while the
parent stores the rows of the last (the pipe holds the queue)."""


_STOP = object()


def _sender(conn, outbox: queue.SimpleQueue) -> None:
    """Sends units to one worker.  A thread of its own, so that the parent never blocks on a
    full pipe while the worker, busy sending rows back, is not reading it (a deadlock)."""
    while True:
        item = outbox.get()
        if item is _STOP:
            return
        try:
            conn.send(item)
        except (OSError, ValueError):  # the worker is gone (killed): its units are re-run
            return


@dataclass
class _Slot:
    process: multiprocessing.Process | None = None
    conn: object = None
    outbox: object = None
    shared: object = None
    units: deque = field(default_factory=deque)  # (seq, unit), the first is running or next
    received: set = field(default_factory=set)

    @property
    def busy(self) -> bool:
        return bool(self.units)


def describe_exit(code: int | None) -> str:
    if code is None:
        return "the worker vanished"
    if code < 0:
        try:
            return f"the worker was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker was killed by signal {-code}"
    return f"the worker exited with code {code}"


class LocalExecutor:
    """Runs units in ``jobs`` forked worker processes on this machine (see the module doc)."""

    def __init__(self, jobs: int, grace: float | None = None, catalog=None):
        self.jobs = max(1, jobs)
        self.catalog = catalog  # task id -> puzzle, inherited by the workers (see _CATALOG)
        self.grace = grace
        self.ctx = multiprocessing.get_context("fork")
        self.slots = [_Slot() for _ in range(self.jobs)]
        self.restarts = 0
        self.seq = 0

    # life of a worker
    def _start(self, slot: _Slot) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        slot.shared = self.ctx.RawArray("d", 3)
        slot.process = self.ctx.Process(target=worker_main, args=(child, slot.shared, os.getpid()), daemon=True)
        global _CATALOG
        _CATALOG = self.catalog
        gc.freeze()  # the worker's collector leaves what it inherits alone: no copy-on-write of the heap
        try:
            slot.process.start()
        finally:
            gc.unfreeze()
        child.close()
        slot.conn = parent
        slot.received = set()
        slot.outbox = queue.SimpleQueue()
        threading.Thread(target=_sender, args=(parent, slot.outbox), daemon=True).start()

    def _kill(self, slot: _Slot) -> int | None:
        proc = slot.process
        if proc is not None and proc.is_alive():
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc is not None:
            proc.join(5)
        code = proc.exitcode if proc is not None else None
        if slot.outbox is not None:
            slot.outbox.put(_STOP)
        if slot.conn is not None:
            slot.conn.close()
        slot.process = slot.conn = slot.outbox = None
        self.restarts += 1
        return code

    def _assign(self, slot: _Slot, unit: WorkUnit) -> None:
        if slot.process is None or not slot.process.is_alive():
            self._start(slot)
        self.seq += 1
        slot.units.append((self.seq, unit))
        if self._inherited(unit):  # the worker has them: send the ids alone
            unit = replace(unit, puzzles=None)
        slot.outbox.put((self.seq, unit))

    def _inherited(self, unit: WorkUnit) -> bool:
        """Whether the unit's puzzles are the catalog's at its task ids (which the workers
        inherited).  A :class:`PuzzleSlice` of the catalog is known so without reading it: the
        parent must not take references to puzzles it shares with the workers."""
        catalog, puzzles = self.catalog, unit.puzzles
        if catalog is None or puzzles is None or not unit.task_ids:
            return False
        run = contiguous(unit.task_ids)
        if isinstance(puzzles, PuzzleSlice) and puzzles.source is catalog:
            return run is not None and (run.start, run.stop) == (puzzles.start, puzzles.stop)
        if run is not None and run.stop <= len(catalog):  # list equality tests identity first
            return catalog[run.start:run.stop] == list(puzzles)
        return all(map(operator.is_, map(catalog.__getitem__, unit.task_ids), puzzles))

    def close(self) -> None:
        for slot in self.slots:
            if slot.process is not None and slot.process.is_alive():
                slot.outbox.put(None)
                slot.outbox.put(_STOP)
        for slot in self.slots:
            if slot.process is not None:
                slot.process.join(1)
                if slot.process.is_alive():
                    self._kill(slot)

    # the loop
    def execute(self, units: Iterable[WorkUnit]) -> Iterator[list[Row]]:
        source = iter(units)
        retry: deque[WorkUnit] = deque()
        exhausted = False

        def next_unit():
            nonlocal exhausted
            if retry:
                return retry.popleft()
            if not exhausted:
                unit = next(source, None)
                exhausted = unit is None
                return unit
            return None

        try:
            while True:
                for depth in range(1, AHEAD + 1):  # every idle worker first, then one ahead each
                    for slot in self.slots:
                        if len(slot.units) < depth:
                            unit = next_unit()
                            if unit is None:
                                break
                            self._assign(slot, unit)
                busy = [s for s in self.slots if s.busy]
                if not busy:
                    return
                waitables = [s.conn for s in busy] + [s.process.sentinel for s in busy]
                multiprocessing.connection.wait(waitables, timeout=POLL_SECONDS)
                out: list[RowBatch] = []
                for slot in busy:
                    self._drain(slot, out, retry)
                now = time.monotonic()
                for slot in busy:
                    if not slot.busy:
                        continue
                    seq, unit = slot.units[0]
                    if slot.shared[SEQ] == seq and now - slot.shared[STARTED] > self._hard_limit(unit):
                        self._fail(slot, Status.TIMEOUT, out, retry)
                yield from out
        finally:
            self.close()

    def _hard_limit(self, unit: WorkUnit) -> float:
        grace = self.grace if self.grace is not None else grace_for(unit.time_limit)
        return unit.time_limit + grace

    def _drain(self, slot: _Slot, out: list[RowBatch], retry: deque) -> None:
        try:
            while slot.units and slot.conn.poll():
                msg = slot.conn.recv()
                if msg is None:
                    slot.units.popleft()
                    continue
                batch = msg if isinstance(msg, RowBatch) else RowBatch.from_rows(msg)
                slot.received.update(batch.task_ids)
                out.append(batch)
        except (EOFError, OSError):
            pass
        if slot.units and not slot.process.is_alive():
            self._fail(slot, Status.ERROR, out, retry)

    def _fail(self, slot: _Slot, status: Status, out: list[RowBatch], retry: deque) -> None:
        """The worker of ``slot`` hung (``timeout``) or died (``error``): record the pair it was
        on, hand the rest of its units to a new worker."""
        seq, unit = slot.units.popleft()
        later = [u for _, u in slot.units]
        slot.units.clear()
        running = slot.shared[SEQ] == seq
        index = int(slot.shared[INDEX])
        started = slot.shared[STARTED]
        received = slot.received
        code = self._kill(slot)
        elapsed = time.monotonic() - started
        retry.extendleft(reversed(later))
        pending = [(i, t) for i, t in enumerate(unit.tasks) if t[0] not in received]
        if not running:  # it died before starting this unit: nobody to blame, run it again
            if pending:
                retry.appendleft(unit.with_tasks([t for _, t in pending]))
            return
        if unit.batch and len(unit.task_ids) > 1:  # which puzzle of the batch? one at a time
            retry.extendleft(unit.with_tasks([t]) for _, t in reversed(pending))
            return
        culprit = [t for i, t in pending if i == index]
        rest = [t for i, t in pending if i != index]
        if rest:
            retry.appendleft(unit.with_tasks(rest))
        if not culprit:
            return
        tid = culprit[0][0]
        if status is Status.TIMEOUT:
            message = (f"no answer after {elapsed:.1f}s: the engine overran its time limit of "
                       f"{unit.time_limit:g}s by more than the grace of "
                       f"{self._hard_limit(unit) - unit.time_limit:.1f}s; worker killed")
        else:
            message = f"{describe_exit(code)} while {unit.solver} was solving this puzzle"
        out.append(RowBatch.from_rows([failure_row(tid, status, message, elapsed)]))


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
