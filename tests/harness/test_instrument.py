"""The harness as a measuring instrument: CPU time beside wall time, the memory that belongs
to a run (peak above the worker's idle baseline), and memory limits held by the kernel
(``memout``), in the bench, the API and the commands."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.database import open_existing
from puzzlebench.generators import generate
from puzzlebench.harness.inputs import from_puzzles
from puzzlebench.harness.workers import LocalExecutor
from puzzlebench.results import Status
from puzzlebench.runtime.child import MB, machine_memory, run_limited
from puzzlebench.engines.mrv import MrvEngine

from conftest import REPO
if str(REPO) not in sys.path:  # the workers import the test doubles as tests.broken_engines
    sys.path.insert(0, str(REPO))

from tests.broken_engines import ALL as BROKEN, HoardEngine  # noqa: E402
from conftest import data_lines  # noqa: E402

LIMIT_MB = 64


@pytest.fixture(scope="module")
def small_sudokus():
    """Four generated 4x4 Sudoku (unique, minimal), the same every run."""
    return list(generate("sudoku", 4, seed=7, box=(2, 2)))


def bench(items, solvers, tmp_path, **kw):
    grace = kw.pop("grace", 1.0)
    cfg = BenchConfig(solvers=solvers, db=str(tmp_path / "r.sqlite"), engines=BROKEN, quiet=True,
                      time_limit=kw.pop("time_limit", 10.0), jobs=kw.pop("jobs", 2), **kw)
    return run_bench(items, cfg, executor=LocalExecutor(cfg.jobs, grace=grace))


def by_solver(outcome) -> dict[str, list]:
    out: dict[str, list] = {}
    for r in outcome.results:
        out.setdefault(r["solver"], []).append(r)
    return out


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- CPU time ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_every_stored_result_has_its_cpu_time(small_sudokus, tmp_path):
    """Per puzzle for an engine run one puzzle at a time; a batch call's CPU time shared evenly
    by its puzzles, with the batch's size; an engine that sleeps shows wall time its CPU time
    has not."""
    nine = [puzzlebench.parse(examples_line) for examples_line in NINE_BY_NINE]
    out = bench(from_puzzles("four", small_sudokus) + from_puzzles("nine", nine), ["mrv", "slow", "bitboard"],
                tmp_path, jobs=1)
    rows = by_solver(out)
    for r in rows["mrv"]:
        assert r["status"] == "unique" and r["batch_size"] == 1
        assert 0 < r["t_cpu"] <= r["t_total"] + 0.005
    for r in rows["slow"]:   # 50 ms asleep a puzzle: wall time, not CPU time
        assert r["t_total"] >= 0.05 and r["t_cpu"] < r["t_total"]   # it sleeps: its CPU is less than its wall time
    batches: dict[tuple, int] = {}   # (batch size, CPU share) -> rows
    for r in rows["bitboard"]:
        assert r["status"] == "unique" and r["t_cpu"] > 0
        batches[r["batch_size"], r["t_cpu"]] = batches.get((r["batch_size"], r["t_cpu"]), 0) + 1
    assert all(n % size == 0 for (size, _), n in batches.items())   # each batch's share, its size times
    assert max(size for size, _ in batches) > 1


NINE_BY_NINE = [
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
]


@pytest.mark.slow
def test_a_killed_worker_still_accounts_for_its_puzzle(small_sudokus, tmp_path):
    """A worker killed at the time limit: the puzzle's CPU time and peak from ``wait4`` (the
    hang engine sleeps: little CPU time for a second of wall time), with the baseline."""
    out = bench(from_puzzles("four", small_sudokus[:1]), ["hang"], tmp_path, time_limit=0.3, grace=0.3)
    (row,) = out.results
    assert row["status"] == "timeout" and row["t_total"] >= 0.6
    assert 0 <= row["t_cpu"] < 0.3 and row["baseline_memory"] > 0 and row["peak_memory"] is not None


def test_the_api_reports_cpu_time():
    result = puzzlebench.solve(NINE_BY_NINE[0], solver="mrv")
    assert result.times.cpu > 0
    many = puzzlebench.solve_many(NINE_BY_NINE, solver="bitboard")   # one native batch call
    shares = {r.times.cpu for r in many}
    assert len(shares) == 1 and shares.pop() > 0
    assert many.cpu_batch_size == len(NINE_BY_NINE)


def test_jsonl_times_carry_cpu(capsys):
    code, out, _ = run(capsys, "solve", "--example", "arto-inkala", "--solver", "mrv", "--format", "jsonl")
    assert code == 0
    assert json.loads(out)["times"]["cpu"] > 0


# -- memory that belongs to the run -------------------------------------------------------------

@pytest.mark.slow
def test_a_large_puzzle_uses_more_memory_than_a_small_one(tmp_path):
    """Peak above the worker's idle baseline: an empty 25x25 Sudoku's exact cover (dlx-py,
    some 15,000 options) against an empty 4x4's, one worker, the small one first; the baseline
    (the same worker, the same engine) measured as each unit begins.  A bench of its own, as a user runs it:
    a worker forked from a long-lived process (this test suite: 200 MB) reuses the free memory
    it inherited without its resident set growing, which the figure cannot see."""
    (tmp_path / "small.txt").write_text("." * 16 + "\n")
    (tmp_path / "large.txt").write_text("." * 625 + "\n")
    db = tmp_path / "r.sqlite"
    run = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "bench", str(tmp_path / "small.txt"),
                          str(tmp_path / "large.txt"), "--solvers", "dlx-py", "--limit", "1", "--jobs", "1",
                          "--db", str(db), "--quiet"], cwd=REPO, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    reader = open_existing(str(db))
    rows = {r["set_name"]: dict(r) for r in reader.results()}
    reader.close()
    assert rows["small.txt"]["status"] == rows["large.txt"]["status"] == "sat"
    assert rows["small.txt"]["baseline_memory"] > 10 * MB   # an interpreter with its libraries
    assert abs(rows["small.txt"]["baseline_memory"] - rows["large.txt"]["baseline_memory"]) < MB
    assert rows["large.txt"]["peak_memory"] > 2 * MB, rows
    assert rows["large.txt"]["peak_memory"] > 4 * rows["small.txt"]["peak_memory"], rows


# -- memory limit --------------------------------------------------------------------------------

@pytest.mark.slow
def test_an_engine_that_allocates_without_end_is_memout_and_the_bench_goes_on(small_sudokus, tmp_path):
    out = bench(from_puzzles("four", small_sudokus), ["mrv", "hoard", "oomkilled"], tmp_path,
                memory_limit=LIMIT_MB * MB)
    rows = by_solver(out)
    assert [r["status"] for r in rows["mrv"]] == ["unique"] * 4
    assert all(r["memory_limit"] == LIMIT_MB * MB for r in out.results)
    for r in rows["hoard"]:    # an allocation refused under RLIMIT_DATA: MemoryError
        assert r["status"] == "memout"
        # about the limit: more by the free memory the worker's allocator already held (the limit
        # counts memory reserved past the baseline; see docs/ARCHITECTURE.md)
        assert r["peak_memory"] > LIMIT_MB * MB / 2
        assert r["error"].startswith(f"memory limit of {LIMIT_MB} MB reached: an allocation was refused; peak ")
        assert r["t_cpu"] is not None and r["baseline_memory"] > 0
    for r in rows["oomkilled"]:   # killed by SIGKILL, its memory past the limit
        assert r["status"] == "memout" and r["peak_memory"] >= LIMIT_MB * MB, (r["status"], r["error"],
                                                                               r["peak_memory"])
        assert "the worker was killed by signal SIGKILL with its memory past the limit" in r["error"]
    assert out.memouts == 8 and out.errors == 0 and out.exit_code == 0
    assert not out.disagreements   # a memout is no answer to disagree with


def _touch_and_die(megabytes: int) -> None:
    import mmap
    import os
    import signal
    block = mmap.mmap(-1, megabytes * MB)
    for at in range(0, megabytes * MB, mmap.PAGESIZE):
        block[at] = 1
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_dead_worker_keeps_its_resource_usage_when_another_worker_starts_first():
    """Starting a multiprocessing process polls the ones started before and reaps a dead one,
    with its usage (bench with two workers stored an error for a worker killed for memory
    when the other slot restarted first); a process started by start_unreaped is left to reap."""
    import multiprocessing
    from puzzlebench.runtime.child import exited, reap, start_unreaped
    ctx = multiprocessing.get_context("fork")
    dying = ctx.Process(target=_touch_and_die, args=(64,), daemon=True)
    start_unreaped(dying)
    deadline = time.monotonic() + 30
    while not exited(dying) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert exited(dying)
    other = ctx.Process(target=time.sleep, args=(0,), daemon=True)
    start_unreaped(other)   # CPython's start() polls (and reaps) the processes it knows of
    code, usage = reap(dying)
    assert code == -signal.SIGKILL
    assert usage is not None and usage.ru_maxrss * 1024 >= 64 * MB
    reap(other)


@pytest.mark.slow
def test_native_code_that_runs_out_in_its_own_way_is_memout_in_bench_and_solve(small_sudokus, tmp_path):
    """Bindings that turn a refused allocation into a SystemError (Z3's, under bench
    --memory-limit 20 on an order-45 Latin square) were stored as errors by the bench, though
    solve's child called them memouts; Z3 ending its process with exit code 101 was an error
    in both.  One rule now, in both places."""
    from puzzlebench.runtime.child import run_limited
    from tests.broken_engines import MemExitEngine, NullReturnEngine
    out = bench(from_puzzles("four", small_sudokus[:2]), ["nullreturn", "memexit"], tmp_path,
                memory_limit=LIMIT_MB * MB)
    rows = by_solver(out)
    assert [r["status"] for r in out.results] == ["memout"] * 4 and out.errors == 0
    for r in rows["nullreturn"]:
        assert r["error"].startswith(f"memory limit of {LIMIT_MB} MB reached: the engine failed under it, "
                                     "SystemError (error return without exception set); peak ")
    for r in rows["memexit"]:
        assert r["error"].startswith(f"memory limit of {LIMIT_MB} MB reached: the process was exit code 101 "
                                     "under the cap (native code whose allocation failed); peak ")
    for engine in (NullReturnEngine(), MemExitEngine()):   # solve's child
        (result,) = run_limited(engine, small_sudokus[:1], limit=2, time_limit=None, keep=1,
                                memory_limit=LIMIT_MB * MB)
        assert result.status.value == "memout", result.error
        assert ("SystemError (error return without exception set)" if engine.family == "nullreturn"
                else "exit code 101 under the cap") in result.error


@pytest.mark.slow
@pytest.mark.parametrize("mb", [25, 50])
def test_z3_running_out_is_memout_in_bench_and_solve_alike(tmp_path, capsys, mb):
    """Real Z3 on an order-45 quasigroup with holes, which needs some 55 MB: under 25 MB it
    ends its process (exit code 101) or raises "out of memory", under 50 MB it gives up
    ("sat.giveup out of memory"); each a memout saying so, in a bench's worker and in solve's
    child.  The time limit (120 s) is far: a run near both limits ends by whichever
    comes first, which no test can pin (docs/ARCHITECTURE.md, memory limit)."""
    pytest.importorskip("z3")
    square = next(generate("latin", 1, 3, size=45, holes=0.42))
    f = tmp_path / "q.pls"
    f.write_text(square.write() + "\n")
    db = tmp_path / "r.sqlite"
    assert main(["bench", str(f), "--solvers", "smt", "--memory-limit", str(mb), "--time-limit", "120",
                 "--db", str(db), "--quiet", "--jobs", "1"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as conn:
        [(status, benched)] = conn.execute("SELECT status, error FROM results").fetchall()
    solved = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "solve", str(f), "--solver", "smt",
                             "--memory-limit", str(mb), "--time-limit", "120", "--format", "jsonl"],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    [record] = [json.loads(line) for line in solved.stdout.splitlines()]
    assert (status, record["status"]) == ("memout", "memout"), (benched, record["error"])
    # which allocation fails first depends on the process's heap (a worker forked from the bench,
    # a child from solve): Z3 then raises, or ends its process; either is said as running out
    # (its parser's "out of memory" was "the engine failed under it, ParseError (... does not parse")
    how = [text.split(" reached: ")[1].split("; peak")[0] for text in (benched, record["error"])]
    # or it dies of its own refused allocation: exit code 101, or SIGABRT (std::bad_alloc that
    # nothing catches), seen once in CI's run at 25 MB
    # or Python's own allocation is refused around it (a bare MemoryError: a new arena of its
    # allocator, the CPU clock's rusage record)
    ways = ("Z3: out of memory reading the SMT-LIB2 formula", "Z3: b'out of memory'", "an allocation was refused",
            "Z3 gave up: (sat.giveup out of memory)",
            "the process was exit code 101 under the cap (native code whose allocation failed)",
            "the process was killed by SIGABRT under the cap (native code whose allocation failed)")
    # or, where its estimate is past twice what the cap leaves, refused before it is made
    refused = r"smt's encoding of this latin is estimated at [\d,]+ MB, more than twice the [\d,]+ MB the memory limit leaves; not started"
    assert all(h in ways or re.fullmatch(refused, h) for h in how) and solved.returncode == 0, how


def test_a_batch_that_runs_out_finds_its_puzzle(small_sudokus, tmp_path):
    """A batch call that hits the limit is split: only the puzzle that runs out alone is
    ``memout``; the rest of its batch are answered."""
    hoarding = [p.givens[0] == 1 for p in small_sudokus]
    assert 0 < sum(hoarding) < len(hoarding)
    out = bench(from_puzzles("four", small_sudokus), ["batchhoard"], tmp_path, memory_limit=LIMIT_MB * MB,
                jobs=1)
    statuses = [r["status"] for r in sorted(out.results, key=lambda r: r["line"])]
    assert statuses == ["memout" if h else "unique" for h in hoarding]


@pytest.mark.slow
def test_resume_runs_memouts_again_under_a_larger_limit(small_sudokus, tmp_path):
    items = from_puzzles("four", small_sudokus[:1])
    first = bench(items, ["mrv", "hoard"], tmp_path, memory_limit=LIMIT_MB * MB)
    assert first.memouts == 1
    again = bench(items, ["mrv", "hoard"], tmp_path, memory_limit=2 * LIMIT_MB * MB, resume=True)
    assert again.ran == 1 and again.skipped == 1   # the memout, not the answer
    (hoard,) = [r for r in again.results if r["solver"] == "hoard"]
    assert hoard["memory_limit"] == 2 * LIMIT_MB * MB and hoard["status"] == "memout"


@pytest.mark.slow
def test_the_child_of_the_api_holds_a_memory_limit(small_sudokus):
    """``run_limited``, as the API and ``solve``/``count`` use it: each puzzle ``memout`` in a
    child that is replaced, and a normal engine under the same limit answers, with its peak."""
    hoarded = run_limited(HoardEngine(), small_sudokus[:2], limit=2, time_limit=None, keep=2,
                          memory_limit=LIMIT_MB * MB)
    assert [r.status for r in hoarded] == [Status.MEMOUT] * 2
    assert all(r.peak_memory > LIMIT_MB * MB / 2 for r in hoarded)
    assert hoarded[0].puzzle is small_sudokus[0]
    solved = run_limited(MrvEngine(), small_sudokus, limit=2, time_limit=None, keep=2, memory_limit=LIMIT_MB * MB)
    assert [r.status for r in solved] == [Status.UNIQUE] * 4
    assert all(r.peak_memory is not None and r.times.cpu > 0 for r in solved)
    assert puzzlebench.solve(NINE_BY_NINE[0], solver="bitboard", memory_limit=LIMIT_MB).status is Status.UNIQUE


def test_solve_and_count_take_a_memory_limit(capsys):
    code, out, _ = run(capsys, "count", "--example", "8-queens", "--memory-limit", str(LIMIT_MB), "--format", "jsonl")
    record = json.loads(out)
    assert code == 0 and record["count"] == 92 and record["peak_memory"] is not None


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["bench", "solve", "count"])
@pytest.mark.parametrize("value, message", [
    ("0", "the memory limit must be positive (MB); got 0"),
    ("-5", "--memory-limit -5: out of range: from 0 to 2^63-1 bytes"),
    ("nan", "--memory-limit nan: not a finite memory size"),
    ("2XB", "--memory-limit 2XB: unknown unit 'XB': a number (MiB) or one with a unit: B, KB, MB, GB, TB, KiB, MiB, "
            "GiB, TiB (e.g. 512MiB, 2GiB, 1.5GB)"),
])
def test_a_memory_limit_that_is_not_positive_is_refused(capsys, tmp_path, command, value, message):
    argv = [command, "--memory-limit", value, "--example", "arto-inkala"]
    if command == "bench":
        argv = ["bench", "--memory-limit", value, "--db", str(tmp_path / "r.sqlite")]
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", f"puzzlebench: error: {message}\n")
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.parametrize("command", ["bench", "solve", "count"])
def test_a_memory_limit_beyond_the_machine_is_refused(capsys, tmp_path, command):
    total = machine_memory() // MB
    argv = [command, "--memory-limit", str(total + 1)]
    argv += ["--db", str(tmp_path / "r.sqlite")] if command == "bench" else ["--example", "arto-inkala"]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == (f"puzzlebench: error: the memory limit of {total + 1} MB is more than this machine's "
                   f"memory ({total} MB)\n")


# -- the database --------------------------------------------------------------------------------

def test_an_older_database_gains_the_new_columns(small_sudokus, tmp_path):
    """A database made before CPU time and memory limits: ``report`` reads it (the new columns
    as NULL) and a bench adds the columns and stores into them."""
    path = tmp_path / "r.sqlite"
    bench(from_puzzles("four", small_sudokus[:1]), ["mrv"], tmp_path)
    conn = sqlite3.connect(path)
    old_view = """CREATE VIEW results AS
        SELECT r.id, r.run_id, s.name || ':' || r.line AS puzzle_id, r.puzzle_hash, s.name AS set_name, r.line,
               h.kind, h.shape, v.spec AS solver, r.limit_, r.time_limit, r.status, r.count,
               r.t_parse, r.t_encode, r.t_solve, r.t_decode, r.t_total, r.peak_memory,
               r.nodes, r.guesses, r.backtracks, r.conflicts, r.propagations, r.raw_stats, r.size, r.error,
               r.verified, r.wrong
        FROM result_log r JOIN puzzle_sets s ON s.id = r.set_id JOIN solvers v ON v.id = r.solver_id
        LEFT JOIN shapes h ON h.id = r.shape_id WHERE r.replaced_by IS NULL"""
    conn.execute("DROP VIEW results")
    for column in ("t_cpu", "batch_size", "baseline_memory", "memory_limit"):
        conn.execute(f"ALTER TABLE result_log DROP COLUMN {column}")
    conn.execute(old_view)
    conn.commit()
    conn.close()
    reader = open_existing(str(path))
    (row,) = reader.results()
    reader.close()
    assert row["status"] == "unique" and row["t_cpu"] is None and row["baseline_memory"] is None
    again = bench(from_puzzles("four", small_sudokus[:2]), ["mrv"], tmp_path)
    assert [r["status"] for r in again.results] == ["unique", "unique"]
    assert all(r["t_cpu"] > 0 and r["baseline_memory"] > 0 for r in again.results)
    assert again.results[0]["batch_size"] == 1   # another content: a set of its own, its rows new
    code = main(["report", "--db", str(path)])
    assert code == 0


# -- repetitions (bench --repeat K) -------------------------------------------------------------

def logged(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return sorted(conn.execute("SELECT puzzle_id, solver, repetition, status FROM results").fetchall())


@pytest.mark.slow
def test_repeat_stores_every_run_and_resume_runs_only_the_missing_repetitions(small_sudokus, tmp_path):
    items = from_puzzles("four", small_sudokus)
    out = bench(items, ["mrv", "liar"], tmp_path, repeat=3)
    rows = logged(tmp_path / "r.sqlite")
    assert rows == sorted((f"four:{n}", solver, k, "unique" if solver == "mrv" else "unsat")
                          for n in range(1, 5) for solver in ("mrv", "liar") for k in (1, 2, 3))
    # the liar's unsat against mrv's unique: one disagreement a puzzle, however many runs show it
    assert out.ran == 24 and len(out.disagreements) == 4
    again = bench(items, ["mrv", "liar"], tmp_path, repeat=4, resume=True)
    assert (again.ran, again.skipped) == (8, 24)
    assert {k for _, _, k, _ in logged(tmp_path / "r.sqlite")} == {1, 2, 3, 4}
    once = bench(items, ["mrv"], tmp_path)  # run again without repeats: mrv's earlier runs are replaced
    assert [(p, k) for p, s, k, _ in logged(tmp_path / "r.sqlite") if s == "mrv"] == [
        (f"four:{n}", 1) for n in range(1, 5)]
    assert once.ran == 4


def test_the_median_run_is_a_whole_run_unsolved_runs_last():
    from puzzlebench.harness.report import median_runs

    def run_of(k, status, seconds):
        return {"set_name": "s", "puzzle_id": "s:1", "puzzle_hash": "h", "solver": "a", "limit_": 2,
                "repetition": k, "status": status, "wrong": 0, "t_total": seconds, "t_cpu": seconds / 2}

    three = [run_of(1, "unique", 0.3), run_of(2, "unique", 0.1), run_of(3, "unique", 0.2)]
    assert [(r["repetition"], r["runs"]) for r in median_runs(three)] == [(3, 3)]
    mostly_late = [run_of(1, "timeout", 1.0), run_of(2, "unique", 0.1), run_of(3, "error", 0.0)]
    assert median_runs(mostly_late)[0]["status"] == "error"   # two of three unsolved: unsolved (by time, 0 s)
    two = [run_of(1, "unique", 0.5), run_of(2, "unique", 0.4)]
    assert median_runs(two)[0]["repetition"] == 2                 # rank ceil(2/2): the faster
    assert median_runs([three[0]]) == [three[0]]                  # no repetitions: the rows as they are


def test_report_summarises_the_median_run_of_each_pair(small_sudokus, tmp_path, capsys):
    bench(from_puzzles("four", small_sudokus), ["mrv"], tmp_path, repeat=3)
    code, out, err = run(capsys, "report", "--db", str(tmp_path / "r.sqlite"))
    assert code == 0
    assert out.startswith("Time limit 10 s per puzzle. Each pair ran up to 3 times: the median run is shown.")
    assert "| four | mrv | 2 | 4 | 4 | 0 | 0 |" in out


def test_repeat_below_one_is_refused(capsys, tmp_path):
    code, out, err = run(capsys, "bench", "--solvers", "mrv", "--repeat", "0", "--db", str(tmp_path / "r.sqlite"),
                         "--quiet")
    assert (code, out, err) == (2, "", "puzzlebench: error: --repeat 0: out of range: a whole number from 1 to 1000\n")
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.slow
def test_an_engine_run_after_a_heavier_one_is_not_charged_for_its_libraries(tmp_path):
    """Two engines in one worker, the light one (bitboard) first: the heavy one (smt) then
    imports Z3 into the worker.  bitboard's later runs must not count Z3 as theirs (a baseline
    taken once, when bitboard was built, charged every later bitboard run ~90 MB of it)."""
    puzzles = "".join(p.write() + "\n" for p in generate("sudoku", 30, seed=3, box=(2, 2)))
    (tmp_path / "four.txt").write_text(puzzles)
    db = tmp_path / "r.sqlite"
    run = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "bench", str(tmp_path / "four.txt"),
                          "--solvers", "bitboard,smt", "--jobs", "1", "--repeat", "3", "--db", str(db), "--quiet"],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    reader = open_existing(str(db))
    rows = [dict(r) for r in reader.results()]
    reader.close()
    bitboard = [r for r in rows if r["solver"] == "bitboard"]
    smt = [r for r in rows if r["solver"] == "smt:fold"]
    assert len(bitboard) == len(smt) == 90
    # the worker held Z3 before bitboard's later repetitions ran: their baseline grew with it
    assert max(r["baseline_memory"] for r in bitboard) > min(r["baseline_memory"] for r in bitboard) + 5 * MB
    assert max(r["peak_memory"] for r in bitboard) < 5 * MB, sorted(r["peak_memory"] for r in bitboard)[-3:]


HARD_NINE = ["8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
             "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
             "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."]


def solve_capped(tmp_path, solver: str, mb: float, lines=HARD_NINE):
    """``solve --format jsonl`` of ``lines`` under ``--memory-limit mb`` in a process of its
    own: (exit code, the records, standard error).  Every line of standard output must be a
    record (it carries them): a library's words there spoil it."""
    f = tmp_path / "p.txt"
    f.write_text("\n".join(lines) + "\n")
    proc = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "solve", str(f), "--solver", solver,
                           "--memory-limit", str(mb), "--format", "jsonl"], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(records) == len(lines), proc.stdout
    return proc.returncode, records, proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("solver, library, mb", [
    ("smt", "z3", 8),         # Z3 loaded under 10-19 MB: SIGSEGV, every puzzle an error
    ("cpsat", "ortools", 20),  # OR-Tools (about 150 MB of data with numpy): SIGABRT at 20 MB, memout below 50
])
def test_an_engines_libraries_are_loaded_before_the_cap(tmp_path, solver, library, mb):
    """``Engine.load`` runs in the child before its cap and its baseline: the limit holds the
    search, and a library larger than the limit no longer makes every puzzle an error (killed
    by SIGSEGV, or "terminate called ... bad_alloc" and SIGABRT) or a memout."""
    pytest.importorskip(library)
    code, records, err = solve_capped(tmp_path, solver, mb)
    assert [r["status"] for r in records] == ["unique"] * 3, [r["error"] for r in records]
    for line, r in zip(HARD_NINE, records):
        assert not puzzlebench.parse(line).check(puzzlebench.parse(line).parse_solution(r["solution"]))
        assert 0 < r["peak_memory"]
    assert code == 0 and "terminate called" not in err and "Could not find" not in err, err


