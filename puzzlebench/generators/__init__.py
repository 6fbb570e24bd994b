"""Seeded, reproducible puzzle generators: they fill what no public set covers (6x6 and 12x12
Sudoku, proper Skyscrapers above 7x7, Latin square completions, the kinds of Simon Tatham's
programs).  A layer beside the harness: it uses the solvers to prove puzzles unique.

    fill      random complete grids (one shuffled search over any units; pattern grids)
    latin     uniformly random Latin squares (Jacobson and Matthews 1996) and QWH instances
    dig       uniqueness (:class:`~.dig.Counter`) and the one dig every generator uses
    sudoku    Sudoku of any block shape, and 9x9 to a target rating
    kinds     every other kind
    dispatch  the generators by the names kind entries give them, and :func:`generate`
    examples  the recipe of the embedded examples
"""

from .dispatch import GENERATORS, generate, generator_of

__all__ = ["GENERATORS", "generate", "generator_of"]
