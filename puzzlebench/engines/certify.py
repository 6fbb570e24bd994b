"""Certificates for the claims no solution can show: ``unsat`` (no solution), ``unique`` (no
second one) and a complete count of k (no (k+1)-th one).

Each is one claim about one formula: the puzzle's CNF as ``export --to dimacs`` writes it (the
``extended`` encoding with pairwise at-most-one, a unit clause a given), plus a blocking clause
for each solution found, is unsatisfiable.  A prover refutes it and the package's checker
(``native/drat.c``) checks the proof: DRAT with drat-trim's semantics (Wetzler, Heule and Hunt,
SAT 2014), or LRAT, each lemma forward by its hints, where the engine's proof names them
(:meth:`~.base.Engine.proof_form`: bitboard's beyond 9x9), so that the claim rests on a check a
reader can repeat with drat-trim, or lrat-check and cake_lpr, from the kept files
(``proof_dir``), not on the engine's word.  The prover, named by the certificate, is the engine
itself where it proves its own search (:meth:`~.base.Engine.prove`: bitboard on grids of
units, dlx on Sudoku; its proof refused is ``failed``, never replaced) or logs proofs (``sat:glucose3``), else
CaDiCaL 1.9.5 through PySAT (:data:`DEFAULT_PROVER`).  A model the prover finds instead, checked
by the puzzle's checker, is the solution the engine missed.
"""

from __future__ import annotations

import array
import os
import tempfile
import time
from pathlib import Path

from ..encoders.cnf import encode
from ..encoders.dimacs import write_clauses
from ..errors import UsageError
from ..models.base import Puzzle
from ..results import Certificate, Result, Status
from ..runtime.limits import Deadline

DEFAULT_PROVER = "sat:cadical195"
CHECKER = "drat"   # native/drat.c, checking DRAT backward as drat-trim does
LRAT_CHECKER = "lrat"   # the same checker's LRAT mode: each lemma forward by its hints
CHECK_MEMORY = 2 * 2 ** 30   # the checker's budget, as every command's default


def claims_absence(result: Result) -> bool:
    """Whether ``result`` claims that some solution does not exist: ``unsat``, ``unique``, or
    ``multiple`` short of its limit (an exact count)."""
    if result.status in (Status.UNSAT, Status.UNIQUE):
        return True
    return result.status is Status.MULTIPLE and (result.limit is None or result.count < result.limit)


def claim_formula(puzzle: Puzzle, solutions) -> tuple[int, list[list[int]], int]:
    """The formula a claim says is unsatisfiable: the export's CNF and a blocking clause for
    each of ``solutions`` (one of its open cells takes another value); its variables, its
    clauses and its candidate variables."""
    cnf = encode(puzzle)
    return cnf.n_vars, cnf.all_clauses() + blocking_clauses(cnf, solutions), cnf.n_candidates


def blocking_clauses(cnf, solutions) -> list[list[int]]:
    """The clause of each of ``solutions`` that blocks it: one of its open cells takes another
    value (``cnf``: the puzzle's)."""
    n, givens = cnf.n_values, cnf.givens
    return [[-(cell * n + value) for cell, value in enumerate(solution) if not givens[cell]] for solution in solutions]


# the last shape's clauses as the checker reads them (claim_buffer), beside encoders.cnf's cache
# of the shapes' formulas: 9 MB for 25x25, where making it takes 0.09 s a claim
_BASE_BUFFER: dict[tuple, array.array] = {}


def claim_buffer(puzzle: Puzzle, solutions) -> array.array:
    """``clause_buffer`` of the claim's formula (:func:`claim_formula`), as the checker reads it
    and as the engine's LRAT proof names its clauses: the shape's clauses made into a buffer
    once and kept, the givens' unit clauses and the blocking clauses made each time."""
    cnf = encode(puzzle)
    base = _BASE_BUFFER.get(cnf.base_key) if cnf.base_key is not None else None
    if base is None:   # base_key None: no shape's formula to keep
        base = clause_buffer(cnf.clauses)
        if cnf.base_key is not None:
            _BASE_BUFFER.clear()
            _BASE_BUFFER[cnf.base_key] = base
    return base + clause_buffer([[u] for u in cnf.units] + blocking_clauses(cnf, solutions))


def prover_for(engine) -> str:
    """The proof-logging engine that certifies ``engine``'s claims: itself where it is one (a
    PySAT solver of :data:`~.sat.PROOF_LOGGING`, a SAT program whose preset writes proofs)."""
    from .sat import PROOF_LOGGING
    if engine.family == "sat" and engine.variant in PROOF_LOGGING:
        return engine.spec
    if engine.family == "ext" and engine.writes_proofs():
        return engine.spec
    return DEFAULT_PROVER


