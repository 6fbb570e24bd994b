"""Properties that hold for every engine and every puzzle: each answer passes the puzzle's own
checker, all engines agree on status and count, and Sudoku symmetries keep the count."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from random_puzzles import random_futoshiki, random_kenken, random_killer, random_queens, random_skyscrapers

from puzzlebench.generators.fill import random_full_grid
from puzzlebench.engines.registry import FAMILIES, engine_class, make_engine
from puzzlebench.harness.scramble import scramble_sudoku
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.results import Status

AVAILABLE = [f for f in FAMILIES if engine_class(f).unavailable_reason() is None]
EXTRA = {"template": "puzzlebench.engines.TEMPLATE:TemplateEngine"}
"""Engines outside the registry held to the same properties: the template for new engines."""
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))


def _sudoku(box, seed, holes):
    rng = random.Random(seed)
    grid = random_full_grid(box, rng)
    for cell in rng.sample(range(len(grid)), holes):
        grid[cell] = 0
    return Sudoku(box, grid)


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
def test_engines_agree_onrandom_skyscrapers(seed):
    _agree(random_skyscrapers(seed), limit=3)


@pytest.mark.slow
@SETTINGS
@given(st.integers(0, 10**6), st.integers(5, 7))
def test_engines_agree_on_queens_completion(seed, n):
    _agree(random_queens(seed, n), limit=None)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(3, 4))
def test_engines_agree_on_futoshiki(seed, n):
    _agree(random_futoshiki(seed, n)[0], limit=2)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(3, 4))
def test_engines_agree_on_random_kenken(seed, n):
    _agree(random_kenken(seed, n), limit=2)


@SETTINGS
@given(st.integers(0, 10**6))
def test_engines_agree_on_random_4x4_killer(seed):
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
def test_every_engine_counts_the_queens_of_eight_and_six():
    """92 and 4 solutions (OEIS A000170); the Quine solver, in pure Python, is given six queens
    only: it takes about 8 s to enumerate the 92."""
    for family in AVAILABLE:
        engine = make_engine(family)
        if "nqueens" in engine.kinds and family not in ("human",):
            for n, count in ((6, 4),) if family == "quine" else ((8, 92), (6, 4)):
                assert engine.run(NQueens(n), limit=None, time_limit=120).count == count, (family, n)
