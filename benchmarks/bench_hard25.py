"""Hard near-minimal 25x25: seeded 25x25 Sudoku from puzzlebench's own
generator, kept where CP-SAT as a new user runs it needs 1 s CPU or more; then the native
engine, CP-SAT and CaDiCaL on every kept puzzle, in the same run.

    python benchmarks/bench_hard25.py --make [--check-seconds 0.5] [--recheck-seconds S] [--seeds 1-19] [--set NAME] [--keep-over 1.0]
    python benchmarks/bench_hard25.py --write-set [--set NAME] [--keep-over 1.0]   # the set again from its tries
    python benchmarks/bench_hard25.py --run [--time-limit 20] [--wall 60] [--specs a,b,...] [--engine-seeds 0-2]
    python benchmarks/bench_hard25.py --report RUN[,RUN...]   # results/bitboard.md's section

--make: per seed ``generate sudoku --box 5x5 --count 1 --seed S --check-seconds C`` (a clue not
decided in C s is kept: unique, not proven minimal; with ``--recheck-seconds R`` those clues
checked again for R s each), then ``cpsat --time-limit 20``; each try in
results/generated/hard25.jsonl, those CP-SAT took ``--keep-over`` s of CPU or more for (decided
or not) in hard25.txt. --run: limit 2, CPU decides
(``puzzlebench.solve`` on the CPU clock, a wall limit beside), every engine on a puzzle before the
next, at each engine seed (an engine that takes none at seed 0 only), into results/hard25.jsonl.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.dispatch import generate
from puzzlebench.harness.pages import (append_rows, decided, decided_sgm, load_now, md_table, paired_figures, race,
                                       read_rows, run_row, seed_range, speedup_words, splice_section, told_apart)
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.runtime.clock import default_wall_limit

BOX = (5, 5)
SECTION = "## Hard minimal 25x25"
ENGINES = ("bitboard", "cpsat", "sat:cadical195@encoding=optimized")
NATIVE, CADICAL = ENGINES[0], ENGINES[2]
NEW_USER = "cpsat"        # the default spec, as `puzzlebench solve --solver cpsat --time-limit 20` runs it
NEW_USER_LIMIT = 20.0     # its --time-limit: wall seconds, the CLI's default clock
HARD = 1.0                # CPU seconds CP-SAT needs for a puzzle to be kept (--keep-over)


def make(seeds: range, check_seconds: float, recheck_seconds: float | None, tries: Path) -> None:
    """Generate seed by seed, time each, ask CP-SAT; every try appended to ``tries`` as it
    comes (a run stopped keeps what it made)."""
    for seed in seeds:
        started = time.process_time()
        puzzle = next(generate("sudoku", 1, seed, box=BOX, check_seconds=check_seconds,
                               recheck_seconds=recheck_seconds))
        made_cpu = time.process_time() - started
        r = make_engine(NEW_USER).run(puzzle, limit=2, time_limit=NEW_USER_LIMIT)
        append_rows(tries, [{"seed": seed, "check_seconds": check_seconds, **rechecked(recheck_seconds),
                             "clues": sum(1 for g in puzzle.givens if g),
                             "undecided": puzzle.metadata.get("undecided", 0), "generate_cpu": round(made_cpu, 1),
                             "cpsat_status": r.status.value, "cpsat_cpu": round(r.times.cpu, 2),
                             "load": float(load_now().split()[0]),
                             "puzzle": puzzle.write()}])


def rechecked(recheck_seconds: float | None) -> dict:
    """A try's recheck limit, where it had one (the tries before the option have none)."""
    return {} if recheck_seconds is None else {"recheck_seconds": recheck_seconds}


def check_label(row: dict) -> str:
    """How a try's clues were checked: ``C`` or ``C/R`` (C s each, R s for a recheck)."""
    return f"{row['check_seconds']:g}" + (f"/{row['recheck_seconds']:g}" if "recheck_seconds" in row else "")


def kept(row: dict, hard: float) -> bool:
    """Whether a try goes into the set: CP-SAT took ``hard`` s of CPU or more, decided or not (a
    run out of its wall time with less CPU says nothing: the machine was busy)."""
    return row["cpsat_cpu"] >= hard


def latest(tries: list[dict]) -> list[dict]:
    """Each seed's last try, in the order of their first (a seed made again, with a recheck,
    replaces its earlier puzzle)."""
    return list({row["seed"]: row for row in tries}.values())


