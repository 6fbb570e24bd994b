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

Every puzzle is unique (Towers' generator makes only those); every answer is verified.  Times are the runner's CPU time over encode, search and decode
(``Result.times.cpu``: the machine is shared); a run out of time counts as the limit.  The
section replaces the "## Skyscrapers in mrv" section of the results file.
"""

from __future__ import annotations

import argparse
import statistics

from puzzlebench import api
from puzzlebench.harness.pages import command_line, load_now, md_table, race_results, splice_section
from puzzlebench.results import Status

BEFORE, AFTER, NATIVE = "mrv@lines=false", "mrv", "bitboard"
LEVELS = ("easy", "hard", "extreme", "unreasonable")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--every", type=int, default=1, help="every k-th puzzle of each difficulty")
    ap.add_argument("--set", default="results/generated/tatham_towers8_72.txt", help="the Towers ids, 18 a difficulty")
    ap.add_argument("--out", default="results/bitboard.md")
    args = ap.parse_args()
    before, limit = load_now(), args.time_limit
    ids = [line.strip() for line in open(args.set) if line.strip()]
    level = [name for name in LEVELS for _ in range(len(ids) // 4)][::args.every]
    runs = race_results([api.parse(i) for i in ids[::args.every]], (BEFORE, AFTER, NATIVE), time_limit=limit)

    def cpu(r):
        return r.times.cpu if r.status is Status.UNIQUE else limit

    def solved(rs):
        return f"{sum(r.status is Status.UNIQUE for r in rs)}/{len(rs)}"

    rows = [[f"`{spec}`", solved(rs), f"{statistics.median(map(cpu, rs)) * 1000:,.1f}", f"{max(map(cpu, rs)) * 1000:,.1f}",
             f"{sum(map(cpu, rs)):.2f}", f"{statistics.median(r.stats.nodes for r in rs):g}",
             *(f"{solved(mine)}, {statistics.median(map(cpu, mine)) * 1000:,.1f}"
               for mine in ([r for r, lv in zip(rs, level) if lv == name] for name in LEVELS))]
            for spec, rs in runs.items()]
    lines = [f"`{command_line()}`: `{AFTER}` (each visibility clue narrows its line to the heights some run of towers "
             f"showing the clue uses, `cells.VisibilitySupport`) against `{BEFORE}` (placed towers checked against "
             f"the clue), with `{NATIVE}` as the speed reference, alternating puzzle by puzzle, on {len(level)} of "
             f"Tatham's 8x8 Towers ids (`results/generated/tatham_towers8_72.txt`, 18 a difficulty), limit 2, "
             f"{limit:g} s a run; CPU time a run (a run out of time counts as the limit). Load before: `{before}`.", "",
             *md_table(["engine", "solved and proven unique", "median CPU ms", "max CPU ms", "total CPU s",
                        "median nodes", *(f"{name} solved, median ms" for name in LEVELS)], rows)]
    for spec, rs in runs.items():
        out = sorted(r.times.cpu for r in rs if r.status is Status.TIMEOUT)
        if out:   # the limit is on the clock: under load a run out of time had less CPU than that
            lines += ["", f"`{spec}`'s {len(out)} runs out of time had {out[0]:.1f}-{out[-1]:.1f} s CPU "
                          f"(median {statistics.median(out):.1f}) within their {limit:g} s on the clock."]
    ratios = sorted(cpu(a) / cpu(b) for a, b in zip(runs[BEFORE], runs[AFTER])
                    if a.status is Status.UNIQUE and b.status is Status.UNIQUE)
    lines += ["", f"On the {len(ratios)} puzzles both mrv searches solve, `{BEFORE}` / `{AFTER}`: median "
                  f"{statistics.median(ratios):.1f}x, least {ratios[0]:.2f}x, most {ratios[-1]:.1f}x; `{AFTER}` / "
                  f"`{NATIVE}` CPU, median over the set: "
                  f"{statistics.median(cpu(a) / cpu(b) for a, b in zip(runs[AFTER], runs[NATIVE])):,.0f}x.",
              "", f"Load after: `{load_now()}`.", ""]
    splice_section(args.out, "## Skyscrapers in mrv", lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
