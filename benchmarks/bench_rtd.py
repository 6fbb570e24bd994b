"""Run-time distributions at the hardness peak (issue 33, item 1): per instance, the CPU time of
20+ seeded runs of each paradigm, as ECDFs on log axes, to tell a heavy tail over seeds from an
instance hard for every seed (Gomes, Selman, Crato and Kautz, JAR 2000); and the issue's targets.

    python benchmarks/bench_rtd.py [--family sudoku36,qwh40] [--seeds 20] [--time-limit 10]
    python benchmarks/bench_rtd.py --targets --time-limit 30 --wall 90 [--sets 'QWH 30 36%']
    python benchmarks/bench_rtd.py --report      # results/rtd.md and rtd.png/.svg from the runs
    python benchmarks/bench_rtd.py --nogoods [--share 0.5] [--puzzles 6] [--time-limit 30]
    python benchmarks/bench_rtd.py --peak 40 [--shares 0.32,0.34] [--puzzles 4] [--time-limit 5]

36x36 Sudoku holed as ``bench_large.py --holes`` does, QWH from ``qwh_instance``; counted to 2 on
the CPU clock, every engine and seed on an instance before the next; a line a run in results/.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_large import holed_puzzles  # noqa: E402
from puzzlebench.generators.latin import qwh_instance  # noqa: E402
from puzzlebench.harness.report import shifted_geometric_mean  # noqa: E402
from puzzlebench.harness.uncertainty import ratio_interval, solved_test  # noqa: E402
from puzzlebench.results import Result, Status, Times  # noqa: E402
from puzzlebench.runtime.limits import grace
from puzzlebench.runtime.child import exited, reap, run_limited, start_unreaped, wait_answer
from puzzlebench.runtime.clock import default_wall_limit, program_cpu_now, usage_cpu  # noqa: E402
from puzzlebench.engines.registry import make_engine  # noqa: E402

RUNS = REPO / "results" / "rtd.jsonl"
TARGET_RUNS = REPO / "results" / "peak.jsonl"
CDCL = "sat:cadical195@encoding=optimized"
# the issue's references; Kissat on the encoding CaDiCaL takes too (the givens propagated away:
# on the whole grid's formula, loading a 36x36 alone takes seconds, bench_large.py)
REFERENCES = (CDCL, "sat:kissat404@encoding=optimized", "cpsat:int")
# the depth-first search alone (handover=0: it never hands the puzzle to clause learning)
BEFORE = "bitboard@restarts=none;handover=0"   # random tie-breaks, no restarts: the tail before
# clause learning: the default (the depth-first search, then learning after 2,000 dead ends) and
# learning from the start: the tail after learning
LEARNING = ("bitboard", "bitboard@cdcl=true")
ENGINES = (BEFORE, "bitboard@handover=0", "bitboard@restarts=geometric;handover=0", *LEARNING, CDCL, "cpsat:int")
FIXED = "bitboard@restarts=none;random=false;handover=0"   # the search before restarts: one run an instance


def instances(family: str) -> list[tuple[str, object]]:
    """(name, puzzle) of a family: the first two 36x36 at 46% holes (the hard region's edge,
    where some runs finish: results/bitboard.md), or the second and third QWH of order 40 at
    40% (``random.Random(4040)``; order 30's peak, 34-38% in results/qwh.md, takes this engine
    well under a second)."""
    if family == "sudoku36":
        at46 = holed_puzzles((6, 6), 0.46)
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
        out.append((f"36x36 {share:.0%}", holed_puzzles((6, 6), share, puzzles)))
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
                                          "load": os.getloadavg()[0], **row}) + "\n")
                    out.flush()
            print(name, "done", flush=True)


def latest_rows(path: Path, key) -> list[dict]:
    """The rows of a JSON-lines file, the latest of each ``key(row)`` (a run again replaces one)."""
    latest = {}
    for line in open(path):
        row = json.loads(line)
        latest[key(row)] = row
    return list(latest.values())


def read_targets() -> list[dict]:
    """The target runs, the latest of each engine and seed on each puzzle at each limit."""
    return latest_rows(TARGET_RUNS, lambda row: run_key(row) + (row["limit"], row["seed"])) if TARGET_RUNS.exists() else []


def run_key(row: dict) -> tuple:
    return row["set"], row["puzzle"], row["spec"]


def cut_by_wall(row: dict) -> bool:
    """Out of time before the CPU limit: its wall time ran out first (a loaded machine)."""
    return row["status"] == "timeout" and row["cpu"] < row["limit"]


NOGOOD_SPECS = ("bitboard@nogoods=true;handover=0", "bitboard@nogoods=false;handover=0", CDCL)


def nogoods(share: float, puzzles: int, time_limit: float, wall: float, seeds: range) -> None:
    """Nogoods recorded at restarts on and off, and CaDiCaL, on 36x36 Sudoku with ``share`` of
    the cells removed, every engine and seed on a puzzle before the next: a table of decided
    runs and the shifted geometric mean of CPU time (a run out of time counted at the limit)."""
    rows = []
    for k, puzzle in enumerate(holed_puzzles((6, 6), share, puzzles)):
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
    """One run on the CPU clock.  With ``wall`` every engine runs in a child killed when its CPU
    time passes the limit (plus ``run_limited``'s grace) or its wall time passes ``wall``, and a
    run over the CPU limit is out of time: so that on a loaded machine the CPU limit decides,
    the same for every engine (an in-process engine's own deadline is wall time)."""
    engine = make_engine(spec)
    if engine.takes_seed():
        engine.seeded(seed)
    if spec.startswith("sat:"):   # CaDiCaL and Kissat cannot be stopped in-process: a child killed at the CPU limit
        r = run_limited(engine, [puzzle], limit=2, time_limit=time_limit, keep=2, clock="cpu", wall_limit=wall)[0]
    elif wall:
        r = in_child(engine, puzzle, time_limit, wall)
        if r.times.cpu > time_limit:
            r.status = Status.TIMEOUT
    else:
        r = engine.run(puzzle, limit=2, time_limit=time_limit, clock="cpu")
    decided = r.status in (Status.UNIQUE, Status.MULTIPLE)
    assert r.status is Status.TIMEOUT or (decided and r.verified), (spec, seed, r.status, r.error)
    return {"spec": spec, "seed": seed, "status": r.status.value, "cpu": r.times.cpu, "wall": r.times.total,
            "nodes": r.stats.nodes, "restarts": r.stats.raw.get("restarts"), "nogoods": r.stats.raw.get("nogoods")}


def in_child(engine, puzzle, time_limit: float, wall: float) -> Result:
    """An in-process engine (bitboard, CP-SAT) in a forked child with ``wall`` seconds as its
    deadline, killed as ``run_limited`` kills a SAT engine's child: past the CPU limit plus its
    grace (``/proc``), or the wall limit plus its grace; a killed run is out of time, its CPU
    time from ``wait4``."""
    ctx = multiprocessing.get_context("fork")
    mine, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=answer, args=(theirs, engine, puzzle, wall), daemon=True)
    started = time.perf_counter()
    start_unreaped(child)
    theirs.close()
    overrun = wait_answer(mine, child.pid, wall + grace(wall), time_limit + grace(time_limit))
    result = mine.recv() if overrun is None else None
    spent = program_cpu_now(child.pid)
    if result is None and not exited(child):
        os.kill(child.pid, signal.SIGKILL)
    _, usage = reap(child)
    mine.close()
    if result is not None:
        return result
    return Result(kind=puzzle.kind, solver=engine.spec, limit=2, status=Status.TIMEOUT, puzzle=puzzle,
                  times=Times(total=time.perf_counter() - started, cpu=usage_cpu(usage) if usage else spent))


def answer(conn, engine, puzzle, wall: float) -> None:
    conn.send(engine.run(puzzle, limit=2, time_limit=wall))
    conn.close()


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
                    out.write(json.dumps({"instance": name, "limit": time_limit, "load": os.getloadavg()[0],
                                          "at": time.strftime("%H:%M:%S", time.gmtime()), **row}) + "\n")
                out.flush()
                print(name, "done", flush=True)


def read_runs() -> list[dict]:
    """The sweep's runs, the latest of each engine and seed on each instance."""
    return latest_rows(RUNS, lambda row: (row["instance"], row["spec"], row["seed"]))


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
    limit = runs[0]["limit"]
    lines = ["# Run-time distributions at the hardness peak", "",
             "`python benchmarks/bench_rtd.py` then `--report` (issue 33, item 1): each instance run by every "
             "engine and seed before the next instance, counted to 2, on the clock `cpu` with "
             f"{limit:g} s a run. The machine was loaded (2 cores shared with four other sessions; load average "
             f"at the runs {min(r['load'] for r in runs):.1f}-{max(r['load'] for r in runs):.1f}), and an "
             "in-process engine (bitboard, CP-SAT) takes the CPU time left as a wall-clock deadline: its runs "
             "out of time stopped after a fraction of the limit in CPU (the column \"stopped at\"), CaDiCaL's "
             "(a child killed on CPU time or 1.5x + 1 s of wall time) after more. The distributions are "
             "therefore cut at different CPU times, each engine's where its runs out of time stopped: read the "
             "curves up to that point. CPU times are the runner's `times.cpu`.", "",
             f"`{FIXED}` is the search before this change (one run: it takes no seed); `{BEFORE}` the same "
             "search with random tie-breaks in the cell and value choice and no restarts, the distribution that "
             "one run is a draw from (the tail before); `bitboard@handover=0` (Luby restarts, 100 dead ends the "
             "unit, the default of the depth-first search) and `bitboard@restarts=geometric;handover=0` "
             "(100 x 1.5^k) the remedies (the tail after); `handover=0` keeps each to the depth-first search, "
             "which now hands a puzzle to clause learning after 2,000 dead ends. "
             f"`{LEARNING[0]}` (that default) and `{LEARNING[1]}` (clause learning from the start) are the tail "
             "after learning. They and CaDiCaL's rows were run again on 29 November 2026, 17:16-17:32 UTC, after "
             "target phases were built into clause learning (load 1.8-2.2, a second process beside it; "
             "`--engines` the three), where every run had its 10 s of CPU; the "
             "depth-first search's and CP-SAT's rows are from the loaded run. Shape: "
             "the slowest seeds (the median CPU at which runs out of time stopped, or the slowest decided run) "
             "over the fastest; ten times or more is a heavy tail over seeds, a spread below it narrow.", "",
             "![ECDFs](rtd.png)", "",
             "| instance | engine | runs | decided | CPU s of the decided: least / median / most | "
             "runs out of time stopped at (median CPU s) | shape |", "|---|---|---:|---:|---|---:|---|"]
    for name in names:
        on = [r for r in runs if r["instance"] == name]
        for spec in [FIXED, *ENGINES]:
            rows = [r for r in on if r["spec"] == spec]
            if not rows:
                continue
            stopped = [r["cpu"] for r in rows if r["status"] == "timeout"]
            lines.append(f"| {name} | `{spec}` | {len(rows)} | {len(rows) - len(stopped)}/{len(rows)} | "
                         f"{cpu_range(rows)} | {f'{statistics.median(stopped):.2f}' if stopped else '—'} | "
                         f"{shape(rows) if len(rows) > 1 else '—'} |")
    return lines + [""]


def sgm(xs: list[float]) -> float:
    """The shifted geometric mean with a shift of 1 s, as ``report`` computes it."""
    return shifted_geometric_mean(xs, 1.0)


ISSUE_LIMIT = 30.0   # CPU seconds a run at the issue's size; shorter runs stay in peak.jsonl, unreported


def target_lines(every: list[dict]) -> list[str]:
    """Issue 33's targets at its size (30 s CPU a run): per set, decided and the shifted
    geometric mean of CPU time (a run out of time counted at the limit), the native engine
    against the best reference."""
    runs = [r for r in every if r["limit"] == ISSUE_LIMIT]
    first = [r for r in runs if r["seed"] == 0]
    return (["## Targets", ""] + target_table([r for r in first if r["spec"] in TARGET_SPECS])
            + variant_table(first) + seeded_table(runs))


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
            times = [[min(seconds(r), ISSUE_LIMIT) for r in side] for side in zip(*pairs)]
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


READING = """## What the distributions say (the runs of 29 November 2026, 00:51-01:28 UTC)

- The native search's run time over seeds is heavy-tailed at the peak, CaDiCaL's is not. On QWH 40 #2
  the search without restarts decided 18 of 20 seeds, from 0.02 s to 3.6 s, and two not within 2.6 s;
  the fixed-order search (no seed) is one draw from that spread (1.13 s). On 36x36 46% #2 it went from
  0.04 s to past 0.8 s. CaDiCaL's fastest and slowest seeds differed by 1.5-1.6x on the 36x36
  instances and 4x on QWH 40 #2 (its runs again at 12:55-12:59): for the CDCL reference the hardness
  belongs to the instance more, for the depth-first search to the seed as much as to the instance.
- QWH 40 #3 was hard for every seed of the depth-first search and of CP-SAT within the CPU each had
  in the loaded run (0-3 of 20 decided): at that budget restarts without learning cannot help.
- Luby restarts cut the tail on one instance (36x36 46% #2: 17 of 20 seeds decided, the slowest in
  0.77 s, against 12 of 20 without), left it as it was on QWH 40 #2 (18 of 20 both, the median
  0.49 s against 0.11 s) and worsened it on 36x36 46% #1 (6 of 20 against 12). Over the 80 seeded
  runs Luby decided 42, no restarts 43, geometric 37: no gain on the whole. Without learning a
  restart throws away the run's work; what a run refuted is kept only in dom/wdeg's weights.
  These runs predate nogoods recorded at restarts (Lecoutre et al., JSAT 2007; option `nogoods`, on
  by default since: results/bitboard.md, "Nogoods from restarts", no gain at the 36x36 peak).
- **After learning** (17:16-17:32 UTC, with target phases): the default (the depth-first search,
  then learning after 2,000 dead ends), clause learning from the start (`cdcl=true`) and CaDiCaL
  each decide 75 of 80 seeded runs within 10 s, against 42 of 80 for the depth-first search with
  Luby restarts alone. All three miss five seeds of QWH 40 #3 and decide every seed of the other
  three instances. Before target phases (12:49-12:59 UTC, a quieter machine) `cdcl=true` decided
  all 80 and the default 77: on QWH 40 #3 target phases cost 5 seeds of 20 (Fisher's exact test
  p = 0.047, one instance), while on the 36x36 instances they moved the medians left (46% #1:
  0.52 s against 0.69 s with `cdcl=true`, 0.76 s against 1.04 s with the default). Learning moved
  the distribution left more than it changed its shape: on QWH 40 the slowest seed still takes
  tens to hundreds of times the fastest, where CaDiCaL's spread is 3-6x.
- The default stays `restarts=luby` for its bound on the worst case (Luby, Sinclair and Zuckerman,
  "Optimal speedup of Las Vegas algorithms", IPL 1993: within a log factor of the best fixed cutoff),
  not for a measured gain; `restarts=none` keeps the random tie-breaks, `random=false` as well gives
  the search as it was.
"""


TARGETS_READING = """The runs of 29 November 2026, 16:51-18:25 UTC, after target phases were built into clause
learning (below): every engine again on every puzzle, two processes side by side (36x36 48%, 50%
and QWH 30 in one, 36x36 55% and QWH 40 in the other; then seeds 1 and 2 of those two, then of
48% and 50%), load average 1.0-2.2, every run out of time at 30.2 s of CPU or more, the
references in the native engine's conditions. CPU times on this machine move with the load: in
an earlier run CaDiCaL took 11.0 s and 16.4 s on the same 55% puzzle in two attempts, and a
puzzle decided near the limit in one run (CaDiCaL's 55% #5, 29.97 s at 12:35-13:01) is out of time in the next.

How QWH 40's peak was found, `--peak 40` (instances of their own seeds, not the targets'; at 5 s,
0.34-0.42 with the runner before this one, the native engine on an 8 s wall deadline, and 0.30-0.34
again with the runner above, 0.34 the same both times; at 15 s, the first three of the same):

| share | `bitboard`, 5 s | CaDiCaL, 5 s | `bitboard`, 15 s | CaDiCaL, 15 s |
|---:|---:|---:|---:|---:|
| 0.30 | 2/4, 1.71 | 2/4, 2.04 | | |
| 0.32 | 0/4, 5.00 | 0/4, 5.00 | 0/3, 15.00 | 2/3, 12.45 |
| 0.34 | 0/4, 5.00 | 0/4, 5.00 | 0/3, 15.00 | 2/3, 13.13 |
| 0.36 | 1/4, 3.68 | 2/4, 2.64 | | |
| 0.38 | 3/4, 0.89 | 3/4, 2.68 | | |
| 0.40 | 3/4, 1.57 | 4/4, 4.28 | | |
| 0.42 | 4/4, 0.97 | 4/4, 3.78 | | |

(decided, SGM s). The peak of order 40 lies at 0.32-0.34, below order 30's 0.36 (results/qwh.md)
and below the 0.34-0.42 the issue expected; the set is QWH 40 at 34%, the harder of the two by a
hair for CaDiCaL.

The native engine's row is its default: the depth-first search, which hands a puzzle to clause
learning after 2,000 dead ends with no solution (option `handover`). In the table of other
settings, `bitboard@cdcl=true` (learning from the start) is from the run above;
`bitboard@handover=0` (the depth-first search alone) and `bitboard@restart_unit=1000;handover=0`
from 06:52-08:34 UTC (load 5-11), which clause learning does not touch.

What the targets' runs show:

- **Every target met at seed 0.** 36x36 48%: the default decides 2 of 6 (#0 6.2 s, #2 9.6 s; SGM
  19.3 s) where each reference decides #0 alone (CaDiCaL 5.2 s, Kissat 21.7 s, CP-SAT 28.9 s; SGM
  22.7-29.8 s); learning from the start decides 3 (#0-#2, 11.6 s). 36x36 50%: the default decides
  #0 (15.2 s), Kissat #2 (19.6 s), the rest none: 1 of 6 each, SGM 26.8 s against Kissat's 28.0
  s, met by one puzzle each side; learning from the start none. 36x36 55%: 6 of 6 (3.95 s) against
  CaDiCaL's 5 (8.6 s), Kissat's 6 (15.4 s), CP-SAT's 2. QWH 30 at 36%: all six for every engine,
  the native engine in 0.03 s against 0.22-0.86 s. QWH 40 at 34%: 6 of 6 (6.8 s) against
  CaDiCaL's 4 (12.7 s), Kissat's 6 (8.0 s), CP-SAT's 5 (15.4 s). Before target phases (the run of
  12:35-13:01, a like load) the default decided 1, 0, 5, 6 and 5 of 6 on the same sets.
- **Over seeds** (the table above: seeds 0-2, 18 runs a set and engine). On 36x36 55% the default
  and learning from the start decide all 18, CaDiCaL 16, CP-SAT 7; against CaDiCaL the runs only
  one side decided split 2 to 0 (McNemar p = 0.50) and CaDiCaL's SGM over the default's is 1.29
  (95% interval 0.81-2.14): ahead in count and time, neither beyond these runs' noise. On QWH 40
  at 34% the default decides 18, CaDiCaL 14, CP-SAT 14, split 4 to 0 (p = 0.12), and is 3.4
  times as fast as CaDiCaL (2.2-5.2). Learning from the start decides 16 there, 2.0 times as fast
  as CaDiCaL (1.3-3.1). Before target phases the same table read 15 and 14 against CaDiCaL's 18
  and 15, the default slower than CaDiCaL at 55% (0.67, 0.45-0.98).
- At 48% and 50% every engine is near zero and a seed-0 verdict turns on one puzzle, so they were
  run over seeds too (17:59-18:25 UTC, the two sets side by side; Kissat, the one reference to
  decide a 50% puzzle at seed 0, takes no seed). 48%: the default decides 6 of 18, learning from
  the start 7, CaDiCaL 3, CP-SAT 6; CaDiCaL's SGM over the default's 1.25 (0.97-1.71). 50%: the
  default 3 of 18, learning from the start 2, CaDiCaL 0, CP-SAT 1. Ahead or level in count on
  both, none of it beyond the seeds' noise (McNemar p >= 0.12).
- One cheap setting of the depth-first search on 36x36 55%: `restart_unit=1000` (runs ten times
  as long between restarts) decided 1 of 6 (SGM 21.5 s) against its default's 2 (15.0 s): worse.
- **Clause learning** (native/sudokun_cdcl.c): MiniSat's loop on the grid itself, the puzzle's
  clauses implicit (a value's exclusions, a cell's last value, a unit's last place), first-UIP
  clauses minimised recursively, VSIDS, Luby restarts on conflicts (1,024 the unit), learnt
  clauses halved by their levels, and target phases on cells (below). What was tried, on 8 QWH of
  order 35 at 35% (`random.Random(7035)`, 10 s CPU each, CPU summed over the eight): decisions
  always "cell holds value" 4.0-4.9 s against 24.4 s with phase saving (Pipatsrisawat and
  Darwiche, SAT 2007: most saved phases are "does not hold"); Glucose's restarts on the learnt
  clauses' levels 7.4 s against Luby's 4.0 s; and on 8 QWH of order 38 at 34% (12 s each):
  decided 8/8 against 4/8 for the depth-first search and 7/8 for `sat:cadical195` in-process,
  VSIDS decay 0.9 5/8 and 0.98 8/8 (25.1 s against 25-28 s at 0.95, within the noise), a
  restart unit of 32 5/8 and of 300 6/8. Watch lists with blockers and peers taken from the
  units' masks added 11% conflicts a second.
- **Target phases on cells** (Biere and Fleury, "Chasing target phases", Pragmatics of SAT 2020):
  at each conflict whose conflict-free trail is the longest since the last restart, each cell's
  value on it is kept; VSIDS picks a variable as before, and its cell's kept value is decided
  where still open (the value VSIDS picked otherwise), so every decision stays "cell holds value"
  and counting is as before. Measured before it was built in (`cdcl=true`, 20 s CPU, counted to
  2, QWH 40 34% and 36x36 55%): seeds 1-3 decided 14 of 18 and 18 of 18 (without: 12 and 15);
  seeds 4-6, both in one run, 13 and 18 against 12 and 12, SGM 4.6 s and 3.3 s against 6.7 s and
  6.7 s. Together 63 of 72 against 51 of 72 (Fisher's exact test p = 0.023; on 55%, 36 of 36
  against 27 of 36, p = 0.002). It was taken from CaDiCaL's parts (the table below).
- **Where the gap to the SAT solvers lay** (before target phases, 29 November 2026, 11:55-12:30
  UTC, load 1-2): Debian's CaDiCaL binary (`cadical`, version sc2021) on the CNFs of QWH 40 34%
  (the optimized encoding), to a first solution, took 50,515, 8,984, 160,525, 14,722, 41,485 and
  132,751 conflicts (#0-#5) at about 11,000 a second; this search (`cdcl=true`, its unit then
  100) two to twenty times as many on #0, #1 and #4 (past 190,000, 139,233, 187,636), about as
  many on #3 and #5, at 6,300 a second: 1.7 times as long a conflict. Which of CaDiCaL's parts
  carry it, each setting on #0, #1 and #4 (conflicts to a first solution; "past": out of its 30 s):

  | CaDiCaL's options | #0 | #1 | #4 |
  |---|---:|---:|---:|
  | its default | 50,515 | 8,984 | 41,485 |
  | `--stabilize=false` (its focused mode only) | past 216,960 | 2,296 | past 215,519 |
  | `--forcephase=true` (one fixed phase, as this search's "cell holds value") | past 172,947 | 89,196 | past 173,320 |
  | `--stabilizeonly=true` (its stable mode only) | 40,535 | 5,464 | 46,017 |
  | stable mode only, `--target=0` (no target phases) | 14,052 | 7,963 | 24,643 |
  | stable mode only, `--rephase=false` | past 194,674 | 30,245 | 11,172 |
  | stable mode only, `--target=0`, and `--plain` (no pre- or inprocessing) | past 134,409 | 9,087 | 56,401 |
  | ... or `--chrono=0` (no chronological backtracking) | 17,313 | 15,015 | 105,823 |
  | ... or `--bumpreason=false` | 167,274 | 15,751 | 99,985 |
  | ... or `--shrink=0` | 134,475 | 10,494 | 109,564 |
  | ... or all four, and `--walk=false` | past 175,782 | 71,119 | past 177,383 |
  | its default, `--seed=1` / `--seed=2` | 169,429 / past 201,983 | 33,744 / 36,995 | 35,559 / 57,311 |

  Its stable mode carries it here (VSIDS, Luby restarts of 1,024 conflicts, saved phases reset
  now and then to all true, all false and the longest trail's); each of its other parts, taken
  away alone, costs up to twelvefold on some instance, and its own seeds move #0 fourfold. This
  search took stable mode's restart unit: seeded runs of `cdcl=true` (engine seeds 1-3, 20 s
  CPU; QWH 40 34% to a first solution, 36x36 55% counted to 2) decided 13 of 18 and 11 of 12
  with 1,024 against 9 of 18 and 7 of 12 with 100: 24 of 30 against 16 of 30 (Fisher's exact test,
  p = 0.054; on QWH 40, 512 decided 15 of 18, 2,048 10 and 8,192 11). On 36x36 55% #0, stable
  mode alone needed 20,062 conflicts; one option off at a time (one run each): without target
  phases 111,130, without rephasing past 159,900, with one fixed phase (true, as here) 33,947,
  without reductions 39,129, without reason bumping 35,792, without shrinking 15,553, without
  minimising 18,407. This search, before target phases, needed 77,038 to past 240,000 (seeds
  3-10): the gap was in the conflicts, and target phases were the largest single part of it.
- **Tried and left out** (seeded runs of `cdcl=true`, QWH 40 34% and 36x36 55%, seeds 1-3, 20 s,
  counted to 2: 36 runs, of which the search before target phases decided 27): saved phases with
  CaDiCaL's resets (QWH 40 #0-#5, 1 of 6 against 6; a saved "does not hold" made a decision
  propagates little here); clause shrinking (Fleury and Biere, "Efficient All-UIP Learned Clause
  Minimization", SAT 2021; learnt clauses 65 to 45 literals), 22 of 36; vivifying the learnt
  clauses of at most 6 levels after each reduction (Luo, Li, Xiao, Manyà and Lü, IJCAI 2017; at
  most 500 a round), 20 of 36; CaDiCaL's tiers of learnt clauses (those of at most 6 levels used
  since the last reduction kept, three quarters of the rest removed every 300 sqrt(k)
  conflicts), 22 of 36; bumping the variables of the learnt clause's reasons (CaDiCaL's
  `bumpreason`, depth 1), 23 of 36; deciding the value a cell last held (solution-based phase
  saving, Demirović, Chu and Stuckey, CP 2018), 4 of 8 seeds of 36x36 55% #0 against 5 of 8;
  poison marks in minimisation (a pure speed change: 0.96-1.05 of the time, within the noise).
  What the search still lacks of CaDiCaL's: preprocessing, inprocessing and chronological
  backtracking; a conflict here costs 1.7 times CaDiCaL's, most of it in reading the learnt
  clauses' watch lists (`perf annotate`: misses on the list, the clause and its first literal).
- Where clause learning does not pay: easy large grids, where setting up n^3 variables costs more
  than the whole depth-first search (25x25 to 64x64 with 30% of the cells open: 5-12 times
  slower; 16x16 public puzzles 1.25 ms against 0.34 ms a puzzle). Hence the handover: the
  depth-first search first, clause learning after 2,000 dead ends with no solution. On sets that
  never reach it (16x16 at 62% open, 25x25 at 48%, 36x36 at 44%) the times are the search's; on
  QWH 35 at 35% it decides 8/8 (SGM 0.40 s) against the search alone's 7/8 (2.66 s) and
  learning from the start's 8/8 (0.42 s); a handover after 500 dead ends was slower there (0.71 s).
- Hard minimal 25x25: `benchmarks/bench_hard25.py` (results/bitboard.md, "Hard minimal 25x25"): 18
  seeded near-minimal 25x25 from the generator (`--check-seconds 0.5`) where CP-SAT needs 1.7-6.9 s
  CPU; in one run (20 s CPU each, limit 2) the native engine, CP-SAT and CaDiCaL each decide 18 of
  18: **met**, on a set that does not separate them by count. On CPU time the default is 1.8 times
  as fast as CP-SAT and 1.9 times as slow as CaDiCaL (SGM 2.24 s, 4.12 s, 1.18 s, 17:26 UTC);
  before target phases it was level with CaDiCaL (1.26 s against 1.23 s, 13:00 UTC). These
  puzzles are unique: after the first solution the target points at the solution just blocked,
  and the proof that no second one exists takes twice the conflicts. Dropping the target after a
  solution won that back in part and lost peak runs, where a second solution lies near the first
  (results/bitboard.md has the probes): the trade is kept.
- From the session that added restarts: the 9x9 kernel is untouched (sudoku9.c; the 9x9 path
  takes no restart bit): 600 magictour puzzles take the same 14,507 nodes as on main;
  `bench_large.py --quick`: the engine still faster than CP-SAT and MiniSat on 100/100 public and
  10/10 minimal 16x16 and on 4/4 25x25 at 300 and at 320 holes; again with the handover
  (`bench_large.py --quick --out` a scratch file, 29 November 2026 10:53 UTC): 100/100, 10/10, 4/4
  and 4/4; none of the 18 generated puzzles reaches the handover (at most 484 dead ends, no
  conflict).
"""


def report(out: Path) -> None:
    runs = read_runs()
    lines = rtd_lines(runs) + [READING]
    if TARGET_RUNS.exists():
        lines += target_lines(read_targets()) + [TARGETS_READING]
    out.write_text("\n".join(lines))
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
    ap = argparse.ArgumentParser()
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
    args = ap.parse_args()
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
        report(REPO / "results" / "rtd.md")
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
