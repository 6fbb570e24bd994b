"""What the commands write: never over one of their own inputs (by any name), a file whole or
not at all (the old one kept, no temporary left), and a failed write in one line with exit 1
(a full disk, ``/dev/full`` as standard output or as ``--out``); a reader that stops reading
(``| head -1``) ends the command quietly, with the exit code of a tool killed by SIGPIPE."""

import os
import re
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import INKALA, data_file, run
from puzzlebench.outputs import open_output

EASY = "3.4.8..5.7...1...38....26....91..3.54.53.79.26.8..97....74....65...9...8.4..7.5.9"
FULL = "No space left on device"
TOO_LARGE = "File too large"   # a write past RLIMIT_FSIZE, SIGXFSZ ignored: a full disk's failure


def refused(option: str, out, given) -> str:
    return (f"puzzlebench: error: {option} {out}: that file is an input of this command ({given}); "
            f"name another output\n")


@pytest.fixture
def puzzles(tmp_path) -> Path:
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n{INKALA}\n")
    return path


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


# -- an output that is an input --------------------------------------------------------------------

def test_report_raw_refuses_its_own_database_by_any_name(db, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link").symlink_to("r.sqlite")
    os.link(db, tmp_path / "hard")
    before = files_in(tmp_path)
    for out, given in [("r.sqlite", "r.sqlite"), ("./r.sqlite", "r.sqlite"), (str(db), "r.sqlite"),
                       ("link", "r.sqlite"), ("hard", "r.sqlite"),
                       ("r.sqlite-wal", "r.sqlite-wal"), ("r.sqlite-shm", "r.sqlite-shm"),
                       ("r.sqlite.lock", "r.sqlite.lock")]:
        assert run(capsys, "report", "--db", "r.sqlite", "--raw", "--out", out) == (
            2, "", refused("--out", out, given))
        assert files_in(tmp_path) == before
    os.unlink(tmp_path / "hard")   # a database of two hard links is read by no command
    assert run(capsys, "report", "--db", "r.sqlite", "--raw", "--out", "rows.csv")[0] == 0   # another name: written


@pytest.mark.parametrize("fmt, name", [("md", "summary.md"), ("csv", "summary.csv"), ("html", "index.html")])
def test_report_to_a_folder_refuses_a_file_of_its_database_before_printing(db, tmp_path, capsys, fmt, name):
    """A database that bears the name of the folder's first file: refused before the table is
    printed, and nothing of the folder's written."""
    inside = tmp_path / "site" / name
    inside.parent.mkdir()
    db.rename(inside)
    before = files_in(inside.parent)
    assert run(capsys, "report", "--db", str(inside), "--format", fmt, "--out", str(inside.parent)) == (
        2, "", refused("--out", inside, inside))
    assert files_in(inside.parent) == before


def test_report_compare_refuses_either_database(db, tmp_path, capsys):
    other = tmp_path / "b.sqlite"
    other.write_bytes(db.read_bytes())
    folder = tmp_path / "cmp"
    folder.mkdir()
    (folder / "compare.md").symlink_to(other)
    assert run(capsys, "report", "--compare", str(db), str(other), "--out", str(folder)) == (
        2, "", refused("--out", folder / "compare.md", other))


def test_export_refuses_its_puzzle_file(puzzles, tmp_path, capsys):
    before = files_in(tmp_path)
    assert run(capsys, "export", str(puzzles), "--to", "dimacs", "-o", str(puzzles)) == (
        2, "", refused("-o", puzzles, puzzles))
    (tmp_path / "same").symlink_to(puzzles)
    assert run(capsys, "export", str(puzzles), "--to", "dimacs", "-o", str(tmp_path / "same")) == (
        2, "", refused("-o", tmp_path / "same", puzzles))
    assert files_in(tmp_path) == {**before, "same": puzzles.read_bytes()}


@pytest.mark.slow
def test_export_refuses_the_file_standard_input_reads(puzzles, tmp_path):
    with open(puzzles, "rb") as stdin:
        done = _command("export", "-", "--to", "dimacs", "-o", str(puzzles), stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr.decode()) == (2, b"", refused("-o", puzzles, "standard input"))
    assert puzzles.read_text() == f"{EASY}\n{INKALA}\n"


@pytest.mark.parametrize("argv", [
    ["show", "{p}", "--format", "html", "--out", "{p}"],
    ["rate", "{p}", "--format", "html", "--out", "{p}"],
    ["bench", "{p}", "--db", "{p}", "--solvers", "bitboard", "--quiet"],
])
def test_a_command_refuses_to_write_over_its_puzzle_file(argv, puzzles, tmp_path, capsys):
    before = files_in(tmp_path)
    argv = [a.format(p=puzzles) for a in argv]
    option = argv[argv.index(str(puzzles), 2) - 1]
    assert run(capsys, *argv) == (2, "", refused(option, puzzles, puzzles))
    assert files_in(tmp_path) == before


def test_rate_fit_refuses_its_data_file(tmp_path, capsys):
    data = tmp_path / "d.txt"
    data.write_text(f"{EASY} 3\n{INKALA} 9\n")
    assert run(capsys, "rate", "--fit", str(data), "--labels", "2", "--out", str(data)) == (
        2, "", refused("--out", data, data))
    assert data.read_text() == f"{EASY} 3\n{INKALA} 9\n"


def test_a_campaign_refuses_a_database_that_is_one_of_its_sets(puzzles, tmp_path, capsys):
    campaign = tmp_path / "c.toml"
    campaign.write_text(f'db = "p.txt"\nsolvers = ["bitboard"]\n\n[[set]]\nfile = "p.txt"\n')
    assert run(capsys, "bench", "--campaign", str(campaign), "--quiet") == (2, "", refused("db", puzzles, puzzles))
    assert puzzles.read_text() == f"{EASY}\n{INKALA}\n"


# -- write errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["generate", "sudoku", "--count", "1", "--quiet", "--out", "/dev/full"],
    ["export", "--example", "killer", "--to", "dimacs", "-o", "/dev/full"],
    ["show", "--example", "killer", "--format", "html", "--out", "/dev/full"],
    ["report", "--db", "{db}", "--raw", "--out", "/dev/full"],
])
def test_out_dev_full_is_one_line_and_exit_1(argv, db, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    assert run(capsys, *[a.format(db=db) for a in argv]) == (1, "", f"puzzlebench: cannot write /dev/full: {FULL}\n")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)   # written in place, not replaced by a file


