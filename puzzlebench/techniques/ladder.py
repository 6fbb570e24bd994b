"""A Sudoku solver that uses the techniques people use, easiest first, and explains each step.

It follows Félix Landreau's TIPE study (2025), which rates a grid by the techniques a
progressive solver needs, and adds the classic catalogue's next ones (Sudopedia and HoDoKu's
technique pages; A. Stuart, "The Logic of Sudoku", 2007); a second ladder (``ladder="se"``)
follows Sudoku Explainer (N. Juillerat) step for step with SE's ratings, up to the chains of
:mod:`.chains`.  At every step the easiest technique that makes progress is applied and
logged in words, then the ladder starts again; when none applies it guesses the cell with
the fewest candidates.  Every technique is a sound deduction (the uniqueness ones only under
``assume_unique``), so the guessing search enumerates all solutions when asked.  The ladders
in full: :class:`HumanSolver`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Iterator, Sequence

from ..errors import OutOfTime
from . import chains
from .grid import Clock, Contradiction, Geometry, State, Step, cells_of, geometry, values_of

TECHNIQUES: tuple[str, ...] = (
    "last free cell", "hidden single", "naked single", "naked pair", "naked triple",
    "pointing pair", "hidden pair", "hidden triple", "box-line reduction", "x-wing", "y-wing",
    "swordfish", "simple colouring", "xyz-wing", "jellyfish", "unique rectangle", "xy-chain",
)
"""Every technique in the order tried: the study's twelve in its order, then the additions."""
GUESS = "guess"
"""The study's "backtracking": a cell's value chosen without a deduction."""
ORDER = {name: i for i, name in enumerate(TECHNIQUES + (GUESS,))}


# -- steps in words ---------------------------------------------------------------------------

def _removal_text(g: Geometry, eliminations: Sequence[tuple[int, int]]) -> str:
    by_value: dict[int, list[int]] = {}
    for cell, v in eliminations:
        by_value.setdefault(v, []).append(cell)
    return "; ".join(f"{v} from {', '.join(g.names[c] for c in sorted(cells))}"
                     for v, cells in sorted(by_value.items()))


def _elim_step(g: Geometry, technique: str, what: str, eliminations, **pattern) -> Step:
    """A step removing candidates; ``pattern``: the Step's cells, units, candidates, links."""
    elims = tuple(sorted(set(eliminations)))
    return Step(technique, (), elims, f"{what} removes {_removal_text(g, elims)}", **pattern)


def _place_step(g: Geometry, technique: str, cell: int, v: int, where: str = "", **pattern) -> Step:
    text = f"{g.names[cell]} = {v}: {technique}" + (f" in {where}" if where else "")
    return Step(technique, ((cell, v),), (), text, cells=(cell,), candidates=((cell, v),), **pattern)


def _marks(cand: Sequence[int], cells: Sequence[int], mask: int = -1) -> tuple[tuple[int, int], ...]:
    """The candidates of ``cells`` among the values of ``mask`` (default: all), the ones a
    pattern rests on."""
    return tuple((c, v) for c in cells for v in values_of(cand[c] & mask))


# -- the techniques ---------------------------------------------------------------------------
# Each takes a state and returns the first Step it finds, or None.  Units are scanned boxes
# first, then rows, then columns (the order people scan in).

def _unit_order(g: Geometry) -> list[int]:
    n = g.n
    return list(range(2 * n, 3 * n)) + list(range(n)) + list(range(n, 2 * n))


def last_free_cell(s: State) -> Step | None:
    g = s.g
    for u in _unit_order(g):
        free = [c for c in g.units[u] if not s.val[c]]
        if len(free) == 1:
            missing = g.full & ~s.placed[u]
            if missing & (missing - 1) or not missing & s.cand[free[0]]:
                raise Contradiction
            return _place_step(g, "last free cell", free[0], missing.bit_length(), g.unit_names[u],
                               units=(u,))
    return None


def hidden_single(s: State) -> Step | None:
    g, cand = s.g, s.cand
    for u in _unit_order(g):
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
                    return _place_step(g, "hidden single", c, low.bit_length(), g.unit_names[u],
                                       units=(u,))
    return None


def naked_single(s: State) -> Step | None:
    for c, m in enumerate(s.cand):
        if m and not m & (m - 1):
            return _place_step(s.g, "naked single", c, m.bit_length())
    return None


def _naked_subset(s: State, k: int, name: str) -> Step | None:
    g, cand = s.g, s.cand
    for u in _unit_order(g):
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
                return _elim_step(g, name, f"{name} {vals} at {where} in {g.unit_names[u]}", elims,
                                  cells=group, units=(u,), candidates=_marks(cand, group))
        if memo is not None:
            s.memo.add(memo)
    return None


def naked_pair(s: State) -> Step | None:
    return _naked_subset(s, 2, "naked pair")


def naked_triple(s: State) -> Step | None:
    return _naked_subset(s, 3, "naked triple")


def _hidden_subset(s: State, k: int, name: str) -> Step | None:
    g, cand = s.g, s.cand
    for u in _unit_order(g):
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
                return _elim_step(g, name, f"{name} {vals} at {at} in {g.unit_names[u]}", elims,
                                  cells=group, units=(u,), candidates=_marks(cand, group, keep))
        s.memo.add(memo)
    return None


def hidden_pair(s: State) -> Step | None:
    return _hidden_subset(s, 2, "hidden pair")


def hidden_triple(s: State) -> Step | None:
    return _hidden_subset(s, 3, "hidden triple")