def write_set(tries: list[dict], path: Path, hard: float) -> None:
    """The kept puzzles, each after a comment line saying how to make it again."""
    lines = ["# Hard near-minimal 25x25 Sudoku, made by benchmarks/bench_hard25.py --make:",
             "# puzzlebench generate sudoku --box 5x5 --count 1 --seed SEED --check-seconds C",
             "# [--recheck-seconds R, where check_seconds reads C/R], kept where",
             f"# cpsat (--time-limit {NEW_USER_LIMIT:g}) needed >= {hard:g} s CPU. check_seconds is wall time: a",
             "# check near it may end the other way on another machine, so the puzzle is kept here as made."]
    for row in (row for row in latest(tries) if kept(row, hard)):
        lines += [f"# seed {row['seed']} check_seconds {check_label(row)} clues {row['clues']} "
                  f"undecided {row['undecided']} generate_cpu {row['generate_cpu']:.0f} s "
                  f"cpsat {row['cpsat_status']} {row['cpsat_cpu']:.2f} s", row["puzzle"]]
    path.write_text("\n".join(lines) + "\n")


def kept_puzzles(path: Path) -> tuple[list[int], list]:
    """The seeds (each read from the comment line above its puzzle) and puzzles of the set file."""
    seeds, puzzles = [], []
    for line in path.read_text().splitlines():
        if line.startswith("# seed "):
            seeds.append(int(line.split()[2]))
        elif line and not line.startswith("#"):
            puzzles.append(parse_sudoku_line(line, box=BOX))
    return seeds, puzzles


def run(specs: list[str], time_limit: float, wall: float, set_file: Path, runs: Path, engine_seeds: range) -> None:
    """Every spec and engine seed on a puzzle before the next (counted to 2, CPU decides, the
    same wall allowance for all), appended to ``runs`` under one run id, the load before and after."""
    stamp, before = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), load_now()
    seeds, puzzles = kept_puzzles(set_file)
    append_rows(runs, (run_row(spec, seed, r, run=stamp, puzzle_seed=seeds[k], limit=time_limit, wall_limit=wall)
                       for k, seed, spec, r in race(puzzles, specs, seeds=engine_seeds, time_limit=time_limit,
                                                    clock="cpu", wall_limit=wall)))
    append_rows(runs, [{"run": stamp, "uptime_before": before, "uptime_after": load_now()}])


def run_table(every: list[dict], stamp: str) -> list[str]:
    """One run's summary (a row an engine and seed) and per-puzzle table (its first seed)."""
    loads = next(r for r in every if r["run"] == stamp and "uptime_before" in r)
    rows = [r for r in every if r["run"] == stamp and "spec" in r]
    specs, limit, wall = list(dict.fromkeys(r["spec"] for r in rows)), rows[0]["limit"], rows[0]["wall_limit"]
    seeds = sorted({r["seed"] for r in rows})
    command = ("--run" + (f" --specs {','.join(specs)}" if tuple(specs) != ENGINES else "")
               + (f" --engine-seeds {seeds[0]}-{seeds[-1]}" if seeds != [0] else ""))
    per_puzzle = []
    for seed in dict.fromkeys(r["puzzle_seed"] for r in rows):
        row = [seed]
        for r in (next(r for r in rows if r["puzzle_seed"] == seed and r["spec"] == spec and r["seed"] == seeds[0])
                  for spec in specs):
            extra = f" ({r['restarts']} restarts)" if r.get("restarts") else ""
            row += [f"{r['cpu']:.2f}" if decided(r) else f"out ({r['cpu']:.1f})",
                    f"{r['nodes']:,}{extra}" if r["nodes"] is not None else "—"]
        per_puzzle.append(row)
    summary = [[f"`{spec}`", str(seed), f"{done}/{len(mine)}", f"{mean:.2f}"] for spec in specs for seed in seeds
               for mine in [[r for r in rows if r["spec"] == spec and r["seed"] == seed]] if mine
               for done, mean in [decided_sgm(mine, limit)]]
    return [f"`python benchmarks/bench_hard25.py {command} --wall {wall:g}`, run of {stamp} UTC: "
            f"counted to 2, {limit:g} s CPU and {wall:g} s wall a run, engine seeds {', '.join(map(str, seeds))} "
            f"(an engine that takes none at seed 0 only). Load before: `{loads['uptime_before']}`; after: "
            f"`{loads['uptime_after']}`.", "",
            *md_table(["engine", "seed", "decided", "SGM CPU s (shift 1 s, out of time at the limit)"], summary), "",
            f"Per puzzle, seed {seeds[0]}:", "",
            *md_table(["puzzle (generator seed)", *(f"`{s}` CPU s | nodes" for s in specs)], per_puzzle,
                      "r" * (1 + 2 * len(specs))), ""]


