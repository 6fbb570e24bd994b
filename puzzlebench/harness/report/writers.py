"""The writers of a report's tables: md, LaTeX, CSV and JSON (the HTML page is
:mod:`..html_report`), the raw rows (``report --raw``: CSV, JSON Lines, Parquet) and ``bench``'s
brief table.  Every table's columns are the registry's (:func:`~.metrics.table_columns`), and
every header names the time limit (CSV and JSON: a ``time_limit`` field).
"""

from __future__ import annotations

import csv
import io
import json
import math
import textwrap
from typing import Iterable

from ...errors import UsageError
from ..uncertainty import ALPHA, DEFAULT_MARGIN, RESAMPLES
from .metrics import Metric, percent, table_columns
from .statistics import VIRTUAL_BEST

RAW_FORMATS = ("csv", "jsonl", "parquet")
BINARY_FORMATS = ("parquet",)


def raw_table(reader, where: str = "", params: Iterable = ()) -> tuple[list[str], list[tuple]]:
    """Every column of the ``results`` view and its rows (one per result), from a
    :class:`~.database.ResultsReader`."""
    return reader.columns(), [tuple(row) for row in reader.results(where, params)]


def write_raw(columns: list[str], rows: list[tuple], fmt: str, out) -> None:
    """Write the raw rows to ``out`` (a text stream for csv and jsonl, a path for parquet)."""
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
    elif fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(dict(zip(columns, row))) + "\n")
    elif fmt == "parquet":
        pyarrow, parquet = pyarrow_modules()
        table = pyarrow.table({name: [row[i] for row in rows] for i, name in enumerate(columns)})
        parquet.write_table(table, out)
    else:
        raise ValueError(fmt)


def pyarrow_modules():
    """pyarrow and its parquet module, or the one-line reason they are missing."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise UsageError("--format parquet needs pyarrow (pip install pyarrow)") from None
    return pyarrow, pyarrow.parquet


def _cells(rows: list[dict], columns: list[Metric]) -> list[list[str]]:
    return [[m.cell(row) for m in columns] for row in rows]


def finite_rows(rows: list[dict]) -> list[dict]:
    """The rows with every number that is not finite (an overflow, a division by 0) as
    ``None``: JSON has no such number, and a table shows ``-``."""
    return [{k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}
            for row in rows]


def _seconds(value: float) -> str:
    return f"{value:g} s"


def time_limit_words(rows: list[dict]) -> str:
    """The time limits of table rows in words, for the table's header: one limit, or each
    set's where they differ."""
    by_set: dict[str, list[float]] = {}
    for row in rows:
        limits = by_set.setdefault(row["set"], [])
        if row.get("time_limit") is not None and row["time_limit"] not in limits:
            limits.append(row["time_limit"])
    every = {limit for limits in by_set.values() for limit in limits}
    if not every:
        return "no time limit"
    if len(every) == 1:
        return f"time limit {_seconds(every.pop())} per puzzle"
    return "time limits per puzzle: " + "; ".join(
        f"{name} {' / '.join(_seconds(v) for v in sorted(limits)) or 'none'}" for name, limits in by_set.items())


def _md_table(rows: list[dict], columns: list[Metric]) -> str:
    head = "| " + " | ".join(m.header_of(rows) for m in columns) + " |"
    rule = "|" + "|".join("---" if m.left else "---:" for m in columns) + "|"
    return "\n".join([head, rule] + ["| " + " | ".join(r) + " |" for r in _cells(rows, columns)])


def clock_words(rows: list[dict]) -> str:
    """What the times of a table are, for its header (wall time unless told), and how many
    runs of each pair they summarise."""
    words = ""
    if rows and rows[0].get("clock") == "cpu":
        words += (" Times are CPU time (user + system of the process that ran the engine and of the programs "
                  "it started), but the encode "
                  "and solve columns: CPU time is measured per run, not per phase, so they stay wall time.")
    runs = max((row.get("runs") or 1 for row in rows), default=1)
    if runs > 1:
        words += f" Each pair ran up to {runs} times: the median run is shown."
    if any(row.get("median_lo") is not None for row in rows):
        words += (f" Median 95% CI: percentile bootstrap over the puzzles ({RESAMPLES:,} resamples, seeded;"
                  " docs/METHODS.md).")
    if any(row.get("noise") is not None for row in rows):
        words += (" Noise: a pair's median absolute deviation over its runs' median time, the median over the"
                  " pairs.")
    return words