def pointing_pair(s: State) -> Step | None:
    """A value confined, inside a box, to one row or column leaves the rest of that line."""
    g, cand, n = s.g, s.cand, s.g.n
    known, keys = _known_nothing(s, "pointing pair")
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
                        return _elim_step(g, "pointing pair",
                                          f"pointing pair {v} in {g.unit_names[b]} "
                                          f"({g.unit_names[line]})", elims, cells=tuple(pos),
                                          units=(b, line), candidates=_marks(cand, pos, bit))
    for key in keys:
        s.memo.add(key)
    return None


def box_line_reduction(s: State) -> Step | None:
    """A value confined, inside a row or column, to one box leaves the rest of that box."""
    g, cand, n = s.g, s.cand, s.g.n
    known, keys = _known_nothing(s, "box-line reduction")
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
                    return _elim_step(g, "box-line reduction",
                                      f"box-line reduction {v} in {g.unit_names[line]} "
                                      f"({g.unit_names[b]})", elims, cells=tuple(pos),
                                      units=(line, b), candidates=_marks(cand, pos, bit))
    for key in keys:
        s.memo.add(key)
    return None


def _value_cells(s: State) -> list[int]:
    """Per value v (index v − 1), the cells holding it as a bitset; the last grid's answer
    is kept (the techniques of one step all ask about the same grid)."""
    key = (s.g.n, tuple(s.cand))
    last = s.memo.last_grid
    if last[0] == key:
        return last[1]
    out = [0] * s.g.n
    for c, m in enumerate(s.cand):
        while m:
            low = m & -m
            m ^= low
            out[low.bit_length() - 1] |= 1 << c
    s.memo.last_grid = (key, out)
    return out


def _known_nothing(s: State, name: str) -> tuple[int, list[tuple]]:
    """For a technique that scans units and values and stops at the first find: the values
    (as a mask) known to give nothing, and the keys of the others, to be remembered when the
    whole scan finds nothing (a find stops the scan before every unit was seen)."""
    cells_of_value = _value_cells(s)
    known, keys = 0, []
    for i, cells in enumerate(cells_of_value):
        key = (name, s.g.box, i + 1, cells)
        if key in s.memo.nothing:
            known |= 1 << i
        else:
            keys.append(key)
    return known, keys


def _fish(s: State, k: int, name: str) -> Step | None:
    """X-wing (k=2), swordfish (3), jellyfish (4): k base lines holding value v only in k cover
    lines; v leaves the cover lines outside the base lines."""
    g, cand, n = s.g, s.cand, s.g.n
    cells_of_value = _value_cells(s)
    for v in range(1, n + 1):
        bit = 1 << (v - 1)
        memo = (name, g.box, v, cells_of_value[v - 1])
        if memo in s.memo.nothing:
            continue
        for base_is_row in (True, False):
            lines = []
            for i in range(n):
                unit = i if base_is_row else n + i
                if s.placed[unit] & bit:
                    continue
                cover = 0
                for j, c in enumerate(g.units[unit]):
                    if cand[c] & bit:
                        cover |= 1 << j
                if 2 <= cover.bit_count() <= k:
                    lines.append((i, cover))
            if len(lines) < k:
                continue
            for group in combinations(lines, k):
                cover = 0
                for _, m in group:
                    cover |= m
                if cover.bit_count() != k:
                    continue
                base = {i for i, _ in group}
                elims = []
                for j in cells_of(cover):
                    for i in range(n):
                        if i in base:
                            continue
                        c = i * n + j if base_is_row else j * n + i
                        if cand[c] & bit:
                            elims.append((c, v))
                if elims:
                    kind = "rows" if base_is_row else "columns"
                    other = "columns" if base_is_row else "rows"
                    text = (f"{name} {v} in {kind} {','.join(str(i + 1) for i in sorted(base))} "
                            f"and {other} {','.join(str(j + 1) for j in cells_of(cover))}")
                    return _elim_step(g, name, text, elims, **_fish_pattern(s, v, sorted(base),
                                                                            cells_of(cover), base_is_row))
        s.memo.add(memo)
    return None


def _fish_pattern(s: State, v: int, base: list[int], cover: list[int], base_is_row: bool) -> dict:
    """A fish's base and cover lines, and the value's cells in its base lines."""
    n = s.g.n
    base_units = [i if base_is_row else n + i for i in base]
    cover_units = [n + j if base_is_row else j for j in cover]
    cells = tuple(c for u in base_units for c in s.g.units[u] if s.cand[c] >> (v - 1) & 1)
    return {"cells": cells, "units": tuple(base_units + cover_units),
            "candidates": _marks(s.cand, cells, 1 << (v - 1))}


def x_wing(s: State) -> Step | None:
    return _fish(s, 2, "x-wing")


def swordfish(s: State) -> Step | None:
    return _fish(s, 3, "swordfish")


def jellyfish(s: State) -> Step | None:
    return _fish(s, 4, "jellyfish")


def _seen_by_all(s: State, cells: Sequence[int], bit: int) -> list[int]:
    common = -1
    for c in cells:
        common &= s.g.peer_bits[c]
    return [c for c in cells_of(common) if s.cand[c] & bit]


