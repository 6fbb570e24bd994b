"""SE's ladder, two versions of the code on the same puzzles in the same run: the CPU time per
puzzle of bench_rating_hard.py's hard sample (240 puzzles SE >= 6.0 of
../shared/data/sudoku9_sudokuexchange_by_rating_sample.txt), rated by the tree REF (e.g. a
worktree of main) and by this tree, each in its own process, alternately, ``--rounds`` times
(the machine is shared: a puzzle's time is its lowest over the rounds).  Prints median, p90,
p99 and max per tree and the ratios this tree / REF (the median of the per-puzzle ratios,
and the ratio of the medians).  No time limit, no solution check: the ladder alone.

    python benchmarks/compare_rating_speed.py REF_TREE [--rounds 3] [--every K]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]


def times(tree: str, every: int) -> list[float]:
    """CPU ms per puzzle of the hard sample, rated by the code of ``tree`` (run in a child)."""
    sys.path.insert(0, tree)
    sys.path.insert(0, str(Path(tree) / "benchmarks"))
    import time

    import puzzlebench
    from check_rating_unchanged import puzzles
    from puzzlebench.models.sudoku import parse_sudoku_line
    from puzzlebench.rating.profile import se_ladder
    if not Path(puzzlebench.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"puzzlebench: error: {tree}: its puzzlebench was not the one imported")
    out = []
    for line in [p for p, _, hard in puzzles() if hard][::every]:
        p = parse_sudoku_line(line)
        t0 = time.process_time()
        se_ladder(p.box, p.givens, seconds=None)
        out.append((time.process_time() - t0) * 1000)
    return out


def pct(q: float, xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q / 100 * len(xs)) - 1))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("ref", help="the tree of the reference code (a checkout or worktree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--every", type=int, default=1, help="every k-th puzzle only")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(times(args.child, args.every)))
        return 0
    if not (Path(args.ref) / "puzzlebench" / "__init__.py").is_file():
        print(f"puzzlebench: error: {args.ref}: no puzzlebench package in that tree", file=sys.stderr)
        return 2
    trees = {"reference": str(Path(args.ref).resolve()), "this tree": str(ROOT)}
    runs: dict[str, list[list[float]]] = {name: [] for name in trees}
    for r in range(args.rounds):
        for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
            out = subprocess.run([sys.executable, str(HERE), args.ref, "--every", str(args.every),
                                  "--child", trees[name]], capture_output=True, text=True, check=True)
            runs[name].append(json.loads(out.stdout))
    best = {name: [min(v) for v in zip(*rs)] for name, rs in runs.items()}
    print(f"{len(best['this tree'])} puzzles, {args.rounds} rounds alternating; CPU ms per puzzle "
          f"(lowest over the rounds)")
    print("| code | median | p90 | p99 | max | medians of the rounds |")
    print("|---|---:|---:|---:|---:|---|")
    for name, xs in best.items():
        rounds = ", ".join(f"{statistics.median(r):.1f}" for r in runs[name])
        print(f"| {name} ({trees[name]}) | {statistics.median(xs):.1f} | {pct(90, xs):.0f} | "
              f"{pct(99, xs):.0f} | {max(xs):.0f} | {rounds} |")
    ref, new = best["reference"], best["this tree"]
    print(f"\nthis tree / reference: median of the per-puzzle ratios "
          f"{statistics.median(b / a for a, b in zip(ref, new)):.3f}, ratio of the medians "
          f"{statistics.median(new) / statistics.median(ref):.3f}, of the totals {sum(new) / sum(ref):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
