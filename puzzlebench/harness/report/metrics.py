"""The registry of a report's metrics: each column of its tables is one :class:`Metric` entry.

An entry says what a figure is (its field in the rows, its header, how it is computed from a
group of results, how its cell is written, which way is better, a sentence for
docs/METHODS.md) and where it stands (its table, its place, when it is shown).  The tables
(:mod:`.tables`), the md, LaTeX, CSV and JSON writers (:mod:`.writers`) and the HTML page
all read :data:`METRICS`, so a new figure is one :func:`register_metric` call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from statistics import mean, median
from typing import Any, Callable

from ...results import STATISTICS
from ..crosscheck import FINISHED
from ..uncertainty import median_interval
from .statistics import (DEFAULT_PAR, VIRTUAL_BEST, MetricOptions, Outcome, PuzzleKey, certified_counts, clock_of,
                         group_noise, interval_fields, largest_limit, mean_or_none, paired_comparison, percentile, speedup,
                         speedup_interval)

TABLES = ("summary", "statistics", "standard", "compare", "brief")
"""The tables: ``summary`` (per set, solver and solution limit), ``statistics`` (the search
counters of the summary's rows), ``standard`` (the field's standard metrics, the set's solvers
weighed against each other), ``compare`` (two databases) and ``brief`` (what ``bench`` prints
by default: a few columns of the summary and standard rows)."""
IDENTITY = ("set", "solver", "limit")   # columns that name a row: a table of these alone says nothing


# -- how a cell is written -------------------------------------------------------------------------

def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def milliseconds(value: float) -> str:
    return f"{value * 1000:.3g}" if value < 0.1 else f"{value * 1000:.0f}"


def count(value) -> str:
    return str(value)


def p_value(value: float) -> str:
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def rate(value: float) -> str:
    return f"{value:.3g}" if value < 1000 else f"{value:,.0f}"


def megabytes(value: float) -> str:
    return f"{value:.1f}"


def ratio(value: float) -> str:
    return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"


def general(value) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def cell(format: Callable[[Any], str], value) -> str:
    """One value written by ``format``; ``-`` for none, or a number that is not finite."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return format(value)


def interval(format: Callable[[Any], str]) -> Callable[[tuple], str]:
    """An interval ``[low, high]`` of two fields, each in ``format`` (``-`` if either is none)."""
    def written(bounds: tuple) -> str:
        low, high = (cell(format, value) for value in bounds)
        return "-" if "-" in (low, high) else f"[{low}, {high}]"
    return written


def fraction(values: tuple) -> str:
    """``part/whole`` of two counts."""
    return "/".join(cell(count, value) for value in values)


# -- the groups an entry is computed from ----------------------------------------------------------

@dataclass(frozen=True)
class Group:
    """The results of one (set, solver, solution limit), as a summary row is computed from:
    ``rows`` with one meaning of solved (:func:`~.statistics.timed`), times from ``time_key``."""

    set_name: str
    solver: str
    limit: int
    rows: list
    time_key: str

    @cached_property
    def solved(self) -> list:
        """The finished answers that are not wrong (a refused solution, a refuted claim)."""
        return [r for r in self.rows if r["status"] in FINISHED and not r["wrong"]]

    @cached_property
    def times(self) -> list[float]:
        return [r[self.time_key] for r in self.solved]

    def of_solved(self, column: str) -> list:
        """A column's values over the solved puzzles, unknown ones left out."""
        return [r[column] for r in self.solved if r[column] is not None]


@dataclass(frozen=True)
class Standing:
    """One solver of a set (and solution limit) among the others, as a row of the standard
    metrics is computed from: its outcomes per puzzle, and what the set decided (the shifted
    geometric means, the wins, the baseline's outcomes, the solver every one is tested against)."""

    set_name: str
    solver: str
    limit: int
    outcomes: dict[PuzzleKey, Outcome]
    options: MetricOptions
    time_limit: float | None
    sgm: float | None
    wins: int | None
    baseline: dict[PuzzleKey, Outcome] | None
    noise: float | None
    reference: str | None
    reference_outcomes: dict[PuzzleKey, Outcome]


