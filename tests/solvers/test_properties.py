"""Properties that hold for every engine and every puzzle: each answer passes the puzzle's own
checker, all engines agree on status and count, and Sudoku symmetries keep the count."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlebench.harness.generate import random_full_grid, random_queens_solution
from puzzlebench.solvers.registry import FAMILIES, engine_class, make_engine
from puzzlebench.harness.scramble import scramble_sudoku
from puzzlebench.models.futoshiki import Futoshiki
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.models.vocabulary import visible_count
from puzzlebench.results import Status

AVAILABLE = [f for f in FAMILIES if engine_class(f).unavailable_reason() is None]
EXTRA = {"template": "puzzlebench.solvers.TEMPLATE:TemplateEngine"}
"""Engines outside the registry held to the same properties: the template for new engines."""
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))


def _sudoku(box, seed, holes):
    rng = random.Random(seed)
    grid = random_full_grid(box, rng)
    for cell in rng.sample(range(len(grid)), holes):
        grid[cell] = 0
    return Sudoku(box, grid)


def _skyscrapers(seed, n=4):
    rng = random.Random(seed)
    base = list(range(1, n + 1))
    rows = [base[i:] + base[:i] for i in range(n)]
    rng.shuffle(rows)
    grid = [v for r in rows for v in r]
    cols = [[grid[i * n + j] for i in range(n)] for j in range(n)]
    rws = [grid[i * n:(i + 1) * n] for i in range(n)]
    clue = lambda line: visible_count(line) if rng.random() < 0.6 else 0
    return Skyscrapers(n, [clue(c) for c in cols], [clue(c[::-1]) for c in cols],
                       [clue(r) for r in rws], [clue(r[::-1]) for r in rws])


def _queens(seed, n):
    rng = random.Random(seed)
    cols = random_queens_solution(n, rng)
    rows = rng.sample(range(n), rng.randint(0, 2))
    return NQueens(n, [(r, cols[r]) for r in rows])


def random_futoshiki(seed, n, turned=0.1):
    """A random N x N Futoshiki and the Latin square it was made from (a shuffled cyclic
    one): some of its values as givens and some of its orderings of neighbours as signs, a
    fraction ``turned`` of the signs between two empty cells turned round, so that some
    instances have no solution (the square is then no solution)."""
    rng = random.Random(seed)
    rows = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    rng.shuffle(rows)
    columns = rng.sample(range(n), n)
    square = [rows[r][columns[c]] for r in range(n) for c in range(n)]
    givens = [v if rng.random() < 0.2 else 0 for v in square]
    signs = []
    for cell in range(n * n):
        for other in ([cell + 1] if cell % n + 1 < n else []) + ([cell + n] if cell + n < n * n else []):
            if rng.random() < 0.35:
                pair = (cell, other) if square[cell] < square[other] else (other, cell)
                if rng.random() < turned and not (givens[cell] or givens[other]):
                    pair = pair[::-1]
                signs.append(pair)
    return Futoshiki(n, givens, signs), square


def _agree(puzzle, limit):
    results = {}
    for family in [*AVAILABLE, *EXTRA]:
        engine = make_engine(family, EXTRA)
        if puzzle.kind not in engine.kinds:
            continue
        res = engine.run(puzzle, limit=limit, time_limit=60)
        assert res.status is not Status.ERROR, (family, res.error)
        assert res.verified, family
        results[family] = (res.status, res.count)
    assert len(set(results.values())) == 1, results


@SETTINGS
@given(st.integers(0, 10**6), st.integers(6, 14))
def test_engines_agree_on_4x4_sudoku(seed, holes):
    _agree(_sudoku((2, 2), seed, holes), limit=3)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(12, 24))
def test_engines_agree_on_6x6_sudoku(seed, holes):
    _agree(_sudoku((2, 3), seed, holes), limit=2)


@pytest.mark.slow
@SETTINGS
@given(st.integers(0, 10**6))
def test_engines_agree_on_skyscrapers(seed):
    _agree(_skyscrapers(seed), limit=3)


@pytest.mark.slow
@SETTINGS
@given(st.integers(0, 10**6), st.integers(5, 7))
def test_engines_agree_on_queens_completion(seed, n):
    _agree(_queens(seed, n), limit=None)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(3, 4))
def test_engines_agree_on_futoshiki(seed, n):
    _agree(random_futoshiki(seed, n)[0], limit=2)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(3, 4))
def test_engines_agree_on_random_kenken(seed, n):
    from test_cages import random_kenken
    _agree(random_kenken(seed, n), limit=2)


@SETTINGS
@given(st.integers(0, 10**6))
def test_engines_agree_on_random_4x4_killer(seed):
    from test_cages import random_killer
    _agree(random_killer(seed), limit=2)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]))
def test_symmetries_keep_the_solution_count(seed, box):
    n = box[0] * box[1]
    puzzle = _sudoku(box, seed, holes={4: 11, 6: 24, 9: 56}[n])
    engine = make_engine("mrv")
    before = engine.run(puzzle, limit=None if n < 9 else 20)
    after = engine.run(scramble_sudoku(puzzle, random.Random(seed)), limit=None if n < 9 else 20)
    assert (before.status, before.count) == (after.status, after.count)
    assert after.verified


@pytest.mark.slow
@pytest.mark.parametrize("n,count", [(8, 92)])
def test_every_engine_counts_eight_queens(n, count):
    for family in AVAILABLE:
        engine = make_engine(family)
        if "nqueens" in engine.kinds and family not in ("human",):
            assert engine.run(NQueens(n), limit=None, time_limit=120).count == count, family
