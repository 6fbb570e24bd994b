"""CNF encodings, DIMACS in and out, external solvers, and the PySAT engines."""

import json
import subprocess
import sys
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import data_lines, needs_program
from puzzlebench.cli import main
from puzzlebench.encoders.cnf import (AMO_ENCODINGS, ENCODINGS, empty_grid_clause_count, encode,
                                      unit_partitions)
from puzzlebench.encoders.dimacs import SAT_EXIT, UNSAT_EXIT, check_answer, read_answer, read_dimacs
from puzzlebench.encoders.registry import FORMATS
from puzzlebench.errors import ParseError
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.reader import parse_line
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.engines.mrv import MrvEngine
from puzzlebench.engines.sat import EXCLUDED, VARIANTS, SatEngine
from puzzlebench.engines.registry import make_engine

MRV = MrvEngine()
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


# -- clause counts of the empty grid (Kwon & Jain 2006) ----------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("box, encoding, clauses", [
    ((3, 3), "minimal", 8829), ((3, 3), "efficient", 11745), ((3, 3), "extended", 11988),
    ((3, 3), "optimized", 11988),
    ((4, 4), "minimal", 92416), ((4, 4), "extended", 123904),
    ((5, 5), "minimal", 563125), ((5, 5), "extended", 752500),
])
def test_empty_grid_clause_counts_are_the_literatures(box, encoding, clauses):
    assert empty_grid_clause_count(box, encoding) == clauses


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 4), (2, 4)])
def test_rectangular_blocks_follow_the_same_formula(box):
    n = box[0] * box[1]
    minimal = n * n + 3 * n * n * comb(n, 2)
    counts = {e: empty_grid_clause_count(box, e) for e in ENCODINGS}
    print(f"{box[0]}x{box[1]} blocks: {counts}")  # reported (pytest -s)
    assert counts["minimal"] == minimal
    assert counts["efficient"] == minimal + n * n * comb(n, 2)
    assert counts["extended"] == counts["efficient"] + 3 * n * n


# -- the augmented encoding (tdoku's triads, derived from the vocabulary) ----------------------------

def augmented_counts(box):
    """Variables and clauses of the empty grid, from the construction: cells exactly-one;
    a triad per row segment (c cells) and column segment (r cells) and value, exactly one of
    its cells and its negation; per value, exactly one triad of each row (r of them), column
    (c), block by row segments (r) and block by column segments (c).  Pairwise: exactly one
    of k literals is 1 + C(k, 2) clauses."""
    r, c = box
    n = r * c
    eo = lambda k: 1 + comb(k, 2)  # noqa: E731
    clauses = (n * n * eo(n)                                   # cells
               + r * n * n * eo(c + 1) + c * n * n * eo(r + 1)  # triad definitions
               + 2 * n * n * (eo(r) + eo(c)))                   # rows, columns, blocks twice
    return n ** 3 + (r + c) * n * n, clauses


@pytest.mark.parametrize("box, variables, clauses", [
    ((3, 3), 1215, 7695), ((2, 3), 396, 1944), ((4, 4), 6144, 60672)])
def test_augmented_counts(box, variables, clauses):
    n = box[0] * box[1]
    cnf = encode(Sudoku(box, [0] * n * n), "augmented")
    assert (cnf.n_vars, cnf.n_clauses) == (variables, clauses) == augmented_counts(box)


@pytest.mark.parametrize("box", [(2, 2), (3, 2), (3, 4), (4, 3), (2, 4)])
def test_augmented_counts_follow_the_construction_for_rectangular_blocks(box):
    n = box[0] * box[1]
    cnf = encode(Sudoku(box, [0] * n * n), "augmented")
    assert (cnf.n_vars, cnf.n_clauses) == augmented_counts(box)


def test_sudoku_units_are_partitioned_into_their_segments():
    rules = Sudoku((2, 3), [0] * 36).rules
    parts = unit_partitions(rules)
    names = {i: con.name for i, con in enumerate(rules.constraints)}
    by_name = {names[i]: p for i, p in parts.items()}
    assert len(by_name) == 18  # every row, column and block
    assert by_name["row 1"] == [[(0, 1, 2), (3, 4, 5)]]             # its two block segments
    assert by_name["column 1"] == [[(0, 6), (12, 18), (24, 30)]]   # its three block segments
    assert sorted(by_name["block 1"]) == [[(0, 1, 2), (6, 7, 8)],   # by rows
                                          [(0, 6), (1, 7), (2, 8)]]  # by columns


def test_augmented_is_extended_where_units_meet_in_one_cell():
    sky = [parse_line(l, kind="skyscrapers") for l in
           data_lines("skyscrapers_random_fullclue_n4to9_sample.txt") if l.startswith("5 ")][0]
    for puzzle in (sky, NQueens(8), NQueens(5, [(0, 0)])):
        assert unit_partitions(puzzle.rules) == {}
        a, e = encode(puzzle, "augmented"), encode(puzzle, "extended")
        assert (a.n_vars, a.clauses, a.units) == (e.n_vars, e.clauses, e.units)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(box=st.sampled_from([(2, 2), (2, 3), (3, 2)]), seed=st.integers(0, 10 ** 6),
       holes=st.integers(0, 36))
