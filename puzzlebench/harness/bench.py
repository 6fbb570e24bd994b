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
import os
import shlex
import sqlite3
import sys
import time
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from operator import add, attrgetter, itemgetter
from typing import Callable, Iterator, Mapping, Sequence, TextIO

from ..engines.base import DEFAULT_ENGINE_SEED, MAX_ENGINE_SEED, check_engine_seed
from ..engines.certify import check_proof_dir
from ..engines.registry import make_engine
from ..errors import UsageError
from ..models.reader import Record
from ..options import MAX_REPEAT, SEED
from ..results import Status, Times, error_result
from ..runtime.child import MB, check_memory_limit, memory_mechanism
from ..runtime.clock import check_clock
from ..runtime.limits import check_time_limit, normalise_limit
from .crosscheck import Disagreement, crosscheck_db
from .database import INPUT_SOLVER, BenchLock, Database, TaskKey, limit_key, refused_as, remove_database
from .progress import Progress
from .runner import Executor, PuzzleSlice, RowBatch, WorkUnit, contiguous, has_batch_path, row_of
from .sets import SetOrigin, identify_sets
from .workers import JOBS_PER_CORE, LocalExecutor, default_jobs

UNIT_SECONDS = 0.2
MAX_UNIT = 4096
DEFAULT_TIME_LIMIT = 10.0
DEFAULT_LIMIT = 2          # solutions to look for: one, and a second to prove the first unique


