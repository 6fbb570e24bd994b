"""SAT engines: every solver the installed PySAT ships (``pysat.solvers.SolverNames``), on the
CNF of :mod:`puzzlebench.encoders.cnf`; Glucose 3 on the ``extended`` encoding by default,
the fastest on both benchmark sets (results/cnf.md).

Why it is shaped so: building a formula per puzzle in Python is the trap.  The shape's
formula is loaded once into a solver the engine keeps; a puzzle's givens are assumptions and
its blocking clauses carry an activation literal set false for good afterwards, so that what
the solver keeps stays implied by the base formula and reusing it is sound.  One long-lived
:class:`Watchdog` thread interrupts a search at its deadline (a ``threading.Timer`` per call
cost more than the rest of the Python around the solver).  What each solver can do is probed
once per process (:func:`probe`), and the engine adapts rather than leaving a solver out.
The details and the statistics: :class:`SatEngine`.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
import weakref
from dataclasses import dataclass, replace
from functools import lru_cache
from operator import neg
from typing import Iterator

from ..encoders.budget import pysat_bytes
from ..encoders.cnf import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, Cnf, encode
from ..encoders.cnf import estimated_bytes as cnf_estimated_bytes
from ..errors import EngineError
from ..models.base import Puzzle
from ..results import Stats
from ..runtime.interrupts import ctrl_c_kept, ctrl_c_left_to_the_parent, is_pysat_interrupt, stop_at_ctrl_c
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, Option, SearchOutcome, encodes_a_puzzle
from .blocking import STOPPED, enumerate_by_blocking

PREFERRED = ("glucose3", "minisat22", "glucose4", "glucose42", "maplechrono", "maplecm",
             "maplesat", "mergesat3", "minicard", "gluecard3", "gluecard4", "minisatep", "ergo")
"""Order of the variants: the default first (the fastest on the benchmarks, see results/cnf.md)."""

KNOWN = ("cadical103", "cadical153", "cadical195", "cadical300", "cryptosat", "ergo", "gluecard3",
         "gluecard4", "glucose3", "glucose4", "glucose42", "kissat404", "lingeling", "maplechrono",
         "maplecm", "maplesat", "mergesat3", "minicard", "minisat22", "minisatgh", "minisatep")
REBUILD_CONFLICTS = 1000  # conflicts on one kept solver before it is rebuilt (learnt clauses pile up)
REBUILD_PUZZLES = 500  # or puzzles (each adds a switch variable, and the model grows with them)
SLICE_CONFLICTS = 5000  # a slice of a search that cannot be interrupted (some 0.1 s of CaDiCaL's)
STATS = ("decisions", "conflicts", "propagations", "restarts")
PROOF_LOGGING = ("cadical103", "cadical153", "cadical195", "cadical300", "ergo", "glucose3", "glucose4",
                 "glucose42", "gluecard3", "gluecard4", "lingeling", "maplechrono", "maplecm")
"""The PySAT solvers that write a DRAT proof of an unsatisfiable formula (``with_proof``), in
python-sat 1.9; the others raise NotImplementedError or are in :data:`BAD_PROOFS` (a test holds
both to the library)."""
BAD_PROOFS = {"maplesat": "its proof's literals are one variable off ('d -2 0' deletes the clause -1): "
                          "the checker rejects them"}
"""Solvers whose proofs are written but wrong, so never a prover."""
SEED_PARAMETERS = {"cadical153": "seed", "cadical195": "seed", "cadical300": "seed", "glucose42": "rnd-seed"}
"""The PySAT solvers whose random seed can be set (``Solver.configure``, before any clause:
CaDiCaL takes options only right after it is made), and the parameter's name."""


