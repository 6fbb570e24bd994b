"""Chains of implications between candidates, as Sudoku Explainer finds and rates them.

Sudoku Explainer (N. Juillerat, 2006-2007; SukakuExplainer and the SudokuMonster fork) rates
a puzzle by the hardest step of a fixed ladder of techniques; from 6.5 up the rungs are
*chains* over potentials (a candidate assumed on or off), linked inside a cell (Y) and by
conjugate pairs (X): cycles, forcing chains, Nishio, multiple and dynamic forcing chains.
The ratings must match SE's, so the rungs, their order, base ratings, length term and choice
of hint are SE's (:class:`Chainer` lists them).  Our own code, written from the description
of SE's rules read in its public source; every conclusion is a sound deduction (each chain
is checked against known solutions by the tests).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ..errors import OutOfTime
from .grid import Candidate, Geometry, Link, State, cells_of

RUNGS = {"nishio": {"dynamic": True, "nishio": True}, "multiple chains": {"dynamic": False},
         "dynamic chains": {"dynamic": True}, "dynamic chains+": {"dynamic": True, "level": 1}}
"""The keyword arguments of :func:`multiple_chains` for each rung of SE's ladder after the
first (which is :func:`cycles_and_forcing_chains`)."""


def _check(deadline) -> None:
    if deadline is not None and deadline.expired():
        raise OutOfTime

# SE's base ratings, by rung
BASE = {"x-cycle": 6.5, "y-cycle": 6.5, "forcing x-chain": 6.6, "cycle": 7.0, "forcing chain": 7.0,
        "nishio forcing chain": 7.5, "multiple forcing chain": 8.0, "dynamic forcing chain": 8.5,
        "dynamic forcing chain+": 9.0}


def length_bonus(complexity: int) -> float:
    """SE's length term: +0.1 each time complexity − 2 passes 4, 6, 8, 12, 16, 24, 32, …"""
    added, ceil, odd = 0, 4, False
    length = complexity - 2
    while length > ceil:
        added += 1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added / 10


def max_complexity(bonus_tenths: int) -> int:
    """The largest complexity whose length term is ``bonus_tenths`` tenths (the bucket's end)."""
    ceil, odd = 4, False
    for _ in range(bonus_tenths):
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return ceil + 2


@dataclass(frozen=True)
class ChainHint:
    """One conclusion: candidates removed (``eliminations``) or a value placed, the rung, its
    rating (base + length term), the complexity and the chain(s) in words; for drawing them,
    the chains' ``candidates`` and ``links`` (as :class:`~.grid.Step` has them)."""

    technique: str
    rating: float
    complexity: int
    eliminations: tuple[tuple[int, int], ...]
    placements: tuple[tuple[int, int], ...]
    text: str
    order: int = 0  # SE's tie-break among equal ratings and lengths
    candidates: tuple[Candidate, ...] = ()
    links: tuple[Link, ...] = ()


