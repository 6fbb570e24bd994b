"""Futoshiki, a kind of one module and one registry line with a new term of the vocabulary
(``Less``): Simon Tatham's Unequal ids read and written back exactly, the book form read and
shown, the public set of 96 solved and proven unique, every engine generic over the
vocabulary agreeing with no code of its own for the kind, and clear errors with their places."""

import contextlib
import io
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import DATA
from puzzlebench import parse, solve
from puzzlebench.cli import main
from puzzlebench.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlebench.models import examples
from puzzlebench.models.futoshiki import Futoshiki
from puzzlebench.models.reader import read_puzzles, text_lines
from puzzlebench.models.vocabulary import Less
from puzzlebench.engines.registry import FAMILIES, engine_class, make_engine
from random_puzzles import random_futoshiki

GENERIC = [f for f in FAMILIES if "futoshiki" in engine_class(f).kinds and engine_class(f).unavailable_reason() is None]
TATHAM = DATA / "tatham_unequal_4to7_96.txt"
needs_data = pytest.mark.skipif(not TATHAM.exists(), reason=f"no data set at {TATHAM}")


def tatham_ids() -> list[str]:
    return TATHAM.read_text().split()


def test_futoshiki_is_taken_by_every_engine_generic_over_the_vocabulary():
    assert {"mrv", "backtrack", "dlx", "dlx-py", "sat", "quine", "cpsat", "smt"} <= set(GENERIC)
    assert "futoshiki" not in engine_class("bitboard").kinds


@pytest.mark.slow
@needs_data
def test_the_public_tatham_set_reads_writes_back_exactly_and_is_unique():
    lines = tatham_ids()
    puzzles = [parse(line) for line in lines]
    assert len(puzzles) == 96 and all(isinstance(p, Futoshiki) for p in puzzles)
    assert [p.write() for p in puzzles] == lines
    assert [p.n for p in puzzles] == [4] * 24 + [5] * 24 + [6] * 24 + [7] * 24
    assert sum(len(p.less) for p in puzzles) == 807       # the U/R/D/L flags of the file
    engine = make_engine("sat")
    for p in puzzles:
        result = engine.run(p, limit=2, time_limit=60)
        assert (str(result.status), result.verified) == ("unique", True), p.write()
        assert p.check(result.solutions[0]) == [] and p.rules.violations(result.solutions[0]) == []


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_solves_a_sample_of_the_public_set_and_agrees(family):
    """Three of each size (the file's first, twelfth and last of the size: trivial to
    extreme); backtrack, with no propagation, takes minutes on the extreme 7x7s: it has the
    first three of each size and the embedded example."""
    lines = tatham_ids()
    picks = (0, 1, 2) if family == "backtrack" else (0, 11, 23)
    sample = [lines[size + k] for size in (0, 24, 48, 72) for k in picks]
    engine, reference = make_engine(family), make_engine("dlx")
    for line in sample:
        result = engine.run(parse(line), limit=2, time_limit=60)
        assert (str(result.status), result.verified) == ("unique", True), (family, line)
        assert result.solutions == reference.run(parse(line), limit=2).solutions, (family, line)


@needs_data
def test_mrv_prunes_by_the_signs_before_placing():
    """Bounds over the Less pairs after every placement: the 24 7x7s in a few hundred nodes
    (placing values alone pruned only the neighbours: 3.2 million nodes and a minute on one)."""
    engine = make_engine("mrv")
    nodes = [engine.run(parse(line), limit=2).stats.nodes for line in tatham_ids()[72:]]
    assert max(nodes) < 1000, nodes


@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_solves_the_embedded_example(family):
    result = solve(examples.example("futoshiki5"), solver=family, time_limit=60)
    assert (str(result.status), result.count, result.verified) == ("unique", 1, True)


@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_counts_the_squares_the_signs_leave(family):
    """r1c1 < r1c2 < r1c3 in an empty 3x3 fixes the first row to 1 2 3, and the rest of a
    3x3 Latin square is then one of 2; one sign keeps half of its 12 squares, two signs
    that contradict each other none."""
    engine = make_engine(family)
    for signs, count in (([(0, 1), (1, 2)], 2), ([(4, 7)], 6), ([(0, 1), (1, 4), (4, 3), (3, 0)], 0)):
        assert engine.run(Futoshiki(3, [0] * 9, signs), limit=None, time_limit=60).count == count, signs


