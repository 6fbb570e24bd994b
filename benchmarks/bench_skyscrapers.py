"""The bitboard Skyscrapers engine on the public set and on generated puzzles; writes
results/skyscrapers.md.

    python benchmarks/bench_skyscrapers.py [--generated 25] [--squares 300] [--sizes 7,8,9]

Public: every line of skyscrapers_random_fullclue_n4to9_sample.txt counted to 2 (nsol=1 must be
unique, nsol=2+ two solutions, nsol=? whatever it is).  Generated: proper puzzles a size from
``generate_skyscrapers(n, random.Random(n))``, dlx as the reference on two of them.  Full clues
of random Latin squares: how many are unique.  Solve time is ``Result.times.solve`` (wall);
CPU a puzzle over each loop beside it.  Target: median under 1 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics

from puzzlebench.engines.bitboard import BitboardEngine
from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.kinds import generate_skyscrapers
from puzzlebench.generators.latin import random_latin_square
from puzzlebench.harness.pages import command_line, data_lines, load_now, md_table, timed, write_page
from puzzlebench.models.skyscrapers import Skyscrapers, clues_shown
from puzzlebench.results import Status

REFERENCE = 2   # generated puzzles a size also solved by dlx (mrv runs out of time from 7x7)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def runs(engine, puzzles, limit=2):
    """The results and the CPU seconds a puzzle over the loop."""
    results, _, cpu = timed(lambda: [engine.run(p, limit=limit, time_limit=60) for p in puzzles])
    return results, cpu / max(1, len(puzzles))


def public(engine, every: int) -> list[str]:
    by_nsol: dict[str, list] = {}
    for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", every=every):
        fields = line.split()
        puzzle = Skyscrapers(int(fields[0]), *([int(x) for x in f.split(",")] for f in fields[1:5]))
        nsol = next(x.split("=")[1] for x in fields if x.startswith("nsol="))
        by_nsol.setdefault(nsol, []).append((puzzle, engine.run(puzzle, limit=2, time_limit=60)))
    rows, ones, twos = [], by_nsol.get("1", []), by_nsol.get("2+", [])
    unknown = [r for _, r in by_nsol.get("?", [])]
    if ones:
        times = [r.times.solve for _, r in ones]
        wrong = sum(r.status is not Status.UNIQUE or not r.verified for _, r in ones)
        mrv = [make_engine("mrv").run(p, limit=2).times.solve for p, _ in ones if p.n <= 5][:5]
        rows.append(["nsol=1, N = 4-6", len(ones), f"all unique, {wrong} wrong", ms(statistics.median(times)),
                     ms(max(times)), f"target {'met' if statistics.median(times) < 1e-3 else 'MISSED'}; mrv median "
                     f"on {len(mrv)} (N ≤ 5): {ms(statistics.median(mrv)) if mrv else '-'} ms"])
    if twos:
        sizes = sorted({p.n for p, _ in twos})
        counted = all(r.status is Status.MULTIPLE and r.count == 2 and r.verified for _, r in twos)
        rows.append([f"nsol=2+, N = {' / '.join(map(str, sizes))}",
                     " / ".join(str(sum(p.n == n for p, _ in twos)) for n in sizes),
                     "all counted to 2" if counted else "NOT all counted to 2", "-", "-", ""])
    if unknown:
        times = [r.times.solve for r in unknown]
        counts = [sum(r.status is s for r in unknown) for s in (Status.UNIQUE, Status.MULTIPLE, Status.UNSAT)]
        rows.append(["9x9 nsol=?", len(unknown), f"{counts[0]} unique, {counts[1]} with 2+, {counts[2]} none",
                     ms(statistics.median(times)), ms(max(times)), ""])
    return md_table(["set", "lines", "answer (limit 2)", "median ms", "max ms", "note"], rows, "lrlrrl")


def generated(engine, sizes: list[int], count: int) -> list[str]:
    rows, dlx = [], make_engine("dlx")
    for n in sizes:
        rng = random.Random(n)
        puzzles = [generate_skyscrapers(n, rng) for _ in range(count)]
        results, cpu = runs(engine, puzzles)
        assert all(r.status is Status.UNIQUE and r.verified for r in results), n
        median = statistics.median(r.times.solve for r in results)
        refs = ", ".join(f"{r.times.solve:.2f} s {r.status}" for r in
                         (dlx.run(p, limit=2, time_limit=20) for p in puzzles[:REFERENCE]))
        own = ", ".join(f"{ms(r.times.solve)} ms" for r in results[:REFERENCE])
        rows.append([n, f"{count} (random.Random({n}))", f"{ms(median)} ms {'< 1 ms met' if median < 1e-3 else 'MISSED'}",
                     f"{ms(max(r.times.solve for r in results))} ms", f"{ms(cpu)} ms",
                     f"{statistics.median(r.stats.nodes for r in results):.0f}", f"{refs} ({own})"])
    return md_table(["N", "puzzles (seed)", "bitboard median", "max", "CPU a puzzle", "median nodes",
                     f"dlx on the first {REFERENCE} (bitboard on them)"], rows, "lllllll")


def full_clues(engine, sizes: list[int], squares: int) -> list[str]:
    rows = []
    for n in sizes:
        rng = random.Random(100 + n)
        puzzles = [Skyscrapers(n, *clues_shown(n, random_latin_square(n, rng)).values()) for _ in range(squares)]
        results, _ = runs(engine, puzzles)
        assert all(r.verified and r.status in (Status.UNIQUE, Status.MULTIPLE) for r in results), n
        times = [r.times.solve for r in results]
        rows.append([n, f"{squares} (random.Random({100 + n}))", sum(r.status is Status.UNIQUE for r in results),
                     ms(statistics.median(times)), ms(max(times))])
    return md_table(["N", "squares (seed)", "unique", "median ms", "max ms"], rows, "llrrr")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=1, help="every k-th line of the public set")
    ap.add_argument("--generated", type=int, default=25, help="generated puzzles a size")
    ap.add_argument("--squares", type=int, default=300, help="random Latin squares a size")
    ap.add_argument("--sizes", default="7,8,9")
    ap.add_argument("--out", default="results/skyscrapers.md")
    args = ap.parse_args()
    engine, sizes, before = BitboardEngine(), [int(n) for n in args.sizes.split(",")], load_now()
    lines = ["## Public sets", "", *public(engine, args.every), "", "## Generated proper puzzles, limit 2", "",
             *generated(engine, sizes, args.generated), "", "## Full clues of random Latin squares, counted to 2",
             "", *full_clues(engine, sizes, args.squares), ""]
    lead = ("The bitboard Skyscrapers engine on public and generated sets: solve time (wall, `Result.times.solve`), "
            "with CPU a puzzle over each loop beside it. Target: median under 1 ms.")
    print(write_page(args.out, title="Skyscrapers, bitboard engine", lead=lead, command=command_line(),
                     writer="benchmarks/bench_skyscrapers.py", loads=[before, load_now()], lines=lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
