"""Encoder sub-commands: ``export`` (a puzzle as an artifact in a solver's own text format)
and ``solve-xc`` (any exact-cover matrix in Knuth's format, puzzle or not).

Every encoder registers its export target in :data:`EXPORTERS` (target → ``"module:function"``,
imported only when asked for, as the solver registry does), the function taking
``(puzzle, **options)`` and returning an artifact with a ``write() -> str`` method::

    EXPORTERS["dimacs"] = "puzzlebench.encoders.cnf:export_dimacs"

so ``puzzlebench export --to TARGET`` and ``puzzlebench.api.encode(puzzle, to=TARGET)``
(through :func:`artifact_for`) know every target without importing every encoder.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable

from ..errors import UsageError
from .cnf import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS

EXPORTERS: dict[str, str] = {
    "dlx": "puzzlebench.encoders.exact_cover:encode_puzzle",
    "cpsat": "puzzlebench.encoders.cpsat:export_cpsat",
    "cpsat-bool": "puzzlebench.encoders.cpsat:export_cpsat_bool",
    "smt2": "puzzlebench.encoders.smt:export_smt2",
    "smt2-fold": "puzzlebench.encoders.smt:export_smt2_fold",
    "smt2-bool": "puzzlebench.encoders.smt:export_smt2_bool",
    "dimacs": "puzzlebench.encoders.cnf:export_dimacs",
}

EXIT_OK, EXIT_SOME_ERRORS = 0, 1


def exporter(target: str) -> Callable[..., Any]:
    if target not in EXPORTERS:
        raise UsageError(f"unknown export target {target!r}; known: {', '.join(sorted(EXPORTERS))}")
    module, _, name = EXPORTERS[target].partition(":")
    return getattr(importlib.import_module(module), name)


def artifact_for(puzzle, to: str, **options: Any):
    """The artifact of ``puzzle`` for export target ``to`` (it can ``write()`` itself)."""
    return exporter(to)(puzzle, **options)


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
    from ..cli.common import read_records
    records = list(read_records(args))
    if args.number < 1 or args.number > len(records):
        raise UsageError(f"--number {args.number}: the input holds {len(records)} puzzle(s)")
    record = records[args.number - 1]
    if record.error is not None:
        raise record.error
    options = {k: getattr(args, k) for k in ("encoding", "amo") if getattr(args, k, None)}
    _write(artifact_for(record.puzzle, args.to, **options).write(), args.output)
    return EXIT_OK


def cmd_solve_xc(args) -> int:
    from ..solvers.registry import make_engine
    from ..solvers.base import Deadline, check_time_limit, normalise_limit
    from .exact_cover import read_knuth
    normalise_limit(args.limit)
    check_time_limit(args.time_limit)
    source = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
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
    from ..cli.common import add_input_arguments
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
