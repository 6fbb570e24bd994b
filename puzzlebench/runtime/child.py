"""Time and memory limits held by a process that can be killed.

For the engines that cannot hold a time limit in every phase in-process (a library call that
looks at no clock: Z3 reading a formula, PySAT taking millions of clauses, CP-SAT building its
model, a Python encoder on a 64x64 grid), and for every engine under a memory limit,
:func:`run_limited` runs the puzzles in one forked child, killed when a puzzle outlasts its
limit plus :func:`grace` (that puzzle a ``timeout``, the rest in a new child).  Memory, here
and in the harness's workers (which are such children already): :class:`MemoryProbe` (peak
resident set above the idle :class:`Baseline`) and :class:`MemoryLimit` (``RLIMIT_DATA``, so
an allocation beyond the cap fails rather than the machine running out; it counts memory
reserved, the peak memory touched).  An engine's libraries are loaded before the cap is set,
since Z3 and OR-Tools crash when loaded under a small one.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import multiprocessing.connection
import os
import re
import resource
import select
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Sequence

from ..errors import UsageError
from ..models.base import Puzzle
from ..options import MEMORY
from ..results import Result, Results, Stats, Status, Times, error_result
from .clock import CpuLimit, check_clock, past_cpu_limit, process_cpu, program_cpu_now, usage_cpu
from .interrupts import sigint_count
from .limits import Interrupted, grace
from .programs import prctl

PR_SET_PDEATHSIG = 1          # prctl(2): the signal a process gets when its parent dies
PARENT_POLL_SECONDS = 0.5     # where prctl is missing, how often a child looks for its parent
MB = 2 ** 20                  # a memory limit is given in MB of 2^20 bytes, as reports show peaks
MEMOUT_EXIT = 86              # the exit code of a process retired after a memout


def die_with_parent(parent_pid: int) -> None:
    """End this process when the one that forked it dies, however it dies (``kill -9``
    included).  A pipe alone does not tell: a process forked later may hold the parent's end
    of it, and a child inside a long call reads nothing.  On Linux the kernel sends SIGKILL at
    the parent's death (``PR_SET_PDEATHSIG``; children are forked by the thread that runs the
    work, whose end is the work's); elsewhere a thread looks for the parent twice a second."""
    armed = prctl() is not None and prctl()(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if os.getppid() != parent_pid:   # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent_pid:
                time.sleep(PARENT_POLL_SECONDS)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()


def leave_ctrl_c_to_the_parent() -> None:
    """SIGINT ignored and blocked in a child or a worker: its parent decides when it stops, and
    ends it.  Blocked too, since a library sets a SIGINT handler of its own whatever the
    disposition (PySAT's plain ``solve``, which jumps out of the search: CaDiCaL then aborted
    the worker, its "fatal error" on the terminal), and a terminal's Ctrl-C reaches every
    process of the command's group."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


# -- memory ------------------------------------------------------------------------------------

def machine_memory() -> int | None:
    """This machine's physical memory in bytes (``None`` where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory_limit(mb: float | str | None, name: str = "memory_limit") -> int | None:
    """A memory limit in MB (2^20 bytes), or a text with a unit (``"2GiB"``), as bytes:
    ``None`` (none), or a positive size no larger than this machine's memory (a limit the
    machine cannot reach limits nothing)."""
    if mb is None:
        return None
    mb = MEMORY.check(mb, name)
    if not mb > 0:
        raise UsageError(f"the memory limit must be positive (MB); got {mb:g}")
    page = resource.getpagesize()
    if mb * MB < page:   # the cap and the peak alike: a limit under a page holds nothing
        raise UsageError(f"the memory limit must be a page ({page // 1024} KiB) or more: the kernel holds and "
                         f"measures memory in pages; got {mb * MB:g} B")
    total = machine_memory()
    if total is not None and mb * MB > total:
        raise UsageError(f"the memory limit of {mb:g} MB is more than this machine's memory "
                         f"({total // MB} MB)")
    return int(mb * MB)


@dataclass(frozen=True)
class Baseline:
    """A process's memory when idle (bytes): ``resident`` (``VmRSS``), subtracted from peaks;
    ``data`` (``VmData``, what ``RLIMIT_DATA`` counts), the base of a memory limit."""

    resident: int
    data: int
    file: int = 0   # RssFile: the resident pages of mapped files (the libraries' code)


MADV_POPULATE_READ = 22   # madvise(2), Linux 5.14+: fault the pages of a range in, reading


def populate_libraries() -> None:
    """Bring the code of every shared library mapped in this process into its resident set
    (``madvise(MADV_POPULATE_READ)`` on each file-backed mapping of a ``.so``): called under a
    memory limit after :meth:`Engine.load <puzzlebench.engines.base.Engine.load>`, before the
    baseline, so that the library code a run executes for the first time is in the baseline,
    not in the run's peak.  A process that dies under the cap is measured by ``wait4`` alone,
    which cannot leave those pages out: Z3 ended by SIGABRT under 20 MB read 31 MB.  Where
    the call is missing (an older kernel, not Linux) nothing is done: the peak of a run that
    lives leaves them out anyway (:meth:`MemoryProbe.run_peak`)."""
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
        madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        with open("/proc/self/maps") as f:
            maps = f.read().splitlines()
    except (OSError, AttributeError):
        return
    for line in maps:
        fields = line.split(maxsplit=5)
        if len(fields) < 6 or ".so" not in fields[5] or "r" not in fields[1]:
            continue
        start, end = (int(x, 16) for x in fields[0].split("-"))
        madvise(start, end - start, MADV_POPULATE_READ)


def status_field(status: bytes, name: bytes) -> int | None:
    """The size a ``/proc/self/status`` text gives for ``name`` (``b"VmHWM:"``), in bytes;
    ``None`` where it gives none."""
    at = status.find(name)
    if at < 0:
        return None
    return int(status[at + len(name):status.index(b"kB", at)]) * 1024


def status_bytes(name: bytes) -> int | None:
    """:func:`status_field` of this process now, read once; ``None`` where the system does not
    say (not Linux)."""
    try:
        with open("/proc/self/status", "rb") as f:
            return status_field(f.read(), name)
    except (OSError, ValueError):
        return None


def trim_heap() -> None:
    """Give the C heap's free memory back to the system (glibc's ``malloc_trim(0)``: the free
    top of the heap released, free pages inside it ``madvise``d away), so that what the process
    holds is what it uses.  Elsewhere (no glibc) nothing is done."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


class MemoryProbe:
    """This process's memory from ``/proc/self/status`` (Linux): the peak resident set since
    the last :meth:`reset`, in bytes; where that file or ``clear_refs`` is missing, the
    process-lifetime ``ru_maxrss`` of :func:`resource.getrusage` (and a baseline of 0)."""

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

    def _field(self, name: bytes) -> int | None:
        self._status.seek(0)
        return status_field(self._status.read(), name)

    def peak(self) -> int:
        if self.resettable:
            found = self._field(b"VmHWM:")
            if found is not None:
                return found
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    def baseline(self) -> Baseline:
        """What this process holds now, idle (see :class:`Baseline`), its free heap first given
        back (:func:`trim_heap`): heap a worker inherited free from its parent is resident and
        counted in its data, so a run reusing it grew neither, and ran past its cap unseen."""
        if not self.resettable:
            return Baseline(0, 0)
        trim_heap()
        return Baseline(self._field(b"VmRSS:") or 0, self._field(b"VmData:") or 0, self._field(b"RssFile:") or 0)

    def run_peak(self, baseline: Baseline) -> int:
        """The peak of a run (bytes above ``baseline``): the resident set's high-water mark
        less the baseline, less the pages of mapped files the run brought in (a library's code
        it ran for the first time: Z3 pages in about 11 MB of libz3 on its first 16x16).  Those
        pages are shared, read-only and reclaimable, belong to no run, and no data limit
        counts them: counted, a Z3 run capped at 20 MB peaked at 31 MB."""
        peak = self.peak() - baseline.resident
        if self.resettable and baseline.file:
            peak -= max(0, (self._field(b"RssFile:") or 0) - baseline.file)
        return max(0, peak)


OUT_OF_MEMORY_WORDS = re.compile(
    r"out of memory|memory exhausted|bad_alloc|MemoryError|cannot allocate|could not reserve|"
    r"insufficient memory|std::length_error|resource temporarily unavailable", re.I)
"""How engines and programs say that an allocation was refused: C++'s ``bad_alloc``, Python's
``MemoryError``, Java's "could not reserve", Z3's "out of memory", and ``EAGAIN``'s "Resource
temporarily unavailable" (a thread whose stack the data limit refused: Z3 and MiniZinc under a
cap of a few MB).  Under a memory limit such words make a failure a ``memout``."""


def says_out_of_memory(text: str | bytes | None) -> bool:
    """Whether ``text`` (an error, a program's last words) says that memory ran out."""
    if not text:
        return False
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return OUT_OF_MEMORY_WORDS.search(text) is not None


MEMORY_MECHANISM = "RLIMIT_DATA"
"""How a memory limit is held (docs/ARCHITECTURE.md says why), stored with every row run
under one."""

PEAK_SLACK = 2 * MB
"""How far the peak of a run the cap stopped may pass the memory limit: the cap counts data
reserved, the peak pages touched, and a run may touch pages its process reserved before the
baseline (a thread stack, the malloc arenas) without reserving more (a run that finishes so is
a ``memout`` all the same: :func:`past_the_memory_limit`).  Tested in
tests/harness/test_processes.py."""


def memory_mechanism(limit: int | None) -> str | None:
    """The mechanism that holds a memory limit (``None``: no limit)."""
    return None if limit is None else MEMORY_MECHANISM


def capped() -> bool:
    """Whether this process runs under a memory limit (a soft ``RLIMIT_DATA`` set by the
    bench's worker or solve's child)."""
    return resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY


class MemoryLimit:
    """This process's soft ``RLIMIT_DATA``, set to a cap and lifted back to what it was.  Only
    the soft limit moves (the hard one stays), so that a process that hit its cap can lift it
    to report the memout."""

    def __init__(self):
        self.original, self.hard = resource.getrlimit(resource.RLIMIT_DATA)
        self.current = self.original

    def apply(self, cap: int | None) -> None:
        """Cap this process's data at ``cap`` bytes (``None``: the original limit)."""
        target = self.original if cap is None else cap
        if self.hard != resource.RLIM_INFINITY and target > self.hard:
            target = self.hard
        if target != self.current:
            resource.setrlimit(resource.RLIMIT_DATA, (target, self.hard))
            self.current = target

    def lift(self) -> None:
        self.apply(None)


def memout_if_said(result: Result, limit: int | None) -> Result:
    """Under a memory limit, an ``error`` whose words say memory ran out (an engine that caught
    its own refused allocation: Z3's "Resource temporarily unavailable", a program's
    bad_alloc) is the cap's doing: a ``memout``, with those words; so is an encoding the
    budget refused (:func:`~puzzlebench.encoders.budget.check_budget`), said as every memout
    is, the limit first."""
    if limit is None:
        return result
    said = result.status is Status.ERROR and says_out_of_memory(result.error)
    refused = result.status is Status.MEMOUT and not (result.error or "").startswith("memory limit of ")
    if said or refused:
        result.status = Status.MEMOUT
        result.error = memout_message(limit, None if refused else result.peak_memory, result.error)
    return result


def past_the_memory_limit(result: Result, limit: int | None) -> Result:
    """One meaning of within the memory limit, as :func:`~.limits.past_the_limit` is of time:
    under a limit, a run that finished with its peak (the one stored with it) past the limit
    is a ``memout``, whatever it answered; its answer kept as partial information (``count``,
    ``solutions``), named in ``error``.  The cap alone would let it finish: ``RLIMIT_DATA``
    counts memory reserved, the peak pages touched, and a run may touch pages its process
    reserved before the baseline (malloc's free lists, a thread's stack) without reserving
    more."""
    finished = result.status not in (Status.TIMEOUT, Status.MEMOUT, Status.ERROR)
    if limit is not None and finished and result.peak_memory is not None and result.peak_memory > limit:
        result.error = memout_message(limit, result.peak_memory, f"answered {result.status} with its peak past the limit")
        result.status = Status.MEMOUT
    return result


def memout_message(limit: int, peak: int | None, how: str = "an allocation was refused") -> str:
    reached = f"; peak {_amount(peak, '.1f')} above the baseline" if peak is not None else ""
    return f"memory limit of {_amount(limit, 'g')} reached: {how}{reached}"


def _amount(size: int, mb_format: str) -> str:
    """Bytes in MB (2^20) in ``mb_format``, or under one MB in whole KB (2^10)."""
    return f"{size / MB:{mb_format}} MB" if size >= MB else f"{size // 1024} KB"


def run_peak(worker_peak: int | None, raw: dict) -> int | None:
    """A run's peak memory: the largest of the worker's peak above its idle baseline and the
    whole peak of each program it started (raw ``program_peak_memory``, the largest of its
    runs: a program starts fresh, its baseline is zero).  Where a program ran, raw
    ``peak_process`` names whose peak it is: ``worker`` or the program's name."""
    program_peak = raw.get("program_peak_memory")
    if "program" not in raw:
        return worker_peak
    if program_peak is not None and (worker_peak is None or program_peak > worker_peak):
        raw["peak_process"] = raw["program"]
        return program_peak
    raw["peak_process"] = "worker"
    return worker_peak


def start_unreaped(process) -> None:
    """Start a :mod:`multiprocessing` process that only :func:`reap` will wait for.

    ``Process.start`` first polls every process it started before (``_cleanup`` in CPython's
    multiprocessing/process.py), which reaps one that has just died, and its resource usage
    with it: a bench with two workers lost the peak of a worker the kernel killed for memory
    whenever the other worker was restarted first, and stored an error instead of a memout.
    Out of multiprocessing's list of children, the process is reaped by :func:`reap` alone
    (``join`` and ``is_alive`` still work; a daemon process still dies with this one)."""
    process.start()
    multiprocessing.process._children.discard(process)


def reap(process, timeout: float = 5.0) -> tuple[int | None, resource.struct_rusage | None]:
    """Wait for a process that ended or was killed: its exit code (negative: the signal) and
    its resource usage from ``wait4`` (peak resident set since its last reset, CPU time),
    which :mod:`multiprocessing` does not collect.  The usage is ``None`` when something else
    reaped the process first."""
    popen = getattr(process, "_popen", None)
    if popen is None or getattr(popen, "returncode", 0) is not None:
        process.join(timeout)
        return process.exitcode, None
    if not multiprocessing.connection.wait([process.sentinel], timeout):
        return None, None   # still running (a process stuck in the kernel): not waited for
    try:
        pid, status, usage = os.wait4(process.pid, 0)
    except ChildProcessError:   # reaped by multiprocessing already
        process.join(timeout)
        return process.exitcode, None
    popen.returncode = os.waitstatus_to_exitcode(status)
    process.join(0)   # multiprocessing's own bookkeeping: forget the reaped child
    return popen.returncode, usage


def exited(process) -> bool:
    """Whether the process has ended, without reaping it (so that :func:`reap` still gets its
    resource usage; ``Process.is_alive`` would reap it)."""
    popen = getattr(process, "_popen", None)
    if popen is None or getattr(popen, "returncode", 0) is not None:
        return not process.is_alive()
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return not process.is_alive()


def killed_for_memory(code: int | None, usage, baseline: int, limit: int | None) -> int | None:
    """The peak (bytes above ``baseline``) of a process that the kernel killed for memory, or
    ``None``: it ended by SIGKILL that nobody here sent, with its peak resident set at or past
    the limit (memory the data limit does not count, such as shared maps, or the kernel's
    out-of-memory killer when the machine runs out)."""
    if limit is None or code != -signal.SIGKILL or usage is None:
        return None
    peak = usage.ru_maxrss * 1024 - baseline
    return peak if peak >= limit else None


CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS)
GLIBC_FATAL_EXIT = 127   # glibc's dynamic loader out of memory ("cannot allocate memory for thread-local data")
Z3_MEMOUT_EXIT = 101     # Z3 ends its process when memory runs out (ERR_MEMOUT in its util/error_codes.h)


