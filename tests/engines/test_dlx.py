"""Dancing Links: the C engine ``dlx`` and its Python twin ``dlx-py``, the
exact-cover encoders, Knuth's text format, and the CLI commands ``export`` / ``solve-xc``.

Counts are checked against published figures (OEIS) and the ``mrv`` reference; every
solution is verified by the puzzle's own checker (``Engine.run`` does it); the two engines
must agree node for node and update for update."""

from __future__ import annotations

import pytest

from conftest import data_lines
from puzzlebench.cli import main
from puzzlebench.encoders.exact_cover import (ExactCoverMatrix, encode_puzzle, encode_queens,
                                              organ_pipe, read_knuth)
from puzzlebench.errors import EngineError, ParseError
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.runtime.limits import Deadline
from puzzlebench.engines.dlx import DlxEngine
from puzzlebench.engines.dlx_py import DlxPyEngine
from puzzlebench.engines.mrv import MrvEngine

C, PY, MRV = DlxEngine(), DlxPyEngine(), MrvEngine()


def both(matrix: ExactCoverMatrix, limit=None, keep=100):
    """Run both engines on a matrix; they must agree on everything they count."""
    a = C.search(matrix, limit, keep, Deadline(None))
    b = PY.search(matrix, limit, keep, Deadline(None))
    assert (a.count, a.stats.raw) == (b.count, b.stats.raw)
    assert a.solutions == b.solutions
    return a


def same_run(puzzle, limit=2):
    """Run a puzzle through dlx and dlx-py: verified, and the same counters."""
    a, b = C.run(puzzle, limit=limit), PY.run(puzzle, limit=limit)
    assert a.verified and b.verified, (a.error, b.error)
    assert (a.count, a.stats.raw, a.size) == (b.count, b.stats.raw, b.size)
    return a


# -- Knuth's format, small matrices worked out by hand -------------------------------------

COLORS = """\
| colored secondary items: options naming X or Y must agree on the color
A B C | X Y
A B X:0 Y:0
A C X:1 Y:1
B X:0
B X:1
C Y:1
C X:0
"""

SECONDARY = """\
a b | s
a s
b s
a
b
"""

MIXED = """\
| an uncolored use of x excludes every other use, colored or not
p q | x
p x:A
q x:A
q x
p x
"""


@pytest.mark.parametrize("text, solutions", [
    # A by option 0 (X=0, Y=0): C only by option 5 (X:0); A by option 1 (X=1, Y=1): B only by 3.
    (COLORS, [(0, 5), (1, 3)]),
    # s at most once: {0,1} is out; {0,3}, {2,1}, {2,3} remain.
    (SECONDARY, [(0, 3), (1, 2), (2, 3)]),
    # x:A twice agrees; x uncolored next to anything else conflicts.
    (MIXED, [(0, 1)]),
])
def test_hand_made_matrices_give_the_hand_computed_solutions(text, solutions):
    outcome = both(read_knuth(text, "hand.dlx"))
    assert outcome.count == len(solutions)
    assert sorted(tuple(sorted(s)) for s in outcome.solutions) == solutions


def test_knuth_counters_on_his_first_example():
    """TAOCP 7.2.2.1 (5), worked by hand: branch on a (leftmost of length 2); 'a d g' leaves b
    with 'b c f' only, then e with nothing (3 nodes, 17 updates); 'a d f' leads through 'b g'
    and 'c e' to the solution: 6 nodes with the solution, 29 updates."""
    text = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"
    outcome = both(read_knuth(text))
    assert outcome.count == 1
    assert sorted(outcome.solutions[0]) == [0, 3, 4]  # c e, a d f, b g
    assert outcome.stats.raw == {"nodes": 6, "updates": 29}


def test_colors_count_cleansings_only_when_colored():
    assert "cleansings" in both(read_knuth(COLORS)).stats.raw
    assert "cleansings" not in both(read_knuth(SECONDARY)).stats.raw


