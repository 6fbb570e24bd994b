"""The native bitboard engines' 9x9 and N x N Sudoku kernel: agreement with `mrv`, published
counts, the 9x9 batch path, the C validation twin of the model's, malformed buffers, and a
sanitizer build.  The units search is in test_bitboard_units.py, N-Queens and Skyscrapers in
test_bitboard_queens_skyscrapers.py."""

import os
import random
import shutil
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bitboard_agree import BB, MRV, agree, full_grid
from conftest import REPO, data_lines, needs_program
from puzzlebench import _native, api
from puzzlebench.errors import InvalidPuzzleError, PuzzleError
from puzzlebench.engines.registry import FAMILIES, make_engine
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.models.sudoku_batch import read_sudoku_lines
from puzzlebench.results import Status
from puzzlebench.engines.bitboard import BitboardEngine

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (3, 4), (4, 3), (4, 4),
          (3, 5), (4, 5), (5, 5), (5, 6), (6, 6), (6, 7), (7, 7), (7, 8), (8, 8)]


def test_full_grid_is_valid():
    rng = random.Random(0)
    for box in SHAPES:
        grid = full_grid(box, rng)
        assert Sudoku(box, grid).check(grid) == []


# -- Sudoku -----------------------------------------------------------------------------------

def test_registered():
    assert FAMILIES["bitboard"] == "puzzlebench.engines.bitboard:BitboardEngine"
    assert make_engine("bitboard@locked=false").settings["locked"] is False


@pytest.mark.parametrize("locked", [True, False])
def test_9x9_against_published_solutions(locked):
    engine = BitboardEngine(options={"locked": locked})
    for line in data_lines("sudoku9_kaggle1m_first9999_with_solutions.txt", limit=60, step=97):
        puzzle_text, solution = line.split()[:2]
        result = engine.run(parse_sudoku_line(puzzle_text))
        assert result.status is Status.UNIQUE and result.verified
        assert result.solution == solution


def test_9x9_against_mrv():
    for line in data_lines("sudoku9_kaggle1m_first9999_with_solutions.txt", limit=8, step=500):
        agree(parse_sudoku_line(line.split()[0]))
    for line in data_lines("sudoku9_magictour_top1465.txt", limit=3, step=400):
        agree(parse_sudoku_line(line[:81]))


def altered_9x9(rng: random.Random, hardest: int, step: int, randoms: int) -> list[list[int]]:
    """9x9 givens that walk every part of the search: hardest puzzles with three clues taken
    away (hundreds of solutions, so every branch and every contradiction in the singles is
    walked), and random givens of a full grid with a wrong value now and then (contradictions
    found in propagation, or givens that break a rule)."""
    cases = []
    for line in data_lines("sudoku9_forum_hardest_1905_11plus.txt", limit=hardest, step=step):
        givens = [int(c) if c.isdigit() else 0 for c in line[:81]]
        for i in rng.sample([i for i, v in enumerate(givens) if v], 3):
            givens[i] = 0
        cases.append(givens)
    for _ in range(randoms):
        grid = full_grid((3, 3), rng)
        givens = [v if rng.random() < 0.4 else 0 for v in grid]
        if rng.random() < 0.5:
            givens[rng.randrange(81)] = rng.randint(1, 9)
        cases.append(givens)
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("locked", [True, False])
def test_9x9_counts_all_against_dlx(locked):
    """The 9x9 kernel (native/sudoku9.c) counting every solution, against dlx (exact cover, no
    shared code), on altered puzzles (altered_9x9)."""
    engine, dlx = BitboardEngine(options={"locked": locked}), make_engine("dlx")
    cases = altered_9x9(random.Random(9), hardest=8, step=5000, randoms=12)
    counts = []
    for givens in cases:
        try:
            puzzle = Sudoku((3, 3), givens)
        except InvalidPuzzleError:
            continue
        a, b = engine.run(puzzle, limit=None), dlx.run(puzzle, limit=None)
        assert (a.status, a.count) == (b.status, b.count), puzzle.write()
        assert a.verified and b.verified
        counts.append(a.count)
    assert 0 in counts and 1 in counts and max(counts) > 1000   # every kind of case was met


KERNELS = _native.sudoku9_kernels()
"""The copies of the 9x9 kernel this processor runs (one per instruction set,
native/sudoku9_isa.c), the one picked by default first."""