def test_augmented_agrees_with_extended_and_mrv_on_random_sudoku(box, seed, holes):
    import random

    from puzzlebench.generators.fill import pattern_sudoku_grid

    rng = random.Random(seed)
    grid = list(pattern_sudoku_grid(box, rng))
    for cell in rng.sample(range(len(grid)), min(holes, len(grid))):
        grid[cell] = 0
    puzzle = Sudoku(box, grid)
    a = SatEngine(None, {"encoding": "augmented"}).run(puzzle, limit=3)
    e = SatEngine(None, {"encoding": "extended"}).run(puzzle, limit=3)
    assert a.verified and e.verified
    assert a.count == e.count == MRV.run(puzzle, limit=3).count


def test_a_puzzle_adds_one_unit_clause_per_given_except_optimized():
    p = parse_sudoku_line(TOP95_FIRST)
    given = sum(1 for g in p.givens if g)
    for e in ("minimal", "efficient", "extended", "augmented"):
        cnf = encode(p, e)
        assert cnf.n_clauses == empty_grid_clause_count((3, 3), e) + given
        assert sorted(cnf.units) == sorted(c * 9 + g for c, g in enumerate(p.givens) if g)
    opt = encode(p, "optimized")
    assert opt.units == []
    assert all(len(c) >= 1 for c in opt.clauses)
    used = {abs(l) for c in opt.clauses for l in c}
    assert not used & set(opt.fixed)  # only undecided variables remain
    assert opt.n_clauses < 3000


# -- every encoding x every kind -----------------------------------------------------------------