def test_the_benchs_workers_load_the_libraries_before_the_cap(tmp_path):
    """The bench's workers call ``Engine.load`` before the unit's baseline and cap, as the
    child does: under 16 MB, Z3's worker was killed by SIGSEGV and OR-Tools' runs were memouts
    (its import under the cap)."""
    pytest.importorskip("z3")
    pytest.importorskip("ortools")
    puzzles = [puzzlebench.parse(line) for line in HARD_NINE]
    out = bench(from_puzzles("nine", puzzles), ["smt", "cpsat"], tmp_path, memory_limit=16 * MB, jobs=1)
    assert sorted((r["solver"], r["status"]) for r in out.results) == \
        [("cpsat:int", "unique")] * 3 + [("smt:fold", "unique")] * 3, [r["error"] for r in out.results]
    assert out.errors == out.memouts == 0 and not out.disagreements


@pytest.mark.slow
@pytest.mark.parametrize("solver, library", [("smt", "z3"), ("cpsat", "ortools"), ("cpmpy:z3", "cpmpy"),
                                             ("cpmpy:ortools", "cpmpy")])
def test_a_search_that_outgrows_a_tiny_limit_is_a_memout_never_an_error(tmp_path, solver, library):
    """At 1 MB the searches themselves run out: OR-Tools throws ``std::bad_alloc`` (a
    MemoryError through its bindings, or SIGSEGV/SIGABRT where nothing catches it), Z3 gives
    up with "out of memory" (it was the error "Z3 gave up"; through CPMpy, a search stopped
    as by a Ctrl-C, a traceback; through CPMpy, OR-Tools' MemoryError was an error) or glibc
    ends the process (exit code 127).  Each puzzle is
    an answer or a ``memout``, standard output records alone."""
    pytest.importorskip(library)
    from puzzlebench.engines.registry import engine_class
    if solver.startswith("cpmpy:") and solver[6:] not in engine_class("cpmpy").variants:
        pytest.skip(f"CPMpy without {solver[6:]}")
    sixteen = data_lines("sudoku16_vu_kr_1000.txt", 6)
    code, records, err = solve_capped(tmp_path, solver, 1, sixteen)
    statuses = {r["status"] for r in records}
    assert statuses <= {"unique", "memout"} and "memout" in statuses, [r["error"] for r in records]
    for r in records:
        if r["status"] == "memout":
            assert r["error"].startswith("memory limit of 1 MB reached: "), r["error"]
    assert code == 0 and "Traceback" not in err, err


