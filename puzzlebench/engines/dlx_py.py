"""Dancing Links in plain Python: the readable twin of the C engine (family ``dlx-py``).

The structure is Knuth's ("Dancing Links", Millennial Perspectives in Computer Science,
2000), with secondary items and colors (Algorithm C, program DLX2: ``purify`` and
``unpurify``).  Knuth's DLX1/DLX2 counters (``nodes``, ``updates``, ``cleansings``) are
counted in the same places as the C engine (native/dlx.c), so that the two agree node for
node and update for update, and a test holds them to it.  Branching is on the leftmost
active primary item of minimum length.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..encoders.exact_cover import ExactCoverMatrix, encode_puzzle, estimated_bytes
from ..models.base import Puzzle
from ..results import Stats
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, SearchOutcome

CLOCK_EVERY = 1024  # nodes between looks at the clock, as in the C engine


class Node:
    """A 1 of the matrix (or a header): four links, its item's header, its color."""

    __slots__ = ("left", "right", "up", "down", "item", "option", "color")

    def __init__(self, item: "Item | None" = None, option: int = -1, color: int = 0):
        self.left = self.right = self.up = self.down = self
        self.item = item
        self.option = option
        self.color = color


class Item(Node):
    """An item's header: the head of its vertical list, with the list's length."""

    __slots__ = ("size", "name", "primary")

    def __init__(self, name: str, primary: bool):
        super().__init__()
        self.item = self
        self.size = 0
        self.name = name
        self.primary = primary


class _Stop(Exception):
    """The limit was reached or the clock ran out: the search unwinds at once."""


class DancingLinks:
    """The matrix as dancing links, and Algorithm X / C over it.

    The structure is Knuth's ("Dancing Links", Millennial Perspectives in Computer Science, 2000): every 1 of the matrix is a node
    linked left/right within its option and up/down within its item; every item has a header
    holding its list's length; covering an item unlinks it from the active list and hides the
    options in its list; uncovering undoes exactly that, in the mirror order.  On top of it:
    secondary items (in a list of their own, never chosen for branching) and colors (Knuth's
    Algorithm C, program DLX2: ``purify`` keeps only the options that agree with a chosen color
    and marks them settled with color -1; ``unpurify`` undoes it).

    The counters are Knuth's DLX1/DLX2 counters, counted in the same places as the C engine so
    that the two agree node for node and update for update:

    - ``nodes``: every entry to a search level, plus one per solution (TAOCP 7.2.2-(4));
    - ``updates``: every item taken out of its active list, plus every node unlinked;
    - ``cleansings``: one per purify, plus one per node whose color it settles.

    Branching is on the leftmost active primary item of minimum length."""

    def __init__(self, matrix: ExactCoverMatrix):
        self.root = Item("(primary)", True)      # list of active primary items
        self.root2 = Item("(secondary)", False)  # list of active secondary items
        self.items = [Item(name, True) for name in matrix.primary]
        self.items += [Item(name, False) for name in matrix.secondary]
        for item in self.items:
            head = self.root if item.primary else self.root2
            item.left, item.right = head.left, head
            head.left.right = item
            head.left = item
        self.all_nodes: list[Node] = []
        for k, option in enumerate(matrix.options):
            if any(self.items[i].primary for i, _ in option):  # as DLX1: else left out
                self._add_option(k, option)
        self.nodes = self.updates = self.cleansings = self.count = 0

    def dispose(self) -> None:
        """Break the links: freeing long chains of linked objects one by one would recurse
        as deep as the chain (and overflow the C stack) otherwise."""
        for node in self.all_nodes + self.items + [self.root, self.root2]:
            node.left = node.right = node.up = node.down = node.item = None
        self.all_nodes, self.items = [], []

    def _add_option(self, k: int, option) -> None:
        first = None
        for i, color in option:
            item = self.items[i]
            node = Node(item, k, color)
            self.all_nodes.append(node)
            node.up, node.down = item.up, item
            item.up.down = node
            item.up = node
            item.size += 1
            if first is None:
                first = node
            else:
                node.left, node.right = first.left, first
                first.left.right = node
                first.left = node

    # -- the dance --------------------------------------------------------------------------

    def hide(self, option_node: Node) -> None:
        """Unlink the other nodes of ``option_node``'s option from their items (settled
        nodes, color -1, stay: Knuth's DLX2 saves that work)."""
        j = option_node.right
        while j is not option_node:
            if j.color >= 0:
                j.down.up = j.up
                j.up.down = j.down
                j.item.size -= 1
                self.updates += 1
            j = j.right

    def unhide(self, option_node: Node) -> None:
        j = option_node.left
        while j is not option_node:
            if j.color >= 0:
                j.item.size += 1
                j.down.up = j
                j.up.down = j
            j = j.left

    def cover(self, item: Item) -> None:
        item.right.left = item.left
        item.left.right = item.right
        self.updates += 1
        i = item.down
        while i is not item:
            self.hide(i)
            i = i.down

    def uncover(self, item: Item) -> None:
        i = item.up
        while i is not item:
            self.unhide(i)
            i = i.up
        item.right.left = item
        item.left.right = item

    def purify(self, p: Node) -> None:
        """Algorithm C: in ``p``'s item keep only the options of ``p``'s color."""
        color = p.color
        self.cleansings += 1
        i = p.item.down
        while i is not p.item:
            if i.color != color:
                self.hide(i)
            else:
                self.cleansings += 1
                i.color = -1
            i = i.down

    def unpurify(self, p: Node) -> None:
        color = p.color
        i = p.item.up
        while i is not p.item:
            if i.color < 0:
                i.color = color
            else:
                self.unhide(i)
            i = i.up

    def commit(self, node: Node) -> None:
        """Cover (uncolored) or purify (colored) every other item of ``node``'s option."""
        j = node.right
        while j is not node:
            if j.color == 0:
                self.cover(j.item)
            elif j.color > 0:
                self.purify(j)
            j = j.right

    def uncommit(self, node: Node) -> None:
        j = node.left
        while j is not node:
            if j.color == 0:
                self.uncover(j.item)
            elif j.color > 0:
                self.unpurify(j)
            j = j.left

    def choose_item(self) -> Item:
        """The leftmost active primary item of minimum length (MRV)."""
        best, best_size = None, None
        item = self.root.right
        while item is not self.root:
            if best_size is None or item.size < best_size:
                best, best_size = item, item.size
                if best_size == 0:
                    break
            item = item.right
        return best

    # -- Algorithm X / C ------------------------------------------------------------------

    def solve(self, limit: int | None, keep: int, deadline: Deadline) -> tuple[list[tuple[int, ...]], bool]:
        """Search; the first ``keep`` solutions (option indices) and whether the clock stopped it."""
        self.limit, self.keep, self.deadline = limit, keep, deadline
        self.kept: list[tuple[int, ...]] = []
        self.chosen: list[Node] = []
        if self.root.right is self.root:  # nothing to cover: the empty choice solves it
            self.nodes += 1
            self._found()
            return self.kept, False
        try:
            self._search()
        except _Stop as stop:
            return self.kept, bool(stop.args and stop.args[0] == "clock")
        return self.kept, False

    def _found(self) -> None:
        self.count += 1
        if len(self.kept) < self.keep:
            self.kept.append(tuple(node.option for node in self.chosen))
        if self.limit is not None and self.count >= self.limit:
            raise _Stop("limit")

    def _search(self) -> None:
        """Algorithm X (C with colors) with the levels on a list, not the call stack: a 64x64
        grid goes 4,096 levels deep, past Python's recursion limit.  The steps and counters
        are those of the recursive form, in the same order."""
        levels: list[tuple[Item, Node]] = []
        item = self._enter_level()
        row = item.down
        while True:
            if row is item:                      # every option of this level tried
                self.uncover(item)
                if not levels:
                    return
                item, row = levels.pop()
                self.uncommit(row)
                self.chosen.pop()
                row = row.down
                continue
            self.chosen.append(row)
            self.commit(row)
            if self.root.right is self.root:
                self.nodes += 1  # a solution counts as a node
                self._found()
                self.uncommit(row)
                self.chosen.pop()
                row = row.down
            else:
                levels.append((item, row))
                item = self._enter_level()
                row = item.down

    def _enter_level(self) -> Item:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and self.deadline.expired():
            raise _Stop("clock")
        item = self.choose_item()
        self.cover(item)
        return item


