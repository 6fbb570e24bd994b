"""Rules in the shared vocabulary as a MiniZinc model (one ``.mzn`` file: the model and the
instance's data), and MiniZinc's output read back.

One integer variable per cell, ``array[0..K-1] of var 1..N: c``:

- the givens: ``c[k] = g``;
- ``AllDifferent``: ``all_different_int`` (MiniZinc's ``alldifferent`` on integers: see
  :data:`INCLUDES`), with domain consistency;
- ``Less``: ``c[a] < c[b]``;
- ``Cage``: ``sum`` for a ``+`` cage, otherwise ``table_int`` over its admissible fillings
  (:meth:`~puzzlebench.models.vocabulary.Cage.fillings`);
- ``Visibility``: the count of cells taller than the maximum before them;
- N-Queens diagonals (a complete family of ``AtMostOne``: :func:`~.cpsat.diagonal_families`):
  ``all_different_int`` over ``c[k] + k`` and ``c[k] - k``, the classic model; any other group of
  candidates: a count of ``c[k] = v`` terms.

No auxiliary variable: ``minizinc --all-solutions`` counts the puzzle's solutions.  The output
item prints ``c = [v1, v2, …];`` per solution, between MiniZinc's ``----------`` separators
(``==========`` when the search was complete), which :func:`read_answer` reads.

Reference: N. Nethercote, P. J. Stuckey, R. Becket, S. Brand, G. J. Duck, G. Tack,
"MiniZinc: Towards a Standard CP Modelling Language", CP 2007.
"""

from __future__ import annotations

import re

from ..errors import ParseError, Place
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules,
                                 Visibility)
from .cpsat import diagonal_families
from .dimacs import file_lines
from .interop import (ModelText, check_vocabulary, counted_groups, header_lines, read_header,
                      statements)

TARGET = "minizinc"
KNOWN = (ExactlyOne, AtMostOne, AllDifferent, Less, Cage, Visibility)
# all_different_int and table_int (the integer forms of MiniZinc's alldifferent and table),
# each included alone: Debian's Gecode 6.2.0 library predates MiniZinc 2.5's fzn_ names, so that
# "globals.mzn" fails on inverse_fn and the generic alldifferent reaches Gecode decomposed into
# pairwise disequalities (a 16x16 Sudoku: over a minute, against 0.2 s); with the _int names the
# solver's own library is found first (Gecode's native propagator) and any other solver's
# standard library maps them to its own.  ":: domain" asks for domain consistency, the
# propagation strength every Sudoku solver relies on.
INCLUDES = 'include "all_different_int.mzn";\ninclude "table_int.mzn";'
OUTPUT_LINE = re.compile(r"^c = \[([0-9,\s]*)\];$")


def _list(cells) -> str:
    return "[" + ", ".join(f"c[{c}]" for c in cells) + "]"


def constraint_lines(rules: Rules) -> list[str]:
    n = rules.n_values
    out = [f"constraint c[{c}] = {g};" for c, g in enumerate(rules.givens) if g]
    families, leftover = diagonal_families(rules)
    replaced = frozenset(con.name for con in rules.of_type(AtMostOne)) - {con.name for con in leftover}
    for fam in families:
        op = "+" if fam.sign > 0 else "-"
        out.append("constraint all_different_int([" + ", ".join(f"c[{c}] {op} {c}" for c in fam.cells) + "]) :: domain;")
    for exactly, pairs in counted_groups(rules, replaced):
        count = " + ".join(f"bool2int(c[{c}] = {v})" for c, v in pairs)
        out.append(f"constraint {count} {'=' if exactly else '<='} 1;")
    return out + statements(rules, {
        AllDifferent: lambda con: f"constraint all_different_int({_list(con.cells)}) :: domain;" if len(con.cells) > 1 else None,
        Less: lambda con: f"constraint c[{con.smaller}] < c[{con.larger}];",
        Cage: lambda con: _cage(con, n),
        Visibility: _visibility,
    })


def _cage(cage: Cage, n: int) -> str:
    if cage.op == "+" or len(cage.cells) == 1:
        return f"constraint sum({_list(cage.cells)}) = {cage.target};"
    rows = " | ".join(", ".join(map(str, f)) for f in cage.fillings(n))
    return f"constraint table_int({_list(cage.cells)}, [| {rows} |]);"


def _visibility(con: Visibility) -> str:
    line = [f"c[{c}]" for c in con.cells]
    if len(line) == 1:
        return f"constraint {'true' if con.clue == 1 else 'false'};"
    seen = [f"bool2int({line[i]} > max([{', '.join(line[:i])}]))" for i in range(1, len(line))]
    return f"constraint 1 + {' + '.join(seen)} = {con.clue};"


def export_minizinc(puzzle) -> ModelText:
    """``export --to minizinc``: one ``.mzn`` file, the model with the instance's data."""
    check_vocabulary(puzzle, TARGET, KNOWN)
    rules = puzzle.rules
    head = "\n".join("% " + line for line in header_lines(puzzle, TARGET))
    body = "\n".join(constraint_lines(rules))
    text = (f"{head}\n"
            f"{INCLUDES}\n"
            f"array[0..{rules.n_cells - 1}] of var 1..{rules.n_values}: c;\n"
            f"{body}\n"
            f"solve satisfy;\n"
            f'output ["c = \\(c);\\n"];\n')
    return ModelText(text, rules.n_cells, rules.n_values)


# -- reading back -----------------------------------------------------------------------------

def puzzle_of(text: str, source: str | None = None):
    return read_header(text, TARGET, "%", source)


SEPARATOR = "----------"
COMPLETE = "=========="
UNSAT = "=====UNSATISFIABLE====="
UNKNOWN = ("=====UNKNOWN=====", "=====ERROR=====")


def read_answer(text: str, n_cells: int, source: str | None = None) -> tuple[str, list[tuple[int, ...]], bool]:
    """MiniZinc's output: the status, every solution printed (a value per cell), and whether
    the search was complete (``==========``: every solution was printed, when enumerating)."""
    solutions: list[tuple[int, ...]] = []
    complete = unsat = unknown = False
    for number, raw in file_lines(text):
        line = raw.strip()
        if not line or line == SEPARATOR or line.startswith("%"):
            continue
        if line == COMPLETE:
            complete = True
        elif line == UNSAT:
            unsat = complete = True
        elif line in UNKNOWN:
            unknown = True
        else:
            found = OUTPUT_LINE.match(line)
            if found is None:
                raise ParseError(f"not a line of puzzlebench's MiniZinc output: {line[:60]!r}",
                                 Place(source, number, 1))
            values = [int(w) for w in found.group(1).replace(",", " ").split()]
            if len(values) != n_cells:
                raise ParseError(f"{len(values)} values for the {n_cells} cells", Place(source, number, 1))
            solutions.append(tuple(values))
    if solutions:
        return "SATISFIABLE", solutions, complete
    if unsat:
        return "UNSATISFIABLE", [], True
    if unknown or not text.strip():
        return "UNKNOWN", [], False
    raise ParseError("no solution and no status in MiniZinc's output", Place(source, 1))
