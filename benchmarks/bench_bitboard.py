"""The native 9x9 bitboard engine against its references in the same run; writes the sections
"9x9, limit 2, ..." and "9x9 end to end through the columnar result" of results/bitboard.md (the
other sections are other scripts' or written by hand; "Other shapes and kinds" was written by
this script in the tree at 8c9a24d).

    python benchmarks/bench_bitboard.py [--puzzles N] [--tdoku PATH] [--columns]

- 9x9 sets, limit 2, one thread: ``puzzlebench.solve_many(lines, solver="bitboard")`` with every
  record read (status, count, solution, verified, guesses), the batch call alone
  (``BitboardEngine.batch``), dlx and mrv beside, and tdoku's solver (``--tdoku``) alternating
  with ours as its run_benchmark calls it (limit 2, the puzzles as given); CPU time, best of 3.
- ``--columns``: ``solve_many(lines, columns=True)`` end to end, every column read, beside the
  record view, the batch call alone and tdoku.

tdoku (T. Dillon, github.com/t-dillon/tdoku; never copied here) is built as a shared library
with a one-loop driver ``tdoku_batch.cc`` over its C entry point, so one ctypes call times a
whole set::

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

    g++ -std=c++14 -O3 -msse4.2 -fno-exceptions -fno-rtti -fpic -shared \
        -o libtdoku_sse42.so src/solver_dpll_triad_simd.cc src/util.cc tdoku_batch.cc

(the flags of tdoku's CMake option ``SSE4_2``, its portable build).
"""

from __future__ import annotations

import argparse

from puzzlebench import _native, api
from puzzlebench.engines.bitboard import BitboardEngine
from puzzlebench.engines.mrv import MrvEngine
from puzzlebench.harness.pages import (Tdoku, columns_read, command_line, data_lines, load_now, md_table,
                                       splice_section, take_turns, timed)
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.models.sudoku_batch import read_sudoku_lines
from puzzlebench.results import Status

SETS_9 = [  # file; tdoku's published puzzles/s and guesses/puzzle (its README, another machine)
    ("sudoku9_royle_17clue_49158.txt", 209_000, 0.62),
    ("sudoku9_forum_hardest_1905_11plus.txt", 13_100, 65),
    ("sudoku9_magictour_top1465.txt", 77_700, 9.1),
]
TARGET = 0.95   # bitboard's records end to end at >= 0.95 of tdoku in the same run
COLUMNS_TARGET = 0.9   # its columnar result end to end at >= 0.9 of tdoku
PAGE = "results/bitboard.md"
NINE = "## 9x9, limit 2, one thread, Python strings to Python results"
COLUMNS = "## 9x9 end to end through the columnar result"


def lines_9(name: str, puzzles: int | None) -> list[str]:
    return [line.strip()[:81] for line in data_lines(name, limit=puzzles)]


def read_records(records) -> tuple[int, int]:
    """(puzzles unique with a verified 81-character solution, total guesses): every record read
    (status, count, solution text, verified, guesses and nodes) and checked as it comes, tallies
    kept rather than an object a puzzle (the caller's cost, not the records')."""
    unique = guesses = nodes = 0
    for r in records:
        status, count, solution, verified, stats = r.status, r.count, r.solution, r.verified, r.stats
        unique += status is Status.UNIQUE and count == 1 and verified and len(solution) == 81
        guesses += stats.guesses
        nodes += stats.nodes
    return unique, guesses


def alternating(parts: dict) -> dict:
    """Each part's run of least CPU time over three rounds, the parts taking turns."""
    return {name: min(done, key=lambda run: run[2]) for name, done in take_turns(parts, 3).items()}