def y_wing(s: State) -> Step | None:
    """Pivot {a,b} seeing pincers {a,c} and {b,c}: c leaves every cell seeing both pincers."""
    g, cand = s.g, s.cand
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 2:
            continue
        pincers = [p for p in g.peers[pivot] if cand[p].bit_count() == 2
                   and (cand[p] & pm).bit_count() == 1]
        for x, y in combinations(pincers, 2):
            xm, ym = cand[x], cand[y]
            if (xm & pm) == (ym & pm):
                continue
            c_bit = xm & ym & ~pm
            if not c_bit:
                continue
            elims = [(c, c_bit.bit_length()) for c in _seen_by_all(s, (x, y), c_bit) if c != pivot]
            if elims:
                text = (f"y-wing {','.join(map(str, values_of(pm)))} at {g.names[pivot]} with "
                        f"{g.names[x]}, {g.names[y]}")
                return _elim_step(g, "y-wing", text, elims, cells=(pivot, x, y),
                                  candidates=_marks(cand, (pivot, x, y)))
    return None


def xyz_wing(s: State) -> Step | None:
    """Pivot {a,b,c} seeing pincers {a,c} and {b,c}: c leaves cells seeing all three."""
    g, cand = s.g, s.cand
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 3:
            continue
        pincers = [p for p in g.peers[pivot] if cand[p].bit_count() == 2 and cand[p] & ~pm == 0]
        for x, y in combinations(pincers, 2):
            xm, ym = cand[x], cand[y]
            if xm == ym or (xm | ym) != pm:
                continue
            c_bit = xm & ym
            elims = [(c, c_bit.bit_length()) for c in _seen_by_all(s, (pivot, x, y), c_bit)]
            if elims:
                text = (f"xyz-wing {','.join(map(str, values_of(pm)))} at {g.names[pivot]} with "
                        f"{g.names[x]}, {g.names[y]}")
                return _elim_step(g, "xyz-wing", text, elims, cells=(pivot, x, y),
                                  candidates=_marks(cand, (pivot, x, y)))
    return None


def conjugate_pairs(s: State, v: int) -> list[tuple[int, int, int]]:
    """(unit, a, b) for every unit where value v has exactly two places a < b: the strong
    links of v, shared by colouring, the turbot family and the strong-link fishes."""
    bit = 1 << (v - 1)
    out = []
    for u, cells in enumerate(s.g.units):
        if s.placed[u] & bit:
            continue
        pos = [c for c in cells if s.cand[c] & bit]
        if len(pos) == 2:
            out.append((u, pos[0], pos[1]))
    return out


def simple_colouring(s: State) -> Step | None:
    """Chains of conjugate pairs of one value, coloured alternately (Sudopedia "Simple
    Colors"): two cells of one colour in a unit make that colour false (colour wrap); a cell
    seeing both colours cannot hold the value (colour trap)."""
    g, cand = s.g, s.cand
    for v in range(1, g.n + 1):
        bit = 1 << (v - 1)
        links: dict[int, list[int]] = {}
        pairs = conjugate_pairs(s, v)
        for _, a, b in pairs:
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
        seen: set[int] = set()
        for start in links:
            if start in seen:
                continue
            colour = {start: 0}
            stack = [start]
            while stack:
                c = stack.pop()
                for d in links[c]:
                    if d not in colour:
                        colour[d] = 1 - colour[c]
                        stack.append(d)
            seen.update(colour)
            if len(colour) < 3:
                continue
            sides = ([c for c, k in colour.items() if k == 0], [c for c, k in colour.items() if k == 1])
            side_bits = [sum(1 << c for c in side) for side in sides]
            for k, side in enumerate(sides):
                if any(g.peer_bits[c] & side_bits[k] for c in side):
                    text = (f"simple colouring {v}: {', '.join(g.names[c] for c in sorted(side))} "
                            f"share a unit (colour wrap)")
                    return _elim_step(g, "simple colouring", text, [(c, v) for c in side],
                                      **_colouring_pattern(v, sides, pairs))
            elims = [(c, v) for c in range(len(cand)) if cand[c] & bit and c not in colour
                     and g.peer_bits[c] & side_bits[0] and g.peer_bits[c] & side_bits[1]]
            if elims:
                text = (f"simple colouring {v} on the chain from {g.names[start]} "
                        f"({len(colour)} cells, colour trap)")
                return _elim_step(g, "simple colouring", text, elims,
                                  **_colouring_pattern(v, sides, pairs))
    return None


def _colouring_pattern(v: int, sides: tuple[list[int], list[int]], pairs) -> dict:
    """The coloured cells (one colour, then the other) and their conjugate pairs as strong
    links (each pair once)."""
    cells = tuple(sorted(sides[0]) + sorted(sides[1]))
    coloured = set(cells)
    joined = dict.fromkeys((a, b) for _, a, b in pairs if a in coloured)
    return {"cells": cells, "candidates": tuple((c, v) for c in cells),
            "links": tuple(((a, v), (b, v), "strong") for a, b in joined)}


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
                    return _elim_step(g, "unique rectangle", text, elims, cells=corners,
                                      candidates=_marks(cand, corners, pair))
    return None


XY_CHAIN_MAX = 12


def xy_chain(s: State) -> Step | None:
    """A chain of bivalue cells, each seeing the next and sharing the value passed on: if
    the first is not z, the last is z, so z leaves every cell seeing both ends."""
    g, cand = s.g, s.cand
    bivalue = [c for c, m in enumerate(cand) if m.bit_count() == 2]
    biset = set(bivalue)
    for start in bivalue:
        for z_bit in (cand[start] & -cand[start], cand[start] & (cand[start] - 1)):
            # state: (cell, value made true in it), assuming start is not z
            out = cand[start] & ~z_bit
            frontier = [(start, out, (start,))]
            visited = {(start, out)}
            while frontier:
                nxt = []
                for cell, true_bit, path in frontier:
                    for p in g.peers[cell]:
                        if p not in biset or not cand[p] & true_bit or p in path:
                            continue
                        other = cand[p] & ~true_bit
                        if (p, other) in visited:
                            continue
                        visited.add((p, other))
                        chain = path + (p,)
                        if other == z_bit and len(chain) >= 3:
                            elims = [(c, z_bit.bit_length()) for c in _seen_by_all(s, (start, p), z_bit)
                                     if c not in chain]
                            if elims:
                                text = (f"xy-chain {z_bit.bit_length()} "
                                        f"{'-'.join(g.names[c] for c in chain)}")
                                return _elim_step(g, "xy-chain", text, elims,
                                                  **_xy_chain_pattern(cand, chain, z_bit.bit_length()))
                        if len(chain) < XY_CHAIN_MAX:
                            nxt.append((p, other, chain))
                frontier = nxt
    return None


