"""Exact cover: a puzzle as a matrix of items and options, and Knuth's text format in and out.

An :class:`ExactCoverMatrix` has primary items (covered exactly once), secondary items (at
most once) and colors on secondary items (Knuth's Algorithm C, TAOCP 7.2.2.1, program DLX2),
which is enough to state every rule of the vocabulary without an auxiliary count: each
solution of the matrix is one solution of the puzzle (:func:`encode_rules` says how each rule
becomes items and options, givens folded in as Knuth's SUDOKU-DLX does).  N-Queens keeps
Knuth's own formulation in :func:`encode_queens` (QUEENS-DLX, organ-pipe order), since that
order decides his node counts and the vocabulary has no notion of "middle".  Knuth's text
format (DLX1/DLX2): an item line, ``|`` before the secondary items, then one option per line
(``item`` or ``item:color``); lines starting with ``|`` are comments.
"""

from __future__ import annotations

import array
import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

from ..errors import EngineError, OutOfTime, ParseError, Place
from ..models.base import Puzzle
from ..models.vocabulary import (AllDifferent, AtMostOne, Cage, ExactlyOne, Less, Rules, Visibility,
                                 candidate, candidate_cell_value, different_groups, pairwise_different,
                                 visible_count)

Entry = tuple[int, int]
"""(item index, color id); color 0 = none.  Items are numbered primary first."""


@dataclass
class ExactCoverMatrix:
    """Items, options and colors; with how options map back to puzzle cells.

    ``placements[k]`` lists the ``(cell, value)`` pairs option ``k`` decides; ``givens`` are the
    values the puzzle already fixed (0 = empty), so that a solution (a set of options) decodes
    into a value per cell.  A matrix read from a file has no placements.
    """

    primary: list[str]
    secondary: list[str]
    options: list[tuple[Entry, ...]]
    colors: list[str] = field(default_factory=lambda: [""])
    placements: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    givens: tuple[int, ...] = ()
    title: str = ""
    _arrays: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def n_primary(self) -> int:
        return len(self.primary)

    @property
    def n_secondary(self) -> int:
        return len(self.secondary)

    @property
    def item_names(self) -> list[str]:
        return self.primary + self.secondary

    @property
    def colored(self) -> bool:
        return any(color for option in self.options for _, color in option)

    def size(self) -> dict[str, int]:
        return {"items": self.n_primary + self.n_secondary, "primary_items": self.n_primary,
                "secondary_items": self.n_secondary, "options": len(self.options),
                "entries": sum(len(o) for o in self.options)}

    def arrays(self) -> tuple[array.array, array.array, array.array]:
        """The flat ``(items, colors, starts)`` arrays the C engine reads."""
        if self._arrays is None:
            items, colors, starts = array.array("i"), array.array("i"), array.array("i", [0])
            for option in self.options:
                for item, color in option:
                    items.append(item)
                    colors.append(color)
                starts.append(len(items))
            self._arrays = (items, colors, starts)
        return self._arrays

    def option_text(self, k: int) -> str:
        names = self.item_names
        return " ".join(names[i] + (f":{self.colors[c]}" if c else "") for i, c in self.options[k])

    def decode(self, chosen: Sequence[int]) -> tuple[int, ...]:
        """The value of every cell, from the givens and the chosen options."""
        values = list(self.givens)
        for k in chosen:
            for cell, value in self.placements[k]:
                values[cell] = value
        return tuple(values)

    def write(self) -> str:
        """Knuth's text format: can be run by DLX1 (DLX2 when colored) as it is."""
        lines = [f"| {self.title}"] if self.title else []
        head = " ".join(self.primary)
        if self.secondary:
            head += " | " + " ".join(self.secondary)
        lines.append(head)
        lines += [self.option_text(k) for k in range(len(self.options))]
        return "\n".join(lines) + "\n"


# -- Knuth's format in -------------------------------------------------------------------