def test_option_without_primary_item_is_left_out_as_dlx1_does():
    outcome = both(read_knuth("a | s\ns\na\n"))
    assert outcome.count == 1 and outcome.solutions == [(1,)]


def test_limit_stops_at_the_limit():
    outcome = both(read_knuth(SECONDARY), limit=2)
    assert outcome.count == 2


@pytest.mark.parametrize("text, message", [
    ("a b\na c\n", "m.dlx:2:3: option names unknown item 'c'"),
    ("a b\n| a comment\nb a  b\n", "m.dlx:3:6: item 'b' appears twice in this option"),
    ("a | x\na:1 x\n", "m.dlx:2:1: primary item 'a' cannot have a color"),
    ("| only a comment\n\n", "m.dlx:1: empty item list: the first line that is not a comment must "
                             "name the items (primary, then | and the secondary ones)"),
    ("", "m.dlx:1: empty item list: the first line that is not a comment must name the items "
         "(primary, then | and the secondary ones)"),
    ("a | b | c\n", "m.dlx:1:7: the item line contains | twice"),
    ("a a\n", "m.dlx:1:3: item 'a' is listed twice"),
    ("a x:1\n", "m.dlx:1:3: item name 'x:1' contains ':' or '|'"),
    ("a | x\na x:\n", "m.dlx:2:3: item 'x' has an empty color"),
    # lines end at '\n' only: a form feed is a space within the item line (splitlines cut
    # the line there, and every later place was one line off)
    ("a b\fc\na\nb d\n", "m.dlx:3:3: option names unknown item 'd'"),
    ("a\n\u2028a x\n", "m.dlx:2:4: option names unknown item 'x'"),
])
def test_bad_matrices_are_clear_errors_with_their_line(text, message):
    with pytest.raises(ParseError) as err:
        read_knuth(text, "m.dlx")
    assert str(err.value) == message


def test_write_then_read_gives_the_same_matrix_and_counters():
    for puzzle in (NQueens(6), Skyscrapers(4, (2, 2, 1, 4), (3, 2, 3, 1), (2, 1, 2, 3), (2, 3, 2, 1)),
                   parse_sudoku_line("...3..4114..3..." )):
        matrix = encode_puzzle(puzzle)
        again = read_knuth(matrix.write())
        assert again.item_names == matrix.item_names
        assert [again.option_text(k) for k in range(len(again.options))] == \
               [matrix.option_text(k) for k in range(len(matrix.options))]
        a = both(matrix)
        b = both(again)
        assert (a.count, a.stats.raw) == (b.count, b.stats.raw)


# -- N-Queens ------------------------------------------------------------------------------

def oeis_counts() -> dict[int, int]:
    return {int(f[0]): int(f[1]) for f in (l.split() for l in data_lines("nqueens_solution_counts_oeis.txt"))}


def test_organ_pipe_order_is_middle_first_then_outwards():
    assert organ_pipe(16) == [8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15, 0]
    assert organ_pipe(5) == [2, 1, 3, 0, 4]
    m = encode_queens(4)
    assert m.primary == ["r2", "c2", "r1", "c1", "r3", "c3", "r0", "c0"]
    assert m.secondary == ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5"]  # no corners


@pytest.mark.parametrize("n", range(1, 11))
def test_queens_counts_agree_with_oeis(n):
    result = C.run(NQueens(n), limit=None, keep=3)
    assert result.count == oeis_counts()[n]
    assert result.status in (Status.UNIQUE, Status.MULTIPLE, Status.UNSAT)
    assert result.verified


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 8])
def test_queens_c_and_python_agree_node_for_node(n):
    a = same_run(NQueens(n), limit=None)
    assert a.count == oeis_counts()[n]


def test_queens_completion_agrees_with_mrv():
    for placed in ([(0, 0)], [(0, 1), (2, 0)], [(3, 3), (0, 1)], [(1, 3)]):
        puzzle = NQueens(8, placed)
        a = same_run(puzzle, limit=None)
        assert a.count == MRV.run(puzzle, limit=None).count


