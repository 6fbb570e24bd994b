"""Helpers the engine tests share: reading data lines of Skyscrapers, and checking an engine
against ``mrv``, the reference every engine must agree with."""

from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.engines.mrv import MrvEngine

_REFERENCE: dict = {}


def skyscrapers_line(line: str) -> tuple[Skyscrapers, str]:
    """A data line ``N top bottom left right nsol=…``: the puzzle and its ``nsol`` field."""
    fields = line.split()
    n = int(fields[0])
    clues = [[int(x) for x in f.split(",")] for f in fields[1:5]]
    return Skyscrapers(n, *clues), fields[5]


def mrv_reference(puzzle, limit):
    """mrv's answer, computed once per puzzle and limit."""
    key = (type(puzzle).__name__, puzzle.write(), limit)
    if key not in _REFERENCE:
        _REFERENCE[key] = MrvEngine().run(puzzle, limit=limit)
    return _REFERENCE[key]


def agree_with_mrv(engine, puzzle, limit):
    """Run ``engine``: verified, same status and count as mrv, and the same solutions when
    every one was kept."""
    result = engine.run(puzzle, limit=limit)
    reference = mrv_reference(puzzle, limit)
    assert result.verified, result.error
    assert (result.status, result.count) == (reference.status, reference.count)
    if limit is None and result.count <= len(result.solutions):
        assert sorted(result.solutions) == sorted(reference.solutions)
    return result
