"""The harness's sub-command ``bench`` (and its campaigns).

``puzzlebench bench FILE… --solvers a,b,c`` runs every pair in worker processes with hard time
limits, verifies and stores every answer, cross-checks the solvers and prints the table;
with no file it runs the embedded default set through every available engine
(``puzzlebench report``, in :mod:`.report`, reads the database back).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

from ..engines import registry
from ..engines.registry import engine_class
from ..errors import UsageError
from ..harness.bench import DEFAULT_LIMIT, DEFAULT_TIME_LIMIT, BenchConfig, command_line, run_bench
from ..harness.campaign import load_campaign
from ..harness.dask_executor import open_executor, parse_executor_spec
from ..harness.inputs import check_set_names, from_puzzles, read_file, sample, scramble_items, set_name
from ..harness.report import brief, median_runs, render, standard_metrics, summarise
from ..harness.sets import SetOrigin, file_origin
from ..models.kinds import KIND_NAMES
from ..models.reader import Record
from ..models.sudoku import parse_box
from ..options import AMOUNT, COUNT, JOBS, LIMIT, MEMORY, REPEAT, SEED, TIME
from ..outputs import check_not_input
from ..runtime.child import check_memory_limit
from ..runtime.clock import check_clock
from ..runtime.limits import check_time_limit
from .common import EXIT_OK, add_certify_arguments, add_clock_arguments, add_engine_seed_argument, check_box, check_input_options

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
    from ..generators import generate
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
    else:
        check_not_input(db, "--db", args.files)
    limit = DEFAULT_LIMIT if args.limit is None else None if args.limit == 0 else args.limit
    cfg = BenchConfig(solvers=solvers, db=db, limit=limit, time_limit=time_limit, memory_limit=memory_limit,
                      clock=args.clock, wall_limit=args.wall_limit,
                      repeat=1 if args.repeat is None else args.repeat, jobs=args.jobs,
                      resume=args.resume, quiet=args.quiet, seed=seed, engines=engines,
                      engine_seed=args.engine_seed, warmup=args.warmup, certify=args.certify,
                      proof_dir=args.proof_dir,
                      command=command_line(), settings={"files": args.files, "sample": args.sample,
                                                        "scramble": args.scramble, "kind": args.kind,
                                                        "box": args.box, "executor": args.executor or "local"},
                      origins=origins)
    executor = open_executor(executor_spec)  # before anything is stored: an unreachable cluster stores nothing
    try:
        outcome = run_bench(items, cfg, executor=executor)
        table = _table(outcome.results, args)
    finally:
        if executor is not None:
            executor.close()
        if temporary is not None:
            temporary.cleanup()
    print(table, end="")
    return _told(outcome, cfg, "" if temporary is None else "(temporary)")


def _table(results: list, args) -> str:
    """The table a bench prints: by default (md) the brief one a 100-column terminal holds;
    ``--wide`` or another format, every column of the summary."""
    rows = median_runs(results)
    if args.format == "md" and not args.wide:
        return brief(summarise(rows), standard_metrics(rows))
    return render(summarise(rows), args.format)


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
    if outcome.uncertified:
        print(f"puzzlebench: {_counted(len(outcome.uncertified), 'claim')} not certified:", file=sys.stderr)
        for line in outcome.uncertified:
            print(f"  {line}", file=sys.stderr)
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
    check_not_input(db, "--db" if args.db else "db", [args.campaign, *(run.file for run in campaign.sets)])
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
                          engine_seed=args.engine_seed, warmup=args.warmup or campaign.warmup,
                          certify=args.certify or campaign.certify, proof_dir=args.proof_dir,
                          command=command_line(),
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
    print(_table(results, args), end="")
    return code


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
                        "(see benchmarks/campaigns/)")
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
    add_certify_arguments(p)
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
    p.add_argument("--format", choices=("md", "csv", "latex", "json"), default="md",
                   help="table format (md: per set and solver the puzzles solved, the median time, the shifted "
                        "geometric mean and the peak memory, 100 columns wide; csv, latex, json: every column)")
    p.add_argument("--wide", action="store_true",
                   help="md: every column of the summary and the search statistics (as `report` shows them)")
    p.set_defaults(func=cmd_bench)