def markdown(summary: list[dict], metrics: list[dict] | None = None) -> str:
    limits = time_limit_words(summary + (metrics or []))
    stats = table_columns(summary, "statistics")
    text = (f"{limits[0].upper()}{limits[1:]}.{clock_words(summary)}\n\n"
            + _md_table(summary, table_columns(summary, "summary")))
    if stats:
        text += f"\n\nSearch statistics (over solved puzzles; - : the engine has no such counter; {limits})\n\n"
        text += _md_table(summary, stats)
    if metrics:
        text += "\n\n" + metrics_caption(metrics) + "\n\n" + _md_table(metrics, table_columns(metrics, "standard"))
    return text + "\n"


def metrics_caption(metrics: list[dict]) -> str:
    first = metrics[0]
    k, shift = f"{first['par_k']:g}", f"{first['sgm_shift'] * 1000:g} ms"
    text = (f"Standard metrics ({time_limit_words(metrics)}; solved: within the limit; PAR-{k}: mean time, "
            f"an unsolved puzzle counting {k} x its limit; sgm: shifted geometric mean, shift {shift}, "
            f"an unsolved puzzle at its limit; wins: puzzles solved fastest")
    if first.get("baseline"):
        text += (f"; speed-up: the sgm of {first['baseline']} / the solver's, over the puzzles both ran, with its "
                 "95% percentile bootstrap interval (the puzzles resampled in pairs)")
    if any(row.get("reference") is not None for row in metrics):
        text += (f"; difference: the Wilcoxon signed-rank test of a change of more than {percent(first['margin'])} "
                 f"in the log times paired with those of the solver tested against "
                 f"({'the baseline' if first.get('baseline') else 'the least sgm of the set'}) on the puzzles both "
                 f"solved or ran out of time on (timeouts at the limit), its p Holm-adjusted across the table, "
                 f"significant below {ALPHA:g}")
    return text + ")"


def compare_caption(rows: list[dict], name_a: str, name_b: str, margin: float = DEFAULT_MARGIN) -> str:
    limits = [time_limit_words([{"set": r["set"], "time_limit": r[f"time_limit_{side}"]} for r in rows
                                if r[f"puzzles_{side}"]]) for side in ("a", "b")]
    limits = limits[0] if limits[0] == limits[1] else f"A: {limits[0]}; B: {limits[1]}"
    return (f"Changes from A = {name_a} to B = {name_b} ({limits}; puzzles paired by content, those of one "
            "side only counted and left out of every other figure; solved: within the limit; gained / lost: "
            "puzzles solved only in B / only in A; median: of the solved puzzles; answers differ: puzzles both "
            "finished with another status or count; a change is significant where its Holm-adjusted p-value "
            f"across the table is below {ALPHA:g}: solved by the exact McNemar test of gained against lost, time "
            f"and PAR by the Wilcoxon signed-rank test of a change of more than {percent(margin)} in the paired "
            "log times, capped at the limit or scored PAR; otherwise within noise)")


def merged_rows(summary: list[dict], metrics: list[dict] | None) -> list[dict]:
    """The summary rows with their metrics (and the virtual best rows after each set's), for
    the formats of one row per line (csv, json)."""
    if not metrics:
        return summary
    extra = {(m["set"], m["solver"], m["limit"]): m for m in metrics}
    keys = list(dict.fromkeys([*(summary[0] if summary else {}), *metrics[0]]))
    last_of_group = {(row["set"], row["limit"]): i for i, row in enumerate(summary)}
    out = []
    for i, row in enumerate(summary):
        found = extra.get((row["set"], row["solver"], row["limit"]), {})
        out.append({k: row.get(k, found.get(k)) for k in keys})
        best = extra.get((row["set"], VIRTUAL_BEST, row["limit"]))
        if best is not None and last_of_group[(row["set"], row["limit"])] == i:
            out.append({k: best.get(k) for k in keys})
    return out


def csv_text(rows: list[dict]) -> str:
    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buf.getvalue()


def _latex_table(rows: list[dict], columns: list[Metric], caption: str) -> list[str]:
    def esc(text: str) -> str:
        text = text.replace("\\", r"\textbackslash ")
        for ch in "_%&#$":
            text = text.replace(ch, "\\" + ch)
        return text
    spec = "".join("l" if m.left else "r" for m in columns)
    lines = [r"\begin{tabular}{" + spec + "}", r"\hline",
             rf"\multicolumn{{{len(columns)}}}{{l}}{{{esc(caption)}}} \\", r"\hline",
             " & ".join(esc(m.header_of(rows)) for m in columns) + r" \\", r"\hline"]
    lines += [" & ".join(esc(c) for c in r) + r" \\" for r in _cells(rows, columns)]
    return lines + [r"\hline", r"\end{tabular}"]


