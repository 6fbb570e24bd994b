"""How sure the report is: the median's bootstrap interval, the paired tests between solvers
(Wilcoxon, Holm) and between two databases (paired by puzzle content; McNemar for the solved
counts), the run-to-run noise of repetitions, and every number finite (JSON valid)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.cli import main
from puzzlebench.harness.bench import BenchConfig, run_bench
from puzzlebench.harness.database import Database
from puzzlebench.generators import generate
from puzzlebench.harness.inputs import from_puzzles
from puzzlebench.harness.report import (MetricOptions, compare, median_runs, noise_warnings, standard_metrics,
                                        summarise)
from puzzlebench.harness.uncertainty import holm, median_interval, paired_time_test, solved_test


def write_times(path: Path, rows, hashes: dict | None = None) -> Path:
    """A results database by the real Database class: rows of (set, line, solver, status, time,
    time limit, repetition); a puzzle's hash is ``h-SET-LINE`` unless ``hashes`` names another."""
    hashes = hashes or {}
    db = Database(path)
    run = db.start_run(command="test", seed=1, settings={}, engines={})
    names = ("set_name", "line", "solver", "status", "t_total", "time_limit", "repetition")
    columns = {name: list(values) for name, values in zip(names, zip(*rows))}
    columns["puzzle_hash"] = [hashes.get((s, line), f"h-{s}-{line}") for s, line, *_ in rows]
    columns["t_solve"] = columns["t_total"]
    columns["count"] = [1 if status == "unique" else 0 for _, _, _, status, *_ in rows]
    columns["error"] = [None if status in ("unique", "timeout") else "boom" for _, _, _, status, *_ in rows]
    db.write_columns(run, columns, {"limit_": 2, "t_parse": 0.0, "t_encode": 0.0, "t_decode": 0.0,
                                    "verified": 1, "wrong": 0, "kind": "sudoku", "shape": "4x4"})
    db.close()
    return path


def results_of(path: Path) -> list:
    db = Database(path)
    try:
        return median_runs(db.results())
    finally:
        db.close()


def lognormal(seed: int, n: int, scale: float = 0.05) -> list[float]:
    return list(scale * np.random.default_rng(seed).lognormal(0.0, 0.5, n))


def two_solvers(a_times, b_times, limit: float = 10.0, set_name: str = "s") -> list[tuple]:
    return ([(set_name, i + 1, "a", "unique", t, limit, 1) for i, t in enumerate(a_times)]
            + [(set_name, i + 1, "b", "unique", t, limit, 1) for i, t in enumerate(b_times)])


def by_solver(metrics: list[dict]) -> dict[str, dict]:
    return {m["solver"]: m for m in metrics}


# -- the median's interval -------------------------------------------------------------------------

def test_the_median_interval_holds_the_median_and_is_the_same_every_time(tmp_path, capsys):
    path = write_times(tmp_path / "r.sqlite", two_solvers(lognormal(1, 60), lognormal(2, 60)))
    first = summarise(results_of(path))
    assert first == summarise(results_of(path))   # seeded: the same results, the same intervals
    for row in first:
        assert row["median_lo"] < row["median"] < row["median_hi"]
    # wide where the data are: a 95% interval of the median of 60 draws spans some of their middle
    times = sorted(lognormal(1, 60))
    assert times[15] < first[0]["median_lo"] < first[0]["median"] < first[0]["median_hi"] < times[45]
    assert main(["report", "--db", str(path), "--format", "json"]) == 0
    once = capsys.readouterr().out
    assert main(["report", "--db", str(path), "--format", "json"]) == 0
    assert capsys.readouterr().out == once
    assert median_interval([0.5]) is None and median_interval([]) is None   # one value: nothing to resample


# -- paired tests between solvers -----------------------------------------------------------------

