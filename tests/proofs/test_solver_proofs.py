"""Proofs written by real solvers verify: the cadical program's (binary and text) on pigeonhole
formulas and on Sudoku formulas from ``export --to dimacs`` (a puzzle's uniqueness: its only
solution blocked; a puzzle left without solutions by a changed given), and PySAT's
proof-logging solvers'.  The same proofs, corrupted, are refused."""

from __future__ import annotations

import pytest

from conftest import INKALA, run
from proof_cases import PROOF_SOLVERS, cadical_proof, dimacs, pigeonhole, sudoku_without_its_solution



def _check(capsys, cnf, proof):
    code, out, err = run(capsys, "check-proof", str(cnf), str(proof))
    return code, out.splitlines()[-1] if out else "", err


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "text"])
def test_cadicals_pigeonhole_proofs_verify(capsys, tmp_path, binary):
    cnf, proof = tmp_path / "ph.cnf", tmp_path / "ph.drat"
    cnf.write_text(dimacs(pigeonhole(6)))
    cadical_proof(cnf, proof, binary)
    assert _check(capsys, cnf, proof) == (0, "s VERIFIED", "")


@pytest.mark.slow
def test_a_sudokus_uniqueness_proof_from_cadical_verifies(capsys, tmp_path):
    cnf = sudoku_without_its_solution(tmp_path, INKALA)
    for binary in (True, False):
        proof = tmp_path / f"unique-{binary}.drat"
        cadical_proof(cnf, proof, binary)
        assert _check(capsys, cnf, proof) == (0, "s VERIFIED", "")


@pytest.mark.slow
def test_a_sudoku_left_without_solution_by_a_changed_given_has_a_proof_that_verifies(capsys, tmp_path):
    puzzle = "1" + INKALA[1:]   # its first given 8 made a 1: no clash among the givens, no solution
    (tmp_path / "p.txt").write_text(puzzle + "\n")
    cnf = tmp_path / "p.cnf"
    assert run(capsys, "export", str(tmp_path / "p.txt"), "--to", "dimacs", "-o", str(cnf))[0] == 0
    proof = tmp_path / "p.drat"
    cadical_proof(cnf, proof)
    assert _check(capsys, cnf, proof) == (0, "s VERIFIED", "")


def test_a_cadical_proof_that_first_deletes_a_clause_it_needs_is_refused(capsys, tmp_path):
    """Without its first pigeon's clause the pigeonhole formula is satisfiable: no proof that
    deletes it first may verify."""
    cnf, proof = tmp_path / "ph.cnf", tmp_path / "ph.drat"
    clauses = pigeonhole(5)
    cnf.write_text(dimacs(clauses))
    cadical_proof(cnf, proof, binary=False)
    bad = tmp_path / "bad.drat"
    bad.write_text("d " + " ".join(map(str, clauses[0])) + " 0\n" + proof.read_text())
    code, last, err = _check(capsys, cnf, bad)
    assert (code, last) == (1, "s NOT VERIFIED")
    assert err.startswith(f"puzzlebench: {bad}:") and (": lemma " in err or "no refutation reached" in err)


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_pysat_solvers_proofs_verify(capsys, tmp_path, solver):
    pysat = pytest.importorskip("pysat.solvers")
    clauses = pigeonhole(5)
    try:
        with pysat.Solver(name=solver, bootstrap_with=clauses, with_proof=True) as s:
            assert s.solve() is False
            proof = s.get_proof()
    except NotImplementedError as exc:
        pytest.skip(f"{solver}: {exc}")
    cnf, drat = tmp_path / "ph.cnf", tmp_path / "ph.drat"
    cnf.write_text(dimacs(clauses))
    drat.write_text("".join(line + "\n" for line in proof))
    assert _check(capsys, cnf, drat) == (0, "s VERIFIED", "")
