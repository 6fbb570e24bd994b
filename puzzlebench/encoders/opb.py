"""Rules in the shared vocabulary as a pseudo-Boolean problem in OPB, the PB competition's
format (Roussel and Manquinho, "Input/Output Format and Solver Requirements for the
Competitions of Pseudo-Boolean Solvers", 2012), read back in, and a PB solver's answer read
back.  Variables ``x1..xK`` are the candidates, numbered as in the DIMACS export, so that cell
values are linear terms and ``Less`` and sums are single linear constraints, which is what PB
solvers such as Exact (Elffers and Nordström, "Divide and Conquer: Towards Faster
Pseudo-Boolean Solving", IJCAI 2018) reason on.  Every auxiliary variable is a function of
the candidates, so a model count is the puzzle's solution count; :func:`encode_pb` says how
each rule is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ParseError, Place
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules,
                                 Visibility, candidate, candidate_cell_value)
from .cpsat import candidate_groups, visibility_terms
from .dimacs import ModelLiterals, file_lines, integer, words
from .interop import check_vocabulary, header_lines, read_header

TARGET = "opb"
KNOWN = (ExactlyOne, AtMostOne, AllDifferent, Less, Cage, Visibility)

Term = tuple[int, int]                 # (coefficient, variable from 1)
Constraint = tuple[list[Term], str, int]   # terms, ">=" or "=", bound


@dataclass
class PseudoBoolean:
    """A PB problem: ``n_vars`` variables (the first ``n_candidates`` the candidates) and
    linear constraints; ``write`` gives OPB text with the puzzle's header."""

    n_vars: int
    constraints: list[Constraint]
    n_cells: int
    n_values: int
    header: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    """Read from a file: the line of each constraint."""
    source: str | None = None

    @property
    def n_candidates(self) -> int:
        return self.n_cells * self.n_values

    def write(self) -> str:
        out = [f"* #variable= {self.n_vars} #constraint= {len(self.constraints)}"]
        out += ["* " + line for line in self.header]
        for terms, relation, bound in self.constraints:
            out.append(" ".join(f"{c:+d} x{v}" for c, v in terms) + f" {relation} {bound} ;")
        return "\n".join(out) + "\n"

    def decode(self, true_vars) -> tuple[int, ...]:
        """A value per cell from the variables set true (0 where no candidate is)."""
        values = [0] * self.n_cells
        for var in true_vars:
            if 1 <= var <= self.n_candidates:
                cell, v = candidate_cell_value(var - 1, self.n_values)
                values[cell] = v
        return tuple(values)


