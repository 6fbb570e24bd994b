"""The puzzle sub-commands: ``solve``, ``count``, ``check``, ``show``, ``solvers``.

Input: files (``-`` for standard input), many puzzles per file, or ``--example NAME``; with
neither, ``solve`` and ``show`` take the default example, so the first command works with no
data at hand.  Output: ``--format text`` for people, ``--format jsonl`` for one JSON object
per input puzzle.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Iterator

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


def read_records(args) -> Iterator[Record]:
    """Every puzzle of the inputs named by ``args``, or the error that stopped it."""
    from .models import reader
    if getattr(args, "example", None):
        from .models import examples
        if args.example == "list":
            raise UsageError("examples: " + ", ".join(sorted(examples.EXAMPLES)))
        yield Record(f"example:{args.example}", examples.example(args.example))
        return
    files = args.files or []
    if not files:
        default = getattr(args, "default_example", None)
        if default:
            from .models import examples
            yield Record(f"example:{default}", examples.example(default))
            return
        raise UsageError("no input: name puzzle files, '-' for standard input, or --example NAME")
    for name in files:
        source = "<stdin>" if name == "-" else name
        try:
            data = sys.stdin.buffer.read() if name == "-" else open(name, "rb").read()
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror}") from None
        try:
            text = reader.decode_bytes(data, source, strict=False)
        except PuzzleError as exc:
            yield Record(source, error=exc)
            continue
        start = time.perf_counter()
        for item in reader.read_puzzles(text, source, kind=args.kind, box=args.box):
            now = time.perf_counter()
            if isinstance(item, Puzzle):
                yield Record(item.source or source, puzzle=item, parse_time=now - start)
            else:
                yield Record(f"{item.source or source}:{item.line}" if item.line else source, error=item)
            start = time.perf_counter()


def solve_records(records: list[Record], args) -> list[Result]:
    """Results in input order: parse errors as error results, the rest solved by one engine
    (in one batch call where the engine has one)."""
    limit = api.normalise_limit(args.limit)
    api.check_time_limit(args.time_limit)
    from .harness.registry import make_engine
    engine = make_engine(args.solver)
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
    if fmt == "jsonl":
        print(json.dumps(res.to_dict()), flush=False)
        return
    if res.status is Status.ERROR:
        print(f"{res.source}: error: {res.error}")
        return
    stats = " ".join(f"{k}={v}" for k, v in res.stats.normalised().items() if v is not None)
    head = (f"{res.source}: {res.status} count={res.count} "
            f"time={res.times.total * 1000:.2f}ms {stats}").rstrip()
    if alone and res.solutions:
        print(head)
        print(res.puzzle.pretty(res.solutions[0]))
    else:
        print(head + (f" {res.solution}" if res.solution else ""))


def summary_line(results: list[Result]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[str(r.status)] = counts.get(str(r.status), 0) + 1
    total = sum(r.times.total for r in results)
    parts = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    return f"{len(results)} puzzles: {parts}; {total:.3f}s in all"


def exit_code(results: list[Result]) -> int:
    if all(r.puzzle is None for r in results):  # nothing usable: not one puzzle could be read
        return EXIT_USAGE
    return EXIT_SOME_ERRORS if any(r.status is Status.ERROR for r in results) else EXIT_OK


def cmd_solve(args) -> int:
    api.normalise_limit(args.limit)  # the options first: a usage error reads no input
    api.check_time_limit(args.time_limit)
    records = list(read_records(args))
    results = solve_records(records, args)
    for res in results:
        print_result(res, args.format, alone=len(results) == 1)
    if len(results) > 1 and args.format == "text":
        print(summary_line(results), file=sys.stderr)
    return exit_code(results)


def cmd_check(args) -> int:
    """Lines ``puzzle solution``: list every rule each solution breaks."""
    bad = errors = 0
    for rec in read_records(args):
        if rec.puzzle is None:
            errors += 1
            _emit(args.format, rec.source, "error", [str(rec.error)])
            continue
        text = rec.puzzle.metadata.get("solution")
        if not text:
            errors += 1
            _emit(args.format, rec.source, "error", ["no solution given after the puzzle"])
            continue
        try:
            problems = rec.puzzle.check(rec.puzzle.parse_solution(text))
        except PuzzleError as exc:
            problems = [exc.message]
        bad += bool(problems)
        _emit(args.format, rec.source, "invalid" if problems else "valid", problems)
    return EXIT_SOME_ERRORS if bad or errors else EXIT_OK


def _emit(fmt: str, source: str, verdict: str, problems: list[str]) -> None:
    if fmt == "jsonl":
        print(json.dumps({"source": source, "verdict": verdict, "problems": problems}))
    else:
        print(f"{source}: {verdict}" + "".join(f"\n  {p}" for p in problems))


def cmd_show(args) -> int:
    errors = 0
    for rec in read_records(args):
        if rec.puzzle is None:
            errors += 1
            print(f"{rec.source}: error: {rec.error.message}")
            continue
        p = rec.puzzle
        inferred = " (block shape inferred)" if getattr(p, "box_inferred", False) else ""
        print(f"{rec.source}: {p.kind} {p.shape}{inferred}")
        print(p.pretty())
        print()
    return EXIT_SOME_ERRORS if errors else EXIT_OK


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
