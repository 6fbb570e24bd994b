"""Large grids: the native search over units with and without the rules it
takes from 16 values up (option ``large``: Régin's alldifferent filter on every unit and
dom/wdeg branching), beside the best SAT engine and CP-SAT, in the same run, puzzle by
puzzle (every engine on a puzzle before the next puzzle: the machine is shared, so its load
falls on all of them alike).

    python benchmarks/bench_large.py [--public 1000] [--minimal 30] [--levels 300,320,330] [--per-level 8]

- the public 16x16 set (../shared/data/sudoku16_vu_kr_1000.txt), limit 2;
- minimal 16x16 puzzles from the project's generator (``generators.sudoku.generate_sudoku``,
  seeded), limit 2: nodes of ``bitboard@large=false`` against ``bitboard``;
- 25x25 made here: a seeded random full grid, cells removed in a random order while the
  puzzle stays unique (proven by this engine with limit 2 and 1 s a check; a check that runs
  out keeps the cell; after 40 failed removals in a row the grid is taken as it is), up to
  300, 320 and 330 holes of 625 (48%, 51%, 53%); the more holes, the harder (at 330 a
  removal already fails the 1 s check now and then).  Limit 2 (solved
  and proven unique), a time limit per run.

Every engine is checked: a unique puzzle must come back unique and verified.  The section
replaces the "## Large grids" section of the results file (bench_bitboard.py keeps it).

``--holes`` measures, alone, "36x36 to 64x64 with 30-50% of cells removed from a
random full grid": seeded full grids (``fill.pattern_sudoku_grid``) with that share of cells
removed at random (no uniqueness kept: most have several solutions), counted to 2 by the
native search, by CP-SAT and by CaDiCaL 1.9.5 through PySAT (on the ``optimized`` encoding),
puzzle by puzzle, every answer (unique or two solutions) verified; it replaces the "## Large grids with random holes" section.
CaDiCaL cannot be stopped in-process, so its runs go through ``run_limited`` (as ``solve`` runs
it: in a child process killed at the limit plus its grace); the other two hold the limit
in-process (CP-SAT's search looks at its clock; a size's first puzzle pays CP-SAT's cached
model of the shape, 0.4-0.5 s CPU at 36x36, which the median hides).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from puzzlebench import api
from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.harness.pages import command_line, data_lines, holed_sudokus, load_now, splice_section
from puzzlebench.generators.sudoku import generate_sudoku
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.runtime.child import run_limited
from puzzlebench.engines.registry import make_engine

SECTION, HOLES_SECTION = "## Large grids", "## Large grids with random holes"
NEW, OLD, SAT, CPSAT = "bitboard", "bitboard@large=false", "sat:minisat22", "cpsat:int"
# --holes: the CDCL reference, on the encoding with the givens propagated away (the open cells'
# candidates alone: at 49x49 and 30% holes CaDiCaL decides in 0.25 s CPU where, on the whole
# grid's formula with the givens assumed, loading the formula alone outlasts 10 s)
CDCL = "sat:cadical195@encoding=optimized"
# the SAT engine: the fastest of PySAT's on these grids, measured once beside the others (60 public
# 16x16, median solve: minisat22 1.7 ms, cadical195 2.1, glucose3 2.6, glucose4 7.8, maplechrono 15.6;
# 15 minimal 16x16: minisat22 20.8 ms, glucose3 34.0, cadical195 55.5; ten 25x25 with 320 holes:
# minisat22 353 ms, glucose3 361, cadical195 419)
HOLES_25 = (300, 320, 330)
CHECK_SECONDS = 1.0   # a uniqueness check while removing cells; a check that runs out keeps the cell
PATIENCE = 40         # removals failed in a row after which a grid is taken as it is (fewer holes)


def dig(box: tuple[int, int], rng: random.Random, holes: int, engine) -> Sudoku:
    """A seeded full grid with up to ``holes`` cells removed, unique at every step."""
    n = box[0] * box[1]
    givens = pattern_sudoku_grid(box, rng)
    order = list(range(n * n))
    rng.shuffle(order)
    removed = failed = 0
    for cell in order:
        if removed >= holes or failed >= PATIENCE:
            break
        keep, givens[cell] = givens[cell], 0
        result = engine.run(Sudoku(box, givens), limit=2, time_limit=CHECK_SECONDS)
        if result.status is Status.UNIQUE:
            removed, failed = removed + 1, 0
        else:
            givens[cell], failed = keep, failed + 1
    return Sudoku(box, givens)


def race(puzzles, specs, time_limit: float):
    """{spec: [result, ...]}: every engine on each puzzle in turn."""
    engines = {spec: make_engine(spec) for spec in specs}
    out = {spec: [] for spec in specs}
    for p in puzzles:
        for spec, engine in engines.items():
            r = engine.run(p, limit=2, time_limit=time_limit)
            assert r.status in (Status.UNIQUE, Status.TIMEOUT) and (r.status is Status.TIMEOUT or r.verified), \
                (spec, r.status, r.error)
            out[spec].append(r)
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}"


def table(title: str, runs: dict, time_limit: float) -> list[str]:
    """One row per engine: solved, median and total solve time (wall, CPU), nodes for ours, and
    against CP-SAT and SAT puzzle by puzzle."""
    rows = [f"{title} (limit 2, {time_limit:g} s a run):", "",
            "| engine | solved and proven unique | median solve ms | total solve s | total CPU s | "
            f"median nodes | total nodes | faster than {CPSAT} on | faster than {SAT} on |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    n = len(next(iter(runs.values())))

    def solved(r):
        return r.status is Status.UNIQUE

    for spec, rs in runs.items():
        times = [r.times.solve if solved(r) else time_limit for r in rs]
        nodes = [r.stats.nodes for r in rs] if spec.startswith("bitboard") else None
        vs = []
        for ref in (CPSAT, SAT):
            if ref == spec or ref not in runs:
                vs.append("—")
                continue
            wins = sum(solved(a) and (not solved(b) or a.times.cpu < b.times.cpu)
                       for a, b in zip(rs, runs[ref]))
            vs.append(f"{wins}/{n}")
        rows.append(f"| `{spec}` | {sum(map(solved, rs))}/{n} | {ms(statistics.median(times))} | "
                    f"{sum(times):.2f} | {sum(r.times.cpu for r in rs):.2f} | "
                    f"{statistics.median(nodes) if nodes else '—'} | {sum(nodes) if nodes else '—'} | "
                    f"{vs[0]} | {vs[1]} |")
    if NEW in runs and OLD in runs:
        new, old = runs[NEW], runs[OLD]
        med_old, med_new = statistics.median(r.stats.nodes for r in old), statistics.median(r.stats.nodes for r in new)
        tot_old, tot_new = sum(r.stats.nodes for r in old), sum(r.stats.nodes for r in new)
        ratios = sorted(a.stats.nodes / max(1, b.stats.nodes) for a, b in zip(old, new))
        rows += ["", f"Nodes, `{OLD}` / `{NEW}`: median {med_old:g} / {med_new:g} = {med_old / max(1, med_new):.1f}x; "
                     f"total {tot_old:,} / {tot_new:,} = {tot_old / max(1, tot_new):.1f}x; per puzzle: "
                     f"median {statistics.median(ratios):.1f}x, least {ratios[0]:.1f}x"
                     + (f" (runs of `{OLD}` that timed out count the nodes they reached)"
                        if any(r.status is Status.TIMEOUT for r in old) else "") + "."]
    print("\n".join(rows), flush=True)
    return rows + [""]


def bench(args) -> list[str]:
    out = [f"`{command_line()}`: the search over units "
           f"now (`{NEW}`: the alldifferent filter on every unit and dom/wdeg branching from 16 values "
           f"up) and the plain search (`{OLD}`: singles, the locked rule and MRV), the best SAT engine "
           f"(`{SAT}`) and CP-SAT (`{CPSAT}`, one worker), every engine on a puzzle before the next "
           "puzzle. Solve times are the runner's (wall; CPU beside); a run out of time counts as "
           "the time limit. Puzzle-by-puzzle comparisons (\"faster than ... on\") and the targets use "
           "CPU time (the runner's, over encode, search and decode: the machine is shared, and a "
           "sub-millisecond wall time can be one preemption). Load before: `" + load_now() + "`.", ""]
    public = [parse_sudoku_line(line) for line in data_lines("sudoku16_vu_kr_1000.txt", limit=args.public)]
    sets = {"public": race(public, [NEW, OLD, SAT, CPSAT], 20)}
    out += table(f"Public 16x16 set, {len(public)} puzzles", sets["public"], 20)

    rng = random.Random(16)
    start = time.perf_counter()
    minimal = [generate_sudoku((4, 4), rng) for _ in range(args.minimal)]
    made = time.perf_counter() - start
    sets["minimal"] = race(minimal, [NEW, OLD, SAT, CPSAT], 20)
    out += table(f"Minimal 16x16 puzzles from `generate_sudoku((4, 4), random.Random(16))`, "
                 f"{len(minimal)} (made in {made:.0f} s)", sets["minimal"], 20)

    maker = make_engine(NEW)
    for holes in map(int, args.levels.split(",")):
        rng = random.Random(25 + holes)
        start = time.perf_counter()
        puzzles = [dig((5, 5), rng, holes, maker) for _ in range(args.per_level)]
        made = time.perf_counter() - start
        reached = sorted({sum(1 for g in p.givens if not g) for p in puzzles})
        sets[holes] = race(puzzles, [NEW, OLD, SAT, CPSAT], 20)
        out += table(f"25x25, a seeded full grid with {holes} cells removed while unique "
                     f"(`random.Random({25 + holes})`, holes reached: {', '.join(map(str, reached))}), "
                     f"{len(puzzles)} puzzles (made in {made:.0f} s)", sets[holes], 20)
    out += [*below_16(args.below), *targets(sets), "Load after: `" + load_now() + "`."]
    return out


def below_16(count: int | None) -> list[str]:
    """Below 16 values the C search takes neither rule whatever the option says: the same
    search, counter for counter, and the same speed (rates side by side, best of 3)."""
    rows = ["Below 16 values (the rules are chosen by size in C): `bitboard` and "
            f"`{OLD}` on the same sets, puzzles per CPU second (best of 3), total nodes:", "",
            "| set | bitboard | nodes | bitboard@large=false | nodes |", "|---|---:|---:|---:|---:|"]
    for name in ("tatham_solo_sudokux_3x3_100.txt", "tatham_solo_jigsaw9_100.txt", "sudoku4_vu_kr_1000.txt"):
        puzzles = [api.parse(line.split()[0]) for line in data_lines(name, limit=count)]
        cells = []
        for spec in (NEW, OLD):
            engine = make_engine(spec)
            best, nodes = float("inf"), 0
            for _ in range(3):
                start = time.process_time()
                results = [engine.run(p, limit=2) for p in puzzles]
                best = min(best, time.process_time() - start)
                assert all(r.status is Status.UNIQUE and r.verified for r in results), (spec, name)
                nodes = sum(r.stats.nodes for r in results)
            cells += [f"{len(puzzles) / best:,.0f}", f"{nodes:,}"]
        rows.append(f"| {name} | {' | '.join(cells)} |")
    print("\n".join(rows), flush=True)
    return rows + [""]


def targets(sets: dict) -> list[str]:
    """The targets for these grids, met or not, from the runs above."""
    def unique(r):
        return r.status is Status.UNIQUE

    def verdict(ok):
        return "**met**" if ok else "**not met**"

    new, old = sets["minimal"][NEW], sets["minimal"][OLD]
    med = statistics.median(r.stats.nodes for r in old) / statistics.median(r.stats.nodes for r in new)
    tot = sum(r.stats.nodes for r in old) / sum(r.stats.nodes for r in new)
    pub = sets["public"]
    pub_new, pub_sat = sum(r.times.cpu for r in pub[NEW]), sum(r.times.cpu for r in pub[SAT])
    wins = sum(a.times.cpu < b.times.cpu for a, b in zip(pub[NEW], pub[SAT]))
    out = ["Targets (large grids):", "",
           f"- 16x16, nodes >= 10x fewer than `{OLD}` on the generated minimal puzzles: median "
           f"{med:.1f}x, total {tot:.1f}x: {verdict(med >= 10)} on the median, {verdict(tot >= 10)} on the total.",
           f"- 16x16, faster than the best SAT engine (`{SAT}`) on the public set: {pub_new:.2f} s CPU against "
           f"{pub_sat:.2f} s in all, faster on {wins}/{len(pub[NEW])} puzzles: {verdict(pub_new < pub_sat)} "
           f"in all, {verdict(wins == len(pub[NEW]))} on each."]
    for holes in (k for k in sets if isinstance(k, int)):
        runs = sets[holes]
        n = len(runs[NEW])
        solved = sum(map(unique, runs[NEW]))
        faster = sum(unique(a) and (not unique(b) or a.times.cpu < b.times.cpu)
                     for a, b in zip(runs[NEW], runs[CPSAT]))
        both = [(a.times.cpu, b.times.cpu) for a, b in zip(runs[NEW], runs[CPSAT]) if unique(a) and unique(b)]
        out.append(f"- 25x25 with {holes} holes: {solved}/{n} solved and proven unique "
                   f"({verdict(solved == n)}), CP-SAT {sum(map(unique, runs[CPSAT]))}/{n}; faster than CP-SAT on "
                   f"{faster}/{n} ({verdict(faster == n)} on each); on those both solve, "
                   f"{sum(a for a, _ in both):.2f} s CPU against {sum(b for _, b in both):.2f} s.")
    print("\n".join(out), flush=True)
    return out + [""]


HOLE_BOXES = ((6, 6), (7, 7), (8, 8))
HOLE_SHARES = (0.3, 0.4, 0.5)
HOLE_PUZZLES = 3
HOLE_SECONDS = 10.0


def hole_runs(engines: dict, box: tuple[int, int], share: float) -> dict:
    """Every engine's result on every puzzle of ``box`` and ``share``, puzzle by puzzle."""
    runs = {spec: [] for spec in engines}
    for puzzle in holed_sudokus(box, share, HOLE_PUZZLES, 1000 * box[0] + round(share * 100)):
        for spec, engine in engines.items():
            r = run_limited(engine, [puzzle], limit=2, time_limit=HOLE_SECONDS, keep=2)[0]
            assert r.status is Status.TIMEOUT or (r.status in (Status.UNIQUE, Status.MULTIPLE)
                                                  and r.verified), (spec, box, share, r.status, r.error)
            runs[spec].append(r)
    return runs


