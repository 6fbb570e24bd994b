"""Jigsaw Sudoku, a kind of one module and one registry line: Simon Tatham's Solo ids (their
region lines decoded as solo.c writes them) read and written back exactly, the public set of
100 solved and proven unique by every engine generic over the vocabulary, and clear errors."""

import pytest

from conftest import DATA
from puzzlebench import parse, solve
from puzzlebench.errors import InvalidPuzzleError, ParseError
from puzzlebench.models.jigsaw import JigsawSudoku
from puzzlebench.models.reader import read_puzzles
from puzzlebench.engines.registry import FAMILIES, engine_class

GENERIC = [f for f in FAMILIES if "jigsaw" in engine_class(f).kinds and engine_class(f).unavailable_reason() is None]
TATHAM = DATA / "tatham_solo_jigsaw9_100.txt"
needs_data = pytest.mark.skipif(not TATHAM.exists(), reason=f"no data set at {TATHAM}")


@needs_data
def test_the_public_tatham_set_reads_and_writes_back_exactly():
    lines = TATHAM.read_text().split()
    puzzles = [parse(line) for line in lines]
    assert len(puzzles) == 100 and all(isinstance(p, JigsawSudoku) for p in puzzles)
    assert [p.write() for p in puzzles] == lines
    assert all(sorted(p.regions.count(r) for r in range(9)) == [9] * 9 for p in puzzles)


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("family", [f for f in GENERIC if f != "backtrack"])
def test_every_engine_solves_a_sample_of_the_public_set(family):
    """backtrack, with no propagation, takes minutes on some of them: it has the 6x6 example."""
    lines = TATHAM.read_text().split()
    for line in (lines[::25] if family == "quine" else lines[::10]):
        result = solve(line, solver=family, time_limit=60)
        assert (str(result.status), result.verified) == ("unique", True), (family, line)


@pytest.mark.parametrize("family", GENERIC)
def test_every_engine_solves_the_embedded_example(family):
    result = solve(parse_example(), solver=family, time_limit=60)
    assert (str(result.status), result.count, result.verified) == ("unique", 1, True)


def parse_example():
    from puzzlebench.models import examples
    return examples.example("jigsaw6")


def test_regions_of_the_wrong_size_are_refused():
    with pytest.raises(InvalidPuzzleError, match="a 4x4 jigsaw needs 4 regions of 4 cells; the regions have 2, 4, 4, 6 cells"):
        JigsawSudoku([0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3][:8] + [2, 2, 2, 2, 2, 2, 3, 3], [0] * 16)


ID_SHAPE = ("a jigsaw Sudoku is a Solo game id on one line: Nj:grid,regions (grid: digits and letters "
            "a-z for runs of empty cells; regions: letters a-z and _ for the edge runs)")


@pytest.mark.parametrize("text, error", [
    ("4j:p,_", "j.txt:1:7: the region lines cover 1 of the grid's 24 edges"),
    # every edge walked, the closing '_' left off (it said "cover 60 of the grid's 60 edges")
    ("6j:1a3b6b5f3_1d5i4d,bb__a_a_aa_b_abdbbbbbcaac", "j.txt:1:46: the region lines end one character short: "
                                                     "after the grid's 60 edges comes a closing '_' (no place "
                                                     "after the last line)"),
    ("4j:o,b_b_b_b_b_b_b_b_b_", "j.txt:1:5: the grid describes 15 cells; a 4x4 jigsaw has 16"),
    ("4j:5o,_", "j.txt:1:4: 5 is not a value of a 4x4 jigsaw"),
    # malformed ids stay jigsaw errors (not a Towers id's), placed where they go wrong
    ("9j:abc", "j.txt:1:7: " + ID_SHAPE),          # no comma: at the end
    ("9j:1a2,b3c", "j.txt:1:9: " + ID_SHAPE),      # a digit among the regions
    ("9j:1a2b;,ab", "j.txt:1:8: " + ID_SHAPE),     # a stray character in the grid
])
def test_a_bad_jigsaw_id_is_an_error_with_its_column(text, error):
    [item] = read_puzzles(text + "\n", "j.txt")
    assert isinstance(item, ParseError) and str(item) == error


def test_a_repeated_given_is_placed_at_the_second():
    # the column was left out ("j.txt:1: row 1 has two 1s")
    [item] = read_puzzles("9j:1a1zzz,bcbbaa_b__ac__b____a_baa__aa_caabbc_bcbbca_a_a_a_aaaga_aecafc\n", "j.txt")
    assert isinstance(item, InvalidPuzzleError) and str(item) == "j.txt:1:6: row 1 has two 1s"
