"""The one seam between the bench and whatever runs its work: an :class:`Executor` takes
:class:`WorkUnit` s (one solver, a list of puzzles) and yields finished :class:`Row` s.

Everything else in the harness (planning, the database, progress, cross-checks, reports) only
sees this interface, so a distributed executor (Dask, Ray: one unit = one remote task, hard
limits enforced by the remote worker's own watchdog) can replace :class:`LocalExecutor
<puzzlebench.harness.workers.LocalExecutor>` without touching the rest.  An executor must:

- yield exactly one row for every task of every unit it was given, in any order;
- never let an engine's crash, hang or wrong answer escape: those are rows with status
  ``error`` or ``timeout`` and the reason in ``error``;
- mark ``verified`` only when every returned solution was checked by the puzzle's checker,
  and ``wrong`` when one failed it.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Protocol, Sequence

from ..errors import SolverSpecError
from ..models.base import Puzzle
from ..results import Result, Status
from ..solvers.base import Engine
from . import registry


@dataclass
class WorkUnit:
    """Puzzles for one solver, run one after another inside one worker.

    ``tasks`` pairs a task id (the bench's key for the pair) with its puzzle.  ``batch``: hand
    the whole list to the engine's own batch path (``run_many``) and verify in bulk; otherwise
    each puzzle is run, timed and watched alone.  ``engines`` maps extra family names to
    ``module:Class`` (engines outside the registry: plug-ins, test doubles), importable in
    the worker."""

    solver: str
    tasks: list[tuple[int, Puzzle]]
    limit: int | None
    time_limit: float
    keep: int = 2
    batch: bool = False
    engines: Mapping[str, str] = field(default_factory=dict)


ROW_FIELDS = ("task_id", "status", "count", "t_parse", "t_encode", "t_solve", "t_decode", "t_total",
              "peak_memory", "nodes", "guesses", "backtracks", "conflicts", "propagations",
              "raw_stats", "size", "error", "verified", "wrong")
Row = tuple
"""One finished task, as a plain tuple in :data:`ROW_FIELDS` order (cheap to pickle)."""


class Executor(Protocol):
    def execute(self, units: Sequence[WorkUnit]) -> Iterator[list[Row]]:
        """Run every unit; yield rows as they finish (in small groups)."""

    def close(self) -> None:
        """Stop every worker."""


# -- engines by spec, with extra families -------------------------------------------------------

def engine_class(family: str, engines: Mapping[str, str] | None = None) -> type[Engine]:
    if engines and family in engines:
        module, _, name = engines[family].partition(":")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            raise SolverSpecError(f"engine {family}={engines[family]}: cannot import: {exc}") from None
    if family not in registry.FAMILIES:
        known = sorted({*registry.FAMILIES, *(engines or {})})
        raise SolverSpecError(f"unknown solver {family!r}; known: {', '.join(known)}")
    return registry.engine_class(family)


def make_engine(spec: str, engines: Mapping[str, str] | None = None) -> Engine:
    """The engine of a spec, looked up in ``engines`` first, then in the registry."""
    parsed = registry.parse_spec(spec)
    cls = engine_class(parsed.family, engines)
    reason = cls.unavailable_reason()
    if reason:
        raise SolverSpecError(f"solver {parsed.family!r} is not available here: {reason}")
    return cls(parsed.variant, dict(parsed.options))


def has_batch_path(engine: Engine) -> bool:
    """Whether the engine overrides :meth:`Engine.run_many` (a native batch call)."""
    return type(engine).run_many is not Engine.run_many


_STATUS_TEXT = {s: s.value for s in Status}


class _JsonCache:
    """JSON of small flat dicts of numbers, fast when the keys repeat (they do: one engine's
    raw counters have the same names for every puzzle): a ``%``-template per key tuple
    instead of :func:`json.dumps` per row."""

    def __init__(self):
        self.templates: dict[tuple, str] = {}

    def dumps(self, d: dict) -> str | None:
        if not d:
            return None
        keys = tuple(d)
        template = self.templates.get(keys)
        if template is None:
            if len(self.templates) > 64 or not all(isinstance(k, str) and k.isidentifier() for k in keys):
                return json.dumps(d, default=str, separators=(",", ":"))
            template = self.templates[keys] = "{" + ",".join(f'"{k}":%s' for k in keys) + "}"
        values = tuple(d.values())
        if all(type(v) is int for v in values):
            return template % values
        return json.dumps(d, default=str, separators=(",", ":"))


_json = _JsonCache()


def row_of(task_id: int, result: Result, peak_memory: int | None, wrong: bool = False) -> Row:
    t, s = result.times, result.stats
    return (task_id, _STATUS_TEXT[result.status], result.count, t.parse, t.encode, t.solve, t.decode, t.total,
            peak_memory, s.nodes, s.guesses, s.backtracks, s.conflicts, s.propagations,
            _json.dumps(s.raw), _json.dumps(result.size), result.error, result.verified, wrong)


def failure_row(task_id: int, status: Status, message: str, seconds: float = 0.0) -> Row:
    return (task_id, str(status), 0, 0.0, 0.0, 0.0, 0.0, seconds, None, None, None, None, None, None,
            None, None, message, False, False)
