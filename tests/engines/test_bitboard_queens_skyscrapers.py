"""The bitboard engines' N-Queens and Skyscrapers searches: OEIS and published counts, and
agreement with `mrv` on partial, given and random instances."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from bitboard_agree import BB, agree
from conftest import data_lines
from puzzlebench.errors import PuzzleError
from puzzlebench.generators.latin import random_latin_square
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers, clues_shown
from puzzlebench.results import Status
from puzzlebench.engines.bitboard import BitboardEngine


# -- N-Queens ------------------------------------------------------------------------------------

def test_nqueens_counts_match_oeis():
    published = {}
    for line in data_lines("nqueens_solution_counts_oeis.txt"):
        n, total = line.split()[:2]
        published[int(n)] = int(total)
    for n in range(1, 13):
        for symmetry in (True, False):
            result = BitboardEngine(options={"symmetry": symmetry}).run(NQueens(n), limit=None)
            assert result.count == published[n] and result.verified


def test_a_halved_count_keeps_every_solution_it_counts():
    """The mirror halving counts each solution found twice; the solutions kept are as many, each
    a different one: with room for all, the same set as the search without the halving's."""
    for n in range(4, 10):
        halved = BitboardEngine(options={"symmetry": True}).run(NQueens(n), limit=None, keep=400)
        whole = BitboardEngine(options={"symmetry": False}).run(NQueens(n), limit=None, keep=400)
        assert len(halved.solutions) == halved.count == whole.count and halved.verified
        assert sorted(halved.solutions) == sorted(whole.solutions)
    some = BitboardEngine(options={"symmetry": True}).run(NQueens(8), limit=None, keep=7)
    assert some.count == 92 and len(set(some.solutions)) == 7


def test_nqueens_limits_and_placed_against_mrv():
    rng = random.Random(5)
    for n in range(4, 10):
        agree(NQueens(n), limit=1)
        agree(NQueens(n), limit=3)
        for _ in range(3):
            r, c = rng.randrange(n), rng.randrange(n)
            agree(NQueens(n, [(r, c)]), limit=None)
    agree(NQueens(8, [(0, 0), (1, 2)]), limit=None)
    agree(NQueens(6, [(0, 0)]), limit=None)  # no completion


# -- Skyscrapers -----------------------------------------------------------------------------------

def skyscraper_lines(max_n, step=1):
    out = []
    for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", step=step):
        fields = line.split()
        n = int(fields[0])
        if n <= max_n:
            clues = [list(map(int, f.split(","))) for f in fields[1:5]]
            nsol = next(f.split("=")[1] for f in fields if f.startswith("nsol="))
            out.append((Skyscrapers(n, *clues), nsol))
    return out


def test_skyscrapers_published_counts():
    # N <= 8: the sample's 9x9 lines are nsol=? (random clues, unknown count)
    for puzzle, nsol in skyscraper_lines(8, step=11):
        result = BB.run(puzzle, limit=2)
        assert result.verified
        if nsol == "1":
            assert result.status is Status.UNIQUE
        elif nsol == "2+":
            assert result.status is Status.MULTIPLE and result.count == 2


def test_skyscrapers_against_mrv():
    for puzzle, _ in skyscraper_lines(5, step=9):
        agree(puzzle)


def test_skyscrapers_partial_clues_and_givens_against_mrv():
    rng = random.Random(11)
    for _ in range(12):
        n = rng.randint(3, 5)
        clues = [[rng.choice([0, 0, rng.randint(1, n)]) for _ in range(n)] for _ in range(4)]
        givens = [0] * (n * n)
        for c in rng.sample(range(n * n), rng.randint(0, 3)):
            givens[c] = rng.randint(1, n)
        try:
            puzzle = Skyscrapers(n, *clues, givens=givens)
        except PuzzleError:
            continue
        agree(puzzle, limit=None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), keep=st.floats(0.2, 1.0),
       planted=st.booleans())
def test_skyscrapers_random_instances_against_mrv(n, seed, keep, planted):
    """Clues of a random Latin square, some dropped, plus givens (from the square, or at
    random: then often no solution): bitboard and mrv find the same count up to 2, and all
    of them (same solutions) when the clues leave few."""
    rng = random.Random(seed)
    square = random_latin_square(n, rng)
    clues = clues_shown(n, square)
    sides = [[c if rng.random() < keep else 0 for c in clues[side]]
             for side in ("top", "bottom", "left", "right")]
    givens = [0] * (n * n)
    for c in rng.sample(range(n * n), rng.randint(0, n)):
        givens[c] = square[c] if planted else rng.randint(1, n)
    try:
        puzzle = Skyscrapers(n, *sides, givens=givens)
    except PuzzleError:
        return
    first = agree(puzzle, limit=2)
    if planted:
        assert first.count >= 1
    if first.count < 2 or keep > 0.8:
        agree(puzzle, limit=None)
