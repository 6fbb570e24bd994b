"""The dlx engine's own proofs (native/dlx_sudoku_proof.c): the Sudoku Dancing Links search,
compiled with proof hooks, writes not-D for a dead end, a solution and a refuted branch item,
D its decisions, so that its claims of absence on Sudoku of any block shape (unique, unsat, a
complete count) are certified by its proof, checked by the package's DRAT checker, and not by
the SAT prover's.  A proof with a lemma left out, or checked without the blocking clause of the
solution it found, is refused; solutions other than the search's get no proof."""

from __future__ import annotations

import random

from conftest import REPO, data_lines
from proof_cases import own_proof_steps, proof_verdict
from puzzlebench import _native, parse
from puzzlebench.engines.certify import certified
from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.sudoku import without_solution
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.runtime.limits import Deadline

TOP1465 = "sudoku9_magictour_top1465.txt"
FORUM = "sudoku9_forum_hardest_1905_11plus.txt"
SIXTEEN = "sudoku16_vu_kr_1000.txt"
GENERATED = REPO / "results" / "generated"


def grids(name: str, limit: int, step: int) -> list[str]:
    return [line.split()[0] for line in data_lines(name, limit=limit, step=step)]


def generated(name: str, step: int) -> list[str]:
    lines = (GENERATED / name).read_text().splitlines()
    return [line.split()[0] for line in lines if line.strip() and line[0] != "#"][::step]


def certified_by_itself(puzzle, limit: int | None = 2, keep: int = 10):
    """dlx's result on ``puzzle``, its claim certified; the certificate asserted to be the
    engine's own proof's, verified."""
    result = certified(make_engine("dlx")).run(puzzle, limit=limit, keep=keep, time_limit=600)
    assert result.certificate is not None, result
    assert (result.certificate.status, result.certificate.prover) == ("verified", "dlx"), result.certificate
    return result


def test_unique_9x9_puzzles_are_proved_by_the_engine():
    for text in grids(TOP1465, limit=4, step=300) + grids(FORUM, limit=4, step=400):
        assert str(certified_by_itself(parse(text)).status) == "unique"


def test_unique_16x16_puzzles_are_proved_by_the_engine():
    for text in grids(SIXTEEN, limit=3, step=200):
        assert str(certified_by_itself(parse(text)).status) == "unique"


def test_other_block_shapes_are_proved_by_the_engine():
    """Blocks of 2x3 and 3x4 (rows of blocks unlike their columns), and a 4x4 with one given."""
    for text in generated("sudoku6_minimal_50.txt", step=10) + generated("sudoku12_minimal_10.txt", step=5):
        assert str(certified_by_itself(parse(text)).status) == "unique"
    assert str(certified_by_itself(parse("1.3...2..1.3.4.."), limit=None).status) == "unique"


def test_an_unsat_9x9_is_refuted_by_the_engine():
    """A given more, at an open cell, that breaks no rule at once and is not the one solution's
    value there (the generator's ``--unsat``)."""
    for text in grids(FORUM, limit=3, step=500):
        puzzle = parse(text)
        solution = make_engine("dlx").run(puzzle, limit=2).solutions[0]
        known = Sudoku(puzzle.box, puzzle.givens, metadata={"solution": puzzle.format_solution(solution)})
        result = certified_by_itself(without_solution(known, random.Random(7)))
        assert (str(result.status), result.count) == ("unsat", 0)


def test_complete_counts_are_proved_with_every_solution_blocked():
    """The empty 4x4 (288 grids) and a 9x9 with most givens gone: each solution found once and
    blocked, the count certified by the engine."""
    assert certified_by_itself(parse("." * 16), limit=None, keep=1000).count == 288
    solution = make_engine("dlx").run(parse(grids(TOP1465, limit=1, step=1)[0]), limit=1).solutions[0]
    kept = set(random.Random(5).sample(range(81), 24))
    holed = Sudoku((3, 3), [v if cell in kept else 0 for cell, v in enumerate(solution)])
    result = certified_by_itself(holed, limit=None, keep=5000)
    assert result.count == make_engine("bitboard").run(holed, limit=None, keep=0).count > 1


def test_the_proof_ends_with_the_empty_clause_and_is_needed_whole():
    """The formula without the blocking clause of the solution found (then satisfiable), the
    proof's lemmas left out, or a run of them from its middle, and the checker refuses the
    proof.  One lemma alone is never needed: unit propagation derives it again from its
    children's lemmas (the branch item's at-least-one clause makes the refuted choice a unit)."""
    n_vars, clauses, steps = own_proof_steps("dlx", parse(grids(FORUM, limit=1, step=1)[0]))
    assert proof_verdict(n_vars, clauses, steps[-1]) == "not verified"    # the empty clause alone
    middle = len(steps) // 2
    for start in range(middle - 20, middle + 20, 8):
        assert proof_verdict(n_vars, clauses, b"".join(steps[:start] + steps[start + 10:])) == "not verified"


def test_a_proof_for_other_solutions_than_the_search_finds_is_none():
    """Solutions the search does not find, or a puzzle other than Sudoku (Sudoku-X: the search's
    matrix lacks its diagonals), and the engine gives no proof (the SAT prover's is asked)."""
    puzzle = parse(grids(TOP1465, limit=1, step=1)[0])
    engine = make_engine("dlx")
    solution = engine.run(puzzle, limit=2).solutions[0]
    other = list(solution)
    other[0], other[1] = other[1], other[0]
    assert engine.prove(puzzle, [solution], Deadline(60)) is not None
    assert engine.prove(puzzle, [], Deadline(60)) is None   # the search finds one
    assert engine.prove(puzzle, [solution, solution], Deadline(60)) is None
    assert engine.prove(puzzle, [tuple(other)], Deadline(60)) is None
    diagonal = parse(grids("tatham_solo_sudokux_3x3_100.txt", limit=1, step=1)[0])
    assert engine.prove(diagonal, engine.run(diagonal, limit=2).solutions, Deadline(60)) is None


def test_a_search_the_time_limit_stops_gives_no_proof():
    """The empty 16x16 counted under a twentieth of a second: solutions found, no proof."""
    proof, count, _ = _native.dlx_sudoku_prove(bytes(256), 4, 4, 1, 0.05)
    assert proof is None and count > 0
