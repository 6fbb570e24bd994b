"""Kinds with cages: KenKen (Tatham's Keen ids) and Killer Sudoku (Solo killer ids), both stated
with the vocabulary's ``Cage`` and solved by every engine generic over it; ids read and
written back byte for byte, the plain form read back from what ``show`` prints, bad input a
one-line error with its place."""


import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import DATA
from puzzlebench import parse, solve
from puzzlebench.cli import main
from puzzlebench.encoders.dimacs import SAT_EXIT
from puzzlebench.errors import PuzzleError
from puzzlebench.models.kenken import KenKen
from puzzlebench.models.killer import KillerSudoku
from puzzlebench.models.reader import read_puzzles
from puzzlebench.models.vocabulary import Cage, cage_fillings
from puzzlebench.engines.registry import FAMILIES, engine_class, make_engine

KEEN = DATA / "tatham_keen_4to7_96.txt"
KILLER = DATA / "tatham_solo_killer_3x3_100.txt"
needs_data = pytest.mark.skipif(not (KEEN.exists() and KILLER.exists()), reason="no Tatham data sets")
ENGINES = {kind: [f for f in FAMILIES if kind in engine_class(f).kinds and engine_class(f).unavailable_reason() is None]
           for kind in ("kenken", "killer")}


# -- the vocabulary's term -------------------------------------------------------------------

def test_fillings_are_the_tuples_or_sets_that_make_the_target():
    assert Cage((0, 1), "/", 2, "c").fillings(4) == ((1, 2), (2, 1), (2, 4), (4, 2))
    assert Cage((0, 1), "-", 3, "c").fillings(4, distinct=True) == ((1, 4),)
    assert Cage((0, 1, 2), "*", 4, "c").fillings(4) == ((1, 1, 4), (1, 2, 2), (1, 4, 1), (2, 1, 2), (2, 2, 1), (4, 1, 1))
    assert Cage((0, 1, 2), "+", 6, "c").fillings(9, distinct=True) == ((1, 2, 3),)
    assert Cage((0,), "+", 5, "c").fillings(4) == ()
    assert len(cage_fillings("+", 45, 9, 9, True)) == 1


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("+-*/"), st.integers(1, 3), st.integers(2, 5), st.integers(1, 30), st.booleans())
def test_fillings_agree_with_brute_force(op, size, n, target, distinct):
    import itertools
    size = 2 if op in "-/" else size
    cage = Cage(tuple(range(size)), op, target, "c")
    brute = {t for t in itertools.product(range(1, n + 1), repeat=size) if cage.holds(t)}
    if distinct:
        brute = {tuple(sorted(t)) for t in brute if len(set(t)) == size}
    assert set(cage.fillings(n, distinct)) == brute
    assert len(cage.fillings(n, distinct)) == len(brute)
    assert cage.fillable(n, distinct) is bool(brute)


def test_whether_a_cage_can_be_filled_agrees_with_its_fillings_without_listing_them():
    for n in range(1, 8):
        for size in range(1, 5):
            for op in "+*-/":
                for distinct in (False, True):
                    for target in range(0, 60 if op == "+" else 400):
                        cage = Cage(tuple(range(size)), op, target, "c")
                        assert cage.fillable(n, distinct) is bool(cage.fillings(n, distinct)), (op, target, size, n)
    # 81 cells of 35 values: no listing could say it, the bounds and the first factorisation do
    assert Cage(tuple(range(81)), "+", 81 * 18, "c").fillable(35) and not Cage(tuple(range(81)), "+", 80, "c").fillable(35)
    assert Cage(tuple(range(40)), "*", 2**60, "c").fillable(35) and not Cage(tuple(range(3)), "*", 2**60, "c").fillable(35)


