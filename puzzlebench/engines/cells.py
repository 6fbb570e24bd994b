"""Rules compiled for the pure-Python search engines: a domain per cell and, for every
candidate, the candidates it rules out.  Built from the shared vocabulary alone, so the baseline engines handle every puzzle kind:
``AllDifferent`` and ``AtMostOne`` become conflicts between candidates, a multi-cell
``ExactlyOne`` becomes conflicts plus an "at least one" check, ``Less`` becomes the conflicts
of the value pairs that break it, ``Visibility`` lines are checked on the towers as they are
placed, and a ``Cage`` becomes its admissible fillings as value masks per cell
(:class:`CageFillings`): a search keeps a cell's values that some filling still consistent
with the other cells' domains allows.  A ``Visibility`` line can be narrowed likewise
(:class:`VisibilitySupport`): each cell keeps the values some run of towers that fits the
domains and shows the clue allows.  Both have ``cells`` and ``supported(domains)``: one
propagator per term, which a search runs on the terms whose cells changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import EngineError
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules, Visibility,
                                 candidate_cell_value, different_groups, pairwise_different)


class Conflicts:
    """For candidate ``cell*n_values + v-1``: the ``(other cell, value bit)`` pairs it
    excludes, worked out the first time a search asks (a 64x64 grid has 262,144 candidates
    of about 190 conflicts each: built up front, that table would take 7 GB before the
    search began; asked for, it grows with the search).  ``peers``: for each cell, the cells that
    share an ``AllDifferent`` with it (the same value is excluded there); ``extra``: the
    pairs of multi-cell ``AtMostOne`` / ``ExactlyOne`` constraints, candidate by candidate."""

    def __init__(self, n_values: int, peers: tuple[tuple[int, ...], ...], extra: dict[int, set]):
        self.n_values = n_values
        self.peers = peers
        self.extra = extra
        self._known: list[tuple | None] = [None] * (len(peers) * n_values)

    def __getitem__(self, candidate: int) -> tuple[tuple[int, int], ...]:
        known = self._known[candidate]
        if known is None:
            cell, value = divmod(candidate, self.n_values)
            bit = 1 << value
            pairs = {(other, bit) for other in self.peers[cell]} | self.extra.get(candidate, set())
            known = self._known[candidate] = tuple(sorted(pairs))
        return known


@dataclass(frozen=True)
class CellProblem:
    n_cells: int
    n_values: int
    domains: tuple[int, ...]
    """Bitmask of each cell's allowed values (bit v-1 for value v); a given has one bit."""
    conflicts: Conflicts
    """For candidate ``cell*n_values + v-1``: the ``(other cell, value bit)`` pairs it excludes."""
    lines: tuple[Visibility, ...]
    lines_of_cell: tuple[tuple[int, ...], ...]
    """Indices into ``lines`` of the lines through each cell."""
    at_least_one: tuple[tuple[int, ...], ...]
    """Candidate groups of multi-cell ExactlyOne constraints: one of each must be true."""
    full_units: tuple[tuple[int, ...], ...] = ()
    """AllDifferent groups with as many cells as values: each value appears once in each."""
    less: tuple[tuple[int, int], ...] = ()
    """The ``(smaller, larger)`` cells of every ``Less``, for searches that prune by bounds."""
    cages: tuple["CageFillings", ...] = ()
    cages_of_cell: tuple[tuple[int, ...], ...] = ()
    """Indices into ``cages`` of the cages holding each cell."""
    sights: tuple["VisibilitySupport", ...] = ()
    """The propagator of each of ``lines`` (same order)."""


