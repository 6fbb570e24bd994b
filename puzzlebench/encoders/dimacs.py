"""DIMACS CNF read back, and solver answers in SAT-competition form.

The writer (:meth:`puzzlebench.encoders.cnf.Cnf.write`, beside the formula it writes) puts in
``c`` comment lines everything decoding needs: the puzzle kind, its shape and givens (and
clues), the encoding, and the map from variables to candidates::

    c puzzlebench cnf
    c kind: sudoku
    ...
    c map: variable v in 1..729 is cell (v-1) div 9 (0-based, row-major), value (v-1) mod 9 + 1; above 729: auxiliary
    p cnf 729 12013

so that a file left behind decodes on its own.  The reader checks the ``p`` line against what follows and names the line of every problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from ..errors import ParseError, Place, PuzzleError, PuzzlebenchError, UsageError
from ..models.kinds import KINDS, kind_class
from .cnf import Cnf, givens_decisions


SAT_EXIT, UNSAT_EXIT, UNKNOWN_EXIT = 10, 20, 0
"""The SAT competition's exit codes, by the answer's ``s`` line: what a solver program exits
with (``ext:`` reads them) and what ``solve-cnf`` exits with (scripts that wrap a SAT solver
test them)."""
ANSWER_EXIT = {"SATISFIABLE": SAT_EXIT, "UNSATISFIABLE": UNSAT_EXIT, "UNKNOWN": UNKNOWN_EXIT}


@dataclass
class Dimacs:
    """A DIMACS file as read: clauses, the line each clause ends on, and the header fields."""

    n_vars: int
    clauses: list[list[int]]
    lines: list[int]
    header: dict[str, str] = field(default_factory=dict)
    source: str | None = None


MAX_LITERAL = 2**31 - 1   # a 32-bit signed integer in every SAT solver
_INTEGER = re.compile(r"[-+]?[0-9]+")   # ASCII only: Python's int() also takes '1_0' and '١'
_WORD = re.compile(r"\S+")


def write_clauses(path: str, clauses: list[list[int]], n_vars: int | None = None) -> None:
    """``clauses`` as a bare DIMACS file (no header comments) at ``path``; ``n_vars`` the
    largest variable named where not given."""
    if n_vars is None:
        n_vars = max((abs(lit) for clause in clauses for lit in clause), default=0)
    with open(path, "w") as out:
        out.write(f"p cnf {n_vars} {len(clauses)}\n")
        out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


def binary_drat_step(kind: str, literals: Iterable[int]) -> bytes:
    """One step of a binary DRAT proof (drat-trim's binary form): ``a`` (a lemma) or ``d`` (a
    deletion), each literal as 2 * variable + 1 if negative in 7-bit groups, low first, the high
    bit saying more follow, then 0."""
    out = bytearray(kind.encode())
    for lit in [*literals, 0]:
        code = 2 * abs(lit) + (lit < 0)
        while code > 127:
            out.append(128 | (code & 127))
            code >>= 7
        out.append(code)
    return bytes(out)


def file_lines(text: str):
    """``(number, line)`` for every line, split at ``\n`` only (as the places of the bytes
    reader count them; ``str.splitlines`` also splits at form feeds and U+2028), ``\r`` dropped."""
    for number, line in enumerate(text.split("\n"), start=1):
        yield number, line[:-1] if line.endswith("\r") else line


def words(line: str):
    """``(column, word)`` for every whitespace-separated word of a line (1-based columns)."""
    return [(m.start() + 1, m.group()) for m in _WORD.finditer(line)]


def integer(word: str) -> int | None:
    """The ASCII integer ``word`` spells, or None (a literal is at most 11 characters long: a
    longer word is no solver's literal, and Python's int() would refuse it beyond 4,300
    digits anyway)."""
    if len(word) > 20 or not _INTEGER.fullmatch(word):
        return None
    return int(word)


def read_dimacs(text: str, source: str | None = None) -> Dimacs:
    """Read DIMACS CNF; every mistake is a :class:`ParseError` naming its line and column.
    Memory grows with the clauses the file holds: the ``p`` line's counts are checked, never
    allocated (a variable count beyond a 32-bit literal is refused at once, a clause past the
    declared count where it starts, a clause count that the file does not reach at its end)."""
    header: dict[str, str] = {}
    declared = None
    p_line = 0
    clauses: list[list[int]] = []
    lines: list[int] = []
    current: list[int] = []
    start = start_column = 0
    for number, raw in file_lines(text):
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
            if declared is not None:
                raise ParseError("a second 'p' line", Place(source, number, 1))
            declared = _problem_line(raw, source, number)
            p_line = number
            continue
        if declared is None:
            raise ParseError("a clause before the 'p cnf' line", Place(source, number, 1))
        for column, token in words(raw):
            lit = integer(token)
            if lit is None:
                raise ParseError(f"{token!r} is not a literal (an integer)", Place(source, number, column))
            if lit == 0:
                if len(clauses) == declared[1]:   # told here, at the clause past the count, not at the 'p' line after the rest
                    where = Place(source, start, start_column) if current else Place(source, number, column)
                    raise ParseError(f"clause {len(clauses) + 1} is past the {declared[1]} the 'p' line "
                                     f"(line {p_line}) declares", where)
                clauses.append(current)
                lines.append(number)
                current = []
                continue
            if abs(lit) > declared[0]:
                raise ParseError(f"literal {lit} is beyond the {declared[0]} variables the 'p' "
                                 f"line declares", Place(source, number, column))
            if not current:
                start, start_column = number, column
            current.append(lit)
    if declared is None:
        raise ParseError("no 'p cnf VARIABLES CLAUSES' line", Place(source, 1))
    if current:
        raise ParseError("the last clause has no terminating 0", Place(source, start))
    if len(clauses) < declared[1]:
        raise ParseError(f"the 'p' line declares {declared[1]} clauses, the file has {len(clauses)}",
                         Place(source, p_line, 1))
    return Dimacs(declared[0], clauses, lines, header, source)


def _problem_line(raw: str, source: str | None, number: int) -> tuple[int, int]:
    """The ``p cnf VARIABLES CLAUSES`` line's two counts."""
    parts = words(raw)
    counts = [integer(word) for _, word in parts[2:]]
    if (len(parts) != 4 or parts[0][1] != "p" or parts[1][1] != "cnf"
            or any(c is None or c < 0 or not w.isdigit() for c, (_, w) in zip(counts, parts[2:]))):
        raise ParseError(f"expected 'p cnf VARIABLES CLAUSES', got {raw.strip()!r}", Place(source, number, 1))
    if counts[0] > MAX_LITERAL:
        raise ParseError(f"the 'p' line declares {counts[0]} variables; a DIMACS literal is at "
                         f"most {MAX_LITERAL}", Place(source, number, parts[2][0]))
    return counts[0], counts[1]