@pytest.mark.parametrize("kind, n, value", [
    ("kenken", 18, lambda r, c: (r + c) % 18 + 1),                      # a cyclic Latin square
    ("killer", 16, lambda r, c: (r * 4 + r // 4 + c) % 16 + 1),          # a 16x16 Sudoku's grid
])
def test_a_plain_form_longer_than_any_grid_reads_as_one_puzzle(tmp_path, capsys, kind, n, value):
    """A plain form is N rows, then a line a cage: past 128 lines (an 18x18 KenKen as show
    prints it is 174) the reader took the block for one puzzle a line and knew none of them."""
    lines = [" ".join("." * n)] * n
    for r in range(n):
        for c in range(0, n, 2):
            total = value(r, c) + value(r, c + 1)
            lines.append(f"cage {total}{'+' if kind == 'kenken' else ''}: r{r + 1}c{c + 1} r{r + 1}c{c + 2}")
    assert len(lines) > 128
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count(f"{path}:") == 1 and out.startswith(f"{path}:1: {kind} {n}x{n}")
    shown = tmp_path / "shown.txt"
    shown.write_text(out.split("\n", 1)[1])   # what show printed, under its header, reads back
    assert main(["show", str(shown)]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == out.split("\n", 1)[1]


@pytest.mark.slow
def test_a_cage_with_more_fillings_than_memory_is_read_and_refused_by_the_engines(tmp_path, capsys):
    """A 27-cell sum cage of a 9x9 KenKen: the reader listed every filling to see whether one
    made the target (7 GB and more than a minute, for show as for solve); an engine now gets an
    error naming the cage past MAX_FILLING_VALUES values listed."""
    cells = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]
    lines = [" ".join("." * 9)] * 9 + ["cage 135+: " + " ".join(cells[:27])]
    lines += [f"cage {(k // 9 + k % 9) % 9 + 1}: {cell}" for k, cell in enumerate(cells[27:])]   # a Latin band
    path = tmp_path / "k.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["show", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}:1: kenken 9x9 KenKen\n")
    assert main(["solve", "--solver", "mrv", str(path)]) == 2
    out = capsys.readouterr().out
    assert out == (f"{path}:1: error: cage 1 (135+ at {' '.join(cells[:27])}): more than 370,370 fillings "
                   "of 1..9 make 135+: too many to list for an encoding\n")


# -- the public sets --------------------------------------------------------------------------

@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("path, cls", [(KEEN, KenKen), (KILLER, KillerSudoku)], ids=["keen", "killer"])
def test_every_public_id_reads_writes_back_and_is_unique(path, cls):
    lines = path.read_text().split()
    puzzles = [parse(line) for line in lines]
    assert all(isinstance(p, cls) for p in puzzles)
    assert [p.write() for p in puzzles] == lines
    for line in lines:
        result = solve(line, solver="sat", time_limit=60)
        assert (str(result.status), result.verified) == ("unique", True), line


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("kind, path", [("kenken", KEEN), ("killer", KILLER)])
def test_every_engine_solves_a_sample_unique_and_agrees(kind, path):
    lines = path.read_text().split()
    sample = lines[::32] if kind == "kenken" else lines[::50]
    for line in sample:
        answers = {}
        for family in ENGINES[kind]:
            if family == "quine" and len(parse(line).givens) > 36:
                continue       # the dilemma solver in Python: minutes on a 7x7 KenKen
            result = solve(line, solver=family, time_limit=60)
            assert (str(result.status), result.verified) == ("unique", True), (family, line)
            answers[family] = result.solutions[0]
        assert len(set(answers.values())) == 1, line


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kenken4", "killer"])
def test_every_engine_solves_the_examples(name):
    from puzzlebench.models import examples
    puzzle = examples.example(name)
    for family in ENGINES[puzzle.kind]:
        result = make_engine(family).run(puzzle, limit=2, time_limit=60)
        assert (str(result.status), result.count, result.verified) == ("unique", 1, True), family


# -- text forms ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["kenken4", "killer"])
def test_the_plain_form_show_prints_reads_back(name):
    from puzzlebench.models import examples
    puzzle = examples.example(name)
    again = parse(puzzle.pretty())
    assert (again.kind, again.form, again.givens, again.structure()) == (puzzle.kind, "plain", puzzle.givens,
                                                                           puzzle.structure())
    assert again.write() == puzzle.pretty()


def test_the_plain_form_in_a_file_of_many_with_ids():
    text = ("4:__a_5aca3_a_,a9s1m4a5s2m12d2\n4:_a_aabb_7a__,d2s1a4a3m12d2m2s1\n\n"
            + parse("4:__a_5aca3_a_,a9s1m4a5s2m12d2").pretty() + "\n")
    items = list(read_puzzles(text, "f.txt"))
    assert [type(i).__name__ for i in items] == ["KenKen"] * 3
    assert [i.source for i in items] == ["f.txt:1", "f.txt:2", "f.txt:4"]


def test_the_checker_names_every_broken_rule_and_agrees_with_the_vocabulary():
    puzzle = parse("4:__a_5aca3_a_,a9s1m4a5s2m12d2")
    good = solve(puzzle, solver="mrv").solutions[0]
    assert puzzle.check(good) == [] and puzzle.rules.violations(good) == []
    bad = list(good)
    bad[0], bad[1] = bad[1], bad[0]
    assert puzzle.check(bad) and puzzle.rules.violations(bad)
    assert any("cage 1 (9+ at r1c1 r2c1 r3c1)" in p for p in puzzle.check(bad))
    killer = parse(KILLER_ID)
    good = solve(killer, solver="sat").solutions[0]
    swapped = list(good)
    swapped[0], swapped[9] = swapped[9], swapped[0]
    assert killer.check(good) == [] and killer.rules.violations(good) == []
    assert "cage 1 (10 at r1c1 r2c1) repeats a value" not in killer.check(swapped)
    assert killer.check(swapped) and killer.rules.violations(swapped)


@pytest.mark.parametrize("example", ["kenken4", "killer", "jigsaw6"])
def test_a_dimacs_export_decodes_back_to_the_puzzle(tmp_path, capsys, example):
    """The header carries what the kind's header() says (cages, jigsaw regions: both were
    dropped once, and decode failed on 'the header gives no cages')."""
    from puzzlebench.models import examples
    puzzle = examples.example(example)
    assert main(["export", "--example", example, "--to", "dimacs"]) == 0
    cnf = tmp_path / "p.cnf"
    cnf.write_text(capsys.readouterr().out)
    assert main(["solve-cnf", str(cnf), "--limit", "0"]) == SAT_EXIT
    assert "c sat: 1 model(s) found (limit all)" in capsys.readouterr().out
    assert main(["solve-cnf", str(cnf)]) == SAT_EXIT
    answer = tmp_path / "answer.txt"
    answer.write_text(capsys.readouterr().out)
    assert main(["decode", "--cnf", str(cnf), "--model", str(answer), "--format", "jsonl"]) == 0
    out = capsys.readouterr().out
    assert '"verified": true' in out and puzzle.format_solution(solve(puzzle, solver="mrv").solutions[0]) in out


KILLER_ID = ("3x3k:zzzc,_aaaaa_a___a_a__aa__aaa__a______a___aaa_aabaa_ca_aa____b_____a__a_a_____aa___aa_aa"
             "______a_____aaa___,10_13a6a9a16b11a6_16a11_8a13_4b18c13b11a8a13b16a8b14_9a5_9_18_9a21a9g12a8a9a"
             "14a6a13c8a11b20b")


# -- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, error", [
    ("4:__a_5aca3_a_,a9s1m4a5q2m12d2", "bad.txt:1:24: unknown clue letter 'q': a s m d (+ - x /)"),
    ("4:__a_5ac!a3_a_,a9s1m4a5s2m12d2", "bad.txt:1:10: unexpected '!' in the region lines: expected _ or a..z"),
    ("4:__a_5aca3_a_,a9s1m4a5s2m12", "bad.txt:1:29: 6 clues for 7 cages"),
    ("4:__a_5aca3_a_,a99s1m4a5s2m12d2", "bad.txt:1:16: cage 1 (99+ at r1c1 r2c1 r3c1): no 3 values of 1..4 make 99+"),
    ("4:__a_5aca3_a_,s9s1m4a5s2m12d2",
     "bad.txt:1:16: cage 1 (9- at r1c1 r2c1 r3c1): a - cage has two cells; this one has 3"),
    ("3x3k:zzzc,_aaaaa", "bad.txt:1:6: a Solo killer id is CxRk:grid,cages,sums; this one has 2 parts after the colon"),
    (KILLER_ID.replace(",10_13", ",99_13"),
     "bad.txt:1:112: cage 1 (99 at r1c1 r2c1): no 2 different values of 1..9 make 99+"),
    (". .\n. .\ncage 3+: r1c1 r1c2\ncage 1: r2c1\n", "bad.txt:2:3: the cages do not cover the grid: r2c2 is in no cage"),
    (". .\n. .\ncage 3+: r1c1 r1c2\ncage 3+: r2c1 r2c2 r1c2\n", "bad.txt:4:20: r1c2 is in two cages (1 and 2)"),
    (". . .\n. . .\n. . .\ncage 3/: r1c1 r1c2 r1c3\ncage 6+: r2c1 r2c2 r2c3 r3c1 r3c2 r3c3\n",
     "bad.txt:4: cage 1 (3/ at r1c1 r1c2 r1c3): a / cage has two cells; this one has 3"),
    # a repeated given at the second (the column was left out)
    ("3x3k:1a1zzz,_aaaaa_a___a_a__aa__aaa__a______a___aaa_aabaa_ca_aa____b_____a__a_a_____aa___aa_aa______a_____aaa___,10_13a6a9a16b11a6_16a11_8a13_4b18c13b11a8a13b16a8b14_9a5_9_18_9a21a9g12a8a9a14a6a13c8a11b20b", "bad.txt:1:8: row 1 has two 1s"),
    ("1 1\n. .\ncage 2+: r1c1 r1c2\ncage 3+: r2c1 r2c2\n", "bad.txt:1:3: row 1 has two 1s"),
    (". . . .\n. 1 . .\n. . 1 .\n. . . .\ncage 10: r1c1 r1c2 r1c3 r1c4\ncage 10: r2c2 r2c3 r3c2 r3c3\n"
     "cage 6: r2c1 r3c1 r4c1\ncage 6: r2c4 r3c4 r4c4\ncage 3: r4c2 r4c3\n",
     "bad.txt:3:5: cage 2 (10 at r2c2 r2c3 r3c2 r3c3) has two 1s"),
    (". .\n. 2\ncage 3+: r1c1 r1c2\ncage 1: r2c1\ncage 1: r2c2\n", "bad.txt:2:3: r2c2 is given as 2 in a one-cell cage of 1"),
    # a Keen id cut after its cage lines was "a Towers id of size 4 has 16 clues separated by '/'; got 1"
    ("4:__a_5aca3_a_", "bad.txt:1:15: a Keen id is N:CAGES,CLUES; this one ends after its cage lines, "
     "with no ',' and clues"),
    ("4:__a_5aca3_a_;a9s1m4a5s2m12d2", "bad.txt:1:15: unexpected ';' in a Keen id: its cage lines are "
     "digits, letters a-z and '_', then ',' and the clues"),
], ids=["clue-letter", "region-char", "too-few-clues", "unreachable", "minus-of-three", "killer-parts",
        "killer-unreachable", "not-covered", "overlap", "divide-of-three", "killer-repeat", "kenken-repeat",
        "killer-plain-repeat", "given-against-its-cage", "keen-without-clues",
        "keen-comma-mistyped"])
