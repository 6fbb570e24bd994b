"""Clause learning in the search over units (sudokun_cdcl.c, option ``cdcl``): counts to two and
in all agree with DLX and SAT on random holes, with and without givens moved so that conflicts
come before the first solution, under every restart policy and restarts after every conflict
or few; every solution is counted once (blocked, never found again); clauses are learnt; the
9x9 kernel keeps its search (the seed and the time limit: test_bitboard_restarts.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlebench.errors import PuzzlebenchError
from puzzlebench.generators.latin import random_latin_square
from puzzlebench.models.latin import LatinSquare
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.options import MAX_ENGINE_SEED
from puzzlebench.results import Status
from puzzlebench.engines.registry import make_engine
from tests.engines.test_bitboard_restarts import countable, filled, holed, random_puzzle, same_count

LUBY = (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16)
"""Luby's sequence, its first 31 terms (OEIS A182105)."""

CDCL = {(policy, unit): make_engine(f"bitboard@cdcl=true;restarts={policy};conflict_unit={unit}")
        for policy in ("luby", "geometric", "none") for unit in (1, 100)}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([9, 16, 25]), st.integers(0, 2**32), st.floats(0.2, 0.75), st.integers(0, 2),
       st.sampled_from(sorted(CDCL)), st.integers(0, MAX_ENGINE_SEED))
def test_counts_to_two_agree_with_dlx(size, seed, share, moved, setting, engine_seed):
    puzzle = random_puzzle(size, seed, share if size < 25 else min(share, 0.45), moved)
    same_count(puzzle, 2, CDCL[setting].seeded(engine_seed))


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sudoku-x", "jigsaw", "latin", "16x16"]), st.integers(0, 2**32), st.floats(0.3, 0.7),
       st.integers(0, 2), st.sampled_from(sorted(CDCL)), st.integers(0, MAX_ENGINE_SEED))
def test_counts_of_every_kind_agree_with_dlx_to_two_and_in_all(kind, seed, share, moved, setting, engine_seed):
    puzzle = filled(kind, seed, share, moved)
    engine = CDCL[setting].seeded(engine_seed)
    same_count(puzzle, 2, engine)
    if countable(puzzle):
        same_count(puzzle, None, engine)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 6), st.integers(0, 2**32), st.floats(0.3, 0.8), st.sampled_from(sorted(CDCL)))
def test_every_solution_is_counted_once(n, seed, share, setting):
    """Latin squares with up to a few thousand completions, all counted: each solution found is
    blocked by its decisions' negations, so none is found twice and none is lost."""
    rng = random.Random(seed)
    puzzle = holed(lambda g: LatinSquare(n, g), random_latin_square(n, rng), rng, share)
    if sum(v == 0 for v in puzzle.givens) > 14:   # at most some thousands of completions
        puzzle = LatinSquare(n, [v if k % 3 else 0 for k, v in enumerate(random_latin_square(n, rng))])
    same_count(puzzle, None, CDCL[setting])


def test_an_empty_grid_counts_every_latin_square_of_order_four():
    """576 Latin squares of order 4 (OEIS A002860), each found once."""
    result = CDCL["luby", 1].run(LatinSquare(4, [0] * 16), limit=None, time_limit=60)
    assert (result.status, result.count, result.verified) == (Status.MULTIPLE, 576, True)


def test_clauses_are_learnt_and_the_search_restarts_before_a_first_solution():
    """16x16 with a given moved: conflicts, each a learnt clause (raw ``nogoods``), and restarts
    after every conflict; the count is DLX's."""
    learnt = restarted = 0
    for seed in range(4):
        result = same_count(random_puzzle(16, seed, 0.6, 1), 2, CDCL["luby", 1].seeded(seed))
        learnt += result.stats.raw["nogoods"]
        restarted += result.stats.raw["restarts"]
        assert result.stats.raw["nogoods"] <= result.stats.conflicts == result.stats.raw["conflicts"]
        assert result.stats.backtracks is None and "backtracks" not in result.stats.raw
    assert learnt > 0 and restarted > 0


def test_clause_learning_restarts_by_its_own_unit():
    """Option ``conflict_unit`` sets clause learning's restarts, ``restart_unit`` (the depth-first
    search's) leaves them be: after the first run's conflict_unit conflicts, Luby's sequence."""
    puzzle = random_puzzle(16, 3, 0.6, 1)
    runs = {spec: make_engine(f"bitboard@cdcl=true{spec}").seeded(3).run(puzzle, limit=2, time_limit=60)
            for spec in ("", ";restart_unit=1", ";conflict_unit=1", ";conflict_unit=3")}
    assert runs[""].stats.raw == runs[";restart_unit=1"].stats.raw
    for unit in (1, 3):
        run = runs[f";conflict_unit={unit}"]
        restarts, conflicts = run.stats.raw["restarts"], run.stats.conflicts
        assert conflicts >= sum(unit * luby for luby in LUBY[:restarts]) and restarts > 0


def test_the_9x9_kernel_keeps_its_search():
    puzzle = Sudoku((3, 3), [int(c) for c in
                             "000000010400000000020000000000050407008000300001090000300400200050100000000806000"])
    runs = [make_engine(spec).run(puzzle, limit=2) for spec in ("bitboard@cdcl=true", "bitboard")]
    assert runs[0].stats.raw == runs[1].stats.raw and "nogoods" not in runs[0].stats.raw


HANDED = {unit: make_engine(f"bitboard@handover=1;restart_unit={unit};conflict_unit={unit}") for unit in (1, 100)}
"""The depth-first search hands the puzzle to clause learning at its first dead end."""


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sudoku-x", "jigsaw", "latin", "16x16"]), st.integers(0, 2**32), st.floats(0.3, 0.7),
       st.integers(0, 2), st.sampled_from([1, 100]), st.integers(0, MAX_ENGINE_SEED))
def test_counts_after_the_handover_agree_with_dlx_to_two_and_in_all(kind, seed, share, moved, unit, engine_seed):
    puzzle = filled(kind, seed, share, moved)
    engine = HANDED[unit].seeded(engine_seed)
    same_count(puzzle, 2, engine)
    if countable(puzzle):
        same_count(puzzle, None, engine)


def test_the_search_hands_over_only_while_it_has_no_solution_and_never_at_zero():
    """Conflicts (clause learning's) only after a dead end with no solution found; with
    ``handover=0`` none, the depth-first search alone, node for node the search without it."""
    handed = 0
    for seed in range(6):
        puzzle = random_puzzle(16, seed, 0.6, 1)
        result = same_count(puzzle, 2, HANDED[100].seeded(seed))
        assert result.stats.backtracks >= 1 or result.stats.conflicts == 0
        handed += result.stats.conflicts > 0
        never = make_engine("bitboard@handover=0").seeded(seed).run(puzzle, limit=2, time_limit=60)
        assert never.stats.conflicts == 0 and never.count == result.count
    assert handed > 0
    easy = make_engine("bitboard").run(random_puzzle(25, 1, 0.3), limit=2, time_limit=60)
    assert (easy.status, easy.stats.conflicts, easy.stats.raw["nogoods"]) == (Status.MULTIPLE, 0, 0)


def test_a_negative_handover_is_refused():
    with pytest.raises(PuzzlebenchError) as caught:
        make_engine("bitboard@handover=-1")
    assert str(caught.value) == "option handover -1: out of range: a whole number from 0 to 2^63-1"
