"""The report read from a results database: its figures against an example computed by hand,
its files, and a database it only reads; a file that is not a results database, damaged or
mutated, refused in one line."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import INKALA
from puzzlebench.cli import main
from puzzlebench.harness.database import Database
from puzzlebench.harness.report import percentile, render, summarise


# -- the report, from a hand-computed example -------------------------------------------------------

def _write_example(db_path):
    db = Database(db_path)
    run = db.start_run(command="test", seed=1, settings={}, engines={})
    rows = [  # (puzzle, solver, status, count, encode, solve, total, peak, nodes, guesses)
        ("s:1", "a", "unique", 1, 0.001, 0.009, 0.010, 10 * 2**20, 4, 1),
        ("s:2", "a", "unique", 1, 0.001, 0.019, 0.020, 12 * 2**20, 10, 3),
        ("s:3", "a", "multiple", 2, 0.002, 0.038, 0.040, 11 * 2**20, 30, 9),
        ("s:4", "a", "timeout", 0, 0.0, 1.0, 1.0, 20 * 2**20, None, None),
        ("s:5", "a", "unsat", 0, 0.001, 0.029, 0.030, 9 * 2**20, 6, 2),
        ("s:1", "b", "unique", 1, 0.005, 0.005, 0.010, 30 * 2**20, None, None),
        ("s:2", "b", "error", 0, 0.0, 0.0, 0.0, None, None, None),
    ]
    records = []
    for pid, solver, status, count, enc, sol, total, peak, nodes, guesses in rows:
        facts = {"puzzle_hash": "h" + pid, "set_name": "s", "line": int(pid[2:]),
                 "kind": "sudoku", "shape": "4x4", "solver": solver, "limit": 2, "time_limit": 1.0}
        records.append((facts, (0, status, count, 0.0, enc, sol, 0.0, total, peak, nodes, guesses, None, None,
                                None, None, None, "boom" if status == "error" else None,
                                status in ("unique", "multiple"), False)))
    db.write(run, records)
    db.close()


def test_report_figures_match_a_hand_computed_example(tmp_path):
    _write_example(tmp_path / "e.sqlite")
    rows = Database(tmp_path / "e.sqlite").results()
    a, b = summarise(rows)
    assert (a["set"], a["solver"], a["limit"], a["puzzles"], a["solved"], a["timeouts"], a["errors"]) == \
        ("s", "a", 2, 5, 4, 1, 0)
    # solved times: 0.010 0.020 0.030 0.040
    assert a["median"] == pytest.approx(0.025)
    assert a["mean"] == pytest.approx(0.025)
    assert a["p90"] == pytest.approx(0.037)       # rank 0.9*3 = 2.7: 0.030 + 0.7*0.010
    assert a["max"] == pytest.approx(0.040)
    assert a["puzzles_per_s"] == pytest.approx(4 / 0.1)
    assert a["peak_memory_mb"] == pytest.approx(20.0)
    assert a["nodes_median"] == pytest.approx(8.0) and a["nodes_mean"] == pytest.approx(12.5)
    assert a["guesses_median"] == pytest.approx(2.5) and a["guesses_mean"] == pytest.approx(3.75)
    assert a["conflicts_median"] is None
    assert a["encode_mean"] == pytest.approx(0.00125) and a["solve_mean"] == pytest.approx(0.02375)
    assert a["encode_share"] == pytest.approx(0.005 / 0.1)
    assert (b["puzzles"], b["solved"], b["errors"], b["median"], b["puzzles_per_s"], b["peak_memory_mb"]) == \
        (2, 1, 1, 0.010, pytest.approx(100.0), 30.0)
    md = render([a, b], "md").splitlines()
    assert md[0].startswith("Time limit 1 s per puzzle. Median 95% CI: percentile bootstrap over the puzzles")
    # the median's interval: a resample of the four has the median 0.010 when three or four of it are 0.010
    # (13/256, 5.1%: more than the 2.5% each end leaves out), and 0.040 as often; one solved puzzle has none
    assert md[4] == "| s | a | 2 | 5 | 4 | 1 | 0 | 25 | [10, 40] | 25 | 37 | 40 | 40 | 20.0 | 1.25 | 23.8 |"
    assert md[5] == "| s | b | 2 | 2 | 1 | 0 | 1 | 10 | - | 10 | 10 | 10 | 100 | 30.0 | 5 | 5 |"
    assert render([a], "csv").splitlines()[1].startswith("s,a,2,5,4,1,0,0,,,0.025,")   # certified, claims: none
    assert json.loads(render([a], "json"))[0]["p90"] == pytest.approx(0.037)
    assert r"\begin{tabular}" in render([a], "latex")


def test_percentile_is_linear_between_ranks():
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == pytest.approx(9.1)
    assert percentile([5], 90) == 5 and percentile([], 90) is None


@pytest.mark.slow
def test_report_command_writes_tables_and_plots(tmp_path, capsys):
    _write_example(tmp_path / "e.sqlite")
    out = tmp_path / "out"
    code = main(["report", "--db", str(tmp_path / "e.sqlite"), "--out", str(out), "--plot", "cactus",
                 "--plot", "scatter", "--plot", "stats"])
    assert code == 0
    assert "| s | a | 2 | 5 | 4 |" in capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == ["cactus-s.png", "cactus-s.svg", "nodes-s.png", "nodes-s.svg", "scatter-s-a-vs-b.png",
                     "scatter-s-a-vs-b.svg", "summary.md"]


# -- report reads, never writes; a file that is not a results database is refused --------------

@pytest.fixture(scope="module")
def small_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "r.sqlite"
    assert main(["bench", "--solvers", "mrv", "--db", str(path), "--quiet"]) in (0, 1)
    return path


def test_report_reads_a_database_in_a_read_only_folder(small_db, tmp_path, capsys):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders; nothing to prove")
    folder = tmp_path / "ro"
    folder.mkdir()
    copy = folder / "r.sqlite"
    copy.write_bytes(small_db.read_bytes())
    folder.chmod(0o555)
    try:
        assert main(["report", "--db", str(copy)]) == 0
        assert "| famous-sudoku | mrv |" in capsys.readouterr().out
    finally:
        folder.chmod(0o755)


def test_report_opens_read_only_and_adds_nothing(small_db, capsys):
    before = small_db.read_bytes()
    assert main(["report", "--db", str(small_db)]) == 0
    assert small_db.read_bytes() == before


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_bytes(b""), "{p} is empty: not a puzzlebench results database"),
    (lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection.commit(),
     "{p} is not a puzzlebench results database (no runs, result_log, results, disagreements)"),
    (lambda p: p.write_text("hello, not SQLite\n" * 100),
     "cannot read {p} as a results database: file is not a database"),
])
def test_report_refuses_a_file_that_is_not_a_results_database(tmp_path, capsys, make, message):
    path = tmp_path / "other.db"
    make(path)
    before = path.read_bytes()
    assert main(["report", "--db", str(path)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {message.format(p=path)}\n"
    assert path.read_bytes() == before


def test_a_damaged_database_is_a_clean_error_for_report_and_bench(small_db, tmp_path, capsys):
    damaged = tmp_path / "d.sqlite"
    data = bytearray(small_db.read_bytes())
    with sqlite3.connect(small_db) as conn:   # the log's first page: every read of the results meets it
        (page,), (size,) = (conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'result_log'").fetchone(),
                            conn.execute("PRAGMA page_size").fetchone())
    at = (page - 1) * size + 100
    data[at:at + 4000] = b"\xde\xad" * 2000
    damaged.write_bytes(bytes(data))
    assert main(["report", "--db", str(damaged)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: cannot read {damaged}: database disk image is malformed\n"
    assert main(["bench", "--solvers", "mrv", "--db", str(damaged), "--quiet"]) == 2
    assert capsys.readouterr().err.endswith(
        f"puzzlebench: error: cannot use {damaged} as a results database: database disk image is malformed\n")


def test_report_out_must_be_a_folder_and_generate_out_writable(small_db, tmp_path, capsys):
    taken = tmp_path / "taken.txt"
    taken.write_text("x")
    assert main(["report", "--db", str(small_db), "--out", str(taken)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"puzzlebench: error: --out {taken}: a file of that name is in the way; --out names a folder\n"
    nowhere = tmp_path / "no" / "such" / "x.txt"
    assert main(["generate", "sudoku", "--out", str(nowhere)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: --out {nowhere}: cannot write there: No such file or directory\n"


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, 2**20), st.binary(min_size=1, max_size=64)), min_size=1, max_size=8))
def test_report_on_a_mutated_database_is_a_table_or_a_clean_error(small_db, tmp_path_factory, edits):
    """Random bytes written over a real results database: ``report`` prints its table or
    refuses with one line, never a traceback."""
    data = bytearray(small_db.read_bytes())
    for at, junk in edits:
        at %= len(data)
        data[at:at + len(junk)] = junk
    path = tmp_path_factory.mktemp("fuzz") / "m.sqlite"
    path.write_bytes(bytes(data[:len(small_db.read_bytes())]))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["report", "--db", str(path)])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().count("\n") == 1 and err.getvalue().startswith("puzzlebench: error: ")


# -- a stored value of the wrong kind: the row named and left out, the rest reported ------------------

EASY = "3.4.8..5.7...1...38....26....91..3.54.53.79.26.8..97....74....65...9...8.4..7.5.9"


@pytest.fixture()
def tampered_db(tmp_path):
    """A bench of three puzzles through mrv and dlx, then two of its rows changed by hand: the
    results' ids and the stderr lines that name them."""
    puzzles = tmp_path / "three.txt"
    puzzles.write_text(f"{EASY}\n{INKALA}\n{EASY.replace('3', '.', 2)}\n")
    db = tmp_path / "r.sqlite"
    assert main(["bench", str(puzzles), "--solvers", "mrv,dlx", "--db", str(db), "--quiet"]) == 0
    conn = sqlite3.connect(db)
    with conn:
        pick = "(SELECT id FROM results WHERE puzzle_id = ? AND solver = ?)"
        conn.execute(f"UPDATE result_log SET status = 'bogus', t_total = 'abc' WHERE id = {pick}", ("three.txt:1", "mrv"))
        conn.execute(f"UPDATE result_log SET count = -2 WHERE id = {pick}", ("three.txt:2", "dlx"))
        a, b = (conn.execute(pick[1:-1], key).fetchone()[0] for key in (("three.txt:1", "mrv"), ("three.txt:2", "dlx")))
    conn.close()
    lines = {a: f"puzzlebench: warning: {db}: result {a} (three.txt:1, mrv) left out: status 'bogus' is not a "
                "status (unique, multiple, sat, unsat, timeout, memout, error); t_total 'abc' is not a number of "
                "seconds (0 or more)\n",
             b: f"puzzlebench: warning: {db}: result {b} (three.txt:2, dlx) left out: count -2 is not a whole "
                "number (0 or more)\n"}
    return db, "".join(lines[i] for i in sorted(lines))   # named in the order of the results' ids


