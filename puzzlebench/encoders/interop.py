"""What the competition-format writers share (:mod:`.xcsp3`, :mod:`.minizinc`, :mod:`.opb`):
the header that lets ``puzzlebench decode`` rebuild the puzzle from the exported file alone,
and the one refusal of a constraint a format's writer has no words for.

The header is the DIMACS writer's (:func:`~puzzlebench.encoders.cnf.header_fields`: kind,
shape, givens, a kind's own fields) as comment lines of the format, after a magic line::

    % puzzlebench minizinc
    % kind: sudoku
    % box: 3x3
    ...

so that the three formats, and DIMACS, carry the same facts and rebuild the puzzle through
the same :func:`~puzzlebench.encoders.dimacs.puzzle_from_header`.
"""

from __future__ import annotations

from typing import Iterable

from ..errors import ParseError, Place, UsageError
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
    for number, raw in file_lines(text):
        line = raw.strip()
        if not line.startswith(marker):
            if inside:
                break
            continue
        body = line[len(marker):].strip()
        if not inside:
            inside = body == f"{MAGIC} {target}"
            continue
        key, colon, value = body.partition(":")
        if not colon or " " in key.strip():
            break
        fields[key.strip()] = value.strip()
    if not inside:
        raise ParseError(f"no '{MAGIC} {target}' header: the file was not written by "
                         f"'puzzlebench export --to {target}'", Place(source, 1))
    return puzzle_from_header(fields, source)


def check_vocabulary(puzzle, target: str, known: Iterable[type]) -> None:
    """Refuse, in one line naming the kind and the format, a puzzle with a constraint the
    ``target`` writer has no words for (a term added to the vocabulary after the writer)."""
    known = tuple(known)
    for con in puzzle.rules.constraints:
        if not isinstance(con, known):
            raise UsageError(f"export target {target!r} cannot express the {puzzle.kind} rule "
                             f"{type(con).__name__} ({con.name})")
