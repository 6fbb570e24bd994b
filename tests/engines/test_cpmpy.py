"""The ``cpmpy:BACKEND`` engines: every back end CPMpy finds here agrees with the direct CP-SAT
engine on every kind (status, count and solutions, at limit 2 and for all solutions), stops
at a time limit, splits CPMpy's transformation from the search in its times, and says in one
line why a back end, or CPMpy itself, is absent.  The cross-engine suites (test_engines.py,
test_properties.py) hold it to the published counts and to the other engines as well."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from puzzlebench.models.examples import EXAMPLES, example
from puzzlebench.models.kinds import KIND_NAMES
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.sudoku import Sudoku
from puzzlebench.results import Status
from puzzlebench.engines.registry import engine_class, make_engine

from conftest import REPO as ROOT
CPMPY = engine_class("cpmpy")
if CPMPY.unavailable_reason():
    pytest.skip(CPMPY.unavailable_reason(), allow_module_level=True)
BACKENDS = [pytest.param(v, id=v) for v in CPMPY.variants]


def _smallest_example_per_kind() -> list:
    best: dict[str, tuple[int, str]] = {}
    for name in EXAMPLES:
        puzzle = example(name)
        if puzzle.kind not in best or puzzle.n_cells < best[puzzle.kind][0]:
            best[puzzle.kind] = (puzzle.n_cells, name)
    return [pytest.param(name, id=f"{kind}:{name}") for kind, (_, name) in sorted(best.items())]


KIND_EXAMPLES = _smallest_example_per_kind()
SEVERAL = [   # (puzzle, its number of solutions where it is published or plain)
    pytest.param(NQueens(6), 4, id="6-queens"),                  # OEIS A000170
    pytest.param(NQueens(6, [(0, 0)]), 0, id="6q-unsat"),         # no 6-queens solution has a corner
    pytest.param(Sudoku((2, 3), [1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3, 2, 3, 1] + [0] * 21), None, id="6x6-rows"),
    pytest.param(Sudoku((2, 2), [1, 2, 3, 4] + [0] * 12), 12, id="4x4-row"),  # 288 / 4! grids
]


def test_the_examples_cover_every_kind():
    assert {example(p.values[0]).kind for p in KIND_EXAMPLES} == set(KIND_NAMES)


def _agree(backend: str, puzzle, limit):
    ours = make_engine(f"cpmpy:{backend}").run(puzzle, limit=limit, keep=1000, time_limit=120)
    theirs = make_engine("cpsat").run(puzzle, limit=limit, keep=1000)
    assert ours.error is None and ours.status is theirs.status, (ours.status, ours.error)
    assert ours.count == theirs.count
    assert ours.verified == theirs.verified
    if limit is None:   # every solution: the same set, whatever order each search found them in
        assert sorted(ours.solutions) == sorted(theirs.solutions)
    return ours


@pytest.mark.slow
@pytest.mark.parametrize("limit", [2, None], ids=["limit2", "all"])
@pytest.mark.parametrize("name", KIND_EXAMPLES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_kind_agrees_with_cpsat(backend, name, limit):
    _agree(backend, example(name), limit)


@pytest.mark.slow
@pytest.mark.parametrize("limit", [2, None], ids=["limit2", "all"])
@pytest.mark.parametrize("puzzle,count", SEVERAL)
@pytest.mark.parametrize("backend", BACKENDS)
def test_several_solutions_and_none_counted_as_cpsat(backend, puzzle, count, limit):
    result = _agree(backend, puzzle, limit)
    if count is not None:
        assert result.count == (count if limit is None else min(count, limit))


def test_six_queens_has_its_published_four_solutions_on_every_back_end():
    for backend in CPMPY.variants:
        result = make_engine(f"cpmpy:{backend}").run(NQueens(6), limit=None, keep=10)
        assert (result.status, result.count, result.verified) == (Status.MULTIPLE, 4, True), backend


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_time_limit_stops_the_search(backend):
    # all 14,772,512 solutions of 16-queens: no back end lists them in half a second
    result = make_engine(f"cpmpy:{backend}").run(NQueens(16), limit=None, time_limit=0.5)
    assert result.status is Status.TIMEOUT and 0 <= result.count < 14_772_512
    assert result.verified


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_transformation_and_search_are_timed_apart(backend):
    result = make_engine(f"cpmpy:{backend}").run(example("arto-inkala"), limit=2)
    raw = result.stats.raw
    assert raw["backend"] == backend
    assert 0 < raw["model_seconds"] + raw["transform_seconds"] <= result.times.encode
    assert 0 <= raw["backend_seconds"]
    assert result.size == {"variables": 81, "constraints": 27}   # 27 AllDifferent, givens in domains
    if backend in ("pysat", "z3"):   # counted by blocking: one run a solution and one to find none
        assert raw["runs"] == 2 and raw["blocking_seconds"] > 0
    if backend in ("ortools", "pysat", "z3"):
        assert result.stats.conflicts is not None and result.stats.propagations is not None


def test_ortools_statistics_are_cp_sats_own():
    result = make_engine("cpmpy:ortools").run(NQueens(8), limit=None)
    assert result.count == 92
    assert result.stats.nodes == result.stats.raw["num_branches"] > 0


def test_an_absent_back_end_is_named_with_what_brings_it():
    from puzzlebench.errors import SolverSpecError

    for backend, why in CPMPY.left_out().items():
        with pytest.raises(SolverSpecError) as err:
            make_engine(f"cpmpy:{backend}")
        assert str(err.value) == f"solver 'cpmpy:{backend}' is not available here: {why}"
        assert "pip install" in why


@pytest.mark.slow
def test_without_cpmpy_the_command_says_so_in_one_line():
    # CPMpy made unimportable in a fresh interpreter: what a machine without it sees
    code = ("import sys; sys.modules['cpmpy'] = None\n"
            "from puzzlebench.cli import main\n"
            "sys.exit(main(['solve', '--solver', 'cpmpy:ortools']))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("puzzlebench: error: solver 'cpmpy' is not available here: CPMpy is not "
                           "installed (pip install cpmpy, or pip install 'puzzlebench[cpmpy]')\n")


def test_the_dev_extra_brings_cpmpy_pysat():
    """CI installs the dev extra, which names PBLib (pypblib) and python-sat's pb module
    (pindakaas): with them CPMpy's pysat back end must be found, so its tests run there rather
    than being left out of the parameters."""
    try:
        import tomllib
    except ModuleNotFoundError:   # Python 3.10: the project's tomli
        import tomli as tomllib
    from puzzlebench.engines.cpmpy import MISSING
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert any(d.startswith("pypblib") for d in dev) and any(d.startswith("python-sat[pb]") for d in dev)
    assert "pysat" in CPMPY.variants, MISSING.get("pysat")
