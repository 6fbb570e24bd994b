"""The candidate grid the human solver and the chains search share: the units and peers of
an N x N Sudoku with R x C blocks (:class:`Geometry`), the candidates of one branch
(:class:`State`, bitmasks: bit v-1 for value v), and the move a technique finds
(:class:`Step`) with the words and marks of a step every technique writes.  Its own module
so that the techniques, :mod:`.chains` and :mod:`.ladder` (which calls them all) build on it
without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, Sequence


class Clock(Protocol):
    """What a technique's search is handed to know when to stop: anything with ``expired()``
    (the engine's deadline, the rating's budget)."""

    def expired(self) -> bool: ...


class Contradiction(Exception):
    """The current branch has no solution (a cell with no candidate, a value with no place)."""


# -- geometry ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Geometry:
    """Units, names and peers of an N x N grid with R x C blocks (cells row-major)."""

    n: int
    box: tuple[int, int]
    units: tuple[tuple[int, ...], ...]     # rows 0..n-1, columns n..2n-1, boxes 2n..3n-1
    unit_names: tuple[str, ...]
    cell_units: tuple[tuple[int, int, int], ...]
    peers: tuple[tuple[int, ...], ...]
    peer_bits: tuple[int, ...]              # bitset over cells
    names: tuple[str, ...]

    @property
    def full(self) -> int:
        return (1 << self.n) - 1

    def row(self, cell: int) -> int:
        return cell // self.n

    def col(self, cell: int) -> int:
        return cell % self.n

    def box_of(self, cell: int) -> int:
        return self.cell_units[cell][2] - 2 * self.n


@lru_cache(maxsize=None)
def geometry(box: tuple[int, int]) -> Geometry:
    r, c = box
    n = r * c
    rows = [tuple(i * n + j for j in range(n)) for i in range(n)]
    cols = [tuple(i * n + j for i in range(n)) for j in range(n)]
    boxes = []
    for b in range(n):
        top, left = (b // r) * r, (b % r) * c
        boxes.append(tuple((top + i) * n + left + j for i in range(r) for j in range(c)))
    units = tuple(rows + cols + boxes)
    names = tuple([f"row {i + 1}" for i in range(n)] + [f"column {j + 1}" for j in range(n)]
                  + [f"box {b + 1}" for b in range(n)])
    cell_units = []
    for cell in range(n * n):
        i, j = divmod(cell, n)
        cell_units.append((i, n + j, 2 * n + (i // r) * r + j // c))
    peers, peer_bits = [], []
    for cell in range(n * n):
        ps = sorted({p for u in cell_units[cell] for p in units[u]} - {cell})
        peers.append(tuple(ps))
        peer_bits.append(sum(1 << p for p in ps))
    return Geometry(n, box, units, names, tuple(cell_units), tuple(peers), tuple(peer_bits),
                    tuple(f"r{i // n + 1}c{i % n + 1}" for i in range(n * n)))


def values_of(mask: int) -> list[int]:
    """The values (1-based) in a candidate mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def cells_of(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


# -- steps ------------------------------------------------------------------------------------

Candidate = tuple[int, int]   # (cell, value)
Link = tuple[Candidate, Candidate, str]
"""A chain's link from one candidate to the next: ``strong`` (the first false makes the
second true, Eureka's ``=``) or ``weak`` (the first true makes the second false, ``-``)."""


@dataclass(frozen=True)
class Step:
    """One move: the technique, the values it places, the candidates it removes, in words,
    and the pattern it rests on, for drawing it: ``cells`` and ``units`` (indices into
    :attr:`Geometry.units`) it uses, the ``candidates`` it rests on, and for chains their
    ``links`` in order."""

    technique: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    text: str = ""
    depth: int = 0
    rating: float | None = None  # Sudoku Explainer's rating of the step (the ``se`` ladder)
    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    links: tuple[Link, ...] = ()


# -- the state --------------------------------------------------------------------------------

class Memo:
    """What the techniques remember between the steps of one puzzle, shared by the states of
    its branches (a new puzzle, a new memo: no state between puzzles).

    ``nothing``: keys (technique, block shape, value, the value's candidate cells as a
    bitset) of a technique that looks at one value at a time and found nothing for that
    value, or (technique, block shape, unit, the unit's candidates) of one that looks at one
    unit at a time.  SE's ladder reruns every technique after every step, and most values'
    and units' candidates are the same as last time, so the answer (nothing) is known without
    the search: fish, the turbot family, the strong-link fishes, pointing and claiming depend
    on nothing but the value's cells (a unit where the value is placed has no cell for it
    either), the hidden and naked subsets on nothing but the unit's candidates.
    ``last_grid``: the last grid's cells per value (the techniques of one step all ask about
    the same grid)."""

    __slots__ = ("nothing", "last_grid")

    def __init__(self):
        self.nothing: set = set()
        self.last_grid: tuple = (None, None)

    def add(self, key: tuple) -> None:
        if len(self.nothing) >= _NOTHING_MAX:
            self.nothing.clear()
        self.nothing.add(key)


_NOTHING_MAX = 1 << 16  # some 20 MB at most; a hard puzzle adds a few hundred


class State:
    """Candidates and values of one branch; ``cand[c]`` is 0 once a cell is placed; ``memo``:
    the puzzle's :class:`Memo` (a new one unless given; copies share it)."""

    __slots__ = ("g", "cand", "val", "placed", "unsolved", "memo")

    def __init__(self, g: Geometry, cand: list[int], val: list[int], placed: list[int], unsolved: int,
                 memo: Memo | None = None):
        self.g, self.cand, self.val, self.placed, self.unsolved = g, cand, val, placed, unsolved
        self.memo = Memo() if memo is None else memo

    @classmethod
    def from_givens(cls, g: Geometry, givens: Sequence[int]) -> "State":
        # A Sukaku's givens carry its pencil marks (models.sukaku.Position): the position
        # starts from those candidates, not from what the givens alone would leave.
        marks = getattr(givens, "candidates", None)
        s = cls(g, list(marks) if marks else [g.full] * (g.n * g.n), [0] * (g.n * g.n),
                [0] * len(g.units), g.n * g.n)
        for cell, v in enumerate(givens):
            if v:
                s.place(cell, v)
        return s

    def copy(self) -> "State":
        return State(self.g, self.cand[:], self.val[:], self.placed[:], self.unsolved, self.memo)

    def place(self, cell: int, v: int) -> None:
        bit = 1 << (v - 1)
        if self.val[cell]:
            if self.val[cell] != v:
                raise Contradiction
            return
        if not self.cand[cell] & bit:
            raise Contradiction
        self.val[cell] = v
        self.cand[cell] = 0
        self.unsolved -= 1
        for u in self.g.cell_units[cell]:
            self.placed[u] |= bit
        cand = self.cand
        for p in self.g.peers[cell]:
            if cand[p] & bit:
                cand[p] &= ~bit
                if not cand[p]:
                    raise Contradiction

    def eliminate(self, cell: int, v: int) -> None:
        if self.val[cell]:
            if self.val[cell] == v:
                raise Contradiction
            return
        self.cand[cell] &= ~(1 << (v - 1))
        if not self.cand[cell]:
            raise Contradiction

    def apply(self, step: Step) -> None:
        for cell, v in step.placements:
            self.place(cell, v)
        for cell, v in step.eliminations:
            self.eliminate(cell, v)

    def positions(self, unit: int, v: int) -> list[int]:
        bit = 1 << (v - 1)
        return [c for c in self.g.units[unit] if self.cand[c] & bit]


# -- steps in words and marks: what every technique writes --------------------------------------

def removal_text(g: Geometry, eliminations: Sequence[tuple[int, int]]) -> str:
    by_value: dict[int, list[int]] = {}
    for cell, v in eliminations:
        by_value.setdefault(v, []).append(cell)
    return "; ".join(f"{v} from {', '.join(g.names[c] for c in sorted(cells))}"
                     for v, cells in sorted(by_value.items()))


def elimination(g: Geometry, technique: str, what: str, eliminations, **pattern) -> Step:
    """A step removing candidates; ``pattern``: the Step's cells, units, candidates, links."""
    elims = tuple(sorted(set(eliminations)))
    return Step(technique, (), elims, f"{what} removes {removal_text(g, elims)}", **pattern)


def placement(g: Geometry, technique: str, cell: int, v: int, where: str = "", **pattern) -> Step:
    text = f"{g.names[cell]} = {v}: {technique}" + (f" in {where}" if where else "")
    return Step(technique, ((cell, v),), (), text, cells=(cell,), candidates=((cell, v),), **pattern)


def marks(cand: Sequence[int], cells: Sequence[int], mask: int = -1) -> tuple[tuple[int, int], ...]:
    """The candidates of ``cells`` among the values of ``mask`` (default: all), the ones a
    pattern rests on."""
    return tuple((c, v) for c in cells for v in values_of(cand[c] & mask))


def unit_order(g: Geometry) -> list[int]:
    n = g.n
    return list(range(2 * n, 3 * n)) + list(range(n)) + list(range(n, 2 * n))


def value_cells(s: State) -> list[int]:
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


def known_nothing(s: State, name: str) -> tuple[int, list[tuple]]:
    """For a technique that scans units and values and stops at the first find: the values
    (as a mask) known to give nothing, and the keys of the others, to be remembered when the
    whole scan finds nothing (a find stops the scan before every unit was seen)."""
    cells_of_value = value_cells(s)
    known, keys = 0, []
    for i, cells in enumerate(cells_of_value):
        key = (name, s.g.box, i + 1, cells)
        if key in s.memo.nothing:
            known |= 1 << i
        else:
            keys.append(key)
    return known, keys


def seen_by_all(s: State, cells: Sequence[int], bit: int) -> list[int]:
    common = -1
    for c in cells:
        common &= s.g.peer_bits[c]
    return [c for c in cells_of(common) if s.cand[c] & bit]


def bits_of(mask: int) -> list[int]:
    return [1 << (v - 1) for v in values_of(mask)]
