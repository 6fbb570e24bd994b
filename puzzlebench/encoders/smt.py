"""Rules in the shared vocabulary as SMT-LIB2 text (writer), and SMT-LIB2 text read back into
Z3 (reader) (Barrett, Fontaine, Tinelli, "The SMT-LIB Standard, Version 2.6", 2017; de Moura
and Bjørner, "Z3: an efficient SMT solver", TACAS 2008).

Three formulations (:func:`encode_smt`): ``int`` (a bounded ``Int`` per cell, ``distinct``,
standard QF_LIA), ``bool`` (a ``Bool`` per candidate, cardinality through Z3's extensions or
plain clauses) and ``fold``, ``bool`` with the givens unit-propagated here, which is what a
SAT solver does at decision level 0, done before the formula exists so the solver neither
parses nor stores the decided part.  A cage gets no variable of its own, so that every model
is a solution and nothing more.  Variables are named ``c<cell>`` and ``x<cell>_<value>`` so that a
model read back from any file decodes by name (:func:`decode_model`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ParseError, Place, UsageError
from ..models.vocabulary import (AllDifferent, Cage, ExactlyOne, Less, Rules, Visibility,
                                 candidate, candidate_cell_value, different_groups,
                                 pairwise_different)
from .cnf import estimated_bytes as cnf_estimated_bytes
from .cpsat import (candidate_groups, candidates_named, check_formulation, diagonal_families, less_pairs,
                    visibility_terms)

FORMULATIONS = ("fold", "int", "bool")
FIXED_COMMENT = "; decided before the solver (cell=value, cells from 0): "
AMO_ENCODINGS = ("card", "pairwise")


@dataclass
class SmtFormula:
    """An SMT-LIB2 formula and what is needed to read a solution back."""

    formulation: str
    logic: str
    n_cells: int
    n_values: int
    declarations: list[str]
    assertions: list[str]
    fixed: dict[int, int] = field(default_factory=dict)
    """Cells decided before the solver (``fold``): cell -> value."""

    def body(self) -> str:
        """Declarations and assertions: what :func:`read_smt2` needs."""
        return "\n".join(self.declarations + self.assertions) + "\n"

    def write(self) -> str:
        """A complete SMT-LIB2 script (``puzzlebench export --to smt2``)."""
        header = [f"; puzzlebench {self.formulation} formulation: {self.n_cells} cells, "
                  f"values 1..{self.n_values}",
                  "(set-info :source |puzzlebench|)", f"(set-logic {self.logic})"]
        if self.fixed:
            header.append(FIXED_COMMENT +
                          " ".join(f"{c}={v}" for c, v in sorted(self.fixed.items())))
        return "\n".join(header) + "\n" + self.body() + "(check-sat)\n(get-model)\n(exit)\n"

    def size(self) -> dict[str, int]:
        return {"variables": len(self.declarations), "constraints": len(self.assertions),
                "decided_cells": len(self.fixed)}


def encode_smt(rules: Rules, formulation: str = "fold", amo: str = "card") -> SmtFormula:
    """The SMT-LIB2 formula of ``rules`` in the named formulation.

    Formulations:

    - ``int``: an ``Int`` per cell with bounds ``1 <= c <= N``, a given as an equality,
      ``AllDifferent`` as ``distinct``; N-Queens diagonals as two more ``distinct`` over
      ``c + row`` and ``c - row`` (:func:`~puzzlebench.encoders.cpsat.diagonal_families`); other
      candidate groups and ``Visibility`` through ``ite`` sums, ``Less`` as ``<``.  Standard QF_LIA.
    - ``bool``: a ``Bool`` per candidate ``x<cell>_<value>``; exactly-one = at-least-one clause +
      at-most-one; ``Visibility`` through prefix-height Booleans and a count.  ``amo=card`` writes
      at-most-one and counts with Z3's cardinality/pseudo-Boolean extensions (``(_ at-most 1)``,
      ``(_ pbeq k 1 …)``, logic ``QF_FD``); ``amo=pairwise`` writes standard SMT-LIB only (pairwise
      clauses, ``ite`` sums), for any SMT solver.  ``Less``: a clause per value pair that breaks it.
    - ``fold``: the ``bool`` formulation after the givens are folded in: the at-most-one /
      exactly-one groups are unit-propagated once, here (each given removes its rivals; a group
      left with one open candidate makes it true, the naked and hidden singles), and only the open
      candidates and the groups that still constrain them reach the solver.  This is what a SAT
      solver does at decision level 0, done before the formula exists, so the solver neither
      parses nor stores the decided part.

    ``Cage`` (Killer, KenKen) needs no variable of its own, so that every model is a solution and
    nothing more: in ``int`` a sum is a linear sum, a difference or a quotient of two cells a
    disjunction of the two orders (``(= a (* 2 b))``: still linear), a product the disjunction of
    its fillings; in ``bool`` and ``fold`` the disjunction of its fillings over candidate terms (a
    set filling, where the cells are pairwise different: each cell takes one of its values)."""
    check_formulation(formulation, FORMULATIONS, "SMT")
    check_formulation(amo, AMO_ENCODINGS, "at-most-one")
    if formulation == "int":
        return _int_formula(rules)
    return _bool_formula(rules, amo, fold=formulation == "fold")


# -- int ------------------------------------------------------------------------------------

def _ite_sum(terms: list[str]) -> str:
    if not terms:
        return "0"
    parts = [f"(ite {t} 1 0)" for t in terms]
    return parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"


def _int_formula(rules: Rules) -> SmtFormula:
    n = rules.n_values
    name = [f"c{c}" for c in range(rules.n_cells)]
    decls = [f"(declare-const {x} Int)" for x in name]
    asserts = [f"(assert (and (<= 1 {x}) (<= {x} {n})))" for x in name]
    asserts += [f"(assert (= {name[c]} {g}))" for c, g in enumerate(rules.givens) if g]

    def is_(index: int) -> str:
        cell, v = candidate_cell_value(index, n)
        return f"(= {name[cell]} {v})"

    families, leftover = diagonal_families(rules)
    for fam in families:
        op = "+" if fam.sign > 0 else "-"
        asserts.append("(assert (distinct " + " ".join(f"({op} {name[c]} {c})" for c in fam.cells) + "))")
    for con in leftover:
        asserts.append(f"(assert (<= {_ite_sum([is_(x) for x in con.candidates])} 1))")
    for con in rules.constraints:
        if isinstance(con, ExactlyOne):
            owners = {candidate_cell_value(x, n)[0] for x in con.candidates}
            if len(owners) == 1 and len(con.candidates) == n:
                continue  # the bounds say it
            asserts.append(f"(assert (= {_ite_sum([is_(x) for x in con.candidates])} 1))")
        elif isinstance(con, AllDifferent):
            if len(con.cells) > 1:
                asserts.append("(assert (distinct " + " ".join(name[c] for c in con.cells) + "))")
        elif isinstance(con, Visibility):
            line = [name[c] for c in con.cells]
            seen = ["true"] + ["(and " + " ".join(f"(> {line[i]} {line[j]})" for j in range(i)) + ")"
                               for i in range(1, len(line))]
            asserts.append(f"(assert (= {_ite_sum(seen)} {con.clue}))")
        elif isinstance(con, Less):
            asserts.append(f"(assert (< {name[con.smaller]} {name[con.larger]}))")
        elif isinstance(con, Cage):
            asserts.append(f"(assert {_cage_int(con, [name[c] for c in con.cells], n)})")
    return SmtFormula("int", "QF_LIA", rules.n_cells, n, decls, asserts)


def _cage_int(cage: Cage, cells: list[str], n: int) -> str:
    if len(cells) == 1:
        return f"(= {cells[0]} {cage.target})"
    if cage.op == "+":
        return f"(= (+ {' '.join(cells)}) {cage.target})"
    a, b = cells[0], cells[-1]
    if cage.op == "-" and len(cells) == 2:
        return f"(or (= (- {a} {b}) {cage.target}) (= (- {b} {a}) {cage.target}))"
    if cage.op == "/" and len(cells) == 2:
        return f"(or (= {a} (* {cage.target} {b})) (= {b} (* {cage.target} {a})))"
    return _any_of(["(and " + " ".join(f"(= {x} {v})" for x, v in zip(cells, filling)) + ")"
                    for filling in cage.fillings(n)])


def _any_of(terms: list[str]) -> str:
    if not terms:
        return "false"
    return terms[0] if len(terms) == 1 else f"(or {' '.join(terms)})"


def _cage_bool(cage: Cage, n: int, term, distinct: bool) -> str:
    """The disjunction of ``cage``'s fillings over candidate terms."""
    options = []
    for filling in cage.fillings(n, distinct):
        if distinct:
            parts = [_any_of([term(candidate(cell, v, n)) for v in filling]) for cell in cage.cells]
        else:
            parts = [term(candidate(cell, v, n)) for cell, v in zip(cage.cells, filling)]
        options.append(parts[0] if len(parts) == 1 else f"(and {' '.join(parts)})")
    return _any_of(options)


