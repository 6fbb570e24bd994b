"""Latin square completion, the kind added as one module and one registry line: its forms,
its errors with their places, and the counts every engine generic over the vocabulary must
find with no code of its own (OEIS A002860: 576 squares of order 4, 161,280 of order 5)."""

import pytest

from puzzlebench import parse, solve
from puzzlebench.cli import main
from puzzlebench.errors import InvalidPuzzleError, ParseError, UnsupportedShapeError
from puzzlebench.models.kinds import KIND_NAMES
from puzzlebench.models.latin import LatinSquare
from puzzlebench.models.reader import read_puzzles
from puzzlebench.engines.registry import FAMILIES, engine_class

GENERIC = [f for f in FAMILIES if "latin" in engine_class(f).kinds and engine_class(f).unavailable_reason() is None]


def empty(n: int) -> str:
    return "\n".join(" ".join(["0"] * n) for _ in range(n))


def test_latin_is_registered_and_taken_by_the_generic_engines():
    assert "latin" in KIND_NAMES
    assert {"mrv", "backtrack", "dlx", "dlx-py", "sat", "quine", "cpsat", "smt", "bitboard"} <= set(GENERIC)


@pytest.mark.slow
@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_counts_the_latin_squares_of_order_4(family):
    result = solve(empty(4), solver=family, limit=None, kind="latin", time_limit=120)
    assert (str(result.status), result.count, result.verified) == ("multiple", 576, True)


def test_the_latin_squares_of_order_5():
    assert solve(empty(5), solver="dlx", limit=None, kind="latin").count == 161_280


def test_a_pls_file_is_read_without_kind_and_written_back_in_its_form():
    text = "order 3\n0 -1 -1\n-1 -1 -1\n-1 -1 2\n"
    puzzle = parse(text)
    assert isinstance(puzzle, LatinSquare) and puzzle.givens == (1, 0, 0, 0, 0, 0, 0, 0, 3)
    assert puzzle.write() == "order 3\n0 -1 -1\n-1 -1 -1\n-1 -1 2"
    result = solve(puzzle, solver="mrv")
    assert str(result.status) == "unique" and puzzle.check(result.solutions[0]) == []
    assert puzzle.write_solution(result.solutions[0]).startswith("order 3\n0 ")


def test_a_pls_file_of_many_squares_is_read_square_by_square():
    square = "order 5\n" + "\n".join(" ".join(["-1"] * 5) for _ in range(5))
    items = list(read_puzzles(square + "\n\n" + square + "\n", "qwh.pls"))
    assert [(i.kind, i.source) for i in items] == [("latin", "qwh.pls:1"), ("latin", "qwh.pls:8")]


def test_a_file_of_grids_separated_by_blank_lines():
    items = list(read_puzzles(empty(3) + "\n\n" + "1 2\n2 1\n", "l.txt", kind="latin"))
    assert [i.shape for i in items] == ["3x3", "2x2"] and items[1].source == "l.txt:5"


@pytest.mark.parametrize("text, error", [
    ("order 3\n0 1 -1\n1 x 0\n-1 -1 -1\n", "f.pls:3:3: unexpected 'x': expected a number (0, -1 or . for a hole)"),
    ("order 3\n0 1\n", "f.pls:1: 'order 3' is followed by 1 rows; expected 3"),
    ("order 2\n0 5\n1 0\n", "f.pls:2:3: 5 (value 6) is not a value of a 2x2 Latin square"),
    ("order 3\n0 0 -1\n-1 -1 -1\n-1 -1 -1\n", "f.pls:2:3: row 1 has two 1s"),
    # the order first: it said "'order 99999999999' is followed by 0 rows; expected 99999999999"
    ("order 99999999999\n", "f.pls:1:7: a Latin square needs 1 <= N <= 64; got 'order 99999999999'"),
    ("order 0\n", "f.pls:1:7: a Latin square needs 1 <= N <= 64; got 'order 0'"),
    # a .pls header whatever its order (read as a 5-character Sudoku line, it was a Sudoku's length error)
    ("order -3\n", "f.pls:1:7: a Latin square needs 1 <= N <= 64; got 'order -3'"),
    ("Order three\n0 1 2\n", "f.pls:1:7: a Latin square needs 1 <= N <= 64; got 'order three'"),
])
def test_bad_latin_squares_are_clear_errors_with_their_place(text, error):
    [item] = read_puzzles(text, "f.pls")
    assert isinstance(item, (ParseError, InvalidPuzzleError, UnsupportedShapeError)) and str(item) == error


def test_the_command_reads_a_grid_with_kind_latin(tmp_path, capsys):
    f = tmp_path / "l.txt"
    f.write_text("1 0 0\n0 0 0\n0 0 2\n")
    assert main(["count", "--kind", "latin", str(f), "--solver", "sat"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{f}:1: unique count=1 ") and out[1:] == ["1 2 3", "2 3 1", "3 1 2"]
