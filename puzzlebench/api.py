"""The Python API, mirroring the command line: ``parse``, ``solve``, ``solve_many``, ``encode``,
``load_results``."""

from __future__ import annotations

import copy
import os
import time
from typing import Any, Iterable

from .engines.base import DEFAULT_ENGINE_SEED, Engine, check_engine_seed
from .engines.certify import certified
from .engines.batch import NativeBatch
from .engines.registry import default_solver, make_engine, split_over_threads
from .errors import PuzzleError
from .models.base import Puzzle
from .models.reader import load_kind_classes
from .models.sudoku_batch import read_sudoku_lines
from .options import BOX, KEEP, THREADS
from .results import Result, ResultColumns, Results, Times, error_result
from .runtime.child import check_memory_limit, run_limited
from .runtime.clock import check_clock
from .runtime.limits import Interrupted, check_time_limit, normalise_limit, past_the_limit

DEFAULT_KEEP = 10


def check_keep(keep: int) -> int:
    """The number of solutions kept per puzzle: 1 (the one a solved result is verified by) to
    2^31-1, the native engines' ``int``."""
    return KEEP.check(keep, "keep")


def check_box(box: str | tuple[int, int] | list[int] | None) -> tuple[int, int] | None:
    """A Sudoku block shape as ``--box`` reads one (:data:`~puzzlebench.options.BOX`): ``"3x4"``,
    or a pair of whole numbers ``(3, 4)`` (a list of two too); ``None``: inferred."""
    return None if box is None else BOX.check(box, "box")


def parse(text: str, kind: str | None = None, box: str | tuple[int, int] | None = None) -> Puzzle:
    """One puzzle from its text; the kind is inferred when not given (and unambiguous).
    ``box`` is a Sudoku block shape, ``"3x4"`` or ``(3, 4)`` (rows x columns)."""
    from .models.reader import parse as parse_text
    return parse_text(text, kind=kind, box=check_box(box))


def _as_puzzle(item: Any, kind: str | None = None, box=None) -> Puzzle:
    """A puzzle, or the one its text (str or bytes) holds; anything else is a ``TypeError``
    saying so (``solve(None)`` was "'NoneType' object has no attribute 'kind'")."""
    if isinstance(item, Puzzle):
        return item
    if isinstance(item, (str, bytes)):
        return parse(item, kind=kind, box=box)
    raise TypeError(f"a puzzle is a Puzzle or its text (str); got {type(item).__name__}")


def seeded_engine(solver: str | Engine, engine_seed: int, certify: bool = False,
                  proof_dir: str | None = None) -> Engine:
    """The engine of ``solver``, its searches given ``engine_seed``, its claims of absence
    certified with ``certify`` (:meth:`~puzzlebench.engines.base.Engine.certified`); an engine
    passed in is copied, not changed."""
    check_engine_seed(engine_seed)
    engine = copy.copy(solver) if isinstance(solver, Engine) else make_engine(solver)
    return certified(engine.seeded(engine_seed), certify, proof_dir)


def engine_chooser(solver: str | Engine | None, engine_seed: int, certify: bool = False,
                   proof_dir: str | None = None, threads: int = 1, threads_name: str = "threads"):
    """The engine of each puzzle, as a function of its kind: ``solver``'s for every kind, or
    with ``solver`` None each kind's default (:func:`~.engines.registry.default_solver`), each
    made once, seeded and certified as :func:`seeded_engine` says.  ``threads`` splits the
    batch calls of an engine that has one; named, an engine without one is refused
    (:func:`~.engines.registry.split_over_threads`), a default without one runs on one."""
    if solver is not None:
        engine = split_over_threads(seeded_engine(solver, engine_seed, certify, proof_dir), threads, threads_name)
        return lambda kind: engine
    check_engine_seed(engine_seed)
    THREADS.check(threads, threads_name)
    made: dict[str, Engine] = {}

    def choose(kind: str) -> Engine:
        spec = default_solver(kind)
        if spec not in made:
            engine = seeded_engine(spec, engine_seed, certify, proof_dir)
            made[spec] = split_over_threads(engine, threads, threads_name) if isinstance(engine, NativeBatch) else engine
        return made[spec]
    return choose


