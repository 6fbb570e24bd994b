"""The competition tools on puzzlebench's exports (XCSP3: ACE; MiniZinc: Gecode; OPB: minisat+
and Exact) beside the in-process CP-SAT engine, measured in the same run.  Writes
results/interop.md with the command, the machine, the tools' versions and the load.

    python benchmarks/bench_interop.py [--hardest 20] [--n16 5] [--sky7 5] [--killer 10] [--keen 10]

Every puzzle: CP-SAT through ``Engine.run`` (encode, search, decode, verify) with limit 2 (find
one, prove it unique, or find a second: the full-clue Skyscrapers are not all unique); each tool on the file ``export`` writes, asked for 2 solutions (ACE
``-s=2``, ``minizinc -n 2``, Exact: a solution, a blocking constraint, a second run), except
minisat+, which stops at the first (it does not enumerate).  Each tool's answer is decoded,
checked by the puzzle's checker, compared with CP-SAT's solution where that is unique, and its
count with CP-SAT's; a disagreement stops the run.  Times are medians per puzzle in ms: "export" (the file's text from the puzzle), "tool"
(wall-clock time of the tool, process start to exit; Exact: reading the OPB text and solving in
this process), "tool CPU" (user + system of the tool's processes, or of this process for
Exact), and the ratio of "export + tool" to CP-SAT's total.  "Start-up" is each tool alone on
an instance with one variable (median of 5): what a run costs before any puzzle.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


import puzzlebench
from puzzlebench.engines import tool_runner
from puzzlebench.engines.registry import make_engine

from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, write_page

LIMIT = 120.0   # seconds a tool may take on one puzzle (the tools' default in engines/tool_runner.py)
TOOLS = {   # name: (export target, suffix, run(path, puzzle) -> ToolAnswer, in this process)
    "ACE (XCSP3)": ("xcsp3", ".xml", lambda path, p: tool_runner.run_ace(path, p.n_cells, 2), False),
    "MiniZinc+Gecode": ("minizinc", ".mzn", lambda path, p: tool_runner.run_minizinc(path, p.n_cells, 2), False),
    "minisat+ (OPB, 1 solution)": ("opb", ".opb", lambda path, p: tool_runner.run_minisat_plus(path), False),
    "Exact (OPB)": ("opb", ".opb", lambda path, p: tool_runner.run_exact(path, 2), True),
}
TRIVIAL = {   # one variable, for the start-up
    "xcsp3": ('<instance format="XCSP3" type="CSP"><variables><var id="x"> 1..2 </var></variables>'
              "<constraints><intension> eq(x,1) </intension></constraints></instance>\n"),
    "minizinc": "var 1..2: x;\nconstraint x = 1;\nsolve satisfy;\n",
    "opb": "* #variable= 1 #constraint= 1\n+1 x1 >= 1 ;\n",
}


def samples(args) -> list[tuple[str, list]]:
    def parsed(lines, kind=None):
        return [puzzlebench.parse(l.split()[0] if kind == "sudoku" else l, kind=kind) for l in lines]

    sky = [l.split(" nsol")[0] for l in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt")
           if l.split()[0] == "7"]
    return [
        (f"9x9 forum hardest 11+ ({args.hardest}, evenly spaced)",
         parsed(spread(data_lines("sudoku9_forum_hardest_1905_11plus.txt"), args.hardest), "sudoku")),
        (f"16x16 vu_kr ({args.n16})", parsed(spread(data_lines("sudoku16_vu_kr_1000.txt"), args.n16), "sudoku")),
        (f"7x7 Skyscrapers, every clue ({args.sky7})", parsed(spread(sky, args.sky7), "skyscrapers")),
        (f"9x9 Killer, Tatham's Solo ({args.killer})",
         parsed(spread(data_lines("tatham_solo_killer_3x3_100.txt"), args.killer))),
        (f"KenKen 4..7, Tatham's Keen ({args.keen})",
         parsed(spread(data_lines("tatham_keen_4to7_96.txt"), args.keen))),
    ]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_tool(run, path, puzzle, in_process: bool):
    start, cpu = time.perf_counter(), (time.process_time() if in_process else children_cpu())
    answer = run(path, puzzle)
    wall = time.perf_counter() - start
    used = (time.process_time() if in_process else children_cpu()) - cpu
    return answer, wall, used


def start_up(folder: str) -> dict[str, float]:
    out = {}
    for name, (target, suffix, run, in_process) in TOOLS.items():
        path = os.path.join(folder, "trivial" + suffix)
        Path(path).write_text(TRIVIAL[target])
        times = []
        for _ in range(5):
            start = time.perf_counter()
            if target == "xcsp3":
                subprocess.run(["java", "-jar", str(tool_runner.ace_jar()), path, "-npc"], capture_output=True)
            elif target == "minizinc":
                subprocess.run(["minizinc", "--solver", "gecode", path], capture_output=True)
            elif in_process:
                tool_runner.run_exact(path, 1)
            else:
                subprocess.run(["minisat+", path], capture_output=True)
            times.append(time.perf_counter() - start)
        out[name] = statistics.median(times)
    return out


def measure_set(puzzles: list, folder: str) -> list[tuple]:
    cpsat = make_engine("cpsat")
    reference, ref_times, rows = [], [], []
    for p in puzzles:
        start = time.perf_counter()
        res = cpsat.run(p, limit=2, time_limit=120)
        ref_times.append(time.perf_counter() - start)
        assert res.verified and res.count >= 1, (p, res.status)
        reference.append(res.solutions[0] if res.count == 1 else None)   # None: not unique
    ref = statistics.median(ref_times)
    unique = sum(r is not None for r in reference)
    said = ", ".join(f"{k} {v}" for k, v in (("unique", unique), ("2 found", len(puzzles) - unique)) if v)
    rows.append(("CP-SAT (in-process, `cpsat`)", "—", f"{1000 * ref:.2f}", "—", "1.00", said))
    for name, (target, suffix, run, in_process) in TOOLS.items():
        exports, walls, cpus, totals, statuses = [], [], [], [], {}
        for k, (p, expected) in enumerate(zip(puzzles, reference)):
            path = os.path.join(folder, f"p{k}{suffix}")
            start = time.perf_counter()
            text = puzzlebench.encode(p, to=target).write()
            exports.append(time.perf_counter() - start)
            Path(path).write_text(text)
            try:
                answer, wall, cpu = timed_tool(run, path, p, in_process)
            except subprocess.TimeoutExpired:
                walls.append(LIMIT)
                totals.append(exports[-1] + LIMIT)
                statuses[f"timeout ({LIMIT:.0f} s)"] = statuses.get(f"timeout ({LIMIT:.0f} s)", 0) + 1
                continue
            walls.append(wall)
            cpus.append(cpu)
            totals.append(exports[-1] + wall)
            wrong = (answer.status != "SATISFIABLE" or any(p.check(s) for s in answer.solutions)
                     or (expected is not None and answer.solutions[0] != expected)
                     or (not name.startswith("minisat+") and answer.count != (1 if expected else 2)))
            if wrong:
                sys.exit(f"{name} disagrees with CP-SAT on {p.source or k}: {answer.status}, {answer.count} found")
            verdict = "one" if name.startswith("minisat+") else ("unique" if answer.count == 1 and answer.complete else f"{answer.count} found")
            statuses[verdict] = statuses.get(verdict, 0) + 1
        rows.append((name, f"{1000 * statistics.median(exports):.2f}", f"{1000 * statistics.median(walls):.2f}",
                     f"{1000 * statistics.median(cpus):.2f}" if cpus else "—", f"{statistics.median(totals) / ref:.2f}",
                     ", ".join(f"{k} {v}" for k, v in statuses.items())))
    return rows


def versions() -> str:
    import importlib.metadata as md
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    mzn = subprocess.run(["minizinc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return (f"ACE {tool_runner.ace_jar().stem.split('-')[1]} (pycsp3 {md.version('pycsp3')}, {java}); {mzn}, "
            f"Gecode 6.2.0 (Debian flatzinc); minisat+ 1.0 (Debian 1.0-4); "
            f"Exact {md.version('exact')} (PyPI `exact`); OR-Tools {md.version('ortools')}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("hardest", 20), ("n16", 5), ("sky7", 5), ("killer", 10), ("keen", 10)):
        ap.add_argument(f"--{name}", type=int, default=default)
    ap.add_argument("--out", default="results/interop.md")
    args = ap.parse_args()
    for why in (tool_runner.missing_ace(), tool_runner.missing_minizinc(), tool_runner.missing_minisat_plus(),
                tool_runner.missing_exact()):
        if why:
            sys.exit(why)
    load = load_now()
    lines = [f"Versions: {versions()}.", "", __doc__.split("\n\n", 2)[2].strip().replace("\n", " "), ""]
    with tempfile.TemporaryDirectory() as folder:
        ups = start_up(folder)
        lines += ["Start-up (one variable, median of 5): " +
                  ", ".join(f"{k} {1000 * v:.1f} ms" for k, v in ups.items()) + ".", ""]
        for title, puzzles in ((title, puzzles) for title, puzzles in samples(args) if puzzles):
            print(title, file=sys.stderr)
            lines += [f"## {title}", "",
                      "| engine | export | tool | tool CPU | (export + tool) / CP-SAT | statuses |",
                      "|---|---:|---:|---:|---:|---|"]
            lines += ["| " + " | ".join(row) + " |" for row in measure_set(puzzles, folder)]
            lines.append("")
    print(write_page(args.out, title="Competition tools on puzzlebench's exports, beside CP-SAT",
                     lead=__doc__.split("\n\n")[0].replace("\n", " "), command=command_line(),
                     writer="benchmarks/bench_interop.py", loads=[load, load_now()], lines=lines))


if __name__ == "__main__":
    main()
