"""Hard near-minimal 25x25: seeded 25x25 Sudoku from puzzlebench's own
generator, kept where CP-SAT as a new user runs it needs 1 s CPU or more; then the native
engine, CP-SAT and CaDiCaL on every kept puzzle, in the same run.

    python benchmarks/bench_hard25.py --make [--check-seconds 0.5] [--seeds 1-19] [--until HH:MM]
    python benchmarks/bench_hard25.py --run [--time-limit 20] [--wall 60] [--specs a,b,...]
    python benchmarks/bench_hard25.py --report RUN[,RUN...]   # results/bitboard.md's section

--make: per seed ``generate sudoku --box 5x5 --count 1 --seed S --check-seconds C`` (a clue not
decided in C s is kept: unique, not proven minimal), then ``cpsat --time-limit 20``; each try in
results/generated/hard25.jsonl, the kept in hard25.txt. --run: limit 2, CPU decides
(``run_limited`` on the CPU clock, a wall limit beside), every engine on a puzzle before the next, into results/hard25.jsonl.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.dispatch import generate
from puzzlebench.harness.pages import load_now, splice_section
from puzzlebench.harness.report import shifted_geometric_mean
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.runtime.child import run_limited
from puzzlebench.runtime.clock import default_wall_limit

BOX = (5, 5)
CDCL = "sat:cadical195@encoding=optimized"
TRIES, SET = Path("results/generated/hard25.jsonl"), Path("results/generated/hard25.txt")
RUNS = Path("results/hard25.jsonl")
SECTION = "## Hard minimal 25x25"
ENGINES = ("bitboard", "cpsat", CDCL)
NEW_USER = "cpsat"        # the default spec, as `puzzlebench solve --solver cpsat --time-limit 20` runs it
NEW_USER_LIMIT = 20.0     # its --time-limit: wall seconds, the CLI's default clock
HARD = 1.0                # CPU seconds CP-SAT needs for a puzzle to be kept


def seed_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last) + 1)


def past(until: str | None) -> bool:
    """Whether the UTC clock is past ``until`` (HH:MM): the generation budget spent."""
    return until is not None and time.strftime("%H:%M", time.gmtime()) >= until


def make(seeds: range, check_seconds: float, until: str | None) -> None:
    """Generate seed by seed, time each, ask CP-SAT; every try appended to TRIES."""
    for seed in seeds:
        if past(until):
            print("budget spent at seed", seed, flush=True)
            break
        started = time.process_time()
        puzzle = next(generate("sudoku", 1, seed, box=BOX, check_seconds=check_seconds))
        made_cpu = time.process_time() - started
        r = make_engine(NEW_USER).run(puzzle, limit=2, time_limit=NEW_USER_LIMIT)
        row = {"seed": seed, "check_seconds": check_seconds, "clues": sum(1 for g in puzzle.givens if g),
               "undecided": puzzle.metadata.get("undecided", 0), "generate_cpu": round(made_cpu, 1),
               "cpsat_status": r.status.value, "cpsat_cpu": round(r.times.cpu, 2),
               "kept": r.times.cpu >= HARD, "load": float(load_now().split()[0]), "puzzle": puzzle.write()}
        with open(TRIES, "a") as out:
            out.write(json.dumps(row) + "\n")
        print(seed, row["clues"], row["undecided"], row["generate_cpu"], row["cpsat_status"], row["cpsat_cpu"],
              flush=True)
    write_set()


def tries() -> list[dict]:
    return [json.loads(line) for line in open(TRIES)]


def write_set() -> None:
    """The kept puzzles, each after a comment line saying how to make it again."""
    lines = ["# Hard near-minimal 25x25 Sudoku, made by benchmarks/bench_hard25.py --make:",
             "# puzzlebench generate sudoku --box 5x5 --count 1 --seed SEED --check-seconds C, kept where",
             f"# cpsat (--time-limit {NEW_USER_LIMIT:g}) needed >= {HARD:g} s CPU. check_seconds is wall time: a",
             "# check near it may end the other way on another machine, so the puzzle is kept here as made."]
    for row in tries():
        if row["kept"]:
            lines += [f"# seed {row['seed']} check_seconds {row['check_seconds']:g} clues {row['clues']} "
                      f"undecided {row['undecided']} generate_cpu {row['generate_cpu']:.0f} s "
                      f"cpsat {row['cpsat_status']} {row['cpsat_cpu']:.2f} s", row["puzzle"]]
    SET.write_text("\n".join(lines) + "\n")


def kept_puzzles() -> list[tuple[int, object]]:
    """(seed, puzzle) of the set file, the seed read from the comment line above each."""
    out, seed = [], None
    for line in SET.read_text().splitlines():
        if line.startswith("# seed "):
            seed = int(line.split()[2])
        elif line and not line.startswith("#"):
            out.append((seed, parse_sudoku_line(line, box=BOX)))
    return out


def one_run(spec: str, puzzle, time_limit: float, wall: float) -> dict:
    """One run through ``run_limited``, counted to 2 on the CPU clock with ``wall`` beside it."""
    r = run_limited(make_engine(spec), [puzzle], limit=2, time_limit=time_limit, keep=2, clock="cpu",
                    wall_limit=wall)[0]
    assert r.status is Status.TIMEOUT or r.verified, (spec, r.status, r.error)
    return {"spec": spec, "seed": 0, "status": r.status.value, "cpu": r.times.cpu, "wall": r.times.total,
            "nodes": r.stats.nodes, "restarts": r.stats.raw.get("restarts")}


def run(specs: tuple[str, ...], time_limit: float, wall: float) -> str:
    """Every spec on a puzzle before the next (counted to 2, CPU decides, the same wall
    allowance for all), appended to RUNS under one run id."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
    before = load_now()
    with open(RUNS, "a") as out:
        for seed, puzzle in kept_puzzles():
            for spec in specs:
                row = one_run(spec, puzzle, time_limit, wall)
                out.write(json.dumps({"run": stamp, "puzzle_seed": seed, "limit": time_limit, "wall_limit": wall,
                                      "load": float(load_now().split()[0]), **row}) + "\n")
                out.flush()
                print(seed, spec, row["status"], f"{row['cpu']:.2f}", row["nodes"], row["restarts"], flush=True)
    with open(RUNS, "a") as out:
        out.write(json.dumps({"run": stamp, "uptime_before": before, "uptime_after": load_now()}) + "\n")
    return stamp


