"""Simon Tatham's game ids (his Portable Puzzle Collection, solo.c and its kin): the grid part
that his Solo ids share, whatever the kind (Sudoku-X, jigsaw).

In ``GRID`` a number is a given, a letter ``a``..``z`` a run of 1..26 empty cells, and ``_``
separates two numbers that would otherwise run together.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import ParseError
from .text import TextPlaces


def grid_values(text: str, n: int, places: TextPlaces, start: int, what: str) -> list[int]:
    """The values of a Solo grid of ``n`` x ``n`` cells (0 = empty); ``what`` names the puzzle
    in messages (``a 9x9 jigsaw``), ``start`` is where ``text`` stands in the placed text."""
    values: list[int] = []
    for m in re.finditer(r"[a-z]|\d+|_", text):
        token = m.group()
        if token.isalpha():
            values += [0] * (ord(token) - ord("a") + 1)
        elif token != "_":
            if not 1 <= int(token) <= n:
                raise ParseError(f"{token} is not a value of {what}", places.place(start + m.start()))
            values.append(int(token))
        if len(values) > n * n:
            raise ParseError(f"the grid runs past the {n * n} cells of {what}", places.place(start + m.start()))
    if len(values) != n * n:
        raise ParseError(f"the grid describes {len(values)} cells; {what} has {n * n}",
                         places.place(start + len(text)))
    return values


def grid_text(values: Sequence[int]) -> str:
    """A Solo grid of these values (0 = empty)."""
    out: list[str] = []
    run = 0
    for v in list(values) + [None]:
        if v == 0:
            run += 1
            continue
        while run:
            step = min(run, 26)
            out.append(chr(ord("a") + step - 1))
            run -= step
        if v is not None:
            if out and out[-1][-1].isdigit():
                out.append("_")
            out.append(str(v))
    return "".join(out)
