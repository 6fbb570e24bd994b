"""Benchmark of the native bitboard engines, with `mrv` as the in-project reference
measured in the same run on a small sample.

    python benchmarks/bench_bitboard.py [--quick] [--out results/bitboard.md]

- 9x9 sets, limit 2, one thread, from Python strings to Python results:
  ``puzzlebench.solve_many(lines, solver="bitboard")`` with every record read (status, count,
  the solution's text) and verified, and the engine's batch call alone on the packed puzzles
  (``BitboardEngine.batch``: its columns unread, nothing verified) in the same run; guesses per
  puzzle beside tdoku's published 0.62 / 65 / 9.1;
- 16x16 (all solved and proven unique), and 25x25 .. 64x64 made by a seeded generator (full
  grid, cells removed), solved with limit 1 and checked;
- N-Queens n = 15, all solutions (wall and CPU time);
- Skyscrapers: every nsol=1 puzzle (N = 4-6) and 25 proper 7x7, 8x8, 9x9 puzzles a size from
  the project's seeded generator (median and max; dlx as the reference on two a size); the
  nsol=2+ lines counted to 2 and the 9x9 nsol=? lines counted; full-clue puzzles of random
  Latin squares (how many are unique).  ``benchmarks/bench_skyscrapers.py`` runs this part
  alone.
The machine's load (``uptime``) is written beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO))

from puzzlebench import api  # noqa: E402
from puzzlebench.harness.generate import generate_skyscrapers, random_latin_square  # noqa: E402
from puzzlebench.solvers.registry import make_engine  # noqa: E402
from puzzlebench.harness.dig_holes import sudoku_solution  # noqa: E402
from puzzlebench.models.nqueens import NQueens  # noqa: E402
from puzzlebench.models.skyscrapers import Skyscrapers, clues_shown  # noqa: E402
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line  # noqa: E402
from puzzlebench.results import Status  # noqa: E402
from puzzlebench.models.sudoku import read_sudoku_lines  # noqa: E402
from puzzlebench.solvers.bitboard import BitboardEngine  # noqa: E402
from puzzlebench.solvers.mrv import MrvEngine  # noqa: E402

SETS_9 = [  # file, tdoku puzzles/s, tdoku guesses/puzzle, target puzzles/s
    ("sudoku9_royle_17clue_49158.txt", 209_000, 0.62, 105_000),
    ("sudoku9_forum_hardest_1905_11plus.txt", 13_100, 65, 6_700),
    ("sudoku9_magictour_top1465.txt", 77_700, 9.1, 39_000),
]


def lines_of(name: str) -> list[str]:
    with open(DATA / name) as f:
        return [l.strip()[:81] for l in f if l.strip() and not l.startswith("#")]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def mrv_rate(puzzles, limit=2) -> float:
    mrv = MrvEngine()
    results, wall, cpu = timed(lambda: [mrv.run(p, limit=limit, time_limit=60) for p in puzzles])
    assert all(r.status is Status.UNIQUE for r in results)
    return len(puzzles) / cpu


def best_cpu(fn, repeat: int = 3):
    """(result, wall, CPU) of the run with the least CPU time: the machine is shared."""
    runs = [timed(fn) for _ in range(repeat)]
    return min(runs, key=lambda run: run[2])


def bench_9x9(quick: bool) -> list[str]:
    """Rates count everything from Python strings to every record read and verified (the
    target's terms); the engine's batch call alone beside it, in the same run."""
    rows = ["| set | puzzles | bitboard puzzles/s: solve_many, every record read and verified (CPU, "
            "best of 3) | wall | the batch call alone | target | ratio to tdoku | "
            "guesses/puzzle (tdoku) | dlx puzzles/s, same run | mrv puzzles/s (3 of the set) |",
            "|---|---:|---:|---:|---:|---|---:|---|---:|---:|"]
    engine = BitboardEngine()
    for name, tdoku, tdoku_guesses, target in SETS_9:
        lines = lines_of(name)
        if quick:
            lines = lines[:5000]

        def bitboard():
            results = api.solve_many(lines, solver="bitboard", limit=2)
            return [(r.status, r.count, r.solution, r.verified, r.stats.guesses) for r in results]

        records, wall, cpu = best_cpu(bitboard)
        assert all(status is Status.UNIQUE and verified for status, _, _, verified, _ in records), name
        guesses = sum(r[4] for r in records) / len(records)
        packed, _ = read_sudoku_lines(lines)
        _, _, call_cpu = best_cpu(lambda: engine.batch(packed, limit=2, time_limit=None, keep=1))
        dlx_lines = lines[:5000]
        (dlx_statuses), _, dlx_cpu = best_cpu(
            lambda: [r.status for r in api.solve_many(dlx_lines, solver="dlx", limit=2)], repeat=1)
        assert all(s is Status.UNIQUE for s in dlx_statuses), name
        sample = [parse_sudoku_line(l) for l in lines[:: max(1, len(lines) // 3)][:3]]
        reference = mrv_rate(sample)
        rate = len(lines) / cpu
        rows.append(f"| {name} | {len(lines)} | {rate:,.0f} | {len(lines) / wall:,.0f} | "
                    f"{len(lines) / call_cpu:,.0f} | {target:,} {'met' if rate >= target else 'MISSED'} | {rate / tdoku:.2f} | "
                    f"{guesses:.2f} ({tdoku_guesses}) | {len(dlx_lines) / dlx_cpu:,.0f} | {reference:,.1f} |")
        print(rows[-1], flush=True)
    return rows


def bench_16(quick: bool) -> list[str]:
    lines = lines_of("sudoku16_vu_kr_1000.txt")
    lines = [l for l in (open(DATA / "sudoku16_vu_kr_1000.txt").read().split()) if len(l) == 256]
    if quick:
        lines = lines[:200]
    puzzles = [parse_sudoku_line(l) for l in lines]
    engine = BitboardEngine()
    results, wall, cpu = timed(lambda: [engine.run(p) for p in puzzles])
    unique = sum(r.status is Status.UNIQUE and r.verified for r in results)
    ref = MrvEngine().run(puzzles[0], limit=2, time_limit=10)
    rate = len(puzzles) / cpu
    return [f"- 16x16 ({len(puzzles)} puzzles, limit 2): {unique} unique and verified; "
            f"{rate:,.0f} puzzles/s CPU; mrv on the first: {ref.status} in {ref.times.solve:.2f} s "
            f"(bitboard on it: {results[0].times.solve * 1000:.2f} ms)"]


full_grid = sudoku_solution  # a random complete grid; box (1, n) gives a shuffled Latin square


def bench_large() -> list[str]:
    out = []
    engine = BitboardEngine()
    for box in [(5, 5), (6, 6), (7, 7), (8, 8)]:
        rng = random.Random(2024 + box[0])
        n = box[0] * box[1]
        times, ok = [], 0
        for _ in range(3):
            grid = full_grid(box, rng)
            holes = set(rng.sample(range(n * n), int(n * n * 0.3)))
            puzzle = Sudoku(box, [0 if i in holes else v for i, v in enumerate(grid)])
            result = engine.run(puzzle, limit=1, time_limit=10)
            ok += result.status is Status.SAT and result.verified
            times.append(result.times.solve)
        out.append(f"- {n}x{n} (seeded full grid, 30% of cells removed, 3 puzzles, limit 1): "
                   f"{ok}/3 solved and checked, median solve {statistics.median(times) * 1000:.1f} ms")
    return out


def bench_queens() -> list[str]:
    engine = BitboardEngine()
    result, wall, cpu = timed(lambda: engine.run(NQueens(15), limit=None))
    plain, wall_p, cpu_p = timed(lambda: BitboardEngine(options={"symmetry": False}).run(NQueens(15), limit=None))
    ref, _, cpu_ref = timed(lambda: MrvEngine().run(NQueens(8), limit=None))
    assert result.count == plain.count == 2_279_184
    return [f"- N-Queens n=15, all {result.count:,} solutions: {cpu:.2f} s CPU ({wall:.2f} s wall) with "
            f"mirror halving, {cpu_p:.2f} s CPU ({wall_p:.2f} s wall) without; target < 2 s "
            f"{'met' if cpu < 2 else 'MISSED'}; mrv reference: n=8 all 92 in {cpu_ref:.2f} s CPU"]


SKY_SIZES = (7, 8, 9)
SKY_GENERATED = 25   # proper puzzles a size, from generate_skyscrapers(n, random.Random(n))
SKY_REFERENCE = 2    # of them also solved by dlx (mrv times out at 7x7 and above)
SKY_FULL_CLUE_TRIES = 300


def sky_lines():
    for line in open(DATA / "skyscrapers_random_fullclue_n4to9_sample.txt"):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        n = int(f[0])
        clues = [list(map(int, x.split(","))) for x in f[1:5]]
        nsol = next(x.split("=")[1] for x in f if x.startswith("nsol="))
        yield Skyscrapers(n, *clues), nsol


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def sky_runs(engine, puzzles, limit=2, time_limit=60):
    """Results and CPU seconds a puzzle over the whole loop."""
    results, _, cpu = timed(lambda: [engine.run(p, limit=limit, time_limit=time_limit) for p in puzzles])
    return results, cpu / max(1, len(puzzles))


def bench_sky_generated(engine) -> list[str]:
    """Proper puzzles from the project's seeded generator (unique, proven by this engine),
    with dlx as the in-project reference on a few of them."""
    rows = ["| N | puzzles (seed) | bitboard median | max | CPU a puzzle | median nodes | "
            f"dlx on the first {SKY_REFERENCE} (bitboard on them) |", "|---|---|---|---|---|---|---|"]
    dlx = make_engine("dlx")
    for n in SKY_SIZES:
        rng = random.Random(n)
        puzzles = [generate_skyscrapers(n, rng) for _ in range(SKY_GENERATED)]
        results, cpu = sky_runs(engine, puzzles)
        assert all(r.status is Status.UNIQUE and r.verified for r in results), n
        times = [r.times.solve for r in results]
        refs = [dlx.run(p, limit=2, time_limit=20) for p in puzzles[:SKY_REFERENCE]]
        ref_text = ", ".join(f"{r.times.solve:.2f} s {r.status}" for r in refs)
        own = ", ".join(ms(r.times.solve) for r in results[:SKY_REFERENCE])
        rows.append(f"| {n} | {len(puzzles)} (random.Random({n})) | {ms(statistics.median(times))} "
                    f"{'< 1 ms met' if statistics.median(times) < 1e-3 else 'MISSED'} | {ms(max(times))} | "
                    f"{ms(cpu)} | {statistics.median(r.stats.nodes for r in results):.0f} | {ref_text} ({own}) |")
        print(rows[-1], flush=True)
    return rows


def bench_sky_full_clue(engine) -> list[str]:
    """All 4N clues of random Latin squares, no givens: how many are unique (a second
    generated family if they were), and the time to count each to 2."""
    out = []
    for n in SKY_SIZES:
        rng = random.Random(100 + n)
        puzzles = []
        for _ in range(SKY_FULL_CLUE_TRIES):
            puzzles.append(Skyscrapers(n, *clues_shown(n, random_latin_square(n, rng)).values()))
        results, cpu = sky_runs(engine, puzzles)
        assert all(r.verified and r.status in (Status.UNIQUE, Status.MULTIPLE) for r in results), n
        unique = sum(r.status is Status.UNIQUE for r in results)
        times = [r.times.solve for r in results]
        out.append(f"- Skyscrapers {n}x{n} full clues of random Latin squares (random.Random({100 + n}), "
                   f"{len(puzzles)} squares): {unique} unique; counted to 2 in median "
                   f"{ms(statistics.median(times))}, max {ms(max(times))}")
    return out


def bench_skyscrapers() -> list[str]:
    engine = BitboardEngine()
    nsol1, bad, twos, unknown = [], 0, {}, []
    mrv_times = []
    for p, nsol in sky_lines():
        r = engine.run(p, limit=2, time_limit=60)
        if nsol == "1":
            nsol1.append(r.times.solve)
            bad += r.status is not Status.UNIQUE or not r.verified
            if len(mrv_times) < 5 and p.n <= 5:
                mrv_times.append(MrvEngine().run(p, limit=2).times.solve)
        elif nsol == "2+":
            twos.setdefault(p.n, [0, 0])
            twos[p.n][0] += 1
            twos[p.n][1] += r.status is Status.MULTIPLE and r.count == 2 and r.verified
        else:  # nsol=?: the sample's 9x9 lines, never counted before
            assert r.verified and r.status in (Status.UNIQUE, Status.MULTIPLE, Status.UNSAT)
            unknown.append(r)
    med = statistics.median(nsol1)
    out = [f"- Skyscrapers nsol=1 (N=4-6, {len(nsol1)} puzzles): median {ms(med)}, max "
           f"{ms(max(nsol1))}, {bad} wrong; target median < 1 ms {'met' if med < 1e-3 else 'MISSED'}; "
           f"mrv median on 5 (N<=5): {ms(statistics.median(mrv_times))}",
           "- Skyscrapers nsol=2+ counted to 2: " + ", ".join(
               f"N={n}: {ok}/{total}" for n, (total, ok) in sorted(twos.items()))]
    if unknown:
        times = [r.times.solve for r in unknown]
        counts = {s: sum(r.status is s for r in unknown) for s in (Status.UNIQUE, Status.MULTIPLE, Status.UNSAT)}
        out.append(f"- Skyscrapers 9x9 nsol=? ({len(unknown)} lines) counted to 2: {counts[Status.UNIQUE]} "
                   f"unique, {counts[Status.MULTIPLE]} with 2+, {counts[Status.UNSAT]} none; median "
                   f"{ms(statistics.median(times))}, max {ms(max(times))}")
    out += ["", "Generated proper puzzles (`harness.generate.generate_skyscrapers`: random Latin "
            "square, all clues, givens until unique, then half the clues removed while unique), "
            "limit 2; median and max of the engine's solve time, CPU a puzzle over the loop:", "",
            *bench_sky_generated(engine), "", *bench_sky_full_clue(engine)]
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="5000 puzzles a 9x9 set, 200 16x16")
    ap.add_argument("--out", default=str(REPO / "results" / "bitboard.md"))
    ap.add_argument("--no-9x9", action="store_true", help="skip the three 9x9 sets")
    args = ap.parse_args()
    load_before = uptime()
    nine = [] if args.no_9x9 else ["## 9x9, limit 2, one thread, Python strings to Python results",
                                   *bench_9x9(args.quick), ""]
    sections = [*nine, "## Other shapes and kinds", *bench_16(args.quick), *bench_large(),
                *bench_queens(), *bench_skyscrapers()]
    command = ("python benchmarks/bench_bitboard.py" + (" --quick" if args.quick else "")
               + (" --no-9x9" if args.no_9x9 else ""))
    write_report(args.out, "# The native bitboard engines", command, load_before,
                 "Rates are puzzles per CPU second of this process (the machine is shared by other jobs; "
                 "wall figures beside). tdoku's figures are its own run_benchmark's on this machine kind, measured once beside an earlier version (tdoku is not built here; its guesses are from its benchmark output).", sections)
    return 0


MRV_SECTION = "## Skyscrapers in mrv"   # written by bench_mrv_towers.py into the same file
HOLES_SECTION = "## Large grids with random holes"   # by bench_large.py --holes
LARGE_SECTION = "## Large grids"   # by bench_large.py, last
KEPT_SECTIONS = (MRV_SECTION, HOLES_SECTION, LARGE_SECTION)   # in this order in the file


def _at(text: str, heading: str) -> int:
    """Where the section ``heading`` starts in ``text`` (a line of its own), or -1."""
    at = text.find("\n" + heading + "\n")
    return at + 1 if at >= 0 else -1


def splice_section(path: Path, heading: str, lines: list[str]) -> None:
    """The results file with the section ``heading`` (up to the next section another script
    writes, or the end) replaced by ``lines``, or put in its place among them."""
    text = path.read_text() if path.exists() else "# The native bitboard engines\n"
    body = "\n".join(lines).rstrip("\n") + "\n"
    mine = KEPT_SECTIONS.index(heading)
    later = [a for a in (_at(text, h) for h in KEPT_SECTIONS[mine + 1:]) if a >= 0]
    start = _at(text, heading)
    end = min(later) if later else len(text)
    if start < 0:
        start = end
    head, tail = text[:start].rstrip("\n"), text[end:]
    path.write_text(head + "\n\n" + body + ("\n" + tail if tail else ""))


def write_report(out: str, title: str, command: str, load_before: str, note: str, lines: list[str]) -> None:
    """The results file: title, command, machine and load, a note on the figures, the lines."""
    text = "\n".join([
        title, "",
        f"Command: `{command}` (extension built by `python setup.py build_ext --inplace`, "
        "portable -O3, no -march).", f"Machine: {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}; load before: `{load_before}`; after: `{uptime()}`.",
        note, "", *lines, ""])
    Path(out).parent.mkdir(exist_ok=True)
    old = Path(out).read_text() if Path(out).exists() else ""
    kept = [a for a in (_at(old, h) for h in KEPT_SECTIONS) if a >= 0]
    if kept:   # the sections other scripts measured stay
        text = text.rstrip("\n") + "\n\n" + old[min(kept):]
    Path(out).write_text(text)
    print(text)


if __name__ == "__main__":
    raise SystemExit(main())
