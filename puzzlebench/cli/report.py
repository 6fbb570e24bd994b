"""``puzzlebench report``: a results database read back as tables, the field's standard
metrics and plots, its raw rows (``--raw``), or two databases side by side (``--compare A
B``).  The tables and the statistics are :mod:`puzzlebench.harness.report`'s; this module
reads the options, refuses a mistake in one line before anything is printed, and writes.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from pathlib import Path

from ..errors import UsageError
from ..options import FINITE, FRACTION
from ..harness.database import INPUT_SOLVER, database_files, open_existing
from ..harness.report import (BINARY_FORMATS, DEFAULT_MARGIN, DEFAULT_PAR, DEFAULT_SHIFT, PLOTS, RAW_FORMATS,
                               TIME_KEYS, MetricOptions, clock_of, median_runs, rows_without_time, compare,
                               compare_noise_warnings, noise_warnings, puzzles_in_common, pyarrow_modules, raw_table,
                               headline, render, render_compare, solver_named, standard_metrics, summarise, write_raw)
from ..harness.html_report import compare_page, report_page
from ..outputs import check_not_input, check_output, open_output, write_output
from .common import EXIT_OK

TABLE_FORMATS = ("md", "csv", "latex", "json", "html")
TABLE_SUFFIX = {"md": "md", "csv": "csv", "latex": "tex", "json": "json"}


def cmd_report(args) -> int:
    options = _metric_options(args)
    if args.headline and (args.compare or args.raw):
        raise UsageError(f"--headline is a report of one database's table: not with {'--compare' if args.compare else '--raw'}")
    if args.compare:
        return _report_compare(args, options)
    if args.db is None:
        raise UsageError("report needs --db PATH (or --compare A.sqlite B.sqlite)")
    if args.raw:
        return _report_raw(args)
    fmt = args.format or "md"
    if fmt not in TABLE_FORMATS:
        raise UsageError(f"--format {fmt} is for --raw; a report's table is md, csv, latex, json or html")
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        raise UsageError(f"--out {args.out}: a file of that name is in the way; --out names a folder")
    if args.headline and (args.format not in (None, "md") or args.plot):
        raise UsageError("--headline is a markdown page of its own: it takes no --format or --plot")
    _check_html(args, fmt)
    _check_out_folder(args.out, fmt, "headline" if args.headline else "summary", database_files(args.db))
    if args.plot and not args.out:   # before the table: it was printed, then the error (exit 2)
        raise UsageError("--plot needs --out DIR for the figures")
    pair = None
    if args.pair:
        names = [s.strip() for s in args.pair.split(",")]
        if len(names) != 2:
            raise UsageError(f"--pair takes two solvers, A,B; got {args.pair!r}")
        pair = (names[0], names[1])
    db = open_existing(args.db)
    try:
        results = median_runs(db.results(*_selection(args, db)), options.time_key)
        disagreements, runs = db.disagreements(), db.runs()
        options = _with_baseline(options, args, results, db)
    finally:
        db.close()
    _check_clock(options, results, args.db)
    _check_arithmetic(options, results)
    if pair:   # before the table, as every mistake: a name no row has drew nothing, exit 0
        shown = sorted({r["solver"] for r in results} - {INPUT_SOLVER})
        for name in pair:
            if solver_named(name, shown) is None:
                raise UsageError(f"--pair {args.pair}: {name} is not among the solvers this report shows "
                                 f"({', '.join(shown) or 'none'})")
    if args.headline:
        return _write_headline(args, options, results, runs, len(disagreements))
    summary, metrics = summarise(results, options.time_key), standard_metrics(results, options)
    if fmt == "html":
        return _write_html(args, options, results, summary, metrics, pair)
    text = render(summary, fmt, metrics)
    print(text, end="")
    _warn(noise_warnings(metrics))
    if disagreements:
        print(f"{len(disagreements)} disagreements stored in {args.db}", file=sys.stderr)
    if args.out:
        _write_table(Path(args.out), f"summary.{TABLE_SUFFIX[fmt]}", text, args.out, database_files(args.db))
    if args.plot:
        for kind in args.plot:
            paths = PLOTS[kind](results, Path(args.out), time_key=options.time_key, pair=pair)
            for path in paths:
                print(f"wrote {path}", file=sys.stderr)
            if not paths:   # asked for and silently missing: say so (a scatter needs two solvers in a set)
                why = ("no set has both solvers of the pair" if kind == "scatter" and pair else
                       "no set has two solvers" if kind == "scatter" else "no finished result to draw")
                print(f"puzzlebench: --plot {kind}: nothing drawn: {why}", file=sys.stderr)
    return EXIT_OK


def _write_headline(args, options: MetricOptions, results, runs: list[dict], disagreements: int) -> int:
    """``--headline``: the campaign at a glance (:mod:`..harness.report.headline`)."""
    if not runs:
        raise UsageError(f"{args.db} holds no bench run: a headline names the benches that made it")
    text = headline(results, runs, disagreements, options)
    print(text, end="")
    if args.out:
        _write_table(Path(args.out), "headline.md", text, args.out, database_files(args.db))
    return EXIT_OK


def _check_html(args, fmt: str) -> None:
    """``--format html`` writes a folder: it needs ``--out DIR`` and draws its own figures."""
    if fmt != "html":
        return
    if not args.out:
        raise UsageError("--format html writes a page and its files: give --out DIR")
    if args.plot:
        raise UsageError("--format html draws every figure itself; leave out --plot")


def _check_out_folder(out: str | None, fmt: str, stem: str, inputs: list[str]) -> None:
    """The file ``--out DIR`` opens with (its table, or the page) refused before the table is
    printed when it is one of the databases' files; every file is checked again as written."""
    if out:
        check_not_input(str(Path(out) / ("index.html" if fmt == "html" else f"{stem}.{TABLE_SUFFIX[fmt]}")),
                        "--out", inputs)