@pytest.mark.skipif(len(KERNELS) < 2, reason=f"this processor runs one copy of the 9x9 kernel ({KERNELS})")
@pytest.mark.parametrize("locked", [True, False])
def test_every_copy_of_the_9x9_kernel_searches_alike(locked):
    """Every copy of the 9x9 kernel this processor runs gives the same counts, first solutions
    and counters (nodes, guesses, backtracks, singles, locked eliminations: the same search) on
    the sets' puzzles and on altered ones counted to 5,000 (many solutions, contradictions,
    givens that break a rule), so that a copy compiled wrong for its instructions fails here
    (the default copy is held to dlx and to published solutions by the tests above)."""
    rng = random.Random(20)
    cases = [[int(c) if c.isdigit() else 0 for c in line[:81]]
             for name, step in [("sudoku9_royle_17clue_49158.txt", 491), ("sudoku9_forum_hardest_1905_11plus.txt", 487),
                                ("sudoku9_magictour_top1465.txt", 15)]
             for line in data_lines(name, limit=100, step=step)]
    cases += altered_9x9(rng, hardest=60, step=800, randoms=60)
    values = bytes(v for givens in cases for v in givens)
    outs = {}
    try:
        for kernel in KERNELS:
            assert _native.sudoku9_kernel(kernel) == kernel
            timed_out, counts, stats, _, solutions = _native.sudoku9_batch(values, 5000, 0.0, locked)
            outs[kernel] = (timed_out, counts, stats, solutions)
    finally:
        _native.sudoku9_kernel(KERNELS[0])
    first = outs[KERNELS[0]]
    for kernel in KERNELS[1:]:
        assert outs[kernel] == first, f"{kernel} and {KERNELS[0]} differ"
    counts = memoryview(first[1]).cast("Q").tolist()
    assert len(counts) == len(cases) >= 400 and not any(first[0])
    assert counts.count(0) >= 10 and counts.count(1) >= 300 and max(counts) > 1000   # every kind of case met


def cpu_flags() -> tuple[set[str], str, int]:
    """The processor's flags, vendor and family as Linux's /proc/cpuinfo gives them."""
    fields = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            if not line.strip():
                break
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    return set(fields.get("flags", "").split()), fields.get("vendor_id", ""), int(fields.get("cpu family", "0"))


@pytest.mark.skipif(not (os.uname().machine == "x86_64" and os.path.exists("/proc/cpuinfo")),
                    reason="the processor's flags are read from Linux's /proc/cpuinfo on x86-64")
def test_the_copies_of_the_9x9_kernel_are_those_the_processor_runs():
    """The copies on offer follow the processor's flags as Linux reads them (CPUID read twice,
    independently): x86-64-v2 with popcnt, SSE3, SSSE3, SSE4.1 and SSE4.2; with BMI1 and BMI2
    too, the copy using pext, except on AMD families 15h and 17h (pext in microcode there)."""
    flags, vendor, family = cpu_flags()
    v2 = {"popcnt", "pni", "ssse3", "sse4_1", "sse4_2"} <= flags
    bmi2 = v2 and {"bmi1", "bmi2"} <= flags and not (vendor == "AuthenticAMD" and family in (0x15, 0x17))
    assert KERNELS == ("x86-64-v2+bmi2",) * bmi2 + ("x86-64-v2",) * v2 + ("baseline",)


def python_with_kernel(script: str, wanted: str | None) -> subprocess.CompletedProcess:
    """``python -c script`` from this checkout, PUZZLEBENCH_NATIVE_KERNEL set to ``wanted`` (or
    unset)."""
    env = {k: v for k, v in os.environ.items() if k != "PUZZLEBENCH_NATIVE_KERNEL"}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO,
                          env={**env, "PYTHONPATH": str(REPO), **({"PUZZLEBENCH_NATIVE_KERNEL": wanted} if wanted else {})})


def test_the_9x9_kernel_copy_is_picked_by_the_environment_and_named_in_the_version():
    """PUZZLEBENCH_NATIVE_KERNEL picks a copy at load time (a name that does not run here is
    passed over: the default); the module function switches copies, refuses a name that does
    not run here, and the engine's version names the copy in use."""
    script = ("from puzzlebench import _native; from puzzlebench.engines.bitboard import BitboardEngine; "
              "print(_native.sudoku9_kernel(), BitboardEngine.version())")
    for wanted, expected in [(None, KERNELS[0]), ("baseline", "baseline"), ("no-such-copy", KERNELS[0])]:
        run = python_with_kernel(script, wanted)
        assert run.returncode == 0, run.stderr
        assert ("warning" in run.stderr) == (wanted == "no-such-copy"), run.stderr
        kernel, version = run.stdout.split(" ", 1)
        assert kernel == expected and version.strip().endswith(f"(9x9 kernel: {expected})"), run.stdout
    in_use = _native.sudoku9_kernel()
    with pytest.raises(ValueError, match="'no-such-copy' does not run here"):
        _native.sudoku9_kernel("no-such-copy")
    assert _native.sudoku9_kernel() == in_use
    assert BitboardEngine.version().endswith(f"(9x9 kernel: {in_use})")


