"""The bitboard engines' search over units (Sudoku-X, jigsaw, Latin squares): OEIS and
published counts, agreement with `mrv` on public and random grids, the locked rule across any
two units, time limits, the GIL released, and malformed units arguments."""

import random
import time
from array import array

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bitboard_agree import BB, MRV, agree, full_grid
from conftest import data_file, data_lines
from puzzlebench import _native, parse
from puzzlebench.errors import PuzzleError
from puzzlebench.generators.latin import random_latin_square
from puzzlebench.models.jigsaw import JigsawSudoku
from puzzlebench.models.latin import LatinSquare, latin_lines
from puzzlebench.models.reader import read_puzzles
from puzzlebench.models.sudoku import parse_sudoku_line, unit_table
from puzzlebench.models.sudokux import SudokuX
from puzzlebench.results import Status
from puzzlebench.engines.bitboard import BitboardEngine


# -- grids of units: Sudoku-X, jigsaw, Latin squares -------------------------------------------

def latin_grid(n: int, values=None) -> LatinSquare:
    return LatinSquare(n, values or [0] * (n * n))


def sudoku_units(rows: int, cols: int) -> list[int]:
    """A Sudoku's rows, columns and blocks, as the model numbers them, flat."""
    return [c for _, cells in unit_table(rows, cols) for c in cells]


@pytest.mark.parametrize("locked", [True, False])
def test_latin_squares_of_orders_1_to_5_are_counted_as_oeis_a002860(locked):
    engine = BitboardEngine(options={"locked": locked})
    for n, count in [(1, 1), (2, 2), (3, 12), (4, 576), (5, 161_280)]:
        result = engine.run(latin_grid(n), limit=None, time_limit=120)
        assert (result.status, result.count, result.verified) == (Status.MULTIPLE if n > 1 else Status.UNIQUE,
                                                                  count, True)
        assert result.stats.raw["locked_eliminations"] == 0   # two lines share one cell at most


@pytest.mark.parametrize("locked", [True, False])
def test_the_4x4_sudoku_x_grids_are_48_and_the_sudoku_grids_288(locked):
    engine = BitboardEngine(options={"locked": locked})
    assert engine.run(parse("." * 16, kind="sudoku-x"), limit=None).count == 48
    assert engine.run(parse("." * 16), limit=None).count == 288


def test_the_sudoku_path_is_the_units_search_given_rows_columns_and_blocks():
    """One search: a Sudoku of any shape but 9x9 gives the same count, solutions and every
    counter through sudoku_solve as through units_solve with its units."""
    rng = random.Random(5)
    for box in [(2, 3), (3, 4), (4, 4)]:
        n = box[0] * box[1]
        grid = full_grid(box, rng)
        for holes in (0.5, 0.7):
            givens = bytes(0 if rng.random() < holes else v for v in grid)
            for locked in (True, False):
                plain = _native.sudoku_solve(*box, givens, 3, 3, 0.0, locked)
                units = _native.units_solve(n, array("H", sudoku_units(*box)), givens, 3, 3, 0.0, locked)
                assert plain == units


def test_the_locked_rule_over_any_two_units_saves_nodes_on_16x16():
    """Claiming (a line's value confined to one block leaves the rest of the block) and
    pointing along columns as well as rows, which the 16x16 search lacked before."""
    lines = [l.split()[0] for l in data_lines("sudoku16_vu_kr_1000.txt", 40, step=25)]
    with_rule, without = BitboardEngine(), BitboardEngine(options={"locked": False})
    nodes = [0, 0]
    for line in lines:
        puzzle = parse_sudoku_line(line)
        a, b = with_rule.run(puzzle), without.run(puzzle)
        assert (a.status, a.solutions) == (b.status, b.solutions) and a.verified
        nodes[0] += a.stats.nodes
        nodes[1] += b.stats.nodes
    assert nodes[0] < nodes[1]


@pytest.mark.parametrize("name", ["tatham_solo_sudokux_3x3_100.txt", "tatham_solo_jigsaw9_100.txt"])
def test_the_locked_rule_works_across_diagonals_and_jigsaw_regions(name):
    """Over the public sets the rule removes candidates and saves nodes (all 100: Sudoku-X
    592 nodes without, 204 with; jigsaw 2,265 and 184), the answers unchanged."""
    with_rule, without = BitboardEngine(), BitboardEngine(options={"locked": False})
    nodes, removed = [0, 0], 0
    for puzzle in tatham_sample(name, step=2):
        a, b = with_rule.run(puzzle), without.run(puzzle)
        assert (a.status, a.solutions) == (b.status, b.solutions) and a.verified
        nodes[0] += a.stats.nodes
        nodes[1] += b.stats.nodes
        removed += a.stats.raw["locked_eliminations"]
    assert removed > 0 and 2 * nodes[0] < nodes[1]


