"""The bitboard engine's own proofs beyond 9x9 (native/sudokun_cdcl_proof.c): clause learning
from the start writes each clause it learns as an LRAT lemma with the IDs of the clauses that
derive it, so a claim of absence on 16x16 and 25x25 Sudoku (unique, unsat, a complete count), and
on the other grids of units, is certified by the engine's proof, checked by the package's checker
in its LRAT mode, and not by the SAT prover's.  A proof with a lemma left out, or checked without
the blocking clause of the solution it found, is refused."""

from __future__ import annotations

import random
import re
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, data_lines, hard25_line, run
from proof_cases import lrat_check, lrat_steps, own_proof_steps, proof_verdict, step_codes
from puzzlebench import api, parse
from puzzlebench.engines.certify import certified, claim_buffer, claim_formula, clause_buffer
from puzzlebench.engines.bitboard import BitboardEngine
from puzzlebench.engines.registry import make_engine
from puzzlebench.generators.sudoku import without_solution
from puzzlebench.models.latin import LatinSquare
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.runtime.limits import Deadline

SIXTEEN = "sudoku16_vu_kr_1000.txt"
SIX = REPO / "results" / "generated" / "sudoku6_minimal_50.txt"
QUICK25 = (4, 15)
"""The generator seeds of hard25.txt's puzzles that clause learning decides quickest (0.5 and 0.3 s)."""


def sixteens(limit: int, step: int) -> list[str]:
    return [line.split()[0] for line in data_lines(SIXTEEN, limit=limit, step=step)]


def certified_by_itself(puzzle, limit: int | None = 2, keep: int = 10, engine: str = "bitboard"):
    """The engine's result on ``puzzle``, its claim certified; the certificate asserted to be
    its own proof's, verified."""
    result = certified(make_engine(engine)).run(puzzle, limit=limit, keep=keep, time_limit=600)
    assert result.certificate is not None, result
    assert (result.certificate.status, result.certificate.prover, result.certificate.checker) == \
        ("verified", make_engine(engine).spec, "lrat"), result.certificate
    return result


def unsat_variant(puzzle: Sudoku, solution) -> Sudoku:
    """``puzzle`` with one given more, at an open cell, that breaks no rule at once and is not
    its one solution's value there: no solution left (the generator's ``--unsat``)."""
    known = Sudoku(puzzle.box, puzzle.givens, metadata={"solution": puzzle.format_solution(solution)})
    return without_solution(known, random.Random(7))


def test_unique_16x16_puzzles_are_proved_by_the_engine():
    for text in sixteens(limit=10, step=50):
        result = certified_by_itself(parse(text))
        assert str(result.status) == "unique"


def test_an_unsat_16x16_is_refuted_by_the_engine():
    for text in sixteens(limit=3, step=100):
        puzzle = parse(text)
        solution = make_engine("bitboard").run(puzzle, limit=2).solutions[0]
        result = certified_by_itself(unsat_variant(puzzle, solution))
        assert (str(result.status), result.count) == ("unsat", 0)


def test_the_proof_ends_with_the_empty_clause_and_is_needed_whole():
    """A lemma left out of the middle of a 16x16's proof, or the formula without the blocking
    clause of the solution found (then satisfiable), and the checker refuses the proof."""
    n_vars, clauses, steps = own_proof_steps("bitboard", parse(sixteens(limit=1, step=1)[0]))
    middle = len(steps) // 2
    refused = [i for i in range(middle - 20, middle + 20)
               if steps[i][:1] == b"a"
               and proof_verdict(n_vars, clauses, b"".join(steps[:i] + steps[i + 1:]), lrat=True) == "not verified"]
    assert refused, "no lemma of the middle of the proof is needed"


def lemma_literals(proof: bytes) -> list[list[int]]:
    """The literals of each lemma of a binary LRAT proof (steps 'a': an ID, the literals, 0,
    the hints, 0)."""
    lemmas = [step_codes(step) for step in lrat_steps(proof) if step[:1] == b"a"]
    return [codes[1:codes.index(0)] for codes in lemmas]