# -- bool and fold ----------------------------------------------------------------------------

OPEN, TRUE, FALSE = 0, 1, 2


@lru_cache(maxsize=32)
def _group_table(rules_key: tuple) -> tuple[list[tuple[bool, tuple[int, ...]]], list[list[int]]]:
    """The candidate groups of a rule set and, per candidate, the groups it is in (cached:
    every puzzle of one shape shares them)."""
    n_cells, n_values, constraints = rules_key
    rules = Rules(n_cells, n_values, (0,) * n_cells, constraints)
    groups = [(g.exactly, g.candidates) for g in candidate_groups(rules)]
    groups_of: list[list[int]] = [[] for _ in range(n_cells * n_values)]
    for k, (_, members) in enumerate(groups):
        for x in members:
            groups_of[x].append(k)
    return groups, groups_of


def fold_givens(rules: Rules) -> tuple[bytearray | None, list[tuple[bool, tuple[int, ...]]], list[bool]]:
    """Unit propagation of the candidate groups from the givens: the state of every
    candidate (OPEN, TRUE, FALSE), the groups, and which groups already hold a true candidate.
    ``None`` for the state when the givens contradict the groups."""
    n = rules.n_values
    groups, groups_of = _group_table((rules.n_cells, n, rules.constraints))
    state = bytearray(rules.n_cells * n)
    open_left = [len(m) for _, m in groups]
    has_true = [False] * len(groups)
    todo = [candidate(c, g, n) for c, g in enumerate(rules.givens) if g]
    while todo:
        x = todo.pop()
        if state[x] == TRUE:
            continue
        if state[x] == FALSE:
            return None, groups, has_true
        state[x] = TRUE
        for k in groups_of[x]:
            if has_true[k]:
                return None, groups, has_true
            has_true[k] = True
            open_left[k] -= 1
            for y in groups[k][1]:
                if state[y] != OPEN:
                    continue
                state[y] = FALSE
                for k2 in groups_of[y]:
                    open_left[k2] -= 1
                    if groups[k2][0] and not has_true[k2]:
                        if open_left[k2] == 0:
                            return None, groups, has_true
                        if open_left[k2] == 1:
                            todo.extend(z for z in groups[k2][1] if state[z] == OPEN)
    return state, groups, has_true