# -- the entry ---------------------------------------------------------------------------------------

def always(rows: list[dict]) -> bool:
    return True


def certified_of(pair: tuple) -> str:
    """``certified/claims``, or ``-`` where no run was certified."""
    return "-" if pair[0] is None else f"{pair[0]}/{pair[1]}"


def present(*keys: str) -> Callable[[list[dict]], bool]:
    """Shown where some row has a value in one of ``keys`` (results stored before a figure was
    measured have none)."""
    return lambda rows: any(row.get(key) is not None for row in rows for key in keys)


@dataclass(frozen=True)
class Metric:
    """One figure of a table.

    ``key``: its field in the rows (CSV, JSON); ``header``: its column's header, or a function
    of the table's rows giving it, or ``None`` for a field of the rows alone; ``compute``: its
    value from a :class:`Group` (tables ``summary`` and ``statistics``) or a :class:`Standing`
    (``standard``), a dict where it fills several fields (``None``: filled by its table's
    function, as the tests across a table and the ``compare`` figures are); ``format``: its cell
    from its value, or from the tuple of its ``fields`` where it shows several; ``lower_is_better``:
    the figure's direction (``None``: neither); ``description``: its line in docs/METHODS.md;
    ``after``: in the printed table, the column it follows (else its place in the registry);
    ``shown``: whether a table of these rows has the column; ``page_only``: a column of the HTML
    page alone, after the others."""

    key: str
    header: str | Callable[[list[dict]], str] | None
    table: str = "summary"
    compute: Callable[[Any], Any] | None = None
    format: Callable[[Any], str] = general
    lower_is_better: bool | None = None
    description: str = ""
    fields: tuple[str, ...] = ()
    after: str | None = None
    shown: Callable[[list[dict]], bool] = always
    left: bool = False
    page_only: bool = False

    def header_of(self, rows: list[dict]) -> str:
        return self.header(rows) if callable(self.header) else self.header

    def value(self, row: dict):
        """What the cell shows: the field's value, or the tuple of its ``fields``."""
        return tuple(row.get(name) for name in self.fields) if self.fields else row.get(self.key)

    def cell(self, row: dict) -> str:
        return self.format(self.value(row)) if self.fields else cell(self.format, row.get(self.key))

    def sort_value(self, row: dict):
        """The number a page sorts the column by: the value, an interval's low end."""
        return row.get(self.fields[0]) if self.fields else row.get(self.key)


METRICS: dict[tuple[str, str], Metric] = {}
"""Every entry by (table, key), in the order of the rows' fields (CSV, JSON) and, but for an
entry placed ``after`` another, of the columns."""


def register_metric(entry: Metric) -> Metric:
    if entry.table not in TABLES:
        raise ValueError(f"{entry.key}: no table {entry.table!r}; the tables are {', '.join(TABLES)}")
    METRICS[(entry.table, entry.key)] = entry
    return entry


def unregister_metric(table: str, key: str) -> None:
    METRICS.pop((table, key), None)


def table_columns(rows: list[dict], table: str, page: bool = False) -> list[Metric]:
    """The columns a table of ``rows`` shows, in order (none where only the names of the rows
    would be: no search counter was reported); ``page``: the HTML page's, its own last."""
    shown = [m for m in METRICS.values() if m.table == table and m.header is not None
             and (page or not m.page_only) and m.shown(rows)]
    shown.sort(key=lambda m: (m.page_only, _place(m)))
    return shown if any(m.key not in IDENTITY for m in shown) else []


def _place(entry: Metric) -> tuple:
    """Where a column stands: its place in the registry, or just after the column it follows
    (after one placed there before it)."""
    if entry.after is None:
        return (list(METRICS).index((entry.table, entry.key)),)
    return _place(METRICS[(entry.table, entry.after)]) + (1,)


