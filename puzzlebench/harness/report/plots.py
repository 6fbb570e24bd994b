"""The registry of a report's figures: each kind is one :class:`Plot` entry in :data:`PLOTS`.

A figure is drawn a set at a time: the entry says what one set's figure shows (``data``) and
how it is drawn on its axes (``draw``), its title and file name; :meth:`Plot.draw_sets` does
the rest once for all (the figure, the grid, the legend, saving PNG and SVG, or SVG alone for
the HTML page).  ``report --plot`` offers every entry, the HTML page draws those ``on_page``.
Plots: cactus, ECDF, per-puzzle scatter, box plots of a search counter, the median time
across a series of sets (sizes, shares of holes), and the performance
profile of Dolan and Moré ("Benchmarking optimization software with performance profiles",
2002).  Every figure reads one time column and each result's own time limit.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ...outputs import open_output
from ...runtime.interrupts import ctrl_c_kept
from ..crosscheck import FINISHED
from ..database import INPUT_SOLVER
from .statistics import TINY_TIME, largest_limit, percentile, solved_in_limit, solver_named

RASTER_FROM = 2000
"""A scatter of more points than this draws them as one image inside its SVG (a vector point
each made the HTML report's page megabytes long)."""
BOXPLOT_STAT = "nodes"   # the search counter of the box plots


@dataclass(frozen=True)
class Request:
    """What a figure is drawn for: the time column, the HTML page or files, the scatter's pair."""

    time_key: str = "t_total"
    page: bool = False
    pair: tuple[str, str] | None = None


@dataclass(frozen=True)
class Plot:
    """One kind of figure.  ``data(rows, request)``: what one set's figure shows, as a dict
    (its text values fill ``file_name`` and ``title``), or ``None`` where it has nothing to
    draw; ``draw(ax, data, rows, request)``: the content, scales and axis labels; ``file_name``
    and ``title``: patterns of ``{set}`` and the data's names (``.png``/``.svg`` and "SET: "
    added); ``size``: the figure's inches, or a function of the data; ``grid``: the arguments
    of the axes' grid (``None``: none); ``legend``: ``always``, ``page`` (on the HTML page alone)
    or ``never``; ``on_page``: whether the HTML page shows it; ``across_sets``: one figure of
    every set at once (its ``{set}`` is ``every set``), for a series of sets such as sizes or shares
    of holes."""

    name: str
    data: Callable[[list, Request], dict | None]
    draw: Callable[[Any, dict, list, Request], None]
    file_name: str
    title: str
    size: tuple[float, float] | Callable[[dict], tuple[float, float]] = (6.4, 4.2)
    grid: dict | None = None
    legend: str = "always"
    on_page: bool = True
    across_sets: bool = False

    def __call__(self, results: list, out: Path, time_key: str = "t_total", page: bool = False,
                 pair: tuple[str, str] | None = None) -> list[Path]:
        """Each set's figure in the folder ``out``: PNG and SVG, or for the HTML page SVG alone
        (the legend right of the axes, where it covers no data); the files written."""
        return self.draw_sets(results, out, Request(time_key, page, pair))

    def draw_sets(self, results: list, out: Path, request: Request) -> list[Path]:
        plt = _pyplot()
        paths = []
        by_set = _by_set(results)
        for set_name, rows in ({"every set": [r for rs in by_set.values() for r in rs]} if self.across_sets
                               else by_set).items():
            data = self.data(rows, request)
            if data is None:
                continue
            fig, ax = plt.subplots(figsize=self.size(data) if callable(self.size) else self.size)
            self.draw(ax, data, rows, request)
            names = {key: value for key, value in data.items() if isinstance(value, str)}
            ax.set_title(f"{set_name}: {self.title.format(**names)}")
            if self.grid is not None:
                ax.grid(True, alpha=0.3, **self.grid)
            if self.legend == "always" or (self.legend == "page" and request.page):
                _legend(ax, request.page)
            slugs = {key: _slug(value) for key, value in names.items()}
            paths += _save(fig, out, self.file_name.format(set=_slug(set_name), **slugs), request.page)
            plt.close(fig)
        return paths


PLOTS: dict[str, Plot] = {}
"""Every figure by name, in the order the HTML page shows them."""


def register_plot(entry: Plot) -> Plot:
    PLOTS[entry.name] = entry
    return entry


def unregister_plot(name: str) -> None:
    PLOTS.pop(name, None)


def page_plots() -> list[Plot]:
    return [plot for plot in PLOTS.values() if plot.on_page]


# -- the scaffolding -------------------------------------------------------------------------------

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


def _by_set(results: list) -> dict[str, list]:
    out: dict[str, list] = {}
    for r in results:
        if r["solver"] != INPUT_SOLVER:
            out.setdefault(r["set_name"], []).append(r)
    return out


def _time_label(time_key: str) -> str:
    return "CPU time" if time_key == "t_cpu" else "time"


def _legend(ax, outside: bool) -> None:
    """The legend in the plot's best corner, or right of the axes where it covers no data."""
    if outside:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    else:
        ax.legend(fontsize="small")


def _draw_time_limit(ax, rows: list, horizontal: bool) -> None:
    """The set's time limit (the largest of its rows') as a dashed line, named in the legend."""
    limit = largest_limit(rows)
    if limit is not None:
        line = ax.axhline if horizontal else ax.axvline
        line(limit, color="black", linestyle="--", linewidth=0.9, label=f"time limit {limit:g} s")


# -- what the figures show -------------------------------------------------------------------------

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


# -- the figures -----------------------------------------------------------------------------------

def _every_set(rows: list, request: Request) -> dict:
    return {}


def _draw_cactus(ax, data: dict, rows: list, request: Request) -> None:
    for solver in sorted({r["solver"] for r in rows}):
        times = sorted(max(r[request.time_key], TINY_TIME) for r in rows
                       if r["solver"] == solver and r["status"] in FINISHED)
        if times:
            ax.plot(range(1, len(times) + 1), times, marker="." if len(times) < 60 else None, label=solver)
    _draw_time_limit(ax, rows, horizontal=True)
    ax.set_yscale("log")
    ax.set_xlabel("puzzles solved")
    ax.set_ylabel(f"{_time_label(request.time_key)} per puzzle (s), sorted")


def _draw_ecdf(ax, data: dict, rows: list, request: Request) -> None:
    points = ecdf_points(rows, request.time_key)
    end = largest_limit(rows) or max((t for times, _ in points.values() for t in times), default=1.0)
    for solver, (times, shares) in points.items():
        if times:   # from 0 at the first time, on to the limit at the last share
            ax.step([times[0]] + times + [max(end, times[-1])], [0.0] + shares + [shares[-1]],
                    where="post", label=solver)
    _draw_time_limit(ax, rows, horizontal=False)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"{_time_label(request.time_key)} (s)")
    ax.set_ylabel("share of the puzzles solved within")


