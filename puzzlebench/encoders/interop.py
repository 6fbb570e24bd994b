"""What the competition-format writers share (:mod:`.xcsp3`, :mod:`.minizinc`, :mod:`.opb`):
the header that lets ``puzzlebench decode`` rebuild the puzzle from the exported file alone,
and the one refusal of a constraint a format's writer has no words for.

The header is the DIMACS writer's (:func:`~puzzlebench.encoders.cnf.header_fields`: kind,
shape, givens, a kind's own fields) as comment lines of the format, after a magic line::

    % puzzlebench minizinc
    % kind: sudoku ...

so that the three formats, and DIMACS, carry the same facts and rebuild the puzzle through
the same :func:`~puzzlebench.encoders.dimacs.puzzle_from_header`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from ..errors import ParseError, Place, UsageError
from ..models.vocabulary import AtMostOne, ExactlyOne, Rules, candidate_cell_value
from .cnf import header_fields
from .dimacs import file_lines, puzzle_from_header

MAGIC = "puzzlebench"


def header_lines(puzzle, target: str) -> list[str]:
    """The header's lines, without the format's comment marker: the magic line first."""
    return [f"{MAGIC} {target}"] + [f"{k}: {v}" for k, v in header_fields(puzzle).items()]


def read_header(text: str, target: str, marker: str, source: str | None = None):
    """The puzzle whose header (:func:`header_lines`, each line after ``marker``) ``text``
    holds; a :class:`ParseError` when it holds none."""
    fields: dict[str, str] = {}
    inside = False
    start = 1
    for number, raw in file_lines(text):
        line = raw.strip()
        if not line.startswith(marker):
            if inside:
                break
            continue
        body = line[len(marker):].strip()
        if not inside:
            inside = body == f"{MAGIC} {target}"
            start = number
            continue
        key, colon, value = body.partition(":")
        if not colon or " " in key.strip():
            break
        fields[key.strip()] = value.strip()
    if not inside:
        raise ParseError(f"no '{MAGIC} {target}' header: the file was not written by "
                         f"'puzzlebench export --to {target}'", Place(source, 1))
    return puzzle_from_header(fields, source, start)


def check_vocabulary(puzzle, target: str, known: Iterable[type]) -> None:
    """Refuse, in one line naming the kind and the format, a puzzle with a constraint the
    ``target`` writer has no words for (a term added to the vocabulary after the writer)."""
    known = tuple(known)
    for con in puzzle.rules.constraints:
        if not isinstance(con, known):
            raise UsageError(cannot_express(target, puzzle.kind, con))


def cannot_express(target: str, kind: str, con) -> str:
    """The one refusal of a rule, naming the format and the kind."""
    return f"export target {target!r} cannot express the {kind} rule {type(con).__name__} ({con.name})"


@dataclass
class ModelText:
    """An exported model's text (``write()``) and its shape, for reading answers back."""

    text: str
    n_cells: int
    n_values: int

    def write(self) -> str:
        return self.text


def counted_groups(rules: Rules, stated: frozenset[str] = frozenset()) -> Iterator[tuple[bool, list[tuple[int, int]]]]:
    """The ``ExactlyOne`` (True) and ``AtMostOne`` (False) constraints that a model with an
    integer per cell states as a count of ``cell = value`` terms, as ``(cell, value)`` pairs:
    not a cell's own one-of-N (its domain says it), not an at-most-one of one candidate, not
    those named in ``stated`` (said another way: N-Queens diagonals as an allDifferent)."""
    n = rules.n_values
    for con in rules.constraints:
        if not isinstance(con, (ExactlyOne, AtMostOne)) or con.name in stated:
            continue
        pairs = [candidate_cell_value(x, n) for x in con.candidates]
        exactly = isinstance(con, ExactlyOne)
        if exactly and len(pairs) == n and len({c for c, _ in pairs}) == 1:
            continue
        if not exactly and len(pairs) < 2:
            continue
        yield exactly, pairs


def statements(rules: Rules, say: dict[type, Callable[..., str | None]]) -> list[str]:
    """Each constraint of ``rules`` whose type ``say`` has a function for, said by it (a line
    of the format, or ``None`` when the constraint says nothing: an allDifferent of one
    cell), in the order of the rules."""
    out = []
    for con in rules.constraints:
        speak = say.get(type(con))
        line = speak(con) if speak is not None else None
        if line is not None:
            out.append(line)
    return out
