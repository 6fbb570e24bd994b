"""A bench: every (puzzle, solver) pair of its inputs, run by an executor, stored as it
finishes, cross-checked at the end.

The plan is made here (which pairs, in which units, what is already done with ``--resume``);
running is the executor's (:mod:`.runner`); storing the database's (:mod:`.database`).
Pairs whose puzzle kind an engine does not handle are not run (the table shows them as
absent, not as errors).  Units are sized from what each solver has shown so far: about a
fifth of a second of work, so that microsecond engines get thousands of puzzles per unit and
slow ones one at a time, and so that the last units are spread over every worker.
"""

from __future__ import annotations

import math
import shlex
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator, Mapping, TextIO

from ..errors import UsageError
from ..results import Status
from .crosscheck import Disagreement, crosscheck_db
from .database import INPUT_SOLVER, Database, TaskKey, limit_key
from .inputs import InputItem
from .progress import Progress
from ..solvers.base import check_time_limit, normalise_limit
from .runner import Executor, WorkUnit, has_batch_path, make_engine
from .workers import LocalExecutor, default_jobs

UNIT_SECONDS = 0.2
MAX_UNIT = 4096
DEFAULT_TIME_LIMIT = 10.0


@dataclass
class BenchConfig:
    solvers: list[str]
    db: str
    limit: int | None = 2
    time_limit: float = DEFAULT_TIME_LIMIT
    jobs: int | None = None
    resume: bool = False
    quiet: bool = False
    seed: int | None = None
    engines: Mapping[str, str] = field(default_factory=dict)
    command: str = ""
    settings: dict = field(default_factory=dict)


@dataclass
class BenchOutcome:
    run_id: int
    ran: int
    skipped: int
    wrong: list[str]
    errors: int
    timeouts: int
    disagreements: list[Disagreement]
    seconds: float
    db: str
    limit: int
    sets: list[str]
    solvers: list[str]
    ids: set = field(repr=False, default_factory=set)

    @property
    def exit_code(self) -> int:
        return 1 if self.wrong or self.disagreements or self.errors else 0

    @cached_property
    def results(self) -> list:
        """This bench's rows of the results table (those resumed from earlier runs included),
        read from the database when first asked for (a report, not part of the run)."""
        db = Database(self.db)
        try:
            rows = db.results(f"WHERE limit_ = ? AND set_name IN ({', '.join('?' * len(self.sets))})",
                              (self.limit, *self.sets))
        finally:
            db.close()
        solvers = set(self.solvers)
        return [r for r in rows if r["solver"] in solvers and (r["puzzle_id"], r["puzzle_hash"]) in self.ids]


def check_settings(cfg: BenchConfig, warn: TextIO) -> None:
    if cfg.time_limit is None:  # workers are killed past it: a bench cannot run without one
        raise UsageError("a bench needs a time limit (--time-limit SECONDS)")
    check_time_limit(cfg.time_limit)
    normalise_limit(cfg.limit)
    if cfg.jobs is not None and cfg.jobs < 1:
        raise UsageError(f"--jobs must be 1 or more; got {cfg.jobs}")
    cores = default_jobs()
    if cfg.jobs is not None and cfg.jobs > cores:
        print(f"puzzlebench: warning: --jobs {cfg.jobs} is more than the {cores} cores here: workers "
              "will share cores and every time measured will be inflated", file=warn)
    if not cfg.solvers:
        raise UsageError("no solvers: give --solvers a,b,c or --solver SPEC")


def resolve_solvers(specs: list[str], engines: Mapping[str, str]) -> dict[str, object]:
    """Canonical spec → engine, in the order given, duplicates dropped."""
    out: dict[str, object] = {}
    for spec in specs:
        engine = make_engine(spec, engines)
        out.setdefault(engine.spec, engine)
    return out


def engine_versions(engines: dict[str, object]) -> dict[str, dict]:
    return {spec: {"library": type(e).library or "puzzlebench", "version": type(e).version()}
            for spec, e in engines.items()}


class _Planner:
    """Hands out units lazily, round-robin over solvers, sized from each solver's pace."""

    def __init__(self, pending: dict[str, deque], engines: dict, cfg: BenchConfig, jobs: int, keep: int):
        self.pending = pending
        self.engines = engines
        self.cfg = cfg
        self.jobs = jobs
        self.keep = keep
        self.seconds: dict[str, float] = {s: 0.0 for s in pending}
        self.done: dict[str, int] = {s: 0 for s in pending}

    def observe(self, solver: str, seconds: float) -> None:
        self.seconds[solver] += seconds
        self.done[solver] += 1

    def _size(self, solver: str, batch: bool) -> int:
        left = len(self.pending[solver])
        if self.done[solver]:
            pace = max(self.seconds[solver] / self.done[solver], 1e-7)
            size = int(min(UNIT_SECONDS, self.cfg.time_limit / 2) / pace)
        else:
            size = 32 if batch else 1
        share = math.ceil(left / (2 * self.jobs))  # leave work for every worker at the end
        return max(1, min(size, MAX_UNIT, share))

    def units(self) -> Iterator[WorkUnit]:
        while any(self.pending.values()):
            for solver, queue in self.pending.items():
                if not queue:
                    continue
                batch = has_batch_path(self.engines[solver])
                size = self._size(solver, batch)
                tasks = [queue.popleft() for _ in range(min(size, len(queue)))]
                yield WorkUnit(solver, tasks, self.cfg.limit, self.cfg.time_limit, keep=self.keep,
                               batch=batch, engines=dict(self.cfg.engines))


