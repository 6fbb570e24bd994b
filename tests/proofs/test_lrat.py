"""The checker's LRAT mode (``check-proof --lrat``, ``check_proof(..., lrat=True)``): each lemma
checked forward by its hints.  Hand-made proofs give its verdicts, figures and every bad
input's one placed line; drat-trim's LRAT (``drat-trim FORMULA PROOF -L OUT``, text and binary)
of a solver's proof verifies for several formulas, and its corrupted copies do not; on random
small formulas no corrupted copy verifies a satisfiable one."""

from __future__ import annotations

import random
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import INKALA, run
from proof_cases import dimacs, drat_trim, pigeonhole, satisfiable
from test_drat_random import formulas, made_unsatisfiable, solver_proof
from puzzlebench import parse
from puzzlebench.encoders.dimacs import binary_drat_step
from puzzlebench.engines.certify import check_proof, claim_formula
from puzzlebench.engines.registry import make_engine

TWO = [[1, 2], [-1, 2], [1, -2], [-1, -2]]      # unsatisfiable, not by unit propagation alone
# (2) by clauses 1 and 2; the empty clause by (2), then clause 3 unit, clause 4 falsified
PROOF = "5 2 0 1 2 0\n6 0 5 3 4 0\n"


def code(number: int) -> bytes:
    """A number in binary LRAT: binary DRAT's literal code, 2|x| + 1 when negative, 7 bits a byte."""
    return binary_drat_step("a", [number])[1:-1]


def binary(steps: list[tuple]) -> bytes:
    """Binary LRAT: ("a", ID, literals, hints) or ("d", IDs)."""
    out = b""
    for step in steps:
        if step[0] == "a":
            _, id_, lits, hints = step
            out += b"a" + code(id_) + b"".join(map(code, lits)) + b"\0" + b"".join(map(code, hints)) + b"\0"
        else:
            out += b"d" + b"".join(map(code, step[1])) + b"\0"
    return out


@pytest.fixture
def check(capsys, tmp_path):
    def checking(proof: str | bytes, formula=TWO):
        cnf, lrat = tmp_path / "f.cnf", tmp_path / "p.lrat"
        cnf.write_text(dimacs(formula))
        lrat.write_bytes(proof if isinstance(proof, bytes) else proof.encode())
        got, out, err = run(capsys, "check-proof", str(cnf), str(lrat), "--lrat")
        return got, out, err.replace(str(lrat), "p.lrat")
    return checking