def sample_puzzles():
    out = [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku4_vu_kr_1000.txt", 3, 97)]
    out += [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku9_norvig_top95.txt", 2, 40)]
    out += [Sudoku((2, 3), [0] * 36), NQueens(6), NQueens(5, [(0, 0)]), NQueens(3)]
    out += [parse_line(l, kind="skyscrapers") for l in
            data_lines("skyscrapers_random_fullclue_n4to9_sample.txt") if l.startswith("4 ")][:2]
    out += [parse_line(l, kind="skyscrapers") for l in
            data_lines("skyscrapers_random_fullclue_n4to9_sample.txt") if l.startswith("5 ")][:1]
    return out


@pytest.fixture(scope="module")
def puzzles_and_counts():
    puzzles = sample_puzzles()
    return [(p, MRV.run(p, limit=3).count) for p in puzzles]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_solves_every_kind_and_agrees_with_mrv(encoding, puzzles_and_counts):
    engine = SatEngine(None, {"encoding": encoding})
    for puzzle, count in puzzles_and_counts:
        result = engine.run(puzzle, limit=3)
        assert result.error is None and result.verified, (puzzle, result.error)
        assert result.count == count, puzzle


@pytest.mark.parametrize("amo", [a for a in AMO_ENCODINGS if a != "pairwise"])
def test_every_at_most_one_encoding_agrees(amo, puzzles_and_counts):
    engine = SatEngine(None, {"amo": amo, "encoding": "extended"})
    for puzzle, count in puzzles_and_counts[::2]:
        result = engine.run(puzzle, limit=3)
        assert result.verified and result.count == count, (amo, puzzle, result.error)


@pytest.mark.parametrize("n", range(1, 9))
def test_queens_counts_agree_with_oeis(n):
    oeis = {int(f[0]): int(f[1]) for f in (l.split() for l in data_lines("nqueens_solution_counts_oeis.txt"))}
    result = SatEngine().run(NQueens(n), limit=None, keep=100)
    assert result.count == oeis[n] and (result.verified or oeis[n] == 0)


@pytest.mark.slow
def test_every_variant_agrees_on_samples():
    puzzles = [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku9_norvig_top95.txt", 3, 30)]
    puzzles += [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku16_vu_kr_1000.txt", 1)]
    puzzles += [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku9_serg_benchmark.txt", 1)]
    want = [MRV.run(p).count for p in puzzles]
    for variant in VARIANTS:
        engine = SatEngine(variant)
        got = [engine.run(p) for p in puzzles]
        assert [r.count for r in got] == want, variant
        assert all(r.verified for r in got), variant


@pytest.mark.slow
def test_top95_and_16x16_samples_agree_with_mrv_reusing_one_solver():
    engine = SatEngine()
    for name, step in (("sudoku9_norvig_top95.txt", 9), ("sudoku16_vu_kr_1000.txt", 200),
                       ("sudoku4_vu_kr_1000.txt", 50), ("sudoku9_serg_benchmark.txt", 1000)):
        for line in data_lines(name, step=step):
            p = parse_sudoku_line(line.split()[0])
            r = engine.run(p)
            assert r.verified and r.count == MRV.run(p).count, (name, line)


@pytest.mark.slow
def test_skyscrapers_nsol_sample_agrees_with_the_files_counts():
    engine = SatEngine()
    for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", step=60):
        if line.split()[0] not in ("4", "5", "6"):
            continue
        nsol = line.split()[5]
        r = engine.run(parse_line(line, kind="skyscrapers"), limit=2)
        assert r.verified
        assert r.count == (1 if nsol == "nsol=1" else 2), line


def test_statistics_map_pysat_counters():
    r = SatEngine().run(parse_sudoku_line(TOP95_FIRST))
    raw = r.stats.raw
    assert set(raw) == {"decisions", "conflicts", "propagations", "restarts"}
    assert (r.stats.nodes, r.stats.conflicts, r.stats.propagations) == \
        (raw["decisions"], raw["conflicts"], raw["propagations"])
    assert r.stats.propagations > 0 and r.stats.guesses is None


def test_time_limit_interrupts_the_solver():
    from puzzlebench.engines.cnf_file import count_cnf_models

    found = count_cnf_models(*pigeonhole(), "sat", 1, 0.3)
    assert (found.status, found.timed_out, found.count) == ("UNKNOWN", True, 0)


def pigeonhole(holes=10):
    """11 pigeons in 10 holes: hard for resolution, so for CDCL (seconds to minutes)."""
    clauses = [[p * holes + h + 1 for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-(p * holes + h + 1), -(q * holes + h + 1)]
                for h in range(holes) for p in range(holes + 1) for q in range(p)]
    return holes * (holes + 1), clauses


def pigeonhole_cnf():
    """The pigeonhole formula as a kept-solver artifact (a base key: assumptions, switch)."""
    from puzzlebench.encoders.cnf import Cnf

    n_vars, clauses = pigeonhole()
    return Cnf(n_vars, clauses, [], 11, 10, (0,) * 11, "extended", "pairwise", base_key=("php",))


def test_the_engines_watchdog_interrupts_and_leaves_the_next_search_alone():
    import threading
    import time

    from puzzlebench.runtime.limits import Deadline

    engine = SatEngine()
    puzzles = [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku9_norvig_top95.txt", 20)]
    threads = threading.active_count()
    start = time.perf_counter()
    out = engine.search(pigeonhole_cnf(), 1, 1, Deadline(0.3))
    assert out.timed_out and out.count == 0 and time.perf_counter() - start < 5
    for p in puzzles:  # the interrupt of the timed-out search must not reach these
        r = engine.run(p, time_limit=30)
        assert r.status is Status.UNIQUE and r.verified
    assert threading.active_count() <= threads + 1  # one watchdog thread for every search


def test_a_watchdog_that_fired_after_the_search_clears_the_interrupt():
    import time

    from pysat.solvers import Solver

    from puzzlebench.engines.sat import Watchdog

    watchdog = Watchdog()
    with Solver(name=VARIANTS[0], bootstrap_with=[[1, 2], [-1, 2]]) as solver:
        watchdog.arm(solver, time.perf_counter() - 1)  # already past: it fires at once
        for _ in range(200):
            if watchdog._fired:
                break
            time.sleep(0.01)
        assert watchdog.disarm() is True and watchdog.disarm() is False
        assert solver.solve_limited(expect_interrupt=True) is True
    watchdog.stop()


def _child_search(queue):
    from puzzlebench.runtime.limits import Deadline

    queue.put(ENGINE_BEFORE_FORK.search(pigeonhole_cnf(), 1, 1, Deadline(0.3)).timed_out)


ENGINE_BEFORE_FORK = None


def test_a_forked_child_gets_a_watchdog_of_its_own():
    import multiprocessing

    global ENGINE_BEFORE_FORK
    ENGINE_BEFORE_FORK = SatEngine()
    ENGINE_BEFORE_FORK.run(parse_sudoku_line(TOP95_FIRST), time_limit=10)  # the parent's thread
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_search, args=(queue,))
    child.start()
    child.join(30)
    if child.is_alive():
        child.kill()
        pytest.fail("the child's search was never interrupted")
    assert queue.get(timeout=5) is True


@pytest.mark.slow
def test_kept_solvers_are_rebuilt_and_still_agree(monkeypatch):
    import puzzlebench.engines.sat as sat

    monkeypatch.setattr(sat, "REBUILD_PUZZLES", 3)
    engine = SatEngine(None, {"encoding": "augmented"})
    built = set()
    for line in data_lines("sudoku9_norvig_top95.txt", 10):
        p = parse_sudoku_line(line.split()[0])
        r = engine.run(p, time_limit=30)
        built.add(id(next(iter(engine._kept.values())).solver))
        assert r.verified and r.count == MRV.run(p).count
    assert len(built) >= 3
    monkeypatch.setattr(sat, "REBUILD_PUZZLES", 10 ** 9)
    monkeypatch.setattr(sat, "REBUILD_CONFLICTS", 1)  # every puzzle with a conflict
    for line in data_lines("sudoku9_norvig_top95.txt", 5):
        p = parse_sudoku_line(line.split()[0])
        assert engine.run(p).count == MRV.run(p).count


def test_left_out_solvers_say_why():
    assert "cadical195" in EXCLUDED or "cadical195" in VARIANTS
    for name, why in EXCLUDED.items():
        assert why
    assert SatEngine.left_out() == EXCLUDED
    assert VARIANTS[0] == SatEngine().variant


# -- DIMACS ------------------------------------------------------------------------------------

def test_write_then_read_gives_the_same_formula_and_header():
    cnf = encode(parse_sudoku_line(TOP95_FIRST), "extended")
    back = read_dimacs(cnf.write(), "x.cnf")
    assert back.n_vars == 729 and back.clauses == cnf.all_clauses()
    assert back.header["kind"] == "sudoku" and back.header["encoding"] == "extended"
    assert back.header["box"] == "3x3" and back.header["map"].startswith("variable v in 1..729")


@pytest.mark.slow
def test_export_writes_a_formula_of_several_pieces_as_one_text(tmp_path):
    """``export --to dimacs`` writes the text a piece of clauses at a time (an empty 49x49's
    whole text beside its formula took 0.35 GB more): a 16x16's 123,904 clauses are two pieces,
    and the file is the formula's every clause and given, in order, read back whole."""
    puzzle = Sudoku((4, 4), [1] + [0] * 255)
    (tmp_path / "p.txt").write_text(puzzle.write() + "\n")
    assert main(["export", str(tmp_path / "p.txt"), "--kind", "sudoku", "--box", "4x4", "--to", "dimacs",
                 "-o", str(tmp_path / "p.cnf")]) == 0
    cnf = encode(puzzle)
    assert len(cnf.clauses) == 123_904 and len(list(cnf.pieces())) == 4   # header, two pieces, the units
    text = (tmp_path / "p.cnf").read_text()
    assert text == cnf.write()
    assert read_dimacs(text, "p.cnf").clauses == cnf.all_clauses()


@pytest.mark.parametrize("text, message", [
    ("p cnf 3 2\n1 2 0\n", "x.cnf:1:1: the 'p' line declares 2 clauses, the file has 1"),
    # a clause past the declared count: placed where it starts (was the 'p' line's place)
    ("p cnf 2 1\n1 2 0\n-1 0\n", "x.cnf:3:1: clause 2 is past the 1 the 'p' line (line 1) declares"),
    ("c x\np cnf 2 1\n1 2 0   -1\n2 0\n", "x.cnf:3:9: clause 2 is past the 1 the 'p' line (line 2) declares"),
    ("p cnf 2 1\n1 0 0\n", "x.cnf:2:5: clause 2 is past the 1 the 'p' line (line 1) declares"),
    ("p cnf 3 1\n1 4 0\n", "x.cnf:2:3: literal 4 is beyond the 3 variables the 'p' line declares"),
    ("p cnf 3 2\n1 2 0\n-1 3\n", "x.cnf:3: the last clause has no terminating 0"),
    ("c hi\n1 2 0\n", "x.cnf:2:1: a clause before the 'p cnf' line"),
    ("p cnf 3\n", "x.cnf:1:1: expected 'p cnf VARIABLES CLAUSES', got 'p cnf 3'"),
    ("p cnf 2 1\n1 x 0\n", "x.cnf:2:3: 'x' is not a literal (an integer)"),
    ("c nothing\n", "x.cnf:1: no 'p cnf VARIABLES CLAUSES' line"),
    # DIMACS integers are ASCII: Python's int() also reads '1_0' as 10 and '\u0661' as 1,
    # and raises ValueError on '\u00b2' (a superscript two, which str.isdigit() accepts)
    ("p cnf \u00b2 1\n1 0\n", "x.cnf:1:1: expected 'p cnf VARIABLES CLAUSES', got 'p cnf \u00b2 1'"),
    ("p cnf 20 1\n1_0 0\n", "x.cnf:2:1: '1_0' is not a literal (an integer)"),
    ("p cnf 2 1\n\u0661 0\n", "x.cnf:2:1: '\u0661' is not a literal (an integer)"),
    ("p cnf 2 1\n-1 - 0\n", "x.cnf:2:4: '-' is not a literal (an integer)"),
    # lines are counted at '\n' only, as the place of a byte that is not UTF-8 is
    ("p cnf 2 2\n1 0\f\n\u2028 2 0\n-3 0\n", "x.cnf:4:1: literal -3 is beyond the 2 variables the 'p' line declares"),
])
def test_bad_dimacs_is_a_clear_error_with_its_line(text, message):
    with pytest.raises(ParseError) as err:
        read_dimacs(text, "x.cnf")
    assert str(err.value) == message


@pytest.mark.parametrize("answer, message", [
    ("s SATISFIABLE\nv 1 -2 7 0\n", "out.txt:2:8: the answer names variable 7; the formula has 3"),
    ("s SATISFIABLE\nv -1 -2 3 0\n", "out.txt: the answer does not satisfy the clause 1 2 0 (line 2 of x.cnf)"),
    # a cut file: the missing 0 is named, at the place it should be (was the bare clause message)
    ("s SATISFIABLE\nv -1\nv -2 3", "out.txt:3:7: the model stops without its closing 0 (a truncated answer?) "
                                     "and does not satisfy the clause 1 2 0 (line 2 of x.cnf)"),
    ("v 1 0\n", "out.txt:1: no status line ('s SATISFIABLE', 's UNSATISFIABLE' or MiniSat's 'SAT')"),
    ("s MAYBE\n", "out.txt:1:1: unknown status 'MAYBE'"),
    ("c x\ns UNSATISFIABLE\nv 1 -2 3 0\n", "out.txt:3:3: the answer says UNSATISFIABLE (line 2) and gives a model"),
    ("UNSAT\n-1 0\n", "out.txt:2:1: the answer says UNSATISFIABLE (line 1) and gives a model"),
    ("c solver\n s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n", "out.txt:4:1: a second status, UNSATISFIABLE, after "
                                                          "SATISFIABLE (line 2)"),
    ("s SATISFIABLE\nv 1 2\nv 3 -1 0\n", "out.txt:3:5: variable 1 is given both values (first at line 2)"),
    ("SAT\n1 2_0 0\n", "out.txt:2:3: '2_0' is not a literal in the solver's answer"),
    ("SAT\n1 \u0663 0\n", "out.txt:2:3: '\u0663' is not a literal in the solver's answer"),
    ("SAT\n1 " + "9" * 5000 + " 0\n", "out.txt:2:3: '" + "9" * 5000 + "' is not a literal in the solver's answer"),
])
def test_bad_answers_are_clear_errors(answer, message):
    cnf = read_dimacs("p cnf 3 2\n1 2 0\n-1 3 0\n", "x.cnf")
    with pytest.raises(ParseError) as err:
        check_answer(cnf, read_answer(answer, "out.txt"))
    assert str(err.value) == message


def test_minisat_result_file_is_read_too():
    answer = read_answer("SAT\n1 -2 3 0\n")
    assert answer.status == "SATISFIABLE" and answer.true_literals == [1, 3]


def test_a_model_without_its_closing_0_that_satisfies_the_formula_is_still_read():
    """The missing 0 is said only when the model fails: a solver that leaves it out and
    gives every variable still decodes."""
    cnf = read_dimacs("p cnf 3 2\n1 2 0\n-1 3 0\n", "x.cnf")
    answer = read_answer("s SATISFIABLE\nv 1 -2 3\n", "out.txt")
    assert answer.unclosed == (2, 9)
    check_answer(cnf, answer)
    assert read_answer("s SATISFIABLE\nv 1 -2 3 0\n").unclosed is None


# -- the commands and external solvers ------------------------------------------------------------

def export(tmp_path, line, encoding, capsys):
    src = tmp_path / "p.txt"
    src.write_text(line + "\n")
    out = tmp_path / f"p_{encoding}.cnf"
    assert main(["export", "--to", "dimacs", "--encoding", encoding, "-o", str(out), str(src)]) == 0
    return out


EXTERNAL = {"cadical": lambda f, o: subprocess.run(["cadical", "-q", str(f)], stdout=open(o, "w")),
            "picosat": lambda f, o: subprocess.run(["picosat", str(f)], stdout=open(o, "w")),
            "minisat": lambda f, o: subprocess.run(["minisat", "-verb=0", str(f), str(o)],
                                                   stdout=subprocess.DEVNULL)}


@pytest.mark.slow
@pytest.mark.parametrize("solver", sorted(EXTERNAL))
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_exported_cnf_solved_by_an_external_solver_decodes_to_a_verified_solution(
        solver, encoding, tmp_path, capsys):
    needs_program(solver)
    cnf = export(tmp_path, TOP95_FIRST, encoding, capsys)
    out = tmp_path / "answer.txt"
    EXTERNAL[solver](cnf, out)
    capsys.readouterr()
    assert main(["decode", "--cnf", str(cnf), "--model", str(out), "--format", "jsonl"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verified"] and record["status"] == "sat"
    assert record["solution"] == "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_augmented_dimacs_round_trip_decodes_past_the_triad_variables(tmp_path, capsys):
    """The model of an exported augmented CNF names the 486 triad variables too: decoding
    reads the candidates and ignores them."""
    cnf = export(tmp_path, TOP95_FIRST, "augmented", capsys)
    back = read_dimacs(cnf.read_text(), str(cnf))
    assert back.n_vars == 1215 and back.header["encoding"] == "augmented"
    assert len(back.clauses) == 7695 + sum(ch != "." for ch in TOP95_FIRST)
    capsys.readouterr()
    assert main(["solve-cnf", str(cnf), "--solver", "sat:minisat22"]) == SAT_EXIT
    answer = tmp_path / "answer.txt"
    answer.write_text(capsys.readouterr().out)
    assert max(abs(l) for l in read_answer(answer.read_text()).literals) == 1215
    assert main(["decode", "--cnf", str(cnf), "--model", str(answer), "--format", "jsonl"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verified"]
    assert record["solution"] == "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_export_and_decode_skyscrapers_and_queens(tmp_path, capsys):
    lines = [l for l in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt") if l.startswith("5 ")][:1]
    for line, kind in ((lines[0], "skyscrapers"), ("8", "nqueens")):
        src = tmp_path / "p.txt"
        src.write_text(line + "\n")
        out = tmp_path / "p.cnf"
        args = ["export", "--to", "dimacs", "-o", str(out), str(src)] + (["--kind", kind])
        assert main(args) == 0
        capsys.readouterr()
        assert main(["solve-cnf", str(out), "--solver", "sat:minisat22"]) == SAT_EXIT
        answer = tmp_path / "answer.txt"
        answer.write_text(capsys.readouterr().out)
        assert main(["decode", "--cnf", str(out), "--model", str(answer), "--format", "jsonl"]) == 0
        assert json.loads(capsys.readouterr().out)["verified"]


def test_solve_cnf_answers_in_sat_competition_form(tmp_path, capsys):
    f = tmp_path / "f.cnf"
    f.write_text("p cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n")
    for solver in ("sat", "sat:glucose4", "quine:h1", "quine:h0", "quine:h2"):
        assert main(["solve-cnf", str(f), "--solver", solver, "--limit", "0"]) == SAT_EXIT
        out = capsys.readouterr().out.splitlines()
        assert out[0].startswith(f"c {solver}: 2 model(s) found (limit all)")
        assert out[2] == "s SATISFIABLE" and out[3].startswith("v ") and out[-1].endswith(" 0")
    f.write_text("p cnf 1 2\n1 0\n-1 0\n")
    assert main(["solve-cnf", str(f), "--solver", "quine:h1"]) == UNSAT_EXIT
    assert capsys.readouterr().out.splitlines()[-1] == "s UNSATISFIABLE"


def test_decode_reports_a_bad_answer_with_exit_2(tmp_path, capsys):
    cnf = export(tmp_path, TOP95_FIRST, "extended", capsys)
    bad = tmp_path / "bad.txt"
    bad.write_text("s SATISFIABLE\nv 1 2 0\n")
    assert main(["decode", "--cnf", str(cnf), "--model", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == (f"puzzlebench: error: {bad}: the answer does not satisfy the clause -1 -2 0 "
                   f"(line 13 of {cnf})\n")


@pytest.mark.slow
@pytest.mark.parametrize("option", ["--cnf", "--xcsp3", "--minizinc", "--opb"])
def test_decode_refuses_standard_input_for_both_files(option):
    """Both read from '-': the answer read a stream the file had exhausted ('no status line')."""
    proc = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "decode", option, "-", "--model", "-"],
                          input="p cnf 1 1\n1 0\n", capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", f"puzzlebench: error: {option} - and --model -: "
                                                           "standard input can be read once; name one of them as a file\n")


def test_free_variables_multiply_the_count_and_take_no_memory(tmp_path, capsys):
    """A header may declare far more variables than the clauses use: they are free (each
    model of the others stands for 2^free), and nothing is allocated for them (a header of
    99,999,999,999 variables took 4.5 GB before it was refused by the machine)."""
    from puzzlebench.engines.cnf_file import count_cnf_models
    found = count_cnf_models(5, [[1, 2]], "sat", None, None)
    assert (found.found, found.free, found.count) == (3, 3, 24)
    assert count_cnf_models(5, [[1, 2]], "quine:h1", None, None).count == 24
    assert count_cnf_models(2_000_000_000, [[1]], "sat", 5, None).count == 5
    f = tmp_path / "h.cnf"
    f.write_text("p cnf 2000000000 1\n1 0\n")
    assert main(["solve-cnf", str(f), "--limit", "2"]) == SAT_EXIT
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "c sat: 2 model(s) found (limit 2)" and out[-2:] == ["s SATISFIABLE", "v 1 0"]


def test_free_variables_inside_the_range_are_counted_not_listed(tmp_path, capsys):
    """The optimized export leaves the candidates a Sudoku's givens rule out in no clause,
    between used variables (475 of Arto Inkala's 729).  They were blocked as part of each
    whole assignment, so the unique puzzle's file listed 2^475 models one by one: --limit 0
    never ended, and --limit 2 said 2 models.  Now each model found stands for 2^free."""
    from puzzlebench.engines.cnf_file import count_cnf_models
    for spec in ("sat", "quine:h1"):
        found = count_cnf_models(5, [[1, 5], [-1, -5]], spec, None, None)
        assert (found.found, found.free, found.count, found.free_ranges) == (2, 3, 16, [(2, 4)])
        assert found.model in ([1, -2, -3, -4, -5], [-1, -2, -3, -4, 5])   # the file's numbers
    cnf, out = tmp_path / "p.cnf", tmp_path / "out.txt"
    assert main(["export", "--example", "arto-inkala", "--to", "dimacs", "--encoding", "optimized",
                 "-o", str(cnf)]) == 0
    formula = read_dimacs(cnf.read_text())
    free = formula.n_vars - len({abs(lit) for clause in formula.clauses for lit in clause})
    assert free == 475
    capsys.readouterr()
    assert main(["solve-cnf", str(cnf), "--limit", "0", "--time-limit", "30"]) == SAT_EXIT
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"c sat: 1 × 2^{free} model(s) found (limit all)"
    assert lines[1].startswith("c variables 1..9, 12, 14, 16..19, ") and lines[1].endswith(
        f"occur in no clause: each of the 1 model(s) listed stands for 2^{free}; "
        "v lines give those below the last used false")
    out.write_text("\n".join(lines) + "\n")
    assert main(["decode", "--cnf", str(cnf), "--model", str(out)]) == 0
    assert capsys.readouterr().out == ("8127536499436821756754912831542378963698457212871695345219"
                                       "74368438526917796318452\n")


def test_a_count_too_large_to_write_out_is_a_power_of_two(tmp_path, capsys):
    """Every model of 2,000,000,000 declared variables over one clause: 2^1999999999, a
    number of 600 million digits, written as a power of two (Python's str() refused it with a
    traceback, and computing it took 10 s and 860 MB)."""
    from puzzlebench.engines.cnf_file import count_cnf_models, models_of_file
    assert models_of_file(3, 2, None) == 12 and models_of_file(3, 64, None) == 3 << 64
    assert models_of_file(3, 65, None) is None and models_of_file(0, 10**9, None) == 0
    assert models_of_file(3, 10**9, 7) == 7 and models_of_file(1, 2, 7) == 4
    found = count_cnf_models(2_000_000_000, [[1]], "sat", None, None)
    assert (found.count, found.count_text()) == (None, "1 × 2^1999999999")
    f = tmp_path / "h.cnf"
    f.write_text("p cnf 2000000000 1\n1 0\n")
    assert main(["solve-cnf", str(f), "--limit", "0"]) == SAT_EXIT
    assert capsys.readouterr().out.splitlines()[0] == "c sat: 1 × 2^1999999999 model(s) found (limit all)"


def test_a_header_beyond_any_solver_is_refused(tmp_path, capsys):
    f = tmp_path / "h.cnf"
    f.write_text("p cnf 99999999999 1\n1 0\n")
    assert main(["solve-cnf", str(f)]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {f}:1:7: the 'p' line declares 99999999999 "
                                       "variables; a DIMACS literal is at most 2147483647\n")


@pytest.mark.parametrize("command, expected", [
    (["solve-cnf", "{f}"], "a DIMACS CNF file"), (["decode", "--cnf", "{f}", "--model", "{f}"], "a DIMACS CNF file"),
    (["solve-xc", "{f}"], "an exact-cover matrix in Knuth's format"), (["solve-smt2", "{f}"], "an SMT-LIB2 script")])
def test_bytes_that_are_not_text_are_an_error_with_their_place(tmp_path, capsys, command, expected):
    """Every file command: a byte that is not UTF-8 is one line naming its line and column,
    and what the file should hold."""
    f = tmp_path / "u.txt"
    f.write_bytes(b"p cnf 3 1\n1 \xff 0\n")
    assert main([a.format(f=f) for a in command]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {f}:2:3: not UTF-8 text: byte 0xff cannot be "
                                       f"decoded; expected {expected}\n")


@pytest.mark.parametrize("target, option, message", [
    ("dlx", "--encoding", "export target 'dlx' has no option 'encoding'; it takes no option"),
    ("cpsat", "--amo", "export target 'cpsat' has no option 'amo'; it takes no option"),
    ("smt2", "--encoding", "export target 'smt2' has no option 'encoding'; it takes no option"),
    ("smt2", "--amo", "export target 'smt2' has no option 'amo'; it takes no option"),   # Ints: no at-most-one
    ("smt2-bool", "--amo", "unknown at-most-one formulation 'x'; known: card, pairwise"),
    ("dimacs", "--amo", "unknown at-most-one encoding 'x'; choose one of pairwise, commander, seqcounter, "
                        "ladder, bitwise, totalizer, cardnetwrk"),
])
def test_an_option_a_target_does_not_take_is_refused(capsys, target, option, message):
    value = "minimal" if option == "--encoding" else "x"
    assert main(["export", "--example", "knuth", "--to", target, option, value]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"


def test_an_answer_that_is_not_text_is_an_error_with_its_place(tmp_path, capsys):
    cnf = tmp_path / "p.cnf"
    assert main(["export", "--example", "course-4x4", "--to", "dimacs", "-o", str(cnf)]) == 0
    answer = tmp_path / "a.txt"
    answer.write_bytes(b"s SATISFIABLE\nv 1 -2 \xfe 0\n")
    assert main(["decode", "--cnf", str(cnf), "--model", str(answer)]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {answer}:2:8: not UTF-8 text: byte 0xfe cannot be "
                                       "decoded; expected a SAT solver's answer (s and v lines)\n")


@pytest.mark.parametrize("target", sorted(FORMATS))
@pytest.mark.parametrize("option, value", [("--encoding", "minimal"), ("--amo", "pairwise")])
def test_every_export_target_takes_or_refuses_each_cnf_option(capsys, target, option, value):
    """--encoding and --amo belong to the CNF exporter (amo to the SMT-LIB2 ones too): another
    target refuses them naming both, never a TypeError traceback."""
    takes = FORMATS[target].options
    code = main(["export", "--example", "course-4x4", "--to", target, option, value])
    out, err = capsys.readouterr()
    if option[2:] in takes:
        assert (code, err) == (0, "") and out
    else:
        said = f"it takes {', '.join(takes)}" if takes else "it takes no option"
        assert (code, out) == (2, "")
        assert err == f"puzzlebench: error: export target {target!r} has no option {option[2:]!r}; {said}\n"



@pytest.mark.slow
@pytest.mark.parametrize("name", ["sudoku9_norvig_top95.txt", "sudoku16_vu_kr_1000.txt", "tatham_keen_4to7_96.txt",
                                  "tatham_solo_jigsaw9_100.txt", "tatham_solo_killer_3x3_100.txt",
                                  "tatham_solo_sudokux_3x3_100.txt", "tatham_unequal_4to7_96.txt",
                                  "skyscrapers_random_fullclue_n4to9_sample.txt"])
def test_the_optimized_encoding_is_the_full_formula_simplified_by_the_givens(name):
    """Kwon & Jain's definition, computed the slow way (the shape's whole formula, then
    simplified), against the encoder's direct build over the open literals."""
    from puzzlebench.encoders.cnf import base_formula, givens_decisions, simplify

    for line in data_lines(name, limit=8, step=7):
        puzzle = parse_line(line)
        slow = simplify(base_formula(puzzle, "extended", "pairwise")[2], givens_decisions(puzzle.rules))
        fast = encode(puzzle, "optimized").clauses
        assert sorted(map(sorted, fast)) == sorted(map(sorted, slow)), line
        for amo in ("commander", "ladder"):   # other auxiliary variables, the same solutions
            assert MRV.run(puzzle, limit=2).count == make_engine(f"sat@encoding=optimized;amo={amo}").run(puzzle, limit=2).count


def test_conflicting_givens_make_the_optimized_formula_unsatisfiable():
    """The models refuse such givens when they are read; the encoder does not rely on it."""
    from puzzlebench.encoders.cnf import _encode_constraints, givens_decisions
    from puzzlebench.models.vocabulary import grid_rules

    rules = grid_rules(2, [1, 1, 0, 0], [("row 1", (0, 1)), ("row 2", (2, 3)), ("column 1", (0, 2)), ("column 2", (1, 3))])
    _, clauses = _encode_constraints(rules, "extended", "pairwise", givens_decisions(rules))
    assert [] in clauses
    rules = grid_rules(2, [1, 0, 0, 0], [("row 1", (0, 1)), ("row 2", (2, 3))])
    _, clauses = _encode_constraints(rules, "extended", "pairwise", givens_decisions(rules))
    assert [] not in clauses


def test_export_number_counts_from_one(tmp_path, capsys):
    """--number picks the K-th puzzle, counted from 1: 0 and below are out of its range (0 said
    "the input holds 2 puzzle(s)", as if it were too large); past the end says how many there are."""
    src = tmp_path / "two.txt"
    src.write_text("4.3...1..3......\n..1.2...4......3\n")
    for number in ("0", "-2"):
        assert main(["export", str(src), "--to", "dimacs", "--number", number]) == 2
        assert capsys.readouterr() == ("", f"puzzlebench: error: --number {number}: out of range: a whole number "
                                           "from 1 to 2^63-1\n")
    assert main(["export", str(src), "--to", "dimacs", "--number", "3"]) == 2
    assert capsys.readouterr().err == "puzzlebench: error: --number 3: the input holds 2 puzzles\n"
    assert main(["export", str(src), "--to", "mzn+dzn", "-o", str(tmp_path / "m"), "--number", "0"]) == 2
    assert capsys.readouterr().err.startswith("puzzlebench: error: --number 0: out of range")
    assert main(["export", str(src), "--to", "dimacs", "--number", "2"]) == 0
    assert "c givens: 0 0 1 0 2 0 0 0 4 0 0 0 0 0 0 3\n" in capsys.readouterr().out   # the second
