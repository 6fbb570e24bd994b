"""SE's ladder gives the same rating and the same steps as before (issue 19's speed work):
for every puzzle of bench_rating_hard.py's two samples (the hard sample, SE >= 6.0, and the
wide one: 388 puzzles of ../shared/data/sudoku9_sudokuexchange_by_rating_sample.txt), the
ladder's status, rating, hardest technique, number of steps and a digest of every step
(technique, placements, eliminations, rating, text) are written (``--write``) or compared
with a file written before (``--compare``, the default: benchmarks/rating_hard_steps.json,
written by commit fdfb409, the ladder before it was made faster).  No time limit: a timeout
would depend on the machine.  The CPU seconds of each puzzle are printed as a summary.

    python benchmarks/check_rating_unchanged.py [--compare FILE | --write FILE] [--every K]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzlebench.models.sudoku import parse_sudoku_line  # noqa: E402
from puzzlebench.rating.profile import se_ladder  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "sudoku9_sudokuexchange_by_rating_sample.txt"
EXPECTED = Path(__file__).resolve().parent / "rating_hard_steps.json"
FIELDS = ("status", "rating", "hardest", "steps", "digest")


def sample(lines: list, k: int) -> list:
    # bench_rating_hard.sample: every k-th line of the file (sorted by SE rating)
    step = max(1, len(lines) // k)
    return lines[::step][:k]


def puzzles(hard: int = 240, wide: int = 160) -> list[tuple[str, float, bool]]:
    """(puzzle, SE rating, in the hard sample): the hard sample first, then the rest of the wide one."""
    rows = [(ln.split()[0], float(ln.split()[1])) for ln in DATA.read_text().splitlines() if ln.strip()]
    hard_rows = sample([r for r in rows if r[1] >= 6.0], hard)
    seen: dict[str, tuple[float, bool]] = {}
    for p, se in hard_rows:
        seen.setdefault(p, (se, True))
    for p, se in sample(rows, wide):
        seen.setdefault(p, (se, False))
    return [(p, se, h) for p, (se, h) in seen.items()]


def digest(steps) -> str:
    h = hashlib.sha256()
    for s in steps:
        h.update(repr((s.technique, s.placements, s.eliminations, s.rating, s.text, s.depth)).encode())
    return h.hexdigest()[:16]


def record(puzzle: str, se: float, hard: bool) -> dict:
    p = parse_sudoku_line(puzzle)
    t0 = time.process_time()
    lad = se_ladder(p.box, p.givens, seconds=None)
    cpu = time.process_time() - t0
    return {"puzzle": puzzle, "se": se, "hard": hard, "status": lad.status, "rating": lad.rating,
            "hardest": lad.hardest, "steps": len(lad.steps), "digest": digest(lad.steps), "cpu": cpu}


def pct(q: float, xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q / 100 * len(xs)) - 1))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", type=Path, default=EXPECTED)
    ap.add_argument("--write", type=Path)
    ap.add_argument("--every", type=int, default=1, help="every k-th puzzle only")
    args = ap.parse_args()
    rows = [record(*row) for row in puzzles()[::args.every]]
    hard = [r["cpu"] * 1000 for r in rows if r["hard"]]
    print(f"{len(rows)} puzzles; CPU ms per puzzle of the hard sample (n={len(hard)}): median "
          f"{statistics.median(hard):.0f}, p90 {pct(90, hard):.0f}, p99 {pct(99, hard):.0f}, "
          f"max {max(hard):.0f}")
    if args.write:
        args.write.write_text(json.dumps([{k: r[k] for k in ("puzzle", "se") + FIELDS} for r in rows],
                                         indent=0) + "\n")
        return 0
    expected = {r["puzzle"]: r for r in json.loads(args.compare.read_text())}
    differ = [r for r in rows if any(r[k] != expected[r["puzzle"]][k] for k in FIELDS)]
    for r in differ:
        print("differs:", r["puzzle"], {k: (expected[r["puzzle"]][k], r[k]) for k in FIELDS})
    print(f"{len(rows) - len(differ)} of {len(rows)} puzzles: the same status, rating, hardest "
          f"technique and steps as in {args.compare.name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
