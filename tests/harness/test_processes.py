"""Every process of a run counted, limits on the clock the user chose, a memory limit that
holds and is named, and one meaning of solved (issue #29): real programs (CaDiCaL, a shell
busy loop, a sleeping shell, Z3) through the bench's workers and the commands' child."""

from __future__ import annotations

import importlib.util
import json
import resource
import sqlite3
import subprocess
import sys

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.errors import UsageError
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.inputs import from_puzzles
from puzzlebench.harness.report import MetricOptions, median_runs, standard_metrics, summarise
from puzzlebench.harness.workers import LocalExecutor
from puzzlebench.models.reader import parse
from puzzlebench.results import Result, Status, Times
from puzzlebench.runtime.limits import past_the_limit
from puzzlebench.runtime.child import (MB, MEMORY_MECHANISM, PEAK_SLACK, memout_if_said, past_the_memory_limit,
                                       run_limited)
from puzzlebench.runtime.limits import grace
from puzzlebench.runtime.clock import default_wall_limit
from puzzlebench.engines.mrv import MrvEngine

from conftest import REPO, run
if str(REPO) not in sys.path:  # the workers import the test doubles as tests.broken_engines
    sys.path.insert(0, str(REPO))

from tests.broken_engines import ALL as BROKEN  # noqa: E402
from conftest import data_lines, needs_preset, needs_program  # noqa: E402

SPIN = f"ext@cmd={sys.executable} -c 'while 1: pass'"   # a program that spends CPU and never answers
SLEEP = "ext@cmd=sh -c 'sleep 60' sh"                    # a program that waits and never answers


def hardest(n: int) -> list[str]:
    return [line.split()[0] for line in data_lines("sudoku9_forum_hardest_1905_11plus.txt", n)]


def bench_rows(tmp_path, lines: list[str], *args: str, fresh: bool = False) -> list[dict]:
    """The rows of a bench of ``lines``; ``fresh``: run as its own command, its workers forked
    from a small process (here they would inherit the test process's heap, hundreds of MB of
    it in a whole suite, and with it room under a memory cap held by RLIMIT_DATA)."""
    f = tmp_path / "set.txt"
    f.write_text("\n".join(lines) + "\n")
    db = tmp_path / "r.sqlite"
    argv = ["bench", str(f), "--db", str(db), "--quiet", *args]
    if fresh:
        done = subprocess.run([sys.executable, "-m", "puzzlebench.cli", *argv], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
    else:
        assert main(argv) == 0
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute("SELECT * FROM results ORDER BY id")]


def solve_records(capsys, tmp_path, lines: list[str], *args: str, fresh: bool = False) -> list[dict]:
    """The records ``solve`` prints for ``lines``; ``fresh``: as its own command (see
    :func:`bench_rows`)."""
    f = tmp_path / "solve.txt"
    f.write_text("\n".join(lines) + "\n")
    argv = ["solve", "--format", "jsonl", str(f), *args]
    if fresh:
        out = subprocess.run([sys.executable, "-m", "puzzlebench.cli", *argv], capture_output=True, text=True,
                             timeout=600).stdout
    else:
        capsys.readouterr()   # what came before
        main(argv)
        out, _ = capsys.readouterr()
    return [json.loads(line) for line in out.splitlines()]


# -- 1. every process of a run counted ----------------------------------------------------------

def test_a_programs_cpu_time_is_the_runs(tmp_path, capsys):
    """ext:cadical on hard 9x9: the program's own CPU time (wait4) is kept and is inside the
    run's CPU time, in the bench and in solve alike."""
    needs_preset("cadical")
    rows = bench_rows(tmp_path, hardest(4), "--solvers", "ext:cadical", "--jobs", "1")
    assert [r["status"] for r in rows] == ["unique"] * 4
    for row in rows:
        raw = json.loads(row["raw_stats"])
        assert raw["program"] == "cadical" and raw["program_cpu"] > 0
        assert row["t_cpu"] >= raw["program_cpu"]
        assert raw["peak_process"] in ("worker", "cadical")
    [record] = solve_records(capsys, tmp_path, hardest(1), "--solver", "ext:cadical")
    assert record["times"]["cpu"] >= record["stats"]["raw"]["program_cpu"] > 0


