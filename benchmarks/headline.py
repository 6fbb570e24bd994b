"""The headline of results/README.md: per kind, size and set, each paradigm's solved count and
shifted geometric mean time with its 95% interval, read from a campaign's results database.

    python benchmarks/headline.py --db results/bench.sqlite > headline.md

The figures are ``puzzlebench report``'s standard metrics (solved within the limit; the shifted
geometric mean, shift 10 ms, an unsolved puzzle counted at its limit) and its percentile bootstrap
(docs/METHODS.md), computed per group of puzzles of one kind and size in one set, so that a set
of mixed sizes gives a row per size.  The provenance (command, commit, date, machine, load) comes
from the database's ``runs`` table and opens the output as an HTML comment.
"""

from __future__ import annotations

import argparse
import re
import sys

from puzzlebench import PuzzlebenchError
from puzzlebench.harness.database import open_existing
from puzzlebench.harness.report import VIRTUAL_BEST, MetricOptions, median_runs, outcome, standard_metrics
from puzzlebench.harness.uncertainty import ratio_interval

PODIUM = 3   # paradigms named in the summary table, fastest first
ONE_SECOND = 1.0


def sgm_interval(capped: list[float], shift: float) -> tuple[float, float] | None:
    """The 95% bootstrap interval of the shifted geometric mean of ``capped`` (seconds): the
    report's paired bootstrap of sgm(times) / sgm(1 s, ...), whose denominator is 1 in every
    resample, so that the interval is the report's own method and seed."""
    return ratio_interval(capped, [ONE_SECOND] * len(capped), shift)


def groups(rows: list) -> dict[tuple[str, str, str], list[dict]]:
    """The rows by (kind, size, set), ordered by kind (in the database's order), then size (its
    first number), then the set's place in the database."""
    out: dict[tuple[str, str, str], list[dict]] = {}
    for row in rows:
        if row["kind"] is not None:   # a line that was not a puzzle has no kind
            out.setdefault((row["kind"], row["shape"] or "", row["set_name"]), []).append(dict(row))
    place = {key: i for i, key in enumerate(out)}
    kinds = {kind: i for i, kind in reversed(list(enumerate(key[0] for key in out)))}

    def order(key: tuple[str, str, str]) -> tuple:
        size = re.match(r"\d+", key[1])
        return kinds[key[0]], int(size.group()) if size else 0, place[key]
    return {key: out[key] for key in sorted(out, key=order)}


def paradigm_rows(rows: list[dict], options: MetricOptions) -> list[dict]:
    """Each solver of one group: puzzles, solved, sgm and its interval (seconds), fastest first."""
    out = []
    for metric in standard_metrics(rows, options):
        if metric["solver"] == VIRTUAL_BEST:
            continue
        capped = [outcome(r, options).capped for r in rows if r["solver"] == metric["solver"]]
        interval = None if None in capped else sgm_interval(capped, options.shift)
        out.append({**metric, "interval": interval})
    return sorted(out, key=lambda m: (m["sgm"] is None, m["sgm"] or 0.0, m["solver"]))


def ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    value = seconds * 1000
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def interval(m: dict) -> str:
    return "-" if m["interval"] is None else f"[{ms(m['interval'][0])}, {ms(m['interval'][1])}]"


def podium_cell(m: dict) -> str:
    """A paradigm in the summary: its name, its solved count where some puzzle went unsolved,
    its sgm and interval."""
    unsolved = "" if m["solved_in_limit"] == m["puzzles"] else f" ({m['solved_in_limit']}/{m['puzzles']} solved)"
    return f"{m['solver']}{unsolved} {ms(m['sgm'])} {interval(m)}"


def public_command(command: str) -> str:
    """The command with every path outside the repository given by its file name (a public set
    is known by its name and its MANIFEST entry, not by where one machine keeps it)."""
    words = []
    for word in command.split():
        outside = "/" in word and (word.startswith(("/", "..")) or "/../" in word)
        words.append(word.rsplit("/", 1)[1] if outside else word)
    return " ".join(words)


def provenance(runs: list[dict], command: str) -> list[str]:
    """The HTML comment that opens a page: what made its figures, at which commit, when, where
    and under which load (the 1-minute load average at each bench's start)."""
    first, last = runs[0], runs[-1]
    loads = [float(run["load"].split()[0]) for run in runs if run["load"]]
    benches = list(dict.fromkeys(public_command(run["command"] or "") for run in runs))
    return ["<!--", "provenance:",
            f"  command: {command}",
            *(f"  bench: {bench}" for bench in benches),
            f"  commit: {', '.join(sorted({run['git_commit'] or 'unknown' for run in runs}))}",
            f"  date: {first['started']} to {last['finished'] or last['started']}",
            f"  machine: {last['cpu_model']}, {last['cores']} cores, "
            f"{(last['memory_bytes'] or 0) / 2**30:.0f} GiB, {last['platform']}, Python {last['python']}",
            f"  load: {min(loads):.2f} to {max(loads):.2f}" if loads else "  load: unknown",
            "-->"]


