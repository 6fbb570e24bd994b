"""The bitboard engine's own proofs (native/sudoku9_proof.c): every claim of absence it makes on
9x9 Sudoku (unsat, unique, a complete count) is certified by the DRUP proof its search writes,
checked by the package's DRAT checker; a proof with a lemma left out is refused, and the refusal
is the certificate (no other prover's proof replaces it); a kind none of its searches proves
falls back to the SAT prover (the other grids of units: tests/proofs/test_cdcl_proofs.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import INKALA, INKALA_SOLUTION, data_lines, run
from proof_cases import binary_steps, proof_verdict
from puzzlebench import api, parse
from puzzlebench.engines.bitboard import BitboardEngine
from puzzlebench.engines.certify import DEFAULT_PROVER, certified, claim_formula
from puzzlebench.engines.registry import make_engine
from puzzlebench.models.nqueens import NQueens
from puzzlebench.runtime.limits import Deadline

SEVENTEEN = "sudoku9_royle_17clue_49158.txt"
HARDEST = "sudoku9_forum_hardest_1905_11plus.txt"


def lines_of(name: str, step: int = 1) -> list[str]:
    return [line[:81] for line in data_lines(name, step=step)]


def certified_by_itself(text: str, limit: int | None = 2, keep: int = 10):
    """The bitboard engine's result on ``text`` (one puzzle's search, every solution up to
    ``keep`` kept), its claim certified; the certificate asserted to be its own proof's,
    verified."""
    result = certified(make_engine("bitboard")).run(parse(text), limit=limit, keep=keep)
    assert result.certificate is not None, result
    assert (result.certificate.status, result.certificate.prover) == ("verified", "bitboard"), result.certificate
    return result


def peers(cell: int) -> set[int]:
    row, col = divmod(cell, 9)
    return ({row * 9 + c for c in range(9)} | {r * 9 + col for r in range(9)}
            | {(row // 3 * 3 + r) * 9 + col // 3 * 3 + c for r in range(3) for c in range(3)}) - {cell}


def unsat_variant(text: str, solution: str) -> str:
    """``text`` with one more given that differs from its one solution and repeats no value in
    a row, column or block: a puzzle with no solution."""
    for cell, ch in enumerate(text):
        if ch != ".":
            continue
        seen = {text[p] for p in peers(cell)}
        for value in "123456789":
            if value != solution[cell] and value not in seen:
                return text[:cell] + value + text[cell + 1:]
    raise AssertionError("no such given")


def test_a_unique_and_an_unsat_claim_are_proved_by_the_engine():
    result = certified_by_itself(INKALA)
    assert str(result.status) == "unique"
    solution = "".join(map(str, result.solutions[0]))
    assert str(certified_by_itself(unsat_variant(INKALA, solution)).status) == "unsat"


def test_a_puzzle_propagation_refutes_has_the_empty_clause_for_proof():
    text = ".12345678" + "9" + "." * 71   # the first cell has no value left
    result = certified_by_itself(text)
    assert str(result.status) == "unsat"
    proof = make_engine("bitboard").prove(parse(text), [], Deadline(60))
    assert binary_steps(proof)[-1] == b"a\x00"


@pytest.mark.slow
@pytest.mark.parametrize("path, every", [(SEVENTEEN, 100), (HARDEST, 250)])
def test_every_claim_on_the_public_sets_is_proved_by_the_engine(path, every):
    lines = lines_of(path, every)
    for text in lines:
        result = certified_by_itself(text)
        assert str(result.status) == "unique"
    for text in lines[::5]:   # and the same puzzles made unsat by one given more
        solution = "".join(map(str, api.solve(text, solver="bitboard").solutions[0]))
        assert str(certified_by_itself(unsat_variant(text, solution)).status) == "unsat"


@pytest.mark.slow
def test_complete_counts_of_puzzles_with_several_solutions_are_proved():
    """Solutions of 17-clue puzzles with most cells blanked: counts of one to hundreds."""
    rng = random.Random(44)
    dlx = make_engine("dlx")
    for text in lines_of(SEVENTEEN, 1000):
        solution = "".join(map(str, api.solve(text, solver="bitboard").solutions[0]))
        kept = set(rng.sample(range(81), 30))
        puzzle = "".join(v if cell in kept else "." for cell, v in enumerate(solution))
        result = certified_by_itself(puzzle, limit=None, keep=2000)
        assert result.count == dlx.run(parse(puzzle), limit=None, keep=0).count


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kept=st.sets(st.integers(0, 80), min_size=30, max_size=60), changed=st.integers(-1, 80),
       value=st.integers(1, 9))
def test_random_puzzles_counts_agree_and_their_own_proofs_verify(kept, changed, value):
    """Random givens from a solution grid, one of them maybe changed (mostly unsat then),
    counted up to 1,000 solutions: below that the count is a claim, and its proof verifies."""
    cells = [INKALA_SOLUTION[c] if c in kept else "." for c in range(81)]
    if changed in kept and str(value) not in {cells[p] for p in peers(changed)}:
        cells[changed] = str(value)
    text = "".join(cells)
    result = certified(make_engine("bitboard")).run(parse(text), limit=1000, keep=1000)
    assert result.count == make_engine("dlx").run(parse(text), limit=1000, keep=0).count
    if result.count < 1000:
        assert (result.certificate.status, result.certificate.prover) == ("verified", "bitboard")


def test_a_proof_missing_a_lemma_is_refused():
    puzzle = parse(INKALA)
    solutions = make_engine("bitboard").run(puzzle, limit=2).solutions
    proof = make_engine("bitboard").prove(puzzle, solutions, Deadline(60))
    n_vars, clauses, _ = claim_formula(puzzle, solutions)
    lemmas = binary_steps(proof)
    assert b"".join(lemmas) == proof and lemmas[-1] == b"a\x00"   # it ends with the empty clause
    middle = len(lemmas) // 2
    refused = [i for i in range(middle - 20, middle + 20)
               if proof_verdict(n_vars, clauses, b"".join(lemmas[:i] + lemmas[i + 1:])) == "not verified"]
    assert refused, "no lemma of the middle of the proof is needed"


class BareClaimEngine(BitboardEngine):
    """The bitboard engine whose proofs keep their last lemma alone (the empty clause, which
    propagation does not give on Inkala's puzzle): a wrong proof of the engine's own."""

    def prove(self, puzzle, solutions, deadline):
        return binary_steps(super().prove(puzzle, solutions, deadline))[-1]


def test_an_own_proof_the_checker_refuses_is_a_failed_certificate():
    result = api.solve(INKALA, solver=BareClaimEngine(), certify=True)
    assert str(result.status) == "unique"   # the claim stands, its certificate failed
    assert (result.certificate.status, result.certificate.prover) == ("failed", "bitboard")
    assert result.certificate.reason == ("not verified: lemma 1 (0): the empty clause is not RUP: unit propagation "
                                         "reaches no conflict")


def test_kinds_no_search_of_the_engine_proves_fall_back_to_the_sat_prover():
    result = certified(make_engine("bitboard")).run(NQueens(6, [(0, 0)]), limit=None)   # no completion
    assert str(result.status) == "unsat"
    assert (result.certificate.status, result.certificate.prover) == ("verified", DEFAULT_PROVER)


def test_the_kept_proof_and_formula_check_again(tmp_path, capsys):
    code, _, err = run(capsys, "count", "--example", "arto-inkala", "--solver", "bitboard", "--certify",
                       "--proof-dir", str(tmp_path))
    assert code == 0, err
    [cnf] = tmp_path.glob("*.cnf")
    [proof] = tmp_path.glob("*.drat")
    assert proof.read_bytes().startswith(b"a") and proof.read_bytes().endswith(b"a\x00")
    code, out, err = run(capsys, "check-proof", str(cnf), str(proof))
    assert code == 0 and out.endswith("s VERIFIED\n"), (out, err)
