"""What every puzzle kind is: a grid of cells with givens, rules in the shared vocabulary,
a checker that needs no solver, and ways to write itself and its solutions."""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cached_property
from typing import ClassVar, Sequence

from .vocabulary import Rules

Solution = tuple[int, ...]
"""A solution of any kind: the value of every cell, in cell order (N-Queens: a row's value is
its queen's column, 1-based)."""


class Puzzle(ABC):
    """One puzzle instance.

    ``givens`` holds a value per cell (``0`` = empty).  ``source`` says where it was read
    (``file:line``), ``form`` in which textual form (so it is written back the same way), and
    ``metadata`` keeps the extra fields of a data line (a reference solution, ``nsol=…``).
    Constructors validate: an instance whose givens break a rule is never built
    (:class:`~puzzlebench.errors.InvalidPuzzleError`).
    """

    kind: ClassVar[str]
    minizinc_parts: ClassVar[tuple[str, ...]] = ()
    """The parts of the kind's parametric MiniZinc model, in order (``encoders/minizinc.PARTS``:
    ``grid`` or ``queens`` first, then ``rows``, ``columns``, ``blocks``, ``regions``, ``cages``,
    …); a kind with none is refused by the MiniZinc exports."""

    missing_solution: ClassVar[str] = "no solution given after the puzzle"
    """What ``check`` says of a puzzle read without its solution: where the solution goes."""

    givens: tuple[int, ...]
    source: str | None
    form: str
    metadata: dict[str, str]

    @property
    @abstractmethod
    def n_values(self) -> int: ...

    @property
    def n_cells(self) -> int:
        return len(self.givens)

    @property
    @abstractmethod
    def shape(self) -> str:
        """A short description of the size: ``9x9 (3x3 blocks)``, ``8-queens``, ``5x5``."""

    @cached_property
    def rules(self) -> Rules:
        return self._rules()

    @abstractmethod
    def _rules(self) -> Rules: ...

    @abstractmethod
    def check(self, solution: Sequence[int]) -> list[str]:
        """Every rule ``solution`` breaks, in words (empty when it is a valid solution of this
        puzzle).  Written directly from the puzzle's definition, not from :attr:`rules`."""

    @abstractmethod
    def format_solution(self, solution: Sequence[int]) -> str:
        """A solution as the data files write it (one line)."""

    @abstractmethod
    def pretty(self, solution: Sequence[int] | None = None) -> str:
        """A grid for people: the puzzle, or ``solution`` when given."""

    @abstractmethod
    def write(self) -> str:
        """The puzzle in its input's own form."""

    def write_generated(self, note: str = "") -> str:
        """The puzzle as ``generate`` writes it, read back by every reader and verified by
        ``check``: its line, then its solution (``metadata['solution']``) where it has one.
        ``note`` (the seed and the place in the run) is for forms that hold a comment."""
        solution = self.metadata.get("solution")
        return f"{self.write()} {solution}" if solution else self.write()

    @abstractmethod
    def parse_solution(self, text: str) -> Solution:
        """Read a solution written as :meth:`format_solution` writes it (the reference
        solutions of the data files)."""

    def cell_name(self, cell: int) -> str:
        return self.rules.cell_name(cell)

    # -- what the encoders ask of a kind ---------------------------------------------------

    def structure(self) -> tuple:
        """What the puzzle's rules depend on besides its givens: puzzles of one structure
        share an encoding, which the encoders build once and cache under this key.  The
        default is the rules themselves; a kind whose rules follow from a few numbers says so."""
        return (self.kind, self.n_cells, self.n_values, self.rules.constraints)

    def header(self) -> dict[str, str]:
        """What an exported file must say, besides the kind and the givens, to rebuild the
        puzzle (:meth:`from_header`): a Sudoku's block shape, a Skyscrapers' clues."""
        return {}

    @classmethod
    @abstractmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "Puzzle":
        """The puzzle an exported file's header describes (:meth:`header`'s fields)."""

    def __repr__(self) -> str:
        where = f" from {self.source}" if self.source else ""
        return f"<{type(self).__name__} {self.shape}{where}>"
