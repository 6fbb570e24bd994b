"""``puzzlebench check-proof``: its verdicts, exit codes and figures, and every bad input's one
placed line: a malformed text or binary proof, a proof for another formula, an empty proof, a
proof cut in the middle, /dev/zero, an endless stream (bounded memory, the memory limit, Ctrl-C),
in the DRAT mode and the LRAT mode's limits."""

from __future__ import annotations

import array
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import run
from puzzlebench.engines.certify import check_proof
from proof_cases import binary_step, cadical_proof, dimacs, pigeonhole, proof_text
from puzzlebench import _native

TWO = [[1, 2], [-1, 2], [1, -2], [-1, -2]]       # unsatisfiable, not by unit propagation alone
THREE = [[1, 2], [-1, 2], [1, -2]]                # its first three clauses: 1 and 2 true
BOUND = 10.0   # seconds from SIGINT to the exit, a hang guard (the machine is shared)


@pytest.fixture
def files(tmp_path):
    def write(formula: list[list[int]], proof: str | bytes, n_vars: int | None = None):
        cnf, drat = tmp_path / "f.cnf", tmp_path / "p.drat"
        cnf.write_text(dimacs(formula, n_vars))
        drat.write_bytes(proof if isinstance(proof, bytes) else proof.encode())
        return str(cnf), str(drat)
    return write


def check(capsys, files, formula, proof, *options, n_vars=None):
    cnf, drat = files(formula, proof, n_vars)
    return run(capsys, "check-proof", cnf, drat, *options), drat


def comments(out: str) -> dict[str, str]:
    return dict(line[2:].split(":", 1) for line in out.splitlines() if line.startswith("c "))