def _profile_data(rows: list, request: Request) -> dict | None:
    ratios = performance_ratios(rows, request.time_key)
    finite = [r for rs in ratios.values() for r in rs if math.isfinite(r)]
    return {"ratios": ratios, "top": max(2.0, max(finite) * 1.5)} if finite else None


def _draw_profile(ax, data: dict, rows: list, request: Request) -> None:
    top = data["top"]
    for solver, rs in data["ratios"].items():
        taus = [r for r in rs if math.isfinite(r)]
        if taus:
            shares = [bisect_right(rs, t) / len(rs) for t in [1.0, *taus, top]]   # rs sorted: no n^2
            ax.step([1.0] + taus + [top], shares, where="post", label=solver)
    ax.set_xscale("log", base=2)
    ax.set_xlim(1, top)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"tau: within this factor of the fastest solver's {_time_label(request.time_key)}")
    ax.set_ylabel("share of the puzzles")


def _scatter_data(rows: list, request: Request) -> dict | None:
    """The pair's times on the puzzles both ran (``request.pair``, else the set's first two
    solvers by name), an unfinished run at the cap: the time limit, else the longest time."""
    solvers = sorted({r["solver"] for r in rows})
    a, b = request.pair if request.pair else (solvers[:2] if len(solvers) >= 2 else (None, None))
    a, b = solver_named(a, solvers), solver_named(b, solvers)
    if a is None or b is None:
        return None
    per: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        per.setdefault((r["puzzle_id"], r["puzzle_hash"], r["limit_"]), {})[r["solver"]] = r
    cap = max((r["time_limit"] or 0) for r in rows) or max(r[request.time_key] or 0 for r in rows) or 1.0
    pairs = [(_plotted_time(both[a], cap, request.time_key), _plotted_time(both[b], cap, request.time_key))
             for both in per.values() if a in both and b in both]
    if not pairs:
        return None
    return {"a": a, "b": b, "cap": cap, "xs": [x for x, _ in pairs], "ys": [y for _, y in pairs]}