def database(db_path: str) -> tuple[list, list[dict], int, MetricOptions]:
    """The results (repetitions folded to their median, as the report does), the runs, the
    count of disagreements between solvers, the options."""
    options = MetricOptions()
    db = open_existing(db_path)
    try:
        return median_runs(db.results(), options.time_key), db.runs(), len(db.disagreements()), options
    finally:
        db.close()


def checks(rows: list, disagreements: int) -> str:
    """What the cross-checks found, in a sentence."""
    puzzles = [r for r in rows if r["kind"] is not None]
    wrong = sum(1 for r in puzzles if r["wrong"])
    errors = sum(1 for r in puzzles if r["status"] == "error")
    killed = sum(1 for r in puzzles if r["status"] == "timeout" and r["error"])
    return (f"Every answer was verified by the puzzle's own checker and every two solvers that finished a puzzle "
            f"were cross-checked: {disagreements} disagreements, {wrong} wrong answers, {errors} errors; "
            f"{killed} runs overran their limit by more than the grace and were killed (counted as timeouts).")


def summary_lines(table: dict, runs: list[dict], command: str) -> list[str]:
    """The title, what the figures are, and a row per kind, size and set naming its fastest paradigms."""
    machine = runs[-1]
    lines = ["# Results", "",
             "Which paradigm solves which puzzles fastest: per kind, size and set, each paradigm's puzzles "
             "solved within the time limit and its shifted geometric mean time (ms; shift 10 ms, an unsolved "
             "puzzle at its limit) with its 95% bootstrap interval over the puzzles.", "",
             f"Made by `{command}` on {machine['started'][:10]}, commit {(machine['git_commit'] or 'unknown')[:12]}, "
             f"{machine['cpu_model']} ({machine['cores']} cores), wall time, two workers at once: the ratios between "
             "paradigms are the point. Details, figures and every counter per set: "
             "[bench/summary.md](bench/summary.md).", "",
             "| kind | size | set | puzzles | limit s | fastest, sgm ms [95% CI] | second | third |",
             "|---|---|---|---:|---:|---|---|---|"]
    for (kind, size, set_name), ranked in table.items():
        podium = [podium_cell(m) for m in ranked[:PODIUM]] + ["-"] * (PODIUM - len(ranked[:PODIUM]))
        lines.append(f"| {kind} | {size} | {set_name} | {ranked[0]['puzzles']} | {ranked[0]['time_limit']:g} | "
                     + " | ".join(podium) + " |")
    return lines


def detail_lines(table: dict) -> list[str]:
    """A table per kind, size and set: every paradigm, fastest first."""
    lines = ["Every paradigm, fastest first (solved: within the limit, of the set's puzzles):", ""]
    for (kind, size, set_name), ranked in table.items():
        lines += [f"**{kind} {size}**, {set_name}", "", "| paradigm | solved | sgm ms | 95% CI ms |",
                  "|---|---:|---:|---:|"]
        lines += [f"| {m['solver']} | {m['solved_in_limit']}/{m['puzzles']} | {ms(m['sgm'])} | {interval(m)} |"
                  for m in ranked]
        lines.append("")
    return lines


def headline(rows: list, runs: list[dict], disagreements: int, options: MetricOptions, command: str) -> str:
    table = {key: paradigm_rows(group, options) for key, group in groups(rows).items()}
    lines = [*provenance(runs, command), "", *summary_lines(table, runs, command), "",
             checks(rows, disagreements), "", *detail_lines(table)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="results/bench.sqlite", help="the campaign's results database")
    ap.add_argument("--command", default="sh results/make_results.sh",
                    help="the command named in the provenance header")
    ap.add_argument("--provenance-only", action="store_true",
                    help="print the provenance header alone (for a page the report wrote from this database)")
    args = ap.parse_args(argv)
    try:
        rows, runs, disagreements, options = database(args.db)
        if not runs:
            raise PuzzlebenchError(f"{args.db} holds no bench run")
        text = ("\n".join(provenance(runs, args.command)) + "\n" if args.provenance_only
                else headline(rows, runs, disagreements, options, args.command))
    except PuzzlebenchError as exc:
        print(f"headline: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