def test_two_solvers_of_one_distribution_show_no_significant_difference(tmp_path, capsys):
    path = write_times(tmp_path / "same.sqlite", two_solvers(lognormal(3, 80), lognormal(4, 80)))
    metrics = by_solver(standard_metrics(results_of(path), MetricOptions(baseline="a")))
    b = metrics["b"]
    assert b["reference"] == "a" and b["paired"] == 80 and b["p_time_holm"] >= 0.05
    assert b["verdict"] == "no significant difference"
    assert b["speedup_lo"] < 1 < b["speedup_hi"]
    plain = by_solver(standard_metrics(results_of(path), MetricOptions(baseline="a", margin=0)))["b"]
    assert plain["verdict"] == "no significant difference"   # without the margin too: no difference to find
    assert main(["report", "--db", str(path)]) == 0   # no baseline: against the set's least sgm
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines() if line.startswith("| s | ")]
    tested = [row[-4:] for row in rows[-3:]]          # the metrics table: a, b and the virtual best
    reference = "a" if metrics["a"]["sgm"] <= metrics["b"]["sgm"] else "b"
    assert sorted(tested) == sorted([[reference, "-", "-", "reference |"],
                                     [reference, "80", f"{b['p_time_holm']:.3f}", "no significant difference |"],
                                     ["-", "-", "-", "- |"]])


def test_a_solver_three_times_as_fast_is_significantly_faster(tmp_path):
    slow = lognormal(5, 40)
    fast = [t / 3 * f for t, f in zip(slow, np.random.default_rng(6).lognormal(0.0, 0.2, 40))]
    path = write_times(tmp_path / "apart.sqlite", two_solvers(slow, fast))
    metrics = by_solver(standard_metrics(results_of(path), MetricOptions(baseline="a")))
    assert metrics["b"]["p_time_holm"] < 1e-6 and metrics["b"]["verdict"] == "faster than a"
    assert 1 < metrics["b"]["speedup_lo"] < metrics["b"]["speedup"] < metrics["b"]["speedup_hi"]
    # no baseline: the reference is the least sgm, b, and a is slower than it
    metrics = by_solver(standard_metrics(results_of(path)))
    assert (metrics["a"]["reference"], metrics["a"]["verdict"], metrics["b"]["verdict"]) == ("b", "slower than b",
                                                                                              "reference")


@pytest.mark.slow
def test_timeouts_count_at_the_limit_and_errors_are_left_out_of_the_test(tmp_path):
    rows = two_solvers([0.01] * 12, [0.01] * 12, limit=1.0)
    rows = [(s, line, solver, "timeout" if solver == "b" and line <= 10 else status, 1.0 if solver == "b" and
             line <= 10 else t, limit, rep) for s, line, solver, status, t, limit, rep in rows]
    rows.append(("s", 13, "a", "unique", 0.01, 1.0, 1))
    rows.append(("s", 13, "b", "error", 0.0, 1.0, 1))
    metrics = by_solver(standard_metrics(results_of(write_times(tmp_path / "t.sqlite", rows)),
                                         MetricOptions(baseline="a")))
    assert metrics["b"]["paired"] == 12                        # the error is no time to compare
    assert metrics["b"]["verdict"] == "slower than a"          # ten timeouts at 1 s against 10 ms


def test_a_drift_within_the_margin_is_no_difference_and_beyond_it_is(tmp_path, capsys):
    """A whole run 2% slower, as a loaded machine makes it, on 200 puzzles: the plain test
    (--margin 0) finds it, the default margin of 5% does not; 10% slower is beyond it."""
    times = lognormal(14, 200)
    jitter = np.random.default_rng(15).lognormal(0.0, 0.01, 200)
    drift = [t * 1.02 * j for t, j in zip(times, jitter)]
    assert paired_time_test(times, drift, 0.0)[0] < 1e-6
    assert paired_time_test(times, drift)[0] == pytest.approx(1.0)
    assert paired_time_test(times, [t * 1.10 * j for t, j in zip(times, jitter)]) == (pytest.approx(0, abs=1e-6), 1)
    a = write_times(tmp_path / "a.sqlite", [("s", i + 1, "x", "unique", t, 10.0, 1) for i, t in enumerate(times)])
    b = write_times(tmp_path / "b.sqlite", [("s", i + 1, "x", "unique", t, 10.0, 1) for i, t in enumerate(drift)])
    assert compare(results_of(a), results_of(b))[0]["time_change"] == "within noise"
    assert compare(results_of(a), results_of(b), MetricOptions(margin=0))[0]["time_change"] == "slower (significant)"
    assert main(["report", "--compare", str(a), str(b), "--margin", "0", "--format", "csv"]) == 0
    assert ",slower (significant)," in capsys.readouterr().out
    for given, message in (("-0.1", "--margin -0.1: out of range: a number from 0 to 1"),
                           ("nan", "--margin nan: not a finite number"),
                           ("1", "--margin must be a share from 0 to below 1 (0.05: five per cent); got 1")):
        assert main(["report", "--db", str(a), "--margin", given]) == 2
        assert capsys.readouterr() == ("", f"puzzlebench: error: {message}\n")


