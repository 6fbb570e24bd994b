"""XCSP3, MiniZinc and OPB exports held to the real tools that define the formats: ACE (the
XCSP3 solver inside pycsp3, run with Java; Choco, also inside, as a second reader), MiniZinc
with Gecode (Debian's minizinc and flatzinc), minisat+ and Exact (OPB).  Each export is solved
by the tool, its output decoded back by ``puzzlebench decode``, checked by the puzzle's own
checker and compared with CP-SAT's solution (and bitboard's on 9x9); the tools that enumerate
count like CP-SAT.  A test whose tool is absent skips, naming the package that brings it (CI
installs them all)."""

from __future__ import annotations

import contextlib
import io
import json
import random
from dataclasses import dataclass

import pytest
import hypothesis
from hypothesis import HealthCheck, given, settings, strategies as st

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.encoders import minizinc, opb, xcsp3
from puzzlebench.errors import UsageError
from puzzlebench.models.examples import example
from puzzlebench.models.vocabulary import Rules
from puzzlebench.encoders.registry import FORMATS, function
from puzzlebench.engines import tool_runner
from puzzlebench.engines.registry import make_engine

from conftest import data_lines

TOOLS = {   # tool: (export target = decode option, file suffix (the registry's), why it is missing, run)
    "ace": ("xcsp3", FORMATS["xcsp3"].suffix, tool_runner.missing_ace,
            lambda path, puzzle, k: tool_runner.run_ace(path, puzzle.n_cells, k)),
    "minizinc": ("minizinc", FORMATS["minizinc"].suffix, tool_runner.missing_minizinc,
                 lambda path, puzzle, k: tool_runner.run_minizinc(path, puzzle.n_cells, k)),
    "minisat+": ("opb", FORMATS["opb"].suffix, tool_runner.missing_minisat_plus,
                 lambda path, puzzle, k: tool_runner.run_minisat_plus(path)),
    "exact": ("opb", FORMATS["opb"].suffix, tool_runner.missing_exact,
              lambda path, puzzle, k: tool_runner.run_exact(path, k)),
}


def test_every_tool_the_registry_names_is_run_here():
    """The export registry names the tool runners of each format; each one is run above."""
    named = {reference.partition(":")[2] for entry in FORMATS.values() for reference in entry.tools}
    assert named == {"run_ace", "run_choco", "run_minizinc", "run_minisat_plus", "run_exact"}
    assert all(callable(function(reference)) for entry in FORMATS.values() for reference in entry.tools)
ENUMERATING = ("ace", "minizinc", "exact")   # minisat+ finds one solution and stops

EXAMPLES = ["arto-inkala", "sudoku12", "killer", "kenken4", "futoshiki5", "skyscrapers5",
            "8-queens-corner", "sudoku-x", "jigsaw6", "latin5"]


def needs(tool: str) -> None:
    reason = TOOLS[tool][2]()
    if reason is not None:
        pytest.skip(reason)


def sudoku16():
    return puzzlebench.parse(data_lines("sudoku16_vu_kr_1000.txt", limit=1)[0], kind="sudoku")


def puzzle_named(name: str):
    return sudoku16() if name == "sudoku16" else example(name)


def exported(tmp_path, puzzle, target: str, suffix: str):
    path = tmp_path / f"puzzle{suffix}"
    path.write_text(puzzlebench.encode(puzzle, to=target).write())
    return path


def solve_with(tool: str, tmp_path, puzzle, solutions: int = 1):
    target, suffix, _, run = TOOLS[tool]
    path = exported(tmp_path, puzzle, target, suffix)
    return path, run(path, puzzle, solutions)


def reference(puzzle, limit):
    """CP-SAT's answer, every solution it found kept (up to the limit) for comparing lists."""
    result = make_engine("cpsat").run(puzzle, limit=limit, keep=limit or 1000, time_limit=120)
    assert result.verified
    return result


def decoded_record(capsys, tmp_path, target: str, path, answer) -> dict:
    """``decode --TARGET PATH --model OUTPUT --format jsonl`` on the tool's answer: its record,
    after exit 0."""
    assert answer.status == "SATISFIABLE"
    out = tmp_path / "tool.out"
    out.write_text(answer.output)
    capsys.readouterr()
    assert main(["decode", f"--{target}", str(path), "--model", str(out), "--format", "jsonl"]) == 0
    return json.loads(capsys.readouterr().out)


# -- export, solve with the tool, decode, verify ---------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("name", EXAMPLES + ["sudoku16"])
def test_the_tool_solves_the_export_and_decode_verifies_it(tool, name, tmp_path, capsys):
    needs(tool)
    puzzle = puzzle_named(name)
    path, answer = solve_with(tool, tmp_path, puzzle)
    record = decoded_record(capsys, tmp_path, TOOLS[tool][0], path, answer)
    assert record["verified"] and record["kind"] == puzzle.kind
    solution = puzzle.parse_solution(record["solution"])
    assert puzzle.check(solution) == [] and puzzle.rules.violations(solution) == []
    assert answer.solutions[0] == solution
    expected = reference(puzzle, limit=2)
    if expected.count == 1:                       # unique: every engine finds this one
        assert solution == expected.solutions[0]
    if name == "arto-inkala":
        assert solution == make_engine("bitboard").run(puzzle, limit=1).solutions[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["arto-inkala", "killer", "kenken4", "futoshiki5", "skyscrapers5", "jigsaw6"])