def shrunk_proof(text: str) -> tuple[float, int, str]:
    """The engine's proof of ``text`` counted to 2: its lemmas' mean length, how many of them
    repeat a literal, and its verdict."""
    puzzle = parse(text)
    solutions = make_engine("bitboard").run(puzzle, limit=2).solutions
    proof = make_engine("bitboard").prove(puzzle, solutions, Deadline(120))
    n_vars, clauses, _ = claim_formula(puzzle, solutions)
    lemmas = lemma_literals(proof)
    repeating = sum(len(set(lemma)) < len(lemma) for lemma in lemmas)
    return sum(map(len, lemmas)) / len(lemmas), repeating, proof_verdict(n_vars, clauses, proof, lrat=True)


def test_the_proofs_lemmas_are_shrunk_further_and_still_verify():
    """The proof's learnt clauses, each level's literals replaced by their UIP on that level
    with a lower level's literals implied by the clause passed over and those of its levels
    added (shrink_all_uip): the 16x16's lemmas average under 5.5 literals (6.3 where a lower
    level's literal outside the clause stops the UIP), and every one is still RUP."""
    mean, repeating, verdict = shrunk_proof(sixteens(limit=1, step=1)[0])
    assert verdict == "verified"
    assert mean < 5.5, mean
    assert repeating == 0   # a level's UIP is in the clause: no later level adds it again


@pytest.mark.slow
def test_a_hard_25x25_proofs_lemmas_are_shrunk_further_and_still_verify():
    # 27 literals a lemma with shrink alone
    mean, repeating, verdict = shrunk_proof(hard25_line("hard25.txt", QUICK25[1]))
    assert verdict == "verified"
    assert mean < 20, mean
    assert repeating == 0


def test_a_proof_for_other_solutions_than_the_search_finds_is_none():
    puzzle = parse(sixteens(limit=1, step=1)[0])
    engine = make_engine("bitboard")
    solution = engine.run(puzzle, limit=2).solutions[0]
    assert engine.prove(puzzle, [solution], Deadline(60)) is not None
    assert engine.prove(puzzle, [], Deadline(60)) is None   # the search finds one
    assert engine.prove(puzzle, [solution, solution], Deadline(60)) is None


def test_the_formula_the_proof_search_is_handed_is_the_claims_clause_for_clause():
    """The hints name the clauses of the formula the search is handed, and the checker reads
    the claim's: the two are one, also for a shape kept from an earlier proof."""
    engine = make_engine("bitboard")
    for text in (sixteens(limit=1, step=1)[0], "1.3...2..1.3.4..", sixteens(limit=2, step=1)[1]):
        puzzle = parse(text)
        solutions = engine.run(puzzle, limit=2).solutions
        made = claim_buffer(puzzle, solutions)
        assert made.tobytes() == clause_buffer(claim_formula(puzzle, solutions)[1]).tobytes()


def test_the_proof_search_blocks_the_claimed_solutions_from_its_start():
    """Given the solutions a claim names, clause learning refutes the claim's formula without
    finding them again (none counted, no lemma spent on them); what is not a whole solution of
    values 1..n is refused."""
    from puzzlebench import _native
    puzzle = parse(sixteens(limit=1, step=1)[0])
    engine = make_engine("bitboard")
    solution = engine.run(puzzle, limit=2).solutions[0]
    call = (16, engine._units_of(puzzle), bytes(puzzle.givens), 1, 60.0, engine._rules(), 0, 0)
    n_vars, clauses, _ = claim_formula(puzzle, [solution])
    formula = clause_buffer(clauses)
    proof, count, found = _native.units_prove(*call, bytes(solution), formula)
    assert (count, found) == (0, b"")
    assert proof_verdict(n_vars, clauses, proof, lrat=True) == "verified"
    for bad in (bytes(solution)[:-1], bytes(solution)[:-1] + b"\x00", bytes(solution)[:-1] + b"\x11"):
        with pytest.raises(ValueError, match="^known: whole solutions of 256 values 1..16 expected$"):
            _native.units_prove(*call, bad, formula)
    other = clause_buffer(claim_formula(puzzle, [])[1])   # no blocking clause
    with pytest.raises(ValueError, match="^formula: its last clauses are not the known solutions' blocking clauses$"):
        _native.units_prove(*call, bytes(solution), other)