def test_an_lrat_proof_is_verified_with_its_figures(check):
    got, out, err = check(PROOF)
    assert (got, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
    assert "c refutation: the empty clause is lemma 2\n" in out
    got, out, err = check("c a comment\n" + PROOF + "6 d 5 0\n")
    assert (got, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
    assert "c lemmas read and checked: 2; deletions applied: 0, ignored: 0 of absent or deleted clauses" in out
    assert "c refutation: the empty clause is lemma 2; the rest of the proof is not read" in out
    assert "c hinted: lemmas 1, formula clauses 4 of 4" in out


def test_the_same_proof_in_binary_is_verified(check):
    got, out, err = check(binary([("a", 5, [2], [1, 2]), ("a", 6, [], [5, 3, 4])]))
    assert (got, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
    assert "binary LRAT, 14 bytes read" in out


def test_the_drat_mode_reads_an_lrat_proof_as_something_else(check, capsys, tmp_path):
    """The mode is chosen by --lrat, never guessed: without it the same file is DRAT."""
    cnf, lrat = tmp_path / "f.cnf", tmp_path / "p.lrat"
    cnf.write_text(dimacs(TWO))
    lrat.write_text(PROOF)
    assert run(capsys, "check-proof", str(cnf), str(lrat))[0] == 1


@pytest.mark.parametrize("proof, why", [
    ("5 2 0 3 2 0\n6 0 5 3 4 0\n", "p.lrat:1: clause 5 (2 0): hint 1 (clause 3) is satisfied, not unit"),
    ("5 2 0 1 3 0\n6 0 5 3 4 0\n", "p.lrat:1: clause 5 (2 0): hint 2 (clause 3) is satisfied, not unit"),
    ("5 2 0 1 0\n6 0 5 3 4 0\n", "p.lrat:1: clause 5 (2 0): its hints end before a clause is falsified"),
    ("5 0 1 2 0\n", "p.lrat:1: clause 5 (0): hint 1 (clause 1) is not unit: 2 of its literals are open"),
    ("5 2 0 1 7 0\n", "p.lrat:1: clause 5 (2 0): hint 2 names clause 7, which is neither in the formula nor "
                      "added before"),
    ("5 2 0 1 -2 0\n", "p.lrat:1: clause 5 (2 0): hint 2 (-2) is a RAT hint: RAT hints are not supported"),
    ("5 2 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n", "p.lrat:3: clause 6 (0): hint 2 names clause 3, which was deleted"),
    ("5 2 0 1 2 0\n5 d 5 0\n6 0 5 3 4 0\n", "p.lrat:3: clause 6 (0): hint 1 names clause 5, which was deleted"),
    ("5 2 0 1 2 0\n5 0 5 3 4 0\n", "p.lrat:2: clause 5 (0): its ID is not above the last lemma's, 5"),
    ("4 2 0 1 2 0\n", "p.lrat:1: clause 4 (2 0): its ID is not above the formula's clauses, 4"),
    ("5 2 0 1 2 0\n", "p.lrat: the proof ends before the empty clause is added"),
    ("", "p.lrat: the proof ends before the empty clause is added"),
])
def test_a_step_that_fails_is_named_with_its_place_and_why(check, proof, why):
    got, out, err = check(proof)
    assert (got, out.splitlines()[-1], err) == (1, "s NOT VERIFIED", f"puzzlebench: {why}\n")


def test_a_binary_step_that_fails_is_named_by_its_byte(check):
    got, out, err = check(binary([("a", 5, [2], [1, 2]), ("a", 6, [], [5, 3])]))
    assert (got, err) == (1, "puzzlebench: p.lrat:byte 8: clause 6 (0): its hints end before a clause is "
                             "falsified\n")


@pytest.mark.parametrize("proof, place, why", [
    ("0 2 0 1 2 0\n", "1:1", "a step opens with its clause ID, a positive number"),
    ("-5 2 0 1 2 0\n", "1:1", "a step opens with its clause ID, a positive number"),
    ("d 5 0\n", "1:1", "a step opens with its clause ID, a positive number"),
    # a bad byte among the first 12 makes the proof binary, as drat-trim tells them apart
    ("5 2 0 1 2 0\n6 0 5 x 4 0\n", "2:7", "unexpected character 'x'"),
    ("5 2 0 1 2 0\n6 0 5 3x 4 0\n", "2:8", "unexpected character 'x' in a number"),
    ("5 2 d 0 1 2 0\n", "1:5", "unexpected character 'd'"),
    ("5 d -1 0\n", "1:5", "a deletion names clause IDs, positive numbers"),
    ("5 3000000000 0 1 0\n", "1:3", "literal beyond 2147483647, the largest DIMACS variable"),
    ("5 2 0 99999999999999999999 0\n", "1:7", "number beyond 2^62"),
    ("5 2 0 1 2 0\n6 0 5 3", "2:1", "the proof ends inside this step: it has no terminating 0"),
])
def test_a_malformed_text_proof_is_one_placed_line(check, proof, place, why):
    got, out, err = check(proof)
    assert (got, out, err) == (2, "", f"puzzlebench: error: p.lrat:{place}: {why}\n")


@pytest.mark.parametrize("proof, byte, why", [
    (b"a\x0b\x04\x00\x02\x04\x00", 2, "a step opens with its clause ID, a positive number"),
    (b"a\x0a\x04\x00\x02\x01\x00", 6, "hint code 1 names clause 0"),
    (b"d\x03\x00", 2, "a deletion names clause IDs, positive numbers"),
    (b"a\x0a\x04\x00\x02\x04", 1, "the proof ends inside this step: it has no terminating 0"),
    (b"a" + b"\xff" * 9 + b"\x01\x00", 2, "number beyond 2^62"),
    (binary([("a", 5, [2], [1, 2])]) + b"x", 8, "byte 0x78 is neither 'a' (a clause added) nor 'd' (a deletion)"),
])
def test_a_malformed_binary_proof_is_one_line_at_its_byte(check, proof, byte, why):
    got, out, err = check(proof)
    assert (got, out, err) == (2, "", f"puzzlebench: error: p.lrat:byte {byte}: {why}\n")


def test_check_proof_takes_the_mode_as_an_argument(tmp_path):
    proof = tmp_path / "p.lrat"
    proof.write_text(PROOF)
    found = check_proof(2, TWO, str(proof), lrat=True)
    assert (found["verdict"], found["form"], found["lemmas"], found["core_clauses"]) == ("verified", "text", 2, 4)
    proof.write_text("5 2 0 1 0\n")
    assert check_proof(2, TWO, str(proof), lrat=True)["failure"] == {
        "why": "its hints end before a clause is falsified", "lemma": 5, "place": 1, "literals": [2],
        "with_kind": "", "with": -1}


def test_a_binary_proof_is_written_as_the_same_text(tmp_path):
    """lrat_text, for a kept proof: lrat-check and cake_lpr read text.  A deletion carries the
    last added clause's ID (the formula's last before any), as drat-trim writes it."""
    from puzzlebench import _native
    path = tmp_path / "p.lrat"
    _native.lrat_text(binary([("d", [2]), ("a", 5, [2], [1, 2]), ("d", [5, 1]), ("a", 6, [], [5, 3, 4])]), str(path), 4)
    assert path.read_text() == "4 d 2 0\n5 2 0 1 2 0\n5 d 5 1 0\n6 0 5 3 4 0\n"
    with pytest.raises(ValueError, match="^byte 2: a step opens with its clause ID, a positive number$"):
        _native.lrat_text(b"a\x0b\x04\x00\x02\x04\x00", str(path), 4)


# ---- drat-trim's LRAT of a solver's proof, and corrupted copies -------------------------------

def random_3sat(n_vars: int, seed: int) -> list[list[int]]:
    """An unsatisfiable random 3-SAT formula: clause ratio 6, well past the threshold."""
    rng = random.Random(seed)
    return [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n_vars + 1), 3)] for _ in range(6 * n_vars)]


