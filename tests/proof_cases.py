"""What the tests of DRAT proofs share (tests/proofs/, the engines' own proofs): unsatisfiable
formulas (pigeonhole, a Sudoku with its only solution blocked), DIMACS text, a binary proof's
steps, proofs from real solvers (the cadical program, PySAT's proof-logging solvers) and a
brute-force satisfiability test."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import needs_program
from puzzlebench.encoders.dimacs import binary_drat_step, read_dimacs

PROOF_SOLVERS = ["cadical103", "cadical153", "cadical195", "glucose3", "glucose4", "glucose42", "lingeling",
                 "maplechrono", "maplecm"]
"""PySAT solvers whose proofs are checked; the others have no proof logging in PySAT, except
MapleSAT, whose proof names a variable one above the one it means ('-3 0' for a formula of 2
variables) and is rightly refused."""


def pigeonhole(holes: int) -> list[list[int]]:
    """One pigeon more than holes: unsatisfiable, and hard for resolution."""
    var = lambda p, h: p * holes + h + 1
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes) for p in range(holes + 1) for q in range(p)]
    return clauses


def dimacs(clauses: list[list[int]], n_vars: int | None = None) -> str:
    n_vars = n_vars if n_vars is not None else max((abs(l) for c in clauses for l in c), default=0)
    return f"p cnf {n_vars} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)


def proof_text(steps: list[list[int] | tuple[str, list[int]]]) -> str:
    """DRAT text: a list of literals is a lemma, ("d", literals) a deletion."""
    lines = []
    for step in steps:
        if isinstance(step, tuple):
            lines.append("d " + " ".join(map(str, [*step[1], 0])))
        else:
            lines.append(" ".join(map(str, [*step, 0])))
    return "".join(line + "\n" for line in lines)


binary_step = binary_drat_step   # one binary DRAT step: 'a' or 'd', then the literals


def binary_steps(proof: bytes, lrat: bool = False) -> list[bytes]:
    """A binary proof's steps, each as its bytes: DRAT's ('a' or 'd', varint literals, 0) or,
    with ``lrat``, LRAT's ('a' ID literals 0 hints 0, or 'd' IDs 0)."""
    steps, start, i = [], 0, 0
    while i < len(proof):
        lists = 2 if lrat and proof[i] == ord("a") else 1
        i += 1                                 # 'a' or 'd'
        for _ in range(lists):
            while proof[i] != 0:
                while proof[i] & 0x80:
                    i += 1
                i += 1
            i += 1
        steps.append(proof[start:i])
        start = i
    return steps


def lrat_steps(proof: bytes) -> list[bytes]:
    """A binary LRAT proof's steps (:func:`binary_steps` with ``lrat``)."""
    return binary_steps(proof, lrat=True)


def step_codes(step: bytes) -> list[int]:
    """The numbers of a binary step after its 'a' or 'd', each in its code (2x, + 1 if negative)."""
    codes, code, shift = [], 0, 0
    for byte in step[1:]:
        code |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            codes.append(code)
            code, shift = 0, 0
    return codes


def is_lrat_refutation(step: bytes) -> bool:
    """Whether an LRAT step adds the empty clause: its ID, then at once the 0 ending its literals."""
    return step[:1] == b"a" and step_codes(step)[1] == 0


def proof_verdict(n_vars: int, clauses: list[list[int]], proof: bytes, lrat: bool = False) -> str:
    """The package's checker's verdict on ``proof`` (bytes) for ``clauses``, DRAT or ``lrat``."""
    import tempfile
    from puzzlebench.engines.certify import check_proof
    with tempfile.NamedTemporaryFile(suffix=".lrat" if lrat else ".drat") as out:
        out.write(proof)
        out.flush()
        return check_proof(n_vars, clauses, out.name, lrat=lrat)["verdict"]