def _xy_chain_pattern(cand: Sequence[int], chain: Sequence[int], z: int) -> dict:
    """An XY-chain's links: in each cell, the value coming in (z in the first) is strong to
    the other; that other is weak to the same value in the next cell."""
    links, into = [], z
    for i, c in enumerate(chain):
        out = (cand[c] & ~(1 << (into - 1))).bit_length()
        links.append(((c, into), (c, out), "strong"))
        if i + 1 < len(chain):
            links.append(((c, out), (chain[i + 1], out), "weak"))
        into = out
    return {"cells": tuple(chain), "candidates": _marks(cand, chain), "links": tuple(links)}


TECHNIQUE_FUNCTIONS = {
    "last free cell": last_free_cell, "hidden single": hidden_single, "naked single": naked_single,
    "naked pair": naked_pair, "naked triple": naked_triple, "pointing pair": pointing_pair,
    "hidden pair": hidden_pair, "hidden triple": hidden_triple,
    "box-line reduction": box_line_reduction, "x-wing": x_wing, "y-wing": y_wing,
    "swordfish": swordfish, "simple colouring": simple_colouring, "xyz-wing": xyz_wing,
    "jellyfish": jellyfish, "unique rectangle": unique_rectangle, "xy-chain": xy_chain,
}
assert tuple(TECHNIQUE_FUNCTIONS) == TECHNIQUES


def naked_quad(s: State) -> Step | None:
    return _naked_subset(s, 4, "naked quad")


def hidden_quad(s: State) -> Step | None:
    return _hidden_subset(s, 4, "hidden quad")


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
            return _place_step(g, "bug", cell, v, "the only cell with three candidates",
                               units=g.cell_units[cell])
    return None


def wxyz_wing(s: State) -> Step | None:
    """Four cells holding four values between them, a pivot seeing the three others; every
    value but one (z) is restricted (its cells in the wing all see each other), so z is in
    one of the wing's z cells and leaves every cell seeing them all (Sudopedia / HoDoKu
    "WXYZ-Wing").  Rated as SukakuExplainer's WXYZWingHint: 5.5, 5.6 when the pivot holds
    three values (a middle size is harder than the extremes)."""
    g, cand = s.g, s.cand
    small = [c for c, m in enumerate(cand) if 2 <= m.bit_count() <= 4]
    small_bits = sum(1 << c for c in small)
    for pivot in small:
        pm = cand[pivot]
        # a peer adding more than four values with the pivot's is in no wing of this pivot
        wings = [a for a in cells_of(g.peer_bits[pivot] & small_bits) if (pm | cand[a]).bit_count() <= 4]
        for i, a in enumerate(wings):
            ua = pm | cand[a]
            for j in range(i + 1, len(wings)):
                b = wings[j]
                ub = ua | cand[b]
                if ub.bit_count() > 4:
                    continue
                for c in wings[j + 1:]:
                    union = ub | cand[c]
                    if union.bit_count() != 4:
                        continue
                    cells = (pivot, a, b, c)
                    # the pivot sees the three others, so a value is unrestricted when two
                    # of those that do not see each other both hold it
                    loose = 0
                    if not g.peer_bits[a] >> b & 1:
                        loose |= cand[a] & cand[b]
                    if not g.peer_bits[a] >> c & 1:
                        loose |= cand[a] & cand[c]
                    if not g.peer_bits[b] >> c & 1:
                        loose |= cand[b] & cand[c]
                    if not loose or loose & (loose - 1):
                        continue
                    z = loose.bit_length()
                    zcells = [q for q in cells if cand[q] >> (z - 1) & 1]
                    elims = [(q, z) for q in _seen_by_all(s, zcells, 1 << (z - 1)) if q not in cells]
                    if elims:
                        text = (f"wxyz-wing {','.join(map(str, values_of(union)))} at "
                                f"{', '.join(g.names[q] for q in cells)} (z = {z})")
                        step = _elim_step(g, "wxyz-wing", text, elims, cells=cells,
                                          candidates=_marks(cand, cells))
                        return replace(step, rating=5.6 if pm.bit_count() == 3 else 5.5)
    return None


