"""The easy-hard-easy curve of quasigroups with holes (QWH), reproduced with the harness.

Achlioptas, Gomes, Kautz and Selman ("Generating satisfiable problem instances", AAAI 2000)
showed that QWH instances (a random complete Latin square with holes punched uniformly) are
easy with few holes (propagation finishes them) and easy with many (almost any completion
works), and hardest near a critical share of holes: about 42% for the orders they used.

For one order N, this script generates K instances per share of holes (0.30 to 0.60 by 0.02 by
default) with ``puzzlebench generate latin`` (Jacobson and Matthews' uniform squares), runs them
all in one ``puzzlebench bench`` (every instance satisfiable by construction: limit 1, one
solution found and verified), reads the medians out of the results database and writes
``results/qwh.md`` with ``results/qwh.png`` and ``.svg``:

    python benchmarks/bench_qwh.py [--order 30] [--count 10] [--time-limit 10] [--jobs 2]

Median time counts a timeout at the time limit (a lower bound, marked ``>``): a median stays
exact while fewer than half the runs time out.  Search effort is each engine's own count
(docs/STATISTICS.md): nodes for mrv (its branches) and dlx (Knuth's nodes), conflicts for the
CDCL engines (sat, cpsat), whose decisions grow with the open cells whatever the hardness; a
timed-out run contributes what it had counted, a lower bound too.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.pages import load_now

REPO = Path(__file__).resolve().parent.parent
PAPER_PEAK = 0.42
SOLVERS = "mrv,dlx,sat,cpsat"
CDCL = ("sat", "cpsat", "smt")
"""Engines whose search effort is counted in conflicts: their decisions grow with the open
cells whatever the hardness (a CDCL solver decides every free variable once it stops conflicting)."""


def effort_name(solver: str) -> str:
    return "conflicts" if solver in CDCL else "nodes"


def shares(start: float, stop: float, step: float) -> list[float]:
    count = int(round((stop - start) / step))
    return [round(start + k * step, 4) for k in range(count + 1)]


def set_name(order: int, share: float) -> str:
    return f"qwh{order}_h{share:.2f}.pls"


def generate(order: int, share_list: list[float], count: int, seed: int, folder: Path) -> list[Path]:
    """One file of ``count`` instances per share, each share its own seed (independent squares)."""
    files = []
    for share in share_list:
        path = folder / set_name(order, share)
        subprocess.run(["puzzlebench", "generate", "latin", "--size", str(order), "--holes", f"{share:.2f}",
                        "--count", str(count), "--seed", str(seed * 1000 + int(round(share * 100))),
                        "--out", str(path), "--quiet"], check=True)
        files.append(path)
    return files


def bench(files: list[Path], args) -> None:
    subprocess.run(["puzzlebench", "bench", *map(str, files), "--solvers", args.solvers, "--limit", str(args.limit),
                    "--time-limit", str(args.time_limit), "--jobs", str(args.jobs), "--db", args.db,
                    "--quiet", "--seed", str(args.seed)], check=False, stdout=subprocess.DEVNULL)


def collect(db: str, order: int, share_list: list[float]) -> dict:
    """Per (share, solver): the statuses, total and search times, nodes and conflicts."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT set_name, solver, status, t_total, t_solve, nodes, conflicts, time_limit "
                       "FROM results").fetchall()
    con.close()
    by_name = {set_name(order, s): s for s in share_list}
    out: dict = {}
    for name, solver, status, total, solve, nodes, conflicts, limit in rows:
        if name not in by_name:
            continue
        cell = out.setdefault((by_name[name], solver.split(":")[0]), {
            "status": [], "total": [], "solve": [], "nodes": [], "conflicts": [], "effort": []})
        timed_out = status == "timeout"
        cell["status"].append(status)
        cell["total"].append(limit if timed_out else total)
        cell["solve"].append(limit if timed_out else (solve if solve is not None else total))
        cell["nodes"].append(nodes or 0)
        if conflicts is not None:
            cell["conflicts"].append(conflicts)
        cell["effort"].append((conflicts if solver.split(":")[0] in CDCL else nodes) or 0)
    return out


def median_time(cell: dict, key: str) -> tuple[float, bool]:
    """The median of a time, and whether it is only a lower bound (half the runs timed out or more)."""
    values = cell[key]
    timeouts = cell["status"].count("timeout")
    return statistics.median(values), 2 * timeouts >= len(values)


def peak(data: dict, solver: str, share_list: list[float], key: str) -> str:
    """The share of holes with the largest median, or the range of shares whose median timed
    out (half the runs or more: the peak is somewhere among them)."""
    medians = [(statistics.median(data[(s, solver)][key]), s) for s in share_list if (s, solver) in data]
    if key in ("solve", "total"):
        censored = [s for s in share_list if (s, solver) in data and median_time(data[(s, solver)], key)[1]]
        if len(censored) > 1:
            return f"{min(censored):.2f}–{max(censored):.2f}, at the time limit"
    return f"{max(medians)[1]:.2f}"


