"""A claim other answers refute is wrong in every table: an ``unsat`` where another engine's
verified solution exists, a ``unique`` where two do (harness/database.py, ``REFUTED``), read so
from any database, whether or not the answers were cross-checked in one run."""

import json
import sqlite3

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.database import Database

FAKE_UNSAT = 'ext@cmd=printf "s UNSATISFIABLE\\n"'
PUZZLES = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
           "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
           "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....")


@pytest.fixture
def faked(tmp_path, capsys):
    """dlx and a program that says UNSATISFIABLE at once, on three unique 9x9."""
    path = tmp_path / "three.txt"
    path.write_text("\n".join(PUZZLES) + "\n")
    db = tmp_path / "r.sqlite"
    assert main(["bench", str(path), "--solvers", f"dlx,{FAKE_UNSAT}", "--db", str(db), "--quiet"]) == 1
    capsys.readouterr()
    return db


def test_an_unsat_refuted_by_a_verified_solution_is_wrong_never_solved(faked, capsys):
    assert main(["report", "--db", str(faked), "--format", "json"]) == 0
    table = {row["solver"]: row for row in json.loads(capsys.readouterr().out)}
    fake = table[FAKE_UNSAT]
    assert (fake["solved"], fake["wrong"], fake["solved_in_limit"], fake["wins"]) == (0, 3, 0, 0)
    assert fake["median"] is None
    assert (table["dlx"]["solved"], table["dlx"]["wrong"], table["dlx"]["solved_in_limit"]) == (3, 0, 3)


def test_the_raw_rows_say_it_and_the_log_keeps_what_the_engine_said(faked):
    reader = Database(faked)
    try:
        rows = [dict(r) for r in reader.results()]
    finally:
        reader.close()
    assert sorted((r["solver"], r["status"], r["wrong"]) for r in rows) == \
        [("dlx", "unique", 0)] * 3 + [(FAKE_UNSAT, "unsat", 1)] * 3
    with sqlite3.connect(faked) as conn:   # stored as answered; the reading refutes it
        assert conn.execute("SELECT count(*) FROM result_log WHERE wrong = 1").fetchone() == (0,)


def test_a_unique_refuted_by_two_verified_solutions_is_wrong_and_an_unrefuted_unsat_stands(tmp_path):
    db = Database(tmp_path / "r.sqlite")
    run = db.start_run(command="test", seed=1, settings={}, engines={})
    rows = [("s", 1, "a", "unique", 1), ("s", 1, "b", "multiple", 2), ("s", 2, "a", "unsat", 0),
            ("s", 2, "b", "unsat", 0), ("s", 3, "a", "unique", 1), ("s", 3, "b", "unique", 1)]
    columns = {name: list(values) for name, values in zip(("set_name", "line", "solver", "status", "count"),
                                                            zip(*rows))}
    n = len(rows)
    columns.update(puzzle_hash=[f"h{line}" for _, line, *_ in rows], t_total=[0.1] * n, t_solve=[0.1] * n,
                   time_limit=[1.0] * n, kind=["sudoku"] * n, shape=["4x4"] * n, error=[None] * n)
    db.write_columns(run, columns, {"limit_": 2, "t_parse": 0.0, "t_encode": 0.0, "t_decode": 0.0,
                                    "verified": 1, "wrong": 0})
    got = {(r["line"], r["solver"]): r["wrong"] for r in db.results()}
    db.close()
    assert got == {(1, "a"): 1, (1, "b"): 0, (2, "a"): 0, (2, "b"): 0, (3, "a"): 0, (3, "b"): 0}


def test_a_database_whose_view_lacks_a_column_is_refused_in_one_line(faked, capsys):
    with sqlite3.connect(faked) as conn:
        view = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'results'").fetchone()[0]
        conn.execute("DROP VIEW results")
        conn.execute(view.replace("s.name AS set_name", "s.name AS set_label"))
    assert main(["report", "--db", str(faked)]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {faked} is not a puzzlebench results database "
                                       "(its results view has no set_name)\n")
