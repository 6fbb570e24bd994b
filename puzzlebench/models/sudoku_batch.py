"""Many Sudoku of one block shape packed for the native batch engines, and their reader.

The 9x9 batch path reads a file of lines by the hundred thousand: :func:`read_sudoku_lines`
validates them in bulk into a :class:`SudokuBatch` (``N*N`` bytes of givens a puzzle, no
puzzle object), which the batch engines take as it is and whose answers are checked in one
call of the native checker (:meth:`SudokuBatch.answers_right`).  The engines reach it through
one door, :mod:`puzzlebench.engines.batch`; generic modules never name it.
"""

from __future__ import annotations

import math
import operator
from typing import Sequence

from ..errors import PuzzleError
from .base import Puzzle
from .sudoku import DIGITS, CHAR_VALUES, Sudoku, infer_box, parse_box, value_chars


def _char_values() -> bytes:
    """Byte translation of characters to values: empty cells → 0, ``1-9A-Z`` (either case) →
    1..35, anything else → 255."""
    table = bytearray([255]) * 256
    for ch, v in CHAR_VALUES.items():
        table[ord(ch)] = v
    return bytes(table)


_CHAR_VALUES = _char_values()


class SudokuBatch(Sequence["Sudoku"]):
    """Many Sudoku of one block shape in the compact form the native batch engines take:
    ``values`` holds ``n*n`` bytes a puzzle (its givens, 0 = empty), each puzzle validated
    when the batch was made, so that an engine reads them as they are, never parsing or
    validating again.  ``batch[i]`` is puzzle ``i`` as a :class:`Sudoku`."""

    def __init__(self, box: tuple[int, int], values: bytes, puzzles: Sequence[Sudoku] | None = None,
                 lines: Sequence[str] | None = None, box_inferred: bool = True):
        self.box, self.box_inferred = box, box_inferred
        self.cells = (box[0] * box[1]) ** 2
        self.values = values
        self._puzzles, self._lines = puzzles, lines

    @classmethod
    def of(cls, puzzles: Sequence[Puzzle]) -> "SudokuBatch | None":
        """The batch of these puzzles, or ``None`` unless they are all Sudoku of one block shape."""
        if isinstance(puzzles, SudokuBatch):
            return puzzles
        if not puzzles or any(type(p) is not Sudoku for p in puzzles):
            return None
        box = puzzles[0].box
        if any(p.box != box for p in puzzles):
            return None
        return cls(box, b"".join(map(bytes, map(_GIVENS, puzzles))), puzzles)

    @property
    def holds_objects(self) -> bool:
        """Whether the batch was made from puzzle objects (else from text: each is built when asked)."""
        return self._puzzles is not None

    @property
    def solution_chars(self) -> bytes | None:
        """The value-to-character table :meth:`solution_text` writes a batch read from text
        with (256 bytes), or ``None`` for a batch of puzzle objects (their own writer)."""
        return None if self._puzzles is not None else value_chars(".")

    def solution_text(self, solution: Sequence[int]) -> str:
        """A solution as :meth:`Sudoku.format_solution` writes it for this batch's puzzles (the
        line form: one character a value), without building the puzzle."""
        if self._puzzles is not None:
            return self._puzzles[0].format_solution(solution)
        try:
            return bytes(solution).translate(value_chars(".")).decode("ascii")
        except (TypeError, ValueError):
            return self[0].format_solution(solution)

    def __len__(self) -> int:
        return len(self.values) // self.cells

    def answers_right(self, solutions: bytes, threads: int = 1) -> bytes:
        """Which of ``solutions`` (``n*n`` values a puzzle, one byte each, in the batch's order)
        are right: the rules of :meth:`Sudoku.check` for the whole batch in one call of the
        native twin of the checker (``native/check.c``, which shares no code with any engine,
        split over ``threads`` native threads); one byte per puzzle, 1 where right."""
        from .. import _native
        return _native.sudoku_answers_right(*self.box, solutions, self.values, threads)

    def head(self, count: int) -> "SudokuBatch":
        """The batch of the first ``count`` puzzles (those a native batch answered before a Ctrl-C)."""
        if count >= len(self):
            return self
        return SudokuBatch(self.box, self.values[:count * self.cells],
                           None if self._puzzles is None else self._puzzles[:count],
                           None if self._lines is None else self._lines[:count], self.box_inferred)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if self._puzzles is not None:
            return self._puzzles[i]
        i = range(len(self))[i]
        line = self._lines[i]
        empty = "." if "." in line else "0" if "0" in line else "_" if "_" in line else "."
        return Sudoku.of_valid_givens(self.box, self.values[i * self.cells:(i + 1) * self.cells], empty=empty,
                               box_inferred=self.box_inferred)


_GIVENS = operator.attrgetter("givens")


def read_sudoku_lines(lines: Sequence[str], box: tuple[int, int] | str | None = None, threads: int = 1
                      ) -> tuple[SudokuBatch | None, list[int]]:
    """The lines that are Sudoku lines of one size (``N*N`` characters, as
    :func:`parse_sudoku_line` reads them) read together: the batch of them and their indices
    in ``lines``.  Read and validated in bulk (values in range, no value twice in a unit: the
    native ``sudoku_text_givens``, the rules of ``sudoku_givens_right``); a line it does not take (another size, a stray character,
    givens that break a rule, extra fields) is left to :func:`~.reader.parse`, which names
    the problem exactly.  ``threads``: native threads the bulk validation is split over."""
    if not lines:
        return None, []
    size = len(lines[0].strip())
    n = math.isqrt(size)
    try:
        shape = parse_box(box) or (infer_box(n) if 2 <= n <= len(DIGITS) else None)
    except PuzzleError:
        shape = None
    if n * n != size or shape is None or shape[0] * shape[1] != n:
        return None, []
    # the usual file: every line of one size, none to strip (a line of that size with a blank
    # around it holds a character that is no value, refused below)
    stripped = lines if set(map(len, lines)) == {size} else [line.strip() for line in lines]
    text = "".join(stripped)
    if text.isascii() and (stripped is lines or set(map(len, stripped)) == {size}):
        taken = list(range(len(stripped)))
    else:
        taken = [i for i, line in enumerate(stripped) if len(line) == size and line.isascii()]
        text = "".join([stripped[i] for i in taken])
    from .. import _native
    values, right = _native.sudoku_text_givens(shape[0], shape[1], text.encode("ascii"), _CHAR_VALUES, threads)
    if 0 in right:   # a character that is no value here, or givens that break a rule
        keep = [k for k, ok in enumerate(right) if ok]
        values = b"".join([values[k * size:(k + 1) * size] for k in keep])
        taken = [taken[k] for k in keep]
    if not taken:
        return None, []
    kept = stripped if len(taken) == len(stripped) else [stripped[i] for i in taken]
    return SudokuBatch(shape, values, lines=kept, box_inferred=box is None), taken
