"""Time limits held by a process that can be killed: for the engines that cannot hold them in
every phase in-process (a library call that looks at no clock: Z3 reading a formula, PySAT
taking millions of clauses, CP-SAT building its model; a Python encoder building a formula
for a 64x64 grid), :func:`run_limited` runs the puzzles in a forked child and kills it when a
puzzle outlasts its limit plus a grace; that puzzle is a ``timeout``, the rest go on in a new
child.

One child serves a whole list: the parent sends a puzzle, waits for its result at most
``time_limit`` plus :func:`grace`, sends the next.  A child dies with its parent (see
:func:`die_with_parent`).  The harness does not need this: its workers are such children
already (``harness/workers.py``).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
import time
from typing import Sequence

from ..models.base import Puzzle
from ..results import Result, Results, Status, Times, error_result

PR_SET_PDEATHSIG = 1          # prctl(2): the signal a process gets when its parent dies
PARENT_POLL_SECONDS = 0.5     # where prctl is missing, how often a child looks for its parent


def grace(time_limit: float) -> float:
    """How long past its limit a puzzle may run before its child is killed: engines look at
    their clock every so many steps, and stopping a library call takes a moment."""
    return 0.1 * time_limit + 0.3


def die_with_parent(parent_pid: int) -> None:
    """End this process when the one that forked it dies, however it dies (``kill -9``
    included).  A pipe alone does not tell: a process forked later may hold the parent's end
    of it, and a child inside a long call reads nothing.  On Linux the kernel sends SIGKILL at
    the parent's death (``PR_SET_PDEATHSIG``; children are forked by the thread that runs the
    work, whose end is the work's); elsewhere a thread looks for the parent twice a second."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        armed = False
    if os.getppid() != parent_pid:   # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent_pid:
                time.sleep(PARENT_POLL_SECONDS)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()


def run_limited(engine, puzzles: Sequence[Puzzle], *, limit: int | None, time_limit: float | None,
                keep: int) -> Results:
    """``engine.run_many`` with the time limit held in every phase: in-process when the
    engine says it holds it (``Engine.holds_time_limit``) or there is none, else puzzle by
    puzzle in a child process killed at the limit."""
    if time_limit is None or engine.holds_time_limit or not puzzles:
        return engine.run_many(puzzles, limit=limit, time_limit=time_limit, keep=keep)
    return Results.of(_Child(engine, limit, time_limit, keep).run_all(puzzles), puzzles, engine.spec, limit)


class _Child:
    def __init__(self, engine, limit, time_limit, keep):
        self.engine, self.limit, self.time_limit, self.keep = engine, limit, time_limit, keep
        self.ctx = multiprocessing.get_context("fork")
        self.process = self.conn = None

    def run_all(self, puzzles: Sequence[Puzzle]) -> list[Result]:
        try:
            return [self.run_one(p) for p in puzzles]
        finally:
            self.stop()

    def run_one(self, puzzle: Puzzle) -> Result:
        if self.process is None:
            self.start()
        started = time.perf_counter()
        try:
            self.conn.send(puzzle)
            if self.conn.poll(self.time_limit + grace(self.time_limit)):
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        code = self.stop()
        spent = time.perf_counter() - started
        if code is not None and code != -signal.SIGKILL:   # the child died by itself: a crash
            return error_result(f"the engine's process ended ({_ending(code)})", kind=puzzle.kind,
                                solver=self.engine.spec, limit=self.limit, source=puzzle.source,
                                puzzle=puzzle, times=Times(total=spent))
        return Result(kind=puzzle.kind, solver=self.engine.spec, limit=self.limit, status=Status.TIMEOUT,
                      count=0, times=Times(total=spent), source=puzzle.source, puzzle=puzzle,
                      error=f"killed at the time limit ({self.time_limit:g} s) plus its grace")

    def start(self) -> None:
        self.conn, child = self.ctx.Pipe(duplex=True)
        self.process = self.ctx.Process(target=_serve, args=(child, self.engine, self.limit, self.time_limit,
                                                             self.keep, os.getpid()), daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> int | None:
        """End the child (killed if still running); its exit code."""
        if self.process is None:
            return None
        if self.process.is_alive():
            try:
                os.kill(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.join(5)
        code = self.process.exitcode
        self.conn.close()
        self.process = self.conn = None
        return code


def _serve(conn, engine, limit, time_limit, keep, parent_pid) -> None:
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    while True:
        try:
            puzzle = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(engine.run(puzzle, limit=limit, time_limit=time_limit, keep=keep))


def _ending(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
