"""The Quine dilemma engine (Landreau, TIPE 2025): per-depth counts on a CNF traced by hand, soundness
and completeness against brute force and PySAT, and agreement with mrv on puzzles."""

import itertools
import random

import pytest

from conftest import data_lines
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.reader import parse_line
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.runtime.limits import Deadline
from puzzlebench.engines.mrv import MrvEngine
from puzzlebench.engines.quine import WEIGHTS, QFormula, QuineEngine, count_models
from puzzlebench.engines.sat import SatEngine

MRV = MrvEngine()

# (1 or 2), (not 1 or 3), (not 2 or 3), (not 3 or 4 or 5): 9 models.
HAND = [[1, 2], [-1, 3], [-2, 3], [-3, 4, 5]]


def test_per_depth_counts_on_a_cnf_traced_by_hand():
    """Heuristic h1, traced by hand:

    - no unit clause: disjunction 1 at depth 0 on variable 1 (a smallest clause with a
      positive literal is (1 2); 1 and 2 both occur twice: the first is kept).  Copy T
      (1 true) has unit 3; copy E (1 false) has unit 2.  Side by side: T sets 3 (step 1),
      E sets 2 (step 2), T has stalled, E sets 3 (step 3).  Both stalled; both deduced 3:
      3 becomes true in the formula.
    - stalled again: disjunction 2 at depth 0 on variable 4 (clause (4 5) is as small as
      (1 2) and 4 occurs once).  T (4 true) stalls at once; E (4 false) sets 5 (step 4).
      Nothing in common, neither copy satisfies (1 2): recursion in T.
    - disjunction 3 at depth 1 on variable 1 inside T: T1 (1 true) satisfies every clause;
      E1 (1 false) sets 2 (the one step at depth 2).  Both stalled, nothing in common, T1 is
      a model: it goes up to the formula.

    So 2 disjunctions at depth 0 and 1 at depth 1; steps: 0 at depth 0, 4 at depth 1, 1 at
    depth 2; maximum depth 2.
    """
    models, count, timed_out, first, total = count_models(
        QFormula(5, HAND), "h1", 0, 1, 1, Deadline(None), None, check_against=HAND)
    assert count == 1 and not timed_out
    assert models[0] == [1, -2, 3, 4, -5]
    assert first.disjunctions == [2, 1]
    assert first.steps == [0, 4, 1]
    assert first.max_depth == 2 and first.refuted == 0
    alphas, beta, gamma = WEIGHTS["h1"]
    d = first.difficulty("h1")
    assert d["difficulty"] == pytest.approx(alphas[2] + beta * 3 + gamma * 5)
    assert d["inputs"] == {"max_depth": 2, "alpha": 2.2, "beta": beta, "gamma": gamma,
                           "disjunctions": 3, "eliminations": 5}


def test_a_refuted_copy_gives_the_other_copys_deductions():
    # 1 and 2 each force 3 and not 3; one of them must hold: every copy is refuted in turn
    clauses = [[1, 2], [-1, 3], [-1, -3], [-2, 3], [-2, -3]]
    models, count, _, first, _ = count_models(QFormula(3, clauses), "h1", 0, None, 10,
                                              Deadline(None), None, check_against=clauses)
    assert count == 0 and models == []
    assert first.refuted >= 1 and first.disjunctions == [1]


def brute_force(n, clauses):
    return sum(all(any(bits[abs(l) - 1] == (l > 0) for l in c) for c in clauses)
               for bits in itertools.product([False, True], repeat=n))


@pytest.mark.parametrize("heuristic", ["h0", "h1", "h2"])
def test_counts_every_model_of_random_cnfs(heuristic):
    rng = random.Random(7)
    for _ in range(150):
        n = rng.randint(1, 7)
        clauses = [[rng.choice((-1, 1)) * rng.randint(1, n) for _ in range(rng.randint(1, 3))]
                   for _ in range(rng.randint(0, 25))]
        _, count, _, _, _ = count_models(QFormula(n, clauses), heuristic, 1, None, 0,
                                         Deadline(None), None, check_against=clauses)
        assert count == brute_force(n, clauses), clauses