@pytest.mark.slow
def test_a_programs_peak_is_the_runs_when_it_is_the_larger(tmp_path):
    """A program that holds more memory than the worker ever did: its whole peak is the run's
    peak_memory, named in raw peak_process."""
    needs_program("cadical")
    script = tmp_path / "hold.sh"
    # 400 MB more than this process ever held (a forked worker's program starts from its peak),
    # held by Python (a byte written in every page), then CaDiCaL's answer
    held_mb = 400 + resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    hold = f"b = bytearray({held_mb} * 2**20); b[::4096] = b'x' * len(b[::4096])"
    script.write_text(f'#!/bin/sh\n{sys.executable} -c "{hold}"\nexec cadical "$1"\n')
    script.chmod(0o755)
    rows = bench_rows(tmp_path, hardest(1), "--solver", f"ext@cmd={script}", "--jobs", "1")
    [row] = rows
    raw = json.loads(row["raw_stats"])
    assert row["status"] == "unique" and raw["peak_process"] == "hold.sh"
    assert row["peak_memory"] == raw["program_peak_memory"] >= held_mb * MB


# -- 2. limits on the clock the user chose -------------------------------------------------------

@pytest.mark.slow
def test_a_cpu_limit_ends_a_spinning_program_within_its_grace(tmp_path, capsys):
    limit = 0.5
    rows = bench_rows(tmp_path, hardest(1), "--solver", SPIN, "--clock", "cpu", "--time-limit", str(limit),
                      "--jobs", "1")
    [row] = rows
    assert row["status"] == "timeout" and row["clock"] == "cpu"
    # it spent its budget (read from /proc in clock ticks, 10 ms, while it ran) and no more
    # than the grace past it
    assert 0.9 * limit <= row["t_cpu"] <= limit + grace(limit), row["t_cpu"]
    assert "CPU time limit" in row["error"]
    [record] = solve_records(capsys, tmp_path, hardest(1), "--solver", SPIN, "--clock", "cpu",
                              "--time-limit", str(limit))
    assert record["status"] == "timeout" and 0.9 * limit <= record["times"]["cpu"] <= limit + grace(limit)


@pytest.mark.slow
def test_a_wall_limit_ends_a_sleeping_program(tmp_path, capsys):
    """On the CPU clock a program that sleeps spends no CPU: the wall limit beside it ends it."""
    rows = bench_rows(tmp_path, hardest(1), "--solver", SLEEP, "--clock", "cpu", "--time-limit", "0.5",
                      "--wall-limit", "1", "--jobs", "1")
    [row] = rows
    assert row["status"] == "timeout" and 1 <= row["t_total"] <= 1 + grace(1)
    assert "wall limit (1 s)" in row["error"] and row["t_cpu"] < 0.5
    [record] = solve_records(capsys, tmp_path, hardest(1), "--solver", SLEEP, "--clock", "cpu", "--time-limit", "0.5")
    assert record["status"] == "timeout"
    assert default_wall_limit(0.5) <= record["times"]["total"] <= default_wall_limit(0.5) + grace(1.75)
    [record] = solve_records(capsys, tmp_path, hardest(1), "--solver", SLEEP, "--time-limit", "0.5")   # wall
    assert record["status"] == "timeout" and 0.5 <= record["times"]["total"] <= 0.5 + grace(0.5)


@pytest.mark.slow
def test_the_kernel_holds_a_cpu_limit_the_engine_never_looks_at(tmp_path):
    """A worker whose engine spins without looking at its clock, the parent's polling given a
    grace of 60 s: RLIMIT_CPU (its CPU so far plus the limit and its grace, rounded up) ends
    it by SIGXCPU, a timeout."""
    puzzle = parse(hardest(1)[0])
    cfg = BenchConfig(solvers=["spin"], db=str(tmp_path / "r.sqlite"), engines=BROKEN, quiet=True,
                      time_limit=0.5, clock="cpu", jobs=1)
    outcome = run_bench(from_puzzles("s", [puzzle]), cfg, executor=LocalExecutor(1, grace=60.0))
    [row] = outcome.results
    assert row["status"] == "timeout" and "SIGXCPU" in row["error"], row["error"]
    assert row["t_cpu"] <= 0.5 + grace(0.5) + 1   # whole seconds of RLIMIT_CPU


def test_the_clock_is_stored_with_the_run(tmp_path):
    bench_rows(tmp_path, hardest(1), "--solvers", "mrv", "--clock", "cpu", "--time-limit", "2")
    with sqlite3.connect(tmp_path / "r.sqlite") as conn:
        settings = json.loads(conn.execute("SELECT settings FROM runs").fetchone()[0])
        [(clock,)] = conn.execute("SELECT clock FROM results").fetchall()
    assert (settings["clock"], settings["wall_limit"], clock) == ("cpu", default_wall_limit(2), "cpu")


