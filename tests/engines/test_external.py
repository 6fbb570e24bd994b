"""External SAT solver programs (``ext``) and every PySAT solver (``sat``).

The programs are the real ones (Debian's cadical, minisat, picosat; CI installs them): each
test that needs one skips, saying so, where it is absent.  The fixtures in tests/data/ext/ are
what those programs printed (tests/data/ext/README.md says how they were made); the fake
solvers are small shell scripts written by the tests, run through ``ext@cmd=``."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import puzzlebench
from puzzlebench.encoders.cnf import encode
from puzzlebench.encoders.dimacs import SAT_EXIT, cnf_for_decoding, read_answer, read_dimacs
from puzzlebench.errors import SolverSpecError
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.engines import external, sat
from puzzlebench.engines.external import parse_statistics
from puzzlebench.engines.registry import make_engine

from agreement import skyscrapers_line
from conftest import TESTS, data_lines, needs_preset, needs_program

DATA = TESTS / "data" / "ext"
TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
PRESETS = ("cadical", "minisat", "picosat", "z3", "clasp")
LIMIT = 1.0
WALL_BOUND = 1.1 * LIMIT + 0.5 + 2.5     # the limit, its grace, room for a loaded 2-core machine


def fake_solver(folder: Path, name: str, body: str) -> str:
    """A shell script that plays a solver: ``body`` runs with the CNF's path in $1."""
    path = folder / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


# -- the programs' own output, recorded ----------------------------------------------------

RECORDED = {   # file: (conflicts, decisions, propagations) as the program printed them
    "cadical-top95-1.out": (5, 16, 1114),
    "minisat-top95-1.out": (6, 25, 1222),
    "picosat-top95-1.out": (14, 0, 1982),
    "cryptominisat5-top95-1.out": (3, 18, 615),
    "cadical-unsat.out": (0, 0, 32),      # CaDiCaL leaves out its zero counters
    "minisat-unsat.out": (0, 0, 32),
    "picosat-unsat.out": (1, 0, 36),
    "cryptominisat5-unsat.out": (0, 0, 0),
    "z3-top95-1.out": (4, 21, 1079 + 121),    # z3 -st: binary and longer clauses' propagations summed
}
RECORDED_WITHOUT_PROPAGATIONS = {"clasp-top95-1.out": (5, 9)}   # clasp --stats: Conflicts, Choices


@pytest.mark.parametrize("name", RECORDED)
def test_the_counters_each_program_printed_are_read(name):
    program = name.split("-")[0]
    banner = external.PRESETS[program].statistics_banner
    found = parse_statistics((DATA / name).read_text(), banner)
    assert (found["conflicts"], found["decisions"], found["propagations"]) == RECORDED[name]


@pytest.mark.parametrize("name", RECORDED_WITHOUT_PROPAGATIONS)
def test_clasp_counters_are_read_and_its_propagations_left_unknown(name):
    found = parse_statistics((DATA / name).read_text())
    assert (found["conflicts"], found["decisions"]) == RECORDED_WITHOUT_PROPAGATIONS[name]
    assert "propagations" not in found


def test_cadical_without_its_statistics_banner_leaves_zero_counters_unknown():
    text = (DATA / "cadical-unsat.out").read_text()
    assert parse_statistics(text) == {"propagations": 32}
    assert parse_statistics("s SATISFIABLE\nc conflicts: 1.5 M\n") == {}   # never a guess


@pytest.mark.parametrize("name", ["cadical-top95-1.out", "minisat-top95-1.result", "picosat-top95-1.out",
                                  "cryptominisat5-top95-1.out"])
def test_each_recorded_model_decodes_to_the_verified_solution(name):
    puzzle = parse_sudoku_line(TOP95_1)
    answer = read_answer((DATA / name).read_text(), name)
    assert answer.status == "SATISFIABLE"
    solution = encode(puzzle).decode(answer.true_literals)
    assert puzzle.check(solution) == []
    assert [solution] == make_engine("sat").run(puzzle).solutions


@pytest.mark.parametrize("name", ["cadical-unsat.out", "minisat-unsat.result", "picosat-unsat.out",
                                  "cryptominisat5-unsat.out"])
def test_each_recorded_unsat_answer_reads_as_unsatisfiable(name):
    assert read_answer((DATA / name).read_text(), name).status == "UNSATISFIABLE"


@pytest.mark.parametrize("name", ["cadical-sudoku4.out", "minisat-sudoku4.result", "picosat-sudoku4.out",
                                  "cryptominisat5-sudoku4.out"])
def test_the_exported_file_and_a_recorded_answer_round_trip(name):
    dimacs = read_dimacs((DATA / "sudoku4.cnf").read_text(), "sudoku4.cnf")
    puzzle, cnf = cnf_for_decoding(dimacs)
    solution = cnf.decode(read_answer((DATA / name).read_text(), name).true_literals)
    assert puzzle.check(solution) == []