# -- Sudoku --------------------------------------------------------------------------------

def sudokus(name: str, limit: int, step: int = 1):
    return [parse_sudoku_line(l.split()[0]) for l in data_lines(name, limit=limit, step=step)]


def test_sudoku_matrix_folds_the_givens_in():
    puzzle = parse_sudoku_line("...3..4114..3..." )
    matrix = encode_puzzle(puzzle)
    empty = puzzle.givens.count(0)
    given_values = 16 - empty
    # cells: one item per empty cell; units: 3 * 16 (unit, value) items less those given
    assert matrix.n_primary == empty + 3 * 16 - 3 * given_values
    assert matrix.n_secondary == 0
    assert all(len(option) == 4 for option in matrix.options)


def test_top95_sample_c_and_python_agree_and_verify():
    for puzzle in sudokus("sudoku9_norvig_top95.txt", limit=6, step=16):
        assert same_run(puzzle).status is Status.UNIQUE


def test_batch_path_gives_the_same_counters_as_one_at_a_time():
    puzzles = sudokus("sudoku9_norvig_top95.txt", limit=12, step=8)
    batch = C.run_many(puzzles)
    assert batch.columns is not None   # one C call
    for puzzle, result in zip(puzzles, batch):
        single = C.run(puzzle)
        assert result.verified and result.status is Status.UNIQUE
        assert (result.count, result.stats.raw, result.size) == (single.count, single.stats.raw, single.size)


def test_run_many_uses_the_batch_and_keeps_the_order():
    puzzles = sudokus("sudoku9_norvig_top95.txt", limit=3) + [NQueens(6)] + \
        sudokus("sudoku4_vu_kr_1000.txt", limit=3)
    results = C.run_many(puzzles, limit=2)
    assert [r.kind for r in results] == [p.kind for p in puzzles]
    assert all(r.verified for r in results)
    assert results[3].count == 2 and results[3].status is Status.MULTIPLE


def test_serg_puzzles_have_two_or_more_solutions():
    puzzles = sudokus("sudoku9_serg_benchmark.txt", limit=40, step=250)
    batch = C.run_many(puzzles, limit=2)
    for result in batch:
        assert result.verified and result.count >= 2 and result.status is Status.MULTIPLE
    for puzzle, result in list(zip(puzzles, batch))[:3]:
        single = same_run(puzzle)  # stopped at the limit: the same counters on every path
        assert single.count >= 2 and single.stats.raw == result.stats.raw


def test_other_block_shapes_solve_and_verify():
    for puzzle in sudokus("sudoku4_vu_kr_1000.txt", limit=5, step=100):
        same_run(puzzle)
    six = parse_sudoku_line("." * 36, box=(2, 3))
    assert C.run(six, limit=5).count == 5
    for result in C.run_many(sudokus("sudoku16_vu_kr_1000.txt", limit=3, step=300)):
        assert result.verified and result.count == 1


@pytest.mark.slow
def test_batch_counters_equal_one_at_a_time_on_larger_shapes_too():
    """The batch's bitset kernel serves every block shape (9x9 and up to 64 values): the same
    nodes and updates as Knuth's linked search on the encoder's matrix, beyond 1,024 options."""
    shapes = [sudokus("sudoku16_vu_kr_1000.txt", limit=2, step=400), [parse_sudoku_line("." * 144, box=(3, 4))]]
    for puzzles, limit in [(p, limit) for p in shapes for limit in (2, 5)]:
        for puzzle, result in zip(puzzles, C.run_many(puzzles, limit=limit)):
            single = C.run(puzzle, limit=limit)
            assert result.verified and single.verified
            assert (result.count, result.stats.raw, result.size) == (single.count, single.stats.raw, single.size)


