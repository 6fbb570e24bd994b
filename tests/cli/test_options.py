"""The numbers a user gives (puzzlebench.options): their types read units and refuse what C,
SQLite or a clock cannot take, with one line naming the option and the value; every numeric
option of every command given edge values ends with exit 0, 1 or 2 and never a traceback."""

from __future__ import annotations

import contextlib
import io
import math

import pytest

import puzzlebench
from puzzlebench.cli import build_parser, main
from puzzlebench.encoders.dimacs import SAT_EXIT, UNSAT_EXIT
from puzzlebench.errors import SolverSpecError, UsageError
from puzzlebench.options import KEEP, LIMIT, MEMORY, SEED, TIME, Checked
from puzzlebench.engines.registry import parse_spec

from conftest import needs_preset

FOUR = "..13....2.4.....\n"   # a 4x4 Sudoku with one solution
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
DURATION_HINT = "a number (s) or one with a unit: ms, s, min, h (e.g. 250ms, 90s, 15min, 1.5h)"


def run(argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "four.txt").write_text(FOUR)
    (tmp_path / "m.dlx").write_text("a b\na\nb\na b\n")
    (tmp_path / "f.cnf").write_text("p cnf 2 1\n1 2 0\n")
    (tmp_path / "f.smt2").write_text("(declare-const x Bool)\n(assert x)\n")
    return tmp_path


# -- the types -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, seconds", [("900", 900.0), ("900s", 900.0), ("15min", 900.0), ("1.5h", 5400.0),
                                           ("250ms", 0.25), (" 2 min ", 120.0), ("0", 0.0), ("1e6", 1e6)])
def test_a_duration_reads_its_unit(text, seconds):
    assert TIME.read(text, "--time-limit") == seconds


@pytest.mark.parametrize("text, mib", [("512", 512.0), ("512MiB", 512.0), ("2GiB", 2048.0), ("1024KiB", 1.0),
                                       ("1.5GB", 1.5e9 / 2 ** 20), ("1MB", 1e6 / 2 ** 20), ("1048576B", 1.0)])
def test_a_memory_size_reads_its_unit_a_bare_number_is_mib(text, mib):
    assert MEMORY.read(text, "--memory-limit") == pytest.approx(mib)


@pytest.mark.parametrize("checked, text, message", [
    (TIME, "-1", "--x -1: out of range: from 0 to 1000000 s"),
    (TIME, "nan", "--x nan: not a finite duration"),
    (TIME, "inf", "--x inf: not a finite duration"),
    (TIME, "1e308", "--x 1e308: out of range: from 0 to 1000000 s"),
    (TIME, "12d", f"--x 12d: unknown unit 'd': {DURATION_HINT}"),
    (TIME, "fast", f"--x fast: not a duration: {DURATION_HINT}"),
    (MEMORY, "-1GiB", "--x -1GiB: out of range: from 0 to 2^63-1 bytes"),
    (MEMORY, "2gb", "--x 2gb: unknown unit 'gb': a number (MiB) or one with a unit: B, KB, MB, GB, TB, KiB, "
                    "MiB, GiB, TiB (e.g. 512MiB, 2GiB, 1.5GB)"),
    (LIMIT, "9223372036854775808", "--x 9223372036854775808: out of range: a whole number from 0 to 2^63-1"),
    (LIMIT, "2.5", "--x 2.5: not a whole number"),
    (KEEP, "2147483648", "--x 2147483648: out of range: a whole number from 1 to 2^31-1"),
])
def test_a_bad_value_is_one_line_naming_the_option_and_value(checked, text, message):
    with pytest.raises(UsageError) as err:
        checked.read(text, "--x")
    assert str(err.value) == message


