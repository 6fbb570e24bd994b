"""The puzzle sub-commands: ``solve``, ``count``, ``check``, ``show``, ``solvers``.

Input: files (``-`` for standard input), many puzzles per file, or ``--example NAME``; with
neither, ``solve`` and ``show`` take the default example, so the first command works with no
data at hand.  Output: ``--format text`` for people, ``--format jsonl`` for one JSON object
per input puzzle; ``show --format svg|html`` draws the puzzles (their kinds' SVG).
"""

from __future__ import annotations

import json
import os
import re
import sys

from .. import api
from ..engines.certify import claims_absence
from ..engines.registry import FAMILIES, engine_class
from ..errors import PuzzleError, UsageError
from ..models.kinds import kind_entry
from ..models.svg import gallery_page
from ..options import THREADS
from ..outputs import check_output, write_output
from ..results import Result, Status, Times, error_result
from ..runtime.child import check_memory_limit
from ..runtime.clock import check_clock
from ..runtime.limits import Interrupted
from .common import (EXIT_OK, Record, Tally, add_input_arguments, add_solver_arguments, batches, error_text,
                     read_records, record_error_text, report_error)


def solve_records(records: list[Record], choose, args) -> list[Result]:
    """Results in input order: parse errors as error results, the rest each solved by
    ``choose(its kind)``, the puzzles of one engine in one batch call where it has one."""
    limit = api.normalise_limit(args.limit)
    puzzles = [r.puzzle for r in records if r.puzzle is not None]
    stopped = None
    try:
        solved = api.run_each(choose, puzzles, limit=limit, time_limit=args.time_limit, keep=args.keep,
                              memory_limit=check_memory_limit(args.memory_limit), clock=args.clock,
                              wall_limit=args.wall_limit)
    except Interrupted as exc:   # a Ctrl-C: the results up to it, then stop
        solved, stopped = exc.done, exc
    solved = iter(solved)
    out = []
    for rec in records:
        if rec.puzzle is None:
            out.append(error_result(str(rec.error), solver=choose(args.kind or "sudoku").spec, limit=limit,
                                    source=rec.source, times=Times()))
        else:
            res = next(solved, None)
            if res is None:   # interrupted before this puzzle was answered
                break
            res.times.parse = rec.parse_time
            res.times.total += rec.parse_time
            out.append(res)
    if stopped is not None:
        raise Interrupted(out)
    return out


def uncertified(res: Result) -> str | None:
    """Why a certified run's claim of absence stands unproved (``None``: it is proved, or
    makes none)."""
    cert = res.certificate
    if cert is None or cert.status == "verified":
        return None
    return f"{cert.status}: {cert.reason or 'no reason given'}"


