"""The puzzle sub-commands: ``solve``, ``count``, ``check``, ``show``, ``solvers``.

Input: files (``-`` for standard input), many puzzles per file, or ``--example NAME``; with
neither, ``solve`` and ``show`` take the default example, so the first command works with no
data at hand.  Output: ``--format text`` for people, ``--format jsonl`` for one JSON object
per input puzzle.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import select
import sys
import time
from dataclasses import dataclass
from typing import Iterable, Iterator

from . import api
from .errors import PuzzleError, UsageError
from .harness.registry import DEFAULT_SOLVER, FAMILIES, engine_class
from .models.base import Puzzle
from .results import Result, Status, Times, error_result

EXIT_OK, EXIT_SOME_ERRORS, EXIT_USAGE = 0, 1, 2


@dataclass
class Record:
    """One input puzzle as read: the puzzle, or the error that stopped it, and where."""

    source: str
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    parse_time: float = 0.0


def add_input_arguments(p: argparse.ArgumentParser, *, example: bool = True) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="puzzle files ('-' for standard input)")
    if example:
        p.add_argument("--example", metavar="NAME", help="an embedded example puzzle (see --example list)")
    p.add_argument("--kind", choices=("sudoku", "nqueens", "skyscrapers"),
                   help="the puzzle kind, where it cannot be inferred")
    p.add_argument("--box", metavar="RxC", help="Sudoku block shape: rows x columns of a block (2x3)")


def add_solver_arguments(p: argparse.ArgumentParser, default_limit: int | None) -> None:
    p.add_argument("--solver", default=DEFAULT_SOLVER, metavar="SPEC",
                   help="family[:variant][@key=value;…] (see `puzzlebench solvers`); default %(default)s")
    p.add_argument("--limit", type=int, default=default_limit,
                   help="solutions to look for (0 = all); default %(default)s")
    p.add_argument("--time-limit", type=float, metavar="SECONDS", help="per puzzle")
    p.add_argument("--keep", type=int, default=api.DEFAULT_KEEP, help="solutions kept per puzzle")
    p.add_argument("--format", choices=("text", "jsonl"), default="text")


BATCH = 1000   # puzzles solved and answered at a time: memory holds one batch of a stream


def read_records(args) -> Iterator[Record]:
    """Every puzzle of the inputs named by ``args`` (``--example`` first, then the files, in
    order), or the error that stopped it, read as a stream."""
    from .models import examples, reader
    if getattr(args, "example", None):
        if args.example == "list":
            raise UsageError("--example list is a listing, not an input")
        yield Record(f"example:{args.example}", examples.example(args.example))
    files = args.files or []
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
    from .models import reader
    start = time.perf_counter()
    try:
        for item in reader.read_puzzles(text_lines(stream, source), source, kind=args.kind, box=args.box):
            now = time.perf_counter()
            if isinstance(item, Puzzle):
                yield Record(item.source or source, puzzle=item, parse_time=now - start)
            else:
                yield Record(f"{item.source or source}:{item.line}" if item.line else source, error=item)
            start = time.perf_counter()
    except OSError as exc:   # a folder, a device that fails mid-read
        raise UsageError(f"cannot read {source}: {exc.strerror or exc}") from None


def text_lines(stream, source: str) -> Iterator[str]:
    """The lines of a binary stream as text.  Bytes that are not UTF-8 stay in the line (as
    surrogate escapes) so that the reader reports that line as an error of its own and the
    other lines still run; a byte-order mark at the start is dropped."""
    first = True
    for raw in stream:
        line = raw.decode("utf-8", errors="surrogateescape")
        if first and line.startswith("\ufeff"):
            line = line[1:]
        first = False
        yield line


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


def solve_records(records: list[Record], engine, args) -> list[Result]:
    """Results in input order: parse errors as error results, the rest solved by one engine
    (in one batch call where the engine has one)."""
    limit = api.normalise_limit(args.limit)
    puzzles = [r.puzzle for r in records if r.puzzle is not None]
    solved = iter(engine.run_many(puzzles, limit=limit, time_limit=args.time_limit, keep=args.keep))
    out = []
    for rec in records:
        if rec.puzzle is None:
            out.append(error_result(str(rec.error), solver=engine.spec, limit=limit, source=rec.source,
                                    times=Times()))
        else:
            res = next(solved)
            res.times.parse = rec.parse_time
            res.times.total += rec.parse_time
            out.append(res)
    return out


def print_result(res: Result, fmt: str, alone: bool) -> None:
    """A result on standard output: a JSON object, or a line (and, for a puzzle written on
    several lines, or a puzzle alone, its solution below in the input's own form)."""
    if fmt == "jsonl":
        print(json.dumps(res.to_dict()), flush=False)
        return
    if res.status is Status.ERROR:
        print(error_text(res))
        return
    stats = " ".join(f"{k}={v}" for k, v in res.stats.normalised().items() if v is not None)
    head = (f"{res.source}: {res.status} count={res.count} "
            f"time={res.times.total * 1000:.2f}ms {stats}").rstrip()
    if not res.solutions:
        print(head)
        return
    written = res.puzzle.write_solution(res.solutions[0])
    if "\n" in written:
        print(head)
        print(written + ("" if alone else "\n"))
    elif alone and res.puzzle.form in ("line", "numbers"):
        print(head + " " + written)
        print(res.puzzle.pretty(res.solutions[0]))
    else:
        print(head + " " + written)


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

    def summary(self, noun: str = "puzzle") -> str:
        parts = ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()))
        plural = "" if self.records == 1 else "s"
        return f"{self.records} {noun}{plural}: {parts}; {self.seconds:.3f}s in all"

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