def test_a_device_named_as_out_is_written_not_replaced(capsys):
    assert run(capsys, "generate", "sudoku", "--count", "1", "--quiet", "--out", os.devnull)[0] == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def _fsize_limited(limit: int):
    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limited


FULL_DISK = [
    (["generate", "sudoku", "--count", "20", "--quiet", "--out", "{out}"], "{out}"),
    (["report", "--db", "{db}", "--raw", "--out", "{out}"], "{out}"),
    (["report", "--db", "{db}", "--raw", "--format", "jsonl", "--out", "{out}"], "{out}"),
    (["export", "{p}", "--to", "dimacs", "-o", "{out}"], "{out}"),
    (["show", "{p}", "--format", "html", "--out", "{out}"], "{out}"),
    # the page's figures are drawn through a temporary folder of the system's first: one of them
    # may be the first write to fail
    (["report", "--db", "{db}", "--format", "html", "--out", "{folder}/site"], None),
]


@pytest.mark.slow
@pytest.mark.parametrize("argv, where", FULL_DISK)
def test_a_full_disk_keeps_the_old_file_and_leaves_no_temporary(argv, where, db, puzzles, tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    names = {"out": out, "db": db, "p": puzzles, "folder": tmp_path}
    before = files_in(tmp_path)
    done = _command(*[a.format(**names) for a in argv], preexec_fn=_fsize_limited(300))
    assert done.returncode == 1
    path = re.escape(where.format(**names)) if where else r"\S+"
    assert re.fullmatch(f"puzzlebench: cannot write {path}: {TOO_LARGE}\n", done.stderr.decode())
    after = files_in(tmp_path)
    site = tmp_path / "site"
    if site.exists():   # the page's folder is made; it holds no file, nor a temporary
        assert [p for p in site.rglob("*") if p.is_file()] == []
        after.pop("site")
    assert after == before


@pytest.mark.slow
def test_a_full_disk_under_parquet_keeps_the_old_file(db, tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "rows.parquet"
    out.write_bytes(b"old")
    before = files_in(tmp_path)
    done = _command("report", "--db", str(db), "--raw", "--format", "parquet", "--out", str(out),
                    preexec_fn=_fsize_limited(300))
    assert (done.returncode, done.stderr.decode()) == (1, f"puzzlebench: cannot write {out}: {TOO_LARGE}\n")
    assert files_in(tmp_path) == before


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

def test_a_replaced_file_keeps_its_permissions_and_a_link_is_written_through(tmp_path, capsys):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    (tmp_path / "link.txt").symlink_to("real.txt")
    assert run(capsys, "generate", "sudoku", "--count", "2", "--quiet", "--out", str(tmp_path / "link.txt"))[0] == 0
    assert (tmp_path / "link.txt").is_symlink() and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert len(target.read_text().splitlines()) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


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


@pytest.mark.slow
def test_ctrl_c_keeps_the_puzzles_generate_finished(tmp_path):
    """A stream of whole records: the puzzles written before a Ctrl-C are kept, whole, as the
    commands keep the answers printed before it."""
    out = tmp_path / "g.txt"
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench", "generate", "sudoku", "--count", "100000",
                             "--quiet", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        started = time.monotonic()
        while not any(len(p.read_text().splitlines()) >= 3 for p in tmp_path.glob(".g.txt.*")):
            if proc.poll() is not None or time.monotonic() - started > 120:
                proc.kill()
                pytest.fail(f"no puzzle written to a temporary beside {out}: {proc.communicate()[1].decode()}")
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()   # no generator left running when the test fails
    assert (proc.stdout.read(), proc.stderr.read()) == (b"", b"puzzlebench: interrupted\n")
    lines = out.read_text().splitlines()
    assert len(lines) >= 3 and all(len(line) == 81 + 1 + 81 for line in lines)
    assert [p.name for p in tmp_path.iterdir()] == ["g.txt"]
    proc.stdout.close()
    proc.stderr.close()
