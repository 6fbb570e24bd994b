"""How the puzzle commands read their input and say what went wrong: every source used, each
error once on standard error with its place, one exit-code rule, standard input answered
puzzle by puzzle, answers in the input's own form."""

import json
import os
import resource
import select
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import INKALA, INKALA_SOLUTION, data_file, run
from puzzlebench.models.reader import read_puzzles


NOT_A_PUZZLE = "xx3"


def puzzlebench(*argv, **kw):
    return subprocess.run([sys.executable, "-m", "puzzlebench.cli", *argv], capture_output=True,
                          text=True, timeout=120, **kw)


# -- every source is used ----------------------------------------------------------------------

def test_an_example_and_a_file_are_both_solved(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(INKALA + "\n")
    code, out, _ = run(capsys, "solve", "--example", "knuth", str(f))
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("example:knuth: unique ") and lines[1].startswith(f"{f}:1: unique ")


def test_example_list_is_a_listing_on_standard_output(capsys):
    code, out, err = run(capsys, "solve", "--example", "list")
    assert code == 0 and err == ""
    assert "arto-inkala: sudoku 9x9 (3x3 blocks)" in out.splitlines()
    code, out, _ = run(capsys, "show", "--example", "list")
    assert code == 0 and "8-queens: nqueens 8-queens" in out


# -- errors: on stdout as records, on stderr once, with the place once ---------------------------

@pytest.mark.slow
def test_a_bad_record_is_reported_on_both_streams_with_its_place_once(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text(INKALA + "\n" + INKALA[:80] + "?\n")
    proc = puzzlebench("solve", str(f))
    bad = f"{f}:2:81: error: unexpected character '?': expected a value (1-9, A-Z) or an empty cell (. 0 _)"
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[1] == bad
    assert proc.stderr.splitlines() == [f"puzzlebench: {bad}",
                                        "puzzlebench: 2 puzzles: 1 error, 1 unique; "
                                        + proc.stderr.splitlines()[1].split("; ")[1]]
    jsonl = puzzlebench("solve", "--format", "jsonl", str(f))
    assert jsonl.returncode == 1 and jsonl.stderr.splitlines()[0] == f"puzzlebench: {bad}"
    assert json.loads(jsonl.stdout.splitlines()[1])["status"] == "error"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "check", "show", "rate"])
def test_one_exit_code_rule_for_every_command(capsys, tmp_path, command):
    bad = tmp_path / "bad.txt"
    bad.write_text(NOT_A_PUZZLE + "\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(f"{INKALA} {INKALA_SOLUTION}\n{NOT_A_PUZZLE}\n")
    assert run(capsys, command, str(bad))[0] == 2        # nothing usable
    code, _, err = run(capsys, command, str(empty))
    assert code == 2 and f"puzzlebench: {empty}: error: empty input: no puzzle found" in err
    assert run(capsys, command, str(mixed))[0] == 1      # some records failed, the rest ran


@pytest.mark.slow
def test_rate_reads_every_form_solve_reads(capsys, tmp_path):
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(INKALA[i:i + 9] for i in range(0, 81, 9)) + "\n")
    code, out, _ = run(capsys, "rate", str(grid))
    assert code == 0 and out.startswith(f"{grid}:1: score ")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "count", "check", "show", "export --to dimacs"])   # rate takes one file