def test_a_9x9_kernel_copy_not_on_offer_is_named_in_one_warning():
    """PUZZLEBENCH_NATIVE_KERNEL set to a name no copy has here: the default copy runs, and the
    engine says so once on stderr, naming the copies on offer, however many puzzles it solves
    (a user timing a copy by name would otherwise time another without knowing)."""
    lines = [line[:81] for line in data_lines("sudoku9_forum_hardest_1905_11plus.txt", limit=3, step=1)]
    script = ("from puzzlebench import api, _native; "
              f"rs = [r for _ in range(2) for r in api.solve_many({lines!r}, solver='bitboard')]; "
              "print(_native.sudoku9_kernel(), len(rs), all(r.verified for r in rs))")
    run = python_with_kernel(script, "nonsense")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [KERNELS[0], "6", "True"]
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("puzzlebench: warning: PUZZLEBENCH_NATIVE_KERNEL='nonsense'")
    assert all(name in lines[0] for name in KERNELS) and lines[0].endswith(f"using {KERNELS[0]!r}")


def test_16x16_unique():
    for line in data_lines("sudoku16_vu_kr_1000.txt", limit=5, step=150):
        result = BB.run(parse_sudoku_line(line))
        assert result.status is Status.UNIQUE and result.verified


def test_4x4_set_against_mrv():
    for line in data_lines("sudoku4_vu_kr_1000.txt", limit=40, step=25):
        agree(parse_sudoku_line(line), limit=None)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (2, 4)])
def test_counts_all_against_mrv(box):
    """Sparse grids with many solutions, counted to the end by both."""
    rng = random.Random(hash(box) & 0xFFFF)
    n = box[0] * box[1]
    for _ in range(4):
        grid = full_grid(box, rng)
        keep = set(rng.sample(range(n * n), int(n * n * (0.3 if n == 4 else 0.62))))
        puzzle = Sudoku(box, [v if i in keep else 0 for i, v in enumerate(grid)])
        agree(puzzle, limit=None)


@pytest.mark.parametrize("box", SHAPES)
def test_every_shape_solves_and_checks(box):
    rng = random.Random(box[0] * 100 + box[1])
    n = box[0] * box[1]
    grid = full_grid(box, rng)
    # half the cells empty up to 20x20; 30% from 25x25 on (at 40-50% the plain DFS meets
    # heavy-tailed searches on 36x36 and larger grids: see results/bitboard.md)
    holes = set(rng.sample(range(n * n), int(n * n * (0.5 if n <= 20 else 0.3))))
    puzzle = Sudoku(box, [0 if i in holes else v for i, v in enumerate(grid)])
    result = BB.run(puzzle, limit=1)
    assert result.status is Status.SAT and result.verified


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]), st.integers(0, 2**32),
       st.floats(0.0, 0.9), st.sampled_from([1, 2, 3, None]), st.booleans())
def test_random_small_grids_agree_with_mrv(box, seed, fill, limit, noise):
    """Random givens (from a full grid, plus a wrong value now and then): bitboard == mrv."""
    rng = random.Random(seed)
    n = box[0] * box[1]
    if limit is None:  # counting all: keep the counts small enough for mrv
        fill = max(fill, {4: 0.2, 6: 0.45}.get(n, 0.6))
    grid = full_grid(box, rng)
    givens = [v if rng.random() < fill else 0 for v in grid]
    if noise:
        givens[rng.randrange(n * n)] = rng.randint(1, n)
    try:
        puzzle = Sudoku(box, givens)
    except InvalidPuzzleError:
        return
    agree(puzzle, limit=limit)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.floats(0.3, 0.95))
