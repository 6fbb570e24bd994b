"""A kind is one entry: a toy kind defined here, registered with one call, is read, solved by
every generic engine, exported, generated and shown through the command line, with no edit
anywhere else in the package.

The toy: a *diagonal Latin square* of order N (rows, columns and both long diagonals each hold
1..N once), written ``diag:N:`` and its cells row by row, ``.`` for an empty one.  Order 4
has 48 squares (OEIS A274171), counted again here by brute force."""

import itertools
import math
import random
import re
from xml.etree import ElementTree

import pytest

from puzzlebench.cli import main
from puzzlebench.errors import ParseError, Place
from puzzlebench.generators.fill import random_filling
from puzzlebench.generators.kinds import dig_minimal
from puzzlebench.models.base import Puzzle, Solution
from puzzlebench.models.examples import Example
from puzzlebench.models.kinds import KIND_NAMES, Kind, kind_entry, register_kind, unregister_kind
from puzzlebench.models.reader import parse
from puzzlebench.models.svg import Figure
from puzzlebench.models.vocabulary import grid_rules
from puzzlebench.results import Status
from puzzlebench.engines import registry


def diagonal_units(n: int) -> list[tuple[str, tuple[int, ...]]]:
    rows = [(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    columns = [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    return rows + columns + [("diagonal", tuple(i * n + i for i in range(n))),
                             ("anti-diagonal", tuple(i * n + n - 1 - i for i in range(n)))]


class DiagonalLatin(Puzzle):
    kind = "diag-latin"

    def __init__(self, n: int, givens, *, source=None, form="line", metadata=None):
        if len(givens) != n * n:
            raise ParseError(f"a diag:{n} has {n * n} cells; got {len(givens)}", Place(source))
        self.n, self.givens = n, tuple(givens)
        self.source, self.form, self.metadata = source, form, dict(metadata or {})

    @property
    def n_values(self) -> int:
        return self.n

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n}"

    def _rules(self):
        return grid_rules(self.n, self.givens, diagonal_units(self.n))

    def check(self, solution) -> list[str]:
        out = [f"r{c // self.n + 1}c{c % self.n + 1} is not its given" for c, g in enumerate(self.givens)
               if g and solution[c] != g]
        return out + [f"{name} repeats a value" for name, cells in diagonal_units(self.n)
                      if len({solution[c] for c in cells}) != self.n]

    def format_solution(self, solution) -> str:
        return "".join(map(str, solution))

    def parse_solution(self, text: str) -> Solution:
        return tuple(int(ch) for ch in text.strip())

    def write(self) -> str:
        return f"diag:{self.n}:" + "".join(str(v) if v else "." for v in self.givens)

    def write_solution(self, solution) -> str:
        return self.format_solution(solution)

    def pretty(self, solution=None) -> str:
        values = self.givens if solution is None else solution
        return "\n".join(" ".join(str(v) if v else "." for v in values[r * self.n:(r + 1) * self.n])
                         for r in range(self.n))

    def drawing(self, solution=None) -> str:
        """The toy's own drawing, on the shared toolkit: its grid, its two diagonals, its values."""
        figure = Figure(self.n, self.n, kind=self.kind)
        figure.grid()
        for name, cells in diagonal_units(self.n)[-2:]:
            figure.diagonal(cells)
        figure.values(self.givens, solution)
        return figure.svg()

    @classmethod
    def from_header(cls, fields, givens, source=None):
        return cls(math.isqrt(len(givens)), givens, source=source)

    @classmethod
    def claims(cls, text: str) -> bool:
        return text.strip().startswith("diag:")

    @classmethod
    def read_text(cls, text: str, *, box=None, source=None):
        found = re.fullmatch(r"\s*diag:(\d):([.1-9]+)(?:\s+(\d+))?\s*", text)
        if found is None:
            raise ParseError("expected 'diag:N:' and its cells, '.' for an empty one", Place(source))
        n, cells, solution = found.groups()
        puzzle = cls(int(n), [0 if ch == "." else int(ch) for ch in cells], source=source)
        if solution:
            puzzle.metadata["solution"] = solution
        return puzzle


def generate_diagonal(n: int, rng: random.Random, counter, options) -> DiagonalLatin:
    """A random diagonal Latin square, its cells dug to a minimal unique puzzle."""
    units = [cells for _, cells in diagonal_units(n)]
    solution = random_filling(n, units, rng)
    kept = dig_minimal(list(range(n * n)), rng,
                       lambda cells: DiagonalLatin(n, [v if c in set(cells) else 0 for c, v in enumerate(solution)]),
                       counter)
    puzzle = DiagonalLatin(n, [v if c in set(kept) else 0 for c, v in enumerate(solution)])
    puzzle.metadata["solution"] = puzzle.format_solution(solution)
    return puzzle


@pytest.fixture(autouse=True, scope="module")
def diagonal_latin_kind():
    """The one call that makes the toy a kind, undone after this module's tests so that the
    tests of the built-in kinds see only those."""
    register_kind(Kind("diag-latin", DiagonalLatin, generator=f"{__name__}:generate_diagonal", shape="size",
                       default_shape=4, drawing="drawing",
                       examples=(Example("diag-row", "diag-latin", ONE_GIVEN_ROW, "a first row given", solutions=2),)))
    yield
    unregister_kind("diag-latin")

EMPTY = "diag:4:" + "." * 16
ONE_GIVEN_ROW = "diag:4:1234" + "." * 12
SVG = "{http://www.w3.org/2000/svg}"
GENERIC_ENGINES = ["mrv", "backtrack", "dlx", "dlx-py", "sat", "cpsat", "smt", "quine"]


def brute_force_count(text: str) -> int:
    n = 4
    givens = DiagonalLatin.read_text(text).givens
    count = 0
    for rows in itertools.product(itertools.permutations(range(1, n + 1)), repeat=n):
        grid = [v for row in rows for v in row]
        if all(g in (0, v) for g, v in zip(givens, grid)) and not DiagonalLatin(n, givens).check(grid):
            count += 1
    return count


def test_the_registered_kind_is_known_everywhere_it_is_named():
    assert "diag-latin" in KIND_NAMES
    assert all("diag-latin" in registry.make_engine(family).kinds for family in GENERIC_ENGINES)


def test_the_reader_reads_it_unasked():
    puzzle = parse(ONE_GIVEN_ROW)
    assert isinstance(puzzle, DiagonalLatin) and puzzle.givens[:5] == (1, 2, 3, 4, 0)


@pytest.mark.parametrize("family", GENERIC_ENGINES)
def test_every_generic_engine_counts_its_solutions(family):
    engine = registry.make_engine(family)
    for text, expected in ((EMPTY, 48), (ONE_GIVEN_ROW, brute_force_count(ONE_GIVEN_ROW))):
        result = engine.run(parse(text), limit=0)
        assert result.count == expected, (family, text, result.error)
        assert all(not parse(text).check(s) for s in result.solutions)


def test_the_brute_force_agrees_with_oeis():
    assert brute_force_count(EMPTY) == 48


def test_it_exports_to_dlx_and_dimacs_and_the_exports_solve(tmp_path, capsys):
    """The exported exact cover has the brute force's count of solutions; the CNF is
    satisfiable and its header names the kind (so that ``decode`` can rebuild the puzzle)."""
    path = tmp_path / "p.txt"
    path.write_text(ONE_GIVEN_ROW + "\n")
    assert main(["export", str(path), "--to", "dlx", "-o", str(tmp_path / "p.dlx")]) == 0
    assert main(["solve-xc", str(tmp_path / "p.dlx"), "--limit", "0", "--show", "0"]) == 0
    assert capsys.readouterr().out.startswith(f"{brute_force_count(ONE_GIVEN_ROW)} solutions;")
    assert main(["export", str(path), "--to", "dimacs", "-o", str(tmp_path / "p.cnf")]) == 0
    assert "diag-latin" in (tmp_path / "p.cnf").read_text().split("p cnf")[0]
    main(["solve-cnf", str(tmp_path / "p.cnf")])
    assert "s SATISFIABLE" in capsys.readouterr().out.splitlines()


def test_it_is_generated_and_shown_through_the_command_line(tmp_path, capsys):
    out = tmp_path / "made.txt"
    assert main(["generate", "diag-latin", "--count", "3", "--seed", "7", "--quiet", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and all(line.startswith("diag:4:") for line in lines)
    mrv = registry.make_engine("mrv")
    for line in lines:
        puzzle = parse(line)
        assert mrv.run(puzzle).status is Status.UNIQUE
        assert puzzle.check(puzzle.parse_solution(puzzle.metadata["solution"])) == []
    again = tmp_path / "again.txt"
    assert main(["generate", "diag-latin", "--count", "3", "--seed", "7", "--quiet", "--out", str(again)]) == 0
    assert again.read_text() == out.read_text()
    capsys.readouterr()
    assert main(["show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "diag-latin 4x4" in shown and parse(lines[0]).pretty() in shown


def test_its_example_is_listed_and_shown(capsys):
    assert main(["show", "--example", "list"]) == 0
    assert "diag-row: diag-latin 4x4" in capsys.readouterr().out.splitlines()
    assert main(["show", "--example", "diag-row"]) == 0
    assert "1 2 3 4" in capsys.readouterr().out.splitlines()


def test_its_bad_text_is_a_clear_error_with_its_place(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("diag:4:12x4\n")
    assert main(["show", str(path), "--kind", "diag-latin"]) != 0
    captured = capsys.readouterr()
    assert f"{path}:1: error: expected 'diag:N:' and its cells, '.' for an empty one" in captured.out
    assert "Traceback" not in captured.err


def test_it_is_drawn_through_its_entry():
    """Its entry's ``drawing`` names the method; the shared toolkit draws what it asks for."""
    puzzle = parse(ONE_GIVEN_ROW)
    solution = registry.make_engine("mrv").run(puzzle).solutions[0]
    root = ElementTree.fromstring(kind_entry("diag-latin").draw(puzzle, solution))
    assert root.get("data-kind") == "diag-latin"
    assert [(t.get("data-cell"), t.text) for t in root.iter(SVG + "text") if t.get("class") == "given"] == \
        [("r1c1", "1"), ("r1c2", "2"), ("r1c3", "3"), ("r1c4", "4")]
    solved = {t.get("data-cell"): int(t.text) for t in root.iter(SVG + "text") if t.get("class") == "solved"}
    assert len(solved) == 12 and all(solution[(int(c[1]) - 1) * 4 + int(c[3]) - 1] == v for c, v in solved.items())
    assert [d.get("data-cells") for d in root.iter(SVG + "line") if d.get("class") == "diagonal"] == \
        ["r1c1 r2c2 r3c3 r4c4", "r1c4 r2c3 r3c2 r4c1"]
