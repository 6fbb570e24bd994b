"""``report --format html``: a results database as one page a person can look at.

``DIR/index.html`` holds the CSS, the script, the figures (matplotlib's SVG, inline) and the
data of every table as one embedded JSON; it opens from ``file://`` and fetches nothing.  The
per-puzzle table is drawn a page of rows at a time from that JSON, so that 50,000 puzzles open
and sort at once.  Each puzzle's page is a hash route of the same file (``#puzzle/K``): its
drawing and every solver's full record live in ``DIR/puzzles/chunk-N.js`` beside the page,
loaded by a ``<script>`` element when a puzzle of the chunk is opened (no fetch, which
``file://`` refuses), so that the page itself stays small.  Every text from the database is
escaped (HTML) or set as text by the script.
"""

from __future__ import annotations

import html
import json
import math
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..errors import PuzzleError, UsageError
from ..models.kinds import kind_entry
from ..models.reader import parse
from ..outputs import write_output
from ..runtime.interrupts import ctrl_c_kept
from .crosscheck import FINISHED
from .database import INPUT_SOLVER, database_files
from .report import Metric, compare_caption, metrics_caption, page_plots, table_columns, time_limit_words

CHUNK = 200
"""Puzzles a chunk file holds: a puzzle's page loads one file of about this many records."""
DRAWN = 1000
"""Puzzles drawn at most (the first in the table's order); the rest show their text."""
SLOWEST_SHARE = 0.01
NO_RESULT = "This database holds no result: there is no table, figure or puzzle to show."
FLAGS = {"disagree": 1, "timeout": 2, "memout": 4, "slowest": 8, "error": 16}
RECORD_FIELDS = ("status", "count", "verified", "wrong", "t_parse", "t_encode", "t_solve", "t_decode", "t_total",
                 "t_cpu", "batch_size", "peak_memory", "baseline_memory", "nodes", "guesses", "backtracks",
                 "conflicts", "propagations", "size", "raw_stats", "error", "limit_", "time_limit", "memory_limit",
                 "clock", "repetition", "engine_seed", "memory_mechanism", "certificate", "prover", "proof_bytes",
                 "prove_seconds", "check_seconds", "run_id", "runs")


@dataclass
class Section:
    """One set's part of the page: its tables (HTML) and figures (SVG)."""

    title: str
    tables: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)


def write_page(out: Path, title: str, header: str, sections: list[Section], results: list,
               texts: dict, databases: list[str], key: Callable = None, given: str = "") -> Path:
    """``out/index.html`` and its puzzle chunks; ``results``: the rows of the per-puzzle table
    (every solver's name as its column's), ``texts``: the stored puzzles by (set, hash),
    ``databases``: the paths of the databases read, whose files no page may replace."""
    key = key or (lambda r: (r["set_name"], r["puzzle_id"], r["puzzle_hash"], r["limit_"]))
    table, chunks = puzzle_table(results, texts, key)
    try:
        (out / "puzzles").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {given or out}: cannot write there: {exc.strerror}") from None
    inputs = [name for path in databases for name in database_files(path)]
    for number, chunk in enumerate(chunks):
        write_output(str(out / "puzzles" / f"chunk-{number}.js"), f"PB.chunk({number}, {_json(chunk)});\n",
                     "--out", inputs)
    page = out / "index.html"
    write_output(str(page), _page(title, header, sections, table), "--out", inputs)
    return page


