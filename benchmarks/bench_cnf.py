"""CNF benchmark: building a 9x9 CNF, the end-to-end SAT paradigm (``SatEngine.run``: encode +
solve + decode + verify, limit 2, with a time limit as the harness always passes one) per
PySAT solver and encoding, and the Quine engine's time per puzzle.  Writes results/cnf.md with
the command and the load.

    python benchmarks/bench_cnf.py [--hardest 1000] [--quine 25] [--repeats 3]
        [--solvers minisat22,glucose3,glucose4,ergo] [--encodings augmented,extended,...]

Rates are puzzles per second of CPU time of this process (``time.process_time``: what another
process on the machine takes does not count) and of wall-clock time, each the best of
``--repeats`` runs, each run on a new engine.  Reference figures (tdoku's benchmark, minisat
with its best encoding, same machine kind): 2,090 puzzles/s on top1465, 459/s on forum
hardest 11+.  The DLX C engine and mrv run on the same puzzles for scale.  The page's sections
on the kept solver's rebuild policy and on where a puzzle's time goes were measured by this
script in the tree at 8c9a24d and are kept as the page has them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import puzzlebench.engines.sat as sat
from puzzlebench.encoders.cnf import encode
from puzzlebench.engines.quine import QuineEngine
from puzzlebench.engines.registry import make_engine
from puzzlebench.engines.sat import SatEngine
from puzzlebench.harness.pages import NOTES, command_line, data_lines, load_now, md_table, spread, timed, write_page
from puzzlebench.models.sudoku import parse_sudoku_line

TOP_TARGET, HARD_TARGET = 2090, 459
LEAD = ("Building the CNF, the SAT paradigm end to end per PySAT solver and encoding, the kept solver's rebuild "
        "policy, where a puzzle's time goes, and the Quine engine's time.")
KEPT = ("## Rebuild policy of the kept solver (`sat:glucose3@encoding=extended`), puzzles/s (CPU, best of 3)",
        "## Reading", "## Design notes", NOTES)   # written by hand, or by the script at 8c9a24d


def load(name: str, count: int | None = None):
    lines = data_lines(name)
    return [parse_sudoku_line(line.split()[0]) for line in (lines if count is None else spread(lines, count))]


def run_set(make, puzzles, time_limit, repeats: int) -> tuple[float, float, dict, float]:
    """(best CPU rate, best wall rate, statuses, conflicts per puzzle), each run on a new engine."""
    best_cpu = best_wall = 0.0
    for _ in range(repeats):
        engine = make()
        engine.run(puzzles[0], limit=2, time_limit=time_limit)  # the shape's formula, the solver
        results, wall, cpu = timed(lambda: [engine.run(p, limit=2, time_limit=time_limit) for p in puzzles])
        best_cpu, best_wall = max(best_cpu, len(puzzles) / cpu), max(best_wall, len(puzzles) / wall)
    return (best_cpu, best_wall, Counter(str(r.status) for r in results),
            sum(r.stats.conflicts or 0 for r in results) / len(results))


def said(statuses: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))


def building(top: list) -> list[str]:
    """The time to build one puzzle's CNF, per encoding."""
    rows = []
    for encoding, sample in (("extended", top), ("augmented", top), ("optimized", top[:200])):
        encode(top[0], encoding)  # the shape's formula, built once
        _, wall, _ = timed(lambda: [encode(p, encoding) for p in sample])
        per = wall / len(sample)
        how = ("givens propagated away, per puzzle" if encoding == "optimized"
               else "shape formula cached + one unit per given")
        met = ("met" if per < 1e-3 else "NOT met") if encoding == "extended" else ""
        rows.append([f"{encoding} ({how})", f"{per * 1000:.4f}", met])
    return ["## Building the CNF of one 9x9 puzzle", "",
            *md_table(["encoding", "ms per puzzle", "target (< 1 ms for extended)"], rows, "lrl"), ""]


