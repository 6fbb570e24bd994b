"""The one seam between the bench and whatever runs its work: an :class:`Executor` takes
:class:`WorkUnit` s (one solver, a list of puzzles) and yields finished :class:`Row` s.

The rest of the harness only sees this interface, so that a distributed executor (Dask:
one unit = one remote task) can replace :class:`~puzzlebench.harness.workers.LocalExecutor`
without touching the rest.  An executor must yield exactly one row (in a :class:`RowBatch`)
for every task it was given, in any order; never let an engine's crash, hang or wrong answer
escape (those are ``error`` or ``timeout`` rows with the reason in ``error``); and mark
``verified`` only when every returned solution passed the puzzle's checker, ``wrong`` when one
failed it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from itertools import islice, repeat
from typing import Iterator, Mapping, Protocol, Sequence

from ..engines.base import Engine
from ..models.base import Puzzle
from ..results import Result, Stats, Status, Times


@dataclass
class WorkUnit:
    """Puzzles for one solver, run one after another inside one worker.

    ``task_ids`` are the bench's keys of the pairs, ``puzzles`` their puzzles, in the same
    order (two columns, so that a unit is cut from the bench's lists by slicing, and sent
    without its puzzles to workers that already hold them: ``puzzles`` is then ``None``).
    ``batch``: hand the whole list to the engine's own batch call (``Engine.batch``, through
    ``run_many``) and verify in bulk; otherwise each puzzle is run, timed and watched alone.  ``engines`` maps extra
    family names to ``module:Class`` (engines outside the registry: plug-ins, test doubles),
    importable in the worker.  ``memory_limit``: bytes the engine may use above the worker's
    baseline (``None``: no limit); past it the run is ``memout``.  ``engine_seed``: the seed the
    engine's searches are given (``None``: it takes none).  ``warmup``: (task id, puzzle) pairs
    a worker runs first when it builds the engine, their rows sent flagged ``warmup``
    (``bench --warmup``).  ``clock``: the clock of ``time_limit`` (``wall`` or ``cpu``), with
    ``wall_limit`` beside a CPU limit.  ``certify``: each claim of absence proved and checked in
    the run (``Engine.certified``), the proofs kept in ``proof_dir`` if given."""

    solver: str
    task_ids: Sequence[int]
    puzzles: Sequence[Puzzle] | None
    limit: int | None
    time_limit: float
    keep: int = 2
    batch: bool = False
    engines: Mapping[str, str] = field(default_factory=dict)
    memory_limit: int | None = None
    engine_seed: int | None = None
    warmup: Sequence[tuple[int, Puzzle]] = ()
    clock: str = "wall"
    wall_limit: float | None = None
    certify: bool = False
    proof_dir: str | None = None

    @property
    def timing(self) -> dict:
        """The time limit's keywords of :meth:`Engine.run <puzzlebench.engines.base.Engine.run>`."""
        return dict(time_limit=self.time_limit, clock=self.clock, wall_limit=self.wall_limit)

    @property
    def tasks(self) -> list[tuple[int, Puzzle | None]]:
        """(task id, puzzle) pairs (puzzle ``None`` when the unit travels without them)."""
        return list(zip(self.task_ids, self.puzzles if self.puzzles is not None else repeat(None)))

    def with_tasks(self, tasks: Sequence[tuple[int, Puzzle | None]]) -> "WorkUnit":
        """The same unit for these (task id, puzzle) pairs only."""
        return replace(self, task_ids=[t for t, _ in tasks], puzzles=[p for _, p in tasks])


class PuzzleSlice(Sequence):
    """``source[start:stop]`` without copying it: a unit's puzzles, cut from the bench's list.
    A copy would take a reference to every puzzle, which writes to the memory holding it: in
    the parent of forked workers, memory shared with them, so that every page of puzzles would
    be copied once more (the workers read them from the same list)."""

    __slots__ = ("source", "start", "stop")

    def __init__(self, source: Sequence, start: int, stop: int):
        self.source, self.start, self.stop = source, start, stop

    def __len__(self) -> int:
        return self.stop - self.start

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.source[self.start:self.stop][index]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.source[self.start + index % len(self)]

    def __iter__(self):
        return islice(self.source, self.start, self.stop)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __reduce__(self):
        """Pickled as the list of its puzzles (a unit sent to a worker that holds no catalog),
        never with the whole list it is cut from."""
        return list, (list(self),)


def contiguous(ids: Sequence[int]) -> range | None:
    """``ids`` as a range when they are consecutive ids (a unit as planned), else ``None``."""
    if isinstance(ids, range):
        return ids if ids.step == 1 else None
    if ids and ids[-1] - ids[0] == len(ids) - 1 and list(ids) == list(range(ids[0], ids[-1] + 1)):
        return range(ids[0], ids[-1] + 1)
    return None