def crashed_for_memory(code: int | None, limit: int | None) -> str | None:
    """How a process under a memory limit that crashed while it ran a puzzle ran out, or
    ``None``.  Native code whose allocation fails under ``RLIMIT_DATA`` does not always say so
    in words: C++ throws ``std::bad_alloc`` where nothing catches it (``terminate``: SIGABRT,
    OR-Tools), C reads through the NULL it was given (SIGSEGV, OR-Tools), glibc cannot make a
    thread's storage (exit code 127, Z3), Z3 ends its own process (exit code 101: ``solve
    --solver smt --memory-limit 25`` on an order-45 Latin square was "the engine's process
    ended (exit code 101)", an error).  The libraries are loaded before the cap
    (:meth:`~puzzlebench.engines.base.Engine.load`), so such an end comes from the run under
    it; the message names the signal, for an engine that would crash without a limit too."""
    if limit is None or code is None:
        return None
    if code in (GLIBC_FATAL_EXIT, Z3_MEMOUT_EXIT) or -code in CRASH_SIGNALS:
        return f"the process was {_ending(code)} under the cap (native code whose allocation failed)"
    return None


# -- the child ---------------------------------------------------------------------------------

def run_limited(engine, puzzles: Sequence[Puzzle], *, limit: int | None, time_limit: float | None,
                keep: int, memory_limit: int | None = None, clock: str = "wall",
                wall_limit: float | None = None) -> Results:
    """``engine.run_many`` with the time limit held in every phase: in-process when the
    engine says it holds it (``Engine.holds_time_limit``) or there is none, else puzzle by
    puzzle in a child process killed at the limit.  Under a memory limit (bytes above the
    child's baseline) always in a child, which the limit replaces when it strikes.  An engine
    a Ctrl-C cannot stop in-process (``Engine.stops_at_ctrl_c``: PySAT's CaDiCaL) runs in a
    child too where one can come (this process counts SIGINTs): the Ctrl-C ends the child,
    and the answers before it are kept.  On the CPU clock (``clock``, with ``wall_limit``
    beside it) the child is killed when its CPU time or its wall time passes its limit plus
    the grace, and holds ``RLIMIT_CPU`` (:class:`~puzzlebench.runtime.clock.CpuLimit`)."""
    wall_limit = check_clock(clock, time_limit, wall_limit)
    timing = dict(time_limit=time_limit, clock=clock, wall_limit=wall_limit)
    held = time_limit is None or engine.holds_time_limit
    stopped = engine.stops_at_ctrl_c or sigint_count() is None
    if not puzzles or (memory_limit is None and held and stopped):
        return engine.run_many(puzzles, limit=limit, keep=keep, **timing)
    child = _Child(engine, limit, timing, keep, memory_limit)
    try:   # the answers checked here, as the engine checks its own (Engine.verified)
        return engine.verified(Results.of(child.run_all(puzzles), puzzles, engine.spec, limit))
    except Interrupted as stop:   # the puzzles answered before the Ctrl-C
        done = Results.of(stop.done, puzzles[:len(stop.done)], engine.spec, limit)
        raise Interrupted(engine.verified(done)) from None


