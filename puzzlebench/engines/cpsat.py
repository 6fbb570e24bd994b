"""OR-Tools CP-SAT as an engine: the ``int`` and ``bool`` formulations of
:mod:`puzzlebench.encoders.cpsat`, counting up to a limit with a solution callback.

The search enumerates solutions and a ``CpSolverSolutionCallback`` stops it at ``limit``.
One worker by default, so that the comparison with single-threaded engines is fair; more workers only find
one solution (limit 1, a plain solve): CP-SAT's parallel enumeration (OR-Tools 9.15) reports a
solution once per worker that finds it and misses others, ending ``OPTIMAL`` with 77 of the 92
solutions of 8-queens on 2 workers, so it can neither count nor prove a puzzle unique.
Statistics (CP-SAT's response): ``nodes`` = ``num_branches``, ``conflicts`` =
``num_conflicts``, ``propagations`` = ``num_binary_propagations + num_integer_propagations``;
``guesses`` and ``backtracks`` have no CP-SAT counterpart.  ``raw`` keeps the response's own
names, with ``num_booleans``, ``wall_time``, ``user_time`` and ``deterministic_time``.
"""

from __future__ import annotations

from ..encoders.cpsat import FORMULATIONS, CpSatModel, encode_cpsat
from ..encoders.cpsat import estimated_bytes as cpsat_estimated_bytes
from ..errors import EngineError, UsageError
from ..models.base import Puzzle
from ..options import INT32_MAX, Whole
from ..results import Result, Stats
from ..runtime.interrupts import stop_at_ctrl_c
from ..runtime.limits import Deadline, normalise_limit
from .base import EVERY_KIND, Engine, Option, SearchOutcome, limit_reached


RAW_COUNTERS = ("num_booleans", "num_branches", "num_conflicts", "num_binary_propagations",
                "num_integer_propagations", "wall_time", "user_time", "deterministic_time")


def cpsat_stats(response) -> Stats:
    raw = {name: getattr(response, name) for name in RAW_COUNTERS}
    return Stats(nodes=raw["num_branches"], conflicts=raw["num_conflicts"],
                 propagations=raw["num_binary_propagations"] + raw["num_integer_propagations"],
                 raw=raw)


def _collector_class():
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Keeps the first ``keep`` solutions, counts them all, stops at ``limit``."""

        def __init__(self, artifact: CpSatModel, limit: int | None, keep: int):
            super().__init__()
            self.artifact, self.limit, self.keep = artifact, limit, keep
            self.solutions: list[tuple[int, ...]] = []
            self.count = 0

        def on_solution_callback(self) -> None:
            if limit_reached(self.count, self.limit):  # a worker that found one before the stop
                return
            self.count += 1
            if len(self.solutions) < self.keep:
                value = self.value if self.artifact.formulation == "int" else self.boolean_value
                self.solutions.append(self.artifact.decode_values(value))
            if limit_reached(self.count, self.limit):
                self.stop_search()

    return Collector


class CpSatEngine(Engine):
    kinds = EVERY_KIND
    family = "cpsat"
    summary = "OR-Tools CP-SAT: integer (AllDifferent) or Boolean (exactly-one) formulation"
    variants = FORMULATIONS
    library = "ortools"
    libraries = ("ortools.sat.python.cp_model",)
    options = (
        Option("workers", int, 1, "search workers (1: single-threaded, for fair comparisons; more only "
                                  "with limit 1: CP-SAT's parallel enumeration misses solutions)",
               number=Whole(1, INT32_MAX)),   # CP-SAT's num_workers, an int32
        Option("presolve", bool, True, "CP-SAT presolve on/off"),
        Option("log", str, "", "write CP-SAT's search log to this file"),
    )
    seed_parameter = "CP-SAT's random_seed parameter"
    statistics = {
        "nodes": "num_branches (search decisions)",
        "conflicts": "num_conflicts",
        "propagations": "num_binary_propagations + num_integer_propagations",
    }

    def run(self, puzzle: Puzzle, *, limit: int | None = 2, time_limit: float | None = None,
            **kwargs) -> Result:
        workers = self.settings["workers"]
        if workers > 1 and normalise_limit(limit) != 1:
            raise UsageError(f"cpsat@workers={workers} can only find one solution (limit 1): CP-SAT's "
                             "parallel enumeration misses solutions (8-queens, 2 workers: 77 of 92), so "
                             "counting and proving uniqueness take workers=1")
        return super().run(puzzle, limit=limit, time_limit=time_limit, **kwargs)

    takes_candidates = True

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        return cpsat_estimated_bytes(puzzle, self.variant)

    def encode(self, puzzle: Puzzle) -> CpSatModel:
        artifact = encode_cpsat(puzzle.rules, self.variant)
        marks = getattr(puzzle, "candidates", None)
        if marks:   # a Sukaku: each ruled-out candidate of an open cell is forbidden
            for cell, m in enumerate(marks):
                if not puzzle.givens[cell]:
                    for v in range(1, artifact.n_values + 1):
                        if not m >> (v - 1) & 1:
                            artifact.rule_out(cell, v)
        return artifact

    def size(self, artifact: CpSatModel) -> dict[str, int]:
        return artifact.size()

    def search(self, artifact: CpSatModel, limit, keep, deadline: Deadline) -> SearchOutcome:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = self.settings["workers"]
        params.cp_model_presolve = self.settings["presolve"]
        params.random_seed = self.engine_seed
        params.enumerate_all_solutions = limit != 1  # one solution: a plain solve, any workers
        remaining = deadline.remaining()
        if remaining is not None:
            params.max_time_in_seconds = max(remaining, 1e-3)
        log_file = None
        if self.settings["log"]:
            try:
                log_file = open(self.settings["log"], "a", encoding="utf-8")
            except OSError as exc:
                raise EngineError(f"cannot write the CP-SAT log {self.settings['log']!r}: "
                                  f"{exc.strerror}") from None
            params.log_search_progress = True
            params.log_to_stdout = False
            solver.log_callback = lambda line: log_file.write(line + "\n")
        collector = _collector_class()(artifact, limit, keep)
        try:
            with stop_at_ctrl_c(solver.stop_search, deadline.sigints, deadline.watch) as ctrl_c:
                # OR-Tools' own SIGINT handler, when on, replaces Python's and leaves the default
                # action behind; with the watch, a Ctrl-C is one path for every engine
                params.catch_sigint_signal = not ctrl_c.watching
                status = solver.solve(artifact.model, collector)
        finally:
            if log_file:
                log_file.close()
        if status == cp_model.MODEL_INVALID:
            raise EngineError(f"CP-SAT rejected the model: {artifact.model.validate()}")
        # OPTIMAL / INFEASIBLE: the enumeration ended; FEASIBLE or UNKNOWN without reaching
        # the limit: the clock stopped it.
        finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        timed_out = not finished and not limit_reached(collector.count, limit)
        return SearchOutcome(collector.solutions, collector.count, timed_out,
                             cpsat_stats(solver.response_proto))

    def decode(self, artifact: CpSatModel, raw) -> tuple[int, ...]:
        return tuple(raw)
