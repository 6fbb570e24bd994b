"""The search over units from 16 values up (sudokun.c, option ``large``): Régin's alldifferent
filter on every unit and dom/wdeg branching.  Counts and solutions against DLX (exact cover,
no shared code) and against the same search without the rules; its counters as
docs/STATISTICS.md defines them; its limits."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import data_lines
from puzzlebench import _native
from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.generators.sudoku import generate_sudoku
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.engines.bitboard import ALLDIFF, LOCKED, WDEG, BitboardEngine
from puzzlebench.engines.registry import make_engine

NEW, OLD = BitboardEngine(), BitboardEngine(options={"large": False})
DLX = make_engine("dlx")


def agree(puzzle, limit=2, time_limit=60):
    """The new search, the old one and DLX: one status, one count, every solution verified,
    and the same solutions where all were found (the first two of many depend on the order)."""
    runs = [e.run(puzzle, limit=limit, keep=2, time_limit=time_limit) for e in (NEW, OLD, DLX)]
    assert len({(r.status, r.count) for r in runs}) == 1, (puzzle.write(), [(r.status, r.count) for r in runs])
    assert all(r.verified for r in runs)
    if runs[0].count < 2 or (limit is None and runs[0].count <= 2):
        assert sorted(runs[0].solutions) == sorted(runs[1].solutions) == sorted(runs[2].solutions)
    return runs[0]


def holes(box, seed, share):
    """A seeded full grid with a share of its cells emptied at random (unique or not)."""
    rng = random.Random(seed)
    grid = pattern_sudoku_grid(box, rng)
    return Sudoku(box, [0 if rng.random() < share else v for v in grid])


def test_public_16x16_agree_with_dlx():
    for line in data_lines("sudoku16_vu_kr_1000.txt", limit=12, step=83):
        result = agree(parse_sudoku_line(line.split()[0]))
        assert result.status is Status.UNIQUE


@pytest.mark.slow
def test_minimal_16x16_agree_and_take_fewer_nodes():
    rng = random.Random(5)
    new_nodes = old_nodes = 0
    for _ in range(3):
        puzzle = generate_sudoku((4, 4), rng)
        assert agree(puzzle).status is Status.UNIQUE
        new_nodes += NEW.run(puzzle).stats.nodes
        old_nodes += OLD.run(puzzle).stats.nodes
    assert new_nodes < old_nodes   # the point of the rules: a smaller tree for the same answers


@pytest.mark.parametrize("seed,share", [(1, 0.4), (2, 0.45), (3, 0.5), (4, 0.75)])
def test_25x25_agree_with_dlx(seed, share):
    """Cells emptied at random: most often two solutions or more (DLX needs a minute and more
    on some at 55%: the shares stop at 50 but for one with very many solutions)."""
    result = agree(holes((5, 5), seed, share))
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)


def dug(box, seed, holes_wanted):
    """A seeded full grid with cells removed while the native search finds it unique (DLX then
    checks the claim in ``agree``; DLX digging took 40 times as long)."""
    rng = random.Random(seed)
    grid = pattern_sudoku_grid(box, rng)
    removed = 0
    for cell in rng.sample(range(len(grid)), len(grid)):
        if removed == holes_wanted:
            break
        keep, grid[cell] = grid[cell], 0
        if NEW.run(Sudoku(box, grid), limit=2).status is Status.UNIQUE:
            removed += 1
        else:
            grid[cell] = keep
    return Sudoku(box, grid)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22])
def test_unique_25x25_agree_with_dlx(seed):
    assert agree(dug((5, 5), seed, 260)).status is Status.UNIQUE


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_wrong_given_25x25(seed):
    """A given changed to a value none of its peers holds: most often no solution left; the
    searches agree either way."""
    puzzle = holes((5, 5), seed, 0.45)
    grid = list(puzzle.givens)
    units = [cells for _, cells in puzzle.units()]
    for cell in random.Random(seed).sample(range(625), 625):
        seen = {grid[o] for cells in units if cell in cells for o in cells}
        free = [v for v in range(1, 26) if v not in seen]
        if grid[cell] and free:
            grid[cell] = free[0]
            break
    agree(Sudoku((5, 5), grid))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), share=st.floats(0.1, 0.8), wrong=st.integers(0, 3))
def test_random_partial_16x16_counts_agree_with_dlx(seed, share, wrong):
    """Random partial grids, some with wrong givens (unique below about 30% holes, several
    solutions above, often none with a wrong given): counts to 2 and solutions as DLX's."""
    rng = random.Random(seed)
    puzzle = holes((4, 4), seed, share)
    grid = list(puzzle.givens)
    units = [cells for _, cells in puzzle.units()]
    for _ in range(wrong):   # a given replaced by a value none of its peers holds: often no solution
        cell = rng.randrange(256)
        seen = {grid[o] for cells in units if cell in cells for o in cells}
        free = [v for v in range(1, 17) if v not in seen]
        if grid[cell] and free:
            grid[cell] = rng.choice(free)
    puzzle = Sudoku((4, 4), grid)
    a = NEW.run(puzzle, limit=2, keep=2, time_limit=20)
    b = DLX.run(puzzle, limit=2, keep=2, time_limit=20)
    if Status.TIMEOUT in (a.status, b.status):
        return
    assert (a.status, a.count) == (b.status, b.count), puzzle.write()
    assert a.verified and b.verified
    if a.count == 1:
        assert a.solutions == b.solutions


