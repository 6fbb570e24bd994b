"""Singles: the last free cell of a unit, a value with one place left in a unit (hidden
single), a cell with one value left (naked single).  Each technique takes a :class:`State`
and returns the first :class:`Step` it finds, or ``None``; units are scanned boxes first,
then rows, then columns (the order people scan in).
"""

from __future__ import annotations

from .grid import Contradiction, State, Step, placement, unit_order


def last_free_cell(s: State) -> Step | None:
    g = s.g
    for u in unit_order(g):
        free = [c for c in g.units[u] if not s.val[c]]
        if len(free) == 1:
            missing = g.full & ~s.placed[u]
            if missing & (missing - 1) or not missing & s.cand[free[0]]:
                raise Contradiction
            return placement(g, "last free cell", free[0], missing.bit_length(), g.unit_names[u],
                               units=(u,))
    return None


def hidden_single(s: State) -> Step | None:
    g, cand = s.g, s.cand
    for u in unit_order(g):
        once = more = 0
        cells = g.units[u]
        for c in cells:
            m = cand[c]
            more |= once & m
            once |= m
        if (once | s.placed[u]) != g.full:
            raise Contradiction  # a value with no place left in this unit
        hidden = once & ~more
        if hidden:
            low = hidden & -hidden
            for c in cells:
                if cand[c] & low and cand[c] != low:
                    return placement(g, "hidden single", c, low.bit_length(), g.unit_names[u],
                                       units=(u,))
    return None


def naked_single(s: State) -> Step | None:
    for c, m in enumerate(s.cand):
        if m and not m & (m - 1):
            return placement(s.g, "naked single", c, m.bit_length())
    return None
