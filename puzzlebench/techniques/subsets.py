"""Subsets and intersections: naked and hidden pairs, triples and quads (k cells of a unit
holding k values between them), and the locked candidates of a box and a line (pointing
pair, box-line reduction).  Each technique takes a :class:`State` and returns the first
:class:`Step` it finds, or ``None``.
"""

from __future__ import annotations

from itertools import combinations

from .grid import State, Step, cells_of, elimination, known_nothing, marks, unit_order, values_of


def _naked_subset(s: State, k: int, name: str) -> Step | None:
    g, cand = s.g, s.cand
    for u in unit_order(g):
        cells = g.units[u]
        small = [c for c in cells if cand[c] and cand[c].bit_count() <= k]
        if len(small) < k:
            continue
        memo = (name, g.box, u, tuple([cand[c] for c in cells])) if k > 2 else None
        if memo in s.memo.nothing:
            continue  # this unit's candidates gave nothing before (its result is its own)
        for group in combinations(small, k):
            union = 0
            for c in group:
                union |= cand[c]
            if union.bit_count() != k:
                continue
            elims = [(c, v) for c in cells if c not in group and cand[c] & union
                     for v in values_of(cand[c] & union)]
            if elims:
                vals = ",".join(map(str, values_of(union)))
                where = ", ".join(g.names[c] for c in group)
                return elimination(g, name, f"{name} {vals} at {where} in {g.unit_names[u]}", elims,
                                  cells=group, units=(u,), candidates=marks(cand, group))
        if memo is not None:
            s.memo.add(memo)
    return None


def naked_pair(s: State) -> Step | None:
    return _naked_subset(s, 2, "naked pair")


def naked_triple(s: State) -> Step | None:
    return _naked_subset(s, 3, "naked triple")


def _hidden_subset(s: State, k: int, name: str) -> Step | None:
    g, cand = s.g, s.cand
    for u in unit_order(g):
        cells = g.units[u]
        memo = (name, g.box, u, tuple([cand[c] for c in cells]))
        if memo in s.memo.nothing:
            continue  # this unit's candidates gave nothing before (its result is its own)
        where: dict[int, int] = {}
        for i, c in enumerate(cells):
            m = cand[c]
            while m:
                low = m & -m
                m ^= low
                where[low] = where.get(low, 0) | (1 << i)
        small = [b for b, pos in where.items() if 2 <= pos.bit_count() <= k]
        if len(small) < k:
            continue
        for group in combinations(small, k):
            pos = 0
            for b in group:
                pos |= where[b]
            if pos.bit_count() != k:
                continue
            keep = sum(group)
            elims = [(cells[i], v) for i in cells_of(pos) for v in values_of(cand[cells[i]] & ~keep)]
            if elims:
                vals = ",".join(map(str, values_of(keep)))
                at = ", ".join(g.names[cells[i]] for i in cells_of(pos))
                group = tuple(cells[i] for i in cells_of(pos))
                return elimination(g, name, f"{name} {vals} at {at} in {g.unit_names[u]}", elims,
                                  cells=group, units=(u,), candidates=marks(cand, group, keep))
        s.memo.add(memo)
    return None


def hidden_pair(s: State) -> Step | None:
    return _hidden_subset(s, 2, "hidden pair")


def hidden_triple(s: State) -> Step | None:
    return _hidden_subset(s, 3, "hidden triple")


def pointing_pair(s: State) -> Step | None:
    """A value confined, inside a box, to one row or column leaves the rest of that line."""
    g, cand, n = s.g, s.cand, s.g.n
    known, keys = known_nothing(s, "pointing pair")
    for b in range(2 * n, 3 * n):
        box_cells = g.units[b]
        for v in values_of(g.full & ~s.placed[b] & ~known):
            bit = 1 << (v - 1)
            pos = [c for c in box_cells if cand[c] & bit]
            if len(pos) < 2:
                continue
            for line in (g.cell_units[pos[0]][0], g.cell_units[pos[0]][1]):
                if all(g.cell_units[c][0 if line < n else 1] == line for c in pos):
                    elims = [(c, v) for c in g.units[line] if cand[c] & bit and c not in box_cells]
                    if elims:
                        return elimination(g, "pointing pair",
                                          f"pointing pair {v} in {g.unit_names[b]} "
                                          f"({g.unit_names[line]})", elims, cells=tuple(pos),
                                          units=(b, line), candidates=marks(cand, pos, bit))
    for key in keys:
        s.memo.add(key)
    return None


def box_line_reduction(s: State) -> Step | None:
    """A value confined, inside a row or column, to one box leaves the rest of that box."""
    g, cand, n = s.g, s.cand, s.g.n
    known, keys = known_nothing(s, "box-line reduction")
    for line in range(2 * n):
        for v in values_of(g.full & ~s.placed[line] & ~known):
            bit = 1 << (v - 1)
            pos = [c for c in g.units[line] if cand[c] & bit]
            if len(pos) < 2:
                continue
            b = g.cell_units[pos[0]][2]
            if all(g.cell_units[c][2] == b for c in pos):
                line_cells = g.units[line]
                elims = [(c, v) for c in g.units[b] if cand[c] & bit and c not in line_cells]
                if elims:
                    return elimination(g, "box-line reduction",
                                      f"box-line reduction {v} in {g.unit_names[line]} "
                                      f"({g.unit_names[b]})", elims, cells=tuple(pos),
                                      units=(line, b), candidates=marks(cand, pos, bit))
    for key in keys:
        s.memo.add(key)
    return None


def naked_quad(s: State) -> Step | None:
    return _naked_subset(s, 4, "naked quad")


def hidden_quad(s: State) -> Step | None:
    return _hidden_subset(s, 4, "hidden quad")
