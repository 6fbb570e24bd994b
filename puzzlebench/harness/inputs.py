"""What a bench runs on: the puzzles of its files (or the embedded default set), each with a
stable identity for the database.

A puzzle's identity is ``puzzle_id`` (``set:line``, where ``set`` is the file's name) plus
``puzzle_hash`` (SHA-1 of its kind, shape and text): the same file read twice gives the same
keys, so ``--resume`` knows what is already done, and a scrambled puzzle (another text) never
passes for the original.  A line that is not a puzzle becomes an :class:`InputItem` holding
its :class:`~puzzlebench.errors.PuzzleError`, recorded as an error; the rest still run.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..errors import PuzzleError, UsageError
from ..models.base import Puzzle


@dataclass
class InputItem:
    """One record of the input: a puzzle, or the error that stopped it."""

    set_name: str
    line: int
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    parse_time: float = 0.0
    puzzle_hash: str = ""

    @property
    def puzzle_id(self) -> str:
        return f"{self.set_name}:{self.line}"


def puzzle_hash(puzzle: Puzzle) -> str:
    text = f"{puzzle.kind}|{puzzle.shape}|{puzzle.write()}"
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _line_of(source: str | None, default: int) -> int:
    """The line number at the end of a ``file:line`` source, or ``default``."""
    if source:
        tail = source.rsplit(":", 1)[-1]
        if tail.isdigit():
            return int(tail)
    return default


def read_file(path: str, *, kind: str | None = None, box: str | None = None) -> list[InputItem]:
    """Every record of a puzzle file, in order.  An unreadable file is a usage error; a file
    mixing puzzle kinds too (each set must be one kind, so that its table means something)."""
    from ..models import reader
    name = Path(path).name
    items: list[InputItem] = []
    try:
        with open(path, "rb") as stream:
            start = time.perf_counter()
            for n, record in enumerate(reader.read_puzzles(reader.text_lines(stream), name, kind=kind, box=box),
                                       start=1):
                items.append(_item(name, n, record, time.perf_counter() - start))
                start = time.perf_counter()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    check_one_kind(path, items)
    return items


def _item(name: str, n: int, record, parse_time: float) -> InputItem:
    if isinstance(record, Puzzle):
        return InputItem(name, _line_of(record.source, n), puzzle=record, parse_time=parse_time,
                         puzzle_hash=puzzle_hash(record))
    return InputItem(name, record.line or n, error=record, parse_time=parse_time)


def check_one_kind(path: str, items: Iterable[InputItem]) -> None:
    first: dict[str, int] = {}
    for item in items:
        if item.puzzle is not None:
            first.setdefault(item.puzzle.kind, item.line)
    if len(first) > 1:
        listed = ", ".join(f"{k} (first on line {line})" for k, line in sorted(first.items(), key=lambda x: x[1]))
        raise UsageError(f"{path} mixes puzzle kinds: {listed}; a bench set must hold one kind "
                         "(split the file, or give --kind to read every line as one kind)")


def sample(items: list[InputItem], k: int | None, seed: int) -> list[InputItem]:
    """A reproducible sample of ``k`` records of one file (all when ``k`` is None or larger),
    kept in file order.  The generator is seeded with the seed and the set's name, so each
    file's sample does not depend on which other files are benched."""
    if k is None or k >= len(items):
        return items
    rng = random.Random(f"{seed}:{items[0].set_name}" if items else seed)
    chosen = sorted(rng.sample(range(len(items)), k))
    return [items[i] for i in chosen]


def scramble_items(items: list[InputItem], seed: int) -> list[InputItem]:
    """Every Sudoku replaced by a random equivalent (see :mod:`.scramble`), seeded per puzzle
    by the seed and its id, so that a resumed run scrambles the same way."""
    from ..models.sudoku import Sudoku
    from .scramble import scramble_sudoku
    out = []
    for item in items:
        if isinstance(item.puzzle, Sudoku):
            rng = random.Random(f"{seed}:{item.puzzle_id}")
            puzzle = scramble_sudoku(item.puzzle, rng)
            item = InputItem(item.set_name, item.line, puzzle=puzzle, parse_time=item.parse_time,
                             puzzle_hash=puzzle_hash(puzzle))
        out.append(item)
    return out


def from_puzzles(set_name: str, puzzles: Iterable[Puzzle]) -> list[InputItem]:
    """Items for puzzles built in memory (the default set, generated puzzles)."""
    return [InputItem(set_name, n, puzzle=p, puzzle_hash=puzzle_hash(p))
            for n, p in enumerate(puzzles, start=1)]
