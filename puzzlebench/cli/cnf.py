"""``puzzlebench solve-cnf``: any DIMACS file, its models counted and answered in
SAT-competition form.

``export --to dimacs`` lives with the other export targets (:mod:`.export`), and ``decode``,
which reads a solver's answer to an exported puzzle back, in :mod:`.decode`."""

from __future__ import annotations

import json
import sys

from ..encoders.dimacs import answer_text, read_dimacs
from ..options import LIMIT, TIME
from ..solvers.base import check_time_limit, normalise_limit
from ..solvers.cnf_file import count_cnf_models
from .common import EXIT_OK, read_text


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


def register(sub) -> None:
    p = sub.add_parser("solve-cnf", help="solve any DIMACS CNF file; answer in SAT-competition "
                                         "form (s/v lines)")
    p.add_argument("file", metavar="FILE", help="the CNF ('-' for standard input)")
    p.add_argument("--solver", default="sat", help="sat[:NAME] (a PySAT solver) or quine:h0|h1|h2; "
                                                    "default %(default)s")
    p.add_argument("--limit", type=LIMIT, default=1, metavar="K",
                   help="models to count (0 = all; each whole assignment blocked); default 1")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS", help="for the whole count (default: none)")
    p.set_defaults(func=cmd_solve_cnf)
