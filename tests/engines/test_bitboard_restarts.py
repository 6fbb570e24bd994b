"""Randomised restarts in the search over units (sudokun.c, options ``restarts``, ``restart_unit``,
``random`` and ``nogoods``): counts stay complete (a restart, and a nogood recorded at one, only
while no solution has been found), against DLX and SAT on random holes with restarts forced after
every dead end or few; the engine seed reproduces a run and moves it; the 9x9 kernel keeps its
search; a time limit stops a search that keeps restarting; a bad restart option is refused."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlebench.errors import InvalidPuzzleError, PuzzlebenchError
from puzzlebench.options import MAX_ENGINE_SEED
from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.generators.kinds import random_regions
from puzzlebench.generators.latin import random_latin_square
from puzzlebench.models.jigsaw import JigsawSudoku
from puzzlebench.models.latin import LatinSquare
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.models.sudokux import SudokuX
from puzzlebench.results import Status
from puzzlebench.engines.registry import make_engine

DLX = make_engine("dlx")
SAT = make_engine("sat")
FORCED = {(policy, large): make_engine(f"bitboard@restarts={policy};restart_unit=1;large={large};handover=0")
          for policy in ("luby", "geometric") for large in (True, False)}
NOGOODS = {nogoods: make_engine(f"bitboard@restart_unit=1;large=false;locked=false;nogoods={nogoods};handover=0")
           for nogoods in (True, False)}
"""Restarts after every dead end, on a search weak enough to meet many before its first solution:
nogoods recorded at every restart.  These engines are the depth-first search's alone (``handover=0``:
clause learning, which counts its learnt clauses as nogoods, never takes over)."""


def holed(puzzle_of, grid, rng, share, moved=0):
    """A full grid with a share of its cells emptied, then `moved` givens given another value (a
    puzzle with few solutions or none, reached through dead ends: where restarts happen)."""
    values = [0 if rng.random() < share else v for v in grid]
    given = [k for k, v in enumerate(values) if v]
    for cell in rng.sample(given, min(moved, len(given))):
        was, others = values[cell], [v for v in range(1, max(grid) + 1) if v != values[cell]]
        for values[cell] in rng.sample(others, len(others)):   # the first value no unit holds already
            try:
                puzzle_of(values)
                break
            except InvalidPuzzleError:
                values[cell] = was
    return puzzle_of(values)


def random_puzzle(size: int, seed: int, share: float, moved: int = 0):
    """A random full grid with holes (:func:`holed`): a 9x9 Latin square (the 9x9 Sudoku has its
    own kernel, without restarts), a 16x16 or 25x25 Sudoku."""
    rng = random.Random(seed)
    if size == 9:
        return holed(lambda g: LatinSquare(9, g), random_latin_square(9, rng), rng, share, moved)
    box = {16: (4, 4), 25: (5, 5)}[size]
    return holed(lambda g: Sudoku(box, g), pattern_sudoku_grid(box, rng), rng, share, moved)


def filled(kind: str, seed: int, share: float, moved: int = 0):
    """A random Sudoku-X, jigsaw (9x9), Latin square (15x15, at most 45% open) or 16x16 Sudoku with holes (:func:`holed`),
    its full grid a seeded bitboard search's answer on an empty grid of the kind."""
    rng = random.Random(seed)
    if kind == "latin":
        return holed(lambda g: LatinSquare(15, g), random_latin_square(15, rng), rng, min(share, 0.45), moved)
    if kind == "16x16":
        return holed(lambda g: Sudoku((4, 4), g), pattern_sudoku_grid((4, 4), rng), rng, share, moved)
    while True:   # some random jigsaw regions have no filling at all (SAT, DLX and CP-SAT agree)
        regions = random_regions(9, rng)
        puzzle_of = {"sudoku-x": lambda g: SudokuX((3, 3), g), "jigsaw": lambda g: JigsawSudoku(regions, g)}[kind]
        found = SAT.run(puzzle_of([0] * 81), limit=1).solutions
        if found:
            break
    grid = found[0]
    return holed(puzzle_of, grid, rng, share, moved)


def countable(puzzle, at_most=200):
    """Whether DLX counts every solution of the puzzle, fewer than ``at_most``, inside 20 s: few
    enough to count them all.  A census cut by its time says nothing of how many there are."""
    census = DLX.run(puzzle, limit=at_most, time_limit=20)
    return census.status is not Status.TIMEOUT and census.count < at_most


