"""The registry of export targets: every encoder registers its target in :data:`EXPORTERS`
(target → ``"module:function"``, imported only when asked for, as the engine registry does),
the function taking ``(puzzle, **options)`` and returning an artifact with a ``write() ->
str`` method::

    EXPORTERS["dimacs"] = "puzzlebench.encoders.cnf:export_dimacs"

so ``puzzlebench export --to TARGET`` and ``puzzlebench.api.encode(puzzle, to=TARGET)``
(through :func:`artifact_for`) know every target without importing every encoder.  An option
a target's function does not take is refused, naming the option and the target.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from ..errors import UsageError
from .budget import check_budget

# target → ("module:function", the options a user may give it)
EXPORTERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "dlx": ("puzzlebench.encoders.exact_cover:encode_puzzle", ()),
    "cpsat": ("puzzlebench.encoders.cpsat:export_cpsat", ()),
    "cpsat-bool": ("puzzlebench.encoders.cpsat:export_cpsat_bool", ()),
    "smt2": ("puzzlebench.encoders.smt:export_smt2", ("amo",)),
    "smt2-fold": ("puzzlebench.encoders.smt:export_smt2_fold", ("amo",)),
    "smt2-bool": ("puzzlebench.encoders.smt:export_smt2_bool", ("amo",)),
    "dimacs": ("puzzlebench.encoders.cnf:export_dimacs", ("encoding", "amo")),
    "xcsp3": ("puzzlebench.encoders.xcsp3:export_xcsp3", ()),
    "minizinc": ("puzzlebench.encoders.minizinc:export_minizinc", ()),
    "minizinc-model": ("puzzlebench.encoders.minizinc:export_minizinc_model", ()),
    "minizinc-data": ("puzzlebench.encoders.minizinc:export_minizinc_data", ()),
    "opb": ("puzzlebench.encoders.opb:export_opb", ()),
}


ESTIMATES: dict[str, str] = {
    "dimacs": "puzzlebench.encoders.cnf:estimated_export_bytes",
    "dlx": "puzzlebench.encoders.exact_cover:estimated_bytes",
    "smt2-fold": "puzzlebench.encoders.smt:estimated_bytes",
    "smt2-bool": "puzzlebench.encoders.smt:estimated_bytes",
}
"""target → ``"module:function"`` of what its artifact and text take, ``(puzzle, **options) ->
bytes`` (:mod:`.budget`): the targets that list every clause or option (an empty 64x64 Sudoku's
DIMACS took 6.1 GB to write 573 MB; SMT-LIB with ``amo=pairwise``).  The others state each
constraint whole (a line an AllDifferent, n³ terms at most)."""


def _function(reference: str) -> Callable[..., Any]:
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def exporter(target: str) -> Callable[..., Any]:
    if target not in EXPORTERS:
        raise UsageError(f"unknown export target {target!r}; known: {', '.join(sorted(EXPORTERS))}")
    return _function(EXPORTERS[target][0])


def check_exportable(puzzle, to: str) -> None:
    """Refuse a Sukaku (a Sudoku with pencil marks, ``puzzle.candidates``): no writer says its
    marks, and its givens alone are another puzzle (as ``Engine.run`` refuses it to engines that
    cannot take them)."""
    if getattr(puzzle, "candidates", None) is not None:
        raise UsageError(f"export target {to!r} cannot express a Sukaku's pencil marks (a {puzzle.kind} "
                         f"with candidates); the human, mrv and sat solvers take them")


def artifact_for(puzzle, to: str, *, memory_limit: int | None = None, **options: Any):
    """The artifact of ``puzzle`` for export target ``to`` (it can ``write()`` itself); an
    option the target does not take is refused, naming both, and so is a Sukaku, and so is an
    artifact estimated past the memory budget (``memory_limit`` bytes, else the default:
    :func:`~.budget.check_budget`)."""
    function = exporter(to)
    known = EXPORTERS[to][1]
    for name in options:
        if name not in known:
            takes = f"it takes {', '.join(known)}" if known else "it takes no option"
            raise UsageError(f"export target {to!r} has no option {name!r}; {takes}")
    check_exportable(puzzle, to)
    if to in ESTIMATES:
        check_budget(_function(ESTIMATES[to])(puzzle, **options), f"the {to} export of this {puzzle.kind}",
                     memory_limit)
    return function(puzzle, **options)