def computed_row(group, tables: tuple[str, ...]) -> dict:
    """A row of the entries of ``tables`` computed from ``group``, in the registry's order."""
    row: dict = {}
    for entry in METRICS.values():
        if entry.table in tables and entry.compute is not None:
            value = entry.compute(group)
            if isinstance(value, dict):
                row.update(value)
            else:
                row[entry.key] = value
    return row


def described() -> list[Metric]:
    """The entries with a description (one each, the first of a key): docs/METHODS.md's list."""
    seen: dict[str, Metric] = {}
    for entry in METRICS.values():
        if entry.description and entry.key not in seen:
            seen[entry.key] = entry
    return list(seen.values())


def methods_table() -> str:
    """docs/METHODS.md's table of the report's columns, from the registry."""
    direction = {True: "lower", False: "higher", None: ""}
    lines = ["| column | field | table | better | what it is |", "| --- | --- | --- | --- | --- |"]
    example = [{"baseline": "BASELINE"}]   # the rows a header that names an option is written for
    for m in described():
        header = m.header_of(example) if m.header is not None else ""
        fields = ", ".join(f"`{name}`" for name in (m.fields or (m.key,)))
        lines.append(f"| {header} | {fields} | {m.table} | {direction[m.lower_is_better]} | {m.description} |")
    return "\n".join(lines) + "\n"


# -- the entries -----------------------------------------------------------------------------------

def _median(values: list) -> float | None:
    return median(values) if values else None


def _mean(values: list) -> float | None:
    return mean(values) if values else None


def _kilobytes(value: float | None) -> float | None:
    return None if value is None else value / 1024


def _megabytes(rows: list, column: str) -> float | None:
    largest = max((r[column] for r in rows if r[column]), default=None)
    return None if largest is None else largest / 2 ** 20


def _proved(rows: list, column: str) -> float | None:
    """The median of ``column`` over the claims whose proof the checker verified."""
    return _median([r[column] for r in rows if "certificate" in r.keys() and r["certificate"] == "verified"
                    and r[column] is not None])


def _per_second(g: Group) -> float | None:
    total = sum(g.times)
    return len(g.solved) / total if total > 0 else None


def _encode_share(g: Group) -> float | None:
    enc, sol = [r["t_encode"] for r in g.solved], [r["t_solve"] for r in g.solved]
    return sum(enc) / (sum(enc) + sum(sol)) if enc and sum(enc) + sum(sol) > 0 else None


def _other_clock_median(column: str) -> Callable[[Group], dict]:
    """The median on the clock the report does not show, beside its own (none: the same clock)."""
    def compute(g: Group) -> dict:
        if g.time_key == column:
            return {}
        return {f"{clock_of(column)}_median": _median(g.of_solved(column))}
    return compute


def _limit_name(limit: int):
    return "all" if limit == 0 else limit


def _par_header(rows: list[dict]) -> str:
    return f"PAR-{(rows[0].get('par_k', DEFAULT_PAR) if rows else DEFAULT_PAR):g}"


def _baseline_named(rows: list[dict]) -> bool:
    return bool(rows and rows[0].get("baseline"))


def _identity(table: str, compute: bool) -> list[Metric]:
    return [Metric("set", "set", table, (lambda g: g.set_name) if compute else None, left=True),
            Metric("solver", "solver", table, (lambda g: g.solver) if compute else None, left=True),
            Metric("limit", "limit", table, (lambda g: _limit_name(g.limit)) if compute else None, count,
                   description="solutions looked for (all: every solution)")]


