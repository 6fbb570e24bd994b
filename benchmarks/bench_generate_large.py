"""Minimal Sudoku of 16x16 and 25x25 (issue 17, build item 4): time to one puzzle, the counter's
first look and then a SAT solver on each check, against the counter alone; writes
results/generate_large.md (rewritten after every row, so that a run cut short keeps its rows).

Each row is one puzzle, ``generate_sudoku`` from ``random.Random("sudoku:SEED")`` (what
``puzzlebench generate sudoku --box RxC --count 1 --seed SEED`` makes).  ``prover`` is the
default path (``CluesProver``: the bitboard counter's first look, then a SAT solver on the
check's own formula, no bound per check); ``counter`` is the reference, measured in the same run just before: the bitboard alone,
each check bounded by ``--reference-seconds`` at 25x25 (the former default, 2 s; a clue whose
check ran out is kept, *undecided*: unique, not minimal), unbounded at 16x16 (where it decides
every check).  CPU time is the process's (``time.process_time``: the machine is shared);
``decided`` says which engine decided how many checks of the prover path; ``SAT alone`` rows
(``--sat-alone-boxes``) give the counter no look.

    python benchmarks/bench_generate_large.py [--boxes 4x4,5x5] [--seeds 1,2,3] [--reference-seeds 1,2,3] [--sat-alone-boxes 4x4]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from puzzlebench.generators import sudoku as sudoku_generator
from puzzlebench.generators.dig import Counter
from puzzlebench.generators.sudoku import COUNTER_SECONDS, SAT_ENCODING, SAT_SOLVER, generate_sudoku
from puzzlebench.harness.pages import load_now


def load() -> str:
    return load_now()


def one(box: tuple[int, int], seed: int, sat: bool, check_seconds: float | None, alone: bool = False) -> dict:
    first = sudoku_generator.COUNTER_SECONDS
    if alone:   # no look for the counter: the SAT solver decides every check
        sudoku_generator.COUNTER_SECONDS = 0
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        puzzle = generate_sudoku(box, random.Random(f"sudoku:{seed}"), counter=Counter("sudoku"),
                                 sat=sat, check_seconds=check_seconds)
    finally:
        sudoku_generator.COUNTER_SECONDS = first
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
            "clues": sum(1 for g in puzzle.givens if g), "undecided": puzzle.metadata.get("undecided", 0),
            "decided": puzzle.metadata.get("decided"), "text": puzzle.write()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boxes", default="4x4,5x5")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--reference-seeds", default="1,2,3", help="seeds also run by the counter alone")
    ap.add_argument("--paths", default="counter,prover", help="which of counter, prover to run (a run split over processes)")
    ap.add_argument("--sat-alone-boxes", default="4x4", help="boxes also run by the SAT solver alone")
    ap.add_argument("--reference-seconds", type=float, default=2.0, help="the counter's bound per check at 25x25")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "results" / "generate_large.md"))
    a = ap.parse_args()
    boxes = [tuple(int(x) for x in b.split("x")) for b in a.boxes.split(",")]
    seeds = [int(s) for s in a.seeds.split(",")]
    reference_seeds = {int(s) for s in a.reference_seeds.split(",") if s}
    alone_boxes = {tuple(int(x) for x in b.split("x")) for b in a.sat_alone_boxes.split(",") if b}
    command = (f"python benchmarks/bench_generate_large.py --boxes {a.boxes} --seeds {a.seeds} "
               f"--reference-seeds {a.reference_seeds} --paths {a.paths} --sat-alone-boxes '{a.sat_alone_boxes}' --reference-seconds {a.reference_seconds:g}")
    before = load()
    rows: list[str] = []

    def write(done: bool) -> None:
        lines = ["# Minimal 16x16 and 25x25 Sudoku (issue 17, build item 4)", "",
                 f"Command: `{command}`  ", f"Load before: `{before}`  ",
                 f"Load after: `{load()}`" if done else "(run not finished)", "",
                 f"`prover`: the default path from 16 values, the bitboard counter's first look "
                 f"({COUNTER_SECONDS:g} s) then {SAT_SOLVER} on the check's own {SAT_ENCODING} formula, no bound.  `counter`: "
                 f"the reference in the same run, the bitboard alone (bounded by {a.reference_seconds:g} s a "
                 "check at 25x25, the former default; unbounded at 16x16).  `SAT alone`: no look for the counter.  "
                 "Ratio: counter CPU / prover CPU (on a `SAT alone` row: prover CPU / SAT-alone CPU).", "",
                 "| grid | seed | path | CPU s | wall s | clues | undecided | checks decided (counter/SAT) | ratio |",
                 "|---|---:|---|---:|---:|---:|---:|---|---:|", *rows]
        Path(a.out).write_text("\n".join(lines) + "\n")

    for box in boxes:
        n = box[0] * box[1]
        for seed in seeds:
            ref = None
            if seed in reference_seeds and "counter" in a.paths:
                ref = one(box, seed, False, a.reference_seconds if n >= 25 else None)
                rows.append(f"| {n}x{n} | {seed} | counter | {ref['cpu']:.1f} | {ref['wall']:.1f} | {ref['clues']} "
                            f"| {ref['undecided']} | – | |")
                write(False)
            if "prover" not in a.paths:
                continue
            new = one(box, seed, True, None)
            ratio = f"{ref['cpu'] / new['cpu']:.2f}" if ref else ""
            same = "" if ref is None or ref["undecided"] or ref["text"] == new["text"] else " (differs!)"
            decided = new["decided"] or {}
            rows.append(f"| {n}x{n} | {seed} | prover | {new['cpu']:.1f} | {new['wall']:.1f} | {new['clues']}{same} "
                        f"| {new['undecided']} | {decided.get('counter', 0)}/{decided.get('sat', 0)} | {ratio} |")
            write(False)
            print(rows[-1], flush=True)
            if box in alone_boxes:
                sat = one(box, seed, True, None, alone=True)
                same = "" if sat["text"] == new["text"] else " (differs!)"
                decided = sat["decided"] or {}
                rows.append(f"| {n}x{n} | {seed} | SAT alone | {sat['cpu']:.1f} | {sat['wall']:.1f} | {sat['clues']}{same} "
                            f"| {sat['undecided']} | {decided.get('counter', 0)}/{decided.get('sat', 0)} "
                            f"| {new['cpu'] / sat['cpu']:.2f} |")
                write(False)
    write(True)


if __name__ == "__main__":
    main()