# -- live runs: the same answers as the in-process engine -------------------------------------

def agree_with_sat(spec: str, puzzle, limit):
    result = make_engine(spec).run(puzzle, limit=limit, keep=1000)
    reference = make_engine("sat").run(puzzle, limit=limit, keep=1000)
    assert result.verified, result.error
    assert (result.status, result.count) == (reference.status, reference.count)
    reached = limit is not None and result.count >= limit
    if not reached:   # every solution found: the same ones
        assert sorted(result.solutions) == sorted(reference.solutions)
    # one run a model, and one more to find none when the limit was not reached
    assert result.stats.raw["runs"] == result.count + (0 if reached else 1)
    return result


@pytest.mark.parametrize("preset", PRESETS)
def test_sudoku_4x4_and_9x9_agree_with_sat(preset):
    needs_preset(preset)
    for line in data_lines("sudoku4_vu_kr_1000.txt", 4, step=211):
        agree_with_sat(f"ext:{preset}", parse_sudoku_line(line.split()[0]), None)
    agree_with_sat(f"ext:{preset}", Sudoku((2, 2), [1, 2, 3, 4] + [0] * 12), None)   # 12 solutions
    for line in data_lines("sudoku9_norvig_top95.txt", 3, step=37):
        result = agree_with_sat(f"ext:{preset}", parse_sudoku_line(line.split()[0]), 2)
        assert result.status is Status.UNIQUE
        assert result.stats.conflicts is not None
        assert (result.stats.propagations is None) == (preset == "clasp")   # clasp prints none


@pytest.mark.parametrize("preset", PRESETS)
def test_skyscrapers_and_nqueens_counts_agree_with_sat(preset):
    needs_preset(preset)
    lines = [line for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", 10_000)
             if int(line.split()[0]) in (4, 5)][::9][:4]
    for line in lines:
        puzzle, _ = skyscrapers_line(line)
        agree_with_sat(f"ext:{preset}", puzzle, 2)
        agree_with_sat(f"ext:{preset}", puzzle, None)
    assert agree_with_sat(f"ext:{preset}", NQueens(6), None).count == 4
    assert agree_with_sat(f"ext:{preset}", NQueens(6, [(0, 0)]), None).status is Status.UNSAT
    assert agree_with_sat(f"ext:{preset}", NQueens(8), 2).status is Status.MULTIPLE


@pytest.mark.slow
def test_eight_queens_all_92_cost_93_runs_with_summed_counters():
    needs_preset("cadical")
    result = make_engine("ext:cadical").run(NQueens(8), limit=None, keep=100)
    assert (result.status, result.count, result.verified) == (Status.MULTIPLE, 92, True)
    raw = result.stats.raw
    assert raw["runs"] == 93
    assert result.stats.conflicts == raw["conflicts"] and result.stats.nodes == raw["decisions"]
    assert result.stats.conflicts > 0 and result.stats.propagations > 0


def test_a_command_with_a_result_file_and_a_preset_with_another_program():
    needs_preset("minisat")
    puzzle = parse_sudoku_line(TOP95_1)
    reference = make_engine("sat").run(puzzle)
    for spec in ("ext@cmd=minisat -verb=0 {cnf} {result}", f"ext:minisat@cmd={shutil.which('minisat')}"):
        result = make_engine(spec).run(puzzle)
        assert (result.status, result.solutions, result.verified) == (Status.UNIQUE, reference.solutions, True)
        assert result.solver == spec


@pytest.mark.slow
def test_the_exported_encoding_option_is_the_sat_engines():
    needs_preset("picosat")
    puzzle = parse_sudoku_line(TOP95_1)
    for encoding in ("minimal", "optimized", "augmented"):
        result = make_engine(f"ext:picosat@encoding={encoding}").run(puzzle)
        assert result.status is Status.UNIQUE and result.verified, (encoding, result.error)
        assert result.size == make_engine(f"sat@encoding={encoding}").run(puzzle).size


# -- the clock: the program's process group killed at the limit ---------------------------

@pytest.mark.slow
def test_a_program_that_outlasts_the_limit_is_killed_with_its_children(tmp_path):
    pid_file = tmp_path / "grandchild.pid"
    script = fake_solver(tmp_path, "sleeper.sh", f"""\
        sleep 60 &
        echo $! > {pid_file}
        wait
        """)
    start = time.perf_counter()
    result = make_engine(f"ext@cmd={script}").run(parse_sudoku_line(TOP95_1), time_limit=LIMIT)
    assert time.perf_counter() - start < WALL_BOUND
    assert result.status is Status.TIMEOUT
    assert result.error == "killed at the time limit (1 s): SIGKILL to sleeper.sh's process group"
    grandchild = int(pid_file.read_text())
    # the kernel reaps it once its parent, the killed shell, is gone
    assert _eventually(lambda: not _alive(grandchild), seconds=2.5)


