"""``puzzlebench decode``: a solver's answer to an exported puzzle (DIMACS, XCSP3, MiniZinc,
OPB: every format of the export registry with a reader) read back into the puzzle's solution
and verified against its rules; a claim of no
solution is checked by puzzlebench's own SAT engine.  The puzzle comes from the exported file's
header, so the file decodes on its own."""

from __future__ import annotations

import json
import sys

from ..encoders.registry import decoded_formats, function
from ..errors import UsageError
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
        from ..engines.registry import make_engine
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


def _decoded(args):
    """The exported file and the solver's output named by ``args``, read back by the format's
    reader (:data:`~puzzlebench.encoders.registry.FORMATS`): the file's source, the output's,
    the puzzle the file describes, the solver's status and (when satisfiable) the solution it
    gave, not yet checked against the puzzle's rules."""
    formats = decoded_formats()
    given = [name for name in formats if getattr(args, _dest(name), None)]
    if len(given) != 1:
        options = [f"--{name}" for name in formats]
        raise UsageError(f"decode takes one exported file: {', '.join(options[:-1])} or {options[-1]}")
    name = given[0]
    entry = formats[name]
    if getattr(args, _dest(name)) == "-" and args.model == "-":   # the answer read an exhausted stream
        raise UsageError(f"--{name} - and --model -: standard input can be read once; name one of them as a file")
    text, source = read_text(getattr(args, _dest(name)), entry.file_what)
    answer_raw, answer_source = read_text(args.model, entry.answer_what)
    puzzle, status, solution = function(entry.reader)(text, source, answer_raw, answer_source)
    return source, answer_source, puzzle, status, solution if status == "SATISFIABLE" else None


def _dest(option: str) -> str:
    return option.replace("-", "_")


def register(sub) -> None:
    p = sub.add_parser("decode", help="turn a solver's answer to an exported puzzle (DIMACS, XCSP3, "
                                      "MiniZinc, OPB) into the puzzle's solution, verified")
    exported = p.add_mutually_exclusive_group(required=True)
    for name, entry in decoded_formats().items():
        exported.add_argument(f"--{name}", metavar="FILE", help=entry.decode_help)
    p.add_argument("--model", required=True, metavar="SOLVER_OUTPUT",
                   help="the solver's output (s/v lines, MiniSat's result file, MiniZinc's output; "
                        "'-' for stdin)")
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text: the solution (or unsat, unknown); jsonl: a JSON object with the verdict "
                        "(default %(default)s)")
    p.add_argument("--pretty", action="store_true", help="print the solution as a grid")
    p.set_defaults(func=cmd_decode)
