"""The Dask executor against the local pool: the same bench through both, in the same run.

- *bench*: mrv on top1465 (an ms-scale engine: the whole set by default) through the local pool
  with 2 jobs and through ``dask-local:2`` (two Dask worker processes on 127.0.0.1, each running
  its units in a hard-limit child), wall time of ``run_bench`` (plan, run, store every row,
  cross-check) and the ratio; the cluster's start is timed apart (once per bench, not per unit);
- *per unit*: what a unit costs each executor beyond its work: N units of one 4x4 Sudoku each
  (microseconds of mrv) through ``execute`` alone, no database, wall time per unit over the
  2 workers (the local pool sends units as task ids to forked workers; Dask pickles each unit
  with its puzzles, sends it through the scheduler to a worker, then to that worker's child).

Repeats alternate the two executors so that a change of the machine's load falls on both.
Writes ``results/dask.md``.

    python benchmarks/bench_dask.py [--sample 0] [--repeats 2] [--units 400]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.dask_executor import DaskExecutor, parse_executor_spec
from puzzlebench.harness.inputs import read_file, sample
from puzzlebench.harness.runner import WorkUnit
from puzzlebench.harness.workers import LocalExecutor
from puzzlebench.harness.pages import command_line, data_folder, load_now, write_page

DATA = data_folder()
JOBS = 2
LEAD = ("The same bench through the local process pool and through `dask-local:2`, and the harness's cost per unit "
        "on each executor.")


class Counting:
    """An executor that counts the units it was handed (and passes everything through)."""

    def __init__(self, inner):
        self.inner, self.units = inner, 0
        self.jobs = getattr(inner, "jobs", JOBS)

    def execute(self, units):
        def counted():
            for unit in units:
                self.units += 1
                yield unit
        return self.inner.execute(counted())

    def close(self) -> None:
        self.inner.close()


def open_dask() -> tuple[DaskExecutor, float]:
    started = time.perf_counter()
    executor = DaskExecutor(parse_executor_spec(f"dask-local:{JOBS}"))
    return executor, time.perf_counter() - started


def bench_once(items, executor_name: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = BenchConfig(solvers=["mrv"], db=os.path.join(tmp, "d.sqlite"), time_limit=10.0, quiet=True,
                          jobs=JOBS if executor_name == "local" else None)
        start_seconds = 0.0
        if executor_name == "local":
            executor = None  # the bench's own pool, whose workers inherit the catalog (as `bench` runs it)
        else:
            inner, start_seconds = open_dask()
            executor = Counting(inner)
        wall = time.perf_counter()
        outcome = run_bench(items, cfg, executor=executor)
        wall = time.perf_counter() - wall
        if executor is not None:
            executor.close()
    assert outcome.errors == 0 and outcome.exit_code == 0, "the bench itself failed"
    return {"wall": wall, "start": start_seconds, "units": executor.units if executor is not None else None}


def per_unit(executor, puzzle, n: int) -> float:
    units = (WorkUnit("mrv", [k], [puzzle], 2, 10.0) for k in range(n))
    wall = time.perf_counter()
    rows = sum(len(batch) for batch in executor.execute(units))
    wall = time.perf_counter() - wall
    assert rows == n
    return wall / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=0, help="puzzles of top1465 (0: all 1,465)")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--units", type=int, default=400, help="units of one tiny puzzle for the per-unit cost")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="results/dask.md")
    args = ap.parse_args()
    path = DATA / "sudoku9_magictour_top1465.txt"
    items = read_file(str(path))
    items = sample(items, args.sample, args.seed) if args.sample else items
    tiny = read_file(str(DATA / "sudoku4_vu_kr_1000.txt"))[0].puzzle
    load_before = load_now()

    runs: dict[str, list[dict]] = {"local": [], "dask": []}
    unit_cost: dict[str, list[float]] = {"local": [], "dask": []}
    for k in range(args.repeats):
        for name in (("local", "dask") if k % 2 == 0 else ("dask", "local")):
            runs[name].append(bench_once(items, name))
            if name == "local":
                executor = LocalExecutor(JOBS)
            else:
                executor, _ = open_dask()
            try:
                unit_cost[name].append(per_unit(executor, tiny, args.units))
            finally:
                executor.close()
    load_after = load_now()

    local_wall = min(r["wall"] for r in runs["local"])
    dask_wall = min(r["wall"] for r in runs["dask"])
    ratio = dask_wall / local_wall
    ratios = sorted(d["wall"] / l["wall"] for d, l in zip(runs["dask"], runs["local"]))
    units = runs["dask"][0]["units"]
    walls = {name: ", ".join(f"{r['wall']:.2f}" for r in values) for name, values in runs.items()}
    start = statistics.median(r["start"] for r in runs["dask"])
    cost = {name: min(values) * 1e3 for name, values in unit_cost.items()}
    write_page(args.out, title="Dask against the local pool", lead=LEAD, command=command_line(),
               writer="benchmarks/bench_dask.py", loads=[load_before, load_after], lines=[
                   f"## The same bench: mrv on {path.name} ({len(items)} puzzles), 2 workers, 10 s limit", "",
                   "`run_bench` wall time: plan, run, verify, store every row in SQLite.", "",
                   "| executor | bench wall (s) | each repeat (s) | units | cluster start (s) |", "|---|---:|---|---:|---:|",
                   f"| local pool, 2 jobs | {local_wall:.2f} | {walls['local']} | - | - |",
                   f"| dask-local:2 | {dask_wall:.2f} | {walls['dask']} | {units} | {start:.2f} |", "",
                   f"Ratio dask / local: **{ratio:.2f}** (each repeat: {', '.join(f'{r:.2f}' for r in ratios)}); "
                   f"target ≤ 1.15: {'met' if ratio <= 1.15 else 'MISSED'}.", "",
                   f"## The harness's cost per unit ({args.units} units of one 4x4 Sudoku each, mrv)", "",
                   "Wall time per unit through `execute` alone (no database), over the 2 workers.", "",
                   "| executor | ms per unit |", "|---|---:|", f"| local pool, 2 jobs | {cost['local']:.2f} |",
                   f"| dask-local:2 | {cost['dask']:.2f} |"])
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
