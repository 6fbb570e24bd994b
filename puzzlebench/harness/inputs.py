"""What a bench runs on: the puzzles of its files (or the embedded default set), each with a
stable identity for the database.

A puzzle's identity is ``puzzle_id`` (``set:line``, where ``set`` is the file's name) plus
``puzzle_hash`` (SHA-1 of its kind, shape and text): the same file read twice gives the same
keys, so ``--resume`` knows what is already done, and a scrambled puzzle (another text) never
passes for the original.  A line that is not a puzzle becomes a :class:`Record` holding
its :class:`~puzzlebench.errors.PuzzleError`, recorded as an error; the rest still run.
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from ..errors import UsageError
from ..models.base import Puzzle
from ..models.reader import Record, read_records, text_lines


def read_file(path: str, *, kind: str | None = None, box: str | None = None) -> list[Record]:
    """Every record of a puzzle file, in order.  An unreadable file is a usage error; a file
    mixing puzzle kinds too (each set must be one kind, so that its table means something)."""
    name = set_name(path)
    try:
        with open(path, "rb") if path != "-" else contextlib.nullcontext(sys.stdin.buffer) as stream:
            records = list(read_records(text_lines(stream), name, kind=kind, box=box))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    check_one_kind(path, records)
    return records


def set_name(path: str) -> str:
    """The set a file's puzzles belong to: its file's name (``-``: ``stdin``)."""
    return "stdin" if path == "-" else Path(path).name


def check_set_names(paths: Iterable[str]) -> None:
    """Each file of a bench its own set: two files of the same name (or one named twice) would
    be one set whose puzzle ids (``set:line``) meet twice, each line's pair stored twice."""
    seen: dict[str, str] = {}
    for path in paths:
        name = set_name(path)
        if name in seen:
            if seen[name] == path:
                raise UsageError(f"{path} is named twice: a bench reads each file once")
            raise UsageError(f"{seen[name]} and {path} would both be the set {name!r} (a set is named by its "
                             "file's name): rename one")
        seen[name] = path


def check_one_kind(path: str, items: Iterable[Record]) -> None:
    first: dict[str, int] = {}
    for item in items:
        if item.puzzle is not None:
            first.setdefault(item.puzzle.kind, item.line)
    if len(first) > 1:
        listed = ", ".join(f"{k} (first on line {line})" for k, line in sorted(first.items(), key=lambda x: x[1]))
        raise UsageError(f"{path} mixes puzzle kinds: {listed}; a bench set must hold one kind "
                         "(split the file, or give --kind to read every line as one kind)")


def sample(items: list[Record], k: int | None, seed: int) -> list[Record]:
    """A reproducible sample of ``k`` records of one file (all when ``k`` is None or larger),
    kept in file order.  The generator is seeded with the seed and the set's name, so each
    file's sample does not depend on which other files are benched."""
    if k is None or k >= len(items):
        return items
    rng = random.Random(f"{seed}:{items[0].set_name}" if items else seed)
    chosen = sorted(rng.sample(range(len(items)), k))
    return [items[i] for i in chosen]


def scramble_items(items: list[Record], seed: int, option: str = "--scramble") -> list[Record]:
    """Every Sudoku replaced by a random equivalent (see :mod:`.scramble`), seeded per puzzle
    by the seed and its id, so that a resumed run scrambles the same way.  The symmetries are
    Sudoku's: a set with no Sudoku is refused (``option`` names the request in the error), and
    the puzzles of other kinds among Sudoku run as read, a warning on stderr says how many."""
    from ..models.sudoku import Sudoku
    from .scramble import scramble_sudoku
    out, left, scrambled = [], Counter(), 0
    for item in items:
        if isinstance(item.puzzle, Sudoku):
            scrambled += 1
            rng = random.Random(f"{seed}:{item.puzzle_id}")
            puzzle = scramble_sudoku(item.puzzle, rng)
            item = replace(item, puzzle=puzzle)
        elif item.puzzle is not None:
            left[item.puzzle.kind] += 1
        out.append(item)
    if left:
        kinds = ", ".join(f"{k} ({n})" for k, n in sorted(left.items()))
        if not scrambled:
            raise UsageError(f"{option} applies Sudoku symmetries (digits, rows, columns, bands); "
                             f"these puzzles have none: {kinds}")
        print(f"puzzlebench: warning: {option} scrambles Sudoku only; {sum(left.values())} puzzles run "
              f"as read: {kinds}", file=sys.stderr)
    return out


def from_puzzles(set_name: str, puzzles: Iterable[Puzzle]) -> list[Record]:
    """Records of puzzles built in memory (the default set, generated puzzles)."""
    return [Record(f"{set_name}:{n}", puzzle=p, set_name=set_name, line=n)
            for n, p in enumerate(puzzles, start=1)]
