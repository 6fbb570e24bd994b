"""Solvers from outside beside puzzlebench's in-process ones, on the same samples, one page a
``--page``:

- ``external`` (results/external.md): SAT programs (``ext:NAME``) beside PySAT in-process, each
  run's time split into writing the file, the programs' processes, their start-up and the Python;
- ``interop`` (results/interop.md): the competition tools on puzzlebench's exports (XCSP3: ACE;
  MiniZinc: Gecode; OPB: minisat+ and Exact) beside the in-process CP-SAT engine, every answer
  checked against CP-SAT's;
- ``cpmpy`` (results/cpmpy.md): CPMpy's path (``cpmpy:BACKEND``) beside the direct CP-SAT model
  (``cpsat:int``), puzzle by puzzle in rotating order.

    python benchmarks/bench_tools.py --page external [--specs sat,ext:minisat,...]
    python benchmarks/bench_tools.py --page interop
    python benchmarks/bench_tools.py --page cpmpy [--backends ortools,exact,pysat] [--also ext:minizinc,...]

A set's count (``--hardest``, ``--n16``, ``--sky7``, ``--killer``, ``--keen``) of 0 leaves it out.
The page's text under its title says how each is measured.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata as md
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
from puzzlebench.engines import external, tool_runner
from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, write_page
from puzzlebench.results import SOLVED

DEFAULTS = {"external": dict(hardest=100, n16=20, sky7=20, killer=10, keen=0),
            "interop": dict(hardest=20, n16=5, sky7=5, killer=10, keen=10),
            "cpmpy": dict(hardest=20, n16=5, sky7=5, killer=10, keen=0)}
SETS = {   # option: (title, data set, kind, which lines of it)
    "hardest": ("9x9 forum hardest 11+ ({}, evenly spaced)", "sudoku9_forum_hardest_1905_11plus.txt", "sudoku", None),
    "n16": ("16x16 vu_kr ({})", "sudoku16_vu_kr_1000.txt", "sudoku", None),
    "sky7": ("7x7 Skyscrapers, every clue ({})", "skyscrapers_random_fullclue_n4to9_sample.txt", "skyscrapers", "7"),
    "killer": ("9x9 Killer, Tatham's Solo ({})", "tatham_solo_killer_3x3_100.txt", "killer", None),
    "keen": ("KenKen 4..7, Tatham's Keen ({})", "tatham_keen_4to7_96.txt", None, None),
}
EXTERNAL_SPECS = ("sat", "sat:cadical195", "ext:cadical", "ext:minisat", "ext:picosat", "ext:cryptominisat5",
                  "ext:z3", "ext:clasp", "ext:kissat")
REFERENCE = "cpsat:int"   # the cpmpy page's
TOOLS = {   # the interop page's: name: (export target, suffix, run(path, puzzle) -> ToolAnswer, in this process)
    "ACE (XCSP3)": ("xcsp3", ".xml", lambda path, p: tool_runner.run_ace(path, p.n_cells, 2), False),
    "MiniZinc+Gecode": ("minizinc", ".mzn", lambda path, p: tool_runner.run_minizinc(path, p.n_cells, 2), False),
    "minisat+ (OPB, 1 solution)": ("opb", ".opb", lambda path, p: tool_runner.run_minisat_plus(path), False),
    "Exact (OPB)": ("opb", ".opb", lambda path, p: tool_runner.run_exact(path, 2), True),
}
TRIVIAL = {   # one variable, for a tool's start-up
    "xcsp3": ('<instance format="XCSP3" type="CSP"><variables><var id="x"> 1..2 </var></variables>'
              "<constraints><intension> eq(x,1) </intension></constraints></instance>\n"),
    "minizinc": "var 1..2: x;\nconstraint x = 1;\nsolve satisfy;\n",
    "opb": "* #variable= 1 #constraint= 1\n+1 x1 >= 1 ;\n",
}
TOOL_LIMIT = 120.0   # seconds a tool may take on one puzzle (tool_runner's default)
TITLES = {"external": "External SAT programs beside PySAT in-process",
          "interop": "Competition tools on puzzlebench's exports, beside CP-SAT",
          "cpmpy": "CPMpy's transformation beside the direct CP-SAT model"}
LEADS = {
    "external": "SAT solver programs (`ext:...`) beside PySAT in-process (`sat`, `sat:cadical195`): median time per "
                "puzzle split into writing the file, the programs' processes, their start-up and a run with nothing "
                "to search.",
    "interop": "ACE (XCSP3), MiniZinc with Gecode, minisat+ and Exact (OPB) on puzzlebench's exports of five kinds, "
               "beside CP-SAT in the same run: export time, each tool's wall and CPU time, the ratio to CP-SAT, "
               "start-up alone; every answer decoded and checked against CP-SAT's.",
    "cpmpy": "CPMpy's path (`cpmpy:BACKEND`: the model, CPMpy's transformation, the back end's search) beside "
             "`cpsat:int`, as ratios puzzle by puzzle in the same run.",
}
METHODS = {
    "external": "Every puzzle through `Engine.run` (encode, search, decode, verify), limit 2 (find one, prove it "
                "unique: two runs of a program, the second answering UNSAT after a blocking clause), the default "
                "encoding `extended`. `sat` is Glucose 3 in-process with its kept solver (givens as assumptions); "
                "`sat:cadical195` is CaDiCaL 1.9.5 inside PySAT, the in-process twin of `ext:cadical` (Debian's "
                "CaDiCaL is sc2021, an older release). Times are medians per puzzle, in ms of wall-clock time.",
    "interop": "Every puzzle: CP-SAT through ``Engine.run`` (encode, search, decode, verify) with limit 2 (find one, "
               "prove it unique, or find a second: the full-clue Skyscrapers are not all unique); each tool on the "
               "file ``export`` writes, asked for 2 solutions (ACE ``-s=2``, ``minizinc -n 2``, Exact: a solution, a "
               "blocking constraint, a second run), except minisat+, which stops at the first (it does not "
               "enumerate).  Each tool's answer is decoded, checked by the puzzle's checker, compared with CP-SAT's "
               "solution where that is unique, and its count with CP-SAT's; a disagreement stops the run.  Times "
               "are medians per puzzle in ms: \"export\" (the file's text from the puzzle), \"tool\" (wall-clock "
               "time of the tool, process start to exit; Exact: reading the OPB text and solving in this process), "
               "\"tool CPU\" (user + system of the tool's processes, or of this process for Exact), and the ratio "
               "of \"export + tool\" to CP-SAT's total.  \"Start-up\" is each tool alone on an instance with one "
               "variable (median of 5): what a run costs before any puzzle.",
    "cpmpy": "Every puzzle, limit 2 (find one, prove it unique or find a second), through ``Engine.run`` (encode, "
             "search, decode, verify), each engine on a freshly parsed puzzle, in rotating order, the garbage "
             "collector run before each timed run, after one untimed warm-up run of each engine.  Medians per "
             "puzzle in ms: \"model\" (puzzlebench's walk over the rules: the CP-SAT model for ``cpsat:int``, "
             "CPMpy's expressions for ``cpmpy``, the exported file's text for ``ext``), \"transform\" (CPMpy's "
             "transformation and posting to the back end, ``solver += model``), \"solve\" (the search phase as "
             "``Engine.run`` times it), \"back end\" (what the back end itself reports as its solve time: CP-SAT's "
             "wall time, summed over its calls; for an ``ext:`` engine, its program's processes, start to exit), "
             "\"total\" (encode + solve + decode), \"transform / solve\" (the median of each puzzle's ratio), and "
             "\"total / cpsat:int\" (the median of each puzzle's ratio to ``cpsat:int``'s total on the same puzzle "
             "in the same run).  Both CP-SAT runs use one worker.",
}
HEADERS = {
    "external": ["engine", "total", "encode", "write file", "program processes", "their CPU", "runs",
                 "start-up share", "a run with nothing to search", "conflicts", "statuses"],
    "interop": ["engine", "export", "tool", "tool CPU", "(export + tool) / CP-SAT", "statuses"],
    "cpmpy": ["engine", "model", "transform", "solve", "back end", "total", "transform / solve",
              f"total / {REFERENCE}", "statuses"],
}


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
             METHODS["external"], "",
             "Start-up: each program alone on a formula of one clause (median of 50): "
             + ", ".join(f"{s} {ms(v, ',.2f')} ms" for s, v in start_up.items()) + ".", ""]
    for title, texts, kind in sets:
        puzzles = parsed(texts, kind)
        solved = solved_formula(puzzles[0])
        idle = {s: program_seconds(a, solved, 10) for s, a in programs.items()}
        lines += table(title, "external")
        lines += [external_rows(s, puzzles, args.time_limit, start_up.get(s), idle.get(s)) for s in specs] + [""]
    return lines


# -- interop: the competition tools on the exports ----------------------------------------------

def tool_start_up(name: str, target: str, path: str) -> None:
    """One run of a tool on a trivial instance."""
    if name.startswith("Exact"):
        tool_runner.run_exact(path, 1)
        return
    program = {"xcsp3": ["java", "-jar", str(tool_runner.ace_jar()), path, "-npc"],
               "minizinc": ["minizinc", "--solver", "gecode", path]}.get(target, ["minisat+", path])
    subprocess.run(program, capture_output=True)


def tool_rows(puzzles: list, folder: str) -> list[str]:
    cpsat, reference, ref_times = make_engine("cpsat"), [], []
    for p in puzzles:
        start = time.perf_counter()
        res = cpsat.run(p, limit=2, time_limit=TOOL_LIMIT)
        ref_times.append(time.perf_counter() - start)
        assert res.verified and res.count >= 1, (p, res.status)
        reference.append(res.solutions[0] if res.count == 1 else None)   # None: not unique
    ref, unique = statistics.median(ref_times), sum(r is not None for r in reference)
    first = {k: v for k, v in (("unique", unique), ("2 found", len(puzzles) - unique)) if v}
    rows = [f"| CP-SAT (in-process, `cpsat`) | — | {ms(ref)} | — | 1.00 | {', '.join(f'{k} {v}' for k, v in first.items())} |"]
    for name, (target, suffix, run, in_process) in TOOLS.items():
        exports, walls, cpus, totals, statuses = [], [], [], [], {}
        for k, (p, expected) in enumerate(zip(puzzles, reference)):
            path = os.path.join(folder, f"p{k}{suffix}")
            start = time.perf_counter()
            Path(path).write_text(puzzlebench.encode(p, to=target).write())
            exports.append(time.perf_counter() - start)
            start, cpu = time.perf_counter(), (time.process_time() if in_process else children_cpu())
            try:
                answer = run(path, p)
            except subprocess.TimeoutExpired:
                walls.append(TOOL_LIMIT)
                totals.append(exports[-1] + TOOL_LIMIT)
                key = f"timeout ({TOOL_LIMIT:.0f} s)"
                statuses[key] = statuses.get(key, 0) + 1
                continue
            walls.append(time.perf_counter() - start)
            cpus.append((time.process_time() if in_process else children_cpu()) - cpu)
            totals.append(exports[-1] + walls[-1])
            one = name.startswith("minisat+")
            if (answer.status != "SATISFIABLE" or any(p.check(s) for s in answer.solutions)
                    or (expected is not None and answer.solutions[0] != expected)
                    or (not one and answer.count != (1 if expected else 2))):
                sys.exit(f"{name} disagrees with CP-SAT on {p.source or k}: {answer.status}, {answer.count} found")
            verdict = "one" if one else "unique" if answer.count == 1 and answer.complete else f"{answer.count} found"
            statuses[verdict] = statuses.get(verdict, 0) + 1
        rows.append(f"| {name} | {ms(median(exports))} | {ms(median(walls))} | {ms(median(cpus))} | "
                    f"{median(totals) / ref:.2f} | {', '.join(f'{k} {v}' for k, v in statuses.items())} |")
    return rows


def interop_page(args, sets: list) -> list[str]:
    for why in (tool_runner.missing_ace(), tool_runner.missing_minizinc(), tool_runner.missing_minisat_plus(),
                tool_runner.missing_exact()):
        if why:
            sys.exit(why)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    mzn = subprocess.run(["minizinc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    versions = (f"ACE {tool_runner.ace_jar().stem.split('-')[1]} (pycsp3 {md.version('pycsp3')}, {java}); {mzn}, "
                f"Gecode 6.2.0 (Debian flatzinc); minisat+ 1.0 (Debian 1.0-4); Exact {md.version('exact')} "
                f"(PyPI `exact`); OR-Tools {md.version('ortools')}")
    with tempfile.TemporaryDirectory() as folder:
        ups = {}
        for name, (target, suffix, _, _) in TOOLS.items():
            path = os.path.join(folder, "trivial" + suffix)
            Path(path).write_text(TRIVIAL[target])
            ups[name] = median_wall(lambda: tool_start_up(name, target, path), 5)
        lines = [f"Versions: {versions}.", "", METHODS["interop"], "",
                 "Start-up (one variable, median of 5): " + ", ".join(f"{k} {1000 * v:.1f} ms" for k, v in ups.items())
                 + ".", ""]
        for title, texts, kind in sets:
            lines += table(title, "interop") + tool_rows(parsed(texts, kind), folder) + [""]
    return lines


# -- cpmpy: CPMpy's path beside the direct CP-SAT model -----------------------------------------

def cpmpy_rows(texts: list[str], kind: str | None, specs: list[str]) -> list[str]:
    engines = {spec: make_engine(spec) for spec in specs}
    for engine in engines.values():   # imports and first-call set-up are not what is measured
        engine.run(puzzlebench.parse(texts[0], kind=kind), limit=2)
    cols = {spec: {k: [] for k in ("model", "transform", "solve", "backend", "total", "t/s", "vs")} for spec in specs}
    statuses: dict[str, dict[str, int]] = {spec: {} for spec in specs}
    for k, text in enumerate(texts):
        totals = {}
        for spec in specs[k % len(specs):] + specs[:k % len(specs)]:   # no engine always runs first
            puzzle = puzzlebench.parse(text, kind=kind)
            gc.collect()
            result = engines[spec].run(puzzle, limit=2)
            if result.status not in SOLVED or not result.verified:
                sys.exit(f"{spec}: {result.status.value} {result.error or ''} on {text}")
            statuses[spec][result.status.value] = statuses[spec].get(result.status.value, 0) + 1
            raw, c = result.stats.raw, cols[spec]
            c["model"].append(raw["model_seconds"] if "transform_seconds" in raw else result.times.encode)
            if "transform_seconds" in raw:
                c["transform"].append(raw["transform_seconds"])
                c["t/s"].append(raw["transform_seconds"] / result.times.solve)
            c["solve"].append(result.times.solve)
            # the back end's own time: CPMpy's status, CP-SAT's wall time, an external program's processes
            c["backend"].append(raw.get("backend_seconds", raw.get("wall_time", raw.get("process_seconds", 0.0))))
            c["total"].append(result.times.total)
            totals[spec] = (result.times.total, result.count)
        if len({count for _, count in totals.values()}) != 1:
            sys.exit(f"the engines disagree on the count of {text}: {totals}")
        for spec in specs:
            cols[spec]["vs"].append(totals[spec][0] / totals[REFERENCE][0])
    rows = []
    for spec, c in cols.items():
        times = " | ".join(ms(median(c[k])) for k in ("model", "transform", "solve", "backend", "total"))
        ratios = " | ".join("—" if not c[k] else f"{statistics.median(c[k]):.2f}" for k in ("t/s", "vs"))
        rows.append(f"| `{spec}` | {times} | {ratios} | {said(statuses[spec])} |")
    return rows


def cpmpy_page(args, sets: list) -> list[str]:
    specs = [REFERENCE] + [f"cpmpy:{b}" for b in args.backends.split(",") if b] + [s for s in args.also.split(",") if s]
    versions = f"CPMpy {md.version('cpmpy')}, OR-Tools {md.version('ortools')}, " + ", ".join(
        f"{name} {md.version(name)}" for name in ("exact", "python-sat", "z3-solver"))
    lines = [f"Versions: {versions}.", "", METHODS["cpmpy"], ""]
    for title, texts, kind in sets:
        lines += table(title, "cpmpy") + cpmpy_rows(texts, kind, specs) + [""]
    return lines


def table(title: str, page: str) -> list[str]:
    """A set's heading and the head of its table."""
    print(title, file=sys.stderr)
    header = HEADERS[page]
    return [f"## {title}", "", "| " + " | ".join(header) + " |",
            "|---|" + "".join("---|" if h == "statuses" else "---:|" for h in header[1:])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", choices=sorted(DEFAULTS), required=True)
    for option in SETS:
        ap.add_argument(f"--{option}", type=int, help="puzzles of the set (0: left out; default: the page's)")
    ap.add_argument("--time-limit", type=float, default=60, help="external: seconds a puzzle")
    ap.add_argument("--specs", default=",".join(EXTERNAL_SPECS), help="external: the engines (ext: absent: left out)")
    ap.add_argument("--backends", default="ortools", help="cpmpy: CPMpy back ends, comma-separated")
    ap.add_argument("--also", default="", help="cpmpy: other solver specs beside them (e.g. ext:minizinc,ext:ace)")
    ap.add_argument("--out", help="the page (default: results/PAGE.md)")
    args = ap.parse_args()
    counts = {option: DEFAULTS[args.page][option] if getattr(args, option) is None else getattr(args, option)
              for option in SETS}
    load = load_now()
    lines = {"external": external_page, "interop": interop_page, "cpmpy": cpmpy_page}[args.page](args, samples(counts))
    print(write_page(args.out or f"results/{args.page}.md", title=TITLES[args.page], lead=LEADS[args.page],
                     command=command_line(), writer="benchmarks/bench_tools.py", loads=[load, load_now()], lines=lines))


if __name__ == "__main__":
    main()