@pytest.mark.slow
def test_a_child_in_a_process_group_of_its_own_is_killed_too(tmp_path):
    """MiniZinc starts Gecode in a process group of its own: killing the program's group left
    ``fzn-gecode`` searching after every ext:minizinc timeout, its parent the init process."""
    pid_file = tmp_path / "grandchild.pid"
    script = fake_solver(tmp_path, "spawner.sh", f"""\
        exec {sys.executable} -c "import os, subprocess; \\
        p = subprocess.Popen(['sleep', '60'], preexec_fn=os.setpgrp); \\
        open('{pid_file}.tmp', 'w').write(str(p.pid)); os.rename('{pid_file}.tmp', '{pid_file}'); p.wait()"
        """)
    start = time.perf_counter()
    result = make_engine(f"ext@cmd={script}").run(parse_sudoku_line(TOP95_1), time_limit=LIMIT)
    # the grandchild held the program's output open: the run waited for it, 60 s
    assert time.perf_counter() - start < WALL_BOUND
    assert result.status is Status.TIMEOUT
    grandchild = int(pid_file.read_text())
    assert _eventually(lambda: not _alive(grandchild), seconds=2.5)


@pytest.mark.slow
def test_minizinc_leaves_no_gecode_behind_at_the_time_limit():
    needs_preset("minizinc")
    from puzzlebench.generators import generate
    # a quasigroup with holes of order 45 at the phase transition (42% holes): Gecode prints no
    # solution for seconds, so nothing ends it but the kill (20-queens' first solutions, written
    # to the dead MiniZinc's pipe, ended it by SIGPIPE)
    hard = next(generate("latin", 1, 3, size=45, holes=0.42))
    before = _gecodes()
    result = make_engine("ext:minizinc").run(hard, limit=None, time_limit=3 * LIMIT)
    assert result.status is Status.TIMEOUT
    assert _eventually(lambda: not _gecodes() - before, seconds=2.5)


@pytest.mark.slow
def test_minizinc_leaves_no_gecode_behind_when_its_starter_is_killed(tmp_path):
    """A Ctrl-C of bench (its workers SIGKILLed) left fzn-gecode searching: MiniZinc died with
    its worker (SIGKILL at the parent's death), Gecode, in a group of its own, went on.  MiniZinc
    now gets SIGTERM, on which it ends its solver itself."""
    needs_preset("minizinc")
    code = ("from puzzlebench.generators import generate; from puzzlebench.engines.registry import make_engine; "
            "make_engine('ext:minizinc').run(next(generate('latin', 1, 3, size=45, holes=0.42)), limit=None)")
    assert not _gecodes_left_by_killing([sys.executable, "-c", code], tmp_path, start=30, end=5)