def hard_limits(timing: dict) -> tuple[float | None, float | None]:
    """(wall seconds, CPU seconds) after which the process running a puzzle is killed: its
    limits plus :func:`grace` (``None``: no such limit)."""
    time_limit, wall = timing["time_limit"], timing.get("wall_limit")
    if timing.get("clock", "wall") == "wall":
        return (None if time_limit is None else time_limit + grace(time_limit)), None
    return ((None if wall is None else wall + grace(wall)),
            (None if time_limit is None else time_limit + grace(time_limit)))


POLL_SECONDS = 0.05   # how often a parent on the CPU clock looks at its child's CPU time


def wait_answer(conn, pid: int, wall: float | None, cpu: float | None) -> str | None:
    """Wait for the child's answer on ``conn``: ``None`` when it came (or the pipe closed),
    else the clock (``wall``, ``cpu``) whose hard limit passed first.  The child's CPU time
    is read from ``/proc`` (:func:`~puzzlebench.runtime.clock.program_cpu_now`)."""
    if cpu is None and wall is None:   # no limit: select, where conn.poll makes a selector a call
        select.select([conn], [], [])  # (which cost more than the rest of a 9x9's answer)
        return None
    if cpu is None:
        return None if conn.poll(wall) else "wall"
    started = time.perf_counter()
    cpu_before = program_cpu_now(pid) or 0.0
    while True:
        left = None if wall is None else wall - (time.perf_counter() - started)
        if left is not None and left <= 0:
            return "wall"
        if conn.poll(POLL_SECONDS if left is None else min(POLL_SECONDS, left)):
            return None
        used = program_cpu_now(pid)
        if used is not None and used - cpu_before > cpu:
            return "cpu"