@dataclass(frozen=True)
class CageFillings:
    """A cage's admissible fillings as value masks, one per cell (bit v-1 for value v): a
    tuple filling allows one value per cell; a set filling (cells pairwise different) allows
    the set's values in every cell."""

    cage: Cage
    masks: tuple[tuple[int, ...], ...]
    needs: tuple[int, ...] = ()
    """Per set filling, its values: each must still have a place among the cells (a Killer
    cage summing to 3 on two cells needs a 1 and a 2); empty for tuple fillings."""

    @property
    def cells(self) -> tuple[int, ...]:
        return self.cage.cells

    def supported(self, domains: list[int]) -> list[int] | None:
        """Each cell's values that some filling consistent with ``domains`` allows; ``None``
        when no filling is consistent.  (Two-cell cages, most KenKen cages, take a loop of
        their own: this is the search's innermost step.)"""
        cells = self.cage.cells
        if len(cells) == 2 and not self.needs:
            a, b = domains[cells[0]], domains[cells[1]]
            ua = ub = 0
            for ma, mb in self.masks:
                ka, kb = a & ma, b & mb
                if ka and kb:
                    ua |= ka
                    ub |= kb
            return [ua, ub] if ua else None
        current = [domains[c] for c in cells]
        union = [0] * len(cells)
        found = False
        if self.needs:
            anywhere = 0
            for d in current:
                anywhere |= d
            for need in self.needs:
                if anywhere & need == need:
                    kept = [d & need for d in current]
                    if all(kept):
                        found = True
                        union = [u | k for u, k in zip(union, kept)]
            return union if found else None
        for masks in self.masks:
            kept = []
            for d, m in zip(current, masks):
                k = d & m
                if not k:
                    break
                kept.append(k)
            else:
                found = True
                union = [u | k for u, k in zip(union, kept)]
        return union if found else None

    def possible(self, values: list[int]) -> bool:
        """Whether the placed values (0 = not yet) fit some filling."""
        placed = [(1 << (values[c] - 1), i) for i, c in enumerate(self.cage.cells) if values[c]]
        return any(all(masks[i] & bit for bit, i in placed) for masks in self.masks)


@dataclass(frozen=True)
class VisibilitySupport:
    """A ``Visibility`` line's propagator: the values of each cell that some run of towers
    within the domains, seen ``clue`` times from the viewer, uses.

    A dynamic programme over the states (towers placed, tallest so far ``t``, towers seen
    ``s``) from the viewer outwards, forward then backward, as Pesant's regular constraint
    is filtered (G. Pesant, "A Regular Language Membership Constraint for Finite Sequences
    of Variables", CP 2004): a tower taller than ``t`` is seen and becomes the tallest, any
    other is hidden.  Without ``distinct`` that is the line's exact support (domain
    consistency).  With ``distinct`` (the cells pairwise different, a Latin line) the
    states keep what distinct values imply: ``k`` towers all at most ``t`` need ``t >= k``,
    a hidden tower is below ``t`` (not equal), and a line of as many cells as values ends
    on the tallest value.  That is enough for the classic deductions (a clue 1 puts the
    tallest in front, a clue N the heights in order, the k-th cell from a clue c at most
    N - c + k) but not all of them: the same value in two cells is left to the
    ``AllDifferent``, so the support may keep values no permutation uses (never the other
    way round: tests/engines/test_properties.py checks it against brute force).  The native
    Skyscrapers engine takes both clues of a line at once over value sets
    (native/skyscrapers.c); per term, in Python, the sets cost more than they would save.
    """

    line: Visibility
    n_values: int
    distinct: bool

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line.cells

    def supported(self, domains: list[int]) -> list[int] | None:
        """Each cell's values that some fitting run allows; ``None`` when no run fits."""
        nv, clue, distinct = self.n_values, self.line.clue, self.distinct
        doms = [domains[c] for c in self.line.cells]
        m = len(doms)
        if clue < 1 or clue > m:
            return None
        cap = (1 << (clue + 1)) - 1
        # F[k][t]: bit s set when k towers within the domains can show s with tallest t
        forward = [[1] + [0] * nv]
        for k, d in enumerate(doms):
            cur, new = forward[-1], [0] * (nv + 1)
            acc = 0
            for v in range(1, nv + 1):
                acc |= cur[v - 1]
                if acc and d >> (v - 1) & 1:
                    new[v] |= (acc << 1) & cap
            for t in range(1, nv + 1):
                if cur[t] and _hides(d, t, k, distinct):
                    new[t] |= cur[t]
            forward.append(new)
        end = 1 << clue
        last = [end if (not distinct or m < nv or t == nv) else 0 for t in range(nv + 1)]
        if not any(f & b for f, b in zip(forward[m], last)):
            return None
        out = [0] * m
        nxt = last
        for k in range(m - 1, -1, -1):
            d, cur = doms[k], forward[k]
            # support of position k: seen (v above every reachable tallest below it) or hidden
            acc, kept, hide_top = 0, 0, 0
            for v in range(1, nv + 1):
                acc |= cur[v - 1]
                if d >> (v - 1) & 1 and (acc << 1) & nxt[v]:
                    kept |= 1 << (v - 1)
            for t in range(nv, 0, -1):
                if cur[t] & nxt[t] and (not distinct or t >= k + 1):
                    hide_top = t
                    break
            if hide_top:
                kept |= d & ((1 << (hide_top - 1 if distinct else hide_top)) - 1)
            if not kept:
                return None
            out[k] = kept
            # B[k][t]: the counts from which state (k, t) can still end on the clue
            back = [0] * (nv + 1)
            acc = 0
            for t in range(nv, -1, -1):
                if t < nv and d >> t & 1:       # value t+1 is taller than t
                    acc |= nxt[t + 1] >> 1
                b = acc
                if t and _hides(d, t, k, distinct):
                    b |= nxt[t]
                back[t] = b
            nxt = back
        return out