def test_choco_reads_the_xcsp3_export_as_ace_does(name, tmp_path, capsys):
    """A second XCSP3 reader (Choco's, the other solver pycsp3 ships): the file is XCSP3, not
    what ACE alone accepts."""
    reason = tool_runner.missing_choco()
    if reason:
        pytest.skip(reason)
    puzzle = example(name)
    path = exported(tmp_path, puzzle, "xcsp3", ".xml")
    record = decoded_record(capsys, tmp_path, "xcsp3", path, tool_runner.run_choco(path, puzzle.n_cells))
    assert record["verified"]
    assert puzzle.parse_solution(record["solution"]) == reference(puzzle, 2).solutions[0]   # all unique


# -- counting ---------------------------------------------------------------------------------

COUNTS = [("8-queens", 0), ("8-queens-corner", 0), ("killer", 2), ("kenken4", 2), ("futoshiki5", 2),
          ("skyscrapers5", 2), ("sudoku-x", 2), ("jigsaw6", 2), ("latin5", 2)]


@pytest.mark.slow
@pytest.mark.parametrize("tool", ENUMERATING)
@pytest.mark.parametrize("name,limit", COUNTS)
def test_the_tools_count_as_cpsat_does(tool, name, limit, tmp_path):
    """All solutions (limit 0) or a uniqueness check (limit 2: one found, the search
    complete): the tool's count is CP-SAT's, each solution a different verified one."""
    needs(tool)
    puzzle = example(name)
    _, answer = solve_with(tool, tmp_path, puzzle, limit)
    expected = reference(puzzle, limit or None)
    assert answer.count == expected.count
    assert answer.complete == (expected.count < limit or limit == 0)
    assert all(puzzle.check(s) == [] for s in answer.solutions)
    assert len(set(answer.solutions)) == len(answer.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("tool", ENUMERATING)
def test_a_sudoku_with_many_solutions_stops_at_two(tool, tmp_path):
    needs(tool)
    puzzle = puzzlebench.parse("8" + "." * 80, kind="sudoku")
    _, answer = solve_with(tool, tmp_path, puzzle, 2)
    assert answer.count == 2 and not answer.complete
    assert all(puzzle.check(s) == [] for s in answer.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("tool", TOOLS)
def test_an_unsatisfiable_export_is_unsatisfiable_to_the_tool(tool, tmp_path, capsys):
    """Two givens that clash through a sign: a Futoshiki with no solution."""
    needs(tool)
    from puzzlebench.models.futoshiki import Futoshiki
    puzzle = Futoshiki(3, [2, 0, 0, 0, 0, 0, 0, 0, 0], [(0, 1), (1, 2)])   # 2 < b < c in 1..3: none
    assert reference(puzzle, 1).count == 0
    path, answer = solve_with(tool, tmp_path, puzzle)
    assert answer.status == "UNSATISFIABLE"
    if tool != "exact":     # Exact's answer is no text of its own
        out = tmp_path / "tool.out"
        out.write_text(answer.output)
        capsys.readouterr()
        assert main(["decode", f"--{TOOLS[tool][0]}", str(path), "--model", str(out)]) == 0
        assert capsys.readouterr().out == "unsat\n"


# -- random small puzzles ---------------------------------------------------------------------

def _random_puzzle(kind: str, seed: int):
    from random_puzzles import random_futoshiki, random_kenken, random_killer, random_queens, random_skyscrapers
    return {"kenken": lambda: random_kenken(seed, 4), "killer": lambda: random_killer(seed),
            "futoshiki": lambda: random_futoshiki(seed, 4)[0], "skyscrapers": lambda: random_skyscrapers(seed),
            "nqueens": lambda: random_queens(seed, 6)}[kind]()


RANDOM = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))


@RANDOM
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["kenken", "killer", "futoshiki", "skyscrapers", "nqueens"]))
def test_exact_counts_random_small_puzzles_as_cpsat_does(seed, kind, tmp_path_factory):
    needs("exact")
    puzzle = _random_puzzle(kind, seed)
    _, answer = solve_with("exact", tmp_path_factory.mktemp("opb"), puzzle, 30)
    expected = reference(puzzle, 30)
    assert answer.count == expected.count
    assert sorted(answer.solutions) == sorted(expected.solutions) or expected.count == 30
    assert all(puzzle.check(s) == [] for s in answer.solutions)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["kenken", "futoshiki", "skyscrapers"]))
def test_minizinc_counts_random_small_puzzles_as_cpsat_does(seed, kind, tmp_path_factory):
    needs("minizinc")
    puzzle = _random_puzzle(kind, seed)
    _, answer = solve_with("minizinc", tmp_path_factory.mktemp("mzn"), puzzle, 10)
    assert answer.count == reference(puzzle, 10).count
    assert all(puzzle.check(s) == [] for s in answer.solutions)


# -- the files themselves -----------------------------------------------------------------------

@pytest.mark.parametrize("name", EXAMPLES)
def test_the_opb_reader_reads_back_what_the_writer_wrote(name):
    puzzle = example(name)
    written = puzzlebench.encode(puzzle, to="opb")
    read = opb.read_opb(written.write(), "x.opb")
    assert (read.n_vars, read.constraints) == (written.n_vars, written.constraints)
    assert (read.n_cells, read.n_values) == (puzzle.n_cells, puzzle.n_values)


