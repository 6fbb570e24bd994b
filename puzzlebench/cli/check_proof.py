"""``puzzlebench check-proof FORMULA PROOF [--lrat]``: a DRAT proof that a DIMACS formula is
unsatisfiable, checked as drat-trim checks it (docs/proofs.md), or an LRAT proof, each lemma
checked forward by its hints as lrat-check does, by the checker compiled into
``puzzlebench._native`` (``native/drat.c``).  Its verdict is SAT-competition form (``s VERIFIED``
or ``s NOT VERIFIED``, figures in ``c`` lines) and its exit code: 0 verified, 1 not verified
(the failing lemma named on standard error), 2 a malformed formula or proof (one placed line),
3 past the memory limit, 130 Ctrl-C.  The engines' certificates
(:mod:`puzzlebench.engines.certify`) call the same checker through ``check_proof``."""

from __future__ import annotations


from ..engines.certify import check_proof, failed_step
from ..encoders.budget import DEFAULT_BUDGET, MB
from ..encoders.dimacs import read_dimacs
from ..errors import ParseError, Place, UsageError
from ..options import MEMORY, MIB
from .common import EXIT_OK, EXIT_SOME_ERRORS, read_text, report_error

EXIT_MEMOUT = 3
# said after a DRAT check's refusal of a proof named as LRAT (--proof-dir keeps the engine's so),
# which read as DRAT is numbers that mean something else
LRAT_HINT = " (the proof is named .lrat: check an LRAT proof with --lrat)"


def cmd_check_proof(args) -> int:
    text, source = read_text(args.formula, "a DIMACS CNF file")
    cnf = read_dimacs(text, source)
    del text
    proof, proof_name = ("/dev/stdin", "<stdin>") if args.proof == "-" else (args.proof, args.proof)
    try:
        open(proof, "rb").close()
    except OSError as exc:
        raise UsageError(f"cannot read {args.proof}: {exc.strerror or exc}") from None
    budget = int(args.memory_limit * MIB) if args.memory_limit is not None else DEFAULT_BUDGET
    found = check_proof(cnf.n_vars, cnf.clauses, proof, budget, lrat=args.lrat)
    hint = LRAT_HINT if not args.lrat and proof_name.endswith(".lrat") else ""
    if found["verdict"] == "malformed":
        found["message"] += hint
        raise _malformed(found, proof_name)
    if found["verdict"] == "memout":
        more = "" if args.memory_limit is not None else "; give --memory-limit MB to allow more"
        report_error(f"error: {_place(found, proof_name)}: {found['message']}{more}")
        return EXIT_MEMOUT
    for line in (lrat_figures if args.lrat else figures)(found, proof_name, len(cnf.clauses)):
        print(f"c {line}")
    if found["verdict"] == "verified":
        print("s VERIFIED")
        return EXIT_OK
    print("s NOT VERIFIED")
    if args.lrat:
        report_error(lrat_failure_text(found["failure"], proof_name, found["form"]))
    else:
        report_error(failure_text(found["failure"], proof_name, found["form"], found["lemmas"]) + hint)
    return EXIT_SOME_ERRORS


def figures(found: dict, proof: str, n_clauses: int) -> list[str]:
    """What was read and checked, for ``c`` lines."""
    if found["conflict_lemma"] == 0 and found["verdict"] == "verified":
        reached = "the formula is refuted by unit propagation alone: the proof is not read"
    elif found["conflict_lemma"]:
        reached = (f"unit propagation conflicts after lemma {found['conflict_lemma']:,}"
                   + ("; the rest of the proof is not read" if found["rest_unread"] else ""))
    else:
        reached = "no conflict: the proof ends before unit propagation refutes the formula"
    return [
        f"proof {proof}: {found['form']} DRAT, {found['bytes_read']:,} bytes read",
        f"lemmas read: {found['lemmas']:,}; deletions applied: {found['deletions']:,}, ignored: "
        f"{found['unit_deletions']:,} of unit clauses or reasons, {found['absent_deletions']:,} of absent clauses",
        f"refutation: {reached}",
        f"core: lemmas {found['core_lemmas']:,}, formula clauses {found['core_clauses']:,} of {n_clauses:,}; "
        f"lemmas checked {found['checked']:,}, by RAT {found['rat_checks']:,}",
        f"time: {found['seconds']:.3f} s; memory: {found['peak_bytes'] / MB:,.1f} MB at its peak",
    ]


