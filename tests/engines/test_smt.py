"""Z3 SMT engine and SMT-LIB2 writer/reader: what is particular to it (the fold, the amo
option, Z3's statistics, files read back by Z3, counting the models of any SMT-LIB2 file);
every variant's agreement with ``mrv`` and the published counts is in test_engines.py."""

from __future__ import annotations

import re

import pytest
import z3
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlebench.encoders.smt import (decode_model, encode_smt, fold_givens, read_smt2,
                                      read_smt2_file)
from puzzlebench.errors import ParseError, SolverSpecError, UsageError
from puzzlebench.models.nqueens import NQueens
from puzzlebench.models.skyscrapers import Skyscrapers
from puzzlebench.models.sudoku import Sudoku, parse_sudoku_line
from puzzlebench.results import Status
from puzzlebench.engines.smt import SmtEngine, z3_stats

from agreement import agree_with_mrv, skyscrapers_line
from conftest import data_lines

SPECS = (("fold", {}), ("int", {}), ("bool", {}), ("bool", {"amo": "pairwise"}))
SPEC_IDS = ("fold", "int", "bool", "bool-pairwise")




@pytest.mark.parametrize("variant", ("fold", "bool"))
def test_skyscrapers_6x6_unique_ones(variant):
    lines = [line for line in data_lines("skyscrapers_random_fullclue_n4to9_sample.txt", 10_000)
             if line.startswith("6 ") and " nsol=1 " in line][:3]
    for line in lines:
        puzzle, _ = skyscrapers_line(line)
        result = SmtEngine(variant).run(puzzle)
        assert result.status is Status.UNIQUE and result.verified, result.error
        assert result.solutions == [puzzle.parse_solution(line.split()[6])]


