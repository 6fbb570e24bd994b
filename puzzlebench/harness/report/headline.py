"""The headline of a campaign (``report --headline``): per kind, size and set, each solver's
puzzles solved within the limit and its shifted geometric mean time with its 95% interval,
fastest first, under a provenance header read from the database's ``runs`` table.

The figures are the standard metrics of :mod:`.tables` and the bootstrap of
:mod:`..uncertainty`, computed per group of puzzles of one kind and size in one set, so that a
set of mixed sizes gives a row per size: "which paradigm wins where, by how much, with what
certainty" at a glance.  Plain data in (the rows of ``results``, the runs), markdown out.
"""

from __future__ import annotations

import re

from ..uncertainty import sgm_interval
from .statistics import VIRTUAL_BEST, MetricOptions, clock_of, outcome
from .tables import standard_metrics

PODIUM = 3   # solvers named in the summary table, fastest first


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


def ranked_solvers(rows: list[dict], options: MetricOptions) -> list[dict]:
    """Each solver of one group: its standard metrics and the interval of its sgm, fastest first."""
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
    """A solver in the summary: its name, its solved count where some puzzle went unsolved, its
    sgm and interval."""
    unsolved = "" if m["solved_in_limit"] == m["puzzles"] else f" ({m['solved_in_limit']}/{m['puzzles']} solved)"
    return f"{m['solver']}{unsolved} {ms(m['sgm'])} {interval(m)}"


def public_command(command: str) -> str:
    """The command with every path outside the working folder given by its file name (a public
    set is known by its name and its MANIFEST entry, not by where one machine keeps it)."""
    words = []
    for word in command.split():
        outside = "/" in word and (word.startswith(("/", "..")) or "/../" in word)
        words.append(word.rsplit("/", 1)[1] if outside else word)
    return " ".join(words)


def provenance(runs: list[dict]) -> list[str]:
    """The HTML comment that opens a page: which benches made its figures, at which commit,
    when, where and under which load (the 1-minute load average at each bench's start)."""
    first, last = runs[0], runs[-1]
    loads = [float(run["load"].split()[0]) for run in runs if run["load"]]
    benches = list(dict.fromkeys(public_command(run["command"] or "") for run in runs))
    return ["<!--", "provenance:",
            *(f"  bench: {bench}" for bench in benches),
            f"  commit: {', '.join(sorted({run['git_commit'] or 'unknown' for run in runs}))}",
            f"  date: {first['started']} to {last['finished'] or last['started']}",
            f"  machine: {last['cpu_model']}, {last['cores']} cores, "
            f"{(last['memory_bytes'] or 0) / 2**30:.0f} GiB, {last['platform']}, Python {last['python']}",
            f"  load: {min(loads):.2f} to {max(loads):.2f}" if loads else "  load: unknown",
            "-->"]


def checks(rows: list, disagreements: int) -> str:
    """What the cross-checks found, in a sentence."""
    puzzles = [r for r in rows if r["kind"] is not None]
    wrong = sum(1 for r in puzzles if r["wrong"])
    errors = sum(1 for r in puzzles if r["status"] == "error")
    killed = sum(1 for r in puzzles if r["status"] == "timeout" and r["error"])
    return (f"Every answer was verified by the puzzle's own checker and every two solvers that finished a puzzle "
            f"were cross-checked: {disagreements} disagreements, {wrong} wrong answers, {errors} errors; "
            f"{killed} runs overran their limit by more than the grace and were killed (counted as timeouts).")


def summary_lines(table: dict, runs: list[dict], options: MetricOptions) -> list[str]:
    """The title, what the figures are, and a row per kind, size and set naming its fastest solvers."""
    last = runs[-1]
    lines = ["# Results", "",
             "Which paradigm solves which puzzles fastest: per kind, size and set, each solver's puzzles "
             f"solved within the time limit and its shifted geometric mean time (ms; shift {ms(options.shift)} ms, "
             "an unsolved puzzle at its limit) with its 95% bootstrap interval over the puzzles.", "",
             f"Run on {last['started'][:10]}, commit {(last['git_commit'] or 'unknown')[:12]}, {last['cpu_model']} "
             f"({last['cores']} cores), {clock_of(options.time_key)} time, by the "
             "benches named in the header above.", "",
             "| kind | size | set | puzzles | limit s | fastest, sgm ms [95% CI] | second | third |",
             "|---|---|---|---:|---:|---|---|---|"]
    for (kind, size, set_name), ranked in table.items():
        podium = [podium_cell(m) for m in ranked[:PODIUM]] + ["-"] * (PODIUM - len(ranked[:PODIUM]))
        lines.append(f"| {kind} | {size} | {set_name} | {ranked[0]['puzzles']} | {ranked[0]['time_limit']:g} | "
                     + " | ".join(podium) + " |")
    return lines


def detail_lines(table: dict) -> list[str]:
    """A table per kind, size and set: every solver, fastest first."""
    lines = ["Every solver, fastest first (solved: within the limit, of the set's puzzles):", ""]
    for (kind, size, set_name), ranked in table.items():
        lines += [f"**{kind} {size}**, {set_name}", "", "| solver | solved | sgm ms | 95% CI ms |",
                  "|---|---:|---:|---:|"]
        lines += [f"| {m['solver']} | {m['solved_in_limit']}/{m['puzzles']} | {ms(m['sgm'])} | {interval(m)} |"
                  for m in ranked]
        lines.append("")
    return lines


def headline(rows: list, runs: list[dict], disagreements: int, options: MetricOptions) -> str:
    """The headline page of a database's ``rows`` (repetitions folded to their median) and ``runs``."""
    table = {key: ranked_solvers(group, options) for key, group in groups(rows).items()}
    lines = [*provenance(runs), "", *summary_lines(table, runs, options), "",
             checks(rows, disagreements), "", *detail_lines(table)]
    return "\n".join(lines) + "\n"
