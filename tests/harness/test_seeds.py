"""Engine seeds (``--engine-seed``, ``bench --repeat``) and warm-up runs (``bench --warmup``).

A seed is seen where the engine itself shows it: CP-SAT's own search log names its
parameters, Z3's and CP-SAT's search counters change with it (and come back with the same
seed), the ext program's command line carries it."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench import api
from puzzlebench.cli import main
from puzzlebench.errors import UsageError
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.generators import generate
from puzzlebench.harness.inputs import from_puzzles
from puzzlebench.harness.workers import LocalExecutor
from puzzlebench.models.examples import example
from puzzlebench.engines.registry import make_engine

from conftest import REPO, needs_preset, needs_program
if str(REPO) not in sys.path:  # the workers import the test doubles as tests.broken_engines
    sys.path.insert(0, str(REPO))
from tests.broken_engines import ALL as BROKEN  # noqa: E402


@pytest.fixture(scope="module")
def sudokus():
    """Four generated 4x4 Sudoku, the same every run."""
    return list(generate("sudoku", 4, seed=7, box=(2, 2)))


def bench(items, solvers, tmp_path, **kw):
    cfg = BenchConfig(solvers=solvers, db=str(tmp_path / "r.sqlite"), engines=BROKEN, quiet=True,
                      time_limit=10.0, jobs=kw.pop("jobs", 1), **kw)
    return run_bench(items, cfg, executor=LocalExecutor(cfg.jobs, grace=2.0))


def logged(db: Path, query: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(query).fetchall()


LOG = ("SELECT v.spec, r.line, r.repetition, r.engine_seed, r.warmup FROM result_log r "
       "JOIN solvers v ON v.id = r.solver_id ORDER BY r.id")


# -- the engines ----------------------------------------------------------------------------------

def counters(result) -> tuple:
    return result.count, result.stats.nodes, result.stats.conflicts, result.stats.propagations


def test_cpsat_gets_the_seed_as_its_random_seed(tmp_path):
    log = tmp_path / "cpsat.log"
    queens = example("8-queens")
    runs = {seed: make_engine(f"cpsat@log={log}").seeded(seed).run(queens, limit=0) for seed in (0, 1, 2)}
    again = make_engine("cpsat").seeded(0).run(queens, limit=0)
    said = [line.split("random_seed: ")[1].split()[0] for line in log.read_text().splitlines()
            if line.startswith("Parameters:")]
    assert said == ["0", "1", "2"]                       # CP-SAT's own words
    assert all(r.count == 92 and r.verified for r in runs.values())
    assert len({counters(r) for r in runs.values()}) == 3   # the seed changes the search
    assert counters(again) == counters(runs[0])             # and the same seed gives it back


def test_cpmpy_gives_ortools_the_seed():
    pytest.importorskip("cpmpy")
    pytest.importorskip("ortools")
    queens = example("8-queens")
    runs = [counters(make_engine("cpmpy:ortools").seeded(seed).run(queens, limit=0)) for seed in (0, 1, 0)]
    assert runs[0] != runs[1] and runs[0] == runs[2] and runs[0][0] == 92
    assert make_engine("cpmpy:ortools").seeded(1).engine_seed == 1


def test_quine_h0_seeds_its_choices_with_its_option_plus_the_engine_seed():
    queens = api.parse("5", kind="nqueens")

    def h0(spec: str, seed: int) -> tuple:
        return counters(make_engine(spec).seeded(seed).run(queens, limit=0))

    assert h0("quine:h0", 0) != h0("quine:h0", 1) and h0("quine:h0", 0) == h0("quine:h0", 0)
    assert h0("quine:h0@seed=1", 0) == h0("quine:h0", 1)
    assert make_engine("quine:h1").seeded(1).engine_seed is None   # h1 chooses without chance


def z3_count(seed: int) -> dict:
    """Z3's counters for one puzzle in a process of its own (in one process Z3's terms carry the
    earlier formulas' numbering, and the search with them)."""
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "count", "--example", "arto-inkala",
                           "--solver", "smt", "--engine-seed", str(seed), "--format", "jsonl"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_z3_gets_the_seed():
    def search(answer: dict) -> tuple:
        return tuple(answer["stats"][name] for name in ("nodes", "conflicts", "propagations"))

    first, other, same = z3_count(0), z3_count(1), z3_count(0)
    assert first["count"] == other["count"] == 1
    assert search(first) != search(other)   # Z3's decisions, conflicts, propagations: another search
    assert search(same) == search(first)
    assert make_engine("smt").seeded(1).engine_seed == 1


