"""Run-time distributions at the hardness peak: per instance, the CPU time of 20+ seeded runs
of each paradigm, as ECDFs on log axes, to tell a heavy tail over seeds from an instance hard
for every seed (Gomes, Selman, Crato and Kautz, JAR 2000); and the targets at the peak.

    python benchmarks/bench_rtd.py [--family sudoku36,qwh40] [--seeds 20] [--time-limit 10]
    python benchmarks/bench_rtd.py --targets --time-limit 30 --wall 90 [--sets 'QWH 30 36%']
    python benchmarks/bench_rtd.py --report      # results/rtd.md's tables and rtd.png from the runs
    python benchmarks/bench_rtd.py --nogoods [--share 0.5] [--puzzles 6] [--time-limit 30]
    python benchmarks/bench_rtd.py --peak 40 [--shares 0.32,0.34] [--puzzles 4] [--time-limit 5]

36x36 Sudoku with a share of the cells removed from a seeded full grid, QWH from
``qwh_instance``; counted to 2 on the CPU clock through ``run_limited`` (in a child killed at
the CPU or wall limit where the engine cannot hold it), every engine and seed on an instance
before the next; a line a run in results/rtd.jsonl and results/peak.jsonl.  ``--report``
splices the sections "Distributions over seeds" and "Targets" into the page; their notes
and the rest of the page are written by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.latin import qwh_instance
from puzzlebench.harness.pages import holed_sudokus, load_now, splice_section
from puzzlebench.harness.report import shifted_geometric_mean
from puzzlebench.harness.uncertainty import ratio_interval, solved_test
from puzzlebench.results import Status
from puzzlebench.runtime.child import run_limited
from puzzlebench.runtime.clock import default_wall_limit
from puzzlebench.runtime.limits import grace

RUNS, TARGET_RUNS = Path("results/rtd.jsonl"), Path("results/peak.jsonl")
CDCL = "sat:cadical195@encoding=optimized"
# the references; Kissat on the encoding CaDiCaL takes too (the givens propagated away: on the
# whole grid's formula, loading a 36x36 alone takes seconds, bench_large.py)
REFERENCES = (CDCL, "sat:kissat404@encoding=optimized", "cpsat:int")
# the depth-first search alone (handover=0: it never hands the puzzle to clause learning)
BEFORE = "bitboard@restarts=none;handover=0"   # random tie-breaks, no restarts: the tail before
# clause learning: the default (the depth-first search, then learning after 2,000 dead ends) and
# learning from the start: the tail after learning
LEARNING = ("bitboard", "bitboard@cdcl=true")
ENGINES = (BEFORE, "bitboard@handover=0", "bitboard@restarts=geometric;handover=0", *LEARNING, CDCL, "cpsat:int")
FIXED = "bitboard@restarts=none;random=false;handover=0"   # the search before restarts: one run an instance
SEARCHES = {FIXED: "the depth-first search in its fixed order, no restarts (one run: it takes no seed)",
            BEFORE: "random tie-breaks in the cell and value choice, no restarts: the distribution the run "
                    "above is a draw from",
            "bitboard@handover=0": "Luby restarts, 100 dead ends the unit (the depth-first search's default)",
            "bitboard@restarts=geometric;handover=0": "restarts after 100 x 1.5^k dead ends",
            "bitboard": "the default: the depth-first search, then clause learning after 2,000 dead ends with "
                        "no solution",
            "bitboard@cdcl=true": "clause learning from the start"}
TARGET_LIMIT = 30.0   # CPU seconds a run of the targets; shorter runs stay in peak.jsonl, unreported


def holed_36(share: float, count: int) -> list:
    return holed_sudokus((6, 6), share, count, 6000 + round(share * 100))


def instances(family: str) -> list[tuple[str, object]]:
    """(name, puzzle) of a family: the first two 36x36 at 46% holes (the hard region's edge,
    where some runs finish: results/bitboard.md), or the second and third QWH of order 40 at
    40% (``random.Random(4040)``; order 30's peak, 34-38% in results/qwh.md, takes this engine
    well under a second)."""
    if family == "sudoku36":
        at46 = holed_36(0.46, 3)
        return [("36x36 46% #1", at46[0]), ("36x36 46% #2", at46[1])]
    rng = random.Random(4040)
    made = [qwh_instance(40, 0.40, rng) for _ in range(3)]
    return [("QWH 40 40% #2", made[1]), ("QWH 40 40% #3", made[2])]


def target_sets(puzzles: int) -> list[tuple[str, list]]:
    """The issue's sets: 36x36 with 48, 50 and 55% removed (``holed_puzzles``'s seeds, the first
    three its puzzles), QWH of order 30 at 36% (results/qwh.md's peak by effort) and of order 40
    at 34% (``--peak 40``: 0.32 and 0.34 the hardest shares for both engines, 0.34 by a hair)."""
    out = []
    for share in (0.48, 0.50, 0.55):
        out.append((f"36x36 {share:.0%}", holed_36(share, puzzles)))
    for order, share in ((30, 0.36), (40, 0.34)):
        rng = random.Random(1000 * order + round(share * 100))
        out.append((f"QWH {order} {share:.0%}", [qwh_instance(order, share, rng) for _ in range(puzzles)]))
    return out


TARGET_SPECS = ("bitboard", *REFERENCES)


def targets(puzzles: int, time_limit: float, wall: float, sets: list[str] | None,
            specs: tuple[str, ...] = TARGET_SPECS, resume: bool = False, seeds: range = range(1)) -> None:
    """Every engine and seed on a puzzle before the next puzzle, appended to TARGET_RUNS (an
    engine that takes no seed only at seed 0: its other runs would repeat that one); with
    ``resume``, not the runs it holds at this limit already, but again those its wall time cut."""
    done = {run_key(r) + (r["seed"],) for r in read_targets()
            if r["limit"] == time_limit and not cut_by_wall(r)} if resume else set()
    seeded = {spec for spec in specs if make_engine(spec).takes_seed()}
    with open(TARGET_RUNS, "a") as out:
        for name, made in target_sets(puzzles):
            if sets and name not in sets:
                continue
            for k, puzzle in enumerate(made):
                for seed, spec in ((seed, spec) for seed in seeds for spec in specs):
                    if (name, k, spec, seed) in done or (seed and spec not in seeded):
                        continue
                    row = one_run(spec, seed, puzzle, time_limit, wall)
                    out.write(json.dumps({"set": name, "puzzle": k, "limit": time_limit, "wall_limit": wall,
                                          "load": float(load_now().split()[0]), **row}) + "\n")
                    out.flush()
            print(name, "done", flush=True)


NOGOOD_SPECS = ("bitboard@nogoods=true;handover=0", "bitboard@nogoods=false;handover=0", CDCL)


def nogoods(share: float, puzzles: int, time_limit: float, wall: float, seeds: range) -> None:
    """Nogoods recorded at restarts on and off, and CaDiCaL, on 36x36 Sudoku with ``share`` of
    the cells removed, every engine and seed on a puzzle before the next: a table of decided
    runs and the shifted geometric mean of CPU time (a run out of time counted at the limit)."""
    rows = []
    for k, puzzle in enumerate(holed_36(share, puzzles)):
        for seed in seeds:
            for spec in NOGOOD_SPECS:
                row = one_run(spec, seed, puzzle, time_limit, wall)
                rows.append(row)
                print(k, seed, spec, row["status"], f"{row['cpu']:.2f}", row.get("nogoods"), flush=True)
    print("\n| engine | decided | SGM CPU s | CPU s a run |\n|---|---:|---:|---|")
    for spec in NOGOOD_SPECS:
        mine = [r for r in rows if r["spec"] == spec]
        cpu = [r["cpu"] if r["status"] != "timeout" else time_limit for r in mine]
        decided = sum(r["status"] != "timeout" for r in mine)
        print(f"| `{spec}` | {decided}/{len(mine)} | {sgm(cpu):.2f} | {' '.join(f'{x:.1f}' for x in cpu)} |")


PEAK_SHARES = (0.34, 0.36, 0.38, 0.40, 0.42)
PEAK_SPECS = ("bitboard@handover=0", CDCL)


def peak(order: int, shares: list[float], puzzles: int, time_limit: float, wall: float) -> None:
    """Where QWH of ``order`` is hardest for the native engine and CaDiCaL: ``puzzles`` instances
    a share of holes (their own seeds, not the targets'), every engine on one before the next; a
    table of decided runs and the shifted geometric mean of CPU time (out of time at the limit)."""
    print("\n| share | " + " | ".join(f"`{s}` decided | SGM s" for s in PEAK_SPECS) + " |")
    print("|---:|" + "---:|---:|" * len(PEAK_SPECS))
    for share in shares:
        rng = random.Random(7 * 1000 * order + round(share * 100))
        rows = [one_run(spec, 0, qwh_instance(order, share, rng), time_limit, wall)
                for _ in range(puzzles) for spec in PEAK_SPECS]
        cells = []
        for spec in PEAK_SPECS:
            mine = [r for r in rows if r["spec"] == spec]
            cpu = [min(seconds(r), time_limit) for r in mine]
            cells += [f"{sum(r['status'] != 'timeout' for r in mine)}/{len(mine)}", f"{sgm(cpu):.2f}"]
        print(f"| {share:.2f} | {' | '.join(cells)} |", flush=True)


def one_run(spec: str, seed: int, puzzle, time_limit: float, wall: float | None = None) -> dict:
    """One run on the CPU clock through ``run_limited``: in a child killed when its CPU time
    passes the limit (plus the grace) or its wall time passes ``wall`` where the engine cannot
    hold the limit itself, so that on a loaded machine the CPU limit decides for every engine."""
    engine = make_engine(spec)
    if engine.takes_seed():
        engine.seeded(seed)
    r = run_limited(engine, [puzzle], limit=2, time_limit=time_limit, keep=2, clock="cpu", wall_limit=wall)[0]
    decided = r.status in (Status.UNIQUE, Status.MULTIPLE)
    assert r.status is Status.TIMEOUT or (decided and r.verified), (spec, seed, r.status, r.error)
    return {"spec": spec, "seed": seed, "status": r.status.value, "cpu": r.times.cpu, "wall": r.times.total,
            "nodes": r.stats.nodes, "restarts": r.stats.raw.get("restarts"), "nogoods": r.stats.raw.get("nogoods")}


def sweep(families: list[str], seeds: int, time_limit: float, specs: tuple[str, ...] = (FIXED, *ENGINES)) -> None:
    """Each instance run by every engine and seed before the next instance (FIXED once: it takes no
    seed), appended to RUNS."""
    with open(RUNS, "a") as out:
        for family in families:
            for name, puzzle in instances(family):
                rows = [one_run(FIXED, 0, puzzle, time_limit)] if FIXED in specs else []
                for seed in range(seeds):
                    rows += [one_run(spec, seed, puzzle, time_limit) for spec in specs if spec != FIXED]
                for row in rows:
                    out.write(json.dumps({"instance": name, "limit": time_limit, "load": float(load_now().split()[0]),
                                          "at": time.strftime("%H:%M:%S", time.gmtime()), **row}) + "\n")
                out.flush()
                print(name, "done", flush=True)


def latest(path: Path, key) -> list[dict]:
    """The runs of a JSON-lines file, the latest of each ``key(row)`` (a run again replaces one)."""
    with open(path) as f:
        return list({key(row): row for row in map(json.loads, f)}.values())


def read_targets() -> list[dict]:
    """The target runs, the latest of each engine and seed on each puzzle at each limit."""
    return latest(TARGET_RUNS, lambda row: run_key(row) + (row["limit"], row["seed"])) if TARGET_RUNS.exists() else []


def run_key(row: dict) -> tuple:
    return row["set"], row["puzzle"], row["spec"]


def cut_by_wall(row: dict) -> bool:
    """Out of time before the CPU limit: its wall time ran out first (a loaded machine)."""
    return row["status"] == "timeout" and row["cpu"] < row["limit"]


INF = float("inf")


def seconds(row: dict) -> float:
    """CPU seconds to decide, a run out of time never (infinite)."""
    return row["cpu"] if row["status"] != "timeout" else INF


def shape(rows: list[dict]) -> str:
    """Heavy tail over seeds (the slowest seeds, or those that never decide, ten times the fastest
    or more), hard for every seed (none decides), or narrow."""
    done = sorted(r["cpu"] for r in rows if r["status"] != "timeout")
    stopped = [r["cpu"] for r in rows if r["status"] == "timeout"]
    if not done:
        return "hard for every seed (none decides)"
    slowest = max(statistics.median(stopped), done[-1]) if stopped else done[-1]
    ratio = slowest / max(done[0], 1e-3)
    if ratio >= 10:
        return f"heavy tail ({'> ' if stopped else ''}{ratio:,.0f}x)"
    return f"cut before its tail shows (> {ratio:.1f}x)" if stopped else f"narrow ({ratio:.1f}x)"


def cpu_range(rows: list[dict]) -> str:
    done = sorted(r["cpu"] for r in rows if r["status"] != "timeout")
    return f"{done[0]:.2f} / {statistics.median(done):.2f} / {done[-1]:.2f}" if done else "—"


def rtd_lines(runs: list[dict]) -> list[str]:
    names = list(dict.fromkeys(r["instance"] for r in runs))
    lines = ["Each instance run by every engine and seed before the next instance, counted to 2, on the `cpu` "
             f"clock with {runs[0]['limit']:g} s a run; CPU times are the runner's `times.cpu`.", "",
             "| engine | search |", "|---|---|", *(f"| `{spec}` | {what} |" for spec, what in SEARCHES.items()), "",
             "![ECDFs of CPU time over seeds, per instance and engine](rtd.png)", "",
             "| instance | engine | runs | decided | CPU s of the decided: least / median / most | "
             "runs out of time stopped at (median CPU s) | shape |", "|---|---|---:|---:|---|---:|---|"]
    for name in names:
        on = [r for r in runs if r["instance"] == name]
        for spec in [FIXED, *ENGINES]:
            rows = [r for r in on if r["spec"] == spec]
            if not rows:
                continue
            stopped = [r["cpu"] for r in rows if r["status"] == "timeout"]
            lines.append(f"| {name.replace('#', 'no. ')} | `{spec}` | {len(rows)} | {len(rows) - len(stopped)}/{len(rows)} | "
                         f"{cpu_range(rows)} | {f'{statistics.median(stopped):.2f}' if stopped else '—'} | "
                         f"{shape(rows) if len(rows) > 1 else '—'} |")
    return lines


def sgm(xs: list[float]) -> float:
    """The shifted geometric mean with a shift of 1 s, as ``report`` computes it."""
    return shifted_geometric_mean(xs, 1.0)


def target_lines(every: list[dict]) -> list[str]:
    """The targets at 30 s CPU a run: per set, decided and the shifted geometric mean of CPU
    time (a run out of time counted at the limit), the native engine against the best reference."""
    runs = [r for r in every if r["limit"] == TARGET_LIMIT]
    first = [r for r in runs if r["seed"] == 0]
    return target_table([r for r in first if r["spec"] in TARGET_SPECS]) + variant_table(first) + seeded_table(runs)


def decided_sgm(rows: list[dict], limit: float) -> str:
    """'decided/runs, SGM s' of some runs, a run out of time at the limit."""
    done = sum(r["status"] != "timeout" for r in rows)
    return f"{done}/{len(rows)}, {sgm([min(seconds(r), limit) for r in rows]):.2f}"


def variant_table(runs: list[dict]) -> list[str]:
    """Other settings of the native engine (``--engines``), beside the default and the references
    on the same puzzles of the same set."""
    variants = list(dict.fromkeys(r["spec"] for r in runs if r["spec"] not in TARGET_SPECS))
    if not variants:
        return []
    lines = ["Other settings of the native engine, the same puzzles and limits (decided, SGM s):", "",
             "| set | setting | it | " + " | ".join(f"`{spec}`" for spec in TARGET_SPECS) + " |",
             "|---|---|---:|" + "---:|" * len(TARGET_SPECS)]
    for spec in variants:
        for name in sorted(dict.fromkeys(r["set"] for r in runs if r["spec"] == spec)):
            mine = [r for r in runs if r["spec"] == spec and r["set"] == name]
            same = {r["puzzle"] for r in mine}
            beside = [[r for r in runs if r["spec"] == other and r["set"] == name and r["puzzle"] in same]
                      for other in TARGET_SPECS]
            limit = mine[0]["limit"]
            lines.append(f"| {name} | `{spec}` | {decided_sgm(mine, limit)} | "
                         + " | ".join(decided_sgm(rows, limit) for rows in beside) + " |")
    return lines + [""]


NATIVE = ("bitboard", "bitboard@cdcl=true")


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
    named = ", ".join(map(str, seeds[:-1])) + " and " * (len(seeds) > 1) + str(seeds[-1])
    lines = [f"How far the seeds move it: the sets run again with engine seeds {named} "
             f"(`--seeds {seeds[0]}-{seeds[-1]}`), each run a draw of the engine's random choices on the same "
             f"{puzzles} puzzles (an engine that takes no seed, Kissat, is left out). A pair is a puzzle and a "
             f"seed; the interval resamples the pairs, so it shows how the runs vary on these {puzzles} puzzles, "
             "not how others would.", "",
             "| set | native | reference | runs | native decided | reference decided | only native / only "
             "reference (McNemar p) | SGM s native | SGM s reference | reference / native [95%] |",
             "|---|---|---|---:|---:|---:|---|---:|---:|---|"]
    for name in seeded:
        on = [r for r in runs if r["set"] == name]
        by = {(r["spec"], r["puzzle"], r["seed"]): r for r in on}
        for mine, theirs in ((m, t) for m in NATIVE for t in REFERENCES):
            pairs = [(by[(mine, k, seed)], by[(theirs, k, seed)]) for (spec, k, seed) in sorted(by)
                     if spec == mine and (theirs, k, seed) in by]
            if len({a["seed"] for a, _ in pairs}) < 2:
                continue   # a reference that takes no seed ran at seed 0 only
            ours = [a["status"] != "timeout" for a, _ in pairs]
            ref = [b["status"] != "timeout" for _, b in pairs]
            gained = sum(a and not b for a, b in zip(ours, ref))
            lost = sum(b and not a for a, b in zip(ours, ref))
            times = [[min(seconds(r), TARGET_LIMIT) for r in side] for side in zip(*pairs)]
            interval = ratio_interval(times[1], times[0], 1.0)
            shown = f"{sgm(times[1]) / sgm(times[0]):.2f}" + (
                f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "")
            lines.append(f"| {name} | `{mine}` | `{theirs}` | {len(pairs)} | {sum(ours)} | {sum(ref)} | "
                         f"{gained} / {lost} ({solved_test(gained, lost):.2f}) | {sgm(times[0]):.2f} | "
                         f"{sgm(times[1]):.2f} | {shown} |")
    return lines + [""]


def target_table(runs: list[dict]) -> list[str]:
    limit = runs[0]["limit"]
    walls = sorted({r["wall_limit"] for r in runs})
    allowance = f"{walls[0]:g} s" if len(walls) == 1 else f"{walls[0]:g} to {walls[-1]:g} s as the load rose"
    lines = [f"`python benchmarks/bench_rtd.py --targets --time-limit {limit:g} --wall W --sets SET`: seed 0, counted "
             f"to 2, {limit:g} s CPU a run, every engine on a puzzle before the next. Every engine runs in a child "
             f"process killed when its CPU time passes the limit plus a grace ({grace(limit):.1f} s) or its wall "
             f"time W plus a grace (W: {allowance}), and a run over {limit:g} s of CPU counts as out of time: so "
             "that on this shared machine the CPU limit, not the wall time, decides. Shifted geometric mean "
             "(shift 1 s) of CPU time, a run out of time counted at the limit. Load average at the runs "
             f"{min(r['load'] for r in runs):.1f}-{max(r['load'] for r in runs):.1f}.", "",
             "| set | puzzles | " + " | ".join(f"`{spec}` decided | SGM s" for spec in ("bitboard", *REFERENCES))
             + " | target |", "|---|---:|" + "---:|---:|" * (1 + len(REFERENCES)) + "---|"]
    for name in sorted(dict.fromkeys(r["set"] for r in runs)):   # 36x36 by share, then QWH by order
        on = [r for r in runs if r["set"] == name]
        # the puzzles every engine has run: a set stopped part way is reported over those
        done = set.intersection(*({r["puzzle"] for r in on if r["spec"] == spec} for spec in TARGET_SPECS))
        on = [r for r in on if r["puzzle"] in done]
        if not on:
            continue
        cells, summary = [], {}
        for spec in ("bitboard", *REFERENCES):
            rows = [r for r in on if r["spec"] == spec]
            times = [min(seconds(r), limit) for r in rows]
            summary[spec] = (sum(r["status"] != "timeout" for r in rows), sgm(times))
            cells += [f"{summary[spec][0]}/{len(rows)}", f"{summary[spec][1]:.2f}"]
        best = max(summary[s][0] for s in REFERENCES)
        fastest = min(summary[s][1] for s in REFERENCES)
        met = summary["bitboard"][0] >= best and summary["bitboard"][1] <= fastest
        verdict = ("tie: no engine decides one" if best == summary["bitboard"][0] == 0
                   else "**met**" if met else "**not met**")
        lines.append(f"| {name} | {len(rows)} | {' | '.join(cells)} | {verdict} |")
    out = [r["cpu"] for r in runs if r["status"] == "timeout"]
    if out:
        short = sum(x < 0.95 * limit for x in out)
        lines += ["", f"CPU spent by the runs out of time: median {statistics.median(out):.2f} s, least "
                      f"{min(out):.2f} s; {short} of {len(out)} below 95% of the limit "
                      f"({'the wall time ran out first' if short else 'the CPU limit decided every one'})."]
    return lines + [""]


def report(out: Path) -> None:
    """The page's generated sections, spliced in, and the figure beside the page."""
    runs = latest(RUNS, lambda row: (row["instance"], row["spec"], row["seed"]))
    splice_section(out, "## Distributions over seeds", rtd_lines(runs))
    if TARGET_RUNS.exists():
        splice_section(out, "## Targets", target_lines(read_targets()))
    plot(runs, list(dict.fromkeys(r["instance"] for r in runs)), out.with_suffix(""))


def plot(runs: list[dict], names: list[str], stem: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.8), sharey=True)
    for ax, name in zip(axes if len(names) > 1 else [axes], names):
        for spec in ENGINES:
            rows = [r for r in runs if r["instance"] == name and r["spec"] == spec]
            xs = sorted(r["cpu"] for r in rows if r["status"] != "timeout")
            if rows:
                ax.step([1e-3, *xs], [k / len(rows) for k in range(len(xs) + 1)], where="post", label=spec)
        fixed = [r for r in runs if r["instance"] == name and r["spec"] == FIXED]
        if fixed and fixed[0]["status"] != "timeout":
            ax.axvline(fixed[0]["cpu"], color="grey", linestyle=":", label=f"{FIXED} (one run)")
        ax.set_xscale("log")
        ax.set_xlim(1e-2, runs[0]["limit"])
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("CPU s (log)")
    (axes[0] if len(names) > 1 else axes).set_ylabel("share of seeds decided")
    (axes[-1] if len(names) > 1 else axes).legend(fontsize=6, loc="upper left")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(f"{stem}.{ext}", dpi=110)


def seed_range(text: str) -> range:
    """'5': seeds 0 to 4; '1-2': seeds 1 and 2 (an argparse type: anything else is its error)."""
    first, _, last = text.partition("-")
    try:
        seeds = range(int(first), int(last) + 1) if last else range(int(first))
    except ValueError:
        seeds = range(0)
    if not seeds or seeds.start < 0:
        raise argparse.ArgumentTypeError(f"not a count of seeds or a range 'a-b' of them: {text!r}")
    return seeds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", default="sudoku36,qwh40", help="sudoku36, qwh40, or both, comma-separated")
    ap.add_argument("--seeds", type=seed_range, help="engine seeds: a count from 0 (default 20; --nogoods and --targets: 1) or a range 'a-b'")
    ap.add_argument("--time-limit", type=float, default=10.0, help="CPU seconds a run")
    ap.add_argument("--report", action="store_true", help="write results/rtd.md and the plot from the runs")
    ap.add_argument("--targets", action="store_true", help="the issue's targets into results/peak.jsonl (seed 0 unless --seeds)")
    ap.add_argument("--puzzles", type=int, default=6, help="--targets: puzzles a set")
    ap.add_argument("--wall", type=float, help="--targets: wall seconds a run (default 1.5 x the limit + 1)")
    ap.add_argument("--sets", help="--targets: only these sets, comma-separated (e.g. '36x36 55%%,QWH 40 34%%')")
    ap.add_argument("--resume", action="store_true",
                    help="--targets: skip the runs held at this limit, but run again those the wall time cut")
    ap.add_argument("--engines", help="the engines (default: every one the report shows; --targets: "
                    f"{', '.join(TARGET_SPECS)}, and another bitboard setting is reported beside the default)")
    ap.add_argument("--nogoods", action="store_true", help="nogoods on and off and CaDiCaL on 36x36 at --share")
    ap.add_argument("--share", type=float, default=0.5, help="--nogoods: the share of cells removed")
    ap.add_argument("--peak", type=int, metavar="ORDER", help="QWH of this order at --shares: where it is hardest")
    ap.add_argument("--shares", default=",".join(map(str, PEAK_SHARES)), help="--peak: shares of holes, comma-separated")
    ap.add_argument("--out", default="results/rtd.md", help="--report: the page")
    ap.add_argument("--runs", default="results", help="the folder of rtd.jsonl and peak.jsonl")
    args = ap.parse_args()
    global RUNS, TARGET_RUNS
    RUNS, TARGET_RUNS = Path(args.runs) / RUNS.name, Path(args.runs) / TARGET_RUNS.name
    known = [name for name, _ in target_sets(0)]
    unknown = [name for name in (args.sets.split(",") if args.sets else []) if name not in known]
    if unknown:
        ap.error(f"--sets: no set {unknown[0]!r}; the sets: {', '.join(known)}")
    if args.peak:
        peak(args.peak, [float(x) for x in args.shares.split(',')], args.puzzles, args.time_limit, args.wall or default_wall_limit(args.time_limit))
    elif args.nogoods:
        nogoods(args.share, args.puzzles, args.time_limit, args.wall or default_wall_limit(args.time_limit),
                args.seeds or range(1))
    elif args.report:
        report(Path(args.out))
    elif args.targets:
        targets(args.puzzles, args.time_limit, args.wall or default_wall_limit(args.time_limit),
                args.sets.split(",") if args.sets else None,
                tuple(args.engines.split(",")) if args.engines else TARGET_SPECS, args.resume,
                args.seeds or range(1))
    else:
        sweep(args.family.split(","), len(args.seeds or range(20)), args.time_limit,
              tuple(args.engines.split(",")) if args.engines else (FIXED, *ENGINES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
