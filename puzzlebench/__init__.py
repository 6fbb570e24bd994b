"""puzzlebench: state a puzzle once, solve it with every solver paradigm, compare them.

The Python API mirrors the command line::

    import puzzlebench
    p = puzzlebench.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    r = puzzlebench.solve(p, solver="mrv")          # limit 2: find one, prove it unique
    r.status, r.count, r.solution, r.times, r.stats
    frame = puzzlebench.load_results("runs.sqlite")  # a bench's results as a pandas DataFrame ([data])
"""

__version__ = "0.1.0"

_ATTRIBUTES = {
    "parse": "api", "solve": "api", "solve_many": "api", "encode": "api", "load_results": "api",
    "Result": "results", "Stats": "results", "Status": "results", "Times": "results",
    **dict.fromkeys(["PuzzlebenchError", "PuzzleError", "ParseError", "AmbiguousKindError",
                     "InvalidPuzzleError", "UnsupportedShapeError", "SolverSpecError", "EngineError",
                     "UsageError"], "errors"),
}

__all__ = [name for name in _ATTRIBUTES if name != "encode"]


def __getattr__(name):
    """Each name from its module when first used: ``import puzzlebench`` loads nothing, so the
    command's entry holds a Ctrl-C before the models and engines load (cli.main)."""
    module = _ATTRIBUTES.get(name)
    if module is None:
        raise AttributeError(f"module 'puzzlebench' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(f".{module}", __name__), name)


def __dir__():
    return sorted([*globals(), *_ATTRIBUTES])
