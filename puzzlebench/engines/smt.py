"""Z3 as an engine: the formulations of :mod:`puzzlebench.encoders.smt`, built in Z3 by
parsing their SMT-LIB2 text (faster than making the same terms through Z3's Python objects:
see results/cpsat_smt/summary.md), counted by blocking each solution found.

Solvers: ``int`` runs Z3's default solver (its SMT core with arithmetic); ``bool`` and
``fold`` run ``SolverFor("QF_FD")`` with ``amo=card`` (Z3's SAT core with native cardinality
constraints), the default solver with ``amo=pairwise``.  Statistics: Z3 answers in two vocabularies.  Its SMT core reports ``decisions``,
``conflicts``, ``propagations``; its SAT core ``sat decisions``, ``sat conflicts`` and
``sat propagations 2ary`` / ``3ary`` / ``nary``.  ``nodes`` = decisions, ``conflicts`` =
conflicts, ``propagations`` = propagations, from whichever core ran (summed when both
report); ``guesses`` and ``backtracks`` have no Z3 counterpart.  ``raw`` keeps Z3's keys.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Callable

from ..encoders.smt import (AMO_ENCODINGS, FORMULATIONS, SmtFormula, blocking_clause,
                            decode_assignment, declarations, encode_smt, model_assignment,
                            read_smt2)
from ..encoders.smt import estimated_bytes as smt_estimated_bytes
from ..errors import EngineError, ParseError, Place
from ..models.base import Puzzle
from ..results import Stats
from ..runtime.child import Z3_MEMOUT_EXIT, capped, says_out_of_memory
from ..runtime.interrupts import ctrl_c_kept, stop_at_ctrl_c
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, Option, SearchOutcome
from .blocking import STOPPED, enumerate_by_blocking

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


@functools.cache   # once a process: the hold's handler changes stay off every later encode
def _main_context() -> None:
    """Z3's global context (its memory manager, its tables), made at the first formula, whole:
    one half made by a Ctrl-C failed again in its ``__del__`` at exit ("Exception ignored")."""
    import z3
    with ctrl_c_kept():
        z3.main_ctx()


class SmtEngine(Engine):
    kinds = EVERY_KIND
    family = "smt"
    summary = ("Z3 on SMT-LIB2: givens folded + Booleans (fold), Int per cell with Distinct (int), "
               "Boolean per candidate (bool)")
    variants = FORMULATIONS
    library = "z3-solver"
    libraries = ("z3",)

    def load(self) -> None:
        super().load()
        try:
            _main_context()
        except Exception:
            pass
    options = (
        Option("amo", str, "card", "at-most-one in bool/fold: card (Z3's (_ at-most 1), QF_FD) or "
               "pairwise (standard SMT-LIB clauses)", AMO_ENCODINGS,
               applies=lambda engine, on: "int states a cell as an Int under Distinct: no at-most-one to "
                                          "encode" if engine.variant == "int" else None),
    )
    seed_parameter = "Z3's random_seed of the solver (its smt and sat cores)"
    statistics = {
        "nodes": "decisions (SMT core) + sat decisions (SAT core)",
        "conflicts": "conflicts (SMT core) + sat conflicts (SAT core)",
        "propagations": "propagations (SMT core) + sat propagations 2ary/3ary/nary (SAT core)",
    }

    def run(self, puzzle: Puzzle, **kwargs):
        import z3
        try:
            return super().run(puzzle, **kwargs)
        except z3.Z3Exception as exc:   # Z3 refused an allocation (reading the formula, a blocking clause)
            if says_out_of_memory(str(exc)):
                raise MemoryError(f"Z3: {exc}") from None
            raise

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        return smt_estimated_bytes(puzzle, self.settings["amo"], self.variant)

    def encode(self, puzzle: Puzzle) -> tuple[SmtFormula, object]:
        """The formula as SMT-LIB2 text, loaded into a fresh Z3 solver by Z3's own parser
        (the artifact is both)."""
        formula = encode_smt(puzzle.rules, self.variant, self.settings["amo"])
        _main_context()
        return formula, read_smt2(formula.body(), f"<{self.spec}>", self.make_solver(formula))

    def size(self, artifact) -> dict[str, int]:
        return artifact[0].size()

    def make_solver(self, formula: SmtFormula):
        import z3

        solver = z3.SolverFor("QF_FD") if formula.logic == "QF_FD" else z3.Solver()
        solver.set("random_seed", self.engine_seed)
        return solver

    def search(self, artifact, limit, keep, deadline: Deadline) -> SearchOutcome:
        formula, solver = artifact
        with stop_at_ctrl_c(solver.ctx.interrupt, deadline.sigints, deadline.watch) as ctrl_c:
            # Z3's own SIGINT handler, in place only during a check, lets a Ctrl-C between two
            # checks through to Python, whose KeyboardInterrupt is lost when it lands in a
            # model's __del__ (the enumeration would go on).  The watch sees every one.
            solver.set("ctrl_c", not ctrl_c.watching)
            return self._enumerate(formula, solver, limit, keep, deadline, ctrl_c)

    def _enumerate(self, formula, solver, limit, keep, deadline: Deadline, ctrl_c) -> SearchOutcome:
        import z3

        solutions: list[tuple[int, ...]] = []   # the first ``keep``, decoded as found

        def solve_once():
            if ctrl_c.pressed:   # the enumeration ends here; KeyboardInterrupt follows it
                return None
            remaining = deadline.remaining()
            if remaining is not None:
                solver.set("timeout", max(1, int(remaining * 1000)))
            answer = checked(solver)
            if answer == z3.unsat:
                return None
            if answer == z3.unknown:
                reason = solver.reason_unknown()
                if ctrl_c.pressed or deadline.expired() or reason in ("timeout", "canceled"):
                    return STOPPED
                if says_out_of_memory(reason):   # under a memory limit: a memout in Z3's words
                    raise MemoryError(f"Z3 gave up: {reason}")
                raise EngineError(f"Z3 gave up: {reason}")
            assignment = model_assignment(solver.model())
            if len(solutions) < keep:
                solution = decode_assignment(assignment, formula.n_cells, formula.fixed)
                if 0 in solution:   # seen when an allocation failed under a memory limit: Z3's failure, not a wrong answer
                    failure = MemoryError if capped() else EngineError
                    raise failure(f"Z3 gave a model without a value for {solution.count(0)} of "
                                  f"{len(solution)} cells")
                solutions.append(solution)
            return assignment

        def block(assignment) -> bool:
            clause = blocking_clause(assignment)
            if clause is not None:   # None: nothing was left open, the only solution
                solver.from_string(clause)
            return clause is not None

        found = enumerate_by_blocking(solve_once, block, limit, 0, None)
        return SearchOutcome(solutions, found.count, found.timed_out, z3_stats(solver.statistics()))

    def decode(self, artifact, raw) -> tuple[int, ...]:
        return tuple(raw)



# -- any SMT-LIB2 file ---------------------------------------------------------------------------

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
    """Every constant the file has declared when it ends (``declare-const``, ``declare-fun``
    of no argument; see :func:`~puzzlebench.encoders.smt.declarations`), as Z3 terms, in
    declaration order: the variables whose values make one model.  A file whose models cannot
    be listed one by one — a function of arguments, or a constant of a sort with no end of
    values that blocking cannot walk (Real, arrays, strings, uninterpreted sorts…) — is
    refused, naming the declaration and its sort: counting it another way would be a guess."""
    declared, end = declarations(text, source)
    for d in declared:
        if d.arguments:
            raise EngineError(f"{_where(source, d.line, d.column)}{d.name} is a function of sort "
                              f"({d.arguments}) -> {d.result}: its models cannot be counted by listing values")
    if not declared:
        return []
    # each declared name read back as a term with its sort: an assertion of it appended after
    # the file's own commands (before an `(exit)`, which ends Z3's reading)
    probe = read_smt2(text[:end] + "\n" + "".join(f"(assert (= {d.name} {d.name}))" for d in declared), source)
    first = len(probe) - len(declared)
    constants = [probe[first + i].arg(0) for i in range(len(declared))]
    for d, const in zip(declared, constants):
        if not _enumerable(const.sort()):
            raise EngineError(f"{_where(source, d.line, d.column)}{d.name} is of sort {const.sort().sexpr()}, "
                              "whose values cannot be listed one by one: the models are not counted (Int, Bool, "
                              "bit-vectors and enumerations can be)")
    return constants


def _where(source: str | None, line: int, column: int) -> str:
    return f"{Place(source, line, column)}: "


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

    logic = re.search(r"\(set-logic\s+([^\s)]+)\)", text)
    solver = z3.SolverFor("QF_FD") if logic and logic.group(1) == "QF_FD" else z3.Solver()
    constants = _read_quietly(lambda: countable_constants(text, source), source)
    _read_quietly(lambda: read_smt2(text, source, solver), source)
    deadline, said = Deadline(time_limit), {"answer": None, "count": 0}

    def solve_once():
        if deadline.remaining() is not None:
            solver.set("timeout", max(1, int(deadline.remaining() * 1000)))
        said["answer"] = checked(solver)
        if said["answer"] != z3.sat:
            return None
        model = solver.model()
        values = [model.eval(c, model_completion=True) for c in constants]
        said["count"] += 1
        if on_model:
            on_model(said["count"], [(c.sexpr(), v.sexpr()) for c, v in zip(constants, values)])
        return values

    def block(values) -> bool:
        if constants:   # no variable: the one model there is
            solver.add(z3.Or([c != v for c, v in zip(constants, values)]))
        return bool(constants)

    found = enumerate_by_blocking(solve_once, block, limit, 10, deadline)
    if found.timed_out:   # the deadline passed before a check
        said["answer"] = z3.unknown
    answer, count = said["answer"], found.count
    models = [[(c.sexpr(), v.sexpr()) for c, v in zip(constants, values)] for values in found.kept]
    ending = "sat" if answer == z3.sat or (answer is None and count) else str(answer or "unknown")
    reason = ("the time limit" if deadline.expired() else solver.reason_unknown()) if answer == z3.unknown else ""
    return SmtModels(models, count, ending, reason, z3_stats(solver.statistics()))


_Z3_UNSUPPORTED = re.compile(r"^; (\S+) line: (\d+) position: (\d+)$", re.M)
"""What Z3's SMT-LIB2 parser writes on its process's standard error for a command it does not
know, which it then skips (``; foo line: 5 position: 4``)."""


def _read_quietly(read: Callable[[], Any], source: str | None) -> Any:
    """``read()``, a reading of SMT-LIB2 text by Z3, with what Z3 writes on the process's
    standard error (file descriptor 2, below Python) kept from the terminal: a command Z3 does
    not know is a :class:`ParseError` at its place (Z3 skips it, saying so in a raw line), or
    Z3's own error when that comes first in the text."""
    import os
    import sys
    import tempfile

    with tempfile.TemporaryFile() as said:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(said.fileno(), 2)
        try:
            try:
                result, error = read(), None
            except ParseError as exc:
                result, error = None, exc
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        said.seek(0)
        unknown = _Z3_UNSUPPORTED.search(said.read().decode(errors="replace"))
    if unknown is not None:
        name, line, column = unknown.group(1), int(unknown.group(2)), int(unknown.group(3))
        if error is None or (error.place.line or 0, error.place.column or 0) > (line, column):
            raise ParseError(f"SMT-LIB2 does not parse: unknown command {name!r}", Place(source, line, column))
    if error is not None:
        raise error
    return result


