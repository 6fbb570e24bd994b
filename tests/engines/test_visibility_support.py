"""The visibility propagator of the cell searches (``cells.VisibilitySupport``, which ``mrv``
runs on every Skyscrapers clue): checked against brute force.  It must never remove a value
that a fitting run of towers uses (on one line, and on whole random 4x4 and 5x5 puzzles,
against every Latin square that meets their clues), must be exact where values may repeat
(its dynamic programme is then the line's whole support), and must reject a placed line
whose count is wrong (mrv checks placed lines through it alone)."""

import itertools
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlebench.models.skyscrapers import Skyscrapers, clues_shown
from puzzlebench.models.vocabulary import Visibility, visible_count
from puzzlebench.results import Status
from puzzlebench.engines.cells import VisibilitySupport, compile_rules
from puzzlebench.engines.registry import make_engine

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def exact_support(doms, clue, n_values, distinct):
    """Each position's values used by some run within ``doms`` seen ``clue`` times; None if
    there is no such run (by listing every run)."""
    out, found = [0] * len(doms), False
    choices = [[v for v in range(1, n_values + 1) if d >> (v - 1) & 1] for d in doms]
    for run in itertools.product(*choices):
        if (distinct and len(set(run)) < len(run)) or visible_count(run) != clue:
            continue
        found = True
        for i, v in enumerate(run):
            out[i] |= 1 << (v - 1)
    return out if found else None


@st.composite
def lines(draw):
    n_values = draw(st.integers(2, 5))
    distinct = draw(st.booleans())
    m = draw(st.integers(1, n_values))
    doms = draw(st.lists(st.integers(1, (1 << n_values) - 1), min_size=m, max_size=m))
    clue = draw(st.integers(1, m))
    return n_values, distinct, doms, clue


@SETTINGS
@given(lines())
def test_a_line_keeps_every_value_a_fitting_run_uses(case):
    n_values, distinct, doms, clue = case
    got = VisibilitySupport(Visibility(tuple(range(len(doms))), clue, "line"), n_values, distinct).supported(doms)
    exact = exact_support(doms, clue, n_values, distinct)
    if exact is None:   # no run fits: repeats allowed, the propagator says so (distinct: it may not see it)
        assert distinct or got is None
        return
    assert got is not None
    assert all(e & ~g == 0 for e, g in zip(exact, got)), (exact, got)   # nothing a run uses removed
    assert all(g & ~d == 0 for g, d in zip(got, doms))                  # nothing added
    if not distinct:
        assert got == exact        # values may repeat: the whole support, no more


@SETTINGS
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(st.just(n), st.permutations(range(1, n + 1)),
                                                       st.integers(1, n))))
def test_a_placed_line_is_kept_only_when_its_count_is_the_clue(case):
    n, run, clue = case
    doms = [1 << (v - 1) for v in run]
    got = VisibilitySupport(Visibility(tuple(range(n)), clue, "line"), n, True).supported(doms)
    assert (got == doms) if visible_count(run) == clue else got is None


@lru_cache(maxsize=None)
def latin_squares(n):
    """Every n x n Latin square, row by row (576 of order 4, 161,280 of order 5): rows are
    permutations, each one clashing in no column with the rows above it."""
    perms = list(itertools.permutations(range(1, n + 1)))
    fits = [frozenset(j for j, q in enumerate(perms) if all(a != b for a, b in zip(p, q))) for p in perms]
    out = []

    def extend(rows, allowed):
        if len(rows) == n:
            out.append(sum((perms[r] for r in rows), ()))
            return
        for r in allowed:
            extend(rows + [r], allowed & fits[r])

    extend([], frozenset(range(len(perms))))
    return out


def random_instance(seed, n):
    """Some clues of a random Latin square's, and a given or two."""
    rng = random.Random(seed)
    square = rng.choice(latin_squares(n))
    shown = clues_shown(n, square)
    clues = [[c if rng.random() < 0.45 else 0 for c in shown[side]] for side in ("top", "bottom", "left", "right")]
    givens = [v if rng.random() < 0.06 else 0 for v in square]
    return Skyscrapers(n, *clues, givens=givens)


@lru_cache(maxsize=None)
def shown_by_square(n):
    """Each Latin square's clues, side after side, as one tuple (listed once an order)."""
    return [sum((tuple(c) for c in clues_shown(n, s).values()), ()) for s in latin_squares(n)]


def solutions_by_brute_force(puzzle):
    """The Latin squares that show every clue and hold every given (each checked again by the
    puzzle's own checker)."""
    n = puzzle.n
    wanted = [(i, c) for i, c in enumerate(sum((puzzle.clues[s] for s in ("top", "bottom", "left", "right")), ()))
              if c]
    givens = [(i, v) for i, v in enumerate(puzzle.givens) if v]
    out = [s for s, shown in zip(latin_squares(n), shown_by_square(n))
           if all(shown[i] == c for i, c in wanted) and all(s[i] == v for i, v in givens)]
    assert not any(puzzle.check(s) for s in out)
    return out


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.sampled_from([4, 4, 5]))
def test_on_whole_puzzles_every_solution_survives_the_fixpoint_and_mrv_counts_them(seed, n):
    puzzle = random_instance(seed, n)
    solutions = solutions_by_brute_force(puzzle)
    problem = compile_rules(puzzle.rules)
    domains = list(problem.domains)
    changed, alive = True, True
    while changed and alive:            # every line's propagator to a fixpoint, alone
        changed = False
        for sight in problem.sights:
            kept = sight.supported(domains)
            if kept is None:
                alive = False
                break
            for cell, d in zip(sight.cells, kept):
                changed |= d != domains[cell]
                domains[cell] = d
    for s in solutions:
        assert alive and all(domains[c] >> (v - 1) & 1 for c, v in enumerate(s)), (seed, n)
    result = make_engine("mrv").run(puzzle, limit=None, keep=len(solutions) + 1)
    assert result.count == len(solutions) and result.verified
    assert sorted(result.solutions) == sorted(solutions)
    assert result.status is {0: Status.UNSAT, 1: Status.UNIQUE}.get(len(solutions), Status.MULTIPLE)
