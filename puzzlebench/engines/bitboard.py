"""The native bitboard engines (C, in ``puzzlebench._native``): Sudoku of any block shape,
Sudoku-X, jigsaw, Latin squares, N-Queens and Skyscrapers, and a Sudoku batch path.

Each kind gets the representation its search is fastest on: band bitboards for 9x9 (after
JCZSolve, fsss2 and tdoku; native/sudoku9.c, its copy for this processor picked at load time
by native/sudoku9_isa.c and named in the version), one candidate mask per cell over each
kind's units up to 64 values (native/sudokun.c), column and diagonal bitmasks for N-Queens,
whole-line permutations for Skyscrapers (native/skyscrapers.c).  This module only hands the
puzzle's rules to C and its counters back; :meth:`BitboardEngine.batch_columns` solves many
Sudoku of one block shape in one C call (9x9 by the band bitboard, the others by the search
over units), from the givens the model packed and validated, into columns, over threads when
asked (the batch protocol: :mod:`puzzlebench.engines.batch`).  Each search: :class:`BitboardEngine`.
"""

from __future__ import annotations

import operator
import os
import sys
import time
from typing import Sequence

from array import array

from .. import _native
from ..models.base import Puzzle
from ..models.jigsaw import JigsawSudoku
from ..models.latin import latin_lines
from ..models.nqueens import NQueens
from ..models.skyscrapers import Skyscrapers
from ..models.sudoku import Sudoku
from ..models.sudoku_batch import SudokuBatch
from ..models.sudokux import SudokuX
from ..options import INT64_MAX, Whole
from ..results import STATUS_CODES, Columns, ResultColumns, Stats, Status, status_of
from ..runtime.limits import Deadline, native_seconds
from .base import Engine, Option, SearchOutcome, proof_of_these
from .batch import BATCH_KIND, NativeBatch


def _warn_unknown_kernel() -> None:
    """Say once (the module is imported once a process) when ``PUZZLEBENCH_NATIVE_KERNEL`` names
    a copy of the 9x9 kernel this processor does not run: the extension then keeps its default
    copy (native/sudoku9_isa.c), and a user timing a copy by name would otherwise time another."""
    wanted = os.environ.get("PUZZLEBENCH_NATIVE_KERNEL", "")
    offered = _native.sudoku9_kernels()
    if wanted and wanted not in offered:
        print(f"puzzlebench: warning: PUZZLEBENCH_NATIVE_KERNEL={wanted!r} is not a copy of the 9x9 kernel "
              f"this processor runs ({', '.join(offered)}); using {_native.sudoku9_kernel()!r}",
              file=sys.stderr)


_warn_unknown_kernel()

UNIT_KINDS = ("sudoku-x", "jigsaw", "latin")
"""The kinds that are grids of units alone (each N cells holding every value once), solved by
the one search over explicit units."""
UNITS_KEPT = 64
"""Structures whose units an engine keeps (a bench of Sudoku-X or Latin squares asks for one
structure again and again; every jigsaw has its own)."""

PROPAGATING = frozenset({"sudoku", *UNIT_KINDS})
"""The kinds whose searches count propagations (singles and locked eliminations)."""

RAW_NAMES = ("nodes", "guesses", "backtracks", "naked_singles", "hidden_singles", "locked_eliminations",
             "alldiff_eliminations")
RAW_NAMES_SMALL = RAW_NAMES[:6]
"""The counters of a search without the alldifferent filter (below 16 values, N-Queens,
Skyscrapers, the 9x9 batch call): the raw statistics name only what the search can count."""
RESTART_NAMES = ("restarts", "nogoods", "nogoods_dropped", "conflicts")
"""The counters of a search that restarts and may learn clauses (grids of units but 9x9 Sudoku)."""
COUNTER_NAMES = RAW_NAMES + RESTART_NAMES
"""Every counter of a native search, in the order the C side gives them (bitboard.c: outcome,
sudoku_batch_columns)."""
NOT_LEARNT = ("backtracks", "locked_eliminations", "alldiff_eliminations")
"""Counters that clause learning from the start (option ``cdcl``) does not have."""
LARGE = 16
"""From this many values up the grids of units take the alldifferent filter (sudokun.c)."""

