"""Quasigroups with holes: uniformly random Latin squares by Jacobson and Matthews' chain,
holes punched uniformly or balanced, and ``puzzlebench generate latin``."""

import random
from collections import Counter

import pytest

from puzzlebench.cli import main
from puzzlebench.generators import generate
from puzzlebench.generators.latin import (IncidenceCube, balanced_holes, qwh_instance,
                                               random_latin_square, uniform_holes)
from puzzlebench.models.latin import latin_problems
from puzzlebench.models.reader import read_records
from puzzlebench.results import Status
from puzzlebench.engines.registry import make_engine


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def line_sums(cube: IncidenceCube) -> set[int]:
    """The sums of every line of the cube (all 1 in a proper or improper cube)."""
    n, f = cube.n, cube.entry
    sums = set()
    for a in range(n):
        for b in range(n):
            sums.add(sum(f[(a * n + b) * n + s] for s in range(n)))   # (r, c, .)
            sums.add(sum(f[(a * n + c) * n + b] for c in range(n)))   # (r, ., s)
            sums.add(sum(f[(r * n + a) * n + b] for r in range(n)))   # (., c, s)
    return sums


def test_every_move_keeps_the_cube_a_proper_or_improper_cube():
    rng = random.Random(3)
    cube = IncidenceCube(5)
    improper_seen = 0
    for _ in range(400):
        cube.move(rng)
        assert line_sums(cube) == {1}
        negatives = [i for i, v in enumerate(cube.entry) if v < 0]
        assert set(cube.entry) <= {-1, 0, 1}
        if cube.improper is None:
            assert negatives == []
            assert latin_problems(5, [0] * 25, cube.square()) == []
        else:
            improper_seen += 1
            r, c, s = cube.improper
            assert negatives == [(r * 5 + c) * 5 + s]
    assert improper_seen > 0   # the chain did go through improper cubes


@pytest.mark.parametrize("n", [1, 2, 3, 7, 12, 20])
def test_the_chain_always_ends_on_a_latin_square(n):
    for seed in range(3):
        square = random_latin_square(n, random.Random(seed))
        assert latin_problems(n, [0] * (n * n), square) == []


def test_the_same_seed_gives_the_same_square():
    assert random_latin_square(9, random.Random(5)) == random_latin_square(9, random.Random(5))
    assert random_latin_square(9, random.Random(5)) != random_latin_square(9, random.Random(6))


def chi_square(counts: Counter, cells: int, draws: int) -> float:
    expected = draws / cells
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in counts) + (cells - len(counts)) * expected


def test_order_3_squares_are_equally_likely():
    """12 Latin squares of order 3: 3,000 draws, 250 expected each (standard deviation about 15)."""
    rng = random.Random(2024)
    counts = Counter(tuple(random_latin_square(3, rng)) for _ in range(3000))
    assert len(counts) == 12
    assert all(150 <= c <= 350 for c in counts.values()), counts
    assert chi_square(counts, 12, 3000) < 40    # 11 degrees of freedom: P(> 40) is about 3e-5


@pytest.mark.slow
def test_order_4_reaches_the_576_squares_uniformly():
    """576 Latin squares of order 4: 3,000 draws see about 573 of them (standard deviation ~2)
    with a chi-square about 575 (sd ~34).  Going on after n^3 moves *until* a proper cube (the
    stopping rule this generator does not use) gives 548 and 1,081 here: it favours some squares."""
    rng = random.Random(4)
    counts = Counter(tuple(random_latin_square(4, rng)) for _ in range(3000))
    assert len(counts) >= 560
    assert chi_square(counts, 576, 3000) < 750


def test_uniform_holes_are_the_share_asked():
    rng = random.Random(1)
    assert len(uniform_holes(10, 42, rng)) == 42
    p = qwh_instance(10, 0.42, random.Random(1))
    assert sum(1 for v in p.givens if v == 0) == 42
    solution = [int(v) for v in p.metadata["solution"].split()]
    assert p.check(solution) == []          # the square solves the instance: satisfiable