def formula(name: str) -> tuple[int, list[list[int]]]:
    if name == "sudoku9 unique":
        puzzle = parse(INKALA)
        n_vars, clauses, _ = claim_formula(puzzle, make_engine("bitboard").run(puzzle, limit=2).solutions)
        return n_vars, clauses
    if name == "pigeonhole 5":
        return 30, pigeonhole(5)
    return 40, random_3sat(40, 7)


def lrat_of(program: str, n_vars: int, clauses, tmp_path, binary_form: bool) -> tuple:
    """drat-trim's LRAT of CaDiCaL's (PySAT's) DRAT proof: the formula's file and the LRAT's."""
    pysat = pytest.importorskip("pysat.solvers")
    with pysat.Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        assert solver.solve() is False
        drat = "".join(line + "\n" for line in solver.get_proof())
    cnf, proof, lrat = tmp_path / "f.cnf", tmp_path / "p.drat", tmp_path / "p.lrat"
    cnf.write_text(dimacs(clauses, n_vars))
    proof.write_text(drat)
    done = subprocess.run([program, str(cnf), str(proof), "-L", str(lrat), *(["-C"] if binary_form else [])],
                          capture_output=True, text=True, timeout=120)
    assert "s VERIFIED" in done.stdout
    return cnf, lrat


def text_steps(lrat) -> list[list[str]]:
    return [line.split() for line in lrat.read_text().splitlines() if line.strip()]


