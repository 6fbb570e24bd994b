"""The `puzzlebench` command: sub-commands, output forms, exit codes, and errors that are
messages, never tracebacks."""

import json
import os
import signal
import subprocess
import sys

import pytest

from conftest import INKALA, INKALA_SOLUTION, REPO, cpu_seconds, data_file, run
import puzzlebench
from puzzlebench.cli import main

# Seconds a command may take to get the CPU time a test of its Ctrl-C waits for: a hang guard
# (the signal is sent by CPU time, never at a wall-clock bound), below the suite's timeout
HANG_GUARD = 300


def test_solve_with_no_input_takes_the_default_example(capsys):
    code, out, _ = run(capsys, "solve")
    assert code == 0
    assert out.startswith("example:arto-inkala: unique count=1 ")
    assert "8 1 2 | 7 5 3 | 6 4 9" in out


def test_jsonl_record(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(INKALA + "\n")
    code, out, _ = run(capsys, "solve", "--format", "jsonl", str(f))
    record = json.loads(out)
    assert code == 0
    assert record["source"] == f"{f}:1" and record["kind"] == "sudoku"
    assert record["status"] == "unique" and record["count"] == 1
    assert record["solution"] == INKALA_SOLUTION and record["error"] is None
    assert set(record["times"]) == {"parse", "encode", "solve", "decode", "total", "cpu"}
    assert {"nodes", "guesses", "backtracks", "conflicts", "propagations", "raw"} <= set(record["stats"])


def test_bad_line_among_good_ones_exit_1(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(INKALA + "\n" + INKALA[:80] + "\n" + INKALA + "\n")
    code, out, _ = run(capsys, "solve", "--format", "jsonl", str(f))
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [r["status"] for r in records] == ["unique", "error", "unique"]
    assert records[1]["source"] == f"{f}:2"
    assert records[1]["error"].startswith(f"{f}:2:")


def test_nothing_usable_exit_2(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("not a puzzle at all\n")
    code, _, _ = run(capsys, "solve", str(f))
    assert code == 2


def test_usage_errors_are_messages(capsys):
    code, _, err = run(capsys, "solve", "--time-limit", "0")
    assert code == 2
    assert err == "puzzlebench: error: the time limit must be positive (seconds); got 0\n"
    code, _, err = run(capsys, "solve", "--solver", "nosuch")
    assert code == 2 and err.startswith("puzzlebench: error: unknown solver 'nosuch'; known: ")
    code, _, err = run(capsys, "solve", "/nonexistent/file.txt")
    assert code == 2
    assert err == "puzzlebench: error: cannot read /nonexistent/file.txt: No such file or directory\n"


def test_version(capsys):
    """--version, the first thing many try: it was "unrecognized arguments", exit 2."""
    import puzzlebench
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out == f"puzzlebench {puzzlebench.__version__}\n"


@pytest.mark.parametrize("command", ["solve", "count", "show", "check"])
def test_a_file_that_cannot_be_read_stops_the_command_before_any_answer(tmp_path, capsys, command):
    good = tmp_path / "good.txt"
    good.write_text("..13....2.4.....\n")
    # the good file's batch was read, then dropped unanswered when the missing file came up
    for bad, why in [("/nonexistent/file.txt", "No such file or directory"), (str(tmp_path), "Is a directory")]:
        code, out, err = run(capsys, command, str(good), bad, str(good))
        assert (code, out, err) == (2, "", f"puzzlebench: error: cannot read {bad}: {why}\n")


@pytest.mark.parametrize("box, message", [("3x", "expected RxC, e.g. 3x3 or 2x3"),
                                          ("0x0", "a block has 1 row and 1 column or more")])
@pytest.mark.parametrize("command", ["solve", "show", "check", "bench"])
def test_a_malformed_box_is_one_usage_error_not_one_a_puzzle(tmp_path, capsys, command, box, message):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("..13....2.4.....\n" * 3)
    extra = ["--solvers", "mrv", "--db", str(tmp_path / "b.sqlite")] if command == "bench" else []
    code, out, err = run(capsys, command, str(puzzles), "--box", box, *extra)
    assert (code, out, err) == (2, "", f"puzzlebench: error: block shape '{box}': {message}\n")


@pytest.mark.slow
def test_no_traceback_from_the_real_command(tmp_path):
    f = tmp_path / "junk.bin"
    f.write_bytes(b"\x00\xff\xfe\x01binary")
    proc = subprocess.run([sys.executable, "-m", "puzzlebench.cli", "solve", str(f)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "binary data" in proc.stdout


def test_count_eight_queens(capsys):
    code, out, _ = run(capsys, "count", "--example", "8-queens", "--format", "jsonl")
    record = json.loads(out)
    assert code == 0 and record["status"] == "multiple" and record["count"] == 92


def test_count_lists_the_solutions_it_keeps(capsys):
    """The README's "count --example 8-queens   # all 92" printed one solution of the 92."""
    from puzzlebench.models.examples import example
    from puzzlebench.engines.registry import make_engine
    queens = example("8-queens")
    code, out, _ = run(capsys, "count", "--example", "8-queens")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 11 and " count=92 " in lines[0]
    assert [line.split(": ")[0] for line in lines[1:10]] == [f"solution {k}" for k in range(2, 11)]
    assert lines[10] == "… 82 more not kept (--keep K lists K)"
    code, out, _ = run(capsys, "count", "--example", "8-queens", "--keep", "92")
    first = out.splitlines()[0]
    listed = [first[first.index(" 8 (") + 1:]] + [line.split(": ")[1] for line in out.splitlines()[1:]]
    every = make_engine("mrv").run(queens, limit=None, keep=100).solutions
    assert code == 0 and sorted(listed) == sorted(queens.write_solution(s) for s in every) and len(set(listed)) == 92
    code, out, _ = run(capsys, "solve", "--example", "8-queens")
    assert code == 0 and "solution 2" not in out


def test_with_no_solver_named_each_kind_takes_its_default_engine(capsys, tmp_path):
    """The native bitboards where they take the kind (Sudoku, N-Queens, ...), MRV where they do
    not (Futoshiki, KenKen, Killer), in one run of a file that mixes kinds, answers in order."""
    from puzzlebench.models.examples import example
    mixed = tmp_path / "mixed.txt"
    futoshiki = "4:1,0,0,0,0,2,0,0,3,0,0,0,0,0,1,4,"   # Tatham's Unequal game id, the first of the public set
    mixed.write_text("\n".join([futoshiki, INKALA, example("kenken4").write(), INKALA]) + "\n")
    code, out, _ = run(capsys, "solve", str(mixed), "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(r["kind"], r["solver"], r["status"]) for r in rows] == [
        ("futoshiki", "mrv", "unique"), ("sudoku", "bitboard", "unique"), ("kenken", "mrv", "unique"),
        ("sudoku", "bitboard", "unique")]
    assert puzzlebench.solve(INKALA).solver == "bitboard"
    assert [r.solver for r in puzzlebench.solve_many([example("killer"), INKALA, example("8-queens")])] == [
        "mrv", "bitboard", "bitboard"]


def test_check_lists_every_broken_rule(capsys, tmp_path):
    wrong = "21" + INKALA_SOLUTION[2:]
    f = tmp_path / "s.txt"
    f.write_text(f"{INKALA} {INKALA_SOLUTION}\n{INKALA} {wrong}\n")
    code, out, err = run(capsys, "check", str(f))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{f}:1: valid"
    assert lines[1] == f"{f}:2: invalid"
    assert "  r1c1 is given as 8, solution has 2" in lines
    assert err == "puzzlebench: 2 records: 1 invalid, 1 valid\n"   # check times nothing: no "0.000s in all"


def test_check_names_a_field_that_is_not_a_solution(capsys, tmp_path):
    f = tmp_path / "s.txt"
    f.write_text(f"{INKALA} {INKALA_SOLUTION[:80]}\n{INKALA}\n")
    code, out, err = run(capsys, "check", str(f))
    # a cut solution was "no solution given after the puzzle", as if there were none
    cut = (f"{f}:1: error: no solution after the puzzle: the next field, '{INKALA_SOLUTION[:20]}…' "
           "(80 characters), is not 81 values")
    assert (code, out.splitlines()) == (2, [cut, f"{f}:2: error: no solution given after the puzzle"])
    assert err.splitlines()[0] == f"puzzlebench: {cut}"


def test_check_verifies_a_skyscrapers_solution_and_refuses_other_fields(capsys, tmp_path):
    line, solution = "4 2,2,1,4 3,2,3,1 2,1,2,3 2,3,2,1", "3,2,4,1,4,1,3,2,2,4,1,3,1,3,2,4"
    wrong = solution[:-1] + "1"
    f = tmp_path / "sky.txt"
    f.write_text(f"{line} nsol=1 {solution}\n{line} nsol=1 {wrong}\n{line} nsol=1 {solution} extra\n")
    code, out, err = run(capsys, "check", str(f))
    lines = out.splitlines()
    assert lines[:3] == [f"{f}:1: valid", f"{f}:2: invalid", "  row 4 is not a permutation of 1..4"]
    # an extra field was ignored (the line "valid"); now an error at its column, the others still run
    extra = f"{f}:3:74: error: unexpected field 'extra' after the solution (column 42): a line ends with one solution"
    assert lines[-1] == extra and f"puzzlebench: {extra}" in err.splitlines()
    assert code == 1                     # some records failed, not the whole input


def test_show_says_the_block_shape_was_inferred(capsys, tmp_path):
    f = tmp_path / "six.txt"
    f.write_text(".6.4.1..1......3..........2.4.4.35..\n")
    code, out, _ = run(capsys, "show", str(f))
    assert code == 0 and out.startswith(f"{f}:1: sudoku 6x6 (2x3 blocks) (block shape inferred)")
    code, out, _ = run(capsys, "show", "--box", "3x2", str(f))
    assert f"{f}:1: sudoku 6x6 (3x2 blocks)\n" in out


@pytest.mark.slow
def test_solvers_lists_every_engine(capsys):
    code, out, _ = run(capsys, "solvers", "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    names = {r["solver"] for r in rows}
    assert {"backtrack", "mrv"} <= names
    assert all(r["version"] and r["kinds"] for r in rows)


def test_statistics_doc_is_up_to_date(capsys):
    code, out, _ = run(capsys, "solvers", "--statistics")
    doc = REPO / "docs" / "STATISTICS.md"
    assert doc.read_text() == out, "run: puzzlebench solvers --statistics > docs/STATISTICS.md"


@pytest.mark.slow
def test_mrv_answers_top95(capsys):
    path = data_file("sudoku9_norvig_top95.txt")
    code, out, _ = run(capsys, "solve", "--solver", "mrv", "--format", "jsonl", str(path))
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 95
    assert all(r["status"] == "unique" for r in records)


@pytest.mark.parametrize("argv, message", [
    (["solve-xc", "-", "--time-limit", "0"], "the time limit must be positive (seconds); got 0"),
    (["solve-cnf", "-", "--time-limit", "-1"], "--time-limit -1: out of range: from 0 to 1000000 s"),
    (["solve-smt2", "-", "--limit", "-2"], "--limit -2: out of range: a whole number from 0 to 2^63-1"),
    (["solve", "--time-limit", "nan"], "--time-limit nan: not a finite duration"),
    (["count", "--limit", "-1"], "--limit -1: out of range: a whole number from 0 to 2^63-1"),
    # a child's limit in milliseconds must fit poll()'s int: these were OverflowError tracebacks
    (["solve", "--solver", "sat", "--time-limit", "inf"], "--time-limit inf: not a finite duration"),
    (["solve-cnf", "-", "--time-limit", "1e9"], "--time-limit 1e9: out of range: from 0 to 1000000 s"),
    (["bench", "-", "--solvers", "mrv", "--time-limit", "12d"],
     "--time-limit 12d: unknown unit 'd': a number (s) or one with a unit: ms, s, min, h "
     "(e.g. 250ms, 90s, 15min, 1.5h)"),
    (["solve", "--time-limit", "278h"], "--time-limit 278h: out of range: from 0 to 1000000 s"),
])
def test_every_command_checks_limits_the_same_way(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert (code, err) == (2, f"puzzlebench: error: {message}\n")


def test_the_longest_time_limit_runs_an_engine_in_a_child(capsys):
    # sat runs in a child waited for in milliseconds: the largest limit taken must still fit
    code, out, err = run(capsys, "solve", "--example", "arto-inkala", "--solver", "sat", "--time-limit", "1e6")
    assert code == 0 and out.startswith("example:arto-inkala: unique count=1") and "Error" not in err


def test_each_command_loads_its_own_module_and_its_help_lists_every_command(capsys):
    """A command line loads the one module that registers its command, so the table of which
    module registers which must be true; ``--help`` and a mistyped name load them all."""
    import puzzlebench.cli as cli
    every = cli.build_parser()._subparsers._group_actions[0].choices
    assert sorted(every) == sorted(c for commands in cli.COMMAND_MODULES.values() for c in commands)
    for module, commands in cli.COMMAND_MODULES.items():
        for command in commands:
            assert cli._modules_for([command, "--help"]) == [module]
            assert sorted(cli.build_parser([module])._subparsers._group_actions[0].choices) == sorted(commands)
    assert cli._modules_for(["--help"]) == cli._modules_for(["slove"]) == list(cli.COMMAND_MODULES)
    loaded = subprocess.run([sys.executable, "-c", "import sys; from puzzlebench.cli import main; "
                             "main(['solvers']); print(sorted(m for m in sys.modules if m.startswith('puzzlebench.cli.')))"],
                            capture_output=True, text=True, cwd=REPO)
    assert loaded.stdout.splitlines()[-1] == "['puzzlebench.cli.common', 'puzzlebench.cli.puzzles']", loaded.stderr
    with pytest.raises(SystemExit) as stopped:
        main(["slove"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "invalid choice: 'slove' (choose from" in err and "'solve-cnf'" in err


def test_every_commands_help_opens_with_its_description_in_plain_text():
    from puzzlebench.cli import build_parser
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    assert len(commands) >= 14
    for name, command in commands.items():
        text = command.format_help()
        assert command.description and command.description[0].isupper(), name
        for markup in ("``", ":class:", ":func:", ":meth:", ":data:"):
            assert markup not in text, (name, markup)
    assert "``" not in parser.format_help()


@pytest.mark.slow
def test_ctrl_c_inside_a_pysat_solve_is_an_interruption_not_a_traceback():
    """PySAT's C module turns Ctrl-C into its own pysolvers.error: the command printed that
    traceback and exited 1.  The hardest puzzles keep glucose busy: the signal lands in a solve
    almost every time (and in Python code, the ordinary KeyboardInterrupt, it must end the same)."""
    import pysolvers
    from puzzlebench.runtime.interrupts import is_pysat_interrupt
    assert is_pysat_interrupt(pysolvers.error("Caught keyboard interrupt"))
    assert not is_pysat_interrupt(pysolvers.error("something else")) and not is_pysat_interrupt(ValueError("x"))
    path = data_file("sudoku9_forum_hardest_1905_11plus.txt")
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench.cli", "solve", str(path), "--solver", "sat",
                             "--format", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    for _ in range(200):           # answers coming: the solver is at work
        assert proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    proc.stdout.read()
    assert (proc.wait(timeout=60), proc.stderr.read().decode()) == (130, "puzzlebench: interrupted\n")


@pytest.mark.slow
@pytest.mark.parametrize("command, solver, extra", [
    ("solve", "mrv", []),                          # in-process, puzzle by puzzle (Engine.run_many)
    ("count", "mrv", ["--memory-limit", "300"]),   # in a child (run_limited), the same path for count
    ("solve", "sat", []),                          # PySAT's own error for a Ctrl-C in its solve
])
def test_ctrl_c_prints_every_answer_finished_before_it(command, solver, extra):
    """``solve`` answers a file in batches of 1,000 puzzles: a Ctrl-C in a batch dropped every
    answer of that batch computed so far (no record at all in the first 1,000).  Now each is
    printed, in order and checked, then "interrupted" and exit 130."""
    import threading
    import time
    if solver == "sat":
        pytest.importorskip("pysat")
    path = data_file("sudoku9_forum_hardest_1905_11plus.txt")
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench.cli", command, str(path), "--solver", solver,
                             "--format", "jsonl", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    out = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout))   # a full pipe would stall it
    reader.start()
    try:
        started = time.monotonic()
        printed, since = 0, 0.0
        while True:
            cpu = cpu_seconds(proc.pid)
            if len(out) != printed:   # a batch printed: the next one begins
                printed, since = len(out), cpu
            if cpu >= 3.0 and cpu - since >= 0.3:   # imports done, 0.3 s into a batch
                break
            assert proc.poll() is None, "the command ended before its Ctrl-C"
            assert time.monotonic() - started < HANG_GUARD, f"the command had {cpu:.1f} s of CPU"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        reader.join()
    assert (code, proc.stderr.read().decode()) == (130, "puzzlebench: interrupted\n")
    records = [json.loads(line) for line in out]
    # stopped inside a batch, its answers so far printed (mrv: in the first, whose 1,000 puzzles take
    # about 15 s of CPU; sat about 1 s a batch: 0.3 s of CPU after a batch was printed; the SIGINT
    # sent as the next batch was being read, 2,000 answers of 2,000, was a failure 1 run in 3)
    assert records and len(records) % 1000, len(records)
    lines = path.read_text().splitlines()
    for number, r in enumerate(records, start=1):
        assert r["source"] == f"{path}:{number}" and r["status"] == "unique"
        puzzle = puzzlebench_parse(lines[number - 1])
        assert not puzzle.check(puzzle.parse_solution(r["solution"]))


def test_a_ctrl_c_during_a_native_batch_keeps_the_whole_batch():
    """A native batch call looks at no signal: it answers its 1,000 puzzles whatever is
    pressed, and the KeyboardInterrupt raised at the first Python line after it dropped them
    all.  The Ctrl-C is held until the call returns; the batch goes with the interruption."""
    from puzzlebench.runtime.limits import Interrupted
    from puzzlebench.engines.bitboard import BitboardEngine

    class PressedDuringTheCall(BitboardEngine):
        def batch(self, puzzles, **kw):
            results = super().batch(puzzles, **kw)
            os.kill(os.getpid(), signal.SIGINT)   # as a Ctrl-C while the C call ran
            return results

    lines = data_file("sudoku9_forum_hardest_1905_11plus.txt").read_text().splitlines()[:20]
    puzzles = [puzzlebench_parse(line) for line in lines]
    with pytest.raises(Interrupted) as caught:
        PressedDuringTheCall().run_many(puzzles, limit=2)
    done = caught.value.done
    assert [str(r.status) for r in done] == ["unique"] * 20 and not done.wrong
    assert done.columns is not None and all(done.columns.verified)   # checked by the bulk checker
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def puzzlebench_parse(text):
    from puzzlebench import parse
    return parse(text)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["cpsat", "cpmpy:z3", "cpmpy:exact"])
def test_ctrl_c_caught_by_the_back_end_still_stops_the_command(tmp_path, solver):
    """OR-Tools and Z3 (here through CPMpy) catch SIGINT themselves and end the search early:
    with no time limit that puzzle was a 'timeout' and the command went on with the rest.
    Exact raises its own error for it ("Program interrupted by user."), which was stored as the
    puzzle's error; in a child of its own, as Exact keeps the signal for the process's life."""
    pytest.importorskip("ortools" if solver == "cpsat" else "cpmpy")
    if solver == "cpmpy:exact":
        from puzzlebench.engines.cpmpy import MISSING, VARIANTS
        if "exact" not in VARIANTS:
            pytest.skip(MISSING.get("exact", MISSING.get("*", "CPMpy's exact back end is not usable here")))
    import time
    lines = data_file("sudoku9_forum_hardest_1905_11plus.txt").read_text().splitlines()[:3000]
    puzzles = tmp_path / "hard.txt"
    puzzles.write_text("\n".join(lines) + "\n")   # minutes of work for either
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebench.cli", "solve", str(puzzles), "--solver", solver],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        # imports done, the back end at work: by CPU time, not by the clock (a sleep of 5 s
        # sometimes ended before the imports on a loaded machine)
        started = time.monotonic()
        while cpu_seconds(proc.pid) < 4.0:
            assert proc.poll() is None, "the command ended before its Ctrl-C"
            assert time.monotonic() - started < HANG_GUARD, "the command never got to work"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
    assert (code, proc.stderr.read().decode()) == (130, "puzzlebench: interrupted\n")


@pytest.mark.slow
@pytest.mark.parametrize("module", ["puzzlebench", "puzzlebench.cli"])
def test_python_dash_m_runs_the_command(module):
    # 'python -m puzzlebench' was "No module named puzzlebench.__main__"
    proc = subprocess.run([sys.executable, "-m", module, "solve", "--example", "course-4x4", "--format", "jsonl"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "unique"


def test_every_option_of_every_command_has_help():
    """``generate --count/--seed``, several ``--format`` and ``--time-limit`` had none: ``--help``
    listed them bare."""
    import argparse

    from puzzlebench.cli import build_parser

    parser = build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    bare = [f"{name} {'/'.join(action.option_strings) or action.dest}"
            for name, command in [("puzzlebench", parser), *commands.choices.items()]
            for action in command._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
            and not (action.help or "").strip()]
    assert bare == []
    assert {action.dest for action in commands._choices_actions if not action.help} == set()


@pytest.mark.parametrize("argv, message", [
    (["bench", "--clock", "sun"], "argument --clock: invalid choice: 'sun' (choose from 'wall', 'cpu') "
                                  "(see puzzlebench bench --help)"),
    (["solve", "--frobnicate"], "unrecognized arguments: --frobnicate (see puzzlebench --help)"),
    (["solve", "--limit"], "argument --limit: expected one argument (see puzzlebench solve --help)"),
])
def test_an_argparse_usage_error_is_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"