def _write_html(args, options: MetricOptions, results, summary, metrics, pair) -> int:
    db = open_existing(args.db)
    try:
        runs, texts = db.runs(), db.puzzle_texts()
    finally:
        db.close()
    page = report_page(Path(args.out), args.out, args.db, results, summary, metrics, runs, texts,
                       options.time_key, pair)
    if not results:
        print(f"puzzlebench: {args.db} holds no result: the page says so", file=sys.stderr)
    print(f"wrote {page}", file=sys.stderr)
    return EXIT_OK


def _metric_options(args) -> MetricOptions:
    if not (math.isfinite(args.par) and args.par > 0):
        raise UsageError(f"--par must be more than 0 (a timeout counts K x the time limit); got {args.par:g}")
    if not (math.isfinite(args.shift) and args.shift >= 0):
        raise UsageError(f"--shift must be 0 seconds or more; got {args.shift:g}")
    if not (math.isfinite(args.margin) and 0 <= args.margin < 1):
        raise UsageError(f"--margin must be a share from 0 to below 1 (0.05: five per cent); got {args.margin:g}")
    return MetricOptions(par=args.par, shift=args.shift, time_key=TIME_KEYS[args.clock], margin=args.margin)


def _check_arithmetic(options: MetricOptions, results) -> None:
    """Refuse a ``--par`` or ``--shift`` whose arithmetic over these results leaves the floats
    (a PAR sum that overflows, times over the shift that overflow or underflow)."""
    limits = [r["time_limit"] for r in results if r["time_limit"]]
    if limits and not math.isfinite(options.par * max(limits) * len(results)):
        raise UsageError(f"--par {options.par:g}: {len(results)} results of {max(limits):g} s x {options.par:g} "
                         f"overflow a float; give a smaller K")
    times = [t for r in results for t in (r[options.time_key], r["time_limit"]) if t]
    if options.shift > 0 and times and (not math.isfinite(max(times) / options.shift)
                                        or min(times) / options.shift < sys.float_info.min):
        raise UsageError(f"--shift {options.shift:g}: times of {min(times):g} to {max(times):g} s over this shift "
                         f"leave a float's range; give a shift nearer the times (or 0)")


def _warn(lines: list[str]) -> None:
    for line in lines:
        print(f"puzzlebench: warning: {line}", file=sys.stderr)


def _check_clock(options: MetricOptions, results, where: str) -> None:
    missing = rows_without_time(results, options.time_key)
    if missing:
        raise UsageError(f"--clock {clock_of(options.time_key)}: {missing} finished results in {where} have no "
                         f"{clock_of(options.time_key).upper()} time (stored before it was measured); "
                         f"rerun them or report with --clock wall")


