"""``puzzlebench solve-smt2``: run Z3 on any SMT-LIB2 file (one written by ``export --to
smt2*`` or not), count its models by blocking, and print the cell values of those whose
variables follow the writer's names (``c<cell>``, ``x<cell>_<value>``)."""

from __future__ import annotations

import sys

from ..errors import UsageError
from ..solvers.base import Deadline, check_time_limit, normalise_limit
from ..solvers.smt import z3_stats
from .smt import blocking_clause, decode_assignment, header_facts, model_assignment, read_smt2

EXIT_OK = 0


def cmd_solve_smt2(args) -> int:
    import z3

    normalise_limit(args.limit)
    check_time_limit(args.time_limit)
    source = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
    logic, fixed, n_cells = header_facts(text)
    solver = z3.SolverFor(logic) if logic == "QF_FD" else z3.Solver()
    read_smt2(text, source, solver)
    deadline, count, answer = Deadline(args.time_limit), 0, None
    while not args.limit or count < args.limit:
        if deadline.remaining() is not None:
            solver.set("timeout", max(1, int(deadline.remaining() * 1000)))
        answer = solver.check()
        if answer != z3.sat:
            break
        count += 1
        assignment = model_assignment(solver.model())
        if assignment:
            cells = n_cells or 1 + max(cell for cell, _, _ in assignment)
            values = decode_assignment(assignment, cells, fixed)
            print(f"solution {count}: {','.join(map(str, values))}")
        else:
            print(f"solution {count}: {solver.model().sexpr().strip()}")
        block = blocking_clause(assignment)
        if block is None:
            break
        solver.from_string(block)
    stats = z3_stats(solver.statistics())
    if answer == z3.unknown:
        ending = f" (stopped: {solver.reason_unknown()})"
    elif count == 0:
        ending = " (unsat)"
    else:
        ending = ""
    plural = "" if count == 1 else "s"
    print(f"{count} model{plural}{ending}; decisions={stats.nodes} conflicts={stats.conflicts} "
          f"propagations={stats.propagations} [z3 {z3.get_version_string()}]")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("solve-smt2", help="run Z3 on an SMT-LIB2 file (e.g. from export --to smt2), "
                                          "counting models by blocking")
    p.add_argument("file", metavar="FILE", help="the SMT-LIB2 file ('-' for standard input)")
    p.add_argument("--limit", type=int, default=1, help="models to look for (0 = all); default 1")
    p.add_argument("--time-limit", type=float, metavar="SECONDS")
    p.set_defaults(func=cmd_solve_smt2)
