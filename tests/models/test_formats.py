"""The textual forms of the three kinds: reading, writing back, kind inference, the exact
error for every bad input, the embedded examples, and the data files of ../shared/data."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.errors import (AmbiguousKindError, InvalidPuzzleError, ParseError, PuzzleError,
                                UnsupportedShapeError, UsageError)
from puzzlebench.models import examples
from puzzlebench.models.base import Puzzle
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.reader import KINDS, decode_bytes, parse, read_puzzles
from puzzlebench.models.skyscrapers import Skyscrapers, clues_shown
from puzzlebench.models.sudoku import Sudoku, infer_box, parse_box
from puzzlebench.engines.mrv import MrvEngine

from conftest import DATA
SKY_LINE = "4 2,2,1,4 3,2,3,1 2,1,2,3 2,3,2,1"
SKY_SOLUTION = "3,2,4,1,4,1,3,2,2,4,1,3,1,3,2,4"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def identity(p: Puzzle) -> tuple:
    """What makes two puzzles the same puzzle read the same way."""
    extra = (p.box,) if isinstance(p, Sudoku) else \
        (tuple(p.clues[s] for s in ("top", "bottom", "left", "right")),) if isinstance(p, Skyscrapers) else ()
    return (p.kind, p.form, p.givens) + extra


def error_text(text: str, **kw) -> str:
    with pytest.raises(PuzzleError) as info:
        parse(text, **kw)
    return str(info.value)


# -- the forms -------------------------------------------------------------------------------

def test_sudoku_forms_read_the_same_puzzle():
    line = parse(INKALA)
    grid = parse("\n".join(INKALA[i:i + 9] for i in range(0, 81, 9)))
    pretty = parse(line.pretty())
    numbers = parse(" ".join("0" if c == "." else c for c in INKALA))
    rows = [[0 if c == "." else int(c) for c in INKALA[i:i + 9]] for i in range(0, 81, 9)]
    listed = parse(repr(rows))
    flat = parse(repr(sum(rows, [])))
    numbers_grid = parse("\n".join(", ".join(map(str, r)) + "," for r in rows))
    cpmpy = parse("# size=9 box=3x3\n" + "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9)))
    forms = [(line, "line"), (grid, "grid"), (pretty, "grid"), (numbers, "numbers"), (listed, "list"),
             (flat, "flat_list"), (numbers_grid, "numbers_grid"), (cpmpy, "cpmpy")]
    for p, form in forms:
        assert p.kind == "sudoku" and p.form == form and p.givens == line.givens and p.box == (3, 3)


def test_sudoku_line_metadata():
    sol = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    p = parse(f"{INKALA} {sol} hard rating=11.9")
    assert p.metadata == {"solution": sol, "field3": "hard", "rating": "11.9"}
    assert p.check(p.parse_solution(p.metadata["solution"])) == []
    q = parse(f"{INKALA} 2.5 000694f16758")
    assert q.metadata == {"field2": "2.5", "field3": "000694f16758"}


def test_sudoku_characters_are_case_insensitive_and_three_empties():
    a = parse("1a" + "." * 142, box="3x4")
    b = parse("1A" + "0" * 70 + "_" * 72, box="3x4")
    assert a.givens == b.givens and a.givens[:2] == (1, 10)


def test_cpmpy_format_box_is_width_by_height_and_zero_is_36():
    text = "# size=6 box=3x2\n1.....\n......\n......\n......\n......\n.....6"
    p = parse(text)
    assert p.box == (2, 3) and not p.box_inferred and p.form == "cpmpy"
    assert p.write() == text
    q = parse("# size=36 box=6x6\n" + "\n".join(("0" if i == 0 else ".") + "." * 35 for i in range(36)))
    assert q.givens[0] == 36 and q.write().splitlines()[1][0] == "0"


def test_block_shape_given_or_inferred():
    p = parse("." * 36)
    assert p.box == (2, 3) and p.box_inferred
    q = parse("." * 36, box="3x2")
    assert q.box == (3, 2) and not q.box_inferred
    assert parse("." * 144, box=(3, 4)).box == (3, 4)
    assert infer_box(8) == (2, 4) and infer_box(12) == (3, 4)


def test_numbers_form_reads_grids_above_35():
    n = 36
    p = parse(" ".join(["36"] + ["0"] * (n * n - 1)))
    assert p.size == 36 and p.givens[0] == 36 and p.form == "numbers"
    assert parse(p.write(), kind="sudoku").givens == p.givens


def test_nqueens_forms():
    assert parse("8").n == 8
    p = parse("8 (1,1) (3,5)")
    assert p.kind == "nqueens" and p.placed == [(0, 0), (2, 4)] and p.write() == "8 (1,1) (3,5)"
    b = parse("Q...\n...Q\n....\n....")
    assert b.form == "board" and b.placed == [(0, 0), (1, 3)] and parse(b.write()).placed == b.placed
    assert parse(". Q . .\n. . . Q\nQ . . .\n. . Q .").placed == [(0, 1), (1, 3), (2, 0), (3, 2)]
    oeis = parse("8 92 12")
    assert oeis.n == 8 and oeis.metadata == {"field2": "92", "field3": "12"}


def test_skyscrapers_forms():
    line = "4 2,2,1,4 3,2,3,1 2,1,2,3 2,3,2,1 nsol=1 3,2,4,1,4,1,3,2,2,4,1,3,1,3,2,4"
    p = parse(line)
    assert p.form == "line" and p.top == (2, 2, 1, 4) and p.right == (2, 3, 2, 1)
    assert p.metadata == {"nsol": "1", "solution": "3,2,4,1,4,1,3,2,2,4,1,3,1,3,2,4"}
    assert not any(p.givens) and p.write() == line
    assert p.check(p.parse_solution(p.metadata["solution"])) == []
    g = parse("4 0,0,0,0 0,0,0,0 0,0,0,0 0,0,0,0 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2 x=y")
    assert g.givens[0] == 1 and g.givens[15] == 2 and g.metadata == {"x": "y"}
    rush = parse("4 3 2 1 1 2 2 2 4 3 2 1 1 2 2 2")
    assert rush.form == "rush01" and rush.top == (4, 3, 2, 1) and rush.bottom == (1, 2, 2, 2)
    assert rush.write() == "4 3 2 1 1 2 2 2 4 3 2 1 1 2 2 2"


def test_towers_game_id_follows_towers_c():
    # clues top, bottom, left, right; grid runs: a = 1 empty square, '_' between numbers
    p = parse("3:1///2/////1/3//,b1_2d3")
    assert p.form == "towers" and p.top == (1, 0, 0) and p.bottom == (2, 0, 0)
    assert p.left == (0, 0, 1) and p.right == (3, 0, 0)
    assert p.givens == (0, 0, 1, 2, 0, 0, 0, 0, 3)
    assert p.write() == "3:1///2/////1/3//,b1_2d3"
    assert parse("5de:" + "/" * 19).metadata == {"_params": "5de"}


def test_grid_files_and_line_files_mix():
    grid = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    text = f"# a grid\n{grid}\n\n{INKALA}\n{INKALA}\n\n8\n\n1 0 0 0\n0 0 2 0\n0 0 0 0\n0 3 0 4\n"
    items = list(read_puzzles(text, "mix.txt"))
    assert [i.source for i in items] == ["mix.txt:2", "mix.txt:12", "mix.txt:13", "mix.txt:15",
                                         "mix.txt:17"]
    assert [i.form for i in items] == ["grid", "line", "line", "n", "numbers_grid"]


def test_sixteen_lines_of_sixteen_characters_are_a_grid():
    rows = ["." * 16] * 15 + ["1" + "." * 15]
    items = list(read_puzzles("\n".join(rows), "g.txt"))
    assert len(items) == 1 and items[0].shape == "16x16 (4x4 blocks)"


def test_csv_file_with_header():
    text = "game_no,puzzle,players_completed\n49," + INKALA + ",10\n50,bad,3\n"
    items = list(read_puzzles(text, "w.csv"))
    assert items[0].source == "w.csv:2" and items[0].metadata == {"game_no": "49", "players_completed": "10"}
    assert str(items[1]) == ("w.csv:3:4: cannot tell the kind of puzzle: expected a Sudoku line of N² "
                             "characters, N-Queens 'n [(row,col)…]', Skyscrapers 'N top bottom left "
                             "right', a rush-01 clue list or a Towers id")


# -- writing back ------------------------------------------------------------------------------

def test_pretty_separators_align_with_bars():
    for box in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (6, 6)]:
        n = box[0] * box[1]
        text = Sudoku(box, [0] * (n * n)).pretty(list(range(1, n + 1)) * n)
        lines = text.splitlines()
        bars = [i for i, ch in enumerate(next(l for l in lines if "|" in l)) if ch == "|"]
        for line in lines:
            marks = [i for i, ch in enumerate(line) if ch in "|+"]
            assert marks == bars and len(line) == len(lines[0])


def full_sudoku(box: tuple[int, int], rng: random.Random) -> list[int]:
    """A random solution grid: the pattern grid with rows, columns and digits shuffled."""
    r, c = box
    n = r * c
    rows = [b * r + i for b in rng.sample(range(c), c) for i in rng.sample(range(r), r)]
    cols = [s * c + j for s in rng.sample(range(r), r) for j in rng.sample(range(c), c)]
    digits = rng.sample(range(1, n + 1), n)
    return [digits[(c * (i % r) + i // r + j) % n] for i in rows for j in cols]


SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 3), (4, 4), (2, 5), (5, 5), (6, 6), (7, 8), (8, 8)]
SUDOKU_FORMS = ["line", "numbers", "grid", "numbers_grid", "list", "flat_list", "cpmpy"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHAPES), st.sampled_from(SUDOKU_FORMS), st.integers(0, 2 ** 32), st.floats(0, 1))
def test_sudoku_round_trip_every_form_and_shape(box, form, seed, density):
    n = box[0] * box[1]
    if (form == "line" and n > 35) or (form == "cpmpy" and n > 36):
        return
    rng = random.Random(seed)
    solution = full_sudoku(box, rng)
    givens = [v if rng.random() < density else 0 for v in solution]
    p = Sudoku(box, givens, form=form)
    back = parse(p.write(), kind="sudoku", box=box)
    assert identity(back) == identity(p)
    assert parse(p.write_solution(solution), kind="sudoku", box=box).givens == tuple(solution)
    assert p.parse_solution(p.format_solution(solution)) == tuple(solution)
    assert p.check(solution) == [] and p.rules.violations(solution) == []


def random_latin(n: int, rng: random.Random) -> list[int]:
    rows, cols, sym = rng.sample(range(n), n), rng.sample(range(n), n), rng.sample(range(1, n + 1), n)
    return [sym[(rows[i] + cols[j]) % n] for i in range(n) for j in range(n)]


def clues_of(n: int, sol: list[int]) -> list[list[int]]:
    return list(clues_shown(n, sol).values())


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.sampled_from(["line", "rush01", "towers"]), st.integers(0, 2 ** 32))
def test_skyscrapers_round_trip(n, form, seed):
    rng = random.Random(seed)
    sol = random_latin(n, rng)
    clues = [[c if rng.random() < 0.6 else 0 for c in side] for side in clues_of(n, sol)]
    givens = None if form == "rush01" else [v if rng.random() < 0.2 else 0 for v in sol]
    p = Skyscrapers(n, *clues, givens=givens, form=form)
    assert identity(parse(p.write(), kind="skyscrapers")) == identity(p)
    assert parse(p.write_solution(sol), kind="skyscrapers").givens == tuple(sol)
    assert p.check(sol) == [] and p.rules.violations(sol) == []


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 20), st.sampled_from(["n", "board"]), st.integers(0, 2 ** 32))
def test_nqueens_round_trip(n, form, seed):
    rng = random.Random(seed)
    placed = []
    for row in rng.sample(range(n), rng.randint(0, n)):
        col = rng.randrange(n)
        if all(c != col and abs(r - row) != abs(c - col) for r, c in placed):
            placed.append((row, col))
    p = NQueens(n, sorted(placed), form=form)
    assert identity(parse(p.write(), kind="nqueens")) == identity(p)
    if form == "n" or placed:            # an empty board is also an empty Sudoku grid
        assert identity(parse(p.write())) == identity(p)


# -- kind inference ----------------------------------------------------------------------------

@pytest.mark.parametrize("text,kind,form", [
    (INKALA, "sudoku", "line"),
    ("8", "nqueens", "n"),
    ("12 (1,1)", "nqueens", "n"),
    ("5 0,3,0,3,0 0,0,0,0,3 2,2,0,0,4 0,0,0,3,0", "skyscrapers", "line"),
    ("5:/3/3////2/1/4/2/3/////3/4///3", "skyscrapers", "towers"),
    ("[[1,0,0,0],[0,0,2,0],[0,0,0,0],[0,3,0,4]]", "sudoku", "list"),
    ("4 3 2 1 1 2 2 2 4 3 2 1 1 2 2 2", "skyscrapers", "rush01"),   # as a Sudoku: row 2 has two 2s
    ("1 2 3 7 " + "0 " * 32, "skyscrapers", "rush01"),               # 7 > 6: not a 6x6 Sudoku
    ("..Q.\nQ...\n...Q\n.Q..", "nqueens", "board"),
])
def test_kind_inference(text, kind, form):
    p = parse(text)
    assert (p.kind, p.form) == (kind, form)


def test_ambiguous_kinds_ask_for_kind():
    text = "1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
    with pytest.raises(AmbiguousKindError) as info:
        parse(text)
    assert str(info.value) == ("1: 16 numbers can be a 4x4 Sudoku or the rush-01 clues of a 4x4 "
                               "Skyscrapers; say which with --kind (kind= in Python): sudoku or skyscrapers")
    assert parse(text, kind="sudoku").kind == "sudoku"
    assert parse(text, kind="skyscrapers").form == "rush01"
    assert error_text("....\n....\n....\n....") == (
        "1: an empty 4x4 grid can be a Sudoku or an N-Queens board; say which with --kind "
        "(kind= in Python): sudoku or nqueens")


# -- bad input: the exact errors -----------------------------------------------------------------

BAD = [
    # wrong length (the column is where it goes wrong)
    ("4" * 80, {}, ParseError,
     "1:81: a Sudoku line has N² characters (16, 36, 81, 144, 256, 625, …); got 80"),
    ("1 0 0 0 2", {"kind": "sudoku"}, ParseError,
     "1: a Sudoku in numbers has N² values (16, 36, 81, 144, 256, 625, …), or 2N² (the puzzle, then its solution); got 5"),
    # unknown characters
    ("8...?" + "." * 76, {}, ParseError,
     "1:5: unexpected character '?': expected a value (1-9, A-Z) or an empty cell (. 0 _)"),
    ("53..7....\n6..195...\n.98....6.\n8...6...3\n4..8#3..1\n7...2...6\n.6....28.\n...419..5\n....8..79",
     {}, ParseError,
     "5:5: unexpected character '#': expected a value (1-9, A-Z or a number) or an empty cell (. 0 _)"),
    ("." * 10 + " " + "." * 70, {}, ParseError,       # a stray blank inside an N² line
     "1:11: unexpected character ' ': expected a value (1-9, A-Z) or an empty cell (. 0 _)"),
    ("8 (1,1) x", {}, ParseError,
     "1:9: unexpected 'x': after n, pre-placed queens are 1-based (row,col) pairs, e.g. 8 (1,1) (3,5)"),
    ("Q..\n.x.\n...", {"kind": "nqueens"}, ParseError,
     "2:2: unexpected character 'x': a board has '.' (empty) and 'Q' (queen)"),
    # a 65x65 line was told to use the numbers form, which then refused it
    ("." * 65 * 65, {}, UnsupportedShapeError, "1: a 65x65 Sudoku has more than 64 values; supported: up to 64"),
    ("." * 40 * 40, {}, UnsupportedShapeError,
     "1: a 40x40 Sudoku needs the numbers form (one character covers values up to 35; numbers up to 64)"),
    # values out of range
    ("12.5" + "." * 12, {}, ParseError, "1:4: value '5' (5) is out of range for a 4x4 Sudoku (1..4)"),
    ("[[1,0,0,0],[0,0,2,0],[0,0,0,0],[0,3,0,9]]", {}, ParseError,
     "1:39: value 9 is out of range for a 4x4 Sudoku (1..4, 0 = empty)"),
    ("# size=4 box=2x2\n1...\n..0.\n....\n....", {}, ParseError,
     "3:3: value '0' (36) is out of range for a 4x4 Sudoku (1..4; in this format 0 is 36 and '.' is empty)"),
    # a grid row of the wrong size
    ("53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..\n7...2...6\n.6....28.\n...419..5\n....8..79",
     {}, ParseError, "5: grid row 5 has 8 cells; a grid of 9 rows needs 9 cells in every row"),
    ("[[1,0,0,0],[0,0,2],[0,0,0,0],[0,3,0,4]]", {}, ParseError,
     "1:12: list row 2 has 3 values; a list of 4 rows needs 4 in every row"),
    ("5 1,2,3,4 0,0,0,0,0 0,0,0,0,0 0,0,0,0,0", {}, ParseError, "1:3: top clues: expected 5 numbers, got 4"),
    ("5:/3/3////2/", {}, ParseError, "1:3: a Towers id of size 5 has 20 clues separated by '/'; got 8"),
    ("2 2 3 4 5 6", {"kind": "skyscrapers"}, ParseError,
     "1: rush-01 clues are 4N numbers (column tops, column bottoms, row lefts, row rights); got 6"),
    # a Skyscrapers line's fields after the clues: givens, key=value, one solution; no other
    (SKY_LINE + " nsol=1 " + SKY_SOLUTION + " extra", {}, ParseError,
     "1:74: unexpected field 'extra' after the solution (column 42): a line ends with one solution"),
    (SKY_LINE + " - extra", {}, ParseError,
     "1:37: unexpected field 'extra': after the clues come the givens (N² heights or -), key=value "
     "fields and a solution (N² heights or -)"),
    (SKY_LINE + " nsol=1 nsol=2 " + SKY_SOLUTION, {}, ParseError, "1:42: nsol= given twice (first at column 35)"),
    (SKY_LINE + " nsol=1 " + SKY_SOLUTION[:-2], {}, ParseError, "1:42: solution: expected 16 numbers, got 15"),
    (SKY_LINE + " nsol=1 " + SKY_SOLUTION.replace("4", "x", 1), {}, ParseError,
     "1:46: solution: 'x' is not a number"),
    # empty input
    ("", {}, ParseError, "1: empty input: no puzzle found"),
    ("\n  \n# only a comment\n", {}, ParseError, "1: empty input: no puzzle found"),
    # binary junk
    ("12\x00." + "." * 12, {}, ParseError,
     "1:3: unexpected control character '\\x00': this looks like binary data, not puzzle text"),
    # contradictory givens
    # (at the second of the two: the column was left out)
    ("." * 18 + "5....5..." + "." * 54, {}, InvalidPuzzleError, "1:24: row 3 has two 5s"),
    ("1...\n.1..\n....\n....", {}, InvalidPuzzleError, "2:2: block 1 has two 1s"),
    (" ".join("8" if i in (0, 2) else "0" for i in range(81)), {}, InvalidPuzzleError, "1:5: row 1 has two 8s"),
    ("[[1,0,0,0],[0,0,2,0],[0,0,0,0],[0,3,0,3]]", {}, InvalidPuzzleError, "1:39: row 4 has two 3s"),
    ("# size=4 box=2x2\n1...\n....\n....\n 1...", {}, InvalidPuzzleError, "5:2: column 1 has two 1s"),
    ("1 . | . .\n. . | . 1\n----+----\n. . | . .\n. . | . 1", {}, InvalidPuzzleError, "5:9: column 4 has two 1s"),
    ("4 0,0,0,0 0,0,0,0 0,0,0,0 0,0,0,0 1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0", {}, InvalidPuzzleError,
     "1:41: row 1 has two 1s"),
    ("3:///////////,1_1g", {}, InvalidPuzzleError, "1:17: row 1 has two 1s"),
    # block shapes
    (INKALA, {"box": "2x3"}, UnsupportedShapeError, "1: block shape 2x3 does not divide a 9x9 grid (2*3 != 9)"),
    (" ".join(["0"] * 49), {"kind": "sudoku"}, UnsupportedShapeError,
     "1: no block shape for a 7x7 grid: 7 is prime; give --box RxC with R*C = N"),
    ("# size=6 box=3x2\n......\n......\n......\n......\n......\n......", {"box": "3x2"},
     UnsupportedShapeError,
     "1: block shape 3x2 given, but the header says box=3x2 (width x height), i.e. 2x3"),
    # clues out of range
    ("5 7,0,0,0,0 0,0,0,0,0 0,0,0,0,0 0,0,0,0,0", {}, InvalidPuzzleError, "1:3: top clue 7 > N=5"),
    ("5:" + "/" * 5 + "6" + "/" * 14, {}, InvalidPuzzleError, "1:8: bottom clue 6 > N=5"),
    ("4 3 2 1 1 2 2 2 4 3 2 1 1 2 2 9", {"kind": "skyscrapers"}, InvalidPuzzleError, "1:31: right clue 9 > N=4"),
    ("10 0,0,0,0,0,0,0,0,0,0 0,0,0,0,0,0,0,0,0,0 0,0,0,0,0,0,0,0,0,0 0,0,0,0,0,0,0,0,0,0", {},
     UnsupportedShapeError, "1:1: Skyscrapers needs 1 <= N <= 9; got 10"),
    ("99 (1,1)", {}, UnsupportedShapeError, "1:1: N-Queens needs 1 <= n <= 64; got 99"),
    # overlapping and attacking queens (at the later queen: the column was left out)
    ("8 (2,3) (2,3)", {}, InvalidPuzzleError, "1:9: two queens at (2,3)"),
    ("8 (2,2) (4,4)", {}, InvalidPuzzleError, "1:9: queen at (2,2) attacks queen at (4,4)"),
    ("8 (9,1)", {}, InvalidPuzzleError, "1:3: queen at (9,1) is off the 8x8 board"),
    ("Q...\n....\n..Q.\n....", {}, InvalidPuzzleError, "3:3: queen at (1,1) attacks queen at (3,3)"),
    # several puzzles where one is expected
    (f"{INKALA}\n{INKALA}", {}, ParseError,
     "1: the text holds 2 puzzles (lines 1, 2); parse reads one: read files of many with read_puzzles"),
]


@pytest.mark.parametrize("text,kw,kind,message", BAD)
def test_bad_input_exact_error(text, kw, kind, message):
    with pytest.raises(kind) as info:
        parse(text, **kw)
    assert str(info.value) == message


def test_errors_carry_the_source():
    with pytest.raises(ParseError) as info:
        parse("8...?" + "." * 76, source="<stdin>")
    assert str(info.value) == ("<stdin>:1:5: unexpected character '?': expected a value (1-9, A-Z) "
                               "or an empty cell (. 0 _)")


def test_usage_errors():
    with pytest.raises(UsageError, match="^unknown kind 'chess'; known: " + ", ".join(KINDS) + "$"):
        parse("8", kind="chess")
    with pytest.raises(UnsupportedShapeError, match="^block shape '3by3': expected RxC, e.g. 3x3 or 2x3$"):
        parse_box("3by3")
    with pytest.raises(UsageError) as info:
        examples.example("nope")
    assert str(info.value) == "unknown example 'nope'; known: " + ", ".join(examples.EXAMPLES)


def test_a_wrong_line_in_a_file_of_many_stops_nothing():
    lines = [INKALA, INKALA[:-1], "", "# comment", INKALA.replace("8", "?", 1), "8", "8 (1,1) (1,1)", INKALA]
    items = list(read_puzzles("\n".join(lines) + "\n", "top.txt"))
    assert len(items) == 6
    assert [type(i).__name__ for i in items] == ["Sudoku", "ParseError", "ParseError", "NQueens",
                                                 "InvalidPuzzleError", "Sudoku"]
    assert str(items[1]) == "top.txt:2:81: a Sudoku line has N² characters (16, 36, 81, 144, 256, 625, …); got 80"
    assert str(items[2]) == ("top.txt:5:1: unexpected character '?': expected a value (1-9, A-Z) "
                             "or an empty cell (. 0 _)")
    assert str(items[4]) == "top.txt:7:9: two queens at (1,1)"
    assert [i.source for i in items if isinstance(i, Puzzle)] == ["top.txt:1", "top.txt:6", "top.txt:8"]


def test_a_bad_grid_in_a_file_names_its_row_in_the_file():
    bad = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..\n7...2...6\n.6....28.\n...419..5\n....8..79"
    items = list(read_puzzles(f"{INKALA}\n\n{bad}\n\n8\n", "g.txt"))
    assert str(items[1]) == "g.txt:7: grid row 5 has 8 cells; a grid of 9 rows needs 9 cells in every row"
    assert items[0].source == "g.txt:1" and items[2].source == "g.txt:13"


def test_a_file_of_wrong_lines_gives_an_error_per_line():
    items = list(read_puzzles("\n".join([INKALA[:80]] * 5), "short.txt"))
    assert [str(i) for i in items] == [
        f"short.txt:{k}:81: a Sudoku line has N² characters (16, 36, 81, 144, 256, 625, …); got 80"
        for k in range(1, 6)]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_with_its_byte_order_mark_is_read(tmp_path, capsys, codec):
    """Windows saves "Unicode" text as UTF-16 with a byte-order mark: every line was an error
    ("byte 0xff is not UTF-8 text", then NUL bytes); it reads as its text now, streamed (a
    "\\n" split between two reads of the stream) and whole (decode_bytes)."""
    from puzzlebench.cli import main
    from puzzlebench.models.reader import text_lines
    text = f"{INKALA}\n8\n\norder 2\n0 -1\n-1 -1\n"
    data = ("\ufeff" if codec != "utf-16" else "") + text
    raw = data.encode(codec)
    pieces = [raw[i:i + 7] for i in range(0, len(raw), 7)]   # odd sizes: code units cut in two
    assert "".join(text_lines(pieces)) == text
    assert list(text_lines(pieces))[1] == "8\n"
    assert decode_bytes(raw, "u.txt") == text
    f = tmp_path / "u.txt"
    f.write_bytes(raw)
    assert main(["show", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{f}:1: sudoku 9x9") and f"{f}:2: nqueens 8-queens" in out and f"{f}:4: latin 2x2" in out


def test_empty_file_and_binary_junk():
    assert [str(e) for e in read_puzzles("", "e.txt")] == ["e.txt: empty input: no puzzle found"]
    assert [str(e) for e in read_puzzles("\n# nothing\n\n", "e.txt")] == ["e.txt: empty input: no puzzle found"]
    with pytest.raises(ParseError) as info:
        decode_bytes(b"8\n12\x00\x01", "junk.bin")
    assert str(info.value) == "junk.bin:2:3: binary data: a NUL byte; expected puzzle text"
    with pytest.raises(ParseError) as info:
        decode_bytes(b"8\n\x89PNG", "junk.png")
    assert str(info.value) == "junk.png:2:1: not UTF-8 text: byte 0x89 cannot be decoded; expected puzzle text"
    assert decode_bytes("\ufeff8\n".encode(), "bom.txt") == "8\n"
    items = list(read_puzzles(f"{INKALA}\n\x01\x02\x03\n8\n", "j.txt"))
    assert str(items[1]) == ("j.txt:2:1: unexpected control character '\\x01': this looks like binary "
                             "data, not puzzle text")
    assert isinstance(items[2], NQueens)
    # lenient decoding: every line is kept, the junk lines are errors of their own
    data = INKALA.encode() + b"\n\x89PNG\n12\x00\n8\n"
    items = list(read_puzzles(decode_bytes(data, "j.bin", strict=False), "j.bin"))
    assert [type(i).__name__ for i in items] == ["Sudoku", "ParseError", "ParseError", "NQueens"]
    assert str(items[1]) == "j.bin:2:1: byte 0x89 is not UTF-8 text: this looks like binary data, not puzzle text"
    assert str(items[2]) == ("j.bin:3:3: unexpected control character '\\x00': this looks like binary "
                             "data, not puzzle text")


# -- checkers: the kind's own and the vocabulary's agree ----------------------------------------

def corrupt(solution: tuple[int, ...], n_values: int, rng: random.Random) -> tuple[int, ...]:
    s = list(solution)
    if rng.random() < 0.5 and len(s) > 1:
        i, j = rng.sample(range(len(s)), 2)
        s[i], s[j] = s[j], s[i]
    else:
        i = rng.randrange(len(s))
        s[i] = rng.choice([v for v in range(1, n_values + 1) if v != s[i]] or [s[i]])
    return tuple(s)


@pytest.fixture(scope="module")
def solved_examples():
    engine = MrvEngine()
    out = []
    for name in examples.EXAMPLES:
        p = examples.example(name)
        out.append((p, engine.run(p, limit=10).solutions))
    return out


def test_checkers_agree_on_valid_and_corrupted_solutions(solved_examples):
    rng = random.Random(7)
    for p, solutions in solved_examples:
        for sol in solutions:
            assert p.check(sol) == [] and p.rules.violations(sol) == []
            for _ in range(20):
                bad = corrupt(sol, p.n_values, rng)
                assert (p.check(bad) == []) == (p.rules.violations(bad) == [])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4)]), st.integers(0, 2 ** 32))
def test_sudoku_checkers_agree_on_random_grids(box, seed):
    rng = random.Random(seed)
    sol = tuple(full_sudoku(box, rng))
    p = Sudoku(box, [v if rng.random() < 0.3 else 0 for v in sol])
    bad = corrupt(sol, p.n_values, rng)
    assert (p.check(bad) == []) == (p.rules.violations(bad) == [])


@pytest.mark.parametrize("intruder", [0, 10, 5.0, "5", None])
def test_sudoku_check_refuses_values_that_are_not_1_to_n(intruder):
    rng = random.Random(3)
    sol = list(full_sudoku((3, 3), rng))
    p = Sudoku((3, 3), [0] * 81)
    sol[40] = intruder
    assert p.check(tuple(sol)) == [f"r5c5 = {intruder} is not a value 1..9"]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2 ** 32))
def test_skyscrapers_checkers_agree_on_random_grids(n, seed):
    rng = random.Random(seed)
    sol = tuple(random_latin(n, rng))
    p = Skyscrapers(n, *clues_of(n, list(sol)))
    bad = corrupt(sol, n, rng)
    assert (p.check(bad) == []) == (p.rules.violations(bad) == [])


# -- the embedded examples -----------------------------------------------------------------------

def test_examples_solve_to_their_stated_counts(solved_examples):
    engine = MrvEngine()
    for name, e in examples.EXAMPLES.items():
        p = examples.example(name)
        assert p.kind == e.kind and p.source == f"example:{name}"
        res = engine.run(p, limit=None if e.solutions > 1 else 2)
        assert res.count == e.solutions, name
        assert all(p.check(s) == [] for s in res.solutions)
    assert examples.example(examples.DEFAULT_EXAMPLE).shape == "9x9 (3x3 blocks)"
    # the course prints the solution of its example grid
    p = examples.example("course-9x9")
    res = engine.run(p)
    assert p.format_solution(res.solutions[0]) == (
        "246581397758493126139267485981375642523846719674129853892634571465712938317958264")


def test_generated_examples_are_minimal_and_unique():
    """Every given of the generated puzzles is needed: removing any one allows a second
    solution (that is how they were made)."""
    engine = MrvEngine()
    for name in ("sudoku6", "skyscrapers5"):
        p = examples.example(name)
        assert engine.run(p).count == 1
        if isinstance(p, Sudoku):
            for cell in [c for c, v in enumerate(p.givens) if v][:6]:
                g = list(p.givens)
                g[cell] = 0
                assert engine.run(Sudoku(p.box, g)).count == 2


def test_generated_examples_come_from_their_seeds():
    """The 6x6 and the 5x5 Skyscrapers are made again by the seeded generator (the 12x12 takes
    seconds, so it is only proven unique above)."""
    from puzzlebench.generators.examples import example_skyscrapers, example_sudoku
    p, solution = example_sudoku((2, 3), 6)
    assert p.givens == examples.example("sudoku6").givens and p.check(solution) == []
    q, solution = example_skyscrapers(5, 1)
    assert q.write() == examples.example("skyscrapers5").write() and q.check(solution) == []


# -- the data files ------------------------------------------------------------------------------

needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"no data sets at {DATA}")
SAMPLE = 250


def data_files():
    return sorted(p.name for p in DATA.glob("*")) if DATA.is_dir() else []


# Simon Tatham's game ids name their kind by the program that made them (MANIFEST.md).
TATHAM_KINDS = {"tatham_solo_sudokux": "sudoku-x", "tatham_solo_jigsaw": "jigsaw",
                "tatham_solo_killer": "killer", "tatham_keen": "kenken", "tatham_unequal": "futoshiki"}


def expected_kind(name: str) -> str:
    tatham = [kind for prefix, kind in TATHAM_KINDS.items() if name.startswith(prefix)]
    return tatham[0] if tatham else next(k for k in KINDS if name.startswith(k[:6]))


@needs_data
@pytest.mark.parametrize("name", [n for n in data_files() if n.endswith((".txt", ".csv"))
                                  and not n.startswith("MANIFEST")])
def test_data_files_parse_with_the_right_kind_and_their_solutions_check(name):
    kind = expected_kind(name)
    if kind not in KINDS:
        pytest.skip(f"puzzlebench does not read the kind {kind!r} yet")
    lines = (DATA / name).read_text().splitlines()
    header, body = (lines[:1], lines[1:]) if name.endswith(".csv") else ([], lines)
    step = max(1, len(body) // SAMPLE)
    sample = body[::step][:SAMPLE]
    if name.endswith(".csv"):
        items = list(read_puzzles("\n".join(header + sample), name))
    else:
        items = [parse(line, source=f"{name}:{i}") for i, line in enumerate(sample, start=1)]
    checked = 0
    for p in items:
        assert isinstance(p, Puzzle), p
        assert p.kind == kind
        text = p.metadata.get("solution")
        if text and text != "-":
            assert p.check(p.parse_solution(text)) == []
            checked += 1
    if "with_solutions" in name:
        assert checked == len(items)


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("prefix", sorted(TATHAM_KINDS))
def test_a_game_id_with_its_solution_after_it_checks(prefix):
    """``solve`` writes a game id's answer in the id's own form (a Keen id holds no values:
    its answer is the digits); ``check`` reads lines ``id answer``: the id with the answer as
    its ``solution`` field, valid, and a corrupted answer listed as invalid, not a parse error."""
    [name] = [n for n in data_files() if n.startswith(prefix)]
    for k, line in enumerate(l for l in (DATA / name).read_text().splitlines()[:40] if l and l[0] != "#"):
        p = parse(line)
        [solution] = MrvEngine().run(p, limit=1).solutions
        answer = p.write_solution(solution)
        assert " " not in answer and answer != p.write()
        read = parse(f"{line} {answer} note=x extra")
        assert read.kind == p.kind and read.givens == p.givens
        assert read.metadata == {"solution": answer, "note": "x", "field4": "extra"}
        assert read.parse_solution(read.metadata["solution"]) == tuple(solution)
        assert read.check(read.parse_solution(answer)) == []
        swapped = list(solution)
        swapped[0], swapped[1] = swapped[1], swapped[0]
        assert read.check(read.parse_solution(p.write_solution(swapped)))


@needs_data
@pytest.mark.parametrize("prefix, error", [
    ("tatham_solo_jigsaw", "the solution's id has other regions than the puzzle's"),
    ("tatham_solo_killer", "the solution's id has other cages or sums than the puzzle's"),
    ("tatham_unequal", "the solution's id has other signs than the puzzle's")])
def test_an_answer_written_for_another_puzzle_is_refused(prefix, error):
    [name] = [n for n in data_files() if n.startswith(prefix)]
    first, *others = [parse(l) for l in (DATA / name).read_text().splitlines() if l and l[0] != "#"]
    second = others[0] if prefix != "tatham_unequal" else \
        next(q for q in others if q.n == first.n and q.less != first.less)   # the first may have no signs
    [solution] = MrvEngine().run(second, limit=1).solutions
    with pytest.raises(ParseError, match=error):
        first.parse_solution(second.write_solution(solution))


def test_a_plain_solo_id_is_a_sudoku_written_back_as_one():
    """Solo's plain Sudoku id ``CxR:GRID``, as his program prints it: blocks C wide, R high."""
    from puzzlebench.models.solo import grid_text
    inkala = parse(INKALA)
    solo = f"3x3:{grid_text(inkala.givens)}"
    p = parse(solo + "  note=x")
    assert p.kind == "sudoku" and p.box == (3, 3) and p.givens == inkala.givens
    assert p.write() == solo and p.metadata == {"note": "x"}
    [solution] = MrvEngine().run(p, limit=2).solutions
    answer = p.write_solution(solution)
    assert answer.startswith("3x3:") and p.parse_solution(answer) == tuple(solution)
    assert parse(f"{solo} {answer}").metadata["solution"] == answer
    wide = parse("3x2:" + grid_text([0] * 36))       # blocks 3 wide, 2 high: our 2x3
    assert wide.box == (2, 3)