def same_count(puzzle, limit, engine, reference=DLX):
    """Our count, status and solutions are the reference's (DLX, or SAT on the grids where DLX's
    column order runs past its time: a 16x16 two-thirds open can take it minutes)."""
    ours = engine.run(puzzle, limit=limit, time_limit=60)
    theirs = reference.run(puzzle, limit=limit, time_limit=20 if reference is DLX else 60)
    if theirs.status is Status.TIMEOUT and reference is DLX:
        theirs = SAT.run(puzzle, limit=limit, time_limit=60)
    assert (ours.status, ours.count) == (theirs.status, theirs.count), puzzle.write()
    assert ours.verified and theirs.verified
    if (limit is None or ours.count < limit) and ours.count == len(ours.solutions):
        assert sorted(ours.solutions) == sorted(theirs.solutions)   # all found and kept: the same ones
    return ours


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([9, 16, 25]), st.integers(0, 2**32), st.floats(0.2, 0.75), st.integers(0, 2),
       st.sampled_from(["luby", "geometric"]), st.booleans(), st.integers(0, MAX_ENGINE_SEED))
def test_counts_to_two_agree_with_dlx_while_restarting_after_every_dead_end(size, seed, share, moved, policy,
                                                                            large, engine_seed):
    puzzle = random_puzzle(size, seed, share if size < 25 else min(share, 0.45), moved)
    same_count(puzzle, 2, FORCED[policy, large].seeded(engine_seed))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 7), st.integers(0, 2**32), st.floats(0.3, 0.8), st.sampled_from(["luby", "geometric"]))
def test_every_solution_is_counted_once_while_restarting(n, seed, share, policy):
    rng = random.Random(seed)
    puzzle = holed(lambda g: LatinSquare(n, g), random_latin_square(n, rng), rng, share)
    if sum(v == 0 for v in puzzle.givens) > 14:
        puzzle = LatinSquare(n, [v if k % 3 else 0 for k, v in enumerate(random_latin_square(n, rng))])
    same_count(puzzle, None, FORCED[policy, False])


@pytest.mark.parametrize("seed, share, count", [(3, 0.55, 234), (15, 0.55, 462), (17, 0.6, 6), (30, 0.55, 33)])
def test_a_count_of_all_solutions_after_restarts_is_dlx_s(seed, share, count):
    """16x16 with a given moved, searched without the large-grid rules so that dead ends (and so
    restarts, one after each) come before the first solution: every solution counted once."""
    engine = make_engine("bitboard@restart_unit=1;large=false;locked=false;handover=0").seeded(seed)
    result = same_count(random_puzzle(16, seed, share, 1), None, engine)
    assert result.count == count and result.stats.raw["restarts"] > 0


def test_a_search_that_restarts_still_finds_and_counts_every_solution():
    """A 16x16 with nearly half its cells open: restarts are taken (raw ``restarts``) before the
    first solution, and the count to two is DLX's."""
    restarted = 0
    for seed in range(6):
        result = same_count(random_puzzle(16, seed, 0.55), 2, FORCED["luby", True].seeded(seed))
        restarted += result.stats.raw["restarts"]
        assert result.stats.backtracks >= result.stats.raw["restarts"]
    assert restarted > 0


@pytest.mark.parametrize("spec", ["bitboard@restart_unit=5", "bitboard@cdcl=true"])
def test_the_engine_seed_reproduces_a_run_and_moves_it(spec):
    """The depth-first search and the clause-learning one (option ``cdcl``) alike."""
    puzzle = random_puzzle(25, 7, 0.45)
    engine = make_engine(spec)
    runs = [engine.seeded(seed).run(puzzle, limit=2, time_limit=60) for seed in (1, 1, 2, 3, 4)]
    assert runs[0].stats.raw == runs[1].stats.raw
    assert len({r.stats.nodes for r in runs}) > 1
    fixed = make_engine(f"{spec};restarts=none;random=false")
    assert len({fixed.seeded(seed).run(puzzle, limit=2).stats.raw["nodes"] for seed in (1, 2)}) == 1


def test_the_9x9_kernel_keeps_its_search():
    puzzle = Sudoku((3, 3), [int(c) for c in
                             "000000010400000000020000000000050407008000300001090000300400200050100000000806000"])
    runs = [make_engine(spec).seeded(seed).run(puzzle, limit=2)
            for spec, seed in (("bitboard", 5), ("bitboard@restarts=none;random=false", 0))]
    assert runs[0].stats.raw == runs[1].stats.raw and "restarts" not in runs[0].stats.raw