@pytest.mark.parametrize("argv, shown", [
    (["--format", "md"], "| three.txt | mrv | 2 | 2 | 2 |"),
    (["--format", "csv"], "three.txt,dlx,2,2,2,"),
    (["--raw"], None),
    (["--raw", "--format", "jsonl"], None),
])
def test_a_stored_value_of_the_wrong_kind_is_named_and_its_row_left_out(tampered_db, capsys, argv, shown):
    db, named = tampered_db
    assert main(["report", "--db", str(db), *argv]) == 0
    out, err = capsys.readouterr()
    assert err == named
    if shown:
        assert shown in out
    else:   # one line a row (and the header of csv): the four good rows
        assert len(out.splitlines()) == 4 + (argv[-1] == "--raw")
        assert "bogus" not in out and "-2" not in out


def test_the_html_report_and_compare_leave_a_tampered_row_out_alike(tampered_db, tmp_path, capsys):
    db, named = tampered_db
    assert main(["report", "--db", str(db), "--format", "html", "--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert err == named + f"wrote {tmp_path / 'site' / 'index.html'}\n"
    assert "bogus" not in (tmp_path / "site" / "index.html").read_text()
    assert main(["report", "--compare", str(db), str(db)]) == 0
    out, err = capsys.readouterr()
    assert err == named + named and "| three.txt | mrv |" in out


def test_load_results_names_a_tampered_row_and_leaves_it_out(tampered_db, capsys):
    pytest.importorskip("pandas")
    import puzzlebench
    db, named = tampered_db
    frame = puzzlebench.load_results(db)
    assert capsys.readouterr().err == named
    assert len(frame) == 4 and set(frame["status"]) == {"unique"} and -2 not in set(frame["count"])


def test_past_ten_rows_left_out_the_rest_are_counted_in_one_line(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    _write_example(db)
    _write_example(db)   # a second run: 14 rows in the log, 7 in the view
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE result_log SET replaced_by = NULL, clock = 'moon'")
    conn.close()
    assert main(["report", "--db", str(db), "--raw"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out.count("\n") == 1 and len(lines) == 11   # the header alone; ten rows named, the rest counted
    assert lines[0] == (f"puzzlebench: warning: {db}: result 1 (s:1, a) left out: clock 'moon' is not a clock "
                        "(wall, cpu)")
    assert lines[-1] == f"puzzlebench: warning: {db}: 4 more results left out for values of the wrong kind"
