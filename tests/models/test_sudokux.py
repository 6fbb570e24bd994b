"""Sudoku-X, the second kind added as one module and one registry line: Simon Tatham's Solo
ids read and written back exactly, the public set of 100 solved and proven unique, errors
with their places, and every engine generic over the vocabulary agreeing with no code of its
own."""

import pytest

from conftest import DATA
from puzzlebench import parse, solve
from puzzlebench.errors import InvalidPuzzleError, ParseError
from puzzlebench.models.reader import read_puzzles
from puzzlebench.models.sudokux import SudokuX
from puzzlebench.engines.registry import FAMILIES, engine_class

GENERIC = [f for f in FAMILIES if "sudoku-x" in engine_class(f).kinds and engine_class(f).unavailable_reason() is None]
TATHAM = DATA / "tatham_solo_sudokux_3x3_100.txt"
needs_data = pytest.mark.skipif(not TATHAM.exists(), reason=f"no data set at {TATHAM}")


@pytest.mark.slow
@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_counts_the_4x4_sudoku_x_grids(family):
    """48 of the 288 4x4 Sudoku grids keep both diagonals whole."""
    assert solve("." * 16, solver=family, kind="sudoku-x", limit=None, time_limit=120).count == 48
    assert solve("." * 16, solver=family, kind="sudoku", limit=None, time_limit=120).count == 288


@needs_data
def test_the_public_tatham_set_reads_and_writes_back_exactly():
    lines = TATHAM.read_text().split()
    puzzles = [parse(line) for line in lines]
    assert len(puzzles) == 100 and all(isinstance(p, SudokuX) for p in puzzles)
    assert [p.write() for p in puzzles] == lines


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_solves_a_sample_of_the_public_set(family):
    lines = TATHAM.read_text().split()
    sample = lines[::25] if family in ("quine", "backtrack") else lines[::10]
    for line in sample:
        result = solve(line, solver=family, time_limit=60)
        assert (str(result.status), result.verified) == ("unique", True), (family, line)
        assert parse(line).check(result.solutions[0]) == []


def test_the_diagonals_are_rules():
    with pytest.raises(InvalidPuzzleError, match="the main diagonal has two 1s"):
        parse("1..............1", kind="sudoku-x")
    # placed at the second 1 (the column was left out), in either form
    for text, where in (("  1" + "." * 29 + "1" + "." * 50, "1:33"), ("3x3x:1zc1zx", "1:9")):
        with pytest.raises(InvalidPuzzleError) as info:
            parse(text, kind="sudoku-x")
        assert str(info.value) == f"{where}: the main diagonal has two 1s"
    grid = parse("................", kind="sudoku-x")
    plain_but_not_x = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    assert grid.check(plain_but_not_x) == ["the main diagonal repeats a value", "the anti-diagonal repeats a value"]


@pytest.mark.parametrize("text, error", [
    ("3x3x:8_3e2c1a2f5_9b6d9_6_8e4_3c2_9e3_9_7d8b4_3f5a8c6e1", "x.txt:1:55: the grid describes 80 cells; "
                                                             "a 9x9 Sudoku has 81"),
    ("3x3x:zzzzzzz", "x.txt:1:9: the grid runs past the 81 cells of a 9x9 Sudoku"),
    ("2x2x:5o", "x.txt:1:6: 5 is not a value of a 4x4 Sudoku"),
])
def test_a_bad_solo_id_is_an_error_with_its_column(text, error):
    [item] = read_puzzles(text + "\n", "x.txt")
    assert isinstance(item, ParseError) and str(item) == error
