"""Shared fixtures: where the repository, the tests' own files (tests/data) and the public data
sets (../shared/data) are, and small helpers."""

import os
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = REPO.parent / "shared" / "data"


def data_file(name: str) -> Path:
    """A public data set, or a skip saying it is absent (the tests never copy the data)."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"public data set {name} not found at {DATA}")
    return path


def data_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Non-comment lines of a data set: every ``step``-th, at most ``limit``."""
    with open(data_file(name)) as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    lines = lines[::step]
    return lines[:limit] if limit else lines


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
