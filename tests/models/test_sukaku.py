"""Sukaku (pencil-mark) input: both forms read, the rating of a position, the engines that
take candidates, and bad input as one-line errors with their place."""

import json
import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run
from puzzlebench.errors import PuzzleError
from puzzlebench.models.reader import parse, read_puzzles
from puzzlebench.models.sukaku import Sukaku, initial_candidates, sukaku_line
from puzzlebench.rating import rate_puzzle
from puzzlebench.techniques.ladder import HumanSolver
from puzzlebench.engines.registry import make_engine as get_engine


# Sudoku Exchange puzzles (public domain; ../shared/data/sudoku9_sudokuexchange_by_rating_sample.txt)
# with their SE ratings 3.4 (hidden pair), 4.2 (y-wing) and 6.6.
HIDDEN_PAIR = ".8.2..4..57....1....23.....82..9...5...715...7...2..41.....67....3....18..7..9.5."
Y_WING = ".6..5..3....3.6.....7...4...3.....6..14.2.79.7.......1.........9..147..5.516.987."
CHAINS = ".........56.....3223..4..79....6.....7.5.1.9....7.8....53...92...98.65..7.......4"
PUZZLES = (HIDDEN_PAIR, Y_WING, CHAINS)


def sukaku_of(puzzle: str) -> str:
    return sukaku_line(initial_candidates(parse(puzzle).givens))


def masks_of(line: str) -> list[int]:
    return list(parse(line).candidates)


def grid_text(masks) -> str:
    return "\n".join(" ".join("".join(str(d) for d in range(1, 10) if m >> (d - 1) & 1)
                              for m in masks[r * 9:(r + 1) * 9]) for r in range(9))


# -- reading ---------------------------------------------------------------------------------

def test_both_forms_read_the_same_position_and_write_back():
    line = sukaku_of(Y_WING)
    a = parse(line)
    b = parse(grid_text(a.candidates))
    assert isinstance(a, Sukaku) and isinstance(b, Sukaku)
    assert a.candidates == b.candidates and a.givens == b.givens
    # the puzzle's givens, and the cells its givens leave one candidate (naked singles)
    assert all(g == v for g, v in zip(a.givens, parse(Y_WING).givens) if v)
    assert sum(map(bool, a.givens)) > sum(map(bool, parse(Y_WING).givens))
    assert a.write() == line and parse(b.write()).candidates == b.candidates
    # '.' reads as '0', and a grid may have SE's box separators
    assert parse(line.replace("0", ".")).candidates == a.candidates
    rows = grid_text(a.candidates).split("\n")
    boxed = "\n".join(rows[:3] + ["------+------+------"] + rows[3:6] + ["---"] + rows[6:])
    assert parse(boxed).candidates == a.candidates
    again = pickle.loads(pickle.dumps(a))   # engines run in child processes
    assert again.candidates == a.candidates and again.givens.candidates == a.candidates


def test_a_cell_with_one_candidate_is_a_given():
    masks = masks_of(sukaku_of(Y_WING))
    cell = next(c for c, m in enumerate(masks) if m.bit_count() > 1)
    digit = masks[cell].bit_length()
    masks[cell] = 1 << (digit - 1)
    assert parse(sukaku_line(masks)).givens[cell] == digit


LINE = sukaku_of(Y_WING)


@pytest.mark.parametrize("text, message", [
    (LINE[:-1], "1:1: a Sukaku line has 729 characters (9 a cell), not 728"),
    (LINE + "0", "1:1: a Sukaku line has 729 characters (9 a cell), not 730"),
    ("000000000" + LINE[9:], "1:1: r1c1 has no candidate"),
    (LINE[:9] + "300000000" + LINE[18:],
     "1:10: r1c2: '3' at position 1 of the cell's 9 characters; expected 1 (a candidate) or 0 or . (not one)"),
    (LINE[:20] + "x" + LINE[21:], "1:21: r1c3: 'x' at position 3 of the cell's 9 characters; expected 3 "
     "(a candidate) or 0 or . (not one) (a 27x27 Sudoku line: give --box 3x9)"),
    ("000050000" * 2 + LINE[18:], "1:10: row 1 has two 5s (r1c1 and r1c2 have that one candidate only)"),
])
def test_bad_lines_are_placed_errors(text, message):
    with pytest.raises(PuzzleError) as err:
        parse(text, source="f.txt")
    assert str(err.value) == f"f.txt:{message}"


