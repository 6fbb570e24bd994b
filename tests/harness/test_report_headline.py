"""``report --headline``: a campaign at a glance, checked against the database it reads: each
solver's solved count and shifted geometric mean recomputed here from the stored rows, the
solvers fastest first, each interval around its mean, the benches named in the provenance."""

from __future__ import annotations

import math
import re
import sqlite3
from pathlib import Path

import pytest

from conftest import run
from puzzlebench.harness.database import Database
from report_db import make_report_db

SHIFT = 0.01
SOLVED = ("sat", "unique", "multiple", "unsat")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return make_report_db(tmp_path_factory.mktemp("headline"))


def stored(db: Path) -> dict[tuple[str, str], tuple[int, int, float]]:
    """Per (set, solver): puzzles, solved within the limit and the shifted geometric mean (ms),
    an unsolved puzzle counted at its limit, computed from the rows alone."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT set_name, solver, status, wrong, t_total, time_limit FROM results "
                            "WHERE solver != '(input)' AND kind IS NOT NULL").fetchall()
    out: dict = {}
    for set_name, solver, status, wrong, total, limit in rows:
        solved = status in SOLVED and not wrong and total <= limit
        out.setdefault((set_name, solver), []).append((solved, total if solved else limit))
    return {key: (len(v), sum(s for s, _ in v),
                  1000 * (math.exp(sum(math.log(t + SHIFT) for _, t in v) / len(v)) - SHIFT))
            for key, v in out.items()}


def detail_tables(text: str) -> dict[str, list[list[str]]]:
    """The headline's tables a group: the set's name, then its rows (solver, solved, sgm, CI)."""
    tables = {}
    for match in re.finditer(r"\*\*[^*]+\*\*, (.+)\n\n\| solver .*\n\|.*\n((?:\|.*\n)+)", text):
        tables[match.group(1)] = [line.strip("| ").split(" | ") for line in match.group(2).splitlines()]
    return tables


def test_the_headline_counts_and_means_are_the_databases(db, capsys):
    code, out, err = run(capsys, "report", "--db", str(db), "--headline")
    assert code == 0, err
    expected = stored(db)
    tables = detail_tables(out)
    assert {(s, row[0]) for s, rows in tables.items() for row in rows} == set(expected)
    for set_name, rows in tables.items():
        means = []
        for solver, solved, sgm, ci in rows:
            puzzles, done, mean = expected[(set_name, solver)]
            assert solved == f"{done}/{puzzles}"
            assert float(sgm.replace(",", "")) == pytest.approx(mean, rel=0.01)
            if ci != "-":
                low, high = (float(x.replace(",", "")) for x in ci.strip("[]").split(", "))
                assert low <= float(sgm.replace(",", "")) <= high
            means.append(mean)
        assert means == sorted(means)


def test_the_headline_opens_with_the_benches_that_made_it(db, capsys):
    code, out, _ = run(capsys, "report", "--db", str(db), "--headline")
    header = out.split("-->")[0]
    with sqlite3.connect(db) as conn:
        (command,), = conn.execute("SELECT command FROM runs").fetchall()
    assert header.startswith(f"<!--\nprovenance:\n  bench: {command}\n")
    assert re.search(r"\n  commit: \w+", header) and "\n  load: " in header


def test_the_headline_is_written_to_the_out_folder(db, capsys, tmp_path):
    code, out, _ = run(capsys, "report", "--db", str(db), "--headline", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "headline.md").read_text() == out


@pytest.mark.parametrize("argv, message", [
    (["--raw"], "--headline is a report of one database's table: not with --raw"),
    (["--format", "csv"], "--headline is a markdown page of its own: it takes no --format or --plot"),
    (["--plot", "cactus", "--out", "x"], "--headline is a markdown page of its own: it takes no --format or --plot"),
])
def test_a_headline_with_another_form_is_refused_in_one_line(db, capsys, argv, message):
    code, out, err = run(capsys, "report", "--db", str(db), "--headline", *argv)
    assert (code, out, err) == (2, "", f"puzzlebench: error: {message}\n")


def test_a_database_with_no_bench_has_no_headline(tmp_path, capsys):
    Database(str(tmp_path / "empty.sqlite")).close()
    code, out, err = run(capsys, "report", "--db", str(tmp_path / "empty.sqlite"), "--headline")
    assert (code, out) == (2, "")
    assert err == f"puzzlebench: error: {tmp_path / 'empty.sqlite'} holds no bench run: a headline names the benches that made it\n"
