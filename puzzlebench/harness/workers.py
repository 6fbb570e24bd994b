"""Worker processes with hard time limits: the local :class:`~.runner.Executor`.

Each worker is a forked process that takes :class:`~.runner.WorkUnit` s over a pipe and sends
back rows; before each puzzle it writes which puzzle and when it started into a small shared
array, so that the parent knows, without asking, what every worker is doing and can kill one
that overruns or notice one that dies, recording that one pair and going on with the rest.
Why processes and not threads: a search that hangs inside C or a library can only be stopped
by killing its process, and a crash in C must cost one puzzle, not the bench.  Time, memory and limits
are measured here, around the engine, and every answer is verified here, by the harness,
never left to the engine (:class:`LocalExecutor` says how).
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import operator
import os
import queue
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence

from ..engines.base import verify_all, verify_answer
from ..engines.certify import certified
from ..engines.registry import make_engine
from ..results import Results, Status
from ..runtime.child import (MEMOUT_EXIT, Baseline, MemoryLimit, MemoryProbe, crashed_for_memory,
                             die_with_parent, exited, failed_under_cap, hard_limits, killed_for_memory,
                             leave_ctrl_c_to_the_parent, memout_if_said, memout_message,
                             past_the_memory_limit, populate_libraries, quiet_stdout, reap, run_peak,
                             start_unreaped)
from ..runtime.clock import CpuLimit, past_cpu_limit, process_cpu, program_cpu_now
from ..runtime.interrupts import ctrl_c_kept
from .runner import (STAT_FIELDS, PuzzleSlice, Row, RowBatch, WorkUnit, contiguous, failure_row,
                     json_column, json_objects, row_of)

FLUSH_SECONDS = 0.25   # a worker sends what it has at least this often (each send is a transaction)
POLL_SECONDS = 0.05    # how often the parent looks at the clocks of its workers


def grace_for(time_limit: float) -> float:
    """Time past the limit before a worker is killed: engines look at their clock only every
    so many nodes, and most encoders not at all (exact cover's Skyscrapers lines, the longest
    to build, do: ``Engine.encode_until``)."""
    return 1.0 + 0.1 * time_limit


# -- answers to rows --------------------------------------------------------------------------

def rows_of(results: Results, task_ids: Sequence[int], peak: int | None,
            baseline: int | None = None) -> RowBatch:
    """A verified batch's answers as the rows the bench stores: straight from the columns of a
    native batch call (a field with one value for the whole batch, such as the status when all
    are unique, sent once), else a row per record.  ``peak`` is the batch's (above the
    worker's ``baseline``)."""
    columns = results.columns
    if columns is None:
        wrong, size = results.wrong, results.cpu_batch_size
        return RowBatch.from_rows([row_of(tid, result, peak, k in wrong, baseline, size)
                                   for k, (tid, result) in enumerate(zip(task_ids, results))])
    n = len(task_ids)
    out: dict[str, list] = {}
    shared: dict[str, object] = {}
    statuses, counts = columns.statuses, columns.counts
    if statuses.count(statuses[0]) == n:
        shared["status"] = statuses[0].value
    else:
        out["status"] = [s.value for s in statuses]
    verified = columns.verified or bytes(n)
    if verified.count(verified[0]) == n:
        shared["verified"] = verified[0]
    else:
        out["verified"] = list(verified)
    if counts.count(counts[0]) == n:
        shared["count"] = counts[0]
    else:
        out["count"] = counts
    out["t_solve"], out["t_total"] = columns.solve_seconds, columns.total_seconds
    shared.update(t_parse=0.0, t_encode=0.0, t_decode=0.0, t_cpu=results.batch_cpu / n, batch_size=n,
                  peak_memory=peak, baseline_memory=baseline, error=None, wrong=0)
    if isinstance(columns.size, dict):
        shared["size"] = json_column(columns.size)
    else:
        out["size"] = [json_column(size) for size in columns.size]
    for name in STAT_FIELDS:
        if name in columns.stats:
            out[name] = columns.stats[name]
        else:
            shared[name] = None
    if columns.raw_names:
        out["raw_stats"] = json_objects(columns.raw_names, columns.raw)
    else:
        shared["raw_stats"] = None
    return RowBatch(task_ids, out, shared)


