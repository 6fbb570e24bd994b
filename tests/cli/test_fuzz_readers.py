"""Every file reader, fed random and mutated bytes: a clean one-line error (exit 2) or a
correct answer, never a traceback, and memory bounded.  The seeds are real files the
exporters write (DIMACS, Knuth's exact-cover format, SMT-LIB2 in its three formulations) and
a solver's answer in both forms ``decode`` reads (SAT-competition ``s``/``v`` lines and
MiniSat's result file); the mutations cut, repeat, replace and insert bytes and lines, and put
huge numbers where counts stand.

Three levels: the reader functions against a simple reference reading of the same text (the
answer is the right one, not just any answer); the commands in-process (exit codes, one
error line); and a corpus of the worst of it through the command in a child process whose
address space is capped (``RLIMIT_AS``), where an allocation made from a header's claim
rather than from the file's content ends the process instead of passing unnoticed.  Streams
without end (``/dev/zero``, a pipe fed without end) go the same way: the one bound of what is
read, and one placed error line."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import resource
import subprocess
import sys
import textwrap
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.cli import main
from puzzlebench.encoders.dimacs import SAT_EXIT, UNSAT_EXIT, read_answer, read_dimacs
from puzzlebench.encoders.exact_cover import read_knuth
from puzzlebench.errors import PuzzlebenchError
from puzzlebench.models.input_bounds import MAX_INPUT_BYTES, MAX_LINE_BYTES

HUGE = [b"0", b"-1", b"99999999999", b"2147483647", b"2147483648", b"-2147483649", b"1e9", b"1_0",
        b"\xc2\xb2", b"\xd9\xa1", b"\xff", b"\x00", b"\x0c", b"(", b")", b"|", b'"', b";", b"9" * 5000]


def exported(target: str, example: str = "course-4x4") -> bytes:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--example", example, "--to", target]) == 0
    return out.getvalue().encode()


SEEDS = {
    "dimacs": exported("dimacs", "rush01"),
    "dlx": exported("dlx"),
    "smt2": exported("smt2"),
    "smt2-fold": exported("smt2-fold", "course-9x9"),
    "smt2-bool": exported("smt2-bool", "rush01"),
    "answer": b"c a solver\ns SATISFIABLE\nv 1 -2 3 0\n",
    "minisat": b"SAT\n1 -2 3 -4 0\n",
}


@st.composite
def mutated(draw, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["cut", "insert", "replace", "huge", "repeat", "line"]))
        if op == "cut":
            del data[at:at + draw(st.integers(1, 40))]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "replace" and data:
            data[at % len(data)] = draw(st.integers(0, 255))
        elif op == "huge":
            data[at:at] = b" " + draw(st.sampled_from(HUGE)) + b" "
        elif op == "line":            # a whole line moved elsewhere
            lines = bytes(data).split(b"\n")
            line = lines.pop(at % len(lines))
            lines.insert(draw(st.integers(0, len(lines))), line)
            data = bytearray(b"\n".join(lines))
        else:
            data[at:at] = data[at:at + draw(st.integers(1, 30))] * draw(st.integers(1, 3))
    return bytes(data)


def text_of(data: bytes) -> str:
    """What the commands read: bytes that are not UTF-8 are refused before any reader runs."""
    return data.decode("utf-8", errors="replace")


FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
FUNCTIONS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


# -- the readers, against a reference reading ------------------------------------------------

ASCII_INTEGER = re.compile(r"[-+]?[0-9]+")


def reference_clauses(text: str) -> list[list[int]]:
    """The clauses of a DIMACS text as the format defines them: the ASCII integers of the
    lines that are neither comments nor the ``p`` line (up to a ``%`` line), cut at each 0."""
    clauses, current = [], []
    for line in text.split("\n"):
        words = line.split()
        if not words or words[0].startswith(("c", "p")):
            continue
        if words[0].startswith("%"):
            break
        for word in words:
            assert ASCII_INTEGER.fullmatch(word), word   # read as a literal: it must be one
            value = int(word)
            if value == 0:
                clauses.append(current)
                current = []
            else:
                current.append(value)
    return clauses


@pytest.mark.slow
@FUNCTIONS
@given(st.data())
def test_read_dimacs_is_an_error_or_the_clauses_the_file_holds(data):
    text = text_of(data.draw(mutated(SEEDS["dimacs"])))
    try:
        cnf = read_dimacs(text, "f.cnf")
    except PuzzlebenchError:
        return
    assert cnf.clauses == reference_clauses(text)
    assert all(0 < abs(lit) <= cnf.n_vars for clause in cnf.clauses for lit in clause)
    assert all(w.isascii() for clause in cnf.clauses for w in map(str, clause))


@pytest.mark.slow
@FUNCTIONS
@given(st.data(), st.sampled_from(["answer", "minisat"]))
def test_read_answer_is_an_error_or_a_consistent_model(data, seed):
    text = text_of(data.draw(mutated(SEEDS[seed])))
    try:
        answer = read_answer(text, "a.txt")
    except PuzzlebenchError:
        return
    assert answer.status in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN")
    variables = [abs(lit) for lit in answer.literals]
    assert len(variables) == len(set(variables)) and 0 not in variables
    said = {int(w) for line in text.split("\n") if line.strip() and not line.strip().startswith(("c", "s"))
            for w in line.split() if w not in ("v", "SAT", "UNSAT", "INDET") and ASCII_INTEGER.fullmatch(w) and int(w)}
    assert set(answer.literals) == said


@pytest.mark.slow
@FUNCTIONS
@given(st.data())
def test_read_knuth_is_an_error_or_a_matrix_that_reads_back_the_same(data):
    text = text_of(data.draw(mutated(SEEDS["dlx"])))
    try:
        matrix = read_knuth(text, "f.dlx")
    except PuzzlebenchError:
        return
    again = read_knuth(matrix.write(), "again.dlx")
    assert (again.primary, again.secondary, again.options, again.colors) == \
        (matrix.primary, matrix.secondary, matrix.options, matrix.colors)
    named = set(matrix.item_names)
    assert all(name in text for name in named)


# -- the commands ----------------------------------------------------------------------------

def run(argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


CNF_ANSWERS = (SAT_EXIT, UNSAT_EXIT)   # solve-cnf exits as SAT solvers do, 0 when unknown


def clean(code: int, err: str, records: bool = False, answers: tuple[int, ...] = ()) -> None:
    """A file command ends with one error line; a command of records says each record's
    error and a summary, every line its own; ``answers``: the command's other exit codes."""
    assert code in (0, 1, 2) + answers
    if records:
        assert all(line.startswith("puzzlebench: ") for line in err.splitlines()), err
    elif code == 2:
        assert err.count("\n") == 1 and err.startswith("puzzlebench: error: "), err


