"""The Sudoku generator from 16 values (issue 17, build item 4): the counting engine's first
look, then a SAT solver, on each clue's check.  Which engine decides a check must not
change the puzzle, the puzzle must be unique and minimal by engines the generator does not use
(the native DLX), and a seed must give the same puzzle every time."""

from __future__ import annotations

import random

import pytest

from puzzlebench.generators import generate
from puzzlebench.generators import sudoku as sudoku_generator
from puzzlebench.generators.dig import Counter
from puzzlebench.generators.sudoku import CluesProver, completed_grid, generate_sudoku
from puzzlebench.runtime.limits import Deadline
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.results import Status
from puzzlebench.engines import registry


def _dig(box, seed, counter=None, **options) -> Sudoku:
    return generate_sudoku(box, random.Random(f"sudoku:{seed}"), counter=counter or Counter("sudoku"), **options)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_the_sat_solver_alone_gives_the_puzzle_the_counter_alone_gives(monkeypatch, seed):
    """With no look for the counter (``COUNTER_SECONDS`` 0) the SAT solver decides every
    check; the answers are facts about the grid, so the puzzle is the counter-alone one, clue
    for clue."""
    alone = _dig((4, 4), seed, sat=False)
    monkeypatch.setattr(sudoku_generator, "COUNTER_SECONDS", 0)
    by_sat = _dig((4, 4), seed)
    assert by_sat.metadata["decided"] == {"counter": 0, "sat": 256}
    assert by_sat.givens == alone.givens and by_sat.metadata["solution"] == alone.metadata["solution"]
    assert "undecided" not in by_sat.metadata


@pytest.mark.slow
def test_a_large_generated_sudoku_is_unique_minimal_and_reproducible():
    dlx = registry.make_engine("dlx")
    first = next(generate("sudoku", 1, 5, box=(4, 4)))
    assert first.write() == next(generate("sudoku", 1, 5, box=(4, 4))).write()
    assert first.write() != next(generate("sudoku", 1, 6, box=(4, 4))).write()
    result = dlx.run(first, limit=2)
    assert result.status is Status.UNIQUE
    assert result.solution == first.metadata["solution"]
    for cell, value in enumerate(first.givens):   # minimal: every clue is needed
        if value:
            fewer = list(first.givens)
            fewer[cell] = 0
            assert dlx.run(Sudoku((4, 4), fewer), limit=2).status is Status.MULTIPLE, cell


@pytest.mark.slow
def test_the_sat_question_is_whether_the_cell_can_take_another_value():
    """The prover's SAT question alone, on each check of a 12x12 dig, against the DLX count."""
    box = (3, 4)
    rng = random.Random(3)
    counter = Counter("sudoku")
    solution = completed_grid(box, rng, counter)
    prover = CluesProver(box, solution, counter)
    dlx = registry.make_engine("dlx")
    givens = list(solution)
    order = list(range(144))
    rng.shuffle(order)
    seen = set()
    for cell in order:
        givens[cell] = 0
        another = prover.another_solution(givens, cell, Deadline(None))
        count = dlx.run(Sudoku(box, givens), limit=2).status
        assert count is (Status.MULTIPLE if another else Status.UNIQUE), cell
        seen.add(count)
        if another:
            givens[cell] = solution[cell]
    prover.close()
    assert seen == {Status.UNIQUE, Status.MULTIPLE}


def test_a_check_cut_by_check_seconds_keeps_its_clue(monkeypatch):
    """A bound below any look: every check not decided at once keeps its clue, counted."""
    puzzle = _dig((4, 4), 1, check_seconds=1e-9)
    kept = sum(1 for g in puzzle.givens if g)
    assert 0 < puzzle.metadata.get("undecided", 0) <= kept
    assert registry.make_engine("dlx").run(puzzle, limit=2).status is Status.UNIQUE


def test_a_recheck_of_every_clue_left_undecided_is_the_dig_without_a_limit():
    """Every first check cut at once: the recheck, in the order dug, is then the whole dig, so
    the puzzle is the one dug with no limit, clue for clue, and nothing is left undecided."""
    rechecked = _dig((4, 4), 1, check_seconds=1e-9, recheck_seconds=60)
    assert rechecked.givens == _dig((4, 4), 1).givens
    assert "undecided" not in rechecked.metadata
    assert sum(1 for g in _dig((4, 4), 1, clues=120, check_seconds=1e-9, recheck_seconds=60).givens if g) == 120


def test_a_recheck_cut_too_keeps_its_clue_counted():
    first = _dig((4, 4), 1, check_seconds=1e-9)
    again = _dig((4, 4), 1, check_seconds=1e-9, recheck_seconds=2e-9)
    assert again.givens == first.givens and again.metadata["undecided"] == first.metadata["undecided"]