def end_to_end(args, top: list, hardest: list) -> list[str]:
    """Every solver and encoding on both sets, dlx and mrv beside, and the targets."""
    tl, rows, best = args.time_limit, [], {"top": (0.0, 0.0, ""), "hard": (0.0, 0.0, "")}
    for solver in args.solvers.split(","):
        for encoding in args.encodings.split(","):
            cut = 300 if encoding == "optimized" else None

            def make():
                return SatEngine(solver, {"encoding": encoding})
            c1, w1, s1, k1 = run_set(make, top[:cut], tl, args.repeats)
            c2, w2, s2, k2 = run_set(make, hardest[:cut], tl, args.repeats)
            rows.append([f"sat:{solver}", encoding, f"{c1:,.0f}", f"{w1:,.0f}", f"{c2:,.0f}", f"{w2:,.0f}",
                         f"{k1:.1f}, {k2:.1f}", f"{said(s1)}; {said(s2)}"])
            print(" | ".join(rows[-1]), flush=True)
            if encoding != "optimized":
                name = f"sat:{solver}@encoding={encoding}"
                best["top"], best["hard"] = max(best["top"], (c1, w1, name)), max(best["hard"], (c2, w2, name))
    for spec, cut, what in (("dlx", None, ""), ("mrv", 100, "; 100 of each")):
        c1, w1, s1, _ = run_set(lambda: make_engine(spec), top[:cut], tl, 1)
        c2, w2, s2, _ = run_set(lambda: make_engine(spec), hardest[:cut], tl, 1)
        rows.append([f"{spec} (same run, for scale{what})", "–", f"{c1:,.0f}", f"{w1:,.0f}", f"{c2:,.0f}",
                     f"{w2:,.0f}", "", f"{said(s1)}; {said(s2)}"])
    lines = ["## End-to-end SAT (`SatEngine.run`: encode + solve + decode + verify, limit 2), puzzles/s", "",
             f"top1465: {len(top)}; forum hardest 11+: {len(hardest)} (evenly spaced); time limit {tl:g} s per "
             f"puzzle; best of {args.repeats} runs; `optimized` on the first 300 of each (a solver built per "
             "puzzle).",
             "", *md_table(["solver", "encoding", "top1465 CPU", "top1465 wall", "hardest CPU", "hardest wall",
                            "conflicts/puzzle (top, hardest)", "statuses"], rows, "llrrrrrl"), ""]
    for key, target, label in (("top", TOP_TARGET, "top1465"), ("hard", HARD_TARGET, "hardest 11+")):
        c, w, name = best[key]
        met = c >= target and w >= target
        lines.append(f"- Best on {label}: {c:,.0f}/s CPU, {w:,.0f}/s wall (`{name}`); target {target:,}/s: "
                     f"**{'met' if met else 'NOT met'}**" + ("" if met or max(c, w) < target else
                                                            " (met by one clock only)"))
    return lines + [""]


def quine(top: list, count: int, time_limit: float) -> list[str]:
    """The Quine engine on an evenly spaced sample of top1465, per encoding."""
    step = max(1, len(top) // max(1, count))
    sample, rows = top[::step][:count], []
    for encoding in ("extended", "augmented"):
        engine = QuineEngine("h1", {"encoding": encoding})
        engine.run(sample[0], limit=2, time_limit=time_limit)
        runs = [timed(lambda: engine.run(p, limit=2, time_limit=time_limit)) for p in sample]
        results, cpus, walls = [r for r, _, _ in runs], [c for _, _, c in runs], [r.times.total for r, _, _ in runs]
        median = statistics.median(walls)
        rows.append(["h1", encoding, f"{median * 1000:.1f}", f"{statistics.median(cpus) * 1000:.1f}",
                     f"{max(walls) * 1000:.0f}", sum(str(r.status) == "timeout" for r in results),
                     statistics.median(r.stats.raw.get("max_depth", 0) for r in results),
                     statistics.median(r.stats.nodes or 0 for r in results), "met" if median < 0.1 else "NOT met"])
    return ["## Quine dilemma engine (Python), top1465 sample, limit 2", "",
            f"{len(sample)} puzzles (every {step}th), time limit {time_limit:g} s each.", "",
            *md_table(["heuristic", "encoding", "median ms (wall)", "median ms (CPU)", "max ms (wall)", "timeouts",
                       "median max depth", "median disjunctions", "target (median < 100 ms)"], rows,
                      "ll" + "r" * 6 + "l"),
            ""]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hardest", type=int, default=1000, help="forum hardest sample size (spread over the file)")
    ap.add_argument("--quine", type=int, default=25, help="top1465 puzzles for the Quine engine")
    ap.add_argument("--quine-time-limit", type=float, default=30.0)
    ap.add_argument("--time-limit", type=float, default=10.0, help="per puzzle, as the harness passes one")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--top", type=int, help="puzzles of top1465 (default: all)")
    ap.add_argument("--solvers", default="minisat22,glucose3,glucose4,ergo")
    ap.add_argument("--encodings", default="augmented,extended,efficient,minimal,optimized")
    ap.add_argument("--out", default="results/cnf.md")
    args = ap.parse_args()
    load_before, default = load_now(), SatEngine()
    top = load("sudoku9_magictour_top1465.txt", args.top)
    hardest = load("sudoku9_forum_hardest_1905_11plus.txt", args.hardest)
    lines = [f"python-sat {SatEngine.version()}; default engine `{default.spec}@encoding="
             f"{default.settings['encoding']}`, rebuilt after {sat.REBUILD_CONFLICTS} conflicts or "
             f"{sat.REBUILD_PUZZLES} puzzles.", "", *building(top), *end_to_end(args, top, hardest),
             *quine(top, args.quine, args.quine_time_limit)]
    print(write_page(args.out, title="CNF, SAT and Quine benchmark", lead=LEAD, command=command_line(),
                     writer="benchmarks/bench_cnf.py", loads=[load_before, load_now()], lines=lines, keep=KEPT))


if __name__ == "__main__":
    main()