def turbot_fish(s: State) -> Step | None:
    """Two strong links of one value (units where it has exactly two places) whose ends
    b1, b2 see each other: b1 and b2 are not both the value, so one of the two other ends is,
    and the value leaves every cell seeing both (Sudopedia "Turbot Fish").  SukakuExplainer's
    names and ratings (TurbotFishHint): both links in rows or both in columns, skyscraper
    4.0; a row and a column, two-string kite 4.1; a box among them, turbot fish 4.2.  The
    easiest kind is looked for first."""
    g, cand, n = s.g, s.cand, s.g.n
    kinds = ({}, {}, {})
    cells_of_value = _value_cells(s)
    for v in range(1, n + 1):
        bit = 1 << (v - 1)
        memo = ("turbot fish", g.box, v, cells_of_value[v - 1])
        if memo in s.memo.nothing:
            continue
        for (u1, a1, a2), (u2, c1, c2) in combinations(conjugate_pairs(s, v), 2):
            t1, t2 = min(u1, u2) // n, max(u1, u2) // n
            kind = 2 if t2 == 2 else (0 if t1 == t2 else 1)
            if v in kinds[kind]:
                continue
            for s1, b1 in ((a1, a2), (a2, a1)):
                for b2, e in ((c1, c2), (c2, c1)):
                    if len({s1, b1, b2, e}) < 4 or not g.peer_bits[b1] >> b2 & 1:
                        continue
                    elims = [(c, v) for c in _seen_by_all(s, (s1, e), bit) if c not in (b1, b2)]
                    if elims:
                        text = (f"{('skyscraper', 'two-string kite', 'turbot fish')[kind]} {v}: "
                                f"({v}){g.names[s1]}={g.names[b1]}-{g.names[b2]}={g.names[e]}")
                        if v not in kinds[kind]:
                            path = (s1, b1, b2, e)
                            kinds[kind][v] = _elim_step(g, "turbot fish", text, elims, cells=path,
                                                        units=(u1, u2), **_x_chain_pattern(v, path))
        if not any(v in found for found in kinds):
            s.memo.add(memo)
    for kind, found in enumerate(kinds):
        if found:
            return replace(found[min(found)], rating=4.0 + kind / 10)
    return None


STRONG_LINK_BASE = {3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}
"""SukakuExplainer's StrongLinksHint base ratings by number of strong links (2 links are the
turbot fish family, 4.0-4.2); +0.1 when the links mix a box with lines or rows with columns,
+0.2 when they do both."""


def _strong_links(s: State, k: int) -> Step | None:
    """An X-chain of ``k`` strong links of one value (units where it has two places), each
    link's end seeing the next link's start: the two ends of the chain are not both false, so
    the value leaves every cell seeing both (SukakuExplainer's "k Strong-Linked Fishes",
    ungrouped; Sudopedia "X-Chain").  The lowest-rated instance of the first value found."""
    g, cand, n = s.g, s.cand, s.g.n
    cells_of_value = _value_cells(s)
    for v in range(1, n + 1):
        bit = 1 << (v - 1)
        memo = ("strong links", k, g.box, v, cells_of_value[v - 1])
        if memo in s.memo.nothing:
            continue
        ends: dict[int, list[tuple[int, int]]] = {}
        for u, a, b in conjugate_pairs(s, v):
            ends.setdefault(a, []).append((b, u))
            ends.setdefault(b, []).append((a, u))
        if len(ends) < 2 * k:
            s.memo.add(memo)
            continue
        best = None
        ends_bits = sum(1 << c for c in ends)
        kind_of = [1] * n + [2] * n + [0] * n  # a row, a column, a box

        cells_v = sum(1 << c for c, m in enumerate(cand) if m & bit)
        lowest = STRONG_LINK_BASE[k]

        def extend(path: list[int], on_path: int, kinds: int, links: int) -> None:
            # on_path: the path's cells as a bitset; kinds: bit 0 a box link, 1 a row, 2 a column
            nonlocal best
            if links == k:
                common = g.peer_bits[path[0]] & g.peer_bits[path[-1]] & cells_v & ~on_path
                if common:
                    rating = round(lowest + 0.1 * ((kinds & 1) + (kinds & 6 == 6)), 1)
                    if best is None or rating < best[0]:
                        best = (rating, tuple(path), [(c, v) for c in cells_of(common)])
                return
            for nxt in cells_of(g.peer_bits[path[-1]] & ends_bits & ~on_path):
                for far, u in ends[nxt]:
                    if not on_path >> far & 1:
                        extend(path + [nxt, far], on_path | 1 << nxt | 1 << far,
                               kinds | 1 << kind_of[u], links + 1)
                        if best is not None and best[0] == lowest:
                            return

        for first in ends:
            for far, u in ends[first]:
                extend([first, far], 1 << first | 1 << far, 1 << kind_of[u], 1)
                if best is not None and best[0] == lowest:
                    break  # nothing rated lower can come
            if best is not None:
                break
        if best is not None:
            rating, path, elims = best
            chain = "".join((f"({v}){g.names[c]}" if i == 0 else ("=" if i % 2 else "-") + g.names[c])
                            for i, c in enumerate(path))
            step = _elim_step(g, f"{k} strong links", f"{k} strong links {v}: {chain}", elims,
                              cells=path, **_x_chain_pattern(v, path))
            return replace(step, rating=rating)
        s.memo.add(memo)
    return None


def _x_chain_pattern(v: int, path: Sequence[int]) -> dict:
    """The links of a chain of one value's strong links, ``path`` its cells: strong, weak,
    strong, ... (Eureka's ``=``, ``-``)."""
    return {"candidates": tuple((c, v) for c in path),
            "links": tuple(((a, v), (b, v), "weak" if i % 2 else "strong")
                           for i, (a, b) in enumerate(zip(path, path[1:])))}


def three_strong_links(s: State) -> Step | None:
    return _strong_links(s, 3)


def four_strong_links(s: State) -> Step | None:
    return _strong_links(s, 4)


def five_strong_links(s: State) -> Step | None:
    return _strong_links(s, 5)