def test_standard_input_named_twice_is_a_usage_error(command):
    """The second '-' read a stream already at its end: an 'empty input' error, exit 1."""
    proc = subprocess.run([sys.executable, "-m", "puzzlebench.cli", *command.split(), "-", "-"], input="6\n",
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", "puzzlebench: error: - (standard input) is named twice: it can be read once\n")


def test_keep_must_not_be_negative(capsys):
    code, _, err = run(capsys, "solve", "--keep", "-1")
    assert code == 2 and err == "puzzlebench: error: --keep -1: out of range: a whole number from 1 to 2^31-1\n"
    code, _, err = run(capsys, "solve", "--keep", "0")   # a solved result keeps the solution it is verified by
    assert code == 2 and err == "puzzlebench: error: --keep 0: out of range: a whole number from 1 to 2^31-1\n"


@pytest.mark.parametrize("name, text, problem", [
    ("o.pls", "order -3\n", "1:7: error: a Latin square needs 1 <= N <= 64; got 'order -3'"),
    ("j.txt", "6j:1a3b6b5f3_1d5i4d,bb__a_a_aa_b_abdbbbbbcaac\n",
     "1:46: error: the region lines end one character short: after the grid's 60 edges comes a closing '_' "
     "(no place after the last line)"),
])
def test_a_mistake_is_named_for_what_it_is(capsys, tmp_path, name, text, problem):
    """A .pls header with a wrong order was read as a Sudoku line ("a Sudoku line has N²
    characters"); a jigsaw id one character short "covered 60 of the grid's 60 edges"."""
    f = tmp_path / name
    f.write_text(text)
    code, out, err = run(capsys, "solve", str(f))
    assert (code, out, err.splitlines()[0]) == (2, f"{f}:{problem}\n", f"puzzlebench: {f}:{problem}")


# -- standard input, puzzle by puzzle --------------------------------------------------------------

@pytest.mark.slow
def test_standard_input_is_answered_before_it_ends():
    """A puzzle written to a pipe that stays open is answered at once: the command does not
    wait for the end of its input."""
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench.cli", "solve", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for number in (1, 2):
            proc.stdin.write(INKALA + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no answer while the input is still open"
            assert proc.stdout.readline().startswith(f"<stdin>:{number}: unique count=1 ")
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0


def waiting_on_standard_input(pid: int) -> bool:
    """Whether the process sleeps in a call on its file descriptor 0 (``/proc/PID/syscall``:
    the call's number, then its first argument)."""
    with open(f"/proc/{pid}/syscall") as f:
        call = f.read().split()
    return len(call) > 1 and call[1] == "0x0"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve -", "solve-cnf -"])
@pytest.mark.parametrize("source", ["pipe", "terminal"])
def test_ctrl_c_ends_a_command_waiting_on_standard_input(command, source):
    """A Ctrl-C while a command waits for standard input that stays open (a pipe whose writer
    holds it, a terminal where nothing is typed) ends it at once: "interrupted", exit 130.
    (Started from a shell script as ``sleep 20 | puzzlebench solve - &``, a command has SIGINT
    ignored by the shell, as any program of an asynchronous list has: it then waits, as
    ``sleep`` would.)"""
    ends = os.openpty() if source == "terminal" else os.pipe()   # (master, its terminal) or (read, write)
    stdin = ends[1] if source == "terminal" else ends[0]
    child = subprocess.Popen([sys.executable, "-m", "puzzlebench", *command.split()], stdin=stdin,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        waited = time.monotonic()
        while not waiting_on_standard_input(child.pid):
            assert time.monotonic() - waited < 60 and child.poll() is None, "never came to read its input"
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=10)   # a hang guard: the input stays open meanwhile
    finally:
        child.kill()
        for end in ends:
            os.close(end)
    assert (child.returncode, err) == (130, "puzzlebench: interrupted\n")


def peak_kb_of(argv, stdin_path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(stdin_path) as stdin:
        proc = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    assert proc.returncode == 0, proc.stderr
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return peak if peak > before else None


@pytest.mark.slow
def test_memory_does_not_grow_with_the_input(tmp_path):
    """Ten times the puzzles in one stream: the same peak memory, within the noise of the
    interpreter (the whole input was held before; 2 GB for 40,000 puzzles)."""
    lines = data_file("sudoku9_royle_17clue_49158.txt").read_text().splitlines()
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    small.write_text("\n".join(lines[:2000]) + "\n")
    large.write_text("\n".join(lines[:20000]) + "\n")
    argv = [sys.executable, "-m", "puzzlebench.cli", "solve", "--solver", "bitboard", "--format", "jsonl", "-"]
    # each measurement in a child of its own: RUSAGE_CHILDREN is the largest child so far
    script = ("import resource, subprocess, sys; subprocess.run(sys.argv[2:], stdin=open(sys.argv[1]), "
              "stdout=subprocess.DEVNULL, check=True); "
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    peaks = [int(subprocess.run([sys.executable, "-c", script, str(path), *argv], capture_output=True,
                                text=True, timeout=300, check=True).stdout) for path in (small, large)]
    assert peaks[1] < peaks[0] + 30_000, f"peak resident KB: {peaks}"


# -- answers in the input's own form ----------------------------------------------------------------

def test_a_list_form_puzzle_is_answered_in_list_form(capsys, tmp_path):
    f = tmp_path / "lists.txt"
    f.write_text("[[1,0,0,0],[0,0,2,0],[0,3,0,0],[0,0,0,4]]\n[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,1]]\n")
    code, out, _ = run(capsys, "count", "--limit", "1", str(f))
    answers = [line[line.index("[["):] for line in out.splitlines()]
    assert code == 0 and len(answers) == 2
    assert answers[0] == "[[1, 2, 4, 3], [3, 4, 2, 1], [4, 3, 1, 2], [2, 1, 3, 4]]"
    assert answers[1].endswith(", 1]]")


def test_grids_in_a_file_of_grids_are_answered_as_grids(capsys, tmp_path):
    grid = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    f = tmp_path / "grids.txt"
    f.write_text(grid + "\n\n" + grid + "\n")
    code, out, _ = run(capsys, "solve", str(f))
    blocks = out.strip().split("\n\n")
    assert code == 0 and len(blocks) == 2
    for block, line in zip(blocks, (1, 11)):
        head, *rows = block.splitlines()
        assert head.startswith(f"{f}:{line}: unique ")
        assert "".join(ch for row in rows for ch in row if ch.isdigit()) == INKALA_SOLUTION
        assert rows[0] == "8 1 2 | 7 5 3 | 6 4 9"


# -- files of one-line puzzles whose count is a square --------------------------------------------

def test_eighty_one_sudoku_lines_are_eighty_one_puzzles():
    lines = data_file("sudoku9_royle_17clue_49158.txt").read_text().splitlines()[:81]
    items = list(read_puzzles("\n".join(lines) + "\n", "81.txt"))
    assert len(items) == 81 and all(i.shape == "9x9 (3x3 blocks)" for i in items)


def test_sixteen_four_by_four_lines_are_sixteen_puzzles():
    lines = [line.split()[0] for line in data_file("sudoku4_vu_kr_1000.txt").read_text().splitlines()[:16]]
    items = list(read_puzzles("\n".join(lines) + "\n", "16.txt"))
    assert len(items) == 16 and all(i.shape == "4x4 (2x2 blocks)" for i in items)


def test_a_stream_reads_as_the_whole_text_does():
    """Read a line at a time or as one text: the same records, the same places."""
    text = ("# a comment\n" + INKALA + "\n\n" + "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
            + "\n\n" + "\n".join([INKALA] * 300) + "\nxx3\n")
    whole = [str(i) if isinstance(i, Exception) else (i.source, i.givens) for i in read_puzzles(text, "t")]
    stream = [str(i) if isinstance(i, Exception) else (i.source, i.givens)
              for i in read_puzzles(iter(text.splitlines(keepends=True)), "t")]
    assert whole == stream and len(whole) == 303


LINES = st.lists(st.sampled_from([INKALA, INKALA[:80] + "?", "", "# note", "8", "8 (1,1)", "4 1,2,0,0 0,0,0,0 0,0,0,0 0,0,0,0",
                                  "1..4", "....", "53..7....", "---+---", "[[1,0],[0,0]]", "# size=4 box=2x2",
                                  "1234", "\x00x", "é"]), max_size=40)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(LINES)
def test_reading_line_by_line_gives_what_reading_the_whole_text_gives(lines):
    text = "\n".join(lines)
    def items(source):
        return [str(i) if isinstance(i, Exception) else (i.source, i.givens if hasattr(i, "givens") else i.write())
                for i in source]
    whole = items(read_puzzles(text, "t"))
    assert whole == items(read_puzzles(iter(text.splitlines(keepends=True)), "t"))
    assert whole and all(isinstance(i, (tuple, str)) for i in whole)
