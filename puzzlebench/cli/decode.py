"""``puzzlebench decode``: a solver's answer to an exported puzzle (DIMACS, XCSP3, MiniZinc or
OPB) read back into the puzzle's solution and verified against its rules; a claim of no
solution is checked by puzzlebench's own SAT engine.  The puzzle comes from the exported file's
header, so the file decodes on its own."""

from __future__ import annotations

import json
import sys

from ..encoders.dimacs import check_answer, cnf_for_decoding, read_answer, read_dimacs
from ..errors import ParseError, Place, PuzzlebenchError, UsageError
from ..results import Status
from .common import EXIT_OK, EXIT_SOME_ERRORS, read_text


CHECK_SECONDS = 60.0
"""How long ``decode`` lets puzzlebench's own solver look for a solution the tool says there is
none of, before it says the claim is unchecked."""


def cmd_decode(args) -> int:
    source, answer_source, puzzle, status, solution = _decoded(args)
    if status != "SATISFIABLE":
        return _no_solution(args, source, answer_source, puzzle, status)
    problems = puzzle.check(solution)
    shown = _shown(puzzle, solution)
    if args.format == "jsonl":
        print(json.dumps({"source": source, "kind": puzzle.kind, "status": "sat",
                          "solution": shown, "verified": not problems,
                          "error": problems[0] if problems else None}))
    elif shown is not None:
        print(shown if not args.pretty else puzzle.pretty(solution))
    if problems:
        print(f"puzzlebench: error: the decoded solution is wrong: {problems[0]}", file=sys.stderr)
        return EXIT_SOME_ERRORS
    return EXIT_OK


def _shown(puzzle, solution) -> str | None:
    """The solution in the puzzle's form, or ``None`` when a value lies outside 1..N (the form
    has no character for it; the checker's error names the cell)."""
    if any(not 1 <= v <= puzzle.rules.n_values for v in solution):
        return None
    return puzzle.format_solution(solution)


def _no_solution(args, source, answer_source, puzzle, status) -> int:
    """The tool found no solution: ``unknown``, or ``unsat`` checked by puzzlebench's own
    solver, which looks for a solution (up to :data:`CHECK_SECONDS`); one found makes the
    claim wrong (exit 1), as a wrong solution is."""
    verdict = "unsat" if status == "UNSATISFIABLE" else "unknown"
    error = None
    if verdict == "unsat":
        from ..solvers.registry import make_engine
        engine = make_engine("sat")
        result = engine.run(puzzle, limit=1, keep=1, time_limit=CHECK_SECONDS)
        if result.solutions:
            error = (f"{answer_source}: the solver says UNSATISFIABLE, but the puzzle has a solution "
                     f"({engine.spec} found {puzzle.format_solution(result.solutions[0])})")
        elif result.status is not Status.UNSAT:
            print(f"puzzlebench: warning: {answer_source}: UNSATISFIABLE not checked: {engine.spec} "
                  f"ended {result.status.value} after {CHECK_SECONDS:g} s", file=sys.stderr)
    if args.format == "jsonl":
        print(json.dumps({"source": source, "kind": puzzle.kind, "status": verdict,
                          "solution": None, "verified": False, "error": error}))
    else:
        print(verdict)
    if error is not None:
        print(f"puzzlebench: error: {error}", file=sys.stderr)
        return EXIT_SOME_ERRORS
    return EXIT_OK


DECODED_FORMATS = {   # option: (what the file is, what the solver's output is)
    "cnf": ("a DIMACS CNF file", "a SAT solver's answer (s and v lines)"),
    "xcsp3": ("an XCSP3 instance", "an XCSP3 solver's output (s and v lines)"),
    "minizinc": ("a MiniZinc model or data file", "MiniZinc's output"),
    "opb": ("an OPB file", "a pseudo-Boolean solver's answer (s and v lines)"),
}


def _decoded(args):
    """The exported file and the solver's output named by ``args``, read back: the file's
    source, the output's, the puzzle the file describes, the solver's status and (when
    satisfiable) the solution it gave, not yet checked against the puzzle's rules."""
    from ..encoders import minizinc, opb, xcsp3

    given = [name for name in DECODED_FORMATS if getattr(args, name, None)]
    if len(given) != 1:
        raise UsageError("decode takes one exported file: --cnf, --xcsp3, --minizinc or --opb")
    name = given[0]
    what, said = DECODED_FORMATS[name]
    if getattr(args, name) == "-" and args.model == "-":   # the answer read an exhausted stream
        raise UsageError(f"--{name} - and --model -: standard input can be read once; name one of them as a file")
    text, source = read_text(getattr(args, name), what)
    answer_raw, answer_source = read_text(args.model, said)
    if name == "cnf":
        cnf = read_dimacs(text, source)
        answer = read_answer(answer_raw, answer_source)
        puzzle, decoder = cnf_for_decoding(cnf)
        if answer.status != "SATISFIABLE":
            return source, answer_source, puzzle, answer.status, None
        check_answer(cnf, answer)
        try:
            solution = decoder.decode(answer.true_literals)
        except PuzzlebenchError as exc:
            raise UsageError(f"{answer_source}: {exc}") from None
        return source, answer_source, puzzle, answer.status, solution
    if name == "opb":
        puzzle = opb.puzzle_of(text, source)
        pb = opb.read_opb(text, source)
        status, true = opb.read_answer(answer_raw, answer_source, pb.n_vars)
        if status != "SATISFIABLE":
            return source, answer_source, puzzle, status, None
        opb.check_answer(pb, true, answer_source)
        return source, answer_source, puzzle, status, pb.decode(true)
    module = xcsp3 if name == "xcsp3" else minizinc
    puzzle = module.puzzle_of(text, source)
    if name == "minizinc" and not answer_raw.strip():
        # the reader takes no output as "unknown" (an engine killed at its time limit); a file
        # named here that holds nothing is no answer (MiniZinc not run, its output elsewhere),
        # an error as an empty answer is for the other formats, not "unknown" with exit 0
        raise ParseError("empty: MiniZinc's output has the solutions it found or a status line "
                         "(=====UNKNOWN=====, =====UNSATISFIABLE=====)", Place(answer_source, 1))
    status, solutions = module.read_answer(answer_raw, puzzle.n_cells, answer_source)[:2]
    return source, answer_source, puzzle, status, solutions[0] if solutions else None


def register(sub) -> None:
    p = sub.add_parser("decode", help="turn a solver's answer to an exported puzzle (DIMACS, XCSP3, "
                                      "MiniZinc, OPB) into the puzzle's solution, verified")
    exported = p.add_mutually_exclusive_group(required=True)
    exported.add_argument("--cnf", metavar="FILE", help="the CNF written by export --to dimacs")
    exported.add_argument("--xcsp3", metavar="FILE", help="the instance written by export --to xcsp3")
    exported.add_argument("--minizinc", metavar="FILE", help="the model written by export --to minizinc, or "
                                                            "the puzzle's .dzn (--to minizinc-data, mzn+dzn)")
    exported.add_argument("--opb", metavar="FILE", help="the OPB file written by export --to opb")
    p.add_argument("--model", required=True, metavar="SOLVER_OUTPUT",
                   help="the solver's output (s/v lines, MiniSat's result file, MiniZinc's output; "
                        "'-' for stdin)")
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text: the solution (or unsat, unknown); jsonl: a JSON object with the verdict "
                        "(default %(default)s)")
    p.add_argument("--pretty", action="store_true", help="print the solution as a grid")
    p.set_defaults(func=cmd_decode)
