"""Skyscrapers in ``mrv`` (issue 20, part 3): the visibility propagator
(``cells.VisibilitySupport``) against the search without it (``mrv@lines=false``: placed
towers checked against their clue), on Simon Tatham's 8x8 Towers puzzles, in the same run,
puzzle by puzzle (the two alternate, so the machine's load falls on both alike), with the
native engine (``bitboard``) beside as the speed reference.

    python benchmarks/bench_mrv_towers.py [--time-limit 20] [--out results/bitboard.md]

The set, ``results/generated/tatham_towers8_72.txt``: 72 game ids from Tatham's Towers
(Debian's sgt-puzzles 20230122), 18 a difficulty (easy, hard, extreme, unreasonable), each
from a fixed seed, so that the set is made again byte for byte:

    for d in e h x u; do for s in $(seq 1 18); do sgt-towers --generate 1 "8d$d#pb$s"; done; done

Every puzzle is unique (Towers' generator makes only those); every run is checked: unique and
verified, or out of time.  Times are the runner's CPU time over encode, search and decode
(``Result.times.cpu``: the machine is shared); a run out of time counts as the limit.  The
section replaces the "## Skyscrapers in mrv" section of the results file.
"""

from __future__ import annotations

import argparse
import statistics
from puzzlebench import api
from puzzlebench.harness.pages import command_line, load_now, splice_section
from puzzlebench.results import Status
from puzzlebench.engines.registry import make_engine

SECTION, SET = "## Skyscrapers in mrv", "results/generated/tatham_towers8_72.txt"
BEFORE, AFTER, NATIVE = "mrv@lines=false", "mrv", "bitboard"
LEVELS = {"e": "easy", "h": "hard", "x": "extreme", "u": "unreasonable"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--every", type=int, default=1, help="every k-th puzzle of each difficulty")
    ap.add_argument("--set", default=SET, help="the Towers ids, 18 a difficulty")
    ap.add_argument("--out", default="results/bitboard.md")
    args = ap.parse_args()
    load_before = load_now()
    ids = [line.strip() for line in open(args.set) if line.strip()]
    level = [LEVELS[d] for d in "ehxu" for _ in range(len(ids) // 4)][::args.every]
    puzzles = [api.parse(i) for i in ids[::args.every]]
    engines = {spec: make_engine(spec) for spec in (BEFORE, AFTER, NATIVE)}
    runs = {spec: [] for spec in engines}
    for k, p in enumerate(puzzles):
        for spec, engine in engines.items():
            r = engine.run(p, limit=2, time_limit=args.time_limit)
            assert r.status is Status.TIMEOUT or (r.status is Status.UNIQUE and r.verified), (spec, k, r.status)
            runs[spec].append(r)
        print(k, *(f"{spec} {runs[spec][-1].status} {runs[spec][-1].times.cpu:.3f}" for spec in engines), flush=True)

    def cpu(r):
        return r.times.cpu if r.status is Status.UNIQUE else args.time_limit

    rows = [f"`{command_line()}`: `{AFTER}` (each visibility clue narrows its line "
            f"to the heights some run of towers showing the clue uses, `cells.VisibilitySupport`) against "
            f"`{BEFORE}` (placed towers checked against the clue), with `{NATIVE}` as the speed "
            f"reference, alternating puzzle by puzzle, on {len(puzzles)} of Tatham's 8x8 Towers ids "
            f"(`results/generated/tatham_towers8_72.txt`, 18 a difficulty), limit 2, "
            f"{args.time_limit:g} s a run; CPU time a run (a run out of time counts as the limit). "
            f"Load before: `{load_before}`.", "",
            "| engine | solved and proven unique | median CPU ms | max CPU ms | total CPU s | median nodes | "
            + " | ".join(f"{name} solved, median ms" for name in LEVELS.values()) + " |",
            "|---|---:|---:|---:|---:|---:|" + "---:|" * len(LEVELS)]
    for spec, rs in runs.items():
        solved = [r.status is Status.UNIQUE for r in rs]
        per_level = []
        for name in LEVELS.values():
            mine = [r for r, lv in zip(rs, level) if lv == name]
            per_level.append(f"{sum(r.status is Status.UNIQUE for r in mine)}/{len(mine)}, "
                             f"{statistics.median(map(cpu, mine)) * 1000:,.1f}")
        rows.append(f"| `{spec}` | {sum(solved)}/{len(rs)} | {statistics.median(map(cpu, rs)) * 1000:,.1f} | "
                    f"{max(map(cpu, rs)) * 1000:,.1f} | {sum(map(cpu, rs)):.2f} | "
                    f"{statistics.median(r.stats.nodes for r in rs):g} | {' | '.join(per_level)} |")
    both = [(cpu(a), cpu(b)) for a, b in zip(runs[BEFORE], runs[AFTER])
            if a.status is Status.UNIQUE and b.status is Status.UNIQUE]
    ratios = sorted(a / b for a, b in both)
    for spec, rs in runs.items():
        out = sorted(r.times.cpu for r in rs if r.status is Status.TIMEOUT)
        if out:   # the limit is on the clock: under load a run out of time had less CPU than that
            rows += ["", f"`{spec}`'s {len(out)} runs out of time had {out[0]:.1f}-{out[-1]:.1f} s CPU "
                         f"(median {statistics.median(out):.1f}) within their {args.time_limit:g} s on the clock."]
    rows += ["", f"On the {len(both)} puzzles both mrv searches solve, `{BEFORE}` / `{AFTER}`: median "
                 f"{statistics.median(ratios):.1f}x, least {ratios[0]:.2f}x, most {ratios[-1]:.1f}x; "
                 f"`{AFTER}` / `{NATIVE}` CPU, median over the set: "
                 f"{statistics.median(cpu(a) / cpu(b) for a, b in zip(runs[AFTER], runs[NATIVE])):,.0f}x.",
             "", f"Load after: `{load_now()}`.", ""]
    print("\n".join(rows))
    splice_section(args.out, SECTION, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
