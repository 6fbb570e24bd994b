"""The memory budget against what processes really take: each engine and
export target on empty Sudoku grids of growing blocks (2x2 to 8x8), each run a command of its
own whose peak resident set is read from ``wait4`` (the largest process of its tree), beside
the budget's estimate for it.  Appends a row a run to ``results/budget.jsonl``; ``--table``
prints that file as the tables of ``results/budget.md``.

    python benchmarks/bench_budget.py [--boxes 2,3,4,5,6,7,8] [--cases solve:sat,export:dimacs,...]
                                      [--wall 900] [--guard-mb 4096] [--code NAME]
    python benchmarks/bench_budget.py --table [--code NAME]

One run at a time.  A run whose tree passes ``--guard-mb`` is killed (its row says so), and
a size is not started when the one before it, grown as the formula grows (n^4), would pass
the guard.  An empty grid is the largest formula of its shape (no given removes a clause).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlebench.encoders.budget import MB
from puzzlebench.harness.database import git_commit
from puzzlebench.harness.pages import load_now
from puzzlebench.runtime.programs import Program, kill_session

SOLVERS = ("sat", "sat:minisat22", "sat:glucose4", "sat:cadical195", "sat:lingeling", "sat:kissat404",
           "sat:maplechrono", "quine", "ext:cadical", "cpsat", "cpsat:bool", "smt", "smt:bool",
           "smt:bool@amo=pairwise", "dlx", "dlx-py", "mrv")
EXPORTS = ("dimacs", "smt2", "smt2-bool", "smt2-fold", "dlx", "opb", "cpsat", "xcsp3", "minizinc")
CASES = tuple(f"solve:{s}" for s in SOLVERS) + tuple(f"export:{t}" for t in EXPORTS)


def empty_grid(folder: Path, box: int) -> Path:
    n = box * box
    path = folder / f"empty{n}.txt"
    path.write_text(" ".join(["0"] * (n * n)) + "\n")
    return path


def command(case: str, grid: Path, box: int, out: Path) -> list[str]:
    how, _, what = case.partition(":")
    shape = ["--kind", "sudoku", "--box", f"{box}x{box}"]
    if how == "solve":
        return ["solve", str(grid), *shape, "--solver", what, "--format", "jsonl"]
    return ["export", str(grid), *shape, "--to", what, "-o", str(out)]


def estimate(case: str, box: int) -> int | None:
    """What the budget estimates for the case (``None``: it makes no estimate)."""
    from puzzlebench.encoders.registry import export_format, function
    from puzzlebench.models.sudoku import Sudoku
    from puzzlebench.engines.registry import make_engine

    n = box * box
    puzzle = Sudoku((box, box), [0] * (n * n))
    how, _, what = case.partition(":")
    if how == "solve":
        return make_engine(what).estimated_bytes(puzzle)
    entry = export_format(what)
    return function(entry.estimate)(puzzle) if entry.estimate else None


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and its descendants now."""
    import psutil
    try:
        root = psutil.Process(pid)
        return sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return 0


def run(argv: list[str], wall: float, guard: int) -> dict:
    """One command: its exit, peak resident set (``wait4``, through the runtime's ``Program``),
    wall seconds, and its first line of error (a refusal's, or a program's first complaint),
    killed with its session past ``wall`` seconds or a tree past ``guard`` bytes."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = Program([sys.executable, "-m", "puzzlebench", *argv], stdout=subprocess.DEVNULL, stderr=err,
                       start_new_session=True)
        killed = None
        while True:
            try:
                proc.wait(timeout=0.05)
                break
            except subprocess.TimeoutExpired:
                killed = (f"killed at {wall:.0f} s" if time.perf_counter() - started > wall
                          else f"killed past {guard // MB} MB" if tree_rss(proc.pid) > guard else None)
                if killed:
                    kill_session(proc)
                    proc.wait()
                    break
        err.seek(0)
        lines = err.read().decode(errors="replace").splitlines()
    return {"exit": proc.returncode, "peak_mb": round(proc.rusage.ru_maxrss / 1024, 1),
            "seconds": round(time.perf_counter() - started, 1), "killed": killed,
            "error": lines[0] if lines else ""}


def commit() -> str:
    """The commit measured, ``+`` when the tree has changes beside it."""
    full = git_commit() or "unknown"
    return full[:7] + ("+" if full.endswith("+dirty") else "")


def cell(row: dict) -> str:
    """A run in a table: the estimate and the peak (MB of 2^20 bytes), or what stopped it."""
    guess = "-" if row["estimate_mb"] is None else f"{row['estimate_mb']:,.0f}"
    if row["killed"]:
        return f"{guess} / {row['peak_mb']:,.0f} ({row['killed']})"
    if row["exit"] == 2 and "estimated" in row["error"]:
        return f"{guess}: refused ({row['peak_mb']:,.0f})"
    return f"{guess} / {row['peak_mb']:,.0f}" + ("" if row["exit"] == 0 else f" (exit {row['exit']})")


def tables(rows: list[dict], code: str | None) -> str:
    """A table a code measured (or ``code``'s alone): a row a case, a column a grid, the
    estimate and the peak of each run (the last run of a case and grid counts)."""
    out = []
    for version in dict.fromkeys(r.get("code", "?") for r in rows):
        if code is not None and version != code:
            continue
        mine = {(r["case"], r["box"]): r for r in rows if r.get("code", "?") == version}
        boxes = sorted({box for _, box in mine}, key=lambda b: int(b.split("x")[0]))
        out += [f"### {version}", "", "| case | " + " | ".join(f"{int(b[0]) ** 2}x{int(b[0]) ** 2}" for b in boxes) + " |",
                "|---|" + "---:|" * len(boxes)]
        for case in dict.fromkeys(c for c, _ in mine):
            out.append(f"| `{case}` | " + " | ".join(cell(mine[case, b]) if (case, b) in mine else ""
                                                    for b in boxes) + " |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", default="2,3,4,5,6,7,8")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--wall", type=float, default=900.0)
    parser.add_argument("--guard-mb", type=int, default=4096)
    parser.add_argument("--out", default="results/budget.jsonl")
    parser.add_argument("--code", default=None, help="what the rows are of (default: the commit measured)")
    parser.add_argument("--table", action="store_true", help="print the rows of --out as tables")
    args = parser.parse_args()
    if args.table:
        print(tables([json.loads(line) for line in open(args.out)], args.code))
        return
    code = args.code or commit()
    boxes = [int(b) for b in args.boxes.split(",")]
    guard = args.guard_mb * MB
    rows = []
    with tempfile.TemporaryDirectory() as tmp, open(args.out, "a") as log:
        folder = Path(tmp)
        for case in args.cases.split(","):
            before = None
            for box in boxes:
                if before is not None and before["peak_mb"] * MB * (box / (box - 1)) ** 4 > guard:
                    print(f"{case} {box}x{box}: not started (the {box - 1}x{box - 1} peak, grown, passes the guard)",
                          file=sys.stderr)
                    break
                guess = estimate(case, box)
                out = folder / "export.out"
                row = {"case": case, "box": f"{box}x{box}", "estimate_mb": None if guess is None else round(guess / MB, 1),
                       **run(command(case, empty_grid(folder, box), box, out), args.wall, guard)}
                out.unlink(missing_ok=True)
                row["code"] = code
                row["date"] = time.strftime("%Y-%m-%d %H:%M")
                row["load"] = float(load_now().split()[0])
                print(json.dumps(row), flush=True)
                log.write(json.dumps(row) + "\n")
                log.flush()
                rows.append(row)
                before = row
                if row["killed"]:
                    break


if __name__ == "__main__":
    main()
