"""Tables and plots from the results database, as the field reports solver comparisons.

:func:`summarise` gives the per-(set, solver, limit) table (counts, time percentiles,
memory, normalised statistics); :func:`standard_metrics` the SAT competitions' and MIP
benchmarks' figures (PAR-k, shifted geometric mean after Achterberg, "Constraint Integer
Programming", 2007, wins, speed-up, a virtual best solver); :func:`compare` two databases
paired by content.  Plots: cactus, ECDF, per-puzzle scatter, box plots and the performance
profile of Dolan and Moré ("Benchmarking optimization software with performance profiles",
2002).  Every figure reads one time column (:data:`TIME_KEYS`) and each result's own time
limit, so wall and CPU reports, and runs at different limits, stay comparable; repetitions
are folded to their median first (:func:`median_runs`), and each figure's uncertainty comes
from :mod:`.uncertainty` (docs/METHODS.md).
"""

from __future__ import annotations

import csv
import io
import json
import math
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median
from typing import Iterable

from ..errors import UsageError
from ..outputs import open_output
from ..results import STATISTICS
from ..runtime.interrupts import ctrl_c_kept
from .crosscheck import FINISHED
from .database import INPUT_SOLVER
from .uncertainty import (ALPHA, DEFAULT_MARGIN, RESAMPLES, holm, log_times, median_interval, paired_time_test,
                          ratio_interval, relative_mad, sgm_of_logs, solved_test)



