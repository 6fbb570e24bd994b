"""Does ``report --compare`` tell noise from a change?  Two targets, on real benches:

- *same engine*: two benches of one fast engine (bitboard) on the same 200 9x9 puzzles (a
  seeded sample of magictour's top 1465) are "within noise" (no change in solved, time or
  PAR-2 significant at 0.05 after Holm) in at least 9 of 10 seeded repetitions, each a new
  sample; by wall time and by CPU time;
- *different engines*: bitboard against mrv on one such sample, as ``report --baseline mrv``
  tests it: significant, and the speed-up's 95% interval excludes 1.

Benches through the real ``run_bench`` (one worker, the default time limit); the figures from
the report's own functions.  Writes ``results/compare.md``.

    python benchmarks/bench_compare_noise.py [--repetitions 10] [--puzzles 200]
"""

from __future__ import annotations

import argparse
import os
import tempfile

import numpy as np

from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.inputs import read_file, sample
from puzzlebench.harness.report import MetricOptions, compare, median_runs, standard_metrics
from puzzlebench.harness.pages import command_line, data_folder, load_now, splice_section, write_page

DATA = data_folder()

PUZZLES = DATA / "sudoku9_magictour_top1465.txt"
CLOCKS = {"wall": "t_total", "CPU": "t_cpu"}
CHANGES = ("solved_change", "time_change", "par_change")
LEAD = ("Whether `report --compare` tells run-to-run noise from a real change: one engine against itself ten times, "
        "then bitboard against mrv.")


def bench(items, solvers: list[str], folder: str, name: str) -> list:
    cfg = BenchConfig(solvers=solvers, db=os.path.join(folder, f"{name}.sqlite"), quiet=True, jobs=1)
    outcome = run_bench(items, cfg)
    assert outcome.errors == 0, "the bench itself failed"
    return median_runs(outcome.results)


def drift(a: list, b: list, key: str) -> float:
    """The median over the puzzles of B's time over A's, less 1: how far the second run moved."""
    times = {r["puzzle_hash"]: r[key] for r in a}
    return float(np.median([r[key] / times[r["puzzle_hash"]] for r in b])) - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--puzzles", type=int, default=200)
    parser.add_argument("--out", default="results/compare.md")
    args = parser.parse_args()
    everything, load = read_file(str(PUZZLES)), load_now()
    same_rows = []
    within = {clock: 0 for clock in CLOCKS}
    drifts: dict[str, list[float]] = {clock: [] for clock in CLOCKS}
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.repetitions):
            items = sample(everything, args.puzzles, seed)
            a = bench(items, ["bitboard"], folder, f"a{seed}")
            b = bench(items, ["bitboard"], folder, f"b{seed}")
            cells = []
            for clock, key in CLOCKS.items():
                row = compare(a, b, MetricOptions(time_key=key))[0]
                quiet = all(row[c] == "within noise" for c in CHANGES)
                within[clock] += quiet
                drifts[clock].append(drift(a, b, key))
                cells += [f"{row['median_a'] * 1e6:.0f} / {row['median_b'] * 1e6:.0f}", f"{drifts[clock][-1]:+.1%}",
                          f"{row['p_time_holm']:.3f}", "within noise" if quiet else
                          ", ".join(f"{c.split('_')[0]}: {row[c]}" for c in CHANGES if row[c] != "within noise")]
            same_rows.append(f"| {seed} | {row['paired']} | " + " | ".join(cells) + " |")
            print(same_rows[-1], flush=True)
        items = sample(everything, args.puzzles, 0)
        both = bench(items, ["bitboard", "mrv"], folder, "apart")
        apart_rows = []
        for clock, key in CLOCKS.items():
            metrics = {m["solver"]: m for m in standard_metrics(both, MetricOptions(baseline="mrv", time_key=key))}
            m = metrics["bitboard"]
            excludes = m["speedup_lo"] is not None and (m["speedup_lo"] > 1 or m["speedup_hi"] < 1)
            apart_rows.append(f"| {clock} | {m['paired']} | {m['speedup']:.1f} | [{m['speedup_lo']:.1f}, "
                              f"{m['speedup_hi']:.1f}] | {m['p_time_holm']:.2g} | {m['verdict']} | "
                              f"{'met' if excludes and m['verdict'] == 'faster than mrv' else 'missed'} |")
            print(apart_rows[-1], flush=True)
    need = -(-9 * args.repetitions // 10)
    verdicts = "; ".join(f"{clock}: {n} of {args.repetitions} within noise ({'met' if n >= need else 'missed'})"
                         for clock, n in within.items())
    same = [f"Two benches of bitboard, one after the other, on the same {args.puzzles} puzzles of {PUZZLES.name} (a new "
            "seeded sample each repetition). Within noise: no change (solved, time, PAR-2) significant at 0.05 after "
            f"Holm. Target: at least {need} of {args.repetitions}. **{verdicts}.**", "",
            "| seed | paired | wall median µs A / B | wall drift | wall p time (Holm) | wall verdict | "
            "CPU median µs A / B | CPU drift | CPU p time (Holm) | CPU verdict |",
            "|---:|---:|---:|---:|---:|---|---:|---:|---:|---|", *same_rows, "",
            f"Drift: the median over the puzzles of B's time over A's, less 1: wall time at most "
            f"{max(map(abs, drifts['wall'])):.1%} (the median run {np.median(np.abs(drifts['wall'])):.1%}), CPU time "
            f"at most {max(map(abs, drifts['CPU'])):.1%}."]
    write_page(args.out, title="`report --compare`: noise against a change", lead=LEAD, command=command_line(),
               writer="benchmarks/bench_compare_noise.py", loads=[load, load_now()],
               lines=["## The same engine twice", "", *same])
    splice_section(args.out, "## bitboard against mrv", [
        "One bench of both on the sample of seed 0, as `report --baseline mrv` tests it (Wilcoxon on the paired log "
        "times, Holm; the speed-up's paired bootstrap interval). Target: significant, the interval excluding 1.", "",
        "| clock | paired | speed-up | 95% CI | p (Holm) | difference | target |", "|---|---:|---:|---:|---:|---|---|",
        *apart_rows])
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