# -- geometry helpers -------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _house_order(g: Geometry) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per cell: its peers box first, then row, then column (SE's order of the on→off rule),
    and its three units box, row, column."""
    peers, units = [], []
    for cell in range(g.n * g.n):
        r, c, b = g.cell_units[cell]
        seen, order = set(), []
        for u in (b, r, c):
            for q in g.units[u]:
                if q != cell and q not in seen:
                    seen.add(q)
                    order.append(q)
        peers.append(tuple(order))
        units.append((b, r, c))
    return tuple(peers), tuple(units)


def _name(g: Geometry, node: int) -> str:
    p, on = node >> 1, node & 1
    cell, k = divmod(p, g.n)
    return f"{g.names[cell]}{'=' if on else '<>'}{k + 1}"


# -- the chaining engine ----------------------------------------------------------------------
# A potential is p = cell * n + (value − 1); a node is 2p + 1 (on) or 2p (off).  ``par`` maps
# each node reached to the nodes it was deduced from (several for dynamic deductions: the
# removals that made a single).

class ChainContext:
    """What the chain rungs remember between the steps of one puzzle (one per solver: no
    state between solvers).  SE's ladder reruns the rungs after every step, and a step
    changes the cells of few values:

    - the chaining engine of the last grid (the rungs of one step, tried in turn, share its
      link tables and propagations);
    - per value, the single-value searches of rung 1 (X-cycles, forcing X-chains) with the
      hints they found at each limit, kept while the value's cells stay the same: an X link
      joins two places of one value, so those searches see nothing else;
    - per value, its easiest Nishio hint (a Nishio chain never leaves its value either).

    Each per-value memo keeps the value's latest cells only: a puzzle's cells only shrink,
    so an older key never comes back on the branch being solved."""

    def __init__(self):
        self.last: tuple = (None, None)
        self.x_values: dict = {}
        self.nishio: dict = {}

    def chainer(self, s: State) -> "Chainer":
        key = tuple(s.cand)
        last = self.last
        if last[0] != key or last[1].g is not s.g:
            if last[1] is not None and last[1].g is not s.g:
                self.x_values.clear()  # the per-value memos are of one block shape
                self.nishio.clear()
            last = self.last = (key, Chainer(s))
        return last[1]


class Chainer:
    """The chaining rungs of Sudoku Explainer's ladder over one state.

    Sudoku Explainer (N. Juillerat, 2006-2007; SukakuExplainer, the SudokuMonster fork) rates a
    puzzle by the hardest step a fixed ladder of techniques needs; from 6.5 up the ladder is made
    of *chains* over "potentials" (a candidate, assumed true = on, or false = off):

    - on → off: a true candidate makes the cell's other candidates false (a "Y" link, inside the
      cell) and the same value false in the cell's box, row and column;
    - off → on: a false candidate makes the cell's last other candidate true when the cell had two
      (Y link), and the value's last other place in a box, row or column true when it had two
      (an "X" link: a conjugate pair).

    The rungs, each an own search below, tried in SE's order with SE's base rating:

    - bidirectional cycles (an alternating loop back to its start: every candidate that sees an
      "on" node of both orientations goes): X-cycles and Y-cycles 6.5, mixed cycles 7.0;
    - forcing chains (an assumption that implies its own negation): X-chains (one value) 6.6,
      chains with both link kinds 7.0;
    - Nishio forcing chains 7.5: one value only, but *dynamic* (a false candidate is removed from
      the working grid, so the last place/last candidate rules see every removal made so far);
    - multiple forcing chains 8.0: static chains from every candidate of a cell (cell forcing
      chains) or every place of a value in a unit (region forcing chains) that agree on a
      conclusion;
    - dynamic forcing chains 8.5: contradiction, double (p on and p off both imply q), cell and
      region chains, all dynamic;
    - dynamic forcing chains (+) 9.0: as dynamic, and when propagation stops the working grid is
      searched for a pointing/claiming, a naked or hidden pair or an X-wing that the chain made
      possible (SE's "advanced" potentials, nesting level 1).

    A chain's rating is the base plus a length term: with ``k`` the number of distinct potentials
    the conclusion depends on (the ancestors of its target, summed over the chains of a multiple
    hint), 0.1 is added each time ``k − 2`` passes 4, 6, 8, 12, 16, 24, 32, … (the steps grow by
    3/2 and 4/3 alternately), as in SE's ``ChainingHint.getLengthDifficulty``.  Among the hints of
    one rung, SE applies the one with the lowest rating, then the shortest; so does this module."""

    def __init__(self, s: State):
        self.g = s.g
        self.n = s.g.n
        self.src = s.cand[:]
        self.peers, self.units3 = _house_order(s.g)
        self.cache: dict = {}
        self._succ: dict = {}
        self._counts: list[int] | None = None
        self._by_value: list[int] | None = None
        self._several: int | None = None

    def several(self) -> int:
        """The cells with several candidates on the source grid, as a bitset (the starts of
        the single-value searches)."""
        if self._several is None:
            self._several = sum(1 << cell for cell, m in enumerate(self.src) if m & (m - 1))
        return self._several

    def cells_by_value(self) -> list[int]:
        """Per value (index value − 1), the cells holding it on the source grid, as a bitset."""
        if self._by_value is None:
            out = self._by_value = [0] * self.n
            for cell, m in enumerate(self.src):
                for b in _bits(m):
                    out[b.bit_length() - 1] |= 1 << cell
        return self._by_value

    def counts(self) -> list[int]:
        """Places of each value in each unit on the source grid, index unit * n + value − 1."""
        if self._counts is None:
            n, src = self.n, self.src
            self._counts = [sum(1 for q in cells if src[q] >> k & 1)
                            for cells in self.g.units for k in range(n)]
        return self._counts

    def succ(self, y: bool, x: bool) -> list:
        """Static links on the source grid for one link mode: ``table[node]`` is the tuple of
        the nodes it implies (the static searches ask for the same links thousands of times,
        so every mode's table is built once per grid, all nodes at once).

        on → off: with ``y`` the cell's other candidates (ascending), then the value in the
        cell's peers, box first, then row, then column; off → on: with ``y`` the last other
        candidate of a cell that had two, with ``x`` the value's last other place in the
        cell's box, row, column (once per unit: a pair of cells conjugate in a box and a line
        is listed twice, as the rule fires twice)."""
        table = self._succ.get((y, x))
        if table is None:
            self._build_links()
            table = self._succ[(y, x)]
        return table

    def _build_links(self) -> None:
        """The three tables of :meth:`succ` (x only, y only, both) in one pass: their parts
        are shared (the peers' off nodes, the cell's other candidates, the two off → on rules)."""
        n, src, g = self.n, self.src, self.g
        size = 2 * n * n * n
        tx, ty, txy = [()] * size, [()] * size, [()] * size
        places = [[[q for q in cells if src[q] >> k & 1] for k in range(n)] for cells in g.units]
        units3, peers = self.units3, self.peers
        for cell, m in enumerate(src):
            if not m:
                continue
            base = cell * n
            others = [(b, 2 * (base + b.bit_length() - 1)) for b in _bits(m)]
            for bit, off_node in others:
                k = off_node // 2 - base
                p = base + k
                peer = tuple([2 * (q * n + k) for q in peers[cell] if src[q] & bit])
                own = tuple([nd for b, nd in others if b != bit])
                on = own + peer if own else peer
                tx[2 * p + 1] = peer
                ty[2 * p + 1] = txy[2 * p + 1] = on
                off_y = (own[0] + 1,) if len(own) == 1 else ()
                off_x = []
                for u in units3[cell]:
                    pl = places[u][k]
                    if len(pl) == 2:
                        off_x.append(2 * ((pl[1] if pl[0] == cell else pl[0]) * n + k) + 1)
                off_x = tuple(off_x)
                tx[2 * p] = off_x
                ty[2 * p] = off_y
                txy[2 * p] = off_y + off_x
        self._succ[(False, True)], self._succ[(True, False)], self._succ[(True, True)] = tx, ty, txy

    def out_offs(self, y: bool, x: bool) -> tuple[list, list]:
        """Per on node, the off nodes it implies that imply something in turn (in link
        order, and as a bitset over nodes): the only ones a cycle can go through."""
        key = ("out", y, x)
        hit = self._succ.get(key)
        if hit is None:
            table = self.succ(y, x)
            hit = self._succ[key] = _out_offs(table, range(1, len(table), 2))
        return hit

    def reach(self, y: bool, x: bool, bits: bool = True) -> tuple[list[int], list[int], list[int]]:
        """The static link graph of one mode in strongly connected components: (component of
        each node, the size of each component, and with ``bits`` per component a bitset of
        the components reachable from it, itself included).  A forcing chain from a node exists
        only if its opposite is reachable, a cycle only if the node's component holds four
        nodes or more: searches that cannot succeed are known at once and never run (their
        outcome, nothing, is the same)."""
        key = ("reach", y, x)
        hit = self._succ.get(key)
        if hit is not None and (hit[2] is not None or not bits):
            return hit
        n, src = self.n, self.src
        roots = [2 * (cell * n + b.bit_length() - 1) + on for cell, m in enumerate(src)
                 for b in _bits(m) for on in (1, 0)]
        out = self._succ[key] = _scc(self.succ(y, x), roots, bits)
        return out

    # full propagation (SE's doChaining) ------------------------------------------------------

    def propagate(self, start: int, *, y: bool, dynamic: bool, level: int = 0):
        """Every node implied by ``start``: (par, contradiction) where contradiction is
        (on node, off node) of one potential, or None."""
        key = (start, y, dynamic, level)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        par = {start: ()}
        # the queues are lists read from an index (on nodes first, each in arrival order)
        on_q, off_q = ([start], []) if start & 1 else ([], [start])
        i_on = i_off = 0
        # on -> off never depends on the removals (a removed candidate is already off), so
        # the static links serve both modes; off -> on does, in dynamic mode
        links = self.succ(y, True)
        result = None
        if not dynamic and not level:
            # every pending on node, then one off node, until a contradiction or the end
            while result is None:
                while i_on < len(on_q):
                    nd = on_q[i_on]
                    i_on += 1
                    parents = (nd,)
                    for off in links[nd]:
                        if off not in par:
                            if off + 1 in par:
                                par[off] = parents
                                result = (off + 1, off)
                                break
                            par[off] = parents
                            off_q.append(off)
                        elif off + 1 in par:
                            par[off] = parents
                            result = (off + 1, off)
                            break
                    if result is not None:
                        break
                if result is not None or i_off == len(off_q):
                    break
                nd = off_q[i_off]
                i_off += 1
                parents = (nd,)
                for on in links[nd]:
                    if on not in par:
                        if on - 1 in par:
                            par[on] = parents
                            result = (on, on - 1)
                            break
                        par[on] = parents
                        on_q.append(on)
                    elif on - 1 in par:
                        par[on] = parents
                        result = (on, on - 1)
                        break
            out = self.cache[key] = (par, result)
            return out
        cur = self.src[:]
        cnt = self.counts()[:]
        n, units, units3, src = self.n, self.g.units, self.units3, self.src
        while i_on < len(on_q) or i_off < len(off_q):
            if i_on < len(on_q):
                nd = on_q[i_on]
                i_on += 1
                for off in links[nd]:
                    if off + 1 in par:
                        par[off] = (nd,)
                        result = (off + 1, off)
                        break
                    if off not in par:
                        par[off] = (nd,)
                        off_q.append(off)
            else:
                nd = off_q[i_off]
                i_off += 1
                cell, k = divmod(nd >> 1, n)
                bit = 1 << k
                m = cur[cell]
                if m & bit:
                    made = []
                    rest = m & ~bit
                    if y and rest and not rest & (rest - 1):
                        gone = src[cell] & ~m
                        made.append((cell * n + rest.bit_length() - 1,
                                     (nd,) + tuple(2 * (cell * n + b.bit_length() - 1) for b in _bits(gone))))
                    for u in units3[cell]:
                        if cnt[u * n + k] == 2:
                            other = None
                            hidden = [nd]
                            for q in units[u]:
                                if q == cell:
                                    continue
                                if cur[q] & bit:
                                    other = q
                                elif src[q] & bit:
                                    hidden.append(2 * (q * n + k))
                            made.append((other * n + k, tuple(hidden)))
                    for q, parents in made:
                        on = 2 * q + 1
                        if on - 1 in par:
                            par[on] = parents
                            result = (on, on - 1)
                            break
                        if on not in par:
                            par[on] = parents
                            on_q.append(on)
                    cur[cell] = rest
                    for u in units3[cell]:
                        cnt[u * n + k] -= 1
            if result:
                break
            if level > 0 and i_on == len(on_q) and i_off == len(off_q):
                for off, parents in advanced_offs(self, cur):
                    if off not in par:
                        if off + 1 in par:
                            par[off] = parents
                            result = (off + 1, off)
                            break
                        par[off] = parents
                        off_q.append(off)
                if result:
                    break
        out = (par, result)
        self.cache[key] = out
        return out


def _out_offs(table: list, ons) -> tuple[list, list]:
    """:meth:`Chainer.out_offs` for the on nodes ``ons`` of ``table`` (the others: none)."""
    out = [()] * len(table)
    out_bits = [0] * len(table)
    for nd in ons:
        if table[nd]:
            kept = out[nd] = tuple([z for z in table[nd] if table[z]])
            bits = 0
            for z in kept:
                bits |= 1 << z
            out_bits[nd] = bits
    return out, out_bits


def _scc(table: list, roots: list[int], bits: bool = True) -> tuple[list[int], list[int], list[int] | None]:
    """The strongly connected components of the link graph ``table`` reachable from
    ``roots``: (component of each node, -1 for a node not reached; the size of each
    component; with ``bits`` per component a bitset of the components reachable from it,
    itself included)."""
    size = len(table)
    index = [-1] * size
    low = [0] * size
    comp = [-1] * size
    reach: list[int] = []
    sizes: list[int] = []
    stack: list[int] = []
    on_stack = [False] * size
    counter = 0
    # Tarjan's algorithm (R. Tarjan, "Depth-first search and linear graph algorithms",
    # 1972), iterative; components come out sinks first, so the reach of a component's
    # successors is known when it comes out
    for v0 in roots:
        if index[v0] >= 0:
            continue
        index[v0] = low[v0] = counter
        counter += 1
        stack.append(v0)
        on_stack[v0] = True
        work = [(v0, iter(table[v0]))]
        while work:
            v, it = work[-1]
            for w in it:
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, iter(table[w])))
                    break
                if on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == index[v]:
                    cid = len(sizes)
                    members = []
                    while True:
                        w = stack.pop()
                        on_stack[w] = False
                        comp[w] = cid
                        members.append(w)
                        if w == v:
                            break
                    sizes.append(len(members))
                    if bits:
                        found = 1 << cid
                        for w in members:
                            for z in table[w]:
                                c = comp[z]
                                if c != cid:
                                    found |= reach[c]
                        reach.append(found)
    return comp, sizes, reach if bits else None


def _bits(m: int):
    while m:
        low = m & -m
        m ^= low
        yield low


def ancestors(par: dict, *targets: int) -> int:
    """How many distinct nodes the targets depend on (themselves included)."""
    seen = set(targets)
    stack = list(targets)
    while stack:
        for q in par.get(stack.pop(), ()):
            if q not in seen:
                seen.add(q)
                stack.append(q)
    return len(seen)


def first_parents(par: dict, target: int) -> list[int]:
    """The chain to ``target``, from its start, followed through first parents."""
    path = [target]
    while par.get(path[-1]) and len(path) < 400:
        path.append(par[path[-1]][0])
    path.reverse()
    return path


def chain_text(g: Geometry, par: dict, target: int) -> str:
    """The chain to ``target`` (followed through first parents) in Eureka-like notation."""
    path = first_parents(par, target)
    return render(g, path, {nd: len(par.get(nd, ())) - 1 for nd in path})


def _told(g: Geometry, prefix: str, chains) -> tuple[str, tuple]:
    """A multiple hint's words, ``prefix`` then its chains ((par, target) each) in
    Eureka-like notation, with the chains themselves (to be drawn)."""
    return prefix + " ; ".join(chain_text(g, par, target) for par, target in chains), tuple(chains)


def _candidate(g: Geometry, node: int) -> Candidate:
    cell, k = divmod(node >> 1, g.n)
    return cell, k + 1


def path_pattern(g: Geometry, *paths: list[int]) -> dict:
    """The candidates and links of chains of nodes (each from its start): a link into an on
    node is strong, into an off node weak (``render``'s ``=`` and ``-``)."""
    nodes, links = {}, {}
    for path in paths:
        for nd in path:
            nodes.setdefault(_candidate(g, nd))
        for a, b in zip(path, path[1:]):
            links.setdefault((_candidate(g, a), _candidate(g, b), "strong" if b & 1 else "weak"))
    return {"candidates": tuple(nodes), "links": tuple(links)}


def render(g: Geometry, path: list[int], extra: dict | None = None, limit: int = 30) -> str:
    """Nodes as (value)cell, '-' a weak link (into an off node), '=' a strong link (into an
    on node), a leading '~' for an assumption that a candidate is false; ``[+k]``: k more
    removals made that single (dynamic chains)."""
    parts = []
    for i, nd in enumerate(path):
        if i:
            parts.append("=" if nd & 1 else "-")
        cell, k = divmod(nd >> 1, g.n)
        node = f"({k + 1}){g.names[cell]}"
        if i == 0 and not nd & 1:
            node = "~" + node
        more = (extra or {}).get(nd, 0)
        parts.append(node + (f"[+{more}]" if more > 0 else ""))
    if len(parts) > 4 * limit:
        parts = parts[:2 * limit] + ["…"] + parts[-2 * limit:]
    return "".join(parts)


# -- nesting level 1: the rules SE applies to the working grid ------------------------------

def advanced_offs(ch: Chainer, cur: list[int]) -> list[tuple[int, tuple]]:
    """Removals made possible on the working grid by pointing/claiming, a hidden pair, a
    naked pair or an X-wing (SE's order; the first rule that yields any), each with the
    removals of the chain it rests on (the rule's positions missing from the source grid).
    A rule that holds on the source grid alone is no chain deduction and is skipped.  These
    are not the techniques of the same names (:mod:`.subsets`, :mod:`.fish`): SE takes *every*
    instance of the rule, with the cells it rests on, where those return the first step in
    words."""
    for rule in (_adv_locking, _adv_hidden_pair, _adv_naked_pair, _adv_xwing):
        out = rule(ch, cur)
        if out:
            return out
    return []


def _gone(ch: Chainer, cur, cells, bitmask) -> tuple:
    n = ch.n
    out = []
    for c in cells:
        for b in _bits(ch.src[c] & ~cur[c] & bitmask):
            out.append(2 * (c * n + b.bit_length() - 1))
    return tuple(out)


def _adv_locking(ch: Chainer, cur):
    g, n = ch.g, ch.n
    out = []
    for u, cells in enumerate(g.units):
        for k in range(n):
            bit = 1 << k
            pos = [c for c in cells if cur[c] & bit]
            if len(pos) < 2:
                continue
            for other in {g.cell_units[pos[0]][i] for i in range(3)} - {u}:
                if all(other in g.cell_units[c] for c in pos):
                    removable = [q for q in g.units[other] if q not in cells and cur[q] & bit]
                    if removable:
                        parents = _gone(ch, cur, cells, bit)
                        if parents:
                            out += [(2 * (q * n + k), parents) for q in removable]
    return out


def _adv_hidden_pair(ch: Chainer, cur):
    g, n = ch.g, ch.n
    out = []
    for cells in g.units:
        where = {}
        for k in range(n):
            pos = tuple(c for c in cells if cur[c] & (1 << k))
            if len(pos) == 2:
                where.setdefault(pos, []).append(k)
        for pos, ks in where.items():
            if len(ks) == 2:
                keep = (1 << ks[0]) | (1 << ks[1])
                out += _offs(ch, cur, [(c, b) for c in pos for b in _bits(cur[c] & ~keep)], cells, keep)
    return out


def _offs(ch: Chainer, cur, removable, cells, mask) -> list:
    """Off nodes for the (cell, bit) pairs a rule removes, each resting on the removals from
    ``cells`` (values in ``mask``) that made the rule hold; none when nothing was removed."""
    parents = _gone(ch, cur, cells, mask) if removable else ()
    return [(2 * (c * ch.n + b.bit_length() - 1), parents) for c, b in removable] if parents else []


def _adv_naked_pair(ch: Chainer, cur):
    g, n = ch.g, ch.n
    out = []
    for cells in g.units:
        pairs = {}
        for c in cells:
            if cur[c] and cur[c].bit_count() == 2:
                pairs.setdefault(cur[c], []).append(c)
        for m, cs in pairs.items():
            if len(cs) == 2:
                out += _offs(ch, cur, [(c, b) for c in cells if c not in cs for b in _bits(cur[c] & m)],
                             cs, ~m)
    return out


def _adv_xwing(ch: Chainer, cur):
    g, n = ch.g, ch.n
    out = []
    for k in range(n):
        bit = 1 << k
        for base_rows in (True, False):
            lines = []
            for i in range(n):
                cells = g.units[i if base_rows else n + i]
                cover = tuple(j for j, c in enumerate(cells) if cur[c] & bit)
                if len(cover) == 2:
                    lines.append((i, cover, cells))
            for a in range(len(lines)):
                for b in range(a + 1, len(lines)):
                    if lines[a][1] != lines[b][1]:
                        continue
                    removable = []
                    for j in lines[a][1]:
                        for i in range(n):
                            if i in (lines[a][0], lines[b][0]):
                                continue
                            c = i * n + j if base_rows else j * n + i
                            if cur[c] & bit:
                                removable.append(c)
                    if removable:
                        parents = _gone(ch, cur, lines[a][2] + lines[b][2], bit)
                        if parents:
                            out += [(2 * (c * n + k), parents) for c in removable]
    return out


# -- rung 1: bidirectional cycles and forcing chains (static) --------------------------------

class _Search:
    """A breadth-first search from one node that can be resumed with a deeper limit: the
    layer a limit stopped it at is kept, so the next, deeper pass (SE's rating rises with the
    chain's length, so the rung searches by rising limits) starts there, not at the root.
    Every layer's nodes have one depth (``depth``).  Nodes are plain ints; the way back to
    the root is kept in parent maps, since a search makes hundreds of thousands of nodes and
    only the few a hint is built from are ever walked back."""

    # slots: a rung makes tens of thousands of searches, most of them a few layers deep
    __slots__ = ("links", "root", "layer", "depth", "done")

    def __init__(self, links: dict, root: int, layer: list):
        self.links, self.root = links, root
        self.layer = layer
        self.depth = 0
        self.done = False

    def run(self, max_len: int) -> bool:
        """Expand layers until one is ``max_len`` deep (True: cut there) or none is left."""
        while self.layer:
            if self.depth >= max_len:
                return True
            self.layer = self.step(self.layer)
            self.depth += 1
        self.done = True
        return False


class _Cycles(_Search):
    """SE's cycle search from p on: alternating layers (on → off, off → on), the on nodes
    met once, an off node not repeated along its own path; a loop back to p on after at
    least four half-rounds is a cycle.  An on layer is a list of on nodes, each met once, so
    its way back is ``up[on] = (off, on before)`` and the off nodes on that way a bitset
    over nodes (``offs[on]``); an off layer is a list of (off node, on node before).

    An off node met again adds no on node (its first meeting added them all), so it is
    queued again only when it can close a cycle at the next half-round (a "closer": an off
    node linked to p on), and then once per meeting, as SE's search finds it.  The off
    nodes an on node leads to are tested a layer at a time as bitsets (``out_bits``), and
    walked in link order only when one of them is new or closes."""

    __slots__ = ("out", "out_bits", "closers", "queued", "up", "offs", "length", "found", "within")

    def __init__(self, links: list, p: int, out: tuple[list, list], within: int = -1):
        root = 2 * p + 1
        self.links, self.root, self.layer, self.depth, self.done = links, root, [root], 0, False
        self.out, self.out_bits = out
        closers = 0
        for w in links[root ^ 1]:
            if root in links[w ^ 1]:
                closers |= 1 << (w ^ 1)
        self.closers = closers
        self.queued = 0
        self.within = within  # the off nodes the search may go through (-1: all)
        self.up: dict = {root: None}  # also the on nodes met
        self.offs = {root: 0}
        self.length = 0
        # (off node, on node before, length): back at the root after ``length`` half-rounds
        self.found: list[tuple[int, int, int]] = []

    def run(self, max_len: int) -> bool:
        # _Search.run with the two half-rounds inlined: most searches are many small layers
        layer = self.layer
        if not layer:
            return False
        depth, length = self.depth, self.length
        links, root, offs = self.links, self.root, self.offs
        out, out_bits, queued, closers, within = self.out, self.out_bits, self.queued, self.closers, self.within
        up, found = self.up, self.found
        cut = False
        while layer:
            if depth >= max_len:
                cut = True
                break
            length += 1
            nxt = []
            if depth % 2 == 0:
                closing = closers if length + 1 >= 4 else 0
                for o in layer:
                    bits = offs[o]
                    # the off nodes o leads to that are off its path and new or closing
                    todo = out_bits[o] & within & ~bits & (~queued | closing)
                    if todo:
                        for nd in out[o]:
                            if todo >> nd & 1:
                                if not queued >> nd & 1:
                                    queued |= 1 << nd
                                nxt.append((nd, o))
            elif length >= 4:
                for off, o in layer:
                    for nd in links[off]:
                        if nd == root:
                            found.append((off, o, length))
                        elif nd not in up:
                            nxt.append(nd)
                            up[nd] = (off, o)
                            offs[nd] = offs[o] | 1 << off
            else:
                for off, o in layer:
                    for nd in links[off]:
                        if nd not in up:
                            nxt.append(nd)
                            up[nd] = (off, o)
                            offs[nd] = offs[o] | 1 << off
            layer = nxt
            depth += 1
        self.layer, self.depth, self.length, self.queued = layer, depth, length, queued
        if not cut:
            self.done = True
        return cut

    def path(self, off: int, o: int) -> list[int]:
        """The cycle closed by (off, o), from its end (the root again) back to the root."""
        out = [self.root, off]
        while o != self.root:
            out.append(o)
            o_off, o = self.up[o]
            out.append(o_off)
        out.append(o)
        return out


class _Forcing(_Search):
    """SE's forcing chain from ``start`` (p on or p off): the first node, breadth first, that
    is p's opposite state (``result``: the chain from it back to ``start``).  Every node is
    met once, so its way back is one parent per node (``seen``)."""

    __slots__ = ("seen", "result")

    def __init__(self, links: dict, start: int):
        self.links, self.root, self.layer, self.depth, self.done = links, start, [start], 0, False
        self.seen = {start: None}
        self.result: list[int] | None = None

    def step(self, layer: list) -> list:
        links, seen, target = self.links, self.seen, self.root ^ 1
        nxt = []
        for o in layer:
            for nd in links[o]:
                if nd == target:
                    path = [nd]
                    while o is not None:
                        path.append(o)
                        o = seen[o]
                    self.result = path
                    return []
                if nd not in seen:
                    seen[nd] = o
                    if links[nd]:  # a node with no link out is a dead end
                        nxt.append(nd)
        return nxt


def _cycle_hint(ch: Chainer, path: list[int], y: bool, x: bool,
                than: ChainHint | None = None) -> ChainHint | None:
    """The hint of a cycle, ``path`` from its end back to its start (one node, p on); None
    when it removes nothing, or when it would not be easier than ``than`` (a search finds
    thousands of cycles and keeps the easiest: the others are never written out)."""
    g, n = ch.g, ch.n
    chain = path[:-1]
    complexity = len(set(chain))
    if x and y:
        kind = "cycle"
    else:
        kind = "y-cycle" if y else "x-cycle"
    rating = round(BASE[kind] + length_bonus(complexity), 1)
    order = {"x-cycle": 2, "y-cycle": 3, "cycle": 4}[kind]
    if than is not None and (rating, complexity, order) >= _key(than):
        return None
    # a candidate goes when it sees an on node and an off node of its value in the cycle
    # (outside the cycle's cells); per value, bitsets over cells
    forw: dict[int, int] = {}
    back: dict[int, int] = {}
    in_cycle = 0
    for nd in chain:
        cell, k = divmod(nd >> 1, n)
        in_cycle |= 1 << cell
        side = forw if nd & 1 else back
        side[k] = side.get(k, 0) | g.peer_bits[cell]
    by_value = ch.cells_by_value()
    elims = tuple(sorted((q, k + 1) for k, seen in forw.items()
                         for q in cells_of(seen & back.get(k, 0) & by_value[k] & ~in_cycle)))
    if not elims:
        return None
    text = (f"bidirectional {kind} {render(g, path[::-1])} "
            f"(rating {rating}, {complexity} nodes)")
    return ChainHint(f"bidirectional {kind}", rating, complexity, elims, (), text, order,
                     **path_pattern(g, path[::-1]))


def _forcing_hint(ch: Chainer, path: list[int], y: bool) -> ChainHint:
    """The hint of a forcing chain, ``path`` from its end (p's opposite) back to p."""
    g, n = ch.g, ch.n
    dst = path[0]
    p = dst >> 1
    cell, k = divmod(p, n)
    complexity = len(path)
    kind = "forcing chain" if y else "forcing x-chain"
    rating = round(BASE[kind] + length_bonus(complexity), 1)
    chain = render(g, path[::-1])
    pattern = path_pattern(g, path[::-1])
    if dst & 1:
        text = f"{kind}: {g.names[cell]} = {k + 1}, as {chain} (rating {rating})"
        return ChainHint(kind, rating, complexity, (), ((cell, k + 1),), text, 2 if not y else 4, **pattern)
    text = f"{kind}: {g.names[cell]} <> {k + 1}, as {chain} (rating {rating})"
    return ChainHint(kind, rating, complexity, ((cell, k + 1),), (), text, 2 if not y else 4, **pattern)


def cycles_and_forcing_chains(s: State, deadline=None, ctx: ChainContext | None = None) -> ChainHint | None:
    """SE's first chaining rung (6.5-7.x): X-, Y- and mixed bidirectional cycles, forcing
    X-chains and forcing chains; the easiest hint (rating, then length, then the first
    potential in grid order).  Searched by rising rating so that long searches happen only
    when no short chain exists.  ``ctx``: what the rung remembers from the puzzle's earlier
    steps (none: a fresh one)."""
    if ctx is None:
        ctx = ChainContext()
    ch = ctx.chainer(s)
    n = ch.n
    pots = [c * n + b.bit_length() - 1 for c, m in enumerate(ch.src) if m & (m - 1) for b in _bits(m)]
    bivalue = {c for c, m in enumerate(ch.src) if m.bit_count() == 2}
    # passes: (name, y, x, lowest base); SE's rating = base + bonus(complexity)
    passes = (("x", False, True, 6.5), ("y", True, False, 6.5), ("xy", True, True, 7.0))
    searched = {name: 0 for name, *_ in passes}
    found: dict[str, tuple | None] = {name: None for name, *_ in passes}  # (key, potential, hint)
    complete = {name: False for name, *_ in passes}
    # per pass, the searches of each potential still able to find something, in grid order
    # (see _stage); the single-value pass is kept per value in ctx instead (_x_stage)
    live: dict[str, list] = {}
    for tenths in range(0, 100):
        target = 6.5 + tenths / 10
        for name, y, x, base in passes:
            if base > target + 1e-9 or complete[name]:
                continue
            # every hint of this pass rated <= target has complexity <= limit
            stage = round((target - base) * 10)
            limit = max_complexity(stage)
            if limit <= searched[name]:
                continue
            searched[name] = limit
            if name == "x":
                found[name], any_cut = _x_stage(ctx, ch, stage, deadline)
                complete[name] = not any_cut
                continue
            entries = live.get(name)
            if entries is None:
                entries = live[name] = _entries(ch, [p for p in pots if name != "y" or p // n in bivalue],
                                                y, x, *ch.reach(y, x, bits=x))
            found[name], live[name], any_cut = _stage(ch, entries, found[name], limit, base, y, x, deadline)
            complete[name] = not any_cut  # a longer limit would find nothing new
        hints = [f[2] for f in found.values() if f is not None]
        best = min(hints, key=_key) if hints else None
        if best is not None and best.rating <= target + 1e-9:
            return best
        if all(complete.values()):
            return best
    return None


def _entries(ch: Chainer, pots: list[int], y: bool, x: bool, comp, sizes, reach,
             out=None, offs=None) -> list[list]:
    """The searches of one pass from each potential of ``pots`` still able to find
    something, in grid order: [potential, cycle search, [forcing from p on, from p off],
    best hint so far, cycles seen].  A search that cannot succeed is not made: no cycle when
    p on is in no strongly connected component of four nodes or more (a cycle has two on
    and two off nodes at least, all distinct), no forcing chain when p's opposite cannot be
    reached (``comp``, ``sizes``, ``reach``: the link graph's components; ``reach`` None: no
    forcing chain).  ``out``: the pass's out_offs, for the on nodes of ``pots`` at least;
    ``offs``: the off nodes the components were made of (default: all).
    A search left out would never find anything, so the hints are the same, and the limits
    at which a pass is complete (no search cut) only come sooner.  For the same reason a
    cycle search goes through the off nodes of p on's component only: every node of a cycle
    through p is in it, and a node outside it leads to none in it (it would be in it), so
    the nodes of the component are met in the same order, by the same ways, as when the
    search went everywhere (``_Cycles.within``)."""
    links, both = ch.succ(y, x), ch.succ(y, True)
    # one graph serves both searches when x (succ(y, True) is succ(y, x))
    if out is None:
        out = ch.out_offs(y, x)
    within: dict[int, int] = {}  # per component of four nodes or more, its off nodes as a bitset
    for nd in (range(0, len(comp), 2) if offs is None else offs):
        c = comp[nd]
        if c >= 0 and sizes[c] >= 4:
            within[c] = within.get(c, 0) | 1 << nd
    entries = []
    for p in pots:
        on, off = 2 * p + 1, 2 * p
        cycles = _Cycles(links, p, out, within[comp[on]]) if sizes[comp[on]] >= 4 else None
        forcing = [_Forcing(both, start) for start in ((on, off) if x else ())
                   if reach[comp[start]] >> comp[start ^ 1] & 1]
        if cycles is not None or forcing:
            entries.append([p, cycles, forcing, None, 0])
    return entries


def _stage(ch: Chainer, entries: list[list], best: tuple | None, limit: int, base: float,
           y: bool, x: bool, deadline) -> tuple[tuple | None, list[list], bool]:
    """One limit of one pass: every search of ``entries`` run to ``limit``, each potential's
    easiest hint kept; (the pass's easiest (key, potential, hint) so far, the entries still
    able to find something, whether the limit cut a search)."""
    order = 4 if x and y else 3 if y else 2  # _cycle_hint's tie-break of the pass
    any_cut = False
    still = []
    expired = deadline.expired if deadline is not None else None
    for entry in entries:
        if expired is not None and expired():
            raise OutOfTime
        p, cycles, forcing, h, seen_cycles = entry
        h0 = h
        if cycles is not None:
            if cycles.run(limit):
                any_cut = True
            found = cycles.found
            if len(found) > seen_cycles:
                for off, o, length in found[seen_cycles:]:
                    # a cycle's nodes are all distinct, so its complexity is its length:
                    # one that cannot be easier than h is never walked back
                    if h is not None and (round(base + length_bonus(length), 1), length, order) >= _key(h):
                        continue
                    c = _cycle_hint(ch, cycles.path(off, o), y, x, h)
                    if c is not None:
                        h = c
                entry[4] = len(found)
            if cycles.done:
                entry[1] = None
        open_forcing = False
        for search in forcing:
            if search.result is None and not search.done:
                if search.run(limit - 1):
                    any_cut = True
                if search.result is not None:
                    c = _forcing_hint(ch, search.result, y)
                    if h is None or _key(c) < _key(h):
                        h = c
            open_forcing = open_forcing or (search.result is None and not search.done)
        entry[3] = h
        if h is not h0 and (best is None or (_key(h), p) < best[:2]):
            best = (_key(h), p, h)
        if entry[1] is not None or open_forcing:
            still.append(entry)  # a finished entry never changes again
    return best, still, any_cut


class _XValue:
    """The single-value pass of rung 1 for one value while its cells stay the same: the
    searches still open, and per limit (``stages[j]``: limit ``max_complexity(j)``) the
    value's easiest (key, potential, hint) and whether the limit cut a search."""

    def __init__(self, key: tuple, entries: list[list]):
        self.key = key
        self.entries = entries
        self.stages: list[tuple[tuple | None, bool]] = []


def _x_stage(ctx: ChainContext, ch: Chainer, stage: int, deadline) -> tuple[tuple | None, bool]:
    """The X pass (X-cycles, forcing X-chains) at limit ``max_complexity(stage)``, value by
    value: an X link joins two places of one value, so each value's searches, their hints
    and where a limit cuts them depend on that value's cells alone (those with several
    candidates being the starts), and a value whose cells did not change since an earlier
    step answers from ``ctx``.  The pass's easiest hint is the easiest of the values'
    (the first potential in grid order among equals: the order the whole pass would give)."""
    n = ch.n
    by_value = ch.cells_by_value()
    several = ch.several()
    best, any_cut = None, False
    for k in range(n):
        key = (by_value[k], by_value[k] & several)
        memo = ctx.x_values.get(k)
        if memo is None or memo.key != key:
            starts = [cell * n + k for cell in cells_of(by_value[k] & several)]
            roots = [2 * (cell * n + k) + on for cell in cells_of(by_value[k]) for on in (1, 0)]
            links = ch.succ(False, True)
            memo = _XValue(key, _entries(ch, starts, False, True, *_scc(links, roots),
                                         out=_out_offs(links, roots[::2]), offs=roots[1::2]))
            ctx.x_values[k] = memo
        try:
            while len(memo.stages) <= stage:
                if memo.stages and not memo.stages[-1][1]:
                    memo.stages.append(memo.stages[-1])  # nothing cut: a longer limit finds nothing new
                    continue
                prev = memo.stages[-1][0] if memo.stages else None
                v_best, memo.entries, cut = _stage(ch, memo.entries, prev, max_complexity(len(memo.stages)),
                                                   6.5, False, True, deadline)
                memo.stages.append((v_best, cut))
        except OutOfTime:
            del ctx.x_values[k]  # its searches may have run part of a limit
            raise
        v_best, cut = memo.stages[stage]
        any_cut = any_cut or cut
        if v_best is not None and (best is None or v_best[:2] < best[:2]):
            best = v_best
    return best, any_cut


def _key(h: ChainHint):
    return (h.rating, h.complexity, h.order)


# -- the multiple and dynamic rungs (SE's getMultipleChainsHintList) ---------------------------

def _conclusion(ch: Chainer, node: int, cand: list[int]) -> tuple[tuple, tuple]:
    """What a node known for certain changes in the grid: (eliminations, placements)."""
    n = ch.n
    cell, k = divmod(node >> 1, n)
    if node & 1:
        if cand[cell] & ~(1 << k):
            return (), ((cell, k + 1),)
        return (), ()
    if cand[cell] & (1 << k):
        return ((cell, k + 1),), ()
    return (), ()


def multiple_chains(s: State, *, dynamic: bool, nishio: bool = False, level: int = 0,
                    deadline=None, ctx: ChainContext | None = None) -> ChainHint | None:
    """Nishio (dynamic, nishio), multiple (static), dynamic, dynamic+ (level 1) forcing chains:
    the easiest hint of the rung.  ``ctx``: what the rungs remember from the puzzle's earlier
    steps (none: a fresh one)."""
    if ctx is None:
        ctx = ChainContext()
    ch = ctx.chainer(s)
    g, n, src = ch.g, ch.n, ch.src
    y = not nishio
    if level > 0:
        kind = "dynamic forcing chain+"
    elif nishio:
        kind = "nishio forcing chain"
    elif dynamic:
        kind = "dynamic forcing chain"
    else:
        kind = "multiple forcing chain"
    base = BASE[kind]
    best: ChainHint | None = None
    best_text = None

    def offer(complexity, elims, places, text, order):
        """Keep the easiest hint; ``text`` is a function (its loop variables bound as
        defaults), called for the one kept only."""
        nonlocal best, best_text
        if not elims and not places:
            return
        rating = round(base + length_bonus(complexity), 1)
        h = ChainHint(kind, rating, complexity, tuple(elims), tuple(places), "", order)
        if best is None or _key(h) < _key(best):
            best, best_text = h, text

    def run(node):
        return ch.propagate(node, y=y, dynamic=dynamic, level=level)

    if nishio:
        # value by value (a Nishio chain never leaves its value), each value's easiest hint
        # remembered by the value's cells: the easiest of those, the first in grid order
        # (cell, value, on before off) among equals, is the rung's hint, as cell by cell
        by_value = ch.cells_by_value()
        several = ch.several()
        first = None
        for k in range(n):
            key = (by_value[k], by_value[k] & several)
            memo = ctx.nishio.get(k)
            if memo is not None and memo[0] == key:
                hit = memo[1]
            else:
                hit = None
                for cell in cells_of(by_value[k] & several):
                    _check(deadline)
                    p = cell * n + k
                    on_par, on_bad = run(2 * p + 1)
                    off_par, off_bad = run(2 * p)
                    for sub, (complexity, el, pl, text) in enumerate(
                            _contradictions(g, cell, k, on_par, on_bad, off_par, off_bad)):
                        h = ChainHint(kind, round(base + length_bonus(complexity), 1), complexity,
                                      tuple(el), tuple(pl), "", 7)
                        if hit is None or _key(h) < hit[0]:
                            hit = (_key(h), cell, sub, h, text)
                ctx.nishio[k] = (key, hit)
            if hit is not None and (first is None or (hit[0], hit[1], k, hit[2]) < first[0]):
                first = ((hit[0], hit[1], k, hit[2]), hit[3], hit[4])
        if first is None:
            return None
        best, best_text = first[1], first[2]
        return _told_hint(g, best, best_text)

    region_done = set()
    for cell in range(n * n):
        _check(deadline)
        m = src[cell]
        card = m.bit_count()
        if card < 2 or (card == 2 and not dynamic):
            continue
        value_sets = []
        for b in _bits(m):
            k = b.bit_length() - 1
            p = cell * n + k
            on_par, on_bad = run(2 * p + 1)
            off_par = off_bad = None
            if dynamic:
                off_par, off_bad = run(2 * p)
                for offered in _contradictions(g, cell, k, on_par, on_bad, off_par, off_bad):
                    offer(*offered, 7)
                if card >= 3 and not off_bad and not on_bad:
                    # double forcing: p on and p off both imply the same node
                    for nd in on_par:
                        if nd in off_par and nd >> 1 != p:
                            el, pl = _conclusion(ch, nd, src)
                            if el or pl:
                                offer(ancestors(on_par, nd) + ancestors(off_par, nd), el, pl,
                                      lambda cell=cell, k=k, on_par=on_par, off_par=off_par, nd=nd:
                                      _told(g, f"{_name(g, nd)} whether {g.names[cell]} is {k + 1} or not: ",
                                           ((on_par, nd), (off_par, nd))), 1)
            value_sets.append((k, on_par))
            _region_chains(ch, cell, k, on_par, run, offer, region_done, dynamic)
        if card >= 2:
            common = set(value_sets[0][1])
            for _, par in value_sets[1:]:
                common &= set(par)
            for nd in common:
                if nd >> 1 in {cell * n + k for k, _ in value_sets}:
                    continue
                el, pl = _conclusion(ch, nd, src)
                if el or pl:
                    offer(sum(ancestors(par, nd) for _, par in value_sets), el, pl,
                          lambda cell=cell, nd=nd, value_sets=value_sets:
                          _told(g, f"{_name(g, nd)} from every candidate of {g.names[cell]}: ",
                               [(par, nd) for _, par in value_sets]), 5)
    if best is None:
        return None
    return _told_hint(g, best, best_text)


def _told_hint(g: Geometry, hint: ChainHint, tell) -> ChainHint:
    """The hint kept, with its words and chains (``tell()``: made for this hint only)."""
    words, chains = tell()
    text = f"{hint.technique}: {words} (rating {hint.rating}, {hint.complexity} nodes)"
    return replace(hint, text=text, **path_pattern(g, *(first_parents(par, t) for par, t in chains)))




def _contradictions(g: Geometry, cell: int, k: int, on_par, on_bad, off_par, off_bad) -> list:
    """The hints of p = (cell, k) leading to a contradiction (p on: p goes; p off: p is
    placed), as (complexity, eliminations, placements, text function)."""
    out = []
    if on_bad:
        a, z = on_bad
        what = f"{g.names[cell]} = {k + 1} leads to {_name(g, a)} and {_name(g, z)}"
        out.append((ancestors(on_par, a) + ancestors(on_par, z), [(cell, k + 1)], [],
                    lambda: _told(g, f"{g.names[cell]} <> {k + 1}: {what}: ", ((on_par, a), (on_par, z)))))
    if off_bad:
        c, d = off_bad
        out.append((ancestors(off_par, c) + ancestors(off_par, d), [], [(cell, k + 1)],
                    lambda: _told(g, f"{g.names[cell]} = {k + 1}: {g.names[cell]} <> {k + 1} leads to "
                                    f"{_name(g, c)} and {_name(g, d)}: ", ((off_par, c), (off_par, d)))))
    return out


def _region_chains(ch, cell, k, on_par, run, offer, done, dynamic):
    g, n, src = ch.g, ch.n, ch.src
    bit = 1 << k
    for u in ch.units3[cell]:
        pos = [q for q in g.units[u] if src[q] & bit]
        if len(pos) < 2 or pos[0] != cell or (u, k) in done:
            continue
        done.add((u, k))
        pars = [on_par]
        for q in pos[1:]:
            pars.append(run(2 * (q * n + k) + 1)[0])
        common = set(on_par)
        for par in pars[1:]:
            common &= set(par)
        for nd in common:
            el, pl = _conclusion(ch, nd, src)
            if nd >> 1 in {q * n + k for q in pos}:
                continue
            if el or pl:
                offer(sum(ancestors(par, nd) for par in pars), el, pl,
                      lambda k=k, u=u, nd=nd, pars=pars:
                      _told(g, f"{_name(g, nd)} from every place of {k + 1} in {g.unit_names[u]}: ",
                           [(par, nd) for par in pars]), 6)
