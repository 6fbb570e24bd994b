"""``puzzlebench export`` (a puzzle in a solver's own format, from the encoders' registry)
and ``solve-xc`` (any exact-cover matrix in Knuth's format, puzzle or not)."""

from __future__ import annotations

import sys

from ..encoders.cnf import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS
from ..encoders.registry import EXPORTERS, artifact_for
from ..errors import UsageError
from .common import EXIT_OK, add_input_arguments, read_records, read_text


def _write(text: str, output: str | None) -> None:
    if output and output != "-":
        try:
            with open(output, "w") as f:
                f.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write {output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)


def cmd_export(args) -> int:
    records = list(read_records(args))
    if args.number < 1 or args.number > len(records):
        raise UsageError(f"--number {args.number}: the input holds {len(records)} puzzle(s)")
    record = records[args.number - 1]
    if record.error is not None:
        raise record.error
    options = {k: getattr(args, k) for k in ("encoding", "amo") if getattr(args, k, None) is not None}
    _write(artifact_for(record.puzzle, args.to, **options).write(), args.output)
    return EXIT_OK


def cmd_solve_xc(args) -> int:
    from ..encoders.exact_cover import read_knuth
    from ..solvers.base import Deadline, check_time_limit, normalise_limit
    from ..solvers.registry import make_engine
    normalise_limit(args.limit)
    check_time_limit(args.time_limit)
    text, source = read_text(args.file, "an exact-cover matrix in Knuth's format")
    matrix = read_knuth(text, source)
    engine = make_engine(args.solver)
    if not getattr(engine, "exact_cover", False):
        raise UsageError(f"solve-xc needs an exact-cover engine (dlx or dlx-py), not {args.solver!r}")
    outcome = engine.search(matrix, args.limit or None, args.show, Deadline(args.time_limit))
    for k, solution in enumerate(outcome.solutions, start=1):
        print(f"solution {k}:")
        for option in solution:
            print(f"  {matrix.option_text(option)}")
    counters = ", ".join(f"{v} {name}" for name, v in outcome.stats.raw.items())
    plural = "" if outcome.count == 1 else "s"
    stopped = " (time limit reached)" if outcome.timed_out else ""
    size = matrix.size()
    print(f"{outcome.count} solution{plural}{stopped}; {counters}; "
          f"{size['primary_items']}+{size['secondary_items']} items, {size['options']} options "
          f"[{engine.spec}]")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("export", help="write a puzzle in a solver's own format (--to dlx: Knuth's "
                                      "exact-cover format)")
    add_input_arguments(p)
    p.add_argument("--to", required=True, metavar="TARGET",
                   help=f"export target: {', '.join(sorted(EXPORTERS))}")
    p.add_argument("--number", type=int, default=1, metavar="K",
                   help="which puzzle of the input to export (1-based); default 1")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p.add_argument("--encoding", metavar="NAME", help=f"dimacs: CNF encoding ({', '.join(ENCODINGS)}); "
                                                       f"default {DEFAULT_ENCODING}")
    p.add_argument("--amo", metavar="NAME", help=f"dimacs: at-most-one encoding ({', '.join(AMO_ENCODINGS)}); "
                                                  f"default {DEFAULT_AMO}")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("solve-xc", help="solve an exact-cover matrix in Knuth's DLX format "
                                        "(items line, one option a line, item:color)")
    p.add_argument("file", metavar="FILE", help="the matrix ('-' for standard input)")
    p.add_argument("--limit", type=int, default=0, help="solutions to look for (0 = all); default 0")
    p.add_argument("--show", type=int, default=10, help="solutions to print; default %(default)s")
    p.add_argument("--solver", default="dlx", help="dlx (C) or dlx-py; default %(default)s")
    p.add_argument("--time-limit", type=float, metavar="SECONDS")
    p.set_defaults(func=cmd_solve_xc)
