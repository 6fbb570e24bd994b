"""What ``bench`` prints: by default a brief table a 100-column terminal holds (a long set name
wrapped, a long solver spec cut), and with ``--wide`` every column, as ``report`` shows them."""

from __future__ import annotations

import sqlite3

import pytest

from conftest import run

LONG_SET = ("sudoku_sets_collected_over_many_years_from_the_newspapers_and_the_forums_of_the_enthusiasts_"
            "hardest_first.txt")
LONG_SPEC = "bitboard@locked=false;large=false;restarts=none;nogoods=false;random=false"
STORED_SPEC = LONG_SPEC.replace("false", "False")   # the spec as the engine names itself
PUZZLES = ["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
           "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."]


@pytest.fixture
def sets(tmp_path):
    (tmp_path / LONG_SET).write_text("\n".join(PUZZLES) + "\n")
    (tmp_path / "short.txt").write_text(PUZZLES[0] + "\n")
    return [str(tmp_path / LONG_SET), str(tmp_path / "short.txt")]


def bench(capsys, tmp_path, sets, *extra):
    code, out, err = run(capsys, "bench", *sets, "--solver", LONG_SPEC, "--solvers", "mrv,dlx", "--quiet",
                         "--db", str(tmp_path / "b.sqlite"), *extra)
    assert code == 0, err
    return out


def test_the_default_table_fits_100_columns_and_names_every_set_and_solver(capsys, tmp_path, sets):
    out = bench(capsys, tmp_path, sets)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert LONG_SET in "".join(lines)                                  # wrapped, not cut
    assert lines[lines.index("short.txt") + 1].split() == ["|", "solver", "|", "solved", "|", "median", "ms", "|",
                                                           "sgm", "ms", "|", "peak", "MB", "|"]
    solvers = [line.split("|")[1].strip() for line in lines if line.startswith("| ") and "/" in line]
    assert solvers.count("mrv") == solvers.count("dlx") == 2
    cut = [s for s in solvers if s.startswith("bitboard@")]
    assert len(cut) == 2 and all(s.endswith("...") and STORED_SPEC.startswith(s[:-3]) for s in cut)
    with sqlite3.connect(tmp_path / "b.sqlite") as conn:
        solved = dict(conn.execute("SELECT solver, COUNT(*) FROM results WHERE status = 'unique' "
                                   "AND set_name = 'short.txt' GROUP BY solver"))
    short = [line for line in lines[lines.index("short.txt"):] if line.startswith("| mrv ")]
    assert short[0].split("|")[2].strip() == f"{solved['mrv']}/1"
    assert "--wide" in out and "Search statistics" not in out


def test_wide_prints_every_column_of_the_summary(capsys, tmp_path, sets):
    out = bench(capsys, tmp_path, sets, "--wide")
    assert "| set | solver | limit | puzzles | solved | timeouts | errors | median ms |" in out
    assert f"| {LONG_SET} | {STORED_SPEC} | 2 | 2 | 2 | 0 | 0 |" in out
    assert "Search statistics" in out
    assert max(len(line) for line in out.splitlines()) > 100
