"""Runs a bench's units on a Dask cluster: the :class:`~.runner.Executor` beyond one machine.

``--executor dask://HOST:PORT`` connects to a running scheduler; ``dask-local:N`` starts N
workers on 127.0.0.1 for the bench's life; ``local`` (the default) is :mod:`.workers`' pool.
One Dask task is one :class:`~.runner.WorkUnit`, its puzzles pickled with it, run inside the
Dask worker by a one-job :class:`~.workers.LocalExecutor`, so that a crashing or hanging
engine costs its forked child (an ``error`` or ``timeout``), never the Dask worker.  Rows come
back whole per task and are stored on the machine that runs ``bench``; a lost worker's tasks
are rerun by the scheduler (a second copy of a row is ignored), and a dead scheduler stops the
bench with one line, ``--resume`` running the rest.  ``distributed`` is optional
(``pip install puzzlebench[cluster]``): nothing else imports this module's Dask side.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from multiprocessing import forkserver
import queue
import re
import signal
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from ..errors import UsageError
from ..results import Status
from .runner import RowBatch, WorkUnit, failure_row
from .workers import JOBS_PER_CORE, LocalExecutor, default_jobs

CONNECT_SECONDS = 5.0
"""How long to try to reach a scheduler (at the start, and again when the connection drops)."""
WORKER_WAIT_SECONDS = 30.0
"""How long a bench waits for the first worker of a scheduler it reached."""
WORKERLESS_SECONDS = 60.0
"""How long a bench waits on a scheduler with no worker before it stops (workers restart in seconds)."""
POLL_SECONDS = 0.5
AHEAD = 4
"""Units handed to the cluster per worker thread.  The scheduler gives a worker the next one the
moment it frees a thread, without waiting for this client's round trip (about 10 ms on a busy
2-core machine): with 2, as in the local pool, dask-local:2 took 1.19x the local pool's wall
time on mrv/top1465 (median of 3), with 4 1.11x (`results/dask.md`)."""

INSTALL_HINT = "pip install puzzlebench[cluster]"
SPEC_FORMS = "local, dask://HOST:PORT or dask-local:N"


# -- the spec ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExecutorSpec:
    """What ``--executor`` names: ``kind`` is ``local``, ``dask`` (``address`` of a running
    scheduler) or ``dask-local`` (``workers`` processes started here)."""

    kind: str
    address: str | None = None
    workers: int | None = None

    @property
    def is_dask(self) -> bool:
        return self.kind != "local"


_HOST_PORT = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>[0-9]+)$")


def parse_executor_spec(text: str) -> ExecutorSpec:
    """``local``, ``dask://HOST:PORT`` or ``dask-local:N``; anything else a :class:`UsageError`."""
    spec = text.strip()
    if spec == "local":
        return ExecutorSpec("local")
    if spec.startswith("dask://"):
        match = _HOST_PORT.match(spec[len("dask://"):])
        if not match or not 1 <= int(match["port"]) <= 65535:
            raise UsageError(f"--executor {text!r}: expected dask://HOST:PORT with a port from 1 to 65535, "
                             "e.g. dask://127.0.0.1:8786")
        return ExecutorSpec("dask", address=f"tcp://{match['host']}:{int(match['port'])}")
    if spec.startswith("dask-local:"):
        count = spec[len("dask-local:"):]
        if not count.isascii() or not count.isdigit():
            raise UsageError(f"--executor {text!r}: expected dask-local:N, N a number of worker processes")
        if int(count) < 1:
            raise UsageError(f"--executor {text!r}: a local Dask cluster needs 1 worker or more")
        cores = default_jobs()
        if int(count) > JOBS_PER_CORE * cores:   # a process each, spawned at once, as --jobs
            raise UsageError(f"--executor {text!r}: at most {JOBS_PER_CORE * cores} workers here "
                             f"({JOBS_PER_CORE} worker processes a core, {cores} cores)")
        return ExecutorSpec("dask-local", workers=int(count))
    raise UsageError(f"--executor {text!r}: expected {SPEC_FORMS}")


def _dask_config():
    import dask.config
    return dask.config


def _distributed():
    try:
        import distributed
    except ImportError:
        raise UsageError(f"a Dask executor needs the Dask distributed library, not installed here: "
                         f"{INSTALL_HINT}") from None
    return distributed


# -- the Dask worker's side --------------------------------------------------------------------

class _ResidentPool(LocalExecutor):
    """A :class:`LocalExecutor` of one job whose child outlives each unit (``execute`` closes
    its executor when done; this one is closed by :meth:`shutdown` alone)."""

    def close(self) -> None:
        pass

    def shutdown(self) -> None:
        LocalExecutor.close(self)


_pools = threading.local()


