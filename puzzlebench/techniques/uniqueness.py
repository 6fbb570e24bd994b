"""Techniques that assume the puzzle has one solution: unique rectangles (types 1, 2 and 4)
and BUG+1 (a bivalue universal grave but for one cell).  Sound only under that assumption,
so the ladder applies them only when asked to (``assume_unique``), never while counting.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from .grid import State, Step, bits_of, elimination, marks, placement, seen_by_all, values_of


def unique_rectangle(s: State) -> Step | None:
    """Type 1 (assumes one solution): three corners of a rectangle over two boxes hold only
    {a,b}; the fourth cannot be a or b, or the puzzle would have two solutions."""
    g, cand, n = s.g, s.cand, s.g.n
    bivalue = [c for c, m in enumerate(cand) if m.bit_count() == 2]
    for a, b in combinations(bivalue, 2):
        if cand[a] != cand[b] or g.row(a) != g.row(b):
            continue
        pair = cand[a]
        r1, c1, c2 = g.row(a), g.col(a), g.col(b)
        for r2 in range(n):
            if r2 == r1:
                continue
            x, y = r2 * n + c1, r2 * n + c2
            if len({g.box_of(a), g.box_of(b), g.box_of(x), g.box_of(y)}) != 2:
                continue
            for third, fourth in ((x, y), (y, x)):
                if cand[third] == pair and cand[fourth] & pair == pair and cand[fourth] != pair:
                    elims = [(fourth, v) for v in values_of(pair)]
                    corners = tuple(sorted((a, b, third, fourth)))
                    text = (f"unique rectangle {','.join(map(str, values_of(pair)))} at "
                            f"{', '.join(g.names[c] for c in corners)}")
                    return elimination(g, "unique rectangle", text, elims, cells=corners,
                                      candidates=marks(cand, corners, pair))
    return None


def bug(s: State) -> Step | None:
    """Bivalue universal grave, type 1 (assumes one solution): every unsolved cell has two
    candidates but one, which has three; a grid of pairs only would have two solutions, so
    that cell takes the value it holds three times in its units (Sudopedia "BUG")."""
    g, cand = s.g, s.cand
    extra = [c for c, m in enumerate(cand) if m and m.bit_count() != 2]
    if len(extra) != 1 or cand[extra[0]].bit_count() != 3:
        return None
    cell = extra[0]
    for v in values_of(cand[cell]):
        bit = 1 << (v - 1)
        if all(sum(1 for c in g.units[u] if cand[c] & bit) == 3 for u in g.cell_units[cell]):
            return placement(g, "bug", cell, v, "the only cell with three candidates",
                               units=g.cell_units[cell])
    return None


def unique_rectangle_2_4(s: State) -> Step | None:
    """Unique rectangle types 2 and 4 (assume one solution; Sudopedia "Unique Rectangle"):
    four corners over two boxes all hold the pair {a,b}, two of them ("floor") only that.
    Type 2: the two others hold one same extra value z, so one of them is z: z leaves every
    cell seeing both (SE 4.6).  Type 4: the two others share a unit where a has no other
    place, so one of them is a and neither can be b (SE 4.5)."""
    g, cand, n = s.g, s.cand, s.g.n
    r, c = g.box
    for r1, r2 in combinations(range(n), 2):
        # the columns where both rows hold two values or more in common (a corner pair of
        # any rectangle on these rows; the others are skipped in the same order)
        both = [(j, cand[r1 * n + j] & cand[r2 * n + j]) for j in range(n)]
        cols = [(j, m) for j, m in both if m & (m - 1)]
        for i, (c1, m1) in enumerate(cols):
            for c2, m2 in cols[i + 1:]:
                if (r1 // r == r2 // r) == (c1 // c == c2 // c):
                    continue  # not exactly two boxes
                common = m1 & m2
                if common.bit_count() < 2:
                    continue
                corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                for pair in (a | b for a, b in combinations(list(bits_of(common)), 2)):
                    floor = [x for x in corners if cand[x] == pair]
                    roof = [x for x in corners if cand[x] != pair]
                    if len(floor) != 2 or len(roof) != 2:
                        continue
                    x, y = roof
                    extra_x, extra_y = cand[x] & ~pair, cand[y] & ~pair
                    where = ", ".join(g.names[q] for q in sorted(corners))
                    vals = ",".join(map(str, values_of(pair)))
                    pattern = {"cells": tuple(sorted(corners)),
                               "candidates": marks(cand, sorted(corners), pair | extra_x | extra_y)}
                    if extra_x == extra_y and extra_x.bit_count() == 1:
                        elims = [(q, extra_x.bit_length()) for q in seen_by_all(s, roof, extra_x)]
                        if elims:
                            step = elimination(g, "unique rectangle", f"unique rectangle type 2 {vals} at {where}",
                                              elims, **pattern)
                            return replace(step, rating=4.6)
                    shared = [u for u in g.cell_units[x] if u in g.cell_units[y]]
                    for u in shared:
                        for a in bits_of(pair):
                            if all(q in roof for q in g.units[u] if cand[q] & a):
                                b = pair & ~a
                                elims = [(q, b.bit_length()) for q in roof]
                                step = elimination(g, "unique rectangle",
                                                  f"unique rectangle type 4 {vals} at {where} "
                                                  f"({a.bit_length()} only there in {g.unit_names[u]})", elims,
                                                  units=(u,), **pattern)
                                return replace(step, rating=4.5)
    return None