def percentile(values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (type 7)."""
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


def summarise(results: Iterable[dict], time_key: str = "t_total") -> list[dict]:
    """One summary row per (set, solver, limit), in order of first appearance; times from the
    column ``time_key`` (:data:`TIME_KEYS`).

    Columns: ``puzzles``, ``solved`` (unique, multiple, sat or unsat), ``timeouts``,
    ``errors``, ``wrong`` (answers the checker refused); over the solved puzzles ``median``,
    ``mean``, ``p90`` (Hyndman & Fan's type 7, numpy's default) and ``max`` of the total time,
    and ``puzzles_per_s`` (solved / the sum of their times: one core's throughput);
    ``peak_memory_mb`` above the worker's idle baseline and ``baseline_memory_mb`` (the largest
    baseline); the other clock's median; median and mean of each normalised statistic that
    the engine reports; ``encode_mean``, ``solve_mean``, ``encode_share``; ``time_limit`` (the
    largest, where a ``--resume`` mixed two)."""
    groups: dict[tuple, list[dict]] = {}
    set_order: dict[str, int] = {}
    solver_order: dict[str, int] = {}
    for r in timed(results):
        set_order.setdefault(r["set_name"], len(set_order))
        solver_order.setdefault(r["solver"], len(solver_order))
        groups.setdefault((r["set_name"], r["solver"], r["limit_"]), []).append(r)
    keys = sorted(groups, key=lambda k: (set_order[k[0]], solver_order[k[1]], k[2]))
    return [_summary(key, groups[key], time_key) for key in keys]


def _summary(key: tuple, rows: list[dict], time_key: str) -> dict:
    set_name, solver, limit = key
    solved = [r for r in rows if r["status"] in FINISHED]
    times = [r[time_key] for r in solved]
    total_time = sum(times)
    out = {
        "set": set_name, "solver": solver, "limit": "all" if limit == 0 else limit,
        "puzzles": len(rows), "solved": len(solved),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "errors": sum(r["status"] == "error" for r in rows),
        "wrong": sum(bool(r["wrong"]) for r in rows),
        "median": median(times) if times else None,
        **_interval_fields("median", median_interval(times)),
        "mean": mean(times) if times else None,
        "p90": percentile(times, 90),
        "max": max(times) if times else None,
        "puzzles_per_s": len(solved) / total_time if total_time > 0 else None,
        "peak_memory_mb": max((r["peak_memory"] for r in rows if r["peak_memory"]), default=None),
    }
    out["baseline_memory_mb"] = max((r["baseline_memory"] for r in rows if r["baseline_memory"]), default=None)
    for key in ("peak_memory_mb", "baseline_memory_mb"):
        if out[key] is not None:
            out[key] = out[key] / 2 ** 20
    for stat in STATISTICS:
        values = [r[stat] for r in solved if r[stat] is not None]
        out[f"{stat}_median"] = median(values) if values else None
        out[f"{stat}_mean"] = mean(values) if values else None
    enc = [r["t_encode"] for r in solved]
    sol = [r["t_solve"] for r in solved]
    out["encode_mean"] = mean(enc) if enc else None
    out["solve_mean"] = mean(sol) if sol else None
    out["encode_share"] = sum(enc) / (sum(enc) + sum(sol)) if enc and sum(enc) + sum(sol) > 0 else None
    out["time_limit"] = _largest_limit(rows)
    out["clock"] = clock_of(time_key)
    other = "t_cpu" if time_key == "t_total" else "t_total"   # the other clock's median beside
    other_times = [r[other] for r in solved if r[other] is not None]
    out[f"{clock_of(other)}_median"] = median(other_times) if other_times else None
    out["runs"] = max(r.get("runs", 1) if isinstance(r, dict) else 1 for r in rows)
    out["noise"] = group_noise(rows)
    return out


def _interval_fields(key: str, interval: tuple[float, float] | None) -> dict:
    low, high = interval if interval else (None, None)
    return {f"{key}_lo": low, f"{key}_hi": high}


def rows_without_time(results: Iterable, time_key: str) -> int:
    """The finished results that have no value in ``time_key`` (CPU time is missing from
    results stored before it was measured): a report by that clock cannot rank them."""
    return sum(r["solver"] != INPUT_SOLVER and r["status"] in FINISHED and r[time_key] is None for r in results)


# -- the field's standard metrics ----------------------------------------------------------------

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


def _mean_or_none(values: list[float | None]) -> float | None:
    if not values or any(v is None for v in values):
        return None
    return sum(values) / len(values)


PuzzleKey = tuple  # (puzzle_id, puzzle_hash): one puzzle of a set


def _by_set_and_limit(results: Iterable) -> dict[tuple, dict[str, dict[PuzzleKey, object]]]:
    """Rows grouped by (set, solution limit), then solver, then puzzle, in order of first
    appearance; rows of lines that were not puzzles (no solver) left out."""
    groups: dict[tuple, dict[str, dict[PuzzleKey, object]]] = {}
    solver_order: dict[str, int] = {}
    for r in results:
        if r["solver"] == INPUT_SOLVER:
            continue
        solver_order.setdefault(r["solver"], len(solver_order))
        by_solver = groups.setdefault((r["set_name"], r["limit_"]), {})
        by_solver.setdefault(r["solver"], {})[(r["puzzle_id"], r["puzzle_hash"])] = r
    # the solvers of every set in one order, as the summary's
    return {key: dict(sorted(by_solver.items(), key=lambda item: solver_order[item[0]]))
            for key, by_solver in groups.items()}


def standard_metrics(results: Iterable, options: MetricOptions = MetricOptions()) -> list[dict]:
    """One row per (set, solver, solution limit) with the standard metrics, and after each
    set's solvers a virtual best solver row (per puzzle the best of the solvers shown) when it
    has two or more.

    ``solved_in_limit``: finished answers, not wrong, within the time limit (anything else is
    unsolved); ``par``: PAR-k, the mean time with an unsolved puzzle counting k times its limit;
    ``sgm``: exp(mean(ln(t + s))) - s, an unsolved puzzle counting its limit (the shift s keeps
    near-zero times from dominating); ``wins``: puzzles solved fastest (ties all win);
    ``speedup``: the baseline's sgm over the solver's, on the puzzles both ran; ``verdict``: the
    Wilcoxon test of a change beyond a margin, Holm-adjusted across the table."""
    out = []
    for (set_name, limit), by_solver in _by_set_and_limit(results).items():
        outcomes = {solver: {p: outcome(r, options) for p, r in rows.items()}
                    for solver, rows in by_solver.items()}
        puzzles = list(dict.fromkeys(p for rows in by_solver.values() for p in rows))
        wins = _wins(outcomes, puzzles)
        time_limits = {solver: _largest_limit(rows.values()) for solver, rows in by_solver.items()}
        if len(outcomes) >= 2:
            outcomes[VIRTUAL_BEST] = {p: best_outcome(o[p] for o in outcomes.values() if p in o) for p in puzzles}
            time_limits[VIRTUAL_BEST] = max((t for t in time_limits.values() if t is not None), default=None)
        baseline = outcomes.get(options.baseline)
        sgms = {solver: shifted_geometric_mean([o.capped for o in mine.values()], options.shift)
                for solver, mine in outcomes.items()}
        reference = options.baseline if baseline is not None else _fastest(sgms)
        noise = {solver: group_noise(rows.values()) for solver, rows in by_solver.items()}
        for solver, mine in outcomes.items():
            row = {
                "set": set_name, "solver": solver, "limit": "all" if limit == 0 else limit,
                "time_limit": time_limits[solver], "puzzles": len(mine),
                "solved_in_limit": sum(o.solved for o in mine.values()),
                "par_k": options.par, "par": _mean_or_none([o.par for o in mine.values()]),
                "sgm_shift": options.shift, "sgm": sgms[solver], "margin": options.margin,
                "wins": None if solver == VIRTUAL_BEST else wins[solver],
                "baseline": options.baseline,
                "speedup": None if baseline is None else speedup(baseline, mine, options.shift),
                **_interval_fields("speedup", None if baseline is None
                                   else speedup_interval(baseline, mine, options.shift)),
                "noise": noise.get(solver),
            }
            tested = solver != VIRTUAL_BEST and reference is not None and len(by_solver) >= 2
            row.update(paired_comparison(outcomes[reference], mine, options, reference, solver) if tested
                       else paired_comparison({}, {}, options, None, solver))
            out.append(row)
    _adjust(out, ["p_time"])
    for row in out:
        row["verdict"] = _verdict(row)
        tested = row["reference"] not in (None, row["solver"]) and row["ratio"] is not None
        row["noise_exceeds_difference"] = _noise_exceeds(abs(row["ratio"] - 1) if tested else None,
                                                         row["noise"], _noise_of(out, row))
    return out


def _fastest(sgms: dict[str, float | None]) -> str | None:
    """The solver of the least shifted geometric mean (the first of a tie), the reference of a
    set's paired tests when no baseline is named."""
    known = [(value, i, solver) for i, (solver, value) in enumerate(sgms.items())
             if value is not None and solver != VIRTUAL_BEST]
    return min(known)[2] if known else None


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


def _adjust(rows: list[dict], keys: list[str]) -> None:
    """Holm's adjustment of every p-value of ``keys`` across the rows of a table, as
    ``KEY_holm`` beside each."""
    cells = [(row, key) for row in rows for key in keys]
    for (row, key), adjusted in zip(cells, holm([row.get(key) for row, key in cells])):
        row[f"{key}_holm"] = adjusted


def _verdict(row: dict) -> str | None:
    if row["reference"] is None:
        return None
    if row["reference"] == row["solver"]:
        return "reference"
    if row["p_time_holm"] is None:
        return "no puzzle to pair"
    if row["p_time_holm"] >= ALPHA:
        return "no significant difference"
    return f"{'slower' if row['slower'] > 0 else 'faster'} than {row['reference']}"


def _noise_of(rows: list[dict], row: dict) -> float | None:
    """The noise of the reference ``row`` is set against, in the same set and limit."""
    return next((r.get("noise") for r in rows if (r["set"], r["limit"], r["solver"]) ==
                 (row["set"], row["limit"], row.get("reference"))), None)


def _noise_exceeds(difference: float | None, *noises: float | None) -> bool | None:
    """Whether the run-to-run noise of either side is larger than a relative difference a row
    reports (``None``: no repetitions or no difference to weigh)."""
    known = [n for n in noises if n is not None]
    if not known or difference is None:
        return None
    return max(known) > difference


def noise_warnings(metrics: list[dict]) -> list[str]:
    """One line per comparison of a table whose difference is smaller than the noise of the
    repeated runs behind it."""
    return [f"{row['set']}: {row['solver']} against {row['reference']}: the run-to-run noise "
            f"({_percent(max(n for n in (row.get('noise'), _noise_of(metrics, row)) if n is not None))}) is larger "
            f"than the difference reported ({_percent(abs(row['ratio'] - 1))})"
            for row in metrics if row.get("noise_exceeds_difference")]


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _wins(outcomes: dict[str, dict[PuzzleKey, Outcome]], puzzles: list[PuzzleKey]) -> dict[str, int]:
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


def _largest_limit(rows: Iterable) -> float | None:
    return max((r["time_limit"] for r in rows if r["time_limit"] is not None), default=None)


def solver_named(name: str, solvers: Iterable[str]) -> str | None:
    """The solver spec ``name`` stands for among ``solvers``: itself, or a family's only spec
    (``cpsat`` for ``cpsat:int``)."""
    return _named(name, sorted(set(solvers)))


# -- two databases side by side ------------------------------------------------------------------

def compare(results_a: Iterable, results_b: Iterable, options: MetricOptions = MetricOptions()) -> list[dict]:
    """Per (set, solver, solution limit) of either database, what changed from A to B, over the
    puzzles both hold (paired by content, the stored ``puzzle_hash``; the puzzles of one side
    alone are counted, ``only_a`` and ``only_b``, and left out of every other figure): the
    puzzles solved within the limit, those solved in only B (``gained``) or only A (``lost``),
    the median time of the solved puzzles, PAR-k, the puzzles both finished with different
    answers (status or count: ``differ``), and whether each change is more than chance: the
    exact McNemar test of gained against lost (``p_solved``), the Wilcoxon test of a change
    beyond the margin in the paired log times, capped at the limit (``p_time``: the median),
    and in the PAR-k scores (``p_par``), Holm-adjusted across the table (``KEY_holm``).  ``noise_a`` and ``noise_b``:
    each side's run-to-run noise where it has repetitions."""
    groups_a, groups_b = _by_set_solver_limit(results_a), _by_set_solver_limit(results_b)
    keys = list(dict.fromkeys([*groups_a, *groups_b]))
    set_order = {name: i for i, name in enumerate(dict.fromkeys(k[0] for k in keys))}
    solver_order = {name: i for i, name in enumerate(dict.fromkeys(k[1] for k in keys))}
    out = [_compared(key, groups_a.get(key, {}), groups_b.get(key, {}), options)
           for key in sorted(keys, key=lambda k: (set_order[k[0]], solver_order[k[1]], k[2]))]
    _adjust(out, ["p_solved", "p_time", "p_par"])
    for row in out:
        more = None if row["gained"] is None else row["gained"] - row["lost"]
        row["solved_change"] = _change(row["p_solved_holm"], more, "more", "fewer")
        row["time_change"] = _change(row["p_time_holm"], row["time_slower"], "slower", "faster")
        row["par_change"] = _change(row["p_par_holm"], row["par_slower"], "slower", "faster")
        row["noise_exceeds_difference"] = _noise_exceeds(_relative_change(row["median_a"], row["median_b"]),
                                                         row["noise_a"], row["noise_b"])
    return [{key: row[key] for key in COMPARE_FIELDS} for row in out]


COMPARE_FIELDS = ("set", "solver", "limit", "time_limit_a", "time_limit_b", "puzzles_a", "puzzles_b", "paired",
                  "only_a", "only_b", "solved_a", "solved_b", "gained", "lost", "p_solved", "p_solved_holm",
                  "solved_change", "median_a", "median_b", "p_time", "p_time_holm", "time_change", "par_k",
                  "par_a", "par_b", "p_par", "p_par_holm", "par_change", "noise_a", "noise_b",
                  "noise_exceeds_difference", "differ")
"""The fields of a row of :func:`compare`, in the order of its CSV and JSON."""


def _compared(key: tuple, a: dict, b: dict, options: MetricOptions) -> dict:
    set_name, solver, limit = key
    common = [h for h in a if h in b]
    row = {"set": set_name, "solver": solver, "limit": "all" if limit == 0 else limit,
           "time_limit_a": _largest_limit(a.values()), "time_limit_b": _largest_limit(b.values()),
           "puzzles_a": len(a), "puzzles_b": len(b), "paired": len(common),
           "only_a": len(a) - len(common), "only_b": len(b) - len(common)}
    outcomes = {}
    for side, rows in (("a", a), ("b", b)):
        mine = outcomes[side] = [outcome(rows[h], options) for h in common]
        solved = [o.time for o in mine if o.solved]
        row[f"solved_{side}"] = len(solved) if common else None   # None: no puzzle to pair
        row[f"median_{side}"] = median(solved) if solved else None
        row[f"par_{side}"] = _mean_or_none([o.par for o in mine])
        row[f"noise_{side}"] = group_noise(rows[h] for h in common)
    pairs = list(zip(outcomes["a"], outcomes["b"]))
    row["gained"] = sum(y.solved and not x.solved for x, y in pairs) if common else None
    row["lost"] = sum(x.solved and not y.solved for x, y in pairs) if common else None
    row["differ"] = sum(_answers_differ(a[h], b[h]) for h in common) if common else None
    row["par_k"] = options.par
    timed = [(x, y) for x, y in pairs if x.timed and y.timed]
    row["p_solved"] = solved_test(row["gained"], row["lost"]) if common else None
    scored = [(x.par, y.par) for x, y in pairs if x.par is not None and y.par is not None]
    for key, (a_values, b_values) in (("time", ([x.capped for x, _ in timed], [y.capped for _, y in timed])),
                                      ("par", ([x for x, _ in scored], [y for _, y in scored]))):
        test = paired_time_test(a_values, b_values, options.margin)
        row[f"p_{key}"], row[f"{key}_slower"] = test if test else (None, None)
    return row


def _change(p: float | None, direction: int | None, up: str, down: str) -> str | None:
    """A change in words: within noise where the adjusted p-value is not below :data:`ALPHA`
    (or nothing moved), else which way it went (``direction`` above 0: ``up``)."""
    if p is None or direction is None:
        return None
    if p >= ALPHA or direction == 0:
        return "within noise"
    return f"{up if direction > 0 else down} (significant)"


def _relative_change(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None or before <= 0 else abs(after / before - 1)


def compare_noise_warnings(rows: list[dict]) -> list[str]:
    """One line per row of ``compare`` whose change in median is smaller than either side's
    run-to-run noise."""
    return [f"{row['set']}: {row['solver']}: the run-to-run noise "
            f"({_percent(max(n for n in (row['noise_a'], row['noise_b']) if n is not None))}) is larger than "
            f"the change in median ({_percent(_relative_change(row['median_a'], row['median_b']))})"
            for row in rows if row.get("noise_exceeds_difference")]


def puzzles_in_common(results_a: Iterable, results_b: Iterable) -> int:
    """How many puzzle contents (``puzzle_hash``) both sides hold."""
    hashes = {r["puzzle_hash"] for r in results_a if r["solver"] != INPUT_SOLVER}
    return len(hashes & {r["puzzle_hash"] for r in results_b if r["solver"] != INPUT_SOLVER})


def _by_set_solver_limit(results: Iterable) -> dict[tuple, dict[str, object]]:
    groups: dict[tuple, dict[str, object]] = {}
    for r in results:
        if r["solver"] != INPUT_SOLVER:
            groups.setdefault((r["set_name"], r["solver"], r["limit_"]), {})[r["puzzle_hash"]] = r
    return groups


def _answers_differ(a, b) -> bool:
    finished = all(r["status"] in FINISHED and not r["wrong"] for r in (a, b))
    return finished and (a["status"], a["count"]) != (b["status"], b["count"])


# -- raw results ---------------------------------------------------------------------------------

RAW_FORMATS = ("csv", "jsonl", "parquet")
BINARY_FORMATS = ("parquet",)


def raw_table(reader, where: str = "", params: Iterable = ()) -> tuple[list[str], list[tuple]]:
    """Every column of the ``results`` view and its rows (one per result), from a
    :class:`~.database.ResultsReader`."""
    return reader.columns(), [tuple(row) for row in reader.results(where, params)]


def write_raw(columns: list[str], rows: list[tuple], fmt: str, out) -> None:
    """Write the raw rows to ``out`` (a text stream for csv and jsonl, a path for parquet)."""
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
    elif fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(dict(zip(columns, row))) + "\n")
    elif fmt == "parquet":
        pyarrow, parquet = pyarrow_modules()
        table = pyarrow.table({name: [row[i] for row in rows] for i, name in enumerate(columns)})
        parquet.write_table(table, out)
    else:
        raise ValueError(fmt)


def pyarrow_modules():
    """pyarrow and its parquet module, or the one-line reason they are missing."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise UsageError("--format parquet needs pyarrow (pip install pyarrow)") from None
    return pyarrow, pyarrow.parquet


# -- formats -----------------------------------------------------------------------------------

MAIN = [("set", "set"), ("solver", "solver"), ("limit", "limit"), ("puzzles", "puzzles"),
        ("solved", "solved"), ("timeouts", "timeouts"), ("errors", "errors"),
        ("median", "median ms"), ("mean", "mean ms"), ("p90", "p90 ms"), ("max", "max ms"),
        ("puzzles_per_s", "puzzles/s"), ("peak_memory_mb", "peak MB"),
        ("encode_mean", "encode ms"), ("solve_mean", "solve ms")]
STATS = [("set", "set"), ("solver", "solver")] + [
    (f"{s}_{m}", f"{s} {m}") for s in STATISTICS for m in ("median", "mean")]
MILLIS = {"median", "mean", "p90", "max", "cpu_median", "wall_median", "encode_mean", "solve_mean", "par", "sgm",
          "median_a", "median_b", "par_a", "par_b"}
COUNTS = {"puzzles", "solved", "timeouts", "errors", "wrong", "limit", "solved_in_limit", "wins",
          "puzzles_a", "puzzles_b", "solved_a", "solved_b", "gained", "lost", "differ", "paired", "only_a", "only_b"}
PVALUES = {"p_time", "p_time_holm", "p_solved", "p_solved_holm", "p_par", "p_par_holm"}
SHARES = {"noise", "noise_a", "noise_b"}


def main_columns(summary: list[dict]) -> list[tuple[str, str]]:
    """The summary's columns: :data:`MAIN`, with after the median the other clock's median
    (CPU beside wall, or wall beside CPU) and after the peak memory the workers' baseline,
    where some result has them (results stored before they were measured have not)."""
    columns = list(MAIN)
    for key, label, after in (("cpu_median", "CPU median ms", "median"), ("wall_median", "wall median ms", "median"),
                              ("median_lo", "median 95% CI ms", "median"),
                              ("baseline_memory_mb", "baseline MB", "peak_memory_mb")):
        if any(row.get(key) is not None for row in summary):
            columns.insert([k for k, _ in columns].index(after) + 1, (key.replace("_lo", "_ci"), label))
    if any(row.get("noise") is not None for row in summary):   # after the median and its interval
        keys = [k for k, _ in columns]
        columns.insert(keys.index("median_ci" if "median_ci" in keys else "median") + 1, ("noise", "noise"))
    return columns


def metric_columns(metrics: list[dict]) -> list[tuple[str, str]]:
    first = metrics[0] if metrics else {}
    columns = [("set", "set"), ("solver", "solver"), ("limit", "limit"), ("puzzles", "puzzles"),
               ("solved_in_limit", "solved"), ("par", f"PAR-{first.get('par_k', DEFAULT_PAR):g} ms"),
               ("sgm", "sgm ms"), ("wins", "wins")]
    if first.get("baseline"):
        columns += [("speedup", f"speed-up vs {first['baseline']}"), ("speedup_ci", "95% CI")]
    if any(row.get("noise") is not None for row in metrics):
        columns.append(("noise", "noise"))
    if any(row.get("reference") is not None for row in metrics):
        columns += [("reference", "tested against"), ("paired", "paired"), ("p_time_holm", "p (Holm)"),
                    ("verdict", "difference")]
    return columns


def compare_columns(rows: list[dict]) -> list[tuple[str, str]]:
    par = f"PAR-{(rows[0]['par_k'] if rows else DEFAULT_PAR):g}"
    noise = [("noise_a", "noise A"), ("noise_b", "noise B")] if any(
        row.get(k) is not None for row in rows for k in ("noise_a", "noise_b")) else []
    return [("set", "set"), ("solver", "solver"), ("limit", "limit"),
            ("puzzles_a", "puzzles A"), ("puzzles_b", "puzzles B"), ("paired", "paired"),
            ("only_a", "only A"), ("only_b", "only B"), ("solved_a", "solved A"),
            ("solved_b", "solved B"), ("gained", "gained"), ("lost", "lost"), ("solved_change", "solved change"),
            ("median_a", "median ms A"), ("median_b", "median ms B"), ("time_change", "time change"),
            ("par_a", f"{par} ms A"), ("par_b", f"{par} ms B"), ("par_change", f"{par} change"),
            *noise, ("differ", "answers differ")]


def cell(key: str, value) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    if key in PVALUES:
        return "< 0.001" if value < 0.001 else f"{value:.3f}"
    if key in SHARES:
        return _percent(value)
    if key in COUNTS:
        return str(value)
    if key in MILLIS:
        return f"{value * 1000:.3g}" if value < 0.1 else f"{value * 1000:.0f}"
    if key == "puzzles_per_s":
        return f"{value:.3g}" if value < 1000 else f"{value:,.0f}"
    if key in ("peak_memory_mb", "baseline_memory_mb"):
        return f"{value:.1f}"
    if key in ("speedup", "ratio"):
        return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _rows(summary: list[dict], columns) -> list[list[str]]:
    return [[cell_of(row, k) for k, _ in columns] for row in summary]


def cell_of(row: dict, key: str) -> str:
    """A row's cell; ``X_ci`` is the interval ``X_lo`` to ``X_hi``, in X's unit."""
    if key.endswith("_ci"):
        base = key[:-3]
        low, high = (cell(base, row.get(f"{base}_{end}")) for end in ("lo", "hi"))
        return "-" if "-" in (low, high) else f"[{low}, {high}]"
    return cell(key, row.get(key))


def finite_rows(rows: list[dict]) -> list[dict]:
    """The rows with every number that is not finite (an overflow, a division by 0) as
    ``None``: JSON has no such number, and a table shows ``-``."""
    return [{k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}
            for row in rows]


def _seconds(value: float) -> str:
    return f"{value:g} s"


def time_limit_words(rows: list[dict]) -> str:
    """The time limits of table rows in words, for the table's header: one limit, or each
    set's where they differ."""
    by_set: dict[str, list[float]] = {}
    for row in rows:
        limits = by_set.setdefault(row["set"], [])
        if row.get("time_limit") is not None and row["time_limit"] not in limits:
            limits.append(row["time_limit"])
    every = {limit for limits in by_set.values() for limit in limits}
    if not every:
        return "no time limit"
    if len(every) == 1:
        return f"time limit {_seconds(every.pop())} per puzzle"
    return "time limits per puzzle: " + "; ".join(
        f"{name} {' / '.join(_seconds(v) for v in sorted(limits)) or 'none'}" for name, limits in by_set.items())


def _md_table(rows: list[dict], columns) -> str:
    head = "| " + " | ".join(h for _, h in columns) + " |"
    rule = "|" + "|".join("---" if k in ("set", "solver") else "---:" for k, _ in columns) + "|"
    return "\n".join([head, rule] + ["| " + " | ".join(r) + " |" for r in _rows(rows, columns)])


def clock_words(rows: list[dict]) -> str:
    """What the times of a table are, for its header (wall time unless told), and how many
    runs of each pair they summarise."""
    words = ""
    if rows and rows[0].get("clock") == "cpu":
        words += (" Times are CPU time (user + system of the process that ran the engine and of the programs "
                  "it started), but the encode "
                  "and solve columns: CPU time is measured per run, not per phase, so they stay wall time.")
    runs = max((row.get("runs") or 1 for row in rows), default=1)
    if runs > 1:
        words += f" Each pair ran up to {runs} times: the median run is shown."
    if any(row.get("median_lo") is not None for row in rows):
        words += (f" Median 95% CI: percentile bootstrap over the puzzles ({RESAMPLES:,} resamples, seeded;"
                  " docs/METHODS.md).")
    if any(row.get("noise") is not None for row in rows):
        words += (" Noise: a pair's median absolute deviation over its runs' median time, the median over the"
                  " pairs.")
    return words


def markdown(summary: list[dict], metrics: list[dict] | None = None) -> str:
    limits = time_limit_words(summary + (metrics or []))
    stats_present = [c for c in STATS[2:] if any(row.get(c[0]) is not None for row in summary)]
    text = f"{limits[0].upper()}{limits[1:]}.{clock_words(summary)}\n\n" + _md_table(summary, main_columns(summary))
    if stats_present:
        text += f"\n\nSearch statistics (over solved puzzles; - : the engine has no such counter; {limits})\n\n"
        text += _md_table(summary, STATS[:2] + stats_present)
    if metrics:
        text += "\n\n" + metrics_caption(metrics) + "\n\n" + _md_table(metrics, metric_columns(metrics))
    return text + "\n"


def metrics_caption(metrics: list[dict]) -> str:
    first = metrics[0]
    k, shift = f"{first['par_k']:g}", f"{first['sgm_shift'] * 1000:g} ms"
    text = (f"Standard metrics ({time_limit_words(metrics)}; solved: within the limit; PAR-{k}: mean time, "
            f"an unsolved puzzle counting {k} x its limit; sgm: shifted geometric mean, shift {shift}, "
            f"an unsolved puzzle at its limit; wins: puzzles solved fastest")
    if first.get("baseline"):
        text += (f"; speed-up: the sgm of {first['baseline']} / the solver's, over the puzzles both ran, with its "
                 "95% percentile bootstrap interval (the puzzles resampled in pairs)")
    if any(row.get("reference") is not None for row in metrics):
        text += (f"; difference: the Wilcoxon signed-rank test of a change of more than {_percent(first['margin'])} "
                 f"in the log times paired with those of the solver tested against "
                 f"({'the baseline' if first.get('baseline') else 'the least sgm of the set'}) on the puzzles both "
                 f"solved or ran out of time on (timeouts at the limit), its p Holm-adjusted across the table, "
                 f"significant below {ALPHA:g}")
    return text + ")"


def compare_caption(rows: list[dict], name_a: str, name_b: str, margin: float = DEFAULT_MARGIN) -> str:
    limits = [time_limit_words([{"set": r["set"], "time_limit": r[f"time_limit_{side}"]} for r in rows
                                if r[f"puzzles_{side}"]]) for side in ("a", "b")]
    limits = limits[0] if limits[0] == limits[1] else f"A: {limits[0]}; B: {limits[1]}"
    return (f"Changes from A = {name_a} to B = {name_b} ({limits}; puzzles paired by content, those of one "
            "side only counted and left out of every other figure; solved: within the limit; gained / lost: "
            "puzzles solved only in B / only in A; median: of the solved puzzles; answers differ: puzzles both "
            "finished with another status or count; a change is significant where its Holm-adjusted p-value "
            f"across the table is below {ALPHA:g}: solved by the exact McNemar test of gained against lost, time "
            f"and PAR by the Wilcoxon signed-rank test of a change of more than {_percent(margin)} in the paired "
            "log times, capped at the limit or scored PAR; otherwise within noise)")


def _merged(summary: list[dict], metrics: list[dict] | None) -> list[dict]:
    """The summary rows with their metrics (and the virtual best rows after each set's), for
    the formats of one row per line (csv, json)."""
    if not metrics:
        return summary
    extra = {(m["set"], m["solver"], m["limit"]): m for m in metrics}
    keys = list(dict.fromkeys([*(summary[0] if summary else {}), *metrics[0]]))
    last_of_group = {(row["set"], row["limit"]): i for i, row in enumerate(summary)}
    out = []
    for i, row in enumerate(summary):
        found = extra.get((row["set"], row["solver"], row["limit"]), {})
        out.append({k: row.get(k, found.get(k)) for k in keys})
        best = extra.get((row["set"], VIRTUAL_BEST, row["limit"]))
        if best is not None and last_of_group[(row["set"], row["limit"])] == i:
            out.append({k: best.get(k) for k in keys})
    return out


def csv_text(rows: list[dict]) -> str:
    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buf.getvalue()


def _latex_table(rows: list[dict], columns, caption: str) -> list[str]:
    def esc(text: str) -> str:
        text = text.replace("\\", r"\textbackslash ")
        for ch in "_%&#$":
            text = text.replace(ch, "\\" + ch)
        return text
    spec = "ll" + "r" * (len(columns) - 2)
    lines = [r"\begin{tabular}{" + spec + "}", r"\hline",
             rf"\multicolumn{{{len(columns)}}}{{l}}{{{esc(caption)}}} \\", r"\hline",
             " & ".join(esc(h) for _, h in columns) + r" \\", r"\hline"]
    lines += [" & ".join(esc(c) for c in r) + r" \\" for r in _rows(rows, columns)]
    return lines + [r"\hline", r"\end{tabular}"]


def latex(summary: list[dict], metrics: list[dict] | None = None) -> str:
    lines = _latex_table(summary, main_columns(summary), time_limit_words(summary + (metrics or [])))
    if metrics:
        lines += [""] + _latex_table(metrics, metric_columns(metrics), metrics_caption(metrics))
    return "\n".join(lines) + "\n"


def render(summary: list[dict], fmt: str, metrics: list[dict] | None = None) -> str:
    """The summary table (and the standard metrics, when given) in a format: md, csv, latex or
    json.  Every table's header names the time limit (csv and json: a ``time_limit`` field)."""
    if fmt == "md":
        return markdown(summary, metrics)
    if fmt == "csv":
        return csv_text(finite_rows(_merged(summary, metrics)))
    if fmt == "latex":
        return latex(summary, metrics)
    if fmt == "json":
        return json.dumps(finite_rows(_merged(summary, metrics)), indent=1, allow_nan=False) + "\n"
    raise ValueError(fmt)


def render_compare(rows: list[dict], fmt: str, name_a: str, name_b: str, margin: float = DEFAULT_MARGIN) -> str:
    columns = compare_columns(rows)
    caption = compare_caption(rows, name_a, name_b, margin)
    if fmt == "md":
        return caption + "\n\n" + _md_table(rows, columns) + "\n"
    if fmt == "csv":
        return csv_text(finite_rows(rows))
    if fmt == "latex":
        return "\n".join(_latex_table(rows, columns, caption)) + "\n"
    if fmt == "json":
        return json.dumps({"a": name_a, "b": name_b, "rows": finite_rows(rows)}, indent=1, allow_nan=False) + "\n"
    raise ValueError(fmt)


# -- plots -------------------------------------------------------------------------------------

def _pyplot():
    with ctrl_c_kept():   # imported when first drawn: a Ctrl-C in it would land in a class being made
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    return plt


def _save(fig, out: Path, name: str, page: bool = False) -> list[Path]:
    """The figure as PNG and SVG, or for the HTML page (``page``) as SVG alone."""
    paths = []
    for ext in ("svg",) if page else ("png", "svg"):
        path = out / f"{name}.{ext}"
        with open_output(str(path), "--out", binary=True) as file:
            fig.savefig(file, format=ext, dpi=120, bbox_inches="tight")
        paths.append(path)
    return paths


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in text)