@pytest.mark.parametrize("spec", ["bitboard@restart_unit=1", "bitboard@cdcl=true;conflict_unit=1"])
def test_a_time_limit_stops_a_search_that_keeps_restarting(spec):
    rng = random.Random(1050)   # a 36x36 with half its cells open: no engine here decides it in seconds
    puzzle = holed(lambda g: Sudoku((6, 6), g), pattern_sudoku_grid((6, 6), rng), rng, 0.5)
    start = time.perf_counter()
    result = make_engine(spec).run(puzzle, limit=2, time_limit=0.5)
    assert result.status is Status.TIMEOUT and result.stats.raw["restarts"] > 0
    assert time.perf_counter() - start < 4


@pytest.mark.parametrize("spec, message", [
    ("bitboard@restarts=sometimes", "option restarts='sometimes': choose one of none, luby, geometric"),
    ("bitboard@restart_unit=0", "option restart_unit 0: out of range: a whole number from 1 to 2^63-1"),
    ("bitboard@conflict_unit=0", "option conflict_unit 0: out of range: a whole number from 1 to 2^63-1"),
])
def test_an_unknown_restart_policy_is_refused(spec, message):
    with pytest.raises(PuzzlebenchError) as caught:
        make_engine(spec)
    assert str(caught.value) == message
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "solve", "--box", "2x2", "1234340000000000",
                           "--solver", spec], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"puzzlebench: error: {message}\n")


KINDS = ["sudoku-x", "jigsaw", "latin", "16x16"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KINDS), st.integers(0, 2**32), st.floats(0.3, 0.7), st.integers(0, 2),
       st.integers(0, MAX_ENGINE_SEED))
def test_counts_with_nogoods_agree_with_dlx_to_two_and_in_all(kind, seed, share, moved, engine_seed):
    puzzle = filled(kind, seed, share, moved)
    engine = NOGOODS[True].seeded(engine_seed)
    same_count(puzzle, 2, engine)
    if countable(puzzle):
        same_count(puzzle, None, engine)


RECORDING = {   # (puzzle seed, share open, givens moved): each has a few hundred solutions or fewer and
    "sudoku-x": [(2, 0.7, 0), (3, 0.7, 0), (0, 0.75, 1), (7, 0.75, 1)],   # dead ends before the first
    "jigsaw": [(1, 0.7, 0), (3, 0.7, 0), (6, 0.7, 0), (9, 0.7, 0)],
    "latin": [(1, 0.42, 0), (9, 0.42, 0), (3, 0.45, 1), (5, 0.42, 1)],
    "16x16": [(3, 0.55, 1), (15, 0.55, 1), (17, 0.6, 1), (30, 0.55, 1)],
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_nogoods_recorded_at_restarts_lose_no_solution_and_count_none_twice(kind):
    """Over several puzzles and engine seeds, every solution counted once, as SAT and DLX count
    them, with nogoods recorded (raw ``nogoods``) before the first; with the option off, none."""
    recorded = 0
    for k, (seed, share, moved) in enumerate(RECORDING[kind]):
        puzzle = filled(kind, seed, share, moved)
        for engine_seed in (0, 1, 2):
            result = same_count(puzzle, None, NOGOODS[True].seeded(engine_seed), SAT if k % 2 else DLX)
            assert result.stats.raw["nogoods_dropped"] == 0
            recorded += result.stats.raw["nogoods"]
            off = NOGOODS[False].seeded(engine_seed).run(puzzle, limit=None, time_limit=60)
            assert (off.count, off.stats.raw["nogoods"]) == (result.count, 0)
    assert recorded >= 4


def test_nogoods_cut_the_nodes_of_a_search_that_restarts_after_every_dead_end():
    """Without nogoods a run after a restart may walk again what the runs before refuted; with
    them it does not, so the restarted search needs fewer nodes on puzzles with no solution."""
    nodes = {True: 0, False: 0}
    for seed in range(6):
        puzzle = filled("16x16", seed, 0.6, 2)
        for nogoods in nodes:
            nodes[nogoods] += NOGOODS[nogoods].seeded(seed).run(puzzle, limit=2, time_limit=60).stats.nodes
    assert nodes[True] < nodes[False]
