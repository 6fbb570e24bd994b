"""The Python API, mirroring the command line: ``parse``, ``solve``, ``solve_many``, ``encode``."""

from __future__ import annotations

import time
from typing import Any, Iterable

from .errors import PuzzleError
from .solvers.registry import DEFAULT_SOLVER, make_engine
from .models.base import Puzzle
from .results import Result, Times, error_result
from .solvers.base import Engine, check_time_limit, normalise_limit
from .solvers.child import run_limited

DEFAULT_KEEP = 10


def check_keep(keep: int) -> int:
    """The number of solutions kept per puzzle: 0 or more."""
    from .errors import UsageError
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise UsageError(f"keep must be a whole number, 0 or more; got {keep!r}")
    return keep


def parse(text: str, kind: str | None = None, box: str | tuple[int, int] | None = None) -> Puzzle:
    """One puzzle from its text; the kind is inferred when not given (and unambiguous).
    ``box`` is a Sudoku block shape, ``"3x4"`` or ``(3, 4)`` (rows x columns)."""
    from .models.reader import parse as parse_text
    return parse_text(text, kind=kind, box=box)


def solve(puzzle: Puzzle | str, solver: str | Engine = DEFAULT_SOLVER, limit: int | None = 2,
          time_limit: float | None = None, keep: int = DEFAULT_KEEP, kind: str | None = None,
          box: str | tuple[int, int] | None = None) -> Result:
    """Solve one puzzle (a parsed one or its text).  ``limit`` is the number of solutions to
    look for: 2 finds one and proves it unique; ``None`` or ``0`` counts them all.  A text that
    is not a puzzle raises its :class:`~puzzlebench.errors.PuzzleError`."""
    limit, time_limit, keep = normalise_limit(limit), check_time_limit(time_limit), check_keep(keep)
    engine = make_engine(solver)
    parse_time = 0.0
    if isinstance(puzzle, str):
        start = time.perf_counter()
        puzzle = parse(puzzle, kind=kind, box=box)
        parse_time = time.perf_counter() - start
    result = run_limited(engine, [puzzle], limit=limit, time_limit=time_limit, keep=keep)[0]
    result.times.parse += parse_time
    result.times.total += parse_time
    return result


def solve_many(puzzles: Iterable[Puzzle | str], solver: str | Engine = DEFAULT_SOLVER,
               limit: int | None = 2, time_limit: float | None = None, keep: int = DEFAULT_KEEP,
               kind: str | None = None, box: str | tuple[int, int] | None = None) -> list[Result]:
    """Solve many puzzles (parsed ones or texts) with one engine, in order.  A text that does
    not parse gives an ``error`` result with the message; the others still run.  Engines with
    a batch path (``bitboard``) take the whole list in one call."""
    limit, time_limit, keep = normalise_limit(limit), check_time_limit(time_limit), check_keep(keep)
    engine = make_engine(solver)
    items = list(puzzles)
    texts = [p for p in items if isinstance(p, str)]
    if texts and len(texts) == len(items) and hasattr(engine, "run_texts"):
        return engine.run_texts(texts, kind=kind, box=box, limit=limit, time_limit=time_limit, keep=keep)
    parsed: list[Puzzle | PuzzleError] = []
    parse_times: list[float] = []
    for item in items:
        start = time.perf_counter()
        if isinstance(item, Puzzle):
            parsed.append(item)
        else:
            try:
                parsed.append(parse(item, kind=kind, box=box))
            except PuzzleError as exc:
                parsed.append(exc)
        parse_times.append(time.perf_counter() - start)
    good = [p for p in parsed if isinstance(p, Puzzle)]
    solved = iter(run_limited(engine, good, limit=limit, time_limit=time_limit, keep=keep))
    results = []
    for item, parse_time in zip(parsed, parse_times):
        if isinstance(item, Puzzle):
            result = next(solved)
            result.times.parse += parse_time
            result.times.total += parse_time
        else:
            result = error_result(str(item), solver=engine.spec, limit=limit,
                                  times=Times(parse=parse_time, total=parse_time))
        results.append(result)
    return results


def encode(puzzle: Puzzle | str, to: str, **options: Any):
    """The artifact of ``puzzle`` for a target representation (``dimacs``, ``dlx``, ``cpsat``,
    ``smt2``); the artifact can ``write()`` itself as text."""
    from .encoders.registry import artifact_for
    if isinstance(puzzle, str):
        puzzle = parse(puzzle)
    return artifact_for(puzzle, to, **options)

