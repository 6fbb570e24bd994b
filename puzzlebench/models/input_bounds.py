"""The bounds of every input puzzlebench reads, in one place, for files and streams alike.

A regular file's size is known before it is read; standard input, a pipe, a FIFO or a device
(``/dev/zero``) has none, so every reader counts what it reads and stops at a bound with one
error placed where the bound was passed (``file:line:column``).  :data:`MAX_LINE_BYTES` bounds
a line, and a block of lines, of puzzle text; :data:`MAX_INPUT_BYTES` what is read whole (a
DIMACS file, a solver's answer, a campaign) and what is skipped of a line or block past the
line cap; :data:`MAX_NESTING` the nesting of a structured file (TOML, JSON), whose parsers
recurse on it.
"""

from __future__ import annotations

import codecs
import re
from typing import BinaryIO

from ..errors import ParseError, Place

MAX_SIZE = 64
"""The largest grid of any kind: 64 rows."""
MAX_LINE_BYTES = 64 * MAX_SIZE ** 2 * 4
"""The longest line of puzzle text read (1 MiB), and the most a block of lines with no blank
line between them may hold: 64 times the largest grid written with separators (64² cells of at
most 4 bytes, ``64, ``), room for a puzzle, its solution, cages and metadata.  Not a bound of
the other formats' lines: MiniSat writes a 64x64 Sudoku's model (262,144 literals, about 2 MB)
on one line."""
MAX_INPUT_BYTES = 256 * 2**20
"""The most read of one input without an end (256 MiB): a file read whole, or the rest of a
line or block past :data:`MAX_LINE_BYTES`, skipped.  A 49x49 Sudoku's DIMACS export is about
200 MB; a program's output has the same bound (runtime/output.py)."""
MAX_NESTING = 64
"""The deepest nesting of a campaign (TOML) or rating model (JSON): tables and arrays inside
each other, and the parts of a dotted key.  The files puzzlebench writes nest 3 deep; Python's
parsers recurse on arrays (about 300 deep is a ``RecursionError``) and take time quadratic in a
dotted key's parts."""
READ_CHUNK = 1 << 20


def read_whole(stream: BinaryIO, source: str) -> bytes:
    """All of ``stream``, read a chunk at a time; past :data:`MAX_INPUT_BYTES` a
    :class:`ParseError` placed at the first byte past it, the rest not read."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(READ_CHUNK, MAX_INPUT_BYTES - size) or 1)   # at the bound: one more
        if not chunk:
            return b"".join(chunks)
        if size == MAX_INPUT_BYTES:
            raise _too_long(chunks, source)
        chunks.append(chunk)
        size += len(chunk)


def _too_long(chunks: list[bytes], source: str) -> ParseError:
    """The error for an input longer than :data:`MAX_INPUT_BYTES`, of which ``chunks`` are the
    part within it, placed at the byte after them: its line, and its column in characters."""
    line = sum(chunk.count(b"\n") for chunk in chunks) + 1
    tail: list[bytes] = []   # the last line's part, in reverse
    for chunk in reversed(chunks):
        newline = chunk.rfind(b"\n")
        tail.append(chunk[newline + 1:])
        if newline >= 0:
            break
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    column = sum(len(decoder.decode(piece)) for piece in reversed(tail)) + 1
    return ParseError(f"the input is longer than {MAX_INPUT_BYTES:,} bytes ({MAX_INPUT_BYTES >> 20} MiB), "
                      "the most read as one file; not read further", Place(source, line, column))


# -- nesting -------------------------------------------------------------------------------------

_STRING = re.compile(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"?|\'[^\'\n]*\'?', re.DOTALL)
_COMMENT = re.compile(r"#[^\n]*")
_KEY_PART = r"(?:[A-Za-z0-9_-]+|\"(?:\\.|[^\"\\\n])*\"|'[^'\n]*')"
_DOTTED = re.compile(rf"[ \t]*{_KEY_PART}[ \t]*\.")
"""A part of a dotted key, its dot included (``a.``, ``"b c" .``)."""
_HEADER = re.compile(rf"[ \t]*(\[\[?)[ \t]*{_KEY_PART}(?:[ \t]*\.[ \t]*{_KEY_PART})*[ \t]*\]\]?[ \t]*(?=#|\n|$)")
"""A TOML table header, a line of its own: ``[a.b]``, ``[[set]]``."""
_SPECIAL = re.compile(r"[\"'#\[\]{},\n]")
"""What the scan stops at: the rest (numbers, words, spaces) neither nests nor hides nesting."""


def check_nesting(text: str, source: str) -> None:
    """Refuse a TOML or JSON text nested deeper than :data:`MAX_NESTING`, with the place of the
    first bracket or key part past it, before a parser recurses on it.  Strings and comments
    are skipped; each dot of a dotted key counts as a level (``a.b.c = 1``: 2), and keys under
    a table header start at the header's levels."""
    at = _first_too_deep(text)
    if at is not None:
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise ParseError(f"nested more than {MAX_NESTING} deep (arrays and tables inside each other, each dot "
                         "of a key a level); no file needs as many", Place(source, line, column))


def _dotted_parts(text: str, at: int, levels: int) -> tuple[int, int, bool]:
    """The dotted key parts from ``at``: where they end, ``levels`` plus their count, and
    whether that passed :data:`MAX_NESTING` (then ``at`` is the part past it)."""
    part = _DOTTED.match(text, at)
    while part:
        if levels + 1 > MAX_NESTING:
            return at, levels, True
        levels, at = levels + 1, part.end()
        part = _DOTTED.match(text, at)
    return at, levels, False


def _first_too_deep(text: str) -> int | None:
    """The offset where nesting first passes :data:`MAX_NESTING`, or ``None``."""
    opened: list[tuple[str, int]] = []   # each open bracket and the levels it adds: 1 + its key's dots
    header = keyed = 0                   # the levels of the table header above; the last key's dots
    at, line_start = 0, True
    while at < len(text):
        key_next = line_start or (opened and opened[-1][0] == "{" and text[at - 1] in "{,")
        if line_start and not opened and (found := _HEADER.match(text, at)):
            at, header, deep = _dotted_parts(text, found.end(1), len(found[1]))
            if deep:
                return at
            at = found.end()
        elif key_next:
            base = header + sum(levels for _, levels in opened)
            at, levels, deep = _dotted_parts(text, at, base)
            if deep:
                return at
            keyed = levels - base
        line_start = False
        found = _SPECIAL.search(text, at)
        if found is None:
            return None
        at = found.start()
        ch = text[at]
        if ch in "\"'":
            at = _STRING.match(text, at).end()
            continue
        if ch == "#":
            at = _COMMENT.match(text, at).end()
            continue
        if ch in "[{":
            opened.append((ch, 1 + keyed))
            keyed = 0
            if header + sum(levels for _, levels in opened) > MAX_NESTING:
                return at
        elif ch in "]}":
            keyed = 0
            if opened:
                opened.pop()
        elif ch == ",":
            keyed = 0
        elif ch == "\n" and not opened:
            line_start, keyed = True, 0
        at += 1
    return None
