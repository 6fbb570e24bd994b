"""Every kind's drawing read back with ``xml.etree`` and held to its model: the givens and
solved values in their cells, the bold borders exactly between cells of different blocks or
regions, one cage outline a cage with its sum or target, a sign a relation, a clue a
clue, the diagonals, a Sukaku's pencil marks."""

from xml.etree import ElementTree

import pytest

from puzzlebench.models.examples import example
from puzzlebench.models.kinds import kind_entry
from puzzlebench.models.reader import parse
from puzzlebench.models.sudoku import block_map
from puzzlebench.models.sukaku import sukaku_line
from puzzlebench.models.svg import Figure, text_figure
from puzzlebench.solvers.registry import make_engine

SVG = "{http://www.w3.org/2000/svg}"


def drawn(puzzle, solution=None) -> ElementTree.Element:
    return ElementTree.fromstring(kind_entry(puzzle.kind).draw(puzzle, solution))


def of_class(root, cls: str) -> list[ElementTree.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def name(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def values_of(root, cls: str) -> dict[str, int]:
    return {e.get("data-cell"): int(e.get("data-value")) for e in of_class(root, cls)}


def expected_values(givens, solution, n) -> tuple[dict, dict]:
    given = {name(c, n): v for c, v in enumerate(givens) if v}
    solved = {name(c, n): v for c, v in enumerate(solution) if not givens[c]} if solution else {}
    return given, solved


def bold_edges(root) -> set[frozenset]:
    return {frozenset(e.get("data-between").split()) for e in of_class(root, "bold-edge")}


def region_edges(region_of, n) -> set[frozenset]:
    """The edges between neighbours of different regions, from the model's own map."""
    out = set()
    for c in range(n * n):
        for d in ((1,) if c % n + 1 < n else ()) + ((n,) if c + n < n * n else ()):
            if region_of[c] != region_of[c + d]:
                out.add(frozenset((name(c, n), name(c + d, n))))
    return out


def solved(puzzle):
    return make_engine("mrv").run(puzzle).solutions[0]


@pytest.mark.parametrize("example_name", ["arto-inkala", "sudoku6", "sudoku12", "course-4x4"])
def test_a_sudoku_of_any_block_shape_has_its_blocks_and_values(example_name):
    puzzle = example(example_name)
    solution = solved(puzzle)
    n = puzzle.size
    root = drawn(puzzle, solution)
    assert root.get("data-kind") == "sudoku"
    assert bold_edges(root) == region_edges(block_map(*puzzle.box), n)
    given, solved_values = expected_values(puzzle.givens, solution, n)
    assert values_of(root, "given") == given
    assert values_of(root, "solved") == solved_values
    assert not of_class(drawn(puzzle), "solved")


def test_the_text_of_a_value_is_the_value():
    root = drawn(example("sudoku12"))
    assert all(e.text == e.get("data-value") for e in of_class(root, "given"))


def test_a_sukaku_draws_its_pencil_marks():
    puzzle = parse(sukaku_line([0b1 if c == 0 else 0b110000101 if c == 1 else 0b111111111 for c in range(81)]))
    root = drawn(puzzle)
    assert values_of(root, "given") == {"r1c1": 1}
    marks = {e.get("data-cell"): e.get("data-values") for e in of_class(root, "candidates")}
    assert len(marks) == 80 and marks["r1c2"] == "1 3 8 9" and marks["r9c9"] == "1 2 3 4 5 6 7 8 9"
    digits = [t.text for t in next(e for e in of_class(root, "candidates") if e.get("data-cell") == "r1c2")]
    assert digits == ["1", "3", "8", "9"]


def test_a_kind_without_a_drawing_is_its_text_form_in_an_svg():
    puzzle = example("arto-inkala")
    root = ElementTree.fromstring(text_figure(puzzle.pretty() + "\n<script>", "toy"))
    assert [t.text for t in root.iter(SVG + "text")][-1] == "<script>"


def test_a_cage_outline_follows_any_polyomino():
    """An L of three cells: eight cell sides, each end meeting another side's end."""
    figure = Figure(3, 3)
    figure.cage([0, 3, 4], label="12", data_sum=12)
    root = ElementTree.fromstring(figure.svg())
    cage, = of_class(root, "cage")
    assert cage.get("data-cells") == "r1c1 r2c1 r2c2" and cage.get("data-sum") == "12"
    path = next(cage.iter(SVG + "path")).get("d")
    ends = []
    for segment in path.split("M")[1:]:
        start, _, stop = segment.replace("H", "|H").replace("V", "|V").partition("|")
        x, y = map(float, start.split())
        ends.append((x, y))
        ends.append((float(stop[1:]), y) if stop[0] == "H" else (x, float(stop[1:])))
    assert len(ends) == 16 and all(ends.count(point) == 2 for point in ends)
