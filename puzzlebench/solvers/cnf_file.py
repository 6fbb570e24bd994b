"""The models of any DIMACS CNF, with a SAT engine (``sat:NAME``) or the Quine engine
(``quine:hK``): whole assignments, blocked one by one (``puzzlebench solve-cnf``).

The variables are those the file's clauses name, up to the largest: memory and the answer's
``v`` lines grow with what the file holds, not with its ``p`` line.  Declared variables beyond
the largest that occurs are free: each model of the others stands for 2^free models of the
file, and the count says so rather than listing them (a header may declare billions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from .base import Deadline


@dataclass
class CnfModels:
    """``status`` in SAT-competition words; ``model`` the first whole assignment of the
    variables ``1..n_used`` (or None); ``found`` the assignments the search listed; ``count``
    models of the file (2^free for each model found, at most the limit), or None where that
    number has more than :data:`EXACT_FREE_BITS` bits: then :meth:`count_text` writes it as
    ``found × 2^free`` (a header of 2,000,000,000 variables over one clause has 2^1999999999
    models: 250 MB as a Python integer, and computing the power took 10 s)."""

    status: str
    model: list[int] | None
    count: int | None
    found: int
    free: int
    timed_out: bool
    stats: dict[str, Any] = field(default_factory=dict)

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

    n_used = max((abs(lit) for clause in clauses for lit in clause), default=0)
    free = max(0, n_declared - n_used)
    parsed = parse_spec(spec)
    if parsed.family not in ("sat", "quine"):
        raise UsageError(f"solve-cnf takes a SAT engine (sat:NAME) or the Quine engine "
                         f"(quine:h0|h1|h2), not {spec!r}")
    # models of the used variables needed to reach the limit: one stands for 2^free
    wanted = None if limit is None else max(1, -(-limit // (2 ** min(free, 62))))
    deadline = Deadline(time_limit)
    engine = make_engine(spec)
    if time_limit is not None and parsed.family == "sat" and not engine.abilities.interrupt:
        raise UsageError(f"solve-cnf: {engine.spec} cannot be interrupted in-process, so it cannot hold "
                         f"--time-limit here; choose a solver that can (sat:{VARIANTS[0]}) or no time limit")
    if parsed.family == "quine":
        models, found, timed_out, stats = _quine_models(engine, n_used, clauses, wanted, deadline)
    else:
        models, found, timed_out, stats = _sat_models(engine, n_used, clauses, wanted, deadline)
    count = models_of_file(found, free, limit)
    status = "UNKNOWN" if timed_out and not found else ("SATISFIABLE" if found else "UNSATISFIABLE")
    return CnfModels(status, models[0] if models else None, count, found, free, timed_out, stats)


def _quine_models(engine, n_vars, clauses, limit, deadline):
    from .quine import QFormula, count_models

    models, found, timed_out, first, _ = count_models(
        QFormula(n_vars, clauses), engine.variant, engine.settings["seed"], limit, 1, deadline,
        None, check_against=clauses)
    d = first.difficulty(engine.variant)
    stats = {"disjunctions_per_depth": first.disjunctions, "steps_per_depth": first.steps,
             "max_depth": first.max_depth, "difficulty": round(d["difficulty"], 6)}
    return models, found, timed_out, stats


def _sat_models(engine, n_vars, clauses, limit, deadline):
    def whole(true: list[int]) -> list[int]:
        """The whole assignment (variables the solver left out of its model are false)."""
        on = set(true)
        return [v if v in on else -v for v in range(1, n_vars + 1)]

    solver = engine.new_solver(clauses)   # Kissat: one solver a model (it solves only once)
    try:
        trues, found, timed_out = engine.models(solver, [], n_vars, limit, 1, deadline,
                                                lambda true: [-lit for lit in whole(true)])
        stats = engine.statistics_of(solver) or {}
    finally:
        solver.delete()
    return [whole(true) for true in trues], found, timed_out, stats
