"""The registry of engines, and solver specs: ``family[:variant][@key=value[;key=value…]]``.

``sat:minisat22@encoding=minimal;amo=pairwise``, ``cpsat:bool@workers=2``, ``quine:h0@seed=3``;
a bare family means its default variant.  The same spec is used by the CLI, the Python API
and the harness.  Engines are imported only when asked for, so that a missing optional
library breaks nothing else.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Mapping

from ..errors import SolverSpecError, UsageError
from ..options import THREADS
from .base import ON_PUZZLE, Engine
from .batch import NativeBatch, every_core

# family → "module:class".  A paradigm is added here only once it is verified.
FAMILIES: dict[str, str] = {
    "backtrack": "puzzlebench.engines.backtrack:BacktrackEngine",
    "mrv": "puzzlebench.engines.mrv:MrvEngine",
    "bitboard": "puzzlebench.engines.bitboard:BitboardEngine",
    "dlx": "puzzlebench.engines.dlx:DlxEngine",
    "dlx-py": "puzzlebench.engines.dlx_py:DlxPyEngine",
    "cpsat": "puzzlebench.engines.cpsat:CpSatEngine",
    "smt": "puzzlebench.engines.smt:SmtEngine",
    "human": "puzzlebench.engines.human:HumanEngine",
    "sat": "puzzlebench.engines.sat:SatEngine",
    "quine": "puzzlebench.engines.quine:QuineEngine",
    "ext": "puzzlebench.engines.external:ExternalEngine",
    "cpmpy": "puzzlebench.engines.cpmpy:CpmpyEngine",
}

NATIVE_DEFAULT, GENERIC_DEFAULT = "bitboard", "mrv"


def default_solver(kind: str) -> str:
    """The engine a run takes when none is named: the native bitboards wherever they take the
    kind (a 9x9 in microseconds, a hard 25x25 in seconds, where the MRV search in Python takes
    milliseconds and minutes), else the MRV search, which takes every kind."""
    return NATIVE_DEFAULT if kind in engine_class(NATIVE_DEFAULT).kinds else GENERIC_DEFAULT


@dataclass(frozen=True)
class SolverSpec:
    family: str
    variant: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        text = self.family + (f":{self.variant}" if self.variant else "")
        return text + ("@" + ";".join(f"{k}={v}" for k, v in self.options) if self.options else "")


def parse_spec(text: str) -> SolverSpec:
    """Read ``family[:variant][@key=value[;key=value…]]``: a ``:`` or ``@`` with nothing after
    it, and a key given twice, are refused (``sat:`` and ``encoding=minimal;encoding=extended``
    would run something other than what was written)."""
    text = text.strip()
    head, at, opts = text.partition("@")
    family, colon, variant = head.partition(":")
    if not family:
        raise SolverSpecError(f"solver spec {text!r}: no engine named; known: {', '.join(FAMILIES)}")
    if colon and not variant.strip():
        raise SolverSpecError(f"solver spec {text!r}: no variant after ':' (leave out ':' for the default)")
    if at and not opts.strip():
        raise SolverSpecError(f"solver spec {text!r}: no option after '@' (key=value;…)")
    options = []
    for item in opts.split(";") if at else ():
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise SolverSpecError(f"solver spec {text!r}: option {item!r} is not key=value")
        if key.strip() in dict(options):
            raise SolverSpecError(f"solver spec {text!r}: option {key.strip()} is given twice")
        options.append((key.strip(), value.strip()))
    return SolverSpec(family.strip(), variant.strip() or None, tuple(options))


def engine_class(family: str, engines: Mapping[str, str] | None = None) -> type[Engine]:
    """The class of an engine family, looked up in ``engines`` (extra ``family →
    "module:Class"`` entries, e.g. test doubles named on the bench's command line) first."""
    table = {**FAMILIES, **(engines or {})}
    if family not in table:
        raise SolverSpecError(f"unknown solver {family!r}; known: {', '.join(sorted(table))}")
    module, _, name = table[family].partition(":")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        if family in FAMILIES:
            raise
        raise SolverSpecError(f"engine {family}={table[family]}: cannot import: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Engine)):   # os:path: a name, not a class to build
        raise SolverSpecError(f"engine {family}={table[family]}: {name} is not an engine class "
                              f"(a subclass of puzzlebench.engines.base.Engine)")
    if inspect.isabstract(cls):   # base:Engine: checked here, not where the bench builds it
        raise SolverSpecError(f"engine {family}={table[family]}: {name} is abstract (no "
                              f"{', '.join(sorted(cls.__abstractmethods__))}): not an engine to run")
    return cls


def make_engine(spec: str | SolverSpec | Engine, engines: Mapping[str, str] | None = None,
                on: str = ON_PUZZLE) -> Engine:
    """An engine for a spec (text or parsed) to run on ``on`` (a puzzle, or a CNF file: see
    :data:`~.base.ON_CNF`); an engine passes through.  Each option is checked where it is read
    (its name, its value: ``Engine.__init__``), then whether it would act on this engine
    running on ``on``: an option that would do nothing is refused with the reason."""
    if isinstance(spec, Engine):
        return spec
    if not isinstance(spec, (str, SolverSpec)):   # None: a TypeError that says what a solver is
        raise TypeError(f"a solver is a spec text (such as {NATIVE_DEFAULT!r}) or an Engine; "
                        f"got {type(spec).__name__}")
    if isinstance(spec, str):
        spec = parse_spec(spec)
    cls = engine_class(spec.family, engines)
    reason = cls.unavailable_reason()
    if reason:
        raise SolverSpecError(f"solver {spec.family!r} is not available here: {reason}")
    engine = cls(spec.variant, dict(spec.options))
    for name, _ in spec.options:
        reason = engine.why_option_does_not_apply(name, on)
        if reason:
            raise SolverSpecError(f"option {name} does not apply to {SolverSpec(spec.family, spec.variant)} ({reason})")
    return engine


def split_over_threads(engine, threads: int, name: str = "threads"):
    """``engine`` with its batch calls split over ``threads`` native threads (0: every core,
    :func:`~puzzlebench.engines.batch.every_core`), checked as :data:`~puzzlebench.options.THREADS`
    says (``name``: the option as the user wrote it).  Only an engine with a native batch call splits one: any
    other count than 1 for another engine is a one-line :class:`UsageError` naming those that do."""
    asked = THREADS.check(threads, name)
    if asked != 1 and not isinstance(engine, NativeBatch):
        raise UsageError(f"{name} {asked}: {engine.family} has no native batch call to split over threads; "
                         f"the engines with one: {', '.join(batch_families())}")
    if isinstance(engine, NativeBatch):
        engine.batch_threads = asked or every_core()
    return engine


def batch_families() -> list[str]:
    """The engine families with a native batch call (:class:`NativeBatch`), in the registry's order."""
    families = []
    for family in FAMILIES:
        try:
            if issubclass(engine_class(family), NativeBatch):
                families.append(family)
        except ImportError:   # an optional library missing: that engine has no batch call here
            continue
    return families
