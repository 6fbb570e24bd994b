"""Skyscrapers (Towers): an N x N Latin square of heights 1..N with visibility clues on the four
sides (0 = no clue) and optional givens.

A clue counts the towers seen from its side: a tower is seen when it is taller than every
tower in front of it.  ``top``/``bottom`` run over columns left to right, ``left``/``right`` over
rows top to bottom (the convention of ../shared/data).
"""

from __future__ import annotations

from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, UnsupportedShapeError
from .base import Puzzle, Solution
from .vocabulary import AllDifferent, ExactlyOne, Rules, Visibility, candidate, visible_count

MAX_N = 9
SIDES = ("top", "bottom", "left", "right")


class Skyscrapers(Puzzle):
    kind = "skyscrapers"

    def __init__(self, n: int, top: Sequence[int], bottom: Sequence[int], left: Sequence[int],
                 right: Sequence[int], givens: Sequence[int] | None = None, *,
                 source: str | None = None, form: str = "line",
                 metadata: dict[str, str] | None = None):
        if not 1 <= n <= MAX_N:
            raise UnsupportedShapeError(f"Skyscrapers needs 1 <= N <= {MAX_N}; got {n}", Place(source))
        self.n = n
        self.source = source
        self.form = form
        self.metadata = dict(metadata or {})
        self.clues = {}
        for side, clues in zip(SIDES, (top, bottom, left, right)):
            clues = tuple(int(c) for c in clues)
            if len(clues) != n:
                raise ParseError(f"{side} clues: expected {n} numbers, got {len(clues)}", Place(source))
            for c in clues:
                if not 0 <= c <= n:
                    raise InvalidPuzzleError(f"{side} clue {c} > N={n}" if c > n
                                             else f"{side} clue {c} is negative", Place(source))
            self.clues[side] = clues
        self.givens = tuple(int(v) for v in givens) if givens else (0,) * (n * n)
        if len(self.givens) != n * n:
            raise ParseError(f"givens: expected {n * n} heights, got {len(self.givens)}", Place(source))
        self._validate()

    @property
    def top(self): return self.clues["top"]

    @property
    def bottom(self): return self.clues["bottom"]

    @property
    def left(self): return self.clues["left"]

    @property
    def right(self): return self.clues["right"]

    @property
    def n_values(self) -> int:
        return self.n

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n}"

    def lines(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """Every clue line as ``(name, clue, cells listed from the viewer outwards)``, clue 0
        included."""
        n = self.n
        out = []
        for j in range(n):
            col = tuple(i * n + j for i in range(n))
            out.append((f"top clue of column {j + 1}", self.top[j], col))
            out.append((f"bottom clue of column {j + 1}", self.bottom[j], col[::-1]))
        for i in range(n):
            row = tuple(i * n + j for j in range(n))
            out.append((f"left clue of row {i + 1}", self.left[i], row))
            out.append((f"right clue of row {i + 1}", self.right[i], row[::-1]))
        return out

    def _rules(self) -> Rules:
        n = self.n
        names = tuple(f"r{i // n + 1}c{i % n + 1}" for i in range(n * n))
        cells = tuple(ExactlyOne(tuple(candidate(c, v, n) for v in range(1, n + 1)), f"cell {names[c]}")
                      for c in range(n * n))
        rows = tuple(AllDifferent(tuple(i * n + j for j in range(n)), f"row {i + 1}") for i in range(n))
        cols = tuple(AllDifferent(tuple(i * n + j for i in range(n)), f"column {j + 1}") for j in range(n))
        vis = tuple(Visibility(cells_, clue, name) for name, clue, cells_ in self.lines() if clue)
        return Rules(n * n, n, self.givens, cells + rows + cols + vis, names)

    def _validate(self) -> None:
        n = self.n
        for c, v in enumerate(self.givens):
            if not 0 <= v <= n:
                raise InvalidPuzzleError(f"r{c // n + 1}c{c % n + 1} has height {v}, outside 1..{n}",
                                         Place(self.source))
        for i in range(n):
            for what, cells in ((f"row {i + 1}", range(i * n, i * n + n)),
                                (f"column {i + 1}", range(i, n * n, n))):
                vals = [self.givens[c] for c in cells if self.givens[c]]
                for v in vals:
                    if vals.count(v) > 1:
                        raise InvalidPuzzleError(f"{what} has two {v}s", Place(self.source))

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.n
        if len(solution) != n * n:
            return [f"expected {n * n} heights, got {len(solution)}"]
        problems = [f"r{c // n + 1}c{c % n + 1} = {v} is not a height 1..{n}"
                    for c, v in enumerate(solution) if not (isinstance(v, int) and 1 <= v <= n)]
        if problems:
            return problems
        problems += [f"r{c // n + 1}c{c % n + 1} is given as {g}, solution has {solution[c]}"
                     for c, g in enumerate(self.givens) if g and g != solution[c]]
        grid = [list(solution[i * n:(i + 1) * n]) for i in range(n)]
        for i in range(n):
            if sorted(grid[i]) != list(range(1, n + 1)):
                problems.append(f"row {i + 1} is not a permutation of 1..{n}")
            col = [grid[r][i] for r in range(n)]
            if sorted(col) != list(range(1, n + 1)):
                problems.append(f"column {i + 1} is not a permutation of 1..{n}")
        for name, clue, cells in self.lines():
            if clue:
                seen = visible_count([solution[c] for c in cells])
                if seen != clue:
                    problems.append(f"{name} is {clue}, {seen} seen")
        return problems

    def format_solution(self, solution: Sequence[int]) -> str:
        return ",".join(str(v) for v in solution)

    def parse_solution(self, text: str) -> Solution:
        try:
            return tuple(int(t) for t in text.strip().split(","))
        except ValueError:
            raise ParseError(f"a Skyscrapers solution is {self.n * self.n} comma-separated heights") from None

    def write(self) -> str:
        fields = [str(self.n)] + [",".join(map(str, self.clues[s])) for s in SIDES]
        if any(self.givens):
            fields.append(",".join(map(str, self.givens)))
        fields += [f"{k}={v}" for k, v in self.metadata.items() if not k.startswith("_")]
        return " ".join(fields)

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        n = self.n
        values = self.givens if solution is None else solution
        clue = lambda c: str(c) if c else " "
        lines = ["    " + " ".join(clue(c) for c in self.top), "   +" + "-" * (2 * n - 1) + "+"]
        for i in range(n):
            row = " ".join(str(v) if v else "." for v in values[i * n:(i + 1) * n])
            lines.append(f" {clue(self.left[i])} |{row}| {clue(self.right[i])}")
        lines += ["   +" + "-" * (2 * n - 1) + "+", "    " + " ".join(clue(c) for c in self.bottom)]
        return "\n".join(lines)
