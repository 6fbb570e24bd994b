"""Every step records the pattern it rests on (cells, units, candidates, chain links), and the
pattern accounts for the step: checked here from the techniques' definitions (Sudopedia,
HoDoKu's technique pages, Sudoku Explainer's chains), on the grid just before the step, by
code that shares nothing with the solver but the grid's units."""

from __future__ import annotations

from collections import Counter

import pytest

from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.rating.profile import se_ladder
from puzzlebench.techniques.grid import State, geometry
from puzzlebench.techniques.ladder import HumanSolver

# one puzzle (mostly of the Sudoku Exchange bank) for each technique family of the ladders
SE_PUZZLES = (
    "56.....23..........3.2.1.8..4.....7....964.....37.84..25..9..47.79.4.16...8...3..",   # 3 strong links
    ".5.....8.8..4.2..5.37.6.41..83...17...........7.....4...5.4.3.....1.3....4.7.8.5.",   # 4 strong links
    ".....36....17..2..8.96...7.2...9......4...5......2...4.4...13.8..6..81....54.....",   # aligned pair
    "8.......3...2..6..1.4.9..8....3...6861.....7938...5....5..7.8.4..6..1...4.......6",   # y-cycle
    "7....3.1.....51..71.5...8.3....2.3.1.6.....7.4.2.7....6.1...7.53..19.....4.7....6",   # cycle
    "65.....2...81.7.36.2..........7..8.9....3....9.6..8..........1.31.5.49...7.....64",   # bug
    "58.3..1....1.5.8...7...9....97.....8.6.....1.4.....57....4...5...9.2.4....2..3.96",   # forcing chain
    ".49..7.2.3...8...9...9.3..16.4...1...5.....7...1...5.21..6.5...7...9...6.9.8..23.",   # hidden quad
    "..7...2...6.38..7.8..9....6....2.76..9.146.3..46.3....6....1..2.1..58.9...9...1..",   # naked triple
    "45.9.....3.15.6....6..8.....78.....19.......42.....75.....6..4....3.45.7.....7.26",   # nishio
    ".659.847.............753....9.231.6..2.5.7.9..5.....1..7..2..4...4...1..9...7...8",   # multiple
    "...9...72..9..5.3.......5.47..69.2......5......2.41..82.7.......1.8..7..65...4...",   # dynamic
    ".1.7.8.3.....3.......6.4...7..542..12..3.6..8..9...3..39.1.5.46..........74...21.",   # naked quad
    "..96.3..4.1.7...8.4...8...3......641..5...2..164......6...1...2.5...2.6.3..4.75..",   # swordfish
    "...7.1.6.84.....7...7.4.3..3..9.4..7..1.8.6..4..6.7..1..8.3.2...6.....84.2.8.5...",   # turbot fish
    ".98....52.6...87..4.1...8...4.8.192.....7.....276.3.4...4...2.5..65...7.57....38.",   # unique rectangle
    ".4....5....8..24.923..4..6..5.193.....64.59.....768.5..6..3..478.45..3....7....9.",   # wxyz-wing
    "......46....67.8.9.26.8...3.85.97.......3.......86.21.9...4.38.8.3.19....47......",   # x-wing
    ".3....2....197.6.354...2.8...2....9..1..9..3..6....8...7.8...292.5.391....6....5.",   # xyz-wing
    "3....6.8597..28.3...5...9..79.8.2....1.....9....1.9.48..7...6...5.36..7264.2....9",   # y-wing
    ".2...15..5....2....4.9.73.....8.....4.3...1.8.....6.....92.4.5....6....9..81...2.",   # hidden triple
)
HUMAN_PUZZLES = (
    ".8....7...3.67..486.5...2......8..7..4.5.9.8..5..2......8...4.176..94.2...1....9.",   # colouring
    ".7...18.....8.7...6.4.....9.1...6.5.9.......3.2.9...4.2.....4.7...2.8.....57...8.",   # xy-chain
    "5....4..6....61....62.9..5..8......9.7.935.4.3......2..2..4.13....35....8..6....4",   # rectangle
    "..29.7....7...4.1.4...1.5...2.39...8.........1...78.5...8.4...3.9.7...2....1.29..",   # jellyfish
    "...1...49..3..47.8....8.1...3...7.2.4...2...3.2.4...9...5.6....8.19..5..26...1...",   # guess
)
G = geometry((3, 3))


def has(s: State, cell: int, v: int) -> bool:
    return bool(s.cand[cell] >> (v - 1) & 1)


def values(s: State, cells) -> set[int]:
    return {v for c in cells for v in range(1, 10) if has(s, c, v)}


