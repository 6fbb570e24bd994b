"""The tables of one database: the summary per (set, solver, solution limit) and the field's
standard metrics (PAR-k, the shifted geometric mean, wins, speed-up, a virtual best solver, the
paired tests), each row computed by the registry's entries (:mod:`.metrics`).
"""

from __future__ import annotations

from typing import Iterable

from ..database import INPUT_SOLVER
from ..uncertainty import ALPHA, holm
from .metrics import Group, Standing, computed_row, percent
from .statistics import (VIRTUAL_BEST, MetricOptions, PuzzleKey, best_outcome, group_noise, largest_limit, outcome,
                         shifted_geometric_mean, timed, wins_of)


def summarise(results: Iterable[dict], time_key: str = "t_total") -> list[dict]:
    """One summary row per (set, solver, limit), in order of first appearance; times from the
    column ``time_key`` (:data:`~.statistics.TIME_KEYS`); the fields are those of the tables
    ``summary`` and ``statistics`` of the registry (:data:`~.metrics.METRICS`, docs/METHODS.md)."""
    groups: dict[tuple, list[dict]] = {}
    set_order: dict[str, int] = {}
    solver_order: dict[str, int] = {}
    for r in timed(results):
        set_order.setdefault(r["set_name"], len(set_order))
        solver_order.setdefault(r["solver"], len(solver_order))
        groups.setdefault((r["set_name"], r["solver"], r["limit_"]), []).append(r)
    keys = sorted(groups, key=lambda k: (set_order[k[0]], solver_order[k[1]], k[2]))
    return [computed_row(Group(*key, groups[key], time_key), ("summary", "statistics")) for key in keys]


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
        wins = wins_of(outcomes, puzzles)
        time_limits = {solver: largest_limit(rows.values()) for solver, rows in by_solver.items()}
        if len(outcomes) >= 2:
            outcomes[VIRTUAL_BEST] = {p: best_outcome(o[p] for o in outcomes.values() if p in o) for p in puzzles}
            time_limits[VIRTUAL_BEST] = max((t for t in time_limits.values() if t is not None), default=None)
        baseline = outcomes.get(options.baseline)
        sgms = {solver: shifted_geometric_mean([o.capped for o in mine.values()], options.shift)
                for solver, mine in outcomes.items()}
        reference = options.baseline if baseline is not None else _fastest(sgms)
        noise = {solver: group_noise(rows.values()) for solver, rows in by_solver.items()}
        for solver, mine in outcomes.items():
            tested = solver != VIRTUAL_BEST and reference is not None and len(by_solver) >= 2
            standing = Standing(set_name, solver, limit, mine, options, time_limits[solver], sgms[solver],
                                None if solver == VIRTUAL_BEST else wins[solver], baseline, noise.get(solver),
                                reference if tested else None, outcomes[reference] if tested else {})
            out.append(computed_row(standing, ("standard",)))
    add_holm(out, ["p_time"])
    for row in out:
        row["verdict"] = _verdict(row)
        tested = row["reference"] not in (None, row["solver"]) and row["ratio"] is not None
        row["noise_exceeds_difference"] = noise_exceeds(abs(row["ratio"] - 1) if tested else None,
                                                         row["noise"], _noise_of(out, row))
    return out


def _fastest(sgms: dict[str, float | None]) -> str | None:
    """The solver of the least shifted geometric mean (the first of a tie), the reference of a
    set's paired tests when no baseline is named."""
    known = [(value, i, solver) for i, (solver, value) in enumerate(sgms.items())
             if value is not None and solver != VIRTUAL_BEST]
    return min(known)[2] if known else None


def add_holm(rows: list[dict], keys: list[str]) -> None:
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


def noise_exceeds(difference: float | None, *noises: float | None) -> bool | None:
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
            f"({percent(max(n for n in (row.get('noise'), _noise_of(metrics, row)) if n is not None))}) is larger "
            f"than the difference reported ({percent(abs(row['ratio'] - 1))})"
            for row in metrics if row.get("noise_exceeds_difference")]