def certify(puzzle: Puzzle, result: Result, deadline: Deadline, prover=None,
            proof_dir: str | None = None, engine=None) -> Certificate | None:
    """The certificate of ``result``'s claim of absence (``None``: it makes none), under the
    run's ``deadline``: ``engine``'s own proof where it gives one (:meth:`~.base.Engine.prove`),
    else ``prover``'s, an engine of :data:`~.sat.PROOF_LOGGING` (default
    :data:`DEFAULT_PROVER`).  A model the prover finds instead makes ``result`` an ``error``
    naming the solution missed.  ``proof_dir``: keep the formula and the proof there."""
    from .registry import make_engine

    if not claims_absence(result):
        return None
    prover = prover or make_engine(DEFAULT_PROVER)
    if result.count > len(result.solutions):
        return Certificate("none", prover.spec, reason=f"a count of {result.count} with {len(result.solutions)} "
                           "solutions kept: each needs its blocking clause (raise --keep)")
    n_vars, clauses, n_candidates = claim_formula(puzzle, result.solutions)
    start = time.perf_counter()
    own = None if engine is None else engine.prove(puzzle, result.solutions, deadline)
    lrat = own is not None and engine.proof_form(puzzle) == "lrat"
    with _proof_place(proof_dir, result, "lrat" if lrat else "drat") as (formula_path, proof_path):
        if own is not None:   # the engine's own proof: checked as it is, never replaced by another's
            name = engine.spec
            _write_proof(own, proof_path, lrat and formula_path is not None, len(clauses))
        else:
            name = prover.spec
            answer, found = prover.refute(clauses, n_candidates, deadline, proof_path)
            if answer == "stopped":
                return Certificate("none", name, prove_seconds=time.perf_counter() - start,
                                   reason="the time limit struck before the proof was found")
            if answer == "sat":
                return _missed(puzzle, result, found, name, time.perf_counter() - start)
        prove_seconds = time.perf_counter() - start
        proof_bytes = os.path.getsize(proof_path)   # the whole proof: the check may stop reading early
        if formula_path is not None:
            write_clauses(formula_path, clauses, n_vars)
        verdict = check_buffer(n_vars, claim_buffer(puzzle, result.solutions), proof_path,
                               seconds=deadline.remaining(), lrat=lrat)
    status = "verified" if verdict["verdict"] == "verified" else "failed"
    reason = None if status == "verified" else _reason(verdict, lrat)
    if verdict["verdict"] == "timeout" or (status == "verified" and deadline.expired()):
        status, reason = "none", "the time limit struck before the proof was checked"
    return Certificate(status, name, LRAT_CHECKER if lrat else CHECKER, proof_bytes, prove_seconds,
                       verdict["seconds"], reason)


class Certifier:
    """An engine's :attr:`~.base.Engine.certifier`: ``certifier(result, puzzle, deadline)``
    gives ``result`` the certificate of its claim of absence, if it makes one and its solutions
    were verified: ``engine``'s own proof where it gives one, else the prover's.  The prover is
    made when first needed (and not pickled with the engine into a child process, which makes
    its own)."""

    def __init__(self, prover_spec: str, proof_dir: str | None, engine=None):
        self.prover_spec, self.proof_dir, self.engine, self._prover = prover_spec, proof_dir, engine, None

    def __call__(self, result: Result, puzzle: Puzzle, deadline: Deadline) -> Result:
        from .registry import make_engine

        if result.status is Status.ERROR or result.certificate is not None:
            return result
        if self._prover is None:
            self._prover = make_engine(self.prover_spec)
        result.certificate = certify(puzzle, result, deadline, self._prover, self.proof_dir, self.engine)
        return result

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_prover": None}


def certified(engine, certify: bool = True, proof_dir: str | None = None):
    """``engine``, each claim of absence of its next runs proved and checked (its
    :attr:`~.base.Engine.certifier`), the proofs kept in ``proof_dir`` if given."""
    if not isinstance(certify, bool):
        raise TypeError(f"certify must be True or False; got {certify!r}")
    if proof_dir is not None and not certify:
        raise UsageError("a proof folder (--proof-dir) goes with --certify")
    if proof_dir is not None:
        check_proof_dir(str(proof_dir))
    engine.certifier = (Certifier(prover_for(engine), None if proof_dir is None else str(proof_dir), engine)
                        if certify else None)
    return engine


def check_proof(n_vars: int, clauses: list[list[int]], proof_path: str, memory_limit: int = CHECK_MEMORY,
                seconds: float | None = None, lrat: bool = False) -> dict:
    """The checker's verdict on the DRAT proof in ``proof_path`` for ``clauses``, or with
    ``lrat`` the LRAT proof, each lemma checked by its hints (``_native.check_drat``: its dict
    of the verdict and the figures; ``timeout`` where ``seconds`` ran out first, ``None``: no
    limit)."""
    return check_buffer(n_vars, clause_buffer(clauses), proof_path, memory_limit, seconds, lrat)


