"""Generation to a target rating (issue 19, item 3): ``generate sudoku --rating-min X
--rating-max Y [--technique NAME]``.  Every puzzle is checked by engines and a rating call
independent of the generator: unique (``mrv``, not the generator's ``bitboard``), minimal
(every clue removed in turn gives a second solution), rated in range by ``rate_puzzle``."""

from __future__ import annotations

import pytest

from puzzlebench.cli import main
from puzzlebench.generators import generate
from puzzlebench.generators.sudoku import known_techniques
from puzzlebench.harness.inputs import read_file
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.rating import rate_puzzle
from puzzlebench.results import Status
from puzzlebench.engines import registry


def run(args, capsys):
    code = main(["generate", "sudoku", "--quiet", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def parse(line: str):
    puzzle_text, solution, score = line.split()
    return parse_sudoku_line(puzzle_text), solution, float(score)


def check_unique_and_minimal(puzzle: Sudoku, solution: str) -> None:
    mrv = registry.make_engine("mrv")
    result = mrv.run(puzzle, limit=2)
    assert result.status is Status.UNIQUE
    assert "".join(map(str, result.solutions[0])) == solution
    for cell, value in enumerate(puzzle.givens):
        if value:
            fewer = list(puzzle.givens)
            fewer[cell] = 0
            assert mrv.run(Sudoku((3, 3), fewer), limit=2).status is Status.MULTIPLE, cell


@pytest.mark.parametrize("low,high", [(1.0, 2.0), (2.0, 4.0)])
def test_puzzles_are_unique_minimal_and_rated_in_range(low, high, capsys):
    code, out, _ = run(["--rating-min", str(low), "--rating-max", str(high), "--count", "3", "--seed", "5"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    for line in lines:
        puzzle, solution, score = parse(line)
        check_unique_and_minimal(puzzle, solution)
        rating = rate_puzzle(puzzle)
        assert low <= round(rating.score, 1) <= high
        assert score == round(rating.score, 1)


@pytest.mark.slow
def test_kept_puzzles_are_the_plain_generators_in_range_ones_in_order(capsys):
    """The candidates are generate("sudoku")'s puzzles for the same seed: the rated output is
    exactly those of them rated in range, none skipped."""
    code, out, _ = run(["--rating-min", "2.0", "--rating-max", "4.0", "--count", "4", "--seed", "11"], capsys)
    assert code == 0
    found = [line.split()[0] for line in out.splitlines()]
    expected = []
    for puzzle in generate("sudoku", 40, 11):
        if 2.0 <= round(rate_puzzle(puzzle).score, 1) <= 4.0:
            expected.append(puzzle.write())
        if len(expected) == 4:
            break
    assert found == expected


def test_same_seed_same_puzzles_other_seed_others(capsys):
    args = ["--rating-min", "1.0", "--rating-max", "3.0", "--count", "3"]
    one = run([*args, "--seed", "3"], capsys)
    two = run([*args, "--seed", "3"], capsys)
    other = run([*args, "--seed", "4"], capsys)
    assert one == two and one[0] == 0
    assert one[1] != other[1]


def test_technique_is_used_by_the_explanation(capsys):
    code, out, _ = run(["--rating-max", "4.0", "--technique", "naked pair", "--count", "2", "--seed", "2"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    for line in lines:
        puzzle, solution, _ = parse(line)
        rating = rate_puzzle(puzzle)
        assert rating.techniques.get("naked pair", 0) > 0
        assert any("naked pair" in step for step in rating.steps)
        assert round(rating.score, 1) <= 4.0


def test_output_reads_back_with_its_solution(tmp_path, capsys):
    path = tmp_path / "rated.txt"
    code, out, _ = run(["--rating-max", "2.0", "--count", "2", "--seed", "1", "--out", str(path)], capsys)
    assert code == 0 and out == ""
    lines = path.read_text().splitlines()
    items = read_file(str(path))
    assert [i.puzzle.kind for i in items] == ["sudoku", "sudoku"]
    assert [i.puzzle.write() for i in items] == [line.split()[0] for line in lines]


@pytest.mark.parametrize("args,message", [
    (["--rating-min", "5", "--rating-max", "3"], "--rating-min 5 is more than --rating-max 3"),
    (["--rating-min", "0.5"], "--rating-min 0.5 is outside the SE scale (1.0 to 12.0)"),
    (["--rating-max", "12.5"], "--rating-max 12.5 is outside the SE scale (1.0 to 12.0)"),
    (["--technique", "x-ray"], f"unknown technique 'x-ray'; known: {', '.join(known_techniques())}"),
    (["--rating-min", "2", "--box", "2x3"],
     "--rating-min: rated generation is for 9x9 Sudoku (3x3 blocks), the ladder's size; got --box 2x3"),
    (["--rating-max", "3", "--clues", "30"], "--rating-max and --clues do not go together: rated puzzles are minimal"),
    (["--rating-max", "3", "--attempts", "0"], "--attempts 0: out of range: a whole number from 1 to 2^63-1"),
    (["--attempts", "50"], "--attempts goes with --rating-min, --rating-max or --technique"),
    (["--rating-seconds", "2"], "--rating-seconds goes with --rating-min, --rating-max or --technique"),
])
def test_bad_rating_arguments(args, message, capsys):
    assert run(args, capsys) == (2, "", f"puzzlebench: error: {message}\n")


@pytest.mark.parametrize("kind", ["skyscrapers", "nqueens", "latin"])
def test_rating_options_are_for_sudoku_only(kind, capsys):
    code = main(["generate", kind, "--quiet", "--technique", "x-wing"])
    err = capsys.readouterr().err
    assert (code, err) == (2, f"puzzlebench: error: --technique goes with generate sudoku, not {kind}\n")


def test_known_techniques_are_the_ones_explanations_name():
    names = set(known_techniques())
    assert {"hidden single", "x-wing", "forcing chain", "bidirectional y-cycle", "guess"} <= names
    # every technique of a few rated puzzles is a known name
    for puzzle in generate("sudoku", 6, 21):
        assert set(rate_puzzle(puzzle).techniques) <= names


def test_no_puzzle_found_says_what_was_seen(capsys):
    """A hard range with a tiny budget: exit 2, the ratings seen (computed here independently)."""
    seen = [round(rate_puzzle(p).score, 1) for p in generate("sudoku", 3, 7)]
    code, out, err = run(["--rating-min", "9.5", "--count", "1", "--attempts", "3", "--seed", "7"], capsys)
    assert (code, out) == (2, "")
    assert err == (f"puzzlebench: error: no puzzle rated 9.5..12 found in 3 attempts "
                   f"(ratings seen: lowest {min(seen):.1f}, highest {max(seen):.1f})\n")


def test_some_found_are_written_before_the_error(capsys):
    ratings = [round(rate_puzzle(p).score, 1) for p in generate("sudoku", 6, 9)]
    low = sorted(ratings)[0]
    kept = [r for r in ratings if r <= low]
    code, out, err = run(["--rating-max", f"{low:.1f}", "--count", str(len(kept) + 1), "--attempts", "6",
                          "--seed", "9"], capsys)
    assert code == 2
    assert [float(line.split()[2]) for line in out.splitlines()] == kept
    assert err == (f"puzzlebench: error: only {len(kept)} of {len(kept) + 1} puzzles rated 1..{low:g} found in "
                   f"6 attempts (ratings seen: lowest {min(ratings):.1f}, highest {max(ratings):.1f})\n")


def test_rating_time_limit_of_none_rates_easy_puzzles_alike(capsys):
    """Easy puzzles are rated well within the default limit: no limit (0) gives the same lines."""
    args = ["--rating-min", "2.0", "--rating-max", "4.0", "--count", "2", "--seed", "6"]
    assert run(args, capsys) == run([*args, "--rating-seconds", "0"], capsys)
