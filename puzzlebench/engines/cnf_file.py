"""The models of any DIMACS CNF, with a SAT engine (``sat:NAME``) or the Quine engine
(``quine:hK``): whole assignments, blocked one by one (``puzzlebench solve-cnf``).

The variables are those the file's clauses name: memory and the answer's ``v`` lines grow
with what the file holds, not with its ``p`` line.  Declared variables that no clause names are
free, wherever they are: each model of the others stands for 2^free models of the file, and the
count says so rather than listing them (a header may declare billions; the ``optimized``
encoding of an exported puzzle leaves the variables of the candidates its givens rule out in no
clause, hundreds on a 9x9 Sudoku, and blocking whole assignments would list 2^hundreds of
models of a unique puzzle).  The search runs on the used variables renumbered 1..m; a model is
written back in the file's numbers, over 1 up to the largest used, the free ones false.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from ..results import Stats
from ..runtime.limits import Deadline
from .base import ON_CNF


@dataclass
class CnfModels:
    """``status`` in SAT-competition words; ``model`` the first whole assignment of the
    variables ``1..n_used`` (or None); ``found`` the assignments the search listed; ``count``
    models of the file (2^free for each model found, at most the limit), or None where that
    number has more than :data:`EXACT_FREE_BITS` bits: then :meth:`count_text` writes it as
    ``found × 2^free`` (a header of 2,000,000,000 variables over one clause has 2^1999999999
    models: 250 MB as a Python integer, and computing the power takes 10 s).  ``stats``: the
    engine's counters under the shared names, as its runs on puzzles give them; ``solver``: its
    canonical spec."""

    status: str
    model: list[int] | None
    count: int | None
    found: int
    free: int
    timed_out: bool
    stats: Stats = field(default_factory=Stats)
    free_ranges: list[tuple[int, int]] = field(default_factory=list)   # the free variables, as runs
    solver: str = ""

    def free_text(self, shown: int = 8) -> str:
        """The free variables as runs, ``a..b`` or ``a``, the first ``shown`` of them."""
        runs = [f"{a}..{b}" if b > a else str(a) for a, b in self.free_ranges[:shown]]
        more = len(self.free_ranges) - shown
        return ", ".join(runs) + (f" and {more} more run(s)" if more > 0 else "")

    def count_text(self) -> str:
        if self.count is not None:
            return str(self.count)
        return f"{self.found} × 2^{self.free}"


EXACT_FREE_BITS = 64   # beyond 2^64 models, a count is written as a power of two


def models_of_file(found: int, free: int, limit: int | None) -> int | None:
    """``found × 2^free``, at most ``limit``, without making a power of two larger than the
    limit (or than 2^EXACT_FREE_BITS when there is no limit: None)."""
    if found == 0:
        return 0
    if limit is not None:
        return limit if free >= limit.bit_length() else min(found << free, limit)
    return found << free if free <= EXACT_FREE_BITS else None


def count_cnf_models(n_declared: int, clauses: list[list[int]], spec: str, limit: int | None,
                     time_limit: float | None) -> CnfModels:
    """Models of a plain CNF (see the module's text) up to ``limit`` (None: all)."""
    from .registry import make_engine, parse_spec
    from .sat import VARIANTS

    used = sorted({abs(lit) for clause in clauses for lit in clause})
    free = n_declared - len(used)
    free_ranges = _gaps(used, n_declared)
    if used and used[-1] != len(used):   # a gap below the largest: the search's numbers 1..m
        number = {v: i for i, v in enumerate(used, start=1)}
        clauses = [[number[lit] if lit > 0 else -number[-lit] for lit in clause] for clause in clauses]
    parsed = parse_spec(spec)
    if parsed.family not in ("sat", "quine"):
        raise UsageError(f"solve-cnf takes a SAT engine (sat:NAME) or the Quine engine "
                         f"(quine:h0|h1|h2), not {spec!r}")
    # models of the used variables needed to reach the limit: one stands for 2^free
    wanted = None if limit is None else max(1, -(-limit // (2 ** min(free, 62))))
    deadline = Deadline(time_limit)
    engine = make_engine(spec, on=ON_CNF)
    if time_limit is not None and parsed.family == "sat" and not engine.abilities.interrupt:
        raise UsageError(f"solve-cnf: {engine.spec} cannot be interrupted in-process, so it cannot hold "
                         f"--time-limit here; choose a solver that can (sat:{VARIANTS[0]}) or no time limit")
    if parsed.family == "quine":
        models, found, timed_out, stats = _quine_models(engine, len(used), clauses, wanted, deadline)
    else:
        models, found, timed_out, stats = _sat_models(engine, len(used), clauses, wanted, deadline)
    count = models_of_file(found, free, limit)
    status = "UNKNOWN" if timed_out and not found else ("SATISFIABLE" if found else "UNSATISFIABLE")
    model = _in_file_numbers(models[0], used) if models else None
    return CnfModels(status, model, count, found, free, timed_out, stats, free_ranges, engine.spec)


def _gaps(used: list[int], n_declared: int) -> list[tuple[int, int]]:
    """The runs of 1..n_declared that ``used`` (sorted) leaves out."""
    runs, nxt = [], 1
    for v in used + [n_declared + 1]:
        if v > nxt:
            runs.append((nxt, v - 1))
        nxt = v + 1
    return runs


def _in_file_numbers(model: list[int], used: list[int]) -> list[int]:
    """A model of the renumbered variables 1..m as the file's: 1 up to the largest used, each
    free variable below it false."""
    if not used or used[-1] == len(used):
        return model
    true = {used[abs(lit) - 1] for lit in model if lit > 0}
    return [v if v in true else -v for v in range(1, used[-1] + 1)]


def _quine_models(engine, n_vars, clauses, limit, deadline):
    from .quine import QFormula, count_models, quine_stats

    models, found, timed_out, first, total = count_models(
        QFormula(n_vars, clauses), engine.variant, engine.settings["seed"], limit, 1, deadline,
        None, check_against=clauses)
    return models, found, timed_out, quine_stats(first, total, engine.variant)


def _sat_models(engine, n_vars, clauses, limit, deadline):
    from .sat import STATS, sat_stats

    def whole(true: list[int]) -> list[int]:
        """The whole assignment (variables the solver left out of its model are false)."""
        on = set(true)
        return [v if v in on else -v for v in range(1, n_vars + 1)]

    solver = engine.new_solver(clauses)   # Kissat: one solver a model (it solves only once)
    try:
        trues, found, timed_out = engine.models(solver, [], n_vars, limit, 1, deadline,
                                                lambda true: [-lit for lit in whole(true)])
        after = engine.statistics_of(solver)
        stats = Stats() if after is None else sat_stats({k: after.get(k, 0) for k in STATS})
    finally:
        solver.delete()
    return [whole(true) for true in trues], found, timed_out, stats