@pytest.mark.parametrize("rows, cols", [(10**6, 10**6), (65536, 65536), (10**6, 1), (0, 3)])
def test_batch_refuses_a_huge_shape_before_multiplying_it(rows, cols):
    """rows*cols overflows an int (65536*65536 wrapped to 0: a division by zero that killed
    the process)."""
    from puzzlebench import _native
    with pytest.raises(ValueError, match=rf"^dlx_sudoku_batch: block shape {rows}x{cols}: 1 to 64 values$"):
        _native.dlx_sudoku_batch(b"", rows, cols, 2, 1, 0.0)


def test_solve_refuses_more_items_than_an_int_numbers():
    """n_primary + n_secondary + the nodes overflowed an int and the build wrote past its arrays."""
    from array import array
    from puzzlebench import _native
    with pytest.raises(ValueError, match="^dlx_solve: 2147483646 primary and 0 secondary items with 0 "
                                         "entries: more nodes than an int numbers$"):
        _native.dlx_solve(2**31 - 2, 0, array("i"), array("i"), array("i", [0]), 0, 0, 0.0)


def test_batch_refuses_givens_that_are_not_whole_puzzles():
    from puzzlebench import _native
    with pytest.raises(ValueError, match="^dlx_sudoku_batch: 80 givens, not a whole number of 81-cell puzzles$"):
        _native.dlx_sudoku_batch(bytes(80), 3, 3, 2, 1, 0.0)


def test_sudoku_counts_agree_with_mrv_on_an_open_grid():
    puzzle = parse_sudoku_line("1..." + "." * 12)  # 4x4 with one given: 288 / 4 = 72 solutions
    assert same_run(puzzle, limit=None).count == MRV.run(puzzle, limit=None).count == 72


def test_a_full_grid_is_its_own_solution():
    puzzle = parse_sudoku_line("1234341221434321")
    result = same_run(puzzle)
    assert result.count == 1 and result.stats.raw["nodes"] == 1 and result.size["items"] == 0


# -- Skyscrapers ---------------------------------------------------------------------------

