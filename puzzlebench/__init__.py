"""puzzlebench: state a puzzle once, solve it with every solver paradigm, compare them.

The Python API mirrors the command line::

    import puzzlebench
    p = puzzlebench.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    r = puzzlebench.solve(p, solver="mrv")          # limit 2: find one, prove it unique
    r.status, r.count, r.solution, r.times, r.stats
    frame = puzzlebench.load_results("runs.sqlite")  # a bench's results as a pandas DataFrame ([data])
"""

from .errors import (AmbiguousKindError, EngineError, InvalidPuzzleError, ParseError, PuzzleError,
                     PuzzlebenchError, SolverSpecError, UnsupportedShapeError, UsageError)
from .results import Result, Stats, Status, Times

__version__ = "0.1.0"

__all__ = [
    "parse", "solve", "solve_many", "load_results", "Result", "Stats", "Status", "Times",
    "PuzzlebenchError", "PuzzleError", "ParseError", "AmbiguousKindError", "InvalidPuzzleError",
    "UnsupportedShapeError", "SolverSpecError", "EngineError", "UsageError",
]


def __getattr__(name):  # the API functions load the models and engines only when used
    if name in ("parse", "solve", "solve_many", "encode", "load_results"):
        from . import api
        return getattr(api, name)
    raise AttributeError(name)