SUMMARY = [
    *_identity("summary", True),
    Metric("puzzles", "puzzles", compute=lambda g: len(g.rows), format=count, description="puzzles run"),
    Metric("solved", "solved", compute=lambda g: len(g.solved), format=count, lower_is_better=False,
           description="finished answers (unique, multiple, sat or unsat) within the time limit, not wrong"),
    Metric("timeouts", "timeouts", compute=lambda g: sum(r["status"] == "timeout" for r in g.rows), format=count,
           lower_is_better=True, description="runs stopped at, or answering after, their time limit"),
    Metric("errors", "errors", compute=lambda g: sum(r["status"] == "error" for r in g.rows), format=count,
           lower_is_better=True, description="runs that failed"),
    Metric("wrong", "wrong", compute=lambda g: sum(bool(r["wrong"]) for r in g.rows), format=count,
           lower_is_better=True, page_only=True, description="answers the checker refused, and claims another answer's "
           "verified solutions refute (an unsat where one exists, a unique where two do)"),
    Metric("certified", "certified", fields=("certified", "claims"), format=certified_of,
           compute=lambda g: dict(zip(("certified", "claims"), certified_counts(g.rows))),
           lower_is_better=False, shown=present("certified"),
           description="claims of absence (unsat, unique, a complete count) whose proof (DRAT, or LRAT where the "
                       "engine writes its own beyond 9x9) the checker verified, of the claims made, under "
                       "`bench --certify`; an unproved claim is shown red on the page"),
    Metric("median", "median ms", compute=lambda g: _median(g.times), format=milliseconds, lower_is_better=True,
           description="median time of the solved puzzles"),
    Metric("proof_kb", "proof KB", compute=lambda g: _kilobytes(_proved(g.rows, "proof_bytes")), format=general,
           lower_is_better=True, shown=present("proof_kb"),
           description="median size of the verified proofs (`bench --certify`), KB of 1,024 bytes"),
    Metric("prove_median", "prove ms", compute=lambda g: _proved(g.rows, "prove_seconds"), format=milliseconds,
           lower_is_better=True, shown=present("prove_median"),
           description="median time the prover took for the verified proofs, beside the run's own time"),
    Metric("check_median", "check ms", compute=lambda g: _proved(g.rows, "check_seconds"), format=milliseconds,
           lower_is_better=True, shown=present("check_median"),
           description="median time the proof checker took on them"),
    Metric("median_ci", "median 95% CI ms", fields=("median_lo", "median_hi"), format=interval(milliseconds),
           compute=lambda g: interval_fields("median", median_interval(g.times)), shown=present("median_lo"),
           description="percentile bootstrap interval of the median, the puzzles resampled"),
    Metric("mean", "mean ms", compute=lambda g: _mean(g.times), format=milliseconds, lower_is_better=True,
           description="mean time of the solved puzzles"),
    Metric("p90", "p90 ms", compute=lambda g: percentile(g.times, 90), format=milliseconds, lower_is_better=True,
           description="90th percentile of the solved puzzles' times (type 7)"),
    Metric("max", "max ms", compute=lambda g: max(g.times) if g.times else None, format=milliseconds,
           lower_is_better=True, description="longest time of a solved puzzle"),
    Metric("puzzles_per_s", "puzzles/s", compute=_per_second, format=rate, lower_is_better=False,
           description="solved puzzles over the sum of their times: one core's throughput"),
    Metric("peak_memory_mb", "peak MB", compute=lambda g: _megabytes(g.rows, "peak_memory"), format=megabytes,
           lower_is_better=True, description="largest resident peak of a run above its worker's idle baseline"),
    Metric("baseline_memory_mb", "baseline MB", compute=lambda g: _megabytes(g.rows, "baseline_memory"),
           format=megabytes, shown=present("baseline_memory_mb"),
           description="largest idle baseline of the workers (the engine's libraries loaded)"),
    *_identity("statistics", False)[:2],
    *[Metric(f"{stat}_{how}", f"{stat} {how}", "statistics", shown=present(f"{stat}_{how}"),
             compute=lambda g, stat=stat, of=of: of(g.of_solved(stat)), lower_is_better=True,
             description=f"{how} of the engine's {stat} over the solved puzzles (docs/STATISTICS.md)")
      for stat in STATISTICS for how, of in (("median", _median), ("mean", _mean))],
    Metric("encode_mean", "encode ms", compute=lambda g: _mean([r["t_encode"] for r in g.solved]),
           format=milliseconds, lower_is_better=True, description="mean encoding time of the solved puzzles"),
    Metric("solve_mean", "solve ms", compute=lambda g: _mean([r["t_solve"] for r in g.solved]),
           format=milliseconds, lower_is_better=True, description="mean search time of the solved puzzles"),
    Metric("encode_share", None, compute=_encode_share, description="encoding's share of encode + search"),
    Metric("time_limit", None, compute=lambda g: largest_limit(g.rows),
           description="the largest time limit of the rows (seconds)"),
    Metric("clock", None, compute=lambda g: clock_of(g.time_key), description="the clock of the times"),
    Metric("cpu_median", "CPU median ms", compute=_other_clock_median("t_cpu"), format=milliseconds,
           after="noise", shown=present("cpu_median"), description="median CPU time, beside wall times"),
    Metric("wall_median", "wall median ms", compute=_other_clock_median("t_total"), format=milliseconds,
           after="noise", shown=present("wall_median"), description="median wall time, beside CPU times"),
    Metric("runs", None, compute=lambda g: max(r.get("runs", 1) if isinstance(r, dict) else 1 for r in g.rows),
           description="the most runs of a pair (`bench --repeat`)"),
    Metric("noise", "noise", compute=lambda g: group_noise(g.rows), format=percent, lower_is_better=True,
           after="median_ci", shown=present("noise"),
           description="median over the pairs of their runs' relative median absolute deviation"),
]

