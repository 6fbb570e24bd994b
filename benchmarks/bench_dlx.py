"""Benchmark of the Dancing Links engines; writes results/dlx.md.

Measured, each with its reference in the same run:

1. 9x9 Sudoku, limit 2 (solve and prove unique), through ``api.solve_many`` on the lines of
   the 17-clue, top1465 and forum-hardest sets, and the C batch alone; reference: kudoku
   (the DLX entry of tdoku's benchmark) when its source is given with ``--kudoku FILE``
   (compiled here with ``gcc -O3``; puzzlebench does not ship it), plus the published figures.
2. 12-queens, all 14,200 solutions; reference: miniexact (PyPI) when installed.
3. 16-queens, Knuth's formulation, all solutions: 14,772,512 solutions and Knuth's
   193,032,021 nodes (``--skip-16`` leaves it out: it takes about half a minute of CPU).
4. top95: the C engine and the Python twin give equal counters on every puzzle.

Times: wall clock and CPU time of this process (the machine is shared; the load from
``uptime`` is recorded beside the figures).  Run: ``python benchmarks/bench_dlx.py``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path


from puzzlebench import api
from puzzlebench.encoders.exact_cover import encode_queens
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.runtime.limits import Deadline
from puzzlebench.engines.dlx import DlxEngine, solve_matrix
from puzzlebench.engines.dlx_py import DlxPyEngine
from puzzlebench.harness.pages import command_line, data_folder, data_lines, load_now, write_page

DATA = data_folder()

LEAD = ("The Dancing Links engines against kudoku (the DLX entry of tdoku's benchmark, built from its public "
        "source in the same run) and Knuth's published counts.")
SETS = [  # file, how many lines, tdoku's published DLX (kudoku) rate, puzzles/s
    ("sudoku9_royle_17clue_49158.txt", None, 33_800),
    ("sudoku9_magictour_top1465.txt", None, 8_300),
    ("sudoku9_forum_hardest_1905_11plus.txt", 10_000, 1_900),
]


def lines_of(name: str, limit: int | None) -> list[str]:
    return [line.split()[0] for line in data_lines(name, limit=limit)]


def timed(fn, repeat: int = 1):
    """Best wall and best CPU time of ``repeat`` calls, and the last value."""
    walls, cpus, value = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        value = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus), value


def build_kudoku(source: str | None) -> str | None:
    if not source:
        return None
    exe = os.path.join(tempfile.mkdtemp(), "kudoku")
    subprocess.run(["gcc", "-O3", "-o", exe, source], check=True)
    return exe


def run_kudoku(exe: str, name: str, limit: int | None) -> tuple[int, float, int]:
    """(puzzles, CPU seconds, unique) as the reference's own main() reports them."""
    out = subprocess.run([exe, str(DATA / name), str(limit or 0)], capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[0]), float(out[1]), int(out[2])


