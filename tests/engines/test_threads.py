"""A native batch call split over threads (``solve_many(..., threads=N)``, ``--threads N``):
the same answers, counters and order as one thread on real sets, real threads; a Ctrl-C keeps
the answers before the first puzzle left unanswered and leaves no thread behind; a bad count
is one line, from the API and the command alike."""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import cpu_seconds, data_lines, run
from puzzlebench import _native, api
from puzzlebench.engines.batch import every_core
from puzzlebench.engines.registry import make_engine, split_over_threads
from puzzlebench.errors import UsageError
from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.results import Status
from puzzlebench.runtime.limits import Interrupted

BLANK9 = "." * 81        # counted to the end, no 9x9 batch call ever answers it
SHORT, CLASHING = "123", "11" + "." * 79   # lines the batch reader leaves to the one-by-one reader
BOUND = 60.0             # hang guard: seconds a stopped command may take to exit on a loaded machine
SETS = {   # real sets: easy (17 clues), the hardest public one, and 16x16 (dlx's batch, bitboard's one by one)
    "17-clue": ("sudoku9_royle_17clue_49158.txt", 3000, 16),
    "forum hardest": ("sudoku9_forum_hardest_1905_11plus.txt", 1500, 32),
    "16x16": ("sudoku16_vu_kr_1000.txt", 120, 8),
}


def set_lines(name: str) -> list[str]:
    file, count, step = SETS[name]
    return [line.split()[0] for line in data_lines(file, count, step)]


def columns_fields(table) -> dict:
    """Every column but the times (two runs' clocks differ), as plain lists."""
    return {"status": table.status.tolist(), "count": table.count.tolist(), "solutions": table.solutions.tolist(),
            "verified": table.verified.tolist(), "errors": table.errors,
            **{f"stats.{name}": values.tolist() for name, values in table.stats.items()}}


def record_fields(record) -> tuple:
    return (record.status, record.count, record.solutions, record.verified, record.error,
            record.stats.normalised(), record.stats.raw, record.size)


def tasks() -> int:
    """The threads of this process now."""
    return len(os.listdir("/proc/self/task"))


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
@pytest.mark.parametrize("name", SETS)
def test_threads_give_the_columns_and_records_of_one_thread(solver, name):
    lines = set_lines(name)
    one = columns_fields(api.solve_many(lines, solver=solver, columns=True))
    assert one["status"].count(0) == len(lines)   # every puzzle of these sets is unique
    for threads in (2, 3):
        assert columns_fields(api.solve_many(lines, solver=solver, columns=True, threads=threads)) == one
    records = [record_fields(r) for r in api.solve_many(lines[:400], solver=solver)]
    assert [record_fields(r) for r in api.solve_many(lines[:400], solver=solver, threads=2)] == records
    assert [record_fields(r) for r in api.solve_many(lines[:400], solver=solver, threads=3)] == records


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 299), max_size=120), strange=st.lists(st.integers(0, 119), max_size=4),
       threads=st.integers(0, 5), solver=st.sampled_from(["bitboard", "dlx"]), limit=st.sampled_from([1, 2]))
def test_any_batch_in_any_order_answers_as_one_thread(picks, strange, threads, solver, limit):
    """Any puzzles in any order and number (none, one, fewer than the threads), lines the
    batch reader leaves aside among them: row i is puzzle i's answer, as with one thread."""
    pool = set_lines("forum hardest")[:150] + set_lines("17-clue")[:150]
    lines = [pool[i] for i in picks]
    for k, at in enumerate(strange):
        lines.insert(min(at, len(lines)), (SHORT, CLASHING, BLANK9[:80] + "x", BLANK9[:80] + "1")[k])
    one = api.solve_many(lines, solver=solver, limit=limit, columns=True)
    split = api.solve_many(lines, solver=solver, limit=limit, columns=True, threads=threads)
    assert columns_fields(split) == columns_fields(one)


def holed(box: tuple[int, int], share: float, count: int, seed: int) -> list[Sudoku]:
    rng = random.Random(seed)
    return [Sudoku(box, [0 if rng.random() < share else v for v in pattern_sudoku_grid(box, rng)])
            for _ in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["bitboard", "bitboard@cdcl=true", "bitboard@restarts=none;random=false"])
