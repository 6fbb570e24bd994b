"""The bench: hard time limits, crashes, wrong answers, cross-checks, the database and resume,
its workers and its lock.  The report is in test_report_database.py, the generators in
test_generate.py."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebench.cli import main
from puzzlebench.errors import UsageError
from puzzlebench.models import examples
from puzzlebench.engines import registry
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.crosscheck import crosscheck
from puzzlebench.harness.database import Database
from puzzlebench.generators import generate
from puzzlebench.harness.inputs import from_puzzles, read_file, sample
from puzzlebench.harness.runner import WorkUnit
from puzzlebench.harness.workers import LocalExecutor
from puzzlebench.generators.fill import pattern_sudoku_grid
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.models.sudoku_batch import SudokuBatch

from conftest import REPO
if str(REPO) not in sys.path:  # the workers import the test doubles as tests.broken_engines
    sys.path.insert(0, str(REPO))

from tests.broken_engines import ALL as BROKEN  # noqa: E402


@pytest.fixture(scope="module")
def small_sudokus():
    """Four generated 4x4 Sudoku (unique, minimal), the same every run."""
    return list(generate("sudoku", 4, seed=7, box=(2, 2)))


def bench(items, solvers, tmp_path, **kw):
    grace = kw.pop("grace", 0.3)
    cfg = BenchConfig(solvers=solvers, db=str(tmp_path / "r.sqlite"), engines=BROKEN, quiet=True,
                      time_limit=kw.pop("time_limit", 2.0), jobs=kw.pop("jobs", 2), **kw)
    return run_bench(items, cfg, executor=LocalExecutor(cfg.jobs, grace=grace))


def by_solver(outcome):
    out = {}
    for r in outcome.results:
        out.setdefault(r["solver"], []).append(r)
    return out


# -- broken engines ------------------------------------------------------------------------------

@pytest.mark.slow
def test_broken_engines_cost_only_their_pairs(small_sudokus, tmp_path):
    items = from_puzzles("four", small_sudokus[:2])
    out = bench(items, ["mrv", "wrong", "hang", "exit", "sigkill", "segfault"], tmp_path, time_limit=0.3)
    rows = by_solver(out)
    assert [r["status"] for r in rows["mrv"]] == ["unique", "unique"]
    assert all(r["verified"] for r in rows["mrv"])
    for r in rows["wrong"]:
        assert r["status"] == "error" and r["wrong"] == 1 and not r["verified"]
        assert r["error"].startswith("wrong answer from wrong: ")
    for r in rows["hang"]:
        assert r["status"] == "timeout"
        assert r["error"].startswith("no answer after ")
        assert r["error"].endswith("the engine overran its time limit of 0.3s by more than the grace "
                                   "of 0.3s; worker killed")
    assert {r["error"] for r in rows["exit"]} == {"the worker exited with code 3 while exit was solving this puzzle"}
    assert {r["error"] for r in rows["sigkill"]} == {
        "the worker was killed by signal SIGKILL while sigkill was solving this puzzle"}
    assert {r["error"] for r in rows["segfault"]} == {
        "the worker was killed by signal SIGSEGV while segfault was solving this puzzle"}
    assert len(out.wrong) == 2
    assert out.exit_code == 1
    assert out.disagreements == []  # errors and timeouts have no answer to compare


def test_batch_path_crash_is_isolated_to_its_puzzle(small_sudokus, tmp_path):
    puzzles = small_sudokus + list(generate("sudoku", 6, seed=8, box=(2, 2)))
    crashing = [p for p in puzzles if p.givens[0] == 1]
    assert 0 < len(crashing) < len(puzzles)
    out = bench(from_puzzles("ten", puzzles), ["batchcrash"], tmp_path, jobs=1)
    statuses = {r["puzzle_id"]: (r["status"], r["error"]) for r in out.results}
    for n, p in enumerate(puzzles, start=1):
        if p.givens[0] == 1:
            assert statuses[f"ten:{n}"] == ("error", "the worker was killed by signal SIGSEGV while "
                                            "batchcrash was solving this puzzle")
        else:
            assert statuses[f"ten:{n}"] == ("unique", None)


def test_batch_path_answers_are_verified_in_bulk(small_sudokus, tmp_path):
    out = bench(from_puzzles("four", small_sudokus), ["batch", "batchwrong"], tmp_path, jobs=1)
    rows = by_solver(out)
    assert all(r["status"] == "unique" and r["verified"] for r in rows["batch"])
    for p, r in zip(small_sudokus, rows["batchwrong"]):
        if p.givens[0] == 0:
            assert r["status"] == "error" and r["wrong"]
            assert r["error"].startswith("wrong answer from batchwrong: ")
        else:
            assert r["status"] == "unique" and r["verified"]


@pytest.fixture(scope="module")
def nine_by_nine():
    """Six generated 9x9 Sudoku (unique), the same every run: the bitboard's columnar batch."""
    return list(generate("sudoku", 6, seed=5, box=(3, 3)))


