"""Benchmark of the native bitboard engines, with `mrv` as the in-project reference
measured in the same run on a small sample, and tdoku (optional, ``--tdoku PATH``) as the
9x9 reference measured in the same run.

    python benchmarks/bench_bitboard.py [--quick] [--out results/bitboard.md]
                                        [--tdoku PATH] [--only-9x9] [--parts] [--columns]

- 9x9 sets, limit 2, one thread, from Python strings to Python results:
  ``puzzlebench.solve_many(lines, solver="bitboard")`` with every record read (status, count,
  the solution's text, verified, guesses) and checked as it comes (tallies kept, no object a
  puzzle), and the engine's batch call alone on
  the packed puzzles (``BitboardEngine.batch``: its columns unread, nothing verified) in the
  same run; CPU time, best of 3.  With ``--tdoku PATH`` tdoku's own solver runs on the same
  lines in the same run, alternating with ours (ours, tdoku, ours, tdoku, ...; CPU time, best
  of 3), as its run_benchmark calls it (limit 2: counts to two solutions, no solution text,
  nothing verified; the puzzles as given, not permuted), with guesses per puzzle from tdoku's
  own counter and the ratios ours / tdoku.  Without it the table says tdoku was not given.
- 16x16 (all solved and proven unique), and 25x25 .. 64x64 made by a seeded generator (full
  grid, cells removed), solved with limit 1 and checked;
- N-Queens n = 15, all solutions (wall and CPU time);
- Skyscrapers: every nsol=1 puzzle (N = 4-6) and 25 proper 7x7, 8x8, 9x9 puzzles a size from
  the project's seeded generator (median and max; dlx as the reference on two a size); the
  nsol=2+ lines counted to 2 and the 9x9 nsol=? lines counted; full-clue puzzles of random
  Latin squares (how many are unique).  ``benchmarks/bench_skyscrapers.py`` runs this part
  alone.
``--only-9x9`` measures the 9x9 sets alone and replaces only that section of ``--out``.
``--columns`` measures the columnar result (``solve_many(..., columns=True)``) end to end on the
9x9 sets beside the record view, the batch call alone and tdoku (when given), into its own
section of ``--out``.
``--parts`` (with ``--tdoku``) prints where an end-to-end 9x9 run goes, a puzzle at a time:
reading the lines, the batch call, the records built and read, beside tdoku.
The machine's load (``uptime``) is written beside the figures: the machine is shared.

Building the tdoku reference (T. Dillon, tdoku, https://github.com/t-dillon/tdoku; its solver
is src/solver_dpll_triad_simd.cc, a C entry point ``TdokuSolverDpllTriadSimd(puzzle, limit,
configuration, solution, &guesses)``; never copied into this repository).  From a checkout of
tdoku, in a directory outside this repository, add a file ``tdoku_batch.cc`` holding one loop
over that entry point, so one ctypes call times a whole set::

    #include <cstddef>
    #include <cstdint>
    extern "C" size_t TdokuSolverDpllTriadSimd(const char *, size_t, uint32_t, char *, size_t *);
    extern "C" size_t TdokuBatch(const char *puzzles, size_t n, size_t stride, size_t limit,
                                 unsigned char *counts, size_t *total_guesses) {
        char solution[81];
        size_t sum = 0, ok = 0;
        for (size_t i = 0; i < n; i++) {
            size_t g = 0, c = TdokuSolverDpllTriadSimd(puzzles + i * stride, limit, 0, solution, &g);
            counts[i] = (unsigned char) c; sum += g; ok += (c == 1);
        }
        *total_guesses = sum;
        return ok;
    }

and build a shared library with the flags of tdoku's CMakeLists.txt (BUILD.sh runs CMake;
``-O3``, and ``-DSSE4_2=ON`` gives ``-msse4.2``, the portable build measured here; its
default ``ARCH=native`` gives ``-march=native``)::

    g++ -std=c++14 -O3 -msse4.2 -fno-exceptions -fno-rtti -fpic -shared \
        -o libtdoku_sse42.so src/solver_dpll_triad_simd.cc tdoku_batch.cc

(solver_dpll_triad_simd.cc also holds tdoku's generator, which needs src/util.cc: add it to
the command line, or leave the generator out.)  Then
``python benchmarks/bench_bitboard.py --only-9x9 --tdoku /path/to/libtdoku_sse42.so``.
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
from puzzlebench.generators.kinds import generate_skyscrapers  # noqa: E402
from puzzlebench.generators.latin import random_latin_square  # noqa: E402
from puzzlebench.engines.registry import make_engine  # noqa: E402
from puzzlebench.generators.fill import pattern_sudoku_grid  # noqa: E402
from puzzlebench.models.nqueens import NQueens  # noqa: E402
from puzzlebench.models.skyscrapers import Skyscrapers, clues_shown  # noqa: E402
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line  # noqa: E402
from puzzlebench.results import STATUS_CODE, Status  # noqa: E402
from puzzlebench.models.sudoku_batch import read_sudoku_lines  # noqa: E402
from puzzlebench.engines.bitboard import BitboardEngine  # noqa: E402
from puzzlebench.engines.mrv import MrvEngine  # noqa: E402

SETS_9 = [  # file; tdoku's published puzzles/s and guesses/puzzle (its README, another machine)
    ("sudoku9_royle_17clue_49158.txt", 209_000, 0.62),
    ("sudoku9_forum_hardest_1905_11plus.txt", 13_100, 65),
    ("sudoku9_magictour_top1465.txt", 77_700, 9.1),
]
TARGET = 0.9
"""Issue 20: bitboard end to end at >= 0.9 of tdoku in the same run."""


class Tdoku:
    """tdoku's solver from a shared library built as this module's docstring says: one call
    (``TdokuBatch``) runs a whole set through ``TdokuSolverDpllTriadSimd`` with limit 2."""

    STRIDE = 96   # 81 characters, a NUL (tdoku reads byte 81 to tell a pencilmark grid), padding

    def __init__(self, path: str):
        import ctypes
        self.ctypes = ctypes
        self.lib = ctypes.CDLL(path)
        self.lib.TdokuBatch.restype = ctypes.c_size_t
        self.lib.TdokuBatch.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t,
                                        ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]
        self.path = path

    def prepare(self, lines: list[str]) -> bytes:
        """tdoku's input form: '.' for a blank (untimed, as tdoku's run_benchmark loads first)."""
        return b"".join(l.replace("0", ".").encode().ljust(self.STRIDE, b"\0") for l in lines)

    def run(self, packed: bytes, n: int) -> tuple[int, int]:
        """(puzzles with exactly one solution, total guesses by tdoku's own counter)."""
        counts = self.ctypes.create_string_buffer(n)
        guesses = self.ctypes.c_size_t()
        unique = self.lib.TdokuBatch(packed, n, self.STRIDE, 2, counts, self.ctypes.byref(guesses))
        return unique, guesses.value


def lines_of(name: str) -> list[str]:
    with open(DATA / name) as f:
        return [l.strip()[:81] for l in f if l.strip() and not l.startswith("#")]


def kernel_copy() -> str:
    """Which copy of the 9x9 kernel ran (one per instruction set, picked by the processor at load
    time or by ``PUZZLEBENCH_NATIVE_KERNEL``: native/sudoku9_isa.c)."""
    from puzzlebench import _native
    return f"the 9x9 kernel's copy for {_native.sudoku9_kernel()}, picked at load time by native/sudoku9_isa.c"


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


def read_records(records) -> tuple[int, int]:
    """(puzzles unique with a verified 81-character solution, total guesses): every record read
    (status, count, the solution's text, verified, guesses) and checked as it comes; the
    tallies are kept, not a Python object a puzzle (a tuple holding a Status kept per puzzle
    made the cyclic collector walk them all: 0.3 to 0.8 us a puzzle on 17-clue, the caller's
    cost, not the records')."""
    unique = guesses = 0
    for r in records:
        status, count, solution, verified, g = r.status, r.count, r.solution, r.verified, r.stats.guesses
        unique += status is Status.UNIQUE and count == 1 and verified and len(solution) == 81
        guesses += g
    return unique, guesses


def parts_9x9(tdoku: Tdoku) -> list[str]:
    """Where an end-to-end run goes, a puzzle at a time (us, CPU, best of 3 each): reading the
    lines, the batch call, the rest of ``solve_many`` (the columns, the bulk check, every
    record built and read), and reading alone five fields of records already built (held, the
    collector frozen); beside tdoku's solve loop, and the ratio end to end had the records
    cost nothing."""
    import gc
    rows = ["| set | read the lines | the batch call | the rest: records built and read | reading built "
            "records alone | tdoku | end to end ratio | ratio with records built for nothing |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    engine = BitboardEngine()
    for name, _, _ in SETS_9:
        lines = lines_of(name)
        n = len(lines)

        def us(fn):
            return best_cpu(fn)[2] / n * 1e6

        parse = us(lambda: read_sudoku_lines(lines))
        packed, _ = read_sudoku_lines(lines)
        batch = us(lambda: engine.batch(packed, limit=2, time_limit=None, keep=1))
        whole = us(lambda: read_records(api.solve_many(lines, solver="bitboard", limit=2)))
        built = list(api.solve_many(lines, solver="bitboard", limit=2))
        gc.freeze()
        read = us(lambda: read_records(built))
        gc.unfreeze()
        del built
        tdoku_input = tdoku.prepare(lines)
        theirs = us(lambda: tdoku.run(tdoku_input, n))
        rows.append(f"| {name} | {parse:.2f} | {batch:.2f} | {whole - parse - batch:.2f} | {read:.2f} | "
                    f"{theirs:.2f} | {theirs / whole:.3f} | {theirs / (parse + batch + read):.3f} |")
        print(rows[-1], flush=True)
    return rows


def read_columns(table) -> tuple[int, int]:
    """(puzzles unique with a verified solution of 81 values, total nodes): every column a
    user of the columnar result reads (statuses, counts, solutions, verified, nodes), on whole
    arrays."""
    unique = ((table.status == STATUS_CODE[Status.UNIQUE]) & (table.count == 1) & table.verified
              & (table.solutions.min(axis=1) > 0))
    return int(unique.sum()), int(table.stats["nodes"].sum())


def columns_9x9(tdoku: Tdoku | None, quick: bool) -> list[str]:
    """The columnar result end to end (``solve_many(lines, columns=True)``, every column read)
    beside the record view end to end, the batch call alone and tdoku when given, alternating
    (columns, records, call, tdoku; three rounds, CPU, best of 3): us a puzzle and the ratios."""
    rows = ["| set | puzzles | read the lines | columns end to end, every column read | records end to end, "
            "every record read | the batch call alone | tdoku | ratio: the batch call / columns end to end | "
            "ratio: tdoku / columns end to end (target 0.9) |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    engine = BitboardEngine()
    for name, _, _ in SETS_9:
        lines = lines_of(name)[:5000] if quick else lines_of(name)
        n = len(lines)
        packed, _ = read_sudoku_lines(lines)
        tdoku_input = tdoku.prepare(lines) if tdoku else None
        runs: dict[str, list] = {"columns": [], "records": [], "call": [], "tdoku": [], "read": []}
        for _ in range(3):   # alternating, so that a change of load falls on all
            runs["columns"].append(timed(lambda: read_columns(api.solve_many(lines, solver="bitboard", limit=2,
                                                                              columns=True))))
            runs["records"].append(timed(lambda: read_records(api.solve_many(lines, solver="bitboard", limit=2))))
            runs["call"].append(timed(lambda: engine.batch(packed, limit=2, time_limit=None, keep=1)))
            runs["read"].append(timed(lambda: read_sudoku_lines(lines)))
            if tdoku:
                runs["tdoku"].append(timed(lambda: tdoku.run(tdoku_input, n)))
        us = {part: min(run[2] for run in done) / n * 1e6 for part, done in runs.items() if done}
        assert min(runs["columns"], key=lambda run: run[2])[0][0] == n, name
        theirs = (f"{us['tdoku']:.2f} | {us['call'] / us['columns']:.3f} | {us['tdoku'] / us['columns']:.3f}"
                  if tdoku else f"not built | {us['call'] / us['columns']:.3f} | —")
        rows.append(f"| {name} | {n} | {us['read']:.2f} | {us['columns']:.2f} | {us['records']:.2f} | "
                    f"{us['call']:.2f} | {theirs} |")
        print(rows[-1], flush=True)
    return rows


def bench_9x9(quick: bool, tdoku: Tdoku | None) -> list[str]:
    """Rates count everything from Python strings to every record read and verified (the
    target's terms); the engine's batch call alone beside it, and tdoku alternating with ours
    in the same run."""
    rows = ["| set | puzzles | bitboard puzzles/s: solve_many, every record read and verified (CPU, "
            "best of 3) | wall | the batch call alone | tdoku puzzles/s, same run (CPU, best of 3) | "
            "ratio to tdoku: end to end (target 0.9) | ratio: the batch call alone | guesses/puzzle "
            "(tdoku, same run) | dlx puzzles/s, same run | mrv puzzles/s (3 of the set) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    engine = BitboardEngine()
    for name, published, published_guesses in SETS_9:
        lines = lines_of(name)
        if quick:
            lines = lines[:5000]
        n = len(lines)

        def bitboard():
            return read_records(api.solve_many(lines, solver="bitboard", limit=2))

        packed, _ = read_sudoku_lines(lines)
        tdoku_input = tdoku.prepare(lines) if tdoku else None
        ours, calls, theirs = [], [], []
        for _ in range(3):   # alternating, so that a change of load falls on both
            ours.append(timed(bitboard))
            calls.append(timed(lambda: engine.batch(packed, limit=2, time_limit=None, keep=1)))
            if tdoku:
                theirs.append(timed(lambda: tdoku.run(tdoku_input, n)))
        (unique_ours, guesses_ours), wall, cpu = min(ours, key=lambda run: run[2])
        assert unique_ours == n, f"{name}: {unique_ours} of {n} unique and verified"
        guesses = guesses_ours / n
        call_cpu = min(run[2] for run in calls)
        dlx_lines = lines[:5000]
        (dlx_statuses), _, dlx_cpu = best_cpu(
            lambda: [r.status for r in api.solve_many(dlx_lines, solver="dlx", limit=2)], repeat=1)
        assert all(s is Status.UNIQUE for s in dlx_statuses), name
        sample = [parse_sudoku_line(l) for l in lines[:: max(1, len(lines) // 3)][:3]]
        reference = mrv_rate(sample)
        rate, call_rate = n / cpu, n / call_cpu
        if tdoku:
            (unique, tdoku_guesses), _, tdoku_cpu = min(theirs, key=lambda run: run[2])
            assert unique == n, f"{name}: tdoku found {unique} of {n} unique"
            tdoku_rate = n / tdoku_cpu
            ratio = rate / tdoku_rate
            tdoku_cells = (f"{tdoku_rate:,.0f} | {ratio:.2f} {'met' if ratio >= TARGET else 'missed'} | "
                           f"{call_rate / tdoku_rate:.2f} | {guesses:.2f} ({tdoku_guesses / n:.2f})")
        else:
            tdoku_cells = (f"not given (published: {published:,}) | — | — | {guesses:.2f} "
                           f"(published: {published_guesses})")
        rows.append(f"| {name} | {n} | {rate:,.0f} | {n / wall:,.0f} | {call_rate:,.0f} | {tdoku_cells} | "
                    f"{len(dlx_lines) / dlx_cpu:,.0f} | {reference:,.1f} |")
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


full_grid = pattern_sudoku_grid  # a random complete grid; box (1, n) gives a shuffled Latin square


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
    out += ["", "Generated proper puzzles (`generators.kinds.generate_skyscrapers`: random Latin "
            "square, all clues, givens until unique, then half the clues removed while unique), "
            "limit 2; median and max of the engine's solve time, CPU a puzzle over the loop:", "",
            *bench_sky_generated(engine), "", *bench_sky_full_clue(engine)]
    return out


NINE_SECTION = "## 9x9, limit 2, one thread, Python strings to Python results"
OTHER_SECTION = "## Other shapes and kinds"


def tdoku_note(tdoku: Tdoku | None) -> str:
    if tdoku is None:
        return ("tdoku was not given (`--tdoku PATH`): its figures beside ours are its README's, from "
                "another machine, not a ratio measured here.")
    return (f"tdoku: `{tdoku.path}`, built from its public repository as the benchmark's docstring says "
            "(its solver_dpll_triad_simd.cc, g++ -O3 -msse4.2, its portable build, which needs SSE4.2; ours is "
            "built for any x86-64, its 9x9 kernel's copy for this processor picked at load time), run in the same process on the same lines, alternating with ours; its rate is its "
            "solve loop alone at limit 2 (a count to two, no solution text, nothing verified), ours "
            "from Python strings to every record read and verified (checked as it comes: tallies "
            "kept, not an object a puzzle).")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="5000 puzzles a 9x9 set, 200 16x16")
    ap.add_argument("--out", default=str(REPO / "results" / "bitboard.md"))
    ap.add_argument("--no-9x9", action="store_true", help="skip the three 9x9 sets")
    ap.add_argument("--only-9x9", action="store_true",
                    help="the three 9x9 sets alone, replacing only their section of --out")
    ap.add_argument("--tdoku", metavar="PATH", help="tdoku's solver as a shared library (see the docstring)")
    ap.add_argument("--parts", action="store_true",
                    help="with --tdoku: where an end-to-end 9x9 run goes, printed (the file is left alone)")
    ap.add_argument("--columns", action="store_true",
                    help="the columnar result end to end on the 9x9 sets, against the records, the batch call "
                         "and tdoku (when given), into its own section of --out")
    args = ap.parse_args()
    tdoku = Tdoku(args.tdoku) if args.tdoku else None
    if args.columns:
        load_before = uptime()
        rows = columns_9x9(tdoku, args.quick)
        command = ("python benchmarks/bench_bitboard.py --columns" + (" --quick" if args.quick else "")
                   + (" --tdoku PATH" if tdoku else ""))
        splice_section(Path(args.out), COLUMNS_SECTION, [
            COLUMNS_SECTION, "", f"Command: `{command}` ({kernel_copy()}); load before: `{load_before}`; after: "
            f"`{uptime()}`. {COLUMNS_NOTE}", "", *rows])
        return 0
    if args.parts:
        if tdoku is None:
            ap.error("--parts needs --tdoku PATH")
        parts_9x9(tdoku)
        return 0
    load_before = uptime()
    command = ("python benchmarks/bench_bitboard.py" + (" --quick" if args.quick else "")
               + (" --no-9x9" if args.no_9x9 else "") + (" --only-9x9" if args.only_9x9 else "")
               + (" --tdoku PATH" if tdoku else ""))
    nine = [] if args.no_9x9 else [NINE_SECTION, "", tdoku_note(tdoku), "", *bench_9x9(args.quick, tdoku), ""]
    if args.only_9x9:
        replace_nine(args.out, command, load_before, nine)
        return 0
    sections = [*nine, OTHER_SECTION, *bench_16(args.quick), *bench_large(),
                *bench_queens(), *bench_skyscrapers()]
    write_report(args.out, "# The native bitboard engines", command, load_before,
                 "Rates are puzzles per CPU second of this process (the machine is shared by other jobs; "
                 "wall figures beside).", sections)
    return 0


def replace_nine(out: str, command: str, load_before: str, nine: list[str]) -> None:
    """Only the 9x9 section of the results file, its command and load written into it."""
    text = Path(out).read_text() if Path(out).exists() else ""
    if NINE_SECTION in text and OTHER_SECTION in text:
        head, rest = text.split(NINE_SECTION, 1)
        tail = OTHER_SECTION + rest.split(OTHER_SECTION, 1)[1]
    else:   # a new file: the 9x9 section alone
        head, tail = "# The native bitboard engines\n\n", ""
    nine[0] = (f"{NINE_SECTION}\n\nCommand: `{command}` ({kernel_copy()}); load before: `{load_before}`; "
               f"after: `{uptime()}`. Rates are puzzles per CPU second of this process.")
    Path(out).write_text(head + "\n".join(nine) + "\n" + tail)
    print("\n".join(nine))


MRV_SECTION = "## Skyscrapers in mrv"   # written by bench_mrv_towers.py into the same file
HOLES_SECTION = "## Large grids with random holes"   # by bench_large.py --holes
LARGE_SECTION = "## Large grids"   # by bench_large.py
COLUMNS_SECTION = "## 9x9 end to end through the columnar result (issue 33, build item 4)"   # by --columns
COLUMNS_NOTE = ("Us a puzzle, CPU, best of 3, the parts alternating in one process: `solve_many(lines, "
                "columns=True)` from the lines to the verified arrays, every column read (statuses, counts, "
                "solutions, verified, nodes, on whole arrays); the record view end to end as the 9x9 table "
                "reads it; the batch call alone (`BitboardEngine.batch` on the packed lines, its columns "
                "unread, nothing verified); tdoku's solve loop when `--tdoku` is given.")
TDOKU_NOTES = "## 9x9 against tdoku (issue 20, build item 1)"   # written by hand: what changed, what did not
KEPT_SECTIONS = (MRV_SECTION, HOLES_SECTION, LARGE_SECTION, COLUMNS_SECTION, TDOKU_NOTES)   # in this order


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
        f"portable -O3, no -march; {kernel_copy()}).", f"Machine: {platform.processor() or platform.machine()}, "
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