def set_lines(made: list[dict], set_file: Path, hard: float) -> list[str]:
    made = latest(made)
    chosen = [r for r in made if kept(r, hard)]
    checks = ", ".join(sorted({check_label(r) for r in made}))
    rechecks = any("recheck_seconds" in r for r in made)

    def span(key, rows, fmt="{}"):
        return f"{fmt.format(min(r[key] for r in rows))}-{fmt.format(max(r[key] for r in rows))}"
    return [f"The set, results/generated/{set_file.name} (`python benchmarks/bench_hard25.py --make`, every try in "
            f"results/generated/{set_file.stem}.jsonl): {len(made)} seeded 25x25 from `puzzlebench generate sudoku --box 5x5 "
            "--count 1 --seed S --check-seconds C`"
            + (" and, on some, `--recheck-seconds R`" if rechecks else "")
            + f" (seeds {made[0]['seed']}-{made[-1]['seed']}, C" + ("/R" if rechecks else "")
            + " = "
            f"{checks} s), {len(chosen)} kept where `cpsat` with `--time-limit {NEW_USER_LIMIT:g}` needed >= {hard:g} "
            f"s CPU. Clues {span('clues', chosen)} (of 625); of them {span('undecided', chosen)} "
            "kept because their check "
            "was not decided within C s: unique, near-minimal, not proven minimal. Generating one took "
            f"{span('generate_cpu', made, '{:.0f}')} s CPU, "
            f"{sum(r['generate_cpu'] + r['cpsat_cpu'] for r in made) / 60:.0f} min of CPU for the set with "
            f"CP-SAT's looks (load average {span('load', made, '{:.1f}')}).", ""]


def verdict(every: list[dict], stamps: list[str]) -> list[str]:
    """The targets on each run, seed by seed: the native engine decides at least as many as
    each other engine, with a shifted geometric mean no worse than CaDiCaL's; then every seed's
    runs against CaDiCaL's, puzzle by puzzle, pooled."""
    lines, pooled = [], []
    for stamp in stamps:
        rows = [r for r in every if r["run"] == stamp and "spec" in r]
        lines += seed_verdicts(rows)
        pooled += cadical_pairs(rows)
    if pooled:
        f = paired_figures(*zip(*pooled), pooled[0][0]["limit"])
        lines.append(f"- every seed pooled against CaDiCaL's run at that seed ({f['runs']} pairs, a puzzle and a "
                     f"seed each): {paired_words(f)}.")
    return [f"Targets (the native engine decides at least as many as every other engine within "
            f"{next(r['limit'] for r in every if r['run'] == stamps[0] and 'spec' in r):g} s CPU "
            "each, in the same run, with a shifted geometric mean no worse than CaDiCaL's; a reference that takes "
            "no seed counted at its seed 0). Beside each, the native engine's runs paired with CaDiCaL's "
            "puzzle by puzzle: the speed-up (CaDiCaL's SGM over the native engine's) with its 95% bootstrap "
            "interval over the pairs, the puzzles only one of the two decided (the exact McNemar test's p) and "
            "the Wilcoxon signed-rank test's p of a change in time beyond 5% (docs/METHODS.md): \"not told "
            "apart\" where none of the three leaves level out at the 5% level.", "", *lines, ""]


def cadical_pairs(rows: list[dict]) -> list[tuple[dict, dict]]:
    """One run's (native row, CaDiCaL's row) on each puzzle at each native seed, CaDiCaL's at
    that seed where it ran there, else at seed 0."""
    runs = {(r["spec"], r["seed"], r["puzzle_seed"]): r for r in rows}
    ran_at = {seed for spec, seed, _ in runs if spec == CADICAL}
    partners = {key: runs.get((CADICAL, key[1] if key[1] in ran_at else 0, key[2])) for key in runs if key[0] == NATIVE}
    return [(runs[key], partner) for key, partner in partners.items() if partner is not None]


def paired_words(f: dict) -> str:
    """:func:`paired_figures` in a verdict's words."""
    return (f"speed-up {speedup_words(f)}, decided by one only {f['only'][0]} / {f['only'][1]} (p "
            f"{f['p_decided']:.2f}), Wilcoxon p {f['p_time']:.2f}: "
            + ("told apart" if told_apart(f) else "not told apart"))


