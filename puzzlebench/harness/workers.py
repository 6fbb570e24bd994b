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
in bulk with numpy (each unit's values as a bitmask), any failure re-checked by the puzzle's
checker for its message.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import resource
import signal
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from ..models.base import Puzzle
from ..results import Result, Status
from ..solvers.base import verify_result
from .runner import Row, WorkUnit, failure_row, has_batch_path, make_engine, row_of

FLUSH_SECONDS = 0.05   # a worker sends what it has at least this often
POLL_SECONDS = 0.05    # how often the parent looks at the clocks of its workers
SOLVED = (Status.UNIQUE, Status.MULTIPLE, Status.SAT)


def grace_for(time_limit: float) -> float:
    """Time past the limit before a worker is killed: engines look at their clock only every
    so many nodes, and encoding is not interruptible."""
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
    with numpy (givens kept, every row, column and block a permutation); a failure is then
    explained by the puzzle's own checker.  Other kinds one by one."""
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


_UNITS: dict[tuple[int, int], object] = {}


def _unit_index(box):
    import numpy as np
    if box not in _UNITS:
        from ..models.sudoku import Sudoku
        probe = Sudoku(box, [0] * (box[0] * box[1]) ** 2)
        _UNITS[box] = np.array([cells for _, cells in probe.units()], dtype=np.intp)
    return _UNITS[box]


def _sudoku_solutions_valid(box, results: list[Result], puzzles: list[Puzzle]) -> list[bool]:
    import numpy as np
    n = box[0] * box[1]
    units = _unit_index(box)
    rows, givens, owner = [], [], []
    for k, (res, puzzle) in enumerate(zip(results, puzzles)):
        for sol in res.solutions:
            rows.append(sol)
            givens.append(puzzle.givens)
            owner.append(k)
    try:
        sols = np.array(rows, dtype=np.int64)
    except (ValueError, TypeError):  # ragged or non-numeric: let the checker say what is wrong
        return [False] * len(results)
    if sols.ndim != 2 or sols.shape[1] != n * n:
        return [False] * len(results)
    giv = np.array(givens, dtype=np.int64)
    ok = ((sols >= 1) & (sols <= n)).all(axis=1)
    ok &= ((giv == 0) | (giv == sols)).all(axis=1)
    bits = np.left_shift(np.uint64(1), (np.clip(sols, 1, n) - 1).astype(np.uint64))
    full = np.uint64((1 << n) - 1)
    ok &= (np.bitwise_or.reduce(bits[:, units], axis=2) == full).all(axis=1)
    good = [True] * len(results)
    for k, fine in zip(owner, ok.tolist()):
        good[k] = good[k] and fine
    for k, res in enumerate(results):  # two solutions of one puzzle must differ
        if len(res.solutions) > 1 and len(set(map(tuple, res.solutions))) < len(res.solutions):
            good[k] = False
    return good


# -- the worker --------------------------------------------------------------------------------

def worker_main(conn, shared) -> None:
    """A worker's life: take units until the pipe closes or a ``None`` arrives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    probe = MemoryProbe()
    engines = {}
    while True:
        try:
            unit = conn.recv()
        except (EOFError, OSError):
            return
        if unit is None:
            return
        key = (unit.solver, tuple(sorted(unit.engines.items())))
        try:
            if key not in engines:
                engines[key] = make_engine(unit.solver, unit.engines)
            engine = engines[key]
        except Exception as exc:  # a spec that cannot be built here: every task says why
            conn.send([failure_row(tid, Status.ERROR, f"{type(exc).__name__}: {exc}") for tid, _ in unit.tasks])
            conn.send(None)
            continue
        if unit.batch:
            _run_batch(conn, shared, unit, engine, probe)
        else:
            _run_single(conn, shared, unit, engine, probe)
        conn.send(None)  # unit done


def _run_single(conn, shared, unit: WorkUnit, engine, probe: MemoryProbe) -> None:
    rows: list[Row] = []
    last_flush = time.monotonic()
    for index, (tid, puzzle) in enumerate(unit.tasks):
        shared[1] = time.monotonic()
        shared[0] = index
        probe.reset()
        try:
            result = engine.run(puzzle, limit=unit.limit, time_limit=unit.time_limit, keep=unit.keep,
                                verify=False)
            wrong = verify(result, puzzle)
            rows.append(row_of(tid, result, probe.peak(), wrong))
        except Exception as exc:  # an engine bug: this pair is an error, the worker goes on
            rows.append(failure_row(tid, Status.ERROR, f"{engine.spec} raised {type(exc).__name__}: {exc}",
                                    time.monotonic() - shared[1]))
        now = time.monotonic()
        if now - last_flush >= FLUSH_SECONDS:
            conn.send(rows)
            rows, last_flush = [], now
    if rows:
        conn.send(rows)


def _run_batch(conn, shared, unit: WorkUnit, engine, probe: MemoryProbe) -> None:
    shared[1] = time.monotonic()
    shared[0] = 0
    ids = [tid for tid, _ in unit.tasks]
    puzzles = [p for _, p in unit.tasks]
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
            _run_single(conn, shared, replace(unit, batch=False), engine, probe)
        return
    peak = probe.peak()
    wrong = verify_many(results, puzzles)
    conn.send([row_of(tid, res, peak, bad) for tid, res, bad in zip(ids, results, wrong)])


# -- the parent side ---------------------------------------------------------------------------

@dataclass
class _Slot:
    process: multiprocessing.Process | None = None
    conn: object = None
    shared: object = None
    unit: WorkUnit | None = None
    received: set = field(default_factory=set)

    @property
    def busy(self) -> bool:
        return self.unit is not None


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

    def __init__(self, jobs: int, grace: float | None = None):
        self.jobs = max(1, jobs)
        self.grace = grace
        self.ctx = multiprocessing.get_context("fork")
        self.slots = [_Slot() for _ in range(self.jobs)]
        self.restarts = 0

    # life of a worker
    def _start(self, slot: _Slot) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        slot.shared = self.ctx.RawArray("d", 2)
        slot.process = self.ctx.Process(target=worker_main, args=(child, slot.shared), daemon=True)
        slot.process.start()
        child.close()
        slot.conn = parent

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
        if slot.conn is not None:
            slot.conn.close()
        slot.process = slot.conn = None
        self.restarts += 1
        return code

    def _assign(self, slot: _Slot, unit: WorkUnit) -> None:
        if slot.process is None or not slot.process.is_alive():
            self._start(slot)
        slot.unit, slot.received = unit, set()
        slot.shared[0] = 0
        slot.shared[1] = time.monotonic()
        slot.conn.send(unit)

    def close(self) -> None:
        for slot in self.slots:
            if slot.process is not None and slot.process.is_alive():
                try:
                    slot.conn.send(None)
                except OSError:
                    pass
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
        try:
            while True:
                for slot in self.slots:
                    if not slot.busy:
                        unit = retry.popleft() if retry else None
                        if unit is None and not exhausted:
                            unit = next(source, None)
                            exhausted = unit is None
                        if unit is not None:
                            self._assign(slot, unit)
                busy = [s for s in self.slots if s.busy]
                if not busy:
                    return
                waitables = [s.conn for s in busy] + [s.process.sentinel for s in busy]
                multiprocessing.connection.wait(waitables, timeout=POLL_SECONDS)
                out: list[Row] = []
                for slot in busy:
                    self._drain(slot, out, retry)
                now = time.monotonic()
                for slot in busy:
                    if slot.busy and now - slot.shared[1] > self._hard_limit(slot.unit):
                        self._fail(slot, Status.TIMEOUT, out, retry, now - slot.shared[1])
                if out:
                    yield out
        finally:
            self.close()

    def _hard_limit(self, unit: WorkUnit) -> float:
        grace = self.grace if self.grace is not None else grace_for(unit.time_limit)
        return unit.time_limit + grace

    def _drain(self, slot: _Slot, out: list[Row], retry: deque) -> None:
        try:
            while slot.conn.poll():
                msg = slot.conn.recv()
                if msg is None:
                    slot.unit = None
                    return
                slot.received.update(row[0] for row in msg)
                out.extend(msg)
        except (EOFError, OSError):
            pass
        if not slot.process.is_alive():
            self._fail(slot, Status.ERROR, out, retry, None)

    def _fail(self, slot: _Slot, status: Status, out: list[Row], retry: deque, seconds: float | None) -> None:
        """The worker of ``slot`` hung (``timeout``) or died (``error``): record the pair it was
        on, hand the rest of its unit to a new worker."""
        unit = slot.unit
        index = int(slot.shared[0])
        started = slot.shared[1]
        code = self._kill(slot) if status is Status.ERROR else None
        if status is Status.TIMEOUT:
            self._kill(slot)
        slot.unit = None
        pending = [(i, t) for i, t in enumerate(unit.tasks) if t[0] not in slot.received]
        if unit.batch and len(unit.tasks) > 1:  # which puzzle of the batch? one at a time
            retry.extendleft(replace(unit, tasks=[t]) for _, t in reversed(pending))
            return
        culprit = [t for i, t in pending if i == index]
        rest = [t for i, t in pending if i != index]
        if rest:
            retry.appendleft(replace(unit, tasks=rest))
        if not culprit:
            return
        tid = culprit[0][0]
        elapsed = time.monotonic() - started if seconds is None else seconds
        if status is Status.TIMEOUT:
            message = (f"no answer after {elapsed:.1f}s: the engine overran its time limit of "
                       f"{unit.time_limit:g}s by more than the grace of "
                       f"{self._hard_limit(unit) - unit.time_limit:.1f}s; worker killed")
        else:
            message = f"{describe_exit(code)} while {unit.solver} was solving this puzzle"
        out.append(failure_row(tid, status, message, elapsed))


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