LOCKED, ALLDIFF, WDEG, RANDOM = 1, 2, 4, 8
"""The C searches' rule bits (pb_bitboard.h: BB_LOCKED, BB_ALLDIFF, BB_WDEG, BB_RANDOM)."""
RESTART_POLICIES = {"none": 0, "luby": 16, "geometric": 32}
"""Option ``restarts``: its values and their rule bits (pb_bitboard.h: BB_LUBY, BB_GEOMETRIC)."""
NOGOODS = 64
"""Option ``nogoods``: its rule bit (pb_bitboard.h: BB_NOGOODS)."""
CDCL = 128
"""Option ``cdcl``: its rule bit (pb_bitboard.h: BB_CDCL)."""
HANDOVER = 50
"""Option ``handover``'s default: the dead ends after which the depth-first search hands a puzzle
with no solution yet to clause learning (results/rtd.md, "Design notes: clause learning")."""
CONFLICT_UNIT = 1024
"""Option ``conflict_unit``'s default (sudokun.h: CONFLICT_UNIT): clause learning's first run, in
conflicts, when it restarts (results/rtd.md, "Where the gap to the SAT solvers lies")."""


def raw_names(large: bool, restarting: bool, learning: bool) -> tuple[str, ...]:
    """The raw counters a search has (:data:`COUNTER_NAMES` in order): ``large``, the
    alldifferent filter's; ``restarting``, a grid of units but 9x9 Sudoku, whose search may hand
    the puzzle to clause learning (its conflicts counted); ``learning``, clause learning from
    the start (option ``cdcl``): neither the locked rule nor the alldifferent filter, nor
    backtracks."""
    names = (RAW_NAMES if large else RAW_NAMES_SMALL) + (RESTART_NAMES if restarting else ())
    return tuple(name for name in names if not (learning and name in NOT_LEARNT))


def _stats(counters: Sequence[int], propagating: bool, large: bool, restarting: bool, learning: bool) -> Stats:
    """The shared statistics of a search's counters (:data:`COUNTER_NAMES`), for the kind of
    search :func:`raw_names` says."""
    nodes, guesses, backtracks, naked, hidden, locked, alldiff, restarts, nogoods, dropped, conflicts = counters
    raw = {name: counters[COUNTER_NAMES.index(name)] for name in raw_names(large, restarting, learning)}
    return Stats(nodes=nodes, guesses=guesses, backtracks=None if learning else backtracks,
                 conflicts=conflicts if restarting else None,
                 propagations=naked + hidden + locked + alldiff if propagating else None, raw=raw)


def _split(buffer: bytes, n: int, size: int) -> list[tuple[int, ...]]:
    return [tuple(buffer[i * size:(i + 1) * size]) for i in range(n)]


