"""Simon Tatham's game ids (his Portable Puzzle Collection, solo.c and its kin): the grid part
that his Solo ids share, whatever the kind (Sudoku-X, jigsaw, killer), and the lines between
regions that Solo's jigsaw blocks and killer cages and Keen's cages share, read and written
in one place so that every kind reads his ids as his programs do.  In ``GRID`` a number is a
given, a letter ``a``..``z`` a run of 1..26 empty cells, and ``_`` separates two numbers that
would otherwise run together.  Region lines: :func:`edge_regions`.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from ..errors import ParseError
from .text import TextPlaces


def grid_values(text: str, n: int, places: TextPlaces, start: int, what: str,
                largest: int | None = None) -> list[int]:
    """The values of a Solo grid of ``n`` x ``n`` cells (0 = empty); ``what`` names the puzzle
    in messages (``a 9x9 jigsaw``), ``start`` is where ``text`` stands in the placed text;
    ``largest``, when not ``n``, bounds the numbers (a killer id's grid of cage sums)."""
    values: list[int] = []
    for m in re.finditer(r"[a-z]|\d+|_", text):
        token = m.group()
        if token.isalpha():
            values += [0] * (ord(token) - ord("a") + 1)
        elif token != "_":
            if not 1 <= int(token) <= (largest or n):
                raise ParseError(f"{token} is not a value of {what}", places.place(start + m.start()))
            values.append(int(token))
        if len(values) > n * n:
            raise ParseError(f"the grid runs past the {n * n} cells of {what}", places.place(start + m.start()))
    if len(values) != n * n:
        raise ParseError(f"the grid describes {len(values)} cells; {what} has {n * n}",
                         places.place(start + len(text)))
    return values


def grid_spots(text: str, start: int) -> list[int]:
    """The offset of every cell of a Solo grid that :func:`grid_values` has read: a number's
    own, or the letter of the run an empty cell is in (``start`` as there)."""
    spots: list[int] = []
    for m in re.finditer(r"[a-z]|\d+", text):
        token = m.group()
        spots += [start + m.start()] * (ord(token) - ord("a") + 1 if token.isalpha() else 1)
    return spots


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


def edge_cells(i: int, n: int) -> tuple[int, int]:
    """The two cells on either side of internal edge ``i`` of the walk (see :func:`edge_regions`)."""
    if i < n * (n - 1):
        y, x = divmod(i, n - 1)
        return y * n + x, y * n + x + 1
    x, y = divmod(i - n * (n - 1), n - 1)
    return y * n + x, (y + 1) * n + x


def _letters(text: str, repeats: bool, places: TextPlaces, start: int) -> Iterator[tuple[str, int]]:
    """The run characters of region lines with their offsets, Keen's repeat counts expanded."""
    for m in re.finditer(r"([_a-z])(\d*)|(.)", text):
        if m.group(3) is not None:
            raise ParseError(f"unexpected {m.group(3)!r} in the region lines: expected _ or a..z",
                             places.place(start + m.start()))
        count = m.group(2)
        if count and not repeats:
            raise ParseError(f"unexpected {count[0]!r} in the region lines: expected _ or a..z",
                             places.place(start + m.start(2)))
        for _ in range(int(count) if count else 1):
            yield m.group(1), start + m.start()


def edge_regions(text: str, n: int, places: TextPlaces, start: int, repeats: bool = False,
                 what: str = "region lines") -> list[int]:
    """A region number per cell (the smallest cell of its region) from region lines.

    Region lines (:func:`edge_regions`, :func:`edges_text`) write down the lines between regions,
    not the regions: the walk goes over the internal edges between horizontal neighbours in
    reading order, then between vertical neighbours column by column, and each character counts
    the places in that walk that are *not* a dividing line before the next one that is (``_``
    none, ``a`` one …); ``z`` is 26 places with no line after them, and a last, virtual line
    closes the walk.  Cells joined by no line make one region.  Keen (keen.c) compresses the
    result: a character followed by a number ``k`` stands for ``k`` copies of it (written where
    that is shorter, three copies or more)."""
    parent = list(range(n * n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    limit, position = 2 * n * (n - 1), 0
    for ch, at in _letters(text, repeats, places, start):
        run = 0 if ch == "_" else ord(ch) - ord("a") + 1
        for _ in range(run):
            if position >= limit:
                raise ParseError(f"the {what} run past the grid's edges", places.place(at))
            a, b = edge_cells(position, n)
            ra, rb = find(a), find(b)
            parent[max(ra, rb)] = min(ra, rb)
            position += 1
        if run != 26:
            position += 1          # a dividing line (the last one virtual)
            if position > limit + 1:
                raise ParseError(f"the {what} run past the grid's edges", places.place(at))
    if position == limit:   # every edge walked: the character of the closing, virtual line is missing
        raise ParseError(f"the {what} end one character short: after the grid's {limit} edges comes a "
                         f"closing '_' (no place after the last line)", places.place(start + len(text)))
    if position != limit + 1:
        raise ParseError(f"the {what} cover {position} of the grid's {limit} edges", places.place(start + len(text)))
    return [find(cell) for cell in range(n * n)]


def edges_text(regions: Sequence[int], n: int, repeats: bool = False) -> str:
    """Region lines as solo.c (and, with ``repeats``, keen.c) writes them (a run of 25 places
    with no line as ``z``, as they do, though they read ``z`` as 26: their regions never have
    such runs)."""
    out, run = [], 0
    total = 2 * n * (n - 1)
    for i in range(total + 1):
        if i < total:
            a, b = edge_cells(i, n)
            if regions[a] == regions[b]:
                run += 1
                continue
        while run > 25:
            out.append("z")
            run -= 25
        out.append(chr(ord("a") + run - 1) if run else "_")
        run = 0
    if not repeats:
        return "".join(out)
    packed = []
    for m in re.finditer(r"(.)\1*", "".join(out)):
        k = len(m.group())
        packed.append(m.group(1) * 2 if k == 2 else m.group(1) + (str(k) if k > 2 else ""))
    return "".join(packed)


GRID_CHARACTERS = "0123456789abcdefghijklmnopqrstuvwxyz_"
"""What a Solo grid is written with: numbers, ``a``-``z`` for runs of 1-26 empty cells, ``_``
between two numbers."""


def first_misfit(text: str, start: int, allowed: str = GRID_CHARACTERS) -> int:
    """The offset of the first character from ``start`` on that is not ``allowed``, or the
    end of ``text``: where a malformed id goes wrong."""
    return next((i for i in range(start, len(text)) if text[i] not in allowed), len(text))
