"""The memory budget of the encoders and generators (encoders/budget.py): an encoding estimated
past it is refused before it is made, in one line, at once.  An empty 64x64 Sudoku's CNF took
6.4 GB (solve --solver sat) and 6.1 GB (export --to dimacs), generate futoshiki --size 64 passed
5.2 GB at 20 s; none of that is allocated here."""

from __future__ import annotations

import gc
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc

import pytest

from puzzlebench.cli import main
from puzzlebench.encoders import cnf, exact_cover
from puzzlebench.encoders.budget import DEFAULT_BUDGET, OverBudget, check_budget
from puzzlebench.models.futoshiki import Futoshiki
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.results import Status
from puzzlebench.engines import cells
from puzzlebench.engines.registry import make_engine

from conftest import needs_preset

QUICK = 20   # seconds: a refusal is an estimate from the shape (a loaded machine stretches it)
DEFAULT_REFUSAL = "more than the default memory budget of 2,048 MB; give --memory-limit MB to allow more"


@pytest.fixture
def empty64(tmp_path):
    path = tmp_path / "empty64.txt"
    path.write_text(" ".join(["0"] * 4096) + "\n")
    return path


def full_futoshiki(n: int) -> Futoshiki:
    """A Futoshiki with every sign a Latin square has (the first check of the generator's dig)."""
    rows = list(range(n))
    random.Random(n).shuffle(rows)
    solution = [(rows[r] + c) % n + 1 for r in range(n) for c in range(n)]
    pairs = [(a, a + 1) for a in range(n * n) if (a + 1) % n] + [(a, a + n) for a in range(n * n - n)]
    return Futoshiki(n, [0] * (n * n), [(a, b) if solution[a] < solution[b] else (b, a) for a, b in pairs])


# -- the estimates ------------------------------------------------------------------------------------

@pytest.mark.parametrize("box", [(2, 2), (3, 3), (2, 5), (4, 4)])
@pytest.mark.parametrize("encoding, amo", [("extended", "pairwise"), ("minimal", "pairwise"),
                                           ("efficient", "pairwise"), ("extended", "bitwise")])
def test_the_cnf_count_is_the_formulas_for_sudoku(box, encoding, amo):
    n = box[0] * box[1]
    puzzle = Sudoku(box, [0] * (n * n))
    formula = cnf.encode(puzzle, encoding, amo)
    assert cnf.formula_size(puzzle, encoding, amo) == (len(formula.clauses), sum(map(len, formula.clauses)))


ESTIMATES = {   # name: (the estimate, what makes what it estimates, what both are given)
    "cnf": (cnf.estimated_bytes, lambda p: cnf._encode_constraints(p.rules, "extended", "pairwise"),
            lambda: Sudoku((4, 4), [0] * 256)),
    "cells": (cells.estimated_bytes, cells.compile_rules, lambda: full_futoshiki(16).rules),
    "exact_cover": (exact_cover.estimated_bytes, exact_cover.encode_puzzle, lambda: full_futoshiki(16)),
}
MEASURE = "import sys, test_budget; print(*test_budget.estimate_and_made(sys.argv[1]))"


def measured(make) -> int:
    """What ``make()`` made holds (traced allocations still live once it returns, its garbage
    collected)."""
    tracemalloc.start()
    try:
        made = make()   # noqa: F841  (held while it is measured)
        gc.collect()
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def estimate_and_made(name: str) -> tuple[int, int]:
    estimate, make, given = ESTIMATES[name]
    argument = given()
    return estimate(argument), measured(lambda: make(argument))