def _tokens(line: str) -> list[tuple[int, str]]:
    """Whitespace-separated words with their 1-based columns."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]


def read_knuth(text: str, source: str | None = None) -> ExactCoverMatrix:
    """Read a matrix in Knuth's DLX1/DLX2 format; errors name the line and column.  Lines
    end at ``\n`` only (``\r`` dropped), as the place of a byte that is not UTF-8 counts
    them: ``str.splitlines`` also ends a line at a form feed or U+2028, and the places
    would be wrong and an item line cut in two.  The format has no header of counts:
    memory grows with the items and options the file holds."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    head_at = next((i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("|")), None)
    if head_at is None:
        raise ParseError("empty item list: the first line that is not a comment must name the "
                         "items (primary, then | and the secondary ones)", Place(source, 1))
    line_no = head_at + 1
    primary: list[str] = []
    secondary: list[str] = []
    index: dict[str, int] = {}
    side = primary
    for col, word in _tokens(lines[head_at]):
        if word == "|":
            if side is secondary:
                raise ParseError("the item line contains | twice", Place(source, line_no, col))
            side = secondary
            continue
        if ":" in word or "|" in word:
            raise ParseError(f"item name {word!r} contains ':' or '|'", Place(source, line_no, col))
        if word in index:
            raise ParseError(f"item {word!r} is listed twice", Place(source, line_no, col))
        index[word] = len(index)
        side.append(word)
    if not primary and not secondary:  # cannot happen (blank lines are skipped), kept for safety
        raise ParseError("empty item list", Place(source, line_no))
    n_primary = len(primary)
    index = {name: k for k, name in enumerate(primary + secondary)}  # primary first
    colors = [""]
    color_ids: dict[str, int] = {}
    options: list[tuple[Entry, ...]] = []
    for i in range(head_at + 1, len(lines)):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("|"):
            continue
        entries: list[Entry] = []
        seen: set[int] = set()
        for col, word in _tokens(line):
            name, colon, color = word.partition(":")
            where = Place(source, i + 1, col)
            if not name:
                raise ParseError(f"empty item name in {word!r}", where)
            if name not in index:
                raise ParseError(f"option names unknown item {name!r}", where)
            item = index[name]
            if item in seen:
                raise ParseError(f"item {name!r} appears twice in this option", where)
            seen.add(item)
            color_id = 0
            if colon:
                if item < n_primary:
                    raise ParseError(f"primary item {name!r} cannot have a color", where)
                if not color:
                    raise ParseError(f"item {name!r} has an empty color", where)
                if color not in color_ids:
                    color_ids[color] = len(colors)
                    colors.append(color)
                color_id = color_ids[color]
            entries.append((item, color_id))
        options.append(tuple(entries))
    return ExactCoverMatrix(primary, secondary, options, colors)


# -- puzzles -----------------------------------------------------------------------------

def encode_puzzle(puzzle: Puzzle, expired: Callable[[], bool] | None = None) -> ExactCoverMatrix:
    """The exact-cover matrix of a puzzle: Knuth's formulation for N-Queens, the vocabulary
    for everything else.  ``expired``, when given, is looked at while a long matrix is built
    (Skyscrapers lines): :class:`~puzzlebench.errors.OutOfTime` once it says yes."""
    if puzzle.kind == "nqueens":
        return encode_queens(puzzle.n, puzzle.placed)
    return encode_rules(puzzle.rules, expired)