def check_buffer(n_vars: int, formula: array.array, proof_path: str, memory_limit: int = CHECK_MEMORY,
                 seconds: float | None = None, lrat: bool = False) -> dict:
    """:func:`check_proof` of a formula already made into the checker's buffer
    (:func:`clause_buffer`, :func:`claim_buffer`)."""
    from .. import _native
    return _native.check_drat(n_vars, formula, proof_path, memory_limit, -1.0 if seconds is None else seconds, lrat)


def clause_buffer(clauses: list[list[int]]) -> array.array:
    """The clauses as the checker reads them: 32-bit DIMACS literals, each clause closed by 0."""
    # a list grown by its bound methods, then one array: half the time of growing the array
    # (1.0 against 2.0 ms for a 9x9 claim's 12,000 clauses), a share of a certified 17-clue answer
    flat: list[int] = []
    extend, append = flat.extend, flat.append
    for clause in clauses:
        extend(clause)
        append(0)
    return array.array("i", flat)


def _write_proof(proof: bytes, path: str, as_text: bool, n_clauses: int) -> None:
    """An engine's proof written to ``path`` as it is, or a binary LRAT proof ``as_text``: the
    form lrat-check and cake_lpr read, for a kept proof (``n_clauses``: the formula's)."""
    from .. import _native
    if as_text:
        _native.lrat_text(proof, path, n_clauses)
        return
    with open(path, "wb") as out:
        out.write(proof)


def _missed(puzzle: Puzzle, result: Result, true_candidates: list[int], prover: str,
            prove_seconds: float) -> Certificate:
    """The prover's model: a solution the claim said does not exist, checked by the puzzle's
    checker; the result becomes an ``error`` naming it."""
    n = puzzle.n_values
    values = [0] * puzzle.n_cells
    for var in true_candidates:
        cell, rest = divmod(var - 1, n)
        values[cell] = rest + 1
    broken = puzzle.check(values)
    if broken:
        return Certificate("failed", prover, prove_seconds=prove_seconds,
                           reason=f"the prover's model breaks the puzzle's rules ({broken[0]})")
    missed = puzzle.format_solution(tuple(values))
    claim = "unsat" if result.status is Status.UNSAT else f"{result.status} with {result.count} found"
    result.error = (f"claimed {claim}, but {prover} found {'a' if result.count == 0 else 'another'} "
                    f"solution, verified: {missed}")
    result.status = Status.ERROR
    return Certificate("failed", prover, prove_seconds=prove_seconds, reason=f"another solution exists: {missed}")


def failed_step(failure: dict, lrat: bool) -> str:
    """The step a failed check names, and why (the checker's ``failure`` with a ``lemma``):
    "lemma 12 (3 -4 0): ...", by its clause ID in an LRAT proof."""
    literals = " ".join(map(str, [*failure["literals"], 0]))
    text = f"{'clause' if lrat else 'lemma'} {failure['lemma']:,} ({literals}): {failure['why']}"
    if failure.get("with", -1) >= 0:
        text += f" {failure['literals'][0]}: its resolvent with {failure['with_kind']} {failure['with']:,} is not RUP"
    return text


def _reason(verdict: dict, lrat: bool) -> str:
    failure = verdict.get("failure")
    if verdict["verdict"] == "not verified" and failure:
        if "lemma" in failure:
            return f"not verified: {failed_step(failure, lrat)}"
        return f"not verified: {failure.get('why') or 'no refutation reached'}"
    return f"{verdict['verdict']}: {verdict.get('message') or ''}".rstrip(": ")


class _proof_place:
    """Where the proof is written: ``proof_dir`` (the formula beside it, both kept, named by the
    puzzle and the solver, the proof's extension its form: ``.drat``, or ``.lrat`` in text), else
    a temporary file removed after the check."""

    def __init__(self, proof_dir: str | None, result: Result, form: str):
        self.proof_dir, self.result, self.form, self.temporary = proof_dir, result, form, None

    def __enter__(self) -> tuple[str | None, str]:
        if self.proof_dir is None:
            self.temporary = tempfile.TemporaryDirectory(prefix="puzzlebench-proof-")
            return None, os.path.join(self.temporary.name, f"proof.{self.form}")
        stem = _file_stem(f"{self.result.source or 'puzzle'}-{self.result.solver}")
        folder = Path(self.proof_dir)
        folder.mkdir(parents=True, exist_ok=True)
        return str(folder / f"{stem}.cnf"), str(folder / f"{stem}.{self.form}")

    def __exit__(self, *exc) -> None:
        if self.temporary is not None:
            self.temporary.cleanup()


def check_proof_dir(path: str) -> None:
    """The proof folder made now, before any run: a file in its way, or a folder that cannot be
    made, is one line."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--proof-dir {path}: a file of that name is in the way; --proof-dir names a folder")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--proof-dir {path}: cannot make the folder: {exc.strerror or exc}") from None


def _file_stem(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)[:120]

