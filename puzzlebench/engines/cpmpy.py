"""CPMpy as an engine (``cpmpy:ortools``, ``cpmpy:pysat``, ``cpmpy:z3``, ``cpmpy:exact``, …): the
puzzle's rules as a CPMpy model, transformed by CPMpy for one of its back ends and solved
there, so that CPMpy's own path can be set beside puzzlebench's direct encodings in one table
(T. Guns, "Increasing modeling language convenience with a universal n-dimensional array,
CPpy as python-embedded example", ModRef 2019).

The model is the CP-SAT ``int`` formulation's walk over the rules
(:func:`puzzlebench.encoders.cpsat.walk_int`) in CPMpy's words, every variable a cell, so that
an enumeration counts solutions.  ``encode`` times the model and CPMpy's transformation of
it (apart in ``raw``), ``solve`` the search: the back end's own enumeration where CPMpy has
one, else blocking clauses.  Statistics are mapped as the ``cpsat``, ``sat`` and ``smt``
engines map their libraries'; the details: :class:`CpmpyEngine`.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..encoders.cpsat import IntWriter, walk_int
from ..errors import EngineError, SolverSpecError
from ..models.base import Puzzle
from ..results import Stats
from ..runtime.child import says_out_of_memory
from ..runtime.interrupts import ctrl_c_kept, is_interrupt, stop_at_ctrl_c
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, SearchOutcome, limit_reached
from .blocking import STOPPED, enumerate_by_blocking

BACKENDS = {
    # back end → what brings it (CPMpy's SolverLookup names; the first present is the default)
    "ortools": "pip install ortools",
    "pysat": "pip install pypblib 'python-sat[pb]' (PBLib and pindakaas: CPMpy's pysat back end "
             "needs them for the model's sums; pypblib builds from source, about a minute)",
    "z3": "pip install z3-solver",
    "exact": "pip install exact",
    "choco": "pip install pychoco",
    "gcs": "pip install gcspy",
    "minizinc": "pip install minizinc, and the minizinc program (Debian package minizinc)",
}
NOT_INSTALLED = "CPMpy is not installed (pip install cpmpy, or pip install 'puzzlebench[cpmpy]')"


@lru_cache(maxsize=1)
def found_backends() -> tuple[tuple[str, ...], dict[str, str]]:
    """(back ends CPMpy's ``SolverLookup`` says are usable here, in order; {missing: why}).
    Without CPMpy: no back end, and the reason under ``"*"``.  A Ctrl-C during the imports
    raises, where an import took it for a missing library."""
    with ctrl_c_kept():
        return _found_backends()


def _found_backends() -> tuple[tuple[str, ...], dict[str, str]]:
    try:
        import cpmpy as cp
    except ImportError:
        return (), {"*": NOT_INSTALLED}
    present, missing = [], {}
    for name, install in BACKENDS.items():
        try:
            # pysat: supported() says yes without PBLib, which every model here needs
            usable = (name != "pysat" or _pysat_sums()) and bool(cp.SolverLookup.lookup(name).supported())
        except Exception as exc:  # a back end whose library is broken, not merely absent
            usable, install = False, f"{install} ({type(exc).__name__}: {exc})"
        if usable:
            present.append(name)
        else:
            missing[name] = f"CPMpy's {name} back end is not usable here: {install}"
    return tuple(present), missing


def _pysat_sums() -> bool:
    """Whether PySAT can encode sums for CPMpy: PBLib (``pypblib``, which CPMpy imports) and
    python-sat's ``pb`` module (which asserts, in 1.9, that ``pindakaas`` is there)."""
    if importlib.util.find_spec("pypblib") is None:
        return False
    try:
        importlib.import_module("pysat.pb")
    except (ImportError, AssertionError):
        return False
    return True


VARIANTS, MISSING = found_backends()


class _CpmpyWriter(IntWriter):
    """The walk's pieces as CPMpy expressions, gathered in ``constraints``."""

    def __init__(self):
        import cpmpy as cp

        self.cp = cp
        self.constraints: list = []

    def cell(self, index, low, high):
        return self.cp.intvar(low, high, name=f"c{index}")

    def all_different(self, terms):
        if len(terms) > 1:
            self.constraints.append(self.cp.AllDifferent(terms))

    def count_one(self, cells, pairs, exactly):
        if not exactly and len(pairs) < 2:
            return
        count = self.cp.sum([cells[c] == v for c, v in pairs])
        self.constraints.append(count == 1 if exactly else count <= 1)

    def less(self, smaller, larger):
        self.constraints.append(smaller < larger)

    def sum_equals(self, terms, target):
        self.constraints.append(self.cp.sum(terms) == target)

    def table(self, terms, rows):
        self.constraints.append(self.cp.Table(terms, rows))

    def visibility(self, line, clue, n):
        if len(line) == 1:
            if clue != 1:   # one cell is always seen
                self.constraints.append(self.cp.BoolVal(False))
            return
        seen = [line[i] > (line[0] if i == 1 else self.cp.max(line[:i])) for i in range(1, len(line))]
        self.constraints.append(self.cp.sum(seen) == clue - 1)


def _out_of_memory(spec: str, what) -> None:
    """Raise ``MemoryError`` when a back end's failure (an exception, Z3's reason for
    ``unknown``) says it ran out of memory (Z3: "out of memory", under ``--memory-limit``):
    a ``memout`` in its words, not an error, nor a search stopped by the clock."""
    text = str(what)
    if isinstance(what, MemoryError) or says_out_of_memory(text):   # MemoryError: OR-Tools' bad_alloc
        raise MemoryError(f"{spec}: {text or type(what).__name__}")


def _watching_ctrl_c(variant: str, solver, deadline: Deadline):
    """A Ctrl-C during the search stops it through the back end's own call from a thread
    (:func:`~puzzlebench.runtime.interrupts.stop_at_ctrl_c`) where it has one (OR-Tools, Z3: Z3's own handler lost one
    now and then and the count ran on; PySAT's ``interrupt``).  Exact catches the signal in its
    solve and raises its own error for it (:mod:`.interrupts`); the watch, with nothing to call,
    still ends a count of many solves at one that Python lost between two of them."""
    since, watch = deadline.sigints, deadline.watch
    if variant == "ortools":
        return stop_at_ctrl_c(lambda: solver.ort_solver.stop_search(), since, watch)
    if variant == "z3":
        return stop_at_ctrl_c(lambda: solver.z3_solver.ctx.interrupt(), since, watch)
    if variant == "pysat":   # every solve a solve_limited (PYSAT_NO_LIMIT), which interrupt() stops
        return _pysat_timers_ended(solver.pysat_solver,
                                   stop_at_ctrl_c(lambda: solver.pysat_solver.interrupt(), since, watch))
    return stop_at_ctrl_c(None, since, watch)


@contextlib.contextmanager
def _pysat_timers_ended(pysat_solver, watch):
    """``watch``, and then CPMpy's timer threads for ``pysat_solver`` cancelled: a Ctrl-C
    raised between CPMpy's start of one (its time limit) and its cancel left it waiting, and
    the process, which waits for such a thread at its exit, printed "interrupted" and stayed."""
    try:
        with watch as ctrl_c:
            yield ctrl_c
    finally:
        for thread in threading.enumerate():
            if isinstance(thread, threading.Timer) and pysat_solver in (thread.args or ()):
                thread.cancel()


PYSAT_NO_LIMIT = 1e9
"""The time limit (about 31 years) given to CPMpy's pysat back end where the run has none: with
one, CPMpy calls PySAT's ``solve_limited``, which the watch stops through ``interrupt()``.
Without, PySAT's ``solve`` takes the SIGINT with a handler of its own that jumps out of the
search (setjmp, longjmp): after a Ctrl-C, one count in seven stayed in a solve that did not end."""


@dataclass
class CpmpyModel:
    """The cells' variables, the back end's solver object with the model posted, and what
    building it cost."""

    cells: list
    solver: Any
    n_constraints: int
    open_cells: list = field(default_factory=list)
    model_seconds: float = 0.0
    transform_seconds: float = 0.0


class CpmpyEngine(Engine):
    """A CPMpy back end on the puzzle's model (see the module doc).

    The model is the CP-SAT ``int`` formulation's walk over the rules
    (:func:`puzzlebench.encoders.cpsat.walk_int`) said in CPMpy's words: an ``intvar`` per cell
    (a given fixes its domain), ``AllDifferent`` (N-Queens diagonals over offset values), a count
    of ``cell == value`` terms for any other group of candidates, ``<`` for a Futoshiki sign, a
    ``sum`` for a Killer cage and a ``Table`` of its fillings for any other cage, and for a
    Skyscrapers line the count of cells taller than the ``max`` of those before them.  Every
    variable is a cell: no auxiliary variable of ours, so an enumeration counts solutions.

    Times (the result's ``encode`` and ``solve``): ``encode`` is the CPMpy model made from the rules
    plus CPMpy's transformation of it into the back end's constraints (``solver += model``:
    flattening, decompositions, reification, posting), the two apart in ``raw`` as
    ``model_seconds`` and ``transform_seconds``; ``solve`` is the search.  Where CPMpy has the back
    end's own enumeration (``solveAll`` of ortools, exact, choco, gcs, minizinc) the search is that
    one call; elsewhere (pysat, z3) the engine counts by blocking: solve, add the clause "some open
    cell differs", solve again, and the time CPMpy spends transforming each blocking clause is kept
    apart in ``raw`` as ``blocking_seconds``.  ``raw`` also holds ``backend_seconds``, what CPMpy's
    status reports as the back end's own solve time (``solve_time``), summed over the calls.

    Statistics: ortools as the ``cpsat`` engine maps CP-SAT's response, pysat as the ``sat`` engine
    maps PySAT's ``accum_stats``, z3 as the ``smt`` engine maps Z3's statistics; the other back
    ends expose none through CPMpy, and their columns stay empty."""

    kinds = EVERY_KIND
    family = "cpmpy"
    summary = ("CPMpy's model of the rules (an intvar per cell, AllDifferent, Table, sum, max), "
               "transformed by CPMpy for a back end: " + ", ".join(BACKENDS))
    variants = VARIANTS
    library = "cpmpy"
    libraries = ("cpmpy",)

    def load(self) -> None:
        super().load()
        with ctrl_c_kept():   # a Ctrl-C in an import CPMpy takes for a missing library
            try:   # the back end's own library (OR-Tools, Z3, PySAT, Exact), imported by its solver class
                import cpmpy as cp
                cp.SolverLookup.get(self.variant)
            except Exception:
                pass
    holds_time_limit = False   # CPMpy's transformation looks at no clock
    seed_parameter = "cpmpy:ortools and cpmpy:z3: the back end's random_seed (as cpsat, smt); other back ends: none"
    statistics = {
        "nodes": "cpmpy:ortools: num_branches (as cpsat); cpmpy:pysat: decisions (accum_stats, as sat); "
                 "cpmpy:z3: decisions + sat decisions (as smt); other back ends: none. Times: encode = "
                 "the CPMpy model made + CPMpy's transformation into the back end (raw model_seconds, "
                 "transform_seconds), solve = the search (raw backend_seconds: the back end's own solve "
                 "time; blocking_seconds: transforming the blocking clauses of pysat and z3, which "
                 "count by blocking)",
        "conflicts": "cpmpy:ortools: num_conflicts; cpmpy:pysat: conflicts; cpmpy:z3: conflicts + sat conflicts",
        "propagations": "cpmpy:ortools: num_binary_propagations + num_integer_propagations; cpmpy:pysat: "
                        "propagations; cpmpy:z3: propagations + sat propagations",
    }

    def takes_seed(self) -> bool:
        return self.variant in ("ortools", "z3")

    def _seed(self) -> dict[str, int]:
        """The back end's seed, as its ``solve`` takes it (a parameter of CP-SAT's, of Z3's)."""
        return {"random_seed": self.engine_seed} if self.engine_seed is not None else {}

    def __init__(self, variant: str | None = None, options: dict | None = None):
        if variant in MISSING:
            raise SolverSpecError(f"solver 'cpmpy:{variant}' is not available here: {MISSING[variant]}")
        super().__init__(variant, options)

    # -- facts for `puzzlebench solvers` ----------------------------------------------------

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if "*" in MISSING:
            return MISSING["*"]
        if not VARIANTS:
            return "no CPMpy back end is usable here (" + "; ".join(
                f"{name}: {how}" for name, how in BACKENDS.items()) + ")"
        return None

    @classmethod
    def left_out(cls) -> dict[str, str]:
        """CPMpy's back ends that cannot run here, and what would bring each."""
        return {name: why for name, why in MISSING.items() if name != "*"}

    # -- the three steps --------------------------------------------------------------------

    def encode(self, puzzle: Puzzle) -> CpmpyModel:
        import cpmpy as cp

        start = time.perf_counter()
        writer = _CpmpyWriter()
        cells = walk_int(puzzle.rules, writer)
        made = time.perf_counter()
        solver = cp.SolverLookup.get(self.variant)
        try:
            solver += writer.constraints
        except Exception as exc:   # CPMpy refuses a constraint its back end cannot take
            _out_of_memory(self.spec, exc)
            raise EngineError(f"{self.spec}: CPMpy cannot post the model to {self.variant}: "
                              f"{type(exc).__name__}: {exc}") from None
        # every cell known to the back end, even one that no constraint names (its value is read)
        solver.user_vars.update(cells)
        posted = time.perf_counter()
        open_cells = [x for x, g in zip(cells, puzzle.rules.givens) if not g]
        return CpmpyModel(cells, solver, len(writer.constraints), open_cells,
                          made - start, posted - made)

    def size(self, artifact: CpmpyModel) -> dict[str, int]:
        return {"variables": len(artifact.cells), "constraints": artifact.n_constraints}

    def search(self, artifact: CpmpyModel, limit, keep: int, deadline: Deadline) -> SearchOutcome:
        from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface

        solver, cells = artifact.solver, artifact.cells
        solutions: list[tuple[int, ...]] = []

        def keep_one() -> None:
            if len(solutions) < keep:
                solutions.append(tuple(int(x.value()) for x in cells))

        raw: dict[str, Any] = {"backend": self.variant, "model_seconds": round(artifact.model_seconds, 6),
                               "transform_seconds": round(artifact.transform_seconds, 6)}
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            return SearchOutcome([], 0, True, Stats(raw=raw))
        with _watching_ctrl_c(self.variant, solver, deadline) as ctrl_c:
            own_ctrl_c = not ctrl_c.watching   # the back end's own SIGINT handling, where we do not watch
            if self.variant == "z3":
                solver.z3_solver.set("ctrl_c", own_ctrl_c)
            if type(solver).solveAll is not SolverInterface.solveAll:
                # the back end's own enumeration; one CP-SAT worker, as the cpsat engine (its
                # parallel enumeration misses solutions)
                extra = ({"num_workers": 1, "catch_sigint_signal": own_ctrl_c, **self._seed()}
                         if self.variant == "ortools" else {})
                try:
                    count = solver.solveAll(display=keep_one, time_limit=remaining, solution_limit=limit,
                                            call_from_model=True, **extra)
                except Exception as exc:
                    raise self._failure(exc) from None
                status = solver.status()
                raw["backend_seconds"] = round(status.solve_time or 0.0, 6)
                finished = status.exitstatus in (ExitStatus.OPTIMAL, ExitStatus.UNSATISFIABLE)
            else:
                count, finished = self._blocking(artifact, limit, keep_one, deadline, raw, ctrl_c)
        timed_out = not finished and not limit_reached(count, limit)
        if timed_out and self.variant == "z3":   # Z3 stops at a memory limit as at a clock
            _out_of_memory(self.spec, solver.z3_solver.reason_unknown())
        return SearchOutcome(solutions, count, timed_out, self._stats(solver, raw))

    def _failure(self, exc: Exception) -> BaseException:
        """What a back end's exception is: a Ctrl-C it caught itself (PySAT's and Exact's
        forms), running out of memory, or an engine error naming it."""
        if is_interrupt(exc):
            return KeyboardInterrupt()
        _out_of_memory(self.spec, exc)
        return EngineError(f"{self.spec}: {type(exc).__name__}: {exc}")

    def _blocking(self, artifact: CpmpyModel, limit, keep_one, deadline: Deadline,
                  raw: dict, ctrl_c) -> tuple[int, bool]:
        """Count by blocking clauses: (solutions found, whether the search ended)."""
        import cpmpy as cp
        from cpmpy.solvers.solver_interface import ExitStatus

        solver = artifact.solver
        spent = {"runs": 0, "backend": 0.0, "blocking": 0.0}

        def solve_once():
            remaining = deadline.remaining()
            if (remaining is not None and remaining <= 0) or ctrl_c.pressed:   # since it was looked at
                return STOPPED
            if remaining is None and self.variant == "pysat":
                remaining = PYSAT_NO_LIMIT
            try:
                found = solver.solve(time_limit=remaining, **self._seed())
                spent["runs"] += 1
            except Exception as exc:
                raise self._failure(exc) from None
            spent["backend"] += solver.status().solve_time or 0.0
            if not found:
                return None if solver.status().exitstatus is ExitStatus.UNSATISFIABLE else STOPPED
            keep_one()
            return True

        def block(_) -> bool:
            if not artifact.open_cells:   # every cell given: no other solution
                return False
            started = time.perf_counter()
            artifact.solver += cp.any([x != x.value() for x in artifact.open_cells])
            spent["blocking"] += time.perf_counter() - started
            return True

        found = enumerate_by_blocking(solve_once, block, limit, 0, deadline)
        raw["backend_seconds"] = round(spent["backend"], 6)
        raw["blocking_seconds"] = round(spent["blocking"], 6)
        raw["runs"] = spent["runs"]
        return found.count, found.finished

    def _stats(self, solver, raw: dict) -> Stats:
        if self.variant == "ortools":
            from .cpsat import cpsat_stats

            stats = cpsat_stats(solver.ort_solver.response_proto)
        elif self.variant == "pysat":
            counters = solver.pysat_solver.accum_stats() or {}
            stats = Stats(nodes=counters.get("decisions"), conflicts=counters.get("conflicts"),
                          propagations=counters.get("propagations"), raw=dict(counters))
        elif self.variant == "z3":
            from .smt import z3_stats

            stats = z3_stats(solver.z3_solver.statistics())
        else:
            stats = Stats(raw={})
        stats.raw = {**raw, **stats.raw}
        return stats

    def decode(self, artifact: CpmpyModel, raw) -> tuple[int, ...]:
        return tuple(raw)
