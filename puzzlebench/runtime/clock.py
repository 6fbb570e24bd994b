"""The clocks of a run: CPU time counted over the process and every program it started and
waited for, and the CPU time of a program still running.  A run's CPU time is the work it
caused, wherever it ran: the worker's own and its programs' (an ``ext:`` solver, MiniZinc's
Gecode), as runsolver counts a solver's process tree (Roussel, "Controlling a Solver
Execution with the runsolver Tool", JSAT 7, 2011)."""

from __future__ import annotations

import math
import os
import resource
import signal

from ..errors import UsageError
from ..options import TIME

CLOCKS = ("wall", "cpu")
"""The clocks a time limit is held on (``--clock``): wall time, what the user waits, or CPU
time of the run's processes, what the competitions limit."""


def check_clock(clock: str, time_limit: float | None, wall_limit: float | None) -> float | None:
    """The wall limit of a run on ``clock`` with ``time_limit`` (checked): on the wall clock
    none (the time limit is one); on the CPU clock the one given, else
    :func:`default_wall_limit`.  An unknown clock, a wall limit that is not a positive duration
    (:data:`~puzzlebench.options.TIME`), and a wall limit on the wall clock, where it would be
    ignored, are a :class:`~puzzlebench.errors.UsageError`."""
    if clock not in CLOCKS:
        raise UsageError(f"the clock must be one of {', '.join(CLOCKS)}; got {clock!r}")
    if wall_limit is not None:
        if clock == "wall":
            raise UsageError("a wall limit goes with the CPU clock (--clock cpu, clock='cpu'): on the wall "
                             "clock, the time limit is itself the wall limit")
        wall_limit = TIME.check(wall_limit, "wall_limit")
        if not wall_limit > 0:
            raise UsageError(f"the wall limit must be positive (seconds); got {wall_limit:g}")
    if clock == "wall":
        return None
    if wall_limit is None and time_limit is not None:
        return default_wall_limit(time_limit)
    return wall_limit


def default_wall_limit(cpu_limit: float) -> float:
    """The wall-clock limit of a run limited on CPU time when none is given: 1.5 times the CPU
    limit plus 1 s, so that a run that sleeps or waits (no CPU spent) still ends, and a
    single-threaded run on a loaded machine is not cut by the wall before its CPU limit."""
    return 1.5 * cpu_limit + 1.0


def process_cpu() -> float:
    """CPU seconds (user + system) of this process and of every child it has waited for: the
    clock of a run's ``times.cpu``, so that a program a run started and waited for (ext's
    solver, MiniZinc and its Gecode, ACE's Java) counts as the run's work; its difference over
    a run is the run's CPU time.  Children still running are not in it (see
    :func:`program_cpu_now`)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


def usage_cpu(usage) -> float:
    """CPU seconds (user + system) of a ``wait4`` resource usage (the process and the
    children it waited for)."""
    return usage.ru_utime + usage.ru_stime


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def program_cpu_now(pid: int) -> float | None:
    """CPU seconds used so far by a running process and the children it has waited for
    (``/proc/PID/stat`` fields utime, stime, cutime, cstime, in clock ticks), ``None`` where
    it cannot be read (not Linux, the process gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(b")") + 2:].split()
    try:
        return sum(int(fields[k]) for k in (11, 12, 13, 14)) / _TICKS
    except (IndexError, ValueError):
        return None


def cpu_backstop(seconds: float) -> int:
    """The soft ``RLIMIT_CPU`` (whole seconds) that lets a process spend ``seconds`` more CPU
    time: what it used so far plus ``seconds``, rounded up (the kernel counts whole seconds)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return math.ceil(own.ru_utime + own.ru_stime + seconds)


class CpuLimit:
    """The kernel's hold on a CPU limit, behind the polling (as runsolver does): this
    process's soft ``RLIMIT_CPU`` set to its CPU time so far plus the limit, rounded up, so
    that a run that never looks at its clock (a native call) gets ``SIGXCPU`` and ends; lifted
    back after the run.  RLIMIT_CPU counts this process's own CPU time, not its children's:
    each program a run starts gets one of its own (``ext``: util-linux's ``prlimit --cpu``).
    No core file is written at ``SIGXCPU`` (``RLIMIT_CORE`` 0)."""

    def __init__(self):
        self.original, self.hard = resource.getrlimit(resource.RLIMIT_CPU)

    def apply(self, seconds: float) -> None:
        soft = cpu_backstop(seconds)
        if self.hard != resource.RLIM_INFINITY:
            soft = min(soft, self.hard)
        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
        _default_sigxcpu()
        resource.setrlimit(resource.RLIMIT_CPU, (soft, self.hard))

    def lift(self) -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (self.original, self.hard))


def _default_sigxcpu() -> None:
    """SIGXCPU at its default action (the process ends) and not blocked: a library loaded
    before a worker was forked may have caught or masked it, and the backstop would not hold."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGXCPU})
    try:
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    except ValueError:   # not the main thread: a worker's runs are on its main thread
        pass


def past_cpu_limit(code: int | None) -> bool:
    """Whether a process ended by the kernel's CPU limit (``SIGXCPU``, or the ``SIGKILL`` that
    follows it at the hard limit is not told apart: only SIGXCPU is taken)."""
    return code is not None and code == -signal.SIGXCPU
