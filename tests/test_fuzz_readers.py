"""Every file reader, fed random and mutated bytes: a clean one-line error (exit 2) or a
correct answer, never a traceback.  The seeds are real files the exporters write; the
mutations cut, repeat, replace and insert bytes, and put huge numbers where counts stand."""

import contextlib
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.cli import main
from puzzlebench.models import examples

HUGE = [b"0", b"-1", b"99999999999", b"2147483648", b"-2147483649", b"1e9", b"\xff", b"\x00", b"(", b")", b"|"]


def exported(target: str, example: str = "sudoku6") -> bytes:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--example", example, "--to", target]) == 0
    return out.getvalue().encode()


SEEDS = {
    "dimacs": exported("dimacs"),
    "dlx": exported("dlx"),
    "smt2": exported("smt2", "course-4x4"),
    "answer": b"s SATISFIABLE\nv 1 -2 3 0\n",
}


@st.composite
def mutated(draw, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["cut", "insert", "replace", "huge", "repeat"]))
        if op == "cut":
            del data[at:at + draw(st.integers(1, 40))]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "replace" and data:
            data[at % len(data)] = draw(st.integers(0, 255))
        elif op == "huge":
            data[at:at] = b" " + draw(st.sampled_from(HUGE)) + b" "
        else:
            data[at:at] = data[at:at + draw(st.integers(1, 30))] * draw(st.integers(1, 3))
    return bytes(data)


def run(argv) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def clean(code: int, err: str, records: bool = False) -> None:
    """A file command ends with one error line; a command of records says each record's
    error and a summary, every line its own."""
    assert code in (0, 1, 2)
    if records:
        assert all(line.startswith("puzzlebench: ") for line in err.splitlines()), err
    elif code == 2:
        assert err.count("\n") == 1 and err.startswith("puzzlebench: error: "), err


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


FILE_COMMANDS = {
    "solve-cnf": ("dimacs", "f.cnf", ["solve-cnf", "{f}", "--time-limit", "5"]),
    "solve-xc": ("dlx", "f.dlx", ["solve-xc", "{f}", "--limit", "3", "--time-limit", "5"]),
    "solve-smt2": ("smt2", "f.smt2", ["solve-smt2", "{f}", "--limit", "3", "--time-limit", "5"]),
}


@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
@FUZZ
@given(data=st.data())
def test_a_file_command_on_a_mutated_file(tmp_path_factory, command, data):
    seed, name, argv = FILE_COMMANDS[command]
    f = tmp_path_factory.mktemp("fz") / name
    f.write_bytes(data.draw(mutated(SEEDS[seed])))
    clean(*run([a.format(f=f) for a in argv]))


@FUZZ
@given(data=st.data())
def test_decode_on_a_mutated_dimacs_file_and_answer(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("fz")
    cnf, answer = folder / "f.cnf", folder / "a.txt"
    cnf.write_bytes(data.draw(mutated(SEEDS["dimacs"])))
    answer.write_bytes(data.draw(mutated(SEEDS["answer"])))
    clean(*run(["decode", "--cnf", str(cnf), "--model", str(answer)]))


@FUZZ
@given(st.binary(max_size=300))
def test_every_reader_on_random_bytes(tmp_path_factory, junk):
    f = tmp_path_factory.mktemp("fz") / "junk"
    f.write_bytes(junk)
    for argv in (["solve-cnf", str(f)], ["solve-xc", str(f), "--limit", "2"], ["solve-smt2", str(f)]):
        clean(*run(argv))
    for argv in (["solve", str(f), "--time-limit", "5"], ["rate", str(f)], ["check", str(f)]):
        clean(*run(argv), records=True)


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_the_seeds_themselves_are_read(name):
    assert SEEDS[name]