def test_holm_adjusts_in_order_of_the_p_values_by_hand():
    # sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> kept non-decreasing: 0.06
    assert holm([0.01, 0.04, 0.03, None, 0.005]) == pytest.approx([0.03, 0.06, 0.06, None, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0] and holm([]) == [] and holm([None]) == [None]


def test_holm_runs_across_the_whole_table(tmp_path):
    """Two sets, one test each: their p-values adjusted together, as :func:`holm` adjusts them,
    the smaller doubled."""
    rows = (two_solvers(lognormal(7, 30), [t * 1.3 for t in lognormal(7, 30)], set_name="s")
            + two_solvers(lognormal(8, 30), lognormal(9, 30), set_name="t"))
    metrics = [m for m in standard_metrics(results_of(write_times(tmp_path / "h.sqlite", rows)),
                                           MetricOptions(baseline="a")) if m["p_time"] is not None]
    raw = [m["p_time"] for m in metrics]
    assert [m["p_time_holm"] for m in metrics] == pytest.approx(holm(raw))
    assert min(m["p_time_holm"] for m in metrics) == pytest.approx(2 * min(raw))


@pytest.mark.slow
def test_the_scipy_tests_by_hand():
    # Wilcoxon on log times: every pair equal is no evidence; b always ten times as slow, 10 pairs: each of the
    # ten differences beyond the 5% margin, the one-sided p 1 / 2^10, doubled for the two sides
    assert paired_time_test([0.1] * 5, [0.1] * 5) == (1.0, 0)
    slow = paired_time_test([0.1 * (i + 1) for i in range(10)], [1.0 * (i + 1) for i in range(10)])
    assert slow == (pytest.approx(2 / 2 ** 10), 1)
    assert paired_time_test([1.0 * (i + 1) for i in range(10)], [0.1 * (i + 1) for i in range(10)])[1] == -1
    assert paired_time_test([], []) is None
    # McNemar exact: 10 gained, 0 lost is 2 x 0.5^10; 5 and 5 is no evidence
    assert solved_test(10, 0) == pytest.approx(2 * 0.5 ** 10)
    assert solved_test(5, 5) == 1.0 and solved_test(0, 0) == 1.0


# -- two databases side by side ------------------------------------------------------------------

def test_compare_pairs_puzzles_by_content_and_counts_those_of_one_side(tmp_path, capsys):
    times = lognormal(10, 30)
    a = write_times(tmp_path / "a.sqlite", [("s", i + 1, "x", "unique", t, 10.0, 1) for i, t in enumerate(times)])
    # B: puzzle 3's content changed (another hash) and took 9 s; a puzzle 31 only B has
    later = [("s", i + 1, "x", "unique", 9.0 if i == 2 else t, 10.0, 1) for i, t in enumerate(times)]
    later.append(("s", 31, "x", "timeout", 10.0, 10.0, 1))
    b = write_times(tmp_path / "b.sqlite", later, hashes={("s", 3): "h-changed"})
    row = compare(results_of(a), results_of(b))[0]
    assert (row["puzzles_a"], row["puzzles_b"], row["paired"], row["only_a"], row["only_b"]) == (30, 31, 29, 1, 2)
    common = [t for i, t in enumerate(times) if i != 2]
    assert row["median_a"] == row["median_b"] == pytest.approx(float(np.median(common)))
    assert row["par_a"] == row["par_b"] == pytest.approx(sum(common) / 29)   # the changed and the new left out
    assert (row["solved_a"], row["solved_b"], row["gained"], row["lost"]) == (29, 29, 0, 0)
    assert (row["solved_change"], row["time_change"], row["par_change"]) == ("within noise",) * 3
    assert main(["report", "--compare", str(a), str(b), "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("s,x,2,10.0,10.0,30,31,29,1,2,29,29,")


def test_compare_marks_a_real_change_significant(tmp_path):
    times = lognormal(11, 40)
    a = write_times(tmp_path / "a.sqlite", [("s", i + 1, "x", "unique", t, 1.0, 1) for i, t in enumerate(times)])
    # B: each puzzle twice as slow, and the first 12 out of time
    b = write_times(tmp_path / "b.sqlite", [("s", i + 1, "x", "timeout" if i < 12 else "unique",
                                             1.0 if i < 12 else 2 * t, 1.0, 1) for i, t in enumerate(times)])
    row = compare(results_of(a), results_of(b))[0]
    assert (row["gained"], row["lost"]) == (0, 12)
    assert row["p_solved"] == pytest.approx(2 * 0.5 ** 12)
    assert row["solved_change"] == "fewer (significant)"
    assert row["time_change"] == "slower (significant)" and row["par_change"] == "slower (significant)"


def test_compare_of_databases_with_no_puzzle_in_common_is_one_line_exit_2(tmp_path, capsys):
    a = write_times(tmp_path / "a.sqlite", [("s", 1, "x", "unique", 0.1, 1.0, 1)])
    b = write_times(tmp_path / "b.sqlite", [("s", 1, "x", "unique", 0.1, 1.0, 1)], hashes={("s", 1): "other"})
    assert main(["report", "--compare", str(a), str(b)]) == 2
    assert capsys.readouterr() == ("", f"puzzlebench: error: --compare {a} {b}: no puzzle in common "
                                       "(puzzles are paired by their content)\n")


# -- repetitions: the noise ------------------------------------------------------------------------

def repeated(solver: str, times: list[list[float]], set_name: str = "s") -> list[tuple]:
    return [(set_name, i + 1, solver, "unique", t, 10.0, k + 1) for i, runs in enumerate(times)
            for k, t in enumerate(runs)]


def test_repetitions_give_the_noise_and_a_warning_where_it_exceeds_the_difference(tmp_path, capsys):
    # a's three runs of each puzzle spread +-20% (relative MAD 0.2); b is 5% slower than a
    a_runs = [[t * 0.8, t, t * 1.2] for t in lognormal(12, 20)]
    b_runs = [[t * 1.05] * 3 for t in lognormal(12, 20)]
    path = write_times(tmp_path / "rep.sqlite", repeated("a", a_runs) + repeated("b", b_runs))
    results = results_of(path)
    summary = {row["solver"]: row for row in summarise(results)}
    assert summary["a"]["noise"] == pytest.approx(0.2) and summary["b"]["noise"] == 0.0
    metrics = standard_metrics(results, MetricOptions(baseline="a"))
    b = by_solver(metrics)["b"]
    assert b["ratio"] == pytest.approx(1 / 1.05, rel=0.02) and b["noise_exceeds_difference"] is True
    assert noise_warnings(metrics) == [f"s: b against a: the run-to-run noise (20.0%) is larger than the "
                                       f"difference reported ({abs(b['ratio'] - 1) * 100:.1f}%)"]
    assert main(["report", "--db", str(path), "--baseline", "a"]) == 0
    out, err = capsys.readouterr()
    assert "| noise |" in out and "20.0%" in out
    assert err == f"puzzlebench: warning: {noise_warnings(metrics)[0]}\n"


def test_compare_shows_each_sides_noise(tmp_path, capsys):
    base = lognormal(13, 20)
    a = write_times(tmp_path / "a.sqlite", repeated("x", [[t * 0.9, t, t * 1.1] for t in base]))
    b = write_times(tmp_path / "b.sqlite", repeated("x", [[t * 1.02] * 2 for t in base]))
    row = compare(results_of(a), results_of(b))[0]
    assert row["noise_a"] == pytest.approx(0.1) and row["noise_b"] == 0.0
    assert row["noise_exceeds_difference"] is True
    assert main(["report", "--compare", str(a), str(b)]) == 0
    out, err = capsys.readouterr()
    assert "| noise A | noise B |" in out and "| 10.0% | 0.0% |" in out
    assert err.startswith("puzzlebench: warning: s: x: the run-to-run noise (10.0%) is larger than the change "
                          "in median (")


def test_a_real_bench_with_repeats_reports_its_noise(tmp_path, capsys):
    puzzles = list(generate("sudoku", 4, seed=3, box=(2, 2)))
    cfg = BenchConfig(solvers=["mrv"], db=str(tmp_path / "real.sqlite"), quiet=True, time_limit=5.0, jobs=1,
                      repeat=3)
    run_bench(from_puzzles("four", puzzles), cfg)
    assert main(["report", "--db", cfg.db, "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["runs"] == 3 and row["noise"] is not None and row["noise"] >= 0
    assert row["median_lo"] <= row["median"] <= row["median_hi"]


# -- every number finite ---------------------------------------------------------------------------

def strict_json(text: str):
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def test_json_stays_valid_with_a_huge_par_and_overflow_is_refused(tmp_path, capsys):
    path = write_times(tmp_path / "t.sqlite", [("s", 1, "a", "unique", 0.1, 10.0, 1),
                                                ("s", 2, "a", "timeout", 10.0, 10.0, 1)])
    assert main(["report", "--db", str(path), "--par", "1e300", "--format", "json"]) == 0
    row = strict_json(capsys.readouterr().out)[0]
    assert row["par"] == pytest.approx((0.1 + 1e301) / 2) and math.isfinite(row["par"])
    assert main(["report", "--db", str(path), "--par", "1e308", "--format", "json"]) == 2
    assert capsys.readouterr() == ("", "puzzlebench: error: --par 1e+308: 2 results of 10 s x 1e+308 overflow a "
                                       "float; give a smaller K\n")
    assert main(["report", "--compare", str(path), str(path), "--par", "1e308"]) == 2
    assert capsys.readouterr().err.startswith("puzzlebench: error: --par 1e+308: ")


def test_a_large_shift_gives_the_mean_not_a_negative_time(tmp_path, capsys):
    path = write_times(tmp_path / "s.sqlite", [("s", 1, "a", "unique", 0.05, 10.0, 1),
                                                ("s", 2, "a", "unique", 0.15, 10.0, 1)])
    for shift in ("1e12", "1e300"):
        assert main(["report", "--db", str(path), "--shift", shift, "--format", "json"]) == 0
        # as the shift grows the shifted geometric mean tends to the arithmetic mean
        assert strict_json(capsys.readouterr().out)[0]["sgm"] == pytest.approx(0.1, rel=1e-6)
    assert main(["report", "--db", str(path), "--shift", "1e-320"]) == 2
    assert capsys.readouterr() == ("", "puzzlebench: error: --shift 9.99989e-321: times of 0.05 to 10 s over this "
                                       "shift leave a float's range; give a shift nearer the times (or 0)\n")


def test_compare_of_two_real_benches_pairs_every_puzzle(tmp_path, capsys):
    puzzles = tmp_path / "four.txt"
    assert main(["generate", "sudoku", "--box", "2x2", "--count", "6", "--seed", "5", "--out", str(puzzles)]) == 0
    for name in ("a", "b"):
        assert main(["bench", str(puzzles), "--solvers", "mrv", "--db", str(tmp_path / f"{name}.sqlite"),
                     "--quiet", "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main(["report", "--compare", str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite"),
                 "--format", "json"]) == 0
    row = strict_json(capsys.readouterr().out)["rows"][0]
    assert (row["solver"], row["paired"], row["only_a"], row["only_b"]) == ("mrv", 6, 0, 0)
    assert (row["solved_a"], row["solved_b"], row["gained"], row["lost"]) == (6, 6, 0, 0)
    assert row["solved_change"] == "within noise" and row["p_solved"] == 1.0
    assert row["time_change"] in ("within noise", "faster (significant)", "slower (significant)")