def loop_choice(f, val, smallest):
    """h1/h2 as the plain loop over the clauses (the way Landreau's C code scans them)."""
    best_size, best_var, best_count = None, 0, 0
    for c in f.positive:
        free = []
        for l in c:
            a = val[abs(l)]
            if not a:
                free.append(l)
            elif (a == 1) == (l > 0):
                break
        else:
            size = len(free)
            if best_size is not None and (size > best_size if smallest else size < best_size):
                continue
            for l in free:
                if 0 < l <= f.primary:
                    k = f.count[l]
                    if best_size != size or (k < best_count if smallest else k > best_count):
                        best_size, best_var, best_count = size, l, k
    return best_var


def test_the_heuristics_matrix_scan_chooses_what_the_loop_chooses():
    from puzzlebench.engines.quine import Copy, QuineSolver, QuineStats

    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(1, 12)
        clauses = [[rng.choice((-1, 1)) * rng.randint(1, n) for _ in range(rng.randint(1, 6))]
                   for _ in range(rng.randint(0, 30))]
        f = QFormula(n, clauses)
        f.primary = rng.randint(1, n)
        val = bytearray(rng.choice((0, 0, 1, 2)) for _ in range(n + 1))
        val[0] = 0
        x = Copy(val, bytearray(len(f.long)), len(f.long), f.counters())
        for h, smallest in (("h1", True), ("h2", False)):
            solver = QuineSolver(f, h, random.Random(0), Deadline(None), QuineStats())
            assert solver._extreme_candidate(x, smallest) == loop_choice(f, val, smallest), clauses


def test_empty_clause_and_contradicting_units_are_unsat():
    for clauses in ([[]], [[1], [-1]], [[1, 2], [-1, 2], [1, -2], [-1, -2]]):
        assert count_models(QFormula(2, clauses), "h1", 0, None, 1, Deadline(None), None)[1] == 0


def test_sat_and_quine_agree_on_random_3sat_near_the_threshold():
    from puzzlebench.engines.cnf_file import count_cnf_models

    rng = random.Random(3)
    for _ in range(20):
        n = 12
        clauses = [[rng.choice((-1, 1)) * v for v in rng.sample(range(1, n + 1), 3)] for _ in range(51)]
        a = count_cnf_models(n, clauses, "sat", 5, None)
        b = count_cnf_models(n, clauses, "quine:h1", 5, None)
        assert (a.status, a.count) == (b.status, b.count)


# -- puzzles ----------------------------------------------------------------------------------

def puzzles():
    out = [parse_sudoku_line(l.split()[0]) for l in data_lines("sudoku4_vu_kr_1000.txt", 8, 120)]
    out += [NQueens(n) for n in range(1, 7)] + [NQueens(8, [(0, 0), (1, 4)])]
    out += [parse_line(l, kind="skyscrapers") for l in
            data_lines("skyscrapers_random_fullclue_n4to9_sample.txt") if l.startswith("4 ")][:4]
    out += [parse_sudoku_line(data_lines("sudoku9_kaggle1m_first9999_with_solutions.txt", 1)[0].split()[0])]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["h1", "h0", "h2"])
def test_agrees_with_mrv_and_pysat_on_puzzles(variant):
    engine, sat = QuineEngine(variant, {"seed": 5}), SatEngine()
    for p in puzzles():
        r = engine.run(p, limit=None if p.kind == "nqueens" else 3, keep=1000)
        want = MRV.run(p, limit=None if p.kind == "nqueens" else 3).count
        assert r.error is None and r.count == want, p
        assert r.count == sat.run(p, limit=None if p.kind == "nqueens" else 3, keep=1000).count
        assert r.verified or r.count == 0


def test_statistics_of_a_puzzle_run():
    r = QuineEngine("h1").run(parse_sudoku_line(
        data_lines("sudoku9_kaggle1m_first9999_with_solutions.txt", 1)[0].split()[0]))
    raw = r.stats.raw
    assert r.status is Status.UNIQUE
    assert raw["max_depth"] == len(raw["disjunctions_per_depth"]) if raw["max_depth"] else True
    assert r.stats.propagations == sum(raw["all_searches"]["steps_per_depth"])
    assert r.stats.nodes == sum(raw["all_searches"]["disjunctions_per_depth"]) == r.stats.guesses
    assert raw["steps_per_depth"][0] > 0


def test_time_limit_stops_the_search():
    hard = data_lines("sudoku9_magictour_top1465.txt", 1)[0].split()[0]
    r = QuineEngine("h1").run(parse_sudoku_line(hard), time_limit=0.05)
    assert r.status is Status.TIMEOUT
