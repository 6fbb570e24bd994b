"""Tables and plots from the results database.

Per set and solver (and solution limit):

- ``puzzles``, ``solved`` (unique, multiple, sat or unsat: a finished answer), ``timeouts``,
  ``errors``, ``wrong`` (answers that failed the puzzle's checker);
- over the solved puzzles: ``median``, ``mean``, ``p90`` and ``max`` of the total time (parse
  + encode + solve + decode, seconds); ``p90`` interpolates linearly between the two nearest
  ranks (Hyndman & Fan's type 7, numpy's default); ``puzzles_per_s`` = solved puzzles divided
  by the sum of their total times (one core's throughput, not the wall clock of a parallel run);
- ``peak_memory_mb``: the largest peak resident set of the worker over the set's runs;
- for each normalised statistic (nodes, guesses, backtracks, conflicts, propagations): its
  median and mean over the solved puzzles that report it (absent: the engine has no such
  counter);
- ``encode_mean`` and ``solve_mean`` (seconds) and ``encode_share`` = total encode time /
  (encode + solve).

Plots (matplotlib, PNG and SVG): a cactus plot per set (x: puzzles solved, y: the time within
which that many were solved, each solver's times sorted: the SAT competition's convention), a
per-puzzle scatter of two solvers on log axes (timeouts and errors drawn at the time limit),
and box plots of the nodes per solver.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from statistics import mean, median
from typing import Iterable

from ..results import STATISTICS
from .crosscheck import FINISHED



def percentile(values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (type 7)."""
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summarise(results: Iterable[dict]) -> list[dict]:
    """One summary row per (set, solver, limit), in order of first appearance."""
    groups: dict[tuple, list[dict]] = {}
    set_order: dict[str, int] = {}
    solver_order: dict[str, int] = {}
    for r in results:
        set_order.setdefault(r["set_name"], len(set_order))
        solver_order.setdefault(r["solver"], len(solver_order))
        groups.setdefault((r["set_name"], r["solver"], r["limit_"]), []).append(r)
    keys = sorted(groups, key=lambda k: (set_order[k[0]], solver_order[k[1]], k[2]))
    return [_summary(key, groups[key]) for key in keys]


def _summary(key: tuple, rows: list[dict]) -> dict:
    set_name, solver, limit = key
    solved = [r for r in rows if r["status"] in FINISHED]
    times = [r["t_total"] for r in solved]
    total_time = sum(times)
    out = {
        "set": set_name, "solver": solver, "limit": "all" if limit == 0 else limit,
        "puzzles": len(rows), "solved": len(solved),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "errors": sum(r["status"] == "error" for r in rows),
        "wrong": sum(bool(r["wrong"]) for r in rows),
        "median": median(times) if times else None,
        "mean": mean(times) if times else None,
        "p90": percentile(times, 90),
        "max": max(times) if times else None,
        "puzzles_per_s": len(solved) / total_time if total_time > 0 else None,
        "peak_memory_mb": max((r["peak_memory"] for r in rows if r["peak_memory"]), default=None),
    }
    if out["peak_memory_mb"] is not None:
        out["peak_memory_mb"] = out["peak_memory_mb"] / 2 ** 20
    for stat in STATISTICS:
        values = [r[stat] for r in solved if r[stat] is not None]
        out[f"{stat}_median"] = median(values) if values else None
        out[f"{stat}_mean"] = mean(values) if values else None
    enc = [r["t_encode"] for r in solved]
    sol = [r["t_solve"] for r in solved]
    out["encode_mean"] = mean(enc) if enc else None
    out["solve_mean"] = mean(sol) if sol else None
    out["encode_share"] = sum(enc) / (sum(enc) + sum(sol)) if enc and sum(enc) + sum(sol) > 0 else None
    return out


# -- formats -----------------------------------------------------------------------------------

MAIN = [("set", "set"), ("solver", "solver"), ("limit", "limit"), ("puzzles", "puzzles"),
        ("solved", "solved"), ("timeouts", "timeouts"), ("errors", "errors"),
        ("median", "median ms"), ("mean", "mean ms"), ("p90", "p90 ms"), ("max", "max ms"),
        ("puzzles_per_s", "puzzles/s"), ("peak_memory_mb", "peak MB"),
        ("encode_mean", "encode ms"), ("solve_mean", "solve ms")]
STATS = [("set", "set"), ("solver", "solver")] + [
    (f"{s}_{m}", f"{s} {m}") for s in STATISTICS for m in ("median", "mean")]
MILLIS = {"median", "mean", "p90", "max", "encode_mean", "solve_mean"}