def _gecodes_left_by_killing(argv: list[str], tmp_path, start: float, end: float) -> set[int]:
    """Run ``argv`` until Gecode runs (within ``start`` seconds: the export, MiniZinc's
    compilation, then Gecode), SIGKILL it, and give its Gecode ``end`` seconds to go: the
    ``fzn-gecode`` processes left (killed then, not left to load the machine)."""
    before = _gecodes()
    process = subprocess.Popen(argv, env={**os.environ, "TMPDIR": str(tmp_path)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _eventually(lambda: _gecodes() - before, seconds=start), "Gecode never started"
    finally:
        process.kill()
        process.wait()
    _eventually(lambda: not _gecodes() - before, seconds=end)
    left = _gecodes() - before
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def test_no_child_of_a_program_outlives_the_process_that_started_it(tmp_path):
    """A program dies with its starter (PR_SET_PDEATHSIG), but a child it made in a process
    group of its own (as MiniZinc makes Gecode) was adopted by init and went on: a ``kill -9``
    of a bench running ext:minizinc left fzn-gecode searching.  The starter's watchdog
    (runtime/watchdog.py) ends the program's whole session when the starter dies."""
    pid_file = tmp_path / "grandchild.pid"
    script = fake_solver(tmp_path, "spawner.sh", f"""\
        exec {sys.executable} -c "import os, subprocess; \\
        p = subprocess.Popen(['sleep', '60'], preexec_fn=os.setpgrp); \\
        open('{pid_file}.tmp', 'w').write(str(p.pid)); os.rename('{pid_file}.tmp', '{pid_file}'); p.wait()"
        """)
    code = ("import puzzlebench; from puzzlebench.engines.registry import make_engine; "
            f"make_engine('ext@cmd={script}').run(puzzlebench.parse('{TOP95_1}'))")
    python = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        assert _eventually(pid_file.exists, seconds=20), "the program never started its child"
        grandchild = int(pid_file.read_text())
        assert _alive(grandchild)
    finally:
        python.kill()
        python.wait()
    gone = _eventually(lambda: not _alive(grandchild), seconds=5)
    if not gone:   # not left to run its minute, were the test to fail
        os.kill(grandchild, signal.SIGKILL)
    assert gone


@pytest.mark.slow
def test_a_killed_bench_leaves_no_gecode_behind(tmp_path):
    """``kill -9`` of a bench running ext:minizinc: its worker dies with it, MiniZinc with the
    worker, and Gecode, in a group of its own, with the worker's watchdog; nothing is left."""
    needs_preset("minizinc")
    from puzzlebench.generators import generate
    square = tmp_path / "qwh.pls"
    square.write_text(next(generate("latin", 1, 3, size=45, holes=0.42)).write() + "\n")
    bench = [sys.executable, "-m", "puzzlebench", "bench", str(square), "--solvers", "ext:minizinc", "--limit", "0",
             "--time-limit", "120", "--db", str(tmp_path / "r.sqlite"), "--quiet", "--jobs", "1"]
    assert not _gecodes_left_by_killing(bench, tmp_path, start=60, end=10)


def _eventually(condition, seconds: float) -> bool:
    """Whether ``condition()`` holds within ``seconds`` (looked at every 0.05 s): a process
    killed, reaped or started is seen a moment after the call that caused it."""
    for _ in range(round(seconds / 0.05)):
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def _gecodes() -> set[int]:
    """The live Gecode processes of this test process: those of another pytest-xdist worker,
    running its own MiniZinc test beside this one, are neither counted nor killed."""
    return {pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
            if _alive(pid) and _command(pid).startswith("fzn-gecode") and _ours(pid)}


def _ours(pid: int) -> bool:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return True
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"PYTEST_XDIST_WORKER={worker}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs and is not a zombie: a process that ends between the listing of
    /proc and the read of its stat file (ENOENT at the open, ESRCH at the read) is not."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_the_program_dies_with_the_process_that_started_it(tmp_path):
    """A bench worker killed at its limit (SIGKILL: nothing runs after it) leaves no solver."""
    pid_file = tmp_path / "program.pid"
    script = fake_solver(tmp_path, "waiter.sh", f"echo $$ > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}; exec sleep 60\n")
    code = ("import puzzlebench; from puzzlebench.engines.registry import make_engine; "
            f"make_engine('ext@cmd={script}').run(puzzlebench.parse('{TOP95_1}'))")
    # its files go to tmp_path: a process killed with SIGKILL cannot remove them
    python = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        _eventually(pid_file.exists, seconds=10)
        program = int(pid_file.read_text())
        assert _alive(program)
    finally:
        python.kill()
        python.wait()
    assert _eventually(lambda: not _alive(program), seconds=5)


@pytest.mark.slow
def test_a_real_solver_on_a_count_it_cannot_finish_becomes_a_timeout():
    needs_preset("cadical")
    start = time.perf_counter()
    result = make_engine("ext:cadical").run(NQueens(30), limit=None, time_limit=LIMIT)
    assert time.perf_counter() - start < WALL_BOUND
    # how many runs finish within the limit depends on the machine's load (none, once, on a
    # busy CI machine): each answer it did count is a checked solution
    assert result.status is Status.TIMEOUT and len(result.solutions) <= result.count
    assert all(NQueens(30).check(s) == [] for s in result.solutions)
    # killed inside a run (the usual case) or stopped between two runs
    assert result.error in (None, "killed at the time limit (1 s): SIGKILL to cadical's process group")
    # through the API, the engine runs in a child process killed at the limit plus its grace
    start = time.perf_counter()
    result = puzzlebench.solve(NQueens(30), solver="ext:cadical", limit=None, time_limit=LIMIT)
    assert time.perf_counter() - start < WALL_BOUND
    assert result.status is Status.TIMEOUT


# -- bad programs --------------------------------------------------------------------------

def run_fake(tmp_path, name: str, body: str, puzzle=None, limit=2):
    script = fake_solver(tmp_path, name, body)
    return make_engine(f"ext@cmd={script}").run(puzzle or parse_sudoku_line(TOP95_1), limit=limit), script


def test_a_program_that_prints_garbage_is_an_error_naming_it(tmp_path):
    result, script = run_fake(tmp_path, "garbage.sh", "echo 'c hello'; echo 'hello world'\n")
    assert result.status is Status.ERROR
    assert result.error == (f"ext@cmd={script}: garbage.sh's output:2:1: 'hello' is not a literal in "
                            f"the solver's answer (exit code 0)")


def test_a_program_that_prints_no_status_is_an_error_naming_it(tmp_path):
    result, script = run_fake(tmp_path, "silent.sh", "echo 'usage: silent FILE' >&2; exit 1\n")
    assert result.error == (f"ext@cmd={script}: silent.sh's output:1: no status line ('s SATISFIABLE', "
                            f"'s UNSATISFIABLE' or MiniSat's 'SAT') (exit code 1) (its last line on "
                            f"stderr: 'usage: silent FILE')")


def test_a_program_that_crashes_is_an_error_naming_it_and_the_signal(tmp_path):
    result, script = run_fake(tmp_path, "crash.sh", "echo 'solver exploded' >&2; kill -SEGV $$\n")
    assert result.status is Status.ERROR
    assert result.error == f"ext@cmd={script}: crash.sh was killed by SIGSEGV (its last line on stderr: 'solver exploded')"


def test_an_exit_code_that_contradicts_the_status_is_an_error(tmp_path):
    result, script = run_fake(tmp_path, "liar.sh", "echo 's UNSATISFIABLE'; exit 10\n")
    assert result.error == f"ext@cmd={script}: liar.sh answered UNSATISFIABLE with exit code 10"


def test_a_wrong_model_is_caught_by_verification(tmp_path):
    # every cell of a 4x4 given the value 1: candidates 1, 5, 9, … (cell*4 + 1)
    ones = " ".join(str(cell * 4 + 1) for cell in range(16))
    puzzle = Sudoku((2, 2), [0] * 16)
    result, script = run_fake(tmp_path, "wrong.sh", f"echo 's SATISFIABLE'; echo 'v {ones} 0'; exit 10\n", puzzle,
                              limit=1)
    assert result.status is Status.ERROR and not result.verified
    assert result.error == f"wrong answer from ext@cmd={script}: {puzzle.check((1,) * 16)[0]}"


def test_the_same_model_again_is_an_error_not_an_endless_count(tmp_path):
    columns = make_engine("sat").run(NQueens(6), limit=1).solutions[0]
    literals = " ".join(str(row * 6 + column) for row, column in enumerate(columns))   # a right model
    result, script = run_fake(tmp_path, "stuck.sh", f"echo 's SATISFIABLE'; echo 'v {literals} 0'\n",
                              NQueens(6))
    assert result.error == (f"ext@cmd={script}: stuck.sh answered a model that a blocking clause "
                            f"excludes (the same solution again)")


# -- a missing program ---------------------------------------------------------------------

def cli_with_path(path: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": path}
    return subprocess.run([sys.executable, "-m", "puzzlebench.cli", *args], capture_output=True, text=True,
                          env=env, timeout=60)


@pytest.mark.slow
def test_a_missing_preset_names_its_program_and_package(tmp_path):
    (tmp_path / "minisat").symlink_to(needs_program("minisat"))
    done = cli_with_path(str(tmp_path), "solve", "--solver", "ext:cadical", "--example", "sudoku6")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("puzzlebench: error: solver 'ext:cadical' is not available here: the program "
                           "'cadical' is not on PATH (Debian package: cadical)\n")
    done = cli_with_path(str(tmp_path), "solve", "--solver", "ext", "--example", "sudoku6")
    assert done.returncode == 0 and "unique" in done.stdout    # the first preset present: minisat


@pytest.mark.slow
def test_no_program_at_all_makes_the_family_unavailable(tmp_path):
    done = cli_with_path(str(tmp_path), "solve", "--solver", "ext", "--example", "sudoku6")
    assert done.returncode == 2
    assert done.stderr == ("puzzlebench: error: solver 'ext' is not available here: no SAT solver program "
                           "on PATH (one of cadical, kissat, minisat, picosat, cryptominisat5, z3, clasp; "
                           "Debian packages cadical, kissat (from Debian 13), minisat, picosat, cryptominisat, z3 (or pip's "
                           "z3-solver, whose z3 program is on PATH in its environment), clasp), nor a tool of the "
                           "competition formats (minizinc: the program 'minizinc' is not on PATH (Debian "
                           "package: minizinc, and flatzinc for Gecode); ace: the program 'java' is not on "
                           "PATH (Debian package: default-jre-headless, and pip install pycsp3 (ACE's jar)); "
                           "minisat+: the program 'minisat+' is not on PATH (Debian package: minisat+))\n")


def test_a_program_put_on_path_while_the_process_runs_is_offered_at_once(tmp_path, monkeypatch):
    """The presets are looked up when asked, not once at import: a solver put on PATH after
    the package was imported is offered, and one taken off PATH is left out."""
    monkeypatch.setenv("PATH", str(tmp_path))
    fake_solver(tmp_path, "minisat", "exit 20\n")
    assert external.ExternalEngine.variants == ("minisat",)
    with pytest.raises(SolverSpecError) as refused:
        make_engine("ext:cadical")
    assert str(refused.value) == ("solver 'ext:cadical' is not available here: the program 'cadical' is not "
                                  "on PATH (Debian package: cadical)")
    fake_solver(tmp_path, "cadical", "exit 20\n")
    assert external.ExternalEngine.variants == ("cadical", "minisat")
    assert "cadical" not in external.ExternalEngine.left_out()
    assert make_engine("ext:cadical").program == "cadical"


def test_a_command_that_is_not_there_is_refused_by_name():
    if not external.ExternalEngine.variants:
        pytest.skip("no SAT solver program installed")
    with pytest.raises(SolverSpecError) as err:
        make_engine("ext@cmd=./no-such-solver --flag")
    assert str(err.value) == ("ext@cmd=./no-such-solver --flag: the program './no-such-solver' is not found "
                              "(not on PATH, not an executable file)")


def test_solvers_lists_the_presets_with_their_availability(capsys):
    present, missing = external.found_presets()
    if not present:
        pytest.skip("no SAT solver program installed")
    from puzzlebench.cli import main
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("\next  ("):]
    for name in external.PRESETS:
        if name in present:
            preset = external.PRESETS[name]
            assert f"    {name}: reads {preset.format}, runs {shutil.which(preset.program)}" in block
        else:
            assert f"    left out: {name}: {missing[name]}" in block


# -- every PySAT solver --------------------------------------------------------------------

def test_every_solver_the_installed_pysat_builds_is_a_variant():
    from pysat.solvers import SolverNames

    offered = {n for n, v in vars(SolverNames).items() if not n.startswith("_") and isinstance(v, tuple)}
    assert offered == set(sat.VARIANTS) | set(sat.EXCLUDED)
    assert all(reason.startswith("not built into this PySAT") for reason in sat.EXCLUDED.values())
    for name in ("cadical153", "cadical195", "kissat404"):
        if name in offered:
            assert name in sat.VARIANTS


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in sat.VARIANTS if not sat.ABILITIES[n].interrupt])
def test_a_solver_pysat_cannot_interrupt_counts_right_and_is_marked(name):
    engine = make_engine(f"sat:{name}")
    assert not engine.holds_time_limit
    note = sat.SatEngine.variant_notes()[name]
    if sat.ABILITIES[name].budget:   # CaDiCaL: a conflict budget, solved off the main thread
        assert note.startswith("cannot be interrupted: searched in slices of 5,000 conflicts off the main thread, "
                               "a Ctrl-C looked at between two; under a time limit it runs in a child process "
                               "killed at the limit"), note
    else:
        assert note.startswith("cannot be interrupted in-process: under a time limit, or where a Ctrl-C can "
                               "come, it runs in a child process killed at the limit or the Ctrl-C"), note
    result = engine.run(NQueens(8), limit=None, keep=100)
    assert (result.count, result.verified) == (92, True)
    result = engine.run(parse_sudoku_line(TOP95_1), time_limit=30)
    assert result.status is Status.UNIQUE and result.verified