# -- the worker --------------------------------------------------------------------------------
#
# The shared array of a worker: [0] index of the puzzle being run in its unit, [1] when it
# started (time.monotonic, the same clock in every process), [2] the unit's sequence number,
# [3] the worker's CPU time when it started (clock.process_cpu: its own and its waited-for
# programs'), [4] the worker's baseline resident set for the unit's engine (bytes).  The worker writes them in the order CPU, start,
# index, sequence; the parent reads them in the reverse order, so an index read after a
# matching sequence is never older than that unit.  [3] and [4] give the CPU time and the
# memory of a puzzle whose worker was killed or died.

INDEX, STARTED, SEQ, CPU, BASELINE = range(5)

def _mark(shared, seq: int, index: int) -> None:
    shared[CPU] = process_cpu()
    shared[STARTED] = time.monotonic()
    shared[INDEX] = index
    shared[SEQ] = seq


class _Memory:
    """A worker's memory tools for the unit it runs: its probe, its limit, the engine's
    baseline, and the unit's cap (bytes of data, ``None``: no limit)."""

    def __init__(self):
        self.probe = MemoryProbe()
        self.limit = MemoryLimit()
        self.cpu = CpuLimit()
        self.cpu_seconds: float | None = None   # the unit's CPU limit plus its grace (None: not on the CPU clock)
        self.baseline = Baseline(0, 0)
        self.cap: int | None = None
        self.allowed: int | None = None   # the unit's memory limit (above the baseline)

    def for_unit(self, baseline: Baseline, memory_limit: int | None) -> None:
        self.baseline, self.allowed = baseline, memory_limit
        self.cap = None if memory_limit is None else baseline.data + memory_limit

    def start(self) -> None:
        """Before the engine runs: the peak reset, the cap set; on the CPU clock, the kernel's
        backstop of the CPU limit (``RLIMIT_CPU``: the CPU used so far plus the limit and its
        grace, rounded up)."""
        self.probe.reset()
        if self.cap is not None:
            self.limit.apply(self.cap)
        if self.cpu_seconds is not None:
            self.cpu.apply(self.cpu_seconds)

    def stop(self) -> int:
        """After the engine ran (or failed): the cap lifted; the peak above the baseline."""
        if self.cap is not None:
            self.limit.lift()
        if self.cpu_seconds is not None:
            self.cpu.lift()
        return self.probe.run_peak(self.baseline)


def worker_main(conn, shared, parent_pid: int, catalog) -> None:
    """A worker's life: take ``(seq, unit)`` until the pipe closes or a ``None`` arrives.
    ``catalog`` (task id -> puzzle, or ``None``) comes with the fork, not through a pipe: the
    worker inherits the puzzles with its memory, so a unit needs to carry only task ids
    (pickling a puzzle costs more than solving it on the fastest engines).  A worker that ran
    out of memory under its limit sends what it has and ends (exit code ``MEMOUT_EXIT``): the
    parent replaces it."""
    die_with_parent(parent_pid)
    leave_ctrl_c_to_the_parent()
    quiet_stdout()
    memory = _Memory()
    engines = {}   # (solver, extra engines) -> engine
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
            unit = replace(unit, puzzles=catalog[run.start:run.stop] if run is not None
                           else [catalog[tid] for tid in unit.task_ids])
        key = (unit.solver, tuple(sorted(unit.engines.items())))
        built = key not in engines
        try:
            if built:
                engines[key] = make_engine(unit.solver, unit.engines)
            engine = engines[key]
            if unit.engine_seed is not None:
                engine.seeded(unit.engine_seed)
            certified(engine, unit.certify, unit.proof_dir)
        except Exception as exc:  # a spec that cannot be built here: every task says why
            conn.send([failure_row(tid, Status.ERROR, f"{type(exc).__name__}: {exc}") for tid in unit.task_ids])
            conn.send(None)
            continue
        if unit.memory_limit is not None:
            engine.load()   # its libraries outside the cap (and in the baseline): only runs are held to it
            populate_libraries()
        if built and unit.warmup:
            _warm_up(conn, shared, seq, unit, engine)
        baseline = memory.probe.baseline()   # idle, the engine built, before the unit's first puzzle
        memory.for_unit(baseline, unit.memory_limit)
        memory.cpu_seconds = hard_limits(unit.timing)[1]
        shared[BASELINE] = baseline.resident
        if unit.batch and engine.certifier is None:   # a claim is proved puzzle by puzzle
            finished = _run_batch(conn, shared, seq, unit, engine, memory)
        else:
            finished = _run_single(conn, shared, seq, unit, engine, memory)
        if not finished:
            os._exit(MEMOUT_EXIT)
        conn.send(None)  # unit done


