"""What the report's intervals and tests cost: ``puzzlebench report`` on a 5,000-row database.

Databases made through the real Database class (seeded log-normal times, some timeouts):
``plain``: 2 sets x 5 solvers x 500 puzzles; ``repeats``: 2 sets x 5 solvers x 100 puzzles x
5 repetitions (the noise as well).  Each is reported in this process by the real command
(``main(["report", ...])``, table to a null stream), with and without ``--baseline``, and as
``--compare`` of the database against itself; wall and CPU time, best of ``--repeats``.
Target: under 5 s each with every interval and test.  ``--large N``: also one set of N puzzles
and 2 solvers (the 17-clue set's size, 49,158, is a bench a user runs), no target.  Writes
``results/report.md``.

    python benchmarks/bench_report.py [--rows 5000] [--repeats 3] [--large 49158]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from pathlib import Path

import numpy as np


from puzzlebench.cli import main
from puzzlebench.harness.pages import command_line, load_now, write_page
from puzzlebench.harness.database import Database


SETS, SOLVERS, TIME_LIMIT = 2, 5, 1.0


def make_db(path: Path, rows: int, repetitions: int, seed: int = 1, sets: int = SETS, solvers: int = SOLVERS) -> int:
    """A results database of about ``rows`` rows: sets x solvers x puzzles x repetitions."""
    rng = np.random.default_rng(seed)
    puzzles = rows // (sets * solvers * repetitions)
    columns: dict[str, list] = {name: [] for name in ("set_name", "line", "solver", "status", "t_total",
                                                       "puzzle_hash", "repetition", "count")}
    for s in range(sets):
        hardness = rng.lognormal(-4.0, 1.2, puzzles)
        for k in range(solvers):
            speed = 1.0 + 0.15 * k
            for p in range(puzzles):
                for r in range(repetitions):
                    t = hardness[p] * speed * rng.lognormal(0.0, 0.1)
                    late = t > TIME_LIMIT
                    columns["set_name"].append(f"set{s}")
                    columns["line"].append(p + 1)
                    columns["solver"].append(f"solver{k}")
                    columns["status"].append("timeout" if late else "unique")
                    columns["t_total"].append(TIME_LIMIT if late else t)
                    columns["puzzle_hash"].append(f"h{s}-{p}")
                    columns["repetition"].append(r + 1)
                    columns["count"].append(0 if late else 1)
    columns["t_solve"] = columns["t_total"]
    db = Database(path)
    run = db.start_run(command="bench_report", seed=seed, settings={}, engines={})
    db.write_columns(run, columns, {"limit_": 2, "t_parse": 0.0, "t_encode": 0.0, "t_decode": 0.0, "verified": 1,
                                    "wrong": 0, "kind": "sudoku", "shape": "9x9", "time_limit": TIME_LIMIT})
    db.close()
    return len(columns["line"])


def timed(argv: list[str], repeats: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``main(argv)`` over ``repeats`` runs."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(argv)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        assert code == 0, argv
    return min(walls), min(cpus)


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--large", type=int, default=0, metavar="N", help="also one set of N puzzles, 2 solvers")
    parser.add_argument("--out", default="results/report.md")
    args = parser.parse_args()
    load, lines = load_now(), ["| database | rows | repetitions | command | wall s | CPU s | target < 5 s |",
                               "|---|---:|---:|---|---:|---:|---|"]
    cases = [("plain", args.rows, 1, SETS, SOLVERS), ("repeats", args.rows, 5, SETS, SOLVERS)]
    if args.large:
        cases.append(("large", 2 * args.large, 1, 1, 2))
    with tempfile.TemporaryDirectory() as folder:
        for name, rows, repetitions, sets, solvers in cases:
            path = Path(folder) / f"{name}.sqlite"
            n = make_db(path, rows, repetitions, sets=sets, solvers=solvers)
            for label, extra in (("report", []), ("report --baseline solver0", ["--baseline", "solver0"]),
                                 ("report --compare (itself)", None)):
                argv = (["report", "--compare", str(path), str(path)] if extra is None
                        else ["report", "--db", str(path), *extra])
                wall, cpu = timed(argv, args.repeats)
                target = "-" if name == "large" else "met" if wall < 5 else "missed"
                lines.append(f"| {name} | {n:,} | {repetitions} | `{label}` | {wall:.2f} | {cpu:.2f} | {target} |")
                print(lines[-1], flush=True)
    write_page(args.out, title="`puzzlebench report`: the cost of intervals and tests",
               lead=f"What the report's bootstrap intervals and paired tests cost on databases of {args.rows:,} rows"
                    f"{f' and {2 * args.large:,}' if args.large else ''}.",
               command=command_line(), writer="benchmarks/bench_report.py", loads=[load, load_now()], lines=lines)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main_bench()