def plot(data: dict, solvers: list[str], share_list: list[float], order: int, count: int, out: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax_time, ax_nodes) = plt.subplots(1, 2, figsize=(11, 4.2))
    for solver in solvers:
        xs = [s for s in share_list if (s, solver) in data]
        ax_time.plot(xs, [1000 * statistics.median(data[(s, solver)]["solve"]) for s in xs], marker="o", ms=3, label=solver)
        ax_nodes.plot(xs, [max(1, statistics.median(data[(s, solver)]["effort"])) for s in xs], marker="o", ms=3,
                      label=f"{solver} ({effort_name(solver)})")
    ax_nodes.legend()
    for ax, label in ((ax_time, "median search time (ms)"), (ax_nodes, "median nodes (mrv, dlx) / conflicts (CDCL)")):
        ax.set_yscale("log")
        ax.axvline(PAPER_PEAK, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel("share of holes")
        ax.set_ylabel(label)
        ax.grid(True, which="major", alpha=0.3)
    ax_time.legend()
    fig.suptitle(f"QWH order {order}: {count} instances per point (dashed: the paper's ~42%)")
    fig.tight_layout()
    paths = [out.with_suffix(".png"), out.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path, dpi=110)
    plt.close(fig)
    return paths


def bench_span(db: str) -> str:
    """When the bench of the database ran (its ``runs`` table), in words."""
    con = sqlite3.connect(db)
    try:
        started, finished = con.execute("SELECT min(started), max(finished) FROM runs").fetchone()
    finally:
        con.close()
    return f"from {started} to {finished}"


def fmt_ms(seconds: float, bound: bool) -> str:
    ms = 1000 * seconds
    text = f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}"
    return (">" + text) if bound else text


def report(data: dict, solvers: list[str], share_list: list[float], args, seconds: float, load_before: str,
           figures: list[Path]) -> str:
    order = args.order
    lines = [f"# QWH: the easy-hard-easy curve, order {order}", "",
             "Quasigroups with holes (Achlioptas, Gomes, Kautz and Selman, \"Generating satisfiable problem "
             "instances\", AAAI 2000): a uniformly random Latin square (Jacobson and Matthews' chain) with a "
             "share of its cells emptied uniformly at random; satisfiable by construction.  "
             f"{args.count} instances per share of holes, every one through {', '.join(solvers)} in one "
             f"`puzzlebench bench` (limit {args.limit}, time limit {args.time_limit:g} s, {args.jobs} jobs; "
             "every answer verified).", "",
             (f"Made with `{args.command}` in {seconds / 60:.1f} minutes of wall time on " if not args.reuse else
              f"Tables remade from the database with `{args.command}` (the bench itself ran "
              f"{bench_span(args.db)}) on ") +
             f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}, Python "
             f"{platform.python_version()}; load before: {load_before}; after: {load_now()}: a shared machine, "
             "so the times are indicative, the nodes are not).", "",
             "![QWH curve](qwh.png)", ""]
    peaks_time = {s: peak(data, s, share_list, "solve") for s in solvers}
    peaks_nodes = {s: peak(data, s, share_list, "effort") for s in solvers}
    lines += ["## Where the peaks fall", "",
              "| solver | peak of median search time | peak of median effort | effort counted in | timeouts (all shares) |",
              "|---|---:|---:|---|---:|"]
    for s in solvers:
        timeouts = sum(data[(h, s)]["status"].count("timeout") for h in share_list if (h, s) in data)
        lines.append(f"| {s} | {peaks_time[s]} | {peaks_nodes[s]} | {effort_name(s)} | {timeouts} |")
    lines += ["", peak_paragraph(peaks_time, peaks_nodes, solvers), ""]
    lines += ["## Medians per share of holes", "",
              "Search time (ms; `Result.times.solve`: the encoding, the same at every share, left out), a timeout "
              f"counted at the limit (`>`: half the runs or more timed out, a lower bound); nodes the engine's own "
              "search nodes (docs/STATISTICS.md); conflicts for the CDCL engines; `T` timeouts out of "
              f"{args.count}.", ""]
    head = "| holes | cells |" + "".join(f" {s} ms | {s} nodes |" for s in solvers) \
        + "".join(f" {s} conflicts |" for s in solvers if s in ("sat", "cpsat")) + " T |"
    lines += [head, "|" + "---:|" * (head.count("|") - 1)]
    for h in share_list:
        row = f"| {h:.2f} | {int(round(h * order * order))} |"
        timeouts = []
        for s in solvers:
            cell = data.get((h, s))
            if cell is None:
                row += " – | – |"
                continue
            ms, bound = median_time(cell, "solve")
            row += f" {fmt_ms(ms, bound)} | {statistics.median(cell['nodes']):,.0f} |"
            t = cell["status"].count("timeout")
            if t:
                timeouts.append(f"{s} {t}")
        for s in solvers:
            if s in ("sat", "cpsat"):
                cell = data.get((h, s))
                row += f" {statistics.median(cell['conflicts']):,.0f} |" if cell and cell["conflicts"] else " – |"
        lines.append(row + f" {', '.join(timeouts) or '0'} |")
    lines += ["", "Median total time a puzzle (ms: parse, encode, search, decode, verify), for comparison:", "",
              "| holes |" + "".join(f" {s} |" for s in solvers), "|" + "---:|" * (len(solvers) + 1)]
    for h in share_list:
        row = f"| {h:.2f} |"
        for s in solvers:
            cell = data.get((h, s))
            row += f" {fmt_ms(*median_time(cell, 'total'))} |" if cell else " – |"
        lines.append(row)
    lines += ["", "Figures: " + ", ".join(f"`{p.name}`" for p in figures) + " (left: median search time; right: "
              "median search effort, nodes for mrv and dlx, conflicts for the CDCL engines; log scales).", ""]
    return "\n".join(lines)


