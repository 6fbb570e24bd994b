"""Every kind's drawing read back with ``xml.etree`` and held to its model: the givens and
solved values in their cells, the bold borders exactly between cells of different blocks or
regions, one cage outline a cage with its sum or target, a sign a relation, a clue a
clue, the diagonals, a Sukaku's pencil marks."""

from xml.etree import ElementTree

import pytest

from conftest import data_lines
from puzzlebench.models.examples import EXAMPLES, example
from puzzlebench.models.kinds import kind_entry
from puzzlebench.models.reader import parse
from puzzlebench.models.sudoku import block_map
from puzzlebench.models.sukaku import sukaku_line
from puzzlebench.models.svg import Figure, text_figure
from puzzlebench.engines.registry import make_engine

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


def tatham(name: str, step: int = 4) -> list:
    """A quarter of one of Simon Tatham's sets (every 4th line; conftest's ``data_lines``)."""
    return [parse(line, source=f"{name}:{k}") for k, line in enumerate(data_lines(name, step=step), start=1)]


def cage_map(cages, n) -> list[int]:
    owner = [0] * (n * n)
    for k, (cells, _, _) in enumerate(cages):
        for cell in cells:
            owner[cell] = k
    return owner


def test_every_killer_cage_is_drawn_with_its_sum_in_its_first_cell():
    for puzzle in tatham("tatham_solo_killer_3x3_100.txt"):
        n = puzzle.size
        root = drawn(puzzle)
        cages = [(e.get("data-cells"), int(e.get("data-sum"))) for e in of_class(root, "cage")]
        assert cages == [(" ".join(name(c, n) for c in cells), total) for cells, _, total in puzzle.cages]
        labels = {(e.get("data-cell"), e.find(SVG + "text").text) for e in of_class(root, "cage-label")}
        assert labels == {(name(cells[0], n), str(total)) for cells, _, total in puzzle.cages}
        assert all(cage.find(SVG + "path").get("stroke-dasharray") for cage in of_class(root, "cage"))
        assert bold_edges(root) == region_edges(block_map(*puzzle.box), n)
        assert values_of(root, "given") == expected_values(puzzle.givens, None, n)[0]


def test_every_jigsaw_region_is_filled_and_bordered():
    for puzzle in tatham("tatham_solo_jigsaw9_100.txt"):
        n = puzzle.n
        root = drawn(puzzle, solved(puzzle))
        regions = {int(e.get("data-region")) - 1: e.get("data-cells") for e in of_class(root, "region")}
        assert regions == {k: " ".join(name(c, n) for c in range(n * n) if puzzle.regions[c] == k) for k in range(n)}
        assert bold_edges(root) == region_edges(puzzle.regions, n)
        assert len({e.get("fill") for e in of_class(root, "region")}) == n


def test_every_kenken_cage_has_its_target_and_operation():
    ops = {"+": "+", "-": "\u2212", "*": "\u00d7", "/": "\u00f7"}
    for puzzle in tatham("tatham_keen_4to7_96.txt"):
        n = puzzle.n
        root = drawn(puzzle)
        cages = [(e.get("data-cells"), int(e.get("data-target")), e.get("data-op")) for e in of_class(root, "cage")]
        assert cages == [(" ".join(name(c, n) for c in cells), target, op if len(cells) > 1 else None)
                         for cells, op, target in puzzle.cages]
        labels = {(e.get("data-cell"), e.find(SVG + "text").text) for e in of_class(root, "cage-label")}
        assert labels == {(name(cells[0], n), f"{target}{ops[op] if len(cells) > 1 else ''}")
                          for cells, op, target in puzzle.cages}
        assert bold_edges(root) == region_edges(cage_map(puzzle.cages, n), n)