def test_the_vocabulary_term_and_its_checker():
    puzzle = Futoshiki(2, [0] * 4, [(0, 1)])
    assert Less(0, 1, "r1c1 < r1c2") in puzzle.rules.constraints
    assert puzzle.rules.violations((2, 1, 1, 2)) == ["r1c1 < r1c2: 2 is not less than 1"]
    assert puzzle.check((2, 1, 1, 2)) == ["r1c1 < r1c2, but they hold 2 and 1"]
    assert puzzle.check((1, 2, 2, 1)) == [] and puzzle.rules.violations((1, 2, 2, 1)) == []


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.integers(3, 6))
def test_the_two_checkers_agree(seed, n):
    """The kind's checker, written from the definition, and the vocabulary's generic one say
    the same thing of a solution and of the same grid with two values swapped."""
    rng = random.Random(seed)
    puzzle, square = random_futoshiki(seed, n, turned=0)
    assert puzzle.check(square) == [] and puzzle.rules.violations(square) == []
    bad = list(square)
    i, j = rng.sample(range(n * n), 2)
    bad[i], bad[j] = bad[j], bad[i]
    assert (puzzle.check(bad) == []) == (puzzle.rules.violations(bad) == [])


# -- the book form -----------------------------------------------------------------------------

GRID = "2 . .<.\n^\n.>. . .\n      v\n. . . 3\n. . 1 ."


def test_the_book_form_is_read_without_kind_and_shown_as_read():
    puzzle = parse(GRID)
    assert isinstance(puzzle, Futoshiki) and puzzle.form == "grid"
    assert puzzle.givens == (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1, 0)
    assert puzzle.less == ((0, 4), (2, 3), (5, 4), (11, 7))
    assert puzzle.write() == puzzle.pretty() == GRID
    assert parse(puzzle.tatham_id(puzzle.givens)).less == puzzle.less


@needs_data
def test_every_public_puzzle_is_shown_in_the_book_form_and_read_back():
    """A grid with no sign at all (a quarter of the set: Tatham's trivial ones) is a Latin
    square as much as a Futoshiki, so it needs --kind; the others are read without it."""
    puzzles = [parse(line) for line in tatham_ids()]
    text = "\n\n".join(p.pretty() for p in puzzles) + "\n"
    for kind in (None, "futoshiki"):
        read = [p for p in read_puzzles(text_lines(io.BytesIO(text.encode())), "g.txt", kind=kind) if isinstance(p, Futoshiki)]
        assert len(read) == (96 if kind else 72)
        assert {(p.givens, p.less) for p in read} <= {(p.givens, p.less) for p in puzzles}


def test_a_book_grid_whose_first_row_is_rush01_clues_stays_one_puzzle():
    """Eight numbers are rush-01 clues of a 2x2 Skyscrapers on their own, and nine lines are
    more than eight: the stream reader took the grid for one puzzle a line."""
    n = 8
    square = [(r + c) % n + 1 for r in range(n) for c in range(n)]
    signs = [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(0, n, 3)]
    text = Futoshiki(n, square[:n] + [0] * (n * n - n), signs, form="grid").write()
    items = list(read_puzzles(text_lines(io.BytesIO((text + "\n\n" + text + "\n").encode())), "g.txt"))
    assert [(type(i).__name__, i.source) for i in items] == [("Futoshiki", "g.txt:1"), ("Futoshiki", "g.txt:17")]


def test_wide_values_are_right_aligned_and_read_back():
    n = 10
    square = [(r + c) % n + 1 for r in range(n) for c in range(n)]
    puzzle = Futoshiki(n, square[:n] + [0] * (n * n - n), [(0, 10), (11, 1)], form="grid")
    assert puzzle.write().splitlines()[:2] == [" 1  2  3  4  5  6  7  8  9 10", " ^  v"]
    again = parse(puzzle.write(), kind="futoshiki")
    assert (again.givens, again.less) == (puzzle.givens, puzzle.less)


def test_the_command_shows_an_id_as_a_grid_and_solves_it_as_an_id(tmp_path, capsys):
    f = tmp_path / "u.txt"
    f.write_text("4:0,0,0,0,0,0,0,0,0,0R,0,0,0,0,0,0U,\n")
    assert main(["show", str(f)]) == 0
    assert capsys.readouterr().out == f"{f}:1: futoshiki 4x4\n. . . .\n. . . .\n. .>. .\n      ^\n. . . .\n\n"
    assert main(["count", str(f), "--solver", "sat", "--limit", "0"]) == 0
    assert f"{f}:1: multiple count=144 " in capsys.readouterr().out


# -- errors ------------------------------------------------------------------------------------