@pytest.mark.slow
@pytest.mark.parametrize("seed", QUICK25)
def test_hard_25x25_puzzles_are_proved_by_the_engine(seed):
    result = certified_by_itself(parse(hard25_line("hard25.txt", seed)))
    assert str(result.status) == "unique"


def test_complete_counts_are_proved_with_every_solution_blocked():
    """Latin squares of order 4 (576) and a 16x16 with most givens gone: each solution found
    once and blocked, the count certified by the engine."""
    result = certified_by_itself(LatinSquare(4, [0] * 16), limit=None, keep=1000)
    assert result.count == 576
    text = sixteens(limit=1, step=1)[0]
    solution = make_engine("bitboard").run(parse(text), limit=2).solutions[0]
    kept = set(random.Random(3).sample(range(256), 140))
    holed = Sudoku((4, 4), [v if cell in kept else 0 for cell, v in enumerate(solution)])
    result = certified_by_itself(holed, limit=None, keep=5000)
    assert result.count == make_engine("dlx").run(holed, limit=None, keep=0).count > 1


@pytest.mark.parametrize("name", ["tatham_solo_sudokux_3x3_100.txt", "tatham_solo_jigsaw9_100.txt"])
def test_sudoku_x_and_jigsaw_are_proved_by_the_engine(name):
    for line in data_lines(name, limit=4, step=25):
        assert str(certified_by_itself(parse(line)).status) == "unique"


def test_small_sudoku_shapes_are_proved_by_the_engine():
    assert str(certified_by_itself(parse("1.3...2..1.3.4.."), limit=None).status) == "unique"
    for text in [line.split()[0] for line in SIX.read_text().splitlines()[::10]]:
        assert str(certified_by_itself(parse(text)).status) == "unique"


def test_an_option_the_proof_search_does_not_take_leaves_the_proof_as_it_is():
    """The locked rule, the alldifferent filter and the handover are the depth-first search's:
    the proof is clause learning's whatever they are; restarts and seeds change only its path."""
    puzzle = parse(sixteens(limit=1, step=1)[0])
    solutions = make_engine("bitboard").run(puzzle, limit=2).solutions
    n_vars, clauses, _ = claim_formula(puzzle, solutions)
    proofs = {spec: make_engine(spec).prove(puzzle, solutions, Deadline(60))
              for spec in ("bitboard", "bitboard@locked=false;large=false;handover=0",
                           "bitboard@restarts=none;random=false", "bitboard@restarts=geometric;conflict_unit=1")}
    assert proofs["bitboard"] == proofs["bitboard@locked=false;large=false;handover=0"]
    assert all(proof_verdict(n_vars, clauses, proof, lrat=True) == "verified" for proof in proofs.values())


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), share=st.floats(0.3, 0.58), change=st.booleans())
def test_random_16x16_claims_are_proved_by_the_engine(seed, share, change):
    """Random holes in a 16x16 solution grid, maybe one given changed (mostly unsat then),
    counted up to 200: below that the count is a claim, and the engine's proof verifies."""
    rng = random.Random(seed)
    solution = make_engine("bitboard").run(parse(sixteens(limit=1, step=1)[0]), limit=1).solutions[0]
    givens = [0 if rng.random() < share else v for v in solution]
    if change:   # a value no given of the cell's units holds (a repeated given is refused at once)
        cell = rng.randrange(256)
        units = [cells for _, cells in Sudoku((4, 4), givens).units() if cell in cells]
        givens[cell] = 0
        open_values = sorted(set(range(1, 17)) - {givens[c] for cells in units for c in cells})
        givens[cell] = rng.choice(open_values)
    puzzle = Sudoku((4, 4), givens)
    result = certified(make_engine("bitboard")).run(puzzle, limit=200, keep=200, time_limit=120)
    assert result.count == make_engine("dlx").run(puzzle, limit=200, keep=0).count
    if result.count < 200:
        assert (result.certificate.status, result.certificate.prover) == ("verified", "bitboard")