@dataclass(frozen=True)
class Abilities:
    """What a PySAT solver can do beyond solving and giving a model (found by :func:`probe`)."""

    interrupt: bool = True      # solve_limited + interrupt: the watchdog holds the time limit
    assumptions: bool = True    # the givens as assumptions on a solver kept across puzzles
    incremental: bool = True    # clauses added between solves (else a new solver per solve)
    statistics: bool = True     # accum_stats()
    budget: bool = False        # else a conflict budget: searched in slices (solve_in_slices)

    def notes(self) -> str | None:
        """What ``puzzlebench solvers`` says of a solver that cannot do everything."""
        said = []
        if not self.interrupt and self.budget:
            said.append(f"cannot be interrupted: searched in slices of {SLICE_CONFLICTS:,} conflicts off the main "
                        "thread, a Ctrl-C looked at between two; under a time limit it runs in a child process "
                        "killed at the limit, where it searches in one call, or in slices closing in on the "
                        "limit, as its own seed and schedules need")
        elif not self.interrupt:
            said.append("cannot be interrupted in-process: under a time limit, or where a Ctrl-C can "
                        "come, it runs in a child process killed at the limit or the Ctrl-C")
        if not self.assumptions:
            said.append("takes no assumptions: a solver of its own for each puzzle")
        if not self.incremental:
            said.append("solves once (a clause added after a solve aborts it): a new solver for "
                        "each model, with the blocking clauses so far")
        if not self.statistics:
            said.append("exposes no statistics")
        return "; ".join(said) or None


ONE_SHOT = {"kissat404"}
"""Solvers that must never be given a clause after a solve: Kissat 4.0.4 in python-sat 1.9
aborts the whole process (``kissat_add: Coverage goal `solver->level' reached``), so this
cannot be probed in-process; it is known by name."""


def _probe_one(name: str) -> str | Abilities:
    """Why ``name`` cannot be an engine, or what it can do."""
    import warnings

    from pysat.solvers import Solver

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            s = Solver(name=name, bootstrap_with=[[1, 2], [-1, 2]])
    except Exception as exc:  # noqa: BLE001 (any failure means: not usable)
        return f"not built into this PySAT ({str(exc)[:60] or type(exc).__name__})"
    try:
        assumptions = True
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                if s.solve(assumptions=[-2]) is not False:
                    return "ignores assumptions"
        except Exception:  # noqa: BLE001 (Kissat warns that it ignores them)
            assumptions = False
        if not s.solve() or s.get_model() is None:
            return "gives no model"
        interrupt = True
        try:
            s.solve_limited(expect_interrupt=True)
            s.interrupt()
            s.clear_interrupt()
        except Exception:  # noqa: BLE001 (CaDiCaL, Lingeling: "Limited solve is currently unsupported")
            interrupt = False
        incremental = name not in ONE_SHOT
        budget = False
        if not interrupt and incremental:   # a slice after a slice: a one-shot solver cannot go on
            try:
                s.conf_budget(SLICE_CONFLICTS)
                budget = s.solve_limited() is not None
            except Exception:  # noqa: BLE001 (Lingeling: "Limited solve is currently unsupported")
                budget = False
        if incremental:
            s.add_clause([-1, -2])
            if s.solve(assumptions=[1] if assumptions else []) is not (False if assumptions else True):
                return "cannot take clauses between calls (blocking clauses)"
        try:
            s.accum_stats()
            statistics = True
        except Exception:  # noqa: BLE001 (Kissat: "Statistics are not exposed by Kissat in PySAT")
            statistics = False
        return Abilities(interrupt, assumptions, incremental, statistics, budget)
    finally:
        s.delete()


def offered() -> tuple[str, ...]:
    """Every solver the installed python-sat names (``pysat.solvers.SolverNames``), or
    :data:`KNOWN` where it has no such table."""
    try:
        from pysat.solvers import SolverNames
    except ImportError:
        return KNOWN
    names = tuple(sorted(n for n, v in vars(SolverNames).items()
                         if not n.startswith("_") and isinstance(v, tuple)))
    return names or KNOWN