def print_result(res: Result, fmt: str, alone: bool, listed: bool = False) -> None:
    """A result on standard output: a JSON object, or a line (and, for a puzzle written on
    several lines, or a puzzle alone, its solution below in the input's own form); ``listed``
    (``count``): every solution kept after the first, one a line, and how many were not kept."""
    if fmt == "jsonl":
        print(json.dumps(res.to_dict()), flush=False)
        return
    if res.status is Status.ERROR:
        print(error_text(res))
        return
    stats = " ".join(f"{k}={v}" for k, v in res.stats.normalised().items() if v is not None)
    certificate = "" if res.certificate is None else f" certificate={res.certificate.status}"
    head = (f"{res.source}: {res.status}{certificate} count={res.count} "
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
    if listed:
        _list_solutions(res)


def _list_solutions(res: Result) -> None:
    for k, solution in enumerate(res.solutions[1:], start=2):
        written = res.puzzle.write_solution(solution)
        print(f"solution {k}:\n{written}\n" if "\n" in written else f"solution {k}: {written}")
    more = res.count - len(res.solutions)
    if more > 0:
        print(f"… {more} more not kept (--keep K lists K)")


def cmd_solve(args) -> int:
    if getattr(args, "example", None) == "list":
        return print_examples()
    api.normalise_limit(args.limit)  # the options first: a usage error reads no input
    api.check_time_limit(args.time_limit)
    check_clock(args.clock, args.time_limit, args.wall_limit)
    check_memory_limit(args.memory_limit)
    api.check_keep(args.keep)
    choose = api.engine_chooser(args.solver, args.engine_seed, args.certify, args.proof_dir, args.threads,
                                "--threads")
    tally, not_certified, certified = Tally(), 0, Tally()
    first = True
    for batch in batches(read_records(args)):
        stopped = None
        try:
            results = solve_records(batch, choose, args)
        except Interrupted as exc:   # Ctrl-C: every answer finished is printed, then the command stops
            results, stopped = exc.done, exc
        alone = first and len(results) == 1 and len(args.files or []) <= 1 and args.files != ["-"]
        for res in results:
            print_result(res, args.format, alone=alone, listed=args.list_solutions)
            failed = res.status is Status.ERROR
            if failed:
                report_error(error_text(res))
            elif args.certify and uncertified(res):
                report_error(f"{res.source}: {res.status} not certified: {uncertified(res)}")
                not_certified += 1
            elif not args.certify and choose(res.kind).family == "ext" and claims_absence(res):
                print(f"puzzlebench: warning: {res.source}: {res.status} is the program's word alone "
                      "(--certify proves it)", file=sys.stderr)
            tally.add(str(res.status), error=failed, seconds=res.times.total)
            if res.certificate is not None:
                certified.add(res.certificate.status,
                              seconds=(res.certificate.prove_seconds or 0) + (res.certificate.check_seconds or 0))
        sys.stdout.flush()
        if stopped is not None:
            raise stopped   # "puzzlebench: interrupted", exit 130
        first = False
    if tally.records > 1 or tally.errors:
        said = certificates_said(certified) if args.certify and tally.records > tally.errors else ""
        print(f"puzzlebench: {tally.summary(also=said)}", file=sys.stderr)
    return tally.exit_code(failed=not_certified)


def certificates_said(certified: Tally) -> str:
    """The summary's word on a certified run: its claims' certificates by status and the time
    they took (proof and check), which the solve times leave out."""
    if not certified.records:
        return "; no claim of absence to certify"
    return f"; certificates: {certified.counts_said()}, proved and checked in {certified.seconds:.3f}s"


def print_examples() -> int:
    from ..models import examples
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
            problem = rec.puzzle.missing_solution
            other = rec.puzzle.metadata.get("field2")   # a Sudoku's next field, not N² values: a cut or
            if other is not None:                       # mistyped solution, not "no solution given"
                shown = other if len(other) <= 24 else other[:20] + "…"
                problem = (f"no solution after the puzzle: the next field, {shown!r} ({len(other)} characters), "
                           f"is not {len(rec.puzzle.givens)} values")
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
        print(f"puzzlebench: {tally.summary('record', timed=False)}", file=sys.stderr)
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
    if args.format != "text":
        return show_drawings(args)
    if args.out is not None:
        raise UsageError("--out is for --format svg (a directory) or html (a file); text goes to standard output")
    tally = Tally()
    for rec in read_records(args):
        if rec.puzzle is None:
            text = record_error_text(rec)
            print(text)
            report_error(text)
            tally.add("error", error=True)
            continue
        p = rec.puzzle
        print(f"{rec.source}: {p.kind} {p.shape}{_inferred(p)}")
        print(p.pretty())
        solution = _solution(p, args.solve)
        if solution is not None:
            print("solution:\n" + p.pretty(solution))
        print()
        tally.add("shown")
    return tally.exit_code()


def _inferred(puzzle) -> str:
    return " (block shape inferred)" if getattr(puzzle, "box_inferred", False) else ""


def _solution(puzzle, solve: bool):
    """With ``--solve``: a solution by the default engine (none if it finds none in
    ``SOLVE_SECONDS``), to draw beside the givens."""
    if not solve:
        return None
    result = api.solve(puzzle, limit=1, time_limit=SOLVE_SECONDS)
    return result.solutions[0] if result.solutions else None


SOLVE_SECONDS = 10.0


def show_drawings(args) -> int:
    """``--format svg``: one SVG a puzzle, to standard output (one puzzle) or a file each in
    ``--out DIR``; ``--format html``: one page of every puzzle, to standard output or ``--out``."""
    _check_out(args.format, args.out, args.files)
    records = list(read_records(args))
    if args.format == "svg" and args.out is None and len(records) > 1:
        raise UsageError(f"show --format svg: {len(records)} puzzles; give --out DIR for a file each, "
                         "or use --format html for one page")
    tally = Tally()
    figures = []
    for rec in records:
        if rec.puzzle is None:
            text = record_error_text(rec)
            report_error(text)
            figures.append((text, None))
            tally.add("error", error=True)
            continue
        p = rec.puzzle
        solution = _solution(p, args.solve)
        caption = f"{rec.source}: {p.kind} {p.shape}{_inferred(p)}" + (" (solved)" if solution is not None else "")
        figures.append((caption, kind_entry(p.kind).draw(p, solution)))
        tally.add("shown")
    if args.format == "html":
        _write(args.out, gallery_page(_title(args), figures), args.files)
    elif args.out is None:
        for _, drawing in figures:
            if drawing is not None:
                print(drawing)
    else:
        _write_each(args.out, records, figures, args.files)
    return tally.exit_code()


def _check_out(fmt: str, out: str | None, inputs: list[str]) -> None:
    """An output path of the wrong sort, or an input's, refused before any puzzle is read."""
    if out is not None and fmt == "svg" and os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out}: a file; --format svg writes a file a puzzle into a directory")
    if out is not None and fmt == "html" and os.path.isdir(out):
        raise UsageError(f"--out {out}: a directory; --format html writes one page: give its file name")
    if out is not None and fmt == "html":
        check_output(out, "--out", inputs)


