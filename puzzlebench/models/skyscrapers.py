"""Skyscrapers (Towers): an N x N Latin square of heights 1..N with visibility clues on the four
sides (0 = no clue) and optional givens.

A clue counts the towers seen from its side: a tower is seen when it is taller than every
tower in front of it.  ``top``/``bottom`` run over columns left to right, ``left``/``right`` over
rows top to bottom (the convention of ../shared/data).
"""

from __future__ import annotations

import math
import re
from typing import Sequence

from ..errors import InvalidPuzzleError, ParseError, Place, PuzzleError, UnsupportedShapeError
from .base import Puzzle, Solution
from .svg import Figure
from .text import TextPlaces, cell_spots, content_lines, with_line
from .vocabulary import AllDifferent, ExactlyOne, Rules, Visibility, candidate, repeated, visible_count

MAX_N = 9


def clues_shown(n: int, grid: Sequence[int]) -> dict[str, list[int]]:
    """The visibility clues a filled ``n``x``n`` grid (row by row) shows on each side, in the
    order ``Skyscrapers`` takes them: ``Skyscrapers(n, *clues_shown(n, grid).values())``."""
    rows = [list(grid[i * n:(i + 1) * n]) for i in range(n)]
    cols = [[grid[i * n + j] for i in range(n)] for j in range(n)]
    return {"top": [visible_count(c) for c in cols], "bottom": [visible_count(c[::-1]) for c in cols],
            "left": [visible_count(r) for r in rows], "right": [visible_count(r[::-1]) for r in rows]}
SIDES = ("top", "bottom", "left", "right")


