"""Random small formulas (at most 8 variables) against brute force: a proof from a PySAT
solver verifies; that proof, corrupted (a lemma dropped, a literal flipped, an original clause
deleted early) and checked against a formula that may be satisfiable, verifies only where the
formula is unsatisfiable (the checker is sound); and a proof of one unit lemma and the empty
clause gets the verdict that unit propagation decides, wherever it decides it."""

from __future__ import annotations

import array
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from proof_cases import satisfiable, unit_propagation
from puzzlebench import _native

pysat = pytest.importorskip("pysat.solvers")
RANDOM = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def formulas(draw, most_clauses=30):
    n_vars = draw(st.integers(2, 8))
    literal = st.integers(1, n_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(literal, min_size=1, max_size=3, unique=True), min_size=1,
                            max_size=most_clauses))
    return n_vars, clauses


def verdict(tmp_path, n_vars: int, clauses: list[list[int]], proof: list[str]) -> str:
    path = tmp_path / "p.drat"
    path.write_text("".join(line + "\n" for line in proof))
    found = _native.check_drat(n_vars, array.array("i", [l for c in clauses for l in (*c, 0)]), str(path))
    return found["verdict"]


def solver_proof(clauses: list[list[int]]) -> list[str]:
    with pysat.Solver(name="glucose4", bootstrap_with=clauses, with_proof=True) as s:
        assert s.solve() is False
        return s.get_proof()


def made_unsatisfiable(n_vars: int, clauses: list[list[int]], rng: random.Random) -> list[list[int]]:
    """``clauses`` and random unit clauses after them until no assignment is left."""
    stronger = list(clauses)
    while satisfiable(stronger, n_vars):
        v = rng.randint(1, n_vars)
        stronger.append([rng.choice([v, -v])])
    return stronger


def corrupted(proof: list[str], clauses: list[list[int]], rng: random.Random) -> list[str]:
    steps = list(proof)
    lemmas = [i for i, s in enumerate(steps) if not s.startswith("d") and s.strip() != "0"]
    how = rng.choice(["drop", "flip", "delete"])
    if how == "drop" and lemmas:
        del steps[rng.choice(lemmas)]
    elif how == "flip" and lemmas:
        i = rng.choice(lemmas)
        words = steps[i].split()
        k = rng.randrange(len(words) - 1)
        words[k] = str(-int(words[k]))
        steps[i] = " ".join(words)
    else:
        clause = rng.choice(clauses)
        steps.insert(rng.randint(0, min(2, len(steps))), "d " + " ".join(map(str, clause)) + " 0")
    return steps


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(formulas(), st.randoms(use_true_random=False))
def test_a_solvers_proof_verifies_and_no_corruption_of_it_verifies_a_satisfiable_formula(tmp_path_factory, formula, rng):
    n_vars, clauses = formula
    tmp_path = tmp_path_factory.mktemp("drat")
    stronger = made_unsatisfiable(n_vars, clauses, rng)
    proof = solver_proof(stronger)
    assert verdict(tmp_path, n_vars, stronger, proof) == "verified"
    sat = satisfiable(clauses, n_vars)
    assert (verdict(tmp_path, n_vars, clauses, proof) == "verified") <= (not sat)
    for _ in range(3):
        bad = corrupted(proof, stronger, rng)
        assert (verdict(tmp_path, n_vars, clauses, bad) == "verified") <= (not sat)
        assert verdict(tmp_path, n_vars, stronger, bad) in ("verified", "not verified")


@RANDOM
@given(formulas(), st.integers(1, 8), st.booleans())
def test_a_unit_lemma_then_the_empty_clause_gets_the_verdict_unit_propagation_decides(tmp_path_factory, formula, var,
                                                                                       negative):
    n_vars, clauses = formula
    x = -var if negative else var   # a variable past the formula's is an extension: RAT holds
    tmp_path = tmp_path_factory.mktemp("drat")
    got = verdict(tmp_path, n_vars, clauses, [f"{x} 0", "0"])
    top = unit_propagation(clauses)
    rup = unit_propagation([*clauses, [-x]]) is None
    rat = all(unit_propagation([*clauses, [-x], *([-l] for l in d if l != -x)]) is None
              for d in clauses if -x in d)
    if top is None:
        assert got == "verified"
    elif unit_propagation([*clauses, [x]]) is not None:
        assert got == "not verified"   # the empty clause is not RUP even with the lemma
    elif rup or (rat and -x not in top):
        assert got == "verified"       # RUP, or RAT against every clause (the checker asks fewer)
    if got == "verified":
        assert not satisfiable(clauses, max(n_vars, var))   # sound wherever it is not decided above


@RANDOM
@given(formulas())
def test_an_empty_proof_verifies_exactly_the_formulas_unit_propagation_refutes(tmp_path_factory, formula):
    n_vars, clauses = formula
    got = verdict(tmp_path_factory.mktemp("drat"), n_vars, clauses, [])
    assert got == ("verified" if unit_propagation(clauses) is None else "not verified")