def median_cpu(rs) -> float:
    """The median CPU seconds of the runs, a run out of time counting as the limit."""
    return statistics.median(r.times.cpu if r.status is not Status.TIMEOUT else HOLE_SECONDS for r in rs)


def hole_row(box: tuple[int, int], share: float, runs: dict) -> str:
    n = box[0] * box[1]
    cells = []
    for spec, rs in runs.items():
        done = [r for r in rs if r.status is not Status.TIMEOUT]
        cells += [f"{len(done)}/{len(rs)} ({sum(r.status is Status.UNIQUE for r in done)} / "
                  f"{sum(r.status is Status.MULTIPLE for r in done)})", f"{median_cpu(rs) * 1000:,.1f}"]
        if spec == NEW:
            cells.append(f"{statistics.median(r.stats.nodes for r in rs):g}")
    return f"| {n}x{n} | {share:.0%} | {len(next(iter(runs.values())))} | {' | '.join(cells)} |"


HOLE_HEADER = ["| grid | removed | puzzles | `bitboard` decided (unique / two) | median CPU ms | median nodes | "
               "`cpsat:int` decided (unique / two) | median CPU ms | `sat:cadical195@encoding=optimized` "
               "decided (unique / two) | median CPU ms |", "|---|---:|---:|---|---:|---:|---|---:|---|---:|"]