def _bool_formula(rules: Rules, amo: str, fold: bool) -> SmtFormula:
    n = rules.n_values
    card = amo == "card"
    has_lines = any(True for _ in rules.of_type(Visibility))
    logic = "QF_FD" if card else ("QF_LIA" if has_lines else "QF_UF")
    formulation = "fold" if fold else "bool"
    if fold:
        state, groups, has_true = fold_givens(rules)
        if state is None:
            return SmtFormula(formulation, logic, rules.n_cells, n, [], ["(assert false)"])
    else:
        groups, _ = _group_table((rules.n_cells, n, rules.constraints))
        state, has_true = bytearray(rules.n_cells * n), [False] * len(groups)
        for c, g in enumerate(rules.givens):
            if g:
                state[candidate(c, g, n)] = TRUE

    def term(x: int) -> str:
        if fold and state[x] != OPEN:
            return "true" if state[x] == TRUE else "false"
        cell, v = candidate_cell_value(x, n)
        return f"x{cell}_{v}"

    fixed = {}
    decls, asserts = [], []
    for x, s in enumerate(state):
        if fold and s != OPEN:
            if s == TRUE:
                cell, v = candidate_cell_value(x, n)
                fixed[cell] = v
            continue
        decls.append(f"(declare-const {term(x)} Bool)")
    if not fold:
        asserts += [f"(assert {term(x)})" for x, s in enumerate(state) if s == TRUE]
    for k, (exactly, members) in enumerate(groups):
        if has_true[k]:
            continue
        live = [term(x) for x in members if not (fold and state[x] == FALSE)]
        if exactly:
            asserts.append(f"(assert (or {' '.join(live)}))" if len(live) > 1 else f"(assert {live[0]})")
        if len(live) > 1:
            asserts += _at_most_one(live, card)
    for index, con in enumerate(rules.of_type(Visibility)):
        asserts += _visibility(index, con, n, term, decls, card)
    for con in rules.of_type(Less):
        asserts += _less(con, n, term)
    groups = different_groups(rules)
    for con in rules.of_type(Cage):
        asserts.append(f"(assert {_cage_bool(con, n, term, pairwise_different(rules, con.cells, groups))})")
    return SmtFormula(formulation, logic, rules.n_cells, n, decls, asserts, fixed)