EMPTY_4 = "0," * 16


@pytest.mark.parametrize("text, error", [
    ("4:1,0,#," + "0," * 13, "u.txt:1:7: unexpected '#': expected the number of r1c3 (0 = empty)"),
    ("4:1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0x", "u.txt:1:34: unexpected 'x' after r4c4: expected a flag U, R, D or L, or ','"),
    ("4:1U," + "0," * 15, "u.txt:1:4: flag U of r1c1 points off the grid"),
    ("4:0," * 1 + "0," * 14 + "0R,", "u.txt:1:34: flag R of r4c4 points off the grid"),
    ("4:1R,2," + "0," * 14, "u.txt:1:4: r1c2 < r1c1, but they hold 2 and 1"),
    ("4:0R,0L," + "0," * 14, "u.txt:1:7: r1c2 < r1c1 contradicts r1c1 < r1c2"),
    ("4:" + "0," * 15, "u.txt:1:33: the id describes 15 cells; a 4x4 Futoshiki has 16"),
    ("4:" + "0," * 17, "u.txt:1:35: the id describes more than the 16 cells of a 4x4 Futoshiki"),
    ("4:0,x," + "0," * 14, "u.txt:1:5: 'x' (a run of 24 empty cells) runs past the 16 cells of a 4x4 Futoshiki"),
    ("4:" + "0," * 15 + "5,", "u.txt:1:33: 5 is not a value of a 4x4 Futoshiki"),
    ("4:1," + "0," * 11 + "1,0,0,0,", "u.txt:1:27: column 1 has two 1s"),
    ("5a:" + "0," * 25, "u.txt:1:2: '5a:' is an id of Unequal's adjacent mode (marks join values that differ by one): "
                        "another puzzle than Futoshiki, not read here"),
    ("99:" + EMPTY_4, "u.txt:1:1: a Futoshiki of size 99: supported 1 to 64"),
])
def test_a_bad_unequal_id_is_an_error_with_its_place(text, error):
    [item] = read_puzzles(text + "\n", "u.txt")
    assert isinstance(item, PuzzleError) and str(item) == error


@pytest.mark.parametrize("text, error", [
    ("1 . .\n^ .\n. . .\n. . .\n", "g.txt:2:1: unexpected '^': expected a number, '.', '<' or '>' (or a line of ^ and v)"),
    ("1<2 .\n. . .\n     ^\n. . 1\n", "g.txt:3:6: '^' stands under no cell of the row above"),
    ("2 . .\n. .\n. . .\n", "g.txt:2: a Futoshiki of 3 rows has 3 cells in every row; this one has 2"),
    ("2<1 .\n. . .\n. . .\n", "g.txt:1:2: r1c1 < r1c2, but they hold 2 and 1"),
    ("^\n1 . .\n. . .\n. . .\n", "g.txt:1: a line of ^ and v signs must stand between two rows of cells"),
    ("<1 . .\n. . .\n. . .\n", "g.txt:1:1: '<' must stand between two cells"),
    ("1 . .\n. . 4\n. . .\n", "g.txt:2:5: 4 is not a value of a 3x3 Futoshiki"),
    ("1<. .\n. . .\n1 . .\n", "g.txt:3:1: column 1 has two 1s"),     # the column was left out
    # a Sudoku line with --kind futoshiki was "a row of a 1x1 Futoshiki has 1 cells; this one has 76"
    ("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n",
     "g.txt:1: a line of 81 characters is no Futoshiki: its grid is N rows of N cells (a number, . empty) "
     "with < or > between neighbours and lines of ^ and v between rows, or give its Unequal game id (N:…)"),
    ("1 2 3 4\n", "g.txt:1: one line of 4 cells is no Futoshiki: its grid is N rows of N cells (a number, "
                  ". empty) with < or > between neighbours and lines of ^ and v between rows, or give its "
                  "Unequal game id (N:…)"),
])
def test_a_bad_book_grid_is_an_error_with_its_place(text, error):
    [item] = read_puzzles(text, "g.txt", kind="futoshiki")
    assert isinstance(item, PuzzleError) and str(item) == error


