"""The report's standard metrics (solved within the limit, PAR-k, the shifted geometric mean,
wins, the virtual best solver, speed-ups), its plots, the raw rows, ``load_results`` and two
databases side by side, each figure checked against an example computed by hand; and every
bad option a one-line error with exit code 2."""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
from pathlib import Path

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.database import Database
from puzzlebench.generators import generate
from puzzlebench.harness.inputs import from_puzzles
from puzzlebench.harness.report import (VIRTUAL_BEST, MetricOptions, compare, ecdf_points, performance_ratios,
                                        profile_at, render, shifted_geometric_mean, standard_metrics, summarise)

# -- the hand-computed example -------------------------------------------------------------------
#
# Set s, time limit 1 s (PAR-2 penalty 2 s), three solvers, four puzzles, and a line that was not
# a puzzle (solver "(input)": no solver's, left out of the metrics):
#
#        a                  b              c
#   p1   unique 0.09        unique 0.19    unique 0.09     a and c tie: both win
#   p2   unique 0.39        unique 0.59    unique 0.99     a wins
#   p3   timeout 1.0        unique 0.49    error 0.0       b wins
#   p4   unique 1.5 (late)  error 0.0      memout 0.3      nobody solved it within the limit
#
# Set t, time limit 2 s (penalty 4 s): a ran three puzzles, b only the first.
#
#        a                  b
#   p1   unique 0.19        unique 0.09    b wins
#   p2   timeout 2.0        -
#   p3   unique 0.99        -              a wins

EXAMPLE = [  # (set, line, solver, status, count, total time, time limit)
    ("s", 1, "a", "unique", 1, 0.09, 1.0), ("s", 1, "b", "unique", 1, 0.19, 1.0), ("s", 1, "c", "unique", 1, 0.09, 1.0),
    ("s", 2, "a", "unique", 1, 0.39, 1.0), ("s", 2, "b", "unique", 1, 0.59, 1.0), ("s", 2, "c", "unique", 1, 0.99, 1.0),
    ("s", 3, "a", "timeout", 0, 1.0, 1.0), ("s", 3, "b", "unique", 1, 0.49, 1.0), ("s", 3, "c", "error", 0, 0.0, 1.0),
    ("s", 4, "a", "unique", 1, 1.5, 1.0), ("s", 4, "b", "error", 0, 0.0, 1.0), ("s", 4, "c", "memout", 0, 0.3, 1.0),
    ("s", 5, "(input)", "error", 0, 0.0, 1.0),
    ("t", 1, "a", "unique", 1, 0.19, 2.0), ("t", 1, "b", "unique", 1, 0.09, 2.0),
    ("t", 2, "a", "timeout", 0, 2.0, 2.0),
    ("t", 3, "a", "unique", 1, 0.99, 2.0),
]


def write_results(path: Path, rows) -> Path:
    """A results database made by the real Database class, one ``write_columns`` call (rows as
    in EXAMPLE, and a CPU time after the time limit where given)."""
    db = Database(path)
    run = db.start_run(command="test", seed=1, settings={}, engines={})
    names = ("set_name", "line", "solver", "status", "count", "t_total", "time_limit", "t_cpu")
    columns = {name: list(values) for name, values in zip(names, zip(*rows))}
    columns["puzzle_hash"] = [f"h-{set_name}-{line}" for set_name, line, *_ in rows]
    columns["t_solve"] = columns["t_total"]
    columns["kind"] = [None if solver == "(input)" else "sudoku" for _, _, solver, *_ in rows]
    columns["shape"] = [None if solver == "(input)" else "4x4" for _, _, solver, *_ in rows]
    columns["error"] = [None if status in ("unique", "timeout") else "boom" for _, _, _, status, *_ in rows]
    db.write_columns(run, columns, {"limit_": 2, "t_parse": 0.0, "t_encode": 0.0, "t_decode": 0.0,
                                    "verified": 1, "wrong": 0})
    db.close()
    return path


@pytest.fixture
def example_db(tmp_path) -> Path:
    return write_results(tmp_path / "example.sqlite", EXAMPLE)


def rows_of(path: Path) -> list:
    db = Database(path)
    try:
        return db.results()
    finally:
        db.close()


def by_name(metrics: list[dict]) -> dict[tuple[str, str], dict]:
    return {(m["set"], m["solver"]): m for m in metrics}


def sgm(*times: float, shift: float = 0.01) -> float:
    """The shifted geometric mean, written out: the n-th root of the product, less the shift."""
    return math.prod(t + shift for t in times) ** (1 / len(times)) - shift


