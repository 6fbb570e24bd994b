"""The limits a search runs under: the time limit's checks, the :class:`Deadline` a search
looks at, the one meaning of "past the limit" (a run over its limit is a ``timeout`` whatever
it answered), and :class:`Interrupted`, a Ctrl-C that carries the answers finished before it.
Below the engines: the harness, the commands and the API hold runs to these too.
"""

from __future__ import annotations

import time

from ..errors import UsageError
from ..options import LIMIT, TIME
from ..results import STATUS_CODE, Result, ResultColumns, Results, Status, Times
from .clock import process_cpu
from .interrupts import CtrlCWatch, ctrl_c_since, run_sigints


def normalise_limit(limit: int | None, name: str = "limit") -> int | None:
    """``None`` or ``0`` mean "all solutions"; else a whole number up to 2^63-1, the native
    engines' ``long long`` (:data:`~puzzlebench.options.LIMIT`)."""
    if limit is None:
        return None
    return LIMIT.check(limit, name) or None


def check_time_limit(time_limit: float | str | None, name: str = "time_limit") -> float | None:
    """A time limit is ``None`` (none) or a positive duration (seconds, or a text with a unit:
    ``"15min"``) up to :data:`~puzzlebench.options.MAX_TIME_LIMIT` seconds, the most a
    child's limit waited for in milliseconds can be (poll()'s C int); NaN and infinity are
    refused too."""
    if time_limit is None:
        return None
    seconds = TIME.check(time_limit, name)
    if not seconds > 0:
        raise UsageError(f"the time limit must be positive (seconds); got {seconds:g}")
    return seconds


def checked_limits(limit: int | None, time_limit: float | None) -> tuple[int | None, float | None]:
    """Both limits of a run, checked (:func:`normalise_limit`, :func:`check_time_limit`): what
    every way into an engine does first."""
    return normalise_limit(limit), check_time_limit(time_limit)


def native_seconds(seconds: float | None) -> float:
    """A time limit as the native searches take it: 0 is none, so a spent one (0 or below)
    still gets a sliver and stops at once."""
    return 0.0 if seconds is None else max(seconds, 1e-9)


class Deadline:
    """A point after which a search must stop (``None`` seconds: never), on the run's clock:
    ``wall`` (time.perf_counter), or ``cpu``, the CPU time of this process and the programs it
    waited for (:func:`~puzzlebench.runtime.clock.process_cpu`) since the deadline was made,
    with ``wall_seconds`` as a wall-clock limit beside it (a run that sleeps spends no CPU).

    ``at`` and :meth:`remaining` are wall time, what a library's own timeout takes (CP-SAT,
    Z3, the C engines, PySAT's watchdog): on the CPU clock, the CPU time left, read as seconds
    of wall time (the earliest the CPU limit can be reached), so such a library stops at or
    before the CPU limit, never after it.

    ``watch``: the batch's :class:`~.interrupts.CtrlCWatch`, which stops the search at a
    Ctrl-C (``None``: the search watches with a thread of its own)."""

    def __init__(self, seconds: float | None, clock: str = "wall", wall_seconds: float | None = None,
                 watch: CtrlCWatch | None = None):
        self.seconds, self.clock, self.watch = seconds, clock, watch
        # the count of SIGINTs when the run (or the command) began: a Ctrl-C since then ends
        # its search (stop_at_ctrl_c), even one whose KeyboardInterrupt Python lost
        self.sigints = run_sigints()
        self.started = time.perf_counter()
        self.cpu_started = process_cpu() if clock == "cpu" else 0.0
        self.wall_seconds = wall_seconds if clock == "cpu" else seconds
        self.wall_at = None if self.wall_seconds is None else self.started + self.wall_seconds
        self.at = None if seconds is None else self.started + seconds
        if self.at is not None and self.wall_at is not None:
            self.at = min(self.at, self.wall_at)

    def cpu_used(self) -> float:
        return process_cpu() - self.cpu_started

    def ctrl_c(self) -> bool:
        """Whether a Ctrl-C came since the deadline was made (False where none is counted)."""
        return ctrl_c_since(self.sigints)

    def expired(self) -> bool:
        if self.clock != "cpu":
            return self.at is not None and time.perf_counter() >= self.at
        if self.wall_at is not None and time.perf_counter() >= self.wall_at:
            return True
        return self.seconds is not None and self.cpu_used() >= self.seconds

    def remaining(self) -> float | None:
        if self.clock != "cpu":
            return None if self.at is None else max(0.0, self.at - time.perf_counter())
        left = [self.wall_at - time.perf_counter()] if self.wall_at is not None else []
        if self.seconds is not None:
            left.append(self.seconds - self.cpu_used())
        return max(0.0, min(left)) if left else None

    def cpu_remaining(self) -> float | None:
        """CPU seconds left on the CPU clock (``None``: on the wall clock, or no limit)."""
        if self.clock != "cpu" or self.seconds is None:
            return None
        return max(0.0, self.seconds - self.cpu_used())


