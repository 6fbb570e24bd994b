"""The report's registries: a metric is one entry that every table writer (md, LaTeX, CSV,
JSON) and the HTML page then show, and a plot one entry that ``--plot`` and the page draw;
docs/METHODS.md lists every described metric of the registry."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from conftest import run
from puzzlebench.harness.database import open_existing
from puzzlebench.harness.report import PLOTS, Metric, Plot, median_runs, register_metric, register_plot, unregister_metric, unregister_plot
from puzzlebench.harness.report.metrics import count, methods_table
from puzzlebench.harness.report.plots import Request
from report_db import make_report_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return make_report_db(tmp_path_factory.mktemp("registry"))


def checked_counts(db: Path) -> dict[tuple[str, str], int]:
    """Per (set, solver), the answers the checker verified, counted in the database itself."""
    with sqlite3.connect(db) as conn:
        return {(s, solver): n for s, solver, n in conn.execute(
            "SELECT set_name, solver, SUM(verified = 1) FROM results WHERE solver != '(input)' GROUP BY 1, 2")}


@pytest.fixture
def checked():
    """A metric registered for the test alone: the answers verified, placed after ``solved``."""
    entry = register_metric(Metric("checked_answers", "checked", compute=lambda g: sum(bool(r["verified"])
                                                                                       for r in g.rows),
                                   format=count, lower_is_better=False, after="solved",
                                   description="answers the checker verified"))
    yield entry
    unregister_metric("summary", "checked_answers")


def _report(capsys, db: Path, fmt: str) -> str:
    code, out, err = run(capsys, "report", "--db", str(db), "--format", fmt)
    assert code == 0, err
    return out


def test_a_new_metric_is_a_column_of_the_md_table_where_it_was_placed(db, capsys, checked):
    text = _report(capsys, db, "md")
    header = next(line for line in text.splitlines() if line.startswith("| set | solver | limit"))
    assert "| solved | checked | timeouts |" in header
    place = header.strip("|").split(" | ").index("checked")
    rows = [line.strip("| ").split(" | ") for line in text.split("\n\n")[1].splitlines()[2:]]
    assert {(r[0], r[1]): int(r[place]) for r in rows} == checked_counts(db)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_new_metric_is_a_field_of_every_csv_and_json_row(db, capsys, checked, fmt):
    text = _report(capsys, db, fmt)
    rows = list(csv.DictReader(io.StringIO(text))) if fmt == "csv" else json.loads(text)
    found = {(r["set"], r["solver"]): int(r["checked_answers"]) for r in rows if r["solver"] != "(virtual best)"}
    assert found == checked_counts(db)


def test_a_new_metric_is_a_column_of_the_latex_table(db, capsys, checked):
    head = next(line for line in _report(capsys, db, "latex").splitlines() if line.startswith("set & solver"))
    assert " & solved & checked & timeouts & " in head


def test_a_new_metric_is_a_column_of_the_html_page(db, capsys, tmp_path, checked):
    code, _, err = run(capsys, "report", "--db", str(db), "--format", "html", "--out", str(tmp_path / "page"))
    assert code == 0, err
    page = (tmp_path / "page" / "index.html").read_text()
    summaries = re.findall(r"<table class='sortable summary'>.*?</table>", page)
    assert summaries and all("<th data-key=checked_answers>checked</th>" in table for table in summaries)
    found = []
    for table in summaries:
        place = re.findall(r"<th data-key=([^>]+)>", table).index("checked_answers")
        for solver, cells in re.findall(r"<tr data-solver='([^']*)'[^>]*>(.*?)</tr>", table):
            found.append((solver, int(re.findall(r"<td data-v='([^']*)'>", cells)[place])))
    assert sorted(found) == sorted((solver, n) for (_, solver), n in checked_counts(db).items())


def test_without_the_entry_no_writer_shows_it(db, capsys):
    assert "checked" not in _report(capsys, db, "md")
    assert "checked_answers" not in _report(capsys, db, "csv")


def _solved_bars(rows, request):
    solvers = sorted({r["solver"] for r in rows})
    return {"solvers": solvers, "solved": [sum(r["solver"] == s and r["status"] == "unique" for r in rows)
                                           for s in solvers]}


def _draw_bars(ax, data, rows, request):
    ax.bar(data["solvers"], data["solved"])
    ax.set_ylabel("puzzles solved")


@pytest.fixture
def bars():
    entry = register_plot(Plot("bars", _solved_bars, _draw_bars, "bars-{set}", "puzzles solved per solver",
                              legend="never"))
    yield entry
    unregister_plot("bars")


def test_a_new_plot_is_drawn_by_plot_and_on_the_page(db, capsys, tmp_path, bars):
    code, _, err = run(capsys, "report", "--db", str(db), "--plot", "bars", "--out", str(tmp_path / "figures"))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "figures").glob("bars-*")) == [
        "bars-_script_alert_1__x_txt.png", "bars-_script_alert_1__x_txt.svg", "bars-killer_txt.png",
        "bars-killer_txt.svg"]
    code, _, err = run(capsys, "report", "--db", str(db), "--format", "html", "--out", str(tmp_path / "page"))
    assert code == 0, err
    assert (tmp_path / "page" / "index.html").read_text().count("puzzles solved per solver") == 2


def test_methods_lists_every_described_metric_of_the_registry():
    """docs/METHODS.md holds the registry's table as written by ``methods_table()``."""
    assert methods_table() in (ROOT / "docs" / "METHODS.md").read_text()


def test_the_series_plot_draws_every_set_in_one_figure_of_their_median_times(db, capsys, tmp_path):
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT set_name, solver, status, wrong, t_total, time_limit FROM results "
                            "WHERE solver != '(input)' ORDER BY id").fetchall()
    sets = list(dict.fromkeys(r[0] for r in rows))
    expected = {}
    for solver in {r[1] for r in rows}:
        expected[solver] = []
        for name in sets:
            times = sorted(t if status in ("unique", "sat", "multiple", "unsat") and not wrong and t <= limit
                           else limit for s, sv, status, wrong, t, limit in rows if (s, sv) == (name, solver))
            expected[solver].append((times[(len(times) - 1) // 2] + times[len(times) // 2]) / 2 if times else None)
    reader = open_existing(str(db))
    results = median_runs(reader.results())
    reader.close()
    data = PLOTS["series"].data([r for r in results if r["solver"] != "(input)"], Request())
    assert data["sets"] == sets
    assert data["medians"].keys() == expected.keys()
    for solver, medians in expected.items():
        assert [m is None for m in data["medians"][solver]] == [m is None for m in medians]
        assert [m for m in data["medians"][solver] if m is not None] == pytest.approx([m for m in medians if m is not None])
    code, _, err = run(capsys, "report", "--db", str(db), "--out", str(tmp_path), "--plot", "series")
    assert code == 0 and sorted(p.name for p in tmp_path.glob("series*")) == ["series.png", "series.svg"], err


def test_the_series_plot_of_one_set_draws_nothing_and_says_so(db, capsys, tmp_path):
    code, _, err = run(capsys, "report", "--db", str(db), "--set", "killer.txt", "--out", str(tmp_path),
                       "--plot", "series")
    assert code == 0 and not list(tmp_path.glob("series*"))
    assert "puzzlebench: --plot series: nothing drawn: no finished result to draw" in err
