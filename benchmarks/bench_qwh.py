"""The easy-hard-easy curve of quasigroups with holes (QWH), reproduced with the harness.

Achlioptas, Gomes, Kautz and Selman ("Generating satisfiable problem instances", AAAI 2000)
showed that QWH instances (a random complete Latin square with holes punched uniformly) are
easy with few holes (propagation finishes them) and easy with many (almost any completion
works), and hardest near a critical share of holes: about 42% for the orders they used.

For one order N, this script generates K instances per share of holes (0.30 to 0.60 by 0.02 by
default) with ``puzzlebench generate latin`` (Jacobson and Matthews' uniform squares), runs them
all in one ``puzzlebench bench`` (every instance satisfiable by construction: limit 1, one
solution found and verified), reads the medians out of the results database and writes
``results/qwh.md`` (its design notes kept) with ``results/qwh.png`` and ``.svg``:

    python benchmarks/bench_qwh.py [--order 30] [--count 10] [--time-limit 10] [--jobs 2]

Median time counts a timeout at the time limit (a lower bound, marked ``>``): a median stays
exact while fewer than half the runs time out.  Search effort is each engine's own count
(docs/STATISTICS.md): nodes for mrv (its branches) and dlx (Knuth's nodes), conflicts for the
CDCL engines (sat, cpsat), whose decisions grow with the open cells whatever the hardness; a
timed-out run contributes what it had counted, a lower bound too.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.pages import command_line, load_now, md_table, write_page

PAPER_PEAK = 0.42
CDCL = ("sat", "cpsat", "smt")   # effort counted in conflicts: their decisions grow with the open cells


def effort_name(solver: str) -> str:
    return "conflicts" if solver in CDCL else "nodes"


def set_name(order: int, share: float) -> str:
    return f"qwh{order}_h{share:.2f}.pls"


def run(args, shares: list[float], folder: Path) -> None:
    """One file of ``--count`` instances per share, each share its own seed (independent squares),
    then one ``puzzlebench bench`` over them all into a fresh ``--db``."""
    for suffix in ("", "-wal", "-shm"):
        Path(args.db + suffix).unlink(missing_ok=True)
    files = [str(folder / set_name(args.order, share)) for share in shares]
    for share, path in zip(shares, files):
        subprocess.run([sys.executable, "-m", "puzzlebench", "generate", "latin", "--size", str(args.order), "--holes",
                        f"{share:.2f}", "--count", str(args.count), "--seed", str(args.seed * 1000 + round(share * 100)),
                        "--out", path, "--quiet"], check=True)
    subprocess.run([sys.executable, "-m", "puzzlebench", "bench", *files, "--solvers", args.solvers, "--limit", "1",
                    "--time-limit", str(args.time_limit), "--jobs", str(args.jobs), "--db", args.db, "--quiet",
                    "--seed", str(args.seed)], check=False, stdout=subprocess.DEVNULL)


def collect(db: str, order: int, shares: list[float]) -> dict:
    """Per (share, solver): the statuses, total and search times (a timeout at the limit), nodes,
    conflicts and effort (conflicts for the CDCL engines, else nodes)."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT set_name, solver, status, t_total, t_solve, nodes, conflicts, time_limit "
                           "FROM results").fetchall()
    by_name, out = {set_name(order, s): s for s in shares}, {}
    for name, solver, status, total, solve, nodes, conflicts, limit in (r for r in rows if r[0] in by_name):
        solver = solver.split(":")[0]
        cell = out.setdefault((by_name[name], solver), {key: [] for key in
                                                        ("status", "total", "solve", "nodes", "conflicts", "effort")})
        out_of_time = status == "timeout"
        cell["status"].append(status)
        cell["total"].append(limit if out_of_time else total)
        cell["solve"].append(limit if out_of_time else (solve if solve is not None else total))
        cell["nodes"].append(nodes or 0)
        cell["conflicts"] += [conflicts] if conflicts is not None else []
        cell["effort"].append((conflicts if solver in CDCL else nodes) or 0)
    return out


def median_ms(cell: dict, key: str) -> str:
    """The median of a time in ms, ``>`` before it when it is only a lower bound (half the runs
    or more timed out)."""
    ms = 1000 * statistics.median(cell[key])
    bound = 2 * cell["status"].count("timeout") >= len(cell[key])
    return (">" if bound else "") + (f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}")


def peak(data: dict, solver: str, shares: list[float], key: str) -> str:
    """The share of holes with the largest median, or the range of shares whose median timed
    out (the peak is somewhere among them)."""
    mine = [s for s in shares if (s, solver) in data]
    censored = [s for s in mine if key != "effort" and median_ms(data[(s, solver)], key).startswith(">")]
    if len(censored) > 1:
        return f"{min(censored):.2f}–{max(censored):.2f}, at the time limit"
    return f"{max((statistics.median(data[(s, solver)][key]), s) for s in mine)[1]:.2f}"