def _less(con: Less, n: int, term) -> list[str]:
    """``smaller < larger``: a clause per value pair that breaks it, over the candidates'
    terms (``fold``: a pair with a false candidate is left out, one of two true ones makes
    the formula false)."""
    out = []
    for v, w in less_pairs(n):
        a, b = term(candidate(con.smaller, v, n)), term(candidate(con.larger, w, n))
        if "false" in (a, b):
            continue
        out.append(f"(assert (or (not {a}) (not {b})))")
    return out


def _at_most_one(lits: list[str], card: bool) -> list[str]:
    if card:
        return [f"(assert ((_ at-most 1) {' '.join(lits)}))"]
    return [f"(assert (or (not {a}) (not {b})))" for i, a in enumerate(lits) for b in lits[i + 1:]]


def _visibility(index: int, con: Visibility, n: int, term, decls: list[str], card: bool) -> list[str]:
    """Prefix-height Booleans ``p<line>_<i>_<v>`` ("a cell among the first i+1 is at least v
    tall") and the count of cells seen (see :func:`~puzzlebench.encoders.cpsat.visibility_terms`)."""
    terms = visibility_terms(con, n)
    out = []
    prefix = {}
    for (i, v), cands in terms.prefix.items():
        p = f"p{index}_{i}_{v}"
        decls.append(f"(declare-const {p} Bool)")
        parts = [term(x) for x in cands] + ([prefix[(i - 1, v)]] if i else [])
        out.append(f"(assert (= {p} (or {' '.join(parts)})))")
        prefix[(i, v)] = p
    seen = [f"(and {term(candidate(con.cells[i], v, n))} (not {prefix[(i - 1, v)]}))"
            for i, v in terms.seen]
    if not seen:
        out.append("(assert true)" if terms.target == 0 else "(assert false)")
    elif card:
        out.append(f"(assert ((_ pbeq {terms.target} {' '.join('1' for _ in seen)}) {' '.join(seen)}))")
    else:
        out.append(f"(assert (= {_ite_sum(seen)} {terms.target}))")
    return out


# -- reading ----------------------------------------------------------------------------------

_Z3_ERROR = re.compile(r'line (\d+) column (\d+): (.*)')


