"""Large grids: the native search over units with and without the rules it takes from 16
values up (option ``large``: Régin's alldifferent filter on every unit and dom/wdeg branching),
beside the best SAT engine and CP-SAT, every engine on a puzzle before the next (``pages.race``:
the machine is shared, so its load falls on all of them alike); the section "## Large grids".

    python benchmarks/bench_large.py [--public 1000] [--minimal 30] [--levels 300,320,330] [--per-level 8]

The public 16x16 set and minimal 16x16 from ``generate_sudoku`` (seeded), limit 2; 25x25 made
here: a seeded full grid, cells removed in a random order while the puzzle stays unique (this
engine, limit 2, 1 s a check; a check that runs out keeps the cell; after 40 failed removals in
a row the grid is taken as it is).  Every answer is verified.  The section "## Large grids with
random holes" (36 to 64 values, a share of the cells removed at random) was measured by this
script's ``--holes`` in the tree at 8c9a24d; the hardness peak is measured again by
benchmarks/bench_rtd.py.  The SAT engine, minisat22, is the fastest of PySAT's on these grids
(measured once: 60 public 16x16, median 1.7 ms against cadical195 2.1, glucose3 2.6).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from puzzlebench import api
from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.generators.sudoku import generate_sudoku
from puzzlebench.harness.pages import (best_cpu, command_line, data_lines, load_now, md_table, race_results,
                                       splice_section)
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status

NEW, OLD, SAT, CPSAT = "bitboard", "bitboard@large=false", "sat:minisat22", "cpsat:int"


def dig(box: tuple[int, int], rng: random.Random, holes: int, engine) -> Sudoku:
    """A seeded full grid with up to ``holes`` cells removed, unique at every step."""
    n, givens = box[0] * box[1], pattern_sudoku_grid(box, rng)
    order = list(range(n * n))
    rng.shuffle(order)
    removed = failed = 0
    for cell in order:
        if removed >= holes or failed >= 40:
            break
        keep, givens[cell] = givens[cell], 0
        if engine.run(Sudoku(box, givens), limit=2, time_limit=1.0).status is Status.UNIQUE:
            removed, failed = removed + 1, 0
        else:
            givens[cell], failed = keep, failed + 1
    return Sudoku(box, givens)


def unique(r) -> bool:
    return r.status is Status.UNIQUE


def beats(a, b) -> bool:
    """``a`` solved and, on CPU time, before ``b`` (or ``b`` did not solve)."""
    return unique(a) and (not unique(b) or a.times.cpu < b.times.cpu)


def table(title: str, runs: dict, time_limit: float) -> list[str]:
    """One row per engine: solved, median and total solve time (wall, CPU), nodes for ours, and
    against CP-SAT and SAT puzzle by puzzle."""
    n, rows = len(runs[NEW]), []
    for spec, rs in runs.items():
        times = [r.times.solve if unique(r) else time_limit for r in rs]
        nodes = [r.stats.nodes for r in rs] if spec.startswith("bitboard") else None
        rows.append([f"`{spec}`", f"{sum(map(unique, rs))}/{n}", f"{statistics.median(times) * 1000:,.1f}",
                     f"{sum(times):.2f}", f"{sum(r.times.cpu for r in rs):.2f}",
                     statistics.median(nodes) if nodes else "—", sum(nodes) if nodes else "—",
                     *("—" if ref == spec else f"{sum(map(beats, rs, runs[ref]))}/{n}" for ref in (CPSAT, SAT))])
    old, new = ([r.stats.nodes for r in runs[spec]] for spec in (OLD, NEW))
    med_old, med_new, ratios = statistics.median(old), statistics.median(new), sorted(a / max(1, b) for a, b in zip(old, new))
    return [f"{title} (limit 2, {time_limit:g} s a run):", "",
            *md_table(["engine", "solved and proven unique", "median solve ms", "total solve s", "total CPU s",
                       "median nodes", "total nodes", f"faster than {CPSAT} on", f"faster than {SAT} on"], rows), "",
            f"Nodes, `{OLD}` / `{NEW}`: median {med_old:g} / {med_new:g} = {med_old / max(1, med_new):.1f}x; "
            f"total {sum(old):,} / {sum(new):,} = {sum(old) / max(1, sum(new)):.1f}x; per puzzle: "
            f"median {statistics.median(ratios):.1f}x, least {ratios[0]:.1f}x"
            + (f" (runs of `{OLD}` that timed out count the nodes they reached)"
               if any(r.status is Status.TIMEOUT for r in runs[OLD]) else "") + ".", ""]


def bench(args) -> list[str]:
    out = [f"`{command_line()}`: the search over units now (`{NEW}`: the alldifferent filter on every unit and "
           f"dom/wdeg branching from 16 values up) and the plain search (`{OLD}`: singles, the locked rule and MRV), "
           f"the best SAT engine (`{SAT}`) and CP-SAT (`{CPSAT}`, one worker), every engine on a puzzle before the "
           "next puzzle. Solve times are the runner's (wall; CPU beside); a run out of time counts as the time "
           "limit. Puzzle-by-puzzle comparisons (\"faster than ... on\") and the targets use CPU time (the "
           "runner's, over encode, search and decode: the machine is shared, and a sub-millisecond wall time can "
           "be one preemption). Load before: `" + load_now() + "`.", ""]
    specs, sets = (NEW, OLD, SAT, CPSAT), {}
    public = [parse_sudoku_line(line) for line in data_lines("sudoku16_vu_kr_1000.txt", limit=args.public)]
    sets["public"] = race_results(public, specs, time_limit=20)
    out += table(f"Public 16x16 set, {len(public)} puzzles", sets["public"], 20)
    rng, start = random.Random(16), time.perf_counter()
    minimal = [generate_sudoku((4, 4), rng) for _ in range(args.minimal)]
    made = time.perf_counter() - start
    sets["minimal"] = race_results(minimal, specs, time_limit=20)
    out += table(f"Minimal 16x16 puzzles from `generate_sudoku((4, 4), random.Random(16))`, {len(minimal)} (made in "
                 f"{made:.0f} s)", sets["minimal"], 20)
    for holes in map(int, args.levels.split(",")):
        rng, start = random.Random(25 + holes), time.perf_counter()
        puzzles = [dig((5, 5), rng, holes, make_engine(NEW)) for _ in range(args.per_level)]
        made, reached = time.perf_counter() - start, sorted({sum(1 for g in p.givens if not g) for p in puzzles})
        sets[holes] = race_results(puzzles, specs, time_limit=20)
        out += table(f"25x25, a seeded full grid with {holes} cells removed while unique (`random.Random({25 + holes})`"
                     f", holes reached: {', '.join(map(str, reached))}), {len(puzzles)} puzzles (made in {made:.0f} s)",
                     sets[holes], 20)
    return out + [*below_16(args.below), *targets(sets), "Load after: `" + load_now() + "`."]


def below_16(count: int | None) -> list[str]:
    """Below 16 values the C search takes neither rule whatever the option says: the same
    search, counter for counter, and the same speed (rates side by side, best of 3)."""
    rows = []
    for name in ("tatham_solo_sudokux_3x3_100.txt", "tatham_solo_jigsaw9_100.txt", "sudoku4_vu_kr_1000.txt"):
        lines = [line.split()[0] for line in data_lines(name, limit=count)]
        row = [name]
        for spec in (NEW, OLD):
            results, _, cpu = best_cpu(lambda: list(api.solve_many(lines, solver=spec, limit=2)))
            assert all(unique(r) and r.verified for r in results), (spec, name)
            row += [f"{len(lines) / cpu:,.0f}", f"{sum(r.stats.nodes for r in results):,}"]
        rows.append(row)
    return [f"Below 16 values (the rules are chosen by size in C): `bitboard` and `{OLD}` on the same sets, puzzles "
            "per CPU second (best of 3), total nodes:", "",
            *md_table(["set", "bitboard", "nodes", "bitboard@large=false", "nodes"], rows), ""]


def targets(sets: dict) -> list[str]:
    """The targets for these grids, met or not, from the runs above."""
    def verdict(ok):
        return "**met**" if ok else "**not met**"

    new, old = ([r.stats.nodes for r in sets["minimal"][spec]] for spec in (NEW, OLD))
    med, tot = statistics.median(old) / statistics.median(new), sum(old) / sum(new)
    pub = sets["public"]
    ours, sat = (sum(r.times.cpu for r in pub[spec]) for spec in (NEW, SAT))
    wins = sum(a.times.cpu < b.times.cpu for a, b in zip(pub[NEW], pub[SAT]))
    out = ["Targets (large grids):", "",
           f"- 16x16, nodes >= 10x fewer than `{OLD}` on the generated minimal puzzles: median {med:.1f}x, total "
           f"{tot:.1f}x: {verdict(med >= 10)} on the median, {verdict(tot >= 10)} on the total.",
           f"- 16x16, faster than the best SAT engine (`{SAT}`) on the public set: {ours:.2f} s CPU against "
           f"{sat:.2f} s in all, faster on {wins}/{len(pub[NEW])} puzzles: {verdict(ours < sat)} in all, "
           f"{verdict(wins == len(pub[NEW]))} on each."]
    for holes in (k for k in sets if isinstance(k, int)):
        mine, theirs = sets[holes][NEW], sets[holes][CPSAT]
        n, solved, faster = len(mine), sum(map(unique, mine)), sum(map(beats, mine, theirs))
        both = [(a.times.cpu, b.times.cpu) for a, b in zip(mine, theirs) if unique(a) and unique(b)]
        out.append(f"- 25x25 with {holes} holes: {solved}/{n} solved and proven unique ({verdict(solved == n)}), "
                   f"CP-SAT {sum(map(unique, theirs))}/{n}; faster than CP-SAT on {faster}/{n} ({verdict(faster == n)} "
                   f"on each); on those both solve, {sum(a for a, _ in both):.2f} s CPU against "
                   f"{sum(b for _, b in both):.2f} s.")
    return out + [""]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--public", type=int, default=1000, help="puzzles of the public 16x16 set")
    ap.add_argument("--minimal", type=int, default=30, help="minimal 16x16 puzzles generated")
    ap.add_argument("--levels", default="300,320,330", help="holes of the 25x25 puzzles")
    ap.add_argument("--per-level", type=int, default=8, help="25x25 puzzles a level")
    ap.add_argument("--below", type=int, help="puzzles of each set below 16 values (default: all)")
    ap.add_argument("--out", default="results/bitboard.md")
    args = ap.parse_args()
    splice_section(args.out, "## Large grids", bench(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