class Skyscrapers(Puzzle):
    kind = "skyscrapers"

    # -- its text forms (the reader weighs which kind a text is; these read it) --------------

    @classmethod
    def read_text(cls, text: str, *, box=None, source: str | None = None) -> "Skyscrapers":
        """A Towers id, ``N top bottom left right`` or rush-01 clues: always one line.

        Forms:
            ``line``         ``N top bottom left right [givens|-] [key=value…] [solution]`` (the data
                             files' line; 0 = no clue).
            ``rush01``       4N numbers: column tops, column bottoms, row lefts, row rights.
            ``towers``       Simon Tatham's Towers game id ``5:/3/3////2/…[,b3_4t]``.
        """
        reader = cls.read_block if "\n" in text.strip() else cls.read_line
        return reader(text, box=box, source=source)

    @classmethod
    def read_block(cls, text: str, *, box=None, source: str | None = None) -> "Skyscrapers":
        raise ParseError("a Skyscrapers puzzle is written on one line (N top bottom left right, "
                         "rush-01 clues or a Towers id)",
                         TextPlaces(text, source).line_place(content_lines(text)[1][0]))

    @classmethod
    def read_line(cls, text: str, *, box=None, source: str | None = None) -> "Skyscrapers":
        stripped = text.strip()
        fields = stripped.split()
        if TOWERS_ID.match(stripped):
            return parse_towers(text, source=source)
        if is_skyscrapers_line(fields) or (fields and fields[0].isdigit() and len(fields) >= 2
                                            and re.fullmatch(r"[\d,]*,[\d,]*", fields[1])):
            return parse_skyscrapers_line(text, source=source)
        return parse_rush01(text, source=source)
    minizinc_parts = ("grid", "rows", "columns", "visibility")

    def __init__(self, n: int, top: Sequence[int], bottom: Sequence[int], left: Sequence[int],
                 right: Sequence[int], givens: Sequence[int] | None = None, *,
                 source: str | None = None, form: str = "line",
                 metadata: dict[str, str] | None = None):
        if not 1 <= n <= MAX_N:
            raise UnsupportedShapeError(f"Skyscrapers needs 1 <= N <= {MAX_N}; got {n}", Place(source))
        self.n = n
        self.source = source
        self.form = form
        self.metadata = dict(metadata or {})
        self.clues = {}
        for side, clues in zip(SIDES, (top, bottom, left, right)):
            clues = tuple(int(c) for c in clues)
            if len(clues) != n:
                raise ParseError(f"{side} clues: expected {n} numbers, got {len(clues)}", Place(source))
            for j, c in enumerate(clues):
                if not 0 <= c <= n:
                    raise InvalidPuzzleError(f"{side} clue {c} > N={n}" if c > n
                                             else f"{side} clue {c} is negative", Place(source),
                                             at=("clue", side, j))
            self.clues[side] = clues
        self.givens = tuple(int(v) for v in givens) if givens else (0,) * (n * n)
        if len(self.givens) != n * n:
            raise ParseError(f"givens: expected {n * n} heights, got {len(self.givens)}", Place(source))
        self._validate()

    @property
    def top(self): return self.clues["top"]

    @property
    def bottom(self): return self.clues["bottom"]

    @property
    def left(self): return self.clues["left"]

    @property
    def right(self): return self.clues["right"]

    @property
    def n_values(self) -> int:
        return self.n

    def header(self) -> dict[str, str]:
        return {side: ",".join(map(str, self.clues[side])) for side in SIDES}

    @classmethod
    def from_header(cls, fields: dict[str, str], givens: list[int], source: str | None = None) -> "Skyscrapers":
        n = math.isqrt(len(givens))
        try:
            sides = [[int(x) for x in fields[side].split(",")] for side in SIDES]
        except (KeyError, ValueError):
            raise ParseError("the header gives no clues (top: …, bottom: …, left: …, right: …)",
                             Place(source, 1)) from None
        return cls(n, *sides, givens=givens, source=source)

    @property
    def shape(self) -> str:
        return f"{self.n}x{self.n}"

    def lines(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """Every clue line as ``(name, clue, cells listed from the viewer outwards)``, clue 0
        included."""
        n = self.n
        out = []
        for j in range(n):
            col = tuple(i * n + j for i in range(n))
            out.append((f"top clue of column {j + 1}", self.top[j], col))
            out.append((f"bottom clue of column {j + 1}", self.bottom[j], col[::-1]))
        for i in range(n):
            row = tuple(i * n + j for j in range(n))
            out.append((f"left clue of row {i + 1}", self.left[i], row))
            out.append((f"right clue of row {i + 1}", self.right[i], row[::-1]))
        return out

    def _rules(self) -> Rules:
        n = self.n
        names = tuple(f"r{i // n + 1}c{i % n + 1}" for i in range(n * n))
        cells = tuple(ExactlyOne(tuple(candidate(c, v, n) for v in range(1, n + 1)), f"cell {names[c]}")
                      for c in range(n * n))
        rows = tuple(AllDifferent(tuple(i * n + j for j in range(n)), f"row {i + 1}") for i in range(n))
        cols = tuple(AllDifferent(tuple(i * n + j for i in range(n)), f"column {j + 1}") for j in range(n))
        vis = tuple(Visibility(cells_, clue, name) for name, clue, cells_ in self.lines() if clue)
        return Rules(n * n, n, self.givens, cells + rows + cols + vis, names)

    def _validate(self) -> None:
        n = self.n
        for c, v in enumerate(self.givens):
            if not 0 <= v <= n:
                raise InvalidPuzzleError(f"r{c // n + 1}c{c % n + 1} has height {v}, outside 1..{n}",
                                         Place(self.source), at=("cell", c))
        for i in range(n):
            for what, cells in ((f"row {i + 1}", range(i * n, i * n + n)),
                                (f"column {i + 1}", range(i, n * n, n))):
                c = repeated(self.givens, cells)
                if c is not None:
                    raise InvalidPuzzleError(f"{what} has two {self.givens[c]}s", Place(self.source),
                                             at=("cell", c))

    def check(self, solution: Sequence[int]) -> list[str]:
        n = self.n
        if len(solution) != n * n:
            return [f"expected {n * n} heights, got {len(solution)}"]
        problems = [f"r{c // n + 1}c{c % n + 1} = {v} is not a height 1..{n}"
                    for c, v in enumerate(solution) if not (isinstance(v, int) and 1 <= v <= n)]
        if problems:
            return problems
        problems += [f"r{c // n + 1}c{c % n + 1} is given as {g}, solution has {solution[c]}"
                     for c, g in enumerate(self.givens) if g and g != solution[c]]
        grid = [list(solution[i * n:(i + 1) * n]) for i in range(n)]
        for i in range(n):
            if sorted(grid[i]) != list(range(1, n + 1)):
                problems.append(f"row {i + 1} is not a permutation of 1..{n}")
            col = [grid[r][i] for r in range(n)]
            if sorted(col) != list(range(1, n + 1)):
                problems.append(f"column {i + 1} is not a permutation of 1..{n}")
        for name, clue, cells in self.lines():
            if clue:
                seen = visible_count([solution[c] for c in cells])
                if seen != clue:
                    problems.append(f"{name} is {clue}, {seen} seen")
        return problems

    def format_solution(self, solution: Sequence[int]) -> str:
        return ",".join(str(v) for v in solution)

    def parse_solution(self, text: str) -> Solution:
        try:
            return tuple(int(t) for t in text.strip().split(","))
        except ValueError:
            raise ParseError(f"a Skyscrapers solution is {self.n * self.n} comma-separated heights") from None

    def write(self) -> str:
        """The puzzle in its input's own form: the data-file line (with its metadata), the
        rush-01 clue list, or a Towers game id."""
        return self._write_heights(self.givens)

    def write_generated(self, note: str = "") -> str:
        """Its data-file line, which carries its solution among its fields already."""
        return self.write()

    def write_solution(self, solution: Sequence[int]) -> str:
        """The puzzle in its own form with ``solution`` as its givens (rush-01 holds no
        givens, so it becomes a data-file line)."""
        return self._write_heights(solution)

    def _write_heights(self, heights: Sequence[int]) -> str:
        clues = [c for s in SIDES for c in self.clues[s]]
        if self.form == "rush01" and not any(heights):
            return " ".join(map(str, clues))
        if self.form == "towers":
            params = self.metadata.get("_params", str(self.n))
            text = f"{params}:" + "/".join(str(c) if c else "" for c in clues)
            return text + ("," + towers_grid(heights) if any(heights) else "")
        fields = [str(self.n)] + [",".join(map(str, self.clues[s])) for s in SIDES]
        positional = [v for k, v in self.metadata.items() if k == "solution" or FIELD_KEY.fullmatch(k)]
        keyed = [f"{k}={v}" for k, v in self.metadata.items()
                 if not (k.startswith("_") or k == "solution" or FIELD_KEY.fullmatch(k))]
        if any(heights):
            fields.append(",".join(map(str, heights)))
        elif positional and not keyed:
            fields.append("-")   # else the first later field would be read as the givens
        return " ".join(fields + keyed + positional)

    def svg(self, solution: Sequence[int] | None = None) -> str:
        """Its grid with each clue outside it, beside the row or column it sees."""
        figure = Figure(self.n, self.n, margin=1, kind=self.kind)
        figure.grid()
        for side in SIDES:
            for index, clue in enumerate(self.clues[side]):
                if clue:
                    figure.clue(side, index, str(clue))
        figure.values(self.givens, solution)
        return figure.svg()

    def pretty(self, solution: Sequence[int] | None = None) -> str:
        n = self.n
        values = self.givens if solution is None else solution
        clue = lambda c: str(c) if c else " "
        lines = ["    " + " ".join(clue(c) for c in self.top), "   +" + "-" * (2 * n - 1) + "+"]
        for i in range(n):
            row = " ".join(str(v) if v else "." for v in values[i * n:(i + 1) * n])
            lines.append(f" {clue(self.left[i])} |{row}| {clue(self.right[i])}")
        lines += ["   +" + "-" * (2 * n - 1) + "+", "    " + " ".join(clue(c) for c in self.bottom)]
        return "\n".join(lines)


# -- reading the forms ----------------------------------------------------------------------

FIELD_KEY = re.compile(r"field\d+")


def _build(n: int, clues: list[list[int]], givens, places: TextPlaces, *, form: str,
           metadata: dict[str, str] | None = None, offset: int = 0,
           clue_offsets: list[int] = (), given_offsets: list[int] = ()) -> Skyscrapers:
    """The puzzle, its errors placed in the text: ``clue_offsets`` the offset of every clue in
    the order top, bottom, left, right; ``given_offsets`` of every given cell."""
    try:
        return Skyscrapers(n, *clues, givens=givens, source=places.source, form=form,
                           metadata=metadata)
    except PuzzleError as err:
        spots = cell_spots(given_offsets)
        spots.update({("clue", SIDES[k // n], k % n): off for k, off in enumerate(clue_offsets)})
        raise with_line(err, places, offset, spots) from None


def _item_offsets(field: str, off: int) -> list[int]:
    """The offset of every comma-separated item of a field that starts at ``off``."""
    out = []
    for item in field.split(","):
        out.append(off)
        off += len(item) + 1
    return out


def _int_list(field: str, off: int, what: str, count: int, places: TextPlaces) -> list[int]:
    items = field.split(",")
    for i, item in enumerate(items):
        if not item.isdigit():
            at = off + sum(len(x) + 1 for x in items[:i])
            raise ParseError(f"{what}: {item!r} is not a number", places.place(at))
    if len(items) != count:
        raise ParseError(f"{what}: expected {count} numbers, got {len(items)}", places.place(off))
    return [int(x) for x in items]


def is_skyscrapers_line(fields: list[str]) -> bool:
    """``N top bottom left right …``: N, then comma-separated clue lists (N = 1: numbers)."""
    if len(fields) < 5 or not fields[0].isdigit() or len(fields[0]) > 2:
        return False
    if "," in fields[1] and re.fullmatch(r"[\d,]+", fields[1]):
        return True
    # N = 1: "1 1 1 1 1 …"; 4k numbers in all would rather be rush-01 clues
    return int(fields[0]) == 1 and all(f.isdigit() for f in fields[1:5]) and (
        len(fields) % 4 != 0 or not all(f.isdigit() for f in fields))


def parse_skyscrapers_line(text: str, *, source: str | None = None) -> Skyscrapers:
    """The line of ../shared/data: ``N top bottom left right`` (each N comma-separated clues,
    0 = none; top/bottom over columns left to right, left/right over rows top to bottom), then
    optional fields: a sixth field of N² comma-separated heights (0 = empty) or ``-`` is the
    givens; ``key=value`` fields (``nsol=1``; a key at most once) are metadata, and so is one
    later field, never givens: N² comma-separated heights as ``solution`` (a reference
    solution, which ``check`` verifies), or the data files' ``-`` ("several solutions") as
    ``field<k>``.  Any other field is an error at its column."""
    places = TextPlaces(text, source)
    fields = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
    if not fields or not fields[0][1].isdigit():
        raise ParseError("expected N, then the top, bottom, left and right clues",
                         places.place(fields[0][0] if fields else 0))
    n = int(fields[0][1])
    if not 1 <= n <= MAX_N:
        raise UnsupportedShapeError(f"Skyscrapers needs 1 <= N <= {MAX_N}; got {n}",
                                    places.place(fields[0][0]))
    if len(fields) < 5:
        raise ParseError(f"expected N and four clue lists (top bottom left right); got "
                         f"{len(fields) - 1} clue lists", places.line_place(0))
    clues = [_int_list(f, off, f"{side} clues", n, places)
             for side, (off, f) in zip(SIDES, fields[1:5])]
    clue_offsets = [at for off, f in fields[1:5] for at in _item_offsets(f, off)]
    givens, given_offsets = None, []
    metadata: dict[str, str] = {}
    key_at: dict[str, int] = {}
    solution_at = None
    for k, (off, field) in enumerate(fields[5:], start=6):
        key, eq, value = field.partition("=")
        if eq and key:
            if key in key_at:
                # two values of one key: which one the user meant cannot be told
                raise ParseError(f"{key}= given twice (first at column {places.place(key_at[key]).column})",
                                 places.place(off))
            key_at[key] = off
            metadata[key] = value
        elif k == 6:
            if field != "-":
                givens = _int_list(field, off, "givens", n * n, places)
                given_offsets = _item_offsets(field, off)
        elif solution_at is not None:
            raise ParseError(f"unexpected field {field!r} after the solution (column "
                             f"{places.place(solution_at).column}): a line ends with one solution",
                             places.place(off))
        elif field == "-":
            solution_at = off              # the data files' "several solutions"
            metadata[f"field{k}"] = field
        elif re.fullmatch(r"[\d,]+", field) or "," in field:
            # a solution is checked by `check`: a cut or mistyped one is refused here rather
            # than read as no solution at all
            _int_list(field, off, "solution", n * n, places)
            solution_at = off
            metadata["solution"] = field
        else:
            raise ParseError(f"unexpected field {field!r}: after the clues come the givens (N² "
                             "heights or -), key=value fields and a solution (N² heights or -)",
                             places.place(off))
    return _build(n, clues, givens, places, form="line", metadata=metadata,
                  clue_offsets=clue_offsets, given_offsets=given_offsets)


def parse_rush01(text: str, *, source: str | None = None) -> Skyscrapers:
    """The rush-01 argument: 4N numbers, the column tops, column bottoms, row lefts, row
    rights (separated by spaces or commas, quotes ignored)."""
    places = TextPlaces(text, source)
    tokens = [(m.start(), m.group()) for m in re.finditer(r"[^\s,\"']+", text)]
    for off, tok in tokens:
        if not tok.isdigit():
            raise ParseError(f"unexpected {tok!r}: rush-01 clues are numbers", places.place(off))
    if not tokens or len(tokens) % 4:
        raise ParseError(f"rush-01 clues are 4N numbers (column tops, column bottoms, row lefts, "
                         f"row rights); got {len(tokens)}", places.line_place(tokens[0][0] if tokens else 0))
    n = len(tokens) // 4
    if n > MAX_N:
        raise UnsupportedShapeError(f"Skyscrapers needs 1 <= N <= {MAX_N}; got {n} "
                                    f"({len(tokens)} rush-01 clues)", places.line_place(tokens[0][0]))
    values = [int(t) for _, t in tokens]
    clues = [values[i * n:(i + 1) * n] for i in range(4)]
    return _build(n, clues, None, places, form="rush01", offset=tokens[0][0],
                  clue_offsets=[off for off, _ in tokens])


TOWERS_ID = re.compile(r"\s*(\d+)([a-z]*)\s*:")


def parse_towers(text: str, *, source: str | None = None) -> Skyscrapers:
    """A game id of Simon Tatham's Towers (towers.c in sgt-puzzles): ``N[diff]:`` then 4N
    clues separated by ``/`` (empty = no clue) in the order top (columns left to right),
    bottom, left (rows top to bottom), right; then optionally ``,`` and the givens row-major,
    where a letter ``a``-``z`` is a run of 1-26 empty squares, a number is a given and ``_``
    separates two numbers.  E.g. ``5:/3/3////2/…,b3_4t``."""
    places = TextPlaces(text, source)
    m = TOWERS_ID.match(text)
    if not m:
        raise ParseError("expected a Towers game id 'N:clues[,grid]'", places.place(0))
    n = int(m.group(1))
    if not 1 <= n <= MAX_N:
        raise UnsupportedShapeError(f"Skyscrapers needs 1 <= N <= {MAX_N}; got {n}", places.place(m.start(1)))
    body = text[m.end():].rstrip()
    clue_text, comma, grid_text = body.partition(",")
    slots = clue_text.split("/")
    if len(slots) != 4 * n:
        raise ParseError(f"a Towers id of size {n} has {4 * n} clues separated by '/'; got "
                         f"{len(slots)}", places.place(m.end()))
    values, off, clue_offsets = [], m.end(), []
    for slot in slots:
        clue_offsets.append(off)
        if slot and not slot.isdigit():
            raise ParseError(f"unexpected {slot!r}: a Towers clue is a number or empty",
                             places.place(off))
        values.append(int(slot) if slot else 0)
        off += len(slot) + 1
    clues = [values[i * n:(i + 1) * n] for i in range(4)]
    givens, given_offsets = None, []
    if comma:
        givens, pos = [], m.end() + len(clue_text) + 1
        for tok in re.finditer(r"[a-z]|_|\d+|.", grid_text):
            t = tok.group()
            if t == "_":
                continue
            if "a" <= t <= "z":
                givens += [0] * (ord(t) - ord("a") + 1)
                given_offsets += [pos + tok.start()] * (ord(t) - ord("a") + 1)
            elif t.isdigit():
                givens.append(int(t))
                given_offsets.append(pos + tok.start())
            else:
                raise ParseError(f"unexpected character {t!r} in the Towers grid: expected "
                                 "a-z (empty runs), numbers or '_'", places.place(pos + tok.start()))
        if len(givens) != n * n:
            raise ParseError(f"the Towers grid describes {len(givens)} squares; size {n} has "
                             f"{n * n}", places.place(pos))
    params = m.group(1) + m.group(2)
    return _build(n, clues, givens, places, form="towers",
                  metadata={"_params": params} if m.group(2) else None,
                  clue_offsets=clue_offsets, given_offsets=given_offsets)


def towers_grid(heights: Sequence[int]) -> str:
    """Givens in the Towers encoding: runs of empty squares as letters (``a`` = 1 … ``z`` =
    26), numbers, and ``_`` between two adjacent numbers (towers.c, new_game_desc)."""
    out: list[str] = []
    run = 0

    def flush_run() -> None:
        nonlocal run
        while run > 0:
            step = min(run, 26)
            out.append(chr(ord("a") + step - 1))
            run -= step

    for h in heights:
        if not h:
            run += 1
            continue
        flush_run()
        if out and out[-1][-1].isdigit():
            out.append("_")
        out.append(str(h))
    flush_run()
    return "".join(out)