def read_smt2(text: str, source: str | None = None, solver: Any = None) -> Any:
    """SMT-LIB2 text read by Z3 (commands such as ``check-sat`` are ignored): into ``solver``
    when given (``Solver.from_string``, no Python loop over the assertions; returns the
    solver), else as a vector of assertions.  A text that does not parse raises
    :class:`ParseError` at Z3's line and column."""
    import z3

    try:
        if solver is not None:
            solver.from_string(text)
            return solver
        return z3.parse_smt2_string(text)
    except z3.Z3Exception as exc:
        error = _parse_error(exc, source)
        if error.message.endswith("does not parse: out of memory"):
            # Z3's parser refused an allocation (under a memory limit): no fault of the text; a
            # bench's worker stored it "failed under it, ParseError", solve's child as exit 101
            raise MemoryError("Z3: out of memory reading the SMT-LIB2 formula") from None
        raise error from None


_Z3_FIRST_ERROR = re.compile(r'\(error "(?:line (\d+) column (\d+): )?(.*)"\)\s*$')


def _parse_error(exc: Exception, source: str | None) -> ParseError:
    """Z3's first error (it lists one ``(error "line L column C: …")`` a line) as a
    :class:`ParseError` at its place."""
    value = getattr(exc, "value", exc)
    message = (value.decode(errors="replace") if isinstance(value, bytes) else str(value)).strip()
    lines = message.splitlines()
    # Z3 says "unsupported" a line for each command it skipped (placed by :mod:`..solvers.smt`)
    first = next((line for line in lines if line != "unsupported"), lines[0] if lines else "Z3 said nothing")
    found = _Z3_FIRST_ERROR.match(first)
    if not found:
        return ParseError(f"SMT-LIB2 does not parse: {first}", Place(source))
    line, column, what = found.groups()
    if line is None:
        return ParseError(f"SMT-LIB2 does not parse: {what}", Place(source))
    # Z3 counts columns from 1 but says 0 at the start of a line (the end of the file)
    return ParseError(f"SMT-LIB2 does not parse: {what}", Place(source, int(line), max(1, int(column))))


# -- the declarations of any SMT-LIB2 file ----------------------------------------------------

@dataclass
class Declaration:
    """A ``declare-const`` or ``declare-fun`` command: the name as written (``|a b|`` keeps
    its bars), where it stands, and for ``declare-fun`` the text of its argument sorts (empty
    for a constant) and its result sort."""

    name: str
    line: int
    column: int
    arguments: str
    result: str


# Everything the scanner must step over whole (a comment, a string literal, a quoted symbol:
# each may hold parentheses or what looks like a command), or a command it looks at.
_SCAN = re.compile(r';[^\n]*|"(?:[^"]|"")*"?|\|[^|]*\|?|\(\s*(declare-const|declare-fun|push|pop|reset|exit)(?![^\s()|";])')
_SYMBOL = re.compile(r'\s*(\|[^|]*\||[^\s()|";]+)')
_NUMERAL = re.compile(r'\s*([0-9]+)?\s*\)')


def declarations(text: str, source: str | None = None) -> tuple[list[Declaration], int]:
    """The constants and functions an SMT-LIB2 script has declared when it ends (those of a
    ``push`` scope later popped, or before a ``reset``, are gone), and the offset where Z3
    stops reading (an ``(exit)``, or the end).  Comments, string literals and quoted symbols
    are stepped over whole: a ``(declare-const …)`` inside them declares nothing.  A
    declaration that does not end is a :class:`ParseError` at its place; what else is
    malformed is left for Z3's own parser to report."""
    scopes: list[list[Declaration]] = [[]]
    for found in _SCAN.finditer(text):
        command = found.group(1)
        if command is None:
            continue
        at = found.end()
        if command == "exit":
            return [d for scope in scopes for d in scope], found.start()
        if command == "reset":
            scopes = [[]]
        elif command in ("push", "pop"):
            levels = _NUMERAL.match(text, at)
            n = int(levels.group(1) or 1) if levels else 1
            if command == "push":
                scopes += [[] for _ in range(min(n, 1 << 16))]
            elif n < len(scopes):
                del scopes[len(scopes) - n:]
        else:
            declared = _declaration(text, found.start(), at, command == "declare-fun", source)
            if declared is not None:
                scopes[-1].append(declared)
    return [d for scope in scopes for d in scope], len(text)