@dataclass
class Answer:
    """A solver's answer: ``status`` SATISFIABLE / UNSATISFIABLE / UNKNOWN, and the model's
    true and false variables; ``places`` the (line, column) where each variable is first named."""

    status: str
    literals: list[int]
    source: str | None = None
    places: dict[int, tuple[int, int]] = field(default_factory=dict)
    unclosed: tuple[int, int] | None = None
    """Where the closing ``0`` is missing (line, column just past the last literal) when no
    ``0`` follows the last literal (a truncated answer), else None."""

    @property
    def true_literals(self) -> list[int]:
        return [lit for lit in self.literals if lit > 0]


STATUS_WORDS = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "INDET": "UNKNOWN"}   # MiniSat's


class ModelLiterals:
    """A model's literals as an answer lists them, shared by the DIMACS and OPB answer
    readers: a variable given both values is an error at its second place, a repeated
    literal says nothing new, and where each variable was first named is kept."""

    def __init__(self, source: str | None, name: str = "variable {}") -> None:
        self.source, self.name = source, name
        self.literals: list[int] = []
        self.places: dict[int, tuple[int, int]] = {}
        self.sign: dict[int, bool] = {}

    def add(self, lit: int, number: int, column: int) -> None:
        var = abs(lit)
        if var in self.places:
            if self.sign[var] != (lit > 0):
                raise ParseError(f"{self.name.format(var)} is given both values (first at line "
                                 f"{self.places[var][0]})", Place(self.source, number, column))
            return
        self.places[var] = (number, column)
        self.sign[var] = lit > 0
        self.literals.append(lit)

    def check_status(self, status: str, status_line: int) -> None:
        """UNSATISFIABLE beside a model (decode said "unsat", exit 0, the model unread)."""
        if status == "UNSATISFIABLE" and self.literals:
            raise ParseError(f"the answer says UNSATISFIABLE (line {status_line}) and gives a model",
                             Place(self.source, *self.places[abs(self.literals[0])]))