def skyscrapers(kind: str, limit: int):
    out = []
    for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt"):
        f = line.split()
        if f[5] == kind and f[0] in "456":
            n = int(f[0])
            out.append(Skyscrapers(n, *[[int(x) for x in side.split(",")] for side in f[1:5]]))
    return out[:: max(1, len(out) // limit)][:limit]


def test_skyscrapers_with_one_solution_solve_and_check():
    for puzzle in skyscrapers("nsol=1", 8):
        result = same_run(puzzle)
        assert result.status is Status.UNIQUE
        assert result.size["secondary_items"] == puzzle.n ** 2  # the colored cell items


@pytest.mark.slow
def test_skyscrapers_counts_agree_with_mrv():
    for puzzle in skyscrapers("nsol=2+", 6):
        a = same_run(puzzle, limit=None)
        assert a.count == MRV.run(puzzle, limit=None).count >= 2
        assert "cleansings" in a.stats.raw


def test_skyscrapers_givens_are_folded_in():
    clues = ((2, 2, 1, 4), (3, 2, 3, 1), (2, 1, 2, 3), (2, 3, 2, 1))
    solution = (3, 2, 4, 1, 4, 1, 3, 2, 2, 4, 1, 3, 1, 3, 2, 4)
    givens = solution[:4] + (0,) * 12
    puzzle = Skyscrapers(4, *clues, givens=givens)
    result = same_run(puzzle)
    assert result.solutions == [solution]
    assert result.size["secondary_items"] == 12 and result.size["primary_items"] == 7


def test_visibility_off_a_line_is_a_clear_engine_error():
    from puzzlebench.models.vocabulary import Rules, Visibility
    rules = Rules(2, 2, (0, 0), (Visibility((0,), 1, "odd clue"),))
    from puzzlebench.encoders.exact_cover import encode_rules
    with pytest.raises(EngineError, match="'odd clue' does not run along a whole line"):
        encode_rules(rules)


# -- the clock -----------------------------------------------------------------------------

def test_time_limit_stops_the_c_search():
    result = C.run(NQueens(16), limit=None, time_limit=0.05)
    assert result.status is Status.TIMEOUT
    result = PY.run(NQueens(12), limit=None, time_limit=0.05)
    assert result.status is Status.TIMEOUT


# -- the command line ----------------------------------------------------------------------

def test_export_then_solve_xc(tmp_path, capsys):
    puzzle_file = tmp_path / "q.txt"
    puzzle_file.write_text("6\n")
    out = tmp_path / "q.dlx"
    assert main(["export", "--to", "dlx", "--kind", "nqueens", str(puzzle_file), "-o", str(out)]) == 0
    assert out.read_text().splitlines()[1].startswith("r3 c3 r2 c2")
    assert main(["solve-xc", str(out), "--show", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("solution 1:\n")
    assert "4 solutions; 93 nodes, 1497 updates;" in text
    assert main(["solve-xc", str(out), "--solver", "dlx-py", "--limit", "1"]) == 0
    assert "1 solution; " in capsys.readouterr().out


def test_solve_xc_reports_a_bad_file_with_its_line(tmp_path, capsys):
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na z\n")
    assert main(["solve-xc", str(bad)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {bad}:2:3: option names unknown item 'z'\n"


# -- texts straight to the batch -------------------------------------------------------------

def test_solve_many_texts_take_the_batch_and_report_bad_lines_exactly():
    from puzzlebench import api
    good = [l.split()[0] for l in data_lines("sudoku9_norvig_top95.txt", limit=3)]
    broken = "11" + good[0][2:]  # row 1 has two 1s
    odd = "x" + good[1][1:]
    results = api.solve_many(good + [broken, odd], solver="dlx")
    assert [r.status for r in results[:3]] == [Status.UNIQUE] * 3
    assert all(r.verified for r in results[:3])
    from puzzlebench.models.reader import parse
    for k, text in ((3, broken), (4, odd)):  # the reader's own message, word for word
        with pytest.raises(ParseError if k == 4 else Exception) as err:
            parse(text)
        assert results[k].status is Status.ERROR and results[k].error == str(err.value)
    assert results[3].error.endswith("row 1 has two 1s")
    singles = [C.run(parse_sudoku_line(t)) for t in good]
    assert [r.stats.raw for r in results[:3]] == [r.stats.raw for r in singles]


def test_solve_many_texts_of_other_sizes():
    from puzzlebench import api
    lines = [l.split()[0] for l in data_lines("sudoku4_vu_kr_1000.txt", limit=4)]
    results = api.solve_many(lines, solver="dlx")
    assert all(r.verified and r.count >= 1 for r in results)
    mixed = api.solve_many(lines[:1] + ["8"], solver="dlx", kind=None)  # not one size: one by one
    assert mixed[0].verified and mixed[1].kind == "nqueens" and mixed[1].count == 2



def test_a_long_matrix_build_stops_at_the_time_limit():
    """A 9x9 Skyscrapers with every clue makes some 400,000 line options (seconds to build):
    the build looks at the clock, so the engines answer timeout without searching, instead of
    overrunning their limit until the harness kills them."""
    import random

    from puzzlebench.errors import OutOfTime
    from puzzlebench.generators.latin import random_latin_square
    from puzzlebench.models.skyscrapers import clues_shown
    puzzle = Skyscrapers(9, *clues_shown(9, random_latin_square(9, random.Random(3))).values())
    with pytest.raises(OutOfTime):
        encode_puzzle(puzzle, expired=lambda: True)
    for engine in (DlxEngine(), DlxPyEngine()):
        result = engine.run(puzzle, time_limit=1e-6)
        assert (result.status, result.count, result.times.solve) == (Status.TIMEOUT, 0, 0.0)
        assert result.times.encode > 0