def over_limit(times: Times, time_limit: float | None, clock: str = "wall",
               wall_limit: float | None = None) -> str | None:
    """The clock on which a run's time is past its limit (``total`` wall time, parse
    included, or ``cpu``; on the CPU clock, its wall limit too), or ``None``."""
    if time_limit is not None:
        spent = times.cpu if clock == "cpu" else times.total
        if spent is not None and spent > time_limit:
            return clock
    if clock == "cpu" and wall_limit is not None and times.total > wall_limit:
        return "wall"
    return None


def past_the_limit(result: Result, time_limit: float | None, clock: str = "wall",
                   wall_limit: float | None = None) -> Result:
    """One meaning of solved: a run over its time limit is a ``timeout``, whatever the engine
    answered (an engine looks at its clock only every so many nodes, and a native batch at
    the end of each puzzle).  Its answer is kept as partial information: ``count`` and
    ``solutions`` as found, the answer named in ``error``."""
    if result.status in (Status.TIMEOUT, Status.MEMOUT, Status.ERROR):
        return result
    which = over_limit(result.times, time_limit, clock, wall_limit)
    if which is not None:
        spent, limit = (result.times.cpu, time_limit) if which == "cpu" else (
            result.times.total, time_limit if clock == "wall" else wall_limit)
        named = "time limit" if clock == "wall" else "CPU limit" if which == "cpu" else "wall limit"
        result.error = (f"answered {result.status} after {_duration(spent)} of {which} time, past the {named} "
                        f"of {_duration(limit)}")
        result.status = Status.TIMEOUT
    return result


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def batch_past_the_limit(results: Results, time_limit: float | None, clock: str = "wall",
                         wall_limit: float | None = None) -> None:
    """:func:`past_the_limit` for every answer of a batch call: as columns, each puzzle's
    total wall time and its even share of the batch's CPU time (what is stored for it)."""
    if time_limit is None and wall_limit is None:
        return
    columns = results.columns
    if columns is None:
        for result in results.records:
            past_the_limit(result, time_limit, clock, wall_limit)
        return
    share = results.batch_cpu / len(columns.statuses) if columns.statuses else 0.0
    ended = (Status.TIMEOUT, Status.MEMOUT, Status.ERROR)
    for i, status in enumerate(columns.statuses):
        if status not in ended and over_limit(Times(total=columns.total_seconds[i] + results.parse_seconds,
                                                    cpu=share), time_limit, clock, wall_limit):
            columns.statuses[i] = Status.TIMEOUT


def columns_past_the_limit(table: ResultColumns, time_limit: float | None, clock: str = "wall",
                           wall_limit: float | None = None) -> None:
    """:func:`batch_past_the_limit` for a columnar result, on whole arrays: a puzzle whose
    total wall time (or CPU share, on the CPU clock) is past the limit is a ``timeout``."""
    times = table.times
    over = times["cpu" if clock == "cpu" else "total"] > time_limit if time_limit is not None else False
    if clock == "cpu" and wall_limit is not None:
        over = over | (times["total"] > wall_limit)
    if over is not False and over.any():
        import numpy as np
        ended = [STATUS_CODE[s] for s in (Status.TIMEOUT, Status.MEMOUT, Status.ERROR)]
        table.status[over & ~np.isin(table.status, ended)] = STATUS_CODE[Status.TIMEOUT]


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C in the middle of many puzzles, carrying the results of those finished before
    it: ``done``, a :class:`Results` for the first ``len(done)`` puzzles, in order, verified as
    a whole run's would be (or, from :meth:`_Child.run_all`, a list of them; from
    :meth:`Engine.run_columns`, a :class:`ResultColumns`).  A command
    prints them before it stops: nothing computed is lost."""

    def __init__(self, done):
        super().__init__()
        self.done = done


def grace(time_limit: float) -> float:
    """How long past its limit a puzzle may run before its child is killed: engines look at
    their clock every so many steps, and stopping a library call takes a moment."""
    return 0.1 * time_limit + 0.3