def six_strong_links(s: State) -> Step | None:
    return _strong_links(s, 6)


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
                for pair in (a | b for a, b in combinations(list(_bits_of(common)), 2)):
                    floor = [x for x in corners if cand[x] == pair]
                    roof = [x for x in corners if cand[x] != pair]
                    if len(floor) != 2 or len(roof) != 2:
                        continue
                    x, y = roof
                    extra_x, extra_y = cand[x] & ~pair, cand[y] & ~pair
                    where = ", ".join(g.names[q] for q in sorted(corners))
                    vals = ",".join(map(str, values_of(pair)))
                    pattern = {"cells": tuple(sorted(corners)),
                               "candidates": _marks(cand, sorted(corners), pair | extra_x | extra_y)}
                    if extra_x == extra_y and extra_x.bit_count() == 1:
                        elims = [(q, extra_x.bit_length()) for q in _seen_by_all(s, roof, extra_x)]
                        if elims:
                            step = _elim_step(g, "unique rectangle", f"unique rectangle type 2 {vals} at {where}",
                                              elims, **pattern)
                            return replace(step, rating=4.6)
                    shared = [u for u in g.cell_units[x] if u in g.cell_units[y]]
                    for u in shared:
                        for a in _bits_of(pair):
                            if all(q in roof for q in g.units[u] if cand[q] & a):
                                b = pair & ~a
                                elims = [(q, b.bit_length()) for q in roof]
                                step = _elim_step(g, "unique rectangle",
                                                  f"unique rectangle type 4 {vals} at {where} "
                                                  f"({a.bit_length()} only there in {g.unit_names[u]})", elims,
                                                  units=(u,), **pattern)
                                return replace(step, rating=4.5)
    return None


def _bits_of(mask: int) -> list[int]:
    return [1 << (v - 1) for v in values_of(mask)]


def aligned_pair_exclusion(s: State) -> Step | None:
    """Two cells (each with a bivalue peer) and the bivalue cells that see both: a pair of
    values for the two cells is excluded when it is one value twice in a shared unit, or when
    it would empty one of those bivalue cells; a value of a cell in no allowed pair goes (SE's
    "Aligned Pair Exclusion", 6.2; Sudopedia "Subset Exclusion")."""
    g, cand = s.g, s.cand
    if any(m and not m & (m - 1) for m in cand):
        return None  # SE skips it while a naked single remains
    bivalue_bits = sum(1 << c for c, m in enumerate(cand) if m.bit_count() == 2)
    peer_bits = g.peer_bits
    base = [c for c, m in enumerate(cand) if m.bit_count() >= 2 and peer_bits[c] & bivalue_bits]
    base_bits = sum(1 << c for c in base)
    for a in base:
        seen_a = cells_of(peer_bits[a] & bivalue_bits)
        # the b after a (grid order) that two of the bivalue cells seeing a see too
        pairs_b = 0
        for i, c1 in enumerate(seen_a):
            for c2 in seen_a[i + 1:]:
                pairs_b |= peer_bits[c1] & peer_bits[c2]
        seen_a_bits = peer_bits[a] & bivalue_bits
        size_a = cand[a].bit_count()
        for b in cells_of(pairs_b & base_bits & ~((2 << a) - 1)):
            common = seen_a_bits & peer_bits[b]
            # a value of one cell goes only when each value of the other is excluded with it:
            # by a common cell holding both (one each), or as itself when the two cells see
            # each other; so the other cell holds at most that many values
            most = common.bit_count() + (peer_bits[a] >> b & 1)
            if size_a > most and cand[b].bit_count() > most:
                continue
            step = _aligned_pair(g, cand, a, b, cells_of(common))
            if step is not None:
                return step
    return None


def _allowed_values(mine: int, other: int, excluded: dict[int, int], see: bool) -> int:
    """The values of ``mine`` (a candidate mask) that leave the other cell of an aligned pair
    a value of ``other``: not excluded with it, nor the same value when the two cells see
    each other.  The bits are walked inline (SE's ladder tries some 150 pairs a step)."""
    allowed, rest = 0, mine
    while rest:
        v = rest & -rest
        rest ^= v
        if other & ~(excluded.get(v, 0) | (v if see else 0)):
            allowed |= v
    return allowed


def _aligned_pair(g: Geometry, cand, a: int, b: int, common: list[int]) -> Step | None:
    """The exclusions of one aligned pair a, b with the bivalue cells ``common`` seeing both:
    a pair of values is excluded when it is one of those cells' two values (it would empty
    that cell), or one value twice when a and b share a unit."""
    see = bool(g.peer_bits[a] >> b & 1)
    # excluded[x]: the values the other cell cannot take when one takes x (x a bit)
    excluded: dict[int, int] = {}
    for c in common:
        m = cand[c]
        low = m & -m
        excluded[low] = excluded.get(low, 0) | (m ^ low)
        excluded[m ^ low] = excluded.get(m ^ low, 0) | low
    ma, mb = cand[a], cand[b]
    allowed_a = _allowed_values(ma, mb, excluded, see)
    allowed_b = _allowed_values(mb, ma, excluded, see)
    if allowed_a == ma and allowed_b == mb:
        return None
    elims = [(a, v) for v in values_of(cand[a] & ~allowed_a)] + \
            [(b, v) for v in values_of(cand[b] & ~allowed_b)]
    if elims:
        text = (f"aligned pair exclusion on {g.names[a]}, {g.names[b]} with "
                f"{', '.join(g.names[c] for c in common)}")
        cells = (a, b, *common)
        return _elim_step(g, "aligned pair exclusion", text, elims, cells=cells,
                          candidates=_marks(cand, cells))
    return None


