"""Every process of a run counted: the CPU time of ``ext:cadical`` beside its wall
time on the hardest 9x9 (target: a CPU/wall median ratio of 0.8 or more, the program's own
CPU counted), and the memouts and peaks of Z3 on 16x16 under small memory limits (target:
every row a memout at 5 MB, no peak past the cap by more than ``child.PEAK_SLACK``).  Writes
results/processes.md.

    python benchmarks/bench_processes.py [--hardest 30] [--n16 3] [--memory 5,20] [--jobs 1]

Each figure comes from a real ``puzzlebench bench`` into a temporary database, read back row by
row: ``t_total`` (wall), ``t_cpu`` (the worker's and its programs' CPU), raw ``program_cpu``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.harness.database import Database
from puzzlebench.harness.pages import command_line, data_lines, load_now, splice_section, write_page
from puzzlebench.runtime.child import MB, PEAK_SLACK
from puzzlebench.runtime.clock import process_cpu

TARGET_RATIO = 0.8
LEAD = ("CPU time of a run that starts a program (the worker's and the program's), beside wall time; Z3 under small "
        "memory limits: memouts, peaks and the mechanism.")


def first(name: str, count: int) -> list[str]:
    return [line.split()[0] for line in data_lines(name, limit=count)]


def bench(folder: Path, name: str, lines: list[str], *args: str) -> list[dict]:
    """The rows of one real bench of ``lines``, run as its own command: its workers are forked
    from a small process, as a user's are (forked from this one, after earlier benches, they
    would inherit its heap and with it room under an ``RLIMIT_DATA`` cap)."""
    puzzles, db = folder / f"{name}.txt", folder / f"{name}.sqlite"
    puzzles.write_text("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "bench", str(puzzles), "--db", str(db), "--quiet",
                           *args], cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench {name} ended with exit code {done.returncode}: {done.stderr.strip()}")
    database = Database(db)
    rows = [dict(row) for row in database.results()]
    database.close()
    return rows


def cpu_figures(rows: list[dict], solver: str) -> dict:
    rows = [r for r in rows if r["solver"] == solver]
    wall = statistics.median(r["t_total"] for r in rows)
    cpu = statistics.median(r["t_cpu"] for r in rows)
    raws = [json.loads(r["raw_stats"] or "{}") for r in rows]
    runs = "program_cpu" in raws[0]
    program = statistics.median(raw["program_cpu"] for raw in raws) if runs else None
    lifetime = statistics.median(raw["process_seconds"] for raw in raws) if runs else None
    return {"solver": solver, "puzzles": len(rows), "unique": sum(r["status"] == "unique" for r in rows),
            "wall_ms": wall * 1000, "cpu_ms": cpu * 1000,
            "program_cpu_ms": None if program is None else program * 1000,
            "program_wall_ms": None if lifetime is None else lifetime * 1000, "ratio": cpu / wall}


def memory_figures(rows: list[dict], mb: float) -> dict:
    peaks = [r["peak_memory"] / MB for r in rows if r["peak_memory"] is not None]
    return {"mb": mb, "statuses": sorted({r["status"] for r in rows}),
            "memouts": sum(r["status"] == "memout" for r in rows), "rows": len(rows), "max_peak_mb": max(peaks, default=None),
            "within": all(p <= mb + PEAK_SLACK / MB for p in peaks), "mechanism": rows[0]["memory_mechanism"]}


def bare_start_ratio(runs: int = 50) -> tuple[float, float]:
    """CPU / wall of starting a program that does nothing (``true``) and waiting for it, and
    the wall ms each: what a process start costs off-CPU on this machine, whoever counts."""
    started, cpu = time.perf_counter(), process_cpu()
    for _ in range(runs):
        subprocess.run(["true"], capture_output=True, check=True)
    wall = time.perf_counter() - started
    return (process_cpu() - cpu) / wall, wall / runs * 1000


def cpu_lines(cpu: list[dict], bare: tuple[float, float]) -> list[str]:
    lines = ["| solver | puzzles | unique | wall median ms | CPU median ms | program CPU median ms | "
             "program's processes, start to exit, median ms | CPU / wall |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for c in cpu:
        program = "-" if c["program_cpu_ms"] is None else f"{c['program_cpu_ms']:.1f}"
        lifetime = "-" if c["program_wall_ms"] is None else f"{c['program_wall_ms']:.1f}"
        lines.append(f"| {c['solver']} | {c['puzzles']} | {c['unique']} | {c['wall_ms']:.1f} | {c['cpu_ms']:.1f} | "
                     f"{program} | {lifetime} | {c['ratio']:.2f} |")
    return lines + ["", f"Target for ext:cadical: CPU / wall >= {TARGET_RATIO}: "
                        f"{'met' if cpu[0]['ratio'] >= TARGET_RATIO else 'not met'} in this run.  Starting `true` and "
                        f"waiting for it: {bare[1]:.2f} ms each, a CPU / wall of {bare[0]:.2f}."]


def memory_lines(memory: list[dict]) -> list[str]:
    lines = ["| limit MB | rows | memouts | statuses | largest peak MB | within limit + slack | mechanism |",
             "|---:|---:|---:|---|---:|---|---|"]
    for m in memory:
        peak = "-" if m["max_peak_mb"] is None else f"{m['max_peak_mb']:.1f}"
        lines.append(f"| {m['mb']:g} | {m['rows']} | {m['memouts']} | {', '.join(m['statuses'])} | {peak} | "
                     f"{'yes' if m['within'] else 'no'} (slack {PEAK_SLACK / MB:g} MB) | {m['mechanism']} |")
    return lines


def main_cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hardest", type=int, default=30)
    parser.add_argument("--n16", type=int, default=3)
    parser.add_argument("--memory", default="5,20", help="memory limits in MB, comma-separated")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--out", default="results/processes.md")
    args = parser.parse_args()
    load = load_now()
    with tempfile.TemporaryDirectory(prefix="bench-processes-") as tmp:
        folder = Path(tmp)
        rows = bench(folder, "hardest", first("sudoku9_forum_hardest_1905_11plus.txt", args.hardest),
                     "--solvers", "ext:cadical,sat", "--jobs", str(args.jobs))
        cpu = [cpu_figures(rows, "ext:cadical"), cpu_figures(rows, "sat:glucose3")]
        sixteen = first("sudoku16_vu_kr_1000.txt", args.n16)
        memory = [memory_figures(bench(folder, f"z3-{mb}", sixteen, "--solvers", "smt:int", "--memory-limit", mb,
                                       "--jobs", str(args.jobs), "--time-limit", str(args.time_limit)), float(mb))
                  for mb in args.memory.split(",")]
    write_page(args.out, title="Every process of a run counted", lead=LEAD, command=command_line(),
               writer="benchmarks/bench_processes.py", loads=[load, load_now()],
               lines=[f"## CPU time beside wall time on the first {cpu[0]['puzzles']} forum-hardest 9x9 (limit 2)", "",
                      *cpu_lines(cpu, bare_start_ratio())])
    splice_section(args.out, f"## smt:int (Z3) on the first {len(sixteen)} public 16x16 under a memory limit",
                   memory_lines(memory))
    print(Path(args.out).read_text())


if __name__ == "__main__":
    main_cli()
