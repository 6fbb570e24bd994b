"""Shared fixtures: where the repository, the tests' own files (tests/data) and the public data
sets (../shared/data) are, and small helpers: among them the skips of a test that needs a
program (a solver, Java) the machine may not have."""

import os
import shutil
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.engines.external import found_presets

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = REPO.parent / "shared" / "data"

# Arto Inkala's "world's hardest" Sudoku (2012) and its solution
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def data_file(name: str) -> Path:
    """A public data set, or a skip saying it is absent (the tests never copy the data)."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"public data set {name} not found at {DATA}")
    return path


NOT_PACKAGED = {"drat-trim": "build it from its public repository, marijnheule/drat-trim"}
"""Programs no Debian package brings, and where to get them."""


def needs_program(name: str, package: str | None = None) -> str:
    """The path of a program on PATH, or a skip saying it is absent and which Debian package
    brings it (``package``, else the program's name) or where else it comes from.  Looked up
    when the test runs."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"the program {name!r} is not on PATH ({NOT_PACKAGED.get(name) or f'Debian package {package or name}'})")
    return path


def needs_preset(name: str) -> None:
    """A skip where ``ext:NAME`` cannot run here, saying why as the engine does (its program, a
    jar, a back end)."""
    why = found_presets()[1].get(name)
    if why is not None:
        pytest.skip(f"ext:{name}: {why}")


def data_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Non-comment lines of a data set: every ``step``-th, at most ``limit``."""
    with open(data_file(name)) as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    lines = lines[::step]
    return lines[:limit] if limit else lines


def hard25_line(name: str, seed: int) -> str:
    """The puzzle of generator seed ``seed`` in results/generated/``name``, a set that
    benchmarks/bench_hard25.py writes: each puzzle under its ``# seed S`` line."""
    lines = (REPO / "results" / "generated" / name).read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:3] == ["#", "seed", str(seed)])
    return next(line for line in lines[at + 1:] if line and not line.startswith("#")).split()[0]


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and of its live children (a child that solves under
    ``--memory-limit``), from /proc: a solver at work, whatever the machine's load."""
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def run(capsys, *argv):
    """The command run in this process: its exit code, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def sigint_handled():
    """Python's own SIGINT handler in every test, the disposition before it put back after.  A
    suite started as a background job (``nohup pytest &``) has SIGINT ignored, and so has every
    command it starts: a Ctrl-C a test sent was ignored, and its command (a search of an empty
    grid, a read of a pipe left open) ran on until the test's guard.  Every test has it, so that
    no test that sends one can be without it.  A command started during the test gets the
    default disposition, which its Python turns into its own handler."""
    import signal
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