def test_nothing_a_capped_engine_prints_reaches_standard_output(capfd, small_sudokus):
    """The child answers through its pipe: what it writes on standard output, in Python or
    from C, goes to standard error, and the parent's standard output stays the records'."""
    from tests.broken_engines import ChattyEngine
    for memory in (LIMIT_MB * MB, None):
        solved = run_limited(ChattyEngine(), small_sudokus[:2], limit=2, time_limit=None if memory else 30.0,
                             keep=2, memory_limit=memory)
        assert [str(r.status) for r in solved] == ["unique", "unique"]
        out, err = capfd.readouterr()
        assert out == ""
        assert err.count("chatty: a word from the library's Python") == 2
        assert err.count("chatty: a word from the library's C") == 2


def test_a_crash_under_the_cap_is_a_memout_naming_the_signal(small_sudokus):
    """Native code that cannot allocate under the cap crashes (OR-Tools: SIGSEGV or SIGABRT);
    with the libraries loaded before the cap, such an end is the run's: ``memout``, the signal
    named, and the next puzzle goes on in a new child."""
    from puzzlebench.runtime.child import crashed_for_memory
    from tests.broken_engines import SegfaultEngine
    solved = run_limited(SegfaultEngine(), small_sudokus[:2], limit=2, time_limit=None, keep=2,
                         memory_limit=LIMIT_MB * MB)
    assert [str(r.status) for r in solved] == ["memout", "memout"]
    assert solved[0].error.startswith(f"memory limit of {LIMIT_MB} MB reached: the process was killed by "
                                      "SIGSEGV under the cap (native code whose allocation failed)")
    assert crashed_for_memory(-11, None) is None and crashed_for_memory(1, LIMIT_MB * MB) is None