@pytest.mark.parametrize("args, message", [
    (["--clock", "sun"], "argument --clock: invalid choice: 'sun' (choose from 'wall', 'cpu')"),
    (["--clock", "cpu", "--wall-limit", "-1"], "--wall-limit -1: out of range: from 0 to 1000000 s"),
])
@pytest.mark.parametrize("command", ["solve", "count", "bench"])
def test_bad_clock_options_are_one_line_with_exit_2(command, args, message, capsys, tmp_path):
    extra = ["--db", str(tmp_path / "r.sqlite")] if command == "bench" else []
    try:
        code = main([command, "--example" if command != "bench" else "--quiet", *(
            ["knuth"] if command != "bench" else []), *args, *extra])
    except SystemExit as stop:   # argparse's own usage errors
        code = stop.code
    assert code == 2
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and err.startswith(f"puzzlebench: error: {message}")


# -- 3. a memory limit that holds and is named -----------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("mb", [5, 20])
def test_z3_on_16x16_under_a_cap_is_memout_with_its_peak_under_the_cap(tmp_path, mb):
    """Three public 16x16 through Z3: under 5 MB every row a memout (Z3's "Resource
    temporarily unavailable", a thread's stack refused, was an error); under 20 MB a memout,
    or a timeout on a busy machine (Z3 near its cap goes on slowly: a run near both limits
    ends by whichever it meets first); no peak past the cap by more than PEAK_SLACK, the
    mechanism stored with each row."""
    pytest.importorskip("z3")
    rows = bench_rows(tmp_path, data_lines("sudoku16_vu_kr_1000.txt", 3), "--solvers", "smt:int",
                      "--memory-limit", str(mb), "--jobs", "1", "--time-limit", "20", fresh=True)
    allowed = {"memout"} if mb == 5 else {"memout", "timeout"}
    assert {r["status"] for r in rows} <= allowed and len(rows) == 3, [r["error"] for r in rows]
    assert all(r["peak_memory"] <= mb * MB + PEAK_SLACK for r in rows), [r["peak_memory"] / MB for r in rows]
    assert {r["memory_mechanism"] for r in rows} == {MEMORY_MECHANISM}


@pytest.mark.slow
def test_z3_under_a_cap_in_solve_is_memout_too(capsys, tmp_path):
    pytest.importorskip("z3")
    records = solve_records(capsys, tmp_path, data_lines("sudoku16_vu_kr_1000.txt", 2), "--solver", "smt:int",
                            "--memory-limit", "5", fresh=True)
    assert [r["status"] for r in records] == ["memout"] * 2, [r["error"] for r in records]
    assert all(r["peak_memory"] <= 5 * MB + PEAK_SLACK for r in records)


FINISHED = ("unique", "multiple", "sat", "unsat")


def peak_and_status_agree(rows: list[dict], limit: int) -> None:
    """No finished row with its peak past ``limit``; every memout saying why."""
    for r in rows:
        assert r["status"] not in FINISHED or r["peak_memory"] <= limit, r
        if r["status"] == "memout":
            assert r["error"].startswith(f"memory limit of {limit // 1024} KB reached: "), r


@pytest.mark.slow
def test_a_run_whose_peak_passes_the_limit_is_a_memout_in_bench_and_solve(tmp_path, capsys):
    """``--memory-limit 8KiB``: the cap counts memory reserved, the peak pages touched, and
    mrv and human touch pages their process had reserved before the baseline; their rows are
    ``memout`` wherever the peak passed the limit, as cpsat's refused allocations are, and a
    batch (dlx) whose peak passed it is run again puzzle by puzzle, each on its own peak."""
    lines = data_lines("sudoku9_norvig_top95.txt", 4)
    solvers = "mrv,human,dlx" + (",cpsat" if importlib.util.find_spec("ortools") else "")
    rows = bench_rows(tmp_path, lines, "--solvers", solvers, "--memory-limit", "8KiB", "--jobs", "1", fresh=True)
    peak_and_status_agree(rows, 8 * 1024)
    past = [r for r in rows if r["error"] and "answered unique with its peak past the limit" in r["error"]]
    assert past and {r["solver"] for r in rows} >= {"mrv", "human", "dlx"}
    assert all(r["error"].endswith(f"; peak {r['peak_memory'] // 1024} KB above the baseline") for r in past)
    records = solve_records(capsys, tmp_path, lines, "--solver", "mrv", "--memory-limit", "8KiB", fresh=True)
    peak_and_status_agree(records, 8 * 1024)
    assert any(r["status"] == "memout" for r in records)


