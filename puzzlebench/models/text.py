"""Places in a puzzle's text: 1-based line and column from an offset, for error messages.

Every form parser reads the whole record (one line, or the lines of a grid) as one string and
reports a problem at an offset; :class:`TextPlaces` turns that offset into the ``line:column``
a user sees.  Lines are relative to the record; :meth:`PuzzleError.located` moves them into a
file.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..errors import Place, PuzzleError

CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\udc80-\udcff]")
"""Characters that never appear in puzzle text: their presence means binary data."""
CPMPY_HEADER = re.compile(r"#\s*size\s*=\s*(\d+)(?:\s+box\s*=\s*(\d+)\s*[xX]\s*(\d+))?\s*$")
"""The header of the CPMpy scaled-sudoku-instances format (a comment line that is content)."""


def content_lines(text: str) -> list[tuple[int, str]]:
    """``(offset, line)`` of every line that is neither blank nor a ``#`` comment (the CPMpy
    header ``# size=…`` is content)."""
    out, offset = [], 0
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and (not stripped.startswith("#") or CPMPY_HEADER.match(stripped)):
            out.append((offset, line.rstrip("\r")))
        offset += len(line) + 1
    return out


class TextPlaces:
    """Offsets of one text mapped to 1-based ``(line, column)``."""

    def __init__(self, text: str, source: str | None = None):
        self.text = text
        self.source = source
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def place(self, offset: int | None) -> Place:
        if offset is None:
            return Place(self.source, 1, None)
        line = bisect_right(self._starts, offset)
        return Place(self.source, line, offset - self._starts[line - 1] + 1)

    def line_place(self, offset: int) -> Place:
        """The line of ``offset``, without a column (a problem with the whole line)."""
        return Place(self.source, self.place(offset).line, None)


def check_binary(text: str, source: str | None = None) -> None:
    """Refuse text holding control characters (NUL bytes and the like): binary junk."""
    from ..errors import ParseError
    m = CONTROL.search(text)
    if m and "\udc80" <= m.group() <= "\udcff":   # a byte decode_bytes(strict=False) kept
        raise ParseError(f"byte 0x{ord(m.group()) - 0xdc00:02x} is not UTF-8 text: this looks "
                         "like binary data, not puzzle text", TextPlaces(text, source).place(m.start()))
    if m:
        raise ParseError(f"unexpected control character {m.group()!r}: this looks like binary "
                         "data, not puzzle text", TextPlaces(text, source).place(m.start()))


def with_line(err: PuzzleError, places: TextPlaces, offset: int = 0,
              spots: dict[tuple, int] | None = None) -> PuzzleError:
    """``err`` (from a model constructor, which knows no line) placed at ``offset``'s line, or
    at the offset ``spots`` gives for what it is at (``err.at``: a cell, a clue), column and
    all."""
    if err.place.line is None:
        spot = spots.get(err.at) if spots and err.at is not None else None
        where = places.place(spot if spot is not None else offset)
        err.place = Place(err.place.source or places.source, where.line,
                          where.column if spot is not None else None)
    return err


def cell_spots(offsets) -> dict[tuple, int]:
    """``spots`` for :func:`with_line` from the text offset of every cell, in order."""
    return {("cell", c): off for c, off in enumerate(offsets)}


def game_id_line(line: tuple[int, str]) -> tuple[tuple[int, str], dict[str, str]]:
    """A one-line game id (Simon Tatham's Solo, Unequal, Keen) and the whitespace-separated
    fields after it, as a data line has them: ``key=value`` under its key, the second field
    (the first after the id) as ``solution``, any other as ``field<k>``.  An id holds no
    blank, so the first field is the id; ``(offset, id text)`` keeps its place in the
    record for the errors."""
    offset, text = line
    fields = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
    if not fields:
        return (offset, text), {}
    metadata: dict[str, str] = {}
    for k, (_, field) in enumerate(fields[1:], start=2):
        key, eq, value = field.partition("=")
        if eq and key:
            metadata[key] = value
        else:
            metadata["solution" if k == 2 else f"field{k}"] = field
    start, head = fields[0]
    return (offset + start, head), metadata


def first_field(text: str) -> str:
    """The first whitespace-separated field of a line (a game id), or ``""``."""
    fields = text.split(None, 1)
    return fields[0] if fields else ""


def row_length_problem(what: str, n: int, count: int, forms: str) -> str:
    """A square grid's row of the wrong length: a grid of ``n`` rows is ``n`` x ``n``; one row
    of many cells is no grid of the kind at all (a Sudoku's line, most likely), and ``forms``
    says what the kind's text is."""
    if n == 1:
        return f"one line of {count} cells is no {what}: {forms}"
    return f"a {what} of {n} rows has {n} cells in every row; this one has {count}"
