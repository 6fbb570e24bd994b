"""SAT programs (``ext:NAME``) beside PySAT in-process on the same samples: each run's time
split into writing the file, the programs' processes, their start-up and the Python; writes
results/external.md.  (The competition tools and CPMpy's back ends are a campaign:
benchmarks/campaigns/tools.toml.)

    python benchmarks/bench_tools.py [--specs sat,ext:minisat,...] [--hardest 100] [--n16 20] ...

A set's count (``--hardest``, ``--n16``, ``--sky7``, ``--killer``) of 0 leaves it out.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import puzzlebench
from puzzlebench.encoders import cnf
from puzzlebench.engines import external
from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, write_page

SETS = {   # option: (title, data set, kind, which lines of it)
    "hardest": ("9x9 forum hardest 11+ ({}, evenly spaced)", "sudoku9_forum_hardest_1905_11plus.txt", "sudoku", None),
    "n16": ("16x16 vu_kr ({})", "sudoku16_vu_kr_1000.txt", "sudoku", None),
    "sky7": ("7x7 Skyscrapers, every clue ({})", "skyscrapers_random_fullclue_n4to9_sample.txt", "skyscrapers", "7"),
    "killer": ("9x9 Killer, Tatham's Solo ({})", "tatham_solo_killer_3x3_100.txt", "killer", None),
}
EXTERNAL_SPECS = ("sat", "sat:cadical195", "ext:cadical", "ext:minisat", "ext:picosat", "ext:cryptominisat5",
                  "ext:z3", "ext:clasp", "ext:kissat")
TITLE = "External SAT programs beside PySAT in-process"
LEAD = ("SAT solver programs (`ext:...`) beside PySAT in-process (`sat`, `sat:cadical195`): median time per puzzle "
        "split into writing the file, the programs' processes, their start-up and a run with nothing to search.")
METHOD = ("Every puzzle through `Engine.run` (encode, search, decode, verify), limit 2 (find one, prove it unique: "
          "two runs of a program, the second answering UNSAT after a blocking clause), the default encoding "
          "`extended`. `sat` is Glucose 3 in-process with its kept solver (givens as assumptions); `sat:cadical195` "
          "is CaDiCaL 1.9.5 inside PySAT, the in-process twin of `ext:cadical` (Debian's CaDiCaL is sc2021, an "
          "older release). Times are medians per puzzle, in ms of wall-clock time.")
HEADER = ["engine", "total", "encode", "write file", "program processes", "their CPU", "runs", "start-up share",
          "a run with nothing to search", "conflicts", "statuses"]


def samples(counts: dict) -> list[tuple[str, list[str], str | None]]:
    """(title, puzzle texts, kind) of each set whose count is not 0, evenly spaced over its file."""
    out = []
    for option, (title, name, kind, size) in SETS.items():
        lines = [line.split(" nsol")[0] for line in data_lines(name) if size is None or line.split()[0] == size]
        chosen = [line.split()[0] if kind == "sudoku" else line for line in spread(lines, counts[option])]
        if chosen:
            out.append((title.format(len(chosen)), chosen, kind))
    return out


def parsed(texts: list[str], kind: str | None) -> list:
    return [puzzlebench.parse(text, kind=kind) for text in texts]


def ms(seconds: float | None, form: str = ".2f") -> str:
    return "—" if seconds is None else f"{seconds * 1000:{form}}"


def median(values: list) -> float | None:
    return statistics.median(values) if values else None


def said(statuses: dict) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(statuses.items()))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_wall(run, times: int) -> float:
    """The median wall seconds of ``times`` calls of ``run``."""
    walls = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        walls.append(time.perf_counter() - start)
    return statistics.median(walls)


# -- external: SAT programs beside PySAT -------------------------------------------------------

def program_seconds(program_args: list[str], dimacs: str, runs: int) -> float:
    """The median wall time of a program on the formula text ``dimacs``."""
    with tempfile.TemporaryDirectory() as folder:
        path, answer = os.path.join(folder, "f.cnf"), os.path.join(folder, "answer.txt")
        Path(path).write_text(dimacs)
        args = [path if w == external.CNF_PLACE else answer if w == external.RESULT_PLACE else w for w in program_args]
        return median_wall(lambda: subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), runs)


def solved_formula(puzzle) -> str:
    """The puzzle's formula with its solution added as unit clauses: nothing left to search."""
    solution = make_engine("sat").run(puzzle, limit=1).solutions[0]
    formula = cnf.encode(puzzle)
    units = [cell * formula.n_values + value for cell, value in enumerate(solution)]
    return "".join([f"p cnf {formula.n_vars} {formula.n_clauses + len(units)}\n",
                    *(" ".join(map(str, c)) + " 0\n" for c in formula.all_clauses()), *(f"{u} 0\n" for u in units)])


