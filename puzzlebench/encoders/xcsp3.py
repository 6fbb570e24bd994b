"""Rules in the shared vocabulary as an XCSP3-core instance (XML), and a solver's answer to one
read back (Boussemart, Lecoutre, Audemard, Piette, "XCSP3-core: A Format for Representing
Constraint Satisfaction/Optimization Problems", arXiv:2009.00514, 2020).

One integer variable per cell, the array ``c``, and each rule as the XCSP3-core constraint
that states it (:func:`constraint_lines`).  No auxiliary variable: every solution of the
instance is a solution of the puzzle and the other way round, so a solver's enumeration
counts the puzzle's solutions.  The header (:mod:`.interop`) is an XML comment; the
competition's answer (``s`` and ``v`` lines holding an ``<instantiation>``) is read by
:func:`read_answer`.
"""

from __future__ import annotations

import re

from ..errors import ParseError, Place
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules,
                                 Visibility)
from .dimacs import file_lines
from .interop import (ModelText, check_vocabulary, counted_groups, header_lines, read_header,
                      statements)

TARGET = "xcsp3"
KNOWN = (ExactlyOne, AtMostOne, AllDifferent, Less, Cage, Visibility)


def _var(cell: int) -> str:
    return f"c[{cell}]"


def _sum(terms: list[str]) -> str:
    return terms[0] if len(terms) == 1 else f"add({','.join(terms)})"


def constraint_lines(rules: Rules) -> list[str]:
    """The ``<constraints>`` body, one constraint a line.

    One integer variable per cell, the array ``c`` (``c[k]`` is cell ``k``, values ``1..N``):

    - the givens: one ``instantiation``;
    - ``AllDifferent``: ``allDifferent``;
    - ``Less``: ``intension`` ``lt(c[a],c[b])``;
    - ``Cage``: ``sum`` (a ``+`` cage: the sum of the values, whether or not they differ),
      otherwise ``extension``, its admissible fillings as supports (products, differences,
      quotients: :meth:`~puzzlebench.models.vocabulary.Cage.fillings`);
    - ``Visibility``: ``intension`` counting the cells taller than every cell before them
      (``gt(c[i],max(c[0],…,c[i-1]))``, a Boolean counted as 0/1 as XCSP3 allows);
    - ``ExactlyOne``/``AtMostOne`` over candidates (N-Queens rows and diagonals): ``intension``
      over ``eq(c[k],v)`` terms; the one-value-per-cell groups are the domains themselves."""
    n = rules.n_values
    out = []
    given = [(c, g) for c, g in enumerate(rules.givens) if g]
    if given:
        out.append(f"<instantiation> <list> {' '.join(_var(c) for c, _ in given)} </list> "
                   f"<values> {' '.join(str(g) for _, g in given)} </values> </instantiation>")
    for exactly, pairs in counted_groups(rules):
        terms = [f"eq({_var(c)},{v})" for c, v in pairs]
        out.append(f"<intension> {'eq' if exactly else 'le'}({_sum(terms)},1) </intension>")
    return out + statements(rules, {
        AllDifferent: lambda con: (f"<allDifferent> {' '.join(_var(c) for c in con.cells)} </allDifferent>"
                                   if len(con.cells) > 1 else None),
        Less: lambda con: f"<intension> lt({_var(con.smaller)},{_var(con.larger)}) </intension>",
        Cage: lambda con: _cage(con, n),
        Visibility: _visibility,
    })


def _cage(cage: Cage, n: int) -> str:
    cells = " ".join(_var(c) for c in cage.cells)
    if cage.op == "+" and len(cage.cells) > 1:
        return f"<sum> <list> {cells} </list> <condition> (eq,{cage.target}) </condition> </sum>"
    fillings = cage.fillings(n)
    if len(cage.cells) == 1:
        return f"<extension> <list> {cells} </list> <supports> {' '.join(str(f[0]) for f in fillings)} </supports> </extension>"
    tuples = "".join(f"({','.join(map(str, f))})" for f in fillings)
    return f"<extension> <list> {cells} </list> <supports> {tuples} </supports> </extension>"


def _visibility(con: Visibility) -> str:
    line = [_var(c) for c in con.cells]
    if len(line) == 1:
        # one cell is always seen: the line holds when the clue is 1, never otherwise
        return f"<intension> {'eq' if con.clue == 1 else 'ne'}({line[0]},{line[0]}) </intension>"
    seen = [f"gt({line[i]},{line[0] if i == 1 else 'max(' + ','.join(line[:i]) + ')'})"
            for i in range(1, len(line))]
    return f"<intension> eq({_sum(seen)},{con.clue - 1}) </intension>"