def read_answer(text: str, source: str | None = None) -> Answer:
    """Read a solver's output: SAT-competition form (``s SATISFIABLE``, ``v`` lines) or
    MiniSat's result file (``SAT`` then the literals).  Every mistake names its line and
    column: a word that is no literal, a second status that contradicts the first, a
    variable given both values, a model beside UNSATISFIABLE."""
    status = None
    status_place = Place(source, 1)
    model = ModelLiterals(source)
    unclosed = None
    for number, raw in file_lines(text):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        said = line[2:].strip() if line.startswith("s ") else STATUS_WORDS.get(line)
        if said is not None:
            where = Place(source, number, raw.find(line[0]) + 1)
            if said not in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"):
                raise ParseError(f"unknown status {said!r}", where)
            if status is not None and said != status:
                raise ParseError(f"a second status, {said}, after {status} (line {status_place.line})", where)
            status, status_place = said, where
            continue
        body = words(raw)
        if body and body[0][1] == "v":
            body = body[1:]
        for column, token in body:
            lit = integer(token)
            if lit is None:
                raise ParseError(f"{token!r} is not a literal in the solver's answer",
                                 Place(source, number, column))
            unclosed = None if not lit else (number, column + len(token))
            if lit:
                model.add(lit, number, column)
    if status is None:
        raise ParseError("no status line ('s SATISFIABLE', 's UNSATISFIABLE' or MiniSat's 'SAT')",
                         Place(source, 1))
    model.check_status(status, status_place.line)
    return Answer(status, model.literals, source, model.places, unclosed)


def check_answer(cnf: Dimacs, answer: Answer) -> None:
    """The answer names only declared variables and satisfies every clause (a variable it
    leaves out satisfies nothing)."""
    for lit in answer.literals:
        if abs(lit) > cnf.n_vars:
            raise ParseError(f"the answer names variable {abs(lit)}; the formula has {cnf.n_vars}",
                             Place(answer.source, *answer.places.get(abs(lit), (None, None))))
    true = set(answer.literals)
    for clause, line in zip(cnf.clauses, cnf.lines):
        if not any(lit in true for lit in clause):
            if answer.unclosed is not None:   # a cut file: said only "does not satisfy the clause …"
                raise ParseError(f"the model stops without its closing 0 (a truncated answer?) and does not "
                                 f"satisfy the clause {' '.join(map(str, clause))} 0 (line {line} of "
                                 f"{cnf.source or 'the CNF'})", Place(answer.source, *answer.unclosed))
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


def puzzle_from_header(header: dict[str, str], source: str | None = None, line: int = 1):
    """Rebuild the puzzle a puzzlebench header describes (``line``: where the header starts,
    the place of a mistake the puzzle's own checks find without one, such as a cell in two
    cages)."""
    where = Place(source, line)
    try:
        kind = header["kind"]
        givens = [int(x) for x in header["givens"].split()]
    except (KeyError, ValueError):
        raise ParseError("the CNF has no puzzlebench header (c kind: …, c givens: …): it was not "
                         "written by 'puzzlebench export --to dimacs'", where) from None
    if kind not in KINDS:
        raise ParseError(f"unknown puzzle kind {kind!r} in the CNF header", where)
    try:
        return kind_class(kind).from_header(header, givens, source)
    except PuzzleError as exc:
        if exc.line is not None:
            raise
        raise ParseError(f"the header's puzzle is not valid: {exc.message}", where) from None


def cnf_for_decoding(dimacs: Dimacs):
    """The :class:`Cnf` (without clauses) that decodes a model of a puzzlebench DIMACS file."""
    puzzle = puzzle_from_header(dimacs.header, dimacs.source)
    encoding = dimacs.header.get("encoding", "extended")
    fixed = givens_decisions(puzzle.rules) if encoding == "optimized" else None
    cnf = Cnf(dimacs.n_vars, [], [], puzzle.n_cells, puzzle.n_values, puzzle.givens, encoding,
              dimacs.header.get("amo", "pairwise"), puzzle.kind, puzzle.shape, fixed=fixed)
    return puzzle, cnf


def decode_answer(text: str, source: str, answer_text: str, answer_source: str):
    """``decode --cnf``: (the puzzle the file's header describes, the solver's status, the
    solution its model gives when satisfiable, not yet checked against the rules)."""
    cnf = read_dimacs(text, source)
    answer = read_answer(answer_text, answer_source)
    puzzle, decoder = cnf_for_decoding(cnf)
    if answer.status != "SATISFIABLE":
        return puzzle, answer.status, None
    check_answer(cnf, answer)
    try:
        return puzzle, answer.status, decoder.decode(answer.true_literals)
    except PuzzlebenchError as exc:
        raise UsageError(f"{answer_source}: {exc}") from None
