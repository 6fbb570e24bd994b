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

import re
from dataclasses import dataclass
from typing import Callable

from ..encoders.smt import (AMO_ENCODINGS, FORMULATIONS, SmtFormula, blocking_clause,
                            decode_assignment, encode_smt, model_assignment, read_smt2)
from ..errors import EngineError
from ..models.base import Puzzle
from ..results import Stats
from .base import EVERY_KIND, Deadline, Engine, Option, SearchOutcome, limit_reached

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
    kinds = EVERY_KIND
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



# -- any SMT-LIB2 file ---------------------------------------------------------------------------

_EXIT = re.compile(r"\(\s*exit\s*\)")
_DECLARATION = re.compile(r"\(\s*declare-(const|fun)\s+(\|[^|]*\||[^\s()|]+)\s*(\([^()]*\))?")


@dataclass
class SmtModels:
    """What :func:`count_smt2_models` found: the models (each as its constants' values, in
    declaration order), how many, how it ended (``sat``/``unsat``/``unknown``) and Z3's
    statistics."""

    models: list[list[tuple[str, str]]]
    count: int
    ending: str
    reason: str
    stats: Stats


def countable_constants(text: str, source: str | None = None) -> list:
    """Every constant the file declares (``declare-const``, ``declare-fun`` of no argument),
    as Z3 terms, in declaration order: the variables whose values make one model.  A file whose
    models cannot be listed one by one — a function of arguments, or a constant of a sort with
    no end of values that blocking cannot walk (Real, arrays, strings, uninterpreted sorts…) —
    is refused, naming the declaration: counting it another way would be a guess."""
    import z3

    names = []
    for found in _DECLARATION.finditer(text):
        kind, name, args = found.groups()
        if kind == "fun" and args is not None and args.strip("() \t\r\n"):
            line = text.count("\n", 0, found.start()) + 1
            raise EngineError(f"{_where(source, line)}{name} is a function of arguments: its models "
                              "cannot be counted by listing values")
        names.append((name, text.count("\n", 0, found.start()) + 1))
    if not names:
        return []
    # each declared name read back as a term with its sort: an assertion of it appended (after
    # the file's own, so before any `(exit)`, which ends Z3's reading)
    body = _EXIT.sub("", text)
    probe = read_smt2(body + "".join(f"(assert (= {n} {n}))" for n, _ in names), source)
    first = len(probe) - len(names)
    constants = [probe[first + i].arg(0) for i in range(len(names))]
    for (name, line), const in zip(names, constants):
        if not _enumerable(const.sort()):
            raise EngineError(f"{_where(source, line)}{name} is of sort {const.sort()}, whose values cannot "
                              "be listed one by one: the models are not counted (Int, Bool, bit-vectors "
                              "and enumerations can be)")
    return constants


def _where(source: str | None, line: int) -> str:
    return f"{source}:{line}: " if source else f"line {line}: "


def _enumerable(sort) -> bool:
    import z3

    kind = sort.kind()
    if kind in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT, z3.Z3_BV_SORT, z3.Z3_FINITE_DOMAIN_SORT):
        return True
    return kind == z3.Z3_DATATYPE_SORT and all(
        sort.constructor(i).arity() == 0 for i in range(sort.num_constructors()))


def count_smt2_models(text: str, source: str | None, limit: int | None, time_limit: float | None,
                      on_model: Callable[[int, list[tuple[str, str]]], None] | None = None) -> SmtModels:
    """Count the models of an SMT-LIB2 text over every constant it declares (see
    :func:`countable_constants`), blocking each model found, up to ``limit`` (``None``: all)
    within ``time_limit``.  Two models are different when some declared constant differs, so
    the count is the file's, whatever its variables are called.  ``on_model(k, values)`` is
    called as each model is found."""
    import z3

    constants = countable_constants(text, source)
    logic = re.search(r"\(set-logic\s+([^\s)]+)\)", text)
    solver = z3.SolverFor("QF_FD") if logic and logic.group(1) == "QF_FD" else z3.Solver()
    read_smt2(text, source, solver)
    deadline, models, count, answer = Deadline(time_limit), [], 0, None
    while limit is None or count < limit:
        if deadline.remaining() is not None:
            if deadline.expired():
                answer = z3.unknown
                break
            solver.set("timeout", max(1, int(deadline.remaining() * 1000)))
        answer = solver.check()
        if answer != z3.sat:
            break
        count += 1
        model = solver.model()
        values = [model.eval(c, model_completion=True) for c in constants]
        shown = [(str(c), v.sexpr()) for c, v in zip(constants, values)]
        if len(models) < 10:
            models.append(shown)
        if on_model:
            on_model(count, shown)
        if not constants:
            break                    # no variable: the one model there is
        solver.add(z3.Or([c != v for c, v in zip(constants, values)]))
    ending = "sat" if answer == z3.sat or (answer is None and count) else str(answer or "unknown")
    reason = ("the time limit" if deadline.expired() else solver.reason_unknown()) if answer == z3.unknown else ""
    return SmtModels(models, count, ending, reason, z3_stats(solver.statistics()))