ROW_FIELDS = ("task_id", "status", "count", "t_parse", "t_encode", "t_solve", "t_decode", "t_total",
              "peak_memory", "nodes", "guesses", "backtracks", "conflicts", "propagations",
              "raw_stats", "size", "error", "verified", "wrong", "t_cpu", "batch_size", "baseline_memory",
              "certificate", "prover", "proof_bytes", "prove_seconds", "check_seconds")
Row = tuple
"""One finished task, as a plain tuple in :data:`ROW_FIELDS` order (cheap to pickle; the
fields added last are last, so that a row of the earlier fields alone is still stored).  Times
in seconds: ``t_*`` wall time but ``t_cpu``, CPU time (user + system) of the worker over the
engine's run, shared evenly by the ``batch_size`` puzzles of one batch call (1: run alone);
memory in bytes: ``peak_memory`` the peak resident set above ``baseline_memory``, the
worker's idle resident set once it had built the engine (see ``harness/workers.py``); the
certificate of a claim of absence under ``bench --certify`` (its status, the prover, the proof's
bytes, the seconds to prove and to check: :class:`~puzzlebench.results.Certificate`), else NULL."""


@dataclass
class RowBatch:
    """Finished tasks as columns: what a worker sends for a whole batch (one message, a few
    lists, instead of one object per puzzle), and what the bench stores with one
    ``executemany``.  ``columns`` maps a name of :data:`ROW_FIELDS` to one value per task (in
    ``task_ids`` order); ``shared`` maps a name to the value of every task.  Every name but
    ``task_id`` is in one of the two."""

    task_ids: Sequence[int]
    columns: dict[str, list]
    shared: dict[str, object] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.task_ids)

    @classmethod
    def from_rows(cls, rows: Sequence[Row]) -> "RowBatch":
        """A batch of rows in :data:`ROW_FIELDS` order (the per-puzzle paths)."""
        if not rows:
            return cls([], {name: [] for name in ROW_FIELDS[1:]})
        ids, *values = (list(column) for column in zip(*rows))
        return cls(ids, dict(zip(ROW_FIELDS[1:], values)))

    def column(self, name: str) -> Sequence:
        """One value per task, whichever way the field was given."""
        if name in self.columns:
            return self.columns[name]
        return [self.shared[name]] * len(self.task_ids)


class Executor(Protocol):
    def execute(self, units: Sequence[WorkUnit]) -> Iterator[RowBatch]:
        """Run every unit; yield its finished tasks as they come (a batch at a time)."""

    def close(self) -> None:
        """Stop every worker."""


# -- engines by spec, with extra families -------------------------------------------------------

def has_batch_path(engine: Engine) -> bool:
    """Whether the engine has a batch call of its own (overrides :meth:`Engine.batch`)."""
    return type(engine).batch is not Engine.batch


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


def json_column(d: dict) -> str | None:
    """``d`` as the compact JSON of a row's column (``raw``, ``size``), None when empty."""
    return _json.dumps(d)

STAT_FIELDS = ("nodes", "guesses", "backtracks", "conflicts", "propagations")


def json_objects(names: Sequence[str], flat: Sequence[int]) -> list[str]:
    """JSON objects of integers, one per ``len(names)`` values of ``flat`` (the raw counters of
    a batch's columns), as :func:`json.dumps` writes them compactly: one ``%`` template made
    from the escaped keys."""
    template = "{" + ",".join(json.dumps(name).replace("%", "%%") + ":%d" for name in names) + "}"
    width = len(names)
    return [template % tuple(flat[i:i + width]) for i in range(0, len(flat), width)]


def row_of(task_id: int, result: Result, peak_memory: int | None, wrong: bool = False,
           baseline_memory: int | None = None, batch_size: int = 1) -> Row:
    t, s, c = result.times, result.stats, result.certificate
    certificate = (None,) * 5 if c is None else (c.status, c.prover, c.proof_bytes, c.prove_seconds, c.check_seconds)
    return (task_id, _STATUS_TEXT[result.status], result.count, t.parse, t.encode, t.solve, t.decode, t.total,
            peak_memory, s.nodes, s.guesses, s.backtracks, s.conflicts, s.propagations,
            json_column(s.raw), json_column(result.size), result.error, int(result.verified), int(wrong),
            t.cpu, batch_size, baseline_memory) + certificate


def failure_row(task_id: int, status: Status, message: str, seconds: float = 0.0, *,
                cpu: float | None = None, peak_memory: int | None = None,
                baseline_memory: int | None = None, raw: dict | None = None) -> Row:
    """The row of a task that has no answer: its worker died, hung, ran out of memory, or could
    not build the engine (``cpu`` ``None``: not known, stored as NULL; ``raw``: what is known of
    the programs it ran)."""
    return row_of(task_id, Result(kind="", solver="", limit=None, status=status, error=message,
                                  times=Times(total=seconds, cpu=cpu), stats=Stats(raw=dict(raw or {}))),
                  peak_memory, baseline_memory=baseline_memory)
