"""CNF sub-commands: ``solve-cnf`` (any DIMACS file, answered in SAT-competition form) and
``decode`` (a solver's answer to an exported puzzle, DIMACS, XCSP3, MiniZinc or OPB, back to a
verified solution).

``export --to dimacs`` lives with the other export targets (:mod:`.export`)."""

from __future__ import annotations

import json
import sys

from ..encoders.dimacs import answer_text, check_answer, cnf_for_decoding, read_answer, read_dimacs
from ..errors import ParseError, Place, PuzzlebenchError, UsageError
from ..options import LIMIT, TIME
from ..solvers.base import check_time_limit, normalise_limit
from ..solvers.cnf_file import count_cnf_models
from .common import EXIT_OK, EXIT_SOME_ERRORS, read_text


def cmd_solve_cnf(args) -> int:
    limit = normalise_limit(args.limit)
    check_time_limit(args.time_limit)
    text, source = read_text(args.file, "a DIMACS CNF file")
    cnf = read_dimacs(text, source)
    found = count_cnf_models(cnf.n_vars, cnf.clauses, args.solver, limit, args.time_limit)
    shown = args.limit or "all"
    stopped = ", time limit reached" if found.timed_out else ""
    print(f"c {args.solver}: {found.count_text()} model(s) found (limit {shown}{stopped})")
    if found.free:
        print(f"c variables {found.free_text()} occur in no clause: each of the {found.found} model(s) "
              f"listed stands for 2^{found.free}; v lines give those below the last used false")
    print(f"c statistics: {json.dumps(found.stats)}")
    sys.stdout.write(answer_text(found.status, found.model or []))
    return EXIT_OK


def cmd_decode(args) -> int:
    source, answer_source, puzzle, status, solution = _decoded(args)
    if status != "SATISFIABLE":
        verdict = "unsat" if status == "UNSATISFIABLE" else "unknown"
        if args.format == "jsonl":
            print(json.dumps({"source": source, "kind": puzzle.kind, "status": verdict,
                              "solution": None, "verified": False}))
        else:
            print(verdict)
        return EXIT_OK
    problems = puzzle.check(solution)
    if args.format == "jsonl":
        print(json.dumps({"source": source, "kind": puzzle.kind, "status": "sat",
                          "solution": puzzle.format_solution(solution),
                          "verified": not problems, "error": problems[0] if problems else None}))
    else:
        print(puzzle.format_solution(solution) if not args.pretty else puzzle.pretty(solution))
    if problems:
        print(f"puzzlebench: error: the decoded solution is wrong: {problems[0]}", file=sys.stderr)
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
    p = sub.add_parser("solve-cnf", help="solve any DIMACS CNF file; answer in SAT-competition "
                                         "form (s/v lines)")
    p.add_argument("file", metavar="FILE", help="the CNF ('-' for standard input)")
    p.add_argument("--solver", default="sat", help="sat[:NAME] (a PySAT solver) or quine:h0|h1|h2; "
                                                    "default %(default)s")
    p.add_argument("--limit", type=LIMIT, default=1, metavar="K",
                   help="models to count (0 = all; each whole assignment blocked); default 1")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS", help="for the whole search")
    p.set_defaults(func=cmd_solve_cnf)

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
    p.add_argument("--format", choices=("text", "jsonl"), default="text")
    p.add_argument("--pretty", action="store_true", help="print the solution as a grid")
    p.set_defaults(func=cmd_decode)
