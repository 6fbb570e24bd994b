"""Z3 as an engine: the formulations of :mod:`puzzlebench.encoders.smt`, built in Z3 by
parsing their SMT-LIB2 text (faster than making the same terms through Z3's Python objects:
see results/cpsat_smt.md), counted by blocking each solution found.

Solvers: ``int`` runs Z3's default solver (its SMT core with arithmetic); ``bool`` and
``fold`` run ``SolverFor("QF_FD")`` with ``amo=card`` (Z3's SAT core with native cardinality
constraints), the default solver with ``amo=pairwise``.

Statistics: Z3 answers in two vocabularies.  Its SMT core reports ``decisions``,
``conflicts``, ``propagations``; its SAT core ``sat decisions``, ``sat conflicts`` and
``sat propagations 2ary`` / ``3ary`` / ``nary``.  ``nodes`` = decisions, ``conflicts`` =
conflicts, ``propagations`` = propagations, from whichever core ran (summed when both
report); ``guesses`` and ``backtracks`` have no Z3 counterpart.  ``raw`` keeps Z3's keys.
"""

from __future__ import annotations

from ..encoders.smt import (AMO_ENCODINGS, FORMULATIONS, SmtFormula, blocking_clause,
                            decode_assignment, encode_smt, model_assignment, read_smt2)
from ..errors import EngineError
from ..models.base import Puzzle
from ..results import Stats
from .base import Deadline, Engine, Option, SearchOutcome, limit_reached

SMT_KEYS = {"nodes": ("decisions",), "conflicts": ("conflicts",), "propagations": ("propagations",)}
SAT_KEYS = {"nodes": ("sat decisions",), "conflicts": ("sat conflicts",),
            "propagations": ("sat propagations 2ary", "sat propagations 3ary", "sat propagations nary")}


def z3_stats(statistics) -> Stats:
    """Z3's statistics under the shared names, from both of its vocabularies."""
    raw = {key: statistics.get_key_value(key) for key in statistics.keys()}
    normal: dict[str, int | None] = {}
    for name in ("nodes", "conflicts", "propagations"):
        found = [raw[k] for k in SMT_KEYS[name] + SAT_KEYS[name] if k in raw]
        normal[name] = int(sum(found)) if found else None
    return Stats(nodes=normal["nodes"], conflicts=normal["conflicts"],
                 propagations=normal["propagations"], raw=raw)


class SmtEngine(Engine):
    family = "smt"
    summary = ("Z3 on SMT-LIB2: givens folded + Booleans (fold), Int per cell with Distinct (int), "
               "Boolean per candidate (bool)")
    variants = FORMULATIONS
    library = "z3-solver"
    options = (
        Option("amo", str, "card", "at-most-one in bool/fold: card (Z3's (_ at-most 1), QF_FD) or "
               "pairwise (standard SMT-LIB clauses)", AMO_ENCODINGS),
    )
    statistics = {
        "nodes": "decisions (SMT core) + sat decisions (SAT core)",
        "conflicts": "conflicts (SMT core) + sat conflicts (SAT core)",
        "propagations": "propagations (SMT core) + sat propagations 2ary/3ary/nary (SAT core)",
    }

    def encode(self, puzzle: Puzzle) -> tuple[SmtFormula, object]:
        """The formula as SMT-LIB2 text, loaded into a fresh Z3 solver by Z3's own parser
        (the artifact is both)."""
        formula = encode_smt(puzzle.rules, self.variant, self.settings["amo"])
        return formula, read_smt2(formula.body(), f"<{self.spec}>", self.make_solver(formula))

    def size(self, artifact) -> dict[str, int]:
        return artifact[0].size()

    def make_solver(self, formula: SmtFormula):
        import z3

        if formula.logic == "QF_FD":
            return z3.SolverFor("QF_FD")
        return z3.Solver()

    def search(self, artifact, limit, keep, deadline: Deadline) -> SearchOutcome:
        import z3

        formula, solver = artifact
        solutions, count, timed_out = [], 0, False
        while not limit_reached(count, limit):
            remaining = deadline.remaining()
            if remaining is not None:
                solver.set("timeout", max(1, int(remaining * 1000)))
            answer = solver.check()
            if answer == z3.unsat:
                break
            if answer == z3.unknown:
                reason = solver.reason_unknown()
                if deadline.expired() or reason in ("timeout", "canceled"):
                    timed_out = True
                    break
                raise EngineError(f"Z3 gave up: {reason}")
            assignment = model_assignment(solver.model())
            count += 1
            if len(solutions) < keep:
                solutions.append(decode_assignment(assignment, formula.n_cells, formula.fixed))
            if limit_reached(count, limit):
                break
            block = blocking_clause(assignment)
            if block is None:  # nothing was left open: the only solution
                break
            solver.from_string(block)
        return SearchOutcome(solutions, count, timed_out, z3_stats(solver.statistics()))

    def decode(self, artifact, raw) -> tuple[int, ...]:
        return tuple(raw)

