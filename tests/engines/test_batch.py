"""The batch fast path behind one door (engines/batch.py): the C record builder names the
dataclasses' fields, and the generic modules never name the Sudoku batch."""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from puzzlebench import _native
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.models.sudoku_batch import read_sudoku_lines
from puzzlebench.results import Result, Stats, Times
from puzzlebench.engines.batch import BatchRecord
from puzzlebench.engines.registry import make_engine

PACKAGE = Path(__file__).resolve().parents[2] / "puzzlebench"
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("name, cls", [("Result", Result), ("Times", Times), ("Stats", Stats)])
def test_the_c_record_builder_sets_the_dataclass_fields_in_order(name, cls):
    """native/records.c sets every field by its name, in the dataclass's order (so that the
    records share their keys): a field renamed, added or moved on one side only fails here."""
    assert _native.RECORD_FIELDS[name] == tuple(f.name for f in fields(cls))


def test_the_c_record_builder_sets_the_lazy_record_fields():
    assert _native.RECORD_FIELDS["lazy"] == BatchRecord.LAZY_FIELDS
    assert all(name in BatchRecord.__dict__ or name in ("_puzzle", "_text") for name in BatchRecord.LAZY_FIELDS)


@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
def test_records_of_a_batch_read_from_text_build_their_puzzle_when_asked(solver):
    batch, taken = read_sudoku_lines([LINE, LINE])
    results = make_engine(solver).run_many(batch, limit=2)
    record = results[1]
    assert type(record) is BatchRecord and taken == [0, 1]
    assert "_puzzle" in record.__dict__ and record.__dict__["_puzzle"] is None
    assert record.verified and record.puzzle.givens == parse_sudoku_line(LINE).givens
    assert record.solution == parse_sudoku_line(LINE).format_solution(record.solutions[0])


@pytest.mark.parametrize("path", ["results.py", "engines/base.py", "models/base.py", "harness"])
def test_generic_modules_do_not_name_the_sudoku_batch(path):
    files = sorted((PACKAGE / path).rglob("*.py")) if (PACKAGE / path).is_dir() else [PACKAGE / path]
    named = [f"{f.name}: {m.group()}" for f in files
             for m in re.finditer(r"SudokuBatch|BatchRecord|sudoku_batch|_bulk_checked", f.read_text())]
    assert named == []
