"""Run-time distributions at the hardness peak: per instance, the CPU time of 20+ seeded runs
of each paradigm, as ECDFs on log axes, to tell a heavy tail over seeds from an instance hard
for every seed (Gomes, Selman, Crato and Kautz, JAR 2000); and the targets at the peak.

    python benchmarks/bench_rtd.py [--seeds 20] [--time-limit 10]      # into results/rtd.jsonl
    python benchmarks/bench_rtd.py --targets --time-limit 30 --wall 90 [--sets 'QWH 30 36%']
    python benchmarks/bench_rtd.py --report      # results/rtd.md's tables and rtd.png from the runs

36x36 Sudoku with a share of the cells removed from a seeded full grid, QWH from
``qwh_instance``; counted to 2 on the CPU clock (``puzzlebench.solve``, a wall limit beside),
every engine and seed on an instance before the next; a line a run in results/rtd.jsonl and
results/peak.jsonl.  ``--report`` splices the sections "Distributions over seeds" and
"Targets" into the page (their notes are written by hand).  The 36x36 and QWH-40 sets at other
shares (the nogoods' and the peak's) were written by this script's ``--write`` in the tree at
8c9a24d.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from puzzlebench.generators.latin import qwh_instance
from puzzlebench.harness.pages import (append_rows, decided, decided_sgm, holed_sudokus, md_table, paired_figures,
                                       race, read_rows, run_row, seed_range, speedup_words, splice_section)
from puzzlebench.runtime.clock import default_wall_limit
from puzzlebench.runtime.limits import grace

CDCL = "sat:cadical195@encoding=optimized"
# Kissat on the encoding CaDiCaL takes too (the givens propagated away: loading the whole
# grid's 36x36 formula alone takes seconds)
REFERENCES = (CDCL, "sat:kissat404@encoding=optimized", "cpsat:int")
TARGET_SPECS = ("bitboard", *REFERENCES)
NATIVE = ("bitboard", "bitboard@cdcl=true")
FIXED = "bitboard@restarts=none;random=false;handover=0"   # the search before restarts: it takes no seed
SEARCHES = {FIXED: "the depth-first search in its fixed order, no restarts (one run: it takes no seed)",
            "bitboard@restarts=none;handover=0": "random tie-breaks in the cell and value choice, no restarts: "
                                                 "the distribution the run above is a draw from",
            "bitboard@handover=0": "Luby restarts, 100 dead ends the unit (the depth-first search's default)",
            "bitboard@restarts=geometric;handover=0": "restarts after 100 x 1.5^k dead ends",
            "bitboard": "the default: the depth-first search, then clause learning after 50 dead ends with "
                        "no solution",
            "bitboard@cdcl=true": "clause learning from the start"}
ENGINES = (*list(SEARCHES)[1:], CDCL, "cpsat:int")   # the seeded ones, drawn in the figure
TARGET_LIMIT = 30.0   # CPU seconds a run of the targets; shorter runs stay in peak.jsonl, unreported


def holed_36(share: float, count: int) -> list:
    return holed_sudokus((6, 6), share, count, 6000 + round(share * 100))


def instances() -> list[tuple[str, object]]:
    """The first two 36x36 at 46% holes (the hard region's edge) and the second and third QWH
    of order 40 at 40% (``random.Random(4040)``)."""
    at46, rng = holed_36(0.46, 2), random.Random(4040)
    qwh = [qwh_instance(40, 0.40, rng) for _ in range(3)]
    return [("36x36 46% #1", at46[0]), ("36x36 46% #2", at46[1]), ("QWH 40 40% #2", qwh[1]), ("QWH 40 40% #3", qwh[2])]


def target_sets(puzzles: int) -> dict[str, list]:
    """36x36 with 48, 50 and 55% removed, QWH of order 30 at 36% (results/qwh/'s peak by
    effort) and of order 40 at 34% (the hardest share of order 40, by a hair)."""
    out = {f"36x36 {share:.0%}": holed_36(share, puzzles) for share in (0.48, 0.50, 0.55)}
    for order, share in ((30, 0.36), (40, 0.34)):
        rng = random.Random(1000 * order + round(share * 100))
        out[f"QWH {order} {share:.0%}"] = [qwh_instance(order, share, rng) for _ in range(puzzles)]
    return out


def runs(named: list[tuple[str, object]], specs, seeds, time_limit: float, wall: float, **fields):
    """The row of every engine and seed on each puzzle of ``named`` ((its name as a field, its
    index, the puzzle)), with ``fields``, as it comes."""
    for name, k, puzzle in named:
        for _, seed, spec, r in race([puzzle], specs, seeds, once=(FIXED,), time_limit=time_limit, clock="cpu",
                                     wall_limit=wall):
            yield run_row(spec, seed, r, **name, puzzle=k, limit=time_limit, wall_limit=wall, **fields)


def shape(rows: list[dict]) -> str:
    """Heavy tail over seeds (the slowest seeds, or those that never decide, ten times the fastest
    or more), hard for every seed (none decides), or narrow."""
    done = sorted(r["cpu"] for r in rows if decided(r))
    stopped = [r["cpu"] for r in rows if not decided(r)]
    if not done:
        return "hard for every seed (none decides)"
    ratio = max(statistics.median(stopped) if stopped else 0, done[-1]) / max(done[0], 1e-3)
    if ratio >= 10:
        return f"heavy tail ({'> ' if stopped else ''}{ratio:,.0f}x)"
    return f"cut before its tail shows (> {ratio:.1f}x)" if stopped else f"narrow ({ratio:.1f}x)"


def rtd_lines(every: list[dict]) -> list[str]:
    rows = []
    for name in dict.fromkeys(r["instance"] for r in every):
        for spec in [FIXED, *ENGINES]:
            mine = [r for r in every if r["instance"] == name and r["spec"] == spec]
            done = sorted(r["cpu"] for r in mine if decided(r))
            stopped = [r["cpu"] for r in mine if not decided(r)]
            if mine:
                rows.append([name.replace("#", "no. "), f"`{spec}`", len(mine), f"{len(done)}/{len(mine)}",
                             f"{done[0]:.2f} / {statistics.median(done):.2f} / {done[-1]:.2f}" if done else "—",
                             f"{statistics.median(stopped):.2f}" if stopped else "—",
                             shape(mine) if len(mine) > 1 else "—"])
    return ["Each instance run by every engine and seed before the next instance, counted to 2, on the `cpu` "
            f"clock with {every[0]['limit']:g} s a run; CPU times are the runner's `times.cpu`.", "",
            *md_table(["engine", "search"], ([f"`{s}`", what] for s, what in SEARCHES.items()), "ll"), "",
            "![ECDFs of CPU time over seeds, per instance and engine](rtd.png)", "",
            *md_table(["instance", "engine", "runs", "decided", "CPU s of the decided: least / median / most",
                       "runs out of time stopped at (median CPU s)", "shape"], rows, "llrrlrl")]


def cells(rows: list[dict], limit: float) -> str:
    done, mean = decided_sgm(rows, limit)
    return f"{done}/{len(rows)}, {mean:.2f}"


def target_table(runs: list[dict]) -> list[str]:
    limit, walls = runs[0]["limit"], sorted({r["wall_limit"] for r in runs})
    allowance = f"{walls[0]:g} s" if len(walls) == 1 else f"{walls[0]:g} to {walls[-1]:g} s as the load rose"
    rows = []
    for name in sorted(dict.fromkeys(r["set"] for r in runs)):   # 36x36 by share, then QWH by order
        # the puzzles every engine has run: a set stopped part way is reported over those
        on = [r for r in runs if r["set"] == name]
        done = set.intersection(*({r["puzzle"] for r in on if r["spec"] == spec} for spec in TARGET_SPECS))
        if not done:
            continue
        summary = {spec: decided_sgm([r for r in on if r["puzzle"] in done and r["spec"] == spec], limit)
                   for spec in TARGET_SPECS}
        best, fastest = max(summary[s][0] for s in REFERENCES), min(summary[s][1] for s in REFERENCES)
        ours = summary["bitboard"]
        verdict = ("tie: no engine decides one" if best == ours[0] == 0
                   else "**met**" if ours[0] >= best and ours[1] <= fastest else "**not met**")
        rows.append([name, len(done), *(f"{summary[s][0]}/{len(done)} | {summary[s][1]:.2f}" for s in TARGET_SPECS),
                     verdict])
    lines = [f"`python benchmarks/bench_rtd.py --targets --time-limit {limit:g} --wall W --sets SET`: seed 0, counted "
             f"to 2, {limit:g} s CPU a run, every engine on a puzzle before the next. Every engine runs in a child "
             f"process killed when its CPU time passes the limit plus a grace ({grace(limit):.1f} s) or its wall "
             f"time W plus a grace (W: {allowance}), and a run over {limit:g} s of CPU counts as out of time: so "
             "that on this shared machine the CPU limit, not the wall time, decides. Shifted geometric mean "
             "(shift 1 s) of CPU time, a run out of time counted at the limit. Load average at the runs "
             f"{min(r['load'] for r in runs):.1f}-{max(r['load'] for r in runs):.1f}.", "",
             *md_table(["set", "puzzles", *(f"`{s}` decided | SGM s" for s in TARGET_SPECS), "target"], rows,
                       "lr" + "rr" * len(TARGET_SPECS) + "l")]
    out = [r["cpu"] for r in runs if not decided(r)]
    if out:
        short = sum(x < 0.95 * limit for x in out)
        lines += ["", f"CPU spent by the runs out of time: median {statistics.median(out):.2f} s, least "
                      f"{min(out):.2f} s; {short} of {len(out)} below 95% of the limit "
                      f"({'the wall time ran out first' if short else 'the CPU limit decided every one'})."]
    return lines + [""]


def variant_table(runs: list[dict]) -> list[str]:
    """Other settings of the native engine (``--engines``), beside the default and the references
    on the same puzzles of the same set."""
    rows = []
    for spec in dict.fromkeys(r["spec"] for r in runs if r["spec"] not in TARGET_SPECS):
        for name in sorted({r["set"] for r in runs if r["spec"] == spec}):
            mine = [r for r in runs if r["spec"] == spec and r["set"] == name]
            same = {r["puzzle"] for r in mine}
            rows.append([name, f"`{spec}`", cells(mine, mine[0]["limit"]),
                         *(cells([r for r in runs if r["spec"] == other and r["set"] == name and r["puzzle"] in same],
                                 mine[0]["limit"]) for other in TARGET_SPECS)])
    return ["Other settings of the native engine, the same puzzles and limits (decided, SGM s):", "",
            *md_table(["set", "setting", "it", *(f"`{s}`" for s in TARGET_SPECS)], rows, "ll" + "r" * 5), ""] \
        if rows else []


def seeded_table(runs: list[dict]) -> list[str]:
    """The sets run with more seeds than 0 (``--seeds``): each native setting against each
    reference that takes a seed, over the runs both made (a puzzle and a seed a pair): decided,
    the runs only one of the two decided with the exact McNemar test's p, the shifted geometric
    means and the 95% bootstrap interval of their ratio (``harness.uncertainty``)."""
    seeded = sorted({r["set"] for r in runs if r["seed"] > 0})
    if not seeded:
        return []
    seeds = sorted({r["seed"] for r in runs if r["seed"] > 0})
    puzzles = len({r["puzzle"] for r in runs if r["set"] in seeded})
    rows = []
    for name in seeded:
        by = {(r["spec"], r["puzzle"], r["seed"]): r for r in runs if r["set"] == name}
        for mine, theirs in ((m, t) for m in NATIVE for t in REFERENCES):
            pairs = [(by[key], by[(theirs, *key[1:])]) for key in sorted(by)
                     if key[0] == mine and (theirs, *key[1:]) in by]
            if len({a["seed"] for a, _ in pairs}) < 2:
                continue   # a reference that takes no seed ran at seed 0 only
            f = paired_figures(*zip(*pairs), TARGET_LIMIT)
            rows.append([name, f"`{mine}`", f"`{theirs}`", f["runs"], *f["decided"],
                         f"{f['only'][0]} / {f['only'][1]} ({f['p_decided']:.2f})", *(f"{t:.2f}" for t in f["sgm"]),
                         speedup_words(f)])
    named = ", ".join(map(str, seeds[:-1])) + " and " * (len(seeds) > 1) + str(seeds[-1])
    return [f"How far the seeds move it: the sets run again with engine seeds {named} "
            f"(`--seeds {seeds[0]}-{seeds[-1]}`), each run a draw of the engine's random choices on the same "
            f"{puzzles} puzzles (an engine that takes no seed, Kissat, is left out). A pair is a puzzle and a "
            f"seed; the interval resamples the pairs, so it shows how the runs vary on these {puzzles} puzzles, "
            "not how others would.", "",
            *md_table(["set", "native", "reference", "runs", "native decided", "reference decided",
                       "only native / only reference (McNemar p)", "SGM s native", "SGM s reference",
                       "reference / native [95%]"], rows, "lllrrrlrrl"), ""]


def report(folder: Path, out: Path) -> None:
    """The page's generated sections, spliced in, and the figure beside the page."""
    every = list({(r["instance"], r["spec"], r["seed"]): r for r in read_rows(folder / "rtd.jsonl")}.values())
    splice_section(out, "## Distributions over seeds", rtd_lines(every))
    targets = list({(r["set"], r["puzzle"], r["spec"], r["limit"], r["seed"]): r
                    for r in read_rows(folder / "peak.jsonl")}.values())
    at_limit = [r for r in targets if r["limit"] == TARGET_LIMIT]
    if at_limit:
        first = [r for r in at_limit if r["seed"] == 0]
        splice_section(out, "## Targets", target_table([r for r in first if r["spec"] in TARGET_SPECS])
                       + variant_table(first) + seeded_table(at_limit))
    plot(every, out.with_suffix(""))


def plot(every: list[dict], stem: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(dict.fromkeys(r["instance"] for r in every))
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.8), sharey=True, squeeze=False)
    for ax, name in zip(axes[0], names):
        for spec in ENGINES:
            rows = [r for r in every if r["instance"] == name and r["spec"] == spec]
            xs = sorted(r["cpu"] for r in rows if decided(r))
            if rows:
                ax.step([1e-3, *xs], [k / len(rows) for k in range(len(xs) + 1)], where="post", label=spec)
        fixed = [r for r in every if r["instance"] == name and r["spec"] == FIXED and decided(r)]
        if fixed:
            ax.axvline(fixed[0]["cpu"], color="grey", linestyle=":", label=f"{FIXED} (one run)")
        ax.set(xscale="log", xlim=(1e-2, every[0]["limit"]), xlabel="CPU s (log)")
        ax.set_title(name, fontsize=9)
    axes[0][0].set_ylabel("share of seeds decided")
    axes[0][-1].legend(fontsize=6, loc="upper left")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(f"{stem}.{ext}", dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, help="engine seeds: a count from 0 (default 20; --targets: 1) "
                    "or a range 'a-b'")
    ap.add_argument("--time-limit", type=float, default=10.0, help="CPU seconds a run")
    ap.add_argument("--wall", type=float, help="wall seconds a run (default 1.5 x the limit + 1)")
    ap.add_argument("--report", action="store_true", help="write results/rtd.md and the plot from the runs")
    ap.add_argument("--targets", action="store_true", help="the targets into results/peak.jsonl")
    ap.add_argument("--sets", help="--targets: only these sets, comma-separated (e.g. '36x36 55%%,QWH 40 34%%')")
    ap.add_argument("--engines", help=f"the engines (default: every one the report shows; --targets: "
                    f"{', '.join(TARGET_SPECS)}; another bitboard setting is reported beside the default)")
    ap.add_argument("--puzzles", type=int, default=6, help="--targets: puzzles a set")
    ap.add_argument("--out", type=Path, default=Path("results/rtd.md"), help="--report: the page")
    ap.add_argument("--runs", type=Path, default=Path("results"), help="the folder of rtd.jsonl and peak.jsonl")
    args = ap.parse_args()
    known = list(target_sets(0))
    chosen = args.sets.split(",") if args.sets else known
    if set(chosen) - set(known):
        ap.error(f"--sets: no set {sorted(set(chosen) - set(known))[0]!r}; the sets: {', '.join(known)}")
    wall = args.wall or default_wall_limit(args.time_limit)
    engines = tuple(args.engines.split(",")) if args.engines else None
    if args.report:
        report(args.runs, args.out)
    elif args.targets:
        named = [({"set": name}, k, p) for name, made in target_sets(args.puzzles).items() if name in chosen
                 for k, p in enumerate(made)]
        append_rows(args.runs / "peak.jsonl",
                    runs(named, engines or TARGET_SPECS, args.seeds or range(1), args.time_limit, wall))
    else:
        named = [({"instance": name}, 0, p) for name, p in instances()]
        append_rows(args.runs / "rtd.jsonl",
                    runs(named, engines or [FIXED, *ENGINES], args.seeds or range(20), args.time_limit, wall))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
