"""The bench beyond one machine: the Dask executor against a real ``dask scheduler`` and real
``dask worker`` processes on 127.0.0.1 (loopback only), a worker SIGKILLed mid-run, a scheduler
that dies mid-run and ``--resume``, ``dask-local:N``, and the bad input of ``--executor``."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from importlib.util import find_spec
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.dask_executor import DaskExecutor, parse_executor_spec
from puzzlebench.harness.inputs import read_file, sample
from puzzlebench.harness.workers import LocalExecutor

from conftest import data_file

from conftest import REPO
CORES = len(os.sched_getaffinity(0))
if str(REPO) not in sys.path:  # the Dask workers import the test doubles as tests.broken_engines
    sys.path.insert(0, str(REPO))

from tests.broken_engines import ALL as BROKEN  # noqa: E402

needs_distributed = pytest.mark.skipif(
    find_spec("distributed") is None,
    reason="distributed is not installed (pip install puzzlebench[cluster]): no Dask cluster to test")

DASK = Path(sys.executable).parent / "dask"
UP_SECONDS = 60  # a loaded 2-core machine can take this long to import Dask in three processes


# -- a real cluster on loopback -------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, each in a session of
    its own so that killing one kills its nanny, its worker and their children at once (a
    machine gone)."""

    def __init__(self, workers: int, log_dir: Path):
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.log_dir = log_dir
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
        self.env = env
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                                                   "--no-dashboard", "--no-show"])
        self.workers = {f"w{k}": self._start(f"w{k}", ["worker", self.address, "--name", f"w{k}", "--nthreads", "1",
                                                        "--host", "127.0.0.1", "--no-dashboard"])
                        for k in range(1, workers + 1)}
        self._wait(workers)

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "wb")
        return subprocess.Popen([str(DASK), *args], stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                start_new_session=True)

    def _wait(self, workers: int) -> None:
        from distributed import Client
        deadline = time.monotonic() + UP_SECONDS
        while True:
            try:
                with Client(self.address, timeout=5) as client:
                    client.wait_for_workers(workers, timeout=max(1, deadline - time.monotonic()))
                    return
            except (OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise

    def kill(self, process: subprocess.Popen) -> None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(10)

    def close(self) -> None:
        for process in [*self.workers.values(), self.scheduler]:
            self.kill(process)


@pytest.fixture
def cluster_of(tmp_path):
    started = []

    def make(workers: int) -> Cluster:
        cluster = Cluster(workers, tmp_path)
        started.append(cluster)
        return cluster

    yield make
    for cluster in started:
        cluster.close()


# -- puzzles and what a run stored -------------------------------------------------------------------

def puzzles():
    """A few hundred small puzzles: some 9x9 (milliseconds each through mrv: the first units are
    still running when a worker is killed), then 4x4 Sudoku."""
    return (sample(read_file(str(data_file("sudoku9_magictour_top1465.txt"))), 100, 1)
            + sample(read_file(str(data_file("sudoku4_vu_kr_1000.txt"))), 200, 1))


def config(db: Path, **kw) -> BenchConfig:
    return BenchConfig(solvers=kw.pop("solvers", ["mrv"]), db=str(db), quiet=True, time_limit=kw.pop("time_limit", 10.0),
                       engines=BROKEN, **kw)


def stored(db: Path) -> list[tuple]:
    """Every row of the log (every result ever stored), as (set, line, solver, status, count)."""
    conn = sqlite3.connect(db)
    try:
        return sorted(conn.execute(
            "SELECT s.name, r.line, v.spec, r.status, r.count FROM result_log r JOIN puzzle_sets s ON s.id = r.set_id "
            "JOIN solvers v ON v.id = r.solver_id").fetchall())
    finally:
        conn.close()


def local_reference(items, tmp_path, **kw) -> list[tuple]:
    db = tmp_path / "local.sqlite"
    cfg = config(db, jobs=2, **kw)
    run_bench(items, cfg, executor=LocalExecutor(2, grace=0.3))
    return stored(db)


class KillMidRun:
    """A Dask executor whose stream, at the first batch after which a worker has a unit in
    hand, has that worker killed (its nanny, its worker and their children): a machine lost
    mid-run."""

    def __init__(self, inner: DaskExecutor, cluster: Cluster):
        self.inner, self.cluster, self.jobs = inner, cluster, inner.jobs
        self.killed_tasks: list = []

    def execute(self, units):
        for batch in self.inner.execute(units):
            yield batch
            if not self.killed_tasks:
                self._kill_a_busy_worker()

    def _kill_a_busy_worker(self) -> None:
        client = self.inner.client
        processing = client.processing()
        address = max(processing, key=lambda a: len(processing[a]))
        if processing[address]:
            name = client.scheduler_info()["workers"][address]["name"]
            self.killed_tasks = list(processing[address])
            self.cluster.kill(self.cluster.workers[name])

    def close(self) -> None:
        self.inner.close()


# -- through a running scheduler -------------------------------------------------------------------

@pytest.mark.slow
@needs_distributed
def test_a_worker_killed_mid_run_loses_nothing_and_stores_nothing_twice(cluster_of, tmp_path):
    items = puzzles()
    expected = local_reference(items, tmp_path)
    cluster = cluster_of(2)
    db = tmp_path / "dask.sqlite"
    executor = KillMidRun(DaskExecutor(parse_executor_spec(f"dask://127.0.0.1:{cluster.port}")), cluster)
    outcome = run_bench(items, config(db), executor=executor)
    assert executor.killed_tasks, "the killed worker had no unit in hand: nothing was rescheduled"
    assert outcome.errors == outcome.timeouts == 0
    rows = stored(db)
    assert len(rows) == len(items) == len({r[:3] for r in rows})  # each pair once
    assert rows == expected


@pytest.mark.slow
@needs_distributed
def test_a_scheduler_that_dies_mid_run_stops_the_bench_and_resume_finishes_locally(cluster_of, tmp_path, capsys):
    cluster = cluster_of(1)
    db = tmp_path / "r.sqlite"
    top = str(data_file("sudoku9_magictour_top1465.txt"))
    argv = ["bench", top, "--solvers", "mrv", "--sample", "300", "--db", str(db), "--quiet"]

    def kill_scheduler_once_results_are_stored():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with sqlite3.connect(db) as conn:
                    if conn.execute("SELECT count(*) FROM result_log").fetchone()[0]:
                        break
            except sqlite3.Error:
                pass
            time.sleep(0.02)
        cluster.kill(cluster.scheduler)

    killer = threading.Thread(target=kill_scheduler_once_results_are_stored)
    killer.start()
    code = main([*argv, "--executor", f"dask://127.0.0.1:{cluster.port}"])
    killer.join()
    err = capsys.readouterr().err
    assert code == 2
    assert err == (f"puzzlebench: error: the Dask scheduler at tcp://127.0.0.1:{cluster.port} went away mid-run; "
                   "the results stored so far stay stored: run the same bench with --resume to finish\n")
    kept = stored(db)
    assert 0 < len(kept) < 300
    assert main([*argv, "--resume", "--jobs", "2"]) == 0  # the rest on the local pool
    assert "300 already in the database" not in capsys.readouterr().err
    rows = stored(db)
    assert len(rows) == 300 == len({r[:3] for r in rows})
    assert set(kept) <= set(rows)


# -- a local Dask cluster ------------------------------------------------------------------------------

@pytest.mark.slow
@needs_distributed
def test_dask_local_matches_the_local_pool_and_keeps_hard_limits(tmp_path, capsys):
    """An engine that kills its process and one that hangs cost their child in the Dask worker,
    not the worker: their pairs are errors and timeouts, as on the local pool."""
    lines = data_file("sudoku4_vu_kr_1000.txt").read_text().splitlines()[:4]
    file = tmp_path / "four.txt"
    file.write_text("\n".join(lines) + "\n")
    solvers = ["mrv", "sigkill", "hang"]
    expected = local_reference(read_file(str(file)), tmp_path, solvers=solvers, time_limit=0.3)
    db = tmp_path / "dask-local.sqlite"
    code = main(["bench", str(file), "--solvers", ",".join(solvers), "--executor", "dask-local:2", "--db", str(db),
                 "--quiet", "--time-limit", "0.3", *[f"--engine={n}={BROKEN[n]}" for n in ("sigkill", "hang")]])
    assert code == 1  # the broken engines' errors
    assert stored(db) == expected
    assert {(r[2], r[3]) for r in expected} == {("mrv", "unique"), ("sigkill", "error"), ("hang", "timeout")}


def dask_local_bench(tmp_path, db, *extra) -> subprocess.Popen:
    """A bench of dask-local:2 started in a session of its own, SIGINT at its default as in a
    terminal."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(
        [sys.executable, "-m", "puzzlebench", "bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--solvers", "slow",
         f"--engine=slow={BROKEN['slow']}", "--executor", "dask-local:2", "--db", str(db), "--quiet", *extra],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@contextlib.contextmanager
def running_dask_local_bench(tmp_path, *extra):
    """A bench of dask-local:2 in a session of its own, once it has stored rows (its cluster is up
    and running units); killed with its session on the way out."""
    db = tmp_path / "r.sqlite"
    bench = dask_local_bench(tmp_path, db, *extra)
    try:
        stored_rows = 0
        until = time.monotonic() + UP_SECONDS
        while time.monotonic() < until and not stored_rows and bench.poll() is None:
            time.sleep(0.5)
            if db.exists():
                with sqlite3.connect(db) as conn:
                    with contextlib.suppress(sqlite3.OperationalError):
                        stored_rows = conn.execute("SELECT count(*) FROM result_log").fetchone()[0]
        assert stored_rows, "the bench stored nothing"
        yield bench
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(bench.pid, signal.SIGKILL)
        bench.wait()


@pytest.mark.slow
@needs_distributed
def test_a_ctrl_c_of_a_dask_local_bench_is_one_line(tmp_path):
    """A Ctrl-C reaches every process of the terminal's group: each Dask worker of dask-local:N
    printed its KeyboardInterrupt traceback below the bench's "interrupted"."""
    with running_dask_local_bench(tmp_path) as bench:
        os.killpg(bench.pid, signal.SIGINT)   # what a terminal's Ctrl-C does
        _, err = bench.communicate(timeout=60)
    assert (bench.returncode, err) == (130, "puzzlebench: interrupted\n")


def _cluster_starting(bench: subprocess.Popen) -> bool:
    """Whether the bench has started a process for its cluster's workers (multiprocessing's
    spawn or fork server; its resource tracker runs before the cluster)."""
    from puzzlebench.runtime.watchdog import session_members
    for pid in session_members(bench.pid):
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"multiprocessing" in command and b"resource_tracker" not in command:
                return True
    return False


@pytest.mark.slow
@needs_distributed
def test_a_ctrl_c_while_a_dask_local_cluster_starts_stops_the_bench(tmp_path):
    """A Ctrl-C during the seconds the workers start was ignored (the bench ignored SIGINT then,
    so that its workers inherited the ignoring); now it stops the bench at once, with one line,
    and leaves no process behind."""
    from puzzlebench.runtime.watchdog import session_members
    bench = dask_local_bench(tmp_path, tmp_path / "r.sqlite")
    try:
        until = time.monotonic() + UP_SECONDS
        while not _cluster_starting(bench) and bench.poll() is None and time.monotonic() < until:
            time.sleep(0.02)
        assert _cluster_starting(bench), "the bench started no cluster"
        time.sleep(0.5)   # the nannies are starting their workers
        os.killpg(bench.pid, signal.SIGINT)
        _, err = bench.communicate(timeout=30)
        until = time.monotonic() + 5
        while session_members(bench.pid) and time.monotonic() < until:
            time.sleep(0.1)
        left = session_members(bench.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(bench.pid, signal.SIGKILL)
        bench.wait()
    assert (bench.returncode, err) == (130, "puzzlebench: interrupted\n")
    assert not left, f"left running: {left}"


@pytest.mark.slow
@needs_distributed
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_dask_local_bench_leaves_no_process(tmp_path, signum):
    """The bench alone is killed (as `kill PID` does): its Dask workers, their engines' children
    and multiprocessing's helpers (all of the bench's session) are gone within 5 s, and none of
    them said anything (the resource tracker warned of the workers' semaphores)."""
    from puzzlebench.runtime.watchdog import session_members
    with running_dask_local_bench(tmp_path) as bench:
        assert len(session_members(bench.pid)) > 2   # the bench, its workers and their children
        bench.send_signal(signum)
        bench.wait(30)
        until = time.monotonic() + 5
        while session_members(bench.pid) and time.monotonic() < until:
            time.sleep(0.1)
        left = session_members(bench.pid)
        err = "" if left else bench.stderr.read()   # every writer gone: read to its end
    assert not left, f"left running: {left}"
    assert err == ""


@pytest.mark.slow
@needs_distributed
def test_a_dask_local_bench_says_nothing_when_port_8787_is_taken(tmp_path):
    """Port 8787 is Dask's default for the scheduler's HTTP server, dashboard or not: taken by
    another program, Dask warned of it on the bench's stderr."""
    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", 8787))
    except OSError:
        holder.close()
        pytest.skip("another program holds 127.0.0.1:8787: it is taken all the same")
    holder.listen(1)
    try:
        with running_dask_local_bench(tmp_path, "--sample", "60") as bench:
            _, err = bench.communicate(timeout=120)
    finally:
        holder.close()
    assert bench.returncode == 0
    assert err.startswith("puzzlebench: 60 runs in ") and err.count("\n") == 1, err


@pytest.mark.slow
@needs_distributed
def test_the_schedulers_http_server_of_dask_local_is_on_an_ephemeral_port_of_loopback():
    executor = DaskExecutor(parse_executor_spec("dask-local:1"))
    try:
        server = executor.cluster.scheduler.http_server
        assert (server.address, server.port != 8787) == ("127.0.0.1", True)
    finally:
        executor.close()


# -- bad input -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, message", [
    ("ray://127.0.0.1:8786", "--executor 'ray://127.0.0.1:8786': expected local, dask://HOST:PORT or dask-local:N"),
    ("dask://127.0.0.1", "--executor 'dask://127.0.0.1': expected dask://HOST:PORT with a port from 1 to 65535, "
                         "e.g. dask://127.0.0.1:8786"),
    ("dask://127.0.0.1:0", "--executor 'dask://127.0.0.1:0': expected dask://HOST:PORT with a port from 1 to 65535, "
                           "e.g. dask://127.0.0.1:8786"),
    ("dask://:8786", "--executor 'dask://:8786': expected dask://HOST:PORT with a port from 1 to 65535, "
                     "e.g. dask://127.0.0.1:8786"),
    ("dask-local:two", "--executor 'dask-local:two': expected dask-local:N, N a number of worker processes"),
    ("dask-local:0", "--executor 'dask-local:0': a local Dask cluster needs 1 worker or more"),
    ("dask-local:100000", f"--executor 'dask-local:100000': at most {8 * CORES} workers here (8 worker "
                          f"processes a core, {CORES} cores)"),
])
def test_a_malformed_executor_is_a_usage_error(spec, message, tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    assert main(["bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--sample", "3", "--solvers", "mrv",
                 "--db", str(db), "--executor", spec]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"
    assert not db.exists()


def test_dask_local_is_capped_as_jobs_are(tmp_path, capsys):
    from puzzlebench.harness.workers import default_jobs
    most = 8 * default_jobs()
    db = tmp_path / "r.sqlite"
    started = time.monotonic()
    assert main(["bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--sample", "3", "--solvers", "mrv",
                 "--db", str(db), "--executor", "dask-local:100000"]) == 2
    assert time.monotonic() - started < 10   # refused before a worker is started
    assert capsys.readouterr().err == (f"puzzlebench: error: --executor 'dask-local:100000': at most {most} workers "
                                       f"here (8 worker processes a core, {default_jobs()} cores)\n")
    assert not db.exists()


def test_without_distributed_the_error_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it fails, as where it is absent
    db = tmp_path / "r.sqlite"
    assert main(["bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--sample", "3", "--solvers", "mrv",
                 "--db", str(db), "--executor", "dask-local:2"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: a Dask executor needs the Dask distributed library, "
                                       "not installed here: pip install puzzlebench[cluster]\n")
    assert not db.exists()


def test_jobs_are_refused_with_a_cluster(tmp_path, capsys):
    assert main(["bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--solvers", "mrv", "--db", str(tmp_path / "r.sqlite"),
                 "--executor", "dask://127.0.0.1:8786", "--jobs", "2"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: --jobs is for the local pool; --executor "
                                       "dask://127.0.0.1:8786 runs on the cluster's workers\n")


@pytest.mark.slow
@needs_distributed
def test_an_unreachable_scheduler_fails_fast_and_stores_nothing(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    started = time.monotonic()
    assert main(["bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--sample", "3", "--solvers", "mrv",
                 "--db", str(db), "--executor", "dask://127.0.0.1:1"]) == 2
    assert time.monotonic() - started < 20  # a 5 s connect timeout, with room for a loaded machine
    assert capsys.readouterr().err == ("puzzlebench: error: cannot reach the Dask scheduler at tcp://127.0.0.1:1 "
                                       "within 5 s (is `dask scheduler` running there?)\n")
    assert not db.exists()


@pytest.mark.slow
@needs_distributed
def test_a_port_that_accepts_and_never_answers_fails_fast_too(tmp_path, capsys):
    """A listener that accepts the connection and says nothing (another service, a stuck
    scheduler): Dask's handshake waits with no limit, and the bench waited as long as the peer
    held the connection (here 60 s, then the same line)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:   # until the test is done, or 60 s
        listener.settimeout(0.2)
        until = time.monotonic() + 60
        while not done.is_set() and time.monotonic() < until:
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                pass
        for conn in held:
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    db = tmp_path / "r.sqlite"
    started = time.monotonic()
    try:
        assert main(["bench", str(data_file("sudoku4_vu_kr_1000.txt")), "--sample", "3", "--solvers", "mrv",
                     "--db", str(db), "--executor", f"dask://127.0.0.1:{port}"]) == 2
        assert time.monotonic() - started < 20  # a 5 s handshake timeout, with room for a loaded machine
    finally:
        done.set()
        thread.join(70)
        listener.close()
    assert held, "the bench never connected"
    assert capsys.readouterr().err == (f"puzzlebench: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} "
                                       "within 5 s (is `dask scheduler` running there?)\n")
    assert not db.exists()


# -- whatever the executor ------------------------------------------------------------------------------

class EveryBatchTwice:
    """The local pool, each batch sent twice (as an executor that re-ran a task would)."""

    def __init__(self):
        self.inner = LocalExecutor(2, grace=0.3)
        self.jobs = 2

    def execute(self, units):
        for batch in self.inner.execute(units):
            yield batch
            yield batch

    def close(self) -> None:
        self.inner.close()


def test_the_bench_stores_a_second_copy_of_a_row_never(tmp_path):
    items = sample(read_file(str(data_file("sudoku4_vu_kr_1000.txt"))), 50, 1)
    db = tmp_path / "r.sqlite"
    outcome = run_bench(items, config(db), executor=EveryBatchTwice())
    assert outcome.errors == 0
    rows = stored(db)
    assert len(rows) == 50 == len({r[:3] for r in rows})