class _Child:
    def __init__(self, engine, limit, timing: dict, keep, memory_limit=None):
        self.engine, self.limit, self.timing, self.keep = engine, limit, timing, keep
        self.memory_limit = memory_limit
        self.ctx = multiprocessing.get_context("fork")
        self.process = self.conn = None

    def run_all(self, puzzles: Sequence[Puzzle]) -> list[Result]:
        """Each puzzle's result; at a Ctrl-C, :class:`Interrupted` with those answered.  With
        no time limit the child is not stopped between puzzles: it takes them with its fork
        and sends each answer as it comes (a puzzle sent and answered a round trip at a time
        cost more than CaDiCaL's search of a 9x9), and the answers it sent before a Ctrl-C
        are kept too."""
        done: list[Result] = []
        streamed = hard_limits(self.timing) == (None, None)
        try:
            for puzzle in puzzles:
                if self.process is None:   # the first, or a new one after a child that ended
                    self.start((puzzles, len(done)) if streamed else None)
                done.append(self.run_one(puzzle, handed=streamed))
            return done
        except KeyboardInterrupt:
            if streamed:
                done += self.sent(puzzles, len(done))
            raise Interrupted(done) from None
        finally:
            self.stop()

    def run_one(self, puzzle: Puzzle, handed: bool = False) -> Result:
        """The child's answer for ``puzzle``, sent to it (``handed``: given with its fork),
        or how it ended: killed past the limit, dead, out of memory."""
        started = time.perf_counter()
        wall, cpu = hard_limits(self.timing)
        answered, overrun = False, None
        try:
            if not handed:
                self.conn.send(puzzle)
            overrun = wait_answer(self.conn, self.process.pid, wall, cpu)
            answered = overrun is None
            if answered:
                result = self.conn.recv()
                result.puzzle = puzzle   # sent without it (see _serve)
                if result.status is Status.MEMOUT:   # the child hit its limit: a fresh one next
                    self.stop()
                return past_the_memory_limit(result, self.memory_limit)
        except (EOFError, OSError):
            pass
        code, usage = self.stop()
        spent = time.perf_counter() - started
        facts = dict(kind=puzzle.kind, solver=self.engine.spec, limit=self.limit, source=puzzle.source,
                     puzzle=puzzle)
        used = None if usage is None else usage_cpu(usage)
        if past_cpu_limit(code):   # the kernel's backstop: RLIMIT_CPU
            overrun = "cpu"
        elif answered or code != -signal.SIGKILL:   # the child died by itself
            peak = killed_for_memory(code, usage, self.baseline, self.memory_limit)
            how = crashed_for_memory(code, self.memory_limit)
            if peak is not None:
                how = f"the process was {_ending(code)} with its memory past the limit (the kernel's out-of-memory killer)"
            elif how is not None and usage is not None:
                peak = max(0, usage.ru_maxrss * 1024 - self.baseline)
            if how is not None:
                return Result(status=Status.MEMOUT, count=0, times=Times(total=spent, cpu=used), peak_memory=peak,
                              error=memout_message(self.memory_limit, peak, how), **facts)
            return error_result(f"the engine's process ended ({_ending(code)})", times=Times(total=spent, cpu=used),
                                **facts)
        return Result(status=Status.TIMEOUT, count=0, times=Times(total=spent, cpu=used),
                      error=killed_message(self.timing, overrun or "wall", code), **facts)

    def sent(self, puzzles: Sequence[Puzzle], first: int) -> list[Result]:
        """The answers the child has sent and nobody read yet: ``puzzles``' from the ``first``."""
        out: list[Result] = []
        try:
            for puzzle in _from(puzzles, first):
                if self.conn is None or not self.conn.poll(0):
                    break
                out.append(self.conn.recv())
                out[-1].puzzle = puzzle
        except (EOFError, OSError):
            pass
        return out

    def start(self, handed: tuple[Sequence[Puzzle], int] | None = None) -> None:
        """A new child, serving the puzzles sent to it, or those ``handed`` with its fork (the
        puzzles and the first of them it runs: a slice of a batch read from text would build
        every puzzle here)."""
        self.conn, child = self.ctx.Pipe(duplex=True)
        self.process = self.ctx.Process(target=_serve, args=(child, self.engine, self.limit, self.timing,
                                                             self.keep, self.memory_limit, os.getpid(), handed),
                                        daemon=True)
        gc.freeze()   # the child's collector leaves what it inherits alone: no copy of the heap
        try:
            start_unreaped(self.process)
        finally:
            gc.unfreeze()
        child.close()
        self.baseline = 0
        if self.memory_limit is not None:   # the child's first word: its baseline
            try:
                self.baseline = self.conn.recv()
            except (EOFError, OSError):
                pass

    def stop(self) -> tuple[int | None, object]:
        """End the child (killed if still running); its exit code and resource usage."""
        if self.process is None:
            return None, None
        if not exited(self.process):
            try:
                os.kill(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        ending = reap(self.process)
        self.conn.close()
        self.process = self.conn = None
        return ending


def killed_message(timing: dict, overrun: str, code: int | None) -> str:
    """Why a process running a puzzle was ended at its time limit: on which clock, by whom."""
    if past_cpu_limit(code):
        return (f"killed by SIGXCPU at its CPU limit ({timing['time_limit']:g} s plus its grace, "
                f"RLIMIT_CPU rounded up to whole seconds)")
    if overrun == "cpu":
        return f"killed at the CPU time limit ({timing['time_limit']:g} s) plus its grace"
    limit = timing["time_limit"] if timing.get("clock", "wall") == "wall" else timing["wall_limit"]
    what = "time limit" if timing.get("clock", "wall") == "wall" else "wall limit"
    return f"killed at the {what} ({limit:g} s) plus its grace"


def quiet_stdout() -> None:
    """Send what this process writes on standard output (a library's words: Z3 printing "Could
    not find libz3.so", a C library's printf) to standard error: a child answers through its
    pipe, and its parent's standard output carries records (``--format jsonl``)."""
    try:
        sys.stdout.flush()
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):
        pass
    sys.stdout = sys.stderr   # Python's own writes too, wherever sys.stdout pointed