# Around the target's 50% at 36x36: where completing a random grid's remains is hard for all
SWEEP_SHARES = (0.4, 0.44, 0.46, 0.48, 0.5, 0.55, 0.6, 0.65, 0.7)


def bench_holes() -> list[str]:
    """Random full grids of 36, 49 and 64 values with 30, 40 and 50% of their cells removed,
    counted to 2 by the native search, CP-SAT and CaDiCaL (CPU time a run; out of time: the
    limit); then 36x36 from 40 to 70% removed, to show where the hard region lies."""
    out = [f"`{command_line()}`: a seeded full grid (`fill.pattern_sudoku_grid`, "
           "`random.Random(1000 * box + percent)`) with a share of its cells removed at random, "
           f"{HOLE_PUZZLES} a size and share, counted to 2 (decided: unique, or two solutions, each verified) "
           f"by `{NEW}`, `{CPSAT}` (one worker) and `{CDCL}` (CaDiCaL 1.9.5 on the encoding with the givens "
           "propagated away, the CDCL reference), puzzle by "
           f"puzzle, {HOLE_SECONDS:g} s a run (on the clock; CaDiCaL in a child process killed at the limit "
           "plus its grace, as `solve` runs it); CPU time a run, a run out of time counting as the limit. "
           "Load before: `" + load_now() + "`.", "", *HOLE_HEADER]
    engines = {spec: make_engine(spec) for spec in (NEW, CPSAT, CDCL)}
    done, medians, every = {}, {}, {spec: [] for spec in engines}
    for box in HOLE_BOXES:
        for share in HOLE_SHARES:
            runs = done[box, share] = hole_runs(engines, box, share)
            for spec, rs in runs.items():
                medians.setdefault(spec, {})[(box[0] * box[1], share)] = median_cpu(rs)
                every[spec] += rs
            out.append(hole_row(box, share, runs))
            print(out[-1], flush=True)
    met = [k for k, v in medians[NEW].items() if v < 1.0]
    found = {spec: (sum(r.status is Status.TIMEOUT for r in rs), sum(r.status is Status.TIMEOUT and r.count > 0
                                                                     for r in rs))
             for spec, rs in every.items()}
    out += ["", f"Target (solved and proven unique, or shown to have two, median under 1 s): met "
                f"for {len(met)} of {len(medians[NEW])} size-and-share pairs "
                f"({', '.join(f'{n}x{n} {s:.0%}' for n, s in sorted(met))}). Runs out of time that had found "
                "a first solution: " + "; ".join(f"`{spec}` {one} of {out}" for spec, (out, one) in found.items())
             + " (the first solution, not the second, is what takes long: see native/sudokun.c).", ""]
    box = HOLE_BOXES[0]
    out += [f"Where the hard region lies: {box[0] * box[1]}x{box[0] * box[1]} with {SWEEP_SHARES[0]:.0%} to "
            f"{SWEEP_SHARES[-1]:.0%} of the cells removed (the same seeds, engines and limit; the rows at 40% "
            "and 50% are the ones above).", "", *HOLE_HEADER]
    for share in SWEEP_SHARES:
        runs = done.get((box, share)) or hole_runs(engines, box, share)
        out.append(hole_row(box, share, runs))
        print(out[-1], flush=True)
    out += ["", "Load after: `" + load_now() + "`.", ""]
    return out


