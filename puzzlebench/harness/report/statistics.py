"""The numbers behind every table and figure of a report: one definition each.

:func:`percentile` (type 7, the only percentile of the package), the time columns and one
meaning of solved (:func:`timed`, :func:`solved_in_limit`), repetitions folded to their median
run (:func:`median_runs`) and their noise, the shifted geometric mean after Achterberg
("Constraint Integer Programming", 2007), and a solver's :class:`Outcome` on a puzzle, from
which PAR-k, speed-ups and the paired tests of :mod:`.uncertainty` are computed
(docs/METHODS.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Iterable

from ..crosscheck import FINISHED
from ..database import INPUT_SOLVER
from ..uncertainty import DEFAULT_MARGIN, log_times, paired_time_test, ratio_interval, relative_mad, sgm_of_logs

def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (0 to 100) of ``values``: linear interpolation between the closest
    ranks, Hyndman & Fan's type 7 (numpy's default); ``None`` for no values.  Every percentile
    of the package and its benchmarks is this one."""
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def run_clock_key(row) -> str:
    """The column of the clock a row's run was limited on (``clock``: ``NULL`` in a database
    older than it, where every run was limited on wall time)."""
    return TIME_KEYS.get(_field(row, "clock") or "wall", "t_total")


def _field(row, name: str):
    """A column of a row (a dict or an ``sqlite3.Row``), ``None`` where it has none."""
    return row[name] if name in row.keys() else None


def past_its_limit(row) -> bool:
    """A finished answer whose time on its run's own clock is over its time limit (stored
    before one meaning of solved, or answered in a batch): a timeout, like every other run
    over its limit (see :func:`timed`)."""
    limit = _field(row, "time_limit")
    if row["status"] not in FINISHED or limit is None:
        return False
    spent = _field(row, run_clock_key(row))
    return spent is not None and spent > limit


def timed(results: Iterable) -> list:
    """The rows with one meaning of solved: a run over its time limit on its own clock is a
    ``timeout`` in every table, metric and plot, whatever it answered (the report's
    ``--clock`` chooses the times shown, not which runs are solved)."""
    return [{**dict(r), "status": "timeout"} if past_its_limit(r) else r for r in results]