def cmd_solve(args) -> int:
    if getattr(args, "example", None) == "list":
        return print_examples()
    api.normalise_limit(args.limit)  # the options first: a usage error reads no input
    api.check_time_limit(args.time_limit)
    api.check_keep(args.keep)
    from .harness.registry import make_engine
    engine = make_engine(args.solver)
    tally = Tally()
    first = True
    for batch in batches(read_records(args)):
        results = solve_records(batch, engine, args)
        alone = first and len(results) == 1 and len(args.files or []) <= 1 and args.files != ["-"]
        for res in results:
            print_result(res, args.format, alone=alone)
            failed = res.status is Status.ERROR
            if failed:
                report_error(error_text(res))
            tally.add(str(res.status), error=failed, seconds=res.times.total)
        sys.stdout.flush()
        first = False
    if tally.records > 1 or tally.errors:
        print(f"puzzlebench: {tally.summary()}", file=sys.stderr)
    return tally.exit_code()


def print_examples() -> int:
    from .models import examples
    for name in sorted(examples.EXAMPLES):
        print(f"{name}: {examples.example(name).kind} {examples.example(name).shape}")
    return EXIT_OK


def cmd_check(args) -> int:
    """Lines ``puzzle solution``: list every rule each solution breaks."""
    tally, invalid = Tally(), 0
    for rec in read_records(args):
        if rec.puzzle is None:
            _emit(args.format, rec.source, "error", [str(rec.error)], record_error_text(rec))
            tally.add("error", error=True)
            continue
        text = rec.puzzle.metadata.get("solution")
        if not text:
            problem = "no solution given after the puzzle"
            _emit(args.format, rec.source, "error", [problem], f"{rec.source}: error: {problem}")
            tally.add("error", error=True)
            continue
        try:
            problems = rec.puzzle.check(rec.puzzle.parse_solution(text))
        except PuzzleError as exc:
            problems = [exc.message]
        invalid += bool(problems)
        verdict = "invalid" if problems else "valid"
        _emit(args.format, rec.source, verdict, problems)
        tally.add(verdict)
    if tally.records > 1 or tally.errors:
        print(f"puzzlebench: {tally.summary('record')}", file=sys.stderr)
    return tally.exit_code(failed=invalid)


def _emit(fmt: str, source: str, verdict: str, problems: list[str], error: str = "") -> None:
    if fmt == "jsonl":
        print(json.dumps({"source": source, "verdict": verdict, "problems": problems}))
    elif error:
        print(error)
    else:
        print(f"{source}: {verdict}" + "".join(f"\n  {p}" for p in problems))
    if error:
        report_error(error)