@dataclass
class BenchConfig:
    solvers: list[str]
    db: str
    limit: int | None = DEFAULT_LIMIT
    time_limit: float = DEFAULT_TIME_LIMIT
    memory_limit: int | None = None   # bytes above each worker's baseline; None: none
    clock: str = "wall"               # the clock of the time limit: wall or cpu
    wall_limit: float | None = None   # with clock cpu: the wall limit beside it (None: the default)
    repeat: int = 1                   # runs of each (puzzle, solver) pair, each stored
    jobs: int | None = None
    resume: bool = False
    quiet: bool = False
    seed: int | None = None
    engines: Mapping[str, str] = field(default_factory=dict)
    engine_seed: int = DEFAULT_ENGINE_SEED   # repetition r (1..K) gives the engines engine_seed + r - 1
    warmup: int = 0                   # puzzles each worker runs first with each engine, stored as warm-up
    certify: bool = False             # each claim of absence proved and checked (--certify)
    proof_dir: str | None = None      # where the proofs are kept (--proof-dir)
    command: str = ""
    settings: dict = field(default_factory=dict)
    origins: Mapping[str, SetOrigin] = field(default_factory=dict)   # by the records' set_name: their file


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
    items: list[Record] = field(repr=False, default_factory=list)
    memouts: int = 0
    certify: bool = False

    @property
    def exit_code(self) -> int:
        """The commands' one rule: 2 when no input record was a puzzle (not 1, as if some
        puzzles had run), 1 on errors, wrong answers or disagreements."""
        if self.items and all(item.puzzle is None for item in self.items):
            return 2
        return 1 if self.wrong or self.disagreements or self.errors or self.uncertified else 0

    @cached_property
    def uncertified(self) -> list[str]:
        """Under ``--certify``, each claim of absence of this bench left unproved: its puzzle,
        solver, status and why."""
        if not self.certify:
            return []
        return [f"{r['puzzle_id']} {r['solver']}: {r['status']} {r['certificate']}"
                for r in self.results if r["certificate"] in ("failed", "none") and r["status"] != "error"]

    @cached_property
    def ids(self) -> set[tuple[str, str]]:
        """(puzzle_id, puzzle_hash) of every input record of this bench."""
        return {(item.puzzle_id, item.puzzle_hash) for item in self.items}

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
    cfg.wall_limit = check_clock(cfg.clock, cfg.time_limit, cfg.wall_limit)
    if cfg.memory_limit is not None:
        check_memory_limit(cfg.memory_limit / MB)
    normalise_limit(cfg.limit)
    if cfg.seed is not None:
        SEED.check(cfg.seed, "seed")   # stored in the runs table, an SQLite INTEGER
    if cfg.repeat < 1:
        raise UsageError(f"--repeat must be 1 or more; got {cfg.repeat}")
    if cfg.repeat > MAX_REPEAT:   # the task list is made up front: 10^14 filled the memory, silently
        raise UsageError(f"--repeat {cfg.repeat}: at most {MAX_REPEAT:,} runs of each pair (each is stored; "
                         "a median needs a few)")
    check_engine_seed(cfg.engine_seed)
    if cfg.proof_dir is not None and not cfg.certify:
        raise UsageError("a proof folder (--proof-dir) goes with --certify")
    if cfg.proof_dir is not None:
        check_proof_dir(cfg.proof_dir)
    if cfg.engine_seed + cfg.repeat - 1 > MAX_ENGINE_SEED:
        raise UsageError(f"--engine-seed {cfg.engine_seed} with --repeat {cfg.repeat}: the last repetition's "
                         f"seed would pass {MAX_ENGINE_SEED}")
    if cfg.warmup < 0:
        raise UsageError(f"--warmup must be 0 or more; got {cfg.warmup}")
    if cfg.jobs is not None and cfg.jobs < 1:
        raise UsageError(f"--jobs must be 1 or more; got {cfg.jobs}")
    cores = default_jobs()
    if cfg.jobs is not None and cfg.jobs > JOBS_PER_CORE * cores:   # a process each, forked at once
        raise UsageError(f"--jobs {cfg.jobs}: at most {JOBS_PER_CORE * cores} here ({JOBS_PER_CORE} worker "
                         f"processes a core, {cores} cores)")
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

    def __init__(self, pending: dict[str, "_SolverQueue"], engines: dict, cfg: BenchConfig, jobs: int, keep: int,
                 warmups: Mapping[str, list] | None = None):
        self.pending = pending
        self.warmups = warmups or {}
        self.engines = engines
        self.cfg = cfg
        self.jobs = jobs
        self.keep = keep
        self.seconds: dict[str, float] = {s: 0.0 for s in pending}
        self.done: dict[str, int] = {s: 0 for s in pending}

    def observe(self, solver: str, seconds: float, done: int = 1) -> None:
        """``done`` more tasks of ``solver`` finished in ``seconds`` between them."""
        self.seconds[solver] += seconds
        self.done[solver] += done

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
                batch = has_batch_path(self.engines[solver]) and not self.cfg.certify   # proved puzzle by puzzle
                size = self._size(solver, batch)
                ids, puzzles, engine_seed = queue.take(size)
                yield WorkUnit(solver, ids, puzzles, self.cfg.limit, self.cfg.time_limit, keep=self.keep,
                               batch=batch, engines=dict(self.cfg.engines), memory_limit=self.cfg.memory_limit,
                               engine_seed=engine_seed, warmup=self.warmups.get(solver, ()),
                               clock=self.cfg.clock, wall_limit=self.cfg.wall_limit, certify=self.cfg.certify,
                               proof_dir=self.cfg.proof_dir)


class _SolverQueue:
    """One solver's tasks still to hand out: their ids (a run), taken in slices, each with its
    puzzles as a :class:`~.runner.PuzzleSlice` of the catalog (index = task id).  ``blocks``
    are its repetitions' (end task id, engine seed): a slice never crosses one, so that a unit
    has one seed."""

    def __init__(self, ids: range, catalog: list, blocks: Sequence[tuple[int, int | None]] = ()):
        self.ids, self.catalog, self.at = ids, catalog, 0
        self.blocks = list(blocks) or [(ids.stop, None)]

    def __len__(self) -> int:
        return len(self.ids) - self.at

    def take(self, size: int) -> tuple[range, PuzzleSlice, int | None]:
        a = self.at
        while self.blocks[0][0] <= self.ids[a]:
            self.blocks.pop(0)
        end, engine_seed = self.blocks[0]
        b = min(a + size, len(self.ids), end - self.ids.start)
        self.at = b
        ids = self.ids[a:b]
        return ids, PuzzleSlice(self.catalog, ids.start, ids.stop), engine_seed