def _json(value) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` can close it)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")


def _finite(value):
    return None if isinstance(value, float) and not math.isfinite(value) else value


# -- the header ---------------------------------------------------------------------------------

def header_html(runs: list[dict], where: str) -> str:
    """The campaign: every run's command, limits, clock and commit; the last run's machine and
    every engine's version."""
    if not runs:
        return f"<p>{_e(where)}: no run recorded.</p>"
    last = runs[-1]
    engines: dict[str, dict] = {}
    for run in runs:
        engines.update(_loads(run.get("engines")) or {})
    memory = last.get("memory_bytes")
    machine = [("CPU", last.get("cpu_model")), ("cores", last.get("cores")),
               ("memory", f"{memory / 2 ** 30:.1f} GiB" if memory else None), ("load (1, 5, 15 min)", last.get("load")),
               ("platform", last.get("platform")), ("Python", last.get("python")),
               ("puzzlebench", last.get("package_version")), ("commit", last.get("git_commit"))]
    rows = []
    for run in runs:
        settings = _loads(run.get("settings")) or {}
        limits = ", ".join(f"{name} {settings[name]}" for name in ("time_limit", "memory_limit", "limit", "clock",
                                                                  "wall_limit", "repeat", "jobs")
                           if settings.get(name) is not None)
        rows.append([run.get("id"), run.get("started"), run.get("finished"), run.get("command"), limits,
                     run.get("seed"), run.get("git_commit"), run.get("load")])
    return (f"<p class=db>Database: <code>{_e(where)}</code></p><div class=facts>"
            + _dl("Machine (last run)", machine)
            + _dl("Engines", [(spec, f"{v.get('library')} {v.get('version')}") for spec, v in sorted(engines.items())])
            + "</div>" + _static_table("runs", ["run", "started", "finished", "command", "limits and clock", "seed",
                                                "commit", "load"], rows, sortable=False))


def _loads(text):
    try:
        return json.loads(text) if text else None
    except (TypeError, ValueError):
        return None


def _dl(title: str, pairs) -> str:
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e('-' if v is None else v)}</dd>" for k, v in pairs)
    return f"<section class=card><h3>{_e(title)}</h3><dl>{items}</dl></section>"


def _e(value) -> str:
    return html.escape(str(value), quote=True)


# -- a set's section ----------------------------------------------------------------------------

def set_section(name: str, summary: list[dict], metrics: list[dict], rows: list, time_key: str,
                pair: tuple[str, str] | None = None) -> Section:
    """The summary, the status counts, the standard metrics and the figures of one set."""
    section = Section(name)
    mine = [r for r in summary if r["set"] == name]
    limits = time_limit_words(mine)
    section.tables.append(_summary_table(mine, f"Summary ({limits})", "summary"))
    stats = table_columns(mine, "statistics")
    if stats:
        section.tables.append(_table_of(mine, stats, "Search statistics (over solved puzzles)", "stats"))
    section.tables.append(status_counts(rows))
    theirs = [m for m in metrics if m["set"] == name]
    if theirs:
        section.tables.append(_table_of(theirs, table_columns(theirs, "standard"), metrics_caption(theirs), "metrics"))
    section.figures = figures_svg(rows, time_key, pair)
    return section


def _summary_table(rows: list[dict], caption: str, role: str) -> str:
    return _table_of(rows, table_columns(rows, "summary", page=True), caption, role)


def _table_of(rows: list[dict], columns: list[Metric], caption: str, role: str) -> str:
    """A sortable table; each cell's ``data-v`` is its value to sort by (the number, not its text)."""
    head = "".join(f"<th data-key={_e(m.key)}>{_e(m.header_of(rows))}</th>" for m in columns)
    body = []
    for row in rows:
        cells = "".join(f"<td{_cell_class(row, m)} data-v='{_e(_sort_value(row, m))}'>{_e(m.cell(row))}</td>"
                        for m in columns)
        flags = " ".join(f"has-{s}" for s in ("timeouts", "errors", "memouts", "wrong") if row.get(s))
        body.append(f"<tr data-solver='{_e(row.get('solver'))}' data-status='{flags}'>{cells}</tr>")
    return (f"<table class='sortable {role}'><caption>{_e(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def _cell_class(row: dict, column: Metric) -> str:
    """A cell shown in red: claims of absence some of which went unproved under ``--certify``."""
    unproved = column.key == "certified" and row.get("claims") and row.get("certified") != row.get("claims")
    return " class='unproved'" if unproved else ""


def _sort_value(row: dict, column: Metric):
    value = _finite(column.sort_value(row))
    return "" if value is None else value


def _static_table(role: str, head: list[str], rows: list[list], sortable: bool = True,
                  solver_first: bool = False) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join((f"<tr data-solver='{_e(row[0])}'>" if solver_first else "<tr>") + "".join(f"<td data-v='{_e('' if v is None else v)}'>{_e('-' if v is None else v)}</td>"
                                    for v in row) + "</tr>" for row in rows)
    return (f"<table class='{'sortable ' if sortable else ''}{role}'><thead><tr>{th}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def status_counts(rows: list) -> str:
    """Solvers by status: how many of the set's puzzles each answered so."""
    counts: dict[str, dict[str, int]] = {}
    for r in rows:
        status = "wrong" if r["wrong"] else r["status"]
        by = counts.setdefault(r["solver"], {})
        by[status] = by.get(status, 0) + 1
    statuses = sorted({s for by in counts.values() for s in by}, key=_status_order)
    return ("<h4>Status counts</h4>" + _static_table("counts", ["solver", *statuses],
                                                     [[solver, *(by.get(s, 0) for s in statuses)]
                                                      for solver, by in counts.items()], solver_first=True))


def _status_order(status: str) -> tuple:
    order = [*FINISHED, "timeout", "memout", "error", "wrong"]
    return (order.index(status) if status in order else len(order), status)


def figures_svg(rows: list, time_key: str, pair: tuple[str, str] | None = None) -> list[str]:
    """The set's figures of the plots' registry shown on the page (cactus, ECDF, performance
    profile, the scatter of ``pair``, else of its first two solvers) as SVG text, by
    matplotlib's SVG back end (text kept as text)."""
    with ctrl_c_kept():   # imported here first: a Ctrl-C in it would land in a class being made
        import matplotlib
    out = []
    with tempfile.TemporaryDirectory(prefix="puzzlebench-figures-") as folder, \
            matplotlib.rc_context({"svg.fonttype": "none"}):
        for plot in page_plots():
            for path in plot(rows, Path(folder), time_key=time_key, page=True, pair=pair):
                if path.suffix == ".svg":
                    text = path.read_text(encoding="utf-8")
                    out.append(text[text.index("<svg"):])
    return out


# -- the per-puzzle table -----------------------------------------------------------------------

def puzzle_table(results: list, texts: dict, key: Callable) -> tuple[dict, list[dict]]:
    """The per-puzzle table as columns (one entry a puzzle) and its puzzles' chunks: per puzzle
    its drawing (or text) and every solver's full record."""
    puzzles: dict[tuple, dict[str, object]] = {}
    solvers: dict[str, None] = {}
    for r in results:
        if r["solver"] == INPUT_SOLVER:
            continue
        solvers.setdefault(r["solver"], None)
        puzzles.setdefault(key(r), {})[r["solver"]] = r
    names = list(solvers)
    statuses: dict[str, int] = {}
    sets: dict[str, int] = {}
    columns = {"set": [], "line": [], "hash": [], "kind": [], "flags": [],
               "status": [[] for _ in names], "time": [[] for _ in names], "search": [[] for _ in names]}
    slowest = _slowest(puzzles.values())
    chunks: list[dict] = []
    for index, (k, by_solver) in enumerate(puzzles.items()):
        first = next(iter(by_solver.values()))
        columns["set"].append(sets.setdefault(first["set_name"], len(sets)))
        columns["line"].append(first["line"])
        columns["hash"].append(first["puzzle_hash"])
        columns["kind"].append(first["kind"])
        columns["flags"].append(_flags(by_solver.values()) | (FLAGS["slowest"] if index in slowest else 0))
        for j, solver in enumerate(names):
            r = by_solver.get(solver)
            columns["status"][j].append(None if r is None else statuses.setdefault(_status(r), len(statuses)))
            columns["time"][j].append(None if r is None else _finite(r["t_total"]))
            columns["search"][j].append(None if r is None else _search(r))
        if index % CHUNK == 0:
            chunks.append({})
        stored = texts.get((first["set_name"], first["puzzle_hash"]))
        chunks[-1][index] = {"drawing": _drawings(stored, index < DRAWN),
                             "records": [_record(solver, by_solver[solver]) for solver in names if solver in by_solver]}
    table = {"solvers": names, "statuses": list(statuses), "sets": list(sets), "chunk": CHUNK, **columns}
    return table, chunks


def _status(r) -> str:
    return "wrong" if r["wrong"] else r["status"]


def _search(r):
    for name in ("nodes", "conflicts"):
        if r[name] is not None:
            return r[name]
    return None


def _flags(rows) -> int:
    rows = list(rows)
    flags = 0
    answers = {(r["status"], r["count"]) for r in rows if r["status"] in FINISHED and not r["wrong"]}
    if len(answers) > 1:
        flags |= FLAGS["disagree"]
    for r in rows:
        flags |= FLAGS.get(r["status"], 0) if r["status"] in ("timeout", "memout") else 0
        flags |= FLAGS["error"] if r["status"] == "error" or r["wrong"] else 0
    return flags


def _slowest(puzzles: Iterable[dict]) -> set[int]:
    """The puzzles (by index) of the slowest share: the largest time any solver took on them."""
    worst = [max((r["t_total"] or 0.0 for r in by.values()), default=0.0) for by in puzzles]
    n = max(1, math.ceil(len(worst) * SLOWEST_SHARE)) if worst else 0
    return set(sorted(range(len(worst)), key=lambda i: -worst[i])[:n])


def _record(solver: str, r) -> dict:
    keys = r.keys()
    record = {"solver": solver}
    for name in RECORD_FIELDS:
        if name in keys and r[name] is not None:
            value = r[name]
            record[name] = (_loads(value) or value) if name in ("raw_stats", "size") else _finite(value)
    return record


def _drawings(stored: dict | None, draw: bool) -> dict:
    """The puzzle and its solution drawn (SVG where the kind draws one, else its text form);
    what is said instead when the database holds no text of it."""
    if stored is None:
        return {"note": "This database holds no text of the puzzle (stored before puzzle texts were)."}
    if not draw:
        return {"text": stored["text"], "solution_text": stored["solution"],
                "note": f"Drawings are made for the first {DRAWN:,} puzzles of a report; this is its text."}
    try:
        puzzle = parse(stored["text"], kind=stored["kind"], box=_box(stored["box"]))
    except (PuzzleError, UsageError) as exc:
        return {"text": stored["text"], "note": f"The stored text does not read back: {exc}"}
    solution = None
    if stored["solution"]:
        try:
            solution = puzzle.parse_solution(stored["solution"])
        except PuzzleError:
            solution = None
    out = {"text": stored["text"], "solution_text": stored["solution"]}
    out["puzzle"] = _draw(puzzle, None)
    if solution is not None:
        out["solution"] = _draw(puzzle, solution)
    else:
        out["note"] = "No verified solution stored: no solver of the bench solved it."
    return out


def _draw(puzzle, solution) -> dict:
    """``{"svg": ...}``: the kind's drawing (its text form inside an SVG where it has none);
    ``{"pre": ...}``, its text grid, where drawing fails (never a broken page)."""
    try:
        return {"svg": kind_entry(puzzle.kind).draw(puzzle, solution)}
    except Exception:
        return {"pre": puzzle.pretty(solution)}


def _box(text: str | None):
    if not text:
        return None
    rows, _, cols = text.partition("x")
    return int(rows), int(cols)


# -- the whole report ---------------------------------------------------------------------------

def report_page(out: Path, given: str, where: str, results: list, summary: list[dict], metrics: list[dict],
                runs: list[dict], texts: dict, time_key: str, pair: tuple[str, str] | None = None) -> Path:
    """``report --format html``: the campaign, a section per set, every puzzle."""
    by_set: dict[str, list] = {}
    for r in results:
        if r["solver"] != INPUT_SOLVER:
            by_set.setdefault(r["set_name"], []).append(r)
    sections = [set_section(name, summary, metrics, rows, time_key, pair) for name, rows in by_set.items()]
    title = f"puzzlebench report: {Path(where).name}"
    header = header_html(runs, where) + ("" if by_set else f"<p class=note id=empty>{_e(NO_RESULT)}</p>")
    return write_page(out, title, header, sections, results, texts, [where], given=given)


# -- compare ------------------------------------------------------------------------------------

def compare_page(out: Path, given: str, names: list[str], sides: list[list], rows: list[dict],
                 runs: list[list[dict]], texts: list[dict], margin: float) -> Path:
    """``report --compare A B --format html``: the compare table, and every puzzle of either
    side with each solver's run in A and in B side by side (puzzles paired by content)."""
    section = Section("Changes from A to B")
    section.tables.append(_table_of(rows, table_columns(rows, "compare"), compare_caption(rows, *names, margin), "compare"))
    header = "".join(f"<h3>{side}</h3>{header_html(found, name)}" for side, found, name in zip("AB", runs, names))
    results = [{**dict(r), "solver": f"{side}: {r['solver']}"} for side, found in zip("AB", sides) for r in found
               if r["solver"] != INPUT_SOLVER]
    title = f"puzzlebench compare: {Path(names[0]).name} to {Path(names[1]).name}"
    return write_page(out, title, header, [section], results, {**texts[1], **texts[0]}, names,
                      key=lambda r: (r["set_name"], r["puzzle_hash"], r["limit_"]), given=given)


# -- the page -----------------------------------------------------------------------------------

def _page(title: str, header: str, sections: list[Section], table: dict) -> str:
    nav = "".join(f"<a href='#set-{i}'>{_e(s.title)}</a>" for i, s in enumerate(sections))
    parts = []
    for i, s in enumerate(sections):
        figures = "".join(f"<figure>{svg}</figure>" for svg in s.figures)
        parts.append(f"<section class=set id='set-{i}'><h2>{_e(s.title)}</h2>"
                     f"<div class=filters data-for='set-{i}'></div>{''.join(s.tables)}"
                     f"<div class=figures>{figures}</div></section>")
    values = {"TITLE": _e(title), "CSS": CSS, "HEADER": header, "NAV": nav, "SECTIONS": "".join(parts),
              "DATA": _json(table), "SCRIPT": SCRIPT}
    return re.sub(r"@([A-Z]+)@", lambda m: values[m.group(1)], PAGE)   # one pass: no text is read twice


def read_asset(name: str) -> str:
    return (Path(__file__).parent / "html" / name).read_text(encoding="utf-8")


PAGE = read_asset("page.html")
CSS = read_asset("report.css")
SCRIPT = read_asset("report.js")
