"""CNF benchmark: building the extended 9x9 CNF, the end-to-end SAT paradigm (encode + solve
+ decode + verify, limit 2) per PySAT solver and encoding, and the Quine engine's time per
puzzle.  Writes results/cnf.md with the command and the machine load.

    python benchmarks/bench_cnf.py [--hardest 3000] [--quine 25] [--solvers glucose4,minisat22]

Reference figures (tdoku's benchmark, minisat with its best encoding, same machine kind):
2,090 puzzles/s on top1465, 459/s on forum hardest 11+.  In the same run the DLX C engine and
mrv run on the same puzzles for scale.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data"

from puzzlebench.encoders.cnf import encode  # noqa: E402
from puzzlebench.harness.registry import make_engine  # noqa: E402
from puzzlebench.models.sudoku import parse_sudoku_line  # noqa: E402
from puzzlebench.solvers.quine import QuineEngine  # noqa: E402
from puzzlebench.solvers.sat import SatEngine  # noqa: E402


def load(name: str, limit: int | None = None, step: int = 1):
    path = DATA / name
    if not path.exists():
        sys.exit(f"data set {name} not found at {DATA}")
    lines = [l.split()[0] for l in path.read_text().splitlines() if l.strip() and not l.startswith("#")]
    lines = lines[::step]
    return [parse_sudoku_line(l) for l in (lines[:limit] if limit else lines)]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def rate(engine, puzzles) -> tuple[float, dict]:
    start = time.perf_counter()
    results = [engine.run(p, limit=2) for p in puzzles]
    elapsed = time.perf_counter() - start
    statuses: dict[str, int] = {}
    for r in results:
        statuses[str(r.status)] = statuses.get(str(r.status), 0) + 1
    return len(puzzles) / elapsed, statuses


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hardest", type=int, default=3000, help="forum hardest sample size")
    ap.add_argument("--quine", type=int, default=25, help="top1465 puzzles for the Quine engine")
    ap.add_argument("--quine-time-limit", type=float, default=30.0)
    ap.add_argument("--solvers", default="glucose4,minisat22,glucose3,maplechrono")
    ap.add_argument("--encodings", default="extended,efficient,minimal,optimized")
    ap.add_argument("--out", default=str(REPO / "results" / "cnf.md"))
    args = ap.parse_args()
    command = "python " + " ".join([os.path.relpath(__file__, REPO)] + sys.argv[1:])
    lines = [f"# CNF / SAT / Quine benchmark\n", f"Command: `{command}`  ", f"Load before: `{uptime()}`  ",
             f"Machine: {os.cpu_count()} cores; Python {sys.version.split()[0]}\n"]

    top = load("sudoku9_magictour_top1465.txt")
    hardest = load("sudoku9_forum_hardest_1905_11plus.txt", args.hardest,
                   step=max(1, 48766 // max(1, args.hardest)))

    # 1. building the extended 9x9 CNF of one puzzle (the shape's formula cached + givens)
    encode(top[0], "extended")  # the shape's formula, built once
    n = len(top)
    t = time.perf_counter()
    for p in top:
        encode(p, "extended")
    per = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for p in top[:200]:
        encode(p, "optimized")
    per_opt = (time.perf_counter() - t) / 200
    lines += ["## Building the CNF of one 9x9 puzzle\n",
              "| encoding | ms per puzzle | target |", "|---|---:|---|",
              f"| extended (shape formula cached + one unit per given) | {per * 1000:.4f} | < 1 ms: "
              f"{'met' if per < 1e-3 else 'NOT met'} |",
              f"| optimized (givens propagated away, per puzzle) | {per_opt * 1000:.3f} | |", ""]

    # 2. end-to-end SAT, limit 2
    lines += ["## End-to-end SAT (encode + solve + decode + verify, limit 2), puzzles/s\n",
              f"top1465: all {len(top)}; forum hardest 11+: {len(hardest)} (every "
              f"{max(1, 48766 // max(1, args.hardest))}th line).\n",
              "| solver | encoding | top1465 | hardest 11+ | statuses |", "|---|---|---:|---:|---|"]
    best = {"top": (0, ""), "hard": (0, "")}
    for solver in args.solvers.split(","):
        for encoding in args.encodings.split(","):
            engine = SatEngine(solver, {"encoding": encoding})
            sample_top = top if encoding != "optimized" else top[:300]
            sample_hard = hardest if encoding != "optimized" else hardest[:300]
            r1, s1 = rate(engine, sample_top)
            r2, s2 = rate(engine, sample_hard)
            lines.append(f"| sat:{solver} | {encoding} | {r1:,.0f} | {r2:,.0f} | {s1} {s2} |")
            print(lines[-1], flush=True)
            best["top"] = max(best["top"], (r1, f"sat:{solver}@encoding={encoding}"))
            best["hard"] = max(best["hard"], (r2, f"sat:{solver}@encoding={encoding}"))
    for spec in ("dlx", "mrv"):
        try:
            engine = make_engine(spec)
        except Exception as exc:  # noqa: BLE001
            lines.append(f"| {spec} | (not available: {exc}) | | | |")
            continue
        sample = top if spec == "dlx" else top[:100]
        r1, s1 = rate(engine, sample)
        r2, s2 = rate(engine, hardest if spec == "dlx" else hardest[:100])
        lines.append(f"| {spec} (same run, for scale) | – | {r1:,.0f} | {r2:,.0f} | {s1} {s2} |")
    lines += ["", f"Best: top1465 {best['top'][0]:,.0f}/s ({best['top'][1]}), target 2,090/s: "
              f"{'met' if best['top'][0] >= 2090 else 'NOT met'}; hardest 11+ {best['hard'][0]:,.0f}/s "
              f"({best['hard'][1]}), target 459/s: {'met' if best['hard'][0] >= 459 else 'NOT met'}.", ""]

    # 3. Quine
    sample = top[::max(1, len(top) // max(1, args.quine))][:args.quine]
    lines += ["## Quine dilemma engine (Python), top1465 sample, limit 2\n",
              f"{len(sample)} puzzles (every {max(1, len(top) // max(1, args.quine))}th), time limit "
              f"{args.quine_time_limit}s each.\n",
              "| heuristic | median s | max s | timeouts | median max depth | median disjunctions |",
              "|---|---:|---:|---:|---:|---:|"]
    for h in ("h1",):
        engine = QuineEngine(h)
        results = [engine.run(p, limit=2, time_limit=args.quine_time_limit) for p in sample]
        times = [r.times.total for r in results]
        lines.append(f"| {h} | {statistics.median(times):.3f} | {max(times):.3f} | "
                     f"{sum(str(r.status) == 'timeout' for r in results)} | "
                     f"{statistics.median(r.stats.raw.get('max_depth', 0) for r in results)} | "
                     f"{statistics.median(r.stats.nodes or 0 for r in results)} |")
        print(lines[-1], flush=True)
    lines += ["", f"Load after: `{uptime()}`", ""]
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