@lru_cache(maxsize=1)
def probe() -> tuple[tuple[str, ...], dict[str, str], dict[str, Abilities]]:
    """(usable solver names, default first; {left-out name: reason}; {usable name: abilities})."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return (), {"*": "python-sat is not installed (pip install python-sat)"}, {}
    abilities, excluded = {}, {}
    for name in offered():
        found = _probe_one(name)
        if isinstance(found, str):
            excluded[name] = found
        else:
            abilities[name] = found
    usable = list(abilities)
    order = [n for n in PREFERRED if n in usable] + [n for n in usable if n not in PREFERRED]
    return tuple(order), excluded, abilities


VARIANTS, EXCLUDED, ABILITIES = probe()


class Watchdog:
    """One daemon thread that interrupts the armed solver once its deadline has passed.

    ``arm`` and ``disarm`` only take a lock and set two fields; the thread is woken only when
    it sleeps with nothing to watch or until a later deadline than the new one (when each
    puzzle has its own deadline, a newer one is later: the thread wakes at the old one, sees
    the new one and sleeps again).  Whether it fired is read (and the solver's interrupt flag
    cleared) under the same lock, so a late interrupt can never reach the next search."""

    _all: "weakref.WeakSet[Watchdog]" = weakref.WeakSet()

    def __init__(self) -> None:
        self._reset()
        Watchdog._all.add(self)

    def _reset(self) -> None:  # also in a forked child: the parent's thread and lock stay behind
        self._cond = threading.Condition(threading.Lock())
        self._solver = None
        self._at: float | None = None
        self._sleeping_until: float | None = None
        self._fired = False
        self._stop = False
        self._thread: threading.Thread | None = None

    def arm(self, solver, at: float) -> None:
        with self._cond:
            self._solver, self._at = solver, at
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="sat-watchdog", daemon=True)
                self._thread.start()
            elif self._sleeping_until is None or at < self._sleeping_until:
                self._cond.notify()

    def disarm(self) -> bool:
        """Stop watching; True when the solver was interrupted (its flag is cleared)."""
        with self._cond:
            fired, solver = self._fired, self._solver
            self._solver = self._at = None
            self._fired = False
            if fired:
                solver.clear_interrupt()
        return fired

    def _watch(self) -> None:
        cond = self._cond
        with cond:
            while not self._stop:
                at = self._at
                if at is None:
                    self._sleeping_until = None
                    cond.wait()
                    continue
                now = time.perf_counter()
                if now < at:
                    self._sleeping_until = at
                    cond.wait(at - now)
                    continue
                self._solver.interrupt()
                self._fired = True
                self._at = None

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()



class SolveThread:
    """One thread of an engine's own where the solves of a solver PySAT cannot interrupt run,
    in slices of a conflict budget (:data:`SLICE_CONFLICTS`).  PySAT sets its SIGINT handler,
    a ``longjmp`` out of the search, only for a solve called on the main thread; off it, a
    Ctrl-C is Python's and the extension's count's, looked at by ``stop()`` between two
    slices; the main thread holds its ``KeyboardInterrupt`` until the slice under way is done
    (the solver is never left mid-search, nor a hand-over half made).
    Two locks hand a solve over and back (a pool's futures cost three times as much a solve)."""

    _all: "weakref.WeakSet[SolveThread]" = weakref.WeakSet()

    def __init__(self) -> None:
        self._reset()
        SolveThread._all.add(self)

    def _reset(self) -> None:  # also in a forked child: the parent's thread stays behind
        self._thread: threading.Thread | None = None
        self._job = self._answer = None
        self._given, self._done = threading.Lock(), threading.Lock()
        self._given.acquire()
        self._done.acquire()

    def solve(self, solver, assumptions: list[int], stop, budgets: Iterator[int] | None = None) -> bool | None:
        """``solver``'s answer under ``assumptions`` (``None``: ``stop()`` said so between two
        slices), in slices of ``budgets`` (by default :data:`SLICE_CONFLICTS` each)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="sat-solve", daemon=True)
            self._thread.start()
        with ctrl_c_kept():   # handed over and back whole: a Ctrl-C raises once the slice is done
            self._job = (solver, assumptions, stop, budgets)
            self._given.release()
            self._done.acquire()
        answered, value = self._answer
        if not answered:
            raise value
        return value

    def _serve(self) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})   # the kernel hands it to another
        while True:
            self._given.acquire()
            if self._job is None:
                return
            try:
                self._answer = (True, _solve_in_slices(*self._job))
            except BaseException as exc:  # noqa: BLE001 (handed to the caller)
                self._answer = (False, exc)
            self._done.release()

    def close(self) -> None:
        if self._thread is not None:
            self._job = None
            self._given.release()
            self._thread = None


def _solve_in_slices(solver, assumptions: list[int], stop, budgets: Iterator[int] | None = None) -> bool | None:
    for budget in budgets or itertools.repeat(SLICE_CONFLICTS):
        solver.conf_budget(budget)
        ok = solver.solve_limited(assumptions=assumptions)
        if ok is not None or stop():
            return ok


def slice_budgets(solver, deadline: Deadline) -> Iterator[int]:
    """The conflict budgets of a search's slices (-1: none).  Where a Ctrl-C can come,
    :data:`SLICE_CONFLICTS` each: it is looked at between two.  In a process that leaves SIGINT
    to its parent (a child or a worker, which the parent ends, and stops at its hard limits)
    each solve call is one slice, as PySAT alone solves, or under a time limit a first slice and
    then slices that close in on the deadline: a ``solve`` call starts CaDiCaL's schedules (its
    modes, rephasing, local search) again, and slices of 5,000 kept its seed from having any
    effect (results/bitboard.md, "Hard minimal 25x25")."""
    if not ctrl_c_left_to_the_parent():
        return itertools.repeat(SLICE_CONFLICTS)
    if deadline.at is None:
        return itertools.repeat(-1)
    return _to_the_deadline(solver, deadline)


def _to_the_deadline(solver, deadline: Deadline) -> Iterator[int]:
    """A first slice, then each the conflicts of half the time left at the rate so far: the
    rate falls as the learnt clauses pile up, and a slice that ran past the deadline would have
    the parent kill the process, the run's statistics with it."""
    started, before = time.perf_counter(), _conflicts(solver)
    yield SLICE_CONFLICTS
    while True:
        rate = (_conflicts(solver) - before) / max(time.perf_counter() - started, 1e-3)
        yield max(SLICE_CONFLICTS, int(rate * (deadline.remaining() or 0.0) / 2))