@pytest.mark.parametrize("target,module", [("xcsp3", xcsp3), ("minizinc", minizinc), ("opb", opb)])
@pytest.mark.parametrize("name", EXAMPLES)
def test_each_file_rebuilds_its_puzzle_from_its_header(target, module, name):
    puzzle = example(name)
    again = module.puzzle_of(puzzlebench.encode(puzzle, to=target).write(), "f")
    assert (again.kind, again.givens, again.rules.constraints) == (puzzle.kind, puzzle.givens, puzzle.rules.constraints)


# -- what cannot be said, and bad answers -------------------------------------------------------

@dataclass(frozen=True)
class Parity:
    """A rule no writer knows: stands for a term added to the vocabulary after the writers."""

    cells: tuple[int, ...]
    name: str


@pytest.mark.parametrize("target", ["xcsp3", "minizinc", "opb"])
def test_a_rule_a_format_has_no_words_for_is_refused_naming_kind_and_format(target):
    puzzle = example("latin5")
    rules = puzzle.rules
    puzzle.__dict__["rules"] = Rules(rules.n_cells, rules.n_values, rules.givens,
                                     rules.constraints + (Parity((0, 1), "even r1c1+r1c2"),), rules.cell_names)
    with pytest.raises(UsageError) as info:
        puzzlebench.encode(puzzle, to=target)
    assert str(info.value) == f"export target {target!r} cannot express the latin rule Parity (even r1c1+r1c2)"


def _decode(capsys, option, exported_path, answer_path):
    capsys.readouterr()
    code = main(["decode", option, str(exported_path), "--model", str(answer_path)])
    return code, capsys.readouterr()


def test_decode_refuses_a_file_of_another_format(tmp_path, capsys):
    path = exported(tmp_path, example("kenken4"), "minizinc", ".mzn")
    answer = tmp_path / "a.out"
    answer.write_text("s SATISFIABLE\n")
    code, said = _decode(capsys, "--xcsp3", path, answer)
    assert code == 2
    assert said.err == (f"puzzlebench: error: {path}:1: no 'puzzlebench xcsp3' header: the file was "
                        f"not written by 'puzzlebench export --to xcsp3'\n")


def test_decode_refuses_an_opb_answer_that_breaks_a_constraint_naming_its_line(tmp_path, capsys):
    puzzle = example("kenken4")
    path = exported(tmp_path, puzzle, "opb", ".opb")
    answer = tmp_path / "a.out"
    answer.write_text("s SATISFIABLE\nv x1 x6\n")     # cell 0 = 1, cell 1 = 2: cell 2 has no value
    code, said = _decode(capsys, "--opb", path, answer)
    assert code == 2
    # the header is 8 lines: cells 0 and 1 have their value, cell 2's "= 1" on line 11 breaks
    assert said.err == f"puzzlebench: error: {answer}: the answer breaks constraint 3 (line 11 of {path})\n"


def test_decode_says_loudly_when_the_tools_solution_breaks_the_puzzle(tmp_path, capsys):
    """An answer in good form whose values are no solution: exit 1, the rule named."""
    path = exported(tmp_path, example("kenken4"), "xcsp3", ".xml")
    answer = tmp_path / "a.out"
    answer.write_text("s SATISFIABLE\nv <instantiation> <list> c[] </list> <values> " + " ".join(["1"] * 16)
                      + " </values> </instantiation>\n")
    code, said = _decode(capsys, "--xcsp3", path, answer)
    assert code == 1
    assert said.err.startswith("puzzlebench: error: the decoded solution is wrong: ")
    assert said.err.count("\n") == 1


