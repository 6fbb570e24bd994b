"""What SQLite says of a user's database file (read-only, locked by another program) is one
line naming the file, exit code 2, never a traceback: for bench, report, the db commands and
the API's load_results alike."""

from __future__ import annotations

import ctypes
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import INKALA, REPO
from puzzlebench.cli import main
from puzzlebench.harness import database

PR_CAPBSET_DROP = 24                        # prctl(2)
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_SETPCAP = 1, 2, 8   # capability.h


def _may_drop_capabilities() -> bool:
    with open("/proc/self/status") as f:
        effective = next(int(line.split()[1], 16) for line in f if line.startswith("CapEff:"))
    return bool(effective >> CAP_SETPCAP & 1)


def _without_override() -> None:
    """In the command's process before it starts: no right to write a file its mode forbids
    (root's ``CAP_DAC_OVERRIDE`` dropped; an ordinary user has none to drop)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def as_a_user(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    """``puzzlebench ARGV`` run as a user without the right to override a file's mode."""
    if os.geteuid() == 0 and not _may_drop_capabilities():
        pytest.skip("root without CAP_SETPCAP here: it cannot give up writing read-only files")
    preexec = _without_override if os.geteuid() == 0 else None
    return subprocess.run([sys.executable, "-m", "puzzlebench.cli", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=120, preexec_fn=preexec, env={**os.environ, "PYTHONPATH": str(REPO)})


@pytest.fixture()
def small_db(tmp_path) -> Path:
    puzzles = tmp_path / "inkala.txt"
    puzzles.write_text(INKALA + "\n")
    db = tmp_path / "r.sqlite"
    assert main(["bench", str(puzzles), "--solvers", "mrv,dlx", "--db", str(db), "--quiet"]) == 0
    return db


@pytest.mark.slow
def test_a_read_only_database_is_one_line_for_every_command_that_writes_it(small_db, tmp_path):
    """``chmod 444``: the commands that write the file refuse in one line naming it, nothing
    changed; those that read it still read it."""
    small_db.chmod(0o444)
    before = small_db.read_bytes()
    readonly = "attempt to write a readonly database"
    for argv, message in [
        (["db", "rm-set", "r.sqlite", "inkala.txt"], f"cannot write r.sqlite: {readonly}"),
        (["db", "rename-set", "r.sqlite", "inkala.txt", "other"], f"cannot write r.sqlite: {readonly}"),
        (["bench", "inkala.txt", "--solvers", "mrv", "--db", "r.sqlite", "--quiet"],
         f"cannot use r.sqlite as a results database: {readonly}"),
    ]:
        done = as_a_user(*argv, cwd=tmp_path)
        assert (done.returncode, done.stderr) == (2, f"puzzlebench: error: {message}\n"), argv
        assert small_db.read_bytes() == before
    for argv in (["db", "list", "r.sqlite"], ["report", "--db", "r.sqlite", "--format", "csv"]):
        done = as_a_user(*argv, cwd=tmp_path)
        assert done.returncode == 0 and "inkala.txt" in done.stdout, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("r.sqlite.")) == []   # no lock left


@pytest.mark.slow
def test_a_database_in_a_read_only_folder_is_read_and_refused_for_writing(small_db, tmp_path):
    """No ``-shm`` file can be made beside it: report and db list read it as immutable;
    rm-set says why it cannot write."""
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "r.sqlite").write_bytes(small_db.read_bytes())
    folder.chmod(0o555)
    try:
        for argv in (["db", "list", "r.sqlite"], ["report", "--db", "r.sqlite", "--format", "csv"]):
            done = as_a_user(*argv, cwd=folder)
            assert done.returncode == 0 and "inkala.txt" in done.stdout, done.stderr
        done = as_a_user("db", "rm-set", "r.sqlite", "inkala.txt", cwd=folder)
        assert (done.returncode, done.stderr) == (
            2, f"puzzlebench: error: cannot lock the database r.sqlite: Permission denied ({folder}/r.sqlite.lock)\n")
    finally:
        folder.chmod(0o755)
    assert sorted(p.name for p in folder.iterdir()) == ["r.sqlite"]


@pytest.mark.slow
def test_a_database_another_program_holds_locked_is_one_line(small_db, tmp_path, capsys, monkeypatch):
    """A database in SQLite's rollback mode under another program's exclusive lock: report,
    db list and load_results say so (report read it as immutable, through the lock), after
    the reader's wait for the lock (shortened here)."""
    monkeypatch.setattr(database, "LOCK_WAIT", 0.2)
    conn = sqlite3.connect(small_db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys\n"
        f"c = sqlite3.connect({str(small_db)!r}, isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        message = f"puzzlebench: error: cannot read {small_db} as a results database: database is locked\n"
        for argv in (["report", "--db", str(small_db)], ["db", "list", str(small_db)]):
            assert main(argv) == 2
            assert capsys.readouterr() == ("", message)
        pytest.importorskip("pandas")
        import puzzlebench
        from puzzlebench.errors import UsageError
        with pytest.raises(UsageError) as refused:
            puzzlebench.load_results(small_db)
        assert f"puzzlebench: error: {refused.value}\n" == message
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