def test_columnar_batch_rows_equal_the_result_path(nine_by_nine, tmp_path):
    out = bench(from_puzzles("nine", nine_by_nine), ["bitboard", "rowsbitboard", "mrv"], tmp_path, jobs=1)
    assert out.exit_code == 0 and out.disagreements == []
    rows = by_solver(out)
    fields = ("puzzle_id", "status", "count", "nodes", "guesses", "backtracks", "conflicts", "propagations",
              "size", "error", "verified", "wrong", "set_name", "kind", "shape", "limit_", "time_limit")
    columnar = [{f: r[f] for f in fields} | {"raw": json.loads(r["raw_stats"])} for r in rows["bitboard"]]
    by_results = [{f: r[f] for f in fields} | {"raw": json.loads(r["raw_stats"])} for r in rows["rowsbitboard"]]
    assert columnar == by_results
    # memory measured (a small batch may touch no page its worker did not hold already: 0)
    assert all(r["status"] == "unique" and r["verified"] == 1 and r["peak_memory"] is not None
               and r["baseline_memory"] > 10 * 2 ** 20 for r in rows["bitboard"])
    assert all(r["t_total"] >= r["t_solve"] > 0 for r in rows["bitboard"])


def test_columnar_batch_answers_are_verified(nine_by_nine, tmp_path):
    assert 0 < sum(p.givens[0] == 0 for p in nine_by_nine) < len(nine_by_nine)
    out = bench(from_puzzles("nine", nine_by_nine), ["columnswrong"], tmp_path, jobs=1)
    for p, r in zip(nine_by_nine, out.results):
        if p.givens[0] == 0:
            assert r["status"] == "error" and r["wrong"] and not r["verified"]
            assert r["error"].startswith("wrong answer from columnswrong: ")
        else:
            assert r["status"] == "unique" and r["verified"]
    assert out.exit_code == 1 and len(out.wrong) == sum(p.givens[0] == 0 for p in nine_by_nine)


def test_a_disagreement_is_stored_printed_and_fails(small_sudokus, tmp_path, capsys):
    path = tmp_path / "four.txt"
    path.write_text("".join(p.write() + "\n" for p in small_sudokus[:2]))
    db = tmp_path / "d.sqlite"
    code = main(["bench", str(path), "--solvers", "mrv,liar", "--engine", f"liar={BROKEN['liar']}",
                 "--db", str(db), "--quiet", "--jobs", "1"])
    assert code == 1
    err = capsys.readouterr().err
    assert "puzzlebench: 2 DISAGREEMENTS between solvers:" in err
    assert "  four.txt:1 (limit 2): liar says unsat count=0, mrv says unique count=1" in err
    stored = Database(db).disagreements()
    assert [(d["puzzle_id"], d["solver_a"], d["status_a"], d["solver_b"], d["status_b"]) for d in stored] == [
        ("four.txt:1", "liar", "unsat", "mrv", "unique"), ("four.txt:2", "liar", "unsat", "mrv", "unique")]


def test_crosscheck_compares_only_finished_answers_with_the_same_limit():
    def row(solver, status, count, limit=2, pid="s:1"):
        return {"puzzle_id": pid, "puzzle_hash": "h", "limit_": limit, "solver": solver, "status": status,
                "count": count}
    rows = [row("a", "multiple", 2), row("b", "multiple", 2), row("c", "timeout", 0), row("d", "error", 0),
            row("a", "multiple", 7, limit=0), row("b", "multiple", 5, limit=0)]
    found = crosscheck(rows)
    assert [str(d) for d in found] == ["s:1 (limit all): a says multiple count=7, b says multiple count=5"]


# -- the database, kill and resume ---------------------------------------------------------------