def test_random_grids_of_every_shape(box, seed, fill):
    """Any shape: a solution found is checked, the original grid is always a solution."""
    rng = random.Random(seed)
    grid = full_grid(box, rng)
    if box[0] * box[1] > 16:
        fill = max(fill, 0.7)
    puzzle = Sudoku(box, [v if rng.random() < fill else 0 for v in grid])
    result = BB.run(puzzle, limit=1, time_limit=0.5)
    assert result.status in (Status.SAT, Status.TIMEOUT) and result.status is not Status.ERROR
    if result.status is Status.SAT:
        assert result.verified


def test_unsat_9x9():
    # no duplicate among the givens, yet r1c9 has no value left
    text = "12345678." + "........9" + "." * 63
    assert agree(parse_sudoku_line(text)).status is Status.UNSAT


def test_time_limit_stops_search():
    result = BB.run(parse_sudoku_line("." * 81), limit=None, time_limit=0.05)
    assert result.status is Status.TIMEOUT and result.count > 0 and result.verified
    result = BB.run(Sudoku((4, 4), [0] * 256), limit=None, time_limit=0.05)
    assert result.status is Status.TIMEOUT


def test_every_kind_it_takes_has_its_native_search():
    from puzzlebench.engines.bitboard import _SEARCHES
    assert set(_SEARCHES) == BB.kinds == {"sudoku", "nqueens", "skyscrapers", "sudoku-x", "jigsaw", "latin"}


def test_statistics_are_reported():
    result = BB.run(parse_sudoku_line(data_lines("sudoku9_magictour_top1465.txt", limit=1)[0][:81]))
    s = result.stats
    assert s.nodes >= 1 and s.guesses >= 1 and s.propagations > 0
    assert s.raw["naked_singles"] + s.raw["hidden_singles"] + s.raw["locked_eliminations"] == s.propagations
    assert set(BB.statistics) <= {"nodes", "guesses", "backtracks", "conflicts", "propagations"}


# -- the batch path ------------------------------------------------------------------------

def test_batch_matches_single_runs():
    lines = [l[:81] for l in data_lines("sudoku9_magictour_top1465.txt", limit=30, step=40)]
    lines.append("." * 81)  # many solutions
    lines.append("12345678." + "........9" + "." * 63)  # unsat
    batch = api.solve_many(lines, solver="bitboard")
    assert batch.columns is not None and len(batch) == len(lines)   # one C call, read as columns
    for line, lean in zip(lines, batch):
        single = BB.run(parse_sudoku_line(line))
        assert (lean.status, lean.count) == (single.status, single.count)
        assert lean.verified or lean.status is Status.UNSAT
        if single.status is Status.UNIQUE:
            assert lean.solution == single.solution
        assert lean.stats == single.stats
        assert lean.puzzle.write() == line


def test_batch_records_read_from_the_columns_are_the_dataclass_records():
    """A record of a batch's columns is a view (native/records.c) that reads each field when
    asked: for a batch of puzzle objects holding its puzzle, for lines read as text building it
    when asked; field for field what the engine's own run gives (the batch keeps the first
    solution), and a record pickles as a plain Result."""
    import pickle
    from puzzlebench.results import Result, Stats, Times
    lines = [l[:81] for l in data_lines("sudoku9_magictour_top1465.txt", limit=6, step=200)] + ["." * 81]
    sudokus = [parse_sudoku_line(l) for l in lines]
    objects = BB.run_many(sudokus)
    assert objects.columns is not None
    for puzzle, record in zip(sudokus, objects):
        single = BB.run(puzzle)
        assert isinstance(record, Result) and isinstance(record.times, Times) and isinstance(record.stats, Stats)
        assert record.puzzle is puzzle and record.source == puzzle.source
        assert (record.status, record.count, record.solutions, record.stats, record.size, record.verified) == (
            single.status, single.count, single.solutions[:1], single.stats, single.size, single.verified)
        assert record.solution == single.solution
        assert record.times.total >= record.times.solve > 0 and record.error is None
    texts = api.solve_many(lines, solver="bitboard")
    for line, puzzle, record in zip(lines, sudokus, texts):
        assert record.solution == BB.run(puzzle).solution
        assert record.puzzle.write() == line
    kept = pickle.loads(pickle.dumps(texts[0]))
    assert type(kept) is Result and type(kept.stats) is Stats and kept == texts[0]
    assert (kept.solution, kept.puzzle.write(), kept.stats) == (texts[0].solution, lines[0], texts[0].stats)
    assert [r.status for r in texts[2:4]] == [r.status for r in objects[2:4]]   # a slice reads the same
    with pytest.raises(ValueError, match="unequal"):
        _native.column_records("sudoku", "bitboard", 2, [Status.UNIQUE], [1, 1], [0.0], [0.0],
                               (None,) * 5, (), [], {}, 81, None, bytes(81), 0.0, 0.0, [], None, 0, 1)


