"""What the bitboard tests share: the engines, and bitboard held to ``mrv`` on one puzzle."""

from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.engines.bitboard import BitboardEngine
from puzzlebench.engines.mrv import MrvEngine

BB, MRV = BitboardEngine(), MrvEngine()


def agree(puzzle, limit=2, engine=BB):
    """bitboard and mrv: same status, same count, every solution verified."""
    a, b = engine.run(puzzle, limit=limit), MRV.run(puzzle, limit=limit)
    assert (a.status, a.count) == (b.status, b.count), puzzle.write()
    assert a.verified and b.verified
    if limit is None and a.count <= 10:  # all kept (keep=10): the same solutions
        assert sorted(a.solutions) == sorted(b.solutions)
    return a


full_grid = pattern_sudoku_grid  # a random complete grid of block shape ``box``