@pytest.mark.slow
@FAST
@given(st.data())
def test_solve_cnf_on_a_mutated_dimacs_file(tmp_path_factory, data):
    f = tmp_path_factory.mktemp("fz") / "f.cnf"
    f.write_bytes(data.draw(mutated(SEEDS["dimacs"])))
    code, out, err = run(["solve-cnf", str(f), "--time-limit", "5"])
    clean(code, err, answers=CNF_ANSWERS)
    if code == SAT_EXIT:              # a model said is a model of the file
        cnf = read_dimacs(f.read_bytes().decode("utf-8-sig"), str(f))
        model = {int(w) for line in out.splitlines() if line.startswith("v ") for w in line[2:].split()}
        if "s SATISFIABLE" in out:
            assert all(any(lit in model for lit in clause) for clause in cnf.clauses)


@pytest.mark.slow
@FAST
@given(st.data(), st.sampled_from(["answer", "minisat"]))
def test_decode_on_a_mutated_dimacs_file_and_answer(tmp_path_factory, data, seed):
    folder = tmp_path_factory.mktemp("fz")
    cnf, answer = folder / "f.cnf", folder / "a.txt"
    cnf.write_bytes(data.draw(mutated(SEEDS["dimacs"])))
    answer.write_bytes(data.draw(mutated(SEEDS[seed])))
    clean(*run(["decode", "--cnf", str(cnf), "--model", str(answer)])[::2])


@FAST
@given(st.data())
def test_solve_xc_on_a_mutated_knuth_file(tmp_path_factory, data):
    f = tmp_path_factory.mktemp("fz") / "f.dlx"
    f.write_bytes(data.draw(mutated(SEEDS["dlx"])))
    clean(*run(["solve-xc", str(f), "--limit", "3", "--time-limit", "5"])[::2])


@pytest.mark.slow
@FAST
@given(st.data(), st.sampled_from(["smt2", "smt2-fold", "smt2-bool"]))
def test_solve_smt2_on_a_mutated_file(tmp_path_factory, data, seed):
    f = tmp_path_factory.mktemp("fz") / "f.smt2"
    f.write_bytes(data.draw(mutated(SEEDS[seed])))
    clean(*run(["solve-smt2", str(f), "--limit", "3", "--time-limit", "5"])[::2])


