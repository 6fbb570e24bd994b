"""``rate --explain --format html``: each step of a rating drawn on its grid, as HoDoKu and
Sudoku Explainer show a hint: the pencil marks before the step, the units and cells of its
pattern shaded, the candidates it rests on ringed, those it removes struck in red, the value
it places in green, a chain's links as arrows (strong solid, weak dashed); beside it the
technique, SE's rating and the words.  One self-contained page (a little inline script, each
step's SVG in a ``<template>``), a slider and a list to walk the steps, nothing fetched.
Drawn on the shared toolkit (:mod:`puzzlebench.models.svg`) over the Sudoku's own grid.
"""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

from ..models.sudoku import Sudoku
from ..models.svg import CELL, attrs
from ..techniques.grid import Candidate, Contradiction, State, Step, geometry, values_of

UNIT_FILL, CELL_FILL, PLACED = "#fff3b0", "#cfe3ff", "#1a8a3a"
STRUCK, RING, LINK = "#d62828", "#2a7a2a", "#7b2cbf"


def mark_centre(puzzle: Sudoku, figure, cand: Candidate) -> tuple[float, float]:
    """Where the toolkit writes pencil mark ``v`` of ``cell`` (its place in a box-shaped
    mini-grid of the cell)."""
    cell, v = cand
    rows, cols = puzzle.box
    r, c = divmod(cell, puzzle.size)
    i, j = divmod(v - 1, cols)
    return (round(figure.x(c) + (j + 0.5) * CELL / cols, 2),
            round(figure.y(r) + (i + 0.5) * CELL / rows, 2))


def step_svg(puzzle: Sudoku, s: State, step: Step) -> str:
    """The grid ``s`` (before ``step``) with the step drawn on it."""
    figure = puzzle.figure()
    g, n = s.g, puzzle.size
    unit_cells = sorted({c for u in step.units for c in g.units[u]})
    if unit_cells:
        figure.shade(unit_cells, UNIT_FILL, "unit")
    if step.cells:
        figure.shade(step.cells, CELL_FILL, "pattern-cell")
    figure.values(puzzle.givens, s.val)
    radius = CELL / max(puzzle.box) * 0.42
    for cand in step.candidates:
        x, y = mark_centre(puzzle, figure, cand)
        figure.raw(f'<circle class="ring"{attrs(data_cell=g.names[cand[0]], data_value=cand[1])}'
                   f'{attrs(cx=x, cy=y, r=round(radius, 2))} fill="#e3f5e1" stroke="{RING}" stroke-width="1"/>')
    for cell, v in step.eliminations:   # under the mark, so that its digit stays readable
        x, y = mark_centre(puzzle, figure, (cell, v))
        figure.raw(f'<circle class="removed"{attrs(cx=x, cy=y, r=round(radius, 2))} fill="#fdd"'
                   f' stroke="{STRUCK}" stroke-width="1.2"/>')
    placed = dict(step.placements)
    for cell in range(n * n):
        if s.cand[cell] and cell not in placed:
            figure.candidates(cell, values_of(s.cand[cell]), puzzle.box)
    for cell, v in step.eliminations:
        x, y = mark_centre(puzzle, figure, (cell, v))
        d = radius * 0.75
        figure.raw(f'<g class="struck"{attrs(data_cell=g.names[cell], data_value=v)} stroke="{STRUCK}"'
                   f' stroke-width="1.3"><path d="M{x - d:.2f} {y + d:.2f}L{x + d:.2f} {y - d:.2f}"/></g>')
    for cell, v in step.placements:
        x, y = figure.centre(cell)
        figure.raw(f'<text class="placed"{attrs(data_cell=g.names[cell], data_value=v, x=x, y=y)}'
                   f' font-size="{CELL * 0.6:.0f}" font-weight="bold" fill="{PLACED}" text-anchor="middle"'
                   f' dominant-baseline="central">{v}</text>')
    for link in step.links:
        figure.raw(arrow(puzzle, figure, link, radius))
    return figure.svg()