@pytest.mark.parametrize("text, error", [
    ("2 . .<.\n^ x\n.>. . .\n      v\n. . . 3\n. . . .\n",
     "g.txt:2:3: unexpected 'x' in a line of signs between two rows: only ^ (the upper cell is the smaller) and v"),
    ("2 . .<.\n^\n.>. . .\n      V\n. . . 3\n. . . .\n",
     "g.txt:4:7: unexpected 'V' in a line of signs between two rows: only ^ (the upper cell is the smaller) and v"),
])
def test_a_grid_with_a_bad_sign_line_is_a_futoshiki_error_without_kind(tmp_path, text, error):
    # it was "cannot tell the kind of puzzle" at line 1, and again at every other line
    [item] = read_puzzles(text, "g.txt")
    assert isinstance(item, PuzzleError) and str(item) == error
    f = tmp_path / "g.txt"
    f.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["show", str(f)]) == 2
    where, message = error.split(": ", 1)
    assert err.getvalue().splitlines() == [f"puzzlebench: {tmp_path}/{where}: error: {message}"]


def test_the_command_says_each_error_on_one_line_and_exits_2(tmp_path):
    f = tmp_path / "u.txt"
    f.write_text("4:1R,2," + "0," * 14 + "\n")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["solve", str(f)]) == 2
    assert err.getvalue().splitlines()[0] == f"puzzlebench: {f}:1:4: error: r1c2 < r1c1, but they hold 2 and 1"


def test_the_constructor_refuses_what_no_futoshiki_can_be():
    with pytest.raises(InvalidPuzzleError, match="not orthogonal neighbours of a 3x3 grid"):
        Futoshiki(3, [0] * 9, [(0, 4)])
    with pytest.raises(InvalidPuzzleError, match="r1c1 < r1c2 and r1c2 < r1c1"):
        Futoshiki(3, [0] * 9, [(0, 1), (1, 0)])
    with pytest.raises(ParseError, match="a 3x3 Futoshiki has 9 cells; got 8"):
        Futoshiki(3, [0] * 8)


# -- the DIMACS round trip -----------------------------------------------------------------------

def test_a_dimacs_export_decodes_back_to_the_puzzle(tmp_path, capsys):
    f = tmp_path / "u.txt"
    f.write_text("4:0,0,0,0,0,0,0,0,0,0R,0,0,0,0,0,0U,\n")
    cnf = tmp_path / "u.cnf"
    assert main(["export", "--to", "dimacs", str(f), "-o", str(cnf)]) == 0
    assert "c less: 10<9 11<15\n" in cnf.read_text()
    from pysat.formula import CNF
    from pysat.solvers import Solver
    with Solver(bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    answer = tmp_path / "a.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "--cnf", str(cnf), "--model", str(answer)]) == 0
    values = tuple(int(x) for x in capsys.readouterr().out.split()[-16:])
    assert Futoshiki(4, [0] * 16, [(10, 9), (11, 15)]).check(values) == []


# -- the readers, fuzzed ------------------------------------------------------------------------

SEEDS = ["5:0,0,0R,0,0,0R,0,0U,0,0U,0U,0L,0,0,0,0,0,0,0,0D,0U,0U,0U,0,0L,",
         "4:1,0,0,0,0,2,0,0,3,0,0,0,0,0,1,4,", examples.EXAMPLES["futoshiki5"].text]


@st.composite
def mutated(draw) -> str:
    text = list(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["cut", "insert", "replace", "repeat"]))
        if op == "cut":
            del text[at:at + draw(st.integers(1, 6))]
        elif op == "insert":
            text[at:at] = draw(st.text(alphabet="0123456789,UDLRabz<>^v. \n:x#-", min_size=1, max_size=4))
        elif op == "replace" and text:
            text[at % len(text)] = draw(st.sampled_from(list("0123456789,UDLRaz<>^v. \n:")))
        else:
            text[at:at] = text[at:at + draw(st.integers(1, 8))]
    return "".join(text)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated(), st.sampled_from([None, "futoshiki"]))
def test_a_mutated_futoshiki_is_a_placed_error_or_a_puzzle_that_reads_back(text, kind):
    for item in read_puzzles(text, "m.txt", kind=kind):
        if isinstance(item, PuzzleError):
            assert "\n" not in str(item) and str(item).startswith("m.txt:")
        elif isinstance(item, Futoshiki):
            again = parse(item.write(), kind="futoshiki")
            assert (again.n, again.givens, again.less) == (item.n, item.givens, item.less)
            assert item.form != "tatham" or again.write() == item.write()


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_the_command_on_a_mutated_futoshiki_file(tmp_path_factory, text):
    f = tmp_path_factory.mktemp("fz") / "m.txt"
    f.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["solve", str(f), "--solver", "sat", "--time-limit", "5"])
    assert code in (0, 1, 2)
    assert all(line.startswith("puzzlebench: ") for line in err.getvalue().splitlines()), err.getvalue()
