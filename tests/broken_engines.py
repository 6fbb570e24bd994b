"""Deliberately broken engines: test doubles for the harness, never registered.

They are handed to the bench as extra engines (``engines={"wrong": "tests.broken_engines:
WrongAnswerEngine"}`` or ``--engine wrong=tests.broken_engines:WrongAnswerEngine``), so the
worker processes import them by module path.  Each one is :class:`MrvEngine` with one fault.
"""

from __future__ import annotations

import ctypes
import faulthandler
import mmap
import os
import signal
import time

from puzzlebench.results import Results, Stats
from puzzlebench.engines.base import SearchOutcome, verify_result
from puzzlebench.engines.bitboard import BitboardEngine
from puzzlebench.engines.mrv import MrvEngine


def crash() -> None:
    """A segmentation fault on purpose.  pytest's faulthandler would print the crashing
    worker's stack to the suite's output; the crash is the test, so it is silenced first."""
    faulthandler.disable()
    ctypes.string_at(0)


class WrongAnswerEngine(MrvEngine):
    """Finds the real solution, then breaks it: the first two cells swapped."""

    family = "wrong"

    def search(self, artifact, limit, keep, deadline):
        outcome = super().search(artifact, limit, keep, deadline)
        broken = []
        for sol in outcome.solutions:
            s = list(sol)
            s[0], s[1] = s[1], s[0]
            broken.append(tuple(s))
        return SearchOutcome(broken, outcome.count, outcome.timed_out, outcome.stats)


class HangEngine(MrvEngine):
    """Never answers and never looks at its clock."""

    family = "hang"

    def search(self, artifact, limit, keep, deadline):
        while True:
            time.sleep(0.01)


class SpinEngine(MrvEngine):
    """Spends CPU time and never looks at its clock (a native call that holds no limit)."""

    family = "spin"

    def search(self, artifact, limit, keep, deadline):
        while True:
            pass


class ExitEngine(MrvEngine):
    """Leaves the process at once, as a C library calling exit() would."""

    family = "exit"

    def search(self, artifact, limit, keep, deadline):
        os._exit(3)


class SigkillEngine(MrvEngine):
    family = "sigkill"

    def search(self, artifact, limit, keep, deadline):
        os.kill(os.getpid(), signal.SIGKILL)


class SegfaultEngine(MrvEngine):
    """Dies inside C: reads address 0."""

    family = "segfault"

    def search(self, artifact, limit, keep, deadline):
        crash()


class ChattyEngine(MrvEngine):
    """Writes on standard output while it solves, in Python and from C's file descriptor, as
    a library does (Z3's "Could not find libz3.so" was a ``print``)."""

    family = "chatty"
    holds_time_limit = False   # under a time limit too, the commands run it in a child

    def search(self, artifact, limit, keep, deadline):
        print("chatty: a word from the library's Python", flush=True)
        os.write(1, b"chatty: a word from the library's C\n")
        return super().search(artifact, limit, keep, deadline)


class LiarEngine(MrvEngine):
    """Says every puzzle has no solution: nothing to verify, only the cross-check catches it."""

    family = "liar"

    def search(self, artifact, limit, keep, deadline):
        return SearchOutcome([], 0, False, Stats(nodes=1))


class SlowEngine(MrvEngine):
    """A correct engine that takes at least 50 ms a puzzle (to kill a bench midway)."""

    family = "slow"

    def search(self, artifact, limit, keep, deadline):
        time.sleep(0.05)
        return super().search(artifact, limit, keep, deadline)


HOARD_CAP = 2 << 30
"""Where the allocating doubles give up (2 GB): a memory limit that failed to hold must not
take a shared machine down with it; giving up answers ``unsat``, which the tests refuse."""


class HoardEngine(MrvEngine):
    """Allocates memory without end (1 MB blocks, every page written), as a search whose
    tables outgrow the machine: only a memory limit stops it."""

    family = "hoard"

    def search(self, artifact, limit, keep, deadline):
        hoard = []
        while len(hoard) < HOARD_CAP >> 20:
            hoard.append(b"x" * (1 << 20))
        return SearchOutcome([], 0, False, Stats())


class NullReturnEngine(HoardEngine):
    """Runs out as native bindings do: the refused allocation becomes a ``SystemError``
    ("error return without exception set": Z3's and OR-Tools' bindings under the cap)."""

    family = "nullreturn"

    def search(self, artifact, limit, keep, deadline):
        try:
            return super().search(artifact, limit, keep, deadline)
        except MemoryError:
            raise SystemError("error return without exception set") from None


class MemExitEngine(HoardEngine):
    """Runs out as Z3 does: the refused allocation ends the process, exit code 101 (Z3's
    ERR_MEMOUT), nothing said."""

    family = "memexit"

    def search(self, artifact, limit, keep, deadline):
        try:
            return super().search(artifact, limit, keep, deadline)
        except MemoryError:
            os._exit(101)