def peak_paragraph(peaks_time: dict, peaks_nodes: dict, solvers: list[str]) -> str:
    parts = [f"{s} at {peaks_nodes[s]} by {effort_name(s)}" + ("" if peaks_time[s] == peaks_nodes[s] else
                                                              f" ({peaks_time[s]} by time)") for s in solvers]
    effort_peaks = [float(peaks_nodes[s]) for s in solvers]
    low, high = min(effort_peaks), max(effort_peaks)
    where = ("around" if low <= PAPER_PEAK <= high else "below" if high < PAPER_PEAK else "above")
    text = ("Each paradigm's hardest share of holes (the share whose median is largest), against the "
            f"paper's ~{PAPER_PEAK:.0%}: " + "; ".join(parts) + f".  By search effort every peak falls between "
            f"{low:.0%} and {high:.0%}: {where} the paper's ~{PAPER_PEAK:.0%}" + (
                "; the paradigms agree within two steps of the grid (the hardness belongs to the instances, "
                "not to one solver)" if high - low <= 0.041 else "") + ".  A peak is known to within half a step of "
            "the grid, and medians of a few instances a point are noisy: QWH hardness is heavy-tailed (two "
            "instances of one share can differ a thousandfold).")
    for s in solvers:
        if "time limit" in peaks_time[s]:
            text += (f"  {s}'s median time reached the time limit at {peaks_time[s].split(',')[0]}: there its "
                     f"curve is a plateau of lower bounds, its {effort_name(s)} too (a timed-out run counts what "
                     "it had done), and its peak lies somewhere on it.")
    apart = [s for s in solvers if s in CDCL and peaks_time[s] != peaks_nodes[s]]
    if apart:
        text += (f"  The time of {' and '.join(apart)} peaks elsewhere than {'its' if len(apart) == 1 else 'their'} "
                 "conflicts: beside the search it counts what grows with the open cells whatever the hardness "
                 "(the free variables loaded, presolved and propagated, the model read back), so conflicts are "
                 "the measure of hardness there.")
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--order", type=int, default=30)
    ap.add_argument("--count", type=int, default=10, help="instances per share of holes")
    ap.add_argument("--start", type=float, default=0.30)
    ap.add_argument("--stop", type=float, default=0.60)
    ap.add_argument("--step", type=float, default=0.02)
    ap.add_argument("--solvers", default=SOLVERS)
    ap.add_argument("--limit", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=str(REPO / "results" / "qwh.sqlite"))
    ap.add_argument("--out", default=str(REPO / "results" / "qwh.md"))
    ap.add_argument("--reuse", action="store_true", help="report from --db as it is (no generation, no bench)")
    args = ap.parse_args()
    args.command = "python benchmarks/bench_qwh.py " + " ".join(sys.argv[1:])
    share_list = shares(args.start, args.stop, args.step)
    solvers = [s.strip().split(":")[0] for s in args.solvers.split(",") if s.strip()]
    load_before = load_now()
    started = time.monotonic()
    if not args.reuse:
        for suffix in ("", "-wal", "-shm"):
            Path(args.db + suffix).unlink(missing_ok=True)
        with tempfile.TemporaryDirectory(prefix="qwh-") as folder:
            files = generate(args.order, share_list, args.count, args.seed, Path(folder))
            print(f"generated {len(files)} files in {time.monotonic() - started:.0f} s", file=sys.stderr)
            bench(files, args)
    seconds = time.monotonic() - started
    data = collect(args.db, args.order, share_list)
    out = Path(args.out)
    figures = plot(data, solvers, share_list, args.order, args.count, out)
    out.write_text(report(data, solvers, share_list, args, seconds, load_before, figures))
    print(f"wrote {out} and {', '.join(map(str, figures))} in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
