"""DIMACS CNF in and out, and solver answers in SAT-competition form.

The writer puts in ``c`` comment lines everything decoding needs: the puzzle kind, its shape
and givens (and clues), the encoding, and the map from variables to candidates::

    c puzzlebench cnf
    c kind: sudoku
    c box: 3x3
    ...
    c map: variable v in 1..729 is cell (v-1) div 9 (0-based, row-major), value (v-1) mod 9 + 1; above 729: auxiliary
    p cnf 729 12013

The reader checks the ``p`` line against what follows and names the line of every problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, TextIO

from ..errors import ParseError, Place
from ..models.kinds import KINDS, kind_class
from .cnf import Cnf

MAGIC = "puzzlebench cnf"
HEADER_ORDER = ("kind", "shape", "box", "cells", "values", "encoding", "amo",
                "top", "bottom", "left", "right", "givens", "map")


def header_lines(cnf: Cnf) -> list[str]:
    n, limit = cnf.n_values, cnf.n_candidates
    fields = dict(cnf.header_fields())
    fields["encoding"] = cnf.encoding
    fields["amo"] = cnf.amo
    fields["map"] = (f"variable v in 1..{limit} is cell (v-1) div {n} (0-based, row-major), "
                     f"value (v-1) mod {n} + 1; above {limit}: auxiliary")
    lines = [f"c {MAGIC}"]
    lines += [f"c {k}: {fields[k]}" for k in HEADER_ORDER if k in fields]
    return lines


def write_dimacs(cnf: Cnf, out: TextIO) -> None:
    """Write ``cnf`` (its clauses and a unit clause per given) in DIMACS form."""
    for line in header_lines(cnf):
        out.write(line + "\n")
    out.write(f"p cnf {cnf.n_vars} {cnf.n_clauses}\n")
    out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in cnf.clauses)
    out.writelines(f"{u} 0\n" for u in cnf.units)


def dimacs_text(cnf: Cnf) -> str:
    import io

    buf = io.StringIO()
    write_dimacs(cnf, buf)
    return buf.getvalue()


@dataclass
class Dimacs:
    """A DIMACS file as read: clauses, the line each clause ends on, and the header fields."""

    n_vars: int
    clauses: list[list[int]]
    lines: list[int]
    header: dict[str, str] = field(default_factory=dict)
    source: str | None = None


MAX_LITERAL = 2**31 - 1   # a 32-bit signed integer in every SAT solver


def read_dimacs(text: str, source: str | None = None) -> Dimacs:
    """Read DIMACS CNF; every mistake is a :class:`ParseError` naming its line."""
    header: dict[str, str] = {}
    declared = None
    p_line = 0
    clauses: list[list[int]] = []
    lines: list[int] = []
    current: list[int] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("c"):
            body = line[1:].strip()
            key, colon, value = body.partition(":")
            if colon and " " not in key.strip():
                header[key.strip()] = value.strip()
            continue
        if line.startswith("%"):  # the SATLIB files' end marker
            break
        if line.startswith("p"):
            parts = line.split()
            if declared is not None:
                raise ParseError("a second 'p' line", Place(source, number, 1))
            if len(parts) != 4 or parts[1] != "cnf" or not parts[2].isdigit() or not parts[3].isdigit():
                raise ParseError(f"expected 'p cnf VARIABLES CLAUSES', got {line!r}", Place(source, number, 1))
            declared = (int(parts[2]), int(parts[3]))
            if declared[0] > MAX_LITERAL:
                raise ParseError(f"the 'p' line declares {declared[0]} variables; a DIMACS literal is at "
                                 f"most {MAX_LITERAL}", Place(source, number, raw.find(parts[2]) + 1))
            p_line = number
            continue
        if declared is None:
            raise ParseError("a clause before the 'p cnf' line", Place(source, number, 1))
        column = 1
        for token in line.split():
            try:
                lit = int(token)
            except ValueError:
                raise ParseError(f"{token!r} is not a literal (an integer)",
                                 Place(source, number, raw.find(token) + 1)) from None
            if lit == 0:
                clauses.append(current)
                lines.append(number)
                current = []
                continue
            if abs(lit) > declared[0]:
                raise ParseError(f"literal {lit} is beyond the {declared[0]} variables the 'p' "
                                 f"line declares", Place(source, number, raw.find(token) + 1))
            if not current:
                start = number
            current.append(lit)
            column += 1
    if declared is None:
        raise ParseError("no 'p cnf VARIABLES CLAUSES' line", Place(source, 1))
    if current:
        raise ParseError("the last clause has no terminating 0", Place(source, start))
    if len(clauses) != declared[1]:
        raise ParseError(f"the 'p' line declares {declared[1]} clauses, the file has {len(clauses)}",
                         Place(source, p_line, 1))
    return Dimacs(declared[0], clauses, lines, header, source)


@dataclass
class Answer:
    """A solver's answer: ``status`` SATISFIABLE / UNSATISFIABLE / UNKNOWN, and the model's
    true and false variables."""

    status: str
    literals: list[int]
    source: str | None = None

    @property
    def true_literals(self) -> list[int]:
        return [lit for lit in self.literals if lit > 0]


def read_answer(text: str, source: str | None = None) -> Answer:
    """Read a solver's output: SAT-competition form (``s SATISFIABLE``, ``v`` lines) or
    MiniSat's result file (``SAT`` then the literals)."""
    status = None
    literals: list[int] = []
    places: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("s "):
            status = line[2:].strip()
            continue
        if line in ("SAT", "UNSAT", "INDET"):
            status = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "INDET": "UNKNOWN"}[line]
            continue
        body = line[2:] if line.startswith("v ") or line == "v" else line
        for token in body.split():
            try:
                lit = int(token)
            except ValueError:
                raise ParseError(f"{token!r} is not a literal in the solver's answer",
                                 Place(source, number, raw.find(token) + 1)) from None
            if lit:
                literals.append(lit)
                places.setdefault(abs(lit), number)
    if status is None:
        raise ParseError("no status line ('s SATISFIABLE', 's UNSATISFIABLE' or MiniSat's 'SAT')",
                         Place(source, 1))
    if status not in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"):
        raise ParseError(f"unknown status {status!r}", Place(source, 1))
    answer = Answer(status, literals, source)
    answer.places = places  # type: ignore[attr-defined]
    return answer


