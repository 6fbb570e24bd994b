"""The human-technique solver (every technique where it applies and where it must not, no
false deductions, solutions verified) and the difficulty rating (criteria, models, CLI)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.cli import main
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.rating import rate_puzzle
from puzzlebench.rating.criteria import visual_criteria
from puzzlebench.rating.data import read_records
from puzzlebench.rating.model import (correlations, cross_validate, fit, fisher_interval, load_model,
                                      ranks, spearman)
from puzzlebench.rating.profile import profile_puzzle
from puzzlebench.techniques import ladder as H
from puzzlebench.techniques.grid import State, geometry
from puzzlebench.engines.human import HumanEngine
from puzzlebench.techniques.ladder import HumanSolver, count_solutions
from puzzlebench.engines.mrv import MrvEngine

from conftest import DATA, REPO
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
HARD = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."  # AI Escargot


def needs(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is absent (public data sets live in ../shared/data)")
    return path


def blank() -> State:
    return State.from_givens(geometry((3, 3)), [0] * 81)


def cell(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def only(s: State, v: int, unit_cells, keep) -> None:
    """Value v stays a candidate, within unit_cells, only in the cells keep."""
    keep = {cell(k) for k in keep}
    for c in unit_cells:
        if c not in keep:
            s.cand[c] &= ~(1 << (v - 1))


def set_cand(s: State, name: str, values) -> None:
    s.cand[cell(name)] = sum(1 << (v - 1) for v in values)


ROW = lambda i: [(i - 1) * 9 + j for j in range(9)]  # noqa: E731
COL = lambda j: [i * 9 + j - 1 for i in range(9)]  # noqa: E731
BOX = lambda b: list(geometry((3, 3)).units[18 + b - 1])  # noqa: E731


def elim_cells(step, v=None):
    g = geometry((3, 3))
    return sorted(g.names[c] for c, val in step.eliminations if v is None or val == v)


# -- each technique: where it applies, and where it must not ----------------------------------

def test_last_free_cell():
    s = State.from_givens(geometry((3, 3)), [1, 2, 3, 4, 5, 6, 7, 8, 0] + [0] * 72)
    assert H.last_free_cell(s).text == "r1c9 = 9: last free cell in row 1"
    s = State.from_givens(geometry((3, 3)), [1, 2, 3, 4, 5, 6, 7, 0, 0] + [0] * 72)
    assert H.last_free_cell(s) is None


def test_hidden_single():
    s = blank()
    only(s, 5, BOX(1), ["r2c2"])
    assert H.hidden_single(s).text == "r2c2 = 5: hidden single in box 1"
    s = blank()
    only(s, 5, BOX(1), ["r2c2", "r3c3"])
    assert H.hidden_single(s) is None


def test_naked_single():
    s = blank()
    set_cand(s, "r4c6", [4])
    assert H.naked_single(s).text == "r4c6 = 4: naked single"
    assert H.naked_single(blank()) is None


def test_naked_pair():
    s = blank()
    set_cand(s, "r1c1", [1, 2])
    set_cand(s, "r1c2", [1, 2])
    step = H.naked_pair(s)
    assert step.text.startswith("naked pair 1,2 at r1c1, r1c2 in box 1 removes 1 from r1c3, r2c1")
    assert elim_cells(step, 2) == sorted(["r1c3", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3"])
    s = blank()
    set_cand(s, "r1c1", [1, 2])
    set_cand(s, "r1c2", [1, 3])
    assert H.naked_pair(s) is None


def test_naked_triple():
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c5", [2, 3]), ("r1c9", [1, 3])):
        set_cand(s, name, vals)
    step = H.naked_triple(s)
    assert step.text.startswith("naked triple 1,2,3 at r1c1, r1c5, r1c9 in row 1")
    assert elim_cells(step, 3) == sorted(f"r1c{j}" for j in (2, 3, 4, 6, 7, 8))
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c5", [2, 3]), ("r1c9", [3, 4])):
        set_cand(s, name, vals)
    assert H.naked_triple(s) is None


def test_pointing_pair():
    s = blank()
    only(s, 4, BOX(1), ["r1c1", "r1c2"])
    only(s, 4, ROW(1), ["r1c1", "r1c2", "r1c7", "r1c8"])
    assert H.pointing_pair(s).text == "pointing pair 4 in box 1 (row 1) removes 4 from r1c7, r1c8"
    s = blank()
    only(s, 4, BOX(1), ["r1c1", "r2c2"])
    assert H.pointing_pair(s) is None


def test_hidden_pair():
    s = blank()
    only(s, 1, ROW(1), ["r1c1", "r1c5"])
    only(s, 2, ROW(1), ["r1c1", "r1c5"])
    step = H.hidden_pair(s)
    assert step.text.startswith("hidden pair 1,2 at r1c1, r1c5 in row 1 removes 3 from r1c1, r1c5;")
    assert len(step.eliminations) == 14
    s = blank()
    only(s, 1, ROW(1), ["r1c1", "r1c5"])
    only(s, 2, ROW(1), ["r1c1", "r1c6"])
    assert H.hidden_pair(s) is None


def test_hidden_triple():
    s = blank()
    for v, cells in ((1, ["r1c1", "r1c5"]), (2, ["r1c5", "r1c9"]), (3, ["r1c1", "r1c9"])):
        only(s, v, ROW(1), cells)
    step = H.hidden_triple(s)
    assert step.text.startswith("hidden triple 1,2,3 at r1c1, r1c5, r1c9 in row 1 removes 4 from")
    assert len(step.eliminations) == 18
    s = blank()
    for v, cells in ((1, ["r1c1", "r1c5"]), (2, ["r1c5", "r1c9"]), (3, ["r1c1", "r1c8"])):
        only(s, v, ROW(1), cells)
    assert H.hidden_triple(s) is None


def test_box_line_reduction():
    s = blank()
    only(s, 7, ROW(1), ["r1c1", "r1c2"])
    step = H.box_line_reduction(s)
    assert step.text == ("box-line reduction 7 in row 1 (box 1) removes 7 from "
                         "r2c1, r2c2, r2c3, r3c1, r3c2, r3c3")
    s = blank()
    only(s, 7, ROW(1), ["r1c1", "r1c4"])
    assert H.box_line_reduction(s) is None


def test_x_wing():
    s = blank()
    only(s, 3, ROW(1), ["r1c2", "r1c7"])
    only(s, 3, ROW(5), ["r5c2", "r5c7"])
    step = H.x_wing(s)
    assert step.text.startswith("x-wing 3 in rows 1,5 and columns 2,7 removes 3 from r2c2, r2c7, r3c2")
    assert len(step.eliminations) == 14
    s = blank()
    only(s, 3, ROW(1), ["r1c2", "r1c7"])
    only(s, 3, ROW(5), ["r5c2", "r5c8"])
    assert H.x_wing(s) is None


def test_swordfish():
    s = blank()
    for r, cols in ((1, (1, 4)), (4, (4, 7)), (7, (1, 7))):
        only(s, 5, ROW(r), [f"r{r}c{c}" for c in cols])
    step = H.swordfish(s)
    assert step.text.startswith("swordfish 5 in rows 1,4,7 and columns 1,4,7 removes 5 from")
    assert len(step.eliminations) == 18
    s = blank()
    for r, cols in ((1, (1, 4)), (4, (4, 7)), (7, (1, 8))):
        only(s, 5, ROW(r), [f"r{r}c{c}" for c in cols])
    assert H.swordfish(s) is None


def test_jellyfish():
    s = blank()
    for r, cols in ((1, (1, 2)), (3, (2, 3)), (5, (3, 4)), (7, (4, 1))):
        only(s, 8, ROW(r), [f"r{r}c{c}" for c in cols])
    step = H.jellyfish(s)
    assert step.text.startswith("jellyfish 8 in rows 1,3,5,7 and columns 1,2,3,4 removes 8 from")
    assert len(step.eliminations) == 20
    s = blank()
    for r, cols in ((1, (1, 2)), (3, (2, 3)), (5, (3, 4)), (7, (4, 5))):
        only(s, 8, ROW(r), [f"r{r}c{c}" for c in cols])
    assert H.jellyfish(s) is None


def test_y_wing():
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c5", [1, 3]), ("r5c1", [2, 3])):
        set_cand(s, name, vals)
    assert H.y_wing(s).text == "y-wing 1,2 at r1c1 with r1c5, r5c1 removes 3 from r5c5"
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c5", [1, 3]), ("r5c1", [2, 4])):
        set_cand(s, name, vals)
    assert H.y_wing(s) is None


def test_xyz_wing():
    s = blank()
    for name, vals in (("r1c1", [1, 2, 3]), ("r1c5", [1, 3]), ("r2c2", [2, 3])):
        set_cand(s, name, vals)
    assert H.xyz_wing(s).text == "xyz-wing 1,2,3 at r1c1 with r1c5, r2c2 removes 3 from r1c2, r1c3"
    s = blank()
    for name, vals in (("r1c1", [1, 2, 3]), ("r1c5", [1, 3]), ("r2c2", [1, 3])):
        set_cand(s, name, vals)
    assert H.xyz_wing(s) is None


def test_simple_colouring_trap_and_wrap():
    s = blank()
    only(s, 6, BOX(1), ["r1c1", "r3c3"])
    only(s, 6, ROW(1), ["r1c1", "r1c5"])
    only(s, 6, COL(5), ["r1c5", "r4c5"])
    step = H.simple_colouring(s)
    assert "colour trap" in step.text and elim_cells(step) == ["r4c3"]
    s = blank()   # a chain of one conjugate pair colours nothing
    only(s, 6, ROW(1), ["r1c1", "r1c5"])
    assert H.simple_colouring(s) is None
    s = blank()   # r1c1 - r1c5 - r4c5 - r4c1 - r7c1: r1c1 and r7c1 share a colour and column 1
    only(s, 6, ROW(1), ["r1c1", "r1c5"])
    only(s, 6, COL(5), ["r1c5", "r4c5"])
    only(s, 6, ROW(4), ["r4c5", "r4c2"])
    only(s, 6, BOX(4), ["r4c2", "r6c1"])
    only(s, 6, COL(1), ["r1c1", "r6c1", "r8c1"])
    step = H.simple_colouring(s)
    assert "colour wrap" in step.text and elim_cells(step) == ["r1c1", "r4c5", "r6c1"]


def test_unique_rectangle():
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c4", [1, 2]), ("r2c1", [1, 2]), ("r2c4", [1, 2, 5])):
        set_cand(s, name, vals)
    assert H.unique_rectangle(s).text == "unique rectangle 1,2 at r1c1, r1c4, r2c1, r2c4 removes 1 from r2c4; 2 from r2c4"
    s = blank()   # four boxes: no deadly pattern
    for name, vals in (("r1c1", [1, 2]), ("r1c4", [1, 2]), ("r4c1", [1, 2]), ("r4c4", [1, 2, 5])):
        set_cand(s, name, vals)
    assert H.unique_rectangle(s) is None


def test_xy_chain():
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c5", [2, 3]), ("r5c5", [3, 4]), ("r5c9", [1, 4])):
        set_cand(s, name, vals)
    step = H.xy_chain(s)
    assert step.text == "xy-chain 1 r1c1-r1c5-r5c5-r5c9 removes 1 from r1c9, r5c1"
    s = blank()
    for name, vals in (("r1c1", [1, 2]), ("r1c5", [2, 3]), ("r5c5", [3, 4]), ("r5c9", [6, 4])):
        set_cand(s, name, vals)
    assert H.xy_chain(s) is None


def test_unique_rectangle_is_off_unless_uniqueness_is_assumed():
    assert "unique rectangle" not in [f.__name__.replace("_", " ") for f in HumanSolver()._functions]
    assert H.unique_rectangle in HumanSolver(assume_unique=True)._functions


# -- whole puzzles: solutions verified, every deduction checked against the solution --------

def _solve_checked(line: str):
    p = parse_sudoku_line(line)
    count, truth = count_solutions(p.box, p.givens)
    assert count == 1
    solver = HumanSolver(p.box, assume_unique=True, truth=truth)   # raises on a false deduction
    solved = next(solver.solutions(p.givens))
    assert solved.values == truth and p.check(solved.values) == []
    return solved, solver


def test_easy_puzzle_needs_singles_only_and_explains_them():
    solved, solver = _solve_checked(EASY)
    assert {s.technique for s in solved.steps} <= {"last free cell", "hidden single", "naked single"}
    assert solver.guesses == 0
    assert solved.steps[0].text == "r1c6 = 8: hidden single in box 2"


def test_hard_puzzle_guesses_and_records_depth():
    solved, solver = _solve_checked(HARD)
    assert solver.guesses >= 1 and solver.max_depth >= 1
    assert any(s.technique == "guess" and "guess at depth 1" in s.text for s in solved.steps)


@pytest.mark.parametrize("name,k", [("sudoku9_norvig_top95.txt", 12), ("sudoku9_magictour_top1465.txt", 12)])
def test_sample_of_hard_sets_solved_without_false_deductions(name, k):
    lines = [l.split()[0] for l in needs(name).read_text().splitlines() if l.strip()]
    for line in random.Random(8).sample(lines, k):
        _solve_checked(line)


def test_count_agrees_with_mrv_on_a_puzzle_with_many_solutions():
    line = EASY[:20] + "." * 61
    p = parse_sudoku_line(line)
    for limit in (1, 2, 7):
        ours = HumanEngine().run(p, limit=limit)
        ref = MrvEngine().run(p, limit=limit)
        assert (ours.status, ours.count) == (ref.status, ref.count)
        assert ours.verified


def test_engine_small_grids_agree_with_mrv():
    for box, line, limit in (((2, 2), "1..4..3..2..4..1", None), ((2, 2), "1..." + "." * 12, None),
                             ((2, 3), "1.....4.......5...." + "." * 17, 30),
                             ((2, 3), "..3.5.4.....6...1..5...4.....2.1.6..", None)):
        p = parse_sudoku_line(line, box=box)
        ours, ref = HumanEngine().run(p, limit=limit), MrvEngine().run(p, limit=limit)
        assert (ours.status, ours.count) == (ref.status, ref.count), line


def test_engine_unsat():
    p = parse_sudoku_line("12.." "..3." "...." "...4")   # r1c3 and r1c4 both need 3 or 4 ...
    ours, ref = HumanEngine().run(p, limit=2), MrvEngine().run(p, limit=2)
    assert (ours.status, ours.count) == (ref.status, ref.count)


# -- criteria, profile, rating -----------------------------------------------------------------

def test_visual_criteria_of_a_known_grid():
    c = visual_criteria((3, 3), parse_sudoku_line(EASY).givens)
    assert c["clues"] == 30
    assert c["spread_rows"] == pytest.approx(np.std([3, 3, 3, 3, 4, 3, 3, 4, 4]), abs=1e-4)
    values = parse_sudoku_line(EASY).givens
    per_value = [sum(1 for v in values if v == k) for k in range(1, 10)]
    assert c["spread_values"] == pytest.approx(np.std(per_value), abs=1e-4)


@pytest.mark.slow
def test_rate_puzzle_statuses():
    # AI Escargot (SE 10.5, nested forcing chains): beyond the ladder or past its time, so
    # the model scores it and the hardest step is a guess
    r = rate_puzzle(parse_sudoku_line(HARD), ladder_seconds=1.0)
    assert r.status == "unique" and r.hardest == "guess" and 1.0 <= r.score <= 12.0
    assert r.scored_by == "model" and r.ladder in ("beyond", "timeout")
    easy = rate_puzzle(parse_sudoku_line(EASY))
    assert easy.score < r.score and easy.hardest in ("hidden single", "naked single")
    multi = rate_puzzle(parse_sudoku_line("." * 81))
    assert (multi.status, multi.score) == ("multiple", None)
    assert multi.message == "the puzzle has more than one solution; the rating assumes exactly one"
    human = rate_puzzle(parse_sudoku_line(EASY), model="human")
    assert human.model == "human" and 10 < human.score < 10000


# -- models ---------------------------------------------------------------------------------

def test_ranks_and_spearman():
    assert list(ranks([10, 20, 20, 5])) == [2, 3.5, 3.5, 1]
    assert spearman([1, 2, 3, 4], [1, 4, 9, 16]) == pytest.approx(1.0)
    c = fisher_interval(0.5, 103)
    assert c.low < 0.5 < c.high and c.high - c.low == pytest.approx(0.29, abs=0.02)


def test_fit_recovers_linear_weights_and_cross_validates():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = 2.0 + X @ np.array([1.0, -0.5, 0.0]) + rng.normal(scale=0.1, size=200)
    for method in ("lstsq", "anneal"):
        m = fit(X, y, ["a", "b", "c"], name="t", target="y", method=method, ridge=0.01)
        assert m.weights == pytest.approx([1.0, -0.5, 0.0], abs=0.05)
        assert m.intercept == pytest.approx(2.0, abs=0.05)
    pred = cross_validate(X, y, lambda a, b: fit(a, b, ["a", "b", "c"], name="t", target="y"), k=5)
    assert correlations(pred, y)["pearson"].r > 0.98


def test_shipped_models_load():
    for name in ("rating_se.json", "rating_human.json"):
        path = REPO / "puzzlebench" / "data" / name
        m = load_model(path)
        assert len(m.features) == len(m.weights) and m.fitted["command"].startswith("puzzlebench rate --fit")


# -- data files and the CLI ------------------------------------------------------------------

def test_labels_errors_name_the_line(tmp_path, capsys):
    bad = tmp_path / "labels.csv"
    bad.write_text(f"game_no,puzzle,time\n1,{EASY},100\n2,{HARD},\n")
    with pytest.raises(Exception) as err:
        read_records(bad.read_text(), str(bad), "time")
    assert str(err.value) == f"{bad}:3:85: label column 'time' is empty"
    bad.write_text(f"game_no,puzzle,time\n1,{EASY},100\n2,{HARD},fast\n")
    assert main(["rate", "--fit", str(bad), "--labels", "time", "--out", str(tmp_path / "m.json")]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {bad}:3:85: label 'fast' in column 'time' is not a number\n"
    spaced = tmp_path / "labels.txt"
    spaced.write_text(f"{EASY} 2.5\n{HARD}\n")
    assert main(["rate", "--fit", str(spaced), "--labels", "2", "--out", str(tmp_path / "m.json")]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {spaced}:2:82: label field 2 is missing "
                                       "(the line has 1 fields)\n")
    assert main(["rate", "--fit", str(spaced), "--labels", "time", "--out", str(tmp_path / "m.json")]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: --labels 'time': {spaced} has no header line; "
                                       "give the label's 1-based field number\n")
    assert main(["rate", "--fit", str(bad), "--labels", "seconds", "--out", str(tmp_path / "m.json")]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {bad}:1: no column 'seconds' in the header "
                                       "(columns: game_no, puzzle, time)\n")


def test_fit_refuses_a_solution_read_as_a_label(tmp_path, capsys):
    """--labels 2 on "puzzle solution" lines fitted on 81-digit numbers (weights near 1e80):
    a label past 1e15 is no rating or time, refused at its place before any fit."""
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    data = tmp_path / "with_solutions.txt"
    data.write_text(f"# puzzle solution\n{EASY} 2.5\n{EASY}   {solved}\n")
    out = tmp_path / "m.json"
    assert main(["rate", "--fit", str(data), "--labels", "2", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"puzzlebench: error: {data}:3:85: label '534678912672…6179' in field 2 is not a plausible label "
        "(81 digits: a grid, not a rating or a time); --labels should name the field of a rating or a time\n")
    assert not out.exists()
    csv_data = tmp_path / "d.csv"
    csv_data.write_text(f"puzzle,time\n{EASY},1e16\n")
    assert main(["rate", "--fit", str(csv_data), "--labels", "time", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"puzzlebench: error: {csv_data}:2:83: label '1e16' in column 'time' is not a plausible label "
        "(1e+16: no rating or time is that large); --labels should name the field of a rating or a time\n")
    # quoted fields: the column counts the quotes, and a comma inside them separates nothing
    csv_data.write_text(f'puzzle,note,time\n"{EASY}","c",2\n"{EASY}","a, b","1e16"\n')
    assert main(["rate", "--fit", str(csv_data), "--labels", "time", "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"puzzlebench: error: {csv_data}:3:92: label '1e16' in column 'time'")
    # the largest plausible label is read as it is
    assert read_records(f"{EASY} 1e15\n{EASY} -1e15\n", "x", "2")[1].label == -1e15


def test_cli_rate_jsonl_and_text(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text(f"{EASY}\n{'.' * 81}\n12\n")
    assert main(["rate", str(f), "--format", "jsonl", "--explain"]) == 1
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {"score", "hardest", "techniques", "criteria", "status"} <= set(out[0])
    assert out[0]["status"] == "unique" and out[0]["steps"][0] == "[1.2] r1c6 = 8: hidden single in box 2"
    assert (out[0]["scored_by"], out[0]["ladder"], out[0]["score"]) == ("se-ladder", "solved", out[0]["se_rating"])
    assert out[1]["status"] == "multiple" and out[1]["score"] is None
    assert out[2]["status"] == "error"   # "12" is an N-Queens puzzle, named as one
    assert out[2]["message"] == (f"{f}:3: rate rates Sudoku only (its techniques and models are about rows, "
                                 "columns and blocks); this is a nqueens puzzle, 12-queens")
    assert main(["rate", str(f), "--model", "human"]) == 1
    text = capsys.readouterr().out
    assert "s (human model)  hardest: " in text and f"{f}:2: multiple: the puzzle has more than one solution" in text


@pytest.mark.slow
def test_cli_fit_writes_a_model(tmp_path, capsys):
    data = tmp_path / "d.txt"
    lines = [EASY, HARD, "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759.."]
    data.write_text("".join(f"{p} {3 + i}\n" for i, p in enumerate(lines * 2)))
    out = tmp_path / "m.json"
    assert main(["rate", "--fit", str(data), "--labels", "2", "--out", str(out), "--folds", "2",
                 "--features", "seed"]) == 0
    assert "2-fold cross-validated Pearson r" in capsys.readouterr().out
    model = load_model(out)
    assert model.fitted["rows"] == 6 and model.features[0] == "n:last free cell"
    assert main(["rate", str(data), "--model", str(out), "--format", "jsonl"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 6


def test_cli_fit_says_a_bad_line_and_fits_the_others(tmp_path, capsys):
    """One malformed puzzle line is an error at its place, left out; the fit goes on (exit 1)."""
    data = tmp_path / "d.csv"
    lines = [EASY, HARD, "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759.."]
    data.write_text("puzzle,label\n" + "".join(f"{p},{3 + i}\n" for i, p in enumerate(lines * 2))
                    + "12x,4\n" + f"{EASY},9\n")
    out = tmp_path / "m.json"
    assert main(["rate", "--fit", str(data), "--labels", "label", "--out", str(out), "--folds", "2",
                 "--features", "seed"]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"puzzlebench: {data}:8:4: error: a Sudoku line has N² characters "
                            "(16, 36, 81, 144, 256, 625, …); got 3\n")
    assert "; 0 skipped, 1 not read (errors above)" in captured.out
    model = load_model(out)
    assert model.fitted["rows"] == 7 and model.fitted["unread"] == 1


def test_cli_usage_errors(capsys):
    assert main(["rate"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: rate: give a FILE of puzzles (or -), or "
                                       "--fit DATA --labels COLUMN --out MODEL.json\n")
    assert main(["rate", "x.txt", "--model", "nope"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: model 'nope': no such file "
                                       "(built-in models: se, human)\n")


def test_cli_bad_models_and_fit_options_are_one_line(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text(f"{EASY}\n")
    listed, partial = tmp_path / "list.json", tmp_path / "partial.json"
    listed.write_text("[1, 2]")
    partial.write_text('{"format": "puzzlebench-rating-model/1"}')
    for model, message in [(tmp_path, "cannot read it: Is a directory"),                # was a traceback
                           (listed, "not a rating model (a JSON list, not an object)"),  # was a traceback
                           (partial, "not a rating model (no 'features')")]:            # was "'features'"
        assert main(["rate", str(f), "--model", str(model)]) == 2
        assert capsys.readouterr().err == f"puzzlebench: error: model '{model}': {message}\n"
    data = tmp_path / "d.txt"
    data.write_text(f"{EASY} 3\n{HARD} 4\n")
    out = tmp_path / "m.json"
    for option, message in [(["--folds", "0"], "--folds 0: out of range: a whole number from 2 to 2^31-1"),
                            (["--ridge", "-1"], "--ridge -1: out of range: a number 0 or more"),
                            (["--ridge", "1e400"], "--ridge 1e400: not a finite number"),        # NaN weights
                            (["--seed", "-1"], "--seed -1: out of range: a whole number from 0 to 2^63-1"),
                            (["--out", str(tmp_path)], f"--out {tmp_path}: cannot write there: Is a directory")]:
        argv = ["rate", "--fit", str(data), "--labels", "2", "--out", str(out), "--features", "seed", *option]
        assert main(argv) == 2
        assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"
    assert not out.exists()   # the --out check leaves no file behind
    # a file that is not JSON (a puzzle file named by mistake) is placed where the JSON breaks
    truncated = tmp_path / "cut.json"
    truncated.write_text('{"format": "puzzlebench-rating-model/1",\n "features": [')
    for model, place, problem in [(f, "1:3", "Extra data"), (truncated, "2:15", "Expecting value")]:
        assert main(["rate", str(f), "--model", str(model)]) == 2
        assert capsys.readouterr().err == f"puzzlebench: error: {model}:{place}: not a rating model (not JSON: {problem})\n"


def test_a_model_nested_past_the_bound_is_one_line(tmp_path, capsys):
    """A model file 100,000 arrays deep was a RecursionError traceback (json recurses on them)."""
    f, model = tmp_path / "p.txt", tmp_path / "deep.json"
    f.write_text(f"{EASY}\n")
    model.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["rate", str(f), "--model", str(model)]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {model}:1:65: nested more than 64 deep (arrays and "
                                       "tables inside each other, each dot of a key a level); no file needs as many\n")


def test_human_family_is_registered():
    from puzzlebench.engines.registry import make_engine
    engine = make_engine("human")
    result = engine.run(parse_sudoku_line(EASY), limit=2)
    assert (result.status.value, result.count, result.verified) == ("unique", 1, True)
    assert result.stats.guesses == 0 and result.stats.propagations == 51


def test_quine_measure_features():
    p = parse_sudoku_line(EASY)
    prof = profile_puzzle(p.box, p.givens, quine=True)
    assert set(prof.quine) == {"depth", "disjunctions", "eliminations"}
    assert prof.quine["eliminations"] > 0
    from puzzlebench.rating.profile import feature_vector
    assert feature_vector(prof)["quine:depth"] == prof.quine["depth"]


def test_rate_names_a_kind_it_cannot_rate(tmp_path, capsys):
    """A puzzle of another kind is read as that kind and named (N-Queens' "8", read as a Sudoku,
    was "value 8 is out of range for a 1x1 Sudoku"); the Sudoku beside it are rated; 16
    numbers, a 4x4 Sudoku or rush-01 clues elsewhere, are a Sudoku here."""
    f = tmp_path / "mixed.txt"
    f.write_text(f"8\n{EASY}\n\norder 2\n0 -1\n-1 -1\n\n1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
    assert main(["rate", str(f)]) == 1
    out, err = capsys.readouterr()
    why = "rate rates Sudoku only (its techniques and models are about rows, columns and blocks)"
    lines = out.splitlines()
    assert lines[0] == f"{f}:1: error: {why}; this is a nqueens puzzle, 8-queens"
    assert lines[1].startswith(f"{f}:2: score ")
    assert f"{f}:4: error: {why}; this is a latin puzzle, 2x2" in lines
    assert lines[-1] == f"{f}:8: multiple: the puzzle has more than one solution; the rating assumes exactly one"
    assert err.splitlines()[0] == f"puzzlebench: {lines[0]}"


def test_rate_unsat_puzzle_has_a_clear_status(tmp_path, capsys):
    line = "12345678." + "........9" + "." * 63   # r1c9 can only be 9, and column 9 has one
    r = rate_puzzle(parse_sudoku_line(line))
    assert (r.status, r.score, r.message) == ("unsat", None, "the puzzle has no solution; nothing to rate")
    f = tmp_path / "u.txt"
    f.write_text(line + "\n")
    assert main(["rate", str(f)]) == 0
    assert capsys.readouterr().out == f"{f}:1: unsat: the puzzle has no solution; nothing to rate\n"