def lrat_figures(found: dict, proof: str, n_clauses: int) -> list[str]:
    """What an LRAT check read and used, for ``c`` lines."""
    rest = "; the rest of the proof is not read" if found["rest_unread"] else ""
    return [
        f"proof {proof}: {found['form']} LRAT, {found['bytes_read']:,} bytes read",
        f"lemmas read and checked: {found['checked']:,}; deletions applied: {found['deletions']:,}, ignored: "
        f"{found['absent_deletions']:,} of absent or deleted clauses",
        f"refutation: the empty clause is lemma {found['conflict_lemma']:,}{rest}" if found["conflict_lemma"]
        else "refutation: none; the check stops at the step named below",
        f"hinted: lemmas {found['core_lemmas']:,}, formula clauses {found['core_clauses']:,} of {n_clauses:,}",
        f"time: {found['seconds']:.3f} s; memory: {found['peak_bytes'] / MB:,.1f} MB at its peak",
    ]


def lrat_failure_text(failure: dict, proof: str, form: str) -> str:
    """The line that names the LRAT step that fails (by its clause ID), where it is and why."""
    if "lemma" not in failure:
        return f"{proof}: {failure['why']}"
    return f"{_where(failure, proof, form)}: {failed_step(failure, lrat=True)}"


def failure_text(failure: dict, proof: str, form: str, lemmas: int) -> str:
    """The line that names the lemma that fails, where it is and why."""
    if "lemma" not in failure:
        return (f"{proof}: no refutation reached: unit propagation finds no conflict in the formula and the "
                f"proof's {lemmas:,} lemma(s)")
    return f"{_where(failure, proof, form)}: {failed_step(failure, lrat=False)}"


def _where(failure: dict, proof: str, form: str) -> str:
    return f"{proof}:{failure['place']}" if form == "text" else f"{proof}:byte {failure['place']}"


def _place(found: dict, proof: str) -> str:
    if found["error_byte"]:
        return f"{proof}:byte {found['error_byte']}"
    return str(Place(proof, found["error_line"] or None, found["error_column"] or None))


def _malformed(found: dict, proof: str) -> Exception:
    if found["error_byte"] or not found["error_line"]:
        return UsageError(f"{_place(found, proof)}: {found['message']}")
    return ParseError(found["message"], Place(proof, found["error_line"], found["error_column"]))


def register(sub) -> None:
    p = sub.add_parser("check-proof", help="check a DRAT proof that a DIMACS formula is unsatisfiable, as drat-trim "
                                           "does (or an LRAT proof: --lrat)",
                       description="Check a DRAT proof (text or binary, as SAT solvers write them) that a DIMACS "
                                   "formula is unsatisfiable, with drat-trim's semantics, or with --lrat an LRAT "
                                   "proof by its hints, as lrat-check does (docs/proofs.md).  Exit "
                                   "codes: 0 s VERIFIED, 1 s NOT VERIFIED (the failing lemma on standard error), "
                                   "2 a malformed formula or proof, 3 past the memory limit, 130 Ctrl-C.")
    p.add_argument("formula", metavar="FORMULA", help="the DIMACS CNF file")
    p.add_argument("proof", metavar="PROOF", help="the DRAT (or LRAT) proof ('-' for standard input); read as a stream")
    p.add_argument("--lrat", action="store_true",
                   help="the proof is LRAT (text, or binary as drat-trim -C and CaDiCaL write it): each lemma is "
                        "checked forward by its hints, as lrat-check does; RAT hints are not supported")
    p.add_argument("--memory-limit", type=MEMORY, metavar="MB",
                   help=f"for the checker's clauses, proof steps and watches (a bare number: MB of 2^20 bytes; or "
                        f"512MiB, 2GiB); default {DEFAULT_BUDGET >> 20} MB; past it: exit 3")
    p.set_defaults(func=cmd_check_proof)