def seed_verdicts(rows: list[dict]) -> list[str]:
    """One run's verdict lines, an engine seed each."""
    limit, lines, pairs = rows[0]["limit"], [], cadical_pairs(rows)
    for seed in sorted({r["seed"] for r in rows if r["spec"] == NATIVE}):
        at = lambda spec: decided_sgm([r for r in rows if r["spec"] == spec and r["seed"] == (
            seed if any(x["spec"] == spec and x["seed"] == seed for x in rows) else 0)], limit)
        (mine, mean), others = at(NATIVE), [s for s in dict.fromkeys(r["spec"] for r in rows) if s != NATIVE]
        decides = all(mine >= at(s)[0] for s in others)
        faster = CADICAL not in others or mean <= at(CADICAL)[1]
        lines.append(f"- seed {seed}: decided {mine}, against " + ", ".join(f"`{s}` {at(s)[0]}" for s in others)
                     + (f"; SGM {mean:.2f} s against CaDiCaL's {at(CADICAL)[1]:.2f} s" if CADICAL in others else "")
                     + f": {'**met**' if decides and faster else '**not met**'}" + paired_at(pairs, seed, limit) + ".")
    return lines


def paired_at(pairs: list[tuple[dict, dict]], seed: int, limit: float) -> str:
    """The verdict's words on the native engine's runs at ``seed`` paired with CaDiCaL's
    (:func:`cadical_pairs`)."""
    at = [pair for pair in pairs if pair[0]["seed"] == seed]
    return f"; paired: {paired_words(paired_figures(*zip(*at), limit))}" if at else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--make", action="store_true", help="generate, ask CP-SAT, keep the hard ones")
    ap.add_argument("--check-seconds", type=float, default=0.5, help="--make: each uniqueness check's limit")
    ap.add_argument("--recheck-seconds", type=float, help="--make: the recheck of each clue left undecided")
    ap.add_argument("--seeds", type=seed_range, default="1-19", help="--make: generator seeds, a range 'a-b'")
    ap.add_argument("--run", action="store_true", help="every kept puzzle through --specs, in one run")
    ap.add_argument("--specs", default=",".join(ENGINES), help="--run: engine specs, comma-separated")
    ap.add_argument("--engine-seeds", type=seed_range, default="0-0", help="--run: engine seeds, a range 'a-b'")
    ap.add_argument("--time-limit", type=float, default=20.0, help="--run: CPU seconds a run")
    ap.add_argument("--wall", type=float, help="--run: wall seconds a run (default 1.5 x the limit + 1)")
    ap.add_argument("--report", help="write the section of --out from these run ids, comma-separated")
    ap.add_argument("--out", default="results/bitboard.md")
    ap.add_argument("--runs", type=Path, default=Path("results"), help="the folder of hard25.jsonl and generated/")
    ap.add_argument("--set", default="hard25", help="the set's name: generated/NAME.txt and its tries NAME.jsonl")
    ap.add_argument("--keep-over", type=float, default=HARD,
                    help="--make, --write-set, --report: CPU seconds CP-SAT needs for a try to be in the set")
    ap.add_argument("--write-set", action="store_true", help="write the set again from its tries")
    args = ap.parse_args()
    tries, set_file = args.runs / f"generated/{args.set}.jsonl", args.runs / f"generated/{args.set}.txt"
    runs, section = args.runs / "hard25.jsonl", SECTION if args.set == "hard25" else f"{SECTION}: {args.set}"
    if args.make:
        make(args.seeds, args.check_seconds, args.recheck_seconds, tries)
        write_set(read_rows(tries), set_file, args.keep_over)
    elif args.write_set:
        write_set(read_rows(tries), set_file, args.keep_over)
    elif args.run:
        run(args.specs.split(","), args.time_limit, args.wall or default_wall_limit(args.time_limit), set_file, runs,
            args.engine_seeds)
    elif args.report:
        every, stamps = read_rows(runs), args.report.split(",")
        unknown = [stamp for stamp in stamps if not any(r["run"] == stamp and "spec" in r for r in every)]
        if unknown:
            ap.error(f"--report: no run {unknown[0]!r} in {runs}")
        splice_section(args.out, section, set_lines(read_rows(tries), set_file, args.keep_over)
                       + verdict(every, stamps)
                       + [line for stamp in stamps for line in run_table(every, stamp)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