def run_bench(items: list[Record], cfg: BenchConfig, *, executor: Executor | None = None,
              stderr: TextIO | None = None) -> BenchOutcome:
    stderr = stderr or sys.stderr
    check_settings(cfg, stderr)
    engines = resolve_solvers(cfg.solvers, cfg.engines)
    lock = BenchLock(cfg.db)
    try:
        made, db = not os.path.exists(cfg.db), None
        try:
            with refused_as(f"cannot use {cfg.db} as a results database"):   # read-only, damaged, a full disk
                db = Database(cfg.db)
                return _run(items, cfg, engines, db, executor, stderr, time.perf_counter())
        finally:
            # a bench interrupted before its first result left a database of one run and no result
            empty = made and (db is None or not _holds_results(db))
            if db is not None:
                db.close()
            if empty:
                remove_database(cfg.db)
    finally:
        lock.release()


def _holds_results(db: Database) -> bool:
    try:
        return db.holds_results()
    except sqlite3.DatabaseError:   # a full disk: what is there is kept
        return True


def _run(items, cfg, engines, db, executor, stderr, started) -> BenchOutcome:
    """One bench: plan the tasks, run and store them, cross-check the solvers."""
    jobs = cfg.jobs or getattr(executor, "jobs", None) or default_jobs()  # a cluster's: its worker threads
    settings = {"limit": cfg.limit, "time_limit": cfg.time_limit, "clock": cfg.clock, "wall_limit": cfg.wall_limit,
                "memory_limit": cfg.memory_limit, "memory_mechanism": memory_mechanism(cfg.memory_limit),
                "repeat": cfg.repeat, "engine_seed": cfg.engine_seed, "warmup": cfg.warmup, "jobs": jobs,
                "certify": cfg.certify,
                "resume": cfg.resume, "solvers": list(engines), **cfg.settings}
    identify_sets(items, dict(cfg.origins), db, stderr)   # before the run: a refusal stores nothing
    run_id = db.start_run(command=cfg.command, seed=cfg.seed, settings=settings,
                          engines=engine_versions(engines))
    plan = _plan(items, cfg, engines, db, run_id, stderr)
    if executor is None:
        executor = LocalExecutor(jobs, catalog=plan.catalog)
    stored = _execute(plan, cfg, engines, db, run_id, executor, jobs, stderr)
    limit = limit_key(cfg.limit)
    outcome = BenchOutcome(run_id, plan.tasks.measured, plan.skipped, stored.wrong, stored.errors, stored.timeouts,
                           [], 0.0, cfg.db, limit, plan.sets, [*engines, INPUT_SOLVER], items,
                           memouts=stored.memouts, certify=cfg.certify)
    disagreements = []
    if len(engines) > 1:  # the cross-check compares this bench's solvers: one has nobody to disagree with
        disagreements = [d for d in crosscheck_db(db.conn, limit, plan.sets, list(engines))
                         if (d.puzzle_id, d.puzzle_hash) in outcome.ids]
    if disagreements:
        db.write_disagreements(run_id, [d.as_row() for d in disagreements])
    outcome.disagreements, outcome.seconds = disagreements, time.perf_counter() - started
    # after the bench's time is taken: what the report draws is not part of the run
    store_puzzles(items, engines, db, plan.sets, budget=max(SOLUTION_SECONDS, outcome.seconds) / 10)
    db.finish_run(run_id)
    return outcome


SOLUTION_BATCH = 256
SOLUTION_SECONDS = 20.0
"""A tenth of it, or of the bench's time if longer, is what a bench spends at most on the
solutions it stores for the HTML report's drawings (:func:`store_puzzles`)."""


