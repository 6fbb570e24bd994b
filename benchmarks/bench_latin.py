"""Latin square completion (quasigroups with holes) through bitboard, mrv and sat.

    python benchmarks/bench_latin.py [--order 20] [--holes 0.42] [--count 20] [--seed 1]
                                     [--time-limit 10] [--out results/latin.md]

QWH-like instances as Achlioptas, Gomes, Kautz and Selman make them ("Generating satisfiable
problem instances", AAAI 2000): a uniformly random complete Latin square (Jacobson and
Matthews' Markov chain, "Generating uniformly distributed random Latin squares", J. Comb.
Designs 1996: ``generators/latin.py``, the generator of ``puzzlebench generate latin``),
then a share of its cells emptied at random.  Every instance has a solution (the square it came from);
each engine is asked for one (limit 1) through ``puzzlebench.solve``, which verifies it.  The
machine's load (``uptime``) is written beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from puzzlebench import api  # noqa: E402
from puzzlebench.generators.latin import qwh_instance  # noqa: E402
from puzzlebench.results import Status  # noqa: E402

from bench_bitboard import uptime, write_report  # noqa: E402

SOLVERS = ("bitboard", "mrv", "sat")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--order", type=int, default=20)
    ap.add_argument("--holes", type=float, default=0.42)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--out", default=str(REPO / "results" / "latin.md"))
    args = ap.parse_args()
    load_before = uptime()
    rng = random.Random(args.seed)
    puzzles = [qwh_instance(args.order, args.holes, rng) for _ in range(args.count)]
    rows = ["| solver | solved | timeouts | median ms | mean ms | max ms | median nodes |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for solver in SOLVERS:
        times, nodes, solved, timeouts = [], [], 0, 0
        for puzzle in puzzles:
            result = api.solve(puzzle, solver=solver, limit=1, time_limit=args.time_limit)
            if result.status is Status.SAT and result.verified:
                solved += 1
                times.append(result.times.total)
                nodes.append(result.stats.nodes)
            elif result.status is Status.TIMEOUT:
                timeouts += 1
            else:
                raise SystemExit(f"{solver}: {result.status} {result.error}")
        ms = [t * 1000 for t in times]
        median_nodes = f"{statistics.median(nodes):,.0f}" if nodes and None not in nodes else "-"
        rows.append(f"| {solver} | {solved}/{len(puzzles)} | {timeouts} | "
                    + (f"{statistics.median(ms):.2f} | {statistics.mean(ms):.2f} | {max(ms):.2f}" if ms
                       else "- | - | -")
                    + f" | {median_nodes} |")
        print(rows[-1], flush=True)
    command = (f"python benchmarks/bench_latin.py --order {args.order} --holes {args.holes} --count {args.count} "
               f"--seed {args.seed} --time-limit {args.time_limit:g}")
    write_report(args.out, "# Latin square completion (QWH-like)", command, load_before,
                 f"{args.count} instances of order {args.order}, {args.holes:.0%} of the cells emptied from a "
                 f"uniformly random complete square (Jacobson-Matthews chain, random.Random({args.seed})); "
                 f"each engine asked for one completion (limit 1) through `puzzlebench.solve`, every answer "
                 f"verified; time is the run's total (encode + search + decode), a {args.time_limit:g} s limit. "
                 "The figures are over the solved instances; nodes are each engine's own (bitboard and mrv: "
                 "search nodes; sat: decisions are not nodes, see docs/STATISTICS.md).", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