def cmd_show(args) -> int:
    if getattr(args, "example", None) == "list":
        return print_examples()
    tally = Tally()
    for rec in read_records(args):
        if rec.puzzle is None:
            text = record_error_text(rec)
            print(text)
            report_error(text)
            tally.add("error", error=True)
            continue
        p = rec.puzzle
        inferred = " (block shape inferred)" if getattr(p, "box_inferred", False) else ""
        print(f"{rec.source}: {p.kind} {p.shape}{inferred}")
        print(p.pretty())
        print()
        tally.add("shown")
    return tally.exit_code()


def statistics_markdown() -> str:
    """docs/STATISTICS.md: what every engine counts for each shared column (made by
    ``puzzlebench solvers --statistics``; a test keeps the file equal to it)."""
    from .results import STATISTICS
    out = ["# The shared statistics, engine by engine", "",
           "Made by `puzzlebench solvers --statistics`. A number in a shared column means the same "
           "thing for every engine, or it is left empty (—) for an engine that has no such counter; "
           "each engine's own counters stay, unrenamed, under `raw`.", ""]
    out += [f"- **{name}**: {text}." for name, text in STATISTICS.items()]
    out += ["", "| engine | " + " | ".join(STATISTICS) + " |",
            "|---|" + "---|" * len(STATISTICS)]
    for family in FAMILIES:
        mapping = engine_class(family).statistics
        cells = [mapping.get(name, "—").replace("|", "\\|").replace("\n", " ") for name in STATISTICS]
        out.append(f"| `{family}` | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def cmd_solvers(args) -> int:
    if args.statistics:
        sys.stdout.write(statistics_markdown())
        return EXIT_OK
    rows = []
    for family in FAMILIES:
        cls = engine_class(family)
        reason = cls.unavailable_reason()
        rows.append({
            "solver": family,
            "summary": cls.summary,
            "kinds": sorted(cls.kinds),
            "variants": list(cls.variants),
            "options": [{"name": o.name, "type": o.type.__name__, "default": o.default,
                         "help": o.help, **({"choices": list(o.choices)} if o.choices else {})}
                        for o in cls.options],
            "statistics": cls.statistics,
            "library": cls.library or "puzzlebench",
            "version": cls.version(),
            "available": reason is None,
            "reason": reason,
            **({"left_out": cls.left_out()} if hasattr(cls, "left_out") else {}),
        })
    if args.format == "jsonl":
        for row in rows:
            print(json.dumps(row))
        return EXIT_OK
    for row in rows:
        state = "available" if row["available"] else f"NOT available: {row['reason']}"
        print(f"{row['solver']}  ({row['library']} {row['version']}, {state})")
        print(f"    {row['summary']}")
        print(f"    kinds: {', '.join(row['kinds'])}")
        if row["variants"]:
            print(f"    variants: {', '.join(row['variants'])} (default {row['variants'][0]})")
        for o in row["options"]:
            choices = f" [{'|'.join(map(str, o['choices']))}]" if "choices" in o else ""
            print(f"    @{o['name']}={o['default']}{choices}: {o['help']}")
        for name, why in row.get("left_out", {}).items():
            print(f"    left out: {name}: {why}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve puzzles (limit 2: find one, prove it unique)")
    add_input_arguments(p)
    add_solver_arguments(p, default_limit=2)
    p.set_defaults(func=cmd_solve, default_example="arto-inkala")

    p = sub.add_parser("count", help="count every solution (or up to --limit)")
    add_input_arguments(p)
    add_solver_arguments(p, default_limit=0)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("check", help="check lines 'puzzle solution' and list every broken rule")
    add_input_arguments(p, example=False)
    p.add_argument("--format", choices=("text", "jsonl"), default="text")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("show", help="pretty-print puzzles")
    add_input_arguments(p)
    p.set_defaults(func=cmd_show, default_example="arto-inkala")

    p = sub.add_parser("solvers", help="every engine, its kinds, variants, options and availability")
    p.add_argument("--format", choices=("text", "jsonl"), default="text")
    p.add_argument("--statistics", action="store_true",
                   help="what each engine counts in each shared statistic (markdown)")
    p.set_defaults(func=cmd_solvers)