MAX_DECLARATION = 10_000   # characters of a declaration's sorts: a sort is short; a longer one is junk


def _declaration(text: str, start: int, at: int, function: bool, source: str | None) -> Declaration | None:
    name = _SYMBOL.match(text, at)
    if name is None:
        return None                  # Z3 says what is wrong
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    close = _closing(text, name.end(), depth=1)
    if close is None:
        within = ("before the file ends" if len(text) - name.end() < MAX_DECLARATION
                  else f"within {MAX_DECLARATION} characters")
        raise ParseError(f"the declaration of {name.group(1)} is not closed {within}", Place(source, line, column))
    rest = text[name.end():close]
    arguments, result = "", rest.strip()
    if function:
        inner = rest.lstrip()
        split = _closing(inner, 0) if inner.startswith("(") else None
        if split is None:
            raise ParseError(f"declare-fun {name.group(1)}: expected its argument sorts in parentheses",
                             Place(source, line, column))
        arguments, result = inner[1:split].strip(), inner[split + 1:].strip()
    return Declaration(name.group(1), line, column, arguments, result)


_PAREN = re.compile(r"[()|]")


def _closing(text: str, at: int, depth: int = 0) -> int | None:
    """The offset of the parenthesis that brings the depth (``depth`` at ``at``) back to 0,
    looked for within :data:`MAX_DECLARATION` characters (sorts hold no strings or comments;
    a quoted symbol is stepped over); None if there is none there."""
    end = min(len(text), at + MAX_DECLARATION)
    i = at
    while True:
        found = _PAREN.search(text, i, end)
        if found is None:
            return None
        i = found.end()
        c = found.group()
        if c == "|":
            bar = text.find("|", i, end)
            if bar < 0:
                return None
            i = bar + 1
        elif c == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return found.start()