def check_answer(cnf: Dimacs, answer: Answer) -> None:
    """The answer names only declared variables and satisfies every clause (a variable it
    leaves out satisfies nothing)."""
    places = getattr(answer, "places", {})
    for lit in answer.literals:
        if abs(lit) > cnf.n_vars:
            raise ParseError(f"the answer names variable {abs(lit)}; the formula has {cnf.n_vars}",
                             Place(answer.source, places.get(abs(lit))))
    true = set(answer.literals)
    for clause, line in zip(cnf.clauses, cnf.lines):
        if not any(lit in true for lit in clause):
            raise ParseError(f"the answer does not satisfy the clause {' '.join(map(str, clause))} 0 "
                             f"(line {line} of {cnf.source or 'the CNF'})", Place(answer.source))


def answer_text(status: str, literals: Iterable[int] = ()) -> str:
    """SAT-competition output: ``s`` line and ``v`` lines ending with ``0``."""
    out = [f"s {status}"]
    if status == "SATISFIABLE":
        row: list[str] = []
        for lit in list(literals) + [0]:
            row.append(str(lit))
            if len(row) == 20:
                out.append("v " + " ".join(row))
                row = []
        if row:
            out.append("v " + " ".join(row))
    return "\n".join(out) + "\n"


def puzzle_from_header(header: dict[str, str], source: str | None = None):
    """Rebuild the puzzle a puzzlebench DIMACS header describes."""
    where = Place(source, 1)
    try:
        kind = header["kind"]
        givens = [int(x) for x in header["givens"].split()]
    except (KeyError, ValueError):
        raise ParseError("the CNF has no puzzlebench header (c kind: …, c givens: …): it was not "
                         "written by 'puzzlebench export --to dimacs'", where) from None
    if kind not in KINDS:
        raise ParseError(f"unknown puzzle kind {kind!r} in the CNF header", where)
    return kind_class(kind).from_header(header, givens, source)


def cnf_for_decoding(dimacs: Dimacs):
    """The :class:`Cnf` (without clauses) that decodes a model of a puzzlebench DIMACS file."""
    from .cnf import givens_decisions

    puzzle = puzzle_from_header(dimacs.header, dimacs.source)
    encoding = dimacs.header.get("encoding", "extended")
    fixed = givens_decisions(puzzle.rules) if encoding == "optimized" else None
    cnf = Cnf(dimacs.n_vars, [], [], puzzle.n_cells, puzzle.n_values, puzzle.givens, encoding,
              dimacs.header.get("amo", "pairwise"), puzzle.kind, puzzle.shape, fixed=fixed)
    return puzzle, cnf