@pytest.mark.parametrize("option,suffix,text,message", [
    ("--xcsp3", ".xml", "s SATISFIABLE\nv <instantiation> <list> c[] </list> <values> 1 2 </values> </instantiation>\n",
     "{answer}:2: the answer lists 2 values for 16 variables"),
    ("--xcsp3", ".xml", "v nothing\n", "{answer}:1: no status line ('s SATISFIABLE', 's UNSATISFIABLE', ...)"),
    ("--xcsp3", ".xml", "c ACE\nc run\ns SATISFIABLE\nv nothing\n",
     "{answer}:3:1: the solver says SATISFIABLE but its 'v' lines hold no instantiation"),   # was {answer}:1
    ("--minizinc", ".mzn", "c = [1, 2];\n----------\n", "{answer}:1:1: 2 values for the 16 cells"),
    # a solution beside UNSATISFIABLE: was "unsat" (XCSP3) or the solution (MiniZinc), exit 0
    ("--xcsp3", ".xml", "s UNSATISFIABLE\nv <instantiation> <list> c[] </list> <values> " + "1 " * 16 + "</values> </instantiation>\n",
     "{answer}:2:1: the answer says UNSATISFIABLE (line 1) and gives an instantiation"),
    ("--minizinc", ".mzn", "=====UNSATISFIABLE=====\nc = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];\n----------\n",
     "{answer}:2:1: the output says =====UNSATISFIABLE===== (line 1) and prints a solution"),
    ("--minizinc", ".mzn", "Error: type error\n", "{answer}:1:1: not a line of puzzlebench's MiniZinc output: 'Error: type error'"),
    # was "unknown", exit 0: an empty file is no answer, as for the other formats
    ("--minizinc", ".mzn", "\n", "{answer}:1: empty: MiniZinc's output has the solutions it found or a status "
                                 "line (=====UNKNOWN=====, =====UNSATISFIABLE=====)"),
    # a bad value was "the answer lists 16 values for 16 variables"
    ("--xcsp3", ".xml", "s SATISFIABLE\nv <instantiation> <list> c[] </list> <values> 1 x " + "1 " * 14 + "</values> </instantiation>\n",
     "{answer}:2: value 2 of the answer, 'x', is not a value (a number up to 9 digits, or VALUExCOUNT)"),
    ("--xcsp3", ".xml", "s SATISFIABLE\nv <instantiation> <list> c[] </list> <values> 1 * " + "1 " * 14 + "</values> </instantiation>\n",
     "{answer}:2: value 2 of the answer, '*', is not a value (a number up to 9 digits, or VALUExCOUNT)"),
    ("--xcsp3", ".xml", "s SATISFIABLE\nv <instantiation> <list> c[] </list> <values> 1 12345678901234567890 " + "1 " * 14 + "</values> </instantiation>\n",
     "{answer}:2: value 2 of the answer, '12345678901234567890', is not a value (a number up to 9 digits, or VALUExCOUNT)"),
    ("--opb", ".opb", "s SATISFIABLE\nv x1 y2\n", "{answer}:2:6: 'y2' is not a literal (xN or -xN)"),
    # each was "the answer breaks constraint 1 (line 9 of …)", or "unsat" with exit 0
    ("--opb", ".opb", "s SATISFIABLE\nv x1 -x2\nv x3 -x1\n", "{answer}:3:6: x1 is given both values (first at line 2)"),
    ("--opb", ".opb", "s SATISFIABLE\nv x1 x99999\n", "{answer}:2:6: the answer names x99999; the OPB file declares 90 variables"),
    ("--opb", ".opb", "s UNSATISFIABLE\nv -x1 x2\n", "{answer}:2:3: the answer says UNSATISFIABLE (line 1) and gives a model"),
])
def test_decode_refuses_a_malformed_answer_in_one_line(tmp_path, capsys, option, suffix, text, message):
    target = option[2:]
    path = exported(tmp_path, example("kenken4"), target, suffix)
    answer = tmp_path / "a.out"
    answer.write_text(text)
    code, said = _decode(capsys, option, path, answer)
    assert code == 2
    assert said.err == "puzzlebench: error: " + message.format(answer=answer) + "\n"


def test_read_opb_names_the_place_of_a_mistake():
    from puzzlebench.errors import ParseError
    with pytest.raises(ParseError) as info:
        opb.read_opb("* #variable= 2 #constraint= 1\n+1 x1 +1 x2 <= 1 ;\n", "f.opb")
    assert str(info.value) == "f.opb:2:13: expected '>= BOUND ;' or '= BOUND ;' after the terms (the format has no '<=')"
    with pytest.raises(ParseError) as info:
        opb.read_opb("* #variable= 1 #constraint= 1\n+1 x1 +1 x2 >= 1 ;\n", "f.opb")
    assert str(info.value) == "f.opb:1:1: a constraint names x2; the header declares 1 variables"


# -- the readers under mutated input: a clean error or a right answer, never a traceback ---------

def _answers(puzzle):
    """The answer each format's tool gives, in its form, made from CP-SAT's solution."""
    solution = reference(puzzle, 1).solutions[0]
    pb = puzzlebench.encode(puzzle, to="opb")
    true = {k + 1 for k in range(pb.n_candidates) if solution[k // pb.n_values] == k % pb.n_values + 1}
    return {
        "xcsp3": ("s SATISFIABLE\nv <instantiation id='sol1' type='solution'> <list> c[] </list> <values> "
                  + " ".join(map(str, solution)) + " </values> </instantiation>\nd FOUND SOLUTIONS 1\n"),
        "minizinc": "c = [" + ", ".join(map(str, solution)) + "];\n----------\n==========\n",
        # the auxiliary variables are left false: the answer breaks a cage selector's "= 1"
        "opb": "s SATISFIABLE\nv " + " ".join(("" if v in true else "-") + f"x{v}" for v in range(1, pb.n_vars + 1)) + "\n",
    }


HUGE_WORDS = ["0", "-1", "99999999999", "5x99999999999", "x0", "x99999999999", "c[99999999]", "c[]", "=", ";", ">="]


def _mutate(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(words))
        action = rng.randrange(4)
        if action == 0:
            words[k] = rng.choice(HUGE_WORDS)
        elif action == 1:
            del words[k:k + rng.randint(1, 5)]
        elif action == 2:
            words.insert(k, words[rng.randrange(len(words))])
        else:
            words[k] = words[k][:rng.randint(0, len(words[k]))]
        if not words:
            words = [""]
    return " ".join(words)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**9), target=st.sampled_from(["xcsp3", "minizinc", "opb"]),
       name=st.sampled_from(["kenken4", "skyscrapers5", "8-queens-corner"]))