@pytest.mark.slow
def test_a_solver_pysat_cannot_interrupt_is_killed_at_the_limit_in_a_child():
    names = [n for n in ("cadical195", "cadical153", "lingeling") if n in sat.VARIANTS]
    if not names:
        pytest.skip("this PySAT has no solver it cannot interrupt")
    start = time.perf_counter()
    result = puzzlebench.solve(NQueens(30), solver=f"sat:{names[0]}", limit=None, time_limit=LIMIT)
    assert time.perf_counter() - start < WALL_BOUND
    assert result.status is Status.TIMEOUT


def test_kissat_solves_once_so_each_model_gets_a_new_solver(capsys):
    if "kissat404" not in sat.VARIANTS:
        pytest.skip("this PySAT has no Kissat")
    engine = make_engine("sat:kissat404")
    result = engine.run(Sudoku((2, 2), [1, 2, 3, 4] + [0] * 12), limit=None)
    assert (result.count, result.verified, result.stats.conflicts) == (12, True, None)   # no statistics
    from puzzlebench.cli import main
    assert main(["solve-cnf", str(DATA / "sudoku4.cnf"), "--solver", "sat:kissat404", "--limit", "2"]) == SAT_EXIT
    assert capsys.readouterr().out.startswith("c sat:kissat404: 1 model(s) found (limit 2)\n")