def test_bad_input_is_one_line_with_its_place_and_exit_2(tmp_path, capsys, text, error):
    path = tmp_path / "bad.txt"
    path.write_text(text if text.endswith("\n") else text + "\n")
    [item] = read_puzzles(path.read_text(), "bad.txt")
    assert isinstance(item, PuzzleError) and str(item) == error
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert err[0].endswith(error.split(": ", 1)[1]) and "Traceback" not in "\n".join(err)


@pytest.mark.parametrize("kind, name", [("killer", "Killer Sudoku"), ("kenken", "KenKen")])
def test_a_sudoku_line_read_as_a_cage_kind_says_what_the_kind_looks_like(tmp_path, capsys, kind, name):
    """A Sudoku line given --kind killer was 'a cell is a value of 1..1 or . for none' (a grid of
    one row)."""
    path = tmp_path / "s.txt"
    path.write_text("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n")
    assert main(["solve", "--kind", kind, str(path)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert err[0] == (f"puzzlebench: {path}:1:1: error: a line of 81 characters is no {name}: its plain form is N "
                      "rows of N cells separated by spaces, then its cage lines (or give its game id)")


# -- the readers under fuzz -------------------------------------------------------------------

SEED_TEXTS = ["4:__a_5aca3_a_,a9s1m4a5s2m12d2", KILLER_ID,
              parse("4:__a_5aca3_a_,a9s1m4a5s2m12d2").pretty(), parse(KILLER_ID).pretty()]


@st.composite
def mutated_text(draw):
    text = list(draw(st.sampled_from(SEED_TEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        what = draw(st.sampled_from(["cut", "insert", "replace"]))
        char = draw(st.sampled_from(list("_az09,:+-*/x \nrc.") + ["cage ", "99", "\u00e9"]))
        if what == "cut" and at < len(text):
            del text[at]
        elif what == "insert":
            text.insert(at, char)
        elif at < len(text):
            text[at] = char
    return "".join(text)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_text())
def test_a_mutated_id_or_plain_form_is_an_error_or_a_puzzle_that_writes_back(text):
    for item in read_puzzles(text, "m.txt"):
        if isinstance(item, PuzzleError):
            assert "\n" not in str(item) and str(item).startswith("m.txt")
        elif item.kind in ("kenken", "killer"):
            again = parse(item.write(), kind=item.kind)
            assert again.structure() == item.structure() and again.givens == item.givens


@pytest.mark.parametrize("kind, name", [("killer", "Killer Sudoku"), ("kenken", "KenKen")])
def test_one_line_of_numbers_read_as_a_cage_kind_says_what_the_kind_looks_like(kind, name):
    """Was "a row of a 1x1 KenKen has 1 cells; this one has 4"."""
    [item] = read_puzzles("1 2 3 4\n", "s.txt", kind=kind)
    assert str(item) == (f"s.txt:1: one line of 4 cells is no {name}: its plain form is N rows of N cells "
                         "separated by spaces, then its cage lines (or give its game id)")
    [item] = read_puzzles("1 2\n3 4 1\ncage 3+: r1c1 r1c2\n", "s.txt", kind=kind)
    assert str(item) == f"s.txt:2: a {name} of 2 rows has 2 cells in every row; this one has 3"