def _allow_children() -> None:
    """A Dask worker started by a nanny is a daemonic ``multiprocessing`` process, which may not
    start processes of its own: lift that for this process.  The rule is there against orphans,
    and the engine's child has none to leave: it is killed with the thread that forked it
    (:func:`~puzzlebench.runtime.child.die_with_parent`)."""
    multiprocessing.current_process()._config["daemon"] = False


def run_unit(unit: WorkUnit) -> list[RowBatch]:
    """Dask task: one unit through this thread's hard-limit pool; its rows, every task's."""
    pool = getattr(_pools, "pool", None)
    if pool is None:
        _allow_children()
        pool = _pools.pool = _ResidentPool(1)
    try:
        return list(pool.execute([unit]))
    except BaseException:
        pool.shutdown()
        _pools.pool = None
        raise


# -- the bench's side --------------------------------------------------------------------------

def _answers(distributed, address: str, seconds: float) -> None:
    """Raise ``TimeoutError`` unless a Dask scheduler at ``address`` connects and answers its
    handshake within ``seconds``.  ``Client(timeout=)`` bounds the TCP connection but not the
    handshake (``distributed.comm.core.connect`` awaits the peer's first message with no limit,
    distributed 2026.8): a port that accepts and says nothing (another service, a stuck
    scheduler) held the bench for as long as the peer kept the connection open."""
    async def handshake() -> None:
        comm = await asyncio.wait_for(distributed.comm.connect(address, timeout=seconds), seconds)
        await comm.close()

    try:
        asyncio.run(handshake())
    except Exception:   # no answer in time, or an answer, but not as a Dask scheduler gives it
        raise TimeoutError(address) from None