WARMING = -1
"""The index a worker marks while it runs its warm-up puzzles: no task of the unit."""


def _warm_up(conn, shared, seq: int, unit: WorkUnit, engine) -> None:
    """The unit's warm-up puzzles through ``Engine.run``, before the engine's first measured
    run in this worker (a first solve pays for what a library sets up once: CP-SAT's about 2 s),
    their rows sent as one batch flagged ``warmup``, which no figure counts.  No memory cap:
    nothing of them is measured."""
    _mark(shared, seq, WARMING)
    rows: list[Row] = []
    for tid, puzzle in unit.warmup:
        started = time.monotonic()
        try:
            result = engine.run(puzzle, limit=unit.limit, keep=unit.keep, verify=False, **unit.timing)
            rows.append(row_of(tid, result, None, verify_answer(result, puzzle)))
        except Exception as exc:
            rows.append(failure_row(tid, Status.ERROR, f"{engine.spec} raised {type(exc).__name__}: {exc}",
                                    time.monotonic() - started))
    batch = RowBatch.from_rows(rows)
    batch.shared["warmup"] = 1
    conn.send(batch)


def _memout_row(tid: int, shared, memory: _Memory, peak: int, how: str = "", raw: dict | None = None) -> Row:
    """``raw``: what the run knew of its programs (an ``ext:`` program that ran out), whose
    peak may be the run's (:func:`run_peak`)."""
    raw = dict(raw or {})
    peak = run_peak(peak, raw)
    return failure_row(tid, Status.MEMOUT, memout_message(memory.allowed, peak, how or "an allocation was refused"),
                       time.monotonic() - shared[STARTED], cpu=process_cpu() - shared[CPU],
                       peak_memory=peak, baseline_memory=memory.baseline.resident, raw=raw)


def _run_single(conn, shared, seq: int, unit: WorkUnit, engine, memory: _Memory) -> bool:
    """Each puzzle of the unit through ``Engine.run``; False when the memory limit struck
    (the rows so far sent, the rest of the unit left to another worker)."""
    rows: list[Row] = []
    last_flush = time.monotonic()
    baseline = memory.baseline.resident
    for index, (tid, puzzle) in enumerate(zip(unit.task_ids, unit.puzzles)):
        _mark(shared, seq, index)
        memory.start()
        try:
            # certified in the run, under its limits: the answers first verified, then each claim proved
            result = engine.run(puzzle, limit=unit.limit, keep=unit.keep, verify=engine.certifier is not None, **unit.timing)
            result.peak_memory = run_peak(memory.stop(), result.stats.raw)
            if memout_if_said(result, memory.allowed).status is Status.MEMOUT:
                rows.append(row_of(tid, result, result.peak_memory, False, baseline))
                conn.send(rows)
                return False   # replaced: a process that ran out may hold its memory in pieces
            wrong = verify_answer(result, puzzle)
            past_the_memory_limit(result, memory.allowed)
            rows.append(row_of(tid, result, result.peak_memory, wrong, baseline))
        except Exception as exc:
            # a MemoryError (its words, where an engine says how: ext, the program that ran out),
            # or anything under the cap (native code that ran out): solve's child's one rule
            if isinstance(exc, MemoryError) or memory.allowed is not None:
                rows.append(_memout_row(tid, shared, memory, memory.stop(), failed_under_cap(exc),
                                        getattr(exc, "program", None)))
                conn.send(rows)
                return False
            # an engine bug: this pair is an error, the worker goes on
            peak = memory.stop()
            rows.append(failure_row(tid, Status.ERROR, f"{engine.spec} raised {type(exc).__name__}: {exc}",
                                    time.monotonic() - shared[STARTED], cpu=process_cpu() - shared[CPU],
                                    peak_memory=peak, baseline_memory=baseline))
        now = time.monotonic()
        if now - last_flush >= FLUSH_SECONDS:
            conn.send(rows)
            rows, last_flush = [], now
    if rows:
        conn.send(rows)
    return True