def sees(a: int, b: int) -> bool:
    return a != b and any(u in G.cell_units[b] for u in G.cell_units[a])


def places(s: State, unit: int, v: int) -> list[int]:
    return [c for c in G.units[unit] if has(s, c, v)]


def removed_values(step) -> set[int]:
    return {v for _, v in step.eliminations}


def check_single(s, step):
    (cell, v), = step.placements
    assert step.cells == (cell,) and (cell, v) in step.candidates
    if step.technique == "naked single":
        assert values(s, [cell]) == {v}
    elif step.technique == "hidden single":
        (u,) = step.units
        assert places(s, u, v) == [cell]
    elif step.technique == "last free cell":
        (u,) = step.units
        assert [c for c in G.units[u] if not s.val[c]] == [cell]


def check_naked_subset(s, step):
    (u,) = step.units
    cells = set(step.cells)
    assert cells <= set(G.units[u]) and len(values(s, cells)) == len(cells)
    for c, v in step.eliminations:
        assert c in G.units[u] and c not in cells and v in values(s, cells)


def check_hidden_subset(s, step):
    (u,) = step.units
    cells = set(step.cells)
    kept = {v for _, v in step.candidates}
    assert cells <= set(G.units[u]) and len(kept) == len(cells)
    for v in kept:
        assert set(places(s, u, v)) <= cells
    for c, v in step.eliminations:
        assert c in cells and v not in kept


def check_locked(s, step):
    """Pointing and claiming: the value's places in the first unit all lie in the second."""
    (v,) = removed_values(step)
    inside, outside = step.units
    assert set(places(s, inside, v)) <= set(G.units[outside]) and set(step.cells) == set(places(s, inside, v))
    for c, _ in step.eliminations:
        assert c in G.units[outside] and c not in G.units[inside]


def check_fish(s, step):
    (v,) = removed_values(step)
    k = len(step.units) // 2
    base, cover = step.units[:k], step.units[k:]
    assert len({u < 9 for u in base}) == 1 and all((u < 9) != (base[0] < 9) for u in cover)
    cover_cells = {c for u in cover for c in G.units[u]}
    base_cells = {c for u in base for c in G.units[u]}
    for u in base:
        assert set(places(s, u, v)) <= cover_cells
    for c, _ in step.eliminations:
        assert c in cover_cells and c not in base_cells


def check_wing(s, step):
    """Y-, XYZ-, WXYZ-wings: n cells holding n values between them; the value removed is
    in the wing, and every cell it leaves sees each of the wing's cells that hold it."""
    cells = step.cells
    assert len(values(s, cells)) == len(cells)
    if step.technique == "y-wing":
        pivot, x, y = cells
        assert sees(pivot, x) and sees(pivot, y) and all(len(values(s, [c])) == 2 for c in cells)
    for c, z in step.eliminations:
        holders = [q for q in cells if has(s, q, z)]
        assert len(holders) >= 2 and c not in cells and all(sees(c, q) for q in holders)


def check_link(s, link, static: bool):
    (a, va), (b, vb), kind = link
    assert has(s, a, va) and has(s, b, vb) and (a, va) != (b, vb)
    if a == b:  # inside one cell
        assert kind == "weak" or not static or len(values(s, [a])) == 2
        return
    assert va == vb and sees(a, b)
    if kind == "strong" and static:
        assert any(len(places(s, u, va)) == 2 for u in G.cell_units[a] if u in G.cell_units[b]), link


def chains_of(links):
    """The links split into chains: one starts wherever a link does not go on from the last."""
    out = []
    for link in links:
        if out and out[-1][-1][1] == link[0]:
            out[-1].append(link)
        else:
            out.append([link])
    return out


def check_x_chain(s, step):
    """Turbot fish, strong-link chains, XY-chains: strong at both ends, so one end is the
    value: it leaves every cell seeing both ends."""
    for link in step.links:
        check_link(s, link, static=True)
    (chain,) = chains_of(step.links)
    assert chain[0][2] == "strong" and chain[-1][2] == "strong"
    (first, z), (last, z_end) = chain[0][0], chain[-1][1]
    assert z == z_end
    for c, v in step.eliminations:
        assert v == z and sees(c, first) and sees(c, last) and c not in step.cells


def check_colouring(s, step):
    (v,) = removed_values(step)
    for link in step.links:
        check_link(s, link, static=True)
        assert link[2] == "strong" and link[0][1] == v
    for c, _ in step.eliminations:
        assert c in step.cells or sum(sees(c, q) for q in step.cells) >= 2


