"""What generating Sudoku costs, one page a ``--page``:

- ``large`` (results/generate_large.md): minimal 16x16 and 25x25, one puzzle a row
  (``generate_sudoku`` from ``random.Random("sudoku:SEED")``, as ``puzzlebench generate`` makes it)
  by the default path (``prover``: the bitboard counter's first look, then a SAT solver on the
  check's own formula) beside the counter alone (``counter``: bounded by ``--reference-seconds``
  a check at 25x25, unbounded at 16x16) and the SAT solver alone (``SAT alone``); the page is
  rewritten after every row, so that a run cut short keeps its rows;
- ``checks`` (results/generate_checks.md): the SAT checks of a dig replayed and asked two ways, a
  fresh solver on each check's own formula against one incremental solver for the whole dig;
- ``rating`` (results/generate_rating.md): generation to a target rating, time per puzzle found by
  rating range, beside plain minimal generation.

CPU time is the process's (``time.process_time``: the machine is shared) except where a column says wall.

    python benchmarks/bench_generate.py --page large [--boxes 4x4,5x5] [--seeds 1,2,3] [--reference-seeds 1,2,3]
    python benchmarks/bench_generate.py --page checks [--boxes 5x5] [--seeds 1,2]
    python benchmarks/bench_generate.py --page rating [--count 10] [--seeds 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pysat.solvers import Solver

from puzzlebench.encoders.cnf import base_formula, encode
from puzzlebench.generators import generate
from puzzlebench.generators import sudoku as sudoku_generator
from puzzlebench.generators.dig import Counter
from puzzlebench.generators.sudoku import (COUNTER_SECONDS, SAT_ENCODING, SAT_SOLVER, completed_grid,
                                            generate_rated_sudoku, generate_sudoku)
from puzzlebench.harness.pages import command_line, load_now, write_page
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.models.vocabulary import candidate
from puzzlebench.results import Status

DEFAULTS = {"large": ("4x4,5x5", "1,2,3"), "checks": ("5x5", "1,2"), "rating": ("3x3", "1")}
TITLES = {"large": "Minimal 16x16 and 25x25 Sudoku", "checks": "The SAT checks of the 25x25 dig, asked two ways",
          "rating": "Generation to a target rating"}
LEADS = {
    "large": "What generating a minimal 16x16 and 25x25 Sudoku costs, CPU time per seed, with every clue decided, "
             "against the counter alone bounded per check.",
    "checks": "Each check the counter does not decide in its first look, asked by a fresh CaDiCaL on the check's "
              "own formula and by one incremental CaDiCaL for the whole dig, on the same checks. CPU seconds.",
    "rating": "What generating minimal 9x9 puzzles to a target rating costs, against plain minimal generation.",
}
RANGES = [(1.0, 2.0), (2.0, 4.0), (4.0, 6.0), (6.0, 8.0), (8.0, 12.0)]
TECHNIQUES = [("x-wing", 1.0, 12.0), ("forcing chain", 1.0, 12.0)]


def grid_words(box: tuple[int, int]) -> str:
    n = box[0] * box[1]
    return f"{n}x{n}"


# -- large: minimal 16x16 and 25x25 ------------------------------------------------------------

def one(box: tuple[int, int], seed: int, sat: bool, check_seconds: float | None, alone: bool = False) -> dict:
    """One seed's puzzle by a path: its CPU and wall seconds, clues, undecided clues, deciders."""
    first = sudoku_generator.COUNTER_SECONDS
    if alone:   # no look for the counter: the SAT solver decides every check
        sudoku_generator.COUNTER_SECONDS = 0
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        puzzle = generate_sudoku(box, random.Random(f"sudoku:{seed}"), counter=Counter("sudoku"), sat=sat,
                                 check_seconds=check_seconds)
    finally:
        sudoku_generator.COUNTER_SECONDS = first
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
            "clues": sum(1 for g in puzzle.givens if g), "undecided": puzzle.metadata.get("undecided", 0),
            "decided": puzzle.metadata.get("decided") or {}, "text": puzzle.write()}


def large_row(box, seed: int, path: str, run: dict, ratio: str, same_as: dict | None) -> str:
    same = "" if same_as is None or same_as["undecided"] or same_as["text"] == run["text"] else " (differs!)"
    decided = "–" if path == "counter" else f"{run['decided'].get('counter', 0)}/{run['decided'].get('sat', 0)}"
    return (f"| {grid_words(box)} | {seed} | {path} | {run['cpu']:.1f} | {run['wall']:.1f} | {run['clues']}{same} "
            f"| {run['undecided']} | {decided} | {ratio} |")


