"""The generators of Sudoku-X, jigsaw, Killer, Futoshiki and KenKen: each puzzle read back from
its game id, its solution valid, unique by another engine than the one that generated it (SAT),
minimal where it was dug, the same for the same seed; the cages and regions they draw."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run
from puzzlebench.generators import generate
from puzzlebench.generators.kinds import (KILLER_SIZES, components, connected, grow_cages,
                                                random_regions)
from puzzlebench.models.futoshiki import Futoshiki
from puzzlebench.models.jigsaw import JigsawSudoku
from puzzlebench.models.killer import KillerSudoku
from puzzlebench.models.reader import parse
from puzzlebench.models.sudokux import SudokuX
from puzzlebench.engines.registry import make_engine


SMALL = [("sudoku-x", {"box": (2, 2)}), ("sudoku-x", {"box": (3, 3)}), ("jigsaw", {"size": 5}),
         ("jigsaw", {"size": 6}), ("killer", {"box": (2, 2)}), ("killer", {"box": (2, 3)}),
         ("futoshiki", {"size": 4}), ("futoshiki", {"size": 5}), ("kenken", {"size": 4}), ("kenken", {"size": 5})]


def count(puzzle, limit=2) -> int:
    return make_engine("sat").run(puzzle, limit=limit).count


@pytest.mark.slow
@pytest.mark.parametrize("kind, shape", SMALL)
def test_generated_puzzles_read_back_are_unique_and_solved_by_their_solution(kind, shape):
    puzzles = list(generate(kind, 2, seed=7, **shape))
    again = list(generate(kind, 2, seed=7, **shape))
    assert [p.write() for p in puzzles] == [p.write() for p in again]           # seeded
    assert puzzles[0].write() != puzzles[1].write()
    for p in puzzles:
        read = parse(f"{p.write()} {p.metadata['solution']}")
        assert read.kind == kind and read.write() == p.write() and read.givens == p.givens
        assert read.check(read.parse_solution(read.metadata["solution"])) == []
        assert count(read) == 1                                                   # proper


@pytest.mark.slow
def test_a_large_kenken_is_proper_and_checked_by_a_search_that_learns():
    """``generate kenken --size 16 --seed 2`` took over 100 s: mrv's checks, a backtracking
    search on a Latin square with few givens, run into heavy-tailed searches from size 13 or so;
    from size 12 the checks are sat's (generate.LEARNING_FROM), under a second here.  The
    puzzle is proper by CP-SAT, an engine that took no part in making it."""
    from puzzlebench.generators.dig import Counter
    from puzzlebench.results import Status
    assert (Counter("kenken", 16).engine.family, Counter("kenken", 11).engine.family) == ("sat", "mrv")
    [p] = generate("kenken", 1, seed=2, size=16)
    read = parse(f"{p.write()} {p.metadata['solution']}")
    assert read.kind == "kenken" and read.n == 16
    assert read.check(read.parse_solution(read.metadata["solution"])) == []
    assert make_engine("cpsat").run(read, limit=2).status is Status.UNIQUE


@pytest.mark.slow
@pytest.mark.parametrize("kind, shape, seed", [("killer", {"box": (3, 4)}, 2), ("jigsaw", {"size": 12}, 2)])
def test_a_large_killer_and_jigsaw_are_made_by_searches_that_learn(kind, shape, seed):
    """Killer 3x4 (seed 2) ran over 90 s in mrv's uniqueness checks, jigsaw 12 (seed 2) over 90 s
    in the bitboard's completion of its random givens: sat does both in about a second.  Each
    puzzle is proper by CP-SAT, which took no part in making it."""
    from puzzlebench.generators.dig import Counter
    from puzzlebench.results import Status
    assert Counter("killer", 9).engine.family == "sat"
    [p] = generate(kind, 1, seed=seed, **shape)
    read = parse(f"{p.write()} {p.metadata['solution']}")
    assert read.kind == kind and read.n_values == 12
    assert read.check(read.parse_solution(read.metadata["solution"])) == []
    assert make_engine("cpsat").run(read, limit=2).status is Status.UNIQUE


def without(puzzle, clue):
    """The puzzle without one given (a cell) or, for Futoshiki, one sign."""
    givens = list(puzzle.givens)
    if isinstance(clue, tuple):
        return Futoshiki(puzzle.n, givens, [s for s in puzzle.less if s != clue])
    givens[clue] = 0
    if isinstance(puzzle, SudokuX):
        return SudokuX(puzzle.box, givens)
    if isinstance(puzzle, JigsawSudoku):
        return JigsawSudoku(puzzle.regions, givens)
    if isinstance(puzzle, KillerSudoku):
        return KillerSudoku(puzzle.box, givens, [(cells, total) for cells, _, total in puzzle.cages])
    return Futoshiki(puzzle.n, givens, puzzle.less)


@pytest.mark.parametrize("kind, shape", [s for s in SMALL if s[0] not in ("kenken", "killer")])
def test_dug_puzzles_are_minimal(kind, shape):
    """(A Killer's cages often leave no given to dig: the same ``dig`` as these.)"""
    [p] = generate(kind, 1, seed=3, **shape)
    clues = [c for c, v in enumerate(p.givens) if v] + list(getattr(p, "less", ()))
    assert clues, "a puzzle with nothing to remove proves nothing"
    for clue in clues:
        assert count(without(p, clue)) == 2, clue


def test_generated_lines_pass_check_and_bad_shapes_are_usage_errors(capsys, tmp_path):
    out = tmp_path / "kenken.txt"
    code, _, _ = run(capsys, "generate", "kenken", "--size", "4", "--count", "3", "--quiet", "--out", str(out))
    assert code == 0 and len(out.read_text().splitlines()) == 3
    code, stdout, _ = run(capsys, "check", str(out))
    assert code == 0 and stdout.count(": valid") == 3
    for argv, error in [(("jigsaw", "--size", "1"), "jigsaw sizes go from 2 to 35; got 1"),
                        (("killer", "--box", "1x3"), "Killer sizes go from 4 to 35 values; got 1x3 blocks (3)"),
                        (("futoshiki", "--size", "70"), "Futoshiki sizes go from 2 to 64; got 70"),
                        (("kenken", "--size", "36"), "KenKen sizes go from 2 to 35; got 36"),
                        (("sudoku-x", "--box", "1x2"), "Sudoku-X sizes go from 4 to 35 values")]:
        code, _, err = run(capsys, "generate", *argv, "--count", "1", "--quiet")
        assert code == 2 and f"puzzlebench: error: {error}" in err, err


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(3, 9))
def test_cages_partition_the_grid_into_connected_cages_without_repeats(seed, n):
    rng = random.Random(seed)
    solution = [(r + c) % n + 1 for r in range(n) for c in range(n)]
    cages = grow_cages(n, rng, KILLER_SIZES, lambda cage, cell: solution[cell] not in {solution[c] for c in cage})
    assert sorted(c for cage in cages for c in cage) == list(range(n * n))
    for cage in cages:
        assert connected(cage, n) and len(cage) <= max(KILLER_SIZES)
        assert len({solution[c] for c in cage}) == len(cage)
    assert components([0, 1, n + 1, 3 * n], n) == [(0, 1, n + 1), (3 * n,)] if n > 3 else True


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 9))
def test_regions_are_n_connected_regions_of_n_cells(seed, n):
    regions = random_regions(n, random.Random(seed))
    for k in range(n):
        cells = [x for x in range(n * n) if regions[x] == k]
        assert len(cells) == n and connected(cells, n)


