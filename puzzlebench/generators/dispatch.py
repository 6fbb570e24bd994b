"""One table of what ``generate`` makes: each kind's generator, whether its shape is a block
shape (``box``) or a ``size``, its default shape and the options it takes; and
:func:`generate`, which draws ``count`` puzzles of a kind from one seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

from ..errors import UsageError
from .dig import Counter
from .kinds import (generate_futoshiki, generate_jigsaw, generate_kenken, generate_killer, generate_nqueens,
                    generate_skyscrapers, generate_sudoku_x)
from .latin import generate_qwh
from .sudoku import generate_sudoku


@dataclass(frozen=True)
class Generator:
    """How to make one kind: ``make(shape, rng, counter, options)``, ``options`` the keyword
    arguments of :func:`generate`; ``counted``: whether it proves uniqueness (a
    :class:`~.dig.Counter` is made for it)."""

    make: Callable
    by_box: bool
    default: int | tuple[int, int]
    options: tuple[str, ...] = ()
    counted: bool = True


GENERATORS = {
    "sudoku": Generator(lambda box, rng, counter, o: generate_sudoku(box, rng, o["clues"], counter=counter,
                                                                     check_seconds=o["check_seconds"],
                                                                     on_cell=o["on_cell"]),
                        True, (3, 3), ("clues", "check_seconds")),
    "skyscrapers": Generator(lambda n, rng, counter, o: generate_skyscrapers(n, rng, o["remove"], counter=counter),
                             False, 6, ("remove",)),
    "nqueens": Generator(lambda n, rng, counter, o: generate_nqueens(n, o["placed"], rng), False, 8, ("placed",),
                         counted=False),
    "latin": Generator(lambda n, rng, counter, o: generate_qwh(n, rng, o["holes"], o["balanced"]), False, 30,
                       ("holes", "balanced"), counted=False),
    "sudoku-x": Generator(lambda box, rng, counter, o: generate_sudoku_x(box, rng, counter), True, (3, 3)),
    "jigsaw": Generator(lambda n, rng, counter, o: generate_jigsaw(n, rng, counter), False, 9),
    "killer": Generator(lambda box, rng, counter, o: generate_killer(box, rng, counter), True, (3, 3)),
    "futoshiki": Generator(lambda n, rng, counter, o: generate_futoshiki(n, rng, counter), False, 5),
    "kenken": Generator(lambda n, rng, counter, o: generate_kenken(n, rng, counter), False, 6),
}
GENERATED_KINDS = tuple(GENERATORS)
SHAPED_BY_BOX = tuple(kind for kind, g in GENERATORS.items() if g.by_box)
"""The kinds whose size is their block shape (``box``); the others have ``size``."""
GENERATED_SIZES = {kind: g.default for kind, g in GENERATORS.items() if not g.by_box}
"""The default ``size`` of the kinds that take one (the others take a block shape)."""

SLOW_FROM = {"kenken": (21, "size 24: 1.5 CPU minutes"),
             "jigsaw": (14, "size 14: half a CPU minute, 16: over 4 CPU minutes")}
"""The size from which a kind's generation takes minutes a puzzle (each uniqueness check a hard
search, with sat as with the bitboard), and what was measured: a warning says so before it
starts."""


def generate(kind: str, count: int, seed: int, *, box: tuple[int, int] = (3, 3), clues: int | None = None,
             size: int = 8, remove: float = 0.5, placed: int = 0, holes: float = 0.42,
             balanced: bool = False, check_seconds: float | None = None,
             on_cell: Callable[[], None] | None = None, memory_limit: int | None = None) -> Iterator:
    """``count`` puzzles of ``kind``, the same ones for the same arguments (Sudoku: the same
    ones for the same ``check_seconds`` too, where a check reaches it).  ``memory_limit``: the
    bytes a uniqueness check's encoding may take (:class:`~.dig.Counter`)."""
    if kind not in GENERATORS:
        raise UsageError(f"cannot generate {kind!r}: choose {', '.join(GENERATED_KINDS)}")
    generator = GENERATORS[kind]
    options = {"clues": clues, "remove": remove, "placed": placed, "holes": holes, "balanced": balanced,
               "check_seconds": check_seconds, "on_cell": on_cell}
    shape = box if generator.by_box else size
    rng = random.Random(f"{kind}:{seed}")
    counter = Counter(kind, box[0] * box[1] if generator.by_box else size, memory_limit) if generator.counted else None
    for _ in range(count):
        yield generator.make(shape, rng, counter, options)
