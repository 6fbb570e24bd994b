"""External SAT programs (``ext:NAME``) beside PySAT in-process (``sat``): the median time per
puzzle, and where it goes.  Writes results/external.md with the command and the load.

    python benchmarks/bench_external.py [--hardest 100] [--n16 20] [--sky7 20] [--killer 10]
        [--time-limit 60] [--specs sat,sat:cadical195,ext:cadical,ext:minisat,ext:picosat,
        ext:cryptominisat5,ext:z3,ext:clasp,ext:kissat]   (the ext programs not installed: left out)

Each puzzle is run through ``Engine.run`` (encode, search, decode, verify; limit 2: find one,
prove it unique), one engine after another on one core.  For an ``ext`` engine the run's time
is split into what its statistics measure: writing the DIMACS file (``write_seconds``), the
program's processes from start to exit (``process_seconds``: starting, reading the file,
solving, printing the model; "their CPU": user + system time of those processes), and the
Python around them (encoding, reading the answer, decoding).  The start-up of each program is measured alone (the median of 50 runs on a
formula of one clause) and charged once per run: "start-up share" is runs x start-up over the
puzzle's total time.  "A run with nothing to search" is the program on the set's first
puzzle's formula with that puzzle's solution added as unit clauses (the median of 10): what
starting, reading the file and printing cost before any search.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time


import puzzlebench
from puzzlebench.encoders import cnf
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.engines import external
from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, write_page

LEAD = ("SAT solver programs (`ext:...`) beside PySAT in-process (`sat`, `sat:cadical195`): median time per "
        "puzzle split into writing the file, the programs' processes, their start-up and the Python around them.")
DEFAULT_SPECS = ("sat", "sat:cadical195", "ext:cadical", "ext:minisat", "ext:picosat", "ext:cryptominisat5",
                 "ext:z3", "ext:clasp", "ext:kissat")


def skyscrapers(line: str) -> Skyscrapers:
    fields = line.split()
    return Skyscrapers(int(fields[0]), *[[int(x) for x in f.split(",")] for f in fields[1:5]])


def samples(args) -> list[tuple[str, list]]:
    hardest = spread(data_lines("sudoku9_forum_hardest_1905_11plus.txt"), args.hardest)
    n16 = spread(data_lines("sudoku16_vu_kr_1000.txt"), args.n16)
    sky7 = spread([l for l in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt")
                      if l.split()[0] == "7"], args.sky7)
    killer = spread(data_lines("tatham_solo_killer_3x3_100.txt"), args.killer)
    return [(f"9x9 forum hardest 11+ ({len(hardest)}, every {48766 // args.hardest}th)",
             [parse_sudoku_line(l.split()[0]) for l in hardest]),
            (f"16x16 vu_kr ({len(n16)})", [parse_sudoku_line(l.split()[0]) for l in n16]),
            (f"7x7 Skyscrapers, every clue ({len(sky7)})", [skyscrapers(l) for l in sky7]),
            (f"9x9 Killer, Tatham's Solo ({len(killer)})",
             [puzzlebench.parse(l, kind="killer") for l in killer])]


def median_run_seconds(program_args: list[str], cnf_path: str, folder: str, runs: int) -> float:
    """The median wall time of ``runs`` runs of a program on the formula at ``cnf_path``."""
    result = os.path.join(folder, "answer.txt")
    args = [cnf_path if w == external.CNF_PLACE else result if w == external.RESULT_PLACE else w
            for w in program_args]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def start_up_seconds(program_args: list[str], runs: int = 50) -> float:
    """The median wall time of a program on a formula of one clause: starting, reading,
    answering, exiting."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "one.cnf")
        with open(path, "w") as f:
            f.write("p cnf 1 1\n1 0\n")
        return median_run_seconds(program_args, path, folder, runs)


def idle_run_seconds(program_args: list[str], puzzle, runs: int = 10) -> float:
    """The median wall time of a program on a puzzle's formula with its solution added as unit
    clauses: starting, reading the whole file, propagating, printing, with nothing to search."""
    solution = make_engine("sat").run(puzzle, limit=1).solutions[0]
    formula = cnf.encode(puzzle)
    n = formula.n_values
    units = [cell * n + value for cell, value in enumerate(solution)]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "solved.cnf")
        with open(path, "w") as f:
            f.write(f"p cnf {formula.n_vars} {formula.n_clauses + len(units)}\n")
            f.writelines(" ".join(map(str, c)) + " 0\n" for c in formula.all_clauses())
            f.writelines(f"{u} 0\n" for u in units)
        return median_run_seconds(program_args, path, folder, runs)