def test_the_batch_of_other_block_shapes_answers_as_each_puzzle_alone(spec):
    """bitboard's batch on shapes other than 9x9 (the search over units, sudoku_batch_columns):
    every record field but the times as Engine.run gives it puzzle by puzzle, on any thread count."""
    puzzles = ([api.parse(line) for line in set_lines("16x16")[:60]] + holed((2, 3), 0.6, 20, 1)
               + holed((5, 5), 0.5, 6, 2))
    engine = make_engine(spec)
    for box in ((4, 4), (2, 3), (5, 5)):
        shape = [p for p in puzzles if p.box == box]
        alone = [record_fields(engine.run(p, limit=2, keep=1)) for p in shape]
        assert len(engine.batch(shape, limit=2, time_limit=None, keep=1)) == len(shape)   # one call, not None
        for threads in (1, 2, 3):
            assert [record_fields(r) for r in api.solve_many(shape, solver=spec, keep=1, threads=threads)] == alone
        table = api.solve_many(shape, solver=spec, columns=True, threads=2)
        assert table.verified.all() and table.count.tolist() == [f[1] for f in alone]


def test_the_native_calls_give_the_same_arrays_on_any_thread_count():
    """The C calls themselves, every output array (times aside), and the bulk checks."""
    lines = set_lines("forum hardest")[:500]
    values = b"".join(bytes(api.parse(line).givens) for line in lines)
    n = len(lines)

    def batch(threads):
        out = [np.zeros(n, np.uint8), np.zeros(n, np.int64), np.zeros((n, 6), np.int64), np.zeros(n),
               np.zeros((n, 81), np.uint8)]
        assert _native.sudoku9_batch_columns(values, 2, 0.0, True, *out, threads) == n
        return [a.tolist() for k, a in enumerate(out) if k != 3]

    one = batch(1)
    assert batch(2) == batch(7) == one
    solutions = bytes(np.array(one[-1], np.uint8).ravel())
    wrong = bytearray(solutions)
    wrong[81 * 17] ^= 3
    assert _native.sudoku_answers_right(3, 3, solutions, values, 4) == b"\1" * n
    assert _native.sudoku_answers_right(3, 3, bytes(wrong), values, 4) == b"\1" * 17 + b"\0" + b"\1" * (n - 18)
    assert _native.sudoku_givens_right(3, 3, values, 3) == _native.sudoku_givens_right(3, 3, values)
    text = "".join(lines[:99] + [CLASHING, BLANK9[:80] + "x"]).encode()
    table = bytearray(b"\xff" * 256)   # '.' empty, '1'..'9' their values, any other character none
    table[ord(".")] = 0
    table[ord("1"):ord("9") + 1] = bytes(range(1, 10))
    read = _native.sudoku_text_givens(3, 3, text, table, 3)
    assert read == _native.sudoku_text_givens(3, 3, text, table) and read[1] == b"\1" * 99 + b"\0\0"
    assert read[0][:81 * 99] == values[:81 * 99]
    rows = _native.dlx_sudoku_batch(values[:81 * 50], 3, 3, 2, 1, 0.0, 3)
    assert [row[:7] for row in rows] == [row[:7] for row in _native.dlx_sudoku_batch(values[:81 * 50], 3, 3, 2, 1, 0.0)]


@pytest.mark.parametrize("call", [
    lambda: _native.sudoku9_batch(BLANK9.replace(".", "\0").encode(), 2, 0.0, True, 0),
    lambda: _native.dlx_sudoku_batch(bytes(81), 3, 3, 2, 1, 0.0, 257),
    lambda: _native.sudoku_givens_right(3, 3, bytes(81), -1),
])
def test_the_native_calls_refuse_a_thread_count_out_of_range(call):
    with pytest.raises(ValueError, match="threads = (0|257|-1): 1 to 256"):
        call()


def test_a_time_limit_holds_for_each_puzzle_on_every_thread():
    table = api.solve_many([BLANK9] * 4, solver="bitboard", limit=0, time_limit=0.05, columns=True, threads=2)
    assert table.statuses() == [Status.TIMEOUT] * 4 and not table.verified.any()
    records = api.solve_many([BLANK9] * 3, solver="dlx", limit=0, time_limit=0.05, threads=3)
    assert [r.status for r in records] == [Status.TIMEOUT] * 3


def test_zero_threads_is_every_core():
    engine = split_over_threads(make_engine("bitboard"), 0)
    assert engine.batch_threads == every_core() == len(os.sched_getaffinity(0))
    assert split_over_threads(make_engine("mrv"), 1).family == "mrv"


