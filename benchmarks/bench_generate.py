"""What generating a minimal 16x16 and 25x25 Sudoku costs; writes results/generate_large.md,
one puzzle a row (``generate_sudoku`` from ``random.Random("sudoku:SEED")``, as ``puzzlebench
generate`` makes it) by the default path (``prover``: the bitboard counter's first look, then a
SAT solver on the check's own formula) beside the counter alone (``counter``: bounded by
``--reference-seconds`` a check at 25x25, unbounded at 16x16) and the SAT solver alone
(``SAT alone``).  The page is rewritten after every row, so that a run cut short keeps its rows.
CPU time is the process's (``time.process_time``: the machine is shared) except where a column
says wall.

    python benchmarks/bench_generate.py [--boxes 4x4,5x5] [--seeds 1,2,3] [--reference-seeds 1,2,3]

(The 25x25 dig's SAT checks asked two ways, results/generate_checks.md, and generation to a
target rating, results/generate_rating.md, were measured by this script in the tree at 8c9a24d.)
"""

from __future__ import annotations

import argparse
import random
import time

from puzzlebench.generators import sudoku as sudoku_generator
from puzzlebench.generators.dig import Counter
from puzzlebench.generators.sudoku import COUNTER_SECONDS, SAT_ENCODING, SAT_SOLVER, generate_sudoku
from puzzlebench.harness.pages import command_line, load_now, write_page

TITLE = "Minimal 16x16 and 25x25 Sudoku"
LEAD = ("What generating a minimal 16x16 and 25x25 Sudoku costs, CPU time per seed, with every clue decided, "
        "against the counter alone bounded per check.")


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
    n = box[0] * box[1]
    return (f"| {n}x{n} | {seed} | {path} | {run['cpu']:.1f} | {run['wall']:.1f} | {run['clues']}{same} "
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
            if seed in reference_seeds:
                ref = one(box, seed, False, args.reference_seconds if box[0] * box[1] >= 25 else None)
                rows.append(large_row(box, seed, "counter", ref, "", None))
                write(["## The run", "", *head, *rows])
            new = one(box, seed, True, None)
            rows.append(large_row(box, seed, "prover", new, f"{ref['cpu'] / new['cpu']:.2f}" if ref else "", ref))
            write(["## The run", "", *head, *rows])
            if "x".join(map(str, box)) in alone_boxes:
                sat = one(box, seed, True, None, alone=True)
                rows.append(large_row(box, seed, "SAT alone", sat, f"{new['cpu'] / sat['cpu']:.2f}", new))
                write(["## The run", "", *head, *rows])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", default="4x4,5x5", help="blocks of the grids, comma-separated")
    ap.add_argument("--seeds", default="1,2,3", help="seeds, comma-separated")
    ap.add_argument("--reference-seeds", default="1,2,3", help="seeds also run by the counter alone")
    ap.add_argument("--sat-alone-boxes", default="4x4", help="boxes also run by the SAT solver alone")
    ap.add_argument("--reference-seconds", type=float, default=2.0, help="the counter's bound a check at 25x25")
    ap.add_argument("--out", default="results/generate_large.md")
    args = ap.parse_args()
    boxes = [tuple(int(x) for x in b.split("x")) for b in args.boxes.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    loads = [load_now()]

    def write(lines: list[str]) -> None:
        loads.append(load_now())
        write_page(args.out, title=TITLE, lead=LEAD, command=command_line(), writer="benchmarks/bench_generate.py",
                   loads=loads, lines=lines)

    large_rows(args, boxes, seeds, write)


if __name__ == "__main__":
    main()