STANDARD = [
    *_identity("standard", True),
    Metric("time_limit", None, "standard", lambda s: s.time_limit),
    Metric("puzzles", "puzzles", "standard", lambda s: len(s.outcomes), count),
    Metric("solved_in_limit", "solved", "standard", lambda s: sum(o.solved for o in s.outcomes.values()), count,
           False, "finished answers, not wrong, within the time limit"),
    Metric("par_k", None, "standard", lambda s: s.options.par, description="K of PAR-K (`--par`)"),
    Metric("par", lambda rows: f"{_par_header(rows)} ms", "standard",
           lambda s: mean_or_none([o.par for o in s.outcomes.values()]), milliseconds, True,
           "mean time, an unsolved puzzle counting K times its limit"),
    Metric("sgm_shift", None, "standard", lambda s: s.options.shift,
           description="the shift of the geometric mean (`--shift`, seconds)"),
    Metric("sgm", "sgm ms", "standard", lambda s: s.sgm, milliseconds, True,
           "shifted geometric mean of the times, an unsolved puzzle at its limit"),
    Metric("margin", None, "standard", lambda s: s.options.margin,
           description="the least change the paired tests call one (`--margin`)"),
    Metric("wins", "wins", "standard", lambda s: s.wins, count, False, "puzzles solved fastest (ties all win)"),
    Metric("baseline", None, "standard", lambda s: s.options.baseline),
    Metric("speedup", lambda rows: f"speed-up vs {rows[0]['baseline']}", "standard",
           lambda s: None if s.baseline is None else speedup(s.baseline, s.outcomes, s.options.shift), ratio, False,
           "the baseline's sgm over the solver's, on the puzzles both ran", shown=_baseline_named),
    Metric("speedup_ci", "95% CI", "standard",
           lambda s: interval_fields("speedup", None if s.baseline is None
                                     else speedup_interval(s.baseline, s.outcomes, s.options.shift)),
           interval(ratio), description="percentile bootstrap interval of the speed-up, the puzzles in pairs",
           fields=("speedup_lo", "speedup_hi"), shown=_baseline_named),
    Metric("noise", "noise", "standard", lambda s: s.noise, percent, True, shown=present("noise")),
    Metric("reference", "tested against", "standard",
           lambda s: paired_comparison(s.reference_outcomes, s.outcomes, s.options, s.reference, s.solver),
           shown=present("reference"),
           description="the solver each is tested against: the baseline, else the least sgm"),
    Metric("paired", "paired", "standard", format=count, shown=present("reference"),
           description="puzzles both solved or ran out of time on"),
    Metric("ratio", None, "standard", description="the reference's sgm over the solver's on the paired puzzles"),
    Metric("p_time", None, "standard", description="Wilcoxon signed-rank p of a change beyond the margin"),
    Metric("slower", None, "standard"),
    Metric("p_time_holm", "p (Holm)", "standard", format=p_value, shown=present("reference"),
           description="p_time, Holm-adjusted across the table"),
    Metric("verdict", "difference", "standard", shown=present("reference"),
           description="faster / slower than the reference where p (Holm) < 0.05, else no significant difference"),
    Metric("noise_exceeds_difference", None, "standard",
           description="whether the noise of either side is larger than the difference reported"),
]

