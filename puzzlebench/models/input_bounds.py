"""The bounds of every input puzzlebench reads, in one place, for files and streams alike.

A regular file's size is known before it is read; standard input, a pipe, a FIFO or a device
(``/dev/zero``) has none, so every reader counts what it reads and stops at a bound with one
error placed where the bound was passed (``file:line:column``).  :data:`MAX_LINE_BYTES` bounds
a line, and a block of lines, of puzzle text; :data:`MAX_INPUT_BYTES` what is read whole (a
DIMACS file, a solver's answer, a campaign) and what is skipped of a line or block past the
line cap.
"""

from __future__ import annotations

import codecs
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
200 MB; a program's output has the same bound (solvers/output.py)."""
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
