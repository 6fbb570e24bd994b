"""Benchmark of the difficulty rating: writes results/rating_bench.md and the plot
results/rating_correlation.png.

1. The human-technique solver, with guessing, solves every puzzle of top95 and top1465 to the
   verified solution, every deduction checked against that solution (a false elimination or
   placement stops the run); the time beside the reference ``mrv`` engine on the same puzzles.
2. How many puzzles of each public set use each technique.
3. Cross-validated correlations of the models (seed features, full features, with the Quine
   measure) against SE ratings and against Wang 2024's human solve times, beside the simple
   baselines measured on the same rows; the plot of the out-of-fold predictions.

    python benchmarks/bench_rating.py [--quine-se N] [--sets top95,top1465,...]
"""

from __future__ import annotations

import argparse
import csv
import time
from collections import Counter
from pathlib import Path

import numpy as np

from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.rating.model import correlations, cross_validate, fit
from puzzlebench.rating.profile import ALL_MOVES, FEATURE_SETS, feature_vector, profile_puzzle
from puzzlebench.techniques.ladder import HumanSolver, count_solutions
from puzzlebench.engines.mrv import MrvEngine
from puzzlebench.harness.pages import command_line, data_folder, load_now, write_page

DATA = data_folder()
SETS = {"top95": "sudoku9_norvig_top95.txt", "top1465": "sudoku9_magictour_top1465.txt",
        "se": "sudoku9_sudokuexchange_by_rating_sample.txt", "wang": "sudoku9_wang2024_human_records_train.csv"}
LEAD = ("The human-style solver checked step by step, how often each technique is used, and the rating's "
        "cross-validated correlations with Sudoku Explainer (SE) ratings and human solve times (Wang).")


def column(name: str, every: int, field: int, csv_field: str) -> list[str]:
    """A field of every ``every``-th puzzle of a set: a CSV's column, else a line's word."""
    path = DATA / SETS[name]
    if path.suffix == ".csv":
        return [row[csv_field] for row in csv.DictReader(path.open())][::every]
    return [line.split()[field] for line in path.read_text().splitlines() if line.strip()][::every]


def puzzles_of(name: str, every: int) -> list[str]:
    return column(name, every, 0, "puzzle")


def labels_of(name: str, every: int) -> list[float]:
    return [float(x) for x in column(name, every, 1, "avg_solve_time_s")]


def check_set(name: str, every: int) -> dict:
    """Solve every puzzle with every deduction checked; time beside mrv."""
    lines = puzzles_of(name, every)
    used = Counter()
    guesses = wrong = 0
    t0 = time.perf_counter()
    for line in lines:
        p = parse_sudoku_line(line)
        count, truth = count_solutions(p.box, p.givens)
        assert count == 1, f"{name}: not a proper puzzle: {line}"
        solver = HumanSolver(p.box, assume_unique=True, truth=truth)  # raises on a false deduction
        solved = next(solver.solutions(p.givens))
        if solved.values != truth or p.check(solved.values):
            wrong += 1
        used.update({t for t in (s.technique for s in solved.steps)})
        guesses += solver.guesses
    human_time = time.perf_counter() - t0
    t0 = time.perf_counter()
    mrv = MrvEngine()
    for line in lines:
        mrv.run(parse_sudoku_line(line), limit=2)
    mrv_time = time.perf_counter() - t0
    return {"name": name, "n": len(lines), "wrong": wrong, "guesses": guesses, "used": used,
            "human_s": human_time, "mrv_s": mrv_time}


def profiles(name: str, every: int, quine_every: int) -> tuple[list[dict], np.ndarray, list[bool], float]:
    lines, labels = puzzles_of(name, every), labels_of(name, every)
    rows, quine_rows = [], []
    t0 = time.perf_counter()
    for i, line in enumerate(lines):
        p = parse_sudoku_line(line)
        with_quine = quine_every > 0 and i % quine_every == 0
        prof = profile_puzzle(p.box, p.givens, quine=with_quine)
        assert prof.status == "unique", line
        rows.append(feature_vector(prof))
        quine_rows.append(with_quine and prof.quine is not None)
    return rows, np.array(labels), quine_rows, time.perf_counter() - t0


def evaluate(rows, y, names, *, transform, ridge, method="lstsq", k=5):
    X = np.array([[r.get(f, 0.0) for f in names] for r in rows])

    def fitter(a, b):
        return fit(a, b, names, name="cv", target="", transform=transform, method=method, ridge=ridge)
    pred = cross_validate(X, y, fitter, k=k, seed=1)
    return pred, correlations(pred, y)