def test_ext_cadical_gets_its_seed_option(tmp_path):
    """The real CaDiCaL, started through a script that writes down its command line first."""
    needs_preset("cadical")
    seen = tmp_path / "argv"
    wrapper = tmp_path / "cadical-wrapper"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {seen}\nexec cadical "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    result = make_engine(f"ext:cadical@cmd={wrapper}").seeded(5).run(example("arto-inkala"))
    assert result.status == "unique" and result.verified
    lines = seen.read_text().splitlines()
    assert len(lines) == 2 and all(line.split()[0] == "--seed=5" for line in lines)   # a model, then none
    plain = make_engine("ext:cadical").seeded(7)
    assert plain.engine_seed == 7 and plain.run(example("arto-inkala")).status == "unique"


def test_ext_command_of_ones_own_takes_the_seed_where_it_says(tmp_path):
    needs_program("cadical")
    engine = make_engine("ext@cmd=cadical --seed={seed}").seeded(9)
    assert engine.takes_seed() and engine.run(example("arto-inkala")).status == "unique"
    assert make_engine("ext@cmd=cadical").seeded(9).engine_seed is None   # no {seed}: none given


def test_engines_without_randomness_record_no_seed():
    assert make_engine("dlx").seeded(3).engine_seed is None
    assert make_engine("bitboard").seeded(3).engine_seed == 3               # its random tie-breaks
    assert make_engine("sat:glucose3").seeded(3).engine_seed is None      # PySAT sets no seed there
    assert make_engine("sat:cadical195").seeded(3).engine_seed == 3
    assert make_engine("cpsat").engine_seed == 0                          # the default reproduces


def test_ext_minisat_plus_takes_no_seed():
    needs_preset("minisat+")
    assert make_engine("ext:minisat+").seeded(3).engine_seed is None


def test_api_takes_the_engine_seed_and_leaves_a_given_engine_alone():
    engine = make_engine("cpsat")
    queens = example("8-queens")
    seeded = api.solve(queens, engine, limit=0, engine_seed=1)
    assert engine.engine_seed == 0
    assert counters(seeded) == counters(make_engine("cpsat").seeded(1).run(queens, limit=0))
    many = api.solve_many([queens], "cpsat", limit=0, engine_seed=1)
    assert counters(many[0]) == counters(seeded)
    apart = api.solve(queens, "cpsat", limit=0, engine_seed=1, memory_limit=500)   # in a child process
    assert counters(apart) == counters(seeded)
    with pytest.raises(UsageError, match="the engine seed must be a whole number from 0 to 2000000000; got -1"):
        api.solve(queens, "cpsat", engine_seed=-1)


def test_solvers_says_which_engines_take_a_seed(capsys):
    assert main(["solvers", "--format", "jsonl"]) == 0
    rows = {row["solver"]: row for row in map(json.loads, capsys.readouterr().out.splitlines())}
    assert "random_seed" in rows["cpsat"]["seed"] and "random_seed" in rows["smt"]["seed"]
    assert "--seed=N" in rows["ext"]["seed"]
    assert "random tie-breaks" in rows["bitboard"]["seed"]
    assert rows["dlx"]["seed"] is None and rows["mrv"]["seed"] is None