def summary(rows: list[dict], spec: str, limit: float) -> tuple[int, int, float]:
    """Decided, runs, and the shifted geometric mean of CPU (a run out of time at the limit)."""
    mine = [r for r in rows if r.get("spec") == spec]
    decided = sum(r["status"] != "timeout" for r in mine)
    return decided, len(mine), shifted_geometric_mean([min(r["cpu"], limit) if r["status"] != "timeout" else limit for r in mine], 1.0)


def run_table(stamp: str) -> list[str]:
    """One run's summary and per-puzzle tables."""
    rows = [r for r in map(json.loads, open(RUNS)) if r["run"] == stamp]
    loads = next(r for r in rows if "uptime_before" in r)
    rows = [r for r in rows if "spec" in r]
    specs = list(dict.fromkeys(r["spec"] for r in rows))
    limit = rows[0]["limit"]
    command = "--run" + (f" --specs {','.join(specs)}" if tuple(specs) != ENGINES else "")
    lines = [f"`python benchmarks/bench_hard25.py {command} --wall {rows[0]['wall_limit']:g}`, run of {stamp} UTC: "
             f"counted to 2, {limit:g} s CPU and {rows[0]['wall_limit']:g} s wall a run, "
             f"seed 0. Load before: `{loads['uptime_before']}`; after: `{loads['uptime_after']}`.", "",
             "| engine | decided | SGM CPU s (shift 1 s, out of time at the limit) |", "|---|---:|---:|"]
    for spec in specs:
        decided, runs, mean = summary(rows, spec, limit)
        lines.append(f"| `{spec}` | {decided}/{runs} | {mean:.2f} |")
    lines += ["", "| puzzle (generator seed) | " + " | ".join(f"`{s}` CPU s | nodes" for s in specs) + " |",
              "|---:|" + "---:|---:|" * len(specs)]
    for seed in dict.fromkeys(r["puzzle_seed"] for r in rows):
        cells = []
        for spec in specs:
            r = next(r for r in rows if r["puzzle_seed"] == seed and r["spec"] == spec)
            shown = f"{r['cpu']:.2f}" if r["status"] != "timeout" else f"out ({r['cpu']:.1f})"
            extra = f" ({r['restarts']} restarts)" if r.get("restarts") else ""
            cells += [shown, f"{r['nodes']:,}{extra}" if r["nodes"] is not None else "—"]
        lines.append(f"| {seed} | " + " | ".join(cells) + " |")
    return lines + [""]


