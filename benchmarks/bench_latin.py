"""Latin square completion (quasigroups with holes) through bitboard, mrv and sat.

    python benchmarks/bench_latin.py [--order 20] [--holes 0.42] [--count 20] [--seed 1]
                                     [--time-limit 10] [--out results/latin.md]

QWH-like instances as Achlioptas, Gomes, Kautz and Selman make them ("Generating satisfiable
problem instances", AAAI 2000): a uniformly random complete Latin square (Jacobson and
Matthews' Markov chain, "Generating uniformly distributed random Latin squares", J. Comb.
Designs 1996: ``generators/latin.py``, the generator of ``puzzlebench generate latin``),
then a share of its cells emptied at random.  Every instance has a solution (the square it came from);
each engine is asked for one (limit 1) through ``puzzlebench.solve_many``, which verifies it.  The
machine's load (``uptime``) is written beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import statistics

from puzzlebench import api
from puzzlebench.generators.latin import qwh_instance
from puzzlebench.harness.pages import command_line, load_now, md_table, write_page
from puzzlebench.results import Status


def row(solver: str, puzzles: list, time_limit: float) -> list:
    """The solver's line of the table: solved, timeouts, total time (ms) and nodes of the solved."""
    results = api.solve_many(puzzles, solver=solver, limit=1, time_limit=time_limit)
    wrong = [r for r in results if r.status is not Status.TIMEOUT and not (r.status is Status.SAT and r.verified)]
    if wrong:
        raise SystemExit(f"{solver}: {wrong[0].status} {wrong[0].error}")
    solved = [r for r in results if r.status is Status.SAT]
    ms, nodes = [r.times.total * 1000 for r in solved], [r.stats.nodes for r in solved]
    return [solver, f"{len(solved)}/{len(puzzles)}", len(results) - len(solved),
            *([f"{f(ms):.2f}" for f in (statistics.median, statistics.mean, max)] if ms else ["-"] * 3),
            f"{statistics.median(nodes):,.0f}" if nodes and None not in nodes else "-"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--order", type=int, default=20)
    ap.add_argument("--holes", type=float, default=0.42)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--out", default="results/latin.md")
    args = ap.parse_args()
    before, rng = load_now(), random.Random(args.seed)
    puzzles = [qwh_instance(args.order, args.holes, rng) for _ in range(args.count)]
    rows = md_table(["solver", "solved", "timeouts", "median ms", "mean ms", "max ms", "median nodes"],
                    [row(s, puzzles, args.time_limit) for s in ("bitboard", "mrv", "sat")])
    print(write_page(args.out, title="Latin square completion (QWH-like)", command=command_line(),
                     lead=f"One completion (limit 1) of {args.count} instances of order {args.order} with "
                          f"{args.holes:.0%} of the cells emptied, per engine.",
                     writer="benchmarks/bench_latin.py", loads=[before, load_now()], lines=rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
