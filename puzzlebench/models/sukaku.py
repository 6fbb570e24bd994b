"""Sukaku (pencil-mark Sudoku): a 9x9 Sudoku position given as the candidates of every cell.

Two forms, after SukakuExplainer's conventions (SudokuMonster, 2019-2020): ``line``, 729
characters (digit d at position d of a cell's nine when a candidate, else ``0`` or ``.``),
and ``grid``, 9 rows of 9 tokens of candidate digits (``1245``); a cell with one candidate is
a given.  A :class:`Sukaku` is a :class:`~puzzlebench.models.sudoku.Sudoku` whose ``givens``
carry the candidate masks (:class:`Position`).  Why not a kind of its own: the rules, the
checker and the solution are Sudoku's, and masks in ``givens`` let the human solver and so
``rate`` start from the pencil marks with no parameter threaded through every rating
function; ``mrv`` and ``sat`` take the masks, and engines that cannot are refused by
:meth:`Engine.run` (``takes_candidates``) rather than silently solving the givens alone.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError
from .sudoku import CELL_TOKEN, Sudoku, grid_rows, unit_table
from .text import TextPlaces

N = 9
LINE_LENGTH = N ** 3
_LINE_CHARS = re.compile(r"[0-9.]+")


class Position(tuple):
    """The givens of a Sukaku (0 where empty) with ``candidates``: one bitmask a cell, bit
    d-1 for digit d.  Equal to the plain givens tuple; the masks ride along."""

    candidates: tuple[int, ...]

    def __new__(cls, givens: Sequence[int], candidates: Sequence[int]):
        self = super().__new__(cls, givens)
        self.candidates = tuple(candidates)
        return self

    def __reduce__(self):   # picklable for the child processes that run engines
        return (Position, (tuple(self), self.candidates))


class Sukaku(Sudoku):
    """A 9x9 position with pencil marks (see the module)."""

    def __init__(self, candidates: Sequence[int], *, source: str | None = None, form: str = "line",
                 metadata: dict[str, str] | None = None):
        givens = [m.bit_length() if m and not m & (m - 1) else 0 for m in candidates]
        super().__init__((3, 3), givens, source=source, form=form, metadata=metadata)
        self.givens = Position(self.givens, candidates)

    @property
    def shape(self) -> str:
        return f"{super().shape}, pencil marks"

    @property
    def candidates(self) -> tuple[int, ...]:
        return self.givens.candidates

    def check(self, solution: Sequence[int]) -> list[str]:
        problems = super().check(solution)
        if problems:
            return problems
        return [f"r{c // N + 1}c{c % N + 1} = {v} is not one of its candidates {_digits(m)}"
                for c, (v, m) in enumerate(zip(solution, self.candidates)) if not m >> (v - 1) & 1]

    def pretty(self, solution: Sequence[int] | None = None, empty: str = ".") -> str:
        """A solution as Sudoku prints it; the position itself as its pencil marks, each
        column as wide as its widest candidate set, ``|`` between blocks and ``-+-`` rules
        between bands, so the printed grid reads back as the same Sukaku (the grid form)."""
        if solution is not None:
            return super().pretty(solution, empty)
        marks = [_digits(m) or "-" for m in self.candidates]
        widths = [max(len(marks[r * N + c]) for r in range(N)) for c in range(N)]
        rule = "-+-".join("-" * (sum(widths[b:b + 3]) + 2) for b in range(0, N, 3))
        lines = []
        for r in range(N):
            if r and r % 3 == 0:
                lines.append(rule)
            lines.append(" | ".join(" ".join(marks[r * N + c].ljust(widths[c]) for c in range(b, b + 3))
                                    for b in range(0, N, 3)).rstrip())
        return "\n".join(lines)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """The position drawn: a cell of one candidate as its given, the others' pencil marks
        in a 3x3 mini-grid (a solution's values in blue instead)."""
        figure = self.figure()
        figure.values(self.givens, solution)
        for cell, mask in enumerate(self.candidates):
            if not self.givens[cell] and solution is None:
                figure.candidates(cell, [v for v in range(1, N + 1) if mask >> (v - 1) & 1], (3, 3))
        return figure.svg()

    def write(self) -> str:
        if self.form == "grid":
            return "\n".join(" ".join(_digits(m) for m in self.candidates[r * N:(r + 1) * N])
                             for r in range(N))
        return sukaku_line(self.candidates)


def _digits(mask: int) -> str:
    return "".join(str(d) for d in range(1, N + 1) if mask >> (d - 1) & 1)


def is_sukaku_line(first_field: str) -> bool:
    """Characters ``0-9.`` (but for a few typos), within three cells of 729: a Sukaku line.
    729 = 27², but a 27x27 Sudoku written with hardly a value above 9 is not a reading worth
    keeping ambiguous (``--box 3x9`` asks for it).  The margins make a line a few characters
    short or long, or with a stray letter, a Sukaku with that error, not a Sudoku of no N²
    length or a 27x27 one; the nearest squares, 676 and 784, are outside the length margin."""
    if abs(len(first_field) - LINE_LENGTH) > 3 * N:
        return False
    return len(_LINE_CHARS.sub("", first_field)) <= N


def is_sukaku_grid(text: str) -> bool:
    """Nine rows, most of them of nine separated tokens, some token of two or more
    characters (a plain grid's cells are one character each)."""
    rows = grid_rows(text)
    if len(rows) != N:
        return False
    tokens = [CELL_TOKEN.findall(line) for _, line in rows]
    return 2 * sum(len(t) == N for t in tokens) > N and \
        any(len(tok) > 1 for row in tokens for tok in row)


def parse_sukaku_line(text: str, *, source: str | None = None) -> Sukaku:
    places = TextPlaces(text, source)
    lead = len(text) - len(text.lstrip())
    field = text.split()[0]
    if len(field) != LINE_LENGTH:
        raise ParseError(f"a Sukaku line has {LINE_LENGTH} characters (9 a cell), not {len(field)}",
                         places.place(lead))
    masks = []
    for cell in range(N * N):
        mask = 0
        for d in range(1, N + 1):
            ch = field[cell * N + d - 1]
            if ch == str(d):
                mask |= 1 << (d - 1)
            elif ch not in "0.":
                hint = "" if ch.isdigit() else " (a 27x27 Sudoku line: give --box 3x9)"
                raise ParseError(f"r{cell // N + 1}c{cell % N + 1}: {ch!r} at position {d} of the cell's 9 "
                                 f"characters; expected {d} (a candidate) or 0 or . (not one){hint}",
                                 places.place(lead + cell * N + d - 1))
        masks.append(mask)
    return _build(masks, [lead + cell * N for cell in range(N * N)], places, "line")


def parse_sukaku_grid(text: str, *, source: str | None = None) -> Sukaku:
    places = TextPlaces(text, source)
    masks, offsets = [], []
    for r, (offset, line) in enumerate(grid_rows(text)):
        tokens = [(offset + m.start(), m.group()) for m in CELL_TOKEN.finditer(line)]
        if len(tokens) != N:
            raise ParseError(f"row {r + 1} of the Sukaku grid has {len(tokens)} cells, not {N}",
                             places.place(offset + len(line) - len(line.lstrip())))
        for c, (at, token) in enumerate(tokens):
            mask = 0
            for i, ch in enumerate(token):
                if ch not in "123456789":
                    raise ParseError(f"r{r + 1}c{c + 1}: {ch!r} in {token!r} is not a candidate digit 1-9",
                                     places.place(at + i))
                if mask >> (int(ch) - 1) & 1:
                    raise ParseError(f"r{r + 1}c{c + 1}: candidate {ch} twice in {token!r}", places.place(at + i))
                mask |= 1 << (int(ch) - 1)
            masks.append(mask)
            offsets.append(at)
    return _build(masks, offsets, places, "grid")


def _build(masks: list[int], offsets: list[int], places: TextPlaces, form: str) -> Sukaku:
    for cell, m in enumerate(masks):
        if not m:
            raise InvalidPuzzleError(f"r{cell // N + 1}c{cell % N + 1} has no candidate",
                                     places.place(offsets[cell]))
    for name, cells in unit_table(3, 3):   # the first unit, in order, with a digit twice
        seen: dict[int, int] = {}
        for c in cells:
            m = masks[c]
            if m & (m - 1):
                continue
            if m in seen:
                raise InvalidPuzzleError(
                    f"{name} has two {m.bit_length()}s (r{seen[m] // N + 1}c{seen[m] % N + 1} and "
                    f"r{c // N + 1}c{c % N + 1} have that one candidate only)", places.place(offsets[c]))
            seen[m] = c
    return Sukaku(masks, source=places.source, form=form)


def initial_candidates(givens: Sequence[int]) -> list[int]:
    """The candidates a plain 9x9 puzzle's givens leave (each given's digit removed from its
    peers): the Sukaku of the puzzle's starting position."""
    masks = [1 << (v - 1) if v else (1 << N) - 1 for v in givens]
    for _, cells in unit_table(3, 3):
        used = 0
        for c in cells:
            if givens[c]:
                used |= 1 << (givens[c] - 1)
        for c in cells:
            if not givens[c]:
                masks[c] &= ~used
    return masks


def sukaku_line(masks: Sequence[int]) -> str:
    """The 729-character line of 81 candidate masks (``0`` where a digit is not one)."""
    return "".join(str(d) if m >> (d - 1) & 1 else "0" for m in masks for d in range(1, N + 1))