def _serve(conn, engine, limit, timing: dict, keep, memory_limit, parent_pid, handed=None) -> None:
    die_with_parent(parent_pid)
    leave_ctrl_c_to_the_parent()
    quiet_stdout()
    _, cpu_hard = hard_limits(timing)
    backstop = CpuLimit() if cpu_hard is not None else None
    probe = MemoryProbe() if memory_limit is not None else None
    if probe is not None:
        engine.load()   # the engine's libraries before the cap and the baseline: only runs are held to it
        populate_libraries()
        baseline = probe.baseline()
        cap = MemoryLimit()
        conn.send(baseline.resident)
    for puzzle in _received(conn) if handed is None else _from(*handed):
        if backstop is not None:
            backstop.apply(cpu_hard)
        if probe is None:
            result = engine.run(puzzle, limit=limit, keep=keep, verify=engine.certifier is not None, **timing)
            if backstop is not None:
                backstop.lift()
            conn.send(_without_puzzle(result))
            continue
        probe.reset()
        started, cpu = time.perf_counter(), process_cpu()
        try:
            cap.apply(baseline.data + memory_limit)
            result = engine.run(puzzle, limit=limit, keep=keep, verify=engine.certifier is not None, **timing)
        except Exception as exc:
            cap.lift()
            raw = dict(getattr(exc, "program", None) or {})
            peak = run_peak(probe.run_peak(baseline), raw)
            how = failed_under_cap(exc)
            conn.send(Result(kind=puzzle.kind, solver=engine.spec, limit=limit, status=Status.MEMOUT,
                             times=Times(total=time.perf_counter() - started, cpu=process_cpu() - cpu),
                             source=puzzle.source, peak_memory=peak, stats=Stats(raw=raw),
                             error=memout_message(memory_limit, peak, how)))
            os._exit(MEMOUT_EXIT)   # replaced: a process that ran out may hold its memory in pieces
        cap.lift()
        if backstop is not None:
            backstop.lift()
        result.peak_memory = run_peak(probe.run_peak(baseline), result.stats.raw)
        conn.send(_without_puzzle(memout_if_said(result, memory_limit)))
        if result.status is Status.MEMOUT:
            os._exit(MEMOUT_EXIT)


