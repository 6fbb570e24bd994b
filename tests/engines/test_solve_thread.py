"""The solve thread of the SAT solvers PySAT cannot interrupt (engines/sat.py, ``SolveThread``):
a search in slices of a conflict budget, stopped between two, the solver whole after it; where
no Ctrl-C is to be looked at, one call as PySAT alone makes, or slices closing in on the limit."""

import threading

import pytest

from conftest import hard25_line
from puzzlebench import parse

pysat = pytest.importorskip("pysat")


def _cadical():
    from puzzlebench.engines.sat import ABILITIES
    for name in ("cadical195", "cadical153"):
        if name in ABILITIES and ABILITIES[name].budget:
            return name
    pytest.skip("no CaDiCaL with a conflict budget in this PySAT")


def test_a_stopped_search_leaves_its_solver_whole_and_off_the_main_thread():
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver

    from puzzlebench.engines.sat import SLICE_CONFLICTS, SolveThread

    solver = Solver(name=_cadical(), bootstrap_with=PHP(10).clauses)   # far more than a slice of conflicts
    where, calls = [], []

    def stop():
        where.append(threading.current_thread() is threading.main_thread())
        calls.append(solver.accum_stats()["conflicts"])
        return len(calls) == 2

    thread = SolveThread()
    try:
        assert thread.solve(solver, [], stop) is None
        assert where == [False, False] and calls[0] >= SLICE_CONFLICTS and calls[1] >= 2 * SLICE_CONFLICTS
        assert thread.solve(solver, [1, -1], lambda: False) is False   # whole: it answers the next call
    finally:
        thread.close()
        solver.delete()


def test_only_a_solver_with_a_budget_or_an_interrupt_stops_at_a_ctrl_c_in_process():
    from puzzlebench.engines.registry import make_engine
    from puzzlebench.engines.sat import ABILITIES
    for name, can in ABILITIES.items():
        assert make_engine(f"sat:{name}").stops_at_ctrl_c == (can.interrupt or can.budget), name
    assert make_engine(f"sat:{_cadical()}").stops_at_ctrl_c


@pytest.fixture
def sigint_left_to_the_parent():
    """SIGINT ignored, as in a child or a worker (runtime/child.py), then put back."""
    import signal
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGINT, before)


def _pysat_alone(name, cnf, seed):
    from pysat.solvers import Solver
    solver = Solver(name=name)
    solver.configure({"seed": seed})
    solver.append_formula(cnf.clauses)
    try:
        assert solver.solve(assumptions=cnf.units)
        return solver.accum_stats()["conflicts"]
    finally:
        solver.delete()


def test_where_the_parent_takes_the_ctrl_c_cadical_searches_as_pysat_alone_does(sigint_left_to_the_parent):
    """No slices where no Ctrl-C is to be looked at: the engine's search is PySAT's one call,
    conflict for conflict, and its seed takes effect (slices of 5,000 conflicts started
    CaDiCaL's schedules again, and this puzzle took 9,945 conflicts at every seed)."""
    from puzzlebench.engines.registry import make_engine
    name = _cadical()
    engine, puzzle = make_engine(f"sat:{name}@encoding=optimized"), parse(hard25_line("hard25.txt", 7))
    cnf = engine.encode(puzzle)
    conflicts = [engine.seeded(seed).run(puzzle, limit=1).stats.raw["conflicts"] for seed in (0, 1)]
    assert conflicts == [_pysat_alone(name, cnf, seed) for seed in (0, 1)]
    assert conflicts[0] != conflicts[1] and min(conflicts) > 5_000


def test_without_slices_for_a_ctrl_c_a_time_limit_still_ends_the_search_itself(sigint_left_to_the_parent):
    """Under a time limit the slices close in on it: the run ends by itself, out of time with its
    statistics, rather than one long call past the limit (seed 20 of hard25d takes CaDiCaL
    about 15 s)."""
    from puzzlebench.engines.registry import make_engine
    from puzzlebench.results import Status
    engine = make_engine(f"sat:{_cadical()}@encoding=optimized")
    result = engine.run(parse(hard25_line("hard25d.txt", 20)), limit=2, time_limit=1.0)
    assert result.status is Status.TIMEOUT and result.stats.raw["conflicts"] > 5_000
    assert result.times.total < 1.6