GRID = grid_text(masks_of(LINE)).split("\n")


@pytest.mark.parametrize("row, replacement, message", [
    (2, lambda r: "12a4" + r[r.index(" "):], "3:3: r3c1: 'a' in '12a4' is not a candidate digit 1-9"),
    (2, lambda r: "1224" + r[r.index(" "):], "3:3: r3c1: candidate 2 twice in '1224'"),
    (4, lambda r: r.rsplit(" ", 1)[0], "5:1: row 5 of the Sukaku grid has 8 cells, not 9"),
    (0, lambda r: "5 5" + r[r.index(" ", r.index(" ") + 1):], "1:3: row 1 has two 5s (r1c1 and r1c2 have that one candidate only)"),
])
def test_bad_grids_are_placed_errors(row, replacement, message):
    lines = list(GRID)
    lines[row] = replacement(lines[row])
    with pytest.raises(PuzzleError) as err:
        parse("\n".join(lines), source="g.txt")
    assert str(err.value) == f"g.txt:{message}"


def test_a_file_of_sukaku_lines_reports_each_bad_one_and_reads_the_rest(capsys, tmp_path):
    f = tmp_path / "marks.txt"
    f.write_text("\n".join([LINE, LINE[:-1], "000000000" + LINE[9:], LINE]) + "\n")
    code, out, err = run(capsys, "rate", str(f))
    assert code == 1   # the commands' one rule: some records failed, the rest were rated
    assert err.splitlines()[:2] == [
        f"puzzlebench: {f}:2:1: error: a Sukaku line has 729 characters (9 a cell), not 728",
        f"puzzlebench: {f}:3:1: error: r1c1 has no candidate"]
    assert out.count("score 4.20 (SE rule)") == 2
    f.write_text(LINE[:-1] + "\n")
    code, out, err = run(capsys, "rate", str(f))
    assert code == 2 and err.splitlines()[0].endswith(":1:1: error: a Sukaku line has 729 characters (9 a cell), not 728")


def mutate(draw, text: str) -> str:
    chars = list(text)
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(("replace", "delete", "insert")))
        i = draw(st.integers(0, max(len(chars) - 1, 0)))
        ch = draw(st.sampled_from(list("0123456789.a \n|-")))
        if op == "replace" and chars:
            chars[i] = ch
        elif op == "delete" and chars:
            del chars[i]
        else:
            chars.insert(i, ch)
    return "".join(chars)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(("line", "grid")))
def test_any_mutation_is_a_position_or_a_one_line_error(data, form):
    text = LINE if form == "line" else "\n".join(GRID)
    mutated = mutate(data.draw, text)
    for item in read_puzzles(mutated, "m.txt"):
        if isinstance(item, PuzzleError):
            message = str(item)
            assert "\n" not in message and message.startswith("m.txt:")
        elif isinstance(item, Sukaku):
            masks = item.candidates
            assert all(masks) and item.givens == tuple(
                m.bit_length() if m.bit_count() == 1 else 0 for m in masks)
            assert parse(item.write()).candidates == masks


# -- rating a position -----------------------------------------------------------------------

@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_puzzle_and_the_sukaku_of_its_candidates_rate_the_same(puzzle):
    plain, marks = rate_puzzle(parse(puzzle)), rate_puzzle(parse(sukaku_of(puzzle)))
    assert marks.status == plain.status == "unique"
    assert (marks.score, marks.hardest, marks.scored_by) == (plain.score, plain.hardest, plain.scored_by)


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_eliminations_made_on_the_way_rate_lower_or_equal(puzzle):
    """The position after the steps before the hardest one (their eliminations and
    placements written as pencil marks) needs no harder step than the puzzle."""
    plain = parse(puzzle)
    solved = next(HumanSolver((3, 3), ladder="se", assume_unique=True).solutions(plain.givens))
    ratings = [s.rating for s in solved.steps]
    hardest_at = ratings.index(max(ratings))
    masks = initial_candidates(plain.givens)
    for step in solved.steps[:hardest_at + 1]:
        for cell, v in step.eliminations:
            masks[cell] &= ~(1 << (v - 1))
        for cell, v in step.placements:
            masks[cell] = 1 << (v - 1)
    before, after = rate_puzzle(plain), rate_puzzle(parse(sukaku_line(masks)))
    assert after.status == "unique" and after.score <= before.score
    assert sum(m.bit_count() for m in masks) < sum(m.bit_count() for m in initial_candidates(plain.givens))