def run_each(choose, puzzles: list[Puzzle], **limits: Any) -> Results | list[Result]:
    """Each puzzle run by ``choose(its kind)`` under ``limits`` (:func:`run_limited`'s), the
    puzzles of one engine in one call (a batch where it has one), the results in input order.
    After a Ctrl-C, :class:`Interrupted` with the results before the first puzzle unanswered."""
    groups: dict[int, tuple[Engine, list[int]]] = {}
    for i, puzzle in enumerate(puzzles):
        engine = choose(puzzle.kind)
        groups.setdefault(id(engine), (engine, []))[1].append(i)
    if len(groups) <= 1:
        return run_limited(choose(puzzles[0].kind), puzzles, **limits) if puzzles else []
    results: list[Result | None] = [None] * len(puzzles)
    for engine, taken in groups.values():
        try:
            answered = run_limited(engine, [puzzles[i] for i in taken], **limits)
        except Interrupted as stop:
            for i, result in zip(taken, stop.done):
                results[i] = result
            first_unanswered = next(k for k, result in enumerate(results + [None]) if result is None)
            raise Interrupted(results[:first_unanswered]) from None
        for i, result in zip(taken, answered):
            results[i] = result
    return results


def solve(puzzle: Puzzle | str, solver: str | Engine | None = None, limit: int | None = 2,
          time_limit: float | None = None, keep: int = DEFAULT_KEEP, kind: str | None = None,
          box: str | tuple[int, int] | None = None, memory_limit: float | None = None,
          engine_seed: int = DEFAULT_ENGINE_SEED, clock: str = "wall", wall_limit: float | None = None,
          certify: bool = False, proof_dir: str | None = None) -> Result:
    """Solve one puzzle (a parsed one or its text) with ``solver``, a spec (``"sat:cadical195"``,
    ``puzzlebench solvers`` lists them) or an engine; ``None``: the default for the puzzle's
    kind, the native ``bitboard`` where it takes the kind, else ``mrv``.  ``limit`` is the
    number of solutions to look for: 2 finds one and proves it unique; ``None`` or ``0``
    counts them all.
    ``memory_limit`` (MB above the idle process) runs the engine in a child process held to it
    (status ``memout`` past it).  ``engine_seed`` is the random seed given to an engine that
    takes one (``puzzlebench solvers`` says which), ignored by the others.  ``clock``: the clock
    of ``time_limit``, ``wall`` or ``cpu`` (with ``wall_limit`` beside it); a run over its limit
    is a ``timeout``, its answer kept.  ``certify``: a claim that no (other) solution exists
    (``unsat``, ``unique``, a complete count) is proved by a SAT solver that logs a DRAT proof
    and the proof checked, within the time limit; the result's ``certificate`` says how it went
    (``proof_dir``: keep each formula and proof there).  A text that is not a puzzle raises its
    :class:`~puzzlebench.errors.PuzzleError`."""
    limit, time_limit, keep = normalise_limit(limit), check_time_limit(time_limit), check_keep(keep)
    wall_limit = check_clock(clock, time_limit, wall_limit)
    memory_limit, box = check_memory_limit(memory_limit), check_box(box)
    choose = engine_chooser(solver, engine_seed, certify, proof_dir)
    parse_time = 0.0
    if not isinstance(puzzle, Puzzle):
        load_kind_classes()
        start = time.perf_counter()
        puzzle = _as_puzzle(puzzle, kind, box)
        parse_time = time.perf_counter() - start
    engine = choose(puzzle.kind)
    result = run_limited(engine, [puzzle], limit=limit, time_limit=time_limit, keep=keep,
                         memory_limit=memory_limit, clock=clock, wall_limit=wall_limit)[0]
    result.times.parse += parse_time
    result.times.total += parse_time
    return past_the_limit(result, time_limit, clock, wall_limit)


