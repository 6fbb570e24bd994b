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
import tempfile
from collections import Counter
from pathlib import Path

import puzzlebench
from puzzlebench.encoders import cnf
from puzzlebench.engines import external
from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import command_line, data_lines, load_now, md_table, spread, timed, write_page

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


def samples(counts: dict) -> list[tuple[str, list]]:
    """(title, puzzles) of each set whose count is not 0, evenly spaced over its file."""
    out = []
    for option, (title, name, kind, size) in SETS.items():
        lines = [line.split(" nsol")[0] for line in data_lines(name) if size is None or line.split()[0] == size]
        chosen = [line.split()[0] if kind == "sudoku" else line for line in spread(lines, counts[option])]
        if chosen:
            out.append((title.format(len(chosen)), [puzzlebench.parse(text, kind=kind) for text in chosen]))
    return out


def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:,.2f}"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def program_seconds(program_args: list[str], dimacs: str, runs: int) -> float:
    """The median wall time of a program on the formula text ``dimacs``."""
    with tempfile.TemporaryDirectory() as folder:
        path, answer = os.path.join(folder, "f.cnf"), os.path.join(folder, "answer.txt")
        Path(path).write_text(dimacs)
        args = [path if w == external.CNF_PLACE else answer if w == external.RESULT_PLACE else w for w in program_args]
        return statistics.median(timed(lambda: subprocess.run(args, stdout=subprocess.DEVNULL,
                                                              stderr=subprocess.DEVNULL))[1] for _ in range(runs))


def solved_formula(puzzle) -> str:
    """The puzzle's formula with its solution added as unit clauses: nothing left to search."""
    solution = make_engine("sat").run(puzzle, limit=1).solutions[0]
    formula = cnf.encode(puzzle)
    units = [cell * formula.n_values + value for cell, value in enumerate(solution)]
    return "".join([f"p cnf {formula.n_vars} {formula.n_clauses + len(units)}\n",
                    *(" ".join(map(str, c)) + " 0\n" for c in formula.all_clauses()), *(f"{u} 0\n" for u in units)])


def engine_row(spec: str, puzzles: list, time_limit: float, start_up: float | None, idle: float | None) -> list:
    """An engine's medians on a set; a program's parts where the engine runs one."""
    cnf._BASE.clear()   # each engine builds the shapes' formulas itself (the cache is shared)
    engine = make_engine(spec)
    parts: dict[str, list] = {k: [] for k in ("total", "encode", "write", "process", "cpu", "runs", "share",
                                              "conflicts")}
    statuses: Counter = Counter()
    for puzzle in puzzles:
        before = children_cpu()
        result = engine.run(puzzle, limit=2, time_limit=time_limit)
        statuses[str(result.status)] += 1
        parts["total"].append(result.times.total)
        parts["encode"].append(result.times.encode)
        raw = result.stats.raw
        if "runs" in raw:
            parts["cpu"].append(children_cpu() - before)
            parts["write"].append(raw["write_seconds"])
            parts["process"].append(raw["process_seconds"])
            parts["runs"].append(raw["runs"])
            parts["share"].append(raw["runs"] * start_up / result.times.total)
        if result.stats.conflicts is not None:
            parts["conflicts"].append(result.stats.conflicts)
    m = {k: statistics.median(v) if v else None for k, v in parts.items()}
    return [f"`{spec}`", *(ms(m[k]) for k in ("total", "encode", "write", "process", "cpu")),
            "—" if m["runs"] is None else f"{m['runs']:g}", "—" if m["share"] is None else f"{m['share']:.0%}",
            ms(idle), "—" if m["conflicts"] is None else f"{m['conflicts']:,.0f}",
            ", ".join(f"{name} {n}" for name, n in sorted(statuses.items()))]


def page_lines(specs: list[str], sets: list, time_limit: float) -> list[str]:
    programs = {s: [shutil.which(external.PRESETS[s[4:]].program), *external.PRESETS[s[4:]].arguments]
                for s in specs if s.startswith("ext:")}
    start_up = {s: program_seconds(a, "p cnf 1 1\n1 0\n", 50) for s, a in programs.items()}
    lines = [f"Programs: {make_engine('ext').version()}; time limit {time_limit:g} s a puzzle.", "", METHOD, "",
             "Start-up: each program alone on a formula of one clause (median of 50): "
             + ", ".join(f"{s} {ms(v)} ms" for s, v in start_up.items()) + ".", ""]
    for title, puzzles in sets:
        print(title, flush=True)
        idle = {s: program_seconds(a, solved_formula(puzzles[0]), 10) for s, a in programs.items()}
        rows = [engine_row(s, puzzles, time_limit, start_up.get(s), idle.get(s)) for s in specs]
        lines += [f"## {title}", "", *md_table(HEADER, rows, "l" + "r" * (len(HEADER) - 2) + "l"), ""]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option, default in (("hardest", 100), ("n16", 20), ("sky7", 20), ("killer", 10)):
        ap.add_argument(f"--{option}", type=int, default=default, help="puzzles of the set (0: left out)")
    ap.add_argument("--time-limit", type=float, default=60, help="seconds a puzzle")
    ap.add_argument("--specs", default=",".join(EXTERNAL_SPECS), help="the engines (ext: absent: left out)")
    ap.add_argument("--out", default="results/external.md", help="the page")
    args = ap.parse_args()
    load = load_now()
    present = external.ExternalEngine.variants
    specs = [s for s in args.specs.split(",") if not s.startswith("ext:") or s[4:] in present]
    lines = page_lines(specs, samples({option: getattr(args, option) for option in SETS}), args.time_limit)
    print(write_page(args.out, title=TITLE, lead=LEAD, command=command_line(), writer="benchmarks/bench_tools.py",
                     loads=[load, load_now()], lines=lines))


if __name__ == "__main__":
    main()
