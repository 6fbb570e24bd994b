"""The numbers a user gives, checked once: whole numbers within what C and SQLite take,
finite reals, durations with units (``250ms``, ``90s``, ``15min``, ``1.5h``), memory
sizes with units (``512MiB``, ``2GiB``, ``1.5GB``) and Sudoku block shapes (``3x4``).  A
bare number keeps its old meaning: seconds for a duration, MiB (2^20 bytes) for a memory
size.

Each type reads a command-line text (:meth:`Checked.read`, the CLI's argparse ``type=``)
and checks a Python value (:meth:`Checked.check`: the API, campaign files); a mistake is a
one-line :class:`UsageError` naming the option and the value (a value of the wrong Python
type, a :class:`TypeError`).  ``bounds`` is what ``--help`` shows.
"""

from __future__ import annotations

import argparse
import math
import operator
import re
from dataclasses import dataclass
from typing import NoReturn

from .errors import UsageError

INT32_MAX = 2 ** 31 - 1   # C's int: a kept-solutions count (the native engines' "i")
INT64_MAX = 2 ** 63 - 1   # C's long long (the native engines' solution limit, "L") and SQLite's INTEGER
MAX_TIME_LIMIT = 1e6
"""The longest time limit taken: a child's limit (the time limit plus 10% + 0.3 s) waited for
in milliseconds must fit poll()'s C int (2^31 ms, 24.8 days)."""
MAX_REPEAT = 1000   # runs of each (puzzle, solver) pair: the task list is made up front

DURATION_UNITS = {"ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}
MEMORY_UNITS = {"B": 1, "KB": 10 ** 3, "MB": 10 ** 6, "GB": 10 ** 9, "TB": 10 ** 12,
                "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "TiB": 2 ** 40}
MIB = 2 ** 20
_NUMBER_AND_UNIT = re.compile(r"\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?[A-Za-z]+)\s*(\S*)\s*")


def _whole_text(n: int) -> str:
    return {INT32_MAX: "2^31-1", INT64_MAX: "2^63-1", -INT64_MAX - 1: "-2^63"}.get(n, str(n))


def _number_text(x: float) -> str:
    return f"{x:.0f}" if x == int(x) and abs(x) < 1e15 else f"{x:g}"


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{type(value).__name__} {text[:30]}…"


class Checked:
    """A checked number type: ``read`` (a text) and ``check`` (a value) return the number or
    raise a one-line :class:`UsageError` ``NAME VALUE: problem``."""

    bounds = ""

    def read(self, text: str, name: str):
        raise NotImplementedError

    def check(self, value, name: str):
        raise NotImplementedError

    def __call__(self, text: str):
        """argparse's ``type=`` where the parser cannot name the option (the CLI's parser
        calls :meth:`read` with it)."""
        try:
            return self.read(text, "")
        except UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc).lstrip()) from None

    def fail(self, name: str, value, problem: str) -> NoReturn:
        raise UsageError(f"{name} {value}: {problem}".lstrip())


@dataclass(frozen=True, eq=False)   # hashed by identity: argparse looks types up in a dict
class Whole(Checked):
    """A whole number from ``least`` to ``most``."""

    least: int
    most: int

    @property
    def bounds(self) -> str:
        return f"{_whole_text(self.least)}..{_whole_text(self.most)}"

    def read(self, text: str, name: str) -> int:
        if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
            self.fail(name, text, "not a whole number")
        return self._within(int(text), name, text.strip())

    def check(self, value, name: str) -> int:
        if isinstance(value, bool) or isinstance(value, float):
            raise TypeError(f"{name} must be a whole number (int); got {value!r}")
        try:
            number = operator.index(value)
        except TypeError:
            raise TypeError(f"{name} must be a whole number (int); got {_shown(value)}") from None
        return self._within(number, name, number)

    def _within(self, number: int, name: str, shown) -> int:
        if not self.least <= number <= self.most:
            self.fail(name, shown, f"out of range: a whole number from {self.bounds.replace('..', ' to ')}")
        return number


@dataclass(frozen=True, eq=False)   # hashed by identity: argparse looks types up in a dict
class Real(Checked):
    """A finite number from ``least`` to ``most`` (more than ``least`` when ``above``)."""

    least: float = -math.inf
    most: float = math.inf
    above: bool = False

    @property
    def bounds(self) -> str:
        return self._range_words().replace("a number ", "").replace("a number", "finite")

    def read(self, text: str, name: str) -> float:
        try:
            number = float(text)
        except ValueError:
            self.fail(name, text, "not a number")
        return self._within(number, name, text.strip())

    def check(self, value, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name} must be a number; got {value!r}")
        return self._within(float(value), name, value)

    def _within(self, number: float, name: str, shown) -> float:
        if not math.isfinite(number):
            self.fail(name, shown, "not a finite number")
        low_ok = number > self.least if self.above else number >= self.least
        if not (low_ok and number <= self.most):
            self.fail(name, shown, f"out of range: {self._range_words()}")
        return number

    def _range_words(self) -> str:
        low = "" if self.least == -math.inf else f"{'more than' if self.above else 'from'} {_number_text(self.least)}"
        high = "" if self.most == math.inf else f"{'to' if low else 'at most'} {_number_text(self.most)}"
        if self.least != -math.inf and self.most == math.inf:
            low = f"{'more than' if self.above else ''} {_number_text(self.least)}{'' if self.above else ' or more'}"
        return " ".join(f"a number {low} {high}".split())