def _plotted_time(r: dict, cap: float, time_key: str) -> float:
    return cap if r["status"] not in FINISHED else max(r[time_key], TINY_TIME)


def _draw_scatter(ax, data: dict, rows: list, request: Request) -> None:
    xs, ys, cap = data["xs"], data["ys"], data["cap"]
    ax.scatter(xs, ys, s=8, alpha=0.6, rasterized=len(xs) > RASTER_FROM)
    lo, hi = min(xs + ys) / 2, cap * 1.5
    ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8)
    if request.page:   # the page's figure: the limit, where timeouts sit, marked and named
        _draw_time_limit(ax, rows, horizontal=True)
        ax.axvline(cap, color="black", linestyle="--", linewidth=0.9)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel(f"{data['a']} {_time_label(request.time_key)} (s)")
    ax.set_ylabel(f"{data['b']} {_time_label(request.time_key)} (s)")


def _boxplot_data(rows: list, request: Request) -> dict | None:
    """Per solver its solved puzzles' counts of :data:`BOXPLOT_STAT` (at least 1: a log axis)."""
    data, labels = [], []
    for solver in sorted({r["solver"] for r in rows}):
        values = [max(r[BOXPLOT_STAT], 1) for r in rows if r["solver"] == solver and r["status"] in FINISHED
                  and r[BOXPLOT_STAT] is not None]
        if values:
            data.append(values)
            labels.append(solver)
    return {"stat": BOXPLOT_STAT, "values": data, "labels": labels} if data else None


def _draw_boxplot(ax, data: dict, rows: list, request: Request) -> None:
    labels = data["labels"]
    ax.boxplot(data["values"])
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=30, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel(f"{data['stat']} per puzzle")


def _series_data(rows: list, request: Request) -> dict | None:
    """Per solver, its median time on each set, the sets in the database's order; a run not
    solved within its limit counts as the limit (the median stays exact while fewer than half
    time out)."""
    sets = list(dict.fromkeys(r["set_name"] for r in rows))
    if len(sets) < 2:
        return None
    medians: dict[str, list[float | None]] = {}
    for solver in sorted({r["solver"] for r in rows}):
        medians[solver] = [percentile([_series_time(r, request.time_key) for r in rows
                                       if r["solver"] == solver and r["set_name"] == name], 50) for name in sets]
    return {"sets": sets, "medians": medians}


def _series_time(r: dict, time_key: str) -> float:
    if solved_in_limit(r, time_key) or not r["time_limit"]:
        return max(r[time_key] or 0.0, TINY_TIME)
    return r["time_limit"]


def _draw_series(ax, data: dict, rows: list, request: Request) -> None:
    places = range(len(data["sets"]))
    for solver, medians in data["medians"].items():
        ax.plot(places, [math.nan if m is None else m for m in medians], marker=".", label=solver)
    _draw_time_limit(ax, rows, horizontal=True)
    ax.set_yscale("log")
    ax.set_xticks(places, data["sets"], rotation=60, ha="right", fontsize="small")
    ax.set_ylabel(f"median {_time_label(request.time_key)} per puzzle (s)")


for _entry in (
    Plot("cactus", _every_set, _draw_cactus, "cactus-{set}", "cactus plot", grid={"which": "both"}),
    Plot("ecdf", _every_set, _draw_ecdf, "ecdf-{set}", "ECDF of the solve times", grid={"which": "both"}),
    Plot("profile", _profile_data, _draw_profile, "profile-{set}", "performance profile (Dolan & Moré)",
         grid={"which": "both"}),
    Plot("scatter", _scatter_data, _draw_scatter, "scatter-{set}-{a}-vs-{b}",
         "per puzzle (timeouts/errors at the limit)", size=(5, 5), legend="page"),
    Plot("stats", _boxplot_data, _draw_boxplot, "{stat}-{set}", "{stat} per paradigm",
         size=lambda data: (max(4.0, 1.1 * len(data["values"]) + 2), 4.2), grid={"axis": "y", "which": "both"},
         legend="never", on_page=False),
    Plot("series", _series_data, _draw_series, "series", "median time per set, in the database's order",
         size=lambda data: (max(6.4, 0.45 * len(data["sets"]) + 2), 4.8), grid={"which": "both"},
         on_page=False, across_sets=True),
):
    register_plot(_entry)