def arrow(puzzle: Sudoku, figure, link, radius: float) -> str:
    """A link as a gently curved arrow from one pencil mark to the other, stopping at their
    rings: solid for a strong link, dashed for a weak one."""
    a, b, kind = link
    (x1, y1), (x2, y2) = mark_centre(puzzle, figure, a), mark_centre(puzzle, figure, b)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bend = min(length * 0.18, CELL * 0.6)
    cx, cy = (x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend   # to the left of the way
    sx, sy = _towards(x1, y1, cx, cy, radius)
    ex, ey = _towards(x2, y2, cx, cy, radius)
    # the head points along the curve's last tangent (control point to end)
    hx, hy = ex - cx, ey - cy
    h = math.hypot(hx, hy) or 1.0
    hx, hy = hx / h, hy / h
    size = CELL * 0.14
    head = (f"M{ex:.2f} {ey:.2f}L{ex - hx * size - hy * size * 0.6:.2f} {ey - hy * size + hx * size * 0.6:.2f}"
            f"L{ex - hx * size + hy * size * 0.6:.2f} {ey - hy * size - hx * size * 0.6:.2f}Z")
    dash = ' stroke-dasharray="4 3"' if kind == "weak" else ""
    label = f"{_mark_name(a, puzzle.size)} {kind} {_mark_name(b, puzzle.size)}"
    return (f'<g class="link {kind}"{attrs(data_link=label)} stroke="{LINK}" fill="none">'
            f'<path d="M{sx:.2f} {sy:.2f}Q{cx:.2f} {cy:.2f} {ex:.2f} {ey:.2f}" stroke-width="1.5"{dash}/>'
            f'<path d="{head}" fill="{LINK}" stroke="none"/></g>')


def _towards(x: float, y: float, tx: float, ty: float, distance: float) -> tuple[float, float]:
    dx, dy = tx - x, ty - y
    d = math.hypot(dx, dy) or 1.0
    return x + dx / d * distance, y + dy / d * distance


def _mark_name(cand: Candidate, n: int) -> str:
    cell, v = cand
    return f"({v})r{cell // n + 1}c{cell % n + 1}"


def walk(puzzle: Sudoku, steps: Sequence[Step]) -> list[tuple[Step, str]]:
    """Each step with its drawing on the grid before it (the steps replayed from the givens;
    a replay that breaks, which a sound ladder never makes, ends the walk there)."""
    s = State.from_givens(geometry(puzzle.box), puzzle.givens)
    out = []
    for step in steps:
        out.append((step, step_svg(puzzle, s, step)))
        try:
            s.apply(step)
        except Contradiction:
            break
    return out


def caption(number: int, step: Step) -> str:
    rating = f"SE {step.rating:.1f}" if step.rating is not None else ""
    return (f'<figcaption><span class="number">{number}.</span> <b class="technique">{escape(step.technique)}</b>'
            f' <span class="rating">{rating}</span><br><span class="words">{escape(step.text)}</span></figcaption>')


def rated_section(number: int, heading: str, facts: Sequence[str], puzzle: Sudoku,
                  steps: Sequence[Step]) -> str:
    """One rated puzzle: its heading and facts, the drawing of the current step, a slider, and
    the list of steps (a click shows one)."""
    drawn = walk(puzzle, steps)
    facts_html = "".join(f"<li>{escape(f)}</li>" for f in facts)
    if not drawn:
        board = puzzle.figure()
        board.values(puzzle.givens)
        return (f'<section class="rated" id="puzzle-{number}"><h2>{escape(heading)}</h2><ul class="facts">'
                f'{facts_html}</ul><p>No step to show: the givens solve it.</p>{board.svg()}</section>')
    templates = "".join(f'<template class="step">{svg}{caption(i, step)}</template>'
                        for i, (step, svg) in enumerate(drawn, start=1))
    items = "".join(f'<li><button type="button">{"" if step.rating is None else f"[{step.rating:.1f}] "}'
                    f'{escape(step.text)}</button></li>' for step, _ in drawn)
    return (f'<section class="rated" id="puzzle-{number}" tabindex="0"><h2>{escape(heading)}</h2>'
            f'<ul class="facts">{facts_html}</ul><div class="walk"><div class="view">'
            f'<div class="controls"><button type="button" class="prev" aria-label="previous step">&#9664;</button>'
            f'<input type="range" class="slider" min="1" max="{len(drawn)}" value="1" aria-label="step">'
            f'<button type="button" class="next" aria-label="next step">&#9654;</button>'
            f'<output class="count"></output></div><div class="board"></div></div>'
            f'<ol class="steps">{items}</ol></div>{templates}</section>\n')


def error_section(number: int, text: str) -> str:
    return f'<section class="error" id="puzzle-{number}"><h2>{escape(text)}</h2></section>\n'


STYLE = (
    "body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;background:#f6f6f6;color:#222}"
    "section{background:#fff;border:1px solid #ddd;border-radius:4px;padding:.8em 1em;margin-bottom:1.5em}"
    "section h2{font-size:1.05em;margin:.2em 0;overflow-wrap:anywhere}"
    ".facts{font-size:.85em;color:#444;margin:.3em 0 .8em;padding-left:1.2em}"
    ".walk{display:flex;gap:1.2em;align-items:flex-start;flex-wrap:wrap}"
    ".view{flex:0 0 auto;width:min(480px,95vw)}.board svg{width:100%;height:auto;display:block}"
    ".controls{display:flex;gap:.5em;align-items:center;margin-bottom:.5em}.slider{flex:1}"
    ".count{font-size:.85em;min-width:7em;text-align:right}"
    "figcaption{margin-top:.5em;font-size:.9em;overflow-wrap:anywhere}.rating{color:#7b2cbf;font-weight:bold}"
    ".steps{flex:1 1 320px;max-height:600px;overflow:auto;margin:0;padding-left:3em;font-size:.82em}"
    ".steps button{all:unset;cursor:pointer;display:block;padding:.15em .3em;border-radius:3px;overflow-wrap:anywhere}"
    ".steps li.current button{background:#cfe3ff}.steps button:hover{background:#eef}"
    ".legend{font-size:.85em;color:#444}.legend span{display:inline-block;margin-right:1.2em}"
)
SCRIPT = """
for (const sec of document.querySelectorAll('section.rated')) {
  const slider = sec.querySelector('.slider');
  if (!slider) continue;
  const board = sec.querySelector('.board'), count = sec.querySelector('.count');
  const steps = sec.querySelectorAll('template.step'), items = sec.querySelectorAll('.steps li');
  const show = (i) => {
    i = Math.max(1, Math.min(steps.length, i));
    slider.value = i;
    board.replaceChildren(steps[i - 1].content.cloneNode(true));
    items.forEach((li, k) => li.classList.toggle('current', k === i - 1));
    items[i - 1].scrollIntoView({block: 'nearest'});
    count.textContent = 'step ' + i + ' of ' + steps.length;
    sec.dataset.step = i;
  };
  slider.addEventListener('input', () => show(+slider.value));
  sec.querySelector('.prev').addEventListener('click', () => show(+slider.value - 1));
  sec.querySelector('.next').addEventListener('click', () => show(+slider.value + 1));
  items.forEach((li, k) => li.querySelector('button').addEventListener('click', () => show(k + 1)));
  sec.addEventListener('keydown', (e) => {
    if (e.target === slider) return;
    if (e.key === 'ArrowRight') { show(+slider.value + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { show(+slider.value - 1); e.preventDefault(); }
  });
  show(1);
}
"""
LEGEND = ('<p class="legend"><span>yellow: the units of the pattern</span><span>blue: its cells</span>'
          '<span>ringed: its candidates</span><span>struck red: removed</span><span>green: placed</span>'
          '<span>arrows: links, solid strong, dashed weak</span></p>')


def page(title: str, sections: Sequence[str]) -> str:
    """The whole page: ``sections`` from :func:`rated_section` and :func:`error_section`."""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{escape(title)}</h1>{LEGEND}\n{''.join(sections)}"
            f"<script>{SCRIPT}</script></body></html>\n")