def large_rows(args, boxes, seeds, write) -> None:
    rows: list[str] = []
    reference_seeds = {int(s) for s in args.reference_seeds.split(",") if s}
    alone_boxes = {b for b in args.sat_alone_boxes.split(",") if b}
    head = [f"`prover`: the default path from 16 values, the bitboard counter's first look ({COUNTER_SECONDS:g} s) "
            f"then {SAT_SOLVER} on the check's own {SAT_ENCODING} formula, no bound.  `counter`: the reference in the "
            f"same run, the bitboard alone (bounded by {args.reference_seconds:g} s a check at 25x25; unbounded at "
            "16x16).  `SAT alone`: no look for the counter.  Ratio: counter CPU / prover CPU (on a `SAT alone` row: "
            "prover CPU / SAT-alone CPU).", "",
            "| grid | seed | path | CPU s | wall s | clues | undecided | checks decided (counter/SAT) | ratio |",
            "|---|---:|---|---:|---:|---:|---:|---|---:|"]
    for box in boxes:
        for seed in seeds:
            ref = None
            if seed in reference_seeds and "counter" in args.paths:
                ref = one(box, seed, False, args.reference_seconds if box[0] * box[1] >= 25 else None)
                rows.append(large_row(box, seed, "counter", ref, "", None))
                write(["## The run", "", *head, *rows])
            if "prover" not in args.paths:
                continue
            new = one(box, seed, True, None)
            rows.append(large_row(box, seed, "prover", new, f"{ref['cpu'] / new['cpu']:.2f}" if ref else "", ref))
            write(["## The run", "", *head, *rows])
            if "x".join(map(str, box)) in alone_boxes:
                sat = one(box, seed, True, None, alone=True)
                rows.append(large_row(box, seed, "SAT alone", sat, f"{new['cpu'] / sat['cpu']:.2f}", new))
                write(["## The run", "", *head, *rows])


# -- checks: the dig's SAT checks asked two ways --------------------------------------------------

def replay(box: tuple[int, int], seed: int) -> dict:
    """Time the seed's dig (the prover as shipped), then ask each check the counter does not decide
    in its first look both ways, every answer compared with the dig's."""
    n = box[0] * box[1]
    started = time.process_time()
    puzzle = generate_sudoku(box, random.Random(f"sudoku:{seed}"), counter=Counter("sudoku"))
    dig_cpu = time.process_time() - started
    rng, counter = random.Random(f"sudoku:{seed}"), Counter("sudoku")
    solution = completed_grid(box, rng, counter)
    assert Sudoku(box, solution).write() == puzzle.metadata["solution"], "the replay's grid is not the dig's"
    order = list(range(n * n))
    rng.shuffle(order)
    literal = [candidate(cell, v, n) + 1 for cell, v in enumerate(solution)]
    incremental = Solver(name=SAT_SOLVER, bootstrap_with=base_formula(Sudoku(box, [0] * n * n), "extended",
                                                                      "pairwise")[2])
    givens, fresh_times, incremental_times = list(solution), [], []
    for cell in order:
        givens[cell] = 0
        needed = bool(puzzle.givens[cell])
        status = counter.solve(Sudoku(box, givens), time_limit=COUNTER_SECONDS).status
        if status is Status.TIMEOUT:
            started = time.process_time()
            with Solver(name=SAT_SOLVER, bootstrap_with=encode(Sudoku(box, givens), SAT_ENCODING).clauses) as fresh:
                fresh.add_clause([-literal[cell]])
                assert fresh.solve() == needed, (seed, cell, "fresh")
            fresh_times.append(time.process_time() - started)
            started = time.process_time()
            answer = incremental.solve(assumptions=[lit for lit, g in zip(literal, givens) if g] + [-literal[cell]])
            incremental_times.append(time.process_time() - started)
            assert answer == needed, (seed, cell, "incremental")
        else:
            assert (status is Status.MULTIPLE) == needed, (seed, cell, "counter")
        if needed:
            givens[cell] = solution[cell]
            incremental.add_clause([literal[cell]])
    incremental.delete()
    return {"dig": dig_cpu, "clues": sum(1 for g in puzzle.givens if g), "fresh": fresh_times,
            "incremental": incremental_times}


