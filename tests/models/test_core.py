"""The result record, statuses, solver specs and the engine base."""

import pytest

from puzzlebench.errors import InvalidPuzzleError, ParseError, Place, SolverSpecError, UsageError
from puzzlebench.engines.registry import FAMILIES, make_engine, parse_spec, SolverSpec
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import Sudoku, infer_box, parse_sudoku_line
from puzzlebench.results import Status, status_of
from puzzlebench.runtime.limits import Deadline
from puzzlebench.engines.base import Engine, SearchOutcome


@pytest.mark.parametrize("count, limit, timed_out, expected", [
    (0, 2, False, Status.UNSAT), (1, 2, False, Status.UNIQUE), (2, 2, False, Status.MULTIPLE),
    (1, 1, False, Status.SAT), (1, None, False, Status.UNIQUE), (7, None, False, Status.MULTIPLE),
    (1, 2, True, Status.TIMEOUT), (0, None, True, Status.TIMEOUT),
])
def test_status_of(count, limit, timed_out, expected):
    assert status_of(count, limit, timed_out) is expected


def test_spec_parsing():
    assert parse_spec("sat:minisat22@encoding=minimal;amo=pairwise") == SolverSpec(
        "sat", "minisat22", (("encoding", "minimal"), ("amo", "pairwise")))
    assert parse_spec("mrv") == SolverSpec("mrv")
    assert str(parse_spec("cpsat:bool@workers=2")) == "cpsat:bool@workers=2"


def test_spec_errors():
    with pytest.raises(SolverSpecError) as e:
        make_engine("nosuch")
    assert str(e.value).startswith("unknown solver 'nosuch'; known: ")
    with pytest.raises(SolverSpecError) as e:
        make_engine("mrv:fast")
    assert str(e.value) == "mrv has no variants (got 'fast')"
    with pytest.raises(SolverSpecError) as e:
        make_engine("mrv@depth=3")
    assert str(e.value) == "mrv has no option 'depth'; options: lines"
    with pytest.raises(SolverSpecError) as e:
        parse_spec("mrv@depth")
    assert str(e.value) == "solver spec 'mrv@depth': option 'depth' is not key=value"


def test_error_places():
    err = ParseError("expected 81 cells, got 80", Place(None, 1, 81))
    assert str(err) == "1:81: expected 81 cells, got 80"
    assert str(err.located("top95.txt", 12)) == "top95.txt:12:81: expected 81 cells, got 80"
    assert str(InvalidPuzzleError("row 3 has two 5s").located("f.txt", 4)) == "f.txt:4: row 3 has two 5s"


def test_box_inference():
    assert infer_box(9) == (3, 3) and infer_box(6) == (2, 3) and infer_box(8) == (2, 4)
    assert infer_box(12) == (3, 4) and infer_box(16) == (4, 4) and infer_box(64) == (8, 8)


def test_invalid_givens_are_refused():
    with pytest.raises(InvalidPuzzleError, match="^1:2: row 1 has two 4s$"):   # the reader places it
        parse_sudoku_line("44" + "." * 79)
    with pytest.raises(InvalidPuzzleError, match=r"^queen at \(2,2\) attacks queen at \(4,4\)$"):
        NQueens(8, [(1, 1), (3, 3)])
    with pytest.raises(InvalidPuzzleError, match="^top clue 7 > N=5$"):
        Skyscrapers(5, [7, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5)


def test_one_by_one_sudoku_is_checked():
    # a 1x1 grid's units are single cells: the fast path once failed on them
    assert Sudoku((1, 1), [0]).check((1,)) == []
    assert Sudoku((1, 1), [0]).check((2,)) == ["r1c1 = 2 is not a value 1..1"]


def test_vocabulary_checker_agrees_with_kind_checkers():
    s = parse_sudoku_line("1234341221434321".replace("4", ".", 1))
    good = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    assert s.check(good) == [] and s.rules.violations(good) == []
    bad = (2,) + good[1:]
    assert s.check(bad) and s.rules.violations(bad)
    q = NQueens(4)
    assert q.check((2, 4, 1, 3)) == [] and q.rules.violations((2, 4, 1, 3)) == []
    assert q.check((1, 2, 3, 4)) and q.rules.violations((1, 2, 3, 4))


class _WrongEngine(Engine):
    family = "wrong"
    summary = "answers a grid that breaks the rules"
    kinds = frozenset({"sudoku"})

    def search(self, artifact, limit, keep, deadline):
        return SearchOutcome([(1,) * artifact.n_cells], 1)


def test_a_wrong_answer_is_an_error():
    res = _WrongEngine().run(Sudoku((2, 2), [0] * 16))
    assert res.status is Status.ERROR
    assert res.error.startswith("wrong answer from wrong: ")
    assert not res.verified


def test_deadline():
    assert not Deadline(None).expired()
    assert Deadline(0.0).expired()


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("seconds, message", [(0, "the time limit must be positive (seconds); got 0"),
                                              (-1.5, "time_limit -1.5: out of range: from 0 to 1000000 s"),
                                              (float("nan"), "time_limit nan: not a finite duration")])
def test_every_engine_refuses_a_time_limit_that_is_not_positive(family, seconds, message):
    engine = make_engine(family)
    puzzle = NQueens(4) if "nqueens" in engine.kinds else parse_sudoku_line("1" + "." * 80)
    with pytest.raises(UsageError) as err:
        engine.run(puzzle, time_limit=seconds)
    assert str(err.value) == message


@pytest.mark.parametrize("call", ["solve", "solve_many", "encode"])
def test_the_api_says_what_a_puzzle_is_when_given_something_else(call):
    """solve(None) raised "'NoneType' object has no attribute 'kind'" from deep inside."""
    import puzzlebench
    run = {"solve": lambda p: puzzlebench.solve(p), "solve_many": lambda p: puzzlebench.solve_many(["8", p]),
           "encode": lambda p: puzzlebench.encode(p, to="dimacs")}[call]
    for wrong, name in [(None, "NoneType"), (8, "int")]:
        with pytest.raises(TypeError) as info:
            run(wrong)
        assert str(info.value) == f"a puzzle is a Puzzle or its text (str); got {name}"
    assert puzzlebench.solve(b"8").count == 2   # bytes are text too, as parse takes them
