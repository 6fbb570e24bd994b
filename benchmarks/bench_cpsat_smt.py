"""CP-SAT and SMT paradigms against their references, measured in the same run; writes
results/cpsat_smt.md.

1. CP-SAT (``cpsat:int``, ``cpsat:bool``; 1 worker) against CPMpy on the same solver
   (``cpmpy:ortools``) on a sample of top1465.  Target: the best formulation's median total time
   no worse than CPMpy's.
2. Z3 (``smt:fold``, ``smt:bool``, ``smt:bool@amo=pairwise``, ``smt:int``) on scrambled
   forum-hardest puzzles.  Target: the best at least 20x faster than ``smt:int``.
3. Building a Z3 formula: SMT-LIB2 text parsed by Z3 against the same terms made through Z3's
   Python objects.
4. The fast formulations on a few 16x16, ``smt:int`` on fewer.

Limit 2 throughout; every answer verified and proved unique (anything else stops the run).

    python benchmarks/bench_cpsat_smt.py [--top1465 200] [--hard 20] [--build 5] [--sixteen 5] [--sixteen-int 1]
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata as md
import random
import statistics
import time

from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, write_page
from puzzlebench.harness.scramble import scramble_sudoku
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.results import Status

LEAD = ("CP-SAT's formulations against CPMpy's path to the same solver, Z3's formulations against each other, and "
        "how a Z3 formula is best built.")
CPMPY = "cpmpy:ortools"
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"   # warm-up


def sample(name: str, count: int) -> list[str]:
    return [line.split()[0] for line in spread(data_lines(name), count)]


def median_ms(values) -> float:
    return statistics.median(values) * 1000


def checked(result, spec: str):
    if result.status is not Status.UNIQUE or not result.verified:
        raise SystemExit(f"{spec}: {result.status} {result.error or ''} on {result.puzzle.write()}")
    return result


def rotated(specs: list[str], lines: list[str], time_limit: dict | None = None) -> dict[str, dict[str, list]]:
    """Each engine on each puzzle, freshly parsed (each pays for deriving the rules), in rotating
    order (no engine always first), the garbage collected before each timed run, after one untimed
    warm-up run each: build, solve and total seconds and decisions of every run."""
    engines = {spec: make_engine(spec) for spec in specs}
    for engine in engines.values():
        engine.run(parse_sudoku_line(EASY), limit=2)
    times = {spec: {"build": [], "solve": [], "total": [], "nodes": []} for spec in specs}
    for k, line in enumerate(lines):
        for spec in specs[k % len(specs):] + specs[:k % len(specs)]:
            gc.collect()
            result = checked(engines[spec].run(parse_sudoku_line(line), limit=2,
                                               time_limit=(time_limit or {}).get(spec)), spec)
            for key, value in (("build", result.times.encode), ("solve", result.times.solve),
                               ("total", result.times.total), ("nodes", result.stats.nodes or 0)):
                times[spec][key].append(value)
    return times


def timings(t: dict) -> str:
    return f"{median_ms(t['build']):.2f} | {median_ms(t['solve']):.2f} | {median_ms(t['total']):.2f}"


def cpsat_section(count: int) -> list[str]:
    specs = ["cpsat:int", "cpsat:bool"]
    times = rotated(specs + [CPMPY], sample("sudoku9_magictour_top1465.txt", count))
    best = min(specs, key=lambda s: median_ms(times[s]["total"]))
    best_ms, cpmpy_ms = median_ms(times[best]["total"]), median_ms(times[CPMPY]["total"])
    paired = [c - o for c, o in zip(times[CPMPY]["total"], times[best]["total"])]
    return [f"## 1. CP-SAT against CPMpy (top1465, {count} puzzles sampled evenly, 1 worker, limit 2)", "",
            "The engines run one after the other on each puzzle, in rotating order.", "",
            "| solver | build median | solve median | total median | total mean |", "|---|---:|---:|---:|---:|",
            *(f"| {s} | {timings(t)} | {statistics.mean(t['total']) * 1000:.2f} |" for s, t in times.items()), "",
            f"Target: the best formulation ({best}, {best_ms:.2f} ms) no worse than CPMpy ({cpmpy_ms:.2f} ms): "
            f"**{'met' if best_ms <= cpmpy_ms else 'NOT met'}**.  Puzzle by puzzle, {best} is faster on "
            f"{sum(d > 0 for d in paired) / len(paired):.0%} of the puzzles; the median of CPMpy's time minus its "
            f"time is {median_ms(paired):.2f} ms.  The solve times are CP-SAT's own, alike for both (the same "
            "solver, parameters and enumeration with a callback); the difference is the build: CPMpy's model, its "
            "transformation and posting cost more than writing the CP-SAT model directly.", ""]


def smt_section(count: int, seed: int, int_time_limit: float) -> list[str]:
    rng = random.Random(seed)
    lines = [scramble_sudoku(parse_sudoku_line(line), rng).write()
             for line in sample("sudoku9_forum_hardest_1905_11plus.txt", count)]
    specs = ["smt:fold", "smt:bool", "smt:bool@amo=pairwise", "smt:int"]
    times = rotated(specs, lines, {"smt:int": int_time_limit})
    base = median_ms(times["smt:int"]["total"])
    best = min(specs, key=lambda s: median_ms(times[s]["total"]))
    best_ms = median_ms(times[best]["total"])
    return [f"## 2. Z3 formulations (forum hardest 11+, {count} puzzles sampled evenly and scrambled, seed {seed}, "
            "limit 2)", "",
            "| solver | build median | solve median | total median | speed-up vs smt:int | decisions (median) |",
            "|---|---:|---:|---:|---:|---:|",
            *(f"| {s} | {timings(t)} | {base / median_ms(t['total']):.1f}x | {statistics.median(t['nodes']):.0f} |"
              for s, t in times.items()), "",
            f"Target: the best formulation ({best}, {best_ms:.2f} ms) at least 20x faster than `smt:int` "
            f"({base:.1f} ms): {base / best_ms:.1f}x, **{'met' if base / best_ms >= 20 else 'NOT met'}**.", "",
            "`smt:fold` is the Boolean formulation after the givens are folded away: the exactly-one / at-most-one "
            "groups are unit-propagated once in Python (naked and hidden singles of the givens), and only the open "
            "candidates and the groups still constraining them are written; Z3 runs its SAT core with native "
            "cardinality constraints (`QF_FD`).", ""]


def build_section(count: int) -> list[str]:
    """The pairwise Boolean formulation built twice: parsed from its SMT-LIB2 text by Z3, and made
    term by term through Z3's Python API."""
    import z3

    from puzzlebench.encoders.cpsat import candidate_groups
    from puzzlebench.encoders.smt import encode_smt, read_smt2

    text_t, api_t = [], []
    for line in sample("sudoku9_norvig_top95.txt", count):
        rules = parse_sudoku_line(line).rules
        start = time.perf_counter()
        formula = encode_smt(rules, "bool", "pairwise")
        read_smt2(formula.body(), solver=z3.Solver())
        text_t.append(time.perf_counter() - start)
        start = time.perf_counter()
        x = [z3.Bool(f"x{c}_{v}") for c in range(rules.n_cells) for v in range(1, 10)]
        solver = z3.Solver()
        solver.add([x[c * 9 + g - 1] for c, g in enumerate(rules.givens) if g])
        for group in candidate_groups(rules):
            lits = [x[i] for i in group.candidates]
            if group.exactly:
                solver.add(z3.Or(lits))
            solver.add([z3.Or(z3.Not(a), z3.Not(b)) for i, a in enumerate(lits) for b in lits[i + 1:]])
        api_t.append(time.perf_counter() - start)
    clauses = formula.size()["constraints"]
    return [f"## 3. Building a Z3 formula: text or Python objects (top95, {count} puzzles)", "",
            "The pairwise Boolean formulation (one Bool per candidate, at-least-one clauses and pairwise at-most-one "
            "clauses) made two ways; median milliseconds to have it in a solver.", "",
            "| how | assertions | build median |", "|---|---:|---:|",
            f"| SMT-LIB2 text, parsed by Z3 (`Solver.from_string`) | {clauses} | {median_ms(text_t):.1f} |",
            f"| Z3 Python objects (`Bool`, `Or`, `Not`, `Solver.add`) | {clauses} | {median_ms(api_t):.1f} |", "",
            "So every `smt` variant writes SMT-LIB2 text and hands it to Z3's parser in one call.", ""]