def cell(key: str, value) -> str:
    if value is None:
        return "-"
    if key in ("puzzles", "solved", "timeouts", "errors", "wrong", "limit"):
        return str(value)
    if key in MILLIS:
        return f"{value * 1000:.3g}" if value < 0.1 else f"{value * 1000:.0f}"
    if key == "puzzles_per_s":
        return f"{value:.3g}" if value < 1000 else f"{value:,.0f}"
    if key == "peak_memory_mb":
        return f"{value:.1f}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _rows(summary: list[dict], columns) -> list[list[str]]:
    return [[cell(k, row.get(k)) for k, _ in columns] for row in summary]


def markdown(summary: list[dict]) -> str:
    def table(columns):
        head = "| " + " | ".join(h for _, h in columns) + " |"
        rule = "|" + "|".join("---" if k in ("set", "solver") else "---:" for k, _ in columns) + "|"
        return "\n".join([head, rule] + ["| " + " | ".join(r) + " |" for r in _rows(summary, columns)])
    stats_present = [c for c in STATS[2:] if any(row.get(c[0]) is not None for row in summary)]
    text = table(MAIN)
    if stats_present:
        text += "\n\nSearch statistics (over solved puzzles; - : the engine has no such counter)\n\n"
        text += table(STATS[:2] + stats_present)
    return text + "\n"


def csv_text(summary: list[dict]) -> str:
    buf = io.StringIO()
    if summary:
        writer = csv.DictWriter(buf, fieldnames=list(summary[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(summary)
    return buf.getvalue()


def latex(summary: list[dict]) -> str:
    def esc(text: str) -> str:
        text = text.replace("\\", r"\textbackslash ")
        for ch in "_%&#$":
            text = text.replace(ch, "\\" + ch)
        return text
    spec = "ll" + "r" * (len(MAIN) - 2)
    lines = [r"\begin{tabular}{" + spec + "}", r"\hline",
             " & ".join(esc(h) for _, h in MAIN) + r" \\", r"\hline"]
    lines += [" & ".join(esc(c) for c in r) + r" \\" for r in _rows(summary, MAIN)]
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def render(summary: list[dict], fmt: str) -> str:
    if fmt == "md":
        return markdown(summary)
    if fmt == "csv":
        return csv_text(summary)
    if fmt == "latex":
        return latex(summary)
    if fmt == "json":
        return json.dumps(summary, indent=1) + "\n"
    raise ValueError(fmt)


# -- plots -------------------------------------------------------------------------------------

def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, out: Path, name: str) -> list[Path]:
    paths = []
    for ext in ("png", "svg"):
        path = out / f"{name}.{ext}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
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


def cactus(results: list[dict], out: Path) -> list[Path]:
    plt = _pyplot()
    paths = []
    for set_name, rows in _by_set(results).items():
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        solvers = sorted({r["solver"] for r in rows})
        for solver in solvers:
            times = sorted(max(r["t_total"], 1e-7) for r in rows if r["solver"] == solver and r["status"] in FINISHED)
            if times:
                ax.plot(range(1, len(times) + 1), times, marker="." if len(times) < 60 else None, label=solver)
        ax.set_yscale("log")
        ax.set_xlabel("puzzles solved")
        ax.set_ylabel("time per puzzle (s), sorted")
        ax.set_title(f"{set_name}: cactus plot")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
        paths += _save(fig, out, f"cactus-{_slug(set_name)}")
        plt.close(fig)
    return paths


def scatter(results: list[dict], out: Path, pair: tuple[str, str] | None = None) -> list[Path]:
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
        cap = max((r["time_limit"] or 0) for r in rows) or max(r["t_total"] for r in rows)
        xs, ys = [], []
        for both in per.values():
            if a in both and b in both:
                xs.append(_plotted_time(both[a], cap))
                ys.append(_plotted_time(both[b], cap))
        if not xs:
            continue
        fig, ax = plt.subplots(figsize=(5, 5))
        ax.scatter(xs, ys, s=8, alpha=0.6)
        lo, hi = min(xs + ys) / 2, cap * 1.5
        ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_xlabel(f"{a} time (s)")
        ax.set_ylabel(f"{b} time (s)")
        ax.set_title(f"{set_name}: per puzzle (timeouts/errors at the limit)")
        paths += _save(fig, out, f"scatter-{_slug(set_name)}-{_slug(a)}-vs-{_slug(b)}")
        plt.close(fig)
    return paths


def _named(name: str | None, solvers: list[str]) -> str | None:
    """The solver spec ``name`` stands for: itself, or a family's only spec (``cpsat`` for
    ``cpsat:int``)."""
    if name in solvers:
        return name
    matches = [s for s in solvers if name and s.split("@")[0].split(":")[0] == name]
    return matches[0] if len(matches) == 1 else None


def _plotted_time(r: dict, cap: float) -> float:
    return cap if r["status"] not in FINISHED else max(r["t_total"], 1e-7)


def stats_boxplot(results: list[dict], out: Path, stat: str = "nodes") -> list[Path]:
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


PLOTS = {"cactus": cactus, "scatter": scatter, "stats": stats_boxplot}
