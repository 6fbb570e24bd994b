"""What watching for Ctrl-C costs a run: ``solve_many(lines, solver=S)`` on the first N puzzles of
top1465 (limit 2), by the code of several trees in the same run, alternated.

Each measurement is a process of its own that imports one tree's puzzlebench, warms the engine
up (its libraries loaded) and times one ``solve_many`` call: CPU time of the process and of the
children it waited for (a solver run in a child counts), and wall time.  The trees take turns
within each round, their order rotated from round to round; a tree's figure is its best round.
Every answer is checked (``verified``, status unique): a wrong one stops the benchmark.

    python benchmarks/bench_interrupts.py before=TREE main=TREE [--puzzles 800] [--rounds 3]
        [--solvers sat,sat:cadical195,cpsat,smt] [--out results/interrupts.md]

This tree is always one of them (``this``), and so is this tree with SIGINT ignored
(``unwatched``: no Ctrl-C can come, so nothing is watched; PySAT's CaDiCaL runs in-process),
the same code without the cost of the watch.  ``--out`` appends a section to that file: the
table, the command and the date.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

UNWATCHED = " (SIGINT ignored)"
HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
DATA = ROOT.parent / "shared" / "data" / "sudoku9_magictour_top1465.txt"


def measure(tree: str, solver: str, puzzles: int, unwatched: bool) -> dict:
    """One timed ``solve_many`` call by the code of ``tree`` (run in a child of its own)."""
    sys.path.insert(0, tree)
    import resource
    import signal
    import time

    # a Ctrl-C can come, as at a terminal, even where this benchmark was started with SIGINT
    # ignored (a background job): the searches then watch for it, which is what is measured
    signal.signal(signal.SIGINT, signal.SIG_IGN if unwatched else signal.default_int_handler)

    import puzzlebench
    if not Path(puzzlebench.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"puzzlebench: error: {tree}: its puzzlebench was not the one imported")
    from puzzlebench import solve_many
    lines = [line.split()[0] for line in DATA.read_text().splitlines() if line.strip()][:puzzles]
    solve_many(lines[:5], solver=solver)   # the libraries loaded, the engine's first calls made

    def cpu() -> float:
        return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                     resource.getrusage(resource.RUSAGE_CHILDREN)))

    cpu0, wall0 = cpu(), time.perf_counter()
    results = solve_many(lines, solver=solver)
    spent, wall = cpu() - cpu0, time.perf_counter() - wall0
    wrong = [i for i, r in enumerate(results) if str(r.status) != "unique" or not r.verified]
    if wrong:
        raise SystemExit(f"{solver} in {tree}: puzzle {wrong[0] + 1} answered {results[wrong[0]].status}")
    return {"cpu": spent, "wall": wall}


def run_child(tree: str, solver: str, puzzles: int) -> dict:
    tree, unwatched = tree.removesuffix(UNWATCHED), tree.endswith(UNWATCHED)
    out = subprocess.run([sys.executable, str(HERE), "--child", tree, "--solvers", solver,
                          "--puzzles", str(puzzles), *(["--unwatched"] if unwatched else [])],
                         capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    if out.returncode:
        raise SystemExit(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}")
    return json.loads(out.stdout)


def commit(tree: str) -> str:
    """The commit a tree holds (its changes beside it, if any), for the record."""
    tree, unwatched = tree.removesuffix(UNWATCHED), tree.endswith(UNWATCHED)
    head = subprocess.run(["git", "-C", tree, "log", "-1", "--format=%h"], capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", tree, "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True).stdout.strip()
    return (head or "?") + (" with changes" if changed else "") + (UNWATCHED if unwatched else "")


def table(trees: dict[str, str], solvers: list[str], runs: dict, puzzles: int) -> list[str]:
    names = list(trees)
    head = " | ".join(f"{n} /s (CPU)" for n in names)
    ratios = " | ".join(f"{n} / {names[0]}" for n in names[1:])
    lines = [f"| solver | {head} | {ratios} | rounds, puzzles/s of CPU |",
             "|---|" + "---:|" * (2 * len(names) - 1) + "---|"]
    for solver in solvers:
        best = {n: puzzles / min(r["cpu"] for r in runs[solver, n]) for n in names}
        rounds = "; ".join(f"{n} " + ", ".join(f"{puzzles / r['cpu']:,.0f}" for r in runs[solver, n]) for n in names)
        lines.append(f"| `{solver}` | " + " | ".join(f"{best[n]:,.0f}" for n in names) + " | "
                     + " | ".join(f"{best[n] / best[names[0]]:.2f}" for n in names[1:]) + f" | {rounds} |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="*", help="NAME=TREE: the code of another checkout or worktree")
    ap.add_argument("--puzzles", type=int, default=800)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--solvers", default="sat,sat:cadical195,cpsat,smt")
    ap.add_argument("--out", help="a results file to append the section to")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--unwatched", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    solvers = args.solvers.split(",")
    if args.child:
        print(json.dumps(measure(args.child, solvers[0], args.puzzles, args.unwatched)))
        return 0
    trees = {}
    for spec in args.trees:
        name, sep, tree = spec.partition("=")
        if not sep or not (Path(tree) / "puzzlebench" / "__init__.py").is_file():
            print(f"puzzlebench: error: {spec}: expected NAME=TREE, a tree with a puzzlebench package",
                  file=sys.stderr)
            return 2
        trees[name] = str(Path(tree).resolve())
    trees["this"] = str(ROOT)
    trees["unwatched"] = str(ROOT) + UNWATCHED
    names = list(trees)
    runs = {(s, n): [] for s in solvers for n in names}
    for r in range(args.rounds):
        for solver in solvers:
            for name in names[r % len(names):] + names[:r % len(names)]:
                runs[solver, name].append(run_child(trees[name], solver, args.puzzles))
                print(f"round {r + 1} {solver} {name}: {runs[solver, name][-1]}", file=sys.stderr, flush=True)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    command = "python benchmarks/bench_interrupts.py " + " ".join(
        f"{n}=TREE" for n in names if n not in ("this", "unwatched")) + f" --puzzles {args.puzzles} --rounds {args.rounds} --solvers {args.solvers}"
    section = [f"## `solve_many` on {args.puzzles} top1465 puzzles, limit 2: puzzles/s of CPU, best of "
               f"{args.rounds} (measured {datetime.date.today().isoformat()})", "",
               *table(trees, solvers, runs, args.puzzles), "",
               f"`{command}`; trees: " + ", ".join(f"{n} = {commit(t)}" for n, t in trees.items())
               + f"; load at the end: `{load}`.", ""]
    print("\n".join(section))
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write("\n".join(section) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