def _db_rows(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT puzzle_id, solver, run_id, status, count FROM results").fetchall()


def slow_bench(tmp_path, db_name: str, solvers: str = "slow", count: int = 24) -> tuple[list[str], Path]:
    """The command of a bench of ``count`` generated 4x4 Sudokus through the ``slow`` test
    engine (50 ms a puzzle: long enough to act on it midway), and its database."""
    puzzles = list(generate("sudoku", count, seed=3, box=(2, 2)))
    path = tmp_path / "set.txt"
    path.write_text("".join(p.write() + "\n" for p in puzzles))
    db = tmp_path / db_name
    return [sys.executable, "-m", "puzzlebench.cli", "bench", str(path), "--solvers", solvers,
            "--engine", f"slow={BROKEN['slow']}", "--db", str(db), "--jobs", "2", "--quiet"], db


@pytest.mark.slow
def test_killed_bench_resumes_without_losing_or_repeating(tmp_path):
    cmd, db = slow_bench(tmp_path, "k.sqlite", solvers="slow,mrv")
    proc = subprocess.Popen(cmd, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.05)
            if db.exists():
                try:
                    if len(_db_rows(db)) >= 8:
                        break
                except sqlite3.OperationalError:
                    pass
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    before = _db_rows(db)
    assert 8 <= len(before) < 48, "the bench should have been killed midway"
    assert {r[2] for r in before} == {1}

    again = subprocess.run(cmd + ["--resume", "--wide"], cwd=REPO, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    after = _db_rows(db)
    assert len(after) == 48 and len({(r[0], r[1]) for r in after}) == 48
    kept = {(r[0], r[1]): r for r in after if r[2] == 1}
    assert kept == {(r[0], r[1]): r for r in before}          # every finished result kept, none re-run
    assert sum(r[2] == 2 for r in after) == 48 - len(before)  # the resume ran only what was missing

    whole = tmp_path / "whole.sqlite"
    subprocess.run(cmd[:cmd.index("--db") + 1] + [str(whole), "--jobs", "2", "--quiet"], cwd=REPO,
                   check=True, capture_output=True)
    table = lambda p: sorted((r[0], r[1], r[3], r[4]) for r in _db_rows(p))
    assert table(db) == table(whole)
    assert "| set.txt | slow | 2 | 24 | 24 | 0 | 0 |" in again.stdout


def test_bad_lines_are_errors_with_their_line_and_the_rest_runs(tmp_path, capsys):
    path = tmp_path / "mixed.txt"
    good = "..13....2.4....."
    path.write_text(f"{good}\n..13....2.4...\n{good.replace('.', '0')}\n")
    code = main(["bench", str(path), "--solvers", "mrv", "--db", str(tmp_path / "m.sqlite"), "--quiet"])
    assert code == 1
    err = capsys.readouterr().err.splitlines()   # the bad line told with its place (it was only counted)
    assert err[0] == ("puzzlebench: mixed.txt:2:15: error: a Sudoku line has N² characters "
                      "(16, 36, 81, 144, 256, 625, …); got 14")
    assert len(err) == 2 and err[1].startswith("puzzlebench: 2 runs in ") and "; 0 timeouts, 1 error; " in err[1]
    rows = Database(tmp_path / "m.sqlite").results()
    errors = [(r["puzzle_id"], r["solver"], r["error"]) for r in rows if r["status"] == "error"]
    assert errors == [("mixed.txt:2", "(input)",
                       "mixed.txt:2:15: a Sudoku line has N² characters (16, 36, 81, 144, 256, 625, …); got 14")]
    assert sorted(r["status"] for r in rows if r["solver"] == "mrv") == ["unique", "unique"]


def test_each_file_is_its_own_set_and_standard_input_is_one_too(tmp_path, capsys, monkeypatch):
    good = "..13....2.4....."
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "p.txt").write_text(f"{good}\n")
    a, b, db = str(tmp_path / "a" / "p.txt"), str(tmp_path / "b" / "p.txt"), str(tmp_path / "s.sqlite")
    # both were read as the one set 'p.txt', ids meeting: a pair stored twice, the table's counts off
    assert run_cli(["bench", a, a, "--solvers", "mrv", "--db", db, "--quiet"], capsys) == (
        2, f"puzzlebench: error: {a} is named twice: a bench reads each file once\n")
    assert run_cli(["bench", a, b, "--solvers", "mrv", "--db", db, "--quiet"], capsys) == (
        2, f"puzzlebench: error: {a} and {b} would both be the set 'p.txt' (a set is named by its file's name): "
           "rename one\n")
    assert not Path(db).exists()
    # '-' was "cannot read -: No such file or directory"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(f"{good}\n..13..\n".encode())))
    assert main(["bench", "-", "--solvers", "mrv", "--db", db, "--quiet"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == ("puzzlebench: stdin:2:5: error: a Sudoku line has N² "
                                                        "characters (16, 36, 81, 144, 256, 625, …); got 6")
    assert sorted((r["puzzle_id"], r["solver"], r["status"]) for r in Database(db).results()) == [
        ("stdin:1", "mrv", "unique"), ("stdin:2", "(input)", "error")]


def test_a_bench_run_again_replaces_its_pairs_and_keeps_the_earlier_rows_in_the_log(tmp_path, capsys):
    """Without --resume a bench runs its pairs again: the results view shows the new run's row
    of each pair (one row per pair), the log keeps the earlier ones, marked replaced; pairs of
    another solver are left as they were."""
    path = tmp_path / "mixed.txt"
    good = "..13....2.4....."
    path.write_text(f"{good}\n..13....2.4...\n{good.replace('.', '0')}\n")
    db = str(tmp_path / "again.sqlite")
    assert main(["bench", str(path), "--solvers", "mrv,dlx", "--db", db, "--quiet"]) == 1
    assert main(["bench", str(path), "--solvers", "mrv", "--db", db, "--quiet"]) == 1
    capsys.readouterr()
    rows = Database(db).results()
    assert sorted((r["puzzle_id"], r["solver"], r["run_id"]) for r in rows) == [
        ("mixed.txt:1", "dlx", 1), ("mixed.txt:1", "mrv", 2), ("mixed.txt:2", "(input)", 2),
        ("mixed.txt:3", "dlx", 1), ("mixed.txt:3", "mrv", 2)]
    with sqlite3.connect(db) as conn:
        log = conn.execute("SELECT v.spec, r.line, r.run_id, r.replaced_by FROM result_log r "
                           "JOIN solvers v ON v.id = r.solver_id ORDER BY r.id").fetchall()
    assert sorted(log) == [("(input)", 2, 1, 2), ("(input)", 2, 2, None), ("dlx", 1, 1, None),
                           ("dlx", 3, 1, None), ("mrv", 1, 1, 2), ("mrv", 1, 2, None), ("mrv", 3, 1, 2),
                           ("mrv", 3, 2, None)]


def run_cli(args, capsys):
    code = main(args)
    return code, capsys.readouterr().err


def test_unknown_solver_lists_the_known_ones(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    code, err = run_cli(["bench", str(path), "--solvers", "mrv,nosuch", "--db", str(tmp_path / "x.sqlite")], capsys)
    assert code == 2
    assert err == f"puzzlebench: error: unknown solver 'nosuch'; known: {', '.join(sorted(registry.FAMILIES))}\n"


def test_time_limit_must_be_positive(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    code, err = run_cli(["bench", str(path), "--solvers", "mrv", "--time-limit", "0", "--db",
                         str(tmp_path / "x.sqlite")], capsys)
    assert (code, err) == (2, "puzzlebench: error: the time limit must be positive (seconds); got 0\n")


def test_a_file_of_mixed_kinds_is_refused(tmp_path, capsys):
    path = tmp_path / "both.txt"
    path.write_text("..13....2.4.....\n8 (1,1)\n")
    code, err = run_cli(["bench", str(path), "--solvers", "mrv", "--db", str(tmp_path / "x.sqlite")], capsys)
    assert code == 2
    assert err == (f"puzzlebench: error: {path} mixes puzzle kinds: sudoku (first on line 1), nqueens "
                   "(first on line 2); a bench set must hold one kind (split the file, or give --kind to "
                   "read every line as one kind)\n")


def test_an_unreadable_database_is_refused(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    bad = tmp_path / "notes.sqlite"
    bad.write_text("these are not the results you are looking for\n" * 20)
    code, err = run_cli(["bench", str(path), "--solvers", "mrv", "--db", str(bad)], capsys)
    assert (code, err) == (2, f"puzzlebench: error: cannot use {bad} as a results database: "
                              "file is not a database\n")
    code, err = run_cli(["report", "--db", str(tmp_path / "none.sqlite")], capsys)
    assert (code, err) == (2, f"puzzlebench: error: no results database at {tmp_path / 'none.sqlite'} "
                              f"(make one with `puzzlebench bench --db {tmp_path / 'none.sqlite'}`)\n")


def test_more_jobs_than_cores_warns_and_runs(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    jobs = len(os.sched_getaffinity(0)) + 1
    code, err = run_cli(["bench", str(path), "--solvers", "mrv", "--jobs", str(jobs), "--quiet",
                         "--db", str(tmp_path / "x.sqlite")], capsys)
    assert code == 0
    assert (f"puzzlebench: warning: --jobs {jobs} is more than the {jobs - 1} cores here: workers will "
            "share cores and every time measured will be inflated\n") in err


def test_a_bench_of_nothing_usable_exits_2_as_every_command_does(tmp_path, capsys):
    """An empty file (or one of bad lines alone) is no puzzle to bench: exit 2, the commands'
    one rule (it said exit 1, as if some had run); a bad line among good ones stays exit 1."""
    empty, mixed = tmp_path / "empty.txt", tmp_path / "mixed.txt"
    empty.write_text("")
    mixed.write_text("..13....2.4.....\nnot a puzzle\n")
    code, err = run_cli(["bench", str(empty), "--solvers", "mrv", "--quiet", "--db", str(tmp_path / "e.sqlite")],
                        capsys)
    assert code == 2 and err.splitlines()[0] == "puzzlebench: empty.txt: error: empty input: no puzzle found"
    code, err = run_cli(["bench", str(mixed), "--solvers", "mrv", "--quiet", "--db", str(tmp_path / "m.sqlite")],
                        capsys)
    assert code == 1 and "puzzlebench: mixed.txt:2:1: error: cannot tell the kind of puzzle" in err


def test_huge_repeat_and_jobs_are_refused_before_anything_is_made(tmp_path, capsys):
    """The tasks are listed up front and the workers forked at once: --repeat 10^14 filled the
    memory without a word, --jobs 10^12 would too; one line each, exit 2, no database."""
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    db = tmp_path / "x.sqlite"
    cores = len(os.sched_getaffinity(0))
    for option, value, message in [
            ("--repeat", "100000000000000", "--repeat 100000000000000: out of range: a whole number from 1 to 1000"),
            ("--jobs", str(10 ** 12), f"--jobs {10 ** 12}: out of range: a whole number from 1 to 2^31-1"),
            ("--jobs", str(10 ** 5), f"--jobs {10 ** 5}: at most {8 * cores} here (8 worker processes a core, "
                                     f"{cores} cores)")]:
        code, err = run_cli(["bench", str(path), "--solvers", "mrv", option, value, "--quiet", "--db", str(db)],
                            capsys)
        assert (code, err) == (2, f"puzzlebench: error: {message}\n")
    assert not db.exists()


def test_unimportable_extra_engine_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    code, err = run_cli(["bench", str(path), "--solver", "ghost", "--engine", "ghost=tests.nowhere:Ghost",
                         "--db", str(tmp_path / "x.sqlite")], capsys)
    assert code == 2
    assert err == ("puzzlebench: error: engine ghost=tests.nowhere:Ghost: cannot import: "
                   "No module named 'tests.nowhere'\n")
    code, err = run_cli(["bench", str(path), "--solver", "ghost", "--engine", "ghost=os:path",
                         "--db", str(tmp_path / "x.sqlite")], capsys)
    assert (code, err) == (2, "puzzlebench: error: engine ghost=os:path: path is not an engine class "
                              "(a subclass of puzzlebench.engines.base.Engine)\n")   # was a traceback


@pytest.mark.parametrize("engine, solvers, message", [
    ("x=puzzlebench.engines.base:Engine", "x",   # a TypeError traceback when the bench built it
     "engine x=puzzlebench.engines.base:Engine: Engine is abstract (no search): not an engine to run"),
    ("=puzzlebench.engines.mrv:MrvEngine", "mrv",   # taken with no name
     "--engine '=puzzlebench.engines.mrv:MrvEngine': NAME is what --solvers calls it: a letter, then "
     "letters, digits, '_', '-' or '+'; got ''"),
    ("x:y=puzzlebench.engines.mrv:MrvEngine", "x:y",   # then 'unknown solver x'
     "--engine 'x:y=puzzlebench.engines.mrv:MrvEngine': NAME is what --solvers calls it: a letter, then "
     "letters, digits, '_', '-' or '+'; got 'x:y'"),
    ("mrv=puzzlebench.engines.dlx:DlxEngine", "mrv",   # dlx's results were stored as mrv's
     "--engine 'mrv=puzzlebench.engines.dlx:DlxEngine': mrv is a built-in engine's name; call the class another"),
    ("x=puzzlebench.engines.mrv:MrvEngine", None,   # the known solvers listed left x out
     "no solvers: give --solvers a,b,c or --solver SPEC; known: " + ", ".join(sorted({*registry.FAMILIES, "x"}))),
])
def test_a_bad_extra_engine_is_one_line_and_runs_nothing(tmp_path, capsys, engine, solvers, message):
    path = tmp_path / "p.txt"
    path.write_text("..13....2.4.....\n")
    db = tmp_path / "x.sqlite"
    code, err = run_cli(["bench", str(path), *(["--solvers", solvers] if solvers else []), "--engine", engine,
                         "--db", str(db), "--quiet"], capsys)
    assert (code, err) == (2, f"puzzlebench: error: {message}\n")
    assert not db.exists()


# -- samples, progress, and the cross-check in SQLite ---------------------------------------------

def test_sample_is_reproducible_and_in_file_order(small_sudokus):
    items = from_puzzles("s", small_sudokus * 5)
    one = [i.line for i in sample(items, 6, seed=2)]
    assert one == [i.line for i in sample(items, 6, seed=2)] and one == sorted(one) and len(one) == 6
    assert one != [i.line for i in sample(items, 6, seed=3)]


def test_progress_line_counts_per_solver():
    import io
    from puzzlebench.harness.progress import Progress
    quiet = Progress(4, ["a", "b"], io.StringIO())
    assert not quiet.enabled  # not a terminal: silent
    quiet.update("a", "unique")
    quiet.update("a", "timeout")
    quiet.update("b", "error")
    line = quiet.line(now=quiet.started + 3.0)
    assert line.startswith("[###############.....] 3/4  75% ETA 0:00:01 | ")
    assert line.endswith("| a 2 T1 E0 | b 1 T0 E1")


def test_crosscheck_in_sqlite_finds_what_the_python_one_finds(tmp_path):
    from puzzlebench.harness.crosscheck import crosscheck_db
    db = Database(tmp_path / "c.sqlite")
    run = db.start_run(command="test", seed=None, settings={}, engines={})
    answers = [("s:1", "a", "unique", 1), ("s:1", "b", "unique", 1), ("s:1", "c", "unsat", 0),
               ("s:2", "a", "multiple", 2), ("s:2", "b", "timeout", 0), ("s:2", "c", "unique", 1),
               ("s:3", "a", "error", 0), ("s:3", "b", "unique", 1)]
    db.write(run, [({"puzzle_hash": "h", "set_name": "s", "line": int(pid[2:]), "kind": "sudoku",
                     "shape": "4x4", "solver": solver, "limit": 2, "time_limit": 1.0},
                    (0, status, count) + (0.0,) * 5 + (None,) * 8 + (None, False, False))
                   for pid, solver, status, count in answers])
    in_python = crosscheck(db.results())
    in_sql = crosscheck_db(db.conn, 2, ["s"], ["a", "b", "c"])
    assert sorted(map(str, in_sql)) == sorted(map(str, in_python)) == [
        "s:1 (limit 2): a says unique count=1, c says unsat count=0",
        "s:1 (limit 2): b says unique count=1, c says unsat count=0",
        "s:2 (limit 2): a says multiple count=2, c says unique count=1"]


# -- the native bulk checker: a twin of Sudoku.check ---------------------------------------------

BOXES = [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (5, 5), (8, 8)]


@st.composite
def sudoku_answers(draw):
    """A block shape, a right answer (a random grid), givens drawn from it, and a tampered
    copy: some cells changed to any byte (0, out of range, or a value breaking a unit)."""
    box = draw(st.sampled_from(BOXES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    grid = pattern_sudoku_grid(box, rng)
    givens = tuple(v if rng.random() < 0.3 else 0 for v in grid)
    tampered = list(grid)
    for _ in range(draw(st.integers(1, 3))):
        tampered[rng.randrange(len(grid))] = draw(st.integers(0, 255))
    return box, grid, givens, tampered


@settings(max_examples=150, deadline=None)
@given(sudoku_answers())
def test_native_bulk_check_agrees_with_the_checker(case):
    box, grid, givens, tampered = case
    puzzle = Sudoku(box, givens)
    answers = [list(grid), tampered, [v if g == 0 else g for v, g in zip(tampered, givens)]]
    flags = SudokuBatch.of([puzzle] * len(answers)).answers_right(b"".join(bytes(a) for a in answers))
    expected = [puzzle.check(tuple(a)) == [] for a in answers]
    assert list(flags) == [int(e) for e in expected]
    assert flags[0] == 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=6, unique=True).flatmap(
    lambda names: st.tuples(st.just(names), st.lists(
        st.lists(st.integers(-2**63, 2**63 - 1), min_size=len(names), max_size=len(names)), max_size=5))))
def test_json_of_counters_is_what_json_dumps_writes(case):
    """The raw counters' JSON, written in bulk from one template, reads back as the same dicts
    and is the text json.dumps writes (any key: quotes, backslashes, %, non-ASCII; any 64-bit int)."""
    from puzzlebench.harness.runner import json_objects
    names, rows = case
    texts = json_objects(names, [v for row in rows for v in row])
    assert texts == [json.dumps(dict(zip(names, row)), separators=(",", ":")) for row in rows]
    assert [json.loads(t) for t in texts] == [dict(zip(names, row)) for row in rows]


def test_a_puzzle_slice_reads_as_its_part_of_the_list_and_travels_as_it():
    import pickle
    from puzzlebench.harness.runner import PuzzleSlice
    source = list("abcdefgh")
    part = PuzzleSlice(source, 2, 6)
    assert (len(part), list(part), part[0], part[-1], part[1:3]) == (4, list("cdef"), "c", "f", ["d", "e"])
    assert part == list("cdef") and part != list("cde")
    with pytest.raises(IndexError):
        part[4]
    assert pickle.loads(pickle.dumps(part)) == list("cdef")
    big = [f"puzzle {k}" for k in range(1000)]
    assert len(pickle.dumps(PuzzleSlice(big, 10, 12))) < len(pickle.dumps(big[10:12])) + 40  # not the whole list


def test_native_bulk_checks_refuse_malformed_arguments():
    from puzzlebench._native import sudoku_answers_right, sudoku_givens_right
    with pytest.raises(ValueError, match="solutions .15 values. and givens .16 values. are not the same "
                                         "whole number of 16-cell puzzles"):
        sudoku_answers_right(2, 2, bytes(15), bytes(16))
    with pytest.raises(ValueError, match="givens: 15 values, not a whole number of 16-cell puzzles"):
        sudoku_givens_right(2, 2, bytes(15))
    for rows, cols in ((9, 9), (0, 3), (10**6, 10**6), (-8, -8)):   # checked before multiplying
        with pytest.raises(ValueError, match=f"block shape {rows}x{cols}: 1 to 64 values"):
            sudoku_answers_right(rows, cols, b"", b"")
        with pytest.raises(ValueError, match=f"block shape {rows}x{cols}: 1 to 64 values"):
            sudoku_givens_right(rows, cols, b"")
    with pytest.raises(TypeError):
        sudoku_answers_right(2, 2, bytes(16), [0] * 16)
    assert sudoku_answers_right(2, 2, b"", b"") == sudoku_givens_right(2, 2, b"") == b""
    assert sudoku_givens_right(2, 2, bytes([1, 1] + [0] * 14) + bytes(16) + bytes([5] + [0] * 15)) == b"\x00\x01\x00"


def test_task_facts_of_any_batch(small_sudokus):
    """A batch's facts come from the task ids whatever their order: a planned unit (a run of
    ids), a retried remainder (ids out of order), a block of some puzzles only (a solver that
    skips a kind, or a resumed bench), two solvers in one batch."""
    from puzzlebench.harness.bench import _TaskTable
    from puzzlebench.harness.runner import RowBatch
    items = from_puzzles("four", (small_sudokus * 2)[:6])
    tasks = _TaskTable(items)
    first_a = tasks.add_solver("a", range(6))
    first_b = tasks.add_solver("b", [5, 1, 3])
    assert (first_a, first_b, len(tasks)) == (0, 6, 9)

    def facts(ids):
        batch = RowBatch(ids, {"status": ["unique"] * len(ids), "t_parse": [0.0] * len(ids),
                               "t_total": [1.0] * len(ids)})
        columns, shared = tasks.columns_of(batch)
        solvers = columns.get("solver", [shared.get("solver")] * len(ids))
        return [(f"four:{line}", solver) for line, solver in zip(columns["line"], solvers)], shared, columns

    assert facts(range(2, 5))[0] == [("four:3", "a"), ("four:4", "a"), ("four:5", "a")]
    assert facts([4, 2])[0] == [("four:5", "a"), ("four:3", "a")]
    assert facts(range(6, 9))[0] == [("four:6", "b"), ("four:2", "b"), ("four:4", "b")]
    assert facts([7])[0] == [("four:2", "b")]
    mixed, shared, columns = facts([5, 6])
    assert mixed == [("four:6", "a"), ("four:6", "b")] and "solver" not in shared
    assert shared["set_name"] == "four" and "set_name" not in columns
    assert columns["t_total"] == [1.0 + items[5].parse_time] * 2


def _children_of(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_workers_end_when_the_bench_is_killed(tmp_path):
    """SIGKILL of the bench alone (not its process group): its workers end within seconds
    (they stayed, blocked on their pipes and holding the database, for minutes)."""
    cmd, db = slow_bench(tmp_path, "k.sqlite")
    proc = subprocess.Popen(cmd, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.05)
            workers = _children_of(proc.pid)
        assert len(workers) >= 2, "the bench should have started its workers"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers), "a worker outlived its bench"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.slow
def test_a_second_bench_on_one_database_is_refused_while_the_first_runs(tmp_path):
    """Two benches at once on one --db would each store the pairs both run (190 current rows
    for a 95-puzzle set): the second one refuses, naming the first, and stores nothing; the
    first ends with one current result a pair.  The first is held still (SIGSTOP) while the
    second runs, so that it cannot end first on a loaded machine; it holds its lock all along."""
    cmd, db = slow_bench(tmp_path, "c.sqlite", count=80)
    first = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (db.exists() and Path(f"{db}.lock").exists()):
            time.sleep(0.05)
        first.send_signal(signal.SIGSTOP)
        second = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
        assert first.poll() is None, "the first bench should still be running"
        assert second.returncode == 2
        assert second.stderr.startswith(f"puzzlebench: error: {db} is in use by another bench (pid {first.pid}, ")
        assert second.stderr.rstrip().endswith("wait for it to end, or give another --db")
    finally:
        first.send_signal(signal.SIGCONT)
        first.wait(timeout=120)
    assert first.returncode == 0, first.stderr.read()
    rows = _db_rows(db)
    assert len(rows) == 80 and len({(r[0], r[1]) for r in rows}) == 80
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)
    again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr    # the lock went with the first bench


def test_a_bench_removes_its_lock_file_as_it_ends(tmp_path, capsys):
    """``DB.lock`` stayed beside every database."""
    db = tmp_path / "l.sqlite"
    assert main(["bench", "--solvers", "mrv", "--db", str(db), "--quiet"]) in (0, 1)
    assert db.exists() and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("l.sqlite")) == ["l.sqlite"]


def test_the_bench_lock_is_held_by_one_and_taken_again_once_released(tmp_path):
    from puzzlebench.harness.database import BenchLock
    path = str(tmp_path / "x.sqlite")
    first = BenchLock(path)
    stale = open(f"{path}.lock")      # opened before the release: a bench that came too late
    with pytest.raises(UsageError, match="is in use by another bench"):
        BenchLock(path)
    first.release()
    assert not Path(f"{path}.lock").exists()
    fcntl.flock(stale, fcntl.LOCK_EX | fcntl.LOCK_NB)   # the removed file's lock holds nothing now
    second = BenchLock(path)                            # the file at the path is a new one
    assert os.stat(f"{path}.lock").st_ino != os.fstat(stale.fileno()).st_ino
    with pytest.raises(UsageError, match="is in use by another bench"):
        BenchLock(path)
    second.release()
    stale.close()


@pytest.mark.slow
def test_a_bench_interrupted_before_its_first_result_leaves_no_database(tmp_path):
    """A database the bench made is removed when nothing was stored in it (it held one run
    and no result); one that existed before is kept."""
    path = tmp_path / "p.txt"
    path.write_text(examples.example("arto-inkala").write() + "\n")
    db = tmp_path / "i.sqlite"
    cmd = [sys.executable, "-m", "puzzlebench.cli", "bench", str(path), "--solvers", "hang", "--engine",
           f"hang={BROKEN['hang']}", "--db", str(db), "--jobs", "1", "--time-limit", "120", "--quiet"]
    proc = subprocess.Popen(cmd, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not db.exists():
            time.sleep(0.05)
        assert db.exists()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130 and err.endswith("puzzlebench: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]


@pytest.mark.slow
def test_a_ctrl_c_ends_a_bench_without_waiting_for_its_busy_workers(tmp_path):
    """At a Ctrl-C every worker is in a unit: asked to stop, each would read the request only
    after it, and the bench waited a second for each before it killed it (2.1 s after the
    SIGINT with --jobs 2).  Busy workers are killed at once, however many there are."""
    jobs = 10
    path = tmp_path / "p.txt"
    path.write_text((examples.example("arto-inkala").write() + "\n") * jobs)
    cmd = [sys.executable, "-m", "puzzlebench.cli", "bench", str(path), "--solvers", "hang", "--engine",
           f"hang={BROKEN['hang']}", "--db", str(tmp_path / "h.sqlite"), "--jobs", str(jobs),
           "--time-limit", "600", "--quiet"]
    proc = subprocess.Popen(cmd, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(_children(proc.pid)) < jobs:
            time.sleep(0.05)
        assert len(_children(proc.pid)) >= jobs, "the bench never started its workers"
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        _, err = proc.communicate(timeout=60)
        stopped = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130 and err.endswith("puzzlebench: interrupted\n")
    assert stopped < 5.0, f"{stopped:.1f} s from the Ctrl-C to the exit"   # a second a worker: 10 s


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


@pytest.mark.slow
def test_resume_runs_again_what_was_stored_under_another_time_limit(tmp_path):
    path = tmp_path / "hard.txt"
    path.write_text(examples.example("norvig-hardest").write() + "\n")
    db = tmp_path / "r.sqlite"
    base = ["bench", str(path), "--solvers", "backtrack", "--db", str(db), "--jobs", "1", "--quiet"]
    assert main(base + ["--time-limit", "0.05"]) in (0, 1)
    assert [r[3] for r in _db_rows(db)] == ["timeout"]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(base + ["--time-limit", "60", "--resume"]) == 0
    assert "puzzlebench: 1 result stored under another time limit (0.05 s) run again at 60 s\n" in err.getvalue()
    assert [(r[2], r[3]) for r in _db_rows(db)] == [(2, "unique")]
    with sqlite3.connect(db) as conn:   # the timeout stays in the log, replaced by run 2
        assert conn.execute("SELECT status, replaced_by FROM result_log ORDER BY id").fetchall() == [
            ("timeout", 2), ("unique", None)]
    assert main(base + ["--time-limit", "60", "--resume"]) == 0     # the same limit: nothing to run again
    assert [(r[2], r[3]) for r in _db_rows(db)] == [(2, "unique")]


def test_a_line_that_is_not_text_stops_no_other_puzzle_of_a_bench(tmp_path):
    path = tmp_path / "mixed.txt"
    good = examples.example("arto-inkala").write()
    path.write_bytes(good.encode() + b"\n\xff\xfe" + b"." * 79 + b"\n" + good.encode() + b"\n")
    items = read_file(str(path))
    assert [i.puzzle is not None for i in items] == [True, False, True]
    assert str(items[1].error).startswith("mixed.txt:2:1: byte 0xff is not UTF-8 text")


@pytest.mark.slow
def test_a_worker_that_dies_between_two_polls_loses_no_row_and_no_time_limit(tmp_path):
    """The worker dies while the bench's consumer is busy, so the next unit is handed out
    before the death is seen.  It was once replaced on the spot, its units left to the new
    worker: the dead unit's row was lost and the hanging unit after it was never timed out."""
    puzzles = list(generate("sudoku", 3, seed=4, box=(2, 2)))
    engines = {n: BROKEN[n] for n in ("sigkill", "hang")}
    plan = [("mrv", 0), ("sigkill", 1), ("mrv", 2), ("hang", 3), ("mrv", 4)]
    units = [WorkUnit(solver, [tid], [puzzles[tid % 3]], limit=2, time_limit=0.3, engines=engines)
             for solver, tid in plan]
    executor = LocalExecutor(1, grace=0.3)
    status = {}

    def consume():
        for batch in executor.execute(iter(units)):
            for tid, text in zip(batch.task_ids, batch.column("status")):
                assert tid not in status, f"task {tid} answered twice"
                status[tid] = text
            time.sleep(0.3)  # the sigkill worker dies meanwhile, before the executor looks again

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    consumer.join(30)
    if consumer.is_alive():
        executor.close()
        pytest.fail(f"the bench hung with answers for {sorted(status)} only")
    assert status == {0: "unique", 1: "error", 2: "unique", 3: "timeout", 4: "unique"}
