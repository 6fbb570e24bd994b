"""Two databases side by side (``report --compare A B``): per (set, solver, solution limit),
what changed from A to B over the puzzles both hold, paired by content, and whether each change
is more than chance (docs/METHODS.md).
"""

from __future__ import annotations

from statistics import median
from typing import Iterable

from ..crosscheck import FINISHED
from ..database import INPUT_SOLVER
from ..uncertainty import ALPHA, paired_time_test, solved_test
from .metrics import certified_of, percent
from .statistics import MetricOptions, certified_counts, group_noise, largest_limit, mean_or_none, outcome
from .tables import add_holm, noise_exceeds

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
    add_holm(out, ["p_solved", "p_time", "p_par"])
    for row in out:
        more = None if row["gained"] is None else row["gained"] - row["lost"]
        row["solved_change"] = _change(row["p_solved_holm"], more, "more", "fewer")
        row["time_change"] = _change(row["p_time_holm"], row["time_slower"], "slower", "faster")
        row["par_change"] = _change(row["p_par_holm"], row["par_slower"], "slower", "faster")
        row["noise_exceeds_difference"] = noise_exceeds(_relative_change(row["median_a"], row["median_b"]),
                                                         row["noise_a"], row["noise_b"])
    return [{key: row[key] for key in COMPARE_FIELDS} for row in out]


COMPARE_FIELDS = ("set", "solver", "limit", "time_limit_a", "time_limit_b", "puzzles_a", "puzzles_b", "paired",
                  "only_a", "only_b", "solved_a", "solved_b", "gained", "lost", "p_solved", "p_solved_holm",
                  "solved_change", "median_a", "median_b", "p_time", "p_time_holm", "time_change", "par_k",
                  "par_a", "par_b", "p_par", "p_par_holm", "par_change", "noise_a", "noise_b",
                  "noise_exceeds_difference", "differ", "certified_a", "certified_b")
"""The fields of a row of :func:`compare`, in the order of its CSV and JSON."""


def _compared(key: tuple, a: dict, b: dict, options: MetricOptions) -> dict:
    set_name, solver, limit = key
    common = [h for h in a if h in b]
    row = {"set": set_name, "solver": solver, "limit": "all" if limit == 0 else limit,
           "time_limit_a": largest_limit(a.values()), "time_limit_b": largest_limit(b.values()),
           "puzzles_a": len(a), "puzzles_b": len(b), "paired": len(common),
           "only_a": len(a) - len(common), "only_b": len(b) - len(common)}
    outcomes = {}
    for side, rows in (("a", a), ("b", b)):
        mine = outcomes[side] = [outcome(rows[h], options) for h in common]
        solved = [o.time for o in mine if o.solved]
        row[f"solved_{side}"] = len(solved) if common else None   # None: no puzzle to pair
        row[f"median_{side}"] = median(solved) if solved else None
        row[f"par_{side}"] = mean_or_none([o.par for o in mine])
        row[f"noise_{side}"] = group_noise(rows[h] for h in common)
        row[f"certified_{side}"] = certified_of(certified_counts([rows[h] for h in common]))
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
            f"({percent(max(n for n in (row['noise_a'], row['noise_b']) if n is not None))}) is larger than "
            f"the change in median ({percent(_relative_change(row['median_a'], row['median_b']))})"
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