def _title(args) -> str:
    return "puzzlebench: " + (", ".join(args.files) if args.files else f"example {args.example or args.default_example}")


def _write(out: str | None, text: str, inputs: list[str]) -> None:
    if out is None:
        sys.stdout.write(text)
    else:
        write_output(out, text, "--out", inputs)


def _write_each(out: str, records, figures, inputs: list[str]) -> None:
    """A file a drawing in the directory ``out``: ``NNN-SOURCE.svg``, in input order."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot make a directory there: {exc.strerror}") from None
    for k, (rec, (_, drawing)) in enumerate(zip(records, figures), start=1):
        if drawing is not None:
            _write(os.path.join(out, f"{k:03d}-{_slug(rec.source)}.svg"), drawing, inputs)


def _slug(source: str) -> str:
    """``data/set.txt:12`` → ``set.txt-12``: a file name that says where the puzzle was read."""
    return re.sub(r"[^A-Za-z0-9._]+", "-", os.path.basename(source)).strip("-") or "puzzle"


def statistics_markdown() -> str:
    """docs/STATISTICS.md: what every engine counts for each shared column (made by
    ``puzzlebench solvers --statistics``; a test keeps the file equal to it)."""
    from ..results import STATISTICS
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
            "seed": cls.seed_parameter,
            "library": cls.library or "puzzlebench",
            "version": cls.version(),
            "available": reason is None,
            "reason": reason,
            **({"left_out": cls.left_out()} if hasattr(cls, "left_out") else {}),
            **({"notes": cls.variant_notes()} if hasattr(cls, "variant_notes") else {}),
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
        print(f"    engine seed: {row['seed'] or 'takes none (its results record no seed)'}")
        for o in row["options"]:
            choices = f" [{'|'.join(map(str, o['choices']))}]" if "choices" in o else ""
            print(f"    @{o['name']}={o['default']}{choices}: {o['help']}")
        for name, note in row.get("notes", {}).items():
            print(f"    {name}: {note}")
        for name, why in row.get("left_out", {}).items():
            print(f"    left out: {name}: {why}")
    return EXIT_OK


def add_threads_argument(p) -> None:
    p.add_argument("--threads", type=THREADS, default=1, metavar="N",
                   help="native threads each batch of puzzles is split over (0: every core), for the "
                        "engines with a native batch call (bitboard and dlx, on Sudoku); the same "
                        "answers in the same order; default %(default)s")


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve puzzles (limit 2: find one, prove it unique)")
    add_input_arguments(p)
    add_solver_arguments(p, default_limit=2)
    add_threads_argument(p)
    p.set_defaults(func=cmd_solve, default_example="arto-inkala", list_solutions=False)

    p = sub.add_parser("count", help="count every solution (or up to --limit)")
    add_input_arguments(p)
    add_solver_arguments(p, default_limit=0, keep_help="solutions kept and listed per puzzle")
    add_threads_argument(p)
    p.set_defaults(func=cmd_solve, list_solutions=True)

    p = sub.add_parser("check", help="check lines 'puzzle solution' and list every broken rule",
                       description="Check lines 'puzzle solution' (a Latin square: its rows, a line "
                                   "'solution', the solution's rows) and list every broken rule.")
    add_input_arguments(p, example=False)
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text: a verdict a record and the broken rules; jsonl: a JSON object a record "
                        "(default %(default)s)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("show", help="pretty-print or draw puzzles")
    add_input_arguments(p)
    p.add_argument("--format", choices=("text", "svg", "html"), default="text",
                   help="text: the grid as text; svg: a drawing a puzzle (several: with --out DIR); html: "
                        "one self-contained page of every drawing (default %(default)s)")
    p.add_argument("--out", metavar="PATH", help="svg: a directory, a file a puzzle; html: the page's file "
                                                 "(default: standard output)")
    p.add_argument("--solve", action="store_true",
                   help=f"draw a solution too, by the default engine (none found in {SOLVE_SECONDS:g} s: the givens alone)")
    p.set_defaults(func=cmd_show, default_example="arto-inkala")

    p = sub.add_parser("solvers", help="every engine, its kinds, variants, options and availability")
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text: a table; jsonl: a JSON object an engine (default %(default)s)")
    p.add_argument("--statistics", action="store_true",
                   help="what each engine counts in each shared statistic (markdown)")
    p.set_defaults(func=cmd_solvers)