def read_smt2_file(path: str | Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    return read_smt2(text, str(path))


_DEFINITION = re.compile(r"\(define-fun (c|x)(\d+)(?:_(\d+))? \(\) (?:Int|Bool)\s+([^\s()]+)\)")


def model_assignment(model: Any) -> list[tuple[int, int | None, str]]:
    """The cell variables of a Z3 model, read from its SMT-LIB2 text in one pass (one call
    into Z3 instead of two per variable): ``(cell, value or None, text)`` where a candidate
    ``x<cell>_<value>`` has its value and ``c<cell>`` has ``None`` and its number as text."""
    return [(int(cell), int(value) if kind == "x" else None, text)
            for kind, cell, value, text in _DEFINITION.findall(model.sexpr())]


def decode_model(model: Any, n_cells: int, fixed: dict[int, int] | None = None) -> tuple[int, ...]:
    """A value per cell from a Z3 model, by variable name (``c<cell>`` Int, ``x<cell>_<value>``
    Bool), with the cells decided before the solver; an undecided cell stays 0."""
    return decode_assignment(model_assignment(model), n_cells, fixed)


def header_facts(text: str, source: str | None = None) -> tuple[str | None, dict[int, int], int | None]:
    """What a file written by :meth:`SmtFormula.write` says about itself: its logic, the cells
    decided before the solver, and the number of cells (``None`` when not said).  A line of
    decided cells that is not ``cell=value`` pairs of integers is a :class:`ParseError` at
    the pair."""
    logic = re.search(r"\(set-logic\s+([^\s)]+)\)", text)
    cells = re.search(r"^; puzzlebench \w+ formulation: ([0-9]{1,18}) cells", text, re.M)
    fixed: dict[int, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith(FIXED_COMMENT):
            for found in re.finditer(r"\S+", line[len(FIXED_COMMENT):]):
                pair = re.fullmatch(r"([0-9]{1,18})=([0-9]{1,18})", found.group())
                if pair is None or int(pair.group(1)) in fixed:
                    why = "is given twice" if pair else "is not cell=value"
                    raise ParseError(f"decided cell {found.group()!r} {why}",
                                     Place(source, number, len(FIXED_COMMENT) + found.start() + 1))
                fixed[int(pair.group(1))] = int(pair.group(2))
    return (logic.group(1) if logic else None, fixed, int(cells.group(1)) if cells else None)


def decode_assignment(assignment, n_cells: int, fixed: dict[int, int] | None = None) -> tuple[int, ...]:
    values = [0] * n_cells
    for cell, v in (fixed or {}).items():
        values[cell] = v
    for cell, value, text in assignment:
        if value is None:
            values[cell] = int(text)
        elif text == "true":
            values[cell] = value
    return tuple(values)


def blocking_clause(assignment, declare: bool = False) -> str | None:
    """SMT-LIB2 text ruling out this assignment's solution (some cell takes another value),
    with the declarations it needs when ``declare`` (a Z3 solver that read the formula with
    ``from_string`` already knows them); ``None`` when no cell variable is left."""
    decls, lits = [], []
    for cell, value, text in assignment:
        if value is None:
            decls.append(f"(declare-const c{cell} Int)")
            lits.append(f"(not (= c{cell} {text}))")
        elif text == "true":
            decls.append(f"(declare-const x{cell}_{value} Bool)")
            lits.append(f"(not x{cell}_{value})")
    if not lits:
        return None
    return "".join(decls if declare else []) + f"(assert (or {' '.join(lits)}))"


# -- export targets (puzzlebench.encoders.registry.FORMATS) ---------------------------------

Z3_BYTES = 3200
"""What Z3 holds a candidate named (:func:`~.cpsat.candidates_named`) through its parser and two
checks: at most 2,778 bytes measured on empty Sudokus up to 49x49 with cardinality constraints,
plus 15 % (results/budget.md).  The ``int`` formulation's formula is smaller (an ``Int`` a
cell); what Z3's search on it adds grows with its time, which the time limit bounds."""
TEXT_BYTES = 185
"""What the SMT-LIB2 text of a formula with cardinality constraints takes a candidate named,
its assertions' strings and their join (``export --to smt2-bool``: 163 measured on an empty
64x64)."""


def estimated_bytes(puzzle, amo: str = "card", formulation: str = "fold") -> int:
    """What Z3 holds for ``puzzle``'s formula and its text, before it is made: with pairwise
    at-most-ones (``bool``, ``fold``), the CNF's clauses as terms (230 bytes a clause and 115 a
    literal above the formula's lists: Z3 took 535 bytes a clause of an empty 36x36's in all);
    else :data:`Z3_BYTES` a candidate named that the givens leave open."""
    if amo == "pairwise" and formulation != "int":
        return cnf_estimated_bytes(puzzle, "extended", "pairwise", per_clause=230, per_literal=115)
    return candidates_named(puzzle.rules, formulation != "int", open_only=True) * Z3_BYTES


def estimated_export_bytes(puzzle, amo: str = "card") -> int:
    """What ``export --to smt2-fold`` or ``smt2-bool`` holds: with pairwise at-most-ones as
    :func:`estimated_bytes` counts them, else :data:`TEXT_BYTES` a candidate named."""
    if amo == "pairwise":
        return estimated_bytes(puzzle, amo)
    return candidates_named(puzzle.rules, signs_as_clauses=True) * TEXT_BYTES


def export_smt2(puzzle) -> SmtFormula:
    """``export --to smt2``: standard SMT-LIB2 (QF_LIA), an Int per cell, for any SMT solver (no
    at-most-one to encode: it takes no ``amo``)."""
    return encode_smt(puzzle.rules, "int")


def export_smt2_fold(puzzle, amo: str = "card") -> SmtFormula:
    """``export --to smt2-fold``: the givens folded away (Z3's cardinality extensions;
    ``amo="pairwise"`` for standard SMT-LIB)."""
    return encode_smt(puzzle.rules, "fold", amo)


def export_smt2_bool(puzzle, amo: str = "card") -> SmtFormula:
    """``export --to smt2-bool``: a Bool per candidate."""
    return encode_smt(puzzle.rules, "bool", amo)