def run_bench(items: list[InputItem], cfg: BenchConfig, *, executor: Executor | None = None,
              stderr: TextIO | None = None) -> BenchOutcome:
    stderr = stderr or sys.stderr
    check_settings(cfg, stderr)
    engines = resolve_solvers(cfg.solvers, cfg.engines)
    db = Database(cfg.db)
    started = time.perf_counter()
    try:
        return _run(items, cfg, engines, db, executor, stderr, started)
    finally:
        db.close()


def _run(items, cfg, engines, db, executor, stderr, started) -> BenchOutcome:
    jobs = cfg.jobs or default_jobs()
    limit = limit_key(cfg.limit)
    settings = {"limit": cfg.limit, "time_limit": cfg.time_limit, "jobs": jobs, "resume": cfg.resume,
                "solvers": list(engines), **cfg.settings}
    run_id = db.start_run(command=cfg.command, seed=cfg.seed, settings=settings,
                          engines=engine_versions(engines))
    done = db.done_keys() if cfg.resume else set()

    facts: list[tuple] = []     # per task id: the columns of its puzzle and solver
    parse_times: list[float] = []
    pending: dict[str, deque] = {spec: deque() for spec in engines}
    input_errors = []
    skipped = 0
    for item in items:
        if item.puzzle is None:
            if TaskKey(item.puzzle_id, "", INPUT_SOLVER, limit) in done:
                skipped += 1
                continue
            input_errors.append(_facts(item, INPUT_SOLVER, cfg) + (
                "error", 0, item.parse_time, 0.0, 0.0, 0.0, item.parse_time, None, None, None, None, None,
                None, None, None, str(item.error), False, False))
            continue
        for spec, engine in engines.items():
            if item.puzzle.kind not in engine.kinds:
                continue
            if TaskKey(item.puzzle_id, item.puzzle_hash, spec, limit) in done:
                skipped += 1
                continue
            pending[spec].append((len(facts), item.puzzle))
            facts.append(_facts(item, spec, cfg))
            parse_times.append(item.parse_time)
    if input_errors:
        db.write_values(run_id, input_errors)

    total = len(facts)
    progress = Progress(total, list(engines), stderr, enabled=not cfg.quiet)
    planner = _Planner(pending, engines, cfg, jobs, keep=2)
    if executor is None:
        catalog: list = [None] * total
        for queue in pending.values():
            for tid, puzzle in queue:
                catalog[tid] = puzzle
        executor = LocalExecutor(jobs, catalog=catalog)
    wrong: list[str] = []
    errors, timeouts = len(input_errors), 0
    error, timeout = Status.ERROR.value, Status.TIMEOUT.value
    try:
        for rows in executor.execute(planner.units()):
            values = []
            for row in rows:
                tid = row[0]
                f = facts[tid]
                extra = parse_times[tid]
                values.append(f + row[1:3] + (row[3] + extra,) + row[4:7] + (row[7] + extra,) + row[8:])
                solver = f[6]
                planner.observe(solver, row[7])
                status = row[1]
                if status == error:
                    errors += 1
                    if row[18]:
                        wrong.append(f"{f[0]} {solver}: {row[16]}")
                elif status == timeout:
                    timeouts += 1
                progress.update(solver, status)
            db.write_values(run_id, values)
    finally:
        progress.finish()
        if hasattr(executor, "close"):
            executor.close()

    sets = sorted({item.set_name for item in items})
    ids = {(item.puzzle_id, item.puzzle_hash) for item in items}
    disagreements = [d for d in crosscheck_db(db.conn, limit, sets, list(engines))
                     if (d.puzzle_id, d.puzzle_hash) in ids]
    if disagreements:
        db.write_disagreements(run_id, [d.as_row() for d in disagreements])
    db.finish_run(run_id)
    return BenchOutcome(run_id, total, skipped, wrong, errors, timeouts, disagreements,
                        time.perf_counter() - started, cfg.db, limit, sets, [*engines, INPUT_SOLVER], ids)


def _facts(item: InputItem, solver: str, cfg: BenchConfig) -> tuple:
    """The task's own columns of the results table, in :data:`.database.FACT_COLUMNS` order."""
    p = item.puzzle
    return (item.puzzle_id, item.puzzle_hash, item.set_name, item.line, p.kind if p else None,
            p.shape if p else None, solver, limit_key(cfg.limit), cfg.time_limit)


def command_line(argv: list[str] | None = None) -> str:
    return " ".join(shlex.quote(a) for a in (["puzzlebench"] + (argv if argv is not None else sys.argv[1:])))