def nogood_check() -> None:
    """Nogoods recorded at restarts on and off (``bitboard@nogoods=...``), printed, on the quick
    sets of :func:`bench`: 100 public 16x16, 10 minimal 16x16, 4 25x25 with 330 holes."""
    specs = ["bitboard@nogoods=true", "bitboard@nogoods=false"]
    lines = data_lines("sudoku16_vu_kr_1000.txt", limit=100)
    table("Public 16x16, 100", race([parse_sudoku_line(line) for line in lines], specs, 20), 20)
    rng = random.Random(16)
    table("Minimal 16x16, 10", race([generate_sudoku((4, 4), rng) for _ in range(10)], specs, 20), 20)
    maker, rng = make_engine(NEW), random.Random(25 + 330)
    table("25x25, 330 holes, 4", race([dig((5, 5), rng, 330, maker) for _ in range(4)], specs, 20), 20)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--public", type=int, default=1000, help="puzzles of the public 16x16 set")
    ap.add_argument("--minimal", type=int, default=30, help="minimal 16x16 puzzles generated")
    ap.add_argument("--levels", default=",".join(map(str, HOLES_25)), help="holes of the 25x25 puzzles")
    ap.add_argument("--per-level", type=int, default=8, help="25x25 puzzles a level")
    ap.add_argument("--below", type=int, help="puzzles of each set below 16 values (default: all)")
    ap.add_argument("--out", default="results/bitboard.md")
    ap.add_argument("--holes", action="store_true", help="only the 36x36-64x64 grids with random holes")
    ap.add_argument("--nogoods", action="store_true", help="nogoods on and off on the quick 16x16 and 25x25 "
                    "sets, printed")
    args = ap.parse_args()
    if args.nogoods:
        nogood_check()
    elif args.holes:
        splice_section(args.out, HOLES_SECTION, bench_holes())
    else:
        splice_section(args.out, SECTION, bench(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