def _by_set(results: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in results:
        if r["solver"] != "(input)":
            out.setdefault(r["set_name"], []).append(r)
    return out


def _time_label(time_key: str) -> str:
    return "CPU time" if time_key == "t_cpu" else "time"


def cactus(results: list[dict], out: Path, time_key: str = "t_total", page: bool = False
           ) -> list[Path]:
    plt = _pyplot()
    paths = []
    for set_name, rows in _by_set(results).items():
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        solvers = sorted({r["solver"] for r in rows})
        for solver in solvers:
            times = sorted(max(r[time_key], TINY_TIME) for r in rows if r["solver"] == solver and r["status"] in FINISHED)
            if times:
                ax.plot(range(1, len(times) + 1), times, marker="." if len(times) < 60 else None, label=solver)
        _draw_time_limit(ax, rows, horizontal=True)
        ax.set_yscale("log")
        ax.set_xlabel("puzzles solved")
        ax.set_ylabel(f"{_time_label(time_key)} per puzzle (s), sorted")
        ax.set_title(f"{set_name}: cactus plot")
        ax.grid(True, which="both", alpha=0.3)
        _legend(ax, page)
        paths += _save(fig, out, f"cactus-{_slug(set_name)}", page)
        plt.close(fig)
    return paths


def _legend(ax, outside: bool) -> None:
    """The legend in the plot's best corner, or right of the axes where it covers no data."""
    if outside:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    else:
        ax.legend(fontsize="small")


def _draw_time_limit(ax, rows: list, horizontal: bool) -> None:
    """The set's time limit (the largest of its rows') as a dashed line, named in the legend."""
    limit = _largest_limit(rows)
    if limit is not None:
        line = ax.axhline if horizontal else ax.axvline
        line(limit, color="black", linestyle="--", linewidth=0.9, label=f"time limit {limit:g} s")


def ecdf_points(rows: list, time_key: str = "t_total") -> dict[str, tuple[list[float], list[float]]]:
    """Per solver of one set, the empirical distribution of its solved puzzles' times: the
    times sorted, and the share of the set's puzzles (every puzzle any solver ran) solved
    within each.  Unsolved puzzles never count, so a curve ends below 1 when some are."""
    puzzles = {(r["puzzle_id"], r["puzzle_hash"], r["limit_"]) for r in rows}
    out = {}
    for solver in dict.fromkeys(r["solver"] for r in rows):
        times = sorted(max(r[time_key], TINY_TIME) for r in rows
                       if r["solver"] == solver and solved_in_limit(r, time_key))
        out[solver] = (times, [(i + 1) / len(puzzles) for i in range(len(times))])
    return out


def performance_ratios(rows: list, time_key: str = "t_total") -> dict[str, list[float]]:
    """Dolan and Moré's performance ratios of one set, sorted per solver: on each puzzle, the
    solver's time over the fastest solver's time on it; ``inf`` where the solver did not solve
    the puzzle within the limit (or did not run it).  A solver's performance profile at tau is
    the share of its ratios at most tau (:func:`profile_at`)."""
    times: dict[tuple, dict[str, float]] = {}
    solvers = list(dict.fromkeys(r["solver"] for r in rows))
    for r in rows:
        puzzle = times.setdefault((r["puzzle_id"], r["puzzle_hash"], r["limit_"]), {})
        if solved_in_limit(r, time_key):
            puzzle[r["solver"]] = max(r[time_key], TINY_TIME)
    out = {solver: [] for solver in solvers}
    for by_solver in times.values():
        best = min(by_solver.values(), default=None)
        for solver in solvers:
            out[solver].append(by_solver[solver] / best if solver in by_solver else math.inf)
    return {solver: sorted(ratios) for solver, ratios in out.items()}


def profile_at(ratios: list[float], tau: float) -> float:
    """The share of ``ratios`` at most ``tau``: a performance profile's value."""
    return sum(r <= tau for r in ratios) / len(ratios) if ratios else 0.0


def ecdf(results: list[dict], out: Path, time_key: str = "t_total", page: bool = False
         ) -> list[Path]:
    plt = _pyplot()
    paths = []
    for set_name, rows in _by_set(results).items():
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        points = ecdf_points(rows, time_key)
        end = _largest_limit(rows) or max((t for times, _ in points.values() for t in times), default=1.0)
        for solver, (times, shares) in points.items():
            if times:   # from 0 at the first time, on to the limit at the last share
                ax.step([times[0]] + times + [max(end, times[-1])], [0.0] + shares + [shares[-1]],
                        where="post", label=solver)
        _draw_time_limit(ax, rows, horizontal=False)
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(f"{_time_label(time_key)} (s)")
        ax.set_ylabel("share of the puzzles solved within")
        ax.set_title(f"{set_name}: ECDF of the solve times")
        ax.grid(True, which="both", alpha=0.3)
        _legend(ax, page)
        paths += _save(fig, out, f"ecdf-{_slug(set_name)}", page)
        plt.close(fig)
    return paths


def profile(results: list[dict], out: Path, time_key: str = "t_total", page: bool = False
            ) -> list[Path]:
    plt = _pyplot()
    paths = []
    for set_name, rows in _by_set(results).items():
        ratios = performance_ratios(rows, time_key)
        finite = [r for rs in ratios.values() for r in rs if math.isfinite(r)]
        if not finite:
            continue
        top = max(2.0, max(finite) * 1.5)
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for solver, rs in ratios.items():
            taus = [r for r in rs if math.isfinite(r)]
            if taus:
                shares = [bisect_right(rs, t) / len(rs) for t in [1.0, *taus, top]]   # rs sorted: no n^2
                ax.step([1.0] + taus + [top], shares, where="post", label=solver)
        ax.set_xscale("log", base=2)
        ax.set_xlim(1, top)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(f"tau: within this factor of the fastest solver's {_time_label(time_key)}")
        ax.set_ylabel("share of the puzzles")
        ax.set_title(f"{set_name}: performance profile (Dolan & Moré)")
        ax.grid(True, which="both", alpha=0.3)
        _legend(ax, page)
        paths += _save(fig, out, f"profile-{_slug(set_name)}", page)
        plt.close(fig)
    return paths


def scatter(results: list[dict], out: Path, pair: tuple[str, str] | None = None,
            time_key: str = "t_total", page: bool = False) -> list[Path]:
    plt = _pyplot()
    paths = []
    for set_name, rows in _by_set(results).items():
        solvers = sorted({r["solver"] for r in rows})
        a, b = pair if pair else (solvers[:2] if len(solvers) >= 2 else (None, None))
        a, b = _named(a, solvers), _named(b, solvers)
        if a is None or b is None:
            continue
        per: dict[tuple, dict[str, dict]] = {}
        for r in rows:
            per.setdefault((r["puzzle_id"], r["puzzle_hash"], r["limit_"]), {})[r["solver"]] = r
        cap = max((r["time_limit"] or 0) for r in rows) or max(r[time_key] or 0 for r in rows) or 1.0
        xs, ys = [], []
        for both in per.values():
            if a in both and b in both:
                xs.append(_plotted_time(both[a], cap, time_key))
                ys.append(_plotted_time(both[b], cap, time_key))
        if not xs:
            continue
        fig, ax = plt.subplots(figsize=(5, 5))
        ax.scatter(xs, ys, s=8, alpha=0.6, rasterized=len(xs) > RASTER_FROM)
        lo, hi = min(xs + ys) / 2, cap * 1.5
        ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8)
        if page:   # the page's figure: the limit, where timeouts sit, marked and named
            _draw_time_limit(ax, rows, horizontal=True)
            ax.axvline(cap, color="black", linestyle="--", linewidth=0.9)
            _legend(ax, True)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_xlabel(f"{a} {_time_label(time_key)} (s)")
        ax.set_ylabel(f"{b} {_time_label(time_key)} (s)")
        ax.set_title(f"{set_name}: per puzzle (timeouts/errors at the limit)")
        paths += _save(fig, out, f"scatter-{_slug(set_name)}-{_slug(a)}-vs-{_slug(b)}", page)
        plt.close(fig)
    return paths


