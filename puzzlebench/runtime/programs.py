"""A solver program's launch, wait and kill: how a program is started so that it dies with
the process that started it and holds the run's limits itself, how its output is waited for on
the run's clock, and how it is stopped with everything it started.  Below the engines
(``ext:``, the competition tools) and anything else that runs a program under a limit.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import shutil
import signal
import subprocess
import time
from functools import lru_cache
from typing import Callable

from ..errors import EngineError
from .clock import program_cpu_now
from .limits import Deadline, grace
from .output import OutputTooLarge, read_output, reap
from .watchdog import kill_sessions

PR_SET_PDEATHSIG = 1      # prctl(2): the signal a process gets when its parent dies
CPU_POLL_SECONDS = 0.02   # on the CPU clock, how often a running program's CPU time is read


@lru_cache(maxsize=1)
def prctl() -> Callable | None:
    """The C library's ``prctl`` (Linux), or ``None``."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


@lru_cache(maxsize=2)
def dies_with_parent(signal_name: str = "KILL") -> tuple[list[str], Callable[[], None] | None]:
    """(words before the command, the function to run between fork and exec) that make the
    program get ``SIG<signal_name>`` when this process dies: util-linux's ``setpriv
    --pdeathsig`` where it is (subprocess can then spawn without running Python in the child:
    1.5 ms a run against 1.9 ms with a ``preexec_fn``, which forces a fork of the whole
    interpreter), else ``prctl`` in the child, else nothing (not Linux)."""
    setpriv = shutil.which("setpriv")
    if setpriv:
        return [setpriv, "--pdeathsig", signal_name, "--"], None
    if prctl() is None:
        return [], None
    number = signal.Signals[f"SIG{signal_name}"]

    def arm() -> None:  # runs in the child between fork and exec
        prctl()(PR_SET_PDEATHSIG, number, 0, 0, 0)
    return [], arm


def held_to(budget: int | None, cpu_left: float | None = None) -> list[str]:
    """Words before the command that set the program's own limits (util-linux's ``prlimit``,
    which then executes it): its soft ``RLIMIT_DATA`` (``budget`` bytes) and, on the CPU
    clock, its ``RLIMIT_CPU``: the CPU time left to the run plus the grace, rounded up (the
    kernel's backstop, as runsolver sets it; the polling in :func:`wait_program` stops it
    first)."""
    prlimit = shutil.which("prlimit")
    words = []
    if budget is not None:
        words.append(f"--data={budget}:")
    if cpu_left is not None:
        words.append(f"--cpu={math.ceil(cpu_left + grace(cpu_left))}:")
    return [prlimit, *words, "--"] if prlimit and words else []


class Program(subprocess.Popen):
    """A ``Popen`` that keeps the program's resource usage from ``wait4`` (its peak resident set,
    its reaped children's included: MiniZinc's Gecode), which ``waitpid`` drops.  It overrides
    CPython's one wait call, ``_try_wait`` (the same since Python 3.3)."""

    rusage = None

    def _try_wait(self, wait_flags):
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return self.pid, 0
        if pid == self.pid:
            self.rusage = usage
        return pid, status


def wait_program(process: subprocess.Popen, deadline: Deadline) -> tuple[bytes, bytes]:
    """The program's output once it ends (read in bounded pieces: :func:`read_output`);
    ``subprocess.TimeoutExpired`` at the deadline.  On the CPU clock, the run's CPU time so far
    (this process's and its reaped programs') plus the running program's (``/proc``:
    :func:`~puzzlebench.runtime.clock.program_cpu_now`) is looked at every
    :data:`CPU_POLL_SECONDS`; the wall limit beside it is waited for too."""
    if deadline.clock != "cpu" or deadline.seconds is None:
        return read_output(process, deadline.remaining())

    def over() -> bool:
        return deadline.seconds - deadline.cpu_used() - (program_cpu_now(process.pid) or 0.0) <= 0

    wall_left = None if deadline.wall_at is None else max(0.0, deadline.wall_at - time.perf_counter())
    return read_output(process, wall_left, over=over, poll_seconds=CPU_POLL_SECONDS)


def kill_session(process: subprocess.Popen) -> None:
    """SIGKILL to the program's whole session: its process group (a wrapper script's children
    too) and every other group in it.  MiniZinc starts its solver (``fzn-gecode``) in a process
    group of its own, so killing the group alone would leave Gecode searching, its parent the
    init process, after every ``ext:minizinc`` timeout."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    kill_sessions([process.pid], rounds=1)


def run_tool(command: list[str], timeout: float) -> str:
    """A tool's standard output, read in bounded pieces (:mod:`.output`); past ``timeout`` or
    the output's bound, the tool is killed with its session (``subprocess.TimeoutExpired``,
    :class:`~puzzlebench.errors.EngineError`)."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, _ = read_output(process, timeout)
    except OutputTooLarge as exc:
        kill_session(process)
        reap(process)
        raise EngineError(f"{command[0]} {exc}; stopped") from None
    except BaseException:
        kill_session(process)
        reap(process)
        raise
    return out.decode("utf-8", "replace")