@pytest.mark.parametrize("n,holes", [(10, 42), (10, 40), (7, 0), (7, 49), (12, 61), (1, 1)])
def test_balanced_holes_spread_evenly_over_rows_and_columns(n, holes):
    cells = balanced_holes(n, holes, random.Random(n + holes))
    assert len(cells) == holes
    rows = Counter(c // n for c in cells)
    columns = Counter(c % n for c in cells)
    for counts in (rows, columns):
        per_line = [counts.get(k, 0) for k in range(n)]
        assert max(per_line) - min(per_line) <= 1


def test_balanced_patterns_vary():
    """Twenty seeds, twenty patterns of 3 holes a row and a column in 8x8."""
    patterns = {frozenset(balanced_holes(8, 24, random.Random(seed))) for seed in range(20)}
    assert len(patterns) == 20


def test_generated_instances_read_back_and_are_satisfiable(capsys, tmp_path):
    out = tmp_path / "qwh.pls"
    code, _, err = run(capsys, "generate", "latin", "--size", "8", "--holes", "0.5", "--count", "3",
                       "--seed", "7", "--out", str(out))
    assert code == 0 and err == ""
    with open(out) as lines:
        records = list(read_records(lines, str(out)))
    assert [r.error for r in records] == [None] * 3
    puzzles = [r.puzzle for r in records]
    assert all(p.kind == "latin" and p.n == 8 for p in puzzles)
    assert all(sum(1 for v in p.givens if v == 0) == 32 for p in puzzles)
    dlx = make_engine("dlx")
    assert all(dlx.run(p, limit=1).status is Status.SAT for p in puzzles)
    code, again, _ = run(capsys, "generate", "latin", "--size", "8", "--holes", "0.5", "--count", "3", "--seed", "7")
    assert again.rstrip("\n") == out.read_text().rstrip("\n")   # the same seed, the same instances


def test_generate_latin_balanced_from_the_command_line(capsys):
    code, out, _ = run(capsys, "generate", "latin", "--size", "6", "--holes", "0.5", "--count", "1",
                       "--seed", "1", "--balanced")
    assert code == 0
    assert out.startswith("# QWH order 6: 18 holes (50.0%, balanced), seed 1, 1 of 1\norder 6\n")
    rows = [line.split() for line in out.splitlines()[2:8]]
    assert [row.count("-1") for row in rows] == [3] * 6
    assert [[row[c] for row in rows].count("-1") for c in range(6)] == [3] * 6


def test_generate_api_is_reproducible():
    first = [p.write() for p in generate("latin", 2, 3, size=9, holes=0.4)]
    assert first == [p.write() for p in generate("latin", 2, 3, size=9, holes=0.4)]
    assert first[0] != first[1]


@pytest.mark.parametrize("argv,message", [
    (["--holes", "1.5"], "--holes 1.5: out of range: a number from 0 to 1"),
    (["--holes", "-0.1"], "--holes -0.1: out of range: a number from 0 to 1"),
    (["--holes", "nan"], "--holes nan: not a finite number"),
    (["--size", "0"], "--size 0: out of range: a whole number from 1 to 2^31-1"),
    (["--size", "65"], "--size: Latin square orders go from 1 to 64; got 65"),
    (["--count", "0"], "--count 0: out of range: a whole number from 1 to 2^63-1"),
])
def test_bad_generate_latin_arguments_are_one_line_exit_2(capsys, tmp_path, argv, message):
    out = tmp_path / "never.pls"
    code, stdout, err = run(capsys, "generate", "latin", *argv, "--out", str(out))
    assert code == 2
    assert stdout == ""
    assert err == f"puzzlebench: error: {message}\n"
    assert not out.exists()


@pytest.mark.slow
def test_generated_squares_pipe_into_check(tmp_path):
    """``generate latin | check -`` verifies every square: the block carries its solution after
    a line ``solution`` (the .pls format has no place for one), which the reader reads back."""
    import subprocess
    import sys
    generate_cmd = [sys.executable, "-m", "puzzlebench", "generate", "latin", "--size", "7", "--count", "3",
                    "--seed", "5", "--quiet"]
    made = subprocess.run(generate_cmd, capture_output=True, text=True, check=True).stdout
    checked = subprocess.run([sys.executable, "-m", "puzzlebench", "check", "-"], input=made,
                             capture_output=True, text=True)
    assert checked.returncode == 0
    assert checked.stdout.splitlines() == ["<stdin>:2: valid", "<stdin>:20: valid", "<stdin>:38: valid"]
    blocks = made.split("\n\n")
    assert blocks[0].splitlines()[9] == "solution"
    puzzle = next(read_records(made.splitlines(keepends=True), "qwh.pls")).puzzle
    solution = puzzle.parse_solution(puzzle.metadata["solution"])
    assert latin_problems(7, puzzle.givens, solution) == []
    # a wrong solution is named, a missing one says where it goes
    rows = blocks[0].splitlines()
    a, b = rows[10].split()[:2]
    rows[10] = " ".join([b, a] + rows[10].split()[2:])   # two values of the first solution row swapped
    bad = tmp_path / "bad.pls"
    bad.write_text("\n".join(rows[:9]) + "\n\n" + "\n".join(rows) + "\n")
    code, out, err = run_check(bad)
    assert code == 1
    assert out.splitlines()[0] == f"{bad}:2: error: no solution given: after the rows, a line 'solution', then the solution's rows"
    assert out.splitlines()[1] == f"{bad}:12: invalid"
    named = [line.split()[:2] for line in out.splitlines()[2:]]
    assert ["column", "1"] in named and ["column", "2"] in named and len(named) <= 4   # and any given changed
    assert f"{bad}:2: error: no solution given" in err


def run_check(path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "check", str(path)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("text, message", [
    ("order 2\n0 -1\n-1 -1\nsolution\n0 1\n1 -1\n", "<stdin>:6:3: error: a hole in the solution: it fills every cell"),
    ("order 2\n0 -1\n-1 -1\nsolution\n0 1\n", "<stdin>:4: error: 'solution' is followed by 1 rows; expected 2"),
])
def test_a_broken_solution_block_is_placed(text, message):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "check", "-"], input=text,
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout.splitlines() == [message]
