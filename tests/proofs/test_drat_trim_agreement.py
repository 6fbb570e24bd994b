"""The package's checker gives drat-trim's verdict (the reference checker, Wetzler, Heule and
Hunt, SAT 2014) on claim formulas with a PySAT solver's proof, valid and corrupted in ways
whose verdict the formula decides.  drat-trim is not a dependency: the tests run where a build
of it is named by $PUZZLEBENCH_DRAT_TRIM or is on PATH as ``drat-trim``, and skip otherwise.
benchmarks/bench_drat_trim.py makes the wide comparison (results/proofs.md)."""

from __future__ import annotations

import subprocess

import pytest

from conftest import INKALA, run
from proof_cases import dimacs, drat_trim, pigeonhole, proof_text
from puzzlebench import parse
from puzzlebench.engines.certify import claim_formula
from puzzlebench.engines.registry import make_engine


def drat_trim_verdict(program: str, cnf, proof) -> str:
    out = subprocess.run([program, str(cnf), str(proof)], capture_output=True, text=True, timeout=60).stdout
    lines = [line.strip() for line in out.replace("\r", "\n").splitlines()]
    return "s VERIFIED" if "s VERIFIED" in lines else "s NOT VERIFIED" if "s NOT VERIFIED" in lines else out


def unique_claim() -> tuple[int, list[list[int]]]:
    """Inkala's puzzle with its one solution blocked (the blocking clause last)."""
    puzzle = parse(INKALA)
    n_vars, clauses, _ = claim_formula(puzzle, make_engine("bitboard").run(puzzle, limit=2).solutions)
    return n_vars, clauses


def pysat_proof(clauses: list[list[int]]) -> list[list[int] | tuple[str, list[int]]]:
    pysat = pytest.importorskip("pysat.solvers")
    with pysat.Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        assert solver.solve() is False
        lines = solver.get_proof()
    return [("d", [int(w) for w in line.split()[1:-1]]) if line.startswith("d ") else [int(w) for w in line.split()[:-1]]
            for line in lines if line.strip()]


def copies(steps, n_vars: int, needed: list[int]) -> dict[str, tuple[list, str]]:
    """The proof and corrupted copies of it, each with the verdict the formula decides."""
    lemmas = [s for s in steps if not isinstance(s, tuple)]
    assert lemmas[-1] == [], "the proof ends in the empty clause"
    return {
        "valid": (steps, "s VERIFIED"),
        # its last lemmas are units that propagate to a conflict: the refutation needs no empty clause
        "without its empty clause": (steps[:-1], "s VERIFIED"),
        "a first lemma over a new variable": ([[n_vars + 1], *steps], "s VERIFIED"),
        "cut at half": (steps[:len(steps) // 2], "s NOT VERIFIED"),
        # without that clause the formula is satisfiable: no proof may verify
        "a needed clause deleted first": ([("d", needed), *steps], "s NOT VERIFIED"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("formula", ["sudoku9 unique", "pigeonhole 5"])
def test_the_checker_gives_drat_trims_verdict_on_a_pysat_proof_and_its_corrupted_copies(capsys, tmp_path, formula):
    program = drat_trim()
    if formula == "sudoku9 unique":
        n_vars, clauses = unique_claim()
        needed = clauses[-1]   # the blocking clause: without it the solution is a model
    else:
        clauses = pigeonhole(5)
        n_vars, needed = 30, clauses[0]   # without a pigeon's clause the rest fit in the holes
    cnf = tmp_path / "formula.cnf"
    cnf.write_text(dimacs(clauses, n_vars))
    made = copies(pysat_proof(clauses), n_vars, needed)
    seen = {}
    for name, (steps, _) in made.items():
        proof = tmp_path / f"{name.replace(' ', '-')}.drat"
        proof.write_text(proof_text(steps))
        _, out, _ = run(capsys, "check-proof", str(cnf), str(proof))
        seen[name] = (out.splitlines()[-1], drat_trim_verdict(program, cnf, proof))
    assert seen == {name: (expected, expected) for name, (_, expected) in made.items()}