@pytest.mark.parametrize("variant, options", [("bool", {"amo": "pairwise"})], ids=["bool-pairwise"])
@pytest.mark.parametrize("puzzle", [
    NQueens(8, [(0, 0)]), NQueens(10, [(0, 1), (3, 7), (5, 2)]), NQueens(6, [(0, 0)]),
    Sudoku((2, 3), [1, 2, 3, 4, 5, 6] + [0] * 30),
    Skyscrapers(4, [0, 0, 1, 2], [0] * 4, [2, 0, 0, 0], [0] * 4,
                givens=[0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
], ids=["8q1", "10q3", "6q-unsat", "6x6-row", "sky-givens"])
def test_completion_instances_equal_mrv(variant, options, puzzle):
    agree_with_mrv(SmtEngine(variant, options), puzzle, 30)


def test_contradiction_is_unsat_everywhere():
    # r1c1 sees 1, 2, 3 in its row and 4 in its column: no value left.
    puzzle = Sudoku((2, 2), [0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    state, _, _ = fold_givens(puzzle.rules)
    assert state is None  # the fold finds it before any solver
    assert encode_smt(puzzle.rules, "fold").assertions == ["(assert false)"]
    for variant, options in SPECS:
        assert SmtEngine(variant, options).run(puzzle).status is Status.UNSAT


def test_fold_sends_only_open_cells():
    puzzle = parse_sudoku_line(data_lines("sudoku9_norvig_top95.txt", 1)[0].split()[0])
    formula = encode_smt(puzzle.rules, "fold")
    assert formula.fixed and all(puzzle.givens[c] in (0, v) for c, v in formula.fixed.items())
    for cell in formula.fixed:
        assert f"x{cell}_" not in formula.body()
    full = encode_smt(puzzle.rules, "bool")
    assert formula.size()["variables"] < full.size()["variables"] == 729


def test_int_formulation_text():
    text = encode_smt(NQueens(4, [(1, 3)]).rules, "int").write()
    assert "(set-logic QF_LIA)" in text and "(assert (= c1 4))" in text
    assert "(assert (distinct c0 c1 c2 c3))" in text
    assert "(assert (distinct (+ c0 0) (+ c1 1) (+ c2 2) (+ c3 3)))" in text
    assert "(assert (distinct (- c0 0) (- c1 1) (- c2 2) (- c3 3)))" in text


@pytest.mark.parametrize("variant, amo", [("fold", "card"), ("int", "card"), ("bool", "card"),
                                          ("bool", "pairwise")])
@pytest.mark.parametrize("puzzle", [
    parse_sudoku_line("003020600900305001001806400008102900700000008006708200002609500800203009005010300"),
    Skyscrapers(4, [2, 2, 1, 4], [3, 2, 3, 1], [2, 1, 2, 3], [2, 3, 2, 1]),
    NQueens(6),
], ids=["sudoku", "skyscrapers", "6-queens"])
def test_written_file_read_back_by_z3_gives_the_same_answer(tmp_path, variant, amo, puzzle):
    formula = encode_smt(puzzle.rules, variant, amo)
    path = tmp_path / "puzzle.smt2"
    path.write_text(formula.write())
    solver = z3.SolverFor(formula.logic) if formula.logic == "QF_FD" else z3.Solver()
    solver.add(read_smt2_file(path))
    assert solver.check() == z3.sat
    solution = decode_model(solver.model(), formula.n_cells, formula.fixed)
    assert puzzle.check(solution) == []
    result = SmtEngine(variant, {"amo": amo}).run(puzzle, limit=1)
    if puzzle.kind != "nqueens":  # unique puzzles: the one answer
        assert (solution,) == tuple(result.solutions)


def test_statistics_from_both_z3_vocabularies():
    smt_core = SmtEngine("int").run(NQueens(6), limit=None).stats
    assert smt_core.nodes == smt_core.raw.get("decisions", 0) + smt_core.raw.get("sat decisions", 0)
    sat_core = SmtEngine("fold").run(NQueens(6), limit=None).stats
    assert sat_core.conflicts == sat_core.raw.get("sat conflicts", 0) + sat_core.raw.get("conflicts", 0)

    class Fake:
        values = {"decisions": 3, "conflicts": 2, "propagations": 10, "sat decisions": 5,
                  "sat conflicts": 1, "sat propagations 2ary": 7, "sat propagations nary": 4,
                  "time": 0.01}

        def keys(self):
            return list(self.values)

        def get_key_value(self, key):
            return self.values[key]

    stats = z3_stats(Fake())
    assert (stats.nodes, stats.conflicts, stats.propagations) == (8, 3, 21)
    assert stats.raw["sat propagations 2ary"] == 7 and stats.guesses is None


@pytest.mark.slow
def test_time_limit_stops_the_search():
    result = SmtEngine("int").run(NQueens(12), limit=None, time_limit=1.0)
    assert result.status is Status.TIMEOUT and 0 < result.count < 14_200


def test_unknown_formulation():
    with pytest.raises(SolverSpecError) as err:
        SmtEngine("bitvector")
    assert str(err.value) == "smt has no variant 'bitvector'; variants: fold, int, bool"
    with pytest.raises(SolverSpecError) as err:
        encode_smt(NQueens(4).rules, "bitvector")
    assert str(err.value) == "unknown SMT formulation 'bitvector'; known: fold, int, bool"
    with pytest.raises(SolverSpecError) as err:
        SmtEngine("bool", {"amo": "ladder"})
    assert str(err.value) == "option amo='ladder': choose one of card, pairwise"


def test_smt2_that_does_not_parse(tmp_path):
    path = tmp_path / "bad.smt2"
    path.write_text("(declare-const a Bool)\n(assert (and a\n")
    with pytest.raises(ParseError) as err:
        read_smt2_file(path)
    assert str(err.value) == f"{path}:3:1: SMT-LIB2 does not parse: invalid expression, unexpected input"
    with pytest.raises(ParseError) as err:
        read_smt2("(assert (and x true))", "text.smt2")
    assert str(err.value) == "text.smt2:1:14: SMT-LIB2 does not parse: unknown constant x"
    with pytest.raises(UsageError) as err:
        read_smt2_file(tmp_path / "missing.smt2")
    assert str(err.value) == f"cannot read {tmp_path / 'missing.smt2'}: No such file or directory"


def test_cli_export_smt2_read_back_by_z3(tmp_path, capsys):
    from puzzlebench.cli import main
    from puzzlebench.engines.registry import make_engine

    line = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    source = tmp_path / "p.txt"
    source.write_text(line + "\n")
    puzzle = parse_sudoku_line(line)
    expected = make_engine("smt:fold").run(puzzle).solutions
    for target in ("smt2", "smt2-fold", "smt2-bool"):
        out = tmp_path / f"p.{target}"
        assert main(["export", str(source), "--to", target, "-o", str(out)]) == 0
        text = out.read_text()
        assert text.startswith("; puzzlebench ") and "(check-sat)" in text
        solver = z3.SolverFor("QF_FD") if "QF_FD" in text else z3.Solver()
        solver.add(read_smt2_file(out))
        assert solver.check() == z3.sat
        fixed = encode_smt(puzzle.rules, "fold").fixed if target == "smt2-fold" else {}
        assert [decode_model(solver.model(), 81, fixed)] == expected


def test_cli_solve_smt2_counts_models_of_an_exported_file(tmp_path, capsys):
    from puzzlebench.cli import main

    source = tmp_path / "q.txt"
    source.write_text("6\n")
    out = tmp_path / "q.smt2"
    for target in ("smt2", "smt2-fold"):
        assert main(["export", str(source), "--kind", "nqueens", "--to", target, "-o", str(out)]) == 0
        capsys.readouterr()
        assert main(["solve-smt2", str(out), "--limit", "0"]) == 0
        lines = capsys.readouterr().out.splitlines()
        solutions = {tuple(int(v) for v in line.split(": ")[1].split(",")) for line in lines[:-1]}
        assert len(solutions) == 4 and all(NQueens(6).check(s) == [] for s in solutions)
        assert lines[-1].startswith("4 models; decisions=")


def test_cli_solve_smt2_reports_a_file_that_does_not_parse(tmp_path, capsys):
    from puzzlebench.cli import main

    bad = tmp_path / "bad.smt2"
    bad.write_text("(declare-const a Bool)\n(assert (and a b))\n")
    assert main(["solve-smt2", str(bad)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {bad}:2:15: SMT-LIB2 does not parse: unknown constant b\n"
    # comments and blanks alone: was "1 model", exit 0; '(check-sat)' alone has its one model
    bad.write_text("; nothing here\n\n   ; nor here\n")
    assert main(["solve-smt2", str(bad)]) == 2
    assert capsys.readouterr() == ("", f"puzzlebench: error: {bad}: empty input: no SMT-LIB2 command\n")
    bad.write_text("(check-sat) ; the empty formula\n")
    assert main(["solve-smt2", str(bad)]) == 0 and capsys.readouterr().out.startswith("solution 1: \n1 model;")



@pytest.mark.parametrize("text, error", [
    # Z3 wrote "; v-1 line: 2 position: 6" on the terminal, then puzzlebench's "does not parse: unsupported"
    ("(declare-const a Int)\n(v-1 2)\n(assert (> a b))\n", "2:6: SMT-LIB2 does not parse: unknown command 'v-1'"),
    # skipped by Z3 (its raw line printed twice), then "1 model", exit 0
    ("(declare-const a Int)\n(assert (> a 1))\n(foo)\n", "3:4: SMT-LIB2 does not parse: unknown command 'foo'"),
    # Z3's own error first in the text, the unknown command after it
    ("(declare-const a Int)\n(assert (> a b))\n(foo)\n", "2:13: SMT-LIB2 does not parse: unknown constant b"),
])
def test_cli_solve_smt2_says_only_its_one_line_for_an_unknown_command(tmp_path, capfd, text, error):
    from puzzlebench.cli import main

    bad = tmp_path / "bad.smt2"
    bad.write_text(text)
    capfd.readouterr()
    assert main(["solve-smt2", str(bad)]) == 2
    assert capfd.readouterr() == ("", f"puzzlebench: error: {bad}:{error}\n")


def test_cli_solve_smt2_leaves_out_the_counters_z3_does_not_report(tmp_path, capfd):
    """A formula Z3's simplifier decides has no search counters: was "decisions=None"."""
    from puzzlebench.cli import main

    path = tmp_path / "easy.smt2"
    path.write_text("(declare-const a Int)\n(assert (> a 1))\n")
    capfd.readouterr()
    assert main(["solve-smt2", str(path)]) == 0
    out = capfd.readouterr().out.splitlines()
    assert out[0] == "solution 1: a=2"
    assert out[1].startswith("1 model; no search counters [z3 ") and "None" not in out[1]
    assert main(["solve-smt2", str(path), "--limit", "3"]) == 0
    last = capfd.readouterr().out.splitlines()[-1]
    assert re.fullmatch(r"3 models; decisions=\d+ conflicts=\d+ propagations=\d+ \[z3 .*\]", last)


# -- solve-smt2 counts the models of any file ---------------------------------------------------

def _random_formula(draw):
    """A small SMT-LIB2 file: Int constants bounded to 0..3, Bool constants, and a few random
    clauses over comparisons; with its models counted by brute force in Python."""
    import itertools
    ints = [f"i{k}" for k in range(draw(st.integers(0, 3)))]
    bools = [f"b{k}" for k in range(draw(st.integers(0 if ints else 1, 2)))]
    atoms = []
    for _ in range(draw(st.integers(0, 4))):
        if ints and draw(st.booleans()):
            a = draw(st.sampled_from(ints))
            op = draw(st.sampled_from(["<", "<=", "=", ">", ">="]))
            b = draw(st.sampled_from(ints + [str(v) for v in range(4)]))
            atoms.append((f"({op} {a} {b})", op, a, b))
        elif bools:
            name = draw(st.sampled_from(bools))
            atoms.append((name, None, name, None))
    clauses = [[(draw(st.booleans()), atom) for atom in draw(st.lists(st.sampled_from(atoms), min_size=1, max_size=3))]
               for _ in range(draw(st.integers(0, 3)))] if atoms else []
    text = "".join(f"(declare-const {i} Int)(assert (and (>= {i} 0) (<= {i} 3)))" for i in ints)
    text += "".join(f"(declare-const {b} Bool)" for b in bools)
    text += "".join("(assert (or " + " ".join(f"(not {a[0]})" if neg else a[0] for neg, a in clause) + "))"
                    for clause in clauses)

    def holds(env, atom):
        _, op, a, b = atom
        if op is None:
            return env[a]
        x, y = env[a], env[b] if b in env else int(b)
        return {"<": x < y, "<=": x <= y, "=": x == y, ">": x > y, ">=": x >= y}[op]

    count = 0
    for values in itertools.product(*([range(4)] * len(ints) + [(False, True)] * len(bools))):
        env = dict(zip(ints + bools, values))
        count += all(any(holds(env, a) != neg for neg, a in clause) for clause in clauses)
    return text + "(check-sat)\n(exit)\n", count


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_solve_smt2_counts_every_model_of_any_file(data):
    from puzzlebench.engines.smt import count_smt2_models
    text, expected = _random_formula(data.draw)
    assert count_smt2_models(text, "f.smt2", None, 30).count == expected


def test_solve_smt2_counts_constants_of_any_name(tmp_path, capsys):
    from puzzlebench.cli import main
    f = tmp_path / "x.smt2"
    f.write_text("(declare-const x Int)\n(assert (and (> x 1) (< x 5)))\n")
    assert main(["solve-smt2", str(f), "--limit", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["solution 1: x=2", "solution 2: x=3", "solution 3: x=4"] or \
        sorted(out[:3]) == ["solution 1: x=2", "solution 2: x=3", "solution 3: x=4"]
    assert out[3].startswith("3 models;")


REFUSED = "whose values cannot be listed one by one: the models are not counted (Int, Bool, bit-vectors and enumerations can be)"


@pytest.mark.slow
@pytest.mark.parametrize("text, message", [
    ("(declare-const r Real)\n(assert (> r 1))\n", f"r.smt2:1:1: r is of sort Real, {REFUSED}"),
    ("(declare-const a Int)\n  (declare-fun f (Int) Int)\n(assert (> (f a) 1))\n",
     "r.smt2:2:3: f is a function of sort (Int) -> Int: its models cannot be counted by listing values"),
    ("(declare-fun g ((_ BitVec 8) Bool) Int)\n",
     "r.smt2:1:1: g is a function of sort ((_ BitVec 8) Bool) -> Int: its models cannot be counted by listing values"),
    ("(declare-const s (Array Int Int))\n", f"r.smt2:1:1: s is of sort (Array Int Int), {REFUSED}"),
    ("(declare-sort U 0)\n(declare-const u U)\n", f"r.smt2:2:1: u is of sort U, {REFUSED}"),
    ("(declare-const t String)\n", f"r.smt2:1:1: t is of sort String, {REFUSED}"),
    ("(declare-datatypes ((P 0)) (((mk (fst Int)))))\n(declare-const p P)\n", f"r.smt2:2:1: p is of sort P, {REFUSED}"),
    ("(declare-const x Bool", "r.smt2:1:1: the declaration of x is not closed before the file ends"),
    ("(declare-const x (_ BitVec 8 " + " " * 10000 + "))", "r.smt2:1:1: the declaration of x is not closed within "
                                                            "10000 characters"),
    ("(declare-fun x Bool)", "r.smt2:1:1: declare-fun x: expected its argument sorts in parentheses"),
])
def test_solve_smt2_refuses_what_it_cannot_count(tmp_path, capsys, text, message):
    from puzzlebench.cli import main
    f = tmp_path / "r.smt2"
    f.write_text(text)
    assert main(["solve-smt2", str(f), "--limit", "0"]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {tmp_path}/{message}\n"


@pytest.mark.parametrize("text, count", [
    # a declaration inside a comment, a string literal or a quoted symbol declares nothing
    # (the scanner read them as declarations: a valid file was refused)
    ("; (declare-const y Real)\n(declare-const x Bool)\n", 2),
    ('(assert (= "(declare-const z Real)" "(declare-const z Real)"))(declare-const x Bool)', 2),
    ("(declare-const |(declare-const w Real)| Bool)(declare-const |a b| Bool)(assert (xor |a b| |(declare-const w Real)|))", 2),
    # what a popped scope or a reset declared is gone; what follows (exit) is not read
    ("(push 1)(declare-const x Bool)(pop 1)(declare-const y Bool)(declare-const z Bool)", 4),
    ("(push 2)(declare-const x Bool)(pop 1)(declare-const y Bool)", 2),
    ("(declare-const x Bool)(push)(declare-const y Bool)", 4),
    ("(declare-const x Int)(reset)(declare-const y Bool)", 2),
    ("(declare-const x Bool)(check-sat)(get-model)(exit)(declare-const y Real)", 2),
    ("(declare-fun x () Int)(assert (and (>= x 0) (< x 3)))", 3),
])
def test_solve_smt2_counts_the_declarations_of_the_script(text, count):
    from puzzlebench.engines.smt import count_smt2_models
    assert count_smt2_models(text, "d.smt2", None, 30).count == count



def test_only_z3s_first_error_is_said():
    """Z3 lists one error a line; the message is the first (it kept the first line's closing
    quote and parenthesis: 'bit-vector size must be greater than zero")')."""
    from puzzlebench.engines.smt import count_smt2_models
    with pytest.raises(ParseError) as err:
        count_smt2_models("(declare-const b (_ BitVec 0))\n(assert (= b b))", "z.smt2", None, 30)
    assert str(err.value) == "z.smt2:1:29: SMT-LIB2 does not parse: bit-vector size must be greater than zero"


@pytest.mark.parametrize("text, first", [
    # named like puzzlebench's cells, but no puzzle: listed by name (a negative Int was a
    # ValueError traceback; a cell numbered 99,999,999,999 a list of that many zeros)
    ("(declare-const c0 Int)(assert (< c0 0))", "solution 1: c0=(- 1)"),
    ("(declare-const c99999999999 Bool)(assert c99999999999)", "solution 1: c99999999999=true"),
    ("; puzzlebench int formulation: 99999999999 cells, values 1..2\n(declare-const c0 Int)(assert (= c0 1))",
     "solution 1: c0=1"),
    ("(declare-const c1 Int)(assert (= c1 1))", "solution 1: c1=1"),
    # a puzzle's cells 0..n-1: listed as its values
    ("; puzzlebench int formulation: 2 cells, values 1..2\n(declare-const c0 Int)(declare-const c1 Int)"
     "(assert (= c0 1))(assert (= c1 2))", "solution 1: 1,2"),
])
def test_solve_smt2_lists_cells_only_for_a_puzzle(tmp_path, capsys, text, first):
    from puzzlebench.cli import main
    f = tmp_path / "c.smt2"
    f.write_text(text)
    assert main(["solve-smt2", str(f)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first


def test_a_decided_cell_that_is_no_pair_of_integers_is_an_error_with_its_place(tmp_path, capsys):
    from puzzlebench.cli import main
    f = tmp_path / "d.smt2"
    f.write_text("(declare-const b Bool)\n; decided before the solver (cell=value, cells from 0): 0=1 x=1\n")
    assert main(["solve-smt2", str(f)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {f}:2:61: decided cell 'x=1' is not cell=value\n"


def test_solve_smt2_names_a_quoted_symbol_with_its_bars(tmp_path, capsys):
    from puzzlebench.cli import main
    f = tmp_path / "q.smt2"
    f.write_text("(declare-const |a b| Bool)(assert |a b|)")
    assert main(["solve-smt2", str(f)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "solution 1: |a b|=true"


@pytest.mark.slow
def test_z3_ending_its_process_out_of_memory_is_an_error_naming_the_file(tmp_path):
    """Z3's SMT-LIB2 parser ends the process (exit code 101, nothing said) when memory runs
    out: the count runs in a child, so that the command can say so (it ended with 101)."""
    import resource
    import subprocess
    import sys
    f = tmp_path / "big.smt2"
    f.write_text("(declare-const b (_ BitVec 200000000))(assert (= b (bvadd b b)))")

    def one_gigabyte():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    run = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "solve-smt2", str(f)], capture_output=True,
                         text=True, preexec_fn=one_gigabyte, timeout=120)
    assert (run.returncode, run.stderr) == (2, f"puzzlebench: error: {f}: Z3 ran out of memory and ended its "
                                               "process (exit code 101)\n")


def test_solve_smt2_holds_its_time_limit_while_z3_reads(tmp_path, capsys):
    """An Int without bounds has models without end: the time limit stops the count, and the
    models found are said (in a child killed at the limit if Z3 does not stop itself)."""
    from puzzlebench.cli import main
    f = tmp_path / "n.smt2"
    f.write_text("(declare-const x Int)")
    assert main(["solve-smt2", str(f), "--limit", "0", "--time-limit", "0.5"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert " models (stopped: the time limit);" in last and int(last.split()[0]) > 1


def test_solve_smt2_counts_enumerations_and_bit_vectors(tmp_path):
    from puzzlebench.engines.smt import count_smt2_models
    text = ("(declare-datatypes () ((Color red green blue)))(declare-const c Color)"
            "(declare-const v (_ BitVec 2))(assert (not (= c red)))")
    assert count_smt2_models(text, "e.smt2", None, 30).count == 2 * 4


@pytest.mark.slow
def test_ctrl_c_during_a_z3_check_stops_the_command(tmp_path):
    """Z3 catches SIGINT itself and returns unknown ("interrupted from keyboard"): the puzzle
    was an error record and the command went on with the rest (560 s for the hardest file).
    Here Ctrl-C ends it: 'interrupted', exit 130, whether it lands in a check or in Python."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from conftest import data_file
    lines = data_file("sudoku9_forum_hardest_1905_11plus.txt").read_text().splitlines()[:3000]
    puzzles = tmp_path / "hard.txt"
    puzzles.write_text("\n".join(lines) + "\n")   # about 30 s of Z3's work
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench.cli", "solve", str(puzzles), "--solver", "smt"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    time.sleep(4)   # imports done, Z3 at work
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=20)
    finally:
        proc.kill()
    assert (code, proc.stderr.read().decode()) == (130, "puzzlebench: interrupted\n")
