"""A program's output read in bounded pieces: its standard output whole up to a bound, its
standard error's last lines only.

What the solver programs print is parsed whole (a SAT answer's ``v`` lines, MiniZinc's
solutions), but a program may print without end: ``ext@cmd=yes`` reached 3.5 GB in 5 s when
the whole of it was buffered.  So the output is read a chunk at a time as it comes, and a
program past :data:`OUTPUT_LIMIT` is stopped by its caller (:class:`OutputTooLarge`); of its
standard error only the last :data:`ERROR_TAIL` bytes are kept (its last line is what the
errors quote).
"""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from typing import Callable

from ..models.input_bounds import MAX_INPUT_BYTES

OUTPUT_LIMIT = MAX_INPUT_BYTES
"""The most a program may write on its standard output, as much as any input read whole: a
64x64 Sudoku's SAT answer (262,144 literals) is about 2 MB."""
ERROR_TAIL = 64 * 2**10
CHUNK = 2**16


class OutputTooLarge(Exception):
    """A program wrote more than the bound on its standard output (the caller stops it)."""

    def __init__(self, limit: int):
        super().__init__(f"wrote more than {limit / 2**20:g} MiB on its standard output")
        self.limit = limit


def read_output(process: subprocess.Popen, timeout: float | None, limit: int | None = None,
                tail: int = ERROR_TAIL, over: Callable[[], bool] | None = None,
                poll_seconds: float = 0.05) -> tuple[bytes, bytes]:
    """A started program's standard output (whole) and the last ``tail`` bytes of its standard
    error (either may be unpiped), once both are closed and it has ended.  Past ``timeout``
    seconds, ``subprocess.TimeoutExpired``; past ``limit`` bytes of output,
    :class:`OutputTooLarge` (``None``: :data:`OUTPUT_LIMIT`): either way the program still
    runs, for the caller to kill.  ``over``, looked at every ``poll_seconds``, ends the wait
    as a timeout too (a limit on another clock: CPU time)."""
    limit = OUTPUT_LIMIT if limit is None else limit
    end = None if timeout is None else time.monotonic() + timeout
    out: list[bytes] = []
    size = 0
    err = bytearray()
    with selectors.DefaultSelector() as selector:
        for stream, name in ((process.stdout, "out"), (process.stderr, "err")):
            if stream is not None:
                selector.register(stream, selectors.EVENT_READ, name)
        while selector.get_map():
            wait = None if end is None else end - time.monotonic()
            if (wait is not None and wait <= 0) or (over is not None and over()):
                raise subprocess.TimeoutExpired(process.args, timeout)
            if over is not None:
                wait = poll_seconds if wait is None else min(wait, poll_seconds)
            for key, _ in selector.select(wait):
                chunk = os.read(key.fd, CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data == "out":
                    size += len(chunk)
                    if size > limit:
                        raise OutputTooLarge(limit)
                    out.append(chunk)
                else:
                    err += chunk
                    if len(err) > 2 * tail:
                        del err[:-tail]
    while True:   # the pipes closed: the program is ending (its limits still hold meanwhile)
        wait = None if end is None else max(0.0, end - time.monotonic())
        try:
            process.wait(wait if over is None else (poll_seconds if wait is None else min(wait, poll_seconds)))
            break
        except subprocess.TimeoutExpired:
            if over is None or over() or wait == 0:
                raise
    return b"".join(out), bytes(err[-tail:])


def reap(process: subprocess.Popen) -> None:
    """Close a killed program's pipes unread and wait for it (what it wrote meanwhile is not
    wanted, and may be without end)."""
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    process.wait()
