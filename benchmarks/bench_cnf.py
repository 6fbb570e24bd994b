"""CNF benchmark: building a 9x9 CNF, the end-to-end SAT paradigm (``SatEngine.run``: encode +
solve + decode + verify, limit 2, with a time limit as the harness always passes one) per
PySAT solver and encoding, the kept solver's rebuild policy, where the time of one puzzle goes,
and the Quine engine's time per puzzle.  Writes results/cnf.md with the command and the load.

    python benchmarks/bench_cnf.py [--hardest 1000] [--quine 25] [--repeats 3]
        [--solvers minisat22,glucose3,glucose4,ergo] [--encodings augmented,extended,...]

Rates are puzzles per second of CPU time of this process (``time.process_time``: what another
process on the machine takes does not count) and of wall-clock time, each the best of
``--repeats`` runs, each run on a new engine.  Reference figures (tdoku's benchmark, minisat
with its best encoding, same machine kind): 2,090 puzzles/s on top1465, 459/s on forum
hardest 11+.  The DLX C engine and mrv run on the same puzzles for scale.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter


import puzzlebench.engines.sat as sat
from puzzlebench.encoders.cnf import encode
from puzzlebench.engines.registry import make_engine
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.engines.quine import QuineEngine
from puzzlebench.engines.sat import SatEngine
from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, timed, write_page

TOP_TARGET, HARD_TARGET = 2090, 459
LEAD = ("Building the CNF, the SAT paradigm end to end per PySAT solver and encoding, the kept solver's rebuild "
        "policy, where a puzzle's time goes, and the Quine engine's time.")


def load(name: str, count: int | None = None):
    lines = data_lines(name)
    return [parse_sudoku_line(line.split()[0]) for line in (lines if count is None else spread(lines, count))]


def run_set(make, puzzles, time_limit, repeats: int) -> tuple[float, float, dict, float]:
    """(best CPU rate, best wall rate, statuses, conflicts per puzzle), each run on a new engine."""
    best_cpu = best_wall = 0.0
    for _ in range(repeats):
        engine = make()
        engine.run(puzzles[0], limit=2, time_limit=time_limit)  # the shape's formula, the solver
        results, wall, cpu = timed(lambda: [engine.run(p, limit=2, time_limit=time_limit) for p in puzzles])
        best_cpu, best_wall = max(best_cpu, len(puzzles) / cpu), max(best_wall, len(puzzles) / wall)
    return (best_cpu, best_wall, Counter(str(r.status) for r in results),
            sum(r.stats.conflicts or 0 for r in results) / len(results))


def said(statuses: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))


class _Timed:
    """A PySAT solver whose calls are timed (for the breakdown of one puzzle's time)."""

    spent = {"bootstrap": 0.0, "solve": 0.0, "get_model": 0.0, "other calls": 0.0}
    parts = {"solve": "solve", "solve_limited": "solve", "get_model": "get_model", "add_clause": "other calls",
             "accum_stats": "other calls"}
    real = None  # PySAT's Solver (set while the engine's is replaced by this class)

    def __init__(self, name, bootstrap_with):
        t = time.perf_counter()
        self._s = _Timed.real(name=name, bootstrap_with=bootstrap_with)
        self.spent["bootstrap"] += time.perf_counter() - t

    def __getattr__(self, name):
        method = getattr(self._s, name)
        if name not in self.parts:
            return method

        def timed(*args, **kwargs):
            t = time.perf_counter()
            out = method(*args, **kwargs)
            self.spent[self.parts[name]] += time.perf_counter() - t
            return out
        return timed


def breakdown(spec_solver: str, encoding: str, puzzles, time_limit) -> dict[str, float]:
    """Microseconds per puzzle: the PySAT calls (timed one by one) and the rest (Python)."""
    import pysat.solvers

    real = _Timed.real = pysat.solvers.Solver
    pysat.solvers.Solver = _Timed
    try:
        engine = SatEngine(spec_solver, {"encoding": encoding})
        engine.run(puzzles[0], time_limit=time_limit)
        for k in _Timed.spent:
            _Timed.spent[k] = 0.0
        t = time.perf_counter()
        for p in puzzles:
            engine.run(p, limit=2, time_limit=time_limit)
        total = time.perf_counter() - t
    finally:
        pysat.solvers.Solver = real
    out = {k: v / len(puzzles) * 1e6 for k, v in _Timed.spent.items()}
    out["the rest (Python: encode, decode, verify, Result, watchdog, ...)"] = \
        total / len(puzzles) * 1e6 - sum(out.values())
    out["total"] = total / len(puzzles) * 1e6
    return out


def solve_floor(name: str, encoding: str, puzzles, rebuild: int) -> tuple[float, float]:
    """PySAT alone on the same scheme (givens as assumptions, one switch per puzzle, blocking
    clause, rebuilt every ``rebuild`` puzzles): (us per puzzle in solve calls only, us per
    puzzle for the whole loop, in CPU time).  The least any PySAT engine can take."""
    from pysat.solvers import Solver

    cnfs = [encode(p, encoding) for p in puzzles]
    base, n_vars, n_cand = cnfs[0].clauses, cnfs[0].n_vars, cnfs[0].n_candidates
    solver, in_solve = None, 0.0
    start = time.process_time()
    for i, cnf in enumerate(cnfs):
        if i % rebuild == 0:
            if solver is not None:
                solver.delete()
            solver, top = Solver(name=name, bootstrap_with=base), n_vars
        top += 1
        assumptions = cnf.units + [top]
        for _ in range(2):
            t = time.process_time()
            ok = solver.solve(assumptions=assumptions)
            in_solve += time.process_time() - t
            if not ok:
                break
            solver.add_clause([-top] + [-l for l in solver.get_model()[:n_cand] if l > 0])
        solver.add_clause([-top])
    whole = time.process_time() - start
    solver.delete()
    return in_solve / len(cnfs) * 1e6, whole / len(cnfs) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hardest", type=int, default=1000, help="forum hardest sample size (spread over the file)")
    ap.add_argument("--quine", type=int, default=25, help="top1465 puzzles for the Quine engine")
    ap.add_argument("--quine-time-limit", type=float, default=30.0)
    ap.add_argument("--time-limit", type=float, default=10.0, help="per puzzle, as the harness passes one")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--top", type=int, help="puzzles of top1465 (default: all)")
    ap.add_argument("--solvers", default="minisat22,glucose3,glucose4,ergo")
    ap.add_argument("--encodings", default="augmented,extended,efficient,minimal,optimized")
    ap.add_argument("--policies", default="20:0,50:0,0:500,0:1000,0:2000",
                    help="rebuild policies PUZZLES:CONFLICTS (0: no bound) for the default spec")
    ap.add_argument("--out", default="results/cnf.md")
    args = ap.parse_args()
    tl, load_before = args.time_limit, load_now()
    default = SatEngine()
    default_spec = f"{default.spec}@encoding={default.settings['encoding']}"
    lines = [f"python-sat {SatEngine.version()}; default engine `{default_spec}`, rebuilt after "
             f"{sat.REBUILD_CONFLICTS} conflicts or {sat.REBUILD_PUZZLES} puzzles.\n"]
    top = load("sudoku9_magictour_top1465.txt", args.top)
    hardest = load("sudoku9_forum_hardest_1905_11plus.txt", args.hardest)

    # 1. building the CNF of one puzzle
    lines += ["## Building the CNF of one 9x9 puzzle\n",
              "| encoding | ms per puzzle | target (< 1 ms for extended) |", "|---|---:|---|"]
    for encoding, sample in (("extended", top), ("augmented", top), ("optimized", top[:200])):
        encode(top[0], encoding)  # the shape's formula, built once
        t = time.perf_counter()
        for p in sample:
            encode(p, encoding)
        per = (time.perf_counter() - t) / len(sample)
        how = ("givens propagated away, per puzzle" if encoding == "optimized"
               else "shape formula cached + one unit per given")
        met = ("met" if per < 1e-3 else "NOT met") if encoding == "extended" else ""
        lines.append(f"| {encoding} ({how}) | {per * 1000:.4f} | {met} |")
    lines.append("")

    # 2. end-to-end SAT, limit 2, with a time limit
    lines += ["## End-to-end SAT (`SatEngine.run`: encode + solve + decode + verify, limit 2), puzzles/s\n",
              f"top1465: {len(top)}; forum hardest 11+: {len(hardest)} (evenly spaced); "
              f"time limit {tl:g} s per puzzle; best of {args.repeats} runs; `optimized` on the first "
              "300 of each (a solver built per puzzle).\n",
              "| solver | encoding | top1465 CPU | top1465 wall | hardest CPU | hardest wall | "
              "conflicts/puzzle (top, hardest) | statuses |", "|---|---|---:|---:|---:|---:|---:|---|"]
    best = {"top": (0.0, 0.0, ""), "hard": (0.0, 0.0, "")}
    for solver in args.solvers.split(","):
        for encoding in args.encodings.split(","):
            make = lambda: SatEngine(solver, {"encoding": encoding})  # noqa: E731
            st = top if encoding != "optimized" else top[:300]
            sh = hardest if encoding != "optimized" else hardest[:300]
            c1, w1, s1, k1 = run_set(make, st, tl, args.repeats)
            c2, w2, s2, k2 = run_set(make, sh, tl, args.repeats)
            name = f"sat:{solver}@encoding={encoding}"
            lines.append(f"| sat:{solver} | {encoding} | {c1:,.0f} | {w1:,.0f} | {c2:,.0f} | {w2:,.0f} | "
                         f"{k1:.1f}, {k2:.1f} | {said(s1)}; {said(s2)} |")
            print(lines[-1], flush=True)
            if encoding != "optimized":
                best["top"] = max(best["top"], (c1, w1, name))
                best["hard"] = max(best["hard"], (c2, w2, name))
    for spec in ("dlx", "mrv"):
        make = lambda: make_engine(spec)  # noqa: E731
        st, sh = (top, hardest) if spec == "dlx" else (top[:100], hardest[:100])
        c1, w1, s1, _ = run_set(make, st, tl, 1)
        c2, w2, s2, _ = run_set(make, sh, tl, 1)
        lines.append(f"| {spec} (same run, for scale{'' if spec == 'dlx' else '; 100 of each'}) | – | "
                     f"{c1:,.0f} | {w1:,.0f} | {c2:,.0f} | {w2:,.0f} | | {said(s1)}; {said(s2)} |")
    lines.append("")
    verdict = {}
    for key, target, label in (("top", TOP_TARGET, "top1465"), ("hard", HARD_TARGET, "hardest 11+")):
        c, w, name = best[key]
        verdict[key] = (c >= target and w >= target)
        lines.append(f"- Best on {label}: {c:,.0f}/s CPU, {w:,.0f}/s wall (`{name}`); target {target:,}/s: "
                     f"**{'met' if verdict[key] else 'NOT met'}**" +
                     ("" if verdict[key] or max(c, w) < target else " (met by one clock only)"))
    lines.append("")

    # 3. the kept solver's rebuild policy
    policies = [tuple(int(x) for x in p.split(":")) for p in args.policies.split(",")]
    lines += [f"## Rebuild policy of the kept solver (`{default_spec}`), puzzles/s (CPU, best of "
              f"{args.repeats})\n",
              "A kept solver is rebuilt from the base formula after N puzzles or K conflicts since "
              "it was built (0: no bound); the figures that chose the default.\n",
              "| N puzzles | K conflicts | top1465 | hardest 11+ |", "|---:|---:|---:|---:|"]
    saved = sat.REBUILD_PUZZLES, sat.REBUILD_CONFLICTS
    inf = float("inf")
    make = lambda: SatEngine()  # noqa: E731
    for n, k in policies:
        sat.REBUILD_PUZZLES, sat.REBUILD_CONFLICTS = n or inf, k or inf
        c1, _, _, _ = run_set(make, top, tl, args.repeats)
        c2, _, _, _ = run_set(make, hardest, tl, args.repeats)
        lines.append(f"| {n or '–'} | {k or '–'} | {c1:,.0f} | {c2:,.0f} |")
        print(lines[-1], flush=True)
    sat.REBUILD_PUZZLES, sat.REBUILD_CONFLICTS = saved
    lines.append("")

    # 4. where one puzzle's time goes, and PySAT's own floor
    parts = breakdown(default.variant, default.settings["encoding"], top, tl)
    budget = 1e6 / TOP_TARGET
    lines += [f"## Where the time of one top1465 puzzle goes (`{default_spec}`, wall, microseconds)\n",
              f"The target, {TOP_TARGET:,}/s, is a budget of {budget:.0f} us per puzzle.  PySAT calls "
              "timed one by one (the timing adds about a microsecond per call).\n",
              "| part | us per puzzle |", "|---|---:|"]
    for key, value in parts.items():
        lines.append(f"| {key} | {value:.0f} |")
    lines += ["", "PySAT alone on the same scheme (no puzzlebench code; CPU time), us per puzzle:\n",
              "| solver | encoding | rebuilt every | in solve calls | whole loop |", "|---|---|---:|---:|---:|"]
    for name in args.solvers.split(","):
        for encoding in ("augmented", "extended"):
            for rebuild in (1, 50):
                in_solve, whole = solve_floor(name, encoding, top, rebuild)
                lines.append(f"| {name} | {encoding} | {rebuild} | {in_solve:.0f} | {whole:.0f} |")
    lines.append("")

    # 5. Quine
    qstep = max(1, len(top) // max(1, args.quine))
    sample = top[::qstep][:args.quine]
    lines += ["## Quine dilemma engine (Python), top1465 sample, limit 2\n",
              f"{len(sample)} puzzles (every {qstep}th), time limit {args.quine_time_limit:g} s each.\n",
              "| heuristic | encoding | median ms (wall) | median ms (CPU) | max ms (wall) | timeouts | "
              "median max depth | median disjunctions | target (median < 100 ms) |",
              "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for encoding in ("extended", "augmented"):
        engine = QuineEngine("h1", {"encoding": encoding})
        engine.run(sample[0], limit=2, time_limit=args.quine_time_limit)
        walls, cpus, results = [], [], []
        for p in sample:
            c = time.process_time()
            r = engine.run(p, limit=2, time_limit=args.quine_time_limit)
            cpus.append(time.process_time() - c)
            walls.append(r.times.total)
            results.append(r)
        med = statistics.median(walls)
        lines.append(f"| h1 | {encoding} | {med * 1000:.1f} | {statistics.median(cpus) * 1000:.1f} | "
                     f"{max(walls) * 1000:.0f} | {sum(str(r.status) == 'timeout' for r in results)} | "
                     f"{statistics.median(r.stats.raw.get('max_depth', 0) for r in results)} | "
                     f"{statistics.median(r.stats.nodes or 0 for r in results)} | "
                     f"{'met' if med < 0.1 else 'NOT met'} |")
        print(lines[-1], flush=True)
    print(write_page(args.out, title="CNF, SAT and Quine benchmark", lead=LEAD, command=command_line(),
                     writer="benchmarks/bench_cnf.py", loads=[load_before, load_now()], lines=lines))


if __name__ == "__main__":
    main()