def test_batch_record_solution_tuples_are_left_to_refcounting():
    """A record's solution tuple (ints only, so never in a cycle) is untracked by the cyclic
    collector when built (native/records.c), and holds the same values as the engine's run; the
    record objects that a caller may mutate stay tracked, so a cycle through one is collected."""
    import gc
    import weakref
    lines = [l[:81] for l in data_lines("sudoku9_magictour_top1465.txt", limit=3, step=300)]
    for line, record in zip(lines, api.solve_many(lines, solver="bitboard")):
        assert not gc.is_tracked(record.solutions[0])
        assert record.solutions[0] == BB.run(parse_sudoku_line(line)).solutions[0]
        assert gc.is_tracked(record) and gc.is_tracked(record.times) and gc.is_tracked(record.stats)
    record = next(iter(api.solve_many(lines[:1], solver="bitboard")))
    record.stats.raw["self"] = record   # a cycle: record -> stats -> raw -> record
    gone = weakref.ref(record)
    del record
    gc.collect()
    assert gone() is None


def test_batch_limits():
    lines = [l[:81] for l in data_lines("sudoku9_royle_17clue_49158.txt", limit=50, step=900)]
    assert [r.status for r in api.solve_many(lines, solver="bitboard", limit=1)] == [Status.SAT] * len(lines)
    assert [r.status for r in api.solve_many(lines, solver="bitboard", limit=None)] == [Status.UNIQUE] * len(lines)


def test_run_many_takes_the_batch_for_9x9_and_runs_the_rest_alone():
    lines = [l[:81] for l in data_lines("sudoku9_magictour_top1465.txt", limit=5, step=200)]
    sudokus = [parse_sudoku_line(l) for l in lines]
    assert BB.run_many(sudokus).columns is not None
    results = BB.run_many(sudokus + [NQueens(6), Sudoku((2, 2), [0] * 16)])
    assert [r.status for r in results] == [Status.UNIQUE] * 5 + [Status.MULTIPLE, Status.MULTIPLE]
    assert all(r.verified for r in results)
    texts = api.solve_many(lines + ["...3..4114..3..."], solver="bitboard")
    assert [r.status for r in texts] == [Status.UNIQUE] * 6
    assert texts[5].verified and texts[5].solution == MRV.run(parse_sudoku_line("...3..4114..3...")).solution


BAD_LINES = [
    "x" + "." * 80, "?" + "." * 80, "." * 40 + "A" + "." * 40, "." * 80 + "z",
    "." * 10 + "'" + "." * 70, "." * 10 + " " + "." * 70, "." * 80 + "é",
    "55" + "." * 79, "5" + "." * 8 + "5" + "." * 71, "5" + "." * 9 + "5" + "." * 70,  # row, column, block
    "." * 80 + "1", "0" * 81, "_" * 80 + "9",
]


def taken_by_the_batch(line: str) -> bool:
    batch, taken = read_sudoku_lines([line])
    assert taken in ([], [0])
    return bool(taken)


@pytest.mark.parametrize("line", BAD_LINES)
def test_batch_reader_takes_exactly_what_the_model_reads(line):
    """read_sudoku_lines (bulk, validated in C) takes a line exactly when parse_sudoku_line
    reads it, with the same givens; solve_many gives the model's own error for the rest."""
    try:
        expected = parse_sudoku_line(line)
    except PuzzleError as exc:
        assert not taken_by_the_batch(line)
        result = api.solve_many([line], solver="bitboard")[0]
        assert result.status is Status.ERROR and result.error.endswith(exc.message)
        return
    batch, _ = read_sudoku_lines([line])
    assert batch[0].givens == expected.givens and batch[0].write() == expected.write()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from("..........123456789_0aZ #é"), min_size=16, max_size=16))
def test_batch_reader_agrees_with_the_model_on_random_lines(chars):
    line = "".join(chars)
    try:
        expected = parse_sudoku_line(line.strip())
    except PuzzleError:
        assert not taken_by_the_batch(line)
        return
    batch, taken = read_sudoku_lines([line])
    assert taken == [0] and batch[0].givens == expected.givens and batch.box == expected.box