def tatham_sample(name: str, step: int) -> list:
    """Every ``step``-th puzzle of a public Solo set, read by puzzlebench's reader."""
    path = data_file(name)
    items = list(read_puzzles(path.read_text(), path.name))
    assert all(not isinstance(item, PuzzleError) for item in items)
    return items[::step]


@pytest.mark.parametrize("name, kind", [("tatham_solo_sudokux_3x3_100.txt", "sudoku-x"),
                                        ("tatham_solo_jigsaw9_100.txt", "jigsaw")])
@pytest.mark.parametrize("locked", [True, False])
def test_public_tatham_sets_agree_with_mrv(name, kind, locked):
    engine = BitboardEngine(options={"locked": locked})
    sample = tatham_sample(name, step=5)
    assert len(sample) == 20 and {p.kind for p in sample} == {kind}
    for puzzle in sample:
        a, b = engine.run(puzzle, limit=2), MRV.run(puzzle, limit=2, time_limit=60)
        assert (a.status, a.count, a.solutions) == (b.status, b.count, b.solutions) == (Status.UNIQUE, 1, a.solutions)
        assert a.verified and puzzle.check(a.solutions[0]) == []


def random_jigsaw(n: int, rng: random.Random, holes: float) -> JigsawSudoku:
    """Regions of any shape (the cells of a random Latin square's values, or a random
    partition: not always solvable) and givens from a solution when there is one."""
    if rng.random() < 0.5:
        regions = random_latin_square(n, rng)                 # a region of each value's cells
    else:
        regions = [r for r in range(n) for _ in range(n)]
        rng.shuffle(regions)
    empty = JigsawSudoku(regions, [0] * (n * n))
    found = BB.run(empty, limit=1)
    if not found.solutions:
        return empty
    return JigsawSudoku(regions, [0 if rng.random() < holes else v for v in found.solutions[0]])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["latin", "sudoku-x", "jigsaw"]), st.integers(3, 6), st.integers(0, 2**32),
       st.floats(0.3, 0.9), st.sampled_from([2, None]))
def test_random_grids_of_units_agree_with_mrv(kind, n, seed, holes, limit):
    rng = random.Random(seed)
    if kind == "latin":
        square = random_latin_square(n, rng)
        puzzle = latin_grid(n, [0 if rng.random() < holes else v for v in square])
    elif kind == "sudoku-x":
        box = {3: (1, 3), 4: (2, 2), 5: (1, 5), 6: (2, 3)}[n]
        found = BB.run(SudokuX(box, [0] * (n * n)), limit=1).solutions
        grid = found[0] if found else [0] * (n * n)
        puzzle = SudokuX(box, [0 if rng.random() < holes else v for v in grid])
    else:   # at 6x6 regions from a Latin square are transversals: no solution (Euler's 36
        puzzle = random_jigsaw(min(n, 5), rng, holes)   # officers), which mrv takes seconds to prove
    if limit is None and sum(v == 0 for v in puzzle.givens) > 10:
        limit = 20
    for locked in (True, False):
        agree(puzzle, limit=limit, engine=BitboardEngine(options={"locked": locked}))


def test_a_time_limit_stops_a_latin_count():
    start = time.perf_counter()
    result = BB.run(latin_grid(7), limit=None, time_limit=0.3)
    assert result.status is Status.TIMEOUT and result.count > 0 and result.verified
    assert time.perf_counter() - start < 4


@pytest.mark.parametrize("puzzle", [parse("." * 16, kind="sudoku-x"), parse("." * 36, kind="sudoku-x"),
                                    latin_grid(7), JigsawSudoku(random_latin_square(5, random.Random(3)), [0] * 25)],
                         ids=["x4", "x6", "latin7", "jigsaw5"])
def test_the_units_are_exactly_the_rules(puzzle):
    """The engine reads each kind's own unit lists; the rules must say no more than they do:
    one value per cell and an AllDifferent per unit, the same units in the same order."""
    from puzzlebench.models.vocabulary import AllDifferent, ExactlyOne
    from puzzlebench.engines.bitboard import grid_units
    rules = puzzle.rules.constraints
    assert all(isinstance(rule, (ExactlyOne, AllDifferent)) for rule in rules)
    assert list(grid_units(puzzle)) == [c for rule in rules if isinstance(rule, AllDifferent) for c in rule.cells]
    assert all(len(rule.cells) == puzzle.n_values for rule in rules if isinstance(rule, AllDifferent))