def checks_lines(boxes, seeds) -> list[str]:
    lines = ["| grid | seed | dig s | clues | SAT checks | incremental s | fresh s | ratio | median incremental | "
             "median fresh | ratio on the 10 costliest |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for box in boxes:
        for seed in seeds:
            r = replay(box, seed)
            fresh, inc, grid = r["fresh"], r["incremental"], "x".join(map(str, box))
            if not inc:   # the counter decided every check (16x16)
                lines.append(f"| {grid} | {seed} | {r['dig']:.1f} | {r['clues']} | 0 | – | – | – | – | – | – |")
                continue
            top = sorted(range(len(inc)), key=lambda i: -inc[i])[:10]
            lines.append(f"| {grid} | {seed} | {r['dig']:.1f} | {r['clues']} | {len(fresh)} | {sum(inc):.1f} | "
                         f"{sum(fresh):.1f} | {sum(inc) / sum(fresh):.2f} | {statistics.median(inc):.3f} | "
                         f"{statistics.median(fresh):.3f} | "
                         f"{sum(inc[i] for i in top) / sum(fresh[i] for i in top):.2f} |")
            print(lines[-1], flush=True)
    return lines


# -- rating: generation to a target rating --------------------------------------------------------

def rated(count: int, seed: int, low: float, high: float, technique: str | None = None) -> tuple[int, int, float]:
    """(puzzles found, candidates tried, wall seconds) of generation to the rating range."""
    tried = []
    start = time.perf_counter()
    found = list(generate_rated_sudoku(count, seed, low, high, technique=technique, attempts=1000 * count,
                                       on_attempt=tried.append))
    return len(found), len(tried), time.perf_counter() - start


def rating_lines(count: int, seed: int) -> list[str]:
    rated(1, seed + 1, 1.0, 12.0)   # warm-up (imports, the model's weights), not timed
    start = time.perf_counter()
    plain = list(generate("sudoku", 5 * count, seed))
    plain_each = (time.perf_counter() - start) / len(plain)
    lines = [f"Reference (same run): plain minimal generation, {1000 * plain_each:.1f} ms per puzzle "
             f"({len(plain)} puzzles, no rating).", "",
             "| target | found | tried | tried per found | ms per puzzle found | ratio to plain |",
             "|---|---:|---:|---:|---:|---:|"]
    targets = [(f"{low:.1f}–{high:.1f}", low, high, None) for low, high in RANGES]
    for name, low, high, technique in targets + [(f"any, using {t}", low, high, t) for t, low, high in TECHNIQUES]:
        found, tried, seconds = rated(count, seed, low, high, technique)
        each = seconds / found if found else float("nan")
        lines.append(f"| {name} | {found} | {tried} | {tried / max(found, 1):.1f} | {1000 * each:.0f} | "
                     f"{each / plain_each:.1f} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", choices=sorted(TITLES), required=True)
    ap.add_argument("--boxes", help="blocks of the grids, comma-separated (default: the page's)")
    ap.add_argument("--seeds", help="seeds, comma-separated (default: the page's; rating: the first)")
    ap.add_argument("--reference-seeds", default="1,2,3", help="large: seeds also run by the counter alone")
    ap.add_argument("--paths", default="counter,prover", help="large: which of counter, prover to run")
    ap.add_argument("--sat-alone-boxes", default="4x4", help="large: boxes also run by the SAT solver alone")
    ap.add_argument("--reference-seconds", type=float, default=2.0, help="large: the counter's bound a check at 25x25")
    ap.add_argument("--count", type=int, default=10, help="rating: puzzles to find in each range")
    ap.add_argument("--out", help="the page (default: results/generate_PAGE.md)")
    args = ap.parse_args()
    boxes = [tuple(int(x) for x in b.split("x")) for b in (args.boxes or DEFAULTS[args.page][0]).split(",")]
    seeds = [int(s) for s in (args.seeds or DEFAULTS[args.page][1]).split(",")]
    loads = [load_now()]

    def write(lines: list[str]) -> None:
        loads.append(load_now())
        write_page(args.out or f"results/generate_{args.page}.md", title=TITLES[args.page], lead=LEADS[args.page],
                   command=command_line(), writer="benchmarks/bench_generate.py", loads=loads, lines=lines)

    if args.page == "large":
        large_rows(args, boxes, seeds, write)
    else:
        write(checks_lines(boxes, seeds) if args.page == "checks" else rating_lines(args.count, seeds[0]))


if __name__ == "__main__":
    main()
