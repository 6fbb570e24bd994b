"""The harness's sub-commands: ``bench`` (and its campaigns), ``generate``.

``puzzlebench bench FILE… --solvers a,b,c`` runs every pair in worker processes with hard time
limits, verifies and stores every answer, cross-checks the solvers and prints the table;
with no file it runs the embedded default set through every available engine
(``puzzlebench report``, in :mod:`.report`, reads the database back).
``puzzlebench generate KIND`` writes seeded puzzles, one per line (Latin squares: a ``.pls``
block each).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from pathlib import Path

from ..errors import UsageError
from ..options import AMOUNT, COUNT, FINITE, FRACTION, JOBS, LIMIT, MEMORY, REPEAT, SEED, SIZE, TIME
from ..harness.bench import DEFAULT_LIMIT, DEFAULT_TIME_LIMIT, BenchConfig, command_line, run_bench
from ..harness.campaign import load_campaign
from ..harness.generate import GENERATED_KINDS, GENERATED_SIZES, LARGE_GRID, SHAPED_BY_BOX, SLOW_FROM
from ..harness.dask_executor import open_executor, parse_executor_spec
from ..harness.inputs import check_set_names, from_puzzles, read_file, sample, scramble_items, set_name
from ..harness.sets import SetOrigin, file_origin
from ..models.reader import Record
from ..harness.report import median_runs, render, summarise
from ..models.kinds import KIND_NAMES
from ..models.nqueens import NQueens
from ..models.sudoku import DIGITS, MAX_VALUES, box_is_inferred, parse_box, self_describing_form
from ..solvers import registry
from ..solvers.base import check_time_limit
from ..solvers.child import check_memory_limit
from ..solvers.clock import check_clock
from ..solvers.registry import engine_class
from .common import EXIT_OK, add_clock_arguments, add_engine_seed_argument, check_box, check_input_options
from .rate import LADDER_SECONDS   # rate's time limit and its default

DEFAULT_SET_TIME_LIMIT = 2.0


# -- bench -------------------------------------------------------------------------------------

def _solver_list(args) -> list[str]:
    specs = []
    for text in args.solvers or []:
        specs += [s.strip() for s in text.split(",") if s.strip()]
    specs += args.solver or []
    return specs


_FAMILY_NAME = re.compile(r"[A-Za-z_][\w+-]*")


def _extra_engines(args) -> dict[str, str]:
    """``--engine NAME=module:Class``: NAME must be a family name that no built-in engine has
    (``=a:b`` was taken with no name, ``x:y=...`` was then unknown as ``x``, and ``mrv=...``
    stored another class's results under the built-in mrv's name)."""
    out: dict[str, str] = {}
    for text in args.engine or []:
        name, eq, target = text.partition("=")
        name = name.strip()
        if not eq or ":" not in target:
            raise UsageError(f"--engine {text!r}: expected NAME=module:Class")
        if not _FAMILY_NAME.fullmatch(name):
            raise UsageError(f"--engine {text!r}: NAME is what --solvers calls it: a letter, then letters, "
                             f"digits, '_', '-' or '+'; got {name!r}")
        if name in registry.FAMILIES:
            raise UsageError(f"--engine {text!r}: {name} is a built-in engine's name; call the class another")
        if name in out:
            raise UsageError(f"--engine {text!r}: {name} is named twice")
        out[name] = target.strip()
    return out


def available_families(engines: dict[str, str] | None = None) -> list[str]:
    """Every registered family that can run here (and every extra one)."""
    out = []
    for family in [*registry.FAMILIES, *(engines or {})]:
        try:
            cls = engine_class(family, engines)
        except Exception:
            continue
        if cls.unavailable_reason() is None:
            out.append(family)
    return out


def default_items(seed: int = 1) -> list[Record]:
    """The embedded default set: famous puzzles (the examples of ``puzzlebench.models``) and
    small generated ones of every kind and a few block shapes."""
    from ..harness.generate import generate
    items: list[Record] = []
    try:
        from ..models import examples
        famous = [examples.example(name) for name in sorted(examples.EXAMPLES)]
    except ImportError:
        famous = []
    by_kind: dict[str, list] = {}
    for puzzle in famous:
        by_kind.setdefault(puzzle.kind, []).append(puzzle)
    for kind, puzzles in by_kind.items():
        items += from_puzzles(f"famous-{kind}", puzzles)
    items += from_puzzles("generated-sudoku-4x4", generate("sudoku", 3, seed, box=(2, 2)))
    items += from_puzzles("generated-sudoku-6x6", generate("sudoku", 3, seed, box=(2, 3)))
    items += from_puzzles("generated-sudoku-9x9", generate("sudoku", 3, seed, box=(3, 3)))
    items += from_puzzles("generated-skyscrapers-5x5", generate("skyscrapers", 3, seed, size=5))
    items += from_puzzles("generated-nqueens-10", generate("nqueens", 3, seed, size=10, placed=2))
    return items


def cmd_bench(args) -> int:
    if args.campaign:
        return _cmd_campaign(args)
    engines = _extra_engines(args)
    solvers = _solver_list(args)
    check_time_limit(args.time_limit)
    check_clock(args.clock, args.time_limit, args.wall_limit)
    memory_limit = check_memory_limit(args.memory_limit)
    executor_spec = parse_executor_spec(args.executor or "local")
    if executor_spec.is_dask and args.jobs is not None:
        raise UsageError(f"--jobs is for the local pool; --executor {args.executor} runs on the cluster's workers")
    check_input_options(args)
    box = check_box(args.box)
    seed = args.seed if args.seed is not None else 0
    origins = {}
    if args.files:
        check_set_names(args.files)
        items = []
        for name in args.files:
            records, origin = _sampled(name, args.kind, box, args.sample, seed, args.scramble)
            items += records
            origins[set_name(name)] = origin
        if args.scramble:   # over every file at once: a set of another kind beside Sudoku is a warning
            items = scramble_items(items, seed)
        time_limit = args.time_limit or DEFAULT_TIME_LIMIT
    else:
        items = default_items()
        time_limit = args.time_limit or DEFAULT_SET_TIME_LIMIT
        solvers = solvers or available_families(engines)
    if not solvers:
        raise UsageError("no solvers: give --solvers a,b,c or --solver SPEC; known: "
                         + ", ".join(sorted({*registry.FAMILIES, *engines})))
    db = args.db
    temporary = None
    if db is None:
        if args.files:
            raise UsageError("--db PATH is needed to keep the results (e.g. --db bench.sqlite)")
        temporary = tempfile.TemporaryDirectory(prefix="puzzlebench-")
        db = os.path.join(temporary.name, "default.sqlite")
    limit = DEFAULT_LIMIT if args.limit is None else None if args.limit == 0 else args.limit
    cfg = BenchConfig(solvers=solvers, db=db, limit=limit, time_limit=time_limit, memory_limit=memory_limit,
                      clock=args.clock, wall_limit=args.wall_limit,
                      repeat=1 if args.repeat is None else args.repeat, jobs=args.jobs,
                      resume=args.resume, quiet=args.quiet, seed=seed, engines=engines,
                      engine_seed=args.engine_seed, warmup=args.warmup,
                      command=command_line(), settings={"files": args.files, "sample": args.sample,
                                                        "scramble": args.scramble, "kind": args.kind,
                                                        "box": args.box, "executor": args.executor or "local"},
                      origins=origins)
    executor = open_executor(executor_spec)  # before anything is stored: an unreachable cluster stores nothing
    try:
        outcome = run_bench(items, cfg, executor=executor)
        table = render(summarise(median_runs(outcome.results)), args.format)
    finally:
        if executor is not None:
            executor.close()
        if temporary is not None:
            temporary.cleanup()
    print(table, end="")
    return _told(outcome, cfg, "" if temporary is None else "(temporary)")


def _sampled(path: str, kind, box, size: int | None, seed: int, scrambled: bool) -> tuple[list, SetOrigin]:
    """A file's records as a bench takes them (sampled; scrambled later, over every file),
    and their origin, which names their set."""
    records = read_file(path, kind=kind, box=box)
    taken = sample(records, size, seed)
    return taken, file_origin(path, size if len(taken) < len(records) else None, seed, scrambled)


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _told(outcome, cfg: BenchConfig, where: str = "", head: str = "") -> int:
    """What a bench did, on stderr (its wrong answers and disagreements line by line); its
    exit code."""
    skipped = f", {outcome.skipped} already in the database" if outcome.skipped else ""
    memouts = f"{_counted(outcome.memouts, 'memout')}, " if cfg.memory_limit is not None or outcome.memouts else ""
    print(f"puzzlebench: {head}{_counted(outcome.ran, 'run')} in {outcome.seconds:.1f}s{skipped}; "
          f"{_counted(outcome.timeouts, 'timeout')}, {memouts}{_counted(outcome.errors, 'error')}; "
          f"results in {where or cfg.db}", file=sys.stderr)
    for line in outcome.wrong:
        print(f"puzzlebench: WRONG ANSWER: {line}", file=sys.stderr)
    if outcome.disagreements:
        print(f"puzzlebench: {len(outcome.disagreements)} DISAGREEMENTS between solvers:", file=sys.stderr)
        for d in outcome.disagreements:
            print(f"  {d}", file=sys.stderr)
    return outcome.exit_code


CAMPAIGN_SETS = {"files": "FILE", "solvers": "--solvers", "solver": "--solver", "limit": "--limit",
                 "time_limit": "--time-limit", "memory_limit": "--memory-limit", "repeat": "--repeat",
                 "kind": "--kind", "box": "--box", "sample": "--sample", "seed": "--seed", "scramble": "--scramble"}
"""What a campaign file states: not given again on the command line (where and how it runs,
``--db``, ``--jobs``, ``--executor``, ``--resume``, may be)."""


def _cmd_campaign(args) -> int:
    """``bench --campaign FILE``: every set of the campaign (``harness/campaign.py``) as one
    bench, in order, into one database; one table of them all at the end."""
    for name, option in CAMPAIGN_SETS.items():
        if getattr(args, name):
            raise UsageError(f"{option} is stated by the campaign file {args.campaign}; leave it out")
    engines = _extra_engines(args)
    campaign = load_campaign(args.campaign, engines)
    db = args.db or campaign.db
    if db is None:
        raise UsageError(f"the campaign {args.campaign} names no db = \"...\": give one there or --db PATH")
    executor_text = args.executor or campaign.executor or "local"
    executor_spec = parse_executor_spec(executor_text)
    jobs = args.jobs if args.jobs is not None else campaign.jobs
    if executor_spec.is_dask and jobs is not None:
        raise UsageError(f"jobs is for the local pool; the executor {executor_text} runs on the cluster's workers")
    benches = []
    for run in campaign.sets:  # everything read and checked before the first run stores anything
        items, origin = _sampled(run.file, run.kind, parse_box(run.box), run.sample, run.seed, run.scramble)
        if run.scramble:
            items = scramble_items(items, run.seed, f"{args.campaign}: the set {run.file}: scramble")
        cfg = BenchConfig(solvers=run.solvers, db=db, limit=run.limit, time_limit=run.time_limit,
                          memory_limit=check_memory_limit(run.memory_limit_mb), repeat=run.repeat, jobs=jobs,
                          clock=args.clock, wall_limit=args.wall_limit,
                          resume=args.resume, quiet=args.quiet, seed=run.seed, engines=engines,
                          engine_seed=args.engine_seed, warmup=args.warmup, command=command_line(),
                          settings={"campaign": args.campaign, "files": [run.file], "sample": run.sample,
                                    "scramble": run.scramble, "kind": run.kind, "box": run.box,
                                    "executor": executor_text},
                          origins={set_name(run.file): origin})
        benches.append((items, cfg))
    code, results = EXIT_OK, []
    for n, (items, cfg) in enumerate(benches, 1):
        executor = open_executor(executor_spec)
        try:
            outcome = run_bench(items, cfg, executor=executor)
        finally:
            if executor is not None:
                executor.close()
        results += outcome.results
        code = max(code, _told(outcome, cfg, head=f"[{n}/{len(benches)}] {Path(cfg.settings['files'][0]).name}: "))
    print(render(summarise(median_runs(results)), args.format), end="")
    return code


# -- generate ----------------------------------------------------------------------------------

GENERATE_OPTIONS = {   # the kinds an option of generate shapes; any other refuses it
    "box": SHAPED_BY_BOX, "clues": ("sudoku",), "check_seconds": ("sudoku",),
    "size": tuple(k for k in GENERATED_KINDS if k not in SHAPED_BY_BOX),
    "remove": ("skyscrapers",), "placed": ("nqueens",), "holes": ("latin",), "balanced": ("latin",)}
GENERATE_DEFAULTS = {"remove": 0.5, "placed": 0, "holes": 0.42}


def _check_generate_options(args) -> None:
    """An option the kind takes no notice of is refused (``generate sudoku --size 4`` wrote a
    9x9, silently), then the defaults of those left out are filled in."""
    for name, kinds in GENERATE_OPTIONS.items():
        if getattr(args, name) not in (None, False) and args.kind not in kinds:
            option = f"--{name.replace('_', '-')}"
            hint = (f": its shape is --box RxC (--box 2x2 for 4x4, 3x3 for 9x9)" if name == "size"
                    else f": it goes with generate {', '.join(kinds)}")
            raise UsageError(f"{option} does not go with generate {args.kind}{hint}")
    for name, value in GENERATE_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)


def cmd_generate(args) -> int:
    from ..harness.generate import generate
    from ..harness.latin_squares import check_qwh_arguments
    from ..harness.progress import Progress
    _check_generate_options(args)
    box = parse_box(args.box) if args.box else (3, 3)
    size = args.size if args.size is not None else GENERATED_SIZES.get(args.kind, 6)
    if args.kind == "latin":
        check_qwh_arguments(size, args.holes)   # before the output file is made
    if (args.kind == "sudoku" and self_describing_form(box) == "line" and not box_is_inferred(box)
            and box[0] * box[1] <= MAX_VALUES):
        print(f"puzzlebench: warning: --box {box[0]}x{box[1]}: a grid of {box[0] * box[1]} values is written as numbers, "
              f"which name no block shape: read it back with --box {box[0]}x{box[1]}", file=sys.stderr)
    slow, measured = SLOW_FROM.get(args.kind, (size + 1, ""))
    if slow <= size <= len(DIGITS):
        print(f"puzzlebench: warning: a {args.kind} of size {size} takes minutes a puzzle (each uniqueness "
              f"check is a hard search; {measured})", file=sys.stderr)
    if args.kind == "nqueens":
        NQueens(size)   # its size checked first: the random solution recursed a level a row (99999: a traceback)
    rated = _rating_target(args, box)
    if args.check_seconds is not None and not args.check_seconds > 0:
        raise UsageError(f"--check-seconds must be more than 0; got {args.check_seconds:g}")
    out = _OutFile(args.out) if args.out else sys.stdout
    if rated:
        return _generate_rated(args, out)
    label = f"{args.kind} {size}x{size}" if args.kind == "latin" else args.kind
    cells = box[0] * box[1] * box[0] * box[1] if args.kind == "sudoku" else 0
    if cells:  # a large Sudoku takes minutes: the bar counts the clues tried, a puzzle's cells each
        label = f"sudoku {box[0] * box[1]}x{box[0] * box[1]}, clues tried"
    progress = Progress(args.count * (cells or 1), [label], sys.stderr, enabled=not args.quiet)
    on_cell = (lambda: progress.update(label, "sat")) if cells else None
    try:
        for index, puzzle in enumerate(generate(args.kind, args.count, args.seed, box=box, clues=args.clues, size=size,
                               remove=args.remove, placed=args.placed, holes=args.holes,
                               balanced=args.balanced, check_seconds=args.check_seconds,
                               on_cell=on_cell, memory_limit=check_memory_limit(args.memory_limit)), 1):
            print(_generated_text(args, puzzle, index), file=out, flush=True)
            if cells:   # a pass stopped at --clues leaves cells untried: the bar goes on to this puzzle's end
                progress.update_many(label, index * cells - progress.done, 0, 0)
            else:
                progress.update(label, "sat")
            undecided = puzzle.metadata.get("undecided") if args.kind == "sudoku" else None
            if undecided:
                print(f"puzzlebench: warning: puzzle {index}: {undecided} clues kept undecided (their check "
                      f"passed --check-seconds {args.check_seconds:g}): unique, but not proven minimal",
                      file=sys.stderr)
    finally:
        progress.finish()
        if args.out:
            out.close()
    return EXIT_OK


RATING_OPTIONS = ("rating_min", "rating_max", "technique")
RATING_ONLY = ("attempts", "rating_seconds")   # meaningful only with a rating target


def _rating_target(args, box) -> bool:
    """Whether generation aims at a rating; the options checked before any output is made."""
    from ..harness.generate import RATING_SCALE, check_rating_arguments
    given = [f"--{o.replace('_', '-')}" for o in RATING_OPTIONS if getattr(args, o) is not None]
    if not given:
        for o in RATING_ONLY:
            if getattr(args, o) is not None:
                raise UsageError(f"--{o.replace('_', '-')} goes with --rating-min, --rating-max or --technique")
        return False
    if args.kind != "sudoku":
        raise UsageError(f"{given[0]} goes with generate sudoku, not {args.kind}")
    if box != (3, 3):
        raise UsageError(f"{given[0]}: rated generation is for 9x9 Sudoku (3x3 blocks), the ladder's size; "
                         f"got --box {box[0]}x{box[1]}")
    if args.clues is not None:
        raise UsageError(f"{given[0]} and --clues do not go together: rated puzzles are minimal")
    args.rating_min = RATING_SCALE[0] if args.rating_min is None else args.rating_min
    args.rating_max = RATING_SCALE[1] if args.rating_max is None else args.rating_max
    check_rating_arguments(args.rating_min, args.rating_max, args.technique)
    return True


def _generate_rated(args, out) -> int:
    """``generate sudoku --rating-min/--rating-max/--technique``: each line the puzzle, its
    solution and its score; the bar counts the candidates tried, the found ones as a column."""
    from ..harness.generate import ATTEMPTS_PER_PUZZLE, generate_rated_sudoku
    from ..harness.progress import Progress
    budget = args.attempts or ATTEMPTS_PER_PUZZLE * args.count
    progress = Progress(budget, ["tried", "found"], sys.stderr, enabled=not args.quiet)

    def on_attempt(kept: bool) -> None:
        progress.update("tried", "sat")
        if kept:
            progress.per_solver["found"][0] += 1
    try:
        for puzzle in generate_rated_sudoku(args.count, args.seed, args.rating_min, args.rating_max,
                                            technique=args.technique, attempts=budget,
                                            check_seconds=args.check_seconds,
                                            rating_seconds=args.rating_seconds, on_attempt=on_attempt):
            print(f"{puzzle.write()} {puzzle.metadata['solution']} {puzzle.metadata['rating']}",
                  file=out, flush=True)
    finally:
        progress.finish()
        if args.out:
            out.close()
    return EXIT_OK


class _OutFile:
    """``generate --out FILE``: checked writable at once, but emptied only when the first puzzle
    is written, so that an argument the generator refuses (a size, a shape, --clues) leaves an
    existing file as it was (it was emptied) and a new one is not left behind empty."""

    def __init__(self, path: str) -> None:
        self.path, self.existed = path, os.path.exists(path)
        try:
            self.file = open(path, "a")   # "a": writable, created if new, not truncated yet
        except OSError as exc:
            raise UsageError(f"--out {path}: cannot write there: {exc.strerror}") from None
        self.written = False

    def write(self, text: str) -> int:
        if not self.written:
            self.file.truncate(0)
            self.written = True
        return self.file.write(text)

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        self.file.close()
        if not self.written and not self.existed:
            with contextlib.suppress(OSError):
                os.remove(self.path)


def _generated_text(args, puzzle, index: int) -> str:
    """A generated puzzle as the reader reads it back, with its solution for ``check``: one
    line, or (a Latin square) a ``.pls`` block under a comment saying what it is, its solution
    after a line ``solution``, with a blank line after it."""
    if args.kind == "latin":
        n, holes = puzzle.n, int(puzzle.metadata["holes"])
        pattern = "balanced" if args.balanced else "uniform"
        square = puzzle.parse_solution(puzzle.metadata["solution"])
        return (f"# QWH order {n}: {holes} holes ({holes / (n * n):.1%}, {pattern}), seed {args.seed}, {index} of {args.count}\n"
                f"{puzzle.write_with_solution(square)}\n")
    line = puzzle.write()
    if puzzle.metadata.get("solution") and args.kind != "skyscrapers":
        line += " " + puzzle.metadata["solution"]   # `check` reads the line back
    return line


def register(sub) -> None:
    p = sub.add_parser("bench", help="run puzzles x solvers side by side, verified, cross-checked, stored",
                       description="Run puzzles x solvers side by side in worker processes with hard "
                                   "time limits: every answer verified, the solvers cross-checked, every "
                                   "result stored in a SQLite database as it comes (--resume runs only "
                                   "what is missing).")
    p.add_argument("files", nargs="*", metavar="FILE", help="puzzle files, '-' for standard input (none: the embedded default set)")
    p.add_argument("--solvers", action="append", metavar="A,B,C", help="solver specs, comma-separated")
    p.add_argument("--solver", action="append", metavar="SPEC", help="one solver spec (repeat; for specs with options)")
    p.add_argument("--engine", action="append", metavar="NAME=module:Class",
                   help="bench an engine class outside the registry under NAME (repeat)")
    p.add_argument("--campaign", metavar="FILE.toml",
                   help="a whole benchmark stated in one TOML file: sets, solvers, limits, repeats "
                        "(see results/campaign.toml)")
    p.add_argument("--limit", type=LIMIT, help=f"solutions to look for (0 = all); default {DEFAULT_LIMIT}")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS",
                   help=f"per puzzle (default {DEFAULT_TIME_LIMIT:g}; {DEFAULT_SET_TIME_LIMIT:g} for the default set)")
    add_clock_arguments(p)
    p.add_argument("--memory-limit", type=MEMORY, metavar="MB",
                   help="per run, above each worker's idle baseline (a bare number: MB of 2^20 bytes; or "
                        "512MiB, 2GiB, 1.5GB); past it: memout")
    p.add_argument("--repeat", type=REPEAT, metavar="K",
                   help="run each (puzzle, solver) pair K times (at most 1,000), each run stored; reports take "
                        "the median run")
    add_engine_seed_argument(p, "; repetition r of --repeat gets N + r - 1")
    p.add_argument("--warmup", type=AMOUNT, default=0, metavar="K",
                   help="each worker first runs the first K puzzles with each engine, stored as warm-up and left "
                        "out of every report (a library's first solve: CP-SAT's takes about 2 s); default 0")
    p.add_argument("--jobs", type=JOBS, help="worker processes (default: the cores here; at most 8 a core)")
    p.add_argument("--executor", metavar="SPEC",
                   help="where the work runs: local (worker processes here, the default), dask://HOST:PORT "
                        "(a running Dask scheduler) or dask-local:N (a Dask cluster of N processes here); "
                        "Dask needs pip install puzzlebench[cluster]")
    p.add_argument("--db", metavar="PATH", help="the results database (SQLite)")
    p.add_argument("--kind", choices=KIND_NAMES, help="the puzzle kind of the files")
    p.add_argument("--box", metavar="RxC", help="Sudoku block shape: rows x columns of a block")
    p.add_argument("--sample", type=COUNT, metavar="K", help="a reproducible sample of K puzzles per file")
    p.add_argument("--seed", type=SEED, help="seed of --sample and --scramble (default 0)")
    p.add_argument("--scramble", action="store_true", help="apply random Sudoku symmetries to every Sudoku (other kinds run as read, "
                        "with a warning; a set with no Sudoku is refused)")
    p.add_argument("--resume", action="store_true", help="run only the pairs not already in the database")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--format", choices=("md", "csv", "latex", "json"), default="md", help="table format")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("generate", help="seeded puzzles: Sudoku of any block shape, Skyscrapers, N-Queens completion, "
                                        "Latin squares with holes (QWH), and proper Sudoku-X, jigsaw, Killer, "
                                        "Futoshiki and KenKen (written as Simon Tatham's game ids)")
    p.add_argument("kind", choices=GENERATED_KINDS, help="the kind of puzzle to generate")
    p.add_argument("--count", type=COUNT, default=10, help="how many puzzles (default %(default)s)")
    p.add_argument("--seed", type=SEED, default=0,
                   help="random seed: the same seed, the same puzzles (default %(default)s)")
    p.add_argument("--box", metavar="RxC", help="Sudoku, Sudoku-X and Killer block shape (default 3x3)")
    p.add_argument("--clues", type=AMOUNT, help="Sudoku: this many clues (default: minimal)")
    p.add_argument("--size", type=SIZE, help="Skyscrapers N (default 6), N-Queens n (default 8), Latin square "
                                            "order (1..64, default 30), jigsaw N (default 9), Futoshiki N "
                                            "(default 5) or KenKen N (default 6)")
    p.add_argument("--remove", type=FRACTION, help="Skyscrapers: share of clues to remove (0..1, default 0.5)")
    p.add_argument("--placed", type=AMOUNT, help="N-Queens: pre-placed queens (default 0)")
    p.add_argument("--holes", type=FRACTION,
                   help="Latin: share of the cells emptied, 0..1 (default 0.42, near the hardest)")
    p.add_argument("--check-seconds", type=TIME, metavar="S",
                   help="Sudoku: time limit of each uniqueness check; a clue whose removal is not decided "
                        "in time is kept (unique, not proven minimal); default none (from "
                        f"{LARGE_GRID} values the counter's quick look, then a SAT solver, on each check)")
    p.add_argument("--balanced", action="store_true",
                   help="Latin: as many holes in every row and column (Kautz et al. 2001), not uniform")
    p.add_argument("--rating-min", type=FINITE, metavar="X",
                   help="Sudoku 9x9: only puzzles rated X or more (rate's default score, SE scale 1-12)")
    p.add_argument("--rating-max", type=FINITE, metavar="Y", help="Sudoku 9x9: only puzzles rated Y or less")
    p.add_argument("--technique", metavar="NAME",
                   help="Sudoku 9x9: only puzzles whose explanation (rate --explain) uses this technique")
    p.add_argument("--attempts", type=COUNT, metavar="N",
                   help="with a rating target: puzzles tried at most (default 200 per puzzle asked)")
    p.add_argument("--rating-seconds", type=TIME, metavar="SECONDS",
                   help=f"with a rating target: rate's --time-limit for each rating (default {LADDER_SECONDS:g}; 0: none)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--memory-limit", type=MEMORY, metavar="MB",
                   help="what a uniqueness check's encoding may take (MB of 2^20 bytes), estimated before "
                        "it is made; default 2048")
    p.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(func=cmd_generate)
