"""The generators and the symmetries: Sudoku reproducible, unique and minimal, Skyscrapers and
N-Queens with their solutions, every block shape read back, scrambling, the refused arguments
of ``generate``, and large Sudoku (a full grid, checks under a time limit, progress)."""

from __future__ import annotations

import io
import os
import random
import sys

import pytest

from puzzlebench import api
from puzzlebench.cli import main
from puzzlebench.engines import registry
from puzzlebench.generators import generate
from puzzlebench.generators.sudoku import generate_sudoku
from puzzlebench.harness.inputs import read_file
from puzzlebench.harness.scramble import scramble_sudoku
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status


# -- generators and symmetries ---------------------------------------------------------------------

def test_generated_sudoku_are_reproducible_unique_and_minimal():
    mrv = registry.make_engine("mrv")
    first = [p.write() for p in generate("sudoku", 3, seed=11, box=(2, 3))]
    assert first == [p.write() for p in generate("sudoku", 3, seed=11, box=(2, 3))]
    assert first != [p.write() for p in generate("sudoku", 3, seed=12, box=(2, 3))]
    for text in first:
        puzzle = parse_sudoku_line(text, box=(2, 3))
        assert mrv.run(puzzle).status is Status.UNIQUE
        for cell, v in enumerate(puzzle.givens):  # minimal: no clue can go
            if v:
                fewer = list(puzzle.givens)
                fewer[cell] = 0
                assert mrv.run(Sudoku((2, 3), fewer)).status is Status.MULTIPLE


def test_generated_sudoku_with_a_target_clue_count():
    puzzle = generate_sudoku((2, 2), random.Random(5), clues=8)
    assert sum(1 for v in puzzle.givens if v) == 8
    assert registry.make_engine("mrv").run(puzzle).status is Status.UNIQUE
    ref = puzzle.parse_solution(puzzle.metadata["solution"])
    assert puzzle.check(ref) == []


def test_generated_skyscrapers_are_proper_and_queens_completable():
    mrv = registry.make_engine("mrv")
    for p in generate("skyscrapers", 2, seed=4, size=5, remove=0.5):
        assert mrv.run(p).status is Status.UNIQUE
        assert sum(1 for side in p.clues.values() for c in side if c == 0) >= 5
    for q in generate("nqueens", 3, seed=4, size=12, placed=4):
        assert len(q.placed) == 4
        assert mrv.run(q, limit=1).status is Status.SAT


def test_generated_skyscrapers_carry_their_solution_which_check_verifies(tmp_path, capsys):
    """Like every other kind's, a generated Skyscrapers line ends with its solution (it wrote
    none, so `check` on `generate`'s output said "no solution given")."""
    out = tmp_path / "sky.txt"
    assert main(["generate", "skyscrapers", "--size", "5", "--count", "3", "--seed", "1", "--quiet", "--out", str(out)]) == 0
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out.count(": valid") == 3
    lines = out.read_text().splitlines()
    solution = lines[0].rsplit(" ", 1)[1].split(",")
    solution[0], solution[1] = solution[1], solution[0]   # two heights of row 1 swapped: columns repeat
    out.write_text(" ".join([lines[0].rsplit(" ", 1)[0], ",".join(solution)]) + "\n")
    assert main(["check", str(out)]) == 1
    assert ": invalid" in capsys.readouterr().out


