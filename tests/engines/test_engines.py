"""One suite for every engine in the registry, every variant: each is held to the same
published counts and to ``mrv``'s answers on the kinds it takes, so that a new engine (one
module and one registry line) is tested here without a line of its own.

Heavier cases (a 9x9 from a hard set, 16x16, all solutions of 8-queens) run on each family's
default variant; the small ones on every variant.  Engine-specific matters (options, export
formats, statistics names) stay in each engine's own test file."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlebench.errors import SolverSpecError
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.engines.registry import FAMILIES, engine_class, make_engine

from agreement import agree_with_mrv, mrv_reference, skyscrapers_line
from conftest import data_lines

AVAILABLE = [f for f in FAMILIES if engine_class(f).unavailable_reason() is None]
DEFAULTS = [pytest.param(f, id=f) for f in AVAILABLE]
EVERY_VARIANT = [pytest.param(f"{f}:{v}" if v else f, id=f"{f}:{v}" if v else f)
                 for f in AVAILABLE for v in (engine_class(f).variants or (None,))]


def takes(spec: str, kind: str) -> bool:
    return kind in make_engine(spec).kinds


def needs(spec: str, kind: str) -> None:
    if not takes(spec, kind):
        pytest.skip(f"{spec} does not take {kind} puzzles")


def eased(line: str, fraction: float = 0.5) -> Sudoku:
    """A hard 9x9 with ``fraction`` of its empty cells filled from its solution: hard enough
    to need search from the propagating engines, easy enough for plain backtracking."""
    puzzle = parse_sudoku_line(line)
    solution = mrv_reference(puzzle, 2).solutions[0]
    empty = [c for c, v in enumerate(puzzle.givens) if not v]
    filled = set(empty[::round(1 / fraction)])
    return Sudoku((3, 3), [solution[c] if c in filled else v for c, v in enumerate(puzzle.givens)])


@pytest.mark.parametrize("spec", DEFAULTS)
def test_9x9_sample_unique_verified_and_equal_to_mrv(spec):
    needs(spec, "sudoku")
    engine = make_engine(spec)
    lines = [line.split()[0] for line in data_lines("sudoku9_norvig_top95.txt", 3, step=31)]
    assert len(lines) == 3
    for line in lines:
        puzzle = eased(line)
        result = engine.run(puzzle, time_limit=60)
        assert result.status is Status.UNIQUE and result.verified, result.error
        assert result.solutions == mrv_reference(puzzle, 2).solutions


@pytest.mark.slow
@pytest.mark.parametrize("spec", EVERY_VARIANT)
def test_4x4_sudoku_counts_equal_mrv(spec):
    needs(spec, "sudoku")
    engine = make_engine(spec)
    lines = data_lines("sudoku4_vu_kr_1000.txt", 6, step=161)
    assert len(lines) == 6
    for line in lines:
        agree_with_mrv(engine, parse_sudoku_line(line.split()[0]), None)


@pytest.mark.slow
@pytest.mark.parametrize("spec", DEFAULTS)
def test_skyscrapers_counts_equal_mrv_and_nsol(spec):
    needs(spec, "skyscrapers")
    engine = make_engine(spec)
    lines = [line for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", 10_000)
             if int(line.split()[0]) <= 4][::7][:6]
    assert len(lines) == 6
    for line in lines:
        puzzle, nsol = skyscrapers_line(line)
        result = agree_with_mrv(engine, puzzle, 2)
        assert result.count == (1 if nsol == "nsol=1" else 2)


@pytest.mark.slow
@pytest.mark.parametrize("spec", DEFAULTS)
def test_nqueens_counts_all_equal_oeis(spec):
    needs(spec, "nqueens")
    counts = {int(line.split()[0]): int(line.split()[1])
              for line in data_lines("nqueens_solution_counts_oeis.txt", 7)}
    assert len(counts) == 7
    engine = make_engine(spec)
    for n in range(1, 8):
        result = engine.run(NQueens(n), limit=None, keep=100)
        assert result.count == counts[n] and result.verified, (n, result.count)


COMPLETIONS = [
    pytest.param(NQueens(8, [(0, 0)]), id="8q1"),
    pytest.param(NQueens(10, [(0, 1), (3, 7), (5, 2)]), id="10q3"),
    pytest.param(NQueens(6, [(0, 0)]), id="6q-unsat"),
    pytest.param(Sudoku((2, 3), [1, 2, 3, 4, 5, 6] + [0] * 30), id="6x6-row"),
    pytest.param(Skyscrapers(4, [0, 0, 1, 2], [0] * 4, [2, 0, 0, 0], [0] * 4,
                             givens=[0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), id="sky-givens"),
]


@pytest.mark.slow
@pytest.mark.parametrize("spec", EVERY_VARIANT)
@pytest.mark.parametrize("puzzle", COMPLETIONS)
def test_completion_instances_equal_mrv(spec, puzzle):
    needs(spec, puzzle.kind)
    agree_with_mrv(make_engine(spec), puzzle, 30)


@pytest.mark.slow
@pytest.mark.parametrize("spec", EVERY_VARIANT)
def test_a_contradiction_is_unsat(spec):
    needs(spec, "sudoku")
    # r1c1 sees 1, 2, 3 in its row and 4 in its column: no value left
    puzzle = Sudoku((2, 2), [0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    result = make_engine(spec).run(puzzle)
    assert (result.status, result.count, result.solutions) == (Status.UNSAT, 0, [])


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.booleans(), min_size=16, max_size=16), st.sampled_from(AVAILABLE))
def test_random_4x4_holes_agree_with_mrv(keep, family):
    solution = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    puzzle = Sudoku((2, 2), [v if k else 0 for v, k in zip(solution, keep)])
    if takes(family, "sudoku"):
        agree_with_mrv(make_engine(family), puzzle, None)


@pytest.mark.parametrize("spec", DEFAULTS)
def test_a_kind_it_does_not_take_is_an_error_result(spec):
    engine = make_engine(spec)
    others = [p for p in (NQueens(4), Sudoku((2, 2), [0] * 16)) if p.kind not in engine.kinds]
    for puzzle in others:
        result = engine.run(puzzle)
        assert result.status is Status.ERROR and result.error.startswith(f"{engine.family} does not handle")


@pytest.mark.parametrize("family", AVAILABLE)
def test_an_unknown_variant_or_option_is_refused_by_name(family):
    cls = engine_class(family)
    with pytest.raises(SolverSpecError) as err:
        make_engine(f"{family}:nonesuch")
    if cls.variants:
        assert str(err.value) == f"{family} has no variant 'nonesuch'; variants: {', '.join(cls.variants)}"
    else:
        assert str(err.value) == f"{family} has no variants (got 'nonesuch')"
    with pytest.raises(SolverSpecError) as err:
        make_engine(f"{family}@nonesuch=1")
    listed = ", ".join(o.name for o in cls.options) or "none"
    assert str(err.value) == f"{family} has no option 'nonesuch'; options: {listed}"


@pytest.mark.parametrize("spec", DEFAULTS)
def test_16x16_puzzles_unique_and_verified(spec):
    needs(spec, "sudoku")
    if spec in ("backtrack", "dlx-py", "quine", "human"):
        pytest.skip(f"{spec} takes minutes on a 16x16: a benchmark's matter, not a test's")
    lines = data_lines("sudoku16_vu_kr_1000.txt", 2, step=300)
    assert len(lines) == 2
    engine = make_engine(spec)
    for line in lines:
        result = engine.run(parse_sudoku_line(line.split()[0]), time_limit=60)
        assert result.status is Status.UNIQUE and result.verified, result.error


def test_an_engine_object_passed_to_the_api_twice_answers_both_times():
    """The API runs a copy of an engine passed in; a copy of a SAT engine shared the solvers
    the engine keeps, and freed them when it was collected: the second call raised
    AttributeError deep in the statistics."""
    import gc

    import puzzlebench
    engine = make_engine("sat")
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    first = puzzlebench.solve(line, solver=engine)
    gc.collect()
    second = puzzlebench.solve(line, solver=engine)
    many = puzzlebench.solve_many([line, line], solver=engine)
    gc.collect()
    assert [r.status.value for r in (first, second, *many)] == ["unique"] * 4
    assert engine.run(puzzlebench.parse(line)).status.value == "unique"   # the engine itself is whole
