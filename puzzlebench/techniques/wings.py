"""Wings and bivalue chains: Y-wing, XYZ-wing, WXYZ-wing, XY-chains, and aligned pair
exclusion (Sudoku Explainer's 6.2).  Each technique takes a :class:`State` and returns the
first :class:`Step` it finds, or ``None``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Sequence

from .grid import Geometry, State, Step, cells_of, elimination, marks, seen_by_all, values_of


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
            elims = [(c, c_bit.bit_length()) for c in seen_by_all(s, (x, y), c_bit) if c != pivot]
            if elims:
                text = (f"y-wing {','.join(map(str, values_of(pm)))} at {g.names[pivot]} with "
                        f"{g.names[x]}, {g.names[y]}")
                return elimination(g, "y-wing", text, elims, cells=(pivot, x, y),
                                  candidates=marks(cand, (pivot, x, y)))
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
            elims = [(c, c_bit.bit_length()) for c in seen_by_all(s, (pivot, x, y), c_bit)]
            if elims:
                text = (f"xyz-wing {','.join(map(str, values_of(pm)))} at {g.names[pivot]} with "
                        f"{g.names[x]}, {g.names[y]}")
                return elimination(g, "xyz-wing", text, elims, cells=(pivot, x, y),
                                  candidates=marks(cand, (pivot, x, y)))
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
                            elims = [(c, z_bit.bit_length()) for c in seen_by_all(s, (start, p), z_bit)
                                     if c not in chain]
                            if elims:
                                text = (f"xy-chain {z_bit.bit_length()} "
                                        f"{'-'.join(g.names[c] for c in chain)}")
                                return elimination(g, "xy-chain", text, elims,
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
    return {"cells": tuple(chain), "candidates": marks(cand, chain), "links": tuple(links)}


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
                    elims = [(q, z) for q in seen_by_all(s, zcells, 1 << (z - 1)) if q not in cells]
                    if elims:
                        text = (f"wxyz-wing {','.join(map(str, values_of(union)))} at "
                                f"{', '.join(g.names[q] for q in cells)} (z = {z})")
                        step = elimination(g, "wxyz-wing", text, elims, cells=cells,
                                          candidates=marks(cand, cells))
                        return replace(step, rating=5.6 if pm.bit_count() == 3 else 5.5)
    return None


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
        return elimination(g, "aligned pair exclusion", text, elims, cells=cells,
                          candidates=marks(cand, cells))
    return None