def test_standard_metrics_match_the_hand_computed_example(example_db):
    got = by_name(standard_metrics(rows_of(example_db), MetricOptions(baseline="a")))
    assert list(got) == [("s", "a"), ("s", "b"), ("s", "c"), ("s", VIRTUAL_BEST),
                         ("t", "a"), ("t", "b"), ("t", VIRTUAL_BEST)]
    a, b, c, best = got["s", "a"], got["s", "b"], got["s", "c"], got["s", VIRTUAL_BEST]
    # solved within the limit: a's late answer on p4 and c's memout are unsolved
    assert [m["solved_in_limit"] for m in (a, b, c, best)] == [2, 3, 2, 3]
    assert [m["puzzles"] for m in (a, b, c, best)] == [4, 4, 4, 4]
    # PAR-2: the mean, an unsolved puzzle counting 2 x 1 s
    assert a["par"] == pytest.approx((0.09 + 0.39 + 2 + 2) / 4)      # 1.12
    assert b["par"] == pytest.approx((0.19 + 0.59 + 0.49 + 2) / 4)   # 0.8175
    assert c["par"] == pytest.approx((0.09 + 0.99 + 2 + 2) / 4)      # 1.27
    assert best["par"] == pytest.approx((0.09 + 0.39 + 0.49 + 2) / 4)  # per puzzle the best: 0.7425
    # the shifted geometric mean (shift 10 ms), an unsolved puzzle at its limit, 1 s
    assert a["sgm"] == pytest.approx(sgm(0.09, 0.39, 1.0, 1.0))
    assert a["sgm"] == pytest.approx(math.sqrt(math.sqrt(0.1 * 0.4 * 1.01 * 1.01)) - 0.01)  # 0.4394
    assert b["sgm"] == pytest.approx(sgm(0.19, 0.59, 0.49, 1.0))
    assert c["sgm"] == pytest.approx(sgm(0.09, 0.99, 1.0, 1.0))
    assert best["sgm"] == pytest.approx(sgm(0.09, 0.39, 0.49, 1.0))
    # wins: p1 a tie of a and c, p2 a, p3 b, p4 nobody's
    assert [m["wins"] for m in (a, b, c, best)] == [2, 1, 1, None]
    # speed-up against a: a's sgm over the solver's
    assert a["speedup"] == pytest.approx(1.0)
    assert b["speedup"] == pytest.approx(sgm(0.09, 0.39, 1.0, 1.0) / sgm(0.19, 0.59, 0.49, 1.0))
    assert best["speedup"] == pytest.approx(sgm(0.09, 0.39, 1.0, 1.0) / sgm(0.09, 0.39, 0.49, 1.0))
    assert [m["time_limit"] for m in (a, b, c, best)] == [1.0] * 4

    ta, tb, tbest = got["t", "a"], got["t", "b"], got["t", VIRTUAL_BEST]
    assert (ta["puzzles"], ta["solved_in_limit"], ta["wins"]) == (3, 2, 1)
    assert (tb["puzzles"], tb["solved_in_limit"], tb["wins"]) == (1, 1, 1)
    assert ta["par"] == pytest.approx((0.19 + 4 + 0.99) / 3)        # the limit here is 2 s
    assert tbest["par"] == pytest.approx((0.09 + 4 + 0.99) / 3)
    assert ta["sgm"] == pytest.approx(sgm(0.19, 2.0, 0.99))
    # b ran one puzzle: its speed-up is over that puzzle alone, 0.19 s against 0.09 s
    assert tb["speedup"] == pytest.approx(0.19 / 0.09)
    assert tbest["speedup"] == pytest.approx(sgm(0.19, 2.0, 0.99) / sgm(0.09, 2.0, 0.99))
    assert tbest["time_limit"] == 2.0


# Set c, time limit 1 s, by CPU time: a waited (wall) where b worked, so the clocks disagree.
#
#        a: wall / cpu           b: wall / cpu
#   p1   unique 0.10 / 0.50      unique 0.30 / 0.20     wall: a wins; cpu: b wins
#   p2   unique 0.20 / 0.40      unique 1.50 / 0.60     wall: b late (unsolved); cpu: b in time
CLOCKS = [
    ("c", 1, "a", "unique", 1, 0.10, 1.0, 0.50), ("c", 1, "b", "unique", 1, 0.30, 1.0, 0.20),
    ("c", 2, "a", "unique", 1, 0.20, 1.0, 0.40), ("c", 2, "b", "unique", 1, 1.50, 1.0, 0.60),
]