def _from(puzzles: Sequence[Puzzle], first: int):
    """``puzzles`` from the ``first``, each built when it is run."""
    return (puzzles[i] for i in range(first, len(puzzles)))


def _received(conn):
    """The puzzles sent on ``conn``, until it closes."""
    while True:
        try:
            yield conn.recv()
        except (EOFError, OSError):
            return


def _without_puzzle(result: Result) -> Result:
    """``result`` to send to the parent, which has its puzzle and checks its answer in bulk
    with the others (:func:`run_limited`): a puzzle pickled back cost more than the rest of
    a 9x9's answer."""
    result.puzzle = None
    return result


def failed_under_cap(exc: Exception) -> str:
    """How a run under a memory cap that raised ``exc`` ran out, for its ``memout`` message: a
    ``MemoryError``'s own words (ext: the program that ran out), else the exception named.
    Native code that ran out under the cap raises other things (OR-Tools and Z3's bindings:
    SystemError "error return without exception set"), and a module the engine imports late
    that its Engine.load missed raises ImportError.  The one rule of ``solve``'s child and the
    bench's workers (the bench stored Z3's SystemError as an ``error``)."""
    how = str(exc) or "an allocation was refused"
    if isinstance(exc, MemoryError):
        return how
    what = "a library could not be loaded within it" if isinstance(exc, ImportError) else \
        f"the engine failed under it, {type(exc).__name__}"
    return f"{what} ({how.splitlines()[0] if how.strip() else type(exc).__name__})"


def _ending(code: int) -> str:
    if code is None:
        return "it could not be waited for"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