def test_a_bad_engine_seed_is_one_line(capsys):
    assert main(["solve", "--example", "knuth", "--engine-seed", "-1"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: --engine-seed -1: out of range: a whole number "
                                       "from 0 to 2000000000\n")


# -- bench --repeat and --warmup -----------------------------------------------------------------

def test_repeat_gives_each_repetition_its_own_recorded_seed(sudokus, tmp_path):
    out = bench(from_puzzles("four", sudokus), ["cpsat", "dlx"], tmp_path, repeat=3, engine_seed=10)
    assert out.ran == 24 and not out.errors
    rows = logged(tmp_path / "r.sqlite", "SELECT solver, puzzle_id, repetition, engine_seed FROM results")
    seeds: dict[tuple, set] = {}
    for solver, puzzle, repetition, seed in rows:
        seeds.setdefault((solver, puzzle), set()).add((repetition, seed))
    assert len(seeds) == 8
    for (solver, _), runs in seeds.items():
        expected = {(r, 9 + r) for r in (1, 2, 3)} if solver == "cpsat:int" else {(r, None) for r in (1, 2, 3)}
        assert runs == expected


def test_the_last_repetitions_seed_must_fit(sudokus, tmp_path):
    with pytest.raises(UsageError, match="--engine-seed 1999999999 with --repeat 3: the last repetition's "
                                         "seed would pass 2000000000"):
        bench(from_puzzles("four", sudokus), ["cpsat"], tmp_path, repeat=3, engine_seed=1_999_999_999)


def test_warmup_runs_are_stored_apart_and_left_out_of_every_figure(sudokus, tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    out = bench(from_puzzles("four", sudokus), ["cpsat", "bitboard"], tmp_path, warmup=2)
    assert out.ran == 8 and len(out.results) == 8
    log = logged(db, LOG)
    warm = [(spec, line) for spec, line, _, _, warmup in log if warmup == 1]
    assert sorted(warm) == [("bitboard", 1), ("bitboard", 2), ("cpsat:int", 1), ("cpsat:int", 2)]  # one worker
    assert [warmup for *_, warmup in log].count(0) == 8
    # each engine's warm-up comes before its first measured run
    for spec in ("bitboard", "cpsat:int"):
        mine = [warmup for s, _, _, _, warmup in log if s == spec]
        assert mine[:2] == [1, 1] and set(mine[2:]) == {0}
    assert len(api.load_results(db)) == 8
    assert main(["report", "--db", str(db), "--raw", "--format", "csv"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1 + 8


def test_warmup_is_run_by_every_worker(sudokus, tmp_path):
    items = from_puzzles("four", sudokus * 4)
    bench(items, ["cpsat"], tmp_path, warmup=2, jobs=2)
    warm = logged(tmp_path / "r.sqlite", "SELECT line FROM result_log WHERE warmup = 1 ORDER BY id")
    assert len(warm) in (2, 4) and warm == [(1,), (2,)] * (len(warm) // 2)   # 2 per worker that ran cpsat
    assert logged(tmp_path / "r.sqlite", "SELECT count(*) FROM results") == [(16,)]


def test_a_worker_that_dies_in_its_warmup_blames_no_puzzle(sudokus, tmp_path):
    out = bench(from_puzzles("four", sudokus[:2]), ["exit"], tmp_path, warmup=1)
    rows = logged(tmp_path / "r.sqlite", "SELECT line, status, error FROM results ORDER BY line")
    assert [(line, status) for line, status, _ in rows] == [(1, "error"), (2, "error")]
    assert all("exited with code 3" in error for *_, error in rows)
    assert out.ran == 2
    assert logged(tmp_path / "r.sqlite", "SELECT count(*) FROM result_log WHERE warmup = 1") == [(0,)]


def test_a_negative_warmup_is_refused_in_one_line(tmp_path, capsys):
    code = main(["bench", "--solvers", "mrv", "--warmup", "-1", "--db", str(tmp_path / "r.sqlite")])
    assert code == 2
    assert capsys.readouterr().err == "puzzlebench: error: --warmup -1: out of range: a whole number from 0 to 2^31-1\n"


def test_a_campaign_takes_the_engine_seed_and_warmup_from_the_command_line(sudokus, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "four.txt").write_text("".join(p.write() + "\n" for p in sudokus))
    (tmp_path / "c.toml").write_text('db = "r.sqlite"\nsolvers = ["cpsat"]\nrepeat = 2\njobs = 1\n'
                                     '[[set]]\nfile = "four.txt"\n')
    assert main(["bench", "--campaign", "c.toml", "--engine-seed", "4", "--warmup", "1", "--quiet"]) == 0
    log = logged(tmp_path / "r.sqlite", LOG)
    assert [(line, seed) for _, line, _, seed, warmup in log if warmup == 1] == [(1, None)]
    assert sorted({(repetition, seed) for _, _, repetition, seed, warmup in log if warmup == 0}) == [(1, 4), (2, 5)]