def test_solve_cnf_refuses_a_time_limit_it_cannot_hold(capsys):
    if "cadical195" not in sat.VARIANTS:
        pytest.skip("this PySAT has no CaDiCaL 1.9.5")
    from puzzlebench.cli import main
    assert main(["solve-cnf", str(DATA / "sudoku4.cnf"), "--solver", "sat:cadical195", "--time-limit", "5"]) == 2
    assert capsys.readouterr().err == (
        f"puzzlebench: error: solve-cnf: sat:cadical195 cannot be interrupted in-process, so it cannot hold "
        f"--time-limit here; choose a solver that can (sat:{sat.VARIANTS[0]}) or no time limit\n")



# -- the competition formats: ext:minizinc, ext:ace, ext:minisat+ ----------------------------

MODEL_PRESETS = [pytest.param(name, id=name) for name, p in external.PRESETS.items() if p.format != "dimacs"]


def _smallest_examples() -> list:
    from puzzlebench.models.examples import EXAMPLES, example
    best: dict = {}
    for name in EXAMPLES:
        p = example(name)
        if p.kind not in best or p.n_cells < best[p.kind].n_cells:
            best[p.kind] = p
    return [best[kind] for kind in sorted(best)]


@pytest.mark.slow
@pytest.mark.parametrize("preset", MODEL_PRESETS)
def test_a_model_preset_agrees_with_cpsat_on_every_kind(preset):
    needs_preset(preset)
    engine, cpsat = make_engine(f"ext:{preset}"), make_engine("cpsat")
    examples = _smallest_examples()
    assert len({p.kind for p in examples}) == len(puzzlebench.models.kinds.KIND_NAMES)
    for puzzle in examples:
        ours, theirs = engine.run(puzzle, limit=2, time_limit=120), cpsat.run(puzzle, limit=2)
        assert ours.verified and ours.error is None, (puzzle.kind, ours.error)
        assert (ours.status, ours.count) == (theirs.status, theirs.count), puzzle.kind
        if theirs.status is Status.UNIQUE:
            assert ours.solutions == theirs.solutions, puzzle.kind