class DaskExecutor:
    """Sends units to a Dask cluster and yields their rows as units finish (module doc).  The
    forked child that runs the engine lives as long as the Dask worker thread that forked it,
    so that a unit does not pay for a fork of a process that holds the whole of Dask.
    ``jobs`` is the cluster's worker threads when it was reached (the planner sizes units by it)."""

    def __init__(self, spec: ExecutorSpec, *, connect_seconds: float = CONNECT_SECONDS,
                 workerless_seconds: float = WORKERLESS_SECONDS):
        distributed = _distributed()
        self.spec = spec
        self.workerless_seconds = workerless_seconds
        self.cluster = self.client = None
        self._quiet = _Quiet("distributed")  # its log lines would bury the bench's one-line errors
        try:
            if spec.kind == "dask-local":
                _quiet_resource_tracker()
                _start_forkserver_ignoring_sigint()
                with _dask_config().set({"distributed.worker.multiprocessing-method": "forkserver"}), \
                        _unclosed_if_interrupted(distributed):
                    self.cluster = distributed.LocalCluster(
                        n_workers=spec.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=logging.CRITICAL,
                        # no dashboard, but the scheduler serves its HTTP routes (health,
                        # metrics) all the same, on port 8787 unless told: on an ephemeral port
                        # of loopback, so that no other program's 8787 is looked at
                        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})
                self.address = self.cluster.scheduler_address
                self.client = distributed.Client(self.cluster, timeout=connect_seconds)
            else:
                self.address = spec.address
                try:
                    _answers(distributed, spec.address, connect_seconds)
                    self.client = distributed.Client(spec.address, timeout=connect_seconds)
                except (OSError, TimeoutError):
                    raise UsageError(f"cannot reach the Dask scheduler at {spec.address} within "
                                     f"{connect_seconds:g} s (is `dask scheduler` running there?)") from None
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
            except (OSError, TimeoutError):
                raise UsageError(f"the Dask scheduler at {self.address} has had no worker for {WORKER_WAIT_SECONDS:g} s: "
                                 f"start some with `dask worker {self.address}`") from None
            self.jobs = max(1, sum(self.client.nthreads().values()))
        except BaseException:
            # a start cut short leaves tasks of Dask's event loop failed ("Nanny failed to
            # start"), which asyncio logs with their tracebacks when they are collected, under
            # the bench's one line: its log is silenced for the little that is left of the run
            logging.getLogger("asyncio").setLevel(logging.CRITICAL + 1)
            self.close()
            raise

    def execute(self, units: Iterable[WorkUnit]) -> Iterator[RowBatch]:
        source = iter(units)
        finished: queue.SimpleQueue = queue.SimpleQueue()
        pending: dict = {}
        workerless_since: float | None = None

        def top_up() -> None:
            while len(pending) < AHEAD * self.jobs:
                unit = next(source, None)
                if unit is None:
                    return
                try:
                    future = self.client.submit(run_unit, unit, pure=False)
                except Exception:
                    raise self._gone() from None
                pending[future.key] = (future, unit)
                future.add_done_callback(finished.put)

        top_up()
        while pending:
            try:
                future = finished.get(timeout=POLL_SECONDS)
            except queue.Empty:
                workerless_since = self._check_workers(workerless_since)
                continue
            future, unit = pending.pop(future.key)
            yield from self._rows_of(future, unit)
            future.release()
            top_up()

    def _gone(self) -> UsageError:
        return UsageError(f"the Dask scheduler at {self.address} went away mid-run; the results stored "
                          f"so far stay stored: run the same bench with --resume to finish")

    def _rows_of(self, future, unit: WorkUnit) -> Sequence[RowBatch]:
        """A finished task's rows; a task that failed for its unit's sake, error rows; any other
        failure stops the bench."""
        if future.status in ("finished", "lost"):
            # "lost": its rows were on a worker that died before they were fetched; the
            # scheduler runs the unit again and result() waits for it
            try:
                return future.result()
            except Exception as exc:
                error = exc
        else:
            error = None if future.status == "cancelled" else future.exception()
        # OSError covers distributed's CommClosedError: the scheduler's connection dropped while
        # the rows were fetched, which is the scheduler going away, not the unit failing
        if future.status == "cancelled" or self.client.status != "running" or isinstance(error, OSError):
            raise self._gone() from None
        if isinstance(error, _distributed().KilledWorker):  # the unit itself kills Dask workers
            message = f"every Dask worker that ran this unit died ({error}); not retried"
            return [RowBatch.from_rows([failure_row(tid, Status.ERROR, message) for tid in unit.task_ids])]
        raise UsageError(f"a Dask worker could not run a unit of {unit.solver}: {type(error).__name__}: "
                         f"{error} (every worker needs puzzlebench installed, the same version)")

    def _check_workers(self, since: float | None) -> float | None:
        """When the cluster has had no worker for ``workerless_seconds``, stop."""
        if self.client.scheduler_info().get("workers"):
            return None
        now = time.monotonic()
        if since is None:
            return now
        if now - since > self.workerless_seconds:
            raise UsageError(f"the Dask scheduler at {self.address} has had no worker for "
                             f"{self.workerless_seconds:g} s; the results stored so far stay stored: "
                             f"run the same bench with --resume to finish")
        return since

    def close(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # a scheduler already gone: nothing left to close
                    pass
        self.client = self.cluster = None
        self._quiet.restore()


TRACKER_WARNING = "ignore:resource_tracker:UserWarning"


def _quiet_resource_tracker() -> None:
    """multiprocessing's resource tracker, a process of its own that outlives a killed bench,
    warned on its stderr of the semaphores of the Dask workers killed with it ("There appear to
    be 48 leaked semaphore objects to clean up at shutdown", then its source line): started here
    (if not yet running) with that warning ignored; it takes Python's -W options."""
    from multiprocessing import resource_tracker
    sys.warnoptions.append(TRACKER_WARNING)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(TRACKER_WARNING)


def _start_forkserver_ignoring_sigint() -> None:
    """The workers of dask-local:N are forked by multiprocessing's fork server, started here with
    SIGINT ignored: its children keep that disposition, so a terminal's Ctrl-C, which reaches
    every process of the group, is the bench's alone to act on (each worker printed its own
    KeyboardInterrupt traceback).  The bench itself keeps its handler while the cluster starts,
    so a Ctrl-C then stops it too; only the fork server's own start (a bare interpreter, about
    0.1 s) is deaf to one.  The server preloads nothing: the bench's ``__main__`` may be any
    program, a test runner's included."""
    in_main = threading.current_thread() is threading.main_thread()   # where signals are set
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None
    try:
        multiprocessing.get_context("forkserver").set_forkserver_preload([])
        forkserver.ensure_running()
    finally:
        if in_main:
            signal.signal(signal.SIGINT, before)


@contextlib.contextmanager
def _unclosed_if_interrupted(distributed):
    """A cluster whose start a Ctrl-C cut short is left to die with the bench (each worker
    watches its parent through a pipe): Dask's exit hook would close it, and its close asserts
    that every worker finished starting, printing that traceback under the bench's one line."""
    started_before = set(distributed.SpecCluster._instances)
    try:
        yield
    except BaseException:
        for cluster in set(distributed.SpecCluster._instances) - started_before:
            cluster.shutdown_on_close = False
        raise


class _Quiet:
    """A library's logger silenced (but for critical lines), and its warnings ignored, until
    :meth:`restore`."""

    def __init__(self, name: str):
        self.logger = logging.getLogger(name)
        self.level = self.logger.level
        self.logger.setLevel(logging.CRITICAL)
        warnings.filterwarnings("ignore", module=rf"{re.escape(name)}(\.|$)")
        self.filter = warnings.filters[0]   # where filterwarnings put it

    def restore(self) -> None:
        self.logger.setLevel(self.level)
        with contextlib.suppress(ValueError):   # filters reset meanwhile (by a test's catch_warnings)
            warnings.filters.remove(self.filter)


def open_executor(spec: ExecutorSpec) -> DaskExecutor | None:
    """The executor a spec names, or ``None`` for the local pool (which the bench makes itself,
    once it knows the catalog its workers inherit)."""
    return DaskExecutor(spec) if spec.is_dask else None