def plot(data: dict, solvers: list[str], shares: list[float], args, out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax_time, ax_nodes) = plt.subplots(1, 2, figsize=(11, 4.2))
    for solver in solvers:
        xs = [s for s in shares if (s, solver) in data]
        ax_time.plot(xs, [1000 * statistics.median(data[(s, solver)]["solve"]) for s in xs], marker="o", ms=3,
                     label=solver)
        ax_nodes.plot(xs, [max(1, statistics.median(data[(s, solver)]["effort"])) for s in xs], marker="o", ms=3,
                      label=f"{solver} ({effort_name(solver)})")
    for ax, label in ((ax_time, "median search time (ms)"), (ax_nodes, "median nodes (mrv, dlx) / conflicts (CDCL)")):
        ax.set(yscale="log", xlabel="share of holes", ylabel=label)
        ax.axvline(PAPER_PEAK, color="grey", linestyle="--", linewidth=1)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend()
    fig.suptitle(f"QWH order {args.order}: {args.count} instances per point (dashed: the paper's ~42%)")
    fig.tight_layout()
    for suffix in (".png", ".svg"):
        fig.savefig(out.with_suffix(suffix), dpi=110)
    plt.close(fig)


def tables(data: dict, solvers: list[str], shares: list[float], args) -> list[str]:
    def cell(share, solver, fmt):
        return fmt(data[(share, solver)]) if (share, solver) in data else "–"

    cdcl = [s for s in solvers if s in ("sat", "cpsat")]
    peaks = [[s, peak(data, s, shares, "solve"), peak(data, s, shares, "effort"), effort_name(s),
              sum(data[(h, s)]["status"].count("timeout") for h in shares if (h, s) in data)] for s in solvers]
    medians = []
    for h in shares:
        timeouts = [f"{s} {data[(h, s)]['status'].count('timeout')}" for s in solvers
                    if (h, s) in data and "timeout" in data[(h, s)]["status"]]
        medians.append([f"{h:.2f}", round(h * args.order ** 2), *(
            cell(h, s, lambda c: median_ms(c, "solve")) + " | " + cell(h, s, lambda c: f"{statistics.median(c['nodes']):,.0f}")
            for s in solvers), *(cell(h, s, lambda c: f"{statistics.median(c['conflicts']):,.0f}" if c["conflicts"]
                                      else "–") for s in cdcl), ", ".join(timeouts) or "0"])
    return ["## Where the peaks fall", "",
            *md_table(["solver", "peak of median search time", "peak of median effort", "effort counted in",
                       "timeouts (all shares)"], peaks, "lrrlr"), "",
            "## Medians per share of holes", "",
            "Search time (ms; `Result.times.solve`: the encoding, the same at every share, left out), a timeout "
            "counted at the limit (`>`: half the runs or more timed out, a lower bound); nodes the engine's own "
            "search nodes (docs/STATISTICS.md); conflicts for the CDCL engines; `T` timeouts out of "
            f"{args.count}.", "",
            *md_table(["holes", "cells", *(f"{s} ms | {s} nodes" for s in solvers), *(f"{s} conflicts" for s in cdcl),
                       "T"], medians, "r" * (3 + 2 * len(solvers) + len(cdcl))), "",
            "Median total time a puzzle (ms: parse, encode, search, decode, verify), for comparison:", "",
            *md_table(["holes", *solvers], ([f"{h:.2f}", *(cell(h, s, lambda c: median_ms(c, "total"))
                                                           for s in solvers)] for h in shares), "r" * (1 + len(solvers))),
            "", "Figures: `qwh.png`, `qwh.svg` (left: median search time; right: median search effort, nodes for mrv "
            "and dlx, conflicts for the CDCL engines; log scales).", ""]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--order", type=int, default=30)
    ap.add_argument("--count", type=int, default=10, help="instances per share of holes")
    ap.add_argument("--start", type=float, default=0.30)
    ap.add_argument("--stop", type=float, default=0.60)
    ap.add_argument("--step", type=float, default=0.02)
    ap.add_argument("--solvers", default="mrv,dlx,sat,cpsat")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default="results/qwh.sqlite")
    ap.add_argument("--out", type=Path, default=Path("results/qwh.md"))
    args = ap.parse_args()
    shares = [round(args.start + k * args.step, 4) for k in range(round((args.stop - args.start) / args.step) + 1)]
    solvers = [s.strip().split(":")[0] for s in args.solvers.split(",") if s.strip()]
    before, started = load_now(), time.monotonic()
    with tempfile.TemporaryDirectory(prefix="qwh-") as folder:
        run(args, shares, Path(folder))
    minutes = (time.monotonic() - started) / 60
    data = collect(args.db, args.order, shares)
    plot(data, solvers, shares, args, args.out)
    lead = ("Where each paradigm's hardest share of holes falls when completing quasigroups with holes of order "
            f"{args.order}, against the peak Achlioptas, Gomes, Kautz and Selman report (about 42%).")
    lines = ["Quasigroups with holes (Achlioptas, Gomes, Kautz and Selman, \"Generating satisfiable problem "
             "instances\", AAAI 2000): a uniformly random Latin square (Jacobson and Matthews' chain) with a share of "
             f"its cells emptied uniformly at random; satisfiable by construction.  {args.count} instances per share "
             f"of holes, every one through {', '.join(solvers)} in one `puzzlebench bench` (limit 1, time limit "
             f"{args.time_limit:g} s, {args.jobs} jobs; every answer verified).", "",
             f"{minutes:.1f} minutes of wall time on a shared machine: the times are indicative, the nodes are not.", "",
             "![QWH curve](qwh.png)", "", *tables(data, solvers, shares, args)]
    write_page(args.out, title=f"QWH: the easy-hard-easy curve, order {args.order}", lead=lead, command=command_line(),
               writer="benchmarks/bench_qwh.py", loads=[before, load_now()], lines=lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