def sudoku_section(report: list[str], kudoku: str | None, most: int | None) -> None:
    report += ["## 9x9 Sudoku, limit 2 (solve and prove unique)", "",
               "`solve_many` is `api.solve_many(lines, solver=\"dlx\")`: lines in, results out "
               "(every answer verified in bulk before it returns; each record built when read, `materialised` reads them all). "
               "`C batch` is the engine alone (givens in, counts out). kudoku: the reference, CPU "
               "time of its own loop, same machine, same run.", "",
               "| set | puzzles | solve_many wall/s | solve_many CPU/s | materialised CPU/s | "
               "C batch CPU/s | kudoku CPU/s (same run) | tdoku's published DLX | all unique |",
               "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    engine = DlxEngine()
    for name, limit, published in SETS:
        lines = lines_of(name, min(filter(None, (limit, most)), default=None))
        wall, cpu, results = timed(lambda: api.solve_many(lines, solver=engine), repeat=2)
        _, cpu_all, full = timed(lambda: list(api.solve_many(lines, solver=engine)))
        unique = all(r.verified and str(r.status) == "unique" for r in full)
        puzzles = [parse_sudoku_line(t) for t in lines]
        data = b"".join(bytes(p.givens) for p in puzzles)
        from puzzlebench import _native
        _, cpu_c, _ = timed(lambda: _native.dlx_sudoku_batch(data, 3, 3, 2, 1, 0.0), repeat=2)
        ref = "not run (give --kudoku FILE)"
        if kudoku:
            n, seconds, uniq = run_kudoku(kudoku, name, limit)
            ref = f"{n / seconds:,.0f}"
        n = len(lines)
        report.append(f"| {name} | {n:,} | {n / wall:,.0f} | {n / cpu:,.0f} | {n / cpu_all:,.0f} | "
                      f"{n / cpu_c:,.0f} | {ref} | {published:,} | {unique} |")
        print(report[-1], flush=True)
    report.append("")


def queens12_section(report: list[str]) -> None:
    matrix = encode_queens(12)
    wall, cpu, outcome = timed(lambda: solve_matrix(matrix, None, 0, None), repeat=10)
    row = [f"| dlx (C) | {outcome.count:,} | {outcome.stats.raw['nodes']:,} | "
           f"{wall * 1e3:.1f} | {cpu * 1e3:.1f} |"]
    try:
        import miniexact

        def mini():
            x = miniexact.miniexacts_x()
            ids = [x.primary(p) for p in matrix.primary] + [x.secondary(s) for s in matrix.secondary]
            for option in matrix.options:
                x.add([ids[i] for i, _ in option])
            count = 0
            w, c = time.perf_counter(), time.process_time()
            while x.solve() == 10:
                count += 1
            return count, time.perf_counter() - w, time.process_time() - c
        runs = [mini() for _ in range(5)]
        row.append(f"| miniexact {miniexact.miniexacts_version() if hasattr(miniexact, 'miniexacts_version') else ''} "
                   f"(reference; its solve loop) | {runs[0][0]:,} | | {min(r[1] for r in runs) * 1e3:.1f} | "
                   f"{min(r[2] for r in runs) * 1e3:.1f} |")
    except ImportError:
        row.append("| miniexact | not installed (pip install miniexact) | | | |")
    report += ["## 12-queens, all solutions (Knuth's formulation)", "",
               "Best of 10 (miniexact: of 5) calls; the target is under 40 ms.", "",
               "| engine | solutions | nodes | wall ms | CPU ms |", "|---|---:|---:|---:|---:|",
               *row, ""]
    print("\n".join(row), flush=True)


def queens16_section(report: list[str]) -> None:
    matrix = encode_queens(16)
    wall, cpu, outcome = timed(lambda: solve_matrix(matrix, None, 0, None))
    raw = outcome.stats.raw
    ok = outcome.count == 14_772_512 and raw["nodes"] == 193_032_021
    report += ["## 16-queens, organ-pipe order, all solutions", "",
               "| solutions | nodes | updates | wall s | CPU s | Knuth's figures (14,772,512 / 193,032,021) |",
               "|---:|---:|---:|---:|---:|---|",
               f"| {outcome.count:,} | {raw['nodes']:,} | {raw['updates']:,} | {wall:.1f} | {cpu:.1f} | "
               f"{'equal' if ok else 'DIFFERENT'} |", ""]
    print(report[-2], flush=True)


def top95_section(report: list[str]) -> None:
    puzzles = [parse_sudoku_line(t) for t in lines_of("sudoku9_norvig_top95.txt", None)]
    c, py = DlxEngine(), DlxPyEngine()
    equal = 0
    for p in puzzles:
        a, b = c.encode(p), py.encode(p)
        ra = c.search(a, 2, 1, Deadline(None))
        rb = py.search(b, 2, 1, Deadline(None))
        equal += (ra.count, ra.stats.raw) == (rb.count, rb.stats.raw)
    report += ["## top95: the C engine and its Python twin", "",
               f"Equal counts, nodes and updates on {equal} of {len(puzzles)} puzzles (limit 2).", ""]
    print(report[-2], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kudoku", metavar="FILE", help="kudoku's C source (with a main that "
                        "prints 'puzzles cpu_seconds unique' for FILE [MAX]) to measure as reference")
    parser.add_argument("--skip-16", action="store_true", help="leave out 16-queens")
    parser.add_argument("--puzzles", type=int, help="at most N puzzles a 9x9 set (default: as SETS says)")
    parser.add_argument("--out", default="results/dlx.md")
    args = parser.parse_args()
    before, report = load_now(), []
    kudoku = build_kudoku(args.kudoku)
    sudoku_section(report, kudoku, args.puzzles)
    queens12_section(report)
    top95_section(report)
    if not args.skip_16:
        queens16_section(report)
    print(write_page(args.out, title="Dancing Links (dlx, dlx-py): benchmark", lead=LEAD, command=command_line(),
                     writer="benchmarks/bench_dlx.py", loads=[before, load_now()], lines=report,
                     keep=("## Notes", "## Design notes")))


if __name__ == "__main__":
    main()