def test_exact_error_texts():
    batch = api.solve_many(["?" + "." * 80, "55" + "." * 79, "." * 40 + "A" + "." * 40], solver="bitboard")
    assert batch[0].error.endswith("unexpected character '?': expected a value (1-9, A-Z) or an "
                                   "empty cell (. 0 _)")
    assert batch[1].error.endswith("row 1 has two 5s")
    assert batch[2].error.endswith("value 'A' (10) is out of range for a 9x9 Sudoku (1..9)")
    assert [r.status for r in batch] == [Status.ERROR] * 3


def test_batch_other_lines_fall_back():
    lines = ["...3..4114..3...", "." * 81, "." * 80 + "é", "", "1" * 5]
    batch = api.solve_many(lines, solver="bitboard")
    assert [r.status for r in batch] == [Status.UNIQUE, Status.MULTIPLE] + [Status.ERROR] * 3


def test_batch_call_refuses_what_is_not_packed_givens():
    with pytest.raises(ValueError, match="not a whole number of 81-cell puzzles"):
        _native.sudoku9_batch(bytes(80), 2, 0.0, True)
    with pytest.raises(ValueError, match="value 10 at cell 3 of puzzle 1 is outside 0..9"):
        _native.sudoku9_batch(bytes(84) + bytes([10]) + bytes(77), 2, 0.0, True)
    with pytest.raises(TypeError):
        _native.sudoku9_batch(["." * 81], 2, 0.0, True)