def test_report_time_cpu_ranks_and_summarises_by_cpu_time(tmp_path, capsys):
    rows = rows_of(write_results(tmp_path / "clocks.sqlite", CLOCKS))
    wall = by_name(standard_metrics(rows, MetricOptions()))
    cpu = by_name(standard_metrics(rows, MetricOptions(time_key="t_cpu")))
    assert (wall["c", "a"]["wins"], wall["c", "b"]["wins"]) == (2, 0)
    assert (cpu["c", "a"]["wins"], cpu["c", "b"]["wins"]) == (1, 1)
    # one meaning of solved: b's 1.5 s on puzzle 2 is past the limit on its run's clock (wall),
    # so a timeout on either clock shown, in the metrics and in the main table alike
    assert wall["c", "b"]["solved_in_limit"] == 1 and cpu["c", "b"]["solved_in_limit"] == 1
    assert cpu["c", "a"]["par"] == pytest.approx((0.5 + 0.4) / 2)
    assert wall["c", "b"]["par"] == pytest.approx((0.3 + 2.0) / 2)
    summary = {row["solver"]: row for row in summarise(rows, "t_cpu")}
    assert {s: (row["median"], row["max"]) for s, row in summary.items()} == {
        "a": (pytest.approx(0.45), 0.5), "b": (pytest.approx(0.2), 0.2)}
    assert (summary["b"]["solved"], summary["b"]["timeouts"]) == (1, 1)
    assert main(["report", "--db", str(tmp_path / "clocks.sqlite"), "--time", "cpu"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Time limit 1 s per puzzle. Times are CPU time (user + system of the process")
    # the CPU median, its interval (the medians of resamples of 0.4 and 0.5 are 0.4, 0.45 or 0.5), the wall median
    assert "| c | a | 2 | 2 | 2 | 0 | 0 | 450 | [400, 500] | 150 | 450 | 490 | 500 |" in out


def test_par_k_and_the_shift_are_options(example_db):
    got = by_name(standard_metrics(rows_of(example_db), MetricOptions(par=10, shift=1.0)))
    assert got["s", "a"]["par"] == pytest.approx((0.09 + 0.39 + 10 + 10) / 4)
    assert got["s", "a"]["sgm"] == pytest.approx(sgm(0.09, 0.39, 1.0, 1.0, shift=1.0))
    assert got["s", "a"]["speedup"] is None   # no baseline asked for


def test_shifted_geometric_mean_by_hand():
    assert shifted_geometric_mean([0.09, 0.39], 0.01) == pytest.approx(math.sqrt(0.1 * 0.4) - 0.01)  # 0.19
    assert shifted_geometric_mean([2.0, 8.0], 0.0) == pytest.approx(4.0)
    assert shifted_geometric_mean([0.0, 8.0], 0.0) == 0.0
    assert shifted_geometric_mean([], 0.01) is None
    assert shifted_geometric_mean([1.0, None], 0.01) is None   # unsolved with no time limit: unknown


def test_the_report_table_shows_the_metrics_the_virtual_best_and_the_time_limits(example_db, capsys):
    assert main(["report", "--db", str(example_db), "--baseline", "a"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("Time limits per puzzle: s 1 s; t 2 s. Median 95% CI: percentile bootstrap over the puzzles "
                      "(2,000 resamples, seeded; docs/METHODS.md).")
    assert out[2].startswith("| set | solver | limit | puzzles | solved | timeouts | errors | median ms | "
                             "median 95% CI ms |")
    assert out[4].startswith("| s | a | 2 | 4 | 2 | 2 | 0 | 240 | [90, 390] |")   # a's answer past 1 s: a timeout
    at = out.index("| set | solver | limit | puzzles | solved | PAR-2 ms | sgm ms | wins | speed-up vs a | 95% CI "
                   "| tested against | paired | p (Holm) | difference |")
    assert out[at - 2] == (
        "Standard metrics (time limits per puzzle: s 1 s; t 2 s; solved: within the limit; PAR-2: mean "
        "time, an unsolved puzzle counting 2 x its limit; sgm: shifted geometric mean, shift 10 ms, an "
        "unsolved puzzle at its limit; wins: puzzles solved fastest; speed-up: the sgm of a / the "
        "solver's, over the puzzles both ran, with its 95% percentile bootstrap interval (the puzzles "
        "resampled in pairs); difference: the Wilcoxon signed-rank test of a change of more than 5.0% in the "
        "log times paired with those "
        "of the solver tested against (the baseline) on the puzzles both solved or ran out of time on "
        "(timeouts at the limit), its p Holm-adjusted across the table, significant below 0.05)")
    rows = [line.split(" | ") for line in out[at + 2:]]
    assert [" | ".join(row[:9]) for row in rows] == [
        "| s | a | 2 | 4 | 2 | 1120 | 439 | 2 | 1.00",
        "| s | b | 2 | 4 | 3 | 818 | 486 | 1 | 0.90",
        "| s | c | 2 | 4 | 2 | 1270 | 555 | 1 | 0.79",
        "| s | (virtual best) | 2 | 4 | 3 | 742 | 367 | - | 1.20",
        "| t | a | 2 | 3 | 2 | 1727 | 728 | 1 | 1.00",
        "| t | b | 2 | 1 | 1 | 90 | 90 | 1 | 2.11",
        "| t | (virtual best) | 2 | 3 | 2 | 1693 | 576 | - | 1.26",
    ]
    # each interval holds its speed-up; one puzzle has none; four puzzles are too few to tell a from b or c
    assert [row[9] for row in rows] == ["[1.00, 1.00]", "[0.56, 1.54]", "[0.50, 1.00]", "[1.00, 1.71]",
                                        "[1.00, 1.00]", "-", "[1.00, 2.11]"]
    assert [" | ".join(row[10:]) for row in rows] == [
        "a | - | - | reference |", "a | 3 | 1.000 | no significant difference |",
        "a | 2 | 1.000 | no significant difference |", "- | - | - | - |",
        "a | - | - | reference |", "a | 1 | 1.000 | no significant difference |", "- | - | - | - |"]
    # the cells round these figures, worked out by hand (4th roots by two square roots)
    assert math.sqrt(math.sqrt(0.2 * 0.6 * 0.5 * 1.01)) - 0.01 == pytest.approx(0.486, abs=5e-4)
    assert math.sqrt(math.sqrt(0.1 * 1.0 * 1.01 * 1.01)) - 0.01 == pytest.approx(0.555, abs=5e-4)
    assert math.sqrt(math.sqrt(0.1 * 0.4 * 0.5 * 1.01)) - 0.01 == pytest.approx(0.367, abs=5e-4)
    assert (0.2 * 2.01 * 1.0) ** (1 / 3) - 0.01 == pytest.approx(0.728, abs=5e-4)
    assert (0.1 * 2.01 * 1.0) ** (1 / 3) - 0.01 == pytest.approx(0.576, abs=5e-4)
    assert 0.4394 / 0.4862 == pytest.approx(0.90, abs=5e-3) and 0.4394 / 0.5551 == pytest.approx(0.79, abs=5e-3)
    assert 0.4394 / 0.3670 == pytest.approx(1.20, abs=5e-3) and 0.7280 / 0.5758 == pytest.approx(1.26, abs=5e-3)


def test_every_table_names_the_time_limit(example_db, capsys):
    rows = rows_of(example_db)
    summary, metrics = summarise(rows), standard_metrics(rows)
    assert [s["time_limit"] for s in summary] == [1.0, 1.0, 1.0, 1.0, 2.0, 2.0]
    one_set = [r for r in rows if r["set_name"] == "s"]
    md = render(summarise(one_set), "md", standard_metrics(one_set))
    assert md.splitlines()[0].startswith("Time limit 1 s per puzzle. Median 95% CI: ")
    assert "Search statistics" not in md   # no engine counters in the example
    assert md.count("time limit 1 s per puzzle") == 1
    assert "Standard metrics (time limit 1 s per puzzle; " in md
    tex = render(summarise(one_set), "latex", standard_metrics(one_set))
    assert tex.count(r"\multicolumn") == 2 and r"\multicolumn{16}{l}{time limit 1 s per puzzle} \\" in tex
    # csv and json: a time_limit field on every row, the metrics beside the summary's figures
    table = list(csv.DictReader(io.StringIO(render(summary, "csv", metrics))))
    assert [(r["set"], r["solver"], r["time_limit"]) for r in table] == [
        ("s", "a", "1.0"), ("s", "b", "1.0"), ("s", "c", "1.0"), ("s", "(input)", "1.0"),
        ("s", VIRTUAL_BEST, "1.0"), ("t", "a", "2.0"), ("t", "b", "2.0"), ("t", VIRTUAL_BEST, "2.0")]
    # finished: 3, one of them past the limit: a timeout in both tables (one meaning of solved)
    assert table[0]["solved"] == "2" and table[0]["solved_in_limit"] == "2"
    assert float(table[0]["par"]) == pytest.approx(1.12) and table[0]["par_k"] == "2.0"
    assert table[3]["par"] == ""                   # the line that was not a puzzle has no metrics
    assert table[4]["median"] == "" and float(table[4]["par"]) == pytest.approx(0.7425)
    as_json = json.loads(render(summary, "json", metrics))
    assert as_json[4]["solver"] == VIRTUAL_BEST and as_json[4]["wins"] is None


# -- plots ---------------------------------------------------------------------------------------

def test_performance_profile_matches_dolan_and_more_by_hand(example_db):
    rows = [r for r in rows_of(example_db) if r["set_name"] == "s" and r["solver"] != "(input)"]
    ratios = performance_ratios(rows)
    # p1: best 0.09 (a, c); p2: best 0.39 (a); p3: best 0.49 (b); p4: nobody: inf for all
    assert ratios["a"] == pytest.approx([1.0, 1.0, math.inf, math.inf])
    assert ratios["b"] == pytest.approx([1.0, 0.59 / 0.39, 0.19 / 0.09, math.inf])
    assert ratios["c"] == pytest.approx([1.0, 0.99 / 0.39, math.inf, math.inf])
    assert [profile_at(ratios["b"], tau) for tau in (1.0, 1.5, 2.0, 2.2, 1e9)] == [0.25, 0.25, 0.5, 0.75, 0.75]
    assert profile_at(ratios["a"], 1.0) == 0.5


def test_ecdf_is_the_share_of_the_set_solved_within_each_time(example_db):
    rows = [r for r in rows_of(example_db) if r["set_name"] == "s" and r["solver"] != "(input)"]
    points = ecdf_points(rows)
    assert points["a"] == (pytest.approx([0.09, 0.39]), [0.25, 0.5])     # the late 1.5 s is not solved
    assert points["b"] == (pytest.approx([0.19, 0.49, 0.59]), [0.25, 0.5, 0.75])


@pytest.mark.slow
def test_plots_draw_the_time_limit_and_the_profiles(example_db, tmp_path, capsys):
    out = tmp_path / "figs"
    assert main(["report", "--db", str(example_db), "--out", str(out), "--plot", "cactus", "--plot", "ecdf",
                 "--plot", "profile"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(f"{kind}-{s}.{ext}" for kind in ("cactus", "ecdf", "profile") for s in "st"
                           for ext in ("png", "svg")) + ["summary.md"]
    # matplotlib writes each text of an SVG as a comment: the legend names the limit line
    assert "<!-- time limit 1 s -->" in (out / "cactus-s.svg").read_text()
    assert "<!-- time limit 2 s -->" in (out / "cactus-t.svg").read_text()
    assert "<!-- time limit 1 s -->" in (out / "ecdf-s.svg").read_text()
    assert "Dolan &amp; Moré" in (out / "profile-s.svg").read_text()


# -- raw rows and load_results ---------------------------------------------------------------------

def view_rows(path: Path) -> tuple[list[str], list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        cur = conn.execute("SELECT * FROM results ORDER BY id")
        return [d[0] for d in cur.description], cur.fetchall()
    finally:
        conn.close()


def test_raw_csv_and_jsonl_hold_every_column_of_every_result(example_db, tmp_path, capsys):
    columns, rows = view_rows(example_db)
    assert main(["report", "--db", str(example_db), "--raw", "--format", "jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == [dict(zip(columns, row)) for row in rows]
    path = tmp_path / "raw.csv"
    assert main(["report", "--db", str(example_db), "--raw", "--out", str(path)]) == 0   # csv by default
    assert capsys.readouterr().err == f"wrote {len(rows)} results to {path}\n"
    table = list(csv.reader(path.open()))
    assert table[0] == columns and len(table) == len(rows) + 1
    assert table[1] == ["" if v is None else str(v) for v in rows[0]]
    assert main(["report", "--db", str(example_db), "--raw", "--solvers", "b", "--set", "t"]) == 0
    assert [r["solver"] + r["puzzle_id"] for r in csv.DictReader(io.StringIO(capsys.readouterr().out))] == ["bt:1"]


def test_raw_parquet_round_trips(example_db, tmp_path, capsys):
    parquet = pytest.importorskip("pyarrow.parquet", reason="pyarrow not installed (pip install pyarrow)")
    path = tmp_path / "raw.parquet"
    assert main(["report", "--db", str(example_db), "--raw", "--format", "parquet", "--out", str(path)]) == 0
    columns, rows = view_rows(example_db)
    table = parquet.read_table(path)
    assert table.column_names == columns
    assert [tuple(r.values()) for r in table.to_pylist()] == rows


def test_parquet_without_pyarrow_is_one_line(example_db, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)   # import pyarrow now fails
    path = tmp_path / "raw.parquet"
    assert main(["report", "--db", str(example_db), "--raw", "--format", "parquet", "--out", str(path)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "puzzlebench: error: --format parquet needs pyarrow (pip install pyarrow)\n")
    assert not path.exists()


def test_load_results_is_the_results_view_as_a_dataframe(example_db):
    pytest.importorskip("pandas", reason="pandas not installed (pip install 'puzzlebench[data]')")
    frame = puzzlebench.load_results(example_db)
    columns, rows = view_rows(example_db)
    assert list(frame.columns) == columns and len(frame) == len(rows)
    assert frame.groupby("solver")["t_total"].count().to_dict() == {"(input)": 1, "a": 7, "b": 5, "c": 4}
    assert frame.loc[frame["status"] == "memout", "puzzle_id"].tolist() == ["s:4"]


def test_load_results_without_pandas_names_the_extra(example_db, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)
    with pytest.raises(ImportError, match=r"^puzzlebench.load_results needs pandas, an optional extra: "
                                          r"pip install 'puzzlebench\[data\]'"):
        puzzlebench.load_results(example_db)


def test_load_results_refuses_a_file_that_is_not_a_results_database(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("not a database\n" * 50)
    with pytest.raises(puzzlebench.UsageError, match="cannot read .* as a results database: file is not a database"):
        puzzlebench.load_results(path)


# -- two databases side by side --------------------------------------------------------------------

def test_compare_shows_what_changed_per_solver_and_set(example_db, tmp_path, capsys):
    later = [list(row) for row in EXAMPLE if row[0] == "s"]
    for row in later:
        if tuple(row[1:3]) == (3, "a"):
            row[3:6] = ["unique", 1, 0.29]          # a now solves p3
        if tuple(row[1:3]) == (1, "b"):
            row[3:6] = ["multiple", 2, 0.19]        # b now finds two solutions of p1: a's and c's unique is wrong
        if tuple(row[1:3]) == (2, "c"):
            row[3:6] = ["timeout", 0, 1.0]          # c loses p2
    b_db = write_results(tmp_path / "later.sqlite", [tuple(row) for row in later])
    got = {(r["set"], r["solver"]): r for r in compare(rows_of(example_db), rows_of(b_db))}
    a, b, c = got["s", "a"], got["s", "b"], got["s", "c"]
    # in B, b's verified "multiple" of p1 refutes a's and c's "unique": wrong, so not solved
    assert (a["solved_a"], a["solved_b"], a["gained"], a["lost"], a["differ"]) == (2, 2, 1, 1, 0)
    assert a["median_a"] == pytest.approx(0.24) and a["median_b"] == pytest.approx(0.34)  # (0.09+0.39)/2; (0.39+0.29)/2
    assert a["par_a"] == pytest.approx(1.12) and a["par_b"] == pytest.approx((2 + 0.39 + 0.29 + 2) / 4)
    assert (b["solved_a"], b["solved_b"], b["differ"]) == (3, 3, 1)
    assert (c["solved_a"], c["solved_b"], c["gained"], c["lost"]) == (2, 0, 0, 2)
    assert c["par_b"] == pytest.approx((2 + 2 + 2 + 2) / 4)
    # t is in A alone: its puzzles are counted, and paired with none, they are in no other figure
    t = got["t", "a"]
    assert (t["puzzles_a"], t["puzzles_b"], t["paired"], t["only_a"], t["only_b"]) == (3, 0, 0, 3, 0)
    assert (t["solved_a"], t["median_a"], t["par_a"], t["p_time"], t["time_change"]) == (None,) * 5
    # four puzzles are too few for any change to be more than chance
    assert {r[key] for r in (a, b, c) for key in ("solved_change", "time_change", "par_change")} == {"within noise"}

    assert main(["report", "--compare", str(example_db), str(b_db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"Changes from A = {example_db} to B = {b_db} (A: time limits per puzzle: "
                             "s 1 s; t 2 s; B: time limit 1 s per puzzle; ")
    assert out[2] == ("| set | solver | limit | puzzles A | puzzles B | paired | only A | only B | solved A | solved B "
                      "| gained | lost | solved change | median ms A | median ms B | time change | PAR-2 ms A | "
                      "PAR-2 ms B | PAR-2 change | answers differ |")
    noise = "within noise"
    assert out[4:7] == [f"| s | a | 2 | 4 | 4 | 4 | 0 | 0 | 2 | 2 | 1 | 1 | {noise} | 240 | 340 | {noise} | 1120 | 1170 | {noise} | 0 |",
                        f"| s | b | 2 | 4 | 4 | 4 | 0 | 0 | 3 | 3 | 0 | 0 | {noise} | 490 | 490 | {noise} | 818 | 818 | {noise} | 1 |",
                        f"| s | c | 2 | 4 | 4 | 4 | 0 | 0 | 2 | 0 | 0 | 2 | {noise} | 540 | - | {noise} | 1270 | 2000 | {noise} | 0 |"]
    # t is not in B: nothing to set beside
    assert out[7] == "| t | a | 2 | 3 | 0 | 0 | 3 | 0 | - | - | - | - | - | - | - | - | - | - | - | - |"


# -- a real bench, reported --------------------------------------------------------------------------

def test_a_real_bench_reports_consistent_metrics(tmp_path):
    puzzles = list(generate("sudoku", 3, seed=7, box=(2, 2)))
    cfg = BenchConfig(solvers=["mrv", "backtrack"], db=str(tmp_path / "real.sqlite"), quiet=True,
                      time_limit=5.0, jobs=1)
    outcome = run_bench(from_puzzles("four", puzzles), cfg)
    metrics = by_name(standard_metrics(outcome.results, MetricOptions(baseline="mrv")))
    mrv, backtrack, best = metrics["four", "mrv"], metrics["four", "backtrack"], metrics["four", VIRTUAL_BEST]
    assert mrv["solved_in_limit"] == backtrack["solved_in_limit"] == best["solved_in_limit"] == 3
    assert best["par"] <= min(mrv["par"], backtrack["par"]) and best["sgm"] <= min(mrv["sgm"], backtrack["sgm"])
    assert mrv["wins"] + backtrack["wins"] >= 3 and mrv["speedup"] == pytest.approx(1.0)
    columns, rows = view_rows(Path(cfg.db))
    assert len(rows) == 6 and puzzlebench.load_results(cfg.db)["status"].tolist() == ["unique"] * 6
    # the summary: wall and CPU medians side by side, the memory above the baseline and the baseline
    mine = [r for r in outcome.results if r["solver"] == "mrv"]
    row = next(r for r in summarise(outcome.results) if r["solver"] == "mrv")
    assert row["median"] == pytest.approx(sorted(r["t_total"] for r in mine)[1])
    assert row["cpu_median"] == pytest.approx(sorted(r["t_cpu"] for r in mine)[1]) and row["cpu_median"] > 0
    assert row["baseline_memory_mb"] == max(r["baseline_memory"] for r in mine) / 2 ** 20 > 10  # an interpreter
    table = render(summarise(outcome.results), "md")
    assert "| median ms | median 95% CI ms | CPU median ms |" in table and "| peak MB | baseline MB |" in table


# -- bad input: one line, exit 2 ----------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--par", "0"], "--par must be more than 0 (a timeout counts K x the time limit); got 0"),
    (["--par", "-2"], "--par must be more than 0 (a timeout counts K x the time limit); got -2"),
    (["--shift", "-0.5"], "--shift must be 0 seconds or more; got -0.5"),
    (["--baseline", "ghost"], "--baseline ghost: no such solver in {db} (its solvers: a, b, c)"),
    (["--baseline", "a", "--solvers", "b,c"], "--baseline a: not among the solvers this report shows (b, c)"),
    (["--raw", "--format", "parquet"], "--raw --format parquet is binary: give --out FILE"),
    (["--raw", "--format", "md"], "--raw writes csv, jsonl, parquet; got --format md"),
    (["--format", "jsonl"], "--format jsonl is for --raw; a report's table is md, csv, latex, json or html"),
    (["--plot", "cactus"], "--plot needs --out DIR for the figures"),   # the table was printed first
    (["--plot", "scatter", "--pair", "a", "--out", "/nonexistent-figures"], "--pair takes two solvers, A,B; got 'a'"),
    # a name no row has gave a table (or a figure) without it, exit 0
    (["--solvers", "a,ghost"], "--solvers ghost: no such solver in {db} (solvers stored: a, b, c)"),
    (["--raw", "--solvers", "ghost"], "--solvers ghost: no such solver in {db} (solvers stored: a, b, c)"),
    (["--set", "s", "--set", "u"], "--set u: no such set in {db} (sets stored: s, t)"),
    (["--plot", "scatter", "--pair", "a,ghost", "--out", "/nonexistent-figures"],
     "--pair a,ghost: ghost is not among the solvers this report shows (a, b, c)"),
    (["--plot", "scatter", "--pair", "a,c", "--solvers", "a,b", "--out", "/nonexistent-figures"],
     "--pair a,c: c is not among the solvers this report shows (a, b)"),
    # --time is the older name of --clock; a finished answer past its limit is a timeout (10, not 11)
    (["--time", "cpu"], "--clock cpu: 10 finished results in {db} have no CPU time (stored before it was "
                        "measured); rerun them or report with --clock wall"),
    (["--clock", "cpu"], "--clock cpu: 10 finished results in {db} have no CPU time (stored before it was "
                         "measured); rerun them or report with --clock wall"),
])
def test_bad_report_options_are_one_line_with_exit_2(example_db, capsys, args, message):
    assert main(["report", "--db", str(example_db), *args]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"puzzlebench: error: {message.format(db=example_db)}\n")


def test_a_family_selects_its_only_spec_and_a_plot_with_nothing_to_draw_says_so(tmp_path, capsys):
    """``bench --solvers quine`` stores ``quine:h1``: ``report --solvers quine`` showed an
    empty table (exact names only), and ``--plot scatter`` on a set of one solver wrote nothing
    and said nothing."""
    rows = [("s", 1, "x:h1", "unique", 1, 0.1, 1.0), ("s", 1, "y", "unique", 1, 0.2, 1.0),
            ("t", 1, "x:h1", "unique", 1, 0.3, 1.0)]
    db = write_results(tmp_path / "f.sqlite", rows)
    assert main(["report", "--db", str(db), "--solvers", "x", "--format", "csv"]) == 0
    table = capsys.readouterr().out
    assert [line.split(",")[:2] for line in table.splitlines()[1:] if line.startswith(("s,", "t,"))] == [
        ["s", "x:h1"], ["t", "x:h1"]]
    assert main(["report", "--compare", str(db), str(db), "--solvers", "y", "--format", "csv"]) == 0
    assert [line.split(",")[:2] for line in capsys.readouterr().out.splitlines()[1:]] == [["s", "y"]]
    out = tmp_path / "figs"
    assert main(["report", "--db", str(db), "--set", "t", "--plot", "scatter", "--out", str(out)]) == 0
    assert capsys.readouterr().err == "puzzlebench: --plot scatter: nothing drawn: no set has two solvers\n"
    assert sorted(p.name for p in out.iterdir()) == ["summary.md"]
    assert main(["report", "--db", str(db), "--plot", "scatter", "--pair", "y,x", "--out", str(out)]) == 0
    assert capsys.readouterr().err == (f"wrote {out}/scatter-s-y-vs-x_h1.png\n"
                                       f"wrote {out}/scatter-s-y-vs-x_h1.svg\n")


def test_compare_refuses_a_file_that_is_not_a_results_database(example_db, tmp_path, capsys):
    notes = tmp_path / "notes.sqlite"
    notes.write_text("these are not the results you are looking for\n" * 20)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    missing = tmp_path / "missing.sqlite"
    for path, message in [
            (notes, f"cannot read {notes} as a results database: file is not a database"),
            (other, f"{other} is not a puzzlebench results database (no runs, result_log, results, disagreements)"),
            (missing, f"no results database at {missing} (make one with `puzzlebench bench --db {missing}`)")]:
        assert main(["report", "--compare", str(example_db), str(path)]) == 2
        assert capsys.readouterr() == ("", f"puzzlebench: error: {message}\n")
    folder = tmp_path / "runs"
    folder.mkdir()
    directory = f"{folder} is a directory, not a results database: name a file (e.g. {folder}/results.sqlite)"
    for argv in (["report", "--db", str(folder)], ["report", "--compare", str(example_db), str(folder)]):
        assert main(argv) == 2   # it said "no results database" of a folder that is there
        assert capsys.readouterr() == ("", f"puzzlebench: error: {directory}\n")
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("8\n")
    assert main(["bench", str(puzzles), "--solvers", "mrv", "--db", str(folder), "--quiet"]) == 2
    assert capsys.readouterr() == ("", f"puzzlebench: error: {directory}\n")
    assert list(tmp_path.glob("runs.lock")) == []   # refused before the lock beside it is made
    assert main(["report", "--compare", str(example_db), str(example_db), "--db", str(example_db)]) == 2
    assert capsys.readouterr().err == "puzzlebench: error: --compare A.sqlite B.sqlite names both databases; leave out --db\n"
    assert main(["report"]) == 2
    assert capsys.readouterr().err == "puzzlebench: error: report needs --db PATH (or --compare A.sqlite B.sqlite)\n"