def _selection(args, *dbs) -> tuple[str, list]:
    """The WHERE clause of ``--set`` and ``--solvers``, and its parameters.  Each name must be
    in one of the databases ``dbs``, a family standing for its only spec there as for
    ``--baseline`` (``quine`` for ``quine:h1``, the name ``bench --solvers quine`` stored):
    an exact match alone left such a solver out, and an unknown name gave a table without
    it, exit 0."""
    where, params = [], []
    if not (args.set or args.solvers):
        return "", params
    stored = [db.names() for db in dbs]
    paths = " or ".join(db.path for db in dbs)
    if args.set:
        known = sorted({name for sets, _ in stored for name in sets})
        for name in args.set:
            if name not in known:
                raise UsageError(f"--set {name}: no such set in {paths} (sets stored: {', '.join(known) or 'none'})")
        where.append(f"set_name IN ({','.join('?' * len(args.set))})")
        params += args.set
    if args.solvers:
        names = []
        for given in (s.strip() for s in args.solvers.split(",") if s.strip()):
            found = {solver_named(given, solvers) for _, solvers in stored} - {None}
            if not found:
                known = sorted({name for _, solvers in stored for name in solvers})
                raise UsageError(f"--solvers {given}: no such solver in {paths} "
                                 f"(solvers stored: {', '.join(known) or 'none'})")
            names += sorted(found)
        where.append(f"solver IN ({','.join('?' * len(names))})")
        params += names
    return ("WHERE " + " AND ".join(where)), params


def _with_baseline(options: MetricOptions, args, results, db) -> MetricOptions:
    """The options with ``--baseline`` resolved to one of the report's solvers (a family's only
    spec stands for it), or the one-line reason it names none."""
    if args.baseline is None:
        return options
    shown = [r["solver"] for r in results if r["solver"] != INPUT_SOLVER]
    found = solver_named(args.baseline, shown)
    if found is None:
        stored = sorted({r["solver"] for r in db.results()} - {INPUT_SOLVER})
        if solver_named(args.baseline, stored) is not None:
            raise UsageError(f"--baseline {args.baseline}: not among the solvers this report shows "
                             f"({', '.join(sorted(set(shown))) or 'none'})")
        raise UsageError(f"--baseline {args.baseline}: no such solver in {args.db} "
                         f"(its solvers: {', '.join(stored) or 'none'})")
    return dataclasses.replace(options, baseline=found)


def _write_table(folder: Path, name: str, text: str, given: str, inputs: list[str]) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {given}: cannot write there: {exc.strerror}") from None
    write_output(str(folder / name), text, "--out", inputs)


def _report_raw(args) -> int:
    """``report --raw``: every column of the ``results`` view, one row per result."""
    fmt = args.format or "csv"
    if fmt not in RAW_FORMATS:
        raise UsageError(f"--raw writes {', '.join(RAW_FORMATS)}; got --format {fmt}")
    if args.plot or args.baseline:
        raise UsageError(f"--raw writes the results as they are stored; leave out "
                         f"{'--plot' if args.plot else '--baseline'}")
    if fmt in BINARY_FORMATS and not args.out:
        raise UsageError(f"--raw --format {fmt} is binary: give --out FILE")
    if args.out and Path(args.out).is_dir():
        raise UsageError(f"--out {args.out}: a folder; --raw writes one file (--out FILE)")
    if fmt == "parquet":
        pyarrow_modules()   # before anything is read: the one-line reason it is missing
    if args.out:
        check_output(args.out, "--out", database_files(args.db))
    db = open_existing(args.db)
    try:
        columns, rows = raw_table(db, *_selection(args, db))
    finally:
        db.close()
    if not args.out:
        write_raw(columns, rows, fmt, sys.stdout)
        return EXIT_OK
    with open_output(args.out, "--out", database_files(args.db), binary=fmt in BINARY_FORMATS) as out:
        write_raw(columns, rows, fmt, out)
    print(f"wrote {len(rows)} results to {args.out}", file=sys.stderr)
    return EXIT_OK


