"""The batch fast path behind one door (solvers/batch.py): records of a batch read from text,
and the generic modules never naming the Sudoku batch."""

import re
from pathlib import Path

import pytest

from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.models.sudoku_batch import read_sudoku_lines
from puzzlebench.solvers.batch import BatchRecord
from puzzlebench.solvers.registry import make_engine

PACKAGE = Path(__file__).resolve().parents[2] / "puzzlebench"
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
def test_records_of_a_batch_read_from_text_build_their_puzzle_when_asked(solver):
    batch, taken = read_sudoku_lines([LINE, LINE])
    results = make_engine(solver).run_many(batch, limit=2)
    record = results[1]
    assert type(record) is BatchRecord and taken == [0, 1]
    assert "_puzzle" in record.__dict__ and record.__dict__["_puzzle"] is None
    assert record.verified and record.puzzle.givens == parse_sudoku_line(LINE).givens
    assert record.solution == parse_sudoku_line(LINE).format_solution(record.solutions[0])


@pytest.mark.parametrize("path", ["results.py", "solvers/base.py", "models/base.py", "harness"])
def test_generic_modules_do_not_name_the_sudoku_batch(path):
    files = sorted((PACKAGE / path).rglob("*.py")) if (PACKAGE / path).is_dir() else [PACKAGE / path]
    named = [f"{f.name}: {m.group()}" for f in files
             for m in re.finditer(r"SudokuBatch|BatchRecord|sudoku_batch|_bulk_checked", f.read_text())]
    assert named == []
