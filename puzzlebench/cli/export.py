"""``puzzlebench export`` (a puzzle in a solver's own format, from the encoders' registry)
and ``solve-xc`` (any exact-cover matrix in Knuth's format, puzzle or not)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

from ..encoders.cnf import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS
from ..encoders.registry import FORMATS, artifact_for, check_exportable, text_pieces
from ..errors import UsageError
from ..options import COUNT, LIMIT, MEMORY, SHOW, TIME
from ..outputs import check_output, open_output
from ..runtime.child import check_memory_limit
from .common import (EXIT_OK, Tally, add_input_arguments, read_records, read_text, record_error_text,
                     report_error)

SPLIT = "mzn+dzn"
"""``export --to mzn+dzn -o DIR``: every puzzle of the input as a ``.dzn`` beside its kind's
MiniZinc model (``KIND.mzn``, written once), in a folder."""


def _write(text: str | Iterable[str], output: str | None, inputs: list[str]) -> None:
    pieces = (text,) if isinstance(text, str) else text   # written as they come, never joined
    if output and output != "-":
        with open_output(output, "-o", inputs) as stream:
            stream.writelines(pieces)
    else:
        sys.stdout.writelines(pieces)


def cmd_export(args) -> int:
    if args.to == SPLIT:
        return _export_split(args)
    if args.output and args.output != "-":
        check_output(args.output, "-o", args.files)
    if args.to == "minizinc-model" and not args.files and not args.example:
        if not args.kind:
            raise UsageError("no input: name puzzle files, '-' for standard input, --example NAME, or "
                             "--kind KIND for that kind's model")
        from ..encoders.minizinc import kind_model
        from ..models.kinds import kind_class
        _write(kind_model(kind_class(args.kind), args.to), args.output, args.files)
        return EXIT_OK
    number = 1 if args.number is None else args.number
    held = 0
    for held, record in enumerate(read_records(args), start=1):   # read up to the one exported
        if held == number:
            break
    else:
        raise UsageError(f"--number {number}: the input holds {held} puzzle{'' if held == 1 else 's'}")
    if record.error is not None:
        raise record.error
    options = {k: getattr(args, k) for k in ("encoding", "amo") if getattr(args, k, None) is not None}
    memory_limit = check_memory_limit(args.memory_limit)
    _write(text_pieces(artifact_for(record.puzzle, args.to, memory_limit=memory_limit, **options)), args.output, args.files)
    return EXIT_OK


def _export_split(args) -> int:
    """Every puzzle of the input (or the ``--number``-th) as ``DIR/KIND-K.dzn`` (K: its place in
    the input, as ``--number`` counts), each kind's model as ``DIR/KIND.mzn``; a puzzle that
    cannot be read or exported is reported and the others written (exit 1)."""
    from ..encoders.minizinc import data_file, kind_model
    if not args.output or args.output == "-":
        raise UsageError(f"--to {SPLIT} writes a folder of files: name it with -o DIR")
    if args.encoding is not None or args.amo is not None:
        raise UsageError(f"export target {SPLIT!r} takes no option")
    folder = Path(args.output)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the folder {folder}: {exc.strerror}") from None
    tally = Tally()
    models: set[str] = set()
    for k, record in enumerate(read_records(args), start=1):
        if args.number is not None and k != args.number:
            continue
        if record.error is not None:
            report_error(record_error_text(record))
            tally.add("error", error=True)
            continue
        puzzle = record.puzzle
        try:
            check_exportable(puzzle, SPLIT)
            data = data_file(puzzle, SPLIT)
            model = None if puzzle.kind in models else kind_model(type(puzzle), SPLIT)
        except UsageError as exc:
            report_error(f"{record.source}: error: {exc}")
            tally.add("error", error=True)
            continue
        if model is not None:
            _write(model, str(folder / f"{puzzle.kind}.mzn"), args.files)
            models.add(puzzle.kind)
        _write(data, str(folder / f"{puzzle.kind}-{k}.dzn"), args.files)
        tally.add("written")
    if args.number is not None and tally.records == 0:
        raise UsageError(f"--number {args.number}: the input holds fewer puzzles")
    kinds = ", ".join(f"{kind}.mzn" for kind in sorted(models)) or "no model"
    print(f"{folder}: {kinds}; {tally.counts.get('written', 0)} .dzn file(s), {tally.errors} error(s)")
    return tally.exit_code()


def cmd_solve_xc(args) -> int:
    from ..encoders.exact_cover import read_knuth
    from ..runtime.limits import Deadline, check_time_limit, normalise_limit
    from ..engines.registry import make_engine
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
                   help=f"export target: {', '.join(sorted(FORMATS))}; {SPLIT} (with -o DIR: each "
                        f"kind's MiniZinc model KIND.mzn and a KIND-K.dzn per puzzle); minizinc-model "
                        f"with --kind and no input: that kind's model")
    p.add_argument("--number", type=COUNT, default=None, metavar="K",
                   help=f"which puzzle of the input to export (1-based); default 1 ({SPLIT}: every one)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output "
                                                          f"({SPLIT}: the folder)")
    p.add_argument("--encoding", metavar="NAME", help=f"dimacs: CNF encoding ({', '.join(ENCODINGS)}); "
                                                       f"default {DEFAULT_ENCODING}")
    p.add_argument("--amo", metavar="NAME", help=f"dimacs: at-most-one encoding ({', '.join(AMO_ENCODINGS)}); "
                                                  f"default {DEFAULT_AMO}")
    p.add_argument("--memory-limit", type=MEMORY, metavar="MB",
                   help="what the dimacs and dlx exports may take (MB of 2^20 bytes), estimated "
                        "before they are made; default 2048")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("solve-xc", help="solve an exact-cover matrix in Knuth's DLX format "
                                        "(items line, one option a line, item:color)")
    p.add_argument("file", metavar="FILE", help="the matrix ('-' for standard input)")
    p.add_argument("--limit", type=LIMIT, default=0, help="solutions to look for (0 = all); default 0")
    p.add_argument("--show", type=SHOW, default=10, help="solutions to print; default %(default)s")
    p.add_argument("--solver", default="dlx", help="dlx (C) or dlx-py; default %(default)s")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS", help="for the whole search (default: none)")
    p.set_defaults(func=cmd_solve_xc)