def external_rows(spec: str, puzzles: list, time_limit: float, start_up: float | None, idle: float | None) -> str:
    cnf._BASE.clear()   # each engine builds the shapes' formulas itself (the cache is shared)
    engine = make_engine(spec)
    c = {k: [] for k in ("total", "encode", "write", "process", "runs", "cpu", "conflicts", "share")}
    statuses: dict[str, int] = {}
    for puzzle in puzzles:
        before = children_cpu()
        result = engine.run(puzzle, limit=2, time_limit=time_limit)
        statuses[str(result.status)] = statuses.get(str(result.status), 0) + 1
        c["total"].append(result.times.total)
        c["encode"].append(result.times.encode)
        raw = result.stats.raw
        if "runs" in raw:
            c["cpu"].append(children_cpu() - before)
            c["write"].append(raw["write_seconds"])
            c["process"].append(raw["process_seconds"])
            c["runs"].append(raw["runs"])
            c["share"].append(raw["runs"] * start_up / result.times.total)
        if result.stats.conflicts is not None:
            c["conflicts"].append(result.stats.conflicts)
    m = {k: median(v) for k, v in c.items()}
    runs = "—" if m["runs"] is None else f"{m['runs']:g}"
    share = "—" if m["share"] is None else f"{m['share']:.0%}"
    conflicts = "—" if m["conflicts"] is None else f"{m['conflicts']:,.0f}"
    wide = [ms(m[k], ",.2f") for k in ("total", "encode", "write", "process", "cpu")]
    return f"| `{spec}` | {' | '.join(wide)} | {runs} | {share} | {ms(idle, ',.2f')} | {conflicts} | {said(statuses)} |"


def external_page(args, sets: list) -> list[str]:
    specs = [s for s in args.specs.split(",") if not s.startswith("ext:") or s[4:] in external.ExternalEngine.variants]
    programs = {s: [shutil.which(external.PRESETS[s[4:]].program), *external.PRESETS[s[4:]].arguments]
                for s in specs if s.startswith("ext:")}
    start_up = {s: program_seconds(a, "p cnf 1 1\n1 0\n", 50) for s, a in programs.items()}
    lines = [f"Programs: {make_engine('ext').version()}; time limit {args.time_limit:g} s a puzzle.", "",
             METHOD, "",
             "Start-up: each program alone on a formula of one clause (median of 50): "
             + ", ".join(f"{s} {ms(v, ',.2f')} ms" for s, v in start_up.items()) + ".", ""]
    for title, texts, kind in sets:
        puzzles = parsed(texts, kind)
        solved = solved_formula(puzzles[0])
        idle = {s: program_seconds(a, solved, 10) for s, a in programs.items()}
        lines += table(title)
        lines += [external_rows(s, puzzles, args.time_limit, start_up.get(s), idle.get(s)) for s in specs] + [""]
    return lines


def table(title: str) -> list[str]:
    """A set's heading and the head of its table."""
    print(title, file=sys.stderr)
    return [f"## {title}", "", "| " + " | ".join(HEADER) + " |", "|---|" + "---:|" * (len(HEADER) - 2) + "---|"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option, default in (("hardest", 100), ("n16", 20), ("sky7", 20), ("killer", 10)):
        ap.add_argument(f"--{option}", type=int, default=default, help="puzzles of the set (0: left out)")
    ap.add_argument("--time-limit", type=float, default=60, help="seconds a puzzle")
    ap.add_argument("--specs", default=",".join(EXTERNAL_SPECS), help="the engines (ext: absent: left out)")
    ap.add_argument("--out", default="results/external.md", help="the page")
    args = ap.parse_args()
    load = load_now()
    lines = external_page(args, samples({option: getattr(args, option) for option in SETS}))
    print(write_page(args.out, title=TITLE, lead=LEAD, command=command_line(), writer="benchmarks/bench_tools.py",
                     loads=[load, load_now()], lines=lines))


if __name__ == "__main__":
    main()