@pytest.mark.slow
@FAST
@given(st.binary(max_size=300))
def test_every_reader_on_random_bytes(tmp_path_factory, junk):
    f = tmp_path_factory.mktemp("fz") / "junk"
    f.write_bytes(junk)
    for argv in (["solve-cnf", str(f)], ["solve-xc", str(f), "--limit", "2"], ["solve-smt2", str(f)],
                 ["decode", "--cnf", str(f), "--model", str(f)]):
        clean(*run(argv)[::2], answers=CNF_ANSWERS if argv[0] == "solve-cnf" else ())
    for argv in (["solve", str(f), "--time-limit", "5"], ["check", str(f)]):
        clean(*run(argv)[::2], records=True)


# -- memory: what a header claims is never allocated -----------------------------------------

CAPPED_RUNNER = textwrap.dedent("""
    import contextlib, io, json, sys
    from puzzlebench.cli import main
    for argv in json.loads(sys.argv[1]):
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(argv)
        print(json.dumps([code, err.getvalue()]), flush=True)
""")

ABSURD = {
    "h.cnf": b"p cnf 99999999999 1\n1 0\n",
    "h2.cnf": b"p cnf 2147483647 1\n1 0\n",
    "h3.cnf": b"p cnf 5 99999999999\n1 0\n",
    "n.dlx": b"a " * 20000 + b"\n" + b"a\n" * 100,
    "c.smt2": b"(declare-const c99999999999 Bool)(assert c99999999999)",
    "h.smt2": b"; puzzlebench int formulation: 999999999999999999 cells, values 1..2\n(declare-const c0 Int)(assert (= c0 1))",
    "bv.smt2": b"(declare-const b (_ BitVec 200000000))(assert (= b (bvadd b b)))",
    "answer.txt": b"s SATISFIABLE\nv 2147483647 -99999999999 0\n",
}


@pytest.mark.slow
def test_a_corpus_of_absurd_and_mutated_files_runs_in_bounded_memory(tmp_path):
    """Every file through its command in one child capped at 1.5 GB of address space: each
    ends with exit 0 or a one-line error (exit 2).  Before, 'p cnf 99999999999 1' grew to
    4.5 GB, 'p cnf 2147483647 1' made a 250 MB integer for 10 s, and Z3 ended the process
    without a word on the bit-vector."""
    rng = random.Random(20)
    argvs = []
    for name, data in ABSURD.items():
        f = tmp_path / name
        f.write_bytes(data)
        if name.endswith(".cnf"):
            argvs.append(["solve-cnf", str(f), "--limit", "0", "--time-limit", "5"])
        elif name.endswith(".dlx"):
            argvs.append(["solve-xc", str(f), "--time-limit", "5"])
        elif name.endswith(".smt2"):
            argvs.append(["solve-smt2", str(f), "--time-limit", "5"])
    cnf = tmp_path / "seed.cnf"
    cnf.write_bytes(SEEDS["dimacs"])
    argvs.append(["decode", "--cnf", str(cnf), "--model", str(tmp_path / "answer.txt")])
    for k in range(12):              # seeds with a huge number put where a count stands
        for seed, command in (("dimacs", "solve-cnf"), ("dlx", "solve-xc"), ("smt2", "solve-smt2")):
            data = bytearray(SEEDS[seed])
            for _ in range(3):
                at = rng.randrange(len(data))
                data[at:at] = b" " + rng.choice(HUGE[2:6]) + b" "
            f = tmp_path / f"m{k}.{seed}"
            f.write_bytes(bytes(data))
            argvs.append([command, str(f), "--limit", "3", "--time-limit", "5"])

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))

    run = subprocess.run([sys.executable, "-c", CAPPED_RUNNER, json.dumps(argvs)], capture_output=True,
                         text=True, preexec_fn=capped, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(results) == len(argvs)
    for argv, (code, err) in zip(argvs, results):
        assert code in (0, 2) + (CNF_ANSWERS if argv[0] == "solve-cnf" else ()), (argv, code, err)
        if code == 2:
            assert err.count("\n") == 1 and err.startswith("puzzlebench: error: "), (argv, err)
    said = dict(zip((a[1] for a in argvs), results))
    assert said[str(tmp_path / "h.cnf")][1].endswith("a DIMACS literal is at most 2147483647\n")
    assert said[str(tmp_path / "bv.smt2")][1].endswith("Z3 ran out of memory and ended its process (exit code 101)\n")


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_the_seeds_themselves_are_read(name):
    assert SEEDS[name]


# -- streams without end: one bound for what is read ---------------------------------------------

TWO_GIB = 2 << 30
WHOLE = (f"the input is longer than {MAX_INPUT_BYTES:,} bytes (256 MiB), the most read as one file; "
         "not read further")
ENDLESS_LINE = (f"this line is longer than {MAX_LINE_BYTES:,} bytes, more than any puzzle takes (the largest is "
                "a 64x64 grid); not read further, nor the rest of the input (no end of line in 256 MiB)")


def capped_run(argv, feed: bytes | None = None) -> tuple[int, str]:
    """``puzzlebench ARGV`` in a child whose address space is capped at 2 GiB, its standard
    input a pipe fed ``feed`` over and over until the child closes it (``None``: no input):
    the exit code and standard error.  A hang guard of 120 s."""
    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (TWO_GIB, TWO_GIB))

    read_end, write_end = os.pipe() if feed is not None else (subprocess.DEVNULL, None)
    child = subprocess.Popen([sys.executable, "-m", "puzzlebench", *argv], stdin=read_end,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=capped)

    def write():   # until the child stops reading
        block = feed * (2**20 // len(feed))
        with contextlib.suppress(OSError):
            while True:
                os.write(write_end, block)
        os.close(write_end)

    if feed is not None:
        os.close(read_end)
        threading.Thread(target=write, daemon=True).start()
    try:
        _, err = child.communicate(timeout=120)
    finally:
        child.kill()
    return child.returncode, err.decode()


@pytest.fixture(scope="module")
def exported_files(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("exported")
    files = {}
    for option, target in (("cnf", "dimacs"), ("minizinc", "minizinc"), ("xcsp3", "xcsp3")):
        f = folder / f"p.{target}"
        f.write_bytes(exported(target))
        files[option] = str(f)
    return files


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve-cnf", "solve-xc", "solve-smt2", "decode --cnf", "decode --minizinc",
                                     "decode --xcsp3", "rate --fit"])