def test_the_units_are_kept_per_structure():
    engine = BitboardEngine()
    engine.run(parse("." * 16, kind="sudoku-x"))
    engine.run(parse("1" + "." * 15, kind="sudoku-x"))
    assert list(engine._units_kept) == [("sudoku-x", (2, 2))]


def test_the_search_releases_the_gil():
    """Two Latin counts on two threads take about the time of one when the GIL is released
    (a loaded machine may not give the second core: then only that both finish)."""
    import threading
    units = array("H", [c for _, cells in latin_lines(7) for c in cells])
    done = []

    def count():
        done.append(_native.units_solve(7, units, bytes(49), None, 0, 0.3, True)[1])

    threads = [threading.Thread(target=count) for _ in range(2)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert done == [True, True] and time.perf_counter() - start < 4


LATIN4 = array("H", [c for _, cells in latin_lines(4) for c in cells])


@pytest.mark.parametrize("call, message", [
    (lambda: _native.units_solve(65, LATIN4, bytes(65 * 65), 2, 1, 0.0, True), "n = 65: 1 to 64 values supported"),
    (lambda: _native.units_solve(0, LATIN4, b"", 2, 1, 0.0, True), "n = 0: 1 to 64 values supported"),
    (lambda: _native.units_solve(4, LATIN4[:-1], bytes(16), 2, 1, 0.0, True),
     "units: 31 cell indices, not a whole number of units of 4 cells"),
    (lambda: _native.units_solve(4, array("H", [0, 1, 2, 16]), bytes(16), 2, 1, 0.0, True),
     "units: cell 16 in unit 0 is outside 0..15"),
    (lambda: _native.units_solve(4, array("i", [0, 1, 2, 3, 4, 5, -1, 7]), bytes(16), 2, 1, 0.0, True),
     "units: cell -1 in unit 1 is outside 0..15"),
    (lambda: _native.units_solve(4, array("Q", [0, 1, 2, 2**64 - 1]), bytes(16), 2, 1, 0.0, True),
     "units: cell 18446744073709551615 in unit 0 is outside 0..15"),
    (lambda: _native.units_solve(4, array("q", [0, 1, 2, -2**63]), bytes(16), 2, 1, 0.0, True),
     "units: cell -9223372036854775808 in unit 0 is outside 0..15"),
    (lambda: _native.units_solve(4, bytes([0, 1, 2, 3, 4, 5, 6, 4]), bytes(16), 2, 1, 0.0, True),
     "units: unit 1 holds cell 4 twice"),
    (lambda: _native.units_solve(4, array("d", [0, 1, 2, 3]), bytes(16), 2, 1, 0.0, True),
     "units: a buffer of integers is needed, not of format 'd'"),
    (lambda: _native.units_solve(2, bytes([0, 1]) * 17, bytes(4), 2, 1, 0.0, True),
     "units: 17 units; at most 16 (8 per value) supported"),
    (lambda: _native.units_solve(4, LATIN4, bytes(15), 2, 1, 0.0, True), "givens: expected 16 bytes, got 15"),
    (lambda: _native.units_solve(4, LATIN4, bytes([5]) + bytes(15), 2, 1, 0.0, True),
     "givens[0] = 5 is outside 0..4"),
    (lambda: _native.units_solve(4, LATIN4, bytes(16), -1, 1, 0.0, True), "limit must be >= 0 or None"),
    (lambda: _native.units_solve(4, LATIN4, bytes(16), 2, -1, 0.0, True), "keep must be >= 0"),
])
def test_malformed_units_arguments_raise(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_units_arguments_of_the_wrong_type_raise_type_error():
    with pytest.raises(TypeError):
        _native.units_solve(4, [0, 1, 2, 3], bytes(16), 2, 1, 0.0, True)
    with pytest.raises(TypeError):
        _native.units_solve(4, LATIN4, "0" * 16, 2, 1, 0.0, True)


def test_units_take_any_integer_buffer_and_no_units_at_all():
    for typecode in "bBhHiIlLqQ":
        assert _native.units_solve(4, array(typecode, LATIN4), bytes(16), None, 0, 0.0, True)[0] == 576
    assert _native.units_solve(4, memoryview(bytes(LATIN4.tolist())), bytes(16), None, 0, 0.0, True)[0] == 576
    count, timed_out, sols, _ = _native.units_solve(2, b"", bytes(4), None, 20, 0.0, True)
    assert (count, timed_out, len(sols)) == (16, False, 16 * 4)   # no unit: every cell free
    count, *_ = _native.units_solve(4, LATIN4, bytes([1, 1] + [0] * 14), 2, 1, 0.0, True)
    assert count == 0                                               # givens that break a unit: none
