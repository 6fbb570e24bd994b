"""Benchmark of the Dancing Links engines; writes results/dlx.md.

Measured, each with its reference in the same run:

1. 9x9 Sudoku, limit 2 (solve and prove unique), through ``api.solve_many`` on the lines of
   the 17-clue, top1465 and forum-hardest sets, and the C batch alone; reference: kudoku
   (the DLX entry of tdoku's benchmark) when its source is given with ``--kudoku FILE``
   (compiled here with ``gcc -O3``; puzzlebench does not ship it), plus the published figures.
2. 12-queens, all 14,200 solutions; reference: miniexact (PyPI) when installed.

The sections "top95: the C engine and its Python twin" and "16-queens" (Knuth's counts) were
measured by this script in the tree at 8c9a24d and are kept as the page has them.

Times: CPU time of this process and the wall time of the same call, the call of least CPU
time of its repeats (``pages.best_cpu``: the machine is shared; the load is in the provenance).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from puzzlebench import _native, api
from puzzlebench.encoders.exact_cover import encode_queens
from puzzlebench.engines.dlx import DlxEngine, solve_matrix
from puzzlebench.harness.pages import best_cpu, command_line, data_folder, data_lines, load_now, md_table, write_page
from puzzlebench.models.sudoku import parse_sudoku_line

SETS = [  # file, how many lines, tdoku's published DLX (kudoku) rate, puzzles/s
    ("sudoku9_royle_17clue_49158.txt", None, 33_800),
    ("sudoku9_magictour_top1465.txt", None, 8_300),
    ("sudoku9_forum_hardest_1905_11plus.txt", 10_000, 1_900),
]


def build_kudoku(source: str | None) -> str | None:
    """kudoku built from its C source with ``gcc -O3`` (puzzlebench does not ship it)."""
    if not source:
        return None
    exe = str(Path(tempfile.mkdtemp()) / "kudoku")
    subprocess.run(["gcc", "-O3", "-o", exe, source], check=True)
    return exe


def kudoku_rate(exe: str | None, name: str, limit: int | None) -> str:
    """kudoku's puzzles per CPU second on a set, as its own main() reports them ('puzzles
    cpu_seconds unique')."""
    if not exe:
        return "not run (give --kudoku FILE)"
    out = subprocess.run([exe, str(data_folder() / name), str(limit or 0)], capture_output=True, text=True,
                         check=True).stdout.split()
    return f"{int(out[0]) / float(out[1]):,.0f}"


def sudoku_section(kudoku: str | None, most: int | None) -> list[str]:
    rows, engine, exe = [], DlxEngine(), build_kudoku(kudoku)
    for name, limit, published in SETS:
        limit = min(filter(None, (limit, most)), default=None)
        lines = [line.split()[0] for line in data_lines(name, limit=limit)]
        _, wall, cpu = best_cpu(lambda: api.solve_many(lines, solver=engine), repeat=2)
        full, _, cpu_all = best_cpu(lambda: list(api.solve_many(lines, solver=engine)), repeat=1)
        data = b"".join(bytes(parse_sudoku_line(t).givens) for t in lines)
        _, _, cpu_c = best_cpu(lambda: _native.dlx_sudoku_batch(data, 3, 3, 2, 1, 0.0), repeat=2)
        n = len(lines)
        rows.append([name, f"{n:,}", *(f"{n / t:,.0f}" for t in (wall, cpu, cpu_all, cpu_c)),
                     kudoku_rate(exe, name, limit), f"{published:,}",
                     all(r.verified and str(r.status) == "unique" for r in full)])
    return ["## 9x9 Sudoku, limit 2 (solve and prove unique)", "",
            "`solve_many` is `api.solve_many(lines, solver=\"dlx\")`: lines in, results out (every answer verified "
            "in bulk before it returns; each record built when read, `materialised` reads them all). `C batch` is "
            "the engine alone (givens in, counts out). kudoku: the reference, CPU time of its own loop, same "
            "machine, same run.", "",
            *md_table(["set", "puzzles", "solve_many wall/s", "solve_many CPU/s", "materialised CPU/s", "C batch CPU/s",
                       "kudoku CPU/s (same run)", "tdoku's published DLX", "all unique"], rows, "lrrrrrrrl"), ""]


def miniexact_row(matrix) -> list:
    """miniexact (PyPI), the reference, on the same matrix: its solve loop, best of 5."""
    try:
        import miniexact
    except ImportError:
        return ["miniexact", "not installed (pip install miniexact)", "", "", ""]

    def solve_loop():
        """The matrix loaded (untimed), and its solve loop to time: the solutions it counts."""
        x = miniexact.miniexacts_x()
        ids = [x.primary(p) for p in matrix.primary] + [x.secondary(s) for s in matrix.secondary]
        for option in matrix.options:
            x.add([ids[i] for i, _ in option])

        def count() -> int:
            solutions = 0
            while x.solve() == 10:   # 10: a solution found
                solutions += 1
            return solutions
        return count

    solutions, wall, cpu = min((best_cpu(solve_loop(), repeat=1) for _ in range(5)), key=lambda run: run[2])
    return [f"miniexact {getattr(miniexact, 'miniexacts_version', lambda: '')()} (reference; its solve loop)",
            f"{solutions:,}", "", f"{wall * 1e3:.1f}", f"{cpu * 1e3:.1f}"]


def queens_section() -> list[str]:
    matrix = encode_queens(12)
    outcome, wall, cpu = best_cpu(lambda: solve_matrix(matrix, None, 0, None), repeat=10)
    return ["## 12-queens, all solutions (Knuth's formulation)", "",
            "Best of 10 (miniexact: of 5) calls; the target is under 40 ms.", "",
            *md_table(["engine", "solutions", "nodes", "wall ms", "CPU ms"],
                      [["dlx (C)", f"{outcome.count:,}", f"{outcome.stats.raw['nodes']:,}", f"{wall * 1e3:.1f}",
                        f"{cpu * 1e3:.1f}"], miniexact_row(matrix)]), ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kudoku", metavar="FILE", help="kudoku's C source (with a main that "
                        "prints 'puzzles cpu_seconds unique' for FILE [MAX]) to measure as reference")
    parser.add_argument("--puzzles", type=int, help="at most N puzzles a 9x9 set (default: as SETS says)")
    parser.add_argument("--out", default="results/dlx.md")
    args = parser.parse_args()
    before = load_now()
    lines = sudoku_section(args.kudoku, args.puzzles) + queens_section()
    print(write_page(args.out, title="Dancing Links (dlx, dlx-py): benchmark", command=command_line(),
                     lead="The Dancing Links engines against kudoku (the DLX entry of tdoku's benchmark, built from "
                          "its public source in the same run) and Knuth's published counts.",
                     writer="benchmarks/bench_dlx.py", loads=[before, load_now()], lines=lines,
                     keep=("## top95: the C engine and its Python twin", "## Notes", "## Design notes")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
