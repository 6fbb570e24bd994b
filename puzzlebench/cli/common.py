"""What every command shares: the exit codes, reading puzzle inputs (files, standard input,
embedded examples) as a stream of records, and saying what went wrong.

One rule for every command's exit code: 0 every record processed; 1 some records failed (the
rest were processed); 2 a usage error, or nothing usable (every record an error, or none).
Each failed record is written to standard output as that command writes records, and once to
standard error (``puzzlebench: file:line:column: error: problem``), with a summary line.
"""

from __future__ import annotations

import argparse
import contextlib
import select
import signal
import sys
from typing import Iterable, Iterator

from .. import api
from ..engines.base import DEFAULT_ENGINE_SEED
from ..errors import UsageError
from ..models.kinds import KIND_NAMES
from ..models.reader import Record
from ..options import BOX, ENGINE_SEED, KEEP, LIMIT, MEMORY, TIME
from ..results import Result
from ..runtime.clock import CLOCKS

EXIT_OK, EXIT_SOME_ERRORS, EXIT_USAGE = 0, 1, 2
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE   # what a Unix tool killed by SIGPIPE shows its shell (141)
BATCH = 1000   # puzzles solved and answered at a time: memory holds one batch of a stream
def add_input_arguments(p: argparse.ArgumentParser, *, example: bool = True) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="puzzle files ('-' for standard input)")
    if example:
        p.add_argument("--example", metavar="NAME", help="an embedded example puzzle (see --example list)")
    p.add_argument("--kind", choices=KIND_NAMES,
                   help="the puzzle kind, where it cannot be inferred")
    p.add_argument("--box", metavar="RxC", help="Sudoku block shape: rows x columns of a block (2x3)")


def add_clock_arguments(p: argparse.ArgumentParser) -> None:
    """``--clock`` and ``--wall-limit``: the clock a time limit is held on (bench, solve, count)."""
    p.add_argument("--clock", choices=CLOCKS, default="wall",
                   help="the clock of the time limit: wall (default) or cpu, the CPU time of the run's "
                        "processes (the engine's and every program it starts)")
    p.add_argument("--wall-limit", type=TIME, metavar="SECONDS",
                   help="with --clock cpu: a wall-clock limit beside it, for a run that sleeps (default "
                        "1.5 x the time limit + 1 s)")


def add_solver_arguments(p: argparse.ArgumentParser, default_limit: int | None,
                         keep_help: str = "solutions kept per puzzle") -> None:
    p.add_argument("--solver", metavar="SPEC",
                   help="family[:variant][@key=value;…] (see `puzzlebench solvers`); default: bitboard "
                        "where it takes the puzzle's kind, else mrv")
    p.add_argument("--limit", type=LIMIT, default=default_limit,
                   help="solutions to look for (0 = all); default %(default)s")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS", help="per puzzle (900, 15min, 1.5h)")
    add_clock_arguments(p)
    p.add_argument("--memory-limit", type=MEMORY, metavar="MB",
                   help="per puzzle, above the idle baseline of the process that runs the engine (a bare "
                        "number: MB of 2^20 bytes; or 512MiB, 2GiB, 1.5GB); past it: memout")
    p.add_argument("--keep", type=KEEP, default=api.DEFAULT_KEEP, help=f"{keep_help}; default %(default)s")
    add_engine_seed_argument(p)
    add_certify_arguments(p)
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text: a line a puzzle (its solution below it when alone); jsonl: a JSON "
                        "object a puzzle, every field of its result (default %(default)s)")


def add_certify_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--certify", action="store_true",
                   help="prove each claim that no (other) solution exists (unsat, unique, a complete "
                        "count) with a DRAT proof (the engine's own where it writes one, else a SAT "
                        "solver's) and check it; a claim not certified makes the command exit 1")
    p.add_argument("--proof-dir", metavar="DIR",
                   help="with --certify: keep each claim's formula (DIMACS) and proof (DRAT) in DIR")


def add_engine_seed_argument(p: argparse.ArgumentParser, more: str = "") -> None:
    p.add_argument("--engine-seed", type=ENGINE_SEED, default=DEFAULT_ENGINE_SEED, metavar="N",
                   help="random seed given to the engines that take one (see `puzzlebench solvers`); "
                        f"default %(default)s{more}")


def check_box(text: str | None) -> tuple[int, int] | None:
    """``--box RxC`` read once: a malformed one is one usage error, not one a puzzle (98,316
    lines for the 17-clue set)."""
    return None if text is None else BOX.read(text, "block shape")


def check_input_options(args) -> None:
    """``--kind`` and ``--box`` say how to read files: with no file (an ``--example``, a
    default input) they would be ignored, and ``--box`` is a block shape, of no kind without
    blocks (``--kind nqueens --box 3x3`` would read as if it were not given): both refused."""
    example, kind, box = getattr(args, "example", None), getattr(args, "kind", None), getattr(args, "box", None)
    for option, value in (("--kind", kind), ("--box", box)):
        if value is not None and not args.files:
            raise UsageError(f"{option} does not go with --example: the example {example} has its own kind and "
                             f"shape (--kind and --box are for reading files)" if example else
                             f"{option} is for reading puzzle files, and none is named")
    from ..models.kinds import shaped_by_box
    if box is not None and kind is not None and kind not in shaped_by_box():
        raise UsageError(f"--box does not go with --kind {kind}: it is the block shape of "
                         f"{', '.join(shaped_by_box())}")


