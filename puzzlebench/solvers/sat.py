"""SAT engines: every solver PySAT ships that can do what an engine must, on the CNF of
:mod:`puzzlebench.encoders.cnf`.

An engine must solve, give a model, count by blocking clauses (a clause added after each
model, forbidding it) and be interrupted (the time limit: ``solve_limited`` plus a timer
calling ``interrupt``).  Which PySAT solvers can is found out by trying each one on a tiny
formula once per process (:func:`probe`); the others are listed in :data:`EXCLUDED` with the
reason (CaDiCaL and Lingeling in PySAT cannot be interrupted, Kissat takes no assumptions and
cannot be interrupted, …).

Speed: building a formula per puzzle in Python is the trap.  The formula of the shape is
built once and loaded once into a solver that the engine keeps (one per shape, encoding and
at-most-one encoding); a puzzle's givens are *assumptions*, and its blocking clauses carry an
activation literal that is assumed during that puzzle only and set false for good afterwards,
so that what the solver keeps (the base formula and clauses learnt from it) stays implied by
the base formula: reusing the solver is sound.  ``optimized`` (givens propagated away) makes
a fresh solver for each puzzle from the reduced formula.

Statistics (PySAT's ``accum_stats()``, the difference over one puzzle's search):
``nodes`` = decisions (each decision opens a node of the search tree; assumptions are not
counted by the solvers as decisions), ``conflicts`` = conflicts, ``propagations`` =
propagations.  ``guesses`` and ``backtracks`` have no CDCL counterpart (a CDCL solver
backjumps after a conflict: that is ``conflicts``).  ``raw`` keeps decisions, conflicts,
propagations and restarts unrenamed.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from ..encoders.cnf import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, Cnf, encode
from ..errors import EngineError
from ..models.base import Puzzle
from ..results import Stats
from .base import Deadline, Engine, Option, SearchOutcome, limit_reached

PREFERRED = ("minisat22", "glucose4", "glucose3", "glucose42", "maplechrono", "maplecm",
             "maplesat", "mergesat3", "minicard", "gluecard3", "gluecard4", "minisatep", "ergo")
"""Order of the variants: the default first (the fastest on the benchmarks, see results/cnf.md)."""

KNOWN = ("cadical103", "cadical153", "cadical195", "cadical300", "cryptosat", "ergo", "gluecard3",
         "gluecard4", "glucose3", "glucose4", "glucose42", "kissat404", "lingeling", "maplechrono",
         "maplecm", "maplesat", "mergesat3", "minicard", "minisat22", "minisatgh", "minisatep")
REBUILD_AFTER = 20000  # puzzles on one kept solver before it is rebuilt (activation variables pile up)


def _probe_one(name: str) -> str | None:
    """Why ``name`` cannot be an engine, or None when it can."""
    import warnings

    from pysat.solvers import Solver

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            s = Solver(name=name, bootstrap_with=[[1, 2], [-1, 2]])
    except Exception as exc:  # noqa: BLE001 (any failure means: not usable)
        return f"not built into this PySAT ({str(exc)[:60] or type(exc).__name__})"
    try:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                if s.solve(assumptions=[-2]) is not False:
                    return "ignores assumptions"
        except Exception as exc:  # noqa: BLE001
            return f"no assumptions ({str(exc)[:70]})"
        if not s.solve() or s.get_model() is None:
            return "gives no model"
        try:
            s.solve_limited(expect_interrupt=True)
            s.interrupt()
            s.clear_interrupt()
        except Exception as exc:  # noqa: BLE001
            return f"cannot be interrupted (time limits): {str(exc)[:70]}"
        s.add_clause([-1, -2])
        if s.solve(assumptions=[1]) is not False:
            return "cannot take clauses between calls (blocking clauses)"
        try:
            s.accum_stats()
        except Exception:  # noqa: BLE001
            return "exposes no statistics"
        return None
    finally:
        s.delete()


@lru_cache(maxsize=1)
def probe() -> tuple[tuple[str, ...], dict[str, str]]:
    """(usable solver names, default first; {left-out name: reason})."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return (), {"*": "python-sat is not installed (pip install python-sat)"}
    usable, excluded = [], {}
    for name in KNOWN:
        reason = _probe_one(name)
        if reason:
            excluded[name] = reason
        else:
            usable.append(name)
    order = [n for n in PREFERRED if n in usable] + [n for n in usable if n not in PREFERRED]
    return tuple(order), excluded


VARIANTS, EXCLUDED = probe()