@hypothesis.example(seed=8350, target="minizinc", name="kenken4")   # a value of 99999999999: KenKen's digits had none for it
def test_mutated_answers_decode_to_a_verified_solution_or_one_error_line(seed, target, name, tmp_path_factory):
    puzzle = example(name)
    folder = tmp_path_factory.mktemp("fuzz")
    path = exported(folder, puzzle, target, ".f")
    rng = random.Random(seed)
    answer = folder / "a.out"
    answer.write_text(_mutate(_answers(puzzle)[target], rng))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["decode", f"--{target}", str(path), "--model", str(answer)])
    assert code in (0, 1, 2), code
    if code:
        assert err.getvalue().startswith("puzzlebench: error: ") and err.getvalue().count("\n") == 1
    elif out.getvalue().strip() not in ("unsat", "unknown"):
        assert puzzle.check(puzzle.parse_solution(out.getvalue().strip())) == []


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**9))
def test_mutated_opb_files_read_or_fail_at_a_place(seed):
    from puzzlebench.errors import ParseError
    text = puzzlebench.encode(example("kenken4"), to="opb").write()
    lines = text.split("\n")
    rng = random.Random(seed)
    k = rng.randrange(len(lines))
    lines[k] = _mutate(lines[k] or "x", rng)
    try:
        pb = opb.read_opb("\n".join(lines), "f.opb")
    except ParseError as exc:
        assert exc.line is not None or "header" in str(exc)
        return
    assert pb.n_vars == max((v for terms, _, _ in pb.constraints for _, v in terms), default=0)


@pytest.mark.parametrize("target", ["xcsp3", "minizinc", "opb"])
def test_the_export_command_refuses_such_a_rule_in_one_line_exit_2(target, monkeypatch, tmp_path, capsys):
    from puzzlebench.models.latin import LatinSquare
    plain = LatinSquare._rules

    def with_parity(self):
        rules = plain(self)
        return Rules(rules.n_cells, rules.n_values, rules.givens,
                     rules.constraints + (Parity((0, 1), "even r1c1+r1c2"),), rules.cell_names)

    monkeypatch.setattr(LatinSquare, "_rules", with_parity)
    square = tmp_path / "square.txt"
    square.write_text("1 0 0\n0 0 0\n0 0 0\n")
    capsys.readouterr()
    assert main(["export", "--kind", "latin", str(square), "--to", target]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err == (f"puzzlebench: error: export target {target!r} cannot express the latin rule "
                        f"Parity (even r1c1+r1c2)\n")


@pytest.mark.parametrize("target", ["xcsp3", "minizinc", "opb"])
def test_a_header_whose_puzzle_breaks_its_own_rules_is_one_line_at_the_header(target, tmp_path, capsys):
    """A cage line edited so that a cell is in two cages: the puzzle's own check finds it, with
    no place of its own; the error stands at the header's first line (hypothesis found it)."""
    path = exported(tmp_path, example("kenken4"), target, ".f")
    text = path.read_text()
    path.write_text(text.replace("cages: 9+:0,4,8 1-:1,5", "cages: 1-:1,5 9+:0,4,8 1-:1,5"))
    first = next(n for n, line in enumerate(text.splitlines(), 1) if "puzzlebench " + target in line)
    (tmp_path / "a.out").write_text("")
    assert main(["decode", f"--{target}", str(path), "--model", str(tmp_path / "a.out")]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {path}:{first}: the header's puzzle is not valid: "
                                       "r1c2 is in two cages (1 and 3)\n")


# -- MiniZinc: a model per kind and a .dzn per puzzle ----------------------------------------------

def run_model_and_data(model, data, puzzle, solutions: int = 1):
    """``minizinc --solver gecode KIND.mzn PUZZLE.dzn``, read as the single file's output is."""
    text = tool_runner.run_tool(["minizinc", "--solver", "gecode", *tool_runner.minizinc_solutions(solutions),
                       str(model), str(data)], 120)
    return tool_runner.minizinc_answer(text, puzzle.n_cells, str(data))


def split_export(tmp_path, puzzle):
    model = tmp_path / f"{puzzle.kind}.mzn"
    model.write_text(puzzlebench.encode(puzzle, to="minizinc-model").write())
    data = tmp_path / "puzzle.dzn"
    data.write_text(puzzlebench.encode(puzzle, to="minizinc-data").write())
    return model, data


@pytest.mark.parametrize("name", EXAMPLES + ["sudoku6", "course-4x4", "sudoku16"])
def test_the_kind_model_with_the_puzzles_dzn_is_solved_decoded_and_verified(name, tmp_path, capsys):
    needs("minizinc")
    puzzle = puzzle_named(name)
    model, data = split_export(tmp_path, puzzle)
    answer = run_model_and_data(model, data, puzzle)
    record = decoded_record(capsys, tmp_path, "minizinc", data, answer)
    assert record["verified"] and record["kind"] == puzzle.kind
    solution = puzzle.parse_solution(record["solution"])
    assert puzzle.check(solution) == [] and answer.solutions[0] == solution
    expected = reference(puzzle, limit=2)
    if expected.count == 1:
        assert solution == expected.solutions[0]


@pytest.mark.parametrize("name,limit", COUNTS + [("sudoku6", 2), ("course-4x4", 0)])
def test_the_kind_model_counts_as_cpsat_does(name, limit, tmp_path):
    needs("minizinc")
    puzzle = example(name)
    answer = run_model_and_data(*split_export(tmp_path, puzzle), puzzle, limit)
    expected = reference(puzzle, limit or None)
    assert answer.count == expected.count and answer.complete == (expected.count < limit or limit == 0)
    assert sorted(answer.solutions) == sorted(expected.solutions)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["kenken", "killer", "futoshiki", "skyscrapers", "nqueens"]))