# Z3's reason when its own SIGINT handler stopped a check: Ctrl-C never reaches Python as a
# KeyboardInterrupt, so this reason is what tells a Ctrl-C from Z3 giving up (an error record).
Z3_CTRL_C = "interrupted from keyboard"


def checked(solver):
    """``solver.check()``, Ctrl-C during it raised as the KeyboardInterrupt it is."""
    import z3

    answer = solver.check()
    if answer == z3.unknown and solver.reason_unknown() == Z3_CTRL_C:
        raise KeyboardInterrupt
    return answer


def count_smt2_models_apart(text: str, source: str | None, limit: int | None, time_limit: float | None,
                            on_model: Callable[[int, list[tuple[str, str]]], None] | None = None) -> SmtModels:
    """:func:`count_smt2_models` in a forked child process, the models sent back as they are
    found.  Two things Z3 does not let a caller hold in-process: its SMT-LIB2 parser ends the
    whole process (exit code 101, nothing said) when memory runs out, as a declared
    ``(_ BitVec 200000000)`` under a memory limit does; and reading a file looks at no clock.
    Here the first is an error naming the file, and the second a child killed at the time
    limit plus :func:`~puzzlebench.runtime.child.grace` (a ``timeout`` with the models found)."""
    import multiprocessing
    import os
    import signal
    import time

    from ..runtime.limits import grace

    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe(duplex=False)
    process = context.Process(target=_count_in_child, daemon=True,
                              args=(theirs, text, source, limit, time_limit, os.getpid()))
    process.start()
    theirs.close()
    ends = None if time_limit is None else time.monotonic() + time_limit + grace(time_limit)
    models: list[list[tuple[str, str]]] = []
    count = 0
    try:
        while True:
            wait = None if ends is None else max(0.0, ends - time.monotonic())
            if not mine.poll(wait):
                return SmtModels(models, count, "unknown", "the time limit", Stats())
            try:
                message = mine.recv()
            except EOFError:          # the child ended without a word: Z3 ended it
                process.join()
                raise EngineError(_ended(source, process.exitcode)) from None
            if message[0] == "model":
                count, values = message[1], message[2]
                if len(models) < 10:
                    models.append(values)
                if on_model:
                    on_model(count, values)
            elif message[0] == "error":
                raise EngineError(message[1])
            else:
                return message[1]
    finally:
        if process.is_alive():
            os.kill(process.pid, signal.SIGKILL)
        process.join()
        mine.close()


def _count_in_child(conn, text, source, limit, time_limit, parent_pid) -> None:
    import signal

    from ..errors import PuzzlebenchError
    from ..runtime.child import die_with_parent

    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    try:
        found = count_smt2_models(text, source, limit, time_limit,
                                  lambda k, values: conn.send(("model", k, values)))
        conn.send(("done", found))
    except PuzzlebenchError as exc:   # its place is in its text
        conn.send(("error", str(exc)))
    conn.close()


def _ended(source: str | None, code: int | None) -> str:
    where = f"{source}: " if source else ""
    if code == Z3_MEMOUT_EXIT:
        return f"{where}Z3 ran out of memory and ended its process (exit code {Z3_MEMOUT_EXIT})"
    if code is not None and code < 0:
        try:
            return f"{where}Z3's process was killed by {signal_name(-code)}"
        except ValueError:
            pass
    return f"{where}Z3's process ended (exit code {code})"


def signal_name(number: int) -> str:
    import signal

    return signal.Signals(number).name