def test_every_futoshiki_sign_sits_between_its_cells_and_points_to_the_smaller():
    checked = 0
    for puzzle in tatham("tatham_unequal_4to7_96.txt", step=1):
        n = puzzle.n
        root = drawn(puzzle, solved(puzzle))
        solution = solved(puzzle)
        signs = {e.get("data-between"): e.get("data-sign") for e in of_class(root, "sign")}
        expected = {}
        for smaller, larger in puzzle.less:
            first, second = sorted((smaller, larger))
            expected[f"{name(first, n)} {name(second, n)}"] = "<" if first == smaller else ">"
        assert signs == expected
        shown = values_of(root, "solved") | values_of(root, "given")
        for between, sign in signs.items():   # the sign holds of the drawn solution
            first, second = between.split()
            assert (shown[first] < shown[second]) == (sign == "<")
        assert values_of(root, "solved") == expected_values(puzzle.givens, solution, n)[1]
        checked += len(signs)
    assert checked > 100


def test_futoshiki_glyphs_across_a_row_and_down_a_column():
    root = drawn(example("futoshiki5"))
    glyphs = {e.get("data-between"): e.find(SVG + "text").text for e in of_class(root, "sign")}
    assert glyphs["r1c3 r1c4"] == ">" and glyphs["r1c3 r2c3"] == "\u2227" and glyphs["r4c5 r5c5"] == "\u2228"


def test_every_sudoku_x_has_its_two_diagonals():
    for puzzle in tatham("tatham_solo_sudokux_3x3_100.txt"):
        root = drawn(puzzle)
        assert [e.get("data-cells") for e in of_class(root, "diagonal")] == \
            [" ".join(name(c, 9) for c in cells) for _, cells in puzzle.diagonals()]
        assert bold_edges(root) == region_edges(block_map(3, 3), 9)
        assert values_of(root, "given") == expected_values(puzzle.givens, None, 9)[0]


@pytest.mark.parametrize("example_name", ["skyscrapers5", "rush01"])
def test_skyscrapers_clues_stand_outside_their_rows_and_columns(example_name):
    puzzle = example(example_name)
    root = drawn(puzzle, solved(puzzle))
    clues = {(e.get("data-side"), int(e.get("data-index")) - 1): int(e.text) for e in of_class(root, "clue")}
    assert clues == {(side, i): clue for side, row in puzzle.clues.items() for i, clue in enumerate(row) if clue}
    frame = of_class(root, "frame")[0]
    left, top = float(frame.get("x")), float(frame.get("y"))
    right, bottom = left + float(frame.get("width")), top + float(frame.get("height"))
    for e in of_class(root, "clue"):
        x, y, side = float(e.get("x")), float(e.get("y")), e.get("data-side")
        assert {"top": y < top, "bottom": y > bottom, "left": x < left, "right": x > right}[side]


def test_an_nqueens_board_has_its_placed_and_solved_queens():
    puzzle = example("8-queens-corner")
    solution = solved(puzzle)
    root = drawn(puzzle, solution)
    given = {e.get("data-cell") for e in of_class(root, "queen") if "given" in e.get("class").split()}
    placed = {e.get("data-cell") for e in of_class(root, "queen") if "solved" in e.get("class").split()}
    assert given == {f"r{r + 1}c{c + 1}" for r, c in puzzle.placed}
    assert given | placed == {f"r{r}c{c}" for r, c in enumerate(solution, start=1)} and not given & placed
    assert len(of_class(root, "dark-square")[0]) == 32


def test_a_latin_square_has_one_region_and_its_values():
    puzzle = example("latin5")
    solution = solved(puzzle)
    root = drawn(puzzle, solution)
    assert not bold_edges(root)
    assert (values_of(root, "given"), values_of(root, "solved")) == expected_values(puzzle.givens, solution, 5)


@pytest.mark.parametrize("example_name", sorted(EXAMPLES))
def test_every_example_is_drawn_by_its_kind_as_well_formed_svg(example_name):
    puzzle = example(example_name)
    assert kind_entry(puzzle.kind).drawing == "svg"
    for solution in (None, solved(puzzle)):
        root = drawn(puzzle, solution)
        assert root.tag == SVG + "svg" and root.get("data-kind") == puzzle.kind
        assert float(root.get("width")) > 0 and len(of_class(root, "frame")) == 1