def test_the_bounds_are_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["solve-xc", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "solutions to look for (0 = all); default 0 [0..2^63-1]" in help_text
    assert "solutions to print; default 10 [0..2^31-1]" in help_text
    assert "[0..1000000 s; units ms, s, min, h]" in help_text


def test_every_numeric_option_of_every_command_is_checked():
    """No option of any command is read by a bare int or float: each is a checked type."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict))
    bare = [f"{name} {action.option_strings[-1]}" for name, command in subparsers.choices.items()
            for action in command._actions if action.type in (int, float)]
    assert bare == []
    typed = {action.option_strings[-1] for command in subparsers.choices.values() for action in command._actions
             if isinstance(action.type, Checked)}
    assert {"--limit", "--time-limit", "--memory-limit", "--keep", "--show", "--seed", "--jobs", "--repeat",
            "--sample", "--count", "--clues", "--number", "--par", "--shift"} <= typed


# -- the reproductions: exit 2, one line, nothing stored ---------------------------------------

OUT_OF_LIMIT = "out of range: a whole number from 0 to 2^63-1"
CNF_AS_IT_IS = "a CNF file is solved as it is: the option says how a puzzle becomes one"
WALL_LIMIT_ON_THE_WALL_CLOCK = ("a wall limit goes with the CPU clock (--clock cpu, clock='cpu'): on the wall clock, "
                                "the time limit is itself the wall limit")


@pytest.mark.parametrize("argv, message", [
    (["solve", "--limit", "99999999999999999999999", "--solver", "bitboard"],
     f"--limit 99999999999999999999999: {OUT_OF_LIMIT}"),
    (["solve", "--limit", "99999999999999999999999", "--solver", "dlx"], f"--limit 99999999999999999999999: {OUT_OF_LIMIT}"),
    (["count", "--limit", "99999999999999999999999", "--solver", "bitboard"],
     f"--limit 99999999999999999999999: {OUT_OF_LIMIT}"),
    (["solve-xc", "{m}", "--limit", "99999999999999999999"], f"--limit 99999999999999999999: {OUT_OF_LIMIT}"),
    (["solve-xc", "{m}", "--show", "99999999999999999999"],
     "--show 99999999999999999999: out of range: a whole number from 0 to 2^31-1"),
    (["solve-xc", "{m}", "--show", "-1"], "--show -1: out of range: a whole number from 0 to 2^31-1"),
    (["bench", "{four}", "--solvers", "mrv", "--seed", "9223372036854775808"],
     f"--seed 9223372036854775808: {OUT_OF_LIMIT}"),
    (["bench", "{four}", "--solvers", "mrv", "--limit", "10**23"], "--limit 10**23: not a whole number"),
    (["bench", "{four}", "--solvers", "mrv", "--jobs", "0"], "--jobs 0: out of range: a whole number from 1 to 2^31-1"),
    (["bench", "{four}", "--solvers", "mrv", "--time-limit", "-5"], "--time-limit -5: out of range: from 0 to 1000000 s"),
    (["bench", "{four}", "--solvers", "mrv", "--time-limit", "nan"], "--time-limit nan: not a finite duration"),
    (["bench", "{four}", "--solvers", "mrv", "--time-limit", "3 weeks"],
     f"--time-limit 3 weeks: unknown unit 'weeks': {DURATION_HINT}"),
    (["generate", "sudoku", "--seed", str(2 ** 64)], f"--seed {2 ** 64}: {OUT_OF_LIMIT}"),
    (["solve", "--time-limit", "5parsecs"], f"--time-limit 5parsecs: unknown unit 'parsecs': {DURATION_HINT}"),
    (["solve", "--memory-limit", "nan"], "--memory-limit nan: not a finite memory size"),
    (["solve", "--solver", "sat@encoding=minimal;encoding=extended"],
     "solver spec 'sat@encoding=minimal;encoding=extended': option encoding is given twice"),
    (["solve", "--solver", "sat:"], "solver spec 'sat:': no variant after ':' (leave out ':' for the default)"),
    (["solve", "--example", "arto-inkala", "--kind", "sudoku"],
     "--kind does not go with --example: the example arto-inkala has its own kind and shape (--kind and --box "
     "are for reading files)"),
    (["show", "--example", "arto-inkala", "--box", "3x3"],
     "--box does not go with --example: the example arto-inkala has its own kind and shape (--kind and --box "
     "are for reading files)"),
    (["solve", "{four}", "--kind", "nqueens", "--box", "2x2"],
     "--box does not go with --kind nqueens: it is the block shape of sudoku, sudoku-x, killer"),
    (["bench", "--box", "2x2"], "--box is for reading puzzle files, and none is named"),
    # an option accepted and then ignored ran something other than what was written
    (["solve", "--solver", "quine:h1@seed=3"],
     "option seed does not apply to quine:h1 (h1 chooses without chance: only h0 takes a seed)"),
    (["solve", "--solver", "smt:int@amo=pairwise"],
     "option amo does not apply to smt:int (int states a cell as an Int under Distinct: no at-most-one to encode)"),
    (["solve-cnf", "{cnf}", "--solver", "sat:glucose3@encoding=minimal"],
     f"option encoding does not apply to sat:glucose3 ({CNF_AS_IT_IS})"),
    (["solve-cnf", "{cnf}", "--solver", "quine@amo=pairwise"], f"option amo does not apply to quine ({CNF_AS_IT_IS})"),
    (["solve", "--wall-limit", "5"], WALL_LIMIT_ON_THE_WALL_CLOCK),
    (["count", "--example", "8-queens", "--clock", "wall", "--wall-limit", "5"], WALL_LIMIT_ON_THE_WALL_CLOCK),
    (["bench", "{four}", "--solvers", "mrv", "--wall-limit", "5"], WALL_LIMIT_ON_THE_WALL_CLOCK),
])
def test_a_bad_number_or_option_is_one_line_exit_2_nothing_stored(files, argv, message):
    db = files / "r.sqlite"
    argv = [a.format(m=files / "m.dlx", four=files / "four.txt", cnf=files / "f.cnf") for a in argv]
    if argv[0] == "bench":
        argv += ["--db", str(db), "--quiet"]
    assert run(argv) == (2, "", f"puzzlebench: error: {message}\n")
    assert not db.exists()


def test_an_encoding_is_refused_to_a_tool_that_reads_no_cnf(files):
    needs_preset("minizinc")
    assert run(["solve", "--solver", "ext:minizinc@encoding=minimal"]) == (
        2, "", "puzzlebench: error: option encoding does not apply to ext:minizinc (it exports minizinc, which has "
               "no CNF encoding)\n")


def test_an_empty_database_path_is_refused_and_nothing_is_made(files, monkeypatch):
    monkeypatch.chdir(files)
    before = sorted(files.iterdir())
    for argv in (["bench", "four.txt", "--solvers", "mrv", "--quiet", "--db", ""], ["report", "--db", ""],
                 ["db", "list", ""]):
        assert run(argv) == (2, "", "puzzlebench: error: the database path is empty: name a file (e.g. "
                                    "results.sqlite)\n")
    assert sorted(files.iterdir()) == before   # was "' ' is a directory" (bench: after making .lock)


def test_a_duration_with_a_unit_is_taken(files):
    code, out, _ = run(["solve", files / "four.txt", "--time-limit", "1.5min", "--memory-limit", "1GiB",
                        "--format", "jsonl"])
    assert code == 0 and '"status": "unique"' in out


def test_dask_local_is_capped_like_jobs(files):
    code, out, err = run(["bench", files / "four.txt", "--solvers", "mrv", "--executor", "dask-local:100000",
                          "--db", files / "r.sqlite"])
    assert code == 2 and err.startswith("puzzlebench: error: --executor 'dask-local:100000': at most ")
    assert err.count("\n") == 1 and not (files / "r.sqlite").exists()


# -- the API ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, message", [
    (lambda: puzzlebench.solve(INKALA, limit=2 ** 70), UsageError,
     f"limit {2 ** 70}: {OUT_OF_LIMIT}"),
    (lambda: puzzlebench.solve(INKALA, limit=2.5), TypeError, "limit must be a whole number (int); got 2.5"),
    (lambda: puzzlebench.solve(INKALA, limit=-1), UsageError, "limit -1: " + OUT_OF_LIMIT),
    (lambda: puzzlebench.solve(INKALA, keep=2 ** 31), UsageError,
     f"keep {2 ** 31}: out of range: a whole number from 1 to 2^31-1"),
    (lambda: puzzlebench.solve(INKALA, solver=3), TypeError,
     "a solver is a spec text (such as 'bitboard') or an Engine; got int"),
    (lambda: puzzlebench.solve(INKALA, time_limit=math.inf), UsageError, "time_limit inf: not a finite duration"),
    (lambda: puzzlebench.solve(INKALA, time_limit="1 fortnight"), UsageError,
     f"time_limit 1 fortnight: unknown unit 'fortnight': {DURATION_HINT}"),
    (lambda: puzzlebench.solve(INKALA, memory_limit=True), TypeError,
     "memory_limit must be a number (MiB) or a text with a unit (512MiB, 2GiB, 1.5GB); got True"),
    (lambda: puzzlebench.solve_many(INKALA, solver="mrv"), TypeError,
     "solve_many takes puzzles (a list, an iterable), not one text: give [text], or text.splitlines() for "
     "one puzzle a line"),
    (lambda: puzzlebench.solve(INKALA, solver="cpsat@workers=99999999999"), UsageError,
     "option workers 99999999999: out of range: a whole number from 1 to 2^31-1"),
    # the block shape, checked as --box is: its type too
    (lambda: puzzlebench.parse(INKALA, box=(3,)), UsageError, "box (3,): expected a pair (rows, columns), e.g. (3, 3)"),
    (lambda: puzzlebench.parse(INKALA, box=(True, 9)), TypeError, "box rows must be a whole number (int); got True"),
    (lambda: puzzlebench.parse(INKALA, box=(3, 3.0)), TypeError, "box columns must be a whole number (int); got 3.0"),
    (lambda: puzzlebench.parse(INKALA, box=3), TypeError,
     "box must be a block shape, 'RxC' or a pair (rows, columns); got 3"),
    (lambda: puzzlebench.parse(INKALA, box=(0, 9)), UsageError, "box (0, 9): a block has 1 row and 1 column or more"),
    (lambda: puzzlebench.parse(INKALA, box="3by3"), UsageError, "box '3by3': expected RxC, e.g. 3x3 or 2x3"),
    (lambda: puzzlebench.solve_many([INKALA], box=(3,)), UsageError,
     "box (3,): expected a pair (rows, columns), e.g. (3, 3)"),
    # the memory limit of encode as solve's
    (lambda: puzzlebench.encode(INKALA, to="dimacs", memory_limit=-1), UsageError,
     "memory_limit -1: out of range: from 0 to 2^63-1 bytes"),
    (lambda: puzzlebench.solve(INKALA, memory_limit=-1), UsageError,
     "memory_limit -1: out of range: from 0 to 2^63-1 bytes"),
    (lambda: puzzlebench.solve(INKALA, wall_limit=5), UsageError, WALL_LIMIT_ON_THE_WALL_CLOCK),
    (lambda: puzzlebench.solve(INKALA, clock="cpu", time_limit=5, wall_limit="5 fortnights"), UsageError,
     f"wall_limit 5 fortnights: unknown unit 'fortnights': {DURATION_HINT}"),
])
def test_the_api_refuses_a_bad_argument_in_one_line(call, error, message):
    with pytest.raises(error) as err:
        call()
    assert str(err.value) == message


def test_the_api_takes_units_and_a_list_of_one_text():
    assert puzzlebench.solve(INKALA, time_limit="30s", memory_limit="1GiB").status == "unique"
    assert [r.status for r in puzzlebench.solve_many([INKALA], time_limit="1min")] == ["unique"]


def test_the_api_takes_a_block_shape_as_a_text_a_tuple_or_a_list():
    """A list is a pair as JSON and TOML write one; the MB of encode's memory limit are solve's."""
    six = "1.....\n......\n......\n......\n......\n.....2"
    shapes = {repr(box): puzzlebench.parse(six, box=box).box for box in ("3x2", (3, 2), [3, 2])}
    assert set(shapes.values()) == {(3, 2)}
    assert puzzlebench.solve(six, box=[2, 3]).puzzle.box == (2, 3)
    with pytest.raises(UsageError) as err:   # 1 MB, as for solve (it was taken as 1 byte)
        puzzlebench.encode(INKALA, to="dimacs", encoding="extended", memory_limit=1)
    assert str(err.value).startswith("the dimacs export of this sudoku is estimated at ")
    assert "more than the 1 MB the memory limit leaves" in str(err.value)
    assert puzzlebench.encode(INKALA, to="dimacs", memory_limit="1GiB").write().startswith("c puzzlebench cnf")


@pytest.mark.parametrize("text, message", [
    ("sat@encoding=minimal;encoding=extended", "option encoding is given twice"),
    ("sat:", "no variant after ':' (leave out ':' for the default)"),
    ("sat:@encoding=minimal", "no variant after ':' (leave out ':' for the default)"),
    ("sat@", "no option after '@' (key=value;…)"),
])
def test_a_spec_says_each_thing_once(text, message):
    with pytest.raises(SolverSpecError) as err:
        parse_spec(text)
    assert str(err.value) == f"solver spec {text!r}: {message}"


# -- edge values through every numeric option of every command ---------------------------------

EDGES = ["0", "-1", str(2 ** 31), str(2 ** 63), str(10 ** 23), "nan", "inf", "1e308"]
BENCH = ["bench", "{four}", "--solvers", "mrv", "--quiet", "--db", "{db}"]
COMMANDS = {   # a command that runs in well under a second, and its numeric options
    "solve": (["solve", "{four}"], ["--limit", "--time-limit", "--memory-limit", "--keep"]),
    "count": (["count", "{four}"], ["--limit", "--time-limit", "--keep"]),
    "solve-xc": (["solve-xc", "{m}"], ["--limit", "--show", "--time-limit"]),
    "solve-cnf": (["solve-cnf", "{cnf}"], ["--limit", "--time-limit"]),
    "solve-smt2": (["solve-smt2", "{smt}"], ["--limit", "--time-limit"]),
    "export": (["export", "{four}", "--to", "dimacs"], ["--number"]),
    "bench": (BENCH + ["--jobs", "1"], ["--limit", "--time-limit", "--memory-limit", "--repeat", "--sample",
                                        "--seed"]),
    "bench-jobs": (BENCH, ["--jobs"]),
    "report": (["report", "--db", "{db}"], ["--par", "--shift"]),
    "generate": (["generate", "sudoku", "--box", "2x2", "--count", "1", "--quiet"], ["--seed", "--clues",
                                                                                    "--check-seconds"]),
    "generate-nqueens": (["generate", "nqueens", "--count", "1", "--quiet"], ["--size", "--placed"]),
    "generate-skyscrapers": (["generate", "skyscrapers", "--size", "4", "--count", "1", "--quiet"], ["--remove"]),
    "generate-latin": (["generate", "latin", "--size", "5", "--count", "1", "--quiet"], ["--holes"]),
    "generate-rated": (["generate", "sudoku", "--count", "1", "--attempts", "1", "--quiet", "--rating-min", "1"],
                       ["--rating-max", "--rating-seconds", "--attempts"]),
    "generate-rated-min": (["generate", "sudoku", "--count", "1", "--attempts", "1", "--quiet", "--rating-max", "12"],
                           ["--rating-min"]),
    "rate": (["rate", "{easy9}"], ["--time-limit"]),   # easy: "0", no limit, rates it to the end
    "rate-fit": (["rate", "--fit", "{labelled}", "--labels", "2", "--out", "{model}", "--features", "seed",
                  "--folds", "2"], ["--folds", "--ridge", "--seed"]),
}
CASES = [(name, option, value) for name, (_, options) in COMMANDS.items() for option in options for value in EDGES]


@pytest.fixture(scope="module")
def edge_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("edges")
    (folder / "four.txt").write_text(FOUR)
    (folder / "easy9.txt").write_text(EASY + "\n")
    (folder / "labelled.txt").write_text(f"{INKALA} 3\n{EASY} 1\n{INKALA} 3\n")
    (folder / "m.dlx").write_text("a b\na\nb\na b\n")
    (folder / "f.cnf").write_text("p cnf 2 1\n1 2 0\n")
    (folder / "f.smt2").write_text("(declare-const x Bool)\n(assert x)\n")
    assert run(["bench", folder / "four.txt", "--solvers", "mrv", "--quiet", "--db", folder / "report.sqlite"])[0] == 0
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("name, option, value", CASES)
def test_an_edge_value_is_taken_or_refused_in_one_line(edge_files, tmp_path, name, option, value):
    base, _ = COMMANDS[name]
    db = edge_files / "report.sqlite" if name == "report" else tmp_path / "r.sqlite"
    argv = [a.format(four=edge_files / "four.txt", m=edge_files / "m.dlx",
                     easy9=edge_files / "easy9.txt",
                     cnf=edge_files / "f.cnf", smt=edge_files / "f.smt2", db=db,
                     labelled=edge_files / "labelled.txt", model=tmp_path / "m.json") for a in base]
    code, _, err = run(argv + [option, value])
    assert code in (0, 1, 2) + ((SAT_EXIT, UNSAT_EXIT) if name == "solve-cnf" else ()), err   # as SAT solvers exit
    assert "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("puzzlebench: error: "), err
        if name.startswith("bench"):
            assert not db.exists()


def test_a_bench_config_refuses_a_seed_sqlite_cannot_store(tmp_path):
    from puzzlebench.harness.bench import BenchConfig, run_bench
    from puzzlebench.harness.inputs import from_puzzles
    cfg = BenchConfig(solvers=["mrv"], db=str(tmp_path / "r.sqlite"), seed=2 ** 64, quiet=True)
    with pytest.raises(UsageError) as err:   # was OverflowError from SQLite, the database made
        run_bench(from_puzzles("one", [puzzlebench.parse(FOUR.strip())]), cfg)
    assert str(err.value) == f"seed {2 ** 64}: {OUT_OF_LIMIT}"
    assert not (tmp_path / "r.sqlite").exists()


def test_dlx_keeps_no_more_room_than_its_limit_or_the_machine(tmp_path):
    """The C engine allocates room for the kept solutions up front: --show 2^31-1 was a
    MemoryError traceback; with a limit it keeps at most that many, without one it says why."""
    matrix = tmp_path / "wide.dlx"
    items = [f"i{k}" for k in range(100)]
    matrix.write_text(" ".join(items) + "\n" + " ".join(items) + "\n")
    code, out, err = run(["solve-xc", matrix, "--show", str(2 ** 31 - 1), "--limit", "5"])
    assert code == 0 and out.startswith("solution 1:") and err == ""
    code, out, err = run(["solve-xc", matrix, "--show", str(2 ** 31 - 1)])
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("puzzlebench: error: keeping 2,147,483,647 solutions takes 827,392 MB up front, more "
                          "than this machine's ")