@pytest.mark.parametrize("text, error", [
    ("3x3:a1b2c", "1:10: the grid describes 8 cells; a 9x9 Sudoku has 81"),
    ("3x3:a1b2c,x", "1:10: unexpected ',' in a Solo Sudoku id: its grid is digits, and letters a-z for runs of empty cells"),
    ("3x3:a1b2cA", "1:10: unexpected 'A' in a Solo Sudoku id: its grid is digits, and letters a-z for runs of empty cells"),
    ("2x2:a5o", "1:6: 5 is not a value of a 4x4 Sudoku"),
    ("9x9:", "1:1: a Solo id of 9x9 blocks: supported up to 35 values"),
])
def test_a_bad_plain_solo_id_is_placed(text, error):
    with pytest.raises(PuzzleError) as err:
        parse(text)
    assert str(err.value) == error


SOLO_KINDS = "Solo ids are CxR: (Sudoku), CxRx: (Sudoku-X), Nj: (jigsaw) and CxRk: (Killer)"


@pytest.mark.parametrize("text, error", [
    ("3x3z:abc", f"1:1: Solo parameters '3x3z' are not read here: {SOLO_KINDS}"),
    ("3x3xk:a,b,c", f"1:1: Solo parameters '3x3xk' are not read here: {SOLO_KINDS}"),
    ("5#12345", "1:2: '5#…' is a random seed of Simon Tatham's puzzles, not a puzzle: copy the game id "
                "(Game > Specific…) instead"),
    ("  9j#77", "1:5: '9j#…' is a random seed of Simon Tatham's puzzles, not a puzzle: copy the game id "
                "(Game > Specific…) instead"),
])
def test_ids_of_other_tatham_puzzles_and_random_seeds_are_named(text, error):
    with pytest.raises(PuzzleError) as err:
        parse(text)
    assert str(err.value) == error