def read_records(args) -> Iterator[Record]:
    """Every puzzle of the inputs named by ``args`` (``--example`` first, then the files, in
    order), or the error that stopped it, read as a stream."""
    from ..models import examples
    check_input_options(args)
    if getattr(args, "example", None):
        if args.example == "list":
            raise UsageError("--example list is a listing, not an input")
        yield Record(f"example:{args.example}", examples.example(args.example))
    check_box(getattr(args, "box", None))
    files = args.files or []
    if files.count("-") > 1:   # the second would read an exhausted stream: "empty input", exit 1
        raise UsageError("- (standard input) is named twice: it can be read once")
    for name in files:   # every file opened first: one missing after others would be found only once
        if name != "-":  # their batch was read, and that batch would go unanswered (or half of it)
            try:
                open(name, "rb").close()
            except OSError as exc:
                raise UsageError(f"cannot read {name}: {exc.strerror}") from None
    if not files and not getattr(args, "example", None):
        default = getattr(args, "default_example", None)
        if not default:
            raise UsageError("no input: name puzzle files, '-' for standard input, or --example NAME")
        yield Record(f"example:{default}", examples.example(default))
    for name in files:
        source = "<stdin>" if name == "-" else name
        try:
            stream = sys.stdin.buffer if name == "-" else open(name, "rb")
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror}") from None
        with stream if name != "-" else contextlib.nullcontext(stream):
            yield from _records_of(stream, source, args)


def _records_of(stream, source: str, args) -> Iterator[Record]:
    from ..models import reader
    try:
        yield from reader.read_records(reader.text_lines(stream), source, kind=args.kind, box=args.box,
                                       prefer=getattr(args, "prefer", None))
    except OSError as exc:   # a folder, a device that fails mid-read
        raise UsageError(f"cannot read {source}: {exc.strerror or exc}") from None


def batches(records: Iterable[Record], size: int = BATCH) -> Iterator[list[Record]]:
    """Records in groups of up to ``size``; a group is also closed when standard input has
    nothing more to read at once, so that a puzzle typed at a terminal is answered at once."""
    batch: list[Record] = []
    for rec in records:
        batch.append(rec)
        if len(batch) >= size or (rec.source.startswith("<stdin>") and not _stdin_ready()):
            yield batch
            batch = []
    if batch:
        yield batch


def _stdin_ready() -> bool:
    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def record_error_text(rec: Record) -> str:
    """``file:line:column: error: problem`` for a record that could not be read."""
    err = rec.error
    return f"{err.place}: error: {err.message}" if err.place.source else f"{rec.source}: error: {err.message}"


def error_text(res: Result) -> str:
    """``place: error: problem``, the place said once (an error read from the input carries
    its own file:line:column; an engine's error is placed at its puzzle)."""
    error = res.error or ""
    if res.source and not error.startswith(res.source.rsplit(":", 1)[0] + ":"):
        return f"{res.source}: error: {error}"
    place, sep, problem = error.partition(": ")
    return f"{place}: error: {problem}" if sep else f"{res.source}: error: {error}"


class Tally:
    """What a command did with its records: counts by verdict and time, for the summary line
    and the exit code, kept without keeping the records."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.errors = self.records = 0
        self.seconds = 0.0

    def add(self, verdict: str, *, error: bool = False, seconds: float = 0.0) -> None:
        self.counts[verdict] = self.counts.get(verdict, 0) + 1
        self.records += 1
        self.errors += error
        self.seconds += seconds

    def summary(self, noun: str = "puzzle", timed: bool = True, also: str = "") -> str:
        """``N puzzles: counts by status; S s in all`` (``timed`` false: a command that times
        nothing, ``check``, whose "0.000s in all" read as a measure), ``also`` after the counts."""
        plural = "" if self.records == 1 else "s"
        return (f"{self.records} {noun}{plural}: {self.counts_said()}{also}"
                + (f"; {self.seconds:.3f}s in all" if timed else ""))

    def counts_said(self) -> str:
        """``3 unique, 1 unsat``: the counts by verdict, in the verdicts' order."""
        return ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()))

    def exit_code(self, failed: int = 0) -> int:
        """One rule for every command: 2 when nothing usable was read (every record an
        error), 1 when some records failed (errors, or ``failed`` others: invalid solutions),
        else 0."""
        if self.records == 0 or self.errors == self.records:
            return EXIT_USAGE
        return EXIT_SOME_ERRORS if self.errors or failed else EXIT_OK


def report_error(text: str) -> None:
    """A record's error on standard error too (one line), so that it shows when standard
    output goes to a file."""
    print(f"puzzlebench: {text}", file=sys.stderr, flush=True)


def read_text(path: str, expected: str = "puzzle text") -> tuple[str, str]:
    """A whole input file (``-``: standard input) as text, and its name for messages.  Bytes
    that are not UTF-8 text (or a NUL byte) are an error naming their line and column and
    what the file should hold (``expected``); so is an input past the bound of what is read
    whole (:data:`~puzzlebench.models.input_bounds.MAX_INPUT_BYTES`), a stream's as a file's."""
    from ..models.input_bounds import read_whole
    from ..models.reader import decode_bytes
    source = "<stdin>" if path == "-" else path
    try:
        with open(path, "rb") if path != "-" else contextlib.nullcontext(sys.stdin.buffer) as stream:
            data = read_whole(stream, source)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_bytes(data, source, expected=expected), source
