"""A native batch split over threads, end to end: 9x9 lines read, solved (limit 2), verified and
every column read, with ``puzzlebench.solve_many(lines, solver, columns=True, threads=N)`` for
N = 1, 2 and 0 (every core); writes results/threads.md.

    python benchmarks/bench_threads.py [--puzzles N] [--runs R] [--seconds S] [--solver bitboard|dlx] [--tdoku PATH]

Wall clock (threads share one process's CPU time, so CPU time says nothing of the speed-up),
best of ``--runs`` rounds (more for a short set: ``--seconds``), the thread counts taking turns in
each round so that a change of the machine's load falls on all of them; the load averages
before and after each set are stated.
tdoku's solve loop (``--tdoku PATH``, the shared library benchmarks/bench_bitboard.py's docstring
builds) takes its turn in the same rounds, on one thread, on the same lines.
"""

from __future__ import annotations

import argparse
import os

import puzzlebench
from puzzlebench.harness.pages import (Tdoku, columns_read, command_line, data_lines, load_now, md_table,
                                       take_turns, timed, write_page)

SETS = [("sudoku9_royle_17clue_49158.txt", "17 clues"), ("sudoku9_forum_hardest_1905_11plus.txt", "forum hardest 11+")]
THREADS = (1, 2, 0)
SPEED_UP, OVER_TDOKU = 1.8, 1.7   # targets: threads=2 over threads=1; threads=2 over tdoku's one thread
PAGE = "results/threads.md"


def read_columns(table) -> int:
    """Puzzles unique with a verified solution, every column a user reads looked at."""
    assert not table.errors
    return columns_read(table)[0]


def best_walls(lines: list[str], solver: str, runs: int, seconds: float, tdoku: Tdoku | None) -> dict:
    """The least wall time of each thread count (and of tdoku's loop, key ``"tdoku"``) over
    ``runs`` rounds, or as many as one thread takes ``seconds`` for (a short set's best run is
    then not one another process disturbed), taking turns."""
    n = len(lines)
    parts = {threads: (lambda threads=threads: read_columns(puzzlebench.solve_many(
        lines, solver=solver, limit=2, columns=True, threads=threads))) for threads in THREADS}
    if tdoku:
        their_input = tdoku.prepare(lines)
        parts["tdoku"] = lambda: tdoku.run(their_input, n)[0]
    _, first, _ = timed(lambda: puzzlebench.solve_many(lines, solver=solver, columns=True))   # untimed: imports
    best = {}
    for part, done in take_turns(parts, max(runs, int(seconds / first))).items():
        assert all(unique == n for unique, _, _ in done), f"{part}: not every one of {n} unique"
        best[part] = min(wall for _, wall, _ in done)
    return best


def ratio_text(ratio: float | None, target: float | None) -> str:
    if ratio is None:
        return "—"
    return f"{ratio:.2f}" + ("" if target is None else f" ({'met' if ratio >= target else 'missed'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, help="the first N lines of each set (default: all)")
    parser.add_argument("--runs", type=int, default=5, help="rounds, the best of which is kept (default 5)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="more rounds of a short set, as many as one thread takes this long for (default 10)")
    parser.add_argument("--solver", default="bitboard", choices=("bitboard", "dlx"))
    parser.add_argument("--tdoku", metavar="PATH", help="tdoku's solver as a shared library (bench_bitboard.py's docstring)")
    parser.add_argument("--out", default=PAGE)
    args = parser.parse_args()
    cores, tdoku, rows, loads = len(os.sched_getaffinity(0)), Tdoku(args.tdoku) if args.tdoku else None, [], []
    for name, label in SETS:
        lines = [line.split()[0] for line in data_lines(name, limit=args.puzzles)]
        before = load_now()
        walls = best_walls(lines, args.solver, args.runs, args.seconds, tdoku)
        after = load_now()
        loads += [before, after]
        for threads in THREADS:
            rate = len(lines) / walls[threads]
            ratios = [(rate * walls[1] / len(lines), SPEED_UP), (walls["tdoku"] / walls[threads] if tdoku else None, OVER_TDOKU)]
            rows.append([label, len(lines), f"0 ({cores} cores)" if threads == 0 else threads, f"{walls[threads]:.3f}",
                         f"{rate:,.0f}", *[ratio_text(ratio, target if threads == 2 else None) for ratio, target in ratios],
                         f"{before} / {after}"])
    table = md_table(["set", "puzzles", "threads", f"wall s (best of {args.runs} rounds or {args.seconds:g} s)", "puzzles/s",
                      f"over 1 thread (target {SPEED_UP} at 2)", f"over tdoku's one thread (target {OVER_TDOKU} at 2)",
                      "load before / after"], rows, "llrrrrrl")
    write_page(args.out, title="A native batch split over threads",
               lead=(f"`solve_many(lines, solver={args.solver!r}, limit=2, columns=True, threads=N)`: the lines "
                     "read, solved, verified in bulk and every column read, per wall second. tdoku: its solve loop "
                     "alone at limit 2 on one thread (no solution text, nothing verified), built from its public "
                     "repository as benchmarks/bench_bitboard.py's docstring says, timed in the same rounds on "
                     "the same lines" + ("." if tdoku else " (not given to this run).")),
               command=command_line(), writer="benchmarks/bench_threads.py", loads=loads, lines=table)


if __name__ == "__main__":
    main()
