"""``report --format html``: the page's content from a real bench (every set, solver, puzzle
and figure; names escaped; the puzzles' texts and verified solutions stored and drawn), an
older database without puzzle texts, ``--compare``, and each mistake a one-line error."""

from __future__ import annotations

import html
import json
import re
import sqlite3

import pytest

from conftest import INKALA, INKALA_SOLUTION, run
from puzzlebench.models.reader import parse
from report_db import EASY, SOLVERS, TIME_LIMIT, WEIRD_SET, make_report_db


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_report_db(tmp_path_factory.mktemp("html"))


def page_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def chunks(out) -> dict:
    puzzles = {}
    for path in sorted((out / "puzzles").glob("chunk-*.js")):
        text = path.read_text()
        number, _, body = text[len("PB.chunk("):-len(");\n")].partition(", ")
        puzzles.update(json.loads(body))
    return puzzles


def test_the_bench_stores_each_puzzle_and_its_verified_solution(db):
    conn = sqlite3.connect(db)
    rows = dict(conn.execute("SELECT text, solution FROM puzzle_texts"))
    assert rows[INKALA] == INKALA_SOLUTION   # its solution, checked against the known one
    assert len(rows) == 4 and rows[EASY]
    for text, solution in rows.items():   # the Killer's, where a solver finished it in time, is right
        if solution:
            puzzle = parse(text)
            assert puzzle.check(puzzle.parse_solution(solution)) == []
    sets = {name for (name,) in conn.execute(
        "SELECT s.name FROM puzzle_texts p JOIN puzzle_sets s ON s.id = p.set_id")}
    assert sets == {WEIRD_SET, "killer.txt"}


def test_the_page_holds_every_set_solver_puzzle_and_figure(db, tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run(capsys, "report", "--db", str(db), "--format", "html", "--out", str(out))
    assert code == 0 and f"wrote {out / 'index.html'}" in err
    page = (out / "index.html").read_text()
    data = page_data(page)
    assert data["solvers"] == SOLVERS.split(",") or sorted(data["solvers"]) == sorted(SOLVERS.split(","))
    assert sorted(data["sets"]) == sorted([WEIRD_SET, "killer.txt"])
    assert len(data["line"]) == 4   # three Sudoku and a Killer
    backtrack = data["solvers"].index("backtrack")
    statuses = [data["statuses"][s] for s in data["status"][backtrack]]
    assert "timeout" in statuses   # Inkala's puzzle: too hard for plain backtracking
    inkala = data["hash"].index(next(h for h, line, s in zip(data["hash"], data["line"], data["set"])
                                     if line == 2 and data["sets"][s] == WEIRD_SET))
    assert data["flags"][inkala] & 2   # the timeouts filter finds it
    assert page.count("<svg") >= 2 * 3 and "cactus plot" in page and "performance profile" in page
    assert f"time limit {TIME_LIMIT} s" in page   # the limit marked in the figures' legends
    for header in ("Machine (last run)", "Engines", "bitboard", "commit", "load", f"time_limit {TIME_LIMIT}"):
        assert header in page
    assert "<script>alert" not in page   # every name escaped, in the tables and in the JSON
    assert html.escape(WEIRD_SET) in page
    puzzles = chunks(out)
    assert len(puzzles) == 4
    records = puzzles[str(inkala)]["records"]
    assert {r["solver"] for r in records} == set(SOLVERS.split(","))
    assert all("t_total" in r and "status" in r for r in records)
    drawing = puzzles[str(inkala)]["drawing"]
    assert drawing["text"] == INKALA and drawing["solution_text"] == INKALA_SOLUTION
    shown = drawing["solution"].get("svg") or drawing["solution"]["pre"]
    assert "8 1 2" in shown or "812" in shown.replace(" ", "") or ">8<" in shown


def test_an_older_database_gives_pages_without_drawings(db, tmp_path, capsys):
    older = tmp_path / "older.sqlite"
    older.write_bytes(db.read_bytes())
    conn = sqlite3.connect(older)
    conn.execute("DROP TABLE puzzle_texts")
    conn.commit()
    conn.close()
    out = tmp_path / "out"
    assert run(capsys, "report", "--db", str(older), "--format", "html", "--out", str(out))[0] == 0
    drawings = [p["drawing"] for p in chunks(out).values()]
    assert all(d == {"note": "This database holds no text of the puzzle (stored before puzzle texts were)."}
               for d in drawings)


def test_compare_as_a_page(db, tmp_path, capsys):
    out = tmp_path / "cmp"
    code, _, _ = run(capsys, "report", "--compare", str(db), str(db), "--format", "html", "--out", str(out))
    assert code == 0
    page = (out / "index.html").read_text()
    assert "Changes from A to B" in page and "solved change" in page
    data = page_data(page)
    assert sorted(data["solvers"]) == sorted(f"{side}: {s}" for side in "AB" for s in SOLVERS.split(","))
    assert len(data["line"]) == 4


@pytest.mark.parametrize("argv, message", [
    (["--format", "html"], "--format html writes a page and its files: give --out DIR"),
    (["--format", "html", "--out", "FILE"], "--out FILE: a file of that name is in the way; --out names a folder"),
    (["--format", "html", "--out", "DIR", "--plot", "cactus"],
     "--format html draws every figure itself; leave out --plot"),
])
def test_html_mistakes_are_one_line_errors(db, tmp_path, capsys, argv, message):
    (tmp_path / "FILE").write_text("in the way")
    argv = [a.replace("FILE", str(tmp_path / "FILE")).replace("DIR", str(tmp_path / "d")) for a in argv]
    message = message.replace("FILE", str(tmp_path / "FILE"))
    code, out, err = run(capsys, "report", "--db", str(db), *argv)
    assert (code, out, err) == (2, "", f"puzzlebench: error: {message}\n")


def test_an_unwritable_out_is_a_one_line_error(db, tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, out, err = run(capsys, "report", "--db", str(db), "--format", "html", "--out", str(locked / "x"))
    finally:
        locked.chmod(0o700)
    if code == 0:
        pytest.skip("running as root: a read-only folder is writable")
    assert (code, out) == (2, "") and err.startswith(f"puzzlebench: error: --out {locked / 'x'}: cannot write there")


def test_a_database_with_no_result_gives_a_page_that_says_so(db, tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(db.read_bytes())
    conn = sqlite3.connect(empty)
    conn.execute("DELETE FROM result_log")
    conn.commit()
    conn.close()
    out = tmp_path / "out"
    code, _, err = run(capsys, "report", "--db", str(empty), "--format", "html", "--out", str(out))
    assert code == 0 and "holds no result: the page says so" in err
    page = (out / "index.html").read_text()
    assert page_data(page)["line"] == [] and "This database holds no result" in page