def own_proof_steps(spec: str, puzzle) -> tuple[int, list[list[int]], list[bytes]]:
    """Engine ``spec``'s own proof of its claim on ``puzzle`` (counted to 2): the claim's
    variables and clauses and the proof's steps, the proof asserted whole (its steps make it, it
    ends with the empty clause and has over 40 steps), verified in its form (DRAT, or LRAT where
    the engine's ``proof_form`` says so), and refused without the blocking clause of the solution
    found (the formula is then satisfiable)."""
    from puzzlebench.engines.certify import claim_formula
    from puzzlebench.engines.registry import make_engine
    from puzzlebench.runtime.limits import Deadline
    solutions = make_engine(spec).run(puzzle, limit=2).solutions
    proof = make_engine(spec).prove(puzzle, solutions, Deadline(60))
    n_vars, clauses, _ = claim_formula(puzzle, solutions)
    lrat = make_engine(spec).proof_form(puzzle) == "lrat"
    steps = binary_steps(proof, lrat)
    assert b"".join(steps) == proof and len(steps) > 40
    assert is_lrat_refutation(steps[-1]) if lrat else steps[-1] == b"a\x00"
    assert proof_verdict(n_vars, clauses, proof, lrat) == "verified"
    assert proof_verdict(n_vars, clauses[:-1], proof, lrat) == "not verified"   # the blocking clause left out
    return n_vars, clauses, steps


def drat_trim() -> str:
    """The path of a drat-trim build ($PUZZLEBENCH_DRAT_TRIM, else ``drat-trim`` on PATH), or a
    skip saying where it comes from: it is not a dependency."""
    path = os.environ.get("PUZZLEBENCH_DRAT_TRIM") or shutil.which("drat-trim")
    if not path:
        pytest.skip("drat-trim is neither named by $PUZZLEBENCH_DRAT_TRIM nor on PATH (build it from "
                    "its public repository, marijnheule/drat-trim)")
    return path


def lrat_check() -> str:
    """The path of a build of lrat-check, drat-trim's LRAT checker ($PUZZLEBENCH_LRAT_CHECK, else
    ``lrat-check`` on PATH), or a skip saying where it comes from: it is not a dependency."""
    path = os.environ.get("PUZZLEBENCH_LRAT_CHECK") or shutil.which("lrat-check")
    if not path:
        pytest.skip("lrat-check is neither named by $PUZZLEBENCH_LRAT_CHECK nor on PATH (build lrat-check.c "
                    "from drat-trim's public repository, marijnheule/drat-trim)")
    return path


def cadical_proof(cnf: Path, proof: Path, binary: bool = True) -> None:
    """cadical's DRAT proof of an unsatisfiable ``cnf`` written to ``proof`` (the test skips,
    saying why, where the program is absent)."""
    needs_program("cadical")
    run = subprocess.run(["cadical", "-q", f"--binary={'true' if binary else 'false'}", str(cnf), str(proof)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 20, run.stdout + run.stderr


def sudoku_without_its_solution(tmp_path: Path, puzzle: str) -> Path:
    """``export --to dimacs`` of a unique Sudoku plus the clause that blocks its solution
    (found by cadical): an unsatisfiable formula whose proof is the puzzle's uniqueness."""
    from puzzlebench.cli import main
    exported = tmp_path / "puzzle.cnf"
    (tmp_path / "puzzle.txt").write_text(puzzle + "\n")
    assert main(["export", str(tmp_path / "puzzle.txt"), "--to", "dimacs", "-o", str(exported)]) == 0
    text = exported.read_text()
    cnf = read_dimacs(text)
    answer = subprocess.run(["cadical", "-q", str(exported)], capture_output=True, text=True, timeout=120)
    model = [int(x) for line in answer.stdout.splitlines() if line.startswith("v") for x in line[1:].split()]
    n = round(len(puzzle) ** 0.5)   # one variable per (cell, value): the first n^3 variables
    blocking = [-x for x in model if 0 < x <= n ** 3]
    path = tmp_path / "unique.cnf"
    path.write_text(dimacs([*cnf.clauses, blocking], cnf.n_vars))
    return path


def satisfiable(clauses: list[list[int]], n_vars: int) -> bool:
    """By trying every assignment (n_vars <= 12 or so)."""
    for bits in itertools.product((False, True), repeat=n_vars):
        if all(any(bits[abs(l) - 1] == (l > 0) for l in c) for c in clauses):
            return True
    return False


def unit_propagation(clauses: list[list[int]]) -> set[int] | None:
    """The literals unit propagation makes true (a plain fixpoint loop), None at a conflict."""
    true: set[int] = set()
    while True:
        changed = False
        for clause in clauses:
            if any(l in true for l in clause):
                continue
            free = [l for l in clause if -l not in true]
            if not free:
                return None
            if len(free) == 1:
                true.add(free[0])
                changed = True
        if not changed:
            return true