COMPARE = [
    *_identity("compare", False),
    Metric("puzzles_a", "puzzles A", "compare", format=count),
    Metric("puzzles_b", "puzzles B", "compare", format=count),
    Metric("paired", "paired", "compare", format=count),
    Metric("only_a", "only A", "compare", format=count),
    Metric("only_b", "only B", "compare", format=count),
    Metric("solved_a", "solved A", "compare", format=count),
    Metric("solved_b", "solved B", "compare", format=count),
    Metric("gained", "gained", "compare", format=count, lower_is_better=False,
           description="puzzles solved in B only"),
    Metric("lost", "lost", "compare", format=count, lower_is_better=True, description="puzzles solved in A only"),
    Metric("solved_change", "solved change", "compare",
           description="exact McNemar test of gained against lost, Holm-adjusted"),
    Metric("median_a", "median ms A", "compare", format=milliseconds),
    Metric("median_b", "median ms B", "compare", format=milliseconds),
    Metric("time_change", "time change", "compare",
           description="Wilcoxon test of the paired times (capped at the limit) beyond the margin"),
    Metric("par_a", lambda rows: f"{_par_header(rows)} ms A", "compare", format=milliseconds),
    Metric("par_b", lambda rows: f"{_par_header(rows)} ms B", "compare", format=milliseconds),
    Metric("par_change", lambda rows: f"{_par_header(rows)} change", "compare",
           description="Wilcoxon test of the paired PAR-K scores beyond the margin"),
    Metric("noise_a", "noise A", "compare", format=percent, shown=present("noise_a", "noise_b")),
    Metric("noise_b", "noise B", "compare", format=percent, shown=present("noise_a", "noise_b")),
    Metric("differ", "answers differ", "compare", format=count,
           description="puzzles both finished with another status or count"),
    Metric("certified_a", "certified A", "compare", shown=lambda rows: any(r.get("certified_a") not in (None, "-")
                                                                            for r in rows),
           description="claims of absence certified of those made in A (`bench --certify`)"),
    Metric("certified_b", "certified B", "compare", shown=lambda rows: any(r.get("certified_b") not in (None, "-")
                                                                            for r in rows),
           description="the same in B"),
]

BRIEF = [
    Metric("solver", "solver", "brief", left=True),
    Metric("solved_of", "solved", "brief", format=fraction, fields=("solved_in_limit", "puzzles")),
    Metric("median", "median ms", "brief", format=milliseconds),
    Metric("sgm", "sgm ms", "brief", format=milliseconds),
    Metric("peak_memory_mb", "peak MB", "brief", format=megabytes),
]
"""``bench``'s table by default, a set at a time: a 100-column terminal holds it."""

for _entry in (*SUMMARY, *STANDARD, *COMPARE, *BRIEF):
    register_metric(_entry)
