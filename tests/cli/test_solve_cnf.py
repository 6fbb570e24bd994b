"""``solve-cnf`` as the SAT competition runs solvers: exit 10 when a model was found (a count
too), 20 unsatisfiable, 0 unknown (the time limit struck before any model), 2 bad input; and
``--format jsonl``, the record ``solve --format jsonl`` writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from puzzlebench.cli import main
from puzzlebench.encoders.dimacs import SAT_EXIT, UNKNOWN_EXIT, UNSAT_EXIT, read_dimacs

TWO_MODELS = "p cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n"   # 1 -2 3 and -1 2 -3
NO_MODEL = "p cnf 1 2\n1 0\n-1 0\n"
EMPTY_9X9 = "." * 81


def pigeonhole(holes: int) -> str:
    """One pigeon more than holes: unsatisfiable, and seconds to minutes for CDCL from 10 holes."""
    var = lambda p, h: p * holes + h + 1
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes) for p in range(holes + 1) for q in range(p)]
    return f"p cnf {holes * (holes + 1)} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)


@pytest.fixture
def cnf(tmp_path):
    def write(text: str):
        path = tmp_path / "f.cnf"
        path.write_text(text)
        return path
    return write


@pytest.mark.parametrize("solver", ["sat", "sat:minisat22", "quine:h1"])
@pytest.mark.parametrize("text, code, answer", [(TWO_MODELS, SAT_EXIT, "s SATISFIABLE"),
                                                (NO_MODEL, UNSAT_EXIT, "s UNSATISFIABLE")])
def test_it_exits_as_sat_solvers_do(cnf, capsys, solver, text, code, answer):
    for limit in ("1", "0"):   # a count of every model exits as the answer it counts
        assert main(["solve-cnf", str(cnf(text)), "--solver", solver, "--limit", limit]) == code
        out, err = capsys.readouterr()
        assert answer in out.splitlines() and err == ""


@pytest.mark.slow
def test_a_script_that_wraps_it_sees_10_and_20(cnf):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for text, code in ((TWO_MODELS, SAT_EXIT), (NO_MODEL, UNSAT_EXIT)):
        run = subprocess.run([sys.executable, "-m", "puzzlebench", "solve-cnf", str(cnf(text))],
                             capture_output=True, text=True, env=env, timeout=120)
        assert (run.returncode, run.stderr) == (code, "")


def test_the_time_limit_before_any_model_is_unknown_exit_0(cnf, capsys):
    path = cnf(pigeonhole(10))
    assert main(["solve-cnf", str(path), "--solver", "sat:glucose3", "--time-limit", "0.3"]) == UNKNOWN_EXIT
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "c sat:glucose3: 0 model(s) found (limit 1, time limit reached)" and out[-1] == "s UNKNOWN"
    assert main(["solve-cnf", str(path), "--solver", "sat:glucose3", "--time-limit", "0.3",
                 "--format", "jsonl"]) == UNKNOWN_EXIT
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["count"], record["solution"]) == ("timeout", 0, None)


@pytest.mark.slow
def test_the_time_limit_after_models_is_satisfiable_exit_10_with_its_count(tmp_path, cnf, capsys):
    puzzle, path = tmp_path / "empty.txt", tmp_path / "empty.cnf"
    puzzle.write_text(EMPTY_9X9 + "\n")
    assert main(["export", str(puzzle), "--to", "dimacs", "-o", str(path)]) == 0
    assert main(["solve-cnf", str(path), "--limit", "0", "--time-limit", "0.5", "--format", "jsonl"]) == SAT_EXIT
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "timeout" and record["count"] > 0
    model = set(map(int, record["solution"].split()))   # the first model, in the file's numbers
    assert all(any(lit in model for lit in clause) for clause in read_dimacs(path.read_text()).clauses)


def test_jsonl_writes_the_record_solve_writes(tmp_path, cnf, capsys):
    sudoku = tmp_path / "four.txt"
    sudoku.write_text("..13....2.4.....\n")
    assert main(["solve", str(sudoku), "--format", "jsonl"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert main(["solve-cnf", str(cnf(TWO_MODELS)), "--solver", "sat:minisat22", "--limit", "0",
                 "--format", "jsonl"]) == SAT_EXIT
    out = capsys.readouterr().out
    record = json.loads(out)
    assert out.count("\n") == 1 and list(record) == list(solved)
    assert {k: record[k] for k in ("kind", "solver", "limit", "status", "count", "size", "error")} == {
        "kind": "cnf", "solver": "sat:minisat22", "limit": None, "status": "multiple", "count": 2,
        "size": {"variables": 3, "clauses": 3}, "error": None}
    assert record["solution"] in ("1 -2 3", "-1 2 -3") and record["source"] == str(tmp_path / "f.cnf")
    assert record["stats"]["conflicts"] is not None and record["times"]["total"] >= record["times"]["solve"] > 0
    assert main(["solve-cnf", str(cnf(NO_MODEL)), "--format", "jsonl"]) == UNSAT_EXIT
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["count"], record["solution"]) == ("unsat", 0, None)


def test_jsonl_counts_the_free_variables_in_the_count(cnf, capsys):
    """Three declared variables no clause names: each model listed stands for 2^3."""
    assert main(["solve-cnf", str(cnf("p cnf 5 1\n1 2 0\n")), "--limit", "0", "--format", "jsonl"]) == SAT_EXIT
    record = json.loads(capsys.readouterr().out)
    assert (record["count"], record["stats"]["raw"]["found"], record["stats"]["raw"]["free_variables"]) == (24, 3, 3)


def test_bad_input_is_still_exit_2(cnf, capsys):
    assert main(["solve-cnf", str(cnf("p cnf 1 1\n2 0\n")), "--format", "jsonl"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("puzzlebench: error: ")


UNDER_A_CAP = textwrap.dedent("""
    import resource, sys
    import numpy, pysat.card, puzzlebench.engines.quine   # loaded before the cap, as Engine.load does
    from puzzlebench.cli import main
    data = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmData:"))
    resource.setrlimit(resource.RLIMIT_DATA, (data * 1024 + (64 << 20), resource.RLIM_INFINITY))
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmData from /proc")
def test_a_run_out_of_memory_is_exit_1_with_one_line(cnf):
    """Quine's copies of 5,000 independent clauses take some 170 MB; held to 64 MB above the
    process's size, the run fails: one line, exit 1 (its record a memout in jsonl)."""
    path = cnf("p cnf 10000 5000\n" + "".join(f"{2 * i - 1} {2 * i} 0\n" for i in range(1, 5001)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for fmt in ("text", "jsonl"):
        run = subprocess.run([sys.executable, "-c", UNDER_A_CAP, "solve-cnf", str(path), "--solver", "quine:h1",
                              "--format", fmt], capture_output=True, text=True, env=env, timeout=300)
        assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr[-2000:]
        assert run.stderr.startswith(f"puzzlebench: {path}: error: out of memory")
        if fmt == "jsonl":
            record = json.loads(run.stdout)
            assert (record["status"], record["count"]) == ("memout", 0)
            assert run.stderr == f"puzzlebench: {path}: error: {record['error']}\n"
        else:
            assert run.stdout == ""


def test_the_help_says_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["solve-cnf", "--help"])
    assert ("Exit codes, as SAT solvers exit: 10 a model found (counting too), 20 unsatisfiable, 0 unknown (the "
            "time limit struck first), 1 the run failed, 2 bad input.") in " ".join(capsys.readouterr().out.split())