def corrupted(steps: list[list[str]]) -> dict[str, list[list[str]]]:
    """Copies of a text LRAT proof, each of which must be refused."""
    added = [i for i, s in enumerate(steps) if s[1] != "d"]
    last = added[-1]                         # the empty clause: "ID 0 hints 0"
    wide = next(i for i in added if len(steps[i]) - steps[i].index("0") >= 4)   # a step of 2 hints or more
    long = next(i for i in added if steps[i].index("0") >= 3)                 # a lemma of 2 literals or more

    def edit(i: int, words: list[str]) -> list[list[str]]:
        return [*steps[:i], words, *steps[i + 1:]]

    hints = steps[wide][steps[wide].index("0") + 1:-1]
    swapped = steps[wide][:steps[wide].index("0") + 1] + [hints[-1], *hints[1:-1], hints[0], "0"]
    return {
        "a hint removed": edit(last, steps[last][:-2] + ["0"]),
        "two hints swapped": edit(wide, swapped),
        "a literal dropped": edit(long, [steps[long][0], *steps[long][2:]]),
        "the empty clause missing": steps[:last],
        "an ID reused": edit(added[1], [steps[added[0]][0], *steps[added[1]][1:]]),
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sudoku9 unique", "pigeonhole 5", "random 3-SAT"])
def test_drat_trims_lrat_verifies_and_its_corrupted_copies_do_not(capsys, tmp_path, name):
    program = drat_trim()
    n_vars, clauses = formula(name)
    for binary_form in (False, True):
        cnf, lrat = lrat_of(program, n_vars, clauses, tmp_path, binary_form)
        got, out, err = run(capsys, "check-proof", str(cnf), str(lrat), "--lrat")
        assert (got, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
        assert f"{'binary' if binary_form else 'text'} LRAT" in out
    cnf, lrat = lrat_of(program, n_vars, clauses, tmp_path, False)
    seen = {}
    for how, steps in corrupted(text_steps(lrat)).items():
        lrat.write_text("".join(" ".join(s) + "\n" for s in steps))
        seen[how] = check_proof(n_vars, clauses, str(lrat), lrat=True)["verdict"]
    assert seen == dict.fromkeys(seen, "not verified")


def lrat_corrupted(steps: list[list[str]], rng: random.Random) -> list[list[str]]:
    """A text LRAT proof with one random change: a hint dropped, two hints swapped, a hint
    named another ID, a lemma's literal dropped or flipped, or a step left out."""
    added = [i for i, s in enumerate(steps) if s[1] != "d"]
    i = rng.choice(added)
    words = list(steps[i])
    end = words.index("0")
    hints, lits = list(range(end + 1, len(words) - 1)), list(range(1, end))
    how = rng.choice(["drop hint", "swap hints", "another hint", "drop literal", "flip literal", "drop step"])
    if how == "drop hint" and hints:
        del words[rng.choice(hints)]
    elif how == "swap hints" and len(hints) > 1:
        a, b = rng.sample(hints, 2)
        words[a], words[b] = words[b], words[a]
    elif how == "another hint" and hints:
        words[rng.choice(hints)] = str(rng.randint(1, int(words[0]) - 1))
    elif how == "drop literal" and lits:
        del words[rng.choice(lits)]
    elif how == "flip literal" and lits:
        k = rng.choice(lits)
        words[k] = str(-int(words[k]))
    else:
        return [*steps[:i], *steps[i + 1:]]
    return [*steps[:i], words, *steps[i + 1:]]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(formulas(), st.randoms(use_true_random=False))
def test_drat_trims_lrat_of_a_random_formula_verifies_and_no_corruption_verifies_a_satisfiable_one(
        tmp_path_factory, formula, rng):
    """Random small formulas made unsatisfiable by unit clauses: drat-trim's LRAT of a solver's
    proof verifies, and a corrupted copy checked against the formula before the unit clauses
    verifies only where that formula is unsatisfiable (brute force): the LRAT mode is sound."""
    program = drat_trim()
    n_vars, clauses = formula
    tmp_path = tmp_path_factory.mktemp("lrat")
    stronger = made_unsatisfiable(n_vars, clauses, rng)
    cnf, drat, lrat = tmp_path / "f.cnf", tmp_path / "p.drat", tmp_path / "p.lrat"
    cnf.write_text(dimacs(stronger, n_vars))
    drat.write_text("".join(line + "\n" for line in solver_proof(stronger)))
    subprocess.run([program, str(cnf), str(drat), "-L", str(lrat)], capture_output=True, timeout=60)
    steps = text_steps(lrat) if lrat.exists() else []
    if not any(s[1] != "d" for s in steps):
        return   # refuted by unit propagation alone: drat-trim writes no lemma
    assert check_proof(n_vars, stronger, str(lrat), lrat=True)["verdict"] == "verified"
    sat = satisfiable(clauses, n_vars)
    for _ in range(3):
        lrat.write_text("".join(" ".join(s) + "\n" for s in lrat_corrupted(steps, rng)))
        assert (check_proof(n_vars, clauses, str(lrat), lrat=True)["verdict"] == "verified") <= (not sat)