# -- Sudoku Explainer's ladder ----------------------------------------------------------------
# SE's techniques in its order, with its ratings (N. Juillerat, Sudoku Explainer 1.2, and the
# SukakuExplainer fork's Solver.java and hint classes): hidden single 1.2 in a box, 1.5 in a
# line, 1.0 for the last cell of a unit; naked single 2.3; pointing 2.6, claiming 2.8; naked
# pair 3.0; X-wing 3.2; hidden pair 3.4; naked triple 3.6; swordfish 3.8; hidden triple 4.0;
# XY-wing 4.2; XYZ-wing 4.4; unique rectangle 4.5 (type 2: 4.6); naked quad 5.0; jellyfish
# 5.2; hidden quad 5.4; BUG 5.6; aligned pair exclusion 6.2; then the chains of
# :mod:`.chains`, rated by the chain.  The Sudoku Exchange bank, the public data with SE
# ratings, was rated by a SukakuExplainer-like version (its 4.1 puzzles are two-string kites,
# its 5.4 ones three strong links), so SukakuExplainer's additions are here too, at their
# ratings: the turbot fish family 4.0-4.2 (after the hidden triple), WXYZ-wing 5.5-5.6 and
# the strong-linked fishes 5.4-6.9 (X-chains of 3-6 strong links, before the chains).
# Not here: SE's "direct" variants of the subsets (a subset that yields a single at once,
# 1.7-2.5), aligned triple exclusion (7.5), unique rectangles of type 3, unique loops, BUG
# types 2-4, grouped links, VWXYZ-wings: a puzzle whose hardest step is one of those is rated
# by the next rung that solves it.

SE_RATINGS = {
    "last free cell": 1.0, "naked single": 2.3, "pointing pair": 2.6, "box-line reduction": 2.8,
    "naked pair": 3.0, "x-wing": 3.2, "hidden pair": 3.4, "naked triple": 3.6, "swordfish": 3.8,
    "hidden triple": 4.0, "y-wing": 4.2, "xyz-wing": 4.4, "unique rectangle": 4.5,
    "naked quad": 5.0, "jellyfish": 5.2, "hidden quad": 5.4, "bug": 5.6,
    "aligned pair exclusion": 6.2,
}


def _rated(f, technique: str):
    def rated(s: State) -> Step | None:
        step = f(s)
        if step is None:
            return None
        if step.rating is not None:
            return step
        rating = SE_RATINGS.get(technique)
        if technique == "hidden single":
            rating = 1.2 if " in box " in step.text else 1.5
        return replace(step, rating=rating)
    rated.__name__ = f.__name__
    return rated


def _chain_rung(kind: str, ctx):
    """The rung ``kind`` of :mod:`.chains`; ``ctx`` (a ``chains.ChainContext``, one per
    solver, shared by its rungs) is what they remember between steps."""
    def rung(s: State, deadline: Clock | None = None) -> Step | None:
        if kind == "chains":
            hint = chains.cycles_and_forcing_chains(s, deadline, ctx)
        else:
            hint = chains.multiple_chains(s, deadline=deadline, ctx=ctx, **chains.RUNGS[kind])
        if hint is None:
            return None
        return Step(hint.technique, hint.placements, hint.eliminations, hint.text, 0, hint.rating,
                    cells=tuple(dict.fromkeys(c for c, _ in hint.candidates)),
                    candidates=hint.candidates, links=hint.links)
    rung.__name__ = kind.replace(" ", "_")
    rung.takes_deadline = True
    return rung


SE_LADDER: tuple[str, ...] = (
    "last free cell", "hidden single", "naked single", "pointing pair", "box-line reduction",
    "naked pair", "x-wing", "hidden pair", "naked triple", "swordfish", "hidden triple",
    "turbot fish", "y-wing", "xyz-wing", "unique rectangle", "unique rectangle 2/4", "naked quad",
    "jellyfish", "hidden quad", "wxyz-wing", "3 strong links", "bug", "4 strong links",
    "aligned pair exclusion", "5 strong links", "6 strong links", "chains", "nishio", "multiple chains", "dynamic chains", "dynamic chains+",
)
"""The rungs of the ``se`` ladder in order; the last five are the chain searches."""
CHAIN_RUNGS = ("chains", "nishio", "multiple chains", "dynamic chains", "dynamic chains+")
UNIQUENESS = frozenset({"unique rectangle", "unique rectangle 2/4", "bug"})


# -- the solver -------------------------------------------------------------------------------

@dataclass
class Solved:
    """One solution and the steps of the branch that reached it."""

    values: tuple[int, ...]
    steps: list[Step]