def ruled_out() -> str:
    """The Y-wing puzzle's candidates with its solution's digit removed from one open cell."""
    plain = parse(Y_WING)
    solution = next(HumanSolver((3, 3)).solutions(plain.givens)).values
    masks = initial_candidates(plain.givens)
    cell = next(c for c, m in enumerate(masks) if m.bit_count() > 2)
    masks[cell] &= ~(1 << (solution[cell] - 1))
    return sukaku_line(masks)


def test_candidates_that_rule_out_the_solution_are_unsat_not_a_traceback(capsys, tmp_path):
    assert rate_puzzle(parse(ruled_out())).status == "unsat"
    f = tmp_path / "out.txt"
    f.write_text(ruled_out() + "\n")
    code, out, _ = run(capsys, "rate", "--format", "jsonl", str(f))
    assert json.loads(out)["status"] == "unsat"
    for solver in ("mrv", "human", "sat", "sat@encoding=minimal", "cpsat", "cpsat:bool"):
        code, out, _ = run(capsys, "solve", "--solver", solver, str(f))
        assert f"{f}:1: unsat count=0" in out, (solver, out)


# -- engines ---------------------------------------------------------------------------------

@pytest.mark.parametrize("solver", ["mrv", "human", "sat", "sat@encoding=minimal", "cpsat", "cpsat:bool"])
def test_engines_that_take_candidates_solve_the_position(solver):
    """A Sukaku whose pencil marks (not its givens alone) make the solution unique: the
    givens here are the 3.4 puzzle's minus one, which has many solutions."""
    plain = parse(HIDDEN_PAIR)
    givens = list(plain.givens)
    dropped = next(c for c, v in enumerate(givens) if v)
    givens[dropped] = 0
    loose = parse("".join(str(v) if v else "." for v in givens))
    assert get_engine("mrv").run(loose, limit=2).count == 2
    masks = initial_candidates(plain.givens)   # the dropped cell keeps only its digits' candidates
    masks[dropped] = initial_candidates(givens)[dropped]
    position = parse(sukaku_line(masks))
    result = get_engine(solver).run(position, limit=2)
    assert result.count == 1 and not position.check(result.solutions[0])
    assert result.solutions[0] == next(HumanSolver((3, 3)).solutions(plain.givens)).values


def test_engines_that_ignore_candidates_refuse_a_sukaku():
    result = get_engine("dlx").run(parse(LINE))
    assert result.status.value == "error"
    assert result.error == "dlx does not take pencil marks (a Sukaku); the human, mrv, sat and cpsat solvers do"
    optimized = get_engine("sat@encoding=optimized").run(parse(LINE))
    assert optimized.status.value == "error" and "the optimized encoding takes no pencil marks" in optimized.error


def test_the_checker_holds_the_pencil_marks():
    position = parse(ruled_out())
    solution = next(HumanSolver((3, 3)).solutions(parse(Y_WING).givens)).values
    problems = position.check(solution)
    assert len(problems) == 1 and "is not one of its candidates" in problems[0]


def test_show_prints_the_pencil_marks_and_they_read_back(capsys, tmp_path):
    line = sukaku_of(CHAINS)
    path = tmp_path / "position.txt"
    path.write_text(line + "\n")
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0 and "pencil marks" in out.split("\n")[0]
    grid = "\n".join(out.split("\n")[1:12])          # after the "source: kind shape" line
    assert grid.count("-+-") == 4 and grid.count("|") == 18
    shown = parse(grid)
    assert isinstance(shown, Sukaku) and shown.candidates == parse(line).candidates
    # a cell's candidates, not only its given: r1c1 of CHAINS has several
    assert "".join(str(d) for d in range(1, 10) if parse(line).candidates[0] >> (d - 1) & 1) in grid.split()[0]