@pytest.mark.slow
@pytest.mark.parametrize("name", ESTIMATES)
def test_an_estimate_is_within_a_factor_of_two_of_what_is_made(name):
    """Measured in a new process: tracemalloc counts what every thread of its process holds, and
    a test worker's state is what the tests it ran before left (caches, garbage, threads)."""
    done = subprocess.run([sys.executable, "-c", MEASURE, name], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    guess, made = map(int, done.stdout.split())
    assert made / 2 < guess < 2 * made, (guess, made)


# -- the one check ------------------------------------------------------------------------------------

def test_the_check_names_the_estimate_and_the_option():
    check_budget(DEFAULT_BUDGET // 2, "this")   # well within the budget: allowed
    with pytest.raises(OverBudget) as refused:
        check_budget(3 * 2**30, "the dimacs export of this sudoku")
    assert (str(refused.value), refused.value.limited) == (
        f"the dimacs export of this sudoku is estimated at 3,072 MB, {DEFAULT_REFUSAL}", False)
    with pytest.raises(OverBudget) as refused:
        check_budget(3 * 2**30, "this", memory_limit=2**30)
    assert (str(refused.value), refused.value.limited) == (
        "this is estimated at 3,072 MB, more than the 1,024 MB the memory limit leaves; not started", True)
    check_budget(3 * 2**30, "this", memory_limit=4 * 2**30)   # a limit raises the budget


def test_a_solver_model_counts_the_candidates_the_givens_leave_open():
    """A 4x4 with one given 1: that cell is closed, its seven peers keep three values, the
    other eight four; each cell is named by its ExactlyOne and its three units (53 and 3 x 53),
    where the empty grid's 4n³ is 256, the count a text export (which names them all) keeps."""
    from puzzlebench import parse
    from puzzlebench.encoders.cpsat import candidates_named
    one = parse("1" + "." * 15).rules
    assert (candidates_named(one), candidates_named(one, open_only=True)) == (256, 4 * 53)
    assert candidates_named(parse("." * 16).rules, open_only=True) == 256


def test_the_default_budget_is_the_runs_share_whatever_the_process_holds():
    """The default budget bounds the run's own share, as its peak is measured above the idle
    baseline: an estimate just within it is allowed however much the caller already holds, and
    one just past it refused."""
    ballast = b"\1" * (256 * 2**20)   # the caller holds 256 MB more than before, resident
    check_budget(DEFAULT_BUDGET - 2**20, "this")
    del ballast
    with pytest.raises(OverBudget) as refused:
        check_budget(DEFAULT_BUDGET + 2**20, "this")
    assert str(refused.value) == f"this is estimated at 2,049 MB, {DEFAULT_REFUSAL}"


@pytest.mark.slow
@pytest.mark.parametrize("spec, estimate", [("sat", "8,332"), ("quine", "13,448"), ("ext:cadical", "6,489"),
                                            ("smt:bool@amo=pairwise", "19,942"), ("smt", "3,200")])
def test_an_engine_refuses_an_encoding_past_the_budget_without_making_it(spec, estimate):
    if spec.startswith("ext:"):
        needs_preset(spec[4:])
    engine = make_engine(spec)
    tracemalloc.start()
    started = time.perf_counter()
    result = engine.run(Sudoku((8, 8), [0] * 4096), time_limit=60)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert time.perf_counter() - started < QUICK
    assert peak < 100 * 2**20
    assert (result.status, result.error) == (
        Status.ERROR, f"{engine.family}'s encoding of this sudoku is estimated at {estimate} MB, {DEFAULT_REFUSAL}")


# -- through the commands ---------------------------------------------------------------------------

def test_solve_refuses_an_empty_64x64_for_sat_at_once(empty64, capsys):
    started = time.perf_counter()
    assert main(["solve", str(empty64), "--solver", "sat"]) == 2
    assert time.perf_counter() - started < QUICK
    out, err = capsys.readouterr()
    assert out == f"{empty64}:1: error: sat's encoding of this sudoku is estimated at 8,332 MB, {DEFAULT_REFUSAL}\n"


def test_under_a_memory_limit_an_encoding_past_it_is_a_memout(empty64, capsys):
    started = time.perf_counter()
    main(["solve", str(empty64), "--solver", "sat", "--memory-limit", "1000", "--format", "jsonl"])
    assert time.perf_counter() - started < QUICK
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["status"] == "memout"
    assert re.fullmatch(r"memory limit of 1000 MB reached: sat's encoding of this sudoku is estimated at 8,332 MB, "
                        r"more than twice the [\d,]+ MB the memory limit leaves; not started", record["error"]), record["error"]


def test_export_refuses_a_dimacs_past_the_budget_and_a_limit_raises_it(empty64, tmp_path, capsys):
    out = tmp_path / "x.cnf"
    started = time.perf_counter()
    assert main(["export", str(empty64), "--to", "dimacs", "-o", str(out)]) == 2
    assert main(["export", str(empty64), "--to", "dimacs", "-o", str(out), "--memory-limit", "3000"]) == 2
    assert time.perf_counter() - started < QUICK
    assert capsys.readouterr().err == (
        f"puzzlebench: error: the dimacs export of this sudoku is estimated at 5,339 MB, {DEFAULT_REFUSAL}\n"
        "puzzlebench: error: the dimacs export of this sudoku is estimated at 5,339 MB, more than the 3,000 MB "
        "the memory limit leaves; not started\n")
    assert not out.exists()
    assert main(["export", "--example", "knuth", "--to", "dimacs", "-o", str(out)]) == 0   # small: written
    assert out.read_text().startswith("c puzzlebench cnf")


@pytest.mark.slow
def test_generate_refuses_a_futoshiki_whose_checks_pass_the_budget(capsys):
    started = time.perf_counter()
    assert main(["generate", "futoshiki", "--size", "64", "--quiet"]) == 2
    assert main(["generate", "futoshiki", "--size", "64", "--quiet", "--memory-limit", "1000"]) == 2
    assert time.perf_counter() - started < 2 * QUICK
    default, limited = capsys.readouterr().err.splitlines()
    prefix = r"puzzlebench: error: mrv's encoding of this futoshiki is estimated at 5,2\d\d MB, "
    assert re.fullmatch(prefix + re.escape(DEFAULT_REFUSAL), default), default
    assert re.fullmatch(prefix + "more than the 1,000 MB the memory limit leaves; not started", limited), limited


def test_generate_refuses_a_sudoku_whose_sat_checks_pass_the_budget(capsys):
    """A large Sudoku's SAT checks grow as clues go, to the empty grid's formula: 64x64's is
    estimated before the grid is drawn."""
    started = time.perf_counter()
    assert main(["generate", "sudoku", "--box", "8x8", "--quiet"]) == 2
    assert time.perf_counter() - started < QUICK
    assert capsys.readouterr().err == ("puzzlebench: error: the SAT checks' encoding of a 64x64 sudoku (with no clue "
                                       f"left) is estimated at 11,673 MB, {DEFAULT_REFUSAL}\n")


@pytest.mark.parametrize("line", [
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "..3.......2.1...",
])
def test_the_optimized_count_is_each_puzzles_formula(line):
    from puzzlebench import parse
    puzzle = parse(line)
    formula = cnf.encode(puzzle, "optimized")
    assert cnf.formula_size(puzzle, "optimized") == (len(formula.clauses), sum(map(len, formula.clauses)))


@pytest.mark.parametrize("limit, status, past", [
    ([], "error", DEFAULT_REFUSAL),
    (["--memory-limit", "500"], "memout", "more than twice the (4\\d\\d|500) MB the memory limit leaves; not started"),
])
def test_a_bench_stores_the_refusal_as_its_row(empty64, tmp_path, limit, status, past):
    import sqlite3
    db = tmp_path / "r.sqlite"
    started = time.perf_counter()
    main(["bench", str(empty64), "--solvers", "sat", "--db", str(db), "--time-limit", "30", "--quiet", *limit])
    assert time.perf_counter() - started < 2 * QUICK
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT status, error FROM result_log").fetchall()
    assert len(rows) == 1 and rows[0][0] == status
    prefix = ("memory limit of 500 MB reached: " if limit else "") + "sat's encoding of this sudoku is estimated at 8,332 MB, "
    assert re.fullmatch(re.escape(prefix) + (re.escape(past) if not limit else past), rows[0][1]), rows[0][1]


# -- against what processes take ----------------------------------------------------------------------

GUARD = int(2.5 * 2**30)
"""The address space a command that must be refused runs in: were the refusal not to come, the
command fails there rather than taking the machine's memory (an empty 49x49 took 2.6 GB)."""


def guarded(*argv: str) -> tuple[int, str, int]:
    """``python -m puzzlebench ARGV`` in a process capped at :data:`GUARD`: its exit code,
    standard output and peak resident set in bytes (its own, by ``wait4``)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (GUARD, GUARD))

    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen([sys.executable, "-m", "puzzlebench", *argv], stdout=out,
                                 stderr=subprocess.DEVNULL, preexec_fn=cap)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)   # reaped here: Popen leaves it be
        out.seek(0)
        return child.returncode, out.read().decode(), usage.ru_maxrss * 1024


@pytest.mark.slow
def test_solve_refuses_an_empty_49x49_for_sat_before_making_it(tmp_path):
    """Its formula and Glucose's copy of it took 2.6 GB, where the formula alone was estimated
    within the default budget: the estimate counts the solver's share now."""
    path = tmp_path / "empty49.txt"
    path.write_text(" ".join(["0"] * 2401) + "\n")
    code, out, peak = guarded("solve", str(path), "--box", "7x7", "--solver", "sat")
    assert (code, out) == (2, f"{path}:1: error: sat's encoding of this sudoku is estimated at 2,855 MB, "
                              f"{DEFAULT_REFUSAL}\n")
    assert peak < 512 * 2**20   # the interpreter, the libraries and the puzzle's rules: none of the 2.8 GB


PEAK = """
import json, sys
from puzzlebench.models.sudoku import Sudoku

def status(field):
    with open("/proc/self/status") as f:
        return int(f.read().split(field + ":")[1].split("kB")[0]) * 1024

spec, box = sys.argv[1], int(sys.argv[2])
n = box * box
puzzle = Sudoku((box, box), [0] * (n * n))
if spec.startswith("export:"):
    from puzzlebench.cli import main
    from puzzlebench.encoders.registry import export_format, function
    to = spec.split(":")[1]
    estimate = function(export_format(to).estimate)(puzzle)

    def export(grid, shape):
        with open(sys.argv[3], "w") as f:
            f.write(grid.write() + "\\n")
        main(["export", sys.argv[3], "--kind", "sudoku", "--box", shape, "--to", to, "-o", sys.argv[3] + ".out"])

    export(Sudoku((2, 2), [0] * 16), "2x2")   # the command's modules loaded first, as an engine's are
    run = lambda: export(puzzle, f"{box}x{box}")
else:
    from puzzlebench.engines.registry import make_engine
    engine = make_engine(spec)
    engine.load()
    estimate = engine.estimated_bytes(puzzle)
    run = lambda: engine.run(puzzle)
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")   # the peak is measured from here on
held = status("VmRSS")
run()
print(json.dumps([estimate, status("VmHWM") - held]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("spec, box", [
    ("sat", 5), ("sat:minisat22", 5), ("sat:cadical195", 5), ("sat:lingeling", 5), ("sat:kissat404", 5),
    ("quine", 4), ("ext:cadical", 5), ("cpsat", 5), ("cpsat:bool", 5), ("smt", 4), ("smt:bool@amo=pairwise", 4),
    ("dlx", 5), ("dlx-py", 5), ("mrv", 6), ("export:dimacs", 5), ("export:dlx", 5), ("export:smt2-bool", 5),
])
def test_an_engine_takes_at_most_its_estimate(spec, box, tmp_path):
    """What a run adds to its process at its peak (the solver's copy of the clauses and its
    search included) is at most the estimate the budget holds, and not far below it: Z3's share
    a candidate grows with the grid, 2.5 times less on a 16x16 than the 49x49 it was measured on."""
    if not spec.startswith("export:"):
        engine = make_engine(spec)
        if engine.unavailable_reason() is not None:
            pytest.skip(engine.unavailable_reason())
    if not os.access("/proc/self/clear_refs", os.W_OK):
        pytest.skip("this system cannot reset a process's peak (/proc/self/clear_refs)")
    done = subprocess.run([sys.executable, "-c", PEAK, spec, str(box), str(tmp_path / "empty.txt")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    estimate, taken = json.loads(done.stdout.splitlines()[-1])
    assert taken <= estimate <= 3 * taken, (estimate / 2**20, taken / 2**20)
