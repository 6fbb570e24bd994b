"""Generation to a target rating (issue 19, item 3): time per puzzle found, by rating range;
writes results/generate_rating.md.

For each range, ``generate_rated_sudoku`` (minimal 9x9 puzzles, each rated by ``rate``'s
default score, kept when in range) runs until ``--count`` puzzles are found; the table gives the
candidates tried per puzzle found and the wall time per puzzle found.  The reference, measured
in the same run, is plain minimal generation (``generate("sudoku")``, no rating): its time per
puzzle; the ratio is rated time per puzzle found / plain time per puzzle.  The share of
candidates in each range is also the rating distribution of the generator's minimal puzzles.

    python benchmarks/bench_generate_rating.py [--count 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from puzzlebench.generators import generate
from puzzlebench.generators.sudoku import generate_rated_sudoku
from puzzlebench.harness.pages import load_now

RANGES = [(1.0, 2.0), (2.0, 4.0), (4.0, 6.0), (6.0, 8.0), (8.0, 12.0)]
TECHNIQUES = [("x-wing", 1.0, 12.0), ("forcing chain", 1.0, 12.0)]


def load() -> str:
    return load_now()


def measure(count: int, seed: int, low: float, high: float, technique: str | None = None):
    tried = [0]

    def on_attempt(kept: bool) -> None:
        tried[0] += 1
    start = time.perf_counter()
    found = list(generate_rated_sudoku(count, seed, low, high, technique=technique,
                                       attempts=1000 * count, on_attempt=on_attempt))
    return len(found), tried[0], time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "results" / "generate_rating.md"))
    a = ap.parse_args()
    before = load()
    measure(1, a.seed + 1, 1.0, 12.0)   # warm-up (imports, the model's weights), not timed
    start = time.perf_counter()
    plain = list(generate("sudoku", 5 * a.count, a.seed))
    plain_each = (time.perf_counter() - start) / len(plain)
    rows = []
    for low, high in RANGES:
        rows.append((f"{low:.1f}–{high:.1f}", *measure(a.count, a.seed, low, high)))
    for technique, low, high in TECHNIQUES:
        rows.append((f"any, using {technique}", *measure(a.count, a.seed, low, high, technique)))
    after = load()
    lines = ["# Generation to a target rating (issue 19, item 3)", "",
             f"Command: `python benchmarks/bench_generate_rating.py --count {a.count} --seed {a.seed}`  ",
             f"Load before: `{before}`  ", f"Load after: `{after}`", "",
             "Minimal 9x9 puzzles from the plain generator's stream, each rated by `rate`'s default score "
             "(SE's rule where SE's ladder solves it, the fitted model otherwise), kept when in range.  "
             f"Reference (same run): plain minimal generation, {1000 * plain_each:.1f} ms per puzzle "
             f"({len(plain)} puzzles, no rating).", "",
             "| target | found | tried | tried per found | ms per puzzle found | ratio to plain |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, found, tried, seconds in rows:
        each = seconds / found if found else float("nan")
        lines.append(f"| {name} | {found} | {tried} | {tried / max(found, 1):.1f} | {1000 * each:.0f} | "
                     f"{each / plain_each:.1f} |")
    lines += ["", "No steering: a candidate outside the range is dropped and a new grid drawn (a minimal "
              "puzzle cannot be dug further towards a harder rating; adding clues back towards an easier "
              "one would give up minimality)."]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