@dataclass(frozen=True, eq=False)   # hashed by identity: argparse looks types up in a dict
class _WithUnit(Checked):
    """A number with an optional unit, as a multiple of the bare number's unit."""

    units: dict
    bare: str        # the unit of a bare number
    most: float      # in the bare number's unit
    what: str        # "a duration", "a memory size"
    examples: str
    most_text: str = ""

    def read(self, text: str, name: str) -> float:
        found = _NUMBER_AND_UNIT.fullmatch(text)
        if not found:
            self.fail(name, repr(text) if not text.strip() else text, f"not {self.what}: {self.hint()}")
        number, unit = found[1], found[2]
        try:
            value = float(number)
        except ValueError:
            self.fail(name, text.strip(), f"not {self.what}: {self.hint()}")
        if unit and unit not in self.units:
            self.fail(name, text.strip(), f"unknown unit {unit!r}: {self.hint()}")
        scale = self.units[unit] / self.units[self.bare] if unit else 1.0
        return self._within(value, scale, name, text.strip())

    def check(self, value, name: str) -> float:
        if isinstance(value, str):
            return self.read(value, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name} must be a number ({self.bare}) or a text with a unit ({self.examples}); "
                            f"got {value!r}")
        return self._within(float(value), 1.0, name, value)

    def _within(self, value: float, scale: float, name: str, shown) -> float:
        if not math.isfinite(value):
            self.fail(name, shown, f"not a finite {self.what[2:]}")
        if value < 0 or value * scale > self.most:
            self.fail(name, shown, f"out of range: from 0 to {self._most()}")
        return value * scale

    def hint(self) -> str:
        return (f"a number ({self.bare}) or one with a unit: {', '.join(self.units)} "
                f"(e.g. {self.examples})")

    @property
    def bounds(self) -> str:
        return f"0..{self._most()}; units {', '.join(self.units)}"

    def _most(self) -> str:
        return self.most_text or f"{_number_text(self.most)} {self.bare}"


@dataclass(frozen=True, eq=False)   # hashed by identity: argparse looks types up in a dict
class BlockShape(Checked):
    """A Sudoku block shape, rows x columns: a text ``RxC`` (``3x4``), or from Python a pair
    of whole numbers (``(3, 4)``; a list of two, as JSON and TOML write a pair, is one too),
    each 1 or more (how many values a kind takes is the kind's to say); a ``bool`` is not a
    number of rows."""

    def read(self, text: str, name: str) -> tuple[int, int]:
        found = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", text)
        if not found:
            self.fail(name, repr(text), "expected RxC, e.g. 3x3 or 2x3")
        return self._within(int(found[1]), int(found[2]), name, repr(text))

    def check(self, value, name: str) -> tuple[int, int]:
        if isinstance(value, str):
            return self.read(value, name)
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"{name} must be a block shape, 'RxC' or a pair (rows, columns); got {_shown(value)}")
        if len(value) != 2:
            self.fail(name, _shown(tuple(value)), "expected a pair (rows, columns), e.g. (3, 3)")
        for part, what in zip(value, ("rows", "columns")):
            if isinstance(part, bool) or not isinstance(part, int):
                raise TypeError(f"{name} {what} must be a whole number (int); got {_shown(part)}")
        return self._within(value[0], value[1], name, _shown(tuple(value)))

    def _within(self, rows: int, columns: int, name: str, shown) -> tuple[int, int]:
        if rows < 1 or columns < 1:
            self.fail(name, shown, "a block has 1 row and 1 column or more")
        return rows, columns


def duration(most: float = MAX_TIME_LIMIT) -> _WithUnit:
    """Seconds: a bare number, or one with a unit (ms, s, min, h)."""
    return _WithUnit(DURATION_UNITS, "s", most, "a duration", "250ms, 90s, 15min, 1.5h")


def memory_size(most_mib: float = INT64_MAX / MIB) -> _WithUnit:
    """MiB (2^20 bytes): a bare number, or one with a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)."""
    return _WithUnit(MEMORY_UNITS, "MiB", most_mib, "a memory size", "512MiB, 2GiB, 1.5GB",
                     most_text="2^63-1 bytes" if most_mib == INT64_MAX / MIB else "")


LIMIT = Whole(0, INT64_MAX)     # solutions to look for, 0 = all: the native engines' long long
KEEP = Whole(1, INT32_MAX)      # solutions kept: the native engines' int; a solved result keeps the one verified
SHOW = Whole(0, INT32_MAX)      # solutions printed (solve-xc), passed as the kept ones
SEED = Whole(0, INT64_MAX)      # stored in SQLite with the run's settings
COUNT = Whole(1, INT64_MAX)     # puzzles asked for, sampled, tried; a 1-based position
SIZE = Whole(1, INT32_MAX)      # a grid's side; workers; cross-validation folds are checked where used
AMOUNT = Whole(0, INT32_MAX)    # clues, pre-placed queens
REPEAT = Whole(1, MAX_REPEAT)
MAX_ENGINE_SEED = 2_000_000_000   # CaDiCaL's --seed takes no more; CP-SAT's random_seed is a 32-bit int
ENGINE_SEED = Whole(0, MAX_ENGINE_SEED)
JOBS = Whole(1, INT32_MAX)      # capped by the machine's cores where the pool is made
MAX_THREADS = 256   # native threads a batch call is split over (native/pb_threads.h: PB_MAX_THREADS)
THREADS = Whole(0, MAX_THREADS)   # 0: every core this process may run on
TIME = duration()
MEMORY = memory_size()
FRACTION = Real(0.0, 1.0)
FINITE = Real()
POSITIVE = Real(0.0, above=True)
NON_NEGATIVE = Real(0.0)
BOX = BlockShape()