def test_a_file_read_whole_stops_at_the_bound_on_dev_zero(exported_files, command):
    """``decode --model /dev/zero`` reached 12 GB in 30 s, solve-xc, solve-smt2 and decode
    --minizinc/--xcsp3 6-10 GB in 10 s: one placed line now, exit 2, in 2 GiB."""
    name, *option = command.split()
    argv = [name, "/dev/zero"]
    if name == "decode":
        argv = [name, option[0], exported_files[option[0][2:]], "--model", "/dev/zero"]
    elif name == "rate":
        argv = [name, "--fit", "/dev/zero", "--labels", "2", "--out", "unwritten.json"]
    code, err = capped_run(argv)
    assert (code, err) == (2, f"puzzlebench: error: /dev/zero:1:{MAX_INPUT_BYTES + 1}: {WHOLE}\n")


@pytest.mark.slow
@pytest.mark.parametrize("line, command", [(b"1 2 0\n", "solve-cnf -"), (b"v 1 2\n", "decode --cnf"),
                                           (b"a b\n", "solve-xc -")])
def test_a_stream_without_end_read_whole_stops_at_the_bound(exported_files, line, command):
    """``yes "1 2 0" | solve-cnf -`` reached 5.5 GB in 5 s, ``yes "v 1 2" | decode --cnf p.cnf
    --model -`` 5.1 GB; the bound counts what a pipe gave as a file's bytes."""
    argv = command.split()
    if argv[0] == "decode":
        argv += [exported_files["cnf"], "--model", "-"]
    code, err = capped_run(argv, line)
    place = f"<stdin>:{MAX_INPUT_BYTES // len(line) + 1}:{MAX_INPUT_BYTES % len(line) + 1}"
    assert (code, err) == (2, f"puzzlebench: error: {place}: {WHOLE}\n")


@pytest.mark.slow
@pytest.mark.parametrize("command, summary", [("solve", "1 puzzle: 1 error; "), ("check", "1 record: 1 error")])
@pytest.mark.parametrize("piped", [False, True])
def test_puzzles_on_dev_zero_are_one_long_line_and_the_end(command, summary, piped):
    """``solve /dev/zero`` and ``check /dev/zero`` never ended and said nothing: NUL bytes and
    no end of line, a line past the line bound, and the rest not read past 256 MiB."""
    code, err = capped_run([command, "-"], b"\0" * 4096) if piped else capped_run([command, "/dev/zero"])
    source = "<stdin>" if piped else "/dev/zero"
    lines = err.splitlines()
    assert code == 2 and len(lines) == 2
    assert lines[0] == f"puzzlebench: {source}:1:{MAX_LINE_BYTES + 1}: error: {ENDLESS_LINE}"
    assert lines[1].startswith(f"puzzlebench: {summary}")
