"""CPMpy's path (``cpmpy:BACKEND``: the rules as a CPMpy model, CPMpy's transformation for the
back end, the back end's search) beside puzzlebench's direct CP-SAT model (``cpsat:int``: the
same walk over the rules, written straight into CP-SAT), measured in the same run.  Writes
results/cpmpy.md with the command, the machine, the versions and the load.

    python benchmarks/bench_cpmpy.py [--hardest 20] [--n16 5] [--sky7 5] [--killer 10] [--backends ortools,exact]
                                     [--also ext:minizinc,ext:ace,ext:minisat+]

Every puzzle, limit 2 (find one, prove it unique or find a second), through ``Engine.run`` (encode,
search, decode, verify), each engine on a freshly parsed puzzle, in rotating order, the garbage
collector run before each timed run, after one untimed warm-up run of each engine.  Medians
per puzzle in ms: "model" (puzzlebench's walk over the rules: the CP-SAT model for
``cpsat:int``, CPMpy's expressions for ``cpmpy``, the exported file's text for ``ext``), "transform" (CPMpy's transformation and
posting to the back end, ``solver += model``), "solve" (the search phase as ``Engine.run``
times it), "back end" (what the back end itself reports as its solve time: CP-SAT's wall time,
summed over its calls; for an ``ext:`` engine, its program's processes, start to exit), "total" (encode + solve + decode), "transform / solve" (the median of
each puzzle's ratio), and "total / cpsat:int" (the median of each puzzle's ratio to
``cpsat:int``'s total on the same puzzle in the same run).  Both CP-SAT runs use one worker.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys


import puzzlebench
from puzzlebench.results import SOLVED
from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import command_line, data_lines, load_now, spread, write_page

REFERENCE = "cpsat:int"


def samples(args) -> list[tuple[str, list[str], str]]:
    """(title, puzzle texts, kind): the common sample of results/interop.md (a count of 0 leaves a
    set out)."""
    def sky7(count):
        sky = [l.split(" nsol")[0] for l in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt")
               if l.split()[0] == "7"]
        return spread(sky, count)

    sets = [
        (args.hardest, lambda k: (f"9x9 forum hardest 11+ ({k}, evenly spaced)", [
            l.split()[0] for l in spread(data_lines("sudoku9_forum_hardest_1905_11plus.txt"), k)], "sudoku")),
        (args.n16, lambda k: (f"16x16 vu_kr ({k}, evenly spaced)", [
            l.split()[0] for l in spread(data_lines("sudoku16_vu_kr_1000.txt"), k)], "sudoku")),
        (args.sky7, lambda k: (f"7x7 Skyscrapers, every clue ({k}, evenly spaced)", sky7(k), "skyscrapers")),
        (args.killer, lambda k: (f"9x9 Killer, Tatham's Solo ({k}, evenly spaced)",
                                 spread(data_lines("tatham_solo_killer_3x3_100.txt"), k), "killer")),
    ]
    return [make(count) for count, make in sets if count > 0]


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.2f}" if values else "—"


def ratio(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "—"


def measure(texts: list[str], kind: str, specs: list[str]) -> list[str]:
    engines = {spec: make_engine(spec) for spec in specs}
    for engine in engines.values():   # imports and first-call set-up are not what is measured
        engine.run(puzzlebench.parse(texts[0], kind=kind), limit=2)
    cols = {spec: {k: [] for k in ("model", "transform", "solve", "backend", "total", "t/s", "vs")}
            for spec in specs}
    statuses: dict[str, dict[str, int]] = {spec: {} for spec in specs}
    for k, text in enumerate(texts):
        order = specs[k % len(specs):] + specs[:k % len(specs)]   # no engine always runs first
        totals = {}
        for spec in order:
            puzzle = puzzlebench.parse(text, kind=kind)
            gc.collect()
            result = engines[spec].run(puzzle, limit=2)
            if result.status not in SOLVED or not result.verified:
                sys.exit(f"{spec}: {result.status.value} {result.error or ''} on {text}")
            statuses[spec][result.status.value] = statuses[spec].get(result.status.value, 0) + 1
            raw, c = result.stats.raw, cols[spec]
            if "transform_seconds" in raw:
                c["model"].append(raw["model_seconds"])
                c["transform"].append(raw["transform_seconds"])
                c["t/s"].append(raw["transform_seconds"] / result.times.solve)
            else:
                c["model"].append(result.times.encode)
            c["solve"].append(result.times.solve)
            # the back end's own time: CPMpy's status, CP-SAT's wall time, an external program's processes
            c["backend"].append(raw.get("backend_seconds", raw.get("wall_time", raw.get("process_seconds", 0.0))))
            c["total"].append(result.times.total)
            totals[spec] = (result.times.total, result.count)
        if len({count for _, count in totals.values()}) != 1:
            sys.exit(f"the engines disagree on the count of {text}: {totals}")
        for spec in specs:
            cols[spec]["vs"].append(totals[spec][0] / totals[REFERENCE][0])
    rows = []
    for spec in specs:
        c = cols[spec]
        said = ", ".join(f"{name} {n}" for name, n in sorted(statuses[spec].items()))
        rows.append(f"| `{spec}` | {ms(c['model'])} | {ms(c['transform'])} | {ms(c['solve'])} | "
                    f"{ms(c['backend'])} | {ms(c['total'])} | {ratio(c['t/s'])} | {ratio(c['vs'])} | {said} |")
    return rows


def versions() -> str:
    import importlib.metadata as md
    return f"CPMpy {md.version('cpmpy')}, OR-Tools {md.version('ortools')}, " + ", ".join(
        f"{name} {md.version(dist)}" for name, dist in (("Exact", "exact"), ("python-sat", "python-sat"),
                                                       ("z3-solver", "z3-solver")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("hardest", 20), ("n16", 5), ("sky7", 5), ("killer", 10)):   # 0: the set left out
        ap.add_argument(f"--{name}", type=int, default=default)
    ap.add_argument("--backends", default="ortools", help="CPMpy back ends, comma-separated")
    ap.add_argument("--also", default="", help="other solver specs beside them, comma-separated "
                    "(e.g. ext:minizinc,ext:ace,ext:minisat+: the competition tools under the same Engine.run)")
    ap.add_argument("--out", default="results/cpmpy.md")
    args = ap.parse_args()
    specs = [REFERENCE] + [f"cpmpy:{b.strip()}" for b in args.backends.split(",") if b.strip()]
    specs += [spec.strip() for spec in args.also.split(",") if spec.strip()]
    load = load_now()
    lines = [f"Versions: {versions()}.", "", __doc__.split("\n\n", 2)[2].strip().replace("\n", " "), ""]
    for title, texts, kind in samples(args):
        print(title, file=sys.stderr)
        lines += [f"## {title}", "",
                  "| engine | model | transform | solve | back end | total | transform / solve | "
                  f"total / {REFERENCE} | statuses |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        lines += measure(texts, kind, specs)
        lines.append("")
    print(write_page(args.out, title="CPMpy's transformation beside the direct CP-SAT model",
                     lead=__doc__.split("\n\n")[0].replace("\n", " "), command=command_line(),
                     writer="benchmarks/bench_cpmpy.py", loads=[load, load_now()], lines=lines))


if __name__ == "__main__":
    main()