class KilledForMemoryEngine(MrvEngine):
    """Fills shared memory (which ``RLIMIT_DATA`` does not count) past any small limit, then
    dies by SIGKILL, as a process the kernel's out-of-memory killer ends."""

    family = "oomkilled"

    def search(self, artifact, limit, keep, deadline):
        size = 160 << 20
        block = mmap.mmap(-1, size, flags=mmap.MAP_SHARED)
        for at in range(0, size, mmap.PAGESIZE):
            block[at] = 1
        os.kill(os.getpid(), signal.SIGKILL)


class BatchEngine(MrvEngine):
    """An engine with its own batch path (``batch``), like a native batch call: the harness
    hands it whole units and verifies their answers in bulk."""

    family = "batch"

    def batch(self, puzzles, *, limit, time_limit, keep) -> Results:
        return Results.of([self.run(p, limit=limit, time_limit=time_limit, keep=keep, verify=False)
                           for p in puzzles], puzzles, self.spec, limit)


class BatchCrashEngine(BatchEngine):
    """A batch path that dies (SIGSEGV) when its batch holds a puzzle whose first cell is 1."""

    family = "batchcrash"

    def batch(self, puzzles, **kw):
        if any(p.givens[0] == 1 for p in puzzles):
            crash()
        return super().batch(puzzles, **kw)


def swap_first_cells(results: Results, puzzles) -> Results:
    """The answers to puzzles with an empty first cell broken: the first two cells of their
    solution swapped (in the columns of a native batch, or in the records)."""
    if results.columns is not None:
        columns = results.columns
        grids = bytearray(columns.solutions)
        for k, p in enumerate(puzzles):
            if p.givens[0] == 0:
                at = k * columns.cells
                grids[at], grids[at + 1] = grids[at + 1], grids[at]
        columns.solutions = bytes(grids)
        return results
    for p, r in zip(puzzles, results):
        if p.givens[0] == 0 and r.solutions:
            s = list(r.solutions[0])
            s[0], s[1] = s[1], s[0]
            r.solutions[0] = tuple(s)
    return results


class BatchHoardEngine(BatchEngine):
    """A batch path that allocates without end when its batch holds a puzzle whose first cell is 1."""

    family = "batchhoard"

    def batch(self, puzzles, **kw):
        if any(p.givens[0] == 1 for p in puzzles):
            HoardEngine.search(self, None, None, 0, None)
        return super().batch(puzzles, **kw)


class BatchWrongEngine(BatchEngine):
    """A batch path (records) whose answers to puzzles with an empty first cell are broken."""

    family = "batchwrong"

    def batch(self, puzzles, **kw):
        return swap_first_cells(super().batch(puzzles, **kw), puzzles)


class ColumnsWrongEngine(BitboardEngine):
    """The bitboard engine whose native batch (columns) breaks the answers to puzzles with an
    empty first cell."""

    family = "columnswrong"

    def batch(self, puzzles, **kw):
        results = super().batch(puzzles, **kw)
        return swap_first_cells(results, puzzles) if results is not None else None

    def batch_arrays(self, packed, **kw):  # the same fault in the columnar result
        table = super().batch_arrays(packed, **kw)
        empty = [k for k in range(len(table)) if packed.values[k * 81] == 0]
        table.solutions[empty, :2] = table.solutions[empty, 1::-1]
        return table

    def run(self, puzzle, **kw):  # the same fault one puzzle at a time
        result = super().run(puzzle, **{**kw, "verify": False})
        swap_first_cells(Results.of([result], [puzzle]), [puzzle])
        return verify_result(result, puzzle) if kw.get("verify", True) else result


class RowsBitboardEngine(BitboardEngine):
    """The bitboard engine without its native batch: one puzzle at a time, a record each."""

    family = "rowsbitboard"

    def batch(self, puzzles, **kw):
        return None


ALL = {name: f"tests.broken_engines:{cls.__name__}" for name, cls in {
    "wrong": WrongAnswerEngine, "hang": HangEngine, "spin": SpinEngine, "exit": ExitEngine, "sigkill": SigkillEngine,
    "segfault": SegfaultEngine, "liar": LiarEngine, "slow": SlowEngine, "batch": BatchEngine,
    "batchcrash": BatchCrashEngine, "batchwrong": BatchWrongEngine, "columnswrong": ColumnsWrongEngine,
    "rowsbitboard": RowsBitboardEngine, "hoard": HoardEngine, "oomkilled": KilledForMemoryEngine,
    "batchhoard": BatchHoardEngine, "nullreturn": NullReturnEngine, "memexit": MemExitEngine}.items()}