def baseline(rows, y, feature):
    return correlations(np.array([r[feature] for r in rows]), y)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quine-se", type=int, default=5, help="Quine measure on every N-th SE puzzle (0: none)")
    ap.add_argument("--sets", default="top95,top1465")
    ap.add_argument("--limit", type=int, default=1, help="every N-th puzzle only (a smoke test)")
    ap.add_argument("--out", default="results/rating_bench.md", help="the page; its figure beside it")
    args = ap.parse_args()
    load_before = load_now()
    out = []

    # 1-2: correctness and techniques on the hard sets
    checks = [check_set(s, args.limit) for s in args.sets.split(",")]
    out += ["## Solving with guessing, every deduction checked against the solution", "",
            "| set | puzzles | wrong | guesses | human solver s | puzzles/s | mrv (reference) s |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for c in checks:
        out.append(f"| {c['name']} | {c['n']} | {c['wrong']} | {c['guesses']} | {c['human_s']:.1f} | "
                   f"{c['n'] / c['human_s']:.0f} | {c['mrv_s']:.1f} |")
    out += ["", "No false elimination or placement: the run stops at the first one "
            "(HumanSolver(truth=...) raises).", ""]

    # 3: rating data
    se_rows, se_y, se_q, se_t = profiles("se", args.limit, args.quine_se)
    wang_rows, wang_y, wang_q, wang_t = profiles("wang", args.limit, 1)
    used = {c["name"]: c["used"] for c in checks}
    for name, rows in (("se", se_rows), ("wang", wang_rows)):
        used[name] = Counter({t: sum(1 for r in rows if r[f"used:{t}"]) for t in ALL_MOVES})
    out += ["## Puzzles using each technique (on the path to the solution)", "",
            "| technique | " + " | ".join(used) + " |", "|---|" + "---:|" * len(used)]
    for t in ALL_MOVES:
        out.append(f"| {t} | " + " | ".join(str(used[s][t]) for s in used) + " |")
    out += ["", f"Profiling time (count + techniques + singles pass, plus Quine where computed): "
            f"SE {len(se_rows)} puzzles {se_t:.0f} s ({sum(se_q)} with Quine), "
            f"Wang {len(wang_rows)} puzzles {wang_t:.0f} s (all with Quine).", ""]

    table = ["## Cross-validated correlations (5-fold; 95 % CI by Fisher z)", "",
             "| data | model / baseline | rows | Pearson r | Spearman rho |", "|---|---|---:|---|---|"]
    preds = {}

    def add(data, label, corr):
        table.append(f"| {data} | {label} | {corr['pearson'].n} | {corr['pearson']} | {corr['spearman']} |")

    for f in ("clues", "candidates", "singles_left", "singles_options", "stuck_left"):
        add("SE", f"baseline: {f}", baseline(se_rows, se_y, f))
    for fs, method in (("seed", "lstsq"), ("seed", "anneal"), ("full", "lstsq")):
        pred, corr = evaluate(se_rows, se_y, FEATURE_SETS[fs], transform="none", ridge=1.0, method=method)
        add("SE", f"model {fs} ({method})", corr)
        preds.setdefault(("se", fs), pred)
    if any(se_q):
        sub = [r for r, q in zip(se_rows, se_q) if q]
        sy = se_y[np.array(se_q)]
        add("SE (Quine subsample)", "baseline: quine:disjunctions", baseline(sub, sy, "quine:disjunctions"))
        for fs in ("full", "full+quine"):
            add("SE (Quine subsample)", f"model {fs}", evaluate(sub, sy, FEATURE_SETS[fs], transform="none", ridge=1.0)[1])
        add("SE (Quine subsample)", "model quine only (Landreau, TIPE 2025, section 3)",
            evaluate(sub, sy, ["quine:depth", "quine:disjunctions", "quine:eliminations"], transform="none", ridge=1.0)[1])
    for f in ("clues", "candidates", "singles_left", "singles_options", "stuck_left", "quine:disjunctions"):
        add("Wang (seconds)", f"baseline: {f}", baseline(wang_rows, wang_y, f))
    for fs, method, ridge in (("seed", "lstsq", 200.0), ("seed", "anneal", 200.0), ("full", "lstsq", 1.0),
                              ("full", "lstsq", 200.0), ("full+quine", "lstsq", 200.0)):
        pred, corr = evaluate(wang_rows, wang_y, FEATURE_SETS[fs], transform="log", ridge=ridge, method=method)
        add("Wang (seconds)", f"model {fs} ({method}, log, ridge {ridge:g})", corr)
        if (fs, ridge) == ("full", 200.0):
            preds[("wang", "full")] = pred
    out += table + [""]

    # the plot
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 5))
    p = preds[("wang", "full")]
    c = correlations(p, wang_y)
    a.scatter(p, wang_y, s=6, alpha=0.5)
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel("predicted solve time (s), out of fold")
    a.set_ylabel("mean human solve time (s), Wang 2024")
    a.set_title(f"human times: Pearson {c['pearson'].r:.2f}, Spearman {c['spearman'].r:.2f} (n={len(p)})")
    p = preds[("se", "full")]
    c = correlations(p, se_y)
    jitter = np.random.default_rng(0).uniform(-0.04, 0.04, len(se_y))
    b.scatter(se_y + jitter, p, s=3, alpha=0.3)
    b.plot([2.5, 9.3], [2.5, 9.3], color="grey", lw=1)
    b.set_xlabel("Sudoku Explainer rating")
    b.set_ylabel("predicted SE rating, out of fold")
    b.set_title(f"SE ratings: Pearson {c['pearson'].r:.2f}, Spearman {c['spearman'].r:.2f} (n={len(p)})")
    fig.tight_layout()
    fig.savefig(Path(args.out).with_name("rating_correlation.png"), dpi=110)
    out += ["![Predicted against actual, out of fold: human solve times (left), SE ratings (right)]"
            "(rating_correlation.png)", "", "Full models, out-of-fold predictions. Reading and method: "
            "[rating.md](rating.md)."]
    print(write_page(args.out, title="Difficulty rating: benchmark figures", lead=LEAD, command=command_line(),
                     writer="benchmarks/bench_rating.py", loads=[load_before, load_now()], lines=out))


if __name__ == "__main__":
    main()