class SatEngine(Engine):
    family = "sat"
    summary = "CDCL SAT solvers from PySAT on the direct CNF encoding (givens as assumptions)"
    variants = VARIANTS
    excluded_variants = EXCLUDED
    """PySAT solvers left out, with the reason (listed by ``puzzlebench solvers``)."""
    options = (
        Option("encoding", str, DEFAULT_ENCODING, "CNF encoding: " + ", ".join(ENCODINGS), ENCODINGS),
        Option("amo", str, DEFAULT_AMO, "at-most-one encoding: " + ", ".join(AMO_ENCODINGS), AMO_ENCODINGS),
    )
    statistics = {
        "nodes": "decisions (PySAT accum_stats 'decisions')",
        "conflicts": "conflicts (accum_stats 'conflicts')",
        "propagations": "propagations (accum_stats 'propagations')",
    }
    library = "python-sat"

    def __init__(self, variant=None, options=None):
        super().__init__(variant, options)
        self._kept: dict[tuple, list] = {}  # base key -> [solver, next activation var, uses]

    @classmethod
    def left_out(cls) -> dict[str, str]:
        """The PySAT solvers this engine leaves out, and why."""
        return dict(EXCLUDED)

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if not VARIANTS:
            return EXCLUDED.get("*", "no PySAT solver can be interrupted here")
        return None

    def encode(self, puzzle: Puzzle) -> Cnf:
        return encode(puzzle, self.settings["encoding"], self.settings["amo"])

    def size(self, artifact: Cnf) -> dict[str, int]:
        return {"variables": artifact.n_vars, "clauses": artifact.n_clauses}

    def _kept_solver(self, cnf: Cnf) -> list:
        from pysat.solvers import Solver

        entry = self._kept.get(cnf.base_key)
        if entry is None or entry[2] >= REBUILD_AFTER:
            if entry is not None:
                entry[0].delete()
            solver = Solver(name=self.variant, bootstrap_with=cnf.clauses)
            entry = self._kept[cnf.base_key] = [solver, cnf.n_vars, 0]
        entry[2] += 1
        return entry

    def search(self, artifact: Cnf, limit, keep, deadline: Deadline) -> SearchOutcome:
        from pysat.solvers import Solver

        cnf = artifact
        if cnf.base_key is None and any(not c for c in cnf.clauses):  # optimized: the givens contradict
            return SearchOutcome([], 0, False, Stats(nodes=0, conflicts=0, propagations=0))
        kept = cnf.base_key is not None
        if kept:
            entry = self._kept_solver(cnf)
            solver = entry[0]
            entry[1] += 1
            act = entry[1]
            assumptions = cnf.units + [act]
        else:
            solver = Solver(name=self.variant, bootstrap_with=cnf.clauses)
            act, assumptions = None, []
        before = solver.accum_stats() if kept else {}
        n, givens, fixed = cnf.n_values, cnf.givens, cnf.fixed
        solutions, count, timed_out = [], 0, False
        timer = None
        try:
            while True:
                remaining = deadline.remaining()
                if remaining is not None:
                    if remaining <= 0:
                        timed_out = True
                        break
                    timer = threading.Timer(remaining, solver.interrupt)
                    timer.start()
                    ok = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
                    timer.cancel()
                    solver.clear_interrupt()
                    if ok is None:
                        timed_out = True
                        break
                else:
                    ok = solver.solve(assumptions=assumptions)
                if not ok:
                    break
                model = solver.get_model()
                true = [lit for lit in model[:cnf.n_candidates] if lit > 0]
                count += 1
                if len(solutions) < keep:
                    solutions.append(true)
                if limit_reached(count, limit):
                    break
                # another solution differs in an open cell: one of these candidates is false
                block = [-v for v in true if not givens[(v - 1) // n] and (fixed is None or v not in fixed)]
                if not block:  # every cell given: there is no other solution
                    break
                solver.add_clause(block + [-act] if act else block)
        finally:
            if timer is not None:
                timer.cancel()
            after = solver.accum_stats()
            if kept:
                solver.add_clause([-act])  # this puzzle's blocking clauses are off for good
            else:
                solver.delete()
        raw = {k: after.get(k, 0) - before.get(k, 0) for k in ("decisions", "conflicts",
                                                                "propagations", "restarts")}
        stats = Stats(nodes=raw["decisions"], conflicts=raw["conflicts"],
                      propagations=raw["propagations"], raw=raw)
        return SearchOutcome(solutions, count, timed_out, stats)

    def decode(self, artifact: Cnf, raw) -> tuple[int, ...]:
        try:
            return artifact.decode(raw)
        except EngineError as exc:
            raise EngineError(f"{self.spec}: {exc}") from None

    def __del__(self):
        for entry in getattr(self, "_kept", {}).values():
            try:
                entry[0].delete()
            except Exception:  # noqa: BLE001 (interpreter shutdown)
                pass