def _run_batch(conn, shared, seq: int, unit: WorkUnit, engine, memory: _Memory) -> bool:
    """The unit through the engine's batch path (:meth:`Engine.run_many`), verified here.
    False when the memory limit struck: a batch of one is ``memout``; a larger one is left to
    the parent, which runs its puzzles one at a time to find which one it was."""
    _mark(shared, seq, 0)
    ids, puzzles = unit.task_ids, unit.puzzles
    memory.start()
    try:
        results = engine.run_many(puzzles, limit=unit.limit, keep=unit.keep, verify=False, **unit.timing)
        if len(results) != len(puzzles):
            raise RuntimeError(f"run_many returned {len(results)} results for {len(puzzles)} puzzles")
    except MemoryError:
        peak = memory.stop()
        if len(puzzles) == 1:
            conn.send([_memout_row(ids[0], shared, memory, peak)])
        return False
    except Exception as exc:
        memory.stop()
        if len(puzzles) == 1:
            conn.send([failure_row(ids[0], Status.ERROR, f"{engine.spec} raised {type(exc).__name__}: {exc}")])
            return True
        return _run_single(conn, shared, seq, replace(unit, batch=False), engine, memory)  # say which puzzle
    peak = memory.stop()
    if memory.allowed is not None and peak > memory.allowed:   # one peak for all: each run alone, on its own
        return _run_single(conn, shared, seq, replace(unit, batch=False), engine, memory)
    conn.send(rows_of(verify_all(results), ids, peak, memory.baseline.resident))
    return True


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
class _WorkerSlot:
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
    """Runs units in ``jobs`` forked worker processes on this machine.

    - A worker whose puzzle outlives ``time_limit + grace`` is killed (SIGKILL): that pair is a
      ``timeout`` with the reason, and the rest of its unit goes to a new worker; a worker that
      dies (an exception in C, ``os._exit``, a signal) is noticed by its process sentinel:
      that pair is an ``error`` with the exit code or signal.  A batch (one native call for
      many puzzles) cannot say which puzzle failed, so a failed batch is split into
      single-puzzle batches and only the puzzle that fails alone is recorded.
    - Time: wall and CPU (user + system, every thread) of each puzzle run alone, or of a batch
      call shared evenly by its puzzles (``batch_size``).  Memory: the resident-set high-water
      mark (``VmHWM``), reset before each puzzle or batch through ``/proc/self/clear_refs``
      (Linux 4.0+), less the worker's idle baseline measured when each unit begins with its
      engine built (a worker holds the libraries of engines it ran before, which belong to no
      run of this one): :class:`~puzzlebench.runtime.child.MemoryProbe`.
    - A memory limit is the worker's soft ``RLIMIT_DATA``, its baseline's data plus the limit,
      set while the engine runs: a ``MemoryError`` under it is a ``memout`` (the worker then
      replaced), and so is a SIGKILL the parent did not send with the peak past the limit
      (the kernel's out-of-memory killer).
    - Answers are verified by :func:`~puzzlebench.engines.base.verify_answer` (single puzzles)
      or :func:`~puzzlebench.engines.base.verify_all` (batches: a kind's bulk checker, the
      puzzle's own checker for the rest and for every answer the bulk check refuses); a batch
      answered as columns travels back as columns (:func:`rows_of`)."""

    def __init__(self, jobs: int, grace: float | None = None, catalog=None):
        self.jobs = max(1, jobs)
        self.catalog = catalog  # task id -> puzzle, inherited by the workers (see worker_main)
        self.grace = grace
        self.ctx = multiprocessing.get_context("fork")
        self.slots = [_WorkerSlot() for _ in range(self.jobs)]
        self.restarts = 0
        self.seq = 0

    # life of a worker
    def _start(self, slot: _WorkerSlot) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        slot.shared = self.ctx.RawArray("d", BASELINE + 1)
        slot.process = self.ctx.Process(target=worker_main, args=(child, slot.shared, os.getpid(), self.catalog),
                                        daemon=True)  # forked: the arguments are inherited, not pickled
        with ctrl_c_kept():   # a Ctrl-C at the fork lands in an at-fork callback, which drops it
            gc.freeze()  # the worker's collector leaves what it inherits alone: no copy-on-write of the heap
            try:
                start_unreaped(slot.process)
            finally:
                gc.unfreeze()
            child.close()
            slot.conn = parent
            slot.received = set()
            slot.outbox = queue.SimpleQueue()
            threading.Thread(target=_sender, args=(parent, slot.outbox), daemon=True).start()

    def _kill(self, slot: _WorkerSlot) -> tuple[int | None, object]:
        """End the worker of ``slot`` (SIGKILL if it still runs): its exit code and its resource
        usage (``wait4``: peak resident set since its last reset, CPU time), or ``None`` s."""
        proc = slot.process
        code = usage = None
        if proc is not None:
            if not exited(proc):
                try:
                    os.kill(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            code, usage = reap(proc)
        if slot.outbox is not None:
            slot.outbox.put(_STOP)
        if slot.conn is not None:
            slot.conn.close()
        slot.process = slot.conn = slot.outbox = None
        self.restarts += 1
        return code, usage

    def _assign(self, slot: _WorkerSlot, unit: WorkUnit) -> None:
        # A worker that died with units in hand keeps its slot until _drain has accounted for
        # them (the culprit's row, the rest retried): replacing it here would hand its units to
        # the new worker's end-of-unit messages, losing the culprit's row and the time limit of
        # every unit after it.  The unit sent meanwhile goes to the dead pipe and is retried.
        if slot.process is None or (not slot.units and not slot.process.is_alive()):
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
        """Every idle worker asked to stop, then ended; a worker with units in hand (left by a
        Ctrl-C, whose rows nobody will read) killed at once: it would read the request only
        after its unit, and the wait for it held the Ctrl-C a second a worker.  A slot a
        Ctrl-C caught half made (its process not started, or started with no pipe yet) is
        ended as far as it exists."""
        for slot in self.slots:
            if slot.busy and slot.process is not None and slot.process.pid is not None:
                self._kill(slot)
            elif slot.process is not None and slot.process.is_alive() and slot.outbox is not None:
                slot.outbox.put(None)
                slot.outbox.put(_STOP)
        for slot in self.slots:
            if slot.process is not None and slot.process.pid is not None:
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
                    if slot.shared[SEQ] == seq:
                        overrun = self._overrun(slot, unit, now)
                        if overrun is not None:
                            self._fail(slot, Status.TIMEOUT, out, retry, overrun)
                yield from out
        finally:
            self.close()

    def _hard_limit(self, unit: WorkUnit, clock: str = "wall") -> float | None:
        """The seconds on ``clock`` after which the worker running a puzzle of ``unit`` is
        killed: the unit's limit on that clock (on the CPU clock, its wall limit beside the CPU
        limit) plus the grace; ``None``: none on that clock."""
        if clock == "cpu":
            limit = unit.time_limit if unit.clock == "cpu" else None
        else:
            limit = unit.time_limit if unit.clock == "wall" else unit.wall_limit
        if limit is None:
            return None
        return limit + (self.grace if self.grace is not None else grace_for(limit))

    def _overrun(self, slot: _WorkerSlot, unit: WorkUnit, now: float) -> str | None:
        """The clock (``wall``, ``cpu``) on which the worker's current puzzle is past its hard
        limit, or ``None``.  The worker's CPU time is read from ``/proc`` (its own and its
        reaped programs', the clock of ``shared[CPU]``); a program still running holds its own
        ``RLIMIT_CPU`` and is watched by the engine."""
        wall = self._hard_limit(unit, "wall")
        if wall is not None and now - slot.shared[STARTED] > wall:
            return "wall"
        cpu = self._hard_limit(unit, "cpu")
        if cpu is not None:
            used = program_cpu_now(slot.process.pid)
            if used is not None and used - slot.shared[CPU] > cpu:
                return "cpu"
        return None

    def _drain(self, slot: _WorkerSlot, out: list[RowBatch], retry: deque) -> None:
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
        if slot.units and exited(slot.process):
            self._fail(slot, Status.ERROR, out, retry)

    def _fail(self, slot: _WorkerSlot, status: Status, out: list[RowBatch], retry: deque,
              overrun: str = "wall") -> None:
        """The worker of ``slot`` hung (``timeout``, past its hard limit on the clock
        ``overrun``) or died (``error``; ``timeout`` when the kernel's CPU limit ended it):
        record the pair it was on, hand the rest of its units to a new worker."""
        seq, unit = slot.units.popleft()
        later = [u for _, u in slot.units]
        slot.units.clear()
        running = slot.shared[SEQ] == seq
        index = int(slot.shared[INDEX])
        started, cpu_before, baseline = slot.shared[STARTED], slot.shared[CPU], int(slot.shared[BASELINE])
        received = slot.received
        code, usage = self._kill(slot)
        elapsed = time.monotonic() - started
        retry.extendleft(reversed(later))
        pending = [(i, t) for i, t in enumerate(unit.tasks) if t[0] not in received]
        if not running:  # it died before starting this unit: nobody to blame, run it again
            if pending:
                retry.appendleft(unit.with_tasks([t for _, t in pending]))
            return
        if index == WARMING:   # a warm-up run overran: no task to blame, the unit again without one
            if pending:
                retry.appendleft(replace(unit.with_tasks([t for _, t in pending]), warmup=()))
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
        cpu = peak = None
        if usage is not None:   # the worker's own account of its last puzzle
            cpu = max(0.0, usage.ru_utime + usage.ru_stime - cpu_before)
            peak = max(0, usage.ru_maxrss * 1024 - baseline)
        if past_cpu_limit(code):
            status = Status.TIMEOUT
            message = (f"no answer after {cpu or 0:.1f}s of CPU time: the engine overran its CPU limit of "
                       f"{unit.time_limit:g}s and its grace; the worker got SIGXCPU (its RLIMIT_CPU)")
        elif status is Status.TIMEOUT and overrun == "cpu":
            message = (f"no answer after {cpu or 0:.1f}s of CPU time: the engine overran its CPU limit of "
                       f"{unit.time_limit:g}s by more than the grace of "
                       f"{self._hard_limit(unit, 'cpu') - unit.time_limit:.1f}s; worker killed")
        elif status is Status.TIMEOUT:
            limit = unit.time_limit if unit.clock == "wall" else unit.wall_limit
            what = "time limit" if unit.clock == "wall" else "wall limit"
            message = (f"no answer after {elapsed:.1f}s: the engine overran its {what} of "
                       f"{limit:g}s by more than the grace of "
                       f"{self._hard_limit(unit) - limit:.1f}s; worker killed")
        elif code == MEMOUT_EXIT and unit.memory_limit is not None:
            status, message = Status.MEMOUT, memout_message(unit.memory_limit, peak)
        elif killed_for_memory(code, usage, baseline, unit.memory_limit) is not None:
            status = Status.MEMOUT
            how = f"{describe_exit(code)} with its memory past the limit (the kernel's out-of-memory killer)"
            message = memout_message(unit.memory_limit, peak, how)
        elif crashed_for_memory(code, unit.memory_limit) is not None:
            status, message = Status.MEMOUT, memout_message(unit.memory_limit, peak,
                                                            crashed_for_memory(code, unit.memory_limit))
        else:
            message = f"{describe_exit(code)} while {unit.solver} was solving this puzzle"
        out.append(RowBatch.from_rows([failure_row(tid, status, message, elapsed, cpu=cpu, peak_memory=peak,
                                                   baseline_memory=baseline or None)]))


JOBS_PER_CORE = 8
"""Beyond this many worker processes a core (local or ``dask-local:N``), forked or spawned at
once, a bench would fill the machine before its first run."""


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