def check_chain(s, step):
    """SE's chains: links that hold on the grid (static ones: strong links are pairs); a
    cycle is closed and what it removes sees two of its candidates of the value; a forcing
    chain ends at the opposite of its start; each conclusion of a multiple chain is an end
    of one of its chains."""
    static = not any(w in step.technique for w in ("nishio", "dynamic"))
    for link in step.links:
        check_link(s, link, static)
    chains = chains_of(step.links)
    if "cycle" in step.technique:
        (cycle,) = chains
        assert cycle[0][0] == cycle[-1][1]
        for c, v in step.eliminations:
            assert sum(sees(c, q) for q, w in step.candidates if w == v) >= 2
    elif step.technique in ("forcing chain", "forcing x-chain"):
        (chain,) = chains
        assert chain[0][0] == chain[-1][1]
        assert set(step.eliminations + step.placements) == {chain[0][0]}
    else:
        ends = {chain[0][0] for chain in chains} | {chain[-1][1] for chain in chains}
        assert set(step.eliminations + step.placements) <= ends


CHECKS = {
    "last free cell": check_single, "hidden single": check_single, "naked single": check_single,
    "naked pair": check_naked_subset, "naked triple": check_naked_subset, "naked quad": check_naked_subset,
    "hidden pair": check_hidden_subset, "hidden triple": check_hidden_subset,
    "hidden quad": check_hidden_subset, "pointing pair": check_locked, "box-line reduction": check_locked,
    "x-wing": check_fish, "swordfish": check_fish, "jellyfish": check_fish,
    "y-wing": check_wing, "xyz-wing": check_wing, "wxyz-wing": check_wing,
    "turbot fish": check_x_chain, "3 strong links": check_x_chain, "4 strong links": check_x_chain,
    "5 strong links": check_x_chain, "6 strong links": check_x_chain, "xy-chain": check_x_chain,
    "simple colouring": check_colouring,
}


def check_step(s: State, step) -> str:
    """Check one step against the grid before it; the family checked."""
    for c, v in step.eliminations + step.placements:
        assert has(s, c, v), step.text
    assert step.cells, step.text
    for c, v in step.candidates:
        assert has(s, c, v), step.text
    assert all(0 <= u < len(G.units) for u in step.units)
    check = CHECKS.get(step.technique)
    if check is None and ("chain" in step.technique or "cycle" in step.technique):
        check = check_chain
    if check is not None:
        try:
            check(s, step)
        except AssertionError as exc:
            raise AssertionError(f"{step.text}: {exc}") from None
    return check.__name__ if check else "generic"


def replay(line: str, steps) -> Counter:
    s = State.from_givens(G, parse_sudoku_line(line).givens)
    checked = Counter()
    for step in steps:
        checked[check_step(s, step)] += 1
        s.apply(step)
    assert not s.unsolved
    return checked


def test_se_ladder_steps_carry_patterns_that_account_for_them():
    checked = Counter()
    for line in SE_PUZZLES:
        p = parse_sudoku_line(line)
        lad = se_ladder(p.box, p.givens, seconds=None)
        assert lad.status == "solved"
        checked += replay(line, lad.steps)
    for family in ("check_fish", "check_naked_subset", "check_hidden_subset", "check_wing",
                   "check_x_chain", "check_chain", "check_locked", "check_single"):
        assert checked[family] > 0, family


def test_human_ladder_steps_carry_patterns_that_account_for_them():
    checked = Counter()
    for line in HUMAN_PUZZLES:
        solver = HumanSolver((3, 3), assume_unique=True)
        solved = next(solver.solutions(parse_sudoku_line(line).givens))
        checked += replay(line, solved.steps)
    assert checked["check_colouring"] and checked["check_x_chain"] and checked["check_fish"]


@pytest.mark.parametrize("technique, line", [("forcing chain", SE_PUZZLES[6]),
                                             ("bidirectional y-cycle", SE_PUZZLES[3]),
                                             ("multiple forcing chain", SE_PUZZLES[10])])
def test_a_chain_is_drawn_as_its_words_say(technique, line):
    """One link per '=' (strong) and '-' (weak) of the chains in words; links two chains of
    a multiple hint share are drawn once."""
    p = parse_sudoku_line(line)
    step = next(s for s in se_ladder(p.box, p.givens, seconds=None).steps if s.technique == technique)
    chains = [w for w in step.text.split() if w.startswith(("(", "~(")) and "r" in w]
    drawn = Counter(kind for *_, kind in step.links)
    strong, weak = sum(w.count("=") for w in chains), sum(w.count("-") for w in chains)
    if len(chains) == 1:
        assert (drawn["strong"], drawn["weak"]) == (strong, weak)
    else:
        assert 0 < drawn["strong"] <= strong and 0 < drawn["weak"] <= weak