def _report_compare(args, options: MetricOptions) -> int:
    """``report --compare A B``: per set and solver, what changed from database A to B."""
    if args.db is not None:
        raise UsageError("--compare A.sqlite B.sqlite names both databases; leave out --db")
    for given, name in ((args.raw, "--raw"), (args.plot, "--plot"), (args.baseline, "--baseline")):
        if given:
            raise UsageError(f"{name} is not for --compare")
    fmt = args.format or "md"
    if fmt not in TABLE_FORMATS:
        raise UsageError(f"--format {fmt} is for --raw; --compare's table is md, csv, latex, json or html")
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        raise UsageError(f"--out {args.out}: a file of that name is in the way; --out names a folder")
    _check_html(args, fmt)
    inputs = [name for path in args.compare for name in database_files(path)]
    _check_out_folder(args.out, fmt, "compare", inputs)
    dbs = [open_existing(path) for path in args.compare]
    try:
        selection = _selection(args, *dbs)
        sides = [median_runs(db.results(*selection), options.time_key) for db in dbs]
        texts = [db.puzzle_texts() for db in dbs] if fmt == "html" else []
        runs = [db.runs() for db in dbs] if fmt == "html" else []
    finally:
        for db in dbs:
            db.close()
    for side, path in zip(sides, args.compare):
        _check_clock(options, side, path)
        _check_arithmetic(options, side)
    if not puzzles_in_common(*sides):
        raise UsageError(f"--compare {args.compare[0]} {args.compare[1]}: no puzzle in common "
                         f"(puzzles are paired by their content)")
    rows = compare(*sides, options)
    if fmt == "html":
        page = compare_page(Path(args.out), args.out, args.compare, sides, rows, runs, texts, options.margin)
        print(f"wrote {page}", file=sys.stderr)
        return EXIT_OK
    text = render_compare(rows, fmt, *args.compare, options.margin)
    print(text, end="")
    _warn(compare_noise_warnings(rows))
    if args.out:
        _write_table(Path(args.out), f"compare.{TABLE_SUFFIX[fmt]}", text, args.out, inputs)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("report", help="tables, standard metrics, plots and raw rows from a results database",
                       description="Tables from a results database: per set and solver the solved puzzles, "
                                   "times, memory and search statistics, and the field's standard metrics "
                                   "(solved within the limit, PAR-k, the shifted geometric mean, wins, the "
                                   "virtual best solver, speed-up against a baseline); plots; the raw rows "
                                   "(--raw); two databases side by side (--compare).")
    p.add_argument("--db", metavar="PATH", help="the results database")
    p.add_argument("--format", choices=TABLE_FORMATS + ("jsonl", "parquet"),
                   help="table: md (default), csv, latex, json, html (a page with its figures and every "
                        "puzzle, in --out DIR); --raw: csv (default), jsonl, parquet")
    p.add_argument("--plot", action="append", choices=sorted(PLOTS), help="a figure (repeat): PNG and SVG in --out")
    p.add_argument("--out", metavar="DIR|FILE",
                   help="where the table (summary.EXT) and the figures go; with --raw, the file to write")
    p.add_argument("--set", action="append", metavar="NAME", help="only this set (repeat)")
    p.add_argument("--solvers", metavar="A,B", help="only these solvers")
    p.add_argument("--pair", metavar="A,B", help="the two solvers of the scatter plot")
    p.add_argument("--par", type=FINITE, default=DEFAULT_PAR, metavar="K",
                   help="PAR-K: an unsolved puzzle counts K x its time limit (default %(default)g)")
    p.add_argument("--shift", type=FINITE, default=DEFAULT_SHIFT, metavar="SECONDS",
                   help="the shift of the shifted geometric mean (default %(default)g s)")
    p.add_argument("--baseline", metavar="SOLVER", help="speed-ups against this solver")
    p.add_argument("--margin", type=FRACTION, default=DEFAULT_MARGIN, metavar="SHARE",
                   help="the paired tests call a change in time one only beyond this share (default %(default)g)")
    p.add_argument("--clock", "--time", dest="clock", choices=tuple(TIME_KEYS), default="wall",
                   help="the clock of every time, ranking and plot: wall (default) or cpu (user + system of "
                        "the run's processes); --time is the older name")
    p.add_argument("--headline", action="store_true",
                   help="the campaign at a glance: per kind, size and set, each solver's solved count and "
                        "shifted geometric mean with its 95%% interval, fastest first, under the benches' "
                        "provenance (md; with --out DIR, headline.md)")
    p.add_argument("--raw", action="store_true",
                   help="write every column of every result (--format csv, jsonl or parquet; --out FILE)")
    p.add_argument("--compare", nargs=2, metavar=("A.sqlite", "B.sqlite"),
                   help="per set and solver, what changed from database A to B")
    p.set_defaults(func=cmd_report)