@pytest.mark.parametrize("threads, error, message", [
    (-1, UsageError, "threads -1: out of range: a whole number from 0 to 256"),
    (257, UsageError, "threads 257: out of range: a whole number from 0 to 256"),
    (True, TypeError, "threads must be a whole number (int); got True"),
    (2.0, TypeError, "threads must be a whole number (int); got 2.0"),
    ("2", TypeError, "threads must be a whole number (int); got '2'"),
])
def test_a_bad_thread_count_is_one_line_from_the_api(threads, error, message):
    with pytest.raises(error) as caught:
        api.solve_many([BLANK9], solver="bitboard", threads=threads)
    assert str(caught.value) == message


@pytest.mark.parametrize("threads", [2, 0])
def test_threads_for_an_engine_without_a_batch_call_are_refused(threads):
    with pytest.raises(UsageError) as caught:
        api.solve_many([BLANK9], solver="mrv", threads=threads)
    assert str(caught.value) == (f"threads {threads}: mrv has no native batch call to split over threads; "
                                 "the engines with one: bitboard, dlx")


@pytest.mark.parametrize("command", ["solve", "count"])
@pytest.mark.parametrize("argv, message", [
    (["--threads", "-1"], "--threads -1: out of range: a whole number from 0 to 256"),
    (["--threads", "257"], "--threads 257: out of range: a whole number from 0 to 256"),
    (["--threads", "1.5"], "--threads 1.5: not a whole number"),
    (["--threads", "two"], "--threads two: not a whole number"),
    (["--threads", "2", "--solver", "sat"],
     "--threads 2: sat has no native batch call to split over threads; the engines with one: bitboard, dlx"),
])
def test_a_bad_thread_count_is_one_line_from_the_command(capsys, command, argv, message):
    code, out, err = run(capsys, command, *argv, "--example", "arto-inkala")
    assert (code, out, err) == (2, "", f"puzzlebench: error: {message}\n")


def test_the_command_answers_alike_on_threads(capsys, tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(set_lines("forum hardest")[:300]) + "\n")
    outputs = []
    for threads in ("1", "2", "0"):
        code, out, _ = run(capsys, "count", "--solver", "bitboard", "--format", "jsonl", "--threads", threads,
                           str(path))
        assert code == 0
        outputs.append([{k: v for k, v in json.loads(line).items() if k != "times"} for line in out.splitlines()])
    assert outputs[0] == outputs[1] == outputs[2] and len(outputs[0]) == 300


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["bitboard", "dlx"])
def test_a_ctrl_c_keeps_the_answers_before_the_first_unanswered_and_joins_every_thread(solver):
    """A grid no call answers at 40 of 200: whatever the other threads answered after it, the
    columns kept are the 40 before it, verified, as one thread gives them; no thread is left."""
    lines = set_lines("17-clue")[:199]
    lines.insert(40, BLANK9)
    before = tasks()
    expected = columns_fields(api.solve_many(lines[:40], solver=solver, limit=None, columns=True))
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(Interrupted) as caught:
        api.solve_many(lines, solver=solver, limit=None, columns=True, threads=3)
    timer.join()
    assert columns_fields(caught.value.done) == expected
    assert tasks() == before


def _count_command(path, threads: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "puzzlebench.cli", "count", "--solver", "bitboard",
                             "--format", "jsonl", "--threads", threads, str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


@pytest.mark.slow
def test_a_ctrl_c_in_a_threaded_count_writes_the_answers_before_it_and_exits_130(tmp_path):
    """The command's first batch of 1,000 holds a grid no count finishes at 500: SIGINT once it
    searches (by its CPU time), then exit 130 and the 500 answers before that grid printed, in
    order, as one thread gives them, and nothing after."""
    lines = set_lines("forum hardest")[:999]
    lines.insert(500, BLANK9)
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    reference = tmp_path / "first.txt"
    reference.write_text("\n".join(lines[:500]) + "\n")
    done = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "count", "--solver", "bitboard", "--format",
                           "jsonl", str(reference)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, timeout=BOUND)
    expected = [{k: v for k, v in json.loads(line).items() if k not in ("times", "source")}
                for line in done.stdout.splitlines()]
    proc = _count_command(path, "2")
    started = time.monotonic()
    while cpu_seconds(proc.pid) < 3.0:   # imports, the batch read, then its searches on two threads
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() - started < BOUND, "the command never got to work"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=BOUND)
    finally:
        proc.kill()
    assert proc.returncode == 130, err.decode()
    assert err.decode().splitlines()[-1] == "puzzlebench: interrupted"
    printed = [json.loads(line) for line in out.decode().splitlines()]
    assert [r["source"] for r in printed] == [f"{path}:{k}" for k in range(1, 501)]
    assert [{k: v for k, v in r.items() if k not in ("times", "source")} for r in printed] == expected