def store_puzzles(items: Sequence[Record], engines: dict, db: Database, sets: Sequence[str],
                  budget: float) -> None:
    """Each puzzle of the bench stored by set and hash (its text, kind and block shape), with
    a verified solution where one of the bench's solvers solved it: the fastest of them solves
    it again here, a batch at a time (the engine's batch path where it has one), its answer
    checked by the puzzle's own checker (the workers keep no solution).  Solving stops after
    ``budget`` seconds: the rest keep their text alone."""
    good = {(i.set_name, i.puzzle_hash): i.puzzle for i in items if i.puzzle is not None}
    db.write_puzzle_texts((name, h, p.kind, _box_text(p), p.write()) for (name, h), p in good.items())
    unsolved = {(name, h) for name in sets for h in db.unsolved_texts(name)}
    by_solver: dict[str, list[tuple]] = {}
    for key, (spec, seconds) in sorted(_fastest_verified(db, sets, list(engines)).items()):
        if key in unsolved and key in good:
            by_solver.setdefault(spec, []).append((key, seconds))
    deadline = time.perf_counter() + budget
    for spec, keys in by_solver.items():
        for start in range(0, len(keys), SOLUTION_BATCH):
            if time.perf_counter() > deadline:
                return
            chunk = keys[start:start + SOLUTION_BATCH]
            puzzles = [good[key] for key, _ in chunk]
            limit = min(10 * max(seconds for _, seconds in chunk) + 1.0, budget)
            try:
                results = engines[spec].run_many(puzzles, limit=1, time_limit=limit)
            except Exception:   # an engine that fails here, where it had not, loses the drawings alone
                continue
            db.write_solutions((*key, puzzle.format_solution(result.solutions[0]))
                               for (key, _), puzzle, result in zip(chunk, puzzles, results)
                               if result.verified and result.solutions)


def _box_text(puzzle) -> str | None:
    box = getattr(puzzle, "box", None)
    return f"{box[0]}x{box[1]}" if box else None


def _fastest_verified(db: Database, sets: Sequence[str], solvers: list[str]) -> dict[tuple, tuple[str, float]]:
    """Per (set, puzzle hash), the bench's solver that answered it fastest with a verified
    solution, and its time."""
    found: dict[tuple, tuple[str, float]] = {}
    for set_name, puzzle_hash, solver, seconds in db.conn.execute(
            "SELECT set_name, puzzle_hash, solver, t_total FROM results WHERE verified = 1 AND status IN"
            f" ('unique', 'multiple', 'sat') AND set_name IN ({', '.join('?' * len(sets))})"
            f" AND solver IN ({', '.join('?' * len(solvers))})", (*sets, *solvers)):
        key = (set_name, puzzle_hash)
        if key not in found or (seconds or 0) < found[key][1]:
            found[key] = (solver, seconds or 0.0)
    return found


@dataclass
class _Plan:
    """What a bench will run: every (puzzle, solver) task, each solver's queue of them, the
    inputs that are no puzzle (stored at once as errors), what ``--resume`` skips."""

    tasks: "_TaskTable"
    queues: dict[str, "_SolverQueue"]
    catalog: list
    sets: list[str]
    skipped: int
    input_errors: int
    warmups: dict[str, list] = field(default_factory=dict)   # per solver: its warm-up (task id, puzzle) pairs