def encode_pb(rules: Rules) -> PseudoBoolean:
    """The pseudo-Boolean problem of ``rules``.

    Variables ``x1..xK`` are the candidates, numbered as in the DIMACS export (``x(k+1)`` is
    candidate ``k``: cell ``k div N``, value ``k mod N + 1``), so the cell values are linear
    terms: value of cell ``c`` = ``sum v * x(c,v)``.  Constraints (only ``>=`` and ``=``, as the
    format has; an at-most is a negated at-least):

    - every candidate group (:func:`~.cpsat.candidate_groups`: a cell's one value, an
      ``AllDifferent``'s value once or at most once, an N-Queens diagonal): ``= 1`` or ``>= -1``
      over negated coefficients;
    - a given: ``+1 x >= 1``;
    - ``Less``: the linear ``value(larger) - value(smaller) >= 1``;
    - ``Cage``: a ``+`` cage is the linear ``sum of values = target``; a product, difference or
      quotient cage gets a selector per admissible filling (a tuple, one value per cell), exactly
      one selector true, each implying its candidates;
    - ``Visibility``: the prefix-height Booleans and "seen" Booleans of
      :func:`~.cpsat.visibility_terms`, each defined both ways, their count equal to the clue."""
    n = rules.n_values
    cons: list[Constraint] = []
    top = [rules.n_cells * n]

    def new_var() -> int:
        top[0] += 1
        return top[0]

    def x(cell: int, v: int) -> int:
        return candidate(cell, v, n) + 1

    def value(cell: int, sign: int = 1) -> list[Term]:
        return [(sign * v, x(cell, v)) for v in range(1, n + 1)]

    def at_most_one(vs: list[int]) -> Constraint:
        return ([(-1, v) for v in vs], ">=", -1)

    def implies(a: int, b: int) -> Constraint:      # a -> b
        return ([(1, b), (-1, a)], ">=", 0)

    def equals_or(p: int, parts: list[int]) -> list[Constraint]:      # p <-> OR(parts)
        return [([(1, q) for q in parts] + [(-1, p)], ">=", 0)] + [implies(q, p) for q in parts]

    for c, g in enumerate(rules.givens):
        if g:
            cons.append(([(1, x(c, g))], ">=", 1))
    for group in candidate_groups(rules):
        vs = [k + 1 for k in group.candidates]
        cons.append(([(1, v) for v in vs], "=", 1) if group.exactly else at_most_one(vs))
    for con in rules.of_type(Less):
        cons.append((value(con.larger) + value(con.smaller, -1), ">=", 1))
    for con in rules.of_type(Cage):
        if con.op == "+" and len(con.cells) > 1:
            cons.append(([t for c in con.cells for t in value(c)], "=", con.target))
            continue
        chosen = []
        for filling in con.fillings(n):
            f = new_var()
            chosen.append(f)
            cons += [implies(f, x(c, v)) for c, v in zip(con.cells, filling)]
        cons.append(([(1, f) for f in chosen], "=", 1) if chosen else _false(x(con.cells[0], 1)))
    for con in rules.of_type(Visibility):
        terms = visibility_terms(con, n)
        prefix: dict[tuple[int, int], int] = {}
        for (i, v), cands in terms.prefix.items():
            p = new_var()
            cons += equals_or(p, [k + 1 for k in cands] + ([prefix[(i - 1, v)]] if i else []))
            prefix[(i, v)] = p
        seen = []
        for i, v in terms.seen:
            s, here, before = new_var(), x(con.cells[i], v), prefix[(i - 1, v)]
            # s <-> here and not before
            cons += [implies(s, here), ([(-1, s), (-1, before)], ">=", -1),
                     ([(1, s), (-1, here), (1, before)], ">=", 0)]
            seen.append(s)
        if seen:
            cons.append(([(1, s) for s in seen], "=", terms.target))
        elif terms.target:
            cons.append(_false(x(con.cells[0], 1)))
    return PseudoBoolean(top[0], cons, rules.n_cells, n)


def _false(var: int) -> Constraint:
    """A constraint no assignment meets (the format has no empty constraint)."""
    return ([(1, var)], ">=", 2)


def export_opb(puzzle) -> PseudoBoolean:
    """``export --to opb``: the pseudo-Boolean problem in the PB competition's OPB format."""
    check_vocabulary(puzzle, TARGET, KNOWN)
    pb = encode_pb(puzzle.rules)
    pb.header = header_lines(puzzle, TARGET)
    return pb


# -- reading ----------------------------------------------------------------------------------

_VARIABLE = re.compile(r"x([0-9]{1,10})")
_COUNTS = re.compile(r"\*\s*#variable=\s*([0-9]{1,10})\s+#constraint=\s*([0-9]{1,10})")
MAX_COEFFICIENT = 2**62   # far beyond any puzzle's; a PB solver's own integers are 64-bit or more