def export_xcsp3(puzzle) -> ModelText:
    """``export --to xcsp3``: an XCSP3-core instance, an integer variable per cell."""
    check_vocabulary(puzzle, TARGET, KNOWN)
    rules = puzzle.rules
    head = "\n".join(header_lines(puzzle, TARGET))
    body = "\n    ".join(constraint_lines(rules))
    text = (f'<instance format="XCSP3" type="CSP">\n'
            f"<!--\n{head}\n-->\n"
            f"  <variables>\n"
            f'    <array id="c" size="[{rules.n_cells}]"> 1..{rules.n_values} </array>\n'
            f"  </variables>\n"
            f"  <constraints>\n    {body}\n  </constraints>\n"
            f"</instance>\n")
    return ModelText(text, rules.n_cells, rules.n_values)


# -- reading back -----------------------------------------------------------------------------

def puzzle_of(text: str, source: str | None = None):
    """The puzzle an exported XCSP3 file describes (its header comment)."""
    return read_header(text, TARGET, "", source)


_STATUS = re.compile(r"^s\s+(\S+)")
_LIST = re.compile(r"<list>(.*?)</list>", re.S)
_VALUES = re.compile(r"<values>(.*?)</values>", re.S)
_ARRAY_ALL = re.compile(r"c\[\]")
_ONE = re.compile(r"c\[([0-9]{1,9})\]")
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")   # ACE colours its output even into a file (without -npc)
_VALUE = re.compile(r"[0-9]{1,9}")


def read_answer(text: str, n_cells: int, source: str | None = None) -> tuple[str, list[tuple[int, ...]]]:
    """A solver's output in the XCSP3 competition's form: the status (``SATISFIABLE``,
    ``UNSATISFIABLE``, ``UNKNOWN``; ``OPTIMUM FOUND`` counts as satisfiable) and every
    solution its ``v`` lines hold, a value per cell (the ``<list>`` names ``c[]``, the whole
    array, or its cells one by one).  ANSI colour codes are dropped first."""
    text = _COLOUR.sub("", text)
    status, status_line = None, 1
    v_text: list[str] = []
    v_lines: list[int] = []
    for number, raw in file_lines(text):
        line = raw.strip()
        found = _STATUS.match(line)
        if found:
            word = line[1:].strip()
            status = "SATISFIABLE" if word in ("SATISFIABLE", "OPTIMUM FOUND") else word
            status_line = number
        elif line.startswith("v "):
            v_text.append(line[2:])
            v_lines.append(number)
    if status is None:
        raise ParseError("no status line ('s SATISFIABLE', 's UNSATISFIABLE', ...)", Place(source, 1))
    joined = "\n".join(v_text)
    solutions = []
    for lst, vals in zip(_LIST.finditer(joined), _VALUES.finditer(joined)):
        names = lst.group(1).split()
        values = vals.group(1).split()
        solutions.append(_solution(names, values, n_cells, source, v_lines[0] if v_lines else 1))
    if status == "UNSATISFIABLE" and solutions:   # decode said "unsat", exit 0, the values unread
        raise ParseError(f"the answer says UNSATISFIABLE (line {status_line}) and gives an instantiation",
                         Place(source, v_lines[0], 1))
    if status == "SATISFIABLE" and not solutions:
        # placed at the status line that says so, not at line 1
        raise ParseError("the solver says SATISFIABLE but its 'v' lines hold no instantiation",
                         Place(source, status_line, 1))
    return status, solutions


def _solution(names: list[str], values: list[str], n_cells: int, source, line: int) -> tuple[int, ...]:
    expanded: list[int] = []
    for name in names:
        if _ARRAY_ALL.fullmatch(name):
            expanded.extend(range(n_cells))
            continue
        one = _ONE.fullmatch(name)
        if one is None or int(one.group(1)) >= n_cells:
            raise ParseError(f"the answer names {name!r}, not a cell of the instance", Place(source, line))
        expanded.append(int(one.group(1)))
    # XCSP3 lets a solver compress repeated values as v x k
    flat: list[str] = []
    for place, word in enumerate(values, start=1):
        value, times, count = word.partition("x")
        if not _VALUE.fullmatch(value) or (times and not (count.isdigit() and len(count) < 10)):
            raise ParseError(f"value {place} of the answer, {word[:30]!r}, is not a value "
                             f"(a number up to 9 digits, or VALUExCOUNT)", Place(source, line))
        repeat = int(count) if times else 1
        if len(flat) + repeat > len(expanded):     # checked before a repeat count is allocated
            raise ParseError(f"the answer lists more values than its {len(expanded)} variables",
                             Place(source, line))
        flat.extend([value] * repeat)
    if len(flat) != len(expanded):
        raise ParseError(f"the answer lists {len(flat)} values for {len(expanded)} variables",
                         Place(source, line))
    out = [0] * n_cells
    for cell, word in zip(expanded, flat):
        out[cell] = int(word)
    return tuple(out)


def decode_answer(text: str, source: str, answer_text: str, answer_source: str):
    """``decode --xcsp3``: (the file's puzzle, the solver's status, its first solution or ``None``)."""
    puzzle = puzzle_of(text, source)
    status, solutions = read_answer(answer_text, puzzle.n_cells, answer_source)
    return puzzle, status, solutions[0] if solutions else None