def _plan(items, cfg: BenchConfig, engines: dict, db: Database, run_id: int, stderr: TextIO) -> _Plan:
    limit = limit_key(cfg.limit)
    sets = sorted({item.set_name for item in items})
    done, other_time, memouts = (set(), {}, {})
    if cfg.resume:
        done, other_time, memouts = db.done_keys(sets, [*engines, INPUT_SOLVER], limit, cfg.repeat,
                                                      cfg.time_limit, cfg.memory_limit)
    if other_time:
        print(f"puzzlebench: {_counted(other_time)} stored under another time limit "
              f"({', '.join(f'{t:g} s' for t in sorted(other_time))}) run again at {cfg.time_limit:g} s", file=stderr)
    if memouts:
        memory_now = f"at {cfg.memory_limit / MB:g} MB" if cfg.memory_limit is not None else "with no memory limit"
        print(f"puzzlebench: {sum(map(len, memouts.values()))} earlier memout(s) under a smaller memory limit "
              f"are run again {memory_now}", file=stderr)
    if other_time or memouts:
        db.replace(run_id, [i for ids in [*other_time.values(), *memouts.values()] for i in ids])
    good = [item for item in items if item.puzzle is not None]
    tasks = _TaskTable(good)
    input_errors, skipped = [], 0
    for item in items:
        if item.puzzle is not None:
            continue
        if done and TaskKey(item.puzzle_id, "", INPUT_SOLVER, limit) in done:
            skipped += 1
            continue
        failed = error_result(str(item.error), times=Times(parse=item.parse_time, total=item.parse_time))
        input_errors.append(_facts(item, INPUT_SOLVER, cfg) + row_of(0, failed, None)[1:])
        # told with its place, as every command tells a bad input line (not only counted)
        place = item.error.place if item.error.place.source else item.source
        print(f"puzzlebench: {place}: error: {item.error.message}", file=stderr)
    queued: dict[str, list] = {}  # per solver: its first task id, its number of tasks, its blocks
    kinds_of_puzzles = tasks.facts["kind"]
    taken: dict[str, Sequence[int]] = {}
    for spec, engine in engines.items():  # one solver's task ids in a row: its batches are slices
        every = taken[spec] = range(len(good))
        if not set(kinds_of_puzzles) <= engine.kinds:
            every = taken[spec] = [k for k, kind in enumerate(kinds_of_puzzles) if kind in engine.kinds]
        for repetition in range(1, cfg.repeat + 1):  # all the puzzles once, then again: K blocks in a row
            members = every
            if done:
                sets, lines, hashes = tasks.facts["set_name"], tasks.facts["line"], tasks.facts["puzzle_hash"]
                members = [k for k in every if TaskKey(f"{sets[k]}:{lines[k]}", hashes[k], spec, limit,
                                                       repetition) not in done]
                skipped += len(every) - len(members)
            engine_seed = cfg.engine_seed + repetition - 1 if engine.takes_seed() else None
            first = tasks.add_solver(spec, members, repetition, engine_seed)
            entry = queued.setdefault(spec, [first, 0, []])
            entry[1] += len(members)
            entry[2].append((first + len(members), engine_seed))
    tasks.measured = len(tasks)
    warm = {spec: tasks.add_solver(spec, taken[spec][:cfg.warmup], None, None) for spec in queued if cfg.warmup}
    catalog = tasks.catalog()
    queues = {spec: _SolverQueue(range(first, first + n), catalog, blocks)
              for spec, (first, n, blocks) in queued.items()}
    warmups = {spec: [(tid, catalog[tid]) for tid in range(first, first + min(cfg.warmup, len(taken[spec])))]
               for spec, first in warm.items()}
    sets = sorted({item.set_name for item in items})
    if not cfg.resume:  # the pairs run again replace their earlier results (kept in the log)
        db.retire(run_id, limit, sets, [*engines, INPUT_SOLVER],
                  lambda: tasks.pairs() | {(i.set_name, i.line, i.puzzle_hash, INPUT_SOLVER)
                                           for i in items if i.puzzle is None})
    if input_errors:
        db.write_values(run_id, input_errors)
    return _Plan(tasks, queues, catalog, sets, skipped, len(input_errors), warmups)


def _counted(by_limit: dict) -> str:
    n = sum(map(len, by_limit.values()))
    return f"{n} result{'' if n == 1 else 's'}"


@dataclass
class _Stored:
    """What the bench stored: the wrong answers (one line each), errors and timeouts."""

    wrong: list[str]
    errors: int
    timeouts: int
    memouts: int = 0


def _execute(plan: _Plan, cfg: BenchConfig, engines: dict, db: Database, run_id: int, executor: Executor,
             jobs: int, stderr: TextIO) -> _Stored:
    """Run the plan's units on the executor, storing each batch of rows as it comes."""
    progress = Progress(plan.tasks.measured, list(engines), stderr, enabled=not cfg.quiet)
    planner = _Planner(plan.queues, engines, cfg, jobs, keep=2, warmups=plan.warmups)
    stored = _Stored([], plan.input_errors, 0)
    shared_facts = {"limit_": limit_key(cfg.limit), "time_limit": cfg.time_limit, "memory_limit": cfg.memory_limit,
                    "warmup": 0, "clock": cfg.clock,
                    "memory_mechanism": memory_mechanism(cfg.memory_limit)}
    first_copies = _FirstCopies(len(plan.tasks))
    try:
        for batch in executor.execute(planner.units()):
            if batch.shared.get("warmup"):   # stored as warm-up (once per worker): counted nowhere
                columns, shared = plan.tasks.columns_of(batch)
                db.write_columns(run_id, columns, {**shared_facts, **shared})
                continue
            batch = first_copies.of(batch)
            if not len(batch):
                continue
            statuses = batch.column("status")
            n_errors, n_timeouts = statuses.count(Status.ERROR.value), statuses.count(Status.TIMEOUT.value)
            stored.errors += n_errors
            stored.timeouts += n_timeouts
            stored.memouts += statuses.count(Status.MEMOUT.value)
            columns, shared = plan.tasks.columns_of(batch)
            db.write_columns(run_id, columns, {**shared_facts, **shared})
            n = len(batch)
            solver = shared.get("solver")  # one unit: one solver
            solvers = [solver] * n if solver is not None else columns["solver"]
            if n_errors:
                flags = batch.column("wrong")
                set_names = columns["set_name"] if "set_name" in columns else [shared["set_name"]] * n
                stored.wrong += [f"{set_name}:{line} {solver}: {message}" for set_name, line, solver, message, bad
                                 in zip(set_names, columns["line"], solvers, batch.column("error"), flags) if bad]
            seconds = batch.column("t_total")  # the engine's, without the parse
            if solver is not None:
                planner.observe(solver, sum(seconds), n)
                progress.update_many(solver, n, n_timeouts, n_errors)
            else:
                for solver, status, spent in zip(solvers, statuses, seconds):
                    planner.observe(solver, spent)
                    progress.update(solver, status)
    finally:
        progress.finish()
        if hasattr(executor, "close"):
            executor.close()
    return stored