def _conflicts(solver) -> int:
    """The conflicts ``solver`` has searched, 0 where it does not say."""
    return (solver.accum_stats() or {}).get("conflicts", 0)


def _reset_watchdogs_in_child() -> None:
    for watchdog in list(Watchdog._all):
        watchdog._reset()
    for thread in list(SolveThread._all):
        thread._reset()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_watchdogs_in_child)


class OneShot:
    """A solver that can solve only once (:data:`ONE_SHOT`), behind the calls the engine makes
    of an incremental one: each ``solve`` builds a new solver from the formula and the clauses
    added so far, the assumptions as unit clauses, and deletes it once its model is read."""

    def __init__(self, name: str, clauses: list[list[int]]):
        self.name, self.clauses, self.added = name, clauses, []
        self.model: list[int] | None = None

    def add_clause(self, clause) -> None:
        self.added.append(list(clause))

    def solve(self, assumptions=()) -> bool:
        from pysat.solvers import Solver

        solver = Solver(name=self.name, bootstrap_with=self.clauses)
        try:
            solver.append_formula(self.added + [[lit] for lit in assumptions])
            ok = solver.solve()
            self.model = solver.get_model() if ok else None
        finally:
            solver.delete()
        return bool(ok)

    def get_model(self) -> list[int] | None:
        return self.model

    def accum_stats(self) -> dict:
        return {}

    def delete(self) -> None:
        self.added = []


class _Kept:
    """A solver loaded with a shape's base formula, kept across puzzles."""

    __slots__ = ("solver", "top", "puzzles", "conflicts_at_build", "last")

    def __init__(self, solver, top: int):
        self.solver, self.top, self.puzzles = solver, top, 0
        self.last = solver.accum_stats()
        self.conflicts_at_build = self.last.get("conflicts", 0)


