"""Certified claims (``--certify``): every claim that no (other) solution exists is proved by a
proof-logging SAT solver and the DRAT proof checked by the package's checker; a false claim is
caught by the model the prover finds instead, verified by the puzzle's own checker."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import INKALA, needs_program, run
from puzzlebench import api, parse
from puzzlebench.engines.certify import DEFAULT_PROVER, certified, certify, check_proof, claim_formula
from puzzlebench.engines.registry import make_engine
from puzzlebench.engines.sat import PROOF_LOGGING
from puzzlebench.errors import UsageError
from puzzlebench.runtime.limits import Deadline

FAKE_UNSAT = 'ext@cmd=printf "s UNSATISFIABLE\\n"'
SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def peers(cell: int) -> set[int]:
    row, col = divmod(cell, 9)
    box = (row // 3 * 3, col // 3 * 3)
    return ({row * 9 + c for c in range(9)} | {r * 9 + col for r in range(9)}
            | {(box[0] + r) * 9 + box[1] + c for r in range(3) for c in range(3)}) - {cell}


def unsat_without_clash() -> str:
    """Inkala's puzzle with one more given that repeats no value in a row, column or block but
    leaves no solution."""
    engine = make_engine("bitboard")
    for cell, ch in enumerate(INKALA):
        for value in "123456789" if ch == "." else "":
            if any(INKALA[p] == value for p in peers(cell)):
                continue
            text = INKALA[:cell] + value + INKALA[cell + 1:]
            if str(engine.run(parse(text), limit=1).status) == "unsat":
                return text
    raise AssertionError("no such given")


def all_4x4_grids() -> list[str]:
    """Every 4x4 Sudoku solution (288), by brute force over rows of permutations."""
    from itertools import permutations, product
    rows = list(permutations("1234"))
    grids = []
    for grid in product(rows, repeat=4):
        cols_ok = all(len({grid[r][c] for r in range(4)}) == 4 for c in range(4))
        boxes_ok = all(len({grid[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
                       for br in (0, 2) for bc in (0, 2))
        if cols_ok and boxes_ok:
            grids.append("".join("".join(row) for row in grid))
    return grids


GRIDS_4X4 = all_4x4_grids()


UNSAT = unsat_without_clash()


@pytest.mark.parametrize("variant", PROOF_LOGGING)
def test_each_proof_logging_solver_proves_a_unique_claim(variant):
    puzzle = parse(INKALA)
    result = make_engine("bitboard").run(puzzle, limit=2)
    cert = certify(puzzle, result, Deadline(60), make_engine(f"sat:{variant}"))
    assert (cert.status, cert.prover, cert.checker) == ("verified", f"sat:{variant}", "drat")
    assert cert.proof_bytes > 0 and cert.reason is None


def test_a_certificate_gives_the_size_of_the_whole_proof_kept(tmp_path):
    """The proof's size, not the bytes the checker read: a forward check stops reading at the
    first conflict, long before the end of a proof that goes on past it."""
    puzzle = parse(INKALA)
    result = make_engine("bitboard").run(puzzle, limit=2)
    cert = certify(puzzle, result, Deadline(60), make_engine("sat:glucose3"), proof_dir=str(tmp_path))
    (kept,) = tmp_path.glob("*.drat")
    assert cert.status == "verified" and cert.proof_bytes == kept.stat().st_size > 0


def test_the_solvers_left_out_of_the_list_log_no_proof_or_a_wrong_one():
    from pysat.solvers import Solver
    from puzzlebench.engines.sat import BAD_PROOFS, VARIANTS
    for name in sorted(set(VARIANTS) - set(PROOF_LOGGING) - set(BAD_PROOFS)):
        with pytest.raises(NotImplementedError):   # when made (Minisat) or when asked (MergeSat)
            solver = Solver(name=name, bootstrap_with=[[1], [-1]], with_proof=True)
            solver.solve()
            solver.get_proof()
    puzzle = parse(INKALA)
    result = make_engine("bitboard").run(puzzle, limit=2)
    for name in BAD_PROOFS:   # the checker catches what the library writes
        assert certify(puzzle, result, Deadline(60), make_engine(f"sat:{name}")).status == "failed"


@pytest.mark.parametrize("spec", ["bitboard", "dlx", "mrv", "sat", "sat:minisat22", "cpsat"])
def test_every_engines_unsat_and_unique_claims_are_certified(spec):
    for text, status in ((UNSAT, "unsat"), (INKALA, "unique")):
        result = api.solve(text, solver=spec, certify=True)
        assert str(result.status) == status
        assert result.certificate.status == "verified", result.certificate
        own = {"sat": "sat:glucose3", "bitboard": "bitboard", "dlx": "dlx"}   # the engines that prove their own claims
        assert result.certificate.prover == own.get(spec, DEFAULT_PROVER)


def test_a_fake_unsat_is_caught_by_the_solution_the_prover_finds(capsys):
    code, out, err = run(capsys, "solve", "--example", "arto-inkala", "--solver", FAKE_UNSAT, "--certify")
    assert code == 2
    assert f"claimed unsat, but {DEFAULT_PROVER} found a solution, verified: {SOLUTION}" in out
    assert parse(INKALA).check([int(c) for c in SOLUTION]) == []


def test_without_certify_an_external_unsat_is_said_to_be_its_word_alone(capsys):
    code, out, err = run(capsys, "solve", "--example", "arto-inkala", "--solver", FAKE_UNSAT)
    assert code == 0 and "unsat" in out
    assert err == ("puzzlebench: warning: example:arto-inkala: unsat is the program's word alone "
                   "(--certify proves it)\n")


def test_a_certified_runs_summary_counts_its_certificates_and_their_time(tmp_path, capsys):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{INKALA}\n{UNSAT}\n")
    code, _, err = run(capsys, "solve", str(puzzles), "--certify")
    assert code == 0
    assert re.fullmatch(r"puzzlebench: 2 puzzles: 1 unique, 1 unsat; certificates: 2 verified, proved and checked "
                        r"in \d+\.\d{3}s; \d+\.\d{3}s in all\n", err), err
    code, _, err = run(capsys, "solve", str(puzzles), "--certify", "--limit", "1")
    assert re.fullmatch(r"puzzlebench: 2 puzzles: 1 sat, 1 unsat; certificates: 1 verified, proved and checked "
                        r"in \d+\.\d{3}s; \d+\.\d{3}s in all\n", err), err
    code, _, err = run(capsys, "solve", str(puzzles), "--limit", "1")
    assert re.fullmatch(r"puzzlebench: 2 puzzles: 1 sat, 1 unsat; \d+\.\d{3}s in all\n", err), err
    (tmp_path / "sat.txt").write_text(f"{INKALA}\n{INKALA}\n")
    code, _, err = run(capsys, "solve", str(tmp_path / "sat.txt"), "--certify", "--limit", "1")
    assert re.fullmatch(r"puzzlebench: 2 puzzles: 2 sat; no claim of absence to certify; \d+\.\d{3}s in all\n",
                        err), err
    (tmp_path / "bad.txt").write_text("1.3.\n")
    code, _, err = run(capsys, "solve", str(tmp_path / "bad.txt"), str(tmp_path / "bad.txt"), "--certify")
    assert code == 2
    assert err.splitlines()[-1] == "puzzlebench: 2 puzzles: 2 error; 0.000s in all"   # no word on certificates


def test_a_count_is_certified_with_every_solution_kept_and_said_uncertified_without(capsys):
    code, out, err = run(capsys, "count", "--example", "8-queens", "--certify", "--keep", "100")
    assert code == 0 and "multiple certificate=verified count=92" in out
    code, out, err = run(capsys, "count", "--example", "8-queens", "--certify")
    assert code == 1
    assert err == ("puzzlebench: example:8-queens: multiple not certified: none: a count of 92 with 10 "
                   "solutions kept: each needs its blocking clause (raise --keep)\n")


def test_the_kept_formula_and_proof_check_again_from_their_files(tmp_path, capsys):
    code, _, _ = run(capsys, "solve", "--example", "arto-inkala", "--certify", "--proof-dir", str(tmp_path))
    assert code == 0
    [cnf] = tmp_path.glob("*.cnf")
    [proof] = tmp_path.glob("*.drat")
    lines = [line.split() for line in cnf.read_text().splitlines()[1:]]
    clauses = [[int(x) for x in words[:-1]] for words in lines]
    n_vars = int(cnf.read_text().split()[2])
    assert check_proof(n_vars, clauses, str(proof))["verdict"] == "verified"
    assert (n_vars, clauses) == claim_formula(parse(INKALA), [tuple(int(c) for c in SOLUTION)])[:2]


def test_a_proof_the_time_limit_stops_is_no_certificate():
    puzzle = parse(INKALA)
    result = make_engine("bitboard").run(puzzle, limit=2)
    cert = certify(puzzle, result, Deadline(0.0))
    assert (cert.status, cert.reason) == ("none", "the time limit struck before the proof was found")


def test_the_api_checks_its_certify_arguments():
    with pytest.raises(TypeError, match="certify must be True or False; got 'yes'"):
        api.solve(INKALA, certify="yes")
    with pytest.raises(UsageError, match="a proof folder"):
        api.solve(INKALA, proof_dir="x")


def test_a_timed_run_is_certified_in_its_child_process():
    result = api.solve(INKALA, solver="sat:cadical195", time_limit=20, certify=True)
    assert result.certificate.status == "verified" and result.certificate.prover == "sat:cadical195"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4)), max_size=7))
def test_any_4x4_claim_is_certified_and_agrees_with_brute_force(givens):
    cells = ["."] * 16
    for cell, value in givens:
        cells[cell] = str(value)
    try:
        puzzle = parse("".join(cells), box="2x2")
    except Exception:   # givens that break a rule at once: not a puzzle
        return
    text = "".join(cells)
    brute = sum(all(t == "." or t == g for t, g in zip(text, grid)) for grid in GRIDS_4X4)
    assert make_engine("bitboard").run(puzzle, limit=None, keep=300).certificate is None
    result = certified(make_engine("bitboard")).run(puzzle, limit=None, keep=300)
    assert result.count == brute
    assert result.certificate.status == "verified", result.certificate


def test_a_sat_program_that_writes_proofs_proves_its_own_claims(tmp_path):
    needs_program("cadical")
    for text, status in ((UNSAT, "unsat"), (INKALA, "unique")):
        result = api.solve(text, solver="ext:cadical", certify=True, proof_dir=str(tmp_path))
        assert (str(result.status), result.certificate.status, result.certificate.prover) == (status, "verified",
                                                                                              "ext:cadical")
    assert len(list(tmp_path.glob("*.drat"))) == 1   # one puzzle name, one solver: the second replaced it


LYING_CADICAL = """#!/bin/sh
# answers UNSAT to everything, with a proof that proves nothing: cadical's arguments, --seed=N FORMULA [PROOF]
[ $# -ge 3 ] && printf '0\\n' > "$3"
echo "s UNSATISFIABLE"
exit 20
"""


def test_a_programs_own_proof_that_the_checker_refuses_is_a_failed_certificate(tmp_path):
    needs_program("cadical")
    program = tmp_path / "lying-cadical"
    program.write_text(LYING_CADICAL)
    program.chmod(0o755)
    result = api.solve(INKALA, solver=f"ext:cadical@cmd={program}", certify=True)
    assert str(result.status) == "unsat"
    assert (result.certificate.status, result.certificate.prover) == ("failed", f"ext:cadical@cmd={program}")
    assert result.certificate.reason.startswith("not verified")


def test_a_threaded_batch_certifies_every_record_after_it():
    lines = [INKALA, UNSAT] * 20
    results = api.solve_many(lines, solver="bitboard", threads=2, certify=True)
    assert [(str(r.status), r.certificate.status) for r in results] == [("unique", "verified"),
                                                                        ("unsat", "verified")] * 20
    with pytest.raises(ValueError, match="certify gives each record its certificate: not with columns=True"):
        api.solve_many(lines, certify=True, columns=True)


def test_a_proof_folder_that_cannot_be_one_is_one_line_before_any_run(tmp_path, capsys):
    (tmp_path / "afile").write_text("")
    message = f"puzzlebench: error: --proof-dir {tmp_path / 'afile'}: a file of that name is in the way; " \
              "--proof-dir names a folder\n"
    for command in (["solve", "--example", "arto-inkala"], ["bench", "--solvers", "mrv", "--db", str(tmp_path / "x.db")]):
        code, out, err = run(capsys, *command, "--certify", "--proof-dir", str(tmp_path / "afile"))
        assert (code, out, err) == (2, "", message)
    assert not (tmp_path / "x.db").exists()


def test_a_run_whose_time_limit_has_struck_gets_no_certificate_from_any_phase():
    puzzle = parse(INKALA)
    result = make_engine("bitboard").run(puzzle, limit=2)
    cert = certify(puzzle, result, Deadline(0.0), engine=make_engine("bitboard"))
    assert (cert.status, cert.reason) in {("none", "the time limit struck before the proof was checked"),
                                          ("none", "the time limit struck before the proof was found")}