def test_counters_as_documented():
    """propagations = naked + hidden singles + locked + alldifferent eliminations; the filter's
    count moves only with the rule on and only from 16 values up."""
    puzzle = generate_sudoku((4, 4), random.Random(7))
    new, old = NEW.run(puzzle), OLD.run(puzzle)
    for r in (new, old):
        raw = r.stats.raw
        assert r.stats.propagations == (raw["naked_singles"] + raw["hidden_singles"]
                                        + raw["locked_eliminations"] + raw["alldiff_eliminations"])
        assert r.stats.nodes == raw["nodes"] >= 1 + raw["backtracks"]
        assert r.stats.guesses <= r.stats.nodes
    assert new.stats.raw["alldiff_eliminations"] > 0
    assert old.stats.raw["alldiff_eliminations"] == 0
    # below 16 values the rules are not taken: the same search, counter for counter
    small = generate_sudoku((3, 4), random.Random(7))
    assert NEW.run(small).stats == OLD.run(small).stats
    assert "alldiff_eliminations" not in NEW.run(small).stats.raw


def test_rule_bits_reach_the_c_search():
    """Each rule alone changes the search (so each bit is read), and none changes the answer."""
    puzzle = generate_sudoku((4, 4), random.Random(3))
    givens = bytes(puzzle.givens)
    outcomes = {rules: _native.sudoku_solve(4, 4, givens, 2, 1, 0.0, rules)
                for rules in (LOCKED, LOCKED | ALLDIFF, LOCKED | WDEG, LOCKED | ALLDIFF | WDEG)}
    assert len({(count, sols) for count, _, sols, _ in outcomes.values()}) == 1
    assert len({counters for *_, counters in outcomes.values()}) == 4
    assert outcomes[LOCKED][3][6] == outcomes[LOCKED | WDEG][3][6] == 0 < outcomes[LOCKED | ALLDIFF][3][6]


def test_time_limit_holds_on_a_hard_25x25():
    """Counting every solution of a 25x25 with most cells empty: far past any limit; the C
    search stops at the deadline with the solutions found so far verified."""
    puzzle = holes((5, 5), 13, 0.7)
    start = time.perf_counter()
    result = NEW.run(puzzle, limit=None, time_limit=0.3)
    assert result.status is Status.TIMEOUT and result.count > 0 and result.verified
    assert time.perf_counter() - start < 4


def test_solution_limit_holds_on_25x25():
    puzzle = holes((5, 5), 17, 0.7)
    for limit in (1, 2, 5):
        result = NEW.run(puzzle, limit=limit, keep=limit)
        assert result.count == limit and result.status is (Status.SAT if limit == 1 else Status.MULTIPLE)
        assert len(set(result.solutions)) == limit and result.verified