@pytest.mark.slow
@pytest.mark.parametrize("preset", MODEL_PRESETS)
def test_a_model_preset_counts_every_solution(preset):
    needs_preset(preset)
    engine = make_engine(f"ext:{preset}")
    for puzzle, count in ((NQueens(6), 4), (NQueens(6, [(0, 0)]), 0), (NQueens(5), 10)):   # OEIS A000170
        result = engine.run(puzzle, limit=None, keep=20, time_limit=120)
        assert (result.count, result.verified) == (count, True), (puzzle.write(), result.error)
        assert result.status is (Status.UNSAT if count == 0 else Status.MULTIPLE)
    # minizinc and ACE enumerate in one run; minisat+ answers one model a run and one more to find none
    assert result.stats.raw["runs"] == (1 if external.PRESETS[preset].solutions else count + 1)


def test_minizinc_statistics_are_gecodes_own():
    needs_preset("minizinc")
    result = make_engine("ext:minizinc").run(NQueens(8), limit=None, keep=100)
    raw = result.stats.raw
    assert result.count == 92
    assert result.stats.nodes == raw["nodes"] > 0 and result.stats.backtracks == raw["failures"] > 0
    assert result.stats.propagations == raw["propagations"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("preset", MODEL_PRESETS)
def test_a_model_preset_is_killed_at_the_time_limit(preset):
    needs_preset(preset)
    started = time.perf_counter()
    # every solution of 20-queens (39,029,188,884): none of these programs lists them in a second
    result = make_engine(f"ext:{preset}").run(NQueens(20), limit=None, time_limit=LIMIT)
    assert time.perf_counter() - started < WALL_BOUND + 2   # and the Python export of the model
    assert result.status is Status.TIMEOUT
    if external.PRESETS[preset].solutions is None and result.error is None:
        return   # counting by blocking (minisat+): the deadline fell between two runs, none killed
    assert "SIGKILL" in result.error and external.PRESETS[preset].program in result.error


def test_a_model_preset_that_prints_garbage_is_an_error_naming_it(tmp_path):
    needs_preset("minizinc")
    fake = fake_solver(tmp_path, "fake-minizinc", 'echo "c = [1, 2"; echo "=========="\n')
    result = make_engine(f"ext:minizinc@cmd={fake}").run(NQueens(4))
    assert result.status is Status.ERROR
    assert result.error.startswith("ext:minizinc@cmd=") and "fake-minizinc's output" in result.error
    assert "not a line of puzzlebench's MiniZinc output" in result.error


def test_a_pb_answer_that_breaks_the_puzzle_is_an_error(tmp_path):
    needs_preset("minisat+")
    # every variable false: no cell has a value, so the first exactly-one breaks
    fake = fake_solver(tmp_path, "fake-minisat+", 'echo "s SATISFIABLE"; echo "v -x1 -x2"\n')
    result = make_engine(f"ext:minisat+@cmd={fake}").run(NQueens(4))
    assert result.status is Status.ERROR
    assert "the answer breaks constraint 1" in result.error and result.solutions == []


# -- versions: what each program says it is, or where else its version was found ---------------

def test_aces_version_is_its_jars_name_saying_so():
    needs_preset("ace")
    from puzzlebench.engines import tool_runner
    jar = tool_runner.ace_jar()
    version = jar.name.removeprefix("ACE-").removesuffix(".jar")
    assert external._program_version(external.PRESETS["ace"]) == f"{version} (the name of pycsp3's jar, {jar.name})"
    assert version[0].isdigit()


def _dpkg_version(package: str) -> str | None:
    if shutil.which("dpkg-query") is None:
        return None
    done = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def test_minisat_plus_version_is_its_banners_with_the_debian_package():
    needs_preset("minisat+")
    banner = subprocess.run(["minisat+"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    said = next(line.split()[1].rstrip(",") for line in (banner.stdout + banner.stderr).splitlines()
                if line.startswith("MiniSat+ "))
    version = external._program_version(external.PRESETS["minisat+"])
    debian = _dpkg_version("minisat+") if os.path.realpath(shutil.which("minisat+")).startswith("/usr/") else None
    assert version == f"{said} (its banner" + (f"; Debian package minisat+ {debian})" if debian else ")")


def test_a_program_that_prints_no_version_falls_back_to_its_debian_package(tmp_path):
    """Debian's minisat has no version option: the package's version, saying so; a program of
    no package (a script here) is '(prints no version)'."""
    needs_program("minisat")
    if _dpkg_version("minisat") is None:
        pytest.skip("the minisat on PATH is not Debian's package")
    assert external._program_version(external.PRESETS["minisat"]) == (
        f"{_dpkg_version('minisat')} (Debian package minisat; the program prints no version)")
    script = fake_solver(tmp_path, "quiet-solver", "exit 0\n")
    quiet = external.Preset("quiet", script, "none", (), version_arguments=None)
    assert external._program_version(quiet) == "(prints no version)"
    assert external.debian_version(script) is None


def test_the_family_version_names_every_present_program_with_a_version():
    said = external.ExternalEngine.version()
    for name in external.ExternalEngine.variants:
        assert f"{name} " in said
    assert "ace (prints" not in said and "minisat+ (prints" not in said


# -- memory: the program held to the limit, its peak kept, running out a memout -------------------

HOG = f"exec {sys.executable} -c 'x = bytearray(1500 * 2**20); print(\"s SATISFIABLE\")'\n"


def _solve_jsonl(capsys, *args: str) -> dict:
    import json
    from puzzlebench.cli import main
    capsys.readouterr()
    main(["solve", "--format", "jsonl", *args])
    return json.loads(next(line for line in capsys.readouterr().out.splitlines() if line.startswith("{")))


def test_a_program_past_the_memory_limit_is_a_memout_naming_it(tmp_path, capsys):
    """The program's own data is held to what the limit leaves (it would inherit the whole cap
    of the process that runs it, that process's data included): 1.5 GB refused under 100 MB."""
    script = fake_solver(tmp_path, "hog.sh", HOG)
    record = _solve_jsonl(capsys, "--example", "arto-inkala", "--solver", f"ext@cmd={script}", "--memory-limit", "100")
    assert record["status"] == "memout"
    assert record["error"].startswith("memory limit of 100 MB reached: hog.sh ended (exit code 1) with its data "
                                      "held to ")
    assert "(its last line on stderr: 'MemoryError')" in record["error"]


def test_a_program_that_fails_saying_memory_without_a_limit_is_an_error(tmp_path):
    result, _ = run_fake(tmp_path, "says.sh", "echo 'MemoryError' >&2; exit 1\n")
    assert result.status is Status.ERROR and "MemoryError" in result.error


def test_a_preset_under_a_tiny_memory_limit_is_a_memout_and_its_peak_is_kept_without_one(capsys):
    needs_preset("minizinc")
    record = _solve_jsonl(capsys, "--example", "sudoku12", "--solver", "ext:minizinc", "--memory-limit", "5")
    assert record["status"] == "memout" and "minizinc ended (" in record["error"]
    record = _solve_jsonl(capsys, "--example", "sudoku12", "--solver", "ext:minizinc")
    assert record["status"] == "unique"
    raw = record["stats"]["raw"]
    assert raw["program_cpu"] > 0 and raw["program"] == "minizinc"
    # MiniZinc and Gecode: tens of MB, kept when more than this process's peak (which Linux
    # counts in a program's ru_maxrss: see ExternalEngine._account)
    assert raw.get("program_peak_memory") is None or raw["program_peak_memory"] > 2**20


def test_a_program_that_writes_without_end_is_stopped_at_the_outputs_bound(tmp_path, monkeypatch):
    """``ext@cmd=yes`` reached 3.5 GB in 5 s: the program's whole output was kept.  It is read
    in pieces now, and the program stopped past the bound (256 MiB; 1 MiB here)."""
    from puzzlebench.runtime import output
    monkeypatch.setattr(output, "OUTPUT_LIMIT", 2**20)
    start = time.perf_counter()
    result = make_engine("ext@cmd=yes").run(parse_sudoku_line(TOP95_1), time_limit=60)
    assert time.perf_counter() - start < WALL_BOUND
    assert (result.status, result.error) == (Status.ERROR, "ext@cmd=yes: yes wrote more than 1 MiB on its "
                                                           "standard output; stopped")


def test_only_the_last_of_a_programs_standard_error_is_kept_and_quoted(tmp_path):
    result, script = run_fake(tmp_path, "chatty.sh", "yes noise | head -n 3000000 >&2; echo 'last words' >&2; exit 1\n")
    assert result.error.endswith("(exit code 1) (its last line on stderr: 'last words')")


def test_a_tool_that_writes_without_end_is_stopped_too(monkeypatch):
    from puzzlebench.errors import EngineError
    from puzzlebench.runtime import output
    from puzzlebench.engines import tool_runner
    monkeypatch.setattr(output, "OUTPUT_LIMIT", 2**20)
    with pytest.raises(EngineError) as err:
        tool_runner.run_tool(["yes"], timeout=60)
    assert str(err.value) == "yes wrote more than 1 MiB on its standard output; stopped"