def _hides(domain: int, tallest: int, placed: int, distinct: bool) -> bool:
    """Whether the cell after ``placed`` towers of tallest ``tallest`` can hold a hidden tower:
    a value below the tallest (distinct: ``placed + 1`` values at most ``tallest``) or, when
    values may repeat, equal to it."""
    if distinct:
        return tallest >= placed + 1 and domain & ((1 << (tallest - 1)) - 1) != 0
    return domain & ((1 << tallest) - 1) != 0


def cage_fillings(rules: Rules, cage: Cage, groups: list[set[int]]) -> CageFillings:
    nv = rules.n_values
    distinct = pairwise_different(rules, cage.cells, groups)
    masks = []
    for filling in cage.fillings(nv, distinct):
        if distinct:
            mask = sum(1 << (v - 1) for v in filling)
            masks.append((mask,) * len(cage.cells))
        else:
            masks.append(tuple(1 << (v - 1) for v in filling))
    needs = tuple(m[0] for m in masks) if distinct and len(cage.cells) > 1 else ()
    return CageFillings(cage, tuple(masks), needs)


@lru_cache(maxsize=64)
def _conflicts(n_cells: int, n_values: int, constraints: tuple) -> tuple[Conflicts, tuple]:
    """The conflicts of a structure (shared by its puzzles, so each candidate's list is
    worked out once per shape) and its "at least one" groups."""
    peers: list[set[int]] = [set() for _ in range(n_cells)]
    extra: dict[int, set[tuple[int, int]]] = {}
    at_least_one = []
    for con in constraints:
        if isinstance(con, AllDifferent):
            for a in con.cells:
                peers[a].update(con.cells)
        elif isinstance(con, (AtMostOne, ExactlyOne)):
            cells = {candidate_cell_value(x, n_values)[0] for x in con.candidates}
            if len(cells) > 1:
                for a in con.candidates:
                    ca, _ = candidate_cell_value(a, n_values)
                    for b in con.candidates:
                        cb, vb = candidate_cell_value(b, n_values)
                        if cb != ca:
                            extra.setdefault(a, set()).add((cb, 1 << (vb - 1)))
                if isinstance(con, ExactlyOne):
                    at_least_one.append(con.candidates)
            # a one-cell AtMostOne says nothing: one cell holds one value anyway
        elif not isinstance(con, Visibility):
            raise EngineError(f"the search engines cannot express {type(con).__name__}")
    for cell, others in enumerate(peers):
        others.discard(cell)
    return Conflicts(n_values, tuple(tuple(sorted(p)) for p in peers), extra), tuple(at_least_one)


def _less_conflicts(con: Less, n_values: int, extra: dict[int, set]) -> None:
    """``smaller < larger`` as conflicts between candidates: ``smaller = v`` rules out
    ``larger = w`` for every ``w <= v``, and ``larger = w`` rules out ``smaller = v`` for every
    ``v >= w``; so placing a value prunes the neighbour's candidates at once (mrv), and a
    value is a choice only when the placed neighbour allows it (backtrack)."""
    a, b = con.smaller, con.larger
    for v in range(1, n_values + 1):
        extra.setdefault(a * n_values + v - 1, set()).update((b, 1 << (w - 1)) for w in range(1, v + 1))
        extra.setdefault(b * n_values + v - 1, set()).update((a, 1 << (w - 1)) for w in range(v, n_values + 1))


CONFLICT_BYTES = 150
"""What one conflict of :class:`Conflicts` takes: a ``(cell, bit)`` tuple, its bit as an int
past 2^30 from 31 values on, and its place in a set (measured: 138-145 bytes from 8x8 to 24x24
Futoshiki)."""