def test_a_proof_by_rup_lemmas_is_verified_with_its_figures(capsys, files):
    (code, out, err), drat = check(capsys, files, TWO, proof_text([[2], []]))
    assert (code, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
    figures = comments(out)
    assert figures[f"proof {drat}"] == " text DRAT, 3 bytes read"   # the empty clause after the conflict: unread
    assert figures["lemmas read"].startswith(" 1; deletions applied: 0")
    assert figures["core"] == " lemmas 1, formula clauses 4 of 4; lemmas checked 1, by RAT 0"
    assert "unit propagation conflicts after lemma 1; the rest of the proof is not read" in out


def test_the_same_proof_in_binary_is_verified(capsys, files):
    (code, out, err), drat = check(capsys, files, TWO, binary_step("a", [2]) + binary_step("a", []))
    assert (code, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
    assert comments(out)[f"proof {drat}"] == " binary DRAT, 3 bytes read"


def test_a_lemma_neither_rup_nor_rat_is_named_with_its_place_and_why(capsys, files):
    (code, out, err), drat = check(capsys, files, THREE, proof_text([[-2], []]))
    assert (code, out.splitlines()[-1]) == (1, "s NOT VERIFIED")
    assert err == (f"puzzlebench: {drat}:1: lemma 1 (-2 0): it is neither RUP nor RAT on its first literal -2: "
                   "its resolvent with formula clause 2 is not RUP\n")


def test_a_proof_that_deletes_a_clause_it_needs_fails_at_the_lemma_that_needed_it(capsys, files):
    (code, out, err), drat = check(capsys, files, TWO, proof_text([("d", [1, 2]), [2], []]))
    assert code == 1
    assert err == (f"puzzlebench: {drat}:2: lemma 1 (2 0): it is neither RUP nor RAT on its first literal 2: "
                   "its resolvent with formula clause 3 is not RUP\n")


def test_a_proof_that_never_refutes_says_so(capsys, files):
    (code, out, err), drat = check(capsys, files, TWO, proof_text([[1, 2]]))
    assert (code, out.splitlines()[-1]) == (1, "s NOT VERIFIED")
    assert err == (f"puzzlebench: {drat}: no refutation reached: unit propagation finds no conflict in the "
                   "formula and the proof's 1 lemma(s)\n")


def test_an_empty_clause_claimed_too_early_is_not_rup(capsys, files):
    (code, out, err), drat = check(capsys, files, TWO, proof_text([[]]))
    assert err == (f"puzzlebench: {drat}:1: lemma 1 (0): the empty clause is not RUP: unit propagation "
                   "reaches no conflict\n")


@pytest.mark.parametrize("formula, code", [([[1], [-1, 2], [-2]], 0), (TWO, 1)])
def test_an_empty_proof_verifies_only_a_formula_unit_propagation_refutes(capsys, files, formula, code):
    (got, out, err), _ = check(capsys, files, formula, "")
    assert got == code
    assert ("the formula is refuted by unit propagation alone: the proof is not read" in out) == (code == 0)


def test_a_proof_for_another_formula_is_not_verified(capsys, files, tmp_path):
    other = tmp_path / "other.cnf"
    other.write_text(dimacs(pigeonhole(3)))
    proof = tmp_path / "ph.drat"
    cadical_proof(other, proof)
    cnf, _ = files(pigeonhole(3)[:-1], "")   # a clause fewer: satisfiable
    code, out, err = run(capsys, "check-proof", cnf, str(proof))
    assert (code, out.splitlines()[-1]) == (1, "s NOT VERIFIED")
    assert err.startswith(f"puzzlebench: {proof}:byte ") and "lemma" in err


def test_a_lemma_over_a_new_variable_is_an_extension_checked_by_rat(capsys, files):
    # 3 <-> (1 and 2) by RAT on 3 and -3, then lemmas over the formula's variables
    proof = proof_text([[-3, 1], [-3, 2], [3, -1, -2], [2], []])
    (code, out, err), _ = check(capsys, files, TWO, proof)
    assert (code, err) == (0, "")
    (code, out, err), _ = check(capsys, files, TWO, proof_text([[3, -1], [-3, -2], [-1], [2], []]))
    assert (code, err) == (0, "")


# (1 2) is RAT on 2 but on neither 1 nor by RUP; the refutation needs it once -1 is derived
RAT_ON_SECOND = [[-2, 3], [1, 3, 4], [1, 3, -4], [-3, 5], [-3, -5], [-1, 6], [-1, -6]]


def test_the_rat_pivot_is_the_first_literal_as_written(capsys, files):
    """DRAT's pivot is a lemma's first literal: ours refuses what is RAT on another one only, so
    that it verifies no proof drat-trim refuses (drat-trim tries the others after a warning,
    against the clauses it has marked so far: results/proofs.md)."""
    (code, out, err), drat = check(capsys, files, RAT_ON_SECOND, proof_text([[1, 2], [-1], []]))
    assert code == 1
    assert err.startswith(f"puzzlebench: {drat}:1: lemma 1 (1 2 0): it is neither RUP nor RAT on its first literal 1: ")
    (code, out, err), _ = check(capsys, files, RAT_ON_SECOND, proof_text([[2, 1], [-1], []]))
    assert (code, err) == (0, "")
    assert comments(out)["core"].endswith("lemmas checked 2, by RAT 1")


def test_no_literal_is_a_rat_pivot_once_the_first_is_false_at_the_top_level(capsys, files):
    formula = [[-1], *RAT_ON_SECOND[:5]]
    (code, out, err), drat = check(capsys, files, formula, proof_text([[1, 2], []]))
    assert code == 1
    assert err == (f"puzzlebench: {drat}:1: lemma 1 (1 2 0): it is not RUP, and its first literal is false at "
                   "the top level: no RAT\n")
    (code, out, err), _ = check(capsys, files, formula, proof_text([[2, 1], []]))
    assert (code, err) == (0, "")


def test_deletions_of_units_and_of_absent_clauses_are_ignored_and_counted(capsys, files):
    proof = proof_text([("d", [7, 8]), [1, 3], ("d", [1, 3]), ("d", [1]), [2], []])
    (code, out, err), _ = check(capsys, files, TWO, proof, n_vars=8)
    assert (code, err) == (0, "")
    assert comments(out)["lemmas read"] == (" 2; deletions applied: 1, ignored: 1 of unit clauses or reasons, "
                                            "1 of absent clauses")


@pytest.mark.parametrize("proof, place, problem", [
    ("-1 -2 3 4 0\n1 x 0\n", "2:3", "unexpected character 'x'"),   # past the 12 bytes that tell text
    ("-1 -2 3 4 0\n12x 0\n", "2:3", "unexpected character 'x' in a literal"),
    ("2 0\n 99999999999 0\n", "2:2", "literal beyond 2147483647, the largest DIMACS variable"),
    ("-3 1 0\n- 1 0\n", "2:1", "'-' without a number"),
    ("1 2\n", "1:1", "the proof ends inside this step: it has no terminating 0"),
    ("d 1 d 2 0\n", "1:5", "unexpected character 'd'"),
])
def test_a_malformed_text_proof_is_one_placed_line_exit_2(capsys, files, proof, place, problem):
    (code, out, err), drat = check(capsys, files, THREE, proof)
    assert (code, out, err) == (2, "", f"puzzlebench: error: {drat}:{place}: {problem}\n")


@pytest.mark.parametrize("proof, byte, problem", [
    (binary_step("a", [2])[:-1], 1, "the proof ends inside this step: it has no terminating 0"),
    (binary_step("a", [2]) + b"a\x84", 4, "the proof ends inside this step: it has no terminating 0"),
    (binary_step("a", [2]) + b"x\x04\x00", 4, "byte 0x78 is neither 'a' (a lemma) nor 'd' (a deletion)"),
    (b"a\x01\x00", 2, "literal code 1 names variable 0"),
    (b"a" + b"\xff" * 5 + b"\x01\x00", 2, "literal beyond 2147483647, the largest DIMACS variable"),
])
def test_a_malformed_binary_proof_is_placed_by_its_byte(capsys, files, proof, byte, problem):
    (code, out, err), drat = check(capsys, files, THREE, proof)
    assert (code, out, err) == (2, "", f"puzzlebench: error: {drat}:byte {byte}: {problem}\n")


def test_a_binary_proof_cut_in_the_middle_is_refused_where_its_last_step_starts(capsys, files, tmp_path):
    cnf = tmp_path / "ph.cnf"
    cnf.write_text(dimacs(pigeonhole(5)))
    whole = tmp_path / "ph.drat"
    cadical_proof(cnf, whole)
    data = whole.read_bytes()
    cut = tmp_path / "cut.drat"
    cut.write_bytes(data[:len(data) // 2])
    while cut.read_bytes()[-1] == 0:   # end inside a step, not between two
        cut.write_bytes(cut.read_bytes()[:-1])
    code, out, err = run(capsys, "check-proof", str(cnf), str(cut))
    assert code == 2
    assert re.fullmatch(rf"puzzlebench: error: {cut}:byte \d+: the proof ends inside this step: it has no "
                        r"terminating 0\n", err)


def test_dev_zero_as_a_proof_ends_at_its_first_byte(capsys, files):
    cnf, _ = files(THREE, "")
    code, out, err = run(capsys, "check-proof", cnf, "/dev/zero")
    assert (code, out) == (2, "")
    assert err == ("puzzlebench: error: /dev/zero:byte 1: byte 0x00 is neither 'a' (a lemma) nor 'd' (a "
                   "deletion) (read as binary DRAT: the first bytes are not all DRAT text)\n")


def test_a_malformed_formula_and_a_missing_proof_are_one_line_exit_2(capsys, files, tmp_path):
    cnf, drat = files(TWO, "")
    (tmp_path / "bad.cnf").write_text("p cnf 2 1\n1 3 0\n")
    code, out, err = run(capsys, "check-proof", str(tmp_path / "bad.cnf"), drat)
    assert (code, out, err) == (2, "", f"puzzlebench: error: {tmp_path / 'bad.cnf'}:2:3: literal 3 is beyond "
                                       "the 2 variables the 'p' line declares\n")
    code, out, err = run(capsys, "check-proof", cnf, str(tmp_path / "none.drat"))
    assert (code, out, err) == (2, "", f"puzzlebench: error: cannot read {tmp_path / 'none.drat'}: No such file "
                                       "or directory\n")


def _command(*args: str, proof_stream: bytes) -> tuple[subprocess.Popen, threading.Thread]:
    """check-proof in a process of its own, its proof (standard input) ``proof_stream`` again
    and again until the process closes it."""
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench", "check-proof", *args, "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    block = proof_stream * (2**16 // len(proof_stream) + 1)

    def feed():
        try:
            while True:
                proc.stdin.write(block)
        except (BrokenPipeError, ValueError, OSError):
            pass
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    return proc, writer


@pytest.mark.slow
def test_an_endless_stream_of_lemmas_stops_at_the_memory_limit(files):
    cnf, _ = files(THREE, "")
    proc, writer = _command(cnf, "--memory-limit", "16", proof_stream=b"1 2 3 4 5 6 7 8 9 10 0\n")
    try:
        proc.wait(timeout=120)   # not communicate(): it would close the stream
    finally:
        proc.kill()
    out, err = proc.stdout.read(), proc.stderr.read()
    assert (proc.returncode, out) == (3, b"")
    assert re.fullmatch(rb"puzzlebench: error: <stdin>:\d+:1: the check needs more than the memory limit of "
                        rb"16 MB\n", err), err


@pytest.mark.slow
def test_a_huge_stream_of_deletions_is_checked_in_constant_memory(tmp_path):
    """3 million steps (27 MB) of deletions of an absent clause hold nothing: the peak is what
    the formula and the read buffer take."""
    proof = tmp_path / "deletions.drat"
    with open(proof, "wb") as f:
        for _ in range(30):
            f.write(b"d 1 -2 0\n" * 100_000 + b"1 2 3 0\n" * 10)
    found = _native.check_drat(2, array.array("i", [1, 2, 0, -1, 2, 0]), str(proof))
    assert (found["verdict"], found["lemmas"], found["absent_deletions"]) == ("not verified", 300, 3_000_000)
    assert found["peak_bytes"] < 2 * 2**20, found["peak_bytes"]


@pytest.mark.slow
@pytest.mark.parametrize("form, stream", [((), b"d 1 2 3 0\n"), (("--lrat",), b"4 d 1 0\n")], ids=["drat", "lrat"])
def test_ctrl_c_stops_a_check_of_an_endless_stream_exit_130(files, form, stream):
    """Deletions of a clause gone hold nothing and never end the proof: only Ctrl-C does."""
    cnf, _ = files(THREE, "")
    proc, writer = _command(cnf, *form, proof_stream=stream)
    time.sleep(2)   # imported and reading
    assert proc.poll() is None, proc.stderr.read()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=BOUND)
    finally:
        proc.kill()
    out, err = proc.stdout.read(), proc.stderr.read()
    assert (proc.returncode, out, err) == (130, b"", b"puzzlebench: interrupted\n")


def test_the_native_function_refuses_a_buffer_that_is_no_formula():
    with pytest.raises(ValueError, match="32-bit literals, each clause closed by 0"):
        _native.check_drat(2, array.array("i", [1, 2]), "/dev/null")
    with pytest.raises(ValueError, match="literal 3 beyond n_vars 2"):
        _native.check_drat(2, array.array("i", [1, 3, 0]), "/dev/null")
    with pytest.raises(ValueError, match="32-bit literals"):
        _native.check_drat(2, array.array("q", [1, 2, 0]), "/dev/null")


def test_a_check_given_no_time_is_a_timeout_and_given_enough_verifies(tmp_path):
    clauses = pigeonhole(6)
    cnf, proof = tmp_path / "ph.cnf", tmp_path / "ph.drat"
    cnf.write_text(dimacs(clauses))
    cadical_proof(cnf, proof)
    n_vars = max(abs(lit) for clause in clauses for lit in clause)
    assert check_proof(n_vars, clauses, str(proof), seconds=0.0)["verdict"] == "timeout"
    assert check_proof(n_vars, clauses, str(proof), seconds=600.0)["verdict"] == "verified"


def test_a_proof_named_lrat_refused_as_drat_says_to_give_lrat(capsys, tmp_path):
    """The engine's kept LRAT proof checked without --lrat is refused, with the way to check it."""
    cnf, lrat = tmp_path / "f.cnf", tmp_path / "p.lrat"
    cnf.write_text(dimacs(TWO))
    lrat.write_text("5 2 0 1 2 0\n6 0 5 3 4 0\n")
    code, _, err = run(capsys, "check-proof", str(cnf), str(lrat))
    assert (code, err) == (1, f"puzzlebench: {lrat}: no refutation reached: unit propagation finds no conflict in "
                              "the formula and the proof's 4 lemma(s) (the proof is named .lrat: check an LRAT "
                              "proof with --lrat)\n")
    lrat.write_text("5 2 0 1 2 0\n6 d 5 0\n")
    code, _, err = run(capsys, "check-proof", str(cnf), str(lrat))
    assert (code, err) == (2, f"puzzlebench: error: {lrat}:2:3: unexpected character 'd' (the proof is named "
                              ".lrat: check an LRAT proof with --lrat)\n")
    assert run(capsys, "check-proof", str(cnf), str(lrat), "--lrat")[0] == 1


# ---- the LRAT mode's limits: memory, time, Ctrl-C (its verdicts: test_lrat.py) ------------------

def test_an_lrat_lemma_over_a_huge_variable_is_past_the_memory_limit_at_its_place(capsys, files):
    (code, out, err), lrat = check(capsys, files, TWO, "5 2000000000 0 1 0\n", "--lrat", "--memory-limit", "64")
    assert (code, out, err) == (3, "", f"puzzlebench: error: {lrat}:1:1: the check needs more than the memory "
                                       "limit of 64 MB\n")


def test_an_lrat_check_given_no_time_is_a_timeout(tmp_path):
    proof = tmp_path / "p.lrat"
    proof.write_text("5 2 0 1 2 0\n6 0 5 3 4 0\n")
    assert check_proof(2, TWO, str(proof), seconds=0.0, lrat=True)["verdict"] == "timeout"
    assert check_proof(2, TWO, str(proof), seconds=60.0, lrat=True)["verdict"] == "verified"