def test_the_kept_lrat_proof_checks_again_from_its_files(tmp_path, capsys):
    """--proof-dir keeps the engine's proof beside the formula as text LRAT in .lrat (no .drat),
    the form lrat-check and cake_lpr read, which check-proof --lrat verifies and the DRAT mode
    does not read as a proof of it."""
    (tmp_path / "p.txt").write_text(sixteens(limit=1, step=1)[0] + "\n")
    code, _, err = run(capsys, "solve", str(tmp_path / "p.txt"), "--solver", "bitboard", "--certify",
                       "--proof-dir", str(tmp_path / "kept"))
    assert code == 0, err
    [cnf] = (tmp_path / "kept").glob("*.cnf")
    assert [p.suffix for p in (tmp_path / "kept").iterdir() if p != cnf] == [".lrat"]
    proof = cnf.with_suffix(".lrat")
    code, out, err = run(capsys, "check-proof", str(cnf), str(proof), "--lrat")
    assert (code, out.splitlines()[-1], err) == (0, "s VERIFIED", "")
    assert "text LRAT" in out
    first_id = int(proof.read_text().split(maxsplit=1)[0])
    assert first_id == int(cnf.read_text().split()[3]) + 1   # one past the formula's clauses
    assert run(capsys, "check-proof", str(cnf), str(proof))[0] != 0


def test_an_engine_that_proved_is_pickled_without_the_formula_it_kept():
    """The claim's formula kept for the next proof (1 MB on 16x16, 9 MB on 25x25) does not travel
    with the engine into a child process, which still proves."""
    import pickle
    engine = make_engine("bitboard")
    puzzle = parse(sixteens(limit=1, step=1)[0])
    solutions = engine.run(puzzle, limit=2).solutions
    assert engine.prove(puzzle, solutions, Deadline(60)) is not None
    sent = pickle.dumps(engine)
    assert len(sent) < 20_000, len(sent)
    assert pickle.loads(sent).prove(puzzle, solutions, Deadline(60)) is not None


@pytest.mark.slow
def test_the_kept_lrat_proof_of_a_hard_25x25_is_verified_by_lrat_check(tmp_path, capsys):
    """drat-trim's LRAT checker, a reference independent of the package, verifies the engine's
    kept proof of a hard 25x25's uniqueness (47 MB of text)."""
    program = lrat_check()
    (tmp_path / "p.txt").write_text(hard25_line("hard25.txt", QUICK25[1]) + "\n")
    code, _, err = run(capsys, "solve", str(tmp_path / "p.txt"), "--solver", "bitboard", "--certify",
                       "--proof-dir", str(tmp_path / "kept"))
    assert code == 0, err
    [cnf] = (tmp_path / "kept").glob("*.cnf")
    done = subprocess.run([program, str(cnf), str(cnf.with_suffix(".lrat"))], capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, "c VERIFIED" in done.stdout.splitlines()) == (0, True), done.stdout[-2000:]


def test_a_16x16_refuted_at_the_root_is_certified_by_its_lrat_proof():
    """Row 1 holds 2..16 after its first cell, which must then hold 1, and the cell below it is
    given 1: the givens clash at the root, and the proof is the empty clause with its hints."""
    givens = [0] * 256
    givens[1:16] = range(2, 17)
    givens[16] = 1
    result = certified_by_itself(Sudoku((4, 4), givens))
    assert (str(result.status), result.count) == ("unsat", 0)


class HalfProofEngine(BitboardEngine):
    """The bitboard engine whose LRAT proofs lose their middle lemma: a wrong proof of its own."""

    def prove(self, puzzle, solutions, deadline):
        steps = lrat_steps(super().prove(puzzle, solutions, deadline))
        middle = len(steps) // 2
        return b"".join(steps[:middle] + steps[middle + 1:])


def test_a_refused_lrat_proof_names_the_clause_that_fails_in_its_certificate():
    result = api.solve(sixteens(limit=1, step=1)[0], solver=HalfProofEngine(), certify=True)
    assert (str(result.status), result.certificate.status) == ("unique", "failed")
    assert re.fullmatch(r"not verified: clause [\d,]+ \((-?\d+ )+0\): hint \d+ names clause \d+, which is "
                        r"neither in the formula nor added before", result.certificate.reason), result.certificate.reason