def estimated_bytes(rules: Rules) -> int:
    """What :func:`compile_rules` takes for ``rules``, before it runs: a sign's conflicts are
    about n² (each value of one side against the values it rules out of the other), a one-of
    constraint's over several cells k²; the peers lists are a few per cell and value."""
    n = rules.n_values
    conflicts = rules.n_cells * n * 4
    for con in rules.constraints:
        if isinstance(con, Less):
            conflicts += n * (n + 1)
        elif isinstance(con, (AtMostOne, ExactlyOne)) and len(con.candidates) > n:
            conflicts += len(con.candidates) ** 2
    return conflicts * CONFLICT_BYTES


def compile_rules(rules: Rules) -> CellProblem:
    n, nv = rules.n_cells, rules.n_values
    full = (1 << nv) - 1
    domains = tuple(1 << (g - 1) if g else full for g in rules.givens)
    structural = tuple(c for c in rules.constraints if not isinstance(c, (Visibility, Less, Cage)))
    conflicts, at_least_one = _conflicts(n, nv, structural)
    signs = tuple(rules.of_type(Less))
    if signs:   # each puzzle's own: layered over the shape's cached conflicts
        extra = {k: set(v) for k, v in conflicts.extra.items()}
        for con in signs:
            _less_conflicts(con, nv, extra)
        conflicts = Conflicts(nv, conflicts.peers, extra)
    lines = tuple(rules.of_type(Visibility))
    through: list[list[int]] = [[] for _ in range(n)]
    for k, line in enumerate(lines):
        for cell in line.cells:
            through[cell].append(k)
    full_units = tuple(c.cells for c in rules.of_type(AllDifferent) if len(c.cells) == nv)
    less = tuple((c.smaller, c.larger) for c in signs)
    cage_list = list(rules.of_type(Cage))
    groups = different_groups(rules) if cage_list or lines else []
    sights = tuple(VisibilitySupport(line, nv, pairwise_different(rules, line.cells, groups)) for line in lines)
    cages = tuple(cage_fillings(rules, cage, groups) for cage in cage_list)
    in_cage: list[list[int]] = [[] for _ in range(n)]
    for k, cage in enumerate(cages):
        for cell in cage.cage.cells:
            in_cage[cell].append(k)
    return CellProblem(n, nv, domains, conflicts, lines, tuple(map(tuple, through)), at_least_one,
                       full_units, less, cages, tuple(map(tuple, in_cage)), sights)


def less_bounds(pairs: tuple[tuple[int, int], ...], domains: list[int]) -> list[int] | None:
    """Arc consistency of the ``Less`` pairs on bitmask domains, to a fixpoint: the larger
    cell keeps only values above the smaller one's least candidate, the smaller cell only
    values below the larger one's greatest (a chain ``a < b < c`` thus bounds all three
    before any is placed).  Returns the cells whose domains changed, or ``None`` when one
    is left empty."""
    changed: set[int] = set()
    again = True
    while again:
        again = False
        for a, b in pairs:
            da, db = domains[a], domains[b]
            nb = db & -((da & -da) << 1)               # above the least value of a
            na = da & ((1 << (nb.bit_length() - 1)) - 1) if nb else 0   # below the greatest of b
            if not na or not nb:
                return None
            if na != da:
                domains[a] = na
                changed.add(a)
                again = True
            if nb != db:
                domains[b] = nb
                changed.add(b)
                again = True
    return sorted(changed)


def line_possible(line: Visibility, values: list[int], n_values: int) -> bool:
    """Can the clue of ``line`` still be met, given the placed towers (0 = not yet placed)?

    Looks at the towers placed from the viewer outwards up to the first empty cell: they are
    seen so far; the rest can add at most one tower per remaining cell and per height above
    the tallest so far, and at least one more when the tallest height is still to come.
    """
    seen = tallest = 0
    placed_prefix = 0
    for cell in line.cells:
        h = values[cell]
        if not h:
            break
        placed_prefix += 1
        if h > tallest:
            seen, tallest = seen + 1, h
    if placed_prefix == len(line.cells):
        return seen == line.clue
    if seen > line.clue:
        return False
    remaining = len(line.cells) - placed_prefix
    if seen + min(remaining, n_values - tallest) < line.clue:
        return False
    return not (tallest < n_values and seen + 1 > line.clue)