def test_generated_queens_carry_their_solution_which_check_verifies(tmp_path, capsys):
    """`generate nqueens` wrote the placed queens alone, and the N-Queens line had no field for
    an answer (its commas split a solution into plain numbers): `check` on its output said
    "no solution given", and could check no queens answer at all."""
    out = tmp_path / "q.txt"
    assert main(["generate", "nqueens", "--size", "8", "--placed", "2", "--count", "3", "--seed", "4",
                 "--quiet", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "8 (1,1) (2,5) 1,5,8,6,3,7,2,4"   # the queens' columns, row by row, after the puzzle
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out == "".join(f"{out}:{k}: valid\n" for k in (1, 2, 3))
    out.write_text("8 (1,1) 1,5,8,6,3,7,4,2\n8 (2,4) 1,5,8,6,3,7,2,4\n8 (1,1) 1,5,8\n")
    assert main(["check", str(out)]) == 1
    assert capsys.readouterr().out == (
        f"{out}:1: invalid\n  queen at (3,8) attacks queen at (7,4)\n  queen at (4,6) attacks queen at (8,2)\n"
        f"{out}:2: invalid\n  queen given at (2,4) is not in the solution\n"
        f"{out}:3: invalid\n  expected a column for each of the 8 rows, got 3\n")
    out.write_text("8 (1,1) 1,5,8,6,3,7,2,4 1,5,8,6,3,7,2,4\n")
    assert main(["check", str(out)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"puzzlebench: {out}:1:25: error: a second solution '1,5,8,6,3,7,2,4': one after the puzzle")


def test_generated_skyscrapers_do_not_depend_on_the_counting_engine():
    from puzzlebench.generators.dig import Counter
    from puzzlebench.generators.kinds import generate_skyscrapers
    by_mrv = Counter("skyscrapers")
    by_mrv.engine = registry.make_engine("mrv")
    assert by_mrv.engine.family != Counter("skyscrapers").engine.family  # bitboard counts by default
    fast = [generate_skyscrapers(5, random.Random(seed)).write() for seed in (1, 2, 3)]
    slow = [generate_skyscrapers(5, random.Random(seed), counter=by_mrv).write() for seed in (1, 2, 3)]
    assert fast == slow


def test_generate_command_output_reads_back(tmp_path, capsys):
    assert main(["generate", "sudoku", "--box", "2x2", "--count", "2", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(len(l.split()[0]) == 16 for l in lines)
    path = tmp_path / "g.txt"
    path.write_text("\n".join(lines) + "\n")
    items = read_file(str(path))
    assert [i.puzzle.kind for i in items] == ["sudoku", "sudoku"]


@pytest.mark.parametrize("box, first", [((1, 1), "1x1:a 1x1:1"), ((1, 3), "3x1:"), ((3, 2), "2x3:"),
                                        ((4, 2), "2x4:"), ((2, 3), ""), ((3, 3), "")])
def test_every_generated_block_shape_reads_back_as_itself(tmp_path, capsys, box, first):
    """A shape the reader does not infer from the grid's size (3x2 is read as 2x3 without
    --box; a side of 1 or a prime size as nothing) comes out as a Solo id, which names it: the
    lines read back as the same blocks, and ``check`` finds every solution valid."""
    shape = f"{box[0]}x{box[1]}"
    assert main(["generate", "sudoku", "--box", shape, "--count", "2", "--seed", "1", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith(first) and (first or ":" not in out)
    path = tmp_path / "g.txt"
    path.write_text(out)
    assert [i.puzzle.box for i in read_file(str(path))] == [box, box]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{path}:1: valid", f"{path}:2: valid"]


def test_a_generated_shape_no_line_names_says_how_to_read_it_back(capsys):
    """Beyond Solo's 35 values a grid is numbers, which name no shape: 4x10 is read as 5x8
    blocks unless --box says otherwise, and generate says so before it starts."""
    assert main(["generate", "sudoku", "--box", "4x10", "--count", "1", "--clues", "1600", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == ("puzzlebench: warning: --box 4x10: a grid of 40 values is written as numbers, which name "
                   "no block shape: read it back with --box 4x10\n")
    assert len(out.split()) == 1600 * 2


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_scrambled_sudoku_keep_their_solutions(box):
    rng = random.Random(9)
    puzzle = generate_sudoku(box, rng)
    mrv = registry.make_engine("mrv")
    for _ in range(3):
        other = scramble_sudoku(puzzle, rng)
        assert other.box == puzzle.box
        result = mrv.run(other)
        assert result.status is Status.UNIQUE
        assert other.check(other.parse_solution(other.metadata["solution"])) == []
        assert sum(1 for v in other.givens if v) == sum(1 for v in puzzle.givens if v)


def test_scramble_says_what_it_cannot_scramble(tmp_path, capsys):
    """--scramble's symmetries are Sudoku's: a bench of N-Queens alone is refused (it did
    nothing, silently); N-Queens beside Sudoku run as read, and a warning says so."""
    queens, sudoku = tmp_path / "q.txt", tmp_path / "s.txt"
    queens.write_text("8\n9 (1,1)\n")
    sudoku.write_text("4.3...1..3...... 4132321423411423\n")
    db = str(tmp_path / "r.sqlite")
    assert main(["bench", str(queens), "--solvers", "mrv", "--db", db, "--scramble", "--quiet"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: --scramble applies Sudoku symmetries (digits, rows, "
                                       "columns, bands); these puzzles have none: nqueens (2)\n")
    assert not os.path.exists(db)
    assert main(["bench", str(queens), str(sudoku), "--solvers", "mrv", "--db", db, "--scramble", "--quiet"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "puzzlebench: warning: --scramble scrambles Sudoku only; 2 puzzles run as read: nqueens (2)"


@pytest.mark.parametrize("argv, message", [
    (["sudoku", "--check-seconds", "0"], "--check-seconds must be more than 0; got 0"),
    (["sudoku", "--recheck-seconds", "5"], "--recheck-seconds goes with --check-seconds: without it no check "
                                           "is left undecided"),
    (["sudoku", "--check-seconds", "2", "--recheck-seconds", "2"], "--recheck-seconds must be more than "
                                                                  "--check-seconds (2); got 2"),
    (["sudoku", "--check-seconds", "1", "--recheck-seconds", "5", "--rating-min", "3"],
     "--recheck-seconds does not go with a rating target: rated puzzles are 9x9, whose checks end in milliseconds"),
    (["latin", "--recheck-seconds", "5"], "--recheck-seconds does not go with generate latin: it goes with "
                                          "generate sudoku"),
    (["skyscrapers", "--size", "10"], "Skyscrapers sizes go from 1 to 9; got 10"),
    (["sudoku", "--clues", "-3"], "--clues -3: out of range: a whole number from 0 to 2^31-1"),
    (["sudoku", "--clues", "0"], "--clues must be between 1 and 81 for 3x3 blocks; got 0"),
    # a random solution placed row by row, one recursion level a row: was a RecursionError traceback
    (["nqueens", "--size", "99999"], "N-Queens needs 1 <= n <= 64; got 99999"),
    # an option the kind takes no notice of: "generate sudoku --size 4" wrote a 9x9, silently
    (["sudoku", "--size", "4"], "--size does not go with generate sudoku: its shape is --box RxC (--box 2x2 "
                                "for 4x4, 3x3 for 9x9)"),
    (["kenken", "--box", "2x2"], "--box does not go with generate kenken: it goes with generate sudoku, "
                                 "sudoku-x, killer"),
    (["nqueens", "--holes", "0.3"], "--holes does not go with generate nqueens: it goes with generate latin"),
    (["latin", "--balanced", "--remove", "0.2"], "--remove does not go with generate latin: it goes with "
                                                 "generate skyscrapers"),
])
def test_generate_refusing_an_argument_leaves_the_out_file_as_it_was(tmp_path, capsys, argv, message):
    kept, new = tmp_path / "kept.txt", tmp_path / "new.txt"
    kept.write_text("precious\n")
    for out in (kept, new):
        assert main(["generate", *argv, "--count", "1", "--quiet", "--out", str(out)]) == 2
        assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"
    assert kept.read_text() == "precious\n" and not new.exists()
    assert main(["generate", "sudoku", "--box", "2x2", "--count", "2", "--quiet", "--out", str(kept)]) == 0
    assert [len(line.split()) for line in kept.read_text().splitlines()] == [2, 2]   # replaced, not appended


# -- large Sudoku: a full grid by the engine, checks under a time limit, progress by cells ------------

@pytest.mark.parametrize("box", [(4, 4), (3, 5), (5, 5), (6, 6)])
def test_a_completed_grid_is_a_valid_full_grid_the_same_for_a_seed(box):
    from puzzlebench.generators.dig import Counter
    from puzzlebench.generators.sudoku import completed_grid
    counter = Counter("sudoku")
    grid = completed_grid(box, random.Random(3), counter)
    n = box[0] * box[1]
    assert len(grid) == n * n and Sudoku(box, grid).check(grid) == []
    assert grid == completed_grid(box, random.Random(3), counter)
    assert grid != completed_grid(box, random.Random(4), counter)


@pytest.mark.slow
def test_a_check_cut_by_its_time_limit_keeps_its_clue_and_says_so(capsys):
    """At 25x25 the late checks take seconds; under a 1 ms limit they are cut, their clues kept:
    the puzzle is unique (proven by another engine here) but not minimal, and the command warns."""
    assert main(["generate", "sudoku", "--box", "5x5", "--count", "1", "--seed", "2", "--check-seconds", "0.001"]) == 0
    out, err = capsys.readouterr()
    puzzle_text, solution_text = out.split()
    puzzle = parse_sudoku_line(puzzle_text, box=(5, 5))
    assert registry.make_engine("sat").run(puzzle, limit=2).status is Status.UNIQUE
    assert err.startswith("puzzlebench: warning: puzzle 1: ") and err.endswith(
        " clues kept undecided (their check passed --check-seconds 0.001): unique, but not proven minimal\n")
    undecided = int(err.split()[4])
    assert 0 < undecided <= sum(1 for v in puzzle.givens if v)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_generate_sudoku_shows_its_progress_clue_by_clue(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["generate", "sudoku", "--box", "2x2", "--count", "2", "--seed", "1", "--clues", "10"]) == 0
    drawn = terminal.getvalue()
    assert "sudoku 4x4, clues tried" in drawn and "] 32/32 100%" in drawn   # 2 puzzles of 16 cells


def _clashes(puzzle: Sudoku) -> bool:
    """Whether two givens of one row, column or block are equal."""
    (r, c), n, g = puzzle.box, puzzle.n_values, puzzle.givens
    units = ([[row * n + k for k in range(n)] for row in range(n)] + [[k * n + col for k in range(n)] for col in range(n)]
             + [[(top + i) * n + left + j for i in range(r) for j in range(c)]
                for top in range(0, n, r) for left in range(0, n, c)])
    return any(len([g[x] for x in unit if g[x]]) != len({g[x] for x in unit if g[x]}) for unit in units)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_unsat_puzzles_break_no_rule_at_once_and_every_engine_proves_them_unsat(box):
    puzzles = list(generate("sudoku", 4, 7, box=box, unsat=True))
    assert [p.write() for p in puzzles] == [p.write() for p in generate("sudoku", 4, 7, box=box, unsat=True)]
    for puzzle in puzzles:
        assert not _clashes(puzzle) and "solution" not in puzzle.metadata
        for solver in ("bitboard", "dlx", "sat"):
            result = api.solve(puzzle, solver=solver, certify=True)
            assert (str(result.status), result.certificate.status) == ("unsat", "verified"), (solver, puzzle.write())


def test_unsat_goes_with_sudoku_unrated(capsys):
    assert main(["generate", "kenken", "--unsat"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: --unsat does not go with generate kenken: it goes with "
                                       "generate sudoku\n")
    assert main(["generate", "sudoku", "--unsat", "--technique", "x-wing"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: --technique and --unsat do not go together: a rated "
                                       "puzzle has its solution\n")


def test_generate_rechecks_what_its_checks_left_undecided(capsys):
    """Every first check cut at once (1e-9 s): a long recheck makes the puzzle of a dig with no
    limit and says nothing; a recheck cut too keeps the clues and names its own limit."""
    base = ["generate", "sudoku", "--box", "4x4", "--count", "1", "--seed", "1", "--quiet"]
    assert main(base) == 0
    unlimited = capsys.readouterr().out
    assert main([*base, "--check-seconds", "1e-9", "--recheck-seconds", "60"]) == 0
    assert capsys.readouterr() == (unlimited, "")
    assert main([*base, "--check-seconds", "1e-9", "--recheck-seconds", "2e-9"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("puzzlebench: warning: puzzle 1: ") and err.endswith(
        " clues kept undecided (their check passed --recheck-seconds 2e-09): unique, but not proven minimal\n")