class _FirstCopies:
    """Lets through the first row of each task only: an executor that runs a task again (a
    Dask task whose worker was lost after it sent its rows, a retried message) must not
    store its row twice."""

    def __init__(self, tasks: int):
        self.seen = bytearray(tasks)

    def of(self, batch: RowBatch) -> RowBatch:
        run = contiguous(batch.task_ids)
        if run is not None and self.seen.find(1, run.start, run.stop) < 0:  # a unit as planned: one slice
            self.seen[run.start:run.stop] = b"\x01" * len(run)
            return batch
        keep = []
        for k, tid in enumerate(batch.task_ids):
            if not self.seen[tid]:
                self.seen[tid] = 1
                keep.append(k)
        if len(keep) == len(batch):
            return batch
        return RowBatch([batch.task_ids[k] for k in keep],
                        {name: [values[k] for k in keep] for name, values in batch.columns.items()},
                        dict(batch.shared))


class _TaskTable:
    """The bench's own columns of every task: its puzzle's identity and parse time, and its
    solver.  The puzzles' facts are columns made once for the whole input (index = the
    puzzle's place among the input's puzzles); task ids are handed out solver by solver
    (:meth:`add_solver`), so that a unit's tasks are a run of ids whose facts are a slice of
    those columns, picked with one :func:`operator.itemgetter` per column, not a tuple a task."""

    FACTS = ("puzzle_hash", "set_name", "line", "kind", "shape", "t_parse")
    CONSTANT_IN_A_SET = ("set_name", "kind", "shape")
    # A block is one solver's tasks of one repetition (``bench --repeat``): K blocks in a row.

    def __init__(self, items: list[Record]):
        self.puzzles: list = list(map(attrgetter("puzzle"), items))
        self.facts: dict[str, list] = {
            "puzzle_hash": list(map(attrgetter("puzzle_hash"), items)),
            "set_name": list(map(attrgetter("set_name"), items)),
            "line": list(map(attrgetter("line"), items)),
            "kind": list(map(attrgetter("kind"), self.puzzles)),
            "shape": list(map(attrgetter("shape"), self.puzzles)),
            "t_parse": list(map(attrgetter("parse_time"), items)),
        }
        self.starts: list[int] = []     # first task id of each solver's block
        self.solvers: list[str] = []
        self.repetitions: list[int | None] = []
        self.engine_seeds: list[int | None] = []
        self.members: list[Sequence[int]] = []  # the puzzles of each block, in task order
        self.total = 0
        self.measured = 0   # the tasks before the warm-up blocks (bench --warmup), which follow them

    def __len__(self) -> int:
        return self.total

    def add_solver(self, solver: str, members: Sequence[int], repetition: int | None = 1,
                   engine_seed: int | None = None) -> int:
        """Tasks of ``solver`` on the puzzles ``members`` (its ``repetition``-th run of them, with
        ``engine_seed``; a warm-up block has neither); the first of their ids."""
        first = self.total
        self.starts.append(first)
        self.solvers.append(solver)
        self.repetitions.append(repetition)
        self.engine_seeds.append(engine_seed)
        self.members.append(members)
        self.total += len(members)
        return first

    def catalog(self) -> list:
        """Every task's puzzle, index = task id: the input's own list when the bench has one
        solver taking every puzzle (no copy), else a list made here."""
        if len(self.members) == 1 and self.members[0] == range(len(self.puzzles)):
            return self.puzzles
        catalog, every = [], range(len(self.puzzles))
        for members in self.members:
            catalog.extend(self.puzzles if members == every else map(self.puzzles.__getitem__, members))
        return catalog

    def pairs(self) -> set[tuple[str, int, str, str]]:
        """Every task as ``(set_name, line, puzzle_hash, solver)``."""
        sets, lines, hashes = self.facts["set_name"], self.facts["line"], self.facts["puzzle_hash"]
        return {(sets[k], lines[k], hashes[k], solver)
                for solver, members in zip(self.solvers, self.members) for k in members}

    def _puzzles_of(self, ids: list[int]) -> tuple[Callable, list[int] | int]:
        """A picker of the batch's puzzles' facts, and the batch's block: one, or each task's
        (a batch across blocks: two solvers, or two repetitions of one)."""
        first = ids[0]
        block = bisect_right(self.starts, first) - 1
        start, members = self.starts[block], self.members[block]
        run = contiguous(ids)
        if run is not None and run.stop <= start + len(members):
            chosen = members[run.start - start:run.stop - start]
            if isinstance(chosen, range) and chosen.step == 1:  # a unit as planned: slices
                return itemgetter(slice(chosen.start, chosen.stop)), block
            return _getter_of(list(chosen)), block
        places = [self._place(t) for t in ids]
        blocks = [block for block, _ in places]
        puzzles = [self.members[block][k] for block, k in places]
        return _getter_of(puzzles), (blocks[0] if blocks.count(blocks[0]) == len(blocks) else blocks)

    def _place(self, task_id: int) -> tuple[int, int]:
        block = bisect_right(self.starts, task_id) - 1
        return block, task_id - self.starts[block]

    def columns_of(self, batch: RowBatch) -> tuple[dict[str, list], dict[str, object]]:
        """The results-table columns of a batch: its tasks' facts, then the worker's fields,
        the puzzle's parse time added to ``t_parse`` and ``t_total`` (the worker never parsed it)."""
        pick, block = self._puzzles_of(batch.task_ids)
        columns = {name: list(pick(values)) for name, values in self.facts.items()}
        shared = dict(batch.shared)
        for name, of_block in (("solver", self.solvers), ("repetition", self.repetitions),
                               ("engine_seed", self.engine_seeds)):
            values = [of_block[b] for b in block] if isinstance(block, list) else [of_block[block]]
            if values.count(values[0]) == len(values):
                shared[name] = values[0]
            else:
                columns[name] = values
        for name in self.CONSTANT_IN_A_SET:  # one value for the whole batch: a literal, not bound per row
            values = columns[name]
            if values.count(values[0]) == len(values):
                shared[name] = values[0]
                del columns[name]
        parse = columns.pop("t_parse")
        columns.update(batch.columns)
        for name in ("t_parse", "t_total"):
            if shared.get(name) == 0.0:  # a batch path: the worker parsed nothing
                columns[name] = parse
            else:
                columns[name] = list(map(add, batch.column(name), parse))
            shared.pop(name, None)
        return columns, shared


def _getter_of(indices: list[int]) -> Callable:
    """``itemgetter`` of these indices that always returns a tuple."""
    if len(indices) == 1:
        k = indices[0]
        return lambda column: (column[k],)
    return itemgetter(*indices)


def _facts(item: Record, solver: str, cfg: BenchConfig) -> tuple:
    """The task's own columns of the results table, in :data:`.database.FACT_COLUMNS` order."""
    p = item.puzzle
    return (item.puzzle_hash, item.set_name, item.line, p.kind if p else None,
            p.shape if p else None, solver, limit_key(cfg.limit), cfg.time_limit)


def command_line(argv: list[str] | None = None) -> str:
    return " ".join(shlex.quote(a) for a in (["puzzlebench"] + (argv if argv is not None else sys.argv[1:])))
