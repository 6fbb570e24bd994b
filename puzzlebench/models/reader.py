"""Reading puzzles from text: the kind inferred where that is unambiguous, files of many
puzzles split into records (one bad record never stops the others), and clear errors that
name the line and column.

Each kind reads its own forms (``read_text``; Sudoku, N-Queens and Skyscrapers also
``read_line``/``read_block``), and keeps the form it read in ``puzzle.form`` so that
``puzzle.write()`` writes it back the same way.  This module weighs which kind a text is
where forms overlap (:func:`infer_line_kind`: 16 numbers can be a 4x4 Sudoku or the rush-01
clues of a 4x4 Skyscrapers) and how a file is cut into records (:func:`read_puzzles`).
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import itertools
import math
import re
import time
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Iterable, Iterator

from ..errors import AmbiguousKindError, ParseError, Place, PuzzleError, UsageError
from .base import Puzzle
from .cages import CAGE_LINE
from .kinds import KIND_NAMES, kind_class
from .nqueens import PAIR
from .sukaku import is_sukaku_grid, is_sukaku_line, parse_sukaku_grid, parse_sukaku_line
from .skyscrapers import MAX_N as SKY_MAX_N, TOWERS_ID, is_skyscrapers_line, parse_rush01
from .sudoku import SEPARATOR_LINE, SOLO_CLAIM, grid_rows, is_sudoku_string, parse_sudoku_numbers, row_cells
from .text import CPMPY_HEADER, TextPlaces, check_binary, content_lines
from .input_bounds import MAX_INPUT_BYTES, MAX_LINE_BYTES, MAX_SIZE

KINDS = KIND_NAMES
MAX_GRID_LINES = 2 * MAX_SIZE  # the largest grid's rows and separator lines: a longer block is a list
READ_CHUNK = 1 << 16           # what is read at a time of a line past MAX_LINE_BYTES, skipped
ASK_KIND = "say which with --kind (kind= in Python)"


def check_kind(kind: str | None) -> str | None:
    if kind is None:
        return None
    k = kind.strip().lower()
    if k not in KINDS:
        raise UsageError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    return k


BUILT_IN = ("sudoku", "nqueens", "skyscrapers")
"""The kinds whose forms overlap (16 numbers can be a Sudoku or rush-01 clues): this module
weighs which of them a text is, and splits their files into records; each then reads its own
text (``read_line``/``read_block``, ``read_text``).  Every other registered kind reads its own
text, says how its records span lines and may claim a text whatever the kind asked (``claims``)."""


def _own_reader(kind: str | None):
    """The class of a kind that reads its own text, or ``None``."""
    if kind is None or kind in BUILT_IN:
        return None
    cls = kind_class(kind)
    return cls if hasattr(cls, "read_text") else None


def _spans_lines(own, text: str) -> bool:
    """Whether a kind that reads its own text takes this block as one puzzle of several
    lines (``spans_lines``: a class attribute, or a method of the block's text for a kind
    with forms of both sorts: Futoshiki's grids span lines, its game ids are one a line)."""
    spans = getattr(own, "spans_lines", False)
    return spans(text) if callable(spans) else bool(spans)


def load_kind_classes() -> None:
    """Import now every class the reader asks whether a text is its kind's (the kinds it does
    not weigh itself: :func:`_claimed_kind`), so that a timer started after this call times
    the parse alone, not the first puzzle's share of loading them (about 17 ms, against 0.5 ms
    to read and solve a 9x9)."""
    for name in KIND_NAMES:
        if name not in BUILT_IN:
            kind_class(name)


def _claimed_kind(text: str) -> str | None:
    """A registered kind whose text form this unmistakably is (a ``.pls`` file's ``order``
    line, a game id's parameters), or ``None``."""
    for name in KIND_NAMES:
        if name not in BUILT_IN:
            claims = getattr(kind_class(name), "claims", None)
            if claims is not None and claims(text):
                return name
    return None


# -- one line ------------------------------------------------------------------------------

def _numbers_only(text: str) -> list[str] | None:
    """The tokens of a line made of numbers separated by spaces or commas, else None."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    return tokens if tokens and all(t.isdigit() for t in tokens) else None


def _is_nqueens_line(text: str, fields: list[str]) -> bool:
    if not fields or not re.fullmatch(r"\d{1,3}(?=\(|$)", fields[0].split("(")[0] or "x"):
        return False
    rest = PAIR.sub(" ", " ".join(fields[1:])).split()
    if "(" in text:
        return True                      # pairs: nqueens reports any malformed one
    if all("=" in f for f in rest):
        return True
    return len(fields) <= 3 and all(f.isdigit() for f in fields)


def infer_line_kind(text: str) -> str:
    """The kind of a one-line puzzle, or an error saying why it cannot be told.

    Kind inference (``kind=None``), only where one reading is possible:

    - a Towers id (``N:…``) or ``N`` followed by four comma-separated clue lists → Skyscrapers;
    - a lone integer, or an integer with ``(row,col)`` pairs, ``key=value`` fields or at most two
      more plain numbers (the OEIS counts file) → N-Queens;
    - a first field of four or more characters that are not all separated numbers (N² Sudoku
      characters), a ``[`` list, a ``# size=`` header, a multi-line grid without ``Q`` → Sudoku;
    - a grid with a ``Q`` → an N-Queens board;
    - a line of numbers only: N² of them → Sudoku numbers, 4N (N ≤ 9) → rush-01 clues; when both
      readings make a valid puzzle (16 numbers, 36 numbers) → :class:`AmbiguousKindError`
      asking for ``--kind``; when only one does (a value above 6 among 36 numbers cannot be a
      6x6 Sudoku), that one.  An empty grid (only ``.``) is a Sudoku or a board: ambiguous too.
    """
    claimed = _claimed_kind(text)
    if claimed:
        return claimed
    stripped = text.strip()
    fields = stripped.split()
    if SOLO_CLAIM.match(stripped):
        return "sudoku"
    _refuse_other_game_ids(text)
    if TOWERS_ID.match(stripped) or is_skyscrapers_line(fields):
        return "skyscrapers"
    if stripped.startswith("["):
        return "sudoku"
    if re.fullmatch(r"[.]*[Qq][.]*", stripped):
        return "nqueens"                 # a one-square board
    if _is_nqueens_line(stripped, fields):
        return "nqueens"
    if fields and is_sudoku_string(fields[0]):
        return "sudoku"
    numbers = _numbers_only(stripped)
    if numbers is not None:
        return _numbers_kind(stripped, numbers)
    raise ParseError("cannot tell the kind of puzzle: expected a Sudoku line of N² characters, "
                     "N-Queens 'n [(row,col)…]', Skyscrapers 'N top bottom left right', a "
                     "rush-01 clue list or a Towers id", Place(None, 1, len(text) - len(text.lstrip()) + 1))


GAME_PARAMETERS = re.compile(r"\s*(\d+(?:x\d+)?[a-z]*)([:#])")
"""The head of a line that looks like one of Simon Tatham's ids: parameters, then ``:`` (a
game id) or ``#`` (a random seed)."""


def _refuse_other_game_ids(text: str) -> None:
    """A random seed (``N#SEED``), or Solo parameters no kind reads (``3x3xk:`` is Killer with
    diagonals): an error saying so, rather than a Sudoku line's length error."""
    found = GAME_PARAMETERS.match(text)
    if found is None:
        return
    params, mark = found.groups()
    if mark == "#":
        raise ParseError(f"'{params}#…' is a random seed of Simon Tatham's puzzles, not a puzzle: copy "
                         "the game id (Game > Specific…) instead", Place(None, 1, found.start(2) + 1))
    if "x" in params:
        raise ParseError(f"Solo parameters '{params}' are not read here: Solo ids are CxR: (Sudoku), "
                         "CxRx: (Sudoku-X), Nj: (jigsaw) and CxRk: (Killer)", Place(None, 1, found.start(1) + 1))


def _numbers_kind(text: str, numbers: list[str]) -> str:
    count = len(numbers)
    root = math.isqrt(count)
    sudoku_possible = root * root == count and root >= 4
    rush_possible = count % 4 == 0 and 2 <= count // 4 <= SKY_MAX_N
    if sudoku_possible and rush_possible:
        readings = []
        for kind, parser in (("sudoku", parse_sudoku_numbers), ("skyscrapers", parse_rush01)):
            try:
                parser(text)
                readings.append(kind)
            except PuzzleError:
                pass
        if len(readings) == 1:
            return readings[0]
        if not readings:
            return "sudoku"              # neither: report the Sudoku reading's error
        n = count // 4
        raise AmbiguousKindError(f"{count} numbers can be a {root}x{root} Sudoku or the rush-01 "
                                 f"clues of a {n}x{n} Skyscrapers; {ASK_KIND}: sudoku or "
                                 "skyscrapers", Place(None, 1, None))
    if rush_possible:
        return "skyscrapers"
    return "sudoku"                      # N² numbers, or a wrong count reported as Sudoku's


def parse_line(text: str, kind: str | None = None, box=None, source: str | None = None) -> Puzzle:
    """One puzzle written on one line (its first and only content line)."""
    kind = kind or infer_line_kind(text)
    fields = text.split(None, 1)
    if (kind == "sudoku" and box is None and fields and not SOLO_CLAIM.match(fields[0])
            and not fields[0].startswith("[") and is_sukaku_line(fields[0])):
        return parse_sukaku_line(text, source=source)   # pencil marks: a Sudoku of its own class
    cls = kind_class(kind)
    return getattr(cls, "read_line", cls.read_text)(text, box=box, source=source)


# -- one block of lines ---------------------------------------------------------------------

def _has_queen(rows: list[tuple[int, str]]) -> bool:
    return any(ch in "Qq" for _, line in rows for ch in line)


def infer_block_kind(text: str) -> str:
    claimed = _claimed_kind(text)
    if claimed:
        return claimed
    lines = content_lines(text)
    first = lines[0][1].strip()
    if CPMPY_HEADER.match(first) or first.startswith("["):
        return "sudoku"
    rows = grid_rows(text)
    if _has_queen(rows):
        return "nqueens"
    cells = "".join(ch for _, line in rows for ch in line if not ch.isspace() and ch not in ",|;")
    if cells and all(ch == "." for ch in cells) and len(rows) == len(lines):
        n = len(rows)
        raise AmbiguousKindError(f"an empty {n}x{n} grid can be a Sudoku or an N-Queens board; "
                                 f"{ASK_KIND}: sudoku or nqueens", TextPlaces(text).line_place(lines[0][0]))
    return "sudoku"


def parse_block(text: str, kind: str | None = None, box=None, source: str | None = None) -> Puzzle:
    """One puzzle written on several lines: a grid, a board, a list, a CPMpy instance."""
    kind = kind or infer_block_kind(text)
    first = content_lines(text)[0][1].strip()
    if (kind == "sudoku" and box is None and not (CPMPY_HEADER.match(first) or first.startswith("["))
            and is_sukaku_grid(text)):
        return parse_sukaku_grid(text, source=source)   # pencil marks: a Sudoku of its own class
    cls = kind_class(kind)
    return getattr(cls, "read_block", cls.read_text)(text, box=box, source=source)


# -- the API --------------------------------------------------------------------------------

def parse(text: str, kind: str | None = None, box=None, source: str | None = None) -> Puzzle:
    """One puzzle from its text (one line or several); ``kind`` inferred when None.  Errors
    are :class:`~puzzlebench.errors.PuzzleError` subclasses placed at 1-based line and column
    of ``text``."""
    kind = check_kind(kind)
    if isinstance(text, bytes):
        text = decode_bytes(text, source)
    try:
        puzzle = _parse_text(text, kind, box)
    except PuzzleError as err:
        raise err.located(source, 1) from None
    puzzle.source = source
    return puzzle


def _parse_text(text: str, kind: str | None, box) -> Puzzle:
    check_binary(text)
    lines = content_lines(text)
    if not lines:
        raise ParseError("empty input: no puzzle found")
    records = _records(text, lines, kind, box)
    if len(records) > 1:
        shown = ", ".join(str(r[0]) for r in records[:5]) + (", …" if len(records) > 5 else "")
        raise ParseError(f"the text holds {len(records)} puzzles (lines {shown}); parse reads "
                         "one: read files of many with read_puzzles", Place(None, records[0][0], None))
    first_line, start, end = records[0]
    if "\n" not in text[start:end]:
        try:
            return parse_line(text[start:end], kind, box)
        except PuzzleError as err:
            raise err.located(None, first_line) from None
    return parse_block(text, kind, box)


def decode_bytes(data: bytes, source: str | None = None, strict: bool = True,
                 expected: str = "puzzle text") -> str:
    """A file's bytes as text: UTF-8 (a BOM is dropped), or UTF-16 where its byte-order mark
    says so; ``expected`` names what the file should hold, for the error.

    ``strict``: binary junk — a NUL byte, bytes that are not UTF-8 — is a :class:`ParseError`
    naming its line and column, for the whole file.  ``strict=False`` keeps every line: bytes
    that are not UTF-8 stay in the text (as surrogate escapes) and NUL bytes too, so that
    :func:`read_puzzles` reports each such line as an error of its own (``byte 0x89 is not
    UTF-8 text``) while the other puzzles of the file still run."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):   # Windows' "Unicode" text
        data = data.decode("utf-16", errors="replace").encode("utf-8", errors="surrogatepass")
    if not strict:
        text = data.decode("utf-8", errors="surrogateescape")
        return text[1:] if text.startswith("\ufeff") else text
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        col = nul - (data.rfind(b"\n", 0, nul) + 1) + 1
        raise ParseError(f"binary data: a NUL byte; expected {expected}", Place(source, line, col))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ParseError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded; "
                         f"expected {expected}", Place(source, line, col)) from None
    return text[1:] if text.startswith("\ufeff") else text


# -- files of many puzzles -------------------------------------------------------------------

class LongLine(str):
    """What :func:`text_lines` yields for a line longer than :data:`MAX_LINE_BYTES`, and
    :func:`_chunks` for a block of lines holding more, in place of its text: a blank line that
    carries the column where the bound was passed, the block's first line (``block_from``), and
    whether no end came in :data:`MAX_INPUT_BYTES` (``endless``: the input is read no further)."""

    column: int
    endless: bool
    block_from: int | None

    def __new__(cls, column: int, endless: bool = False, block_from: int | None = None) -> "LongLine":
        line = super().__new__(cls, "\n")
        line.column, line.endless, line.block_from = column, endless, block_from
        return line

    def error(self, source: str, line: int) -> ParseError:
        if self.block_from is None:
            what = f"this line is longer than {MAX_LINE_BYTES:,} bytes"
            rest = f", nor the rest of the input (no end of line in {MAX_INPUT_BYTES >> 20} MiB)" if self.endless else ""
        else:
            what = (f"the lines from line {self.block_from} hold more than {MAX_LINE_BYTES:,} bytes with no blank "
                    "line between them")
            rest = ", nor the rest of the input"
        return ParseError(f"{what}, more than any puzzle takes (the largest is a {MAX_SIZE}x{MAX_SIZE} grid); "
                          f"not read further{rest}", Place(source, line, self.column))


def text_lines(stream: Iterable[bytes]) -> Iterator[str]:
    """The lines of a binary stream (a file, standard input) as text, for
    :func:`read_puzzles`.  Bytes that are not UTF-8 stay in their line (as surrogate
    escapes), so that the reader reports that line as an error of its own and the other
    lines still run; a byte-order mark at the start is dropped.  A line longer than
    :data:`MAX_LINE_BYTES` is a :class:`LongLine`, read no further than the bound (the rest of
    it skipped a chunk at a time, up to :data:`MAX_INPUT_BYTES`: past that, the input's end).
    A stream without ``readline`` (pieces already in memory) is taken as its pieces."""
    readline = getattr(stream, "readline", None)
    if readline is None:
        pieces = iter(stream)
        first = next(pieces, b"")
    else:
        first = readline(MAX_LINE_BYTES + 1)
        pieces = iter(partial(stream.read, READ_CHUNK), b"")
    if first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        yield from _utf16_lines(itertools.chain([first], pieces))
        return
    if readline is not None:
        pieces = _bounded_lines(readline, first)
    elif first:
        pieces = itertools.chain([first], pieces)
    for n, raw in enumerate(pieces):
        line = raw if isinstance(raw, LongLine) else raw.decode("utf-8", errors="surrogateescape")
        yield line[1:] if n == 0 and line.startswith("\ufeff") else line


def _bounded_lines(readline, first: bytes) -> Iterator[bytes | LongLine]:
    """The lines of a binary stream from its first, each read no further than
    :data:`MAX_LINE_BYTES` (a longer one a :class:`LongLine`, its rest skipped up to
    :data:`MAX_INPUT_BYTES`: ``/dev/zero`` has no end of line)."""
    raw = first
    while raw:
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield raw
        else:
            head = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode(raw[:MAX_LINE_BYTES])
            skipped = len(raw)
            while raw and not raw.endswith(b"\n"):
                if skipped > MAX_INPUT_BYTES:
                    yield LongLine(len(head) + 1, endless=True)
                    return
                raw = readline(READ_CHUNK)
                skipped += len(raw)
            yield LongLine(len(head) + 1)
        raw = readline(MAX_LINE_BYTES + 1)


def _utf16_lines(stream: Iterable[bytes]) -> Iterator[str]:
    """A file saved as UTF-16 with its byte-order mark (Windows' "Unicode" text), decoded as it
    comes, a line at a time (lines end at ``\n``, as everywhere here).  Read as UTF-8, every
    line was an error ("byte 0xff is not UTF-8 text", then NUL bytes).  A code unit that does
    not decode becomes U+FFFD, which the reader names where it stands.  A line of more than
    :data:`MAX_LINE_BYTES` / 2 characters is a :class:`LongLine`."""
    decoder = codecs.getincrementaldecoder("utf-16")(errors="replace")
    pending = ""
    skipped = None   # bytes read of the rest of a long line (None: none is being skipped)
    bound = MAX_LINE_BYTES // 2
    for raw in stream:   # split at the byte 0x0a: a UTF-16 "\n" may end in the next piece
        pending += decoder.decode(raw)
        end = pending.rfind("\n") + 1
        if end:
            lines = [LongLine(bound + 1) if len(line) > bound else line + "\n"
                     for line in pending[:end - 1].split("\n")]
            if skipped is not None:   # the long line's end
                lines[0], skipped = LongLine(bound + 1), None
            yield from lines
            pending = pending[end:]
        if skipped is not None:
            pending, skipped = "", skipped + len(raw)
            if skipped > MAX_INPUT_BYTES:
                yield LongLine(bound + 1, endless=True)
                return
        elif len(pending) > bound:
            pending, skipped = "", 0
    pending += decoder.decode(b"", final=True)
    if skipped is not None:
        yield LongLine(bound + 1)
    elif pending:
        yield LongLine(bound + 1) if len(pending) > bound else pending


def _line_is_record(line: str) -> bool:
    """Whether one line is a whole puzzle of some kind (so a block of them is a list)."""
    try:
        kind = infer_line_kind(line)
    except PuzzleError:
        return False
    own = _own_reader(kind)
    if own is not None and _spans_lines(own, line):
        return False                     # the first line of a puzzle of several (a .pls header)
    stripped = line.strip()
    fields = stripped.split()
    if kind == "sudoku":
        if SOLO_CLAIM.match(stripped):
            return True
        if stripped.startswith("["):
            return stripped.endswith("]") and stripped.count("[") == stripped.count("]")
        first = fields[0]
        if is_sudoku_string(first):
            n = math.isqrt(len(first))
            return n * n == len(first) and n >= 4
        count = len(_numbers_only(stripped) or [])
        return math.isqrt(count) ** 2 == count and count >= 16
    return True


def _block_is_grid(block: list[tuple[int, str]], kind: str | None = None) -> bool:
    lines = [line for _, line in block]
    if not 2 <= len(lines) <= MAX_GRID_LINES:
        return False
    if CPMPY_HEADER.match(lines[0].strip()):
        return True
    if lines[0].strip().startswith("[") and not _line_is_record(lines[0]):
        return True
    if any(SEPARATOR_LINE.match(line) for line in lines):
        return True
    if kind in (None, "sudoku") and is_sukaku_grid("\n".join(lines)):
        return True                      # one grid even with a wrong row, so the error names it
    rows = len(lines)
    if all(len(row_cells(0, line, rows)[0]) == rows for line in lines):
        return 4 <= rows <= MAX_SIZE or kind == "nqueens" or any(ch in "Qq" for line in lines for ch in line)
    # a grid with a wrong row: most rows right, and no line a puzzle of its own
    if any(_line_is_record(line) for line in lines):
        return False
    return 2 * sum(len(row_cells(0, line, rows)[0]) == rows for line in lines) >= rows


def read_puzzles(text: str | Iterable[str], source: str, kind: str | None = None, box=None,
                 prefer: str | None = None) -> Iterator[Puzzle | PuzzleError]:
    """Every puzzle of a file's text, in order: a :class:`Puzzle` (its ``source`` set to
    ``file:line``) or the :class:`PuzzleError` of that record, placed in the file.  One bad
    record never stops the others; every record yields exactly one item; a text with no
    puzzle at all yields one ``empty input`` error.

    Files of many puzzles (:func:`read_puzzles`): ``#`` starts a comment line (but ``# size=``
    starts a CPMpy puzzle); blank lines separate blocks.  A block of L ≥ 4 lines of L cells each
    (or with ``|`` / ``---+---`` separators, or a board with ``Q``) is one grid; a block whose
    lines are whole puzzles is one puzzle per line (the data files).  A block that is neither,
    where most lines have L cells (a grid with a wrong row), is read as one grid, so that the
    error names its wrong row; any other block is one record per line (each its own error).  A
    ``.csv`` file has a header line naming the columns; the column ``puzzle`` (or ``quizzes``)
    holds the puzzle, the others become metadata (``solution``/``solutions`` → ``solution``).

    ``text`` may be a stream of lines (a file, standard input): it is read a block at a time
    (blocks end at blank lines; a file of one puzzle a line, a line at a time: see
    :func:`_chunks`), so that memory holds one block, never the whole input, and each puzzle
    can be answered before the next one is read.  ``prefer``: with no ``kind``, the kind a
    record that reads as more than one is taken as (``rate``: 16 numbers are a Sudoku to it,
    not the rush-01 clues of a Skyscrapers)."""
    kind = check_kind(kind)
    lines = (line + "\n" for line in text.split("\n")) if isinstance(text, str) else iter(text)
    if source.lower().endswith(".csv"):
        yield from _read_csv(lines, source, kind, box, prefer)
        return
    empty = True
    for offset, chunk, per_line in _chunks(lines):
        if isinstance(chunk[0], LongLine):
            empty = False
            yield chunk[0].error(source, offset + 1)
            continue
        chunk_text = "".join(chunk)
        content = content_lines(chunk_text)
        if per_line:
            starts = [0] + [m.end() for m in re.finditer("\n", chunk_text)]
            index = {at: number for number, at in enumerate(starts, start=1)}
            records = [(index[at], at, at + len(line)) for at, line in content]
        else:
            records = _records(chunk_text, content, kind, box) if content else []
        for first_line, start, end in records:
            empty = False
            yield _parse_record(chunk_text[start:end], source, offset + first_line, kind, box, prefer)
    if empty:
        yield ParseError("empty input: no puzzle found", Place(source))


def _chunks(lines: Iterator[str]) -> Iterator[tuple[int, list[str], bool]]:
    """A stream of lines cut into ``(lines before the chunk, its lines, per_line)``.  A chunk
    ends at a blank line (blocks never span one) or, once its block is known to be one puzzle
    a line (``per_line``), after every line, so that each puzzle can be answered as soon as it
    is read.  A block is one puzzle a line when its first line is a puzzle of its own that no
    grid can continue: a row of more cells than the largest grid has rows, or a block already
    longer than its first row is wide, with no ``---+---`` line (a grid of N-cell rows has N
    rows); and any block longer than a grid with its separators.  A CPMpy instance (its header
    and its rows) is a chunk of its own, and so is a comment line outside a block: what is held
    is one block, at most :data:`MAX_LINE_BYTES` (past that a :class:`LongLine`, and the
    input's end)."""
    chunk: list[str] = []
    before = held = cpmpy = 0   # cpmpy: the lines of the CPMpy instance the block is (0: none)
    block: list[str] = []
    per_line = False

    def cut(block_ends: bool = True) -> tuple[int, list[str], bool]:
        nonlocal chunk, before, held, block, per_line, cpmpy
        out = (before, chunk, per_line)
        before, chunk, held = before + len(chunk), [], 0
        if block_ends:
            block, per_line, cpmpy = [], False, 0
        return out

    for line in lines:
        stripped = line.strip()
        header = CPMPY_HEADER.match(stripped)
        if isinstance(line, LongLine) or (header and block):   # a record of its own
            ended = cut()
            if ended[1]:
                yield ended
        chunk.append(line)
        if isinstance(line, LongLine):
            yield cut()
            continue
        held += len(line) - line.endswith("\n") if line.isascii() else len(_utf8(line.rstrip("\n")))
        if held > MAX_LINE_BYTES:   # no puzzle: its error where it passed the bound, and the end
            yield before + len(chunk) - 1, [_long_block(line, held, before + 1)], True
            return
        if not stripped:
            yield cut()
            continue
        if stripped.startswith("#") and not header:
            if not block or per_line:   # no puzzle in the chunk: the comment need not be held
                yield cut(block_ends=False)
            else:                       # in a block, held as one shared line (a comment's text is unread)
                chunk[-1] = "#\n"
            continue
        if not per_line:
            block.append(stripped)
        if header:
            cpmpy = min(int(header.group(1)), MAX_SIZE) + 1
        per_line = per_line or (not cpmpy and _one_puzzle_a_line(block))
        if per_line or len(block) == cpmpy:
            yield cut(block_ends=not per_line)
    if chunk:
        yield cut()


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _long_block(line: str, held: int, first: int) -> LongLine:
    """The :class:`LongLine` of a block whose last ``line`` took what it holds to ``held``
    bytes, past :data:`MAX_LINE_BYTES`: at the column of the first byte past it."""
    raw = _utf8(line.rstrip("\n"))
    head = raw[:MAX_LINE_BYTES - (held - len(raw))].decode("utf-8", "ignore")
    return LongLine(len(head) + 1, endless=True, block_from=first)


def _one_puzzle_a_line(block: list[str]) -> bool:
    """Whether a block's first lines already show that it is one puzzle a line."""
    if len(block) > MAX_GRID_LINES:
        # unless a grid's cage lines go on (a KenKen or Killer plain form: N rows, then up to
        # N² cages): 18x18 KenKen's, as show prints it, is 174 lines, and was read a line at a time
        return not (CAGE_LINE.match(block[-1]) and len(block) <= MAX_SIZE + MAX_SIZE ** 2)
    first = block[0]
    if not _line_is_record(first) or any(SEPARATOR_LINE.match(line) for line in block):
        return False
    width = len(row_cells(0, first, 0)[0])
    return (width > MAX_SIZE or len(block) > width) and not _claimed_as_one(block)


def _claimed_as_one(block: list[str]) -> bool:
    """Whether a kind claims these lines as one puzzle (a Futoshiki grid whose first row is
    eight numbers, rush-01 clues of their own, and whose sign lines make it longer than wide)."""
    text = "\n".join(block)
    kind = _claimed_kind(text)
    return kind is not None and _spans_lines(kind_class(kind), text)


def _records(text: str, lines: list[tuple[int, str]], kind: str | None, box=None
             ) -> list[tuple[int, int, int]]:
    """The records of a text as ``(first_line, start, end)``: blocks separated by blank
    lines (comment lines do not separate), each one grid or one puzzle per line."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    index = {s: i + 1 for i, s in enumerate(starts)}
    blocks: list[list[tuple[int, str]]] = []
    prev = None
    for off, line in lines:
        n = index[off]
        if prev is None or CPMPY_HEADER.match(line.strip()) or (
                n != prev + 1 and any(not text[starts[k - 1]:starts[k] - 1 if k < len(starts) else len(text)].strip()
                                      for k in range(prev + 1, n))):
            blocks.append([])
        blocks[-1].append((off, line))
        prev = n
    records = []
    for block in blocks:
        records += _block_records(block, index, kind, box)
    return records


def _block_records(block, index, kind, box=None) -> list[tuple[int, int, int]]:
    m = CPMPY_HEADER.match(block[0][1].strip())
    if m:
        size = int(m.group(1))
        head, rest = block[:size + 1], block[size + 1:]
        out = [(index[head[0][0]], head[0][0], head[-1][0] + len(head[-1][1]))]
        return out + (_block_records(rest, index, kind, box) if rest else [])
    per_line = [(index[off], off, off + len(line)) for off, line in block]
    kind = kind or _claimed_kind("\n".join(line for _, line in block))
    own = _own_reader(kind)
    if own is not None:   # a kind that reads its own text: a block is one puzzle, or a line is
        whole = [(index[block[0][0]], block[0][0], block[-1][0] + len(block[-1][1]))]
        return whole if _spans_lines(own, "\n".join(line for _, line in block)) else per_line
    if kind != "skyscrapers" and _block_is_grid(block, kind):
        grid = (index[block[0][0]], block[0][0], block[-1][0] + len(block[-1][1]))
        if _lines_rather_than_grid(block, kind, box):
            return per_line
        return [grid]
    return per_line


def _lines_rather_than_grid(block, kind, box) -> bool:
    """A block of L lines of L characters that are each a puzzle too (16 lines of a 4x4
    Sudoku: a 16x16 grid, or 16 puzzles?): the grid when it reads as one, else the lines
    when every one of them reads as a puzzle."""
    lines = [line for _, line in block]
    if not all(_line_is_record(line) for line in lines):
        return False
    try:
        parse_block("\n".join(lines), kind, box)
        return False
    except PuzzleError:
        pass
    for line in lines:
        try:
            parse_line(line, kind, box)
        except PuzzleError:
            return False
    return True


def _parse_record(record: str, source: str, first_line: int, kind, box, prefer=None) -> Puzzle | PuzzleError:
    try:
        try:
            if "\n" in record:
                puzzle = _parse_text(record, kind, box)
            else:
                check_binary(record)
                puzzle = parse_line(record, kind, box)
        except AmbiguousKindError:
            if prefer is None:
                raise
            puzzle = _parse_text(record, prefer, box)
    except PuzzleError as err:
        return err.located(source, first_line)
    puzzle.source = f"{source}:{first_line}"
    return puzzle


def _csv_rows(reader, source: str) -> Iterator[list[str] | ParseError]:
    """The rows of a ``csv.reader``; one the csv module refuses (a quoted field past its
    limit, 128 KiB: a quote left open over lines) an error placed at the line it reached, and
    the reading goes on from there."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield ParseError(f"this CSV row does not read: {exc} (a quote left open?)",
                             Place(source, reader.line_num, None))


PUZZLE_COLUMNS = ("puzzle", "quizzes", "quiz", "sudoku")
SOLUTION_COLUMNS = ("solution", "solutions")


def _read_csv(lines: Iterator[str], source: str, kind, box, prefer=None) -> Iterator[Puzzle | PuzzleError]:
    """A CSV file with a header line: the puzzle column and the others as metadata, read a
    row at a time."""
    raw: list[str] = []

    def remember(stream):
        for line in stream:
            raw.append(line)
            del raw[:-1]
            yield line

    reader = csv.reader(remember(lines))
    rows = _csv_rows(reader, source)
    header_row = next((row for row in rows if isinstance(row, ParseError) or any(cell.strip() for cell in row)), None)
    if header_row is None:
        yield ParseError("empty input: no puzzle found", Place(source))
        return
    if isinstance(header_row, ParseError):
        yield header_row
        return
    header = [h.strip().lower() for h in header_row]
    column = next((header.index(c) for c in PUZZLE_COLUMNS if c in header), None)
    if column is None:
        yield ParseError(f"a CSV file needs a column named {' or '.join(PUZZLE_COLUMNS)}; the "
                         f"header has {', '.join(header_row)}", Place(source, reader.line_num, None))
        return
    for row in rows:
        line_no = reader.line_num
        if isinstance(row, ParseError):
            yield row
            continue
        if isinstance(raw[-1], LongLine):
            yield raw[-1].error(source, line_no)
            continue
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= column:
            yield ParseError(f"this CSV row has {len(row)} columns; the puzzle is column "
                             f"{column + 1}", Place(source, line_no, None))
            continue
        item = _parse_record(row[column].strip(), source, line_no, kind, box, prefer)
        if isinstance(item, PuzzleError):
            col = raw[-1].find(row[column]) + 1 if item.column and raw else None
            item.place = Place(source, line_no, (col + item.column - 1) if col and item.column else None)
        else:
            for name, value in zip(header, row):
                if name and name not in PUZZLE_COLUMNS:
                    item.metadata["solution" if name in SOLUTION_COLUMNS else name] = value
        yield item


# -- records: what the commands and the harness read ----------------------------------------

@dataclass
class Record:
    """One puzzle of an input as read, or the error that stopped it, and where: ``source`` as
    messages name it (``file:line``), ``set_name`` (the file's name) and ``line`` as the
    harness keys it; ``parse_time``, the seconds reading it took."""

    source: str
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    parse_time: float = 0.0
    set_name: str = ""
    line: int = 0

    @property
    def puzzle_id(self) -> str:
        return f"{self.set_name}:{self.line}"

    @cached_property
    def puzzle_hash(self) -> str:
        """The puzzle's identity beside its place: SHA-1 of its kind, shape and text (``""``
        for an error), so that the same file read twice gives the same keys and a scrambled
        puzzle never passes for the original."""
        if self.puzzle is None:
            return ""
        text = f"{self.puzzle.kind}|{self.puzzle.shape}|{self.puzzle.write()}"
        return hashlib.sha1(text.encode()).hexdigest()[:16]


def read_records(lines: Iterable[str], name: str, kind: str | None = None, box=None,
                 prefer: str | None = None) -> Iterator[Record]:
    """:func:`read_puzzles` as :class:`Record` s, each timed, in order (a stream: one block in
    memory at a time)."""
    load_kind_classes()
    start = time.perf_counter()
    for n, item in enumerate(read_puzzles(lines, name, kind=kind, box=box, prefer=prefer), start=1):
        spent = time.perf_counter() - start
        if isinstance(item, Puzzle):
            yield Record(item.source or name, puzzle=item, parse_time=spent, set_name=name,
                         line=_line_of(item.source, n))
        else:
            source = f"{item.source or name}:{item.line}" if item.line else name
            yield Record(source, error=item, parse_time=spent, set_name=name, line=item.line or n)
        start = time.perf_counter()


def _line_of(source: str | None, default: int) -> int:
    """The line number at the end of a ``file:line`` source, or ``default``."""
    if source:
        tail = source.rsplit(":", 1)[-1]
        if tail.isdigit():
            return int(tail)
    return default
