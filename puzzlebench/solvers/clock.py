"""The clocks of a run: CPU time counted over the process and every program it started and
waited for, and the CPU time of a program still running.  A run's CPU time is the work it
caused, wherever it ran: the worker's own and its programs' (an ``ext:`` solver, MiniZinc's
Gecode), as runsolver counts a solver's process tree (Roussel, "Controlling a Solver
Execution with the runsolver Tool", JSAT 7, 2011)."""

from __future__ import annotations

import os
import resource

CLOCKS = ("wall", "cpu")
"""The clocks a time limit is held on (``--clock``): wall time, what the user waits, or CPU
time of the run's processes, what the competitions limit."""


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