@dataclass
class HumanSolver:
    """Easiest technique first; guess when stuck.  ``techniques`` limits the ones used (in
    the order of :data:`TECHNIQUES`); ``truth`` (a known solution) makes every elimination and
    placement checked while the branch agrees with it — a wrong deduction raises
    ``AssertionError`` naming the step.

    Félix Landreau's TIPE study (2025) rates a grid by the techniques a progressive solver needs, "les
    techniques fournies par ordre croissant de difficulté": last free cell, hidden single, naked
    single, naked pair, naked triple, pointing pair, hidden pair, hidden triple, box-line
    reduction, X-wing, Y-wing, swordfish, and backtracking when nothing else works.  This module
    adds, after those, simple colouring, XYZ-wing, jellyfish, unique rectangle (type 1) and
    XY-chains (the classic catalogue: Sudopedia / HoDoKu's technique pages, A. Stuart's
    "The Logic of Sudoku").

    At every step the solver applies the *easiest* technique that makes progress (one placement
    or one set of eliminations), logs it in words ("r3c5 = 7: hidden single in box 2"), and
    starts again from the easiest.  When none applies it guesses the cell with the fewest
    candidates (the study's "backtracking"), solving each branch the same way, and records the
    guess depth.  Candidates are bitmasks (bit v-1 for value v) per cell; every grid with
    rectangular blocks is handled, each technique wherever it is defined.

    A second ladder, ``HumanSolver(ladder="se")``, follows Sudoku Explainer instead (N.
    Juillerat's SE and its SukakuExplainer fork): SE's techniques in SE's order, each step
    carrying SE's rating (``Step.rating``), up to the chains and forcing chains of
    :mod:`.chains`; the rating package scores a puzzle by SE's rule, the hardest step's rating
    (see the comment above :data:`SE_RATINGS`)."""

    box: tuple[int, int] = (3, 3)
    techniques: tuple[str, ...] = TECHNIQUES
    ladder: str = "human"  # "human": TECHNIQUES; "se": Sudoku Explainer's SE_LADDER (rated steps)
    assume_unique: bool = False
    truth: tuple[int, ...] | None = None
    deadline: Clock | None = None
    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    max_depth: int = 0
    steps_taken: int = 0
    _functions: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        self.g = geometry(tuple(self.box))
        if self.ladder == "se":
            funcs = {**TECHNIQUE_FUNCTIONS, "naked quad": naked_quad, "hidden quad": hidden_quad,
                     "bug": bug, "aligned pair exclusion": aligned_pair_exclusion,
                     "unique rectangle 2/4": unique_rectangle_2_4, "turbot fish": turbot_fish,
                     "wxyz-wing": wxyz_wing, "3 strong links": three_strong_links,
                     "4 strong links": four_strong_links, "5 strong links": five_strong_links,
                     "6 strong links": six_strong_links}
            ctx = chains.ChainContext()
            self._functions = [_chain_rung(t, ctx) if t in CHAIN_RUNGS else _rated(funcs[t], t)
                               for t in SE_LADDER if t not in UNIQUENESS or self.assume_unique]
        elif self.ladder == "human":
            self._functions = [TECHNIQUE_FUNCTIONS[t] for t in TECHNIQUES if t in self.techniques
                               and (t != "unique rectangle" or self.assume_unique)]
        else:
            raise ValueError(f"unknown ladder {self.ladder!r} (human, se)")

    def next_step(self, s: State) -> Step | None:
        """The easiest step that makes progress (raises Contradiction on a dead branch)."""
        for f in self._functions:
            step = f(s, self.deadline) if getattr(f, "takes_deadline", False) else f(s)
            if step is not None:
                return step
        return None

    def solutions(self, givens: Sequence[int]) -> Iterator[Solved]:
        """Every solution, each with the steps of its branch (guesses included)."""
        try:
            state = State.from_givens(self.g, givens)
        except Contradiction:
            return
        yield from self._search(state, [], 0)

    def _search(self, s: State, steps: list[Step], depth: int) -> Iterator[Solved]:
        self.nodes += 1
        self.max_depth = max(self.max_depth, depth)
        on_truth = self.truth is not None and self._agrees(s)
        try:
            while s.unsolved:
                # before every look for a step (a scan of the ladder: a clock reading costs a
                # fraction of one), not every so many steps taken: a search of guesses alone
                # takes no step (an empty 25x25, 10 ms a scan) and would overrun its limit
                if self.deadline is not None and self.deadline.expired():
                    raise OutOfTime
                step = self.next_step(s)
                if step is None:
                    break
                if on_truth:
                    self._check(step)
                self.steps_taken += 1
                s.apply(step)
                steps.append(replace(step, depth=depth))
        except Contradiction:
            self.backtracks += 1
            return
        if not s.unsolved:
            yield Solved(tuple(s.val), steps)
            return
        cell = min((c for c, m in enumerate(s.cand) if m), key=lambda c: s.cand[c].bit_count())
        self.guesses += 1
        options = values_of(s.cand[cell])
        for v in options:
            child = s.copy()
            guess = Step(GUESS, ((cell, v),), (),
                         f"{self.g.names[cell]} = {v}: guess at depth {depth + 1} "
                         f"(candidates {','.join(map(str, options))})", depth + 1,
                         cells=(cell,), candidates=tuple((cell, o) for o in options))
            try:
                child.place(cell, v)
            except Contradiction:
                self.backtracks += 1
                continue
            yield from self._search(child, steps + [guess], depth + 1)

    def _agrees(self, s: State) -> bool:
        return all(not v or v == t for v, t in zip(s.val, self.truth))

    def _check(self, step: Step) -> None:
        for cell, v in step.eliminations:
            if self.truth[cell] == v:
                raise AssertionError(f"false elimination by {step.text}: "
                                     f"{self.g.names[cell]} is {v} in the solution")
        for cell, v in step.placements:
            if self.truth[cell] != v:
                raise AssertionError(f"false placement by {step.text}: "
                                     f"{self.g.names[cell]} is {self.truth[cell]} in the solution")


# -- a fast counter for statuses --------------------------------------------------------------

def count_solutions(box: tuple[int, int], givens: Sequence[int], limit: int = 2) -> tuple[int, tuple[int, ...] | None]:
    """How many solutions (up to ``limit``) and the first: singles and MRV guessing only,
    the quick way to learn whether a puzzle is proper before it is rated."""
    solver = HumanSolver(box, techniques=("hidden single", "naked single"))
    first, count = None, 0
    for solved in solver.solutions(givens):
        count += 1
        first = first or solved.values
        if count >= limit:
            break
    return count, first