def solve_many(puzzles: Iterable[Puzzle | str], solver: str | Engine | None = None,
               limit: int | None = 2, time_limit: float | None = None, keep: int = DEFAULT_KEEP,
               kind: str | None = None, box: str | tuple[int, int] | None = None,
               memory_limit: float | None = None, engine_seed: int = DEFAULT_ENGINE_SEED, clock: str = "wall",
               wall_limit: float | None = None, columns: bool = False, threads: int = 1,
               certify: bool = False, proof_dir: str | None = None) -> Results | ResultColumns:
    """Solve many puzzles (parsed ones or texts) with one engine (``solver`` as for
    :func:`solve`; ``None``: each puzzle by its kind's default): a :class:`Results`, the
    :class:`Result` of each in order, every answer verified.  A text that does not parse gives
    an ``error`` result with the reader's message; the others still run.  Sudoku lines of one
    size are read together into the compact form a batch engine (``bitboard``, ``dlx``) takes
    in one call.  ``memory_limit``, ``engine_seed``, ``clock`` and ``wall_limit`` as for
    :func:`solve`.  One text is not many puzzles: a
    ``str`` (or ``bytes``) given as ``puzzles`` is a ``TypeError`` (pass ``[text]``, or
    ``text.splitlines()`` for one puzzle a line).

    ``columns=True`` returns the same answers as one :class:`ResultColumns` (NumPy arrays:
    status codes, counts, first solutions, statistics, times) instead of a record a puzzle:
    for many puzzles read as arrays.  The Sudoku a native batch call takes (``bitboard`` and
    ``dlx``, any block shape; no ``memory_limit``) are written by that call in C and
    checked in bulk, with no object a puzzle; any other engine or puzzle still answers, as
    columns built from its records (:meth:`ResultColumns.of_results`).  After a Ctrl-C, the
    :class:`~puzzlebench.runtime.limits.Interrupted` carries the columns answered before it.

    ``threads`` splits each native batch call (``bitboard``, ``dlx``), its reading of
    the lines and its bulk check over that many native threads of this process (0: every core;
    at most 256): the same answers, counters and order as one thread, each puzzle on its own
    clock and time limit.  Any other engine takes only 1.  After a Ctrl-C the answers kept are
    those before the first puzzle left unanswered, in input order.  Threads speed up one batch
    in one process; a bench's ``--jobs`` runs whole units in worker processes, each timed on
    its own (use it to measure engines side by side: a run's time is then not shared).

    ``certify`` and ``proof_dir`` as for :func:`solve`: after the batch (on its threads), each
    claim of absence is proved and checked, one after another; each record gets its
    certificate, so not with ``columns=True``."""
    if isinstance(puzzles, (str, bytes)):   # iterated, a puzzle's text would be 81 one-character puzzles
        raise TypeError("solve_many takes puzzles (a list, an iterable), not one text: give [text], "
                        "or text.splitlines() for one puzzle a line")
    limit, time_limit, keep = normalise_limit(limit), check_time_limit(time_limit), check_keep(keep)
    wall_limit = check_clock(clock, time_limit, wall_limit)
    memory_limit, box = check_memory_limit(memory_limit), check_box(box)
    if certify is True and columns:
        raise ValueError("certify gives each record its certificate: not with columns=True")
    choose = engine_chooser(solver, engine_seed, certify, proof_dir, threads)
    engine = choose(kind or "sudoku")   # the lines read as Sudoku take it, and a text that is no puzzle names it
    items = list(puzzles)
    all_text = set(map(type, items)) == {str}   # the usual call: a file's lines (no copies of them)
    texts = range(len(items)) if all_text else [i for i, item in enumerate(items) if isinstance(item, str)]
    start = time.perf_counter()
    batch, taken = (read_sudoku_lines(items if all_text else [items[i] for i in texts], box,
                                      getattr(engine, "batch_threads", 1))
                    if kind in (None, "sudoku") and texts else (None, []))
    parse_share = (time.perf_counter() - start) / max(1, len(taken))
    timing = dict(time_limit=time_limit, clock=clock, wall_limit=wall_limit)
    if columns:
        batched = taken if all_text else [texts[k] for k in taken]
        return _solve_many_columns(engine, None if solver is None else engine, items, batch, batched, parse_share,
                                   dict(limit=limit, keep=keep, kind=kind, box=box, memory_limit=memory_limit,
                                        engine_seed=engine_seed, threads=threads, **timing))
    fast = (run_limited(engine, batch, limit=limit, keep=keep, memory_limit=memory_limit, **timing)
            if batch else None)
    if fast is not None:
        fast.parse_seconds = parse_share
        if len(taken) == len(items):
            return fast
    records: list[Result | None] = [None] * len(items)
    for k, result in zip(taken, fast or ()):
        records[texts[k]] = result
    rest = [i for i, r in enumerate(records) if r is None]
    parsed: dict[int, Puzzle] = {}
    if rest:   # only here: the lines the batch read took never ask the other kinds
        load_kind_classes()
    for i in rest:
        start = time.perf_counter()
        try:
            parsed[i] = _as_puzzle(items[i], kind, box)
        except PuzzleError as exc:
            spent = time.perf_counter() - start
            records[i] = error_result(str(exc), solver=engine.spec, limit=limit,
                                      times=Times(parse=spent, total=spent))
            continue
        records[i] = Times(parse=time.perf_counter() - start)  # the parse time, until solved
    solved = run_each(choose, list(parsed.values()), limit=limit, keep=keep, memory_limit=memory_limit, **timing)
    for i, result in zip(parsed, solved):
        parse_time = records[i].parse
        result.times.parse += parse_time
        result.times.total += parse_time
        records[i] = past_the_limit(result, **timing)
    return Results.of(records, [r.puzzle for r in records], engine.spec, limit)


