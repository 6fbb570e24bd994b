"""The columnar result (``solve_many(..., columns=True)``, results.ResultColumns): the native
batch calls write it in C and check it in bulk; every other engine answers the same arrays
from its records; and field for field it says what the record view says."""

import os
import signal
import threading
import time

import numpy as np
import pytest

from broken_engines import ColumnsWrongEngine
from conftest import data_lines
from puzzlebench import api
from puzzlebench.results import NOT_COUNTED, STATISTICS, STATUS_CODES, ResultColumns, Status
from puzzlebench.runtime.limits import Interrupted

UNSOLVABLE = "12345678." + "........9" + "." * 63   # cell 9 of row 1 needs the 9 its column holds
CLASHING = "11" + "." * 79                            # two 1s in one row: the reader refuses it
SHORT = "123"
# Which record fields a column stands for; times are left out: the two views are two runs.
UNTIMED = ("status", "count", "solution", "verified", "error", *STATISTICS)


def two_solutions(line: str) -> str:
    """A puzzle with exactly two solutions: ``line``'s solution with the four cells of one
    swappable rectangle (two rows of a band, two columns of different stacks, two values)
    emptied and every other cell given."""
    grid = list(api.solve(line, solver="bitboard").solution)
    for r1 in range(9):
        for r2 in range(r1 + 1, (r1 // 3 + 1) * 3):
            for c1 in range(9):
                for c2 in range((c1 // 3 + 1) * 3, 9):
                    a, b = grid[r1 * 9 + c1], grid[r1 * 9 + c2]
                    if grid[r2 * 9 + c1] == b and grid[r2 * 9 + c2] == a:
                        for cell in (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2):
                            grid[cell] = "."
                        return "".join(grid)
    raise AssertionError("no swappable rectangle")


def record_fields(record) -> tuple:
    stats = [NOT_COUNTED if getattr(record.stats, name) is None else getattr(record.stats, name)
             for name in STATISTICS]
    return (str(record.status), record.count, record.solution, record.verified, record.error, *stats)


def column_fields(table: ResultColumns, i: int) -> tuple:
    solution = table.solutions[i]
    text = "".join(map(str, solution.tolist())) if table.count[i] else None
    stats = [int(table.stats[name][i]) for name in STATISTICS]
    return (str(STATUS_CODES[table.status[i]]), int(table.count[i]), text, bool(table.verified[i]),
            table.errors.get(i), *stats)


def assert_same_answers(lines, solver, limit):
    table = api.solve_many(lines, solver=solver, limit=limit, columns=True)
    records = list(api.solve_many(lines, solver=solver, limit=limit))
    assert isinstance(table, ResultColumns) and len(table) == len(records) == len(lines)
    assert table.solutions.dtype == np.uint8 and table.solutions.shape == (len(lines), 81)
    for i, record in enumerate(records):
        assert column_fields(table, i) == record_fields(record), (solver, limit, i, lines[i])
    for name in ("parse", "encode", "solve", "decode", "total", "cpu"):
        assert table.times[name].dtype == np.float64 and (table.times[name] >= 0).all()
    assert (table.times["total"] >= table.times["solve"]).all()
    return table


@pytest.fixture(scope="module")
def public_lines():
    return (data_lines("sudoku9_norvig_top95.txt")
            + data_lines("sudoku9_royle_17clue_49158.txt", step=500))


@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
@pytest.mark.parametrize("limit", [0, 1, 2])
def test_native_columns_equal_the_records_on_public_sets(public_lines, solver, limit):
    """top95 and a 17-clue sample, with an unsolvable, a clashing, a short line and a puzzle
    of two solutions among them: status, count, solution, verified, error and every
    normalised statistic the same as the record view's, at limits 0 (all), 1 and 2."""
    lines = public_lines[:40] + [UNSOLVABLE, CLASHING, two_solutions(public_lines[0]), SHORT] + public_lines[40:]
    table = assert_same_answers(lines, solver, limit)
    statuses = table.statuses()
    assert statuses[40] is Status.UNSAT and statuses[41] is statuses[43] is Status.ERROR
    assert statuses[42] is (Status.SAT if limit == 1 else Status.MULTIPLE)
    assert table.count[42] == (1 if limit == 1 else 2)
    assert table.errors[41] == "1:2: row 1 has two 1s"
    assert table.verified.sum() == len(lines) - 3


def test_an_engine_without_a_native_batch_answers_the_same_columns(public_lines):
    """``columns=True`` with an engine that has no batch call (mrv) still answers: the columns
    are built from its records, one shape of result."""
    assert_same_answers(public_lines[:6] + [UNSOLVABLE, SHORT], "mrv", 2)


def test_native_columns_on_16x16_and_puzzle_objects():
    """dlx's batch call takes any block shape; puzzle objects take the same path as lines."""
    lines = data_lines("sudoku16_vu_kr_1000.txt", 20)
    table = api.solve_many(lines, solver="dlx", columns=True)
    assert table.solutions.shape == (20, 256) and table.verified.all()
    records = api.solve_many(lines, solver="dlx")
    assert [r.count for r in records] == table.count.tolist()
    assert all(r.solutions[0] == tuple(row) for r, row in zip(records, table.solutions.tolist()))
    objects = api.solve_many([api.parse(line) for line in lines[:5]], solver="dlx", columns=True)
    assert (objects.solutions == table.solutions[:5]).all()
    mixed = [lines[0], api.parse(lines[1]), SHORT, lines[2]]
    both = api.solve_many(mixed, solver="dlx", columns=True), api.solve_many(mixed, solver="dlx")
    assert both[0].statuses() == [r.status for r in both[1]] and both[0].errors == {2: both[1][2].error}
    assert (both[0].solutions[[0, 1, 3]] == table.solutions[:3]).all() and not both[0].solutions[2].any()


def test_the_c_status_codes_are_the_status_order():
    """native/engines.h codes a status as its place in results.Status (PB_UNIQUE ... PB_ERROR)."""
    assert [str(s) for s in STATUS_CODES] == ["unique", "multiple", "sat", "unsat", "timeout", "memout", "error"]


def test_a_time_limit_marks_the_columns_timeout():
    """Every 9x9 grid counted under a short limit: the native call's own clock stops it."""
    table = api.solve_many(["." * 81, "." * 81], solver="bitboard", limit=0, time_limit=0.05, columns=True)
    assert table.statuses() == [Status.TIMEOUT, Status.TIMEOUT] and not table.verified.any()


@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
def test_a_ctrl_c_keeps_the_columns_answered_before_it(solver):
    """A Ctrl-C in the native call: Interrupted carries the columns of the puzzles answered
    before it, verified, and neither the stopped puzzle nor those after it."""
    lines = data_lines("sudoku9_norvig_top95.txt", 4)
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(Interrupted) as caught:
        api.solve_many(lines[:3] + ["." * 81] + lines[3:], solver=solver, limit=None, columns=True)
    assert time.monotonic() - started < 5.5
    done = caught.value.done
    assert isinstance(done, ResultColumns) and done.statuses() == [Status.UNIQUE] * 3
    assert done.verified.all() and done.solutions.shape == (3, 81)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_wrong_answer_in_the_columns_is_an_error_as_in_the_records(public_lines):
    """The bulk check of the columns catches a wrong solution (the first two cells swapped
    where the first cell is empty) and names it as the record view's checker does."""
    lines = public_lines[:30]
    table = api.solve_many(lines, solver=ColumnsWrongEngine(), columns=True)
    records = list(api.solve_many(lines, solver=ColumnsWrongEngine()))
    wrong = [i for i, line in enumerate(lines) if line[0] in ".0"]
    assert wrong and sorted(table.errors) == wrong
    assert [column_fields(table, i)[:5:4] for i in wrong] == [record_fields(records[i])[:5:4] for i in wrong]
    assert all(table.errors[i].startswith("wrong answer from columnswrong: ") for i in wrong)
    assert not table.verified[wrong].any() and table.verified.sum() == len(lines) - len(wrong)


def test_a_batch_of_several_kinds_names_each_kind_and_engine():
    """Each puzzle of a mixed batch goes to its kind's default engine (a futoshiki to mrv, the
    Sudoku lines to the native batch): the columns and the records name every kind and engine
    they hold, in order of first use, not the first puzzle's alone."""
    from puzzlebench.models.examples import example
    sudoku, futoshiki = example("arto-inkala").write(), example("futoshiki5")
    columns = api.solve_many([sudoku, futoshiki, sudoku], columns=True)
    records = api.solve_many([futoshiki, sudoku])
    assert (columns.kind, columns.solver) == ("sudoku,futoshiki", "bitboard,mrv")
    assert (records.kind, records.solver) == ("futoshiki,sudoku", "mrv,bitboard")
    assert [(r.kind, r.solver) for r in records] == [("futoshiki", "mrv"), ("sudoku", "bitboard")]
    assert columns.statuses() == [Status.UNIQUE] * 3
    one = api.solve_many([sudoku, sudoku], columns=True)
    assert (one.kind, one.solver) == ("sudoku", "bitboard")
