"""Fish and single-digit chains: X-wing, swordfish and jellyfish (a value's places in k
lines confined to k crossing lines), simple colouring of a value's conjugate pairs, the
turbot fish family and X-chains of three to six strong links (SukakuExplainer's
"strong-linked fishes").  Each technique takes a :class:`State` and returns the first
:class:`Step` it finds, or ``None``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Sequence

from .grid import State, Step, cells_of, elimination, marks, seen_by_all, value_cells


def _fish(s: State, k: int, name: str) -> Step | None:
    """X-wing (k=2), swordfish (3), jellyfish (4): k base lines holding value v only in k cover
    lines; v leaves the cover lines outside the base lines."""
    g, cand, n = s.g, s.cand, s.g.n
    cells_of_value = value_cells(s)
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
                    return elimination(g, name, text, elims, **_fish_pattern(s, v, sorted(base),
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
            "candidates": marks(s.cand, cells, 1 << (v - 1))}


def x_wing(s: State) -> Step | None:
    return _fish(s, 2, "x-wing")


def swordfish(s: State) -> Step | None:
    return _fish(s, 3, "swordfish")


def jellyfish(s: State) -> Step | None:
    return _fish(s, 4, "jellyfish")


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
                    return elimination(g, "simple colouring", text, [(c, v) for c in side],
                                      **_colouring_pattern(v, sides, pairs))
            elims = [(c, v) for c in range(len(cand)) if cand[c] & bit and c not in colour
                     and g.peer_bits[c] & side_bits[0] and g.peer_bits[c] & side_bits[1]]
            if elims:
                text = (f"simple colouring {v} on the chain from {g.names[start]} "
                        f"({len(colour)} cells, colour trap)")
                return elimination(g, "simple colouring", text, elims,
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


def turbot_fish(s: State) -> Step | None:
    """Two strong links of one value (units where it has exactly two places) whose ends
    b1, b2 see each other: b1 and b2 are not both the value, so one of the two other ends is,
    and the value leaves every cell seeing both (Sudopedia "Turbot Fish").  SukakuExplainer's
    names and ratings (TurbotFishHint): both links in rows or both in columns, skyscraper
    4.0; a row and a column, two-string kite 4.1; a box among them, turbot fish 4.2.  The
    easiest kind is looked for first."""
    g, cand, n = s.g, s.cand, s.g.n
    kinds = ({}, {}, {})
    cells_of_value = value_cells(s)
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
                    elims = [(c, v) for c in seen_by_all(s, (s1, e), bit) if c not in (b1, b2)]
                    if elims:
                        text = (f"{('skyscraper', 'two-string kite', 'turbot fish')[kind]} {v}: "
                                f"({v}){g.names[s1]}={g.names[b1]}-{g.names[b2]}={g.names[e]}")
                        if v not in kinds[kind]:
                            path = (s1, b1, b2, e)
                            kinds[kind][v] = elimination(g, "turbot fish", text, elims, cells=path,
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
    cells_of_value = value_cells(s)
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
            step = elimination(g, f"{k} strong links", f"{k} strong links {v}: {chain}", elims,
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