def _solve_many_columns(engine: Engine, solver: Engine | None, items: list, batch, batched: list[int],
                        parse_share: float, options: dict[str, Any]) -> ResultColumns:
    """:func:`solve_many` as columns: the lines read into ``batch`` (items ``batched``) in
    ``engine``'s native batch call when it has one, the other items through the records, by
    ``solver`` (``None``: each by its kind's default)."""
    timing = {name: options[name] for name in ("time_limit", "clock", "wall_limit")}
    fast = (engine.run_columns(batch, limit=options["limit"], **timing)
            if batch and options["memory_limit"] is None else None)
    if fast is not None:
        fast.times["parse"][:] = parse_share
        fast.times["total"] += parse_share
        if len(batched) == len(items):
            return fast
    done = set(batched) if fast is not None else set()
    rest = [i for i in range(len(items)) if i not in done]
    try:
        records = solve_many([items[i] for i in rest], solver, **options)
    except Interrupted as stop:   # the records answered before the Ctrl-C, as columns
        raise Interrupted(ResultColumns.of_results(stop.done, engine.spec, options["limit"])) from None
    slow = ResultColumns.of_results(records, engine.spec, options["limit"])
    return ResultColumns.placed(len(items), [(batched, fast), (rest, slow)] if fast is not None else [(rest, slow)])


def encode(puzzle: Puzzle | str, to: str, memory_limit: float | str | None = None, **options: Any):
    """The artifact of ``puzzle`` for a target representation (``dimacs``, ``dlx``, ``cpsat``,
    ``smt2``); the artifact can ``write()`` itself as text.  ``memory_limit`` (MB, or a text
    with a unit, as for :func:`solve` and ``export --memory-limit``) bounds what the
    encodings that grow fastest may take, estimated before they are made (default 2 GiB)."""
    from .encoders.registry import artifact_for
    return artifact_for(_as_puzzle(puzzle), to, memory_limit=check_memory_limit(memory_limit), **options)


def load_results(db: str | os.PathLike):
    """Every row of a results database's ``results`` view (the latest result of each puzzle,
    solver and solution limit, with every column ``report --raw`` writes) as a pandas
    DataFrame.  The database is opened read-only; a file that is not one raises
    :class:`~puzzlebench.errors.UsageError`; a row holding a value of the wrong kind (a file
    edited by hand) is left out, named on standard error, as in every report.  pandas is an optional extra:
    ``pip install 'puzzlebench[data]'``."""
    try:
        import pandas
    except ImportError:
        raise ImportError("puzzlebench.load_results needs pandas, an optional extra: "
                          "pip install 'puzzlebench[data]' (or pip install pandas)") from None
    from .harness.database import open_existing
    from .harness.report import raw_table
    reader = open_existing(os.fspath(db))
    try:
        columns, rows = raw_table(reader)
    finally:
        reader.close()
    return pandas.DataFrame.from_records(rows, columns=columns)