@pytest.mark.parametrize("status, peak, after, said", [
    (Status.UNIQUE, 300 * 1024, Status.MEMOUT,
     "memory limit of 256 KB reached: answered unique with its peak past the limit; peak 300 KB above the baseline"),
    (Status.UNSAT, 2 * MB, Status.MEMOUT,
     "memory limit of 256 KB reached: answered unsat with its peak past the limit; peak 2.0 MB above the baseline"),
    (Status.UNIQUE, 256 * 1024, Status.UNIQUE, None),        # at the limit: within it
    (Status.TIMEOUT, 2 * MB, Status.TIMEOUT, None),          # ended by its time limit: not solved either way
    (Status.UNIQUE, None, Status.UNIQUE, None),              # no peak measured
])
def test_a_finished_run_past_the_memory_limit_is_a_memout_with_its_answer_kept(status, peak, after, said):
    result = Result(kind="sudoku", solver="x", limit=2, status=status, count=1, peak_memory=peak)
    assert past_the_memory_limit(result, 256 * 1024) is result
    assert (result.status, result.error, result.count) == (after, said, 1)
    assert past_the_memory_limit(Result(kind="sudoku", solver="x", limit=2, status=Status.UNIQUE, count=1,
                                        peak_memory=peak), None).status is Status.UNIQUE


@pytest.mark.parametrize("command", ["bench", "solve"])
def test_a_memory_limit_under_a_page_is_refused(capsys, tmp_path, command):
    """``--memory-limit 1B``: the kernel holds and measures memory in pages, so a limit under
    one is a limit of none (rows of 0 KB stored as solved beside 86 KB ones as memouts)."""
    argv = ["bench", "--db", str(tmp_path / "r.sqlite")] if command == "bench" else ["solve", "--example", "arto-inkala"]
    code, out, err = run(capsys, *argv, "--solvers" if command == "bench" else "--solver", "mrv",
                         "--memory-limit", "1B")
    page = resource.getpagesize()
    assert (code, out, err) == (2, "", f"puzzlebench: error: the memory limit must be a page ({page // 1024} KiB) "
                                       f"or more: the kernel holds and measures memory in pages; got 1 B\n")
    assert not (tmp_path / "r.sqlite").exists()
    with pytest.raises(UsageError, match="the memory limit must be a page"):
        puzzlebench.solve(hardest(1)[0], solver="mrv", memory_limit="100B")


# -- 4. one meaning of solved ---------------------------------------------------------------------

@pytest.mark.slow
def test_a_tiny_time_limit_is_timeouts_in_the_main_table_and_the_metrics_alike(tmp_path):
    rows = bench_rows(tmp_path, hardest(10), "--solvers", "mrv,bitboard,dlx,dlx-py", "--time-limit", "1e-9")
    assert {r["status"] for r in rows} == {"timeout"}
    summary = summarise(median_runs(rows))
    metrics = {(m["solver"]): m for m in standard_metrics(median_runs(rows), MetricOptions())}
    for row in summary:
        assert (row["solved"], row["timeouts"]) == (0, 10)
        assert metrics[row["solver"]]["solved_in_limit"] == 0


def test_an_answer_past_the_limit_is_a_timeout_with_the_answer_kept():
    """mrv under 5 ms on hard 9x9: never "unique" past the limit; a run over it keeps what it
    found (count, solutions) and says so."""
    engine = MrvEngine()
    results = run_limited(engine, [parse(line) for line in hardest(30)], limit=2, time_limit=0.005, keep=2)
    for r in results:
        assert r.status in (Status.UNIQUE, Status.TIMEOUT)
        if r.status is Status.UNIQUE:
            assert r.times.total <= 0.005
        elif r.error is not None:   # it answered, past the limit (else its search stopped itself)
            assert r.error.startswith("answered ") and "past the time limit of 5 ms" in r.error
            assert r.count and len(r.solutions) == min(r.count, 2)


