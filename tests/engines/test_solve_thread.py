"""The solve thread of the SAT solvers PySAT cannot interrupt (engines/sat.py, ``SolveThread``):
a search in slices of a conflict budget, stopped between two, the solver whole after it."""

import threading

import pytest

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