class BitboardEngine(NativeBatch, Engine):
    """The native searches, one per kind (see the module doc).

    - Sudoku 9x9: band bitboards (a 27-bit word per digit and band, after JCZSolve / fsss2 and
      tdoku's digit planes), only the words changed since they were last seen revisited: box-line
      logic per band and stack by table lookup (option ``locked``), hidden singles per row, box
      and column, naked singles by bit-sliced counting, and (option ``locked``) naked and hidden
      triads in minirows and minicolumns when those stall; branching on a digit's placement in a
      band or stack (tdoku's band configurations; with ``locked`` off, on the two-candidate cell
      that sees the most unsolved cells first; see native/sudoku9.c).  The kernel is compiled once
      per instruction set (baseline x86-64 or any other processor, x86-64-v2, x86-64-v2 with BMI2)
      and the copy this processor runs best is picked at load time (native/sudoku9_isa.c); the
      engine's version names it.
    - Grids of units, up to 64 values (native/sudokun.c): Sudoku of the other block shapes,
      Sudoku-X, jigsaw Sudoku and Latin squares, one search given each kind's units (N cells
      that hold every value once).  One 64-bit candidate mask per cell, naked and hidden singles
      over every unit, and (option ``locked``) the locked rule over every two units sharing two
      cells or more (pointing and claiming, and the same for diagonals and jigsaw regions); MRV.
      From 16 values up (option ``large``): Régin's alldifferent filter on every unit (every
      naked and hidden subset at once) and dom/wdeg branching (fewest candidates per weight of
      the cell's units, a unit's weight growing with the dead ends found in it).  Ties in the
      cell and value choice broken at random from the engine seed (option ``random``), and the
      search begun again from the root after a Luby or geometric number of dead ends while no
      solution has been found (option ``restarts``; Gomes, Selman and Kautz, "Boosting
      combinatorial search through randomization", AAAI 1998), the weights kept from run to run,
      and (option ``nogoods``) each run's refuted branches recorded as nogoods that the later runs
      of the puzzle propagate (Lecoutre, Sais, Tabary and Vidal, "Recording and minimizing
      nogoods from restarts", JSAT 2007).  After ``handover`` dead ends with no solution found
      (50), clause learning takes the puzzle over from its start (native/sudokun_cdcl.c, option
      ``cdcl`` for it alone): MiniSat's loop (Eén and Sörensson, SAT 2003) on the grid itself, the
      puzzle's clauses implicit, each decision a cell's value on the longest trail since the
      restart where it is open (target phases: Biere and Fleury, POS 2020); a hard puzzle's heavy
      tail is where it pays, an easy one's setup of n^3 variables where it does not
      (results/rtd.md, "Clause learning").
      The units are each kind's own unit lists (those its rules are made of), kept per
      structure.
    - N-Queens: the classic column / diagonal bitmask search; pre-placed queens fix their row;
      mirror halving when counting all solutions of an empty board (exact).
    - Skyscrapers (whole-line permutations filtered by the clues, N <= 9): every row and column must be a
      permutation fitting its two clues and its squares' domains; the values such permutations
      use (the line's support) come from a dynamic programme over the value sets of the parts
      before and after the tallest building (Pesant's regular-constraint passes), not from
      listing N! permutations; Latin singles, then the supports of lines with a clue, to a
      fixed point; branching on the line with the fewest fitting permutations, each tried whole."""

    kinds = frozenset({"sudoku", "nqueens", "skyscrapers", *UNIT_KINDS})  # the keys of _SEARCHES, below the class
    family = "bitboard"
    holds_time_limit = True
    summary = ("native C bitboards: Sudoku (band bitboards, any block shape), Sudoku-X, jigsaw, Latin "
               "squares, N-Queens, Skyscrapers")
    options = (
        Option("locked", bool, True, "Sudoku, Sudoku-X, jigsaw: locked candidates (pointing and claiming): "
               "on 9x9 Sudoku with every band and stack update (and naked and hidden triads in minirows "
               "and minicolumns when the rest stalls), elsewhere when singles stall, over every "
               "two units sharing two cells or more"),
        Option("large", bool, True, "grids of 16 values or more (Sudoku, Sudoku-X, jigsaw, Latin): Régin's "
               "alldifferent filter on every unit and dom/wdeg branching; off: singles, the locked rule and "
               "MRV alone, as below 16 values"),
        Option("restarts", str, "luby", "Sudoku other than 9x9, Sudoku-X, jigsaw, Latin: begin the search "
               "again from the root after a number of dead ends, while no solution has been found: after "
               "restart_unit times the Luby sequence 1 1 2 1 1 2 4 ... (luby), restart_unit x 1.5^k "
               "(geometric), or never (none); clause learning likewise in conflicts, by conflict_unit",
               choices=tuple(RESTART_POLICIES)),
        Option("nogoods", bool, True, "with restarts: at each restart, record the nogoods of the run's "
               "refuted branches (reduced nld-nogoods, Lecoutre et al., JSAT 2007), watched on two "
               "literals, so that no later run of the puzzle searches them again"),
        Option("restart_unit", int, 100, "the dead ends of the depth-first search's first run when it restarts",
               number=Whole(1, INT64_MAX)),
        Option("conflict_unit", int, CONFLICT_UNIT, "the conflicts of clause learning's first run when it "
               "restarts", number=Whole(1, INT64_MAX)),
        Option("random", bool, True, "Sudoku other than 9x9, Sudoku-X, jigsaw, Latin: ties in the cell and "
               "value choice broken at random, seeded by the engine seed (off: the first cell and the "
               "lowest value, one search for every seed)"),
        Option("cdcl", bool, False, "Sudoku other than 9x9, Sudoku-X, jigsaw, Latin: conflict-driven clause "
               "learning on the grid (sudokun_cdcl.c: first-UIP clauses, VSIDS, each decision a value given to a "
               "cell, its value on the longest trail since the restart where open, restarts after conflict_unit "
               "conflicts by option restarts) instead of the depth-first search"),
        Option("handover", int, HANDOVER, "Sudoku other than 9x9, Sudoku-X, jigsaw, Latin, option cdcl off: the "
               "depth-first search's dead ends with no solution found after which clause learning takes the "
               "puzzle over from its start (0: never)", number=Whole(0, INT64_MAX)),
        Option("symmetry", bool, True, "N-Queens: mirror halving when counting all solutions of an empty board"),
    )
    seed_parameter = ("the random tie-breaks of the search over units (Sudoku other than 9x9, Sudoku-X, "
                      "jigsaw, Latin; option random)")
    statistics = {
        "nodes": "search nodes: the root and every alternative tried at a branch, over every run when the "
                 "search restarts (grids of units but 9x9 Sudoku, raw restarts: the runs begun again from "
                 "the root, option `restarts`; raw nogoods: the nogoods recorded at restarts, option "
                 "`nogoods`, and nogoods_dropped: those not recorded past the memory cap of 2^22 literals); "
                 "with clause learning (option `cdcl`, or after the handover, option `handover`) its root and "
                 "every decision besides (raw nogoods: and the clauses learnt)",
        "guesses": "branch points with two or more alternatives (Sudoku and the other grids of units: a "
                   "cell; 9x9 Sudoku: a digit's placement in a band or stack, each alternative a whole placement "
                   "(option `locked` off: a cell while one has two candidates); N-Queens: a row; Skyscrapers: a "
                   "row or column, each alternative a whole permutation); with clause learning, its decisions "
                   "besides, each a value given to a cell",
        "backtracks": "alternatives whose propagation (grids of units, Skyscrapers) or filtering "
                      "(N-Queens: a row with no free square) failed at once; option `cdcl`: none (—)",
        "conflicts": "grids of units but 9x9 Sudoku: the conflicts of clause learning (option `cdcl`, or "
                     "after the depth-first search hands the puzzle over, option `handover`; 0 when it did "
                     "not): propagations that emptied a cell or a value's places in a unit, or falsified a "
                     "learnt clause, each then a clause learnt",
        "propagations": "Sudoku, Sudoku-X, jigsaw, Latin: naked singles + hidden singles placed + "
                        "candidates removed by the locked rule (9x9: and by the triads) + candidates removed by the "
                        "alldifferent filter (16 values up, option `large`) (raw: naked_singles, hidden_singles, "
                        "locked_eliminations, and from 16 values up alldiff_eliminations); with clause learning, the values "
                        "given by a cell's last candidate and by a value's last place in a unit besides",
    }

    def __init__(self, variant: str | None = None, options: dict | None = None):
        super().__init__(variant, options)
        self._units_kept: dict[tuple, array] = {}   # structure -> its units (grid_units)

    @classmethod
    def version(cls) -> str:
        """puzzlebench's version and the copy of the 9x9 kernel that runs: the kernel is compiled
        once per instruction set and the copy picked by the processor (native/sudoku9_isa.c;
        ``PUZZLEBENCH_NATIVE_KERNEL=baseline`` picks the portable one)."""
        return f"{super().version()} (9x9 kernel: {_native.sudoku9_kernel()})"

    def encode(self, puzzle: Puzzle) -> Puzzle:
        """The puzzle itself; for a grid of units, its units listed first (timed as encoding,
        not as search)."""
        if puzzle.kind in UNIT_KINDS:
            self._units_of(puzzle)
        return puzzle

    def size(self, artifact: Puzzle) -> dict[str, int]:
        return {"cells": artifact.n_cells, "values": artifact.n_values}

    def search(self, artifact: Puzzle, limit: int | None, keep: int, deadline: Deadline) -> SearchOutcome:
        count, timed_out, sols, counters = _SEARCHES[artifact.kind](self, artifact, limit, keep,
                                                                    native_seconds(deadline.remaining()))
        cells = artifact.n_cells
        propagating = artifact.kind in PROPAGATING
        restarting = propagating and not _is_9x9(artifact)
        return SearchOutcome(_split(sols, len(sols) // cells if cells else 0, cells), count,
                             timed_out, _stats(counters, propagating, propagating and artifact.n_values >= LARGE,
                                               restarting, restarting and self.settings["cdcl"]))

    def prove(self, puzzle: Puzzle, solutions: Sequence, deadline: Deadline) -> bytes | None:
        """A proof that no solution but ``solutions`` exists, from a search that writes one as
        it goes.  9x9 Sudoku: DRUP, from the kernel's copy that does (native/sudoku9_proof.c:
        option locked, branching on cells, no triads), counting the solutions again.  The other
        grids of units: LRAT (:meth:`proof_form`), from clause learning from the start
        (native/sudokun_cdcl_proof.c: option ``cdcl``, this engine's restarts and random
        tie-breaks), whose every propagation is unit propagation on the puzzle's CNF and every
        clause learnt a lemma hinted by the clauses of its derivation (the locked rule and the
        alldifferent filter, which are not, are off), with ``solutions`` blocked from its start:
        it refutes the claim's formula, whose clauses it is handed for their IDs, and finds none
        again."""
        cells, seconds = puzzle.n_cells, native_seconds(deadline.remaining())
        if _is_9x9(puzzle):
            proof, count, found = _native.sudoku9_prove(bytes(puzzle.givens), len(solutions) + 1, seconds)
            return proof_of_these(solutions, proof, count, found, cells)
        if puzzle.kind not in PROPAGATING or len(set(map(tuple, solutions))) != len(solutions):
            return None   # a count that names a solution twice is not proved by blocking it twice
        from .certify import claim_buffer   # the encoders, loaded only for a proof
        proof, count, _ = _native.units_prove(puzzle.n_values, self._units_of(puzzle), bytes(puzzle.givens), 1,
                                              seconds, self._rules(), self._engine_seed, self.settings["conflict_unit"],
                                              b"".join(map(bytes, solutions)), claim_buffer(puzzle, solutions))
        return proof if count == 0 else None

    def proof_form(self, puzzle: Puzzle) -> str:
        """LRAT from clause learning (beyond 9x9), DRAT from the 9x9 kernel."""
        return "drat" if _is_9x9(puzzle) else "lrat"

    def _sudoku(self, puzzle: Sudoku, limit, keep, seconds):
        rows, cols = puzzle.box
        return _native.sudoku_solve(rows, cols, bytes(puzzle.givens), limit, keep, seconds, self._rules(),
                                    self._engine_seed, self.settings["restart_unit"], self.settings["handover"],
                                    self.settings["conflict_unit"])

    def _units(self, puzzle: Puzzle, limit, keep, seconds):
        return _native.units_solve(puzzle.n_values, self._units_of(puzzle), bytes(puzzle.givens), limit, keep,
                                   seconds, self._rules(), self._engine_seed, self.settings["restart_unit"],
                                   self.settings["handover"], self.settings["conflict_unit"])

    def _rules(self) -> int:
        """The C search's rule bits; the C side takes ALLDIFF and WDEG from 16 values up only,
        and the 9x9 kernel none but LOCKED."""
        settings = self.settings
        return ((LOCKED if settings["locked"] else 0) | (ALLDIFF | WDEG if settings["large"] else 0)
                | (RANDOM if settings["random"] else 0) | RESTART_POLICIES[settings["restarts"]]
                | (NOGOODS if settings["nogoods"] else 0) | (CDCL if settings["cdcl"] else 0))

    def _units_of(self, puzzle: Puzzle) -> array:
        """The puzzle's units as one flat array of cell indices, N a unit, kept per structure."""
        key = puzzle.structure()
        kept = self._units_kept
        if key not in kept:
            if len(kept) >= UNITS_KEPT:
                del kept[next(iter(kept))]
            kept[key] = grid_units(puzzle)
        return kept[key]

    def _nqueens(self, puzzle: NQueens, limit, keep, seconds):
        return _native.nqueens_solve(puzzle.n, bytes(puzzle.givens), limit, keep, seconds,
                                     self.settings["symmetry"])

    def _skyscrapers(self, puzzle: Skyscrapers, limit, keep, seconds):
        return _native.skyscrapers_solve(puzzle.n, bytes(puzzle.top), bytes(puzzle.bottom), bytes(puzzle.left),
                                         bytes(puzzle.right), bytes(puzzle.givens), limit, keep, seconds)

    # -- the batch path ---------------------------------------------------------------------

    def batch_columns(self, packed: SudokuBatch, *, limit: int | None,
                      time_limit: float | None) -> Columns:
        """Sudoku of one block shape in one C call on the model's packed givens, the GIL
        released: 9x9 by the band bitboard, any other shape by the search over units
        (:meth:`_shape_arrays`).  After a Ctrl-C, the puzzles answered before the first it left
        unanswered."""
        if packed.box != (3, 3):
            return self._shape_columns(packed, limit, time_limit)
        start = time.perf_counter()
        timed_out, counts, stats, seconds, solutions = _native.sudoku9_batch(
            packed.values, limit, time_limit or 0.0, self.settings["locked"], self.batch_threads)
        counts = memoryview(counts).cast("Q").tolist()
        counters = memoryview(stats).cast("Q").tolist()
        solve = memoryview(seconds).cast("d").tolist()
        overhead = self._overhead(time.perf_counter() - start, sum(solve), len(solve))
        if len(counts) < len(packed):   # a Ctrl-C stopped the call: the puzzles answered before it
            overhead = 0.0   # (the time up to it is the stopped one's)
        by_count = [status_of(c, limit, False) for c in range(3)]
        statuses = (list(map(by_count.__getitem__, counts)) if limit is not None and limit <= 2   # by map: 0.02 us
                    else [by_count[c if c < 2 else 2] for c in counts])
        if 1 in timed_out:
            statuses = [Status.TIMEOUT if t else s for s, t in zip(statuses, timed_out)]
        add = operator.add   # by map: the columns of a batch are read at a fraction of a us a puzzle
        singles = list(map(add, map(add, counters[3::6], counters[4::6]), counters[5::6]))
        return Columns(
            statuses=statuses, counts=counts, solve_seconds=solve,
            total_seconds=list(map(overhead.__add__, solve)),
            stats={"nodes": counters[0::6], "guesses": counters[1::6], "backtracks": counters[2::6],
                   "propagations": singles},
            raw_names=RAW_NAMES_SMALL, raw=counters, size={"cells": 81, "values": 9}, cells=81,
            solutions=solutions)

    def batch_arrays(self, packed: SudokuBatch, *, limit: int | None,
                     time_limit: float | None) -> ResultColumns:
        """:meth:`batch_columns` as the columnar result: the C call writes the status codes,
        counts, counters, times and solutions into arrays, no object a puzzle."""
        import numpy as np
        if packed.box != (3, 3):
            answered, status, counts, counters, solve, total, solutions = self._shape_arrays(packed, limit, time_limit)
            return ResultColumns.of_arrays(BATCH_KIND, self.spec, limit, status=status, count=counts,
                                           solutions=solutions, solve=solve, total=total,
                                           stats=self._shape_stats(counters))
        n = len(packed)
        status, counts, seconds = np.empty(n, np.uint8), np.empty(n, np.int64), np.empty(n)
        counters, solutions = np.empty((n, len(RAW_NAMES_SMALL)), np.int64), np.empty((n, 81), np.uint8)
        start = time.perf_counter()
        answered = _native.sudoku9_batch_columns(packed.values, limit, time_limit or 0.0, self.settings["locked"],
                                                 status, counts, counters, seconds, solutions, self.batch_threads)
        solve, counters = seconds[:answered], counters[:answered]
        overhead = self._overhead(time.perf_counter() - start, solve.sum(), answered) if answered == n else 0.0
        return ResultColumns.of_arrays(
            BATCH_KIND, self.spec, limit, status=status[:answered], count=counts[:answered],
            solutions=solutions[:answered], solve=solve, total=solve + overhead,
            stats={"nodes": counters[:, 0], "guesses": counters[:, 1], "backtracks": counters[:, 2],
                   "propagations": counters[:, 3:6].sum(axis=1)})

    def _shape_arrays(self, packed: SudokuBatch, limit: int | None, time_limit: float | None):
        """Sudoku of a block shape other than 3x3 in one C call (sudoku_batch_columns), each
        searched as :meth:`_sudoku` searches it alone (the same rules and engine seed, so the
        same answer and counters): (answered, status codes, counts, counters, solve and total
        seconds, first solutions), the arrays of the puzzles answered."""
        import numpy as np
        n, cells = len(packed), packed.cells
        status, counts, seconds = np.empty(n, np.uint8), np.empty(n, np.int64), np.empty(n)
        counters, solutions = np.empty((n, len(COUNTER_NAMES)), np.int64), np.empty((n, cells), np.uint8)
        start = time.perf_counter()
        answered = _native.sudoku_batch_columns(
            *packed.box, packed.values, limit, time_limit or 0.0, self._rules(), self._engine_seed,
            self.settings["restart_unit"], self.settings["handover"], self.settings["conflict_unit"],
            status, counts, counters, seconds, solutions, self.batch_threads)
        solve = seconds[:answered]
        overhead = self._overhead(time.perf_counter() - start, solve.sum(), answered) if answered == n else 0.0
        return (answered, status[:answered], counts[:answered], counters[:answered], solve, solve + overhead,
                solutions[:answered])

    def _shape_stats(self, counters) -> dict:
        """The shared statistics of :meth:`_shape_arrays`' counters, as :func:`_stats` makes them
        for one puzzle."""
        stats = {"nodes": counters[:, 0], "guesses": counters[:, 1], "backtracks": counters[:, 2],
                 "conflicts": counters[:, 10], "propagations": counters[:, 3:7].sum(axis=1)}
        if self.settings["cdcl"]:
            del stats["backtracks"]
        return stats

    def _shape_columns(self, packed: SudokuBatch, limit: int | None, time_limit: float | None) -> Columns:
        """:meth:`_shape_arrays` as the records' :class:`Columns`."""
        answered, status, counts, counters, solve, total, solutions = self._shape_arrays(packed, limit, time_limit)
        box = packed.box
        names = raw_names(box[0] * box[1] >= LARGE, True, self.settings["cdcl"])
        return Columns(
            statuses=[STATUS_CODES[code] for code in status.tolist()], counts=counts.tolist(),
            solve_seconds=solve.tolist(), total_seconds=total.tolist(),
            stats={name: values.tolist() for name, values in self._shape_stats(counters).items()},
            raw_names=names, raw=counters[:, [COUNTER_NAMES.index(name) for name in names]].ravel().tolist(),
            size={"cells": packed.cells, "values": box[0] * box[1]}, cells=packed.cells,
            solutions=solutions.tobytes())

    def _overhead(self, elapsed: float, solving: float, answered: int) -> float:
        """Each puzzle's share of a batch call's time outside the searches: the call's wall time
        less its searches' (each puzzle timed on its own thread, so their sum over the threads
        that ran them at once), shared evenly."""
        return max(0.0, elapsed - solving / self.threads_used(answered)) / max(1, answered)


def _is_9x9(puzzle: Puzzle) -> bool:
    """Whether the 9x9 kernel (sudoku9.c: no restarts) searches the puzzle."""
    return puzzle.kind == "sudoku" and puzzle.box == (3, 3)


UNIT_LISTS = {"sudoku": Sudoku.units, "sudoku-x": SudokuX.units, "jigsaw": JigsawSudoku.units,
              "latin": lambda p: latin_lines(p.n)}
"""Each grid kind's own list of units: the very lists its rules are made of (``grid_rules``;
the tests hold them equal to the rules' ``AllDifferent`` s).  Read from the kind, not from its
``rules``: building the vocabulary's statement of a 20x20 Latin square (400 ``ExactlyOne`` of
20 candidates) takes 1.6 ms, eight times its search."""


def grid_units(puzzle: Puzzle) -> array:
    """A grid kind's units as one flat array of cell indices, N a unit."""
    return array("H", [cell for _, cells in UNIT_LISTS[puzzle.kind](puzzle) for cell in cells])


_SEARCHES = {"sudoku": BitboardEngine._sudoku, "nqueens": BitboardEngine._nqueens,
             "skyscrapers": BitboardEngine._skyscrapers,
             **{kind: BitboardEngine._units for kind in UNIT_KINDS}}
"""The native search of each kind the engine takes (its ``kinds``), by kind name."""