def sixteen_section(count: int, int_count: int, int_time_limit: float) -> list[str]:
    """The fast formulations on a few 16x16, ``smt:int`` on fewer (tens of seconds a puzzle)."""
    lines = sample("sudoku16_vu_kr_1000.txt", count)
    out = ["## 4. 16x16 (vu_kr set, 4x4 blocks, sampled evenly, limit 2)", "",
           "| solver | puzzles | build median | solve median | total median | note |", "|---|---:|---:|---:|---:|---|"]
    for spec in ("cpsat:int", "cpsat:bool", "smt:fold", "smt:bool", "smt:int"):
        engine, limit = make_engine(spec), int_time_limit if spec == "smt:int" else None
        engine.run(parse_sudoku_line("...3..4114..3..."), limit=2)
        results = [engine.run(parse_sudoku_line(line), limit=2, time_limit=limit)
                   for line in (lines[:int_count] if spec == "smt:int" else lines)]
        done = [checked(r, spec) for r in results if r.status is not Status.TIMEOUT]
        note = f"{len(results) - len(done)} stopped at {int_time_limit:g} s" if len(done) < len(results) else ""
        cells = " | ".join(f"{median_ms([getattr(r.times, k) for r in done]):.1f}" if done else ""
                           for k in ("encode", "solve", "total"))
        out.append(f"| {spec} | {len(results)} | {cells} | {note} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top1465", type=int, default=200, help="puzzles sampled from top1465")
    parser.add_argument("--hard", type=int, default=20, help="scrambled forum-hardest puzzles")
    parser.add_argument("--build", type=int, default=5, help="puzzles for the build comparison")
    parser.add_argument("--sixteen", type=int, default=5, help="16x16 puzzles for the fast formulations")
    parser.add_argument("--sixteen-int", type=int, default=1, help="16x16 puzzles for smt:int")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--int-time-limit", type=float, default=60.0)
    parser.add_argument("--out", default="results/cpsat_smt.md")
    args = parser.parse_args()
    load = load_now()
    lines = [f"OR-Tools {md.version('ortools')}, CPMpy {md.version('cpmpy')}, Z3 {md.version('z3-solver')}.", "",
             "Times are per puzzle, in milliseconds; every answer was verified by the puzzle's checker and every "
             "puzzle was proved unique (limit 2).  Each engine gets a freshly parsed puzzle (so each pays for "
             "deriving the rules), after one untimed warm-up run; the garbage collector runs before each timed run, "
             "so that no run pays for the previous one's garbage.  Build = encode (for Z3: SMT-LIB2 text written "
             "and parsed into the solver; for CPMpy: its model, transformation and posting to OR-Tools).", "",
             *cpsat_section(args.top1465), *smt_section(args.hard, args.seed, args.int_time_limit),
             *build_section(args.build),
             *sixteen_section(args.sixteen, args.sixteen_int, max(args.int_time_limit, 120.0))]
    print(write_page(args.out, title="CP-SAT and SMT paradigms", lead=LEAD, command=command_line(),
                     writer="benchmarks/bench_cpsat_smt.py", loads=[load, load_now()], lines=lines))


if __name__ == "__main__":
    main()
