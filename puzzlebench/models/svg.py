"""The SVG toolkit every kind draws with: a grid of cells whose bold borders follow a region
map, light fills, values (givens and solved told apart), corner labels, dashed cage outlines,
signs between cells, clues outside the grid, pencil marks and diagonals.

A kind's ``svg()`` method states what to draw (:class:`Figure`'s calls); the toolkit is never
edited for a new kind.  Every element carries a ``class`` and ``data-`` attributes naming its
cells (``r1c2``) and what it says, so that a test reads the drawing back with ``xml.etree``.
Plain strings with XML escaping: a library (svgwrite, drawsvg) would be a dependency for
~200 lines of output, and the output must stay one self-contained string for a page.
"""

from __future__ import annotations

from typing import Iterable, Sequence

CELL = 40
"""A cell's side in user units (the SVG scales: a page may draw it smaller)."""
FILLS = ("#fde2e2", "#e2f0fd", "#e6f7e2", "#fdf3d9", "#eee2fb", "#dff7f4", "#fbe4f3", "#edf0e0",
         "#e9e9f4", "#f7ebdd", "#e0eef0", "#f4f4dc")
"""Light fills, one a region, repeating: a region's value stays readable on each."""
GIVEN, SOLVED = "#111", "#1f5fbf"


def escape(text: str) -> str:
    """Text safe in XML content and in a quoted attribute (the five characters XML reserves;
    the ``html`` module's entity table is not loaded for it, at every command's start)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def attrs(**fields) -> str:
    """`` key="value"`` pairs, escaped; ``data_cells`` is written ``data-cells``; ``None`` left out."""
    return "".join(f' {key.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
                   for key, value in fields.items() if value is not None)


def cell_names(cells: Iterable[int], cols: int) -> str:
    """``r1c1 r1c2``: the names the data attributes use (rows and columns from 1)."""
    return " ".join(f"r{c // cols + 1}c{c % cols + 1}" for c in cells)


class Figure:
    """One drawing of a ``rows x cols`` grid, ``margin`` cells around it (room for clues).
    Elements are drawn in call order: fills first, text last."""

    def __init__(self, rows: int, cols: int, *, margin: float = 0.25, title: str | None = None,
                 kind: str | None = None):
        self.rows, self.cols, self.margin = rows, cols, margin
        self.title, self.kind = title, kind
        self.parts: list[str] = []

    # -- coordinates -------------------------------------------------------------------------

    def x(self, col: float) -> float:
        return round((self.margin + col) * CELL, 2)

    def y(self, row: float) -> float:
        return round((self.margin + row) * CELL, 2)

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def name(self, cell: int) -> str:
        return cell_names((cell,), self.cols)

    def centre(self, cell: int) -> tuple[float, float]:
        r, c = self.rc(cell)
        return self.x(c + 0.5), self.y(r + 0.5)

    # -- the grid ----------------------------------------------------------------------------

    def grid(self, region_of: Sequence[int] | None = None) -> None:
        """Thin lines between every two cells, bold ones between cells of different regions
        (``region_of``: a region number a cell; ``None``: one region) and around the grid."""
        thin = [f"M{self.x(c)} {self.y(0)}V{self.y(self.rows)}" for c in range(1, self.cols)]
        thin += [f"M{self.x(0)} {self.y(r)}H{self.x(self.cols)}" for r in range(1, self.rows)]
        self.parts.append(f'<path class="grid-line" d="{"".join(thin)}" stroke="#999" stroke-width="1" fill="none"/>')
        if region_of is not None:
            for a, b in self.neighbours():
                if region_of[a] != region_of[b]:
                    self.edge(a, b)
        self.parts.append(f'<rect class="frame"{attrs(x=self.x(0), y=self.y(0), width=self.cols * CELL, height=self.rows * CELL)}'
                          ' fill="none" stroke="#000" stroke-width="3"/>')

    def neighbours(self) -> Iterable[tuple[int, int]]:
        """Every pair of cells sharing an edge, the left or upper one first."""
        for cell in range(self.rows * self.cols):
            r, c = self.rc(cell)
            if c + 1 < self.cols:
                yield cell, cell + 1
            if r + 1 < self.rows:
                yield cell, cell + self.cols

    def edge(self, a: int, b: int) -> None:
        """A bold border on the edge between neighbours ``a`` and ``b``."""
        (ra, ca), (rb, cb) = self.rc(a), self.rc(b)
        if ra == rb:   # side by side: a vertical line
            x1 = x2 = self.x(max(ca, cb))
            y1, y2 = self.y(ra), self.y(ra + 1)
        else:
            y1 = y2 = self.y(max(ra, rb))
            x1, x2 = self.x(ca), self.x(ca + 1)
        self.parts.append(f'<line class="bold-edge"{attrs(data_between=cell_names((a, b), self.cols))}'
                          f'{attrs(x1=x1, y1=y1, x2=x2, y2=y2)} stroke="#000" stroke-width="3" stroke-linecap="square"/>')

    def regions(self, region_of: Sequence[int]) -> None:
        """A light fill a region (``class="region"``, its number and cells)."""
        for region in sorted(set(region_of)):
            cells = [c for c, k in enumerate(region_of) if k == region]
            rects = "".join(self.cell_rect(c) for c in cells)
            self.parts.append(f'<g class="region"{attrs(data_region=region + 1, data_cells=cell_names(cells, self.cols))}'
                              f' fill="{FILLS[region % len(FILLS)]}">{rects}</g>')

    def cell_rect(self, cell: int) -> str:
        r, c = self.rc(cell)
        return f'<rect{attrs(x=self.x(c), y=self.y(r), width=CELL, height=CELL)}/>'

    def shade(self, cells: Iterable[int], colour: str, cls: str = "shade") -> None:
        self.parts.append(f'<g class="{cls}" fill="{colour}">{"".join(self.cell_rect(c) for c in cells)}</g>')

    # -- what cells hold ---------------------------------------------------------------------

    def values(self, givens: Sequence[int], solution: Sequence[int] | None = None) -> None:
        """Each given (``class="given"``, black), and each value of ``solution`` that is not a
        given (``class="solved"``, blue)."""
        for cell, given in enumerate(givens):
            if given:
                self.value(cell, str(given), "given", given)
            elif solution is not None and solution[cell]:
                self.value(cell, str(solution[cell]), "solved", solution[cell])

    def value(self, cell: int, text: str, cls: str, value: int | str) -> None:
        x, y = self.centre(cell)
        size = CELL * (0.6 if len(text) < 2 else 0.45)
        colour = GIVEN if cls == "given" else SOLVED
        weight = "bold" if cls == "given" else "normal"
        self.parts.append(f'<text class="{cls}"{attrs(data_cell=self.name(cell), data_value=value, x=x, y=y)}'
                          f' font-size="{size:.0f}" font-weight="{weight}" fill="{colour}" text-anchor="middle"'
                          f' dominant-baseline="central">{escape(text)}</text>')

    def corner(self, cell: int, text: str, cls: str = "corner", **data) -> None:
        """Small text in a cell's top-left corner on a white patch (over a cage's dashes)."""
        r, c = self.rc(cell)
        size = CELL * 0.27
        width = size * 0.62 * len(text) + 2
        x, y = self.x(c) + 2, self.y(r) + 2
        self.parts.append(f'<g class="{cls}"{attrs(data_cell=self.name(cell), **data)}>'
                          f'<rect{attrs(x=x, y=y, width=round(width, 2), height=round(size + 1, 2))} fill="#fff"/>'
                          f'<text{attrs(x=x + 1, y=round(y + size * 0.85, 2))} font-size="{size:.1f}"'
                          f' fill="#000">{escape(text)}</text></g>')

    def candidates(self, cell: int, values: Iterable[int], box: tuple[int, int]) -> None:
        """Pencil marks: value ``v`` at its place in a ``box`` mini-grid of the cell."""
        rows, cols = box
        r, c = self.rc(cell)
        values = sorted(values)
        marks = []
        for v in values:
            i, j = divmod(v - 1, cols)
            x = self.x(c) + (j + 0.5) * CELL / cols
            y = self.y(r) + (i + 0.5) * CELL / rows
            marks.append(f'<text{attrs(data_value=v, x=round(x, 2), y=round(y, 2))}>{v}</text>')
        self.parts.append(f'<g class="candidates"{attrs(data_cell=self.name(cell), data_values=" ".join(map(str, values)))}'
                          f' font-size="{CELL / max(rows, cols) * 0.8:.1f}" fill="#555" text-anchor="middle"'
                          f' dominant-baseline="central">{"".join(marks)}</g>')

    # -- what spans cells --------------------------------------------------------------------

    def cage(self, cells: Iterable[int], label: str | None = None, outline: bool = True, **data) -> None:
        """A cage (``class="cage"``): a dashed outline inset from its cells' edges, drawn around
        any polyomino, and ``label`` in the corner of its first cell (reading order)."""
        cells = sorted(cells)
        inside = set(cells)
        path = self.outline(inside, inset=CELL * 0.1) if outline else ""
        drawn = (f'<path d="{path}" fill="none" stroke="#333" stroke-width="1.2" stroke-dasharray="4 3"/>'
                 if path else "")
        self.parts.append(f'<g class="cage"{attrs(data_cells=cell_names(cells, self.cols), **data)}>{drawn}</g>')
        if label is not None:
            self.corner(cells[0], label, "cage-label")

    def outline(self, inside: set[int], inset: float) -> str:
        """The path of a polyomino's boundary, ``inset`` inside its cells: a segment a cell edge
        on the boundary, lengthened or shortened at its ends so that the segments meet."""
        segments = []
        for cell in inside:
            r, c = self.rc(cell)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if self.holds(inside, r + dr, c + dc):
                    continue
                segments.append(self.side(inside, r, c, dr, dc, inset))
        return "".join(segments)

    def holds(self, inside: set[int], r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols and r * self.cols + c in inside

    def side(self, inside: set[int], r: int, c: int, dr: int, dc: int, inset: float) -> str:
        """One boundary side of cell (r, c), facing (dr, dc): each end stops ``inset`` short
        of the corner (the cage turns there), reaches the corner (the side goes on in the next
        cell), or passes it by ``inset`` (an inner corner, where the next side starts)."""
        ends = []
        along = (0, 1) if dr else (1, 0)   # the side runs along a row, or down a column
        for sign in (-1, 1):
            nr, nc = r + sign * along[0], c + sign * along[1]
            if not self.holds(inside, nr, nc):
                ends.append(-inset)
            elif self.holds(inside, nr + dr, nc + dc):
                ends.append(inset)
            else:
                ends.append(0.0)
        left, top = (self.margin + c) * CELL, (self.margin + r) * CELL
        if dr:   # a top or bottom side: horizontal
            y = top + (inset if dr < 0 else CELL - inset)
            return f"M{left - ends[0]:.2f} {y:.2f}H{left + CELL + ends[1]:.2f}"
        x = left + (inset if dc < 0 else CELL - inset)
        return f"M{x:.2f} {top - ends[0]:.2f}V{top + CELL + ends[1]:.2f}"

    def sign(self, a: int, b: int, relation: str) -> None:
        """``relation`` (``<`` or ``>``: a's value to b's) on the edge between neighbours
        ``a`` and ``b``, a left or upper one first; drawn as ``<``/``>`` across a row and
        ``∧``/``∨`` down a column (the point towards the smaller value)."""
        (ra, ca), (rb, cb) = self.rc(a), self.rc(b)
        if ra == rb:
            x, y, glyph = self.x(max(ca, cb)), self.y(ra + 0.5), relation
        else:
            x, y, glyph = self.x(ca + 0.5), self.y(max(ra, rb)), "∧" if relation == "<" else "∨"
        self.parts.append(f'<g class="sign"{attrs(data_between=cell_names((a, b), self.cols), data_sign=relation)}>'
                          f'<circle{attrs(cx=x, cy=y, r=CELL * 0.2)} fill="#fff"/>'
                          f'<text{attrs(x=x, y=y)} font-size="{CELL * 0.4:.0f}" font-weight="bold" fill="#c0392b"'
                          f' text-anchor="middle" dominant-baseline="central">{escape(glyph)}</text></g>')

    def clue(self, side: str, index: int, text: str) -> None:
        """A clue outside the grid: ``side`` top, bottom, left or right; ``index`` the column
        (top, bottom) or row (left, right), from 0."""
        x, y = {"top": (self.x(index + 0.5), self.y(-0.5)), "bottom": (self.x(index + 0.5), self.y(self.rows + 0.5)),
                "left": (self.x(-0.5), self.y(index + 0.5)), "right": (self.x(self.cols + 0.5), self.y(index + 0.5))}[side]
        self.parts.append(f'<text class="clue"{attrs(data_side=side, data_index=index + 1, data_value=text, x=x, y=y)}'
                          f' font-size="{CELL * 0.5:.0f}" fill="#7a3e00" text-anchor="middle"'
                          f' dominant-baseline="central">{escape(text)}</text>')

    def diagonal(self, cells: Sequence[int]) -> None:
        """A line through the centres of ``cells``, from the first to the last, corner to corner."""
        (r1, c1), (r2, c2) = self.rc(cells[0]), self.rc(cells[-1])
        step_c = 1 if c2 >= c1 else -1
        x1, x2 = self.x(c1 + (0 if step_c > 0 else 1)), self.x(c2 + (1 if step_c > 0 else 0))
        self.parts.append(f'<line class="diagonal"{attrs(data_cells=cell_names(cells, self.cols))}'
                          f'{attrs(x1=x1, y1=self.y(r1), x2=x2, y2=self.y(r2 + 1))} stroke="#d08080" stroke-width="2" stroke-opacity="0.7"/>')

    def raw(self, element: str) -> None:
        """An element a kind writes itself (escaped by its writer)."""
        self.parts.append(element)

    # -- the document ------------------------------------------------------------------------

    def svg(self) -> str:
        width = round((self.cols + 2 * self.margin) * CELL, 2)
        height = round((self.rows + 2 * self.margin) * CELL, 2)
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="puzzle"{attrs(data_kind=self.kind)}'
                f'{attrs(width=width, height=height, viewBox=f"0 0 {width} {height}")}'
                f' font-family="Helvetica, Arial, sans-serif">{title}'
                f'<rect class="background" width="100%" height="100%" fill="#fff"/>'
                + "".join(self.parts) + "</svg>")


def text_figure(text: str, kind: str | None = None) -> str:
    """A kind with no drawing: its text form in an SVG, one ``<text>`` a line, monospace."""
    lines = text.split("\n") or [""]
    width = max(len(line) for line in lines) * 8.4 + 16
    height = len(lines) * 16 + 16
    rows = "".join(f'<text x="8" y="{20 + 16 * i}" xml:space="preserve">{escape(line)}</text>'
                   for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="puzzle text-form"{attrs(data_kind=kind)}'
            f'{attrs(width=width, height=height, viewBox=f"0 0 {width} {height}")}'
            f' font-family="DejaVu Sans Mono, monospace" font-size="14">'
            f'<rect width="100%" height="100%" fill="#fff"/>{rows}</svg>')


def gallery_page(title: str, figures: Sequence[tuple[str, str | None]]) -> str:
    """A self-contained HTML page of ``(caption, svg)`` figures (``svg`` ``None``: the caption
    alone, an error), everything escaped but the SVG: no script, nothing fetched."""
    items = "".join(f'<figure class="{"drawing" if svg else "error"}">{svg or ""}'
                    f"<figcaption>{escape(caption)}</figcaption></figure>\n" for caption, svg in figures)
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>"
            "body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;background:#f6f6f6}"
            "main{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start}"
            "figure{margin:0;padding:.6em;background:#fff;border:1px solid #ddd;border-radius:4px}"
            "figure svg{display:block;min-width:300px;max-width:560px;height:auto}"
            ".error figcaption{color:#a00}figcaption{font-size:.85em;color:#333;margin-top:.4em;max-width:480px;overflow-wrap:anywhere}"
            f"</style></head><body><h1>{escape(title)}</h1><main>\n{items}</main></body></html>\n")
