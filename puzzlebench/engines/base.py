"""What an engine is, and the one way every engine is run and timed.

An engine turns a puzzle into its own artifact (:meth:`Engine.encode`), searches it for up to
``limit`` solutions (:meth:`Engine.search`), and turns each raw answer back into a value per
cell (:meth:`Engine.decode`).  :meth:`Engine.run` does those three steps for every engine the
same way: it times each one, applies the time limit, verifies every solution with the
puzzle's own checker and fills in the shared :class:`~puzzlebench.results.Result`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Sequence

from ..encoders.budget import OverBudget, check_budget
from ..errors import EngineError, OutOfTime, SolverSpecError, UsageError
from ..options import INT64_MAX, MAX_ENGINE_SEED, Whole

WHOLE_INT64 = Whole(-INT64_MAX - 1, INT64_MAX)
from ..models.base import Puzzle, Solution
from ..models.kinds import KIND_NAMES
from ..results import (SOLVED, Result, ResultColumns, Results, Stats, Status, Times, error_result,
                       status_of)
from ..runtime.clock import check_clock, process_cpu
from ..runtime.interrupts import CtrlCWatch, ctrl_c_kept, deferred_interrupt, is_interrupt, reinstate_sigint_handler
from ..runtime.limits import (Deadline, Interrupted, batch_past_the_limit, checked_limits, columns_past_the_limit,
                              past_the_limit)
from .batch import verify_in_bulk

EVERY_KIND = KIND_NAMES   # live: a kind registered later is one of them
"""The ``kinds`` of an engine generic over the rule vocabulary: every registered kind (a rule
it cannot express is an ``EngineError`` naming it, never a wrong answer)."""


ON_PUZZLE, ON_CNF = "puzzle", "cnf"
"""What an engine runs on: a puzzle, which it encodes itself, or a CNF file taken as it is
(``solve-cnf``)."""


@dataclass(frozen=True)
class Option:
    """An engine option, set in a solver spec as ``@name=value``."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple = ()
    number: Whole = WHOLE_INT64   # the bounds of an int option
    applies: Callable[[Any, str], str | None] | None = None
    """``(engine, on) -> why not``: why the option would do nothing for this engine (its
    variant, its format) running on ``on`` (:data:`ON_PUZZLE`, :data:`ON_CNF`), or ``None``
    where it acts; no function: it acts everywhere.  A spec giving an option where it would do
    nothing is refused (:func:`~puzzlebench.engines.registry.make_engine`), not run as though
    it had not been written."""

    def convert(self, text: str) -> Any:
        if self.type is int:   # a whole number within what C and SQLite take (10^23 passed to a library)
            value = (self.number.read(text, f"option {self.name}") if isinstance(text, str)
                     else self.number.check(text, f"option {self.name}"))
            return self._chosen(value, text)
        if not isinstance(text, str):   # given as a value (the API's options dict)
            return text
        try:
            if self.type is bool:
                low = text.lower()
                if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                    raise ValueError
                value = low in ("1", "true", "yes", "on")
            else:
                value = self.type(text)
        except ValueError:
            raise SolverSpecError(f"option {self.name}={text!r}: expected {self.type.__name__}") from None
        return self._chosen(value, text)

    def _chosen(self, value, text) -> Any:
        if self.choices and value not in self.choices:
            raise SolverSpecError(f"option {self.name}={text!r}: choose one of "
                                  f"{', '.join(map(str, self.choices))}")
        return value


def encodes_a_puzzle(engine, on: str) -> str | None:
    """``applies`` of an option that says how a puzzle becomes a CNF: a CNF file has none to say."""
    return "a CNF file is solved as it is: the option says how a puzzle becomes one" if on == ON_CNF else None


DEFAULT_ENGINE_SEED = 0