def read_opb(text: str, source: str | None = None) -> PseudoBoolean:
    """Linear OPB (``coefficient variable`` terms, ``>=`` or ``=``, a bound, ``;``), each
    mistake a :class:`ParseError` at its line and column; the ``* #variable=`` line is
    checked against the variables the constraints name, never allocated from: ``n_vars`` is
    the highest variable a constraint names."""
    declared = None
    cons: list[Constraint] = []
    lines: list[int] = []
    highest = 0
    for number, raw in file_lines(text):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("*"):
            found = _COUNTS.match(line)
            if found and declared is None:
                declared = (int(found.group(1)), int(found.group(2)), number)
            continue
        parts = words(raw)
        terms: list[Term] = []
        k = 0
        while k < len(parts) and parts[k][1] not in (">=", "=", "<=", ";"):
            column, word = parts[k]
            coefficient = integer(word)
            if coefficient is None or abs(coefficient) > MAX_COEFFICIENT or k + 1 >= len(parts):
                raise ParseError(f"expected a term 'COEFFICIENT xN', got {word!r}", Place(source, number, column))
            column, name = parts[k + 1]
            var = _VARIABLE.fullmatch(name)
            if var is None or int(var.group(1)) == 0:
                raise ParseError(f"{name!r} is not a variable (x1, x2, …)", Place(source, number, column))
            terms.append((coefficient, int(var.group(1))))
            highest = max(highest, int(var.group(1)))
            k += 2
        rest = parts[k:]
        if len(rest) != 3 or rest[0][1] not in (">=", "=") or integer(rest[1][1]) is None or rest[2][1] != ";":
            column = rest[0][0] if rest else len(raw) + 1
            raise ParseError("expected '>= BOUND ;' or '= BOUND ;' after the terms (the format has no '<=')",
                             Place(source, number, column))
        cons.append((terms, rest[0][1], integer(rest[1][1])))
        lines.append(number)
    if declared is not None:
        n_vars, n_cons, line = declared
        if highest > n_vars:
            raise ParseError(f"a constraint names x{highest}; the header declares {n_vars} variables",
                             Place(source, line, 1))
        if n_cons != len(cons):
            raise ParseError(f"the header declares {n_cons} constraints, the file has {len(cons)}",
                             Place(source, line, 1))
    try:
        puzzle = read_header(text, TARGET, "*", source)
        shape = (puzzle.n_cells, puzzle.n_values)
    except ParseError:
        shape = (0, 0)        # any OPB file: no candidates to decode
    # the variables the constraints name, never the header's claim (a variable no constraint
    # names is free: a PB solver's count over the candidates does not see it)
    n_vars = highest
    return PseudoBoolean(n_vars, cons, *shape, lines=lines, source=source)


def puzzle_of(text: str, source: str | None = None):
    return read_header(text, TARGET, "*", source)


def read_answer(text: str, source: str | None = None, n_vars: int | None = None) -> tuple[str, list[int]]:
    """A PB solver's output (``s SATISFIABLE`` / ``OPTIMUM FOUND`` / ``UNSATISFIABLE`` /
    ``UNKNOWN``, ``v`` lines of ``xN`` and ``-xN``): the status and the variables set true.
    A variable given both values, past ``n_vars`` (the file's count, when known) or a model
    beside UNSATISFIABLE is an error at its place (each was "breaks constraint 1", or "unsat")."""
    status, status_line = None, 1
    model = ModelLiterals(source, "x{}")
    for number, raw in file_lines(text):
        line = raw.strip()
        if line.startswith("s "):
            word = line[2:].strip()
            status, status_line = ("SATISFIABLE" if word == "OPTIMUM FOUND" else word), number
            if status not in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"):
                raise ParseError(f"unknown status {word!r}", Place(source, number, 1))
        elif line.startswith("v "):
            for column, word in words(raw)[1:]:
                var = _VARIABLE.fullmatch(word.lstrip("-~"))
                if var is None:
                    raise ParseError(f"{word!r} is not a literal (xN or -xN)", Place(source, number, column))
                k = int(var.group(1))
                if n_vars is not None and k > n_vars:
                    raise ParseError(f"the answer names x{k}; the OPB file declares {n_vars} variables",
                                     Place(source, number, column))
                model.add(-k if word.startswith(("-", "~")) else k, number, column)
    if status is None:
        raise ParseError("no status line ('s SATISFIABLE', 's UNSATISFIABLE', ...)", Place(source, 1))
    model.check_status(status, status_line)
    return status, [lit for lit in model.literals if lit > 0]


def check_answer(pb: PseudoBoolean, true_vars, source: str | None = None) -> None:
    """Every constraint holds under the answer (a variable it does not set true is false)."""
    true = set(true_vars)
    for k, (terms, relation, bound) in enumerate(pb.constraints, start=1):
        total = sum(c for c, v in terms if v in true)
        if total < bound or (relation == "=" and total != bound):
            where = f"line {pb.lines[k - 1]} of {pb.source or 'the OPB file'}" if pb.lines else "the OPB file"
            raise ParseError(f"the answer breaks constraint {k} ({where})", Place(source))


def decode_answer(text: str, source: str, answer_text: str, answer_source: str):
    """``decode --opb``: (the file's puzzle, the solver's status, the solution or ``None``)."""
    puzzle = puzzle_of(text, source)
    pb = read_opb(text, source)
    status, true = read_answer(answer_text, answer_source, pb.n_vars)
    if status != "SATISFIABLE":
        return puzzle, status, None
    check_answer(pb, true, answer_source)
    return puzzle, status, pb.decode(true)