def test_the_kind_model_counts_random_small_puzzles_as_cpsat_does(seed, kind, tmp_path_factory):
    """Random cages (every operation), signs, skylines and placed queens: the parametric model
    and its data say what the rules say."""
    needs("minizinc")
    puzzle = _random_puzzle(kind, seed)
    answer = run_model_and_data(*split_export(tmp_path_factory.mktemp("dzn"), puzzle), puzzle, 10)
    expected = reference(puzzle, 10)
    assert answer.count == expected.count
    assert sorted(answer.solutions) == sorted(expected.solutions) or expected.count == 10


PUBLIC_SETS = [("tatham_keen_4to7_96.txt", "kenken"), ("tatham_solo_killer_3x3_100.txt", "killer"),
               ("tatham_solo_jigsaw9_100.txt", "jigsaw"), ("tatham_solo_sudokux_3x3_100.txt", "sudoku-x"),
               ("tatham_unequal_4to7_96.txt", "futoshiki"), ("skyscrapers_random_fullclue_n4to9_sample.txt", None),
               ("sudoku4_vu_kr_1000.txt", "sudoku")]


@pytest.mark.slow
@pytest.mark.parametrize("name,kind", PUBLIC_SETS)
def test_mzn_dzn_exports_a_public_set_to_a_folder_that_minizinc_solves(name, kind, tmp_path, capsys):
    """``export --to mzn+dzn FILE -o DIR``: one KIND.mzn, a KIND-K.dzn per puzzle; three of them
    (the first, the middle, the last; Skyscrapers up to 6x6) solved by Gecode, decoded and
    verified."""
    needs("minizinc")
    from conftest import data_file
    path = data_file(name)
    lines = data_lines(name)
    folder = tmp_path / "out"
    args = ["export", "--to", "mzn+dzn", str(path), "-o", str(folder)] + (["--kind", kind] if kind else [])
    capsys.readouterr()
    assert main(args) == 0
    from puzzlebench.models import reader
    with open(path, "rb") as stream:
        puzzles = [r.puzzle for r in reader.read_records(reader.text_lines(stream), str(path), kind=kind)]
    assert all(puzzles) and len(puzzles) == len(lines)
    kinds = {p.kind for p in puzzles}
    assert sorted(f.name for f in folder.iterdir()) == sorted(
        [f"{k}.mzn" for k in kinds] + [f"{p.kind}-{k}.dzn" for k, p in enumerate(puzzles, 1)])
    assert capsys.readouterr().out == (f"{folder}: {', '.join(f'{k}.mzn' for k in sorted(kinds))}; "
                                       f"{len(puzzles)} .dzn file(s), 0 error(s)\n")
    small = [k for k, p in enumerate(puzzles, 1) if p.n_values <= 6 or p.kind != "skyscrapers"]
    for k in sorted({small[0], small[len(small) // 2], small[-1]}):   # Gecode needs minutes on some 8x8 skylines
        puzzle = puzzles[k - 1]
        data = folder / f"{puzzle.kind}-{k}.dzn"
        answer = run_model_and_data(folder / f"{puzzle.kind}.mzn", data, puzzle)
        out = tmp_path / "a.out"
        out.write_text(answer.output)
        capsys.readouterr()
        assert main(["decode", "--minizinc", str(data), "--model", str(out)]) == 0
        assert puzzle.check(puzzle.parse_solution(capsys.readouterr().out.strip())) == []


def test_the_kind_model_is_one_text_for_every_puzzle_of_the_kind_and_the_single_file_joins_it_to_the_data():
    from puzzlebench.models.kinds import KIND_NAMES, kind_class
    from puzzlebench.models.examples import EXAMPLES as ALL
    by_kind: dict[str, set[str]] = {}
    for name in ALL:
        puzzle = example(name)
        model = puzzlebench.encode(puzzle, to="minizinc-model").write()
        by_kind.setdefault(puzzle.kind, set()).add(model)
        assert model == minizinc.kind_model(kind_class(puzzle.kind), "minizinc-model")
        single = puzzlebench.encode(puzzle, to="minizinc").write()
        data = puzzlebench.encode(puzzle, to="minizinc-data").write()
        header = "".join(line + "\n" for line in data.splitlines() if line.startswith("% "))
        assert single == header + model + "\n% the puzzle's data\n" + data[len(header):]
    assert sorted(by_kind) == sorted(KIND_NAMES)
    assert all(len(models) == 1 for models in by_kind.values())   # 4x4, 6x6, 9x9, 12x12 Sudoku: one model


def test_export_minizinc_model_with_a_kind_and_no_input_writes_that_kinds_model(capsys):
    from puzzlebench.models.kinds import kind_class
    assert main(["export", "--to", "minizinc-model", "--kind", "killer"]) == 0
    assert capsys.readouterr().out == minizinc.kind_model(kind_class("killer"), "minizinc-model")


def test_mzn_dzn_reports_a_bad_record_and_writes_the_others(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("4:__a_5aca3_a_,a9s1m4a5s2m12d2\n4:__a_5aca3_a_,a9s1m4a5s2m99d2\n"
                       "4:__a_5aca3_a_,a9s1m4a5s2m12d2\n")
    capsys.readouterr()
    assert main(["export", "--to", "mzn+dzn", str(puzzles), "-o", str(tmp_path / "out")]) == 1
    said = capsys.readouterr()
    assert said.err.count("\n") == 1 and said.err.startswith(f"puzzlebench: {puzzles}:2:")
    assert sorted(f.name for f in (tmp_path / "out").iterdir()) == ["kenken-1.dzn", "kenken-3.dzn", "kenken.mzn"]
    assert said.out == f"{tmp_path / 'out'}: kenken.mzn; 2 .dzn file(s), 1 error(s)\n"


@pytest.mark.parametrize("args,message", [
    (["--example", "killer"], "--to mzn+dzn writes a folder of files: name it with -o DIR"),
    (["--example", "killer", "-o", "-"], "--to mzn+dzn writes a folder of files: name it with -o DIR"),
    (["--example", "killer", "-o", "/proc/no/such"], "cannot make the folder /proc/no/such: No such file or directory"),
    (["--example", "killer", "-o", "{tmp}", "--amo", "pairwise"], "export target 'mzn+dzn' takes no option"),
])
def test_mzn_dzn_bad_usage_is_one_line_exit_2(args, message, tmp_path, capsys):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    capsys.readouterr()
    assert main(["export", "--to", "mzn+dzn", *args]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"


@pytest.mark.parametrize("target", ["minizinc", "minizinc-model", "minizinc-data"])
def test_a_kind_with_no_minizinc_model_is_refused_naming_kind_and_target(target, monkeypatch):
    from puzzlebench.models.latin import LatinSquare
    monkeypatch.setattr(LatinSquare, "minizinc_parts", ())
    with pytest.raises(UsageError) as info:
        puzzlebench.encode(example("latin5"), to=target)
    assert str(info.value) == (f"export target {target!r} cannot express the latin kind: it names no "
                               f"MiniZinc model (minizinc_parts)")


def _with_rules(puzzle, constraints):
    rules = puzzle.rules
    puzzle.__dict__["rules"] = Rules(rules.n_cells, rules.n_values, rules.givens, tuple(constraints), rules.cell_names)
    return puzzle


def test_a_rule_the_kinds_model_has_no_part_for_is_refused_naming_it():
    """A vocabulary term every writer knows, but not where the kind's model has it: a latin
    square with an extra all-different pair."""
    from puzzlebench.models.vocabulary import AllDifferent
    puzzle = example("latin5")
    _with_rules(puzzle, puzzle.rules.constraints + (AllDifferent((0, 6), "r1c1 and r2c2"),))
    with pytest.raises(UsageError) as info:
        puzzlebench.encode(puzzle, to="minizinc-data")
    assert str(info.value) == "export target 'minizinc-data' cannot express the latin rule AllDifferent (r1c1 and r2c2)"


def test_a_part_whose_constraints_the_rules_lack_is_refused():
    """The model would say more than the puzzle: a Sudoku whose rules lost a block."""
    puzzle = example("course-4x4")
    _with_rules(puzzle, [con for con in puzzle.rules.constraints if con.name != "block 4"])
    with pytest.raises(UsageError) as info:
        puzzlebench.encode(puzzle, to="minizinc")
    assert str(info.value) == ("export target 'minizinc' cannot express this sudoku puzzle: the model's part "
                               "'blocks' states blocks of R x C cells, which its rules lack")


@pytest.mark.parametrize("target", ["minizinc", "minizinc-data", "xcsp3", "opb", "dimacs", "dlx", "mzn+dzn"])
def test_a_sukaku_is_refused_by_every_export_rather_than_its_pencil_marks_dropped(target, tmp_path, capsys):
    """Its givens alone are another puzzle (more solutions): a wrong file, said nowhere."""
    from test_sukaku import LINE
    path = tmp_path / "p.txt"
    path.write_text(LINE + "\n")
    capsys.readouterr()
    code = main(["export", str(path), "--to", target, "-o", str(tmp_path / "out")])
    said = capsys.readouterr()
    message = (f"export target {target!r} cannot express a Sukaku's pencil marks (a sudoku with "
               f"candidates); the human, mrv and sat solvers take them")
    if target == "mzn+dzn":   # a folder of many puzzles: this one reported, none written
        assert code == 2 and said.err == f"puzzlebench: {path}:1: error: {message}\n"
        assert list((tmp_path / "out").iterdir()) == []
    else:
        assert code == 2 and said.err == f"puzzlebench: error: {message}\n"


def test_decode_refuses_a_kinds_model_saying_to_give_the_puzzles_dzn(tmp_path, capsys):
    model = tmp_path / "kenken.mzn"
    model.write_text(puzzlebench.encode(example("kenken4"), to="minizinc-model").write())
    answer = tmp_path / "a.out"
    answer.write_text("c = [1];\n----------\n")
    code, said = _decode(capsys, "--minizinc", model, answer)
    assert code == 2
    assert said.err == (f"puzzlebench: error: {model}:1: this is the model of every kenken puzzle, which names "
                        f"none: decode takes the puzzle's .dzn (export --to minizinc-data) or its single .mzn "
                        f"(--to minizinc)\n")


def test_export_minizinc_model_with_no_input_and_no_kind_says_what_to_give(capsys):
    assert main(["export", "--to", "minizinc-model"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: no input: name puzzle files, '-' for standard input, "
                                       "--example NAME, or --kind KIND for that kind's model\n")


# -- decode: colour, values out of range, a wrong UNSAT claim ------------------------------------

@pytest.mark.slow
def test_decode_reads_aces_coloured_output_as_the_readme_runs_it(tmp_path, capsys):
    """``java -jar ACE.jar p.xml`` without ``-npc`` colours its lines even into a file; decode
    drops the colour (was "no status line")."""
    needs("ace")
    import subprocess
    puzzle = example("arto-inkala")
    path = exported(tmp_path, puzzle, "xcsp3", ".xml")
    out = tmp_path / "ace.out"
    with open(out, "w") as f:
        subprocess.run(["java", "-jar", str(tool_runner.ace_jar()), str(path)], stdout=f, check=True, timeout=120)
    assert "\x1b[" in out.read_text()
    code, said = _decode(capsys, "--xcsp3", path, out)
    assert code == 0 and said.err == ""
    assert said.out.strip() == puzzle.format_solution(make_engine("bitboard").run(puzzle, limit=1).solutions[0])


@pytest.mark.parametrize("option,suffix,text", [
    ("--minizinc", ".mzn", "c = [99999999999999999999999" + ", 1" * 80 + "];\n----------\n"),
    ("--xcsp3", ".xml", "s SATISFIABLE\nv <instantiation> <list> c[] </list> <values> 999999999" + " 1" * 80
     + " </values> </instantiation>\n"),
])
def test_decode_names_a_value_out_of_range_in_one_line(option, suffix, text, tmp_path, capsys):
    """A value a Sudoku line has no character for (was an IndexError's traceback)."""
    path = exported(tmp_path, example("arto-inkala"), option[2:], suffix)
    answer = tmp_path / "a.out"
    answer.write_text(text)
    code, said = _decode(capsys, option, path, answer)
    value = "99999999999999999999999" if option == "--minizinc" else "999999999"
    assert code == 1 and said.out == ""
    assert said.err == f"puzzlebench: error: the decoded solution is wrong: r1c1 = {value} is not a value 1..9\n"


UNSAT_ANSWERS = [("--cnf", "dimacs", ".cnf", "s UNSATISFIABLE\n"), ("--xcsp3", "xcsp3", ".xml", "s UNSATISFIABLE\n"),
                 ("--minizinc", "minizinc", ".mzn", "=====UNSATISFIABLE=====\n"),
                 ("--opb", "opb", ".opb", "s UNSATISFIABLE\n")]


@pytest.mark.parametrize("option,target,suffix,text", UNSAT_ANSWERS)
def test_decode_says_an_unsat_claim_on_a_puzzle_with_a_solution_is_wrong(option, target, suffix, text,
                                                                        tmp_path, capsys):
    """Was a bare "unsat", exit 0: puzzlebench's own solver finds the solution the tool missed."""
    puzzle = example("kenken4")
    path = exported(tmp_path, puzzle, target, suffix)
    answer = tmp_path / "a.out"
    answer.write_text(text)
    code, said = _decode(capsys, option, path, answer)
    solution = puzzle.format_solution(reference(puzzle, 1).solutions[0])
    assert code == 1 and said.out == "unsat\n"
    assert said.err == (f"puzzlebench: error: {answer}: the solver says UNSATISFIABLE, but the puzzle has a "
                        f"solution (sat:glucose3 found {solution})\n")
    capsys.readouterr()
    assert main(["decode", option, str(path), "--model", str(answer), "--format", "jsonl"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unsat" and not record["verified"] and "has a solution" in record["error"]


@pytest.mark.parametrize("option,target,suffix,text", UNSAT_ANSWERS)
def test_decode_keeps_a_true_unsat_claim(option, target, suffix, text, tmp_path, capsys):
    from puzzlebench.models.futoshiki import Futoshiki
    puzzle = Futoshiki(3, [2, 0, 0, 0, 0, 0, 0, 0, 0], [(0, 1), (1, 2)])   # 2 < b < c in 1..3: none
    path = exported(tmp_path, puzzle, target, suffix)
    answer = tmp_path / "a.out"
    answer.write_text(text)
    code, said = _decode(capsys, option, path, answer)
    assert (code, said.out, said.err) == (0, "unsat\n", "")


def _minizinc_warnings(tmp_path, *files) -> str:
    import subprocess
    done = subprocess.run(["minizinc", "--solver", "gecode", *map(str, files)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.mark.parametrize("name", EXAMPLES)
def test_minizinc_prints_no_warning_of_the_exports_own(name, tmp_path, capsys):
    """The single file and the model with its .dzn warn of nothing a one-variable model does not
    (Debian's Gecode 6.2 library overrides count.mzn, a warning every model gets there); the
    model's all-different was MiniZinc 2.6's deprecated all_different_int.mzn, a warning a call."""
    needs("minizinc")
    bare = tmp_path / "bare.mzn"
    bare.write_text("var 1..3: x;\nsolve satisfy;\n")
    installation = _minizinc_warnings(tmp_path, bare)
    single = exported(tmp_path, example(name), "minizinc", ".mzn")
    assert _minizinc_warnings(tmp_path, single) == installation
    assert main(["export", "--example", name, "--to", "mzn+dzn", "-o", str(tmp_path / "split")]) == 0
    kind = example(name).kind
    assert _minizinc_warnings(tmp_path, tmp_path / "split" / f"{kind}.mzn",
                              tmp_path / "split" / f"{kind}-1.dzn") == installation
