"""The pure-Python baselines: the stack backtracking and the MRV engine."""

import pytest
from hypothesis import given, settings, strategies as st

from conftest import data_lines
from puzzlebench.engines.registry import make_engine
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.engines.backtrack import stack_search


def _all(n, choices):
    return list(stack_search(n, choices))


def test_course_problem1():
    table = [[1, 2, 3, 4], [5, 6], [7, 8], [9]]
    sols = _all(4, lambda i, tops: table[i])
    assert len(sols) == 16 and [3, 6, 7, 9] in sols
    assert sols[0] == [4, 6, 8, 9]  # the seed tries the last choice of a stack first


def test_course_problem2():
    def choices(i, tops):
        return [[1, 2, 3], [2 * tops[0]] if tops else [], [5, 7, 9], [tops[2]] if len(tops) > 2 else []][i]
    sols = _all(4, choices)
    assert len(sols) == 9 and [2, 4, 7, 7] in sols


def test_course_problem3():
    def choices(i, tops):
        if i == 0:
            return [1, 3, 5, 7, 9]
        if i == 1:
            return [2, 4] if tops[0] >= 5 else [6, 8]
        if i == 2:
            return [tops[1] // 2]
        return [tops[0] - 1, 9]
    sols = _all(4, choices)
    assert len(sols) == 20 and [5, 2, 1, 4] in sols


def test_course_problem4():
    assert sorted(_all(4, lambda i, tops: [0, 1])) == [[a, b, c, d] for a in (0, 1) for b in (0, 1)
                                                        for c in (0, 1) for d in (0, 1)]


def _oeis():
    counts = {}
    for line in data_lines("nqueens_solution_counts_oeis.txt"):
        n, total, _ = line.split()
        counts[int(n)] = int(total)
    return counts


@pytest.mark.parametrize("solver", ["backtrack", "mrv"])
def test_nqueens_counts_match_oeis(solver):
    oeis = _oeis()
    engine = make_engine(solver)
    for n in range(1, 11):
        res = engine.run(NQueens(n), limit=None)
        assert res.count == oeis[n], n
        assert res.verified


def test_queens_completion():
    engine = make_engine("mrv")
    res = engine.run(NQueens(8, [(0, 0)]), limit=None)
    assert res.count == 4  # of the 92 eight-queens solutions, 4 have a queen in a corner square
    assert all(s[0] == 1 for s in res.solutions)


def test_mrv_solves_top95_sample():
    engine = make_engine("mrv")
    for line in data_lines("sudoku9_norvig_top95.txt", limit=10, step=9):
        res = engine.run(parse_sudoku_line(line.split()[0]))
        assert res.status is Status.UNIQUE and res.verified


def test_backtrack_easy_and_timeout():
    engine = make_engine("backtrack")
    for line in data_lines("sudoku9_kaggle1m_first9999_with_solutions.txt", limit=3):
        puzzle_text, solution = line.split()[:2]
        p = parse_sudoku_line(puzzle_text)
        res = engine.run(p)
        assert res.status is Status.UNIQUE
        assert p.format_solution(res.solutions[0]) == solution
    hard = parse_sudoku_line(data_lines("sudoku9_norvig_hardest.txt", limit=1)[0].split()[0])
    res = engine.run(hard, time_limit=0.2)
    assert res.status in (Status.TIMEOUT, Status.UNIQUE)


def test_backtrack_reports_timeout_cleanly():
    empty16 = Sudoku((4, 4), [0] * 256)
    res = make_engine("backtrack").run(empty16, limit=None, time_limit=0.1)
    assert res.status is Status.TIMEOUT and res.error is None
    assert res.count >= len(res.solutions) and all(empty16.check(s) == [] for s in res.solutions)
    assert res.times.total < 2.0   # the limit held (0.1 s and a look at the clock every so many nodes)


def test_skyscrapers_nsol():
    engine = make_engine("mrv")
    for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", step=40):
        f = line.split()
        n = int(f[0])
        if n > 6:
            continue
        p = Skyscrapers(n, *[list(map(int, x.split(","))) for x in f[1:5]])
        res = engine.run(p)
        if f[5] == "nsol=1":
            assert res.status is Status.UNIQUE
            assert p.format_solution(res.solutions[0]) == f[6]
        else:
            assert res.count >= 2


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 7), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=2))
def test_engines_agree_on_queens_completion(n, placed):
    placed = [(r % n, c % n) for r, c in placed]
    try:
        puzzle = NQueens(n, placed)
    except Exception:
        return
    a = make_engine("mrv").run(puzzle, limit=None)
    b = make_engine("backtrack").run(puzzle, limit=None)
    assert a.count == b.count and a.verified and b.verified
    assert set(a.solutions) == set(b.solutions) or a.count > 10


@pytest.mark.parametrize("name, step", [("sudoku4_vu_kr_1000.txt", 100), ("sudoku16_vu_kr_1000.txt", 250)])
def test_mrv_solves_4x4_and_16x16_sets(name, step):
    engine = make_engine("mrv")
    for line in data_lines(name, step=step):
        res = engine.run(parse_sudoku_line(line.split()[0]), time_limit=60)
        assert res.status is Status.UNIQUE and res.verified


def test_mrv_solves_6x6_and_12x12_examples():
    from puzzlebench.models.examples import example
    for name, shape in (("sudoku6", "6x6 (2x3 blocks)"), ("sudoku12", "12x12 (3x4 blocks)")):
        puzzle = example(name)
        assert puzzle.shape == shape
        res = make_engine("mrv").run(puzzle)
        assert res.status is Status.UNIQUE and puzzle.check(res.solutions[0]) == []