def test_a_stored_answer_past_its_limit_is_a_timeout_in_the_report(tmp_path):
    """A database written before one meaning of solved (a finished answer stored past its
    limit, no clock column): the report counts it as a timeout in every table."""
    rows = bench_rows(tmp_path, hardest(3), "--solvers", "mrv", "--time-limit", "10")
    with sqlite3.connect(tmp_path / "r.sqlite") as conn:
        conn.execute("UPDATE result_log SET t_total = 11, clock = NULL WHERE id = ?", (rows[0]["id"],))
        conn.row_factory = sqlite3.Row
        stored = [dict(r) for r in conn.execute("SELECT * FROM results")]
    [summary] = summarise(median_runs(stored))
    [metric] = standard_metrics(median_runs(stored), MetricOptions(time_key="t_cpu"))
    assert (summary["solved"], summary["timeouts"], metric["solved_in_limit"]) == (2, 1, 2)


@pytest.mark.parametrize("clock, wall_limit, times, status, said", [
    ("wall", None, Times(total=1.5, cpu=0.2), Status.TIMEOUT,
     "answered unique after 1.5 s of wall time, past the time limit of 1 s"),
    ("wall", None, Times(total=0.5, cpu=0.2), Status.UNIQUE, None),
    ("cpu", 3.0, Times(total=1.5, cpu=0.2), Status.UNIQUE, None),   # a busy machine: wall over, CPU within
    ("cpu", 3.0, Times(total=1.5, cpu=1.2), Status.TIMEOUT,
     "answered unique after 1.2 s of cpu time, past the CPU limit of 1 s"),
    ("cpu", 3.0, Times(total=3.5, cpu=0.2), Status.TIMEOUT,
     "answered unique after 3.5 s of wall time, past the wall limit of 3 s"),
])
def test_past_the_limit_on_each_clock(clock, wall_limit, times, status, said):
    result = Result(kind="sudoku", solver="x", limit=2, status=Status.UNIQUE, count=1, times=times)
    assert past_the_limit(result, 1.0, clock, wall_limit) is result
    assert (result.status, result.error, result.count) == (status, said, 1)


def test_the_api_holds_the_limit_on_its_clock():
    puzzle = hardest(1)[0]
    result = puzzlebench.solve(puzzle, solver="mrv", time_limit=1e-6)
    assert result.status is Status.TIMEOUT
    result = puzzlebench.solve(puzzle, solver="mrv", time_limit=5, clock="cpu")
    assert result.status is Status.UNIQUE and result.times.cpu <= 5
    with pytest.raises(UsageError, match="the clock must be one of wall, cpu; got 'moon'"):
        puzzlebench.solve(puzzle, solver="mrv", time_limit=5, clock="moon")


@pytest.mark.parametrize("words, limit, status", [
    ("Z3 gave up: Resource temporarily unavailable", 5 * MB, Status.MEMOUT),
    ("ext:minizinc: minizinc answered UNKNOWN with exit code 1 (its last line on stderr: "
     "'Resource temporarily unavailable')", 5 * MB, Status.MEMOUT),
    ("terminate called after throwing an instance of 'std::bad_alloc'", 5 * MB, Status.MEMOUT),
    ("Z3 gave up: Resource temporarily unavailable", None, Status.ERROR),   # no cap: not the cap's doing
    ("Z3 gave up: incomplete quantifiers", 5 * MB, Status.ERROR),           # not memory's words
])
def test_an_error_in_memorys_words_under_a_cap_is_a_memout(words, limit, status):
    result = Result(kind="sudoku", solver="x", limit=2, status=Status.ERROR, error=words, peak_memory=MB)
    assert memout_if_said(result, limit).status is status
    if status is Status.MEMOUT:
        assert result.error == f"memory limit of 5 MB reached: {words}; peak 1.0 MB above the baseline"


HEAP_PROBE = """
from puzzlebench.runtime.child import MemoryProbe
junk = [bytes(1000) + bytes([i % 256]) for i in range(100_000)]   # 100 MB of the C heap
keep = junk[-1]   # the heap's top stays in use: its free middle is not given back by itself
del junk
probe = MemoryProbe()
baseline = probe.baseline()
probe.reset()
run = [bytes(1000) + bytes([i % 256]) for i in range(20_000)]   # a run's 20 MB
print(probe.run_peak(baseline) // 2**20)
"""


def test_a_runs_memory_is_counted_where_it_reuses_heap_its_process_freed_before():
    done = subprocess.run([sys.executable, "-c", HEAP_PROBE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 15   # uncounted, it read 0: the run lived in the free heap of the baseline