def set_lines() -> list[str]:
    made = tries()
    kept = [r for r in made if r["kept"]]
    checks = ", ".join(sorted({f"{r['check_seconds']:g}" for r in made}))
    return [f"The set, results/generated/hard25.txt (`python benchmarks/bench_hard25.py --make`, every try in "
            f"results/generated/hard25.jsonl): {len(made)} seeded 25x25 from `puzzlebench generate sudoku --box 5x5 "
            f"--count 1 --seed S --check-seconds C` (seeds {made[0]['seed']}-{made[-1]['seed']}, C = "
            f"{checks} s), {len(kept)} kept where "
            f"`cpsat` with `--time-limit {NEW_USER_LIMIT:g}` needed >= {HARD:g} s CPU. Clues "
            f"{min(r['clues'] for r in kept)}-{max(r['clues'] for r in kept)} (of 625); of them "
            f"{min(r['undecided'] for r in kept)}-{max(r['undecided'] for r in kept)} kept because their check "
            "was not decided within C s: unique, near-minimal, not proven minimal. Generating one took "
            f"{min(r['generate_cpu'] for r in made):.0f}-{max(r['generate_cpu'] for r in made):.0f} s CPU, "
            f"{sum(r['generate_cpu'] + r['cpsat_cpu'] for r in made) / 60:.0f} min of CPU for the set with "
            f"CP-SAT's looks (load average {min(r['load'] for r in made):.1f}-{max(r['load'] for r in made):.1f}).",
            ""]


def verdict(stamp: str) -> list[str]:
    """The target on one run: the native engine decides at least as many as CP-SAT."""
    rows = [r for r in map(json.loads, open(RUNS)) if r["run"] == stamp and "spec" in r]
    limit = rows[0]["limit"]
    mine, theirs = summary(rows, "bitboard", limit)[0], summary(rows, NEW_USER, limit)[0]
    met = "**met**" if mine >= theirs else "**not met**"
    return [f"Target (the native engine decides at least as many as CP-SAT within {limit:g} s CPU each, in "
            f"the same run): {met}, {mine} against {theirs} of {len(rows) // len(set(r['spec'] for r in rows))}.",
            ""]


def report(stamps: list[str], out: str) -> None:
    """The section of the page: the set, the target, each run's tables (its notes by hand)."""
    lines = [*set_lines(), *verdict(stamps[0])]
    for stamp in stamps:
        lines += run_table(stamp)
    splice_section(out, SECTION, lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--make", action="store_true", help="generate, ask CP-SAT, keep the hard ones")
    ap.add_argument("--check-seconds", type=float, default=0.5, help="--make: each uniqueness check's limit")
    ap.add_argument("--seeds", default="1-19", help="--make: generator seeds, a range 'a-b'")
    ap.add_argument("--until", help="--make: stop starting new seeds past this UTC time (HH:MM)")
    ap.add_argument("--run", action="store_true", help="every kept puzzle through --specs, in one run")
    ap.add_argument("--specs", default=",".join(ENGINES), help="--run: engine specs, comma-separated")
    ap.add_argument("--time-limit", type=float, default=20.0, help="--run: CPU seconds a run")
    ap.add_argument("--wall", type=float, help="--run: wall seconds a run (default 1.5 x the limit + 1)")
    ap.add_argument("--report", help="write the section of --out from these run ids, comma-separated")
    ap.add_argument("--out", default="results/bitboard.md")
    ap.add_argument("--runs", default="results", help="the folder of hard25.jsonl and generated/")
    args = ap.parse_args()
    global TRIES, SET, RUNS
    TRIES, SET, RUNS = (Path(args.runs) / path.relative_to("results") for path in (TRIES, SET, RUNS))
    if args.make:
        make(seed_range(args.seeds), args.check_seconds, args.until)
    elif args.report:
        report(args.report.split(","), args.out)
    elif args.run:
        stamp = run(tuple(args.specs.split(",")), args.time_limit, args.wall or default_wall_limit(args.time_limit))
        print("\n".join(run_table(stamp)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