def _named(name: str | None, solvers: list[str]) -> str | None:
    """The solver spec ``name`` stands for: itself, or a family's only spec (``cpsat`` for
    ``cpsat:int``)."""
    if name in solvers:
        return name
    matches = [s for s in solvers if name and s.split("@")[0].split(":")[0] == name]
    return matches[0] if len(matches) == 1 else None


def _plotted_time(r: dict, cap: float, time_key: str) -> float:
    return cap if r["status"] not in FINISHED else max(r[time_key], TINY_TIME)


def stats_boxplot(results: list[dict], out: Path, time_key: str = "t_total", stat: str = "nodes") -> list[Path]:
    """Box plots of a search statistic per solver (``time_key``: unused, every plot takes it)."""
    plt = _pyplot()
    paths = []
    for set_name, rows in _by_set(results).items():
        data, labels = [], []
        for solver in sorted({r["solver"] for r in rows}):
            values = [max(r[stat], 1) for r in rows if r["solver"] == solver and r["status"] in FINISHED
                      and r[stat] is not None]
            if values:
                data.append(values)
                labels.append(solver)
        if not data:
            continue
        fig, ax = plt.subplots(figsize=(max(4.0, 1.1 * len(data) + 2), 4.2))
        ax.boxplot(data)
        ax.set_xticks(range(1, len(labels) + 1), labels, rotation=30, ha="right")
        ax.set_yscale("log")
        ax.set_ylabel(f"{stat} per puzzle")
        ax.set_title(f"{set_name}: {stat} per paradigm")
        ax.grid(True, axis="y", which="both", alpha=0.3)
        paths += _save(fig, out, f"{stat}-{_slug(set_name)}")
        plt.close(fig)
    return paths


RASTER_FROM = 2000
"""A scatter of more points than this draws them as one image inside its SVG (a vector point
each made the HTML report's page megabytes long)."""

PLOTS = {"cactus": cactus, "scatter": scatter, "stats": stats_boxplot, "ecdf": ecdf, "profile": profile}
"""Each called as ``plot(results, out_folder, time_key=...)`` (scatter also ``pair=``; but the
box plots, ``page=True`` draws the HTML report's figure: SVG alone, the legend right of the
axes where it covers no data, the limit marked on the scatter too)."""