# -- malformed buffers: a Python exception, never a crash --------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: _native.sudoku_solve(3, 3, bytes(80), 2, 1, 0.0, True), "givens: expected 81 bytes, got 80"),
    (lambda: _native.sudoku_solve(3, 3, bytes([10]) + bytes(80), 2, 1, 0.0, True), "givens[0] = 10 is outside 0..9"),
    (lambda: _native.sudoku_solve(9, 9, bytes(81 * 81), 2, 1, 0.0, True), "block shape 9x9: 1 to 64 values supported"),
    (lambda: _native.sudoku_solve(0, 3, b"", 2, 1, 0.0, True), "block shape 0x3: 1 to 64 values supported"),
    (lambda: _native.sudoku_solve(3, 3, bytes(81), -1, 1, 0.0, True), "limit must be >= 0 or None"),
    (lambda: _native.sudoku_solve(3, 3, bytes(81), 2, -1, 0.0, True), "keep must be >= 0"),
    (lambda: _native.nqueens_solve(65, bytes(65), 2, 1, 0.0, True), "n = 65: 1 to 64 supported"),
    (lambda: _native.nqueens_solve(4, bytes([5, 0, 0, 0]), 2, 1, 0.0, True), "placed[0] = 5 is outside 0..4"),
    (lambda: _native.nqueens_solve(4, bytes(3), 2, 1, 0.0, True), "placed: expected 4 bytes, got 3"),
    (lambda: _native.skyscrapers_solve(10, bytes(10), bytes(10), bytes(10), bytes(10), bytes(100), 2, 1, 0.0),
     "n = 10: 1 to 9 supported"),
    (lambda: _native.skyscrapers_solve(4, bytes([5, 0, 0, 0]), bytes(4), bytes(4), bytes(4), bytes(16), 2, 1, 0.0),
     "top[0] = 5 is outside 0..4"),
    (lambda: _native.skyscrapers_solve(4, bytes(4), bytes(4), bytes(4), bytes(4), bytes(15), 2, 1, 0.0),
     "givens: expected 16 bytes, got 15"),
])
def test_malformed_buffers_raise(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("rows, cols", [(10**6, 10**6), (65536, 65536), (10**6, 1), (-1, 9)])
def test_check_batch_refuses_a_huge_shape_before_multiplying_it(rows, cols):
    """rows*cols overflows an int (65536*65536 wrapped to 0 and passed as a 0x0 grid)."""
    with pytest.raises(ValueError, match=rf"^block shape {rows}x{cols}: 1 to 64 values$"):
        _native.sudoku_answers_right(rows, cols, b"", b"")
    with pytest.raises(ValueError, match=rf"^block shape {rows}x{cols}: 1 to 64 values$"):
        _native.sudoku_givens_right(rows, cols, b"")


def test_batch_counters_are_64_bit_from_c_to_the_reader():
    """A long search passes 2^32 nodes: the batch's counters are uint64_t in C and read as
    such (they were 32-bit fields, cut modulo 2^32)."""
    puzzle = parse_sudoku_line(data_lines("sudoku9_norvig_top95.txt", limit=1)[0][:81])
    timed_out, counts, stats, seconds, solutions = _native.sudoku9_batch(bytes(puzzle.givens), 2, 0.0, True)
    assert len(stats) == 6 * 8 and len(counts) == 8
    batch = BB.run_many([puzzle, puzzle])
    assert batch.columns is not None and batch[0].stats == BB.run(puzzle).stats
    assert batch[0].stats.raw["nodes"] == memoryview(stats).cast("Q")[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux applies it")
def test_an_allocation_failure_in_the_search_is_a_memory_error():
    """A 64x64 search's tables (about 3 MB) cannot be allocated under a tight address-space
    limit: MemoryError, not the 'n = ...: 1 to 9 supported' it once said."""
    script = textwrap.dedent("""
        import resource
        from puzzlebench import _native
        def used():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (used() + (1 << 20), resource.RLIM_INFINITY))
        try:
            _native.sudoku_solve(8, 8, bytes(4096), 1, 0, 0.0, True)
        except MemoryError:
            print("MemoryError")
        except Exception as e:
            print(type(e).__name__, e)
        else:
            print("no error")
        """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "MemoryError", out.stdout + out.stderr


def test_duplicate_givens_reaching_c_are_unsat_not_a_crash():
    for box in [(3, 3), (2, 3)]:
        n = box[0] * box[1]
        count, timed_out, sols, _ = _native.sudoku_solve(*box, bytes([1, 1] + [0] * (n * n - 2)), 2, 1, 0.0, True)
        assert (count, timed_out, sols) == (0, False, b"")
    count, *_ = _native.nqueens_solve(4, bytes([1, 1, 0, 0]), None, 1, 0.0, True)
    assert count == 0


# -- sanitizer build ---------------------------------------------------------------------------------

SANITIZED_SCRIPT = textwrap.dedent(r"""
    import random, sys
    sys.path.insert(0, sys.argv[1])
    import puzzlebench._native as N
    assert N.__file__.startswith(sys.argv[1]), N.__file__
    rng = random.Random(1)
    lines = [l.strip()[:81] for l in open(sys.argv[2])][:300]
    table = bytes.maketrans(b".123456789", bytes(range(10)))
    for kernel in N.sudoku9_kernels():   # every copy of the 9x9 kernel this processor runs
        N.sudoku9_kernel(kernel)
        N.sudoku9_batch("".join(lines).encode().translate(table), 2, 1.0, True)
        N.sudoku9_batch(bytes([1, 1] + [0] * 79) + bytes(81), 2, 1.0, True)   # givens that break a rule
    for box in [(2, 2), (3, 3), (4, 4)]:
        n = box[0] * box[1]
        N.sudoku_givens_right(*box, bytes(rng.randint(0, 255) for _ in range(n * n * 5)))
        N.sudoku_answers_right(*box, bytes(rng.randint(0, 255) for _ in range(n * n * 5)), bytes(n * n * 5))
    for box in [(2, 2), (2, 3), (3, 4), (4, 4), (5, 5), (8, 8)]:
        n = box[0] * box[1]
        N.sudoku_solve(*box, bytes(n * n), 1, 3, 0.5, True)
        N.sudoku_solve(*box, bytes([1, 1] + [0] * (n * n - 2)), 2, 1, 0.5, False)
    from array import array
    for n in (1, 2, 5, 9, 16, 64):   # grids of units: Latin, random regions, overlapping units
        cells = list(range(n * n))
        rows_cols = [r * n + c for r in range(n) for c in range(n)] + [r * n + c for c in range(n) for r in range(n)]
        rng.shuffle(cells)
        overlapping = [c for u in range(2 * n) for c in rng.sample(range(n * n), n)]
        for units in (rows_cols, rows_cols + cells, rows_cols + overlapping, []):
            N.units_solve(n, array("H", units), bytes(n * n), 2, 2, 0.15, True)
            N.units_solve(n, array("H", units), bytes([1, 1] + [0] * (n * n - 2)) if n > 1 else bytes(1),
                          2, 1, 0.15, False)
    for n in (1, 5, 12, 63, 64):
        N.nqueens_solve(n, bytes(n), 3, 3, 0.5, True)
    print(N.nqueens_solve(10, bytes(10), None, 5, 0.0, True)[0])
    for n in range(1, 10):
        N.skyscrapers_solve(n, bytes(n), bytes(n), bytes(n), bytes(n), bytes(n * n), 3, 3, 0.5)
        clues = [bytes(rng.choice([0, rng.randint(1, n)]) for _ in range(n)) for _ in range(4)]
        givens = bytes(rng.choice([0, 0, rng.randint(1, n)]) for _ in range(n * n))
        N.skyscrapers_solve(n, *clues, givens, 2, 2, 0.5)
    # fuzzed inputs: mutated puzzle lines and random bytes for every C reader
    alphabet = b"0123456789.x_ \n\r\t\xc3\xa9\x00\xff"
    for _ in range(300):
        line = bytearray(rng.choice(lines[:300]).encode("latin-1", "replace"))
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(line) + 1)
            op = rng.randrange(3)
            if op == 0 and line:
                del line[at % len(line)]
            elif op == 1:
                line.insert(at, rng.choice(alphabet))
            elif line:
                line[at % len(line)] = rng.choice(alphabet)
        text = bytes(line)
        try:
            N.sudoku9_batch(text, 2, 0.5, True)
        except ValueError:
            pass
    for box in [(2, 2), (2, 3), (3, 3), (4, 4)]:
        n = box[0] * box[1]
        for _ in range(30):
            givens = bytes(rng.choice([0, 0, 0, rng.randint(0, 255)]) for _ in range(n * n))
            answers = bytes(rng.randint(0, 255) for _ in range(n * n))
            for call in (lambda: N.dlx_sudoku_batch(givens, box[0], box[1], 2, 1, 0.5),
                         lambda: N.sudoku_answers_right(box[0], box[1], answers, givens)):
                try:
                    call()
                except ValueError:   # a clean refusal is right; a crash or UB is not
                    pass
    for box in [(2, 5), (5, 5), (8, 8)]:     # the bitset kernel past 1,024 options
        N.dlx_sudoku_batch(bytes(box[0] * box[1]) * box[0] * box[1], box[0], box[1], 2, 1, 0.5)
    for rows, cols in [(65536, 65536), (10**6, 10**6), (46341, 46341)]:   # products past an int
        for call in (lambda: N.dlx_sudoku_batch(b"", rows, cols, 2, 1, 0.5),
                     lambda: N.sudoku_answers_right(rows, cols, b"", b"")):
            try:
                call()
            except ValueError:
                pass
    print("ok")
""")


@pytest.mark.slow
def test_sanitizer_build(tmp_path):
    """Build the extension with ASan/UBSan (PUZZLEBENCH_SANITIZE=1) into a temporary copy and
    run every entry point under it."""
    needs_program("gcc")   # to build a sanitized extension
    libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan) or not os.path.exists(libasan):
        pytest.skip("gcc has no libasan.so here")
    copy = tmp_path / "src"
    shutil.copytree(REPO / "puzzlebench", copy / "puzzlebench",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(REPO / name, copy / name)
    env = {**os.environ, "PUZZLEBENCH_SANITIZE": "1"}
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=copy,
                           env=env, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    data = REPO.parent / "shared" / "data" / "sudoku9_magictour_top1465.txt"
    if not data.exists():
        pytest.skip("public data set sudoku9_magictour_top1465.txt not found")
    (tmp_path / "run.py").write_text(SANITIZED_SCRIPT)
    run_env = {**os.environ, "LD_PRELOAD": libasan,
               "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
               "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
    run = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(copy), str(data)],
                         env=run_env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["724", "ok"]


def test_records_read_from_text_build_their_puzzle_only_when_asked_and_travel_whole():
    import dataclasses
    import pickle
    from puzzlebench.results import Result
    lines = [l[:81] for l in data_lines("sudoku9_royle_17clue_49158.txt", limit=3)]
    lines[1] = lines[1].replace(".", "0")
    for line, record in zip(lines, api.solve_many(lines, solver="bitboard")):
        expected = BB.run(parse_sudoku_line(line))
        assert isinstance(record, Result) and record.solution == expected.solution
        assert record.to_dict()["solution"] == expected.to_dict()["solution"]
        assert record.puzzle.givens == expected.puzzle.givens and record.puzzle.write() == line
        again = pickle.loads(pickle.dumps(record))
        assert again.puzzle.write() == line and again.solution == record.solution
        assert len(pickle.dumps(record)) < 4000   # not the whole batch
        assert dataclasses.replace(record, count=7).puzzle.write() == line