def median_runs(results: Iterable, time_key: str = "t_total") -> list:
    """One row per (puzzle, solver, solution limit): the median of its repetitions (``bench
    --repeat K``), the rest as they are, in order of first appearance.  The median run is the
    one of rank ceil(K/2) with the runs ordered by time, every unsolved run (not finished or
    wrong) after every solved one: a whole run, so that its status, time and counters belong
    together, and a majority of unsolved runs makes the pair unsolved.  Where a pair has
    repetitions, every row comes back as a dict with ``runs``, their number."""
    groups: dict[tuple, list] = {}
    for r in timed(results):
        groups.setdefault((r["set_name"], r["puzzle_id"], r["puzzle_hash"], r["solver"], r["limit_"]), []).append(r)
    if all(len(runs) == 1 for runs in groups.values()):
        return [runs[0] for runs in groups.values()]
    return [{**dict(sorted(runs, key=lambda r: _run_rank(r, time_key))[(len(runs) - 1) // 2]), "runs": len(runs),
             "noise": run_noise(runs, time_key)}
            for runs in groups.values()]


def run_noise(runs: list, time_key: str = "t_total") -> float | None:
    """The run-to-run noise of one pair's repetitions: the median absolute deviation of its
    solved runs' times relative to their median (``None`` for fewer than two solved runs)."""
    return relative_mad([r[time_key] for r in runs if r["status"] in FINISHED and not r["wrong"]
                         and r[time_key] is not None])


def group_noise(rows: Iterable) -> float | None:
    """The typical noise of a group of pairs: the median of their :func:`run_noise` (``None``
    without repetitions)."""
    values = [r["noise"] for r in rows if isinstance(r, dict) and r.get("noise") is not None]
    return median(values) if values else None


def _run_rank(row, time_key: str) -> tuple:
    unsolved = row["status"] not in FINISHED or bool(row["wrong"])
    return unsolved, row[time_key] if row[time_key] is not None else math.inf


TIME_KEYS = {"wall": "t_total", "cpu": "t_cpu"}
"""``report --clock``: the column every time figure, ranking and plot reads.  Wall time is
what the user waited; CPU time (user + system of the process that ran the engine) is what the
benchmark competitions rank by, and is steadier on a loaded machine."""


def clock_of(time_key: str) -> str:
    return next(name for name, key in TIME_KEYS.items() if key == time_key)


def interval_fields(key: str, interval: tuple[float, float] | None) -> dict:
    low, high = interval if interval else (None, None)
    return {f"{key}_lo": low, f"{key}_hi": high}


def rows_without_time(results: Iterable, time_key: str) -> int:
    """The finished results that have no value in ``time_key`` (CPU time is missing from
    results stored before it was measured): a report by that clock cannot rank them."""
    return sum(r["solver"] != INPUT_SOLVER and r["status"] in FINISHED and r[time_key] is None for r in results)


VIRTUAL_BEST = "(virtual best)"
"""The solver name of the virtual best solver's row (parenthesised, as no spec can be)."""
DEFAULT_PAR = 2.0
DEFAULT_SHIFT = 0.01   # seconds
TINY_TIME = 1e-7       # a time measured as 0 is drawn and divided by as this (log axes, ratios)


@dataclass(frozen=True)
class MetricOptions:
    """How the standard metrics are computed: PAR-``par``, the shift of the geometric mean
    (seconds), the baseline of the speed-up (a solver spec, or ``None``), the time column
    they read, and the least change in time the paired tests call one (a share)."""

    par: float = DEFAULT_PAR
    shift: float = DEFAULT_SHIFT
    baseline: str | None = None
    time_key: str = "t_total"
    margin: float = DEFAULT_MARGIN


def certified_counts(rows) -> tuple[int | None, int | None]:
    """(claims of absence certified, claims made) among ``rows`` run under ``bench --certify``,
    where each such claim has a certificate (``verified``, ``failed``, ``none``); ``(None,
    None)`` where no row was certified (an older database has no such column)."""
    claims = [r for r in rows if "certificate" in r.keys() and r["certificate"] is not None]
    if not claims:
        return None, None
    return sum(r["certificate"] == "verified" for r in claims), len(claims)


def solved_in_limit(row, time_key: str = "t_total") -> bool:
    """A finished answer, not found wrong, within the row's own time limit (none: any time) on
    the clock its run was limited on (:func:`past_its_limit`), whichever clock the report
    shows (``time_key``): the main table's ``solved`` and this count are the same runs."""
    if row["status"] not in FINISHED or row["wrong"]:
        return False
    return not past_its_limit(row)


@dataclass(frozen=True)
class Outcome:
    """One solver on one puzzle, as the metrics see it: solved within the limit or not, its
    PAR-k time and its time capped at the limit (``None``: unsolved with no time limit, which
    has no penalty), and the time measured."""

    solved: bool
    par: float | None
    capped: float | None
    time: float
    timed: bool = False   # solved, or out of time (a timeout, or an answer after the limit)


def outcome(row, options: MetricOptions) -> Outcome:
    time = row[options.time_key] or 0.0
    limit = row["time_limit"]
    if solved_in_limit(row, options.time_key):
        return Outcome(True, time, time, time, True)
    late = row["status"] == "timeout" or (row["status"] in FINISHED and not row["wrong"])
    return Outcome(False, None if limit is None else options.par * limit, limit, time, late and limit is not None)


def best_outcome(outcomes: Iterable[Outcome]) -> Outcome:
    """The virtual best solver's outcome on a puzzle: solved if any solver solved it, with the
    least time, PAR-k time and capped time among them."""
    outcomes = list(outcomes)
    solved = [o for o in outcomes if o.solved]

    def least(values):
        values = [v for v in values if v is not None]
        return min(values) if values else None
    if solved:
        best = min(o.time for o in solved)
        return Outcome(True, best, best, best)
    return Outcome(False, least(o.par for o in outcomes), least(o.capped for o in outcomes),
                   min(o.time for o in outcomes))


def shifted_geometric_mean(values: list[float | None], shift: float) -> float | None:
    """exp(mean(ln(v + shift))) - shift, written shift * expm1(mean(log1p(v / shift))) so that
    a large shift loses nothing to cancellation; ``None`` when there are no values or one is
    unknown."""
    if not values or any(v is None for v in values):
        return None
    if shift == 0 and any(v <= 0 for v in values):
        return 0.0   # shift 0 and a time of 0: the plain geometric mean is 0
    return float(sgm_of_logs(log_times(values, shift), shift))


def mean_or_none(values: list[float | None]) -> float | None:
    if not values or any(v is None for v in values):
        return None
    return sum(values) / len(values)


PuzzleKey = tuple  # (puzzle_id, puzzle_hash): one puzzle of a set


def paired_comparison(theirs: dict[PuzzleKey, Outcome], mine: dict[PuzzleKey, Outcome], options: MetricOptions,
                      reference: str | None, solver: str) -> dict:
    """``solver`` against ``reference`` over the puzzles both solved or ran out of time on
    (times capped at the limit): the puzzles paired, the ratio of their shifted geometric means
    (theirs / mine: above 1, ``solver`` is faster), the p-value of the Wilcoxon test of a
    change beyond the margin and its direction (``slower``: 1 where ``solver`` is slower)."""
    paired = [p for p in mine if p in theirs and mine[p].timed and theirs[p].timed]
    if reference is None or reference == solver:
        return {"reference": reference, "paired": None, "ratio": None, "p_time": None, "slower": None}
    a, b = [theirs[p].capped for p in paired], [mine[p].capped for p in paired]
    ours = shifted_geometric_mean(b, options.shift)
    test = paired_time_test(a, b, options.margin)
    return {"reference": reference, "paired": len(paired),
            "ratio": shifted_geometric_mean(a, options.shift) / ours if ours else None,
            "p_time": None if test is None else test[0], "slower": None if test is None else test[1]}


def wins_of(outcomes: dict[str, dict[PuzzleKey, Outcome]], puzzles: list[PuzzleKey]) -> dict[str, int]:
    """Per solver, the puzzles it solved fastest (every solver tied for the best time wins)."""
    wins = dict.fromkeys(outcomes, 0)
    for p in puzzles:
        times = {solver: o[p].time for solver, o in outcomes.items() if p in o and o[p].solved}
        if times:
            best = min(times.values())
            for solver, time in times.items():
                wins[solver] += time == best
    return wins


def speedup(baseline: dict[PuzzleKey, Outcome], mine: dict[PuzzleKey, Outcome], shift: float) -> float | None:
    """The baseline's shifted geometric mean over the puzzles both ran, divided by ``mine``."""
    common = [p for p in mine if p in baseline]
    theirs = shifted_geometric_mean([baseline[p].capped for p in common], shift)
    ours = shifted_geometric_mean([mine[p].capped for p in common], shift)
    if theirs is None or not ours:
        return None
    return theirs / ours


def speedup_interval(baseline: dict[PuzzleKey, Outcome], mine: dict[PuzzleKey, Outcome],
                     shift: float) -> tuple[float, float] | None:
    """The 95% bootstrap interval of :func:`speedup`, the puzzles resampled in pairs."""
    common = [p for p in mine if p in baseline]
    theirs, ours = [baseline[p].capped for p in common], [mine[p].capped for p in common]
    if None in theirs or None in ours:
        return None
    return ratio_interval(theirs, ours, shift)


def largest_limit(rows: Iterable) -> float | None:
    return max((r["time_limit"] for r in rows if r["time_limit"] is not None), default=None)


def solver_named(name: str | None, solvers: Iterable[str]) -> str | None:
    """The solver spec ``name`` stands for among ``solvers``: itself, or a family's only spec
    (``cpsat`` for ``cpsat:int``)."""
    solvers = sorted(set(solvers))
    if name in solvers:
        return name
    matches = [s for s in solvers if name and s.split("@")[0].split(":")[0] == name]
    return matches[0] if len(matches) == 1 else None