class SatEngine(Engine):
    """CDCL solvers from PySAT on a kept formula, givens as assumptions (see the module doc).

    An engine must solve, give a model, count by blocking clauses (a clause added after each
    model, forbidding it) and stop at the time limit.  Most PySAT solvers can be interrupted
    (``solve_limited``, and one long-lived watchdog thread per engine that calls ``interrupt`` when
    the deadline of the running search passes, see :class:`Watchdog`; a ``threading.Timer`` per
    solve call cost about 370 us per top1465 puzzle, more than the rest of the Python around the
    solver).  What each solver can do is found out by trying it on a tiny formula once per process
    (:func:`probe`, :class:`Abilities`), and the engine adapts rather than leaving it out: CaDiCaL
    and Lingeling in PySAT cannot be interrupted (the limit is looked at between models, and the
    API, the commands and the bench run every ``sat`` engine in a process killed at the limit:
    ``holds_time_limit`` is false); Kissat takes no assumptions, exposes no statistics and solves
    only once (:class:`OneShot`: a new solver per model).  Only the solvers this PySAT was built
    without are listed in :data:`EXCLUDED`, with the reason.

    Speed: building a formula per puzzle in Python is the trap.  The formula of the shape is
    built once and loaded once into a solver that the engine keeps (one per shape, encoding and
    at-most-one encoding); a puzzle's givens are *assumptions*, and its blocking clauses carry an
    activation literal that is assumed during that puzzle only and set false for good afterwards,
    so that what the solver keeps (the base formula and clauses learnt from it) stays implied by
    the base formula: reusing the solver is sound.  The learnt clauses pile up, though, and most
    of them are about other puzzles: a kept solver is rebuilt from the base formula after
    :data:`REBUILD_CONFLICTS` conflicts (conflicts are what make learnt clauses) or
    :data:`REBUILD_PUZZLES` puzzles, whichever comes first (tdoku's own minisat driver rebuilds
    every 20 puzzles; the figures that chose these are in results/cnf.md: counting conflicts adapts
    to the set, about every 45 top1465 puzzles and every 10 of forum hardest).  ``optimized``
    (givens propagated away) makes a fresh solver for each puzzle from the reduced formula.

    The default is Glucose 3 on the ``extended`` encoding, the fastest on both benchmark sets
    (results/cnf.md).  ``augmented`` needs fewer conflicts but adds 486 variables, and on formulas
    this small the per-call work (propagating the givens again, a full model) grows with the
    variables: through PySAT it is the slower of the two.

    Statistics (PySAT's ``accum_stats()``, the difference over one puzzle's search):
    ``nodes`` = decisions (each decision opens a node of the search tree; assumptions are not
    counted by the solvers as decisions), ``conflicts`` = conflicts, ``propagations`` =
    propagations.  ``guesses`` and ``backtracks`` have no CDCL counterpart (a CDCL solver
    backjumps after a conflict: that is ``conflicts``).  ``raw`` keeps decisions, conflicts,
    propagations and restarts unrenamed."""

    kinds = EVERY_KIND
    family = "sat"
    summary = "CDCL SAT solvers from PySAT on the direct CNF encoding (givens as assumptions)"
    variants = VARIANTS
    excluded_variants = EXCLUDED
    """PySAT solvers left out, with the reason (listed by ``puzzlebench solvers``)."""
    holds_time_limit = False
    """Not in-process, for any variant: the Python encoder looks at no clock (an empty 64x64
    takes minutes), and CaDiCaL, Lingeling and Kissat in PySAT cannot be interrupted at all
    (:meth:`variant_notes`); a time-limited run goes to a child process killed at the limit."""
    options = (
        Option("encoding", str, DEFAULT_ENCODING, "CNF encoding: " + ", ".join(ENCODINGS), ENCODINGS,
               applies=encodes_a_puzzle),
        Option("amo", str, DEFAULT_AMO, "at-most-one encoding: " + ", ".join(AMO_ENCODINGS), AMO_ENCODINGS,
               applies=encodes_a_puzzle),
    )
    statistics = {
        "nodes": "decisions (PySAT accum_stats 'decisions'; empty for Kissat, which exposes no statistics)",
        "conflicts": "conflicts (accum_stats 'conflicts')",
        "propagations": "propagations (accum_stats 'propagations')",
    }
    seed_parameter = ("the solver's own seed where PySAT can set it: " +
            ", ".join(f"{name} '{parameter}'" for name, parameter in SEED_PARAMETERS.items()) +
            " (Solver.configure); the other variants take none")
    library = "python-sat"
    libraries = ("pysat.solvers", "pysat.card")   # pysat.card: the encoder's cardinality networks

    def __init__(self, variant=None, options=None):
        super().__init__(variant, options)
        self.abilities = ABILITIES.get(self.variant, Abilities())
        self._kept: dict[tuple, _Kept] = {}  # (base key, seed) -> the solver kept for that formula
        self._watchdog: Watchdog | None = None
        self._solve_thread: SolveThread | None = None

    @classmethod
    def left_out(cls) -> dict[str, str]:
        """The PySAT solvers this engine leaves out, and why."""
        return dict(EXCLUDED)

    @classmethod
    def variant_notes(cls) -> dict[str, str]:
        """The variants that cannot do everything, and how the engine runs them."""
        return {name: note for name in VARIANTS if (note := ABILITIES[name].notes())}

    @property
    def stops_at_ctrl_c(self) -> bool:
        """Whether a Ctrl-C stops this variant's search in-process: the watch's ``interrupt``
        (``solve_limited``), or a look between two slices of a conflict budget solved off the
        main thread (:class:`SolveThread`: CaDiCaL).  PySAT's plain ``solve`` on the main thread
        (Lingeling, Kissat) takes the SIGINT with a handler of its own that jumps out of the
        search (``longjmp``), from whichever thread the kernel hands the signal to, and leaves
        the solver mid-search: CaDiCaL then aborted the process at the next call ("solver in
        invalid state"), or the jump landed on another thread's stack ("double free")."""
        return self.abilities.interrupt or self.abilities.budget

    def recovered_from_a_jump(self, exc: BaseException) -> bool:
        """Whether ``exc`` is PySAT's Ctrl-C from a plain ``solve`` (:attr:`stops_at_ctrl_c`),
        this thread then made whole: its handler's ``longjmp`` leaves SIGINT blocked (the mask
        a handler runs with, which that jump does not restore), and every later Ctrl-C was lost
        (the next count ran for ever).  The solver it left is never called again."""
        if self.abilities.interrupt or self.abilities.budget or not is_pysat_interrupt(exc):
            return False
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        return True

    def new_solver(self, clauses: list[list[int]]):
        """A solver of this variant loaded with ``clauses`` (a :class:`OneShot` for those that
        solve once)."""
        if not self.abilities.incremental:
            return OneShot(self.variant, clauses)
        from pysat.solvers import Solver

        if self.engine_seed is None:
            return Solver(name=self.variant, bootstrap_with=clauses)
        solver = Solver(name=self.variant)
        solver.configure({SEED_PARAMETERS[self.variant]: self.engine_seed})
        solver.append_formula(clauses)
        return solver

    def takes_seed(self) -> bool:
        return self.variant in SEED_PARAMETERS

    def refute(self, clauses: list[list[int]], n_candidates: int, deadline: Deadline, proof_path: str) -> tuple[str, object]:
        """``clauses`` solved once on a fresh solver of this variant (one of
        :data:`PROOF_LOGGING`) that logs a DRAT proof, written to ``proof_path``, under
        ``deadline``: ``("unsat", None)``, ``("sat", the model's true candidates)`` or
        ``("stopped", None)``.  Fresh and not incremental: a kept solver's proof would span
        puzzles and never reach the empty clause under assumptions."""
        from pysat.solvers import Solver

        solver = Solver(name=self.variant, bootstrap_with=clauses, with_proof=True)
        jumped = False
        try:
            kept, count, timed_out = self.models(solver, [], n_candidates, 1, 1, deadline, lambda true: None)
            if timed_out:
                return "stopped", None
            if count:
                return "sat", kept[0]
            with open(proof_path, "w") as out:
                out.writelines(line + "\n" for line in solver.get_proof())
            return "unsat", None
        except BaseException as exc:
            jumped = self.recovered_from_a_jump(exc)   # left mid-search: never called again
            raise
        finally:
            if not jumped:
                solver.delete()

    def statistics_of(self, solver) -> dict | None:
        """The solver's accumulated counters, or None where it exposes none."""
        return solver.accum_stats() if self.abilities.statistics else None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if not VARIANTS:
            return EXCLUDED.get("*", "no PySAT solver can be interrupted here")
        return None

    takes_candidates = True

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        """The formula's clause lists and what the SAT solver holds of them: its copy, its
        watches and its search's growth, measured for each solver
        (:data:`~puzzlebench.encoders.budget.PYSAT_BYTES`)."""
        per_clause, per_literal = pysat_bytes(self.variant)
        return cnf_estimated_bytes(puzzle, self.settings["encoding"], self.settings["amo"],
                                   per_clause=per_clause, per_literal=per_literal)

    def encode(self, puzzle: Puzzle) -> Cnf:
        cnf = encode(puzzle, self.settings["encoding"], self.settings["amo"])
        marks = getattr(puzzle, "candidates", None)
        if marks:   # a Sukaku: each ruled-out candidate of an open cell is one more assumption
            if cnf.fixed is not None:
                raise EngineError(f"{self.spec}: the optimized encoding takes no pencil marks "
                                  "(a Sukaku); use another encoding")
            n = cnf.n_values
            out = [-(cell * n + v) for cell, m in enumerate(marks) if not puzzle.givens[cell]
                   for v in range(1, n + 1) if not m >> (v - 1) & 1]
            cnf = replace(cnf, units=cnf.units + out)
        return cnf

    def size(self, artifact: Cnf) -> dict[str, int]:
        return {"variables": artifact.n_vars, "clauses": artifact.n_clauses}

    def _kept_key(self, cnf: Cnf) -> tuple:
        return (cnf.base_key, self.engine_seed)   # a solver made with another seed is not this run's

    def _kept_solver(self, cnf: Cnf) -> _Kept:
        key = self._kept_key(cnf)
        entry = self._kept.get(key)
        if (entry is None or entry.puzzles >= REBUILD_PUZZLES
                or entry.last.get("conflicts", 0) - entry.conflicts_at_build >= REBUILD_CONFLICTS):
            if entry is not None:
                entry.solver.delete()
            entry = self._kept[key] = _Kept(self.new_solver(cnf.clauses), cnf.n_vars)
        entry.puzzles += 1
        return entry

    def search(self, artifact: Cnf, limit, keep, deadline: Deadline) -> SearchOutcome:
        cnf = artifact
        if cnf.base_key is None or not (self.abilities.assumptions and self.abilities.incremental):
            return self._search_fresh(cnf, limit, keep, deadline)
        entry = self._kept_solver(cnf)
        solver = entry.solver
        entry.top += 1
        act = entry.top  # this puzzle's switch: its blocking clauses hold while it is assumed
        assumptions = cnf.units + [act]

        def blocking(true: list[int]) -> list[int]:
            # another solution differs in an open cell: one of these candidates is false
            # (the givens' candidates are in it too: assumed true, they make no difference)
            block = list(map(neg, true))
            block.append(-act)
            return block

        jumped = False
        try:
            solutions, count, timed_out = self.models(solver, assumptions, cnf.n_candidates, limit, keep,
                                                       deadline, blocking)
        except Exception as exc:
            jumped = self.recovered_from_a_jump(exc)
            raise
        finally:
            if jumped:   # left mid-search: never called again, nor kept
                del self._kept[self._kept_key(cnf)]
            else:
                after = solver.accum_stats()
                solver.add_clause([-act])  # this puzzle's blocking clauses are off for good
                before, entry.last = entry.last, after
        raw = {k: after.get(k, 0) - before.get(k, 0) for k in STATS}
        return SearchOutcome(solutions, count, timed_out, sat_stats(raw))

    def _new_solve_thread(self) -> "SolveThread":
        self._solve_thread = SolveThread()
        return self._solve_thread

    def _new_watchdog(self) -> Watchdog:
        self._watchdog = Watchdog()
        return self._watchdog

    def models(self, solver, assumptions: list[int], n_candidates: int, limit, keep: int, deadline: Deadline,
                blocking) -> tuple[list[list[int]], int, bool]:
        """Solve, keep the model's true candidates, forbid it with ``blocking(true)`` (``None``:
        no other model can exist) and solve again, up to ``limit`` models, the watchdog armed
        for ``deadline``: (first ``keep`` models, how many, whether the clock stopped it)."""
        watchdog, ctrl_c = None, None
        limited = self.abilities.interrupt   # solve_limited, stopped by interrupt()
        if deadline.at is not None and limited:
            watchdog = self._watchdog or self._new_watchdog()
            watchdog.arm(solver, deadline.at)

        def solve_once():
            if ctrl_c.pressed:   # one Python lost between two solves; KeyboardInterrupt follows
                return STOPPED
            if self.abilities.budget:
                thread = self._solve_thread or self._new_solve_thread()
                ok = thread.solve(solver, assumptions, lambda: ctrl_c.pressed or deadline.expired(),
                                  slice_budgets(solver, deadline))
                if ok is None:
                    return STOPPED
            elif not limited:
                ok = solver.solve(assumptions=assumptions)
            else:
                ok = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
                if ok is None:
                    return STOPPED
            return [lit for lit in solver.get_model()[:n_candidates] if lit > 0] if ok else None

        def block(true: list[int]) -> bool:
            clause = blocking(true)
            if clause is not None:
                solver.add_clause(clause)
            return clause is not None

        try:
            # solve_limited(expect_interrupt=True) releases the GIL and sets no SIGINT handler:
            # a Ctrl-C is watched, and the solver interrupted, as the watchdog does at the
            # deadline.  solve() (a solver without interrupt) has PySAT's own handler, which
            # jumps out of the search (setjmp, longjmp); between two solves the count looks.
            with stop_at_ctrl_c(solver.interrupt if limited else None, deadline.sigints,
                                deadline.watch) as ctrl_c:
                found = enumerate_by_blocking(solve_once, block, limit, keep, deadline)
        finally:
            if watchdog is not None:
                watchdog.disarm()
            if limited and ctrl_c is not None and ctrl_c.pressed:
                solver.clear_interrupt()   # a solver kept for the next puzzle starts clean
        return found.kept, found.count, found.timed_out

    def _search_fresh(self, cnf: Cnf, limit, keep, deadline: Deadline) -> SearchOutcome:
        """A solver of its own for the puzzle: ``optimized`` (the puzzle's reduced formula), or a
        solver that cannot be kept across puzzles (no assumptions, or one solve only: the
        givens are its assumptions, which :class:`OneShot` makes unit clauses)."""
        if any(not c for c in cnf.clauses):  # the givens contradict
            return SearchOutcome([], 0, False, sat_stats(dict.fromkeys(STATS, 0)))
        if self.abilities.assumptions:
            solver, assumptions = self.new_solver(cnf.clauses), cnf.units
        else:
            solver, assumptions = self.new_solver(cnf.clauses + [[u] for u in cnf.units]), []
        n, givens, fixed = cnf.n_values, cnf.givens, cnf.fixed or {}

        def blocking(true: list[int]) -> list[int] | None:
            block = [-v for v in true if not givens[(v - 1) // n] and v not in fixed]
            return block or None  # every cell decided by the givens: there is no other solution

        try:
            solutions, count, timed_out = self.models(solver, assumptions, cnf.n_candidates, limit, keep,
                                                       deadline, blocking)
        except BaseException as exc:
            if not self.recovered_from_a_jump(exc):   # left mid-search: never called again
                solver.delete()
            raise
        after = self.statistics_of(solver)
        solver.delete()
        stats = Stats() if after is None else sat_stats({k: after.get(k, 0) for k in STATS})
        return SearchOutcome(solutions, count, timed_out, stats)

    def decode(self, artifact: Cnf, raw) -> tuple[int, ...]:
        try:
            return artifact.decode(raw)
        except EngineError as exc:
            raise EngineError(f"{self.spec}: {exc}") from None

    def __copy__(self) -> "SatEngine":
        """A copy for another caller (the API's engine passed in): the spec and settings, none
        of the solvers, watchdog or solve thread this one keeps, which its ``__del__`` frees."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._kept, new._watchdog, new._solve_thread = {}, None, None
        return new

    def __del__(self):
        if getattr(self, "_watchdog", None) is not None:
            self._watchdog.stop()
        if getattr(self, "_solve_thread", None) is not None:
            self._solve_thread.close()
        for entry in getattr(self, "_kept", {}).values():
            try:
                entry.solver.delete()
            except Exception:  # noqa: BLE001 (interpreter shutdown)
                pass


def sat_stats(raw: dict) -> Stats:
    """PySAT's counters (``accum_stats``) under the shared names, as :attr:`SatEngine.statistics` says."""
    return Stats(nodes=raw["decisions"], conflicts=raw["conflicts"],
                 propagations=raw["propagations"], raw=raw)