def check_engine_seed(seed: int) -> int:
    """An engine seed (``--engine-seed``): a whole number from 0 to :data:`MAX_ENGINE_SEED`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_ENGINE_SEED:
        raise UsageError(f"the engine seed must be a whole number from 0 to {MAX_ENGINE_SEED}; got {seed!r}")
    return seed


@dataclass
class SearchOutcome:
    """What a search found: the first ``keep`` raw solutions, how many it found in all,
    whether the clock stopped it, and what the result's ``error`` says (how a timed-out
    search was stopped: an external program killed by a signal)."""

    solutions: list[Any]
    count: int
    timed_out: bool = False
    stats: Stats = field(default_factory=Stats)
    error: str | None = None


class Engine(ABC):
    """One paradigm's engine.  Subclasses set the class attributes and :meth:`search`."""

    family: ClassVar[str]
    summary: ClassVar[str]
    variants: ClassVar[tuple[str, ...]] = ()  # the first is the default
    kinds: ClassVar[frozenset[str]] = frozenset()   # every engine says which kinds it takes
    holds_time_limit: ClassVar[bool] = False
    takes_candidates: ClassVar[bool] = False
    """Whether the engine starts from a Sukaku's pencil marks (``puzzle.candidates``); any other
    engine refuses a Sukaku rather than solve its givens alone (a wrong answer)."""
    """Whether every phase (encode, search, decode) looks at the run's clock, so that a time
    limit holds in-process; otherwise the API and the commands run the engine in a child
    process killed at the limit (:func:`~puzzlebench.runtime.child.run_limited`)."""
    stops_at_ctrl_c: ClassVar[bool] = True
    """Whether a Ctrl-C stops the engine's search in-process and leaves the process sound;
    otherwise the API and the commands run the engine in a child process that the Ctrl-C
    ends, where one can come (:func:`~puzzlebench.runtime.child.run_limited`)."""
    options: ClassVar[tuple[Option, ...]] = ()
    seed_parameter: ClassVar[str | None] = None
    """How the engine seed (``--engine-seed``, :meth:`seeded`) reaches the search, as
    ``puzzlebench solvers`` shows it; ``None``: the engine has no randomness to seed, ignores
    the seed, and its results record none."""
    _engine_seed: int = DEFAULT_ENGINE_SEED
    statistics: ClassVar[dict[str, str]] = {}
    """Normalised statistic → what this engine counts for it (missing: the engine has none)."""
    library: ClassVar[str | None] = None
    """The distribution whose version is reported (None: puzzlebench itself)."""
    libraries: ClassVar[tuple[str, ...]] = ()
    """The modules the engine imports when it first runs (its native libraries), which
    :meth:`load` imports ahead: a process under a memory limit loads them before its cap is
    set, so that only the run is held to the cap (Z3 loaded under it printed "Could not find
    libz3.so" on standard output or died by SIGSEGV; OR-Tools died by SIGABRT)."""

    certifier: Callable[[Result, Puzzle, Deadline], Result] | None = None
    """What certifies each claim of absence (``unsat``, ``unique``, a complete count) where the
    answers are verified (:meth:`run`, :meth:`run_many`, the bench's workers): a
    :class:`~.certify.Certifier`, set by :func:`~.certify.certified` (``--certify``, the API's
    ``certify``); ``None``: claims are not certified."""

    memory_budget: int | None = None
    """Bytes an encoding may take, where the caller gives a memory limit of its own (``generate
    --memory-limit``); else a memory limit's ``RLIMIT_DATA``, else the default budget
    (:mod:`puzzlebench.encoders.budget`)."""

    def __init__(self, variant: str | None = None, options: dict[str, Any] | None = None):
        if self.variants:
            variant = variant or self.variants[0]
            if variant not in self.variants:
                raise SolverSpecError(f"{self.family} has no variant {variant!r}; variants: "
                                      f"{', '.join(self.variants)}")
        elif variant:
            raise SolverSpecError(f"{self.family} has no variants (got {variant!r})")
        self.variant = variant
        known = {o.name: o for o in self.options}
        self.settings = {o.name: o.default for o in self.options}
        for name, value in (options or {}).items():
            if name not in known:
                listed = ", ".join(known) or "none"
                raise SolverSpecError(f"{self.family} has no option {name!r}; options: {listed}")
            self.settings[name] = known[name].convert(value)

    def why_option_does_not_apply(self, name: str, on: str = ON_PUZZLE) -> str | None:
        """Why option ``name`` would do nothing for this engine running on ``on``, or ``None``
        (:attr:`Option.applies`)."""
        option = next((o for o in self.options if o.name == name), None)
        return option.applies(self, on) if option is not None and option.applies else None

    @property
    def spec(self) -> str:
        """The canonical spec: family, variant, and the options that differ from their defaults."""
        text = self.family + (f":{self.variant}" if self.variant else "")
        changed = [f"{o.name}={self.settings[o.name]}" for o in self.options
                   if self.settings[o.name] != o.default]
        return text + ("@" + ";".join(changed) if changed else "")

    # -- the engine seed ------------------------------------------------------------------

    def takes_seed(self) -> bool:
        """Whether this engine's searches use the engine seed (a variant may take none)."""
        return self.seed_parameter is not None

    @property
    def engine_seed(self) -> int | None:
        """The seed this engine's searches are given (default 0, so that a run reproduces),
        ``None`` when it takes none.  Not part of :attr:`spec`: repeats with different seeds
        are runs of the same solver."""
        return self._engine_seed if self.takes_seed() else None

    def seeded(self, seed: int) -> "Engine":
        """This engine, its next searches given ``seed`` (checked: :func:`check_engine_seed`)."""
        self._engine_seed = check_engine_seed(seed)
        return self

    # -- facts for `puzzlebench solvers` ----------------------------------------------------

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why the engine cannot run here, or ``None`` when it can."""
        return None

    @classmethod
    def version(cls) -> str:
        try:
            return importlib.metadata.version(cls.library or "puzzlebench")
        except importlib.metadata.PackageNotFoundError:
            return "unknown"

    def load(self) -> None:
        """Load what the engine's first run would load (by default the modules named in
        :attr:`libraries`), so that a later run allocates for its puzzle alone.  Called by a
        process under a memory limit before it sets its cap; an engine whose library sets
        itself up on first use (a context, a solver class) overrides it to do that too.  A
        library that cannot be loaded raises nothing here: the run says why, as it would have.
        A Ctrl-C during the imports raises, even where a library's import took it for a failed
        one (OR-Tools' under CPMpy, whose half-made module then failed the run: NameError)."""
        self.load_libraries()

    def load_libraries(self) -> None:
        """Import the modules named in :attr:`libraries` (see :meth:`load`)."""
        with ctrl_c_kept():
            for name in self.libraries:
                try:
                    importlib.import_module(name)
                except Exception:
                    return

    # -- the three steps ------------------------------------------------------------------

    def encode(self, puzzle: Puzzle) -> Any:
        """The engine's artifact for ``puzzle`` (by default the puzzle itself)."""
        return puzzle

    def size(self, artifact: Any) -> dict[str, int]:
        """Artifact size: items/options, variables/clauses, model variables/constraints."""
        return {}

    @abstractmethod
    def search(self, artifact: Any, limit: int | None, keep: int, deadline: Deadline) -> SearchOutcome:
        """Find up to ``limit`` solutions (``None``: all), keep the first ``keep``."""

    def decode(self, artifact: Any, raw: Any) -> Solution:
        return tuple(raw)

    def prove(self, puzzle: Puzzle, solutions: Sequence[Solution], deadline: Deadline) -> bytes | None:
        """The engine's own proof that ``puzzle`` has no solution but ``solutions`` (all of them
        found): a binary DRAT refutation of the puzzle's CNF with a blocking clause for each
        (:func:`~.certify.claim_formula`), which the certifier checks before it asks a SAT
        solver.  ``None`` where the engine gives none: the default; a search stopped by
        ``deadline``; a search whose solutions are not ``solutions``."""
        return None

    def proof_form(self, puzzle: Puzzle) -> str:
        """The form of :meth:`prove`'s proof of ``puzzle``: ``drat``, or ``lrat`` (each lemma
        with the IDs of the clauses that derive it, checked by its hints)."""
        return "drat"

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        """What :meth:`encode` allocates for ``puzzle``, estimated from its shape before it runs
        (each encoder's ``estimated_bytes``); 0 where the artifact is the puzzle's size."""
        return 0

    def check_budget(self, puzzle: Puzzle) -> None:
        """:class:`~puzzlebench.encoders.budget.OverBudget` when the encoding of ``puzzle`` is
        estimated past what this run may hold (the one check of every engine's encoding).  The
        engine's libraries are imported first, as its run would import them: under a memory
        limit what they hold (OR-Tools 127 MB) is out of what the cap leaves the run."""
        self.load_libraries()
        check_budget(self.estimated_bytes(puzzle), f"{self.family}'s encoding of this {puzzle.kind}",
                     self.memory_budget)

    def encode_until(self, puzzle: Puzzle, deadline: Deadline) -> Any:
        """:meth:`encode` under the run's clock.  An engine whose encoding can outlast a time
        limit (exact cover of Skyscrapers lines: hundreds of thousands of options) overrides it
        and raises :class:`~puzzlebench.errors.OutOfTime` when the deadline passes."""
        return self.encode(puzzle)

    # -- running --------------------------------------------------------------------------

    def run(self, puzzle: Puzzle, *, limit: int | None = 2, time_limit: float | None = None,
            keep: int = 10, verify: bool = True, parse_time: float = 0.0, clock: str = "wall",
            wall_limit: float | None = None, watch: CtrlCWatch | None = None) -> Result:
        """Encode, search, decode and verify one puzzle, timing each step; the time limit held
        on ``clock`` (``wall`` or ``cpu``, with ``wall_limit`` beside a CPU limit: see
        :func:`~puzzlebench.runtime.clock.check_clock`).  A run over its limit is a
        ``timeout`` whatever it answered (:func:`past_the_limit`).  ``watch``: the batch's
        Ctrl-C watch (:class:`Deadline`)."""
        limit, time_limit = checked_limits(limit, time_limit)
        wall_limit = check_clock(clock, time_limit, wall_limit)
        if puzzle.kind not in self.kinds:
            return error_result(f"{self.family} does not handle {puzzle.kind} puzzles "
                                f"(it handles {', '.join(sorted(self.kinds))})", kind=puzzle.kind,
                                solver=self.spec, limit=limit, source=puzzle.source, puzzle=puzzle)
        if getattr(puzzle, "candidates", None) is not None and not self.takes_candidates:
            return error_result(f"{self.family} does not take pencil marks (a Sukaku); the human, "
                                "mrv, sat and cpsat solvers do", kind=puzzle.kind, solver=self.spec,
                                limit=limit, source=puzzle.source, puzzle=puzzle)
        times = Times(parse=parse_time)
        cpu = process_cpu()   # CPU time too: what the engine consumed, whatever else runs here
        start = time.perf_counter()
        deadline = Deadline(time_limit, clock, wall_limit, watch)
        try:
            self.check_budget(puzzle)
        except OverBudget as exc:   # refused before anything was allocated
            times.total = time.perf_counter() - start + parse_time
            return Result(kind=puzzle.kind, solver=self.spec, limit=limit, count=0, times=times,
                          status=Status.MEMOUT if exc.limited else Status.ERROR, error=str(exc),
                          source=puzzle.source, puzzle=puzzle)
        try:
            artifact = self.encode_until(puzzle, deadline)
            t1 = time.perf_counter()
            try:
                outcome = self.search(artifact, limit, keep, deadline)
            finally:
                reinstate_sigint_handler()
            if outcome.timed_out and deadline.at is None:
                # no clock to run out: the back end stopped on a Ctrl-C it caught itself
                # (OR-Tools' own SIGINT handler, Z3's through CPMpy): a Ctrl-C, not a timeout,
                # so the command stops rather than going on with the rest
                raise KeyboardInterrupt
            t2 = time.perf_counter()
            solutions = [self.decode(artifact, raw) for raw in outcome.solutions]
            t3 = time.perf_counter()
            times.cpu = process_cpu() - cpu
        except OutOfTime:  # the clock ran out before the search began
            times.encode = time.perf_counter() - start
            times.total = times.encode + parse_time
            times.cpu = process_cpu() - cpu
            return Result(kind=puzzle.kind, solver=self.spec, limit=limit, status=Status.TIMEOUT, count=0,
                          times=times, source=puzzle.source, puzzle=puzzle)
        except Exception as exc:
            if deadline.ctrl_c():   # a library's failure at its stop call is the Ctrl-C (Z3 gives
                raise KeyboardInterrupt from None   # a reason of its own now and then)
            if not isinstance(exc, EngineError):
                raise
            times.total = time.perf_counter() - start + parse_time
            times.cpu = process_cpu() - cpu
            return error_result(str(exc), kind=puzzle.kind, solver=self.spec, limit=limit,
                                source=puzzle.source, puzzle=puzzle, times=times)
        times.encode, times.solve, times.decode = t1 - start, t2 - t1, t3 - t2
        times.total = t3 - start + parse_time
        result = Result(kind=puzzle.kind, solver=self.spec, limit=limit,
                        status=status_of(outcome.count, limit, outcome.timed_out),
                        count=outcome.count, solutions=solutions, times=times, stats=outcome.stats,
                        size=self.size(artifact), source=puzzle.source, puzzle=puzzle,
                        error=outcome.error)
        past_the_limit(result, time_limit, clock, wall_limit)
        if verify:
            verify_result(result, puzzle)
            if self.certifier is not None:
                self.certifier(result, puzzle, deadline)
        return result

    def certify_all(self, results: Results, time_limit: float | None, clock: str = "wall",
                    wall_limit: float | None = None) -> Results:
        """:attr:`certifier` on every verified answer of a batch, each with what its time limit
        leaves after its run."""
        if self.certifier is not None:
            for result in results.to_records().records:   # records kept: each gets its certificate
                left = None if time_limit is None else max(0.0, time_limit - result.times.total)
                self.certifier(result, result.puzzle, Deadline(left, clock, wall_limit))
        return results

    def run_text(self, text: str, *, kind: str | None = None, box=None, limit: int | None = 2,
                 time_limit: float | None = None, keep: int = 10) -> Result:
        """One puzzle text: the reader's parse (a text that is no puzzle gives an ``error``
        result with the reader's exact message), then :meth:`run`.  Batch paths fall back
        on it for the lines their fast parser does not take."""
        from ..errors import PuzzleError
        from ..models.reader import parse
        start = time.perf_counter()
        try:
            puzzle = parse(text, kind=kind, box=box)
        except PuzzleError as exc:
            spent = time.perf_counter() - start
            return error_result(str(exc), solver=self.spec, limit=limit,
                                times=Times(parse=spent, total=spent))
        return self.run(puzzle, limit=limit, time_limit=time_limit, keep=keep,
                        parse_time=time.perf_counter() - start)

    def run_many(self, puzzles: Sequence[Puzzle], *, limit: int | None = 2,
                 time_limit: float | None = None, keep: int = 10, verify: bool = True,
                 clock: str = "wall", wall_limit: float | None = None) -> Results:
        """Run many puzzles (a list, or a model's compact batch): one :class:`Results` in their
        order, verified with :func:`verify_all` unless ``verify`` is false (the harness verifies
        itself).  Engines with a native batch call override :meth:`batch`
        (:class:`~puzzlebench.engines.batch.NativeBatch`)."""
        limit, time_limit = checked_limits(limit, time_limit)
        wall_limit = check_clock(clock, time_limit, wall_limit)
        cpu = process_cpu()
        with deferred_interrupt() as deferred:   # a native call answers all its puzzles or none
            results = self.batch(puzzles, limit=limit, time_limit=time_limit, keep=keep)
        if results is not None:
            results.batch_cpu = process_cpu() - cpu
            if results.columns is not None:
                results.cpu_batch_size = len(results)
            elif len(results) and not any(r.times.cpu for r in results.records):
                share = results.batch_cpu / len(results)   # a batch call that answered with records
                for r in results.records:
                    r.times.cpu = share
                results.cpu_batch_size = len(results)
            batch_past_the_limit(results, time_limit, clock, wall_limit)
        if results is None and deferred.hit:   # pressed while the engine looked for a batch call
            raise Interrupted(Results.of([], puzzles[:0], self.spec, limit))
        if results is None:
            done: list[Result] = []
            try:
                with CtrlCWatch() as watch:   # one for the batch: a thread a run cost more than a 9x9's search
                    for p in puzzles:
                        done.append(self.run(p, limit=limit, time_limit=time_limit, keep=keep, verify=False,
                                             clock=clock, wall_limit=wall_limit, watch=watch))
            except BaseException as exc:   # a Ctrl-C: the puzzles done so far go with it
                if not is_interrupt(exc):
                    raise
                finished = Results.of(done, puzzles[:len(done)], self.spec, limit)
                raise Interrupted(verify_all(finished) if verify else finished) from None
            results = Results.of(done, puzzles, self.spec, limit)
        if verify:
            results = self.certify_all(verify_all(results), time_limit, clock, wall_limit)
        if deferred.hit or len(results) < len(puzzles):   # a native batch stopped by the Ctrl-C
            raise Interrupted(results)
        return results

    def run_columns(self, puzzles: Sequence[Puzzle], *, limit: int | None = 2,
                    time_limit: float | None = None, clock: str = "wall",
                    wall_limit: float | None = None) -> ResultColumns | None:
        """The puzzles in the engine's native batch call as a :class:`ResultColumns` (written in
        C, checked in bulk, no object a puzzle; each puzzle's CPU time an even share of the
        call's), or ``None`` when it has none for them: then :meth:`run_many`'s records, as
        :meth:`ResultColumns.of_results`, are the same columns.  A Ctrl-C raises
        :class:`Interrupted` carrying the columns of the puzzles answered before it."""
        limit, time_limit = checked_limits(limit, time_limit)
        wall_limit = check_clock(clock, time_limit, wall_limit)
        cpu = process_cpu()
        with deferred_interrupt() as deferred:
            table = self.batch_table(puzzles, limit=limit, time_limit=time_limit)
        if table is None:
            if deferred.hit:
                raise Interrupted(ResultColumns.of_results([], self.spec, limit))
            return None
        table.times["cpu"][:] = (process_cpu() - cpu) / max(1, len(table))
        columns_past_the_limit(table, time_limit, clock, wall_limit)
        if deferred.hit or len(table) < len(puzzles):   # the native call stopped by the Ctrl-C
            raise Interrupted(table)
        return table

    def verified(self, results: Results) -> Results:
        """Answers of this engine run elsewhere (a child process), checked as :meth:`run_many`
        checks its own (:func:`verify_all`)."""
        return verify_all(results)

    def batch_table(self, puzzles: Sequence[Puzzle], *, limit: int | None,
                    time_limit: float | None) -> ResultColumns | None:
        """The engine's native batch call for these puzzles as verified columns, or ``None``
        when it has none for them (:class:`~puzzlebench.engines.batch.NativeBatch`)."""
        return None

    def batch(self, puzzles: Sequence[Puzzle], *, limit: int | None, time_limit: float | None,
              keep: int) -> Results | None:
        """The engine's native batch call for these puzzles (limits already checked; answers
        unverified), or ``None`` when it has none for them (then each puzzle is run alone)."""
        return None


def verify_result(result: Result, puzzle: Puzzle) -> Result:
    """Check every solution with the puzzle's own checker; a wrong or repeated one turns the
    result into an error, loudly."""
    seen = set()
    for solution in result.solutions:
        problems = puzzle.check(solution)
        if problems:
            result.status = Status.ERROR
            result.error = f"wrong answer from {result.solver}: {problems[0]}"
            return result
        if solution in seen:
            result.status = Status.ERROR
            result.error = f"wrong answer from {result.solver}: the same solution twice"
            return result
        seen.add(solution)
    if result.status is not Status.ERROR and result.count < len(result.solutions):
        result.status = Status.ERROR
        result.error = f"{result.solver} counted {result.count} but returned {len(result.solutions)} solutions"
    result.verified = result.status is not Status.ERROR
    return result


def proof_of_these(solutions: Sequence[Solution], proof: bytes | None, count: int, found: bytes,
                   cells: int) -> bytes | None:
    """The proof of a search that counted a puzzle's solutions again (:meth:`Engine.prove`), when
    it found ``solutions`` and no other (``found``: the first ones, ``cells`` values each), else
    ``None``."""
    if proof is None or count != len(solutions):
        return None
    again = {tuple(found[k * cells:(k + 1) * cells]) for k in range(count)}
    return proof if again == set(map(tuple, solutions)) else None


def limit_reached(count: int, limit: int | None) -> bool:
    return limit is not None and count >= limit


def count_solutions(solutions: Iterable[Any], limit: int | None, keep: int) -> tuple[list[Any], int]:
    """Drain a generator of solutions up to ``limit``; keep the first ``keep``."""
    kept, count = [], 0
    for s in solutions:
        count += 1
        if len(kept) < keep:
            kept.append(s)
        if limit_reached(count, limit):
            break
    return kept, count


def verify_all(results: Results) -> Results:
    """Check every answer of a batch that claims a solution, with the puzzles' own checkers:
    in bulk where the puzzles have a bulk checker (:mod:`~puzzlebench.engines.batch`), the
    rest one by one (:func:`verify_result`).  A wrong answer, or a solved status with no
    solution to check, turns that puzzle's result into an error naming the problem (its index
    in ``results.wrong``)."""
    checked = verify_in_bulk(results)
    if checked is None:   # the columns of a native call, all right
        return results
    for i, (result, puzzle) in enumerate(zip(results.records, results.puzzles)):
        if result.status in SOLVED and not result.verified and not checked.get(i):
            if verify_answer(result, puzzle):
                results.wrong.add(i)
    return results


def verify_answer(result: Result, puzzle: Puzzle) -> bool:
    """:func:`verify_result` for a result that claims solutions; True when it is wrong
    (including a solved status with no solution to check)."""
    if result.status not in SOLVED:
        return False
    if not result.verified:
        verify_result(result, puzzle)
    if result.status is Status.ERROR:
        return True
    if not result.solutions:
        claimed = result.status
        result.status, result.verified = Status.ERROR, False
        result.error = f"wrong answer from {result.solver}: {claimed} with no solution to check"
        return True
    return False