def latex(summary: list[dict], metrics: list[dict] | None = None) -> str:
    lines = _latex_table(summary, table_columns(summary, "summary"), time_limit_words(summary + (metrics or [])))
    if metrics:
        lines += [""] + _latex_table(metrics, table_columns(metrics, "standard"), metrics_caption(metrics))
    return "\n".join(lines) + "\n"


def render(summary: list[dict], fmt: str, metrics: list[dict] | None = None) -> str:
    """The summary table (and the standard metrics, when given) in a format: md, csv, latex or
    json.  Every table's header names the time limit (csv and json: a ``time_limit`` field)."""
    if fmt == "md":
        return markdown(summary, metrics)
    if fmt == "csv":
        return csv_text(finite_rows(merged_rows(summary, metrics)))
    if fmt == "latex":
        return latex(summary, metrics)
    if fmt == "json":
        return json.dumps(finite_rows(merged_rows(summary, metrics)), indent=1, allow_nan=False) + "\n"
    raise ValueError(fmt)


def render_compare(rows: list[dict], fmt: str, name_a: str, name_b: str, margin: float = DEFAULT_MARGIN) -> str:
    columns = table_columns(rows, "compare")
    caption = compare_caption(rows, name_a, name_b, margin)
    if fmt == "md":
        return caption + "\n\n" + _md_table(rows, columns) + "\n"
    if fmt == "csv":
        return csv_text(finite_rows(rows))
    if fmt == "latex":
        return "\n".join(_latex_table(rows, columns, caption)) + "\n"
    if fmt == "json":
        return json.dumps({"a": name_a, "b": name_b, "rows": finite_rows(rows)}, indent=1, allow_nan=False) + "\n"
    raise ValueError(fmt)


BRIEF_WIDTH = 100
"""The terminal ``bench``'s default table fits: each of its lines is at most this long."""
SHORTEST_NAME = 12   # a solver's name is cut to no fewer characters than this, whatever the width
CUT = "..."          # ASCII: a terminal of any encoding prints it


def brief(summary: list[dict], metrics: list[dict], width: int = BRIEF_WIDTH) -> str:
    """``bench``'s default table, each line at most ``width`` long where a solver's name can be cut
    to fit: the time limit and what the columns are, then per set its name (wrapped) and a line
    per solver of the registry's ``brief`` columns (the full tables: :func:`render`)."""
    rows = [row for row in merged_rows(summary, metrics) if row["solver"] != VIRTUAL_BEST]
    shift = f" (shift {metrics[0]['sgm_shift'] * 1000:g} ms)" if metrics else ""
    limits = time_limit_words(rows)
    lines = textwrap.wrap(f"{limits[0].upper()}{limits[1:]}. Solved: within the limit, of the puzzles run; median: "
                          f"of the solved puzzles; sgm: shifted geometric mean{shift}, an unsolved puzzle "
                          "at its limit; peak: memory above the worker's idle baseline. Every column: --wide.",
                          width)
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["set"], row["limit"]), []).append(row)
    several_limits = {name for name, limit in groups if sum(name == other for other, _ in groups) > 1}
    for (name, limit), mine in groups.items():
        heading = f"{name} (solutions looked for: {limit})" if name in several_limits else name
        lines += [""] + textwrap.wrap(heading, width) + _aligned_table(mine, table_columns(mine, "brief"), width)
    return "\n".join(lines) + "\n"


def _aligned_table(rows: list[dict], columns: list[Metric], width: int) -> list[str]:
    """A markdown table padded into columns, its left-aligned cells (the names) cut, ending in
    "...", where the line would pass ``width``."""
    table = [[m.header_of(rows) for m in columns]] + _cells(rows, columns)
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    spare = width - (sum(widths) + 3 * len(columns) + 1)
    for i, m in enumerate(columns):
        if spare < 0 and m.left:
            cut = max(SHORTEST_NAME, widths[i] + spare, len(table[0][i]))
            spare += widths[i] - cut
            widths[i] = cut
            table = [line[:i] + [_cut(line[i], cut)] + line[i + 1:] for line in table]
    rule = "|" + "|".join("-" * (w + 2) if m.left else "-" * (w + 1) + ":" for m, w in zip(columns, widths)) + "|"
    lines = ["| " + " | ".join(text.ljust(w) if m.left else text.rjust(w)
                               for m, text, w in zip(columns, line, widths)) + " |" for line in table]
    return [lines[0], rule] + lines[1:]


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - len(CUT)] + CUT
