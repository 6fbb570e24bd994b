"""The progress bar of a bench, on standard error: done / total, ETA, and per solver how many
finished, timed out and failed.  Silent when standard error is not a terminal or with
``--quiet``; redrawn at most ten times a second."""

from __future__ import annotations

import shutil
import time
from typing import TextIO

REDRAW_SECONDS = 0.1


class Progress:
    def __init__(self, total: int, solvers: list[str], stream: TextIO, enabled: bool = True):
        self.total = total
        self.stream = stream
        self.enabled = enabled and total > 0 and getattr(stream, "isatty", lambda: False)()
        self.done = 0
        self.per_solver = {s: [0, 0, 0] for s in solvers}  # done, timeouts, errors
        self.started = time.monotonic()
        self.last_draw = 0.0
        self.drawn = False

    def update(self, solver: str, status: str) -> None:
        self.update_many(solver, 1, status == "timeout", status == "error")

    def update_many(self, solver: str, done: int, timeouts: int, errors: int) -> None:
        """:meth:`update` for a whole batch of one solver."""
        self.done += done
        counts = self.per_solver.setdefault(solver, [0, 0, 0])
        counts[0] += done
        counts[1] += timeouts
        counts[2] += errors
        if self.enabled:
            now = time.monotonic()
            if now - self.last_draw >= REDRAW_SECONDS or self.done == self.total:
                self.last_draw = now
                self._draw(now)

    def line(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        elapsed = now - self.started
        share = self.done / self.total if self.total else 1.0
        eta = elapsed / share - elapsed if share > 0 else 0.0
        width = 20
        filled = int(share * width)
        bar = "#" * filled + "." * (width - filled)
        solvers = " | ".join(f"{s} {d} T{t} E{e}" for s, (d, t, e) in self.per_solver.items())
        return (f"[{bar}] {self.done}/{self.total} {share:4.0%} ETA {_clock(eta)} | {solvers}")

    def _draw(self, now: float) -> None:
        columns = shutil.get_terminal_size((100, 20)).columns
        text = self.line(now)[:columns - 1]
        self.stream.write("\r" + text.ljust(columns - 1))
        self.stream.flush()
        self.drawn = True

    def finish(self) -> None:
        if self.enabled and self.drawn:
            columns = shutil.get_terminal_size((100, 20)).columns
            self.stream.write("\r" + " " * (columns - 1) + "\r")
            self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