def measure(spec: str, puzzles: list, time_limit: float) -> dict:
    cnf._BASE.clear()   # each engine builds the shapes' formulas itself (the cache is shared)
    engine = make_engine(spec)
    totals, encodes, writes, processes, runs, conflicts, statuses = [], [], [], [], [], [], {}
    cpu = []
    for puzzle in puzzles:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = engine.run(puzzle, limit=2, time_limit=time_limit)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        statuses[str(result.status)] = statuses.get(str(result.status), 0) + 1
        totals.append(result.times.total)
        encodes.append(result.times.encode)
        raw = result.stats.raw
        if "runs" in raw:
            writes.append(raw["write_seconds"])
            processes.append(raw["process_seconds"])
            runs.append(raw["runs"])
        if result.stats.conflicts is not None:
            conflicts.append(result.stats.conflicts)
    median = statistics.median
    return {"total": median(totals), "encode": median(encodes),
            "write": median(writes) if writes else None, "process": median(processes) if processes else None,
            "runs": median(runs) if runs else None, "cpu": median(cpu) if runs else None, "conflicts": median(conflicts) if conflicts else None,
            "statuses": statuses, "runs_list": runs, "totals": totals}


def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:,.2f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hardest", type=int, default=100)
    ap.add_argument("--n16", type=int, default=20)
    ap.add_argument("--sky7", type=int, default=20)
    ap.add_argument("--killer", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--specs", default=",".join(DEFAULT_SPECS))
    ap.add_argument("--out", default="results/external.md")
    args = ap.parse_args()
    specs = [s for s in args.specs.split(",")
             if not s.startswith("ext:") or s[4:] in external.ExternalEngine.variants]
    load = load_now()
    program_args = {s: [shutil.which(external.PRESETS[s[4:]].program), *external.PRESETS[s[4:]].arguments]
                    for s in specs if s.startswith("ext:")}
    start_up = {s: start_up_seconds(a) for s, a in program_args.items()}
    out = [f"Programs: {make_engine('ext').version()}; time limit {args.time_limit:g} s a puzzle.\n",
           "Every puzzle through `Engine.run` (encode, search, decode, verify), limit 2 (find one, "
           "prove it unique: two runs of a program, the second answering UNSAT after a blocking "
           "clause), the default encoding `extended`. `sat` is Glucose 3 in-process with its kept "
           "solver (givens as assumptions); `sat:cadical195` is CaDiCaL 1.9.5 inside PySAT, the "
           "in-process twin of `ext:cadical` (Debian's CaDiCaL is sc2021, an older release). Times "
           "are medians per puzzle, in ms of wall-clock time.\n",
           "Start-up: each program alone on a formula of one clause (median of 50): "
           + ", ".join(f"{s} {ms(v)} ms" for s, v in start_up.items()) + ".\n"]
    for title, puzzles in samples(args):
        idle = {s: idle_run_seconds(a, puzzles[0]) for s, a in program_args.items()}
        out += [f"## {title}\n",
                "| engine | total | encode | write file | program processes | their CPU | runs | start-up share "
                "| a run with nothing to search | conflicts | statuses |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for spec in specs:
            m = measure(spec, puzzles, args.time_limit)
            share = "—"
            if spec in start_up:
                shares = [r * start_up[spec] / t for r, t in zip(m["runs_list"], m["totals"])]
                share = f"{statistics.median(shares):.0%}"
            conflicts = "—" if m["conflicts"] is None else f"{m['conflicts']:,.0f}"
            runs = "—" if m["runs"] is None else f"{m['runs']:g}"
            statuses = ", ".join(f"{k} {v}" for k, v in sorted(m["statuses"].items()))
            out.append(f"| `{spec}` | {ms(m['total'])} | {ms(m['encode'])} | {ms(m['write'])} | "
                       f"{ms(m['process'])} | {ms(m['cpu'])} | {runs} | {share} | {ms(idle.get(spec))} | "
                       f"{conflicts} | {statuses} |")
            print(out[-1], flush=True)
        out.append("")
    print(write_page(args.out, title="External SAT programs beside PySAT in-process", lead=LEAD, command=command_line(),
                     writer="benchmarks/bench_external.py", loads=[load, load_now()], lines=out))


if __name__ == "__main__":
    main()