def search_matrix(matrix: ExactCoverMatrix, limit: int | None, keep: int,
                  deadline: Deadline) -> SearchOutcome:
    links = DancingLinks(matrix)
    try:
        kept, timed_out = links.solve(limit, keep, deadline)
    finally:
        links.dispose()
    raw = {"nodes": links.nodes, "updates": links.updates}
    if matrix.colored:
        raw["cleansings"] = links.cleansings
    return SearchOutcome(kept, links.count, timed_out, Stats(nodes=links.nodes, raw=raw))


class ExactCoverEngine(Engine):
    """What the two Dancing Links engines share: a puzzle becomes an :class:`ExactCoverMatrix`,
    a raw solution is a tuple of option indices, and Knuth's counters are the statistics."""

    kinds = EVERY_KIND
    exact_cover = True  # takes any ExactCoverMatrix (puzzlebench solve-xc)
    statistics = {"nodes": "Knuth's node count: entries to a search level, plus one per solution "
                           "(raw: nodes, updates, cleansings as DLX1/DLX2 count them)"}

    held_per_entry: ClassVar[int] = 0
    """Bytes an entry beyond the matrix that making it holds for a while and the search adds:
    the most measured on empty Sudokus up to 49x49, plus 15 % (results/budget.md)."""

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        return estimated_bytes(puzzle, per_entry=self.held_per_entry)

    def encode(self, puzzle: Puzzle) -> ExactCoverMatrix:
        return encode_puzzle(puzzle)

    def encode_until(self, puzzle: Puzzle, deadline: Deadline) -> ExactCoverMatrix:
        return encode_puzzle(puzzle, expired=deadline.expired)

    def size(self, artifact: ExactCoverMatrix) -> dict[str, int]:
        return artifact.size()

    def decode(self, artifact: ExactCoverMatrix, raw: Any) -> tuple[int, ...]:
        return artifact.decode(raw)


class DlxPyEngine(ExactCoverEngine):
    family = "dlx-py"
    held_per_entry = 232   # the links as Python lists: 315 bytes an entry in all on an empty 49x49
    summary = ("Dancing Links (Knuth's Algorithms X and C) in plain Python: the readable twin "
               "of dlx, with identical counters")

    def search(self, artifact: ExactCoverMatrix, limit: int | None, keep: int,
               deadline: Deadline) -> SearchOutcome:
        return search_matrix(artifact, limit, keep, deadline)
