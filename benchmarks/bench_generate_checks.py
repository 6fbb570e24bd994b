"""The SAT question of the 25x25 dig asked two ways on the same checks (issue 17, build item 4):
a fresh solver on each check's own ``optimized`` formula (what ``CluesProver`` does) against
one incremental solver for the whole dig, the givens as assumptions (what it did before);
writes results/generate_checks.md.

The dig of ``generate_sudoku(box, random.Random("sudoku:SEED"))`` is replayed from its puzzle:
the same full grid and order (the seed's), each check's answer known from the puzzle (a clue
still given was needed).  A check is timed when the bitboard counter does not decide it in
its first turn (``COUNTER_SECONDS``), the checks the SAT solver answers in the dig.  Each
such check is asked both ways, one after the other, with no conflict budget; both answers
are compared with the dig's.  The incremental solver sees the checks in the dig's order and
gets each clue kept as a unit clause, as the prover had it.  CPU time (``time.process_time``;
the machine is shared), the fresh way's including its encoding.

    python benchmarks/bench_generate_checks.py [--box 5x5] [--seeds 1,2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from pysat.solvers import Solver

from puzzlebench.encoders.cnf import base_formula, encode
from puzzlebench.generators.dig import Counter
from puzzlebench.generators.sudoku import (COUNTER_SECONDS, SAT_ENCODING, SAT_SOLVER,
                                            completed_grid, generate_sudoku)
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.models.vocabulary import candidate
from puzzlebench.results import Status
from puzzlebench.harness.pages import load_now


def load() -> str:
    return load_now()


def replay(box: tuple[int, int], seed: int) -> dict:
    """Time the seed's dig (the prover as shipped), then ask its SAT checks both ways."""
    n = box[0] * box[1]
    started = time.process_time()
    puzzle = generate_sudoku(box, random.Random(f"sudoku:{seed}"), counter=Counter("sudoku"))
    dig_cpu = time.process_time() - started
    rng = random.Random(f"sudoku:{seed}")
    counter = Counter("sudoku")
    solution = completed_grid(box, rng, counter)
    assert Sudoku(box, solution).write() == puzzle.metadata["solution"], "the replay's grid is not the dig's"
    order = list(range(n * n))
    rng.shuffle(order)
    literal = [candidate(cell, v, n) + 1 for cell, v in enumerate(solution)]
    _, _, clauses = base_formula(Sudoku(box, [0] * n * n), "extended", "pairwise")
    incremental = Solver(name=SAT_SOLVER, bootstrap_with=clauses)
    givens = list(solution)
    times = {"fresh": [], "incremental": []}
    for cell in order:
        givens[cell] = 0
        needed = bool(puzzle.givens[cell])
        status = counter.solve(Sudoku(box, givens), time_limit=COUNTER_SECONDS).status
        if status is Status.TIMEOUT:
            started = time.process_time()
            with Solver(name=SAT_SOLVER, bootstrap_with=encode(Sudoku(box, givens), SAT_ENCODING).clauses) as fresh:
                fresh.add_clause([-literal[cell]])
                answer = fresh.solve()
            times["fresh"].append(time.process_time() - started)
            assert answer == needed, (seed, cell, "fresh")
            started = time.process_time()
            answer = incremental.solve(assumptions=[lit for lit, g in zip(literal, givens) if g] + [-literal[cell]])
            times["incremental"].append(time.process_time() - started)
            assert answer == needed, (seed, cell, "incremental")
        else:
            assert (status is Status.MULTIPLE) == needed, (seed, cell, "counter")
        if needed:
            givens[cell] = solution[cell]
            incremental.add_clause([literal[cell]])
    incremental.delete()
    return {"dig": dig_cpu, "clues": sum(1 for g in puzzle.givens if g), "times": times}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--box", default="5x5")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "results" / "generate_checks.md"))
    a = ap.parse_args()
    box = tuple(int(x) for x in a.box.split("x"))
    seeds = [int(s) for s in a.seeds.split(",")]
    before = load()
    rows = []
    for seed in seeds:
        r = replay(box, seed)
        fresh, inc = r["times"]["fresh"], r["times"]["incremental"]
        if not inc:   # the counter decided every check (16x16)
            rows.append(f"| {a.box} | {seed} | {r['dig']:.1f} | {r['clues']} | 0 | – | – | – | – | – | – |")
            continue
        top = sorted(range(len(inc)), key=lambda i: -inc[i])[:10]
        rows.append(f"| {a.box} | {seed} | {r['dig']:.1f} | {r['clues']} | {len(fresh)} | {sum(inc):.1f} | "
                    f"{sum(fresh):.1f} | {sum(inc) / sum(fresh):.2f} | {statistics.median(inc):.3f} | "
                    f"{statistics.median(fresh):.3f} | {sum(inc[i] for i in top) / sum(fresh[i] for i in top):.2f} |")
        print(rows[-1], flush=True)
    text = [
        "# The SAT question of the dig, asked two ways on the same checks",
        "",
        f"Command: `python benchmarks/bench_generate_checks.py --box {a.box} --seeds {a.seeds}`  ",
        f"Load before: `{before}`; load after: `{load()}`",
        "",
        "Each check the counter does not decide in its first turn, asked with no budget by a fresh "
        f"{SAT_SOLVER} on the check's `{SAT_ENCODING}` formula (encoding included) and by one incremental "
        f"{SAT_SOLVER} for the whole dig (the `extended` formula of the empty grid, the givens as "
        "assumptions, kept clues as units), one after the other; every answer checked against the dig's.  "
        "`dig` is the shipped generator's CPU time for the seed's minimal puzzle in the same run.  "
        "CPU seconds.",
        "",
        "| grid | seed | dig s | clues | SAT checks | incremental s | fresh s | ratio | median incremental | "
        "median fresh | ratio on the 10 costliest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
    ]
    Path(a.out).write_text("\n".join(text))


if __name__ == "__main__":
    main()
