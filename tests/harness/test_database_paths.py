"""One database, one lock, whatever path reaches it: a symbolic link, a relative and an
absolute path share the bench lock and SQLite's files; a file with two hard links is refused,
since SQLite keeps a journal beside each name and one bench's rows would vanish."""

from __future__ import annotations

import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import INKALA, REPO, data_lines
from puzzlebench.cli import main
from puzzlebench.errors import UsageError
from puzzlebench.harness.database import BenchLock

PUZZLES = 30          # of top95: mrv and dlx take about a second over them
SOLVERS = "mrv,dlx"


def _second_path(how: str, db: Path, monkeypatch) -> str:
    """Another path to ``db``: a symbolic link beside it, or its name relative to the current
    folder (the test's folder made current) when ``db`` was given absolute."""
    if how == "symlink":
        link = db.with_name("link.sqlite")
        link.symlink_to(db.name)
        return str(link)
    monkeypatch.chdir(db.parent)
    return db.name


@pytest.mark.parametrize("how", ["symlink", "relative"])
def test_every_path_to_one_database_meets_one_lock(tmp_path, monkeypatch, how):
    db = tmp_path / "al.sqlite"
    first = BenchLock(str(db))
    other = _second_path(how, db, monkeypatch)
    try:
        with pytest.raises(UsageError, match=f"^{other} is in use by another bench \\(pid {os.getpid()}, "):
            BenchLock(other)
    finally:
        first.release()
    second = BenchLock(other)   # released: the other path takes it, and the first path meets it
    try:
        with pytest.raises(UsageError, match="is in use by another bench"):
            BenchLock(str(db))
    finally:
        second.release()
    assert [p.name for p in tmp_path.iterdir()] == (["link.sqlite"] if how == "symlink" else [])


def test_a_bench_refused_through_a_link_removes_the_file_it_made_and_keeps_the_link(tmp_path, capsys):
    """A bench that made its database and stored nothing removes it: the file the link names
    (the bench removed the link and left the file behind it)."""
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link.sqlite"
    link.symlink_to(real / "al.sqlite")   # dangling: the bench makes the file behind it
    for name in ("a.txt", "b.txt"):       # one content twice: refused after the database is opened
        (tmp_path / name).write_text(INKALA + "\n")
    assert main(["bench", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--solvers", "mrv",
                 "--db", str(link), "--quiet"]) == 2
    assert capsys.readouterr().err.endswith("hold the same puzzles (one set): bench one of them\n")
    assert list(real.iterdir()) == [] and link.is_symlink()


def _hard_linked(tmp_path) -> tuple[Path, Path]:
    """A results database (a bench of Inkala's puzzle) and a second hard link to it."""
    puzzles = tmp_path / "inkala.txt"
    puzzles.write_text(INKALA + "\n")
    db = tmp_path / "al.sqlite"
    assert main(["bench", str(puzzles), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 0
    other = tmp_path / "al2.sqlite"
    os.link(db, other)
    return db, other


@pytest.mark.parametrize("command", [
    ["bench", "inkala.txt", "--solvers", "dlx", "--quiet", "--db"],
    ["report", "--db"],
    ["report", "--raw", "--db"],
    ["db", "list"],
])
def test_a_database_with_two_hard_links_is_refused(tmp_path, capsys, monkeypatch, command):
    db, other = _hard_linked(tmp_path)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    before = db.read_bytes()
    for path in (db, other):
        assert main([*command, str(path)]) == 2
        out, err = capsys.readouterr()
        assert err == (f"puzzlebench: error: {path} has 2 hard links: SQLite keeps a database's journal beside "
                       "the name it was opened by, so two names cannot share one database safely; copy the "
                       "file (cp) instead of linking it\n")
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["al.sqlite", "al2.sqlite", "inkala.txt"]   # no lock, no journal


def test_the_api_refuses_a_hard_linked_database(tmp_path):
    pytest.importorskip("pandas")
    import puzzlebench
    db, other = _hard_linked(tmp_path)
    with pytest.raises(UsageError, match=f"^{other} has 2 hard links: "):
        puzzlebench.load_results(other)


# -- two real benches, at once and in turn -----------------------------------------------------

def _bench_command(puzzles: Path, db: str) -> list[str]:
    return [sys.executable, "-m", "puzzlebench.cli", "bench", str(puzzles), "--solvers", SOLVERS,
            "--jobs", "1", "--db", db, "--quiet"]


def _named(lock: Path) -> bool:
    """Whether the bench lock ``lock`` names its holder yet."""
    try:
        return lock.read_text().startswith("pid ")
    except FileNotFoundError:
        return False


def _locked(lock: Path) -> bool:
    """Whether some process holds the bench lock ``lock`` (``flock``, as the bench takes it)."""
    try:
        with open(lock) as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(f, fcntl.LOCK_UN)
            return False
    except FileNotFoundError:
        return False


def _current_and_logged(db: Path) -> tuple[int, int, int]:
    """The ``results`` view's rows, its distinct (puzzle, solver) pairs, and the log's rows."""
    conn = sqlite3.connect(db)
    try:
        rows, pairs = conn.execute("SELECT count(*), count(DISTINCT puzzle_id || '|' || solver) FROM results"
                                   " WHERE solver != '(input)'").fetchone()
        logged = conn.execute("SELECT count(*) FROM result_log").fetchone()[0]
    finally:
        conn.close()
    return rows, pairs, logged


@pytest.mark.slow
@pytest.mark.parametrize("how", ["symlink", "relative"])
def test_two_benches_through_two_paths_neither_duplicate_nor_lose_a_row(tmp_path, monkeypatch, how):
    """A second bench through another path while the first runs is refused (it took a second
    lock and the view held 347 to 380 rows for 190 pairs); in turn, the second replaces the
    first's rows: one current row a pair, every row of both in the log."""
    puzzles = tmp_path / "top.txt"
    puzzles.write_text("\n".join(data_lines("sudoku9_norvig_top95.txt", PUZZLES)) + "\n")
    db = tmp_path / "al.sqlite"
    other = _second_path(how, db, monkeypatch)
    pairs = PUZZLES * len(SOLVERS.split(","))
    first = subprocess.Popen(_bench_command(puzzles, str(db)), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        deadline = time.monotonic() + 60
        lock = Path(f"{db}.lock")
        # locked, and its holder written (between the two a second bench reads "another process")
        while time.monotonic() < deadline and first.poll() is None and not (_locked(lock) and _named(lock)):
            time.sleep(0.005)
        first.send_signal(signal.SIGSTOP)   # held still while the second tries: it cannot end first
        assert first.poll() is None, "the first bench ended before the second could start"
        second = subprocess.run(_bench_command(puzzles, other), capture_output=True, text=True, timeout=120,
                                env={**os.environ, "PYTHONPATH": str(REPO)})
        assert second.returncode == 2, second.stderr
        assert second.stderr.startswith(f"puzzlebench: error: {other} is in use by another bench (pid {first.pid}, ")
    finally:
        first.send_signal(signal.SIGCONT)
        first.wait(timeout=120)
    assert first.returncode == 0, first.stderr.read()
    assert _current_and_logged(db) == (pairs, pairs, pairs)
    again = subprocess.run(_bench_command(puzzles, other), capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(REPO)})
    assert again.returncode == 0, again.stderr
    assert _current_and_logged(db) == (pairs, pairs, 2 * pairs)
    assert not Path(f"{db}.lock").exists()