@needs_data
def test_whole_small_data_files_read_without_error():
    for name in ("sudoku9_norvig_top95.txt", "sudoku4_vu_kr_1000.txt", "nqueens_solution_counts_oeis.txt"):
        items = list(read_puzzles((DATA / name).read_text(), name))
        assert all(isinstance(i, Puzzle) for i in items)
        assert len(items) == len((DATA / name).read_text().splitlines())


# -- no traceback, whatever the input -----------------------------------------------------------

JUNK = st.lists(st.sampled_from(list("0123456789.,_|-+=()[]Qq# \nabcxzAZ:/\t")
                                + ["size=", "box=", "8 ", "4 ", "\x00", "é"]), max_size=120).map("".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(JUNK, st.sampled_from([None, *KINDS]))
def test_any_text_gives_a_puzzle_or_a_puzzle_error(text, kind):
    try:
        assert isinstance(parse(text, kind=kind), Puzzle)
    except PuzzleError:
        pass
    assert all(isinstance(i, (Puzzle, PuzzleError)) for i in read_puzzles(text, "f.txt", kind=kind))


class OnesStream:
    """A binary stream of one line of ``length`` ``1`` s, then ``rest``, made as it is read (a
    line of hundreds of MB that is never in memory); ``largest`` is the most bytes asked at once."""

    def __init__(self, length: int, rest: bytes):
        self.left, self.rest, self.largest = length, rest, 0

    def _take(self, size: int, line: bool) -> bytes:
        self.largest = max(self.largest, size)
        if self.left:
            n = min(size, self.left)
            self.left -= n
            return b"1" * n
        end = self.rest.find(b"\n") + 1 if line else 0
        n = min(size, end or len(self.rest))
        out, self.rest = self.rest[:n], self.rest[n:]
        return out

    def readline(self, size: int = -1) -> bytes:
        assert size > 0, "a line read without a bound"
        return self._take(size, True)

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "a read without a bound"
        return self._take(size, False)


@pytest.mark.parametrize("length", [10 ** 7, 2 * 10 ** 8])
def test_a_line_longer_than_any_puzzle_is_rejected_where_it_passes_the_bound(length):
    """A line of 200 MB of ``1`` took 56 s and 460 MB to reject, and its column (1:1226) was
    the same for a line of 10^7 and of 2x10^8 characters: it is the bound's now, read in
    bounded pieces, and the next line is read."""
    from puzzlebench.models.reader import MAX_LINE_BYTES, text_lines
    stream = OnesStream(length, f"\n{INKALA}\n".encode())
    items = list(read_puzzles(text_lines(stream), "long.txt"))
    assert str(items[0]) == (f"long.txt:1:{MAX_LINE_BYTES + 1}: this line is longer than {MAX_LINE_BYTES:,} bytes, "
                             "more than any puzzle takes (the largest is a 64x64 grid); not read further")
    assert isinstance(items[1], Sudoku) and items[1].source == "long.txt:2"
    assert len(items) == 2
    assert stream.largest == MAX_LINE_BYTES + 1


def test_a_long_lines_column_counts_characters_and_the_line_at_the_bound_is_read(tmp_path, capsys):
    from puzzlebench.cli import main
    from puzzlebench.models.reader import MAX_LINE_BYTES
    f = tmp_path / "wide.txt"
    with open(f, "w", encoding="utf-8") as out:
        out.write("é" * MAX_LINE_BYTES + "\n")               # 2 bytes a character
        out.write(INKALA + " " * (MAX_LINE_BYTES - 81) + "\n")   # at the bound: a puzzle
    assert main(["show", str(f)]) == 1   # an error among the puzzles
    err = capsys.readouterr().err
    assert err.splitlines()[0] == (f"puzzlebench: {f}:1:{MAX_LINE_BYTES // 2 + 1}: error: this line is longer than "
                                   f"{MAX_LINE_BYTES:,} bytes, more than any puzzle takes (the largest is a "
                                   "64x64 grid); not read further")
    assert f"{f}:2" not in err


@pytest.mark.parametrize("suffix, codec", [(".txt", "utf-16"), (".csv", "utf-8")])
def test_a_long_line_of_a_utf16_or_csv_file_is_one_error_too(tmp_path, capsys, suffix, codec):
    from puzzlebench.cli import main
    from puzzlebench.models.reader import MAX_LINE_BYTES
    header = "puzzle\n" if suffix == ".csv" else ""
    f = tmp_path / f"long{suffix}"
    f.write_bytes((header + "1" * (MAX_LINE_BYTES + 5) + f"\n{INKALA}\n").encode(codec))
    bound = MAX_LINE_BYTES // 2 if codec == "utf-16" else MAX_LINE_BYTES
    line = 2 if header else 1
    assert main(["show", str(f)]) == 1   # an error among the puzzles
    err = capsys.readouterr().err
    assert err.splitlines()[0] == (f"puzzlebench: {f}:{line}:{bound + 1}: error: this line is longer than {MAX_LINE_BYTES:,} "
                                   "bytes, more than any puzzle takes (the largest is a 64x64 grid); not read further")
    assert err.count("error") == 1
