"""Rating at the hard end: SE's rule on SE's ladder against the fitted model, on the public Sudoku
Exchange sample; writes results/rating_hard.md.

Each puzzle of a *hard* sample (SE >= 6.0) and a *wide* one (the whole range), every k-th line of
the file sorted by SE rating, is profiled once with SE's ladder, every deduction checked against
the solution (a false one stops the run); the **default score** (SE's rule where the ladder solves
the puzzle in time, the model beyond) and the **baseline** (the model alone) are set against SE's
rating, with the ladder's CPU time beside the human solver's on the same puzzles.  ``--check N``:
the ladder on N hard and diabolical bucket puzzles, every step checked against the published
solution.

    python benchmarks/bench_rating_hard.py [--hard 240] [--wide 160] [--time-limit 10] [--check 300]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter, defaultdict

import numpy as np

from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.rating import builtin_model, rate_profile
from puzzlebench.rating.model import correlations
from puzzlebench.rating.profile import feature_vector, profile_puzzle, se_ladder
from puzzlebench.techniques.ladder import count_solutions
from puzzlebench.harness.pages import command_line, data_folder, load_now, spread, write_page
from puzzlebench.harness.report import percentile

DATA = data_folder() / "sudoku9_sudokuexchange_by_rating_sample.txt"
BUCKETS = data_folder() / "sudoku9_sudokuexchange_buckets_500each_with_solutions.txt"
LEAD = ("How the default score (Sudoku Explainer's rule on SE's ladder) agrees with SE's ratings at the hard end "
        "and over the whole range, how often it still guesses, and its CPU time per hard puzzle.")
SINGLE_STEPS = {"last free cell", "hidden single", "naked single", "pointing pair", "box-line reduction",
                "naked pair", "hidden pair", "naked triple", "hidden triple"}


def measure(puzzle: str, se: float, seconds: float) -> dict:
    p = parse_sudoku_line(puzzle)
    count, truth = count_solutions(p.box, p.givens)
    assert count == 1, puzzle
    # truth: every deduction of the human solver and of the ladder checked (AssertionError);
    # profile_puzzle(ladder=True) in two parts, each timed in CPU seconds (the machine is
    # shared): the reference (the human solver and the profile), then SE's ladder
    t0 = time.process_time()
    prof = profile_puzzle(p.box, p.givens, truth=truth)
    human_cpu = time.process_time() - t0
    t0 = time.process_time()
    prof.ladder = se_ladder(p.box, p.givens, seconds=seconds, truth=truth)
    ladder_cpu = time.process_time() - t0
    model = builtin_model("se")
    r = rate_profile(prof, model)
    return {"se": se, "score": r.score, "baseline": model.predict_row(feature_vector(prof)),
            "ladder": prof.ladder.status, "ladder_s": ladder_cpu,
            "human_s": human_cpu, "hardest": r.hardest,
            "baseline_hardest": prof.hardest}


def check_published(k: int, seconds: float) -> tuple[int, Counter, int, float]:
    """Solve k hard/diabolical bucket puzzles with the ladder, every step checked against the
    published solution (an AssertionError names a false step); steps per technique."""
    rows = [ln.split() for ln in BUCKETS.read_text().splitlines() if ln.strip()]
    rows = spread([r for r in rows if r[2] in ("hard", "diabolical")], k)
    steps, beyond = Counter(), 0
    t0 = time.perf_counter()
    for puzzle, solution, *_ in rows:
        p = parse_sudoku_line(puzzle)
        truth = tuple(int(c) for c in solution)
        lad = se_ladder(p.box, p.givens, seconds=seconds, truth=truth)
        steps.update(s.technique for s in lad.steps)
        beyond += lad.status != "solved"
    return len(rows), steps, beyond, time.perf_counter() - t0


def spearman(xs, ys):
    return correlations(np.array(xs, dtype=float), np.array(ys, dtype=float))["spearman"]


def exact(xs, ys):
    return sum(1 for x, y in zip(xs, ys) if round(x, 1) == round(y, 1)) / len(xs)


def within(xs, ys, d):
    return sum(1 for x, y in zip(xs, ys) if abs(x - y) <= d + 1e-9) / len(xs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hard", type=int, default=240, help="puzzles of the hard sample (SE >= 6.0)")
    ap.add_argument("--wide", type=int, default=160, help="puzzles of the wide sample (whole range)")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle for the ladder")
    ap.add_argument("--check", type=int, default=300, help="bucket puzzles checked against published solutions")
    ap.add_argument("--out", default="results/rating_hard.md")
    args = ap.parse_args()
    rows = [(ln.split()[0], float(ln.split()[1])) for ln in DATA.read_text().splitlines() if ln.strip()]
    hard_lines = spread([r for r in rows if r[1] >= 6.0], args.hard)
    wide_lines = spread(rows, args.wide)
    load_before = load_now()
    t0 = time.perf_counter()
    seen: dict[str, dict] = {}
    for puzzle, se in hard_lines + wide_lines:
        if puzzle not in seen:
            seen[puzzle] = measure(puzzle, se, args.time_limit)
    wall = time.perf_counter() - t0
    load_after = load_now()
    hard = [seen[p] for p, _ in hard_lines]
    wide = [seen[p] for p, _ in wide_lines]
    wide_all = wide + [m for m in hard if m not in wide]  # the wide range, hard end included

    out = [f"Data: `{DATA.name}`, the public set of that name (SE ratings 2.5-9.3); hard sample: {len(hard)} "
           f"puzzles SE >= 6.0, every k-th of the file; wide sample: {len(wide)} puzzles over the whole range, plus "
           f"the hard sample ({len(wide_all)} in all).  Wall time {wall:.0f} s.", "",
           "Every deduction of the ladder and of the human solver was checked against the solution (none false: the "
           "run stops at the first).", "",
           "## Agreement with SE", "",
           "| sample | score | n | Spearman rho (95 % CI) | exact (0.1) | within 0.3 |",
           "|---|---|---:|---|---:|---:|"]
    for name, ms in (("hard (SE >= 6.0)", hard), ("wide (2.5-9.3)", wide_all)):
        se = [m["se"] for m in ms]
        for label, key in (("default (SE rule, model beyond the ladder)", "score"),
                           ("baseline: model only", "baseline")):
            xs = [m[key] for m in ms]
            out.append(f"| {name} | {label} | {len(ms)} | {spearman(xs, se)} | "
                       f"{100 * exact(xs, se):.1f} % | {100 * within(xs, se, 0.3):.1f} % |")
    upto9 = [m for m in hard + wide if m["se"] <= 9.0]
    upto9 = list({id(m): m for m in upto9}.values())
    beyond = sum(1 for m in upto9 if m["ladder"] != "solved")
    base_guess = sum(1 for m in upto9 if m["baseline_hardest"] == "guess")
    timeouts = sum(1 for m in seen.values() if m["ladder"] == "timeout")
    out += ["", "## Guessing", "",
            f"Puzzles SE rates <= 9.0 whose hardest step is still a guess: **{beyond} of {len(upto9)} "
            f"({100 * beyond / len(upto9):.1f} %)** with SE's ladder (beyond it: "
            f"{sum(1 for m in upto9 if m['ladder'] == 'beyond')}, timed out: "
            f"{sum(1 for m in upto9 if m['ladder'] == 'timeout')}); baseline (the human solver's "
            f"techniques): {base_guess} ({100 * base_guess / len(upto9):.1f} %).  Timeouts over all "
            f"{len(seen)} puzzles: {timeouts}.", ""]
    lad = [m["ladder_s"] for m in hard]
    hum = [m["human_s"] for m in hard]
    ratio = statistics.median(lad) / statistics.median(hum)
    out += ["## Time per hard puzzle (SE >= 6.0)", "",
            "CPU time of the process (`time.process_time`), every deduction checked against the "
            "solution as it is made; the time limit is wall time.", "",
            "| solver | median ms | p90 ms | p99 ms | max ms |", "|---|---:|---:|---:|---:|",
            f"| SE ladder (time limit {args.time_limit:g} s) | {1000 * statistics.median(lad):.0f} | "
            f"{1000 * percentile(lad, 90):.0f} | {1000 * percentile(lad, 99):.0f} | {1000 * max(lad):.0f} |",
            f"| reference: human solver with guessing + profile (same puzzles, same run) | "
            f"{1000 * statistics.median(hum):.0f} | {1000 * percentile(hum, 90):.0f} | {1000 * percentile(hum, 99):.0f} | "
            f"{1000 * max(hum):.0f} |", "",
            f"Median ratio ladder / reference: {ratio:.1f}.", ""]
    by = defaultdict(list)
    for m in hard:
        by[m["hardest"] if m["ladder"] == "solved" else f"({m['ladder']})"].append(m)
    out += ["## Confusion by hardest technique (hard sample)", "",
            "| hardest step | puzzles | exact | mean score − SE | mean SE |", "|---|---:|---:|---:|---:|"]
    for t, ms in sorted(by.items(), key=lambda kv: -len(kv[1])):
        out.append(f"| {t} | {len(ms)} | {100 * exact([m['score'] for m in ms], [m['se'] for m in ms]):.0f} % | "
                   f"{statistics.mean(m['score'] - m['se'] for m in ms):+.2f} | "
                   f"{statistics.mean(m['se'] for m in ms):.2f} |")
    bands = defaultdict(list)
    for m in hard:
        bands[math.floor(m["se"])].append(m)
    out += ["", "## By SE band (hard sample)", "",
            "| SE | puzzles | ladder solved | exact | mean score − SE |", "|---|---:|---:|---:|---:|"]
    for b, ms in sorted(bands.items()):
        out.append(f"| {b}.x | {len(ms)} | {sum(m['ladder'] == 'solved' for m in ms)} | "
                   f"{100 * exact([m['score'] for m in ms], [m['se'] for m in ms]):.0f} % | "
                   f"{statistics.mean(m['score'] - m['se'] for m in ms):+.2f} |")
    if args.check:
        k, steps, beyond, seconds = check_published(args.check, args.time_limit)
        chain = {t: c for t, c in steps.items() if t not in SINGLE_STEPS}
        out += ["", "## Checked against published solutions", "",
                f"{k} puzzles of the hard and diabolical buckets of `{BUCKETS.name}` (every k-th), "
                f"solved by the ladder with every elimination and placement checked against the "
                f"published solution: **no false step** in {sum(steps.values())} steps "
                f"({seconds:.0f} s; {beyond} needed a guess or timed out).  Steps checked, by "
                "technique (singles and the basic subsets left out):", "",
                "| technique | steps |", "|---|---:|"]
        out += [f"| {t} | {c} |" for t, c in sorted(chain.items(), key=lambda kv: -kv[1])]
    print(write_page(args.out, title="Rating at the hard end: SE's rule on SE's ladder", lead=LEAD,
                     command=command_line(), writer="benchmarks/bench_rating_hard.py", loads=[load_before, load_after],
                     lines=out))


if __name__ == "__main__":
    main()
