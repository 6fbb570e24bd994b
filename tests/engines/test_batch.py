"""The batch fast path behind one door (engines/batch.py): the records of the columns are
views that read the dataclasses' fields and behave as the dataclasses, and the generic modules
never name the Sudoku batch."""

import copy
import pickle
import re
from dataclasses import asdict, fields, replace
from pathlib import Path

import pytest

from puzzlebench import _native, api
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.models.sudoku_batch import read_sudoku_lines
from puzzlebench.results import Result, Stats, Status, Times
from puzzlebench.engines.batch import BatchRecord
from puzzlebench.engines.registry import make_engine

PACKAGE = Path(__file__).resolve().parents[2] / "puzzlebench"
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("name, cls", [("Result", Result), ("Times", Times), ("Stats", Stats)])
def test_the_views_read_every_dataclass_field_in_order(name, cls):
    """native/records.c reads every field of a view by its name, in the dataclass's order: a
    field renamed, added or moved on one side only fails here."""
    assert _native.VIEW_FIELDS[name] == tuple(f.name for f in fields(cls))


@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
def test_records_of_a_batch_read_from_text_build_their_puzzle_when_asked(solver):
    batch, taken = read_sudoku_lines([LINE, LINE])
    results = make_engine(solver).run_many(batch, limit=2)
    record = results[1]
    assert type(record) is BatchRecord and taken == [0, 1]
    with pytest.raises(AttributeError):
        record._held_puzzle   # nothing built yet
    assert record.verified and record.puzzle.givens == parse_sudoku_line(LINE).givens
    assert record._held_puzzle is record.puzzle
    assert record.solution == parse_sudoku_line(LINE).format_solution(record.solutions[0])


def _record():
    return next(iter(api.solve_many([LINE], solver="bitboard", limit=2)))


def test_a_field_set_on_a_record_view_stays_and_deleting_it_reads_the_column_again():
    record = _record()
    assert (record.status, record.verified) == (Status.UNIQUE, True)
    record.status, record.verified, record.error = Status.TIMEOUT, False, "past the limit"
    assert (record.status, record.verified, record.error) == (Status.TIMEOUT, False, "past the limit")
    del record.status
    assert record.status is Status.UNIQUE
    record.times.total += 1.0
    record.stats.nodes = 12345
    record.stats.raw["mine"] = 1
    assert record.times.total > 1.0 and record.stats.nodes == 12345 and record.stats.raw["mine"] == 1
    assert record.stats is record.stats and record.times is record.times and record.solutions is record.solutions


def test_the_solution_text_of_a_view_follows_its_solutions_and_is_read_only():
    record = _record()
    first = record.solution
    values = list(record.solutions[0])
    values[0], values[1] = values[1], values[0]
    record.solutions = [tuple(values)]
    assert record.solution == first[1] + first[0] + first[2:]
    record.solutions = []
    assert record.solution is None
    with pytest.raises(AttributeError, match="can't set attribute 'solution'"):
        record.solution = "x"


def test_a_view_equals_pickles_copies_and_replaces_as_its_dataclass():
    record = _record()
    plain = pickle.loads(pickle.dumps(record))
    assert type(plain) is Result and type(plain.times) is Times and type(plain.stats) is Stats
    assert plain == record and record == plain and plain.stats == record.stats and record.times == plain.times
    assert record.to_dict() == plain.to_dict() and asdict(record.stats) == asdict(plain.stats)
    assert copy.copy(record) == record and type(copy.deepcopy(record)) is Result
    changed = replace(record, status=Status.ERROR)
    assert changed.status is Status.ERROR and changed.count == record.count and changed != record
    plain.count = 7
    assert plain != record


@pytest.mark.parametrize("path", ["results.py", "engines/base.py", "models/base.py", "harness"])
def test_generic_modules_do_not_name_the_sudoku_batch(path):
    files = sorted((PACKAGE / path).rglob("*.py")) if (PACKAGE / path).is_dir() else [PACKAGE / path]
    named = [f"{f.name}: {m.group()}" for f in files
             for m in re.finditer(r"SudokuBatch|BatchRecord|sudoku_batch|_bulk_checked", f.read_text())]
    assert named == []