def organ_pipe(n: int) -> list[int]:
    """0..n-1 from the middle outwards: n//2, n//2-1, n//2+1, n//2-2, … (16: 8 7 9 6 10 …)."""
    mid = n // 2
    return [mid + (k + 1) // 2 * (-1 if k % 2 else 1) for k in range(n)]


def encode_queens(n: int, placed: Sequence[tuple[int, int]] = ()) -> ExactCoverMatrix:
    """Knuth's QUEENS-DLX: primary ``r{i}`` ``c{j}`` in organ-pipe order, secondary ``a{i+j}``
    and ``b{i-j+n-1}`` without the one-cell corner diagonals; placed queens folded in.  The
    order decides the branching ties and so Knuth's node count (193,032,021 for n = 16; rows
    then columns gives 185,625,515), which is why it lives here and not in the vocabulary."""
    rows_used = {r for r, _ in placed}
    cols_used = {c for _, c in placed}
    sums_used = {r + c for r, c in placed}
    diffs_used = {r - c + n - 1 for r, c in placed}
    primary, index = [], {}
    for t in organ_pipe(n):
        for name, used in ((f"r{t}", t in rows_used), (f"c{t}", t in cols_used)):
            if not used:
                index[name] = len(primary)
                primary.append(name)
    secondary = []
    corners = {0, 2 * n - 2}  # the diagonals that hold one cell only
    for prefix, used in (("a", sums_used), ("b", diffs_used)):
        for d in range(2 * n - 1):
            if d not in corners and d not in used:
                index[f"{prefix}{d}"] = len(primary) + len(secondary)
                secondary.append(f"{prefix}{d}")
    options, placements = [], []
    for r in range(n):
        for c in range(n):
            if r in rows_used or c in cols_used or r + c in sums_used or r - c + n - 1 in diffs_used:
                continue
            names = [f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"]
            options.append(tuple((index[x], 0) for x in names if x in index))
            placements.append(((r, c + 1),))
    givens = [0] * n
    for r, c in placed:
        givens[r] = c + 1
    return ExactCoverMatrix(primary, secondary, options, [""], placements, tuple(givens),
                            title=f"{n} queens (Knuth's queens-dlx formulation, organ-pipe order)")


def _group_tag(name: str, k: int) -> str:
    """``row 3`` → ``R3``, ``column 12`` → ``C12``; else ``g{k}`` (short, as DLX1 wants ≤ 8)."""
    m = re.fullmatch(r"([A-Za-z])[A-Za-z]*\s*(\d+)", name)
    return f"{m.group(1).upper()}{m.group(2)}" if m else f"g{k}"


def _cell_tag(rules: Rules, cell: int) -> str:
    name = rules.cell_name(cell).replace(" ", "")
    return name if re.fullmatch(r"[^:|\s]+", name) else f"x{cell}"


def _unique(names: list[str], fallback: str) -> list[str]:
    return names if len(set(names)) == len(names) else [f"{fallback}{k}" for k in range(len(names))]


ENTRY_BYTES = 72
"""An entry of an option: its ``(item, color)`` tuple and its place in the option."""
OPTION_BYTES = 240
"""An option: its tuple, its placement's ``((cell, value),)`` and their places in the lists."""
NAMED_ITEM_BYTES = 96
"""An item: its name and its places (65, 237 and 86 bytes fit what is made on empty 16x16 and
25x25 Sudokus and 16x16 and 24x24 Futoshikis within 0.2 %)."""


def estimated_bytes(puzzle: Puzzle, per_entry: int = 0) -> int:
    """What :func:`encode_puzzle` makes for ``puzzle``, before it runs, and ``per_entry`` bytes
    more an entry (what making it holds for a while, a search's links, a text): an option per
    candidate, an entry per candidate and constraint that holds it (a sign's (n-1)(n-2), a
    cage's fillings a few a cell and value).  The Skyscrapers lines' permutations, which a time
    limit bounds, are not counted."""
    rules = puzzle.rules
    n = rules.n_values
    entries = items = 0
    for con in rules.constraints:
        if isinstance(con, (ExactlyOne, AtMostOne)):
            entries, items = entries + len(con.candidates), items + 1
        elif isinstance(con, AllDifferent):
            entries, items = entries + len(con.cells) * n, items + n
        elif isinstance(con, Less):
            entries, items = entries + (n - 1) * (n - 2), items + n - 2
        elif isinstance(con, Cage):
            entries, items = entries + len(con.cells) ** 2 * n, items + 1 + n
    return (entries * (ENTRY_BYTES + per_entry) + rules.n_candidates * OPTION_BYTES
            + items * NAMED_ITEM_BYTES)


def estimated_export_bytes(puzzle: Puzzle) -> int:
    """The matrix of :func:`estimated_bytes`, what making it holds for a while (its candidates'
    entries before they are options) and its text in Knuth's format, a line an option: 144
    bytes an entry beyond the matrix (``export --to dlx``: 237 an entry in all measured on an
    empty 49x49, where the matrix is 134; results/budget.md)."""
    return estimated_bytes(puzzle, per_entry=144)


def encode_rules(rules: Rules, expired: Callable[[], bool] | None = None) -> ExactCoverMatrix:
    """A matrix from the shared vocabulary:

    - ``ExactlyOne`` → one primary item; ``AtMostOne`` → one secondary item;
    - ``AllDifferent`` of N cells over N values → N primary items "(group, value)" (fewer cells:
      secondary items, at most once);
    - ``Less`` (Futoshiki's signs) → a secondary item per threshold between 2 and N-1, named by
      the values of one cell at or above it and of the other at or below it (:func:`_less_items`):
      an inequality with plain secondary items, no colors needed;
    - givens are folded in the way Knuth's SUDOKU-DLX does: no item for a constraint the givens
      already satisfy, no option for a decided cell or for a candidate the givens exclude;
    - ``Visibility`` (Skyscrapers) → options that place a whole line (a row or column, i.e. an
      ``AllDifferent`` of N cells) as one permutation satisfying that line's clues, one primary
      item per line, tied together by colored secondary cell items (color = the cell's height);
    - ``Cage`` → one primary item per cage and one option per admissible filling, as Knuth does for
      Killer Sudoku with Algorithm C (TAOCP 7.2.2.1, "Dancing links", the killer-sudoku exercises):
      where the cage's cells are pairwise different the filling is a set of values, and the cage's
      option takes the secondary items "(cage, v)" of the values *not* in it, which every option
      putting v in one of its cells also names; otherwise the filling is a tuple, and the option
      colors a secondary item per cell with its value, which the cell's chosen option must match.
      The cells' values decide the filling, so every solution is counted once."""
    if any(isinstance(c, Visibility) for c in rules.constraints):
        return _encode_lines(rules, expired or (lambda: False))
    n = rules.n_values
    givens = rules.givens
    excluded = {candidate(c, v, n) for c, g in enumerate(givens) if g
                for v in range(1, n + 1) if v != g}
    true = {candidate(c, g, n) for c, g in enumerate(givens) if g}
    items: list[tuple[str, bool]] = []  # name, primary
    touches: dict[int, list[Entry]] = {}  # candidate â (item, color), in constraint order
    n_all_different = n_at_most = n_exactly = n_less = 0
    cage_options: list[list[Entry]] = []  # with item numbers before reordering
    n_cages, groups = 0, None

    def new_item(name: str, primary: bool, cands, color_of=None) -> int:
        k = len(items)
        items.append((name, primary))
        for x in cands:
            touches.setdefault(x, []).append((k, color_of(x) if color_of else 0))
        return k

    out_of_time = expired or (lambda: False)
    for con in rules.constraints:
        if out_of_time():   # a 64x64 grid's matrix takes seconds: the run's limit holds here too
            raise OutOfTime
        if isinstance(con, (ExactlyOne, AtMostOne)):
            decided = [x for x in con.candidates if x in true]
            if decided:
                excluded.update(x for x in con.candidates if x not in true)
                continue
            cells = {candidate_cell_value(x, n)[0] for x in con.candidates}
            if isinstance(con, ExactlyOne):
                whole_cell = len(cells) == 1 and len(con.candidates) == n
                name = _cell_tag(rules, cells.pop()) if whole_cell else f"e{n_exactly}"
                n_exactly += 1
                new_item(name, True, con.candidates)
            else:
                new_item(f"a{n_at_most}", False, con.candidates)
                n_at_most += 1
        elif isinstance(con, AllDifferent):
            tag = _group_tag(con.name, n_all_different)
            n_all_different += 1
            given_values = {givens[c] for c in con.cells if givens[c]}
            for v in given_values:
                excluded.update(candidate(c, v, n) for c in con.cells if givens[c] != v)
            full = len(con.cells) == n
            for v in range(1, n + 1):
                if v not in given_values:
                    new_item(f"{tag}v{v}", full,
                             [candidate(c, v, n) for c in con.cells if not givens[c]])
        elif isinstance(con, Less):
            _less_items(con, n_less, n, givens, excluded, new_item)
            n_less += 1
        elif isinstance(con, Cage):
            groups = groups or different_groups(rules)
            cage_options += _cage_options(rules, con, n_cages, excluded, new_item, groups)
            n_cages += 1
    order = [k for k, (_, p) in enumerate(items) if p] + [k for k, (_, p) in enumerate(items) if not p]
    new_index = {old: new for new, old in enumerate(order)}
    names = _unique([items[k][0] for k in order], "i")
    n_primary = sum(1 for _, p in items if p)
    options, placements = [], []
    for x in range(rules.n_candidates):
        if x % CLOCK_EVERY == 0 and out_of_time():
            raise OutOfTime
        cell, value = candidate_cell_value(x, n)
        if givens[cell] or x in excluded or x not in touches:
            continue
        options.append(tuple((new_index[k], color) for k, color in touches[x]))
        placements.append(((cell, value),))
    for entries in cage_options:
        options.append(tuple((new_index[k], color) for k, color in entries))
        placements.append(())
    colors = [""] + [str(v) for v in range(1, n + 1)]
    return ExactCoverMatrix(names[:n_primary], names[n_primary:], options, colors, placements,
                            tuple(givens))


def _less_items(con: Less, index: int, n: int, givens: Sequence[int], excluded: set[int],
                new_item: Callable) -> None:
    """``smaller < larger`` in exact cover, with secondary items alone (no colors): item
    ``l{index}k{t}`` for each threshold ``t`` in 2..N-1 is named by ``smaller = v`` when
    ``v >= t`` and by ``larger = w`` when ``w <= t``; two options may not share a secondary
    item, so ``smaller = v`` and ``larger = w`` exclude each other exactly when some ``t``
    has ``w <= t <= v``, that is when ``w <= v``.  ``smaller = N`` and ``larger = 1`` (the
    thresholds 1 and N) are removed; a given side removes the other side's values that break
    the sign, as the givens remove candidates elsewhere; two givens that break it leave a
    primary item no option covers (no solution)."""
    a, b = con.smaller, con.larger
    ga, gb = givens[a], givens[b]
    if ga and gb:
        if not ga < gb:
            new_item(f"l{index}broken", True, [])
        return
    if ga:
        excluded.update(candidate(b, w, n) for w in range(1, ga + 1))
        return
    if gb:
        excluded.update(candidate(a, v, n) for v in range(gb, n + 1))
        return
    excluded.update((candidate(a, n, n), candidate(b, 1, n)))
    for t in range(2, n):
        new_item(f"l{index}k{t}", False, [candidate(a, v, n) for v in range(t, n)]
                 + [candidate(b, w, n) for w in range(2, t + 1)])


def _cage_options(rules: Rules, cage: Cage, number: int, excluded: set[int], new_item, groups) -> list[list[Entry]]:
    """The items of one cage and an option per admissible filling (see :func:`encode_rules`);
    fillings the givens rule out are left out."""
    n, givens = rules.n_values, rules.givens
    cells = cage.cells
    distinct = pairwise_different(rules, cells, groups)
    tag = f"K{number + 1}"
    head = new_item(tag, True, [])
    options = []
    if distinct:
        present = {givens[c] for c in cells if givens[c]}
        value_item = {v: new_item(f"{tag}v{v}", False, [candidate(c, v, n) for c in cells if not givens[c]])
                      for v in range(1, n + 1)}
        for filling in cage.fillings(n, True):
            if present <= set(filling):
                options.append([(head, 0)] + [(value_item[v], 0) for v in range(1, n + 1) if v not in filling])
        return options
    cell_item = {c: new_item(f"{tag}{_cell_tag(rules, c)}", False,
                             [candidate(c, v, n) for v in range(1, n + 1)], lambda x: x % n + 1)
                 for c in cells if not givens[c]}
    for filling in cage.fillings(n):
        if all(givens[c] == v if givens[c] else candidate(c, v, n) not in excluded
               for c, v in zip(cells, filling)):
            options.append([(head, 0)] + [(cell_item[c], v) for c, v in zip(cells, filling) if not givens[c]])
    return options


@lru_cache(maxsize=16)
def _permutations_by_view(n: int) -> dict[tuple[int, int], tuple[tuple[int, ...], ...]]:
    """Every permutation of 1..n, bucketed by (seen from its start, seen from its end)."""
    buckets: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for perm in itertools.permutations(range(1, n + 1)):
        key = (visible_count(perm), visible_count(perm[::-1]))
        buckets.setdefault(key, []).append(perm)
    return {k: tuple(v) for k, v in buckets.items()}


def _line_permutations(n: int, first: int, last: int):
    """Permutations whose views from the start and the end are ``first`` and ``last``
    (0 = no clue)."""
    for (a, b), perms in sorted(_permutations_by_view(n).items()):
        if (not first or a == first) and (not last or b == last):
            yield from perms


CLOCK_EVERY = 4096
"""Options built between two looks at the clock (a 9x9 Skyscrapers matrix has ~400,000)."""


def _encode_lines(rules: Rules, expired: Callable[[], bool]) -> ExactCoverMatrix:
    """Skyscrapers: one primary item per line, options = the line's permutations that satisfy
    its clues and givens, cells as secondary items colored by height."""
    n = rules.n_values
    givens = rules.givens
    lines = [c for c in rules.constraints if isinstance(c, AllDifferent) and len(c.cells) == n]
    for con in rules.constraints:
        if isinstance(con, Cage):
            raise EngineError(f"exact cover with visibility clues: {con.name!r} cannot be combined "
                              "with whole-line options")
        if isinstance(con, (AtMostOne, Less)) or (isinstance(con, AllDifferent) and len(con.cells) != n):
            raise EngineError(f"exact cover with visibility clues: {con.name!r} cannot be "
                              "combined with whole-line options")
        if isinstance(con, ExactlyOne) and len({candidate_cell_value(x, n)[0] for x in con.candidates}) != 1:
            raise EngineError(f"exact cover with visibility clues: {con.name!r} spans several cells")
    clues: dict[int, list[tuple[int, int]]] = {k: [] for k in range(len(lines))}  # line → (end, clue)
    for con in rules.of_type(Visibility):
        for k, line in enumerate(lines):
            if con.cells == line.cells:
                clues[k].append((0, con.clue))
                break
            if con.cells == line.cells[::-1]:
                clues[k].append((1, con.clue))
                break
        else:
            raise EngineError(f"exact cover: {con.name!r} does not run along a whole line")
    on_a_line = {c for line in lines for c in line.cells}
    if len(on_a_line) != rules.n_cells:
        raise EngineError("exact cover with visibility clues needs every cell on a line")
    cell_item = {}
    secondary = []
    for cell in range(rules.n_cells):
        if not givens[cell]:
            cell_item[cell] = len(secondary)
            secondary.append(_cell_tag(rules, cell))
    primary, options, placements, owners = [], [], [], []
    for k, line in enumerate(lines):
        first = max((c for end, c in clues[k] if end == 0), default=0)
        last = max((c for end, c in clues[k] if end == 1), default=0)
        cells = line.cells
        if expired():
            raise OutOfTime
        fits = [p for p in _line_permutations(n, first, last)
                if all(not givens[c] or givens[c] == v for c, v in zip(cells, p))]
        if all(givens[c] for c in cells) and fits:
            continue  # decided by the givens
        owners.append((k, fits))
        primary.append(_group_tag(line.name, k))
    primary = _unique(primary, "L")
    n_primary = len(primary)
    for item, (k, fits) in enumerate(owners):
        cells = lines[k].cells
        for count, perm in enumerate(fits):
            if count % CLOCK_EVERY == 0 and expired():
                raise OutOfTime
            entries = [(item, 0)] + [(n_primary + cell_item[c], v) for c, v in zip(cells, perm)
                                     if not givens[c]]
            options.append(tuple(entries))
            placements.append(tuple((c, v) for c, v in zip(cells, perm) if not givens[c]))
    colors = [""] + [str(v) for v in range(1, n + 1)]
    return ExactCoverMatrix(primary, secondary, options, colors, placements, tuple(givens))