READ_BACK = [("sudoku", ["--box", "2x2"]), ("sudoku", ["--box", "2x3"]), ("sudoku", ["--box", "3x2"]),
             ("sudoku", ["--box", "1x3"]), ("sudoku", ["--box", "3x3"]),
             ("sudoku", ["--box", "6x6", "--clues", "1250"]),     # numbers: the puzzle, then its solution
             ("sudoku", ["--box", "4x10", "--clues", "1550"]),    # numbers, a shape --box must name
             ("skyscrapers", ["--size", "4"]), ("nqueens", ["--size", "8", "--placed", "2"]),
             ("latin", ["--size", "5"]), ("sudoku-x", ["--box", "2x2"]), ("jigsaw", ["--size", "5"]),
             ("killer", ["--box", "2x2"]), ("futoshiki", ["--size", "4"]), ("kenken", ["--size", "4"])]


@pytest.mark.slow
@pytest.mark.parametrize("kind, options", READ_BACK)
def test_what_generate_writes_reads_back_with_solve_and_check(kind, options, capsys, tmp_path):
    """``generate sudoku --box 6x6`` wrote a puzzle and its solution as one line of 2592
    numbers, which check and solve refused ("a Sudoku in numbers has N² values")."""
    out = tmp_path / "generated.txt"
    code, _, _ = run(capsys, "generate", kind, *options, "--count", "2", "--seed", "7", "--quiet", "--out", str(out))
    assert code == 0
    same = ["--kind", kind] + (options[:2] if options[0] == "--box" else [])
    code, stdout, err = run(capsys, "check", str(out), *same)
    assert (code, stdout.count(": valid"), err) == (0, 2, "puzzlebench: 2 records: 2 valid\n")
    if options[:2] != ["--box", "4x10"]:      # any other shape reads back with no option too
        code, stdout, _ = run(capsys, "check", str(out))
        assert (code, stdout.count(": valid")) == (0, 2)
    code, stdout, _ = run(capsys, "solve", str(out), *same, "--format", "jsonl")
    records = [json.loads(line) for line in stdout.splitlines()]
    assert code == 0 and len(records) == 2
    assert all(r["status"] in ("unique", "multiple") and r["error"] is None for r in records)
