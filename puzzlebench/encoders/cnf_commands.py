"""CNF sub-commands: ``solve-cnf`` (any DIMACS file, answered in SAT-competition form) and
``decode`` (a solver's answer to an exported puzzle CNF, back to a verified solution).

``export --to dimacs`` lives with the other export targets (:mod:`.commands`)."""

from __future__ import annotations

import json
import sys

from ..errors import PuzzlebenchError, UsageError
from ..solvers.base import check_time_limit, normalise_limit
from .dimacs import answer_text, check_answer, cnf_for_decoding, read_answer, read_dimacs

EXIT_OK, EXIT_SOME_ERRORS = 0, 1


def _read(path: str) -> tuple[str, str]:
    source = "<stdin>" if path == "-" else path
    try:
        return (sys.stdin.read() if path == "-" else open(path).read()), source
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None


def solve_dimacs(n_vars: int, clauses: list[list[int]], spec: str, limit: int | None,
                 time_limit: float | None):
    """Models of a plain CNF (whole assignments, blocked one by one) with ``sat:NAME`` or
    ``quine:hK``: ``(status, first model or None, count, stats dict)``."""
    from ..solvers.registry import parse_spec
    from ..solvers.base import Deadline

    parsed = parse_spec(spec)
    options = dict(parsed.options)
    deadline = Deadline(time_limit)
    if parsed.family == "quine":
        from ..solvers.quine import QFormula, QuineEngine, count_models

        engine = QuineEngine(parsed.variant, options)
        models, count, timed_out, first, total = count_models(
            QFormula(n_vars, clauses), engine.variant, engine.settings["seed"], limit, 1, deadline,
            None, check_against=clauses)
        d = first.difficulty(engine.variant)
        stats = {"disjunctions_per_depth": first.disjunctions, "steps_per_depth": first.steps,
                 "max_depth": first.max_depth, "difficulty": round(d["difficulty"], 6)}
    elif parsed.family == "sat":
        from pysat.solvers import Solver

        from ..solvers.sat import SatEngine

        engine = SatEngine(parsed.variant, options)
        solver = Solver(name=engine.variant, bootstrap_with=clauses)

        def whole(true: list[int]) -> list[int]:
            """The whole assignment (variables the solver left out of its model are false)."""
            on = set(true)
            return [v if v in on else -v for v in range(1, n_vars + 1)]

        try:
            trues, count, timed_out = engine.models(solver, [], n_vars, limit, 1, deadline,
                                                    lambda true: [-lit for lit in whole(true)])
            stats = solver.accum_stats()
        finally:
            solver.delete()
        models = [whole(true) for true in trues]
    else:
        raise UsageError(f"solve-cnf takes a SAT engine (sat:NAME) or the Quine engine "
                         f"(quine:h0|h1|h2), not {spec!r}")
    if timed_out and not count:
        status = "UNKNOWN"
    else:
        status = "SATISFIABLE" if count else "UNSATISFIABLE"
    return status, (models[0] if models else None), count, timed_out, stats


def cmd_solve_cnf(args) -> int:
    normalise_limit(args.limit)
    check_time_limit(args.time_limit)
    text, source = _read(args.file)
    cnf = read_dimacs(text, source)
    status, model, count, timed_out, stats = solve_dimacs(cnf.n_vars, cnf.clauses, args.solver,
                                                          args.limit or None, args.time_limit)
    limit = args.limit or "all"
    stopped = ", time limit reached" if timed_out else ""
    print(f"c {args.solver}: {count} model(s) found (limit {limit}{stopped})")
    print(f"c statistics: {json.dumps(stats)}")
    sys.stdout.write(answer_text(status, model or []))
    return EXIT_OK


def cmd_decode(args) -> int:
    text, source = _read(args.cnf)
    cnf = read_dimacs(text, source)
    answer_raw, answer_source = _read(args.model)
    answer = read_answer(answer_raw, answer_source)
    puzzle, decoder = cnf_for_decoding(cnf)
    if answer.status != "SATISFIABLE":
        verdict = "unsat" if answer.status == "UNSATISFIABLE" else "unknown"
        if args.format == "jsonl":
            print(json.dumps({"source": source, "kind": puzzle.kind, "status": verdict,
                              "solution": None, "verified": False}))
        else:
            print(verdict)
        return EXIT_OK
    check_answer(cnf, answer)
    try:
        solution = decoder.decode(answer.true_literals)
    except PuzzlebenchError as exc:
        raise UsageError(f"{answer_source}: {exc}") from None
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


def register(sub) -> None:
    p = sub.add_parser("solve-cnf", help="solve any DIMACS CNF file; answer in SAT-competition "
                                         "form (s/v lines)")
    p.add_argument("file", metavar="FILE", help="the CNF ('-' for standard input)")
    p.add_argument("--solver", default="sat", help="sat[:NAME] (a PySAT solver) or quine:h0|h1|h2; "
                                                    "default %(default)s")
    p.add_argument("--limit", type=int, default=1, metavar="K",
                   help="models to count (0 = all; each whole assignment blocked); default 1")
    p.add_argument("--time-limit", type=float, metavar="SECONDS")
    p.set_defaults(func=cmd_solve_cnf)

    p = sub.add_parser("decode", help="turn a SAT solver's answer to an exported CNF into the "
                                      "puzzle's solution, verified")
    p.add_argument("--cnf", required=True, metavar="FILE", help="the CNF written by export --to dimacs")
    p.add_argument("--model", required=True, metavar="SOLVER_OUTPUT",
                   help="the solver's output (s/v lines, or MiniSat's result file; '-' for stdin)")
    p.add_argument("--format", choices=("text", "jsonl"), default="text")
    p.add_argument("--pretty", action="store_true", help="print the solution as a grid")
    p.set_defaults(func=cmd_decode)
