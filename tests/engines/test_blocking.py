"""The one loop of counting by blocking (:mod:`puzzlebench.engines.blocking`), on a toy
solver: the subsets of {1, 2, 3} of two elements, each found one blocked before the next."""

import itertools

from puzzlebench.runtime.limits import Deadline
from puzzlebench.engines.blocking import STOPPED, enumerate_by_blocking

PAIRS = list(itertools.combinations((1, 2, 3), 2))


def toy(stop_after=None):
    blocked, calls = [], []

    def solve_once():
        calls.append(1)
        if stop_after is not None and len(calls) > stop_after:
            return STOPPED
        return next((p for p in PAIRS if p not in blocked), None)

    def block(pair) -> bool:
        blocked.append(pair)
        return True

    return solve_once, block, calls


def test_it_counts_every_model_and_keeps_the_first():
    solve_once, block, calls = toy()
    found = enumerate_by_blocking(solve_once, block, None, 2, Deadline(None))
    assert (found.count, found.kept, found.finished, found.timed_out) == (3, PAIRS[:2], True, False)
    assert len(calls) == 4   # the last call says no model is left


def test_it_stops_at_the_limit_without_solving_again():
    solve_once, block, calls = toy()
    found = enumerate_by_blocking(solve_once, block, 2, 5, None)
    assert (found.count, found.finished, found.timed_out, len(calls)) == (2, False, False, 2)


def test_a_stopped_solver_and_a_past_deadline_are_timeouts():
    solve_once, block, _ = toy(stop_after=1)
    found = enumerate_by_blocking(solve_once, block, None, 5, None)
    assert (found.count, found.timed_out, found.finished) == (1, True, False)
    solve_once, block, calls = toy()
    found = enumerate_by_blocking(solve_once, block, None, 5, Deadline(0.0))
    assert (found.count, found.timed_out, calls) == (0, True, [])


def test_nothing_left_to_block_ends_the_search():
    solve_once, _, calls = toy()
    found = enumerate_by_blocking(solve_once, lambda pair: False, None, 5, None)
    assert (found.count, found.finished, len(calls)) == (1, True, 1)
