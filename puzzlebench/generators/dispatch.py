"""The generators by name, which kind entries (:mod:`puzzlebench.models.kinds`) refer to (a
lower layer cannot import them), and :func:`generate`, which draws ``count`` puzzles of a kind
from one seed.  A kind's shape, default shape, options and limits are in its entry.
"""

from __future__ import annotations

import importlib
import random
from typing import Callable, Iterator

from ..errors import UsageError
from ..models.kinds import KIND_NAMES, generated_kinds, kind_entry
from ..models.nqueens import NQueens
from .dig import Counter
from .kinds import (generate_futoshiki, generate_jigsaw, generate_kenken, generate_killer, generate_nqueens,
                    generate_skyscrapers, generate_sudoku_x)
from .latin import check_qwh_arguments, generate_qwh
from .sudoku import (ATTEMPTS_PER_PUZZLE, RATING_SCALE, check_rating_arguments, generate_rated_sudoku, generate_sudoku,
                     line_form_warning, without_solution)


def _unsat_if_asked(puzzle, rng: random.Random, options: dict):
    """``generate --unsat``: the unique puzzle made unsatisfiable by one given (:func:`without_solution`)."""
    return without_solution(puzzle, rng) if options.get("unsat") else puzzle


MakeGenerator = Callable[[object, random.Random, "Counter | None", dict], object]
"""A generator: ``(shape, rng, counter, options)`` to one puzzle; ``options`` the keyword
arguments of :func:`generate`, ``counter`` ``None`` for a kind whose entry says its puzzles
need no proof of uniqueness."""

GENERATORS: dict[str, MakeGenerator] = {
    "sudoku": lambda box, rng, counter, o: _unsat_if_asked(
        generate_sudoku(box, rng, o["clues"], counter=counter, check_seconds=o["check_seconds"],
                        on_cell=o["on_cell"], recheck_seconds=o["recheck_seconds"]), rng, o),
    "skyscrapers": lambda n, rng, counter, o: generate_skyscrapers(n, rng, o["remove"], counter=counter),
    "nqueens": lambda n, rng, counter, o: generate_nqueens(n, o["placed"], rng),
    "latin": lambda n, rng, counter, o: generate_qwh(n, rng, o["holes"], o["balanced"]),
    "sudoku-x": lambda box, rng, counter, o: generate_sudoku_x(box, rng, counter),
    "jigsaw": lambda n, rng, counter, o: generate_jigsaw(n, rng, counter),
    "killer": lambda box, rng, counter, o: generate_killer(box, rng, counter),
    "futoshiki": lambda n, rng, counter, o: generate_futoshiki(n, rng, counter),
    "kenken": lambda n, rng, counter, o: generate_kenken(n, rng, counter),
}
"""The generators by the names kind entries (:mod:`puzzlebench.models.kinds`) give them."""


CHECKS: dict[str, Callable[[object, dict], None]] = {
    "latin": lambda n, o: check_qwh_arguments(n, o["holes"]),
    "nqueens": lambda n, o: NQueens(n),   # its size checked: the random solution recurses a level a row
}
"""What a kind's generator checks before any puzzle is drawn (one line each, nothing written)."""

WARNINGS: dict[str, Callable[[object], str | None]] = {"sudoku": line_form_warning}
"""What a kind's generator says of a shape it makes but that its output cannot name."""


CELL_BY_CELL = frozenset({"sudoku"})
"""The generators that call ``on_cell`` after each clue they try (minutes a large puzzle)."""


def check_rated_sudoku(box: tuple[int, int], clues: int | None, rating_min: float | None, rating_max: float | None,
                       technique: str | None, option: str) -> tuple[float, float]:
    """Refuse a rated generation of Sudoku the ladder cannot rate (``option``: the first rating
    option given, named in the error); the rating bounds, the scale's ends where left out."""
    if box != (3, 3):
        raise UsageError(f"{option}: rated generation is for 9x9 Sudoku (3x3 blocks), the ladder's size; "
                         f"got --box {box[0]}x{box[1]}")
    if clues is not None:
        raise UsageError(f"{option} and --clues do not go together: rated puzzles are minimal")
    low = RATING_SCALE[0] if rating_min is None else rating_min
    high = RATING_SCALE[1] if rating_max is None else rating_max
    check_rating_arguments(low, high, technique)
    return low, high


RATED: dict[str, tuple[Callable, Callable, int]] = {
    "sudoku": (check_rated_sudoku, generate_rated_sudoku, ATTEMPTS_PER_PUZZLE),
}
"""The kinds with a rated generator (their entries take the ``rating`` option): its check of
the shape and the bounds (``check(box, clues, rating_min, rating_max, technique, option)``), the
generator (``generate(count, seed, rating_min, rating_max, technique=, attempts=, check_seconds=,
rating_seconds=, on_attempt=)``, each puzzle's ``metadata`` holding its ``solution`` and
``rating``) and the candidates it tries a puzzle by default."""


def cells_tried(kind: str, box: tuple[int, int]) -> int:
    """How many times ``kind``'s generator calls ``on_cell`` a puzzle (0: never)."""
    return (box[0] * box[1]) ** 2 if kind in CELL_BY_CELL else 0


def check_generation(kind: str, shape, **options) -> str | None:
    """Refuse what ``kind``'s generator would refuse, before any output is made (a
    :class:`~puzzlebench.errors.UsageError`); the warning its shape deserves, if any."""
    if kind in CHECKS:
        CHECKS[kind](shape, options)
    return WARNINGS[kind](shape) if kind in WARNINGS else None


def generator_of(kind: str) -> MakeGenerator:
    """The generator a kind's entry names: one of :data:`GENERATORS`, or ``"module:function"``."""
    name = kind_entry(kind).generator
    if name is None:
        raise UsageError(f"cannot generate {kind!r}: choose {', '.join(generated_kinds())}")
    if name in GENERATORS:
        return GENERATORS[name]
    module, _, function = name.partition(":")
    return getattr(importlib.import_module(module), function)


def generate(kind: str, count: int, seed: int, *, box: tuple[int, int] = (3, 3), clues: int | None = None,
             size: int = 8, remove: float = 0.5, placed: int = 0, holes: float = 0.42,
             balanced: bool = False, check_seconds: float | None = None, unsat: bool = False,
             on_cell: Callable[[], None] | None = None, memory_limit: int | None = None,
             recheck_seconds: float | None = None) -> Iterator:
    """``count`` puzzles of ``kind``, the same ones for the same arguments (Sudoku: the same
    ones for the same ``check_seconds`` and ``recheck_seconds`` too, where a check reaches them).  ``memory_limit``: the
    bytes a uniqueness check's encoding may take (:class:`~.dig.Counter`)."""
    if kind not in KIND_NAMES:
        raise UsageError(f"cannot generate {kind!r}: choose {', '.join(generated_kinds())}")
    entry, make = kind_entry(kind), generator_of(kind)
    options = {"clues": clues, "remove": remove, "placed": placed, "holes": holes, "balanced": balanced,
               "check_seconds": check_seconds, "recheck_seconds": recheck_seconds, "on_cell": on_cell,
               "unsat": unsat}
    by_box = entry.shape == "box"
    rng = random.Random(f"{kind}:{seed}")
    counter = Counter(kind, box[0] * box[1] if by_box else size, memory_limit) if entry.proven_unique else None
    for _ in range(count):
        yield make(box if by_box else size, rng, counter, options)