def bench_9x9(puzzles: int | None, tdoku: Tdoku | None) -> list[str]:
    rows, engine = [], BitboardEngine()
    for name, published, published_guesses in SETS_9:
        lines = lines_9(name, puzzles)
        n, (packed, _) = len(lines), read_sudoku_lines(lines)
        parts = {"ours": lambda: read_records(api.solve_many(lines, solver="bitboard", limit=2)),
                 "call": lambda: engine.batch(packed, limit=2, time_limit=None, keep=1)}
        if tdoku:
            their_input = tdoku.prepare(lines)
            parts["tdoku"] = lambda: tdoku.run(their_input, n)
        best = alternating(parts)
        (unique, guesses), wall, cpu = best["ours"]
        assert unique == n, f"{name}: {unique} of {n} unique and verified"
        dlx_lines = lines[:5000]
        statuses, _, dlx_cpu = timed(lambda: [r.status for r in api.solve_many(dlx_lines, solver="dlx", limit=2)])
        assert all(s is Status.UNIQUE for s in statuses), name
        sample = [parse_sudoku_line(line) for line in lines[::max(1, n // 3)][:3]]
        _, _, mrv_cpu = timed(lambda: [MrvEngine().run(p, limit=2, time_limit=60) for p in sample])
        rate, call_rate = n / cpu, n / best["call"][2]
        if tdoku:
            (their_unique, their_guesses), _, their_cpu = best["tdoku"]
            assert their_unique == n, f"{name}: tdoku found {their_unique} of {n} unique"
            ratio = rate * their_cpu / n
            theirs = [f"{n / their_cpu:,.0f}", f"{ratio:.2f} {'met' if ratio >= TARGET else 'missed'}",
                      f"{call_rate * their_cpu / n:.2f}", f"{guesses / n:.2f} ({their_guesses / n:.2f})"]
        else:
            theirs = [f"not given (published: {published:,})", "—", "—",
                      f"{guesses / n:.2f} (published: {published_guesses})"]
        rows.append([name, n, f"{rate:,.0f}", f"{n / wall:,.0f}", f"{call_rate:,.0f}", *theirs,
                     f"{len(dlx_lines) / dlx_cpu:,.0f}", f"{len(sample) / mrv_cpu:,.1f}"])
    return md_table(["set", "puzzles", "bitboard puzzles/s: solve_many, every record read and verified (CPU, best of "
                     "3)", "wall", "the batch call alone", "tdoku puzzles/s, same run (CPU, best of 3)", "ratio to tdoku: "
                     f"end to end (target {TARGET})", "ratio: the batch call alone", "guesses/puzzle (tdoku, same run)",
                     "dlx puzzles/s, same run", "mrv puzzles/s (3 of the set)"], rows, "lrrrrrrrlrr")


def columns_9x9(puzzles: int | None, tdoku: Tdoku | None) -> list[str]:
    rows, engine = [], BitboardEngine()
    for name, _, _ in SETS_9:
        lines = lines_9(name, puzzles)
        n, (packed, _) = len(lines), read_sudoku_lines(lines)
        parts = {"columns": lambda: columns_read(api.solve_many(lines, solver="bitboard", limit=2, columns=True)),
                 "records": lambda: read_records(api.solve_many(lines, solver="bitboard", limit=2)),
                 "call": lambda: engine.batch(packed, limit=2, time_limit=None, keep=1),
                 "read": lambda: read_sudoku_lines(lines)}
        if tdoku:
            their_input = tdoku.prepare(lines)
            parts["tdoku"] = lambda: tdoku.run(their_input, n)
        best = alternating(parts)
        assert best["columns"][0][0] == n, name
        us = {part: run[2] / n * 1e6 for part, run in best.items()}
        rows.append([name, n, *(f"{us[part]:.2f}" for part in ("read", "columns", "records", "call")),
                     f"{us['tdoku']:.2f}" if tdoku else "not built", f"{us['call'] / us['columns']:.3f}",
                     f"{us['tdoku'] / us['columns']:.3f}" if tdoku else "—"])
    return md_table(["set", "puzzles", "read the lines", "columns end to end, every column read", "records end to end, "
                     "every record read", "the batch call alone", "tdoku", "ratio: the batch call / columns end to end",
                     f"ratio: tdoku / columns end to end (target {COLUMNS_TARGET})"], rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, help="at most N puzzles a set (default: every one)")
    ap.add_argument("--tdoku", metavar="PATH", help="tdoku's solver as a shared library (see the docstring)")
    ap.add_argument("--columns", action="store_true", help="the columnar result's section alone")
    ap.add_argument("--out", default=PAGE)
    args = ap.parse_args()
    tdoku = Tdoku(args.tdoku) if args.tdoku else None
    kernel = f"the 9x9 kernel's copy for {_native.sudoku9_kernel()}, picked at load time by native/sudoku9_isa.c"

    def section(heading: str, rows: list[str], before: str, what: str) -> None:
        splice_section(args.out, heading, [f"Command: `{command_line()}` ({kernel}); load before: `{before}`; after: "
                                           f"`{load_now()}`. {what}", "", *rows])

    before = load_now()
    if args.columns:
        section(COLUMNS, columns_9x9(args.puzzles, tdoku), before,
                "Us a puzzle, CPU, best of 3, the parts alternating in one process.")
        return 0
    section(NINE, bench_9x9(args.puzzles, tdoku), before,
            "Rates are puzzles per CPU second of this process. tdoku ([the reference](#the-tdoku-reference)) runs "
            "in the same process on the same lines, alternating with ours; its rate is its solve loop alone at "
            "limit 2 (a count to two, no solution text, nothing verified), ours from Python strings to every "
            "record read: status, count, solution text, verified, guesses and nodes, checked as it comes.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
