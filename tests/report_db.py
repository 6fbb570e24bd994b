"""A small real results database for the HTML report's tests: a real bench of three solvers
over two sets (one named with HTML's special characters), with timeouts from a tiny limit."""

from __future__ import annotations

from pathlib import Path

from conftest import INKALA
from puzzlebench.cli import main
from puzzlebench.models.examples import EXAMPLES

EASY = "3.4.8..5.7...1...38....26....91..3.54.53.79.26.8..97....74....65...9...8.4..7.5.9"
WEIRD_SET = "<script>alert(1)&x.txt"   # a set name HTML would read as code
SOLVERS = "bitboard,mrv,backtrack"
TIME_LIMIT = "0.2"   # plain backtracking runs out of it on Inkala's puzzle


def make_report_db(folder: Path) -> Path:
    """The database (``report.sqlite`` in ``folder``): a Sudoku set whose hard puzzle times
    out for the plain backtracking, and a Killer set that only some solvers finish in time."""
    sudoku = folder / WEIRD_SET
    sudoku.write_text(f"{EASY}\n{INKALA}\n{EASY.replace('3', '.', 2)}\n")
    killer = folder / "killer.txt"
    killer.write_text(EXAMPLES["killer"].text + "\n")
    db = folder / "report.sqlite"
    code = main(["bench", "--solvers", SOLVERS, "--time-limit", TIME_LIMIT, "--db", str(db), "--quiet",
                 str(sudoku), str(killer)])
    assert code in (0, 1), code
    return db
