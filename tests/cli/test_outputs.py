"""What the commands write: never over one of their own inputs (by any name), a file whole or
not at all (the old one kept, no temporary left), and a failed write in one line with exit 1
(a full disk, ``/dev/full`` as standard output or as ``--out``); a reader that stops reading
(``| head -1``) ends the command quietly, with the exit code of a tool killed by SIGPIPE."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import INKALA, data_file
from puzzlebench.outputs import open_output

EASY = "3.4.8..5.7...1...38....26....91..3.54.53.79.26.8..97....74....65...9...8.4..7.5.9"
FULL = "No space left on device"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("outputs")
    (folder / "p.txt").write_text(f"{EASY}\n{INKALA}\n")
    db = folder / "r.sqlite"
    from puzzlebench.cli import main
    assert main(["bench", str(folder / "p.txt"), "--db", str(db), "--solvers", "bitboard", "--quiet"]) == 0
    return db


@pytest.fixture
def db(database, tmp_path) -> Path:
    """A copy of the database in this test's folder, beside nothing else."""
    copy = tmp_path / "r.sqlite"
    copy.write_bytes(database.read_bytes())
    return copy


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` (a temporary left behind included) and its bytes, but for the
    ``-wal`` and ``-shm`` files SQLite makes beside a database it reads."""
    return {p.name: (p.read_bytes() if p.is_file() else b"") for p in sorted(folder.iterdir())
            if not p.name.endswith(("-wal", "-shm"))}


def _command(*args: str, stdout=subprocess.PIPE, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlebench", *args], stdout=stdout, stderr=subprocess.PIPE,
                          timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, **kwargs)


# -- write errors ----------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["solve", "{top95}", "--format", "jsonl"],
    ["report", "--db", "{db}"],
    ["generate", "sudoku", "--count", "2", "--quiet"],
    ["solvers"],
])
def test_dev_full_as_standard_output_is_one_line_and_exit_1(argv, db):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    names = {"db": db, "top95": data_file("sudoku9_norvig_top95.txt") if "{top95}" in argv else ""}
    with open("/dev/full", "w") as full:
        done = _command(*[a.format(**names) for a in argv], stdout=full)
    assert (done.returncode, done.stderr.decode()) == (1, f"puzzlebench: cannot write standard output: {FULL}\n")


@pytest.mark.slow
def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path):
    """``puzzlebench solve big.txt | head -1``: no message, and the exit code a shell gives a
    tool killed by SIGPIPE (128 + 13), as ``cat big.txt | head -1`` gives."""
    big = tmp_path / "big.txt"
    big.write_text(f"{EASY}\n" * 5000)   # answers far beyond a pipe's buffer
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench", "solve", str(big)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    first = proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=300) == 128 + signal.SIGPIPE
    assert (first.decode().split()[1], proc.stderr.read()) == ("unique", b"")
    proc.stderr.close()


# -- whole files -----------------------------------------------------------------------------------

def test_a_block_that_fails_leaves_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    with pytest.raises(ValueError):
        with open_output(str(out), "--out") as stream:
            stream.write("half of the new\n")
            raise ValueError("the command failed half way")
    assert files_in(tmp_path) == {"out.txt": b"old\n"}
    with pytest.raises(ValueError):
        with open_output(str(tmp_path / "new.txt"), "--out") as stream:
            stream.write("half\n")
            raise ValueError
    assert files_in(tmp_path) == {"out.txt": b"old\n"}
